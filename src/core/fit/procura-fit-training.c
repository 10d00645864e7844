/* procura-fit-training.c: memory of full fine-tuning, LoRA and QLoRA
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Per GPU, for Ψ model parameters and Φ trained parameters (ZeRO, Rajbhandari et
 * al. 2020; QLoRA, Dettmers et al. 2023; activations after Korthikanti et al. 2022,
 * with flash attention so that no attention score matrix is stored):
 *   weights    Ψ x bytes (NF4 for QLoRA's linear layers), / N with ZeRO-3 (FSDP)
 *   gradients  Φ x bytes, / N from ZeRO-2
 *   master     Φ x 4 (fp32 copy in mixed precision), / N from ZeRO-1
 *   optimizer  Φ x 8 (Adam fp32 m and v), x 2 (8-bit Adam) or x 4 (SGD momentum), / N
 *              from ZeRO-1
 *   activations per layer and token: 2h (norm inputs) + 2h + q + 2 kv + o (attention)
 *              + 3 i (gate, up, product) at the activation width, + fp32 softmax
 *              statistics; with checkpointing only each layer's input plus one layer;
 *              plus the logits (bf16, fp32 copy and fp32 gradient) — an estimate.
 *   overhead   CUDA context and allocator (0.75 GiB), + 0.5 GiB of NCCL buffers when
 *              N > 1 — an estimate.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "procura-fit.h"
#include "procura-fit-private.h"

void
procura_train_request_init (ProcuraTrainRequest *r)
{
  memset (r, 0, sizeof *r);
  r->method = PROCURA_TRAIN_FULL;
  r->optimizer = PROCURA_OPTIMIZER_ADAM;
  r->param_dtype = PROCURA_DTYPE_AUTO;
  r->master_weights = TRUE;
  r->zero_stage = 0;
  r->n_gpus = 1;
  r->checkpointing = FALSE;
  r->seq_len = 2048;
  r->micro_batch = 1;
  r->lora_rank = 16;
  r->lora_all_linear = TRUE;
  r->usable_memory_bytes = NAN;
}

static const char * const train_part_ids[PROCURA_TRAIN_N_PARTS] = {
  "weights", "adapters", "gradients", "master-weights", "optimizer", "activations",
  "overhead", "headroom",
};

/* LoRA adapter parameters: r x (in + out) for every adapted linear layer. */
static double
adapter_params (const ProcuraModelShape *m,
                int                      rank,
                gboolean                 all_linear)
{
  double h = m->hidden_size;
  double heads = m->num_attention_heads;
  double kv = m->num_kv_heads > 0 ? m->num_kv_heads : heads;
  double hd = procura_fit_head_dim (m);
  double attn, mlp_dense = 0, mlp_moe = 0;
  int moe_layers = m->num_experts > 0 ? MAX (0, m->num_layers - MAX (0, m->first_dense_layers)) : 0;
  int dense_layers = m->num_layers - moe_layers;

  if (m->kv_lora_rank > 0)
    {
      double qk = m->qk_nope_head_dim + m->qk_rope_head_dim;
      double v = m->v_head_dim > 0 ? m->v_head_dim : m->qk_nope_head_dim;

      attn = (h + heads * qk)                                   /* q_proj */
             + (h + m->kv_lora_rank + m->qk_rope_head_dim)      /* kv_a */
             + (m->kv_lora_rank + heads * (m->qk_nope_head_dim + v)) /* kv_b */
             + (heads * v + h);                                 /* o_proj */
    }
  else
    attn = (h + heads * hd) + 2.0 * (h + kv * hd) + (heads * hd + h);
  if (all_linear)
    {
      double ei = m->moe_intermediate_size > 0 ? m->moe_intermediate_size : m->intermediate_size;

      mlp_dense = 3.0 * (h + m->intermediate_size);
      /* MoE: the shared experts are plain linear layers; routed experts are fused
       * tensors that PEFT's all-linear does not adapt */
      mlp_moe = m->num_shared_experts * 3.0 * (h + ei);
    }
  return rank * (m->num_layers * attn + dense_layers * mlp_dense + moe_layers * mlp_moe);
}

static double
activation_bytes (const ProcuraModelShape *m,
                  const ProcuraTrainRequest *r,
                  double                   ab)
{
  double h = m->hidden_size;
  double heads = m->num_attention_heads;
  double kv = m->num_kv_heads > 0 ? m->num_kv_heads : heads;
  double hd = procura_fit_head_dim (m);
  double q = heads * hd, kvd = kv * hd, inter, per_token_layer, tokens, layers_part, logits;
  int moe_layers = m->num_experts > 0 ? MAX (0, m->num_layers - MAX (0, m->first_dense_layers)) : 0;

  if (m->kv_lora_rank > 0)
    {
      q = heads * (m->qk_nope_head_dim + m->qk_rope_head_dim);
      kvd = heads * (m->qk_nope_head_dim + m->qk_rope_head_dim) / 2.0
            + heads * (m->v_head_dim > 0 ? m->v_head_dim : m->qk_nope_head_dim) / 2.0;
    }
  inter = m->intermediate_size;
  if (moe_layers > 0)
    {
      double ei = m->moe_intermediate_size > 0 ? m->moe_intermediate_size : m->intermediate_size;
      double moe_inter = ei * (MAX (1, m->experts_per_token) + m->num_shared_experts);

      inter = (inter * (m->num_layers - moe_layers) + moe_inter * moe_layers) / m->num_layers;
    }
  per_token_layer = ab * (4.0 * h + 2.0 * q + 2.0 * kvd + 3.0 * inter) + 4.0 * heads;
  tokens = (double) r->seq_len * r->micro_batch;
  if (r->checkpointing)
    layers_part = tokens * (m->num_layers * h * ab + per_token_layer);
  else
    layers_part = tokens * m->num_layers * per_token_layer;
  logits = tokens * m->vocab_size * (ab + 4.0 + 4.0);
  return layers_part + logits + tokens * h * ab;   /* + the embedding output */
}

gboolean
procura_fit_training (const ProcuraTrainRequest *r,
                      ProcuraTrainResult        *res,
                      GError                   **error)
{
  const ProcuraModelShape *m;
  ProcuraFitTensors t;
  ProcuraDtype pd;
  double pb, psi, phi, n, opt_per_param, linear_params, largest = -1;
  int zero;

  g_return_val_if_fail (r != NULL && res != NULL, FALSE);
  memset (res, 0, sizeof *res);
  m = r->model;
  if (m == NULL || m->num_layers <= 0 || m->hidden_size <= 0 || m->vocab_size <= 0
      || m->num_attention_heads <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("training fit: the model shape is missing or lacks layers, hidden size, "
                     "heads or vocabulary"));
      return FALSE;
    }
  if (r->zero_stage < 0 || r->zero_stage > 3)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("training fit: ZeRO stage %d is not 0, 1, 2 or 3"), r->zero_stage);
      return FALSE;
    }
  if (r->n_gpus < 1 || r->seq_len < 1 || r->micro_batch < 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("training fit: GPUs (%d), sequence length (%lld) and micro-batch (%d) must be at least 1"),
                   r->n_gpus, (long long) r->seq_len, r->micro_batch);
      return FALSE;
    }
  if (r->method != PROCURA_TRAIN_FULL && r->lora_rank < 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("training fit: LoRA rank %d must be at least 1"), r->lora_rank);
      return FALSE;
    }
  if (!(r->usable_memory_bytes > 0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("training fit: usable GPU memory is not known (expected a positive "
                     "number of bytes)"));
      return FALSE;
    }

  pd = r->param_dtype == PROCURA_DTYPE_AUTO ? PROCURA_DTYPE_BF16 : r->param_dtype;
  if (pd != PROCURA_DTYPE_FP32 && pd != PROCURA_DTYPE_BF16 && pd != PROCURA_DTYPE_FP16)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("training fit: parameter dtype %s is not fp32, bf16 or fp16 "
                     "(QLoRA's NF4 base is chosen by the method)"), procura_dtype_to_string (pd));
      return FALSE;
    }
  pb = procura_dtype_bytes (pd, 0);
  n = r->n_gpus;
  zero = r->zero_stage;

  procura_fit_tensors (m, &t);
  psi = procura_fit_param_count (m);
  res->params_total = psi;
  linear_params = psi - t.embedding - t.lm_head - t.final_norm
                  - m->num_layers * (t.layer_norms + t.attn_bias) - t.moe_layers * t.router;

  if (r->method == PROCURA_TRAIN_FULL)
    {
      phi = psi;
      res->weights_bytes = psi * pb;
    }
  else
    {
      res->adapter_params = adapter_params (m, r->lora_rank, r->lora_all_linear);
      phi = res->adapter_params;
      if (r->method == PROCURA_TRAIN_QLORA)
        res->weights_bytes = linear_params * procura_dtype_bytes (PROCURA_DTYPE_NF4, 0)
                             + (psi - linear_params) * pb;
      else
        res->weights_bytes = psi * pb;
      res->adapter_bytes = phi * pb;
    }
  res->trainable_params = phi;

  switch (r->optimizer)
    {
    case PROCURA_OPTIMIZER_ADAM_8BIT:
      opt_per_param = 2.0 + 2.0 * 4.0 / 2048.0;   /* two 8-bit moments + fp32 absmax per 2048 */
      break;
    case PROCURA_OPTIMIZER_SGD:
      opt_per_param = 4.0;
      break;
    case PROCURA_OPTIMIZER_ADAM:
    default:
      opt_per_param = 8.0;
      break;
    }

  res->gradient_bytes = phi * pb;
  res->master_bytes = (r->master_weights && pb < 4.0) ? phi * 4.0 : 0.0;
  res->optimizer_bytes = phi * opt_per_param;
  if (zero >= 1)
    {
      res->master_bytes /= n;
      res->optimizer_bytes /= n;
    }
  if (zero >= 2)
    res->gradient_bytes /= n;
  if (zero >= 3)
    {
      res->weights_bytes /= n;
      res->adapter_bytes /= n;
    }

  res->activation_bytes = activation_bytes (m, r, pb);
  res->overhead_bytes = 0.75 * PROCURA_GIB + (r->n_gpus > 1 ? 0.5 * PROCURA_GIB : 0.0);
  res->total_bytes = res->weights_bytes + res->adapter_bytes + res->gradient_bytes
                     + res->master_bytes + res->optimizer_bytes + res->activation_bytes
                     + res->overhead_bytes;
  res->headroom_bytes = r->usable_memory_bytes - res->total_bytes;
  res->fits = res->headroom_bytes >= 0;

  for (int i = 0; i < PROCURA_TRAIN_N_PARTS; i++)
    {
      res->parts[i].kind = i;
      res->parts[i].id = train_part_ids[i];
    }
  res->parts[PROCURA_TRAIN_PART_WEIGHTS].bytes = res->weights_bytes;
  res->parts[PROCURA_TRAIN_PART_ADAPTERS].bytes = res->adapter_bytes;
  res->parts[PROCURA_TRAIN_PART_GRADIENTS].bytes = res->gradient_bytes;
  res->parts[PROCURA_TRAIN_PART_MASTER].bytes = res->master_bytes;
  res->parts[PROCURA_TRAIN_PART_OPTIMIZER].bytes = res->optimizer_bytes;
  res->parts[PROCURA_TRAIN_PART_ACTIVATIONS].bytes = res->activation_bytes;
  res->parts[PROCURA_TRAIN_PART_ACTIVATIONS].estimate = TRUE;
  res->parts[PROCURA_TRAIN_PART_OVERHEAD].bytes = res->overhead_bytes;
  res->parts[PROCURA_TRAIN_PART_OVERHEAD].estimate = TRUE;
  res->parts[PROCURA_TRAIN_PART_HEADROOM].bytes = MAX (0.0, res->headroom_bytes);

  if (res->fits)
    {
      g_strlcpy (res->limit, "none", sizeof res->limit);
      g_snprintf (res->limit_text, sizeof res->limit_text,
                  _("fits: %.2f GiB of %.2f GiB per GPU"), res->total_bytes / PROCURA_GIB,
                  r->usable_memory_bytes / PROCURA_GIB);
    }
  else
    {
      int worst = 0;

      for (int i = 0; i < PROCURA_TRAIN_PART_HEADROOM; i++)
        if (res->parts[i].bytes > largest)
          {
            largest = res->parts[i].bytes;
            worst = i;
          }
      g_strlcpy (res->limit, train_part_ids[worst], sizeof res->limit);
      g_snprintf (res->limit_text, sizeof res->limit_text,
                  _("needs %.2f GiB per GPU, %.2f GiB more than the %.2f GiB usable; the "
                    "largest part is %s (%.2f GiB)"), res->total_bytes / PROCURA_GIB,
                  -res->headroom_bytes / PROCURA_GIB, r->usable_memory_bytes / PROCURA_GIB,
                  train_part_ids[worst], largest / PROCURA_GIB);
    }
  return TRUE;
}
