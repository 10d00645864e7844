/* procura-candidate-row.c: one candidate on the Candidates page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-candidate-row"

#include "config.h"

#include "procura-candidate-row.h"

struct _ProcuraCandidateRow
{
  AdwPreferencesGroup      parent_instance;

  GtkWidget               *delete_button;
  AdwActionRow            *price_row;
  GtkLabel                *price_badge;
  ProcuraCandidateSection *cost;
  ProcuraCandidateSection *checklist;
  ProcuraCandidateSection *ops;

  gint64                   candidate_id;
};

G_DEFINE_FINAL_TYPE (ProcuraCandidateRow, procura_candidate_row, ADW_TYPE_PREFERENCES_GROUP)

enum {
  DELETE_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
delete_clicked_cb (ProcuraCandidateRow *self,
                   GtkButton           *button)
{
  g_signal_emit (self, signals[DELETE_REQUESTED], 0);
}

GtkWidget *
procura_candidate_row_new (gint64 candidate_id)
{
  ProcuraCandidateRow *self = g_object_new (PROCURA_TYPE_CANDIDATE_ROW, NULL);

  self->candidate_id = candidate_id;
  return GTK_WIDGET (self);
}

gint64
procura_candidate_row_get_candidate_id (ProcuraCandidateRow *self)
{
  g_return_val_if_fail (PROCURA_IS_CANDIDATE_ROW (self), 0);
  return self->candidate_id;
}

GtkWidget *
procura_candidate_row_get_delete_button (ProcuraCandidateRow *self)
{
  g_return_val_if_fail (PROCURA_IS_CANDIDATE_ROW (self), NULL);
  return self->delete_button;
}

AdwActionRow *
procura_candidate_row_get_price_row (ProcuraCandidateRow *self)
{
  g_return_val_if_fail (PROCURA_IS_CANDIDATE_ROW (self), NULL);
  return self->price_row;
}

GtkLabel *
procura_candidate_row_get_price_badge (ProcuraCandidateRow *self)
{
  g_return_val_if_fail (PROCURA_IS_CANDIDATE_ROW (self), NULL);
  return self->price_badge;
}

ProcuraCandidateSection *
procura_candidate_row_get_section (ProcuraCandidateRow *self,
                                   const char          *kind)
{
  g_return_val_if_fail (PROCURA_IS_CANDIDATE_ROW (self), NULL);
  if (g_strcmp0 (kind, "cost") == 0)
    return self->cost;
  if (g_strcmp0 (kind, "checklist") == 0)
    return self->checklist;
  if (g_strcmp0 (kind, "ops") == 0)
    return self->ops;
  g_return_val_if_reached (NULL);
}

static void
procura_candidate_row_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), PROCURA_TYPE_CANDIDATE_ROW);
  G_OBJECT_CLASS (procura_candidate_row_parent_class)->dispose (object);
}

static void
procura_candidate_row_class_init (ProcuraCandidateRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = procura_candidate_row_dispose;
  /* The delete button asks; the page deletes (with its undo toast). */
  signals[DELETE_REQUESTED] = g_signal_new ("delete-requested", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
  g_type_ensure (PROCURA_TYPE_CANDIDATE_SECTION);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/procura/Procura/procura-candidate-row.ui");
  gtk_widget_class_bind_template_child (widget_class, ProcuraCandidateRow, delete_button);
  gtk_widget_class_bind_template_child (widget_class, ProcuraCandidateRow, price_row);
  gtk_widget_class_bind_template_child (widget_class, ProcuraCandidateRow, price_badge);
  gtk_widget_class_bind_template_child (widget_class, ProcuraCandidateRow, cost);
  gtk_widget_class_bind_template_child (widget_class, ProcuraCandidateRow, checklist);
  gtk_widget_class_bind_template_child (widget_class, ProcuraCandidateRow, ops);
  gtk_widget_class_bind_template_callback (widget_class, delete_clicked_cb);
}

static void
procura_candidate_row_init (ProcuraCandidateRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
