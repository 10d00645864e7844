/* procura-gui-test.h: helpers shared by the GUI tests and the screenshot tool
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-application.h"
#include "procura-window.h"

G_BEGIN_DECLS

/* The setup every GUI test program's main() starts with: g_test_init(), a private data
 * folder ($XDG_DATA_HOME, set before anything reads it: a demo project or the recent
 * list are written there, never in the user's; removed by procura_gui_test_run()),
 * gtk_init_check(), adw_init() and animations off. Whatever must come before GTK's
 * initialisation (a text domain bound, $GTK_A11Y, a log writer) is done before the
 * call. Returns FALSE when there is no display, having printed the TAP plan of a skip:
 * main() then returns 0. */
gboolean            procura_gui_test_init        (int    *argc,
                                                  char ***argv);
/* A new application, registered (a window needs one), released by
 * procura_gui_test_run(). */
ProcuraApplication *procura_gui_test_application (void);
/* Runs the tests (g_test_run()), then releases the application and removes the data
 * folder; returns g_test_run()'s status. */
int                 procura_gui_test_run         (void);

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

/* The one tree walker of the tests (depth first, @widget included), and the finders
 * built on it. What a walker's test says of one widget: */
typedef enum
{
  PROCURA_GUI_TEST_NO,    /* not this one: look under it */
  PROCURA_GUI_TEST_YES,   /* this one (when collecting, under it too) */
  PROCURA_GUI_TEST_PRUNE, /* neither this one nor anything under it */
} ProcuraGuiTestMatch;

typedef ProcuraGuiTestMatch (*ProcuraGuiTestFunc) (GtkWidget     *widget,
                                                   gconstpointer  data);

/* The first widget @match says YES to, or NULL. */
GtkWidget     *procura_gui_test_find_first  (GtkWidget          *widget,
                                             ProcuraGuiTestFunc  match,
                                             gconstpointer       data);
/* Every widget @match says YES to, in tree order (the array holds no references). */
GPtrArray     *procura_gui_test_find_all    (GtkWidget          *widget,
                                             ProcuraGuiTestFunc  match,
                                             gconstpointer       data);

/* The first descendant of @widget of @type (depth first), or NULL. */
GtkWidget     *procura_gui_test_find        (GtkWidget *widget,
                                             GType      type);
/* The first GtkLabel descendant whose text contains @text, or NULL. */
GtkWidget     *procura_gui_test_find_label  (GtkWidget  *widget,
                                             const char *text);
/* The first widget whose name (gtk_widget_set_name) is @name, or NULL. */
GtkWidget     *procura_gui_test_find_named  (GtkWidget  *widget,
                                             const char *name);
/* The first button whose tooltip (its accessible label too) is @tooltip, or NULL. */
GtkWidget     *procura_gui_test_find_button (GtkWidget  *widget,
                                             const char *tooltip);
/* The first button whose label is @label, or NULL. */
GtkWidget     *procura_gui_test_find_button_labelled (GtkWidget  *widget,
                                                      const char *label);
/* The first AdwPreferencesRow of @type (an entry, combo or expander row) titled @title,
 * or NULL. */
GtkWidget     *procura_gui_test_find_row    (GtkWidget  *widget,
                                             GType       type,
                                             const char *title);
/* Every visible label's text under @widget (a hidden parent does not hide it), one per
 * line, appended to @out. */
void           procura_gui_test_collect_labels (GtkWidget *widget,
                                                GString   *out);
/* Expands every expander row under @widget (their details are built on expansion). */
void           procura_gui_test_expand_all  (GtkWidget  *widget);

G_END_DECLS
