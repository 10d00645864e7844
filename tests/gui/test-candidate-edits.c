/* test-candidate-edits.c: the candidates page edits checklist items (add, rename, evidence
 * and its file, remove and undo) and operations test measurements, and restores a
 * candidate removed outside the app (as `procura candidate remove` does)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "procura-gui-test.h"
#include "procura-test-util.h"

#include "procura-store.h"
#include "procura-demo.h"

static ProcuraApplication *app;

static ProcuraWindow *
open_window (const char *path)
{
  ProcuraWindow *window = procura_window_new (app);

  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  if (path == NULL)
    procura_window_open_demo (window);
  else
    {
      g_autoptr (GFile) file = g_file_new_for_path (path);
      procura_window_open_file (window, file);
    }
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  /* The sections build their rows when first expanded, and stay open across rebuilds. */
  procura_gui_test_expand_all (procura_window_get_page (window, "candidates"));
  return window;
}

/* The open message dialog (the page's editor), or NULL. */
static AdwMessageDialog *
find_dialog (void)
{
  g_autoptr (GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      return l->data;
  return NULL;
}

static void
set_entry (AdwMessageDialog *dialog,
           const char       *title,
           const char       *text)
{
  GtkWidget *row = procura_gui_test_find_row (GTK_WIDGET (dialog), ADW_TYPE_ENTRY_ROW, title);

  g_assert_nonnull (row);
  gtk_editable_set_text (GTK_EDITABLE (row), text);
}

/* Answers the dialog as its button would, and makes sure it is gone. */
static void
respond (ProcuraWindow    *window,
         AdwMessageDialog *dialog,
         const char       *response)
{
  g_object_ref (dialog);
  adw_message_dialog_response (dialog, response);
  procura_gui_test_settle ();
  if (gtk_widget_get_visible (GTK_WIDGET (dialog)))
    gtk_window_destroy (GTK_WINDOW (dialog));
  g_object_unref (dialog);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
}

static ProcuraChecklistItem *
item_named (ProcuraProject *project,
            const char     *question)
{
  for (guint i = 0; i < project->checklist->len; i++)
    {
      ProcuraChecklistItem *it = g_ptr_array_index (project->checklist, i);
      if (g_strcmp0 (it->item, question) == 0)
        return it;
    }
  return NULL;
}

/* With PROCURA_TEST_SCREENSHOTS=DIR, the window as the test left it, for review. */
static void
save_screenshot (ProcuraWindow *window,
                 const char    *name)
{
  const char *dir = g_getenv ("PROCURA_TEST_SCREENSHOTS");
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 1);
  for (int k = 0; k < 5; k++)
    procura_gui_test_settle ();
  texture = procura_gui_test_render (GTK_WIDGET (window), &error);
  g_assert_no_error (error);
  path = g_strdup_printf ("%s/%s.png", dir, name);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot %s", path);
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
test_checklist_edit (void)
{
  ProcuraWindow *window;
  ProcuraDocument *document;
  ProcuraCandidate *first;
  ProcuraChecklistItem *it;
  GtkWidget *page, *add, *button;
  AdwMessageDialog *dialog;
  gint64 candidate_id, token = 0;
  guint n;

  window = open_window (NULL);
  document = procura_window_get_document (window);
  page = procura_window_get_page (window, "candidates");
  first = g_ptr_array_index (procura_document_get_project (document)->candidates, 0);
  candidate_id = first->id;
  n = procura_document_get_project (document)->checklist->len;

  /* Add: the first "Add Checklist Item…" row is the first candidate's. */
  add = procura_gui_test_find_row (page, ADW_TYPE_ACTION_ROW, "_Add Checklist Item…");
  g_assert_nonnull (add);
  g_assert_true (gtk_widget_is_sensitive (add));
  g_signal_emit_by_name (add, "activated");
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  /* no question, no save */
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "save"));
  set_entry (dialog, "Question", "  Spare GPUs on site?  ");
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "save"));
  adw_combo_row_set_selected (ADW_COMBO_ROW (procura_gui_test_find_row (GTK_WIDGET (dialog), ADW_TYPE_COMBO_ROW, "Section")), 0);
  adw_combo_row_set_selected (ADW_COMBO_ROW (procura_gui_test_find_row (GTK_WIDGET (dialog), ADW_TYPE_COMBO_ROW, "Answer")), 2);
  set_entry (dialog, "Evidence", "two spares per rack");
  set_entry (dialog, "Evidence file (path or URL)", "/srv/evidence/spares.pdf");
  /* the file chooser button is labelled for assistive technologies */
  g_assert_nonnull (procura_gui_test_find_button (GTK_WIDGET (dialog), "Choose a File…"));
  respond (window, dialog, "save");
  g_assert_cmpuint (procura_document_get_project (document)->checklist->len, ==, n + 1);
  it = item_named (procura_document_get_project (document), "Spare GPUs on site?");
  g_assert_nonnull (it);
  g_assert_cmpint (it->candidate_id, ==, candidate_id);
  g_assert_cmpstr (it->section, ==, "hardware");
  g_assert_cmpstr (it->answer, ==, "partial");
  g_assert_cmpstr (it->evidence, ==, "two spares per rack");
  g_assert_cmpstr (it->evidence_file, ==, "/srv/evidence/spares.pdf");
  /* the page shows it, with the file */
  g_assert_nonnull (procura_gui_test_find_label (page, "file: /srv/evidence/spares.pdf"));

  /* Rename, through the row's Edit button; the evidence file cleared. */
  button = procura_gui_test_find_button (page, "Edit “Spare GPUs on site?”");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  set_entry (dialog, "Question", "");
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "save"));
  set_entry (dialog, "Question", "Two spare GPUs per rack on site?");
  set_entry (dialog, "Evidence file (path or URL)", "https://example.com/spares");
  respond (window, dialog, "save");
  g_assert_cmpuint (procura_document_get_project (document)->checklist->len, ==, n + 1);
  g_assert_null (item_named (procura_document_get_project (document), "Spare GPUs on site?"));
  it = item_named (procura_document_get_project (document), "Two spare GPUs per rack on site?");
  g_assert_nonnull (it);
  g_assert_cmpstr (it->evidence, ==, "two spares per rack");
  g_assert_cmpstr (it->evidence_file, ==, "https://example.com/spares");

  /* Cancel changes nothing. */
  g_signal_emit_by_name (procura_gui_test_find_button (page, "Edit “Two spare GPUs per rack on site?”"), "clicked");
  dialog = find_dialog ();
  set_entry (dialog, "Question", "Something else");
  respond (window, dialog, "cancel");
  g_assert_nonnull (item_named (procura_document_get_project (document), "Two spare GPUs per rack on site?"));

  /* Remove, then Undo from the toast's action: back with its answer and evidence. */
  g_signal_connect (document, "deleted", G_CALLBACK (deleted_cb), &token);
  button = procura_gui_test_find_button (page, "Remove “Two spare GPUs per rack on site?”");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_cmpint (token, !=, 0);
  g_assert_cmpuint (procura_document_get_project (document)->checklist->len, ==, n);
  g_assert_null (item_named (procura_document_get_project (document), "Two spare GPUs per rack on site?"));
  g_assert_null (procura_gui_test_find_button (page, "Remove “Two spare GPUs per rack on site?”"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", "x", token);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_cmpuint (procura_document_get_project (document)->checklist->len, ==, n + 1);
  it = item_named (procura_document_get_project (document), "Two spare GPUs per rack on site?");
  g_assert_nonnull (it);
  g_assert_cmpint (it->candidate_id, ==, candidate_id);
  g_assert_cmpstr (it->answer, ==, "partial");
  g_assert_cmpstr (it->evidence_file, ==, "https://example.com/spares");
  g_assert_nonnull (procura_gui_test_find_button (page, "Remove “Two spare GPUs per rack on site?”"));

  /* The project-wide answers (no candidate) are on the page too, and stay project-wide
   * when edited. */
  g_assert_nonnull (procura_gui_test_find_label (page, "Whole Project"));
  g_assert_nonnull (procura_gui_test_find_label (page, "file: https://example.com/legal/data-processing-addendum.pdf"));
  button = procura_gui_test_find_button (page, "Edit “Prompts and responses stay in US regions”");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  adw_combo_row_set_selected (ADW_COMBO_ROW (procura_gui_test_find_row (GTK_WIDGET (dialog), ADW_TYPE_COMBO_ROW, "Answer")), 3);
  respond (window, dialog, "save");
  it = item_named (procura_document_get_project (document), "Prompts and responses stay in US regions");
  g_assert_nonnull (it);
  g_assert_cmpint (it->candidate_id, ==, 0);
  g_assert_cmpstr (it->answer, ==, "no");
  g_assert_cmpstr (it->evidence_file, ==, "https://example.com/legal/data-processing-addendum.pdf");
  gtk_window_destroy (GTK_WINDOW (window));
}

static ProcuraOpsTest *
ops_test (ProcuraProject *project,
          gint64          candidate_id,
          const char     *kind)
{
  for (guint i = 0; i < project->ops_tests->len; i++)
    {
      ProcuraOpsTest *t = g_ptr_array_index (project->ops_tests, i);
      if (t->candidate_id == candidate_id && g_strcmp0 (t->kind, kind) == 0)
        return t;
    }
  return NULL;
}

static void
test_ops_values (void)
{
  ProcuraWindow *window;
  ProcuraDocument *document;
  ProcuraOpsTest *t;
  GtkWidget *page, *button, *row;
  AdwMessageDialog *dialog;
  gint64 candidate_id;

  window = open_window (NULL);
  document = procura_window_get_document (window);
  page = procura_window_get_page (window, "candidates");
  candidate_id = ((ProcuraCandidate *) g_ptr_array_index (procura_document_get_project (document)->candidates, 0))->id;
  /* the demo's first candidate has not run the bad-deploy test */
  g_assert_null (ops_test (procura_document_get_project (document), candidate_id, "bad-deploy"));

  button = procura_gui_test_find_button (page, "Edit the measurements of “A bad deploy”");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  /* empty values are "not measured": savable */
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "save"));
  row = procura_gui_test_find_row (GTK_WIDGET (dialog), ADW_TYPE_ENTRY_ROW, "Failed requests");
  /* refused as the cost inputs are: negative, not a number, not finite */
  for (guint i = 0; i < 3; i++)
    {
      gtk_editable_set_text (GTK_EDITABLE (row), (const char *[]) { "-3", "twelve", "inf" }[i]);
      g_assert_true (gtk_widget_has_css_class (row, "error"));
      g_assert_false (adw_message_dialog_get_response_enabled (dialog, "save"));
    }
  set_entry (dialog, "Failed requests", "27");
  g_assert_false (gtk_widget_has_css_class (row, "error"));
  set_entry (dialog, "Recovery time (s)", " 95.5 ");
  set_entry (dialog, "Occurrences per planning window", "0.25");
  set_entry (dialog, "Notes", "rollback by the deploy pipeline");
  adw_combo_row_set_selected (ADW_COMBO_ROW (procura_gui_test_find_row (GTK_WIDGET (dialog), ADW_TYPE_COMBO_ROW, "Result")), 1);
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "save"));
  respond (window, dialog, "save");
  t = ops_test (procura_document_get_project (document), candidate_id, "bad-deploy");
  g_assert_nonnull (t);
  g_assert_cmpstr (t->result, ==, "pass");
  g_assert_cmpfloat (t->failed_requests, ==, 27);
  g_assert_cmpfloat (t->recovery_s, ==, 95.5);
  g_assert_cmpfloat (t->per_month, ==, 0.25);
  g_assert_cmpstr (t->notes, ==, "rollback by the deploy pipeline");
  g_assert_nonnull (procura_gui_test_find_label (page, "rollback by the deploy pipeline"));

  /* edited again: a value cleared is unknown again, the others stay */
  g_signal_emit_by_name (procura_gui_test_find_button (page, "Edit the measurements of “A bad deploy”"), "clicked");
  dialog = find_dialog ();
  row = procura_gui_test_find_row (GTK_WIDGET (dialog), ADW_TYPE_ENTRY_ROW, "Recovery time (s)");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "95.5");
  set_entry (dialog, "Failed requests", "");
  respond (window, dialog, "save");
  t = ops_test (procura_document_get_project (document), candidate_id, "bad-deploy");
  g_assert_true (isnan (t->failed_requests));
  g_assert_cmpfloat (t->recovery_s, ==, 95.5);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A candidate removed by another process (the CLI's `candidate remove` calls
 * procura_store_delete_candidate) is offered back when the app opens the project. */
static void
test_restore_outside_removal (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = g_build_filename (dir, "removed.procura", NULL);
  g_autofree char *name = NULL;
  g_autofree char *restore_label = NULL;
  g_autoptr (GError) error = NULL;
  ProcuraStore *store;
  ProcuraWindow *window;
  ProcuraDocument *document;
  ProcuraRemoval *r;
  GtkWidget *page, *button;
  gint64 id, own = 0;
  guint n;

  g_assert_true (procura_demo_write (path, &error));
  g_assert_no_error (error);
  /* as the command line would */
  store = procura_store_open (path, PROCURA_STORE_OPEN_WRITABLE, &error);
  g_assert_no_error (error);
  {
    g_autoptr (GPtrArray) candidates = procura_store_list_candidates (store, &error);
    ProcuraCandidate *c = g_ptr_array_index (candidates, 1);

    n = candidates->len;
    id = c->id;
    name = g_strdup (c->name);
  }
  g_assert_true (procura_store_delete_candidate (store, id, NULL, &error));
  g_assert_no_error (error);
  procura_store_close (store);

  window = open_window (path);
  document = procura_window_get_document (window);
  g_assert_false (procura_document_get_read_only (document));
  g_assert_cmpuint (procura_document_get_project (document)->candidates->len, ==, n - 1);
  g_assert_cmpuint (procura_document_get_outside_removals (document)->len, ==, 1);
  r = g_ptr_array_index (procura_document_get_outside_removals (document), 0);
  g_assert_cmpstr (r->kind, ==, "candidate");
  g_assert_cmpstr (r->name, ==, name);
  g_assert_cmpuint (r->n_runs, >, 0);
  /* the window says so in a toast that leads to the candidates page */
  g_assert_nonnull (procura_gui_test_find_label (GTK_WIDGET (window), "1 removal made outside this window can be undone"));
  page = procura_window_get_page (window, "candidates");
  g_assert_nonnull (procura_gui_test_find_label (page, "Removed Outside This Window"));
  save_screenshot (window, "candidates-removed-outside");

  /* A deletion made in the window is not "outside": it has its own Undo toast. */
  g_signal_connect (document, "deleted", G_CALLBACK (deleted_cb), &own);
  procura_document_delete_candidate (document,
                                     ((ProcuraCandidate *) g_ptr_array_index (procura_document_get_project (document)->candidates, 0))->id);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_cmpint (own, >, 0);
  g_assert_cmpuint (procura_document_get_outside_removals (document)->len, ==, 1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", "x", own);
  g_assert_true (procura_gui_test_wait_idle (window, 30));

  /* Restore, through the row's button. */
  restore_label = g_strdup_printf ("Restore “%s”", name);
  button = procura_gui_test_find_button (page, restore_label);
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_cmpuint (procura_document_get_project (document)->candidates->len, ==, n);
  g_assert_nonnull (procura_project_find_candidate (procura_document_get_project (document), id));
  g_assert_cmpuint (procura_document_get_outside_removals (document)->len, ==, 0);
  g_assert_null (procura_gui_test_find_label (page, "Removed Outside This Window"));
  g_assert_null (procura_gui_test_find_button (page, restore_label));
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();

  /* The restore was stored: the file has every candidate and nothing left to undo. */
  store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  {
    g_autoptr (GPtrArray) candidates = procura_store_list_candidates (store, &error);
    g_autoptr (GPtrArray) pending = procura_store_list_undo_entries (store, &error);

    g_assert_cmpuint (candidates->len, ==, n);
    g_assert_cmpuint (pending->len, ==, 0);
  }
  procura_store_close (store);
  procura_test_rmtree (dir);
}

int
main (int    argc,
      char **argv)
{
  if (!procura_gui_test_init (&argc, &argv))
    return 0;
  app = procura_gui_test_application ();

  g_test_add_func ("/candidates/checklist-edit", test_checklist_edit);
  g_test_add_func ("/candidates/ops-values", test_ops_values);
  g_test_add_func ("/candidates/restore-outside-removal", test_restore_outside_removal);
  return procura_gui_test_run ();
}
