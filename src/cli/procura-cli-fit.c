/* procura-cli-fit.c: `procura fit`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * procura fit --model CONFIG.json|NAME --gpu NAME [--gpus N] [--tp N] [--pp N]
 *             [--context L] [--concurrency C] [--weights-dtype D] [--kv-dtype D]
 *             [--util U] [--block-size B] [--gpu-memory-gib X] [--kv-pool-gib X] --json
 * and, beyond the stable set: --engine vllm|sglang, --mem-fraction F,
 * --max-batched-tokens N, --no-cuda-graphs, --graphs-outside-budget,
 * --disable-sliding-window, --all-gpus (smallest TP on every catalog GPU),
 * --log FILE (an engine startup log beside the calculator's figures; of a log with several
 * starts of the server, the last successful one, or the one --start N names),
 * --engine-version V (the engine's profiling rules, default the newest known),
 * --swa-full-tokens-ratio R (SGLang's hybrid SWA pools),
 * --quant-config FILE (an hf_quant_config.json; by default the one beside a config.json
 * FILE is read when present), and training:
 * --train full|lora|qlora [--optimizer adam|adam8bit|sgd] [--zero S] [--checkpointing]
 * [--seq-len L] [--micro-batch B] [--lora-rank R]. --plan FILE writes the calculator's
 * allocation plan for the probe; --project P --candidate NAME fits a project's candidate
 * as the analysis sets it up (calculated only) instead of --model and --gpu.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "procura-atomic-file.h"
#include "procura-json-out.h"
#include "procura-cli.h"
#include "procura-fit.h"
#include "procura-gpu-catalog.h"
#include "procura-import.h"
#include "procura-model-catalog.h"
#include "procura-analysis.h"
#include "procura-probe-import.h"
#include "procura-store.h"

#define CMD "fit"

static void
print_json (JsonNode *node)
{
  g_autofree char *text = NULL;

  text = procura_json_to_data (node, TRUE);
  fputs (text, stdout);
  fputc ('\n', stdout);
}

static void
add_bytes (JsonBuilder *b,
           const char  *name,
           double       v)
{
  json_builder_set_member_name (b, name);
  if (!isfinite (v))
    json_builder_add_null_value (b);
  else if (v == floor (v) && fabs (v) < 9e15)
    json_builder_add_int_value (b, (gint64) v);
  else
    json_builder_add_double_value (b, v);
}

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, v);
}

static ProcuraModelShape *
load_model (const char  *spec,
            GError     **error)
{
  ProcuraModelShape *m;

  /* a path (anything that exists there, so that a FIFO is refused, not hung on) */
  if (g_file_test (spec, G_FILE_TEST_EXISTS))
    return procura_model_shape_load_config_json (spec, error);
  m = procura_model_catalog_lookup (spec);
  if (m == NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                 _("--model: “%s” is neither a config.json file nor a model of the catalog"),
                 spec);
  return m;
}

static void
result_members (JsonBuilder            *b,
                const ProcuraFitResult *res)
{
  static const struct { guint flag; const char *name; } flags[] = {
    { PROCURA_FIT_ESTIMATE_ACTIVATIONS, "activations" },
    { PROCURA_FIT_ESTIMATE_NON_TORCH, "non-torch" },
    { PROCURA_FIT_ESTIMATE_CUDA_GRAPHS, "cuda-graphs" },
    { PROCURA_FIT_ESTIMATE_KV_POOL, "kv-pool" },
    { PROCURA_FIT_ESTIMATE_USABLE, "usable-memory" },
  };

  add_int (b, "tp", res->tp);
  add_int (b, "pp", res->pp);
  add_bytes (b, "weights_bytes", res->weights_bytes);
  add_bytes (b, "kv_bytes_per_token", res->kv_bytes_per_token);
  add_bytes (b, "kv_pool_bytes", floor (res->kv_pool_bytes));
  add_int (b, "kv_tokens", res->kv_tokens);
  procura_json_add_number (b, "max_concurrency", res->max_concurrency);
  add_int (b, "max_concurrency_sequences", res->max_concurrency_int);
  add_int (b, "max_context", res->max_context);
  add_int (b, "max_context_pool", res->max_context_pool);
  json_builder_set_member_name (b, "model_max_context");
  if (res->model_max_context > 0)
    json_builder_add_int_value (b, res->model_max_context);
  else
    json_builder_add_null_value (b);
  procura_json_add_string (b, "engine_rules", res->engine_rules);
  add_bytes (b, "headroom_bytes", floor (res->headroom_bytes));
  json_builder_set_member_name (b, "fits");
  json_builder_add_boolean_value (b, res->fits);
  procura_json_add_string (b, "limit", procura_fit_limit_to_string (res->limit));
  procura_json_add_string (b, "limit_text", res->limit_text);
  add_int (b, "kv_blocks", res->kv_blocks);
  add_int (b, "block_size", res->block_size);
  add_bytes (b, "kv_page_bytes", res->kv_page_bytes);
  add_bytes (b, "kv_bytes_per_token_layer", res->kv_bytes_per_token_layer);
  add_bytes (b, "kv_needed_bytes", res->kv_needed_bytes);
  add_int (b, "tokens_needed", res->tokens_needed);
  add_bytes (b, "activation_bytes", floor (res->activation_bytes));
  add_bytes (b, "non_torch_bytes", floor (res->non_torch_bytes));
  add_bytes (b, "cuda_graph_bytes", floor (res->cuda_graph_bytes));
  add_bytes (b, "cuda_context_bytes", floor (res->cuda_context_bytes));
  add_bytes (b, "budget_bytes", floor (res->budget_bytes));
  add_bytes (b, "usable_memory_bytes", res->usable_memory_bytes);
  add_bytes (b, "weights_total_bytes", res->weights_total_bytes);
  add_int (b, "layers_per_gpu", res->layers_per_gpu);
  procura_json_add_number (b, "params", res->params_total);
  procura_json_add_string (b, "weights_dtype", procura_dtype_to_string (res->weights_dtype));
  procura_json_add_string (b, "kv_dtype", procura_dtype_to_string (res->kv_dtype));
  procura_json_add_string (b, "kv_rule", res->kv_rule == PROCURA_KV_RULE_VLLM_HYBRID ? "vllm-hybrid"
                                         : res->kv_rule == PROCURA_KV_RULE_SGLANG_SWA ? "sglang-swa" : "all-full");
  if (res->kv_rule == PROCURA_KV_RULE_SGLANG_SWA)
    add_int (b, "kv_swa_tokens", res->kv_swa_tokens);
  procura_json_add_string (b, "caveat", res->caveat[0] ? res->caveat : NULL);
  json_builder_set_member_name (b, "estimates");
  json_builder_begin_array (b);
  for (gsize i = 0; i < G_N_ELEMENTS (flags); i++)
    if (res->estimates & flags[i].flag)
      json_builder_add_string_value (b, flags[i].name);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "parts");
  json_builder_begin_array (b);
  for (int i = 0; i < PROCURA_FIT_N_PARTS; i++)
    {
      json_builder_begin_object (b);
      procura_json_add_string (b, "part", res->parts[i].id);
      add_bytes (b, "bytes", floor (res->parts[i].bytes));
      json_builder_set_member_name (b, "estimate");
      json_builder_add_boolean_value (b, res->parts[i].estimate);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
print_text (const ProcuraModelShape *m,
            const char              *gpu_name,
            const ProcuraFitResult  *res)
{
  procura_cli_print (_("%s on %s, TP %d × PP %d, context %lld, concurrency %lld\n"),
           m->id ? m->id : "model", gpu_name, res->tp, res->pp, (long long) res->context_tokens,
           (long long) res->concurrency);
  for (int i = 0; i < PROCURA_FIT_N_PARTS; i++)
    procura_cli_print ("  %-13s %9.2f GiB%s\n", res->parts[i].id, res->parts[i].bytes / PROCURA_GIB,
             res->parts[i].estimate ? _(" (estimate)") : "");
  procura_cli_print (_("  KV cache: %.0f bytes/token per GPU, %lld tokens, max concurrency %.2f, "
             "max context %lld\n"),
           res->kv_bytes_per_token, (long long) res->kv_tokens, res->max_concurrency, (long long) res->max_context);
  procura_cli_print (_("  engine rules: %s\n"), res->engine_rules);
  if (res->fits)
    procura_cli_print ("  %s\n", res->limit_text);   /* "fits: N tokens in the KV pool, ..." */
  else
    procura_cli_print ("  %s: %s\n", _("does not fit"), res->limit_text);
  if (res->caveat[0])
    procura_cli_print (_("  caveat: %s\n"), res->caveat);
}

static int
run_training (const ProcuraModelShape *m,
              const char              *method,
              const char              *optimizer,
              int                      zero,
              int                      n_gpus,
              gboolean                 checkpointing,
              gint64                   seq_len,
              int                      micro_batch,
              int                      lora_rank,
              double                   usable,
              const char              *gpu_name,
              gboolean                 json)
{
  ProcuraTrainRequest r;
  ProcuraTrainResult res;
  g_autoptr (GError) error = NULL;

  procura_train_request_init (&r);
  r.model = m;
  if (g_ascii_strcasecmp (method, "full") == 0)
    r.method = PROCURA_TRAIN_FULL;
  else if (g_ascii_strcasecmp (method, "lora") == 0)
    r.method = PROCURA_TRAIN_LORA;
  else if (g_ascii_strcasecmp (method, "qlora") == 0)
    r.method = PROCURA_TRAIN_QLORA;
  else
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE,
                             _("--train: “%s” is not full, lora or qlora"), method);
  if (optimizer == NULL || g_ascii_strcasecmp (optimizer, "adam") == 0
      || g_ascii_strcasecmp (optimizer, "adamw") == 0)
    r.optimizer = PROCURA_OPTIMIZER_ADAM;
  else if (g_ascii_strcasecmp (optimizer, "adam8bit") == 0
           || g_ascii_strcasecmp (optimizer, "adamw8bit") == 0)
    r.optimizer = PROCURA_OPTIMIZER_ADAM_8BIT;
  else if (g_ascii_strcasecmp (optimizer, "sgd") == 0)
    r.optimizer = PROCURA_OPTIMIZER_SGD;
  else
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE,
                             _("--optimizer: “%s” is not adam, adam8bit or sgd"), optimizer);
  if (zero < 0 || zero > 3)
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--zero: %d is not 0, 1, 2 or 3"), zero);
  r.zero_stage = zero;
  r.n_gpus = n_gpus;
  r.checkpointing = checkpointing;
  if (seq_len > 0)
    r.seq_len = seq_len;
  if (micro_batch > 0)
    r.micro_batch = micro_batch;
  if (lora_rank > 0)
    r.lora_rank = lora_rank;
  r.usable_memory_bytes = usable;
  if (!procura_fit_training (&r, &res, &error))
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, "%s", error->message);

  if (json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      g_autoptr (JsonNode) root = NULL;

      json_builder_begin_object (b);
      procura_json_add_string (b, "model", m->id);
      procura_json_add_string (b, "gpu", gpu_name);
      procura_json_add_string (b, "method", method);
      add_int (b, "zero_stage", r.zero_stage);
      add_int (b, "gpus", r.n_gpus);
      add_int (b, "seq_len", r.seq_len);
      add_int (b, "micro_batch", r.micro_batch);
      json_builder_set_member_name (b, "checkpointing");
      json_builder_add_boolean_value (b, r.checkpointing);
      procura_json_add_number (b, "params", res.params_total);
      procura_json_add_number (b, "trainable_params", res.trainable_params);
      add_bytes (b, "weights_bytes", floor (res.weights_bytes));
      add_bytes (b, "adapter_bytes", floor (res.adapter_bytes));
      add_bytes (b, "gradient_bytes", floor (res.gradient_bytes));
      add_bytes (b, "master_bytes", floor (res.master_bytes));
      add_bytes (b, "optimizer_bytes", floor (res.optimizer_bytes));
      add_bytes (b, "activation_bytes", floor (res.activation_bytes));
      add_bytes (b, "overhead_bytes", floor (res.overhead_bytes));
      add_bytes (b, "total_bytes", floor (res.total_bytes));
      add_bytes (b, "headroom_bytes", floor (res.headroom_bytes));
      json_builder_set_member_name (b, "fits");
      json_builder_add_boolean_value (b, res.fits);
      procura_json_add_string (b, "limit", res.limit);
      procura_json_add_string (b, "limit_text", res.limit_text);
      json_builder_set_member_name (b, "parts");
      json_builder_begin_array (b);
      for (int i = 0; i < PROCURA_TRAIN_N_PARTS; i++)
        {
          json_builder_begin_object (b);
          procura_json_add_string (b, "part", res.parts[i].id);
          add_bytes (b, "bytes", floor (res.parts[i].bytes));
          json_builder_set_member_name (b, "estimate");
          json_builder_add_boolean_value (b, res.parts[i].estimate);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      print_json (root);
    }
  else
    {
      procura_cli_print (_("%s, %s training on %s (%d GPU(s), ZeRO %d)\n"), m->id ? m->id : "model",
               method, gpu_name, r.n_gpus, r.zero_stage);
      for (int i = 0; i < PROCURA_TRAIN_N_PARTS; i++)
        procura_cli_print ("  %-15s %9.2f GiB%s\n", res.parts[i].id, res.parts[i].bytes / PROCURA_GIB,
                 res.parts[i].estimate ? _(" (estimate)") : "");
      procura_cli_print ("  %s: %s\n", res.fits ? _("fits") : _("does not fit"), res.limit_text);
    }
  return PROCURA_EXIT_OK;
}

/* Writes the calculator's allocation plan for the probe (docs/probe.md, "Plan"). */
static gboolean
write_plan (const char             *path,
            const ProcuraFitResult *res,
            const char             *name,
            GError                **error)
{
  g_autofree char *plan = procura_probe_plan_from_fit (res, name);

  if (plan == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("--plan: the fit has no decoder layers to allocate"));
      return FALSE;
    }
  return procura_atomic_file_write (path, plan, strlen (plan), error);
}

/* procura fit --project P --candidate NAME: the candidate's fit as the analysis sets it
 * up (the brief's model, context and concurrency; the candidate's GPU, TP, PP, engine and
 * version), calculated only, so that the plan is the calculator's. */
static int
fit_from_project (const char *project_path,
                  const char *candidate_name,
                  const char *plan_file,
                  gboolean    json)
{
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) project = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *name = NULL;
  const ProcuraCandidate *c = NULL;
  ProcuraAnalysisFitSetup setup;
  ProcuraFitResult res;
  g_autoptr (JsonBuilder) b = NULL;
  g_autoptr (JsonNode) root = NULL;

  store = procura_store_open (project_path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  if (store != NULL)
    project = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  if (project == NULL)
    return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT, "%s: %s", project_path, error->message);
  for (guint i = 0; i < project->candidates->len && c == NULL; i++)
    {
      const ProcuraCandidate *k = g_ptr_array_index (project->candidates, i);
      g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, k->id);

      if (g_strcmp0 (k->name, candidate_name) == 0 || g_strcmp0 (id, candidate_name) == 0)
        c = k;
    }
  if (c == NULL)
    return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT, _("%s: no candidate “%s” (give its name or id)"),
                             project_path, candidate_name);
  if (c->kind == PROCURA_CANDIDATE_API)
    return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT, _("%s: “%s” is an API route: there is no memory to fit"),
                             project_path, c->name);
  if (!procura_analysis_fit_setup (project, c, FALSE, &setup, &reason))
    return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT, "%s: %s: %s", project_path, c->name, reason);
  if (!procura_fit_compute (&setup.request, &res, &error))
    {
      procura_analysis_fit_setup_clear (&setup);
      return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT, "%s: %s: %s", project_path, c->name, error->message);
    }
  if (!json)
    print_text (setup.request.model, setup.gpu->name, &res);
  name = g_strdup_printf ("%s: %s", c->name, setup.request.model->id ? setup.request.model->id : "model");
  procura_analysis_fit_setup_clear (&setup);
  if (plan_file != NULL && !write_plan (plan_file, &res, name, &error))
    return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT, "%s: %s", plan_file, error->message);

  if (json)
    {
      b = json_builder_new ();
      json_builder_begin_object (b);
      procura_json_add_string (b, "candidate", c->name);
      procura_json_add_string (b, "plan_file", plan_file);
      result_members (b, &res);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      print_json (root);
    }
  else if (plan_file != NULL)
    procura_cli_print (_("Probe plan written to %s\n"), plan_file);
  return PROCURA_EXIT_OK;
}

int
procura_cli_fit (int    argc,
                 char **argv)
{
  g_autofree char *model_spec = NULL;
  g_autofree char *gpu_spec = NULL;
  g_autofree char *weights_dtype = NULL;
  g_autofree char *kv_dtype = NULL;
  g_autofree char *engine = NULL;
  g_autofree char *log_file = NULL;
  g_autofree char *engine_version = NULL;
  g_autofree char *quant_config = NULL;
  g_autofree char *train = NULL;
  g_autofree char *optimizer = NULL;
  g_autofree char *plan_file = NULL;
  g_autofree char *project_file = NULL;
  g_autofree char *candidate = NULL;
  int gpus = -1, tp = -1, pp = 1, block_size = 0, zero = 0, micro_batch = 1, lora_rank = 16;
  int log_start = 0;
  gint64 context = 8192, concurrency = 1, max_batched = 0, seq_len = 2048;
  double util = NAN, mem_fraction = NAN, gpu_gib = NAN, pool_gib = NAN, swa_ratio = NAN;
  gboolean json = FALSE, no_graphs = FALSE, graphs_outside = FALSE, all_gpus = FALSE;
  gboolean no_sliding = FALSE, checkpointing = FALSE;
  const GOptionEntry entries[] = {
    { "model", 0, 0, G_OPTION_ARG_FILENAME, &model_spec, N_("Model: a config.json file or a catalog name"), "CONFIG.json|NAME" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_spec, N_("GPU: a catalog name (any spelling)"), "NAME" },
    { "gpus", 0, 0, G_OPTION_ARG_INT, &gpus, N_("GPUs in all (replicas × TP × PP)"), "N" },
    { "tp", 0, 0, G_OPTION_ARG_INT, &tp, N_("Tensor parallel size (default: --gpus / PP, else 1)"), "N" },
    { "pp", 0, 0, G_OPTION_ARG_INT, &pp, N_("Pipeline parallel size (default 1)"), "N" },
    { "context", 0, 0, G_OPTION_ARG_INT64, &context, N_("Tokens per sequence, input + output (default 8192)"), "L" },
    { "concurrency", 0, 0, G_OPTION_ARG_INT64, &concurrency, N_("Concurrent sequences per replica (default 1)"), "C" },
    { "weights-dtype", 0, 0, G_OPTION_ARG_STRING, &weights_dtype, N_("fp32, bf16, fp16, fp8, int8, int4, mxfp4 (default: the checkpoint's)"), "D" },
    { "kv-dtype", 0, 0, G_OPTION_ARG_STRING, &kv_dtype, N_("KV cache dtype: bf16, fp16, fp32, fp8 (default: auto)"), "D" },
    { "util", 0, 0, G_OPTION_ARG_DOUBLE, &util, N_("vLLM gpu_memory_utilization (default 0.90)"), "U" },
    { "mem-fraction", 0, 0, G_OPTION_ARG_DOUBLE, &mem_fraction, N_("SGLang mem_fraction_static (default 0.88)"), "F" },
    { "engine", 0, 0, G_OPTION_ARG_STRING, &engine, N_("vllm (default) or sglang"), "ENGINE" },
    { "block-size", 0, 0, G_OPTION_ARG_INT, &block_size, N_("Tokens per KV block (default 16; SGLang 1)"), "B" },
    { "max-batched-tokens", 0, 0, G_OPTION_ARG_INT64, &max_batched, N_("Prefill chunk, max_num_batched_tokens (default 8192)"), "N" },
    { "gpu-memory-gib", 0, 0, G_OPTION_ARG_DOUBLE, &gpu_gib, N_("Usable memory per GPU in GiB (a GPU not in the catalog)"), "X" },
    { "kv-pool-gib", 0, 0, G_OPTION_ARG_DOUBLE, &pool_gib, N_("The engine's own KV pool per GPU in GiB"), "X" },
    { "no-cuda-graphs", 0, 0, G_OPTION_ARG_NONE, &no_graphs, N_("Eager mode: no CUDA graph memory"), NULL },
    { "graphs-outside-budget", 0, 0, G_OPTION_ARG_NONE, &graphs_outside, N_("vLLM ≤ 0.19: CUDA graphs come out of the (1 − util) share"), NULL },
    { "disable-sliding-window", 0, 0, G_OPTION_ARG_NONE, &no_sliding, N_("Count sliding-window layers as full attention (SGLang: --disable-hybrid-swa-memory)"), NULL },
    { "swa-full-tokens-ratio", 0, 0, G_OPTION_ARG_DOUBLE, &swa_ratio, N_("SGLang hybrid SWA models: sliding pool tokens per full pool token (default 0.8)"), "R" },
    { "all-gpus", 0, 0, G_OPTION_ARG_NONE, &all_gpus, N_("Also give the smallest TP that fits on every catalog GPU"), NULL },
    { "log", 0, 0, G_OPTION_ARG_FILENAME, &log_file, N_("An engine startup log to show beside the calculator's figures"), "FILE" },
    { "start", 0, 0, G_OPTION_ARG_INT, &log_start, N_("With --log: which start of the server to compare, 1 for the first (default: the last successful one)"), "N" },
    { "engine-version", 0, 0, G_OPTION_ARG_STRING, &engine_version, N_("Engine version whose profiling rules apply, e.g. 0.19.0 (default: the newest known)"), "V" },
    { "quant-config", 0, 0, G_OPTION_ARG_FILENAME, &quant_config, N_("An hf_quant_config.json declaring the checkpoint's quantisation (default: the one beside a config.json)"), "FILE" },
    { "train", 0, 0, G_OPTION_ARG_STRING, &train, N_("Training memory instead: full, lora or qlora"), "METHOD" },
    { "optimizer", 0, 0, G_OPTION_ARG_STRING, &optimizer, N_("Training: adam (default), adam8bit or sgd"), "OPT" },
    { "zero", 0, 0, G_OPTION_ARG_INT, &zero, N_("Training: ZeRO stage 0-3 (FSDP full shard = 3)"), "S" },
    { "checkpointing", 0, 0, G_OPTION_ARG_NONE, &checkpointing, N_("Training: activation checkpointing"), NULL },
    { "seq-len", 0, 0, G_OPTION_ARG_INT64, &seq_len, N_("Training: sequence length (default 2048)"), "L" },
    { "micro-batch", 0, 0, G_OPTION_ARG_INT, &micro_batch, N_("Training: micro-batch per GPU (default 1)"), "B" },
    { "lora-rank", 0, 0, G_OPTION_ARG_INT, &lora_rank, N_("Training: LoRA rank (default 16)"), "R" },
    { "plan", 0, 0, G_OPTION_ARG_FILENAME, &plan_file, N_("Write the calculator's allocation plan for “procura probe --plan”"), "FILE" },
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project_file, N_("Fit a candidate of this project (with --candidate) instead of --model and --gpu"), "PROJECT" },
    { "candidate", 0, 0, G_OPTION_ARG_STRING, &candidate, N_("The project's candidate, by name or id"), "NAME" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("— memory fit of a model on a GPU"));
  g_autoptr (ProcuraModelShape) m = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonBuilder) b = NULL;
  g_autoptr (JsonNode) root = NULL;
  const ProcuraGpuSpec *gpu = NULL;
  const char *gpu_name;
  ProcuraFitRequest r;
  ProcuraFitResult res;
  double usable;
  gboolean driver_figure = TRUE;
  int replicas = 1;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!procura_cli_parse (ctx, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc > 1)
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("unexpected argument “%s”"), argv[1]);
  if (plan_file != NULL && train != NULL)
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--plan writes a serving plan: leave out --train"));
  if (log_start != 0 && log_file == NULL)
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--start chooses a start of the --log file: give --log"));
  if (log_start < 0)
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--start: %d is not a positive integer"), log_start);
  if ((project_file == NULL) != (candidate == NULL))
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--project and --candidate go together"));
  if (project_file != NULL)
    {
      if (model_spec != NULL || gpu_spec != NULL || log_file != NULL || train != NULL)
        return procura_cli_fail (CMD, PROCURA_EXIT_USAGE,
                                 _("--project takes the model, GPU and engine from the project: "
                                   "leave out --model, --gpu, --log and --train"));
      return fit_from_project (project_file, candidate, plan_file, json);
    }
  if (model_spec == NULL)
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--model is required (a config.json or a catalog name)"));
  if (gpu_spec == NULL && !procura_is_set (gpu_gib))
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--gpu (a catalog name) or --gpu-memory-gib is required"));

  /* option values: usage errors */
  if (pp < 1)
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--pp: %d is not a positive integer"), pp);
  if (gpus != -1 && gpus < 1)
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--gpus: %d is not a positive integer"), gpus);
  if (tp != -1 && tp < 1)
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--tp: %d is not a positive integer"), tp);
  if (tp == -1)
    {
      if (gpus == -1)
        tp = 1;
      else if (gpus % pp != 0)
        return procura_cli_fail (CMD, PROCURA_EXIT_USAGE,
                                 _("--gpus %d is not a multiple of --pp %d"), gpus, pp);
      else
        tp = gpus / pp;
    }
  if (gpus != -1)
    {
      if (gpus % (tp * pp) != 0)
        return procura_cli_fail (CMD, PROCURA_EXIT_USAGE,
                                 _("--gpus %d is not a multiple of TP × PP = %d"), gpus, tp * pp);
      replicas = gpus / (tp * pp);
    }
  if (context < 1)
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--context: %lld is not a positive number of tokens"), (long long) context);
  if (concurrency < 1)
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--concurrency: %lld is not a positive integer"), (long long) concurrency);
  if (procura_is_set (util) && !(util > 0 && util <= 1))
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--util: %g is not in (0, 1]"), util);
  if (procura_is_set (mem_fraction) && !(mem_fraction > 0 && mem_fraction <= 1))
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--mem-fraction: %g is not in (0, 1]"), mem_fraction);
  if (procura_is_set (swa_ratio) && !(swa_ratio > 0 && swa_ratio <= 1000))
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--swa-full-tokens-ratio: %g is not a positive number"), swa_ratio);
  if (block_size < 0)
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--block-size: %d is not a positive integer"), block_size);
  if (max_batched < 0)
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--max-batched-tokens: %lld is not a positive integer"), (long long) max_batched);
  if (procura_is_set (gpu_gib) && !(gpu_gib > 0 && isfinite (gpu_gib)))
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--gpu-memory-gib: %g is not a positive number"), gpu_gib);
  if (procura_is_set (pool_gib) && !(pool_gib >= 0 && isfinite (pool_gib)))
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--kv-pool-gib: %g is not a number ≥ 0"), pool_gib);

  procura_fit_request_init (&r);
  if (weights_dtype && !procura_dtype_parse (weights_dtype, &r.weights_dtype))
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE,
                             _("--weights-dtype: “%s” is not fp32, bf16, fp16, fp8, int8, int4 or mxfp4"),
                             weights_dtype);
  if (kv_dtype && (!procura_dtype_parse (kv_dtype, &r.kv_dtype)
                   || (r.kv_dtype != PROCURA_DTYPE_AUTO && r.kv_dtype != PROCURA_DTYPE_FP32
                       && r.kv_dtype != PROCURA_DTYPE_BF16 && r.kv_dtype != PROCURA_DTYPE_FP16
                       && r.kv_dtype != PROCURA_DTYPE_FP8)))
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE,
                             _("--kv-dtype: “%s” is not auto, fp32, bf16, fp16 or fp8"), kv_dtype);
  if (engine_version != NULL && !procura_fit_engine_version_valid (engine_version))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) procura_fit_engine_versions ());

      return procura_cli_fail (CMD, PROCURA_EXIT_USAGE,
                               _("--engine-version: “%s” is not a version such as 0.19.0 "
                                 "(rules known for %s)"), engine_version, known);
    }
  if (engine == NULL || g_ascii_strcasecmp (engine, "vllm") == 0)
    r.engine = PROCURA_ENGINE_VLLM;
  else if (g_ascii_strcasecmp (engine, "sglang") == 0)
    r.engine = PROCURA_ENGINE_SGLANG;
  else
    return procura_cli_fail (CMD, PROCURA_EXIT_USAGE, _("--engine: “%s” is not vllm or sglang"), engine);

  /* inputs: bad-input errors */
  if (gpu_spec != NULL)
    {
      gpu = procura_gpu_catalog_lookup (gpu_spec);
      if (gpu == NULL && !procura_is_set (gpu_gib))
        return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT,
                                 _("--gpu: “%s” is not a GPU of the catalog; give its usable "
                                   "memory with --gpu-memory-gib"), gpu_spec);
    }
  if (procura_is_set (gpu_gib))
    usable = gpu_gib * PROCURA_GIB;
  else
    usable = procura_fit_gpu_usable_bytes (gpu, &driver_figure);
  gpu_name = gpu ? gpu->name : gpu_spec ? gpu_spec : _("custom GPU");

  m = load_model (model_spec, &error);
  if (m == NULL)
    return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT, "%s: %s", model_spec, error->message);

  if (train != NULL)
    return run_training (m, train, optimizer, zero, gpus > 0 ? gpus : tp * pp, checkpointing,
                         seq_len, micro_batch, lora_rank, usable, gpu_name, json);

  /* quantisation declared only in hf_quant_config.json (NVIDIA ModelOpt checkpoints) */
  {
    g_autofree char *qpath = NULL;

    if (quant_config != NULL)
      qpath = g_strdup (quant_config);
    else if (g_file_test (model_spec, G_FILE_TEST_IS_REGULAR))
      {
        g_autofree char *dir = g_path_get_dirname (model_spec);
        g_autofree char *base = g_path_get_basename (model_spec);
        g_autofree char *beside = g_build_filename (dir, "hf_quant_config.json", NULL);

        if (g_file_test (beside, G_FILE_TEST_IS_REGULAR))
          qpath = g_steal_pointer (&beside);
        else if (g_str_has_suffix (base, "config.json")
                 && !g_str_has_suffix (base, "hf_quant_config.json"))
          {
            /* NAME_config.json beside NAME_hf_quant_config.json */
            g_autofree char *prefix = g_strndup (base, strlen (base) - strlen ("config.json"));
            g_autofree char *name = g_strconcat (prefix, "hf_quant_config.json", NULL);
            g_autofree char *path = g_build_filename (dir, name, NULL);

            if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
              qpath = g_steal_pointer (&path);
          }
      }
    if (qpath != NULL)
      {
        ProcuraDtype qw, qkv;

        if (!procura_fit_read_hf_quant_config (qpath, &qw, &qkv, &error))
          return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT, "%s", error->message);
        if (weights_dtype == NULL)
          r.weights_dtype = qw;
        if (kv_dtype == NULL && qkv != PROCURA_DTYPE_AUTO)
          r.kv_dtype = qkv;
        if (!json)
          procura_cli_print (_("%s: weights %s, KV cache %s\n"), qpath, procura_dtype_to_string (qw),
                   qkv == PROCURA_DTYPE_AUTO ? _("as the model") : procura_dtype_to_string (qkv));
      }
  }

  r.model = m;
  r.engine_version = engine_version;
  r.tp = tp;
  r.pp = pp;
  r.context_tokens = context;
  r.concurrency = concurrency;
  r.gpu_memory_utilization = util;
  r.mem_fraction_static = mem_fraction;
  r.swa_full_tokens_ratio = swa_ratio;
  r.block_size = block_size;
  r.max_num_batched_tokens = max_batched;
  r.cuda_graphs = !no_graphs;
  r.cuda_graphs_in_budget = !graphs_outside;
  r.kv_rule = no_sliding ? PROCURA_KV_RULE_ALL_FULL : PROCURA_KV_RULE_AUTO;
  r.usable_memory_bytes = usable;
  r.gpu_id = gpu ? gpu->id : gpu_spec;
  if (procura_is_set (pool_gib))
    r.kv_pool_bytes = pool_gib * PROCURA_GIB;
  if (!procura_fit_compute (&r, &res, &error))
    return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT, "%s: %s", model_spec, error->message);
  if (!driver_figure)
    res.estimates |= PROCURA_FIT_ESTIMATE_USABLE;
  if (!json)
    print_text (m, gpu_name, &res);
  if (plan_file != NULL)
    {
      g_autofree char *plan_name = g_strdup_printf (_("%s on %s"), m->id ? m->id : model_spec, gpu_name);

      if (!write_plan (plan_file, &res, plan_name, &error))
        return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT, "%s: %s", plan_file, error->message);
      if (!json)
        procura_cli_print (_("Probe plan written to %s\n"), plan_file);
    }

  b = json_builder_new ();
  json_builder_begin_object (b);
  procura_json_add_string (b, "model", m->id);
  json_builder_set_member_name (b, "gpu");
  json_builder_begin_object (b);
  procura_json_add_string (b, "id", gpu ? gpu->id : NULL);
  procura_json_add_string (b, "name", gpu_name);
  add_bytes (b, "usable_memory_bytes", usable);
  json_builder_set_member_name (b, "driver_figure");
  json_builder_add_boolean_value (b, driver_figure && !procura_is_set (gpu_gib));
  add_bytes (b, "free_after_context_bytes",
             gpu && !procura_is_set (gpu_gib) ? gpu->usable_memory_free_bytes : NAN);
  procura_json_add_string (b, "usable_memory_source",
                           procura_is_set (gpu_gib) ? "--gpu-memory-gib"
                           : gpu ? gpu->usable_memory_source : NULL);
  json_builder_end_object (b);
  procura_json_add_string (b, "engine", r.engine == PROCURA_ENGINE_SGLANG ? "sglang" : "vllm");
  add_int (b, "gpus", (gint64) tp * pp * replicas);
  add_int (b, "replicas", replicas);
  add_int (b, "context", context);
  add_int (b, "concurrency", concurrency);
  result_members (b, &res);

  if (all_gpus)
    {
      gsize n = 0;
      const ProcuraGpuSpec * const *all = procura_gpu_catalog_all (&n);

      json_builder_set_member_name (b, "smallest_tp");
      json_builder_begin_array (b);
      for (gsize i = 0; i < n; i++)
        {
          ProcuraFitResult best;
          ProcuraFitRequest ri = r;
          int t;

          ri.gpu_id = all[i]->id;
          t = procura_fit_smallest_tp (&ri, procura_fit_gpu_usable_bytes (all[i], NULL), &best);

          json_builder_begin_object (b);
          procura_json_add_string (b, "gpu", all[i]->id);
          json_builder_set_member_name (b, "tp");
          if (t > 0)
            json_builder_add_int_value (b, t);
          else
            json_builder_add_null_value (b);
          procura_json_add_number (b, "max_concurrency", t > 0 ? best.max_concurrency : NAN);
          procura_json_add_string (b, "limit", procura_fit_limit_to_string (best.limit));
          json_builder_end_object (b);
          if (!json)
            {
              if (t > 0)
                procura_cli_print (_("%-28s smallest TP %d (max concurrency %.1f)\n"), all[i]->name, t,
                         best.max_concurrency);
              else
                procura_cli_print (_("%-28s does not fit at TP ≤ 8 (%s)\n"), all[i]->name,
                         procura_fit_limit_to_string (best.limit));
            }
        }
      json_builder_end_array (b);
    }

  if (log_file != NULL)
    {
      g_autoptr (ProcuraImportResult) imported = procura_import_file (log_file, NULL, NULL, &error);
      g_autoptr (GArray) rows = NULL;
      ProcuraEngineLog *log;
      gboolean successful = FALSE;
      guint n_starts;
      int chosen;

      if (imported == NULL)
        return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT, "%s", error->message);
      if (imported->engine_logs->len == 0)
        return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT,
                                 _("--log: %s holds no engine startup log (it reads as %s)"),
                                 log_file, imported->format ? imported->format : "?");
      chosen = procura_fit_log_choose_start (imported->engine_logs, log_start, &successful, &error);
      if (chosen < 0)
        return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT, _("--start: %s: %s"), log_file, error->message);
      log = g_ptr_array_index (imported->engine_logs, chosen);
      n_starts = imported->engine_logs->len;
      add_int (b, "log_start", chosen + 1);
      add_int (b, "log_starts", n_starts);
      json_builder_set_member_name (b, "log_start_successful");
      json_builder_add_boolean_value (b, successful);
      if (!json && n_starts > 1)
        {
          if (log_start > 0)
            procura_cli_print (_("Engine log: start %d of %u (chosen with --start)%s\n"), chosen + 1, n_starts,
                     successful ? "" : _(", a start that failed"));
          else if (successful)
            procura_cli_print (_("Engine log: start %d of %u, the last successful one (--start N chooses another)\n"),
                     chosen + 1, n_starts);
          else
            procura_cli_print (_("Engine log: start %d of %u; no start succeeded (--start N chooses another)\n"),
                     chosen + 1, n_starts);
        }
      rows = procura_fit_reconcile (log, &r, NULL, NULL, &error);
      if (rows == NULL)
        return procura_cli_fail (CMD, PROCURA_EXIT_BAD_INPUT, "%s: %s", log_file, error->message);
      json_builder_set_member_name (b, "engine_log");
      json_builder_begin_array (b);
      for (guint i = 0; i < rows->len; i++)
        {
          const ProcuraFitReconcileRow *row = &g_array_index (rows, ProcuraFitReconcileRow, i);

          json_builder_begin_object (b);
          procura_json_add_string (b, "figure", row->id);
          procura_json_add_string (b, "unit", row->unit);
          procura_json_add_number (b, "engine", row->engine);
          procura_json_add_number (b, "calculated", row->calculated);
          procura_json_add_number (b, "difference", row->difference);
          procura_json_add_number (b, "percent", row->percent);
          json_builder_end_object (b);
          if (!json)
            {
              /* one "calculated" per figure: the token count from the calculator's own
               * pool and the one from the engine's pool are told apart, and a figure
               * the log does not state says so instead of "nan %" */
              const char *label = g_str_equal (row->id, "kv-tokens")
                                  ? _("KV tokens (calculated pool)")
                                  : g_str_equal (row->id, "kv-tokens-at-engine-pool")
                                  ? _("KV tokens (engine's pool)")
                                  : row->id;
              g_autofree char *engine_text = procura_is_set (row->engine)
                                             ? g_strdup_printf ("%12.2f", row->engine)
                                             : g_strdup_printf ("%12s", _("not in log"));
              g_autofree char *calc_text = procura_is_set (row->calculated)
                                           ? g_strdup_printf ("%12.2f", row->calculated)
                                           : g_strdup_printf ("%12s", "—");
              g_autofree char *pct_text = procura_is_set (row->percent)
                                          ? g_strdup_printf ("(%+.2f %%)", row->percent)
                                          : g_strdup ("");

              procura_cli_print (_("  %-28s engine %s  calculated %s %s  %s\n"), label, engine_text,
                       calc_text, row->unit, pct_text);
            }
        }
      json_builder_end_array (b);
    }
  json_builder_end_object (b);

  if (json)
    {
      root = json_builder_get_root (b);
      print_json (root);
    }
  return PROCURA_EXIT_OK;
}
