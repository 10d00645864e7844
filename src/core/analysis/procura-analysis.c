/* procura-analysis.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-analysis-private.h"
#include "procura-stats.h"

void
procura_analysis_options_init (ProcuraAnalysisOptions *o)
{
  memset (o, 0, sizeof *o);
  o->slo_percentile = NAN;
  o->slo_threshold_ms = NAN;
  o->demand_average = NAN;
  o->demand_peak = NAN;
  o->window_hours = NAN;
}

static void
candidate_analysis_free (ProcuraCandidateAnalysis *ca)
{
  if (ca == NULL)
    return;
  g_free (ca->name);
  g_free (ca->capacity_origin);
  g_free (ca->cost_reason);
  g_clear_pointer (&ca->capacity, procura_capacity_free);
  g_clear_pointer (&ca->inputs, procura_cost_inputs_free);
  g_clear_pointer (&ca->cost, procura_cost_result_free);
  g_clear_pointer (&ca->sensitivity, g_ptr_array_unref);
  g_clear_pointer (&ca->what_ifs, g_ptr_array_unref);
  g_clear_pointer (&ca->break_even, g_array_unref);
  g_free (ca->fit);
  g_free (ca->fit_reason);
  g_free (ca->cost_interval_reason);
  g_free (ca);
}

void
procura_analysis_free (ProcuraAnalysis *a)
{
  if (a == NULL)
    return;
  g_free (a->slo_metric);
  g_free (a->currency);
  g_clear_pointer (&a->candidates, g_ptr_array_unref);
  g_clear_pointer (&a->warnings, g_ptr_array_unref);
  g_clear_pointer (&a->ranking, g_array_unref);
  g_free (a->ranking_withheld_reason);
  g_clear_pointer (&a->recommendation, procura_recommendation_free);
  g_free (a->ranking_uncertainty);
  g_free (a->measure_next);
  g_free (a);
}

const ProcuraCandidateAnalysis *
procura_analysis_find (const ProcuraAnalysis *a,
                       gint64                 candidate_id)
{
  for (guint i = 0; i < a->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (a->candidates, i);
      if (ca->candidate_id == candidate_id)
        return ca;
    }
  return NULL;
}

static ProcuraCandidateAnalysis *
candidate_analysis_new (void)
{
  ProcuraCandidateAnalysis *ca = g_new0 (ProcuraCandidateAnalysis, 1);

  ca->capacity_at_slo = NAN;
  ca->cost_lo = ca->cost_hi = NAN;
  ca->sensitivity = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_sensitivity_free);
  ca->what_ifs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_what_if_free);
  ca->break_even = g_array_new (FALSE, FALSE, sizeof (ProcuraBreakEven));
  return ca;
}

static gboolean
is_run_workload (const char *type)
{
  return g_strcmp0 (type, "training") == 0 || g_strcmp0 (type, "fine-tuning") == 0 ||
         g_strcmp0 (type, "evaluation") == 0 || g_strcmp0 (type, "pretraining") == 0;
}

static gboolean
is_media_workload (const char *type)
{
  return g_strcmp0 (type, "image-generation") == 0 || g_strcmp0 (type, "video-generation") == 0;
}

static gboolean
counts_tokens (const char *success_unit)
{
  return success_unit != NULL && strstr (success_unit, "token") != NULL;
}

static const ProcuraQuote *
find_quote (const ProcuraProject *p,
            gint64                id)
{
  if (id == 0)
    return NULL;
  for (guint i = 0; i < p->quotes->len; i++)
    {
      const ProcuraQuote *q = g_ptr_array_index (p->quotes, i);
      if (q->id == id)
        return q;
    }
  return NULL;
}

/* The shared workload inputs: brief, options and assumptions. */
static ProcuraCostInputs *
workload_inputs (const ProcuraProject  *p,
                 const ProcuraAnalysis *a,
                 const char            *name,
                 ProcuraCandidateKind   kind)
{
  ProcuraCostInputs *in = procura_cost_inputs_new ();
  const ProcuraAssumptions *as = &p->assumptions;

  in->name = g_strdup (name);
  in->kind = kind;
  in->media = p->brief != NULL && is_media_workload (p->brief->workload_type);
  in->window_hours = a->window_hours;
  in->demand_average = a->demand_average;
  in->demand_peak = a->demand_peak;
  in->retry_rate = procura_is_set (as->retry_rate) ? as->retry_rate : 0;
  in->failure_rate = procura_is_set (as->failure_rate) ? as->failure_rate : 0;
  in->acceptance_rate = a->acceptance_rate;
  in->headroom = procura_is_set (as->headroom) ? as->headroom : 1.0;
  procura_cost_inputs_note (in, "window_hours", "brief");
  procura_cost_inputs_note (in, "demand.average", "brief");
  procura_cost_inputs_note (in, "demand.peak", "brief");
  procura_cost_inputs_note (in, "retry_rate", "assumptions");
  procura_cost_inputs_note (in, "failure_rate", "assumptions");
  procura_cost_inputs_note (in, "acceptance_rate",
                            procura_is_set (as->acceptance_rate) ? "assumptions"
                                                                 : "not set: generated outputs counted as accepted");
  procura_cost_inputs_note (in, "headroom", "assumptions");
  return in;
}

static void
window_lines (ProcuraCostInputs      *in,
              const ProcuraCandidate *c)
{
  in->storage = procura_is_set (c->storage) ? c->storage : 0;
  in->network = procura_is_set (c->network) ? c->network : 0;
  in->serving_stack = procura_is_set (c->serving_stack) ? c->serving_stack : 0;
  in->observability = procura_is_set (c->observability) ? c->observability : 0;
  in->labor_hours = procura_is_set (c->labor_hours) ? c->labor_hours : 0;
  in->labor_rate = procura_is_set (c->labor_rate) ? c->labor_rate : 0;
  for (guint i = 0; i < 6; i++)
    {
      static const char * const names[] = { "storage", "network", "serving_stack", "observability",
                                            "labor_hours", "labor_rate" };
      procura_cost_inputs_note (in, names[i], "candidate");
    }
}

/* API side from the candidate, the brief filling the request shape. */
static gboolean
api_side (ProcuraCostInputs      *in,
          const ProcuraProject   *p,
          const ProcuraCandidate *c,
          char                  **reason)
{
  const ProcuraBrief *b = p->brief;

  in->input_tokens = c->input_tokens;
  in->output_tokens = c->output_tokens;
  procura_cost_inputs_note (in, "input_tokens", "candidate");
  procura_cost_inputs_note (in, "output_tokens", "candidate");
  if (!procura_is_set (in->input_tokens) && b != NULL && procura_is_set (b->input_tokens))
    {
      in->input_tokens = b->input_tokens;
      procura_cost_inputs_note (in, "input_tokens", "brief (request shape)");
    }
  if (!procura_is_set (in->output_tokens) && b != NULL && procura_is_set (b->output_tokens))
    {
      in->output_tokens = b->output_tokens;
      procura_cost_inputs_note (in, "output_tokens", "brief (request shape)");
    }
  in->cached_input_tokens = procura_is_set (c->cached_input_tokens) ? c->cached_input_tokens : 0;
  in->price_input_per_mtok = c->price_input_per_mtok;
  in->price_cached_per_mtok = procura_is_set (c->price_cached_per_mtok) ? c->price_cached_per_mtok : 0;
  in->price_output_per_mtok = c->price_output_per_mtok;
  in->gateway = procura_is_set (c->gateway) ? c->gateway : 0;
  in->rate_limit_rpm = c->rate_limit_rpm;
  procura_cost_inputs_note (in, "price_input_per_mtok", "candidate");
  procura_cost_inputs_note (in, "price_output_per_mtok", "candidate");
  procura_cost_inputs_note (in, "gateway", "candidate");

  if (!procura_is_set (in->input_tokens) || !procura_is_set (in->output_tokens))
    {
      *reason = g_strdup ("no request shape: set input and output tokens on the API route or in the brief");
      return FALSE;
    }
  if (!procura_is_set (in->price_input_per_mtok) || !procura_is_set (in->price_output_per_mtok))
    {
      *reason = g_strdup ("no token prices: add the API's input and output prices per million tokens");
      return FALSE;
    }
  return TRUE;
}

static double
mean_output_tokens (GPtrArray *runs)
{
  double sum = 0;
  guint n = 0;

  for (guint i = 0; i < runs->len; i++)
    {
      const ProcuraRun *r = g_ptr_array_index (runs, i);
      if (procura_is_set (r->output_tokens_mean) && r->output_tokens_mean > 0)
        {
          sum += r->output_tokens_mean;
          n++;
        }
    }
  return n > 0 ? sum / n : NAN;
}

static void
analyse_candidate (ProcuraCandidateAnalysis     *ca,
                   const ProcuraProject         *p,
                   const ProcuraAnalysis        *a,
                   const ProcuraCandidate       *c,
                   const ProcuraAnalysisOptions *o)
{
  g_autoptr(GPtrArray) runs = procura_project_runs_for ((ProcuraProject *) p, c->id);
  g_autoptr(ProcuraCostInputs) in = NULL;
  gboolean gpu = c->kind != PROCURA_CANDIDATE_API;
  const ProcuraBrief *b = p->brief;
  GError *error = NULL;

  ca->candidate_id = c->id;
  ca->name = g_strdup (c->name != NULL ? c->name : "(unnamed)");
  ca->kind = c->kind;

  if (gpu)
    {
      ProcuraCapacityOptions co = { 0 };

      co.resamples = o->bootstrap_resamples;
      co.seed = o->seed;
      co.no_bootstrap = o->no_bootstrap;
      ca->capacity = procura_capacity_from_runs ((const ProcuraRun * const *) runs->pdata, runs->len,
                                                 a->slo_metric, a->slo_percentile, a->slo_threshold_ms, &co);
      ca->fit = procura_analysis_fit_candidate (p, c, &ca->fit_reason);
      if (procura_is_set (c->capacity_override) && c->capacity_override > 0)
        {
          ca->capacity_at_slo = c->capacity_override;
          ca->capacity_origin = g_strdup ("typed in (capacity override)");
        }
      else if (ca->capacity->status == PROCURA_CAPACITY_OK)
        {
          ca->capacity_at_slo = ca->capacity->capacity_rps;
          ca->capacity_origin = g_strdup_printf ("benchmark sweep: %s", ca->capacity->reason);
        }
      else if (ca->capacity->status == PROCURA_CAPACITY_NOT_SATURATED)
        {
          ca->capacity_at_slo = ca->capacity->capacity_rps;
          ca->capacity_origin = g_strdup_printf ("benchmark sweep, a lower bound: %s", ca->capacity->reason);
        }
    }

  if (b != NULL && is_run_workload (b->workload_type))
    {
      ca->cost_reason = g_strdup_printf ("%s is a run workload: it is costed per completed run with "
                                         "`procura cost` (run inputs), not per served request",
                                         b->workload_type);
      return;
    }
  if (!procura_is_set (a->demand_average))
    {
      ca->cost_reason = g_strdup ("no demand: set the average and peak requests/s in the brief");
      return;
    }

  in = workload_inputs (p, a, ca->name, c->kind);
  window_lines (in, c);

  if (gpu)
    {
      const ProcuraQuote *q = find_quote (p, c->quote_id);
      double price = c->price_per_gpu_hour;

      if (ca->capacity->status == PROCURA_CAPACITY_MISSES && !procura_is_set (ca->capacity_at_slo))
        {
          ca->cost_reason = g_strdup_printf ("no cost at this target: %s", ca->capacity->reason);
          return;
        }
      if (!procura_is_set (ca->capacity_at_slo))
        {
          ca->cost_reason = g_strdup_printf ("no capacity at the target: %s; import a benchmark sweep "
                                             "(or type the capacity in)", ca->capacity->reason);
          return;
        }
      if (procura_is_set (price))
        {
          g_autofree char *origin = c->price_date != NULL
                                    ? g_strdup_printf ("candidate (price seen %s)", c->price_date)
                                    : g_strdup ("candidate (undated price)");
          procura_cost_inputs_note (in, "price_per_gpu_hour", origin);
        }
      else if (q != NULL && procura_is_set (procura_quote_price_per_gpu_hour (q)))
        {
          g_autofree char *origin = g_strdup_printf ("quote: %s %s%s%s", q->provider ? q->provider : "",
                                                     q->sku ? q->sku : "",
                                                     q->seen_date ? ", seen " : "",
                                                     q->seen_date ? q->seen_date : "");
          price = procura_quote_price_per_gpu_hour (q);
          procura_cost_inputs_note (in, "price_per_gpu_hour", origin);
        }
      if (!procura_is_set (price))
        {
          ca->cost_reason = g_strdup ("no price: add a quote or type the price per GPU-hour");
          return;
        }
      in->price_per_gpu_hour = price;
      in->gpus_per_replica = MAX (1, c->gpus_per_replica);
      in->capacity_at_slo = ca->capacity_at_slo;
      in->provisioning = c->provisioning;
      in->billed_hours = c->billed_hours;
      in->target_utilization = c->target_utilization;
      procura_cost_inputs_note (in, "gpus_per_replica", "candidate");
      procura_cost_inputs_note (in, "capacity_at_slo", ca->capacity_origin);
      procura_cost_inputs_note (in, "billed_hours", "candidate");
      procura_cost_inputs_note (in, "target_utilization", "candidate");
    }
  if (c->kind != PROCURA_CANDIDATE_GPU)
    {
      char *reason = NULL;
      if (!api_side (in, p, c, &reason))
        {
          ca->cost_reason = reason;
          return;
        }
    }

  if (b != NULL && counts_tokens (b->success_unit))
    {
      double t = gpu ? mean_output_tokens (runs) : NAN;
      const char *origin = "benchmark (mean output tokens per response)";

      if (!procura_is_set (t) && c->kind != PROCURA_CANDIDATE_GPU && procura_is_set (in->output_tokens))
        {
          t = in->output_tokens;
          origin = "candidate (output tokens per request)";
        }
      if (!procura_is_set (t) && procura_is_set (b->output_tokens))
        {
          t = b->output_tokens;
          origin = "brief (output tokens per request)";
        }
      if (procura_is_set (t) && t > 0)
        {
          in->outputs_per_request = t;
          procura_cost_inputs_note (in, "outputs_per_request", origin);
        }
    }

  ca->cost = procura_cost_evaluate (in, &error);
  if (ca->cost == NULL)
    {
      ca->cost_reason = g_strdup (error->message);
      g_error_free (error);
      return;
    }
  ca->inputs = g_steal_pointer (&in);
  g_ptr_array_unref (ca->sensitivity);
  ca->sensitivity = procura_sensitivity_run (ca->inputs, o->sensitivity_step > 0 ? o->sensitivity_step : 0.10);
  g_ptr_array_unref (ca->what_ifs);
  ca->what_ifs = procura_what_if_run (ca->inputs);
}

static int
cmp_by_cost (gconstpointer pa,
             gconstpointer pb)
{
  const ProcuraCandidateAnalysis *a = *(ProcuraCandidateAnalysis * const *) pa;
  const ProcuraCandidateAnalysis *b = *(ProcuraCandidateAnalysis * const *) pb;
  double x = a->cost->cost_per_accepted, y = b->cost->cost_per_accepted;

  if (x != y)
    return x < y ? -1 : 1;
  return (a->candidate_id > b->candidate_id) - (a->candidate_id < b->candidate_id);
}

static const ProcuraCandidateAnalysis *
cheapest_of_kind (const ProcuraAnalysis *a,
                  ProcuraCandidateKind   kind)
{
  const ProcuraCandidateAnalysis *best = NULL;

  for (guint i = 0; i < a->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (a->candidates, i);
      if (ca->kind != kind || ca->cost == NULL || !isfinite (ca->cost->cost_per_accepted))
        continue;
      if (best == NULL || ca->cost->cost_per_accepted < best->cost->cost_per_accepted)
        best = ca;
    }
  return best;
}

static void
add_derived_hybrid (ProcuraAnalysis              *a,
                    const ProcuraAnalysisOptions *o)
{
  const ProcuraCandidateAnalysis *g = cheapest_of_kind (a, PROCURA_CANDIDATE_GPU);
  const ProcuraCandidateAnalysis *api = cheapest_of_kind (a, PROCURA_CANDIDATE_API);
  ProcuraCandidateAnalysis *ca;
  ProcuraCostInputs *in;
  GError *error = NULL;

  if (g == NULL || api == NULL || cheapest_of_kind (a, PROCURA_CANDIDATE_HYBRID) != NULL)
    return;

  in = procura_cost_inputs_copy (g->inputs);
  in->kind = PROCURA_CANDIDATE_HYBRID;
  in->fixed_replicas = 0;
  in->input_tokens = api->inputs->input_tokens;
  in->cached_input_tokens = api->inputs->cached_input_tokens;
  in->output_tokens = api->inputs->output_tokens;
  in->price_input_per_mtok = api->inputs->price_input_per_mtok;
  in->price_cached_per_mtok = api->inputs->price_cached_per_mtok;
  in->price_output_per_mtok = api->inputs->price_output_per_mtok;
  in->gateway = api->inputs->gateway;
  in->rate_limit_rpm = api->inputs->rate_limit_rpm;
  g_free (in->name);
  in->name = g_strdup_printf ("Hybrid: %s + %s", g->name, api->name);
  {
    g_autofree char *from = g_strdup_printf ("API route %s", api->name);
    const char *api_members[] = { "input_tokens", "output_tokens", "price_input_per_mtok",
                                  "price_output_per_mtok", "gateway" };
    for (guint i = 0; i < G_N_ELEMENTS (api_members); i++)
      procura_cost_inputs_note (in, api_members[i], from);
  }

  ca = candidate_analysis_new ();
  ca->candidate_id = -g->candidate_id;
  ca->name = g_strdup (in->name);
  ca->kind = PROCURA_CANDIDATE_HYBRID;
  ca->derived = TRUE;
  ca->derived_from[0] = g->candidate_id;
  ca->derived_from[1] = api->candidate_id;
  ca->capacity_at_slo = g->capacity_at_slo;
  ca->capacity_origin = g_strdup_printf ("as %s", g->name);
  ca->cost = procura_cost_hybrid (in, &error);
  if (ca->cost == NULL)
    {
      ca->cost_reason = g_strdup (error->message);
      g_error_free (error);
      procura_cost_inputs_free (in);
    }
  else
    {
      ca->inputs = in;
      g_ptr_array_unref (ca->sensitivity);
      ca->sensitivity = procura_sensitivity_run (in, o->sensitivity_step > 0 ? o->sensitivity_step : 0.10);
      g_ptr_array_unref (ca->what_ifs);
      ca->what_ifs = procura_what_if_run (in);
    }
  g_ptr_array_add (a->candidates, ca);
}

static void
break_even_all (ProcuraAnalysis *a)
{
  const ProcuraCandidateAnalysis *api = cheapest_of_kind (a, PROCURA_CANDIDATE_API);
  double demand_max;

  if (api == NULL)
    return;
  demand_max = 3.0 * MAX (a->demand_average, procura_is_set (a->demand_peak) ? a->demand_peak : 0);
  for (guint i = 0; i < a->candidates->len; i++)
    {
      ProcuraCandidateAnalysis *ca = g_ptr_array_index (a->candidates, i);
      double cap_max;

      if (ca->kind == PROCURA_CANDIDATE_API || ca->inputs == NULL)
        continue;
      /* go beyond the demand and one replica's capacity so a crossing shows */
      cap_max = MAX (demand_max, 2.0 * ca->inputs->capacity_at_slo);
      g_array_unref (ca->break_even);
      ca->break_even = procura_cost_break_even (ca->inputs, api->inputs, cap_max);
      ca->break_even_api = api->candidate_id;
    }
}

ProcuraAnalysis *
procura_analysis_run (const ProcuraProject         *project,
                      const ProcuraAnalysisOptions *options)
{
  ProcuraAnalysis *a = g_new0 (ProcuraAnalysis, 1);
  ProcuraAnalysisOptions o;
  const ProcuraBrief *b = project->brief;
  g_auto(GStrv) missing = NULL;
  g_autoptr(GPtrArray) costed = g_ptr_array_new ();

  if (options != NULL)
    o = *options;
  else
    procura_analysis_options_init (&o);

  a->slo_metric = g_strdup (o.slo_metric != NULL ? o.slo_metric : (b != NULL ? b->slo_metric : NULL));
  a->slo_percentile = procura_is_set (o.slo_percentile) ? o.slo_percentile
                      : (b != NULL ? b->slo_percentile : NAN);
  a->slo_threshold_ms = procura_is_set (o.slo_threshold_ms) ? o.slo_threshold_ms
                        : (b != NULL ? b->slo_threshold_ms : NAN);
  a->demand_average = procura_is_set (o.demand_average) ? o.demand_average
                      : (b != NULL ? b->demand_average : NAN);
  a->demand_peak = procura_is_set (o.demand_peak) ? o.demand_peak : (b != NULL ? b->demand_peak : NAN);
  if (procura_is_set (o.demand_average) && !procura_is_set (o.demand_peak) && b != NULL &&
      procura_is_set (b->demand_average) && b->demand_average > 0 && procura_is_set (b->demand_peak))
    a->demand_peak = o.demand_average * b->demand_peak / b->demand_average;  /* keep the shape */
  if (procura_is_set (a->demand_peak) && procura_is_set (a->demand_average) && a->demand_peak < a->demand_average)
    a->demand_peak = a->demand_average;
  a->window_hours = procura_is_set (o.window_hours) && o.window_hours > 0 ? o.window_hours
                    : (b != NULL && procura_is_set (b->window_hours) && b->window_hours > 0
                       ? b->window_hours : PROCURA_DEFAULT_WINDOW_HOURS);
  a->acceptance_rate = procura_is_set (project->assumptions.acceptance_rate)
                       ? project->assumptions.acceptance_rate : 1.0;
  a->currency = g_strdup (project->assumptions.currency != NULL ? project->assumptions.currency : "USD");
  if (!procura_is_set (a->slo_percentile))
    a->slo_percentile = 99;   /* only used when a metric and threshold exist */

  a->candidates = g_ptr_array_new_with_free_func ((GDestroyNotify) candidate_analysis_free);
  a->warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_warning_free);
  a->ranking = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < project->candidates->len; i++)
    {
      ProcuraCandidateAnalysis *ca = candidate_analysis_new ();
      analyse_candidate (ca, project, a, g_ptr_array_index (project->candidates, i), &o);
      g_ptr_array_add (a->candidates, ca);
    }
  if (!o.no_hybrid)
    add_derived_hybrid (a, &o);
  break_even_all (a);

  /* ranking */
  missing = b != NULL ? procura_brief_missing (b) : g_new0 (char *, 1);
  for (guint i = 0; i < a->candidates->len; i++)
    {
      ProcuraCandidateAnalysis *ca = g_ptr_array_index (a->candidates, i);
      if (ca->cost != NULL && isfinite (ca->cost->cost_per_accepted))
        g_ptr_array_add (costed, ca);
    }
  if (g_strv_length (missing) > 0)
    {
      g_autofree char *list = g_strjoinv (", ", missing);
      a->ranking_withheld = TRUE;
      a->ranking_withheld_reason = g_strdup_printf ("the brief is incomplete (missing: %s); a ranking "
                                                    "would rest on guesses, fill these in first", list);
    }
  else if (costed->len == 0)
    {
      a->ranking_withheld = TRUE;
      a->ranking_withheld_reason = g_strdup ("no candidate has a cost per accepted output yet");
    }
  else
    {
      g_ptr_array_sort (costed, cmp_by_cost);
      for (guint i = 0; i < costed->len; i++)
        {
          ProcuraCandidateAnalysis *ca = g_ptr_array_index (costed, i);
          ca->rank = (int) i + 1;
          g_array_append_val (a->ranking, ca->candidate_id);
        }
    }

  procura_analysis_uncertainty (a);
  procura_warnings_collect (project, a);
  a->recommendation = procura_recommend (project, a);
  if (a->recommendation != NULL && a->ranking_separation != PROCURA_SEPARATION_DISTINCT &&
      a->ranking_uncertainty != NULL)
    {
      /* the ranking's uncertainty, and what to measure to settle it */
      g_ptr_array_add (a->recommendation->reasons, g_strdup_printf ("%c%s.", g_ascii_toupper (a->ranking_uncertainty[0]),
                                                                    a->ranking_uncertainty + 1));
      if (a->measure_next != NULL)
        g_ptr_array_add (a->recommendation->reasons, g_strdup (a->measure_next));
    }
  return a;
}
