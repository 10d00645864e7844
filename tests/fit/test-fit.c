/* test-fit.c: the serving memory fit, against hand-computed figures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shapes are typed in from the models' public config.json files; every expected figure
 * below was worked out by hand (the arithmetic is in the comments).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "procura-fit.h"
#include "procura-import.h"
#include "procura-model-catalog.h"
#include "procura-store.h"
#include "procura-test-util.h"

#define GIB (1073741824.0)

static ProcuraModelShape *
shape_dense (const char *id,
             int         layers,
             int         hidden,
             int         inter,
             int         heads,
             int         kv,
             int         head_dim,
             int         vocab,
             gboolean    tied)
{
  ProcuraModelShape *m = procura_model_shape_new ();

  m->id = g_strdup (id);
  m->architecture = g_strdup ("LlamaForCausalLM");
  m->num_layers = layers;
  m->hidden_size = hidden;
  m->intermediate_size = inter;
  m->num_attention_heads = heads;
  m->num_kv_heads = kv;
  m->head_dim = head_dim;
  m->vocab_size = vocab;
  m->tie_word_embeddings = tied;
  return m;
}

static ProcuraModelShape *
llama_8b (void)
{
  return shape_dense ("meta-llama/Llama-3.1-8B", 32, 4096, 14336, 32, 8, 128, 128256, FALSE);
}

static void
request_for (ProcuraFitRequest       *r,
             const ProcuraModelShape *m,
             double                   usable_gib)
{
  procura_fit_request_init (r);
  r->model = m;
  r->usable_memory_bytes = usable_gib * GIB;
}

static void
test_dtypes (void)
{
  ProcuraDtype d;

  g_assert_true (procura_dtype_parse ("BF16", &d));
  g_assert_cmpint (d, ==, PROCURA_DTYPE_BF16);
  g_assert_true (procura_dtype_parse ("float16", &d));
  g_assert_cmpint (d, ==, PROCURA_DTYPE_FP16);
  g_assert_true (procura_dtype_parse ("awq", &d));
  g_assert_cmpint (d, ==, PROCURA_DTYPE_INT4);
  g_assert_false (procura_dtype_parse ("int3", &d));
  g_assert_false (procura_dtype_parse (NULL, &d));
  g_assert_cmpfloat (procura_dtype_bytes (PROCURA_DTYPE_FP32, 0), ==, 4.0);
  g_assert_cmpfloat (procura_dtype_bytes (PROCURA_DTYPE_FP8, 0), ==, 1.0);
  /* int4: half a byte + a 2-byte scale per group: 0.5 + 2/128 = 0.515625 */
  g_assert_cmpfloat (procura_dtype_bytes (PROCURA_DTYPE_INT4, 128), ==, 0.515625);
  g_assert_cmpfloat (procura_dtype_bytes (PROCURA_DTYPE_INT4, 32), ==, 0.5625);
  /* mxfp4: 0.5 + 1/32 */
  g_assert_cmpfloat (procura_dtype_bytes (PROCURA_DTYPE_MXFP4, 0), ==, 0.53125);
  g_assert_cmpstr (procura_dtype_to_string (PROCURA_DTYPE_MXFP4), ==, "mxfp4");
}

static void
test_param_count (void)
{
  g_autoptr (ProcuraModelShape) m = llama_8b ();
  g_autoptr (ProcuraModelShape) tied = llama_8b ();

  /* embed + lm_head 2 x 128256 x 4096 = 1,050,673,152; per layer q,o 2 x 4096^2 =
   * 33,554,432, k,v 2 x 4096 x 1024 = 8,388,608, MLP 3 x 4096 x 14336 = 176,160,768,
   * norms 8192: 218,112,000 x 32 = 6,979,584,000; final norm 4096.
   * Total 8,030,261,248 (the published 8.03 B). */
  g_assert_cmpfloat (procura_fit_param_count (m), ==, 8030261248.0);
  tied->tie_word_embeddings = TRUE;
  g_assert_cmpfloat (procura_fit_param_count (tied), ==, 8030261248.0 - 525336576.0);
}

static void
test_weights_tp_pp (void)
{
  g_autoptr (ProcuraModelShape) m = llama_8b ();
  ProcuraFitRequest r;
  ProcuraFitResult res;
  g_autoptr (GError) error = NULL;

  request_for (&r, m, 80);
  g_assert_true (procura_fit_compute (&r, &res, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (res.weights_bytes, ==, 2.0 * 8030261248.0);
  g_assert_cmpfloat (res.weights_total_bytes, ==, 2.0 * 8030261248.0);
  g_assert_cmpint (res.layers_per_gpu, ==, 32);

  /* TP 2: everything but the norms is split: (8,030,261,248 - 266,240) / 2 + 266,240
   * (32 x 8192 + 4096 norm weights) = 4,015,263,744 params = 8,030,527,488 bytes */
  r.tp = 2;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat (res.weights_bytes, ==, 8030527488.0);

  /* PP 3 over 32 layers: vLLM gives [10 + 1, 10 + 1, 10] layers; the heavier of stage 0
   * (11 layers + embeddings) and stage 2 (10 layers + LM head + norm) is stage 0:
   * 11 x 218,112,000 + 525,336,576 = 2,924,568,576 params, x 2 bytes */
  r.tp = 1;
  r.pp = 3;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpint (res.layers_per_gpu, ==, 11);
  g_assert_cmpfloat (res.weights_bytes, ==, 2.0 * 2924568576.0);
  g_assert_cmpint (res.gpus, ==, 3);
}

static void
test_weights_quantised (void)
{
  g_autoptr (ProcuraModelShape) m = llama_8b ();
  ProcuraFitRequest r;
  ProcuraFitResult res;

  request_for (&r, m, 80);
  /* fp8: linear layers 32 x (33,554,432 + 8,388,608 + 176,160,768) = 6,979,321,856
   * params at 1 byte; embeddings, LM head and norms (1,050,939,392) at 2 bytes:
   * 6,979,321,856 + 2,101,878,784 = 9,081,200,640 */
  r.weights_dtype = PROCURA_DTYPE_FP8;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat (res.weights_bytes, ==, 9081200640.0);

  /* int4, group 128: 6,979,321,856 x 0.515625 = 3,598,712,832 + 2,101,878,784 */
  r.weights_dtype = PROCURA_DTYPE_INT4;
  r.quant_group_size = 128;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat (res.weights_bytes, ==, 3598712832.0 + 2101878784.0);

  /* fp32 doubles everything, and the KV cache follows the activation dtype (4 bytes) */
  r.weights_dtype = PROCURA_DTYPE_FP32;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat (res.weights_bytes, ==, 4.0 * 8030261248.0);
  g_assert_cmpfloat (res.kv_bytes_per_token, ==, 262144.0);
}

static void
test_weights_moe_mxfp4 (void)
{
  /* gpt-oss-20b-like: 24 layers, hidden 2880, 32 experts of 2880, 64 heads, 8 KV heads
   * of 64, vocab 201088, untied. */
  g_autoptr (ProcuraModelShape) m = shape_dense ("gpt-oss", 24, 2880, 2880, 64, 8, 64, 201088, FALSE);
  ProcuraFitRequest r;
  ProcuraFitResult res;
  double attn, experts, router, embed;

  m->num_experts = 32;
  m->experts_per_token = 4;
  m->moe_intermediate_size = 2880;
  g_free (m->architecture);
  m->architecture = g_strdup ("MixtralForCausalLM");
  m->weights_dtype = g_strdup ("mxfp4");
  request_for (&r, m, 80);
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  /* per layer: attention q,o 2 x 2880 x 4096 = 23,592,960, k,v 2 x 2880 x 512 = 2,949,120
   * in bf16; experts as vLLM's MXFP4 kernels pad them (hidden 2880 -> 3072, the
   * intermediate 2880 -> 2944): 32 x 3 x 3072 x 2944 = 868,220,928 at 0.53125; router
   * 2880 x 32 and norms 5760 in bf16; embeddings 2 x 201088 x 2880 + final norm 2880 */
  attn = (23592960.0 + 2949120.0) * 2.0;
  experts = 868220928.0 * 0.53125;
  router = (92160.0 + 5760.0) * 2.0;
  embed = (2.0 * 201088.0 * 2880.0 + 2880.0) * 2.0;
  g_assert_cmpfloat_with_epsilon (res.weights_bytes, 24.0 * (attn + experts + router) + embed, 1.0);
  g_assert_cmpfloat (res.moe_layer_bytes, ==, attn + experts + router);
}

static void
test_kv_per_token (void)
{
  g_autoptr (ProcuraModelShape) llama = llama_8b ();
  g_autoptr (ProcuraModelShape) qwen = shape_dense ("Qwen2-7B", 28, 3584, 18944, 28, 4, 128, 152064, FALSE);
  g_autoptr (ProcuraModelShape) dsv2 = procura_model_shape_new ();

  /* MEMORY-FIT.md: Llama-3.1-8B 131,072 bytes/token bf16 = 2 x 32 x 8 x 128 x 2 */
  g_assert_cmpfloat (procura_fit_kv_bytes_per_token_layer (llama, 1, PROCURA_DTYPE_BF16) * 32, ==, 131072.0);
  g_assert_cmpfloat (procura_fit_kv_bytes_per_token_layer (llama, 1, PROCURA_DTYPE_FP8) * 32, ==, 65536.0);
  /* GQA: 8 KV heads over TP 8 = 1 head; TP 16 replicates: still 1 head per GPU */
  g_assert_cmpfloat (procura_fit_kv_bytes_per_token_layer (llama, 8, PROCURA_DTYPE_BF16) * 32, ==, 16384.0);
  g_assert_cmpfloat (procura_fit_kv_bytes_per_token_layer (llama, 16, PROCURA_DTYPE_BF16) * 32, ==, 16384.0);
  /* Qwen2-7B: 2 x 28 x 4 x 128 x 2 = 57,344; TP 2: 28,672 */
  g_assert_cmpfloat (procura_fit_kv_bytes_per_token_layer (qwen, 1, PROCURA_DTYPE_BF16) * 28, ==, 57344.0);
  g_assert_cmpfloat (procura_fit_kv_bytes_per_token_layer (qwen, 2, PROCURA_DTYPE_BF16) * 28, ==, 28672.0);

  /* DeepSeek-V2-Lite MLA: 27 x (512 + 64) x 2 = 31,104, the same at any TP */
  dsv2->num_layers = 27;
  dsv2->kv_lora_rank = 512;
  dsv2->qk_rope_head_dim = 64;
  dsv2->num_attention_heads = 16;
  dsv2->num_kv_heads = 16;
  g_assert_cmpfloat (procura_fit_kv_bytes_per_token_layer (dsv2, 1, PROCURA_DTYPE_BF16) * 27, ==, 31104.0);
  g_assert_cmpfloat (procura_fit_kv_bytes_per_token_layer (dsv2, 4, PROCURA_DTYPE_BF16) * 27, ==, 31104.0);
}

static void
test_budget_and_blocks (void)
{
  g_autoptr (ProcuraModelShape) m = llama_8b ();
  ProcuraFitRequest r;
  ProcuraFitResult res;

  request_for (&r, m, 80);
  r.gpu_memory_utilization = 0.90;
  r.activation_bytes = 2 * GIB;
  r.non_torch_bytes = 0.25 * GIB;
  r.cuda_graph_bytes = 1 * GIB;
  r.context_tokens = 8192;
  r.concurrency = 10;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  /* pool = 80 GiB x 0.9 - 16,060,522,496 - 3.25 GiB = 57,759,227,904 bytes;
   * blocks = floor(pool / (131,072 x 16)) = 27,541; tokens = 440,656 */
  g_assert_cmpfloat (res.kv_pool_bytes, ==, 57759227904.0);
  g_assert_cmpint (res.kv_blocks, ==, 27541);
  g_assert_cmpint (res.kv_tokens, ==, 440656);
  /* 27,541 / 512 blocks per 8192-token sequence = 53.79 */
  g_assert_cmpfloat_with_epsilon (res.max_concurrency, 53.791015625, 1e-9);
  g_assert_cmpint (res.max_concurrency_int, ==, 53);
  /* longest context for 10 sequences: floor(27,541 / 10) = 2754 blocks = 44,064 tokens */
  g_assert_cmpint (res.max_context, ==, 44064);
  g_assert_true (res.fits);
  g_assert_cmpint (res.limit, ==, PROCURA_FIT_LIMIT_NONE);
  /* only the CUDA context is estimated here; headroom = 80 GiB - all parts
   * (0.51 GiB context) = 8,042,326,261.76 bytes */
  g_assert_cmpfloat_with_epsilon (res.headroom_bytes, 8042326261.76, 1.0);
  g_assert_cmpuint (res.estimates & PROCURA_FIT_ESTIMATE_ACTIVATIONS, ==, 0);
  g_assert_cmpfloat (res.parts[PROCURA_FIT_PART_WEIGHTS].bytes, ==, 16060522496.0);
  /* KV needed: 10 x 512 blocks x 2 MiB = 10 GiB, the rest of the pool is spare */
  g_assert_cmpfloat (res.parts[PROCURA_FIT_PART_KV_CACHE].bytes, ==, 10 * GIB);
  g_assert_cmpfloat (res.parts[PROCURA_FIT_PART_KV_SPARE].bytes, ==, 57759227904.0 - 10 * GIB);
  g_assert_cmpstr (res.parts[PROCURA_FIT_PART_HEADROOM].id, ==, "headroom");

  /* CUDA graphs outside the budget (vLLM <= 0.19): 1 GiB more pool, 512 more blocks */
  r.cuda_graphs_in_budget = FALSE;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpint (res.kv_blocks, ==, 27541 + 512);

  /* 60 sequences of 8192 need 30,720 blocks > 27,541 + 512: the KV cache breaks it */
  r.concurrency = 60;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_false (res.fits);
  g_assert_cmpint (res.limit, ==, PROCURA_FIT_LIMIT_KV_CACHE);
  g_assert_cmpstr (procura_fit_limit_to_string (res.limit), ==, "kv-cache");

  /* one sequence of 500,000 tokens needs 31,250 blocks: the context breaks it */
  r.concurrency = 1;
  r.context_tokens = 500000;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpint (res.limit, ==, PROCURA_FIT_LIMIT_CONTEXT);
}

static void
test_given_pool (void)
{
  g_autoptr (ProcuraModelShape) m = llama_8b ();
  ProcuraFitRequest r;
  ProcuraFitResult res;

  /* the engine's own pool (vLLM 0.19 on H100: 58.11 GiB): 58.11 x 2^30 / 2 MiB =
   * 29,752.2 blocks -> 476,032 tokens (the log says 476,016 from the unrounded pool) */
  request_for (&r, m, 79.19);
  r.kv_pool_bytes = 58.11 * GIB;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpint (res.kv_tokens, ==, 476032);
  g_assert_cmpuint (res.estimates & PROCURA_FIT_ESTIMATE_KV_POOL, ==, 0);

  /* a pool larger than the card leaves negative headroom */
  r.kv_pool_bytes = 70 * GIB;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_false (res.fits);
  g_assert_cmpint (res.limit, ==, PROCURA_FIT_LIMIT_HEADROOM);
  g_assert_cmpfloat (res.parts[PROCURA_FIT_PART_HEADROOM].bytes, ==, 0.0);
}

static void
test_weights_limit_and_smallest_tp (void)
{
  /* Llama-3.1-70B: 80 layers, hidden 8192, MLP 28672, 64 heads, 8 KV heads:
   * 70,553,706,496 params = 131.42 GiB in bf16 */
  g_autoptr (ProcuraModelShape) m = shape_dense ("Llama-3.1-70B", 80, 8192, 28672, 64, 8, 128, 128256, FALSE);
  ProcuraFitRequest r;
  ProcuraFitResult res;
  int tp;

  g_assert_cmpfloat (procura_fit_param_count (m), ==, 70553706496.0);
  request_for (&r, m, 79.19);
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_false (res.fits);
  g_assert_cmpint (res.limit, ==, PROCURA_FIT_LIMIT_WEIGHTS);
  g_assert_nonnull (strstr (res.limit_text, "weights"));

  /* TP 2: 65.7 GiB of weights per GPU + ~2.4 GiB activations + 2.1 GiB non-torch
   * + 1.58 GiB graphs > 71.27 GiB budget; TP 4 (32.9 GiB) fits */
  r.context_tokens = 8192;
  r.concurrency = 4;
  tp = procura_fit_smallest_tp (&r, 79.19 * GIB, &res);
  g_assert_cmpint (tp, ==, 4);
  g_assert_true (res.fits);
  g_assert_cmpint (res.tp, ==, 4);
  /* on a 24 GiB card not even TP 8 (16.4 GiB of weights each + overheads) holds 4
   * sequences? 24 x 0.9 = 21.6 - 16.4 - 2.4 - 2.1 - 1.58 < 0: none fits */
  g_assert_cmpint (procura_fit_smallest_tp (&r, 24 * GIB, &res), ==, -1);
}

static void
test_parallelism (void)
{
  g_autoptr (ProcuraModelShape) qwen = shape_dense ("Qwen2-7B", 28, 3584, 18944, 28, 4, 128, 152064, FALSE);
  ProcuraFitRequest r;
  ProcuraFitResult res;

  request_for (&r, qwen, 79.19);
  r.tp = 8;   /* 28 heads are not divisible by 8 */
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_false (res.fits);
  g_assert_cmpint (res.limit, ==, PROCURA_FIT_LIMIT_PARALLELISM);
  r.tp = 4;   /* 28 / 4 = 7 heads, 4 KV heads: one each */
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_true (res.fits);
  g_assert_cmpfloat (res.kv_bytes_per_token, ==, 2.0 * 28 * 1 * 128 * 2);
}

static void
test_hybrid_rule (void)
{
  /* gpt-oss-20b at TP 2 with vLLM's pool of 59.32 GiB (llm-d-planner v0.19 log:
   * 2,591,776 tokens, 316.07x at 8,192): layers alternate sliding (window 128) and
   * full; 4 KV heads of 64 per GPU: 1,024 bytes per token per layer, 16 KiB per page.
   * Two groups of 12 layers: blocks = floor(59.32 GiB / (16 KiB x 12)) = 323,966;
   * tokens = 323,966 // 2 x 16 = 2,591,728; per sequence 512 + (8192/16 + 1) = 1,025
   * blocks: 316.06x */
  g_autoptr (ProcuraModelShape) m = shape_dense ("gpt-oss-20b", 24, 2880, 2880, 64, 8, 64, 201088, FALSE);
  ProcuraFitRequest r;
  ProcuraFitResult res;

  m->sliding_window = 128;
  m->layer_is_sliding = g_new0 (guint8, 24);
  for (int i = 0; i < 24; i += 2)
    m->layer_is_sliding[i] = 1;
  request_for (&r, m, 79.19);
  r.tp = 2;
  r.kv_pool_bytes = 59.32 * GIB;
  r.context_tokens = 8192;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpint (res.kv_rule, ==, PROCURA_KV_RULE_VLLM_HYBRID);
  g_assert_cmpint (res.kv_blocks, ==, 323966);
  g_assert_cmpint (res.kv_tokens, ==, 2591728);
  g_assert_cmpfloat_with_epsilon (res.max_concurrency, 323966.0 / 1025.0, 1e-9);
  g_assert_cmpstr (res.caveat, !=, "");
  g_assert_nonnull (strstr (res.caveat, "sliding"));

  /* with a 2,048-token chunk at 16,384 (the v0.10 A100 gpt-oss-120b log's settings) a
   * sliding group holds min(127 + 2048, 16384) = 2,175 tokens: 136 + 1 = 137 blocks,
   * so a sequence needs 1024 + 137 = 1,161 blocks */
  r.max_num_batched_tokens = 2048;
  r.context_tokens = 16384;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (res.max_concurrency, 323966.0 / 1161.0, 1e-9);

  /* counting every layer as full attention (--disable-sliding-window): one group of 24,
   * floor(59.32 GiB / (16 KiB x 24)) = 161,983 blocks = 2,591,728 tokens, and a
   * sequence needs 1,024 blocks */
  r.kv_rule = PROCURA_KV_RULE_ALL_FULL;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpint (res.kv_blocks, ==, 161983);
  g_assert_cmpint (res.kv_tokens, ==, 2591728);
  g_assert_cmpfloat_with_epsilon (res.max_concurrency, 161983.0 / 1024.0, 1e-9);
}

static void
test_sglang (void)
{
  /* Qwen2.5-3B (36 layers, 2 KV heads of 128): 36,864 bytes per token; SGLang's pool of
   * 79.02 GiB with page size 1 holds floor(79.02 x 2^30 / 36,864) = 2,301,676 tokens
   * (its server_info said 2,301,748 from the unrounded pool) */
  g_autoptr (ProcuraModelShape) m = shape_dense ("Qwen2.5-3B", 36, 2048, 11008, 16, 2, 128, 151936, TRUE);
  ProcuraFitRequest r;
  ProcuraFitResult res;

  request_for (&r, m, 95.0);
  r.engine = PROCURA_ENGINE_SGLANG;
  r.mem_fraction_static = 0.9;
  r.kv_pool_bytes = 79.02 * GIB;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpint (res.block_size, ==, 1);
  g_assert_cmpfloat (res.kv_bytes_per_token, ==, 36864.0);
  g_assert_cmpint (res.kv_tokens, ==, 2301624);

  /* its own budget: 95 GiB x 0.9 - weights - CUDA context (0.51 GiB estimate) */
  r.kv_pool_bytes = NAN;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (res.kv_pool_bytes,
                                  95.0 * GIB * 0.9 - res.weights_bytes - 0.51 * GIB, 1.0);
  g_assert_true (res.estimates & PROCURA_FIT_ESTIMATE_KV_POOL);
}

/* SGLang's hybrid SWA pools (model_runner.py set_num_token_hybrid, swa_full_tokens_ratio
 * 0.8 by default): gpt-oss-20b at TP 2, 12 full and 12 sliding (128-token) layers, 1,024
 * bytes per token and layer. A 59.32 GiB pool holds floor(59.32 GiB / 24 KiB) = 2,591,730
 * tokens in every layer; split: full = floor(2,591,730 x 24 / (0.8 x 12 + 12)) = 2,879,700
 * and swa = floor(0.8 x full) = 2,303,760. */
static void
test_sglang_swa (void)
{
  g_autoptr (ProcuraModelShape) m = shape_dense ("gpt-oss-20b", 24, 2880, 2880, 64, 8, 64, 201088, FALSE);
  ProcuraFitRequest r;
  ProcuraFitResult res, all_full;

  g_free (m->architecture);
  m->architecture = g_strdup ("GptOssForCausalLM");
  m->sliding_window = 128;
  m->layer_is_sliding = g_new0 (guint8, 24);
  for (int i = 0; i < 24; i += 2)
    m->layer_is_sliding[i] = 1;
  request_for (&r, m, 79.19);
  r.engine = PROCURA_ENGINE_SGLANG;
  r.tp = 2;
  r.kv_pool_bytes = 59.32 * GIB;
  r.context_tokens = 8192;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpint (res.kv_rule, ==, PROCURA_KV_RULE_SGLANG_SWA);
  g_assert_cmpint (res.kv_tokens, ==, 2879700);
  g_assert_cmpint (res.kv_swa_tokens, ==, 2303760);
  /* the two pools use the whole pool, up to rounding */
  g_assert_cmpfloat (fabs ((res.kv_tokens * 12.0 + res.kv_swa_tokens * 12.0) * 1024.0 - 59.32 * GIB),
                     <, 24.0 * 1024 * 2);
  /* a sequence: 8,192 tokens in the full pool, 128 in the sliding one: the full pool binds */
  g_assert_cmpfloat_with_epsilon (res.max_concurrency, 2879700.0 / 8192.0, 1e-9);
  g_assert_nonnull (strstr (res.caveat, "swa_full_tokens_ratio"));

  /* a smaller ratio moves tokens to the full pool */
  r.swa_full_tokens_ratio = 0.5;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpint (res.kv_tokens, ==, (gint64) floor (2591730.0 * 24 / (0.5 * 12 + 12)));
  g_assert_cmpint (res.kv_swa_tokens, ==, (gint64) floor (res.kv_tokens * 0.5));
  /* a tiny sliding pool binds instead: 518 sliding tokens hold 4 windows of 128 */
  r.swa_full_tokens_ratio = 0.0001;
  r.context_tokens = 1024;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (res.max_concurrency, res.kv_swa_tokens / 128.0, 1e-9);

  /* --disable-hybrid-swa-memory: one pool, every layer holds every token */
  r.swa_full_tokens_ratio = NAN;
  r.context_tokens = 8192;
  r.kv_rule = PROCURA_KV_RULE_ALL_FULL;
  g_assert_true (procura_fit_compute (&r, &all_full, NULL));
  g_assert_cmpint (all_full.kv_tokens, ==, 2591730);
  g_assert_cmpint (all_full.kv_swa_tokens, ==, 0);

  /* an architecture SGLang keeps in one pool (gemma-2/3 style): all full */
  g_free (m->architecture);
  m->architecture = g_strdup ("Gemma3ForConditionalGeneration");
  r.kv_rule = PROCURA_KV_RULE_AUTO;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpint (res.kv_rule, ==, PROCURA_KV_RULE_ALL_FULL);
  g_assert_cmpint (res.kv_tokens, ==, 2591730);
}

/* gemma-3-27b-it (catalog, with its vision_config): the SigLIP tower (27 layers of 1152,
 * MLP 4304, 4096 positions, 14 x 14 patches) and the 1152 x 5376 projector, 423 M
 * parameters; vLLM's profiling run holds 8192 / 256 = 32 dummy 896 x 896 images and
 * their 256 x 5376 outputs */
static void
test_vision_tower (void)
{
  g_autoptr (ProcuraModelShape) m = procura_model_catalog_lookup ("google/gemma-3-27b-it");
  g_autoptr (ProcuraModelShape) text = NULL;
  ProcuraFitRequest r;
  ProcuraFitResult res, res_text, res_tp2;
  double layer = 4 * (1152.0 * 1152 + 1152) + 2 * 1152.0 * 4304 + 4304 + 1152 + 4 * 1152;
  double want = 27 * layer + 3 * 14 * 14 * 1152.0 + 1152 + 2 * 1152 + 4096 * 1152.0
                + 1152.0 * 5376 + 1152;

  g_assert_nonnull (m);
  g_assert_cmpfloat_with_epsilon (m->vision_params, want, 1.0);
  g_assert_cmpfloat (m->vision_params, >, 4.2e8);
  g_assert_cmpfloat (m->vision_params, <, 4.25e8);
  g_assert_cmpint (m->vision_tokens_per_item, ==, 256);
  g_assert_cmpint (m->vision_image_size, ==, 896);

  text = procura_model_shape_copy (m);
  text->vision_params = text->vision_params_split = 0;
  request_for (&r, m, 79.19);
  r.gpu_id = "h100-sxm-80gb";
  r.engine_version = "0.19.0";
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  r.model = text;
  g_assert_true (procura_fit_compute (&r, &res_text, NULL));
  /* weights: the tower in bf16 on top of the text model */
  g_assert_cmpfloat_with_epsilon (res.weights_bytes - res_text.weights_bytes, want * 2, 1.0);
  /* activations: 32 images of 3 x 896 x 896 and 32 x 256 x 5376 outputs, bf16 */
  g_assert_cmpfloat_with_epsilon (res.activation_bytes - res_text.activation_bytes,
                                  32 * (3 * 896.0 * 896 + 256.0 * 5376) * 2, 1.0);
  g_assert_nonnull (strstr (res.caveat, "vision tower"));
  g_assert_nonnull (strstr (res.caveat, "32 dummy images"));
  g_assert_cmpint (res.kv_tokens, <, res_text.kv_tokens);

  /* TP 2: the encoder layers' linear weights split, embeddings and projector whole */
  r.model = m;
  r.tp = 2;
  g_assert_true (procura_fit_compute (&r, &res_tp2, NULL));
  r.model = text;
  g_assert_true (procura_fit_compute (&r, &res_text, NULL));
  g_assert_cmpfloat_with_epsilon (res_tp2.weights_bytes - res_text.weights_bytes,
                                  (want - m->vision_params_split / 2) * 2, 1.0);

  /* a chunk smaller than one image still profiles one */
  r.tp = 1;
  r.model = m;
  r.max_num_batched_tokens = 128;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_nonnull (strstr (res.caveat, "1 dummy images"));
}

/* Qwen2-VL-7B's vision_config (its config.json on Hugging Face): a 32-layer ViT of 1280
 * (embed_dim; hidden_size is the decoder's 3584), MLP ratio 4, 14 x 14 x 2 patches and a
 * 2 x 2 merger: the Qwen2-VL report (arXiv:2409.12191) gives about 675 M parameters for
 * the encoder. No tokens per image in config.json: no profiling share, said so. */
static void
test_vision_qwen2_vl (void)
{
  static const char config[] =
    "{\"architectures\": [\"Qwen2VLForConditionalGeneration\"], \"model_type\": \"qwen2_vl\","
    " \"hidden_size\": 3584, \"intermediate_size\": 18944, \"num_hidden_layers\": 28,"
    " \"num_attention_heads\": 28, \"num_key_value_heads\": 4, \"vocab_size\": 152064,"
    " \"vision_config\": {\"depth\": 32, \"embed_dim\": 1280, \"mlp_ratio\": 4, \"num_heads\": 16,"
    " \"in_chans\": 3, \"hidden_size\": 3584, \"patch_size\": 14, \"spatial_merge_size\": 2,"
    " \"temporal_patch_size\": 2}}";
  static const char bad[] =
    "{\"model_type\": \"qwen2_vl\", \"hidden_size\": 3584, \"num_hidden_layers\": 28,"
    " \"num_attention_heads\": 28, \"vocab_size\": 152064, \"vision_config\": {\"depth\": \"x\"}}";
  g_autoptr (ProcuraModelShape) m = NULL;
  g_autoptr (GError) error = NULL;
  ProcuraFitRequest r;
  ProcuraFitResult res;

  m = procura_model_shape_from_config_json ("config.json", config, sizeof config - 1, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (fabs (m->vision_params / 675e6 - 1), <, 0.01);
  g_assert_cmpint (m->vision_tokens_per_item, ==, 0);
  request_for (&r, m, 79.19);
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_nonnull (strstr (res.caveat, "config.json gives no tokens per image"));

  /* a malformed member is an error naming it */
  g_clear_pointer (&m, procura_model_shape_free);
  m = procura_model_shape_from_config_json ("config.json", bad, sizeof bad - 1, &error);
  g_assert_null (m);
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA);
  g_assert_nonnull (strstr (error->message, "vision_config"));
  g_assert_nonnull (strstr (error->message, "depth"));
}

/* Qwen2.5-VL's vision tower, tensor by tensor as transformers' Qwen2_5_VisionTransformer
 * declares it (and vLLM loads it): 32 blocks of a 1280-wide ViT, each with two RMSNorms
 * (1280), qkv 1280 -> 3840 and proj 1280 -> 1280 with biases, a gated MLP of 3420 with
 * biases; a Conv3d patch embedding 3 x 2 x 14 x 14 -> 1280 without bias; the merger: an
 * RMSNorm, 5120 -> 5120 and 5120 -> out_hidden_size with biases. */
static double
qwen2_5_vl_tower (double out)
{
  double h = 1280, i = 3420;
  double block = 2 * h + (h * 3 * h + 3 * h) + (h * h + h) + 2 * (h * i + i) + (i * h + h);

  return 32 * block + 3 * 2 * 14 * 14 * h + h + (5120 * 5120 + 5120) + (5120 * out + out);
}

/* Qwen2.5-VL 3B, 7B and 72B from their config.json on Hugging Face (text fields and
 * vision_config as published; window fields left out). Published figures: the
 * checkpoints' parameter counts on the Hugging Face model pages (safetensors metadata),
 * 3.75 B, 8.29 B and 73.4 B, which include the tower. Checked with a search (2026-12):
 * 73.4 B exactly on https://huggingface.co/mlx-community/Qwen2.5-VL-72B-Instruct-bf16 (a
 * bf16 copy of the Qwen checkpoint); Qwen's collection page
 * https://huggingface.co/collections/Qwen/qwen25-vl lists the three rounded, 4B, 8B and
 * 73B, which agrees; the two-decimal 3.75 B and 8.29 B were not found in the stored pages
 * (nothing found contradicts them). No figure of the Qwen2.5-VL tower
 * alone is published (the Qwen2.5-VL report, arXiv:2502.13923, Table 1, gives its shape,
 * not its count), so the tower is checked tensor by tensor and the whole model against
 * the published total; for the 72B the total alone would not catch a tower error. */
static void
test_vision_qwen2_5_vl (void)
{
  static const struct {
    const char *name;
    int         hidden, inter, layers, heads, kv, vocab;
    gboolean    tied;
    double      published;
  } sizes[] = {
    { "Qwen/Qwen2.5-VL-3B-Instruct", 2048, 11008, 36, 16, 2, 151936, TRUE, 3.75e9 },
    { "Qwen/Qwen2.5-VL-7B-Instruct", 3584, 18944, 28, 28, 4, 152064, FALSE, 8.29e9 },
    { "Qwen/Qwen2.5-VL-72B-Instruct", 8192, 29568, 80, 64, 8, 152064, FALSE, 73.4e9 },
  };

  for (gsize k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      g_autofree char *config = g_strdup_printf (
        "{\"architectures\": [\"Qwen2_5_VLForConditionalGeneration\"], \"model_type\": \"qwen2_5_vl\","
        " \"hidden_size\": %d, \"intermediate_size\": %d, \"num_hidden_layers\": %d,"
        " \"num_attention_heads\": %d, \"num_key_value_heads\": %d, \"vocab_size\": %d,"
        " \"tie_word_embeddings\": %s, \"max_position_embeddings\": 128000,"
        " \"vision_config\": {\"depth\": 32, \"hidden_act\": \"silu\", \"hidden_size\": 1280,"
        " \"intermediate_size\": 3420, \"num_heads\": 16, \"in_chans\": 3, \"out_hidden_size\": %d,"
        " \"patch_size\": 14, \"spatial_merge_size\": 2, \"spatial_patch_size\": 14,"
        " \"window_size\": 112, \"fullatt_block_indexes\": [7, 15, 23, 31],"
        " \"tokens_per_second\": 2, \"temporal_patch_size\": 2}}",
        sizes[k].hidden, sizes[k].inter, sizes[k].layers, sizes[k].heads, sizes[k].kv,
        sizes[k].vocab, sizes[k].tied ? "true" : "false", sizes[k].hidden);
      g_autoptr (ProcuraModelShape) m = NULL;
      g_autoptr (GError) error = NULL;
      double total;

      m = procura_model_shape_from_config_json (sizes[k].name, config, strlen (config), &error);
      g_assert_no_error (error);
      g_assert_cmpfloat_with_epsilon (m->vision_params, qwen2_5_vl_tower (sizes[k].hidden), 1.0);
      total = procura_fit_param_count (m) + m->vision_params;
      g_test_message ("%s: tower %.1f M, total %.3f B (published %.2f B, %+.2f %%)", sizes[k].name,
                      m->vision_params / 1e6, total / 1e9, sizes[k].published / 1e9,
                      (total / sizes[k].published - 1) * 100);
      g_assert_cmpfloat (fabs (total / sizes[k].published - 1), <, 0.01);
      /* SGLang reads vision_config.num_hidden_layers (absent: "depth") and hidden_size */
      g_assert_cmpint (m->vision_config_layers, ==, 0);
      g_assert_cmpint (m->vision_config_hidden, ==, 1280);
    }
}

/* Llama 4's vision tower as transformers' Llama4VisionModel declares it (vLLM's mllama4
 * loads the same tensors): 34 encoder layers of 1408 (q, k, v, o with biases, fc1/fc2 of
 * 5632 with biases, two LayerNorms); a bias-free linear patch embedding of 3 x 14 x 14;
 * a class embedding; (336 / 14)^2 + 1 position rows; LayerNorm before and after; the
 * pixel-shuffle adapter (5632 -> 4096, 4096 -> 4096, no biases) and the projector
 * 4096 -> 5120 (no bias). Meta publishes no count of the tower; the model card gives the
 * totals, Scout 109 B and Maverick 400 B (17 B active each), which the whole model is
 * checked against (confirmed: "~109B total" and "~400B total" on
 * https://huggingface.co/blog/llama4-release; the Hub lists bf16 copies of Scout at 109B and
 * of Maverick at 401B, https://huggingface.co/models?other=llama-4). Text: 48 layers of 5120, 40 heads, 8 KV heads, one shared expert per
 * MoE layer; Scout: 16 experts in every layer; Maverick: 128 experts in every second
 * layer (interleave_moe_layer_step 2), the others dense MLPs of 16384. */
static void
test_vision_llama4 (void)
{
  static const struct {
    const char *name;
    int         experts, step;
    double      published;
  } sizes[] = {
    { "meta-llama/Llama-4-Scout-17B-16E-Instruct", 16, 1, 109e9 },
    { "meta-llama/Llama-4-Maverick-17B-128E-Instruct", 128, 2, 400e9 },
  };
  double h = 1408, i = 5632;
  double layer = 4 * (h * h + h) + (h * i + i) + (i * h + h) + 4 * h;
  double tower = 34 * layer + 3 * 14 * 14 * h + h + (24 * 24 + 1) * h + 4 * h
                 + i * 4096 + 4096.0 * 4096 + 4096.0 * 5120;

  for (gsize k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      g_autofree char *config = g_strdup_printf (
        "{\"architectures\": [\"Llama4ForConditionalGeneration\"], \"model_type\": \"llama4\","
        " \"text_config\": {\"model_type\": \"llama4_text\", \"hidden_size\": 5120,"
        " \"intermediate_size\": 8192, \"intermediate_size_mlp\": 16384, \"num_hidden_layers\": 48,"
        " \"num_attention_heads\": 40, \"num_key_value_heads\": 8, \"head_dim\": 128,"
        " \"vocab_size\": 202048, \"num_local_experts\": %d, \"num_experts_per_tok\": 1,"
        " \"interleave_moe_layer_step\": %d, \"tie_word_embeddings\": false},"
        " \"vision_config\": {\"model_type\": \"llama4_vision_model\", \"hidden_size\": 1408,"
        " \"intermediate_size\": 5632, \"num_hidden_layers\": 34, \"num_attention_heads\": 16,"
        " \"image_size\": 336, \"patch_size\": 14, \"num_channels\": 3, \"pixel_shuffle_ratio\": 0.5,"
        " \"projector_input_dim\": 4096, \"projector_output_dim\": 4096,"
        " \"vision_output_dim\": 4096}}", sizes[k].experts, sizes[k].step);
      g_autoptr (ProcuraModelShape) m = NULL;
      g_autoptr (GError) error = NULL;
      double total;

      m = procura_model_shape_from_config_json (sizes[k].name, config, strlen (config), &error);
      g_assert_no_error (error);
      g_assert_cmpfloat_with_epsilon (m->vision_params, tower, 1.0);
      g_assert_cmpint (m->num_shared_experts, ==, 1);
      g_assert_cmpint (m->first_dense_layers, ==, 48 - 48 / sizes[k].step);
      total = procura_fit_param_count (m) + m->vision_params;
      g_test_message ("%s: tower %.1f M, total %.2f B (published %.0f B, %+.2f %%)", sizes[k].name,
                      m->vision_params / 1e6, total / 1e9, sizes[k].published / 1e9,
                      (total / sizes[k].published - 1) * 100);
      g_assert_cmpfloat (fabs (total / sizes[k].published - 1), <, 0.01);
      g_assert_cmpint (m->vision_config_layers, ==, 34);
      g_assert_cmpint (m->vision_config_hidden, ==, 1408);
    }
}

/* Llama 4 Scout's text layers as config.json gives them: 48 layers, 8 KV heads of 128,
 * attention_chunk_size 8192, no no_rope_layers list (so every 4th layer is NoPE, global:
 * layers 3, 7, ..., 47; the 36 others attend within their 8,192-token chunk). */
static ProcuraModelShape *
llama4_scout (const char *no_rope_layers,
              GError    **error)
{
  g_autofree char *config = g_strdup_printf (
    "{\"architectures\": [\"Llama4ForConditionalGeneration\"], \"model_type\": \"llama4\","
    " \"text_config\": {\"model_type\": \"llama4_text\", \"hidden_size\": 5120,"
    " \"intermediate_size\": 8192, \"intermediate_size_mlp\": 16384, \"num_hidden_layers\": 48,"
    " \"num_attention_heads\": 40, \"num_key_value_heads\": 8, \"head_dim\": 128,"
    " \"vocab_size\": 202048, \"num_local_experts\": 16, \"num_experts_per_tok\": 1,"
    " \"interleave_moe_layer_step\": 1, \"tie_word_embeddings\": false,"
    " \"attention_chunk_size\": 8192%s%s}}",
    no_rope_layers != NULL ? ", \"no_rope_layers\": " : "",
    no_rope_layers != NULL ? no_rope_layers : "");

  return procura_model_shape_from_config_json ("meta-llama/Llama-4-Scout-17B-16E-Instruct",
                                               config, strlen (config), error);
}

/* vLLM's hybrid KV cache manager with Llama 4's chunked local attention
 * (ChunkedLocalAttentionSpec, kv_cache_interface.py): the 12 global and 36 chunked
 * layers form groups of 12: one full and three chunked groups sharing one page pool.
 * On H100 the default prefill chunk (max_num_batched_tokens) is 8,192; bf16 KV.
 *
 * TP 4: 2 KV heads of 128 per GPU: 2 x 2 x 128 x 2 B = 1,024 B per token and layer;
 *   a page of 16 tokens 16,384 B; a group page (12 layers) 196,608 B.
 *   "GPU KV cache size" counts every layer as full: 48 x 1,024 = 49,152 B per token.
 *   A 40 GiB pool: floor(42,949,672,960 / 196,608) = 218,453 blocks;
 *   tokens = 218,453 // 4 groups x 16 = 54,613 x 16 = 873,808.
 *   At a 131,072-token context a sequence needs 131,072 / 16 = 8,192 blocks in the full
 *   group and cdiv(min(8,192 + 8,192, 131,072), 16) = 1,024 in each chunked group (no
 *   extra block, unlike a sliding window): 8,192 + 3 x 1,024 = 11,264 blocks, so
 *   max concurrency = 218,453 / 11,264 = 19.39x (19 sequences).
 *   What a token really needs: 1,024 x (12 + 36 x 16,384 / 131,072) = 16,896 B.
 * TP 8: 1 KV head per GPU: 512 B per token and layer, group page 98,304 B;
 *   floor(42,949,672,960 / 98,304) = 436,906 blocks; tokens = 109,226 x 16 = 1,747,616;
 *   max concurrency = 436,906 / 11,264 = 38.79x (38).
 * Hybrid manager off (vLLM 0.10.1 to 0.12 by default): one group of 48 layers, a sequence
 *   needs 8,192 blocks; TP 4: floor(42,949,672,960 / 786,432) = 54,613 blocks = 873,808
 *   tokens, 54,613 / 8,192 = 6.67x; TP 8: 109,226 blocks, 13.33x. */
static void
test_chunked_llama4 (void)
{
  static const struct {
    int    tp;
    double layer_bytes;
    gint64 blocks, tokens, blocks_full;
  } cases[] = {
    { 4, 1024, 218453, 873808, 54613 },
    { 8, 512, 436906, 1747616, 109226 },
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraModelShape) m = llama4_scout (NULL, &error);
  int n_chunked = 0;

  g_assert_no_error (error);
  g_assert_nonnull (m->layer_is_sliding);
  g_assert_cmpint (m->sliding_window, ==, 8192);
  for (int l = 0; l < 48; l++)
    {
      g_assert_cmpint (m->layer_is_sliding[l], ==, (l + 1) % 4 != 0 ? PROCURA_ATTN_CHUNKED : PROCURA_ATTN_FULL);
      n_chunked += m->layer_is_sliding[l] == PROCURA_ATTN_CHUNKED;
    }
  g_assert_cmpint (n_chunked, ==, 36);

  for (gsize k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      ProcuraFitRequest r;
      ProcuraFitResult res;
      double group_page = cases[k].layer_bytes * 16 * 12;
      gint64 bps = 131072 / 16 + 3 * ((8192 + 8192) / 16);

      request_for (&r, m, 79.19);
      r.tp = cases[k].tp;
      r.gpu_id = "h100-sxm-80gb";
      r.kv_pool_bytes = 40 * GIB;
      r.context_tokens = 131072;
      g_assert_true (procura_fit_compute (&r, &res, &error));
      g_assert_no_error (error);
      g_assert_cmpint (res.kv_rule, ==, PROCURA_KV_RULE_VLLM_HYBRID);
      g_assert_cmpfloat (res.kv_bytes_per_token_layer, ==, cases[k].layer_bytes);
      g_assert_cmpfloat (res.kv_bytes_per_token, ==, 48 * cases[k].layer_bytes);
      g_assert_cmpfloat_with_epsilon (res.kv_bytes_per_token_needed,
                                      cases[k].layer_bytes * (12 + 36 * 16384.0 / 131072), 1e-6);
      g_assert_cmpint (bps, ==, 11264);
      g_assert_cmpint (res.kv_blocks, ==, cases[k].blocks);
      g_assert_cmpint (res.kv_blocks, ==, (gint64) floor (40 * GIB / group_page));
      g_assert_cmpint (res.kv_tokens, ==, cases[k].tokens);
      g_assert_cmpint (res.kv_tokens, ==, cases[k].blocks / 4 * 16);
      g_assert_cmpfloat_with_epsilon (res.max_concurrency, (double) cases[k].blocks / bps, 1e-9);
      g_assert_cmpint (res.max_concurrency_int, ==, cases[k].blocks / bps);
      g_assert_nonnull (strstr (res.caveat, "chunked local attention"));
      g_assert_nonnull (strstr (res.caveat, "estimate"));

      /* the newest rules and vLLM 0.19 keep the manager on */
      r.engine_version = "0.19.0";
      g_assert_true (procura_fit_compute (&r, &res, NULL));
      g_assert_cmpint (res.kv_rule, ==, PROCURA_KV_RULE_VLLM_HYBRID);
      g_assert_cmpint (res.max_concurrency_int, ==, cases[k].blocks / bps);

      /* vLLM 0.10.1: the manager is off for chunked attention, every layer full */
      r.engine_version = "0.10.1.1";
      g_assert_true (procura_fit_compute (&r, &res, NULL));
      g_assert_cmpint (res.kv_rule, ==, PROCURA_KV_RULE_ALL_FULL);
      g_assert_cmpfloat (res.kv_bytes_per_token, ==, 48 * cases[k].layer_bytes);
      g_assert_cmpfloat (res.kv_bytes_per_token_needed, ==, 48 * cases[k].layer_bytes);
      g_assert_cmpint (res.kv_blocks, ==, cases[k].blocks_full);
      g_assert_cmpint (res.kv_blocks, ==, (gint64) floor (40 * GIB / (cases[k].layer_bytes * 16 * 48)));
      g_assert_cmpint (res.kv_tokens, ==, cases[k].blocks_full * 16);
      g_assert_cmpfloat_with_epsilon (res.max_concurrency, cases[k].blocks_full / 8192.0, 1e-9);
      g_assert_nonnull (strstr (res.caveat, "VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE"));

      /* ... unless the user turns it on (VLLM_ALLOW_...=1): the hybrid rule as asked */
      r.kv_rule = PROCURA_KV_RULE_VLLM_HYBRID;
      g_assert_true (procura_fit_compute (&r, &res, NULL));
      g_assert_cmpint (res.kv_blocks, ==, cases[k].blocks);
      g_assert_cmpint (res.max_concurrency_int, ==, cases[k].blocks / bps);

      /* a context within one chunk: every layer holds the whole sequence,
       * 8,192 / 16 = 512 blocks in each of the four groups */
      r.context_tokens = 8192;
      g_assert_true (procura_fit_compute (&r, &res, NULL));
      g_assert_cmpfloat_with_epsilon (res.max_concurrency, cases[k].blocks / 2048.0, 1e-9);
    }

  /* SGLang (Llama4ForConditionalGeneration is one of its hybrid SWA models, the chunk
   * is the window): TP 4, 40 GiB hold floor(40 GiB / 49,152) = 873,813 tokens in every
   * layer; full = floor(873,813 x 48 / (0.8 x 36 + 12)) = 1,028,015, local = 822,412 */
  {
    ProcuraFitRequest r;
    ProcuraFitResult res;

    request_for (&r, m, 79.19);
    r.engine = PROCURA_ENGINE_SGLANG;
    r.tp = 4;
    r.kv_pool_bytes = 40 * GIB;
    r.context_tokens = 131072;
    g_assert_true (procura_fit_compute (&r, &res, NULL));
    g_assert_cmpint (res.kv_rule, ==, PROCURA_KV_RULE_SGLANG_SWA);
    g_assert_cmpint (res.kv_tokens, ==, (gint64) floor (873813.0 * 48 / (0.8 * 36 + 12)));
    g_assert_cmpint (res.kv_tokens, ==, 1028015);
    g_assert_cmpint (res.kv_swa_tokens, ==, 822412);
    /* a sequence: 131,072 tokens in the full pool, 8,192 in the local one */
    g_assert_cmpfloat_with_epsilon (res.max_concurrency, MIN (1028015.0 / 131072, 822412.0 / 8192), 1e-9);
    g_assert_nonnull (strstr (res.caveat, "chunked local attention"));
  }
}

/* no_rope_layers as config.json may list it: 1 = RoPE, chunked; 0 = NoPE, global */
static void
test_chunked_no_rope_layers (void)
{
  GString *list = g_string_new ("[");
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraModelShape) m = NULL;
  ProcuraModelShape *bad;

  for (int l = 0; l < 48; l++)
    g_string_append_printf (list, "%s%d", l > 0 ? ", " : "", l % 2);
  g_string_append (list, "]");
  text = g_string_free (list, FALSE);
  m = llama4_scout (text, &error);
  g_assert_no_error (error);
  for (int l = 0; l < 48; l++)
    g_assert_cmpint (m->layer_is_sliding[l], ==, l % 2 ? PROCURA_ATTN_CHUNKED : PROCURA_ATTN_FULL);

  /* an empty list is transformers' default, every 4th layer global */
  g_clear_pointer (&m, procura_model_shape_free);
  m = llama4_scout ("[]", &error);
  g_assert_no_error (error);
  g_assert_cmpint (m->layer_is_sliding[3], ==, PROCURA_ATTN_FULL);
  g_assert_cmpint (m->layer_is_sliding[4], ==, PROCURA_ATTN_CHUNKED);

  /* all NoPE: no local layer at all */
  g_clear_pointer (&m, procura_model_shape_free);
  {
    GString *z = g_string_new ("[");
    g_autofree char *zl = NULL;

    for (int l = 0; l < 48; l++)
      g_string_append (z, l > 0 ? ", 0" : "0");
    g_string_append (z, "]");
    zl = g_string_free (z, FALSE);
    m = llama4_scout (zl, &error);
    g_assert_no_error (error);
    g_assert_null (m->layer_is_sliding);
    g_assert_cmpint (m->sliding_window, ==, 0);
  }

  /* the wrong length or a value other than 0 and 1: an error naming the key */
  bad = llama4_scout ("[1, 1, 0]", &error);
  g_assert_null (bad);
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA);
  g_assert_nonnull (strstr (error->message, "no_rope_layers"));
  g_assert_nonnull (strstr (error->message, "48"));
  g_clear_error (&error);
  bad = llama4_scout ("\"yes\"", &error);
  g_assert_null (bad);
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA);
  g_assert_nonnull (strstr (error->message, "no_rope_layers"));
}

/* SGLang profiles no encoder: without --mem-fraction-static it lowers its default by
 * 0.95 x clamp (1 - 0.1 x (L h^2 / (24 x 1024^2) - 1), 0.8, 1.05) (server_args.py,
 * adjust_mem_fraction_for_vlm). gemma-3-27b's SigLIP: 27 layers of 1152, r = 1.4238,
 * factor 0.95 x 0.95762 = 0.909736. */
static void
test_sglang_vlm (void)
{
  g_autoptr (ProcuraModelShape) m = procura_model_catalog_lookup ("google/gemma-3-27b-it");
  g_autoptr (ProcuraModelShape) big = NULL;
  ProcuraFitRequest r;
  ProcuraFitResult res;
  double ratio = 27.0 * 1152 * 1152 / (24.0 * 1024 * 1024);
  double want = 0.95 * (1 - 0.1 * (ratio - 1));

  g_assert_nonnull (m);
  g_assert_cmpfloat_with_epsilon (procura_fit_sglang_vlm_factor (m), want, 1e-12);
  g_assert_cmpfloat_with_epsilon (want, 0.909736, 1e-6);
  request_for (&r, m, 139.81);
  r.engine = PROCURA_ENGINE_SGLANG;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (res.budget_bytes, 139.81 * GIB * 0.88 * want, 1.0);
  g_assert_cmpfloat_with_epsilon (res.sglang_vlm_factor, want, 1e-12);
  g_assert_nonnull (strstr (res.caveat, "SGLang profiles no vision encoder"));

  /* an explicit fraction is used as given */
  r.mem_fraction_static = 0.85;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (res.budget_bytes, 139.81 * GIB * 0.85, 1.0);
  g_assert_cmpfloat (res.sglang_vlm_factor, ==, 0.0);
  g_assert_null (strstr (res.caveat, "SGLang profiles no vision encoder"));

  /* vLLM is not touched by SGLang's rule */
  r.engine = PROCURA_ENGINE_VLLM;
  r.mem_fraction_static = NAN;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat (res.sglang_vlm_factor, ==, 0.0);

  /* absent attributes: 24 layers of 1024, factor 0.95; a huge tower: clamped at 0.8 */
  big = procura_model_shape_copy (m);
  big->vision_config_layers = 0;
  big->vision_config_hidden = 0;
  g_assert_cmpfloat_with_epsilon (procura_fit_sglang_vlm_factor (big), 0.95, 1e-12);
  big->vision_config_layers = 64;
  big->vision_config_hidden = 4096;
  g_assert_cmpfloat_with_epsilon (procura_fit_sglang_vlm_factor (big), 0.95 * 0.8, 1e-12);
  /* a text model: no change */
  big->vision_params = big->vision_params_split = 0;
  g_assert_cmpfloat (procura_fit_sglang_vlm_factor (big), ==, 1.0);
}

/* The rotary tables vLLM builds when it loads a model (rotary_embedding: a cos/sin cache
 * of max_position x rotary_dim in the model's dtype, a buffer on the GPU that "Model
 * loading took" counts). gemma-3-27b: a global rope with linear scaling 8 (131,072 x 8
 * rows) and the sliding layers' unscaled local rope (131,072 rows), 128 wide: 0.28 GiB in
 * bf16. Llama-3.1-8B (llama3 scaling keeps max_position): 131,072 x 128. SGLang keeps the
 * cache in fp32 on CUDA. */
static void
test_rope_tables (void)
{
  g_autoptr (ProcuraModelShape) gemma = procura_model_catalog_lookup ("google/gemma-3-27b-it");
  g_autoptr (ProcuraModelShape) llama = procura_model_catalog_lookup ("meta-llama/Llama-3.1-8B-Instruct");
  g_autoptr (ProcuraModelShape) none = NULL;
  ProcuraFitRequest r;
  ProcuraFitResult res, res_none;

  g_assert_nonnull (gemma);
  g_assert_nonnull (llama);
  g_assert_cmpfloat (gemma->rope_cache_elements, ==, (131072.0 * 8 + 131072) * 128);
  g_assert_cmpfloat (llama->rope_cache_elements, ==, 131072.0 * 128);

  none = procura_model_shape_copy (gemma);
  none->rope_cache_elements = 0;
  request_for (&r, gemma, 79.19);
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  r.model = none;
  g_assert_true (procura_fit_compute (&r, &res_none, NULL));
  g_assert_cmpfloat_with_epsilon (res.weights_bytes - res_none.weights_bytes,
                                  gemma->rope_cache_elements * 2, 1.0);
  g_assert_cmpfloat_with_epsilon (res.rope_bytes, 288.0 * 1024 * 1024, 1.0);
  g_assert_cmpfloat_with_epsilon (res.embedding_bytes - res_none.embedding_bytes, res.rope_bytes, 1.0);
  /* every GPU builds its own tables: TP 2 */
  r.tp = 2;
  r.model = gemma;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  r.model = none;
  g_assert_true (procura_fit_compute (&r, &res_none, NULL));
  g_assert_cmpfloat_with_epsilon (res.weights_bytes - res_none.weights_bytes,
                                  gemma->rope_cache_elements * 2, 1.0);
  /* SGLang: fp32 */
  r.tp = 1;
  r.engine = PROCURA_ENGINE_SGLANG;
  r.model = gemma;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  r.model = none;
  g_assert_true (procura_fit_compute (&r, &res_none, NULL));
  g_assert_cmpfloat_with_epsilon (res.weights_bytes - res_none.weights_bytes,
                                  gemma->rope_cache_elements * 4, 1.0);
}

/* A config.json imported into a project keeps what the fit needs (schema 5): the shape
 * read back from the file equals the imported one field by field, and the fit of both
 * is the same (before schema 5 the project's copy lost the vision tower, the window and
 * the rotary tables, and a VLM was sized as text only). */
static void
test_shape_round_trip (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = g_build_filename (dir, "p.procura", NULL);
  g_autoptr (ProcuraModelShape) direct = procura_model_catalog_lookup ("google/gemma-3-27b-it");
  g_autoptr (ProcuraImportResult) result = NULL;
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) project = NULL;
  g_autoptr (GError) error = NULL;
  const ProcuraModelShape *loaded;
  ProcuraModelShape *imported;
  ProcuraFitRequest r;
  ProcuraFitResult a, b;

  /* gemma-3's catalog config, as a file a user imports */
  static const char config[] =
    "{\"architectures\": [\"Gemma3ForConditionalGeneration\"], \"model_type\": \"gemma3\","
    " \"mm_tokens_per_image\": 256,"
    " \"text_config\": {\"model_type\": \"gemma3_text\", \"hidden_size\": 5376,"
    " \"intermediate_size\": 21504, \"num_hidden_layers\": 62, \"num_attention_heads\": 32,"
    " \"num_key_value_heads\": 16, \"head_dim\": 128, \"vocab_size\": 262208,"
    " \"sliding_window\": 1024, \"sliding_window_pattern\": 6, \"max_position_embeddings\": 131072,"
    " \"rope_local_base_freq\": 10000.0, \"rope_scaling\": {\"factor\": 8.0, \"rope_type\": \"linear\"}},"
    " \"vision_config\": {\"model_type\": \"siglip_vision_model\", \"hidden_size\": 1152,"
    " \"intermediate_size\": 4304, \"num_hidden_layers\": 27, \"num_attention_heads\": 16,"
    " \"image_size\": 896, \"patch_size\": 14, \"vision_use_head\": false}}";

  g_assert_nonnull (direct);
  result = procura_import_data ("google--gemma-3-27b-it_config.json", config, sizeof config - 1,
                                "hf-config", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->model_shapes->len, ==, 1);
  imported = g_ptr_array_index (result->model_shapes, 0);
  g_assert_cmpfloat (imported->vision_params, >, 4e8);
  g_assert_cmpfloat (imported->rope_cache_elements, >, 0);
  /* vLLM takes gemma-3's window as stated (its rope factor is not applied again) */
  g_assert_cmpint (imported->max_position_embeddings, ==, 131072);

  store = procura_store_create (path, "round trip", &error);
  g_assert_no_error (error);
  g_assert_true (procura_store_import (store, result, 0, &error));
  g_assert_no_error (error);
  g_clear_pointer (&store, procura_store_close);
  store = procura_store_open (path, 0, &error);
  g_assert_no_error (error);
  project = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (project->model_shapes->len, ==, 1);
  loaded = g_ptr_array_index (project->model_shapes, 0);

  g_assert_cmpfloat (loaded->vision_params, ==, imported->vision_params);
  g_assert_cmpfloat (loaded->vision_params_split, ==, imported->vision_params_split);
  g_assert_cmpint (loaded->vision_tokens_per_item, ==, 256);
  g_assert_cmpint (loaded->vision_image_size, ==, 896);
  g_assert_cmpint (loaded->vision_channels, ==, 3);
  g_assert_cmpint (loaded->vision_config_layers, ==, 27);
  g_assert_cmpint (loaded->vision_config_hidden, ==, 1152);
  g_assert_cmpint (loaded->max_position_embeddings, ==, imported->max_position_embeddings);
  g_assert_cmpfloat (loaded->rope_cache_elements, ==, imported->rope_cache_elements);

  /* the same fit from the file as from the config.json, with vLLM and with SGLang */
  for (int engine = 0; engine < 2; engine++)
    {
      request_for (&r, imported, 79.19);
      r.engine = engine == 0 ? PROCURA_ENGINE_VLLM : PROCURA_ENGINE_SGLANG;
      r.engine_version = engine == 0 ? "0.19.0" : NULL;
      g_assert_true (procura_fit_compute (&r, &a, NULL));
      r.model = loaded;
      g_assert_true (procura_fit_compute (&r, &b, NULL));
      g_assert_cmpfloat (a.weights_bytes, ==, b.weights_bytes);
      g_assert_cmpfloat (a.activation_bytes, ==, b.activation_bytes);
      g_assert_cmpfloat (a.budget_bytes, ==, b.budget_bytes);
      g_assert_cmpint (a.kv_tokens, ==, b.kv_tokens);
      g_assert_cmpstr (a.caveat, ==, b.caveat);
    }
  /* and the catalog's own gemma-3 is the same model */
  g_assert_cmpfloat (direct->vision_params, ==, loaded->vision_params);
  g_assert_cmpfloat (direct->rope_cache_elements, ==, loaded->rope_cache_elements);

  g_clear_pointer (&store, procura_store_close);
  procura_test_rmtree (dir);
}

static void
test_estimates_labelled (void)
{
  g_autoptr (ProcuraModelShape) m = llama_8b ();
  ProcuraFitRequest r;
  ProcuraFitResult res;

  request_for (&r, m, 79.19);
  r.gpu_memory_utilization = 0.95;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_true (res.parts[PROCURA_FIT_PART_ACTIVATIONS].estimate);
  g_assert_true (res.parts[PROCURA_FIT_PART_CUDA_GRAPHS].estimate);
  g_assert_false (res.parts[PROCURA_FIT_PART_WEIGHTS].estimate);
  g_assert_true (res.estimates & PROCURA_FIT_ESTIMATE_KV_POOL);
  /* vLLM 0.19 measured 1.89 GiB activations, 0.25 GiB non-torch, 0.91 GiB graphs and a
   * 58.11 GiB pool for this model on H100 at 0.95: the estimates stay within 15 % and
   * the pool within 3 % */
  g_assert_cmpfloat (fabs (res.activation_bytes / GIB - 1.89) / 1.89, <, 0.15);
  g_assert_cmpfloat (fabs (res.cuda_graph_bytes / GIB - 0.91) / 0.91, <, 0.15);
  g_assert_cmpfloat (fabs (res.kv_pool_bytes / GIB - 58.11) / 58.11, <, 0.03);

  /* the activation estimate, term by term (vLLM 0.19 rules): the sampler pass, rows x
   * vocab x 4 bytes x 3.55 fp32 copies + 2.5 chunk x hidden x 2-byte buffers, exceeds the
   * forward pass (chunk x MLP x 3 x 2 bytes + 4 hidden buffers). vLLM's defaults on a >= 70
   * GiB GPU other than the A100: 8192 tokens, 1024 rows: 1,864,944,844.8 + 167,772,160 */
  g_assert_cmpfloat_with_epsilon (res.activation_bytes, 2032717004.8, 1e-3);
  /* on an A100 (or a card under 70 GiB): 2048 tokens, 256 rows:
   * 466,236,211.2 + 41,943,040 */
  r.gpu_id = "a100-sxm-80gb";
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (res.activation_bytes, 508179251.2, 1e-3);
  r.gpu_id = NULL;
  r.usable_memory_bytes = 40 * GIB;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (res.activation_bytes, 508179251.2, 1e-3);
  /* vLLM 0.10's rules: 3.0 sampler copies, 0.10 GiB non-torch at TP 1, graphs outside */
  r.engine_version = "0.10.1.1";
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (res.activation_bytes, 256.0 * 128256 * 4 * 3.0 + 2.5 * 16777216, 1e-3);
  g_assert_cmpfloat_with_epsilon (res.non_torch_bytes, 0.10 * GIB, 1e-3);
  g_assert_cmpstr (res.engine_rules, ==, "vllm 0.10");
  r.tp = 2;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (res.non_torch_bytes, 0.16 * GIB, 1e-3);
  r.engine_version = "0.19.0";
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (res.non_torch_bytes, 2.10 * GIB, 1e-3);
  g_assert_cmpstr (res.engine_rules, ==, "vllm 0.19");
  /* a newer version: the rules after 0.19; an older one than any known: the oldest */
  r.engine_version = "0.25.1";
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpstr (res.engine_rules, ==, "vllm 0.20");
  r.engine_version = "0.8.5";
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpstr (res.engine_rules, ==, "vllm 0.10");
  g_assert_true (procura_fit_engine_version_valid ("v0.19.0"));
  g_assert_false (procura_fit_engine_version_valid ("latest"));
  g_assert_false (procura_fit_engine_version_valid ("19"));
  r.engine_version = NULL;
  r.tp = 1;
  r.usable_memory_bytes = 79.19 * GIB;

  /* no CUDA graphs: no graph memory */
  r.cuda_graphs = FALSE;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat (res.cuda_graph_bytes, ==, 0.0);
}

static void
test_bad_requests (void)
{
  g_autoptr (ProcuraModelShape) m = llama_8b ();
  ProcuraFitRequest r;
  ProcuraFitResult res;
  GError *error = NULL;

  procura_fit_request_init (&r);
  g_assert_false (procura_fit_compute (&r, &res, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  r.model = m;   /* usable memory unset */
  g_assert_false (procura_fit_compute (&r, &res, &error));
  g_assert_nonnull (strstr (error->message, "usable"));
  g_clear_error (&error);

  request_for (&r, m, 80);
  r.tp = 0;
  g_assert_false (procura_fit_compute (&r, &res, &error));
  g_assert_nonnull (strstr (error->message, "tp"));
  g_clear_error (&error);

  request_for (&r, m, 80);
  r.gpu_memory_utilization = 1.5;
  g_assert_false (procura_fit_compute (&r, &res, &error));
  g_assert_nonnull (strstr (error->message, "gpu_memory_utilization"));
  g_clear_error (&error);
}

static void
test_reconcile (void)
{
  g_autoptr (ProcuraModelShape) m = llama_8b ();
  g_autoptr (ProcuraEngineLog) log = procura_engine_log_new ();
  g_autoptr (GArray) rows = NULL;
  ProcuraFitRequest r;
  ProcuraFitResult calc, at_pool;
  const ProcuraFitReconcileRow *row;

  /* the v0.19 H100 fp8-KV log's figures, typed in */
  log->engine = g_strdup ("vllm");
  log->engine_version = g_strdup ("0.19.0");
  log->tp = 1;
  log->pp = 1;
  log->gpu_memory_utilization = 0.95;
  log->max_model_len = 8192;
  log->kv_dtype = g_strdup ("fp8");
  log->weights_gib = 14.99;
  log->kv_available_gib = 58.11;
  log->kv_tokens = 952032;
  log->max_concurrency = 116.21;
  request_for (&r, m, 79.19);
  rows = procura_fit_reconcile (log, &r, &calc, &at_pool, NULL);
  g_assert_nonnull (rows);
  g_assert_cmpuint (rows->len, ==, 6);
  row = &g_array_index (rows, ProcuraFitReconcileRow, 3);
  g_assert_cmpstr (row->id, ==, "kv-tokens-at-engine-pool");
  /* 58.11 GiB / (65,536 x 16) = 59,504.4 blocks -> 952,064 tokens: +32 tokens */
  g_assert_cmpfloat (row->calculated, ==, 952064.0);
  g_assert_cmpfloat (row->difference, ==, 32.0);
  g_assert_cmpint (at_pool.kv_dtype, ==, PROCURA_DTYPE_FP8);
  row = &g_array_index (rows, ProcuraFitReconcileRow, 0);
  g_assert_cmpstr (row->id, ==, "weights");
  /* 16,060,522,496 bytes = 14.957 GiB vs 14.99: -0.22 % */
  g_assert_cmpfloat (fabs (row->percent + 0.22), <, 0.01);
  /* vLLM 0.19 keeps the CUDA graphs out of its budget: the calculator's own pool is
   * 79.19 x 0.95 - weights - activations - non-torch, nothing for the graphs */
  g_assert_false (calc.limit == PROCURA_FIT_LIMIT_WEIGHTS);
  g_assert_cmpfloat_with_epsilon (calc.kv_pool_bytes,
                                  79.19 * GIB * 0.95 - calc.weights_bytes - calc.activation_bytes
                                  - calc.non_torch_bytes, 1.0);
  row = &g_array_index (rows, ProcuraFitReconcileRow, 1);
  g_assert_cmpstr (row->id, ==, "kv-pool");
  g_test_message ("own pool estimate %.2f GiB vs the engine's 58.11 (%+.2f %%)",
                  row->calculated, row->percent);

  /* a later vLLM subtracts them */
  g_free (log->engine_version);
  log->engine_version = g_strdup ("0.21.1");
  g_clear_pointer (&rows, g_array_unref);
  rows = procura_fit_reconcile (log, &r, &calc, &at_pool, NULL);
  g_assert_cmpfloat_with_epsilon (calc.kv_pool_bytes,
                                  79.19 * GIB * 0.95 - calc.weights_bytes - calc.activation_bytes
                                  - calc.non_torch_bytes - calc.cuda_graph_bytes, 1.0);
}

static void
test_grid (void)
{
  gsize n;
  g_autofree gint64 *v = procura_fit_geometric_grid (1, 1024, 11, &n);

  /* powers of two: 2^(10 i / 10) */
  g_assert_cmpuint (n, ==, 11);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpint (v[i], ==, (gint64) 1 << i);
  g_free (g_steal_pointer (&v));
  v = procura_fit_geometric_grid (1, 3, 20, &n);   /* only three integers there */
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (v[2], ==, 3);
  g_free (g_steal_pointer (&v));
  /* 1 .. 1024 in 20 steps (ratio 1.44): 1, 1.44 -> 1 is bumped to 2, 2.07 -> 2 to 3,
   * 2.99 -> 3 to 4, then 4.30 -> 4 to 5, 6.2 -> 6 ...: 20 distinct values ending at 1024 */
  v = procura_fit_geometric_grid (1, 1024, 20, &n);
  g_assert_cmpuint (n, ==, 20);
  g_assert_cmpint (v[0], ==, 1);
  g_assert_cmpint (v[1], ==, 2);
  g_assert_cmpint (v[2], ==, 3);
  g_assert_cmpint (v[19], ==, 1024);
  for (gsize i = 1; i < n; i++)
    g_assert_cmpint (v[i], >, v[i - 1]);
}

static void
test_map (void)
{
  g_autoptr (ProcuraModelShape) m = llama_8b ();
  g_autoptr (ProcuraFitMap) map = NULL;
  ProcuraGpuSpec small = { .id = "test-24", .name = "Test 24 GiB", .memory_gb_marketed = 24,
                           .usable_memory_bytes = 24 * GIB };
  ProcuraGpuSpec big = { .id = "test-80", .name = "Test 80 GB", .memory_gb_marketed = 80,
                         .usable_memory_bytes = NAN };
  const ProcuraGpuSpec *gpus[] = { &small, &big };
  const int tps[] = { 1, 2 };
  const gint64 ctx[] = { 1024, 8192, 131072 };
  const gint64 conc[] = { 1, 16, 256 };
  ProcuraFitRequest r;
  ProcuraFitResult res;

  request_for (&r, m, 1);
  map = procura_fit_map (&r, gpus, 2, tps, 2, ctx, 3, conc, 3, NULL);
  g_assert_nonnull (map);
  g_assert_cmpuint (map->n_gpus, ==, 2);
  g_assert_cmpstr (map->gpu_ids[1], ==, "test-80");
  /* the marketed 80 GB (80e9 bytes) stands in for an unknown driver figure */
  r.usable_memory_bytes = 80e9;
  r.tp = 2;
  for (gsize c = 0; c < 3; c++)
    for (gsize k = 0; k < 3; k++)
      {
        const ProcuraFitMapCell *cell = procura_fit_map_cell (map, 1, 1, c, k);

        r.context_tokens = ctx[c];
        r.concurrency = conc[k];
        g_assert_true (procura_fit_compute (&r, &res, NULL));
        g_assert_cmpint (cell->fits, ==, res.fits);
        g_assert_cmpint (cell->limit, ==, res.limit);
        g_assert_cmpfloat_with_epsilon (cell->max_concurrency, res.max_concurrency, 1e-3);
        g_assert_cmpint (map->kv_tokens[1 * 2 + 1], ==, res.kv_tokens);
      }
  /* 1 sequence of 1024 fits everywhere; 256 x 131,072 tokens (2^25 tokens = 4 TiB of KV
   * at TP 1) fits nowhere */
  for (gsize g = 0; g < 2; g++)
    for (gsize t = 0; t < 2; t++)
      {
        g_assert_true (procura_fit_map_cell (map, g, t, 0, 0)->fits);
        g_assert_false (procura_fit_map_cell (map, g, t, 2, 2)->fits);
      }
}

/* The fit counts parameters tensor by tensor on its own; the catalog's counter and the
 * published figures are independent checks of it, for every catalog model. */
static void
test_catalog_params (void)
{
  g_autoptr (GPtrArray) all = procura_model_catalog_all ();

  g_assert_cmpuint (all->len, >=, 10);
  for (guint i = 0; i < all->len; i++)
    {
      ProcuraModelShape *m = g_ptr_array_index (all, i);
      double mine = procura_fit_param_count (m);
      double catalog = procura_model_shape_param_count (m);

      g_test_message ("%s: %.6g parameters (catalog %.6g, published %.6g)", m->id, mine,
                      catalog, m->published_params);
      g_assert_cmpfloat (fabs (mine - catalog) / catalog, <, 0.001);
      if (procura_is_set (m->published_params))
        g_assert_cmpfloat (fabs (mine - m->published_params) / m->published_params, <, 0.01);
    }
}

/* The model's own window caps the longest context, and a context beyond it does not fit */
static void
test_model_window (void)
{
  g_autoptr (ProcuraModelShape) m = llama_8b ();
  ProcuraFitRequest r;
  ProcuraFitResult res;

  m->max_position_embeddings = 131072;
  request_for (&r, m, 79.19);
  r.gpu_memory_utilization = 0.95;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_true (res.fits);
  /* the pool alone would hold about 476k tokens for one sequence */
  g_assert_cmpint (res.max_context_pool, >, 400000);
  g_assert_cmpint (res.max_context, ==, 131072);
  g_assert_cmpint (res.model_max_context, ==, 131072);
  g_assert_nonnull (strstr (res.caveat, "capped at the model's own window of 131072"));
  r.context_tokens = 200000;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_false (res.fits);
  g_assert_cmpint (res.limit, ==, PROCURA_FIT_LIMIT_CONTEXT);
  g_assert_nonnull (strstr (res.limit_text, "131072"));
  /* without a window in the shape: no cap */
  m->max_position_embeddings = 0;
  r.context_tokens = 8192;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpint (res.max_context, ==, res.max_context_pool);
}

/* rope scaling multiplies the window as vLLM derives max_model_len (yarn from the
 * original window; llama3 already states it) */
static void
test_model_window_rope (void)
{
  static const char *yarn =
    "{\"architectures\": [\"Qwen2ForCausalLM\"], \"num_hidden_layers\": 4, \"hidden_size\": 256,"
    " \"intermediate_size\": 512, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"
    " \"vocab_size\": 1000, \"max_position_embeddings\": 32768,"
    " \"rope_scaling\": {\"type\": \"yarn\", \"factor\": 4.0, \"original_max_position_embeddings\": 32768}}";
  static const char *llama3 =
    "{\"architectures\": [\"LlamaForCausalLM\"], \"num_hidden_layers\": 4, \"hidden_size\": 256,"
    " \"intermediate_size\": 512, \"num_attention_heads\": 4, \"vocab_size\": 1000,"
    " \"max_position_embeddings\": 131072,"
    " \"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8.0}}";
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraModelShape) a = procura_model_shape_from_config_json (NULL, yarn, strlen (yarn), &error);
  g_autoptr (ProcuraModelShape) b = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (a->max_position_embeddings, ==, 131072);
  b = procura_model_shape_from_config_json (NULL, llama3, strlen (llama3), &error);
  g_assert_no_error (error);
  g_assert_cmpint (b->max_position_embeddings, ==, 131072);
}

/* Quantisation that only the name or hf_quant_config.json declares */
static void
test_quant_outside_config (void)
{
  g_autoptr (ProcuraModelShape) m = llama_8b ();
  g_autofree char *path = procura_test_real_fixture ("model-configs/aic__nvidia--Llama-3.1-70B-Instruct-FP8_hf_quant_config.json");
  g_autoptr (GError) error = NULL;
  g_autofree char *bad = NULL;
  ProcuraFitRequest r;
  ProcuraFitResult res;
  ProcuraDtype w = PROCURA_DTYPE_AUTO, kv = PROCURA_DTYPE_AUTO;

  g_assert_cmpint (procura_fit_quant_from_name ("nvidia/Llama-3.1-70B-Instruct-FP8"), ==, PROCURA_DTYPE_FP8);
  g_assert_cmpint (procura_fit_quant_from_name ("nvidia/DeepSeek-R1-NVFP4"), ==, PROCURA_DTYPE_NVFP4);
  g_assert_cmpint (procura_fit_quant_from_name ("Qwen/Qwen2.5-7B-Instruct-AWQ"), ==, PROCURA_DTYPE_INT4);
  g_assert_cmpint (procura_fit_quant_from_name ("RedHatAI/Llama-3.1-8B-quantized.w8a8"), ==, PROCURA_DTYPE_INT8);
  g_assert_cmpint (procura_fit_quant_from_name ("meta-llama/Llama-3.1-8B"), ==, PROCURA_DTYPE_AUTO);
  g_assert_cmpint (procura_fit_quant_from_name ("org/fp8ish-model"), ==, PROCURA_DTYPE_AUTO);
  g_assert_cmpfloat (procura_dtype_bytes (PROCURA_DTYPE_NVFP4, 0), ==, 0.5625);

  /* sized as bf16, with a warning, when only the name says FP8 */
  g_free (m->id);
  m->id = g_strdup ("nvidia/Llama-3.1-8B-Instruct-FP8");
  request_for (&r, m, 79.19);
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpint (res.weights_dtype, ==, PROCURA_DTYPE_BF16);
  g_assert_nonnull (strstr (res.caveat, "name says fp8"));
  r.weights_dtype = PROCURA_DTYPE_FP8;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_null (strstr (res.caveat, "name says"));

  if (path == NULL)
    {
      g_test_message ("%s", procura_test_real_fixtures_missing ());
      return;
    }
  g_assert_true (procura_fit_read_hf_quant_config (path, &w, &kv, &error));
  g_assert_no_error (error);
  g_assert_cmpint (w, ==, PROCURA_DTYPE_FP8);
  g_assert_cmpint (kv, ==, PROCURA_DTYPE_FP8);
  /* a config.json is not an hf_quant_config.json: the error names the file and key */
  bad = procura_test_real_fixture ("model-configs/aic__nvidia--Llama-3.1-70B-Instruct-FP8_config.json");
  g_assert_false (procura_fit_read_hf_quant_config (bad, &w, &kv, &error));
  g_assert_nonnull (strstr (error->message, "quantization"));
  g_assert_nonnull (strstr (error->message, "FP8_config.json"));
}

/* Every catalog GPU has a usable-memory figure with its source; the H200 and
 * A100-40GB are the driver's, not the marketed size */
static void
test_catalog_usable_memory (void)
{
  gsize n = 0;
  const ProcuraGpuSpec * const *all = procura_gpu_catalog_all (&n);
  const ProcuraGpuSpec *h200 = procura_gpu_catalog_lookup ("H200");
  const ProcuraGpuSpec *a100_40 = procura_gpu_catalog_lookup ("A100-40GB");
  const ProcuraGpuSpec *h100 = procura_gpu_catalog_lookup ("H100");
  gboolean driver = FALSE;

  g_assert_cmpuint (n, >, 10);
  for (gsize i = 0; i < n; i++)
    {
      g_assert_true (all[i]->usable_memory_bytes > 0);
      g_assert_nonnull (all[i]->usable_memory_source);
      /* below the marketed size read as GiB (an "80GB" A100 has 80 GiB of HBM), above
       * 90 % of it read as GB */
      g_assert_cmpfloat (all[i]->usable_memory_bytes, <, all[i]->memory_gb_marketed * GIB);
      g_assert_cmpfloat (all[i]->usable_memory_bytes, >, 0.9 * all[i]->memory_gb_marketed * 1e9);
    }
  g_assert_nonnull (h200);
  g_assert_cmpfloat_with_epsilon (procura_fit_gpu_usable_bytes (h200, &driver) / GIB, 139.81, 1e-6);
  g_assert_true (driver);
  g_assert_nonnull (a100_40);
  g_assert_cmpfloat (procura_fit_gpu_usable_bytes (a100_40, &driver), ==, 42298834944.0);
  g_assert_true (driver);
  g_assert_cmpfloat_with_epsilon (h100->usable_memory_free_bytes / GIB, 78.68, 1e-6);
  /* an estimate says so */
  g_assert_true (procura_gpu_catalog_lookup ("H100 PCIe")->usable_memory_estimate);
  procura_fit_gpu_usable_bytes (procura_gpu_catalog_lookup ("H100 PCIe"), &driver);
  g_assert_false (driver);
}

/* The fit map with a pipeline-parallel size per GPU agrees with the calculator */
static void
test_map_pp (void)
{
  g_autoptr (ProcuraModelShape) m = llama_8b ();
  const ProcuraGpuSpec *l40s = procura_gpu_catalog_lookup ("L40S");
  const ProcuraGpuSpec *gpus[1] = { l40s };
  const int tps[] = { 4 }, pps[] = { 2 };
  const gint64 contexts[] = { 8192 }, conc[] = { 1 };
  g_autoptr (ProcuraFitMap) map = NULL;
  ProcuraFitRequest r;
  ProcuraFitResult res;

  request_for (&r, m, 1);
  map = procura_fit_map_full (&r, gpus, pps, 1, tps, 1, contexts, 1, conc, 1, NULL);
  g_assert_nonnull (map);
  r.usable_memory_bytes = procura_fit_gpu_usable_bytes (l40s, NULL);
  r.gpu_id = l40s->id;
  r.tp = 4;
  r.pp = 2;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpfloat_with_epsilon (procura_fit_map_cell (map, 0, 0, 0, 0)->max_concurrency,
                                  (float) res.max_concurrency, 1e-3);
  g_assert_cmpint (map->kv_tokens[0], ==, res.kv_tokens);
  /* and differs from PP 1 */
  r.pp = 1;
  g_assert_true (procura_fit_compute (&r, &res, NULL));
  g_assert_cmpint (map->kv_tokens[0], !=, res.kv_tokens);
}

/* issue 17: the engine and its version as a brief's tooling or a candidate's engine field
 * spells them */
static void
test_engine_from_text (void)
{
  static const struct { const char *text; gboolean known; ProcuraFitEngine engine; const char *version; } cases[] = {
    { "vllm 0.10.1", TRUE, PROCURA_ENGINE_VLLM, "0.10.1" },
    { "vLLM v0.19.0", TRUE, PROCURA_ENGINE_VLLM, "0.19.0" },
    { "vllm==0.11", TRUE, PROCURA_ENGINE_VLLM, "0.11" },
    { "vllm/vllm-openai:v0.11.0", TRUE, PROCURA_ENGINE_VLLM, "0.11.0" },
    { "SGLang 0.4.6", TRUE, PROCURA_ENGINE_SGLANG, "0.4.6" },
    { "vllm", TRUE, PROCURA_ENGINE_VLLM, NULL },
    { "vllm on 8 GPUs", TRUE, PROCURA_ENGINE_VLLM, NULL },
    { "tensorrt-llm 0.12", FALSE, PROCURA_ENGINE_VLLM, NULL },
    { NULL, FALSE, PROCURA_ENGINE_VLLM, NULL },
  };
  ProcuraFitEngine engine;
  char *version;

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      engine = PROCURA_ENGINE_VLLM;
      g_assert_true (procura_fit_engine_from_text (cases[i].text, &engine, &version) == cases[i].known);
      if (cases[i].known)
        g_assert_cmpint (engine, ==, cases[i].engine);
      g_assert_cmpstr (version, ==, cases[i].version);
      g_free (version);
    }

  /* the candidate's own version wins; the brief's applies to the same engine only */
  procura_fit_engine_resolve ("vllm", "vLLM 0.10.1", &engine, &version);
  g_assert_cmpstr (version, ==, "0.10.1");
  g_free (version);
  procura_fit_engine_resolve ("vllm 0.19.0", "vLLM 0.10.1", &engine, &version);
  g_assert_cmpstr (version, ==, "0.19.0");
  g_free (version);
  procura_fit_engine_resolve ("sglang", "vLLM 0.10.1", &engine, &version);
  g_assert_cmpint (engine, ==, PROCURA_ENGINE_SGLANG);
  g_assert_null (version);
  procura_fit_engine_resolve (NULL, "vllm 0.10.1", &engine, &version);
  g_assert_cmpint (engine, ==, PROCURA_ENGINE_VLLM);
  g_assert_cmpstr (version, ==, "0.10.1");
  g_free (version);
  procura_fit_engine_resolve ("tensorrt-llm", "vllm 0.10.1", &engine, &version);
  g_assert_null (version);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fit/dtypes", test_dtypes);
  g_test_add_func ("/fit/param-count", test_param_count);
  g_test_add_func ("/fit/weights-tp-pp", test_weights_tp_pp);
  g_test_add_func ("/fit/weights-quantised", test_weights_quantised);
  g_test_add_func ("/fit/weights-moe-mxfp4", test_weights_moe_mxfp4);
  g_test_add_func ("/fit/kv-per-token", test_kv_per_token);
  g_test_add_func ("/fit/budget-and-blocks", test_budget_and_blocks);
  g_test_add_func ("/fit/given-pool", test_given_pool);
  g_test_add_func ("/fit/weights-limit-smallest-tp", test_weights_limit_and_smallest_tp);
  g_test_add_func ("/fit/parallelism", test_parallelism);
  g_test_add_func ("/fit/hybrid-rule", test_hybrid_rule);
  g_test_add_func ("/fit/sglang", test_sglang);
  g_test_add_func ("/fit/sglang-swa", test_sglang_swa);
  g_test_add_func ("/fit/vision-tower", test_vision_tower);
  g_test_add_func ("/fit/vision-qwen2-vl", test_vision_qwen2_vl);
  g_test_add_func ("/fit/vision-qwen2.5-vl", test_vision_qwen2_5_vl);
  g_test_add_func ("/fit/vision-llama4", test_vision_llama4);
  g_test_add_func ("/fit/chunked-llama4", test_chunked_llama4);
  g_test_add_func ("/fit/chunked-no-rope-layers", test_chunked_no_rope_layers);
  g_test_add_func ("/fit/sglang-vlm", test_sglang_vlm);
  g_test_add_func ("/fit/rope-tables", test_rope_tables);
  g_test_add_func ("/fit/shape-round-trip", test_shape_round_trip);
  g_test_add_func ("/fit/estimates-labelled", test_estimates_labelled);
  g_test_add_func ("/fit/bad-requests", test_bad_requests);
  g_test_add_func ("/fit/reconcile", test_reconcile);
  g_test_add_func ("/fit/grid", test_grid);
  g_test_add_func ("/fit/map", test_map);
  g_test_add_func ("/fit/catalog-params", test_catalog_params);
  g_test_add_func ("/fit/model-window", test_model_window);
  g_test_add_func ("/fit/model-window-rope", test_model_window_rope);
  g_test_add_func ("/fit/quant-outside-config", test_quant_outside_config);
  g_test_add_func ("/fit/catalog-usable-memory", test_catalog_usable_memory);
  g_test_add_func ("/fit/map-pp", test_map_pp);
  g_test_add_func ("/fit/engine-from-text", test_engine_from_text);
  return g_test_run ();
}
