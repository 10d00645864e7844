/* procura-published-dialog.h: "Import Published Results…": pick the rows of a public data
 * set (InferenceX, MLPerf results summaries, llm-d reports) that match the brief
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-document.h"

G_BEGIN_DECLS

/* Reads @path in a thread, then lists what it holds, one row per run (system, GPU,
 * model, scenario, key metric) with a filter; the analyst ticks rows, picks the candidate
 * they go to (an existing one, or a new one named here that takes the deployment the rows
 * state) and imports them in one transaction through @document. Returns the window
 * (owned by GTK, shown). */
GtkWindow *procura_published_dialog_present (GtkWindow       *parent,
                                             ProcuraDocument *document,
                                             const char      *path);

G_END_DECLS
