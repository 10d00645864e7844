/* procura-cost.h: effective cost per accepted output (shared/design/COST-MODEL.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Plain structs: the GUI, figures and the report read them directly. Money is in
 * the project's currency, time in hours (window, billed hours) or seconds where
 * said, demand and capacity in requests/s. Every result carries the inputs it
 * used (name, value, where from) so that a figure can be traced.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "procura-model.h"

G_BEGIN_DECLS

#define PROCURA_COST_ERROR (procura_cost_error_quark ())
typedef enum {
  PROCURA_COST_ERROR_INVALID,   /* a member is missing, of the wrong type or out of range */
} ProcuraCostError;
GQuark procura_cost_error_quark (void);

#define PROCURA_DEFAULT_WINDOW_HOURS 730.0

/* The cost lines. Which apply depends on the kind (procura_cost_result_line_applies). */
typedef enum {
  PROCURA_COST_GPU_COMPUTE = 0,
  PROCURA_COST_IDLE_CAPACITY,
  PROCURA_COST_RETRY_WASTE,     /* media: "failed renders" */
  PROCURA_COST_STORAGE,
  PROCURA_COST_NETWORK,
  PROCURA_COST_SERVING_STACK,
  PROCURA_COST_OBSERVABILITY,
  PROCURA_COST_PLATFORM_LABOR,
  PROCURA_COST_API_TOKENS,      /* API route: tokens of first attempts */
  PROCURA_COST_GATEWAY,         /* API route: gateway / ops per window */
  PROCURA_COST_MODERATION,      /* media: moderation or quality filtering */
  PROCURA_COST_QUEUE_OVERHEAD,  /* media */
  PROCURA_COST_OPERATOR_REVIEW, /* media */
  PROCURA_COST_CHECKPOINTING,   /* run workloads */
  PROCURA_COST_FAILED_RUN_WASTE,/* run workloads */
  /* quote terms (docs/cost-model.md): each its own line, applies when its input is set */
  PROCURA_COST_STORAGE_VOLUME,  /* storage GB x price per GB-month x window months */
  PROCURA_COST_EGRESS,          /* egress GB per window x price per GB */
  PROCURA_COST_OVERAGE,         /* GPU-hours above the commitment x (overage - committed price) */
  PROCURA_COST_COMMITMENT_SHORTFALL, /* minimum commitment not reached: the floor is billed */
  PROCURA_COST_SUPPORT,         /* support % x the provider's bill */
  PROCURA_COST_SETUP_FEE,       /* one-off fee spread over the term (or this window) */
  PROCURA_COST_FAILURE_WASTE,   /* operations tests: failed requests + idle replica-hours */
  PROCURA_COST_N_LINES
} ProcuraCostLine;

/* "gpu_compute", "idle_capacity", ... (the JSON member names of COST-MODEL.md §8). */
const char *procura_cost_line_name (ProcuraCostLine line);

/* One input as used: e.g. {"price_per_gpu_hour", 2.5, "quote #3 (2026-11-02)"}. */
typedef struct {
  char   *name;
  double  value;
  char   *origin;   /* "brief", "assumptions", "candidate", "benchmark: ...", "default", "input file" */
} ProcuraCostInput;

void procura_cost_input_free (ProcuraCostInput *i);

typedef struct _ProcuraRunCostInputs ProcuraRunCostInputs;

/* Inputs of a serving workload (online, batch, embeddings, media) for one candidate:
 * a GPU candidate, an API route, or a hybrid (GPUs for the base load, the API for
 * the overflow). procura_cost_inputs_new() sets the defaults of COST-MODEL.md §8:
 * every money member 0, acceptance_rate 1, headroom 1, window_hours 730,
 * provisioning always-on, outputs_per_request 1; price and capacity NAN (required). */
typedef struct {
  char                 *name;
  ProcuraCandidateKind  kind;
  gboolean              media;               /* media workload: media line labels */

  /* the workload */
  double  window_hours;
  double  demand_average;        /* requests/s (scheduled: while running) */
  double  demand_peak;           /* requests/s */
  double  retry_rate;            /* extra attempts per request */
  double  failure_rate;          /* share of requests that error or time out */
  double  acceptance_rate;       /* share of completed outputs that pass the filter */
  double  headroom;              /* multiplies peak demand */
  double  outputs_per_request;   /* 1 for responses; output tokens per response for token units */

  /* GPU side (GPU and hybrid) */
  double               price_per_gpu_hour;
  int                  gpus_per_replica;
  double               capacity_at_slo;      /* requests/s per replica */
  ProcuraProvisioning  provisioning;
  double               billed_hours;         /* scheduled: hours billed per replica */
  double               target_utilization;   /* autoscaled */
  int                  fixed_replicas;       /* > 0: use this many (curves, what-ifs); 0: size for peak */

  /* per-window lines */
  double  storage;
  double  network;
  double  serving_stack;
  double  observability;
  double  labor_hours;
  double  labor_rate;
  double  moderation;            /* media */
  double  queue_overhead;        /* media */
  double  operator_review;       /* media */

  /* API side (API and hybrid) */
  double  input_tokens;          /* per request */
  double  cached_input_tokens;
  double  output_tokens;
  double  price_input_per_mtok;
  double  price_cached_per_mtok;
  double  price_output_per_mtok;
  double  gateway;               /* per window */
  double  rate_limit_rpm;        /* NAN: none; a hard limit (requests/min, retries included) */
  double  rate_limit_tpm;        /* NAN: none; a hard limit (input + cached + output tokens/min) */

  /* quote terms (NAN or 0: none) */
  double  support_pct;           /* 0..100, on top of the provider's bill */
  double  setup_fee;             /* once */
  double  setup_amortization_hours; /* the fee is spread over this many hours; NAN: the window */
  double  min_commitment;        /* floor on the compute bill per window (already prorated) */
  double  overage_per_gpu_hour;  /* price of GPU-hours above min_commitment / price; NAN: none */
  double  storage_gb;            /* stored volume */
  double  storage_per_gb_month;  /* a month is 730 h */
  double  egress_gb;             /* per window */
  double  egress_per_gb;

  /* operations tests priced as failure waste, per window */
  double  ops_failed_requests;   /* requests lost */
  double  ops_idle_replica_hours;/* replica-hours billed while recovering */

  /* where each input came from: ProcuraCostInput*, may be empty */
  GPtrArray *trace;

  /* a run workload (training, fine-tuning, evaluation) instead of serving: when set
   * (owned), procura_cost_evaluate () costs it with procura_cost_run_workload () */
  ProcuraRunCostInputs *run_inputs;
} ProcuraCostInputs;

ProcuraCostInputs *procura_cost_inputs_new   (void);
ProcuraCostInputs *procura_cost_inputs_copy  (const ProcuraCostInputs *in);
void               procura_cost_inputs_free  (ProcuraCostInputs *in);
/* Records (or replaces) where @name came from; shown beside the result. */
void               procura_cost_inputs_note  (ProcuraCostInputs *in,
                                              const char        *name,
                                              const char        *origin);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraCostInputs, procura_cost_inputs_free)

/* Checks ranges (prices >= 0, rates in 0..1, capacity > 0 for GPU kinds, ...).
 * @prefix names the inputs in errors, e.g. "candidates[0]". */
gboolean procura_cost_inputs_validate (const ProcuraCostInputs *in,
                                       const char              *prefix,
                                       GError                 **error);

typedef struct {
  char                 *name;
  ProcuraCandidateKind  kind;
  gboolean              media;
  gboolean              run_workload;   /* training / fine-tuning / evaluation */

  /* GPU side; replicas 0, utilization NAN for the API route */
  int     replicas;
  double  utilization;          /* busy share of the billed GPU time, 0..1 */
  double  billed_hours;         /* per replica (autoscaled: replica-hours / replicas) */
  double  provisioned_gpu_cost; /* G */

  /* hybrid: how the load is split (requests/s, before retries) */
  double  gpu_demand_average;
  double  api_demand_average;
  double  api_share;            /* api_demand_average / demand_average */

  double  lines[PROCURA_COST_N_LINES];
  guint32 applies;              /* bit (1 << line) set when the line applies */
  double  all_in_cost;
  double  generated_outputs;
  double  accepted_outputs;     /* run workloads: P(success) per run */
  double  cost_per_accepted;

  GPtrArray *inputs;            /* ProcuraCostInput*: every input used, with origin */
  GPtrArray *notes;             /* char*: caveats, e.g. a rate limit below the peak */

  /* hard constraints (rate limits): a candidate that cannot serve the demand is not
   * feasible; its figures are then for the part it serves */
  gboolean feasible;
  char    *infeasible_reason;   /* NULL when feasible */
  double   served_demand_average;   /* requests/s served (first attempts) */
  double   unserved_demand_average; /* requests/s over the limit, not served */
  double   api_peak_rps;        /* first-attempt requests/s sent to the API at the peak */
  double   api_limit_rps;       /* the API's limit in first-attempt requests/s, NAN none */
} ProcuraCostResult;

void     procura_cost_result_free        (ProcuraCostResult *r);
gboolean procura_cost_result_line_applies (const ProcuraCostResult *r,
                                           ProcuraCostLine          line);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraCostResult, procura_cost_result_free)

/* Evaluates the model for any kind (GPU, API, HYBRID). Invalid inputs → NULL and
 * an error naming the input. */
ProcuraCostResult *procura_cost_evaluate (const ProcuraCostInputs *in,
                                          GError                 **error);

/* The GPU model of COST-MODEL.md §2 (kind ignored: GPU lines only). */
ProcuraCostResult *procura_cost_serving  (const ProcuraCostInputs *in,
                                          GError                 **error);
/* The API route of §5. */
ProcuraCostResult *procura_cost_api      (const ProcuraCostInputs *in,
                                          GError                 **error);
/* The hybrid: GPU replicas for the base load and the API taking the load above the
 * GPUs' capacity at the target. Unless fixed_replicas is set, the replica count is the
 * one with the lowest cost per accepted output among those from the fewest that keep
 * the API within its rate limits (1 without limits) up to enough for the peak,
 * ceil(peak x (1 + retry_rate) / capacity_at_slo); with fixed_replicas, load that
 * neither the GPUs nor the API's limits take is refused (not feasible). The load over the window follows a linear load-duration curve from the peak
 * down to a trough chosen so that its mean is the average (2 x average - peak, or 0
 * over a shorter span when that is negative); the overflow is the part of that curve
 * above replicas x capacity_at_slo / (1 + retry_rate). */
ProcuraCostResult *procura_cost_hybrid   (const ProcuraCostInputs *in,
                                          GError                 **error);

/* The API's rate limits (requests and tokens per minute) as first-attempt requests/s:
 * min (rpm, tpm / tokens per request) / 60 / (1 + retry_rate); INFINITY without limits. */
double procura_cost_api_limit_rps (const ProcuraCostInputs *in);

/* Requests/s of the load-duration curve above @capacity (the hybrid's overflow). */
double procura_cost_overflow (double average,
                              double peak,
                              double capacity);

/* ---- run workloads (training, fine-tuning, evaluation), COST-MODEL.md §3 ---- */

struct _ProcuraRunCostInputs {
  char   *name;
  int     gpus;                   /* in the cluster */
  double  price_per_gpu_hour;
  double  wall_clock_hours;       /* to the target; NAN: tokens_to_train / tokens_per_s */
  double  tokens_to_train;
  double  tokens_per_s;           /* measured, whole cluster */
  double  storage;
  double  network;
  double  checkpoints;            /* count per run */
  double  checkpoint_write_hours; /* per checkpoint, the cluster waits */
  double  checkpoint_storage;     /* money */
  double  interruptions;          /* expected per run; NAN: wall_clock x nodes / mtbf */
  double  mtbf_node_hours;
  int     nodes;
  double  lost_hours_per_interruption; /* time since the last checkpoint; NAN: half an interval */
  double  restart_hours;
  double  labor_hours;
  double  labor_rate;
  double  success_probability;    /* P(run completes and reaches the target), default 1 */
  GPtrArray *trace;
};

ProcuraRunCostInputs *procura_run_cost_inputs_new  (void);
ProcuraRunCostInputs *procura_run_cost_inputs_copy (const ProcuraRunCostInputs *in);
void                  procura_run_cost_inputs_free (ProcuraRunCostInputs *in);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraRunCostInputs, procura_run_cost_inputs_free)

/* lines: gpu_compute (gpu_hours x price), storage, network, checkpointing,
 * failed_run_waste, platform_labor; all_in_cost is the run cost; accepted_outputs
 * is P(success); cost_per_accepted the cost per completed run. */
ProcuraCostResult *procura_cost_run_workload (const ProcuraRunCostInputs *in,
                                              GError                    **error);

/* ---- curves and break-even ------------------------------------------------ */

typedef struct {
  double demand;              /* average requests/s */
  double cost_per_accepted;
  double all_in_cost;
  int    replicas;
  double utilization;
} ProcuraCostCurvePoint;

/* Cost per accepted output as the average demand goes from demand_max / n_points up
 * to demand_max (the peak keeps its ratio to the average). Besides the n_points
 * evenly spaced points, the curve has a point on each side of every replica step
 * (the last demand with N replicas and the first with N + 1), so a chart draws the
 * steps honestly. Sorted by demand. Returns an array of ProcuraCostCurvePoint
 * (empty when the inputs are invalid). */
GArray *procura_cost_curve (const ProcuraCostInputs *in,
                            double                   demand_max,
                            guint                    n_points);

typedef struct {
  double demand;               /* average requests/s where the costs are equal */
  double utilization;          /* of the GPU candidate there */
  double cost_per_accepted;
  gboolean gpu_cheaper_above;  /* the GPU candidate is the cheaper one just above */
} ProcuraBreakEven;

/* Demands in (0, demand_max] where @gpu's cost per accepted output equals @api's
 * (both evaluated with procura_cost_evaluate at each demand). Array of ProcuraBreakEven,
 * ascending; empty when they never cross. */
GArray *procura_cost_break_even (const ProcuraCostInputs *gpu,
                                 const ProcuraCostInputs *api,
                                 double                   demand_max);

/* ---- explicit inputs (procura cost INPUTS.json), COST-MODEL.md §8 ---------- */

/* Parses the §8 document: candidates as ProcuraCostInputs* (free func set). Errors
 * name @file_name and the member, e.g. "candidates[0].capacity_at_slo: must be > 0".
 * Extension: a candidate of "kind": "run" is a run workload (§3) with the members of
 * ProcuraRunCostInputs (gpus, price_per_gpu_hour, wall_clock_hours or tokens_to_train
 * and tokens_per_s, storage, network, checkpoints, checkpoint_write_hours,
 * checkpoint_storage, interruptions or mtbf_node_hours and nodes,
 * lost_hours_per_interruption, restart_hours, labor_hours, labor_rate,
 * success_probability); "demand" may then be left out when every candidate is a run. */
GPtrArray *procura_cost_inputs_from_json (JsonNode    *root,
                                          const char  *file_name,
                                          GError     **error);
/* Reads the §8 document at @path through the importers' safe front door (a regular
 * file only, so a FIFO is refused instead of waited on; the strict JSON reader with its
 * depth limit and line:column messages) and parses it as procura_cost_inputs_from_json()
 * does, naming the file's base name in errors about members. */
GPtrArray *procura_cost_inputs_load      (const char  *path,
                                          GError     **error);
/* {"name", "kind", "replicas", "utilization", "lines": {...}, "all_in_cost",
 *  "accepted_outputs", "cost_per_accepted", "inputs": [...]} */
JsonNode  *procura_cost_result_to_json   (const ProcuraCostResult *r);

G_END_DECLS
