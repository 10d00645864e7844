/* test-figures.c: every standard figure, from the demo and from degenerate projects
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "procura-demo.h"
#include "procura-figures.h"
#include "procura-fit.h"
#include "procura-gpu-catalog.h"
#include "procura-model-catalog.h"

static const char * const architecture_names[] = {
  "cost-curve", "latency", "breakdown", "memory", "pareto", "break-even", "cdf",
  "sensitivity", "fit-map", NULL
};

/* ------------------------------------------------------------------------- */
/* Helpers                                                                    */

static guint
count_pdf_pages (const char *path)
{
  g_autofree char *contents = NULL;
  gsize len;
  g_autoptr (GRegex) re = g_regex_new ("/Type\\s*/Page[^s]", G_REGEX_RAW, 0, NULL);
  g_autoptr (GMatchInfo) info = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_true (g_str_has_prefix (contents, "%PDF-"));
  g_regex_match_full (re, contents, len, 0, 0, &info, NULL);
  while (g_match_info_matches (info))
    {
      n++;
      g_match_info_next (info, NULL);
    }
  return n;
}

static void
assert_svg_well_formed (const char *path)
{
  GMarkupParser parser = { NULL, NULL, NULL, NULL, NULL };
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  GMarkupParseContext *ctx;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_nonnull (strstr (contents, "<svg"));
  ctx = g_markup_parse_context_new (&parser, 0, NULL, NULL);
  g_assert_true (g_markup_parse_context_parse (ctx, contents, len, &error));
  g_assert_true (g_markup_parse_context_end_parse (ctx, &error));
  g_assert_no_error (error);
  g_markup_parse_context_free (ctx);
}

static void
assert_no_nan (const char *text)
{
  g_autofree char *lower = g_ascii_strdown (text, -1);

  g_assert_null (strstr (lower, "nan"));
  g_assert_null (strstr (lower, "inf"));
}

/* Renders to PNG, SVG and PDF in @dir and checks each file. */
static void
render_everywhere (ProcuraChart *chart,
                   const char   *dir,
                   const char   *stem)
{
  g_autofree char *png = g_strdup_printf ("%s/%s.png", dir, stem);
  g_autofree char *svg = g_strdup_printf ("%s/%s.svg", dir, stem);
  g_autofree char *pdf = g_strdup_printf ("%s/%s.pdf", dir, stem);
  g_autofree char *summary = procura_chart_summary (chart);
  g_autoptr (GError) error = NULL;
  cairo_surface_t *surface;

  g_assert_true (procura_chart_write_png (chart, png, 640, 400, 1, procura_chart_theme_light (), &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 640);
  cairo_surface_destroy (surface);
  g_assert_true (procura_chart_write_svg (chart, svg, 640, 400, procura_chart_theme_dark (), &error));
  g_assert_no_error (error);
  assert_svg_well_formed (svg);
  g_assert_true (procura_chart_write_pdf (chart, pdf, 640, 400, procura_chart_theme_high_contrast (), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_pdf_pages (pdf), ==, 1);
  g_assert_cmpuint (strlen (summary), >, 10);
  assert_no_nan (summary);
  g_unlink (png);
  g_unlink (svg);
  g_unlink (pdf);
}

static void
remove_dir (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  if (d)
    g_dir_close (d);
  g_rmdir (dir);
}

static guint
find_series (ProcuraChart *chart,
             const char   *name)
{
  for (guint i = 0; i < procura_chart_get_n_series (chart); i++)
    if (g_strcmp0 (procura_chart_series_get_name (chart, i), name) == 0)
      return i;
  g_assert_not_reached ();
  return 0;
}

/* ------------------------------------------------------------------------- */

static void
test_names (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraProject) project = procura_project_new ();
  ProcuraChart *chart;
  guint n = 0;

  for (; procura_figure_names[n]; n++)
    {
      g_assert_cmpstr (procura_figure_names[n], ==, architecture_names[n]);
      g_assert_true (procura_figure_is_known (procura_figure_names[n]));
      g_assert_nonnull (procura_figure_title (procura_figure_names[n]));
    }
  g_assert_cmpuint (n, ==, g_strv_length ((char **) architecture_names));
  g_assert_false (procura_figure_is_known ("pie"));
  g_assert_false (procura_figure_is_known (NULL));
  g_assert_null (procura_figure_title ("pie"));

  chart = procura_figure_build ("pie", project, NULL, &error);
  g_assert_null (chart);
  g_assert_error (error, PROCURA_FIGURE_ERROR, PROCURA_FIGURE_ERROR_UNKNOWN);
  g_assert_nonnull (strstr (error->message, "pie"));
  g_assert_nonnull (strstr (error->message, "cost-curve"));
  g_assert_nonnull (strstr (error->message, "fit-map"));
}

static void
test_demo_all (void)
{
  g_autoptr (ProcuraProject) project = procura_demo_project_new ();
  g_autoptr (ProcuraAnalysis) analysis = procura_analysis_run (project, NULL);
  g_autoptr (GPtrArray) charts = procura_figure_build_all (project, analysis);
  g_autofree char *dir = g_dir_make_tmp ("procura-figures-XXXXXX", NULL);
  g_autofree char *all_pdf = g_build_filename (dir, "all.pdf", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_cmpuint (charts->len, ==, 9);
  for (guint i = 0; i < charts->len; i++)
    {
      ProcuraChart *chart = charts->pdata[i];
      g_autofree char *summary = procura_chart_summary (chart);
      g_autoptr (ProcuraChartLayout) layout = procura_chart_layout_new ();
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 640, 400);
      cairo_t *cr = cairo_create (surface);
      ProcuraChartPlot plot;

      g_assert_nonnull (chart);
      render_everywhere (chart, dir, procura_figure_names[i]);
      /* the demo has data for every figure: a plot was laid out, not a message */
      procura_chart_draw (chart, layout, cr, 640, 400, procura_chart_theme_high_contrast ());
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
      plot = procura_chart_layout_get_plot (layout);
      g_assert_true (plot.valid);
      g_assert_cmpfloat (plot.width, >, 100);
      /* ... and every figure says it is illustrative */
      g_test_message ("%s: %s", procura_figure_names[i], summary);
    }
  g_assert_true (procura_chart_write_pdf_pages ((ProcuraChart * const *) charts->pdata, charts->len, all_pdf,
                                                842, 595, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_pdf_pages (all_pdf), ==, 9);
  remove_dir (dir);
}

static void
test_demo_cost_curve (void)
{
  g_autoptr (ProcuraProject) project = procura_demo_project_new ();
  g_autoptr (ProcuraAnalysis) analysis = procura_analysis_run (project, NULL);
  g_autoptr (ProcuraChart) chart = procura_figure_build ("cost-curve", project, analysis, NULL);
  guint checked = 0;

  /* one series per candidate of the analysis */
  g_assert_cmpuint (procura_chart_get_n_series (chart), ==, analysis->candidates->len);
  for (guint i = 0; i < analysis->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = analysis->candidates->pdata[i];
      guint s = find_series (chart, ca->name);
      gsize n = procura_chart_series_get_n_points (chart, s);
      gboolean step_up = FALSE;
      double px = -INFINITY, py = NAN;

      if (ca->kind != PROCURA_CANDIDATE_GPU || ca->cost == NULL)
        continue;
      g_assert_cmpuint (n, >, 20);
      for (gsize k = 0; k < n; k++)
        {
          double x, y;

          g_assert_true (procura_chart_series_get_point (chart, s, k, &x, &y));
          g_assert_true (isfinite (x) && isfinite (y) && y > 0);
          g_assert_cmpfloat (x, >=, px);
          /* a replica added: the cost per output jumps UP as demand rises. A smoothed
           * curve would never do that; the figure must show the step. */
          if (k > 0 && y > py * 1.02)
            step_up = TRUE;
          px = x;
          py = y;
        }
      g_assert_true (step_up);
      checked++;
    }
  g_assert_cmpuint (checked, >=, 3);
}

static void
test_demo_breakdown_sums (void)
{
  g_autoptr (ProcuraProject) project = procura_demo_project_new ();
  g_autoptr (ProcuraAnalysis) analysis = procura_analysis_run (project, NULL);
  g_autoptr (ProcuraChart) chart = procura_figure_build ("breakdown", project, analysis, NULL);
  guint n_series = procura_chart_get_n_series (chart);

  /* the stacked lines add up to the all-in cost per accepted output (per 1k) */
  for (guint i = 0; i < analysis->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = analysis->candidates->pdata[i];
      double total = 0;

      if (ca->cost == NULL)
        continue;
      for (guint s = 0; s < n_series; s++)
        {
          double y;
          procura_chart_series_get_point (chart, s, i, NULL, &y);
          if (isfinite (y))
            total += y;
        }
      g_assert_cmpfloat_with_epsilon (total, ca->cost->all_in_cost / ca->cost->accepted_outputs * 1000,
                                      1e-9 * total + 1e-12);
    }
}

static void
test_demo_memory_sums (void)
{
  g_autoptr (ProcuraProject) project = procura_demo_project_new ();
  g_autoptr (ProcuraAnalysis) analysis = procura_analysis_run (project, NULL);
  g_autoptr (ProcuraChart) chart = procura_figure_build ("memory", project, analysis, NULL);
  g_autoptr (GPtrArray) table = procura_chart_table (chart, 0);
  guint n_series = procura_chart_get_n_series (chart);
  guint checked = 0;

  /* one category per GPU candidate; where the plan fits, the parts (headroom
   * included) fill exactly the GPU's usable memory: the catalog's, or the probe's
   * measured total where the candidate has a probe result */
  for (guint cat = 1; cat < table->len; cat++)
    {
      char **row = table->pdata[cat];
      const ProcuraCandidate *c = NULL;
      const ProcuraGpuSpec *gpu;
      double total = 0, usable;

      for (guint k = 0; k < project->candidates->len; k++)
        if (g_str_equal (((ProcuraCandidate *) project->candidates->pdata[k])->name, row[0]))
          c = project->candidates->pdata[k];
      if (c == NULL)
        continue;   /* struck out: the name carries the reason */
      gpu = procura_gpu_catalog_lookup (c->gpu_name);
      g_assert_nonnull (gpu);
      usable = procura_fit_gpu_usable_bytes (gpu, NULL) / 1073741824.0;
      for (guint k = 0; k < project->probe_results->len; k++)
        {
          const ProcuraProbeResult *pr = project->probe_results->pdata[k];

          if (pr->candidate_id == c->id && isfinite (pr->total_bytes))
            usable = pr->total_bytes / 1073741824.0;
        }
      for (guint s = 0; s < n_series; s++)
        {
          double y;
          procura_chart_series_get_point (chart, s, cat - 1, NULL, &y);
          if (isfinite (y))
            total += y;
        }
      g_assert_cmpfloat_with_epsilon (total, usable, 1e-6 * usable);
      checked++;
    }
  g_assert_cmpuint (checked, >=, 3);
}

/* issue 17: the memory chart takes the engine log's and the probe's figures, labels them
 * measured, and never puts a marker above the bar's own total */
static void
test_demo_memory_measured (void)
{
  g_autoptr (ProcuraProject) project = procura_demo_project_new ();
  g_autoptr (ProcuraAnalysis) analysis = procura_analysis_run (project, NULL);
  g_autoptr (ProcuraChart) chart = procura_figure_build ("memory", project, analysis, NULL);
  g_autoptr (GPtrArray) table = procura_chart_table (chart, 0);
  const ProcuraEngineLog *log = project->engine_logs->pdata[0];
  const ProcuraProbeResult *probe = project->probe_results->pdata[0];
  const char *log_name = procura_project_find_candidate (project, log->candidate_id)->name;
  const char *probe_name = procura_project_find_candidate (project, probe->candidate_id)->name;
  guint n_series = procura_chart_get_n_series (chart);
  int log_cat = -1, probe_cat = -1;
  gboolean saw_probe_used = FALSE, saw_probe_total = FALSE, saw_log = FALSE;
  g_autoptr (GArray) totals = g_array_new (FALSE, TRUE, sizeof (double));

  for (guint cat = 1; cat < table->len; cat++)
    {
      char **row = table->pdata[cat];
      double total = 0;

      if (g_str_equal (row[0], log_name))
        log_cat = cat - 1;
      if (g_str_equal (row[0], probe_name))
        probe_cat = cat - 1;
      for (guint s = 0; s < n_series; s++)
        {
          double y;
          procura_chart_series_get_point (chart, s, cat - 1, NULL, &y);
          if (isfinite (y))
            total += y;
        }
      g_array_append_val (totals, total);
    }
  g_assert_cmpint (log_cat, >=, 0);
  g_assert_cmpint (probe_cat, >=, 0);

  /* the bar of the log's candidate: weights and the KV pool are the log's, unstriped */
  for (guint s = 0; s < n_series; s++)
    {
      const char *name = procura_chart_series_get_name (chart, s);
      double y;

      procura_chart_series_get_point (chart, s, log_cat, NULL, &y);
      if (g_strcmp0 (name, "Weights") == 0)
        g_assert_cmpfloat_with_epsilon (y, log->weights_gib, 1e-9);
      if (g_strcmp0 (name, "CUDA graphs") == 0)
        g_assert_cmpfloat_with_epsilon (y, log->cuda_graph_gib, 1e-9);
    }

  for (guint m = 0; m < procura_chart_get_n_markers (chart); m++)
    {
      double x, y;
      const char *label;

      procura_chart_get_marker (chart, m, &x, &y, &label);
      /* no marker above its own bar's total */
      g_assert_cmpfloat (x, >=, 0);
      g_assert_cmpuint ((guint) x, <, totals->len);
      g_assert_cmpfloat (y, <=, g_array_index (totals, double, (guint) x) * (1 + 1e-9));
      if (label == NULL)
        continue;
      if (strstr (label, "probe: used") != NULL)
        {
          g_assert_cmpint ((int) x, ==, probe_cat);
          g_assert_nonnull (strstr (label, "measured"));
          g_assert_cmpfloat_with_epsilon (y, (probe->total_bytes - probe->headroom_bytes) / 1073741824.0, 1e-9);
          saw_probe_used = TRUE;
        }
      if (strstr (label, "(probe)") != NULL)
        {
          /* the bar's total is the probe's measured total, and says so */
          g_assert_cmpint ((int) x, ==, probe_cat);
          g_assert_cmpfloat_with_epsilon (y, probe->total_bytes / 1073741824.0, 1e-9);
          g_assert_cmpfloat_with_epsilon (g_array_index (totals, double, probe_cat), y, 1e-6 * y);
          saw_probe_total = TRUE;
        }
      if (strstr (label, "engine log") != NULL)
        {
          g_assert_cmpint ((int) x, ==, log_cat);
          g_assert_nonnull (strstr (label, "measured"));
          g_assert_cmpfloat_with_epsilon (y, log->weights_gib + log->kv_available_gib, 1e-9);
          saw_log = TRUE;
        }
    }
  g_assert_true (saw_probe_used);
  g_assert_true (saw_probe_total);
  g_assert_true (saw_log);
}

static void
test_demo_cdf_and_sensitivity (void)
{
  g_autoptr (ProcuraProject) project = procura_demo_project_new ();
  g_autoptr (ProcuraAnalysis) analysis = procura_analysis_run (project, NULL);
  g_autoptr (ProcuraChart) cdf = procura_figure_build ("cdf", project, analysis, NULL);
  g_autoptr (ProcuraChart) tornado = procura_figure_build ("sensitivity", project, analysis, NULL);
  g_autoptr (GPtrArray) table = procura_chart_table (cdf, 0);
  guint steps = 0;

  /* each empirical CDF rises monotonically to exactly 1 */
  for (guint s = 0; s < procura_chart_get_n_series (cdf); s++)
    {
      gsize n = procura_chart_series_get_n_points (cdf, s);
      double px = -INFINITY, py = 0, x, y;

      if (procura_chart_series_get_name (cdf, s) == NULL)
        continue;   /* the band */
      for (gsize k = 0; k < n; k++)
        {
          procura_chart_series_get_point (cdf, s, k, &x, &y);
          g_assert_cmpfloat (x, >=, px);
          g_assert_cmpfloat (y, >, py);
          g_assert_cmpfloat_with_epsilon (y, (k + 1) / (double) n, 1e-12);
          px = x;
          py = y;
        }
      g_assert_cmpfloat (py, ==, 1.0);
      steps++;
    }
  g_assert_cmpuint (steps, >=, 4);
  /* the band is the DKW band: F_n +- sqrt(ln(2 / 0.05) / (2 n)), clipped to [0, 1];
   * the demo's runs have 300 samples: +- 0.0785 */
  {
    double eps = sqrt (log (2 / 0.05) / (2.0 * 300));
    guint band_rows = 0;

    for (guint r = 1; r < table->len; r++)
      {
        char **row = table->pdata[r];
        double lo, hi;

        if (g_strcmp0 (row[0], "") != 0 || g_strcmp0 (row[2], "—") != 0)
          continue;   /* not a band row */
        lo = g_ascii_strtod (row[3], NULL) / 100;
        hi = g_ascii_strtod (row[4], NULL) / 100;
        if (lo > 0.005 && hi < 0.995)
          {
            /* 3 significant digits in the table: 0.1 % */
            g_assert_cmpfloat (fabs ((hi - lo) - 2 * eps), <, 0.0021);
            band_rows++;
          }
      }
    g_assert_cmpuint (band_rows, >, 100);
  }

  /* the tornado: widest swing first */
  {
    guint n_series = procura_chart_get_n_series (tornado);
    gsize n = procura_chart_series_get_n_points (tornado, 0);
    double prev = INFINITY;

    g_assert_cmpuint (n_series, ==, 2);
    g_assert_cmpuint (n, >=, 3);
    for (gsize k = 0; k < n; k++)
      {
        double lo, hi;
        procura_chart_series_get_point (tornado, 0, k, NULL, &lo);
        procura_chart_series_get_point (tornado, 1, k, NULL, &hi);
        g_assert_cmpfloat (fabs (hi - lo), <=, prev + 1e-12);
        prev = fabs (hi - lo);
      }
  }
}

/* ------------------------------------------------------------------------- */
/* Degenerate projects                                                        */

/* issue 22, one fit request: a candidate with TP 0 and 4 GPUs per replica runs TP 4 in
 * the summary, in the memory figure (the same figures, part by part) and in the fit map's
 * candidate row, because all of them take the one request of procura_analysis_fit_setup */
static void
test_one_fit_request (void)
{
  g_autoptr (ProcuraProject) project = procura_demo_project_new ();
  g_autoptr (ProcuraAnalysis) analysis = NULL;
  g_autoptr (ProcuraChart) memory = NULL;
  g_autoptr (ProcuraChart) fit_map = NULL;
  g_autoptr (GPtrArray) table = NULL;
  ProcuraCandidate *c = NULL;
  const ProcuraCandidateAnalysis *ca;
  const ProcuraGpuSpec *gpu;
  ProcuraAnalysisFitSetup setup;
  g_autofree char *reason = NULL;
  g_autofree char *own_row = NULL;
  guint n_series, row = G_MAXUINT, checked = 0;
  gboolean saw_own = FALSE;

  /* the first GPU candidate with a catalog GPU, made TP 0 with 4 GPUs per replica and
   * without its engine log (taken at another TP) or probe result */
  for (guint i = 0; i < project->candidates->len && c == NULL; i++)
    {
      ProcuraCandidate *k = project->candidates->pdata[i];
      if (k->kind == PROCURA_CANDIDATE_GPU && k->gpu_name != NULL
          && procura_gpu_catalog_lookup (k->gpu_name) != NULL)
        c = k;
    }
  g_assert_nonnull (c);
  c->tp = 0;
  c->pp = 0;
  c->gpus_per_replica = 4;
  g_ptr_array_set_size (project->engine_logs, 0);
  g_ptr_array_set_size (project->probe_results, 0);
  gpu = procura_gpu_catalog_lookup (c->gpu_name);

  g_assert_true (procura_analysis_fit_setup (project, c, FALSE, &setup, &reason));
  g_assert_cmpint (setup.request.tp, ==, 4);
  g_assert_cmpint (setup.request.pp, ==, 1);
  procura_analysis_fit_setup_clear (&setup);
  /* PP 2 of the same 4 GPUs: TP 2; 3 GPUs over PP 2 do not divide: TP 1 */
  {
    int tp, pp;

    c->pp = 2;
    procura_analysis_fit_parallel (c, &tp, &pp);
    g_assert_cmpint (tp, ==, 2);
    g_assert_cmpint (pp, ==, 2);
    c->gpus_per_replica = 3;
    procura_analysis_fit_parallel (c, &tp, &pp);
    g_assert_cmpint (tp, ==, 1);
    c->pp = 0;
    c->gpus_per_replica = 4;
  }

  analysis = procura_analysis_run (project, NULL);
  ca = procura_analysis_find (analysis, c->id);
  g_assert_nonnull (ca);
  g_assert_nonnull (ca->fit);
  g_assert_cmpint (ca->fit->tp, ==, 4);
  g_assert_cmpint (ca->fit->gpus, ==, 4);

  memory = procura_figure_build ("memory", project, analysis, NULL);
  table = procura_chart_table (memory, 0);
  for (guint cat = 1; cat < table->len; cat++)
    if (g_str_equal (((char **) table->pdata[cat])[0], ca->name))
      row = cat - 1;
  g_assert_cmpuint (row, !=, G_MAXUINT);
  n_series = procura_chart_get_n_series (memory);
  for (guint s = 0; s < n_series; s++)
    {
      const char *name = procura_chart_series_get_name (memory, s);
      double y, want = NAN;

      procura_chart_series_get_point (memory, s, row, NULL, &y);
      if (g_strcmp0 (name, "Weights") == 0)
        want = ca->fit->weights_bytes;
      else if (g_strcmp0 (name, "KV cache (target)") == 0)
        want = ca->fit->parts[PROCURA_FIT_PART_KV_CACHE].bytes;
      else if (g_strcmp0 (name, "KV pool, spare") == 0)
        want = ca->fit->parts[PROCURA_FIT_PART_KV_SPARE].bytes;
      else if (g_strcmp0 (name, "Headroom") == 0)
        want = ca->fit->headroom_bytes;
      if (isnan (want) || want <= 0)
        continue;
      g_assert_cmpfloat_with_epsilon (y, want / PROCURA_GIB, 1e-9 * want / PROCURA_GIB);
      checked++;
    }
  g_assert_cmpuint (checked, >=, 3);

  /* the fit map marks the candidate's own TP on its GPU's rows */
  fit_map = procura_figure_build ("fit-map", project, analysis, NULL);
  g_clear_pointer (&table, g_ptr_array_unref);
  table = procura_chart_table (fit_map, 0);
  own_row = g_strdup_printf ("%s · TP 4 (candidate)", gpu->name);
  for (guint cat = 1; cat < table->len; cat++)
    {
      const char *label = ((char **) table->pdata[cat])[0];

      saw_own |= g_str_equal (label, own_row);
      g_assert_false (strstr (label, gpu->name) != NULL && strstr (label, "(candidate)") != NULL
                      && !g_str_equal (label, own_row));
    }
  g_assert_true (saw_own);
}

/* The fit map's row of a candidate: the class drawn at the target context is the one the
 * calculator gives at that context and TP, computed here on its own; and a GPU the
 * weights alone overflow (70B bf16 on one 80 GB H100) is "does not fit" all along. */
static void
test_demo_fit_map (void)
{
  g_autoptr (ProcuraProject) project = procura_demo_project_new ();
  g_autoptr (ProcuraAnalysis) analysis = procura_analysis_run (project, NULL);
  g_autoptr (ProcuraChart) chart = procura_figure_build ("fit-map", project, analysis, NULL);
  g_autoptr (GPtrArray) table = procura_chart_table (chart, 0);
  g_autoptr (ProcuraModelShape) model = procura_model_catalog_lookup (project->brief->model_shape);
  const ProcuraGpuSpec *h100 = procura_gpu_catalog_lookup ("H100 SXM");
  ProcuraFitRequest req;
  ProcuraFitResult result;
  guint n_series = procura_chart_get_n_series (chart);
  const double target = project->brief->input_tokens + project->brief->output_tokens;
  guint row_tp1 = G_MAXUINT, row_tp4 = G_MAXUINT, drawn = G_MAXUINT, expected;
  double y;

  g_assert_nonnull (model);
  g_assert_nonnull (h100);
  g_assert_cmpuint (n_series, ==, 5);
  for (guint cat = 1; cat < table->len; cat++)
    {
      const char *label = ((char **) table->pdata[cat])[0];
      if (strstr (label, h100->name) != NULL && g_str_has_suffix (label, "TP 1"))
        row_tp1 = cat - 1;
      if (strstr (label, h100->name) != NULL && strstr (label, "TP 4") != NULL)
        row_tp4 = cat - 1;
    }
  g_assert_cmpuint (row_tp1, !=, G_MAXUINT);
  g_assert_cmpuint (row_tp4, !=, G_MAXUINT);

  /* TP 1: only the last class ("does not fit") is drawn, reaching past the grid */
  for (guint s = 0; s + 1 < n_series; s++)
    {
      procura_chart_series_get_point (chart, s, row_tp1, NULL, &y);
      g_assert_true (isnan (y));
    }
  procura_chart_series_get_point (chart, n_series - 1, row_tp1, NULL, &y);
  g_assert_cmpfloat (y, >=, 262144);

  /* TP 4 at the target context: the first class whose stretch reaches past it */
  for (guint s = 0; s < n_series && drawn == G_MAXUINT; s++)
    {
      procura_chart_series_get_point (chart, s, row_tp4, NULL, &y);
      if (isfinite (y) && y >= target)
        drawn = s;
    }
  procura_fit_request_init (&req);
  req.model = model;
  req.tp = 4;
  req.context_tokens = (gint64) target;
  req.concurrency = 1;
  req.gpu_id = h100->id;
  req.usable_memory_bytes = procura_fit_gpu_usable_bytes (h100, NULL);
  g_assert_true (procura_fit_compute (&req, &result, NULL));
  expected = result.max_concurrency >= 128 ? 0 : result.max_concurrency >= 32 ? 1
           : result.max_concurrency >= 8 ? 2 : result.max_concurrency >= 1 ? 3 : 4;
  g_assert_cmpuint (drawn, ==, expected);
}

static ProcuraRun *
make_run (gint64  id,
          gint64  candidate,
          double  rps,
          double  p99_ms)
{
  ProcuraRun *run = procura_run_new ();

  run->id = id;
  run->candidate_id = candidate;
  run->label = g_strdup_printf ("rate %g", rps);
  run->request_throughput = rps;
  run->completed = 100;
  run->failed = 0;
  procura_run_add_stat (run, "ttft", "p99", p99_ms, PROCURA_SOURCE_AS_REPORTED, -1);
  procura_run_add_stat (run, "ttft", "p50", p99_ms / 2, PROCURA_SOURCE_AS_REPORTED, -1);
  return run;
}

static ProcuraProject *
make_project (int kind)
{
  ProcuraProject *p = procura_project_new ();
  ProcuraCandidate *c;

  p->title = g_strdup ("degenerate");
  if (kind == 0)
    return p;   /* empty: no brief figures, nothing */

  g_free (p->brief->slo_metric);
  p->brief->slo_metric = g_strdup ("ttft");
  p->brief->slo_percentile = 99;
  p->brief->slo_threshold_ms = 500;
  p->brief->demand_average = 2;
  p->brief->demand_peak = 4;
  p->brief->model_shape = g_strdup ("meta-llama/Llama-3.1-8B-Instruct");
  p->assumptions.acceptance_rate = 0.9;

  c = procura_candidate_new ();
  c->id = 1;
  c->name = g_strdup ("1× H100");
  c->kind = PROCURA_CANDIDATE_GPU;
  c->gpu_name = g_strdup ("h100-sxm-80gb");
  c->price_per_gpu_hour = 2.5;
  g_ptr_array_add (p->candidates, c);

  switch (kind)
    {
    case 1:   /* one point that meets the target: not saturated */
      g_ptr_array_add (p->runs, make_run (1, 1, 3, 200));
      break;
    case 2:   /* every point misses */
      g_ptr_array_add (p->runs, make_run (1, 1, 1, 900));
      g_ptr_array_add (p->runs, make_run (2, 1, 2, 1500));
      break;
    case 3:   /* a candidate without any run, a GPU not in the catalog */
      g_free (c->gpu_name);
      c->gpu_name = g_strdup ("Imaginary GPU 9000");
      break;
    default:
      break;
    }
  return p;
}

static void
test_degenerate (void)
{
  g_autofree char *dir = g_dir_make_tmp ("procura-figures-XXXXXX", NULL);

  for (int kind = 0; kind <= 3; kind++)
    {
      g_autoptr (ProcuraProject) project = make_project (kind);

      for (guint i = 0; procura_figure_names[i]; i++)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (ProcuraChart) chart = procura_figure_build (procura_figure_names[i], project, NULL, &error);
          g_autofree char *stem = g_strdup_printf ("%d-%s", kind, procura_figure_names[i]);

          g_assert_no_error (error);
          g_assert_nonnull (chart);
          render_everywhere (chart, dir, stem);
        }
    }
  remove_dir (dir);
}

static void
test_degenerate_content (void)
{
  g_autoptr (ProcuraProject) empty = make_project (0);
  g_autoptr (ProcuraProject) misses = make_project (2);
  g_autoptr (ProcuraProject) one = make_project (1);
  g_autoptr (ProcuraChart) empty_latency = procura_figure_build ("latency", empty, NULL, NULL);
  g_autoptr (ProcuraChart) miss_latency = procura_figure_build ("latency", misses, NULL, NULL);
  g_autoptr (ProcuraChart) miss_cost = procura_figure_build ("cost-curve", misses, NULL, NULL);
  g_autoptr (ProcuraChart) one_latency = procura_figure_build ("latency", one, NULL, NULL);
  g_autofree char *s_empty = procura_chart_summary (empty_latency);
  g_autofree char *s_miss = procura_chart_summary (miss_latency);
  g_autofree char *s_miss_cost = procura_chart_summary (miss_cost);
  g_autofree char *s_one = procura_chart_summary (one_latency);

  /* empty: says what is missing */
  g_assert_nonnull (strstr (s_empty, "No benchmark runs"));
  /* all misses: struck out, with the reason, and in the cost curve too */
  g_assert_nonnull (strstr (s_miss, "1× H100 (struck out)"));
  g_assert_nonnull (strstr (s_miss, "misses the target"));
  g_assert_nonnull (strstr (s_miss_cost, "struck out"));
  /* one point meeting the target: not saturated, a lower bound */
  g_assert_nonnull (strstr (s_one, "not saturated: ≥ 3 req/s"));
}

/* ------------------------------------------------------------------------- */
/* Latency: the crossing shown is the crossing computed                       */

static guint
series_named (ProcuraChart *chart,
              const char   *name)
{
  for (guint i = 0; i < procura_chart_get_n_series (chart); i++)
    if (g_strcmp0 (procura_chart_series_get_name (chart, i), name) == 0)
      return i;
  g_assert_not_reached ();
  return 0;
}

static void
test_latency_crossing (void)
{
  g_autoptr (ProcuraProject) p = make_project (1);
  g_autoptr (ProcuraAnalysis) a = NULL;
  g_autoptr (ProcuraChart) chart = NULL;
  g_autoptr (ProcuraChart) with_samples = NULL;
  const ProcuraCapacity *cap;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 640, 400);
  cairo_t *cr = cairo_create (surface);
  g_autoptr (ProcuraChartLayout) layout = procura_chart_layout_new ();
  double y_drawn, y_screen, px, py, bx, by, ax, ay;
  guint line;

  /* as reported, p99 ttft: 2 req/s 100 ms, 3 req/s 200 ms, 8 req/s 900 ms; target 500 ms.
   * By hand: 3 + (500 - 200) / (900 - 200) x 5 = 5.142857 req/s */
  g_ptr_array_add (p->runs, make_run (2, 1, 2, 100));
  g_ptr_array_add (p->runs, make_run (3, 1, 8, 900));
  a = procura_analysis_run (p, NULL);
  cap = procura_analysis_find (a, 1)->capacity;
  g_assert_cmpint (cap->status, ==, PROCURA_CAPACITY_OK);
  g_assert_cmpfloat_with_epsilon (cap->capacity_rps, 3 + 300.0 / 700.0 * 5, 1e-12);

  chart = procura_figure_build ("latency", p, a, NULL);
  procura_chart_draw (chart, layout, cr, 640, 400, procura_chart_theme_light ());
  g_assert_true (procura_chart_layout_get_plot (layout).y_log);
  line = series_named (chart, "1× H100");
  /* the drawn line passes through the target at the computed capacity */
  g_assert_true (procura_chart_series_value_at (chart, line, cap->capacity_rps, &y_drawn));
  g_assert_cmpfloat_with_epsilon (y_drawn, 500, 1e-9);
  /* and on screen: the marker's pixel lies on the drawn curve, not on the chord */
  g_assert_true (procura_chart_data_to_pixel (layout, cap->capacity_rps, 500, &px, &py));
  g_assert_true (procura_chart_data_to_pixel (layout, 3, 200, &bx, &by));
  g_assert_true (procura_chart_data_to_pixel (layout, 8, 900, &ax, &ay));
  /* the straight chord on the log axis would be visibly off (> 5 px) */
  g_assert_cmpfloat (fabs (by + (px - bx) / (ax - bx) * (ay - by) - py), >, 5);

  /* a line straight on screen (the old drawing) would cross elsewhere: this test can fail */
  {
    ProcuraChart *plain = procura_chart_new ();
    ProcuraChartSeries *s;
    double x[] = { 3, 8 }, y[] = { 200, 900 };

    procura_chart_set_axis (plain, PROCURA_AXIS_Y, "ttft", PROCURA_UNIT_MS, PROCURA_SCALE_LOG);
    s = procura_chart_add_series (plain, PROCURA_SERIES_LINE, "plain", x, y, 2);
    g_assert_true (procura_chart_series_value_at (plain, 0, cap->capacity_rps, &y_screen));
    g_assert_cmpfloat (fabs (y_screen - 500), >, 50);
    procura_chart_series_set_data_space (s, TRUE);
    g_assert_true (procura_chart_series_value_at (plain, 0, cap->capacity_rps, &y_screen));
    g_assert_cmpfloat_with_epsilon (y_screen, 500, 1e-9);
    procura_chart_unref (plain);
  }

  /* a monotone sweep: no callout about a miss below a meeting point */
  {
    g_autofree char *summary = procura_chart_summary (chart);
    g_assert_null (strstr (summary, "misses here"));
  }

  /* as reported, no p95: the subtitle promises neither intervals nor shading */
  g_assert_null (strstr (procura_chart_get_subtitle (chart), "bootstrap"));
  g_assert_null (strstr (procura_chart_get_subtitle (chart), "shaded"));
  g_assert_nonnull (strstr (procura_chart_get_subtitle (chart), "as reported"));

  /* with per-request samples it says so */
  {
    ProcuraRun *r = g_ptr_array_index (p->runs, 0);
    double *v = g_new (double, 200);

    for (guint i = 0; i < 200; i++)
      v[i] = i;
    procura_run_take_samples (r, "ttft", v, 200);
  }
  with_samples = procura_figure_build ("latency", p, NULL, NULL);
  g_assert_nonnull (strstr (procura_chart_get_subtitle (with_samples), "bootstrap"));

  /* a warm-up outlier: the lightest point misses, the next ones meet; the chart says
   * so beside that point instead of striking the candidate out */
  {
    g_autoptr (ProcuraChart) outlier = NULL;
    g_autofree char *summary = NULL;

    g_ptr_array_add (p->runs, make_run (4, 1, 0.5, 700));
    outlier = procura_figure_build ("latency", p, NULL, NULL);
    summary = procura_chart_summary (outlier);
    g_assert_nonnull (strstr (summary, "misses here, meets at a higher load"));
    g_assert_null (strstr (summary, "struck out"));
  }

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* ------------------------------------------------------------------------- */
/* procura render                                                             */

static int
run_procura (const char * const *args,
             char              **err)
{
  const char *binary = g_getenv ("PROCURA_BINARY");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  int status = 0;

  g_ptr_array_add (argv, (char *) binary);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, err, &status, NULL));
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static void
test_cli_render (void)
{
  const char *binary = g_getenv ("PROCURA_BINARY");
  g_autofree char *dir = NULL;
  g_autofree char *project = NULL;
  g_autofree char *png = NULL;
  g_autofree char *svg = NULL;
  g_autofree char *pdf = NULL;
  g_autofree char *missing = NULL;
  g_autoptr (GError) error = NULL;
  cairo_surface_t *surface;
  char *err = NULL;

  if (binary == NULL || !g_file_test (binary, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("PROCURA_BINARY is not built");
      return;
    }
  dir = g_dir_make_tmp ("procura-render-XXXXXX", NULL);
  project = g_build_filename (dir, "demo.procura", NULL);
  png = g_build_filename (dir, "latency.png", NULL);
  svg = g_build_filename (dir, "memory.svg", NULL);
  pdf = g_build_filename (dir, "pareto.pdf", NULL);
  missing = g_build_filename (dir, "missing.procura", NULL);
  g_assert_true (procura_demo_write (project, &error));
  g_assert_no_error (error);

  g_assert_cmpint (run_procura ((const char *[]) { "render", project, "latency", "--output", png,
                                                   "--width", "800", "--height", "500", NULL }, &err), ==, 0);
  g_clear_pointer (&err, g_free);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 800);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 500);
  cairo_surface_destroy (surface);

  g_assert_cmpint (run_procura ((const char *[]) { "render", project, "memory", "--output", svg,
                                                   "--theme", "dark", NULL }, &err), ==, 0);
  g_clear_pointer (&err, g_free);
  assert_svg_well_formed (svg);
  g_assert_cmpint (run_procura ((const char *[]) { "render", project, "pareto", "--output", pdf,
                                                   "--theme", "high-contrast", NULL }, &err), ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_cmpuint (count_pdf_pages (pdf), ==, 1);

  /* unknown figure: usage error listing the names */
  g_assert_cmpint (run_procura ((const char *[]) { "render", project, "pie", "--output", png, NULL }, &err), ==, 2);
  g_assert_nonnull (strstr (err, "pie"));
  g_assert_nonnull (strstr (err, "cost-curve"));
  g_assert_nonnull (strstr (err, "fit-map"));
  g_clear_pointer (&err, g_free);
  /* unreadable project: bad input */
  g_assert_cmpint (run_procura ((const char *[]) { "render", missing, "latency", "--output", png, NULL }, &err), ==, 1);
  g_assert_nonnull (strstr (err, "missing.procura"));
  g_clear_pointer (&err, g_free);
  /* usage errors */
  g_assert_cmpint (run_procura ((const char *[]) { "render", project, "latency", "--output", "x.gif", NULL }, &err), ==, 2);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_procura ((const char *[]) { "render", project, "latency", NULL }, &err), ==, 2);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_procura ((const char *[]) { "render", project, "latency", "--output", png, "--theme", "neon", NULL }, &err), ==, 2);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_procura ((const char *[]) { "render", project, NULL }, &err), ==, 2);
  g_clear_pointer (&err, g_free);

  remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/figures/names", test_names);
  g_test_add_func ("/figures/demo/all-formats", test_demo_all);
  g_test_add_func ("/figures/demo/cost-curve-steps", test_demo_cost_curve);
  g_test_add_func ("/figures/demo/breakdown-sums", test_demo_breakdown_sums);
  g_test_add_func ("/figures/demo/memory-sums", test_demo_memory_sums);
  g_test_add_func ("/figures/one-fit-request", test_one_fit_request);
  g_test_add_func ("/figures/demo/memory-measured", test_demo_memory_measured);
  g_test_add_func ("/figures/demo/cdf-and-sensitivity", test_demo_cdf_and_sensitivity);
  g_test_add_func ("/figures/demo/fit-map", test_demo_fit_map);
  g_test_add_func ("/figures/degenerate/render", test_degenerate);
  g_test_add_func ("/figures/degenerate/content", test_degenerate_content);
  g_test_add_func ("/figures/latency-crossing", test_latency_crossing);
  g_test_add_func ("/figures/cli-render", test_cli_render);

  return g_test_run ();
}
