/* test-import-cross.c: every importer, forced with its id, on every other format's
 * files (the project's own fixtures and, when present, the real ones): each pairing is
 * either refused or read with metrics, never read as an empty run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-import.h"
#include "procura-test-util.h"

/* Written here, not taken from the importers: a figure of any kind */
static gboolean
run_has_figure (const ProcuraRun *run)
{
  if (run->stats->len > 0 || run->samples->len > 0)
    return TRUE;
  if (!isnan (run->request_throughput) || !isnan (run->output_throughput)
      || !isnan (run->total_throughput))
    return TRUE;
  return run->completed >= 0 || run->failed >= 0;
}

static void
collect (const char *dir_path,
         GPtrArray  *files)
{
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect (path, files);
      else
        g_ptr_array_add (files, g_steal_pointer (&path));
    }
}

typedef struct {
  guint refused;
  guint read;
} Tally;

static void
cross (GPtrArray *files,
       Tally     *tally)
{
  const ProcuraImporter * const *imps = procura_importers ();

  for (gsize i = 0; imps[i] != NULL; i++)
    for (guint f = 0; f < files->len; f++)
      {
        const char *path = g_ptr_array_index (files, f);
        g_autoptr (GError) error = NULL;
        g_autoptr (ProcuraImportResult) r = procura_import_file (path, imps[i]->id, NULL, &error);

        if (r == NULL)
          {
            g_assert_nonnull (error);
            g_assert_true (error->message[0] != '\0');
            tally->refused++;
            continue;
          }
        g_assert_no_error (error);
        if (r->runs->len + r->quotes->len + r->model_shapes->len + r->engine_logs->len
            + r->probe_results->len == 0)
          g_error ("%s read as %s: yields nothing, yet not refused", path, imps[i]->id);
        for (guint k = 0; k < r->runs->len; k++)
          {
            const ProcuraRun *run = g_ptr_array_index (r->runs, k);
            if (!run_has_figure (run))
              g_error ("%s read as %s: run %u (“%s”) is empty", path, imps[i]->id, k,
                       run->label ? run->label : "");
          }
        tally->read++;
      }
}

static void
test_own_fixtures (void)
{
  g_autofree char *dir = procura_test_fixture ("import");
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  Tally t = { 0, 0 };

  collect (dir, files);
  g_assert_cmpuint (files->len, >=, 10);
  cross (files, &t);
  /* each file is read at least by its own importer, and most pairings are refused */
  g_assert_cmpuint (t.read, >=, files->len);
  g_assert_cmpuint (t.refused, >, t.read);
}

static void
test_real_fixtures (void)
{
  g_autofree char *dir = procura_test_real_fixture (".");
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  Tally t = { 0, 0 };

  if (dir == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  collect (dir, files);
  g_assert_cmpuint (files->len, >=, 40);
  cross (files, &t);
  g_assert_cmpuint (t.read, >=, 40);
  g_assert_cmpuint (t.refused, >, t.read);
}

/* The shape the issue found: llmperf summaries collected into one object keyed by
 * concurrency read as one empty run; now refused, naming the importer */
static void
test_keyed_summaries_refused (void)
{
  static const char data[] =
    "{\"1\": {\"results_ttft_s_mean\": 0.2, \"results_num_completed_requests\": 10},"
    " \"8\": {\"results_ttft_s_mean\": 0.4, \"results_num_completed_requests\": 80}}";
  const ProcuraImporter * const *imps = procura_importers ();

  for (gsize i = 0; imps[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ProcuraImportResult) r =
        procura_import_data ("keyed.json", data, strlen (data), imps[i]->id, NULL, &error);

      if (r == NULL)
        {
          if (!g_str_has_prefix (error->message, "keyed.json"))
            g_error ("%s: the message does not name the file: %s", imps[i]->id, error->message);
          continue;
        }
      for (guint k = 0; k < r->runs->len; k++)
        g_assert_true (run_has_figure (g_ptr_array_index (r->runs, k)));
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/import/cross/own-fixtures", test_own_fixtures);
  g_test_add_func ("/import/cross/real-fixtures", test_real_fixtures);
  g_test_add_func ("/import/cross/keyed-summaries", test_keyed_summaries_refused);
  return g_test_run ();
}
