/* test-window.c: the app's window opens and holds the six pages, built when shown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-application.h"
#include "procura-gui-test.h"
#include "procura-benchmarks-page.h"
#include "procura-page.h"
#include "procura-window.h"

static ProcuraApplication *app;

static int
i_count_pages (AdwViewStack *stack)
{
  g_autoptr (GtkSelectionModel) pages = adw_view_stack_get_pages (stack);
  return (int) g_list_model_get_n_items (G_LIST_MODEL (pages));
}

static void
test_six_pages (void)
{
  ProcuraWindow *window;
  AdwViewStack *stack;
  static const char *titles[] = { "Brief", "Candidates", "Benchmarks", "Compare", "Fit", "Decision" };

  window = procura_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));

  stack = ADW_VIEW_STACK (procura_gui_test_find (GTK_WIDGET (window), ADW_TYPE_VIEW_STACK));
  g_assert_nonnull (stack);
  for (int i = 0; procura_window_page_names[i] != NULL; i++)
    {
      GtkWidget *child = adw_view_stack_get_child_by_name (stack, procura_window_page_names[i]);
      AdwViewStackPage *page;

      g_assert_nonnull (child);
      page = adw_view_stack_get_page (stack, child);
      g_assert_cmpstr (adw_view_stack_page_get_title (page), ==, titles[i]);
      /* each page is reachable through the page action (Alt+1…6) */
      gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", i);
      g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, procura_window_page_names[i]);
    }
  g_assert_cmpint (i_count_pages (stack), ==, 6);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Only the visible page is built when a project opens; a hidden one is built when shown. */
static void
test_pages_built_when_shown (void)
{
  ProcuraWindow *window;
  AdwViewStack *stack;
  gint64 end;
  GtkWidget *candidates;

  window = procura_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  procura_window_open_demo (window);
  end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while ((procura_window_get_document (window) == NULL || procura_window_is_loading (window))
         && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (procura_window_get_document (window));
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);

  stack = ADW_VIEW_STACK (procura_gui_test_find (GTK_WIDGET (window), ADW_TYPE_VIEW_STACK));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "brief");
  for (int i = 1; procura_window_page_names[i] != NULL; i++)
    {
      GtkWidget *child = adw_view_stack_get_child_by_name (stack, procura_window_page_names[i]);

      g_assert_true (PROCURA_IS_PAGE (child));
      g_assert_false (procura_page_is_built (PROCURA_PAGE (child)));
      if (PROCURA_IS_BENCHMARKS_PAGE (child))
        /* its runs are a list view in place of the box: an empty model */
        g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (procura_benchmarks_page_get_list (PROCURA_BENCHMARKS_PAGE (child))))), ==, 0);
      else
        g_assert_null (gtk_widget_get_first_child (GTK_WIDGET (procura_page_get_box (PROCURA_PAGE (child)))));
    }

  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 1);
  candidates = adw_view_stack_get_child_by_name (stack, "candidates");
  procura_gui_test_wait_mapped (candidates);
  g_assert_true (procura_page_is_built (PROCURA_PAGE (candidates)));
  g_assert_nonnull (gtk_widget_get_first_child (GTK_WIDGET (procura_page_get_box (PROCURA_PAGE (candidates)))));
  g_assert_false (procura_page_is_built (PROCURA_PAGE (adw_view_stack_get_child_by_name (stack, "benchmarks"))));
  /* Asked for, a hidden page is built too (tests, presentation mode). */
  g_assert_true (procura_page_is_built (PROCURA_PAGE (procura_window_get_page (window, "benchmarks"))));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  if (!procura_gui_test_init (&argc, &argv))
    return 0;
  app = procura_gui_test_application ();

  g_test_add_func ("/window/six-pages", test_six_pages);
  g_test_add_func ("/window/pages-built-when-shown", test_pages_built_when_shown);
  return procura_gui_test_run ();
}
