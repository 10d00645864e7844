/* procura-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-application.h"
#include "procura-document.h"
#include "procura-presentation.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_WINDOW (procura_window_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraWindow, procura_window, PROCURA, WINDOW, AdwApplicationWindow)

ProcuraWindow   *procura_window_new          (ProcuraApplication *application);
void             procura_window_open_file    (ProcuraWindow      *self,
                                              GFile              *file);
/* The last project, or on the first start the welcome page (the demo one click away). */
void             procura_window_open_default (ProcuraWindow      *self);
void             procura_window_open_demo    (ProcuraWindow      *self);
/* Writes the decision record of the open project to @path (.pdf, .md or .csv) in a
 * thread; a toast says when it is done or why it failed. */
void           procura_window_export_record (ProcuraWindow *self,
                                             const char    *path);
/* Imports @files (GFile*) in a thread, with progress and cancel. */
void             procura_window_import_files (ProcuraWindow      *self,
                                              GPtrArray          *files);
ProcuraDocument *procura_window_get_document (ProcuraWindow      *self);
/* TRUE while a project opens, an edit is saved or an import runs. */
gboolean         procura_window_is_loading   (ProcuraWindow      *self);
GtkWidget       *procura_window_get_page     (ProcuraWindow      *self,
                                              const char         *name);
/* Opens presentation mode (F5) and returns its window. */
ProcuraPresentation *procura_window_present_slides (ProcuraWindow *self);
/* $XDG_DATA_HOME/procura/demo.procura */
char            *procura_window_get_demo_path (void);

/* The names of the pages, in order: brief, candidates, benchmarks, compare, fit, decision */
extern const char * const procura_window_page_names[];

G_END_DECLS
