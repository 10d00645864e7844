/* procura-cli-new.c: `procura new PROJECT.procura [--title T] [--json]`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include <json-glib/json-glib.h>

#include "procura-cli.h"
#include "procura-store.h"
#include "procura-json-out.h"

/* Prints {"path":…,"title":…,"schema_version":…} on stdout. */
static void
print_created (const char *path,
               const char *title,
               gboolean    illustrative)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, path);
  json_builder_set_member_name (builder, "title");
  json_builder_add_string_value (builder, title);
  json_builder_set_member_name (builder, "schema_version");
  json_builder_add_int_value (builder, PROCURA_STORE_SCHEMA_VERSION);
  json_builder_set_member_name (builder, "illustrative");
  json_builder_add_boolean_value (builder, illustrative);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = procura_json_to_data (root, TRUE);
  g_print ("%s\n", text);
}

int
procura_cli_new (int    argc,
                 char **argv)
{
  g_autofree char *title = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "title", 't', 0, G_OPTION_ARG_STRING, &title, "Title of the decision (default: the file name)", "T" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Machine-readable output", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("PROJECT.procura");
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) project = NULL;

  g_option_context_set_summary (context, _("Creates an empty project file (never overwrites one)."));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc != 2)
    return procura_cli_fail ("new", PROCURA_EXIT_USAGE, _("usage: procura new PROJECT.procura [--title T] [--json]"));
  if (title != NULL && *title == '\0')
    return procura_cli_fail ("new", PROCURA_EXIT_USAGE, _("--title must not be empty"));

  store = procura_store_create (argv[1], title, &error);
  if (store == NULL)
    return procura_cli_fail ("new", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
  project = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  if (project == NULL)
    return procura_cli_fail ("new", PROCURA_EXIT_BAD_INPUT, "%s", error->message);

  if (json)
    print_created (argv[1], project->title, FALSE);
  else
    procura_cli_print (_("Created %s (“%s”)\n"), argv[1], project->title);
  return PROCURA_EXIT_OK;
}
