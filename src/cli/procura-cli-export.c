/* procura-cli-export.c: `procura export` and `procura apply`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The document is built and read by core (procura-decision-doc.h); apply replaces the
 * project's contents in one transaction, or creates the project when it is absent.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "procura-atomic-file.h"
#include "procura-json-out.h"
#include "procura-cli.h"
#include "procura-decision-doc.h"
#include "procura-store.h"

int
procura_cli_export (int    argc,
                    char **argv)
{
  char *output = NULL;
  gboolean with_samples = FALSE, json = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the document to FILE.json instead of stdout", "FILE" },
    { "with-samples", 0, 0, G_OPTION_ARG_NONE, &with_samples, "Include the per-request samples of every run", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Accepted for symmetry: the output is always JSON", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("PROJECT.procura");
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) project = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonGenerator) gen = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_autofree char *out_path = NULL;

  g_option_context_set_summary (context, _("Writes the whole decision as one JSON document "
                                         "(data/schemas/decision.schema.json; see docs/cli.md)."));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  out_path = output;
  if (argc != 2)
    return procura_cli_fail ("export", PROCURA_EXIT_USAGE,
                             _("usage: procura export PROJECT.procura [--output FILE.json] [--with-samples]"));
  if (out_path != NULL && procura_cli_check_output ("export", out_path, argv[1]) != PROCURA_EXIT_OK)
    return PROCURA_EXIT_USAGE;

  store = procura_store_open (argv[1], PROCURA_STORE_OPEN_READ_ONLY, &error);
  if (store != NULL)
    project = procura_store_load_project (store, with_samples ? PROCURA_STORE_LOAD_WITH_SAMPLES
                                                              : PROCURA_STORE_LOAD_DEFAULT, &error);
  if (project == NULL)
    return procura_cli_fail ("export", PROCURA_EXIT_BAD_INPUT, "%s: %s", argv[1], error->message);

  root = procura_decision_doc_build (project, with_samples);
  gen = json_generator_new ();
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = procura_json_to_data (root, TRUE);
  if (out_path == NULL)
    {
      g_print ("%s\n", text);
      return PROCURA_EXIT_OK;
    }
  {
    g_autofree char *with_newline = g_strconcat (text, "\n", NULL);

    if (!procura_atomic_file_write (out_path, with_newline, strlen (with_newline), &error))
      return procura_cli_fail ("export", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
  }
  return PROCURA_EXIT_OK;
}

int
procura_cli_apply (int    argc,
                   char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Machine-readable output", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("PROJECT.procura FILE.json");
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) project = NULL;
  g_autoptr (GError) error = NULL;
  gboolean created = FALSE;

  g_option_context_set_summary (context, _("Replaces the contents of a project (created when absent) with a "
                                         "decision document, after checking all of it; on any error nothing "
                                         "is changed."));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc != 3)
    return procura_cli_fail ("apply", PROCURA_EXIT_USAGE, _("usage: procura apply PROJECT.procura FILE.json"));

  project = procura_decision_doc_load (argv[2], &error);
  if (project == NULL)
    return procura_cli_fail ("apply", PROCURA_EXIT_BAD_INPUT, _("%s\nNothing was changed."), error->message);

  if (g_file_test (argv[1], G_FILE_TEST_EXISTS))
    store = procura_store_open (argv[1], PROCURA_STORE_OPEN_WRITABLE, &error);
  else
    {
      store = procura_store_create (argv[1], project->title, &error);
      created = store != NULL;
    }
  if (store == NULL)
    return procura_cli_fail ("apply", PROCURA_EXIT_BAD_INPUT, "%s: %s", argv[1], error->message);
  if (!procura_store_replace_project (store, project, &error))
    {
      g_clear_pointer (&store, procura_store_close);
      if (created)
        {
          g_autofree char *wal = g_strconcat (argv[1], "-wal", NULL);
          g_autofree char *shm = g_strconcat (argv[1], "-shm", NULL);

          g_unlink (argv[1]);
          g_unlink (wal);
          g_unlink (shm);
        }
      return procura_cli_fail ("apply", PROCURA_EXIT_BAD_INPUT, _("%s: %s\nNothing was changed."), argv[1],
                               error->message);
    }
  if (json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      g_autoptr (JsonGenerator) gen = json_generator_new ();
      g_autoptr (JsonNode) root = NULL;
      g_autofree char *text = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "created");
      json_builder_add_boolean_value (b, created);
      json_builder_set_member_name (b, "candidates");
      json_builder_add_int_value (b, project->candidates->len);
      json_builder_set_member_name (b, "runs");
      json_builder_add_int_value (b, project->runs->len);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      json_generator_set_root (gen, root);
      json_generator_set_pretty (gen, TRUE);
      text = procura_json_to_data (root, TRUE);
      g_print ("%s\n", text);
    }
  else
    procura_cli_print (_("%s: %s with %u candidates and %u runs\n"), argv[1], created ? _("created") : _("replaced"),
             project->candidates->len, project->runs->len);
  return PROCURA_EXIT_OK;
}
