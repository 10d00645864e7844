/* procura-cli-import.c: `procura import` and `procura inspect`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "procura-cli.h"
#include "procura-import.h"
#include "procura-import-json.h"
#include "procura-store.h"
#include "procura-json-out.h"

static void
print_warnings (const char          *file,
                ProcuraImportResult *result)
{
  for (guint i = 0; i < result->warnings->len; i++)
    procura_cli_printerr (_("%s: warning: %s\n"), file, (const char *) g_ptr_array_index (result->warnings, i));
  for (guint r = 0; r < result->runs->len; r++)
    {
      ProcuraRun *run = g_ptr_array_index (result->runs, r);
      for (guint i = 0; i < run->warnings->len; i++)
        procura_cli_printerr (_("%s: %s: warning: %s\n"), file, run->label ? run->label : "run",
                    (const char *) g_ptr_array_index (run->warnings, i));
    }
  for (guint i = 0; i < result->engine_logs->len; i++)
    {
      ProcuraEngineLog *l = g_ptr_array_index (result->engine_logs, i);
      for (guint j = 0; l->errors && j < l->errors->len; j++)
        procura_cli_printerr (_("%s: engine error: %s\n"), file, (const char *) g_ptr_array_index (l->errors, j));
    }
}

static void
print_json (JsonNode *node)
{
  g_autofree char *text = NULL;

  text = procura_json_to_data (node, TRUE);
  fputs (text, stdout);
  fputc ('\n', stdout);
}

/* The candidate for --candidate NAME: a new one built from what the files state
 * (stored with the import, in its transaction, *id 0), or NULL when it exists (*id
 * set): then every disagreement between the files and it is a warning on the run. */
static ProcuraCandidate *
candidate_for (ProcuraStore  *store,
               const char    *name,
               GPtrArray     *results,
               gint64        *id,
               GError       **error)
{
  g_autoptr (GPtrArray) all = NULL;

  *id = procura_store_find_candidate_by_name (store, name);
  if (*id <= 0)
    {
      *id = 0;
      return procura_import_candidate_new (name, results);
    }
  all = procura_store_list_candidates (store, error);
  if (all == NULL)
    return NULL;
  for (guint i = 0; i < all->len; i++)
    {
      const ProcuraCandidate *c = g_ptr_array_index (all, i);
      if (c->id == *id)
        procura_import_check_candidate (c, results);
    }
  return NULL;
}

int
procura_cli_inspect (int    argc,
                     char **argv)
{
  g_autofree char *format = NULL;
  g_autofree char *project = NULL;
  g_autofree char *candidate = NULL;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_("Read the input as FMT (skip detection)"), "FMT" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the normalised content as JSON"), NULL },
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project, N_("With --candidate: the project that holds it"), "PROJECT.procura" },
    { "candidate", 0, 0, G_OPTION_ARG_STRING, &candidate, N_("Warn where the file and candidate NAME (or the one it would create) disagree"), "NAME" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (_("INPUT — parse one file, store nothing"));
  g_autoptr (ProcuraImportResult) result = NULL;
  g_autoptr (ProcuraCandidate) would_create = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = NULL;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc != 2)
    return procura_cli_fail ("inspect", PROCURA_EXIT_USAGE, _("expected exactly one INPUT file"));

  if (format != NULL && procura_importer_find (format) == NULL)
    return procura_cli_fail ("inspect", PROCURA_EXIT_USAGE, _("unknown format “%s”"), format);
  if ((project != NULL) != (candidate != NULL))
    return procura_cli_fail ("inspect", PROCURA_EXIT_USAGE, _("--project and --candidate go together"));
  /* read, not stored: no quantile summaries */
  result = procura_import_file_with_flags (argv[1], format, PROCURA_IMPORT_NO_SUMMARIES, NULL, &error);
  if (result == NULL)
    return procura_cli_fail ("inspect", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
  if (candidate != NULL)
    {
      g_autoptr (ProcuraStore) store = procura_store_open (project, PROCURA_STORE_OPEN_READ_ONLY, &error);
      g_autoptr (GPtrArray) one = g_ptr_array_new ();
      gint64 id = 0;

      if (store == NULL)
        return procura_cli_fail ("inspect", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
      g_ptr_array_add (one, result);
      would_create = candidate_for (store, candidate, one, &id, &error);
      if (would_create == NULL && id == 0)
        return procura_cli_fail ("inspect", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
    }
  print_warnings (argv[1], result);
  node = procura_import_result_to_json (result);
  if (would_create != NULL)
    {
      /* what `import --candidate` would create */
      JsonObject *root = json_node_get_object (node);
      JsonObject *c = json_object_new ();

      json_object_set_string_member (c, "name", would_create->name);
      if (would_create->gpu_name != NULL)
        json_object_set_string_member (c, "gpu_name", would_create->gpu_name);
      else
        json_object_set_null_member (c, "gpu_name");
      if (would_create->engine != NULL)
        json_object_set_string_member (c, "engine", would_create->engine);
      else
        json_object_set_null_member (c, "engine");
      json_object_set_int_member (c, "gpus_per_replica", would_create->gpus_per_replica);
      json_object_set_int_member (c, "tp", would_create->tp);
      json_object_set_int_member (c, "pp", would_create->pp);
      json_object_set_object_member (root, "new_candidate", c);
    }
  if (json)
    print_json (node);
  else
    {
      procura_cli_print (_("%s: %s, %u run(s), %u engine log(s), %u quote(s), %u model shape(s)\n"),
               argv[1], result->format, result->runs->len, result->engine_logs->len,
               result->quotes->len, result->model_shapes->len);
      for (guint i = 0; i < result->runs->len; i++)
        {
          ProcuraRun *run = g_ptr_array_index (result->runs, i);
          const ProcuraStat *ttft = procura_run_get_stat (run, "ttft", "p99");
          procura_cli_print ("  %s: completed %" G_GINT64_FORMAT ", output %.1f tok/s, ttft p99 %.1f ms\n",
                   run->label ? run->label : "run", run->completed, run->output_throughput,
                   ttft ? ttft->value : NAN);
        }
    }
  return PROCURA_EXIT_OK;
}

/* The project opened on a thread of its own while the inputs are read */
typedef struct {
  char         *path;
  ProcuraStore *store;
  GError       *error;
} EarlyOpen;

static gpointer
early_open (gpointer data)
{
  EarlyOpen *o = data;

  o->store = procura_store_open (o->path, PROCURA_STORE_OPEN_DEFAULT, &o->error);
  return NULL;
}

/* The switch to a rollback journal for the bulk write, on a thread of its own while
 * the statistics of the inputs are computed: its syncs wait on the disk, not the CPU */
typedef struct {
  ProcuraStore *store;
  GPtrArray    *results;
} PrepareImport;

static gpointer
prepare_import (gpointer data)
{
  PrepareImport *p = data;

  procura_store_prepare_import_all (p->store, p->results);
  return NULL;
}

/* The store early_open() opened (NULL with @error set where it failed); NULL without
 * an error where there was no thread. */
static ProcuraStore *
early_open_join (GThread   *thread,
                 EarlyOpen *o,
                 GError   **error)
{
  if (thread == NULL)
    return NULL;
  g_thread_join (thread);
  if (o->error != NULL)
    g_propagate_error (error, o->error);
  return o->store;
}

int
procura_cli_import (int    argc,
                    char **argv)
{
  g_autofree char *format = NULL;
  g_autofree char *candidate = NULL;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "candidate", 0, 0, G_OPTION_ARG_STRING, &candidate, N_("Assign the runs to candidate NAME (created when absent)"), "NAME" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_("Read the inputs as FMT (skip detection)"), "FMT" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print what was imported as JSON"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (_("PROJECT.procura INPUT… — import files into a project"));
  g_autoptr (GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_import_result_free);
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (ProcuraCandidate) new_candidate = NULL;
  gint64 candidate_id = 0;
  EarlyOpen early = { NULL, NULL, NULL };
  GThread *opener = NULL;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc < 3)
    return procura_cli_fail ("import", PROCURA_EXIT_USAGE, _("expected PROJECT.procura and at least one INPUT"));
  if (format != NULL && procura_importer_find (format) == NULL)
    return procura_cli_fail ("import", PROCURA_EXIT_USAGE, _("unknown format “%s”"), format);

  /* Opening checks the whole project file: done beside the reading of the inputs
   * where the open changes nothing in the file (nothing is migrated or rolled back
   * before the inputs are known to be good) */
  if (procura_store_open_writes_nothing (argv[1]))
    {
      early.path = argv[1];
      opener = g_thread_try_new ("procura-open", early_open, &early, NULL);
    }
  /* Parse everything first: one bad file and nothing is stored. The statistics come
   * after (procura_import_finalize ()): they find nothing wrong enough to refuse */
  for (int i = 2; i < argc; i++)
    {
      ProcuraImportResult *r = procura_import_file_with_flags (argv[i], format, PROCURA_IMPORT_NO_FINALIZE,
                                                               NULL, &error);
      if (r == NULL)
        {
          store = early_open_join (opener, &early, NULL);   /* closed on return */
          return procura_cli_fail ("import", PROCURA_EXIT_BAD_INPUT, _("%s (nothing was imported)"), error->message);
        }
      g_ptr_array_add (results, r);
    }

  if (opener != NULL)
    store = early_open_join (opener, &early, &error);
  else
    store = procura_store_open (argv[1], PROCURA_STORE_OPEN_DEFAULT, &error);
  if (store == NULL)
    return procura_cli_fail ("import", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
  if (procura_store_is_read_only (store))
    return procura_cli_fail ("import", PROCURA_EXIT_BAD_INPUT, _("%s is read-only: %s"), argv[1],
                             procura_store_get_read_only_reason (store));
  /* every input is good: the project gets ready for the write (a journal switch, its
   * syncs) while the statistics are computed (which leave the runs' samples, all the
   * switch reads of @results, as they are) */
  {
    PrepareImport prep = { store, results };
    GThread *preparer = g_thread_try_new ("procura-prepare", prepare_import, &prep, NULL);

    if (preparer == NULL)
      prepare_import (&prep);
    for (guint f = 0; f < results->len; f++)
      procura_import_finalize (g_ptr_array_index (results, f), PROCURA_IMPORT_DEFAULT);
    if (preparer != NULL)
      g_thread_join (preparer);
  }
  if (candidate != NULL)
    {
      new_candidate = candidate_for (store, candidate, results, &candidate_id, &error);
      if (new_candidate == NULL && candidate_id == 0)
        return procura_cli_fail ("import", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
    }
  /* One transaction: the new candidate and every file, or nothing */
  if (!procura_store_import_all (store, results, candidate_id, new_candidate, &candidate_id, &error))
    return procura_cli_fail ("import", PROCURA_EXIT_BAD_INPUT, "%s", error->message);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "imported");
  json_builder_begin_array (b);
  for (guint f = 0; f < results->len; f++)
    {
      ProcuraImportResult *r = g_ptr_array_index (results, f);
      const char *file = argv[f + 2];

      print_warnings (file, r);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "file");
      {
        g_autofree char *display = g_filename_display_name (file);  /* JSON is UTF-8 */
        json_builder_add_string_value (b, display);
      }
      json_builder_set_member_name (b, "format");
      json_builder_add_string_value (b, r->format);
      json_builder_set_member_name (b, "runs");
      json_builder_begin_array (b);
      for (guint i = 0; i < r->runs->len; i++)
        {
          ProcuraRun *run = g_ptr_array_index (r->runs, i);
          g_auto (GStrv) missing = procura_scenario_missing (&run->scenario);

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "id");
          json_builder_add_int_value (b, run->id);
          json_builder_set_member_name (b, "label");
          json_builder_add_string_value (b, run->label ? run->label : "");
          json_builder_set_member_name (b, "missing");
          json_builder_begin_array (b);
          for (char **m = missing; *m; m++)
            json_builder_add_string_value (b, *m);
          json_builder_end_array (b);
          json_builder_end_object (b);
          if (missing[0] != NULL && !json)
            {
              g_autofree char *list = g_strjoinv (", ", missing);
              procura_cli_printerr (_("%s: %s: the file does not say: %s — set them on the candidate (--candidate NAME, or in the app)\n"),
                          file, run->label ? run->label : "run", list);
            }
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "engine_logs");
      json_builder_add_int_value (b, r->engine_logs->len);
      json_builder_set_member_name (b, "quotes");
      json_builder_add_int_value (b, r->quotes->len);
      json_builder_end_object (b);
      if (!json)
        procura_cli_print (_("%s: imported as %s: %u run(s), %u engine log(s), %u quote(s), %u model shape(s)\n"),
                 file, r->format, r->runs->len, r->engine_logs->len, r->quotes->len, r->model_shapes->len);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "candidate_id");
  json_builder_add_int_value (b, candidate_id);
  json_builder_end_object (b);
  if (json)
    {
      g_autoptr (JsonNode) root = json_builder_get_root (b);
      print_json (root);
    }
  return PROCURA_EXIT_OK;
}
