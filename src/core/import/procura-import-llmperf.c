/* procura-import-llmperf.c: ray-project/llmperf _summary.json and
 * _individual_responses.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Traps: everything is in SECONDS; min/max of token counts are strings ("550");
 * results_error_code_frequency is a Python dict literal ("{-100.0: 49}"); llmperf's
 * inter_token_latency_s includes the first token (latency / output tokens), i.e.
 * Procura's tpot_incl_first, not tpot; on errored rows it is not divided at all.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-import-private.h"
#include "procura-pyliteral.h"
#include "procura-json-out.h"

static const struct {
  const char *key;
  const char *metric;
} summary_map[] = {
  { "ttft_s", "ttft" },
  { "inter_token_latency_s", "tpot_incl_first" },
  { "end_to_end_latency_s", "e2e" },
};

static gboolean
parse_summary (const char          *name,
               const char          *data,
               gsize                len,
               ProcuraImportResult *result,
               GCancellable        *cancellable,
               GError             **error)
{
  g_autoptr (JsonNode) root = procura_json_parse (name, data, len, 0, PROCURA_JSON_ALLOW_NONFINITE, error);
  g_autoptr (ProcuraRun) run = NULL;
  g_autoptr (JsonObject) extras = json_object_new ();
  JsonObject *o;
  const char *s;
  double conc, per_min, v;

  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $: expected an object (an llmperf summary), found %s"), name,
                   procura_json_node_type_name (root));
      return FALSE;
    }
  o = json_node_get_object (root);
  run = procura_run_new ();
  if (!procura_json_string (name, o, "$", "model", &s, error))
    return FALSE;
  run->scenario.model = g_strdup (s);

  for (gsize i = 0; i < G_N_ELEMENTS (summary_map); i++)
    {
      static const char * const plain[][2] = { { "mean", "mean" }, { "min", "min" }, { "max", "max" }, { "stddev", "std" } };
      static const int pcts[] = { 25, 50, 75, 90, 95, 99 };

      for (gsize k = 0; k < G_N_ELEMENTS (plain); k++)
        {
          g_autofree char *key = g_strdup_printf ("results_%s_%s", summary_map[i].key, plain[k][0]);
          if (!procura_json_number_lax (name, o, "$", key, &v, error))
            return FALSE;
          procura_import_reported (run, summary_map[i].metric, plain[k][1], v, 1000.0);
        }
      for (gsize k = 0; k < G_N_ELEMENTS (pcts); k++)
        {
          g_autofree char *key = g_strdup_printf ("results_%s_quantiles_p%d", summary_map[i].key, pcts[k]);
          g_autofree char *stat = g_strdup_printf ("p%d", pcts[k]);
          if (!procura_json_number_lax (name, o, "$", key, &v, error))
            return FALSE;
          procura_import_reported (run, summary_map[i].metric, stat, v, 1000.0);
        }
    }
  if (!procura_json_count (name, o, "$", "results_num_completed_requests", &run->completed, error)
      || !procura_json_count (name, o, "$", "results_number_errors", &run->failed, error)
      || !procura_json_number (name, o, "$", "results_num_completed_requests_per_min", &per_min, error)
      || !procura_json_number (name, o, "$", "results_mean_output_throughput_token_per_s", &run->output_throughput, error)
      || !procura_json_number_lax (name, o, "$", "results_number_input_tokens_mean", &run->input_tokens_mean, error)
      || !procura_json_number_lax (name, o, "$", "results_number_output_tokens_mean", &run->output_tokens_mean, error)
      || !procura_json_number (name, o, "$", "num_concurrent_requests", &conc, error))
    return FALSE;
  if (!isnan (per_min))
    run->request_throughput = per_min / 60.0;
  if (isnan (run->input_tokens_mean) && !procura_json_number (name, o, "$", "mean_input_tokens", &run->input_tokens_mean, error))
    return FALSE;
  if (isnan (run->output_tokens_mean) && !procura_json_number (name, o, "$", "mean_output_tokens", &run->output_tokens_mean, error))
    return FALSE;
  run->scenario.input_len = run->input_tokens_mean;
  run->scenario.output_len = run->output_tokens_mean;
  if (!isnan (conc))
    {
      run->scenario.load_type = g_strdup ("concurrency");
      run->scenario.load_value = conc;
      run->label = g_strdup_printf ("concurrency %g", conc);
    }
  else
    run->label = g_strdup ("run");

  /* per-user output tok/s, provider (leaderboard) */
  if (!procura_json_number (name, o, "$", "results_request_output_throughput_token_per_s_mean", &v, error))
    return FALSE;
  if (!isnan (v))
    json_object_set_double_member (extras, "output_throughput_per_user_mean", v);
  if (!procura_json_string (name, o, "$", "framework", &s, error))
    return FALSE;
  if (s != NULL)
    json_object_set_string_member (extras, "provider", s);
  if (!procura_json_string (name, o, "$", "api", &s, error))
    return FALSE;
  if (s != NULL)
    json_object_set_string_member (extras, "api", s);

  /* the error codes: a Python dict literal in a string */
  if (!procura_json_string (name, o, "$", "results_error_code_frequency", &s, error))
    return FALSE;
  if (s != NULL && s[strspn (s, " \t\r\n")] != '\0')
    {
      g_autoptr (GError) perr = NULL;
      g_autoptr (JsonNode) codes = procura_pyliteral_parse (s, -1, &perr);

      if (codes == NULL)
        procura_run_add_warning (run, "results_error_code_frequency is not a Python dict (%s): kept as text", perr->message);
      else if (JSON_NODE_HOLDS_OBJECT (codes))
        {
          GList *keys = json_object_get_members (json_node_get_object (codes));
          for (GList *l = keys; l; l = l->next)
            {
              JsonNode *c = json_object_get_member (json_node_get_object (codes), l->data);
              if (JSON_NODE_HOLDS_VALUE (c) && json_node_get_value_type (c) != G_TYPE_STRING)
                procura_run_add_warning (run, "%g requests failed with error code %s",
                                         json_node_get_double (c), (const char *) l->data);
            }
          g_list_free (keys);
          json_object_set_member (extras, "error_code_frequency", json_node_copy (codes));
        }
    }
  if (json_object_get_size (extras) > 0)
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
  if (procura_sniff_first_char (data, len) != '{')
    return 0;
  if (procura_sniff_has (data, len, "\"results_ttft_s_mean\"")
      || (procura_sniff_has (data, len, "\"results_") && procura_sniff_has (data, len, "\"num_concurrent_requests\"")))
    return 90;
  return 0;
}

const ProcuraImporter procura_importer_llmperf_summary = {
  "llmperf-summary",
  "llmperf _summary.json",
  sniff_summary,
  parse_summary,
};

/* ------------------------------------------------------------------------- */

static gboolean
parse_individual (const char          *name,
                  const char          *data,
                  gsize                len,
                  ProcuraImportResult *result,
                  GCancellable        *cancellable,
                  GError             **error)
{
  g_autoptr (JsonNode) root = procura_json_parse (name, data, len, 0, PROCURA_JSON_ALLOW_NONFINITE, error);
  g_autoptr (ProcuraRun) run = NULL;
  g_autoptr (GHashTable) errors = NULL;
  JsonArray *a;
  guint n;
  double *ttft, *tpot_incl, *tpot, *e2e, *in, *out;
  gsize k = 0, kt = 0;
  double out_sum = 0;
  GHashTableIter it;
  gpointer key, val;

  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $: expected a list of llmperf responses, found %s"), name,
                   procura_json_node_type_name (root));
      return FALSE;
    }
  a = json_node_get_array (root);
  n = json_array_get_length (a);
  run = procura_run_new ();
  errors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  ttft = g_new (double, MAX (n, 1));
  tpot_incl = g_new (double, MAX (n, 1));
  tpot = g_new (double, MAX (n, 1));
  e2e = g_new (double, MAX (n, 1));
  in = g_new (double, MAX (n, 1));
  out = g_new (double, MAX (n, 1));
  run->completed = 0;
  run->failed = 0;
  for (guint i = 0; i < n; i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      g_autofree char *path = g_strdup_printf ("$[%u]", i);
      JsonObject *r;
      JsonNode *code;
      double t, itl, lat, ni, no;

      if (!JSON_NODE_HOLDS_OBJECT (e))
        {
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                       _("%s: %s: expected a response object, found %s"), name, path,
                       procura_json_node_type_name (e));
          goto fail;
        }
      r = json_node_get_object (e);
      code = json_object_get_member (r, "error_code");
      if (code != NULL && !JSON_NODE_HOLDS_NULL (code))
        {
          const char *msg = NULL;
          g_autofree char *c = JSON_NODE_HOLDS_VALUE (code) && json_node_get_value_type (code) != G_TYPE_STRING
                               ? g_strdup_printf ("%g", json_node_get_double (code))
                               : g_strdup (JSON_NODE_HOLDS_VALUE (code) && json_node_get_value_type (code) == G_TYPE_STRING
                                           ? json_node_get_string (code) : "?");
          g_autofree char *k2 = NULL;

          if (!procura_json_string (name, r, path, "error_msg", &msg, error))
            goto fail;
          k2 = g_strdup_printf ("code %s%s%s", c, msg && *msg ? ": " : "", msg && *msg ? msg : "");
          g_hash_table_insert (errors, g_strdup (k2),
                               GINT_TO_POINTER (GPOINTER_TO_INT (g_hash_table_lookup (errors, k2)) + 1));
          run->failed++;
          continue;
        }
      if (!procura_json_number (name, r, path, "ttft_s", &t, error)
          || !procura_json_number (name, r, path, "inter_token_latency_s", &itl, error)
          || !procura_json_number (name, r, path, "end_to_end_latency_s", &lat, error)
          || !procura_json_number_lax (name, r, path, "number_input_tokens", &ni, error)
          || !procura_json_number_lax (name, r, path, "number_output_tokens", &no, error))
        goto fail;
      run->completed++;
      ttft[k] = t * 1000.0;
      tpot_incl[k] = itl * 1000.0;
      e2e[k] = lat * 1000.0;
      in[k] = ni;
      out[k] = no;
      k++;
      if (!isnan (no))
        out_sum += no;
      /* Procura's tpot (first token excluded), computed the vLLM way */
      if (no > 1 && !isnan (lat) && !isnan (t))
        tpot[kt++] = (lat - t) / (no - 1) * 1000.0;
    }
  procura_run_take_samples (run, "ttft", ttft, k);
  procura_run_take_samples (run, "tpot_incl_first", tpot_incl, k);
  procura_run_take_samples (run, "tpot", tpot, kt);
  procura_run_take_samples (run, "e2e", e2e, k);
  procura_run_take_samples (run, "input_len", in, k);
  procura_run_take_samples (run, "output_len", out, k);
  if (k > 0)
    {
      double s = 0;
      for (gsize i = 0; i < k; i++)
        s += in[i];
      run->input_tokens_mean = s / (double) k;
      run->output_tokens_mean = out_sum / (double) k;
      run->scenario.input_len = run->input_tokens_mean;
      run->scenario.output_len = run->output_tokens_mean;
    }
  g_hash_table_iter_init (&it, errors);
  while (g_hash_table_iter_next (&it, &key, &val))
    procura_run_add_warning (run, "%d requests failed (%s)", GPOINTER_TO_INT (val), (const char *) key);
  procura_run_add_warning (run, "llmperf responses carry no concurrency, no model and no duration: throughputs are unknown");
  run->label = g_strdup ("individual responses");
  result->format_version = g_strdup ("individual");
  g_ptr_array_add (result->runs, g_steal_pointer (&run));
  return TRUE;

fail:
  g_free (ttft);
  g_free (tpot_incl);
  g_free (tpot);
  g_free (e2e);
  g_free (in);
  g_free (out);
  return FALSE;
}

static int
sniff_individual (const char *data,
                  gsize       len)
{
  if (procura_sniff_first_char (data, len) != '[')
    return 0;
  if (procura_sniff_has (data, len, "\"ttft_s\"") && procura_sniff_has (data, len, "\"end_to_end_latency_s\""))
    return 90;
  return 0;
}

const ProcuraImporter procura_importer_llmperf_individual = {
  "llmperf-individual",
  "llmperf _individual_responses.json",
  sniff_individual,
  parse_individual,
};
