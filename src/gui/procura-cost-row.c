/* procura-cost-row.c: one editable cost input of a candidate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-cost-row"

#include "config.h"

#include "procura-cost-row.h"

struct _ProcuraCostRow
{
  AdwEntryRow parent_instance;

  gint64      candidate_id;
  guint       field;
};

G_DEFINE_FINAL_TYPE (ProcuraCostRow, procura_cost_row, ADW_TYPE_ENTRY_ROW)

GtkWidget *
procura_cost_row_new (gint64 candidate_id,
                      guint  field)
{
  ProcuraCostRow *self = g_object_new (PROCURA_TYPE_COST_ROW, NULL);

  self->candidate_id = candidate_id;
  self->field = field;
  return GTK_WIDGET (self);
}

gint64
procura_cost_row_get_candidate_id (ProcuraCostRow *self)
{
  g_return_val_if_fail (PROCURA_IS_COST_ROW (self), 0);
  return self->candidate_id;
}

guint
procura_cost_row_get_field (ProcuraCostRow *self)
{
  g_return_val_if_fail (PROCURA_IS_COST_ROW (self), 0);
  return self->field;
}

static void
procura_cost_row_class_init (ProcuraCostRowClass *klass)
{
}

static void
procura_cost_row_init (ProcuraCostRow *self)
{
}
