/* procura-published-row.h: one row of a published data set, to be picked for import
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-model.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_PUBLISHED_ROW (procura_published_row_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraPublishedRow, procura_published_row, PROCURA, PUBLISHED_ROW, AdwActionRow)

/* A row for @run, the @index-th run of the file's result: its title is the run's label,
 * its subtitle the GPU, model, scenario and key figure; it keeps @index and its own
 * lower-case text to filter on, never a pointer to @run. Ticking it notifies "picked". */
GtkWidget  *procura_published_row_new          (const ProcuraRun    *run,
                                                guint                index);
guint       procura_published_row_get_index    (ProcuraPublishedRow *self);
gboolean    procura_published_row_get_picked   (ProcuraPublishedRow *self);
void        procura_published_row_set_picked   (ProcuraPublishedRow *self,
                                                gboolean             picked);
/* TRUE when every word of @needles (lower case; empty words are skipped) is in the
 * row's text: label, GPU, model, scenario and engine. */
gboolean    procura_published_row_matches      (ProcuraPublishedRow *self,
                                                const char * const  *needles);

G_END_DECLS
