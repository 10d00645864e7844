/* test-conformance-guidellm.c: capacity at a p99 target from the real guidellm sweep
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The test reads the sweep itself with json-glib (per benchmark: the achieved
 * requests/s, metrics.requests_per_second.successful.mean, and the p99 of a latency
 * metric, metrics.<metric>.successful.percentiles.p99), applies COST-MODEL.md §4 by
 * hand (order by load, the highest point meeting the target, the next one missing it,
 * linear interpolation between them) and compares with what the analysis reads through the
 * importer, in process and through `procura summary --json` on a stored project.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "procura-analysis.h"
#include "procura-import.h"
#include "procura-store.h"
#include "procura-test-util.h"

#define SWEEP "guidellm/llmdbench__guidellm_report_v2.json"

typedef struct {
  double rps;
  double p99;
} Point;

static int
cmp_point (gconstpointer a,
           gconstpointer b)
{
  double x = ((const Point *) a)->rps, y = ((const Point *) b)->rps;
  return (x > y) - (x < y);
}

/* The sweep's points for a guidellm metric key, by load. */
static GArray *
read_points (const char *path,
             const char *metric_key)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  GArray *points = g_array_new (FALSE, FALSE, sizeof (Point));
  JsonArray *benchmarks;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  benchmarks = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "benchmarks");
  for (guint i = 0; i < json_array_get_length (benchmarks); i++)
    {
      JsonObject *m = json_object_get_object_member (json_array_get_object_element (benchmarks, i), "metrics");
      JsonObject *rps = json_object_get_object_member (json_object_get_object_member (m, "requests_per_second"),
                                                       "successful");
      JsonObject *lat = json_object_get_object_member (json_object_get_object_member (m, metric_key), "successful");
      Point p;

      p.rps = json_object_get_double_member (rps, "mean");
      p.p99 = json_object_get_double_member (json_object_get_object_member (lat, "percentiles"), "p99");
      g_array_append_val (points, p);
    }
  g_array_sort (points, cmp_point);
  return points;
}

/* §4 by hand. Returns the status name and writes the capacity. */
static const char *
expected_capacity (GArray *points,
                   double  threshold,
                   double *rps)
{
  int last_meet = -1;

  /* the highest load that meets, towards the next point (which misses) */
  for (guint i = 0; i < points->len; i++)
    if (g_array_index (points, Point, i).p99 <= threshold)
      last_meet = (int) i;
  if (last_meet == (int) points->len - 1)
    {
      *rps = g_array_index (points, Point, points->len - 1).rps;
      return "not-saturated";
    }
  if (last_meet < 0)
    {
      *rps = NAN;
      return "misses-target";
    }
  {
    Point b = g_array_index (points, Point, last_meet);
    Point a = g_array_index (points, Point, last_meet + 1);
    *rps = b.rps + (threshold - b.p99) / (a.p99 - b.p99) * (a.rps - b.rps);
  }
  return "ok";
}

static ProcuraBrief *
brief_for (const char *metric,
           double      threshold)
{
  ProcuraBrief *b = procura_brief_new ();

  b->workload_type = g_strdup ("online-inference");
  b->model_shape = g_strdup ("test-model");
  b->input_tokens = 256;
  b->output_tokens = 128;
  b->success_unit = g_strdup ("accepted response");
  b->slo_metric = g_strdup (metric);
  b->slo_percentile = 99;
  b->slo_threshold_ms = threshold;
  b->duty_cycle = g_strdup ("always-on");
  b->operating_boundary = g_strdup ("cloud");
  b->tooling = g_strdup ("vllm");
  b->demand_average = 0.2;
  b->demand_peak = 0.3;
  return b;
}

static ProcuraCandidate *
the_candidate (void)
{
  ProcuraCandidate *c = procura_candidate_new ();

  c->name = g_strdup ("sweep GPU");
  c->kind = PROCURA_CANDIDATE_GPU;
  c->gpus_per_replica = 1;
  c->price_per_gpu_hour = 2.0;
  c->price_date = g_strdup ("2026-11-01");
  return c;
}

/* In process: importer → in-memory project → analysis. */
static void
check_in_process (const char *path,
                  const char *metric,
                  const char *metric_key,
                  double      threshold)
{
  g_autoptr(GArray) points = read_points (path, metric_key);
  g_autoptr(GError) error = NULL;
  g_autoptr(ProcuraImportResult) imported = procura_import_file (path, NULL, NULL, &error);
  g_autoptr(ProcuraProject) p = procura_project_new ();
  g_autoptr(ProcuraAnalysis) a = NULL;
  const ProcuraCandidateAnalysis *ca;
  ProcuraCandidate *c = the_candidate ();
  double rps;
  const char *status;

  g_assert_no_error (error);
  g_assert_nonnull (imported);
  g_assert_cmpuint (imported->runs->len, ==, points->len);
  c->id = 1;
  g_ptr_array_add (p->candidates, c);
  procura_brief_free (p->brief);
  p->brief = brief_for (metric, threshold);
  p->assumptions.acceptance_rate = 1;
  while (imported->runs->len > 0)
    {
      ProcuraRun *r = g_ptr_array_steal_index (imported->runs, 0);
      r->candidate_id = 1;
      r->id = p->runs->len + 1;
      g_ptr_array_add (p->runs, r);
    }

  a = procura_analysis_run (p, NULL);
  ca = procura_analysis_find (a, 1);
  status = expected_capacity (points, threshold, &rps);
  g_assert_cmpstr (procura_capacity_status_name (ca->capacity->status), ==, status);
  g_assert_cmpuint (ca->capacity->points->len, ==, points->len);
  if (isnan (rps))
    g_assert_true (isnan (ca->capacity->capacity_rps));
  else
    g_assert_cmpfloat_with_epsilon (ca->capacity->capacity_rps, rps, 1e-9 * MAX (1.0, rps));
}

/* Through the store and `procura summary --json`. */
static void
check_cli (const char *path,
           const char *metric,
           const char *metric_key,
           double      threshold)
{
  g_autoptr(GArray) points = read_points (path, metric_key);
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *project = g_build_filename (dir, "sweep.procura", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *cands;
  JsonObject *cap = NULL;
  double rps;
  const char *status;

  {
    g_autoptr(ProcuraStore) store = procura_store_create (project, "sweep", &error);
    g_autoptr(ProcuraImportResult) imported = NULL;
    g_autoptr(ProcuraBrief) brief = brief_for (metric, threshold);
    g_autoptr(ProcuraCandidate) c = the_candidate ();
    ProcuraAssumptions as;
    gint64 id;

    g_assert_no_error (error);
    g_assert_true (procura_store_save_brief (store, brief, &error));
    procura_assumptions_init (&as);
    as.acceptance_rate = 1;
    g_assert_true (procura_store_save_assumptions (store, &as, &error));
    procura_assumptions_clear (&as);
    id = procura_store_add_candidate (store, c, &error);
    g_assert_no_error (error);
    imported = procura_import_file (path, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (procura_store_import (store, imported, id, &error));
    g_assert_no_error (error);
  }

  {
    const char *argv[] = { "summary", project, "--json", NULL };
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  }
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  cands = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "candidates");
  for (guint i = 0; i < json_array_get_length (cands); i++)
    {
      JsonObject *c = json_array_get_object_element (cands, i);
      if (g_strcmp0 (json_object_get_string_member (c, "name"), "sweep GPU") == 0)
        cap = json_object_get_object_member (c, "capacity");
    }
  g_assert_nonnull (cap);
  status = expected_capacity (points, threshold, &rps);
  g_assert_cmpstr (json_object_get_string_member (cap, "status"), ==, status);
  if (isnan (rps))
    g_assert_true (json_node_is_null (json_object_get_member (cap, "rps")));
  else
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (cap, "rps"), rps, 1e-9 * MAX (1.0, rps));
  procura_test_rmtree (dir);
}

static void
test_sweep (void)
{
  g_autofree char *path = procura_test_real_fixture (SWEEP);
  g_autoptr(GArray) ttft = NULL;
  g_autoptr(GArray) tpot = NULL;
  double lo, hi;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  ttft = read_points (path, "time_to_first_token_ms");
  tpot = read_points (path, "inter_token_latency_ms");
  g_assert_cmpuint (ttft->len, >=, 2);

  /* p99 TTFT: a threshold between the two points, one above both, one below both */
  lo = MIN (g_array_index (ttft, Point, 0).p99, g_array_index (ttft, Point, 1).p99);
  hi = MAX (g_array_index (ttft, Point, 0).p99, g_array_index (ttft, Point, 1).p99);
  check_in_process (path, "ttft", "time_to_first_token_ms", (lo + hi) / 2);
  check_in_process (path, "ttft", "time_to_first_token_ms", hi + 1);
  check_in_process (path, "ttft", "time_to_first_token_ms", lo / 2);
  check_cli (path, "ttft", "time_to_first_token_ms", (lo + hi) / 2);
  check_cli (path, "ttft", "time_to_first_token_ms", hi + 1);

  /* p99 inter-token latency (guidellm's, Procura's tpot) rises with the load in this
   * sweep: a threshold between the points crosses and is interpolated */
  lo = MIN (g_array_index (tpot, Point, 0).p99, g_array_index (tpot, Point, 1).p99);
  hi = MAX (g_array_index (tpot, Point, 0).p99, g_array_index (tpot, Point, 1).p99);
  check_in_process (path, "tpot", "inter_token_latency_ms", (lo + hi) / 2);
  check_cli (path, "tpot", "inter_token_latency_ms", (lo + hi) / 2);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/conformance/guidellm-sweep", test_sweep);
  return g_test_run ();
}
