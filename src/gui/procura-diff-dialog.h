/* procura-diff-dialog.h: "Compare with…": what changed since another version of the project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-diff.h"

G_BEGIN_DECLS

/* The diff as a page of preference groups (brief, assumptions, decision, candidates,
 * quotes, runs, consequences, recommendation); "No changes" when there are none. */
GtkWidget *procura_diff_view_new      (const ProcuraDiff *diff);

/* Opens @old_path read-only and compares it with @new_path (the open project) in a
 * thread, then shows the result in a window over @parent. Errors are shown in it too. */
void       procura_diff_dialog_present (GtkWindow  *parent,
                                        const char *old_path,
                                        const char *new_path);

G_END_DECLS
