/* procura-probe-import.c: probe output (JSON Lines) into the model, and plans for the probe
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>
#include <glib/gi18n-lib.h>

#include "procura-import-private.h"
#include "procura-probe-import.h"
#include "procura-probe-protocol.h"
#include "procura-json-out.h"

static int
probe_jsonl_sniff (const char *data,
                   gsize       len)
{
  const char *end, *p = data;
  g_autoptr(JsonParser) parser = NULL;
  JsonNode *root;
  JsonObject *o;

  while (p < data + len && g_ascii_isspace (*p))
    p++;
  if (p >= data + len || *p != '{')
    return 0;
  end = memchr (p, '\n', MIN ((gsize) (data + len - p), 65536));
  if (end == NULL)
    end = data + len;
  /* the probe's first line names its members plainly: no parse of the first line of
   * every other JSON file (a vLLM result's single line: 64 KiB parsed and refused, 7 %
   * of a 5.5 MB import) */
  if (!procura_sniff_has (p, (gsize) (end - p), "\"probe_version\"")
      || !procura_sniff_has (p, (gsize) (end - p), "\"hello\""))
    return 0;
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, p, end - p, NULL))
    return 0;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return 0;
  o = json_node_get_object (root);
  if (g_strcmp0 (json_object_get_string_member_with_default (o, "event", NULL), "hello") != 0
      || !json_object_has_member (o, "protocol") || !json_object_has_member (o, "probe_version"))
    return 0;
  return 95;
}

static double
member_double (JsonObject *o,
               const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return NAN;
  return json_node_get_double (n);
}

gboolean
procura_probe_parse_jsonl (const char          *name,
                           const char          *data,
                           gsize                len,
                           ProcuraImportResult *result,
                           GError             **error)
{
  g_autoptr(GHashTable) device_names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  g_autoptr(GHashTable) device_lines = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_probe_result_free);
  g_autofree char *hello_line = NULL;
  g_autofree char *measured_at = NULL;
  gboolean done = FALSE;
  const char *p = data, *end = data + len;
  guint line_no = 0;
  guint i;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *stop = nl ? nl : end;
      g_autofree char *line = g_strndup (p, stop - p);
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) local = NULL;
      JsonNode *root;
      JsonObject *o;
      const char *event;

      line_no++;
      p = nl ? nl + 1 : end;
      g_strstrip (line);
      if (line[0] == '\0')
        continue;
      if (!json_parser_load_from_data (parser, line, -1, &local))
        {
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                       _("%s:%u: not a JSON line: %s"), name, line_no, local->message);
          return FALSE;
        }
      root = json_parser_get_root (parser);
      if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root)
          || (event = json_object_get_string_member_with_default (json_node_get_object (root), "event", NULL)) == NULL)
        {
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                       _("%s:%u: expected an object with an \"event\" member"), name, line_no);
          return FALSE;
        }
      o = json_node_get_object (root);
      if (hello_line == NULL)
        {
          if (!g_str_equal (event, "hello"))
            {
              g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                           _("%s:%u: the first line must be the probe's hello"), name, line_no);
              return FALSE;
            }
          if (json_object_get_int_member_with_default (o, "protocol", -1) != PROCURA_PROBE_PROTOCOL)
            {
              g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                           _("%s:%u: protocol: expected %d (this Procura reads probe protocol %d only)"),
                           name, line_no, PROCURA_PROBE_PROTOCOL, PROCURA_PROBE_PROTOCOL);
              return FALSE;
            }
          hello_line = g_strdup (line);
          measured_at = g_strdup (json_object_get_string_member_with_default (o, "started_at", NULL));
          continue;
        }

      if (g_str_equal (event, "device"))
        {
          int index = (int) json_object_get_int_member_with_default (o, "index", -1);
          ProcuraProbeResult *r = procura_probe_result_new ();

          g_hash_table_replace (device_names, GINT_TO_POINTER (index),
                                g_strdup (json_object_get_string_member_with_default (o, "name", NULL)));
          g_hash_table_replace (device_lines, GINT_TO_POINTER (index), g_strdup (line));
          r->device_name = g_strdup (json_object_get_string_member_with_default (o, "name", NULL));
          r->test = g_strdup ("inventory");
          r->total_bytes = member_double (o, "total_bytes");
          r->free_bytes = member_double (o, "free_bytes");
          r->json = g_strdup_printf ("%s\n%s\n", hello_line, line);
          r->measured_at = g_strdup (measured_at);
          g_ptr_array_add (rows, r);
        }
      else if (g_str_equal (event, "result"))
        {
          const char *test = json_object_get_string_member_with_default (o, "test", NULL);
          int device = (int) json_object_get_int_member_with_default (o, "device", -1);
          const char *device_line = g_hash_table_lookup (device_lines, GINT_TO_POINTER (device));
          const char *dev_name = g_hash_table_lookup (device_names, GINT_TO_POINTER (device));
          ProcuraProbeResult *r;

          if (test == NULL)
            {
              g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                           _("%s:%u: test: expected the name of the test"), name, line_no);
              return FALSE;
            }
          r = procura_probe_result_new ();
          r->test = g_strdup (test);
          if (g_str_equal (test, "p2p") && json_object_has_member (o, "peer"))
            {
              int peer = (int) json_object_get_int_member_with_default (o, "peer", -1);
              const char *peer_name = g_hash_table_lookup (device_names, GINT_TO_POINTER (peer));

              r->device_name = g_strdup_printf ("%d %s → %d %s", device, dev_name ? dev_name : "?",
                                                peer, peer_name ? peer_name : "?");
            }
          else
            r->device_name = g_strdup (dev_name);
          if (g_str_equal (test, "fit"))
            {
              r->fits = json_object_get_boolean_member_with_default (o, "fits", FALSE);
              r->total_bytes = member_double (o, "total_bytes");
              r->free_bytes = member_double (o, "free_before_bytes");
              r->headroom_bytes = member_double (o, "headroom_bytes");
            }
          else
            r->bandwidth_gbps = member_double (o, "gbps");
          r->json = g_strdup_printf ("%s\n%s%s%s\n", hello_line, device_line ? device_line : "",
                                     device_line ? "\n" : "", line);
          r->measured_at = g_strdup (measured_at);
          g_ptr_array_add (rows, r);
        }
      else if (g_str_equal (event, "error"))
        g_ptr_array_add (result->warnings,
                         g_strdup_printf (_("%s:%u: the probe reported %s: %s"), name, line_no,
                                          json_object_get_string_member_with_default (o, "kind", "an error"),
                                          json_object_get_string_member_with_default (o, "detail", "")));
      else if (g_str_equal (event, "done"))
        done = TRUE;
    }

  if (hello_line == NULL)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: empty: no probe output"), name);
      return FALSE;
    }
  if (rows->len == 0)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: the probe output holds no device and no result%s%s"), name,
                   result->warnings->len > 0 ? "; " : "",
                   result->warnings->len > 0 ? (const char *) g_ptr_array_index (result->warnings, 0) : "");
      return FALSE;
    }
  if (!done)
    g_ptr_array_add (result->warnings,
                     g_strdup_printf (_("%s: the probe output ends without its \"done\" line: the run was cut short"),
                                      name));
  for (i = 0; i < rows->len; i++)
    g_ptr_array_add (result->probe_results, g_steal_pointer (&rows->pdata[i]));
  g_ptr_array_set_free_func (rows, NULL);
  g_free (result->format);
  result->format = g_strdup ("probe-jsonl");
  g_free (result->format_version);
  result->format_version = g_strdup ("protocol-1");
  return TRUE;
}

static gboolean
probe_jsonl_parse (const char          *name,
                   const char          *data,
                   gsize                len,
                   ProcuraImportResult *result,
                   GCancellable        *cancellable,
                   GError             **error)
{
  return procura_probe_parse_jsonl (name, data, len, result, error);
}

const ProcuraImporter procura_importer_probe_jsonl = {
  .id = "probe-jsonl",
  .description = "Procura CUDA probe output (JSON Lines)",
  .sniff = probe_jsonl_sniff,
  .parse = probe_jsonl_parse,
};

/* ------------------------------------------------------------------------- */

static void
add_allocation (JsonBuilder *b,
                const char  *name,
                const char  *kind,
                double       bytes,
                gint64       count)
{
  if (!(bytes >= 1) || count < 1)
    return;
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, kind);
  json_builder_set_member_name (b, "bytes");
  json_builder_add_int_value (b, (gint64) ceil (bytes));
  if (count > 1)
    {
      json_builder_set_member_name (b, "count");
      json_builder_add_int_value (b, count);
    }
  json_builder_end_object (b);
}

char *
procura_probe_plan_from_fit (const ProcuraFitResult *fit,
                             const char             *name)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  int layers = fit->layers_per_gpu, gpus = MAX (fit->gpus, 1), g;
  double layer_weights, kv_block;

  if (layers < 1)
    return NULL;
  layer_weights = (fit->weights_bytes - fit->embedding_bytes) / layers;
  kv_block = fit->kv_bytes_per_token * MAX (fit->block_size, 1);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name ? name : "fit");
  json_builder_set_member_name (b, "block_size");
  json_builder_add_int_value (b, MAX (fit->block_size, 1));
  json_builder_set_member_name (b, "sequences");
  json_builder_add_int_value (b, MAX (fit->concurrency, 1));
  json_builder_set_member_name (b, "context_tokens");
  json_builder_add_int_value (b, fit->context_tokens);
  if (kv_block >= 1)
    {
      json_builder_set_member_name (b, "kv_block_bytes");
      json_builder_add_int_value (b, (gint64) ceil (kv_block));
    }
  json_builder_set_member_name (b, "gpus");
  json_builder_begin_array (b);
  for (g = 0; g < gpus; g++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "kv_read_bytes_per_step");
      json_builder_add_int_value (b, (gint64) ceil (fit->kv_needed_bytes));
      json_builder_set_member_name (b, "allocations");
      json_builder_begin_array (b);
      add_allocation (b, "embedding", "weights", fit->embedding_bytes, 1);
      add_allocation (b, "layer", "weights", layer_weights, layers);
      add_allocation (b, "activation", "activation", fit->activation_bytes, 1);
      add_allocation (b, "non-torch", "other", fit->non_torch_bytes, 1);
      add_allocation (b, "cuda-graphs", "other", fit->cuda_graph_bytes, 1);
      add_allocation (b, "kv.layer", "kv", fit->kv_needed_bytes / layers, layers);
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return procura_json_to_data (root, FALSE);
}
