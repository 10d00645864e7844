/* procura-run-row.h: one benchmark run on the Benchmarks page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-document.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_RUN_ROW (procura_run_row_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraRunRow, procura_run_row, PROCURA, RUN_ROW, AdwExpanderRow)

/* The row's title and summary come from @run; its details (candidate, metrics, what the
 * file does not say, warnings, provenance) are built from the document's current
 * project when it is first expanded. It keeps the run's id, never a pointer into the
 * snapshot. */
GtkWidget *procura_run_row_new        (ProcuraDocument *document,
                                       ProcuraRun      *run);
gint64     procura_run_row_get_run_id (ProcuraRunRow   *self);

G_END_DECLS
