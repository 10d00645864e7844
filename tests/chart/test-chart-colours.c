/* test-chart-colours.c: legible text and series colours told apart with a CVD
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every text a chart draws, in the opacity it is drawn with, has a contrast of at least
 * 4.5:1 (WCAG 2 relative luminance) against the light, dark and high-contrast
 * backgrounds; and any two colours of each palette stay apart as seen with normal
 * vision, deuteranopia and protanopia, simulated with the matrices of Machado,
 * Oliveira and Fernandes (2009, severity 1) and compared in CIELAB (D65).
 */
#include "config.h"

#include <math.h>

#include <cairo.h>

#include "procura-chart.h"

/* ------------------------------------------------------------------------- */
/* Colour science                                                             */

static double
to_linear (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
luminance (const ProcuraChartColor *c)
{
  return 0.2126 * to_linear (c->r) + 0.7152 * to_linear (c->g) + 0.0722 * to_linear (c->b);
}

static double
contrast (const ProcuraChartColor *a,
          const ProcuraChartColor *b)
{
  double la = luminance (a), lb = luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

/* @fg at @opacity over @bg, as cairo blends (in sRGB values) */
static ProcuraChartColor
over (const ProcuraChartColor *fg,
      double                   opacity,
      const ProcuraChartColor *bg)
{
  double a = fg->a * opacity;

  return (ProcuraChartColor) { fg->r * a + bg->r * (1 - a), fg->g * a + bg->g * (1 - a),
                               fg->b * a + bg->b * (1 - a), 1 };
}

typedef double Matrix[3][3];

static const Matrix normal = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
static const Matrix deuteranopia = {
  { 0.367322, 0.860646, -0.227968 },
  { 0.280085, 0.672501, 0.047413 },
  { -0.011820, 0.042940, 0.968881 },
};
static const Matrix protanopia = {
  { 0.152286, 1.052583, -0.204868 },
  { 0.114503, 0.786281, 0.099216 },
  { -0.003882, -0.048116, 1.051998 },
};

static double
lab_f (double t)
{
  return t > 216.0 / 24389.0 ? cbrt (t) : (24389.0 / 27.0 * t + 16) / 116;
}

/* The colour as seen through @m (on linear RGB), in CIELAB */
static void
seen_lab (const ProcuraChartColor *c,
          const Matrix             m,
          double                   lab[3])
{
  double rgb[3] = { to_linear (c->r), to_linear (c->g), to_linear (c->b) }, s[3];
  double x, y, z;

  for (int i = 0; i < 3; i++)
    s[i] = CLAMP (m[i][0] * rgb[0] + m[i][1] * rgb[1] + m[i][2] * rgb[2], 0, 1);
  x = 0.4124 * s[0] + 0.3576 * s[1] + 0.1805 * s[2];
  y = 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
  z = 0.0193 * s[0] + 0.1192 * s[1] + 0.9505 * s[2];
  lab[0] = 116 * lab_f (y) - 16;
  lab[1] = 500 * (lab_f (x / 0.95047) - lab_f (y));
  lab[2] = 200 * (lab_f (y) - lab_f (z / 1.08883));
}

static double
distance_seen (const ProcuraChartColor *a,
               const ProcuraChartColor *b,
               const Matrix             m)
{
  double la[3], lb[3];

  seen_lab (a, m, la);
  seen_lab (b, m, lb);
  return sqrt ((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1])
               + (la[2] - lb[2]) * (la[2] - lb[2]));
}

/* The smallest distance between two colours of the palette as seen through @m */
static double
palette_min_distance (const ProcuraChartTheme *theme,
                      const Matrix             m,
                      guint                   *worst_a,
                      guint                   *worst_b)
{
  double best = INFINITY;

  for (guint a = 0; a < theme->n_palette; a++)
    for (guint b = a + 1; b < theme->n_palette; b++)
      {
        double d = distance_seen (&theme->palette[a], &theme->palette[b], m);

        if (d < best)
          {
            best = d;
            *worst_a = a;
            *worst_b = b;
          }
      }
  return best;
}

/* ------------------------------------------------------------------------- */

static const ProcuraChartTheme *
theme_named (guint i,
             const char **name)
{
  static const char *names[] = { "light", "dark", "high-contrast" };

  *name = names[i];
  return procura_chart_theme_by_name (names[i]);
}

static void
test_science (void)
{
  /* the formulas against known values: black on white is 21:1, a grey stays grey
   * for a deuteranope, red and green (far apart in normal vision) come together */
  ProcuraChartColor black = { 0, 0, 0, 1 }, white = { 1, 1, 1, 1 }, grey = { 0.5, 0.5, 0.5, 1 };
  ProcuraChartColor red = { 0.8, 0.2, 0.1, 1 }, green = { 0.45, 0.5, 0.1, 1 };
  double lab_grey[3], lab_seen[3];

  g_assert_cmpfloat_with_epsilon (contrast (&black, &white), 21, 1e-9);
  seen_lab (&grey, normal, lab_grey);
  seen_lab (&grey, deuteranopia, lab_seen);
  g_assert_cmpfloat (fabs (lab_grey[0] - lab_seen[0]), <, 1);
  g_assert_cmpfloat_with_epsilon (lab_grey[0], 53.39, 0.05);
  g_assert_cmpfloat (distance_seen (&red, &green, normal), >, 40);
  g_assert_cmpfloat (distance_seen (&red, &green, deuteranopia), <, distance_seen (&red, &green, normal) / 2);
}

static ProcuraChart *
chart_with_every_text (void)
{
  ProcuraChart *chart = procura_chart_new ();
  const char *cats[] = { "H100", "L40S", "API" };
  const double a[] = { 3, 2, 4 }, b[] = { 1, 1, 0.5 };
  ProcuraChartSeries *s;

  procura_chart_set_title (chart, "Cost per 1,000 responses");
  procura_chart_set_subtitle (chart, "Illustrative data");
  procura_chart_set_axis (chart, PROCURA_AXIS_X, "Candidate", PROCURA_UNIT_NONE, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, "Cost", PROCURA_UNIT_DOLLARS, PROCURA_SCALE_LINEAR);
  procura_chart_set_categories (chart, cats, 3);
  procura_chart_set_category_struck_out (chart, 2, "over its rate limit");
  procura_chart_set_bar_totals (chart, TRUE);
  procura_chart_add_series (chart, PROCURA_SERIES_STACKED_BAR, "Compute", NULL, a, 3);
  s = procura_chart_add_series (chart, PROCURA_SERIES_STACKED_BAR, "Idle", NULL, b, 3);
  procura_chart_series_set_struck_out (s, TRUE, "not measured");
  procura_chart_add_hline (chart, 4.5, "budget");
  procura_chart_add_marker (chart, 0, 3, "measured");
  procura_chart_add_shaded (chart, 1.5, NAN, NAN, NAN, "hosted");
  return chart;
}

static void
test_text_contrast (void)
{
  g_autoptr (ProcuraChart) chart = chart_with_every_text ();

  for (guint t = 0; t < 3; t++)
    {
      const char *name;
      const ProcuraChartTheme *theme = theme_named (t, &name);
      g_autoptr (ProcuraChartLayout) layout = procura_chart_layout_new ();
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 640, 400);
      cairo_t *cr = cairo_create (surface);
      guint kinds = 0;

      procura_chart_draw (chart, layout, cr, 640, 400, theme);
      for (guint i = 0; i < procura_chart_layout_get_n_texts (layout); i++)
        {
          const ProcuraChartTextBox *b = procura_chart_layout_get_text (layout, i);
          ProcuraChartColor seen = over (&theme->foreground, b->opacity, &theme->background);
          double ratio = contrast (&seen, &theme->background);

          if (ratio < 4.5)
            g_error ("%s: \"%s\" is drawn at %.2f:1", name, b->text, ratio);
          kinds |= 1u << b->kind;
        }
      /* titles, axis titles, ticks, categories, bar totals, annotations, legend */
      g_assert_cmpuint (kinds & 0xff, ==, (1u << PROCURA_CHART_TEXT_TITLE) | (1u << PROCURA_CHART_TEXT_SUBTITLE)
                        | (1u << PROCURA_CHART_TEXT_AXIS_TITLE) | (1u << PROCURA_CHART_TEXT_TICK)
                        | (1u << PROCURA_CHART_TEXT_CATEGORY) | (1u << PROCURA_CHART_TEXT_BAR_LABEL)
                        | (1u << PROCURA_CHART_TEXT_ANNOTATION));
      g_assert_true (kinds & (1u << PROCURA_CHART_TEXT_LEGEND));
      /* a text colour halfway to the background, at the subtitle's opacity, would
       * fail: this test can fail */
      {
        ProcuraChartColor pale = over (&theme->foreground, 0.5, &theme->background);
        ProcuraChartColor seen = over (&pale, 0.7, &theme->background);

        g_assert_cmpfloat (contrast (&seen, &theme->background), <, 4.5);
      }
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
}

static void
test_palette_apart (void)
{
  static const struct { const char *name; const double (*m)[3]; } visions[] = {
    { "normal vision", normal }, { "deuteranopia", deuteranopia }, { "protanopia", protanopia },
  };

  for (guint t = 0; t < 3; t++)
    {
      const char *name;
      const ProcuraChartTheme *theme = theme_named (t, &name);

      g_assert_cmpuint (theme->n_palette, ==, PROCURA_CHART_PALETTE_SIZE);
      for (guint v = 0; v < G_N_ELEMENTS (visions); v++)
        {
          guint a = 0, b = 0;
          double d = palette_min_distance (theme, visions[v].m, &a, &b);

          g_test_message ("%s, %s: nearest colours %u and %u, %.1f apart", name, visions[v].name, a, b, d);
          if (d < 10)
            g_error ("%s, %s: colours %u and %u are only %.1f apart", name, visions[v].name, a, b, d);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chart/colours/science", test_science);
  g_test_add_func ("/chart/colours/text-contrast", test_text_contrast);
  g_test_add_func ("/chart/colours/palette-apart", test_palette_apart);
  return g_test_run ();
}
