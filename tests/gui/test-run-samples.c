/* test-run-samples.c: a run's per-request views, built when its row is expanded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A project holding one run with per-request samples: expanding the run on the
 * Benchmarks page reads its samples in a thread (a spinner meanwhile), then shows the
 * latency distribution drawn from exactly those samples and the per-request scatter.
 */
#include "config.h"

#include <math.h>

#include <string.h>

#include "procura-chart.h"
#include "procura-chart-view.h"
#include "procura-gui-test.h"
#include "procura-quantiles.h"
#include "procura-run-samples.h"
#include "procura-store.h"
#include "procura-test-util.h"

static ProcuraApplication *app;

#define N_REQUESTS 777

/* A project with one run: TTFT, end-to-end and input lengths for N_REQUESTS requests,
 * a few of them not finite (left out). Returns the finite TTFT count. */
static gsize
make_project (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = procura_store_create (path, "Samples", &error);
  g_autoptr (ProcuraImportResult) res = procura_import_result_new ();
  g_autoptr (GRand) r = g_rand_new_with_seed (42);
  ProcuraRun *run = procura_run_new ();
  double *ttft = g_new (double, N_REQUESTS), *e2e = g_new (double, N_REQUESTS);
  double *in = g_new (double, N_REQUESTS);
  gsize finite = 0;

  g_assert_no_error (error);
  for (gsize i = 0; i < N_REQUESTS; i++)
    {
      in[i] = g_rand_int_range (r, 100, 4000);
      ttft[i] = i % 100 == 7 ? NAN : 20 + in[i] * 0.05 + g_rand_double_range (r, 0, 30);
      e2e[i] = 800 + g_rand_double_range (r, 0, 400);
      finite += isfinite (ttft[i]);
    }
  run->label = g_strdup ("rate 2");
  run->format = g_strdup ("test-format");
  run->completed = N_REQUESTS;
  run->failed = 0;
  run->request_throughput = 2;
  procura_run_take_samples (run, "ttft", ttft, N_REQUESTS);
  procura_run_take_samples (run, "e2e", e2e, N_REQUESTS);
  procura_run_take_samples (run, "input_len", in, N_REQUESTS);
  res->format = g_strdup ("test-format");
  res->provenance = procura_provenance_new ();
  res->provenance->file_name = g_strdup ("samples.json");
  res->provenance->importer = g_strdup ("test-format");
  g_ptr_array_add (res->runs, run);
  g_assert_true (procura_store_import (store, res, 0, &error));
  g_assert_no_error (error);
  {
    ProcuraBrief *brief = procura_brief_new ();

    brief->slo_metric = g_strdup ("ttft");
    brief->slo_threshold_ms = 150;
    g_assert_true (procura_store_save_brief (store, brief, &error));
    g_assert_no_error (error);
    procura_brief_free (brief);
  }
  return finite;
}

static void
test_expand_shows_distribution (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = g_build_filename (dir, "samples.procura", NULL);
  gsize finite = make_project (path);
  ProcuraWindow *window = procura_window_new (app);
  GtkWidget *page, *views, *child;
  ProcuraChart *chart;
  guint charts = 0;
  gint64 deadline;

  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  {
    g_autoptr (GFile) file = g_file_new_for_path (path);

    procura_window_open_file (window, file);
  }
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  /* the snapshot holds no samples, only the brief's metric's quantile summary (the
   * CDF figure's) */
  {
    ProcuraProject *project = procura_document_get_project (procura_window_get_document (window));
    const ProcuraRun *run = g_ptr_array_index (project->runs, 0);
    const ProcuraQuantiles *q = procura_run_get_quantiles (run, "ttft");

    g_assert_cmpuint (run->samples->len, ==, 0);
    g_assert_nonnull (q);
    g_assert_cmpuint (q->n, ==, finite);
    g_assert_null (procura_run_get_quantiles (run, "e2e"));
  }
  page = procura_window_get_page (window, "benchmarks");
  /* nothing is read before the run is expanded */
  g_assert_null (procura_gui_test_find (page, PROCURA_TYPE_RUN_SAMPLES));
  procura_gui_test_expand_all (page);
  views = procura_gui_test_find (page, PROCURA_TYPE_RUN_SAMPLES);
  g_assert_nonnull (views);
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (procura_run_samples_get_n (PROCURA_RUN_SAMPLES (views)) < 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  procura_gui_test_settle ();

  /* the distribution is drawn from every finite sample, the scatter beside it */
  g_assert_cmpint (procura_run_samples_get_n (PROCURA_RUN_SAMPLES (views)), ==, (gint64) finite);
  for (child = gtk_widget_get_first_child (views); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (PROCURA_IS_CHART_VIEW (child))
      {
        chart = procura_chart_view_get_chart (PROCURA_CHART_VIEW (child));
        g_assert_nonnull (chart);
        if (charts == 0)
          {
            g_autofree char *count = g_strdup_printf ("over %" G_GSIZE_FORMAT " samples", finite);

            g_assert_cmpstr (procura_chart_get_title (chart), ==, "Latency distribution");
            g_assert_nonnull (strstr (procura_chart_get_subtitle (chart), count));
            /* the last step reaches every request */
            g_assert_cmpuint (procura_chart_get_n_series (chart), ==, 1);
          }
        else
          g_assert_cmpstr (procura_chart_get_title (chart), ==, "TTFT per request");
        charts++;
      }
  g_assert_cmpuint (charts, ==, 2);
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
  procura_test_rmtree (dir);
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  ProcuraRun **out = user_data;
  g_autoptr (GError) error = NULL;

  *out = procura_document_load_run_samples_finish (PROCURA_DOCUMENT (object), result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*out);
}

/* The distribution is drawn from the run's kept summary: the samples of its metric are
 * not read at all (25 M inter-token latencies would be 200 MB), only those asked for. */
static void
test_summary_instead_of_samples (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = g_build_filename (dir, "samples.procura", NULL);
  gsize finite = make_project (path);
  ProcuraWindow *window = procura_window_new (app);
  ProcuraDocument *document;
  const char *metrics[] = { "input_len", NULL };
  ProcuraRun *run = NULL;
  gint64 run_id, deadline;
  const ProcuraQuantiles *q;
  const ProcuraSamples *in;
  g_autoptr (ProcuraQuantiles) expected = NULL;

  {
    g_autoptr (GFile) file = g_file_new_for_path (path);

    procura_window_open_file (window, file);
  }
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  document = procura_window_get_document (window);
  run_id = ((ProcuraRun *) g_ptr_array_index (procura_document_get_project (document)->runs, 0))->id;

  procura_document_load_run_samples_async (document, run_id, "e2e", metrics, NULL, loaded_cb, &run);
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (run == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_nonnull (run);
  g_assert_cmpint (run->id, ==, run_id);
  /* the summary of e2e, the samples of input_len, nothing else */
  g_assert_null (procura_run_get_samples (run, "e2e"));
  g_assert_null (procura_run_get_samples (run, "ttft"));
  in = procura_run_get_samples (run, "input_len");
  g_assert_nonnull (in);
  g_assert_cmpuint (in->n, ==, N_REQUESTS);
  q = procura_run_get_quantiles (run, "e2e");
  g_assert_nonnull (q);
  g_assert_cmpuint (q->n, ==, N_REQUESTS);
  g_assert_null (procura_run_get_quantiles (run, "ttft"));

  /* and it is the summary of exactly the stored samples */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (ProcuraStore) store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, &error);
    g_autoptr (ProcuraRun) full = procura_run_new ();
    const ProcuraSamples *e2e;

    g_assert_no_error (error);
    full->id = run_id;
    g_assert_true (procura_store_load_run_samples (store, full, "e2e", &error));
    g_assert_no_error (error);
    e2e = procura_run_get_samples (full, "e2e");
    g_assert_nonnull (e2e);
    expected = procura_quantiles_new ("e2e", e2e->values, e2e->n);
  }
  g_assert_cmpuint (expected->n, ==, q->n);
  g_assert_cmpuint (expected->k, ==, q->k);
  for (gsize i = 0; i < q->k; i++)
    {
      g_assert_cmpuint (expected->ranks[i], ==, q->ranks[i]);
      g_assert_cmpfloat (expected->values[i], ==, q->values[i]);
    }
  g_assert_cmpuint (finite, <, q->n);   /* e2e has no gaps, ttft has */

  procura_run_free (run);
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
  procura_test_rmtree (dir);
}

int
main (int    argc,
      char **argv)
{
  if (!procura_gui_test_init (&argc, &argv))
    return 0;
  app = procura_gui_test_application ();

  g_test_add_func ("/run-samples/expand-shows-distribution", test_expand_shows_distribution);
  g_test_add_func ("/run-samples/summary-instead-of-samples", test_summary_instead_of_samples);
  return procura_gui_test_run ();
}
