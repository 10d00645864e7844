/* test-chart-reduce.c: reduced drawing (pyramids, density, per-column bands) against
 * the naive drawing of every point
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "procura-chart.h"
#include "procura-chart-private.h"
#include "procura-chart-reduce.h"

static ProcuraChartTheme test_theme;
static int ink_threshold = 90;   /* summed channel difference from the background */

static const ProcuraChartTheme *
fixed_theme (void)
{
  test_theme = *procura_chart_theme_light ();
  test_theme.font_family = "DejaVu Sans";
  test_theme.font_size = 11;
  return &test_theme;
}

static cairo_surface_t *
render (ProcuraChart      *chart,
        int                w,
        int                h,
        ProcuraReduceMode  mode)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (surface);

  procura_chart_reduce_set_mode (mode);
  procura_chart_draw (chart, NULL, cr, w, h, fixed_theme ());
  procura_chart_reduce_set_mode (PROCURA_REDUCE_AUTO);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* Whether the pixel differs clearly from the background: ink of any kind. */
static gboolean
inked (cairo_surface_t *s,
       int              x,
       int              y)
{
  const ProcuraChartColor *bg = &fixed_theme ()->background;
  const unsigned char *data = cairo_image_surface_get_data (s);
  guint32 p = *(const guint32 *) (gconstpointer) (data + (gsize) y * cairo_image_surface_get_stride (s) + x * 4);
  int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

  return abs (r - (int) lround (bg->r * 255)) + abs (g - (int) lround (bg->g * 255))
         + abs (b - (int) lround (bg->b * 255)) > ink_threshold;
}

static gboolean
inked_near (cairo_surface_t *s,
            int              x,
            int              y,
            int              radius)
{
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);

  for (int dy = -radius; dy <= radius; dy++)
    for (int dx = -radius; dx <= radius; dx++)
      if (x + dx >= 0 && y + dy >= 0 && x + dx < w && y + dy < h && inked (s, x + dx, y + dy))
        return TRUE;
  return FALSE;
}

/* The share of @a's inked pixels with no inked pixel of @b within @radius. */
static double
uncovered_share (cairo_surface_t *a,
                 cairo_surface_t *b,
                 int              radius,
                 guint           *n_inked)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
  guint total = 0, missing = 0;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (inked (a, x, y))
        {
          total++;
          if (!inked_near (b, x, y, radius))
            missing++;
        }
  *n_inked = total;
  return total ? (double) missing / total : 0;
}

/* Both ways round: the reduced drawing inks where the naive one does, and nowhere else,
 * give or take a pixel (a share of the pixels at most @tolerance further off). */
static void
assert_same_coverage (cairo_surface_t *naive,
                      cairo_surface_t *reduced,
                      double           tolerance)
{
  guint n_naive, n_reduced;
  double missing = uncovered_share (naive, reduced, 1, &n_naive);
  double extra = uncovered_share (reduced, naive, 1, &n_reduced);

  g_test_message ("inked: naive %u, reduced %u; more than 1 px off: %.4f missing, %.4f extra",
                  n_naive, n_reduced, missing, extra);
  g_assert_cmpuint (n_naive, >, 1000);
  g_assert_cmpfloat (missing, <=, tolerance);
  g_assert_cmpfloat (extra, <=, tolerance);
  g_assert_cmpfloat (uncovered_share (naive, reduced, 3, &n_naive), ==, 0);
  g_assert_cmpfloat (uncovered_share (reduced, naive, 3, &n_reduced), ==, 0);
}

static void
set_plain_axes (ProcuraChart *chart)
{
  procura_chart_set_axis (chart, PROCURA_AXIS_X, "x", PROCURA_UNIT_COUNT, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, "y", PROCURA_UNIT_MS, PROCURA_SCALE_LINEAR);
}

static guint64 rng_state;

static double
uniform (void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return ((rng_state * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static gboolean
same_double (double a,
             double b)
{
  return (isnan (a) && isnan (b)) || a == b;
}

/* ------------------------------------------------------------------------- */

static void
test_columns_exact (void)
{
  /* the pyramid's columns equal the full pass's, exactly, for NaN gaps, implicit
   * and explicit x, linear and log, ranges inside, across and outside the data */
  gsize n = 200003;
  double *x = g_new (double, n), *y = g_new (double, n);
  const struct { double x0, x1; gboolean log; guint cols; } cases[] = {
    { 0, 1000, FALSE, 500 }, { 123.4, 456.7, FALSE, 997 }, { -50, 2000, FALSE, 64 },
    { 999, 999.5, FALSE, 10 }, { 1, 1000, TRUE, 800 }, { 0.01, 3, TRUE, 301 },
    { 2000, 3000, FALSE, 100 }, { 500, 500.0001, FALSE, 7 },
  };

  rng_state = 0x1234567;
  for (gsize i = 0; i < n; i++)
    {
      x[i] = i * (1000.0 / n) + 0.0001;
      y[i] = uniform () < 0.01 ? NAN : 100 * sin (i / 5000.0) + 30 * uniform ();
      if (i >= 70000 && i < 75000)
        y[i] = NAN;               /* a long gap: whole leaves without a number */
    }
  y[12345] = INFINITY;
  y[54321] = -INFINITY;

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    for (int implicit = 0; implicit < 2; implicit++)
      {
        ProcuraReduceCache *cache = NULL;
        guint cols = cases[k].cols;
        ProcuraColumn *a = g_new (ProcuraColumn, cols), *b = g_new (ProcuraColumn, cols);
        const double *xs = implicit ? NULL : x;
        double x0 = implicit ? cases[k].x0 * n / 1000 : cases[k].x0;
        double x1 = implicit ? cases[k].x1 * n / 1000 : cases[k].x1;
        gsize total = 0;

        procura_chart_reduce_columns (&cache, xs, y, n, TRUE, x0, x1, cases[k].log, cols, a);
        /* the second call is answered from the same pyramid */
        procura_chart_reduce_columns (&cache, xs, y, n, TRUE, x0, x1, cases[k].log, cols, a);
        procura_chart_decimate_full (xs, y, n, x0, x1, cases[k].log, cols, TRUE, b);
        for (guint c = 0; c < cols; c++)
          {
            g_assert_cmpuint (a[c].count, ==, b[c].count);
            g_assert_true (same_double (a[c].min, b[c].min));
            g_assert_true (same_double (a[c].max, b[c].max));
            g_assert_true (same_double (a[c].first, b[c].first));
            g_assert_true (same_double (a[c].last, b[c].last));
            total += a[c].count;
          }
        if (k == 0)
          g_assert_cmpuint (total, >, n / 2);
        procura_chart_reduce_cache_clear (&cache);
        g_assert_null (cache);
        g_free (a);
        g_free (b);
      }
  g_free (x);
  g_free (y);
}

static void
test_cdf_band_quantiles (void)
{
  /* An empirical CDF and its DKW band: at every pixel column the band reaches the
   * share of samples at or below the column's right edge (+ eps) and starts from the
   * share below its left edge (- eps), counted here on the unsorted samples; and the
   * exact quantile at that share is a sample inside the column. */
  gsize n = 300000;
  double *v = g_new (double, n), *sorted, *lo, *hi;
  double eps = sqrt (log (2 / 0.05) / (2.0 * n));
  double x0, x1, t0, t1;
  guint cols = 700;
  gsize *below = g_new0 (gsize, cols + 1);
  ProcuraColumn *lc = g_new (ProcuraColumn, cols), *hc = g_new (ProcuraColumn, cols);
  ProcuraReduceCache *cache = NULL;
  guint checked = 0;

  rng_state = 0xfeedbeef;
  for (gsize i = 0; i < n; i++)
    v[i] = 20 * exp (1.2 * sqrt (-2 * log (uniform () + 1e-300)) * cos (6.283185307 * uniform ()));
  sorted = g_memdup2 (v, n * sizeof (double));
  qsort (sorted, n, sizeof (double), compare_doubles);
  lo = g_new (double, n);
  hi = g_new (double, n);
  for (gsize k = 0; k < n; k++)
    {
      double f = (k + 1) / (double) n;
      lo[k] = MAX (0, f - eps);
      hi[k] = MIN (1, f + eps);
    }
  x0 = sorted[0];
  x1 = sorted[n - 1];
  t0 = log10 (x0);
  t1 = log10 (x1);
  for (gsize i = 0; i < n; i++)
    {
      double c = floor ((log10 (v[i]) - t0) / (t1 - t0) * cols);
      below[(guint) MIN (c, cols - 1) + 1]++;
    }
  for (guint c = 1; c <= cols; c++)
    below[c] += below[c - 1];     /* below[c]: samples left of column c */

  procura_chart_reduce_columns (&cache, sorted, lo, n, TRUE, x0, x1, TRUE, cols, lc);
  procura_chart_reduce_columns (&cache, sorted, hi, n, TRUE, x0, x1, TRUE, cols, hc);
  for (guint c = 0; c < cols; c++)
    {
      gsize in = below[c + 1] - below[c];

      g_assert_cmpuint (hc[c].count, ==, in);
      if (in == 0)
        continue;
      g_assert_cmpfloat (hc[c].max, ==, MIN (1, below[c + 1] / (double) n + eps));
      g_assert_cmpfloat (lc[c].min, ==, MAX (0, (below[c] + 1) / (double) n - eps));
      /* the quantile at the column's top share is the column's last sample */
      {
        double q = sorted[below[c + 1] - 1];
        double t = (log10 (q) - t0) / (t1 - t0) * cols;

        g_assert_cmpfloat (MIN (floor (t), cols - 1), ==, c);
      }
      checked++;
    }
  g_assert_cmpuint (checked, >, cols / 2);
  procura_chart_reduce_cache_clear (&cache);
  g_free (below);
  g_free (lc);
  g_free (hc);
  g_free (v);
  g_free (sorted);
  g_free (lo);
  g_free (hi);
}

static void
test_line_coverage (void)
{
  g_autoptr (ProcuraChart) chart = procura_chart_new ();
  gsize n = 6000;
  double *y = g_new (double, n);
  cairo_surface_t *naive, *reduced;

  rng_state = 42;
  for (gsize i = 0; i < n; i++)
    y[i] = 50 + 30 * sin (i / 300.0) + 10 * uniform () + (i == 4000 ? 60 : 0);
  set_plain_axes (chart);
  procura_chart_add_series_take (chart, PROCURA_SERIES_LINE, "ttft", NULL, y, n);
  naive = render (chart, 420, 260, PROCURA_REDUCE_NEVER);
  reduced = render (chart, 420, 260, PROCURA_REDUCE_ALWAYS);
  assert_same_coverage (naive, reduced, 0.01);
  cairo_surface_destroy (naive);
  cairo_surface_destroy (reduced);
}

static void
test_scatter_coverage (void)
{
  g_autoptr (ProcuraChart) chart = procura_chart_new ();
  gsize n = 20000;
  double *x = g_new (double, n), *y = g_new (double, n);
  cairo_surface_t *naive, *reduced;
  ProcuraChartSeries *s;

  rng_state = 7;
  for (gsize i = 0; i < n; i++)
    {
      x[i] = 100 * uniform ();
      y[i] = x[i] * 3 + 40 * uniform () * uniform ();
    }
  set_plain_axes (chart);
  procura_chart_set_axis_range (chart, PROCURA_AXIS_X, 0, 100);
  procura_chart_set_axis_range (chart, PROCURA_AXIS_Y, 0, 400);
  s = procura_chart_add_series_take (chart, PROCURA_SERIES_SCATTER, "requests", x, y, n);
  naive = render (chart, 400, 300, PROCURA_REDUCE_NEVER);
  reduced = render (chart, 400, 300, PROCURA_REDUCE_AUTO);
  assert_same_coverage (naive, reduced, 0.02);
  cairo_surface_destroy (naive);
  cairo_surface_destroy (reduced);

  /* another size: the cached counts are not reused for it */
  naive = render (chart, 520, 330, PROCURA_REDUCE_NEVER);
  reduced = render (chart, 520, 330, PROCURA_REDUCE_AUTO);
  assert_same_coverage (naive, reduced, 0.02);
  cairo_surface_destroy (naive);
  cairo_surface_destroy (reduced);

  /* new data in the same array, same ranges: drawn anew, not from the cache */
  for (gsize i = 0; i < n; i++)
    x[i] = 100 - x[i];
  procura_chart_series_set_range (s, NULL, NULL);
  naive = render (chart, 520, 330, PROCURA_REDUCE_NEVER);
  reduced = render (chart, 520, 330, PROCURA_REDUCE_AUTO);
  assert_same_coverage (naive, reduced, 0.02);
  cairo_surface_destroy (naive);
  cairo_surface_destroy (reduced);
}

static void
test_band_coverage (void)
{
  /* an empirical CDF with its band on a log axis, as the latency figure draws it */
  g_autoptr (ProcuraChart) chart = procura_chart_new ();
  gsize n = 20000;
  double *x = g_new (double, n), *y = g_new (double, n), *lo = g_new (double, n), *hi = g_new (double, n);
  double eps = 0.04;
  cairo_surface_t *naive, *reduced;
  ProcuraChartSeries *s;

  rng_state = 99;
  for (gsize i = 0; i < n; i++)
    x[i] = 10 * exp (2 * uniform () * uniform ());
  qsort (x, n, sizeof (double), compare_doubles);
  for (gsize k = 0; k < n; k++)
    {
      y[k] = (k + 1) / (double) n;
      lo[k] = MAX (0, y[k] - eps);
      hi[k] = MIN (1, y[k] + eps);
    }
  procura_chart_set_axis (chart, PROCURA_AXIS_X, "ITL", PROCURA_UNIT_MS, PROCURA_SCALE_LOG);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, "share", PROCURA_UNIT_PERCENT, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis_range (chart, PROCURA_AXIS_Y, 0, 1);
  s = procura_chart_add_series (chart, PROCURA_SERIES_BAND, NULL, x, NULL, n);
  procura_chart_series_set_range (s, lo, hi);
  procura_chart_series_set_in_legend (s, FALSE);
  ink_threshold = 30;             /* a band is light: count its faintest shade as ink */
  naive = render (chart, 420, 280, PROCURA_REDUCE_NEVER);
  reduced = render (chart, 420, 280, PROCURA_REDUCE_AUTO);
  assert_same_coverage (naive, reduced, 0.01);
  cairo_surface_destroy (naive);
  cairo_surface_destroy (reduced);

  /* a narrower band: the pyramids of the old one are dropped */
  for (gsize k = 0; k < n; k++)
    {
      lo[k] = MAX (0, y[k] - eps / 4);
      hi[k] = MIN (1, y[k] + eps / 4);
    }
  procura_chart_series_set_range (s, lo, hi);
  naive = render (chart, 420, 280, PROCURA_REDUCE_NEVER);
  reduced = render (chart, 420, 280, PROCURA_REDUCE_AUTO);
  assert_same_coverage (naive, reduced, 0.01);
  cairo_surface_destroy (naive);
  cairo_surface_destroy (reduced);
  ink_threshold = 90;
  g_free (x);
  g_free (y);
  g_free (lo);
  g_free (hi);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chart/reduce/columns-exact", test_columns_exact);
  g_test_add_func ("/chart/reduce/cdf-band-quantiles", test_cdf_band_quantiles);
  g_test_add_func ("/chart/reduce/line-coverage", test_line_coverage);
  g_test_add_func ("/chart/reduce/scatter-coverage", test_scatter_coverage);
  g_test_add_func ("/chart/reduce/band-coverage", test_band_coverage);

  return g_test_run ();
}
