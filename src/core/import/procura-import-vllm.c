/* procura-import-vllm.c: vLLM `bench serve` (single object, --append-result JSON lines,
 * `bench sweep` summary list), `bench latency` and `bench throughput` JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-import-private.h"
#include "procura-json-bulk.h"
#include "procura-json-out.h"
#include "procura-json-stream.h"

/* From this size on a single vLLM object is read by a bulk reader: from a file by the
 * chunked one (procura-json-stream.c), from memory by simdjson. */
#define BULK_THRESHOLD (1024 * 1024)

/* Per-request arrays the bulk readers never keep */
static const char * const skip[] = { "generated_texts", "start_times", NULL };

/* Keys the importer understands; other scalar keys of a sweep summary are the swept
 * parameters (shown in the label), of a single run --metadata (kept in extras). */
static const char * const known_keys[] = {
  "date", "endpoint_type", "backend", "label", "model_id", "tokenizer_id", "num_prompts",
  "request_rate", "burstiness", "max_concurrency", "duration", "completed", "failed",
  "total_input_tokens", "total_output_tokens", "request_throughput", "request_goodput",
  "request_goodput:", "output_throughput", "total_token_throughput", "input_throughput",
  "max_output_tokens_per_s", "max_concurrent_requests", "rtfx", "best_of", "use_beam_search",
  "timestamp", "input_lens", "output_lens", "ttfts", "itls", "start_times", "latencies",
  "generated_texts", "errors", "framework", "engine", "gpu", "gpu_name", "gpu_type",
  "accelerator", "gpu_count", "num_gpus", "tp", "tp_size", "tensor_parallel_size", "pp",
  "pp_size", "pipeline_parallel_size", "dp", "dp_size", "data_parallel_size",
  "engine_version", "vllm_version", "version", NULL
};

typedef struct {
  gboolean present;
  double  *v;
  gsize    n;
  gboolean nested;
  gsize    rows;
  double  *row_sum;
  guint32 *row_len;
  gboolean strings;
} Arr;

static void
arr_clear (Arr *a)
{
  g_free (a->v);
  g_free (a->row_sum);
  g_free (a->row_len);
  memset (a, 0, sizeof *a);
}

/* ------------------------------------------------------------------------- */
/* Shared helpers                                                              */

static const char *
metric_of (const char *m)
{
  if (g_str_equal (m, "ttft"))
    return "ttft";
  if (g_str_equal (m, "tpot"))
    return "tpot";
  if (g_str_equal (m, "itl"))
    return "itl";
  if (g_str_equal (m, "e2el") || g_str_equal (m, "latency") || g_str_equal (m, "e2e_latency"))
    return "e2e";
  return NULL;
}

/* "mean_ttft_ms", "median_itl_ms", "std_tpot_ms", "p99.9_ttft_ms", "p95_e2el_ms",
 * "mean_latency_ms" (2024), "mean_e2e_latency_ms" (SGLang) */
gboolean
procura_import_vllm_stat_key (const char  *key,
                              const char **metric,
                              char       **stat)
{
  const char *us;
  g_autofree char *m = NULL;
  gsize klen = strlen (key);

  if (klen < 8 || !g_str_has_suffix (key, "_ms"))
    return FALSE;
  us = strchr (key, '_');
  /* "<stat>_<metric>_ms": the metric must lie between the first '_' and "_ms" */
  if (us == NULL || us + 1 >= key + klen - 3)
    return FALSE;
  m = g_strndup (us + 1, (gsize) (key + klen - 3 - (us + 1)));
  if ((*metric = metric_of (m)) == NULL)
    return FALSE;
  if (g_str_has_prefix (key, "mean_"))
    *stat = g_strdup ("mean");
  else if (g_str_has_prefix (key, "median_"))
    *stat = g_strdup ("p50");
  else if (g_str_has_prefix (key, "std_"))
    *stat = g_strdup ("std");
  else if (key[0] == 'p' && g_ascii_isdigit (key[1]))
    {
      g_autofree char *num = g_strndup (key + 1, (gsize) (us - key - 1));
      char *end = NULL;
      double pct = g_ascii_strtod (num, &end);

      if (end == NULL || *end != '\0' || pct < 0 || pct > 100)
        return FALSE;
      *stat = procura_import_pct_name (pct);
    }
  else
    return FALSE;
  return TRUE;
}

static gboolean
get_arr_unchecked (const char     *name,
                   JsonObject     *o,
                   const char     *path,
                   ProcuraBulkDoc *bulk,
                   const char     *key,
                   Arr            *out,
                   GError        **error)
{
  JsonArray *ja = NULL;
  guint len;
  g_autofree char *p = NULL;

  memset (out, 0, sizeof *out);
  if (bulk != NULL)
    {
      ProcuraBulkArray *b = procura_json_bulk_get (bulk, key);

      if (b == NULL)
        return TRUE;
      out->present = TRUE;
      out->nested = b->nested;
      out->strings = b->strings;
      out->rows = b->rows;
      out->row_sum = g_steal_pointer (&b->row_sum);
      out->row_len = g_steal_pointer (&b->row_len);
      out->n = b->n;
      out->v = procura_json_bulk_steal_values (b);
      return TRUE;
    }

  if (!procura_json_array (name, o, path, key, &ja, error))
    return FALSE;
  if (ja == NULL)
    return TRUE;
  out->present = TRUE;
  len = json_array_get_length (ja);
  p = g_strdup_printf ("%s.%s", path, key);
  if (len > 0 && JSON_NODE_HOLDS_ARRAY (json_array_get_element (ja, 0)))
    {
      gsize total = 0, k = 0;

      out->nested = TRUE;
      out->rows = len;
      out->row_sum = g_new0 (double, MAX (len, 1));
      out->row_len = g_new0 (guint32, MAX (len, 1));
      for (guint i = 0; i < len; i++)
        {
          JsonNode *e = json_array_get_element (ja, i);
          if (!JSON_NODE_HOLDS_ARRAY (e))
            {
              g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                           _("%s: %s[%u]: expected a list of numbers, found %s"), name, p, i,
                           procura_json_node_type_name (e));
              return FALSE;
            }
          total += json_array_get_length (json_node_get_array (e));
        }
      out->v = g_new (double, MAX (total, 1));
      for (guint i = 0; i < len; i++)
        {
          JsonArray *inner = json_node_get_array (json_array_get_element (ja, i));
          guint ilen = json_array_get_length (inner);

          for (guint j = 0; j < ilen; j++)
            {
              g_autofree char *what = g_strdup_printf ("%s[%u][%u]", p, i, j);
              if (!procura_json_node_number (name, json_array_get_element (inner, j), what,
                                             &out->v[k], error))
                return FALSE;
              out->row_sum[i] += out->v[k++];
            }
          out->row_len[i] = ilen;
        }
      out->n = total;
      return TRUE;
    }
  if (len > 0 && JSON_NODE_HOLDS_VALUE (json_array_get_element (ja, 0))
      && json_node_get_value_type (json_array_get_element (ja, 0)) == G_TYPE_STRING
      && g_str_equal (key, "errors"))
    {
      out->strings = TRUE;
      out->n = len;
      out->v = g_new (double, len);
      for (guint i = 0; i < len; i++)
        {
          JsonNode *e = json_array_get_element (ja, i);
          if (JSON_NODE_HOLDS_NULL (e))
            out->v[i] = 0;
          else if (JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_STRING)
            out->v[i] = json_node_get_string (e)[0] != '\0';
          else
            {
              g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                           _("%s: %s[%u]: expected a string, found %s"), name, p, i,
                           procura_json_node_type_name (e));
              return FALSE;
            }
        }
      return TRUE;
    }
  return procura_import_number_array (name, ja, p, 1.0, &out->v, &out->n, error);
}

/* On failure *out is left empty: a half-read array (rows summed before a bad element)
 * is freed here, not by each caller */
static gboolean
get_arr (const char     *name,
         JsonObject     *o,
         const char     *path,
         ProcuraBulkDoc *bulk,
         const char     *key,
         Arr            *out,
         GError        **error)
{
  if (get_arr_unchecked (name, o, path, bulk, key, out, error))
    return TRUE;
  arr_clear (out);
  return FALSE;
}

static void
scale (double *v,
       gsize   n,
       double  f)
{
  for (gsize i = 0; i < n; i++)
    v[i] *= f;
}

static gboolean
shape_error (const char *name,
             const char *path,
             const char *key,
             gsize       n,
             gsize       expected,
             GError    **error)
{
  g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
               _("%s: %s.%s has %zu entries but %s.ttfts has %zu; expected one per request"),
               name, path, key, n, path, expected);
  return FALSE;
}

/* Per-request arrays (seconds) -> samples (milliseconds, tokens). A request counts as
 * successful when its entry in `errors` is empty (vLLM's own rule). */
gboolean
procura_import_vllm_per_request (const char     *name,
                  JsonObject     *o,
                  const char     *path,
                  ProcuraBulkDoc *bulk,
                  ProcuraRun     *run,
                  GError        **error)
{
  Arr ttfts, itls, ins, outs, lat, errs;
  gboolean ok = FALSE;
  gsize n, n_ok = 0;
  g_autofree guint8 *good = NULL;

  memset (&itls, 0, sizeof itls);
  memset (&ins, 0, sizeof ins);
  memset (&outs, 0, sizeof outs);
  memset (&lat, 0, sizeof lat);
  memset (&errs, 0, sizeof errs);
  if (!get_arr (name, o, path, bulk, "ttfts", &ttfts, error))
    return FALSE;
  if (!ttfts.present || ttfts.nested || ttfts.strings)
    {
      arr_clear (&ttfts);
      return TRUE;
    }
  n = ttfts.n;
  if (!get_arr (name, o, path, bulk, "itls", &itls, error)
      || !get_arr (name, o, path, bulk, "input_lens", &ins, error)
      || !get_arr (name, o, path, bulk, "output_lens", &outs, error)
      || !get_arr (name, o, path, bulk, "latencies", &lat, error)
      || !get_arr (name, o, path, bulk, "errors", &errs, error))
    goto out;
  if (itls.present && !(itls.nested || itls.n == 0))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: %s.itls: expected a list of lists of seconds (one list per request)"), name, path);
      goto out;
    }
  if (itls.present && itls.nested && itls.rows != n)
    {
      shape_error (name, path, "itls", itls.rows, n, error);
      goto out;
    }
  if (outs.present && outs.n != n)
    {
      shape_error (name, path, "output_lens", outs.n, n, error);
      goto out;
    }
  if (ins.present && ins.n != n)
    {
      shape_error (name, path, "input_lens", ins.n, n, error);
      goto out;
    }
  if (lat.present && lat.n != n)
    {
      shape_error (name, path, "latencies", lat.n, n, error);
      goto out;
    }
  if (errs.present && errs.n != n)
    {
      shape_error (name, path, "errors", errs.n, n, error);
      goto out;
    }

  good = g_new (guint8, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    {
      good[i] = !(errs.present && errs.v[i] != 0);
      n_ok += good[i];
    }

  /* ttft */
  {
    double *v = g_new (double, MAX (n_ok, 1));
    gsize k = 0;
    for (gsize i = 0; i < n; i++)
      if (good[i])
        v[k++] = ttfts.v[i] * 1000.0;
    procura_run_take_samples (run, "ttft", v, k);
  }
  /* itl: every gap of every successful request */
  if (itls.present && itls.nested)
    {
      if (n_ok == n)
        {
          scale (itls.v, itls.n, 1000.0);
          procura_run_take_samples (run, "itl", g_steal_pointer (&itls.v), itls.n);
        }
      else
        {
          gsize total = 0, k = 0, off = 0;
          double *v;

          for (gsize i = 0; i < n; i++)
            if (good[i])
              total += itls.row_len[i];
          v = g_new (double, MAX (total, 1));
          for (gsize i = 0; i < n; i++)
            {
              if (good[i])
                for (guint32 j = 0; j < itls.row_len[i]; j++)
                  v[k++] = itls.v[off + j] * 1000.0;
              off += itls.row_len[i];
            }
          procura_run_take_samples (run, "itl", v, k);
        }
    }
  /* tpot: (latency - ttft) / (output_len - 1), requests with more than one token;
   * without latencies, latency - ttft is the sum of the request's chunk gaps */
  if (outs.present && (lat.present || (itls.present && itls.nested)))
    {
      double *v = g_new (double, MAX (n_ok, 1));
      gsize k = 0;

      for (gsize i = 0; i < n; i++)
        if (good[i] && outs.v[i] > 1)
          {
            double decode = lat.present ? lat.v[i] - ttfts.v[i] : itls.row_sum[i];
            v[k++] = decode / (outs.v[i] - 1) * 1000.0;
          }
      procura_run_take_samples (run, "tpot", v, k);
    }
  if (lat.present)
    {
      double *v = g_new (double, MAX (n_ok, 1));
      gsize k = 0;
      for (gsize i = 0; i < n; i++)
        if (good[i])
          v[k++] = lat.v[i] * 1000.0;
      procura_run_take_samples (run, "e2e", v, k);
    }
  if (ins.present)
    {
      double *v = g_new (double, MAX (n_ok, 1));
      gsize k = 0;
      for (gsize i = 0; i < n; i++)
        if (good[i])
          v[k++] = ins.v[i];
      procura_run_take_samples (run, "input_len", v, k);
    }
  if (outs.present)
    {
      double *v = g_new (double, MAX (n_ok, 1));
      gsize k = 0;
      for (gsize i = 0; i < n; i++)
        if (good[i])
          v[k++] = outs.v[i];
      procura_run_take_samples (run, "output_len", v, k);
    }
  if (errs.present && n_ok < n && run->failed < 0)
    run->failed = (gint64) (n - n_ok);
  ok = TRUE;

out:
  arr_clear (&ttfts);
  arr_clear (&itls);
  arr_clear (&ins);
  arr_clear (&outs);
  arr_clear (&lat);
  arr_clear (&errs);
  return ok;
}

static const char *
first_string (JsonObject         *o,
              const char * const *keys)
{
  for (; *keys; keys++)
    {
      JsonNode *n = json_object_get_member (o, *keys);
      if (n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING
          && json_node_get_string (n)[0] != '\0')
        return json_node_get_string (n);
    }
  return NULL;
}

static int
first_int (JsonObject         *o,
           const char * const *keys)
{
  for (; *keys; keys++)
    {
      JsonNode *n = json_object_get_member (o, *keys);
      if (n && JSON_NODE_HOLDS_VALUE (n))
        {
          GType t = json_node_get_value_type (n);
          double v = NAN;

          if (t == G_TYPE_INT64 || t == G_TYPE_DOUBLE)
            v = json_node_get_double (n);
          else if (t == G_TYPE_STRING)
            {
              char *end = NULL;
              v = g_ascii_strtod (json_node_get_string (n), &end);
              if (end == NULL || *end != '\0')
                v = NAN;
            }
          if (v >= 1 && v <= 100000 && v == floor (v))
            return (int) v;
        }
    }
  return -1;
}

/* --metadata KEY=VALUE lands at top level: people put gpu=, tp= there. */
void
procura_import_scenario_from_metadata (ProcuraScenario *sc,
                                       JsonObject      *o)
{
  static const char * const gpu_keys[] = { "gpu", "gpu_name", "gpu_type", "accelerator", "hardware", NULL };
  static const char * const count_keys[] = { "gpu_count", "num_gpus", "gpus", NULL };
  static const char * const tp_keys[] = { "tp", "tp_size", "tensor_parallel_size", NULL };
  static const char * const pp_keys[] = { "pp", "pp_size", "pipeline_parallel_size", NULL };
  static const char * const dp_keys[] = { "dp", "dp_size", "data_parallel_size", NULL };
  static const char * const engine_keys[] = { "engine", "framework", NULL };
  static const char * const version_keys[] = { "engine_version", "vllm_version", NULL };
  const char *s;

  if (sc->gpu_name == NULL && (s = first_string (o, gpu_keys)) != NULL)
    sc->gpu_name = g_strdup (s);
  if (sc->engine == NULL && (s = first_string (o, engine_keys)) != NULL)
    {
      /* the short names harnesses use, as Procura names the engines */
      static const char * const aliases[][2] = {
        { "sgl", "sglang" }, { "trt", "tensorrt-llm" }, { "trtllm", "tensorrt-llm" }, { "trt-llm", "tensorrt-llm" },
        { "tensorrt_llm", "tensorrt-llm" }, { "tensorrtllm", "tensorrt-llm" },
      };
      g_autofree char *lower = g_ascii_strdown (s, -1);

      sc->engine = NULL;
      for (gsize i = 0; i < G_N_ELEMENTS (aliases) && sc->engine == NULL; i++)
        if (g_str_equal (lower, aliases[i][0]))
          sc->engine = g_strdup (aliases[i][1]);
      if (sc->engine == NULL)
        sc->engine = g_steal_pointer (&lower);
    }
  if (sc->engine_version == NULL && (s = first_string (o, version_keys)) != NULL)
    sc->engine_version = g_strdup (s);
  if (sc->gpu_count < 0)
    sc->gpu_count = first_int (o, count_keys);
  if (sc->tp < 0)
    sc->tp = first_int (o, tp_keys);
  if (sc->pp < 0)
    sc->pp = first_int (o, pp_keys);
  if (sc->dp < 0)
    sc->dp = first_int (o, dp_keys);
}

static char *
load_label (const ProcuraScenario *sc)
{
  if (sc->load_type == NULL)
    return g_strdup ("run");
  if (g_str_equal (sc->load_type, "concurrency"))
    return g_strdup_printf ("concurrency %g", sc->load_value);
  if (g_str_equal (sc->load_type, "rate"))
    return isinf (sc->load_value) ? g_strdup ("rate unlimited")
                                  : g_strdup_printf ("rate %g req/s", sc->load_value);
  return g_strdup (sc->load_type);
}

/* ------------------------------------------------------------------------- */
/* bench serve                                                                  */

static gboolean
serve_run (const char          *name,
           JsonObject          *o,
           const char          *path,
           ProcuraBulkDoc      *bulk,
           gboolean             sweep,
           ProcuraImportResult *result,
           GError             **error)
{
  g_autoptr (ProcuraRun) run = procura_run_new ();
  g_autoptr (JsonObject) extras = json_object_new ();
  g_autoptr (GString) swept = g_string_new (NULL);
  const char *s;
  double rate = NAN, conc = NAN, tin = NAN, tout = NAN, goodput = NAN;
  JsonNode *rate_node;
  GList *members;

  if (!procura_json_string (name, o, path, "model_id", &s, error))
    return FALSE;
  run->scenario.model = g_strdup (s);
  /* the engine the file states (--metadata framework=sgl) wins: "backend" names the
   * client's protocol, which other engines serve too */
  procura_import_scenario_from_metadata (&run->scenario, o);
  if (!procura_json_string (name, o, path, "backend", &s, error))
    return FALSE;
  if (run->scenario.engine == NULL && s != NULL && g_str_equal (s, "vllm"))
    run->scenario.engine = g_strdup ("vllm");

  rate_node = json_object_get_member (o, "request_rate");
  if (!procura_json_number (name, o, path, "request_rate", &rate, error)
      || !procura_json_number (name, o, path, "max_concurrency", &conc, error))
    return FALSE;
  (void) rate_node;
  if (!isnan (conc) && (isnan (rate) || isinf (rate)))
    {
      run->scenario.load_type = g_strdup ("concurrency");
      run->scenario.load_value = conc;
    }
  else if (!isnan (rate))
    {
      run->scenario.load_type = g_strdup ("rate");
      run->scenario.load_value = rate;
      if (!isnan (conc))
        json_object_set_double_member (extras, "max_concurrency", conc);
    }

  if (!procura_json_number (name, o, path, "duration", &run->duration_s, error)
      || !procura_json_count (name, o, path, "completed", &run->completed, error)
      || !procura_json_count (name, o, path, "failed", &run->failed, error)
      || !procura_json_number (name, o, path, "request_throughput", &run->request_throughput, error)
      || !procura_json_number (name, o, path, "output_throughput", &run->output_throughput, error)
      || !procura_json_number (name, o, path, "total_token_throughput", &run->total_throughput, error)
      || !procura_json_number (name, o, path, "total_input_tokens", &tin, error)
      || !procura_json_number (name, o, path, "total_output_tokens", &tout, error))
    return FALSE;
  {
    gint64 prompts;
    if (!procura_json_count (name, o, path, "num_prompts", &prompts, error))
      return FALSE;
    if (prompts > 0 && run->completed >= 0 && run->completed < prompts && run->failed <= 0)
      procura_run_add_warning (run, "only %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT
                               " prompts completed and the file counts no failures",
                               run->completed, prompts);
  }
  if (run->completed > 0)
    {
      run->input_tokens_mean = isnan (tin) ? NAN : tin / (double) run->completed;
      run->output_tokens_mean = isnan (tout) ? NAN : tout / (double) run->completed;
    }
  run->scenario.input_len = run->input_tokens_mean;
  run->scenario.output_len = run->output_tokens_mean;
  if (isnan (run->total_throughput) && !isnan (run->duration_s) && run->duration_s > 0
      && !isnan (tin) && !isnan (tout))
    run->total_throughput = (tin + tout) / run->duration_s;

  /* goodput: "request_goodput" or the old typo "request_goodput:" */
  if (!procura_json_number (name, o, path, "request_goodput", &goodput, error))
    return FALSE;
  if (isnan (goodput) && !procura_json_number (name, o, path, "request_goodput:", &goodput, error))
    return FALSE;
  if (!isnan (goodput))
    json_object_set_double_member (extras, "request_goodput", goodput);

  members = json_object_get_members (o);
  for (GList *l = members; l; l = l->next)
    {
      const char *key = l->data;
      const char *metric;
      g_autofree char *stat = NULL;
      JsonNode *node = json_object_get_member (o, key);

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
      else if (g_str_has_prefix (key, "spec_decode_") || g_str_equal (key, "max_output_tokens_per_s")
               || g_str_equal (key, "max_concurrent_requests") || g_str_equal (key, "rtfx")
               || g_str_equal (key, "burstiness") || g_str_equal (key, "input_throughput")
               || g_str_equal (key, "num_prompts") || g_str_equal (key, "date")
               || g_str_equal (key, "endpoint_type") || g_str_equal (key, "label"))
        json_object_set_member (extras, key, json_node_copy (node));
      else if (!g_strv_contains (known_keys, key) && JSON_NODE_HOLDS_VALUE (node))
        {
          /* --metadata, or a swept parameter of a sweep summary */
          json_object_set_member (extras, key, json_node_copy (node));
          if (sweep)
            {
              g_autofree char *v = NULL;
              if (json_node_get_value_type (node) == G_TYPE_STRING)
                v = g_strdup (json_node_get_string (node));
              else if (json_node_get_value_type (node) == G_TYPE_INT64)
                v = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
              else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
                v = g_strdup_printf ("%g", json_node_get_double (node));
              else
                v = g_strdup (json_node_get_boolean (node) ? "true" : "false");
              g_string_append_printf (swept, "%s%s=%s", swept->len ? ", " : "", key, v);
            }
        }
    }
  g_list_free (members);

  if (!procura_import_vllm_per_request (name, o, path, bulk, run, error))
    return FALSE;

  {
    g_autofree char *load = load_label (&run->scenario);
    if (!procura_json_string (name, o, path, "label", &s, error))
      return FALSE;
    run->label = swept->len ? g_strdup_printf ("%s (%s)", load, swept->str)
                 : s ? g_strdup_printf ("%s, %s", s, load) : g_strdup (load);
  }
  if (json_object_get_size (extras) > 0)
    {
      g_autoptr (JsonNode) node = json_node_init_object (json_node_alloc (), extras);
      run->extras_json = procura_json_to_data (node, FALSE);
    }
  g_ptr_array_add (result->runs, g_steal_pointer (&run));
  return TRUE;
}

typedef struct {
  const char          *name;
  ProcuraImportResult *result;
} LineData;

static gboolean
serve_line (JsonNode  *node,
            guint      line,
            gpointer   user_data,
            GError   **error)
{
  LineData *d = user_data;
  g_autofree char *path = g_strdup_printf ("line %u: $", line);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s:%u: expected a JSON object (one vLLM result per line), found %s"),
                   d->name, line, procura_json_node_type_name (node));
      return FALSE;
    }
  return serve_run (d->name, json_node_get_object (node), path, NULL, FALSE, d->result, error);
}

/* TRUE when the first line alone is a JSON value and more follows: JSON Lines. */
gboolean
procura_import_looks_like_json_lines (const char *data,
                                      gsize       len)
{
  const char *nl = memchr (data, '\n', len);
  g_autofree char *rw = NULL;
  gsize rwlen;
  gsize first;

  if (nl == NULL)
    return FALSE;
  first = (gsize) (nl - data);
  for (gsize i = first; i < len; i++)
    if (!g_ascii_isspace (data[i]))
      return procura_json_check ("", data, first, 0, PROCURA_JSON_ALLOW_NONFINITE, &rw, &rwlen, NULL);
  return FALSE;
}

static gboolean
parse_serve_impl (const char          *name,
                  const char          *data,
                  gsize                len,
                  gboolean             allow_bulk,
                  ProcuraImportResult *result,
                  GCancellable        *cancellable,
                  GError             **error)
{
  g_autoptr (JsonNode) root = NULL;

  if (allow_bulk && procura_json_bulk_available () && procura_sniff_first_char (data, len) == '{')
    {
      g_autoptr (ProcuraBulkDoc) doc = procura_json_bulk_parse (data, len, skip);

      if (doc != NULL)
        {
          result->format_version = g_strdup ("single");
          return serve_run (name, doc->members, "$", doc, FALSE, result, error);
        }
      /* not one well-formed object for simdjson: the strict path words the error */
    }

  if (procura_import_looks_like_json_lines (data, len))
    {
      LineData d = { name, result };
      result->format_version = g_strdup ("jsonl");
      return procura_import_json_lines (name, data, len, PROCURA_JSON_ALLOW_NONFINITE,
                                        serve_line, &d, cancellable, error);
    }

  root = procura_json_parse (name, data, len, 0, PROCURA_JSON_ALLOW_NONFINITE, error);
  if (root == NULL)
    return FALSE;
  if (JSON_NODE_HOLDS_ARRAY (root))
    {
      JsonArray *a = json_node_get_array (root);
      guint n = json_array_get_length (a);

      result->format_version = g_strdup ("sweep-summary");
      if (n == 0)
        {
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                       _("%s: $: the sweep summary is an empty list; expected one result per run"), name);
          return FALSE;
        }
      for (guint i = 0; i < n; i++)
        {
          JsonNode *e = json_array_get_element (a, i);
          g_autofree char *path = g_strdup_printf ("$[%u]", i);

          if (!JSON_NODE_HOLDS_OBJECT (e))
            {
              g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                           _("%s: %s: expected an object (one bench-serve result), found %s"),
                           name, path, procura_json_node_type_name (e));
              return FALSE;
            }
          if (!serve_run (name, json_node_get_object (e), path, NULL, TRUE, result, error))
            return FALSE;
        }
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $: expected an object (a vLLM bench serve result), found %s"),
                   name, procura_json_node_type_name (root));
      return FALSE;
    }
  result->format_version = g_strdup ("single");
  return serve_run (name, json_node_get_object (root), "$", NULL, FALSE, result, error);
}

/* Exposed for the fuzz target: the json-glib path and the simdjson path. */
gboolean procura_import_vllm_serve_parse (const char          *name,
                                          const char          *data,
                                          gsize                len,
                                          gboolean             allow_bulk,
                                          ProcuraImportResult *result,
                                          GError             **error);
gboolean
procura_import_vllm_serve_parse (const char          *name,
                                 const char          *data,
                                 gsize                len,
                                 gboolean             allow_bulk,
                                 ProcuraImportResult *result,
                                 GError             **error)
{
  return parse_serve_impl (name, data, len, allow_bulk, result, NULL, error);
}

gboolean
procura_import_vllm_serve_parse_fd (const char          *name,
                                    int                  fd,
                                    gsize                size,
                                    ProcuraJsonChunkFunc chunk_func,
                                    gpointer             user_data,
                                    ProcuraImportResult *result,
                                    GCancellable        *cancellable,
                                    gboolean            *handled,
                                    GError             **error)
{
  g_autoptr (ProcuraBulkDoc) doc = NULL;

  *handled = FALSE;
  /* the same choice as parse_serve(): big files, read by simdjson there (when its module
   * loads: the chunked reader is plain C, always there, and never loads it) */
  if (size < BULK_THRESHOLD)
    return FALSE;
  doc = procura_json_bulk_parse_fd (fd, size, skip, chunk_func, user_data, cancellable);
  if (doc == NULL)
    return FALSE;
  *handled = TRUE;
  result->format_version = g_strdup ("single");
  return serve_run (name, doc->members, "$", doc, FALSE, result, error);
}

static gboolean
parse_serve (const char          *name,
             const char          *data,
             gsize                len,
             ProcuraImportResult *result,
             GCancellable        *cancellable,
             GError             **error)
{
  return parse_serve_impl (name, data, len, len >= BULK_THRESHOLD, result, cancellable, error);
}

static int
sniff_serve (const char *data,
             gsize       len)
{
  char c = procura_sniff_first_char (data, len);

  if (c != '{' && c != '[')
    return 0;
  if (procura_sniff_has (data, len, "\"server_info\"") || procura_sniff_has (data, len, "_e2e_latency_ms\""))
    return 0;   /* SGLang */
  if (procura_sniff_has (data, len, "_ttft_ms\"") && (procura_sniff_has (data, len, "_tpot_ms\"")
                                                      || procura_sniff_has (data, len, "\"model_id\"")))
    return 80;
  if ((procura_sniff_has (data, len, "\"ttfts\"") && procura_sniff_has (data, len, "\"itls\""))
      || procura_sniff_has (data, len, "\"itls\": [["))
    return 60;
  return 0;
}

const ProcuraImporter procura_importer_vllm_serve = {
  "vllm-bench-serve",
  "vLLM bench serve / benchmark_serving.py result (JSON, JSON lines, sweep summary)",
  sniff_serve,
  parse_serve,
};

/* ------------------------------------------------------------------------- */
/* bench latency: {avg_latency, latencies[], percentiles{"10",...}} in seconds  */

static int
sniff_latency (const char *data,
               gsize       len)
{
  if (procura_sniff_first_char (data, len) != '{')
    return 0;
  if (procura_sniff_has (data, len, "\"benchmarks\""))
    return 0;
  if (procura_sniff_has (data, len, "\"avg_latency\"") && procura_sniff_has (data, len, "\"latencies\""))
    return 90;
  return 0;
}

static gboolean
parse_latency (const char          *name,
               const char          *data,
               gsize                len,
               ProcuraImportResult *result,
               GCancellable        *cancellable,
               GError             **error)
{
  g_autoptr (JsonNode) root = procura_json_parse (name, data, len, 0, PROCURA_JSON_ALLOW_NONFINITE, error);
  g_autoptr (ProcuraRun) run = NULL;
  JsonObject *o, *pct = NULL;
  JsonArray *lat = NULL;
  double avg;

  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $: expected an object, found %s"), name, procura_json_node_type_name (root));
      return FALSE;
    }
  o = json_node_get_object (root);
  run = procura_run_new ();
  if (!procura_json_number (name, o, "$", "avg_latency", &avg, error)
      || !procura_json_array (name, o, "$", "latencies", &lat, error)
      || !procura_json_object (name, o, "$", "percentiles", &pct, error))
    return FALSE;
  if (isnan (avg) && lat == NULL)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $: expected avg_latency or latencies (seconds)"), name);
      return FALSE;
    }
  run->label = g_strdup ("offline batch latency");
  run->scenario.engine = g_strdup ("vllm");
  run->scenario.load_type = g_strdup ("batch");
  procura_import_reported (run, "e2e", "mean", avg, 1000.0);
  if (pct != NULL)
    {
      GList *members = json_object_get_members (pct);
      for (GList *l = members; l; l = l->next)
        {
          char *end = NULL;
          double p = g_ascii_strtod (l->data, &end), v;
          g_autofree char *stat = NULL;

          if (!procura_json_number (name, pct, "$.percentiles", l->data, &v, error))
            {
              g_list_free (members);
              return FALSE;
            }
          if (end == NULL || *end != '\0' || p < 0 || p > 100)
            continue;
          stat = procura_import_pct_name (p);
          procura_import_reported (run, "e2e", stat, v, 1000.0);
        }
      g_list_free (members);
    }
  if (lat != NULL)
    {
      double *v;
      gsize n;

      if (!procura_import_number_array (name, lat, "$.latencies", 1000.0, &v, &n, error))
        return FALSE;
      run->completed = (gint64) n;
      procura_run_take_samples (run, "e2e", v, n);
    }
  procura_run_add_warning (run, "vLLM bench latency measures whole offline batches: each latency is one batch, not one request");
  result->format_version = g_strdup ("latency");
  g_ptr_array_add (result->runs, g_steal_pointer (&run));
  return TRUE;
}

const ProcuraImporter procura_importer_vllm_latency = {
  "vllm-bench-latency",
  "vLLM bench latency --output-json",
  sniff_latency,
  parse_latency,
};

/* ------------------------------------------------------------------------- */
/* bench throughput                                                             */

static int
sniff_throughput (const char *data,
                  gsize       len)
{
  if (procura_sniff_first_char (data, len) != '{')
    return 0;
  if (procura_sniff_has (data, len, "\"benchmarks\""))
    return 0;
  if (procura_sniff_has (data, len, "\"elapsed_time\"") && procura_sniff_has (data, len, "\"requests_per_second\"")
      && procura_sniff_has (data, len, "\"num_requests\""))
    return 90;
  return 0;
}

static gboolean
parse_throughput (const char          *name,
                  const char          *data,
                  gsize                len,
                  ProcuraImportResult *result,
                  GCancellable        *cancellable,
                  GError             **error)
{
  g_autoptr (JsonNode) root = procura_json_parse (name, data, len, 0, PROCURA_JSON_ALLOW_NONFINITE, error);
  g_autoptr (ProcuraRun) run = NULL;
  JsonObject *o;
  double tokens;

  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $: expected an object, found %s"), name, procura_json_node_type_name (root));
      return FALSE;
    }
  o = json_node_get_object (root);
  run = procura_run_new ();
  if (!procura_json_number (name, o, "$", "elapsed_time", &run->duration_s, error)
      || !procura_json_count (name, o, "$", "num_requests", &run->completed, error)
      || !procura_json_number (name, o, "$", "total_num_tokens", &tokens, error)
      || !procura_json_number (name, o, "$", "requests_per_second", &run->request_throughput, error)
      || !procura_json_number (name, o, "$", "tokens_per_second", &run->total_throughput, error))
    return FALSE;
  if (isnan (run->request_throughput))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $.requests_per_second: expected a number (requests/s)"), name);
      return FALSE;
    }
  /* tokens_per_second counts prompt and output tokens together */
  run->label = g_strdup ("offline throughput");
  run->scenario.engine = g_strdup ("vllm");
  run->scenario.load_type = g_strdup ("throughput");
  run->scenario.load_value = INFINITY;
  if (run->completed > 0 && !isnan (tokens))
    run->extras_json = g_strdup_printf ("{\"total_num_tokens\":%.17g,\"tokens_per_request\":%.17g}",
                                        tokens, tokens / (double) run->completed);
  result->format_version = g_strdup ("throughput");
  g_ptr_array_add (result->runs, g_steal_pointer (&run));
  return TRUE;
}

const ProcuraImporter procura_importer_vllm_throughput = {
  "vllm-bench-throughput",
  "vLLM bench throughput --output-json",
  sniff_throughput,
  parse_throughput,
};
