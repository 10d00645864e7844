/* procura-import-sglang.c: SGLang `bench_serving` JSON lines (bare Infinity/NaN,
 * server_info) and SGLang server logs (KV cache allocation lines)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-import-private.h"

typedef struct {
  const char          *name;
  ProcuraImportResult *result;
} LineData;

static double
obj_double (JsonObject *o,
            const char *key)
{
  JsonNode *n = o ? json_object_get_member (o, key) : NULL;

  if (n && JSON_NODE_HOLDS_VALUE (n) && (json_node_get_value_type (n) == G_TYPE_INT64
                                         || json_node_get_value_type (n) == G_TYPE_DOUBLE))
    return json_node_get_double (n);
  return NAN;
}

static const char *
obj_string (JsonObject *o,
            const char *key)
{
  JsonNode *n = o ? json_object_get_member (o, key) : NULL;

  if (n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
    return json_node_get_string (n);
  return NULL;
}

static int
obj_int (JsonObject *o,
         const char *key)
{
  double v = obj_double (o, key);

  return (v >= 0 && v < 1e6 && v == floor (v)) ? (int) v : -1;
}

/* One server's arguments (and, newer builds, internal_states[0].memory_usage) as an
 * engine log. */
static void
add_server (ProcuraImportResult *result,
            JsonObject          *args,
            const char          *role,
            const char          *version)
{
  ProcuraEngineLog *l;
  JsonObject *mem = NULL;
  JsonNode *n;

  if (args == NULL || obj_string (args, "model_path") == NULL)
    return;
  l = procura_engine_log_new ();
  l->engine = g_strdup ("sglang");
  l->engine_version = g_strdup (version ? version : obj_string (args, "version"));
  l->model = g_strdup (obj_string (args, "model_path"));
  l->tp = obj_int (args, "tp_size");
  l->pp = obj_int (args, "pp_size");
  l->mem_fraction_static = obj_double (args, "mem_fraction_static");
  if (obj_double (args, "context_length") > 0)
    l->max_model_len = (gint64) obj_double (args, "context_length");
  if (obj_int (args, "page_size") > 0)
    l->block_size = obj_int (args, "page_size");
  if (obj_string (args, "kv_cache_dtype"))
    l->kv_dtype = g_strdup (obj_string (args, "kv_cache_dtype"));
  n = json_object_get_member (args, "memory_usage");
  if (n && JSON_NODE_HOLDS_OBJECT (n))
    mem = json_node_get_object (n);
  n = json_object_get_member (args, "internal_states");
  if (mem == NULL && n && JSON_NODE_HOLDS_ARRAY (n) && json_array_get_length (json_node_get_array (n)) > 0)
    {
      JsonNode *first = json_array_get_element (json_node_get_array (n), 0);
      if (JSON_NODE_HOLDS_OBJECT (first))
        {
          JsonNode *m = json_object_get_member (json_node_get_object (first), "memory_usage");
          if (m && JSON_NODE_HOLDS_OBJECT (m))
            mem = json_node_get_object (m);
        }
    }
  if (mem != NULL)
    {
      double tokens = obj_double (mem, "token_capacity");
      /* SGLang prints GB but means GiB */
      l->weights_gib = obj_double (mem, "weight");
      l->kv_available_gib = obj_double (mem, "kvcache");
      l->cuda_graph_gib = obj_double (mem, "graph");
      if (tokens >= 0 && tokens < 1e15)
        l->kv_tokens = (gint64) tokens;
    }
  (void) role;
  g_ptr_array_add (result->engine_logs, l);
}

static gboolean
sglang_line (JsonNode  *node,
             guint      line,
             gpointer   user_data,
             GError   **error)
{
  LineData *d = user_data;
  const char *name = d->name;
  g_autofree char *path = g_strdup_printf ("line %u: $", line);
  g_autoptr (ProcuraRun) run = procura_run_new ();
  g_autoptr (GString) extras = g_string_new ("{");
  JsonObject *o, *si = NULL, *server = NULL;
  double rate, conc, tin, tout, rin, rout;
  const char *s, *version = NULL;
  GList *members;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s:%u: expected a JSON object (one SGLang result per line), found %s"),
                   name, line, procura_json_node_type_name (node));
      return FALSE;
    }
  o = json_node_get_object (node);
  if (!procura_json_object (name, o, path, "server_info", &si, error))
    return FALSE;

  run->scenario.engine = g_strdup ("sglang");
  if (si != NULL)
    {
      JsonNode *n;

      version = obj_string (si, "version");
      if (obj_string (si, "model_path") != NULL)
        {
          server = si;
          add_server (d->result, si, NULL, version);
        }
      for (int k = 0; k < 2; k++)
        {
          const char *role = k == 0 ? "prefill" : "decode";
          n = json_object_get_member (si, role);
          if (n && JSON_NODE_HOLDS_ARRAY (n))
            {
              JsonArray *a = json_node_get_array (n);
              for (guint i = 0; i < json_array_get_length (a); i++)
                {
                  JsonNode *e = json_array_get_element (a, i);
                  if (JSON_NODE_HOLDS_OBJECT (e))
                    {
                      JsonObject *eo = json_node_get_object (e);
                      if (version == NULL)
                        version = obj_string (eo, "version");
                      if (server == NULL)
                        server = eo;
                      add_server (d->result, eo, role, obj_string (eo, "version"));
                    }
                }
            }
        }
    }
  if (server != NULL)
    {
      run->scenario.model = g_strdup (obj_string (server, "served_model_name")
                                      ? obj_string (server, "served_model_name")
                                      : obj_string (server, "model_path"));
      run->scenario.tp = obj_int (server, "tp_size");
      run->scenario.pp = obj_int (server, "pp_size");
      run->scenario.dp = obj_int (server, "dp_size");
    }
  if (version != NULL)
    run->scenario.engine_version = g_strdup (version);

  if (!procura_json_number (name, o, path, "request_rate", &rate, error)
      || !procura_json_number (name, o, path, "max_concurrency", &conc, error)
      || !procura_json_number (name, o, path, "duration", &run->duration_s, error)
      || !procura_json_count (name, o, path, "completed", &run->completed, error)
      || !procura_json_number (name, o, path, "request_throughput", &run->request_throughput, error)
      || !procura_json_number (name, o, path, "output_throughput", &run->output_throughput, error)
      || !procura_json_number (name, o, path, "total_throughput", &run->total_throughput, error)
      || !procura_json_number (name, o, path, "total_input_tokens", &tin, error)
      || !procura_json_number (name, o, path, "total_output_tokens", &tout, error)
      || !procura_json_number (name, o, path, "random_input_len", &rin, error)
      || !procura_json_number (name, o, path, "random_output_len", &rout, error))
    return FALSE;
  /* bench_serving of 2024 wrote no request_throughput: derive it, and say so */
  if (isnan (run->request_throughput) && run->completed > 0 && run->duration_s > 0
      && isfinite (run->duration_s))
    {
      run->request_throughput = (double) run->completed / run->duration_s;
      procura_run_add_warning (run, "the file has no request_throughput (SGLang bench_serving before 2025): "
                               "derived as completed / duration = %" G_GINT64_FORMAT " / %.4g s = %.4g req/s",
                               run->completed, run->duration_s, run->request_throughput);
    }
  if (!isnan (conc) && (isnan (rate) || isinf (rate)))
    {
      run->scenario.load_type = g_strdup ("concurrency");
      run->scenario.load_value = conc;
    }
  else if (!isnan (rate))
    {
      run->scenario.load_type = g_strdup ("rate");
      run->scenario.load_value = rate;
    }
  if (run->completed > 0)
    {
      run->input_tokens_mean = isnan (tin) ? NAN : tin / (double) run->completed;
      run->output_tokens_mean = isnan (tout) ? NAN : tout / (double) run->completed;
    }
  run->scenario.input_len = run->input_tokens_mean;
  run->scenario.output_len = run->output_tokens_mean;

  members = json_object_get_members (o);
  for (GList *l = members; l; l = l->next)
    {
      const char *key = l->data;
      const char *metric;
      g_autofree char *stat = NULL;

      if (procura_import_vllm_stat_key (key, &metric, &stat))
        {
          double v;
          if (!procura_json_number (name, o, path, key, &v, error))
            {
              g_list_free (members);
              return FALSE;
            }
          procura_import_reported (run, metric, stat, v, 1.0);
        }
    }
  g_list_free (members);

  /* Extras: what the dataset asked for and the achieved concurrency */
  {
    double c = NAN;
    if (!procura_json_number (name, o, path, "concurrency", &c, error))
      return FALSE;
    if (!procura_json_string (name, o, path, "dataset_name", &s, error))
      return FALSE;
    if (s != NULL)
      {
        g_autofree char *esc = g_strescape (s, NULL);
        g_string_append_printf (extras, "\"dataset_name\":\"%s\"", esc);
      }
    if (!isnan (c))
      g_string_append_printf (extras, "%s\"achieved_concurrency\":%.17g", extras->len > 1 ? "," : "", c);
    if (!isnan (rin))
      g_string_append_printf (extras, "%s\"random_input_len\":%.17g", extras->len > 1 ? "," : "", rin);
    if (!isnan (rout))
      g_string_append_printf (extras, "%s\"random_output_len\":%.17g", extras->len > 1 ? "," : "", rout);
    g_string_append_c (extras, '}');
    if (extras->len > 2)
      run->extras_json = g_strdup (extras->str);
  }

  if (!procura_import_vllm_per_request (name, o, path, NULL, run, error))
    return FALSE;

  if (!procura_json_string (name, o, path, "tag", &s, error))
    return FALSE;
  {
    g_autofree char *load = run->scenario.load_type == NULL ? g_strdup ("run")
      : g_str_equal (run->scenario.load_type, "concurrency") ? g_strdup_printf ("concurrency %g", run->scenario.load_value)
      : isinf (run->scenario.load_value) ? g_strdup ("rate unlimited")
      : g_strdup_printf ("rate %g req/s", run->scenario.load_value);
    run->label = s ? g_strdup_printf ("%s, %s", s, load) : g_strdup (load);
  }
  procura_run_add_warning (run, "SGLang's summary has no failed-request count: failures are unknown");
  g_ptr_array_add (d->result->runs, g_steal_pointer (&run));
  return TRUE;
}

static gboolean
parse_sglang (const char          *name,
              const char          *data,
              gsize                len,
              ProcuraImportResult *result,
              GCancellable        *cancellable,
              GError             **error)
{
  LineData d = { name, result };

  result->format_version = g_strdup ("jsonl");
  /* SGLang writes bare Infinity (and NaN) with Python's json.dumps */
  return procura_import_json_lines (name, data, len, PROCURA_JSON_ALLOW_NONFINITE,
                                    sglang_line, &d, cancellable, error);
}

static int
sniff_sglang (const char *data,
              gsize       len)
{
  if (procura_sniff_first_char (data, len) != '{')
    return 0;
  if (procura_sniff_has (data, len, "\"server_info\"") && procura_sniff_has (data, len, "_ttft_ms\""))
    return 90;
  if (procura_sniff_has (data, len, "_e2e_latency_ms\"") && procura_sniff_has (data, len, "_ttft_ms\""))
    return 85;
  return 0;
}

const ProcuraImporter procura_importer_sglang_serve = {
  "sglang-bench-serving",
  "SGLang bench_serving result (JSON lines)",
  sniff_sglang,
  parse_sglang,
};

/* ------------------------------------------------------------------------- */
/* SGLang server log: "KV Cache is allocated. #tokens: 2301748, K size: 39.51 GB, V size: 39.51 GB"
 * "Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=73.52 GB, mem usage=5.97 GB."
 * "Capture cuda graph end. Time elapsed: 5.12 s. mem usage=0.62 GB. avail mem=..." */

static double
number_after (const char *line,
              const char *key)
{
  const char *p = strstr (line, key);

  if (p == NULL)
    return NAN;
  p += strlen (key);
  while (*p == ' ')
    p++;
  return g_ascii_strtod (p, NULL);
}

static gboolean
parse_sglang_log (const char          *name,
                  const char          *data,
                  gsize                len,
                  ProcuraImportResult *result,
                  GCancellable        *cancellable,
                  GError             **error)
{
  g_autoptr (ProcuraEngineLog) l = procura_engine_log_new ();
  g_autofree char *text = g_strndup (data, len);
  g_auto (GStrv) lines = NULL;
  gboolean any = FALSE;

  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                   _("%s: not UTF-8 text; expected an SGLang server log"), name);
      return FALSE;
    }
  lines = procura_import_split_lines (text);
  l->engine = g_strdup ("sglang");
  for (char **p = lines; *p; p++)
    {
      const char *line = *p;

      if (strstr (line, "KV Cache is allocated"))
        {
          double t = number_after (line, "#tokens:");
          double k = number_after (line, "K size:");
          double v = number_after (line, "V size:");
          if (t >= 0 && t < 1e15)
            l->kv_tokens = (gint64) t;
          if (!isnan (k) && !isnan (v))
            l->kv_available_gib = k + v;
          any = TRUE;
        }
      else if (strstr (line, "Load weight end"))
        {
          l->weights_gib = number_after (line, "mem usage=");
          any = TRUE;
        }
      else if (strstr (line, "Capture cuda graph end"))
        {
          l->cuda_graph_gib = number_after (line, "mem usage=");
          any = TRUE;
        }
      else if (strstr (line, "max_total_num_tokens="))
        {
          double t = number_after (line, "max_total_num_tokens=");
          if (l->kv_tokens < 0 && t >= 0 && t < 1e15)
            l->kv_tokens = (gint64) t;
          any = TRUE;
        }
      else if (strstr (line, "out of memory") || strstr (line, "Not enough memory"))
        {
          g_ptr_array_add (l->errors, g_strstrip (g_strdup (line)));
          any = TRUE;
        }
    }
  if (!any)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: no SGLang KV cache, weight or CUDA graph line found; expected an SGLang server log"), name);
      return FALSE;
    }
  result->format_version = g_strdup ("log");
  g_ptr_array_add (result->engine_logs, g_steal_pointer (&l));
  return TRUE;
}

static int
sniff_sglang_log (const char *data,
                  gsize       len)
{
  if (procura_sniff_has (data, len, "KV Cache is allocated. #tokens:"))
    return 70;
  return 0;
}

const ProcuraImporter procura_importer_sglang_log = {
  "sglang-log",
  "SGLang server log (KV cache allocation)",
  sniff_sglang_log,
  parse_sglang_log,
};
