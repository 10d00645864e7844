/* procura-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-layout.h"

GtkWidget *
procura_wrap_box_new (guint spacing,
                      guint max_per_line)
{
  GtkWidget *box = gtk_flow_box_new ();

  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (box), GTK_SELECTION_NONE);
  gtk_flow_box_set_activate_on_single_click (GTK_FLOW_BOX (box), FALSE);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (box), spacing);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (box), spacing);
  gtk_flow_box_set_min_children_per_line (GTK_FLOW_BOX (box), 1);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (box), MAX (max_per_line, 1));
  return box;
}

void
procura_wrap_box_append (GtkWidget *wrap_box,
                         GtkWidget *child)
{
  GtkWidget *flow_child;

  g_return_if_fail (GTK_IS_FLOW_BOX (wrap_box));
  gtk_flow_box_append (GTK_FLOW_BOX (wrap_box), child);
  /* the child itself takes the focus, not a box around it */
  flow_child = gtk_widget_get_parent (child);
  gtk_widget_set_focusable (flow_child, FALSE);
  /* the box fills the width (a centred flow box would take its narrowest, one-column
   * size); each child is centred in its share */
  if (gtk_widget_get_halign (child) == GTK_ALIGN_FILL && !gtk_widget_get_hexpand (child))
    gtk_widget_set_halign (child, GTK_ALIGN_CENTER);
}
