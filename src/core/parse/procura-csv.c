/* procura-csv.c: a small RFC 4180 CSV reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-csv.h"
#include "procura-import.h"

struct ProcuraCsv {
  GStringChunk *chunk;
  GPtrArray    *fields;   /* const char* into chunk */
  GArray       *row_start;/* guint: index of a row's first field; one extra at the end */
  GArray       *row_line; /* guint: 1-based line where the row starts */
};

void
procura_csv_free (ProcuraCsv *csv)
{
  if (csv == NULL)
    return;
  g_string_chunk_free (csv->chunk);
  g_ptr_array_unref (csv->fields);
  g_array_unref (csv->row_start);
  g_array_unref (csv->row_line);
  g_free (csv);
}

static gboolean
emit_field (ProcuraCsv *csv,
            GString    *field,
            guint      *row_fields)
{
  if (memchr (field->str, '\0', field->len) != NULL)
    return FALSE;
  g_ptr_array_add (csv->fields, g_string_chunk_insert_len (csv->chunk, field->str, (gssize) field->len));
  (*row_fields)++;
  g_string_truncate (field, 0);
  return TRUE;
}

static void
end_row (ProcuraCsv *csv,
         guint      *row_fields,
         guint       first_line)
{
  guint start = csv->fields->len - *row_fields;

  g_array_append_val (csv->row_start, start);
  g_array_append_val (csv->row_line, first_line);
  *row_fields = 0;
}

typedef enum { ST_START, ST_UNQUOTED, ST_QUOTED, ST_AFTER_QUOTE } CsvState;

ProcuraCsv *
procura_csv_parse (const char  *name,
                   const char  *data,
                   gsize        len,
                   char         separator,
                   GError     **error)
{
  g_autoptr(ProcuraCsv) csv = g_new0 (ProcuraCsv, 1);
  g_autoptr(GString) field = g_string_sized_new (64);
  CsvState st = ST_START;
  gsize i = 0;
  guint line = 1, col = 1, qline = 1, qcol = 1;
  guint row_fields = 0, first_line = 1;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  if (name == NULL)
    name = "(data)";
  csv->chunk = g_string_chunk_new (MAX (len / 2, 256));
  csv->fields = g_ptr_array_new ();
  csv->row_start = g_array_new (FALSE, FALSE, sizeof (guint));
  csv->row_line = g_array_new (FALSE, FALSE, sizeof (guint));

  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    i = 3;

  for (; i < len; i++, col++)
    {
      char c = data[i];
      gboolean eol = (c == '\n' || c == '\r');

      if (st == ST_QUOTED)
        {
          if (c == '"')
            {
              if (i + 1 < len && data[i + 1] == '"')
                {
                  g_string_append_c (field, '"');
                  i++;
                  col++;
                }
              else
                st = ST_AFTER_QUOTE;
              continue;
            }
          if (c == '\n')
            {
              line++;
              col = 0;
            }
          g_string_append_c (field, c);
          continue;
        }

      if (st == ST_START && row_fields == 0)
        first_line = line;

      if (eol)
        {
          if (st != ST_START || row_fields > 0)
            {
              if (!emit_field (csv, field, &row_fields))
                goto nul_byte;
              end_row (csv, &row_fields, first_line);
            }
          /* else: a blank line, skipped */
          st = ST_START;
          if (c == '\r' && i + 1 < len && data[i + 1] == '\n')
            i++;
          line++;
          col = 0;
          continue;
        }
      if (c == separator && st != ST_QUOTED)
        {
          if (!emit_field (csv, field, &row_fields))
            goto nul_byte;
          st = ST_START;
          continue;
        }
      switch (st)
        {
        case ST_START:
          if (c == '"')
            {
              st = ST_QUOTED;
              qline = line;
              qcol = col;
            }
          else
            {
              g_string_append_c (field, c);
              st = ST_UNQUOTED;
            }
          break;
        case ST_UNQUOTED:
          /* a quote inside an unquoted field is kept literally, as Excel and
           * Python's csv module do */
          g_string_append_c (field, c);
          break;
        case ST_AFTER_QUOTE:
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                       _("%s:%u:%u: unexpected character after a quoted field "
                         "(expected '%c' or a line end)"), name, line, col, separator);
          return NULL;
        case ST_QUOTED:
        default:
          g_assert_not_reached ();
        }
    }

  if (st == ST_QUOTED)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                   _("%s:%u:%u: quoted field never closed (expected a closing \")"),
                   name, qline, qcol);
      return NULL;
    }
  if (st != ST_START || row_fields > 0)
    {
      if (!emit_field (csv, field, &row_fields))
        goto nul_byte;
      end_row (csv, &row_fields, first_line);
    }
  {
    guint end = csv->fields->len;
    g_array_append_val (csv->row_start, end);
  }
  return g_steal_pointer (&csv);

nul_byte:
  g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
               _("%s:%u: NUL byte in a field (expected text)"), name, line);
  return NULL;
}

guint
procura_csv_n_rows (const ProcuraCsv *csv)
{
  return csv->row_line->len;
}

guint
procura_csv_n_fields (const ProcuraCsv *csv,
                      guint             row)
{
  if (row >= csv->row_line->len)
    return 0;
  return g_array_index (csv->row_start, guint, row + 1) - g_array_index (csv->row_start, guint, row);
}

const char *
procura_csv_get (const ProcuraCsv *csv,
                 guint             row,
                 guint             col)
{
  if (col >= procura_csv_n_fields (csv, row))
    return NULL;
  return g_ptr_array_index (csv->fields, g_array_index (csv->row_start, guint, row) + col);
}

guint
procura_csv_row_line (const ProcuraCsv *csv,
                      guint             row)
{
  if (row >= csv->row_line->len)
    return 0;
  return g_array_index (csv->row_line, guint, row);
}

int
procura_csv_column (const ProcuraCsv *csv,
                    const char       *name)
{
  guint n = procura_csv_n_fields (csv, 0);

  for (guint c = 0; c < n; c++)
    {
      g_autofree char *h = g_strstrip (g_strdup (procura_csv_get (csv, 0, c)));
      if (g_ascii_strcasecmp (h, name) == 0)
        return (int) c;
    }
  return -1;
}
