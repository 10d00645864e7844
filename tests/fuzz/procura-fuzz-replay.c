/* procura-fuzz-replay.c: runs a libFuzzer entry point over corpus files and folders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Linked with each fuzz target's LLVMFuzzerTestOneInput when the build is not a
 * -Dfuzzing=true build, so that the normal test suite (and the ASan/UBSan run)
 * replays the committed corpus and, when present, the real fixtures.
 * usage: fuzz-replay-TARGET PATH...   (files, or folders read one level deep;
 *        a missing path is skipped, so the real fixtures folder may be absent)
 */
#include "config.h"

#include <glib.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static guint
replay_file (const char *path)
{
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &contents, &len, NULL))
    return 0;
  /* Copy to an exact-size buffer so ASan catches reads past the end */
  {
    g_autofree uint8_t *exact = g_memdup2 (contents, len);
    LLVMFuzzerTestOneInput (exact, len);
  }
  return 1;
}

int
main (int argc, char *argv[])
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    {
      GDir *dir;
      const char *name;

      if (g_file_test (argv[i], G_FILE_TEST_IS_REGULAR))
        {
          n += replay_file (argv[i]);
          continue;
        }
      if ((dir = g_dir_open (argv[i], 0, NULL)) == NULL)
        continue;
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (argv[i], name, NULL);
          if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
            n += replay_file (path);
        }
      g_dir_close (dir);
    }
  g_print ("replayed %u inputs\n", n);
  return n > 0 ? 0 : 77;
}
