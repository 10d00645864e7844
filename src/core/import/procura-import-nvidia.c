/* procura-import-nvidia.c: GenAI-Perf profile_export_genai_perf.json; AIPerf
 * profile_export_aiperf.json (both generations), profile_export.jsonl (per request)
 * and profile_export_aiperf.csv
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Meanings: GenAI-Perf/AIPerf "inter_token_latency" is per request
 * (latency - ttft)/(osl - 1), i.e. Procura's tpot; AIPerf "inter_chunk_latency" is the
 * distribution of chunk gaps, i.e. Procura's itl.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-csv.h"
#include "procura-import-private.h"
#include "procura-json-out.h"

static const struct {
  const char *key;      /* long name (GenAI-Perf, AIPerf current) */
  const char *tag;      /* AIPerf early short tag */
  const char *metric;
} latency_map[] = {
  { "time_to_first_token", "ttft", "ttft" },
  { "inter_token_latency", "inter_token_latency", "tpot" },
  { "inter_chunk_latency", "inter_chunk_latency", "itl" },
  { "request_latency", "request_latency", "e2e" },
};

/* Factor to milliseconds from a unit string; NAN when not a time unit. */
static double
unit_to_ms (const char *unit)
{
  if (unit == NULL || g_str_equal (unit, "ms"))
    return 1.0;
  if (g_str_equal (unit, "s") || g_str_equal (unit, "sec"))
    return 1000.0;
  if (g_str_equal (unit, "us"))
    return 1e-3;
  if (g_str_equal (unit, "ns"))
    return 1e-6;
  return NAN;
}

static gboolean
add_metric (const char *name,
            ProcuraRun *run,
            JsonObject *m,
            const char *path,
            const char *metric,
            GError    **error)
{
  const char *unit = NULL;
  double factor;
  GList *members;

  if (!procura_json_string (name, m, path, "unit", &unit, error))
    return FALSE;
  factor = unit_to_ms (unit);
  if (isnan (factor))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: %s.unit: expected a time unit (ms, s, us, ns), found “%s”"), name, path, unit);
      return FALSE;
    }
  members = json_object_get_members (m);
  for (GList *l = members; l; l = l->next)
    {
      const char *key = l->data;
      const char *stat = NULL;
      g_autofree char *owned = NULL;
      double v;

      if (g_str_equal (key, "avg"))
        stat = "mean";
      else if (g_str_equal (key, "std") || g_str_equal (key, "min") || g_str_equal (key, "max"))
        stat = key;
      else if (key[0] == 'p' && g_ascii_isdigit (key[1]))
        {
          char *end = NULL;
          double p = g_ascii_strtod (key + 1, &end);
          if (end && *end == '\0' && p >= 0 && p <= 100)
            stat = owned = procura_import_pct_name (p);
        }
      if (stat == NULL)
        continue;
      if (!procura_json_number (name, m, path, key, &v, error))
        {
          g_list_free (members);
          return FALSE;
        }
      procura_import_reported (run, metric, stat, v, factor);
    }
  g_list_free (members);
  return TRUE;
}

/* {unit, avg} system metric */
static gboolean
avg_of (const char *name,
        JsonObject *metrics,
        const char *path,
        const char *key,
        double     *out,
        GError    **error)
{
  JsonObject *m = NULL;
  g_autofree char *p = g_strdup_printf ("%s.%s", path, key);

  *out = NAN;
  if (!procura_json_object (name, metrics, path, key, &m, error))
    return FALSE;
  if (m == NULL)
    return TRUE;
  return procura_json_number (name, m, p, "avg", out, error);
}

static const char *
node_string (JsonNode *n)
{
  if (n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING
      && *json_node_get_string (n) != '\0')
    return json_node_get_string (n);
  return NULL;
}

static double
node_number (JsonNode *n)
{
  if (n && JSON_NODE_HOLDS_VALUE (n) && (json_node_get_value_type (n) == G_TYPE_INT64
                                         || json_node_get_value_type (n) == G_TYPE_DOUBLE))
    return json_node_get_double (n);
  return NAN;
}

/* AIPerf's config file schema 2.0 ("benchmark": {model, phases: [{name, type,
 * concurrency | rate, exclude_from_results}]}), kept as the input config from 0.10 on:
 * the model (a string, or the first of a list) and the load of the last measured phase */
static void
aiperf_v2_config (ProcuraRun *run,
                  JsonObject *b)
{
  JsonNode *n = json_object_get_member (b, "model");

  if (run->scenario.model == NULL && node_string (n))
    run->scenario.model = g_strdup (node_string (n));
  if (n == NULL)
    n = json_object_get_member (b, "models");
  if (run->scenario.model == NULL && n && JSON_NODE_HOLDS_ARRAY (n)
      && json_array_get_length (json_node_get_array (n)) > 0)
    {
      JsonNode *first = json_array_get_element (json_node_get_array (n), 0);
      if (node_string (first))
        run->scenario.model = g_strdup (node_string (first));
      else if (JSON_NODE_HOLDS_OBJECT (first)
               && node_string (json_object_get_member (json_node_get_object (first), "name")))
        run->scenario.model = g_strdup (node_string (json_object_get_member (json_node_get_object (first), "name")));
    }
  n = json_object_get_member (b, "phases");
  if (run->scenario.load_type != NULL || n == NULL || !JSON_NODE_HOLDS_ARRAY (n))
    return;
  for (guint i = json_array_get_length (json_node_get_array (n)); i-- > 0;)
    {
      JsonNode *e = json_array_get_element (json_node_get_array (n), i);
      JsonObject *ph;
      const char *type, *pname;
      double conc, rate;
      JsonNode *excl;

      if (!JSON_NODE_HOLDS_OBJECT (e))
        continue;
      ph = json_node_get_object (e);
      pname = node_string (json_object_get_member (ph, "name"));
      excl = json_object_get_member (ph, "exclude_from_results");
      if ((pname && g_str_equal (pname, "warmup"))
          || (excl && JSON_NODE_HOLDS_VALUE (excl) && json_node_get_value_type (excl) == G_TYPE_BOOLEAN
              && json_node_get_boolean (excl)))
        continue;
      type = node_string (json_object_get_member (ph, "type"));
      conc = node_number (json_object_get_member (ph, "concurrency"));
      rate = node_number (json_object_get_member (ph, "rate"));
      if (isnan (rate))
        rate = node_number (json_object_get_member (ph, "request_rate"));
      if (!isnan (rate) && (type == NULL || !g_str_equal (type, "concurrency")))
        {
          run->scenario.load_type = g_strdup ("rate");
          run->scenario.load_value = rate;
        }
      else if (!isnan (conc))
        {
          run->scenario.load_type = g_strdup ("concurrency");
          run->scenario.load_value = conc;
        }
      return;
    }
}

static void
scenario_from_input_config (ProcuraRun *run,
                            JsonObject *ic)
{
  JsonNode *n;
  JsonObject *ep = NULL, *lg = NULL, *pa = NULL, *stim = NULL;
  JsonArray *names = NULL;

  if (ic == NULL)
    return;
  n = json_object_get_member (ic, "model_names");
  if (n == NULL)
    {
      JsonNode *e = json_object_get_member (ic, "endpoint");
      if (e && JSON_NODE_HOLDS_OBJECT (e))
        {
          ep = json_node_get_object (e);
          n = json_object_get_member (ep, "model_names");
        }
    }
  if (n && JSON_NODE_HOLDS_ARRAY (n))
    names = json_node_get_array (n);
  if (names && json_array_get_length (names) > 0)
    {
      JsonNode *first = json_array_get_element (names, 0);
      if (JSON_NODE_HOLDS_VALUE (first) && json_node_get_value_type (first) == G_TYPE_STRING)
        run->scenario.model = g_strdup (json_node_get_string (first));
    }
  /* AIPerf 0.10: the input config is the v2 config file (benchmark.model, benchmark.phases) */
  n = json_object_get_member (ic, "benchmark");
  if (n && JSON_NODE_HOLDS_OBJECT (n))
    aiperf_v2_config (run, json_node_get_object (n));
  /* AIPerf: loadgen{concurrency, request_rate}; GenAI-Perf: perf_analyzer.stimulus */
  n = json_object_get_member (ic, "loadgen");
  if (n && JSON_NODE_HOLDS_OBJECT (n))
    lg = json_node_get_object (n);
  n = json_object_get_member (ic, "perf_analyzer");
  if (n && JSON_NODE_HOLDS_OBJECT (n))
    pa = json_node_get_object (n);
  if (pa && (n = json_object_get_member (pa, "stimulus")) && JSON_NODE_HOLDS_OBJECT (n))
    stim = json_node_get_object (n);
  for (int k = 0; k < 2; k++)
    {
      JsonObject *src = k == 0 ? lg : stim;
      JsonNode *rate, *conc;

      if (src == NULL || run->scenario.load_type != NULL)
        continue;
      rate = json_object_get_member (src, "request_rate");
      conc = json_object_get_member (src, "concurrency");
      if (rate && JSON_NODE_HOLDS_VALUE (rate) && json_node_get_value_type (rate) != G_TYPE_STRING
          && json_node_get_value_type (rate) != G_TYPE_BOOLEAN)
        {
          run->scenario.load_type = g_strdup ("rate");
          run->scenario.load_value = json_node_get_double (rate);
        }
      else if (conc && JSON_NODE_HOLDS_VALUE (conc) && json_node_get_value_type (conc) != G_TYPE_STRING
               && json_node_get_value_type (conc) != G_TYPE_BOOLEAN)
        {
          run->scenario.load_type = g_strdup ("concurrency");
          run->scenario.load_value = json_node_get_double (conc);
        }
    }
}

/* AIPerf telemetry_data.endpoints.<host>.gpus.<gpu>.gpu_name: the GPU name when all
 * agree; the count of GPUs seen goes to extras only (DCGM sees the whole node). */
static void
gpu_from_telemetry (ProcuraRun *run,
                    JsonObject *tel,
                    int        *n_gpus)
{
  JsonNode *n = tel ? json_object_get_member (tel, "endpoints") : NULL;
  const char *gpu = NULL;
  gboolean same = TRUE;
  GList *hosts;

  *n_gpus = 0;
  if (n == NULL || !JSON_NODE_HOLDS_OBJECT (n))
    return;
  hosts = json_object_get_values (json_node_get_object (n));
  for (GList *h = hosts; h; h = h->next)
    {
      JsonNode *g;
      GList *gpus;

      if (!JSON_NODE_HOLDS_OBJECT (h->data))
        continue;
      g = json_object_get_member (json_node_get_object (h->data), "gpus");
      if (g == NULL || !JSON_NODE_HOLDS_OBJECT (g))
        continue;
      gpus = json_object_get_values (json_node_get_object (g));
      for (GList *l = gpus; l; l = l->next)
        {
          JsonNode *nm;
          if (!JSON_NODE_HOLDS_OBJECT (l->data))
            continue;
          (*n_gpus)++;
          nm = json_object_get_member (json_node_get_object (l->data), "gpu_name");
          if (nm && JSON_NODE_HOLDS_VALUE (nm) && json_node_get_value_type (nm) == G_TYPE_STRING)
            {
              if (gpu != NULL && !g_str_equal (gpu, json_node_get_string (nm)))
                same = FALSE;
              gpu = json_node_get_string (nm);
            }
        }
      g_list_free (gpus);
    }
  g_list_free (hosts);
  if (gpu != NULL && same)
    run->scenario.gpu_name = g_strdup (gpu);
}

static gboolean
parse_summary (const char          *name,
               const char          *data,
               gsize                len,
               gboolean             aiperf,
               ProcuraImportResult *result,
               GError             **error)
{
  g_autoptr (JsonNode) root = procura_json_parse (name, data, len, 0, PROCURA_JSON_ALLOW_NONFINITE, error);
  g_autoptr (ProcuraRun) run = NULL;
  g_autoptr (JsonObject) extras = json_object_new ();
  JsonObject *o, *metrics, *records = NULL, *ic = NULL, *tel = NULL;
  const char *mpath = "$";
  double count, errors, duration, tisl, tosl;
  JsonArray *esum = NULL;
  int n_gpus = 0;

  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $: expected an object of metrics, found %s"), name, procura_json_node_type_name (root));
      return FALSE;
    }
  o = json_node_get_object (root);
  if (!procura_json_object (name, o, "$", "records", &records, error)
      || !procura_json_object (name, o, "$", "input_config", &ic, error))
    return FALSE;
  metrics = o;
  result->format_version = g_strdup (aiperf ? "aiperf" : "genai-perf");
  if (records != NULL)
    {
      metrics = records;
      mpath = "$.records";
      g_free (result->format_version);
      result->format_version = g_strdup ("aiperf-records");
    }

  run = procura_run_new ();
  for (gsize i = 0; i < G_N_ELEMENTS (latency_map); i++)
    {
      const char *key = records ? latency_map[i].tag : latency_map[i].key;
      JsonObject *m = NULL;
      g_autofree char *p = g_strdup_printf ("%s.%s", mpath, key);

      if (!procura_json_object (name, metrics, mpath, key, &m, error))
        return FALSE;
      if (m != NULL && !add_metric (name, run, m, p, latency_map[i].metric, error))
        return FALSE;
    }
  if (!avg_of (name, metrics, mpath, "request_throughput", &run->request_throughput, error)
      || !avg_of (name, metrics, mpath, "output_token_throughput", &run->output_throughput, error)
      || !avg_of (name, metrics, mpath, "request_count", &count, error)
      || !avg_of (name, metrics, mpath, "error_request_count", &errors, error)
      || !avg_of (name, metrics, mpath, "benchmark_duration", &duration, error)
      || !avg_of (name, metrics, mpath, "input_sequence_length", &run->input_tokens_mean, error)
      || !avg_of (name, metrics, mpath, "output_sequence_length", &run->output_tokens_mean, error)
      || !avg_of (name, metrics, mpath, "total_isl", &tisl, error)
      || !avg_of (name, metrics, mpath, "total_osl", &tosl, error))
    return FALSE;
  if (count >= 0 && count < 1e15)
    run->completed = (gint64) count;
  if (errors >= 0 && errors < 1e15)
    run->failed = (gint64) errors;
  else if (aiperf || records)
    run->failed = 0;   /* AIPerf omits the metric when nothing failed */
  run->duration_s = duration;
  if (!isnan (duration) && duration > 0 && !isnan (tisl) && !isnan (tosl))
    run->total_throughput = (tisl + tosl) / duration;
  run->scenario.input_len = run->input_tokens_mean;
  run->scenario.output_len = run->output_tokens_mean;
  scenario_from_input_config (run, ic);

  /* time to second token and per-user throughput have no place in the vocabulary: extras */
  {
    static const char * const keep[] = { "time_to_second_token", "ttst", "output_token_throughput_per_user",
                                         "output_token_throughput_per_request", "request_goodput", "goodput",
                                         "prefill_throughput", NULL };
    for (const char * const *k = keep; *k; k++)
      {
        JsonNode *n = json_object_get_member (metrics, *k);
        if (n != NULL && JSON_NODE_HOLDS_OBJECT (n))
          json_object_set_member (extras, *k, json_node_copy (n));
      }
  }
  /* GPU telemetry kept */
  {
    JsonNode *n = json_object_get_member (o, "telemetry_stats");
    if (n != NULL && JSON_NODE_HOLDS_OBJECT (n))
      json_object_set_member (extras, "telemetry_stats", json_node_copy (n));
    if (!procura_json_object (name, o, "$", "telemetry_data", &tel, error))
      return FALSE;
    if (tel != NULL)
      {
        json_object_set_member (extras, "telemetry_data", json_node_copy (json_object_get_member (o, "telemetry_data")));
        gpu_from_telemetry (run, tel, &n_gpus);
        json_object_set_int_member (extras, "telemetry_gpus_seen", n_gpus);
      }
  }
  if (!procura_json_array (name, o, "$", "error_summary", &esum, error))
    return FALSE;
  for (guint i = 0; esum && i < json_array_get_length (esum); i++)
    {
      JsonNode *e = json_array_get_element (esum, i);
      if (JSON_NODE_HOLDS_OBJECT (e))
        {
          g_autoptr (JsonGenerator) gen = json_generator_new ();
          g_autofree char *text = NULL;
          json_generator_set_root (gen, e);
          text = json_generator_to_data (gen, NULL);
          procura_run_add_warning (run, "errors reported by the tool: %s", text);
        }
    }
  if (run->scenario.load_type != NULL)
    run->label = g_str_equal (run->scenario.load_type, "rate")
                 ? g_strdup_printf ("rate %g req/s", run->scenario.load_value)
                 : g_strdup_printf ("concurrency %g", run->scenario.load_value);
  else
    run->label = g_strdup ("run");
  if (json_object_get_size (extras) > 0)
    {
      g_autoptr (JsonNode) node = json_node_init_object (json_node_alloc (), extras);
      run->extras_json = procura_json_to_data (node, FALSE);
    }
  g_ptr_array_add (result->runs, g_steal_pointer (&run));
  return TRUE;
}

static gboolean
parse_genai_perf (const char          *name,
                  const char          *data,
                  gsize                len,
                  ProcuraImportResult *result,
                  GCancellable        *cancellable,
                  GError             **error)
{
  return parse_summary (name, data, len, FALSE, result, error);
}

static gboolean
parse_aiperf (const char          *name,
              const char          *data,
              gsize                len,
              ProcuraImportResult *result,
              GCancellable        *cancellable,
              GError             **error)
{
  return parse_summary (name, data, len, TRUE, result, error);
}

static int
sniff_genai_perf (const char *data,
                  gsize       len)
{
  if (procura_sniff_first_char (data, len) != '{')
    return 0;
  if (procura_sniff_has (data, len, "\"time_to_first_token\"") && procura_sniff_has (data, len, "\"request_throughput\"")
      && !procura_sniff_has (data, len, "\"telemetry_data\"") && !procura_sniff_has (data, len, "\"benchmark_duration\"")
      && !procura_sniff_has (data, len, "\"was_cancelled\""))
    return 85;
  return 0;
}

static int
sniff_aiperf (const char *data,
              gsize       len)
{
  if (procura_sniff_first_char (data, len) != '{')
    return 0;
  if (procura_sniff_has (data, len, "\"records\"") && procura_sniff_has (data, len, "\"tag\"")
      && procura_sniff_has (data, len, "\"ttft\""))
    return 90;
  if (procura_sniff_has (data, len, "\"time_to_first_token\"") && procura_sniff_has (data, len, "\"request_throughput\"")
      && (procura_sniff_has (data, len, "\"benchmark_duration\"") || procura_sniff_has (data, len, "\"was_cancelled\"")
          || procura_sniff_has (data, len, "\"telemetry_data\"")))
    return 88;
  return 0;
}

const ProcuraImporter procura_importer_genai_perf = {
  "genai-perf",
  "GenAI-Perf profile_export_genai_perf.json",
  sniff_genai_perf,
  parse_genai_perf,
};

const ProcuraImporter procura_importer_aiperf = {
  "aiperf",
  "AIPerf profile_export_aiperf.json (both generations)",
  sniff_aiperf,
  parse_aiperf,
};

/* ------------------------------------------------------------------------- */
/* AIPerf profile_export.jsonl: one record per request                          */

typedef struct {
  const char *name;
  GArray     *ttft, *tpot, *e2e, *itl, *isl, *osl;
  gint64      completed, failed, cancelled;
  double      t_min, t_max;
  double      osl_sum, isl_sum;
  GHashTable *error_types;
} JsonlData;

static double
metric_value (JsonObject *metrics,
              const char *key,
              double     *factor_ms)
{
  JsonNode *n = json_object_get_member (metrics, key);
  JsonObject *m;
  JsonNode *v, *u;

  if (n == NULL || !JSON_NODE_HOLDS_OBJECT (n))
    return NAN;
  m = json_node_get_object (n);
  v = json_object_get_member (m, "value");
  u = json_object_get_member (m, "unit");
  if (factor_ms)
    *factor_ms = unit_to_ms (u && JSON_NODE_HOLDS_VALUE (u) && json_node_get_value_type (u) == G_TYPE_STRING
                             ? json_node_get_string (u) : NULL);
  if (v && JSON_NODE_HOLDS_VALUE (v) && (json_node_get_value_type (v) == G_TYPE_INT64
                                         || json_node_get_value_type (v) == G_TYPE_DOUBLE))
    return json_node_get_double (v);
  return NAN;
}

static gboolean
jsonl_line (JsonNode  *node,
            guint      line,
            gpointer   user_data,
            GError   **error)
{
  JsonlData *d = user_data;
  g_autofree char *path = g_strdup_printf ("line %u: $", line);
  JsonObject *o, *meta = NULL, *metrics = NULL, *err = NULL;
  double start = NAN, end = NAN, f = 1.0, v;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s:%u: expected a JSON object (one AIPerf record per line), found %s"),
                   d->name, line, procura_json_node_type_name (node));
      return FALSE;
    }
  o = json_node_get_object (node);
  if (!procura_json_object (d->name, o, path, "metadata", &meta, error)
      || !procura_json_object (d->name, o, path, "metrics", &metrics, error)
      || !procura_json_object (d->name, o, path, "error", &err, error))
    return FALSE;
  if (meta == NULL || metrics == NULL)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s:%u: expected \"metadata\" and \"metrics\" objects (an AIPerf record)"), d->name, line);
      return FALSE;
    }
  {
    g_autofree char *mp = g_strdup_printf ("%s.metadata", path);
    if (!procura_json_number (d->name, meta, mp, "request_start_ns", &start, error)
        || !procura_json_number (d->name, meta, mp, "request_end_ns", &end, error))
      return FALSE;
    if (isnan (start) && !procura_json_number (d->name, meta, mp, "timestamp_ns", &start, error))
      return FALSE;
  }
  if (!isnan (start))
    d->t_min = MIN (d->t_min, start);
  if (!isnan (end))
    d->t_max = MAX (d->t_max, end);
  if (err != NULL)
    {
      const char *type = NULL;
      JsonNode *t = json_object_get_member (err, "type");
      if (t && JSON_NODE_HOLDS_VALUE (t) && json_node_get_value_type (t) == G_TYPE_STRING)
        type = json_node_get_string (t);
      g_hash_table_insert (d->error_types, g_strdup (type ? type : "unknown"),
                           GINT_TO_POINTER (GPOINTER_TO_INT (g_hash_table_lookup (d->error_types, type ? type : "unknown")) + 1));
      d->failed++;
      return TRUE;
    }
  d->completed++;
  v = metric_value (metrics, "time_to_first_token", &f);
  if (isnan (v))
    v = metric_value (metrics, "ttft", &f);   /* early builds */
  if (!isnan (v) && !isnan (f))
    g_array_append_vals (d->ttft, (double[]) { v * f }, 1);
  if (!isnan (v = metric_value (metrics, "inter_token_latency", &f)) && !isnan (f))
    g_array_append_vals (d->tpot, (double[]) { v * f }, 1);
  if (!isnan (v = metric_value (metrics, "request_latency", &f)) && !isnan (f))
    {
      g_array_append_vals (d->e2e, (double[]) { v * f }, 1);
      /* early builds have no request_end_ns: start + latency */
      if (isnan (end) && !isnan (start))
        d->t_max = MAX (d->t_max, start + v * f * 1e6);
    }
  if (!isnan (v = metric_value (metrics, "input_sequence_length", NULL)))
    {
      g_array_append_val (d->isl, v);
      d->isl_sum += v;
    }
  if (!isnan (v = metric_value (metrics, "output_sequence_length", NULL)))
    {
      g_array_append_val (d->osl, v);
      d->osl_sum += v;
    }
  {
    JsonNode *n = json_object_get_member (metrics, "inter_chunk_latency");
    if (n && JSON_NODE_HOLDS_OBJECT (n))
      {
        JsonObject *m = json_node_get_object (n);
        JsonNode *vals = json_object_get_member (m, "value");
        JsonNode *u = json_object_get_member (m, "unit");
        double fm = unit_to_ms (u && JSON_NODE_HOLDS_VALUE (u) && json_node_get_value_type (u) == G_TYPE_STRING
                                ? json_node_get_string (u) : NULL);
        if (vals && JSON_NODE_HOLDS_ARRAY (vals) && !isnan (fm))
          {
            g_autofree double *arr = NULL;
            gsize n_arr = 0;
            g_autofree char *p = g_strdup_printf ("%s.metrics.inter_chunk_latency.value", path);
            if (!procura_import_number_array (d->name, json_node_get_array (vals), p, fm, &arr, &n_arr, error))
              return FALSE;
            g_array_append_vals (d->itl, arr, (guint) n_arr);
          }
      }
  }
  return TRUE;
}

static void
take (ProcuraRun *run,
      const char *metric,
      GArray     *a)
{
  gsize n = a->len;
  double *v = (double *) g_array_free (a, FALSE);

  if (n == 0)
    {
      g_free (v);
      return;
    }
  procura_run_take_samples (run, metric, v, n);
}

static gboolean
parse_aiperf_jsonl (const char          *name,
                    const char          *data,
                    gsize                len,
                    ProcuraImportResult *result,
                    GCancellable        *cancellable,
                    GError             **error)
{
  JsonlData d = { name };
  g_autoptr (ProcuraRun) run = procura_run_new ();
  gboolean ok;

  d.ttft = g_array_new (FALSE, FALSE, sizeof (double));
  d.tpot = g_array_new (FALSE, FALSE, sizeof (double));
  d.e2e = g_array_new (FALSE, FALSE, sizeof (double));
  d.itl = g_array_new (FALSE, FALSE, sizeof (double));
  d.isl = g_array_new (FALSE, FALSE, sizeof (double));
  d.osl = g_array_new (FALSE, FALSE, sizeof (double));
  d.t_min = INFINITY;
  d.t_max = -INFINITY;
  d.error_types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  ok = procura_import_json_lines (name, data, len, PROCURA_JSON_ALLOW_NONFINITE, jsonl_line, &d,
                                  cancellable, error);
  if (ok)
    {
      GHashTableIter it;
      gpointer k, v;

      run->completed = d.completed;
      run->failed = d.failed;
      if (d.completed > 0)
        {
          run->input_tokens_mean = d.isl_sum / (double) d.isl->len;
          run->output_tokens_mean = d.osl_sum / (double) d.osl->len;
        }
      if (d.t_max > d.t_min)
        {
          run->duration_s = (d.t_max - d.t_min) / 1e9;
          run->request_throughput = (double) d.completed / run->duration_s;
          run->output_throughput = d.osl_sum / run->duration_s;
          run->total_throughput = (d.osl_sum + d.isl_sum) / run->duration_s;
          procura_run_add_warning (run, "throughputs are computed from the request timestamps (first start to last end)");
        }
      run->scenario.input_len = run->input_tokens_mean;
      run->scenario.output_len = run->output_tokens_mean;
      g_hash_table_iter_init (&it, d.error_types);
      while (g_hash_table_iter_next (&it, &k, &v))
        procura_run_add_warning (run, "%d requests failed with %s", GPOINTER_TO_INT (v), (const char *) k);
      run->label = g_strdup ("per-request records");
      result->format_version = g_strdup ("aiperf-jsonl");
    }
  take (run, "ttft", d.ttft);
  take (run, "tpot", d.tpot);
  take (run, "e2e", d.e2e);
  take (run, "itl", d.itl);
  take (run, "input_len", d.isl);
  take (run, "output_len", d.osl);
  g_hash_table_unref (d.error_types);
  if (!ok)
    return FALSE;
  g_ptr_array_add (result->runs, g_steal_pointer (&run));
  return TRUE;
}

static int
sniff_aiperf_jsonl (const char *data,
                    gsize       len)
{
  if (procura_sniff_first_char (data, len) != '{')
    return 0;
  if (procura_sniff_has (data, len, "\"metadata\"") && procura_sniff_has (data, len, "\"metrics\"")
      && (procura_sniff_has (data, len, "\"x_request_id\"") || procura_sniff_has (data, len, "\"record_processor_id\"")))
    return 90;
  return 0;
}

const ProcuraImporter procura_importer_aiperf_jsonl = {
  "aiperf-jsonl",
  "AIPerf profile_export.jsonl (per-request records)",
  sniff_aiperf_jsonl,
  parse_aiperf_jsonl,
};

/* ------------------------------------------------------------------------- */
/* AIPerf CSV: "Metric,avg,min,max,p1,..." table, then "Metric,Value" table     */

static const struct {
  const char *prefix;
  const char *metric;
} csv_latency[] = {
  { "Time to First Token", "ttft" },
  { "Inter Token Latency", "tpot" },
  { "Inter Chunk Latency", "itl" },
  { "Request Latency", "e2e" },
};

static char *
csv_unit (const char *label)
{
  const char *open = strrchr (label, '(');
  const char *close = open ? strchr (open, ')') : NULL;

  if (open == NULL || close == NULL)
    return NULL;
  return g_strndup (open + 1, (gsize) (close - open - 1));
}

static gboolean
csv_number (const char *name,
            const char *field,
            guint       line,
            const char *column,
            double     *out,
            GError    **error)
{
  char *end = NULL;

  if (field == NULL || *field == '\0')
    {
      *out = NAN;
      return TRUE;
    }
  *out = g_ascii_strtod (field, &end);
  if (end == field || *end != '\0' || !isfinite (*out))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s:%u: column “%s”: expected a number, found “%s”"), name, line, column, field);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_aiperf_csv (const char          *name,
                  const char          *data,
                  gsize                len,
                  ProcuraImportResult *result,
                  GCancellable        *cancellable,
                  GError             **error)
{
  g_autoptr (ProcuraCsv) csv = procura_csv_parse (name, data, len, ',', error);
  g_autoptr (ProcuraRun) run = NULL;
  guint header = 0, telemetry_rows = 0;
  gboolean system = FALSE, any = FALSE, telemetry = FALSE, gpu_mixed = FALSE;
  int gpu_col = -1;
  g_autofree char *gpu_name = NULL;

  if (csv == NULL)
    return FALSE;
  run = procura_run_new ();
  for (guint r = 0; r < procura_csv_n_rows (csv); r++)
    {
      const char *label = procura_csv_get (csv, r, 0);
      guint nf = procura_csv_n_fields (csv, r);
      guint line = procura_csv_row_line (csv, r);

      if (label == NULL)
        continue;
      if (g_str_equal (label, "Metric"))
        {
          header = r;
          system = nf == 2;
          telemetry = FALSE;
          continue;
        }
      /* A third table (GPU telemetry, written when --gpu-telemetry collected it): its
       * header names the endpoint and the GPU before "Metric"; its figures are not a
       * run's, but the GPU name is the run's GPU when every row agrees */
      if (!telemetry)
        {
          for (guint c = 1; c < nf && !telemetry; c++)
            if (g_strcmp0 (procura_csv_get (csv, r, c), "Metric") == 0)
              {
                telemetry = TRUE;
                gpu_col = -1;
                for (guint k = 0; k < nf; k++)
                  {
                    const char *cell = procura_csv_get (csv, r, k);
                    g_autofree char *low = cell ? g_ascii_strdown (cell, -1) : NULL;
                    if (low && (g_str_equal (low, "gpu_name") || g_str_equal (low, "gpu name")))
                      gpu_col = (int) k;
                  }
              }
          if (telemetry)
            continue;   /* the header row */
        }
      if (telemetry && nf > 1)
        {
          const char *gpu = gpu_col >= 0 && (guint) gpu_col < nf ? procura_csv_get (csv, r, (guint) gpu_col) : NULL;

          if (gpu != NULL && *gpu != '\0' && !g_str_equal (gpu, "GPU_Name") && !g_str_equal (gpu, "GPU Name"))
            {
              if (gpu_name == NULL)
                gpu_name = g_strdup (gpu);
              else if (!g_str_equal (gpu_name, gpu))
                gpu_mixed = TRUE;
            }
          telemetry_rows++;
          continue;
        }
      if (telemetry)
        continue;
      if (!system)
        {
          g_autofree char *unit = csv_unit (label);
          const char *metric = NULL;
          double factor;

          for (gsize i = 0; i < G_N_ELEMENTS (csv_latency); i++)
            if (g_str_has_prefix (label, csv_latency[i].prefix))
              metric = csv_latency[i].metric;
          if (g_str_has_prefix (label, "Input Sequence Length") || g_str_has_prefix (label, "Output Sequence Length"))
            {
              double v;
              if (!csv_number (name, procura_csv_get (csv, r, 1), line, "avg", &v, error))
                return FALSE;
              if (label[0] == 'I')
                run->input_tokens_mean = v;
              else
                run->output_tokens_mean = v;
              continue;
            }
          if (metric == NULL)
            continue;
          factor = unit_to_ms (unit);
          if (isnan (factor))
            {
              g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                           _("%s:%u: “%s”: expected a time unit (ms, s, us, ns)"), name, line, label);
              return FALSE;
            }
          for (guint c = 1; c < nf; c++)
            {
              const char *col = procura_csv_get (csv, header, c);
              const char *stat = NULL;
              g_autofree char *owned = NULL;
              double v;

              if (col == NULL)
                continue;
              if (g_str_equal (col, "avg"))
                stat = "mean";
              else if (g_str_equal (col, "std") || g_str_equal (col, "min") || g_str_equal (col, "max"))
                stat = col;
              else if (col[0] == 'p' && g_ascii_isdigit (col[1]))
                {
                  char *end = NULL;
                  double p = g_ascii_strtod (col + 1, &end);
                  if (end && *end == '\0' && p >= 0 && p <= 100)
                    stat = owned = procura_import_pct_name (p);
                }
              if (stat == NULL)
                continue;
              if (!csv_number (name, procura_csv_get (csv, r, c), line, col, &v, error))
                return FALSE;
              procura_import_reported (run, metric, stat, v, factor);
              any = TRUE;
            }
        }
      else
        {
          double v;

          if (!csv_number (name, procura_csv_get (csv, r, 1), line, "Value", &v, error))
            return FALSE;
          if (g_str_has_prefix (label, "Request Throughput"))
            run->request_throughput = v;
          else if (g_str_has_prefix (label, "Output Token Throughput") && !strstr (label, "Per User"))
            run->output_throughput = v;
          else if (g_str_has_prefix (label, "Total Token Throughput"))
            run->total_throughput = v;
          else if (g_str_equal (label, "Request Count"))
            run->completed = (v >= 0 && v < 1e15) ? (gint64) v : -1;
          else if (g_str_equal (label, "Error Request Count"))
            run->failed = (v >= 0 && v < 1e15) ? (gint64) v : -1;
          else if (g_str_has_prefix (label, "Benchmark Duration"))
            run->duration_s = v;
          any = TRUE;
        }
    }
  if (!any)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: no AIPerf metric row found; expected rows such as “Time to First Token (ms)”"), name);
      return FALSE;
    }
  run->scenario.input_len = run->input_tokens_mean;
  run->scenario.output_len = run->output_tokens_mean;
  run->label = g_strdup ("run");
  if (telemetry_rows > 0)
    {
      if (gpu_name != NULL && !gpu_mixed)
        run->scenario.gpu_name = g_steal_pointer (&gpu_name);
      procura_run_add_warning (run, "the GPU telemetry table (%u rows) is not imported from the CSV; "
                               "import profile_export_aiperf.json to keep it", telemetry_rows);
    }
  result->format_version = g_strdup (telemetry_rows > 0 ? "aiperf-csv-telemetry" : "aiperf-csv");
  g_ptr_array_add (result->runs, g_steal_pointer (&run));
  return TRUE;
}

static int
sniff_aiperf_csv (const char *data,
                  gsize       len)
{
  if (procura_sniff_has (data, len, "Metric,avg,") && procura_sniff_has (data, len, "Time to First Token"))
    return 90;
  return 0;
}

const ProcuraImporter procura_importer_aiperf_csv = {
  "aiperf-csv",
  "AIPerf profile_export_aiperf.csv",
  sniff_aiperf_csv,
  parse_aiperf_csv,
};

/* ------------------------------------------------------------------------- */
/* AIPerf multi-run files (--num-profile-runs >= 2), as AIPerf's own source writes them
 * (ai-dynamo/aiperf, src/aiperf/orchestrator/aggregation/confidence.py and detailed.py,
 * src/aiperf/exporters/aggregate/aggregate_confidence_json_exporter.py and
 * aggregate_detailed_json_exporter.py):
 * profile_export_aiperf_aggregate.json (schema_version "1.0"): "metadata" with
 *   aggregation_type "confidence", num_profile_runs, num_successful_runs, failed_runs,
 *   confidence_level; "metrics" keyed "<tag>_<stat>" for every statistic of every run
 *   ("time_to_first_token_p99" = the mean over runs of each run's p99,
 *   "request_throughput_avg"), each {mean, std, min, max, cv, se, ci_low, ci_high,
 *   t_critical, unit};
 * profile_export_aiperf_collated.json (schema_version "1.0.0"): "metadata" with
 *   aggregation_type "detailed"; "metrics" keyed by tag, each {"combined": {mean, std,
 *   p50, p90, p95, p99, count}, "per_run": [{label, mean, count}]} pooled from every
 *   run's profile_export.jsonl records, without units (the records are in ms).
 * An earlier draft layout (top-level "combined", metadata.num_runs, bare tags) is read
 * too. */

static const char * const aggregate_stats[] = { "avg", "mean", "min", "max", "std", "p1", "p5", "p10", "p25",
                                                "p50", "p75", "p90", "p95", "p99", NULL };

/* "time_to_first_token_p99" -> metric "ttft", stat "p99"; bare tag -> stat NULL */
static const char *
aggregate_key (const char  *key,
               const char **stat)
{
  *stat = NULL;
  for (gsize i = 0; i < G_N_ELEMENTS (latency_map); i++)
    {
      gsize kl = strlen (latency_map[i].key);

      if (!g_str_has_prefix (key, latency_map[i].key))
        continue;
      if (key[kl] == '\0')
        return latency_map[i].metric;
      if (key[kl] == '_')
        for (const char * const *s = aggregate_stats; *s; s++)
          if (g_str_equal (key + kl + 1, *s))
            {
              *stat = *s;
              return latency_map[i].metric;
            }
    }
  return NULL;
}

static double
block_number (JsonObject *b,
              const char *key)
{
  JsonNode *n = b ? json_object_get_member (b, key) : NULL;
  return node_number (n);
}

static JsonObject *
member_object (JsonObject *o,
               const char *key)
{
  JsonNode *n = o ? json_object_get_member (o, key) : NULL;
  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

/* The value of block @b: "mean" (aggregate, collated) or "avg" */
static double
block_value (JsonObject *b)
{
  double v = block_number (b, "mean");
  return isnan (v) ? block_number (b, "avg") : v;
}

static gboolean
parse_aiperf_aggregate (const char          *name,
                        const char          *data,
                        gsize                len,
                        ProcuraImportResult *result,
                        GCancellable        *cancellable,
                        GError             **error)
{
  g_autoptr (JsonNode) root = procura_json_parse (name, data, len, 0, PROCURA_JSON_ALLOW_NONFINITE, error);
  g_autoptr (ProcuraRun) run = NULL;
  JsonObject *o, *metrics, *ic;
  gboolean collated, pooled = FALSE;
  double n_runs = NAN, count, errors;
  char nbuf[32];
  GList *members;

  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $: expected an object (an AIPerf multi-run aggregate), found %s"), name,
                   procura_json_node_type_name (root));
      return FALSE;
    }
  o = json_node_get_object (root);
  collated = member_object (o, "combined") != NULL;
  metrics = collated ? member_object (o, "combined") : member_object (o, "metrics");
  if (metrics == NULL)
    metrics = o;
  /* AIPerf's collated file: metrics.<tag>.combined */
  {
    JsonObject *meta = member_object (o, "metadata");
    const char *type = meta ? node_string (json_object_get_member (meta, "aggregation_type")) : NULL;
    members = json_object_get_members (metrics);
    for (GList *l = members; l && !pooled; l = l->next)
      if (member_object (member_object (metrics, l->data), "combined") != NULL)
        pooled = TRUE;
    g_list_free (members);
    if (pooled || g_strcmp0 (type, "detailed") == 0)
      collated = pooled = TRUE;
  }
  run = procura_run_new ();
  members = json_object_get_members (metrics);
  for (GList *l = members; l; l = l->next)
    {
      const char *key = l->data, *stat = NULL, *metric = aggregate_key (key, &stat);
      JsonObject *b = member_object (metrics, key);
      const char *unit = NULL;
      double factor;

      if (pooled)
        b = member_object (b, "combined");
      if (metric == NULL || b == NULL)
        continue;
      unit = node_string (json_object_get_member (b, "unit"));
      factor = unit_to_ms (unit);
      if (isnan (factor))
        {
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                       _("%s: $.%s.unit: expected a time unit (ms, s, us, ns), found “%s”"), name, key, unit);
          g_list_free (members);
          return FALSE;
        }
      if (stat != NULL)
        procura_import_reported (run, metric, g_str_equal (stat, "avg") ? "mean" : stat, block_value (b), factor);
      else
        {
          /* a pooled distribution: its own statistics */
          procura_import_reported (run, metric, "mean", block_value (b), factor);
          for (const char * const *s = aggregate_stats; *s; s++)
            if (**s == 'p' || g_str_equal (*s, "min") || g_str_equal (*s, "max") || g_str_equal (*s, "std"))
              procura_import_reported (run, metric, *s, block_number (b, *s), factor);
        }
    }
  g_list_free (members);
  run->request_throughput = block_value (member_object (metrics, "request_throughput_avg"));
  if (isnan (run->request_throughput))
    run->request_throughput = block_value (member_object (metrics, "request_throughput"));
  run->output_throughput = block_value (member_object (metrics, "output_token_throughput_avg"));
  if (isnan (run->output_throughput))
    run->output_throughput = block_value (member_object (metrics, "output_token_throughput"));
  run->total_throughput = block_value (member_object (metrics, "total_token_throughput_avg"));
  if (isnan (run->total_throughput))
    run->total_throughput = block_value (member_object (metrics, "total_token_throughput"));
  run->input_tokens_mean = block_value (member_object (metrics, "input_sequence_length_avg"));
  if (isnan (run->input_tokens_mean))
    run->input_tokens_mean = block_value (member_object (metrics, "input_sequence_length"));
  run->output_tokens_mean = block_value (member_object (metrics, "output_sequence_length_avg"));
  if (isnan (run->output_tokens_mean))
    run->output_tokens_mean = block_value (member_object (metrics, "output_sequence_length"));
  if (pooled)
    {
      /* per-request records pooled: the token lengths' means, the requests counted */
      if (isnan (run->input_tokens_mean))
        run->input_tokens_mean = block_value (member_object (member_object (metrics, "input_sequence_length"), "combined"));
      if (isnan (run->output_tokens_mean))
        run->output_tokens_mean = block_value (member_object (member_object (metrics, "output_sequence_length"), "combined"));
    }
  run->scenario.input_len = run->input_tokens_mean;
  run->scenario.output_len = run->output_tokens_mean;
  count = pooled ? block_number (member_object (member_object (metrics, "request_latency"), "combined"), "count")
                 : block_value (member_object (metrics, "request_count"));
  errors = block_value (member_object (metrics, "error_request_count"));
  if (collated && count >= 0 && count < 1e15)
    run->completed = (gint64) count;
  if (collated && errors >= 0 && errors < 1e15)
    run->failed = (gint64) errors;

  /* how many runs, the confidence interval of the throughput */
  {
    JsonObject *meta = member_object (o, "metadata");
    JsonNode *per_run = json_object_get_member (o, "per_run");

    JsonNode *failed_runs = meta ? json_object_get_member (meta, "failed_runs") : NULL;

    n_runs = block_number (meta, "num_successful_runs");
    if (isnan (n_runs))
      n_runs = block_number (meta, "num_runs");
    if (isnan (n_runs))
      n_runs = block_number (o, "num_runs");
    if (failed_runs && JSON_NODE_HOLDS_ARRAY (failed_runs) && json_array_get_length (json_node_get_array (failed_runs)) > 0)
      procura_run_add_warning (run, "%u of the runs failed and are not in these figures (metadata.failed_runs)",
                               json_array_get_length (json_node_get_array (failed_runs)));
    if (isnan (n_runs) && per_run && JSON_NODE_HOLDS_ARRAY (per_run))
      n_runs = json_array_get_length (json_node_get_array (per_run));
  }
  ic = member_object (o, "input_config");
  if (ic != NULL)
    scenario_from_input_config (run, ic);
  if (isnan (n_runs))
    g_strlcpy (nbuf, "several", sizeof nbuf);
  else
    g_snprintf (nbuf, sizeof nbuf, "%g", n_runs);
  if (collated)
    procura_run_add_warning (run, "the requests of %s runs pooled into one distribution (AIPerf collated "
                             "file): not one run's figures", nbuf);
  else
    {
      JsonObject *rt = member_object (metrics, "request_throughput_avg")
                       ? member_object (metrics, "request_throughput_avg") : member_object (metrics, "request_throughput");
      double lo = block_number (rt, "ci_low"), hi = block_number (rt, "ci_high");

      procura_run_add_warning (run, "the mean over %s runs (AIPerf multi-run aggregate): each figure is a mean "
                               "of the runs' figures, not one run's", nbuf);
      if (!isnan (lo) && !isnan (hi))
        procura_run_add_warning (run, "request throughput across the runs: %.4g req/s, confidence interval "
                                 "%.4g to %.4g req/s", run->request_throughput, lo, hi);
    }
  run->label = isnan (n_runs) ? g_strdup (collated ? "runs pooled" : "mean of runs")
               : g_strdup_printf (collated ? "%g runs pooled" : "mean of %g runs", n_runs);
  if (run->scenario.load_type != NULL)
    {
      char *l = g_strdup_printf ("%s, %s %g%s", run->label, run->scenario.load_type, run->scenario.load_value,
                                 g_str_equal (run->scenario.load_type, "rate") ? " req/s" : "");
      g_free (run->label);
      run->label = l;
    }
  result->format_version = g_strdup (collated ? "aiperf-collated" : "aiperf-aggregate");
  g_ptr_array_add (result->runs, g_steal_pointer (&run));
  return TRUE;
}

static int
sniff_aiperf_aggregate (const char *data,
                        gsize       len)
{
  if (procura_sniff_first_char (data, len) != '{')
    return 0;
  if (procura_sniff_has (data, len, "\"ci_low\"") && procura_sniff_has (data, len, "\"t_critical\""))
    return 92;
  if (procura_sniff_has (data, len, "\"combined\"") && procura_sniff_has (data, len, "\"per_run\"")
      && (procura_sniff_has (data, len, "\"time_to_first_token") || procura_sniff_has (data, len, "\"request_latency")))
    return 92;
  return 0;
}

const ProcuraImporter procura_importer_aiperf_aggregate = {
  "aiperf-aggregate",
  "AIPerf multi-run aggregate or collated JSON (profile_export_aiperf_aggregate.json, _collated.json)",
  sniff_aiperf_aggregate,
  parse_aiperf_aggregate,
};
