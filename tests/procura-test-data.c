/* procura-test-data.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "procura-fields.h"
#include "procura-test-data.h"

static void
add_text (GPtrArray  *texts,
          const char *s)
{
  if (s != NULL && strlen (s) >= 3)
    g_ptr_array_add (texts, g_strdup (s));
}

/* Whether the byte at @p ends or starts a word: a letter or digit (any non-ASCII byte
 * counts as a letter) continues it. */
static gboolean
is_word_byte (char c)
{
  return g_ascii_isalnum (c) || (c & 0x80) != 0;
}

/* Replaces @find in @text where it stands as whole words ("pass" is not blanked
 * inside "passt"). */
static void
blank_words (GString    *text,
             const char *find)
{
  gsize len = strlen (find);
  gsize at = 0;
  char *hit;

  while ((hit = strstr (text->str + at, find)) != NULL)
    {
      gsize pos = hit - text->str;
      gboolean start = pos == 0 || !is_word_byte (text->str[pos - 1]) || !is_word_byte (find[0]);
      gboolean end = !is_word_byte (text->str[pos + len]) || !is_word_byte (find[len - 1]);

      if (start && end)
        {
          g_string_erase (text, pos, len);
          g_string_insert (text, pos, "…");
          at = pos + strlen ("…");
        }
      else
        at = pos + 1;
    }
}

static int
longest_first (gconstpointer a,
               gconstpointer b)
{
  return (int) strlen (*(const char * const *) b) - (int) strlen (*(const char * const *) a);
}

void
procura_test_blank_project_text (GString        *text,
                                 ProcuraProject *project)
{
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  const ProcuraField *fields;
  gsize n_fields;

  fields = procura_fields (&n_fields);
  for (gsize i = 0; i < n_fields; i++)
    {
      const ProcuraField *f = &fields[i];
      GPtrArray *rows = procura_field_table_rows (project, f->table);

      if (f->type != PROCURA_FIELD_TEXT && f->type != PROCURA_FIELD_CHOICE)
        continue;
      for (guint r = 0; r < (rows != NULL ? rows->len : 1); r++)
        {
          gpointer record = procura_field_record (project, f->table, rows != NULL ? g_ptr_array_index (rows, r) : NULL);

          if (record != NULL && !procura_field_is_unset (f, record))
            add_text (texts, *(char **) ((guint8 *) record + f->offset));
        }
    }
  for (guint i = 0; i < project->runs->len; i++)
    add_text (texts, ((ProcuraRun *) g_ptr_array_index (project->runs, i))->label);
  for (guint i = 0; i < project->provenance->len; i++)
    add_text (texts, ((ProcuraProvenance *) g_ptr_array_index (project->provenance, i))->file_name);
  g_ptr_array_sort (texts, longest_first);
  for (guint i = 0; i < texts->len; i++)
    blank_words (text, g_ptr_array_index (texts, i));
}
