/* procura-cli-demo.c: `procura demo PROJECT.procura [--json]`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include <json-glib/json-glib.h>

#include "procura-cli.h"
#include "procura-demo.h"
#include "procura-store.h"
#include "procura-json-out.h"

int
procura_cli_demo (int    argc,
                  char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Machine-readable output", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("PROJECT.procura");
  g_autoptr (GError) error = NULL;

  g_option_context_set_summary (context,
                                _("Writes the bundled demo project: a complete decision with "
                                "ILLUSTRATIVE data (not real prices or measurements). "
                                "Reproducible with SOURCE_DATE_EPOCH."));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc != 2)
    return procura_cli_fail ("demo", PROCURA_EXIT_USAGE, _("usage: procura demo PROJECT.procura [--json]"));

  if (!procura_demo_write (argv[1], &error))
    return procura_cli_fail ("demo", PROCURA_EXIT_BAD_INPUT, "%s", error->message);

  if (json)
    {
      g_autoptr (JsonBuilder) builder = json_builder_new ();
      g_autoptr (JsonNode) root = NULL;
      g_autofree char *text = NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, argv[1]);
      json_builder_set_member_name (builder, "title");
      json_builder_add_string_value (builder, PROCURA_DEMO_TITLE);
      json_builder_set_member_name (builder, "schema_version");
      json_builder_add_int_value (builder, PROCURA_STORE_SCHEMA_VERSION);
      json_builder_set_member_name (builder, "illustrative");
      json_builder_add_boolean_value (builder, TRUE);
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      text = procura_json_to_data (root, TRUE);
      g_print ("%s\n", text);
    }
  else
    procura_cli_print (_("Wrote the demo project (illustrative data) to %s\n"), argv[1]);
  return PROCURA_EXIT_OK;
}
