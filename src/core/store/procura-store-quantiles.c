/* procura-store-quantiles.c: the sorted quantile summaries kept beside the samples
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run's samples of one metric are summarised once (procura-quantiles.h) when they are
 * stored, in table run_quantiles (schema version 5), so that a CDF reads a megabyte
 * instead of the samples. A project made before version 5 lacks them: they are computed
 * from the samples the first time they are needed, and kept when the project is
 * writable (a read-only project keeps them in memory only).
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "procura-quantiles.h"
#include "procura-store-private.h"

/* The BLOB: k ranks (unsigned 64-bit) then k values (doubles), little-endian. */
static GBytes *
encode (const ProcuraQuantiles *q)
{
  guint8 *data = g_malloc (q->k * 16);

  for (gsize j = 0; j < q->k; j++)
    {
      guint64 r = GUINT64_TO_LE (q->ranks[j]);
      guint64 bits;

      memcpy (&bits, &q->values[j], 8);
      bits = GUINT64_TO_LE (bits);
      memcpy (data + j * 8, &r, 8);
      memcpy (data + (q->k + j) * 8, &bits, 8);
    }
  return g_bytes_new_take (data, q->k * 16);
}

/* A run's new summary goes in with a plain INSERT: a REPLACE may delete a row, so SQLite
 * keeps a statement journal for it, a temporary file that took a copy of every page the
 * summary's megabyte touched. @replace for a summary computed later, which another
 * writer may have stored meanwhile. */
static gboolean
insert_summary (ProcuraStore            *store,
                gint64                   run_id,
                const ProcuraQuantiles  *q,
                gboolean                 replace,
                GError                 **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autoptr (GBytes) bytes = encode (q);
  gsize len;
  gconstpointer data = g_bytes_get_data (bytes, &len);

#define INSERT_SUMMARY(verb) \
  verb " INTO run_quantiles (run_id, metric, n, k, data) VALUES (:run, :metric, :n, :k, :data)"
  stmt = store_prepare (store, replace ? INSERT_SUMMARY ("INSERT OR REPLACE") : INSERT_SUMMARY ("INSERT"),
                        error);
#undef INSERT_SUMMARY
  if (stmt == NULL)
    return FALSE;
  bind_int (stmt, "run", run_id);
  bind_text (stmt, "metric", q->metric);
  bind_int (stmt, "n", (gint64) q->n);
  bind_int (stmt, "k", (gint64) q->k);
  sqlite3_bind_blob64 (stmt, store_param (stmt, "data"), data, len, SQLITE_STATIC);
  return step_done (store, stmt, error, _("cannot store the quantile summary"));
}

gboolean
store_insert_quantiles (ProcuraStore          *store,
                        gint64                 run_id,
                        const ProcuraRun      *run,
                        const ProcuraSamples  *s,
                        GError               **error)
{
  g_autoptr (ProcuraQuantiles) q = NULL;
  const ProcuraQuantiles *made = procura_run_get_quantiles (run, s->metric);

  /* the summary the import made with its statistics, else the sort it may have made,
   * else one of our own */
  if (made != NULL)
    return insert_summary (store, run_id, made, FALSE, error);
  if (s->sorted != NULL)
    q = procura_quantiles_new_sorted (s->metric, s->sorted, s->n_sorted);
  else
    q = procura_quantiles_new (s->metric, s->values, s->n);
  return q == NULL || insert_summary (store, run_id, q, FALSE, error);
}

static gboolean
summary_damaged (ProcuraStore  *store,
                 gint64         run_id,
                 const char    *metric,
                 GError       **error)
{
  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
               /* TRANSLATORS: the project file's path, the run's number, then the metric */
               _("%s: the project file is damaged: table “run_quantiles”, run %lld: the summary of "
                 "“%s” is not ascending ranks from 0 to n - 1 and ascending finite values "
                 "(16 bytes per kept value)"),
               store->path, (long long) run_id, metric != NULL ? metric : "?");
  return FALSE;
}

/* Reads @run's summary of @metric into it; *@found says whether there was one. */
static gboolean
read_summary (ProcuraStore  *store,
              ProcuraRun    *run,
              const char    *metric,
              gboolean      *found,
              GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autoptr (ProcuraQuantiles) q = NULL;
  const guint8 *data;
  gint64 n, k, len;
  int rc;

  *found = FALSE;
  stmt = store_prepare (store, "SELECT n, k, data FROM run_quantiles WHERE run_id = :run AND metric = :metric",
                        error);
  if (stmt == NULL)
    return FALSE;
  bind_int (stmt, "run", run->id);
  bind_text (stmt, "metric", metric);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    return TRUE;
  if (rc != SQLITE_ROW)
    {
      store_error (store, error, _("cannot read the quantile summary"));
      return FALSE;
    }
  n = sqlite3_column_int64 (stmt, 0);
  k = sqlite3_column_int64 (stmt, 1);
  data = sqlite3_column_blob (stmt, 2);
  len = sqlite3_column_bytes (stmt, 2);
  if (n <= 0 || k <= 0 || k > PROCURA_QUANTILES_GRID + 1 || k > n || len != k * 16 || data == NULL)
    return summary_damaged (store, run->id, metric, error);
  q = g_new0 (ProcuraQuantiles, 1);
  q->metric = g_strdup (metric);
  q->n = (gsize) n;
  q->k = (gsize) k;
  q->ranks = g_new (guint64, k);
  q->values = g_new (double, k);
  for (gint64 j = 0; j < k; j++)
    {
      guint64 r, bits;

      memcpy (&r, data + j * 8, 8);
      memcpy (&bits, data + (k + j) * 8, 8);
      q->ranks[j] = GUINT64_FROM_LE (r);
      bits = GUINT64_FROM_LE (bits);
      memcpy (&q->values[j], &bits, 8);
    }
  if (!procura_quantiles_valid (q))
    return summary_damaged (store, run->id, metric, error);
  procura_run_take_quantiles (run, g_steal_pointer (&q));
  *found = TRUE;
  return TRUE;
}

/* Computes @run's summary of @metric from its stored samples (a project made before
 * the summaries were kept); *@made says whether it had samples to summarise. */
static gboolean
summarise_samples (ProcuraStore  *store,
                   ProcuraRun    *run,
                   const char    *metric,
                   gboolean      *made,
                   GError       **error)
{
  g_autoptr (ProcuraRun) scratch = procura_run_new ();
  const ProcuraSamples *s;
  ProcuraQuantiles *q;

  *made = FALSE;
  scratch->id = run->id;
  if (!procura_store_load_run_samples (store, scratch, metric, error))
    return FALSE;
  s = procura_run_get_samples (scratch, metric);
  if (s == NULL)
    return TRUE;
  q = procura_quantiles_new (metric, s->values, s->n);
  if (q != NULL)
    {
      procura_run_take_quantiles (run, q);
      *made = TRUE;
    }
  return TRUE;
}

/* Keeps the summaries of @metric computed from samples for the runs in @made, when the
 * project can be written: one transaction, without touching `modified` (they add
 * nothing the samples did not say). Failing to keep them is not an error: they are
 * computed again next time. */
static void
keep_summaries (ProcuraStore *store,
                GPtrArray    *made,
                const char   *metric)
{
  gboolean ok = TRUE;

  if (made->len == 0 || store->read_only || store->in_batch || store->snapshot_dir != NULL
      || !sqlite3_get_autocommit (store->db)
      || sqlite3_exec (store->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    return;
  for (guint i = 0; ok && i < made->len; i++)
    {
      const ProcuraRun *run = g_ptr_array_index (made, i);
      const ProcuraQuantiles *q = procura_run_get_quantiles (run, metric);

      ok = q == NULL || insert_summary (store, run->id, q, TRUE, NULL);
    }
  if (ok)
    ok = sqlite3_exec (store->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
  if (!ok)
    sqlite3_exec (store->db, "ROLLBACK", NULL, NULL, NULL);
}

gboolean
procura_store_load_run_quantiles (ProcuraStore  *store,
                                  ProcuraRun    *run,
                                  const char    *metric,
                                  GError       **error)
{
  g_autoptr (GPtrArray) one = g_ptr_array_new ();

  g_return_val_if_fail (store != NULL && run != NULL && metric != NULL, FALSE);
  g_ptr_array_add (one, run);
  return procura_store_load_quantiles (store, one, metric, error);
}

gboolean
procura_store_load_quantiles (ProcuraStore  *store,
                              GPtrArray     *runs,
                              const char    *metric,
                              GError       **error)
{
  g_autoptr (GPtrArray) made = g_ptr_array_new ();
  gboolean began = FALSE, ok = TRUE;

  g_return_val_if_fail (store != NULL && runs != NULL && metric != NULL, FALSE);
  /* one snapshot for every read, unless the caller has one */
  if (sqlite3_get_autocommit (store->db))
    {
      if (sqlite3_exec (store->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        {
          store_error (store, error, _("cannot read the quantile summary"));
          return FALSE;
        }
      began = TRUE;
    }
  for (guint i = 0; ok && i < runs->len; i++)
    {
      ProcuraRun *run = g_ptr_array_index (runs, i);
      gboolean found = FALSE, computed = FALSE;

      ok = read_summary (store, run, metric, &found, error);
      if (ok && !found)
        {
          ok = summarise_samples (store, run, metric, &computed, error);
          if (ok && computed)
            g_ptr_array_add (made, run);
        }
    }
  if (began)
    sqlite3_exec (store->db, "COMMIT", NULL, NULL, NULL);
  if (ok && began)
    keep_summaries (store, made, metric);
  return ok;
}
