/* procura-choice-row.h: a choice about one candidate or one of its items (the catalog
 * GPU, the quote, a checklist answer, an operations test's result)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-model.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_CHOICE_ROW (procura_choice_row_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraChoiceRow, procura_choice_row, PROCURA, CHOICE_ROW, AdwComboRow)

/* Keeps ids and copies, never pointers into the snapshot (a reload frees it): the
 * candidate, the item (a checklist item's id; 0 when none) and a kind (an operations
 * test's kind; NULL when none). */
GtkWidget    *procura_choice_row_new              (gint64            candidate_id,
                                                   gint64            item_id,
                                                   const char       *kind);
gint64        procura_choice_row_get_candidate_id (ProcuraChoiceRow *self);
gint64        procura_choice_row_get_item_id      (ProcuraChoiceRow *self);
const char   *procura_choice_row_get_kind         (ProcuraChoiceRow *self);
/* The quotes the choices after the first stand for (copies; the row takes @quotes). */
void          procura_choice_row_set_quotes       (ProcuraChoiceRow *self,
                                                   GPtrArray        *quotes);
/* The quote of choice @position, or NULL (the first choice, or none). */
ProcuraQuote *procura_choice_row_get_quote        (ProcuraChoiceRow *self,
                                                   guint             position);

G_END_DECLS
