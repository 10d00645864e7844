/* procura-stats.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-stats.h"
#include "procura-util.h"

/* ---- sorting ------------------------------------------------------------ */

/* Maps a double to an unsigned key whose unsigned order is the numeric order;
 * every NaN maps to the largest key so that NaNs go last. */
static inline guint64
double_to_key (double v)
{
  guint64 u;

  if (isnan (v))
    return G_MAXUINT64;
  if (v == 0.0)
    v = 0.0;                    /* -0.0 and +0.0 are equal */
  memcpy (&u, &v, sizeof u);
  if (u & G_GUINT64_CONSTANT (0x8000000000000000))
    return ~u;
  return u | G_GUINT64_CONSTANT (0x8000000000000000);
}

static inline double
key_to_double (guint64 k)
{
  guint64 u;
  double v;

  if (k == G_MAXUINT64)
    return NAN;
  if (k & G_GUINT64_CONSTANT (0x8000000000000000))
    u = k & ~G_GUINT64_CONSTANT (0x8000000000000000);
  else
    u = ~k;
  memcpy (&v, &u, sizeof v);
  return v;
}

static void
insertion_sort (double *v,
                gsize   n)
{
  for (gsize i = 1; i < n; i++)
    {
      double x = v[i];
      guint64 kx = double_to_key (x);
      gsize j = i;

      while (j > 0 && double_to_key (v[j - 1]) > kx)
        {
          v[j] = v[j - 1];
          j--;
        }
      v[j] = x;
    }
}

#define RADIX_BITS 11
#define RADIX_SIZE (1u << RADIX_BITS)
#define RADIX_PASSES 6          /* 6 × 11 = 66 ≥ 64 bits */

/* The keys are kept in the values' own storage during the sort: one array of n keys
 * to allocate instead of two (a 250,000-value sort's page faults halved). */
typedef guint64 __attribute__ ((__may_alias__)) KeyWord;

static void radix_sort (double *values,
                        gsize   n);

/* From this many values the two halves are sorted on two threads and merged: each half
 * a radix sort in its own core's cache (251,028 inter-token gaps: 6.5 -> 4 ms) */
#define SORT_SPLIT_MIN 200000

static gpointer
sort_second_half (gpointer data)
{
  double **half = data;

  radix_sort (half[0], (gsize) (half[1] - half[0]));
  return NULL;
}

static gboolean
sort_in_halves (double *values,
                gsize   n)
{
  gsize h = n / 2, i = 0, j = h, o = 0;
  double *second[2] = { values + h, values + n };
  g_autofree double *out = NULL;
  GThread *t = g_thread_try_new ("procura-sort", sort_second_half, second, NULL);

  if (t == NULL)
    return FALSE;
  radix_sort (values, h);
  g_thread_join (t);
  /* after both sorts have freed their key arrays: no more memory at once than one sort
   * of all the values takes */
  out = procura_memory_alloc_large (n * sizeof (double));
  /* by key, the first half first among equal keys (values of equal keys are equal
   * bit for bit, the sort's NaN included): what one sort of all of them gives */
  while (i < h && j < n)
    {
      if (double_to_key (values[j]) < double_to_key (values[i]))
        out[o++] = values[j++];
      else
        out[o++] = values[i++];
    }
  while (i < h)
    out[o++] = values[i++];
  while (j < n)
    out[o++] = values[j++];
  memcpy (values, out, n * sizeof (double));
  return TRUE;
}

void
procura_stats_sort (double *values,
                    gsize   n)
{
  if (values == NULL || n < 2)
    return;
  if (n < 128)
    {
      insertion_sort (values, n);
      return;
    }
  if (n >= SORT_SPLIT_MIN && sort_in_halves (values, n))
    return;
  radix_sort (values, n);
}

static void
radix_sort (double *values,
            gsize   n)
{
  KeyWord *a, *b, *own;
  gsize *count;

  /* LSD radix sort on the order-preserving keys: O(n), stable, no comparisons. */
  a = (KeyWord *) (void *) values;
  b = own = procura_memory_alloc_large (n * sizeof (KeyWord));
  count = g_new0 (gsize, RADIX_SIZE * RADIX_PASSES);

  for (gsize i = 0; i < n; i++)
    {
      guint64 k = double_to_key (values[i]);
      a[i] = k;
      for (guint p = 0; p < RADIX_PASSES; p++)
        count[p * RADIX_SIZE + ((k >> (p * RADIX_BITS)) & (RADIX_SIZE - 1))]++;
    }

  for (guint p = 0; p < RADIX_PASSES; p++)
    {
      gsize *c = count + p * RADIX_SIZE;
      gsize sum = 0;
      guint shift = p * RADIX_BITS;
      KeyWord *tmp;
      gboolean trivial = FALSE;

      for (guint d = 0; d < RADIX_SIZE; d++)
        {
          if (c[d] == n)
            {
              trivial = TRUE;   /* every key has the same digit: skip the pass */
              break;
            }
          if (c[d] != 0)
            break;
        }
      if (trivial)
        continue;

      for (guint d = 0; d < RADIX_SIZE; d++)
        {
          gsize t = c[d];
          c[d] = sum;
          sum += t;
        }
      for (gsize i = 0; i < n; i++)
        b[c[(a[i] >> shift) & (RADIX_SIZE - 1)]++] = a[i];
      tmp = a;
      a = b;
      b = tmp;
    }

  /* back to values, from wherever the last pass left the keys */
  for (gsize i = 0; i < n; i++)
    {
      double d = key_to_double (a[i]);
      guint64 u;

      memcpy (&u, &d, sizeof u);
      ((KeyWord *) (void *) values)[i] = u;
    }

  g_free (own);
  g_free (count);
}

/* ---- descriptive statistics --------------------------------------------- */

void
procura_stats_percentile_ranks (gsize   n,
                                double  q,
                                gsize  *lo,
                                gsize  *hi,
                                double *t)
{
  double h, fl;
  gsize i;

  g_return_if_fail (n > 0 && !isnan (q));
  if (q < 0.0)
    q = 0.0;
  if (q > 1.0)
    q = 1.0;
  h = (double) (n - 1) * q;
  fl = floor (h);
  i = (gsize) fl;
  if (i >= n - 1)
    {
      *lo = *hi = n - 1;
      *t = 0.0;
    }
  else if (h == fl)
    {
      *lo = *hi = i;
      *t = 0.0;
    }
  else
    {
      *lo = i;
      *hi = i + 1;
      *t = h - fl;
    }
}

double
procura_stats_percentile_mix (double a,
                              double b,
                              double t)
{
  /* numpy's _lerp: a + t (b - a), and b - (b - a)(1 - t) when t >= 0.5 */
  if (t == 0.0)
    return a;
  return t >= 0.5 ? b - (b - a) * (1.0 - t) : a + (b - a) * t;
}

double
procura_stats_percentile (const double *sorted,
                          gsize         n,
                          double        q)
{
  gsize lo, hi;
  double t;

  if (sorted == NULL || n == 0 || isnan (q))
    return NAN;
  procura_stats_percentile_ranks (n, q, &lo, &hi, &t);
  return procura_stats_percentile_mix (sorted[lo], sorted[hi], t);
}

double
procura_stats_percentile_unsorted (const double *values,
                                   gsize         n,
                                   double        q)
{
  double *copy, r;

  if (values == NULL || n == 0)
    return NAN;
  copy = g_memdup2 (values, n * sizeof (double));
  procura_stats_sort (copy, n);
  r = procura_stats_percentile (copy, n, q);
  g_free (copy);
  return r;
}

double
procura_stats_mean (const double *values,
                    gsize         n)
{
  double sum = 0.0;

  if (values == NULL || n == 0)
    return NAN;
  for (gsize i = 0; i < n; i++)
    sum += values[i];
  return sum / (double) n;
}

static double
sum_sq_dev (const double *values,
            gsize         n)
{
  double m = procura_stats_mean (values, n), ss = 0.0;

  for (gsize i = 0; i < n; i++)
    ss += (values[i] - m) * (values[i] - m);
  return ss;
}

double
procura_stats_std (const double *values,
                   gsize         n)
{
  if (values == NULL || n == 0)
    return NAN;
  return sqrt (sum_sq_dev (values, n) / (double) n);
}

double
procura_stats_std_sample (const double *values,
                          gsize         n)
{
  if (values == NULL || n < 2)
    return NAN;
  return sqrt (sum_sq_dev (values, n) / (double) (n - 1));
}

double
procura_stats_lerp (double x0,
                    double y0,
                    double x1,
                    double y1,
                    double x)
{
  if (x1 == x0)
    return y0;
  return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

double
procura_stats_interp (const double *xs,
                      const double *ys,
                      gsize         n,
                      double        x)
{
  if (xs == NULL || ys == NULL || n == 0)
    return NAN;
  if (x <= xs[0])
    return ys[0];
  if (x >= xs[n - 1])
    return ys[n - 1];
  for (gsize i = 1; i < n; i++)
    if (x <= xs[i])
      return procura_stats_lerp (xs[i - 1], ys[i - 1], xs[i], ys[i], x);
  return ys[n - 1];
}

/* ---- PRNG --------------------------------------------------------------- */

void
procura_rng_init (ProcuraRng *rng,
                  guint64     seed)
{
  rng->state = seed;
  rng->spare = 0;
  rng->has_spare = FALSE;
}

guint64
procura_rng_next (ProcuraRng *rng)
{
  guint64 z = (rng->state += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

guint64
procura_rng_below (ProcuraRng *rng,
                   guint64     bound)
{
  /* Rejection on the top of the range: unbiased and portable (no 128-bit). */
  guint64 limit, r;

  if (bound <= 1)
    return 0;
  limit = G_MAXUINT64 - (G_MAXUINT64 % bound);
  do
    r = procura_rng_next (rng);
  while (r >= limit);
  return r % bound;
}

/* Uniform in the open interval (0, 1) with 53 random bits. */
static double
rng_uniform (ProcuraRng *rng)
{
  return ((double) (procura_rng_next (rng) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

static double
rng_normal (ProcuraRng *rng)
{
  /* Marsaglia's polar method: two variates per accepted pair, the second kept */
  double u, v, s2, f;

  if (rng->has_spare)
    {
      rng->has_spare = FALSE;
      return rng->spare;
    }
  do
    {
      u = 2.0 * rng_uniform (rng) - 1.0;
      v = 2.0 * rng_uniform (rng) - 1.0;
      s2 = u * u + v * v;
    }
  while (s2 >= 1.0 || s2 == 0.0);
  f = sqrt (-2.0 * log (s2) / s2);
  rng->spare = v * f;
  rng->has_spare = TRUE;
  return u * f;
}

/* Gamma(shape, 1) by Marsaglia and Tsang (2000); shape > 0. */
static double
rng_gamma (ProcuraRng *rng,
           double      shape)
{
  double d, c;

  if (shape < 1.0)
    {
      double u = rng_uniform (rng);
      return rng_gamma (rng, shape + 1.0) * pow (u, 1.0 / shape);
    }
  d = shape - 1.0 / 3.0;
  c = 1.0 / sqrt (9.0 * d);
  for (;;)
    {
      double x, v, u;

      do
        {
          x = rng_normal (rng);
          v = 1.0 + c * x;
        }
      while (v <= 0.0);
      v = v * v * v;
      u = rng_uniform (rng);
      if (u < 1.0 - 0.0331 * x * x * x * x)
        return d * v;
      if (log (u) < 0.5 * x * x + d * (1.0 - v + log (v)))
        return d * v;
    }
}

static double
rng_beta (ProcuraRng *rng,
          double      a,
          double      b)
{
  double x = rng_gamma (rng, a), y = rng_gamma (rng, b);
  return x / (x + y);
}


/* ---- bootstrap ---------------------------------------------------------- */

/* One resample of size n with replacement from the sorted values, reduced to
 * its numpy-linear q-percentile, WITHOUT materialising the resample.
 *
 * A resample draws n indices I_j = floor(n U_j) with U_j uniform on (0,1);
 * floor is monotone, so the k-th smallest index is floor(n U_(k)), where
 * U_(k) is the k-th order statistic of n uniforms, distributed Beta(k, n-k+1).
 * Given U_(k) = u, U_(k+1) is the minimum of n-k uniforms on (u,1):
 * u + (1-u)(1 - V^(1/(n-k))). The percentile needs exactly these two order
 * statistics, so each resample costs O(1) and follows the same distribution
 * as a plain resample. */
/* Draws the 0-based ranks of the two order statistics a resample's percentile needs
 * (ib = ia when one suffices) and the interpolation weight t. */
static void
resample_ranks (ProcuraRng *rng,
                gsize       n,
                double      q,
                gsize      *ia,
                gsize      *ib,
                double     *t)
{
  double h = (double) (n - 1) * q, fl = floor (h);
  gsize k = (gsize) fl + 1;     /* 1-based rank of the lower order statistic */
  double uk, uk1;

  *t = h - fl;
  uk = rng_beta (rng, (double) k, (double) (n - k + 1));
  *ia = (gsize) floor (uk * (double) n);
  if (*ia >= n)
    *ia = n - 1;
  *ib = *ia;
  if (*t == 0.0 || k >= n)
    return;
  uk1 = uk + (1.0 - uk) * (1.0 - pow (rng_uniform (rng), 1.0 / (double) (n - k)));
  *ib = (gsize) floor (uk1 * (double) n);
  if (*ib >= n)
    *ib = n - 1;
}

static inline double
lerp_numpy (double a,
            double b,
            double t)
{
  return t >= 0.5 ? b - (b - a) * (1.0 - t) : a + (b - a) * t;
}

/* One resample of size n with replacement from the sorted values, reduced to
 * its numpy-linear q-percentile, WITHOUT materialising the resample.
 *
 * A resample draws n indices I_j = floor(n U_j) with U_j uniform on (0,1);
 * floor is monotone, so the k-th smallest index is floor(n U_(k)), where
 * U_(k) is the k-th order statistic of n uniforms, distributed Beta(k, n-k+1).
 * Given U_(k) = u, U_(k+1) is the minimum of n-k uniforms on (u,1):
 * u + (1-u)(1 - V^(1/(n-k))). The percentile needs exactly these two order
 * statistics, so each resample costs O(1) and follows the same distribution
 * as a plain resample. */
static double
resample_percentile (ProcuraRng   *rng,
                     const double *sorted,
                     gsize         n,
                     double        q)
{
  gsize ia, ib;
  double t;

  resample_ranks (rng, n, q, &ia, &ib, &t);
  if (ia == ib && (t == 0.0))
    return sorted[ia];
  return lerp_numpy (sorted[ia], sorted[ib], t);
}

gboolean
procura_stats_bootstrap_estimates (const double *sorted,
                                   gsize         n,
                                   double        q,
                                   guint         resamples,
                                   guint64       seed,
                                   double       *out)
{
  ProcuraRng rng;

  if (sorted == NULL || n == 0 || out == NULL || isnan (q))
    return FALSE;
  q = CLAMP (q, 0.0, 1.0);
  procura_rng_init (&rng, seed);
  for (guint r = 0; r < resamples; r++)
    out[r] = n == 1 ? sorted[0] : resample_percentile (&rng, sorted, n, q);
  return TRUE;
}

gboolean
procura_stats_bootstrap_ci_sorted (const double *sorted,
                                   gsize         n,
                                   double        q,
                                   double        level,
                                   guint         resamples,
                                   guint64       seed,
                                   double       *lo,
                                   double       *hi)
{
  double *est;

  if (lo != NULL)
    *lo = NAN;
  if (hi != NULL)
    *hi = NAN;
  if (sorted == NULL || n == 0 || resamples == 0 || isnan (q))
    return FALSE;
  q = CLAMP (q, 0.0, 1.0);
  if (isnan (level) || level <= 0.0 || level >= 1.0)
    level = 0.95;

  est = g_new (double, resamples);
  procura_stats_bootstrap_estimates (sorted, n, q, resamples, seed, est);
  procura_stats_sort (est, resamples);

  if (lo != NULL)
    *lo = procura_stats_percentile (est, resamples, (1.0 - level) / 2.0);
  if (hi != NULL)
    *hi = procura_stats_percentile (est, resamples, (1.0 + level) / 2.0);
  g_free (est);
  return TRUE;
}

gboolean
procura_stats_bootstrap_ci (const double *values,
                            gsize         n,
                            double        q,
                            double        level,
                            guint         resamples,
                            guint64       seed,
                            double       *lo,
                            double       *hi)
{
  double *sorted;
  gboolean ok;

  if (values == NULL || n == 0)
    {
      if (lo != NULL)
        *lo = NAN;
      if (hi != NULL)
        *hi = NAN;
      return FALSE;
    }
  sorted = g_memdup2 (values, n * sizeof (double));
  procura_stats_sort (sorted, n);
  ok = procura_stats_bootstrap_ci_sorted (sorted, n, q, level, resamples, seed, lo, hi);
  g_free (sorted);
  return ok;
}

/* ---- selection ------------------------------------------------------------ */

static inline void
swap_d (double *a,
        double *b)
{
  double t = *a;
  *a = *b;
  *b = t;
}

void
procura_stats_select (double *v,
                      gsize   n,
                      gsize   k)
{
  gsize left = 0, right;

  if (v == NULL || n < 2 || k >= n)
    return;
  right = n - 1;
  while (right > left)
    {
      gsize mid = left + (right - left) / 2, i, j;
      double pivot;

      /* median of three to v[left] */
      if (v[mid] < v[left])
        swap_d (&v[mid], &v[left]);
      if (v[right] < v[left])
        swap_d (&v[right], &v[left]);
      if (v[right] < v[mid])
        swap_d (&v[right], &v[mid]);
      swap_d (&v[left], &v[mid]);
      pivot = v[left];

      /* Hoare partition */
      i = left;
      j = right + 1;
      for (;;)
        {
          do
            i++;
          while (i <= right && v[i] < pivot);
          do
            j--;
          while (v[j] > pivot);
          if (i >= j)
            break;
          swap_d (&v[i], &v[j]);
        }
      swap_d (&v[left], &v[j]);
      if (j == k)
        return;
      if (j < k)
        left = j + 1;
      else
        right = j - 1;
    }
}

double
procura_stats_percentile_ci (double  *values,
                             gsize    n,
                             double   q,
                             double   level,
                             guint    resamples,
                             guint64  seed,
                             double  *lo,
                             double  *hi)
{
  double h, t, result, *est = NULL;
  gsize k0, w_lo, w_hi, width;
  gboolean sorted_all = FALSE;
  ProcuraRng rng;

  if (lo != NULL)
    *lo = NAN;
  if (hi != NULL)
    *hi = NAN;
  if (values == NULL || n == 0 || isnan (q))
    return NAN;
  q = CLAMP (q, 0.0, 1.0);
  if (isnan (level) || level <= 0.0 || level >= 1.0)
    level = 0.95;

  h = (double) (n - 1) * q;
  k0 = (gsize) floor (h);
  t = h - floor (h);

  /* the window of ranks: 8 standard deviations of the resampled rank, and more */
  width = (gsize) (8.0 * sqrt ((double) n * q * (1.0 - q)) + 32.0);
  if (n <= 4096 || 4 * width >= n)
    {
      procura_stats_sort (values, n);
      sorted_all = TRUE;
      w_lo = 0;
      w_hi = n - 1;
    }
  else
    {
      w_lo = k0 > width ? k0 - width : 0;
      w_hi = MIN (n - 1, k0 + 1 + width);
      procura_stats_select (values, n, w_lo);
      procura_stats_select (values + w_lo, n - w_lo, w_hi - w_lo);
      procura_stats_sort (values + w_lo, w_hi - w_lo + 1);
    }

  result = k0 + 1 < n && t > 0 ? lerp_numpy (values[k0], values[k0 + 1], t) : values[MIN (k0, n - 1)];

  if ((lo == NULL && hi == NULL) || resamples == 0)
    return result;

  est = g_new (double, resamples);
  procura_rng_init (&rng, seed);
  for (guint r = 0; r < resamples; r++)
    {
      gsize ia, ib;
      double tt;

      if (n == 1)
        {
          est[r] = values[0];
          continue;
        }
      resample_ranks (&rng, n, q, &ia, &ib, &tt);
      if (!sorted_all && (ia < w_lo || ib > w_hi))
        {
          procura_stats_sort (values, n);   /* rare: a resample beyond the window */
          sorted_all = TRUE;
        }
      est[r] = (ia == ib && tt == 0.0) ? values[ia] : lerp_numpy (values[ia], values[ib], tt);
    }
  procura_stats_sort (est, resamples);
  if (lo != NULL)
    *lo = procura_stats_percentile (est, resamples, (1.0 - level) / 2.0);
  if (hi != NULL)
    *hi = procura_stats_percentile (est, resamples, (1.0 + level) / 2.0);
  g_free (est);
  return result;
}

/* ---- multi-rank selection ------------------------------------------------- */

/* Moves the order statistics of ranks @ks (ascending, within [lo, hi)) to their sorted
 * positions, like numpy's np.partition(a, kth) that np.percentile itself uses: O(n log
 * nk) instead of a full sort. Three-way partitions (duplicates are common), median-of-
 * three pivots, and a full sort of the range past a depth limit (introselect), so no
 * input makes it quadratic. */
static void
select_ranks_tree (double      *v,
                   gsize        lo,
                   gsize        hi,
                   const gsize *ks,
                   gsize        nk,
                   int          depth)
{
  while (nk > 0 && hi - lo > 32)
    {
      gsize mid = lo + (hi - lo) / 2, i, j, split = 0;
      double p;

      if (depth-- <= 0)
        {
          procura_stats_sort (v + lo, hi - lo);
          return;
        }
      /* order v[lo] <= v[mid] <= v[hi - 1]: the ends are sentinels for Hoare's scans */
      if (v[mid] < v[lo])
        swap_d (&v[mid], &v[lo]);
      if (v[hi - 1] < v[lo])
        swap_d (&v[hi - 1], &v[lo]);
      if (v[hi - 1] < v[mid])
        swap_d (&v[hi - 1], &v[mid]);
      p = v[mid];
      i = lo;
      j = hi - 1;
      for (;;)
        {
          do
            i++;
          while (v[i] < p);
          do
            j--;
          while (v[j] > p);
          if (i >= j)
            break;
          swap_d (&v[i], &v[j]);
        }
      /* [lo, j] <= p <= [j + 1, hi), both sides non-empty */
      while (split < nk && ks[split] <= j)
        split++;
      if (j + 1 - lo < hi - (j + 1))
        {
          select_ranks_tree (v, lo, j + 1, ks, split, depth);
          lo = j + 1;
          ks += split;
          nk -= split;
        }
      else
        {
          select_ranks_tree (v, j + 1, hi, ks + split, nk - split, depth);
          hi = j + 1;
          nk = split;
        }
    }
  if (nk > 0)
    procura_stats_sort (v + lo, hi - lo);
}

static int
depth_limit (gsize n)
{
  int depth = 2;

  for (gsize m = n; m > 1; m >>= 1)
    depth += 2;
  return depth;
}

/* For many samples: streaming passes instead of a partition tree. Pass 1 finds the
 * values' range of order-preserving 64-bit keys; pass 2 counts values per bucket of up to
 * 2^hist_bits() equal slices of that range (not of the whole key space: latencies share
 * their sign and most of their exponent bits, and fixed top-20-bit buckets put some
 * 23,000 of 25 M inter-token latencies in each, every bucket then holding a rank of a
 * quantile summary); pass 3 puts the buckets that hold a wanted rank where the search
 * reads them, and only those are searched, each for the ranks it holds. The wanted
 * ranks' values are then at their positions in @v (the rest is left as scratch). FALSE
 * when not applicable (fewer values than pays for the passes, or a NaN). */
static guint
hist_bits (gsize n)
{
  /* some 4 to 8 values a bucket at most: fewer buckets than that gather more values
   * around each wanted rank (at 25 M values, 2^20 buckets gathered 7.2 M of them, 2^22
   * 1.8 M: 340 -> 306 ms), more make the counts spill out of the cache (2^22 buckets for
   * 2.5 M values: 46 -> 55 ms); below a million (a few ranks only) some 4 values a
   * bucket, the counts then small enough for the first-level cache */
  guint bits = 20;

  if (n >= ((gsize) 1 << 24))
    return 22;
  if (n >= ((gsize) 1 << 23))
    return 21;
  while (n < PROCURA_STATS_BUCKET_PASS_MIN && bits > 12 && ((gsize) 1 << bits) > n / 4)
    bits--;
  return bits;
}

static inline guint64
order_key (double d)
{
  guint64 u;

  memcpy (&u, &d, sizeof u);
  return (u >> 63) ? ~u : (u | G_GUINT64_CONSTANT (0x8000000000000000));
}

static inline double
order_value (guint64 k)
{
  guint64 u = (k >> 63) ? (k & ~G_GUINT64_CONSTANT (0x8000000000000000)) : ~k;
  double d;

  memcpy (&d, &u, sizeof d);
  return d;
}

/* Sorts one bucket: @c values whose keys less @base share every bit from @shift up. An
 * LSD radix sort on the bytes below, skipping a byte every key shares; its counts live
 * on the stack and its two key arrays (@keys, @tmp: room for @c each) are the caller's,
 * so that a thousand buckets cost no allocation each. */
static void
sort_bucket (double  *v,
             gsize    c,
             guint64  base,
             guint    shift,
             guint64 *keys,
             guint64 *tmp)
{
  guint bytes = (shift + 7) / 8;
  guint32 count[8][256];

  if (c < 64)
    {
      insertion_sort (v, c);
      return;
    }
  memset (count, 0, bytes * sizeof count[0]);
  for (gsize i = 0; i < c; i++)
    {
      guint64 k = order_key (v[i]) - base;

      keys[i] = k;
      for (guint p = 0; p < bytes; p++)
        count[p][(k >> (8 * p)) & 0xff]++;
    }
  for (guint p = 0; p < bytes; p++)
    {
      guint32 sum = 0;
      guint64 *t;

      if (count[p][keys[0] >> (8 * p) & 0xff] == c)
        continue;   /* every key has this byte */
      for (guint d = 0; d < 256; d++)
        {
          guint32 x = count[p][d];

          count[p][d] = sum;
          sum += x;
        }
      for (gsize i = 0; i < c; i++)
        tmp[count[p][(keys[i] >> (8 * p)) & 0xff]++] = keys[i];
      t = keys;
      keys = tmp;
      tmp = t;
    }
  for (gsize i = 0; i < c; i++)
    v[i] = order_value (keys[i] + base);
}

/* The bucket pass splits its passes over the values in two halves, the second on a
 * thread of its own: [0, n/2) and [n/2, n) are counted into counts of their own, and each
 * half gathers its values of a wanted bucket into that bucket's own part of the gather
 * buffer (the first half's values first, so the buffer reads as one pass in order would
 * fill it), then each half of the wanted buckets is searched. Every result is the one a
 * single pass gives, bit for bit. */
typedef struct {
  const double  *v;
  gsize          n;
  gsize          nk;
  guint64        kmin;
  guint          shift;
  /* per half */
  guint64        lo_key[2], hi_key[2];
  gboolean       nan[2];
  guint32       *count[2];
  gsize         *cursor[2];   /* by first wanted rank of a bucket */
  gsize          split;       /* the wanted-rank groups: [0, split) first, [split, nk) second */
  guint64       *keys[2];
  gsize          largest;
  /* shared, read-only in the passes */
  const guint32 *want;
  const guint64 *wanted;      /* a bit a bucket: it holds a wanted rank */
  const gsize   *bucket_of;
  const gsize   *fill;
  const guint32 *total_count;
  gsize         *local;
  double        *buf;
  int            phase;
} Hist;

enum { HIST_RANGE, HIST_COUNT, HIST_GATHER, HIST_SEARCH };

static void
hist_half (Hist *h,
           int   half)
{
  gsize lo = half == 0 ? 0 : h->n / 2, hi = half == 0 ? h->n / 2 : h->n;
  const double *v = h->v;

  switch (h->phase)
    {
    case HIST_RANGE:
      {
        guint64 kmin = G_MAXUINT64, kmax = 0;
        gboolean nan = FALSE;

        for (gsize i = lo; i < hi; i++)
          {
            guint64 k = order_key (v[i]);

            nan |= isnan (v[i]);
            kmin = MIN (kmin, k);
            kmax = MAX (kmax, k);
          }
        h->lo_key[half] = kmin;
        h->hi_key[half] = kmax;
        h->nan[half] = nan;
        break;
      }
    case HIST_COUNT:
      {
        guint32 *count = h->count[half];
        guint64 kmin = h->kmin;
        guint shift = h->shift;

        for (gsize i = lo; i < hi; i++)
          count[(order_key (v[i]) - kmin) >> shift]++;
        break;
      }
    case HIST_GATHER:
      {
        gsize *cursor = h->cursor[half];
        const guint32 *want = h->want;
        double *buf = h->buf;
        guint64 kmin = h->kmin;
        guint shift = h->shift;
        const guint64 *wanted = h->wanted;

        /* the bit map (a bit a bucket) stays in cache where want[] would not */
        for (gsize i = lo; i < hi; i++)
          {
            gsize b = (order_key (v[i]) - kmin) >> shift;

            if (wanted[b / 64] & (G_GUINT64_CONSTANT (1) << (b % 64)))
              buf[cursor[want[b] - 1]++] = v[i];
          }
        break;
      }
    case HIST_SEARCH:
      {
        /* in each gathered bucket, select the ranks it holds (or sort it, when it holds
         * more than a few: a bucket is small enough to sort in cache, faster than
         * partitioning it again and again) */
        gsize first = half == 0 ? 0 : h->split, last = half == 0 ? h->split : h->nk;
        guint64 *keys = h->keys[half];

        for (gsize i = first, e; i < last; i = e)
          {
            gsize c = h->total_count[h->bucket_of[i]];

            for (e = i + 1; e < last && h->bucket_of[e] == h->bucket_of[i]; e++)
              ;
            if (e - i > 4)
              sort_bucket (h->buf + h->fill[i], c, h->kmin, h->shift, keys, keys + h->largest);
            else
              select_ranks_tree (h->buf + h->fill[i], 0, c, h->local + i, e - i, depth_limit (c));
          }
        break;
      }
    default:
      g_assert_not_reached ();
    }
}

static gpointer
hist_second_half (gpointer data)
{
  hist_half (data, 1);
  return NULL;
}

/* Runs the phase on both halves: the second on a thread when one can be had. */
static void
hist_phase (Hist *h,
            int   phase)
{
  GThread *t;

  h->phase = phase;
  t = g_thread_try_new ("procura-select", hist_second_half, h, NULL);
  hist_half (h, 0);
  if (t != NULL)
    g_thread_join (t);
  else
    hist_half (h, 1);
}

/* Reads the values from @src; the ranks' values go to @out (out[i] for rank ks[i]) when
 * it is not NULL, else to their places in @v, which may then be used as scratch (it is
 * @src itself). With @v NULL, FALSE where the ranks need the values moved in place. */
static gboolean
select_ranks_hist (double       *v,
                   const double *src,
                   gsize         n,
                   const gsize  *ks,
                   gsize         nk,
                   double       *out)
{
  Hist h = { .v = src, .n = n, .nk = nk };
  g_autofree guint32 *count = NULL;
  g_autofree guint32 *count_b = NULL;
  g_autofree gsize *start = NULL;      /* first rank of each wanted bucket */
  g_autofree gsize *bucket_of = NULL;  /* bucket of each wanted rank */
  g_autofree gsize *fill = NULL;
  g_autofree gsize *local = NULL;
  g_autofree double *buf = NULL;
  g_autofree guint64 *keys = NULL;
  gsize cum = 0, total = 0, r = 0, largest = 0, nb, half_total, done;
  guint64 kmin, kmax;
  guint shift = 0;

  /* below a million values the sort is faster for most ranks (the bucket pass's
   * scattered moves cost more than a sort in cache), but for a few (one in 1,024 or
   * fewer: a run's statistics) fewer buckets gather so few values that the pass wins
   * from 32,768 values (22 ranks of 250 k values: 8.4 -> 1.3 ms, of 70 k 2.2 -> 0.55
   * ms; of 20 k no gain) */
  if (n >= G_MAXUINT32 || n < PROCURA_STATS_SPARSE_PASS_MIN
      || (n < PROCURA_STATS_BUCKET_PASS_MIN && nk > n / 1024))
    return FALSE;
  hist_phase (&h, HIST_RANGE);
  if (h.nan[0] || h.nan[1])
    return FALSE;   /* the other paths put NaNs last, as the sort does */
  kmin = MIN (h.lo_key[0], h.lo_key[1]);
  kmax = MAX (h.hi_key[0], h.hi_key[1]);
  while (((kmax - kmin) >> shift) >= ((guint64) 1 << hist_bits (n)))
    shift++;
  nb = (gsize) ((kmax - kmin) >> shift) + 1;
  h.kmin = kmin;
  h.shift = shift;
  h.count[0] = count = g_new0 (guint32, nb);
  h.count[1] = count_b = g_new0 (guint32, nb);
  hist_phase (&h, HIST_COUNT);
  /* count: the first half's counts until the cursors are set, then the totals */

  bucket_of = g_new (gsize, nk);
  start = g_new (gsize, nk);
  for (gsize b = 0; b < nb && r < nk; b++)
    {
      guint32 c = count[b] + count_b[b];

      while (r < nk && ks[r] < cum + c)
        {
          bucket_of[r] = b;
          start[r] = cum;
          r++;
        }
      cum += c;
    }
  /* offsets of the wanted buckets in the gather buffer (in bucket order) */
  fill = g_new (gsize, nk);
  for (gsize i = 0; i < nk; i++)
    {
      guint32 c = count[bucket_of[i]] + count_b[bucket_of[i]];

      if (i > 0 && bucket_of[i] == bucket_of[i - 1])
        {
          fill[i] = fill[i - 1];
          continue;
        }
      fill[i] = total;
      total += c;
      largest = MAX (largest, c);
    }
  if (total > n / 2 && v == NULL)
    return FALSE;   /* the caller selects in a copy */
  if (total > n / 2)
    {
      /* The wanted buckets hold most values: put every value in its bucket in place
       * (one cycle-leader pass, as in an MSD radix sort) instead of gathering them into
       * a second array nearly as large as @v. The ranks are then in their buckets'
       * places, and each wanted bucket is searched where it lies. */
      guint32 *end = count;   /* from here on: the end of each bucket */
      g_autofree guint32 *next = g_new (guint32, nb);
      guint32 pos = 0;

      keys = procura_memory_alloc_large (2 * largest * sizeof (guint64));
      for (gsize b = 0; b < nb; b++)
        {
          next[b] = pos;
          pos += end[b] + count_b[b];
          end[b] = pos;
        }
      for (gsize b = 0; b < nb; b++)
        while (next[b] < end[b])
          {
            double x = v[next[b]];
            gsize bx = (order_key (x) - kmin) >> shift;

            while (bx != b)
              {
                double t = v[next[bx]];

                v[next[bx]++] = x;
                x = t;
                bx = (order_key (x) - kmin) >> shift;
              }
            v[next[b]++] = x;
          }
      for (gsize i = 0, e; i < nk; i = e)
        {
          gsize c = end[bucket_of[i]] - start[i];

          for (e = i + 1; e < nk && bucket_of[e] == bucket_of[i]; e++)
            ;
          if (e - i > 4)
            sort_bucket (v + start[i], c, kmin, shift, keys, keys + largest);
          else
            select_ranks_tree (v, start[i], start[i] + c, ks + i, e - i, depth_limit (c));
        }
      return TRUE;
    }
  buf = procura_memory_alloc_large (MAX (total, 1) * sizeof (double));
  {
    /* bucket -> 1 + index of its first wanted rank (0: not wanted), then the cursors:
     * the first half's values of a bucket go first, the second half's after them */
    g_autofree guint32 *want = g_new0 (guint32, nb);
    g_autofree gsize *cursor_a = g_new (gsize, nk);
    g_autofree gsize *cursor_b = g_new (gsize, nk);
    g_autofree guint64 *wanted = g_new0 (guint64, nb / 64 + 1);

    for (gsize i = nk; i-- > 0;)
      {
        want[bucket_of[i]] = (guint32) i + 1;
        wanted[bucket_of[i] / 64] |= G_GUINT64_CONSTANT (1) << (bucket_of[i] % 64);
      }
    h.wanted = wanted;
    for (gsize i = 0; i < nk; i++)
      {
        cursor_a[i] = fill[i];
        cursor_b[i] = fill[i] + count[bucket_of[i]];
      }
    h.want = want;
    h.buf = buf;
    h.cursor[0] = cursor_a;
    h.cursor[1] = cursor_b;
    hist_phase (&h, HIST_GATHER);
  }
  for (gsize b = 0; b < nb; b++)
    count[b] += count_b[b];
  local = g_new (gsize, nk);
  for (gsize i = 0; i < nk; i++)
    local[i] = ks[i] - start[i];
  /* the wanted buckets in two parts of about the same number of values, cut between
   * buckets */
  half_total = total / 2;
  done = 0;
  h.split = nk;
  for (gsize i = 0; i < nk; i++)
    {
      if (i > 0 && bucket_of[i] == bucket_of[i - 1])
        continue;
      if (done >= half_total)
        {
          h.split = i;
          break;
        }
      done += count[bucket_of[i]];
    }
  keys = procura_memory_alloc_large (4 * MAX (largest, 1) * sizeof (guint64));
  h.keys[0] = keys;
  h.keys[1] = keys + 2 * largest;
  h.largest = largest;
  h.total_count = count;
  h.bucket_of = bucket_of;
  h.fill = fill;
  h.local = local;
  hist_phase (&h, HIST_SEARCH);
  for (gsize i = 0; i < nk; i++)
    if (out != NULL)
      out[i] = buf[fill[i] + local[i]];
    else
      v[ks[i]] = buf[fill[i] + local[i]];
  return TRUE;
}

void
procura_stats_select_ranks (double      *values,
                            gsize        n,
                            const gsize *ks,
                            gsize        nk)
{
  if (values == NULL || n == 0 || nk == 0)
    return;
  /* a rank every 64 values or closer: partitioning down to each costs more than a sort */
  if (select_ranks_hist (values, values, n, ks, nk, NULL))
    ;
  else if (nk > n / 64)
    procura_stats_sort (values, n);
  else
    select_ranks_tree (values, 0, n, ks, nk, depth_limit (n));
  /* -0.0 and +0.0 are equal: give +0.0, as procura_stats_sort() does */
  for (gsize i = 0; i < nk; i++)
    if (values[ks[i]] == 0.0)
      values[ks[i]] = 0.0;
}

gboolean
procura_stats_select_ranks_into (const double *values,
                                 gsize         n,
                                 const gsize  *ks,
                                 gsize         nk,
                                 double       *out)
{
  g_return_val_if_fail (out != NULL || nk == 0, FALSE);
  if (values == NULL || n == 0 || nk == 0)
    return FALSE;
  if (!select_ranks_hist (NULL, values, n, ks, nk, out))
    return FALSE;
  for (gsize i = 0; i < nk; i++)
    if (out[i] == 0.0)
      out[i] = 0.0;
  return TRUE;
}
