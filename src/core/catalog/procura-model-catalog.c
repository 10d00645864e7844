/* procura-model-catalog.c: model shapes from the catalog or from config.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "procura-catalog-private.h"
#include "procura-import.h"
#include "procura-import-private.h"
#include "procura-json.h"
#include "procura-model-catalog.h"

/* ------------------------------------------------------------------------- */
/* config.json                                                                */

typedef struct {
  JsonObject *text;   /* text_config when nested, else the top level */
  JsonObject *top;
  const char *file;
  GError    **error;
  gboolean    failed;
} Cfg;

/* Tolerant readers for optional members of untrusted objects (the json-glib
 * *_with_default getters complain about a member of the wrong type) */
static const char *
obj_string (JsonObject *o,
            const char *key,
            const char *fallback)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return fallback;
  return json_node_get_string (n);
}

static double
obj_double (JsonObject *o,
            const char *key,
            double      fallback)
{
  JsonNode *n = json_object_get_member (o, key);
  GType t;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return fallback;
  t = json_node_get_value_type (n);
  if (t != G_TYPE_INT64 && t != G_TYPE_DOUBLE)
    return fallback;
  return json_node_get_double (n);
}

static gint64
obj_int (JsonObject *o,
         const char *key,
         gint64      fallback)
{
  double d = obj_double (o, key, NAN);

  if (isnan (d) || d != floor (d) || fabs (d) > 1e15)
    return fallback;
  return (gint64) d;
}

static int
obj_bool (JsonObject *o,
          const char *key,
          int         fallback)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_BOOLEAN)
    return fallback;
  return json_node_get_boolean (n);
}

static JsonNode *
cfg_member (Cfg        *c,
            const char *key)
{
  JsonNode *n = NULL;

  if (c->text != NULL)
    n = json_object_get_member (c->text, key);
  if ((n == NULL || JSON_NODE_HOLDS_NULL (n)) && c->top != c->text)
    n = json_object_get_member (c->top, key);
  if (n != NULL && JSON_NODE_HOLDS_NULL (n))
    return NULL;
  return n;
}

static gboolean
node_is_number (JsonNode *n)
{
  GType t;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return FALSE;
  t = json_node_get_value_type (n);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

/* First of @keys (NULL-terminated) that is present; -1 when none. An present key that
 * is not a non-negative integer is an error. */
static gint64
cfg_int (Cfg         *c,
         const char **keys,
         gint64       fallback)
{
  for (gsize i = 0; keys[i] != NULL; i++)
    {
      JsonNode *n = cfg_member (c, keys[i]);
      double d;

      if (n == NULL)
        continue;
      if (!node_is_number (n))
        {
          if (!c->failed)
            g_set_error (c->error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                         _("%s: %s: expected an integer"), c->file, keys[i]);
          c->failed = TRUE;
          return fallback;
        }
      d = json_node_get_double (n);
      if (d < 0 || d > 1e12 || d != floor (d))
        {
          if (!c->failed)
            g_set_error (c->error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                         _("%s: %s: expected a non-negative integer, got %g"), c->file, keys[i], d);
          c->failed = TRUE;
          return fallback;
        }
      return (gint64) d;
    }
  return fallback;
}

#define KEYS(...) ((const char *[]) { __VA_ARGS__, NULL })

static const char *
cfg_string (Cfg        *c,
            const char *key)
{
  JsonNode *n = cfg_member (c, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

static int
cfg_bool (Cfg        *c,
          const char *key)
{
  JsonNode *n = cfg_member (c, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_BOOLEAN)
    return -1;
  return json_node_get_boolean (n) ? 1 : 0;
}

static int
clamp_int (gint64 v)
{
  return v > G_MAXINT ? G_MAXINT : (int) v;
}

static void
read_quantization (Cfg               *c,
                   ProcuraModelShape *m)
{
  JsonNode *qn = json_object_get_member (c->top, "quantization_config");
  const char *dtype = cfg_string (c, "torch_dtype");

  if (dtype == NULL)
    dtype = cfg_string (c, "dtype");
  if (dtype != NULL)
    {
      if (g_str_equal (dtype, "bfloat16"))
        m->weights_dtype = g_strdup ("bf16");
      else if (g_str_equal (dtype, "float16"))
        m->weights_dtype = g_strdup ("fp16");
      else if (g_str_equal (dtype, "float32"))
        m->weights_dtype = g_strdup ("fp32");
    }
  if (qn != NULL && JSON_NODE_HOLDS_OBJECT (qn))
    {
      JsonObject *q = json_node_get_object (qn);
      const char *method = obj_string (q, "quant_method", "");
      gint64 bits = obj_int (q, "bits", 0);
      gint64 group = obj_int (q, "group_size", 0);
      char *dt = NULL;

      if (g_ascii_strcasecmp (method, "fp8") == 0 || g_ascii_strcasecmp (method, "fbgemm_fp8") == 0)
        dt = g_strdup ("fp8");
      else if (g_ascii_strcasecmp (method, "mxfp4") == 0)
        {
          dt = g_strdup ("mxfp4");
          group = 32;
        }
      else if (g_ascii_strcasecmp (method, "awq") == 0 || g_ascii_strcasecmp (method, "gptq") == 0)
        dt = g_strdup_printf ("int%d", (int) (bits > 0 && bits <= 16 ? bits : 4));
      else if (g_ascii_strcasecmp (method, "bitsandbytes") == 0)
        dt = g_strdup (obj_bool (q, "load_in_4bit", FALSE) ? "nf4" : "int8");
      else if (g_ascii_strcasecmp (method, "modelopt") == 0)
        {
          const char *algo = obj_string (q, "quant_algo", "");
          dt = g_ascii_strdown (*algo != '\0' ? algo : "fp8", -1);
        }
      else if (g_ascii_strcasecmp (method, "compressed-tensors") == 0)
        {
          /* config_groups.<g>.weights.{num_bits,type,group_size} */
          JsonNode *groups = json_object_get_member (q, "config_groups");
          if (groups != NULL && JSON_NODE_HOLDS_OBJECT (groups))
            {
              GList *members = json_object_get_values (json_node_get_object (groups));
              for (GList *l = members; l != NULL && dt == NULL; l = l->next)
                {
                  JsonNode *g = l->data, *w;
                  if (!JSON_NODE_HOLDS_OBJECT (g))
                    continue;
                  w = json_object_get_member (json_node_get_object (g), "weights");
                  if (w != NULL && JSON_NODE_HOLDS_OBJECT (w))
                    {
                      JsonObject *wo = json_node_get_object (w);
                      gint64 nb = obj_int (wo, "num_bits", 0);
                      const char *type = obj_string (wo, "type", "int");
                      if (nb > 0 && nb <= 16)
                        dt = g_strdup_printf ("%s%d", g_str_equal (type, "float") ? "fp" : "int", (int) nb);
                      group = obj_int (wo, "group_size", group);
                    }
                }
              g_list_free (members);
            }
        }
      else if (*method != '\0')
        dt = g_ascii_strdown (method, -1);
      if (dt != NULL)
        {
          g_free (m->weights_dtype);
          m->weights_dtype = dt;
        }
      m->quant_group_size = group > 0 && group < G_MAXINT ? (int) group : 0;
    }
  if (m->weights_dtype == NULL)
    m->weights_dtype = g_strdup ("bf16");
}

/* The vision tower of config.json's vision_config (SigLIP for gemma-3, the Qwen2.5-VL
 * ViT, Llama-4's and others): encoder layers (attention with biases, an MLP, two norms),
 * patch and position embeddings and the projector into the decoder's hidden size. The
 * counts follow the checkpoints' tensors: gemma-3's SigLIP so400m with its 1152 x hidden
 * mm_input_projection (417 M for the encoder, as the Gemma 3 report gives); Qwen2.5-VL's
 * gated MLP and 2 x 2 patch merger. A model type the calculator does not know gets the
 * generic encoder and a hidden-to-hidden projector. FALSE on a malformed member. */
static gboolean
read_vision (Cfg               *c,
             ProcuraModelShape *m,
             const char        *model_type)
{
  JsonNode *vn = json_object_get_member (c->top, "vision_config");
  g_autofree char *file = NULL;
  Cfg v = { 0 };
  const char *vtype;
  double h, inter, layers, patch, image, channels, temporal, per_layer, merge, out, pin, pout;
  gboolean qwen_vl, qwen_merger, gemma3, llama4;

  if (vn == NULL || !JSON_NODE_HOLDS_OBJECT (vn))
    return TRUE;
  file = g_strdup_printf ("%s: vision_config", c->file);
  v.top = v.text = json_node_get_object (vn);
  v.file = file;
  v.error = c->error;
  vtype = obj_string (v.top, "model_type", "");
  /* Qwen2-VL names the encoder's width embed_dim and the decoder's hidden_size */
  h = (double) cfg_int (&v, KEYS ("embed_dim", "hidden_size", "width"), 0);
  inter = (double) cfg_int (&v, KEYS ("intermediate_size"), 0);
  if (inter <= 0 && obj_double (v.top, "mlp_ratio", 0) > 0 && obj_double (v.top, "mlp_ratio", 0) < 64)
    inter = floor (h * obj_double (v.top, "mlp_ratio", 0));
  layers = (double) cfg_int (&v, KEYS ("num_hidden_layers", "depth", "layers"), 0);
  patch = (double) cfg_int (&v, KEYS ("patch_size"), 14);
  image = (double) cfg_int (&v, KEYS ("image_size"), 0);
  channels = (double) cfg_int (&v, KEYS ("num_channels", "in_chans", "in_channels"), 3);
  temporal = (double) cfg_int (&v, KEYS ("temporal_patch_size"), 1);
  merge = (double) cfg_int (&v, KEYS ("spatial_merge_size"), 1);
  out = (double) cfg_int (&v, KEYS ("out_hidden_size", "vision_output_dim", "projection_dim"), 0);
  if (out <= 0 && json_object_has_member (v.top, "embed_dim"))
    out = (double) cfg_int (&v, KEYS ("hidden_size"), 0);
  pin = (double) cfg_int (&v, KEYS ("projector_input_dim"), (gint64) out);
  pout = (double) cfg_int (&v, KEYS ("projector_output_dim"), (gint64) out);
  if (v.failed)
    {
      c->failed = TRUE;
      return FALSE;
    }
  if (h <= 0 || layers <= 0 || patch <= 0 || h > (1 << 16) || layers > 1000 || inter > (1 << 20)
      || patch > 1024 || image > 65536 || channels > 64 || temporal > 64 || merge > 64
      || out > (1 << 20) || pin < 0 || pin > (1 << 20) || pout < 0 || pout > (1 << 20))
    return TRUE;   /* no usable tower: sized as text only (the fit says so) */
  if (inter <= 0)
    inter = 4 * h;
  /* Qwen2.5-VL: gated MLP; Qwen2-VL and Qwen2.5-VL: the patch merger */
  qwen_vl = strstr (vtype, "qwen2_5_vl") != NULL
            || (model_type != NULL && strstr (model_type, "qwen2_5_vl") != NULL);
  qwen_merger = qwen_vl || strstr (vtype, "qwen2_vl") != NULL
                || (model_type != NULL && strstr (model_type, "qwen2_vl") != NULL);
  gemma3 = model_type != NULL && g_str_has_prefix (model_type, "gemma3");
  llama4 = model_type != NULL && g_str_has_prefix (model_type, "llama4");

  /* The tensors as transformers' modules declare them (modeling_siglip.py,
   * modeling_qwen2_vl.py, modeling_qwen2_5_vl.py, modeling_llama4.py); vLLM loads the
   * same tensors. One encoder layer: q, k, v, o with biases; the MLP (gated, with
   * biases, for Qwen2.5-VL); two norms (RMSNorm weights only for Qwen2.5-VL, LayerNorm
   * weight and bias for the others). */
  per_layer = 4 * (h * h + h) + (qwen_vl ? 3 * h * inter + 2 * inter + h : 2 * h * inter + inter + h)
              + (qwen_vl ? 2 * h : 4 * h);
  m->vision_params_split = layers * (4 * h * h + (qwen_vl ? 3 : 2) * h * inter);
  m->vision_params = layers * per_layer
                     + channels * temporal * patch * patch * h;            /* patch embedding */
  if (qwen_merger)
    {
      /* Qwen2-VL / Qwen2.5-VL: a Conv3d without bias, no position table, no final norm;
       * the merger: a norm (LayerNorm for Qwen2-VL, RMSNorm for Qwen2.5-VL), then an MLP
       * on merge x merge patches into the decoder */
      double merged = h * merge * merge;
      double into = out > 0 ? out : m->hidden_size;

      m->vision_params += (qwen_vl ? h : 2 * h) + merged * merged + merged + merged * into + into;
    }
  else if (llama4 && out > 0)
    {
      /* Llama 4: the patch embedding is a bias-free linear; a class embedding and one
       * position row per patch plus the class token; LayerNorm before and after the
       * encoder; the pixel-shuffle adapter (fc1: intermediate_size -> projector_input_dim,
       * fc2: projector_output_dim squared, no biases); the projector into the decoder */
      double grid = image > 0 ? (image / patch) * (image / patch) : 0;

      m->vision_params += h + (grid + 1) * h + 4 * h + inter * pin + pout * pout + out * m->hidden_size;
    }
  else
    {
      /* SigLIP and the generic encoder: a Conv2d with bias, learned positions, a final
       * LayerNorm; gemma-3's mm_input_projection (+ its RMSNorm), else a hidden-to-hidden
       * projector */
      m->vision_params += h + 2 * h;
      if (image > 0)
        m->vision_params += (image / patch) * (image / patch) * h;
      m->vision_params += h * m->hidden_size + (gemma3 ? h : 0);
    }
  m->vision_config_layers = (int) CLAMP (obj_int (v.top, "num_hidden_layers", 0), 0, 100000);
  m->vision_config_hidden = (int) CLAMP (obj_int (v.top, "hidden_size", 0), 0, 1 << 20);

  m->vision_channels = (int) channels;
  m->vision_image_size = (int) image;
  if (gemma3)
    {
      gint64 t = cfg_int (c, KEYS ("mm_tokens_per_image"), 256);

      m->vision_tokens_per_item = (int) CLAMP (t, 0, 1 << 20);
    }
  return !c->failed;
}

static void
read_sliding (Cfg               *c,
              ProcuraModelShape *m,
              const char        *model_type)
{
  JsonNode *types = cfg_member (c, "layer_types");
  gint64 window = cfg_int (c, KEYS ("sliding_window"), 0);
  int use = cfg_bool (c, "use_sliding_window");
  gint64 pattern = cfg_int (c, KEYS ("sliding_window_pattern"), 0);
  int n = m->num_layers;

  if (use == 0 || window <= 0 || n <= 0)
    return;
  m->sliding_window = clamp_int (window);
  m->layer_is_sliding = g_new0 (guint8, n);
  if (types != NULL && JSON_NODE_HOLDS_ARRAY (types))
    {
      JsonArray *a = json_node_get_array (types);
      for (int i = 0; i < n && (guint) i < json_array_get_length (a); i++)
        {
          JsonNode *e = json_array_get_element (a, (guint) i);
          if (JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_STRING &&
              strstr (json_node_get_string (e), "sliding") != NULL)
            m->layer_is_sliding[i] = 1;
        }
    }
  else if (pattern > 0)
    {
      /* gemma-3: every pattern-th layer is global */
      for (int i = 0; i < n; i++)
        m->layer_is_sliding[i] = ((i + 1) % pattern) != 0;
    }
  else if (model_type != NULL && g_str_has_prefix (model_type, "gemma2"))
    {
      for (int i = 0; i < n; i++)
        m->layer_is_sliding[i] = (i % 2) == 0;
    }
  else if (model_type != NULL && g_str_has_prefix (model_type, "gemma3"))
    {
      for (int i = 0; i < n; i++)
        m->layer_is_sliding[i] = ((i + 1) % 6) != 0;
    }
  else
    {
      for (int i = 0; i < n; i++)
        m->layer_is_sliding[i] = 1;
    }
  {
    gboolean any = FALSE;
    for (int i = 0; i < n; i++)
      any |= m->layer_is_sliding[i];
    if (!any)
      {
        g_clear_pointer (&m->layer_is_sliding, g_free);
        m->sliding_window = 0;
      }
  }
}

/* Llama 4's chunked local attention (transformers' Llama4TextConfig, vLLM's llama4.py):
 * text_config attention_chunk_size; a layer that uses RoPE (no_rope_layers entry 1)
 * attends within its chunk, a NoPE layer (0) to every token. An absent or empty
 * no_rope_layers means every no_rope_layer_interval-th layer (default 4) is NoPE. */
static void
read_chunked (Cfg               *c,
              ProcuraModelShape *m)
{
  gint64 chunk = cfg_int (c, KEYS ("attention_chunk_size"), 0);
  gint64 interval = cfg_int (c, KEYS ("no_rope_layer_interval"), 4);
  JsonNode *rope = cfg_member (c, "no_rope_layers");
  int n = m->num_layers;
  gboolean any = FALSE;

  if (c->failed || chunk <= 0 || n <= 0 || m->layer_is_sliding != NULL)
    return;
  m->layer_is_sliding = g_new0 (guint8, n);
  if (rope != NULL && JSON_NODE_HOLDS_ARRAY (rope)
      && json_array_get_length (json_node_get_array (rope)) > 0)
    {
      JsonArray *a = json_node_get_array (rope);

      for (int i = 0; i < n; i++)
        {
          JsonNode *e = (guint) i < json_array_get_length (a) ? json_array_get_element (a, (guint) i) : NULL;
          gint64 v = -1;

          if (e != NULL && JSON_NODE_HOLDS_VALUE (e)
              && (json_node_get_value_type (e) == G_TYPE_INT64
                  || json_node_get_value_type (e) == G_TYPE_BOOLEAN))
            v = json_node_get_value_type (e) == G_TYPE_BOOLEAN
                ? json_node_get_boolean (e) : json_node_get_int (e);
          if (json_array_get_length (a) != (guint) n || (v != 0 && v != 1))
            {
              g_set_error (c->error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                           _("%s: no_rope_layers: expected %d entries of 0 or 1 (one per layer), "
                             "got %u entries"), c->file, n, json_array_get_length (a));
              c->failed = TRUE;
              g_clear_pointer (&m->layer_is_sliding, g_free);
              return;
            }
          m->layer_is_sliding[i] = v == 1 ? PROCURA_ATTN_CHUNKED : PROCURA_ATTN_FULL;
        }
    }
  else if (rope != NULL && !JSON_NODE_HOLDS_NULL (rope) && !JSON_NODE_HOLDS_ARRAY (rope))
    {
      g_set_error (c->error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: no_rope_layers: expected an array of 0 or 1 per layer"), c->file);
      c->failed = TRUE;
      g_clear_pointer (&m->layer_is_sliding, g_free);
      return;
    }
  else
    {
      if (interval < 1)
        interval = 4;
      for (int i = 0; i < n; i++)
        m->layer_is_sliding[i] = ((i + 1) % interval) != 0 ? PROCURA_ATTN_CHUNKED : PROCURA_ATTN_FULL;
    }
  for (int i = 0; i < n; i++)
    any |= m->layer_is_sliding[i] != PROCURA_ATTN_FULL;
  if (!any)
    g_clear_pointer (&m->layer_is_sliding, g_free);
  else
    m->sliding_window = clamp_int (chunk);
}

/* DeciLM / nemotron-nas: heterogeneous blocks. The shape keeps the layer count and
 * head_dim and stores per-layer averages over all layers (a no-op attention counts
 * 0 heads): query and KV heads (keeping attention parameters and the KV cache total
 * close) and the FFN width (keeping the MLP parameter total). */
static gboolean
read_block_configs (Cfg               *c,
                    ProcuraModelShape *m,
                    JsonArray         *blocks)
{
  guint n = json_array_get_length (blocks);
  double kv_sum = 0, inter_sum = 0, q_sum = 0;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *bn = json_array_get_element (blocks, i);
      JsonObject *b, *att = NULL, *ffn = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (bn))
        goto bad;
      b = json_node_get_object (bn);
      if (json_object_has_member (b, "attention") && JSON_NODE_HOLDS_OBJECT (json_object_get_member (b, "attention")))
        att = json_object_get_object_member (b, "attention");
      if (json_object_has_member (b, "ffn") && JSON_NODE_HOLDS_OBJECT (json_object_get_member (b, "ffn")))
        ffn = json_object_get_object_member (b, "ffn");
      if (att == NULL || ffn == NULL)
        goto bad;
      if (!obj_bool (att, "no_op", FALSE) &&
          !obj_bool (att, "replace_with_linear", FALSE))
        {
          gint64 group = obj_int (att, "n_heads_in_group", 1);
          if (group <= 0)
            goto bad;
          kv_sum += (double) m->num_attention_heads / (double) group;
          q_sum += m->num_attention_heads;
        }
      if (!obj_bool (ffn, "no_op", FALSE) &&
          !obj_bool (ffn, "replace_with_linear", FALSE))
        {
          double mult = obj_double (ffn, "ffn_mult", 0);
          if (!(mult >= 0 && mult <= 1000))
            goto bad;
          /* _ffn_mult_to_intermediate_size: int(2 * mult * hidden / 3) rounded up to 256 */
          double inter = floor (2.0 * mult * m->hidden_size / 3.0);
          inter = ceil (inter / 256.0) * 256.0;
          inter_sum += inter;
        }
    }
  if (n == 0)
    goto bad;
  m->num_layers = (int) n;
  if (m->head_dim <= 0)
    m->head_dim = m->hidden_size / m->num_attention_heads;
  m->num_attention_heads = MAX (1, (int) lround (q_sum / n));
  m->num_kv_heads = MAX (1, (int) lround (kv_sum / n));
  m->intermediate_size = (int) lround (inter_sum / n);
  return TRUE;
bad:
  g_set_error (c->error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
               _("%s: block_configs: expected objects with \"attention\" and \"ffn\""), c->file);
  c->failed = TRUE;
  return FALSE;
}

static char *
name_from_file (const char *file)
{
  g_autofree char *base = NULL;
  char *p;

  if (file == NULL)
    return NULL;
  /* a Hugging Face cache path: .../models--org--name/snapshots/<rev>/config.json */
  if ((p = strstr (file, "models--")) != NULL)
    {
      const char *start = p + strlen ("models--");
      const char *end = strchr (start, '/');
      g_autofree char *dir = end != NULL ? g_strndup (start, (gsize) (end - start)) : g_strdup (start);
      char *sep = strstr (dir, "--");

      if (sep != NULL && sep != dir && sep[2] != '\0')
        {
          *sep = '\0';
          return g_strconcat (dir, "/", sep + 2, NULL);
        }
    }
  base = g_path_get_basename (file);
  /* "org--name_config.json" / "models--org--name" (Hugging Face cache style) */
  if ((p = strstr (base, "_config.json")) != NULL || (p = strstr (base, "config.json")) != NULL)
    *p = '\0';
  if (g_str_has_prefix (base, "models--"))
    memmove (base, base + 8, strlen (base + 8) + 1);
  if ((p = strstr (base, "__")) != NULL)
    memmove (base, p + 2, strlen (p + 2) + 1);
  if ((p = strstr (base, "--")) != NULL)
    {
      GString *s = g_string_new_len (base, p - base);
      g_string_append_c (s, '/');
      g_string_append (s, p + 2);
      return g_string_free (s, FALSE);
    }
  if (*base == '\0')
    return NULL;
  return g_steal_pointer (&base);
}

ProcuraModelShape *
procura_model_shape_load_config_json (const char  *path,
                                      GError     **error)
{
  g_autofree char *json = NULL;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);
  json = procura_import_read_file (path, _("a model’s config.json"), &len, error);
  if (json == NULL)
    return NULL;
  return procura_model_shape_from_config_json (NULL, json, len, error);
}

ProcuraModelShape *
procura_model_shape_from_config_json (const char  *name,
                                      const char  *json,
                                      gsize        len,
                                      GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(ProcuraModelShape) m = NULL;
  JsonNode *tc, *arch;
  Cfg c = { 0 };
  const char *model_type;
  gint64 raw_positions;
  double rope_rows = 0;
  const char *file = name != NULL ? name : "config.json";
  int tie;

  /* the strict front door: bounded depth, "FILE:LINE:COL: ..." messages */
  root = procura_json_parse (file, json, len, 0, PROCURA_JSON_STRICT, error);
  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: expected a JSON object (a Hugging Face config.json)"), file);
      return NULL;
    }
  c.top = c.text = json_node_get_object (root);
  c.file = file;
  c.error = error;
  tc = json_object_get_member (c.top, "text_config");
  if (tc != NULL && JSON_NODE_HOLDS_OBJECT (tc))
    c.text = json_node_get_object (tc);

  m = procura_model_shape_new ();
  model_type = cfg_string (&c, "model_type");
  arch = json_object_get_member (c.top, "architectures");
  if (arch != NULL && JSON_NODE_HOLDS_ARRAY (arch) && json_array_get_length (json_node_get_array (arch)) > 0)
    {
      JsonNode *a0 = json_array_get_element (json_node_get_array (arch), 0);
      if (JSON_NODE_HOLDS_VALUE (a0) && json_node_get_value_type (a0) == G_TYPE_STRING)
        m->architecture = g_strdup (json_node_get_string (a0));
    }

  m->num_layers = clamp_int (cfg_int (&c, KEYS ("num_hidden_layers", "n_layer", "num_layers"), 0));
  m->hidden_size = clamp_int (cfg_int (&c, KEYS ("hidden_size", "n_embd", "d_model"), 0));
  m->intermediate_size = clamp_int (cfg_int (&c, KEYS ("intermediate_size", "ffn_dim", "n_inner"), 0));
  m->num_attention_heads = clamp_int (cfg_int (&c, KEYS ("num_attention_heads", "n_head"), 0));
  m->num_kv_heads = clamp_int (cfg_int (&c, KEYS ("num_key_value_heads", "num_kv_heads"), m->num_attention_heads));
  m->vocab_size = clamp_int (cfg_int (&c, KEYS ("vocab_size"), 0));
  m->head_dim = clamp_int (cfg_int (&c, KEYS ("head_dim"), 0));
  m->num_experts = clamp_int (cfg_int (&c, KEYS ("num_local_experts", "num_experts", "n_routed_experts"), 0));
  m->experts_per_token = clamp_int (cfg_int (&c, KEYS ("num_experts_per_tok", "experts_per_token", "num_experts_per_token"), 0));
  m->moe_intermediate_size = clamp_int (cfg_int (&c, KEYS ("moe_intermediate_size"), 0));
  m->num_shared_experts = clamp_int (cfg_int (&c, KEYS ("n_shared_experts"), 0));
  m->first_dense_layers = clamp_int (cfg_int (&c, KEYS ("first_k_dense_replace"), 0));
  m->kv_lora_rank = clamp_int (cfg_int (&c, KEYS ("kv_lora_rank"), 0));
  m->q_lora_rank = clamp_int (cfg_int (&c, KEYS ("q_lora_rank"), 0));
  m->qk_rope_head_dim = clamp_int (cfg_int (&c, KEYS ("qk_rope_head_dim"), 0));
  m->qk_nope_head_dim = clamp_int (cfg_int (&c, KEYS ("qk_nope_head_dim"), 0));
  m->v_head_dim = clamp_int (cfg_int (&c, KEYS ("v_head_dim"), 0));
  m->max_position_embeddings = cfg_int (&c, KEYS ("max_position_embeddings", "n_positions",
                                                  "max_sequence_length", "seq_length"), 0);
  if (c.failed)
    return NULL;
  raw_positions = m->max_position_embeddings;
  {
    /* vLLM's derived max_model_len: the rope scaling factor multiplies the window except
     * for the types that already state it (su, longrope, llama3); yarn starts from
     * original_max_position_embeddings. Gemma 3's window already is the scaled one
     * (vLLM skips the factor for gemma3), though its rope table is built scaled. */
    JsonNode *rs = cfg_member (&c, "rope_scaling");

    if (rs != NULL && JSON_NODE_HOLDS_OBJECT (rs) && m->max_position_embeddings > 0)
      {
        JsonObject *o = json_node_get_object (rs);
        const char *type = obj_string (o, "rope_type", obj_string (o, "type", ""));
        double factor = obj_double (o, "factor", 0);

        if (factor > 1 && factor < 1024 && g_strcmp0 (type, "su") != 0
            && g_strcmp0 (type, "longrope") != 0 && g_strcmp0 (type, "llama3") != 0
            && g_strcmp0 (type, "mrope") != 0 && g_strcmp0 (type, "default") != 0)
          {
            double base = (double) m->max_position_embeddings;

            if (g_strcmp0 (type, "yarn") == 0 && obj_double (o, "original_max_position_embeddings", 0) > 0)
              base = obj_double (o, "original_max_position_embeddings", 0);
            rope_rows = base * factor;
            if (model_type == NULL || !g_str_has_prefix (model_type, "gemma3"))
              m->max_position_embeddings = (gint64) rope_rows;
          }
      }
  }

  /* The rotary tables vLLM keeps on the GPU (rotary_embedding: a cos/sin cache of
   * max_position x rotary_dim, times the scaling factor for linear, dynamic and yarn
   * scaling, which the window above already carries), one per distinct rope; gemma-3's
   * sliding layers add an unscaled table of rope_local_base_freq. */
  if (m->max_position_embeddings > 0 && m->max_position_embeddings <= (G_GINT64_CONSTANT (1) << 26)
      && rope_rows <= (double) (G_GINT64_CONSTANT (1) << 26))
    {
      double heads = m->num_attention_heads > 0 ? m->num_attention_heads : 1;
      double head = m->head_dim > 0 ? m->head_dim : m->hidden_size / heads;
      JsonNode *pn = cfg_member (&c, "partial_rotary_factor");
      double partial = node_is_number (pn) ? json_node_get_double (pn) : 1.0;
      double rot = m->kv_lora_rank > 0 && m->qk_rope_head_dim > 0 ? m->qk_rope_head_dim
                   : floor (head * (partial > 0 && partial <= 1 ? partial : 1.0));

      m->rope_cache_elements = (rope_rows > 0 ? rope_rows : (double) m->max_position_embeddings) * rot;
      if (cfg_member (&c, "rope_local_base_freq") != NULL)
        m->rope_cache_elements += (double) raw_positions * rot;
    }

  /* Llama 4 (modeling_llama4.py): every MoE layer has one shared expert of the experts'
   * intermediate_size; every interleave_moe_layer_step-th layer is MoE, the others are
   * dense MLPs of intermediate_size_mlp. The shape keeps the dense layers first (the
   * counts are exact; a PP stage split places them approximately). */
  if (model_type != NULL && g_str_has_prefix (model_type, "llama4") && m->num_experts > 0
      && m->num_layers > 0)
    {
      gint64 step = cfg_int (&c, KEYS ("interleave_moe_layer_step"), 1);
      gint64 mlp = cfg_int (&c, KEYS ("intermediate_size_mlp"), 0);

      if (step < 1 || step > m->num_layers)
        step = 1;
      if (m->moe_intermediate_size == 0)
        m->moe_intermediate_size = m->intermediate_size;
      if (mlp > 0)
        m->intermediate_size = clamp_int (mlp);
      if (m->num_shared_experts == 0)
        m->num_shared_experts = 1;
      if (m->first_dense_layers == 0)
        m->first_dense_layers = m->num_layers - (int) (m->num_layers / step);
    }

  /* Qwen2-MoE: one shared expert of shared_expert_intermediate_size */
  {
    gint64 shared = cfg_int (&c, KEYS ("shared_expert_intermediate_size"), 0);
    if (shared > 0 && m->moe_intermediate_size > 0 && m->num_shared_experts == 0)
      m->num_shared_experts = clamp_int ((shared + m->moe_intermediate_size / 2) / m->moe_intermediate_size);
  }

  {
    JsonNode *blocks = cfg_member (&c, "block_configs");
    if (blocks != NULL && JSON_NODE_HOLDS_ARRAY (blocks) &&
        m->num_attention_heads > 0 && m->hidden_size > 0 &&
        !read_block_configs (&c, m, json_node_get_array (blocks)))
      return NULL;
  }

  if (m->num_layers <= 0 || m->hidden_size <= 0 || m->num_attention_heads <= 0 || m->vocab_size <= 0)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: expected num_hidden_layers, hidden_size, num_attention_heads and "
                     "vocab_size (positive integers)%s"), file,
                   /* TRANSLATORS: where the fields were looked for (text_config is a JSON key) */
                   tc != NULL ? _(" in text_config") : "");
      return NULL;
    }
  /* far above any real model: refuse rather than allocate or overflow */
  if (m->num_layers > 100000 || m->hidden_size > (1 << 20) || m->num_attention_heads > (1 << 16) ||
      m->num_kv_heads > (1 << 16) || m->vocab_size > (1 << 26) || m->intermediate_size > (1 << 24) ||
      m->moe_intermediate_size > (1 << 24) || m->num_experts > (1 << 16) || m->head_dim > (1 << 16) ||
      m->num_shared_experts > (1 << 16) || m->kv_lora_rank > (1 << 20) || m->q_lora_rank > (1 << 20) ||
      m->qk_rope_head_dim > (1 << 16) || m->qk_nope_head_dim > (1 << 16) || m->v_head_dim > (1 << 16))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_LIMIT,
                   _("%s: a dimension is implausibly large (layers ≤ 100000, hidden_size ≤ 2^20, "
                     "vocab_size ≤ 2^26, experts ≤ 65536 expected)"), file);
      return NULL;
    }
  if (m->num_kv_heads <= 0)
    m->num_kv_heads = m->num_attention_heads;
  if (m->head_dim <= 0)
    m->head_dim = m->hidden_size / m->num_attention_heads;
  if (m->num_experts > 0)
    {
      if (m->moe_intermediate_size <= 0)
        m->moe_intermediate_size = m->intermediate_size;
      if (m->experts_per_token <= 0)
        m->experts_per_token = MIN (2, m->num_experts);
      if (m->experts_per_token > m->num_experts)
        {
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                       _("%s: num_experts_per_tok: %d experts per token, but only %d experts"),
                       file, m->experts_per_token, m->num_experts);
          return NULL;
        }
    }
  else
    {
      m->moe_intermediate_size = 0;
      m->num_shared_experts = 0;
      m->experts_per_token = 0;
      m->first_dense_layers = 0;
    }
  if (m->first_dense_layers > m->num_layers)
    m->first_dense_layers = m->num_layers;
  tie = cfg_bool (&c, "tie_word_embeddings");
  if (tie < 0)
    tie = obj_bool (c.top, "tie_word_embeddings", -1);
  if (tie < 0)
    tie = model_type != NULL && g_str_has_prefix (model_type, "gemma");
  m->tie_word_embeddings = tie == 1;

  read_sliding (&c, m, model_type);
  read_chunked (&c, m);
  if (c.failed || !read_vision (&c, m, model_type))
    return NULL;
  read_quantization (&c, m);

  if (name != NULL && !g_str_has_suffix (name, ".json"))
    m->id = g_strdup (name);
  else
    {
      const char *nop = obj_string (c.top, "_name_or_path", NULL);
      if (nop != NULL && *nop != '\0' && *nop != '/' && strchr (nop, '/') != NULL &&
          strchr (strchr (nop, '/') + 1, '/') == NULL)
        m->id = g_strdup (nop);
      else
        m->id = name_from_file (name);
      if (m->id == NULL)
        m->id = g_strdup (m->architecture != NULL ? m->architecture : "model");
    }
  m->published_params = NAN;
  return g_steal_pointer (&m);
}

/* ------------------------------------------------------------------------- */
/* Parameter counts                                                           */

static gboolean
type_has (const ProcuraModelShape *m,
          const char              *needle)
{
  g_autofree char *a = m->architecture != NULL ? g_ascii_strdown (m->architecture, -1) : NULL;

  return a != NULL && strstr (a, needle) != NULL;
}

static double
attention_params (const ProcuraModelShape *m)
{
  double h = m->hidden_size, heads = m->num_attention_heads;
  double p;

  if (m->kv_lora_rank > 0)
    {
      double qk = m->qk_nope_head_dim + m->qk_rope_head_dim;
      double v = m->v_head_dim > 0 ? m->v_head_dim : m->qk_nope_head_dim;

      if (m->q_lora_rank > 0)
        p = h * m->q_lora_rank + m->q_lora_rank + (double) m->q_lora_rank * heads * qk;
      else
        p = h * heads * qk;
      p += h * (m->kv_lora_rank + m->qk_rope_head_dim);   /* kv_a_proj_with_mqa */
      p += m->kv_lora_rank;                                /* kv_a_layernorm */
      p += (double) m->kv_lora_rank * heads * (m->qk_nope_head_dim + v);
      p += heads * v * h;                                  /* o_proj */
      return p;
    }
  {
    double hd = m->head_dim, kv = m->num_kv_heads;

    p = h * heads * hd + 2 * h * kv * hd + heads * hd * h;
    if (type_has (m, "qwen2"))                     /* q, k, v biases */
      p += heads * hd + 2 * kv * hd;
    if (type_has (m, "gptoss"))                    /* q, k, v, o biases and sinks */
      p += heads * hd + 2 * kv * hd + h + heads;
    if (type_has (m, "qwen3") || type_has (m, "gemma3"))  /* q_norm, k_norm */
      p += 2 * hd;
  }
  return p;
}

static double
mlp_params (double h,
            double inter)
{
  return 3 * h * inter;   /* gate, up, down */
}

static double
moe_layer_params (const ProcuraModelShape *m,
                  double                   n_experts)
{
  double h = m->hidden_size, inter = m->moe_intermediate_size;
  double p = n_experts * mlp_params (h, inter);

  p += m->num_shared_experts * mlp_params (h, inter);
  p += h * m->num_experts;                           /* router */
  if (type_has (m, "gptoss"))
    p += n_experts * (2 * inter + h) + m->num_experts; /* expert and router biases */
  if (type_has (m, "deepseekv3"))
    p += m->num_experts;                             /* e_score_correction_bias */
  if (type_has (m, "qwen2moe"))
    p += h;                                          /* shared_expert_gate */
  return p;
}

static double
count_params (const ProcuraModelShape *m,
              gboolean                 active)
{
  double h, p, attn, norms;
  int dense_layers, moe_layers;

  if (m == NULL || m->num_layers <= 0 || m->hidden_size <= 0)
    return NAN;
  h = m->hidden_size;
  p = (double) m->vocab_size * h;                    /* embed_tokens */
  if (!m->tie_word_embeddings)
    p += (double) m->vocab_size * h;                 /* lm_head */
  p += h;                                            /* final norm */
  attn = attention_params (m);
  norms = (type_has (m, "gemma2") || type_has (m, "gemma3")) ? 4 * h : 2 * h;
  if (m->num_experts > 0)
    {
      dense_layers = m->first_dense_layers;
      moe_layers = m->num_layers - dense_layers;
    }
  else
    {
      dense_layers = m->num_layers;
      moe_layers = 0;
    }
  p += m->num_layers * (attn + norms);
  p += dense_layers * mlp_params (h, m->intermediate_size);
  if (moe_layers > 0)
    p += moe_layers * moe_layer_params (m, active ? m->experts_per_token : m->num_experts);
  return p;
}

double
procura_model_shape_param_count (const ProcuraModelShape *m)
{
  return count_params (m, FALSE);
}

double
procura_model_shape_active_param_count (const ProcuraModelShape *m)
{
  return count_params (m, TRUE);
}

/* ------------------------------------------------------------------------- */
/* The catalog                                                                */

typedef struct {
  ProcuraModelShape *shape;
  char             **aliases;   /* lower-case; the id first */
  char              *source;
} ModelEntry;

static GPtrArray *model_entries;   /* ModelEntry* */

static gpointer
load_models (gpointer data)
{
  g_autoptr(JsonParser) parser = procura_catalog_load_json ("models.json");
  JsonNode *root = json_parser_get_root (parser);
  JsonArray *models = NULL;

  model_entries = g_ptr_array_new ();
  if (root != NULL && JSON_NODE_HOLDS_OBJECT (root) &&
      json_object_has_member (json_node_get_object (root), "models"))
    models = json_object_get_array_member (json_node_get_object (root), "models");
  for (guint i = 0; models != NULL && i < json_array_get_length (models); i++)
    {
      JsonObject *o = json_array_get_object_element (models, i);
      const char *id = json_object_get_string_member_with_default (o, "id", NULL);
      JsonNode *config = json_object_get_member (o, "config");
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;
      ProcuraModelShape *shape;
      ModelEntry *e;
      GPtrArray *aliases;
      JsonNode *an;

      if (id == NULL || config == NULL)
        {
          g_critical ("models.json: entry %u lacks id or config", i);
          continue;
        }
      text = json_to_string (config, FALSE);
      shape = procura_model_shape_from_config_json (id, text, strlen (text), &error);
      if (shape == NULL)
        {
          g_critical ("models.json: %s: %s", id, error->message);
          continue;
        }
      shape->published_params = json_object_get_double_member_with_default (o, "published_params", NAN);
      e = g_new0 (ModelEntry, 1);
      e->shape = shape;
      e->source = g_strdup (json_object_get_string_member_with_default (o, "source", NULL));
      aliases = g_ptr_array_new ();
      g_ptr_array_add (aliases, g_ascii_strdown (id, -1));
      an = json_object_get_member (o, "aliases");
      if (an != NULL && JSON_NODE_HOLDS_ARRAY (an))
        for (guint k = 0; k < json_array_get_length (json_node_get_array (an)); k++)
          g_ptr_array_add (aliases, g_ascii_strdown (json_array_get_string_element (json_node_get_array (an), k), -1));
      g_ptr_array_add (aliases, NULL);
      e->aliases = (char **) g_ptr_array_free (aliases, FALSE);
      g_ptr_array_add (model_entries, e);
    }
  return NULL;
}

static const char *
after_slash (const char *s)
{
  const char *p = strrchr (s, '/');
  return p != NULL ? p + 1 : s;
}

static gboolean
strip_suffix (char       *s,
              const char *suffix)
{
  if (g_str_has_suffix (s, suffix) && strlen (s) > strlen (suffix))
    {
      s[strlen (s) - strlen (suffix)] = '\0';
      return TRUE;
    }
  return FALSE;
}

static ModelEntry *
find_entry_exact (const char *key)
{
  /* full id first, then the part after the slash */
  for (guint i = 0; i < model_entries->len; i++)
    {
      ModelEntry *e = g_ptr_array_index (model_entries, i);
      for (char **a = e->aliases; *a != NULL; a++)
        if (g_str_equal (*a, key))
          return e;
    }
  for (guint i = 0; i < model_entries->len; i++)
    {
      ModelEntry *e = g_ptr_array_index (model_entries, i);
      for (char **a = e->aliases; *a != NULL; a++)
        if (g_str_equal (after_slash (*a), after_slash (key)))
          return e;
    }
  return NULL;
}

static ModelEntry *
find_entry (const char *id_or_name)
{
  static GOnce once = G_ONCE_INIT;
  g_autofree char *key = NULL;
  ModelEntry *e;
  static const char * const suffixes[] = { "-instruct", "-it", "-chat", "-base", NULL };

  if (id_or_name == NULL)
    return NULL;
  g_once (&once, load_models, NULL);
  key = g_strstrip (g_ascii_strdown (id_or_name, -1));
  if ((e = find_entry_exact (key)) != NULL)
    return e;
  /* base and instruct variants alike */
  for (gsize i = 0; suffixes[i] != NULL; i++)
    if (strip_suffix (key, suffixes[i]))
      return find_entry_exact (key);
  return NULL;
}

ProcuraModelShape *
procura_model_catalog_lookup (const char *id_or_name)
{
  ModelEntry *e = find_entry (id_or_name);

  return e != NULL ? procura_model_shape_copy (e->shape) : NULL;
}

const char * const *
procura_model_catalog_aliases (const char *id_or_name)
{
  ModelEntry *e = find_entry (id_or_name);

  return e != NULL ? (const char * const *) e->aliases : NULL;
}

const char *
procura_model_catalog_source (const char *id_or_name)
{
  ModelEntry *e = find_entry (id_or_name);

  return e != NULL ? e->source : NULL;
}

GPtrArray *
procura_model_catalog_all (void)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_model_shape_free);

  find_entry ("");
  for (guint i = 0; i < model_entries->len; i++)
    g_ptr_array_add (out, procura_model_shape_copy (((ModelEntry *) g_ptr_array_index (model_entries, i))->shape));
  return out;
}

/* ------------------------------------------------------------------------- */
/* The hf-config importer                                                     */

static int
hf_config_sniff (const char *data,
                 gsize       len)
{
  int score = 0;
  gsize n = MIN (len, 65536);

  if (n == 0 || !procura_sniff_has (data, n, "{"))
    return 0;
  if (procura_sniff_has (data, n, "\"procura_quotes\""))
    return 0;
  if (procura_sniff_has (data, n, "\"num_hidden_layers\""))
    score += 40;
  if (procura_sniff_has (data, n, "\"hidden_size\""))
    score += 20;
  if (procura_sniff_has (data, n, "\"architectures\""))
    score += 20;
  if (procura_sniff_has (data, n, "\"vocab_size\""))
    score += 10;
  if (procura_sniff_has (data, n, "\"model_type\""))
    score += 10;
  return MIN (score, 95);
}

static gboolean
hf_config_parse (const char          *name,
                 const char          *data,
                 gsize                len,
                 ProcuraImportResult *result,
                 GCancellable        *cancellable,
                 GError             **error)
{
  ProcuraModelShape *m = procura_model_shape_from_config_json (name, data, len, error);
  ModelEntry *e;
  double computed;

  if (m == NULL)
    return FALSE;
  e = find_entry (m->id);
  if (e != NULL)
    m->published_params = e->shape->published_params;
  computed = procura_model_shape_param_count (m);
  if (procura_is_set (m->published_params) && fabs (computed / m->published_params - 1) > 0.02)
    g_ptr_array_add (result->warnings,
                     g_strdup_printf (_("%s: the parameter count computed from the shape (%.2f B) "
                                        "differs from the published one (%.2f B) by more than 2 %%"),
                                      name, computed / 1e9, m->published_params / 1e9));
  if (m->architecture != NULL && strstr (m->architecture, "DeciLM") != NULL)
    g_ptr_array_add (result->warnings,
                     g_strdup_printf (_("%s: the layers differ from one another (block_configs); the shape "
                                        "keeps per-layer averages of the KV heads and the MLP width, so "
                                        "memory figures are estimates"), name));
  g_ptr_array_add (result->model_shapes, m);
  return TRUE;
}

const ProcuraImporter procura_importer_hf_config = {
  .id = "hf-config",
  .description = "Hugging Face model config.json",
  .sniff = hf_config_sniff,
  .parse = hf_config_parse,
};
