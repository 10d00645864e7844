/* test-chart-ticks.c: nice ticks, number formatting, decimation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-chart.h"

/* ------------------------------------------------------------------------- */
/* Linear ticks                                                               */

static gboolean
is_nice (double step)
{
  double e = floor (log10 (step));
  double m = step / pow (10, e);

  return fabs (m - 1) < 1e-9 || fabs (m - 2) < 1e-9 || fabs (m - 2.5) < 1e-9
         || fabs (m - 5) < 1e-9 || fabs (m - 10) < 1e-9;
}

static void
check_linear (double        min,
              double        max,
              int           target,
              double        step,
              double        lo,
              double        hi,
              guint         n)
{
  ProcuraTicks t;

  g_assert_true (procura_chart_ticks (min, max, target, PROCURA_SCALE_LINEAR, TRUE, &t));
  g_assert_cmpfloat_with_epsilon (t.step, step, step * 1e-9);
  g_assert_cmpfloat_with_epsilon (t.lo, lo, step * 1e-9);
  g_assert_cmpfloat_with_epsilon (t.hi, hi, step * 1e-9);
  g_assert_cmpuint (t.n, ==, n);
  for (guint i = 0; i < t.n; i++)
    {
      g_assert_true (t.major[i]);
      g_assert_cmpfloat_with_epsilon (t.value[i], lo + i * step, step * 1e-6);
    }
}

static void
test_ticks_linear_known (void)
{
  /* step = the smallest of 1, 2, 2.5, 5, 10 x 10^k at least (max - min) / target */
  check_linear (0, 100, 5, 20, 0, 100, 6);          /* 100 / 5 = 20 */
  check_linear (0, 1, 5, 0.2, 0, 1, 6);             /* 0.2 */
  check_linear (3, 97, 5, 20, 0, 100, 6);           /* 18.8 -> 20 */
  check_linear (-7, 13, 4, 5, -10, 15, 6);          /* 5 */
  check_linear (0.0012, 0.0087, 5, 0.002, 0, 0.01, 6);  /* 0.0015 -> 0.002 */
  check_linear (0, 9, 4, 2.5, 0, 10, 5);            /* 2.25 -> 2.5 */
  check_linear (0, 2000, 5, 500, 0, 2000, 5);       /* 400 -> 500 */
  check_linear (1e12, 5e12, 4, 1e12, 1e12, 5e12, 5); /* huge */
  check_linear (1e-9, 3e-9, 4, 5e-10, 1e-9, 3e-9, 5); /* tiny: 5e-10 */
  check_linear (-500, -100, 4, 100, -500, -100, 5); /* negative */
  check_linear (0, 25000, 5, 5000, 0, 25000, 6);
}

static void
test_ticks_linear_degenerate (void)
{
  ProcuraTicks t;

  /* min == max: a range of +-10 % around the value, ticks at 0.2 */
  g_assert_true (procura_chart_ticks (5, 5, 5, PROCURA_SCALE_LINEAR, TRUE, &t));
  g_assert_cmpfloat (t.lo, <=, 4.5);
  g_assert_cmpfloat (t.hi, >=, 5.5);
  g_assert_cmpfloat_with_epsilon (t.step, 0.2, 1e-12);

  /* zero alone: [0, 1] */
  g_assert_true (procura_chart_ticks (0, 0, 5, PROCURA_SCALE_LINEAR, TRUE, &t));
  g_assert_cmpfloat (t.lo, ==, 0);
  g_assert_cmpfloat (t.hi, ==, 1);

  /* NaN and infinities are ignored */
  g_assert_true (procura_chart_ticks (NAN, 10, 5, PROCURA_SCALE_LINEAR, TRUE, &t));
  g_assert_cmpfloat (t.lo, <=, 9);
  g_assert_cmpfloat (t.hi, >=, 11);
  g_assert_false (procura_chart_ticks (NAN, NAN, 5, PROCURA_SCALE_LINEAR, TRUE, &t));
  g_assert_cmpfloat (t.lo, ==, 0);
  g_assert_cmpfloat (t.hi, ==, 1);
  g_assert_false (procura_chart_ticks (-INFINITY, INFINITY, 5, PROCURA_SCALE_LINEAR, TRUE, &t));
  for (guint i = 0; i < t.n; i++)
    g_assert_true (isfinite (t.value[i]));

  /* swapped bounds */
  g_assert_true (procura_chart_ticks (100, 0, 5, PROCURA_SCALE_LINEAR, TRUE, &t));
  g_assert_cmpfloat (t.lo, ==, 0);
  g_assert_cmpfloat (t.hi, ==, 100);

  /* not expanded: the bounds stay, only the ticks inside */
  g_assert_true (procura_chart_ticks (3, 97, 5, PROCURA_SCALE_LINEAR, FALSE, &t));
  g_assert_cmpfloat (t.lo, ==, 3);
  g_assert_cmpfloat (t.hi, ==, 97);
  g_assert_cmpuint (t.n, ==, 4);     /* 20, 40, 60, 80 */
  g_assert_cmpfloat (t.value[0], ==, 20);
  g_assert_cmpfloat (t.value[3], ==, 80);

  /* a huge target never overflows the table */
  g_assert_true (procura_chart_ticks (0, 1e6, 1000, PROCURA_SCALE_LINEAR, TRUE, &t));
  g_assert_cmpuint (t.n, <=, PROCURA_CHART_MAX_TICKS);
}

/* Properties over many random ranges */
static void
test_ticks_linear_random (void)
{
  GRand *rand = g_rand_new_with_seed (20261130);

  for (guint k = 0; k < 5000; k++)
    {
      double scale = pow (10, g_rand_double_range (rand, -12, 12));
      double a = g_rand_double_range (rand, -1, 1) * scale;
      double b = a + g_rand_double_range (rand, 1e-6, 3) * scale;
      int target = g_rand_int_range (rand, 2, 12);
      ProcuraTicks t;

      g_assert_true (procura_chart_ticks (a, b, target, PROCURA_SCALE_LINEAR, TRUE, &t));
      g_assert_true (is_nice (t.step));
      g_assert_cmpfloat (t.lo, <=, a + t.step * 1e-9);
      g_assert_cmpfloat (t.hi, >=, b - t.step * 1e-9);
      /* lo and hi are multiples of the step */
      g_assert_cmpfloat (fabs (t.lo / t.step - round (t.lo / t.step)), <, 1e-6);
      g_assert_cmpfloat (fabs (t.hi / t.step - round (t.hi / t.step)), <, 1e-6);
      /* the step is the smallest nice one: the next smaller nice step would give more
       * than target intervals */
      g_assert_cmpfloat ((b - a) / t.step, <=, target + 1e-9);
      g_assert_cmpuint (t.n, >=, 2);
      g_assert_cmpuint (t.n, <=, (guint) (2 * target + 3));
      for (guint i = 1; i < t.n; i++)
        g_assert_cmpfloat (fabs (t.value[i] - t.value[i - 1] - t.step), <, t.step * 1e-6);
    }
  g_rand_free (rand);
}

/* ------------------------------------------------------------------------- */
/* Log ticks                                                                  */

static guint
count_majors (const ProcuraTicks *t,
              double             *majors,
              guint               max)
{
  guint n = 0;

  for (guint i = 0; i < t->n; i++)
    if (t->major[i] && n < max)
      majors[n++] = t->value[i];
  return n;
}

static void
assert_values (const double *got,
               guint         n_got,
               const double *want,
               guint         n_want)
{
  g_assert_cmpuint (n_got, ==, n_want);
  for (guint i = 0; i < n_want; i++)
    g_assert_cmpfloat (fabs (got[i] / want[i] - 1), <, 1e-9);
}

static void
test_ticks_log (void)
{
  ProcuraTicks t;
  double majors[64];
  guint n;

  /* three decades, 5 ticks wanted: decades labelled, 2..9 minor */
  procura_chart_ticks (1, 1000, 5, PROCURA_SCALE_LOG, TRUE, &t);
  n = count_majors (&t, majors, 64);
  assert_values (majors, n, (double[]) { 1, 10, 100, 1000 }, 4);
  g_assert_cmpuint (t.n, ==, 3 * 9 + 1);

  /* 3..80: widened to 2..100 (1, 2 or 5 x 10^k), room for 1, 2, 5 */
  procura_chart_ticks (3, 80, 6, PROCURA_SCALE_LOG, TRUE, &t);
  g_assert_cmpfloat (t.lo, ==, 2);
  g_assert_cmpfloat (t.hi, ==, 100);
  n = count_majors (&t, majors, 64);
  assert_values (majors, n, (double[]) { 2, 5, 10, 20, 50, 100 }, 6);
  /* 0.9..24: 0.5..50 */
  procura_chart_ticks (0.9, 24, 6, PROCURA_SCALE_LOG, TRUE, &t);
  g_assert_cmpfloat_with_epsilon (t.lo, 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (t.hi, 50, 1e-9);
  /* exact decades stay */
  procura_chart_ticks (10, 1000, 6, PROCURA_SCALE_LOG, TRUE, &t);
  g_assert_cmpfloat (t.lo, ==, 10);
  g_assert_cmpfloat (t.hi, ==, 1000);

  /* nine decades, 4 wanted: every third decade, no minor ticks */
  procura_chart_ticks (1e-3, 1e6, 4, PROCURA_SCALE_LOG, TRUE, &t);
  n = count_majors (&t, majors, 64);
  assert_values (majors, n, (double[]) { 1e-3, 1, 1e3, 1e6 }, 4);
  g_assert_cmpuint (t.n, ==, 4);

  /* less than a decade without widening: linear ticks on the log axis */
  procura_chart_ticks (30, 80, 5, PROCURA_SCALE_LOG, FALSE, &t);
  n = count_majors (&t, majors, 64);
  assert_values (majors, n, (double[]) { 30, 40, 50, 60, 70, 80 }, 6);

  /* zero and negatives are not on a log axis */
  g_assert_true (procura_chart_ticks (0, 100, 5, PROCURA_SCALE_LOG, TRUE, &t));
  g_assert_cmpfloat (t.lo, >, 0);
  g_assert_cmpfloat (t.hi, ==, 100);
  g_assert_true (procura_chart_ticks (-5, -1, 5, PROCURA_SCALE_LOG, TRUE, &t));
  g_assert_cmpfloat (t.lo, ==, 1);
  g_assert_cmpfloat (t.hi, ==, 10);
  /* one value */
  procura_chart_ticks (50, 50, 5, PROCURA_SCALE_LOG, TRUE, &t);
  g_assert_cmpfloat (t.lo, <=, 25);
  g_assert_cmpfloat (t.hi, >=, 100);
  for (guint i = 0; i < t.n; i++)
    g_assert_cmpfloat (t.value[i], >, 0);
}

/* ------------------------------------------------------------------------- */
/* Formatting                                                                 */

static void
check_format (double           value,
              ProcuraChartUnit unit,
              const char      *expected)
{
  g_autofree char *got = procura_chart_format_value (value, unit);

  g_assert_cmpstr (got, ==, expected);
}

static void
test_format_value (void)
{
  check_format (250, PROCURA_UNIT_MS, "250 ms");
  check_format (1500, PROCURA_UNIT_MS, "1.5 s");
  check_format (0.5, PROCURA_UNIT_MS, "500 µs");
  check_format (999.7, PROCURA_UNIT_MS, "1 s");
  check_format (812.4, PROCURA_UNIT_MS, "812 ms");
  check_format (0.25, PROCURA_UNIT_S, "250 ms");
  check_format (42, PROCURA_UNIT_S, "42 s");
  check_format (12000, PROCURA_UNIT_TOKENS_PER_S, "12 k tok/s");
  check_format (850, PROCURA_UNIT_TOKENS_PER_S, "850 tok/s");
  check_format (1.25e6, PROCURA_UNIT_TOKENS_PER_S, "1.25 M tok/s");
  check_format (21.345, PROCURA_UNIT_REQ_PER_S, "21.3 req/s");
  check_format (0.37, PROCURA_UNIT_DOLLARS, "$0.37");
  check_format (0.000367278, PROCURA_UNIT_DOLLARS, "$0.000367");
  check_format (14600, PROCURA_UNIT_DOLLARS, "$14.6k");
  check_format (17200, PROCURA_UNIT_DOLLARS, "$17.2k");
  check_format (2.5e6, PROCURA_UNIT_DOLLARS, "$2.5M");
  check_format (-5, PROCURA_UNIT_DOLLARS, "−$5");
  check_format (79.19, PROCURA_UNIT_GIB, "79.2 GiB");
  check_format (2048, PROCURA_UNIT_GIB, "2 TiB");
  check_format (536870912, PROCURA_UNIT_BYTES, "512 MiB");
  check_format (1536, PROCURA_UNIT_BYTES, "1.5 KiB");
  check_format (100, PROCURA_UNIT_BYTES, "100 B");
  check_format (0.42, PROCURA_UNIT_PERCENT, "42%");
  check_format (0.5254, PROCURA_UNIT_PERCENT, "52.5%");
  check_format (1234567, PROCURA_UNIT_COUNT, "1.23M");
  check_format (32768, PROCURA_UNIT_TOKENS, "32768 tok");
  check_format (262144, PROCURA_UNIT_TOKENS, "262 k tok");
  check_format (1500.5, PROCURA_UNIT_TOKENS, "1.5 k tok");
  check_format (7, PROCURA_UNIT_NONE, "7");
  check_format (0, PROCURA_UNIT_MS, "0 ms");
  check_format (0, PROCURA_UNIT_DOLLARS, "$0");
  check_format (-0.0, PROCURA_UNIT_NONE, "0");
  check_format (NAN, PROCURA_UNIT_MS, "—");
  check_format (INFINITY, PROCURA_UNIT_REQ_PER_S, "∞");
  check_format (-1e-4, PROCURA_UNIT_NONE, "−0.0001");
}

static void
check_axis_labels (double              min,
                   double              max,
                   int                 target,
                   ProcuraChartUnit    unit,
                   const char * const *expected)
{
  ProcuraTicks t;
  guint n = g_strv_length ((char **) expected);

  procura_chart_ticks (min, max, target, PROCURA_SCALE_LINEAR, TRUE, &t);
  g_assert_cmpuint (t.n, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = procura_chart_format_tick (t.value[i], unit, &t);
      g_assert_cmpstr (label, ==, expected[i]);
    }
}

static void
test_format_ticks (void)
{
  /* all labels of an axis share the prefix and the decimals */
  check_axis_labels (0, 2000, 5, PROCURA_UNIT_MS,
                     (const char *[]) { "0 s", "0.5 s", "1.0 s", "1.5 s", "2.0 s", NULL });
  check_axis_labels (0, 800, 4, PROCURA_UNIT_MS,
                     (const char *[]) { "0 ms", "200 ms", "400 ms", "600 ms", "800 ms", NULL });
  check_axis_labels (0, 25000, 5, PROCURA_UNIT_TOKENS_PER_S,
                     (const char *[]) { "0 tok/s", "5 k tok/s", "10 k tok/s", "15 k tok/s",
                                        "20 k tok/s", "25 k tok/s", NULL });
  check_axis_labels (0, 0.5, 5, PROCURA_UNIT_DOLLARS,
                     (const char *[]) { "$0", "$0.1", "$0.2", "$0.3", "$0.4", "$0.5", NULL });
  check_axis_labels (0, 9, 4, PROCURA_UNIT_NONE,
                     (const char *[]) { "0", "2.5", "5.0", "7.5", "10.0", NULL });
  check_axis_labels (-7, 13, 4, PROCURA_UNIT_PERCENT,
                     (const char *[]) { "−1000%", "−500%", "0%", "500%", "1000%", "1500%", NULL });
  check_axis_labels (0, 80, 4, PROCURA_UNIT_GIB,
                     (const char *[]) { "0 GiB", "20 GiB", "40 GiB", "60 GiB", "80 GiB", NULL });
  check_axis_labels (0, 1e6, 5, PROCURA_UNIT_COUNT,
                     (const char *[]) { "0", "0.2M", "0.4M", "0.6M", "0.8M", "1.0M", NULL });
}

/* ------------------------------------------------------------------------- */
/* Decimation against brute force                                             */

static void
brute_force (const double  *x,
             const double  *y,
             gsize          n,
             double         x0,
             double         x1,
             gboolean       x_log,
             guint          columns,
             ProcuraColumn *out)
{
  for (guint c = 0; c < columns; c++)
    {
      out[c].count = 0;
      out[c].min = out[c].max = out[c].first = out[c].last = NAN;
    }
  for (gsize i = 0; i < n; i++)
    {
      double xv = x ? x[i] : (double) i;
      double t = x_log ? log10 (xv) : xv;
      double t0 = x_log ? log10 (x0) : x0, t1 = x_log ? log10 (x1) : x1;
      long c;

      if (isnan (y[i]) || (x_log && xv <= 0) || isnan (xv) || t < t0 || t > t1)
        continue;
      c = (long) floor ((t - t0) / (t1 - t0) * columns);
      if (c >= (long) columns)
        c = columns - 1;
      if (out[c].count == 0)
        out[c].min = out[c].max = out[c].first = y[i];
      out[c].min = MIN (out[c].min, y[i]);
      out[c].max = MAX (out[c].max, y[i]);
      out[c].last = y[i];
      out[c].count++;
    }
}

static void
compare_columns (const ProcuraColumn *a,
                 const ProcuraColumn *b,
                 guint                columns)
{
  for (guint c = 0; c < columns; c++)
    {
      g_assert_cmpuint (a[c].count, ==, b[c].count);
      if (b[c].count == 0)
        {
          g_assert_true (isnan (a[c].min) && isnan (a[c].max));
          continue;
        }
      /* exact: the same doubles, not approximately */
      g_assert_cmpfloat (a[c].min, ==, b[c].min);
      g_assert_cmpfloat (a[c].max, ==, b[c].max);
      g_assert_cmpfloat (a[c].first, ==, b[c].first);
      g_assert_cmpfloat (a[c].last, ==, b[c].last);
    }
}

static void
test_decimate_random (void)
{
  GRand *rand = g_rand_new_with_seed (42);

  for (guint round_ = 0; round_ < 60; round_++)
    {
      gsize n = g_rand_int_range (rand, 1, 20000);
      guint columns = g_rand_int_range (rand, 1, 700);
      double *x = g_new (double, n), *y = g_new (double, n);
      ProcuraColumn *got = g_new (ProcuraColumn, columns), *want = g_new (ProcuraColumn, columns);
      int mode = round_ % 5;   /* 0 sorted, 1 unsorted, 2 implicit x, 3 log sorted, 4 sorted with ties */
      gboolean x_log = mode == 3;
      double acc = g_rand_double_range (rand, 0.001, 10);
      double x0, x1;

      for (gsize i = 0; i < n; i++)
        {
          acc += mode == 4 ? (g_rand_boolean (rand) ? 0 : 1) : g_rand_double_range (rand, 0, 2);
          x[i] = mode == 1 ? g_rand_double_range (rand, -50, 5000) : acc;
          y[i] = g_rand_double_range (rand, -1e3, 1e3);
          if (g_rand_int_range (rand, 0, 50) == 0)
            y[i] = NAN;
        }
      /* a range that cuts into the data on both sides, sometimes all of it */
      if (round_ % 3 == 0)
        {
          x0 = mode == 2 ? 0 : x[0];
          x1 = mode == 2 ? (double) (n - 1) : x[n - 1];
          if (mode == 1)
            x0 = -50, x1 = 5000;
        }
      else
        {
          double lo = mode == 2 ? 0 : (mode == 1 ? -50 : x[0]);
          double hi = mode == 2 ? (double) n : (mode == 1 ? 5000 : x[n - 1]);
          x0 = lo + (hi - lo) * g_rand_double_range (rand, 0, 0.3);
          x1 = lo + (hi - lo) * g_rand_double_range (rand, 0.6, 1.0);
        }
      if (x_log && x0 <= 0)
        x0 = 0.01;
      if (x1 <= x0)
        x1 = x0 + 1;

      procura_chart_decimate (mode == 2 ? NULL : x, y, n, x0, x1, x_log, columns, got);
      brute_force (mode == 2 ? NULL : x, y, n, x0, x1, x_log, columns, want);
      compare_columns (got, want, columns);

      g_free (x);
      g_free (y);
      g_free (got);
      g_free (want);
    }
  g_rand_free (rand);
}

static void
test_decimate_extremes (void)
{
  /* a single spike among a million flat points is kept, in the right column */
  gsize n = 1000000;
  double *y = g_new0 (double, n);
  ProcuraColumn cols[100];
  gsize total = 0;

  y[123456] = 99;
  y[876543] = -7;
  procura_chart_decimate (NULL, y, n, 0, n - 1, FALSE, 100, cols);
  for (guint c = 0; c < 100; c++)
    {
      double want_max = c == 12 ? 99 : 0;
      double want_min = c == 87 ? -7 : 0;
      g_assert_cmpfloat (cols[c].max, ==, want_max);
      g_assert_cmpfloat (cols[c].min, ==, want_min);
      total += cols[c].count;
    }
  g_assert_cmpuint (total, ==, n);
  /* x1 itself falls in the last column */
  g_assert_cmpuint (cols[99].count, ==, n - (gsize) ceil ((n - 1) * 0.99));
  g_free (y);

  /* empty input, zero-width range */
  procura_chart_decimate (NULL, NULL, 0, 0, 1, FALSE, 100, cols);
  g_assert_cmpuint (cols[0].count, ==, 0);
  {
    double xs[] = { 5, 5, 5 }, ys[] = { 1, 3, 2 };
    procura_chart_decimate (xs, ys, 3, 5, 5, FALSE, 10, cols);
    g_assert_cmpuint (cols[0].count, ==, 3);
    g_assert_cmpfloat (cols[0].min, ==, 1);
    g_assert_cmpfloat (cols[0].max, ==, 3);
    g_assert_cmpfloat (cols[0].last, ==, 2);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chart/ticks/linear-known", test_ticks_linear_known);
  g_test_add_func ("/chart/ticks/linear-degenerate", test_ticks_linear_degenerate);
  g_test_add_func ("/chart/ticks/linear-random", test_ticks_linear_random);
  g_test_add_func ("/chart/ticks/log", test_ticks_log);
  g_test_add_func ("/chart/format/value", test_format_value);
  g_test_add_func ("/chart/format/ticks", test_format_ticks);
  g_test_add_func ("/chart/decimate/random", test_decimate_random);
  g_test_add_func ("/chart/decimate/extremes", test_decimate_extremes);

  return g_test_run ();
}
