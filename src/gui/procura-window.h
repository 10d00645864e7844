/* procura-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-application.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_WINDOW (procura_window_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraWindow, procura_window, PROCURA, WINDOW, AdwApplicationWindow)

ProcuraWindow *procura_window_new       (ProcuraApplication *application);
void           procura_window_open_file (ProcuraWindow      *self,
                                         GFile              *file);
/* The names of the pages, in order: brief, candidates, benchmarks, compare, fit, decision */
extern const char * const procura_window_page_names[];

G_END_DECLS
