/* procura-fit-quant.c: quantisation declared outside config.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * NVIDIA ModelOpt checkpoints (nvidia/...-FP8, -FP4) declare their format in
 * hf_quant_config.json, not in config.json's quantization_config; many others say it
 * only in their name. Without these the calculator would size them as bf16.
 */
#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <glib/gi18n-lib.h>

#include "procura-fit.h"
#include "procura-import.h"
#include "procura-json.h"

static gboolean
algo_dtype (const char   *algo,
            ProcuraDtype *out)
{
  static const struct { const char *prefix; ProcuraDtype dtype; } algos[] = {
    { "NVFP4", PROCURA_DTYPE_NVFP4 },
    { "FP4", PROCURA_DTYPE_NVFP4 },
    { "W4A8_AWQ", PROCURA_DTYPE_INT4 },
    { "W4A16_AWQ", PROCURA_DTYPE_INT4 },
    { "INT4_AWQ", PROCURA_DTYPE_INT4 },
    { "W4A16", PROCURA_DTYPE_INT4 },
    { "INT4", PROCURA_DTYPE_INT4 },
    { "W8A8", PROCURA_DTYPE_INT8 },
    { "INT8", PROCURA_DTYPE_INT8 },
    { "W8A16", PROCURA_DTYPE_INT8 },
    { "FP8", PROCURA_DTYPE_FP8 },
    { "MXFP4", PROCURA_DTYPE_MXFP4 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (algos); i++)
    if (g_ascii_strncasecmp (algo, algos[i].prefix, strlen (algos[i].prefix)) == 0)
      {
        *out = algos[i].dtype;
        return TRUE;
      }
  return FALSE;
}

gboolean
procura_fit_read_hf_quant_config (const char   *path,
                                  ProcuraDtype *weights,
                                  ProcuraDtype *kv,
                                  GError      **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *text = NULL;
  g_autoptr (JsonNode) json = NULL;
  gsize len = 0;
  JsonNode *root, *q, *n;
  JsonObject *qo;
  const char *algo, *kv_algo = NULL;
  ProcuraDtype w = PROCURA_DTYPE_AUTO, k = PROCURA_DTYPE_AUTO;

  g_return_val_if_fail (path != NULL, FALSE);
  text = procura_import_read_file (path, "an hf_quant_config.json", &len, &local);
  if (text == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  /* the importers' strict reader: depth, UTF-8, line:column in messages */
  json = procura_json_parse (path, text, len, 0, PROCURA_JSON_STRICT, &local);
  if (json == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("not readable as JSON (an hf_quant_config.json was expected): %s"),
                   local->message);
      return FALSE;
    }
  root = json;
  q = root != NULL && JSON_NODE_HOLDS_OBJECT (root)
      ? json_object_get_member (json_node_get_object (root), "quantization") : NULL;
  if (q == NULL || !JSON_NODE_HOLDS_OBJECT (q))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: expected an object “quantization” (hf_quant_config.json of NVIDIA ModelOpt)"),
                   path);
      return FALSE;
    }
  qo = json_node_get_object (q);
  n = json_object_get_member (qo, "quant_algo");
  algo = n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING
         ? json_node_get_string (n) : NULL;
  if (algo == NULL || !algo_dtype (algo, &w))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: quantization.quant_algo “%s” is not one the calculator knows "
                     "(expected FP8, NVFP4, W4A16_AWQ, W4A8_AWQ, W8A8 or INT8)"),
                   path, algo ? algo : "(missing)");
      return FALSE;
    }
  n = json_object_get_member (qo, "kv_cache_quant_algo");
  if (n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
    kv_algo = json_node_get_string (n);
  if (kv_algo != NULL && g_ascii_strcasecmp (kv_algo, "FP8") == 0)
    k = PROCURA_DTYPE_FP8;
  else if (kv_algo != NULL && g_ascii_strcasecmp (kv_algo, "none") != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: quantization.kv_cache_quant_algo “%s” is not one the calculator knows "
                     "(expected FP8 or none)"), path, kv_algo);
      return FALSE;
    }
  if (weights)
    *weights = w;
  if (kv)
    *kv = k;
  return TRUE;
}

ProcuraDtype
procura_fit_quant_from_name (const char *model_id)
{
  static const struct { const char *word; ProcuraDtype dtype; } words[] = {
    { "nvfp4", PROCURA_DTYPE_NVFP4 }, { "fp4", PROCURA_DTYPE_NVFP4 },
    { "mxfp4", PROCURA_DTYPE_MXFP4 },
    { "fp8", PROCURA_DTYPE_FP8 }, { "float8", PROCURA_DTYPE_FP8 },
    { "int8", PROCURA_DTYPE_INT8 }, { "w8a8", PROCURA_DTYPE_INT8 },
    { "int4", PROCURA_DTYPE_INT4 }, { "w4a16", PROCURA_DTYPE_INT4 },
    { "awq", PROCURA_DTYPE_INT4 }, { "gptq", PROCURA_DTYPE_INT4 },
  };
  const char *name;
  g_autofree char *lower = NULL;
  g_auto (GStrv) parts = NULL;

  if (model_id == NULL)
    return PROCURA_DTYPE_AUTO;
  name = strrchr (model_id, '/');
  name = name ? name + 1 : model_id;
  lower = g_ascii_strdown (name, -1);
  /* whole words of the name only ("-FP8", "_fp8", ".fp8"): "fp8" inside another word
   * does not count */
  parts = g_strsplit_set (lower, "-_.", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    for (gsize k = 0; k < G_N_ELEMENTS (words); k++)
      if (g_str_equal (parts[i], words[k].word))
        return words[k].dtype;
  return PROCURA_DTYPE_AUTO;
}
