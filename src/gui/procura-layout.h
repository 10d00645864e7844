/* procura-layout.h: layouts that fit down to a narrow window (360 px)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A row of widgets (buttons, controls, cards) that wraps into more lines, down to one
 * column, when the window is narrow: a GtkFlowBox that selects nothing and whose
 * children are not focus stops of their own. At most @max_per_line on a line. */
GtkWidget *procura_wrap_box_new    (guint      spacing,
                                    guint      max_per_line);
void       procura_wrap_box_append (GtkWidget *wrap_box,
                                    GtkWidget *child);

/* A combo row choosing among candidates (an AdwComboRow over a GtkStringList): names
 * long enough to tell apart, ellipsized in the middle (where two offers differ less
 * often than at their ends), in a wider list, the full name as each row's tooltip. */
void       procura_combo_row_show_names (GtkWidget *combo_row);

G_END_DECLS
