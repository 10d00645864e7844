/* procura-stats.h: percentiles, means, bootstrap confidence intervals, interpolation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sorts ascending in place. NaN values go last. */
void    procura_stats_sort        (double       *values,
                                   gsize         n);

/* Percentile of an ASCENDING-SORTED array, numpy's default "linear" method:
 * h = (n-1)q, x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
 * q is a fraction in 0..1 (clamped). NAN when n == 0 or sorted == NULL. */
double  procura_stats_percentile  (const double *sorted,
                                   gsize         n,
                                   double        q);
/* The two ranks procura_stats_percentile () reads of @n > 0 sorted values for @q (not
 * NaN): *lo and *hi (the same rank, or the next), and *t, the weight of *hi; and the
 * figure it makes of their values. Selecting just those ranks gives the same figure,
 * bit for bit. */
void    procura_stats_percentile_ranks (gsize   n,
                                        double  q,
                                        gsize  *lo,
                                        gsize  *hi,
                                        double *t);
double  procura_stats_percentile_mix   (double  a,
                                        double  b,
                                        double  t);

/* Percentile of an unsorted array: copies, sorts, then as above. */
double  procura_stats_percentile_unsorted (const double *values,
                                           gsize         n,
                                           double        q);

/* Arithmetic mean; NAN when n == 0. */
double  procura_stats_mean        (const double *values,
                                   gsize         n);

/* POPULATION standard deviation (divides by n, numpy's np.std default, ddof=0);
 * NAN when n == 0, 0 when n == 1. */
double  procura_stats_std         (const double *values,
                                   gsize         n);

/* SAMPLE standard deviation (divides by n - 1, ddof=1); NAN when n < 2. */
double  procura_stats_std_sample  (const double *values,
                                   gsize         n);

/* Linear interpolation: y at x on the line through (x0,y0) and (x1,y1).
 * Returns y0 when x0 == x1. */
double  procura_stats_lerp        (double x0,
                                   double y0,
                                   double x1,
                                   double y1,
                                   double x);

/* Piecewise linear interpolation over points with ascending xs; clamps outside. */
double  procura_stats_interp      (const double *xs,
                                   const double *ys,
                                   gsize         n,
                                   double        x);

/* Seeded PRNG: splitmix64 (Steele, Lea, Flood 2014). Same seed, same stream on
 * every platform, so bootstrap intervals are repeatable. */
typedef struct
{
  guint64  state;
  double   spare;       /* the second normal variate of the last pair */
  gboolean has_spare;
} ProcuraRng;

void    procura_rng_init          (ProcuraRng *rng,
                                   guint64     seed);
guint64 procura_rng_next          (ProcuraRng *rng);
/* Uniform integer in [0, bound), bound > 0 (rejection of the top remainder: unbiased). */
guint64 procura_rng_below         (ProcuraRng *rng,
                                   guint64     bound);

/* Default seed of the analysis' bootstrap. */
#define PROCURA_STATS_DEFAULT_SEED G_GUINT64_CONSTANT (0x5EED5EED2026)
/* Default number of bootstrap resamples. */
#define PROCURA_STATS_DEFAULT_RESAMPLES 1000

/* Percentile bootstrap confidence interval of the q-percentile of values
 * (need not be sorted). `resamples` resamples with replacement of size n,
 * each's percentile (numpy linear) computed; the interval is the
 * (1-level)/2 and (1+level)/2 percentiles (numpy linear) of those estimates.
 * level e.g. 0.95. Repeatable for a seed. Returns FALSE (lo = hi = NAN)
 * when n == 0 or resamples == 0. With n == 1 the interval is [x, x].
 *
 * Each resample is drawn exactly but in O(1): the two order statistics the
 * percentile needs are sampled from their joint distribution (Beta order
 * statistics of uniforms, see procura-stats.c), which is the distribution a
 * plain resample-and-sort would give. The values are sorted once. */
gboolean procura_stats_bootstrap_ci (const double *values,
                                     gsize         n,
                                     double        q,
                                     double        level,
                                     guint         resamples,
                                     guint64       seed,
                                     double       *lo,
                                     double       *hi);

/* The @resamples bootstrap estimates themselves (unsorted, in draw order) of the
 * q-percentile of @sorted (ascending), written to @out; for distribution plots and
 * tests. FALSE when n == 0. */
gboolean procura_stats_bootstrap_estimates (const double *sorted,
                                            gsize         n,
                                            double        q,
                                            guint         resamples,
                                            guint64       seed,
                                            double       *out);

/* The same on values already sorted ascending (no copy, no sort). */
gboolean procura_stats_bootstrap_ci_sorted (const double *sorted,
                                            gsize         n,
                                            double        q,
                                            double        level,
                                            guint         resamples,
                                            guint64       seed,
                                            double       *lo,
                                            double       *hi);

/* Reorders @values (finite, unsorted) so that values[k] holds the k-th smallest, those
 * before it are <= and those after it >= (quickselect, O(n) on average). */
void     procura_stats_select (double *values,
                               gsize   n,
                               gsize   k);

/* Puts the order statistics of ranks @ks (@nk of them, strictly ascending, each < @n) of
 * @values (NaN-free, any order) at those positions: values[ks[i]] is then what a full
 * procura_stats_sort () would put there, bit for bit (a zero reads as +0.0, as the sort
 * of 128 values or more gives it). The other positions are left in no particular
 * order. O(n) for millions of values (one counting pass over buckets of the values'
 * order, then only the buckets that hold a wanted rank are searched or sorted),
 * O(n log nk) for a few ranks, a sort when they are dense. */
void     procura_stats_select_ranks (double      *values,
                                     gsize        n,
                                     const gsize *ks,
                                     gsize        nk);
/* From this many values procura_stats_select_ranks () takes its bucket pass (fewer:
 * a partition tree or a sort), and only then can procura_stats_select_ranks_into () work;
 * for a few ranks (one in 1,024 of the values or fewer) from SPARSE_PASS_MIN values. */
#define PROCURA_STATS_BUCKET_PASS_MIN 1000000
#define PROCURA_STATS_SPARSE_PASS_MIN 32768

/* The same order statistics without moving anything: out[i] is what
 * procura_stats_select_ranks () puts at values[ks[i]], and @values stay as they are.
 * FALSE (nothing done) where that needs the values moved, in a copy of the caller's:
 * fewer than a million values (fewer than PROCURA_STATS_SPARSE_PASS_MIN where the ranks
 * are one in 1,024 or sparser), a NaN among them, or ranks so dense that most values
 * are near one. */
gboolean procura_stats_select_ranks_into (const double *values,
                                          gsize         n,
                                          const gsize  *ks,
                                          gsize         nk,
                                          double       *out);

/* The q-percentile (numpy linear) of finite, UNSORTED @values, which it reorders, and
 * (when @lo / @hi are not NULL and resamples > 0) its bootstrap interval: the same
 * figures as procura_stats_percentile () and procura_stats_bootstrap_ci () on the
 * sorted values, seed for seed, but without sorting everything: only a window of ranks
 * around the percentile is selected and sorted (a whole sort happens only when a
 * resample reaches outside the window, which the window's width makes rare). NAN for
 * n == 0. */
double   procura_stats_percentile_ci (double  *values,
                                      gsize    n,
                                      double   q,
                                      double   level,
                                      guint    resamples,
                                      guint64  seed,
                                      double  *lo,
                                      double  *hi);

G_END_DECLS
