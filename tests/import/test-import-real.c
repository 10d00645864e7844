/* test-import-real.c: every real file of shared/fixtures/real imports (or is refused
 * with the right message); normalised figures checked against values computed here
 * independently, or against a second file of the same run written by the tool itself
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "procura-import.h"
#include "procura-test-util.h"

#define SKIP_IF_MISSING(path) \
  G_STMT_START { if ((path) == NULL) { g_test_skip (procura_test_real_fixtures_missing ()); return; } } G_STMT_END

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* numpy.percentile(values, pct) with the default linear method, written independently */
static double
np_percentile (const double *values,
               gsize         n,
               double        pct)
{
  g_autofree double *s = g_memdup2 (values, n * sizeof (double));
  double h, lo;
  gsize i;

  qsort (s, n, sizeof (double), cmp_double);
  h = (double) (n - 1) * pct / 100.0;
  lo = floor (h);
  i = (gsize) lo;
  if (i + 1 >= n)
    return s[n - 1];
  return s[i] + (h - lo) * (s[i + 1] - s[i]);
}

static double
mean_of (const double *v,
         gsize         n)
{
  double s = 0;
  for (gsize i = 0; i < n; i++)
    s += v[i];
  return s / (double) n;
}

static ProcuraImportResult *
import_real (const char *rel,
             const char *expect_format)
{
  g_autofree char *path = procura_test_real_fixture (rel);
  g_autoptr (GError) error = NULL;
  ProcuraImportResult *r;

  if (path == NULL)
    return NULL;
  r = procura_import_file (path, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);
  g_assert_cmpstr (r->format, ==, expect_format);
  g_assert_nonnull (r->provenance);
  g_assert_cmpint (strlen (r->provenance->sha256), ==, 64);
  for (guint i = 0; i < r->runs->len; i++)
    g_assert_nonnull (((ProcuraRun *) g_ptr_array_index (r->runs, i))->provenance);
  return r;
}

static JsonNode *
load_plain (const char *rel)
{
  g_autofree char *path = procura_test_real_fixture (rel);
  g_autoptr (JsonParser) p = json_parser_new ();

  g_assert_true (json_parser_load_from_file (p, path, NULL));
  return json_node_copy (json_parser_get_root (p));
}

static double
stat (const ProcuraRun *run,
      const char       *metric,
      const char       *name,
      ProcuraSource     source)
{
  for (guint i = 0; i < run->stats->len; i++)
    {
      const ProcuraStat *s = g_ptr_array_index (run->stats, i);
      if (s->source == source && g_str_equal (s->metric, metric) && g_str_equal (s->stat, name))
        return s->value;
    }
  g_error ("no %s %s (%s)", metric, name, source == PROCURA_SOURCE_RECOMPUTED ? "recomputed" : "as reported");
  return NAN;
}

static gboolean
has_warning (const ProcuraRun *run,
             const char       *needle)
{
  for (guint i = 0; i < run->warnings->len; i++)
    if (strstr (g_ptr_array_index (run->warnings, i), needle))
      return TRUE;
  return FALSE;
}

#define R PROCURA_SOURCE_RECOMPUTED
#define A PROCURA_SOURCE_AS_REPORTED
#define CLOSE(a, b, rel) g_assert_cmpfloat_with_epsilon ((a), (b), (rel) * MAX (1.0, fabs (b)))

/* The vLLM file with per-request arrays: mean and p99 of TTFT and ITL from the arrays,
 * compared with the file's own summary and with Procura's recomputed figures */
static void
test_vllm_per_request (void)
{
  const char *rel = "vllm-bench-serve/lambdalabs__1xH100-80GB-SXM_Mistral-7B-Instruct-v0.3_tp1_len2048.json";
  g_autoptr (ProcuraImportResult) r = import_real (rel, "vllm-bench-serve");
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GArray) ttft = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) itl = g_array_new (FALSE, FALSE, sizeof (double));
  JsonObject *o;
  JsonArray *a;
  ProcuraRun *run;

  SKIP_IF_MISSING (r);
  root = load_plain (rel);
  o = json_node_get_object (root);
  a = json_object_get_array_member (o, "ttfts");
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      double v = json_array_get_double_element (a, i) * 1000.0;
      g_array_append_val (ttft, v);
    }
  a = json_object_get_array_member (o, "itls");
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonArray *row = json_array_get_array_element (a, i);
      for (guint j = 0; j < json_array_get_length (row); j++)
        {
          double v = json_array_get_double_element (row, j) * 1000.0;
          g_array_append_val (itl, v);
        }
    }
  run = g_ptr_array_index (r->runs, 0);

  /* the file's summary agrees with its arrays ... */
  CLOSE (json_object_get_double_member (o, "mean_ttft_ms"), mean_of ((double *) ttft->data, ttft->len), 1e-9);
  CLOSE (json_object_get_double_member (o, "p99_ttft_ms"), np_percentile ((double *) ttft->data, ttft->len, 99), 1e-9);
  CLOSE (json_object_get_double_member (o, "mean_itl_ms"), mean_of ((double *) itl->data, itl->len), 1e-9);
  CLOSE (json_object_get_double_member (o, "p99_itl_ms"), np_percentile ((double *) itl->data, itl->len, 99), 1e-9);
  /* ... and so does Procura, which keeps both */
  CLOSE (stat (run, "ttft", "mean", R), mean_of ((double *) ttft->data, ttft->len), 1e-9);
  CLOSE (stat (run, "ttft", "p99", R), np_percentile ((double *) ttft->data, ttft->len, 99), 1e-9);
  CLOSE (stat (run, "itl", "mean", R), mean_of ((double *) itl->data, itl->len), 1e-9);
  CLOSE (stat (run, "itl", "p99", R), np_percentile ((double *) itl->data, itl->len, 99), 1e-9);
  CLOSE (stat (run, "itl", "p50", R), json_object_get_double_member (o, "median_itl_ms"), 1e-9);
  g_assert_cmpfloat (stat (run, "ttft", "mean", A), ==, json_object_get_double_member (o, "mean_ttft_ms"));
  g_assert_cmpfloat (stat (run, "itl", "p99", A), ==, json_object_get_double_member (o, "p99_itl_ms"));
  /* the 2024 "mean_latency_ms" is e2e */
  g_assert_cmpfloat (stat (run, "e2e", "mean", A), ==, json_object_get_double_member (o, "mean_latency_ms"));
  /* tpot from the chunk gaps: within 1 % of vLLM's (latency - ttft)/(n - 1) */
  CLOSE (stat (run, "tpot", "mean", R), json_object_get_double_member (o, "mean_tpot_ms"), 0.01);
  g_assert_cmpint (run->completed, ==, 10);
  g_assert_true (isinf (run->scenario.load_value));
  g_assert_cmpstr (run->scenario.model, ==, "mistralai/Mistral-7B-Instruct-v0.3");
  /* the file does not name the GPU: left for the user */
  g_assert_null (run->scenario.gpu_name);
}

static void
test_vllm_variants (void)
{
  g_autoptr (ProcuraImportResult) failed = import_real ("vllm-bench-serve/er0080__bench_serve_all_requests_failed_v0.25.1.json", "vllm-bench-serve");
  g_autoptr (ProcuraImportResult) sweep = NULL;
  g_autoptr (ProcuraImportResult) jsonl = NULL;
  g_autoptr (ProcuraImportResult) typo = NULL;
  g_autoptr (ProcuraImportResult) stripped = NULL;
  ProcuraRun *run;
  guint partial = 0;

  SKIP_IF_MISSING (failed);
  run = g_ptr_array_index (failed->runs, 0);
  g_assert_cmpint (run->completed, ==, 0);
  g_assert_cmpint (run->failed, ==, 8);
  g_assert_true (has_warning (run, "no request completed"));

  sweep = import_real ("vllm-bench-serve/er0080__vllm_sweep_max_num_seqs4_summary.json", "vllm-bench-serve");
  g_assert_cmpstr (sweep->format_version, ==, "sweep-summary");
  g_assert_cmpuint (sweep->runs->len, ==, 2);
  for (guint i = 0; i < sweep->runs->len; i++)
    {
      run = g_ptr_array_index (sweep->runs, i);
      g_assert_nonnull (strstr (run->label, "max_num_seqs=4"));
      g_assert_cmpstr (run->scenario.load_type, ==, "concurrency");
    }

  jsonl = import_real ("vllm-bench-serve/nerdalert__results_append.jsonl", "vllm-bench-serve");
  g_assert_cmpstr (jsonl->format_version, ==, "jsonl");
  g_assert_cmpuint (jsonl->runs->len, ==, 12);
  for (guint i = 0; i < jsonl->runs->len; i++)
    {
      run = g_ptr_array_index (jsonl->runs, i);
      g_assert_nonnull (run->scenario.engine);   /* --metadata framework= */
      if (has_warning (run, "1015 of 2000 prompts completed"))
        partial++;
    }
  g_assert_cmpuint (partial, >=, 1);

  /* the old "request_goodput:" key is read, not refused */
  typo = import_real ("vllm-bench-serve/llmdbench__exp7_H100_vllm-2replicas_benchmark_2025-05-13_04-55-27.json", "vllm-bench-serve");
  run = g_ptr_array_index (typo->runs, 0);
  g_assert_cmpfloat (stat (run, "ttft", "p95", A), ==, 257.0488001947524);
  g_assert_cmpfloat (run->scenario.load_value, ==, 3.6);
  CLOSE (run->input_tokens_mean, 1599800.0 / 200.0, 1e-12);

  /* a file stripped of throughput keys: unknown, not zero */
  stripped = import_real ("vllm-bench-serve/nvaction__serving_llama8B_tp1_sharegpt_qps_16.json", "vllm-bench-serve");
  run = g_ptr_array_index (stripped->runs, 0);
  g_assert_true (isnan (run->output_throughput));
  g_assert_cmpint (run->completed, ==, -1);
  g_assert_cmpfloat (stat (run, "tpot", "p99", A), ==, 748.628482702184);
}

static void
test_vllm_latency_throughput (void)
{
  const char *rel = "vllm-bench-throughput-latency/nvaction__latency_llama8B_tp1.json";
  g_autoptr (ProcuraImportResult) lat = import_real (rel, "vllm-bench-latency");
  g_autoptr (ProcuraImportResult) thr = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonObject *pct;
  ProcuraRun *run;

  SKIP_IF_MISSING (lat);
  root = load_plain (rel);
  pct = json_object_get_object_member (json_node_get_object (root), "percentiles");
  run = g_ptr_array_index (lat->runs, 0);
  /* vLLM's own percentiles are numpy's: our recomputation must match them */
  CLOSE (stat (run, "e2e", "p90", R), json_object_get_double_member (pct, "90") * 1000.0, 1e-9);
  CLOSE (stat (run, "e2e", "p99", R), json_object_get_double_member (pct, "99") * 1000.0, 1e-9);
  CLOSE (stat (run, "e2e", "mean", R), json_object_get_double_member (json_node_get_object (root), "avg_latency") * 1000.0, 1e-9);

  thr = import_real ("vllm-bench-throughput-latency/nvaction__throughput_llama8B_tp1.json", "vllm-bench-throughput");
  run = g_ptr_array_index (thr->runs, 0);
  g_assert_cmpint (run->completed, ==, 200);
  g_assert_cmpfloat (run->request_throughput, ==, 2.781764499305893);
  g_assert_cmpfloat (run->total_throughput, ==, 1198.996134490826);
}

static void
test_sglang (void)
{
  g_autoptr (ProcuraImportResult) r = import_real ("sglang-bench-serving/tonyli__agg_local.jsonl", "sglang-bench-serving");
  g_autoptr (ProcuraImportResult) pd = NULL;
  g_autofree char *path = NULL, *text = NULL;
  ProcuraRun *run;
  ProcuraEngineLog *log;
  const char *p;

  SKIP_IF_MISSING (r);
  run = g_ptr_array_index (r->runs, 0);
  g_assert_cmpstr (run->scenario.engine, ==, "sglang");
  g_assert_cmpint (run->scenario.tp, ==, 1);
  g_assert_cmpstr (run->scenario.load_type, ==, "concurrency");
  g_assert_cmpfloat (run->scenario.load_value, ==, 200);
  g_assert_cmpint (run->completed, ==, 200);
  g_assert_cmpfloat (stat (run, "e2e", "p99", A), ==, 1743.3439849223942);
  g_assert_cmpfloat (stat (run, "itl", "p95", A), ==, 5.666554998606443);
  /* server_info: KV capacity and memory, read from the text here */
  path = procura_test_real_fixture ("sglang-bench-serving/tonyli__agg_local.jsonl");
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  p = strstr (text, "\"token_capacity\": ");
  g_assert_nonnull (p);
  g_assert_cmpuint (r->engine_logs->len, >=, 1);
  log = g_ptr_array_index (r->engine_logs, 0);
  g_assert_cmpint (log->kv_tokens, ==, g_ascii_strtoll (p + 18, NULL, 10));
  g_assert_cmpfloat (log->mem_fraction_static, ==, 0.9);
  g_assert_cmpfloat (log->weights_gib, ==, 5.97);

  pd = import_real ("sglang-bench-serving/tonyli__pd_inter_node_gh200_a100.jsonl", "sglang-bench-serving");
  g_assert_cmpuint (pd->engine_logs->len, ==, 2);   /* prefill and decode servers */
  g_clear_pointer (&pd, procura_import_result_free);
  pd = import_real ("sglang-bench-serving/tonyli__pd_intra_n100_in512_out128_c32.jsonl", "sglang-bench-serving");
  g_assert_cmpuint (pd->runs->len, ==, 1);
}

static void
check_guidellm (const char *rel,
                const char *version)
{
  g_autoptr (ProcuraImportResult) r = import_real (rel, "guidellm");
  g_autoptr (JsonNode) root = NULL;
  JsonArray *benchmarks;

  if (r == NULL)
    return;
  g_assert_cmpstr (r->format_version, ==, version);
  root = load_plain (rel);
  benchmarks = json_object_get_array_member (json_node_get_object (root), "benchmarks");
  g_assert_cmpuint (r->runs->len, ==, json_array_get_length (benchmarks));
  for (guint i = 0; i < r->runs->len; i++)
    {
      ProcuraRun *run = g_ptr_array_index (r->runs, i);
      JsonObject *m = json_object_get_object_member (json_array_get_object_element (benchmarks, i), "metrics");
      JsonObject *ttft = json_object_get_object_member (json_object_get_object_member (m, "time_to_first_token_ms"), "successful");
      JsonObject *lat = json_object_get_object_member (json_object_get_object_member (m, "request_latency"), "successful");
      JsonObject *itl = json_object_get_object_member (json_object_get_object_member (m, "inter_token_latency_ms"), "successful");
      JsonObject *tpo = json_object_get_object_member (json_object_get_object_member (m, "time_per_output_token_ms"), "successful");

      g_assert_cmpfloat (stat (run, "ttft", "mean", A), ==, json_object_get_double_member (ttft, "mean"));
      g_assert_cmpfloat (stat (run, "ttft", "p50", A), ==, json_object_get_double_member (ttft, "median"));
      g_assert_cmpfloat (stat (run, "ttft", "p99", A), ==,
                         json_object_get_double_member (json_object_get_object_member (ttft, "percentiles"), "p99"));
      /* request_latency is in seconds */
      CLOSE (stat (run, "e2e", "mean", A), json_object_get_double_member (lat, "mean") * 1000.0, 1e-12);
      /* the two "ITL"s kept apart */
      g_assert_cmpfloat (stat (run, "tpot", "mean", A), ==, json_object_get_double_member (itl, "mean"));
      g_assert_cmpfloat (stat (run, "tpot_incl_first", "mean", A), ==, json_object_get_double_member (tpo, "mean"));
      g_assert_nonnull (run->scenario.load_type);
    }
}

static void
test_guidellm (void)
{
  g_autofree char *probe = procura_test_real_fixture ("guidellm");

  SKIP_IF_MISSING (probe);
  check_guidellm ("guidellm/guidellmTest__benchmarks_stripped.json", "guidellm-v0");
  check_guidellm ("guidellm/dkorat__openai_gpt-oss-20b_tp4_quant-none_benchmarks.json", "guidellm-v1");
  check_guidellm ("guidellm/dkorat__Qwen_Qwen3-30B-A3B_tp4_quant-fp8_benchmarks.json", "guidellm-v1");
  check_guidellm ("guidellm/llmdbench__guidellm_report_v2.json", "guidellm-v2");
}

static void
test_genai_perf_aiperf (void)
{
  const char *rel = "genai-perf/wellflat__profile_export_genai_perf.json";
  g_autoptr (ProcuraImportResult) g = import_real (rel, "genai-perf");
  g_autoptr (ProcuraImportResult) early = NULL, jsonl = NULL, csv = NULL, cur = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonObject *o;
  ProcuraRun *run, *rj, *re, *rc;

  SKIP_IF_MISSING (g);
  root = load_plain (rel);
  o = json_node_get_object (root);
  run = g_ptr_array_index (g->runs, 0);
  g_assert_cmpfloat (stat (run, "ttft", "p99", A), ==,
                     json_object_get_double_member (json_object_get_object_member (o, "time_to_first_token"), "p99"));
  /* GenAI-Perf's inter_token_latency is Procura's tpot */
  g_assert_cmpfloat (stat (run, "tpot", "mean", A), ==,
                     json_object_get_double_member (json_object_get_object_member (o, "inter_token_latency"), "avg"));
  g_assert_cmpstr (run->scenario.model, ==, "openai/gpt-oss-20b");
  g_assert_true (isnan (run->total_throughput));   /* GenAI-Perf has none */
  g_assert_nonnull (strstr (run->extras_json, "telemetry_stats"));

  /* one AIPerf run, three files written by the tool: the per-request records
   * recomputed must give the summary's figures */
  early = import_real ("aiperf/ajcAiperf__run1_profile_export_aiperf.json", "aiperf");
  jsonl = import_real ("aiperf/ajcAiperf__run1_profile_export.jsonl", "aiperf-jsonl");
  csv = import_real ("aiperf/ajcAiperf__run1_profile_export_aiperf.csv", "aiperf-csv");
  g_assert_cmpstr (early->format_version, ==, "aiperf-records");
  re = g_ptr_array_index (early->runs, 0);
  rj = g_ptr_array_index (jsonl->runs, 0);
  rc = g_ptr_array_index (csv->runs, 0);
  g_assert_cmpint (rj->completed, ==, re->completed);
  g_assert_cmpint (rj->failed, ==, 11);
  CLOSE (stat (rj, "ttft", "mean", R), stat (re, "ttft", "mean", A), 1e-9);
  CLOSE (stat (rj, "ttft", "p99", R), stat (re, "ttft", "p99", A), 1e-9);
  CLOSE (stat (rj, "tpot", "p50", R), stat (re, "tpot", "p50", A), 1e-9);
  CLOSE (stat (rj, "itl", "mean", R), stat (re, "itl", "mean", A), 1e-9);
  CLOSE (rj->duration_s, re->duration_s, 1e-6);
  /* the CSV rounds to two decimals */
  CLOSE (stat (rc, "ttft", "mean", A), stat (re, "ttft", "mean", A), 1e-5);
  g_assert_cmpint (rc->failed, ==, 11);

  cur = import_real ("aiperf/wellflat__profile_export_aiperf.json", "aiperf");
  run = g_ptr_array_index (cur->runs, 0);
  g_assert_cmpstr (run->scenario.gpu_name, ==, "NVIDIA A100-SXM4-80GB");
  g_assert_cmpint (run->scenario.gpu_count, ==, -1);   /* DCGM sees the node, not the replica */
  g_assert_cmpint (run->completed, ==, 100);
  g_clear_pointer (&cur, procura_import_result_free);
  cur = import_real ("aiperf/ajcAiperf__qwen_concurrency1_profile_export_aiperf.json", "aiperf");
  g_clear_pointer (&jsonl, procura_import_result_free);
  jsonl = import_real ("aiperf/ajcAiperf__qwen_concurrency1_profile_export.jsonl", "aiperf-jsonl");
}

static void
test_llmperf (void)
{
  g_autoptr (ProcuraImportResult) s = import_real ("llmperf/rayLB__summary__bedrock_70b.json", "llmperf-summary");
  g_autoptr (ProcuraImportResult) ind = NULL, s2 = NULL, s3 = NULL;
  g_autoptr (JsonNode) root = NULL;
  ProcuraRun *rs, *ri;
  JsonArray *a;
  g_autoptr (GArray) ttft = g_array_new (FALSE, FALSE, sizeof (double));

  SKIP_IF_MISSING (s);
  ind = import_real ("llmperf/rayLB__individual_responses__bedrock_70b.json", "llmperf-individual");
  rs = g_ptr_array_index (s->runs, 0);
  ri = g_ptr_array_index (ind->runs, 0);
  /* seconds -> ms; the individual responses recomputed give the summary */
  CLOSE (stat (ri, "ttft", "mean", R), stat (rs, "ttft", "mean", A), 1e-9);
  g_assert_cmpint (ri->failed, ==, rs->failed);
  g_assert_cmpint (ri->completed + ri->failed, ==, 150);
  /* the Python-dict error map became a warning */
  g_assert_true (has_warning (rs, "error code"));
  /* llmperf's ITL includes the first token: tpot_incl_first, not tpot */
  g_assert_nonnull (stat (rs, "tpot_incl_first", "mean", A) > 0 ? rs : NULL);
  CLOSE (stat (ri, "tpot_incl_first", "mean", R), stat (rs, "tpot_incl_first", "mean", A), 1e-9);

  root = load_plain ("llmperf/rayLB__individual_responses__bedrock_70b.json");
  a = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = json_array_get_object_element (a, i);
      if (json_node_is_null (json_object_get_member (o, "error_code")))
        {
          double v = json_object_get_double_member (o, "ttft_s") * 1000.0;
          g_array_append_val (ttft, v);
        }
    }
  CLOSE (stat (ri, "ttft", "p99", R), np_percentile ((double *) ttft->data, ttft->len, 99), 1e-9);

  s2 = import_real ("llmperf/rayLB__summary__anyscale_70b.json", "llmperf-summary");
  rs = g_ptr_array_index (s2->runs, 0);
  g_assert_cmpfloat (stat (rs, "ttft", "max", A), ==, 0.5928212950000216 * 1000.0);
  g_assert_cmpstr (rs->scenario.load_type, ==, "concurrency");
  g_assert_cmpfloat (rs->scenario.load_value, ==, 5);
  s3 = import_real ("llmperf/rayllmperf__yi-34b_4xA10G_vllm_c64_summary.json", "llmperf-summary");
  g_clear_pointer (&ind, procura_import_result_free);
  ind = import_real ("llmperf/rayLB__individual_responses__anyscale_70b.json", "llmperf-individual");
}

static void
test_mlperf (void)
{
  g_autoptr (ProcuraImportResult) srv = import_real ("mlperf/mlcV41__DGX-H100x8_llama2-70b-99.9_Server_mlperf_log_summary.txt", "mlperf-summary");
  g_autoptr (ProcuraImportResult) off = NULL, sdxl = NULL, detail = NULL;
  ProcuraRun *run, *rd;

  SKIP_IF_MISSING (srv);
  run = g_ptr_array_index (srv->runs, 0);
  /* ns -> ms */
  CLOSE (stat (run, "ttft", "p99", A), 461.278089, 1e-12);
  CLOSE (stat (run, "tpot", "p99", A), 175.354317, 1e-12);
  CLOSE (stat (run, "e2e", "p99.9", A), 165959.128685, 1e-12);
  g_assert_cmpfloat (run->output_throughput, ==, 21605.79);
  g_assert_cmpfloat (run->request_throughput, ==, 74.42);
  g_assert_cmpstr (run->scenario.load_type, ==, "rate");
  g_assert_cmpfloat (run->scenario.load_value, ==, 75);
  g_assert_nonnull (strstr (run->extras_json, "\"slo_ttft_ms\":2000"));
  g_assert_nonnull (strstr (run->extras_json, "VALID"));

  off = import_real ("mlperf/mlcV41__DGX-H100x8_llama2-70b-99.9_Offline_mlperf_log_summary.txt", "mlperf-summary");
  run = g_ptr_array_index (off->runs, 0);
  g_assert_cmpstr (run->scenario.load_type, ==, "throughput");
  g_assert_cmpfloat (run->output_throughput, ==, 24524.9);

  /* the SDXL summary and its detail log say the same */
  sdxl = import_real ("mlperf/thienlm__sdxl_offline_mlperf_log_summary.txt", "mlperf-summary");
  detail = import_real ("mlperf/thienlm__sdxl_offline_mlperf_log_detail.txt", "mlperf-detail");
  run = g_ptr_array_index (sdxl->runs, 0);
  rd = g_ptr_array_index (detail->runs, 0);
  g_assert_cmpfloat (rd->request_throughput, ==, run->request_throughput);
  CLOSE (stat (rd, "e2e", "p90", A), stat (run, "e2e", "p90", A), 1e-12);
  CLOSE (stat (rd, "e2e", "mean", A), stat (run, "e2e", "mean", A), 1e-12);
}

static void
test_mlperf_refused (void)
{
  /* results.json of the SDXL set is not a benchmark result Procura reads */
  g_autofree char *path = procura_test_real_fixture ("mlperf/thienlm__sdxl_results.json");
  g_autoptr (GError) error = NULL;

  SKIP_IF_MISSING (path);
  g_assert_null (procura_import_file (path, NULL, NULL, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_UNKNOWN);
  g_assert_nonnull (strstr (error->message, "thienlm__sdxl_results.json"));
  g_assert_nonnull (strstr (error->message, "--format"));
}

static void
test_lmbench (void)
{
  const char *rel = "lmbench-csv/llmdbench__exp3_H100_vllm-standalone-llama-3-70b-2replicas_LMBench_short_input_qps10.csv";
  g_autoptr (ProcuraImportResult) r = import_real (rel, "lmbench-csv");
  g_autofree char *path = NULL, *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GArray) ttft = g_array_new (FALSE, FALSE, sizeof (double));
  ProcuraRun *run;

  SKIP_IF_MISSING (r);
  path = procura_test_real_fixture (rel);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], ",", -1);
      double v;
      if (g_strv_length (f) < 4)
        continue;
      v = g_ascii_strtod (f[2], NULL) * 1000.0;
      g_array_append_val (ttft, v);
    }
  run = g_ptr_array_index (r->runs, 0);
  g_assert_cmpint (run->completed, ==, (gint64) ttft->len);
  CLOSE (stat (run, "ttft", "mean", R), mean_of ((double *) ttft->data, ttft->len), 1e-9);
  CLOSE (stat (run, "ttft", "p99", R), np_percentile ((double *) ttft->data, ttft->len, 99), 1e-9);
  /* the QPS is only in the file name: asked for, not guessed */
  g_assert_null (run->scenario.load_type);
}

static void
check_log (const char *name)
{
  g_autofree char *log_rel = g_strdup_printf ("vllm-server-logs/llmdplanner__%s.log", name);
  g_autofree char *run_rel = g_strdup_printf ("ground-truth-vllm-memory/llmdplanner__%s.run.json", name);
  g_autoptr (ProcuraImportResult) r = import_real (log_rel, "vllm-log");
  g_autoptr (JsonNode) root = NULL;
  JsonObject *truth, *args;
  ProcuraEngineLog *l;

  if (r == NULL)
    return;
  /* the run.json was parsed from the same log by llm-d-planner */
  root = load_plain (run_rel);
  truth = json_node_get_object (root);
  args = json_object_get_object_member (truth, "vllm_args");
  l = g_ptr_array_index (r->engine_logs, 0);
  g_assert_cmpstr (l->model, ==, json_object_get_string_member (truth, "model"));
  g_assert_cmpfloat (l->weights_gib, ==, json_object_get_double_member (truth, "weight_memory_gib"));
  g_assert_cmpfloat (l->kv_available_gib, ==, json_object_get_double_member (truth, "kv_cache_memory_gib"));
  g_assert_cmpint (l->kv_tokens, ==, json_object_get_int_member (truth, "kv_cache_tokens"));
  g_assert_cmpfloat (l->max_concurrency, ==, json_object_get_double_member (truth, "max_concurrency"));
  g_assert_cmpint (l->tp, ==, json_object_get_int_member (args, "tensor_parallel_size"));
  g_assert_cmpint (l->pp, ==, json_object_get_int_member (args, "pipeline_parallel_size"));
  g_assert_cmpint (l->max_model_len, ==, json_object_get_int_member (args, "max_model_len"));
  /* only when the log states it (non-default args): vLLM's default is not guessed */
  {
    g_autofree char *path = procura_test_real_fixture (log_rel);
    g_autofree char *text = NULL;
    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    if (strstr (text, "'gpu_memory_utilization': ") != NULL)
      g_assert_cmpfloat (l->gpu_memory_utilization, ==, json_object_get_double_member (args, "gpu_memory_utilization"));
    else
      g_assert_true (isnan (l->gpu_memory_utilization));
  }
  g_assert_cmpstr (l->engine_version, ==, "0.19.0");
  g_assert_cmpuint (l->errors->len, ==, 0);
}

static void
test_vllm_logs (void)
{
  static const char * const names[] = {
    "deepseek-ai-deepseek-v2---h100-80gb--tp1pp1dp1--8192",
    "google-gemma-2-9b-it--h100-80gb--tp1pp1dp1--8192",
    "meta-llama---h100-80gb--tp1pp1dp1--8192-dtbf16-kvfp8",
    "meta-llama-llama-3-1-8b---h100-80gb--tp1pp1dp1--8192",
    "mistralai-mixtral-8x7b-i--h100-80gb--tp2pp1dp1--8192",
    "openai-gpt-oss-20b--h100-80gb--tp2pp1dp1--8192",
    "qwen-qwen2-5-72b-instruc--h100-80gb--tp2pp1dp1--8192",
  };
  g_autoptr (ProcuraImportResult) fail = import_real ("vllm-server-logs/er0080__vllm_serve_no_kv_cache_memory_v0.25.1.log", "vllm-log");
  g_autoptr (ProcuraImportResult) small = NULL;
  ProcuraEngineLog *l;

  SKIP_IF_MISSING (fail);
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    check_log (names[i]);
  l = g_ptr_array_index (fail->engine_logs, 0);
  g_assert_cmpuint (l->errors->len, >=, 1);
  g_assert_cmpstr (g_ptr_array_index (l->errors, 0), ==, "No available memory for the cache blocks");
  g_assert_cmpstr (l->engine_version, ==, "0.25.1");
  g_assert_cmpuint (fail->warnings->len, >=, 1);

  small = import_real ("vllm-server-logs/dlee__vllm-7B-1gpuA10080GB-0.25GRAM.log", "vllm-log");
  l = g_ptr_array_index (small->engine_logs, 0);
  g_assert_cmpfloat (l->gpu_memory_utilization, ==, 0.25);
  g_assert_cmpfloat (l->weights_gib, ==, 14.2488);
  g_assert_cmpint (l->kv_tokens, ==, 93872);
  g_assert_cmpfloat (l->max_concurrency, ==, 5.73);
  g_assert_cmpfloat (l->cuda_graph_gib, ==, 0.50);
  g_assert_cmpstr (l->engine_version, ==, "0.10.1.1");
}

/* Every file of these formats imports: none refused, none crashes */
static void
test_every_file (void)
{
  static const char * const dirs[] = {
    "vllm-bench-serve", "vllm-bench-throughput-latency", "sglang-bench-serving", "guidellm",
    "genai-perf", "aiperf", "llmperf", "lmbench-csv", "vllm-server-logs",
  };
  g_autofree char *probe = procura_test_real_fixture ("vllm-bench-serve");
  guint n = 0;

  SKIP_IF_MISSING (probe);
  for (gsize d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autofree char *dir_path = procura_test_real_fixture (dirs[d]);
      g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
      const char *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir_path, name, NULL);
          g_autoptr (GError) error = NULL;
          g_autoptr (ProcuraImportResult) r = NULL;

          r = procura_import_file (path, NULL, NULL, &error);
          if (r == NULL)
            g_error ("%s: %s", name, error->message);
          g_assert_true (r->runs->len + r->engine_logs->len > 0);
          n++;
        }
    }
  g_assert_cmpuint (n, >=, 48);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/real/vllm-per-request", test_vllm_per_request);
  g_test_add_func ("/real/vllm-variants", test_vllm_variants);
  g_test_add_func ("/real/vllm-latency-throughput", test_vllm_latency_throughput);
  g_test_add_func ("/real/sglang", test_sglang);
  g_test_add_func ("/real/guidellm", test_guidellm);
  g_test_add_func ("/real/genai-perf-aiperf", test_genai_perf_aiperf);
  g_test_add_func ("/real/llmperf", test_llmperf);
  g_test_add_func ("/real/mlperf", test_mlperf);
  g_test_add_func ("/real/mlperf-refused", test_mlperf_refused);
  g_test_add_func ("/real/lmbench", test_lmbench);
  g_test_add_func ("/real/vllm-logs", test_vllm_logs);
  g_test_add_func ("/real/every-file", test_every_file);
  return g_test_run ();
}
