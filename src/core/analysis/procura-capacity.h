/* procura-capacity.h: capacity at the latency target from a sweep (COST-MODEL.md §4)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "procura-model.h"

G_BEGIN_DECLS

typedef enum {
  PROCURA_CAPACITY_OK = 0,          /* the percentile crosses the target inside the sweep */
  PROCURA_CAPACITY_NOT_SATURATED,   /* every point meets it: the largest load is a lower bound */
  PROCURA_CAPACITY_MISSES,          /* no point meets it: no cost at this SLO */
  PROCURA_CAPACITY_NO_DATA,         /* no run with a throughput and the metric */
} ProcuraCapacityStatus;

/* "ok", "not-saturated", "misses-target", "no-data" */
const char *procura_capacity_status_name (ProcuraCapacityStatus s);

/* One point of the sweep, as used. */
typedef struct {
  gint64        run_id;
  char         *label;           /* the run's label (owned) */
  double        throughput_rps;  /* achieved requests/s */
  double        throughput_tok_s;/* achieved output tokens/s, NAN unknown */
  double        value_ms;        /* the metric at the percentile */
  double        ci_lo_ms;        /* bootstrap interval, NAN when as reported */
  double        ci_hi_ms;
  ProcuraSource source;          /* recomputed from samples or as reported */
  gint64        samples;         /* sample count when recomputed, -1 otherwise */
  gboolean      meets;           /* value_ms <= threshold */
} ProcuraSweepPoint;

/* A run is left out of the capacity reading (with a warning) when it completed no
 * request, or fewer than this share of the requests it sent (docs/capacity.md). */
#define PROCURA_CAPACITY_MIN_COMPLETED_SHARE 0.90

typedef struct {
  ProcuraCapacityStatus status;
  char     *metric;              /* "ttft", "tpot", "itl", "e2e" */
  double    percentile;          /* 50..100 */
  double    threshold_ms;
  double    capacity_rps;        /* OK: the crossing; NOT_SATURATED: the largest load; else NAN */
  double    capacity_tok_s;      /* the same in output tokens/s, NAN unknown */
  gboolean  uncertain;           /* the target lies inside a neighbouring point's interval */
  int       below;               /* index in points of the last point that meets, -1 */
  int       above;               /* index of the first point that misses, -1 */
  GArray   *points;              /* ProcuraSweepPoint, by throughput */
  guint     skipped;             /* runs without a throughput or the metric */
  gint64    samples_min;         /* fewest samples among recomputed points, -1 none */
  gboolean  all_recomputed;      /* every point recomputed from samples */
  char     *reason;              /* one sentence: how the figure was read, or why there is none */

  /* runs left out of the reading: char*, one sentence each naming the run and why */
  GPtrArray *excluded;

  /* a miss below a point that meets: the lowest such miss and the highest meeting
   * point (indices in points, -1 when the sweep is monotone), and the warning */
  int       nm_miss;
  int       nm_meet;
  char     *non_monotone;        /* NULL when monotone */

  /* The capacity interval: the same rule read off the upper ends of the points'
   * bootstrap intervals (low) and off their lower ends (high). NAN when there is no
   * interval (a point without samples, or no bootstrap). low is 0 when the pessimistic
   * reading misses at every load; hi_lower_bound when the optimistic one never
   * saturates (the high end is then itself only a lower bound). */
  double    capacity_lo_rps;
  double    capacity_hi_rps;
  gboolean  hi_lower_bound;
  char     *interval_reason;     /* how the interval was read, or why there is none */
} ProcuraCapacity;

typedef struct {
  guint    resamples;   /* bootstrap resamples, 0: PROCURA_STATS_DEFAULT_RESAMPLES */
  guint64  seed;        /* 0: PROCURA_STATS_DEFAULT_SEED */
  double   level;       /* 0: 0.95 */
  gboolean no_bootstrap;
} ProcuraCapacityOptions;

/* The metric's percentile of one run: recomputed from samples when the run has them
 * (source RECOMPUTED, *samples = n), else the stat "pNN" as reported. NAN when neither.
 * percentile is 0..100. */
/* The finite values of @s in ascending order (*@n_finite of them): sorted on the first
 * call and kept in @s until its values change, so every percentile and the CDF share
 * one sort. Thread-safe. */
const double *procura_samples_sorted (const ProcuraSamples *s,
                                      gsize                *n_finite);

double procura_run_metric_percentile (const ProcuraRun *run,
                                      const char       *metric,
                                      double            percentile,
                                      ProcuraSource    *source,
                                      gint64           *samples);

/* The requests a run sent: completed + failed when both are known, or the file's
 * num_prompts (kept in extras_json) when larger; -1 unknown. */
gint64 procura_run_requests_sent (const ProcuraRun *run);

/* Stat name for a percentile: 99 → "p99", 99.9 → "p99.9", 50 → "p50". */
char  *procura_percentile_stat_name (double percentile);

/* The percentile of the SLO metric the analysis reads unless told another: @brief's,
 * else 99 (also when @brief is NULL). */
double procura_brief_slo_percentile (const ProcuraBrief *brief);

ProcuraCapacity *procura_capacity_from_runs (const ProcuraRun * const    *runs,
                                             guint                         n_runs,
                                             const char                   *metric,
                                             double                        percentile,
                                             double                        threshold_ms,
                                             const ProcuraCapacityOptions *options);
void             procura_capacity_free      (ProcuraCapacity *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraCapacity, procura_capacity_free)

G_END_DECLS
