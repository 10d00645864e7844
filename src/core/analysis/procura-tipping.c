/* procura-tipping.c: the tipping points of the ranking (docs/cost-model.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For the winner and the runner-up, the value of each main input at which their
 * order flips: the input is moved away from its current value on a geometric grid
 * (both ways, nearest first) until the order flips, then the flip is bisected.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "procura-analysis-private.h"
#include "procura-units.h"

#define GRID_STEP   1.03
#define GRID_RANGE  100.0
#define BISECTIONS  80

/* The inputs the tipping points move, as ProcuraTippingPoint.input names them. */
static const struct
{
  const char *id;
  const char *label;
} tipping_inputs[] = {
  { "gpu_price", N_("GPU price") },
  { "api_price", N_("API price") },
  { "utilization", N_("Utilisation") },
  { "acceptance_rate", N_("Acceptance rate") },
  { "latency_target_ms", N_("Latency target") },
  { "demand_average", N_("Average demand") },
};

const char *
procura_tipping_input_label (const char *input)
{
  for (guint k = 0; k < G_N_ELEMENTS (tipping_inputs); k++)
    if (g_strcmp0 (tipping_inputs[k].id, input) == 0)
      return _(tipping_inputs[k].label);
  return input;
}

void
procura_tipping_point_free (ProcuraTippingPoint *t)
{
  if (t == NULL)
    return;
  g_free (t->input);
  g_free (t->candidate_name);
  g_free (t->note);
  g_free (t);
}

static gboolean
is (const char *a,
    const char *b)
{
  return g_strcmp0 (a, b) == 0;
}

/* The candidate whose GPU (or API) side @ca takes its price from. */
static gint64
gpu_source (const ProcuraCandidateAnalysis *ca)
{
  return ca->derived ? ca->derived_from[0] : ca->candidate_id;
}

static gint64
api_source (const ProcuraCandidateAnalysis *ca)
{
  return ca->derived ? ca->derived_from[1] : ca->candidate_id;
}

static double
api_base_price (const ProcuraCostInputs *in)
{
  return in->price_output_per_mtok > 0 ? in->price_output_per_mtok : in->price_input_per_mtok;
}

/* Capacity at @threshold_ms for the candidate whose benchmark @ca uses, NAN none;
 * the current capacity when it was typed in. */
static double
capacity_at (const ProcuraAnalysis          *a,
             const ProcuraProject           *p,
             const ProcuraCandidateAnalysis *ca,
             double                          threshold_ms)
{
  const ProcuraCandidateAnalysis *src = procura_analysis_find (a, gpu_source (ca));
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(ProcuraCapacity) cap = NULL;
  ProcuraCapacityOptions co = { 0 };

  if (src == NULL || src->capacity_origin == NULL || !g_str_has_prefix (src->capacity_origin, "benchmark"))
    return ca->inputs->capacity_at_slo;
  runs = procura_project_runs_for ((ProcuraProject *) p, src->candidate_id);
  co.no_bootstrap = TRUE;
  cap = procura_capacity_from_runs ((const ProcuraRun * const *) runs->pdata, runs->len, a->slo_metric,
                                    a->slo_percentile, threshold_ms, &co);
  if (cap->status == PROCURA_CAPACITY_OK || cap->status == PROCURA_CAPACITY_NOT_SATURATED)
    return cap->capacity_rps;
  return NAN;
}

double
procura_analysis_cost_with (const ProcuraAnalysis *a,
                            const ProcuraProject  *p,
                            gint64                 candidate_id,
                            const char            *input,
                            gint64                 input_candidate_id,
                            double                 value)
{
  const ProcuraCandidateAnalysis *ca = procura_analysis_find (a, candidate_id);
  ProcuraCostInputs c;
  g_autoptr(ProcuraCostResult) r = NULL;
  gboolean gpu_side, api_side_;

  if (ca == NULL || ca->inputs == NULL || ca->cost == NULL)
    return NAN;
  c = *ca->inputs;   /* shallow: only numbers change */
  gpu_side = ca->kind != PROCURA_CANDIDATE_API;
  api_side_ = ca->kind != PROCURA_CANDIDATE_GPU;

  if (c.run_inputs != NULL)
    {
      ProcuraRunCostInputs run = *c.run_inputs;

      if (is (input, "gpu_price") && ca->candidate_id == input_candidate_id)
        run.price_per_gpu_hour = value;
      else if (is (input, "acceptance_rate") && (input_candidate_id == 0 || ca->candidate_id == input_candidate_id))
        run.success_probability = value;
      r = procura_cost_run_workload (&run, NULL);
      return r != NULL ? r->cost_per_accepted : NAN;
    }

  if (is (input, "gpu_price"))
    {
      if (gpu_side && gpu_source (ca) == input_candidate_id)
        c.price_per_gpu_hour = value;
    }
  else if (is (input, "api_price"))
    {
      const ProcuraCandidateAnalysis *src = procura_analysis_find (a, input_candidate_id);
      double base = src != NULL && src->inputs != NULL ? api_base_price (src->inputs) : NAN;

      if (api_side_ && api_source (ca) == input_candidate_id && base > 0)
        {
          double k = value / base;
          c.price_input_per_mtok *= k;
          c.price_cached_per_mtok *= k;
          c.price_output_per_mtok *= k;
        }
    }
  else if (is (input, "acceptance_rate"))
    {
      if (input_candidate_id == 0 || ca->candidate_id == input_candidate_id)
        c.acceptance_rate = value;
    }
  else if (is (input, "demand_average"))
    {
      double ratio = procura_is_set (a->demand_peak) && a->demand_average > 0
                     ? a->demand_peak / a->demand_average : 1.0;
      c.demand_average = value;
      c.demand_peak = value * ratio;
    }
  else if (is (input, "utilization"))
    {
      /* the fleets as they are; the demand moves the input candidate's utilisation */
      const ProcuraCandidateAnalysis *src = procura_analysis_find (a, input_candidate_id);
      double u = src != NULL && src->cost != NULL ? src->cost->utilization : NAN;

      if (!(u > 0))
        return NAN;
      if (gpu_side)
        c.fixed_replicas = MAX (1, ca->cost->replicas);
      c.demand_average *= value / u;
      if (!isnan (c.demand_peak))
        c.demand_peak *= value / u;
    }
  else if (is (input, "latency_target_ms"))
    {
      if (gpu_side)
        {
          c.capacity_at_slo = capacity_at (a, p, ca, value);
          if (!(c.capacity_at_slo > 0))
            return NAN;
        }
      if (api_side_)
        {
          const ProcuraCandidateAnalysis *src = procura_analysis_find (a, api_source (ca));
          if (src != NULL && isfinite (src->latency_ms) && src->latency_ms > value)
            return NAN;
        }
    }
  else
    return NAN;

  r = procura_cost_evaluate (&c, NULL);
  if (r == NULL || !r->feasible)
    return NAN;
  return r->cost_per_accepted;
}

typedef struct {
  const ProcuraAnalysis *a;
  const ProcuraProject  *p;
  gint64                 winner;
  gint64                 runner_up;
  const char            *input;
  gint64                 input_cid;
} Ctx;

/* TRUE when, with the input at @x, the runner-up is ranked before the winner. */
static gboolean
flipped (const Ctx *ctx,
         double     x)
{
  double w = procura_analysis_cost_with (ctx->a, ctx->p, ctx->winner, ctx->input, ctx->input_cid, x);
  double r = procura_analysis_cost_with (ctx->a, ctx->p, ctx->runner_up, ctx->input, ctx->input_cid, x);

  if (isnan (r))
    return FALSE;
  if (isnan (w))
    return TRUE;
  return w > r || (w == r && ctx->winner > ctx->runner_up);
}

/* The value nearest @current (in ratio) at which the order flips, NAN when it does not
 * within [lo, hi]. */
static double
search (const Ctx *ctx,
        double     current,
        double     lo,
        double     hi)
{
  double prev[2] = { current, current };
  gboolean done[2] = { FALSE, FALSE };

  if (flipped (ctx, current))
    return NAN;   /* the ranking is not the one the analysis gave */
  for (int k = 1; !(done[0] && done[1]); k++)
    for (int d = 0; d < 2; d++)
      {
        double x, a, b;

        if (done[d])
          continue;
        x = d == 0 ? current * pow (GRID_STEP, k) : current / pow (GRID_STEP, k);
        if (x >= hi || x <= lo)
          {
            x = d == 0 ? hi : lo;
            done[d] = TRUE;
          }
        if (!flipped (ctx, x))
          {
            prev[d] = x;
            continue;
          }
        /* bisect between prev (not flipped) and x (flipped) */
        a = prev[d];
        b = x;
        for (int i = 0; i < BISECTIONS && fabs (b - a) > 1e-12 * fabs (b); i++)
          {
            double m = 0.5 * (a + b);
            if (flipped (ctx, m))
              b = m;
            else
              a = m;
          }
        return b;
      }
  return NAN;
}

/* A value of the input in its unit: money in the project's currency, shares in percent,
 * the target in ms, the demand in req/s. */
char *
procura_tipping_value_text (const ProcuraAnalysis *a,
                            const char            *input,
                            double                 v)
{
  const char *currency = a->currency;

  if (is (input, "gpu_price"))
    {
      g_autofree char *money = procura_units_money (v, currency);
      /* TRANSLATORS: a GPU's price, e.g. "$3.10 per GPU-hour" */
      return g_strdup_printf (_("%s per GPU-hour"), money);
    }
  if (is (input, "api_price"))
    return procura_units_money (v, currency);
  if (is (input, "utilization") || is (input, "acceptance_rate"))
    return procura_units_percent (v, 1);
  if (is (input, "latency_target_ms"))
    return g_strdup_printf (_("%.0f ms"), v);
  if (is (input, "demand_average"))
    return procura_units_req_per_s (v);
  return g_strdup_printf ("%.4g", v);
}

static char *
value_text (const Ctx *ctx,
            double     v)
{
  return procura_tipping_value_text (ctx->a, ctx->input, v);
}

static void
add_point (GPtrArray                      *out,
           const Ctx                      *ctx,
           const ProcuraCandidateAnalysis *whose,
           double                          current,
           double                          lo,
           double                          hi,
           const char                     *what)
{
  ProcuraTippingPoint *t;

  if (!isfinite (current) || current <= 0)
    return;
  /* the same input of the same candidate once */
  for (guint i = 0; i < out->len; i++)
    {
      const ProcuraTippingPoint *o = g_ptr_array_index (out, i);
      if (is (o->input, ctx->input) && o->candidate_id == ctx->input_cid)
        return;
    }
  t = g_new0 (ProcuraTippingPoint, 1);
  t->input = g_strdup (ctx->input);
  t->candidate_id = ctx->input_cid;
  t->candidate_name = g_strdup (whose != NULL ? whose->name : NULL);
  t->current = current;
  t->value = search (ctx, current, MAX (lo, current / GRID_RANGE), MIN (hi, current * GRID_RANGE));
  t->ratio = t->value / current;
  if (isnan (t->value))
    {
      g_autofree char *from = value_text (ctx, MAX (lo, current / GRID_RANGE));
      g_autofree char *to = value_text (ctx, MIN (hi, current * GRID_RANGE));
      g_autofree char *now = value_text (ctx, current);

      t->note = g_strdup_printf (_("the ranking does not flip for %s from %s to %s (now %s)"), what,
                                 from, to, now);
    }
  else
    {
      g_autofree char *now = value_text (ctx, current);
      g_autofree char *at = value_text (ctx, t->value);

      t->note = g_strdup_printf (t->value > current
                                 /* TRANSLATORS: the input, its value now, the value where it flips, the change */
                                 ? _("the ranking flips when %s rises from %s to %s (%+.1f %%)")
                                 /* TRANSLATORS: the input, its value now, the value where it flips, the change */
                                 : _("the ranking flips when %s falls from %s to %s (%+.1f %%)"), what,
                                 now, at, 100.0 * (t->value / current - 1.0));
    }
  g_ptr_array_add (out, t);
}

static void
points_for (GPtrArray                      *out,
            Ctx                            *ctx,
            const ProcuraCandidateAnalysis *ca)
{
  const ProcuraAnalysis *a = ctx->a;
  const ProcuraCostInputs *in = ca->inputs;
  gboolean run = in->run_inputs != NULL;

  if (ca->kind != PROCURA_CANDIDATE_API)
    {
      const ProcuraCandidateAnalysis *src = procura_analysis_find (a, gpu_source (ca));
      g_autofree char *what = g_strdup_printf (_("the GPU price of %s"), src != NULL ? src->name : ca->name);

      ctx->input = "gpu_price";
      ctx->input_cid = gpu_source (ca);
      add_point (out, ctx, src, run ? in->run_inputs->price_per_gpu_hour : in->price_per_gpu_hour,
                 0, INFINITY, what);
    }
  if (ca->kind != PROCURA_CANDIDATE_GPU)
    {
      const ProcuraCandidateAnalysis *src = procura_analysis_find (a, api_source (ca));
      g_autofree char *what = g_strdup_printf (_("the API price of %s (per million output tokens, the other "
                                               "token prices in proportion)"), src != NULL ? src->name : ca->name);

      ctx->input = "api_price";
      ctx->input_cid = api_source (ca);
      if (src != NULL && src->inputs != NULL)
        add_point (out, ctx, src, api_base_price (src->inputs), 0, INFINITY, what);
    }
  if (ca->kind != PROCURA_CANDIDATE_API && !run)
    {
      g_autofree char *what = g_strdup_printf (_("the utilisation of %s (its replicas held, the demand moved)"),
                                               ca->name);
      ctx->input = "utilization";
      ctx->input_cid = ca->candidate_id;
      add_point (out, ctx, ca, ca->cost->utilization, 0, 1.0, what);
    }
  {
    g_autofree char *what = g_strdup_printf (_("the acceptance rate of %s"), ca->name);
    ctx->input = "acceptance_rate";
    ctx->input_cid = ca->candidate_id;
    add_point (out, ctx, ca, run ? in->run_inputs->success_probability : in->acceptance_rate, 0, 1.0, what);
  }
}

void
procura_tipping_points_run (ProcuraAnalysis      *a,
                            const ProcuraProject *p)
{
  const ProcuraCandidateAnalysis *w, *r;
  Ctx ctx = { 0 };
  gboolean run;

  if (a->ranking->len < 2)
    return;
  w = procura_analysis_find (a, g_array_index (a->ranking, gint64, 0));
  r = procura_analysis_find (a, g_array_index (a->ranking, gint64, 1));
  if (w == NULL || r == NULL || w->inputs == NULL || r->inputs == NULL)
    return;
  a->tipping_winner = w->candidate_id;
  a->tipping_runner_up = r->candidate_id;
  ctx.a = a;
  ctx.p = p;
  ctx.winner = w->candidate_id;
  ctx.runner_up = r->candidate_id;
  run = w->inputs->run_inputs != NULL;

  points_for (a->tipping_points, &ctx, w);
  points_for (a->tipping_points, &ctx, r);
  if (!run && a->slo_metric != NULL && procura_is_set (a->slo_threshold_ms))
    {
      ctx.input = "latency_target_ms";
      ctx.input_cid = 0;
      add_point (a->tipping_points, &ctx, NULL, a->slo_threshold_ms, 0, INFINITY, _("the latency target (ms)"));
    }
  if (!run && procura_is_set (a->demand_average))
    {
      ctx.input = "demand_average";
      ctx.input_cid = 0;
      add_point (a->tipping_points, &ctx, NULL, a->demand_average, 0, INFINITY,
                 _("the average demand (requests/s, the peak in proportion)"));
    }
}
