/* test-fit-predict.c: the calculator, given only what a user knows, against real engines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Unlike test-fit-conformance.c (which hands the calculator the engine's own KV pool),
 * every figure here is predicted from what a user would know before starting the
 * engine: the model (config.json from the fixtures or the built-in catalog), the GPU (the
 * catalog's usable memory), TP, PP, the context (max_model_len), the engine's utilisation
 * setting and version, the KV cache dtype and an online quantisation. Checked against
 * - every vLLM startup log in shared/fixtures/real/vllm-server-logs/ that states a "GPU KV
 *   cache size", and
 * - every successful row of llm-d-planner's v0.19.0 table (vLLM 0.19 on H100) whose model
 *   the catalog holds:
 * KV tokens within 1 % and weights within 2 % of the engine's figures. Cases the
 * calculator cannot match yet are in the known-failure lists below with the reason; their
 * error is printed (never skipped silently), and one that comes within the tolerance is
 * reported so that it can leave the list. The summary lines ("distribution: ...") give the
 * error distribution recorded in bench/fit/README.md.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "procura-fit.h"
#include "procura-gpu-catalog.h"
#include "procura-model-catalog.h"
#include "procura-test-util.h"

#define TOKENS_TOLERANCE 1.0   /* % */
#define WEIGHTS_TOLERANCE 2.0  /* % */

typedef struct {
  const char *log;          /* in vllm-server-logs/ */
  const char *config;       /* in model-configs/, or NULL to use the catalog */
  const char *catalog_id;
  const char *gpu;          /* catalog name, NULL when the GPU is not in the catalog */
  const char *known_failure;/* NULL, or why the calculator cannot match it yet */
} LogCase;

static const LogCase log_cases[] = {
  { "llmdplanner__meta-llama-llama-3-1-8b---h100-80gb--tp1pp1dp1--8192.log",
    "aic__meta-llama--Meta-Llama-3.1-8B_config.json", NULL, "H100", NULL },
  { "llmdplanner__meta-llama---h100-80gb--tp1pp1dp1--8192-dtbf16-kvfp8.log",
    "aic__meta-llama--Meta-Llama-3.1-8B_config.json", NULL, "H100", NULL },
  { "llmdplanner__google-gemma-2-9b-it--h100-80gb--tp1pp1dp1--8192.log",
    NULL, "google/gemma-2-9b-it", "H100", NULL },
  { "llmdplanner__mistralai-mixtral-8x7b-i--h100-80gb--tp2pp1dp1--8192.log",
    "aic__mistralai--Mixtral-8x7B-v0.1_config.json", NULL, "H100", NULL },
  { "llmdplanner__deepseek-ai-deepseek-v2---h100-80gb--tp1pp1dp1--8192.log",
    NULL, "deepseek-ai/DeepSeek-V2-Lite-Chat", "H100", NULL },
  { "llmdplanner__openai-gpt-oss-20b--h100-80gb--tp2pp1dp1--8192.log",
    "aic__openai--gpt-oss-20b_config.json", NULL, "H100", NULL },
  { "llmdplanner__qwen-qwen2-5-72b-instruc--h100-80gb--tp2pp1dp1--8192.log",
    NULL, "Qwen/Qwen2.5-72B-Instruct", "H100", NULL },
  /* Qwen2-7B-Instruct: the catalog's Qwen2.5-7B has the same shape */
  { "dlee__vllm-7B-1gpuA10080GB-0.25GRAM.log", NULL, "Qwen/Qwen2.5-7B", "A100 80GB", NULL },
  { "dlee__vllm-7B-1gpuA10080GB-0.5GRAM.log", NULL, "Qwen/Qwen2.5-7B", "A100 80GB", NULL },
  { "dlee__vllm-7B-2gpuA10080GB-0.25GRAM-same-node.log", NULL, "Qwen/Qwen2.5-7B", "A100 80GB", NULL },
  { "dlee__vllm-7B-2gpuA10080GB-0.5GRAM-same-node.log", NULL, "Qwen/Qwen2.5-7B", "A100 80GB", NULL },
  { "dlee__vllm-7B-2gpuA10040GB-0.5GRAM-diff-nodes.log", NULL, "Qwen/Qwen2.5-7B", "A100-40GB",
    "a documented limit (docs/memory-fit.md, \"Cross-node TP on A100-40GB\"): 1.54 GiB of "
    "activation peak and non-torch memory (requested - weights - pool) against 0.62 GiB for "
    "the same model, TP, utilisation and vLLM on one A100 80GB node and 0.78 GiB for the "
    "cross-node TP 4 gpt-oss-120b run: 0.92 GiB per GPU that neither the usable memory "
    "(39.39 GiB, the driver's; it would have to be 1.84 GiB less) nor the engine "
    "settings (chunk 2048 and 256 sequences on every A100) explain; vLLM 0.10 counts any "
    "device memory that appears during profiling as non-torch (cudaMemGetInfo), so memory "
    "of another process on the shared Ray node, or NCCL's network-transport buffers, are "
    "the candidates; the log cannot tell them apart" },
  { "dlee__vllm-120B-4gpuA10080GB-0.8GRAM-diff-nodes.log",
    "aic__openai--gpt-oss-120b_config.json", NULL, "A100 80GB", NULL },
  /* vLLM on Intel Arc Pro B60 (XPU): no such GPU in the catalog */
  { "dkorat__Qwen_Qwen3-30B-A3B_tp4_quant-fp8_server.log",
    "aic__Qwen--Qwen3-30B-A3B_config.json", NULL, NULL,
    "Intel Arc Pro B60 (vLLM XPU build): not a catalog GPU, no usable-memory figure, and the "
    "log states no KV pool in GiB" },
  { "dkorat__Qwen_Qwen3-4B-Thinking-2507_tp2_quant-fp8_server.log", NULL, NULL, NULL,
    "Intel Arc Pro B60 (vLLM XPU build): not a catalog GPU; Qwen3-4B's config.json is "
    "neither in the fixtures nor in the catalog" },
  { "dkorat__openai_gpt-oss-20b_tp4_quant-none_server.log",
    "aic__openai--gpt-oss-20b_config.json", NULL, NULL,
    "Intel Arc Pro B60 (vLLM XPU build): not a catalog GPU, no usable-memory figure" },
};

/* Rows of the planner's table ("MODEL|TP|PP|dtype|quantization|kv") that the calculator
 * cannot match yet, with the reason; NULL-terminated. None at present: gemma-3-27b-it
 * (+1.9 % tokens, -0.7 % weights until the rotary tables were counted: vLLM builds a
 * 1,048,576 x 128 global table, linear scaling 8, and a 131,072 x 128 local one in bf16,
 * 0.28 GiB of the 0.36 GiB "Model loading took" showed beyond config.json's tensors) is
 * now +0.48 % / -0.14 %. */
static const struct { const char *key; const char *reason; } csv_known_failures[] = {
  { NULL, NULL },
};

typedef struct {
  GArray *tokens;   /* double: % error of the non-failing cases */
  GArray *weights;
  int     known;    /* known failures seen */
  int     passed;
  int     failed;   /* outside the tolerance and not a known failure */
} Stats;

static Stats log_stats, csv_stats;

static gboolean
match_text (const char *text,
            const char *pattern,
            char      **out)
{
  g_autoptr (GRegex) re = g_regex_new (pattern, 0, 0, NULL);
  g_autoptr (GMatchInfo) mi = NULL;

  if (!g_regex_match (re, text, 0, &mi))
    return FALSE;
  *out = g_match_info_fetch (mi, 1);
  return TRUE;
}

static gint64
digits_of (const char *s)
{
  gint64 v = 0;

  for (const char *p = s; *p; p++)
    if (g_ascii_isdigit (*p))
      v = v * 10 + (*p - '0');
  return v;
}

static double
pct (double calculated,
     double engine)
{
  return 100.0 * (calculated - engine) / engine;
}

static void
record (Stats      *stats,
        const char *name,
        const char *known_failure,
        double      tok_err,
        double      w_err,
        const char *detail)
{
  gboolean ok = fabs (tok_err) <= TOKENS_TOLERANCE && fabs (w_err) <= WEIGHTS_TOLERANCE;

  if (known_failure != NULL)
    {
      stats->known++;
      g_test_message ("KNOWN FAILURE %s: tokens %+.2f %%, weights %+.2f %% (%s) — %s%s", name,
                      tok_err, w_err, detail, known_failure,
                      ok ? " [now within tolerance: take it off the known-failure list]" : "");
      return;
    }
  g_array_append_val (stats->tokens, tok_err);
  g_array_append_val (stats->weights, w_err);
  g_test_message ("%s%s: tokens %+.3f %%, weights %+.2f %% (%s)", ok ? "" : "FAILED ", name,
                  tok_err, w_err, detail);
  if (ok)
    stats->passed++;
  else
    stats->failed++;
}

static void
test_log (gconstpointer data)
{
  const LogCase *c = data;
  g_autofree char *rel = g_build_filename ("vllm-server-logs", c->log, NULL);
  g_autofree char *path = procura_test_real_fixture (rel);
  g_autofree char *text = NULL, *tokens_s = NULL, *weights_s = NULL, *s = NULL;
  g_autofree char *version = NULL, *kv = NULL, *pool_s = NULL;
  g_autoptr (ProcuraModelShape) m = NULL;
  g_autoptr (GError) error = NULL;
  const ProcuraGpuSpec *gpu;
  ProcuraFitRequest r;
  ProcuraFitResult res;
  gint64 tokens;
  double weights, tok_err, w_err;
  g_autofree char *detail = NULL;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  /* only logs that state a KV cache size are cases */
  g_assert_true (match_text (text, "GPU KV cache size: ([0-9,]+) tokens", &tokens_s));
  tokens = digits_of (tokens_s);
  g_assert_true (match_text (text, "Model loading took ([0-9.]+) GiB", &weights_s));
  weights = g_ascii_strtod (weights_s, NULL);
  if (c->gpu == NULL || (c->config == NULL && c->catalog_id == NULL))
    {
      g_assert_nonnull (c->known_failure);
      log_stats.known++;
      g_test_message ("KNOWN FAILURE %s: no calculation (%" G_GINT64_FORMAT " tokens, %.2f GiB "
                      "of weights in the log) — %s", c->log, tokens, weights, c->known_failure);
      return;
    }

  if (c->config != NULL)
    {
      g_autofree char *crel = g_build_filename ("model-configs", c->config, NULL);
      g_autofree char *cpath = procura_test_real_fixture (crel);
      g_autofree char *json = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (cpath, &json, &len, &error));
      m = procura_model_shape_from_config_json (c->config, json, len, &error);
      g_assert_no_error (error);
    }
  else
    m = procura_model_catalog_lookup (c->catalog_id);
  g_assert_nonnull (m);
  gpu = procura_gpu_catalog_lookup (c->gpu);
  g_assert_nonnull (gpu);

  /* what the user set on the engine's command line, read back from the log */
  procura_fit_request_init (&r);
  r.model = m;
  r.gpu_id = gpu->id;
  r.usable_memory_bytes = procura_fit_gpu_usable_bytes (gpu, NULL);
  r.gpu_memory_utilization = match_text (text, "'gpu_memory_utilization': ([0-9.]+)", &s)
                             ? g_ascii_strtod (s, NULL) : 0.9;
  g_clear_pointer (&s, g_free);
  r.tp = match_text (text, "tensor_parallel_size[=':\" ]+([0-9]+)", &s) ? atoi (s) : 1;
  g_clear_pointer (&s, g_free);
  r.pp = match_text (text, "pipeline_parallel_size[=':\" ]+([0-9]+)", &s) ? atoi (s) : 1;
  g_clear_pointer (&s, g_free);
  g_assert_true (match_text (text, "Maximum concurrency for ([0-9,]+) tokens", &s));
  r.context_tokens = digits_of (s);
  g_clear_pointer (&s, g_free);
  g_assert_true (match_text (text, "version ([0-9]+\\.[0-9]+[0-9.]*)", &version));
  r.engine_version = version;
  if (match_text (text, "kv_cache_dtype=([a-z0-9_]+)", &kv) && !g_str_equal (kv, "auto"))
    g_assert_true (procura_dtype_parse (kv, &r.kv_dtype));
  if (match_text (text, "quantization=(fp8)", &s))
    r.weights_dtype = PROCURA_DTYPE_FP8;
  g_clear_pointer (&s, g_free);

  g_assert_true (procura_fit_compute (&r, &res, &error));
  g_assert_no_error (error);
  tok_err = pct ((double) res.kv_tokens, (double) tokens);
  w_err = pct (res.weights_bytes / PROCURA_GIB, weights);
  detail = g_strdup_printf ("vLLM %s (%s), %s TP %d PP %d util %.2f: %" G_GINT64_FORMAT
                            " vs %" G_GINT64_FORMAT " tokens, pool %.2f vs %s GiB",
                            version, res.engine_rules, gpu->id, r.tp, r.pp,
                            r.gpu_memory_utilization, res.kv_tokens, tokens,
                            res.kv_pool_bytes / PROCURA_GIB,
                            match_text (text, "Available KV cache memory: ([0-9.]+) GiB", &pool_s)
                            ? pool_s : "?");
  record (&log_stats, c->log, c->known_failure, tok_err, w_err, detail);
  if (c->known_failure == NULL)
    {
      g_assert_cmpfloat (fabs (tok_err), <=, TOKENS_TOLERANCE);
      g_assert_cmpfloat (fabs (w_err), <=, WEIGHTS_TOLERANCE);
    }
}

static const char *
csv_known_failure (const char *key)
{
  for (gsize i = 0; csv_known_failures[i].key != NULL; i++)
    if (g_str_equal (csv_known_failures[i].key, key))
      return csv_known_failures[i].reason;
  return NULL;
}

static void
test_csv (void)
{
  g_autofree char *path = procura_test_real_fixture ("ground-truth-vllm-memory/llmdplanner__v0.19.0_results_raw.csv");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_auto (GStrv) header = NULL;
  const ProcuraGpuSpec *h100;
  int col[11];
  static const char *names[11] = { "status", "model", "tp", "pp", "dtype", "quantization",
                                   "kv_cache_dtype", "gpu_memory_utilization",
                                   "weight_memory_gib", "kv_cache_tokens", "max_model_len" };
  int ok_rows = 0, not_in_catalog = 0, checked = 0;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  header = g_strsplit (lines[0], ",", -1);
  for (int k = 0; k < 11; k++)
    {
      col[k] = -1;
      for (int i = 0; header[i]; i++)
        if (g_str_equal (header[i], names[k]))
          col[k] = i;
      g_assert_cmpint (col[k], >=, 0);
    }
  h100 = procura_gpu_catalog_lookup ("H100");
  g_assert_nonnull (h100);

  for (int l = 1; lines[l]; l++)
    {
      g_auto (GStrv) f = g_strsplit (lines[l], ",", -1);
      g_autoptr (ProcuraModelShape) m = NULL;
      g_autofree char *key = NULL, *detail = NULL;
      const char *quant;
      ProcuraFitRequest r;
      ProcuraFitResult res;

      if (g_strv_length (f) <= (guint) col[9] || !g_str_equal (f[col[0]], "ok"))
        continue;
      ok_rows++;
      m = procura_model_catalog_lookup (f[col[1]]);
      key = g_strjoin ("|", f[col[1]], f[col[2]], f[col[3]], f[col[4]], f[col[5]], f[col[6]], NULL);
      if (m == NULL)
        {
          not_in_catalog++;
          g_test_message ("not checked: %s (no config.json in the catalog or the fixtures)", key);
          continue;
        }
      quant = f[col[5]];
      procura_fit_request_init (&r);
      r.model = m;
      r.gpu_id = h100->id;
      r.usable_memory_bytes = procura_fit_gpu_usable_bytes (h100, NULL);
      r.engine_version = "0.19.0";
      r.tp = atoi (f[col[2]]);
      r.pp = atoi (f[col[3]]);
      r.context_tokens = g_ascii_strtoll (f[col[10]], NULL, 10);
      r.gpu_memory_utilization = g_ascii_strtod (f[col[7]], NULL);
      if (g_str_equal (f[col[6]], "fp8"))
        r.kv_dtype = PROCURA_DTYPE_FP8;
      if (g_str_equal (f[col[4]], "torch.float32"))
        r.weights_dtype = PROCURA_DTYPE_FP32;
      else if (g_str_equal (f[col[4]], "torch.float16"))
        r.weights_dtype = PROCURA_DTYPE_FP16;
      if (g_str_equal (quant, "fp8"))
        r.weights_dtype = PROCURA_DTYPE_FP8;   /* online quantisation: an engine setting */
      g_assert_true (procura_fit_compute (&r, &res, NULL));
      detail = g_strdup_printf ("%" G_GINT64_FORMAT " vs %s tokens, pool %.2f GiB, %s",
                                res.kv_tokens, f[col[9]], res.kv_pool_bytes / PROCURA_GIB,
                                res.engine_rules);
      record (&csv_stats, key, csv_known_failure (key),
              pct ((double) res.kv_tokens, g_ascii_strtod (f[col[9]], NULL)),
              pct (res.weights_bytes / PROCURA_GIB, g_ascii_strtod (f[col[8]], NULL)), detail);
      checked++;
    }
  g_test_message ("planner table: %d successful runs, %d checked, %d without a model shape",
                  ok_rows, checked, not_in_catalog);
  g_assert_cmpint (checked, >=, 10);
  /* every row outside the tolerance is printed above with its figures */
  g_assert_cmpint (csv_stats.failed, ==, 0);
}

static int
cmp_abs (gconstpointer a,
         gconstpointer b)
{
  double x = fabs (*(const double *) a), y = fabs (*(const double *) b);

  return x < y ? -1 : x > y;
}

static void
summarise (const char *what,
           Stats      *stats)
{
  GArray *t = stats->tokens;
  guint n = t->len, within_half = 0;
  double sum = 0;

  if (n == 0)
    return;
  g_array_sort (t, cmp_abs);
  for (guint i = 0; i < n; i++)
    {
      double e = fabs (g_array_index (t, double, i));

      sum += e;
      within_half += e <= 0.5;
    }
  g_array_sort (stats->weights, cmp_abs);
  g_test_message ("distribution (%s): %u checked, %d known failures; |KV tokens error| "
                  "median %.2f %%, mean %.2f %%, max %.2f %%, within 0.5 %%: %u, within the "
                  "tolerances: %d; |weights error| median %.2f %%, max %.2f %%",
                  what, n, stats->known, fabs (g_array_index (t, double, n / 2)), sum / n,
                  fabs (g_array_index (t, double, n - 1)), within_half, stats->passed,
                  fabs (g_array_index (stats->weights, double, n / 2)),
                  fabs (g_array_index (stats->weights, double, n - 1)));
}

static void
test_summary (void)
{
  summarise ("startup logs", &log_stats);
  summarise ("planner table", &csv_stats);
}

int
main (int    argc,
      char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  log_stats.tokens = g_array_new (FALSE, FALSE, sizeof (double));
  log_stats.weights = g_array_new (FALSE, FALSE, sizeof (double));
  csv_stats.tokens = g_array_new (FALSE, FALSE, sizeof (double));
  csv_stats.weights = g_array_new (FALSE, FALSE, sizeof (double));
  for (gsize i = 0; i < G_N_ELEMENTS (log_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/fit/predict/log/%s", log_cases[i].log);

      for (char *p = name; *p; p++)
        if (!g_ascii_isalnum (*p) && *p != '/' && *p != '-' && *p != '_')
          *p = '_';
      g_test_add_data_func (name, &log_cases[i], test_log);
    }
  /* the summary last: a suite's own cases run before its sub-suites, so each is one */
  g_test_add_func ("/fit/predict/table/planner-v0.19.0", test_csv);
  g_test_add_func ("/fit/predict/summary/distribution", test_summary);
  rc = g_test_run ();
  g_array_unref (log_stats.tokens);
  g_array_unref (log_stats.weights);
  g_array_unref (csv_stats.tokens);
  g_array_unref (csv_stats.weights);
  return rc;
}
