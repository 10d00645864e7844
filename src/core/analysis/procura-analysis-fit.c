/* procura-analysis-fit.c: the memory fit of each GPU candidate for the summary
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fit itself belongs to src/core/fit; this file only builds the request from the
 * project (the brief's model, context and concurrency; the candidate's GPU, TP, PP,
 * engine and engine version) and, where the candidate has them, lets its engine startup
 * log and its probe result replace the calculator's estimates (docs/memory-fit.md,
 * "Measured figures").
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "procura-analysis-private.h"
#include "procura-gpu-catalog.h"
#include "procura-model-catalog.h"

void
procura_analysis_fit_setup_clear (ProcuraAnalysisFitSetup *setup)
{
  if (setup == NULL)
    return;
  g_clear_pointer (&setup->owned_model, procura_model_shape_free);
  g_clear_pointer (&setup->engine_version, g_free);
  g_clear_pointer (&setup->measured_text, g_free);
}

static const char *
provenance_name (const ProcuraProject *p,
                 gint64                id)
{
  for (guint i = 0; p->provenance != NULL && i < p->provenance->len; i++)
    {
      const ProcuraProvenance *pv = g_ptr_array_index (p->provenance, i);

      if (pv->id == id && id > 0)
        return pv->file_name;
    }
  return NULL;
}

/* The candidate's engine log with a KV pool, the last one imported. */
static const ProcuraEngineLog *
candidate_log (const ProcuraProject *p,
               gint64                candidate_id)
{
  const ProcuraEngineLog *found = NULL;

  for (guint i = 0; p->engine_logs != NULL && i < p->engine_logs->len; i++)
    {
      const ProcuraEngineLog *l = g_ptr_array_index (p->engine_logs, i);

      if (l->candidate_id == candidate_id && candidate_id > 0
          && (procura_is_set (l->kv_available_gib) || procura_is_set (l->weights_gib)))
        found = l;
    }
  return found;
}

const ProcuraProbeResult *
procura_analysis_fit_probe (const ProcuraProject *p,
                            gint64                candidate_id)
{
  const ProcuraProbeResult *found = NULL;

  for (guint i = 0; p->probe_results != NULL && i < p->probe_results->len; i++)
    {
      const ProcuraProbeResult *r = g_ptr_array_index (p->probe_results, i);

      if (r->candidate_id != candidate_id || candidate_id <= 0
          || !procura_is_set (r->total_bytes) || r->total_bytes <= 0)
        continue;
      if (found == NULL || g_strcmp0 (r->test, "fit") == 0 || g_strcmp0 (found->test, "fit") != 0)
        found = r;
    }
  return found;
}

void
procura_analysis_fit_parallel (const ProcuraCandidate *c,
                               int                    *tp,
                               int                    *pp)
{
  int p_ = c != NULL && c->pp > 0 ? c->pp : 1;
  int t = 1;

  if (c != NULL && c->tp > 0)
    t = c->tp;
  else if (c != NULL && c->gpus_per_replica > 0 && c->gpus_per_replica % p_ == 0)
    t = MAX (1, c->gpus_per_replica / p_);
  *tp = t;
  *pp = p_;
}

const ProcuraModelShape *
procura_analysis_fit_model (const ProcuraProject *p,
                            ProcuraModelShape   **owned,
                            char                **reason)
{
  const ProcuraBrief *b = p->brief;

  *owned = NULL;
  if (b == NULL || b->model_shape == NULL || b->model_shape[0] == '\0')
    {
      *reason = g_strdup (_("no model in the brief"));
      return NULL;
    }
  for (guint i = 0; p->model_shapes != NULL && i < p->model_shapes->len; i++)
    {
      const ProcuraModelShape *m = g_ptr_array_index (p->model_shapes, i);

      if (m->id != NULL && g_ascii_strcasecmp (m->id, b->model_shape) == 0)
        return m;
    }
  *owned = procura_model_catalog_lookup (b->model_shape);
  if (*owned == NULL)
    *reason = g_strdup_printf (_("the model “%s” is neither imported (config.json) nor in the catalog"),
                               b->model_shape);
  return *owned;
}

gboolean
procura_analysis_fit_setup (const ProcuraProject    *p,
                            const ProcuraCandidate  *c,
                            gboolean                 measured,
                            ProcuraAnalysisFitSetup *setup,
                            char                   **reason)
{
  const ProcuraBrief *b = p->brief;
  const ProcuraModelShape *model;
  ProcuraFitRequest *req = &setup->request;
  gboolean driver_figure = FALSE;
  ProcuraFitEngine engine = PROCURA_ENGINE_VLLM;
  g_autofree char *version = NULL;
  double context;

  memset (setup, 0, sizeof *setup);
  setup->probe_headroom_bytes = NAN;
  *reason = NULL;
  model = procura_analysis_fit_model (p, &setup->owned_model, reason);
  if (model == NULL)
    return FALSE;
  if (c != NULL)
    {
      setup->gpu = c->gpu_name != NULL ? procura_gpu_catalog_lookup (c->gpu_name) : NULL;
      if (setup->gpu == NULL)
        {
          *reason = g_strdup_printf (_("the GPU “%s” is not in the catalog"), c->gpu_name ? c->gpu_name : "(none)");
          procura_analysis_fit_setup_clear (setup);
          return FALSE;
        }
    }

  context = procura_is_set (b->context_tokens) ? b->context_tokens
            : (procura_is_set (b->input_tokens) && procura_is_set (b->output_tokens)
               ? b->input_tokens + b->output_tokens : NAN);
  procura_fit_request_init (req);
  req->model = model;
  if (procura_is_set (context) && context > 0)
    req->context_tokens = (gint64) ceil (context);
  if (procura_is_set (b->concurrency) && b->concurrency >= 1)
    req->concurrency = (gint64) ceil (b->concurrency);
  procura_analysis_fit_parallel (c, &req->tp, &req->pp);
  procura_fit_engine_resolve (c != NULL ? c->engine : NULL, b->tooling, &engine, &version);
  req->engine = engine;
  if (engine == PROCURA_ENGINE_VLLM && version != NULL)
    {
      setup->engine_version = g_steal_pointer (&version);
      req->engine_version = setup->engine_version;
    }
  if (c == NULL)
    return TRUE;
  req->usable_memory_bytes = procura_gpu_spec_usable_bytes (setup->gpu, &driver_figure);
  /* the engine's per-GPU defaults (prefill chunk, sequences) depend on the GPU */
  req->gpu_id = setup->gpu->id;

  if (measured)
    {
      const ProcuraEngineLog *log = candidate_log (p, c->id);
      const ProcuraProbeResult *probe = procura_analysis_fit_probe (p, c->id);
      g_autoptr (GString) text = g_string_new (NULL);

      if (log != NULL && (log->tp > 0 && log->tp != req->tp))
        {
          g_string_append_printf (text, _("The engine log (%s) was taken at TP %d, not the candidate's TP %d: "
                                  "its figures are not used. "),
                                  provenance_name (p, log->provenance_id) ? provenance_name (p, log->provenance_id) : "imported",
                                  log->tp, req->tp);
          log = NULL;
        }
      else if (log != NULL && log->pp > 0 && log->pp != req->pp)
        {
          g_string_append_printf (text, _("The engine log (%s) was taken at PP %d, not the candidate's PP %d: "
                                  "its figures are not used. "),
                                  provenance_name (p, log->provenance_id) ? provenance_name (p, log->provenance_id) : "imported",
                                  log->pp, req->pp);
          log = NULL;
        }
      if (log != NULL)
        {
          gint64 ctx = req->context_tokens;
          g_autoptr (GError) error = NULL;
          GString *what = g_string_new (NULL);

          /* the engine as it ran (utilization, version, block size, KV dtype) ... */
          if (!procura_fit_request_apply_log (req, log, &error))
            {
              g_string_append_printf (text, _("The engine log is not used: %s. "), error->message);
              g_string_free (what, TRUE);
              log = NULL;
            }
          else
            {
              /* ... at the brief's context, not the log's max_model_len */
              req->context_tokens = ctx;
              if (req->engine_version != NULL && req->engine_version == log->engine_version)
                {
                  g_free (setup->engine_version);
                  setup->engine_version = g_strdup (log->engine_version);
                  req->engine_version = setup->engine_version;
                }
              if (procura_is_set (log->weights_gib) && log->weights_gib > 0)
                {
                  req->weights_bytes = log->weights_gib * PROCURA_GIB;
                  setup->measured |= PROCURA_FIT_MEASURED_WEIGHTS;
                  g_string_append (what, _("weights"));
                }
              if (procura_is_set (log->kv_available_gib) && log->kv_available_gib >= 0)
                {
                  req->kv_pool_bytes = log->kv_available_gib * PROCURA_GIB;
                  setup->measured |= PROCURA_FIT_MEASURED_KV_POOL;
                  g_string_append_printf (what, _("%sKV pool"), what->len > 0 ? ", " : "");
                }
              if (procura_is_set (log->cuda_graph_gib) && log->cuda_graph_gib >= 0)
                {
                  req->cuda_graph_bytes = log->cuda_graph_gib * PROCURA_GIB;
                  setup->measured |= PROCURA_FIT_MEASURED_CUDA_GRAPHS;
                  g_string_append_printf (what, _("%sCUDA graphs"), what->len > 0 ? ", " : "");
                }
              setup->engine_log_id = log->id;
              g_string_append_printf (text, _("%s measured by the engine (%s %s log%s%s). "), what->str,
                                      log->engine ? log->engine : "engine",
                                      log->engine_version ? log->engine_version : "",
                                      provenance_name (p, log->provenance_id) ? ", " : "",
                                      provenance_name (p, log->provenance_id) ? provenance_name (p, log->provenance_id) : "");
              g_string_free (what, TRUE);
            }
        }
      if (probe != NULL)
        {
          /* the probe's total is the driver's figure on the very machine: it replaces the
           * catalog's usable memory, so that the bar and the probe's markers share one total */
          req->usable_memory_bytes = probe->total_bytes;
          setup->measured |= PROCURA_FIT_MEASURED_USABLE;
          setup->probe_id = probe->id;
          g_string_append_printf (text, _("Usable memory %.1f GiB measured by the probe%s%s (the catalog says %.1f GiB). "),
                                  probe->total_bytes / PROCURA_GIB,
                                  probe->device_name ? _(" on ") : "", probe->device_name ? probe->device_name : "",
                                  procura_gpu_spec_usable_bytes (setup->gpu, NULL) / PROCURA_GIB);
          if (g_strcmp0 (probe->test, "fit") == 0 && procura_is_set (probe->headroom_bytes))
            {
              setup->measured |= PROCURA_FIT_MEASURED_PROBE_FIT;
              setup->probe_fits = probe->fits;
              setup->probe_headroom_bytes = probe->headroom_bytes;
              g_string_append_printf (text, probe->fits ? _("The probe's plan fitted with %.1f GiB headroom. ")
                                      : _("The probe's plan did not fit with %.1f GiB headroom. "),
                                      probe->headroom_bytes / PROCURA_GIB);
            }
        }
      if (text->len > 0)
        {
          g_string_truncate (text, text->len - 1);
          setup->measured_text = g_string_free (g_steal_pointer (&text), FALSE);
        }
    }
  return TRUE;
}

ProcuraFitResult *
procura_analysis_fit_candidate (const ProcuraProject     *p,
                                const ProcuraCandidate   *c,
                                ProcuraCandidateAnalysis *ca)
{
  ProcuraAnalysisFitSetup setup;
  ProcuraFitResult *result;
  g_autoptr(GError) error = NULL;

  ca->fit_probe_headroom_bytes = NAN;
  if (!procura_analysis_fit_setup (p, c, TRUE, &setup, &ca->fit_reason))
    return NULL;
  result = g_new0 (ProcuraFitResult, 1);
  if (!procura_fit_compute (&setup.request, result, &error))
    {
      ca->fit_reason = g_strdup (error->message);
      g_free (result);
      procura_analysis_fit_setup_clear (&setup);
      return NULL;
    }
  ca->fit_measured = setup.measured;
  ca->fit_measured_text = g_steal_pointer (&setup.measured_text);
  ca->fit_engine_log_id = setup.engine_log_id;
  ca->fit_probe_id = setup.probe_id;
  ca->fit_probe_fits = setup.probe_fits;
  ca->fit_probe_headroom_bytes = setup.probe_headroom_bytes;
  procura_analysis_fit_setup_clear (&setup);
  return result;
}

static void
compare_row_clear (ProcuraFitCompareRow *row)
{
  g_free (row->explanation);
}

static void
add_compare (GArray     *rows,
             const char *id,
             const char *label,
             double      calculated,
             double      engine,
             double      probe,
             char       *explanation)
{
  ProcuraFitCompareRow row = { id, label, calculated, engine, probe, explanation };

  g_array_append_val (rows, row);
}

GArray *
procura_analysis_fit_compare (const ProcuraProject   *p,
                              const ProcuraCandidate *c,
                              char                  **reason)
{
  ProcuraAnalysisFitSetup setup;
  const ProcuraEngineLog *log;
  const ProcuraProbeResult *probe;
  ProcuraFitResult calc;
  g_autoptr (GError) error = NULL;
  GArray *rows;
  double usable_catalog, engine_profile = NAN, engine_usable;
  gint64 ctx;

  if (!procura_analysis_fit_setup (p, c, FALSE, &setup, reason))
    return NULL;
  log = candidate_log (p, c->id);
  probe = procura_analysis_fit_probe (p, c->id);
  usable_catalog = setup.request.usable_memory_bytes;
  ctx = setup.request.context_tokens;
  if (log != NULL && !procura_fit_request_apply_log (&setup.request, log, NULL))
    log = NULL;
  setup.request.context_tokens = ctx;
  if (!procura_fit_compute (&setup.request, &calc, &error))
    {
      *reason = g_strdup (error->message);
      procura_analysis_fit_setup_clear (&setup);
      return NULL;
    }
  rows = g_array_new (FALSE, TRUE, sizeof (ProcuraFitCompareRow));
  g_array_set_clear_func (rows, (GDestroyNotify) compare_row_clear);

  add_compare (rows, "usable", _("Usable memory"), usable_catalog / PROCURA_GIB, NAN,
               probe != NULL ? probe->total_bytes / PROCURA_GIB : NAN,
               g_strdup_printf (_("The calculator takes the catalog's figure for %s (%s); the probe reads the "
                                "driver's total on the machine itself."), setup.gpu->name,
                                setup.gpu->usable_memory_source ? setup.gpu->usable_memory_source : "estimate"));
  add_compare (rows, "weights", _("Weights"), calc.weights_bytes / PROCURA_GIB,
               log != NULL ? log->weights_gib : NAN, NAN,
               g_strdup (_("The calculator counts the parameters of config.json at the checkpoint's dtype; "
                         "the engine reports what it loaded (\"Model loading took\"), small tensors and "
                         "padding included.")));
  /* the engine's profile: what its budget leaves besides weights and pool */
  engine_usable = probe != NULL ? probe->total_bytes : usable_catalog;
  if (log != NULL && procura_is_set (log->weights_gib) && procura_is_set (log->kv_available_gib)
      && calc.budget_bytes > 0)
    engine_profile = (engine_usable * calc.budget_bytes / calc.usable_memory_bytes) / PROCURA_GIB
                     - log->weights_gib - log->kv_available_gib
                     - (setup.request.cuda_graphs_in_budget && procura_is_set (log->cuda_graph_gib)
                        ? log->cuda_graph_gib : 0);
  add_compare (rows, "profile", _("Activation and non-torch (profiling run)"),
               (calc.activation_bytes + calc.non_torch_bytes) / PROCURA_GIB, engine_profile, NAN,
               g_strdup_printf (_("An estimate under the %s rules (prefill chunk, sampler, NCCL and "
                                "all-reduce buffers); the engine's is its budget (%s usable × utilisation) "
                                "less weights and KV pool."), calc.engine_rules,
                                probe != NULL ? _("the probe's") : _("the catalog's")));
  add_compare (rows, "cuda-graphs", _("CUDA graphs"), calc.cuda_graph_bytes / PROCURA_GIB,
               log != NULL ? log->cuda_graph_gib : NAN, NAN,
               g_strdup (setup.request.cuda_graphs_in_budget
                         ? _("Subtracted before the pool (an estimate); the engine measures the capture.")
                         : _("Captured after the pool is sized (vLLM up to 0.19): outside the budget, so they "
                           "do not change the pool.")));
  add_compare (rows, "kv-pool", _("KV pool"), calc.kv_pool_bytes / PROCURA_GIB,
               log != NULL ? log->kv_available_gib : NAN, NAN,
               g_strdup (_("What the budget leaves after the lines above: its difference is theirs, with the "
                         "sign reversed (and the usable memory's times the utilisation).")));
  add_compare (rows, "kv-tokens", _("KV cache tokens"), (double) calc.kv_tokens,
               log != NULL && log->kv_tokens >= 0 ? (double) log->kv_tokens : NAN, NAN,
               g_strdup (_("The KV pool divided by the bytes a token needs on this GPU, in whole blocks.")));
  add_compare (rows, "headroom", _("Headroom"), calc.headroom_bytes / PROCURA_GIB, NAN,
               probe != NULL && g_strcmp0 (probe->test, "fit") == 0 && procura_is_set (probe->headroom_bytes)
               ? probe->headroom_bytes / PROCURA_GIB : NAN,
               g_strdup (_("The calculator's headroom is usable memory less everything allocated; the probe's "
                         "is the free memory left once its plan was allocated and touched.")));
  procura_analysis_fit_setup_clear (&setup);
  return rows;
}
