/* test-templates.c: every template widget instantiates on the installed GTK/libadwaita
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A widget newer than the floor (GTK 4.8, libadwaita 1.2) in a .ui file fails here
 * with "Invalid object type", which g_test turns into a failure.
 */
#include "config.h"

#include "procura-application.h"
#include "procura-chart-view.h"
#include "procura-presentation.h"
#include "procura-gui-test.h"
#include "procura-window.h"

static void
test_window_template (void)
{
  g_autoptr (ProcuraApplication) app = procura_application_new ();
  ProcuraWindow *window;

  g_application_register (G_APPLICATION (app), NULL, NULL);
  window = procura_window_new (app);
  g_assert_true (PROCURA_IS_WINDOW (window));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_presentation_template (void)
{
  ProcuraPresentation *presentation = procura_presentation_new (NULL, "Title", "Subtitle", NULL);

  g_assert_true (PROCURA_IS_PRESENTATION (presentation));
  /* The title slide only. */
  g_assert_cmpuint (procura_presentation_get_n_slides (presentation), ==, 1);
  gtk_window_destroy (GTK_WINDOW (presentation));
}

static void
test_chart_view (void)
{
  GtkWidget *view = g_object_ref_sink (procura_chart_view_new ());

  g_assert_true (PROCURA_IS_CHART_VIEW (view));
  g_assert_null (procura_chart_view_get_summary (PROCURA_CHART_VIEW (view)));
  g_assert_finalize_object (view);
}

static void
test_help_overlay (void)
{
  g_autoptr (GtkBuilder) builder =
    gtk_builder_new_from_resource ("/io/github/procura/Procura/help-overlay.ui");
  GObject *overlay = gtk_builder_get_object (builder, "help_overlay");

  g_assert_true (GTK_IS_SHORTCUTS_WINDOW (overlay));
  gtk_window_destroy (GTK_WINDOW (overlay));
}

int
main (int    argc,
      char **argv)
{
  if (!procura_gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/templates/window", test_window_template);
  g_test_add_func ("/templates/help-overlay", test_help_overlay);
  g_test_add_func ("/templates/presentation", test_presentation_template);
  g_test_add_func ("/templates/chart-view", test_chart_view);
  return procura_gui_test_run ();
}
