/* procura-gui-test.h: helpers shared by the GUI tests and the screenshot tool
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-window.h"

G_BEGIN_DECLS

/* Runs the main loop until @widget is mapped and allocated (5 s at most). */
void           procura_gui_test_wait_mapped (GtkWidget *widget);
/* Runs the main loop until the window has a document and nothing is loading
 * (@timeout_s at most); returns FALSE on timeout. */
gboolean       procura_gui_test_wait_idle   (ProcuraWindow *window,
                                             double         timeout_s);
/* A few main loop iterations so that pending redraws and idles run. */
void           procura_gui_test_settle      (void);
/* Renders @widget offscreen (cairo renderer) into a texture. */
GdkTexture    *procura_gui_test_render      (GtkWidget  *widget,
                                             GError    **error);
/* The first descendant of @widget of @type (depth first), or NULL. */
GtkWidget     *procura_gui_test_find        (GtkWidget *widget,
                                             GType      type);
/* The first GtkLabel descendant whose text contains @text, or NULL. */
GtkWidget     *procura_gui_test_find_label  (GtkWidget  *widget,
                                             const char *text);

G_END_DECLS
