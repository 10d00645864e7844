/* test-capacity.c: capacity at the latency target from a sweep (COST-MODEL.md §4)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-capacity.h"

static ProcuraRun *
run_reported (gint64      id,
              double      rps,
              double      tok_s,
              const char *metric,
              const char *stat,
              double      value_ms)
{
  ProcuraRun *r = procura_run_new ();

  r->id = id;
  r->label = g_strdup_printf ("run %" G_GINT64_FORMAT, id);
  r->request_throughput = rps;
  r->output_throughput = tok_s;
  procura_run_add_stat (r, metric, stat, value_ms, PROCURA_SOURCE_AS_REPORTED, -1);
  return r;
}

static ProcuraCapacity *
capacity_of (GPtrArray  *runs,
             const char *metric,
             double      percentile,
             double      threshold)
{
  ProcuraCapacityOptions o = { 0 };

  o.resamples = 400;
  return procura_capacity_from_runs ((const ProcuraRun * const *) runs->pdata, runs->len, metric,
                                     percentile, threshold, &o);
}

static GPtrArray *
sweep (void)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_run_free);

  /* deliberately out of load order */
  g_ptr_array_add (runs, run_reported (3, 4, 400, "ttft", "p99", 300));
  g_ptr_array_add (runs, run_reported (1, 1, 100, "ttft", "p99", 100));
  g_ptr_array_add (runs, run_reported (4, 8, 720, "ttft", "p99", 900));
  g_ptr_array_add (runs, run_reported (2, 2, 200, "ttft", "p99", 150));
  return runs;
}

static void
test_crossing (void)
{
  g_autoptr(GPtrArray) runs = sweep ();
  g_autoptr(ProcuraCapacity) c = capacity_of (runs, "ttft", 99, 500);
  const ProcuraSweepPoint *b, *a;

  g_assert_cmpint (c->status, ==, PROCURA_CAPACITY_OK);
  g_assert_cmpuint (c->points->len, ==, 4);
  /* sorted by throughput */
  for (guint i = 1; i < c->points->len; i++)
    g_assert_cmpfloat (g_array_index (c->points, ProcuraSweepPoint, i - 1).throughput_rps, <,
                       g_array_index (c->points, ProcuraSweepPoint, i).throughput_rps);
  /* between 4 req/s (300 ms) and 8 req/s (900 ms): 4 + (500 - 300) / 600 x 4 = 5.3333 */
  b = &g_array_index (c->points, ProcuraSweepPoint, c->below);
  a = &g_array_index (c->points, ProcuraSweepPoint, c->above);
  g_assert_cmpfloat (b->throughput_rps, ==, 4);
  g_assert_cmpfloat (a->throughput_rps, ==, 8);
  g_assert_cmpfloat_with_epsilon (c->capacity_rps, 4 + 4.0 / 3.0, 1e-12);
  /* tokens/s at the same fraction: 400 + 1/3 x 320 */
  g_assert_cmpfloat_with_epsilon (c->capacity_tok_s, 400 + 320.0 / 3.0, 1e-9);
  g_assert_false (c->uncertain);          /* as reported: no intervals */
  g_assert_false (c->all_recomputed);
  g_assert_cmpint (b->source, ==, PROCURA_SOURCE_AS_REPORTED);
  g_assert_nonnull (strstr (c->reason, "linear interpolation"));
  g_assert_cmpstr (procura_capacity_status_name (c->status), ==, "ok");
}

static void
test_not_saturated_and_misses (void)
{
  g_autoptr(GPtrArray) runs = sweep ();
  g_autoptr(ProcuraCapacity) ns = capacity_of (runs, "ttft", 99, 1000);
  g_autoptr(ProcuraCapacity) miss = capacity_of (runs, "ttft", 99, 50);
  g_autoptr(ProcuraCapacity) none = capacity_of (runs, "e2e", 99, 1000);
  g_autoptr(ProcuraCapacity) p95 = capacity_of (runs, "ttft", 95, 1000);

  /* every point meets 1000 ms: the largest load is a lower bound */
  g_assert_cmpint (ns->status, ==, PROCURA_CAPACITY_NOT_SATURATED);
  g_assert_cmpfloat (ns->capacity_rps, ==, 8);
  g_assert_cmpint (ns->above, ==, -1);
  g_assert_nonnull (strstr (ns->reason, "lower bound"));
  g_assert_cmpstr (procura_capacity_status_name (ns->status), ==, "not-saturated");

  /* even the lightest load misses 50 ms */
  g_assert_cmpint (miss->status, ==, PROCURA_CAPACITY_MISSES);
  g_assert_true (isnan (miss->capacity_rps));
  g_assert_cmpint (miss->above, ==, 0);
  g_assert_cmpstr (procura_capacity_status_name (miss->status), ==, "misses-target");

  /* no e2e figures, and no p95 ttft: no data */
  g_assert_cmpint (none->status, ==, PROCURA_CAPACITY_NO_DATA);
  g_assert_cmpuint (none->skipped, ==, 4);
  g_assert_cmpint (p95->status, ==, PROCURA_CAPACITY_NO_DATA);
}

static void
test_highest_meet_rule (void)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_run_free);
  g_autoptr(ProcuraCapacity) c = NULL;

  /* a noisy sweep: meets at 1, misses at 2, meets again at 3, misses at 4. The
   * capacity is the highest load that meets, read towards the next point that misses:
   * between 3 req/s (400 ms) and 4 req/s (900 ms) → 3 + 100/500 = 3.2 */
  g_ptr_array_add (runs, run_reported (1, 1, NAN, "tpot", "p90", 100));
  g_ptr_array_add (runs, run_reported (2, 2, NAN, "tpot", "p90", 700));
  g_ptr_array_add (runs, run_reported (3, 3, NAN, "tpot", "p90", 400));
  g_ptr_array_add (runs, run_reported (4, 4, NAN, "tpot", "p90", 900));
  /* a run without a throughput is skipped */
  g_ptr_array_add (runs, run_reported (5, NAN, NAN, "tpot", "p90", 10));
  c = capacity_of (runs, "tpot", 90, 500);
  g_assert_cmpint (c->status, ==, PROCURA_CAPACITY_OK);
  g_assert_cmpfloat_with_epsilon (c->capacity_rps, 3.2, 1e-12);
  g_assert_true (isnan (c->capacity_tok_s));
  g_assert_cmpuint (c->skipped, ==, 1);
  /* the miss at 2 req/s below the meeting point at 3 req/s: a warning naming both */
  g_assert_cmpint (c->nm_miss, ==, 1);
  g_assert_cmpint (c->nm_meet, ==, 2);
  g_assert_nonnull (c->non_monotone);
  g_assert_nonnull (strstr (c->non_monotone, "run 2"));
  g_assert_nonnull (strstr (c->non_monotone, "run 3"));
  g_assert_nonnull (strstr (c->reason, "not monotone"));
  g_ptr_array_unref (runs);
}

/* A monotone sweep has no warning. */
static void
test_monotone_no_warning (void)
{
  g_autoptr(GPtrArray) runs = sweep ();
  g_autoptr(ProcuraCapacity) c = capacity_of (runs, "ttft", 99, 500);

  g_assert_null (c->non_monotone);
  g_assert_cmpint (c->nm_miss, ==, -1);
  g_assert_cmpuint (c->excluded->len, ==, 0);
}

/* The lightest point misses (a warm-up outlier) and the two next meet: the capacity is
 * the largest load measured, a lower bound, not "misses at every load". */
static void
test_warmup_outlier_not_saturated (void)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_run_free);
  g_autoptr(ProcuraCapacity) c = NULL;

  g_ptr_array_add (runs, run_reported (1, 1, NAN, "ttft", "p99", 629));
  g_ptr_array_add (runs, run_reported (2, 10, NAN, "ttft", "p99", 140));
  g_ptr_array_add (runs, run_reported (3, 20, NAN, "ttft", "p99", 245));
  c = capacity_of (runs, "ttft", 99, 500);
  g_assert_cmpint (c->status, ==, PROCURA_CAPACITY_NOT_SATURATED);
  g_assert_cmpfloat (c->capacity_rps, ==, 20);
  g_assert_cmpint (c->nm_miss, ==, 0);
  g_assert_cmpint (c->nm_meet, ==, 2);
  g_assert_nonnull (strstr (c->non_monotone, "run 1"));
  g_ptr_array_unref (runs);
}

static ProcuraRun *
run_counts (gint64      id,
            double      rps,
            double      p99,
            gint64      completed,
            gint64      failed,
            const char *extras)
{
  ProcuraRun *r = run_reported (id, rps, NAN, "ttft", "p99", p99);

  r->completed = completed;
  r->failed = failed;
  r->extras_json = g_strdup (extras);
  return r;
}

/* Runs where every request failed, or that stopped part way, are left out with a
 * reason that says so; no internal error, no capacity "at 0 req/s". */
static void
test_excluded_runs (void)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_run_free);
  g_autoptr(ProcuraCapacity) c = NULL;
  g_autoptr(ProcuraCapacity) only_failed = NULL;
  GPtrArray *failed_only = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_run_free);

  g_ptr_array_add (runs, run_counts (1, 2, 100, 100, 0, NULL));
  g_ptr_array_add (runs, run_counts (2, 4, 300, 95, 5, NULL));        /* 95 %: kept */
  g_ptr_array_add (runs, run_counts (3, 8, 900, 100, -1, NULL));      /* failures unknown: kept */
  /* every request failed: 0 req/s, p99 0 ms as vLLM writes it */
  g_ptr_array_add (runs, run_counts (4, 0, 0, 0, 8, NULL));
  /* an unlimited-rate run that stopped half way (num_prompts in extras, no failed count) */
  g_ptr_array_add (runs, run_counts (5, 27, 34000, 1015, -1, "{\"num_prompts\":2000}"));
  /* 89 of 100: just under the threshold */
  g_ptr_array_add (runs, run_counts (6, 6, 50, 89, 11, NULL));
  c = capacity_of (runs, "ttft", 99, 500);
  g_assert_cmpuint (c->points->len, ==, 3);
  g_assert_cmpuint (c->excluded->len, ==, 3);
  g_assert_nonnull (strstr (g_ptr_array_index (c->excluded, 0), "completed no request of 8 sent"));
  g_assert_nonnull (strstr (g_ptr_array_index (c->excluded, 1), "1015 of 2000"));
  g_assert_nonnull (strstr (g_ptr_array_index (c->excluded, 2), "89 of 100"));
  for (guint i = 0; i < c->excluded->len; i++)
    g_assert_nonnull (strstr (g_ptr_array_index (c->excluded, i), "not even as a bound"));
  /* read off the three runs kept: 4 + (500 - 300) / 600 x 4 */
  g_assert_cmpint (c->status, ==, PROCURA_CAPACITY_OK);
  g_assert_cmpfloat_with_epsilon (c->capacity_rps, 4 + 4.0 / 3.0, 1e-12);
  g_assert_nonnull (strstr (c->reason, "3 runs excluded"));

  /* nothing but a failed run: no data, with the exclusion in the reason */
  g_ptr_array_add (failed_only, run_counts (1, 0, 0, 0, 8, NULL));
  only_failed = capacity_of (failed_only, "ttft", 99, 500);
  g_assert_cmpint (only_failed->status, ==, PROCURA_CAPACITY_NO_DATA);
  g_assert_true (isnan (only_failed->capacity_rps));
  g_assert_cmpuint (only_failed->excluded->len, ==, 1);
  g_assert_nonnull (strstr (only_failed->reason, "1 run excluded"));
  g_ptr_array_unref (failed_only);
  g_ptr_array_unref (runs);
}

static void
test_requests_sent (void)
{
  g_autoptr(ProcuraRun) r = procura_run_new ();

  g_assert_cmpint (procura_run_requests_sent (r), ==, -1);
  r->completed = 10;
  g_assert_cmpint (procura_run_requests_sent (r), ==, -1);
  r->failed = 2;
  g_assert_cmpint (procura_run_requests_sent (r), ==, 12);
  r->extras_json = g_strdup ("{\"num_prompts\": 20, \"x\": \"y\"}");
  g_assert_cmpint (procura_run_requests_sent (r), ==, 20);
  g_free (r->extras_json);
  r->extras_json = g_strdup ("not json");
  g_assert_cmpint (procura_run_requests_sent (r), ==, 12);
}

static void
test_stat_names (void)
{
  g_autofree char *a = procura_percentile_stat_name (99);
  g_autofree char *b = procura_percentile_stat_name (99.9);
  g_autofree char *c = procura_percentile_stat_name (50);

  g_assert_cmpstr (a, ==, "p99");
  g_assert_cmpstr (b, ==, "p99.9");
  g_assert_cmpstr (c, ==, "p50");
}

/* A run with per-request samples: 0, 1, ..., n-1 (shuffled) ms. */
static ProcuraRun *
run_samples (gint64 id,
             double rps,
             double scale,
             gsize  n)
{
  ProcuraRun *r = procura_run_new ();
  double *v = g_new (double, n);

  for (gsize i = 0; i < n; i++)
    v[i] = scale * (double) ((i * 7919) % n);
  r->id = id;
  r->label = g_strdup ("samples");
  r->request_throughput = rps;
  procura_run_take_samples (r, "ttft", v, n);
  /* an as-reported figure that must NOT be used when samples exist */
  procura_run_add_stat (r, "ttft", "p99", 123456, PROCURA_SOURCE_AS_REPORTED, -1);
  return r;
}

static void
test_recomputed_and_uncertain (void)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_run_free);
  g_autoptr(ProcuraCapacity) sure = NULL;
  g_autoptr(ProcuraCapacity) unsure = NULL;
  const ProcuraSweepPoint *p0, *p1;

  /* 1000 samples 0..999: p99 = 989.01 (h = 989.01); 1000 samples 0, 5, ..., 4995:
   * p99 = 4945.05 */
  g_ptr_array_add (runs, run_samples (1, 10, 1.0, 1000));
  g_ptr_array_add (runs, run_samples (2, 20, 5.0, 1000));

  sure = capacity_of (runs, "ttft", 99, 3000);
  p0 = &g_array_index (sure->points, ProcuraSweepPoint, 0);
  p1 = &g_array_index (sure->points, ProcuraSweepPoint, 1);
  g_assert_cmpint (p0->source, ==, PROCURA_SOURCE_RECOMPUTED);
  g_assert_cmpint (p0->samples, ==, 1000);
  g_assert_cmpfloat_with_epsilon (p0->value_ms, 989.01, 1e-9);
  g_assert_cmpfloat_with_epsilon (p1->value_ms, 4945.05, 1e-9);
  g_assert_true (sure->all_recomputed);
  g_assert_cmpint (sure->samples_min, ==, 1000);
  /* the bootstrap interval is around the estimate, inside the data */
  g_assert_cmpfloat (p0->ci_lo_ms, <=, 989.01);
  g_assert_cmpfloat (p0->ci_hi_ms, >=, 989.01);
  g_assert_cmpfloat (p0->ci_lo_ms, >, 950);
  g_assert_cmpfloat (p0->ci_hi_ms, <=, 999);
  /* 3000 ms: 10 + (3000 - 989.01) / (4945.05 - 989.01) x 10, far from both intervals */
  g_assert_cmpint (sure->status, ==, PROCURA_CAPACITY_OK);
  g_assert_cmpfloat_with_epsilon (sure->capacity_rps, 10 + (3000 - 989.01) / (4945.05 - 989.01) * 10, 1e-9);
  g_assert_false (sure->uncertain);

  /* 990 ms lies inside the first point's interval: the crossing is uncertain */
  unsure = capacity_of (runs, "ttft", 99, 990);
  g_assert_cmpint (unsure->status, ==, PROCURA_CAPACITY_OK);
  g_assert_true (unsure->uncertain);
  g_assert_nonnull (strstr (unsure->reason, "uncertain"));
  g_ptr_array_unref (runs);
}

/* The capacity interval: the rule read off both ends of the points' intervals. */
static void
test_interval (void)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_run_free);
  g_autoptr(GPtrArray) reported = sweep ();
  g_autoptr(ProcuraCapacity) c = NULL;
  g_autoptr(ProcuraCapacity) none = NULL;
  g_autoptr(ProcuraCapacity) tight = NULL;
  const ProcuraSweepPoint *b, *a;

  /* 200 samples per point: wide enough intervals to matter */
  g_ptr_array_add (runs, run_samples (1, 10, 1.0, 200));
  g_ptr_array_add (runs, run_samples (2, 20, 5.0, 200));
  c = capacity_of (runs, "ttft", 99, 600);
  g_assert_cmpint (c->status, ==, PROCURA_CAPACITY_OK);
  b = &g_array_index (c->points, ProcuraSweepPoint, 0);
  a = &g_array_index (c->points, ProcuraSweepPoint, 1);
  g_assert_cmpfloat (b->ci_hi_ms, >, b->value_ms);
  /* pessimistic: the upper ends; optimistic: the lower ends */
  g_assert_cmpfloat_with_epsilon (c->capacity_lo_rps,
                                  10 + (600 - b->ci_hi_ms) / (a->ci_hi_ms - b->ci_hi_ms) * 10, 1e-9);
  g_assert_cmpfloat_with_epsilon (c->capacity_hi_rps,
                                  10 + (600 - b->ci_lo_ms) / (a->ci_lo_ms - b->ci_lo_ms) * 10, 1e-9);
  g_assert_cmpfloat (c->capacity_lo_rps, <, c->capacity_rps);
  g_assert_cmpfloat (c->capacity_rps, <, c->capacity_hi_rps);
  g_assert_false (c->hi_lower_bound);
  g_assert_nonnull (strstr (c->interval_reason, "req/s"));

  /* a target inside the first point's interval: the pessimistic reading misses */
  tight = capacity_of (runs, "ttft", 99, b->value_ms + 0.1);
  g_assert_cmpfloat (tight->capacity_lo_rps, ==, 0);
  g_assert_true (isfinite (tight->capacity_hi_rps));

  /* as reported: no interval, and the reason says why */
  none = capacity_of (reported, "ttft", 99, 500);
  g_assert_true (isnan (none->capacity_lo_rps));
  g_assert_true (isnan (none->capacity_hi_rps));
  g_assert_nonnull (strstr (none->interval_reason, "no bootstrap interval"));
  g_ptr_array_unref (runs);
}

static void
test_metric_percentile_helper (void)
{
  g_autoptr(ProcuraRun) r = run_reported (1, 1, NAN, "e2e", "p95", 321);
  ProcuraSource src;
  gint64 n;
  double *v = g_new (double, 4);

  g_assert_cmpfloat (procura_run_metric_percentile (r, "e2e", 95, &src, &n), ==, 321);
  g_assert_cmpint (src, ==, PROCURA_SOURCE_AS_REPORTED);
  g_assert_cmpint (n, ==, -1);
  /* samples with a NaN (a failed request): the NaN is left out, n = 3 */
  v[0] = 30;
  v[1] = NAN;
  v[2] = 10;
  v[3] = 20;
  procura_run_take_samples (r, "e2e", v, 4);
  /* p50 of 10, 20, 30 = 20 */
  g_assert_cmpfloat (procura_run_metric_percentile (r, "e2e", 50, &src, &n), ==, 20);
  g_assert_cmpint (src, ==, PROCURA_SOURCE_RECOMPUTED);
  g_assert_cmpint (n, ==, 3);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/capacity/crossing", test_crossing);
  g_test_add_func ("/analysis/capacity/not-saturated-misses", test_not_saturated_and_misses);
  g_test_add_func ("/analysis/capacity/highest-meet", test_highest_meet_rule);
  g_test_add_func ("/analysis/capacity/monotone", test_monotone_no_warning);
  g_test_add_func ("/analysis/capacity/warm-up-outlier", test_warmup_outlier_not_saturated);
  g_test_add_func ("/analysis/capacity/excluded-runs", test_excluded_runs);
  g_test_add_func ("/analysis/capacity/requests-sent", test_requests_sent);
  g_test_add_func ("/analysis/capacity/interval", test_interval);
  g_test_add_func ("/analysis/capacity/stat-names", test_stat_names);
  g_test_add_func ("/analysis/capacity/recomputed-uncertain", test_recomputed_and_uncertain);
  g_test_add_func ("/analysis/capacity/metric-percentile", test_metric_percentile_helper);
  return g_test_run ();
}
