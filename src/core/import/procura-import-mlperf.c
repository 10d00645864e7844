/* procura-import-mlperf.c: MLPerf Inference mlperf_log_summary.txt and
 * mlperf_log_detail.txt (":::MLLOG {json}" lines)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Latencies are in NANOSECONDS. "first token latency" -> ttft, "time to output token"
 * (first token excluded) -> tpot, plain latency (whole sample) -> e2e. The scenario
 * is Server (a Poisson rate, target_qps) or Offline (all at once: throughput).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-import-private.h"
#include "procura-json-out.h"

static double
parse_double (const char *s,
              gboolean   *ok)
{
  char *end = NULL;
  double v;

  while (*s == ' ' || *s == '\t')
    s++;
  v = g_ascii_strtod (s, &end);
  *ok = end != s && isfinite (v);
  while (*ok && end && (*end == ' ' || *end == '\t' || *end == '\r'))
    end++;
  if (end && *end != '\0')
    *ok = FALSE;
  return v;
}

/* "99.90 percentile first token latency (ns)", "Mean latency (ns)", "Min Time to
 * Output Token (ns)" -> metric + stat. */
static gboolean
latency_key (const char  *key,
             const char **metric,
             char       **stat)
{
  g_autofree char *low = g_ascii_strdown (key, -1);

  if (!g_str_has_suffix (low, "(ns)"))
    return FALSE;
  if (strstr (low, "first token"))
    *metric = "ttft";
  else if (strstr (low, "time to output token") || strstr (low, "tpot"))
    *metric = "tpot";
  else if (strstr (low, "latency") && !strstr (low, "_latency"))
    *metric = "e2e";
  else
    return FALSE;
  if (g_str_has_prefix (low, "mean "))
    *stat = g_strdup ("mean");
  else if (g_str_has_prefix (low, "min "))
    *stat = g_strdup ("min");
  else if (g_str_has_prefix (low, "max "))
    *stat = g_strdup ("max");
  else if (g_ascii_isdigit (low[0]) && strstr (low, " percentile "))
    {
      double pct = g_ascii_strtod (low, NULL);
      if (!(pct >= 0 && pct <= 100))
        return FALSE;
      *stat = procura_import_pct_name (pct);
    }
  else
    return FALSE;
  return TRUE;
}

static void
finish_run (ProcuraRun *run,
            const char *scenario,
            double      target_qps,
            const char *validity)
{
  if (scenario != NULL && g_ascii_strcasecmp (scenario, "Server") == 0)
    {
      run->scenario.load_type = g_strdup ("rate");
      run->scenario.load_value = target_qps;
    }
  else if (scenario != NULL && g_ascii_strcasecmp (scenario, "Offline") == 0)
    {
      run->scenario.load_type = g_strdup ("throughput");
      run->scenario.load_value = INFINITY;
    }
  else if (scenario != NULL)
    run->scenario.load_type = g_ascii_strdown (scenario, -1);
  run->label = g_strdup_printf ("MLPerf %s%s%s", scenario ? scenario : "run",
                                validity ? ", " : "", validity ? validity : "");
  if (validity != NULL && g_ascii_strcasecmp (validity, "VALID") != 0)
    procura_run_add_warning (run, "MLPerf says the result is %s: the run did not meet its constraints", validity);
}

static gboolean
parse_summary (const char          *name,
               const char          *data,
               gsize                len,
               ProcuraImportResult *result,
               GCancellable        *cancellable,
               GError             **error)
{
  g_autofree char *text = g_strndup (data, len);
  g_auto (GStrv) lines = NULL;
  g_autoptr (ProcuraRun) run = procura_run_new ();
  g_autoptr (JsonObject) extras = json_object_new ();
  g_autofree char *scenario = NULL, *validity = NULL;
  double target_qps = NAN;
  gboolean header = FALSE;
  guint lineno = 0;

  if (memchr (data, '\0', len) != NULL || !g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                   _("%s: not UTF-8 text; expected an MLPerf mlperf_log_summary.txt"), name);
      return FALSE;
    }
  lines = procura_import_split_lines (text);
  for (char **p = lines; *p; p++)
    {
      char *line = g_strstrip (*p);
      char *colon = strchr (line, ':');
      g_autofree char *key = NULL;
      const char *value;
      const char *metric;
      g_autofree char *stat = NULL;
      gboolean ok;
      double v;

      lineno++;
      if (strstr (line, "MLPerf Results Summary"))
        header = TRUE;
      if (colon == NULL)
        continue;
      key = g_strstrip (g_strndup (line, (gsize) (colon - line)));
      value = colon + 1;
      while (*value == ' ')
        value++;

      if (g_str_equal (key, "Scenario"))
        scenario = (g_free (scenario), g_strdup (value));
      else if (g_str_equal (key, "Result is"))
        validity = (g_free (validity), g_strdup (value));
      else if (g_str_equal (key, "SUT name"))
        json_object_set_string_member (extras, "sut_name", value);
      else if (g_str_equal (key, "Mode"))
        json_object_set_string_member (extras, "mode", value);
      else if (latency_key (key, &metric, &stat))
        {
          v = parse_double (value, &ok);
          if (!ok)
            {
              g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                           _("%s:%u: “%s”: expected a number of nanoseconds, found “%s”"), name, lineno, key, value);
              return FALSE;
            }
          procura_import_reported (run, metric, stat, v, 1e-6);
        }
      else if (g_str_equal (key, "Completed samples per second") || g_str_equal (key, "Samples per second"))
        {
          v = parse_double (value, &ok);
          if (ok)
            run->request_throughput = v;
        }
      else if (g_str_equal (key, "Completed tokens per second") || g_str_equal (key, "Tokens per second"))
        {
          v = parse_double (value, &ok);
          if (ok)
            run->output_throughput = v;
        }
      else if (g_str_equal (key, "target_qps"))
        target_qps = parse_double (value, &ok);
      else if (g_str_equal (key, "ttft_latency (ns)") || g_str_equal (key, "tpot_latency (ns)")
               || g_str_equal (key, "target_latency (ns)"))
        {
          v = parse_double (value, &ok);
          if (ok)
            {
              g_autofree char *k = g_strdup_printf ("slo_%.*s_ms", (int) (strchr (key, '_') - key), key);
              json_object_set_double_member (extras, k, v * 1e-6);
            }
        }
      else if (g_str_equal (key, "min_duration (ms)") || g_str_equal (key, "target_latency_percentile")
               || g_str_equal (key, "min_query_count") || g_str_equal (key, "Scheduled samples per second"))
        {
          v = parse_double (value, &ok);
          if (ok)
            json_object_set_double_member (extras, key, v);
        }
    }
  if (!header || scenario == NULL)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: expected “MLPerf Results Summary” and a “Scenario :” line (an mlperf_log_summary.txt)"),
                   name);
      return FALSE;
    }
  finish_run (run, scenario, target_qps, validity);
  if (validity)
    json_object_set_string_member (extras, "validity", validity);
  {
    g_autoptr (JsonNode) node = json_node_init_object (json_node_alloc (), extras);
    run->extras_json = procura_json_to_data (node, FALSE);
  }
  result->format_version = g_strdup ("summary");
  g_ptr_array_add (result->runs, g_steal_pointer (&run));
  return TRUE;
}

static int
sniff_summary (const char *data,
               gsize       len)
{
  if (procura_sniff_has (data, len, "MLPerf Results Summary") && procura_sniff_has (data, len, "Scenario"))
    return 95;
  return 0;
}

const ProcuraImporter procura_importer_mlperf_summary = {
  "mlperf-summary",
  "MLPerf Inference mlperf_log_summary.txt",
  sniff_summary,
  parse_summary,
};

/* ------------------------------------------------------------------------- */

typedef struct {
  ProcuraRun *run;
  JsonObject *extras;
  char       *scenario;
  char       *validity;
  double      target_qps;
} Detail;

/* result_99.00_percentile_latency_ns, result_first_token_mean_latency_ns, ... */
static gboolean
detail_latency_key (const char  *key,
                    const char **metric,
                    char       **stat)
{
  const char *p;

  if (!g_str_has_prefix (key, "result_") || !g_str_has_suffix (key, "latency_ns"))
    return FALSE;
  p = key + 7;
  if (g_str_has_prefix (p, "first_token_"))
    {
      *metric = "ttft";
      p += 12;
    }
  else if (g_str_has_prefix (p, "time_to_output_token_"))
    {
      *metric = "tpot";
      p += strlen ("time_to_output_token_");
    }
  else if (g_str_has_prefix (p, "time_per_output_token_"))
    {
      *metric = "tpot";
      p += strlen ("time_per_output_token_");
    }
  else
    *metric = "e2e";
  if (g_str_has_prefix (p, "mean_"))
    *stat = g_strdup ("mean");
  else if (g_str_has_prefix (p, "min_"))
    *stat = g_strdup ("min");
  else if (g_str_has_prefix (p, "max_"))
    *stat = g_strdup ("max");
  else if (g_ascii_isdigit (*p) && strstr (p, "_percentile_"))
    {
      double pct = g_ascii_strtod (p, NULL);
      if (!(pct >= 0 && pct <= 100))
        return FALSE;
      *stat = procura_import_pct_name (pct);
    }
  else
    return FALSE;
  return TRUE;
}

static gboolean
detail_line (JsonNode  *node,
             guint      line,
             Detail    *d,
             const char *name,
             GError   **error)
{
  JsonObject *o;
  const char *key = NULL;
  JsonNode *value;
  const char *metric;
  g_autofree char *stat = NULL;
  g_autofree char *path = g_strdup_printf ("line %u: $", line);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s:%u: expected a JSON object after :::MLLOG"), name, line);
      return FALSE;
    }
  o = json_node_get_object (node);
  if (!procura_json_string (name, o, path, "key", &key, error))
    return FALSE;
  value = json_object_get_member (o, "value");
  if (key == NULL || value == NULL)
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
    {
      const char *s = json_node_get_string (value);
      if (g_str_equal (key, "effective_scenario"))
        d->scenario = (g_free (d->scenario), g_strdup (s));
      else if (g_str_equal (key, "result_validity"))
        d->validity = (g_free (d->validity), g_strdup (s));
      else if (g_str_equal (key, "sut_name") || g_str_equal (key, "loadgen_version"))
        json_object_set_string_member (d->extras, key, s);
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) == G_TYPE_BOOLEAN)
    return TRUE;
  if (detail_latency_key (key, &metric, &stat))
    procura_import_reported (d->run, metric, stat, json_node_get_double (value), 1e-6);
  else if (g_str_equal (key, "result_samples_per_second") || g_str_equal (key, "result_completed_samples_per_sec"))
    d->run->request_throughput = json_node_get_double (value);
  else if (g_str_equal (key, "result_completed_tokens_per_second") || g_str_equal (key, "result_tokens_per_second"))
    d->run->output_throughput = json_node_get_double (value);
  else if (g_str_equal (key, "effective_target_qps"))
    d->target_qps = json_node_get_double (value);
  else if (g_str_equal (key, "result_query_count"))
    json_object_set_double_member (d->extras, key, json_node_get_double (value));
  return TRUE;
}

static gboolean
parse_detail (const char          *name,
              const char          *data,
              gsize                len,
              ProcuraImportResult *result,
              GCancellable        *cancellable,
              GError             **error)
{
  g_autoptr (ProcuraRun) run = procura_run_new ();
  g_autoptr (JsonObject) extras = json_object_new ();
  Detail d = { run, extras, NULL, NULL, NAN };
  gsize pos = 0;
  guint line = 0, n = 0;
  gboolean ok = TRUE;

  while (pos < len && ok)
    {
      const char *nl = memchr (data + pos, '\n', len - pos);
      gsize end = nl ? (gsize) (nl - data) : len;
      const char *mark;

      line++;
      mark = g_strstr_len (data + pos, (gssize) (end - pos), ":::MLLOG");
      if (mark != NULL)
        {
          gsize start = (gsize) (mark - data) + 8;
          g_autoptr (JsonNode) node = procura_json_parse (name, data + start, end - start, line - 1,
                                                          PROCURA_JSON_ALLOW_NONFINITE, error);
          n++;
          ok = node != NULL && detail_line (node, line, &d, name, error);
          if ((n & 1023) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
            ok = FALSE;
        }
      pos = end + 1;
    }
  if (ok && n == 0)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: no “:::MLLOG {…}” line; expected an MLPerf mlperf_log_detail.txt"), name);
      ok = FALSE;
    }
  if (ok)
    {
      g_autoptr (JsonNode) node = NULL;

      finish_run (run, d.scenario, d.target_qps, d.validity);
      node = json_node_init_object (json_node_alloc (), extras);
      run->extras_json = procura_json_to_data (node, FALSE);
      result->format_version = g_strdup ("detail");
      g_ptr_array_add (result->runs, g_steal_pointer (&run));
    }
  g_free (d.scenario);
  g_free (d.validity);
  return ok;
}

static int
sniff_detail (const char *data,
              gsize       len)
{
  if (len >= 8 && memcmp (data, ":::MLLOG", 8) == 0)
    return 95;
  if (procura_sniff_has (data, len, "\n:::MLLOG {"))
    return 80;
  return 0;
}

const ProcuraImporter procura_importer_mlperf_detail = {
  "mlperf-detail",
  "MLPerf Inference mlperf_log_detail.txt",
  sniff_detail,
  parse_detail,
};
