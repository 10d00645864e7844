/* procura-model.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdarg.h>

#include "procura-model.h"

gboolean
procura_is_set (double v)
{
  return !isnan (v);
}

const char *
procura_candidate_kind_id (ProcuraCandidateKind kind)
{
  switch (kind)
    {
    case PROCURA_CANDIDATE_API:
      return "api";
    case PROCURA_CANDIDATE_HYBRID:
      return "hybrid";
    case PROCURA_CANDIDATE_GPU:
    default:
      return "gpu";
    }
}

/* Provenance ---------------------------------------------------------------- */

ProcuraProvenance *
procura_provenance_new (void)
{
  ProcuraProvenance *p = g_new0 (ProcuraProvenance, 1);
  p->size = -1;
  return p;
}

ProcuraProvenance *
procura_provenance_copy (const ProcuraProvenance *p)
{
  ProcuraProvenance *c;

  if (p == NULL)
    return NULL;
  c = g_new0 (ProcuraProvenance, 1);
  c->id = p->id;
  c->file_name = g_strdup (p->file_name);
  c->size = p->size;
  c->sha256 = g_strdup (p->sha256);
  c->importer = g_strdup (p->importer);
  c->format_version = g_strdup (p->format_version);
  c->imported_at = g_strdup (p->imported_at);
  return c;
}

void
procura_provenance_free (ProcuraProvenance *p)
{
  if (p == NULL)
    return;
  g_free (p->file_name);
  g_free (p->sha256);
  g_free (p->importer);
  g_free (p->format_version);
  g_free (p->imported_at);
  g_free (p);
}

/* Runs ---------------------------------------------------------------------- */

void
procura_stat_free (ProcuraStat *s)
{
  if (s == NULL)
    return;
  g_free (s->metric);
  g_free (s->stat);
  g_free (s);
}

void
procura_samples_free (ProcuraSamples *s)
{
  if (s == NULL)
    return;
  g_free (s->metric);
  g_free (s->values);
  g_free (s->sorted);
  g_free (s);
}

void
procura_scenario_clear (ProcuraScenario *s)
{
  g_clear_pointer (&s->model, g_free);
  g_clear_pointer (&s->engine, g_free);
  g_clear_pointer (&s->engine_version, g_free);
  g_clear_pointer (&s->gpu_name, g_free);
  g_clear_pointer (&s->load_type, g_free);
}

ProcuraRun *
procura_run_new (void)
{
  ProcuraRun *run = g_new0 (ProcuraRun, 1);

  run->scenario.gpu_count = -1;
  run->scenario.tp = run->scenario.pp = run->scenario.dp = -1;
  run->scenario.load_value = NAN;
  run->scenario.input_len = NAN;
  run->scenario.output_len = NAN;
  run->duration_s = NAN;
  run->completed = -1;
  run->failed = -1;
  run->request_throughput = NAN;
  run->output_throughput = NAN;
  run->total_throughput = NAN;
  run->input_tokens_mean = NAN;
  run->output_tokens_mean = NAN;
  run->stats = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_stat_free);
  run->samples = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_samples_free);
  run->warnings = g_ptr_array_new_with_free_func (g_free);
  run->quantiles = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_quantiles_free);
  return run;
}

void
procura_run_free (ProcuraRun *run)
{
  if (run == NULL)
    return;
  g_free (run->label);
  g_free (run->format);
  g_free (run->format_version);
  procura_scenario_clear (&run->scenario);
  g_ptr_array_unref (run->stats);
  g_ptr_array_unref (run->samples);
  g_ptr_array_unref (run->warnings);
  g_ptr_array_unref (run->quantiles);
  g_free (run->extras_json);
  procura_provenance_free (run->provenance);
  g_free (run);
}

void
procura_run_add_stat (ProcuraRun    *run,
                      const char    *metric,
                      const char    *stat,
                      double         value_ms,
                      ProcuraSource  source,
                      gint64         samples)
{
  ProcuraStat *s;

  g_return_if_fail (run != NULL && metric != NULL && stat != NULL);

  /* Replace an existing figure of the same metric, stat and source */
  for (guint i = 0; i < run->stats->len; i++)
    {
      s = g_ptr_array_index (run->stats, i);
      if (s->source == source && g_str_equal (s->metric, metric) && g_str_equal (s->stat, stat))
        {
          s->value = value_ms;
          s->samples = samples;
          return;
        }
    }

  s = g_new0 (ProcuraStat, 1);
  s->metric = g_strdup (metric);
  s->stat = g_strdup (stat);
  s->value = value_ms;
  s->source = source;
  s->samples = samples;
  g_ptr_array_add (run->stats, s);
}

const ProcuraStat *
procura_run_get_stat (const ProcuraRun *run,
                      const char       *metric,
                      const char       *stat)
{
  const ProcuraStat *found = NULL;

  g_return_val_if_fail (run != NULL, NULL);

  for (guint i = 0; i < run->stats->len; i++)
    {
      const ProcuraStat *s = g_ptr_array_index (run->stats, i);

      if (!g_str_equal (s->metric, metric) || !g_str_equal (s->stat, stat))
        continue;
      if (s->source == PROCURA_SOURCE_RECOMPUTED)
        return s;
      found = s;
    }

  return found;
}

void
procura_run_take_samples (ProcuraRun *run,
                          const char *metric,
                          double     *values,
                          gsize       n)
{
  ProcuraSamples *s;

  g_return_if_fail (run != NULL && metric != NULL);

  for (guint i = 0; i < run->samples->len; i++)
    {
      s = g_ptr_array_index (run->samples, i);
      if (g_str_equal (s->metric, metric))
        {
          g_free (s->values);
          s->values = values;
          s->n = n;
          g_clear_pointer (&s->sorted, g_free);
          s->n_sorted = 0;
          /* a summary of the old values no longer holds */
          for (guint j = 0; j < run->quantiles->len; j++)
            if (g_str_equal (((ProcuraQuantiles *) g_ptr_array_index (run->quantiles, j))->metric, metric))
              {
                g_ptr_array_remove_index (run->quantiles, j);
                break;
              }
          return;
        }
    }

  s = g_new0 (ProcuraSamples, 1);
  s->metric = g_strdup (metric);
  s->values = values;
  s->n = n;
  g_ptr_array_add (run->samples, s);
}

const ProcuraSamples *
procura_run_get_samples (const ProcuraRun *run,
                         const char       *metric)
{
  for (guint i = 0; i < run->samples->len; i++)
    {
      const ProcuraSamples *s = g_ptr_array_index (run->samples, i);
      if (g_str_equal (s->metric, metric))
        return s;
    }
  return NULL;
}

void
procura_run_take_quantiles (ProcuraRun       *run,
                            ProcuraQuantiles *q)
{
  g_return_if_fail (run != NULL && q != NULL && q->metric != NULL);

  for (guint i = 0; i < run->quantiles->len; i++)
    {
      ProcuraQuantiles *old = g_ptr_array_index (run->quantiles, i);

      if (g_str_equal (old->metric, q->metric))
        {
          procura_quantiles_free (old);
          g_ptr_array_index (run->quantiles, i) = q;
          return;
        }
    }
  g_ptr_array_add (run->quantiles, q);
}

const ProcuraQuantiles *
procura_run_get_quantiles (const ProcuraRun *run,
                           const char       *metric)
{
  for (guint i = 0; i < run->quantiles->len; i++)
    {
      const ProcuraQuantiles *q = g_ptr_array_index (run->quantiles, i);

      if (g_str_equal (q->metric, metric))
        return q;
    }
  return NULL;
}

void
procura_quantiles_free (ProcuraQuantiles *q)
{
  if (q == NULL)
    return;
  g_free (q->metric);
  g_free (q->ranks);
  g_free (q->values);
  g_free (q);
}

void
procura_run_add_warning (ProcuraRun *run,
                         const char *format,
                         ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (run->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

/* Quotes -------------------------------------------------------------------- */

ProcuraQuote *
procura_quote_new (void)
{
  ProcuraQuote *q = g_new0 (ProcuraQuote, 1);

  q->gpu_count = 1;
  q->price_per_hour = NAN;
  q->currency = g_strdup ("USD");
  q->term_months = NAN;
  q->min_commitment = NAN;
  q->storage_per_gb_month = NAN;
  q->egress_per_gb = NAN;
  q->support_pct = NAN;
  q->setup_fee = NAN;
  q->price_input_per_mtok = NAN;
  q->price_cached_per_mtok = NAN;
  q->price_output_per_mtok = NAN;
  q->rate_limit_rpm = NAN;
  q->rate_limit_tpm = NAN;
  return q;
}

ProcuraQuote *
procura_quote_copy (const ProcuraQuote *q)
{
  ProcuraQuote *c;

  if (q == NULL)
    return NULL;
  c = g_memdup2 (q, sizeof *q);
  c->provider = g_strdup (q->provider);
  c->sku = g_strdup (q->sku);
  c->gpu_name = g_strdup (q->gpu_name);
  c->gpu_id = g_strdup (q->gpu_id);
  c->currency = g_strdup (q->currency);
  c->pricing_model = g_strdup (q->pricing_model);
  c->region = g_strdup (q->region);
  c->seen_date = g_strdup (q->seen_date);
  c->source = g_strdup (q->source);
  c->notes = g_strdup (q->notes);
  c->api_model = g_strdup (q->api_model);
  return c;
}

void
procura_quote_free (ProcuraQuote *q)
{
  if (q == NULL)
    return;
  g_free (q->provider);
  g_free (q->sku);
  g_free (q->gpu_name);
  g_free (q->gpu_id);
  g_free (q->currency);
  g_free (q->pricing_model);
  g_free (q->region);
  g_free (q->seen_date);
  g_free (q->source);
  g_free (q->notes);
  g_free (q->api_model);
  g_free (q);
}

double
procura_quote_price_per_gpu_hour (const ProcuraQuote *q)
{
  if (q == NULL || q->gpu_count <= 0 || isnan (q->price_per_hour))
    return NAN;
  return q->price_per_hour / q->gpu_count;
}

/* Candidates ---------------------------------------------------------------- */

ProcuraCandidate *
procura_candidate_new (void)
{
  ProcuraCandidate *c = g_new0 (ProcuraCandidate, 1);

  c->gpus_per_replica = 1;
  c->tp = 1;
  c->pp = 1;
  c->price_per_gpu_hour = NAN;
  c->billed_hours = NAN;
  c->target_utilization = NAN;
  c->capacity_override = NAN;
  c->input_tokens = NAN;
  c->cached_input_tokens = 0;
  c->output_tokens = NAN;
  c->price_input_per_mtok = NAN;
  c->price_cached_per_mtok = 0;
  c->price_output_per_mtok = NAN;
  c->rate_limit_rpm = NAN;
  c->purchase_price_per_gpu = NAN;
  c->depreciation_years = NAN;
  c->power_per_gpu_hour = NAN;
  c->hosting_per_gpu_month = NAN;
  return c;
}

ProcuraCandidate *
procura_candidate_copy (const ProcuraCandidate *c)
{
  ProcuraCandidate *n;

  if (c == NULL)
    return NULL;
  n = g_memdup2 (c, sizeof *c);
  n->name = g_strdup (c->name);
  n->gpu_name = g_strdup (c->gpu_name);
  n->provider = g_strdup (c->provider);
  n->pricing_model = g_strdup (c->pricing_model);
  n->region = g_strdup (c->region);
  n->engine = g_strdup (c->engine);
  n->price_date = g_strdup (c->price_date);
  n->interconnect = g_strdup (c->interconnect);
  n->api_provider = g_strdup (c->api_provider);
  n->api_model = g_strdup (c->api_model);
  n->notes = g_strdup (c->notes);
  return n;
}

void
procura_candidate_free (ProcuraCandidate *c)
{
  if (c == NULL)
    return;
  g_free (c->name);
  g_free (c->gpu_name);
  g_free (c->provider);
  g_free (c->pricing_model);
  g_free (c->region);
  g_free (c->engine);
  g_free (c->price_date);
  g_free (c->interconnect);
  g_free (c->api_provider);
  g_free (c->api_model);
  g_free (c->notes);
  g_free (c);
}

/* Brief --------------------------------------------------------------------- */

ProcuraBrief *
procura_brief_new (void)
{
  ProcuraBrief *b = g_new0 (ProcuraBrief, 1);

  b->input_tokens = NAN;
  b->output_tokens = NAN;
  b->context_tokens = NAN;
  b->concurrency = NAN;
  b->slo_percentile = NAN;
  b->slo_threshold_ms = NAN;
  b->demand_average = NAN;
  b->demand_peak = NAN;
  b->window_hours = 730;
  b->input_tokens_mean = NAN;
  b->output_tokens_mean = NAN;
  b->storage_gb = NAN;
  b->egress_gb = NAN;
  return b;
}

ProcuraBrief *
procura_brief_copy (const ProcuraBrief *b)
{
  ProcuraBrief *n;

  if (b == NULL)
    return NULL;
  n = g_memdup2 (b, sizeof *b);
  n->workload_type = g_strdup (b->workload_type);
  n->model_shape = g_strdup (b->model_shape);
  n->success_unit = g_strdup (b->success_unit);
  n->slo_metric = g_strdup (b->slo_metric);
  n->duty_cycle = g_strdup (b->duty_cycle);
  n->operating_boundary = g_strdup (b->operating_boundary);
  n->tooling = g_strdup (b->tooling);
  return n;
}

void
procura_brief_free (ProcuraBrief *b)
{
  if (b == NULL)
    return;
  g_free (b->workload_type);
  g_free (b->model_shape);
  g_free (b->success_unit);
  g_free (b->slo_metric);
  g_free (b->duty_cycle);
  g_free (b->operating_boundary);
  g_free (b->tooling);
  g_free (b);
}

static gboolean
str_set (const char *s)
{
  return s != NULL && *s != '\0';
}

char **
procura_brief_missing (const ProcuraBrief *b)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  char **out;

  if (!str_set (b->workload_type))
    g_strv_builder_add (builder, "workload_type");
  if (!str_set (b->model_shape))
    g_strv_builder_add (builder, "model_shape");
  if (isnan (b->input_tokens) || isnan (b->output_tokens))
    g_strv_builder_add (builder, "request_shape");
  if (!str_set (b->success_unit))
    g_strv_builder_add (builder, "success_unit");
  if (!str_set (b->slo_metric) || isnan (b->slo_percentile) || isnan (b->slo_threshold_ms))
    g_strv_builder_add (builder, "latency_target");
  if (!str_set (b->duty_cycle))
    g_strv_builder_add (builder, "duty_cycle");
  if (!str_set (b->operating_boundary))
    g_strv_builder_add (builder, "operating_boundary");
  if (!str_set (b->tooling))
    g_strv_builder_add (builder, "tooling");
  if (isnan (b->demand_average) || isnan (b->demand_peak))
    g_strv_builder_add (builder, "demand");

  out = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return out;
}

/* Assumptions and decision -------------------------------------------------- */

void
procura_assumptions_init (ProcuraAssumptions *a)
{
  a->acceptance_rate = NAN;
  a->retry_rate = 0;
  a->failure_rate = 0;
  a->headroom = 1.0;
  a->stale_days = 30;
  a->currency = g_strdup ("USD");
}

void
procura_assumptions_clear (ProcuraAssumptions *a)
{
  g_clear_pointer (&a->currency, g_free);
}

void
procura_decision_clear (ProcuraDecision *d)
{
  g_clear_pointer (&d->rationale, g_free);
  g_clear_pointer (&d->approver, g_free);
  g_clear_pointer (&d->date, g_free);
  d->candidate_id = 0;
}

/* Model shape --------------------------------------------------------------- */

ProcuraModelShape *
procura_model_shape_new (void)
{
  ProcuraModelShape *m = g_new0 (ProcuraModelShape, 1);
  m->published_params = NAN;
  return m;
}

ProcuraModelShape *
procura_model_shape_copy (const ProcuraModelShape *m)
{
  ProcuraModelShape *n;

  if (m == NULL)
    return NULL;
  n = g_memdup2 (m, sizeof *m);
  n->id = g_strdup (m->id);
  n->architecture = g_strdup (m->architecture);
  n->weights_dtype = g_strdup (m->weights_dtype);
  if (m->layer_is_sliding != NULL && m->num_layers > 0)
    n->layer_is_sliding = g_memdup2 (m->layer_is_sliding, (gsize) m->num_layers);
  return n;
}

void
procura_model_shape_free (ProcuraModelShape *m)
{
  if (m == NULL)
    return;
  g_free (m->id);
  g_free (m->architecture);
  g_free (m->weights_dtype);
  g_free (m->layer_is_sliding);
  g_free (m);
}

/* Engine logs --------------------------------------------------------------- */

ProcuraEngineLog *
procura_engine_log_new (void)
{
  ProcuraEngineLog *l = g_new0 (ProcuraEngineLog, 1);

  l->tp = l->pp = -1;
  l->gpu_memory_utilization = NAN;
  l->mem_fraction_static = NAN;
  l->max_model_len = -1;
  l->block_size = -1;
  l->weights_gib = NAN;
  l->kv_available_gib = NAN;
  l->kv_tokens = -1;
  l->max_concurrency = NAN;
  l->cuda_graph_gib = NAN;
  l->errors = g_ptr_array_new_with_free_func (g_free);
  return l;
}

void
procura_engine_log_free (ProcuraEngineLog *l)
{
  if (l == NULL)
    return;
  g_free (l->engine);
  g_free (l->engine_version);
  g_free (l->model);
  g_free (l->gpu_name);
  g_free (l->kv_dtype);
  g_ptr_array_unref (l->errors);
  g_free (l);
}

/* Probe results, ops tests, checklist --------------------------------------- */

ProcuraProbeResult *
procura_probe_result_new (void)
{
  ProcuraProbeResult *r = g_new0 (ProcuraProbeResult, 1);

  r->total_bytes = NAN;
  r->free_bytes = NAN;
  r->headroom_bytes = NAN;
  r->bandwidth_gbps = NAN;
  return r;
}

void
procura_probe_result_free (ProcuraProbeResult *r)
{
  if (r == NULL)
    return;
  g_free (r->device_name);
  g_free (r->test);
  g_free (r->json);
  g_free (r->measured_at);
  g_free (r);
}

ProcuraOpsTest *
procura_ops_test_new (void)
{
  ProcuraOpsTest *t = g_new0 (ProcuraOpsTest, 1);

  t->recovery_s = NAN;
  t->failed_requests = NAN;
  t->per_month = NAN;
  return t;
}

void
procura_ops_test_free (ProcuraOpsTest *t)
{
  if (t == NULL)
    return;
  g_free (t->kind);
  g_free (t->result);
  g_free (t->notes);
  g_free (t);
}

ProcuraChecklistItem *
procura_checklist_item_new (void)
{
  return g_new0 (ProcuraChecklistItem, 1);
}

void
procura_checklist_item_free (ProcuraChecklistItem *i)
{
  if (i == NULL)
    return;
  g_free (i->section);
  g_free (i->item);
  g_free (i->answer);
  g_free (i->evidence);
  g_free (i->evidence_file);
  g_free (i);
}

/* Warning answers ----------------------------------------------------------- */

ProcuraWarningAnswer *
procura_warning_answer_new (void)
{
  return g_new0 (ProcuraWarningAnswer, 1);
}

void
procura_warning_answer_free (ProcuraWarningAnswer *a)
{
  if (a == NULL)
    return;
  g_free (a->warning_id);
  g_free (a->answer);
  g_free (a->answered_at);
  g_free (a);
}

/* Project ------------------------------------------------------------------- */

ProcuraProject *
procura_project_new (void)
{
  ProcuraProject *p = g_new0 (ProcuraProject, 1);

  p->brief = procura_brief_new ();
  procura_assumptions_init (&p->assumptions);
  p->candidates = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_candidate_free);
  p->quotes = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_quote_free);
  p->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_run_free);
  p->engine_logs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_engine_log_free);
  p->probe_results = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_probe_result_free);
  p->probe_failures = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_probe_result_free);
  p->ops_tests = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_ops_test_free);
  p->checklist = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_checklist_item_free);
  p->provenance = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_provenance_free);
  p->model_shapes = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_model_shape_free);
  p->warning_answers = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_warning_answer_free);
  return p;
}

void
procura_project_free (ProcuraProject *p)
{
  if (p == NULL)
    return;
  g_free (p->title);
  g_free (p->created);
  g_free (p->modified);
  procura_brief_free (p->brief);
  procura_assumptions_clear (&p->assumptions);
  procura_decision_clear (&p->decision);
  g_ptr_array_unref (p->candidates);
  g_ptr_array_unref (p->quotes);
  g_ptr_array_unref (p->runs);
  g_ptr_array_unref (p->engine_logs);
  g_ptr_array_unref (p->probe_results);
  g_ptr_array_unref (p->probe_failures);
  g_ptr_array_unref (p->ops_tests);
  g_ptr_array_unref (p->checklist);
  g_ptr_array_unref (p->provenance);
  g_ptr_array_unref (p->model_shapes);
  g_ptr_array_unref (p->warning_answers);
  g_free (p);
}

ProcuraCandidate *
procura_project_find_candidate (ProcuraProject *p,
                                gint64          id)
{
  for (guint i = 0; i < p->candidates->len; i++)
    {
      ProcuraCandidate *c = g_ptr_array_index (p->candidates, i);
      if (c->id == id)
        return c;
    }
  return NULL;
}

GPtrArray *
procura_project_runs_for (ProcuraProject *p,
                          gint64          candidate_id)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < p->runs->len; i++)
    {
      ProcuraRun *r = g_ptr_array_index (p->runs, i);
      if (r->candidate_id == candidate_id)
        g_ptr_array_add (out, r);
    }
  return out;
}

const ProcuraWarningAnswer *
procura_project_find_answer (ProcuraProject *p,
                             const char     *warning_id,
                             gint64          candidate_id)
{
  g_return_val_if_fail (p != NULL, NULL);

  if (warning_id == NULL)
    return NULL;
  for (guint i = 0; i < p->warning_answers->len; i++)
    {
      const ProcuraWarningAnswer *a = g_ptr_array_index (p->warning_answers, i);
      if (a->candidate_id == candidate_id && g_strcmp0 (a->warning_id, warning_id) == 0)
        return a;
    }
  return NULL;
}
