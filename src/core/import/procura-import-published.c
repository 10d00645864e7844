/* procura-import-published.c: published third-party results, SemiAnalysis InferenceX
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two shapes of the same figures: a per-configuration result file written by
 * InferenceX's result processing ({hw, conc, model, framework, precision, tp, ep, isl,
 * osl, tput_per_gpu, mean_ttft, p99_ttft ...}), and the rows of the public dashboard's
 * benchmarks API ([{hardware, framework, model, precision, prefill_tp, decode_tp,
 * num_prefill_gpu, num_decode_gpu, isl, osl, conc, image, date, run_url, metrics:{...}}]).
 * Latencies are in SECONDS; throughput is per GPU. Every run is marked third-party, with
 * its publisher, licence, date and source in the extras and a warning.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-import-private.h"
#include "procura-yaml.h"

#define PUBLISHER "SemiAnalysis InferenceX"
#define LICENCE "Apache-2.0, with attribution to SemiAnalysis"

static const struct {
  const char *suffix;
  const char *metric;
} ix_metrics[] = {
  { "ttft", "ttft" },
  { "tpot", "tpot" },
  { "itl", "itl" },
  { "e2el", "e2e" },
};

static const struct {
  const char *prefix;
  const char *stat;
} ix_stats[] = {
  { "mean", "mean" }, { "median", "p50" }, { "std", "std" }, { "p90", "p90" }, { "p99", "p99" }, { "p99.9", "p99.9" },
};

static double
num (JsonObject *o,
     const char *key)
{
  JsonNode *n = o ? json_object_get_member (o, key) : NULL;

  if (n && JSON_NODE_HOLDS_VALUE (n) && (json_node_get_value_type (n) == G_TYPE_INT64
                                         || json_node_get_value_type (n) == G_TYPE_DOUBLE))
    return json_node_get_double (n);
  return NAN;
}

static const char *
str (JsonObject *o,
     const char *key)
{
  JsonNode *n = o ? json_object_get_member (o, key) : NULL;

  if (n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING
      && *json_node_get_string (n) != '\0')
    return json_node_get_string (n);
  return NULL;
}

static gboolean
truthy (JsonObject *o,
        const char *key)
{
  JsonNode *n = o ? json_object_get_member (o, key) : NULL;

  if (n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_BOOLEAN)
    return json_node_get_boolean (n);
  return g_strcmp0 (str (o, key), "true") == 0;
}

static int
count_of (double v)
{
  return (v >= 1 && v < 1e6 && v == floor (v)) ? (int) v : -1;
}

/* "trt" -> "tensorrt-llm"; "dynamo-sglang" stays as it is */
static char *
engine_of (const char *framework)
{
  if (framework == NULL)
    return NULL;
  if (g_str_equal (framework, "trt"))
    return g_strdup ("tensorrt-llm");
  return g_ascii_strdown (framework, -1);
}

/* the image tag: "vllm/vllm-openai-rocm:v0.21.0" -> "0.21.0" */
static char *
version_of (const char *image)
{
  const char *colon = image ? strrchr (image, ':') : NULL;

  if (colon == NULL || colon[1] == '\0')
    return NULL;
  colon++;
  if (*colon == 'v' && g_ascii_isdigit (colon[1]))
    colon++;
  return g_strdup (colon);
}

/* One configuration: @cfg holds the scenario, @m the figures (the same object for the
 * per-configuration file) */
static void
add_config (ProcuraImportResult *result,
            JsonObject          *cfg,
            JsonObject          *m,
            guint                index)
{
  g_autoptr (ProcuraRun) run = procura_run_new ();
  g_autoptr (JsonObject) extras = json_object_new ();
  g_autoptr (JsonObject) third = json_object_new ();
  const char *hw = str (cfg, "hw") ? str (cfg, "hw") : str (cfg, "hardware");
  const char *date = str (cfg, "date");
  const char *url = str (cfg, "run_url");
  gboolean disagg = truthy (cfg, "disagg");
  double gpus = NAN, per_gpu, conc = num (cfg, "conc");

  run->scenario.model = g_strdup (str (cfg, "model"));
  run->scenario.engine = engine_of (str (cfg, "framework"));
  run->scenario.engine_version = version_of (str (cfg, "image"));
  run->scenario.gpu_name = g_strdup (hw);
  if (disagg || !isnan (num (cfg, "num_prefill_gpu")))
    {
      double p = num (cfg, "num_prefill_gpu"), d = num (cfg, "num_decode_gpu");
      if (!isnan (p) && !isnan (d))
        gpus = p + d;
      if (!disagg)
        run->scenario.tp = count_of (num (cfg, "decode_tp"));
    }
  else
    {
      run->scenario.tp = count_of (num (cfg, "tp"));
      gpus = num (cfg, "tp");
    }
  run->scenario.gpu_count = count_of (gpus);
  if (!isnan (conc))
    {
      run->scenario.load_type = g_strdup ("concurrency");
      run->scenario.load_value = conc;
    }
  run->scenario.input_len = num (cfg, "isl");
  run->scenario.output_len = num (cfg, "osl");

  for (gsize i = 0; i < G_N_ELEMENTS (ix_metrics); i++)
    for (gsize k = 0; k < G_N_ELEMENTS (ix_stats); k++)
      {
        g_autofree char *key = g_strdup_printf ("%s_%s", ix_stats[k].prefix, ix_metrics[i].suffix);
        procura_import_reported (run, ix_metrics[i].metric, ix_stats[k].stat, num (m, key), 1000.0);
      }
  /* throughput per GPU times the GPUs: the whole deployment's */
  per_gpu = num (m, "tput_per_gpu");
  if (!isnan (per_gpu) && run->scenario.gpu_count > 0)
    run->total_throughput = per_gpu * run->scenario.gpu_count;
  per_gpu = num (m, "output_tput_per_gpu");
  if (!isnan (per_gpu) && run->scenario.gpu_count > 0)
    run->output_throughput = per_gpu * run->scenario.gpu_count;
  if (run->scenario.gpu_count > 0 && (!isnan (run->total_throughput) || !isnan (run->output_throughput)))
    procura_run_add_warning (run, "the file gives throughput per GPU: the run's throughput is that times its %d GPUs",
                             run->scenario.gpu_count);
  else if (!isnan (num (m, "tput_per_gpu")))
    procura_run_add_warning (run, "the file gives throughput per GPU (%.4g tok/s) but not the GPU count: "
                             "the run's throughput is unknown", num (m, "tput_per_gpu"));

  json_object_set_string_member (third, "publisher", PUBLISHER);
  json_object_set_string_member (third, "licence", LICENCE);
  if (date)
    json_object_set_string_member (third, "date", date);
  if (url)
    json_object_set_string_member (third, "source", url);
  json_object_set_object_member (extras, "third_party", json_object_ref (third));
  for (const char * const *k = (const char * const[]) { "precision", "spec_decoding", "spec_method", "ep",
                                                        "dp_attention", "image", NULL }; *k; k++)
    {
      JsonNode *n = json_object_get_member (cfg, *k);
      if (n != NULL && !JSON_NODE_HOLDS_NULL (n) && !JSON_NODE_HOLDS_OBJECT (n) && !JSON_NODE_HOLDS_ARRAY (n))
        json_object_set_member (extras, *k, json_node_copy (n));
    }
  for (const char * const *k = (const char * const[]) { "mean_intvty", "median_intvty", "p99_intvty", "avg_power_w",
                                                        "joules_per_output_token", NULL }; *k; k++)
    if (!isnan (num (m, *k)))
      json_object_set_double_member (extras, *k, num (m, *k));
  {
    g_autoptr (JsonNode) node = json_node_init_object (json_node_alloc (), extras);
    run->extras_json = json_to_string (node, FALSE);
  }
  procura_run_add_warning (run, "published third-party result (%s, %s%s%s): not measured on your "
                           "deployment; check its scenario against the brief", PUBLISHER, LICENCE,
                           date ? ", " : "", date ? date : "");
  {
    char in[32] = "?", out[32] = "?";

    if (!isnan (run->scenario.input_len))
      g_snprintf (in, sizeof in, "%g", run->scenario.input_len);
    if (!isnan (run->scenario.output_len))
      g_snprintf (out, sizeof out, "%g", run->scenario.output_len);
    run->label = g_strdup_printf ("%s %s %s, %s/%s, concurrency %g (row %u)", hw ? hw : "?",
                                  run->scenario.engine ? run->scenario.engine : "?",
                                  str (cfg, "precision") ? str (cfg, "precision") : "",
                                  in, out, conc, index + 1);
  }
  g_ptr_array_add (result->runs, g_steal_pointer (&run));
}

static gboolean
parse_inferencex (const char          *name,
                  const char          *data,
                  gsize                len,
                  ProcuraImportResult *result,
                  GCancellable        *cancellable,
                  GError             **error)
{
  g_autoptr (JsonNode) root = procura_json_parse (name, data, len, 0, PROCURA_JSON_ALLOW_NONFINITE, error);

  if (root == NULL)
    return FALSE;
  if (JSON_NODE_HOLDS_OBJECT (root))
    {
      JsonObject *o = json_node_get_object (root);
      if (str (o, "hw") == NULL || isnan (num (o, "tput_per_gpu")))
        {
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                       _("%s: $: expected an InferenceX result with \"hw\" and \"tput_per_gpu\""), name);
          return FALSE;
        }
      add_config (result, o, o, 0);
      result->format_version = g_strdup ("inferencex-result");
      return TRUE;
    }
  if (JSON_NODE_HOLDS_ARRAY (root))
    {
      JsonArray *a = json_node_get_array (root);

      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          JsonNode *e = json_array_get_element (a, i);
          JsonObject *row, *m;
          JsonNode *mn;

          if ((i & 255) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;
          if (!JSON_NODE_HOLDS_OBJECT (e))
            {
              g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                           _("%s: $[%u]: expected a benchmark row (an object), found %s"), name, i,
                           procura_json_node_type_name (e));
              return FALSE;
            }
          row = json_node_get_object (e);
          mn = json_object_get_member (row, "metrics");
          if (mn == NULL || !JSON_NODE_HOLDS_OBJECT (mn) || str (row, "hardware") == NULL)
            {
              g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                           _("%s: $[%u]: expected \"hardware\" and a \"metrics\" object (an InferenceX dashboard row)"),
                           name, i);
              return FALSE;
            }
          m = json_node_get_object (mn);
          add_config (result, row, m, i);
        }
      result->format_version = g_strdup ("inferencex-dashboard");
      return TRUE;
    }
  g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
               _("%s: $: expected an InferenceX result object or a list of dashboard rows, found %s"), name,
               procura_json_node_type_name (root));
  return FALSE;
}

static int
sniff_inferencex (const char *data,
                  gsize       len)
{
  char first = procura_sniff_first_char (data, len);

  if (first == '{' && procura_sniff_has (data, len, "\"hw\"") && procura_sniff_has (data, len, "\"tput_per_gpu\"")
      && procura_sniff_has (data, len, "\"mean_ttft\""))
    return 90;
  if (first == '[' && procura_sniff_has (data, len, "\"hardware\"") && procura_sniff_has (data, len, "\"tput_per_gpu\"")
      && procura_sniff_has (data, len, "\"metrics\"") && procura_sniff_has (data, len, "\"conc\""))
    return 90;
  return 0;
}

const ProcuraImporter procura_importer_inferencex = {
  "inferencex",
  "SemiAnalysis InferenceX published results (result JSON, dashboard rows)",
  sniff_inferencex,
  parse_inferencex,
};

/* ------------------------------------------------------------------------- */
/* MLPerf Inference results summary (summary_results.json of a results round): one
 * row per system × model × scenario. Only the LLM rows are runs (Performance_Units
 * "Tokens/s": the whole system's output tokens per second, under the scenario's
 * TTFT/TPOT constraints for Server and Interactive); the others are counted. */

static char *
engine_from_software (const char *software)
{
  g_autofree char *lower = software ? g_ascii_strdown (software, -1) : NULL;

  if (lower == NULL)
    return NULL;
  if (strstr (lower, "vllm"))
    return g_strdup ("vllm");
  if (strstr (lower, "sglang"))
    return g_strdup ("sglang");
  if (strstr (lower, "tensorrt"))
    return g_strdup ("tensorrt-llm");
  return NULL;
}

static gboolean
parse_mlperf_results (const char          *name,
                      const char          *data,
                      gsize                len,
                      ProcuraImportResult *result,
                      GCancellable        *cancellable,
                      GError             **error)
{
  g_autoptr (JsonNode) root = procura_json_parse (name, data, len, 0, PROCURA_JSON_ALLOW_NONFINITE, error);
  JsonArray *a;
  guint other = 0, bad = 0;
  const char *round = NULL;

  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $: expected the list of an MLPerf round's results, found %s"), name,
                   procura_json_node_type_name (root));
      return FALSE;
    }
  a = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      g_autoptr (ProcuraRun) run = NULL;
      g_autoptr (JsonObject) extras = NULL;
      g_autoptr (JsonObject) third = NULL;
      JsonObject *row;
      const char *scenario, *units, *version, *details;
      double value, per_node, nodes;

      if ((i & 255) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!JSON_NODE_HOLDS_OBJECT (e))
        {
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                       _("%s: $[%u]: expected a result row (an object), found %s"), name, i,
                       procura_json_node_type_name (e));
          return FALSE;
        }
      row = json_node_get_object (e);
      units = str (row, "Performance_Units");
      if (units == NULL || g_ascii_strcasecmp (units, "Tokens/s") != 0)
        {
          other++;
          continue;
        }
      value = num (row, "Performance_Result");
      scenario = str (row, "Scenario");
      if (isnan (value) || value < 0 || scenario == NULL)
        {
          bad++;
          continue;
        }
      run = procura_run_new ();
      run->scenario.model = g_strdup (str (row, "Model"));
      run->scenario.gpu_name = g_strdup (str (row, "Accelerator"));
      run->scenario.engine = engine_from_software (str (row, "Software"));
      per_node = num (row, "a#");
      nodes = num (row, "Nodes");
      if (isnan (nodes))
        nodes = 1;
      run->scenario.gpu_count = count_of (per_node * nodes);
      if (g_ascii_strcasecmp (scenario, "Offline") == 0)
        {
          run->scenario.load_type = g_strdup ("throughput");
          run->scenario.load_value = INFINITY;
        }
      else
        run->scenario.load_type = g_ascii_strdown (scenario, -1);
      run->output_throughput = value;
      version = str (row, "version");
      details = str (row, "Details");
      if (round == NULL)
        round = version;
      extras = json_object_new ();
      third = json_object_new ();
      json_object_set_string_member (third, "publisher", "MLCommons");
      json_object_set_string_member (third, "licence", "MLPerf results: the round's terms of use and trademark rules apply");
      if (version)
        json_object_set_string_member (third, "date", version);
      if (details)
        json_object_set_string_member (third, "source", details);
      json_object_set_object_member (extras, "third_party", json_object_ref (third));
      for (const char * const *k = (const char * const[]) { "ID", "Submitter", "System", "Category", "Software",
                                                            "weight_data_types", "Accuracy", NULL }; *k; k++)
        if (str (row, *k))
          json_object_set_string_member (extras, *k, str (row, *k));
      {
        g_autoptr (JsonNode) node = json_node_init_object (json_node_alloc (), extras);
        run->extras_json = json_to_string (node, FALSE);
      }
      procura_run_add_warning (run, "published third-party result (MLCommons MLPerf Inference %s, %s): "
                               "the whole system's output tokens per second under the %s scenario's "
                               "latency constraints; no latency figures", version ? version : "",
                               str (row, "Submitter") ? str (row, "Submitter") : "?", scenario);
      run->label = g_strdup_printf ("%s, %s, %s, %s", str (row, "Submitter") ? str (row, "Submitter") : "?",
                                    str (row, "Platform") ? str (row, "Platform") : "?",
                                    run->scenario.model ? run->scenario.model : "?", scenario);
      g_ptr_array_add (result->runs, g_steal_pointer (&run));
    }
  if (other > 0)
    g_ptr_array_add (result->warnings,
                     g_strdup_printf (_("%s: %u rows are not LLM results in tokens per second (samples or queries "
                                        "per second, latency) and were left out"), name, other));
  if (bad > 0)
    g_ptr_array_add (result->warnings,
                     g_strdup_printf (_("%s: %u rows in tokens per second have no result or scenario and were left out"),
                                      name, bad));
  result->format_version = round ? g_strdup_printf ("mlperf-results-%s", round) : g_strdup ("mlperf-results");
  return TRUE;
}

static int
sniff_mlperf_results (const char *data,
                      gsize       len)
{
  if (procura_sniff_first_char (data, len) == '[' && procura_sniff_has (data, len, "\"Performance_Result\"")
      && procura_sniff_has (data, len, "\"Submitter\"") && procura_sniff_has (data, len, "\"Scenario\""))
    return 90;
  return 0;
}

const ProcuraImporter procura_importer_mlperf_results = {
  "mlperf-results",
  "MLPerf Inference results summary (summary_results.json of a round)",
  sniff_mlperf_results,
  parse_mlperf_results,
};

/* ------------------------------------------------------------------------- */
/* llm-d-benchmark's standard benchmark report, v0.2 (YAML or JSON): results.
 * request_performance.aggregate.{latency, requests, throughput}, the engine in
 * scenario.stack[].standardized (kind inference_engine), the load in
 * scenario.load.standardized. Statistics: mean, stddev, min, max, p0p1, p1 … p99p9. */

static JsonObject *
path_object (JsonObject *o,
             const char *path)
{
  g_auto (GStrv) parts = g_strsplit (path, ".", -1);

  for (char **p = parts; *p && o != NULL; p++)
    {
      JsonNode *n = json_object_get_member (o, *p);
      o = n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
    }
  return o;
}

/* .inf from YAML and "Infinity" read as strings: the number, for the load */
static double
num_or_inf (JsonObject *o,
            const char *key)
{
  const char *s = str (o, key);

  if (s != NULL && (g_str_equal (s, "Infinity") || g_str_equal (s, ".inf")))
    return INFINITY;
  return num (o, key);
}

static double
latency_factor (const char *units)
{
  if (units == NULL || g_str_equal (units, "ms") || g_str_equal (units, "ms/token"))
    return 1.0;
  if (g_str_equal (units, "s") || g_str_equal (units, "s/token"))
    return 1000.0;
  if (g_str_equal (units, "us") || g_str_equal (units, "us/token"))
    return 1e-3;
  return NAN;
}

static gboolean
parse_llmd_report (const char          *name,
                   const char          *data,
                   gsize                len,
                   ProcuraImportResult *result,
                   GCancellable        *cancellable,
                   GError             **error)
{
  static const struct { const char *key, *metric; } lat[] = {
    { "time_to_first_token", "ttft" }, { "time_per_output_token", "tpot" },
    { "inter_token_latency", "itl" }, { "request_latency", "e2e" },
  };
  static const struct { const char *key, *stat; } st[] = {
    { "mean", "mean" }, { "stddev", "std" }, { "min", "min" }, { "max", "max" }, { "p0p1", "p0.1" },
    { "p1", "p1" }, { "p5", "p5" }, { "p10", "p10" }, { "p25", "p25" }, { "p50", "p50" }, { "p75", "p75" },
    { "p90", "p90" }, { "p95", "p95" }, { "p99", "p99" }, { "p99p9", "p99.9" },
  };
  char first = procura_sniff_first_char (data, len);
  g_autoptr (JsonNode) root = first == '{' ? procura_json_parse (name, data, len, 0, PROCURA_JSON_ALLOW_NONFINITE, error)
                                           : procura_yaml_parse (name, data, len, error);
  g_autoptr (ProcuraRun) run = NULL;
  g_autoptr (JsonObject) extras = json_object_new ();
  JsonObject *o, *agg, *latency, *requests, *tput, *load;
  JsonNode *stack;
  const char *version;
  double total, failures, rate, conc;
  int replicas;

  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: expected an llm-d benchmark report (a mapping with version, scenario, results)"), name);
      return FALSE;
    }
  o = json_node_get_object (root);
  version = str (o, "version");
  if (version == NULL && !isnan (num (o, "version")))
    version = "0.2";
  if (version == NULL || !g_str_has_prefix (version, "0.2"))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $.version: expected a benchmark report version 0.2 or 0.2.x, found %s"), name,
                   version ? version : "nothing");
      return FALSE;
    }
  agg = path_object (o, "results.request_performance.aggregate");
  if (agg == NULL)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $.results.request_performance.aggregate: expected the aggregate results, found nothing"),
                   name);
      return FALSE;
    }
  run = procura_run_new ();
  latency = path_object (agg, "latency");
  for (gsize i = 0; i < G_N_ELEMENTS (lat); i++)
    {
      JsonObject *m = path_object (latency, lat[i].key);
      double factor;

      if (m == NULL)
        continue;
      factor = latency_factor (str (m, "units"));
      if (isnan (factor))
        {
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                       _("%s: $.results.request_performance.aggregate.latency.%s.units: expected ms, s or "
                         "ms/token, found “%s”"), name, lat[i].key, str (m, "units"));
          return FALSE;
        }
      for (gsize k = 0; k < G_N_ELEMENTS (st); k++)
        procura_import_reported (run, lat[i].metric, st[k].stat, num (m, st[k].key), factor);
    }
  requests = path_object (agg, "requests");
  total = num (requests, "total");
  failures = num (requests, "failures");
  if (total >= 0 && total < 1e15)
    {
      double f = (failures >= 0 && failures <= total) ? failures : 0;
      run->completed = (gint64) (total - f);
      if (failures >= 0 && failures <= total)
        run->failed = (gint64) failures;
    }
  run->input_tokens_mean = num (path_object (requests, "input_length"), "mean");
  run->output_tokens_mean = num (path_object (requests, "output_length"), "mean");
  tput = path_object (agg, "throughput");
  run->request_throughput = num (path_object (tput, "request_rate"), "mean");
  run->output_throughput = num (path_object (tput, "output_token_rate"), "mean");
  run->total_throughput = num (path_object (tput, "total_token_rate"), "mean");

  load = path_object (o, "scenario.load.standardized");
  rate = num_or_inf (load, "rate_qps");
  conc = num_or_inf (load, "concurrency");
  if (!isnan (rate))
    {
      run->scenario.load_type = g_strdup ("rate");
      run->scenario.load_value = rate;
    }
  else if (!isnan (conc))
    {
      run->scenario.load_type = g_strdup ("concurrency");
      run->scenario.load_value = conc;
    }
  run->scenario.input_len = num (path_object (load, "input_seq_len"), "value");
  if (isnan (run->scenario.input_len))
    run->scenario.input_len = run->input_tokens_mean;
  run->scenario.output_len = num (path_object (load, "output_seq_len"), "value");
  if (isnan (run->scenario.output_len))
    run->scenario.output_len = run->output_tokens_mean;

  stack = path_object (o, "scenario") ? json_object_get_member (path_object (o, "scenario"), "stack") : NULL;
  if (stack != NULL && JSON_NODE_HOLDS_ARRAY (stack))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (stack)); i++)
      {
        JsonNode *e = json_array_get_element (json_node_get_array (stack), i);
        JsonObject *sd = JSON_NODE_HOLDS_OBJECT (e) ? path_object (json_node_get_object (e), "standardized") : NULL;
        JsonObject *acc, *par;

        if (sd == NULL || g_strcmp0 (str (sd, "kind"), "inference_engine") != 0)
          continue;
        acc = path_object (sd, "accelerator");
        par = path_object (acc, "parallelism");
        run->scenario.model = g_strdup (str (path_object (sd, "model"), "name"));
        run->scenario.engine = g_strdup (str (sd, "tool"));
        run->scenario.engine_version = g_strdup (str (sd, "tool_version"));
        run->scenario.gpu_name = g_strdup (str (acc, "model"));
        run->scenario.gpu_count = count_of (num (acc, "count"));
        run->scenario.tp = count_of (num (par, "tp"));
        run->scenario.pp = count_of (num (par, "pp"));
        run->scenario.dp = count_of (num (par, "dp"));
        /* Several engine replicas served the load: the run's GPU count is all of them.
         * The schema calls accelerator.count the "total utilized" count, the reports
         * write one replica's (TP × PP × DP); both are read as they are meant. */
        replicas = count_of (num (sd, "replicas"));
        if (replicas > 1 && run->scenario.gpu_count > 0)
          {
            gint64 one = (gint64) MAX (run->scenario.tp, 1) * MAX (run->scenario.pp, 1) * MAX (run->scenario.dp, 1);
            json_object_set_int_member (extras, "replicas", replicas);
            if (one == run->scenario.gpu_count && one * replicas <= 65536)
              {
                procura_run_add_warning (run, "%d engine replicas of %d GPU(s) each (accelerator.count is one replica's "
                                         "TP × PP × DP): the run measured %d GPUs",
                                         replicas, run->scenario.gpu_count, (int) (one * replicas));
                run->scenario.gpu_count = (int) (one * replicas);
              }
          }
        break;   /* the first engine; disaggregated stacks say so below */
      }
  {
    JsonObject *time = path_object (o, "run.time");
    const char *uid = str (path_object (o, "run"), "uid");
    if (uid)
      json_object_set_string_member (extras, "report_uid", uid);
    if (str (time, "start"))
      json_object_set_string_member (extras, "start", str (time, "start"));
    if (str (time, "end"))
      json_object_set_string_member (extras, "end", str (time, "end"));
    if (str (load, "tool"))
      json_object_set_string_member (extras, "load_tool", str (load, "tool"));
    if (str (path_object (o, "run"), "description"))
      json_object_set_string_member (extras, "description", str (path_object (o, "run"), "description"));
    json_object_set_string_member (extras, "report_version", version);
  }
  {
    g_autoptr (JsonNode) node = json_node_init_object (json_node_alloc (), extras);
    run->extras_json = json_to_string (node, FALSE);
  }
  run->label = run->scenario.load_type == NULL ? g_strdup ("benchmark report")
               : g_str_equal (run->scenario.load_type, "rate")
                 ? (isinf (rate) ? g_strdup ("rate unlimited") : g_strdup_printf ("rate %g req/s", rate))
                 : g_strdup_printf ("concurrency %g", conc);
  result->format_version = g_strdup_printf ("llmd-report-%s%s", version, first == '{' ? "" : "-yaml");
  g_ptr_array_add (result->runs, g_steal_pointer (&run));
  return TRUE;
}

static int
sniff_llmd_report (const char *data,
                   gsize       len)
{
  if ((procura_sniff_has (data, len, "request_performance") && procura_sniff_has (data, len, "aggregate"))
      && (procura_sniff_has (data, len, "version: '0.2") || procura_sniff_has (data, len, "\"version\": \"0.2")
          || procura_sniff_has (data, len, "version: \"0.2") || procura_sniff_has (data, len, "version: 0.2")))
    return 88;
  return 0;
}

const ProcuraImporter procura_importer_llmd_report = {
  "llmd-report",
  "llm-d-benchmark standard benchmark report v0.2 (YAML or JSON)",
  sniff_llmd_report,
  parse_llmd_report,
};
