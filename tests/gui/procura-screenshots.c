/* procura-screenshots.c: screenshots of every page in light and dark, and of
 * presentation mode, with the demo project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The candidates page also gets its first candidate's checklist and operations tests
 * open, and the dialogs that edit a checklist item and a test's measurements.
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

typedef struct {
  guint     *n;       /* how many more to open */
  GPtrArray *opened;  /* the ones it opens are closed again after the shot, so that the
                       * next colour scheme's plain shot is not the expanded one */
} ExpandFirst;

static ProcuraGuiTestMatch
expand_first_row (GtkWidget     *widget,
                  gconstpointer  data)
{
  const ExpandFirst *e = data;

  if (*e->n == 0)
    return PROCURA_GUI_TEST_PRUNE;
  if (!ADW_IS_EXPANDER_ROW (widget))
    return PROCURA_GUI_TEST_NO;
  if (!adw_expander_row_get_expanded (ADW_EXPANDER_ROW (widget)))
    g_ptr_array_add (e->opened, widget);
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (widget), TRUE);
  (*e->n)--;
  return PROCURA_GUI_TEST_PRUNE;
}

/* The first @n expander rows under @widget, depth first. */
static void
expand_first (GtkWidget *widget,
              guint     *n,
              GPtrArray *opened)
{
  ExpandFirst e = { n, opened };

  procura_gui_test_find_first (widget, expand_first_row, &e);
}

typedef struct {
  const char *title;
  gboolean    expanded;
  gboolean    first_only;
} ExpandTitled;

static ProcuraGuiTestMatch
expand_titled_row (GtkWidget     *widget,
                   gconstpointer  data)
{
  const ExpandTitled *e = data;

  if (!ADW_IS_EXPANDER_ROW (widget))
    return PROCURA_GUI_TEST_NO;
  if (g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), e->title) != 0)
    return PROCURA_GUI_TEST_PRUNE;
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (widget), e->expanded);
  return e->first_only ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_PRUNE;
}

/* Expands (or collapses) every expander row titled @title under @widget, or only the
 * first when @first_only. */
static void
expand_titled (GtkWidget  *widget,
               const char *title,
               gboolean    expanded,
               gboolean    first_only)
{
  ExpandTitled e = { title, expanded, first_only };

  procura_gui_test_find_first (widget, expand_titled_row, &e);
}

/* A button whose tooltip starts with @prefix */
static ProcuraGuiTestMatch
is_button_tipped (GtkWidget     *widget,
                  gconstpointer  prefix)
{
  const char *tooltip = gtk_widget_get_tooltip_text (widget);

  return GTK_IS_BUTTON (widget) && tooltip != NULL && g_str_has_prefix (tooltip, prefix)
         ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
}

/* Clicks the first button under @page whose tooltip starts with @prefix, and saves the
 * dialog it opens. */
static gboolean
save_dialog (GtkWidget  *page,
             const char *prefix,
             const char *dir,
             const char *name)
{
  GtkWidget *button = procura_gui_test_find_first (page, is_button_tipped, prefix);
  g_autoptr (GList) windows = NULL;
  GtkWidget *dialog = NULL;
  gboolean ok;

  if (button == NULL)
    {
      g_printerr ("procura-screenshots: no button “%s…”\n", prefix);
      return FALSE;
    }
  g_signal_emit_by_name (button, "clicked");
  windows = gtk_window_list_toplevels ();
  for (GList *l = windows; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      dialog = l->data;
  if (dialog == NULL)
    {
      g_printerr ("procura-screenshots: “%s…” opened no dialog\n", prefix);
      return FALSE;
    }
  procura_gui_test_wait_mapped (dialog);
  procura_gui_test_settle ();
  ok = save (dialog, dir, name);
  gtk_window_destroy (GTK_WINDOW (dialog));
  return ok;
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

              g_autoptr (GPtrArray) opened = g_ptr_array_new ();

              expand_first (procura_window_get_page (window, procura_window_page_names[i]), &n, opened);
              procura_gui_test_settle ();
              ok &= save (GTK_WIDGET (window), out, expanded);
              for (guint k = 0; k < opened->len; k++)
                adw_expander_row_set_expanded (opened->pdata[k], FALSE);
              procura_gui_test_settle ();
            }
          /* the first candidate's checklist and operations tests, and their editors */
          if (g_str_equal (procura_window_page_names[i], "candidates"))
            {
              GtkWidget *candidates = procura_window_get_page (window, "candidates");
              g_autofree char *checklist = g_strdup_printf ("candidates-checklist-%s", schemes[s].name);
              g_autofree char *item_dialog = g_strdup_printf ("checklist-dialog-%s", schemes[s].name);
              g_autofree char *ops_dialog = g_strdup_printf ("ops-dialog-%s", schemes[s].name);

              expand_titled (candidates, "Offer and cost inputs", FALSE, FALSE);
              expand_titled (candidates, "Procurement checklist", TRUE, TRUE);
              expand_titled (candidates, "Operations tests", TRUE, TRUE);
              /* let the rows' animations finish */
              for (int k = 0; k < 5; k++)
                procura_gui_test_settle ();
              ok &= save (GTK_WIDGET (window), out, checklist);
              ok &= save_dialog (candidates, "Edit “", out, item_dialog);
              ok &= save_dialog (candidates, "Edit the measurements of “Kill a worker", out, ops_dialog);
              expand_titled (candidates, "Procurement checklist", FALSE, FALSE);
              expand_titled (candidates, "Operations tests", FALSE, FALSE);
            }
        }
      /* Presentation mode as F5 opens it (the title, the recommendation, the charts),
       * in a window of 1280×800: without a window manager "full screen" does nothing.
       * The shot is the recommendation slide. */
      presentation = procura_window_present_slides (window);
      gtk_window_unfullscreen (GTK_WINDOW (presentation));
      gtk_window_set_default_size (GTK_WINDOW (presentation), 1290, 810);
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
