/* procura-figures.c: the standard comparison figures as chart specs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Conventions shared by every figure, so that a reader can compare them side by side:
 * - a candidate keeps its colour, dash and marker in every figure (its position in
 *   the analysis is its colour index);
 * - money per output is shown at the analysis's unit scale: per 1k accepted outputs, per 1M for
 *   token units, per asset / clip / task / run for units counted one by one;
 * - estimates are marked (dashed, hatched, "(estimate)"), candidates that miss the
 *   target are struck out with the reason, and the demo's data is labelled
 *   illustrative in every subtitle.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "procura-figures.h"
#include "procura-quantiles.h"
#include "procura-stats.h"
#include "procura-units.h"
#include "procura-fit.h"
#include "procura-gpu-catalog.h"
#include "procura-model-catalog.h"

G_DEFINE_QUARK (procura-figure-error-quark, procura_figure_error)

const char * const procura_figure_names[] = {
  "cost-curve", "latency", "breakdown", "memory", "pareto", "break-even", "cdf",
  "sensitivity", "fit-map", NULL
};

static const char * const figure_titles[] = {
  N_("Cost per accepted output vs demand"),
  N_("Latency vs load"),
  N_("Cost breakdown per candidate"),
  N_("Memory fit per candidate"),
  N_("Cost vs tail latency (Pareto)"),
  N_("Break-even vs utilisation"),
  N_("Latency distribution"),
  N_("What moves the cost (sensitivity)"),
  N_("Fit map: concurrency vs context"),
};

G_STATIC_ASSERT (G_N_ELEMENTS (figure_titles) + 1 == G_N_ELEMENTS (procura_figure_names));

static int
figure_index (const char *name)
{
  for (int i = 0; name && procura_figure_names[i]; i++)
    if (g_str_equal (name, procura_figure_names[i]))
      return i;
  return -1;
}

gboolean
procura_figure_is_known (const char *name)
{
  return figure_index (name) >= 0;
}

const char *
procura_figure_title (const char *name)
{
  int i = figure_index (name);

  return i >= 0 ? _(figure_titles[i]) : NULL;
}

/* ------------------------------------------------------------------------- */
/* Shared helpers                                                             */

typedef struct {
  ProcuraProject        *project;
  const ProcuraAnalysis *analysis;
  double                 factor;     /* cost per accepted output x factor = shown figure */
  char                  *per;        /* "per 1k accepted responses" */
  char                  *metric;     /* "p99 TTFT" */
  const char            *currency;   /* "EUR" */
  const char            *symbol;     /* "€", or NULL when the code is written after */
} Fig;

static const char *
metric_display (const char *metric)
{
  if (metric == NULL)
    return _("latency");
  if (g_str_equal (metric, "ttft"))
    return "TTFT";
  if (g_str_equal (metric, "tpot"))
    return "TPOT";
  if (g_str_equal (metric, "tpot_incl_first"))
    return _("TPOT (incl. first)");
  if (g_str_equal (metric, "itl"))
    return "ITL";
  if (g_str_equal (metric, "e2e"))
    return _("E2E latency");
  return metric;
}

static char *
percentile_display (double p)
{
  if (!isfinite (p))
    return g_strdup ("p?");
  if (fabs (p - round (p)) < 1e-9)
    return g_strdup_printf ("p%.0f", p);
  return g_strdup_printf ("p%g", p);
}

static void
fig_init (Fig                   *f,
          ProcuraProject        *project,
          const ProcuraAnalysis *analysis)
{
  /* the unit as the analysis counts it (a clip, not a video second, when one request
   * renders one clip), at the scale it chose */
  const char *unit = analysis->unit_label != NULL ? analysis->unit_label
                     : project->brief && project->brief->success_unit ? project->brief->success_unit
                     : "accepted response";
  double factor = procura_units_scale (analysis->unit_factor > 0 ? analysis->unit_factor
                                      : (strstr (unit, "token") ? 1e6 : 1e3));
  g_autofree char *pct = percentile_display (analysis->slo_percentile);

  f->project = project;
  f->analysis = analysis;
  f->factor = factor;
  /* the one wording of the project's scale (procura-units.h), as the app and the report */
  f->per = procura_units_per_label (factor, unit);
  f->currency = analysis->currency != NULL ? analysis->currency
                : project->assumptions.currency != NULL ? project->assumptions.currency : "USD";
  f->symbol = procura_units_currency_symbol (f->currency);
  if (isfinite (analysis->slo_percentile))
    f->metric = g_strdup_printf ("%s %s", pct, metric_display (analysis->slo_metric));
  else
    f->metric = g_strdup (metric_display (analysis->slo_metric));
}

static void
fig_clear (Fig *f)
{
  g_free (f->per);
  g_free (f->metric);
}

/* "4× H100 SXM · TP4 · on-demand" -> "4× H100 SXM"; a hybrid's two parts each:
 * "Hybrid: 4× H200 SXM · TP4 + Hosted API · Llama" -> "Hybrid: 4× H200 SXM + Hosted API" */
static char *
short_name (const char *name)
{
  g_auto (GStrv) parts = NULL;
  GString *out;

  if (name == NULL)
    return g_strdup ("?");
  parts = g_strsplit (name, " + ", -1);
  out = g_string_new (NULL);
  for (guint i = 0; parts[i]; i++)
    {
      const char *dot = strstr (parts[i], " · ");

      if (i > 0)
        g_string_append (out, " + ");
      g_string_append_len (out, parts[i], dot ? dot - parts[i] : (gssize) strlen (parts[i]));
    }
  return g_string_free (out, FALSE);
}

static ProcuraChart *
chart_new (Fig        *f,
           const char *title,
           const char *subtitle)
{
  ProcuraChart *chart = procura_chart_new ();
  GString *sub = g_string_new (NULL);

  procura_chart_set_currency (chart, f->symbol, f->currency);
  procura_chart_set_title (chart, title);
  procura_chart_set_description (chart, title);
  if (f->project->illustrative)
    g_string_append (sub, _("Illustrative data"));
  if (subtitle && subtitle[0])
    g_string_append_printf (sub, "%s%s", sub->len ? " · " : "", subtitle);
  if (sub->len)
    procura_chart_set_subtitle (chart, sub->str);
  g_string_free (sub, TRUE);
  return chart;
}

static guint
n_candidates (const Fig *f)
{
  return f->analysis->candidates ? f->analysis->candidates->len : 0;
}

static const ProcuraCandidateAnalysis *
cand (const Fig *f,
      guint      i)
{
  return f->analysis->candidates->pdata[i];
}

static const ProcuraRun *
find_run (const Fig *f,
          gint64     id)
{
  for (guint i = 0; f->project->runs && i < f->project->runs->len; i++)
    {
      const ProcuraRun *r = f->project->runs->pdata[i];
      if (r->id == id)
        return r;
    }
  return NULL;
}

/* The capacity is a lower bound (cost an upper bound) when the sweep never saturated. */
static gboolean
capacity_is_estimate (const ProcuraCandidateAnalysis *ca)
{
  return ca->capacity && ca->capacity->status == PROCURA_CAPACITY_NOT_SATURATED
         && (ca->capacity_origin == NULL || g_str_has_prefix (ca->capacity_origin, "benchmark"));
}

static char *
slo_text (const Fig *f)
{
  g_autofree char *threshold = procura_chart_format_value (f->analysis->slo_threshold_ms, PROCURA_UNIT_MS);

  return g_strdup_printf (_("target %s ≤ %s"), f->metric, threshold);
}

static double
max_demand_axis (const Fig *f)
{
  double m = 0;

  if (isfinite (f->analysis->demand_peak))
    m = MAX (m, f->analysis->demand_peak * 1.25);
  if (isfinite (f->analysis->demand_average))
    m = MAX (m, f->analysis->demand_average * 2);
  for (guint i = 0; i < n_candidates (f); i++)
    if (isfinite (cand (f, i)->capacity_at_slo))
      m = MAX (m, cand (f, i)->capacity_at_slo * 1.5);
  return m > 0 ? m : 10;
}

/* ------------------------------------------------------------------------- */
/* cost-curve                                                                 */

static ProcuraChart *
figure_cost_curve (Fig *f)
{
  g_autofree char *ylabel = g_strdup_printf (_("Cost %s (%s)"), f->per, f->symbol != NULL ? f->symbol : f->currency);
  g_autofree char *sub = g_strdup_printf (_("Replica steps shown as steps; %s"), f->per);
  ProcuraChart *chart = chart_new (f, _("Cost per accepted output vs demand"), sub);
  double demand_max = max_demand_axis (f);
  gboolean any = FALSE;
  const ProcuraCandidateAnalysis *api = NULL;

  procura_chart_set_axis (chart, PROCURA_AXIS_X, _("Average demand"), PROCURA_UNIT_REQ_PER_S, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, ylabel, PROCURA_UNIT_DOLLARS, PROCURA_SCALE_LOG);
  procura_chart_set_axis_range (chart, PROCURA_AXIS_X, 0, demand_max);
  procura_chart_set_description (chart, _("cost per accepted output against average demand"));

  for (guint i = 0; i < n_candidates (f); i++)
    {
      const ProcuraCandidateAnalysis *ca = cand (f, i);
      g_autoptr (GArray) curve = NULL;
      ProcuraChartSeries *s;
      double *x, *y;
      gsize n = 0;

      if (ca->kind == PROCURA_CANDIDATE_API && ca->inputs)
        api = ca;
      if (ca->inputs == NULL || ca->cost == NULL)
        {
          /* no cost at this SLO: in the legend, struck out, with the reason */
          s = procura_chart_add_series (chart, PROCURA_SERIES_LINE, ca->name, NULL, NULL, 0);
          procura_chart_series_set_color (s, i);
          procura_chart_series_set_struck_out (s, TRUE, ca->cost_reason ? ca->cost_reason : _("no cost"));
          continue;
        }
      curve = procura_cost_curve (ca->inputs, demand_max, 160);
      x = g_new (double, curve->len);
      y = g_new (double, curve->len);
      for (guint k = 0; k < curve->len; k++)
        {
          const ProcuraCostCurvePoint *p = &g_array_index (curve, ProcuraCostCurvePoint, k);

          if (!isfinite (p->cost_per_accepted) || p->cost_per_accepted <= 0)
            continue;
          x[n] = p->demand;
          y[n] = p->cost_per_accepted * f->factor;
          n++;
        }
      s = procura_chart_add_series_take (chart, PROCURA_SERIES_LINE, ca->name, x, y, n);
      procura_chart_series_set_color (s, i);
      procura_chart_series_set_marker (s, PROCURA_MARKER_NONE);
      if (capacity_is_estimate (ca))
        procura_chart_series_set_estimate (s, TRUE);
      any |= n > 0;
    }

  /* crossings with the API route, labelled */
  if (api)
    for (guint i = 0; i < n_candidates (f); i++)
      {
        const ProcuraCandidateAnalysis *ca = cand (f, i);

        if (ca->break_even == NULL || ca->break_even_api != api->candidate_id)
          continue;
        for (guint k = 0; k < ca->break_even->len; k++)
          {
            const ProcuraBreakEven *be = &g_array_index (ca->break_even, ProcuraBreakEven, k);
            g_autofree char *who = short_name (ca->name);
            g_autofree char *at = procura_chart_format_value (be->demand, PROCURA_UNIT_REQ_PER_S);
            g_autofree char *label = g_strdup_printf (_("%s = API at %s"), who, at);

            /* the first crossing only: with replica steps a curve may graze the API
             * line at every step after it, and a label each would bury the chart */
            if (be->demand <= demand_max && isfinite (be->cost_per_accepted))
              {
                procura_chart_add_marker (chart, be->demand, be->cost_per_accepted * f->factor, label);
                break;
              }
          }
      }

  if (isfinite (f->analysis->demand_average) && f->analysis->demand_average > 0)
    {
      g_autofree char *avg = procura_chart_format_value (f->analysis->demand_average, PROCURA_UNIT_REQ_PER_S);
      g_autofree char *label = g_strdup_printf (_("planned %s"), avg);
      procura_chart_add_vline (chart, f->analysis->demand_average, label);
    }
  if (!any)
    procura_chart_set_message (chart, _("No candidate has a cost yet: add prices, a latency target and benchmark runs."));
  return chart;
}

/* ------------------------------------------------------------------------- */
/* latency                                                                    */

static ProcuraChart *
figure_latency (Fig *f)
{
  g_autofree char *target = slo_text (f);
  g_autofree char *ylabel = g_strdup_printf ("%s", f->metric);
  ProcuraChart *chart = chart_new (f, _("Latency vs load"), NULL);
  gboolean any = FALSE, any_ci = FALSE, any_spread = FALSE;
  guint n_excluded = 0;

  procura_chart_set_axis (chart, PROCURA_AXIS_X, _("Achieved throughput"), PROCURA_UNIT_REQ_PER_S, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, ylabel, PROCURA_UNIT_MS, PROCURA_SCALE_LOG);
  procura_chart_set_axis_include_zero (chart, PROCURA_AXIS_X, TRUE);
  {
    g_autofree char *desc = g_strdup_printf (_("%s against achieved throughput"), f->metric);
    procura_chart_set_description (chart, desc);
  }

  for (guint i = 0; i < n_candidates (f); i++)
    {
      const ProcuraCandidateAnalysis *ca = cand (f, i);
      const ProcuraCapacity *cap = ca->capacity;
      g_autofree char *who = short_name (ca->name);
      guint n;
      double *x, *y, *lo, *hi, *p50, *p95;
      gboolean have_ci = FALSE, have_spread = FALSE;
      ProcuraChartSeries *s;

      if (cap == NULL || cap->points == NULL || ca->derived)
        continue;
      n_excluded += cap->excluded != NULL ? cap->excluded->len : 0;
      if (cap->points->len == 0)
        continue;
      n = cap->points->len;
      x = g_new (double, n);
      y = g_new (double, n);
      lo = g_new (double, n);
      hi = g_new (double, n);
      p50 = g_new (double, n);
      p95 = g_new (double, n);
      for (guint k = 0; k < n; k++)
        {
          const ProcuraSweepPoint *p = &g_array_index (cap->points, ProcuraSweepPoint, k);
          const ProcuraRun *run = find_run (f, p->run_id);

          x[k] = p->throughput_rps;
          y[k] = p->value_ms;
          lo[k] = p->ci_lo_ms;
          hi[k] = p->ci_hi_ms;
          have_ci |= isfinite (lo[k]) && isfinite (hi[k]);
          p50[k] = run ? procura_run_metric_percentile (run, f->analysis->slo_metric, 50, NULL, NULL) : NAN;
          p95[k] = run ? procura_run_metric_percentile (run, f->analysis->slo_metric, 95, NULL, NULL) : NAN;
          have_spread |= isfinite (p50[k]) && isfinite (p95[k]);
        }
      if (have_spread)
        {
          s = procura_chart_add_series (chart, PROCURA_SERIES_BAND, NULL, x, NULL, n);
          procura_chart_series_set_range (s, p50, p95);
          procura_chart_series_set_color (s, i);
          procura_chart_series_set_in_legend (s, FALSE);
          if (cap->status == PROCURA_CAPACITY_MISSES)
            procura_chart_series_set_struck_out (s, TRUE, NULL);
        }
      if (have_ci)
        {
          s = procura_chart_add_series (chart, PROCURA_SERIES_ERRORBAR, NULL, x, y, n);
          procura_chart_series_set_range (s, lo, hi);
          procura_chart_series_set_color (s, i);
          procura_chart_series_set_marker (s, PROCURA_MARKER_NONE);
          procura_chart_series_set_in_legend (s, FALSE);
          if (cap->status == PROCURA_CAPACITY_MISSES)
            procura_chart_series_set_struck_out (s, TRUE, NULL);
        }
      any_ci |= have_ci;
      any_spread |= have_spread;
      s = procura_chart_add_series (chart, PROCURA_SERIES_LINE, ca->name, x, y, n);
      procura_chart_series_set_color (s, i);
      /* the capacity is read by linear interpolation in ms: draw the segments the same
       * way, so the marked crossing lies on the line on the log axis */
      procura_chart_series_set_data_space (s, TRUE);
      any = TRUE;

      if (cap->nm_miss >= 0 && cap->nm_miss < (int) n)
        {
          /* a miss below a load that meets: shown, not silently read past */
          g_autofree char *label = g_strdup_printf (_("%s: misses here, meets at a higher load"), who);
          procura_chart_add_callout (chart, x[cap->nm_miss], y[cap->nm_miss], label);
        }
      switch (cap->status)
        {
        case PROCURA_CAPACITY_OK:
          {
            g_autofree char *rps = procura_chart_format_value (cap->capacity_rps, PROCURA_UNIT_REQ_PER_S);
            g_autofree char *label = g_strdup_printf ("%s: %s%s", who, rps, cap->uncertain ? _(" (uncertain)") : "");
            procura_chart_add_marker (chart, cap->capacity_rps, f->analysis->slo_threshold_ms, label);
          }
          break;
        case PROCURA_CAPACITY_NOT_SATURATED:
          {
            g_autofree char *rps = procura_chart_format_value (cap->capacity_rps, PROCURA_UNIT_REQ_PER_S);
            g_autofree char *label = g_strdup_printf (_("%s not saturated: ≥ %s"), who, rps);
            procura_chart_add_callout (chart, x[n - 1], y[n - 1], label);
            procura_chart_series_set_estimate (s, FALSE);
          }
          break;
        case PROCURA_CAPACITY_MISSES:
          procura_chart_series_set_struck_out (s, TRUE, _("misses the target at every load"));
          break;
        case PROCURA_CAPACITY_NO_DATA:
        default:
          break;
        }
      g_free (x);
      g_free (y);
      g_free (lo);
      g_free (hi);
      g_free (p50);
      g_free (p95);
    }
  if (isfinite (f->analysis->slo_threshold_ms))
    procura_chart_add_hline (chart, f->analysis->slo_threshold_ms, target);
  if (any)
    {
      /* say only what is drawn: intervals and shading exist for recomputed data only */
      GString *sub = g_string_new (NULL);

      if (f->project->illustrative)
        g_string_append (sub, _("Illustrative data"));
      if (sub->len > 0)
        g_string_append (sub, " · ");
      if (any_ci)
        g_string_append_printf (sub, _("Lines: %s with its 95%% bootstrap interval where per-request samples exist"),
                                f->metric);
      else
        g_string_append_printf (sub, _("Lines: %s as reported (no per-request samples: no interval)"), f->metric);
      if (any_spread)
        g_string_append (sub, _("; shaded: p50 to p95"));
      if (n_excluded > 0)
        g_string_append_printf (sub, g_dngettext (GETTEXT_PACKAGE, "; %u run left out (too few requests completed)",
                                                  "; %u runs left out (too few requests completed)", n_excluded),
                                n_excluded);
      procura_chart_set_subtitle (chart, sub->str);
      g_string_free (sub, TRUE);
    }
  if (!any && f->project->runs->len > 0 && (f->analysis->slo_metric == NULL || !isfinite (f->analysis->slo_threshold_ms)))
    /* the runs are there: say what is missing rather than "no benchmark" */
    procura_chart_set_message (chart, _("No latency target in the brief: set its metric, percentile and threshold on the Brief page to read the imported runs."));
  else if (!any)
    {
      g_autofree char *msg = g_strdup_printf (_("No benchmark runs with %s and a throughput yet: import a load sweep per candidate."),
                                              metric_display (f->analysis->slo_metric));
      procura_chart_set_message (chart, msg);
    }
  return chart;
}

/* ------------------------------------------------------------------------- */
/* breakdown                                                                  */

static ProcuraChart *
figure_breakdown (Fig *f)
{
  static const struct { ProcuraCostLine line; const char *label; } lines[] = {
    { PROCURA_COST_GPU_COMPUTE, N_("GPU compute") },
    { PROCURA_COST_IDLE_CAPACITY, N_("Idle capacity") },
    { PROCURA_COST_RETRY_WASTE, N_("Retry waste") },
    { PROCURA_COST_STORAGE, N_("Storage") },
    { PROCURA_COST_NETWORK, N_("Network") },
    { PROCURA_COST_SERVING_STACK, N_("Serving stack") },
    { PROCURA_COST_OBSERVABILITY, N_("Observability") },
    { PROCURA_COST_PLATFORM_LABOR, N_("Platform labor") },
    { PROCURA_COST_API_TOKENS, N_("API tokens") },
    { PROCURA_COST_GATEWAY, N_("Gateway") },
    { PROCURA_COST_MODERATION, N_("Moderation") },
    { PROCURA_COST_QUEUE_OVERHEAD, N_("Queue overhead") },
    { PROCURA_COST_OPERATOR_REVIEW, N_("Operator review") },
    { PROCURA_COST_CHECKPOINTING, N_("Checkpointing") },
    { PROCURA_COST_FAILED_RUN_WASTE, N_("Failed-run waste") },
    { PROCURA_COST_STORAGE_VOLUME, N_("Storage (quote, per GB-month)") },
    { PROCURA_COST_EGRESS, N_("Egress (quote, per GB)") },
    { PROCURA_COST_OVERAGE, N_("Overage above the commitment") },
    { PROCURA_COST_COMMITMENT_SHORTFALL, N_("Unused minimum commitment") },
    { PROCURA_COST_SUPPORT, N_("Support") },
    { PROCURA_COST_SETUP_FEE, N_("Setup fee (spread)") },
    { PROCURA_COST_FAILURE_WASTE, N_("Failure waste (operations tests)") },
  };
  g_autofree char *vlabel = g_strdup_printf (_("Cost %s (%s)"), f->per, f->symbol != NULL ? f->symbol : f->currency);
  g_autofree char *sub = g_strdup_printf (_("All-in cost %s, by line, at the planned demand"), f->per);
  ProcuraChart *chart = chart_new (f, _("Cost breakdown per candidate"), sub);
  guint n = n_candidates (f);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  gboolean any = FALSE;

  procura_chart_set_orientation (chart, PROCURA_ORIENTATION_HORIZONTAL);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, vlabel, PROCURA_UNIT_DOLLARS, PROCURA_SCALE_LINEAR);
  procura_chart_set_bar_totals (chart, TRUE);
  procura_chart_set_description (chart, _("all-in cost per accepted output by cost line"));
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (names, g_strdup (cand (f, i)->name));
  procura_chart_set_categories (chart, (const char * const *) names->pdata, n);

  for (guint l = 0; l < G_N_ELEMENTS (lines); l++)
    {
      double *v = g_new (double, MAX (n, 1));
      gboolean used = FALSE;

      for (guint i = 0; i < n; i++)
        {
          const ProcuraCostResult *r = cand (f, i)->cost;

          v[i] = NAN;
          if (r == NULL || !(r->accepted_outputs > 0) || !procura_cost_result_line_applies (r, lines[l].line))
            continue;
          v[i] = r->lines[lines[l].line] / r->accepted_outputs * f->factor;
          used |= v[i] != 0 && isfinite (v[i]);
        }
      if (used)
        {
          ProcuraChartSeries *s = procura_chart_add_series_take (chart, PROCURA_SERIES_STACKED_BAR, _(lines[l].label),
                                                                 NULL, v, n);
          procura_chart_series_set_color (s, l);
          any = TRUE;
        }
      else
        g_free (v);
    }
  for (guint i = 0; i < n; i++)
    if (cand (f, i)->cost == NULL)
      procura_chart_set_category_struck_out (chart, i, cand (f, i)->cost_reason ? cand (f, i)->cost_reason : _("no cost"));
  if (!any)
    procura_chart_set_message (chart, _("No candidate has a cost yet: add prices, a latency target and benchmark runs."));
  return chart;
}

/* ------------------------------------------------------------------------- */
/* memory                                                                     */

/* The brief's fit request (no candidate): the one rule of procura_analysis_fit_setup().
 * Returns the model (NULL when none); *owned (the catalog's shape) and *version (the
 * request's engine version) are the caller's to free. */
static const ProcuraModelShape *
brief_fit_request (const Fig          *f,
                   ProcuraModelShape **owned,
                   char              **version,
                   ProcuraFitRequest  *req)
{
  ProcuraAnalysisFitSetup setup;
  g_autofree char *reason = NULL;

  *owned = NULL;
  *version = NULL;
  if (!procura_analysis_fit_setup (f->project, NULL, FALSE, &setup, &reason))
    {
      procura_fit_request_init (req);
      return NULL;
    }
  *req = setup.request;
  *owned = g_steal_pointer (&setup.owned_model);
  *version = g_steal_pointer (&setup.engine_version);
  req->engine_version = *version;
  procura_analysis_fit_setup_clear (&setup);
  return req->model;
}

static ProcuraChart *
figure_memory (Fig *f)
{
  static const struct { ProcuraFitPartKind kind; const char *label; } parts[] = {
    { PROCURA_FIT_PART_WEIGHTS, N_("Weights") },
    { PROCURA_FIT_PART_KV_CACHE, N_("KV cache (target)") },
    { PROCURA_FIT_PART_KV_SPARE, N_("KV pool, spare") },
    { PROCURA_FIT_PART_ACTIVATIONS, N_("Activations") },
    { PROCURA_FIT_PART_NON_TORCH, N_("Non-torch") },
    { PROCURA_FIT_PART_CUDA_GRAPHS, N_("CUDA graphs") },
    { PROCURA_FIT_PART_CUDA_CONTEXT, N_("CUDA context") },
    { PROCURA_FIT_PART_HEADROOM, N_("Headroom") },
  };
  ProcuraModelShape *owned = NULL;
  g_autofree char *version = NULL;
  ProcuraFitRequest req;
  const ProcuraModelShape *model = brief_fit_request (f, &owned, &version, &req);
  ProcuraChart *chart;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) results = g_array_new (FALSE, TRUE, sizeof (ProcuraFitResult));
  g_autoptr (GArray) ok = g_array_new (FALSE, TRUE, sizeof (gboolean));
  g_autoptr (GArray) cand_index = g_array_new (FALSE, TRUE, sizeof (guint));
  g_autoptr (GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *sub = NULL;
  gboolean any = FALSE;

  {
    g_autofree char *ctx = NULL;
    ctx = procura_chart_format_value ((double) req.context_tokens, PROCURA_UNIT_TOKENS);
    sub = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "Per GPU, %s at %s context × %lld sequence; striped: estimates",
                                        "Per GPU, %s at %s context × %lld sequences; striped: estimates",
                                        (gulong) req.concurrency),
                           model && model->id ? model->id : _("no model"), ctx, (long long) req.concurrency);
  }
  chart = chart_new (f, _("Memory fit per candidate"), sub);
  procura_chart_set_orientation (chart, PROCURA_ORIENTATION_HORIZONTAL);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, _("Memory per GPU"), PROCURA_UNIT_GIB, PROCURA_SCALE_LINEAR);
  procura_chart_set_description (chart, _("memory per GPU by part against usable memory"));

  if (model == NULL)
    {
      procura_chart_set_message (chart, _("No model shape: import the model's config.json or name a catalog model in the brief."));
      return chart;
    }

  for (guint i = 0; i < n_candidates (f); i++)
    {
      const ProcuraCandidateAnalysis *ca = cand (f, i);
      ProcuraFitResult result = { 0 };
      gboolean fitted;

      if (ca->kind != PROCURA_CANDIDATE_GPU || ca->candidate_id <= 0)
        continue;
      if (procura_project_find_candidate (f->project, ca->candidate_id) == NULL)
        continue;
      /* the analysis' fit (procura-analysis-fit.c): the one request of the candidate, with
       * its engine log and probe figures in place of the estimates; without one, the
       * analysis' reason */
      fitted = ca->fit != NULL;
      if (fitted)
        result = *ca->fit;
      g_ptr_array_add (names, g_strdup (ca->name));
      g_array_append_val (results, result);
      g_array_append_val (ok, fitted);
      g_array_append_val (cand_index, i);
      g_ptr_array_add (errors, fitted ? NULL : g_strdup (ca->fit_reason));
    }
  procura_chart_set_categories (chart, (const char * const *) names->pdata, names->len);

  for (guint p = 0; p < G_N_ELEMENTS (parts); p++)
    {
      double *v = g_new (double, MAX (names->len, 1));
      gboolean used = FALSE, estimate = FALSE;

      for (guint k = 0; k < names->len; k++)
        {
          const ProcuraFitResult *r = &g_array_index (results, ProcuraFitResult, k);

          v[k] = NAN;
          if (!g_array_index (ok, gboolean, k))
            continue;
          v[k] = r->parts[parts[p].kind].bytes / PROCURA_GIB;
          estimate |= r->parts[parts[p].kind].estimate;
          used |= v[k] > 0;
        }
      if (used)
        {
          ProcuraChartSeries *s = procura_chart_add_series_take (chart, PROCURA_SERIES_STACKED_BAR, _(parts[p].label),
                                                                 NULL, v, names->len);
          procura_chart_series_set_color (s, p);
          procura_chart_series_set_estimate (s, estimate);
          any = TRUE;
        }
      else
        g_free (v);
    }

  for (guint k = 0; k < names->len; k++)
    {
      const ProcuraFitResult *r = &g_array_index (results, ProcuraFitResult, k);
      const ProcuraCandidateAnalysis *ca = cand (f, g_array_index (cand_index, guint, k));

      if (!g_array_index (ok, gboolean, k))
        {
          procura_chart_set_category_struck_out (chart, k, errors->pdata[k] ? errors->pdata[k] : _("no fit"));
          continue;
        }
      {
        /* one total per bar: the probe's measured total where the candidate has a probe
         * result (the analysis used it as usable memory), else the catalog's figure */
        gboolean probed = (ca->fit_measured & PROCURA_FIT_MEASURED_USABLE) != 0;
        g_autofree char *usable = procura_chart_format_value (r->usable_memory_bytes / PROCURA_GIB, PROCURA_UNIT_GIB);
        g_autofree char *label = probed ? g_strdup_printf (_("usable %s (probe)"), usable)
                                        : g_strdup_printf (_("usable %s (catalog)"), usable);
        procura_chart_add_marker (chart, k, r->usable_memory_bytes / PROCURA_GIB,
                                  k == 0 || probed ? label : NULL);
      }
      if (!r->fits)
        procura_chart_set_category_struck_out (chart, k, r->limit_text[0] ? r->limit_text : _("does not fit"));

      /* the engine log's figures are in the bar itself (weights, KV pool, CUDA graphs,
       * unstriped); its weights + pool as a marker shows where the engine put them */
      if ((ca->fit_measured & (PROCURA_FIT_MEASURED_WEIGHTS | PROCURA_FIT_MEASURED_KV_POOL))
          == (PROCURA_FIT_MEASURED_WEIGHTS | PROCURA_FIT_MEASURED_KV_POOL))
        procura_chart_add_marker (chart, k, (r->weights_bytes + r->kv_pool_bytes) / PROCURA_GIB,
                                  _("engine log: weights + KV pool (measured)"));
      /* the probe's used memory on the same total as the bar */
      if ((ca->fit_measured & PROCURA_FIT_MEASURED_PROBE_FIT) != 0 && isfinite (ca->fit_probe_headroom_bytes))
        procura_chart_add_marker (chart, k, (r->usable_memory_bytes - ca->fit_probe_headroom_bytes) / PROCURA_GIB,
                                  ca->fit_probe_fits ? _("probe: used (fits, measured)")
                                                     : _("probe: used (does not fit, measured)"));
    }
  if (owned)
    procura_model_shape_free (owned);
  if (!any)
    procura_chart_set_message (chart, _("No GPU candidate whose GPU is in the catalog: nothing to fit."));
  return chart;
}

/* ------------------------------------------------------------------------- */
/* pareto                                                                     */

/* The metric at the planned load per replica, read off the sweep (interpolated). */
static double
latency_at_plan (const Fig                      *f,
                 const ProcuraCandidateAnalysis *ca)
{
  const ProcuraCapacity *cap = ca->capacity;
  double load;
  double *xs, *ys;
  double v;
  guint n;

  if (cap == NULL || cap->points == NULL || cap->points->len == 0 || ca->cost == NULL || ca->cost->replicas < 1)
    return NAN;
  load = (ca->kind == PROCURA_CANDIDATE_HYBRID ? ca->cost->gpu_demand_average : f->analysis->demand_average)
         / ca->cost->replicas;
  n = cap->points->len;
  xs = g_new (double, n);
  ys = g_new (double, n);
  for (guint k = 0; k < n; k++)
    {
      const ProcuraSweepPoint *p = &g_array_index (cap->points, ProcuraSweepPoint, k);
      xs[k] = p->throughput_rps;
      ys[k] = p->value_ms;
    }
  v = procura_stats_interp (xs, ys, n, load);
  g_free (xs);
  g_free (ys);
  return v;
}

static ProcuraChart *
figure_pareto (Fig *f)
{
  g_autofree char *xlabel = g_strdup_printf (_("Cost %s (%s)"), f->per, f->symbol != NULL ? f->symbol : f->currency);
  g_autofree char *ylabel = g_strdup_printf (_("%s at the planned load"), f->metric);
  ProcuraChart *chart = chart_new (f, _("Cost vs tail latency (Pareto)"), NULL);
  GString *left_out = g_string_new (NULL);
  GArray *px = g_array_new (FALSE, FALSE, sizeof (double));
  GArray *py = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree double *fx = NULL;
  g_autofree double *fy = NULL;
  guint nf = 0;

  procura_chart_set_axis (chart, PROCURA_AXIS_X, xlabel, PROCURA_UNIT_DOLLARS, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, ylabel, PROCURA_UNIT_MS, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis_include_zero (chart, PROCURA_AXIS_X, TRUE);
  procura_chart_set_axis_include_zero (chart, PROCURA_AXIS_Y, TRUE);
  procura_chart_set_description (chart, _("cost per accepted output against tail latency at the planned load"));

  for (guint i = 0; i < n_candidates (f); i++)
    {
      const ProcuraCandidateAnalysis *ca = cand (f, i);
      double cost, lat;
      ProcuraChartSeries *s;

      if (ca->cost == NULL)
        {
          if (ca->capacity && ca->capacity->status == PROCURA_CAPACITY_MISSES)
            {
              s = procura_chart_add_series (chart, PROCURA_SERIES_SCATTER, ca->name, NULL, NULL, 0);
              procura_chart_series_set_color (s, i);
              procura_chart_series_set_struck_out (s, TRUE, ca->cost_reason ? ca->cost_reason : _("misses the target"));
            }
          continue;
        }
      cost = ca->cost->cost_per_accepted * f->factor;
      lat = latency_at_plan (f, ca);
      if (!isfinite (cost) || !isfinite (lat))
        {
          /* no latency measured (an API without a benchmark): say so */
          g_autofree char *who = short_name (ca->name);
          g_string_append_printf (left_out, "%s%s", left_out->len ? ", " : "", who);
          continue;
        }
      s = procura_chart_add_series (chart, PROCURA_SERIES_SCATTER, ca->name, &cost, &lat, 1);
      procura_chart_series_set_color (s, i);
      if (capacity_is_estimate (ca))
        procura_chart_series_set_estimate (s, TRUE);
      {
        g_autofree char *who = short_name (ca->name);
        procura_chart_add_label (chart, cost, lat, who);
      }
      g_array_append_val (px, cost);
      g_array_append_val (py, lat);
    }

  /* the frontier: sorted by cost, each point with a lower latency than all cheaper ones */
  if (px->len > 0)
    {
      guint n = px->len;
      guint *order = g_new (guint, n);
      double best = INFINITY;

      for (guint i = 0; i < n; i++)
        order[i] = i;
      for (guint i = 1; i < n; i++)
        for (guint j = i; j > 0 && g_array_index (px, double, order[j]) < g_array_index (px, double, order[j - 1]); j--)
          {
            guint t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
          }
      fx = g_new (double, n);
      fy = g_new (double, n);
      for (guint i = 0; i < n; i++)
        {
          double y = g_array_index (py, double, order[i]);
          if (y < best)
            {
              best = y;
              fx[nf] = g_array_index (px, double, order[i]);
              fy[nf] = y;
              nf++;
            }
        }
      g_free (order);
      if (nf == 1 && px->len > 1)
        {
          g_autofree char *note = g_strdup (_("cheapest and fastest: nothing beats it on either"));
          procura_chart_add_callout (chart, fx[0], fy[0], note);
        }
      if (nf >= 2)
        {
          ProcuraChartSeries *s = procura_chart_add_series (chart, PROCURA_SERIES_STEP, _("Pareto frontier"), fx, fy, nf);
          procura_chart_series_set_color (s, 7);
          procura_chart_series_set_dash (s, PROCURA_DASH_DASHED);
          procura_chart_series_set_marker (s, PROCURA_MARKER_NONE);
        }
    }
  if (isfinite (f->analysis->slo_threshold_ms))
    {
      g_autofree char *t = slo_text (f);
      procura_chart_add_hline (chart, f->analysis->slo_threshold_ms, t);
    }
  {
    GString *sub = g_string_new (f->project->illustrative ? _("Illustrative data · ") : "");

    g_string_append (sub, _("Lower left is better"));
    if (nf >= 2)
      g_string_append (sub, _("; dashed: the Pareto frontier"));
    if (left_out->len)
      g_string_append_printf (sub, _("; no latency measured for %s"), left_out->str);
    procura_chart_set_subtitle (chart, sub->str);
    g_string_free (sub, TRUE);
    g_string_free (left_out, TRUE);
  }
  if (px->len == 0)
    procura_chart_set_message (chart, _("No candidate has both a cost and a measured latency at the planned load."));
  g_array_unref (px);
  g_array_unref (py);
  return chart;
}

/* ------------------------------------------------------------------------- */
/* break-even                                                                 */

static ProcuraChart *
figure_break_even (Fig *f)
{
  g_autofree char *ylabel = g_strdup_printf (_("Cost %s (%s)"), f->per, f->symbol != NULL ? f->symbol : f->currency);
  ProcuraChart *chart = chart_new (f, _("Break-even vs utilisation"),
                                   _("GPU cost per output as its replicas fill up, against the API route"));
  const ProcuraCandidateAnalysis *api = NULL;
  double api_cost = NAN;
  gboolean any = FALSE;

  procura_chart_set_axis (chart, PROCURA_AXIS_X, _("Utilisation of the GPU replicas"), PROCURA_UNIT_PERCENT, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, ylabel, PROCURA_UNIT_DOLLARS, PROCURA_SCALE_LOG);
  procura_chart_set_axis_range (chart, PROCURA_AXIS_X, 0, 1);
  procura_chart_set_description (chart, _("cost per accepted output against utilisation"));

  for (guint i = 0; i < n_candidates (f); i++)
    if (cand (f, i)->kind == PROCURA_CANDIDATE_API && cand (f, i)->cost)
      {
        api = cand (f, i);
        api_cost = api->cost->cost_per_accepted * f->factor;
        break;
      }

  for (guint i = 0; i < n_candidates (f); i++)
    {
      const ProcuraCandidateAnalysis *ca = cand (f, i);
      g_autoptr (ProcuraCostInputs) in = NULL;
      g_autoptr (GArray) curve = NULL;
      double *x, *y, full;
      gsize n = 0;
      int replicas;
      ProcuraChartSeries *s;

      if (ca->kind != PROCURA_CANDIDATE_GPU || ca->inputs == NULL || ca->cost == NULL
          || !isfinite (ca->inputs->capacity_at_slo) || ca->inputs->capacity_at_slo <= 0)
        continue;
      replicas = MAX (ca->cost->replicas, 1);
      in = procura_cost_inputs_copy (ca->inputs);
      in->fixed_replicas = replicas;
      full = replicas * in->capacity_at_slo / (1 + (isfinite (in->retry_rate) ? in->retry_rate : 0));
      curve = procura_cost_curve (in, full, 100);
      x = g_new (double, curve->len + 1);
      y = g_new (double, curve->len + 1);
      for (guint k = 0; k < curve->len; k++)
        {
          const ProcuraCostCurvePoint *p = &g_array_index (curve, ProcuraCostCurvePoint, k);

          if (!isfinite (p->utilization) || !isfinite (p->cost_per_accepted) || p->cost_per_accepted <= 0)
            continue;
          x[n] = p->utilization;
          y[n] = p->cost_per_accepted * f->factor;
          n++;
        }
      s = procura_chart_add_series_take (chart, PROCURA_SERIES_LINE, ca->name, x, y, n);
      procura_chart_series_set_color (s, i);
      procura_chart_series_set_marker (s, PROCURA_MARKER_NONE);
      if (capacity_is_estimate (ca))
        procura_chart_series_set_estimate (s, TRUE);
      any |= n > 0;

      /* where the curve meets the API's cost (linear between points) */
      if (isfinite (api_cost))
        for (gsize k = 1; k < n; k++)
          if ((y[k - 1] - api_cost) * (y[k] - api_cost) <= 0 && y[k - 1] != y[k])
            {
              double u = x[k - 1] + (api_cost - y[k - 1]) / (y[k] - y[k - 1]) * (x[k] - x[k - 1]);
              g_autofree char *who = short_name (ca->name);
              g_autofree char *pct = procura_chart_format_value (u, PROCURA_UNIT_PERCENT);
              g_autofree char *label = g_strdup_printf (_("%s breaks even at %s"), who, pct);

              procura_chart_add_marker (chart, u, api_cost, label);
              break;
            }
    }
  if (isfinite (api_cost))
    {
      g_autofree char *cost = procura_chart_format_money (chart, api_cost);
      g_autofree char *who = short_name (api->name);
      g_autofree char *label = g_strdup_printf ("%s: %s", who, cost);
      procura_chart_add_hline (chart, api_cost, label);
    }
  if (!any)
    procura_chart_set_message (chart, _("No GPU candidate has a cost yet: nothing to compare with."));
  else if (!isfinite (api_cost))
    procura_chart_set_subtitle (chart, f->project->illustrative
                                ? _("Illustrative data · no API route with a cost: no break-even line")
                                : _("No API route with a cost: no break-even line"));
  return chart;
}

/* ------------------------------------------------------------------------- */
/* cdf                                                                        */

/* An empirical CDF's confidence band is drawn through at most about this many points. */
#define CDF_BAND_POINTS 8192

/* The run of a sweep closest to the planned load per replica (else the last). */
static const ProcuraRun *
run_near_plan (const Fig                      *f,
               const ProcuraCandidateAnalysis *ca)
{
  const ProcuraCapacity *cap = ca->capacity;
  double load = NAN, best = INFINITY;
  const ProcuraRun *chosen = NULL;

  if (cap == NULL || cap->points == NULL)
    return NULL;
  if (ca->cost && ca->cost->replicas > 0)
    load = f->analysis->demand_average / ca->cost->replicas;
  for (guint k = 0; k < cap->points->len; k++)
    {
      const ProcuraSweepPoint *p = &g_array_index (cap->points, ProcuraSweepPoint, k);
      const ProcuraRun *run = find_run (f, p->run_id);
      double d = isfinite (load) ? fabs (p->throughput_rps - load) : -(double) k;

      if (run && d < best)
        {
          best = d;
          chosen = run;
        }
    }
  return chosen;
}

static ProcuraChart *
figure_cdf (Fig *f)
{
  g_autofree char *xlabel = g_strdup_printf ("%s", metric_display (f->analysis->slo_metric));
  ProcuraChart *chart = chart_new (f, _("Latency distribution"),
                                   _("Empirical CDF of the run nearest the planned load; band: 95% DKW confidence band"));
  gboolean any = FALSE;
  double xmin = INFINITY, xmax = -INFINITY;

  procura_chart_set_axis (chart, PROCURA_AXIS_X, xlabel, PROCURA_UNIT_MS, PROCURA_SCALE_LOG);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, _("Share of requests at or below"), PROCURA_UNIT_PERCENT, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis_range (chart, PROCURA_AXIS_Y, 0, 1);
  procura_chart_set_legend (chart, PROCURA_LEGEND_BOTTOM);
  procura_chart_set_description (chart, _("share of requests at or below a latency"));

  for (guint i = 0; i < n_candidates (f); i++)
    {
      const ProcuraCandidateAnalysis *ca = cand (f, i);
      const ProcuraRun *run = ca->derived ? NULL : run_near_plan (f, ca);
      const ProcuraQuantiles *kept = run ? procura_run_get_quantiles (run, f->analysis->slo_metric) : NULL;
      const ProcuraSamples *samples = run && kept == NULL ? procura_run_get_samples (run, f->analysis->slo_metric) : NULL;
      g_autoptr (ProcuraQuantiles) made = NULL;
      g_autofree char *name = NULL;
      ProcuraChartSeries *s;

      if (run == NULL)
        continue;
      name = g_strdup_printf ("%s (%s)", ca->name, run->label ? run->label : _("run"));
      if (kept == NULL && samples != NULL && samples->n > 0)
        {
          /* the sort the percentiles use, made once and kept */
          gsize m = 0;
          const double *sorted = procura_samples_sorted (samples, &m);

          kept = made = procura_quantiles_new_sorted (f->analysis->slo_metric, sorted, m);
        }
      if (kept != NULL)
        {
          /* Drawn from the sorted quantile summary (procura-quantiles.h): every sample up
           * to PROCURA_QUANTILES_GRID of them, else that many order statistics, whose CDF
           * is within 1/(GRID - 1) of the samples' own at every x, far under a pixel.
           * A log axis shows the values above 0, the end of it. */
          double *x = NULL, *y = NULL, *bx, *lo, *hi;
          gsize n = procura_quantiles_positive_steps (kept, &x, &y);
          gsize step, nb, count;
          double eps;

          if (n == 0)
            continue;
          /* Dvoretzky–Kiefer–Wolfowitz: P(sup |F_n - F| > eps) <= 2 exp(-2 n eps^2) = 0.05,
           * n the values above 0. The band is drawn through every kept point up to
           * CDF_BAND_POINTS of them, then through every step-th: its rows are then at
           * most 1/CDF_BAND_POINTS apart, a fraction of a pixel. */
          count = (gsize) (kept->n - kept->ranks[kept->k - n]);
          eps = sqrt (log (2 / 0.05) / (2.0 * count));
          step = MAX (1, n / CDF_BAND_POINTS);
          nb = (n - 1) / step + 1 + ((n - 1) % step != 0);
          bx = g_new (double, nb);
          lo = g_new (double, nb);
          hi = g_new (double, nb);
          for (gsize j = 0; j < nb; j++)
            {
              gsize k = MIN (j * step, n - 1);

              bx[j] = x[k];
              lo[j] = MAX (0, y[k] - eps);
              hi[j] = MIN (1, y[k] + eps);
            }
          xmin = MIN (xmin, x[0]);
          xmax = MAX (xmax, x[n - 1]);
          s = procura_chart_add_series_take (chart, PROCURA_SERIES_BAND, NULL, bx, NULL, nb);
          procura_chart_series_set_range (s, lo, hi);
          procura_chart_series_set_color (s, i);
          procura_chart_series_set_in_legend (s, FALSE);
          s = procura_chart_add_series_take (chart, PROCURA_SERIES_STEP, name, x, y, n);
          procura_chart_series_set_color (s, i);
          procura_chart_series_set_marker (s, PROCURA_MARKER_NONE);
          g_free (lo);
          g_free (hi);
          any = TRUE;
        }
      else
        {
          /* only summary percentiles: plot them as reported points */
          static const double qs[] = { 50, 90, 95, 99, 99.9 };
          double x[G_N_ELEMENTS (qs)], y[G_N_ELEMENTS (qs)];
          guint n = 0;
          g_autofree char *reported = g_strdup_printf (_("%s, as reported"), name);

          for (guint k = 0; k < G_N_ELEMENTS (qs); k++)
            {
              double v = procura_run_metric_percentile (run, f->analysis->slo_metric, qs[k], NULL, NULL);
              if (isfinite (v) && v > 0)
                {
                  x[n] = v;
                  y[n] = qs[k] / 100;
                  xmin = MIN (xmin, v);
                  xmax = MAX (xmax, v);
                  n++;
                }
            }
          if (n == 0)
            continue;
          s = procura_chart_add_series (chart, PROCURA_SERIES_SCATTER, reported, x, y, n);
          procura_chart_series_set_color (s, i);
          any = TRUE;
        }
    }
  if (isfinite (f->analysis->slo_threshold_ms))
    {
      g_autofree char *t = slo_text (f);
      procura_chart_add_vline (chart, f->analysis->slo_threshold_ms, t);
    }
  if (isfinite (f->analysis->slo_percentile))
    {
      g_autofree char *p = percentile_display (f->analysis->slo_percentile);
      procura_chart_add_hline (chart, f->analysis->slo_percentile / 100, p);
    }
  if (any && xmax / xmin < 20)
    procura_chart_set_axis (chart, PROCURA_AXIS_X, xlabel, PROCURA_UNIT_MS, PROCURA_SCALE_LINEAR);
  if (!any)
    procura_chart_set_message (chart, _("No latency samples or percentiles yet: import benchmark runs with per-request data."));
  return chart;
}

/* ------------------------------------------------------------------------- */
/* sensitivity                                                                */

static ProcuraChart *
figure_sensitivity (Fig *f)
{
  const ProcuraCandidateAnalysis *ca = NULL;
  g_autofree char *title = NULL;
  g_autofree char *vlabel = g_strdup_printf (_("Cost %s (%s)"), f->per, f->symbol != NULL ? f->symbol : f->currency);
  ProcuraChart *chart;
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *sens;
  guint n, *order;
  double *low, *high, *base;

  /* the best-ranked candidate, else the first with a cost */
  if (f->analysis->ranking && f->analysis->ranking->len > 0)
    ca = procura_analysis_find (f->analysis, g_array_index (f->analysis->ranking, gint64, 0));
  for (guint i = 0; ca == NULL && i < n_candidates (f); i++)
    if (cand (f, i)->cost && cand (f, i)->sensitivity && cand (f, i)->sensitivity->len > 0)
      ca = cand (f, i);

  if (ca == NULL || ca->sensitivity == NULL || ca->sensitivity->len == 0)
    {
      chart = chart_new (f, _("What moves the cost (sensitivity)"), NULL);
      procura_chart_set_message (chart, _("No candidate has a cost yet: nothing to vary."));
      return chart;
    }
  {
    g_autofree char *who = short_name (ca->name);
    title = g_strdup_printf (_("What moves the cost of %s"), who);
  }
  chart = chart_new (f, title, _("Each input moved down and up, everything else held"));
  procura_chart_set_orientation (chart, PROCURA_ORIENTATION_HORIZONTAL);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, vlabel, PROCURA_UNIT_DOLLARS, PROCURA_SCALE_LINEAR);
  procura_chart_set_bars_overlap (chart, TRUE);
  procura_chart_set_description (chart, _("sensitivity of the cost per accepted output (tornado)"));

  sens = ca->sensitivity;
  n = sens->len;
  order = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    order[i] = i;
  /* widest swing first: the tornado's shape */
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0; j--)
      {
        const ProcuraSensitivity *a = sens->pdata[order[j]], *b = sens->pdata[order[j - 1]];
        if (fabs (a->cost_high - a->cost_low) > fabs (b->cost_high - b->cost_low))
          {
            guint t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
          }
        else
          break;
      }
  low = g_new (double, n);
  high = g_new (double, n);
  base = g_new (double, n);
  for (guint i = 0; i < n; i++)
    {
      const ProcuraSensitivity *s = sens->pdata[order[i]];
      gboolean pct = g_str_has_suffix (s->input, "rate") || g_str_equal (s->input, "utilization");
      ProcuraChartUnit u = pct ? PROCURA_UNIT_PERCENT : PROCURA_UNIT_NONE;
      g_autofree char *lv = procura_chart_format_value (s->low_value, u);
      g_autofree char *hv = procura_chart_format_value (s->high_value, u);

      g_ptr_array_add (labels, g_strdup_printf ("%s (%s – %s)", s->label ? s->label : s->input, lv, hv));
      low[i] = s->cost_low * f->factor;
      high[i] = s->cost_high * f->factor;
      base[i] = s->base_cost * f->factor;
    }
  procura_chart_set_categories (chart, (const char * const *) labels->pdata, n);
  {
    ProcuraChartSeries *s = procura_chart_add_series (chart, PROCURA_SERIES_BAR, _("Input at its low value"), NULL, low, n);
    procura_chart_series_set_range (s, base, NULL);
    procura_chart_series_set_color (s, 0);
    s = procura_chart_add_series (chart, PROCURA_SERIES_BAR, _("Input at its high value"), NULL, high, n);
    procura_chart_series_set_range (s, base, NULL);
    procura_chart_series_set_color (s, 1);
  }
  if (n > 0)
    {
      g_autofree char *b = procura_chart_format_money (chart, base[0]);
      g_autofree char *label = g_strdup_printf (_("base %s"), b);
      procura_chart_add_hline (chart, base[0], label);
    }
  g_free (order);
  g_free (low);
  g_free (high);
  g_free (base);
  return chart;
}

/* ------------------------------------------------------------------------- */
/* fit-map                                                                    */

/* The fit map as a heat map: one row per GPU x TP (the candidates' GPUs at TP 1, 2, 4
 * and 8), context per sequence along a log axis, each stretch of a row coloured by how
 * many concurrent sequences of that context fit. The most sequences that fit only falls
 * as the context grows, so every class is one stretch per row: floating bars draw it. */
static const struct {
  double      min_sequences;   /* lower bound of the class, 0 = does not fit */
  const char *label;
  int         color;
} fit_classes[] = {
  /* palette indices, from roomy to tight: green, teal, yellow, orange, then faded red */
  { 128, N_("128 or more sequences fit"), 3 },
  {  32, N_("32 to 127 sequences"),       8 },
  {   8, N_("8 to 31 sequences"),         6 },
  {   1, N_("1 to 7 sequences"),          1 },
  {   0, N_("does not fit"),              4 },
};

static guint
fit_class_of (double max_concurrency)
{
  for (guint c = 0; c < G_N_ELEMENTS (fit_classes); c++)
    if (max_concurrency >= fit_classes[c].min_sequences && fit_classes[c].min_sequences > 0)
      return c;
  return G_N_ELEMENTS (fit_classes) - 1;
}

static ProcuraChart *
figure_fit_map (Fig *f)
{
  static const int tps[] = { 1, 2, 4, 8 };
  static const char *fallback_gpus[] = { "H100 SXM", "H200 SXM", "A100 80GB SXM", "L40S" };
  ProcuraModelShape *owned = NULL;
  g_autofree char *version = NULL;
  ProcuraFitRequest base;
  const ProcuraModelShape *model = brief_fit_request (f, &owned, &version, &base);
  g_autoptr (GPtrArray) gpus = g_ptr_array_new ();   /* const ProcuraGpuSpec* */
  g_autoptr (GArray) candidate_tp = g_array_new (FALSE, TRUE, sizeof (int));
  g_autoptr (GArray) candidate_pp = g_array_new (FALSE, TRUE, sizeof (int));
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (ProcuraFitMap) map = NULL;
  ProcuraChart *chart;
  g_autofree char *sub = NULL;
  gint64 *contexts;
  gsize n_contexts = 0, n_rows;
  const gint64 one = 1;
  double *edges, *lo[G_N_ELEMENTS (fit_classes)], *hi[G_N_ELEMENTS (fit_classes)];

  sub = g_strdup_printf (_("How many sequences fit per replica, by GPU, tensor parallelism and context%s%s"),
                         model && model->id ? " · " : "", model && model->id ? model->id : "");
  chart = chart_new (f, _("Fit map"), sub);
  procura_chart_set_orientation (chart, PROCURA_ORIENTATION_HORIZONTAL);
  procura_chart_set_bars_overlap (chart, TRUE);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, _("Context per sequence"), PROCURA_UNIT_TOKENS, PROCURA_SCALE_LOG);
  procura_chart_set_description (chart, _("heat map of the concurrent sequences that fit by GPU, TP and context"));
  if (model == NULL)
    {
      procura_chart_set_message (chart, _("No model shape: import the model's config.json or name a catalog model in the brief."));
      return chart;
    }

  /* the candidates' GPUs (each once, remembering a candidate's own TP), else a few common ones */
  for (guint i = 0; i < n_candidates (f); i++)
    {
      const ProcuraCandidateAnalysis *ca = cand (f, i);
      const ProcuraCandidate *c;
      const ProcuraGpuSpec *gpu;
      int own_tp, own_pp;

      if (ca->kind != PROCURA_CANDIDATE_GPU || ca->candidate_id <= 0)
        continue;
      c = procura_project_find_candidate (f->project, ca->candidate_id);
      gpu = c && c->gpu_name ? procura_gpu_catalog_lookup (c->gpu_name) : NULL;
      if (gpu == NULL || g_ptr_array_find (gpus, gpu, NULL))
        continue;
      /* the candidate's TP and PP as every fit takes them; the map's rows of this GPU
       * use its PP */
      procura_analysis_fit_parallel (c, &own_tp, &own_pp);
      g_ptr_array_add (gpus, (gpointer) gpu);
      g_array_append_val (candidate_tp, own_tp);
      g_array_append_val (candidate_pp, own_pp);
    }
  if (gpus->len == 0)
    for (guint i = 0; i < G_N_ELEMENTS (fallback_gpus); i++)
      {
        const ProcuraGpuSpec *gpu = procura_gpu_catalog_lookup (fallback_gpus[i]);
        int none = 0, one_stage = 1;

        if (gpu != NULL)
          {
            g_ptr_array_add (gpus, (gpointer) gpu);
            g_array_append_val (candidate_tp, none);
            g_array_append_val (candidate_pp, one_stage);
          }
      }

  contexts = procura_fit_geometric_grid (1024, 262144, 25, &n_contexts);
  base.tp = 1;
  base.pp = 1;
  map = procura_fit_map_full (&base, (const ProcuraGpuSpec * const *) gpus->pdata,
                              (const int *) candidate_pp->data, gpus->len,
                              tps, G_N_ELEMENTS (tps), contexts, n_contexts, &one, 1, NULL);
  if (map == NULL || n_contexts < 2)
    {
      g_free (contexts);
      if (owned)
        procura_model_shape_free (owned);
      procura_chart_set_message (chart, _("The fit map could not be computed for this model."));
      return chart;
    }

  /* bar edges halfway (geometrically) between the grid's contexts */
  edges = g_new (double, n_contexts + 1);
  for (gsize k = 1; k < n_contexts; k++)
    edges[k] = sqrt ((double) contexts[k - 1] * (double) contexts[k]);
  edges[0] = (double) contexts[0] * (double) contexts[0] / edges[1];
  edges[n_contexts] = (double) contexts[n_contexts - 1] * (double) contexts[n_contexts - 1] / edges[n_contexts - 1];

  n_rows = gpus->len * G_N_ELEMENTS (tps);
  for (guint c = 0; c < G_N_ELEMENTS (fit_classes); c++)
    {
      lo[c] = g_new (double, n_rows);
      hi[c] = g_new (double, n_rows);
      for (gsize r = 0; r < n_rows; r++)
        lo[c][r] = hi[c][r] = NAN;
    }
  for (gsize g = 0; g < gpus->len; g++)
    for (gsize t = 0; t < G_N_ELEMENTS (tps); t++)
      {
        gsize row = g * G_N_ELEMENTS (tps) + t;
        const ProcuraGpuSpec *gpu = g_ptr_array_index (gpus, g);
        gboolean own = g_array_index (candidate_tp, int, g) == tps[t];
        int stages = g_array_index (candidate_pp, int, g);

        if (stages > 1)
          g_ptr_array_add (labels, g_strdup_printf (own ? _("%s · TP %d · PP %d (candidate)") : _("%s · TP %d · PP %d"),
                                                    gpu->name, tps[t], stages));
        else
          g_ptr_array_add (labels, g_strdup_printf (own ? _("%s · TP %d (candidate)") : _("%s · TP %d"),
                                                    gpu->name, tps[t]));
        for (gsize k = 0; k < n_contexts; k++)
          {
            const ProcuraFitMapCell *cell = procura_fit_map_cell (map, g, t, k, 0);
            guint c = fit_class_of (cell->fits || cell->max_concurrency >= 1 ? cell->max_concurrency : 0);

            if (isnan (lo[c][row]))
              lo[c][row] = edges[k];
            hi[c][row] = edges[k + 1];
          }
      }
  procura_chart_set_categories (chart, (const char * const *) labels->pdata, labels->len);
  for (guint c = 0; c < G_N_ELEMENTS (fit_classes); c++)
    {
      ProcuraChartSeries *series = procura_chart_add_series (chart, PROCURA_SERIES_BAR, _(fit_classes[c].label),
                                                             NULL, hi[c], n_rows);
      procura_chart_series_set_range (series, lo[c], NULL);
      procura_chart_series_set_color (series, fit_classes[c].color);
      if (fit_classes[c].min_sequences == 0)
        procura_chart_series_set_struck_out (series, TRUE, NULL);
      g_free (lo[c]);
      g_free (hi[c]);
    }
  {
    g_autofree char *ctx = procura_chart_format_value ((double) base.context_tokens, PROCURA_UNIT_TOKENS);
    g_autofree char *label = g_strdup_printf (_("target context %s"), ctx);
    procura_chart_add_hline (chart, (double) base.context_tokens, label);
  }
  g_free (edges);
  g_free (contexts);
  if (owned)
    procura_model_shape_free (owned);
  return chart;
}

/* ------------------------------------------------------------------------- */

ProcuraChart *
procura_figure_build (const char            *name,
                      ProcuraProject        *project,
                      const ProcuraAnalysis *analysis,
                      GError               **error)
{
  g_autoptr (ProcuraAnalysis) computed = NULL;
  ProcuraChart *chart = NULL;
  Fig f = { 0 };
  int index = figure_index (name);

  g_return_val_if_fail (project != NULL, NULL);
  if (index < 0)
    {
      g_autofree char *names = g_strjoinv (", ", (char **) procura_figure_names);
      g_set_error (error, PROCURA_FIGURE_ERROR, PROCURA_FIGURE_ERROR_UNKNOWN,
                   _("unknown figure “%s”; the figures are: %s"), name ? name : "", names);
      return NULL;
    }
  if (analysis == NULL)
    analysis = computed = procura_analysis_run (project, NULL);

  fig_init (&f, project, analysis);
  switch (index)
    {
    case 0: chart = figure_cost_curve (&f); break;
    case 1: chart = figure_latency (&f); break;
    case 2: chart = figure_breakdown (&f); break;
    case 3: chart = figure_memory (&f); break;
    case 4: chart = figure_pareto (&f); break;
    case 5: chart = figure_break_even (&f); break;
    case 6: chart = figure_cdf (&f); break;
    case 7: chart = figure_sensitivity (&f); break;
    case 8: chart = figure_fit_map (&f); break;
    default: g_assert_not_reached ();
    }
  fig_clear (&f);
  return chart;
}

GPtrArray *
procura_figure_build_all (ProcuraProject        *project,
                          const ProcuraAnalysis *analysis)
{
  g_autoptr (ProcuraAnalysis) computed = NULL;
  GPtrArray *charts = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_chart_unref);

  if (analysis == NULL)
    analysis = computed = procura_analysis_run (project, NULL);
  for (guint i = 0; procura_figure_names[i]; i++)
    g_ptr_array_add (charts, procura_figure_build (procura_figure_names[i], project, analysis, NULL));
  return charts;
}
