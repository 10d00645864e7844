/* bench-chart.c: a 25 M-point line and scatter at 1600x900, beside matplotlib
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two cases, each drawn by Procura's chart kit and by matplotlib (Agg) in interleaved
 * pairs (Procura first in even pairs, matplotlib first in odd ones), each sample in a
 * fresh process whose peak RSS is read:
 *   line     TTFT per request (x = request index): a slow drift, noise, rare spikes.
 *            first draw (pyramid built, columns, drawing), redraw (the same chart
 *            again: hover, expose), zoom (a narrower x range, then drawn)
 *   scatter  TTFT against input length per request: first draw (density counted),
 *            redraw (the cached density painted)
 * Figures are medians over the pairs (and, inside a Procura sample, over 9 redraws
 * and 5 zooms); wall time and the process' CPU time, so a loaded machine shows.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "procura-chart.h"

#define WIDTH 1600
#define HEIGHT 900
#define REDRAWS 9
#define ZOOMS 5

typedef struct {
  double first, redraw, zoom;              /* wall ms */
  double cpu_first, cpu_redraw, cpu_zoom;  /* CPU ms */
  double rss_mib;
  gboolean ok;
} Sample;

static double
cpu_ms (void)
{
  struct timespec t;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
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
  if (n == 0)
    return NAN;
  qsort (v, n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
draw (ProcuraChart    *chart,
      cairo_surface_t *surface,
      double          *wall,
      double          *cpu)
{
  /* one layout for every draw, as a view keeps one: redraws of a chart at the same
   * size reuse what the layout keeps */
  static ProcuraChartLayout *layout = NULL;
  cairo_t *cr = cairo_create (surface);
  gint64 t0;
  double c0;

  if (layout == NULL)
    layout = procura_chart_layout_new ();
  t0 = g_get_monotonic_time ();
  c0 = cpu_ms ();
  procura_chart_draw (chart, layout, cr, WIDTH, HEIGHT, procura_chart_theme_light ());
  cairo_surface_flush (surface);
  cairo_destroy (cr);
  *wall = (g_get_monotonic_time () - t0) / 1000.0;
  *cpu = cpu_ms () - c0;
}

/* One Procura sample, in the child: the chart built from a copy of the data (as the
 * figures do), drawn, redrawn, zoomed. */
static Sample
procura_sample (gboolean      scatter,
                const double *x,
                const double *y,
                gsize         n)
{
  g_autoptr (ProcuraChart) chart = procura_chart_new ();
  g_autoptr (ProcuraChart) warm = procura_chart_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  const double wy[] = { 1, 2 };
  double w[REDRAWS], c[REDRAWS], zw[ZOOMS], zc[ZOOMS], dummy;
  Sample r = { NAN, NAN, NAN, NAN, NAN, NAN, NAN, TRUE };

  /* fontconfig and Pango load once per process: not part of any draw */
  procura_chart_set_title (warm, "warm-up");
  procura_chart_add_series (warm, PROCURA_SERIES_LINE, "w", NULL, wy, 2);
  draw (warm, surface, &dummy, &dummy);

  if (scatter)
    {
      procura_chart_set_title (chart, "TTFT against input length");
      procura_chart_set_axis (chart, PROCURA_AXIS_X, "Input length", PROCURA_UNIT_TOKENS, PROCURA_SCALE_LINEAR);
      procura_chart_set_axis (chart, PROCURA_AXIS_Y, "TTFT", PROCURA_UNIT_MS, PROCURA_SCALE_LINEAR);
      procura_chart_add_series (chart, PROCURA_SERIES_SCATTER, "requests", x, y, n);
    }
  else
    {
      procura_chart_set_title (chart, "TTFT per request");
      procura_chart_set_axis (chart, PROCURA_AXIS_X, "Request", PROCURA_UNIT_COUNT, PROCURA_SCALE_LINEAR);
      procura_chart_set_axis (chart, PROCURA_AXIS_Y, "TTFT", PROCURA_UNIT_MS, PROCURA_SCALE_LINEAR);
      procura_chart_add_hline (chart, 800, "target 800 ms");
      procura_chart_add_series (chart, PROCURA_SERIES_LINE, "TTFT", NULL, y, n);
    }
  draw (chart, surface, &r.first, &r.cpu_first);
  for (guint i = 0; i < REDRAWS; i++)
    draw (chart, surface, &w[i], &c[i]);
  r.redraw = median (w, REDRAWS);
  r.cpu_redraw = median (c, REDRAWS);
  if (!scatter)
    {
      for (guint i = 0; i < ZOOMS; i++)
        {
          /* a different x range each time, as a zoom or a pan */
          procura_chart_set_axis_range (chart, PROCURA_AXIS_X, (double) i * (n / 40), n - 1 - (double) i * (n / 50));
          draw (chart, surface, &zw[i], &zc[i]);
        }
      r.zoom = median (zw, ZOOMS);
      r.cpu_zoom = median (zc, ZOOMS);
    }
  if (g_getenv ("PROCURA_BENCH_PNG"))
    {
      g_autofree char *png = g_strdup_printf ("%s-%s.png", g_getenv ("PROCURA_BENCH_PNG"),
                                              scatter ? "scatter" : "line");
      cairo_surface_write_to_png (surface, png);
    }
  cairo_surface_destroy (surface);
  return r;
}

static Sample
run_procura (gboolean      scatter,
             const double *x,
             const double *y,
             gsize         n)
{
  Sample r = { 0 };
  int fds[2];
  pid_t pid;
  int status = 0;
  struct rusage usage;

  if (pipe (fds) != 0)
    return r;
  pid = fork ();
  if (pid == 0)
    {
      Sample s;

      close (fds[0]);
      s = procura_sample (scatter, x, y, n);
      if (write (fds[1], &s, sizeof s) != sizeof s)
        _exit (1);
      _exit (0);
    }
  close (fds[1]);
  if (pid < 0 || read (fds[0], &r, sizeof r) != sizeof r)
    r.ok = FALSE;
  close (fds[0]);
  if (pid > 0 && wait4 (pid, &status, 0, &usage) == pid)
    r.rss_mib = usage.ru_maxrss / 1024.0;
  else
    r.ok = FALSE;
  return r;
}

static const char *python = "python3";

static Sample
run_peer (const char *peer,
          gboolean    scatter,
          const char *x_path,
          const char *y_path)
{
  const char *argv[] = { python, peer, scatter ? "scatter" : "line",
                         scatter ? x_path : y_path, scatter ? y_path : NULL, NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;
  Sample r = { NAN, NAN, NAN, NAN, NAN, NAN, NAN, FALSE };
  double rss_kib;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, NULL) || out == NULL)
    return r;
  if (sscanf (out, "%lf %lf %lf %lf %lf %lf %lf", &r.first, &r.redraw, &r.zoom, &r.cpu_first,
              &r.cpu_redraw, &r.cpu_zoom, &rss_kib) == 7)
    {
      r.rss_mib = rss_kib / 1024.0;
      r.ok = TRUE;
    }
  return r;
}

/* Finds a python3 with numpy and matplotlib: the one on PATH, else the system's. */
static gboolean
peer_available (const char *peer)
{
  static const char *pythons[] = { "python3", "/usr/bin/python3" };

  if (peer == NULL || !g_file_test (peer, G_FILE_TEST_EXISTS))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (pythons); i++)
    {
      const char *argv[] = { pythons[i], "-c", "import numpy, matplotlib", NULL };
      int status = 0;

      if (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL
                        | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL)
          && g_spawn_check_wait_status (status, NULL))
        {
          python = pythons[i];
          return TRUE;
        }
    }
  return FALSE;
}

static double
load_average (void)
{
  double load[1];

  return getloadavg (load, 1) == 1 ? load[0] : NAN;
}

typedef double (*Field) (const Sample *s);
#define FIELD(name) static double get_##name (const Sample *s) { return s->name; }
FIELD (first) FIELD (redraw) FIELD (zoom) FIELD (cpu_first) FIELD (cpu_redraw) FIELD (cpu_zoom) FIELD (rss_mib)

static double
median_of (const Sample *s,
           guint         n,
           Field         field)
{
  g_autofree double *v = g_new (double, MAX (n, 1));
  guint k = 0;

  for (guint i = 0; i < n; i++)
    if (s[i].ok && isfinite (field (&s[i])))
      v[k++] = field (&s[i]);
  return median (v, k);
}

static void
print_row (const char   *what,
           const Sample *ours,
           const Sample *peer,
           guint         pairs,
           Field         wall,
           Field         cpu)
{
  double a = median_of (ours, pairs, wall), b = median_of (peer, pairs, wall);
  double ac = median_of (ours, pairs, cpu), bc = median_of (peer, pairs, cpu);

  if (isnan (a))
    return;
  g_print ("  %-12s %9.1f ms (cpu %8.1f)   %9.1f ms (cpu %8.1f)   %6.1fx\n", what, a, ac, b, bc, b / a);
}

static void
write_doubles (const char   *path,
               const double *v,
               gsize         n)
{
  if (!g_file_set_contents (path, (const char *) v, (gssize) (n * sizeof (double)), NULL))
    g_printerr ("cannot write %s\n", path);
}

static void
run_case (gboolean    scatter,
          gsize       n,
          guint       pairs,
          const char *peer)
{
  double *x = scatter ? g_new (double, n) : NULL, *y = g_new (double, n);
  guint64 state = 0x9e3779b97f4a7c15ULL;
  g_autofree char *x_path = NULL, *y_path = NULL;
  g_autofree Sample *ours = g_new0 (Sample, pairs);
  g_autofree Sample *theirs = g_new0 (Sample, pairs);
  gboolean with_peer = peer != NULL;
  double load0 = load_average ();
  int fd;

  for (gsize i = 0; i < n; i++)
    {
      double u, v;

      /* xorshift64*: fast, repeatable */
      state ^= state >> 12;
      state ^= state << 25;
      state ^= state >> 27;
      u = ((state * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
      v = ((state * 0x9E3779B97F4A7C15ULL) >> 11) * (1.0 / 9007199254740992.0);
      if (scatter)
        {
          x[i] = floor (16 + 8000 * u * u);
          y[i] = 25 + x[i] * 0.04 + 60 * v * v * v + ((i & 0xffff) == 777 ? 900 * v : 0);
        }
      else
        {
          y[i] = 180 + 60 * sin (i * 6.283 / (n / 3.0)) + 40 * u * u;
          if ((i & 0xfffff) == 12345)
            y[i] += 900 * u;        /* a rare tail spike the envelope must keep */
        }
    }
  if (with_peer)
    {
      fd = g_file_open_tmp ("procura-bench-y-XXXXXX.f64", &y_path, NULL);
      close (fd);
      write_doubles (y_path, y, n);
      if (scatter)
        {
          fd = g_file_open_tmp ("procura-bench-x-XXXXXX.f64", &x_path, NULL);
          close (fd);
          write_doubles (x_path, x, n);
        }
    }

  for (guint p = 0; p < pairs; p++)
    {
      if (p % 2 == 0)
        ours[p] = run_procura (scatter, x, y, n);
      if (with_peer)
        theirs[p] = run_peer (peer, scatter, x_path, y_path);
      if (p % 2 == 1)
        ours[p] = run_procura (scatter, x, y, n);
      g_print ("  pair %u: procura first %.1f, redraw %.1f, zoom %.1f ms, %.0f MiB; "
               "matplotlib first %.1f, redraw %.1f, zoom %.1f ms, %.0f MiB\n",
               p + 1, ours[p].first, ours[p].redraw, ours[p].zoom, ours[p].rss_mib,
               theirs[p].first, theirs[p].redraw, theirs[p].zoom, theirs[p].rss_mib);
    }

  g_print ("%s, %" G_GSIZE_FORMAT " points at %dx%d, median of %u interleaved pairs "
           "(1-min load average %.1f before, %.1f after):\n",
           scatter ? "scatter" : "line", n, WIDTH, HEIGHT, pairs, load0, load_average ());
  if (with_peer)
    g_print ("  peer: %s %s\n", python, peer);
  g_print ("  %-12s %28s   %28s   %7s\n", "", "procura", with_peer ? "matplotlib (Agg)" : "matplotlib: not run", "ratio");
  print_row ("first draw", ours, theirs, pairs, get_first, get_cpu_first);
  print_row ("redraw", ours, theirs, pairs, get_redraw, get_cpu_redraw);
  if (!scatter)
    print_row ("zoom", ours, theirs, pairs, get_zoom, get_cpu_zoom);
  g_print ("  %-12s %9.0f MiB %18s %9.0f MiB\n", "peak RSS", median_of (ours, pairs, get_rss_mib), "",
           median_of (theirs, pairs, get_rss_mib));
  if (x_path)
    g_unlink (x_path);
  if (y_path)
    g_unlink (y_path);
  g_free (x);
  g_free (y);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *which = NULL;
  gint64 points = 25000000;
  int pairs = 3;
  gboolean no_peer = FALSE;
  g_autofree char *peer = NULL;
  GOptionEntry entries[] = {
    { "case", 0, 0, G_OPTION_ARG_STRING, &which, "line, scatter or all (default)", "CASE" },
    { "points", 0, 0, G_OPTION_ARG_INT64, &points, "points per chart (default 25000000)", "N" },
    { "pairs", 0, 0, G_OPTION_ARG_INT, &pairs, "interleaved pairs (default 3)", "P" },
    { "peer", 0, 0, G_OPTION_ARG_FILENAME, &peer, "the matplotlib script", "PATH" },
    { "no-peer", 0, 0, G_OPTION_ARG_NONE, &no_peer, "time Procura alone", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- a 25 M-point line and scatter beside matplotlib");
  g_autoptr (GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (peer == NULL)
    peer = g_strdup (BENCH_CHART_PEER);
  if (no_peer)
    g_clear_pointer (&peer, g_free);
  else if (!peer_available (peer))
    {
      g_print ("matplotlib: not available (python3 with numpy and matplotlib, e.g. Debian's "
               "python3-matplotlib): Procura alone\n");
      g_clear_pointer (&peer, g_free);
    }
  points = MAX (points, 2);
  pairs = CLAMP (pairs, 1, 100);
  if (which == NULL || g_str_equal (which, "all") || g_str_equal (which, "line"))
    run_case (FALSE, (gsize) points, (guint) pairs, peer);
  if (which == NULL || g_str_equal (which, "all") || g_str_equal (which, "scatter"))
    run_case (TRUE, (gsize) points, (guint) pairs, peer);
  return 0;
}
