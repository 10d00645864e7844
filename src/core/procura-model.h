/* procura-model.h: the plain data of a decision, shared by every part of Procura
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * These are plain C structs (no GObject): importers fill them, the store reads and
 * writes them, the analysis reads them. Units inside: milliseconds for latencies,
 * seconds for durations, bytes, tokens, requests/s, tokens/s, and the project's
 * currency (default USD) for money. Unknown numbers are NAN, unknown counts -1,
 * unknown strings NULL. Every struct has a _free() and a g_autoptr() cleanup.
 */
#pragma once

#include <glib.h>
#include <math.h>

G_BEGIN_DECLS

/* ------------------------------------------------------------------------- */
/* Provenance: where an imported thing came from                              */

typedef struct {
  gint64  id;             /* store row id, 0 when not stored yet */
  char   *file_name;      /* base name of the file as the user gave it */
  gint64  size;           /* bytes */
  char   *sha256;         /* lower-case hex */
  char   *importer;       /* e.g. "vllm-bench-serve" */
  char   *format_version; /* e.g. "guidellm-v2", may be NULL */
  char   *imported_at;    /* ISO 8601 UTC */
} ProcuraProvenance;

ProcuraProvenance *procura_provenance_new  (void);
ProcuraProvenance *procura_provenance_copy (const ProcuraProvenance *p);
void               procura_provenance_free (ProcuraProvenance *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraProvenance, procura_provenance_free)

/* ------------------------------------------------------------------------- */
/* Benchmark runs                                                             */

typedef enum {
  PROCURA_SOURCE_AS_REPORTED = 0,   /* the file's own figure */
  PROCURA_SOURCE_RECOMPUTED  = 1,   /* recomputed from per-request samples */
} ProcuraSource;

/* One statistic of one latency metric, e.g. ttft p99 = 812.4 ms (recomputed, n=1000). */
typedef struct {
  char          *metric;   /* "ttft", "tpot", "tpot_incl_first", "itl", "e2e" */
  char          *stat;     /* "mean", "std", "min", "max", "p50", "p90", "p99", "p99.9", ... */
  double         value;    /* milliseconds */
  ProcuraSource  source;
  gint64         samples;  /* sample count when recomputed, -1 otherwise */
} ProcuraStat;

/* Per-request samples of one metric, milliseconds (or tokens for *_len). */
typedef struct {
  char   *metric;   /* "ttft", "tpot", "itl", "e2e", "input_len", "output_len" */
  double *values;
  gsize   n;
  /* the finite values in ascending order, sorted once on first use by
   * procura_samples_sorted() and kept until the values change; NULL before */
  double *sorted;
  gsize   n_sorted;
} ProcuraSamples;

/* A sorted quantile summary of one metric's per-request samples: the order statistics of
 * the finite values at @k ranks (0-based, ascending, always including the smallest, the
 * largest and the first value above 0), built by procura_quantiles_new() and kept in the
 * project so a CDF needs neither the samples nor their sort. With the ranks at most
 * g = ceil((n - 1) / (PROCURA_QUANTILES_GRID - 1)) apart, the empirical CDF it gives is
 * within (g - 1) / n of the one of all samples at every x (docs/project-file.md). */
typedef struct {
  char    *metric;
  gsize    n;        /* finite values summarised */
  gsize    k;        /* order statistics kept (n when n <= PROCURA_QUANTILES_GRID + 1) */
  guint64 *ranks;    /* k ranks, ascending */
  double  *values;   /* k values: the sorted finite samples at those ranks */
} ProcuraQuantiles;

typedef struct {
  char   *model;           /* model id as the file names it */
  char   *engine;          /* "vllm", "sglang", "tensorrt-llm", ... */
  char   *engine_version;
  char   *gpu_name;        /* as the file names it; normalise with the catalog */
  int     gpu_count;       /* -1 unknown */
  int     tp, pp, dp;      /* -1 unknown */
  char   *load_type;       /* "rate", "concurrency", "throughput", "synchronous", ... */
  double  load_value;      /* req/s for "rate" (INFINITY for unlimited), sequences for "concurrency" */
  double  input_len;       /* tokens per request (mean or fixed), NAN unknown */
  double  output_len;
} ProcuraScenario;

typedef struct {
  gint64             id;              /* store row id */
  gint64             candidate_id;    /* 0 when not assigned */
  char              *label;           /* human name of the run, e.g. "rate 8 req/s" */
  char              *format;          /* importer id */
  char              *format_version;
  ProcuraScenario    scenario;

  /* Summary figures (NAN / -1 when the file lacks them) */
  double             duration_s;
  gint64             completed;
  gint64             failed;
  double             request_throughput;  /* req/s */
  double             output_throughput;   /* tok/s */
  double             total_throughput;    /* tok/s */
  double             input_tokens_mean;
  double             output_tokens_mean;

  GPtrArray         *stats;     /* of ProcuraStat* */
  GPtrArray         *samples;   /* of ProcuraSamples* */
  GPtrArray         *warnings;  /* of char* */
  char              *extras_json; /* format-specific leftovers worth keeping (telemetry...), may be NULL */
  ProcuraProvenance *provenance;  /* owned, may be NULL */
  GPtrArray         *quantiles; /* of ProcuraQuantiles*: summaries loaded without the samples */
} ProcuraRun;

ProcuraRun     *procura_run_new          (void);
void            procura_run_free         (ProcuraRun *run);
void            procura_run_add_stat     (ProcuraRun    *run,
                                          const char    *metric,
                                          const char    *stat,
                                          double         value_ms,
                                          ProcuraSource  source,
                                          gint64         samples);
/* Returns NULL when absent; prefers the recomputed figure when both exist. */
const ProcuraStat *procura_run_get_stat  (const ProcuraRun *run,
                                          const char       *metric,
                                          const char       *stat);
/* Takes ownership of @values (g_malloc'ed). */
void            procura_run_take_samples (ProcuraRun *run,
                                          const char *metric,
                                          double     *values,
                                          gsize       n);
const ProcuraSamples *procura_run_get_samples (const ProcuraRun *run,
                                               const char       *metric);
void            procura_run_add_warning  (ProcuraRun *run,
                                          const char *format,
                                          ...) G_GNUC_PRINTF (2, 3);
void            procura_samples_free     (ProcuraSamples *s);
/* Takes ownership of @q, replacing the run's summary of the same metric. */
void            procura_run_take_quantiles (ProcuraRun       *run,
                                            ProcuraQuantiles *q);
const ProcuraQuantiles *procura_run_get_quantiles (const ProcuraRun *run,
                                                   const char       *metric);
void            procura_quantiles_free   (ProcuraQuantiles *q);
void            procura_stat_free        (ProcuraStat *s);
void            procura_scenario_clear   (ProcuraScenario *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraRun, procura_run_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraQuantiles, procura_quantiles_free)

/* ------------------------------------------------------------------------- */
/* Quotes                                                                     */

typedef enum {
  PROCURA_QUOTE_GPU = 0,
  PROCURA_QUOTE_API = 1,
} ProcuraQuoteKind;

typedef struct {
  gint64            id;
  ProcuraQuoteKind  kind;
  char             *provider;
  char             *sku;             /* instance type */
  char             *gpu_name;        /* as quoted */
  char             *gpu_id;          /* catalog id after normalisation, NULL if unknown */
  int               gpu_count;       /* GPUs per instance */
  double            price_per_hour;  /* per instance-hour */
  char             *currency;        /* ISO 4217, default "USD" */
  char             *pricing_model;   /* "on-demand", "spot", "reserved", "committed" */
  double            term_months;     /* reserved/committed, NAN otherwise */
  double            min_commitment;  /* money, NAN if none */
  char             *region;
  char             *seen_date;       /* YYYY-MM-DD the price was seen */
  char             *source;          /* URL or document */
  double            storage_per_gb_month;
  double            egress_per_gb;
  double            support_pct;
  double            setup_fee;
  char             *notes;
  /* API route quotes */
  char             *api_model;
  double            price_input_per_mtok;
  double            price_cached_per_mtok;
  double            price_output_per_mtok;
  double            rate_limit_rpm;  /* requests per minute, NAN if none */
  double            rate_limit_tpm;  /* tokens per minute, NAN if none */
  gint64            provenance_id;
} ProcuraQuote;

ProcuraQuote *procura_quote_new  (void);
ProcuraQuote *procura_quote_copy (const ProcuraQuote *q);
void          procura_quote_free (ProcuraQuote *q);
/* Price per GPU-hour (price_per_hour / gpu_count), NAN when unknown. */
double        procura_quote_price_per_gpu_hour (const ProcuraQuote *q);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraQuote, procura_quote_free)

/* ------------------------------------------------------------------------- */
/* Candidates                                                                 */

typedef enum {
  PROCURA_CANDIDATE_GPU    = 0,
  PROCURA_CANDIDATE_API    = 1,
  PROCURA_CANDIDATE_HYBRID = 2,   /* GPUs for the base load, an API for the overflow */
} ProcuraCandidateKind;

typedef enum {
  PROCURA_PROVISION_ALWAYS_ON  = 0,
  PROCURA_PROVISION_SCHEDULED  = 1,
  PROCURA_PROVISION_AUTOSCALED = 2,
} ProcuraProvisioning;

typedef struct {
  gint64                id;
  char                 *name;
  ProcuraCandidateKind  kind;
  /* GPU candidates */
  char                 *gpu_name;          /* catalog id or free text */
  int                   gpus_per_replica;
  char                 *provider;
  char                 *pricing_model;
  char                 *region;
  char                 *engine;
  int                   tp, pp;
  gint64                quote_id;          /* 0 when typed in */
  double                price_per_gpu_hour;
  char                 *price_date;        /* YYYY-MM-DD the price was seen */
  ProcuraProvisioning   provisioning;
  double                billed_hours;      /* scheduled: hours billed in the window */
  double                target_utilization;/* autoscaled */
  double                capacity_override; /* req/s typed in, NAN to use the benchmarks */
  char                 *interconnect;      /* e.g. "NVLink 900 GB/s", NULL unknown */
  /* per-window cost lines */
  double                storage;
  double                network;
  double                serving_stack;
  double                observability;
  double                labor_hours;
  double                labor_rate;
  /* API routes (and the API side of a hybrid) */
  char                 *api_provider;
  char                 *api_model;
  double                input_tokens;       /* per request */
  double                cached_input_tokens;
  double                output_tokens;
  double                price_input_per_mtok;
  double                price_cached_per_mtok;
  double                price_output_per_mtok;
  double                gateway;            /* per window */
  double                rate_limit_rpm;
  char                 *notes;
  /* v4: buying the GPUs ("buy" is never advised without these) */
  double                purchase_price_per_gpu; /* capex per GPU */
  double                depreciation_years;
  double                power_per_gpu_hour;     /* energy, money per GPU-hour */
  double                hosting_per_gpu_month;  /* rack, cooling, operations */
} ProcuraCandidate;

ProcuraCandidate *procura_candidate_new  (void);
ProcuraCandidate *procura_candidate_copy (const ProcuraCandidate *c);
void              procura_candidate_free (ProcuraCandidate *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraCandidate, procura_candidate_free)

/* ------------------------------------------------------------------------- */
/* The workload brief and the project-wide assumptions                        */

typedef struct {
  char   *workload_type;      /* "online-inference", "batch-inference", "embeddings", "code-agents",
                                 "image-generation", "video-generation", "training", "fine-tuning",
                                 "evaluation" */
  char   *model_shape;        /* model id (catalog) or free text */
  double  input_tokens;       /* request shape: typical (p95) input tokens */
  double  output_tokens;      /* max / typical output tokens */
  double  context_tokens;     /* target context (input + output), NAN = input + output */
  double  concurrency;        /* target concurrent sequences per replica, NAN unknown */
  char   *success_unit;       /* "accepted response", "accepted output token", ... */
  char   *slo_metric;         /* "ttft", "tpot", "itl", "e2e" */
  double  slo_percentile;     /* 50..100, e.g. 99 */
  double  slo_threshold_ms;
  char   *duty_cycle;         /* "always-on", "business-hours", "batch-window", "bursty" */
  char   *operating_boundary; /* "cloud", "on-prem", "sovereign", "any" ... free text */
  char   *tooling;            /* "vllm", "sglang", "tensorrt-llm", ... free text */
  double  demand_average;     /* requests/s */
  double  demand_peak;        /* requests/s */
  double  window_hours;       /* planning window, default 730 */
  /* v4: the mean request shape (the API is billed on it; input_tokens / output_tokens
   * above are the p95 shape) and the volumes the quote's per-GB prices apply to */
  double  input_tokens_mean;
  double  output_tokens_mean;
  double  storage_gb;         /* stored, GB */
  double  egress_gb;          /* egress per window, GB */
} ProcuraBrief;

ProcuraBrief *procura_brief_new  (void);
ProcuraBrief *procura_brief_copy (const ProcuraBrief *b);
void          procura_brief_free (ProcuraBrief *b);
/* Returns the names of the missing fields (NULL-terminated, free with g_strfreev);
 * an empty vector means the brief is complete. */
char        **procura_brief_missing (const ProcuraBrief *b);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraBrief, procura_brief_free)

typedef struct {
  double acceptance_rate;   /* NAN = not set (the analysis warns) */
  double retry_rate;
  double failure_rate;
  double headroom;          /* multiplies peak demand, default 1 */
  double stale_days;        /* a price older than this is stale, default 30 */
  char  *currency;          /* default "USD" */
} ProcuraAssumptions;

void procura_assumptions_init  (ProcuraAssumptions *a);
void procura_assumptions_clear (ProcuraAssumptions *a);

/* ------------------------------------------------------------------------- */
/* The decision                                                               */

typedef struct {
  gint64  candidate_id;   /* 0 = not decided */
  /* The hybrid (GPUs for the base load, an API for the overflow): the API route taking
   * the overflow, with candidate_id the GPU candidate of the base load; 0 = not a hybrid */
  gint64  overflow_candidate_id;
  char   *rationale;
  char   *approver;
  char   *date;           /* YYYY-MM-DD */
} ProcuraDecision;

void procura_decision_clear (ProcuraDecision *d);

/* ------------------------------------------------------------------------- */
/* Model shape (from config.json or the catalog)                              */

typedef enum {
  PROCURA_ATTN_FULL = 0,
  PROCURA_ATTN_SLIDING = 1,
  /* Llama 4's chunked local attention (text_config attention_chunk_size): a token sees
   * only the tokens of its own chunk; @sliding_window then holds the chunk size */
  PROCURA_ATTN_CHUNKED = 2,
} ProcuraLayerAttention;

typedef struct {
  char   *id;                    /* "meta-llama/Llama-3.1-8B-Instruct" */
  char   *architecture;          /* "LlamaForCausalLM" */
  int     num_layers;
  int     hidden_size;
  int     intermediate_size;
  int     moe_intermediate_size; /* 0 for dense */
  int     num_experts;           /* routed experts, 0 for dense */
  int     num_shared_experts;
  int     experts_per_token;
  int     first_dense_layers;    /* DeepSeek: first_k_dense_replace */
  int     num_attention_heads;
  int     num_kv_heads;
  int     head_dim;
  int     vocab_size;
  gboolean tie_word_embeddings;
  /* sliding window: per-layer pattern, NULL when all layers are full attention; an entry
   * is a ProcuraLayerAttention (PROCURA_ATTN_CHUNKED: @sliding_window is the chunk size;
   * a model has one kind of local layer, as vLLM requires) */
  int     sliding_window;        /* tokens, 0 when none */
  guint8 *layer_is_sliding;      /* num_layers entries, NULL = none sliding */
  /* MLA */
  int     kv_lora_rank;          /* 0 when not MLA */
  int     q_lora_rank;
  int     qk_rope_head_dim;
  int     qk_nope_head_dim;
  int     v_head_dim;
  /* quantisation as the checkpoint ships it */
  char   *weights_dtype;         /* "bf16", "fp8", "int4", "mxfp4", ... */
  int     quant_group_size;
  double  published_params;      /* NAN when unknown */
  /* the model's own window: max_position_embeddings, times the rope scaling factor
   * where vLLM applies it (yarn, dynamic, linear); 0 when config.json does not say */
  gint64  max_position_embeddings;
  /* vision tower (config.json's vision_config), all 0 when the model has none; kept in
   * the project file's model_shapes since schema version 5 */
  double  vision_params;          /* encoder + projector parameters */
  double  vision_params_split;    /* of which the encoder layers' linear weights, split by TP */
  int     vision_tokens_per_item; /* decoder tokens per image (gemma-3: mm_tokens_per_image),
                                     0 when config.json does not say */
  int     vision_image_size;      /* pixels per side of one image at the encoder, 0 unknown */
  int     vision_channels;
  /* vision_config's num_hidden_layers and hidden_size exactly as config.json states them
   * (0 when absent): SGLang sizes its VLM headroom from these two attributes alone */
  int     vision_config_layers;
  int     vision_config_hidden;
  /* the rotary embedding's cos/sin tables vLLM builds at load time, in elements (rows x
   * rotary dim, summed over the distinct tables: gemma-3 has a scaled global and an
   * unscaled local one); 0 when unknown */
  double  rope_cache_elements;
} ProcuraModelShape;

ProcuraModelShape *procura_model_shape_new  (void);
ProcuraModelShape *procura_model_shape_copy (const ProcuraModelShape *m);
void               procura_model_shape_free (ProcuraModelShape *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraModelShape, procura_model_shape_free)

/* Helpers */
gboolean procura_is_set (double v);   /* !isnan (v) */
/* "gpu", "api", "hybrid": the kind as the JSON outputs spell it */
const char *procura_candidate_kind_id (ProcuraCandidateKind kind);


/* ------------------------------------------------------------------------- */
/* Engine startup log figures (vLLM, SGLang)                                  */

typedef struct {
  gint64  id;
  gint64  candidate_id;
  char   *engine;                 /* "vllm", "sglang" */
  char   *engine_version;
  char   *model;
  char   *gpu_name;
  int     tp, pp;                 /* -1 unknown */
  double  gpu_memory_utilization; /* vLLM, NAN unknown */
  double  mem_fraction_static;    /* SGLang, NAN unknown */
  gint64  max_model_len;          /* -1 unknown */
  int     block_size;             /* -1 unknown */
  char   *kv_dtype;
  double  weights_gib;            /* "Model loading took X GiB" */
  double  kv_available_gib;       /* "Available KV cache memory: X GiB" */
  gint64  kv_tokens;              /* "GPU KV cache size: N tokens" */
  double  max_concurrency;        /* "Maximum concurrency for M tokens per request: K x" */
  double  cuda_graph_gib;
  GPtrArray *errors;              /* of char*: e.g. "No available memory for the cache blocks" */
  gint64  provenance_id;
} ProcuraEngineLog;

ProcuraEngineLog *procura_engine_log_new  (void);
void              procura_engine_log_free (ProcuraEngineLog *l);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraEngineLog, procura_engine_log_free)

/* ------------------------------------------------------------------------- */
/* Probe results, operations tests, procurement checklist                     */

typedef struct {
  gint64    id;
  gint64    candidate_id;
  char     *device_name;
  char     *test;            /* "inventory", "fit", "bandwidth", ... */
  gboolean  fits;
  double    total_bytes;
  double    free_bytes;
  double    headroom_bytes;
  double    bandwidth_gbps;  /* NAN when not measured */
  char     *json;            /* the probe's JSON Lines, verbatim */
  char     *measured_at;
  gint64    provenance_id;
} ProcuraProbeResult;

/* A fleet node that could not be probed is stored as a probe_results row of this test:
 * device_name the host, json one object {"event":"node-failed","host","status",
 * "reason"}, measured_at when it failed. Loaded into ProcuraProject.probe_failures,
 * never among the probe_results. */
#define PROCURA_PROBE_TEST_NODE_FAILED "node-failed"

ProcuraProbeResult *procura_probe_result_new  (void);
void                procura_probe_result_free (ProcuraProbeResult *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraProbeResult, procura_probe_result_free)

typedef struct {
  gint64  id;
  gint64  candidate_id;
  char   *kind;             /* "kill-worker", "drain-node", "restart-stack", "bad-deploy",
                               "cold-start", "checkpoint-recovery" */
  char   *result;           /* "pass", "fail", "not-run" */
  double  recovery_s;       /* time to recover / load, NAN unknown */
  double  failed_requests;  /* requests lost during the test, NAN unknown */
  double  per_month;        /* expected occurrences per planning window, NAN unknown */
  char   *notes;
} ProcuraOpsTest;

ProcuraOpsTest *procura_ops_test_new  (void);
void            procura_ops_test_free (ProcuraOpsTest *t);

typedef struct {
  gint64  id;
  gint64  candidate_id;
  char   *section;          /* "hardware", "software", "commercial", "security" */
  char   *item;
  char   *answer;           /* "yes", "no", "partial", "unknown" */
  char   *evidence;
  char   *evidence_file;    /* a path or URI backing the evidence, or NULL */
} ProcuraChecklistItem;

ProcuraChecklistItem *procura_checklist_item_new  (void);
void                  procura_checklist_item_free (ProcuraChecklistItem *i);

/* The analyst's answer to one analysis warning (see procura-warnings.h). */
typedef struct {
  gint64  id;
  char   *warning_id;       /* the warning's stable id, e.g. "stale-price" */
  gint64  candidate_id;     /* 0 = project-wide */
  char   *answer;
  char   *answered_at;      /* ISO 8601 UTC */
} ProcuraWarningAnswer;

ProcuraWarningAnswer *procura_warning_answer_new  (void);
void                  procura_warning_answer_free (ProcuraWarningAnswer *a);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraWarningAnswer, procura_warning_answer_free)

/* ------------------------------------------------------------------------- */
/* A whole project in memory: what the analysis, figures and report read.    */

typedef struct {
  char               *title;
  char               *created;        /* ISO 8601 */
  char               *modified;
  gboolean            illustrative;   /* the bundled demo: label everything as illustrative */
  ProcuraBrief       *brief;
  ProcuraAssumptions  assumptions;
  ProcuraDecision     decision;
  GPtrArray          *candidates;     /* ProcuraCandidate* */
  GPtrArray          *quotes;         /* ProcuraQuote* */
  GPtrArray          *runs;           /* ProcuraRun* */
  GPtrArray          *engine_logs;    /* ProcuraEngineLog* */
  GPtrArray          *probe_results;  /* ProcuraProbeResult* */
  GPtrArray          *probe_failures; /* ProcuraProbeResult* of fleet nodes that could not be
                                         probed (PROCURA_PROBE_TEST_NODE_FAILED) */
  GPtrArray          *ops_tests;      /* ProcuraOpsTest* */
  GPtrArray          *checklist;      /* ProcuraChecklistItem* */
  GPtrArray          *provenance;     /* ProcuraProvenance* */
  GPtrArray          *model_shapes;   /* ProcuraModelShape* imported from config.json */
  GPtrArray          *warning_answers; /* ProcuraWarningAnswer* */
} ProcuraProject;

ProcuraProject   *procura_project_new  (void);
void              procura_project_free (ProcuraProject *p);
ProcuraCandidate *procura_project_find_candidate (ProcuraProject *p,
                                                  gint64          id);
/* Runs assigned to @candidate_id, in the project's order (borrowed pointers). */
GPtrArray        *procura_project_runs_for (ProcuraProject *p,
                                            gint64          candidate_id);
/* The answer to warning @warning_id about @candidate_id (0 = project-wide), NULL when
 * it has none. */
const ProcuraWarningAnswer *procura_project_find_answer (ProcuraProject *p,
                                                         const char     *warning_id,
                                                         gint64          candidate_id);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraProject, procura_project_free)

G_END_DECLS
