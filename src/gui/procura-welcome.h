/* procura-welcome.h: the first start's page: the demo, a new project, one to open
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PROCURA_TYPE_WELCOME (procura_welcome_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraWelcome, procura_welcome, PROCURA, WELCOME, AdwBin)

GtkWidget *procura_welcome_new        (void);
/* The recent projects, most recent first: @paths (opened with win.open-recent) shown
 * as @labels (both NULL-terminated, of one length); none hides the list. */
void       procura_welcome_set_recent (ProcuraWelcome     *self,
                                       const char * const *paths,
                                       const char * const *labels);

G_END_DECLS
