/* test-store-edits.c: checklist items with their evidence file, operations test
 * measurements, and the list of pending deletions (what the app offers to restore)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <sqlite3.h>
#include <string.h>

#include "procura-store.h"
#include "procura-store-schema.h"
#include "procura-test-util.h"

typedef struct {
  char *dir;
  char *path;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = procura_test_mkdtemp ();
  f->path = g_build_filename (f->dir, "edits.procura", NULL);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  procura_test_rmtree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static gint64
add_candidate (ProcuraStore *store,
               const char   *name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraCandidate) c = procura_candidate_new ();
  gint64 id;

  c->name = g_strdup (name);
  c->kind = PROCURA_CANDIDATE_GPU;
  id = procura_store_add_candidate (store, c, &error);
  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);
  return id;
}

static ProcuraChecklistItem *
find_item (ProcuraProject *p,
           gint64          id)
{
  for (guint i = 0; i < p->checklist->len; i++)
    if (((ProcuraChecklistItem *) g_ptr_array_index (p->checklist, i))->id == id)
      return g_ptr_array_index (p->checklist, i);
  return NULL;
}

/* Added, renamed (the question), its evidence and file changed and cleared, removed. */
static void
test_checklist_evidence (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = procura_store_create (f->path, "edits", &error);
  ProcuraChecklistItem *it = procura_checklist_item_new ();
  ProcuraProject *p;
  ProcuraChecklistItem *li;
  gint64 cid, id;

  g_assert_no_error (error);
  cid = add_candidate (store, "C");
  it->candidate_id = cid;
  it->section = g_strdup ("commercial");
  it->item = g_strdup ("Capacity reserved?");
  it->answer = g_strdup ("partial");
  it->evidence = g_strdup ("email of 2026-11-20");
  it->evidence_file = g_strdup ("/srv/evidence/reservation.eml");
  id = procura_store_add_checklist_item (store, it, &error);
  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);

  p = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  li = find_item (p, id);
  g_assert_nonnull (li);
  g_assert_cmpstr (li->item, ==, "Capacity reserved?");
  g_assert_cmpstr (li->evidence, ==, "email of 2026-11-20");
  g_assert_cmpstr (li->evidence_file, ==, "/srv/evidence/reservation.eml");
  g_assert_cmpint (li->candidate_id, ==, cid);
  procura_project_free (p);

  /* renamed, the file becomes a URI */
  it->id = id;
  g_free (it->item);
  it->item = g_strdup ("Capacity reserved for 12 months?");
  g_free (it->evidence_file);
  it->evidence_file = g_strdup ("https://example.com/contract.pdf#page=4");
  g_assert_true (procura_store_update_checklist_item (store, it, &error));
  g_assert_no_error (error);
  p = procura_store_load_project (store, 0, &error);
  li = find_item (p, id);
  g_assert_cmpstr (li->item, ==, "Capacity reserved for 12 months?");
  g_assert_cmpstr (li->evidence_file, ==, "https://example.com/contract.pdf#page=4");
  g_assert_cmpuint (p->checklist->len, ==, 1);
  procura_project_free (p);

  /* an empty question is refused and changes nothing */
  g_free (it->item);
  it->item = g_strdup ("");
  g_assert_false (procura_store_update_checklist_item (store, it, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_clear_error (&error);
  p = procura_store_load_project (store, 0, &error);
  g_assert_cmpstr (find_item (p, id)->item, ==, "Capacity reserved for 12 months?");
  procura_project_free (p);

  /* evidence and file cleared */
  g_free (it->item);
  it->item = g_strdup ("Capacity reserved for 12 months?");
  g_clear_pointer (&it->evidence, g_free);
  g_clear_pointer (&it->evidence_file, g_free);
  g_assert_true (procura_store_update_checklist_item (store, it, &error));
  p = procura_store_load_project (store, 0, &error);
  g_assert_null (find_item (p, id)->evidence);
  g_assert_null (find_item (p, id)->evidence_file);
  procura_project_free (p);

  g_assert_true (procura_store_delete_checklist_item (store, id, &error));
  g_assert_no_error (error);
  p = procura_store_load_project (store, 0, &error);
  g_assert_cmpuint (p->checklist->len, ==, 0);
  procura_project_free (p);
  procura_checklist_item_free (it);
}

/* A version 3 file (no evidence_file) migrates to 4 and keeps its answers. */
static void
test_migration_v4 (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) p = NULL;
  g_autofree char *sql = NULL;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  sql = g_strdup_printf ("PRAGMA application_id = %d; %s", PROCURA_STORE_APPLICATION_ID,
                         procura_store_schema_v1_sql ());
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  for (int v = 2; v <= 3; v++)
    g_assert_cmpint (sqlite3_exec (db, procura_store_migration_sql (v), NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db,
                                 "PRAGMA user_version = 3;"
                                 "INSERT INTO project VALUES (1, 'old', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 0);"
                                 "INSERT INTO brief (id) VALUES (1); INSERT INTO assumptions (id) VALUES (1);"
                                 "INSERT INTO decision (id) VALUES (1);"
                                 "INSERT INTO checklist (section, item, answer, evidence)"
                                 " VALUES ('security', 'SOC 2?', 'yes', 'report 2026');",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  store = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpint (procura_store_get_file_schema_version (store), ==, 3);
  p = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->checklist->len, ==, 1);
  g_assert_cmpstr (((ProcuraChecklistItem *) g_ptr_array_index (p->checklist, 0))->evidence, ==, "report 2026");
  g_assert_null (((ProcuraChecklistItem *) g_ptr_array_index (p->checklist, 0))->evidence_file);
  g_assert_cmpint (PROCURA_STORE_SCHEMA_VERSION, >=, 4);
}

/* A version 4 file's model shape migrates to 5 (the vision, window and rotary-table
 * columns) and reads as text only: no tower, window and tables unknown. */
static void
test_migration_v5 (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) p = NULL;
  g_autofree char *sql = NULL;
  const ProcuraModelShape *m;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  sql = g_strdup_printf ("PRAGMA application_id = %d; %s", PROCURA_STORE_APPLICATION_ID,
                         procura_store_schema_v1_sql ());
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  for (int v = 2; v <= 4; v++)
    g_assert_cmpint (sqlite3_exec (db, procura_store_migration_sql (v), NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db,
                                 "PRAGMA user_version = 4;"
                                 "INSERT INTO project VALUES (1, 'old', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 0);"
                                 "INSERT INTO brief (id) VALUES (1); INSERT INTO assumptions (id) VALUES (1);"
                                 "INSERT INTO decision (id) VALUES (1);"
                                 "INSERT INTO model_shapes (model_id, architecture, num_layers, hidden_size,"
                                 " num_attention_heads, vocab_size)"
                                 " VALUES ('google/gemma-3-27b-it', 'Gemma3ForConditionalGeneration', 62, 5376,"
                                 " 32, 262208);",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  store = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpint (procura_store_get_file_schema_version (store), ==, 4);
  p = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->model_shapes->len, ==, 1);
  m = g_ptr_array_index (p->model_shapes, 0);
  g_assert_cmpint (m->num_layers, ==, 62);
  g_assert_cmpfloat (m->vision_params, ==, 0.0);
  g_assert_cmpfloat (m->vision_params_split, ==, 0.0);
  g_assert_cmpint (m->vision_tokens_per_item, ==, 0);
  g_assert_cmpint (m->vision_config_layers, ==, 0);
  g_assert_cmpint (m->max_position_embeddings, ==, 0);
  g_assert_cmpfloat (m->rope_cache_elements, ==, 0.0);
  g_assert_cmpint (PROCURA_STORE_SCHEMA_VERSION, >=, 5);
}

/* Measured values: stored and reloaded; negative or infinite ones refused, by column,
 * changing nothing; NAN is "not measured". */
static void
test_ops_values (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = procura_store_create (f->path, "edits", &error);
  ProcuraOpsTest *t = procura_ops_test_new ();
  ProcuraProject *p;
  ProcuraOpsTest *lt;
  gint64 id;

  t->candidate_id = add_candidate (store, "C");
  t->kind = g_strdup ("kill-worker");
  t->result = g_strdup ("fail");
  t->failed_requests = 140;
  t->recovery_s = 180.5;
  t->per_month = 0.5;
  t->notes = g_strdup ("stage restart took the replica down");
  id = procura_store_add_ops_test (store, t, &error);
  g_assert_no_error (error);
  t->id = id;

  t->failed_requests = -1;
  g_assert_false (procura_store_update_ops_test (store, t, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "failed_requests"));
  g_clear_error (&error);
  t->failed_requests = 140;
  t->recovery_s = INFINITY;
  g_assert_false (procura_store_update_ops_test (store, t, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "recovery_s"));
  g_clear_error (&error);
  t->recovery_s = 180.5;
  t->per_month = -0.5;
  g_assert_cmpint (procura_store_add_ops_test (store, t, &error), ==, 0);
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "per_month"));
  g_clear_error (&error);

  p = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->ops_tests->len, ==, 1);
  lt = g_ptr_array_index (p->ops_tests, 0);
  g_assert_cmpfloat (lt->failed_requests, ==, 140);
  g_assert_cmpfloat (lt->recovery_s, ==, 180.5);
  g_assert_cmpfloat (lt->per_month, ==, 0.5);
  g_assert_cmpstr (lt->notes, ==, "stage restart took the replica down");
  procura_project_free (p);

  /* cleared to "not measured" */
  t->per_month = NAN;
  t->failed_requests = NAN;
  g_assert_true (procura_store_update_ops_test (store, t, &error));
  g_assert_no_error (error);
  p = procura_store_load_project (store, 0, &error);
  lt = g_ptr_array_index (p->ops_tests, 0);
  g_assert_true (isnan (lt->per_month));
  g_assert_true (isnan (lt->failed_requests));
  g_assert_cmpfloat (lt->recovery_s, ==, 180.5);
  procura_project_free (p);
  procura_ops_test_free (t);
}

/* The pending deletions, with names, as another process left them. */
static void
test_list_undo_entries (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  ProcuraStore *store = procura_store_create (f->path, "edits", &error);
  g_autoptr (GPtrArray) entries = NULL;
  ProcuraUndoEntry *e;
  gint64 a, b, token_a = 0, token_b = 0;

  g_assert_no_error (error);
  a = add_candidate (store, "Alpha · 4× H100");
  b = add_candidate (store, "Beta");
  entries = procura_store_list_undo_entries (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 0);
  g_clear_pointer (&entries, g_ptr_array_unref);

  g_assert_true (procura_store_delete_candidate (store, a, &token_a, &error));
  g_assert_true (procura_store_delete_candidate (store, b, &token_b, &error));
  g_assert_no_error (error);
  procura_store_close (store);

  /* another store (the app) opening the file sees both */
  store = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  entries = procura_store_list_undo_entries (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 2);
  e = g_ptr_array_index (entries, 0);
  g_assert_cmpint (e->token, ==, token_a);
  g_assert_cmpstr (e->kind, ==, "candidate");
  g_assert_cmpint (e->target_id, ==, a);
  g_assert_cmpstr (e->name, ==, "Alpha · 4× H100");
  g_assert_nonnull (e->created);
  g_assert_cmpuint (e->n_runs, ==, 0);
  e = g_ptr_array_index (entries, 1);
  g_assert_cmpstr (e->name, ==, "Beta");
  g_clear_pointer (&entries, g_ptr_array_unref);

  /* restored: gone from the list, back in the project */
  g_assert_true (procura_store_undo (store, token_a, &error));
  g_assert_no_error (error);
  entries = procura_store_list_undo_entries (store, &error);
  g_assert_cmpuint (entries->len, ==, 1);
  g_assert_cmpint (((ProcuraUndoEntry *) g_ptr_array_index (entries, 0))->token, ==, token_b);
  g_clear_pointer (&entries, g_ptr_array_unref);
  g_assert_cmpint (procura_store_find_candidate_by_name (store, "Alpha · 4× H100"), ==, a);

  /* purged: nothing left to offer */
  g_assert_true (procura_store_purge_deleted (store, &error));
  entries = procura_store_list_undo_entries (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 0);
  procura_store_close (store);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
#define ADD(name, fn) g_test_add (name, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/store/checklist-evidence", test_checklist_evidence);
  ADD ("/store/migration-v4", test_migration_v4);
  ADD ("/store/migration-v5", test_migration_v5);
  ADD ("/store/ops-values", test_ops_values);
  ADD ("/store/list-undo-entries", test_list_undo_entries);
#undef ADD
  return g_test_run ();
}
