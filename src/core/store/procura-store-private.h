/* procura-store-private.h: what the procura-store*.c files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Never included outside src/core/store: the rest of Procura sees procura-store.h.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "procura-store.h"

G_BEGIN_DECLS

struct _ProcuraStore {
  sqlite3  *db;
  char     *path;
  gboolean  read_only;
  char     *read_only_reason;
  int       lock_fd;
  int       file_version;
  gboolean  in_batch;   /* procura_store_begin_batch(): writes nest as savepoints */
  gboolean  bulk_ready; /* procura_store_prepare_import_all() switched to a rollback journal */
  char     *snapshot_dir; /* a private copy read instead (procura-store-snapshot.h), or NULL */
};

/* Bounds on what a (possibly hostile) file can make us allocate: bytes in one string
 * or BLOB. */
#define STORE_MAX_LENGTH     (1024 * 1024 * 1024 - 1)

static inline void
finalize_stmt (sqlite3_stmt *stmt)
{
  sqlite3_finalize (stmt);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, finalize_stmt)

/* One row of a load_rows() query made into a struct (or NULL with @error set). */
typedef gpointer (*ReadRow) (ProcuraStore *store, sqlite3_stmt *stmt, GError **error);

/* procura-store.c */
/* Before SQLite's first use in the process: its allocations go through
 * procura_memory_alloc_large() from 4 MiB (a sample BLOB's record is a copy as large as
 * the samples). Only where SQLite was not yet initialised by someone else. */
void store_sqlite_setup (void);
sqlite3_stmt *store_prepare (ProcuraStore  *store,
                             const char    *sql,
                             GError       **error);
void bind_int (sqlite3_stmt *stmt,
               const char   *name,
               gint64        value);
gboolean step_done (ProcuraStore  *store,
                    sqlite3_stmt  *stmt,
                    GError       **error,
                    const char    *what);
gboolean store_finish (ProcuraStore  *store,
                       gboolean       ok,
                       GError       **error);
void bind_text (sqlite3_stmt *stmt,
                const char   *name,
                const char   *value);
void bind_id (sqlite3_stmt *stmt,
              const char   *name,
              gint64        id);
gboolean store_begin (ProcuraStore  *store,
                      GError       **error);
char *col_text (sqlite3_stmt *stmt,
                const char   *name);
gint64 col_int (sqlite3_stmt *stmt,
                const char   *name,
                gint64        if_null);
gboolean check_candidate (ProcuraStore  *store,
                          gint64         id,
                          GError       **error);
void bind_double (sqlite3_stmt *stmt,
                  const char   *name,
                  double        value);
void store_error (ProcuraStore  *store,
                  GError       **error,
                  const char    *what);
int store_param (sqlite3_stmt *stmt,
                 const char   *name);
/* Starts a transaction for a write of about @bytes; *@bulk says whether it runs with a
 * rollback journal (store_end_bulk() after its commit or rollback puts the WAL back).
 * After procura_store_prepare_import_all() the write takes the switch it made, whatever
 * its size. */
gboolean store_begin_bulk (ProcuraStore  *store,
                           guint64        bytes,
                           gboolean      *bulk,
                           GError       **error);
/* Makes the switch to a rollback journal for a write of about @bytes ahead of it, where
 * that write would take one (store_begin_bulk() then takes it over). */
void     store_prepare_bulk (ProcuraStore  *store,
                             guint64        bytes);
/* procura-store-runs.c: the sample bytes procura_store_import_all() writes for @results */
guint64  store_import_bytes (GPtrArray *results);
void     store_end_bulk   (ProcuraStore  *store,
                           gboolean       bulk);
gboolean store_exec_sql (sqlite3     *db,
                         const char  *path,
                         const char  *sql,
                         GError     **error);
int col_small (sqlite3_stmt *stmt,
               const char   *name,
               int           if_null);
int col_enum (sqlite3_stmt *stmt,
              const char   *name,
              int           n_values);
double col_double (sqlite3_stmt *stmt,
                   const char   *name);
char *valid_text (const char *text,
                  gssize      len);
char *strv_to_json (GPtrArray *strings);
void store_rollback (ProcuraStore *store);
gboolean json_to_strv (ProcuraStore  *store,
                       const char    *table,
                       const char    *column,
                       gint64         row_id,
                       const char    *json,
                       GPtrArray     *into,
                       GError       **error);
gboolean store_commit (ProcuraStore  *store,
                       GError       **error);
int store_col (sqlite3_stmt *stmt,
               const char   *name);
double col_load_value (sqlite3_stmt *stmt,
                       const char   *name);
gint64 col_count (sqlite3_stmt *stmt,
                  const char   *name);
gboolean check_json_column (ProcuraStore  *store,
                            const char    *table,
                            const char    *column,
                            gint64         row_id,
                            const char    *json,
                            gboolean       lines,
                            GError       **error);

/* procura-store-quantiles.c: the summary of @s, stored for @run_id, a run the caller's
 * transaction has just inserted (it has no summary yet) */
gboolean store_insert_quantiles (ProcuraStore          *store,
                                 gint64                 run_id,
                                 const ProcuraRun      *run,
                                 const ProcuraSamples  *s,
                                 GError               **error);

/* procura-store-quotes.c */
gint64 insert_quote (ProcuraStore        *store,
                     const ProcuraQuote  *q,
                     gint64               provenance_id,
                     GError             **error);
gboolean check_changed_one (ProcuraStore  *store,
                            const char    *what,
                            gint64         id,
                            GError       **error);
gboolean store_delete_row (ProcuraStore  *store,
                           const char    *table,
                           const char    *what,
                           gint64         id,
                           GError       **error);

/* procura-store-documents.c */
ProcuraCandidate *read_candidate (sqlite3_stmt *stmt);
gboolean name_taken (ProcuraStore  *store,
                     const char    *name,
                     gint64         except_id,
                     GError       **error);
gint64 insert_candidate (ProcuraStore            *store,
                         const ProcuraCandidate  *c,
                         gint64                   quote_id,
                         GError                 **error);

/* procura-store-load.c */
gboolean load_rows (ProcuraStore  *store,
                    const char    *sql,
                    ReadRow        read,
                    GPtrArray     *into,
                    GError       **error);

/* procura-store-runs.c */
gint64 insert_run (ProcuraStore      *store,
                   const ProcuraRun  *r,
                   gint64             candidate_id,
                   gint64             provenance_id,
                   GError           **error);
gint64 insert_provenance (ProcuraStore             *store,
                          const ProcuraProvenance  *p,
                          GError                  **error);
gint64 insert_probe_result (ProcuraStore              *store,
                            const ProcuraProbeResult  *r,
                            gint64                     candidate_id,
                            gint64                     provenance_id,
                            GError                   **error);
gint64 insert_model_shape (ProcuraStore             *store,
                           const ProcuraModelShape  *m,
                           gint64                    provenance_id,
                           GError                  **error);
gint64 insert_engine_log (ProcuraStore            *store,
                          const ProcuraEngineLog  *l,
                          gint64                   candidate_id,
                          gint64                   provenance_id,
                          GError                 **error);

G_END_DECLS
