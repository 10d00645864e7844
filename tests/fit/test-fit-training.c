/* test-fit-training.c: training and fine-tuning memory, against hand-computed figures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "procura-fit.h"

#define GIB (1073741824.0)

static ProcuraModelShape *
llama (int layers,
       int hidden,
       int inter,
       int heads,
       int kv,
       int vocab)
{
  ProcuraModelShape *m = procura_model_shape_new ();

  m->id = g_strdup ("llama");
  m->architecture = g_strdup ("LlamaForCausalLM");
  m->num_layers = layers;
  m->hidden_size = hidden;
  m->intermediate_size = inter;
  m->num_attention_heads = heads;
  m->num_kv_heads = kv;
  m->head_dim = hidden / heads;
  m->vocab_size = vocab;
  return m;
}

static void
test_zero_stages (void)
{
  g_autoptr (ProcuraModelShape) m = llama (32, 4096, 14336, 32, 8, 128256);
  ProcuraTrainRequest r;
  ProcuraTrainResult res;
  const double psi = 8030261248.0;   /* see test-fit.c */
  double states;

  procura_train_request_init (&r);
  r.model = m;
  r.usable_memory_bytes = 80 * GIB;
  r.n_gpus = 64;

  /* ZeRO (Rajbhandari et al. 2020, figure 1), mixed-precision Adam: 2 + 2 + K bytes per
   * parameter with K = 12 (fp32 master, m, v); N = 64 GPUs */
  r.zero_stage = 0;
  g_assert_true (procura_fit_training (&r, &res, NULL));
  g_assert_cmpfloat (res.params_total, ==, psi);
  states = res.weights_bytes + res.gradient_bytes + res.master_bytes + res.optimizer_bytes;
  g_assert_cmpfloat (states, ==, 16.0 * psi);
  g_assert_false (res.fits);   /* 16 x 8.03 B = 119.7 GiB on an 80 GiB card */

  r.zero_stage = 1;   /* P_os: 2Ψ + 2Ψ + 12Ψ / N */
  g_assert_true (procura_fit_training (&r, &res, NULL));
  states = res.weights_bytes + res.gradient_bytes + res.master_bytes + res.optimizer_bytes;
  g_assert_cmpfloat_with_epsilon (states, 4.0 * psi + 12.0 * psi / 64, 1.0);

  r.zero_stage = 2;   /* P_os+g: 2Ψ + 14Ψ / N */
  g_assert_true (procura_fit_training (&r, &res, NULL));
  states = res.weights_bytes + res.gradient_bytes + res.master_bytes + res.optimizer_bytes;
  g_assert_cmpfloat_with_epsilon (states, 2.0 * psi + 14.0 * psi / 64, 1.0);

  r.zero_stage = 3;   /* P_os+g+p: 16Ψ / N */
  g_assert_true (procura_fit_training (&r, &res, NULL));
  states = res.weights_bytes + res.gradient_bytes + res.master_bytes + res.optimizer_bytes;
  g_assert_cmpfloat_with_epsilon (states, 16.0 * psi / 64, 1.0);

  /* 8-bit Adam: two 1-byte moments + an fp32 absmax per 2048 values each */
  r.zero_stage = 0;
  r.n_gpus = 1;
  r.optimizer = PROCURA_OPTIMIZER_ADAM_8BIT;
  g_assert_true (procura_fit_training (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (res.optimizer_bytes, psi * (2.0 + 8.0 / 2048.0), 1.0);
  g_assert_cmpfloat (res.master_bytes, ==, 4.0 * psi);
}

static void
test_activations (void)
{
  g_autoptr (ProcuraModelShape) m = llama (32, 4096, 14336, 32, 8, 128256);
  ProcuraTrainRequest r;
  ProcuraTrainResult res;

  procura_train_request_init (&r);
  r.model = m;
  r.usable_memory_bytes = 80 * GIB;
  r.seq_len = 2048;
  r.micro_batch = 1;
  /* per layer and token, bf16: 2 x (4h + 2q + 2kv + 3i) + 4 x heads
   * = 2 x (16,384 + 8,192 + 2,048 + 43,008) + 128 = 139,392 bytes; x 2048 x 32 layers
   * = 9,135,194,112; logits 2048 x 128,256 x 10 = 2,626,682,880; embedding output
   * 2048 x 4096 x 2 = 16,777,216: 11,778,654,208 bytes */
  g_assert_true (procura_fit_training (&r, &res, NULL));
  g_assert_cmpfloat (res.activation_bytes, ==, 11778654208.0);
  g_assert_true (res.parts[PROCURA_TRAIN_PART_ACTIVATIONS].estimate);

  /* checkpointing keeps each layer's input (2048 x 32 x 4096 x 2 = 536,870,912) and one
   * layer's activations (2048 x 139,392 = 285,474,816) */
  r.checkpointing = TRUE;
  g_assert_true (procura_fit_training (&r, &res, NULL));
  g_assert_cmpfloat (res.activation_bytes, ==, 536870912.0 + 285474816.0 + 2626682880.0 + 16777216.0);

  /* twice the micro-batch, twice the activations */
  r.micro_batch = 2;
  g_assert_true (procura_fit_training (&r, &res, NULL));
  g_assert_cmpfloat (res.activation_bytes, ==, 2.0 * (536870912.0 + 285474816.0 + 2626682880.0 + 16777216.0));
}

static void
test_lora (void)
{
  g_autoptr (ProcuraModelShape) m = llama (32, 4096, 14336, 32, 8, 128256);
  ProcuraTrainRequest r;
  ProcuraTrainResult res;

  procura_train_request_init (&r);
  r.model = m;
  r.method = PROCURA_TRAIN_LORA;
  r.lora_rank = 16;
  r.usable_memory_bytes = 80 * GIB;
  /* PEFT's count for Llama-3-8B, r = 16 on every linear layer: per layer
   * 16 x [(4096 + 4096) x 2 (q, o) + (4096 + 1024) x 2 (k, v) + (4096 + 14336) x 3]
   * = 1,310,720; x 32 = 41,943,040 trainable parameters */
  g_assert_true (procura_fit_training (&r, &res, NULL));
  g_assert_cmpfloat (res.adapter_params, ==, 41943040.0);
  g_assert_cmpfloat (res.trainable_params, ==, 41943040.0);
  g_assert_cmpfloat (res.weights_bytes, ==, 2.0 * 8030261248.0);   /* frozen base, bf16 */
  g_assert_cmpfloat (res.adapter_bytes, ==, 2.0 * 41943040.0);
  g_assert_cmpfloat (res.gradient_bytes, ==, 2.0 * 41943040.0);
  g_assert_cmpfloat (res.master_bytes, ==, 4.0 * 41943040.0);
  g_assert_cmpfloat (res.optimizer_bytes, ==, 8.0 * 41943040.0);
  g_assert_true (res.fits);

  /* q, k, v, o only: 16 x (8192 x 2 + 5120 x 2) x 32 = 13,631,488 */
  r.lora_all_linear = FALSE;
  g_assert_true (procura_fit_training (&r, &res, NULL));
  g_assert_cmpfloat (res.adapter_params, ==, 13631488.0);
}

static void
test_qlora (void)
{
  /* Llama-65B (QLoRA's headline: a 65B model fine-tuned on one 48 GB GPU): 80 layers,
   * hidden 8192, MLP 22016, 64 heads (no GQA), vocab 32000 */
  g_autoptr (ProcuraModelShape) m = llama (80, 8192, 22016, 64, 64, 32000);
  ProcuraTrainRequest r;
  ProcuraTrainResult res;
  /* linear: 80 x (4 x 8192^2 + 3 x 8192 x 22016) = 64,760,053,760 params at NF4
   * (0.5 + 1/64 + 4/16384 = 0.515869140625 bytes); embeddings, LM head and norms:
   * 2 x 32000 x 8192 + 80 x 16384 + 8192 = 525,606,912 params at 2 bytes */
  const double weights = 64760053760.0 * 0.515869140625 + 525606912.0 * 2.0;

  procura_train_request_init (&r);
  r.model = m;
  r.method = PROCURA_TRAIN_QLORA;
  r.optimizer = PROCURA_OPTIMIZER_ADAM_8BIT;
  r.lora_rank = 16;
  r.checkpointing = TRUE;
  r.seq_len = 512;
  r.micro_batch = 1;
  r.usable_memory_bytes = 47.99 * GIB;   /* a 48 GB card as the driver reports it */
  g_assert_true (procura_fit_training (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (res.weights_bytes, weights, 1.0);
  g_assert_true (res.fits);
  g_assert_cmpstr (res.limit, ==, "none");

  /* plain LoRA keeps the bf16 base: 130 GB does not fit, and the weights break it */
  r.method = PROCURA_TRAIN_LORA;
  g_assert_true (procura_fit_training (&r, &res, NULL));
  g_assert_false (res.fits);
  g_assert_cmpstr (res.limit, ==, "weights");

  /* FSDP / ZeRO-3 over 4 GPUs shards the bf16 base too: 32.8 GB each, which fits */
  r.zero_stage = 3;
  r.n_gpus = 4;
  g_assert_true (procura_fit_training (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (res.weights_bytes, 2.0 * (64760053760.0 + 525606912.0) / 4, 1.0);
  g_assert_true (res.fits);
}

static void
test_bad (void)
{
  g_autoptr (ProcuraModelShape) m = llama (32, 4096, 14336, 32, 8, 128256);
  ProcuraTrainRequest r;
  ProcuraTrainResult res;
  GError *error = NULL;

  procura_train_request_init (&r);
  r.model = m;
  r.usable_memory_bytes = 80 * GIB;
  r.zero_stage = 4;
  g_assert_false (procura_fit_training (&r, &res, &error));
  g_assert_nonnull (strstr (error->message, "ZeRO stage 4"));
  g_clear_error (&error);
  r.zero_stage = 0;
  r.micro_batch = 0;
  g_assert_false (procura_fit_training (&r, &res, &error));
  g_assert_nonnull (strstr (error->message, "micro-batch"));
  g_clear_error (&error);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fit/training/zero-stages", test_zero_stages);
  g_test_add_func ("/fit/training/activations", test_activations);
  g_test_add_func ("/fit/training/lora", test_lora);
  g_test_add_func ("/fit/training/qlora", test_qlora);
  g_test_add_func ("/fit/training/bad", test_bad);
  return g_test_run ();
}
