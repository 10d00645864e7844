/* test-undo.c: Ctrl+Z and Shift+Ctrl+Z over the edits made in the app
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A candidate's price and name edited one after the other come back with two undos (in
 * the window's snapshot and in the project file), and go again with two redos; a run's
 * assignment is undone and redone the same way.
 */
#include "config.h"

#include <math.h>

#include "procura-gui-test.h"
#include "procura-test-util.h"
#include "procura-application.h"
#include "procura-document.h"
#include "procura-store.h"

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

/* Runs a window action as its key would, and waits for the write. */
static void
activate (ProcuraWindow *window,
          const char    *action)
{
  gtk_widget_activate_action (GTK_WIDGET (window), action, NULL);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
}

/* The candidate as the project file holds it now (another connection). */
static ProcuraCandidate *
stored_candidate (const char *path,
                  gint64      id)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_autoptr (GPtrArray) candidates = NULL;

  g_assert_no_error (error);
  candidates = procura_store_list_candidates (store, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < candidates->len; i++)
    {
      ProcuraCandidate *c = g_ptr_array_index (candidates, i);
      if (c->id == id)
        return procura_candidate_copy (c);
    }
  return NULL;
}

static void
assert_candidate (ProcuraDocument *document,
                  gint64           id,
                  const char      *name,
                  double           price)
{
  ProcuraCandidate *shown = procura_project_find_candidate (procura_document_get_project (document), id);
  g_autoptr (ProcuraCandidate) stored = stored_candidate (procura_document_get_path (document), id);

  g_assert_nonnull (shown);
  g_assert_cmpstr (shown->name, ==, name);
  g_assert_cmpfloat (shown->price_per_gpu_hour, ==, price);
  g_assert_nonnull (stored);
  g_assert_cmpstr (stored->name, ==, name);
  g_assert_cmpfloat (stored->price_per_gpu_hour, ==, price);
}

static void
test_candidate_edits (void)
{
  ProcuraWindow *window = open_demo_window ();
  ProcuraDocument *document = procura_window_get_document (window);
  ProcuraProject *project = procura_document_get_project (document);
  ProcuraCandidate *c = NULL;
  g_autoptr (ProcuraCandidate) edit = NULL;
  g_autofree char *name = NULL, *new_name = NULL;
  double price, new_price;
  gint64 id;

  /* the keys are the application's */
  {
    g_auto (GStrv) undo = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.undo-edit");
    g_auto (GStrv) redo = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.redo-edit");

    g_assert_cmpstr (undo[0], ==, "<Control>z");
    g_assert_cmpstr (redo[0], ==, "<Shift><Control>z");
  }
  for (guint i = 0; i < project->candidates->len && c == NULL; i++)
    {
      ProcuraCandidate *k = g_ptr_array_index (project->candidates, i);
      if (k->kind == PROCURA_CANDIDATE_GPU && isfinite (k->price_per_gpu_hour))
        c = k;
    }
  g_assert_nonnull (c);
  id = c->id;
  name = g_strdup (c->name);
  price = c->price_per_gpu_hour;
  new_price = price + 1.25;
  new_name = g_strconcat (name, " (renegotiated)", NULL);
  g_assert_false (procura_document_can_undo_edit (document));

  /* the price, then the name, as the Candidates page writes them */
  edit = procura_candidate_copy (c);
  edit->price_per_gpu_hour = new_price;
  procura_document_update_candidate (document, edit);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_clear_pointer (&edit, procura_candidate_free);
  edit = procura_candidate_copy (procura_project_find_candidate (procura_document_get_project (document), id));
  g_free (edit->name);
  edit->name = g_strdup (new_name);
  procura_document_update_candidate (document, edit);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  assert_candidate (document, id, new_name, new_price);

  /* Ctrl+Z: the name first, then the price */
  activate (window, "win.undo-edit");
  assert_candidate (document, id, name, new_price);
  g_assert_true (procura_document_can_redo_edit (document));
  activate (window, "win.undo-edit");
  assert_candidate (document, id, name, price);
  g_assert_false (procura_document_can_undo_edit (document));

  /* Shift+Ctrl+Z: the price, then the name */
  activate (window, "win.redo-edit");
  assert_candidate (document, id, name, new_price);
  activate (window, "win.redo-edit");
  assert_candidate (document, id, new_name, new_price);
  g_assert_false (procura_document_can_redo_edit (document));
  activate (window, "win.redo-edit");
  procura_gui_test_settle ();
  g_assert_nonnull (procura_gui_test_find_label (GTK_WIDGET (window), "Nothing to redo"));

  /* undone once more, then a new edit: nothing is left to redo */
  activate (window, "win.undo-edit");
  assert_candidate (document, id, name, new_price);
  g_assert_true (procura_document_can_redo_edit (document));
  g_clear_pointer (&edit, procura_candidate_free);
  edit = procura_candidate_copy (procura_project_find_candidate (procura_document_get_project (document), id));
  edit->price_per_gpu_hour = price;
  procura_document_update_candidate (document, edit);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_false (procura_document_can_redo_edit (document));
  assert_candidate (document, id, name, price);
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
}

static gint64
run_candidate (ProcuraDocument *document,
               gint64           run_id)
{
  ProcuraProject *project = procura_document_get_project (document);

  for (guint i = 0; i < project->runs->len; i++)
    {
      ProcuraRun *r = g_ptr_array_index (project->runs, i);
      if (r->id == run_id)
        return r->candidate_id;
    }
  g_assert_not_reached ();
  return -1;
}

static void
test_run_assignment (void)
{
  ProcuraWindow *window = open_demo_window ();
  ProcuraDocument *document = procura_window_get_document (window);
  ProcuraProject *project = procura_document_get_project (document);
  gint64 run_id = 0, was = 0;

  for (guint i = 0; i < project->runs->len && run_id == 0; i++)
    {
      ProcuraRun *r = g_ptr_array_index (project->runs, i);
      if (r->candidate_id != 0)
        {
          run_id = r->id;
          was = r->candidate_id;
        }
    }
  g_assert_cmpint (run_id, >, 0);
  procura_document_assign_run (document, run_id, 0);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_cmpint (run_candidate (document, run_id), ==, 0);
  activate (window, "win.undo-edit");
  g_assert_cmpint (run_candidate (document, run_id), ==, was);
  activate (window, "win.redo-edit");
  g_assert_cmpint (run_candidate (document, run_id), ==, 0);
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

  g_test_add_func ("/undo/candidate-edits", test_candidate_edits);
  g_test_add_func ("/undo/run-assignment", test_run_assignment);
  return procura_gui_test_run ();
}
