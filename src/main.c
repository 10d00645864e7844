/* main.c: the procura binary opens the GUI when run bare, else a CLI subcommand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "procura-cli.h"
#ifdef PROCURA_WITH_GUI
# include "procura-application.h"
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

#ifdef PROCURA_WITH_GUI
  return procura_application_run (argc, argv);
#else
  g_printerr ("%s\n", _("This build of Procura has no GUI; see “procura --help”."));
  return 2;
#endif
}
