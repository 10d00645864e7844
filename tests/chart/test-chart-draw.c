/* test-chart-draw.c: drawing, lookup, summary, table, output files, reference images
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <pango/pangocairo.h>

#include "procura-chart.h"
#include "procura-chart-png.h"
#include "chart-legible.h"
#include "procura-test-util.h"

static ProcuraChartTheme test_theme;   /* the light theme with a fixed font */

static const ProcuraChartTheme *
fixed_theme (gboolean dark)
{
  test_theme = *(dark ? procura_chart_theme_dark () : procura_chart_theme_light ());
  test_theme.font_family = "DejaVu Sans";
  test_theme.font_size = 11;
  return &test_theme;
}

static ProcuraChart *
make_latency_chart (void)
{
  ProcuraChart *chart = procura_chart_new ();
  const double x[] = { 1, 2, 4, 8, 16, 24 };
  const double a[] = { 120, 130, 160, 260, 620, 1400 };
  const double b[] = { 150, 170, 210, 330, 520, 700 };
  ProcuraChartSeries *s;

  procura_chart_set_title (chart, "p99 TTFT against load");
  procura_chart_set_axis (chart, PROCURA_AXIS_X, "Request rate", PROCURA_UNIT_REQ_PER_S, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, "p99 TTFT", PROCURA_UNIT_MS, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis_include_zero (chart, PROCURA_AXIS_Y, TRUE);
  procura_chart_add_series (chart, PROCURA_SERIES_LINE, "H100", x, a, 6);
  s = procura_chart_add_series (chart, PROCURA_SERIES_LINE, "L40S", x, b, 6);
  procura_chart_series_set_estimate (s, TRUE);
  procura_chart_add_hline (chart, 800, "target 800 ms");
  procura_chart_add_marker (chart, 18.0, 800, "H100 18 req/s");
  return chart;
}

static ProcuraChart *
make_bar_chart (void)
{
  ProcuraChart *chart = procura_chart_new ();
  const char *cats[] = { "H100", "L40S", "API" };
  const double compute[] = { 7227, 3000, 5000 };
  const double idle[] = { 6935, 1200, 0 };
  const double other[] = { 2600, 2600, 300 };

  procura_chart_set_title (chart, "Cost per month");
  procura_chart_set_orientation (chart, PROCURA_ORIENTATION_HORIZONTAL);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, "Cost", PROCURA_UNIT_DOLLARS, PROCURA_SCALE_LINEAR);
  procura_chart_set_categories (chart, cats, 3);
  procura_chart_add_series (chart, PROCURA_SERIES_STACKED_BAR, "Compute", NULL, compute, 3);
  procura_chart_add_series (chart, PROCURA_SERIES_STACKED_BAR, "Idle", NULL, idle, 3);
  procura_chart_add_series (chart, PROCURA_SERIES_STACKED_BAR, "Other", NULL, other, 3);
  procura_chart_set_category_struck_out (chart, 1, "misses target");
  return chart;
}

static cairo_surface_t *
render (ProcuraChart            *chart,
        ProcuraChartLayout      *layout,
        int                      w,
        int                      h,
        const ProcuraChartTheme *theme)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (surface);

  procura_chart_draw (chart, layout, cr, w, h, theme);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static guint32
pixel (cairo_surface_t *s,
       int              x,
       int              y)
{
  const guint8 *data = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);

  return *(const guint32 *) (data + (gsize) y * stride + (gsize) x * 4) & 0xffffff;
}

static guint32
rgb (const ProcuraChartColor *c)
{
  return ((guint32) lround (c->r * 255) << 16) | ((guint32) lround (c->g * 255) << 8)
         | (guint32) lround (c->b * 255);
}

static gboolean
close_rgb (guint32 a,
           guint32 b,
           int     tolerance)
{
  for (int shift = 0; shift <= 16; shift += 8)
    if (abs ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > tolerance)
      return FALSE;
  return TRUE;
}

/* ------------------------------------------------------------------------- */

static void
test_layout_and_lookup (void)
{
  g_autoptr (ProcuraChart) chart = make_latency_chart ();
  g_autoptr (ProcuraChartLayout) layout = procura_chart_layout_new ();
  cairo_surface_t *surface;
  ProcuraChartPlot plot;
  double px, py, x, y;
  guint series = 99;
  gsize index = 99;

  g_assert_false (procura_chart_layout_get_plot (layout).valid);
  g_assert_false (procura_chart_nearest_point (chart, layout, 10, 10, 20, &series, &index));

  surface = render (chart, layout, 640, 400, fixed_theme (FALSE));
  plot = procura_chart_layout_get_plot (layout);
  g_assert_true (plot.valid);
  g_assert_cmpfloat (plot.x, >, 0);
  g_assert_cmpfloat (plot.x + plot.width, <, 640);
  g_assert_cmpfloat (plot.y + plot.height, <, 400);
  /* the y range reaches zero and the 1400 ms point and the 800 ms target */
  g_assert_cmpfloat (plot.y_lo, ==, 0);
  g_assert_cmpfloat (plot.y_hi, >=, 1400);
  g_assert_cmpfloat (plot.x_lo, <=, 1);
  g_assert_cmpfloat (plot.x_hi, >=, 24);

  /* mapping round trip */
  g_assert_true (procura_chart_data_to_pixel (layout, 8, 330, &px, &py));
  g_assert_true (procura_chart_pixel_to_data (layout, px, py, &x, &y));
  g_assert_cmpfloat_with_epsilon (x, 8, 1e-9);
  g_assert_cmpfloat_with_epsilon (y, 330, 1e-9);
  /* the plot's corners are the range */
  procura_chart_data_to_pixel (layout, plot.x_lo, plot.y_lo, &px, &py);
  g_assert_cmpfloat_with_epsilon (px, plot.x, 1e-9);
  g_assert_cmpfloat_with_epsilon (py, plot.y + plot.height, 1e-9);

  /* nearest point: L40S at 8 req/s, a few pixels off */
  procura_chart_data_to_pixel (layout, 8, 330, &px, &py);
  g_assert_true (procura_chart_nearest_point (chart, layout, px + 3, py - 2, 10, &series, &index));
  g_assert_cmpuint (series, ==, 1);
  g_assert_cmpuint (index, ==, 3);
  /* H100 at 24 req/s */
  procura_chart_data_to_pixel (layout, 24, 1400, &px, &py);
  g_assert_true (procura_chart_nearest_point (chart, layout, px, py + 4, 10, &series, &index));
  g_assert_cmpuint (series, ==, 0);
  g_assert_cmpuint (index, ==, 5);
  /* nothing near the top-left corner of the plot */
  g_assert_false (procura_chart_nearest_point (chart, layout, plot.x + 2, plot.y + 2, 10, &series, &index));

  /* keyboard: right from the first point, then to the other series at the same x */
  series = 0;
  index = 0;
  g_assert_true (procura_chart_step_point (chart, NULL, &series, &index, 2, 0));
  g_assert_cmpuint (index, ==, 2);
  g_assert_true (procura_chart_step_point (chart, NULL, &series, &index, 0, 1));
  g_assert_cmpuint (series, ==, 1);
  g_assert_cmpuint (index, ==, 2);
  g_assert_true (procura_chart_step_point (chart, NULL, &series, &index, 100, 0));
  g_assert_cmpuint (index, ==, 5);
  g_assert_true (procura_chart_step_point (chart, NULL, &series, &index, -100, 0));
  g_assert_cmpuint (index, ==, 0);

  {
    g_autofree char *text = procura_chart_describe_point (chart, 1, 3);
    g_assert_cmpstr (text, ==, "L40S: 8 req/s, 330 ms, estimate");
  }
  cairo_surface_destroy (surface);
}

static void
test_category_lookup (void)
{
  g_autoptr (ProcuraChart) chart = make_bar_chart ();
  g_autoptr (ProcuraChartLayout) layout = procura_chart_layout_new ();
  cairo_surface_t *surface = render (chart, layout, 500, 300, fixed_theme (FALSE));
  ProcuraChartPlot plot = procura_chart_layout_get_plot (layout);
  double px, py;
  guint series = 99;
  gsize index = 99;

  /* horizontal bars: categories top to bottom, values along x */
  g_assert_true (plot.valid);
  g_assert_cmpfloat (plot.x_lo, ==, 0);
  g_assert_cmpfloat (plot.x_hi, >=, 7227 + 6935 + 2600);
  /* the middle of the API bar's first segment (0 .. 5000) */
  procura_chart_data_to_pixel (layout, 2500, 2, &px, &py);
  g_assert_true (procura_chart_nearest_point (chart, layout, px, py, 10, &series, &index));
  g_assert_cmpuint (index, ==, 2);
  /* the first category sits above the last */
  {
    double y0, y2;
    procura_chart_data_to_pixel (layout, 0, 0, NULL, &y0);
    procura_chart_data_to_pixel (layout, 0, 2, NULL, &y2);
    g_assert_cmpfloat (y0, <, y2);
  }
  {
    g_autofree char *text = procura_chart_describe_point (chart, 1, 0);
    g_assert_cmpstr (text, ==, "H100, Idle: $6.93k");
  }
  cairo_surface_destroy (surface);
}

static void
test_themes (void)
{
  ProcuraChartColor c;

  g_assert_true (procura_chart_theme_by_name (NULL) == procura_chart_theme_light ());
  g_assert_true (procura_chart_theme_by_name ("dark") == procura_chart_theme_dark ());
  g_assert_true (procura_chart_theme_by_name ("high-contrast") == procura_chart_theme_high_contrast ());
  g_assert_null (procura_chart_theme_by_name ("neon"));
  g_assert_true (procura_chart_color_parse ("#3584e4", &c));
  g_assert_cmpfloat_with_epsilon (c.r, 0x35 / 255.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (c.g, 0x84 / 255.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (c.b, 0xe4 / 255.0, 1e-12);
  g_assert_cmpfloat (c.a, ==, 1);
  g_assert_true (procura_chart_color_parse ("#00000080", &c));
  g_assert_cmpfloat_with_epsilon (c.a, 128 / 255.0, 1e-12);
  g_assert_false (procura_chart_color_parse ("3584e4", &c));
  g_assert_false (procura_chart_color_parse ("#3584g4", &c));
  g_assert_false (procura_chart_color_parse ("#358", &c));
  /* light text on dark, dark text on light */
  g_assert_cmpfloat (procura_chart_theme_light ()->foreground.r, <, 0.3);
  g_assert_cmpfloat (procura_chart_theme_dark ()->foreground.r, >, 0.7);
  g_assert_cmpuint (procura_chart_theme_light ()->n_palette, ==, PROCURA_CHART_PALETTE_SIZE);
}

static void
test_pixels (void)
{
  /* The target line, the series colour and the background are where they belong. */
  g_autoptr (ProcuraChart) chart = procura_chart_new ();
  g_autoptr (ProcuraChartLayout) layout = procura_chart_layout_new ();
  const ProcuraChartTheme *theme = fixed_theme (FALSE);
  const double x[] = { 0, 10 };
  const double y[] = { 50, 50 };
  ProcuraChartSeries *s;
  cairo_surface_t *surface;
  double px, py;

  procura_chart_set_axis_range (chart, PROCURA_AXIS_X, 0, 10);
  procura_chart_set_axis_range (chart, PROCURA_AXIS_Y, 0, 100);
  s = procura_chart_add_series (chart, PROCURA_SERIES_LINE, "flat", x, y, 2);
  procura_chart_series_set_dash (s, PROCURA_DASH_SOLID);
  procura_chart_series_set_marker (s, PROCURA_MARKER_NONE);
  surface = render (chart, layout, 400, 300, theme);

  procura_chart_data_to_pixel (layout, 5, 50, &px, &py);
  g_assert_true (close_rgb (pixel (surface, (int) px, (int) floor (py)), rgb (&theme->palette[0]), 40));
  procura_chart_data_to_pixel (layout, 5, 80, &px, &py);
  g_assert_true (close_rgb (pixel (surface, (int) px + 3, (int) py + 3), rgb (&theme->background), 40));
  /* outside the plot, the background too */
  g_assert_true (close_rgb (pixel (surface, 399, 150), rgb (&theme->background), 2));
  cairo_surface_destroy (surface);
}

static guint32
pixel_at (cairo_surface_t          *surface,
          const ProcuraChartLayout *layout,
          double                    x,
          double                    y)
{
  double px, py;

  g_assert_true (procura_chart_data_to_pixel (layout, x, y, &px, &py));
  return pixel (surface, (int) px, (int) floor (py));
}

static void
test_hidden_series (void)
{
  /* A series toggled off in a view's legend is not drawn with that view's layout, not
   * found by its lookup nor its keyboard steps, and its band (a helper series of the
   * same colour) goes with it; the other stays. The choice is the view's, not the
   * spec's: another layout of the same spec (a slide) still draws it, and an export
   * draws what the view it comes from shows. */
  g_autoptr (ProcuraChart) chart = procura_chart_new ();
  g_autoptr (ProcuraChartLayout) layout = procura_chart_layout_new ();
  g_autoptr (ProcuraChartLayout) slide = procura_chart_layout_new ();
  const ProcuraChartTheme *theme = fixed_theme (FALSE);
  const double x[] = { 0, 10 };
  const double low[] = { 30, 30 }, high[] = { 40, 40 }, mid[] = { 35, 35 };
  const double y2[] = { 70, 70 };
  g_autofree char *dir = g_dir_make_tmp ("procura-chart-XXXXXX", NULL);
  g_autofree char *shown_png = g_build_filename (dir, "shown.png", NULL);
  g_autofree char *all_png = g_build_filename (dir, "all.png", NULL);
  g_autoptr (GError) error = NULL;
  ProcuraChartPlot before, after;
  ProcuraChartSeries *s;
  cairo_surface_t *surface, *other;
  double px, py;
  guint series = 99;
  gsize index = 99;

  procura_chart_set_axis_range (chart, PROCURA_AXIS_X, 0, 10);
  procura_chart_set_axis_range (chart, PROCURA_AXIS_Y, 0, 100);
  s = procura_chart_add_series (chart, PROCURA_SERIES_BAND, NULL, x, NULL, 2);
  procura_chart_series_set_range (s, low, high);
  procura_chart_series_set_color (s, 0);
  procura_chart_series_set_in_legend (s, FALSE);
  s = procura_chart_add_series (chart, PROCURA_SERIES_LINE, "first", x, mid, 2);
  procura_chart_series_set_color (s, 0);
  procura_chart_series_set_marker (s, PROCURA_MARKER_NONE);
  s = procura_chart_add_series (chart, PROCURA_SERIES_LINE, "second", x, y2, 2);
  procura_chart_series_set_color (s, 1);
  procura_chart_series_set_marker (s, PROCURA_MARKER_NONE);

  g_assert_false (procura_chart_series_get_in_legend (chart, 0));
  g_assert_true (procura_chart_series_get_in_legend (chart, 1));
  procura_chart_layout_set_series_hidden (layout, "first", TRUE);
  g_assert_true (procura_chart_layout_get_series_hidden (layout, "first"));
  g_assert_false (procura_chart_layout_get_series_hidden (layout, "second"));
  g_assert_false (procura_chart_layout_get_series_hidden (slide, "first"));
  surface = render (chart, layout, 400, 300, theme);
  other = render (chart, slide, 400, 300, theme);

  /* where the first line and its band were: background */
  g_assert_true (close_rgb (pixel_at (surface, layout, 5, 35), rgb (&theme->background), 40));
  g_assert_true (close_rgb (pixel_at (surface, layout, 5, 32), rgb (&theme->background), 40));
  /* the second line is drawn */
  g_assert_true (close_rgb (pixel_at (surface, layout, 5, 70), rgb (&theme->palette[1]), 40));
  /* the other view of the same spec draws the first line and finds it */
  g_assert_true (close_rgb (pixel_at (other, slide, 5, 35), rgb (&theme->palette[0]), 40));
  procura_chart_data_to_pixel (slide, 10, 35, &px, &py);
  g_assert_true (procura_chart_nearest_point (chart, slide, px, py, 8, &series, &index));
  g_assert_cmpuint (series, ==, 1);
  /* the lookup at a point of the hidden line finds nothing; at the visible one, it */
  procura_chart_data_to_pixel (layout, 10, 35, &px, &py);
  g_assert_false (procura_chart_nearest_point (chart, layout, px, py, 8, &series, &index));
  procura_chart_data_to_pixel (layout, 10, 70, &px, &py);
  g_assert_true (procura_chart_nearest_point (chart, layout, px, py, 8, &series, &index));
  g_assert_cmpuint (series, ==, 2);
  /* the keyboard skips the hidden series in this view only */
  series = 1;
  index = 0;
  g_assert_true (procura_chart_step_point (chart, layout, &series, &index, 0, 0));
  g_assert_cmpuint (series, ==, 2);
  series = 1;
  g_assert_true (procura_chart_step_point (chart, slide, &series, &index, 0, 0));
  g_assert_cmpuint (series, ==, 1);
  cairo_surface_destroy (surface);
  cairo_surface_destroy (other);

  /* an export as this view shows it leaves the series out and leaves the view's layout
   * as drawn; a plain export draws everything */
  before = procura_chart_layout_get_plot (layout);
  g_assert_true (procura_chart_write_file_as_shown (chart, layout, shown_png, 400, 300, theme, &error));
  g_assert_no_error (error);
  g_assert_true (procura_chart_write_file (chart, all_png, 400, 300, theme, &error));
  g_assert_no_error (error);
  after = procura_chart_layout_get_plot (layout);
  g_assert_true (memcmp (&before, &after, sizeof before) == 0);
  g_assert_true (procura_chart_layout_get_series_hidden (layout, "first"));
  surface = cairo_image_surface_create_from_png (shown_png);
  other = cairo_image_surface_create_from_png (all_png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_surface_status (other), ==, CAIRO_STATUS_SUCCESS);
  g_assert_true (close_rgb (pixel_at (surface, layout, 5, 35), rgb (&theme->background), 40));
  g_assert_true (close_rgb (pixel_at (surface, layout, 5, 70), rgb (&theme->palette[1]), 40));
  g_assert_true (close_rgb (pixel_at (other, layout, 5, 35), rgb (&theme->palette[0]), 40));
  cairo_surface_destroy (surface);
  cairo_surface_destroy (other);
  g_unlink (shown_png);
  g_unlink (all_png);
  g_rmdir (dir);

  /* shown again: drawn again */
  procura_chart_layout_set_series_hidden (layout, "first", FALSE);
  surface = render (chart, layout, 400, 300, theme);
  g_assert_true (close_rgb (pixel_at (surface, layout, 5, 35), rgb (&theme->palette[0]), 40));
  cairo_surface_destroy (surface);
}

static void
test_decimated_drawing (void)
{
  /* 2 M points, flat at 10 with one spike to 90 and one dip to 0: the drawn
   * envelope must reach both, at the right columns. */
  g_autoptr (ProcuraChart) chart = procura_chart_new ();
  g_autoptr (ProcuraChartLayout) layout = procura_chart_layout_new ();
  const ProcuraChartTheme *theme = fixed_theme (FALSE);
  gsize n = 2000000;
  double *y = g_new (double, n);
  cairo_surface_t *surface;
  double px, py, py_top, py_dip;
  gboolean spike = FALSE, dip = FALSE;
  guint series;
  gsize index;

  for (gsize i = 0; i < n; i++)
    y[i] = 10;
  y[700001] = 90;
  y[1500000] = 0;
  procura_chart_set_axis_range (chart, PROCURA_AXIS_Y, 0, 100);
  procura_chart_set_axis_range (chart, PROCURA_AXIS_X, 0, n - 1);
  procura_chart_add_series_take (chart, PROCURA_SERIES_LINE, "ttft", NULL, y, n);
  surface = render (chart, layout, 500, 300, theme);

  procura_chart_data_to_pixel (layout, 700001, 90, &px, &py_top);
  for (int dx = -1; dx <= 1; dx++)
    spike |= close_rgb (pixel (surface, (int) px + dx, (int) py_top + 1), rgb (&theme->palette[0]), 40);
  g_assert_true (spike);
  procura_chart_data_to_pixel (layout, 1500000, 0, &px, &py_dip);
  for (int dx = -1; dx <= 1; dx++)
    dip |= close_rgb (pixel (surface, (int) px + dx, (int) py_dip - 1), rgb (&theme->palette[0]), 40);
  g_assert_true (dip);
  /* half way up between 10 and 90, away from the spike: nothing drawn */
  procura_chart_data_to_pixel (layout, 300000, 50, &px, &py);
  g_assert_true (close_rgb (pixel (surface, (int) px, (int) py), rgb (&theme->background), 40));

  /* the lookup finds the spike among 2 M points */
  procura_chart_data_to_pixel (layout, 700001, 90, &px, &py);
  g_assert_true (procura_chart_nearest_point (chart, layout, px, py, 6, &series, &index));
  g_assert_cmpuint (index, ==, 700001);
  cairo_surface_destroy (surface);
}

static void
test_summary_and_table (void)
{
  g_autoptr (ProcuraChart) chart = make_latency_chart ();
  g_autoptr (ProcuraChart) bars = make_bar_chart ();
  g_autoptr (ProcuraChart) empty = procura_chart_new ();
  g_autofree char *summary = procura_chart_summary (chart);
  g_autofree char *bar_summary = procura_chart_summary (bars);
  g_autofree char *empty_summary = NULL;
  g_autoptr (GPtrArray) table = procura_chart_table (chart, 0);
  g_autoptr (GPtrArray) bar_table = procura_chart_table (bars, 0);
  g_autoptr (GPtrArray) short_table = NULL;
  char **row;

  g_assert_cmpstr (summary, ==,
                   "p99 TTFT against load: line chart of p99 TTFT against Request rate for 2 series "
                   "(H100, L40S (estimate)); Request rate from 1 req/s to 24 req/s; p99 TTFT from "
                   "120 ms to 1.4 s; target 800 ms; H100 18 req/s.");
  g_assert_nonnull (strstr (bar_summary, "horizontal stacked bar chart of Cost for 3 categories (H100, L40S, API)"));
  g_assert_nonnull (strstr (bar_summary, "in 3 parts (Compute, Idle, Other)"));
  /* totals: 7227 + 6935 + 2600 = 16762, 3000 + 1200 + 2600 = 6800, 5000 + 0 + 300 = 5300 */
  g_assert_nonnull (strstr (bar_summary, "totals from $5.3k to $16.8k"));
  g_assert_nonnull (strstr (bar_summary, "L40S struck out: misses target"));

  procura_chart_set_title (empty, "Nothing");
  procura_chart_set_message (empty, "No runs yet");
  empty_summary = procura_chart_summary (empty);
  g_assert_cmpstr (empty_summary, ==, "Nothing: No runs yet");

  /* header + 12 points */
  g_assert_cmpuint (table->len, ==, 13);
  row = table->pdata[0];
  g_assert_cmpstr (row[0], ==, "Series");
  g_assert_cmpstr (row[2], ==, "p99 TTFT");
  row = table->pdata[6];
  g_assert_cmpstr (row[0], ==, "H100");
  g_assert_cmpstr (row[1], ==, "24 req/s");
  g_assert_cmpstr (row[2], ==, "1.4 s");
  short_table = procura_chart_table (chart, 2);
  g_assert_cmpuint (short_table->len, ==, 1 + 2 + 2);

  g_assert_cmpuint (bar_table->len, ==, 4);
  row = bar_table->pdata[1];
  g_assert_cmpstr (row[0], ==, "H100");
  g_assert_cmpstr (row[1], ==, "$7.23k");
  g_assert_cmpstr (row[2], ==, "$6.93k");
  row = bar_table->pdata[2];
  g_assert_cmpstr (row[0], ==, "L40S (struck out: misses target)");
}

static void
test_degenerate_draws (void)
{
  /* None of these may crash or leave cairo in an error state. */
  const double one_x[] = { 5 }, one_y[] = { 7 };
  const double nan_y[] = { NAN, NAN, NAN };
  const double neg[] = { -3, -1, -2 };
  const ProcuraChartTheme *theme = fixed_theme (FALSE);
  for (int k = 0; k < 8; k++)
    {
      g_autoptr (ProcuraChart) chart = procura_chart_new ();
      cairo_surface_t *surface;

      switch (k)
        {
        case 0:
          break;   /* nothing at all */
        case 1:
          procura_chart_add_series (chart, PROCURA_SERIES_LINE, "one", one_x, one_y, 1);
          break;
        case 2:
          procura_chart_add_series (chart, PROCURA_SERIES_SCATTER, "nan", NULL, nan_y, 3);
          break;
        case 3:
          procura_chart_set_axis (chart, PROCURA_AXIS_Y, "log", PROCURA_UNIT_MS, PROCURA_SCALE_LOG);
          procura_chart_add_series (chart, PROCURA_SERIES_LINE, "negative on log", NULL, neg, 3);
          break;
        case 4:
          procura_chart_set_categories (chart, NULL, 0);
          procura_chart_add_series (chart, PROCURA_SERIES_BAR, "no categories", NULL, neg, 3);
          break;
        case 5:
          {
            const char *cats[] = { "a" };
            procura_chart_set_categories (chart, cats, 1);
            procura_chart_add_series (chart, PROCURA_SERIES_STACKED_BAR, "negative", NULL, neg, 1);
            procura_chart_add_hline (chart, NAN, "nan line");
          }
          break;
        case 6:
          procura_chart_set_axis_range (chart, PROCURA_AXIS_X, 10, 10);
          procura_chart_add_series (chart, PROCURA_SERIES_STEP, "zero range", one_x, one_y, 1);
          procura_chart_add_callout (chart, 5, 7, "a callout with a rather long text that must wrap");
          break;
        case 7:
          procura_chart_add_series (chart, PROCURA_SERIES_BAND, "band without range", one_x, one_y, 1);
          procura_chart_add_shaded (chart, NAN, NAN, NAN, NAN, "everything");
          break;
        default:
          break;
        }
      surface = render (chart, NULL, 300, 200, theme);
      cairo_surface_destroy (surface);
      /* tiny sizes draw nothing and do not crash */
      surface = render (chart, NULL, 10, 10, theme);
      cairo_surface_destroy (surface);
    }
}

/* ------------------------------------------------------------------------- */
/* Files                                                                      */

static char *
read_file (const char *path,
           gsize      *len)
{
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, len, NULL));
  return contents;
}

static guint
count_pdf_pages (const char *contents,
                 gsize       len)
{
  g_autoptr (GRegex) re = g_regex_new ("/Type\\s*/Page[^s]", G_REGEX_RAW, 0, NULL);
  g_autoptr (GMatchInfo) info = NULL;
  guint n = 0;

  g_regex_match_full (re, contents, len, 0, 0, &info, NULL);
  while (g_match_info_matches (info))
    {
      n++;
      g_match_info_next (info, NULL);
    }
  return n;
}

typedef struct {
  guint depth_max, depth, elements;
  gboolean root_svg;
} SvgCheck;

static void
svg_start (GMarkupParseContext  *ctx,
           const char           *name,
           const char          **attr_names,
           const char          **attr_values,
           gpointer              user_data,
           GError              **error)
{
  SvgCheck *check = user_data;

  if (check->depth == 0)
    check->root_svg = g_str_equal (name, "svg");
  check->depth++;
  check->elements++;
  check->depth_max = MAX (check->depth_max, check->depth);
}

static void
svg_end (GMarkupParseContext  *ctx,
         const char           *name,
         gpointer              user_data,
         GError              **error)
{
  ((SvgCheck *) user_data)->depth--;
}

static void
assert_svg_well_formed (const char *path)
{
  GMarkupParser parser = { svg_start, svg_end, NULL, NULL, NULL };
  SvgCheck check = { 0 };
  g_autofree char *contents = NULL;
  gsize len;
  GMarkupParseContext *ctx;
  g_autoptr (GError) error = NULL;

  contents = read_file (path, &len);
  ctx = g_markup_parse_context_new (&parser, 0, &check, NULL);
  g_assert_true (g_markup_parse_context_parse (ctx, contents, len, &error));
  g_assert_no_error (error);
  g_assert_true (g_markup_parse_context_end_parse (ctx, &error));
  g_assert_no_error (error);
  g_markup_parse_context_free (ctx);
  g_assert_true (check.root_svg);
  g_assert_cmpuint (check.depth, ==, 0);
  g_assert_cmpuint (check.elements, >, 10);
}

static void
test_write_files (void)
{
  g_autoptr (ProcuraChart) chart = make_latency_chart ();
  g_autoptr (ProcuraChart) bars = make_bar_chart ();
  g_autoptr (ProcuraChart) empty = procura_chart_new ();
  g_autofree char *dir = g_dir_make_tmp ("procura-chart-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "a.png", NULL);
  g_autofree char *png2 = g_build_filename (dir, "a2.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "a.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "a.pdf", NULL);
  g_autofree char *pdf3 = g_build_filename (dir, "three.pdf", NULL);
  g_autofree char *bad = g_build_filename (dir, "no-such-dir", "a.png", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  cairo_surface_t *surface;
  ProcuraChart *three[3];
  gsize len;

  g_assert_true (procura_chart_write_png (chart, png, 320, 200, 1, NULL, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 320);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 200);
  cairo_surface_destroy (surface);

  /* HiDPI: twice the pixels */
  g_assert_true (procura_chart_write_png (chart, png2, 320, 200, 2, procura_chart_theme_dark (), &error));
  surface = cairo_image_surface_create_from_png (png2);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 640);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 400);
  cairo_surface_destroy (surface);

  g_assert_true (procura_chart_write_file (chart, svg, 400, 250, NULL, &error));
  g_assert_no_error (error);
  assert_svg_well_formed (svg);

  g_assert_true (procura_chart_write_file (chart, pdf, 400, 250, NULL, &error));
  contents = read_file (pdf, &len);
  g_assert_true (g_str_has_prefix (contents, "%PDF-"));
  g_assert_cmpuint (count_pdf_pages (contents, len), ==, 1);
  g_clear_pointer (&contents, g_free);

  three[0] = chart;
  three[1] = bars;
  three[2] = empty;
  g_assert_true (procura_chart_write_pdf_pages (three, 3, pdf3, 400, 250, NULL, &error));
  contents = read_file (pdf3, &len);
  g_assert_cmpuint (count_pdf_pages (contents, len), ==, 3);

  /* errors name the file */
  g_assert_false (procura_chart_write_png (chart, bad, 320, 200, 1, NULL, &error));
  g_assert_error (error, PROCURA_CHART_ERROR, PROCURA_CHART_ERROR_WRITE);
  g_assert_nonnull (strstr (error->message, "no-such-dir"));
  g_clear_error (&error);
  g_assert_false (procura_chart_write_file (chart, "chart.gif", 320, 200, NULL, &error));
  g_assert_error (error, PROCURA_CHART_ERROR, PROCURA_CHART_ERROR_FORMAT);
  g_clear_error (&error);
  g_assert_false (procura_chart_write_png (chart, png, 0, 200, 1, NULL, &error));
  g_assert_error (error, PROCURA_CHART_ERROR, PROCURA_CHART_ERROR_SIZE);
  g_clear_error (&error);

  g_unlink (png);
  g_unlink (png2);
  g_unlink (svg);
  g_unlink (pdf);
  g_unlink (pdf3);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------------- */
/* Reference images                                                           */

static gboolean
have_dejavu (void)
{
  PangoFontMap *map = pango_cairo_font_map_get_default ();
  PangoContext *ctx = pango_font_map_create_context (map);
  PangoFontDescription *desc = pango_font_description_from_string ("DejaVu Sans 11");
  PangoFont *font = pango_font_map_load_font (map, ctx, desc);
  gboolean ok = FALSE;

  pango_font_description_free (desc);
  if (font != NULL)
    {
      PangoFontDescription *got = pango_font_describe (font);

      ok = g_strcmp0 (pango_font_description_get_family (got), "DejaVu Sans") == 0;
      pango_font_description_free (got);
      g_object_unref (font);
    }
  g_object_unref (ctx);
  return ok;
}

/* Antialiasing may move a little; the picture may not: at most 1 pixel in 1000 off by
 * more than 48 in a channel, and a mean difference under 0.5 per channel. */
static gboolean
images_match (cairo_surface_t *got,
              cairo_surface_t *want,
              const char      *name)
{
  int w = cairo_image_surface_get_width (want);
  int h = cairo_image_surface_get_height (want);
  double sum = 0, mean;
  gsize bad = 0;

  if (w != cairo_image_surface_get_width (got) || h != cairo_image_surface_get_height (got))
    return FALSE;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        guint32 a = pixel (got, x, y), b = pixel (want, x, y);
        int worst = 0;

        for (int shift = 0; shift <= 16; shift += 8)
          {
            int d = abs ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff));
            sum += d;
            worst = MAX (worst, d);
          }
        if (worst > 48)
          bad++;
      }
  mean = sum / (3.0 * w * h);
  g_test_message ("%s: mean difference %.3f, %" G_GSIZE_FORMAT " pixels off", name, mean, bad);
  return mean < 0.5 && bad <= (gsize) (w * h / 1000);
}

static void
compare_with_reference (ProcuraChart *chart,
                        const char   *name,
                        gboolean      dark)
{
  g_autofree char *ref_path = g_build_filename (CHART_REFERENCE_DIR, name, NULL);
  cairo_surface_t *got = render (chart, NULL, 360, 220, fixed_theme (dark));
  cairo_surface_t *want;

  if (g_getenv ("PROCURA_UPDATE_REFERENCES"))
    {
      g_assert_cmpint (cairo_surface_write_to_png (got, ref_path), ==, CAIRO_STATUS_SUCCESS);
      g_test_message ("wrote %s", ref_path);
    }
  want = cairo_image_surface_create_from_png (ref_path);
  g_assert_cmpint (cairo_surface_status (want), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (want), ==, 360);
  g_assert_cmpint (cairo_image_surface_get_height (want), ==, 220);
  g_assert_true (images_match (got, want, name));
  cairo_surface_destroy (got);
  cairo_surface_destroy (want);
}

static void
test_reference_images (void)
{
  g_autoptr (ProcuraChart) lines = NULL;
  g_autoptr (ProcuraChart) bars = NULL;
  g_autoptr (ProcuraChart) empty = NULL;

  if (!have_dejavu ())
    {
      g_test_skip ("DejaVu Sans is not installed (fonts-dejavu-core): no reference comparison");
      return;
    }
  lines = make_latency_chart ();
  bars = make_bar_chart ();
  empty = procura_chart_new ();
  procura_chart_set_title (empty, "Latency");
  procura_chart_set_message (empty, "No benchmark runs yet");
  compare_with_reference (lines, "lines-light.png", FALSE);
  compare_with_reference (lines, "lines-dark.png", TRUE);
  compare_with_reference (bars, "bars-light.png", FALSE);
  compare_with_reference (empty, "empty-light.png", FALSE);
}

static void
test_reference_detects_change (void)
{
  /* The comparison must fail for real changes: another threshold line, a series
   * struck out, the dark theme instead of the light one. */
  g_autoptr (ProcuraChart) a = make_latency_chart ();
  g_autoptr (ProcuraChart) b = make_latency_chart ();
  g_autoptr (ProcuraChart) c = make_latency_chart ();
  const double x[] = { 1, 24 }, y[] = { 100, 100 };
  cairo_surface_t *sa, *sb, *sc, *sd;

  procura_chart_add_hline (b, 400, "other");
  procura_chart_add_series (c, PROCURA_SERIES_LINE, NULL, x, y, 2);
  sa = render (a, NULL, 360, 220, fixed_theme (FALSE));
  sb = render (b, NULL, 360, 220, fixed_theme (FALSE));
  sc = render (c, NULL, 360, 220, fixed_theme (FALSE));
  sd = render (a, NULL, 360, 220, fixed_theme (TRUE));
  g_assert_true (images_match (sa, sa, "same"));
  g_assert_false (images_match (sb, sa, "extra line"));
  g_assert_false (images_match (sc, sa, "extra series"));
  g_assert_false (images_match (sd, sa, "dark"));
  cairo_surface_destroy (sa);
  cairo_surface_destroy (sb);
  cairo_surface_destroy (sc);
  cairo_surface_destroy (sd);
}

static void
test_layout_per_view (void)
{
  /* One spec, two views at two sizes: each hit-tests with its own layout, and drawing
   * one never moves the other's geometry. */
  g_autoptr (ProcuraChart) chart = make_latency_chart ();
  g_autoptr (ProcuraChart) other = make_bar_chart ();
  g_autoptr (ProcuraChartLayout) big = procura_chart_layout_new ();
  g_autoptr (ProcuraChartLayout) small = procura_chart_layout_new ();
  ProcuraChartPlot before, after;
  cairo_surface_t *sa, *sb;
  double ax, ay, bx, by;
  guint series = 99;
  gsize index = 99;

  sa = render (chart, big, 640, 400, fixed_theme (FALSE));
  before = procura_chart_layout_get_plot (big);
  sb = render (chart, small, 320, 200, fixed_theme (FALSE));
  after = procura_chart_layout_get_plot (big);
  g_assert_true (memcmp (&before, &after, sizeof before) == 0);
  g_assert_true (procura_chart_layout_get_plot (small).valid);
  g_assert_cmpfloat (procura_chart_layout_get_plot (small).width, <, before.width);

  /* L40S at 8 req/s, where each view drew it */
  g_assert_true (procura_chart_data_to_pixel (big, 8, 330, &ax, &ay));
  g_assert_true (procura_chart_data_to_pixel (small, 8, 330, &bx, &by));
  g_assert_cmpfloat (hypot (ax - bx, ay - by), >, 40);
  g_assert_true (procura_chart_nearest_point (chart, big, ax, ay, 8, &series, &index));
  g_assert_cmpuint (series, ==, 1);
  g_assert_cmpuint (index, ==, 3);
  series = 99;
  index = 99;
  g_assert_true (procura_chart_nearest_point (chart, small, bx, by, 8, &series, &index));
  g_assert_cmpuint (series, ==, 1);
  g_assert_cmpuint (index, ==, 3);
  /* the big view's pixel means nothing in the small view */
  if (procura_chart_nearest_point (chart, small, ax, ay, 8, &series, &index))
    g_assert_false (series == 1 && index == 3);
  /* a layout drawn from another spec answers nothing for this one */
  cairo_surface_destroy (render (other, small, 320, 200, fixed_theme (FALSE)));
  g_assert_false (procura_chart_nearest_point (chart, small, bx, by, 8, &series, &index));
  g_assert_true (procura_chart_nearest_point (chart, big, ax, ay, 8, &series, &index));

  /* both views' texts are legible, each at its own size */
  chart_assert_legible (big, "latency", 640, 400, NULL);
  cairo_surface_destroy (sa);
  cairo_surface_destroy (sb);
}

static guint
count_texts (const ProcuraChartLayout *layout,
             ProcuraChartTextKind      kind)
{
  guint n = 0;

  for (guint i = 0; i < procura_chart_layout_get_n_texts (layout); i++)
    n += procura_chart_layout_get_text (layout, i)->kind == kind;
  return n;
}

static void
test_reserved_corner (void)
{
  /* A long title runs under a card's buttons unless the area is reserved; then it
   * wraps short of them. */
  g_autoptr (ProcuraChart) chart = make_latency_chart ();
  g_autoptr (ProcuraChartLayout) plain = procura_chart_layout_new ();
  g_autoptr (ProcuraChartLayout) card = procura_chart_layout_new ();
  double reserved[4] = { 640 - 170, 0, 170, 40 };
  const ProcuraChartTextBox *title = NULL;
  gboolean under = FALSE;

  procura_chart_set_title (chart, "p99 time to first token against the request rate, per candidate");
  cairo_surface_destroy (render (chart, plain, 640, 400, fixed_theme (FALSE)));
  for (guint i = 0; i < procura_chart_layout_get_n_texts (plain); i++)
    {
      const ProcuraChartTextBox *b = procura_chart_layout_get_text (plain, i);
      ProcuraChartTextBox r = { 0, reserved[0], reserved[1], reserved[2], reserved[3], NULL, FALSE, 1 };

      under |= chart_boxes_overlap (b, &r);
    }
  g_assert_true (under);   /* without the reservation: this test can fail */

  procura_chart_layout_set_reserved (card, -170, 0, 170, 40);
  cairo_surface_destroy (render (chart, card, 640, 400, fixed_theme (FALSE)));
  chart_assert_legible (card, "reserved", 640, 400, reserved);
  for (guint i = 0; i < procura_chart_layout_get_n_texts (card); i++)
    if (procura_chart_layout_get_text (card, i)->kind == PROCURA_CHART_TEXT_TITLE)
      title = procura_chart_layout_get_text (card, i);
  g_assert_nonnull (title);
  g_assert_cmpstr (title->text, ==, "p99 time to first token against the request rate, per candidate");
  g_assert_false (title->truncated);
}

static void
test_labels_never_collide (void)
{
  /* Twelve labels on one crowded spot of a small chart: each is moved clear, given a
   * leader line, or dropped to the notes with a number; no two texts overlap. */
  g_autoptr (ProcuraChart) chart = make_latency_chart ();
  g_autoptr (ProcuraChartLayout) layout = procura_chart_layout_new ();
  g_autofree char *axis = g_strdup ("a very long axis title that cannot fit along a small plot at all, "
                                    "so it is ellipsized with the whole text kept for the tooltip");
  guint annotations, numbers, notes;

  for (guint i = 0; i < 12; i++)
    {
      g_autofree char *label = g_strdup_printf ("label number %u", i + 1);
      procura_chart_add_label (chart, 8 + 0.1 * i, 330, label);
    }
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, axis, PROCURA_UNIT_MS, PROCURA_SCALE_LINEAR);
  cairo_surface_destroy (render (chart, layout, 360, 240, fixed_theme (FALSE)));
  chart_assert_legible (layout, "crowded", 360, 240, NULL);

  annotations = count_texts (layout, PROCURA_CHART_TEXT_ANNOTATION);
  numbers = count_texts (layout, PROCURA_CHART_TEXT_NOTE_NUMBER);
  notes = count_texts (layout, PROCURA_CHART_TEXT_NOTE);
  /* the marker's and target's labels plus the twelve: every one is somewhere */
  g_assert_cmpuint (notes, >, 0);
  g_assert_cmpuint (numbers, <=, notes);
  g_assert_cmpuint (annotations + notes, ==, 14);
  /* the axis title was cut, and says so with its whole text */
  for (guint i = 0; i < procura_chart_layout_get_n_texts (layout); i++)
    {
      const ProcuraChartTextBox *b = procura_chart_layout_get_text (layout, i);

      if (b->kind == PROCURA_CHART_TEXT_AXIS_TITLE && g_str_has_prefix (b->text, "a very long"))
        {
          g_assert_true (b->truncated);
          g_assert_cmpstr (b->text, ==, axis);
          g_assert_cmpstr (procura_chart_layout_truncated_text_at (layout, b->x + b->width / 2,
                                                                   b->y + b->height / 2), ==, axis);
        }
    }
}

/* Our PNG writer against cairo's: the same pixels once decoded, opaque (RGB, as every
 * chart) and translucent (RGBA, colours unpremultiplied); and nothing for a surface that
 * is not an ARGB32 image. */
typedef struct {
  const guint8 *data;
  gsize         len;
  gsize         pos;
} PngReader;

static cairo_status_t
png_read_cb (void          *closure,
             unsigned char *data,
             unsigned int   length)
{
  PngReader *r = closure;

  if (r->pos + length > r->len)
    return CAIRO_STATUS_READ_ERROR;
  memcpy (data, r->data + r->pos, length);
  r->pos += length;
  return CAIRO_STATUS_SUCCESS;
}

static cairo_status_t
png_append_cb (void                *closure,
               const unsigned char *data,
               unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static cairo_surface_t *
png_decode (GByteArray *bytes)
{
  PngReader r = { bytes->data, bytes->len, 0 };
  cairo_surface_t *s = cairo_image_surface_create_from_png_stream (png_read_cb, &r);

  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  return s;
}

static void
assert_same_pixels (cairo_surface_t *a,
                    cairo_surface_t *b)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);

  g_assert_cmpint (cairo_image_surface_get_width (b), ==, w);
  g_assert_cmpint (cairo_image_surface_get_height (b), ==, h);
  cairo_surface_flush (a);
  cairo_surface_flush (b);
  for (int y = 0; y < h; y++)
    {
      const guint32 *ra = (const guint32 *) (const void *) (cairo_image_surface_get_data (a) + y * cairo_image_surface_get_stride (a));
      const guint32 *rb = (const guint32 *) (const void *) (cairo_image_surface_get_data (b) + y * cairo_image_surface_get_stride (b));

      for (int x = 0; x < w; x++)
        if (ra[x] != rb[x])
          g_error ("pixel (%d, %d): 0x%08x against cairo's 0x%08x", x, y, ra[x], rb[x]);
    }
}

static void
check_png_like_cairo (cairo_surface_t *surface,
                      int              color_type)
{
  g_autoptr (GByteArray) ours = g_byte_array_new ();
  g_autoptr (GByteArray) theirs = g_byte_array_new ();
  cairo_surface_t *a, *b;

  g_assert_true (procura_chart_png_encode (surface, ours));
  g_assert_cmpint (cairo_surface_write_to_png_stream (surface, png_append_cb, theirs), ==, CAIRO_STATUS_SUCCESS);
  /* the signature, then IHDR: 8 bits a channel, the colour type at byte 25 */
  g_assert_cmpuint (ours->len, >, 33);
  g_assert_cmpint (memcmp (ours->data, "\x89PNG\r\n\x1a\n", 8), ==, 0);
  g_assert_cmpint (ours->data[24], ==, 8);
  g_assert_cmpint (ours->data[25], ==, color_type);
  g_assert_cmpint (theirs->data[25], ==, color_type);
  a = png_decode (ours);
  b = png_decode (theirs);
  assert_same_pixels (a, b);
  cairo_surface_destroy (a);
  cairo_surface_destroy (b);
}

static void
test_png_like_cairo (void)
{
  g_autoptr (ProcuraChart) chart = make_latency_chart ();
  g_autoptr (GByteArray) out = g_byte_array_new ();
  cairo_surface_t *surface, *recording;
  cairo_pattern_t *gradient;
  cairo_t *cr;

  /* a chart: opaque */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 640, 400);
  cr = cairo_create (surface);
  procura_chart_draw (chart, NULL, cr, 640, 400, procura_chart_theme_dark ());
  cairo_destroy (cr);
  check_png_like_cairo (surface, 2);
  cairo_surface_destroy (surface);

  /* every alpha from 0 to 255 over every colour level */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 256, 64);
  cr = cairo_create (surface);
  gradient = cairo_pattern_create_linear (0, 0, 256, 0);
  cairo_pattern_add_color_stop_rgba (gradient, 0, 1, 0.2, 0.7, 0);
  cairo_pattern_add_color_stop_rgba (gradient, 1, 0.1, 0.9, 0.4, 1);
  cairo_set_source (cr, gradient);
  cairo_rectangle (cr, 0, 0, 256, 32);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, 0.93, 0.51, 0.02, 0.37);
  cairo_arc (cr, 128, 40, 30, 0, 2 * G_PI);
  cairo_fill (cr);
  cairo_pattern_destroy (gradient);
  cairo_destroy (cr);
  check_png_like_cairo (surface, 6);
  cairo_surface_destroy (surface);

  /* not an ARGB32 image: nothing written */
  recording = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  g_byte_array_append (out, (const guint8 *) "x", 1);
  g_assert_false (procura_chart_png_encode (recording, out));
  g_assert_cmpuint (out->len, ==, 1);
  cairo_surface_destroy (recording);
  surface = cairo_image_surface_create (CAIRO_FORMAT_A8, 16, 16);
  g_assert_false (procura_chart_png_encode (surface, out));
  g_assert_cmpuint (out->len, ==, 1);
  cairo_surface_destroy (surface);
}

/* PNG files written by the queue's worker are those procura_chart_write_png() writes,
 * byte for byte; a file that cannot be written is reported by _finish, naming it, and
 * the others are written all the same; _free waits for what is still queued. */
static void
test_png_queue (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autoptr (ProcuraChart) chart = make_latency_chart ();
  g_autoptr (GError) error = NULL;
  ProcuraChartPngQueue *queue = procura_chart_png_queue_new ();
  g_autofree char *bad = g_build_filename (dir, "missing", "x.png", NULL);

  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *name = g_strdup_printf ("q%u.png", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_assert_true (procura_chart_png_queue_add (queue, chart, path, 400 + 40 * i, 300, 1.0 + 0.5 * (i % 2),
                                                  procura_chart_theme_light (), &error));
      g_assert_no_error (error);
    }
  g_assert_true (procura_chart_png_queue_finish (queue, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *name = g_strdup_printf ("q%u.png", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *ref = g_build_filename (dir, "ref.png", NULL);
      g_autofree char *a = NULL, *b = NULL;
      gsize la = 0, lb = 0;

      g_assert_true (procura_chart_write_png (chart, ref, 400 + 40 * i, 300, 1.0 + 0.5 * (i % 2),
                                              procura_chart_theme_light (), &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &a, &la, NULL));
      g_assert_true (g_file_get_contents (ref, &b, &lb, NULL));
      g_assert_cmpuint (la, >, 1000);
      g_assert_cmpmem (a, la, b, lb);
    }

  /* a failure among good files: reported once, by _finish, naming the file */
  {
    g_autofree char *after = g_build_filename (dir, "after.png", NULL);

    g_assert_true (procura_chart_png_queue_add (queue, chart, bad, 400, 300, 1, procura_chart_theme_light (), &error));
    g_assert_true (procura_chart_png_queue_add (queue, chart, after, 400, 300, 1, procura_chart_theme_light (), &error));
    g_assert_no_error (error);
    g_assert_false (procura_chart_png_queue_finish (queue, &error));
    g_assert_error (error, PROCURA_CHART_ERROR, PROCURA_CHART_ERROR_WRITE);
    g_assert_nonnull (strstr (error->message, bad));
    g_clear_error (&error);
    g_assert_true (g_file_test (after, G_FILE_TEST_IS_REGULAR));
    /* the failure is not reported twice */
    g_assert_true (procura_chart_png_queue_finish (queue, &error));
    g_assert_no_error (error);
  }

  /* a size out of range fails at once, on the caller's thread */
  g_assert_false (procura_chart_png_queue_add (queue, chart, bad, -1, 300, 1, procura_chart_theme_light (), &error));
  g_assert_error (error, PROCURA_CHART_ERROR, PROCURA_CHART_ERROR_SIZE);
  g_clear_error (&error);

  /* _free waits for the files still queued */
  {
    g_autofree char *last = g_build_filename (dir, "last.png", NULL);

    g_assert_true (procura_chart_png_queue_add (queue, chart, last, 1200, 720, 2, procura_chart_theme_dark (), &error));
    procura_chart_png_queue_free (queue);
    g_assert_true (g_file_test (last, G_FILE_TEST_IS_REGULAR));
  }
  procura_test_rmtree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chart/draw/layout-and-lookup", test_layout_and_lookup);
  g_test_add_func ("/chart/png-queue", test_png_queue);
  g_test_add_func ("/chart/draw/pixels", test_pixels);
  g_test_add_func ("/chart/draw/hidden-series", test_hidden_series);
  g_test_add_func ("/chart/draw/category-lookup", test_category_lookup);
  g_test_add_func ("/chart/draw/layout-per-view", test_layout_per_view);
  g_test_add_func ("/chart/draw/reserved-corner", test_reserved_corner);
  g_test_add_func ("/chart/draw/labels-never-collide", test_labels_never_collide);
  g_test_add_func ("/chart/themes", test_themes);
  g_test_add_func ("/chart/draw/decimated", test_decimated_drawing);
  g_test_add_func ("/chart/draw/degenerate", test_degenerate_draws);
  g_test_add_func ("/chart/summary-and-table", test_summary_and_table);
  g_test_add_func ("/chart/write-files", test_write_files);
  g_test_add_func ("/chart/png-like-cairo", test_png_like_cairo);
  g_test_add_func ("/chart/reference-images", test_reference_images);
  g_test_add_func ("/chart/reference-detects-change", test_reference_detects_change);

  return g_test_run ();
}
