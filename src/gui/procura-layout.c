/* procura-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

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

static void
name_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);
  int chars = GPOINTER_TO_INT (user_data);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), chars);
  /* in the list, wide enough for most names whole */
  if (chars > 30)
    gtk_label_set_width_chars (GTK_LABEL (label), 30);
  gtk_list_item_set_child (item, label);
}

static void
name_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  GObject *object = gtk_list_item_get_item (item);
  const char *name = GTK_IS_STRING_OBJECT (object) ? gtk_string_object_get_string (GTK_STRING_OBJECT (object)) : "";

  gtk_label_set_label (GTK_LABEL (label), name);
  gtk_widget_set_tooltip_text (label, name);
}

static GtkListItemFactory *
name_factory_new (int max_chars)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (name_setup_cb), GINT_TO_POINTER (max_chars));
  g_signal_connect (factory, "bind", G_CALLBACK (name_bind_cb), NULL);
  return factory;
}

void
procura_combo_row_show_names (GtkWidget *combo_row)
{
  g_autoptr (GtkListItemFactory) shown = name_factory_new (28);
  g_autoptr (GtkListItemFactory) list = name_factory_new (64);

  g_return_if_fail (ADW_IS_COMBO_ROW (combo_row));
  adw_combo_row_set_factory (ADW_COMBO_ROW (combo_row), shown);
  adw_combo_row_set_list_factory (ADW_COMBO_ROW (combo_row), list);
}
