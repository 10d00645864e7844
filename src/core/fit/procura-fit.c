/* procura-fit.c: memory fit for serving (vLLM, SGLang)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The engine rules reproduced here, with their source:
 * - vLLM (V1 engine, 0.10 to 0.19): available KV memory = total x gpu_memory_utilization
 *   - weights - torch peak increase of the dummy forward (activations) - non-torch
 *   increase (NCCL / custom all-reduce buffers); CUDA graphs are taken from the rest
 *   unless VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1 (the equation of MEMORY-FIT.md).
 *   num_blocks = pool / (page_size x layers per group); "GPU KV cache size" =
 *   num_blocks // groups x block_size; max concurrency = num_blocks / blocks per request.
 *   Checked against the v0.19 llm-d-planner logs and the v0.10 A100 logs.
 * - SGLang: the KV pool is what is left of total x mem_fraction_static after the
 *   weights (and the CUDA context); activations and CUDA graphs use the rest.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "procura-fit.h"
#include "procura-fit-private.h"

#define MIB (1048576.0)

/* ------------------------------------------------------------------------- */
/* dtypes                                                                     */

gboolean
procura_dtype_parse (const char   *text,
                     ProcuraDtype *out)
{
  static const struct { const char *name; ProcuraDtype dtype; } names[] = {
    { "auto", PROCURA_DTYPE_AUTO },
    { "fp32", PROCURA_DTYPE_FP32 }, { "float32", PROCURA_DTYPE_FP32 },
    { "float", PROCURA_DTYPE_FP32 },
    { "bf16", PROCURA_DTYPE_BF16 }, { "bfloat16", PROCURA_DTYPE_BF16 },
    { "fp16", PROCURA_DTYPE_FP16 }, { "float16", PROCURA_DTYPE_FP16 },
    { "half", PROCURA_DTYPE_FP16 },
    { "fp8", PROCURA_DTYPE_FP8 }, { "fp8_e4m3", PROCURA_DTYPE_FP8 },
    { "fp8_e5m2", PROCURA_DTYPE_FP8 }, { "float8", PROCURA_DTYPE_FP8 },
    { "int8", PROCURA_DTYPE_INT8 }, { "w8a8", PROCURA_DTYPE_INT8 },
    { "int4", PROCURA_DTYPE_INT4 }, { "awq", PROCURA_DTYPE_INT4 },
    { "gptq", PROCURA_DTYPE_INT4 }, { "w4a16", PROCURA_DTYPE_INT4 },
    { "mxfp4", PROCURA_DTYPE_MXFP4 },
    { "nf4", PROCURA_DTYPE_NF4 },
    { "nvfp4", PROCURA_DTYPE_NVFP4 }, { "fp4", PROCURA_DTYPE_NVFP4 },
  };

  if (text == NULL)
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (text, names[i].name) == 0)
      {
        if (out)
          *out = names[i].dtype;
        return TRUE;
      }
  return FALSE;
}

const char *
procura_dtype_to_string (ProcuraDtype dtype)
{
  switch (dtype)
    {
    case PROCURA_DTYPE_AUTO: return "auto";
    case PROCURA_DTYPE_FP32: return "fp32";
    case PROCURA_DTYPE_BF16: return "bf16";
    case PROCURA_DTYPE_FP16: return "fp16";
    case PROCURA_DTYPE_FP8: return "fp8";
    case PROCURA_DTYPE_INT8: return "int8";
    case PROCURA_DTYPE_INT4: return "int4";
    case PROCURA_DTYPE_MXFP4: return "mxfp4";
    case PROCURA_DTYPE_NF4: return "nf4";
    case PROCURA_DTYPE_NVFP4: return "nvfp4";
    default: return "unknown";
    }
}

double
procura_dtype_bytes (ProcuraDtype dtype,
                     int          group_size)
{
  if (group_size <= 0)
    group_size = 128;
  switch (dtype)
    {
    case PROCURA_DTYPE_FP32: return 4.0;
    case PROCURA_DTYPE_AUTO:
    case PROCURA_DTYPE_BF16:
    case PROCURA_DTYPE_FP16: return 2.0;
    case PROCURA_DTYPE_FP8:
    case PROCURA_DTYPE_INT8: return 1.0;
    case PROCURA_DTYPE_INT4: return 0.5 + 2.0 / group_size;
    case PROCURA_DTYPE_MXFP4: return 0.5 + 1.0 / 32.0;
    /* NF4 with double quantisation (QLoRA): 4 bits + an 8-bit absmax per 64 values,
     * itself quantised with one fp32 constant per 256 absmax values. */
    case PROCURA_DTYPE_NF4: return 0.5 + 1.0 / 64.0 + 4.0 / (64.0 * 256.0);
    case PROCURA_DTYPE_NVFP4: return 0.5 + 1.0 / 16.0;
    default: return 2.0;
    }
}

/* ------------------------------------------------------------------------- */
/* Tensor accounting                                                          */

/* ASCII case-insensitive strstr, without allocating (one fit allocates nothing) */
static gboolean
strstr_nocase (const char *haystack,
               const char *needle)
{
  gsize n = strlen (needle);

  for (const char *p = haystack; *p; p++)
    if (g_ascii_strncasecmp (p, needle, n) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
arch_has_qkv_bias (const ProcuraModelShape *m)
{
  return m->architecture != NULL
         && (g_str_has_prefix (m->architecture, "Qwen2")
             || g_str_has_prefix (m->architecture, "GptOss"));
}

int
procura_fit_head_dim (const ProcuraModelShape *m)
{
  if (m->head_dim > 0)
    return m->head_dim;
  if (m->num_attention_heads > 0)
    return m->hidden_size / m->num_attention_heads;
  return 0;
}

/* Whole-model parameter counts by kind, one decoder layer at a time. */
void
procura_fit_tensors (const ProcuraModelShape *m,
                     ProcuraFitTensors       *t)
{
  double h = m->hidden_size;
  double heads = m->num_attention_heads;
  double kv = m->num_kv_heads > 0 ? m->num_kv_heads : m->num_attention_heads;
  double hd = procura_fit_head_dim (m);
  double expert_inter;

  memset (t, 0, sizeof *t);
  t->embedding = (double) m->vocab_size * h;
  t->lm_head = m->tie_word_embeddings ? 0.0 : (double) m->vocab_size * h;
  t->final_norm = h;

  if (m->kv_lora_rank > 0)
    {
      /* MLA (DeepSeek V2/V3, Kimi K2) */
      double qk = m->qk_nope_head_dim + m->qk_rope_head_dim;
      double v = m->v_head_dim > 0 ? m->v_head_dim : m->qk_nope_head_dim;

      if (m->q_lora_rank > 0)
        {
          t->attn_replicated += h * m->q_lora_rank + m->q_lora_rank;   /* q_a + norm */
          t->attn_split += (double) m->q_lora_rank * heads * qk;        /* q_b */
        }
      else
        t->attn_split += h * heads * qk;                                /* q_proj */
      t->attn_replicated += h * (m->kv_lora_rank + m->qk_rope_head_dim) /* kv_a */
                            + m->kv_lora_rank;                           /* kv_a norm */
      t->attn_split += (double) m->kv_lora_rank * heads * (m->qk_nope_head_dim + v); /* kv_b */
      t->attn_split += heads * v * h;                                   /* o_proj */
    }
  else
    {
      t->attn_split = 2.0 * h * heads * hd;   /* q and o */
      t->attn_kv = 2.0 * h * kv * hd;         /* k and v */
      if (arch_has_qkv_bias (m))
        t->attn_bias = (heads + 2.0 * kv) * hd;
    }
  t->layer_norms = 2.0 * h;

  t->dense_mlp = 3.0 * h * m->intermediate_size;
  expert_inter = m->moe_intermediate_size > 0 ? m->moe_intermediate_size : m->intermediate_size;
  if (m->num_experts > 0)
    {
      t->experts = (double) m->num_experts * 3.0 * h * expert_inter;
      t->shared_experts = (double) m->num_shared_experts * 3.0 * h * expert_inter;
      t->router = h * m->num_experts;
      t->moe_layers = MAX (0, m->num_layers - MAX (0, m->first_dense_layers));
    }
  t->dense_layers = m->num_layers - t->moe_layers;
}

double
procura_fit_param_count (const ProcuraModelShape *model)
{
  ProcuraFitTensors t;
  double attn, layer_common;

  g_return_val_if_fail (model != NULL, NAN);
  procura_fit_tensors (model, &t);
  attn = t.attn_split + t.attn_kv + t.attn_replicated + t.attn_bias;
  layer_common = attn + t.layer_norms;
  return t.embedding + t.lm_head + t.final_norm
         + t.dense_layers * (layer_common + t.dense_mlp)
         + t.moe_layers * (layer_common + t.experts + t.shared_experts + t.router);
}

static double
kv_heads_per_gpu (const ProcuraModelShape *m,
                  int                      tp)
{
  int kv = m->num_kv_heads > 0 ? m->num_kv_heads : m->num_attention_heads;

  /* KV heads are split across TP ranks; beyond kv_heads each rank keeps one (replicated) */
  return MAX (1, kv / tp);
}

double
procura_fit_kv_bytes_per_token_layer (const ProcuraModelShape *model,
                                      int                      tp,
                                      ProcuraDtype             kv_dtype)
{
  double bytes = procura_dtype_bytes (kv_dtype, 0);

  g_return_val_if_fail (model != NULL, NAN);
  if (tp < 1)
    tp = 1;
  if (model->kv_lora_rank > 0)
    return (double) (model->kv_lora_rank + model->qk_rope_head_dim) * bytes;
  return 2.0 * kv_heads_per_gpu (model, tp) * procura_fit_head_dim (model) * bytes;
}

/* vLLM's get_pp_indices: layers // pp per stage, the remainder to the stages before
 * the last one. */
static void
pp_stage_range (int  layers,
                int  pp,
                int  stage,
                int *start,
                int *end)
{
  int per = layers / pp;
  int rem = layers % pp;
  int s = 0;

  for (int i = 0; i < pp; i++)
    {
      int n = per;

      /* partitions[-i] += 1 for i in 2 .. rem + 1 */
      if (rem > 0 && i >= pp - 1 - rem && i < pp - 1)
        n++;
      if (i == stage)
        {
          *start = s;
          *end = s + n;
          return;
        }
      s += n;
    }
  *start = *end = 0;
}

static ProcuraDtype
resolve_weights_dtype (const ProcuraFitRequest *r)
{
  ProcuraDtype d = r->weights_dtype;

  if (d == PROCURA_DTYPE_AUTO)
    {
      if (!procura_dtype_parse (r->model->weights_dtype, &d) || d == PROCURA_DTYPE_AUTO)
        d = PROCURA_DTYPE_BF16;
    }
  return d;
}

/* The dtype of activations and unquantised tensors. */
static double
base_bytes (ProcuraDtype weights)
{
  if (weights == PROCURA_DTYPE_FP32)
    return 4.0;
  return 2.0;
}

static double
h_of (const ProcuraModelShape *m)
{
  return m->hidden_size;
}

/* Weights of one stage per GPU. */
static void
weights_per_gpu (const ProcuraModelShape *m,
                 const ProcuraFitTensors *t,
                 ProcuraDtype             wd,
                 int                      group,
                 int                      tp,
                 int                      pp,
                 double                   vision_bytes,
                 double                   rope_bytes,
                 ProcuraFitResult        *res)
{
  double base = base_bytes (wd);
  double lin = procura_dtype_bytes (wd, group);
  double expert_b = lin;
  double dense_lin = lin;
  int kv = m->num_kv_heads > 0 ? m->num_kv_heads : m->num_attention_heads;
  double kv_frac = kv_heads_per_gpu (m, tp) / (double) MAX (kv, 1);
  double attn, dense_layer, moe_layer, best = -1;

  if (wd == PROCURA_DTYPE_MXFP4)
    dense_lin = base;   /* MXFP4 checkpoints quantise only the MoE experts */

  attn = (t->attn_split / tp + t->attn_kv * kv_frac) * dense_lin
         + t->attn_replicated * dense_lin
         + (t->attn_bias / tp + t->layer_norms) * base;
  dense_layer = attn + t->dense_mlp / tp * dense_lin;
  if (m->num_experts > 0 && wd == PROCURA_DTYPE_MXFP4)
    {
      /* vLLM's MXFP4 MoE kernels pad the hidden size to a multiple of 256 and each
       * rank's intermediate size to a multiple of 128 (gpt-oss: 2880 -> 3072; 2880 ->
       * 2944 at TP 1, 1440 -> 1536 at TP 2, 720 -> 768 at TP 4), which the loaded weights
       * show (13.64, 7.01 and 17.22 GiB per GPU) */
      double ei = m->moe_intermediate_size > 0 ? m->moe_intermediate_size : m->intermediate_size;
      double hp = ceil (h_of (m) / 256.0) * 256.0;
      double ip = ceil (ei / tp / 128.0) * 128.0;

      moe_layer = attn + (double) m->num_experts * 3.0 * hp * ip * expert_b
                  + t->shared_experts / tp * expert_b + t->router * base;
    }
  else
    moe_layer = m->num_experts > 0
                ? attn + (t->experts + t->shared_experts) / tp * expert_b + t->router * base
                : 0.0;

  res->dense_layer_bytes = dense_layer;
  res->moe_layer_bytes = moe_layer;

  for (int s = 0; s < pp; s++)
    {
      int start, end;
      double bytes = 0, emb = 0;

      pp_stage_range (m->num_layers, pp, s, &start, &end);
      for (int l = start; l < end; l++)
        bytes += (l >= t->dense_layers ? moe_layer : dense_layer);
      if (s == 0)
        emb += t->embedding / tp * base + vision_bytes;   /* the vision tower: first stage */
      if (s == pp - 1)
        {
          /* tied embeddings: the last stage holds its own copy when PP > 1 */
          double head = t->lm_head > 0 ? t->lm_head : (pp > 1 ? t->embedding : 0.0);

          emb += head / tp * base + t->final_norm * base;
        }
      emb += rope_bytes;   /* every stage builds its own rotary tables */
      bytes += emb;
      if (bytes > best)
        {
          best = bytes;
          res->embedding_bytes = emb;
          res->layers_per_gpu = end - start;
        }
    }
  res->weights_bytes = best;
}

/* SGLang does not profile a multimodal model's encoder. When --mem-fraction-static is
 * not given, ServerArgs._handle_gpu_memory_settings() derives the default fraction and,
 * for a model with a vision_config, multiplies it by adjust_mem_fraction_for_vlm()'s
 * factor (python/sglang/srt/server_args.py): 0.95 x clamp (1 - 0.1 x (r - 1), 0.8,
 * 1.05), r = layers x hidden^2 / (24 x 1024^2) (a ViT-L/14 as baseline), where layers
 * and hidden are vision_config's num_hidden_layers and hidden_size attributes, 24 and
 * 1024 when absent (Qwen2-VL and Qwen2.5-VL name their depth "depth"). An explicit
 * fraction is used as given. */
double
procura_fit_sglang_vlm_factor (const ProcuraModelShape *m)
{
  double layers, hidden, ratio, adjust;

  g_return_val_if_fail (m != NULL, 1.0);
  if (m->vision_params <= 0)
    return 1.0;
  layers = m->vision_config_layers > 0 ? m->vision_config_layers : 24;
  hidden = m->vision_config_hidden > 0 ? m->vision_config_hidden : 1024;
  ratio = layers * hidden * hidden / (24.0 * 1024.0 * 1024.0);
  adjust = CLAMP (1.0 - 0.1 * (ratio - 1.0), 0.8, 1.05);
  return 0.95 * adjust;
}

/* ------------------------------------------------------------------------- */
/* Engine profiling rules per version (docs/memory-fit.md).                    */

/* vLLM measures, in its profiling run, the torch peak increase of one dummy forward
 * pass of max_num_batched_tokens tokens followed by a dummy sampler pass of max_num_seqs
 * rows ("torch peak memory increase"), and the non-torch increase over the worker's
 * initial snapshot (NCCL and custom all-reduce buffers: "non-torch forward increase").
 * The coefficients below are fitted to the engines' own figures:
 * - 0.19: the 59 successful runs of llm-d-planner's v0.19.0 table (activation_memory_gib,
 *   non_torch_forward_gib) on H100, chunk 8192 and 1024 sequences;
 * - 0.10: the vLLM 0.10.1.1 A100 logs (chunk 2048, 256 sequences), where only their sum
 *   is printed (requested memory - weights - KV pool). */
typedef struct {
  const char *version;        /* "0.19" */
  int         minor;          /* 0.MINOR */
  double      sampler_copies; /* fp32 logits copies of the sampler pass (max_num_seqs x vocab) */
  double      hidden_copies;  /* chunk x hidden buffers alive through the sampler pass */
  double      moe_bytes;      /* bytes per chunk token x top-k x expert intermediate / TP */
  double      nt_tp1, nt_tp, nt_pp; /* non-torch forward increase, GiB */
  gboolean    graphs_in_budget;     /* CUDA graphs subtracted before the KV pool */
} VllmRules;

static const VllmRules vllm_rules[] = {
  /* after 0.19: the 0.19 coefficients, with the CUDA graph pool subtracted before the KV
   * pool (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1 by default, as vLLM 0.19's own log
   * announces); no startup log of such a version in the fixtures checks it */
  { "0.20", 20, 3.55, 2.5, 6.0, 0.25, 2.10, 0.07, TRUE },
  { "0.19", 19, 3.55, 2.5, 6.0, 0.25, 2.10, 0.07, FALSE },
  { "0.10", 10, 3.00, 2.5, 6.0, 0.10, 0.16, 0.05, FALSE },
};

/* the newest version checked against a startup log: the default */
#define NEWEST_CHECKED 1

const char * const *
procura_fit_engine_versions (void)
{
  static const char * const versions[] = { "0.20", "0.19", "0.10", NULL };

  return versions;
}

static gboolean
parse_version (const char *v,
               int        *major,
               int        *minor)
{
  char *end = NULL;
  guint64 a, b;

  if (v == NULL)
    return FALSE;
  if (*v == 'v' || *v == 'V')
    v++;
  if (!g_ascii_isdigit (*v))
    return FALSE;
  a = g_ascii_strtoull (v, &end, 10);
  if (end == NULL || *end != '.' || !g_ascii_isdigit (end[1]))
    return FALSE;
  b = g_ascii_strtoull (end + 1, NULL, 10);
  if (a > 1000 || b > 1000)
    return FALSE;
  *major = (int) a;
  *minor = (int) b;
  return TRUE;
}

gboolean
procura_fit_engine_version_valid (const char *version)
{
  int a, b;

  return parse_version (version, &a, &b);
}

/* The rules of the newest known version not newer than @version (the oldest for older
 * ones; the newest for NULL or newer ones). */
static const VllmRules *
vllm_rules_for (const char *version)
{
  int major, minor;

  if (!parse_version (version, &major, &minor))
    return &vllm_rules[NEWEST_CHECKED];
  if (major > 0)
    return &vllm_rules[0];
  for (gsize i = 0; i < G_N_ELEMENTS (vllm_rules); i++)
    if (minor >= vllm_rules[i].minor)
      return &vllm_rules[i];
  return &vllm_rules[G_N_ELEMENTS (vllm_rules) - 1];
}

static double
estimate_activations_rules (const ProcuraModelShape *m,
                            gint64                   chunk,
                            int                      max_num_seqs,
                            double                   act_bytes,
                            int                      tp,
                            gboolean                 last_stage,
                            gboolean                 mxfp4,
                            const VllmRules         *rules)
{
  double hidden = (double) chunk * m->hidden_size * act_bytes;
  double sampler = last_stage ? (double) max_num_seqs * m->vocab_size * 4.0 * rules->sampler_copies : 0.0;
  double dense_inter = (double) m->intermediate_size / tp;
  /* the forward pass alone: gate/up and activation outputs of the chunk through the MLP,
   * and a few hidden-sized buffers */
  double forward = (double) chunk * dense_inter * 3.0 * act_bytes + 4.0 * hidden;
  double a = MAX (sampler + rules->hidden_copies * hidden, forward);

  if (m->num_experts > 0 && !mxfp4)
    {
      /* the fused MoE kernel's three caches: [chunk, top-k, 2 x inter / TP], [chunk, top-k,
       * inter / TP] and [chunk, top-k, hidden]; vLLM's MXFP4 MoE kernels (gpt-oss) do
       * without them (2.87 GiB measured against 2.83 for the sampler pass alone) */
      double inter = m->moe_intermediate_size > 0 ? m->moe_intermediate_size : m->intermediate_size;

      a += (double) chunk * MAX (1, m->experts_per_token)
           * (inter / tp * rules->moe_bytes + 2.0 * m->hidden_size) * act_bytes / 2.0;
    }
  return a;
}

/* ------------------------------------------------------------------------- */
/* Vision towers                                                              */

/* The vision encoder and projector per GPU: the encoder layers' linear weights split by
 * TP (vLLM builds SigLIP, the Qwen2.5-VL ViT and Llama-4's encoder from its parallel
 * linear layers), embeddings, norms and projector whole on every rank; kept at the
 * activation dtype (quantised checkpoints leave the tower unquantised). */
static double
vision_weights_bytes (const ProcuraModelShape *m,
                      int                      tp,
                      double                   act_bytes)
{
  if (m->vision_params <= 0)
    return 0.0;
  return (m->vision_params - m->vision_params_split + m->vision_params_split / MAX (tp, 1))
         * act_bytes;
}

/* What the multimodal part of vLLM's profiling run holds through the decoder's dummy
 * pass (v1/worker/gpu_model_runner.py, profile_run: from 0.8 to 0.19 at least): a batch
 * of dummy images filling the encoder budget (max_num_batched_tokens / tokens per image,
 * at least one), whose pixel values stay on the GPU in the model's dtype, and their
 * encoder outputs (tokens per image x the decoder's hidden size) kept in the encoder
 * cache until the dummy pass and the sampler are done. 0 when config.json does not give
 * the tokens per image or the image size. Sets *@items. */
static double
vision_profile_bytes (const ProcuraModelShape *m,
                      gint64                   chunk,
                      double                   act_bytes,
                      gint64                  *items)
{
  double side = m->vision_image_size;

  *items = 0;
  if (m->vision_params <= 0 || m->vision_tokens_per_item <= 0 || side <= 0)
    return 0.0;
  *items = MAX (1, chunk / m->vision_tokens_per_item);
  return (double) *items * ((double) MAX (m->vision_channels, 1) * side * side
                            + (double) m->vision_tokens_per_item * m->hidden_size) * act_bytes;
}

/* ------------------------------------------------------------------------- */
/* Estimates (labelled): calibrated on vLLM 0.19 logs on H100 (llm-d-planner).  */

/* Torch peak increase of the profiling run under the newest known vLLM rules */
double
procura_fit_estimate_activations (const ProcuraModelShape *m,
                                  gint64                   chunk,
                                  int                      max_num_seqs,
                                  double                   act_bytes,
                                  int                      tp)
{
  return estimate_activations_rules (m, chunk, max_num_seqs, act_bytes, tp, TRUE,
                                     m->weights_dtype != NULL
                                     && g_ascii_strcasecmp (m->weights_dtype, "mxfp4") == 0,
                                     &vllm_rules[NEWEST_CHECKED]);
}

static double
estimate_non_torch (int              tp,
                    int              pp,
                    const VllmRules *rules)
{
  /* 0.19: custom all-reduce + NCCL buffers, 2.06 to 2.21 GiB observed at TP 2 to 4 */
  if (tp > 1)
    return rules->nt_tp * PROCURA_GIB;
  if (pp > 1)
    return rules->nt_pp * PROCURA_GIB;
  return rules->nt_tp1 * PROCURA_GIB;
}

static double
estimate_cuda_context (int gpus)
{
  return (gpus > 1 ? 1.50 : 0.51) * PROCURA_GIB;
}

static double
estimate_cuda_graphs (int layers)
{
  return 0.45 * PROCURA_GIB + 14.5 * MIB * layers;
}

/* ------------------------------------------------------------------------- */

void
procura_fit_request_init (ProcuraFitRequest *r)
{
  memset (r, 0, sizeof *r);
  r->weights_dtype = PROCURA_DTYPE_AUTO;
  r->kv_dtype = PROCURA_DTYPE_AUTO;
  r->context_tokens = 8192;
  r->concurrency = 1;
  r->tp = 1;
  r->pp = 1;
  r->engine = PROCURA_ENGINE_VLLM;
  r->gpu_memory_utilization = NAN;
  r->mem_fraction_static = NAN;
  r->swa_full_tokens_ratio = NAN;
  r->cuda_graphs = TRUE;
  r->cuda_graphs_in_budget = TRUE;
  r->kv_rule = PROCURA_KV_RULE_AUTO;
  r->engine_version = NULL;
  r->usable_memory_bytes = NAN;
  r->kv_pool_bytes = NAN;
  r->activation_bytes = NAN;
  r->non_torch_bytes = NAN;
  r->cuda_graph_bytes = NAN;
  r->weights_bytes = NAN;
}

const char *
procura_fit_limit_to_string (ProcuraFitLimit limit)
{
  switch (limit)
    {
    case PROCURA_FIT_LIMIT_NONE: return "none";
    case PROCURA_FIT_LIMIT_PARALLELISM: return "parallelism";
    case PROCURA_FIT_LIMIT_WEIGHTS: return "weights";
    case PROCURA_FIT_LIMIT_ACTIVATIONS: return "activations";
    case PROCURA_FIT_LIMIT_OVERHEAD: return "overhead";
    case PROCURA_FIT_LIMIT_CONTEXT: return "context";
    case PROCURA_FIT_LIMIT_KV_CACHE: return "kv-cache";
    case PROCURA_FIT_LIMIT_HEADROOM: return "headroom";
    default: return "unknown";
    }
}

static const char * const part_ids[PROCURA_FIT_N_PARTS] = {
  "weights", "kv-cache", "kv-spare", "activations", "non-torch", "cuda-graphs",
  "cuda-context", "headroom",
};

/* KV layout of one stage under a rule: group size (layers per group), full and
 * sliding groups. Llama 4's chunked local layers count as sliding ones (@chunked set):
 * vLLM groups them the same way and only the tokens a sequence keeps differ. */
typedef struct {
  int full_groups, sliding_groups, group_size;
  int n_full, n_sliding;
  gboolean chunked;
} KvLayout;

/* TRUE when @m's local layers are chunked (Llama 4) rather than sliding windows */
static gboolean
model_is_chunked (const ProcuraModelShape *m)
{
  if (m->sliding_window <= 0 || m->layer_is_sliding == NULL)
    return FALSE;
  for (int l = 0; l < m->num_layers; l++)
    if (m->layer_is_sliding[l] == PROCURA_ATTN_CHUNKED)
      return TRUE;
  return FALSE;
}

/* vLLM's hybrid KV cache manager for chunked local attention by default: added by PR
 * #19351 (ChunkedLocalAttentionSpec, mid-2025), turned off by default for a latency
 * regression by PR #21761 (VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=0, after
 * 0.10.0's release: 0.10.1 on) and on again by PR #29627 (the variable's default 1). The
 * release that first carries #29627 is not checked here: taken as 0.13 (an estimate);
 * 0.10.0 is taken as off like its successors. NULL (the newest rules): on. */
static gboolean
vllm_chunked_hybrid_default (const char *version)
{
  int major, minor;

  if (version == NULL || !parse_version (version, &major, &minor))
    return TRUE;
  return major > 0 || minor >= 13;
}

static void
kv_layout (const ProcuraModelShape *m,
           int                      start,
           int                      end,
           ProcuraKvRule            rule,
           KvLayout                *k)
{
  memset (k, 0, sizeof *k);
  for (int l = start; l < end; l++)
    {
      if (m->sliding_window > 0 && m->layer_is_sliding != NULL && m->layer_is_sliding[l])
        k->n_sliding++;
      else
        k->n_full++;
    }
  k->chunked = model_is_chunked (m);
  if (rule != PROCURA_KV_RULE_VLLM_HYBRID || k->n_sliding == 0 || k->n_full == 0)
    {
      if (rule == PROCURA_KV_RULE_VLLM_HYBRID && k->n_full == 0)
        {
          k->group_size = k->n_sliding;
          k->sliding_groups = 1;
        }
      else
        {
          k->group_size = k->n_full + k->n_sliding;
          k->full_groups = 1;
        }
      return;
    }
  /* vLLM groups layers of each kind into groups of the smaller kind's count */
  k->group_size = MIN (k->n_full, k->n_sliding);
  k->full_groups = (k->n_full + k->group_size - 1) / k->group_size;
  k->sliding_groups = (k->n_sliding + k->group_size - 1) / k->group_size;
}

/* SGLang's hybrid SWA models (srt/configs/model_config.py, is_hybrid_swa_model): the
 * others keep every layer's tokens in one pool, sliding layers included. */
static gboolean
sglang_hybrid_swa_arch (const char *architecture)
{
  static const char * const archs[] = {
    "Llama4ForConditionalGeneration", "GptOssForCausalLM", "MiMoV2FlashForCausalLM",
    "Step3p5ForCausalLM", "Gemma4ForCausalLM", "Gemma4ForConditionalGeneration",
  };

  for (gsize i = 0; architecture != NULL && i < G_N_ELEMENTS (archs); i++)
    if (g_str_equal (architecture, archs[i]))
      return TRUE;
  return FALSE;
}

static gint64
blocks_per_sequence (const KvLayout *k,
                     gint64          context,
                     int             window,
                     gint64          chunk,
                     int             block)
{
  gint64 full = (context + block - 1) / block;
  gint64 n = (gint64) k->full_groups * full;

  if (k->sliding_groups > 0 && k->chunked)
    {
      /* ChunkedLocalAttentionSpec.max_memory_usage_bytes: min(chunk size +
       * max_num_batched_tokens, context) tokens, no extra block */
      gint64 tokens = MIN ((gint64) window + chunk, context);

      n += (gint64) k->sliding_groups * ((tokens + block - 1) / block);
    }
  else if (k->sliding_groups > 0)
    {
      gint64 tokens = MIN ((gint64) window - 1 + chunk, context);

      n += (gint64) k->sliding_groups * ((tokens + block - 1) / block + 1);
    }
  return n;
}

static void
set_limit (ProcuraFitResult *res,
           ProcuraFitLimit   limit,
           const char       *format,
           ...) G_GNUC_PRINTF (3, 4);

static void
set_limit (ProcuraFitResult *res,
           ProcuraFitLimit   limit,
           const char       *format,
           ...)
{
  va_list args;

  if (res->limit != PROCURA_FIT_LIMIT_NONE)
    return;   /* the first part that breaks it is the one named */
  res->limit = limit;
  res->fits = FALSE;
  va_start (args, format);
  g_vsnprintf (res->limit_text, sizeof res->limit_text, format, args);
  va_end (args);
}

static gboolean
check_request (const ProcuraFitRequest *r,
               GError                 **error)
{
  const ProcuraModelShape *m = r->model;

  if (m == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("fit: no model given"));
      return FALSE;
    }
  if (m->num_layers <= 0 || m->hidden_size <= 0 || m->num_attention_heads <= 0
      || m->vocab_size <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("fit: model “%s” lacks num_hidden_layers, hidden_size, "
                     "num_attention_heads or vocab_size (expected positive integers)"),
                   m->id ? m->id : "(unnamed)");
      return FALSE;
    }
  if (r->tp < 1 || r->pp < 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("fit: tp and pp must be at least 1 (got tp %d, pp %d)"), r->tp, r->pp);
      return FALSE;
    }
  if (!(r->usable_memory_bytes > 0) || !isfinite (r->usable_memory_bytes))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("fit: usable GPU memory is not known (expected a positive number of "
                     "bytes: a catalog GPU or --gpu-memory-gib)"));
      return FALSE;
    }
  if (r->context_tokens < 1 || r->concurrency < 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("fit: context (%lld) and concurrency (%lld) must be at least 1"),
                   (long long) r->context_tokens, (long long) r->concurrency);
      return FALSE;
    }
  if (procura_is_set (r->gpu_memory_utilization)
      && !(r->gpu_memory_utilization > 0 && r->gpu_memory_utilization <= 1))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("fit: gpu_memory_utilization %g is outside (0, 1]"), r->gpu_memory_utilization);
      return FALSE;
    }
  if (procura_is_set (r->mem_fraction_static)
      && !(r->mem_fraction_static > 0 && r->mem_fraction_static <= 1))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("fit: mem_fraction_static %g is outside (0, 1]"), r->mem_fraction_static);
      return FALSE;
    }
  if (r->block_size < 0 || r->max_num_batched_tokens < 0 || r->max_num_seqs < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("fit: block size, max_num_batched_tokens and max_num_seqs must not be negative"));
      return FALSE;
    }
  if (procura_is_set (r->kv_pool_bytes) && r->kv_pool_bytes < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("fit: the KV pool must not be negative (got %g bytes)"), r->kv_pool_bytes);
      return FALSE;
    }
  return TRUE;
}

gboolean
procura_fit_compute (const ProcuraFitRequest *r,
                     ProcuraFitResult        *res,
                     GError                 **error)
{
  const ProcuraModelShape *m;
  ProcuraFitTensors t;
  KvLayout kl;
  ProcuraDtype wd, kvd;
  double act_b, fraction, cum, used, kv_layer, rope_b;
  gint64 chunk, bps;
  int tp, pp, block, max_seqs, stage_start = 0, stage_end = 0, window;
  gboolean pool_given, graphs_in_budget;
  const VllmRules *rules;
  double swa_ratio;

  g_return_val_if_fail (r != NULL && res != NULL, FALSE);
  memset (res, 0, sizeof *res);
  if (!check_request (r, error))
    return FALSE;

  m = r->model;
  tp = r->tp;
  pp = r->pp;
  res->tp = tp;
  res->pp = pp;
  res->gpus = tp * pp;
  res->context_tokens = r->context_tokens;
  res->concurrency = r->concurrency;
  res->usable_memory_bytes = r->usable_memory_bytes;
  res->fits = TRUE;
  res->limit = PROCURA_FIT_LIMIT_NONE;
  rules = vllm_rules_for (r->engine_version);
  graphs_in_budget = r->engine_version != NULL ? rules->graphs_in_budget : r->cuda_graphs_in_budget;
  if (r->engine == PROCURA_ENGINE_SGLANG)
    g_strlcpy (res->engine_rules, "sglang", sizeof res->engine_rules);
  else
    g_snprintf (res->engine_rules, sizeof res->engine_rules, "vllm %s", rules->version);

  swa_ratio = procura_is_set (r->swa_full_tokens_ratio) && r->swa_full_tokens_ratio > 0
              ? r->swa_full_tokens_ratio : 0.8;
  block = r->block_size > 0 ? r->block_size : (r->engine == PROCURA_ENGINE_SGLANG ? 1 : 16);
  res->block_size = block;
  {
    /* vLLM (arg_utils): the larger defaults only on >= 70 GiB GPUs that are not A100s */
    gboolean big = r->engine == PROCURA_ENGINE_SGLANG
                   || (r->usable_memory_bytes >= 70 * PROCURA_GIB
                       && (r->gpu_id == NULL || !strstr_nocase (r->gpu_id, "a100")));

    chunk = r->max_num_batched_tokens > 0 ? r->max_num_batched_tokens : (big ? 8192 : 2048);
    max_seqs = r->max_num_seqs > 0 ? r->max_num_seqs : (big ? 1024 : 256);
  }

  wd = resolve_weights_dtype (r);
  act_b = base_bytes (wd);
  kvd = r->kv_dtype;
  if (kvd == PROCURA_DTYPE_AUTO)
    kvd = wd == PROCURA_DTYPE_FP32 ? PROCURA_DTYPE_FP32
          : wd == PROCURA_DTYPE_FP16 ? PROCURA_DTYPE_FP16 : PROCURA_DTYPE_BF16;
  res->weights_dtype = wd;
  res->kv_dtype = kvd;
  if (r->weights_dtype == PROCURA_DTYPE_AUTO && m->weights_dtype != NULL
      && !procura_dtype_parse (m->weights_dtype, NULL))
    g_snprintf (res->caveat, sizeof res->caveat,
                _("the checkpoint's weight format “%s” is not one the calculator knows; "
                  "bf16 assumed (give the weights dtype)"), m->weights_dtype);

  if (r->weights_dtype == PROCURA_DTYPE_AUTO
      && (m->weights_dtype == NULL || g_ascii_strcasecmp (m->weights_dtype, "bf16") == 0
          || g_ascii_strcasecmp (m->weights_dtype, "fp16") == 0)
      && procura_fit_quant_from_name (m->id) != PROCURA_DTYPE_AUTO)
    {
      gsize used_len = strlen (res->caveat);

      g_snprintf (res->caveat + used_len, sizeof res->caveat - used_len,
                  _("%sthe model's name says %s but its config.json declares no quantisation: "
                    "sized as %s (give the weights dtype, or the hf_quant_config.json)"),
                  used_len > 0 ? "; " : "",
                  procura_dtype_to_string (procura_fit_quant_from_name (m->id)),
                  procura_dtype_to_string (wd));
    }

  /* Weights, with the rotary tables the engine builds at load time: vLLM casts them to
   * the model's dtype (rotary_embedding's cos_sin_cache), SGLang keeps them in fp32 on
   * CUDA; both count them in the memory the load took */
  rope_b = r->engine == PROCURA_ENGINE_VLLM ? m->rope_cache_elements * act_b
           : r->engine == PROCURA_ENGINE_SGLANG ? m->rope_cache_elements * 4.0 : 0.0;
  res->rope_bytes = rope_b;
  procura_fit_tensors (m, &t);
  res->params_total = procura_fit_param_count (m);
  weights_per_gpu (m, &t, wd, r->quant_group_size > 0 ? r->quant_group_size : m->quant_group_size,
                   tp, MIN (pp, m->num_layers), vision_weights_bytes (m, tp, act_b), rope_b, res);
  {
    ProcuraFitResult one;

    weights_per_gpu (m, &t, wd, r->quant_group_size > 0 ? r->quant_group_size : m->quant_group_size,
                     1, 1, vision_weights_bytes (m, 1, act_b), rope_b, &one);
    res->weights_total_bytes = one.weights_bytes;
  }
  if (m->vision_params > 0)
    {
      gsize used_len = strlen (res->caveat);

      g_snprintf (res->caveat + used_len, sizeof res->caveat - used_len,
                  _("%svision tower: %.2f GiB of encoder and projector weights per GPU (at %s, "
                    "unquantised)"), used_len > 0 ? "; " : "",
                  vision_weights_bytes (m, tp, act_b) / PROCURA_GIB, act_b > 2 ? "fp32" : "bf16");
    }
  if (procura_is_set (r->weights_bytes))
    res->weights_bytes = r->weights_bytes;

  /* Parallelism that the engines refuse */
  {
    int kv = m->num_kv_heads > 0 ? m->num_kv_heads : m->num_attention_heads;

    if (m->num_attention_heads % tp != 0)
      set_limit (res, PROCURA_FIT_LIMIT_PARALLELISM,
                 _("TP %d does not divide the %d attention heads"), tp, m->num_attention_heads);
    else if (m->kv_lora_rank == 0 && ((kv >= tp && kv % tp != 0) || (kv < tp && tp % kv != 0)))
      set_limit (res, PROCURA_FIT_LIMIT_PARALLELISM,
                 _("TP %d and the %d KV heads do not divide one another"), tp, kv);
    else if (pp > m->num_layers)
      set_limit (res, PROCURA_FIT_LIMIT_PARALLELISM,
                 _("PP %d exceeds the %d layers"), pp, m->num_layers);
  }
  res->model_max_context = m->max_position_embeddings;
  if (m->max_position_embeddings > 0 && r->context_tokens > m->max_position_embeddings)
    set_limit (res, PROCURA_FIT_LIMIT_CONTEXT,
               _("the context of %lld tokens exceeds the model's own window of %lld tokens "
                 "(max_position_embeddings with rope scaling); the engine refuses such a "
                 "max_model_len"), (long long) r->context_tokens, (long long) m->max_position_embeddings);

  /* KV cache layout: the stage with the most layers */
  if (r->kv_rule != PROCURA_KV_RULE_AUTO)
    res->kv_rule = r->kv_rule;
  else if (m->sliding_window <= 0 || m->layer_is_sliding == NULL)
    res->kv_rule = PROCURA_KV_RULE_ALL_FULL;
  else if (r->engine == PROCURA_ENGINE_VLLM)
    res->kv_rule = !model_is_chunked (m) || vllm_chunked_hybrid_default (r->engine_version)
                   ? PROCURA_KV_RULE_VLLM_HYBRID : PROCURA_KV_RULE_ALL_FULL;
  else
    res->kv_rule = sglang_hybrid_swa_arch (m->architecture)
                   ? PROCURA_KV_RULE_SGLANG_SWA : PROCURA_KV_RULE_ALL_FULL;
  {
    int best = -1;

    for (int s = 0; s < MIN (pp, m->num_layers); s++)
      {
        int a, b;

        pp_stage_range (m->num_layers, MIN (pp, m->num_layers), s, &a, &b);
        if (b - a > best)
          {
            best = b - a;
            stage_start = a;
            stage_end = b;
          }
      }
  }
  kv_layout (m, stage_start, stage_end, res->kv_rule, &kl);
  window = m->sliding_window;
  kv_layer = procura_fit_kv_bytes_per_token_layer (m, tp, kvd);
  res->kv_bytes_per_token_layer = kv_layer;
  res->kv_page_bytes = kv_layer * block;
  res->kv_bytes_per_token = kv_layer * kl.group_size * (kl.full_groups + kl.sliding_groups);
  res->kv_bytes_per_token_needed = kv_layer * (stage_end - stage_start);

  if (kl.n_sliding > 0)
    {
      char *end = res->caveat + strlen (res->caveat);
      gsize room = sizeof res->caveat - (gsize) (end - res->caveat);

      if (end != res->caveat && room > 2)
        {
          *end++ = ';';
          *end++ = ' ';
          *end = '\0';
          room -= 2;
        }
      if (kl.chunked && res->kv_rule == PROCURA_KV_RULE_VLLM_HYBRID)
        g_snprintf (end, room,
                    _("chunked local attention: %d of %d layers attend within %d-token chunks; "
                      "vLLM hybrid KV cache manager rule (estimate, not checked against a startup "
                      "log): %d full and %d chunked groups of %d layers, \"GPU KV cache size\" "
                      "counts every layer as full attention, a sequence holds min(chunk + %lld, "
                      "context) tokens in each chunked group; max concurrency follows from that"),
                    kl.n_sliding, kl.n_full + kl.n_sliding, window, kl.full_groups,
                    kl.sliding_groups, kl.group_size, (long long) chunk);
      else if (kl.chunked && res->kv_rule == PROCURA_KV_RULE_SGLANG_SWA)
        g_snprintf (end, room,
                    _("chunked local attention: %d of %d layers attend within %d-token chunks; "
                      "SGLang's hybrid SWA rule with the chunk as the window (estimate, not checked "
                      "against a startup log): a full-attention pool and a local pool of %.2f times "
                      "its tokens (swa_full_tokens_ratio), a sequence holds its context in the first "
                      "and min(chunk, context) tokens in the second"),
                    kl.n_sliding, kl.n_full + kl.n_sliding, window, swa_ratio);
      else if (kl.chunked)
        g_snprintf (end, room,
                    _("chunked local attention: %d of %d layers attend within %d-token chunks, "
                      "counted here as full attention (%s)"),
                    kl.n_sliding, kl.n_full + kl.n_sliding, window,
                    r->engine == PROCURA_ENGINE_SGLANG
                    ? _("SGLang keeps one pool for this architecture, or --disable-hybrid-swa-memory")
                    : _("vLLM before 0.13 turns its hybrid KV cache manager off for chunked "
                        "attention unless VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1; "
                        "or --disable-hybrid-kv-cache-manager"));
      else if (res->kv_rule == PROCURA_KV_RULE_VLLM_HYBRID)
        g_snprintf (end, room,
                    _("hybrid attention: %d of %d layers use a %d-token sliding window; vLLM V1 hybrid "
                      "allocator rule: %d full and %d sliding groups of %d layers, \"GPU KV cache "
                      "size\" counts every layer as full attention, a sequence holds min(window - 1 + "
                      "%lld, context) tokens (+1 block) in each sliding group; max concurrency follows "
                      "from that"),
                    kl.n_sliding, kl.n_full + kl.n_sliding, window, kl.full_groups,
                    kl.sliding_groups, kl.group_size, (long long) chunk);
      else if (res->kv_rule == PROCURA_KV_RULE_SGLANG_SWA)
        g_snprintf (end, room,
                    _("hybrid attention: %d of %d layers use a %d-token sliding window; "
                      "SGLang's hybrid SWA rule: a full-attention pool and a sliding-window pool "
                      "of %.2f times its tokens (swa_full_tokens_ratio), a sequence holds its "
                      "context in the first and min(window, context) tokens in the second"),
                    kl.n_sliding, kl.n_full + kl.n_sliding, window, swa_ratio);
      else
        g_snprintf (end, room,
                    _("hybrid attention: %d of %d layers use a %d-token sliding window, "
                      "counted here as full attention (%s)"),
                    kl.n_sliding, kl.n_full + kl.n_sliding, window,
                    r->engine == PROCURA_ENGINE_SGLANG
                    ? _("SGLang keeps one pool for this architecture, or --disable-hybrid-swa-memory")
                    : _("vLLM with --disable-sliding-window"));
      if (kl.n_sliding > 0)
        res->kv_bytes_per_token_needed = kv_layer * (kl.n_full + (double) kl.n_sliding
                                                     * MIN ((double) window - (kl.chunked ? 0 : 1) + chunk,
                                                            (double) r->context_tokens)
                                                     / (double) r->context_tokens);
      if (res->kv_rule == PROCURA_KV_RULE_ALL_FULL)
        res->kv_bytes_per_token_needed = res->kv_bytes_per_token;
      if (res->kv_rule == PROCURA_KV_RULE_SGLANG_SWA)
        res->kv_bytes_per_token_needed = kv_layer * (kl.n_full + (double) kl.n_sliding
                                                     * MIN ((double) window, (double) r->context_tokens)
                                                     / (double) r->context_tokens);
    }

  /* Estimates */
  if (procura_is_set (r->activation_bytes))
    res->activation_bytes = r->activation_bytes;
  else
    {
      res->activation_bytes = estimate_activations_rules (m, chunk, max_seqs, act_b, tp, TRUE,
                                                          wd == PROCURA_DTYPE_MXFP4, rules);
      res->estimates |= PROCURA_FIT_ESTIMATE_ACTIVATIONS;
      if (m->vision_params > 0)
        {
          gsize used_len = strlen (res->caveat);
          gint64 items = 0;
          double mm = r->engine == PROCURA_ENGINE_VLLM ? vision_profile_bytes (m, chunk, act_b, &items) : 0.0;

          res->activation_bytes += mm;
          if (mm > 0)
            g_snprintf (res->caveat + used_len, sizeof res->caveat - used_len,
                        _("%sthe profiling run holds %lld dummy images and their encoder outputs through "
                          "the decoder's pass (%.2f GiB, in the activations)"),
                        used_len > 0 ? "; " : "", (long long) items, mm / PROCURA_GIB);
          else
            g_snprintf (res->caveat + used_len, sizeof res->caveat - used_len,
                        _("%sthe encoder's share of the profiling run is not estimated (%s)"),
                        used_len > 0 ? "; " : "",
                        r->engine == PROCURA_ENGINE_VLLM
                        ? _("config.json gives no tokens per image") : _("SGLang's rule is not modelled"));
        }
    }
  if (procura_is_set (r->non_torch_bytes))
    res->non_torch_bytes = r->non_torch_bytes;
  else
    {
      res->non_torch_bytes = estimate_non_torch (tp, pp, rules);
      res->estimates |= PROCURA_FIT_ESTIMATE_NON_TORCH;
    }
  if (!r->cuda_graphs)
    res->cuda_graph_bytes = 0;
  else if (procura_is_set (r->cuda_graph_bytes))
    res->cuda_graph_bytes = r->cuda_graph_bytes;
  else
    {
      res->cuda_graph_bytes = estimate_cuda_graphs (res->layers_per_gpu);
      res->estimates |= PROCURA_FIT_ESTIMATE_CUDA_GRAPHS;
    }
  res->cuda_context_bytes = estimate_cuda_context (res->gpus);

  /* Engine budget */
  if (r->engine == PROCURA_ENGINE_SGLANG)
    {
      fraction = procura_is_set (r->mem_fraction_static) ? r->mem_fraction_static : 0.88;
      if (!procura_is_set (r->mem_fraction_static) && m->vision_params > 0)
        {
          /* SGLang runs no encoder profiling: it lowers its own default fraction */
          double vlm = procura_fit_sglang_vlm_factor (m);
          gsize used_len = strlen (res->caveat);

          fraction *= vlm;
          res->sglang_vlm_factor = vlm;
          g_snprintf (res->caveat + used_len, sizeof res->caveat - used_len,
                      "%sSGLang profiles no vision encoder: it keeps room for it by lowering "
                      "its default mem_fraction_static by the factor %.4f (ViT of %d layers of "
                      "%d); an explicit mem_fraction_static skips this",
                      used_len > 0 ? "; " : "", vlm,
                      m->vision_config_layers > 0 ? m->vision_config_layers : 24,
                      m->vision_config_hidden > 0 ? m->vision_config_hidden : 1024);
        }
    }
  else
    fraction = procura_is_set (r->gpu_memory_utilization) ? r->gpu_memory_utilization : 0.90;
  res->budget_bytes = r->usable_memory_bytes * fraction;

  pool_given = procura_is_set (r->kv_pool_bytes);
  cum = res->weights_bytes;
  if (cum > res->budget_bytes)
    set_limit (res, PROCURA_FIT_LIMIT_WEIGHTS,
               _("weights need %.2f GiB per GPU; the budget is %.2f GiB (%.2f GiB x %.2f)"),
               cum / PROCURA_GIB, res->budget_bytes / PROCURA_GIB,
               r->usable_memory_bytes / PROCURA_GIB, fraction);
  if (r->engine == PROCURA_ENGINE_SGLANG)
    {
      /* the static pool: weights + KV = total x mem_fraction_static (after the context) */
      cum += res->cuda_context_bytes;
      if (cum > res->budget_bytes)
        set_limit (res, PROCURA_FIT_LIMIT_OVERHEAD,
                   _("weights and the CUDA context (%.2f GiB) exceed mem_fraction_static x "
                     "memory (%.2f GiB)"), cum / PROCURA_GIB, res->budget_bytes / PROCURA_GIB);
    }
  else
    {
      cum += res->activation_bytes;
      if (cum > res->budget_bytes)
        set_limit (res, PROCURA_FIT_LIMIT_ACTIVATIONS,
                   _("weights and the activation peak (%.2f GiB) exceed the budget of %.2f GiB"),
                   cum / PROCURA_GIB, res->budget_bytes / PROCURA_GIB);
      cum += res->non_torch_bytes + (graphs_in_budget ? res->cuda_graph_bytes : 0.0);
      if (cum > res->budget_bytes)
        set_limit (res, PROCURA_FIT_LIMIT_OVERHEAD,
                   _("weights, activations, non-torch memory and CUDA graphs (%.2f GiB) "
                     "exceed the budget of %.2f GiB"), cum / PROCURA_GIB,
                   res->budget_bytes / PROCURA_GIB);
    }
  if (pool_given)
    res->kv_pool_bytes = r->kv_pool_bytes;
  else
    {
      res->kv_pool_bytes = MAX (0.0, res->budget_bytes - cum);
      res->estimates |= (res->estimates & (PROCURA_FIT_ESTIMATE_ACTIVATIONS
                                           | PROCURA_FIT_ESTIMATE_NON_TORCH
                                           | PROCURA_FIT_ESTIMATE_CUDA_GRAPHS))
                        ? PROCURA_FIT_ESTIMATE_KV_POOL : 0;
      if (r->engine == PROCURA_ENGINE_SGLANG)
        res->estimates |= PROCURA_FIT_ESTIMATE_KV_POOL;
    }

  /* Blocks and tokens */
  if (res->kv_bytes_per_token > 0)
    {
      double group_page = res->kv_page_bytes * kl.group_size;
      int groups = kl.full_groups + kl.sliding_groups;

      res->kv_blocks = (gint64) floor (res->kv_pool_bytes / group_page);
      res->kv_tokens = res->kv_blocks / groups * block;
    }
  bps = blocks_per_sequence (&kl, r->context_tokens, window, chunk, block);
  res->max_concurrency = bps > 0 ? (double) res->kv_blocks / bps : 0;
  res->max_concurrency_int = bps > 0 ? res->kv_blocks / bps : 0;
  res->tokens_needed = r->concurrency * ((r->context_tokens + block - 1) / block) * block;
  res->kv_needed_bytes = (double) r->concurrency * bps * res->kv_page_bytes * kl.group_size;

  if (res->kv_rule == PROCURA_KV_RULE_SGLANG_SWA && kl.n_sliding > 0)
    {
      /* the pool as if every layer were full (kv_tokens above, whole pages) split into the
       * full and sliding pools: full x n_full + ratio x full x n_sliding = tokens x layers */
      int layers = kl.n_full + kl.n_sliding;
      gint64 all_full = res->kv_tokens;
      gint64 full = (gint64) floor ((double) all_full * layers / (swa_ratio * kl.n_sliding + kl.n_full));
      gint64 swa = (gint64) floor ((double) full * swa_ratio);
      gint64 ctx = r->context_tokens;
      gint64 in_window = MIN ((gint64) window, ctx);
      double by_full, by_swa;

      full -= full % block;
      swa -= swa % block;
      res->kv_tokens = full;
      res->kv_swa_tokens = swa;
      res->kv_blocks = full / block;
      res->kv_bytes_per_token = kv_layer * (kl.n_full + swa_ratio * kl.n_sliding);
      by_full = ctx > 0 ? (double) full / ctx : 0;
      by_swa = in_window > 0 ? (double) swa / in_window : 0;
      res->max_concurrency = MIN (by_full, by_swa);
      res->max_concurrency_int = (gint64) floor (res->max_concurrency);
      res->kv_needed_bytes = (double) r->concurrency * kv_layer
                             * ((double) ctx * kl.n_full + (double) in_window * kl.n_sliding);
      /* longest context at the concurrency: the full pool's share, while the sliding pool
       * holds a whole window for each sequence (else only contexts below the window fit) */
      res->max_context = r->concurrency * (gint64) window <= swa
                         ? full / r->concurrency : MIN (full, swa) / r->concurrency;
      res->max_context -= res->max_context % block;
      res->max_context_pool = res->max_context;
      if (m->max_position_embeddings > 0 && res->max_context > m->max_position_embeddings)
        {
          gsize used_len = strlen (res->caveat);

          res->max_context = m->max_position_embeddings;
          g_snprintf (res->caveat + used_len, sizeof res->caveat - used_len,
                      _("%smax context capped at the model's own window of %lld tokens (the KV pool "
                        "alone would hold %lld)"),
                      used_len > 0 ? "; " : "", (long long) m->max_position_embeddings,
                      (long long) res->max_context_pool);
        }
    }
  else
    {
      /* longest context at the target concurrency: bisection on whole blocks */
      gint64 lo = 0, hi = res->kv_blocks + 1;

      if (kl.full_groups == 0)
        hi = G_MAXINT32 / block;   /* sliding only: bounded by the window, not by memory */
      while (hi - lo > 1)
        {
          gint64 mid = lo + (hi - lo) / 2;

          if (r->concurrency * blocks_per_sequence (&kl, mid * block, window, chunk, block)
              <= res->kv_blocks)
            lo = mid;
          else
            hi = mid;
        }
      res->max_context = lo * block;
      res->max_context_pool = res->max_context;
      if (m->max_position_embeddings > 0 && res->max_context > m->max_position_embeddings)
        {
          gsize used_len = strlen (res->caveat);

          res->max_context = m->max_position_embeddings;
          g_snprintf (res->caveat + used_len, sizeof res->caveat - used_len,
                      _("%smax context capped at the model's own window of %lld tokens (the KV pool "
                        "alone would hold %lld)"),
                      used_len > 0 ? "; " : "", (long long) m->max_position_embeddings,
                      (long long) res->max_context_pool);
        }
    }

  /* (kv_blocks < bps and kv_blocks < concurrency x bps, in whole sequences, for every rule) */
  if (res->max_concurrency_int < 1)
    set_limit (res, PROCURA_FIT_LIMIT_CONTEXT,
               _("the KV pool (%.2f GiB per GPU, %lld tokens) holds less than one %lld-token sequence"),
               res->kv_pool_bytes / PROCURA_GIB, (long long) res->kv_tokens, (long long) r->context_tokens);
  else if (res->max_concurrency_int < r->concurrency)
    set_limit (res, PROCURA_FIT_LIMIT_KV_CACHE,
               _("the KV pool holds %.2f sequences of %lld tokens, not %lld (%lld tokens in the pool)"),
               res->max_concurrency, (long long) r->context_tokens, (long long) r->concurrency,
               (long long) res->kv_tokens);

  /* Everything that is allocated, and what is left */
  used = res->weights_bytes + res->kv_pool_bytes + res->activation_bytes
         + res->non_torch_bytes + res->cuda_graph_bytes + res->cuda_context_bytes;
  res->headroom_bytes = r->usable_memory_bytes - used;
  if (res->headroom_bytes < 0)
    set_limit (res, PROCURA_FIT_LIMIT_HEADROOM,
               _("the parts need %.2f GiB per GPU, %.2f GiB more than the %.2f GiB usable"),
               used / PROCURA_GIB, -res->headroom_bytes / PROCURA_GIB,
               r->usable_memory_bytes / PROCURA_GIB);

  /* Parts for charts */
  for (int i = 0; i < PROCURA_FIT_N_PARTS; i++)
    {
      res->parts[i].kind = i;
      res->parts[i].id = part_ids[i];
    }
  res->parts[PROCURA_FIT_PART_WEIGHTS].bytes = res->weights_bytes;
  res->parts[PROCURA_FIT_PART_KV_CACHE].bytes = MIN (res->kv_needed_bytes, res->kv_pool_bytes);
  res->parts[PROCURA_FIT_PART_KV_SPARE].bytes = MAX (0.0, res->kv_pool_bytes - res->kv_needed_bytes);
  res->parts[PROCURA_FIT_PART_KV_CACHE].estimate = (res->estimates & PROCURA_FIT_ESTIMATE_KV_POOL) != 0;
  res->parts[PROCURA_FIT_PART_KV_SPARE].estimate = (res->estimates & PROCURA_FIT_ESTIMATE_KV_POOL) != 0;
  res->parts[PROCURA_FIT_PART_ACTIVATIONS].bytes = res->activation_bytes;
  res->parts[PROCURA_FIT_PART_ACTIVATIONS].estimate = (res->estimates & PROCURA_FIT_ESTIMATE_ACTIVATIONS) != 0;
  res->parts[PROCURA_FIT_PART_NON_TORCH].bytes = res->non_torch_bytes;
  res->parts[PROCURA_FIT_PART_NON_TORCH].estimate = (res->estimates & PROCURA_FIT_ESTIMATE_NON_TORCH) != 0;
  res->parts[PROCURA_FIT_PART_CUDA_GRAPHS].bytes = res->cuda_graph_bytes;
  res->parts[PROCURA_FIT_PART_CUDA_GRAPHS].estimate = (res->estimates & PROCURA_FIT_ESTIMATE_CUDA_GRAPHS) != 0;
  res->parts[PROCURA_FIT_PART_CUDA_CONTEXT].bytes = res->cuda_context_bytes;
  res->parts[PROCURA_FIT_PART_CUDA_CONTEXT].estimate = TRUE;
  res->parts[PROCURA_FIT_PART_HEADROOM].bytes = MAX (0.0, res->headroom_bytes);
  res->parts[PROCURA_FIT_PART_HEADROOM].estimate = TRUE;

  if (res->limit == PROCURA_FIT_LIMIT_NONE)
    g_snprintf (res->limit_text, sizeof res->limit_text,
                _("fits: %lld tokens in the KV pool, %.2f sequences of %lld tokens"),
                (long long) res->kv_tokens, res->max_concurrency, (long long) r->context_tokens);
  return TRUE;
}

/* ------------------------------------------------------------------------- */

double
procura_fit_gpu_usable_bytes (const ProcuraGpuSpec *gpu,
                              gboolean             *is_driver_figure)
{
  g_return_val_if_fail (gpu != NULL, NAN);
  if (procura_is_set (gpu->usable_memory_bytes) && gpu->usable_memory_bytes > 0)
    {
      if (is_driver_figure)
        *is_driver_figure = !gpu->usable_memory_estimate;
      return gpu->usable_memory_bytes;
    }
  if (is_driver_figure)
    *is_driver_figure = FALSE;
  return gpu->memory_gb_marketed * 1e9;
}

int
procura_fit_smallest_tp (const ProcuraFitRequest *request,
                         double                   usable_memory_bytes,
                         ProcuraFitResult        *result)
{
  static const int tps[] = { 1, 2, 4, 8 };
  ProcuraFitRequest r = *request;

  r.usable_memory_bytes = usable_memory_bytes;
  for (gsize i = 0; i < G_N_ELEMENTS (tps); i++)
    {
      r.tp = tps[i];
      if (!procura_fit_compute (&r, result, NULL))
        return -1;
      if (result->fits)
        return tps[i];
    }
  return -1;
}
