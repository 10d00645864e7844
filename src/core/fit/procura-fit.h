/* procura-fit.h: memory fit, the calculator that matches the serving engines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything here is plain C on plain structs: a request in, a result out, no
 * allocation for one fit (the result holds fixed-size text), so that the fit map
 * (thousands of fits) and the probe plan are cheap. Specification: the design's
 * MEMORY-FIT.md. All figures are bytes per GPU unless the name says
 * otherwise; tokens are per replica (all GPUs of one TP x PP group together), as
 * vLLM reports them.
 *
 * Which figures are exact and which are estimates:
 * - weights, KV bytes per token, KV blocks and tokens from a given pool: computed
 *   from the model shape (exact up to small tensors such as norms and biases);
 * - activation peak, non-torch allocations, CUDA graph pool and CUDA context: estimates
 *   (flagged in @estimates and in each part) under the rules of the engine version
 *   (@engine_version: vLLM 0.10 and 0.19 fitted on their startup logs, see
 *   docs/memory-fit.md); an engine log or the probe replaces them through the request's
 *   overrides.
 *
 * Predicted from what a user knows (tests/fit/test-fit-predict.c), "GPU KV cache size"
 * comes within 1 % (median 0.1 %) of 12 vLLM startup logs and 31 runs of llm-d-planner's
 * v0.19.0 table; bench/fit/README.md has the distribution and the known failures.
 *
 * Checked against real engines (tests/fit/test-fit-conformance.c): given the engine's
 * own pool, "GPU KV cache size" within 0.07 % and "Model loading took" within 0.7 % for
 * Llama-3.1-8B (bf16 and fp8 KV), Qwen2-7B (TP 1, 2), gemma-2-9b, Qwen2.5-72B TP 2,
 * Mixtral-8x7B TP 2, DeepSeek-V2-Lite (MLA) and gpt-oss-20b/120b (hybrid), vLLM 0.10 and
 * 0.19 on A100 and H100.
 */
#pragma once

#include <glib.h>

#include "procura-model.h"
#include "procura-gpu-catalog.h"

G_BEGIN_DECLS

#define PROCURA_GIB (1073741824.0)

typedef enum {
  PROCURA_DTYPE_AUTO = 0,  /* weights: as the checkpoint ships (model->weights_dtype, else bf16);
                              KV cache: the model's activation dtype (bf16, fp16 or fp32) */
  PROCURA_DTYPE_FP32,
  PROCURA_DTYPE_BF16,
  PROCURA_DTYPE_FP16,
  PROCURA_DTYPE_FP8,
  PROCURA_DTYPE_INT8,
  PROCURA_DTYPE_INT4,      /* with one 2-byte scale per group (group size in the request) */
  PROCURA_DTYPE_MXFP4,     /* 4-bit elements + one 1-byte E8M0 scale per 32 (MoE experts only) */
  PROCURA_DTYPE_NF4,       /* QLoRA: 4-bit + double-quantised scales (training only) */
  PROCURA_DTYPE_NVFP4,     /* 4-bit elements + one 1-byte FP8 scale per 16 (ModelOpt FP4) */
} ProcuraDtype;

/* Accepts "fp32"/"float32", "bf16"/"bfloat16", "fp16"/"float16"/"half", "fp8"
 * ("fp8_e4m3", "fp8_e5m2"), "int8", "int4" ("awq", "gptq", "w4a16"), "mxfp4", "nf4",
 * "nvfp4" ("fp4"), "auto"; case-insensitive. */
gboolean    procura_dtype_parse     (const char   *text,
                                     ProcuraDtype *out);
const char *procura_dtype_to_string (ProcuraDtype  dtype);
/* Bytes per element including the scales (int4: 0.5 + 2 / @group_size). */
double      procura_dtype_bytes     (ProcuraDtype  dtype,
                                     int           group_size);

typedef enum {
  PROCURA_ENGINE_VLLM = 0,
  PROCURA_ENGINE_SGLANG = 1,
} ProcuraFitEngine;

/* How sliding-window layers are counted in the KV cache. */
typedef enum {
  PROCURA_KV_RULE_AUTO = 0,
  /* every layer holds every token (models without sliding windows; vLLM with
   * --disable-sliding-window; SGLang without its hybrid SWA pool) */
  PROCURA_KV_RULE_ALL_FULL,
  /* vLLM V1 hybrid allocator: layers are grouped by kind into groups of equal size
   * sharing one page pool; "GPU KV cache size" = blocks / groups x block size (as if
   * every layer were full attention), while a sequence needs only
   * min(window - 1 + max_num_batched_tokens, context) tokens (+1 block) in each
   * sliding group: max concurrency is blocks / blocks per sequence. */
  PROCURA_KV_RULE_VLLM_HYBRID,
  /* SGLang's hybrid SWA pools (model_runner.py set_num_token_hybrid, server_args
   * swa_full_tokens_ratio 0.8): the pool that would hold T tokens in every layer is split
   * into a full-attention pool of F = T x layers / (ratio x sliding layers + full layers)
   * tokens ("max_total_num_tokens") and a sliding-window pool of ratio x F tokens; a
   * sequence needs its context in the first and min(window, context) in the second. */
  PROCURA_KV_RULE_SGLANG_SWA,
} ProcuraKvRule;

typedef struct {
  const ProcuraModelShape *model;        /* borrowed */
  ProcuraDtype      weights_dtype;       /* AUTO = the checkpoint's */
  ProcuraDtype      kv_dtype;            /* AUTO = activation dtype */
  int               quant_group_size;    /* int4; 0 = the model's, else 128 */
  gint64            context_tokens;      /* per sequence, input + output (max_model_len) */
  gint64            concurrency;         /* concurrent sequences per replica */
  int               tp, pp;
  ProcuraFitEngine  engine;
  double            gpu_memory_utilization; /* vLLM; NAN = 0.90 */
  double            mem_fraction_static;    /* SGLang; NAN = 0.88 */
  double            swa_full_tokens_ratio;  /* SGLang hybrid SWA; NAN = 0.8 */
  int               block_size;          /* tokens per KV block; 0 = 16 (vLLM), 1 (SGLang) */
  /* Prefill chunk and sampler rows of the profiling run; 0 = the engine's default for
   * the GPU: vLLM's API server uses 8192 and 1024 on GPUs of 70 GiB or more other than
   * the A100, 2048 and 256 elsewhere (SGLang: 8192 and 1024). */
  gint64            max_num_batched_tokens;
  int               max_num_seqs;
  const char       *gpu_id;              /* catalog id or name, for those defaults; may be NULL */
  gboolean          cuda_graphs;         /* default TRUE */
  /* vLLM: subtract the CUDA graph pool from the budget (the equation of MEMORY-FIT.md and
   * VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1); FALSE: vLLM <= 0.19 default, the graphs
   * come out of the (1 - gpu_memory_utilization) share. Default TRUE. */
  gboolean          cuda_graphs_in_budget;
  ProcuraKvRule     kv_rule;
  /* Engine version whose profiling rules apply ("0.19.0", "0.10.1.1"; vLLM only): the
   * activation peak and non-torch estimates, and where CUDA graphs are taken from (which
   * then overrides @cuda_graphs_in_budget). NULL: the newest known version's estimates,
   * with @cuda_graphs_in_budget as given. See procura_fit_engine_versions(). */
  const char       *engine_version;
  double            usable_memory_bytes; /* per GPU as the driver reports it (catalog or
                                            --gpu-memory-gib); required */
  /* Overrides (NAN = computed): the engine's own figures from a startup log or the probe. */
  double            kv_pool_bytes;       /* per GPU (--kv-pool-gib) */
  double            activation_bytes;
  double            non_torch_bytes;
  double            cuda_graph_bytes;
  double            weights_bytes;
} ProcuraFitRequest;

/* Defaults: AUTO dtypes, context 8192, concurrency 1, TP 1, PP 1, vLLM 0.90, graphs on,
 * usable memory NAN (must be set), no overrides. @model stays NULL. */
void procura_fit_request_init (ProcuraFitRequest *request);

typedef enum {
  PROCURA_FIT_PART_WEIGHTS = 0,
  PROCURA_FIT_PART_KV_CACHE,      /* the KV cache the target needs (concurrency x context) */
  PROCURA_FIT_PART_KV_SPARE,      /* the rest of the engine's KV pool */
  PROCURA_FIT_PART_ACTIVATIONS,   /* estimate: prefill chunk + sampler */
  PROCURA_FIT_PART_NON_TORCH,     /* estimate: NCCL / custom all-reduce buffers ... */
  PROCURA_FIT_PART_CUDA_GRAPHS,   /* estimate */
  PROCURA_FIT_PART_CUDA_CONTEXT,  /* estimate, outside the engine's budget */
  PROCURA_FIT_PART_HEADROOM,      /* what is left of usable memory (>= 0) */
  PROCURA_FIT_N_PARTS
} ProcuraFitPartKind;

typedef struct {
  ProcuraFitPartKind kind;
  const char        *id;        /* "weights", "kv-cache", "kv-spare", "activations", ... */
  double             bytes;     /* per GPU, >= 0 */
  gboolean           estimate;
} ProcuraFitPart;

typedef enum {
  PROCURA_FIT_LIMIT_NONE = 0,
  PROCURA_FIT_LIMIT_PARALLELISM,  /* TP does not divide the attention heads, bad PP ... */
  PROCURA_FIT_LIMIT_WEIGHTS,      /* the weights alone exceed the engine's budget */
  PROCURA_FIT_LIMIT_ACTIVATIONS,  /* weights + activation peak exceed it */
  PROCURA_FIT_LIMIT_OVERHEAD,     /* ... + non-torch + CUDA graphs exceed it */
  PROCURA_FIT_LIMIT_CONTEXT,      /* the pool holds less than one sequence of the context */
  PROCURA_FIT_LIMIT_KV_CACHE,     /* the pool holds fewer than concurrency sequences */
  PROCURA_FIT_LIMIT_HEADROOM,     /* a given pool leaves negative headroom */
} ProcuraFitLimit;

/* "none", "parallelism", "weights", "activations", "overhead", "context", "kv-cache",
 * "headroom" */
const char *procura_fit_limit_to_string (ProcuraFitLimit limit);

enum {
  PROCURA_FIT_ESTIMATE_ACTIVATIONS = 1 << 0,
  PROCURA_FIT_ESTIMATE_NON_TORCH   = 1 << 1,
  PROCURA_FIT_ESTIMATE_CUDA_GRAPHS = 1 << 2,
  PROCURA_FIT_ESTIMATE_KV_POOL     = 1 << 3,  /* the pool follows from estimates */
  PROCURA_FIT_ESTIMATE_USABLE      = 1 << 4,  /* usable memory is not a driver figure */
};

typedef struct {
  /* inputs as resolved */
  int           tp, pp, gpus;          /* gpus = tp x pp */
  int           block_size;
  ProcuraDtype  weights_dtype, kv_dtype;
  ProcuraKvRule kv_rule;
  double        usable_memory_bytes;
  double        budget_bytes;          /* usable x utilization (vLLM) or x mem_fraction_static */
  gint64        context_tokens, concurrency;

  /* weights, per GPU (the heaviest pipeline stage) */
  double        params_total;          /* whole model, from the shape */
  double        weights_bytes;
  double        weights_total_bytes;   /* whole model, one copy */
  double        embedding_bytes;       /* per GPU: embeddings + LM head on this stage, and
                                          the rotary tables */
  double        rope_bytes;            /* per GPU: the engine's rotary cos/sin tables */
  double        sglang_vlm_factor;     /* SGLang's default mem_fraction_static lowered for a
                                          vision tower by this factor; 0 when not applied */
  double        dense_layer_bytes;     /* one dense decoder layer, per GPU */
  double        moe_layer_bytes;       /* one MoE decoder layer, per GPU (0 when dense) */
  int           layers_per_gpu;        /* decoder layers on the heaviest stage */

  /* KV cache */
  double        kv_bytes_per_token_layer; /* one layer, per GPU */
  double        kv_bytes_per_token;    /* per GPU, as the engine's token count uses it */
  double        kv_bytes_per_token_needed; /* per GPU, what a token really needs with the
                                              rule (sliding layers saturated) */
  double        kv_page_bytes;         /* one block of one layer */
  double        kv_pool_bytes;         /* per GPU */
  gint64        kv_blocks;             /* per layer group (vLLM num_gpu_blocks) */
  gint64        kv_tokens;             /* "GPU KV cache size", whole blocks (SGLang's
                                          hybrid SWA: the full-attention pool) */
  gint64        kv_swa_tokens;         /* SGLang's hybrid SWA: the sliding pool, else 0 */
  double        max_concurrency;       /* at context_tokens, as vLLM reports it */
  gint64        max_concurrency_int;   /* whole sequences */
  gint64        max_context;           /* at concurrency, whole blocks (0 when none), capped
                                          at the model's own window */
  gint64        max_context_pool;      /* the same from the pool alone, before the cap */
  gint64        model_max_context;     /* the model's window (max_position_embeddings with
                                          rope scaling), 0 when the shape does not say */
  char          engine_rules[48];      /* "vllm 0.19" (the rules applied), "sglang" */
  gint64        tokens_needed;         /* concurrency x context rounded to blocks */
  double        kv_needed_bytes;       /* per GPU for the target */

  /* estimates (see request overrides) */
  double        activation_bytes;
  double        non_torch_bytes;
  double        cuda_graph_bytes;
  double        cuda_context_bytes;

  double        headroom_bytes;        /* usable - everything allocated (may be negative) */
  gboolean      fits;
  ProcuraFitLimit limit;
  char          limit_text[256];       /* a sentence naming the part and the figures */
  guint         estimates;             /* PROCURA_FIT_ESTIMATE_* */
  char          caveat[1024];          /* empty, or the sliding-window rule applied, ... */

  ProcuraFitPart parts[PROCURA_FIT_N_PARTS]; /* in ProcuraFitPartKind order */
} ProcuraFitResult;

/* Computes one fit. FALSE with an error (G_IO_ERROR_INVALID_ARGUMENT) naming the field
 * when the request is unusable (no model, TP < 1, usable memory unset, ...). A request
 * that is valid but does not fit returns TRUE with fits = FALSE and the limit. */
gboolean procura_fit_compute (const ProcuraFitRequest *request,
                              ProcuraFitResult        *result,
                              GError                 **error);

/* The engine versions with their own profiling rules, newest first, NULL-terminated
 * ("0.20", "0.19", "0.10"; 0.20 stands for every later version and is not checked
 * against a log); docs/memory-fit.md says what each changes. */
const char * const *procura_fit_engine_versions (void);
/* TRUE when @version ("0.19.0", "v0.10.1.1") parses as MAJOR.MINOR[...]. */
gboolean procura_fit_engine_version_valid (const char *version);

/* Quantisation declared outside config.json. From an hf_quant_config.json (NVIDIA
 * ModelOpt: quantization.quant_algo FP8, NVFP4, W4A16_AWQ, W8A8..., kv_cache_quant_algo):
 * the weights and KV dtypes (KV AUTO when it says none); FALSE with an error naming the
 * file and key when the file is not such a JSON or names an algorithm the calculator does
 * not know. */
gboolean procura_fit_read_hf_quant_config (const char   *path,
                                           ProcuraDtype *weights,
                                           ProcuraDtype *kv,
                                           GError      **error);
/* From a model id ("nvidia/Llama-3.1-70B-Instruct-FP8", "...-NVFP4", "...-AWQ",
 * "...-W8A8", "...-Int4"): the dtype the name declares, AUTO when none. */
ProcuraDtype procura_fit_quant_from_name (const char *model_id);

/* SGLang's factor on its default mem_fraction_static for a model with a vision tower
 * (server_args.py, adjust_mem_fraction_for_vlm); 1 without a tower. */
double   procura_fit_sglang_vlm_factor (const ProcuraModelShape *model);

/* Parameter count of the shape computed the way the fit counts weights (total). */
double   procura_fit_param_count (const ProcuraModelShape *model);

/* KV bytes per token per GPU for one full-attention layer (MHA/GQA/MQA: 2 x
 * max(kv_heads / tp, 1) x head_dim x bytes; MLA: (kv_lora_rank + qk_rope_head_dim) x
 * bytes, not split by TP). */
double   procura_fit_kv_bytes_per_token_layer (const ProcuraModelShape *model,
                                               int                      tp,
                                               ProcuraDtype             kv_dtype);

/* Smallest TP of 1, 2, 4, 8 with which @request (its tp ignored) fits in
 * @usable_memory_bytes; fills @result for it (or for TP 8 when none fits).
 * Returns the TP, or -1 when none fits (or on a bad request). */
int      procura_fit_smallest_tp (const ProcuraFitRequest *request,
                                  double                   usable_memory_bytes,
                                  ProcuraFitResult        *result);

/* Usable bytes of a catalog GPU (driver figure, else marketed GB, flagged). */
double   procura_fit_gpu_usable_bytes (const ProcuraGpuSpec *gpu,
                                       gboolean                    *is_driver_figure);

/* ------------------------------------------------------------------------- */
/* The fit map: GPU x TP x context x concurrency, for the GUI's heat map.      */

typedef struct {
  guint8  fits;
  guint8  limit;             /* ProcuraFitLimit */
  float   headroom_gib;      /* per GPU */
  float   max_concurrency;   /* at this cell's context */
  float   kv_fraction;       /* KV the cell needs / KV pool, 0..inf (> 1: does not fit) */
} ProcuraFitMapCell;

typedef struct {
  gsize              n_gpus, n_tps, n_contexts, n_concurrencies;
  char             **gpu_ids;        /* n_gpus, owned */
  char             **gpu_names;      /* n_gpus, owned */
  int               *tps;            /* n_tps */
  gint64            *contexts;       /* n_contexts, ascending */
  gint64            *concurrencies;  /* n_concurrencies, ascending */
  /* per (gpu, tp): the pool, tokens and weights, independent of the grid */
  gint64            *kv_tokens;      /* [g * n_tps + t], -1 when the weights do not fit */
  double            *weights_bytes;  /* [g * n_tps + t] */
  double            *kv_pool_bytes;  /* [g * n_tps + t] */
  ProcuraFitMapCell *cells;          /* [((g * n_tps + t) * n_contexts + c) * n_concurrencies + k] */
} ProcuraFitMap;

void     procura_fit_map_free (ProcuraFitMap *map);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraFitMap, procura_fit_map_free)

/* As procura_fit_map, with a pipeline-parallel size per GPU (@pps, n_gpus entries; NULL
 * or an entry < 1 = @base's pp): each stage has its own pool, as in procura_fit_compute. */
ProcuraFitMap *procura_fit_map_full (const ProcuraFitRequest            *base,
                                     const ProcuraGpuSpec * const        *gpus,
                                     const int                           *pps,
                                     gsize                                n_gpus,
                                     const int                           *tps,
                                     gsize                                n_tps,
                                     const gint64                        *contexts,
                                     gsize                                n_contexts,
                                     const gint64                        *concurrencies,
                                     gsize                                n_concurrencies,
                                     GError                             **error);
/* Evaluates @base (its context, concurrency and tp replaced) for every GPU of @gpus
 * (catalog entries; those with unknown memory use the marketed figure) x @tps x
 * @contexts x @concurrencies. NULL with an error when @base is unusable. */
ProcuraFitMap *procura_fit_map (const ProcuraFitRequest            *base,
                                const ProcuraGpuSpec * const        *gpus,
                                gsize                                n_gpus,
                                const int                           *tps,
                                gsize                                n_tps,
                                const gint64                        *contexts,
                                gsize                                n_contexts,
                                const gint64                        *concurrencies,
                                gsize                                n_concurrencies,
                                GError                             **error);
/* The cell at the given indices. */
const ProcuraFitMapCell *procura_fit_map_cell (const ProcuraFitMap *map,
                                               gsize                gpu,
                                               gsize                tp,
                                               gsize                context,
                                               gsize                concurrency);
/* @n values from @lo to @hi spaced geometrically, rounded to integers, strictly
 * ascending (a value that rounds onto the one before becomes that + 1; fewer than @n
 * only when hi - lo + 1 < n); free with g_free. */
gint64  *procura_fit_geometric_grid (gint64  lo,
                                     gint64  hi,
                                     gsize   n,
                                     gsize  *n_out);

/* ------------------------------------------------------------------------- */
/* Training and fine-tuning                                                   */

typedef enum {
  PROCURA_TRAIN_FULL = 0,
  PROCURA_TRAIN_LORA,
  PROCURA_TRAIN_QLORA,
} ProcuraTrainMethod;

typedef enum {
  PROCURA_OPTIMIZER_ADAM = 0,     /* fp32 moments m and v: 8 bytes per trained parameter */
  PROCURA_OPTIMIZER_ADAM_8BIT,    /* 8-bit blockwise moments: 2 bytes (+ block scales) */
  PROCURA_OPTIMIZER_SGD,          /* momentum only, fp32: 4 bytes */
} ProcuraOptimizer;

typedef struct {
  const ProcuraModelShape *model;   /* borrowed */
  ProcuraTrainMethod method;
  ProcuraOptimizer   optimizer;
  ProcuraDtype       param_dtype;   /* weights and gradients, AUTO = bf16 */
  gboolean           master_weights;/* fp32 master copy of trained parameters (mixed
                                       precision); default TRUE */
  int                zero_stage;    /* 0..3 (FSDP full shard = 3, shard grad op = 2) */
  int                n_gpus;        /* data-parallel GPUs sharing the states */
  gboolean           checkpointing; /* full activation recomputation per layer */
  gint64             seq_len;
  int                micro_batch;
  int                lora_rank;     /* default 16 */
  gboolean           lora_all_linear; /* adapters on every linear layer (default) or
                                         on the attention projections only */
  double             usable_memory_bytes;
} ProcuraTrainRequest;

void procura_train_request_init (ProcuraTrainRequest *request);

typedef enum {
  PROCURA_TRAIN_PART_WEIGHTS = 0,
  PROCURA_TRAIN_PART_ADAPTERS,
  PROCURA_TRAIN_PART_GRADIENTS,
  PROCURA_TRAIN_PART_MASTER,
  PROCURA_TRAIN_PART_OPTIMIZER,
  PROCURA_TRAIN_PART_ACTIVATIONS,
  PROCURA_TRAIN_PART_OVERHEAD,
  PROCURA_TRAIN_PART_HEADROOM,
  PROCURA_TRAIN_N_PARTS
} ProcuraTrainPartKind;

typedef struct {
  double          params_total;       /* base model */
  double          trainable_params;   /* full: all; (Q)LoRA: the adapters */
  double          adapter_params;
  double          weights_bytes;      /* frozen or trained base weights, per GPU */
  double          adapter_bytes;      /* adapter weights, per GPU */
  double          gradient_bytes;
  double          master_bytes;
  double          optimizer_bytes;
  double          activation_bytes;   /* estimate */
  double          overhead_bytes;     /* estimate: CUDA context, allocator, NCCL */
  double          total_bytes;
  double          headroom_bytes;
  gboolean        fits;
  char            limit[32];          /* "none" or the largest part when it does not fit */
  char            limit_text[256];
  ProcuraFitPart  parts[PROCURA_TRAIN_N_PARTS]; /* kind holds a ProcuraTrainPartKind */
} ProcuraTrainResult;

gboolean procura_fit_training (const ProcuraTrainRequest *request,
                               ProcuraTrainResult        *result,
                               GError                   **error);

/* ------------------------------------------------------------------------- */
/* Engine-log reconciliation                                                  */

typedef struct {
  const char *id;          /* "weights", "kv-pool", "kv-tokens", "kv-tokens-at-engine-pool",
                              "max-concurrency", "cuda-graphs" */
  const char *unit;        /* "GiB", "tokens", "x" */
  double      engine;      /* the log's figure, NAN when absent */
  double      calculated;
  double      difference;  /* calculated - engine */
  double      percent;     /* 100 x difference / engine, NAN when engine is 0 or absent */
} ProcuraFitReconcileRow;

/* Builds the request the log describes (TP, PP, utilization, max_model_len, block size,
 * KV dtype; vLLM <= 0.19: CUDA graphs outside the budget) over @request_base (model,
 * usable memory, engine defaults), computes the fit
 * twice — with its own pool estimate (@calculated) and with the engine's pool
 * (@at_engine_pool) — and returns the rows (GArray of ProcuraFitReconcileRow) comparing
 * them with the log. */
/* Sets what @log says of the engine's configuration on @request (engine, TP, PP,
 * utilization, max_model_len as the context, version and its CUDA graph rule, block size,
 * KV dtype); the pool and the other figures stay as they are. FALSE with an error when
 * the log names a KV dtype the calculator does not know. */
gboolean procura_fit_request_apply_log (ProcuraFitRequest      *request,
                                        const ProcuraEngineLog *log,
                                        GError                **error);

/* An engine named in free text, as a brief's tooling or a candidate's engine field says
 * it ("vllm 0.10.1", "vLLM v0.19.0", "vllm==0.11", "vllm/vllm-openai:v0.11.0",
 * "SGLang 0.4.6"): TRUE when it names vLLM or SGLang, with @version set to the version
 * (newly allocated) or NULL when none is given. */
gboolean procura_fit_engine_from_text (const char       *text,
                                       ProcuraFitEngine *engine,
                                       char            **version);

/* The engine a candidate runs and its version (newly allocated, NULL when unknown): its
 * engine field (@candidate_engine, "vllm 0.10.1"), else the brief's @tooling ("vLLM
 * 0.19.0") when that names the same engine or the candidate names none; vLLM when
 * nothing says. The analysis, the Fit page and the CLI all take it from here. */
void     procura_fit_engine_resolve (const char       *candidate_engine,
                                     const char       *tooling,
                                     ProcuraFitEngine *engine,
                                     char            **version);

/* The start of a log that holds several starts of the server (@logs: its engine logs in
 * order) to compare with: @start (1-based) when > 0, else the last successful one (it
 * states a KV cache size and no error), else the last. Returns its index (0-based) and
 * sets @successful; -1 with an error (G_IO_ERROR_INVALID_ARGUMENT) when @logs is empty or
 * @start is past its end. */
int      procura_fit_log_choose_start (const GPtrArray *logs,
                                       int              start,
                                       gboolean        *successful,
                                       GError         **error);

GArray  *procura_fit_reconcile (const ProcuraEngineLog  *log,
                                const ProcuraFitRequest *request_base,
                                ProcuraFitResult        *calculated,
                                ProcuraFitResult        *at_engine_pool,
                                GError                 **error);

G_END_DECLS
