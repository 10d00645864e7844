/* procura-fit-reconcile.c: an engine's startup log beside the calculator's figures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "procura-fit.h"

gboolean
procura_fit_engine_from_text (const char       *text,
                              ProcuraFitEngine *engine,
                              char            **version)
{
  g_autofree char *lower = NULL;
  const char *at, *p, *start;
  ProcuraFitEngine e;

  if (version != NULL)
    *version = NULL;
  if (text == NULL)
    return FALSE;
  lower = g_ascii_strdown (text, -1);
  if ((at = g_strrstr (lower, "sglang")) != NULL)
    {
      e = PROCURA_ENGINE_SGLANG;
      p = at + strlen ("sglang");
    }
  else if ((at = g_strrstr (lower, "vllm")) != NULL)
    {
      e = PROCURA_ENGINE_VLLM;
      p = at + strlen ("vllm");
    }
  else
    return FALSE;
  if (engine != NULL)
    *engine = e;
  /* "vllm 0.10.1", "vllm==0.10.1", "vllm v0.19.0", "vllm/vllm-openai:v0.11.0" */
  while (*p != '\0' && strchr (" \t=:@/-v", *p) != NULL && !g_ascii_isdigit (*p))
    {
      if (*p == '-' && g_str_has_prefix (p, "-openai"))
        p += strlen ("-openai");
      else
        p++;
    }
  start = p;
  while (g_ascii_isdigit (*p) || *p == '.')
    p++;
  while (p > start && p[-1] == '.')
    p--;
  if (version != NULL && p > start)
    {
      g_autofree char *v = g_strndup (start, p - start);

      if (procura_fit_engine_version_valid (v))
        *version = g_steal_pointer (&v);
    }
  return TRUE;
}

void
procura_fit_engine_resolve (const char       *candidate_engine,
                            const char       *tooling,
                            ProcuraFitEngine *engine,
                            char            **version)
{
  *engine = PROCURA_ENGINE_VLLM;
  *version = NULL;
  if (procura_fit_engine_from_text (candidate_engine, engine, version))
    {
      if (*version == NULL)
        {
          ProcuraFitEngine brief_engine;
          g_autofree char *brief_version = NULL;

          if (procura_fit_engine_from_text (tooling, &brief_engine, &brief_version)
              && brief_engine == *engine)
            *version = g_steal_pointer (&brief_version);
        }
    }
  else if (candidate_engine == NULL || candidate_engine[0] == '\0')
    procura_fit_engine_from_text (tooling, engine, version);
}

static void
add_row (GArray     *rows,
         const char *id,
         const char *unit,
         double      engine,
         double      calculated)
{
  ProcuraFitReconcileRow row = { id, unit, engine, calculated, NAN, NAN };

  if (procura_is_set (engine) && procura_is_set (calculated))
    {
      row.difference = calculated - engine;
      if (engine != 0)
        row.percent = 100.0 * row.difference / engine;
    }
  g_array_append_val (rows, row);
}

gboolean
procura_fit_request_apply_log (ProcuraFitRequest      *r,
                               const ProcuraEngineLog *log,
                               GError                **error)
{
  g_return_val_if_fail (r != NULL && log != NULL, FALSE);

  if (log->engine != NULL && g_ascii_strcasecmp (log->engine, "sglang") == 0)
    r->engine = PROCURA_ENGINE_SGLANG;
  else if (log->engine != NULL)
    r->engine = PROCURA_ENGINE_VLLM;
  if (log->tp > 0)
    r->tp = log->tp;
  if (log->pp > 0)
    r->pp = log->pp;
  if (procura_is_set (log->gpu_memory_utilization))
    r->gpu_memory_utilization = log->gpu_memory_utilization;
  if (procura_is_set (log->mem_fraction_static))
    r->mem_fraction_static = log->mem_fraction_static;
  if (log->max_model_len > 0)
    r->context_tokens = log->max_model_len;
  if (r->engine == PROCURA_ENGINE_VLLM && log->engine_version != NULL)
    {
      /* vLLM up to 0.19 sizes the KV pool before capturing CUDA graphs, which then come
       * out of the (1 - gpu_memory_utilization) share */
      guint64 major = 0, minor = 0;
      char *end = NULL;

      major = g_ascii_strtoull (log->engine_version, &end, 10);
      if (end != NULL && *end == '.')
        minor = g_ascii_strtoull (end + 1, NULL, 10);
      if (end != log->engine_version && major == 0 && minor <= 19)
        r->cuda_graphs_in_budget = FALSE;
      /* that version's profiling rules (activation peak, non-torch memory) */
      if (procura_fit_engine_version_valid (log->engine_version))
        r->engine_version = log->engine_version;
    }
  if (log->block_size > 0)
    r->block_size = log->block_size;
  if (log->kv_dtype != NULL && g_ascii_strcasecmp (log->kv_dtype, "auto") != 0)
    {
      ProcuraDtype d;

      if (!procura_dtype_parse (log->kv_dtype, &d))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("engine log: KV cache dtype “%s” is not one the calculator knows "
                         "(expected auto, bf16, fp16, fp32 or fp8)"), log->kv_dtype);
          return FALSE;
        }
      r->kv_dtype = d;
    }
  return TRUE;
}

GArray *
procura_fit_reconcile (const ProcuraEngineLog  *log,
                       const ProcuraFitRequest *request_base,
                       ProcuraFitResult        *calculated,
                       ProcuraFitResult        *at_engine_pool,
                       GError                 **error)
{
  ProcuraFitRequest r;
  ProcuraFitResult own_calc, own_pool;
  ProcuraFitResult *calc = calculated ? calculated : &own_calc;
  ProcuraFitResult *pool = at_engine_pool ? at_engine_pool : &own_pool;
  GArray *rows;
  gboolean have_pool;

  g_return_val_if_fail (log != NULL && request_base != NULL, NULL);

  r = *request_base;
  if (!procura_fit_request_apply_log (&r, log, error))
    return NULL;
  r.kv_pool_bytes = NAN;
  if (!procura_fit_compute (&r, calc, error))
    return NULL;

  have_pool = procura_is_set (log->kv_available_gib);
  if (have_pool)
    {
      r.kv_pool_bytes = log->kv_available_gib * PROCURA_GIB;
      if (!procura_fit_compute (&r, pool, error))
        return NULL;
    }
  else
    *pool = *calc;

  rows = g_array_new (FALSE, FALSE, sizeof (ProcuraFitReconcileRow));
  add_row (rows, "weights", "GiB", log->weights_gib, calc->weights_bytes / PROCURA_GIB);
  add_row (rows, "kv-pool", "GiB", log->kv_available_gib, calc->kv_pool_bytes / PROCURA_GIB);
  add_row (rows, "kv-tokens", "tokens",
           log->kv_tokens >= 0 ? (double) log->kv_tokens : NAN, (double) calc->kv_tokens);
  add_row (rows, "kv-tokens-at-engine-pool", "tokens",
           log->kv_tokens >= 0 ? (double) log->kv_tokens : NAN,
           have_pool ? (double) pool->kv_tokens : NAN);
  add_row (rows, "max-concurrency", "x", log->max_concurrency,
           have_pool ? pool->max_concurrency : calc->max_concurrency);
  add_row (rows, "cuda-graphs", "GiB", log->cuda_graph_gib, calc->cuda_graph_bytes / PROCURA_GIB);
  return rows;
}

static gboolean
log_start_succeeded (const ProcuraEngineLog *l)
{
  return (l->errors == NULL || l->errors->len == 0)
         && ((isfinite (l->kv_available_gib) && l->kv_available_gib > 0) || l->kv_tokens > 0);
}

int
procura_fit_log_choose_start (const GPtrArray *logs,
                              int              start,
                              gboolean        *successful,
                              GError         **error)
{
  int n = logs != NULL ? (int) logs->len : 0;

  if (successful != NULL)
    *successful = FALSE;
  if (n == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("the log holds no start of the engine"));
      return -1;
    }
  if (start > n)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   g_dngettext (GETTEXT_PACKAGE, "start %d: the log holds %d start of the engine",
                               "start %d: the log holds %d starts of the engine", n), start, n);
      return -1;
    }
  if (start > 0)
    {
      if (successful != NULL)
        *successful = log_start_succeeded (g_ptr_array_index ((GPtrArray *) logs, start - 1));
      return start - 1;
    }
  for (int i = n - 1; i >= 0; i--)
    if (log_start_succeeded (g_ptr_array_index ((GPtrArray *) logs, i)))
      {
        if (successful != NULL)
          *successful = TRUE;
        return i;
      }
  return n - 1;
}
