/* test-cdf-quantiles.c: the CDF drawn from a run's sorted quantile summary is the one of
 * all its samples, within the stated bound, at every pixel column
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For random, heavy-tailed, tied and adversarial samples: the summary's empirical CDF
 * (over the values above 0, what the log axis of `render cdf` shows) is reduced to
 * pixel columns the way the chart draws a step line, as is the CDF of every sample;
 * each column's lowest and highest level must agree within
 * procura_quantiles_cdf_bound(), which must itself be within the bound the docs state:
 * (ceil ((n - 1) / (GRID - 1)) - 1) / n+ for n+ values above 0.
 */
#include "config.h"

#include <math.h>

#include "procura-chart.h"
#include "procura-model.h"
#include "procura-quantiles.h"
#include "procura-stats.h"

#define COLUMNS 1200

/* The lowest and highest level of an ascending step line (x, y) in each of COLUMNS
 * columns equal in log10 x over [x0, x1]: the level carried in from the left, then the
 * levels of the steps in the column. */
static void
step_columns (const double *x,
              const double *y,
              gsize         n,
              double        x0,
              double        x1,
              double       *lo,
              double       *hi)
{
  g_autofree ProcuraColumn *cols = g_new0 (ProcuraColumn, COLUMNS);
  double carry = 0;

  procura_chart_decimate (x, y, n, x0, x1, TRUE, COLUMNS, cols);
  for (guint c = 0; c < COLUMNS; c++)
    {
      lo[c] = carry;
      hi[c] = carry;
      if (cols[c].count > 0)
        {
          lo[c] = MIN (carry, cols[c].min);
          hi[c] = MAX (carry, cols[c].max);
          carry = cols[c].last;
        }
    }
}

/* The exact share of the values above 0 at or below @x. */
static double
exact_cdf (const double *pos,
           gsize         m,
           double        x)
{
  gsize lo = 0, hi = m;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (pos[mid] <= x)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (double) lo / (double) m;
}

static void
check_samples (const char *what,
               double     *values,
               gsize       n)
{
  g_autoptr (ProcuraQuantiles) q = procura_quantiles_new ("itl", values, n);
  g_autofree double *sorted = g_new (double, n);
  g_autofree double *full_y = NULL;
  g_autofree double *qx = NULL, *qy = NULL;
  g_autofree double *flo = g_new (double, COLUMNS), *fhi = g_new (double, COLUMNS);
  g_autofree double *slo = g_new (double, COLUMNS), *shi = g_new (double, COLUMNS);
  const double *pos;
  gsize m = 0, first = 0, npos, nq;
  double bound, stated, worst = 0;
  guint64 gap;

  for (gsize i = 0; i < n; i++)
    if (isfinite (values[i]))
      sorted[m++] = values[i];
  procura_stats_sort (sorted, m);
  while (first < m && sorted[first] <= 0)
    first++;
  pos = sorted + first;
  npos = m - first;
  g_assert_nonnull (q);
  g_assert_true (procura_quantiles_valid (q));
  g_assert_cmpuint (q->n, ==, m);
  g_assert_cmpfloat (q->values[0], ==, sorted[0]);
  g_assert_cmpfloat (q->values[q->k - 1], ==, sorted[m - 1]);
  g_assert_cmpuint (q->k, <=, PROCURA_QUANTILES_GRID + 1);
  for (gsize j = 0; j < q->k; j++)
    g_assert_cmpfloat (q->values[j], ==, sorted[q->ranks[j]]);
  g_assert_cmpuint (npos, >, 0);

  /* the stated bound */
  gap = m <= PROCURA_QUANTILES_GRID ? 1
        : ((guint64) m - 1 + PROCURA_QUANTILES_GRID - 2) / (PROCURA_QUANTILES_GRID - 1);
  stated = (double) (gap - 1) / (double) npos;
  bound = procura_quantiles_cdf_bound (q, TRUE);
  g_assert_cmpfloat (bound, <=, stated);
  if (m <= PROCURA_QUANTILES_GRID)
    g_assert_cmpfloat (bound, ==, 0);

  /* the whole CDF and the summary's, as the figure draws them */
  full_y = g_new (double, npos);
  for (gsize k = 0; k < npos; k++)
    full_y[k] = (double) (k + 1) / (double) npos;
  nq = procura_quantiles_positive_steps (q, &qx, &qy);
  g_assert_cmpuint (nq, >, 0);
  g_assert_cmpfloat (qx[0], ==, pos[0]);
  g_assert_cmpfloat (qx[nq - 1], ==, pos[npos - 1]);
  g_assert_cmpfloat (qy[nq - 1], ==, 1.0);

  /* per pixel column over the drawn range, as on the log axis */
  step_columns (pos, full_y, npos, pos[0], pos[npos - 1], flo, fhi);
  step_columns (qx, qy, nq, pos[0], pos[npos - 1], slo, shi);
  for (guint c = 0; c < COLUMNS; c++)
    {
      worst = MAX (worst, fabs (flo[c] - slo[c]));
      worst = MAX (worst, fabs (fhi[c] - shi[c]));
      if (fabs (flo[c] - slo[c]) > bound + 1e-12 || fabs (fhi[c] - shi[c]) > bound + 1e-12)
        g_error ("%s: column %u: all samples %.9g..%.9g, summary %.9g..%.9g, bound %.3g",
                 what, c, flo[c], fhi[c], slo[c], shi[c], bound);
    }
  /* and the summary's CDF at every column edge */
  for (guint c = 0; c <= COLUMNS; c++)
    {
      double lx = log10 (pos[0]) + (log10 (pos[npos - 1]) - log10 (pos[0])) * c / COLUMNS;
      double x = pow (10, lx);
      double f = exact_cdf (pos, npos, x), g = procura_quantiles_cdf (q, x, TRUE);

      g_assert_cmpfloat (g, <=, f + 1e-12);   /* never above: kept ranks are lower bounds */
      g_assert_cmpfloat (f - g, <=, bound + 1e-12);
    }
  g_test_message ("%s: n = %" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT " kept, bound %.3g (stated %.3g),"
                  " worst column %.3g", what, m, q->k, bound, stated, worst);
}

static double
uniform (GRand *r)
{
  return g_rand_double_range (r, 1e-12, 1.0);
}

static void
test_random (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (19);
  gsize n = 400000;
  g_autofree double *v = g_new (double, n);

  /* log-normal inter-token gaps around 20 ms, with a few NaN and infinite values */
  for (gsize i = 0; i < n; i++)
    {
      double z = sqrt (-2 * log (uniform (r))) * cos (2 * G_PI * uniform (r));
      v[i] = 20 * exp (0.6 * z);
    }
  v[17] = NAN;
  v[4242] = INFINITY;
  check_samples ("log-normal", v, n);
}

static void
test_heavy_tail (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (7);
  gsize n = 300001;
  g_autofree double *v = g_new (double, n);

  /* Pareto, alpha 0.7 (no mean): most values near 1 ms, a few at 10^8 */
  for (gsize i = 0; i < n; i++)
    v[i] = pow (uniform (r), -1 / 0.7);
  check_samples ("pareto", v, n);
}

static void
test_ties (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (3);
  gsize n = 250000;
  g_autofree double *v = g_new (double, n);
  static const double levels[] = { 0, 0, 1, 1, 1, 2, 2, 5, 5, 1000 };

  /* a coarse timer: five distinct values, a third of them 0 (dropped by the log axis) */
  for (gsize i = 0; i < n; i++)
    v[i] = levels[g_rand_int_range (r, 0, G_N_ELEMENTS (levels))];
  check_samples ("ties", v, n);
}

static void
test_adversarial (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (11);
  gsize n = PROCURA_QUANTILES_GRID + 1;
  g_autofree double *v = g_new (double, 200003);

  /* just over the grid: two values per gap at most */
  for (gsize i = 0; i < n; i++)
    v[i] = (double) (n - i);
  check_samples ("grid + 1", v, n);

  /* every value the same but one */
  for (gsize i = 0; i < 200003; i++)
    v[i] = 3.5;
  v[100000] = 7;
  check_samples ("one outlier", v, 200003);

  /* negatives and zeros below a steep cliff: the first positive value is kept */
  for (gsize i = 0; i < 200003; i++)
    v[i] = i < 150001 ? -(double) (i % 7) : 1 + (double) g_rand_int_range (r, 0, 3) * 1e6;
  check_samples ("cliff", v, 200003);

  /* a small run keeps every value: the same CDF exactly */
  for (gsize i = 0; i < 5000; i++)
    v[i] = g_rand_double_range (r, 0.5, 80);
  check_samples ("small", v, 5000);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cdf-quantiles/random", test_random);
  g_test_add_func ("/cdf-quantiles/heavy-tail", test_heavy_tail);
  g_test_add_func ("/cdf-quantiles/ties", test_ties);
  g_test_add_func ("/cdf-quantiles/adversarial", test_adversarial);
  return g_test_run ();
}
