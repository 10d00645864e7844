/* procura-run-samples.h: a run's per-request views, from its samples
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "procura-document.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_RUN_SAMPLES (procura_run_samples_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraRunSamples, procura_run_samples, PROCURA, RUN_SAMPLES, GtkBox)

/* Loads @run's samples in a thread (a spinner meanwhile), then shows the latency
 * distribution of @metric (the brief's, NULL: TTFT) with the target @threshold_ms (NAN:
 * none) and a per-request scatter of TTFT and end-to-end latency against input tokens
 * where those samples exist. */
GtkWidget *procura_run_samples_new (ProcuraDocument *document,
                                    gint64           run_id,
                                    const char      *metric,
                                    double           threshold_ms);
/* The sample count the distribution was drawn from: -1 while loading, 0 without samples. */
gint64     procura_run_samples_get_n (ProcuraRunSamples *self);

G_END_DECLS
