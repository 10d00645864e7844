/* procura-item-button.c: an icon button acting on one item of a candidate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-item-button"

#include "config.h"

#include "procura-item-button.h"

struct _ProcuraItemButton
{
  GtkButton  parent_instance;

  gint64     candidate_id;
  gint64     item_id;
  char      *kind;
};

G_DEFINE_FINAL_TYPE (ProcuraItemButton, procura_item_button, GTK_TYPE_BUTTON)

GtkWidget *
procura_item_button_new (const char *icon_name,
                         const char *label,
                         gint64      candidate_id,
                         gint64      item_id,
                         const char *kind)
{
  ProcuraItemButton *self = g_object_new (PROCURA_TYPE_ITEM_BUTTON, NULL);

  if (icon_name != NULL)
    {
      gtk_button_set_icon_name (GTK_BUTTON (self), icon_name);
      gtk_widget_add_css_class (GTK_WIDGET (self), "flat");
    }
  gtk_widget_set_valign (GTK_WIDGET (self), GTK_ALIGN_CENTER);
  if (label != NULL)
    {
      gtk_widget_set_tooltip_text (GTK_WIDGET (self), label);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
    }
  self->candidate_id = candidate_id;
  self->item_id = item_id;
  self->kind = g_strdup (kind);
  return GTK_WIDGET (self);
}

gint64
procura_item_button_get_candidate_id (ProcuraItemButton *self)
{
  g_return_val_if_fail (PROCURA_IS_ITEM_BUTTON (self), 0);
  return self->candidate_id;
}

gint64
procura_item_button_get_item_id (ProcuraItemButton *self)
{
  g_return_val_if_fail (PROCURA_IS_ITEM_BUTTON (self), 0);
  return self->item_id;
}

const char *
procura_item_button_get_kind (ProcuraItemButton *self)
{
  g_return_val_if_fail (PROCURA_IS_ITEM_BUTTON (self), NULL);
  return self->kind;
}

static void
procura_item_button_finalize (GObject *object)
{
  ProcuraItemButton *self = PROCURA_ITEM_BUTTON (object);

  g_clear_pointer (&self->kind, g_free);
  G_OBJECT_CLASS (procura_item_button_parent_class)->finalize (object);
}

static void
procura_item_button_class_init (ProcuraItemButtonClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = procura_item_button_finalize;
}

static void
procura_item_button_init (ProcuraItemButton *self)
{
}
