/* test-diff-dialog.c: the app's "Compare With…" view of `procura diff`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The demo against a copy with a cheaper candidate and a tighter latency target: the
 * dialog (opened as the window's action opens it) shows those columns old → new, the
 * consequences and the recommendation; identical projects show "No changes". With
 * PROCURA_DIFF_SCREENSHOT=DIR it also writes DIR/diff-dialog.png.
 */
#include "config.h"

#include <string.h>

#include "procura-demo.h"
#include "procura-diff-dialog.h"
#include "procura-gui-test.h"
#include "procura-store.h"
#include "procura-test-util.h"
#include "procura-units.h"

static void
make_pair (const char *dir,
           char      **old_path,
           char      **new_path,
           gboolean    change)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) a = NULL, b = NULL;

  *old_path = g_build_filename (dir, "old.procura", NULL);
  *new_path = g_build_filename (dir, change ? "new.procura" : "same.procura", NULL);
  if (!g_file_test (*old_path, G_FILE_TEST_EXISTS))
    {
      g_assert_true (procura_demo_write (*old_path, &error));
      g_assert_no_error (error);
    }
  a = g_file_new_for_path (*old_path);
  b = g_file_new_for_path (*new_path);
  g_assert_true (g_file_copy (a, b, G_FILE_COPY_NONE, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  if (change)
    {
      g_autoptr (ProcuraStore) store = procura_store_open (*new_path, PROCURA_STORE_OPEN_WRITABLE, &error);
      g_autoptr (ProcuraProject) p = NULL;
      g_autoptr (ProcuraCandidate) c = NULL;
      g_autoptr (ProcuraBrief) brief = NULL;

      g_assert_no_error (error);
      p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
      g_assert_no_error (error);
      c = procura_candidate_copy (g_ptr_array_index (p->candidates, 0));
      c->price_per_gpu_hour *= 0.6;
      g_assert_true (procura_store_update_candidate (store, c, &error));
      brief = procura_brief_copy (p->brief);
      brief->slo_threshold_ms *= 0.75;
      g_assert_true (procura_store_save_brief (store, brief, &error));
      g_assert_no_error (error);
    }
}

/* The dialog window that procura_diff_dialog_present() opened over @parent. */
static GtkWindow *
find_dialog (GtkWindow *parent)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);
      if (gtk_window_get_transient_for (w) == parent)
        return w;
    }
  return NULL;
}

/* Waits (10 s at most) until the dialog shows its result. */
static GtkWidget *
wait_result (GtkWindow *dialog)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  GtkWidget *page = NULL;

  while (g_get_monotonic_time () < end)
    {
      page = procura_gui_test_find (GTK_WIDGET (dialog), ADW_TYPE_PREFERENCES_PAGE);
      if (page == NULL)
        page = procura_gui_test_find (GTK_WIDGET (dialog), ADW_TYPE_STATUS_PAGE);
      if (page != NULL)
        break;
      g_main_context_iteration (NULL, TRUE);
    }
  procura_gui_test_settle ();
  return page;
}

static void
test_changes (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *old_path = NULL, *new_path = NULL;
  GtkWidget *parent = gtk_window_new ();
  GtkWindow *dialog;
  GtkWidget *page;
  const char *shots = g_getenv ("PROCURA_DIFF_SCREENSHOT");

  g_autoptr (ProcuraProject) demo = procura_demo_project_new ();
  const ProcuraCandidate *first = g_ptr_array_index (demo->candidates, 0);
  g_autofree char *old_price = procura_units_money (first->price_per_gpu_hour, demo->assumptions.currency);
  g_autofree char *new_price = procura_units_money (first->price_per_gpu_hour * 0.6, demo->assumptions.currency);
  g_autofree char *price = g_strdup_printf ("price_per_gpu_hour: %s → %s", old_price, new_price);
  g_autofree char *slo = g_strdup_printf ("%g ms → %g ms", demo->brief->slo_threshold_ms,
                                          demo->brief->slo_threshold_ms * 0.75);

  g_autoptr (ProcuraStore) held = NULL;
  g_autoptr (GError) open_error = NULL;

  make_pair (dir, &old_path, &new_path, TRUE);
  /* the open project is held for writing by the window's document, as in the app */
  held = procura_store_open (new_path, PROCURA_STORE_OPEN_WRITABLE, &open_error);
  g_assert_no_error (open_error);
  gtk_window_present (GTK_WINDOW (parent));
  procura_diff_dialog_present (GTK_WINDOW (parent), old_path, new_path);
  dialog = find_dialog (GTK_WINDOW (parent));
  g_assert_nonnull (dialog);
  page = wait_result (dialog);
  g_assert_true (ADW_IS_PREFERENCES_PAGE (page));
  procura_gui_test_wait_mapped (GTK_WIDGET (dialog));

  g_assert_true (g_str_has_prefix (gtk_window_get_title (dialog), "Changes since “Demo"));
  g_assert_nonnull (procura_gui_test_find_label (page, "slo_threshold_ms"));
  g_assert_nonnull (procura_gui_test_find_label (page, slo));
  g_assert_nonnull (procura_gui_test_find_label (page, price));
  g_assert_nonnull (procura_gui_test_find_label (page, "Consequences"));
  g_assert_nonnull (procura_gui_test_find_label (page, "Cost per accepted output: "));
  g_assert_nonnull (procura_gui_test_find_label (page, "Recommendation"));
  g_assert_null (procura_gui_test_find_label (page, "No changes"));
  g_assert_null (procura_gui_test_find_label (page, "Quotes"));

  if (shots != NULL)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GdkTexture) texture = procura_gui_test_render (GTK_WIDGET (dialog), &error);
      g_autofree char *png = g_build_filename (shots, "diff-dialog.png", NULL);

      g_assert_no_error (error);
      g_assert_true (gdk_texture_save_to_png (texture, png));
    }
  gtk_window_destroy (dialog);
  gtk_window_destroy (GTK_WINDOW (parent));
  procura_test_rmtree (dir);
}

static void
test_no_changes (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *old_path = NULL, *new_path = NULL;
  GtkWidget *parent = gtk_window_new ();
  GtkWindow *dialog;
  GtkWidget *page;

  make_pair (dir, &old_path, &new_path, FALSE);
  gtk_window_present (GTK_WINDOW (parent));
  procura_diff_dialog_present (GTK_WINDOW (parent), old_path, new_path);
  dialog = find_dialog (GTK_WINDOW (parent));
  page = wait_result (dialog);
  g_assert_true (ADW_IS_PREFERENCES_PAGE (page));
  g_assert_nonnull (procura_gui_test_find_label (page, "No changes"));
  g_assert_null (procura_gui_test_find_label (page, "Consequences"));
  gtk_window_destroy (dialog);
  gtk_window_destroy (GTK_WINDOW (parent));
  procura_test_rmtree (dir);
}

static void
test_error (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *missing = g_build_filename (dir, "gone.procura", NULL);
  g_autofree char *old_path = NULL, *new_path = NULL;
  GtkWidget *parent = gtk_window_new ();
  GtkWindow *dialog;
  GtkWidget *page;

  make_pair (dir, &old_path, &new_path, FALSE);
  gtk_window_present (GTK_WINDOW (parent));
  procura_diff_dialog_present (GTK_WINDOW (parent), missing, new_path);
  dialog = find_dialog (GTK_WINDOW (parent));
  page = wait_result (dialog);
  g_assert_true (ADW_IS_STATUS_PAGE (page));
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (page)), "gone.procura"));
  gtk_window_destroy (dialog);
  gtk_window_destroy (GTK_WINDOW (parent));
  procura_test_rmtree (dir);
}

/* The window offers it: "win.compare" is installed (the main menu names it) */
static void
test_window_action (void)
{
  GType type = PROCURA_TYPE_WINDOW;
  gpointer klass = g_type_class_ref (type);
  gboolean found = FALSE;
  const char *name, *property;
  const GVariantType *ptype;
  GType owner;

  for (guint i = 0; gtk_widget_class_query_action (klass, i, &owner, &name, &ptype, &property); i++)
    if (g_str_equal (name, "win.compare"))
      found = TRUE;
  g_assert_true (found);
  g_type_class_unref (klass);
}

int
main (int    argc,
      char **argv)
{
  if (!procura_gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/gui/diff-dialog/changes", test_changes);
  g_test_add_func ("/gui/diff-dialog/no-changes", test_no_changes);
  g_test_add_func ("/gui/diff-dialog/error", test_error);
  g_test_add_func ("/gui/diff-dialog/window-action", test_window_action);
  return procura_gui_test_run ();
}
