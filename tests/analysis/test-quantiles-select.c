/* test-quantiles-select.c: a quantile summary built by selecting its ranks is the one a
 * full sort of the samples gives, bit for bit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * procura_quantiles_new () no longer sorts every sample when there are more than
 * PROCURA_QUANTILES_GRID of them: it selects only the ranks it keeps
 * (procura_stats_select_ranks (): a partition tree, or for millions of values one
 * counting pass over buckets). For random, heavy-tailed, tied, signed and bit-random
 * samples, with n just below, at and above the grid and above the bucket path's
 * threshold, the summary must equal the one built from procura_stats_sort () (ranks
 * and value bits), keep exactly the grid's ranks and the first rank above 0, and hold
 * at each kept rank the sorted sample there.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-model.h"
#include "procura-quantiles.h"
#include "procura-stats.h"

typedef double (*Draw) (GRand *rand);

static double
draw_random (GRand *rand)
{
  return g_rand_double_range (rand, -5, 1000);
}

static double
draw_latency (GRand *rand)
{
  /* inter-token gaps in ms: log-normal-ish, 2 to 7,000 */
  return exp (g_rand_double_range (rand, 0.7, 8.8));
}

static double
draw_heavy_tail (GRand *rand)
{
  /* Pareto, shape 1.1: a few values thousands of times the median */
  return 3.0 / pow (1.0 - g_rand_double (rand), 1.0 / 1.1);
}

static double
draw_ties (GRand *rand)
{
  /* nine values, among them both zeros */
  static const double v[] = { -2, -0.5, -0.0, 0.0, 0.0, 1, 1, 7.25, 1e6 };

  return v[g_rand_int_range (rand, 0, G_N_ELEMENTS (v))];
}

static double
draw_signed (GRand *rand)
{
  /* a third zeros of either sign, a third negative, a third positive */
  switch (g_rand_int_range (rand, 0, 3))
    {
    case 0:
      return g_rand_boolean (rand) ? 0.0 : -0.0;
    case 1:
      return -g_rand_double_range (rand, 1e-3, 50);
    default:
      return g_rand_double_range (rand, 1e-3, 50);
    }
}

static double
draw_bits (GRand *rand)
{
  /* any finite double, subnormals included: every bucket boundary of the counting pass */
  for (;;)
    {
      guint64 u = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      double d;

      memcpy (&d, &u, sizeof d);
      if (isfinite (d))
        return d;
    }
}

/* @n samples from @draw, with a NaN and infinities thrown in (both paths drop them) */
static double *
samples (Draw    draw,
         gsize   n,
         guint32 seed)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  double *v = g_new (double, n + 3);

  for (gsize i = 0; i < n; i++)
    v[i] = draw (rand);
  v[n] = NAN;
  v[n + 1] = INFINITY;
  v[n + 2] = -INFINITY;
  for (gsize i = n + 3; i-- > 1;)
    {
      gsize j = g_rand_int_range (rand, 0, (gint32) i + 1);
      double t = v[i];

      v[i] = v[j];
      v[j] = t;
    }
  return v;
}

static gboolean
same_bits (double a,
           double b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

static void
check_case (Draw        draw,
            gsize       n,
            guint32     seed)
{
  g_autofree double *v = samples (draw, n, seed);
  g_autofree double *sorted = g_new (double, n);
  g_autoptr (ProcuraQuantiles) selected = NULL;
  g_autoptr (ProcuraQuantiles) full = NULL;
  g_autoptr (GHashTable) expected = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree gint64 *keys = g_new (gint64, PROCURA_QUANTILES_GRID + 1);
  gsize m = 0, first_positive = 0, nkeys = 0;

  for (gsize i = 0; i < n + 3; i++)
    if (isfinite (v[i]))
      sorted[m++] = v[i];
  g_assert_cmpuint (m, ==, n);
  procura_stats_sort (sorted, n);
  while (first_positive < n && sorted[first_positive] <= 0)
    first_positive++;

  selected = procura_quantiles_new ("itl", v, n + 3);
  full = procura_quantiles_new_sorted ("itl", sorted, n);
  g_assert_nonnull (selected);
  g_assert_nonnull (full);
  g_assert_true (procura_quantiles_valid (selected));
  g_assert_cmpuint (selected->n, ==, n);
  g_assert_cmpuint (selected->k, ==, full->k);
  for (gsize j = 0; j < full->k; j++)
    {
      g_assert_cmpuint (selected->ranks[j], ==, full->ranks[j]);
      if (!same_bits (selected->values[j], full->values[j]))
        g_error ("n %" G_GSIZE_FORMAT ", rank %" G_GUINT64_FORMAT ": %a selected, %a sorted",
                 n, full->ranks[j], selected->values[j], full->values[j]);
      g_assert_true (same_bits (selected->values[j], sorted[selected->ranks[j]]));
    }

  /* the ranks themselves: every one for a small run, else the grid and the first above 0 */
  if (n <= PROCURA_QUANTILES_GRID)
    {
      g_assert_cmpuint (selected->k, ==, n);
      return;
    }
  for (guint64 j = 0; j < PROCURA_QUANTILES_GRID; j++)
    keys[nkeys++] = (gint64) (j * (n - 1) / (PROCURA_QUANTILES_GRID - 1));
  if (first_positive > 0 && first_positive < n)
    keys[nkeys++] = (gint64) first_positive;
  for (gsize i = 0; i < nkeys; i++)
    g_hash_table_add (expected, &keys[i]);
  g_assert_cmpuint (selected->k, ==, g_hash_table_size (expected));
  for (gsize j = 0; j < selected->k; j++)
    {
      gint64 r = (gint64) selected->ranks[j];

      g_assert_true (g_hash_table_contains (expected, &r));
    }
}

static const gsize sizes[] = {
  PROCURA_QUANTILES_GRID - 1, PROCURA_QUANTILES_GRID, PROCURA_QUANTILES_GRID + 1,
  PROCURA_QUANTILES_GRID + 2, 3 * PROCURA_QUANTILES_GRID + 7, 200003,
  1200001,   /* the counting pass of procura_stats_select_ranks () */
};

static void
run_draw (Draw draw)
{
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    check_case (draw, sizes[i], 17 + i);
}

static void
test_random (void)
{
  run_draw (draw_random);
}

static void
test_heavy_tail (void)
{
  run_draw (draw_heavy_tail);
}

static void
test_ties (void)
{
  run_draw (draw_ties);
}

static void
test_signed (void)
{
  run_draw (draw_signed);
}

static void
test_bits (void)
{
  run_draw (draw_bits);
}

/* @v sorted, in a copy, each zero as +0.0: what a selection puts at a rank (the sort of
 * 128 values or more gives a zero as +0.0 too) */
static double *
sorted_copy (const double *v,
             gsize         n)
{
  double *sorted = g_memdup2 (v, n * sizeof (double));

  procura_stats_sort (sorted, n);
  for (gsize i = 0; i < n; i++)
    if (sorted[i] == 0)
      sorted[i] = 0.0;
  return sorted;
}

/* procura_stats_select_ranks () on its own: random rank sets, both paths, against a sort */
static void
test_select_ranks (void)
{
  static const gsize ns[] = { 1, 2, 33, 1000, 100000, 1500000 };
  static const Draw draws[] = { draw_random, draw_heavy_tail, draw_ties, draw_signed, draw_bits };
  g_autoptr (GRand) rand = g_rand_new_with_seed (99);

  for (guint a = 0; a < G_N_ELEMENTS (ns); a++)
    for (guint d = 0; d < G_N_ELEMENTS (draws); d++)
      {
        gsize n = ns[a], nk = 0;
        g_autofree double *v = g_new (double, n);
        g_autofree double *sorted = NULL;
        g_autofree gsize *ks = g_new (gsize, n);
        double share = g_rand_double_range (rand, 0.0, 0.01);

        for (gsize i = 0; i < n; i++)
          v[i] = draws[d] (rand);
        sorted = sorted_copy (v, n);
        /* the ends, then a random share of the ranks */
        for (gsize i = 0; i < n; i++)
          if (i == 0 || i == n - 1 || g_rand_double (rand) < share)
            ks[nk++] = i;
        procura_stats_select_ranks (v, n, ks, nk);
        for (gsize i = 0; i < nk; i++)
          if (!same_bits (v[ks[i]], sorted[ks[i]]))
            g_error ("n %" G_GSIZE_FORMAT ", rank %" G_GSIZE_FORMAT ": %a selected, %a sorted",
                     n, ks[i], v[ks[i]], sorted[ks[i]]);
      }
}

/* procura_quantiles_new_select (): the summary procura_quantiles_new () gives, bit for
 * bit, and the caller's extra ranks in place as a sort puts them (what the import's
 * percentiles read after the one selection pass) */
static void
test_with_extra_ranks (void)
{
  static const Draw draws[] = { draw_random, draw_heavy_tail, draw_ties, draw_signed, draw_bits };
  g_autoptr (GRand) rand = g_rand_new_with_seed (4242);

  for (guint a = 0; a < G_N_ELEMENTS (sizes); a++)
    for (guint d = 0; d < G_N_ELEMENTS (draws); d++)
      {
        gsize n = sizes[a], nk = 0;
        g_autofree double *v = g_new (double, n);
        g_autofree double *sorted = NULL;
        g_autofree gsize *ks = g_new (gsize, 40);
        g_autoptr (ProcuraQuantiles) expected = NULL;
        g_autoptr (ProcuraQuantiles) got = NULL;

        for (gsize i = 0; i < n; i++)
          v[i] = draws[d] (rand);
        expected = procura_quantiles_new ("ttft", v, n);
        sorted = sorted_copy (v, n);
        /* the ends, ranks next to the grid's and random ones, ascending and distinct */
        ks[nk++] = 0;
        for (gsize i = 0; i < 36; i++)
          {
            gsize r = i % 3 == 0 ? (gsize) ((i * (guint64) (n - 1)) / 36) + 1
                                 : (gsize) g_rand_int_range (rand, 0, (gint32) MIN (n, G_MAXINT32));
            ks[nk++] = MIN (r, n - 1);
          }
        ks[nk++] = n - 1;
        for (gsize i = 1; i < nk; i++)   /* insertion sort, then drop repeats */
          for (gsize j = i; j > 0 && ks[j - 1] > ks[j]; j--)
            {
              gsize t = ks[j];
              ks[j] = ks[j - 1];
              ks[j - 1] = t;
            }
        {
          gsize u = 0;
          for (gsize i = 0; i < nk; i++)
            if (u == 0 || ks[i] != ks[u - 1])
              ks[u++] = ks[i];
          nk = u;
        }
        got = procura_quantiles_new_select ("ttft", v, n, ks, nk);
        g_assert_nonnull (got);
        g_assert_true (procura_quantiles_valid (got));
        g_assert_cmpuint (got->n, ==, expected->n);
        g_assert_cmpuint (got->k, ==, expected->k);
        for (gsize j = 0; j < got->k; j++)
          {
            g_assert_cmpuint (got->ranks[j], ==, expected->ranks[j]);
            g_assert_true (same_bits (got->values[j], expected->values[j]));
          }
        for (gsize i = 0; i < nk; i++)
          if (!same_bits (v[ks[i]], sorted[ks[i]]))
            g_error ("n %" G_GSIZE_FORMAT ", extra rank %" G_GSIZE_FORMAT ": %a selected, %a sorted",
                     n, ks[i], v[ks[i]], sorted[ks[i]]);
      }
}

static void
check_dense (Draw      draw,
             gsize     n,
             gboolean  with_nan,
             GRand    *rand)
{
  g_autofree double *v = g_new (double, n);
  g_autofree double *sorted = NULL;
  g_autofree gsize *ks = g_new (gsize, n);
  gsize nk = 0;

  for (gsize i = 0; i < n; i++)
    v[i] = draw (rand);
  if (with_nan)
    for (int i = 0; i < 5; i++)
      v[g_rand_int_range (rand, 0, (gint32) n)] = NAN;
  sorted = g_memdup2 (v, n * sizeof (double));
  procura_stats_sort (sorted, n);
  for (gsize i = 0; i < n; i++)
    if (i == 0 || i == n - 1 || g_rand_double (rand) < 0.3)
      ks[nk++] = i;
  g_assert_cmpuint (nk, >, n / 64);
  procura_stats_select_ranks (v, n, ks, nk);
  for (gsize i = 0; i < nk; i++)
    if (!(isnan (sorted[ks[i]]) ? isnan (v[ks[i]]) : same_bits (v[ks[i]], sorted[ks[i]])))
      g_error ("n %" G_GSIZE_FORMAT ", NaN %d, rank %" G_GSIZE_FORMAT ": %a selected, %a sorted",
               n, with_nan, ks[i], v[ks[i]], sorted[ks[i]]);
}

/* Most ranks: of fewer than a million values (a sort), of more (the bucket pass, each
 * bucket sorted on its own), and the same with NaNs among the values (which the bucket
 * pass leaves to the sort: NaNs last), against a sort */
static void
test_select_ranks_dense (void)
{
  static const gsize ns[] = { 65536, 300007 };
  static const Draw draws[] = { draw_random, draw_heavy_tail, draw_ties, draw_signed, draw_bits };
  g_autoptr (GRand) rand = g_rand_new_with_seed (2026);

  for (guint a = 0; a < G_N_ELEMENTS (ns); a++)
    for (guint d = 0; d < G_N_ELEMENTS (draws); d++)
      for (int with_nan = 0; with_nan < 2; with_nan++)
        check_dense (draws[d], ns[a], with_nan, rand);
  /* the bucket pass: once with values, once with NaNs (enough under the sanitizers) */
  check_dense (draw_random, 1000003, FALSE, rand);
  check_dense (draw_ties, 1000003, TRUE, rand);
}

/* Tens of millions of values and a summary's worth of ranks: the bucket pass with more
 * buckets (2^22 from 16 M values), against a sort */
static void
test_select_ranks_huge (void)
{
  static const Draw draws[] = { draw_heavy_tail, draw_random };
  g_autoptr (GRand) rand = g_rand_new_with_seed (4242);
  gsize n = ((gsize) 1 << 24) + 3;

  for (guint d = 0; d < G_N_ELEMENTS (draws); d++)
    {
      g_autofree double *v = g_new (double, n);
      g_autofree double *sorted = NULL;
      g_autofree gsize *ks = g_new (gsize, 65537);
      gsize nk = 0;

      for (gsize i = 0; i < n; i++)
        v[i] = draws[d] (rand);
      sorted = g_memdup2 (v, n * sizeof (double));
      procura_stats_sort (sorted, n);
      for (gsize i = 0; i <= 65536; i++)
        {
          gsize k = (gsize) ((double) (n - 1) * (double) i / 65536.0);
          if (nk == 0 || ks[nk - 1] != k)
            ks[nk++] = k;
        }
      procura_stats_select_ranks (v, n, ks, nk);
      for (gsize i = 0; i < nk; i++)
        if (!same_bits (v[ks[i]], sorted[ks[i]]))
          g_error ("draw %u, rank %" G_GSIZE_FORMAT ": %a selected, %a sorted", d, ks[i],
                   v[ks[i]], sorted[ks[i]]);
    }
}

/* Fewer than a million values and a statistics' worth of ranks (the import's 22): the
 * bucket pass with fewer buckets, in place and without moving the values, against a
 * sort; at the threshold's edges, and declined (nothing touched) where the ranks are
 * denser than one in 1,024 */
static void
test_select_ranks_sparse (void)
{
  static const gsize ns[] = { PROCURA_STATS_SPARSE_PASS_MIN - 1, PROCURA_STATS_SPARSE_PASS_MIN,
                              70001, 251028, PROCURA_STATS_BUCKET_PASS_MIN - 1 };
  static const Draw draws[] = { draw_latency, draw_heavy_tail, draw_random, draw_ties, draw_signed, draw_bits };
  g_autoptr (GRand) rand = g_rand_new_with_seed (31);
  guint into = 0;

  for (guint a = 0; a < G_N_ELEMENTS (ns); a++)
    for (guint d = 0; d < G_N_ELEMENTS (draws); d++)
      {
        gsize n = ns[a], nk = 0;
        g_autofree double *v = g_new (double, n);
        g_autofree double *before = NULL;
        g_autofree double *sorted = NULL;
        g_autofree gsize *ks = g_new (gsize, n / 1024 + 64);
        g_autofree double *out = NULL;
        gsize want = d % 2 == 0 ? 22 : n / 1024;   /* a few, or as many as it takes */
        gboolean done;

        for (gsize i = 0; i < n; i++)
          v[i] = draws[d] (rand);
        before = g_memdup2 (v, n * sizeof (double));
        sorted = sorted_copy (v, n);
        /* the ends and ranks spread between them, ascending and distinct */
        ks[nk++] = 0;
        for (gsize i = 1; i + 1 < want; i++)
          {
            gsize k = (gsize) ((double) (n - 1) * (double) i / (double) (want - 1))
                      + (gsize) g_rand_int_range (rand, 0, 3);
            if (k > ks[nk - 1] && k < n - 1)
              ks[nk++] = k;
          }
        ks[nk++] = n - 1;
        g_assert_cmpuint (nk, <=, n / 1024);

        out = g_new (double, nk);
        done = procura_stats_select_ranks_into (v, n, ks, nk, out);
        g_assert_cmpmem (v, n * sizeof (double), before, n * sizeof (double));
        if (n < PROCURA_STATS_SPARSE_PASS_MIN)
          g_assert_false (done);
        else if (draws[d] == draw_latency || draws[d] == draw_heavy_tail)
          g_assert_true (done);   /* positive values spread over many buckets */
        if (done)
          {
            into++;
            for (gsize i = 0; i < nk; i++)
              if (!same_bits (out[i], sorted[ks[i]]))
                g_error ("n %" G_GSIZE_FORMAT ", draw %u, rank %" G_GSIZE_FORMAT ": %a into, %a sorted",
                         n, d, ks[i], out[i], sorted[ks[i]]);
          }

        procura_stats_select_ranks (v, n, ks, nk);
        for (gsize i = 0; i < nk; i++)
          if (!same_bits (v[ks[i]], sorted[ks[i]]))
            g_error ("n %" G_GSIZE_FORMAT ", draw %u, rank %" G_GSIZE_FORMAT ": %a selected, %a sorted",
                     n, d, ks[i], v[ks[i]], sorted[ks[i]]);

        /* one rank more than one in 1,024: the values would move, so nothing is done */
        if (n >= PROCURA_STATS_SPARSE_PASS_MIN)
          {
            gsize dense = n / 1024 + 1;
            g_autofree gsize *dk = g_new (gsize, dense);
            g_autofree double *dout = g_new (double, dense);

            memcpy (v, before, n * sizeof (double));
            for (gsize i = 0; i < dense; i++)
              dk[i] = i * (n / dense);
            g_assert_false (procura_stats_select_ranks_into (v, n, dk, dense, dout));
            g_assert_cmpmem (v, n * sizeof (double), before, n * sizeof (double));
          }
      }
  g_test_message ("%u selections without moving the values", into);
  g_assert_cmpuint (into, >=, 8);
}

/* Selecting without moving the values: the order statistics and the summary a
 * selection in place gives, bit for bit, the values left as they were; FALSE or NULL
 * (nothing done) where the values would have to move */
static void
test_select_into (void)
{
  static const Draw draws[] = { draw_latency, draw_heavy_tail, draw_random, draw_ties, draw_signed };
  g_autoptr (GRand) rand = g_rand_new_with_seed (77);
  gsize n = 1200007;
  guint done = 0, summaries = 0;

  for (guint d = 0; d < G_N_ELEMENTS (draws); d++)
    {
      g_autofree double *v = g_new (double, n);
      g_autofree double *before = NULL;
      g_autofree double *moved = NULL;
      g_autofree double *out = NULL;
      g_autofree gsize *ks = g_new (gsize, n);
      g_autofree double *extra_out = NULL;
      gsize nk = 0;

      for (gsize i = 0; i < n; i++)
        v[i] = draws[d] (rand);
      before = g_memdup2 (v, n * sizeof (double));
      /* a summary's worth of ranks, the ends included */
      for (gsize i = 0; i < n; i++)
        if (i == 0 || i == n - 1 || g_rand_int_range (rand, 0, 20) == 0)
          ks[nk++] = i;
      out = g_new (double, nk);
      if (!procura_stats_select_ranks_into (v, n, ks, nk, out))
        {
          /* values of both signs, or many ties: few buckets hold them all; the
           * caller then selects in a copy */
          g_assert_cmpmem (v, n * sizeof (double), before, n * sizeof (double));
          g_assert_cmpuint (d, >=, 2);   /* latencies and heavy tails are read in place */
          continue;
        }
      done++;
      g_assert_cmpmem (v, n * sizeof (double), before, n * sizeof (double));
      moved = g_memdup2 (v, n * sizeof (double));
      procura_stats_select_ranks (moved, n, ks, nk);
      for (gsize i = 0; i < nk; i++)
        if (!same_bits (out[i], moved[ks[i]]))
          g_error ("draw %u, rank %" G_GSIZE_FORMAT ": %a into, %a in place", d, ks[i], out[i], moved[ks[i]]);

      /* the summary and a few extra ranks */
      {
        gsize extra[] = { 0, 12, n / 2, n / 2 + 1, n - 2, n - 1 };
        double in_place_extra[G_N_ELEMENTS (extra)];
        g_autoptr (ProcuraQuantiles) a = NULL;
        g_autoptr (ProcuraQuantiles) b = NULL;

        extra_out = g_new (double, G_N_ELEMENTS (extra));
        a = procura_quantiles_new_select_into ("itl", v, n, extra, G_N_ELEMENTS (extra), extra_out);
        g_assert_cmpmem (v, n * sizeof (double), before, n * sizeof (double));
        if (a == NULL)
          {
            /* a summary's ranks are denser: the heavy tail's values crowd into a few
             * buckets, most of them wanted */
            g_assert_cmpuint (d, >=, 1);
            continue;
          }
        summaries++;
        memcpy (moved, before, n * sizeof (double));
        b = procura_quantiles_new_select ("itl", moved, n, extra, G_N_ELEMENTS (extra));
        for (gsize i = 0; i < G_N_ELEMENTS (extra); i++)
          in_place_extra[i] = moved[extra[i]];
        g_assert_cmpuint (a->n, ==, b->n);
        g_assert_cmpuint (a->k, ==, b->k);
        g_assert_cmpmem (a->ranks, a->k * sizeof (guint64), b->ranks, b->k * sizeof (guint64));
        g_assert_cmpmem (a->values, a->k * sizeof (double), b->values, b->k * sizeof (double));
        g_assert_cmpmem (extra_out, sizeof in_place_extra, in_place_extra, sizeof in_place_extra);
      }
    }

  g_test_message ("%u of %u draws selected in place, %u summaries", done,
                  (guint) G_N_ELEMENTS (draws), summaries);
  g_assert_cmpuint (done, >=, 2);
  g_assert_cmpuint (summaries, >=, 1);

  /* where the values would move: nothing done, nothing touched */
  {
    gsize small = 5000, dense = 0;
    g_autofree double *v = g_new (double, n);
    g_autofree double *before = NULL;
    g_autofree gsize *ks = g_new (gsize, n);
    g_autofree double *out = g_new (double, n);
    gsize two[] = { 0, 1 };

    for (gsize i = 0; i < n; i++)
      v[i] = draw_random (rand);
    before = g_memdup2 (v, n * sizeof (double));
    g_assert_false (procura_stats_select_ranks_into (v, small, two, 2, out));   /* too few */
    for (gsize i = 0; i < n; i++)
      if (i % 2 == 0 || i == n - 1)
        ks[dense++] = i;
    g_assert_false (procura_stats_select_ranks_into (v, n, ks, dense, out));    /* dense */
    g_assert_cmpmem (v, n * sizeof (double), before, n * sizeof (double));
    v[n / 3] = NAN;
    g_assert_false (procura_stats_select_ranks_into (v, n, two, 2, out));       /* a NaN */
    g_assert_null (procura_quantiles_new_select_into ("itl", v, small, NULL, 0, NULL));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/quantiles-select/random", test_random);
  g_test_add_func ("/quantiles-select/heavy-tail", test_heavy_tail);
  g_test_add_func ("/quantiles-select/ties", test_ties);
  g_test_add_func ("/quantiles-select/signed-zeros", test_signed);
  g_test_add_func ("/quantiles-select/any-finite-bits", test_bits);
  g_test_add_func ("/quantiles-select/select-ranks", test_select_ranks);
  g_test_add_func ("/quantiles-select/with-extra-ranks", test_with_extra_ranks);
  g_test_add_func ("/quantiles-select/select-ranks-dense", test_select_ranks_dense);
  g_test_add_func ("/quantiles-select/select-ranks-huge", test_select_ranks_huge);
  g_test_add_func ("/quantiles-select/select-ranks-sparse", test_select_ranks_sparse);
  g_test_add_func ("/quantiles-select/select-into", test_select_into);
  return g_test_run ();
}
