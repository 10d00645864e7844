/* procura-screenshots.c: screenshots of every page in light and dark, and of
 * presentation mode, with the demo project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: procura-screenshots OUTDIR   (needs a display: run it under xvfb-run;
 * build-aux/screenshots.sh does). Renders the real window offscreen at 1280×800.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "procura-compare-page.h"
#include "procura-gui-test.h"

static gboolean
save (GtkWidget  *widget,
      const char *dir,
      const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = procura_gui_test_render (widget, &error);
  g_autofree char *path = g_strdup_printf ("%s/%s.png", dir, name);

  if (texture == NULL || !gdk_texture_save_to_png (texture, path))
    {
      g_printerr ("procura-screenshots: %s: %s\n", path, error != NULL ? error->message : "cannot save");
      return FALSE;
    }
  g_print ("%s (%dx%d)\n", path, gdk_texture_get_width (texture), gdk_texture_get_height (texture));
  return TRUE;
}

/* The first @n expander rows under @widget, depth first. */
static void
expand_first (GtkWidget *widget,
              guint     *n)
{
  if (*n == 0)
    return;
  if (ADW_IS_EXPANDER_ROW (widget))
    {
      adw_expander_row_set_expanded (ADW_EXPANDER_ROW (widget), TRUE);
      (*n)--;
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL && *n > 0;
       child = gtk_widget_get_next_sibling (child))
    expand_first (child, n);
}

int
main (int argc, char *argv[])
{
  g_autoptr (ProcuraApplication) app = NULL;
  g_autofree char *tmp = NULL;
  ProcuraWindow *window;
  const char *out;
  static const struct { AdwColorScheme scheme; const char *name; } schemes[] = {
    { ADW_COLOR_SCHEME_FORCE_LIGHT, "light" }, { ADW_COLOR_SCHEME_FORCE_DARK, "dark" },
  };
  gboolean ok = TRUE;

  if (argc != 2)
    {
      g_printerr ("usage: procura-screenshots OUTDIR\n");
      return 2;
    }
  out = argv[1];
  g_mkdir_with_parents (out, 0755);
  /* A private data folder: the demo project is written there, never in the user's. */
  tmp = g_dir_make_tmp ("procura-screenshots-XXXXXX", NULL);
  g_setenv ("XDG_DATA_HOME", tmp, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  if (!gtk_init_check ())
    {
      g_printerr ("procura-screenshots: no display (run under xvfb-run)\n");
      return 77;
    }
  adw_init ();

  app = procura_application_new ();
  g_application_register (G_APPLICATION (app), NULL, NULL);
  window = procura_window_new (app);
  /* The window's own size excludes its 5 px frame on each side: ask for 1290×810 so
   * that the rendered window is exactly 1280×800. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1290, 810);
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  procura_window_open_demo (window);
  if (!procura_gui_test_wait_idle (window, 30))
    {
      g_printerr ("procura-screenshots: the demo project did not open\n");
      return 1;
    }

  for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
    {
      ProcuraPresentation *presentation;
      g_autofree char *name = NULL;

      adw_style_manager_set_color_scheme (adw_style_manager_get_default (), schemes[s].scheme);
      for (guint i = 0; procura_window_page_names[i] != NULL; i++)
        {
          g_autofree char *page = g_strdup_printf ("%s-%s", procura_window_page_names[i], schemes[s].name);

          gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", i);
          procura_gui_test_wait_idle (window, 30);
          procura_gui_test_settle ();
          ok &= save (GTK_WIDGET (window), out, page);
          /* the rows that open: the first candidate's cost inputs, a run's metrics, a warning */
          if (g_str_equal (procura_window_page_names[i], "candidates")
              || g_str_equal (procura_window_page_names[i], "benchmarks")
              || g_str_equal (procura_window_page_names[i], "decision"))
            {
              g_autofree char *expanded = g_strdup_printf ("%s-expanded-%s", procura_window_page_names[i],
                                                           schemes[s].name);
              guint n = g_str_equal (procura_window_page_names[i], "decision") ? 2 : 1;

              expand_first (procura_window_get_page (window, procura_window_page_names[i]), &n);
              procura_gui_test_settle ();
              ok &= save (GTK_WIDGET (window), out, expanded);
            }
        }
      {
        /* The slides presentation mode shows (the charts of the Compare page), in a
         * window of 1280×800: without a window manager "full screen" does nothing. */
        GPtrArray *views = procura_compare_page_get_chart_views (
          PROCURA_COMPARE_PAGE (procura_window_get_page (window, "compare")));
        g_autoptr (GPtrArray) charts = g_ptr_array_new ();
        ProcuraProject *project = procura_document_get_project (procura_window_get_document (window));

        for (guint i = 0; i < views->len; i++)
          if (procura_chart_view_get_chart (g_ptr_array_index (views, i)) != NULL)
            g_ptr_array_add (charts, procura_chart_view_get_chart (g_ptr_array_index (views, i)));
        presentation = procura_presentation_new (GTK_WINDOW (window), project->title,
                                                 "Illustrative data: not measurements, not real prices",
                                                 charts);
        gtk_window_set_default_size (GTK_WINDOW (presentation), 1290, 810);
        gtk_window_present (GTK_WINDOW (presentation));
      }
      procura_gui_test_wait_mapped (GTK_WIDGET (presentation));
      if (procura_presentation_get_n_slides (presentation) > 1)
        procura_presentation_move (presentation, 1);
      /* Let the slide transition finish. */
      for (int k = 0; k < 5; k++)
        procura_gui_test_settle ();
      name = g_strdup_printf ("presentation-%s", schemes[s].name);
      ok &= save (GTK_WIDGET (presentation), out, name);
      gtk_window_destroy (GTK_WINDOW (presentation));
    }
  gtk_window_destroy (GTK_WINDOW (window));
  return ok ? 0 : 1;
}
