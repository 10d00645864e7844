/* bench-chart.c: redraw a 25 M-point latency chart, beside matplotlib
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The series is TTFT per request (x = request index), a slow drift plus noise plus
 * rare tail spikes, like a long load test. Three figures:
 *   first draw   decimation (min/max per pixel column) + drawing, nothing cached
 *   redraw       the same chart again (hover, expose): decimation cached, drawing only
 *   new range    the x range changed (zoom): decimation again + drawing
 * and, when python3 has matplotlib and numpy, the time matplotlib (Agg) takes to draw
 * the same points as a line at the same size (fig.canvas.draw()).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "procura-chart.h"

#define WIDTH 1600
#define HEIGHT 900

static double
draw_ms (ProcuraChart    *chart,
         cairo_surface_t *surface)
{
  /* one layout for every draw, as a view keeps one: redraws of a chart at the same
   * size reuse its decimation */
  static ProcuraChartLayout *layout = NULL;
  cairo_t *cr = cairo_create (surface);
  gint64 t0;

  if (layout == NULL)
    layout = procura_chart_layout_new ();
  t0 = g_get_monotonic_time ();
  procura_chart_draw (chart, layout, cr, WIDTH, HEIGHT, procura_chart_theme_light ());
  cairo_surface_flush (surface);
  cairo_destroy (cr);
  return (g_get_monotonic_time () - t0) / 1000.0;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char matplotlib_script[] =
  "import sys, time\n"
  "import numpy as np\n"
  "import matplotlib\n"
  "matplotlib.use('Agg')\n"
  "import matplotlib.pyplot as plt\n"
  "y = np.fromfile(sys.argv[1], dtype=np.float64)\n"
  "fig, ax = plt.subplots(figsize=(16, 9), dpi=100)\n"
  "ax.plot(y, linewidth=1)\n"
  "ax.set_xlabel('Request'); ax.set_ylabel('TTFT (ms)')\n"
  "t = time.perf_counter()\n"
  "fig.canvas.draw()\n"
  "print('%.1f' % ((time.perf_counter() - t) * 1000))\n";

/* Milliseconds matplotlib takes to draw @y, or NAN when it cannot run. */
static double
matplotlib_ms (const double *y,
               gsize         n,
               const char  **python_used)
{
  static const char *pythons[] = { "python3", "/usr/bin/python3" };
  g_autofree char *data_path = NULL;
  g_autofree char *script_path = NULL;
  int fd;
  double result = NAN;

  fd = g_file_open_tmp ("procura-bench-XXXXXX.f64", &data_path, NULL);
  if (fd < 0)
    return NAN;
  close (fd);
  if (!g_file_set_contents (data_path, (const char *) y, (gssize) (n * sizeof (double)), NULL))
    return NAN;
  fd = g_file_open_tmp ("procura-bench-XXXXXX.py", &script_path, NULL);
  close (fd);
  g_file_set_contents (script_path, matplotlib_script, -1, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (pythons) && isnan (result); i++)
    {
      const char *argv[] = { pythons[i], script_path, data_path, NULL };
      g_autofree char *out = NULL;
      int status = 0;

      if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                         NULL, NULL, &out, NULL, &status, NULL))
        continue;
      if (g_spawn_check_wait_status (status, NULL) && out && g_ascii_isdigit (out[0]))
        {
          result = g_ascii_strtod (out, NULL);
          *python_used = pythons[i];
        }
    }
  g_unlink (data_path);
  g_unlink (script_path);
  return result;
}

int
main (int   argc,
      char *argv[])
{
  gsize n = argc > 1 ? (gsize) g_ascii_strtoull (argv[1], NULL, 10) : 25000000;
  gsize n_mpl = argc > 2 ? (gsize) g_ascii_strtoull (argv[2], NULL, 10) : n;
  double *y;
  guint64 state = 0x9e3779b97f4a7c15ULL;
  g_autoptr (ProcuraChart) chart = procura_chart_new ();
  cairo_surface_t *surface;
  double first, redraw[9], rerange[5], mpl;
  const char *python = NULL;
  gint64 t0;

  if (n < 2)
    n = 2;
  n_mpl = MIN (n_mpl, n);
  y = g_new (double, n);
  t0 = g_get_monotonic_time ();
  for (gsize i = 0; i < n; i++)
    {
      double u;

      /* xorshift64*: fast, repeatable */
      state ^= state >> 12;
      state ^= state << 25;
      state ^= state >> 27;
      u = ((state * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
      y[i] = 180 + 60 * sin (i * 6.283 / (n / 3.0)) + 40 * u * u;
      if ((i & 0xfffff) == 12345)
        y[i] += 900 * u;          /* a rare tail spike the envelope must keep */
    }
  g_print ("generated %" G_GSIZE_FORMAT " points in %.0f ms\n", n,
           (g_get_monotonic_time () - t0) / 1000.0);

  procura_chart_set_title (chart, "TTFT per request");
  procura_chart_set_axis (chart, PROCURA_AXIS_X, "Request", PROCURA_UNIT_COUNT, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, "TTFT", PROCURA_UNIT_MS, PROCURA_SCALE_LINEAR);
  procura_chart_add_hline (chart, 800, "target 800 ms");
  t0 = g_get_monotonic_time ();
  /* the chart takes the array: no copy; a copy is kept for matplotlib below */
  procura_chart_add_series (chart, PROCURA_SERIES_LINE, "TTFT", NULL, y, n);
  g_print ("series added (copied, bounds computed) in %.0f ms\n", (g_get_monotonic_time () - t0) / 1000.0);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  {
    /* fontconfig and Pango load once per process: time that apart */
    g_autoptr (ProcuraChart) warm = procura_chart_new ();
    const double wy[] = { 1, 2 };

    procura_chart_set_title (warm, "warm-up");
    procura_chart_add_series (warm, PROCURA_SERIES_LINE, "w", NULL, wy, 2);
    g_print ("font and layout set-up (once per process): %.0f ms\n", draw_ms (warm, surface));
  }
  first = draw_ms (chart, surface);
  for (guint i = 0; i < G_N_ELEMENTS (redraw); i++)
    redraw[i] = draw_ms (chart, surface);
  for (guint i = 0; i < G_N_ELEMENTS (rerange); i++)
    {
      /* zoom: a different x range each time, so the decimation runs again */
      procura_chart_set_axis_range (chart, PROCURA_AXIS_X, 0, n - 1 - (double) i * (n / 50));
      rerange[i] = draw_ms (chart, surface);
    }
  if (g_getenv ("PROCURA_BENCH_PNG"))
    cairo_surface_write_to_png (surface, g_getenv ("PROCURA_BENCH_PNG"));
  cairo_surface_destroy (surface);

  g_print ("procura chart, %" G_GSIZE_FORMAT " points at %dx%d:\n", n, WIDTH, HEIGHT);
  g_print ("  first draw (decimate + draw): %8.1f ms\n", first);
  g_print ("  redraw (decimation cached):   %8.1f ms (median of %u)\n", median (redraw, G_N_ELEMENTS (redraw)),
           (guint) G_N_ELEMENTS (redraw));
  g_print ("  new x range (decimate again): %8.1f ms (median of %u)\n", median (rerange, G_N_ELEMENTS (rerange)),
           (guint) G_N_ELEMENTS (rerange));

  mpl = matplotlib_ms (y, n_mpl, &python);
  if (isnan (mpl))
    g_print ("matplotlib: not available (python3 with matplotlib and numpy not found): no comparison\n");
  else
    {
      double ours = median (rerange, G_N_ELEMENTS (rerange));
      double cached = median (redraw, G_N_ELEMENTS (redraw));

      g_print ("matplotlib (%s, Agg, fig.canvas.draw()), %" G_GSIZE_FORMAT " points: %.1f ms\n",
               python, n_mpl, mpl);
      if (n_mpl == n)
        g_print ("ratio matplotlib / procura: %.0fx (decimate + draw), %.0fx (redraw)\n", mpl / ours,
                 mpl / cached);
      else
        g_print ("ratio matplotlib (%" G_GSIZE_FORMAT " points) / procura (%" G_GSIZE_FORMAT
                 " points, decimate + draw): %.0fx\n", n_mpl, n, mpl / ours);
    }
  g_free (y);
  return 0;
}
