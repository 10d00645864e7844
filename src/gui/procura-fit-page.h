/* procura-fit-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-document.h"
#include "procura-page.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_FIT_PAGE (procura_fit_page_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraFitPage, procura_fit_page, PROCURA, FIT_PAGE, ProcuraPage)

void procura_fit_page_set_document (ProcuraFitPage *self,
                                ProcuraDocument *document);

/* The local probe panel: run (async, with progress), cancel, and its state:
 * "idle", "running", "done" or "cancelled"; the result is the probe status of the
 * last run ("ok", "timeout", "crashed", ...). */
void        procura_fit_page_run_probe        (ProcuraFitPage *self);
void        procura_fit_page_cancel_probe     (ProcuraFitPage *self);
const char *procura_fit_page_get_probe_state  (ProcuraFitPage *self);
const char *procura_fit_page_get_probe_result (ProcuraFitPage *self);
/* TRUE when the last run reported progress (a step on a GPU, or a host's step). */
gboolean    procura_fit_page_get_probe_progress_seen (ProcuraFitPage *self);
/* The probe on every ssh target of @hosts at once (the fleet): one row per host with its
 * progress, then the fleet summary in the status row. Also what Run does when the
 * Hosts row holds targets. */
void        procura_fit_page_run_probe_fleet  (ProcuraFitPage     *self,
                                               const char * const *hosts);
/* Stores the last fleet run in the project, in one transaction (what "Save to Project"
 * does after a fleet run): every node's results under @candidate (NULL: a candidate per
 * host, named after it, created when absent; "": none), the nodes that failed as such. */
void        procura_fit_page_save_probe_fleet (ProcuraFitPage *self,
                                               const char     *candidate);
/* The row of @host after or during a fleet run: its subtitle, NULL when there is none. */
const char *procura_fit_page_get_probe_host_status (ProcuraFitPage *self,
                                                    const char     *host);
/* The status row's subtitle (what the last run said). */
const char *procura_fit_page_get_probe_status_text (ProcuraFitPage *self);
/* Extra NAME=VALUE for the probe (tests use the fake driver) and the client's own
 * time limit in seconds (0: the default). */
void        procura_fit_page_set_probe_environment (ProcuraFitPage     *self,
                                                    const char * const *environ_,
                                                    double              kill_after_s);

/* TRUE once the calculator and the probe panel were built: with the page's first
 * content (when it is first shown, or a call here needs them), never with the window. */
gboolean    procura_fit_page_get_panels_built (ProcuraFitPage *self);
/* TRUE while the memory figures are being computed. */
gboolean    procura_fit_page_get_busy (ProcuraFitPage *self);
/* The calculator's candidate (an index into its list of GPU candidates), and the TP and
 * PP it shows now: choosing a candidate takes its parallelism (for tests). */
void        procura_fit_page_select_calculator_candidate (ProcuraFitPage *self,
                                                          guint           index);
/* The plan "Run Probe" hands the probe: the calculator's allocation plan for its current
 * figures (procura_probe_plan_from_fit()), for one GPU of the replica; NULL when there is
 * no fit. */
const char *procura_fit_page_get_probe_plan (ProcuraFitPage *self);
/* The engine version the calculator applies (the candidate's or the brief's, or typed). */
const char *procura_fit_page_get_calculator_engine_version (ProcuraFitPage *self);
void        procura_fit_page_get_calculator_parallelism  (ProcuraFitPage *self,
                                                          int            *tp,
                                                          int            *pp);

G_END_DECLS
