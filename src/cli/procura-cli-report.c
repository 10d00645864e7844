/* procura-cli-report.c: `procura report PROJECT --output OUT.pdf|.md|.csv [--since OLD.procura]`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "procura-cli.h"
#include "procura-json-out.h"
#include "procura-report.h"
#include "procura-store.h"

int
procura_cli_report (int    argc,
                    char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *since_path = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the report to FILE (.pdf, .md or .csv)"), N_("FILE") },
    { "since", 0, 0, G_OPTION_ARG_FILENAME, &since_path, N_("Add a “Changes since” section: what changed from the project of the last review"), N_("OLD.procura") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print what was written as JSON"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (_("PROJECT.procura — write the decision record"));
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) project = NULL;
  g_autoptr (ProcuraStore) since_store = NULL;
  g_autoptr (ProcuraProject) since = NULL;
  g_autoptr (GError) error = NULL;
  ProcuraReportFormat format;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc != 2)
    return procura_cli_fail ("report", PROCURA_EXIT_USAGE, _("expected one project file, got %d arguments"), argc - 1);
  if (output == NULL)
    return procura_cli_fail ("report", PROCURA_EXIT_USAGE, _("--output FILE is required"));
  if (!procura_report_format_from_path (output, &format))
    return procura_cli_fail ("report", PROCURA_EXIT_USAGE,
                             _("%s: the output must end in .pdf, .md or .csv"), output);

  if (procura_cli_check_output ("report", output, argv[1]) != PROCURA_EXIT_OK
      || (since_path != NULL && procura_cli_check_output ("report", output, since_path) != PROCURA_EXIT_OK))
    return PROCURA_EXIT_USAGE;

  store = procura_store_open (argv[1], PROCURA_STORE_OPEN_READ_ONLY, &error);
  if (store == NULL)
    return procura_cli_fail ("report", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
  project = procura_store_load_project (store, PROCURA_STORE_LOAD_SLO_SAMPLES, &error);
  if (project == NULL)
    return procura_cli_fail ("report", PROCURA_EXIT_BAD_INPUT, "%s", error->message);

  if (since_path != NULL)
    {
      since_store = procura_store_open (since_path, PROCURA_STORE_OPEN_READ_ONLY, &error);
      if (since_store != NULL)
        since = procura_store_load_project (since_store, PROCURA_STORE_LOAD_SLO_SAMPLES, &error);
      if (since == NULL)
        return procura_cli_fail ("report", PROCURA_EXIT_BAD_INPUT, _("--since %s: %s"), since_path, error->message);
    }

  {
    /* no file the report writes (figures and sibling CSVs included) may be one it reads */
    const char *keep[] = { argv[1], since_path, NULL };

    if (!procura_report_write_full (project, since, since_path, output, format, keep, &error))
      return procura_cli_fail ("report",
                               g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS)
                               ? PROCURA_EXIT_USAGE : PROCURA_EXIT_BAD_INPUT,
                               "%s", error->message);
  }

  if (json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      g_autoptr (JsonNode) root = NULL;
      g_autofree char *text = NULL;
      g_autofree char *name = g_filename_display_name (output);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "output");
      json_builder_add_string_value (b, name);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      text = procura_json_to_data (root, FALSE);
      g_print ("%s\n", text);
    }
  return PROCURA_EXIT_OK;
}
