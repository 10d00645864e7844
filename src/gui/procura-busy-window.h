/* procura-busy-window.h: a dialog window that waits on a thread's work
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* The window's own type holds its state (the spinner); the functions below take and
 * return it as a GtkWindow, as their callers only present and fill it. */
#define PROCURA_TYPE_BUSY_WINDOW (procura_busy_window_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraBusyWindow, procura_busy_window, PROCURA, BUSY_WINDOW, AdwWindow)

/* A modal window over @parent (destroyed with it) with a header bar and a spinner,
 * presented at once; the caller starts the work (a GTask with no source object that
 * holds a reference to the window) and, when it ends, puts the result in with
 * procura_busy_window_set_content(). */
GtkWindow *procura_busy_window_present     (GtkWindow  *parent,
                                            const char *title,
                                            int         width,
                                            int         height);
/* TRUE while @window still shows its spinner: FALSE once it was closed (its content
 * destroyed) or filled, and then there is nothing left to fill. */
gboolean   procura_busy_window_is_waiting  (GtkWindow  *window);
/* Replaces the spinner by @content, which fills the rest of the window. */
void       procura_busy_window_set_content (GtkWindow  *window,
                                            GtkWidget  *content);
/* A status page saying why there is nothing to show: @title, and @description (the
 * error's message). */
GtkWidget *procura_busy_window_error_page  (const char *title,
                                            const char *description);

G_END_DECLS
