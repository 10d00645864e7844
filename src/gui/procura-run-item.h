/* procura-run-item.h: one entry of the Benchmarks page's list: a group's heading, an
 * import error or a run (by id)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  PROCURA_RUN_ITEM_HEADING,   /* a candidate's runs (or the unassigned ones) follow */
  PROCURA_RUN_ITEM_ERROR,     /* a file that was not imported, and why */
  PROCURA_RUN_ITEM_RUN,       /* one run, by id */
} ProcuraRunItemKind;

#define PROCURA_TYPE_RUN_ITEM (procura_run_item_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraRunItem, procura_run_item, PROCURA, RUN_ITEM, GObject)

/* Keeps copies and ids, never pointers into a snapshot: the row bound to it looks the
 * run up in the current one. */
ProcuraRunItem     *procura_run_item_new          (ProcuraRunItemKind  kind,
                                                   gint64              run_id,
                                                   const char         *title,
                                                   const char         *subtitle);
ProcuraRunItemKind  procura_run_item_get_kind     (ProcuraRunItem     *self);
gint64              procura_run_item_get_run_id   (ProcuraRunItem     *self);
const char         *procura_run_item_get_title    (ProcuraRunItem     *self);
const char         *procura_run_item_get_subtitle (ProcuraRunItem     *self);

G_END_DECLS
