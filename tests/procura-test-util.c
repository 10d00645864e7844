/* procura-test-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
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
