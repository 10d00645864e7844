/* procura-test-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

#include "procura-test-util.h"

char *
procura_test_mkdtemp (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("procura-test-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

void
procura_test_rmtree (const char *path)
{
  GDir *dir;
  const char *name;

  if (path == NULL)
    return;
  if (!g_file_test (path, G_FILE_TEST_IS_DIR) || g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_unlink (path);
      return;
    }
  dir = g_dir_open (path, 0, NULL);
  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          procura_test_rmtree (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

char *
procura_test_fixture (const char *name)
{
  const char *dir = g_getenv ("PROCURA_TEST_DATA");

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

char *
procura_test_real_fixture (const char *relative)
{
  const char *dir = g_getenv ("PROCURA_FIXTURES_DIR");
  char *path;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    return NULL;
  path = g_build_filename (dir, relative, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_free (path);
      return NULL;
    }
  return path;
}

const char *
procura_test_real_fixtures_missing (void)
{
  return "real fixtures not found (meson option fixtures_dir, default ../shared/fixtures/real): conformance test skipped";
}

int
procura_test_run_cli (const char * const *argv,
                      char              **out,
                      char              **err)
{
  const char *binary = g_getenv ("PROCURA_BINARY");
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  int status = -1;

  g_assert_nonnull (binary);
  g_ptr_array_add (args, (gpointer) binary);
  for (gsize i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) argv[i]);
  g_ptr_array_add (args, NULL);

  /* output not asked for is discarded: it must not mix with the test's TAP */
  g_spawn_sync (NULL, (char **) args->pdata, NULL,
                (out == NULL ? G_SPAWN_STDOUT_TO_DEV_NULL : 0)
                | (err == NULL ? G_SPAWN_STDERR_TO_DEV_NULL : 0),
                NULL, NULL, out, err, &status, &error);
  g_assert_no_error (error);
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  return 128 + WTERMSIG (status);
}

void
procura_test_bind_build_catalogues (void)
{
  g_autofree char *dir = g_build_filename (BUILDDIR, "po", NULL);

  bindtextdomain (GETTEXT_PACKAGE, dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

char *
procura_test_catalogue_path (const char *lang)
{
  g_autofree char *file = g_strconcat (GETTEXT_PACKAGE, ".mo", NULL);

  return g_build_filename (BUILDDIR, "po", lang, "LC_MESSAGES", file, NULL);
}

/* The @i-th string of the table at @table in the .mo @data (all its NUL-separated forms). */
static gboolean
mo_string (const guint8 *data,
           gsize         size,
           gboolean      swap,
           guint32       table,
           guint32       i,
           const char  **str,
           guint32      *len)
{
  guint32 entry[2];

  if ((guint64) table + 8 * ((guint64) i + 1) > size)
    return FALSE;
  memcpy (entry, data + table + 8 * i, sizeof entry);
  if (swap)
    {
      entry[0] = GUINT32_SWAP_LE_BE (entry[0]);
      entry[1] = GUINT32_SWAP_LE_BE (entry[1]);
    }
  if ((guint64) entry[1] + entry[0] >= size)
    return FALSE;
  *str = (const char *) data + entry[1];
  *len = entry[0];
  return TRUE;
}

/* Whether @piece reads as English words: two words of two letters or more. */
static gboolean
piece_has_words (const char *piece)
{
  guint words = 0, letters = 0;

  for (const char *p = piece;; p++)
    {
      if (g_ascii_isalpha (*p))
        letters++;
      else
        {
          if (letters >= 2)
            words++;
          letters = 0;
        }
      if (*p == '\0')
        break;
    }
  return words >= 2;
}

char *
procura_test_english_left (const char *mo_path,
                           const char *text,
                           guint      *pieces)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GMappedFile) mo = g_mapped_file_new (mo_path, FALSE, &error);
  g_autoptr (GRegex) conversion = NULL;
  g_autoptr (GString) translations = g_string_new (NULL);
  g_autoptr (GPtrArray) candidates = g_ptr_array_new_with_free_func (g_free);
  const guint8 *data;
  gsize size;
  guint32 head[5];
  gboolean swap;
  char *found = NULL;

  g_assert_no_error (error);
  data = (const guint8 *) g_mapped_file_get_contents (mo);
  size = g_mapped_file_get_length (mo);
  g_assert_cmpuint (size, >=, sizeof head);
  memcpy (head, data, sizeof head);
  swap = head[0] == 0xde120495;
  g_assert_true (head[0] == 0x950412de || swap);
  if (swap)
    for (guint i = 2; i < 5; i++)
      head[i] = GUINT32_SWAP_LE_BE (head[i]);
  conversion = g_regex_new ("%(?:[0-9]+\\$)?[-+ #0']*(?:[0-9]+|\\*)?(?:\\.(?:[0-9]+|\\*))?(?:hh|h|ll|l|L|z|j|t)?"
                            "[diouxXeEfFgGaAcsp%]|\\n|\\t|<[^>]*>", 0, 0, &error);
  g_assert_no_error (error);
  for (guint32 i = 0; i < head[2]; i++)
    {
      const char *id, *str;
      guint32 id_len, str_len;

      g_assert_true (mo_string (data, size, swap, head[3], i, &id, &id_len));
      g_assert_true (mo_string (data, size, swap, head[4], i, &str, &str_len));
      /* every plural form of the translation, NUL-separated */
      for (guint32 at = 0; at < str_len; at += strlen (str + at) + 1)
        g_string_append_printf (translations, "%s\n", str + at);
      if (id_len == 0 || (id_len == str_len && memcmp (id, str, id_len) == 0))
        continue;
      /* a context precedes the msgid with an EOT; the plural follows it with a NUL */
      if (memchr (id, '\004', id_len) != NULL)
        id = (const char *) memchr (id, '\004', id_len) + 1;
      for (const char *form = id; form < id + id_len; form += strlen (form) + 1)
        {
          g_auto (GStrv) split = g_regex_split (conversion, form, 0);

          for (guint k = 0; split[k] != NULL; k++)
            {
              char *piece = g_strstrip (g_strdup (split[k]));

              if (piece_has_words (piece))
                g_ptr_array_add (candidates, piece);
              else
                g_free (piece);
            }
        }
    }
  if (pieces != NULL)
    *pieces = 0;
  for (guint i = 0; i < candidates->len && found == NULL; i++)
    {
      const char *piece = g_ptr_array_index (candidates, i);

      /* a piece a translation keeps (a product name, a unit) is not English left over */
      if (strstr (translations->str, piece) != NULL)
        continue;
      if (pieces != NULL)
        (*pieces)++;
      if (strstr (text, piece) != NULL)
        found = g_strdup (piece);
    }
  return found;
}
