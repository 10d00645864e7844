/* test-pages.c: every page with the demo project, imports through the window, the
 * chart widget's accessibility, presentation mode
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <glib/gstdio.h>

#include "procura-benchmarks-page.h"
#include "procura-brief-page.h"
#include "procura-compare-page.h"
#include "procura-fit-page.h"
#include "procura-chart-view.h"
#include "procura-gui-test.h"
#include "procura-presentation.h"
#include "procura-test-util.h"

#include "procura-chart.h"

static ProcuraApplication *app;

static ProcuraWindow *
open_demo_window (void)
{
  ProcuraWindow *window = procura_window_new (app);

  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  procura_window_open_demo (window);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  return window;
}

static const char *
page_state (ProcuraWindow *window,
            const char    *name)
{
  GtkWidget *page = procura_window_get_page (window, name);
  GtkWidget *stack = gtk_widget_get_first_child (page);

  g_assert_true (GTK_IS_STACK (stack));
  return gtk_stack_get_visible_child_name (GTK_STACK (stack));
}

static void
test_demo_pages (void)
{
  ProcuraWindow *window;
  ProcuraDocument *document;
  ProcuraProject *project;

  window = open_demo_window ();
  document = procura_window_get_document (window);
  g_assert_nonnull (document);
  project = procura_document_get_project (document);
  g_assert_true (project->illustrative);
  g_assert_cmpuint (project->candidates->len, >, 0);

  for (guint i = 0; procura_window_page_names[i] != NULL; i++)
    {
      const char *name = procura_window_page_names[i];

      gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", i);
      procura_gui_test_wait_idle (window, 30);
      g_test_message ("page %s: %s", name, page_state (window, name));
      /* With the demo project every page shows content, not its empty state. */
      g_assert_cmpstr (page_state (window, name), ==, "content");
    }

  /* The brief of the demo is complete, so ranking is not withheld. */
  g_assert_cmpstr (procura_brief_page_get_completeness (PROCURA_BRIEF_PAGE (procura_window_get_page (window, "brief"))),
                   ==, "9 of 9 complete");
  /* The calculator computed the brief's model on the first candidate's GPU. */
  g_assert_nonnull (procura_gui_test_find_label (procura_window_get_page (window, "fit"), "Weights per GPU"));
  g_assert_nonnull (procura_gui_test_find_label (procura_window_get_page (window, "fit"), "usable per GPU"));
  /* The decision page shows the analysis engine's recommendation and warnings. */
  g_assert_nonnull (procura_gui_test_find_label (procura_window_get_page (window, "decision"), "Warnings"));
  /* Every candidate of the demo has a group on the candidates page. */
  for (guint i = 0; i < project->candidates->len; i++)
    {
      ProcuraCandidate *c = g_ptr_array_index (project->candidates, i);
      g_assert_nonnull (procura_gui_test_find_label (procura_window_get_page (window, "candidates"), c->name));
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
deleted_cb (ProcuraDocument *document,
            const char      *message,
            gint64           token,
            gint64          *out)
{
  *out = token;
}

static void
test_delete_undo (void)
{
  ProcuraWindow *window;
  ProcuraDocument *document;
  g_autofree char *name = NULL;
  gint64 token = 0, id;
  guint n;

  window = open_demo_window ();
  document = procura_window_get_document (window);
  n = procura_document_get_project (document)->candidates->len;
  id = ((ProcuraCandidate *) g_ptr_array_index (procura_document_get_project (document)->candidates, 0))->id;
  name = g_strdup (((ProcuraCandidate *) g_ptr_array_index (procura_document_get_project (document)->candidates, 0))->name);
  g_signal_connect (document, "deleted", G_CALLBACK (deleted_cb), &token);
  procura_document_delete_candidate (document, id);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_cmpint (token, !=, 0);
  g_assert_cmpuint (procura_document_get_project (document)->candidates->len, ==, n - 1);
  g_assert_null (procura_gui_test_find_label (procura_window_get_page (window, "candidates"), name));
  /* The toast's Undo button activates win.undo with the token. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", "x", token);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_cmpuint (procura_document_get_project (document)->candidates->len, ==, n);
  g_assert_nonnull (procura_gui_test_find_label (procura_window_get_page (window, "candidates"), name));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_edit_cost (void)
{
  ProcuraWindow *window;
  ProcuraDocument *document;
  ProcuraCandidate *c;
  GtkWidget *row;

  window = open_demo_window ();
  document = procura_window_get_document (window);
  /* The first candidate's price per GPU-hour, typed and applied as the analyst would:
   * its section builds its rows when opened. */
  g_assert_null (procura_gui_test_find_row (procura_window_get_page (window, "candidates"),
                                            ADW_TYPE_ENTRY_ROW, "Price per GPU-hour (USD)"));
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (procura_gui_test_find (procura_window_get_page (window, "candidates"),
                                                                          ADW_TYPE_EXPANDER_ROW)), TRUE);
  row = procura_gui_test_find_row (procura_window_get_page (window, "candidates"),
                                   ADW_TYPE_ENTRY_ROW, "Price per GPU-hour (USD)");
  g_assert_nonnull (row);
  gtk_editable_set_text (GTK_EDITABLE (row), "4.75");
  g_signal_emit_by_name (row, "apply");
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  c = g_ptr_array_index (procura_document_get_project (document)->candidates, 0);
  g_assert_cmpfloat (c->price_per_gpu_hour, ==, 4.75);
  /* The page was rebuilt from the reloaded project, and the row the analyst was in is
   * still open. */
  row = procura_gui_test_find_row (procura_window_get_page (window, "candidates"),
  ADW_TYPE_ENTRY_ROW, "Price per GPU-hour (USD)");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "4.75");
  g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (gtk_widget_get_ancestor (row, ADW_TYPE_EXPANDER_ROW))));
  /* A bad number is refused on the spot and changes nothing. */
  row = procura_gui_test_find_row (procura_window_get_page (window, "candidates"),
  ADW_TYPE_ENTRY_ROW, "Price per GPU-hour (USD)");
  gtk_editable_set_text (GTK_EDITABLE (row), "four");
  g_signal_emit_by_name (row, "apply");
  g_assert_true (gtk_widget_has_css_class (row, "error"));
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  c = g_ptr_array_index (procura_document_get_project (document)->candidates, 0);
  g_assert_cmpfloat (c->price_per_gpu_hour, ==, 4.75);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_brief_edit (void)
{
  ProcuraWindow *window;
  ProcuraDocument *document;
  g_autoptr (ProcuraBrief) brief = NULL;

  window = open_demo_window ();
  document = procura_window_get_document (window);
  brief = procura_brief_copy (procura_document_get_project (document)->brief);
  g_clear_pointer (&brief->tooling, g_free);
  brief->demand_peak = NAN;
  procura_document_save_brief (document, brief);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  /* Stored and reloaded: the page shows the brief as incomplete, with the reason. */
  g_assert_null (procura_document_get_project (document)->brief->tooling);
  g_assert_cmpstr (procura_brief_page_get_completeness (PROCURA_BRIEF_PAGE (procura_window_get_page (window, "brief"))),
                   ==, "7 of 9 complete");
  g_assert_nonnull (procura_gui_test_find_label (procura_window_get_page (window, "brief"),
                                                 "Ranking is withheld until the brief is complete. Missing: tooling, demand."));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
show_page (ProcuraWindow *window,
           const char    *name)
{
  for (guint i = 0; procura_window_page_names[i] != NULL; i++)
    if (g_str_equal (procura_window_page_names[i], name))
      gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", i);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
}

/* A warning answered through the document is stored, shown on the decision page with
 * its answer, and still there when the project is opened again; the row's own entry
 * changes it. */
static void
test_answer_warning (void)
{
  ProcuraWindow *window;
  ProcuraDocument *document;
  ProcuraProject *project;
  g_autoptr (GFile) file = NULL;
  const ProcuraWarningAnswer *a;
  GtkWidget *row;

  window = open_demo_window ();
  document = procura_window_get_document (window);
  file = g_file_new_for_path (procura_document_get_path (document));
  show_page (window, "decision");
  /* the demo has warnings, none answered */
  row = procura_gui_test_find_row (procura_window_get_page (window, "decision"),
  ADW_TYPE_ENTRY_ROW, "How it was answered");
  g_assert_nonnull (row);
  g_assert_cmpuint (procura_document_get_project (document)->warning_answers->len, ==, 0);
  /* the first warning's row: answered through its entry, as the analyst would */
  gtk_editable_set_text (GTK_EDITABLE (row), "  Re-quoted on 2026-11-28: unchanged  ");
  g_signal_emit_by_name (row, "apply");
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  project = procura_document_get_project (document);
  g_assert_cmpuint (project->warning_answers->len, ==, 1);
  a = g_ptr_array_index (project->warning_answers, 0);
  g_assert_cmpstr (a->answer, ==, "Re-quoted on 2026-11-28: unchanged");
  g_assert_nonnull (a->answered_at);
  /* re-answered through the document: replaced, and shown as the row's subtitle */
  procura_document_answer_warning (document, a->warning_id, a->candidate_id, "Accepted by finance");
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  project = procura_document_get_project (document);
  g_assert_cmpuint (project->warning_answers->len, ==, 1);
  a = g_ptr_array_index (project->warning_answers, 0);
  g_assert_cmpstr (a->answer, ==, "Accepted by finance");
  g_assert_nonnull (procura_gui_test_find_label (procura_window_get_page (window, "decision"), "Accepted by finance"));
  g_assert_nonnull (procura_gui_test_find_label (procura_window_get_page (window, "decision"), "1 answered"));
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();

  /* opened again: the answer was stored */
  window = procura_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  procura_window_open_file (window, file);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  document = procura_window_get_document (window);
  project = procura_document_get_project (document);
  g_assert_cmpuint (project->warning_answers->len, ==, 1);
  a = g_ptr_array_index (project->warning_answers, 0);
  g_assert_true (procura_project_find_answer (project, a->warning_id, a->candidate_id) == a);
  g_assert_cmpstr (a->answer, ==, "Accepted by finance");
  show_page (window, "decision");
  g_assert_nonnull (procura_gui_test_find_label (procura_window_get_page (window, "decision"), "Accepted by finance"));
  g_test_message ("reopened %s", procura_document_get_read_only (document) ? "read-only" : "writable");
  if (!procura_document_get_read_only (document))
    {
      /* an empty answer removes it */
      procura_document_answer_warning (document, a->warning_id, a->candidate_id, "");
      g_assert_true (procura_gui_test_wait_idle (window, 30));
      g_assert_cmpuint (procura_document_get_project (document)->warning_answers->len, ==, 0);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
copy_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  gboolean *done = user_data;

  g_assert_true (procura_document_save_copy_finish (PROCURA_DOCUMENT (object), result, NULL));
  *done = TRUE;
}

static void
test_save_as_and_last_project (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *copy = g_build_filename (dir, "copy.procura", NULL);
  ProcuraWindow *window, *second;
  ProcuraDocument *document;
  gboolean done = FALSE;
  gint64 id, token = 0;
  guint n;

  window = open_demo_window ();
  document = procura_window_get_document (window);
  n = procura_document_get_project (document)->candidates->len;
  /* An edit, then a copy: the copy holds the edit (the write-ahead log goes with it). */
  id = ((ProcuraCandidate *) g_ptr_array_index (procura_document_get_project (document)->candidates, 0))->id;
  g_signal_connect (document, "deleted", G_CALLBACK (deleted_cb), &token);
  procura_document_delete_candidate (document, id);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  procura_document_save_copy_async (document, copy, NULL, copy_done_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  gtk_window_destroy (GTK_WINDOW (window));

  /* Opening the copy makes it the last project, which the next start opens. */
  window = procura_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  {
    g_autoptr (GFile) file = g_file_new_for_path (copy);
    procura_window_open_file (window, file);
  }
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_cmpuint (procura_document_get_project (procura_window_get_document (window))->candidates->len, ==, n - 1);
  gtk_window_destroy (GTK_WINDOW (window));

  second = procura_window_new (app);
  gtk_window_present (GTK_WINDOW (second));
  procura_window_open_default (second);
  g_assert_true (procura_gui_test_wait_idle (second, 30));
  g_assert_cmpstr (procura_document_get_path (procura_window_get_document (second)), ==, copy);
  gtk_window_destroy (GTK_WINDOW (second));
  procura_test_rmtree (dir);
}

static void
error_cb (ProcuraDocument *document,
          const char      *message,
          char           **out)
{
  g_free (*out);
  *out = g_strdup (message);
}

static void
test_read_only (void)
{
  ProcuraWindow *first, *second;
  ProcuraDocument *document;
  g_autofree char *error = NULL;
  g_autoptr (GFile) file = NULL;

  /* With animations off, GTK 4.8 allocates a box of the second window 0×-1 here and
   * warns (fatal in a test): this test keeps them on. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", TRUE, NULL);
  first = open_demo_window ();
  file = g_file_new_for_path (procura_document_get_path (procura_window_get_document (first)));
  /* The same project in a second window opens read-only, and says so. */
  second = procura_window_new (app);
  gtk_window_present (GTK_WINDOW (second));
  procura_gui_test_wait_mapped (GTK_WIDGET (second));
  procura_window_open_file (second, file);
  g_assert_true (procura_gui_test_wait_idle (second, 30));
  document = procura_window_get_document (second);
  g_assert_true (procura_document_get_read_only (document));
  g_assert_true (gtk_widget_get_visible (procura_gui_test_find_label (GTK_WIDGET (second), "Read-Only")));
  g_signal_connect (document, "error", G_CALLBACK (error_cb), &error);
  procura_document_save_brief (document, procura_document_get_project (document)->brief);
  g_assert_nonnull (error);
  gtk_window_destroy (GTK_WINDOW (second));
  gtk_window_destroy (GTK_WINDOW (first));
  procura_gui_test_settle ();
  procura_gui_test_disable_animations ();
}

static void
import_finished_cb (ProcuraWindow *window,
                    guint          imported,
                    guint         *out)
{
  *out = imported;
}

/* Drops @path onto the window, as a file manager would. */
static void
drop_file (ProcuraWindow *window,
           const char    *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GListModel *controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  GtkDropTarget *target = NULL;
  g_auto (GValue) value = G_VALUE_INIT;
  gboolean accepted = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      GtkEventController *c = g_list_model_get_item (controllers, i);
      if (GTK_IS_DROP_TARGET (c))
        target = GTK_DROP_TARGET (c);
      g_object_unref (c);
    }
  g_object_unref (controllers);
  g_assert_nonnull (target);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_array (&file, 1));
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_assert_true (accepted);
}

static guint
import_and_wait (ProcuraWindow *window,
                 const char    *path)
{
  guint imported = G_MAXUINT;
  gulong id;
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  id = g_signal_connect (window, "import-finished", G_CALLBACK (import_finished_cb), &imported);
  /* Through the window's drop target (the Import action takes the same path). */
  drop_file (window, path);
  while (imported == G_MAXUINT && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (window, id);
  g_assert_cmpuint (imported, !=, G_MAXUINT);
  procura_gui_test_wait_idle (window, 10);
  return imported;
}

/* The Benchmarks page shown and its list scrolled to @position (-1: the last item): only
 * the rows in view exist. */
static GtkWidget *
show_benchmarks (ProcuraWindow *window,
                 int            position)
{
  GtkWidget *page = procura_window_get_page (window, "benchmarks");
  GtkListView *list = procura_benchmarks_page_get_list (PROCURA_BENCHMARKS_PAGE (page));
  guint n;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 2);
  procura_gui_test_wait_mapped (GTK_WIDGET (list));
  n = g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (list)));
  g_assert_cmpuint (n, >, 0);
  gtk_widget_activate_action (GTK_WIDGET (list), "list.scroll-to-item", "u",
                              position < 0 ? n - 1 : (guint) position);
  for (int i = 0; i < 3; i++)
    procura_gui_test_settle ();
  return page;
}

static void
test_import_real_fixture (void)
{
  g_autofree char *path = procura_test_real_fixture ("vllm-bench-serve/lambdalabs__1xH100-80GB-SXM_Mistral-7B-Instruct-v0.3_tp1_len2048.json");
  ProcuraWindow *window;
  ProcuraProject *project;
  guint runs_before;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  if (procura_importer_find ("vllm-bench-serve") == NULL)
    {
      g_test_skip ("the vLLM importer is not part of this build");
      return;
    }
  window = open_demo_window ();
  runs_before = procura_document_get_project (procura_window_get_document (window))->runs->len;
  g_assert_cmpuint (import_and_wait (window, path), ==, 1);
  project = procura_document_get_project (procura_window_get_document (window));
  g_assert_cmpuint (project->runs->len, >, runs_before);
  /* The new run is unassigned and listed last on the benchmarks page under that heading. */
  g_assert_nonnull (procura_gui_test_find_label (show_benchmarks (window, -1), "Not Assigned"));
  /* The file does not name its GPU: the page says so and asks for the candidate (in the
   * run's details, built when it is expanded). */
  procura_gui_test_expand_all (procura_window_get_page (window, "benchmarks"));
  show_benchmarks (window, -1);
  g_assert_nonnull (procura_gui_test_find_label (procura_window_get_page (window, "benchmarks"),
                                                 "The file does not say the GPU"));
  g_assert_nonnull (procura_gui_test_find_label (procura_window_get_page (window, "benchmarks"),
                                                 "Procura does not guess"));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_import_error_shown (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = g_build_filename (dir, "notes.txt", NULL);
  ProcuraWindow *window;
  GtkWidget *page;

  g_assert_true (g_file_set_contents (path, "this is not a benchmark result\n", -1, NULL));
  window = open_demo_window ();
  g_assert_cmpuint (import_and_wait (window, path), ==, 0);
  page = show_benchmarks (window, 0);
  /* The error names the file and says why. */
  g_assert_nonnull (procura_gui_test_find_label (page, "Import Errors"));
  g_assert_nonnull (procura_gui_test_find_label (page, "notes.txt"));
  gtk_window_destroy (GTK_WINDOW (window));
  procura_test_rmtree (dir);
}

static void
test_chart_view_accessible (void)
{
  g_autoptr (ProcuraChart) chart = procura_chart_new ();
  static const double x[] = { 1, 2, 4, 8 }, y[] = { 120, 180, 260, 410 };
  g_autofree char *summary = NULL;
  g_autofree char *point = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = procura_chart_view_new ();
  g_autoptr (GdkTexture) texture = NULL;

  procura_chart_set_title (chart, "p99 TTFT by load");
  procura_chart_set_axis (chart, PROCURA_AXIS_X, "Requests/s", PROCURA_UNIT_REQ_PER_S, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, "p99 TTFT", PROCURA_UNIT_MS, PROCURA_SCALE_LINEAR);
  procura_chart_add_series (chart, PROCURA_SERIES_LINE, "H100", x, y, G_N_ELEMENTS (x));
  summary = procura_chart_summary (chart);

  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (view)), ==, GTK_ACCESSIBLE_ROLE_IMG);
  procura_chart_view_set_chart (PROCURA_CHART_VIEW (view), chart);
  g_assert_cmpstr (procura_chart_view_get_summary (PROCURA_CHART_VIEW (view)), ==, summary);
  g_assert_true (gtk_widget_get_focusable (view));

  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_set_default_size (GTK_WINDOW (window), 640, 400);
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (view);
  /* It draws: the snapshot renders to a non-empty texture. */
  texture = procura_gui_test_render (view, NULL);
  g_assert_nonnull (texture);
  /* Keyboard navigation: Right selects the first point, then moves along the series. */
  g_assert_null (procura_chart_view_describe_cursor (PROCURA_CHART_VIEW (view)));
  gtk_widget_grab_focus (view);
  {
    GtkEventController *key = NULL;
    GListModel *controllers = gtk_widget_observe_controllers (view);
    gboolean handled = FALSE;

    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        GtkEventController *c = g_list_model_get_item (controllers, i);
        if (GTK_IS_EVENT_CONTROLLER_KEY (c))
          key = c;
        g_object_unref (c);
      }
    g_object_unref (controllers);
    g_assert_nonnull (key);
    g_signal_emit_by_name (key, "key-pressed", GDK_KEY_Right, 0, 0, &handled);
    g_assert_true (handled);
    point = procura_chart_view_describe_cursor (PROCURA_CHART_VIEW (view));
    g_assert_nonnull (point);
    g_assert_nonnull (strstr (point, "H100"));
  }
  /* Legend toggle: hiding "H100" hides it in this view (its layout), never in the spec,
   * and in the next chart set (a rebuilt chart keeps the choice); showing it again
   * shows it. */
  procura_chart_view_set_series_hidden (PROCURA_CHART_VIEW (view), "H100", TRUE);
  g_assert_true (procura_chart_view_get_series_hidden (PROCURA_CHART_VIEW (view), "H100"));
  g_assert_true (procura_chart_layout_get_series_hidden (procura_chart_view_get_layout (PROCURA_CHART_VIEW (view)), "H100"));
  {
    g_autoptr (ProcuraChart) rebuilt = procura_chart_new ();
    procura_chart_add_series (rebuilt, PROCURA_SERIES_LINE, "H100", x, y, G_N_ELEMENTS (x));
    procura_chart_add_series (rebuilt, PROCURA_SERIES_LINE, "L40S", x, y, G_N_ELEMENTS (x));
    procura_chart_view_set_chart (PROCURA_CHART_VIEW (view), rebuilt);
    g_assert_true (procura_chart_view_get_series_hidden (PROCURA_CHART_VIEW (view), "H100"));
    g_assert_false (procura_chart_view_get_series_hidden (PROCURA_CHART_VIEW (view), "L40S"));
    procura_chart_view_set_series_hidden (PROCURA_CHART_VIEW (view), "H100", FALSE);
    g_assert_false (procura_chart_view_get_series_hidden (PROCURA_CHART_VIEW (view), "H100"));
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
charts_updated_cb (ProcuraComparePage *page,
                   guint              *count)
{
  (*count)++;
}

static void
test_compare_controls (void)
{
  ProcuraWindow *window = open_demo_window ();
  ProcuraComparePage *page = PROCURA_COMPARE_PAGE (procura_window_get_page (window, "compare"));
  GPtrArray *views;
  g_autofree char *before = NULL;
  guint updates = 0, with_charts = 0;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 3);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  views = procura_compare_page_get_chart_views (page);
  g_assert_cmpuint (views->len, >, 0);
  for (guint i = 0; i < views->len; i++)
    {
      ProcuraChartView *view = g_ptr_array_index (views, i);

      if (procura_chart_view_get_chart (view) == NULL)
        continue;
      with_charts++;
      /* Each live chart is an image with its summary as the accessible label. */
      g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (view)), ==, GTK_ACCESSIBLE_ROLE_IMG);
      g_assert_nonnull (procura_chart_view_get_summary (view));
    }
  g_assert_cmpuint (with_charts, >, 0);
  before = g_strdup (procura_chart_view_get_summary (g_ptr_array_index (views, 1)));

  /* A tighter target and more demand: every chart is rebuilt at once. */
  g_signal_connect (page, "charts-updated", G_CALLBACK (charts_updated_cb), &updates);
  procura_compare_page_set_controls (page, 300, 95, 20, 40);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  g_assert_cmpuint (updates, >=, 1);
  g_test_message ("latency chart before: %s", before);
  g_test_message ("latency chart after: %s", procura_chart_view_get_summary (g_ptr_array_index (views, 1)));
  /* The latency chart now draws the new target (its summary says so). */
  g_assert_cmpstr (before, !=, procura_chart_view_get_summary (g_ptr_array_index (views, 1)));
  g_assert_nonnull (strstr (procura_chart_view_get_summary (g_ptr_array_index (views, 1)), "300 ms"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The pixels @view draws now (its cache redrawn when a choice changed). */
static GBytes *
view_pixels (GtkWidget *view)
{
  g_autoptr (GdkTexture) texture = NULL;
  g_autoptr (GError) error = NULL;
  int w, h;
  guchar *data;

  procura_gui_test_settle ();
  texture = procura_gui_test_render (view, &error);
  g_assert_no_error (error);
  g_assert_nonnull (texture);
  w = gdk_texture_get_width (texture);
  h = gdk_texture_get_height (texture);
  g_assert_cmpint (w, >, 100);
  g_assert_cmpint (h, >, 100);
  data = g_malloc ((gsize) w * h * 4);
  gdk_texture_download (texture, data, (gsize) w * 4);
  return g_bytes_new_take (data, (gsize) w * h * 4);
}

static GBytes *
file_bytes (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (contents, length);
}

static void
test_fit_page_lazy (void)
{
  /* issue 21: the Fit page builds its calculator and probe panel when first shown, not
   * with the window. The window is waited for by hand: procura_gui_test_wait_idle()
   * builds every page, as other tests read hidden pages. */
  ProcuraWindow *window = procura_window_new (app);
  GtkWidget *fit = procura_gui_test_find (GTK_WIDGET (window), PROCURA_TYPE_FIT_PAGE);
  gint64 end;

  g_assert_nonnull (fit);
  g_assert_false (procura_fit_page_get_panels_built (PROCURA_FIT_PAGE (fit)));
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  procura_window_open_demo (window);
  end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while ((procura_window_get_document (window) == NULL || procura_window_is_loading (window))
         && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  g_assert_nonnull (procura_window_get_document (window));
  procura_gui_test_settle ();

  /* the project is open and shown; the Fit page is hidden and has built nothing */
  g_assert_false (gtk_widget_get_mapped (fit));
  g_assert_false (procura_page_is_built (PROCURA_PAGE (fit)));
  g_assert_false (procura_fit_page_get_panels_built (PROCURA_FIT_PAGE (fit)));
  g_assert_null (procura_gui_test_find_label (fit, "Memory Fit Calculator"));

  /* shown: the calculator and the probe panel are there, with the demo's model */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 4);
  procura_gui_test_wait_mapped (fit);
  procura_gui_test_settle ();
  g_assert_true (procura_fit_page_get_panels_built (PROCURA_FIT_PAGE (fit)));
  g_assert_nonnull (procura_gui_test_find_label (fit, "Memory Fit Calculator"));
  g_assert_nonnull (procura_gui_test_find_label (fit, "Local Probe"));
  g_assert_nonnull (procura_gui_test_find_label (fit, "Weights per GPU"));
  g_assert_cmpstr (procura_fit_page_get_probe_state (PROCURA_FIT_PAGE (fit)), ==, "idle");
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_legend_per_view (void)
{
  /* issue 22: hiding a series in a Compare card's legend leaves the slide of that chart
   * as it was, and the reverse; the card's export draws what the card shows. */
  ProcuraWindow *window = open_demo_window ();
  ProcuraComparePage *page = PROCURA_COMPARE_PAGE (procura_window_get_page (window, "compare"));
  ProcuraPresentation *presentation;
  ProcuraChartView *card = NULL, *slide = NULL;
  ProcuraChart *chart = NULL;
  const char *name = NULL;
  GPtrArray *views;
  g_autoptr (GPtrArray) slide_charts = NULL;
  g_autoptr (GBytes) card_all = NULL, card_hidden = NULL, slide_all = NULL;
  g_autoptr (GBytes) after = NULL, exported = NULL, shown = NULL, everything = NULL;
  g_autoptr (ProcuraChartLayout) hiding = procura_chart_layout_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("procura-legend-XXXXXX", NULL);
  g_autofree char *export_path = g_build_filename (dir, "card.png", NULL);
  g_autofree char *shown_path = g_build_filename (dir, "shown.png", NULL);
  g_autofree char *all_path = g_build_filename (dir, "all.png", NULL);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 3);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  /* a chart in the slides with at least two series in its legend */
  views = procura_compare_page_get_chart_views (page);
  slide_charts = procura_compare_page_get_slide_charts (page);
  for (guint i = 0; i < views->len && card == NULL; i++)
    {
      ProcuraChartView *view = g_ptr_array_index (views, i);
      ProcuraChart *c = procura_chart_view_get_chart (view);
      guint in_legend = 0;
      const char *first = NULL;

      if (c == NULL || !g_ptr_array_find (slide_charts, c, NULL))
        continue;
      for (guint k = 0; k < procura_chart_get_n_series (c); k++)
        if (procura_chart_series_get_in_legend (c, k))
          {
            in_legend++;
            if (first == NULL)
              first = procura_chart_series_get_name (c, k);
          }
      if (in_legend >= 2)
        {
          card = view;
          chart = c;
          name = first;
        }
    }
  g_assert_nonnull (card);
  g_test_message ("hiding \"%s\" in \"%s\"", name, procura_chart_get_title (chart));

  presentation = procura_window_present_slides (window);
  procura_gui_test_wait_mapped (GTK_WIDGET (presentation));
  slide = procura_presentation_get_chart_view (presentation, chart);
  g_assert_nonnull (slide);
  for (guint i = 0; i < procura_presentation_get_n_slides (presentation) && !gtk_widget_get_mapped (GTK_WIDGET (slide)); i++)
    procura_presentation_move (presentation, +1);
  procura_gui_test_wait_mapped (GTK_WIDGET (slide));

  card_all = view_pixels (GTK_WIDGET (card));
  slide_all = view_pixels (GTK_WIDGET (slide));

  /* hidden on the card: the card changes, the slide does not */
  procura_chart_view_set_series_hidden (card, name, TRUE);
  g_assert_true (procura_chart_view_get_series_hidden (card, name));
  g_assert_false (procura_chart_view_get_series_hidden (slide, name));
  card_hidden = view_pixels (GTK_WIDGET (card));
  g_assert_false (g_bytes_equal (card_hidden, card_all));
  after = view_pixels (GTK_WIDGET (slide));
  g_assert_true (g_bytes_equal (after, slide_all));
  g_clear_pointer (&after, g_bytes_unref);

  /* the card's export is what the card shows: as drawn with the card's hidden series,
   * not the whole chart */
  g_assert_true (procura_chart_view_export (card, export_path, &error));
  g_assert_no_error (error);
  procura_chart_layout_set_series_hidden (hiding, name, TRUE);
  g_assert_true (procura_chart_write_file_as_shown (chart, hiding, shown_path, 960, 600,
                                                    procura_chart_theme_light (), &error));
  g_assert_no_error (error);
  g_assert_true (procura_chart_write_file (chart, all_path, 960, 600, procura_chart_theme_light (), &error));
  g_assert_no_error (error);
  exported = file_bytes (export_path);
  shown = file_bytes (shown_path);
  everything = file_bytes (all_path);
  g_assert_true (g_bytes_equal (exported, shown));
  g_assert_false (g_bytes_equal (exported, everything));

  /* and the reverse: shown again on the card, hidden on the slide */
  procura_chart_view_set_series_hidden (card, name, FALSE);
  procura_chart_view_set_series_hidden (slide, name, TRUE);
  g_assert_false (procura_chart_view_get_series_hidden (card, name));
  after = view_pixels (GTK_WIDGET (slide));
  g_assert_false (g_bytes_equal (after, slide_all));
  g_clear_pointer (&after, g_bytes_unref);
  after = view_pixels (GTK_WIDGET (card));
  g_assert_true (g_bytes_equal (after, card_all));

  g_unlink (export_path);
  g_unlink (shown_path);
  g_unlink (all_path);
  g_rmdir (dir);
  gtk_window_destroy (GTK_WINDOW (presentation));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_presentation (void)
{
  ProcuraWindow *window;
  ProcuraPresentation *presentation;
  guint n;

  window = open_demo_window ();
  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 3);
  procura_gui_test_wait_idle (window, 30);
  presentation = procura_window_present_slides (window);
  procura_gui_test_wait_mapped (GTK_WIDGET (presentation));
  n = procura_presentation_get_n_slides (presentation);
  g_assert_cmpuint (n, >=, 1);
  g_assert_cmpuint (procura_presentation_get_slide (presentation), ==, 0);
  gtk_widget_activate_action (GTK_WIDGET (presentation), "presentation.next", NULL);
  g_assert_cmpuint (procura_presentation_get_slide (presentation), ==, MIN (1, n - 1));
  gtk_widget_activate_action (GTK_WIDGET (presentation), "presentation.last", NULL);
  g_assert_cmpuint (procura_presentation_get_slide (presentation), ==, n - 1);
  gtk_widget_activate_action (GTK_WIDGET (presentation), "presentation.previous", NULL);
  g_assert_cmpuint (procura_presentation_get_slide (presentation), ==, n > 1 ? n - 2 : 0);
  g_object_add_weak_pointer (G_OBJECT (presentation), (gpointer *) &presentation);
  gtk_widget_activate_action (GTK_WIDGET (presentation), "presentation.leave", NULL);
  procura_gui_test_settle ();
  g_assert_null (presentation);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
probe_finished_cb (ProcuraFitPage *page,
                   gboolean       *finished)
{
  *finished = TRUE;
}

/* Runs the panel's probe with the fake driver and @extra set; cancels it after
 * @cancel_after_s when >= 0. Returns the panel's state. */
static const char *
run_probe_panel (ProcuraFitPage *page,
                 const char     *extra,
                 double          kill_after_s,
                 double          cancel_after_s)
{
  g_autofree char *cuda = g_strdup_printf ("PROCURA_PROBE_LIBCUDA=%s", g_getenv ("PROCURA_TEST_FAKE_CUDA"));
  g_autofree char *nvml = g_strdup_printf ("PROCURA_PROBE_LIBNVML=%s", g_getenv ("PROCURA_TEST_FAKE_NVML"));
  const char *env[] = { cuda, nvml, extra, NULL };
  gboolean finished = FALSE;
  gint64 start = g_get_monotonic_time ();
  gint64 end = start + 60 * G_USEC_PER_SEC;
  gulong id;

  procura_fit_page_set_probe_environment (page, env, kill_after_s);
  id = g_signal_connect (page, "probe-finished", G_CALLBACK (probe_finished_cb), &finished);
  procura_fit_page_run_probe (page);
  g_assert_cmpstr (procura_fit_page_get_probe_state (page), ==, "running");
  while (!finished && g_get_monotonic_time () < end)
    {
      if (cancel_after_s >= 0 && g_get_monotonic_time () - start > cancel_after_s * G_USEC_PER_SEC)
        {
          procura_fit_page_cancel_probe (page);
          cancel_after_s = -1;
        }
      /* The main loop keeps running while the probe does: the window never blocks. */
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
  g_signal_handler_disconnect (page, id);
  g_assert_true (finished);
  return procura_fit_page_get_probe_state (page);
}

static void
test_probe_panel (void)
{
  ProcuraWindow *window;
  ProcuraFitPage *page;

  if (g_getenv ("PROCURA_PROBE") == NULL || g_getenv ("PROCURA_TEST_FAKE_CUDA") == NULL
      || !g_file_test (g_getenv ("PROCURA_PROBE"), G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("run through meson test: the probe and the fake driver are needed");
      return;
    }
  window = open_demo_window ();
  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 4);
  page = PROCURA_FIT_PAGE (procura_window_get_page (window, "fit"));

  /* A normal run: inventory, the calculator's plan and bandwidth, with progress. */
  g_assert_nonnull (procura_fit_page_get_probe_plan (page));
  g_assert_cmpstr (run_probe_panel (page, "FAKE_CUDA_MEMORY_MIB=81559", 0, -1), ==, "done");
  g_assert_cmpstr (procura_fit_page_get_probe_result (page), ==, "ok");
  g_assert_true (procura_fit_page_get_probe_progress_seen (page));

  /* issue 17: the plan is the calculator's: on an 8 GiB GPU the 70B model's share of
   * weights does not fit */
  g_assert_cmpstr (run_probe_panel (page, "FAKE_CUDA_MEMORY_MIB=8192", 0, -1), ==, "done");
  g_assert_cmpstr (procura_fit_page_get_probe_result (page), !=, "ok");

  /* Cancel while the probe hangs in the driver: the panel stops it and stays usable. */
  g_assert_cmpstr (run_probe_panel (page, "FAKE_CUDA_HANG_AT=cuMemAlloc", 30, 0.5), ==, "cancelled");

  /* A hang: the client's own limit kills it. */
  g_assert_cmpstr (run_probe_panel (page, "FAKE_CUDA_HANG_AT=cuMemAlloc", 1.0, -1), ==, "done");
  g_assert_cmpstr (procura_fit_page_get_probe_result (page), ==, "timeout");

  /* A crash of the probe. */
  g_assert_cmpstr (run_probe_panel (page, "FAKE_CUDA_CRASH_AT=cuMemAlloc", 0, -1), ==, "done");
  g_assert_cmpstr (procura_fit_page_get_probe_result (page), ==, "crashed");

  /* And it still runs afterwards. */
  g_assert_cmpstr (run_probe_panel (page, NULL, 0, -1), ==, "done");
  g_assert_cmpstr (procura_fit_page_get_probe_result (page), ==, "ok");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The fleet: one row per host, each with its own outcome, and the summary. ssh is a
 * fake that runs the command here for two hosts and refuses the third. */
static void
test_probe_fleet (void)
{
  ProcuraWindow *window;
  ProcuraFitPage *page;
  g_autofree char *tmp = NULL;
  g_autofree char *ssh = NULL;
  g_autofree char *path = NULL;
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *cuda = g_strdup_printf ("PROCURA_PROBE_LIBCUDA=%s", g_getenv ("PROCURA_TEST_FAKE_CUDA"));
  g_autofree char *nvml = g_strdup_printf ("PROCURA_PROBE_LIBNVML=%s", g_getenv ("PROCURA_TEST_FAKE_NVML"));
  const char *env[] = { cuda, nvml, "FAKE_CUDA_MEMORY_MIB=8192", NULL };
  const char *hosts[] = { "gpu-a", "gpu-b", "down", NULL };
  gboolean finished = FALSE;
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  gulong id;

  if (g_getenv ("PROCURA_PROBE") == NULL || g_getenv ("PROCURA_TEST_FAKE_CUDA") == NULL
      || !g_file_test (g_getenv ("PROCURA_PROBE"), G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("run through meson test: the probe and the fake driver are needed");
      return;
    }
  tmp = procura_test_mkdtemp ();
  ssh = g_build_filename (tmp, "ssh", NULL);
  g_assert_true (g_file_set_contents (ssh,
    "#!/bin/sh\n"
    "while [ $# -gt 0 ]; do case \"$1\" in -o|-F) shift 2;; -*) shift;; *) break;; esac; done\n"
    "if [ \"$1\" = down ]; then echo 'ssh: connect to host down port 22: Connection refused' >&2; exit 255; fi\n"
    "shift\n"
    "exec sh -c \"$*\"\n", -1, NULL));
  g_assert_cmpint (g_chmod (ssh, 0755), ==, 0);
  path = g_strdup_printf ("%s:%s", tmp, old_path);
  g_setenv ("PATH", path, TRUE);

  window = open_demo_window ();
  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 4);
  page = PROCURA_FIT_PAGE (procura_window_get_page (window, "fit"));
  procura_fit_page_set_probe_environment (page, env, 0);
  id = g_signal_connect (page, "probe-finished", G_CALLBACK (probe_finished_cb), &finished);
  procura_fit_page_run_probe_fleet (page, hosts);
  g_assert_cmpstr (procura_fit_page_get_probe_state (page), ==, "running");
  /* a row per host from the start */
  g_assert_nonnull (procura_fit_page_get_probe_host_status (page, "down"));
  while (!finished && g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  g_signal_handler_disconnect (page, id);
  g_setenv ("PATH", old_path, TRUE);
  g_assert_true (finished);
  g_assert_cmpstr (procura_fit_page_get_probe_state (page), ==, "done");
  g_assert_cmpstr (procura_fit_page_get_probe_result (page), ==, "failed");
  g_assert_nonnull (strstr (procura_fit_page_get_probe_host_status (page, "gpu-a"), "The probe on gpu-a finished"));
  g_assert_nonnull (strstr (procura_fit_page_get_probe_host_status (page, "gpu-b"), "The probe on gpu-b finished"));
  g_assert_cmpstr (procura_fit_page_get_probe_host_status (page, "down"), ==,
                   "could not connect to down: Connection refused");
  g_assert_nonnull (strstr (procura_fit_page_get_probe_status_text (page), "3 hosts: 2 ran, 1 failed"));
  g_assert_nonnull (strstr (procura_fit_page_get_probe_status_text (page), "slowest HBM read bandwidth"));

  /* Save to Project, a candidate per host: one transaction, the failed node included */
  {
    ProcuraDocument *document = procura_window_get_document (window);
    ProcuraProject *project = procura_document_get_project (document);
    guint results_before = project->probe_results->len;
    guint candidates_before = project->candidates->len;
    gint64 ids[2] = { 0, 0 };
    const char *names[] = { "gpu-a", "gpu-b" };

    g_assert_cmpuint (project->probe_failures->len, ==, 0);
    procura_fit_page_save_probe_fleet (page, NULL);
    end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
    while (procura_document_get_project (document)->probe_failures->len == 0
           && g_get_monotonic_time () < end)
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    project = procura_document_get_project (document);
    g_assert_cmpuint (project->probe_failures->len, ==, 1);
    g_assert_cmpstr (((ProcuraProbeResult *) g_ptr_array_index (project->probe_failures, 0))->device_name,
                     ==, "down");
    g_assert_cmpuint (project->candidates->len, ==, candidates_before + 2);
    g_assert_cmpuint (project->probe_results->len, >, results_before);
    for (guint i = 0; i < project->candidates->len; i++)
      {
        const ProcuraCandidate *c = g_ptr_array_index (project->candidates, i);

        for (guint k = 0; k < G_N_ELEMENTS (names); k++)
          if (g_strcmp0 (c->name, names[k]) == 0)
            ids[k] = c->id;
      }
    for (guint k = 0; k < G_N_ELEMENTS (names); k++)
      {
        guint of_host = 0;

        g_assert_cmpint (ids[k], >, 0);
        for (guint i = 0; i < project->probe_results->len; i++)
          of_host += ((ProcuraProbeResult *) g_ptr_array_index (project->probe_results, i))->candidate_id == ids[k];
        g_test_message ("%s: %u probe results", names[k], of_host);
        g_assert_cmpuint (of_host, >, 0);
      }
    /* stored once: a second Save does nothing */
    procura_fit_page_save_probe_fleet (page, NULL);
    g_assert_true (procura_gui_test_wait_idle (window, 30));
    g_assert_cmpuint (procura_document_get_project (document)->probe_failures->len, ==, 1);
  }
  gtk_window_destroy (GTK_WINDOW (window));
  procura_test_rmtree (tmp);
}

/* Motion over @view at (x, y), as the pointer would send it */
static void
chart_view_motion (GtkWidget *view,
                   double     x,
                   double     y)
{
  GListModel *controllers = gtk_widget_observe_controllers (view);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      GtkEventController *c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_MOTION (c))
        g_signal_emit_by_name (c, "motion", x, y);
      g_object_unref (c);
    }
  g_object_unref (controllers);
}

static void
test_chart_view_own_layout (void)
{
  /* One chart on a page and on a slide: each view hovers with the geometry it drew,
   * whichever drew last. */
  g_autoptr (ProcuraChart) chart = procura_chart_new ();
  static const double x[] = { 1, 2, 4, 8 }, y[] = { 120, 180, 260, 410 };
  GtkWidget *page_window = gtk_window_new (), *slide_window = gtk_window_new ();
  GtkWidget *page = procura_chart_view_new (), *slide = procura_chart_view_new ();
  g_autoptr (GdkTexture) page_texture = NULL;
  g_autoptr (GdkTexture) slide_texture = NULL;
  g_autofree char *found = NULL;
  double px, py, sx, sy;

  procura_chart_set_axis (chart, PROCURA_AXIS_X, "Requests/s", PROCURA_UNIT_REQ_PER_S, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, "p99 TTFT", PROCURA_UNIT_MS, PROCURA_SCALE_LINEAR);
  procura_chart_add_series (chart, PROCURA_SERIES_LINE, "H100", x, y, G_N_ELEMENTS (x));
  procura_chart_view_set_chart (PROCURA_CHART_VIEW (page), chart);
  procura_chart_view_set_chart (PROCURA_CHART_VIEW (slide), chart);
  procura_chart_view_set_scale (PROCURA_CHART_VIEW (slide), 2.0);
  gtk_window_set_child (GTK_WINDOW (page_window), page);
  gtk_window_set_default_size (GTK_WINDOW (page_window), 420, 300);
  gtk_window_set_child (GTK_WINDOW (slide_window), slide);
  gtk_window_set_default_size (GTK_WINDOW (slide_window), 1000, 700);
  gtk_window_present (GTK_WINDOW (page_window));
  gtk_window_present (GTK_WINDOW (slide_window));
  procura_gui_test_wait_mapped (page);
  procura_gui_test_wait_mapped (slide);
  /* the page draws first, the slide last */
  page_texture = procura_gui_test_render (page, NULL);
  slide_texture = procura_gui_test_render (slide, NULL);
  g_assert_true (procura_chart_data_to_pixel (procura_chart_view_get_layout (PROCURA_CHART_VIEW (page)),
                                              2, 180, &px, &py));
  g_assert_true (procura_chart_data_to_pixel (procura_chart_view_get_layout (PROCURA_CHART_VIEW (slide)),
                                              2, 180, &sx, &sy));
  g_assert_cmpfloat (hypot (px - sx, py - sy), >, 48);

  /* the page finds the point where it drew it, not where the slide did */
  chart_view_motion (page, sx, sy);
  g_assert_null (procura_chart_view_describe_cursor (PROCURA_CHART_VIEW (page)));
  chart_view_motion (page, px, py);
  found = procura_chart_view_describe_cursor (PROCURA_CHART_VIEW (page));
  g_assert_nonnull (found);
  g_assert_nonnull (strstr (found, "180 ms"));
  g_clear_pointer (&found, g_free);
  /* and the slide where it drew it */
  chart_view_motion (slide, sx, sy);
  found = procura_chart_view_describe_cursor (PROCURA_CHART_VIEW (slide));
  g_assert_nonnull (found);
  g_assert_nonnull (strstr (found, "180 ms"));

  /* an export lays the chart out on its own: the page's geometry stays */
  {
    g_autofree char *dir = g_dir_make_tmp ("procura-chart-view-XXXXXX", NULL);
    g_autofree char *png = g_build_filename (dir, "chart.png", NULL);
    double ex, ey;

    g_assert_true (procura_chart_view_export (PROCURA_CHART_VIEW (page), png, NULL));
    g_assert_true (procura_chart_data_to_pixel (procura_chart_view_get_layout (PROCURA_CHART_VIEW (page)),
                                                2, 180, &ex, &ey));
    g_assert_cmpfloat (ex, ==, px);
    g_assert_cmpfloat (ey, ==, py);
    procura_test_rmtree (dir);
  }
  gtk_window_destroy (GTK_WINDOW (page_window));
  gtk_window_destroy (GTK_WINDOW (slide_window));
}

static void
test_calculator_candidate (void)
{
  ProcuraWindow *window = open_demo_window ();
  ProcuraFitPage *page;
  int tp = 0, pp = 0;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 4);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  page = PROCURA_FIT_PAGE (procura_window_get_page (window, "fit"));
  /* the demo's GPU candidates, in order: 4× H100 TP4, 8× A100 TP8, 4× H200 TP4, 8× L40S TP4 PP2 */
  procura_fit_page_select_calculator_candidate (page, 1);
  procura_fit_page_get_calculator_parallelism (page, &tp, &pp);
  g_assert_cmpint (tp, ==, 8);
  g_assert_cmpint (pp, ==, 1);
  procura_fit_page_select_calculator_candidate (page, 3);
  procura_fit_page_get_calculator_parallelism (page, &tp, &pp);
  g_assert_cmpint (tp, ==, 4);
  g_assert_cmpint (pp, ==, 2);

  /* the demo's probe measured the H200 candidate: the calculator takes its total there,
   * and the catalog's figure for the others */
  procura_fit_page_select_calculator_candidate (page, 2);
  g_assert_nonnull (procura_gui_test_find_label (GTK_WIDGET (page), "usable per GPU (measured by the probe)"));
  procura_fit_page_select_calculator_candidate (page, 0);
  g_assert_null (procura_gui_test_find_label (GTK_WIDGET (page), "(measured by the probe)"));

  /* issue 17: the calculator, the engine log and the probe side by side */
  g_assert_nonnull (procura_gui_test_find_label (GTK_WIDGET (page), "Calculator, Engine Log and Probe"));
  g_assert_nonnull (procura_gui_test_find_label (GTK_WIDGET (page), "Activation and non-torch (profiling run)"));

  /* issue 17: the engine version comes from the brief's tooling, or from the candidate's
   * engine field, and reaches the calculator */
  {
    ProcuraDocument *document = procura_window_get_document (window);
    g_autoptr (ProcuraBrief) brief = procura_brief_copy (procura_document_get_project (document)->brief);
    g_autoptr (ProcuraCandidate) c = NULL;

    g_free (brief->tooling);
    brief->tooling = g_strdup ("vLLM 0.10.1 on Kubernetes");
    procura_document_save_brief (document, brief);
    g_assert_true (procura_gui_test_wait_idle (window, 30));
    page = PROCURA_FIT_PAGE (procura_window_get_page (window, "fit"));
    procura_fit_page_select_calculator_candidate (page, 0);
    g_assert_cmpstr (procura_fit_page_get_calculator_engine_version (page), ==, "0.10.1");
    g_assert_nonnull (procura_gui_test_find_label (GTK_WIDGET (page), "vllm 0.10"));

    for (guint i = 0; i < procura_document_get_project (document)->candidates->len && c == NULL; i++)
      {
        ProcuraCandidate *k = g_ptr_array_index (procura_document_get_project (document)->candidates, i);
        if (k->kind == PROCURA_CANDIDATE_GPU && k->gpu_name != NULL)
          c = procura_candidate_copy (k);
      }
    g_assert_nonnull (c);
    g_free (c->engine);
    c->engine = g_strdup ("vllm 0.19.0");
    procura_document_update_candidate (document, c);
    g_assert_true (procura_gui_test_wait_idle (window, 30));
    page = PROCURA_FIT_PAGE (procura_window_get_page (window, "fit"));
    procura_fit_page_select_calculator_candidate (page, 1);
    procura_fit_page_select_calculator_candidate (page, 0);
    g_assert_cmpstr (procura_fit_page_get_calculator_engine_version (page), ==, "0.19.0");
    g_assert_nonnull (procura_gui_test_find_label (GTK_WIDGET (page), "vllm 0.19"));
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_import_cancel_and_export (void)
{
#define MINI_VLLM_RESULT \
    "{\"backend\": \"vllm\", \"model_id\": \"meta-llama/Llama-3.1-8B-Instruct\", \"num_prompts\": 10," \
    " \"request_rate\": 2.0, \"duration\": 5.0, \"completed\": 10, \"failed\": 0," \
    " \"request_throughput\": 2.0, \"output_throughput\": 500.0, \"mean_ttft_ms\": 100.0," \
    " \"median_ttft_ms\": 95.0, \"p99_ttft_ms\": %d.0}"
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *record = g_build_filename (dir, "record.pdf", NULL);
  ProcuraWindow *window = open_demo_window ();
  guint runs_before = procura_document_get_project (procura_window_get_document (window))->runs->len;
  guint imported = G_MAXUINT, runs_after;
  gint64 end;
  gulong id;

  /* 100 small results, then Cancel at once: the import stops between files, and what
   * it stored is whole files only (one run each), never a part of one. */
  for (int i = 0; i < 100; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s/run-%03d.json", dir, i);
      g_autofree char *text = g_strdup_printf (MINI_VLLM_RESULT, 150 + i);

      g_assert_true (g_file_set_contents (name, text, -1, NULL));
      g_ptr_array_add (files, g_file_new_for_path (name));
    }
  id = g_signal_connect (window, "import-finished", G_CALLBACK (import_finished_cb), &imported);
  procura_window_import_files (window, files);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-import", NULL);
  end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (imported == G_MAXUINT && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (window, id);
  g_assert_cmpuint (imported, <, 100);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  runs_after = procura_document_get_project (procura_window_get_document (window))->runs->len;
  g_assert_cmpuint (runs_after - runs_before, ==, imported);

  /* The decision record from the window: a PDF, written off the main loop. */
  procura_window_export_record (window, record);
  end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < end)
    {
      g_autofree char *contents = NULL;
      gsize len = 0;

      if (g_file_get_contents (record, &contents, &len, NULL) && len > 1000
          && g_strstr_len (contents + len - 64, 64, "%%EOF") != NULL)
        {
          g_assert_true (g_str_has_prefix (contents, "%PDF-"));
          break;
        }
      g_main_context_iteration (NULL, FALSE);
      g_usleep (20000);
    }
  g_assert_true (g_get_monotonic_time () < end);
  gtk_window_destroy (GTK_WINDOW (window));
  procura_test_rmtree (dir);
}

int
main (int    argc,
      char **argv)
{
  if (!procura_gui_test_init (&argc, &argv))
    return 0;
  app = procura_gui_test_application ();

  g_test_add_func ("/pages/demo", test_demo_pages);
  g_test_add_func ("/pages/fit-lazy", test_fit_page_lazy);
  g_test_add_func ("/pages/delete-undo", test_delete_undo);
  g_test_add_func ("/pages/brief-edit", test_brief_edit);
  g_test_add_func ("/pages/edit-cost", test_edit_cost);
  g_test_add_func ("/pages/answer-warning", test_answer_warning);
  g_test_add_func ("/pages/save-as-and-last-project", test_save_as_and_last_project);
  g_test_add_func ("/pages/read-only", test_read_only);
  g_test_add_func ("/pages/import-real-fixture", test_import_real_fixture);
  g_test_add_func ("/pages/import-error", test_import_error_shown);
  g_test_add_func ("/chart-view/accessible", test_chart_view_accessible);
  g_test_add_func ("/chart-view/own-layout", test_chart_view_own_layout);
  g_test_add_func ("/pages/calculator-candidate", test_calculator_candidate);
  g_test_add_func ("/pages/import-cancel-and-export", test_import_cancel_and_export);
  g_test_add_func ("/compare/controls", test_compare_controls);
  g_test_add_func ("/presentation/slides", test_presentation);
  g_test_add_func ("/presentation/legend-per-view", test_legend_per_view);
  g_test_add_func ("/probe/panel", test_probe_panel);
  g_test_add_func ("/probe/fleet", test_probe_fleet);
  return procura_gui_test_run ();
}
