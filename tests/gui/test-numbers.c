/* test-numbers.c: the numbers the Decision and Compare pages show — the finance table
 * whole at 1280×800 and 800×600, the hybrid as a choice, the project's currency, and
 * what is missing when the brief has no latency target
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "procura-compare-page.h"
#include "procura-gui-test.h"
#include "procura-presentation.h"
#include "procura-test-util.h"

#include "procura-demo.h"
#include "procura-store.h"

static ProcuraApplication *app;

/* With $PROCURA_NUMBERS_SHOTS set: the window at @width × @height in light and dark,
 * for a look. */
static void
shoot (GtkWidget  *window,
       const char *name,
       int         width,
       int         height)
{
  AdwStyleManager *style = adw_style_manager_get_default ();

  if (g_getenv ("PROCURA_NUMBERS_SHOTS") == NULL)
    return;
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  for (int dark = 0; dark < 2; dark++)
    {
      g_autoptr (GdkTexture) texture = NULL;
      g_autofree char *png = g_strdup_printf ("%s/%s-%dx%d-%s.png", g_getenv ("PROCURA_NUMBERS_SHOTS"), name,
                                              width, height, dark ? "dark" : "light");

      adw_style_manager_set_color_scheme (style, dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
      procura_gui_test_settle ();
      procura_gui_test_settle ();
      texture = procura_gui_test_render (window, NULL);
      if (texture != NULL)
        gdk_texture_save_to_png (texture, png);
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  procura_gui_test_settle ();
}

static void
show_page (ProcuraWindow *window,
           const char    *name)
{
  for (guint i = 0; procura_window_page_names[i] != NULL; i++)
    if (g_str_equal (procura_window_page_names[i], name))
      gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", i);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
}

static ProcuraWindow *
open_window (const char *path,
             int         width,
             int         height)
{
  ProcuraWindow *window = procura_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  if (path != NULL)
    {
      g_autoptr (GFile) file = g_file_new_for_path (path);
      procura_window_open_file (window, file);
    }
  else
    procura_window_open_demo (window);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  return window;
}

/* The finance table at the window's size: no figure is cut (each label gets at least
 * its minimum width, which for an unwrapped figure is its whole text) and every column
 * can be reached (it fits, or the table scrolls with a visible scroll bar). */
static void
check_finance_table (ProcuraWindow *window,
                     int            width,
                     int            height)
{
  GtkWidget *page = procura_window_get_page (window, "decision");
  GtkWidget *grid, *scroller;
  GtkAdjustment *h;
  int grid_width, view_width;
  guint labels = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_widget_queue_resize (GTK_WIDGET (window));
  procura_gui_test_settle ();
  procura_gui_test_settle ();
  grid = procura_gui_test_find_named (page, "finance-table");
  g_assert_nonnull (grid);
  scroller = gtk_widget_get_ancestor (grid, GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (scroller);
  if (g_getenv ("PROCURA_NUMBERS_SHOTS") != NULL)
    {
      /* for a look: the table scrolled into view, light then dark */
      g_autofree char *png = NULL;
      AdwStyleManager *style = adw_style_manager_get_default ();

      GtkWidget *outer = gtk_widget_get_ancestor (gtk_widget_get_parent (scroller), GTK_TYPE_SCROLLED_WINDOW);
      double x = 0, y = 0;

      /* scroll the page to the table */
      if (outer != NULL && gtk_widget_translate_coordinates (grid, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (outer)),
                                                             0, 0, &x, &y))
        gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (outer)), y - 120);
      for (int dark = 0; dark < 2; dark++)
        {
          g_autoptr (GdkTexture) texture = NULL;

          adw_style_manager_set_color_scheme (style, dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
          procura_gui_test_settle ();
          texture = procura_gui_test_render (GTK_WIDGET (window), NULL);
          g_free (png);
          png = g_strdup_printf ("%s/decision-%dx%d-%s.png", g_getenv ("PROCURA_NUMBERS_SHOTS"), width, height,
                                 dark ? "dark" : "light");
          if (texture != NULL)
            gdk_texture_save_to_png (texture, png);
        }
      adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
      procura_gui_test_settle ();
    }
  for (GtkWidget *child = gtk_widget_get_first_child (grid); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int min = 0, col, row;

      if (!GTK_IS_LABEL (child))
        continue;
      labels++;
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      gtk_grid_query_child (GTK_GRID (grid), child, &col, &row, NULL, NULL);
      if (gtk_widget_get_width (child) < min)
        g_error ("%d×%d: \"%s\" (column %d) gets %d px of its %d", width, height,
                 gtk_label_get_text (GTK_LABEL (child)), col, gtk_widget_get_width (child), min);
      {
        /* nor cut at the bottom: the height its text needs at the width it got */
        int min_h = 0;

        gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (child), &min_h, NULL, NULL, NULL);
        if (gtk_widget_get_height (child) < min_h)
          g_error ("%d×%d: \"%s\" (column %d) gets %d px of height of its %d", width, height,
                   gtk_label_get_text (GTK_LABEL (child)), col, gtk_widget_get_height (child), min_h);
      }
      if (!gtk_label_get_wrap (GTK_LABEL (child)))
        {
          int natural = 0;
          gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
          g_assert_cmpint (gtk_widget_get_width (child), >=, natural);
        }
    }
  g_assert_cmpuint (labels, >=, 9 * 2);
  grid_width = gtk_widget_get_width (grid);
  view_width = gtk_widget_get_width (scroller);
  h = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_test_message ("%d×%d: table %d px in a %d px view", width, height, grid_width, view_width);
  {
    /* every row shows whole: the view is as tall as the table */
    GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
    g_test_message ("height: table %d, view %d, v upper %g page %g", gtk_widget_get_height (grid),
                    gtk_widget_get_height (scroller), gtk_adjustment_get_upper (v), gtk_adjustment_get_page_size (v));
    g_assert_cmpfloat (gtk_adjustment_get_upper (v), <=, gtk_adjustment_get_page_size (v) + 0.5);
  }
  if (gtk_adjustment_get_upper (h) > gtk_adjustment_get_page_size (h) + 0.5)
    {
      /* scrolls, and says so: a bar that does not hide */
      GtkWidget *bar = procura_gui_test_find_named (page, "finance-scrollbar");

      g_assert_nonnull (bar);
      g_assert_true (gtk_widget_get_mapped (bar));
      g_assert_true (gtk_scrollbar_get_adjustment (GTK_SCROLLBAR (bar)) == h);
      g_assert_cmpfloat (gtk_adjustment_get_upper (h), >=, grid_width - 1);
    }
  if (width >= 1280)
    /* the whole table fits at 1280 px: nothing to scroll */
    g_assert_cmpfloat (gtk_adjustment_get_upper (h), <=, gtk_adjustment_get_page_size (h) + 0.5);
}

static void
test_finance_table (void)
{
  ProcuraWindow *window = open_window (NULL, 1280, 800);

  show_page (window, "decision");
  check_finance_table (window, 1280, 800);
  check_finance_table (window, 800, 600);
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
}

static char *
write_demo (const char *dir,
            void      (*edit) (ProcuraStore *store, ProcuraProject *project))
{
  char *path = g_build_filename (dir, "numbers.procura", NULL);
  g_autoptr (GError) error = NULL;
  ProcuraStore *store;
  ProcuraProject *project;

  g_assert_true (procura_demo_write (path, &error));
  g_assert_no_error (error);
  store = procura_store_open (path, PROCURA_STORE_OPEN_WRITABLE, &error);
  g_assert_no_error (error);
  project = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  edit (store, project);
  procura_project_free (project);
  procura_store_close (store);
  return path;
}

/* The recommendation (the hybrid) is a choice, is in the finance table, and is stored
 * as its two constituents. */
static void
test_hybrid_choice (void)
{
  ProcuraWindow *window = open_window (NULL, 1280, 800);
  GtkWidget *page;
  AdwComboRow *combo;
  GListModel *model;
  GtkWidget *grid;
  ProcuraProject *project;
  guint hybrid = GTK_INVALID_LIST_POSITION;
  g_autoptr (GString) table = g_string_new (NULL);

  show_page (window, "decision");
  page = procura_window_get_page (window, "decision");
  combo = ADW_COMBO_ROW (procura_gui_test_find (page, ADW_TYPE_COMBO_ROW));
  g_assert_nonnull (combo);
  model = adw_combo_row_get_model (combo);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      const char *s = gtk_string_list_get_string (GTK_STRING_LIST (model), i);
      if (g_str_has_prefix (s, "Hybrid: "))
        hybrid = i;
    }
  g_assert_cmpuint (hybrid, !=, GTK_INVALID_LIST_POSITION);
  grid = procura_gui_test_find_named (page, "finance-table");
  procura_gui_test_collect_labels (grid, table);
  g_assert_nonnull (strstr (table->str, "Hybrid: "));

  adw_combo_row_set_selected (combo, hybrid);
  g_signal_emit_by_name (procura_gui_test_find_button_labelled (page, "_Save Decision"), "clicked");
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  project = procura_document_get_project (procura_window_get_document (window));
  g_assert_cmpint (project->decision.candidate_id, >, 0);
  g_assert_cmpint (project->decision.overflow_candidate_id, >, 0);
  g_assert_cmpint (procura_project_find_candidate (project, project->decision.candidate_id)->kind, ==,
                   PROCURA_CANDIDATE_GPU);
  g_assert_cmpint (procura_project_find_candidate (project, project->decision.overflow_candidate_id)->kind, ==,
                   PROCURA_CANDIDATE_API);
  /* the page was rebuilt from the stored decision: the hybrid is still the choice */
  combo = ADW_COMBO_ROW (procura_gui_test_find (page, ADW_TYPE_COMBO_ROW));
  g_assert_true (g_str_has_prefix (gtk_string_list_get_string (GTK_STRING_LIST (adw_combo_row_get_model (combo)),
                                                                adw_combo_row_get_selected (combo)), "Hybrid: "));
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
}

static void
set_eur (ProcuraStore   *store,
         ProcuraProject *project)
{
  g_autoptr (GError) error = NULL;

  g_free (project->assumptions.currency);
  project->assumptions.currency = g_strdup ("EUR");
  g_assert_true (procura_store_save_assumptions (store, &project->assumptions, &error));
  g_assert_no_error (error);
}

static void
no_target (ProcuraStore   *store,
           ProcuraProject *project)
{
  g_autoptr (GError) error = NULL;

  project->brief->slo_threshold_ms = NAN;
  g_assert_true (procura_store_save_brief (store, project->brief, &error));
  g_assert_no_error (error);
}

static void
test_currency (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = write_demo (dir, set_eur);
  ProcuraWindow *window = open_window (path, 1280, 800);
  g_autoptr (GString) text = g_string_new (NULL);

  show_page (window, "decision");
  procura_gui_test_collect_labels (procura_window_get_page (window, "decision"), text);
  g_test_message ("%s", text->str);
  g_assert_nonnull (strstr (text->str, "€"));
  g_assert_null (strstr (text->str, "$"));
  g_assert_null (strstr (text->str, "USD"));
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
  procura_test_rmtree (dir);
}

/* Runs imported, no latency target: the pages say that, not "no benchmark", and a
 * button opens the Brief page. */
static void
test_no_target (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = write_demo (dir, no_target);
  ProcuraWindow *window = open_window (path, 1280, 800);
  g_autoptr (GString) text = g_string_new (NULL);
  GtkWidget *button;

  show_page (window, "decision");
  procura_gui_test_collect_labels (procura_window_get_page (window, "decision"), text);
  g_assert_nonnull (strstr (text->str, "no latency target"));
  g_assert_null (strstr (text->str, "has no benchmark"));
  shoot (GTK_WIDGET (window), "decision-no-target", 800, 600);
  button = procura_gui_test_find_named (procura_window_get_page (window, "decision"), "open-brief");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  g_assert_true (gtk_widget_get_mapped (procura_window_get_page (window, "brief")));

  g_string_truncate (text, 0);
  show_page (window, "compare");
  procura_gui_test_collect_labels (procura_window_get_page (window, "compare"), text);
  g_assert_null (strstr (text->str, "No benchmark"));
  g_assert_nonnull (procura_gui_test_find_button_labelled (procura_window_get_page (window, "compare"), "Open _Brief"));
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
  procura_test_rmtree (dir);
}

/* The Compare page's controls are a what-if, marked on Compare, Decision and the slides,
 * with "Apply to Brief" (undone by "Undo") and "Reset". */
static void
test_what_if (void)
{
  ProcuraWindow *window = open_window (NULL, 1280, 800);
  ProcuraDocument *document = procura_window_get_document (window);
  GtkWidget *compare = procura_window_get_page (window, "compare");
  ProcuraPresentation *presentation;
  ProcuraProject *project;
  double threshold, average;
  g_autoptr (GString) text = g_string_new (NULL);

  show_page (window, "compare");
  project = procura_document_get_project (document);
  threshold = project->brief->slo_threshold_ms;
  average = project->brief->demand_average;
  g_assert_null (procura_document_get_what_if (document));
  g_assert_false (gtk_widget_get_mapped (procura_gui_test_find_named (compare, "what-if-banner")));

  procura_compare_page_set_controls (PROCURA_COMPARE_PAGE (compare), 300, 95, 20, 40);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  g_assert_nonnull (procura_document_get_what_if (document));
  g_assert_true (gtk_widget_get_mapped (procura_gui_test_find_named (compare, "what-if-banner")));
  shoot (GTK_WIDGET (window), "compare-what-if", 1280, 800);
  shoot (GTK_WIDGET (window), "compare-what-if", 800, 600);
  show_page (window, "decision");
  shoot (GTK_WIDGET (window), "decision-what-if", 800, 600);
  g_assert_true (gtk_widget_get_mapped (procura_gui_test_find_named (procura_window_get_page (window, "decision"),
  "what-if-banner")));
  procura_gui_test_collect_labels (procura_window_get_page (window, "decision"), text);
  g_assert_nonnull (strstr (text->str, "What-if"));

  /* the slides say so too */
  presentation = procura_window_present_slides (window);
  procura_gui_test_wait_mapped (GTK_WIDGET (presentation));
  g_assert_true (gtk_widget_get_mapped (procura_gui_test_find_named (GTK_WIDGET (presentation), "what-if-banner")));
  gtk_window_destroy (GTK_WINDOW (presentation));
  procura_gui_test_settle ();

  /* applied: the brief has the what-if's figures, and the banner offers Undo */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.apply-what-if", NULL);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  project = procura_document_get_project (document);
  g_assert_cmpfloat (project->brief->slo_threshold_ms, ==, 300);
  g_assert_cmpfloat (project->brief->demand_average, ==, 20);
  g_assert_null (procura_document_get_what_if (document));
  show_page (window, "compare");
  g_assert_true (gtk_widget_get_mapped (procura_gui_test_find_button_labelled (compare, "_Undo")));
  gtk_widget_activate_action (compare, "compare.undo-apply", NULL);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  project = procura_document_get_project (document);
  g_assert_cmpfloat (project->brief->slo_threshold_ms, ==, threshold);
  g_assert_cmpfloat (project->brief->demand_average, ==, average);
  g_assert_null (procura_document_get_what_if (document));

  /* reset: the controls go back to the brief's */
  procura_compare_page_set_controls (PROCURA_COMPARE_PAGE (compare), 250, 90, 5, 10);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  g_assert_nonnull (procura_document_get_what_if (document));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.reset-what-if", NULL);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  g_assert_null (procura_document_get_what_if (document));
  g_assert_false (gtk_widget_get_mapped (procura_gui_test_find_named (compare, "what-if-banner")));
  project = procura_document_get_project (document);
  g_assert_cmpfloat (project->brief->slo_threshold_ms, ==, threshold);
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
}

/* The slide after the title: the recommendation, its cost and interval, the tipping
 * points and the top warnings. */
static void
test_recommendation_slide (void)
{
  ProcuraWindow *window = open_window (NULL, 1280, 800);
  ProcuraPresentation *presentation;
  GtkWidget *slide;
  g_autoptr (GString) text = g_string_new (NULL);

  show_page (window, "compare");
  presentation = procura_window_present_slides (window);
  procura_gui_test_wait_mapped (GTK_WIDGET (presentation));
  slide = procura_gui_test_find_named (GTK_WIDGET (presentation), "recommendation-slide");
  g_assert_nonnull (slide);
  gtk_widget_activate_action (GTK_WIDGET (presentation), "presentation.next", NULL);
  procura_gui_test_settle ();
  g_assert_cmpuint (procura_presentation_get_slide (presentation), ==, 1);
  g_assert_true (gtk_widget_get_mapped (slide));
  procura_gui_test_collect_labels (slide, text);
  g_test_message ("%s", text->str);
  g_assert_nonnull (strstr (text->str, "GPUs with API overflow"));
  g_assert_nonnull (strstr (text->str, "Cost: $"));
  g_assert_nonnull (strstr (text->str, "per 1,000"));
  g_assert_nonnull (strstr (text->str, "Interval"));
  g_assert_nonnull (strstr (text->str, "Tipping points"));
  g_assert_nonnull (strstr (text->str, "Top warnings"));
  if (g_getenv ("PROCURA_NUMBERS_SHOTS") != NULL)
    {
      g_autoptr (GdkTexture) texture = NULL;
      g_autofree char *png = g_strdup_printf ("%s/recommendation-slide.png", g_getenv ("PROCURA_NUMBERS_SHOTS"));

      gtk_window_set_default_size (GTK_WINDOW (presentation), 1280, 800);
      gtk_window_unfullscreen (GTK_WINDOW (presentation));
      procura_gui_test_settle ();
      texture = procura_gui_test_render (GTK_WIDGET (presentation), NULL);
      if (texture != NULL)
        gdk_texture_save_to_png (texture, png);
    }
  gtk_window_destroy (GTK_WINDOW (presentation));
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
}

int
main (int    argc,
      char **argv)
{
  if (!procura_gui_test_init (&argc, &argv))
    return 0;
  app = procura_gui_test_application ();

  g_test_add_func ("/numbers/finance-table", test_finance_table);
  g_test_add_func ("/numbers/hybrid-choice", test_hybrid_choice);
  g_test_add_func ("/numbers/currency", test_currency);
  g_test_add_func ("/numbers/no-target", test_no_target);
  g_test_add_func ("/numbers/what-if", test_what_if);
  g_test_add_func ("/numbers/recommendation-slide", test_recommendation_slide);
  return procura_gui_test_run ();
}
