/* test-store-crash.c: a writer killed at random moments never corrupts the project
 * and never leaves half an import or half an edit behind
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * 100 times: fork a child that imports and edits in a loop, SIGKILL it after a random
 * (seeded) delay, then open the project (which runs the integrity check) and check
 * that every import is whole: each import stores RUNS_PER_IMPORT runs, each with its
 * stats and two sample BLOBs of SAMPLES values, under one provenance row; each
 * deletion of a candidate took its run with it under one undo token.
 */
#include "config.h"

#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "procura-store.h"
#include "procura-test-util.h"
#include "procura-util.h"

#define ITERATIONS      100
#define RUNS_PER_IMPORT 4
#define SAMPLES         300
#define MAX_DELAY_US    15000

static ProcuraImportResult *
make_import (guint64 batch)
{
  ProcuraImportResult *res = procura_import_result_new ();

  res->provenance = procura_provenance_new ();
  res->provenance->file_name = g_strdup_printf ("batch-%" G_GUINT64_FORMAT ".json", batch);
  res->provenance->importer = g_strdup ("crash-test");
  for (int i = 0; i < RUNS_PER_IMPORT; i++)
    {
      ProcuraRun *r = procura_run_new ();
      double *a = g_new (double, SAMPLES);
      double *b = g_new (double, SAMPLES);

      for (int k = 0; k < SAMPLES; k++)
        {
          a[k] = (double) batch + k;
          b[k] = (double) batch * 2 + k;
        }
      r->label = g_strdup_printf ("batch %" G_GUINT64_FORMAT " run %d", batch, i);
      r->completed = SAMPLES;
      procura_run_add_stat (r, "ttft", "p99", (double) batch, PROCURA_SOURCE_AS_REPORTED, -1);
      procura_run_add_stat (r, "ttft", "mean", (double) batch, PROCURA_SOURCE_RECOMPUTED, SAMPLES);
      procura_run_take_samples (r, "ttft", a, SAMPLES);
      procura_run_take_samples (r, "e2e", b, SAMPLES);
      g_ptr_array_add (res->runs, r);
    }
  return res;
}

/* The child: imports and edits until killed. Never returns. */
static void G_GNUC_NORETURN
writer (const char *path,
        guint64     seed,
        int         ready_fd)
{
  g_autoptr (GError) error = NULL;
  ProcuraStore *store = procura_store_open (path, PROCURA_STORE_OPEN_WRITABLE, &error);
  guint64 batch = seed * 1000;

  if (store == NULL)
    {
      g_printerr ("writer: %s\n", error->message);
      _exit (3);
    }
  /* tell the parent that the writing starts now */
  if (write (ready_fd, "r", 1) != 1)
    _exit (9);
  for (;;)
    {
      g_autoptr (ProcuraImportResult) res = make_import (++batch);
      g_autoptr (ProcuraCandidate) c = procura_candidate_new ();
      g_autofree char *title = g_strdup_printf ("title %" G_GUINT64_FORMAT, batch);
      gint64 id, token;

      if (!procura_store_import (store, res, 0, &error))
        _exit (4);
      /* one byte per committed import: the parent may wait for some */
      if (write (ready_fd, "i", 1) != 1)
        _exit (9);
      if (!procura_store_set_title (store, title, &error))
        _exit (5);
      c->name = g_strdup_printf ("cand %" G_GUINT64_FORMAT, batch);
      if ((id = procura_store_add_candidate (store, c, &error)) <= 0)
        _exit (6);
      /* move one of the new runs to the candidate, delete the candidate (its runs go
       * with it), undo, delete again for good every other time */
      if (!procura_store_assign_run (store, ((ProcuraRun *) g_ptr_array_index (res->runs, 0))->id, id, &error)
          || !procura_store_delete_candidate (store, id, &token, &error))
        _exit (7);
      if ((batch & 1) && !procura_store_undo (store, token, &error))
        _exit (8);
    }
}

static gint64
count (sqlite3    *db,
       const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  gint64 n = -1;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return n;
}

static void
check_project (const char *path,
               int         iteration,
               gint64     *imports)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) p = NULL;
  sqlite3 *db = NULL;
  char *integrity = NULL;

  /* our own open: header, schema and integrity checks, then WAL recovery */
  store = procura_store_open (path, PROCURA_STORE_OPEN_WRITABLE, &error);
  if (store == NULL)
    g_error ("iteration %d: the project does not open: %s", iteration, error->message);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, &error);
  g_assert_no_error (error);

  /* and a plain SQLite integrity check of everything, deleted rows included */
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  {
    sqlite3_stmt *stmt = NULL;
    g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA integrity_check", -1, &stmt, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    integrity = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
    sqlite3_finalize (stmt);
  }
  if (!g_str_equal (integrity, "ok"))
    g_error ("iteration %d: integrity_check: %s", iteration, integrity);
  g_free (integrity);
  g_assert_cmpint (count (db, "PRAGMA foreign_key_check"), ==, -1);

  /* all or nothing: every provenance row has exactly its runs, every run its stats
   * and samples */
  *imports = count (db, "SELECT count(*) FROM provenance");
  g_assert_cmpint (count (db, "SELECT count(*) FROM runs"), ==, *imports * RUNS_PER_IMPORT);
  g_assert_cmpint (count (db, "SELECT count(*) FROM provenance p WHERE "
                              "(SELECT count(*) FROM runs r WHERE r.provenance_id = p.id) != 4"), ==, 0);
  g_assert_cmpint (count (db, "SELECT count(*) FROM run_stats"), ==, *imports * RUNS_PER_IMPORT * 2);
  g_assert_cmpint (count (db, "SELECT count(*) FROM run_samples WHERE n = 300 AND length(data) = 2400"),
                   ==, *imports * RUNS_PER_IMPORT * 2);
  g_assert_cmpint (count (db, "SELECT count(*) FROM run_samples"), ==, *imports * RUNS_PER_IMPORT * 2);
  /* a deleted candidate took its assigned run with it, under the same undo token */
  g_assert_cmpint (count (db, "SELECT count(*) FROM candidates c WHERE c.deleted_by IS NOT NULL AND "
                              "(SELECT count(*) FROM runs r WHERE r.candidate_id = c.id "
                              "AND r.deleted_by = c.deleted_by) != 1"), ==, 0);
  g_assert_cmpint (count (db, "SELECT count(*) FROM candidates c WHERE c.deleted_by IS NOT NULL AND "
                              "c.deleted_by NOT IN (SELECT id FROM undo_log)"), ==, 0);
  sqlite3_close (db);

  /* what the store loads agrees */
  {
    gint64 live = 0;
    for (guint i = 0; i < p->runs->len; i++)
      {
        ProcuraRun *r = g_ptr_array_index (p->runs, i);
        const ProcuraSamples *s = procura_run_get_samples (r, "ttft");
        const ProcuraStat *st = procura_run_get_stat (r, "ttft", "p99");

        g_assert_nonnull (s);
        g_assert_cmpuint (s->n, ==, SAMPLES);
        g_assert_nonnull (st);
        /* the samples belong to the batch named by the stat */
        g_assert_cmpfloat (s->values[0], ==, st->value);
        live++;
      }
    g_assert_cmpint (live, <=, *imports * RUNS_PER_IMPORT);
  }
  g_assert_true (g_str_has_prefix (p->title, "title ") || g_str_equal (p->title, "Crash test"));
}

static void
test_crash (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = g_build_filename (dir, "crash.procura", NULL);
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261130);
  ProcuraStore *store;
  gint64 previous = 0, imports = 0;
  int grew = 0, waited = 0;

  store = procura_store_create (path, "Crash test", &error);
  g_assert_no_error (error);
  procura_store_close (store);

  for (int i = 0; i < ITERATIONS; i++)
    {
      guint delay = (guint) g_rand_int_range (rand, 0, MAX_DELAY_US);
      int status = 0;
      int fds[2];
      int wait;
      char byte;
      pid_t pid;

      g_assert_cmpint (pipe (fds), ==, 0);
      pid = fork ();
      g_assert_cmpint (pid, >=, 0);
      if (pid == 0)
        {
          close (fds[0]);
          writer (path, (guint64) i + 1, fds[1]);
        }
      close (fds[1]);
      /* kill at a random moment after the writer has opened the project and
       * committed @wait imports (0, 1 or 2), so that the kills land at every stage
       * whatever the speed of the machine */
      wait = g_rand_int_range (rand, 0, 3);
      if (read (fds[0], &byte, 1) != 1)
        g_error ("iteration %d: the writer could not open the project", i);
      for (int k = 0; k < wait; k++)
        if (read (fds[0], &byte, 1) != 1)
          g_error ("iteration %d: the writer stopped", i);
      g_usleep (delay);
      kill (pid, SIGKILL);
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      close (fds[0]);
      if (!WIFSIGNALED (status))
        g_error ("iteration %d: the writer exited by itself (status %d)", i,
                 WIFEXITED (status) ? WEXITSTATUS (status) : -1);

      check_project (path, i, &imports);
      /* every import the writer reported as committed is there */
      g_assert_cmpint (imports, >=, previous + wait);
      if (imports > previous)
        grew++;
      waited += wait > 0;
      previous = imports;
    }
  g_test_message ("%d kills, %" G_GINT64_FORMAT " whole imports survived; the file grew in %d "
                  "iterations (%d waited for a committed import)", ITERATIONS, imports, grew, waited);
  /* the kills did land during the writing, not only before it */
  g_assert_cmpint (grew, >=, waited);
  g_assert_cmpint (waited, >, ITERATIONS / 4);

  procura_test_rmtree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/store/crash/sigkill-writer", test_crash);
  return g_test_run ();
}
