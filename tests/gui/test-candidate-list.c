/* test-candidate-list.c: the Candidates page of a project with 40 candidates builds no
 * section's rows before that section is opened, and keeps an opened one open and built
 * across a rebuild; the Benchmarks page builds rows only for the runs in view; both build
 * their first screenful with the page and the rest in idle batches, each row once, even
 * when rebuilt in the middle of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-gui-test.h"
#include "procura-test-util.h"

#include "procura-benchmarks-page.h"
#include "procura-candidate-row.h"
#include "procura-candidate-section.h"
#include "procura-choice-row.h"
#include "procura-cost-row.h"
#include "procura-demo.h"
#include "procura-page.h"
#include "procura-run-item.h"
#include "procura-run-row.h"
#include "procura-store.h"

#define N_CANDIDATES 40

static ProcuraApplication *app;

static guint
count_type (GtkWidget *widget,
            GType      type)
{
  guint n = G_TYPE_CHECK_INSTANCE_TYPE (widget, type) ? 1 : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_type (child, type);
  return n;
}

static guint
count_filled (GtkWidget *widget)
{
  guint n = PROCURA_IS_CANDIDATE_SECTION (widget)
            && procura_candidate_section_is_filled (PROCURA_CANDIDATE_SECTION (widget)) ? 1 : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_filled (child);
  return n;
}

/* The demo with its candidates copied until there are N_CANDIDATES, as a user's
 * project would hold them. */
static char *
write_project (const char *dir)
{
  char *path = g_build_filename (dir, "forty.procura", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) candidates = NULL;
  ProcuraStore *store;
  guint n;

  g_assert_true (procura_demo_write (path, &error));
  g_assert_no_error (error);
  store = procura_store_open (path, PROCURA_STORE_OPEN_WRITABLE, &error);
  g_assert_no_error (error);
  candidates = procura_store_list_candidates (store, &error);
  g_assert_no_error (error);
  n = candidates->len;
  g_assert_cmpuint (n, >, 0);
  g_assert_true (procura_store_begin_batch (store, &error));
  for (guint i = n; i < N_CANDIDATES; i++)
    {
      g_autoptr (ProcuraCandidate) c = procura_candidate_copy (g_ptr_array_index (candidates, i % n));

      c->id = 0;
      g_free (c->name);
      c->name = g_strdup_printf ("Copy %u of %s", i / n, ((ProcuraCandidate *) g_ptr_array_index (candidates, i % n))->name);
      g_assert_cmpint (procura_store_add_candidate (store, c, &error), >, 0);
      g_assert_no_error (error);
    }
  g_assert_true (procura_store_end_batch (store, TRUE, &error));
  g_assert_no_error (error);
  procura_store_close (store);
  return path;
}

static void
test_forty_candidates (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = write_project (dir);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  ProcuraWindow *window = procura_window_new (app);
  ProcuraDocument *document;
  GtkWidget *page, *row = NULL, *ops;
  guint widgets, n_rows, i = 0;

  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  procura_window_open_file (window, file);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  document = procura_window_get_document (window);
  g_assert_cmpuint (procura_document_get_project (document)->candidates->len, ==, N_CANDIDATES);

  /* Shown as the analyst would, and its first frame drawn. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 1);
  page = procura_window_get_page (window, "candidates");
  procura_gui_test_wait_mapped (page);
  n_rows = count_type (page, PROCURA_TYPE_CANDIDATE_ROW);
  g_assert_cmpuint (n_rows, ==, N_CANDIDATES);
  /* Three closed sections per candidate, plus the whole project's checklist: none built. */
  g_assert_cmpuint (count_type (page, PROCURA_TYPE_CANDIDATE_SECTION), ==, 3 * N_CANDIDATES + 1);
  g_assert_cmpuint (count_filled (page), ==, 0);
  g_assert_cmpuint (count_type (page, PROCURA_TYPE_COST_ROW), ==, 0);
  g_assert_cmpuint (count_type (page, PROCURA_TYPE_CHOICE_ROW), ==, 0);
  g_assert_cmpuint (count_type (page, ADW_TYPE_ENTRY_ROW), ==, 0);
  /* A bounded number of widgets per candidate: the closed rows only. */
  widgets = count_type (page, GTK_TYPE_WIDGET);
  g_test_message ("%u widgets for %u candidates", widgets, N_CANDIDATES);
  g_assert_cmpuint (widgets, <, 150 * N_CANDIDATES);

  /* Opening one section builds its rows, and only its. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (procura_page_get_box (PROCURA_PAGE (page))));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (PROCURA_IS_CANDIDATE_ROW (child) && i++ == 20)
      row = child;
  g_assert_nonnull (row);
  ops = GTK_WIDGET (procura_candidate_row_get_section (PROCURA_CANDIDATE_ROW (row), "ops"));
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (ops), TRUE);
  procura_gui_test_settle ();
  g_assert_cmpuint (count_filled (page), ==, 1);
  g_assert_cmpuint (count_type (ops, PROCURA_TYPE_CHOICE_ROW), ==, 6);
  g_assert_cmpuint (count_type (page, PROCURA_TYPE_CHOICE_ROW), ==, 6);
  /* Each row keeps its candidate's id. */
  g_assert_cmpint (procura_choice_row_get_candidate_id (PROCURA_CHOICE_ROW (procura_gui_test_find (ops, PROCURA_TYPE_CHOICE_ROW))),
                   ==, procura_candidate_row_get_candidate_id (PROCURA_CANDIDATE_ROW (row)));

  /* The cost inputs, opened, are most of what a candidate would cost if built at once. */
  {
    GtkWidget *cost = GTK_WIDGET (procura_candidate_row_get_section (PROCURA_CANDIDATE_ROW (row), "cost"));
    guint closed = count_type (cost, GTK_TYPE_WIDGET);

    adw_expander_row_set_expanded (ADW_EXPANDER_ROW (cost), TRUE);
    procura_gui_test_settle ();
    g_test_message ("cost inputs: %u widgets closed, %u open", closed, count_type (cost, GTK_TYPE_WIDGET));
    g_assert_cmpuint (count_type (cost, PROCURA_TYPE_COST_ROW), >, 10);
    g_assert_cmpuint (count_filled (page), ==, 2);
    adw_expander_row_set_expanded (ADW_EXPANDER_ROW (cost), FALSE);
  }

  /* An edit reloads the project and rebuilds the page: the open section is open and
   * built again, the others still not. */
  {
    ProcuraCandidate *c = procura_project_find_candidate (procura_document_get_project (document),
                                                          procura_candidate_row_get_candidate_id (PROCURA_CANDIDATE_ROW (row)));
    g_autoptr (ProcuraCandidate) copy = procura_candidate_copy (c);

    copy->price_per_gpu_hour = 3.25;
    procura_document_update_candidate (document, copy);
  }
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  procura_gui_test_settle ();
  g_assert_cmpuint (count_type (page, PROCURA_TYPE_CANDIDATE_ROW), ==, N_CANDIDATES);
  g_assert_cmpuint (count_filled (page), ==, 1);
  g_assert_cmpuint (count_type (page, PROCURA_TYPE_CHOICE_ROW), ==, 6);
  g_assert_cmpuint (count_type (page, PROCURA_TYPE_COST_ROW), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
  procura_test_rmtree (dir);
}

/* Iterates the main loop until @page's idle batches are done. */
static gboolean
wait_complete (GtkWidget *page)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (!procura_page_is_complete (PROCURA_PAGE (page)) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  return procura_page_is_complete (PROCURA_PAGE (page));
}

/* The candidates' ids in the order of their rows; checks that every row comes before the
 * whole project's group. */
static GArray *
row_ids (GtkWidget *page)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  gboolean tail = FALSE;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (procura_page_get_box (PROCURA_PAGE (page))));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (PROCURA_IS_CANDIDATE_ROW (child))
      {
        gint64 id = procura_candidate_row_get_candidate_id (PROCURA_CANDIDATE_ROW (child));

        g_assert_false (tail);
        g_array_append_val (ids, id);
      }
    else if (ADW_IS_PREFERENCES_GROUP (child)
             && g_strcmp0 (adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (child)), "Whole Project") == 0)
      tail = TRUE;
  g_assert_true (tail);
  return ids;
}

/* One row per candidate of the project, in its order: none missing, none twice. */
static void
assert_one_row_each (GtkWidget       *page,
                     ProcuraDocument *document)
{
  ProcuraProject *project = procura_document_get_project (document);
  g_autoptr (GArray) ids = row_ids (page);

  g_assert_cmpuint (ids->len, ==, project->candidates->len);
  for (guint i = 0; i < ids->len; i++)
    g_assert_cmpint (g_array_index (ids, gint64, i), ==,
                     ((ProcuraCandidate *) g_ptr_array_index (project->candidates, i))->id);
}

/* The first screenful of rows with the page, the others in idle batches; a rebuild in
 * the middle of them (the page's own, or a change of the project) starts again and leaves
 * exactly one row per candidate; whoever asks for the page gets every row. */
static void
test_candidates_in_batches (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = write_project (dir);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  ProcuraWindow *window = procura_window_new (app);
  ProcuraDocument *document;
  AdwViewStack *stack;
  GtkWidget *page;
  guint n, first;
  gint64 end, deleted;

  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  procura_window_open_file (window, file);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  document = procura_window_get_document (window);
  stack = ADW_VIEW_STACK (procura_gui_test_find (GTK_WIDGET (window), ADW_TYPE_VIEW_STACK));
  page = adw_view_stack_get_child_by_name (stack, "candidates");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 1);
  procura_gui_test_wait_mapped (page);
  g_assert_true (wait_complete (page));
  assert_one_row_each (page, document);

  /* Rebuilt while shown: a screenful at once, not every candidate. */
  procura_page_queue_rebuild (PROCURA_PAGE (page));
  first = count_type (page, PROCURA_TYPE_CANDIDATE_ROW);
  g_test_message ("%u rows built with the page", first);
  g_assert_cmpuint (first, >, 0);
  g_assert_cmpuint (first, <, N_CANDIDATES / 2);
  g_assert_false (procura_page_is_complete (PROCURA_PAGE (page)));
  g_assert_true (wait_complete (page));
  assert_one_row_each (page, document);
  g_assert_cmpuint (count_type (page, PROCURA_TYPE_CANDIDATE_ROW), ==, N_CANDIDATES);

  /* Rebuilt again in the middle of the batches. */
  procura_page_queue_rebuild (PROCURA_PAGE (page));
  end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (count_type (page, PROCURA_TYPE_CANDIDATE_ROW) == first && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  n = count_type (page, PROCURA_TYPE_CANDIDATE_ROW);
  g_assert_cmpuint (n, >, first);
  g_assert_cmpuint (n, <, N_CANDIDATES);
  procura_page_queue_rebuild (PROCURA_PAGE (page));
  g_assert_cmpuint (count_type (page, PROCURA_TYPE_CANDIDATE_ROW), ==, first);
  g_assert_true (wait_complete (page));
  assert_one_row_each (page, document);

  /* Asked for in the middle of them: every row at once. */
  procura_page_queue_rebuild (PROCURA_PAGE (page));
  g_assert_false (procura_page_is_complete (PROCURA_PAGE (page)));
  g_assert_true (procura_window_get_page (window, "candidates") == page);
  g_assert_true (procura_page_is_complete (PROCURA_PAGE (page)));
  assert_one_row_each (page, document);

  /* A candidate deleted while the batches run: the reloaded project's rows, once each. */
  procura_page_queue_rebuild (PROCURA_PAGE (page));
  deleted = procura_candidate_row_get_candidate_id (PROCURA_CANDIDATE_ROW (procura_gui_test_find (page, PROCURA_TYPE_CANDIDATE_ROW)));
  procura_document_delete_candidate (document, deleted);
  end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while ((procura_project_find_candidate (procura_document_get_project (document), deleted) != NULL
          || procura_window_is_loading (window))
         && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (procura_project_find_candidate (procura_document_get_project (document), deleted));
  g_assert_true (wait_complete (page));
  assert_one_row_each (page, document);
  g_assert_cmpuint (count_type (page, PROCURA_TYPE_CANDIDATE_ROW), ==, N_CANDIDATES - 1);

  /* Closed in the middle of them: the batches stop with the page. */
  procura_page_queue_rebuild (PROCURA_PAGE (page));
  g_assert_false (procura_page_is_complete (PROCURA_PAGE (page)));
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
  procura_test_rmtree (dir);
}

static gboolean
has_run_row (GtkWidget *widget,
             gint64     run_id)
{
  if (PROCURA_IS_RUN_ROW (widget) && procura_run_row_get_run_id (PROCURA_RUN_ROW (widget)) == run_id)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_run_row (child, run_id))
      return TRUE;
  return FALSE;
}

/* The 40-candidate project of bench/gui (224 runs), made as the benchmark makes it,
 * through the CLI; NULL (and the test skipped) without python3. */
static char *
write_runs_project (const char *dir)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *script = g_build_filename (g_getenv ("PROCURA_TEST_DATA"), "..", "..", "bench", "gui",
                                              "gen-project.py", NULL);
  char *path = g_build_filename (dir, "runs.procura", NULL);
  const char *argv[] = { python, script, g_getenv ("PROCURA_BINARY"), path, "40", NULL };
  g_autoptr (GError) error = NULL;
  int status = -1;

  if (python == NULL || g_getenv ("PROCURA_BINARY") == NULL || g_getenv ("PROCURA_TEST_DATA") == NULL)
    {
      g_free (path);
      return NULL;
    }
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return path;
}

/* 224 runs in a list view: rows for some, every run reachable. */
static void
test_benchmarks_recycled (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = write_runs_project (dir);
  g_autoptr (GFile) file = NULL;
  ProcuraWindow *window;
  ProcuraProject *project;
  GtkWidget *page;
  GtkListView *list;
  GListModel *model;
  guint n_runs, n_items, n_rows;
  ProcuraRunItem *item;

  if (path == NULL)
    {
      g_test_skip ("needs python3, PROCURA_BINARY and PROCURA_TEST_DATA (run it with meson test)");
      procura_test_rmtree (dir);
      return;
    }
  file = g_file_new_for_path (path);
  window = procura_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  procura_window_open_file (window, file);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  project = procura_document_get_project (procura_window_get_document (window));
  n_runs = project->runs->len;
  g_assert_cmpuint (n_runs, >, 200);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 2);
  page = procura_window_get_page (window, "benchmarks");
  list = procura_benchmarks_page_get_list (PROCURA_BENCHMARKS_PAGE (page));
  procura_gui_test_wait_mapped (GTK_WIDGET (list));
  for (int i = 0; i < 3; i++)
    procura_gui_test_settle ();
  model = G_LIST_MODEL (gtk_list_view_get_model (list));
  n_items = g_list_model_get_n_items (model);
  /* a heading per candidate with runs, and a run item per run */
  g_assert_cmpuint (n_items, >, n_runs);
  n_rows = count_type (page, PROCURA_TYPE_RUN_ROW);
  g_test_message ("%u run rows built for %u runs", n_rows, n_runs);
  g_assert_cmpuint (n_rows, >, 0);
  g_assert_cmpuint (n_rows, <, n_runs);

  /* The last run, scrolled to, has its row, for its run. */
  gtk_widget_activate_action (GTK_WIDGET (list), "list.scroll-to-item", "u", n_items - 1);
  for (int i = 0; i < 3; i++)
    procura_gui_test_settle ();
  item = g_list_model_get_item (model, n_items - 1);
  g_assert_cmpint (procura_run_item_get_kind (item), ==, PROCURA_RUN_ITEM_RUN);
  g_assert_cmpuint (count_type (page, PROCURA_TYPE_RUN_ROW), <, n_runs);
  g_assert_true (has_run_row (page, procura_run_item_get_run_id (item)));
  g_object_unref (item);
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
  procura_test_rmtree (dir);
}

/* The run ids of @model's run items, in order; each run of @project once. */
static void
assert_each_run_once (GListModel     *model,
                      ProcuraProject *project)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  guint n_runs = 0;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (ProcuraRunItem) item = g_list_model_get_item (model, i);
      gint64 id = procura_run_item_get_run_id (item);

      if (procura_run_item_get_kind (item) != PROCURA_RUN_ITEM_RUN)
        continue;
      n_runs++;
      g_assert_false (g_hash_table_contains (seen, &id));
      g_hash_table_add (seen, g_memdup2 (&id, sizeof id));
    }
  g_assert_cmpuint (n_runs, ==, project->runs->len);
  for (guint i = 0; i < project->runs->len; i++)
    g_assert_true (g_hash_table_contains (seen, &((ProcuraRun *) g_ptr_array_index (project->runs, i))->id));
}

/* The row (the boxed list around it) of run @id, or NULL. */
static GtkWidget *
run_box (GtkWidget *widget,
         gint64     run_id)
{
  if (PROCURA_IS_RUN_ROW (widget) && procura_run_row_get_run_id (PROCURA_RUN_ROW (widget)) == run_id)
    return gtk_widget_get_ancestor (widget, GTK_TYPE_LIST_BOX);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = run_box (child, run_id);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Every run row built reads as one list with its group's other runs: square corners
 * where it meets a run above or below (the items' kinds say which). */
static void
assert_joins (GtkWidget  *page,
              GListModel *model)
{
  guint checked = 0;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (ProcuraRunItem) item = g_list_model_get_item (model, i);
      g_autoptr (ProcuraRunItem) above = i > 0 ? g_list_model_get_item (model, i - 1) : NULL;
      g_autoptr (ProcuraRunItem) below = g_list_model_get_item (model, i + 1);
      GtkWidget *box;

      if (procura_run_item_get_kind (item) != PROCURA_RUN_ITEM_RUN
          || (box = run_box (page, procura_run_item_get_run_id (item))) == NULL)
        continue;
      checked++;
      g_assert_cmpint (gtk_widget_has_css_class (box, "joined-above"), ==,
                       above != NULL && procura_run_item_get_kind (above) == PROCURA_RUN_ITEM_RUN);
      g_assert_cmpint (gtk_widget_has_css_class (box, "joined-below"), ==,
                       below != NULL && procura_run_item_get_kind (below) == PROCURA_RUN_ITEM_RUN);
    }
  g_test_message ("%u run rows checked", checked);
  g_assert_cmpuint (checked, >, 0);
}

/* The list gets a screenful of items with the page and the others in idle batches;
 * rebuilt in the middle of them, it ends with every run once; rows keep joining their
 * group's next row across a batch's end. */
static void
test_benchmarks_in_batches (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = write_runs_project (dir);
  g_autoptr (GFile) file = NULL;
  ProcuraWindow *window;
  ProcuraProject *project;
  AdwViewStack *stack;
  GtkWidget *page;
  GListModel *model;
  guint n_items, first, n;
  gint64 end;

  if (path == NULL)
    {
      g_test_skip ("needs python3, PROCURA_BINARY and PROCURA_TEST_DATA (run it with meson test)");
      procura_test_rmtree (dir);
      return;
    }
  /* The first candidate measured on 40 runs: its group is longer than the first
   * screenful and than a batch, which end in its middle. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GPtrArray) candidates = NULL;
    g_autoptr (GPtrArray) runs = NULL;
    ProcuraStore *store = procura_store_open (path, PROCURA_STORE_OPEN_WRITABLE, &error);

    g_assert_no_error (error);
    candidates = procura_store_list_candidates (store, &error);
    g_assert_no_error (error);
    runs = procura_store_list_runs (store, PROCURA_STORE_LOAD_DEFAULT, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (runs->len, >, 40);
    for (guint i = 0; i < 40; i++)
      {
        g_assert_true (procura_store_assign_run (store, ((ProcuraRun *) g_ptr_array_index (runs, i))->id,
                                                 ((ProcuraCandidate *) g_ptr_array_index (candidates, 0))->id, &error));
        g_assert_no_error (error);
      }
    procura_store_close (store);
  }
  file = g_file_new_for_path (path);
  window = procura_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  procura_window_open_file (window, file);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  project = procura_document_get_project (procura_window_get_document (window));
  stack = ADW_VIEW_STACK (procura_gui_test_find (GTK_WIDGET (window), ADW_TYPE_VIEW_STACK));
  page = adw_view_stack_get_child_by_name (stack, "benchmarks");
  model = G_LIST_MODEL (gtk_list_view_get_model (procura_benchmarks_page_get_list (PROCURA_BENCHMARKS_PAGE (page))));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 2);
  procura_gui_test_wait_mapped (page);
  g_assert_true (wait_complete (page));
  n_items = g_list_model_get_n_items (model);
  g_assert_cmpuint (n_items, >, project->runs->len);
  assert_each_run_once (model, project);

  /* Rebuilt while shown: a screenful of items at once, then all of them. */
  procura_page_queue_rebuild (PROCURA_PAGE (page));
  first = g_list_model_get_n_items (model);
  g_test_message ("%u of %u items with the page", first, n_items);
  g_assert_cmpuint (first, >, 0);
  g_assert_cmpuint (first, <, n_items / 4);
  g_assert_false (procura_page_is_complete (PROCURA_PAGE (page)));
  /* The last of them, a run whose group goes on, is bound again joined to the next. */
  {
    g_autoptr (ProcuraRunItem) last = g_list_model_get_item (model, first - 1);
    g_autoptr (ProcuraRunItem) next = NULL;

    g_assert_cmpint (procura_run_item_get_kind (last), ==, PROCURA_RUN_ITEM_RUN);
    g_assert_false (gtk_widget_has_css_class (run_box (page, procura_run_item_get_run_id (last)), "joined-below"));
    g_assert_true (wait_complete (page));
    next = g_list_model_get_item (model, first);
    g_assert_cmpint (procura_run_item_get_kind (next), ==, PROCURA_RUN_ITEM_RUN);
    g_assert_true (gtk_widget_has_css_class (run_box (page, procura_run_item_get_run_id (last)), "joined-below"));
  }
  assert_joins (page, model);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n_items);
  assert_each_run_once (model, project);

  /* Rebuilt in the middle of the batches: every run once. */
  procura_page_queue_rebuild (PROCURA_PAGE (page));
  end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (g_list_model_get_n_items (model) == first && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  n = g_list_model_get_n_items (model);
  g_assert_cmpuint (n, >, first);
  g_assert_cmpuint (n, <, n_items);
  procura_page_queue_rebuild (PROCURA_PAGE (page));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, first);
  g_assert_true (wait_complete (page));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n_items);
  assert_each_run_once (model, project);
  assert_joins (page, model);

  /* Asked for in the middle of them: the whole list at once. */
  procura_page_queue_rebuild (PROCURA_PAGE (page));
  g_assert_true (procura_window_get_page (window, "benchmarks") == page);
  g_assert_true (procura_page_is_complete (PROCURA_PAGE (page)));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n_items);

  /* Closed in the middle of them: the batches stop with the page. */
  procura_page_queue_rebuild (PROCURA_PAGE (page));
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

  g_test_add_func ("/candidates/forty-built-on-expand", test_forty_candidates);
  g_test_add_func ("/candidates/idle-batches", test_candidates_in_batches);
  g_test_add_func ("/benchmarks/recycled", test_benchmarks_recycled);
  g_test_add_func ("/benchmarks/idle-batches", test_benchmarks_in_batches);
  return procura_gui_test_run ();
}
