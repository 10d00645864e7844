/* procura-candidate-row.h: one candidate on the Candidates page: its name, summary,
 * price date and the expanders of its cost inputs, checklist and operations tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-candidate-section.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_CANDIDATE_ROW (procura_candidate_row_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraCandidateRow, procura_candidate_row, PROCURA, CANDIDATE_ROW, AdwPreferencesGroup)

/* The row of candidate @candidate_id: it keeps the id, never a pointer into the
 * snapshot. Its "delete-requested" signal is emitted by its delete button. */
GtkWidget               *procura_candidate_row_new              (gint64               candidate_id);
gint64                   procura_candidate_row_get_candidate_id (ProcuraCandidateRow *self);
GtkWidget               *procura_candidate_row_get_delete_button (ProcuraCandidateRow *self);
/* The price date row (hidden for an API route) and its warning badge. */
AdwActionRow            *procura_candidate_row_get_price_row     (ProcuraCandidateRow *self);
GtkLabel                *procura_candidate_row_get_price_badge   (ProcuraCandidateRow *self);
/* "cost", "checklist" or "ops". */
ProcuraCandidateSection *procura_candidate_row_get_section       (ProcuraCandidateRow *self,
                                                                  const char          *kind);

G_END_DECLS
