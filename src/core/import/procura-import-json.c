/* procura-import-json.c: the normalised content of an import as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <math.h>

#include "procura-json-out.h"
#include "procura-import-json.h"
#include "procura-json.h"

static void
set_num (JsonBuilder *b,
         const char  *key,
         double       v)
{
  json_builder_set_member_name (b, key);
  if (isnan (v))
    json_builder_add_null_value (b);
  else if (isinf (v))
    json_builder_add_string_value (b, v > 0 ? "inf" : "-inf");
  else
    json_builder_add_double_value (b, v);
}

static void
add_strings (JsonBuilder     *b,
             const char      *key,
             const GPtrArray *a)
{
  json_builder_set_member_name (b, key);
  json_builder_begin_array (b);
  for (guint i = 0; a && i < a->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (a, i));
  json_builder_end_array (b);
}

static void
add_provenance (JsonBuilder             *b,
                const ProcuraProvenance *p)
{
  json_builder_set_member_name (b, "provenance");
  if (p == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  procura_json_add_string (b, "file_name", p->file_name);
  procura_json_add_count (b, "size", p->size);
  procura_json_add_string (b, "sha256", p->sha256);
  procura_json_add_string (b, "importer", p->importer);
  procura_json_add_string (b, "format_version", p->format_version);
  procura_json_add_string (b, "imported_at", p->imported_at);
  json_builder_end_object (b);
}

char **
procura_scenario_missing (const ProcuraScenario *s)
{
  GPtrArray *a = g_ptr_array_new ();

  if (s->model == NULL)
    g_ptr_array_add (a, g_strdup ("model"));
  if (s->engine == NULL)
    g_ptr_array_add (a, g_strdup ("engine"));
  if (s->gpu_name == NULL)
    g_ptr_array_add (a, g_strdup ("gpu_name"));
  if (s->gpu_count < 0)
    g_ptr_array_add (a, g_strdup ("gpu_count"));
  if (s->tp < 0)
    g_ptr_array_add (a, g_strdup ("tp"));
  if (s->load_type == NULL)
    g_ptr_array_add (a, g_strdup ("load"));
  if (isnan (s->input_len))
    g_ptr_array_add (a, g_strdup ("input_len"));
  if (isnan (s->output_len))
    g_ptr_array_add (a, g_strdup ("output_len"));
  g_ptr_array_add (a, NULL);
  return (char **) g_ptr_array_free (a, FALSE);
}

static void
add_stats (JsonBuilder      *b,
           const ProcuraRun *run,
           const char       *metric,
           int               source)
{
  for (guint i = 0; i < run->stats->len; i++)
    {
      const ProcuraStat *s = g_ptr_array_index (run->stats, i);
      if (g_str_equal (s->metric, metric) && (int) s->source == source)
        set_num (b, s->stat, s->value);
    }
}

JsonNode *
procura_run_to_json (const ProcuraRun *run)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (GPtrArray) metrics = g_ptr_array_new ();
  g_auto (GStrv) missing = procura_scenario_missing (&run->scenario);

  json_builder_begin_object (b);
  procura_json_add_string (b, "label", run->label);
  procura_json_add_string (b, "format", run->format);
  procura_json_add_string (b, "format_version", run->format_version);

  json_builder_set_member_name (b, "scenario");
  json_builder_begin_object (b);
  procura_json_add_string (b, "model", run->scenario.model);
  procura_json_add_string (b, "engine", run->scenario.engine);
  procura_json_add_string (b, "engine_version", run->scenario.engine_version);
  procura_json_add_string (b, "gpu_name", run->scenario.gpu_name);
  procura_json_add_count (b, "gpu_count", run->scenario.gpu_count);
  procura_json_add_count (b, "tp", run->scenario.tp);
  procura_json_add_count (b, "pp", run->scenario.pp);
  procura_json_add_count (b, "dp", run->scenario.dp);
  procura_json_add_string (b, "load_type", run->scenario.load_type);
  set_num (b, "load_value", run->scenario.load_value);
  set_num (b, "input_len", run->scenario.input_len);
  set_num (b, "output_len", run->scenario.output_len);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "missing");
  json_builder_begin_array (b);
  for (char **m = missing; *m; m++)
    json_builder_add_string_value (b, *m);
  json_builder_end_array (b);

  set_num (b, "duration_s", run->duration_s);
  procura_json_add_count (b, "completed", run->completed);
  procura_json_add_count (b, "failed", run->failed);
  set_num (b, "request_throughput", run->request_throughput);
  set_num (b, "output_throughput", run->output_throughput);
  set_num (b, "total_throughput", run->total_throughput);
  set_num (b, "input_tokens_mean", run->input_tokens_mean);
  set_num (b, "output_tokens_mean", run->output_tokens_mean);

  for (guint i = 0; i < run->stats->len; i++)
    {
      const ProcuraStat *s = g_ptr_array_index (run->stats, i);
      gboolean seen = FALSE;
      for (guint j = 0; j < metrics->len; j++)
        if (g_str_equal (g_ptr_array_index (metrics, j), s->metric))
          seen = TRUE;
      if (!seen)
        g_ptr_array_add (metrics, s->metric);
    }
  json_builder_set_member_name (b, "metrics");
  json_builder_begin_object (b);
  for (guint j = 0; j < metrics->len; j++)
    {
      const char *m = g_ptr_array_index (metrics, j);
      gint64 n = -1;
      gboolean reported = FALSE;

      for (guint i = 0; i < run->stats->len; i++)
        {
          const ProcuraStat *s = g_ptr_array_index (run->stats, i);
          if (!g_str_equal (s->metric, m))
            continue;
          if (s->source == PROCURA_SOURCE_RECOMPUTED)
            n = s->samples;
          else
            reported = TRUE;
        }
      json_builder_set_member_name (b, m);
      json_builder_begin_object (b);
      if (n >= 0)
        {
          add_stats (b, run, m, PROCURA_SOURCE_RECOMPUTED);
          procura_json_add_string (b, "source", "recomputed");
          procura_json_add_count (b, "samples", n);
          if (reported)
            {
              json_builder_set_member_name (b, "as_reported");
              json_builder_begin_object (b);
              add_stats (b, run, m, PROCURA_SOURCE_AS_REPORTED);
              json_builder_end_object (b);
            }
        }
      else
        {
          add_stats (b, run, m, PROCURA_SOURCE_AS_REPORTED);
          procura_json_add_string (b, "source", "as-reported");
          procura_json_add_count (b, "samples", -1);
        }
      json_builder_end_object (b);
    }
  json_builder_end_object (b);

  json_builder_set_member_name (b, "per_request");
  json_builder_begin_object (b);
  for (guint i = 0; i < run->samples->len; i++)
    {
      const ProcuraSamples *s = g_ptr_array_index (run->samples, i);
      procura_json_add_count (b, s->metric, (gint64) s->n);
    }
  json_builder_end_object (b);

  add_strings (b, "warnings", run->warnings);
  json_builder_set_member_name (b, "extras");
  if (run->extras_json != NULL)
    {
      /* through the strict front door: a project's extras are untrusted text */
      JsonNode *extras = procura_json_parse ("extras_json", run->extras_json, strlen (run->extras_json),
                                             0, PROCURA_JSON_STRICT, NULL);
      if (extras != NULL)
        json_builder_add_value (b, extras);
      else
        json_builder_add_null_value (b);
    }
  else
    json_builder_add_null_value (b);
  add_provenance (b, run->provenance);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
procura_engine_log_to_json (const ProcuraEngineLog *l)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  procura_json_add_string (b, "engine", l->engine);
  procura_json_add_string (b, "engine_version", l->engine_version);
  procura_json_add_string (b, "model", l->model);
  procura_json_add_string (b, "gpu_name", l->gpu_name);
  procura_json_add_count (b, "tp", l->tp);
  procura_json_add_count (b, "pp", l->pp);
  set_num (b, "gpu_memory_utilization", l->gpu_memory_utilization);
  set_num (b, "mem_fraction_static", l->mem_fraction_static);
  procura_json_add_count (b, "max_model_len", l->max_model_len);
  procura_json_add_count (b, "block_size", l->block_size);
  procura_json_add_string (b, "kv_dtype", l->kv_dtype);
  set_num (b, "weights_gib", l->weights_gib);
  set_num (b, "kv_available_gib", l->kv_available_gib);
  procura_json_add_count (b, "kv_tokens", l->kv_tokens);
  set_num (b, "max_concurrency", l->max_concurrency);
  set_num (b, "cuda_graph_gib", l->cuda_graph_gib);
  add_strings (b, "errors", l->errors);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
procura_import_result_to_json (const ProcuraImportResult *r)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  procura_json_add_string (b, "format", r->format);
  procura_json_add_string (b, "format_version", r->format_version);
  add_provenance (b, r->provenance);
  add_strings (b, "warnings", r->warnings);

  json_builder_set_member_name (b, "runs");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->runs->len; i++)
    json_builder_add_value (b, procura_run_to_json (g_ptr_array_index (r->runs, i)));
  json_builder_end_array (b);

  json_builder_set_member_name (b, "engine_logs");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->engine_logs->len; i++)
    json_builder_add_value (b, procura_engine_log_to_json (g_ptr_array_index (r->engine_logs, i)));
  json_builder_end_array (b);

  json_builder_set_member_name (b, "quotes");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->quotes->len; i++)
    {
      const ProcuraQuote *q = g_ptr_array_index (r->quotes, i);
      json_builder_begin_object (b);
      procura_json_add_string (b, "provider", q->provider);
      procura_json_add_string (b, "sku", q->sku);
      procura_json_add_string (b, "gpu_name", q->gpu_name);
      procura_json_add_string (b, "gpu_id", q->gpu_id);
      procura_json_add_count (b, "gpu_count", q->gpu_count);
      set_num (b, "price_per_hour", q->price_per_hour);
      procura_json_add_string (b, "currency", q->currency);
      procura_json_add_string (b, "pricing_model", q->pricing_model);
      procura_json_add_string (b, "region", q->region);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "model_shapes");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->model_shapes->len; i++)
    {
      const ProcuraModelShape *m = g_ptr_array_index (r->model_shapes, i);
      json_builder_begin_object (b);
      procura_json_add_string (b, "id", m->id);
      procura_json_add_string (b, "architecture", m->architecture);
      procura_json_add_count (b, "num_layers", m->num_layers);
      procura_json_add_count (b, "hidden_size", m->hidden_size);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "probe_results");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->probe_results->len; i++)
    {
      const ProcuraProbeResult *p = g_ptr_array_index (r->probe_results, i);
      json_builder_begin_object (b);
      procura_json_add_string (b, "device_name", p->device_name);
      procura_json_add_string (b, "test", p->test);
      json_builder_set_member_name (b, "fits");
      json_builder_add_boolean_value (b, p->fits);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
