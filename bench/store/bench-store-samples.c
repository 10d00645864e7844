/* bench-store-samples.c: writing per-request samples into a project file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writes 100,000 requests x 250 samples (e.g. inter-token latencies) = 25 million
 * float64 values into a fresh project with procura_store_import() (one transaction,
 * one BLOB per run and metric), and the same values with the layouts an analyst
 * might pick instead, in the same kind of file (WAL, synchronous=FULL, one
 * transaction): a BLOB per request, and a row per sample. Prints each time and the
 * ratios. Goal (issue 3): the project write takes <= 2 s.
 *
 *   bench-store-samples [--requests N] [--samples K] [--runs R] [--rows-fraction F]
 *                       [--dir DIR]
 *
 * --rows-fraction F < 1 times the row-per-sample layout on that fraction of the data
 * and extrapolates linearly (it says so).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <stdio.h>

#include "procura-store.h"
#include "procura-test-util.h"

static gint64 n_requests = 100000;
static gint64 n_samples = 250;
static gint64 n_runs = 10;
static double rows_fraction = 1.0;
static char *dir_option = NULL;

static double
seconds_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1e6;
}

/* The value of sample @k of request @r of run @run: cheap, deterministic, not constant. */
static inline double
value_at (gint64 run,
          gint64 r,
          gint64 k)
{
  return 20.0 + (double) ((run * 7919 + r * 104729 + k * 1299709) % 100000) / 1000.0;
}

static sqlite3 *
open_plain (const char *path)
{
  sqlite3 *db = NULL;

  if (sqlite3_open (path, &db) != SQLITE_OK
      || sqlite3_exec (db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;", NULL, NULL, NULL) != SQLITE_OK)
    g_error ("%s: %s", path, sqlite3_errmsg (db));
  return db;
}

static void
exec_or_die (sqlite3    *db,
             const char *sql)
{
  if (sqlite3_exec (db, sql, NULL, NULL, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
}

int
main (int    argc,
      char **argv)
{
  GOptionEntry entries[] = {
    { "requests", 0, 0, G_OPTION_ARG_INT64, &n_requests, "Requests in all (default 100000)", "N" },
    { "samples", 0, 0, G_OPTION_ARG_INT64, &n_samples, "Samples per request (default 250)", "K" },
    { "runs", 0, 0, G_OPTION_ARG_INT64, &n_runs, "Runs the requests are spread over (default 10)", "R" },
    { "rows-fraction", 0, 0, G_OPTION_ARG_DOUBLE, &rows_fraction, "Fraction of the data timed for the row-per-sample layout (default 1)", "F" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir_option, "Where to write the files (default: a temporary folder)", "DIR" },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- time writing 25 M samples");
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) res = procura_import_result_new ();
  g_autofree char *dir = NULL;
  g_autofree char *project = NULL;
  g_autofree char *per_request = NULL;
  g_autofree char *per_sample = NULL;
  gint64 per_run, total, start;
  double t_import, t_close, t_request, t_rows, rows_done;
  ProcuraStore *store;
  GStatBuf st;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (n_requests <= 0 || n_samples <= 0 || n_runs <= 0 || n_requests % n_runs != 0
      || !(rows_fraction > 0 && rows_fraction <= 1))
    {
      g_printerr ("bad arguments: requests, samples and runs must be positive, runs must divide requests, 0 < rows-fraction <= 1\n");
      return 2;
    }
  per_run = n_requests / n_runs;
  total = n_requests * n_samples;
  dir = dir_option != NULL ? g_strdup (dir_option) : procura_test_mkdtemp ();
  project = g_build_filename (dir, "bench.procura", NULL);
  per_request = g_build_filename (dir, "per-request.sqlite", NULL);
  per_sample = g_build_filename (dir, "per-sample.sqlite", NULL);
  g_unlink (project);
  g_unlink (per_request);
  g_unlink (per_sample);

  g_print ("Writing %" G_GINT64_FORMAT " requests x %" G_GINT64_FORMAT " samples = %" G_GINT64_FORMAT
           " float64 values (%.0f MB) in %" G_GINT64_FORMAT " runs, into %s\n",
           n_requests, n_samples, total, total * 8 / 1e6, n_runs, dir);

  /* The data, as an importer hands it over: one array per run and metric. */
  for (gint64 run = 0; run < n_runs; run++)
    {
      ProcuraRun *r = procura_run_new ();
      double *v = g_new (double, per_run * n_samples);

      for (gint64 q = 0; q < per_run; q++)
        for (gint64 k = 0; k < n_samples; k++)
          v[q * n_samples + k] = value_at (run, q, k);
      r->label = g_strdup_printf ("run %" G_GINT64_FORMAT, run);
      r->completed = per_run;
      procura_run_take_samples (r, "itl", v, (gsize) (per_run * n_samples));
      g_ptr_array_add (res->runs, r);
    }
  res->provenance = procura_provenance_new ();
  res->provenance->file_name = g_strdup ("bench.json");

  /* 1. Procura: one import, one transaction, a BLOB per (run, metric) */
  store = procura_store_create (project, "bench", &error);
  if (store == NULL)
    g_error ("%s", error->message);
  start = g_get_monotonic_time ();
  if (!procura_store_import (store, res, 0, &error))
    g_error ("%s", error->message);
  t_import = seconds_since (start);
  start = g_get_monotonic_time ();
  procura_store_close (store);
  t_close = seconds_since (start);
  g_stat (project, &st);
  g_print ("procura_store_import (BLOB per run and metric): %.3f s to commit, %.3f s with the "
           "checkpoint at close; file %.0f MB\n", t_import, t_import + t_close, st.st_size / 1e6);

  /* 2. A BLOB per request */
  {
    sqlite3 *db = open_plain (per_request);
    sqlite3_stmt *stmt = NULL;

    exec_or_die (db, "CREATE TABLE samples (run INTEGER, request INTEGER, metric TEXT, data BLOB,"
                     " PRIMARY KEY (run, request, metric))");
    start = g_get_monotonic_time ();
    exec_or_die (db, "BEGIN");
    sqlite3_prepare_v2 (db, "INSERT INTO samples VALUES (?, ?, 'itl', ?)", -1, &stmt, NULL);
    for (gint64 run = 0; run < n_runs; run++)
      {
        const ProcuraSamples *s = procura_run_get_samples (g_ptr_array_index (res->runs, run), "itl");
        for (gint64 q = 0; q < per_run; q++)
          {
            sqlite3_reset (stmt);
            sqlite3_bind_int64 (stmt, 1, run);
            sqlite3_bind_int64 (stmt, 2, q);
            sqlite3_bind_blob64 (stmt, 3, s->values + q * n_samples, (sqlite3_uint64) n_samples * 8, SQLITE_STATIC);
            if (sqlite3_step (stmt) != SQLITE_DONE)
              g_error ("%s", sqlite3_errmsg (db));
          }
      }
    sqlite3_finalize (stmt);
    exec_or_die (db, "COMMIT");
    sqlite3_close (db);
    t_request = seconds_since (start);
    g_print ("BLOB per request (same pragmas, one transaction):  %.3f s with the checkpoint at close\n",
             t_request);
  }

  /* 3. A row per sample */
  {
    sqlite3 *db = open_plain (per_sample);
    sqlite3_stmt *stmt = NULL;
    gint64 requests_timed = (gint64) (per_run * rows_fraction);

    if (requests_timed < 1)
      requests_timed = 1;
    exec_or_die (db, "CREATE TABLE samples (run INTEGER, request INTEGER, metric TEXT, k INTEGER, value REAL)");
    start = g_get_monotonic_time ();
    exec_or_die (db, "BEGIN");
    sqlite3_prepare_v2 (db, "INSERT INTO samples VALUES (?, ?, 'itl', ?, ?)", -1, &stmt, NULL);
    for (gint64 run = 0; run < n_runs; run++)
      {
        const ProcuraSamples *s = procura_run_get_samples (g_ptr_array_index (res->runs, run), "itl");
        for (gint64 q = 0; q < requests_timed; q++)
          for (gint64 k = 0; k < n_samples; k++)
            {
              sqlite3_reset (stmt);
              sqlite3_bind_int64 (stmt, 1, run);
              sqlite3_bind_int64 (stmt, 2, q);
              sqlite3_bind_int64 (stmt, 3, k);
              sqlite3_bind_double (stmt, 4, s->values[q * n_samples + k]);
              if (sqlite3_step (stmt) != SQLITE_DONE)
                g_error ("%s", sqlite3_errmsg (db));
            }
      }
    sqlite3_finalize (stmt);
    exec_or_die (db, "COMMIT");
    sqlite3_close (db);
    t_rows = seconds_since (start);
    rows_done = (double) requests_timed * n_runs * n_samples;
    if (rows_done < (double) total)
      {
        g_print ("row per sample (same pragmas, one transaction):    %.3f s for %.0f rows, "
                 "EXTRAPOLATED to %.3f s for all %" G_GINT64_FORMAT "\n",
                 t_rows, rows_done, t_rows * total / rows_done, total);
        t_rows = t_rows * total / rows_done;
      }
    else
      g_print ("row per sample (same pragmas, one transaction):    %.3f s with the checkpoint at close\n",
               t_rows);
  }

  g_print ("\nratios: row per sample / procura = %.1fx, BLOB per request / procura = %.2fx\n",
           t_rows / (t_import + t_close), t_request / (t_import + t_close));
  g_print ("goal: procura <= 2 s for 25 M samples: %s (%.3f s)\n",
           t_import + t_close <= 2.0 ? "met" : "NOT met", t_import + t_close);

  g_unlink (project);
  g_unlink (per_request);
  g_unlink (per_sample);
  if (dir_option == NULL)
    procura_test_rmtree (dir);
  g_free (dir_option);
  return 0;
}
