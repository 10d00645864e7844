/* procura-cost-row.h: one editable cost input of a candidate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PROCURA_TYPE_COST_ROW (procura_cost_row_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraCostRow, procura_cost_row, PROCURA, COST_ROW, AdwEntryRow)

/* The row of input @field (an index into its page's table of inputs) of the candidate
 * @candidate_id: it keeps the id, never a pointer into the snapshot. */
GtkWidget *procura_cost_row_new              (gint64          candidate_id,
                                              guint           field);
gint64     procura_cost_row_get_candidate_id (ProcuraCostRow *self);
guint      procura_cost_row_get_field        (ProcuraCostRow *self);

G_END_DECLS
