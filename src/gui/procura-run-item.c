/* procura-run-item.c: one entry of the Benchmarks page's list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-run-item"

#include "config.h"

#include "procura-run-item.h"

struct _ProcuraRunItem
{
  GObject             parent_instance;

  ProcuraRunItemKind  kind;
  gint64              run_id;
  char               *title;
  char               *subtitle;
};

G_DEFINE_FINAL_TYPE (ProcuraRunItem, procura_run_item, G_TYPE_OBJECT)

ProcuraRunItem *
procura_run_item_new (ProcuraRunItemKind  kind,
                      gint64              run_id,
                      const char         *title,
                      const char         *subtitle)
{
  ProcuraRunItem *self = g_object_new (PROCURA_TYPE_RUN_ITEM, NULL);

  self->kind = kind;
  self->run_id = run_id;
  self->title = g_strdup (title);
  self->subtitle = g_strdup (subtitle);
  return self;
}

ProcuraRunItemKind
procura_run_item_get_kind (ProcuraRunItem *self)
{
  g_return_val_if_fail (PROCURA_IS_RUN_ITEM (self), PROCURA_RUN_ITEM_HEADING);
  return self->kind;
}

gint64
procura_run_item_get_run_id (ProcuraRunItem *self)
{
  g_return_val_if_fail (PROCURA_IS_RUN_ITEM (self), 0);
  return self->run_id;
}

const char *
procura_run_item_get_title (ProcuraRunItem *self)
{
  g_return_val_if_fail (PROCURA_IS_RUN_ITEM (self), NULL);
  return self->title;
}

const char *
procura_run_item_get_subtitle (ProcuraRunItem *self)
{
  g_return_val_if_fail (PROCURA_IS_RUN_ITEM (self), NULL);
  return self->subtitle;
}

static void
procura_run_item_finalize (GObject *object)
{
  ProcuraRunItem *self = PROCURA_RUN_ITEM (object);

  g_free (self->title);
  g_free (self->subtitle);
  G_OBJECT_CLASS (procura_run_item_parent_class)->finalize (object);
}

static void
procura_run_item_class_init (ProcuraRunItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = procura_run_item_finalize;
}

static void
procura_run_item_init (ProcuraRunItem *self)
{
}
