/* test-figure-layout.c: every figure of the demo, legible at the sizes people use
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each standard figure of the demo project is drawn at 800×500 and at 1280×800, on a
 * page, on a card whose buttons cover the top-right corner, and on a slide (text at
 * twice the size); no two text boxes may overlap and none may be cut by the edge or
 * run under the buttons.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-demo.h"
#include "procura-figures.h"
#include "chart-legible.h"

typedef struct {
  const char *name;
  double      font_scale;
  gboolean    card;          /* buttons over the top-right corner */
} Place;

static const Place places[] = {
  { "page", 1.0, FALSE },
  { "card", 1.0, TRUE },
  { "slide", 2.0, FALSE },
};

static guint
check_figure (ProcuraChart *chart,
              const char   *name,
              double        width,
              double        height,
              const Place  *place)
{
  g_autoptr (ProcuraChartLayout) layout = procura_chart_layout_new ();
  g_autofree char *what = g_strdup_printf ("%s on a %s", name, place->name);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  cairo_t *cr = cairo_create (surface);
  ProcuraChartTheme theme = *procura_chart_theme_light ();
  /* four flat icon buttons and their margins, as on the Compare page */
  double reserved[4] = { width - 160, 0, 160, 40 };

  theme.font_size *= place->font_scale;
  if (place->card)
    procura_chart_layout_set_reserved (layout, reserved[0], reserved[1], reserved[2], reserved[3]);
  procura_chart_draw (chart, layout, cr, width, height, &theme);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  g_assert_true (procura_chart_layout_get_plot (layout).valid);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return chart_count_collisions (layout, what, width, height, place->card ? reserved : NULL);
}

static void
test_demo_figures (gconstpointer data)
{
  const double *size = data;
  g_autoptr (ProcuraProject) project = procura_demo_project_new ();
  g_autoptr (ProcuraAnalysis) analysis = procura_analysis_run (project, NULL);
  g_autoptr (GPtrArray) charts = procura_figure_build_all (project, analysis);
  guint n = 0, bad = 0;

  while (procura_figure_names[n] != NULL)
    n++;
  g_assert_cmpuint (charts->len, ==, n);
  for (guint i = 0; i < charts->len; i++)
    for (guint k = 0; k < G_N_ELEMENTS (places); k++)
      bad += check_figure (charts->pdata[i], procura_figure_names[i], size[0], size[1], &places[k]);
  /* the collisions are named in the log above */
  g_assert_cmpuint (bad, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  static const double small[2] = { 800, 500 }, large[2] = { 1280, 800 };

  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/figures/legible/800x500", small, test_demo_figures);
  g_test_add_data_func ("/figures/legible/1280x800", large, test_demo_figures);
  return g_test_run ();
}
