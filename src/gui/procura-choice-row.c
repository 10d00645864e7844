/* procura-choice-row.c: a choice about one candidate or one of its items
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-choice-row"

#include "config.h"

#include "procura-choice-row.h"

struct _ProcuraChoiceRow
{
  AdwComboRow  parent_instance;

  gint64       candidate_id;
  gint64       item_id;
  char        *kind;
  GPtrArray   *quotes;
};

G_DEFINE_FINAL_TYPE (ProcuraChoiceRow, procura_choice_row, ADW_TYPE_COMBO_ROW)

GtkWidget *
procura_choice_row_new (gint64      candidate_id,
                        gint64      item_id,
                        const char *kind)
{
  ProcuraChoiceRow *self = g_object_new (PROCURA_TYPE_CHOICE_ROW, NULL);

  self->candidate_id = candidate_id;
  self->item_id = item_id;
  self->kind = g_strdup (kind);
  return GTK_WIDGET (self);
}

gint64
procura_choice_row_get_candidate_id (ProcuraChoiceRow *self)
{
  g_return_val_if_fail (PROCURA_IS_CHOICE_ROW (self), 0);
  return self->candidate_id;
}

gint64
procura_choice_row_get_item_id (ProcuraChoiceRow *self)
{
  g_return_val_if_fail (PROCURA_IS_CHOICE_ROW (self), 0);
  return self->item_id;
}

const char *
procura_choice_row_get_kind (ProcuraChoiceRow *self)
{
  g_return_val_if_fail (PROCURA_IS_CHOICE_ROW (self), NULL);
  return self->kind;
}

void
procura_choice_row_set_quotes (ProcuraChoiceRow *self,
                               GPtrArray        *quotes)
{
  g_return_if_fail (PROCURA_IS_CHOICE_ROW (self));
  g_clear_pointer (&self->quotes, g_ptr_array_unref);
  self->quotes = quotes;
}

ProcuraQuote *
procura_choice_row_get_quote (ProcuraChoiceRow *self,
                              guint             position)
{
  g_return_val_if_fail (PROCURA_IS_CHOICE_ROW (self), NULL);
  if (self->quotes == NULL || position == 0 || position - 1 >= self->quotes->len)
    return NULL;
  return g_ptr_array_index (self->quotes, position - 1);
}

static void
procura_choice_row_finalize (GObject *object)
{
  ProcuraChoiceRow *self = PROCURA_CHOICE_ROW (object);

  g_clear_pointer (&self->kind, g_free);
  g_clear_pointer (&self->quotes, g_ptr_array_unref);
  G_OBJECT_CLASS (procura_choice_row_parent_class)->finalize (object);
}

static void
procura_choice_row_class_init (ProcuraChoiceRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = procura_choice_row_finalize;
}

static void
procura_choice_row_init (ProcuraChoiceRow *self)
{
}
