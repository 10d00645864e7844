/* procura-store.h: the project file, one SQLite database per decision
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything Procura knows about a decision lives in one `*.procura` file (see
 * docs/project-file.md). Every function that writes is one transaction: it either
 * stores everything it was given or nothing. A file written by a newer Procura, a file
 * that is not a Procura project or a damaged one is refused with a
 * PROCURA_STORE_ERROR saying which, and is never written to.
 *
 * A project opened by a second process (or a second ProcuraStore in the same process)
 * opens read-only; procura_store_get_read_only_reason() says why. Writes to a read-only
 * store fail with PROCURA_STORE_ERROR_READ_ONLY.
 *
 * Per-request samples are stored as one BLOB per (run, metric): little-endian IEEE-754
 * float64 values, 8 bytes each, no header.
 */
#pragma once

#include <glib.h>

#include "procura-model.h"
#include "procura-import.h"

G_BEGIN_DECLS

#define PROCURA_STORE_ERROR (procura_store_error_quark ())

typedef enum {
  PROCURA_STORE_ERROR_NOT_A_PROJECT, /* not SQLite, or SQLite but not a Procura project */
  PROCURA_STORE_ERROR_NEWER_SCHEMA,  /* written by a newer Procura */
  PROCURA_STORE_ERROR_DAMAGED,       /* integrity check failed, unexpected schema objects */
  PROCURA_STORE_ERROR_LOCKED,        /* cannot get the write lock when it was required */
  PROCURA_STORE_ERROR_IO,            /* cannot read, write or create the file */
  PROCURA_STORE_ERROR_NOT_FOUND,     /* no such file, candidate, run, undo token... */
  PROCURA_STORE_ERROR_READ_ONLY,     /* a write to a store opened read-only */
  PROCURA_STORE_ERROR_INVALID,       /* bad arguments: empty name, duplicate, bad value */
} ProcuraStoreError;

GQuark procura_store_error_quark (void);

/* The current schema version (PRAGMA user_version) and the application_id. */
#define PROCURA_STORE_SCHEMA_VERSION 5

/* The largest magnitude a REAL column is read back as (a larger or non-finite value in a
 * received file is read as unknown); writers refuse what would not be read back. */
#define PROCURA_STORE_MAX_REAL 1e18
#define PROCURA_STORE_APPLICATION_ID 0x50524f43  /* "PROC" */

typedef enum {
  PROCURA_STORE_OPEN_DEFAULT   = 0,
  PROCURA_STORE_OPEN_READ_ONLY = 1 << 0,  /* never write, never migrate */
  PROCURA_STORE_OPEN_NO_CHECK  = 1 << 1,  /* quick_check instead of the full integrity_check */
  PROCURA_STORE_OPEN_WRITABLE  = 1 << 2,  /* fail with LOCKED instead of falling back to
                                             read-only when another store holds the file */
} ProcuraStoreFlags;

typedef enum {
  PROCURA_STORE_LOAD_DEFAULT      = 0,        /* summary figures and stats, no samples */
  PROCURA_STORE_LOAD_WITH_SAMPLES = 1 << 0,   /* also every per-request sample array */
  PROCURA_STORE_LOAD_SLO_SAMPLES  = 1 << 1,   /* also the samples of the brief's latency
                                                 metric (all the analysis, figures and
                                                 report read), not the others */
  PROCURA_STORE_LOAD_SLO_QUANTILES = 1 << 2,  /* also the sorted quantile summary of the
                                                 brief's latency metric (a CDF drawn
                                                 without the samples) */
} ProcuraStoreLoad;

typedef struct _ProcuraStore ProcuraStore;

/* Creates a new project at @path (refuses to overwrite an existing file). */
ProcuraStore   *procura_store_create     (const char         *path,
                                          const char         *title,
                                          GError            **error);
/* Opens @path. Refuses non-projects, damaged files and newer schemas without writing
 * to them; migrates an older schema forward (a read-only store migrates an in-memory
 * copy and leaves the file as it is). If another store holds the project, opens it
 * read-only and says so (or fails with LOCKED given PROCURA_STORE_OPEN_WRITABLE).
 * A store is used from one thread at a time. */
ProcuraStore   *procura_store_open       (const char         *path,
                                          ProcuraStoreFlags   flags,
                                          GError            **error);
/* TRUE when procura_store_open() of @path would change nothing in the file (a project
 * of this schema version, in WAL mode, with no journal left by a crash beside it): it can
 * then be opened before the caller knows whether it will write to it. */
gboolean        procura_store_open_writes_nothing (const char *path);
void            procura_store_close      (ProcuraStore       *store);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraStore, procura_store_close)

const char     *procura_store_get_path              (ProcuraStore *store);
gboolean        procura_store_is_read_only          (ProcuraStore *store);
/* NULL when writable; otherwise a sentence such as "opened by another Procura window
 * or process". */
const char     *procura_store_get_read_only_reason  (ProcuraStore *store);
/* The schema version found in the file before any migration. */
int             procura_store_get_file_schema_version (ProcuraStore *store);

/* Several writes as one transaction: between begin_batch and end_batch every write
 * function runs as a savepoint of one BEGIN IMMEDIATE transaction (a failed write undoes
 * only itself); end_batch with @keep TRUE commits them all, with @keep FALSE (or when the
 * commit fails, returning FALSE with @error set) rolls them all back. Batches do not nest. */
gboolean procura_store_begin_batch (ProcuraStore  *store,
                                    GError       **error);
gboolean procura_store_end_batch   (ProcuraStore  *store,
                                    gboolean       keep,
                                    GError       **error);

/* The whole project in memory (what the analysis, figures and report read). Runs
 * carry their stats; samples only with WITH_SAMPLES (all) or SLO_SAMPLES (one metric). Deleted (undoable) candidates
 * and runs are not included. */
ProcuraProject *procura_store_load_project (ProcuraStore      *store,
                                            ProcuraStoreLoad   flags,
                                            GError           **error);
/* Loads the samples of @run_id into @run (replacing any it has). */
gboolean        procura_store_load_samples (ProcuraStore      *store,
                                            gint64             run_id,
                                            ProcuraRun        *run,
                                            GError           **error);
/* Samples on demand (a snapshot loaded without them stays cheap however large the runs):
 * loads the samples of @metric (NULL: of every metric) of @run, the run with id @run->id,
 * into it (replacing any it has of that metric). A metric the run has no samples of is
 * not an error. */
gboolean        procura_store_load_run_samples (ProcuraStore   *store,
                                                ProcuraRun     *run,
                                                const char     *metric,
                                                GError        **error);
/* The same for every run of @project, in one read. */
gboolean        procura_store_load_project_samples (ProcuraStore    *store,
                                                    ProcuraProject  *project,
                                                    const char      *metric,
                                                    GError         **error);

/* The sorted quantile summary of @metric (procura-quantiles.h) of each run of @runs
 * (ProcuraRun*, with their ids), into run->quantiles, without their samples. A run
 * without one (a project made before they were kept) gets it computed from its samples,
 * kept in the file when the store can write. A run without samples of @metric gets none. */
gboolean        procura_store_load_quantiles (ProcuraStore   *store,
                                              GPtrArray      *runs,
                                              const char     *metric,
                                              GError        **error);
gboolean        procura_store_load_run_quantiles (ProcuraStore  *store,
                                                  ProcuraRun    *run,
                                                  const char    *metric,
                                                  GError       **error);

/* Project-level fields: one transaction each; update `modified`. */
gboolean procura_store_set_title        (ProcuraStore              *store,
                                         const char                *title,
                                         GError                   **error);
gboolean procura_store_set_illustrative (ProcuraStore              *store,
                                         gboolean                   illustrative,
                                         GError                   **error);
gboolean procura_store_save_brief       (ProcuraStore              *store,
                                         const ProcuraBrief        *brief,
                                         GError                   **error);
gboolean procura_store_save_assumptions (ProcuraStore              *store,
                                         const ProcuraAssumptions  *assumptions,
                                         GError                   **error);
/* @decision->candidate_id 0 clears the choice; otherwise it must name a candidate. */
gboolean procura_store_save_decision    (ProcuraStore              *store,
                                         const ProcuraDecision     *decision,
                                         GError                   **error);

/* The analyst's answer to warning @warning_id (a stable id such as "stale-price")
 * about @candidate_id (0 = project-wide; otherwise a live candidate). Replaces any
 * earlier answer to the same warning; @answer NULL or "" removes it. Stamps
 * answered_at with the current time. One transaction; updates `modified`. */
gboolean procura_store_answer_warning   (ProcuraStore              *store,
                                         const char                *warning_id,
                                         gint64                     candidate_id,
                                         const char                *answer,
                                         GError                   **error);

/* Candidates. Names are unique (case-sensitive) among live candidates.
 * Returns the new id (> 0), or 0 with @error set. */
gint64   procura_store_add_candidate    (ProcuraStore            *store,
                                         const ProcuraCandidate  *candidate,
                                         GError                 **error);
/* Updates every field of the candidate with id @candidate->id. */
gboolean procura_store_update_candidate (ProcuraStore            *store,
                                         const ProcuraCandidate  *candidate,
                                         GError                 **error);
/* 0 when no live candidate has that name. */
gint64   procura_store_find_candidate_by_name (ProcuraStore *store,
                                               const char   *name);
GPtrArray *procura_store_list_candidates (ProcuraStore  *store,
                                          GError       **error);   /* ProcuraCandidate* */

/* Deletion that can be undone (soft delete). Deleting a candidate also deletes its runs,
 * ops tests, checklist answers, engine logs and probe results with it (all come back
 * with the undo); a decision naming it is cleared (and restored by the undo).
 * @undo_token (may be NULL) receives a token for procura_store_undo(). */
gboolean procura_store_delete_candidate (ProcuraStore  *store,
                                         gint64         candidate_id,
                                         gint64        *undo_token,
                                         GError       **error);
gboolean procura_store_delete_run       (ProcuraStore  *store,
                                         gint64         run_id,
                                         gint64        *undo_token,
                                         GError       **error);
gboolean procura_store_undo             (ProcuraStore  *store,
                                         gint64         undo_token,
                                         GError       **error);
/* Removes soft-deleted rows for good (e.g. on close of the window). */
gboolean procura_store_purge_deleted    (ProcuraStore  *store,
                                         GError       **error);

/* Imports: ONE transaction for the provenance, the runs (stats, sample BLOBs), quotes,
 * model shapes, engine logs and probe results of @result. Runs, engine logs and probe
 * results are assigned to @candidate_id (0 = unassigned). On success the ids of the
 * stored rows are written back into @result's structs (run->id, quote->id, ...) and
 * @result->provenance->id. All or nothing. */
gboolean procura_store_import     (ProcuraStore         *store,
                                   ProcuraImportResult  *result,
                                   gint64                candidate_id,
                                   GError              **error);
/* Readies @store for procura_store_import_all () of @results: where that write would
 * run with a rollback journal instead of the WAL (its samples reach the bulk size), the
 * switch is made now, with its syncs, so that a caller can overlap them with work of its
 * own on another thread (the import's statistics). The next procura_store_import_all ()
 * takes the switch over, whatever it imports, and puts the WAL back after it (writes
 * before it run with the rollback journal too); procura_store_close () puts it back
 * where no import came. Nothing else may use @store while this runs. Does nothing for a
 * read-only store or inside a batch. */
void     procura_store_prepare_import_all (ProcuraStore *store,
                                           GPtrArray    *results);
/* Like procura_store_import() for every ProcuraImportResult of @results, and, when
 * @new_candidate is not NULL (then @candidate_id must be 0), that candidate created
 * first: all in ONE transaction, so that a failure or a kill leaves neither the
 * candidate nor any file's rows. *@out_candidate_id gets the candidate used. */
gboolean procura_store_import_all (ProcuraStore            *store,
                                   GPtrArray               *results,
                                   gint64                   candidate_id,
                                   const ProcuraCandidate  *new_candidate,
                                   gint64                  *out_candidate_id,
                                   GError                 **error);
gboolean procura_store_assign_run (ProcuraStore  *store,
                                   gint64         run_id,
                                   gint64         candidate_id,  /* 0 = unassign */
                                   GError       **error);
GPtrArray *procura_store_list_runs (ProcuraStore      *store,
                                    ProcuraStoreLoad   flags,
                                    GError           **error);  /* ProcuraRun* */

/* Quotes typed in or edited (imports store theirs through procura_store_import). */
gint64   procura_store_add_quote    (ProcuraStore        *store,
                                     const ProcuraQuote  *quote,
                                     GError             **error);
gboolean procura_store_update_quote (ProcuraStore        *store,
                                     const ProcuraQuote  *quote,
                                     GError             **error);
gboolean procura_store_delete_quote (ProcuraStore        *store,
                                     gint64               quote_id,
                                     GError             **error);

/* Operations tests and checklist answers. candidate_id 0 = project-wide. */
gint64   procura_store_add_ops_test       (ProcuraStore                *store,
                                           const ProcuraOpsTest        *test,
                                           GError                     **error);
gboolean procura_store_update_ops_test    (ProcuraStore                *store,
                                           const ProcuraOpsTest        *test,
                                           GError                     **error);
gboolean procura_store_delete_ops_test    (ProcuraStore                *store,
                                           gint64                       id,
                                           GError                     **error);
gint64   procura_store_add_checklist_item (ProcuraStore                *store,
                                           const ProcuraChecklistItem  *item,
                                           GError                     **error);
gboolean procura_store_update_checklist_item (ProcuraStore               *store,
                                              const ProcuraChecklistItem *item,
                                              GError                    **error);
gboolean procura_store_delete_checklist_item (ProcuraStore               *store,
                                              gint64                      id,
                                              GError                    **error);

/* Writes a whole in-memory project into a freshly created store, in one transaction
 * (the demo uses it). Candidate ids in @project's runs, quotes, ops tests, checklist,
 * engine logs, probe results and decision are remapped to the stored ids. */
gboolean procura_store_save_project (ProcuraStore          *store,
                                     const ProcuraProject  *project,
                                     GError               **error);

/* Replaces what the project holds (brief, assumptions, decision, candidates, quotes,
 * runs, engine logs, probe results, ops tests, checklist, warning answers, provenance,
 * and the undo log: earlier undo tokens stop working) with @project, as
 * procura_store_save_project() writes it, in one transaction. Stored model shapes stay
 * (and @project's are added). */
gboolean procura_store_replace_project (ProcuraStore          *store,
                                        const ProcuraProject  *project,
                                        GError               **error);

/* Sample BLOB encoding (exported for tests and benchmarks). */
GBytes  *procura_samples_encode (const double *values,
                                 gsize         n);
/* Returns FALSE when @len is not a multiple of 8. */
gboolean procura_samples_decode (const void   *data,
                                 gsize         len,
                                 double      **values,
                                 gsize        *n);

/* Deletions that procura_store_undo() can still bring back (not yet purged), oldest
 * first, whoever made them (this process, another window, `procura candidate remove`). */
typedef struct {
  gint64  token;      /* for procura_store_undo() */
  char   *kind;       /* "candidate" or "run" */
  gint64  target_id;  /* the deleted candidate's or run's id */
  char   *name;       /* the candidate's name or the run's label; may be NULL */
  char   *created;    /* when it was deleted (ISO 8601) */
  guint   n_runs;     /* benchmark runs deleted with it (a candidate's runs; 1 for a run) */
} ProcuraUndoEntry;

void       procura_undo_entry_free         (ProcuraUndoEntry  *entry);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraUndoEntry, procura_undo_entry_free)
/* Returns the pending deletions (ProcuraUndoEntry*), or NULL with @error set. */
GPtrArray *procura_store_list_undo_entries (ProcuraStore      *store,
                                            GError           **error);

G_END_DECLS
