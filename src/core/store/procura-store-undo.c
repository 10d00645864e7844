/* procura-store-undo.c: undoable deletion and the pending deletions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-json.h"
#include "procura-json-out.h"
#include "procura-store-private.h"
#include "procura-util.h"

/* ------------------------------------------------------------------------- */
/* Undoable deletion                                                          */

static gint64
new_undo_entry (ProcuraStore  *store,
                const char    *kind,
                gint64         target,
                gint64         decision_candidate,
                GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = store_prepare (store,
    "INSERT INTO undo_log (kind, target_id, decision_candidate_id, created)"
    " VALUES (:kind, :target, :decision, :created)", error);
  g_autofree char *now = procura_now_iso8601 ();

  if (stmt == NULL)
    return 0;
  bind_text (stmt, "kind", kind);
  bind_int (stmt, "target", target);
  bind_id (stmt, "decision", decision_candidate);
  bind_text (stmt, "created", now);
  if (!step_done (store, stmt, error, _("cannot record the deletion")))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

static gboolean
exec_with_ids (ProcuraStore  *store,
               const char    *sql,
               gint64         token,
               gint64         id,
               GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = store_prepare (store, sql, error);

  if (stmt == NULL)
    return FALSE;
  if (store_param (stmt, "token") > 0)
    bind_int (stmt, "token", token);
  if (store_param (stmt, "id") > 0)
    bind_int (stmt, "id", id);
  return step_done (store, stmt, error, _("cannot update the project"));
}

gboolean
procura_store_delete_candidate (ProcuraStore  *store,
                                gint64         candidate_id,
                                gint64        *undo_token,
                                GError       **error)
{
  gint64 decided = 0, token = 0;
  gboolean ok;

  g_return_val_if_fail (store != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  ok = check_candidate (store, candidate_id > 0 ? candidate_id : -1, error);
  if (ok)
    {
      g_autoptr (sqlite3_stmt) stmt = store_prepare (store, "SELECT candidate_id FROM decision WHERE id = 1", error);
      ok = stmt != NULL;
      if (ok && sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_int64 (stmt, 0) == candidate_id)
        decided = candidate_id;
    }
  if (ok)
    ok = (token = new_undo_entry (store, "candidate", candidate_id, decided, error)) > 0;
  ok = ok
       && exec_with_ids (store, "UPDATE candidates SET deleted_by = :token WHERE id = :id", token, candidate_id, error)
       && exec_with_ids (store, "UPDATE runs SET deleted_by = :token WHERE candidate_id = :id AND deleted_by IS NULL",
                         token, candidate_id, error)
       /* a hybrid decision whose API route goes is no decision any more */
       && exec_with_ids (store, "UPDATE decision SET candidate_id = NULL, overflow_candidate_id = NULL"
                         " WHERE overflow_candidate_id = :id", 0, candidate_id, error)
       && exec_with_ids (store, "UPDATE decision SET candidate_id = NULL, overflow_candidate_id = NULL"
                         " WHERE candidate_id = :id", 0, candidate_id, error);
  if (!store_finish (store, ok, error))
    return FALSE;
  if (undo_token != NULL)
    *undo_token = token;
  return TRUE;
}

gboolean
procura_store_delete_run (ProcuraStore  *store,
                          gint64         run_id,
                          gint64        *undo_token,
                          GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gint64 token = 0;
  gboolean ok;

  g_return_val_if_fail (store != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  stmt = store_prepare (store, "SELECT 1 FROM runs WHERE id = :id AND deleted_by IS NULL", error);
  ok = stmt != NULL;
  if (ok)
    {
      bind_int (stmt, "id", run_id);
      if (sqlite3_step (stmt) != SQLITE_ROW)
        {
          g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND,
                       _("%s: no run with id %lld"), store->path, (long long) run_id);
          ok = FALSE;
        }
    }
  if (ok)
    ok = (token = new_undo_entry (store, "run", run_id, 0, error)) > 0;
  ok = ok && exec_with_ids (store, "UPDATE runs SET deleted_by = :token WHERE id = :id", token, run_id, error);
  if (!store_finish (store, ok, error))
    return FALSE;
  if (undo_token != NULL)
    *undo_token = token;
  return TRUE;
}

gboolean
procura_store_undo (ProcuraStore  *store,
                    gint64         undo_token,
                    GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autofree char *kind = NULL;
  gint64 target = 0, decided = 0;
  gboolean ok;

  g_return_val_if_fail (store != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  stmt = store_prepare (store, "SELECT kind, target_id, decision_candidate_id FROM undo_log WHERE id = :id", error);
  ok = stmt != NULL;
  if (ok)
    {
      bind_int (stmt, "id", undo_token);
      if (sqlite3_step (stmt) == SQLITE_ROW)
        {
          kind = col_text (stmt, "kind");
          target = col_int (stmt, "target_id", 0);
          decided = col_int (stmt, "decision_candidate_id", 0);
        }
      else
        {
          g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND,
                       _("%s: nothing to undo (token %lld is unknown or was purged)"),
                       store->path, (long long) undo_token);
          ok = FALSE;
        }
    }
  if (ok && g_strcmp0 (kind, "candidate") == 0)
    {
      g_autoptr (sqlite3_stmt) name = store_prepare (store, "SELECT name FROM candidates WHERE id = :id", error);

      ok = name != NULL;
      if (ok)
        {
          g_autofree char *n = NULL;

          bind_int (name, "id", target);
          if (sqlite3_step (name) == SQLITE_ROW)
            n = col_text (name, "name");
          if (n != NULL && name_taken (store, n, target, error))
            {
              g_prefix_error (error, _("cannot undo the deletion: "));
              ok = FALSE;
            }
        }
    }
  ok = ok
       && exec_with_ids (store, "UPDATE candidates SET deleted_by = NULL WHERE deleted_by = :token", undo_token, 0, error)
       && exec_with_ids (store, "UPDATE runs SET deleted_by = NULL WHERE deleted_by = :token", undo_token, 0, error);
  if (ok && decided > 0)
    ok = exec_with_ids (store, "UPDATE decision SET candidate_id = :id WHERE id = 1 AND candidate_id IS NULL",
                        0, decided, error);
  ok = ok && exec_with_ids (store, "DELETE FROM undo_log WHERE id = :token", undo_token, 0, error);
  return store_finish (store, ok, error);
}

gboolean
procura_store_purge_deleted (ProcuraStore  *store,
                             GError       **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  return store_finish (store,
                       store_exec_sql (store->db, store->path,
                                 "DELETE FROM runs WHERE deleted_by IS NOT NULL;"
                                 "DELETE FROM warning_answers WHERE candidate_id IN"
                                 " (SELECT id FROM candidates WHERE deleted_by IS NOT NULL);"
                                 "DELETE FROM candidates WHERE deleted_by IS NOT NULL;"
                                 "DELETE FROM undo_log;", error),
                       error);
}

/* ------------------------------------------------------------------------- */
/* Pending deletions                                                          */

void
procura_undo_entry_free (ProcuraUndoEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->kind);
  g_free (entry->name);
  g_free (entry->created);
  g_free (entry);
}

static gpointer
read_undo_entry_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraUndoEntry *e = g_new0 (ProcuraUndoEntry, 1);

  e->token = col_int (stmt, "id", 0);
  e->kind = col_text (stmt, "kind");
  e->target_id = col_int (stmt, "target_id", 0);
  e->name = col_text (stmt, "name");
  e->created = col_text (stmt, "created");
  e->n_runs = (guint) CLAMP (col_int (stmt, "n_runs", 0), 0, G_MAXUINT);
  return e;
}

GPtrArray *
procura_store_list_undo_entries (ProcuraStore  *store,
                                 GError       **error)
{
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_undo_entry_free);

  g_return_val_if_fail (store != NULL, NULL);
  /* Only entries whose rows are still deleted by them: those an undo brings back. */
  if (!load_rows (store,
                  "SELECT u.id, u.kind, u.target_id, u.created,"
                  " CASE u.kind WHEN 'candidate' THEN (SELECT name FROM candidates WHERE id = u.target_id)"
                  "  ELSE (SELECT label FROM runs WHERE id = u.target_id) END AS name,"
                  " (SELECT count(*) FROM runs WHERE deleted_by = u.id) AS n_runs"
                  " FROM undo_log u"
                  " WHERE (u.kind = 'candidate' AND EXISTS"
                  "   (SELECT 1 FROM candidates c WHERE c.id = u.target_id AND c.deleted_by = u.id))"
                  "  OR (u.kind = 'run' AND EXISTS"
                  "   (SELECT 1 FROM runs r WHERE r.id = u.target_id AND r.deleted_by = u.id))"
                  " ORDER BY u.id",
                  read_undo_entry_row, entries, error))
    return NULL;
  return g_steal_pointer (&entries);
}
