/* procura-presentation.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-presentation"

#include "config.h"

#include <glib/gi18n.h>

#include "procura-presentation.h"

struct _ProcuraPresentation
{
  AdwWindow  parent_instance;

  GtkStack  *slides;
  GtkLabel  *counter;
  GtkLabel  *hint;

  guint      n_slides;
  guint      current;
};

G_DEFINE_FINAL_TYPE (ProcuraPresentation, procura_presentation, ADW_TYPE_WINDOW)

static void
show_slide (ProcuraPresentation *self)
{
  g_autofree char *name = g_strdup_printf ("slide-%u", self->current);
  g_autofree char *counter = g_strdup_printf ("%u / %u", self->current + 1, self->n_slides);

  gtk_stack_set_visible_child_name (self->slides, name);
  gtk_label_set_text (self->counter, counter);
}

void
procura_presentation_move (ProcuraPresentation *self,
                           int                  delta)
{
  int target;

  g_return_if_fail (PROCURA_IS_PRESENTATION (self));
  target = CLAMP ((int) self->current + delta, 0, (int) self->n_slides - 1);
  if ((guint) target != self->current)
    {
      self->current = target;
      show_slide (self);
    }
}

guint
procura_presentation_get_n_slides (ProcuraPresentation *self)
{
  g_return_val_if_fail (PROCURA_IS_PRESENTATION (self), 0);
  return self->n_slides;
}

guint
procura_presentation_get_slide (ProcuraPresentation *self)
{
  g_return_val_if_fail (PROCURA_IS_PRESENTATION (self), 0);
  return self->current;
}

static void
next_action (GtkWidget *widget, const char *name, GVariant *parameter)
{
  procura_presentation_move (PROCURA_PRESENTATION (widget), +1);
}

static void
previous_action (GtkWidget *widget, const char *name, GVariant *parameter)
{
  procura_presentation_move (PROCURA_PRESENTATION (widget), -1);
}

static void
first_action (GtkWidget *widget, const char *name, GVariant *parameter)
{
  procura_presentation_move (PROCURA_PRESENTATION (widget), G_MININT / 2);
}

static void
last_action (GtkWidget *widget, const char *name, GVariant *parameter)
{
  procura_presentation_move (PROCURA_PRESENTATION (widget), G_MAXINT / 2);
}

static void
leave_action (GtkWidget *widget, const char *name, GVariant *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static GtkWidget *
title_slide (const char *title,
             const char *subtitle)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 24);
  GtkWidget *heading = gtk_label_new (title);
  GtkWidget *sub = gtk_label_new (subtitle);

  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (heading, "presentation-title");
  gtk_widget_add_css_class (sub, "presentation-subtitle");
  gtk_label_set_wrap (GTK_LABEL (heading), TRUE);
  gtk_label_set_wrap (GTK_LABEL (sub), TRUE);
  gtk_label_set_justify (GTK_LABEL (sub), GTK_JUSTIFY_CENTER);
  gtk_box_append (GTK_BOX (box), heading);
  if (subtitle != NULL && *subtitle != '\0')
    gtk_box_append (GTK_BOX (box), sub);
  gtk_widget_set_focusable (box, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  return box;
}

ProcuraPresentation *
procura_presentation_new (GtkWindow  *parent,
                          const char *title,
                          const char *subtitle,
                          GPtrArray  *charts)
{
  ProcuraPresentation *self = g_object_new (PROCURA_TYPE_PRESENTATION, NULL);

  if (parent != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (self), parent);
      gtk_window_set_application (GTK_WINDOW (self), gtk_window_get_application (parent));
    }
  gtk_stack_add_named (self->slides, title_slide (title, subtitle), "slide-0");
  self->n_slides = 1;
  for (guint i = 0; charts != NULL && i < charts->len; i++)
    {
      GtkWidget *view = procura_chart_view_new ();
      g_autofree char *name = g_strdup_printf ("slide-%u", self->n_slides);

      procura_chart_view_set_scale (PROCURA_CHART_VIEW (view), 2.0);
      /* Arrows move between slides here, not between points. */
      gtk_widget_set_focusable (view, FALSE);
      procura_chart_view_set_chart (PROCURA_CHART_VIEW (view), g_ptr_array_index (charts, i));
      gtk_widget_set_margin_start (view, 48);
      gtk_widget_set_margin_end (view, 48);
      gtk_widget_set_margin_top (view, 36);
      gtk_widget_set_margin_bottom (view, 56);
      gtk_stack_add_named (self->slides, view, name);
      self->n_slides++;
    }
  show_slide (self);
  return self;
}

static void
procura_presentation_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), PROCURA_TYPE_PRESENTATION);
  G_OBJECT_CLASS (procura_presentation_parent_class)->dispose (object);
}

static void
procura_presentation_class_init (ProcuraPresentationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = procura_presentation_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/procura/Procura/procura-presentation.ui");
  gtk_widget_class_bind_template_child (widget_class, ProcuraPresentation, counter);
  gtk_widget_class_bind_template_child (widget_class, ProcuraPresentation, hint);
  gtk_widget_class_bind_template_child (widget_class, ProcuraPresentation, slides);

  gtk_widget_class_install_action (widget_class, "presentation.next", NULL, next_action);
  gtk_widget_class_install_action (widget_class, "presentation.previous", NULL, previous_action);
  gtk_widget_class_install_action (widget_class, "presentation.first", NULL, first_action);
  gtk_widget_class_install_action (widget_class, "presentation.last", NULL, last_action);
  gtk_widget_class_install_action (widget_class, "presentation.leave", NULL, leave_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "presentation.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "presentation.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, 0, "presentation.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "presentation.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "presentation.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "presentation.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, 0, "presentation.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "presentation.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "presentation.first", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_End, 0, "presentation.last", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "presentation.leave", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "presentation.leave", NULL);
}

static void
procura_presentation_init (ProcuraPresentation *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_add_css_class (GTK_WIDGET (self), "presentation");
}
