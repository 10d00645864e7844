/* test-uncertainty.c: the capacity interval carried to the cost and to the ranking
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two GPU candidates with the same sweep (per-request samples, so bootstrap intervals)
 * and prices close together are not distinguishable; far apart they are. The cost
 * interval is checked by hand: with always-on replicas and no other cost lines,
 * cost = ceil (peak / capacity) x price x 730 h / (average x 2,628,000 s).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-analysis.h"
#include "procura-units.h"

/* @n samples, shuffled 0 .. scale x (n - 1) ms. */
static void
add_samples_run (ProcuraProject *p,
                 gint64          candidate_id,
                 gint64          run_id,
                 double          rps,
                 double          scale,
                 gsize           n)
{
  ProcuraRun *r = procura_run_new ();
  double *v = g_new (double, n);

  for (gsize i = 0; i < n; i++)
    v[i] = scale * (double) ((i * 7919) % n);
  r->id = run_id;
  r->candidate_id = candidate_id;
  r->label = g_strdup_printf ("rate %g", rps);
  r->request_throughput = rps;
  r->completed = (gint64) n;
  r->failed = 0;
  procura_run_take_samples (r, "ttft", v, n);
  g_ptr_array_add (p->runs, r);
}

static ProcuraCandidate *
gpu (gint64 id,
     double price)
{
  ProcuraCandidate *c = procura_candidate_new ();

  c->id = id;
  c->name = g_strdup_printf ("GPU %" G_GINT64_FORMAT, id);
  c->kind = PROCURA_CANDIDATE_GPU;
  c->gpus_per_replica = 1;
  c->price_per_gpu_hour = price;
  c->interconnect = g_strdup ("NVLink");
  c->labor_hours = 0;
  return c;
}

static ProcuraProject *
make_project (double price_b,
              double peak)
{
  ProcuraProject *p = procura_project_new ();
  ProcuraBrief *b = p->brief;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *today = g_date_time_format (now, "%Y-%m-%d");

  p->title = g_strdup ("uncertainty");
  b->workload_type = g_strdup ("online-inference");
  b->model_shape = g_strdup ("example/model");
  b->input_tokens = 1000;
  b->output_tokens = 250;
  b->success_unit = g_strdup ("accepted response");
  b->slo_metric = g_strdup ("ttft");
  b->slo_percentile = 99;
  b->slo_threshold_ms = 600;
  b->duty_cycle = g_strdup ("always-on");
  b->operating_boundary = g_strdup ("cloud");
  b->tooling = g_strdup ("vllm");
  b->demand_average = 1;
  b->demand_peak = peak;
  b->window_hours = 730;
  p->assumptions.acceptance_rate = 1;
  g_ptr_array_add (p->candidates, gpu (1, 2.5));
  g_ptr_array_add (p->candidates, gpu (2, price_b));
  for (gint64 c = 1; c <= 2; c++)
    {
      /* 200 samples: p99 ~197 ms at 10 req/s, ~985 ms at 20 req/s */
      add_samples_run (p, c, c * 10 + 1, 10, 1.0, 200);
      add_samples_run (p, c, c * 10 + 2, 20, 5.0, 200);
    }
  for (guint i = 0; i < p->candidates->len; i++)
    ((ProcuraCandidate *) p->candidates->pdata[i])->price_date = g_strdup (today);
  return p;
}

static double
by_hand (double capacity,
         double peak,
         double price)
{
  return ceil (peak / capacity) * price * 730 / (1 * 730 * 3600);
}

static void
test_cost_interval_and_overlap (void)
{
  g_autoptr(ProcuraProject) probe = make_project (2.6, 10);
  g_autoptr(ProcuraAnalysis) first = procura_analysis_run (probe, NULL);
  const ProcuraCapacity *cap = procura_analysis_find (first, 1)->capacity;
  double lo = cap->capacity_lo_rps, mid = cap->capacity_rps, hi = cap->capacity_hi_rps, peak;
  g_autoptr(ProcuraProject) p = NULL;
  g_autoptr(ProcuraAnalysis) a = NULL;
  g_autoptr(JsonNode) json = NULL;
  const ProcuraCandidateAnalysis *c1, *c2;
  JsonObject *ranking;
  gboolean said = FALSE;

  g_assert_true (isfinite (lo) && isfinite (hi));
  g_assert_cmpfloat (lo, <, mid);
  g_assert_cmpfloat (mid, <, hi);
  g_assert_cmpfloat (hi, <, 2 * lo);
  /* a peak at which the low capacity needs 3 replicas and the reading 2 */
  peak = lo + mid;
  g_assert_cmpfloat (ceil (peak / lo), ==, 3);
  g_assert_cmpfloat (ceil (peak / mid), ==, 2);
  g_assert_cmpfloat (ceil (peak / hi), ==, 2);

  p = make_project (2.6, peak);
  a = procura_analysis_run (p, NULL);
  c1 = procura_analysis_find (a, 1);
  c2 = procura_analysis_find (a, 2);
  g_assert_cmpint (c1->cost->replicas, ==, 2);
  g_assert_cmpfloat_with_epsilon (c1->cost->cost_per_accepted, by_hand (mid, peak, 2.5), 1e-12);
  /* the ends: the cost model at the ends of the capacity interval, replicas recounted */
  g_assert_cmpfloat_with_epsilon (c1->cost_lo, by_hand (hi, peak, 2.5), 1e-12);
  g_assert_cmpfloat_with_epsilon (c1->cost_hi, by_hand (lo, peak, 2.5), 1e-12);
  g_assert_cmpfloat_with_epsilon (c2->cost_hi, by_hand (lo, peak, 2.6), 1e-12);
  /* the ends said in the project's money format and unit, once, not as raw numbers */
  {
    g_autofree char *lo_text = procura_units_cost_scaled (c1->cost_lo, a->unit_factor, a->currency);
    g_autofree char *hi_text = procura_units_cost_scaled (c1->cost_hi, a->unit_factor, a->currency);
    g_autofree char *per = procura_units_per_label (a->unit_factor, a->unit_label);
    g_autofree char *want = g_strdup_printf ("%s to %s %s:", lo_text, hi_text, per);

    g_assert_cmpstr (lo_text, !=, hi_text);
    g_assert_true (g_str_has_prefix (c1->cost_interval_reason, want));
  }

  /* 2.5 vs 2.6 $/GPU-h: [2, 3] x 2.5 and [2, 3] x 2.6 overlap */
  g_assert_cmpint (c1->rank, ==, 1);
  g_assert_cmpint (a->ranking_separation, ==, PROCURA_SEPARATION_OVERLAP);
  g_assert_nonnull (strstr (a->ranking_uncertainty, "not distinguishable at this sample size"));
  g_assert_nonnull (strstr (a->measure_next, "GPU 1 (between 10 and 20 req/s)"));
  g_assert_nonnull (strstr (a->measure_next, "GPU 2 (between 10 and 20 req/s)"));
  for (guint i = 0; i < a->recommendation->reasons->len; i++)
    said |= strstr (g_ptr_array_index (a->recommendation->reasons, i), "not distinguishable") != NULL;
  g_assert_true (said);

  /* in summary --json, added members */
  json = procura_analysis_to_json (a, p);
  ranking = json_object_get_object_member (json_node_get_object (json), "ranking");
  g_assert_cmpstr (json_object_get_string_member (ranking, "separation"), ==, "not-distinguishable");
  g_assert_nonnull (json_object_get_string_member (ranking, "measure_next"));
  {
    JsonObject *top = json_array_get_object_element (json_object_get_array_member (ranking, "order"), 0);
    JsonObject *cand = json_array_get_object_element (json_object_get_array_member (json_node_get_object (json),
                                                                                    "candidates"), 0);
    JsonObject *iv = json_object_get_object_member (cand, "cost_per_accepted_interval");

    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (top, "cost_per_accepted_high"),
                                    by_hand (lo, peak, 2.5), 1e-12);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (iv, "low"), by_hand (hi, peak, 2.5), 1e-12);
    g_assert_false (json_object_get_boolean_member (iv, "unbounded"));
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_object_get_object_member (
                                      json_object_get_object_member (cand, "capacity"), "interval"), "low_rps"),
                                    lo, 1e-12);
  }
}

static void
test_distinct (void)
{
  g_autoptr(ProcuraProject) probe = make_project (2.6, 10);
  g_autoptr(ProcuraAnalysis) first = procura_analysis_run (probe, NULL);
  const ProcuraCapacity *cap = procura_analysis_find (first, 1)->capacity;
  double peak = cap->capacity_lo_rps + cap->capacity_rps;
  /* 2.5 x [2, 3] = [5, 7.5] against 4 x [2, 3] = [8, 12]: apart */
  g_autoptr(ProcuraProject) p = make_project (4.0, peak);
  g_autoptr(ProcuraAnalysis) a = procura_analysis_run (p, NULL);

  g_assert_cmpint (a->ranking_separation, ==, PROCURA_SEPARATION_DISTINCT);
  g_assert_nonnull (strstr (a->ranking_uncertainty, "distinguishable at this sample size"));
  g_assert_null (strstr (a->ranking_uncertainty, "not distinguishable"));
  g_assert_null (a->measure_next);
}

/* As reported: no interval, so whether the ranking holds is unknown, and it says so. */
static void
test_unknown (void)
{
  g_autoptr(ProcuraProject) p = make_project (2.6, 10);
  g_autoptr(ProcuraAnalysis) a = NULL;
  ProcuraAnalysisOptions o;

  procura_analysis_options_init (&o);
  o.no_bootstrap = TRUE;
  a = procura_analysis_run (p, &o);
  g_assert_true (isnan (procura_analysis_find (a, 1)->cost_lo));
  g_assert_cmpint (a->ranking_separation, ==, PROCURA_SEPARATION_UNKNOWN);
  g_assert_nonnull (strstr (a->measure_next, "per-request results"));
  g_assert_cmpstr (procura_separation_name (a->ranking_separation), ==, "unknown");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/uncertainty/cost-interval-overlap", test_cost_interval_and_overlap);
  g_test_add_func ("/analysis/uncertainty/distinct", test_distinct);
  g_test_add_func ("/analysis/uncertainty/unknown", test_unknown);
  return g_test_run ();
}
