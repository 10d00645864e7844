/* test-store-batch.c: several writes as one transaction, and replacing a project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "procura-store.h"
#include "procura-test-util.h"

static ProcuraStore *
new_store (const char *dir,
           const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  ProcuraStore *store = procura_store_create (path, "batch", &error);

  g_assert_no_error (error);
  return store;
}

static ProcuraProject *
reload (ProcuraStore *store)
{
  g_autoptr (GError) error = NULL;
  ProcuraProject *p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);

  g_assert_no_error (error);
  return p;
}

static void
test_batch (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autoptr (ProcuraStore) store = new_store (dir, "b.procura");
  g_autoptr (ProcuraCandidate) c = procura_candidate_new ();
  g_autoptr (ProcuraBrief) brief = procura_brief_new ();
  g_autoptr (ProcuraProject) p = NULL;
  g_autoptr (GError) error = NULL;

  c->name = g_strdup ("A");
  g_assert_cmpint (procura_store_add_candidate (store, c, &error), >, 0);

  /* a refused write inside a batch undoes itself; end_batch (FALSE) undoes the rest */
  g_assert_true (procura_store_begin_batch (store, &error));
  brief->slo_threshold_ms = 500;
  g_assert_true (procura_store_save_brief (store, brief, &error));
  g_assert_true (procura_store_set_title (store, "renamed", &error));
  g_assert_cmpint (procura_store_add_candidate (store, c, &error), ==, 0);   /* duplicate name */
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (procura_store_end_batch (store, FALSE, &error));
  g_assert_no_error (error);
  p = reload (store);
  g_assert_true (isnan (p->brief->slo_threshold_ms));
  g_assert_cmpstr (p->title, ==, "batch");
  g_assert_cmpuint (p->candidates->len, ==, 1);

  /* end_batch (TRUE) keeps every write */
  g_assert_true (procura_store_begin_batch (store, &error));
  g_assert_true (procura_store_save_brief (store, brief, &error));
  g_assert_true (procura_store_set_title (store, "renamed", &error));
  g_assert_true (procura_store_end_batch (store, TRUE, &error));
  g_clear_pointer (&p, procura_project_free);
  p = reload (store);
  g_assert_cmpfloat (p->brief->slo_threshold_ms, ==, 500);
  g_assert_cmpstr (p->title, ==, "renamed");

  procura_store_close (g_steal_pointer (&store));
  procura_test_rmtree (dir);
}

static void
test_replace (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autoptr (ProcuraStore) store = new_store (dir, "r.procura");
  g_autoptr (ProcuraProject) with = procura_project_new ();
  g_autoptr (ProcuraProject) p = NULL;
  g_autoptr (GError) error = NULL;
  ProcuraCandidate *c;
  gint64 token = 0;

  for (int i = 0; i < 2; i++)
    {
      g_autoptr (ProcuraCandidate) old = procura_candidate_new ();
      gint64 id;

      old->name = g_strdup_printf ("old %d", i);
      id = procura_store_add_candidate (store, old, &error);
      g_assert_cmpint (id, >, 0);
      if (i == 1)
        g_assert_true (procura_store_delete_candidate (store, id, &token, &error));
    }

  with->title = g_strdup ("replaced");
  c = procura_candidate_new ();
  c->id = 7;
  c->name = g_strdup ("new");
  g_ptr_array_add (with->candidates, c);
  with->decision.candidate_id = 8;   /* names no candidate: refused, nothing changed */
  g_assert_false (procura_store_replace_project (store, with, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  p = reload (store);
  g_assert_cmpuint (p->candidates->len, ==, 1);
  g_assert_cmpstr (((ProcuraCandidate *) g_ptr_array_index (p->candidates, 0))->name, ==, "old 0");

  with->decision.candidate_id = 7;
  g_assert_true (procura_store_replace_project (store, with, &error));
  g_assert_no_error (error);
  g_clear_pointer (&p, procura_project_free);
  p = reload (store);
  g_assert_cmpstr (p->title, ==, "replaced");
  g_assert_cmpuint (p->candidates->len, ==, 1);
  g_assert_cmpstr (((ProcuraCandidate *) g_ptr_array_index (p->candidates, 0))->name, ==, "new");
  g_assert_cmpint (p->decision.candidate_id, ==, ((ProcuraCandidate *) g_ptr_array_index (p->candidates, 0))->id);
  /* the undo log went with the old contents */
  g_assert_false (procura_store_undo (store, token, &error));
  g_assert_nonnull (error);

  procura_store_close (g_steal_pointer (&store));
  procura_test_rmtree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/store/batch", test_batch);
  g_test_add_func ("/store/replace", test_replace);
  return g_test_run ();
}
