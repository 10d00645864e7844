/* test-import-variants.c: schema generations and variants of the harnesses, from the
 * project's own small files in tests/fixtures/import (written from the tools'
 * documentation), and engine logs with failed and repeated starts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "procura-import.h"
#include "procura-import-private.h"
#include "procura-test-util.h"

static ProcuraImportResult *
import_own (const char *file,
            const char *expect_format)
{
  g_autofree char *rel = g_build_filename ("import", file, NULL);
  g_autofree char *path = procura_test_fixture (rel);
  g_autoptr (GError) error = NULL;
  ProcuraImportResult *r = procura_import_file (path, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (r);
  g_assert_cmpstr (r->format, ==, expect_format);
  return r;
}

static gboolean
has_warning (GPtrArray  *warnings,
             const char *needle)
{
  for (guint i = 0; i < warnings->len; i++)
    if (strstr (g_ptr_array_index (warnings, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

static double
stat_of (const ProcuraRun *run,
         const char       *metric,
         const char       *stat)
{
  const ProcuraStat *s = procura_run_get_stat (run, metric, stat);
  return s ? s->value : NAN;
}

static void
test_sglang_2024 (void)
{
  g_autoptr (ProcuraImportResult) r = import_own ("sglang-2024-no-request-throughput.jsonl", "sglang-bench-serving");

  g_assert_cmpuint (r->runs->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      ProcuraRun *run = g_ptr_array_index (r->runs, i);

      /* completed / duration, each figure read from the file */
      g_assert_cmpfloat_with_epsilon (run->request_throughput,
                                      (double) run->completed / run->duration_s, 1e-9);
      g_assert_true (has_warning (run->warnings, "derived as completed / duration"));
    }
  g_assert_cmpfloat_with_epsilon (((ProcuraRun *) g_ptr_array_index (r->runs, 0))->request_throughput, 4.0, 1e-9);
}

static void
test_aiperf_010 (void)
{
  g_autoptr (ProcuraImportResult) r = import_own ("aiperf-0.10-v2-config.json", "aiperf");
  ProcuraRun *run;

  g_assert_cmpuint (r->runs->len, ==, 1);
  run = g_ptr_array_index (r->runs, 0);
  g_assert_cmpstr (run->scenario.model, ==, "meta-llama/Llama-3.1-8B-Instruct");
  /* the measured phase, not the warm-up */
  g_assert_cmpstr (run->scenario.load_type, ==, "concurrency");
  g_assert_cmpfloat (run->scenario.load_value, ==, 16);
  g_assert_cmpint (run->completed, ==, 320);
}

static void
test_aiperf_csv_telemetry (void)
{
  g_autoptr (ProcuraImportResult) r = import_own ("aiperf-telemetry.csv", "aiperf-csv");
  ProcuraRun *run;

  g_assert_cmpuint (r->runs->len, ==, 1);
  run = g_ptr_array_index (r->runs, 0);
  g_assert_cmpfloat (run->total_throughput, ==, 11300.0);
  g_assert_cmpfloat (run->output_throughput, ==, 1300.0);
  g_assert_cmpfloat (run->request_throughput, ==, 10.0);
  g_assert_cmpfloat (stat_of (run, "ttft", "p99"), ==, 350.7);
  g_assert_cmpstr (run->scenario.gpu_name, ==, "NVIDIA H100 80GB HBM3");
  g_assert_true (has_warning (run->warnings, "GPU telemetry table (3 rows)"));
  g_assert_cmpstr (r->format_version, ==, "aiperf-csv-telemetry");
}

static void
test_guidellm_08_model (void)
{
  g_autoptr (ProcuraImportResult) r = import_own ("guidellm-0.8-model-per-benchmark.json", "guidellm");

  g_assert_cmpuint (r->runs->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      ProcuraRun *run = g_ptr_array_index (r->runs, i);
      g_assert_cmpstr (run->scenario.model, ==, "Qwen/Qwen3-8B");
      g_assert_cmpstr (run->scenario.load_type, ==, "concurrency");
    }
  g_assert_cmpfloat (((ProcuraRun *) g_ptr_array_index (r->runs, 1))->scenario.load_value, ==, 16);
}

/* An empty model at the top and none per benchmark: no model, not the model "" */
static void
test_guidellm_empty_model (void)
{
  static const char data[] =
    "{\"metadata\": {\"version\": 2, \"guidellm_version\": \"0.8.0\"},"
    " \"config\": {\"spec\": {\"backend\": {\"model\": \"\"}}},"
    " \"benchmarks\": [{\"config\": {\"strategy\": {\"type_\": \"synchronous\"}}, \"duration\": 10,"
    "   \"metrics\": {\"request_totals\": {\"successful\": 5, \"errored\": 0},"
    "     \"time_to_first_token_ms\": {\"successful\": {\"mean\": 30.0}}}}]}";
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) r = procura_import_data ("g.json", data, strlen (data), NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (r->runs->len, ==, 1);
  g_assert_null (((ProcuraRun *) g_ptr_array_index (r->runs, 0))->scenario.model);
}

static void
test_guidellm_csv (void)
{
  g_autoptr (ProcuraImportResult) r = import_own ("guidellm-benchmarks.csv", "guidellm-csv");
  ProcuraRun *a, *b;

  g_assert_cmpuint (r->runs->len, ==, 2);
  a = g_ptr_array_index (r->runs, 0);
  b = g_ptr_array_index (r->runs, 1);
  g_assert_cmpstr (a->scenario.model, ==, "Qwen/Qwen3-8B");
  g_assert_cmpstr (a->scenario.load_type, ==, "concurrency");
  g_assert_cmpfloat (a->scenario.load_value, ==, 1);
  g_assert_cmpstr (b->scenario.load_type, ==, "throughput");
  g_assert_cmpint (a->completed, ==, 40);
  g_assert_cmpint (b->failed, ==, 3);
  /* request latency is in seconds in the file */
  g_assert_cmpfloat_with_epsilon (stat_of (a, "e2e", "mean"), 750.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (stat_of (a, "e2e", "p99"), 980.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (stat_of (b, "ttft", "p90"), 690.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (stat_of (b, "ttft", "max"), 1300.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (stat_of (a, "tpot", "mean"), 5.7, 1e-9);
  g_assert_cmpfloat (b->request_throughput, ==, 20.0);
  g_assert_cmpfloat (b->total_throughput, ==, 12800.0);
  g_assert_true (has_warning (b->warnings, "12 requests were incomplete"));
}

static void
test_vllm_validation_error (void)
{
  g_autoptr (ProcuraImportResult) r = import_own ("vllm-validation-error.log", "vllm-log");
  ProcuraEngineLog *l;

  g_assert_cmpuint (r->engine_logs->len, ==, 1);
  l = g_ptr_array_index (r->engine_logs, 0);
  g_assert_cmpstr (l->engine_version, ==, "0.11.0");
  g_assert_cmpstr (l->model, ==, "Qwen/Qwen3-8B");
  g_assert_cmpint (l->max_model_len, ==, 262144);
  g_assert_cmpuint (l->errors->len, ==, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (l->errors, 0),
                                   "User-specified max_model_len (262144) is greater than the derived max_model_len"));
  g_assert_null (strstr (g_ptr_array_index (l->errors, 0), "[type="));
  g_assert_true (has_warning (r->warnings, "the engine failed to start: User-specified max_model_len"));
}

static void
test_vllm_two_starts (void)
{
  g_autoptr (ProcuraImportResult) r = import_own ("vllm-two-starts.log", "vllm-log");
  ProcuraEngineLog *first, *second;

  g_assert_cmpuint (r->engine_logs->len, ==, 2);
  first = g_ptr_array_index (r->engine_logs, 0);
  second = g_ptr_array_index (r->engine_logs, 1);
  /* the failed start keeps its own settings and error, the restart its own figures */
  g_assert_cmpfloat (first->gpu_memory_utilization, ==, 0.3);
  g_assert_cmpfloat (second->gpu_memory_utilization, ==, 0.9);
  g_assert_cmpuint (first->errors->len, >=, 1);
  g_assert_cmpstr (g_ptr_array_index (first->errors, 0), ==, "No available memory for the cache blocks");
  g_assert_cmpuint (second->errors->len, ==, 0);
  g_assert_cmpint (first->kv_tokens, <, 0);
  g_assert_true (isnan (first->kv_available_gib));
  g_assert_cmpint (second->kv_tokens, ==, 766816);
  g_assert_cmpfloat (second->kv_available_gib, ==, 105.31);
  g_assert_cmpfloat (first->weights_gib, ==, 15.27);
  g_assert_true (has_warning (r->warnings, "start 1 of 2: the engine failed to start"));
  g_assert_false (has_warning (r->warnings, "start 2 of 2"));
}

static void
test_bad_data (void)
{
  g_autoptr (ProcuraImportResult) r = import_own ("vllm-bad-data.json", "vllm-bench-serve");
  ProcuraRun *run;
  const char *label;

  g_assert_cmpuint (r->runs->len, ==, 1);
  run = g_ptr_array_index (r->runs, 0);
  label = run->label;
  g_assert_nonnull (label);
  /* each warning names the run */
  for (guint i = 0; i < run->warnings->len; i++)
    if (strstr (g_ptr_array_index (run->warnings, i), "per-request values are negative")
        || strstr (g_ptr_array_index (run->warnings, i), "req/s although"))
      g_assert_nonnull (strstr (g_ptr_array_index (run->warnings, i), label));
  g_assert_true (has_warning (run->warnings, "the request throughput is 0 req/s although 6 requests completed"));
  g_assert_true (has_warning (run->warnings, "1 of 6 successful requests produced no output token"));
  g_assert_true (has_warning (run->warnings, "every inter-token latency value is 0 ms"));
  g_assert_true (has_warning (run->warnings, "ttft: 1 of 6 per-request values are negative"));
  g_assert_true (has_warning (run->warnings, "the key “mean_ttft_ms” appears twice"));
  g_assert_true (has_warning (r->warnings, "the key “mean_ttft_ms” appears twice"));
}

static void
test_bad_data_rate_and_infinity (void)
{
  static const char rate[] =
    "{\"backend\": \"vllm\", \"model_id\": \"m\", \"request_rate\": 20.0, \"duration\": 10.0,"
    " \"completed\": 50, \"failed\": 0, \"request_throughput\": 5.0, \"output_throughput\": 500.0,"
    " \"mean_ttft_ms\": 40.0, \"median_ttft_ms\": 38.0, \"p99_ttft_ms\": 80.0}";
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) a = procura_import_data ("rate.json", rate, strlen (rate),
                                                           "vllm-bench-serve", NULL, &error);
  g_autoptr (ProcuraImportResult) b = NULL;
  ProcuraRun *run;

  g_assert_no_error (error);
  run = g_ptr_array_index (a->runs, 0);
  g_assert_true (has_warning (run->warnings, "the achieved rate (5 req/s) is 25% of the configured rate (20 req/s)"));

  b = import_own ("sglang-infinite-samples.jsonl", "sglang-bench-serving");
  run = g_ptr_array_index (b->runs, 0);
  g_assert_true (has_warning (run->warnings, "ttft: 1 of 4 per-request values are infinite"));
  /* the recomputed statistics leave the infinite sample out */
  g_assert_true (isfinite (procura_run_get_stat (run, "ttft", "max")->value));
  g_assert_cmpint (procura_run_get_stat (run, "ttft", "max")->samples, ==, 3);
}

static void
test_aiperf_multi_run (void)
{
  g_autoptr (ProcuraImportResult) a = import_own ("aiperf-multi-run-aggregate.json", "aiperf-aggregate");
  g_autoptr (ProcuraImportResult) c = import_own ("aiperf-multi-run-collated.json", "aiperf-aggregate");
  ProcuraRun *run;

  g_assert_cmpuint (a->runs->len, ==, 1);
  run = g_ptr_array_index (a->runs, 0);
  g_assert_cmpstr (a->format_version, ==, "aiperf-aggregate");
  g_assert_cmpfloat (run->request_throughput, ==, 12.0);
  g_assert_cmpfloat (run->output_throughput, ==, 1536.0);
  g_assert_cmpfloat (stat_of (run, "ttft", "mean"), ==, 85.0);
  g_assert_cmpfloat (stat_of (run, "ttft", "p99"), ==, 240.0);
  g_assert_cmpfloat (stat_of (run, "tpot", "mean"), ==, 9.5);
  g_assert_cmpfloat (stat_of (run, "e2e", "p99"), ==, 1900.0);
  g_assert_cmpstr (run->label, ==, "mean of 5 runs");
  g_assert_true (has_warning (run->warnings, "the mean over 5 runs"));
  g_assert_true (has_warning (run->warnings, "confidence interval"));

  run = g_ptr_array_index (c->runs, 0);
  g_assert_cmpstr (c->format_version, ==, "aiperf-collated");
  g_assert_cmpint (run->completed, ==, 2500);
  g_assert_cmpfloat (stat_of (run, "ttft", "p90"), ==, 130.0);
  g_assert_cmpfloat (stat_of (run, "e2e", "mean"), ==, 1200.0);
  g_assert_cmpstr (run->label, ==, "5 runs pooled");
  /* AIPerf's collated layout: metrics.<tag>.combined, no units (ms), the ISL pooled too */
  g_assert_cmpfloat (run->input_tokens_mean, ==, 1024.0);
  g_assert_cmpfloat (stat_of (run, "ttft", "p99"), ==, 250.0);

  /* a failed run is named in metadata.failed_runs: the figures leave it out, and say so */
  {
    static const char text[] =
      "{\"schema_version\": \"1.0\", \"metadata\": {\"aggregation_type\": \"confidence\", \"num_profile_runs\": 3,"
      " \"num_successful_runs\": 2, \"failed_runs\": [{\"label\": \"run_0002\", \"error\": \"timeout\"}]},"
      " \"metrics\": {\"request_throughput_avg\": {\"mean\": 4.0, \"ci_low\": 3.5, \"ci_high\": 4.5, \"t_critical\": 12.7,"
      " \"unit\": \"requests/sec\"}, \"time_to_first_token_p99\": {\"mean\": 300.0, \"unit\": \"ms\"}}}";
    g_autoptr (GError) error = NULL;
    g_autoptr (ProcuraImportResult) f = procura_import_data ("agg.json", text, strlen (text), NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (f->format, ==, "aiperf-aggregate");
    run = g_ptr_array_index (f->runs, 0);
    g_assert_cmpfloat (run->request_throughput, ==, 4.0);
    g_assert_cmpstr (run->label, ==, "mean of 2 runs");
    g_assert_true (has_warning (run->warnings, "1 of the runs failed"));
    g_assert_true (has_warning (run->warnings, "confidence interval 3.5 to 4.5 req/s"));
  }
}

static void
test_guidellm_yaml (void)
{
  g_autoptr (ProcuraImportResult) r = import_own ("guidellm-benchmarks.yaml", "guidellm-yaml");
  ProcuraRun *run;

  g_assert_cmpstr (r->format_version, ==, "guidellm-v1-yaml");
  g_assert_cmpuint (r->runs->len, ==, 1);
  run = g_ptr_array_index (r->runs, 0);
  g_assert_cmpstr (run->scenario.model, ==, "Qwen/Qwen3-8B");
  g_assert_cmpstr (run->scenario.load_type, ==, "rate");
  g_assert_cmpfloat (run->scenario.load_value, ==, 2.5);
  g_assert_cmpint (run->completed, ==, 148);
  g_assert_cmpint (run->failed, ==, 2);
  g_assert_cmpfloat (stat_of (run, "ttft", "p99"), ==, 80.5);
  g_assert_cmpfloat_with_epsilon (stat_of (run, "e2e", "p90"), 1100.0, 1e-9);
  g_assert_cmpfloat (run->request_throughput, ==, 2.47);
}

/* YAML the subset does not read is refused with its line */
static void
test_yaml_refused (void)
{
  static const char *bad[][2] = {
    { "benchmarks:\n- &a x\n", ":2:" },
    { "benchmarks:\n  text: |\n    x\n", ":2:" },
    { "benchmarks:\n\t- x\n", ":2:" },
    { "benchmarks:\n  a: 1\n a: 2\n", ":3:" },
    { "benchmarks:\n  a: \"open\n", ":2:" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ProcuraImportResult) r = procura_import_data ("b.yaml", bad[i][0], strlen (bad[i][0]),
                                                               "guidellm-yaml", NULL, &error);
      g_assert_null (r);
      g_assert_nonnull (error);
      if (strstr (error->message, bad[i][1]) == NULL)
        g_error ("case %" G_GSIZE_FORMAT ": %s", i, error->message);
    }
}

/* The real YAML twin gives the runs of its JSON file */
static void
test_guidellm_yaml_twin (void)
{
  g_autofree char *json = procura_test_real_fixture ("guidellm/guidellmTest__benchmarks_stripped.json");
  g_autofree char *yaml = procura_test_real_fixture ("guidellm/guidellmTest__benchmarks_stripped.yaml");
  g_autoptr (ProcuraImportResult) a = NULL;
  g_autoptr (ProcuraImportResult) b = NULL;
  g_autoptr (GError) error = NULL;

  if (json == NULL || yaml == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  a = procura_import_file (json, NULL, NULL, &error);
  g_assert_no_error (error);
  b = procura_import_file (yaml, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (b->format, ==, "guidellm-yaml");
  g_assert_cmpuint (a->runs->len, ==, b->runs->len);
  g_assert_cmpuint (a->runs->len, >, 0);
  for (guint i = 0; i < a->runs->len; i++)
    {
      ProcuraRun *x = g_ptr_array_index (a->runs, i), *y = g_ptr_array_index (b->runs, i);

      g_assert_cmpstr (x->label, ==, y->label);
      g_assert_cmpstr (x->scenario.model, ==, y->scenario.model);
      g_assert_cmpint (x->completed, ==, y->completed);
      g_assert_cmpfloat (x->request_throughput, ==, y->request_throughput);
      g_assert_cmpuint (x->stats->len, ==, y->stats->len);
      g_assert_cmpuint (x->stats->len, >, 0);
      for (guint k = 0; k < x->stats->len; k++)
        {
          const ProcuraStat *sx = g_ptr_array_index (x->stats, k);
          g_assert_cmpfloat (stat_of (y, sx->metric, sx->stat), ==, sx->value);
        }
    }
}

/* Published results: InferenceX, per-configuration file and dashboard rows */
static void
test_inferencex (void)
{
  g_autofree char *one = procura_test_real_fixture ("public-datasets/inferencex/SemiAnalysisAI__inferencex-agg-kimik2.5-1k1k-int4-vllm-mi355x-tp8-conc4.json");
  g_autofree char *rows = procura_test_real_fixture ("public-datasets/inferencex/SemiAnalysisAI__inferencex-app-api-benchmarks-dsr1-snapshot.json");
  g_autoptr (ProcuraImportResult) a = NULL;
  g_autoptr (ProcuraImportResult) b = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *src;
  ProcuraRun *run;

  if (one == NULL || rows == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  a = procura_import_file (one, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (a->format, ==, "inferencex");
  g_assert_cmpuint (a->runs->len, ==, 1);
  run = g_ptr_array_index (a->runs, 0);
  /* figures checked against the file itself, read here with json-glib */
  g_assert_true (json_parser_load_from_file (parser, one, NULL));
  src = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (run->scenario.gpu_name, ==, json_object_get_string_member (src, "hw"));
  g_assert_cmpint (run->scenario.tp, ==, json_object_get_int_member (src, "tp"));
  g_assert_cmpint (run->scenario.gpu_count, ==, json_object_get_int_member (src, "tp"));
  g_assert_cmpstr (run->scenario.engine_version, ==, "0.21.0");
  g_assert_cmpfloat (run->scenario.load_value, ==, json_object_get_int_member (src, "conc"));
  g_assert_cmpfloat_with_epsilon (stat_of (run, "ttft", "p99"),
                                  1000.0 * json_object_get_double_member (src, "p99_ttft"), 1e-9);
  g_assert_cmpfloat_with_epsilon (run->total_throughput,
                                  json_object_get_double_member (src, "tput_per_gpu") * json_object_get_int_member (src, "tp"),
                                  1e-9);
  g_assert_true (has_warning (run->warnings, "published third-party result (SemiAnalysis InferenceX"));
  g_assert_nonnull (strstr (run->extras_json, "\"third_party\""));
  g_assert_nonnull (strstr (run->extras_json, "Apache-2.0"));

  b = procura_import_file (rows, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (b->format_version, ==, "inferencex-dashboard");
  g_assert_cmpuint (b->runs->len, ==, 435);
  for (guint i = 0; i < b->runs->len; i++)
    {
      run = g_ptr_array_index (b->runs, i);
      g_assert_nonnull (run->scenario.gpu_name);
      g_assert_cmpint (run->scenario.gpu_count, >, 0);
      g_assert_nonnull (strstr (run->extras_json, "\"date\""));
      g_assert_nonnull (strstr (run->extras_json, "\"source\":\"https://github.com/SemiAnalysisAI/"));
    }
}

/* MLPerf Inference results summaries: the LLM rows, with the system's GPU count */
static void
test_mlperf_results (void)
{
  g_autofree char *path = procura_test_real_fixture ("public-datasets/mlperf/mlcommons__inference-results-v5.1-summary_results.json");
  g_autoptr (ProcuraImportResult) r = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *rows;
  guint llm = 0, k = 0;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  r = procura_import_file (path, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (r->format, ==, "mlperf-results");
  g_assert_cmpstr (r->format_version, ==, "mlperf-results-v5.1");
  /* every "Tokens/s" row of the file, in order, counted here independently */
  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  rows = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      ProcuraRun *run;

      if (g_strcmp0 (json_object_get_string_member_with_default (row, "Performance_Units", ""), "Tokens/s") != 0)
        continue;
      llm++;
      run = g_ptr_array_index (r->runs, k++);
      g_assert_cmpfloat (run->output_throughput, ==, json_object_get_double_member (row, "Performance_Result"));
      {
        gint64 gpus = json_object_get_int_member (row, "a#") * json_object_get_int_member (row, "Nodes");
        g_assert_cmpint (run->scenario.gpu_count, ==, gpus >= 1 ? gpus : -1);
      }
      {
        const char *acc = json_object_get_string_member (row, "Accelerator");
        g_assert_cmpstr (run->scenario.gpu_name, ==, *acc ? acc : NULL);
      }
      g_assert_nonnull (strstr (run->extras_json, "\"third_party\""));
    }
  g_assert_cmpuint (llm, >, 100);
  g_assert_cmpuint (r->runs->len, ==, llm);
  g_assert_cmpuint (r->warnings->len, >=, 1);
}

/* llm-d-benchmark's standard report, v0.2, as YAML: the converter's golden file and the
 * maintainers' annotated example (flow mappings with quoted keys, comments, .inf) */
static void
test_llmd_report (void)
{
  g_autofree char *golden = procura_test_real_fixture ("public-datasets/llm-d/llm-d__benchmark-report-v0.2-golden-vllm-benchmark.yaml");
  g_autofree char *example = procura_test_real_fixture ("public-datasets/llm-d/llm-d__benchmark-report-v0.2-example-dummy.yaml");
  g_autoptr (ProcuraImportResult) a = NULL;
  g_autoptr (ProcuraImportResult) b = NULL;
  g_autoptr (GError) error = NULL;
  ProcuraRun *run;

  if (golden == NULL || example == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  a = procura_import_file (golden, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (a->format, ==, "llmd-report");
  g_assert_cmpstr (a->format_version, ==, "llmd-report-0.2-yaml");
  run = g_ptr_array_index (a->runs, 0);
  /* as the file states them: 200 requests, 2 failures, TTFT p99 114.7431 ms, p99.9 as "p99p9" */
  g_assert_cmpint (run->completed, ==, 198);
  g_assert_cmpint (run->failed, ==, 2);
  g_assert_cmpfloat (stat_of (run, "ttft", "p99"), ==, 114.7431);
  g_assert_cmpfloat (stat_of (run, "e2e", "p99.9"), ==, 17033.3706);
  g_assert_cmpfloat (stat_of (run, "itl", "std"), ==, 1.5556);
  g_assert_cmpfloat (run->request_throughput, ==, 5.0761);
  g_assert_cmpstr (run->scenario.load_type, ==, "rate");
  g_assert_cmpfloat (run->scenario.load_value, ==, 8.0);
  g_assert_true (has_warning (run->warnings, "the achieved rate (5.076 req/s) is 63% of the configured rate"));

  b = procura_import_file (example, NULL, NULL, &error);
  g_assert_no_error (error);
  run = g_ptr_array_index (b->runs, 0);
  g_assert_cmpstr (run->scenario.model, ==, "Qwen/Qwen3-0.6B");
  g_assert_cmpstr (run->scenario.gpu_name, ==, "NVIDIA-H100-80GB-HBM3");
  g_assert_cmpint (run->scenario.tp, ==, 8);
  /* replicas: 2 of accelerator.count 8 (TP 8): the run measured both */
  g_assert_cmpint (run->scenario.gpu_count, ==, 16);
  g_assert_true (has_warning (run->warnings, "2 engine replicas of 8 GPU(s) each"));
  g_assert_nonnull (strstr (run->extras_json, "\"replicas\":2"));
}

/* SGLang runs inside a vLLM-format file (--metadata framework=sgl): the engine the file
 * states, not the client backend's name */
static void
test_engine_from_metadata (void)
{
  static const char line[] =
    "{\"backend\": \"vllm\", \"model_id\": \"m\", \"framework\": \"%s\", \"request_rate\": 1.0,"
    " \"completed\": 10, \"duration\": 10.0, \"request_throughput\": 1.0, \"mean_ttft_ms\": 40.0}";
  static const char *cases[][2] = { { "sgl", "sglang" }, { "vllm", "vllm" }, { "TRT", "tensorrt-llm" } };
  g_autofree char *path = procura_test_real_fixture ("vllm-bench-serve/nerdalert__results_append.jsonl");

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf (line, cases[i][0]);
      g_autoptr (GError) error = NULL;
      g_autoptr (ProcuraImportResult) r = procura_import_data ("m.json", text, strlen (text), "vllm-bench-serve",
                                                               NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (((ProcuraRun *) g_ptr_array_index (r->runs, 0))->scenario.engine, ==, cases[i][1]);
    }
  /* the real file: each line says its framework */
  if (path != NULL)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ProcuraImportResult) r = procura_import_file (path, NULL, NULL, &error);
      guint sgl = 0;

      g_assert_no_error (error);
      for (guint i = 0; i < r->runs->len; i++)
        if (g_strcmp0 (((ProcuraRun *) g_ptr_array_index (r->runs, i))->scenario.engine, "sglang") == 0)
          sgl++;
      g_assert_cmpuint (sgl, ==, 6);
    }
}

/* The line splitter of the text importers: g_strsplit (text, "\n", -1)'s pieces */
static void
test_split_lines (void)
{
  static const char * const texts[] = { "", "a", "a\n", "\n", "a\nb", "\n\n", "a\r\nb\n\nc", "  x \n y" };

  for (gsize i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_auto (GStrv) want = g_strsplit (texts[i], "\n", -1);
      g_auto (GStrv) got = procura_import_split_lines (texts[i]);

      g_assert_cmpuint (g_strv_length (got), ==, g_strv_length (want));
      g_assert_true (g_strv_equal ((const char * const *) got, (const char * const *) want));
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/import/variants/sglang-2024", test_sglang_2024);
  g_test_add_func ("/import/variants/aiperf-0.10", test_aiperf_010);
  g_test_add_func ("/import/variants/aiperf-csv-telemetry", test_aiperf_csv_telemetry);
  g_test_add_func ("/import/variants/guidellm-0.8-model", test_guidellm_08_model);
  g_test_add_func ("/import/variants/guidellm-empty-model", test_guidellm_empty_model);
  g_test_add_func ("/import/variants/guidellm-csv", test_guidellm_csv);
  g_test_add_func ("/import/variants/vllm-validation-error", test_vllm_validation_error);
  g_test_add_func ("/import/variants/vllm-two-starts", test_vllm_two_starts);
  g_test_add_func ("/import/variants/bad-data", test_bad_data);
  g_test_add_func ("/import/variants/bad-data-rate-infinity", test_bad_data_rate_and_infinity);
  g_test_add_func ("/import/variants/aiperf-multi-run", test_aiperf_multi_run);
  g_test_add_func ("/import/variants/guidellm-yaml", test_guidellm_yaml);
  g_test_add_func ("/import/variants/yaml-refused", test_yaml_refused);
  g_test_add_func ("/import/variants/guidellm-yaml-twin", test_guidellm_yaml_twin);
  g_test_add_func ("/import/variants/inferencex", test_inferencex);
  g_test_add_func ("/import/variants/mlperf-results", test_mlperf_results);
  g_test_add_func ("/import/variants/llmd-report", test_llmd_report);
  g_test_add_func ("/import/variants/engine-from-metadata", test_engine_from_metadata);
  g_test_add_func ("/import/variants/split-lines", test_split_lines);
  return g_test_run ();
}
