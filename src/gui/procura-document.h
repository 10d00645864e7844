/* procura-document.h: the project open in a window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A ProcuraDocument owns the store of one project file and a snapshot of the project
 * (a ProcuraProject loaded by the store). Every store call runs in a GTask thread, one
 * at a time; after each write the snapshot is reloaded in the same thread and the
 * document emits "changed" on the main thread. Widgets read the snapshot and never
 * talk to the store.
 */
#pragma once

#include <gio/gio.h>

#include "procura-model.h"
#include "procura-import.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_DOCUMENT (procura_document_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraDocument, procura_document, PROCURA, DOCUMENT, GObject)

/* Opens @path (creating a new project there when @create) in a thread. */
void              procura_document_open_async     (const char           *path,
                                                   gboolean              create,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
ProcuraDocument  *procura_document_open_finish    (GAsyncResult         *result,
                                                   GError              **error);
/* Writes the illustrative demo project to @path (replacing it), in a thread. */
void              procura_document_write_demo_async  (const char          *path,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
gboolean          procura_document_write_demo_finish (GAsyncResult        *result,
                                                      GError             **error);

const char       *procura_document_get_path       (ProcuraDocument *self);
/* The current snapshot; valid until the next "changed". Never NULL. */
ProcuraProject   *procura_document_get_project    (ProcuraDocument *self);
gboolean          procura_document_get_read_only  (ProcuraDocument *self);
const char       *procura_document_get_read_only_reason (ProcuraDocument *self);
gboolean          procura_document_get_busy       (ProcuraDocument *self);
/* Keeps the current snapshot alive (even past "changed") for a thread that reads it,
 * until the matching release (from any thread: it is done on the main thread). */
ProcuraProject   *procura_document_hold_project    (ProcuraDocument *self);
void              procura_document_release_project (ProcuraDocument *self);

/* Edits: one store call per user action. Failures are reported through "error". */
void procura_document_save_brief       (ProcuraDocument        *self,
                                        const ProcuraBrief     *brief);
void procura_document_save_decision    (ProcuraDocument        *self,
                                        const ProcuraDecision  *decision);
/* Records (or, @answer NULL or empty, removes) the answer to warning @warning_id about
 * @candidate_id (0 = project-wide). */
void procura_document_answer_warning   (ProcuraDocument        *self,
                                        const char             *warning_id,
                                        gint64                  candidate_id,
                                        const char             *answer);
void procura_document_update_candidate (ProcuraDocument        *self,
                                        const ProcuraCandidate *candidate);
void procura_document_add_candidate    (ProcuraDocument        *self,
                                        const ProcuraCandidate *candidate);
void procura_document_update_ops_test  (ProcuraDocument        *self,
                                        const ProcuraOpsTest   *test);
void procura_document_update_checklist_item (ProcuraDocument            *self,
                                             const ProcuraChecklistItem *item);
/* Removes a checklist item; emits "deleted" with a token that procura_document_undo()
 * takes to add it back (with its answer and evidence, under a new id). */
void procura_document_delete_checklist_item (ProcuraDocument *self,
                                             gint64           item_id);
/* Emits "deleted" with a message and an undo token on success. */
void procura_document_delete_candidate (ProcuraDocument        *self,
                                        gint64                  candidate_id);
void procura_document_delete_run       (ProcuraDocument        *self,
                                        gint64                  run_id);
void procura_document_undo             (ProcuraDocument        *self,
                                        gint64                  undo_token);
/* Undoes the last edit made through this document (Ctrl+Z), up to 50 back: the brief,
 * a candidate's fields (name, price, quote, ...) or a run's assignment is written back
 * as it was, as an edit of its own; FALSE when there is none to undo. Redo (Shift+Ctrl+Z)
 * writes it again; a new edit empties the redo list. */
gboolean procura_document_undo_edit     (ProcuraDocument        *self);
gboolean procura_document_can_undo_edit (ProcuraDocument        *self);
gboolean procura_document_redo_edit     (ProcuraDocument        *self);
gboolean procura_document_can_redo_edit (ProcuraDocument        *self);
void procura_document_assign_run       (ProcuraDocument        *self,
                                        gint64                  run_id,
                                        gint64                  candidate_id);

/* Stores a probe fleet run (ProcuraProbeReport* of @reports, kept alive until it is
 * stored) in ONE transaction: the nodes that ran with their results, the nodes that
 * failed as such. @candidates: NULL, or one candidate name per report (NULL or "" for
 * none; created when absent). Emits "changed" (or "error"); deleting such a candidate
 * (undoable) takes its results with it, as for any import. */
void procura_document_save_probe_fleet (ProcuraDocument        *self,
                                        GPtrArray              *reports,
                                        const char * const     *candidates);
/* Stores the runs of @result (taken; e.g. the rows picked from a published data set)
 * in one transaction, assigned to @candidate_id, or to @new_candidate (taken, created in
 * the same transaction; @candidate_id 0 then), or unassigned (0, NULL). Like the other
 * edits it ends in "changed" or "error". */
void procura_document_import_rows      (ProcuraDocument        *self,
                                        ProcuraImportResult    *result,
                                        gint64                  candidate_id,
                                        ProcuraCandidate       *new_candidate);

/* A deletion that procura_document_undo() can still bring back, made outside this
 * document: by `procura candidate remove`, another Procura, or a window that did not
 * purge it. */
typedef struct {
  gint64  token;      /* for procura_document_undo() */
  char   *kind;       /* "candidate" or "run" */
  char   *name;       /* the candidate's name or the run's label; may be NULL */
  char   *created;    /* when it was removed (ISO 8601); may be NULL */
  guint   n_runs;     /* benchmark runs removed with it */
} ProcuraRemoval;

/* The removals made outside this document that are still pending (ProcuraRemoval*),
 * oldest first; valid until the next "changed". Never NULL. */
GPtrArray *procura_document_get_outside_removals (ProcuraDocument *self);

/* Copies the project file (with its write-ahead log) to @destination, in a thread,
 * between two store calls (save as). */
void      procura_document_save_copy_async  (ProcuraDocument     *self,
                                             const char          *destination,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
gboolean  procura_document_save_copy_finish (ProcuraDocument     *self,
                                             GAsyncResult        *result,
                                             GError             **error);

/* Imports @files (GFile*) one after the other in a thread; @progress (0..1) is
 * reported on the main thread. The result is a GStrv of per-file error messages
 * ("file: reason"); an empty vector when everything was imported. */
typedef void (*ProcuraImportProgress) (double fraction, const char *file_name, gpointer user_data);
void      procura_document_import_async  (ProcuraDocument       *self,
                                          GPtrArray             *files,
                                          GCancellable          *cancellable,
                                          ProcuraImportProgress  progress,
                                          GAsyncReadyCallback    callback,
                                          gpointer               user_data);
/* Returns the number of files imported; @errors receives the failures. */
guint     procura_document_import_finish (ProcuraDocument  *self,
                                          GAsyncResult     *result,
                                          char           ***errors,
                                          GError          **error);

/* The what-if of the Compare page's target and demand controls, as one sentence, or
 * NULL when they are the brief's: the Decision page and the slides show it as such.
 * "what-if-changed" is emitted when it changes. Not stored in the project. */
/* The per-request samples of @metrics (NULL-terminated, may be empty) of run @run_id,
 * and the kept sorted quantile summary of @summary_metric (may be NULL) instead of its
 * samples, read in a thread (a run's samples are loaded only when a view needs them,
 * never with the snapshot). _finish returns a new run holding only them (its id
 * @run_id), or NULL. */
void        procura_document_load_run_samples_async  (ProcuraDocument      *self,
                                                      gint64                run_id,
                                                      const char           *summary_metric,
                                                      const char * const   *metrics,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
ProcuraRun *procura_document_load_run_samples_finish (ProcuraDocument      *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);

void        procura_document_set_what_if (ProcuraDocument *self,
                                          const char      *what_if);
const char *procura_document_get_what_if (ProcuraDocument *self);

G_END_DECLS
