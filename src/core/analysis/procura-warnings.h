/* procura-warnings.h: the common mistakes, as live warnings computed from the project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "procura-model.h"

G_BEGIN_DECLS

typedef enum {
  PROCURA_SEVERITY_INFO = 0,
  PROCURA_SEVERITY_WARNING,
  PROCURA_SEVERITY_ERROR,     /* the figure cannot be trusted or computed */
} ProcuraSeverity;

/* "info", "warning", "error" */
const char *procura_severity_name (ProcuraSeverity s);

/* Warning ids (stable: the GUI and tests use them) */
#define PROCURA_WARN_BRIEF_INCOMPLETE   "brief-incomplete"
#define PROCURA_WARN_HOURLY_RATE_ONLY   "hourly-rate-only"
#define PROCURA_WARN_SINGLE_POINT_FIT   "single-point-fit"
#define PROCURA_WARN_NO_INTERCONNECT    "no-interconnect"
#define PROCURA_WARN_ACCEPTANCE_UNSET   "acceptance-unset"
#define PROCURA_WARN_LABOR_ZERO         "labor-zero"
#define PROCURA_WARN_NO_SCENARIO        "no-scenario"
#define PROCURA_WARN_STALE_PRICE        "stale-price"
#define PROCURA_WARN_NO_PRICE           "no-price"
#define PROCURA_WARN_NOT_SATURATED      "not-saturated"
#define PROCURA_WARN_MISSES_TARGET      "misses-target"
#define PROCURA_WARN_UNCERTAIN_CAPACITY "uncertain-capacity"
#define PROCURA_WARN_AS_REPORTED        "as-reported-percentiles"
#define PROCURA_WARN_RATE_LIMIT         "rate-limit"
#define PROCURA_WARN_RUN_WORKLOAD       "run-workload"
#define PROCURA_WARN_DOES_NOT_FIT       "does-not-fit"
#define PROCURA_WARN_RUN_EXCLUDED       "run-excluded"
#define PROCURA_WARN_NON_MONOTONE       "non-monotone-sweep"

typedef struct {
  char            *id;
  ProcuraSeverity  severity;
  gint64           candidate_id;   /* 0: the whole project */
  char            *message;        /* what is wrong, with the figures */
  char            *what_to_do;     /* the action that clears it */
} ProcuraWarning;

ProcuraWarning *procura_warning_new  (const char      *id,
                                      ProcuraSeverity  severity,
                                      gint64           candidate_id,
                                      const char      *message,
                                      const char      *what_to_do);
void            procura_warning_free (ProcuraWarning *w);
/* A few words for the kind of warning @id, translated ("price older than the limit"),
 * for a line that names its candidate once (the recommendation slide); NULL for an id
 * Procura does not know. */
const char     *procura_warning_title (const char *id);

struct _ProcuraAnalysis;

/* Fills analysis->warnings from the project and the per-candidate results (called by
 * procura_analysis_run). */
void procura_warnings_collect (const ProcuraProject    *project,
                               struct _ProcuraAnalysis *analysis);

G_END_DECLS
