/* procura-cli-figures-exec.c: `render` and `report` in the command line without cairo
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The figures and the report draw with cairo and pango, and loading them costs every
 * process a few milliseconds (bench/import). `procura` therefore links none of them: its
 * `render` and `report` run procura-render, the same commands with the figures linked
 * in (beside `procura` in the build tree, else in PKGLIBEXECDIR).
 */
#include "config.h"

#include <errno.h>
#include <unistd.h>
#include <glib/gi18n.h>

#include "procura-cli.h"
#include "procura-util.h"

static int
exec_figures (int    argc,
              char **argv)
{
  g_autofree char *path = procura_find_helper ("procura-render", "procura-render");
  g_autofree char **args = g_new0 (char *, argc + 2);
  int saved;

  if (path == NULL)   /* not there: the error names where it was looked for */
    path = g_build_filename (PKGLIBEXECDIR, "procura-render", NULL);
  args[0] = path;
  for (int i = 0; i < argc; i++)
    args[i + 1] = argv[i];
  execv (path, args);
  saved = errno;
  /* TRANSLATORS: the command (render, report), the helper's path, then the system's reason */
  procura_cli_printerr (_("procura: cannot run “%s” (%s): %s\n"), argv[0], path, g_strerror (saved));
  return PROCURA_EXIT_BAD_INPUT;
}

int
procura_cli_render (int    argc,
                    char **argv)
{
  return exec_figures (argc, argv);
}

int
procura_cli_report (int    argc,
                    char **argv)
{
  return exec_figures (argc, argv);
}
