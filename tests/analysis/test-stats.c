/* test-stats.c: percentiles (numpy's linear method), sorting, bootstrap
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Expected values are worked by hand from numpy's definition
 * h = (n-1) q, x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "procura-stats.h"

#define EPS 1e-12

static void
test_percentile_edges (void)
{
  const double one[] = { 7.5 };
  const double two[] = { 1.0, 3.0 };
  const double ties[] = { 2.0, 2.0, 2.0, 5.0 };
  const double ten[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
  const double wiki[] = { 15, 20, 35, 40, 50 };

  /* n = 0 */
  g_assert_true (isnan (procura_stats_percentile (NULL, 0, 0.5)));
  g_assert_true (isnan (procura_stats_percentile (one, 0, 0.5)));
  /* n = 1: every q gives the value */
  g_assert_cmpfloat (procura_stats_percentile (one, 1, 0.0), ==, 7.5);
  g_assert_cmpfloat (procura_stats_percentile (one, 1, 0.99), ==, 7.5);
  g_assert_cmpfloat (procura_stats_percentile (one, 1, 1.0), ==, 7.5);
  /* n = 2: h = q */
  g_assert_cmpfloat (procura_stats_percentile (two, 2, 0.0), ==, 1.0);
  g_assert_cmpfloat_with_epsilon (procura_stats_percentile (two, 2, 0.25), 1.5, EPS);
  g_assert_cmpfloat_with_epsilon (procura_stats_percentile (two, 2, 0.5), 2.0, EPS);
  g_assert_cmpfloat_with_epsilon (procura_stats_percentile (two, 2, 0.99), 2.98, EPS);
  g_assert_cmpfloat (procura_stats_percentile (two, 2, 1.0), ==, 3.0);
  /* ties: h = 1.5 → 2 + 0.5 (2 - 2); q = 0.9: h = 2.7 → 2 + 0.7 (5 - 2) = 4.1 */
  g_assert_cmpfloat_with_epsilon (procura_stats_percentile (ties, 4, 0.5), 2.0, EPS);
  g_assert_cmpfloat_with_epsilon (procura_stats_percentile (ties, 4, 0.9), 4.1, EPS);
  g_assert_cmpfloat (procura_stats_percentile (ties, 4, 0.0), ==, 2.0);
  g_assert_cmpfloat (procura_stats_percentile (ties, 4, 1.0), ==, 5.0);
  /* 1..10, p99: h = 8.91 → 9 + 0.91 = 9.91; p50: h = 4.5 → 5.5 */
  g_assert_cmpfloat_with_epsilon (procura_stats_percentile (ten, 10, 0.99), 9.91, EPS);
  g_assert_cmpfloat_with_epsilon (procura_stats_percentile (ten, 10, 0.5), 5.5, EPS);
  /* np.percentile([15, 20, 35, 40, 50], 40) = 29: h = 1.6 → 20 + 0.6 x 15 */
  g_assert_cmpfloat_with_epsilon (procura_stats_percentile (wiki, 5, 0.40), 29.0, EPS);
  /* q outside 0..1 is clamped */
  g_assert_cmpfloat (procura_stats_percentile (wiki, 5, -0.5), ==, 15.0);
  g_assert_cmpfloat (procura_stats_percentile (wiki, 5, 1.5), ==, 50.0);
}

static void
test_percentile_unsorted (void)
{
  const double v[] = { 50, 15, 40, 20, 35 };

  g_assert_cmpfloat_with_epsilon (procura_stats_percentile_unsorted (v, 5, 0.40), 29.0, EPS);
  /* the input is not modified */
  g_assert_cmpfloat (v[0], ==, 50);
}

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* the numbers' order with every NaN last */
static int
cmp_key (const void *a,
         const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  if (isnan (x) || isnan (y))
    return !!isnan (x) - !!isnan (y);
  return (x > y) - (x < y);
}

static void
test_sort (void)
{
  double small[] = { 3, -1, 0.5, -0.0, 2, -7.25, 1e300, -1e-300 };
  const double small_sorted[] = { -7.25, -1, -1e-300, -0.0, 0.5, 2, 3, 1e300 };
  double with_nan[] = { 2, NAN, 1 };
  gsize n = 5000;
  double *big = g_new (double, n), *ref = g_new (double, n);
  ProcuraRng rng;

  procura_stats_sort (small, G_N_ELEMENTS (small));
  for (guint i = 0; i < G_N_ELEMENTS (small); i++)
    g_assert_cmpfloat (small[i], ==, small_sorted[i]);

  procura_stats_sort (with_nan, 3);
  g_assert_cmpfloat (with_nan[0], ==, 1);
  g_assert_cmpfloat (with_nan[1], ==, 2);
  g_assert_true (isnan (with_nan[2]));

  /* the radix path (n >= 128) against the C library's qsort, with negatives and ties */
  procura_rng_init (&rng, 42);
  for (gsize i = 0; i < n; i++)
    {
      double v = (double) (procura_rng_next (&rng) % 2001) - 1000.0;
      big[i] = ref[i] = (i % 7 == 0) ? v : v / 8.0 + 1e-3 * (double) (i % 3);
    }
  procura_stats_sort (big, n);
  qsort (ref, n, sizeof (double), cmp_double);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat (big[i], ==, ref[i]);
  g_free (big);
  g_free (ref);

  /* enough values for two halves sorted on two threads and merged: bit for bit what
   * a sort by the numbers' order gives (a zero as +0, as the radix sort gives it),
   * NaNs last, ties and both signs */
  n = 300001;
  big = g_new (double, n);
  ref = g_new (double, n);
  for (gsize i = 0; i < n; i++)
    {
      double v = (double) (procura_rng_next (&rng) % 4001) - 2000.0;

      if (i % 5 == 0)
        v = ldexp (v, (int) (procura_rng_next (&rng) % 200) - 100);
      if (i % 1009 == 0)
        v = (i % 2) ? -0.0 : 0.0;
      if (i % 7919 == 0)
        v = NAN;
      big[i] = ref[i] = v;
    }
  procura_stats_sort (big, n);
  qsort (ref, n, sizeof (double), cmp_key);
  for (gsize i = 0; i < n; i++)
    if (ref[i] == 0)
      ref[i] = 0.0;
  for (gsize i = 0; i < n; i++)
    if (!(isnan (ref[i]) ? isnan (big[i]) : memcmp (&big[i], &ref[i], sizeof (double)) == 0))
      g_error ("position %" G_GSIZE_FORMAT ": %a sorted, %a expected", i, big[i], ref[i]);
  g_free (big);
  g_free (ref);
}

static void
test_mean_std (void)
{
  const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

  g_assert_cmpfloat_with_epsilon (procura_stats_mean (v, 8), 5.0, EPS);
  /* population: sqrt(32 / 8) = 2; sample: sqrt(32 / 7) */
  g_assert_cmpfloat_with_epsilon (procura_stats_std (v, 8), 2.0, EPS);
  g_assert_cmpfloat_with_epsilon (procura_stats_std_sample (v, 8), sqrt (32.0 / 7.0), EPS);
  g_assert_true (isnan (procura_stats_mean (v, 0)));
  g_assert_true (isnan (procura_stats_std (v, 0)));
  g_assert_cmpfloat (procura_stats_std (v, 1), ==, 0.0);
  g_assert_true (isnan (procura_stats_std_sample (v, 1)));
}

static void
test_interp (void)
{
  const double xs[] = { 1, 2, 4 };
  const double ys[] = { 10, 20, 0 };

  g_assert_cmpfloat_with_epsilon (procura_stats_lerp (0, 0, 10, 100, 2.5), 25.0, EPS);
  g_assert_cmpfloat (procura_stats_lerp (3, 7, 3, 9, 3), ==, 7.0);
  g_assert_cmpfloat_with_epsilon (procura_stats_interp (xs, ys, 3, 1.5), 15.0, EPS);
  g_assert_cmpfloat_with_epsilon (procura_stats_interp (xs, ys, 3, 3.0), 10.0, EPS);
  g_assert_cmpfloat (procura_stats_interp (xs, ys, 3, 0.0), ==, 10.0);   /* clamped */
  g_assert_cmpfloat (procura_stats_interp (xs, ys, 3, 9.0), ==, 0.0);
}

static void
test_rng (void)
{
  ProcuraRng a, b;
  /* splitmix64 reference outputs for seed 1234567 (Vigna's splitmix64.c) */
  const guint64 expected[] = {
    G_GUINT64_CONSTANT (6457827717110365317),
    G_GUINT64_CONSTANT (3203168211198807973),
    G_GUINT64_CONSTANT (9817491932198370423),
  };

  procura_rng_init (&a, 1234567);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpuint (procura_rng_next (&a), ==, expected[i]);

  procura_rng_init (&a, 99);
  procura_rng_init (&b, 99);
  for (guint i = 0; i < 100; i++)
    {
      guint64 x = procura_rng_below (&a, 10);
      g_assert_cmpuint (x, ==, procura_rng_below (&b, 10));
      g_assert_cmpuint (x, <, 10);
    }
}

static void
test_bootstrap_repeatable (void)
{
  double v[500];
  double lo1, hi1, lo2, hi2, lo3, hi3;

  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    v[i] = (double) ((i * 7919) % 500);   /* a permutation of 0..499 */

  g_assert_true (procura_stats_bootstrap_ci (v, 500, 0.99, 0.95, 1000, 7, &lo1, &hi1));
  g_assert_true (procura_stats_bootstrap_ci (v, 500, 0.99, 0.95, 1000, 7, &lo2, &hi2));
  g_assert_cmpfloat (lo1, ==, lo2);
  g_assert_cmpfloat (hi1, ==, hi2);
  /* the interval brackets the estimate (p99 of 0..499 = 494.01) and stays in range */
  g_assert_cmpfloat (lo1, <=, 494.01);
  g_assert_cmpfloat (hi1, >=, 494.01);
  g_assert_cmpfloat (lo1, >=, 480);
  g_assert_cmpfloat (hi1, <=, 499);
  /* another seed, another (but close) interval */
  g_assert_true (procura_stats_bootstrap_ci (v, 500, 0.99, 0.95, 1000, 8, &lo3, &hi3));
  g_assert_true (lo3 != lo1 || hi3 != hi1);

  /* n = 1: [x, x]; n = 0: FALSE and NANs */
  g_assert_true (procura_stats_bootstrap_ci (v, 1, 0.5, 0.95, 100, 1, &lo1, &hi1));
  g_assert_cmpfloat (lo1, ==, v[0]);
  g_assert_cmpfloat (hi1, ==, v[0]);
  g_assert_false (procura_stats_bootstrap_ci (v, 0, 0.5, 0.95, 100, 1, &lo1, &hi1));
  g_assert_true (isnan (lo1) && isnan (hi1));
}

/* The O(1) resampling must follow the distribution of a plain resample. For sorted
 * values x[0..n-1] every resample of size n is one of n^n equally likely index
 * tuples: enumerate them, take numpy's percentile of each, and compare the exact
 * distribution with the shares of 40000 bootstrap estimates. */
static void
check_against_enumeration (const double *x,
                           guint         n,
                           double        q)
{
  guint total = 1, n_est = 40000;
  g_autoptr(GHashTable) exact = g_hash_table_new_full (g_double_hash, g_double_equal, g_free, g_free);
  g_autofree double *est = g_new (double, n_est);
  GHashTableIter it;
  gpointer key, value;
  double checked = 0;

  for (guint i = 0; i < n; i++)
    total *= n;
  for (guint t = 0; t < total; t++)
    {
      double v[8];
      guint code = t;
      double p, *count;

      for (guint i = 0; i < n; i++)
        {
          v[i] = x[code % n];
          code /= n;
        }
      p = procura_stats_percentile_unsorted (v, n, q);
      count = g_hash_table_lookup (exact, &p);
      if (count == NULL)
        {
          count = g_new0 (double, 1);
          g_hash_table_insert (exact, g_memdup2 (&p, sizeof p), count);
        }
      *count += 1.0 / total;
    }

  g_assert_true (procura_stats_bootstrap_estimates (x, n, q, n_est, 2024, est));
  g_hash_table_iter_init (&it, exact);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      double p = *(double *) key, share = *(double *) value;
      guint seen = 0;

      for (guint e = 0; e < n_est; e++)
        if (fabs (est[e] - p) < 1e-9)
          seen++;
      /* 40000 draws: the standard error of a share is at most 0.0025 */
      g_assert_cmpfloat (fabs ((double) seen / n_est - share), <, 0.012);
      checked += share;
    }
  /* every estimate is one of the enumerated outcomes */
  g_assert_cmpfloat_with_epsilon (checked, 1.0, 1e-9);
  for (guint e = 0; e < n_est; e++)
    {
      double p = est[e];
      g_assert_nonnull (g_hash_table_lookup (exact, &p));
    }
}

static void
test_bootstrap_distribution (void)
{
  const double three[] = { 0, 10, 20 };
  const double four[] = { 1, 2, 4, 8 };

  /* median of 3: P(0) = P(20) = 7/27, P(10) = 13/27 */
  check_against_enumeration (three, 3, 0.5);
  /* q = 0.25: h = 0.5, the mean of the two lowest order statistics (joint sampling) */
  check_against_enumeration (three, 3, 0.25);
  check_against_enumeration (three, 3, 0.9);
  /* n = 4, p99: h = 2.97, the two highest order statistics */
  check_against_enumeration (four, 4, 0.99);
  check_against_enumeration (four, 4, 0.0);
  check_against_enumeration (four, 4, 1.0);
}

static void
test_select (void)
{
  double v[] = { 9, 1, 8, 2, 7, 3, 6, 4, 5, 5, 0 };
  gsize n = G_N_ELEMENTS (v);

  for (gsize k = 0; k < n; k++)
    {
      double w[G_N_ELEMENTS (v)];
      memcpy (w, v, sizeof v);
      procura_stats_select (w, n, k);
      /* sorted: 0 1 2 3 4 5 5 6 7 8 9 */
      g_assert_cmpfloat (w[k], ==, (double) (k <= 5 ? k : k - 1));
      for (gsize i = 0; i < k; i++)
        g_assert_cmpfloat (w[i], <=, w[k]);
      for (gsize i = k + 1; i < n; i++)
        g_assert_cmpfloat (w[i], >=, w[k]);
    }
}

/* The windowed percentile + bootstrap gives exactly the figures of the whole sort. */
static void
test_percentile_ci_window (void)
{
  const double qs[] = { 0.0, 0.5, 0.9, 0.99, 0.999, 1.0 };
  gsize n = 20000;
  double *data = g_new (double, n);
  ProcuraRng rng;

  procura_rng_init (&rng, 5);
  for (gsize i = 0; i < n; i++)
    data[i] = (double) (procura_rng_next (&rng) % 100000) / 7.0;   /* with ties */

  for (guint i = 0; i < G_N_ELEMENTS (qs); i++)
    {
      double *a = g_memdup2 (data, n * sizeof (double));
      double *sorted = g_memdup2 (data, n * sizeof (double));
      double lo1, hi1, lo2, hi2, p1, p2;

      procura_stats_sort (sorted, n);
      p1 = procura_stats_percentile (sorted, n, qs[i]);
      g_assert_true (procura_stats_bootstrap_ci_sorted (sorted, n, qs[i], 0.95, 300, 77, &lo1, &hi1));
      p2 = procura_stats_percentile_ci (a, n, qs[i], 0.95, 300, 77, &lo2, &hi2);
      g_assert_cmpfloat (p1, ==, p2);
      g_assert_cmpfloat (lo1, ==, lo2);
      g_assert_cmpfloat (hi1, ==, hi2);
      g_free (a);
      g_free (sorted);
    }
  g_free (data);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/stats/percentile-edges", test_percentile_edges);
  g_test_add_func ("/analysis/stats/percentile-unsorted", test_percentile_unsorted);
  g_test_add_func ("/analysis/stats/sort", test_sort);
  g_test_add_func ("/analysis/stats/mean-std", test_mean_std);
  g_test_add_func ("/analysis/stats/interp", test_interp);
  g_test_add_func ("/analysis/stats/rng", test_rng);
  g_test_add_func ("/analysis/stats/bootstrap-repeatable", test_bootstrap_repeatable);
  g_test_add_func ("/analysis/stats/bootstrap-distribution", test_bootstrap_distribution);
  g_test_add_func ("/analysis/stats/select", test_select);
  g_test_add_func ("/analysis/stats/percentile-ci-window", test_percentile_ci_window);
  return g_test_run ();
}
