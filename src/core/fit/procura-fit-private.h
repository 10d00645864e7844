/* procura-fit-private.h: internals shared by the fit sources
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "procura-fit.h"

G_BEGIN_DECLS

/* Whole-model parameter counts by kind (per decoder layer where it says so). */
typedef struct {
  double embedding;        /* vocab x hidden */
  double lm_head;          /* 0 when tied */
  double final_norm;
  double attn_split;       /* per layer: q and o (MLA: q_b or q, kv_b, o), split by TP */
  double attn_kv;          /* per layer: k and v, split by TP down to one head */
  double attn_replicated;  /* per layer: MLA q_a and kv_a with their norms */
  double attn_bias;        /* per layer: q, k, v biases (Qwen2, gpt-oss) */
  double layer_norms;      /* per layer */
  double dense_mlp;        /* per dense layer: gate, up, down */
  double experts;          /* per MoE layer: every routed expert */
  double shared_experts;   /* per MoE layer */
  double router;           /* per MoE layer */
  int    dense_layers;
  int    moe_layers;
} ProcuraFitTensors;

void   procura_fit_tensors (const ProcuraModelShape *m,
                            ProcuraFitTensors       *t);
int    procura_fit_head_dim (const ProcuraModelShape *m);
double procura_fit_estimate_activations (const ProcuraModelShape *m,
                                         gint64                   chunk,
                                         int                      max_num_seqs,
                                         double                   act_bytes,
                                         int                      tp);

G_END_DECLS
