/* procura-cli-set.c: `procura set`, `procura get` and `procura candidate add|remove`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Keys and checks come from the field registry (src/core/store/procura-fields.h); all
 * pairs of one `set` are written in one store batch (one transaction) or none is.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "procura-json-out.h"
#include "procura-cli.h"
#include "procura-fields.h"
#include "procura-store.h"

static void
print_json (JsonBuilder *b)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  g_autofree char *text = NULL;

  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = procura_json_to_data (root, TRUE);
  g_print ("%s\n", text);
}

static ProcuraStore *
open_project (const char      *command,
              const char      *path,
              gboolean         write,
              ProcuraProject **project,
              int             *status)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = NULL;

  store = procura_store_open (path, write ? PROCURA_STORE_OPEN_WRITABLE : PROCURA_STORE_OPEN_READ_ONLY,
                              &error);
  if (store != NULL)
    *project = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  if (store == NULL || *project == NULL)
    {
      *status = procura_cli_fail (command, PROCURA_EXIT_BAD_INPUT, "%s: %s", path, error->message);
      return NULL;
    }
  return g_steal_pointer (&store);
}

/* Writes the records of @dirty (a set of record pointers of @project) in one batch. */
static gboolean
write_dirty (ProcuraStore    *store,
             ProcuraProject  *project,
             GHashTable      *dirty,
             GError         **error)
{
  gboolean ok;

  if (!procura_store_begin_batch (store, error))
    return FALSE;
  ok = TRUE;
  if (g_hash_table_contains (dirty, project))
    ok = procura_store_set_title (store, project->title, error)
         && procura_store_set_illustrative (store, project->illustrative, error);
  if (ok && project->brief != NULL && g_hash_table_contains (dirty, project->brief))
    ok = procura_store_save_brief (store, project->brief, error);
  if (ok && g_hash_table_contains (dirty, &project->assumptions))
    ok = procura_store_save_assumptions (store, &project->assumptions, error);
  if (ok && g_hash_table_contains (dirty, &project->decision))
    ok = procura_store_save_decision (store, &project->decision, error);
  for (guint i = 0; ok && i < project->quotes->len; i++)
    if (g_hash_table_contains (dirty, g_ptr_array_index (project->quotes, i)))
      ok = procura_store_update_quote (store, g_ptr_array_index (project->quotes, i), error);
  for (guint i = 0; ok && i < project->candidates->len; i++)
    if (g_hash_table_contains (dirty, g_ptr_array_index (project->candidates, i)))
      ok = procura_store_update_candidate (store, g_ptr_array_index (project->candidates, i), error);
  for (guint i = 0; ok && i < project->checklist->len; i++)
    if (g_hash_table_contains (dirty, g_ptr_array_index (project->checklist, i)))
      ok = procura_store_update_checklist_item (store, g_ptr_array_index (project->checklist, i), error);
  for (guint i = 0; ok && i < project->ops_tests->len; i++)
    if (g_hash_table_contains (dirty, g_ptr_array_index (project->ops_tests, i)))
      ok = procura_store_update_ops_test (store, g_ptr_array_index (project->ops_tests, i), error);
  return procura_store_end_batch (store, ok, error) && ok;
}

int
procura_cli_set (int    argc,
                 char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Machine-readable output: the keys set", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("PROJECT.procura KEY=VALUE…");
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) project = NULL;
  g_autoptr (GHashTable) dirty = g_hash_table_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  int status = PROCURA_EXIT_OK;
  guint failures = 0;

  g_option_context_set_summary (context, _("Sets fields of a project, all in one transaction or none. "
                                         "KEY is TABLE.COLUMN (project, brief, assumptions, decision) or "
                                         "TABLE.NAME.COLUMN (candidate, quote, checklist, ops_test; NAME is "
                                         "the row's name or id); VALUE null clears. See docs/cli.md."));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc < 3)
    return procura_cli_fail ("set", PROCURA_EXIT_USAGE, _("usage: procura set PROJECT.procura KEY=VALUE…"));
  for (int i = 2; i < argc; i++)
    if (strchr (argv[i], '=') == NULL)
      return procura_cli_fail ("set", PROCURA_EXIT_USAGE, _("“%s”: expected KEY=VALUE"), argv[i]);

  store = open_project ("set", argv[1], TRUE, &project, &status);
  if (store == NULL)
    return status;

  for (int i = 2; i < argc; i++)
    {
      const char *eq = strchr (argv[i], '=');
      g_autofree char *key = g_strndup (argv[i], (gsize) (eq - argv[i]));
      const ProcuraField *field = NULL;
      gpointer record = NULL;
      g_autoptr (GError) local = NULL;

      /* a row name may contain '=': the key ends at the first '=' after which it resolves */
      for (const char *next = strchr (eq + 1, '='); next != NULL; next = strchr (next + 1, '='))
        {
          g_autofree char *longer = g_strndup (argv[i], (gsize) (next - argv[i]));

          if (procura_field_resolve (project, key, &field, &record, NULL))
            break;
          if (procura_field_resolve (project, longer, &field, &record, NULL))
            {
              g_free (key);
              key = g_steal_pointer (&longer);
              eq = next;
              break;
            }
        }
      if (!procura_field_resolve (project, key, &field, &record, &local))
        {
          procura_cli_fail ("set", PROCURA_EXIT_BAD_INPUT, "%s", local->message);
          failures++;
          continue;
        }
      if (!procura_field_set (field, project, record, eq + 1, &local))
        {
          procura_cli_fail ("set", PROCURA_EXIT_BAD_INPUT, "%s: %s", key, local->message);
          failures++;
          continue;
        }
      g_hash_table_add (dirty, record);
      g_ptr_array_add (keys, g_steal_pointer (&key));
    }
  if (failures > 0)
    return procura_cli_fail ("set", PROCURA_EXIT_BAD_INPUT, _("nothing was changed"));
  if (!write_dirty (store, project, dirty, &error))
    return procura_cli_fail ("set", PROCURA_EXIT_BAD_INPUT, _("%s (nothing was changed)"), error->message);
  if (json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "set");
      json_builder_begin_array (b);
      for (guint i = 0; i < keys->len; i++)
        json_builder_add_string_value (b, g_ptr_array_index (keys, i));
      json_builder_end_array (b);
      json_builder_end_object (b);
      print_json (b);
    }
  return PROCURA_EXIT_OK;
}

typedef struct {
  JsonBuilder *json;
  GString     *text;
} GetOut;

static void
get_one (GetOut             *out,
         ProcuraProject     *project,
         const char         *key,
         const ProcuraField *field,
         gpointer            record,
         gboolean            bare)
{
  if (out->json != NULL)
    procura_field_add_json (field, project, record, key, out->json);
  else
    {
      g_autofree char *value = procura_field_format (field, project, record);

      if (bare)
        g_string_append_printf (out->text, "%s\n", value);
      else
        g_string_append_printf (out->text, "%s=%s\n", key, value);
    }
}

static void
get_all (GetOut         *out,
         ProcuraProject *project)
{
  gsize n;
  const ProcuraField *fields = procura_fields (&n);

  for (int t = 0; t < PROCURA_FIELD_N_TABLES; t++)
    {
      const char *table = procura_field_table_name (t);
      GPtrArray *rows = procura_field_table_rows (project, t);

      if (!procura_field_table_has_rows (t))
        {
          gpointer record = procura_field_record (project, t, NULL);

          for (gsize f = 0; record != NULL && f < n; f++)
            if (fields[f].table == (ProcuraFieldTable) t)
              {
                g_autofree char *key = g_strdup_printf ("%s.%s", table, fields[f].column);

                get_one (out, project, key, &fields[f], record, FALSE);
              }
          continue;
        }
      for (guint r = 0; r < rows->len; r++)
        {
          gpointer row = g_ptr_array_index (rows, r);
          g_autofree char *name = procura_field_row_key_name (project, t, row);

          for (gsize f = 0; f < n; f++)
            if (fields[f].table == (ProcuraFieldTable) t)
              {
                g_autofree char *key = g_strdup_printf ("%s.%s.%s", table, name, fields[f].column);

                get_one (out, project, key, &fields[f], row, FALSE);
              }
        }
    }
}

int
procura_cli_get (int    argc,
                 char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Machine-readable output: an object KEY → value", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("PROJECT.procura [KEY…]");
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) project = NULL;
  g_autoptr (JsonBuilder) builder = NULL;
  g_autoptr (GString) text = g_string_new (NULL);
  GetOut out = { NULL, text };
  int status = PROCURA_EXIT_OK;

  g_option_context_set_summary (context, _("Prints fields of a project: the given keys, or every settable "
                                         "field as KEY=VALUE lines that `procura set` takes back."));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc < 2)
    return procura_cli_fail ("get", PROCURA_EXIT_USAGE, _("usage: procura get PROJECT.procura [KEY…] [--json]"));

  store = open_project ("get", argv[1], FALSE, &project, &status);
  if (store == NULL)
    return status;
  if (json)
    {
      builder = json_builder_new ();
      out.json = builder;
      json_builder_begin_object (builder);
    }
  if (argc == 2)
    get_all (&out, project);
  for (int i = 2; i < argc; i++)
    {
      const ProcuraField *field = NULL;
      gpointer record = NULL;
      g_autoptr (GError) error = NULL;

      if (!procura_field_resolve (project, argv[i], &field, &record, &error))
        return procura_cli_fail ("get", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
      get_one (&out, project, argv[i], field, record, argc == 3);
    }
  if (json)
    {
      json_builder_end_object (builder);
      print_json (builder);
    }
  else
    procura_cli_print ("%s", text->str);
  return PROCURA_EXIT_OK;
}

static int
candidate_add (int    argc,
               char **argv)
{
  char *kind = NULL, *gpu = NULL, *gpus = NULL, *tp = NULL, *pp = NULL, *quote = NULL;
  char *engine = NULL, *provider = NULL, *api_provider = NULL, *api_model = NULL, *price = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "kind", 0, 0, G_OPTION_ARG_STRING, &kind, "gpu, api or hybrid (default: api with --api-model alone, hybrid with both, else gpu)", "K" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu, "GPU (catalog id or name)", "G" },
    { "gpus-per-replica", 0, 0, G_OPTION_ARG_STRING, &gpus, "GPUs per replica", "N" },
    { "tp", 0, 0, G_OPTION_ARG_STRING, &tp, "Tensor parallelism", "N" },
    { "pp", 0, 0, G_OPTION_ARG_STRING, &pp, "Pipeline parallelism", "N" },
    { "quote", 0, 0, G_OPTION_ARG_STRING, &quote, "Take the price, date, provider and GPU of this quote", "ID" },
    { "price-per-gpu-hour", 0, 0, G_OPTION_ARG_STRING, &price, "Price per GPU-hour", "P" },
    { "engine", 0, 0, G_OPTION_ARG_STRING, &engine, "Serving engine", "E" },
    { "provider", 0, 0, G_OPTION_ARG_STRING, &provider, "Provider", "P" },
    { "api-provider", 0, 0, G_OPTION_ARG_STRING, &api_provider, "API provider", "P" },
    { "api-model", 0, 0, G_OPTION_ARG_STRING, &api_model, "API model", "M" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Machine-readable output", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  struct { const char *column; const char *option; char **value; } sets[] = {
    { "kind", "--kind", &kind }, { "gpu_name", "--gpu", &gpu },
    { "gpus_per_replica", "--gpus-per-replica", &gpus }, { "tp", "--tp", &tp }, { "pp", "--pp", &pp },
    { "quote_id", "--quote", &quote }, { "price_per_gpu_hour", "--price-per-gpu-hour", &price },
    { "engine", "--engine", &engine }, { "provider", "--provider", &provider },
    { "api_provider", "--api-provider", &api_provider }, { "api_model", "--api-model", &api_model },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("PROJECT.procura NAME");
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) project = NULL;
  g_autoptr (ProcuraCandidate) c = procura_candidate_new ();
  g_autoptr (GError) error = NULL;
  int status = PROCURA_EXIT_OK;
  gint64 id = 0;

  g_option_context_set_summary (context, _("Adds a candidate (its other fields: procura set)."));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!procura_cli_parse (context, &argc, &argv))
    status = PROCURA_EXIT_USAGE;
  else if (argc != 3)
    status = procura_cli_fail ("candidate add", PROCURA_EXIT_USAGE,
                               _("usage: procura candidate add PROJECT.procura NAME [options]"));
  if (status == PROCURA_EXIT_OK)
    store = open_project ("candidate add", argv[1], TRUE, &project, &status);
  if (store != NULL)
    {
      c->kind = api_model != NULL ? (gpu != NULL ? PROCURA_CANDIDATE_HYBRID : PROCURA_CANDIDATE_API)
                                  : PROCURA_CANDIDATE_GPU;
      if (!procura_field_set (procura_field_lookup (PROCURA_FIELD_TABLE_CANDIDATE, "name"), project, c,
                              argv[2], &error))
        status = procura_cli_fail ("candidate add", PROCURA_EXIT_BAD_INPUT, _("NAME: %s"), error->message);
      for (gsize i = 0; status == PROCURA_EXIT_OK && i < G_N_ELEMENTS (sets); i++)
        {
          const ProcuraField *field = procura_field_lookup (PROCURA_FIELD_TABLE_CANDIDATE, sets[i].column);

          if (*sets[i].value == NULL)
            continue;
          if (!procura_field_set (field, project, c, *sets[i].value, &error))
            status = procura_cli_fail ("candidate add", PROCURA_EXIT_BAD_INPUT, "%s: %s", sets[i].option,
                                       error->message);
          else if (field->type == PROCURA_FIELD_QUOTE)
            for (guint q = 0; q < project->quotes->len; q++)
              if (((ProcuraQuote *) g_ptr_array_index (project->quotes, q))->id == c->quote_id)
                procura_candidate_take_quote (c, g_ptr_array_index (project->quotes, q));
        }
      /* an explicit --gpu or price wins over the quote's */
      if (status == PROCURA_EXIT_OK && quote != NULL && (gpu != NULL || price != NULL))
        {
          if (gpu != NULL)
            procura_field_set (procura_field_lookup (PROCURA_FIELD_TABLE_CANDIDATE, "gpu_name"), project, c, gpu, NULL);
          if (price != NULL)
            procura_field_set (procura_field_lookup (PROCURA_FIELD_TABLE_CANDIDATE, "price_per_gpu_hour"),
                               project, c, price, NULL);
        }
      if (status == PROCURA_EXIT_OK && (id = procura_store_add_candidate (store, c, &error)) <= 0)
        status = procura_cli_fail ("candidate add", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
    }
  if (status == PROCURA_EXIT_OK)
    {
      if (json)
        {
          g_autoptr (JsonBuilder) b = json_builder_new ();

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "id");
          json_builder_add_int_value (b, id);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, c->name);
          json_builder_end_object (b);
          print_json (b);
        }
      else
        procura_cli_print (_("Added candidate “%s” (id %lld)\n"), c->name, (long long) id);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (sets); i++)
    g_free (*sets[i].value);
  return status;
}

static int
candidate_remove (int    argc,
                  char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Machine-readable output", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("PROJECT.procura NAME");
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) project = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *key = NULL;
  const ProcuraField *field = NULL;
  gpointer record = NULL;
  ProcuraCandidate *c;
  gint64 token = 0;
  int status = PROCURA_EXIT_OK;

  g_option_context_set_summary (context, _("Removes a candidate with its runs, tests and answers, as the app's "
                                         "deletion does: undoable, the undo token is printed."));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc != 3)
    return procura_cli_fail ("candidate remove", PROCURA_EXIT_USAGE,
                             _("usage: procura candidate remove PROJECT.procura NAME"));
  store = open_project ("candidate remove", argv[1], TRUE, &project, &status);
  if (store == NULL)
    return status;
  key = g_strdup_printf ("candidate.%s.name", argv[2]);
  if (!procura_field_resolve (project, key, &field, &record, &error))
    return procura_cli_fail ("candidate remove", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
  c = record;
  if (!procura_store_delete_candidate (store, c->id, &token, &error))
    return procura_cli_fail ("candidate remove", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
  if (json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_int_value (b, c->id);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, c->name);
      json_builder_set_member_name (b, "undo_token");
      json_builder_add_int_value (b, token);
      json_builder_end_object (b);
      print_json (b);
    }
  else
    procura_cli_print (_("Removed candidate “%s” (undo token %lld)\n"), c->name, (long long) token);
  return PROCURA_EXIT_OK;
}

int
procura_cli_candidate (int    argc,
                       char **argv)
{
  if (argc >= 2 && g_str_equal (argv[1], "add"))
    return candidate_add (argc - 1, argv + 1);
  if (argc >= 2 && g_str_equal (argv[1], "remove"))
    return candidate_remove (argc - 1, argv + 1);
  return procura_cli_fail ("candidate", PROCURA_EXIT_USAGE,
                           _("usage: procura candidate add|remove PROJECT.procura NAME [options]"));
}
