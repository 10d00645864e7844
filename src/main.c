/* main.c: the procura binary opens the GUI when run bare, else a CLI subcommand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include <errno.h>
#include <unistd.h>

#include "procura-cli.h"
#include "procura-util.h"
#ifdef PROCURA_WITH_GUI
# include "procura-application.h"
#endif

#if !defined (PROCURA_WITH_GUI) && defined (PROCURA_GUI_HELPER)
/* The command line binary starts the app: procura-gui beside it (the build tree), else
 * the installed one. Returns only when it cannot be run. */
static int
exec_gui (char *argv[])
{
  g_autofree char *path = procura_find_helper ("procura-gui", "procura-gui");
  int saved;

  if (path == NULL)   /* not there: the error names where it was looked for */
    path = g_build_filename (PKGLIBEXECDIR, "procura-gui", NULL);
  execv (path, argv);
  saved = errno;
  /* TRANSLATORS: the program's path, then the system's reason */
  g_printerr (_("procura: cannot start the app (%s): %s\n"), path, g_strerror (saved));
  return 1;
}
#endif

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (procura_cli_wants (argc, argv))
    return procura_cli_main (argc, argv);

#if defined (PROCURA_WITH_GUI)
  return procura_application_run (argc, argv);
#elif defined (PROCURA_GUI_HELPER)
  return exec_gui (argv);
#else
  g_printerr ("%s\n", _("This build of Procura has no GUI; see “procura --help”."));
  return 2;
#endif
}
