/* procura-item-button.h: an icon button acting on one item of a candidate (edit or
 * remove a checklist item, edit an operations test, restore a removal)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PROCURA_TYPE_ITEM_BUTTON (procura_item_button_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraItemButton, procura_item_button, PROCURA, ITEM_BUTTON, GtkButton)

/* A flat button with @icon_name (NULL: none) and @label as its tooltip and accessible
 * name, keeping the ids of what it acts on: the candidate, the item (a checklist item's
 * id, an undo token; 0 when none) and a kind (an operations test's; may be NULL). */
GtkWidget  *procura_item_button_new              (const char        *icon_name,
                                                  const char        *label,
                                                  gint64             candidate_id,
                                                  gint64             item_id,
                                                  const char        *kind);
gint64      procura_item_button_get_candidate_id (ProcuraItemButton *self);
gint64      procura_item_button_get_item_id      (ProcuraItemButton *self);
const char *procura_item_button_get_kind         (ProcuraItemButton *self);

G_END_DECLS
