/* procura-gui-test.h: helpers shared by the GUI tests and the screenshot tool
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-window.h"

G_BEGIN_DECLS

/* After adw_init(): turns animations off. libadwaita before 1.3 (Debian 12 has 1.2.2)
 * frees a toast's data when its hide animation ends while its show animation still
 * runs, and the show animation's "done" handler then writes to the freed data
 * (upstream commit 1674ebc9, "toast-overlay: Prevent show_done from firing after
 * hide_done"): a SIGSEGV in adw_animation_skip() from the frame clock, seen in the
 * pages test on a loaded machine where frames come late. Without animations every
 * AdwAnimation ends at once, inside play(), and the tests do not wait for any. */
void           procura_gui_test_disable_animations (void);
/* Runs the main loop until @widget is mapped and allocated (5 s at most). */
void           procura_gui_test_wait_mapped (GtkWidget *widget);
/* Runs the main loop until the window has a document and nothing is loading
 * (@timeout_s at most); returns FALSE on timeout. */
gboolean       procura_gui_test_wait_idle   (ProcuraWindow *window,
                                             double         timeout_s);
/* Main loop iterations until pending redraws and idles have run: until the loop has
 * been quiet for 40 ms, 200 ms at most. */
void           procura_gui_test_settle      (void);
/* Renders @widget offscreen (cairo renderer) into a texture. */
GdkTexture    *procura_gui_test_render      (GtkWidget  *widget,
                                             GError    **error);
/* The first descendant of @widget of @type (depth first), or NULL. */
GtkWidget     *procura_gui_test_find        (GtkWidget *widget,
                                             GType      type);
/* The first GtkLabel descendant whose text contains @text, or NULL. */
/* Expands every expander row under @widget (their details are built on expansion). */
void           procura_gui_test_expand_all  (GtkWidget  *widget);
GtkWidget     *procura_gui_test_find_label  (GtkWidget  *widget,
                                             const char *text);

G_END_DECLS
