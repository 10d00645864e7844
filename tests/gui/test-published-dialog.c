/* test-published-dialog.c: "Import Published Results…": list a data set's rows, filter,
 * pick several, import them into a new candidate (which takes the rows' deployment) and
 * into an existing one (whose disagreement becomes the run's warning)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The data set is the project's own small MLPerf-shaped summary (five LLM rows, one
 * image-classification row that is not an LLM result).
 */
#include "config.h"

#include <string.h>

#include "procura-application.h"
#include "procura-gpu-catalog.h"
#include "procura-gui-test.h"
#include "procura-published-dialog.h"
#include "procura-store.h"
#include "procura-test-util.h"

static ProcuraApplication *app;

/* Waits (20 s at most) until the dialog lists its rows */
static GtkWidget *
wait_rows (GtkWindow *dialog)
{
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  GtkWidget *rows = NULL;

  while (rows == NULL && g_get_monotonic_time () < end)
    {
      rows = procura_gui_test_find_named (GTK_WIDGET (dialog), "published-rows");
      if (rows == NULL)
        g_main_context_iteration (NULL, TRUE);
    }
  procura_gui_test_settle ();
  return rows;
}

static guint
shown_rows (GtkWidget *list)
{
  guint n = 0;

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_child_visible (row))
      n++;
  return n;
}

static void
set_filter (GtkWindow  *dialog,
            const char *text)
{
  GtkWidget *filter = procura_gui_test_find_named (GTK_WIDGET (dialog), "published-filter");

  g_assert_nonnull (filter);
  gtk_editable_set_text (GTK_EDITABLE (filter), text);
  g_signal_emit_by_name (filter, "search-changed");   /* without the entry's typing delay */
  procura_gui_test_settle ();
}

static const char *
count_text (GtkWindow *dialog)
{
  return gtk_label_get_text (GTK_LABEL (procura_gui_test_find_named (GTK_WIDGET (dialog), "published-count")));
}

static void
click (GtkWindow  *dialog,
       const char *name)
{
  GtkWidget *button = procura_gui_test_find_named (GTK_WIDGET (dialog), name);

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  procura_gui_test_settle ();
}

/* Runs the main loop until the project holds @n runs (20 s at most) */
static void
wait_runs (ProcuraDocument *document,
           guint            n)
{
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (procura_document_get_project (document)->runs->len < n && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  procura_gui_test_settle ();
  g_assert_cmpuint (procura_document_get_project (document)->runs->len, ==, n);
}

static const ProcuraCandidate *
candidate_named (ProcuraProject *project,
                 const char     *name)
{
  for (guint i = 0; i < project->candidates->len; i++)
    if (g_strcmp0 (((ProcuraCandidate *) g_ptr_array_index (project->candidates, i))->name, name) == 0)
      return g_ptr_array_index (project->candidates, i);
  return NULL;
}

static gboolean
has_warning (const ProcuraRun *run,
             const char       *needle)
{
  for (guint i = 0; i < run->warnings->len; i++)
    if (strstr (g_ptr_array_index (run->warnings, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

static void
test_pick_rows (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *project = g_build_filename (dir, "p.procura", NULL);
  g_autofree char *data_set = procura_test_fixture ("import/mlperf-summary-rows.json");
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = NULL;
  ProcuraWindow *window;
  ProcuraDocument *document;
  GtkWindow *dialog;
  GtkWidget *list;
  const ProcuraCandidate *c;
  ProcuraProject *p;
  guint mi300x = 0;

  {
    g_autoptr (ProcuraStore) store = procura_store_create (project, "published", &error);
    g_assert_no_error (error);
    g_assert_nonnull (store);
  }
  window = procura_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  file = g_file_new_for_path (project);
  procura_window_open_file (window, file);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  document = procura_window_get_document (window);
  g_assert_nonnull (document);

  /* The rows: the five LLM results, none picked, nothing to import yet */
  dialog = procura_published_dialog_present (GTK_WINDOW (window), document, data_set);
  list = wait_rows (dialog);
  g_assert_nonnull (list);
  g_assert_cmpuint (shown_rows (list), ==, 5);
  g_assert_cmpstr (count_text (dialog), ==, "5 of 5 rows shown, 0 picked");
  g_assert_false (gtk_widget_is_sensitive (procura_gui_test_find_named (GTK_WIDGET (dialog), "published-import")));
  g_assert_nonnull (procura_gui_test_find_label (GTK_WIDGET (dialog), "8 × NVIDIA H200-SXM-141GB"));
  g_assert_nonnull (procura_gui_test_find_label (GTK_WIDGET (dialog), "30000 output tok/s"));

  /* Filter by every word; pick what is shown */
  set_filter (dialog, "h200 server");
  g_assert_cmpuint (shown_rows (list), ==, 1);
  click (dialog, "published-pick-shown");
  g_assert_cmpstr (count_text (dialog), ==, "1 of 5 rows shown, 1 picked");
  set_filter (dialog, "llama2-70b");
  g_assert_cmpuint (shown_rows (list), ==, 4);
  set_filter (dialog, "H200");
  g_assert_cmpuint (shown_rows (list), ==, 2);
  click (dialog, "published-pick-shown");
  g_assert_cmpstr (count_text (dialog), ==, "2 of 5 rows shown, 2 picked");

  /* A new candidate needs a name */
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (procura_gui_test_find_named (GTK_WIDGET (dialog), "published-candidate"))), ==, 0);
  click (dialog, "published-import");
  g_assert_true (gtk_widget_get_visible (procura_gui_test_find_named (GTK_WIDGET (dialog), "published-message")));
  g_assert_cmpuint (procura_document_get_project (document)->runs->len, ==, 0);
  gtk_editable_set_text (GTK_EDITABLE (procura_gui_test_find_named (GTK_WIDGET (dialog), "published-name")), "H200 published");
  click (dialog, "published-import");
  wait_runs (document, 2);

  /* The new candidate took the rows' deployment; both runs are its, marked third-party */
  p = procura_document_get_project (document);
  c = candidate_named (p, "H200 published");
  g_assert_nonnull (c);
  g_assert_nonnull (procura_gpu_catalog_lookup ("NVIDIA H200-SXM-141GB"));
  g_assert_cmpstr (c->gpu_name, ==, procura_gpu_catalog_lookup ("NVIDIA H200-SXM-141GB")->id);
  g_assert_cmpint (c->gpus_per_replica, ==, 8);
  for (guint i = 0; i < p->runs->len; i++)
    {
      const ProcuraRun *run = g_ptr_array_index (p->runs, i);
      g_assert_cmpint (run->candidate_id, ==, c->id);
      g_assert_cmpstr (run->scenario.model, ==, "llama2-70b-99");
      g_assert_nonnull (strstr (run->extras_json, "third_party"));
    }

  /* Into the existing candidate: an MI300X row disagrees with it, and says so */
  dialog = procura_published_dialog_present (GTK_WINDOW (window), document, data_set);
  list = wait_rows (dialog);
  g_assert_nonnull (list);
  set_filter (dialog, "mi300x server");
  g_assert_cmpuint (shown_rows (list), ==, 1);
  click (dialog, "published-pick-shown");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (procura_gui_test_find_named (GTK_WIDGET (dialog), "published-candidate")), 1);
  procura_gui_test_settle ();
  g_assert_false (gtk_widget_get_visible (procura_gui_test_find_named (GTK_WIDGET (dialog), "published-name")));
  click (dialog, "published-import");
  wait_runs (document, 3);
  p = procura_document_get_project (document);
  c = candidate_named (p, "H200 published");
  g_assert_cmpuint (p->candidates->len, ==, 1);
  for (guint i = 0; i < p->runs->len; i++)
    {
      const ProcuraRun *run = g_ptr_array_index (p->runs, i);
      if (g_strcmp0 (run->scenario.gpu_name, "AMD Instinct MI300X 192GB HBM3") != 0)
        continue;
      mi300x++;
      g_assert_cmpint (run->candidate_id, ==, c->id);
      g_assert_true (has_warning (run, "states the GPU “AMD Instinct MI300X 192GB HBM3”, candidate “H200 published”"));
    }
  g_assert_cmpuint (mi300x, ==, 1);

  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
  procura_test_rmtree (dir);
}

int
main (int    argc,
      char **argv)
{
  if (!procura_gui_test_init (&argc, &argv))
    return 0;
  app = procura_gui_test_application ();

  g_test_add_func ("/published/pick-rows", test_pick_rows);
  return procura_gui_test_run ();
}
