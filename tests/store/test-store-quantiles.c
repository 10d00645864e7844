/* test-store-quantiles.c: a run's sorted quantile summary is kept beside its samples
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Stored at import; read back without the samples; computed from the samples for a
 * project that lacks it (kept when the project is writable, in memory only when it is
 * read-only); a damaged one refused, naming the table.
 */
#include "config.h"

#include <math.h>
#include <sqlite3.h>
#include <glib/gstdio.h>

#include "procura-import.h"
#include "procura-quantiles.h"
#include "procura-stats.h"
#include "procura-store.h"
#include "procura-util.h"

#define N_SAMPLES 150000

typedef struct {
  char *dir;
  char *path;
  double *sorted;   /* the finite ttft samples, ascending */
  gsize n_sorted;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraImportResult) res = procura_import_result_new ();
  g_autoptr (GRand) r = g_rand_new_with_seed (5);
  ProcuraRun *run = procura_run_new ();
  double *ttft = g_new (double, N_SAMPLES);
  double *e2e = g_new (double, 10);

  f->dir = g_dir_make_tmp ("procura-test-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "q.procura", NULL);
  for (gsize i = 0; i < N_SAMPLES; i++)
    ttft[i] = i % 1000 == 0 ? NAN : exp (g_rand_double_range (r, 2, 9));
  for (gsize i = 0; i < 10; i++)
    e2e[i] = 1000 - (double) i;
  f->sorted = g_new (double, N_SAMPLES);
  for (gsize i = 0; i < N_SAMPLES; i++)
    if (isfinite (ttft[i]))
      f->sorted[f->n_sorted++] = ttft[i];
  procura_stats_sort (f->sorted, f->n_sorted);

  run->label = g_strdup ("rate 4");
  run->format = g_strdup ("test-format");
  run->completed = N_SAMPLES;
  run->failed = 0;
  run->request_throughput = 4;
  procura_run_take_samples (run, "ttft", ttft, N_SAMPLES);
  procura_run_take_samples (run, "e2e", e2e, 10);
  res->format = g_strdup ("test-format");
  res->provenance = procura_provenance_new ();
  res->provenance->file_name = g_strdup ("q.json");
  res->provenance->importer = g_strdup ("test-format");
  res->provenance->imported_at = g_strdup ("2026-12-02T06:00:00Z");
  g_ptr_array_add (res->runs, run);

  store = procura_store_create (f->path, "Quantiles", &error);
  g_assert_no_error (error);
  g_assert_true (procura_store_import (store, res, 0, &error));
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *wal = g_strconcat (f->path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (f->path, "-shm", NULL);

  g_unlink (f->path);
  g_unlink (wal);
  g_unlink (shm);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
  g_free (f->sorted);
}

static gint64
sql_count (Fixture    *f,
           const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 v;

  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  v = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return v;
}

static char *
sql_text (Fixture    *f,
          const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  char *v;

  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  v = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return v;
}

static void
sql_exec (Fixture    *f,
          const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

/* Loads the project without samples and the ttft summary of its run. */
static ProcuraProject *
load (Fixture            *f,
      ProcuraStoreFlags   flags,
      GError            **error)
{
  g_autoptr (ProcuraStore) store = procura_store_open (f->path, flags, error);
  g_autoptr (ProcuraProject) p = NULL;

  if (store == NULL)
    return NULL;
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, error);
  if (p == NULL || !procura_store_load_quantiles (store, p->runs, "ttft", error))
    return NULL;
  return g_steal_pointer (&p);
}

static void
check_summary (Fixture              *f,
               const ProcuraProject *p)
{
  const ProcuraRun *run;
  const ProcuraQuantiles *q;

  g_assert_cmpuint (p->runs->len, ==, 1);
  run = g_ptr_array_index (p->runs, 0);
  g_assert_cmpuint (run->samples->len, ==, 0);   /* the summary came without them */
  q = procura_run_get_quantiles (run, "ttft");
  g_assert_nonnull (q);
  g_assert_null (procura_run_get_quantiles (run, "e2e"));   /* only the metric asked */
  g_assert_cmpuint (q->n, ==, f->n_sorted);
  g_assert_cmpuint (q->k, >=, PROCURA_QUANTILES_GRID);
  g_assert_true (procura_quantiles_valid (q));
  for (gsize j = 0; j < q->k; j++)
    g_assert_cmpfloat (q->values[j], ==, f->sorted[q->ranks[j]]);
  g_assert_cmpfloat (procura_quantiles_cdf_bound (q, FALSE), <, 2.0 / f->n_sorted + 1e-15);
}

static void
test_kept_at_import (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraProject) p = NULL;

  /* one summary per metric with samples */
  g_assert_cmpint (sql_count (f, "SELECT count(*) FROM run_quantiles"), ==, 2);
  g_assert_cmpint (sql_count (f, "SELECT k FROM run_quantiles WHERE metric = 'e2e'"), ==, 10);
  p = load (f, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  check_summary (f, p);
}

static void
test_older_project (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraProject) p = NULL;
  g_autoptr (ProcuraProject) again = NULL;

  sql_exec (f, "DELETE FROM run_quantiles");
  /* read-only: computed from the samples, in memory only */
  p = load (f, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  check_summary (f, p);
  g_assert_cmpint (sql_count (f, "SELECT count(*) FROM run_quantiles"), ==, 0);
  /* writable: computed and kept, `modified` untouched */
  {
    g_autofree char *before = NULL;
    g_autofree char *after = NULL;

    sql_exec (f, "UPDATE project SET modified = '2026-01-01T00:00:00Z'");
    before = sql_text (f, "SELECT modified FROM project");

    again = load (f, PROCURA_STORE_OPEN_DEFAULT, &error);
    g_assert_no_error (error);
    check_summary (f, again);
    g_assert_cmpint (sql_count (f, "SELECT count(*) FROM run_quantiles WHERE metric = 'ttft'"), ==, 1);
    after = sql_text (f, "SELECT modified FROM project");
    g_assert_cmpstr (after, ==, before);
  }
}

static void
test_damaged (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraProject) p = NULL;

  /* ranks out of order: the first and the second value swapped */
  sql_exec (f, "UPDATE run_quantiles SET data = substr (data, 9, 8) || substr (data, 1, 8)"
               " || substr (data, 17) WHERE metric = 'ttft'");
  p = load (f, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_null (p);
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED);
  g_assert_nonnull (strstr (error->message, "run_quantiles"));
  g_assert_nonnull (strstr (error->message, "ttft"));
  g_clear_error (&error);

  /* a BLOB of the wrong length */
  sql_exec (f, "UPDATE run_quantiles SET data = x'0011' WHERE metric = 'ttft'");
  p = load (f, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_null (p);
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED);
}

static void
test_cascade (Fixture       *f,
              gconstpointer  data)
{
  sql_exec (f, "PRAGMA foreign_keys = ON; DELETE FROM runs");
  g_assert_cmpint (sql_count (f, "SELECT count(*) FROM run_quantiles"), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/store-quantiles/kept-at-import", Fixture, NULL, fixture_setup, test_kept_at_import, fixture_teardown);
  g_test_add ("/store-quantiles/older-project", Fixture, NULL, fixture_setup, test_older_project, fixture_teardown);
  g_test_add ("/store-quantiles/damaged", Fixture, NULL, fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/store-quantiles/cascade", Fixture, NULL, fixture_setup, test_cascade, fixture_teardown);
  return g_test_run ();
}
