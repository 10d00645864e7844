/* procura-analysis-fit.c: the memory fit of each GPU candidate for the summary
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fit itself belongs to src/core/fit; this file only builds the request from the
 * project (the brief's model, context and concurrency; the candidate's GPU, TP, PP and
 * engine) and keeps the result beside the candidate's other figures.
 */
#include "config.h"

#include <math.h>

#include "procura-analysis-private.h"
#include "procura-gpu-catalog.h"
#include "procura-model-catalog.h"

ProcuraFitResult *
procura_analysis_fit_candidate (const ProcuraProject   *p,
                                const ProcuraCandidate *c,
                                char                  **reason)
{
  const ProcuraBrief *b = p->brief;
  const ProcuraModelShape *model = NULL;
  g_autoptr(ProcuraModelShape) from_catalog = NULL;
  const ProcuraGpuSpec *gpu;
  ProcuraFitRequest req;
  ProcuraFitResult *result;
  g_autoptr(GError) error = NULL;
  gboolean driver_figure = FALSE;
  double context;

  *reason = NULL;
  if (b == NULL || b->model_shape == NULL)
    {
      *reason = g_strdup ("no model in the brief");
      return NULL;
    }
  for (guint i = 0; i < p->model_shapes->len && model == NULL; i++)
    {
      const ProcuraModelShape *m = g_ptr_array_index (p->model_shapes, i);
      if (g_strcmp0 (m->id, b->model_shape) == 0)
        model = m;
    }
  if (model == NULL)
    {
      from_catalog = procura_model_catalog_lookup (b->model_shape);
      model = from_catalog;
    }
  if (model == NULL)
    {
      *reason = g_strdup_printf ("the model “%s” is neither imported (config.json) nor in the catalog",
                                 b->model_shape);
      return NULL;
    }
  gpu = c->gpu_name != NULL ? procura_gpu_catalog_lookup (c->gpu_name) : NULL;
  if (gpu == NULL)
    {
      *reason = g_strdup_printf ("the GPU “%s” is not in the catalog", c->gpu_name ? c->gpu_name : "(none)");
      return NULL;
    }

  context = procura_is_set (b->context_tokens) ? b->context_tokens
            : (procura_is_set (b->input_tokens) && procura_is_set (b->output_tokens)
               ? b->input_tokens + b->output_tokens : NAN);
  procura_fit_request_init (&req);
  req.model = model;
  if (procura_is_set (context) && context > 0)
    req.context_tokens = (gint64) ceil (context);
  if (procura_is_set (b->concurrency) && b->concurrency >= 1)
    req.concurrency = (gint64) ceil (b->concurrency);
  req.tp = MAX (1, c->tp);
  req.pp = MAX (1, c->pp);
  if (g_strcmp0 (c->engine, "sglang") == 0)
    req.engine = PROCURA_ENGINE_SGLANG;
  req.usable_memory_bytes = procura_gpu_spec_usable_bytes (gpu, &driver_figure);
  /* the engine's per-GPU defaults (prefill chunk, sequences) depend on the GPU */
  req.gpu_id = gpu->id;

  result = g_new0 (ProcuraFitResult, 1);
  if (!procura_fit_compute (&req, result, &error))
    {
      *reason = g_strdup (error->message);
      g_free (result);
      return NULL;
    }
  return result;
}
