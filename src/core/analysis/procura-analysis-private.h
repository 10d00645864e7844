/* procura-analysis-private.h: helpers shared by the analysis' files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "procura-analysis.h"

G_BEGIN_DECLS

/* The candidate's memory fit at the brief's context and concurrency with its engine log's
 * and probe's figures (sets @ca's fit_measured and friends), or NULL with @ca->fit_reason. */
ProcuraFitResult *procura_analysis_fit_candidate (const ProcuraProject     *project,
                                                  const ProcuraCandidate   *candidate,
                                                  ProcuraCandidateAnalysis *ca);

/* Fills analysis->tipping_points for the winner and the runner-up (procura-tipping.c). */
void procura_tipping_points_run (ProcuraAnalysis      *analysis,
                                 const ProcuraProject *project);

G_END_DECLS
