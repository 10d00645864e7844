/* procura-analysis.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "procura-analysis-private.h"
#include "procura-stats.h"
#include "procura-units.h"

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
  g_free (ca->fit_measured_text);
  g_free (ca->cost_interval_reason);
  g_free (ca->latency_run);
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
  g_free (a->unit_label);
  g_clear_pointer (&a->tipping_points, g_ptr_array_unref);
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
  ca->latency_ms = NAN;
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

static const ProcuraQuote *find_quote (const ProcuraProject *p, gint64 id);

const char *
procura_success_unit_default (const char *workload_type)
{
  static const char * const units[][2] = {
    { "online-inference", "accepted response" },
    { "chat", "accepted response" },
    { "batch-inference", "accepted record" },
    { "embeddings", "accepted record" },
    { "code-agents", "accepted task" },
    { "image-generation", "accepted image" },
    { "video-generation", "accepted clip" },
    { "training", "completed training run at the target evaluation" },
    { "pretraining", "completed training run at the target evaluation" },
    { "fine-tuning", "accepted fine-tuned checkpoint" },
    { "evaluation", "completed evaluation suite" },
  };

  if (workload_type == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_strcmp0 (units[i][0], workload_type) == 0)
      return units[i][1];
  return NULL;
}

static gboolean
contains (const char *s,
          const char *word)
{
  return s != NULL && strstr (s, word) != NULL;
}

/* What one output is as the figures count it (one per request, or per token), and the
 * scale to show it at. */
static void
unit_of (ProcuraAnalysis      *a,
         const ProcuraProject *p)
{
  const ProcuraBrief *b = p->brief;
  const char *type = b != NULL ? b->workload_type : NULL;
  const char *unit = b != NULL && b->success_unit != NULL && *b->success_unit ? b->success_unit
                     : procura_success_unit_default (type);

  if (unit == NULL)
    unit = "accepted response";
  /* one request renders one clip: a figure per request is per clip, whatever the
   * brief calls it (Procura has no clip length to turn clips into seconds) */
  if (g_strcmp0 (type, "video-generation") == 0 && contains (unit, "second"))
    unit = "accepted clip";
  a->unit_label = g_strdup (unit);
  if (contains (unit, "token"))
    a->unit_factor = 1e6;
  else if (is_run_workload (type) || is_media_workload (type) || g_strcmp0 (type, "code-agents") == 0 ||
           contains (unit, "image") || contains (unit, "clip") || contains (unit, "asset") ||
           contains (unit, "task") || contains (unit, "patch") || contains (unit, "checkpoint") ||
           contains (unit, "suite") || contains (unit, " run"))
    a->unit_factor = 1;
  else
    a->unit_factor = 1e3;
}

/* The quote's terms (docs/cost-model.md, "Quote terms"). */
static void
quote_terms (ProcuraCostInputs    *in,
             const ProcuraProject *p,
             const ProcuraQuote   *q,
             double                window_hours)
{
  const ProcuraBrief *b = p->brief;
  g_autofree char *origin = NULL;
  double term_h;

  if (q == NULL)
    return;
  origin = g_strdup_printf (_("quote: %s %s"), q->provider ? q->provider : "",
                            q->kind == PROCURA_QUOTE_API ? (q->api_model ? q->api_model : "")
                                                         : (q->sku ? q->sku : (q->gpu_name ? q->gpu_name : "")));
  term_h = procura_is_set (q->term_months) && q->term_months > 0 ? q->term_months * 730.0 : NAN;
  if (procura_is_set (q->support_pct) && q->support_pct > 0)
    {
      in->support_pct = MIN (q->support_pct, 100.0);
      procura_cost_inputs_note (in, "support_pct", origin);
    }
  if (procura_is_set (q->setup_fee) && q->setup_fee > 0)
    {
      in->setup_fee = q->setup_fee;
      in->setup_amortization_hours = term_h;
      procura_cost_inputs_note (in, "setup_fee", origin);
      procura_cost_inputs_note (in, "setup_amortization_hours",
                                procura_is_set (term_h) ? _("the quote's term (term_months x 730 h)")
                                                        : _("no term: the whole fee in this window"));
    }
  if (procura_is_set (q->min_commitment) && q->min_commitment > 0)
    {
      g_autofree char *how = procura_is_set (term_h)
                             ? g_strdup_printf (_("%s, prorated from its %.4g-month term"), origin, q->term_months)
                             : g_strdup_printf (_("%s, no term: the whole floor in this window"), origin);
      in->min_commitment = q->min_commitment * (procura_is_set (term_h) ? window_hours / term_h : 1.0);
      procura_cost_inputs_note (in, "min_commitment", how);
      /* GPU-hours above the commitment: the same provider's on-demand price */
      if (q->kind == PROCURA_QUOTE_GPU)
        for (guint i = 0; i < p->quotes->len; i++)
          {
            const ProcuraQuote *o = g_ptr_array_index (p->quotes, i);
            double price = procura_quote_price_per_gpu_hour (o);

            if (o == q || o->kind != PROCURA_QUOTE_GPU || g_strcmp0 (o->provider, q->provider) != 0 ||
                g_strcmp0 (o->pricing_model != NULL ? o->pricing_model : "on-demand", "on-demand") != 0 ||
                !procura_is_set (price) ||
                (g_strcmp0 (o->gpu_id, q->gpu_id) != 0 && g_strcmp0 (o->gpu_name, q->gpu_name) != 0))
              continue;
            in->overage_per_gpu_hour = price;
            {
              g_autofree char *od = g_strdup_printf (_("on-demand quote: %s %s"), o->provider ? o->provider : "",
                                                     o->sku ? o->sku : (o->gpu_name ? o->gpu_name : ""));
              procura_cost_inputs_note (in, "overage_per_gpu_hour", od);
            }
            break;
          }
    }
  if (procura_is_set (q->storage_per_gb_month) && q->storage_per_gb_month > 0)
    {
      in->storage_per_gb_month = q->storage_per_gb_month;
      procura_cost_inputs_note (in, "storage_per_gb_month", origin);
      if (b != NULL && procura_is_set (b->storage_gb))
        {
          in->storage_gb = b->storage_gb;
          procura_cost_inputs_note (in, "storage_gb", _("brief"));
        }
      else
        procura_cost_inputs_note (in, "storage_gb", _("not in the brief: the quote's storage price is not applied"));
    }
  if (procura_is_set (q->egress_per_gb) && q->egress_per_gb > 0)
    {
      in->egress_per_gb = q->egress_per_gb;
      procura_cost_inputs_note (in, "egress_per_gb", origin);
      if (b != NULL && procura_is_set (b->egress_gb))
        {
          in->egress_gb = b->egress_gb;
          procura_cost_inputs_note (in, "egress_gb", _("brief"));
        }
      else
        procura_cost_inputs_note (in, "egress_gb", _("not in the brief: the quote's egress price is not applied"));
    }
}

static gboolean
idles_every_replica (const char *kind)
{
  return g_strcmp0 (kind, "restart-stack") == 0 || g_strcmp0 (kind, "bad-deploy") == 0;
}

/* The candidate's operations tests as failure waste per window: each test that ran
 * and says how often it happens (per_month) counts per_month x window / 730 times. */
static gboolean
ops_waste (ProcuraCandidateAnalysis *ca,
           const ProcuraProject     *p,
           ProcuraCostInputs        *in,
           int                       replicas)
{
  double failed = 0, idle = 0;
  gboolean any = FALSE;

  for (guint i = 0; i < p->ops_tests->len; i++)
    {
      const ProcuraOpsTest *t = g_ptr_array_index (p->ops_tests, i);
      double occ;

      if (t->candidate_id != ca->candidate_id || g_strcmp0 (t->result, "not-run") == 0 ||
          !procura_is_set (t->per_month) || t->per_month <= 0)
        continue;
      occ = t->per_month * in->window_hours / 730.0;
      if (procura_is_set (t->failed_requests) && t->failed_requests > 0)
        failed += t->failed_requests * occ;
      if (procura_is_set (t->recovery_s) && t->recovery_s > 0 && ca->kind != PROCURA_CANDIDATE_API)
        idle += t->recovery_s / 3600.0 * occ * (idles_every_replica (t->kind) ? MAX (1, replicas) : 1);
      any = TRUE;
    }
  ca->ops_failed_requests = failed;
  ca->ops_idle_replica_hours = idle;
  if (!any)
    return FALSE;
  in->ops_failed_requests = failed;
  in->ops_idle_replica_hours = idle;
  procura_cost_inputs_note (in, "ops_failed_requests", _("operations tests (failed requests x per month)"));
  procura_cost_inputs_note (in, "ops_idle_replica_hours",
                            _("operations tests (recovery time x per month x replicas idled)"));
  return TRUE;
}

/* An API route's measured latency: the metric's percentile on the runs assigned to
 * it (an llmperf run against it, ...), the worst run. */
static void
api_latency (ProcuraCandidateAnalysis *ca,
             const ProcuraAnalysis    *a,
             GPtrArray                *runs)
{
  if (a->slo_metric == NULL)
    return;
  for (guint i = 0; i < runs->len; i++)
    {
      const ProcuraRun *r = g_ptr_array_index (runs, i);
      ProcuraSource src;
      gint64 n = -1;
      double v = procura_run_metric_percentile (r, a->slo_metric, a->slo_percentile, &src, &n);

      if (isfinite (v) && (isnan (ca->latency_ms) || v > ca->latency_ms))
        {
          ca->latency_ms = v;
          g_free (ca->latency_run);
          ca->latency_run = g_strdup (r->label != NULL ? r->label : _("(unlabelled run)"));
        }
    }
  ca->misses_target = isfinite (ca->latency_ms) && procura_is_set (a->slo_threshold_ms) &&
                      ca->latency_ms > a->slo_threshold_ms;
}

static double
mean_duration_hours (GPtrArray *runs)
{
  double sum = 0;
  guint n = 0;

  for (guint i = 0; i < runs->len; i++)
    {
      const ProcuraRun *r = g_ptr_array_index (runs, i);
      if (procura_is_set (r->duration_s) && r->duration_s > 0)
        {
          sum += r->duration_s;
          n++;
        }
    }
  return n > 0 ? sum / n / 3600.0 : NAN;
}

/* A training, fine-tuning or evaluation project: each GPU candidate costed per
 * completed run with the run formulas of COST-MODEL.md §3. */
static void
run_candidate (ProcuraCandidateAnalysis *ca,
               const ProcuraProject     *p,
               const ProcuraAnalysis    *a,
               const ProcuraCandidate   *c,
               GPtrArray                *runs,
               double                    price,
               const char               *price_origin)
{
  g_autoptr(ProcuraCostInputs) in = procura_cost_inputs_new ();
  ProcuraRunCostInputs *run = procura_run_cost_inputs_new ();
  const char *type = p->brief->workload_type;
  GError *error = NULL;
  double hours = c->billed_hours;
  const char *hours_origin = _("candidate (billed hours per run)");

  in->name = g_strdup (ca->name);
  in->demand_average = 0;
  in->run_inputs = run;
  run->name = g_strdup (ca->name);
  if (!procura_is_set (hours) || hours <= 0)
    {
      hours = mean_duration_hours (runs);
      hours_origin = _("benchmark (mean duration of the candidate's runs)");
    }
  if (!procura_is_set (hours) || hours <= 0)
    {
      ca->cost_reason = g_strdup_printf (_("%s is costed per %s: set the candidate's billed hours (the hours one "
                                         "run takes) or import a run with its duration"), type,
                                         procura_units_label (a->unit_label));
      return;
    }
  run->gpus = MAX (1, c->gpus_per_replica);
  run->price_per_gpu_hour = price;
  run->wall_clock_hours = hours;
  run->storage = procura_is_set (c->storage) ? c->storage : 0;
  run->network = procura_is_set (c->network) ? c->network : 0;
  run->labor_hours = procura_is_set (c->labor_hours) ? c->labor_hours : 0;
  run->labor_rate = procura_is_set (c->labor_rate) ? c->labor_rate : 0;
  run->success_probability = a->acceptance_rate;
  /* interrupted runs: the candidate's checkpoint-recovery tests */
  for (guint i = 0; i < p->ops_tests->len; i++)
    {
      const ProcuraOpsTest *t = g_ptr_array_index (p->ops_tests, i);
      if (t->candidate_id == c->id && g_strcmp0 (t->result, "not-run") != 0 &&
          procura_is_set (t->per_month) && t->per_month > 0 && procura_is_set (t->recovery_s))
        {
          run->interruptions = (isnan (run->interruptions) ? 0 : run->interruptions) + t->per_month * hours / 730.0;
          run->restart_hours = MAX (run->restart_hours, t->recovery_s / 3600.0);
        }
    }
  procura_cost_inputs_note (in, "price_per_gpu_hour", price_origin);
  {
    ProcuraCostInput *t;
    const char *names[][2] = {
      { "price_per_gpu_hour", price_origin }, { "wall_clock_hours", hours_origin },
      { "gpus", _("candidate (GPUs per replica)") }, { "success_probability", _("assumptions (acceptance rate)") },
      { "storage", _("candidate") }, { "network", _("candidate") }, { "labor_hours", _("candidate") },
      { "labor_rate", _("candidate") }, { "interruptions", _("operations tests (checkpoint recovery)") },
      { "restart_hours", _("operations tests (recovery time)") },
    };
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        t = g_new0 (ProcuraCostInput, 1);
        t->name = g_strdup (names[i][0]);
        t->value = NAN;
        t->origin = g_strdup (names[i][1]);
        g_ptr_array_add (run->trace, t);
      }
  }
  ca->cost = procura_cost_run_workload (run, &error);
  if (ca->cost == NULL)
    {
      ca->cost_reason = g_strdup (error->message);
      g_error_free (error);
      return;
    }
  ca->inputs = g_steal_pointer (&in);
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
  procura_cost_inputs_note (in, "window_hours", _("brief"));
  procura_cost_inputs_note (in, "demand.average", _("brief"));
  procura_cost_inputs_note (in, "demand.peak", _("brief"));
  procura_cost_inputs_note (in, "retry_rate", _("assumptions"));
  procura_cost_inputs_note (in, "failure_rate", _("assumptions"));
  procura_cost_inputs_note (in, "acceptance_rate",
                            procura_is_set (as->acceptance_rate) ? _("assumptions")
                                                                 : _("not set: generated outputs counted as accepted"));
  procura_cost_inputs_note (in, "headroom", _("assumptions"));
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
      procura_cost_inputs_note (in, names[i], _("candidate"));
    }
}

/* API side from the candidate, the brief filling the request shape. */
static gboolean
api_side (ProcuraCostInputs      *in,
          const ProcuraProject   *p,
          const ProcuraCandidate *c,
          const char            **basis,
          char                  **reason)
{
  const ProcuraQuote *q = find_quote (p, c->quote_id);

  const ProcuraBrief *b = p->brief;

  in->input_tokens = c->input_tokens;
  in->output_tokens = c->output_tokens;
  procura_cost_inputs_note (in, "input_tokens", _("candidate"));
  procura_cost_inputs_note (in, "output_tokens", _("candidate"));
  *basis = "candidate";
  /* the API bills the tokens each request really has: the brief's mean shape; its p95
   * shape (what the GPUs are sized for) only when no mean is given, an upper bound */
  if (!procura_is_set (in->input_tokens) && b != NULL && procura_is_set (b->input_tokens_mean))
    {
      in->input_tokens = b->input_tokens_mean;
      procura_cost_inputs_note (in, "input_tokens", _("brief (mean request shape)"));
      *basis = "mean";
    }
  else if (!procura_is_set (in->input_tokens) && b != NULL && procura_is_set (b->input_tokens))
    {
      in->input_tokens = b->input_tokens;
      procura_cost_inputs_note (in, "input_tokens", _("brief (p95 request shape: no mean given, an upper bound)"));
      *basis = "p95";
    }
  if (!procura_is_set (in->output_tokens) && b != NULL && procura_is_set (b->output_tokens_mean))
    {
      in->output_tokens = b->output_tokens_mean;
      procura_cost_inputs_note (in, "output_tokens", _("brief (mean request shape)"));
      if (g_strcmp0 (*basis, "p95") != 0)
        *basis = "mean";
    }
  else if (!procura_is_set (in->output_tokens) && b != NULL && procura_is_set (b->output_tokens))
    {
      in->output_tokens = b->output_tokens;
      procura_cost_inputs_note (in, "output_tokens", _("brief (p95 request shape: no mean given, an upper bound)"));
      *basis = "p95";
    }
  in->cached_input_tokens = procura_is_set (c->cached_input_tokens) ? c->cached_input_tokens : 0;
  in->price_input_per_mtok = c->price_input_per_mtok;
  in->price_cached_per_mtok = procura_is_set (c->price_cached_per_mtok) ? c->price_cached_per_mtok : 0;
  in->price_output_per_mtok = c->price_output_per_mtok;
  in->gateway = procura_is_set (c->gateway) ? c->gateway : 0;
  in->rate_limit_rpm = c->rate_limit_rpm;
  procura_cost_inputs_note (in, "rate_limit_rpm", _("candidate"));
  procura_cost_inputs_note (in, "price_input_per_mtok", _("candidate"));
  procura_cost_inputs_note (in, "price_output_per_mtok", _("candidate"));
  procura_cost_inputs_note (in, "gateway", _("candidate"));
  if (q != NULL && q->kind == PROCURA_QUOTE_API)
    {
      g_autofree char *origin = g_strdup_printf (_("quote: %s %s"), q->provider ? q->provider : "",
                                                 q->api_model ? q->api_model : "");
      if (!procura_is_set (in->rate_limit_rpm) && procura_is_set (q->rate_limit_rpm) && q->rate_limit_rpm > 0)
        {
          in->rate_limit_rpm = q->rate_limit_rpm;
          procura_cost_inputs_note (in, "rate_limit_rpm", origin);
        }
      if (procura_is_set (q->rate_limit_tpm) && q->rate_limit_tpm > 0)
        {
          in->rate_limit_tpm = q->rate_limit_tpm;
          procura_cost_inputs_note (in, "rate_limit_tpm", origin);
        }
      if (!procura_is_set (in->price_input_per_mtok) && procura_is_set (q->price_input_per_mtok))
        {
          in->price_input_per_mtok = q->price_input_per_mtok;
          in->price_cached_per_mtok = procura_is_set (q->price_cached_per_mtok) ? q->price_cached_per_mtok : 0;
          procura_cost_inputs_note (in, "price_input_per_mtok", origin);
        }
      if (!procura_is_set (in->price_output_per_mtok) && procura_is_set (q->price_output_per_mtok))
        {
          in->price_output_per_mtok = q->price_output_per_mtok;
          procura_cost_inputs_note (in, "price_output_per_mtok", origin);
        }
    }
  if (!procura_is_set (in->rate_limit_rpm) || in->rate_limit_rpm <= 0)
    in->rate_limit_rpm = NAN;

  if (!procura_is_set (in->input_tokens) || !procura_is_set (in->output_tokens))
    {
      *reason = g_strdup (_("no request shape: set input and output tokens on the API route or in the brief"));
      return FALSE;
    }
  if (!procura_is_set (in->price_input_per_mtok) || !procura_is_set (in->price_output_per_mtok))
    {
      *reason = g_strdup (_("no token prices: add the API's input and output prices per million tokens"));
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
      ca->fit = procura_analysis_fit_candidate (p, c, ca);
      if (procura_is_set (c->capacity_override) && c->capacity_override > 0)
        {
          ca->capacity_at_slo = c->capacity_override;
          ca->capacity_origin = g_strdup (_("typed in (capacity override)"));
        }
      else if (ca->capacity->status == PROCURA_CAPACITY_OK)
        {
          ca->capacity_at_slo = ca->capacity->capacity_rps;
          ca->capacity_origin = g_strdup_printf (_("benchmark sweep: %s"), ca->capacity->reason);
        }
      else if (ca->capacity->status == PROCURA_CAPACITY_NOT_SATURATED)
        {
          ca->capacity_at_slo = ca->capacity->capacity_rps;
          ca->capacity_origin = g_strdup_printf (_("benchmark sweep, a lower bound: %s"), ca->capacity->reason);
        }
    }

  if (c->kind == PROCURA_CANDIDATE_API)
    {
      api_latency (ca, a, runs);
      if (ca->misses_target)
        {
          g_autofree char *stat = procura_percentile_stat_name (a->slo_percentile);
          ca->cost_reason = g_strdup_printf (_("misses the target: its measured %s %s is %.0f ms (run “%s”), "
                                             "above the %.0f ms target"), stat, a->slo_metric, ca->latency_ms,
                                             ca->latency_run, a->slo_threshold_ms);
          return;
        }
    }

  if (b != NULL && is_run_workload (b->workload_type))
    {
      const ProcuraQuote *q = find_quote (p, c->quote_id);
      double price = c->price_per_gpu_hour;
      g_autofree char *origin = NULL;

      if (c->kind != PROCURA_CANDIDATE_GPU)
        {
          ca->cost_reason = g_strdup_printf (_("%s is costed per %s on GPUs: an API route or hybrid has no "
                                             "run formula"), b->workload_type, procura_units_label (a->unit_label));
          return;
        }
      if (procura_is_set (price))
        origin = g_strdup_printf (_("candidate (price seen %s)"), c->price_date ? c->price_date : _("undated"));
      else if (q != NULL && procura_is_set (procura_quote_price_per_gpu_hour (q)))
        {
          price = procura_quote_price_per_gpu_hour (q);
          origin = g_strdup_printf (_("quote: %s %s"), q->provider ? q->provider : "", q->sku ? q->sku : "");
        }
      if (!procura_is_set (price))
        {
          ca->cost_reason = g_strdup (_("no price: add a quote or type the price per GPU-hour"));
          return;
        }
      run_candidate (ca, p, a, c, runs, price, origin);
      return;
    }
  if (!procura_is_set (a->demand_average))
    {
      ca->cost_reason = g_strdup (_("no demand: set the average and peak requests/s in the brief"));
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
          ca->cost_reason = g_strdup_printf (_("no cost at this target: %s"), ca->capacity->reason);
          return;
        }
      if (!procura_is_set (ca->capacity_at_slo))
        {
          ca->cost_reason = g_strdup_printf (_("no capacity at the target: %s; import a benchmark sweep "
                                             "(or type the capacity in)"), ca->capacity->reason);
          return;
        }
      if (procura_is_set (price))
        {
          g_autofree char *origin = c->price_date != NULL
                                    ? g_strdup_printf (_("candidate (price seen %s)"), c->price_date)
                                    : g_strdup (_("candidate (undated price)"));
          procura_cost_inputs_note (in, "price_per_gpu_hour", origin);
        }
      else if (q != NULL && procura_is_set (procura_quote_price_per_gpu_hour (q)))
        {
          g_autofree char *origin = g_strdup_printf (_("quote: %s %s%s%s"), q->provider ? q->provider : "",
                                                     q->sku ? q->sku : "",
                                                     q->seen_date ? ", seen " : "",
                                                     q->seen_date ? q->seen_date : "");
          price = procura_quote_price_per_gpu_hour (q);
          procura_cost_inputs_note (in, "price_per_gpu_hour", origin);
        }
      if (!procura_is_set (price))
        {
          ca->cost_reason = g_strdup (_("no price: add a quote or type the price per GPU-hour"));
          return;
        }
      in->price_per_gpu_hour = price;
      quote_terms (in, p, q, a->window_hours);
      in->gpus_per_replica = MAX (1, c->gpus_per_replica);
      in->capacity_at_slo = ca->capacity_at_slo;
      in->provisioning = c->provisioning;
      in->billed_hours = c->billed_hours;
      in->target_utilization = c->target_utilization;
      procura_cost_inputs_note (in, "gpus_per_replica", _("candidate"));
      procura_cost_inputs_note (in, "capacity_at_slo", ca->capacity_origin);
      procura_cost_inputs_note (in, "billed_hours", _("candidate"));
      procura_cost_inputs_note (in, "target_utilization", _("candidate"));
    }
  if (c->kind != PROCURA_CANDIDATE_GPU)
    {
      char *reason = NULL;
      if (!api_side (in, p, c, &ca->token_basis, &reason))
        {
          ca->cost_reason = reason;
          return;
        }
      if (c->kind == PROCURA_CANDIDATE_API)
        quote_terms (in, p, find_quote (p, c->quote_id), a->window_hours);
    }

  if (b != NULL && counts_tokens (b->success_unit))
    {
      double t = gpu ? mean_output_tokens (runs) : NAN;
      const char *origin = _("benchmark (mean output tokens per response)");

      if (!procura_is_set (t) && c->kind != PROCURA_CANDIDATE_GPU && procura_is_set (in->output_tokens))
        {
          t = in->output_tokens;
          origin = _("candidate (output tokens per request)");
        }
      if (!procura_is_set (t) && procura_is_set (b->output_tokens))
        {
          t = b->output_tokens;
          origin = _("brief (output tokens per request)");
        }
      if (procura_is_set (t) && t > 0)
        {
          in->outputs_per_request = t;
          procura_cost_inputs_note (in, "outputs_per_request", origin);
        }
    }

  ca->cost = procura_cost_evaluate (in, &error);
  if (ca->cost != NULL && ops_waste (ca, p, in, ca->cost->replicas))
    {
      procura_cost_result_free (ca->cost);
      ca->cost = procura_cost_evaluate (in, &error);
    }
  if (ca->cost == NULL)
    {
      ca->cost_reason = g_strdup (error->message);
      g_error_free (error);
      return;
    }
  if (!ca->cost->feasible)
    {
      /* a hard limit broken: not ranked; the inputs stay for the hybrid */
      ca->rate_limited = TRUE;
      ca->cost_reason = g_strdup_printf (_("not feasible: %s"), ca->cost->infeasible_reason);
      g_clear_pointer (&ca->cost, procura_cost_result_free);
      ca->inputs = g_steal_pointer (&in);
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

/* The API route the hybrid sends its overflow to: the cheapest with a cost, else the
 * cheapest one that only breaks its rate limit (the hybrid keeps within it). */
static const ProcuraCandidateAnalysis *
api_for_hybrid (const ProcuraAnalysis *a)
{
  const ProcuraCandidateAnalysis *best = cheapest_of_kind (a, PROCURA_CANDIDATE_API);
  double best_cost = INFINITY;

  if (best != NULL)
    return best;
  for (guint i = 0; i < a->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (a->candidates, i);
      g_autoptr(ProcuraCostResult) r = NULL;

      if (ca->kind != PROCURA_CANDIDATE_API || !ca->rate_limited || ca->inputs == NULL)
        continue;
      r = procura_cost_evaluate (ca->inputs, NULL);
      if (r != NULL && r->cost_per_accepted < best_cost)
        {
          best_cost = r->cost_per_accepted;
          best = ca;
        }
    }
  return best;
}

static void
add_derived_hybrid (ProcuraAnalysis              *a,
                    const ProcuraAnalysisOptions *o)
{
  const ProcuraCandidateAnalysis *g = cheapest_of_kind (a, PROCURA_CANDIDATE_GPU);
  const ProcuraCandidateAnalysis *api = api_for_hybrid (a);
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
  in->rate_limit_tpm = api->inputs->rate_limit_tpm;
  g_free (in->name);
  in->name = g_strdup_printf (_("Hybrid: %s + %s"), g->name, api->name);
  {
    g_autofree char *from = g_strdup_printf (_("API route %s"), api->name);
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
  ca->capacity_origin = g_strdup_printf (_("as %s"), g->name);
  ca->token_basis = api->token_basis;
  ca->ops_failed_requests = g->ops_failed_requests;   /* its GPUs' operations tests */
  ca->ops_idle_replica_hours = g->ops_idle_replica_hours;
  ca->cost = procura_cost_hybrid (in, &error);
  if (ca->cost != NULL && !ca->cost->feasible)
    {
      ca->rate_limited = TRUE;
      ca->cost_reason = g_strdup_printf (_("not feasible: %s"), ca->cost->infeasible_reason);
      g_clear_pointer (&ca->cost, procura_cost_result_free);
      procura_cost_inputs_free (in);
    }
  else if (ca->cost == NULL)
    {
      ca->cost_reason = g_strdup (error->message);
      g_error_free (error);
      procura_cost_inputs_free (in);
    }
  else if (!(ca->cost->api_share > 0))
    {
      /* at the replica count that costs least its GPUs take the whole load and the API
       * nothing: that is no hybrid but its GPU candidate run for the peak, so it is not
       * ranked beside it (a tie with itself would decide nothing) */
      ca->cost_reason = g_strdup_printf (_("not a hybrid at this demand: at the replica count that costs "
                                           "least, %s takes the whole load and nothing goes to %s"),
                                         g->name, api->name);
      g_clear_pointer (&ca->cost, procura_cost_result_free);
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

      if (ca->kind == PROCURA_CANDIDATE_API || ca->inputs == NULL || ca->inputs->run_inputs != NULL ||
          ca->cost == NULL)
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
                      : procura_brief_slo_percentile (b);
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

  unit_of (a, project);
  a->tipping_points = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_tipping_point_free);
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
      a->ranking_withheld_reason = g_strdup_printf (_("the brief is incomplete (missing: %s); a ranking "
                                                    "would rest on guesses, fill these in first"), list);
    }
  else if (costed->len == 0)
    {
      a->ranking_withheld = TRUE;
      a->ranking_withheld_reason = g_strdup (_("no candidate has a cost per accepted output yet"));
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
  procura_tipping_points_run (a, project);
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
