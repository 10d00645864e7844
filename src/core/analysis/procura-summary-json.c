/* procura-summary-json.c: the analysis as JSON (`procura summary --json`) and as text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>

#include "procura-store-probe.h"
#include "procura-json-out.h"
#include "procura-units.h"
#include "procura-analysis.h"
#include "procura-capacity.h"

static void
point_json (JsonBuilder             *b,
            const ProcuraSweepPoint *p)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "run_id");
  json_builder_add_int_value (b, p->run_id);
  procura_json_add_string (b, "label", p->label);
  procura_json_add_number (b, "rps", p->throughput_rps);
  procura_json_add_number (b, "tok_s", p->throughput_tok_s);
  procura_json_add_number (b, "value_ms", p->value_ms);
  procura_json_add_number (b, "ci_lo_ms", p->ci_lo_ms);
  procura_json_add_number (b, "ci_hi_ms", p->ci_hi_ms);
  procura_json_add_string (b, "source", p->source == PROCURA_SOURCE_RECOMPUTED ? "recomputed" : "as-reported");
  json_builder_set_member_name (b, "samples");
  json_builder_add_int_value (b, p->samples);
  json_builder_set_member_name (b, "meets");
  json_builder_add_boolean_value (b, p->meets);
  json_builder_end_object (b);
}

static void
capacity_json (JsonBuilder                    *b,
               const ProcuraCandidateAnalysis *ca)
{
  const ProcuraCapacity *c = ca->capacity;

  json_builder_set_member_name (b, "capacity");
  if (c == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  procura_json_add_string (b, "status", procura_capacity_status_name (c->status));
  procura_json_add_number (b, "rps", c->capacity_rps);
  procura_json_add_number (b, "tok_s", c->capacity_tok_s);
  json_builder_set_member_name (b, "uncertain");
  json_builder_add_boolean_value (b, c->uncertain);
  json_builder_set_member_name (b, "lower_bound");
  json_builder_add_boolean_value (b, c->status == PROCURA_CAPACITY_NOT_SATURATED);
  procura_json_add_string (b, "metric", c->metric);
  procura_json_add_number (b, "percentile", c->percentile);
  procura_json_add_number (b, "threshold_ms", c->threshold_ms);
  procura_json_add_number (b, "used_rps", ca->capacity_at_slo);
  procura_json_add_string (b, "used_origin", ca->capacity_origin);
  json_builder_set_member_name (b, "below");
  if (c->below >= 0)
    point_json (b, &g_array_index (c->points, ProcuraSweepPoint, c->below));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "above");
  if (c->above >= 0)
    point_json (b, &g_array_index (c->points, ProcuraSweepPoint, c->above));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "samples_min");
  json_builder_add_int_value (b, c->samples_min);
  procura_json_add_string (b, "source", c->points->len == 0 ? NULL : c->all_recomputed ? "recomputed" : "as-reported");
  json_builder_set_member_name (b, "points");
  json_builder_begin_array (b);
  for (guint i = 0; i < c->points->len; i++)
    point_json (b, &g_array_index (c->points, ProcuraSweepPoint, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "skipped_runs");
  json_builder_add_int_value (b, c->skipped);
  procura_json_add_string (b, "reason", c->reason);
  /* the rule's extras (docs/capacity.md) */
  json_builder_set_member_name (b, "excluded_runs");
  json_builder_begin_array (b);
  for (guint i = 0; i < c->excluded->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (c->excluded, i));
  json_builder_end_array (b);
  procura_json_add_string (b, "non_monotone", c->non_monotone);
  json_builder_set_member_name (b, "interval");
  json_builder_begin_object (b);
  procura_json_add_number (b, "low_rps", c->capacity_lo_rps);
  procura_json_add_number (b, "high_rps", c->capacity_hi_rps);
  json_builder_set_member_name (b, "high_lower_bound");
  json_builder_add_boolean_value (b, c->hi_lower_bound);
  procura_json_add_string (b, "reason", c->interval_reason);
  json_builder_end_object (b);
  json_builder_end_object (b);
}

static void
warnings_json (JsonBuilder           *b,
               const ProcuraAnalysis *a,
               gint64                 candidate_id)
{
  json_builder_set_member_name (b, "warnings");
  json_builder_begin_array (b);
  for (guint i = 0; i < a->warnings->len; i++)
    {
      const ProcuraWarning *w = g_ptr_array_index (a->warnings, i);
      if (w->candidate_id != candidate_id)
        continue;
      json_builder_begin_object (b);
      procura_json_add_string (b, "id", w->id);
      procura_json_add_string (b, "severity", procura_severity_name (w->severity));
      procura_json_add_string (b, "message", w->message);
      procura_json_add_string (b, "what_to_do", w->what_to_do);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* The cost per accepted output at the ends of the capacity interval: null ends when
 * unknown; "unbounded" when the high end is infinite. */
static void
cost_interval_json (JsonBuilder                    *b,
                    const ProcuraCandidateAnalysis *ca)
{
  json_builder_set_member_name (b, "cost_per_accepted_interval");
  if (ca->cost == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  procura_json_add_number (b, "low", ca->cost_lo);
  procura_json_add_number (b, "high", ca->cost_hi);
  json_builder_set_member_name (b, "unbounded");
  json_builder_add_boolean_value (b, isinf (ca->cost_hi));
  procura_json_add_string (b, "reason", ca->cost_interval_reason);
  json_builder_end_object (b);
}

static void
candidate_json (JsonBuilder                    *b,
                const ProcuraAnalysis          *a,
                const ProcuraCandidateAnalysis *ca)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "id");
  json_builder_add_int_value (b, ca->candidate_id);
  procura_json_add_string (b, "name", ca->name);
  procura_json_add_string (b, "kind", procura_candidate_kind_id (ca->kind));
  json_builder_set_member_name (b, "derived");
  json_builder_add_boolean_value (b, ca->derived);
  json_builder_set_member_name (b, "rank");
  if (ca->rank > 0)
    json_builder_add_int_value (b, ca->rank);
  else
    json_builder_add_null_value (b);

  capacity_json (b, ca);

  json_builder_set_member_name (b, "cost");
  if (ca->cost != NULL)
    json_builder_add_value (b, procura_cost_result_to_json (ca->cost));
  else
    json_builder_add_null_value (b);
  procura_json_add_string (b, "cost_reason", ca->cost_reason);
  cost_interval_json (b, ca);

  /* hard constraints: the API's measured latency and its rate limits */
  json_builder_set_member_name (b, "constraints");
  json_builder_begin_object (b);
  procura_json_add_number (b, "latency_ms", ca->latency_ms);
  procura_json_add_string (b, "latency_run", ca->latency_run);
  json_builder_set_member_name (b, "misses_target");
  json_builder_add_boolean_value (b, ca->misses_target);
  json_builder_set_member_name (b, "rate_limited");
  json_builder_add_boolean_value (b, ca->rate_limited);
  json_builder_end_object (b);
  procura_json_add_string (b, "api_token_basis", ca->token_basis);
  json_builder_set_member_name (b, "ops_waste");
  json_builder_begin_object (b);
  procura_json_add_number (b, "failed_requests", ca->ops_failed_requests);
  procura_json_add_number (b, "idle_replica_hours", ca->ops_idle_replica_hours);
  json_builder_end_object (b);

  /* the memory fit (computed by src/core/fit) at the brief's context and concurrency */
  json_builder_set_member_name (b, "fit");
  if (ca->fit != NULL)
    {
      const ProcuraFitResult *f = ca->fit;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "fits");
      json_builder_add_boolean_value (b, f->fits);
      procura_json_add_string (b, "limit", procura_fit_limit_to_string (f->limit));
      procura_json_add_string (b, "limit_text", f->limit_text[0] ? f->limit_text : NULL);
      json_builder_set_member_name (b, "context_tokens");
      json_builder_add_int_value (b, f->context_tokens);
      json_builder_set_member_name (b, "concurrency");
      json_builder_add_int_value (b, f->concurrency);
      json_builder_set_member_name (b, "tp");
      json_builder_add_int_value (b, f->tp);
      json_builder_set_member_name (b, "pp");
      json_builder_add_int_value (b, f->pp);
      procura_json_add_number (b, "weights_bytes", f->weights_bytes);
      procura_json_add_number (b, "kv_bytes_per_token", f->kv_bytes_per_token);
      procura_json_add_number (b, "kv_pool_bytes", f->kv_pool_bytes);
      json_builder_set_member_name (b, "kv_tokens");
      json_builder_add_int_value (b, f->kv_tokens);
      procura_json_add_number (b, "max_concurrency", f->max_concurrency);
      procura_json_add_number (b, "headroom_bytes", f->headroom_bytes);
      json_builder_set_member_name (b, "estimates");
      json_builder_add_boolean_value (b, f->estimates != 0);
      procura_json_add_number (b, "usable_memory_bytes", f->usable_memory_bytes);
      /* the figures an engine log or a probe measured, which replaced the estimates */
      json_builder_set_member_name (b, "measured");
      json_builder_begin_array (b);
      if (ca->fit_measured & PROCURA_FIT_MEASURED_WEIGHTS)
        json_builder_add_string_value (b, "weights");
      if (ca->fit_measured & PROCURA_FIT_MEASURED_KV_POOL)
        json_builder_add_string_value (b, "kv-pool");
      if (ca->fit_measured & PROCURA_FIT_MEASURED_CUDA_GRAPHS)
        json_builder_add_string_value (b, "cuda-graphs");
      if (ca->fit_measured & PROCURA_FIT_MEASURED_USABLE)
        json_builder_add_string_value (b, "usable-memory");
      if (ca->fit_measured & PROCURA_FIT_MEASURED_PROBE_FIT)
        json_builder_add_string_value (b, "probe-fit");
      json_builder_end_array (b);
      procura_json_add_string (b, "measured_text", ca->fit_measured_text);
      if (ca->fit_measured & PROCURA_FIT_MEASURED_PROBE_FIT)
        {
          json_builder_set_member_name (b, "probe_fits");
          json_builder_add_boolean_value (b, ca->fit_probe_fits);
          procura_json_add_number (b, "probe_headroom_bytes", ca->fit_probe_headroom_bytes);
        }
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  procura_json_add_string (b, "fit_reason", ca->fit != NULL ? NULL : ca->fit_reason);

  json_builder_set_member_name (b, "sensitivity");
  json_builder_begin_array (b);
  for (guint i = 0; i < ca->sensitivity->len; i++)
    {
      const ProcuraSensitivity *s = g_ptr_array_index (ca->sensitivity, i);
      json_builder_begin_object (b);
      procura_json_add_string (b, "input", s->input);
      procura_json_add_number (b, "base_value", s->base_value);
      procura_json_add_number (b, "low_value", s->low_value);
      procura_json_add_number (b, "high_value", s->high_value);
      procura_json_add_number (b, "base_cost", s->base_cost);
      procura_json_add_number (b, "cost_low", s->cost_low);
      procura_json_add_number (b, "cost_high", s->cost_high);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "what_if");
  json_builder_begin_array (b);
  for (guint i = 0; i < ca->what_ifs->len; i++)
    {
      const ProcuraWhatIf *w = g_ptr_array_index (ca->what_ifs, i);
      json_builder_begin_object (b);
      procura_json_add_string (b, "id", w->id);
      procura_json_add_string (b, "title", w->title);
      procura_json_add_string (b, "assumption", w->assumption);
      json_builder_set_member_name (b, "estimate");
      json_builder_add_boolean_value (b, w->estimate);
      procura_json_add_number (b, "cost_per_accepted", w->result != NULL ? w->result->cost_per_accepted : NAN);
      procura_json_add_number (b, "all_in_cost", w->result != NULL ? w->result->all_in_cost : NAN);
      json_builder_set_member_name (b, "replicas");
      if (w->result != NULL && w->result->kind != PROCURA_CANDIDATE_API)
        json_builder_add_int_value (b, w->result->replicas);
      else
        json_builder_add_null_value (b);
      procura_json_add_string (b, "note", w->note);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "break_even");
  json_builder_begin_array (b);
  for (guint i = 0; i < ca->break_even->len; i++)
    {
      const ProcuraBreakEven *be = &g_array_index (ca->break_even, ProcuraBreakEven, i);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "api_candidate");
      json_builder_add_int_value (b, ca->break_even_api);
      procura_json_add_number (b, "demand", be->demand);
      procura_json_add_number (b, "utilization", be->utilization);
      procura_json_add_number (b, "cost_per_accepted", be->cost_per_accepted);
      json_builder_set_member_name (b, "gpu_cheaper_above");
      json_builder_add_boolean_value (b, be->gpu_cheaper_above);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  warnings_json (b, a, ca->candidate_id);
  json_builder_end_object (b);
}

JsonNode *
procura_analysis_to_json (const ProcuraAnalysis *a,
                          const ProcuraProject  *project)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  const ProcuraRecommendation *r = a->recommendation;

  json_builder_begin_object (b);
  procura_json_add_string (b, "project", project != NULL ? project->title : NULL);
  json_builder_set_member_name (b, "illustrative");
  json_builder_add_boolean_value (b, project != NULL && project->illustrative);
  procura_json_add_string (b, "currency", a->currency);

  json_builder_set_member_name (b, "slo");
  json_builder_begin_object (b);
  procura_json_add_string (b, "metric", a->slo_metric);
  procura_json_add_number (b, "percentile", a->slo_percentile);
  procura_json_add_number (b, "threshold_ms", a->slo_threshold_ms);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "demand");
  json_builder_begin_object (b);
  procura_json_add_number (b, "average", a->demand_average);
  procura_json_add_number (b, "peak", a->demand_peak);
  json_builder_end_object (b);
  procura_json_add_number (b, "window_hours", a->window_hours);
  procura_json_add_number (b, "acceptance_rate", a->acceptance_rate);
  json_builder_set_member_name (b, "success_unit");
  json_builder_begin_object (b);
  procura_json_add_string (b, "label", a->unit_label);
  procura_json_add_number (b, "per", a->unit_factor);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "candidates");
  json_builder_begin_array (b);
  for (guint i = 0; i < a->candidates->len; i++)
    candidate_json (b, a, g_ptr_array_index (a->candidates, i));
  json_builder_end_array (b);

  warnings_json (b, a, 0);

  json_builder_set_member_name (b, "ranking");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "withheld");
  json_builder_add_boolean_value (b, a->ranking_withheld);
  procura_json_add_string (b, "reason", a->ranking_withheld_reason);
  json_builder_set_member_name (b, "order");
  json_builder_begin_array (b);
  for (guint i = 0; i < a->ranking->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = procura_analysis_find (a, g_array_index (a->ranking, gint64, i));
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "rank");
      json_builder_add_int_value (b, ca->rank);
      json_builder_set_member_name (b, "id");
      json_builder_add_int_value (b, ca->candidate_id);
      procura_json_add_string (b, "name", ca->name);
      procura_json_add_number (b, "cost_per_accepted", ca->cost->cost_per_accepted);
      procura_json_add_number (b, "cost_per_accepted_low", ca->cost_lo);
      procura_json_add_number (b, "cost_per_accepted_high", ca->cost_hi);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  procura_json_add_string (b, "separation", procura_separation_name (a->ranking_separation));
  procura_json_add_string (b, "uncertainty", a->ranking_uncertainty);
  procura_json_add_string (b, "measure_next", a->measure_next);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "tipping_points");
  json_builder_begin_array (b);
  for (guint i = 0; a->tipping_points != NULL && i < a->tipping_points->len; i++)
    {
      const ProcuraTippingPoint *t = g_ptr_array_index (a->tipping_points, i);
      json_builder_begin_object (b);
      procura_json_add_string (b, "input", t->input);
      json_builder_set_member_name (b, "candidate_id");
      if (t->candidate_id != 0)
        json_builder_add_int_value (b, t->candidate_id);
      else
        json_builder_add_null_value (b);
      procura_json_add_string (b, "candidate", t->candidate_name);
      json_builder_set_member_name (b, "winner_id");
      json_builder_add_int_value (b, a->tipping_winner);
      json_builder_set_member_name (b, "runner_up_id");
      json_builder_add_int_value (b, a->tipping_runner_up);
      procura_json_add_number (b, "current", t->current);
      procura_json_add_number (b, "value", t->value);
      procura_json_add_number (b, "ratio", t->ratio);
      procura_json_add_string (b, "note", t->note);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "recommendation");
  json_builder_begin_object (b);
  procura_json_add_string (b, "choice", procura_choice_name (r != NULL ? r->choice : PROCURA_CHOICE_UNDECIDED));
  procura_json_add_string (b, "candidate", r != NULL ? r->candidate_name : NULL);
  json_builder_set_member_name (b, "reasons");
  json_builder_begin_array (b);
  if (r != NULL)
    for (guint i = 0; i < r->reasons->len; i++)
      json_builder_add_string_value (b, g_ptr_array_index (r->reasons, i));
  json_builder_end_array (b);
  json_builder_end_object (b);

  /* the probe fleet's nodes that could not be probed: host, status, reason, when */
  json_builder_set_member_name (b, "probe_failures");
  json_builder_begin_array (b);
  for (guint i = 0; project != NULL && i < project->probe_failures->len; i++)
    {
      const ProcuraProbeResult *f = g_ptr_array_index (project->probe_failures, i);
      g_autofree char *host = procura_probe_failure_get (f, "host");
      g_autofree char *status = procura_probe_failure_get (f, "status");
      g_autofree char *reason = procura_probe_failure_get (f, "reason");

      json_builder_begin_object (b);
      procura_json_add_string (b, "host", host != NULL ? host : f->device_name);
      procura_json_add_string (b, "status", status);
      procura_json_add_string (b, "reason", reason);
      procura_json_add_string (b, "failed_at", f->measured_at);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_end_object (b);
  return json_builder_get_root (b);
}

char *
procura_analysis_to_text (const ProcuraAnalysis *a,
                          const ProcuraProject  *project)
{
  GString *s = g_string_new (NULL);
  const char *cur = a->currency != NULL ? a->currency : "USD";
  g_autofree char *pname = procura_percentile_stat_name (a->slo_percentile);

  g_string_append_printf (s, "%s%s\n", project != NULL && project->title ? project->title : "Project",
                          project != NULL && project->illustrative ? _(" (illustrative data)") : "");
  if (a->slo_metric != NULL && isfinite (a->slo_threshold_ms))
    g_string_append_printf (s, _("Target: %s %s <= %g ms"), pname, a->slo_metric, a->slo_threshold_ms);
  else
    g_string_append (s, _("Target: not set"));
  g_string_append_printf (s, _("; demand %.4g req/s average, %.4g peak; window %g h\n\n"),
                          a->demand_average, a->demand_peak, a->window_hours);

  for (guint i = 0; i < a->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (a->candidates, i);

      if (ca->rank > 0)
        g_string_append_printf (s, "#%d ", ca->rank);
      g_string_append_printf (s, "%s [%s%s]\n", ca->name, procura_candidate_kind_id (ca->kind), ca->derived ? ", derived" : "");
      if (ca->capacity != NULL && isfinite (ca->capacity->capacity_rps))
        g_string_append_printf (s, _("  capacity: %s, %.4g req/s%s\n"), procura_capacity_status_name (ca->capacity->status),
                                ca->capacity->capacity_rps, ca->capacity->uncertain ? " (uncertain)" : "");
      else if (ca->capacity != NULL)
        g_string_append_printf (s, _("  capacity: %s\n"), procura_capacity_status_name (ca->capacity->status));
      if (ca->capacity != NULL && ca->capacity->reason != NULL)
        g_string_append_printf (s, "    %s\n", ca->capacity->reason);
      if (ca->capacity != NULL && ca->capacity->interval_reason != NULL)
        g_string_append_printf (s, _("    interval: %s\n"), ca->capacity->interval_reason);
      if (ca->fit != NULL)
        g_string_append_printf (s, ca->fit->fits ? _("  memory fit: fits at %lld tokens x %lld sequences (TP %d)%s%s\n")
                                : _("  memory fit: does not fit at %lld tokens x %lld sequences (TP %d)%s%s\n"),
                                (long long) ca->fit->context_tokens, (long long) ca->fit->concurrency, ca->fit->tp,
                                ca->fit->fits ? "" : ": ", ca->fit->fits ? "" : ca->fit->limit_text);
      if (ca->fit != NULL && ca->fit_measured_text != NULL)
        g_string_append_printf (s, _("  memory fit measured: %s\n"), ca->fit_measured_text);
      else if (ca->fit_reason != NULL && ca->kind != PROCURA_CANDIDATE_API)
        g_string_append_printf (s, _("  memory fit: not computed (%s)\n"), ca->fit_reason);
      if (ca->cost != NULL)
        {
          g_autofree char *each = procura_units_cost_per_output (ca->cost->cost_per_accepted, cur);
          g_autofree char *scaled = procura_units_cost_with_unit (ca->cost->cost_per_accepted, a->unit_factor,
                                                                  a->unit_label, cur);
          g_autofree char *all_in = procura_units_money (ca->cost->all_in_cost, cur);

          g_string_append_printf (s, _("  cost per accepted output: %s (%s each)\n"), scaled, each);
          if (ca->cost_interval_reason != NULL)
            g_string_append_printf (s, _("    interval: %s\n"), ca->cost_interval_reason);
          if (ca->cost->run_workload)
            g_string_append_printf (s, _("  %s per run, %.4g completed runs per run started"),
                                    all_in, ca->cost->accepted_outputs);
          else
            g_string_append_printf (s, _("  all-in %s per window, %.0f accepted outputs"), all_in,
                                    ca->cost->accepted_outputs);
          if (ca->kind != PROCURA_CANDIDATE_API && isfinite (ca->cost->utilization))
            g_string_append_printf (s, ngettext (", %d replica at %.1f %% utilisation",
                                                  ", %d replicas at %.1f %% utilisation", ca->cost->replicas),
                                    ca->cost->replicas, 100 * ca->cost->utilization);
          g_string_append_c (s, '\n');
          for (guint l = 0; l < PROCURA_COST_N_LINES; l++)
            if (procura_cost_result_line_applies (ca->cost, l))
              g_string_append_printf (s, "    %-20s %12.2f\n", procura_cost_line_name (l), ca->cost->lines[l]);
        }
      else if (ca->cost_reason != NULL)
        g_string_append_printf (s, _("  no cost: %s\n"), ca->cost_reason);
      for (guint k = 0; k < ca->break_even->len; k++)
        {
          const ProcuraBreakEven *be = &g_array_index (ca->break_even, ProcuraBreakEven, k);
          const ProcuraCandidateAnalysis *api = procura_analysis_find (a, ca->break_even_api);
          g_string_append_printf (s, _("  break-even with %s at %.4g req/s average (%.0f %% utilisation): "
                                  "%s above\n"), api != NULL ? api->name : _("the API"), be->demand,
                                  100 * be->utilization, be->gpu_cheaper_above ? _("GPUs cheaper") : _("API cheaper"));
        }
      for (guint k = 0; k < ca->what_ifs->len; k++)
        {
          const ProcuraWhatIf *w = g_ptr_array_index (ca->what_ifs, k);
          if (w->result != NULL)
            {
              g_autofree char *wc = procura_units_cost_with_unit (w->result->cost_per_accepted, a->unit_factor,
                                                                  a->unit_label, cur);
              g_string_append_printf (s, _("  what if %s: %s%s\n"), w->title, wc, w->estimate ? _(" (estimate)") : "");
            }
          else
            g_string_append_printf (s, _("  what if %s: %s\n"), w->title, w->note != NULL ? w->note : _("not costed"));
        }
      for (guint k = 0; k < a->warnings->len; k++)
        {
          const ProcuraWarning *w = g_ptr_array_index (a->warnings, k);
          if (w->candidate_id == ca->candidate_id)
            g_string_append_printf (s, "  %s: %s\n    → %s\n", procura_severity_name (w->severity), w->message,
                                    w->what_to_do);
        }
      g_string_append_c (s, '\n');
    }

  for (guint k = 0; k < a->warnings->len; k++)
    {
      const ProcuraWarning *w = g_ptr_array_index (a->warnings, k);
      if (w->candidate_id == 0)
        g_string_append_printf (s, "%s: %s\n  → %s\n", procura_severity_name (w->severity), w->message,
                                w->what_to_do);
    }
  if (a->ranking_withheld)
    g_string_append_printf (s, _("\nRanking withheld: %s\n"), a->ranking_withheld_reason);
  else if (a->ranking_uncertainty != NULL && a->ranking_separation == PROCURA_SEPARATION_DISTINCT)
    g_string_append_printf (s, _("\nRanking: %s\n"), a->ranking_uncertainty);
  if (a->tipping_points != NULL && a->tipping_points->len > 0)
    {
      g_string_append (s, _("\nTipping points (#1 against #2):\n"));
      for (guint i = 0; i < a->tipping_points->len; i++)
        g_string_append_printf (s, "  - %s\n", ((const ProcuraTippingPoint *) g_ptr_array_index (a->tipping_points, i))->note);
    }
  if (a->recommendation != NULL)
    {
      g_string_append_printf (s, _("\nRecommendation: %s"), procura_choice_name (a->recommendation->choice));
      if (a->recommendation->candidate_name != NULL)
        g_string_append_printf (s, " (%s)", a->recommendation->candidate_name);
      g_string_append_c (s, '\n');
      for (guint i = 0; i < a->recommendation->reasons->len; i++)
        g_string_append_printf (s, "  - %s\n", (const char *) g_ptr_array_index (a->recommendation->reasons, i));
    }
  return g_string_free (s, FALSE);
}
