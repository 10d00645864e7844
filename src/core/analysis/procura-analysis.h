/* procura-analysis.h: the whole analysis of a project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * procura_analysis_run() reads a ProcuraProject (never writes it) and gives, per
 * candidate, the capacity at the latency target, the cost per accepted output with
 * its breakdown and inputs, sensitivity and what-if scenarios, the break-even with
 * the API, and the warnings; for the project, the ranking (withheld while the brief
 * is incomplete), the warnings and the rent / reserve / buy / API recommendation.
 * Plain structs: the GUI, the figures and the report read them directly.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "procura-model.h"
#include "procura-capacity.h"
#include "procura-cost.h"
#include "procura-sensitivity.h"
#include "procura-warnings.h"
#include "procura-recommend.h"
#include "procura-fit.h"

G_BEGIN_DECLS

/* What replaced the calculator's estimates in a candidate's memory fit. */
enum {
  PROCURA_FIT_MEASURED_WEIGHTS     = 1 << 0,  /* engine log: "Model loading took" */
  PROCURA_FIT_MEASURED_KV_POOL     = 1 << 1,  /* engine log: "Available KV cache memory" */
  PROCURA_FIT_MEASURED_CUDA_GRAPHS = 1 << 2,  /* engine log: graph capture */
  PROCURA_FIT_MEASURED_USABLE      = 1 << 3,  /* probe: the driver's total on the machine */
  PROCURA_FIT_MEASURED_PROBE_FIT   = 1 << 4,  /* probe: its fit test's verdict and headroom */
};

/* Overrides for the GUI's SLO and demand controls; NULL / NAN / 0 members keep the
 * project's values. */
typedef struct {
  const char *slo_metric;
  double      slo_percentile;      /* 50..100 */
  double      slo_threshold_ms;
  double      demand_average;
  double      demand_peak;
  double      window_hours;
  guint       bootstrap_resamples; /* 0: 1000 */
  guint64     seed;                /* 0: the default seed */
  gboolean    no_bootstrap;
  gboolean    no_hybrid;           /* do not add the derived hybrid candidate */
  double      sensitivity_step;    /* 0: 0.10 (±10 %) */
} ProcuraAnalysisOptions;

void procura_analysis_options_init (ProcuraAnalysisOptions *options);

typedef enum {
  PROCURA_SEPARATION_NONE = 0,        /* fewer than two ranked candidates */
  PROCURA_SEPARATION_DISTINCT,        /* the two best cost intervals do not overlap */
  PROCURA_SEPARATION_OVERLAP,         /* they overlap: not distinguishable at this sample size */
  PROCURA_SEPARATION_UNKNOWN,         /* one of them has no interval (percentiles as reported) */
} ProcuraSeparation;

/* "none", "distinct", "not-distinguishable", "unknown" */
const char *procura_separation_name (ProcuraSeparation s);

typedef struct {
  gint64                candidate_id;  /* the project's id; < 0 for a derived candidate */
  char                 *name;
  ProcuraCandidateKind  kind;
  gboolean              derived;       /* added by the analysis (the hybrid) */
  gint64                derived_from[2]; /* derived hybrid: the GPU and API candidate ids */

  ProcuraCapacity      *capacity;      /* GPU and hybrid; NULL for the API route */
  double                capacity_at_slo; /* req/s per replica as used for cost, NAN none */
  char                 *capacity_origin; /* "benchmark", "typed in (capacity override)", ... */

  ProcuraCostInputs    *inputs;        /* NULL when no cost could be computed */
  ProcuraCostResult    *cost;          /* NULL when no cost (see cost_reason) */
  char                 *cost_reason;   /* why there is no cost, or NULL */

  GPtrArray            *sensitivity;   /* ProcuraSensitivity*, empty without cost */
  GPtrArray            *what_ifs;      /* ProcuraWhatIf*, empty without cost */
  GArray               *break_even;    /* ProcuraBreakEven vs break_even_api (GPU kinds) */
  gint64                break_even_api;/* candidate id of the API compared with, 0 none */

  int                   rank;          /* 1 = cheapest per accepted output; 0 unranked */

  /* memory fit at the brief's context and concurrency (GPU kinds), NULL with fit_reason
   * when it cannot be computed (unknown model or GPU, ...) */
  ProcuraFitResult     *fit;
  char                 *fit_reason;
  /* what in @fit is measured rather than estimated (PROCURA_FIT_MEASURED_*): the
   * candidate's engine startup log replaces the weights, the KV pool and the CUDA graph
   * figure (and sets the engine's configuration: utilization, version, block size, KV
   * dtype); its probe result replaces the usable memory (the probe's total, not the
   * catalog's). 0 when the fit is calculated only. */
  guint                 fit_measured;
  char                 *fit_measured_text;  /* a sentence naming the sources, or NULL */
  gint64                fit_engine_log_id;  /* the log used, 0 none */
  gint64                fit_probe_id;       /* the probe result used, 0 none */
  /* the probe's own verdict on its plan ("fit" test), as measured; fit_probe_fits is
   * meaningful only when fit_probe_headroom_bytes is set (not NAN) */
  gboolean              fit_probe_fits;
  double                fit_probe_headroom_bytes;

  /* the cost per accepted output at the ends of the capacity interval (procura-
   * uncertainty.c): NAN both when unknown; cost_hi INFINITY when the pessimistic
   * reading misses at every load; equal to the cost when it does not depend on a
   * measured capacity (the API route) */
  double                cost_lo;
  double                cost_hi;
  char                 *cost_interval_reason;
  /* hard constraints of an API route (docs/cost-model.md): its measured latency and
   * its rate limits. latency_ms: the metric's percentile measured on the runs assigned
   * to it (the worst run), NAN when none was measured. */
  double                latency_ms;
  char                 *latency_run;     /* label of that run */
  gboolean              misses_target;   /* measured latency above the target: no cost */
  gboolean              rate_limited;    /* its limits are below the demand: not ranked */
  /* the API's request shape: "candidate", "mean" (the brief's average shape) or "p95"
   * (the brief's p95 shape, no mean given: an upper bound); NULL for GPU candidates */
  const char           *token_basis;
  /* operations tests priced as failure waste: occurrences counted, per window */
  double                ops_failed_requests;
  double                ops_idle_replica_hours;
} ProcuraCandidateAnalysis;

/* One tipping point: the value of @input at which the winner and the runner-up cost
 * the same per accepted output (docs/cost-model.md, "Tipping points"). */
typedef struct {
  char    *input;        /* "gpu_price", "api_price", "utilization", "acceptance_rate",
                            "latency_target_ms", "demand_average" */
  gint64   candidate_id; /* whose input (0: the project's, e.g. demand) */
  char    *candidate_name;
  double   current;      /* its value now */
  double   value;        /* the value at which the ranking flips, NAN when it never does */
  double   ratio;        /* value / current */
  char    *note;         /* how it was found, or why there is none */
} ProcuraTippingPoint;

void procura_tipping_point_free (ProcuraTippingPoint *t);
/* The label the user reads for a tipping point's @input ("gpu_price": "GPU price"),
 * translated; @input itself when it is not one of the analysis' inputs. */
const char *procura_tipping_input_label (const char *input);
/* A value of tipping-point input @input in its unit, as the notes say it: "$3.10 per
 * GPU-hour", "57.9 %", "800 ms", "12 req/s". */
char *procura_tipping_value_text (const struct _ProcuraAnalysis *a,
                                  const char                    *input,
                                  double                         value);

struct _ProcuraAnalysis {
  /* the figures used, after overrides */
  char         *slo_metric;
  double        slo_percentile;
  double        slo_threshold_ms;
  double        demand_average;
  double        demand_peak;
  double        window_hours;
  double        acceptance_rate;     /* as used (1 when unset, with a warning) */
  char         *currency;

  GPtrArray    *candidates;          /* ProcuraCandidateAnalysis*, project order, derived last */
  GPtrArray    *warnings;            /* ProcuraWarning*: project-level and per candidate */
  GArray       *ranking;             /* gint64 candidate ids, cheapest first; empty when withheld */
  gboolean      ranking_withheld;
  char         *ranking_withheld_reason;
  ProcuraRecommendation *recommendation;

  /* Are the two best candidates told apart by their cost intervals? */
  ProcuraSeparation  ranking_separation;
  char              *ranking_uncertainty; /* one sentence with both intervals, NULL with < 2 ranked */
  char              *measure_next;        /* what to measure to separate them, NULL when separated */
  /* what one accepted output is, as the figures count it ("accepted response",
   * "accepted clip", ...), and the scale they are shown at (1, 1e3, 1e6) */
  char         *unit_label;
  double        unit_factor;
  GPtrArray    *tipping_points;      /* ProcuraTippingPoint*: winner vs runner-up; may be empty */
  gint64        tipping_winner;      /* candidate ids, 0 when there is no runner-up */
  gint64        tipping_runner_up;
};

typedef struct _ProcuraAnalysis ProcuraAnalysis;

/* The success unit Procura proposes for a workload type (COST-MODEL.md §1; English,
 * not translated: the brief stores it), NULL for an unknown type. */
const char *procura_success_unit_default (const char *workload_type);

/* The candidates' cost per accepted output with one input changed (the tipping points
 * and their tests): @input as in ProcuraTippingPoint, @value its new value, applied to
 * @candidate_id (0: the project's input). Returns NAN when it has no cost then. */
double procura_analysis_cost_with (const ProcuraAnalysis *analysis,
                                   const ProcuraProject  *project,
                                   gint64                 candidate_id,
                                   const char            *input,
                                   gint64                 input_candidate_id,
                                   double                 value);

ProcuraAnalysis *procura_analysis_run  (const ProcuraProject         *project,
                                        const ProcuraAnalysisOptions *options);
void             procura_analysis_free (ProcuraAnalysis *analysis);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraAnalysis, procura_analysis_free)

/* Fills each candidate's cost interval from its capacity interval, and the ranking's
 * separation (procura-uncertainty.c; called by procura_analysis_run after the ranking). */
void procura_analysis_uncertainty (ProcuraAnalysis *analysis);

/* The candidate's entry, or NULL. */
const ProcuraCandidateAnalysis *procura_analysis_find (const ProcuraAnalysis *analysis,
                                                       gint64                 candidate_id);

/* The summary as JSON (`procura summary --json`, the GUI, the report). */
JsonNode *procura_analysis_to_json (const ProcuraAnalysis *analysis,
                                    const ProcuraProject  *project);
/* The same as readable text (`procura summary` without --json). */
char     *procura_analysis_to_text (const ProcuraAnalysis *analysis,
                                    const ProcuraProject  *project);

/* The fit request of a GPU candidate: the brief's model, context and concurrency; the
 * candidate's GPU (catalog), TP, PP, engine and engine version (the candidate's engine
 * field, "vllm 0.10.1", else the brief's tooling); with @measured, what its engine log and
 * probe result measured replaces the estimates (PROCURA_FIT_MEASURED_*). */
typedef struct {
  ProcuraFitRequest     request;
  const ProcuraGpuSpec *gpu;              /* catalog entry */
  ProcuraModelShape    *owned_model;      /* the catalog's copy when not imported */
  char                 *engine_version;   /* storage of request.engine_version */
  guint                 measured;         /* PROCURA_FIT_MEASURED_* */
  char                 *measured_text;    /* the sources, or NULL */
  gint64                engine_log_id, probe_id;
  gboolean              probe_fits;
  double                probe_headroom_bytes; /* NAN when no probe fit test */
} ProcuraAnalysisFitSetup;

/* The one rule that turns a candidate into a fit request; the summary, the memory and
 * fit-map figures, `procura fit --project` and the Fit page all call these three.
 *
 * TP and PP of @candidate: its TP, else its GPUs per replica divided by its PP (when that
 * divides; a candidate with TP 0 and 4 GPUs per replica runs TP 4), else 1; its PP, else 1. */
void     procura_analysis_fit_parallel    (const ProcuraCandidate  *candidate,
                                           int                     *tp,
                                           int                     *pp);
/* The brief's model: an imported config.json whose id is the brief's model (ASCII case
 * ignored), else the catalog's shape (*@owned, free it with procura_model_shape_free()).
 * NULL with @reason (owned by the caller) when the brief names none or nothing knows it. */
const ProcuraModelShape *procura_analysis_fit_model (const ProcuraProject *project,
                                                     ProcuraModelShape   **owned,
                                                     char                **reason);
/* The request: the model above, the brief's context (else input + output) and
 * concurrency, and for @candidate its GPU (catalog usable memory and engine defaults), TP
 * and PP (procura_analysis_fit_parallel()), engine and version (procura_fit_engine_resolve()
 * on its engine field and the brief's tooling). @candidate may be NULL: the brief alone
 * (TP 1, PP 1, the brief's engine; no GPU, usable memory NAN).
 * FALSE with @reason (owned by the caller) when the fit cannot be set up (no model,
 * unknown GPU); free @setup with procura_analysis_fit_setup_clear() after TRUE. */
gboolean procura_analysis_fit_setup       (const ProcuraProject    *project,
                                           const ProcuraCandidate  *candidate,
                                           gboolean                 measured,
                                           ProcuraAnalysisFitSetup *setup,
                                           char                   **reason);
void     procura_analysis_fit_setup_clear (ProcuraAnalysisFitSetup *setup);
/* The candidate's probe result with a measured total, the last one imported (a "fit"
 * test wins), or NULL: its total is the usable memory of every measured fit. */
const ProcuraProbeResult *procura_analysis_fit_probe (const ProcuraProject *project,
                                                      gint64                candidate_id);

/* One line of the calculator beside the candidate's engine log and probe (GiB per GPU, or
 * tokens for "kv-tokens"): NAN where a source does not state the figure. */
typedef struct {
  const char *id;          /* "usable", "weights", "kv-pool", "profile", "cuda-graphs",
                              "kv-tokens", "headroom" */
  const char *label;       /* "Weights", ... (English; the GUI translates) */
  double      calculated;
  double      engine;      /* from the engine log */
  double      probe;       /* from the probe result */
  char       *explanation; /* where the difference comes from, one sentence */
} ProcuraFitCompareRow;

/* The calculator's figures for @candidate (calculated only, under the engine log's
 * configuration where there is one) beside its engine log's and probe's, line by line:
 * usable memory, weights, KV pool, activation and non-torch memory of the profiling run
 * ("profile": the engine's is its budget less weights and pool), CUDA graphs, KV tokens and
 * headroom. NULL with @reason when the fit cannot be set up; free with g_array_unref(). */
GArray *procura_analysis_fit_compare (const ProcuraProject   *project,
                                      const ProcuraCandidate *candidate,
                                      char                  **reason);

G_END_DECLS
