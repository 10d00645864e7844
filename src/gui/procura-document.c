/* procura-document.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-document"

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "procura-document.h"
#include "procura-probe-fleet.h"
#include "procura-store.h"
#include "procura-demo.h"

struct _ProcuraDocument
{
  GObject          parent_instance;

  char            *path;
  ProcuraStore    *store;
  ProcuraProject  *project;
  GMutex           lock;        /* one store call at a time */
  guint            busy;
  gboolean         read_only;
  char            *read_only_reason;
  guint            holds;       /* snapshots in use by threads */
  GPtrArray       *retired;     /* snapshots replaced while held */
  GThread         *owner;       /* the main thread: holds are counted there only */
  GArray          *own_tokens;  /* undo tokens of the deletions made here (gint64) */
  GHashTable      *removed_items; /* negative undo token → ProcuraChecklistItem* */
  gint64           last_item_token;
  GPtrArray       *removals;    /* ProcuraRemoval*: pending, made elsewhere */
  char            *what_if;     /* the Compare page's what-if, NULL when none */
  GPtrArray       *edit_undo;   /* EditStep*: the edits Ctrl+Z takes back, newest last */
  GPtrArray       *edit_redo;   /* EditStep*: the edits it took back, newest last */
};

G_DEFINE_FINAL_TYPE (ProcuraDocument, procura_document, G_TYPE_OBJECT)

/* The snapshot: stats, and the sorted quantile summary of the brief's metric (a megabyte
 * at most per run) so that the CDF figure is drawn from the samples without them; the
 * samples themselves only when a view asks (procura_document_load_run_samples_async). */
#define DOCUMENT_LOAD PROCURA_STORE_LOAD_SLO_QUANTILES

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

enum {
  SIGNAL_CHANGED,
  SIGNAL_ERROR,
  SIGNAL_DELETED,
  SIGNAL_WHAT_IF_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
set_busy (ProcuraDocument *self,
          int              delta)
{
  gboolean was = self->busy > 0;

  self->busy += delta;
  if (was != (self->busy > 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
replace_project (ProcuraDocument *self,
                 ProcuraProject  *project)
{
  if (self->holds > 0)
    g_ptr_array_add (self->retired, g_steal_pointer (&self->project));
  else
    g_clear_pointer (&self->project, procura_project_free);
  self->project = project;
}

ProcuraProject *
procura_document_hold_project (ProcuraDocument *self)
{
  g_return_val_if_fail (PROCURA_IS_DOCUMENT (self), NULL);
  self->holds++;
  g_object_ref (self);
  return self->project;
}

static gboolean
release_project_idle (gpointer user_data)
{
  procura_document_release_project (user_data);
  return G_SOURCE_REMOVE;
}

void
procura_document_release_project (ProcuraDocument *self)
{
  g_return_if_fail (PROCURA_IS_DOCUMENT (self));

  /* The pages release their hold from a GTask's task-data free function, and a GTask
   * is finalized in its worker thread whenever the worker drops the last reference
   * (the main loop ran the callback first: a loaded machine). The counter, the retired
   * snapshots and the last reference of the document belong to the main thread: hand
   * the release over to it. The hold's own reference keeps @self alive meanwhile. */
  if (g_thread_self () != self->owner)
    {
      GSource *source = g_idle_source_new ();

      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, release_project_idle, self, NULL);
      g_source_set_static_name (source, "[procura] release project");
      g_source_attach (source, NULL);
      g_source_unref (source);
      return;
    }
  g_return_if_fail (self->holds > 0);
  if (--self->holds == 0)
    g_ptr_array_set_size (self->retired, 0);
  g_object_unref (self);
}

/* ------------------------------------------------------------------------- */
/* Pending removals                                                           */

static void
removal_free (ProcuraRemoval *r)
{
  g_free (r->kind);
  g_free (r->name);
  g_free (r->created);
  g_free (r);
}

static GPtrArray *
removals_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) removal_free);
}

/* In a store thread: every pending deletion, as ProcuraRemoval*. A file that cannot
 * list them only loses the offer to restore them. */
static GPtrArray *
load_removals (ProcuraStore *store)
{
  GPtrArray *removals = removals_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) entries = procura_store_list_undo_entries (store, &error);

  if (entries == NULL)
    {
      g_debug ("cannot list the pending deletions: %s", error->message);
      return removals;
    }
  for (guint i = 0; i < entries->len; i++)
    {
      ProcuraUndoEntry *e = g_ptr_array_index (entries, i);
      ProcuraRemoval *r = g_new0 (ProcuraRemoval, 1);

      r->token = e->token;
      r->kind = g_strdup (e->kind);
      r->name = g_strdup (e->name);
      r->created = g_strdup (e->created);
      r->n_runs = e->n_runs;
      g_ptr_array_add (removals, r);
    }
  return removals;
}

/* On the main thread: keeps those of @all that this document did not make. */
static void
replace_removals (ProcuraDocument *self,
                  GPtrArray       *all)
{
  g_clear_pointer (&self->removals, g_ptr_array_unref);
  self->removals = removals_new ();
  if (all == NULL)
    return;
  for (guint i = 0; i < all->len; i++)
    {
      ProcuraRemoval *r = g_ptr_array_index (all, i);
      gboolean own = FALSE;

      for (guint k = 0; k < self->own_tokens->len && !own; k++)
        own = g_array_index (self->own_tokens, gint64, k) == r->token;
      if (!own)
        g_ptr_array_add (self->removals, g_ptr_array_steal_index (all, i--));
    }
}

GPtrArray *
procura_document_get_outside_removals (ProcuraDocument *self)
{
  g_return_val_if_fail (PROCURA_IS_DOCUMENT (self), NULL);
  return self->removals;
}

/* ------------------------------------------------------------------------- */
/* Opening                                                                    */

typedef struct {
  char           *path;
  gboolean        create;
  ProcuraStore   *store;
  ProcuraProject *project;
  GPtrArray      *removals;
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_clear_pointer (&data->store, procura_store_close);
  g_clear_pointer (&data->project, procura_project_free);
  g_clear_pointer (&data->removals, g_ptr_array_unref);
  g_free (data->path);
  g_free (data);
}

static void
open_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  OpenData *data = task_data;
  GError *error = NULL;

  if (data->create)
    {
      g_autofree char *base = g_path_get_basename (data->path);
      char *dot = strrchr (base, '.');

      if (dot != NULL && dot != base)
        *dot = '\0';
      data->store = procura_store_create (data->path, base, &error);
    }
  else
    data->store = procura_store_open (data->path, PROCURA_STORE_OPEN_DEFAULT, &error);
  if (data->store == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  data->project = procura_store_load_project (data->store, DOCUMENT_LOAD, &error);
  if (data->project == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  data->removals = load_removals (data->store);
  g_task_return_boolean (task, TRUE);
}

void
procura_document_open_async (const char          *path,
                             gboolean             create,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  OpenData *data = g_new0 (OpenData, 1);

  data->path = g_strdup (path);
  data->create = create;
  g_task_set_task_data (task, data, (GDestroyNotify) open_data_free);
  g_task_run_in_thread (task, open_thread);
}

ProcuraDocument *
procura_document_open_finish (GAsyncResult  *result,
                              GError       **error)
{
  OpenData *data;
  ProcuraDocument *self;

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;
  data = g_task_get_task_data (G_TASK (result));
  self = g_object_new (PROCURA_TYPE_DOCUMENT, NULL);
  self->path = g_strdup (data->path);
  self->store = g_steal_pointer (&data->store);
  replace_project (self, g_steal_pointer (&data->project));   /* frees the empty one of init */
  replace_removals (self, data->removals);
  self->read_only = procura_store_is_read_only (self->store);
  self->read_only_reason = g_strdup (procura_store_get_read_only_reason (self->store));
  return self;
}

static void
demo_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  const char *path = task_data;
  g_autofree char *dir = g_path_get_dirname (path);
  GError *error = NULL;

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;
      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved),
                               _("Cannot create the folder “%s”: %s"), dir, g_strerror (saved));
      return;
    }
  g_unlink (path);
  if (!procura_demo_write (path, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
procura_document_write_demo_async (const char          *path,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, demo_thread);
}

gboolean
procura_document_write_demo_finish (GAsyncResult  *result,
                                    GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------- */
/* Edits                                                                      */

typedef gboolean (*StoreOp) (ProcuraStore *store,
                             gpointer      data,
                             gint64       *undo_token,
                             GError      **error);

/* One edit Ctrl+Z can take back: the row as it was and as it became. Undo writes
 * @before, redo @after; the edit's kind says which store call writes it. */
typedef enum {
  STEP_BRIEF,        /* ProcuraBrief* */
  STEP_CANDIDATE,    /* ProcuraCandidate*: every field (name, price, quote, ...) */
  STEP_RUN,          /* gint64[2]: the run's id and the candidate it is assigned to */
} StepKind;

typedef struct {
  StepKind kind;
  gpointer before;
  gpointer after;
} EditStep;

/* Where a step goes once its write succeeded. */
typedef enum {
  STACK_NEW_EDIT,    /* onto the undo stack; the redo stack is emptied */
  STACK_UNDONE,      /* onto the redo stack */
  STACK_REDONE,      /* back onto the undo stack */
} StepStack;

static void
step_value_free (StepKind kind,
                 gpointer value)
{
  if (value == NULL)
    return;
  switch (kind)
    {
    case STEP_BRIEF:
      procura_brief_free (value);
      break;
    case STEP_CANDIDATE:
      procura_candidate_free (value);
      break;
    case STEP_RUN:
    default:
      g_free (value);
      break;
    }
}

static gpointer
step_value_copy (StepKind      kind,
                 gconstpointer value)
{
  switch (kind)
    {
    case STEP_BRIEF:
      return procura_brief_copy (value);
    case STEP_CANDIDATE:
      return procura_candidate_copy (value);
    case STEP_RUN:
    default:
      return g_memdup2 (value, 2 * sizeof (gint64));
    }
}

static void
edit_step_free (EditStep *step)
{
  step_value_free (step->kind, step->before);
  step_value_free (step->kind, step->after);
  g_free (step);
}

static EditStep *
edit_step_new (StepKind      kind,
               gconstpointer before,
               gconstpointer after)
{
  EditStep *step = g_new0 (EditStep, 1);

  step->kind = kind;
  step->before = step_value_copy (kind, before);
  step->after = step_value_copy (kind, after);
  return step;
}

typedef struct {
  StoreOp         op;
  gpointer        data;
  GDestroyNotify  data_free;
  char           *deleted_message;   /* non-NULL: emit "deleted" with the token */
  gint64          token;
  ProcuraProject *project;           /* reloaded after the write */
  GPtrArray      *removals;          /* and the pending deletions */
  EditStep       *step;              /* non-NULL: pushed on a stack once written */
  StepStack       stack;
} EditData;

static void
edit_data_free (EditData *data)
{
  if (data->data_free != NULL)
    data->data_free (data->data);
  g_clear_pointer (&data->project, procura_project_free);
  g_clear_pointer (&data->removals, g_ptr_array_unref);
  g_clear_pointer (&data->step, edit_step_free);
  g_free (data->deleted_message);
  g_free (data);
}

static void
edit_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  ProcuraDocument *self = source_object;
  EditData *data = task_data;
  GError *error = NULL;

  g_mutex_lock (&self->lock);
  if (!data->op (self->store, data->data, &data->token, &error))
    {
      g_mutex_unlock (&self->lock);
      g_task_return_error (task, error);
      return;
    }
  data->project = procura_store_load_project (self->store, DOCUMENT_LOAD, &error);
  data->removals = load_removals (self->store);
  g_mutex_unlock (&self->lock);
  if (data->project == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* How many edits back Ctrl+Z goes. */
#define EDIT_UNDO_DEPTH 50

static void
push_step (ProcuraDocument *self,
           EditStep        *step,
           StepStack        stack)
{
  GPtrArray *to = stack == STACK_UNDONE ? self->edit_redo : self->edit_undo;

  if (stack == STACK_NEW_EDIT)
    g_ptr_array_set_size (self->edit_redo, 0);
  if (to->len >= EDIT_UNDO_DEPTH)
    g_ptr_array_remove_index (to, 0);
  g_ptr_array_add (to, step);
}

static void
edit_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  ProcuraDocument *self = PROCURA_DOCUMENT (object);
  EditData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  set_busy (self, -1);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_signal_emit (self, signals[SIGNAL_ERROR], 0, error->message);
      return;
    }
  if (data->deleted_message != NULL)
    g_array_append_val (self->own_tokens, data->token);
  if (data->step != NULL)
    push_step (self, g_steal_pointer (&data->step), data->stack);
  replace_project (self, g_steal_pointer (&data->project));
  replace_removals (self, data->removals);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  if (data->deleted_message != NULL)
    g_signal_emit (self, signals[SIGNAL_DELETED], 0, data->deleted_message, data->token);
}

static void
run_edit_step (ProcuraDocument *self,
               StoreOp          op,
               gpointer         data,
               GDestroyNotify   data_free,
               char            *deleted_message,
               EditStep        *step,
               StepStack        stack)
{
  g_autoptr (GTask) task = NULL;
  EditData *edit;

  if (self->store == NULL || self->read_only)
    {
      if (data_free != NULL)
        data_free (data);
      g_free (deleted_message);
      g_clear_pointer (&step, edit_step_free);
      g_signal_emit (self, signals[SIGNAL_ERROR], 0,
                     self->read_only_reason != NULL
                       ? self->read_only_reason
                       : _("This project is open read-only"));
      return;
    }
  edit = g_new0 (EditData, 1);
  edit->op = op;
  edit->data = data;
  edit->data_free = data_free;
  edit->deleted_message = deleted_message;
  edit->step = step;
  edit->stack = stack;
  task = g_task_new (self, NULL, edit_done_cb, NULL);
  g_task_set_task_data (task, edit, (GDestroyNotify) edit_data_free);
  set_busy (self, +1);
  g_task_run_in_thread (task, edit_thread);
}

static void
run_edit (ProcuraDocument *self,
          StoreOp          op,
          gpointer         data,
          GDestroyNotify   data_free,
          char            *deleted_message)
{
  run_edit_step (self, op, data, data_free, deleted_message, NULL, STACK_NEW_EDIT);
}

static gboolean
op_save_brief (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  return procura_store_save_brief (store, data, error);
}

static gboolean
op_save_decision (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  return procura_store_save_decision (store, data, error);
}

static gboolean
op_answer_warning (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  const ProcuraWarningAnswer *a = data;

  return procura_store_answer_warning (store, a->warning_id, a->candidate_id, a->answer, error);
}

static gboolean
op_update_candidate (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  return procura_store_update_candidate (store, data, error);
}

static gboolean
op_add_candidate (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  return procura_store_add_candidate (store, data, error) > 0;
}

typedef struct {
  GPtrArray *reports;     /* ProcuraProbeReport* */
  GStrv      candidates;  /* one per report ("" none), or NULL */
} FleetSave;

static void
fleet_save_free (FleetSave *save)
{
  g_ptr_array_unref (save->reports);
  g_strfreev (save->candidates);
  g_free (save);
}

static gboolean
op_save_probe_fleet (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  FleetSave *save = data;

  return procura_probe_fleet_store (store, save->reports, (const char * const *) save->candidates,
                                    NULL, NULL, error);
}

static gboolean
op_update_ops_test (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  const ProcuraOpsTest *test = data;

  if (test->id > 0)
    return procura_store_update_ops_test (store, test, error);
  return procura_store_add_ops_test (store, test, error) > 0;
}

static gboolean
op_update_checklist (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  const ProcuraChecklistItem *item = data;

  if (item->id > 0)
    return procura_store_update_checklist_item (store, item, error);
  return procura_store_add_checklist_item (store, item, error) > 0;
}

typedef struct {
  gint64 id;
  gint64 token;
} ItemDeletion;

static gboolean
op_delete_checklist (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  const ItemDeletion *d = data;

  if (!procura_store_delete_checklist_item (store, d->id, error))
    return FALSE;
  *token = d->token;
  return TRUE;
}

static gboolean
op_delete_candidate (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  return procura_store_delete_candidate (store, *(gint64 *) data, token, error);
}

static gboolean
op_delete_run (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  return procura_store_delete_run (store, *(gint64 *) data, token, error);
}

static gboolean
op_undo (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  return procura_store_undo (store, *(gint64 *) data, error);
}

static gboolean
op_assign_run (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  const gint64 *ids = data;
  return procura_store_assign_run (store, ids[0], ids[1], error);
}

static gint64 *
dup_id (gint64 id)
{
  return g_memdup2 (&id, sizeof id);
}

static void
decision_free (ProcuraDecision *d)
{
  procura_decision_clear (d);
  g_free (d);
}

static void
ops_test_free (gpointer p)
{
  procura_ops_test_free (p);
}

static void
checklist_free (gpointer p)
{
  procura_checklist_item_free (p);
}

/* Writes @value (a step's before or after, copied) with the store call of its kind;
 * the step then goes onto @stack. */
static void
write_step_value (ProcuraDocument *self,
                  EditStep        *step,
                  gconstpointer    value,
                  StepStack        stack)
{
  switch (step->kind)
    {
    case STEP_BRIEF:
      run_edit_step (self, op_save_brief, procura_brief_copy (value),
                     (GDestroyNotify) procura_brief_free, NULL, step, stack);
      break;
    case STEP_CANDIDATE:
      run_edit_step (self, op_update_candidate, procura_candidate_copy (value),
                     (GDestroyNotify) procura_candidate_free, NULL, step, stack);
      break;
    case STEP_RUN:
    default:
      run_edit_step (self, op_assign_run, g_memdup2 (value, 2 * sizeof (gint64)), g_free,
                     NULL, step, stack);
      break;
    }
}

void
procura_document_save_brief (ProcuraDocument    *self,
                             const ProcuraBrief *brief)
{
  EditStep *step = NULL;

  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  /* the brief as it was, for procura_document_undo_edit() */
  if (self->project != NULL && self->project->brief != NULL)
    step = edit_step_new (STEP_BRIEF, self->project->brief, brief);
  run_edit_step (self, op_save_brief, procura_brief_copy (brief),
                 (GDestroyNotify) procura_brief_free, NULL, step, STACK_NEW_EDIT);
}

gboolean
procura_document_can_undo_edit (ProcuraDocument *self)
{
  g_return_val_if_fail (PROCURA_IS_DOCUMENT (self), FALSE);
  return self->edit_undo->len > 0 && !self->read_only;
}

gboolean
procura_document_can_redo_edit (ProcuraDocument *self)
{
  g_return_val_if_fail (PROCURA_IS_DOCUMENT (self), FALSE);
  return self->edit_redo->len > 0 && !self->read_only;
}

gboolean
procura_document_undo_edit (ProcuraDocument *self)
{
  EditStep *step;

  g_return_val_if_fail (PROCURA_IS_DOCUMENT (self), FALSE);
  if (!procura_document_can_undo_edit (self))
    return FALSE;
  step = g_ptr_array_steal_index (self->edit_undo, self->edit_undo->len - 1);
  /* written as an edit of its own, then offered to redo (not to undo again) */
  write_step_value (self, step, step->before, STACK_UNDONE);
  return TRUE;
}

gboolean
procura_document_redo_edit (ProcuraDocument *self)
{
  EditStep *step;

  g_return_val_if_fail (PROCURA_IS_DOCUMENT (self), FALSE);
  if (!procura_document_can_redo_edit (self))
    return FALSE;
  step = g_ptr_array_steal_index (self->edit_redo, self->edit_redo->len - 1);
  write_step_value (self, step, step->after, STACK_REDONE);
  return TRUE;
}

void
procura_document_save_decision (ProcuraDocument       *self,
                                const ProcuraDecision *decision)
{
  ProcuraDecision *copy = g_new0 (ProcuraDecision, 1);

  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  copy->candidate_id = decision->candidate_id;
  copy->overflow_candidate_id = decision->overflow_candidate_id;
  copy->rationale = g_strdup (decision->rationale);
  copy->approver = g_strdup (decision->approver);
  copy->date = g_strdup (decision->date);
  run_edit (self, op_save_decision, copy, (GDestroyNotify) decision_free, NULL);
}

void
procura_document_answer_warning (ProcuraDocument *self,
                                 const char      *warning_id,
                                 gint64           candidate_id,
                                 const char      *answer)
{
  ProcuraWarningAnswer *copy;

  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  g_return_if_fail (warning_id != NULL);
  copy = procura_warning_answer_new ();
  copy->warning_id = g_strdup (warning_id);
  copy->candidate_id = candidate_id;
  copy->answer = g_strdup (answer);
  run_edit (self, op_answer_warning, copy, (GDestroyNotify) procura_warning_answer_free, NULL);
}

void
procura_document_update_candidate (ProcuraDocument        *self,
                                   const ProcuraCandidate *candidate)
{
  const ProcuraCandidate *before;
  EditStep *step = NULL;

  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  /* the candidate as it was (its name, price, quote, ...), for Ctrl+Z */
  before = procura_project_find_candidate (self->project, candidate->id);
  if (before != NULL)
    step = edit_step_new (STEP_CANDIDATE, before, candidate);
  run_edit_step (self, op_update_candidate, procura_candidate_copy (candidate),
                 (GDestroyNotify) procura_candidate_free, NULL, step, STACK_NEW_EDIT);
}

void
procura_document_add_candidate (ProcuraDocument        *self,
                                const ProcuraCandidate *candidate)
{
  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  run_edit (self, op_add_candidate, procura_candidate_copy (candidate),
            (GDestroyNotify) procura_candidate_free, NULL);
}

void
procura_document_save_probe_fleet (ProcuraDocument    *self,
                                   GPtrArray          *reports,
                                   const char * const *candidates)
{
  FleetSave *save;

  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  g_return_if_fail (reports != NULL);
  save = g_new0 (FleetSave, 1);
  save->reports = g_ptr_array_ref (reports);
  if (candidates != NULL)
    {
      save->candidates = g_new0 (char *, reports->len + 1);
      for (guint i = 0; i < reports->len; i++)
        save->candidates[i] = g_strdup (candidates[i] != NULL ? candidates[i] : "");
    }
  run_edit (self, op_save_probe_fleet, save, (GDestroyNotify) fleet_save_free, NULL);
}

void
procura_document_update_ops_test (ProcuraDocument      *self,
                                  const ProcuraOpsTest *test)
{
  ProcuraOpsTest *copy = procura_ops_test_new ();

  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  copy->id = test->id;
  copy->candidate_id = test->candidate_id;
  copy->kind = g_strdup (test->kind);
  copy->result = g_strdup (test->result);
  copy->recovery_s = test->recovery_s;
  copy->failed_requests = test->failed_requests;
  copy->per_month = test->per_month;
  copy->notes = g_strdup (test->notes);
  run_edit (self, op_update_ops_test, copy, ops_test_free, NULL);
}

void
procura_document_update_checklist_item (ProcuraDocument            *self,
                                        const ProcuraChecklistItem *item)
{
  ProcuraChecklistItem *copy = procura_checklist_item_new ();

  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  copy->id = item->id;
  copy->candidate_id = item->candidate_id;
  copy->section = g_strdup (item->section);
  copy->item = g_strdup (item->item);
  copy->answer = g_strdup (item->answer);
  copy->evidence = g_strdup (item->evidence);
  copy->evidence_file = g_strdup (item->evidence_file);
  run_edit (self, op_update_checklist, copy, checklist_free, NULL);
}

static ProcuraChecklistItem *
find_checklist_item (ProcuraProject *project,
                     gint64          id)
{
  for (guint i = 0; i < project->checklist->len; i++)
    {
      ProcuraChecklistItem *item = g_ptr_array_index (project->checklist, i);
      if (item->id == id)
        return item;
    }
  return NULL;
}

void
procura_document_delete_checklist_item (ProcuraDocument *self,
                                        gint64           item_id)
{
  ProcuraChecklistItem *item, *copy;
  ItemDeletion *d;
  char *message;

  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  item = find_checklist_item (self->project, item_id);
  if (item == NULL)
    {
      g_signal_emit (self, signals[SIGNAL_ERROR], 0, _("This checklist item no longer exists"));
      return;
    }
  /* The store removes the row for good: the document keeps a copy for the undo, under a
   * negative token (the store's are positive). */
  copy = procura_checklist_item_new ();
  copy->candidate_id = item->candidate_id;
  copy->section = g_strdup (item->section);
  copy->item = g_strdup (item->item);
  copy->answer = g_strdup (item->answer);
  copy->evidence = g_strdup (item->evidence);
  copy->evidence_file = g_strdup (item->evidence_file);
  d = g_new0 (ItemDeletion, 1);
  d->id = item_id;
  d->token = --self->last_item_token;
  g_hash_table_insert (self->removed_items, g_memdup2 (&d->token, sizeof d->token), copy);
  /* Translators: a toast after removing a checklist item, with an Undo button */
  message = g_strdup_printf (_("Checklist item “%s” removed"), item->item != NULL ? item->item : "");
  run_edit (self, op_delete_checklist, d, g_free, message);
}

void
procura_document_delete_candidate (ProcuraDocument *self,
                                   gint64           candidate_id)
{
  ProcuraCandidate *c;
  char *message;

  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  c = procura_project_find_candidate (self->project, candidate_id);
  /* Translators: a toast after deleting a candidate, with an Undo button */
  message = g_strdup_printf (_("“%s” deleted"), c != NULL && c->name != NULL ? c->name : "");
  run_edit (self, op_delete_candidate, dup_id (candidate_id), g_free, message);
}

void
procura_document_delete_run (ProcuraDocument *self,
                             gint64           run_id)
{
  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  run_edit (self, op_delete_run, dup_id (run_id), g_free, g_strdup (_("Benchmark run deleted")));
}

void
procura_document_undo (ProcuraDocument *self,
                       gint64           undo_token)
{
  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  if (undo_token < 0)
    {
      ProcuraChecklistItem *item = g_hash_table_lookup (self->removed_items, &undo_token);

      if (item == NULL)
        {
          g_signal_emit (self, signals[SIGNAL_ERROR], 0, _("Nothing to undo"));
          return;
        }
      procura_document_update_checklist_item (self, item);
      g_hash_table_remove (self->removed_items, &undo_token);
      return;
    }
  run_edit (self, op_undo, dup_id (undo_token), g_free, NULL);
}

void
procura_document_assign_run (ProcuraDocument *self,
                             gint64           run_id,
                             gint64           candidate_id)
{
  gint64 *ids = g_new (gint64, 2);
  EditStep *step = NULL;

  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  ids[0] = run_id;
  ids[1] = candidate_id;
  /* the candidate it was assigned to, for Ctrl+Z */
  for (guint i = 0; self->project->runs != NULL && i < self->project->runs->len; i++)
    {
      const ProcuraRun *run = g_ptr_array_index (self->project->runs, i);

      if (run->id == run_id)
        {
          gint64 before[2] = { run_id, run->candidate_id };

          step = edit_step_new (STEP_RUN, before, ids);
          break;
        }
    }
  run_edit_step (self, op_assign_run, ids, g_free, NULL, step, STACK_NEW_EDIT);
}

/* Rows picked from a parsed file (published results): one transaction, with the new
 * candidate when there is one */
typedef struct {
  GPtrArray        *results;        /* ProcuraImportResult* */
  gint64            candidate_id;
  ProcuraCandidate *new_candidate;  /* NULL for none */
} RowsImport;

static void
rows_import_free (gpointer p)
{
  RowsImport *r = p;

  g_ptr_array_unref (r->results);
  g_clear_pointer (&r->new_candidate, procura_candidate_free);
  g_free (r);
}

static gboolean
op_import_rows (ProcuraStore *store, gpointer data, gint64 *token, GError **error)
{
  RowsImport *r = data;
  return procura_store_import_all (store, r->results, r->candidate_id, r->new_candidate, NULL, error);
}

void
procura_document_import_rows (ProcuraDocument     *self,
                              ProcuraImportResult *result,
                              gint64               candidate_id,
                              ProcuraCandidate    *new_candidate)
{
  RowsImport *r;

  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  g_return_if_fail (result != NULL);
  g_return_if_fail (new_candidate == NULL || candidate_id == 0);
  r = g_new0 (RowsImport, 1);
  r->results = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_import_result_free);
  g_ptr_array_add (r->results, result);
  r->candidate_id = candidate_id;
  r->new_candidate = new_candidate;
  run_edit (self, op_import_rows, r, rows_import_free, NULL);
}

/* ------------------------------------------------------------------------- */
/* Imports                                                                    */

typedef struct {
  GPtrArray             *files;     /* GFile* */
  ProcuraImportProgress  progress;
  gpointer               progress_data;
  GStrvBuilder          *errors;
  guint                  imported;
  ProcuraProject        *project;
} ImportData;

typedef struct {
  ProcuraImportProgress  progress;
  gpointer               progress_data;
  double                 fraction;
  char                  *name;
} ProgressData;

static void
import_data_free (ImportData *data)
{
  g_ptr_array_unref (data->files);
  g_strv_builder_unref (data->errors);
  g_clear_pointer (&data->project, procura_project_free);
  g_free (data);
}

static gboolean
progress_idle (gpointer user_data)
{
  ProgressData *p = user_data;

  p->progress (p->fraction, p->name, p->progress_data);
  return G_SOURCE_REMOVE;
}

static void
progress_data_free (gpointer user_data)
{
  ProgressData *p = user_data;

  g_free (p->name);
  g_free (p);
}

static void
report_progress (GTask      *task,
                 ImportData *data,
                 double      fraction,
                 const char *name)
{
  ProgressData *p;

  if (data->progress == NULL)
    return;
  p = g_new0 (ProgressData, 1);
  p->progress = data->progress;
  p->progress_data = data->progress_data;
  p->fraction = fraction;
  p->name = g_strdup (name);
  g_main_context_invoke_full (g_task_get_context (task), G_PRIORITY_DEFAULT,
                              progress_idle, p, progress_data_free);
}

static void
import_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ProcuraDocument *self = source_object;
  ImportData *data = task_data;
  GError *error = NULL;

  (void) self;
  for (guint i = 0; i < data->files->len; i++)
    {
      GFile *file = g_ptr_array_index (data->files, i);
      g_autofree char *path = g_file_get_path (file);
      g_autofree char *name = g_file_get_basename (file);
      g_autoptr (ProcuraImportResult) result = NULL;
      g_autoptr (GError) local = NULL;

      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      report_progress (task, data, (double) i / data->files->len, name);
      if (path == NULL)
        {
          g_autofree char *message = g_strdup_printf (_("%s: not a local file"), name);

          g_strv_builder_add (data->errors, message);
          continue;
        }
      result = procura_import_file (path, NULL, cancellable, &local);
      if (result != NULL)
        {
          g_mutex_lock (&self->lock);
          if (procura_store_import (self->store, result, 0, &local))
            data->imported++;
          g_mutex_unlock (&self->lock);
        }
      if (local != NULL)
        {
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED)
              || g_error_matches (local, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_CANCELLED))
            {
              g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", local->message);
              return;
            }
          g_autofree char *message = NULL;

          /* Translators: "file name: reason" */
          message = g_strdup_printf (_("%s: %s"), name, local->message);
          g_strv_builder_add (data->errors, message);
        }
    }
  report_progress (task, data, 1.0, NULL);
  g_mutex_lock (&self->lock);
  data->project = procura_store_load_project (self->store, DOCUMENT_LOAD, &error);
  g_mutex_unlock (&self->lock);
  if (data->project == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

void
procura_document_import_async (ProcuraDocument       *self,
                               GPtrArray             *files,
                               GCancellable          *cancellable,
                               ProcuraImportProgress  progress,
                               GAsyncReadyCallback    callback,
                               gpointer               user_data)
{
  g_autoptr (GTask) task = NULL;
  ImportData *data;

  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  task = g_task_new (self, cancellable, callback, user_data);
  if (self->read_only)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_READ_ONLY, "%s",
                               self->read_only_reason != NULL
                                 ? self->read_only_reason
                                 : _("This project is open read-only"));
      return;
    }
  data = g_new0 (ImportData, 1);
  data->files = g_ptr_array_ref (files);
  data->progress = progress;
  data->progress_data = user_data;
  data->errors = g_strv_builder_new ();
  g_task_set_task_data (task, data, (GDestroyNotify) import_data_free);
  set_busy (self, +1);
  g_task_run_in_thread (task, import_thread);
}

guint
procura_document_import_finish (ProcuraDocument  *self,
                                GAsyncResult     *result,
                                char           ***errors,
                                GError          **error)
{
  ImportData *data = g_task_get_task_data (G_TASK (result));
  gboolean ok;

  ok = g_task_propagate_boolean (G_TASK (result), error);
  if (data != NULL)
    set_busy (self, -1);
  if (!ok)
    {
      /* Whatever was stored before the cancel stays; reload lazily on the next edit. */
      return 0;
    }
  if (errors != NULL)
    *errors = g_strv_builder_end (data->errors);
  if (data->project != NULL)
    {
      replace_project (self, g_steal_pointer (&data->project));
      g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
    }
  return data->imported;
}

/* ------------------------------------------------------------------------- */
/* Save as                                                                    */

static gboolean
copy_file (const char  *from,
           const char  *to,
           GError     **error)
{
  g_autoptr (GFile) source = g_file_new_for_path (from);
  g_autoptr (GFile) destination = g_file_new_for_path (to);

  return g_file_copy (source, destination, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, error);
}

static void
copy_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  ProcuraDocument *self = source_object;
  const char *destination = task_data;
  g_autofree char *wal = g_strconcat (self->path, "-wal", NULL);
  g_autofree char *destination_wal = g_strconcat (destination, "-wal", NULL);
  GError *error = NULL;

  /* Under the store's lock no write is half done; the write-ahead log goes with the
   * file so that the copy holds every change. */
  g_mutex_lock (&self->lock);
  g_unlink (destination_wal);
  if (copy_file (self->path, destination, &error)
      && (!g_file_test (wal, G_FILE_TEST_EXISTS) || copy_file (wal, destination_wal, &error)))
    {
      g_mutex_unlock (&self->lock);
      g_task_return_boolean (task, TRUE);
      return;
    }
  g_mutex_unlock (&self->lock);
  g_task_return_error (task, error);
}

void
procura_document_save_copy_async (ProcuraDocument     *self,
                                  const char          *destination,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_task_data (task, g_strdup (destination), g_free);
  g_task_run_in_thread (task, copy_thread);
}

gboolean
procura_document_save_copy_finish (ProcuraDocument  *self,
                                   GAsyncResult     *result,
                                   GError          **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------- */

const char *
procura_document_get_path (ProcuraDocument *self)
{
  g_return_val_if_fail (PROCURA_IS_DOCUMENT (self), NULL);
  return self->path;
}

ProcuraProject *
procura_document_get_project (ProcuraDocument *self)
{
  g_return_val_if_fail (PROCURA_IS_DOCUMENT (self), NULL);
  return self->project;
}

gboolean
procura_document_get_read_only (ProcuraDocument *self)
{
  g_return_val_if_fail (PROCURA_IS_DOCUMENT (self), TRUE);
  return self->read_only;
}

const char *
procura_document_get_read_only_reason (ProcuraDocument *self)
{
  g_return_val_if_fail (PROCURA_IS_DOCUMENT (self), NULL);
  return self->read_only_reason;
}

gboolean
procura_document_get_busy (ProcuraDocument *self)
{
  g_return_val_if_fail (PROCURA_IS_DOCUMENT (self), FALSE);
  return self->busy > 0;
}

static void
procura_document_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  ProcuraDocument *self = PROCURA_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy > 0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
procura_document_finalize (GObject *object)
{
  ProcuraDocument *self = PROCURA_DOCUMENT (object);

  if (self->store != NULL && !self->read_only)
    procura_store_purge_deleted (self->store, NULL);
  g_clear_pointer (&self->store, procura_store_close);
  g_clear_pointer (&self->project, procura_project_free);
  g_clear_pointer (&self->retired, g_ptr_array_unref);
  g_clear_pointer (&self->own_tokens, g_array_unref);
  g_clear_pointer (&self->removed_items, g_hash_table_unref);
  g_clear_pointer (&self->edit_undo, g_ptr_array_unref);
  g_clear_pointer (&self->edit_redo, g_ptr_array_unref);
  g_clear_pointer (&self->removals, g_ptr_array_unref);
  g_free (self->path);
  g_free (self->read_only_reason);
  g_free (self->what_if);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (procura_document_parent_class)->finalize (object);
}

static void
procura_document_class_init (ProcuraDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = procura_document_finalize;
  object_class->get_property = procura_document_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_ERROR] =
    g_signal_new ("error", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_DELETED] =
    g_signal_new ("deleted", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_INT64);
  signals[SIGNAL_WHAT_IF_CHANGED] =
    g_signal_new ("what-if-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
procura_document_init (ProcuraDocument *self)
{
  g_mutex_init (&self->lock);
  self->owner = g_thread_self ();
  self->project = procura_project_new ();
  self->retired = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_project_free);
  self->own_tokens = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->removed_items = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                               (GDestroyNotify) procura_checklist_item_free);
  self->removals = removals_new ();
  self->edit_undo = g_ptr_array_new_with_free_func ((GDestroyNotify) edit_step_free);
  self->edit_redo = g_ptr_array_new_with_free_func ((GDestroyNotify) edit_step_free);
}

void
procura_document_set_what_if (ProcuraDocument *self,
                              const char      *what_if)
{
  g_return_if_fail (PROCURA_IS_DOCUMENT (self));
  if (g_strcmp0 (self->what_if, what_if) == 0)
    return;
  g_free (self->what_if);
  self->what_if = g_strdup (what_if);
  g_signal_emit (self, signals[SIGNAL_WHAT_IF_CHANGED], 0);
}

const char *
procura_document_get_what_if (ProcuraDocument *self)
{
  g_return_val_if_fail (PROCURA_IS_DOCUMENT (self), NULL);
  return self->what_if;
}

/* ------------------------------------------------------------------------- */
/* Per-request samples on demand                                              */

typedef struct {
  gint64  run_id;
  char   *summary_metric;
  char  **metrics;
} SamplesData;

static void
samples_data_free (SamplesData *data)
{
  g_free (data->summary_metric);
  g_strfreev (data->metrics);
  g_free (data);
}

static void
samples_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  ProcuraDocument *self = source_object;
  SamplesData *data = task_data;
  g_autoptr (ProcuraRun) run = procura_run_new ();
  GError *error = NULL;
  gboolean ok = TRUE;

  run->id = data->run_id;
  g_mutex_lock (&self->lock);
  if (self->store == NULL)
    ok = FALSE;
  /* the summary is what a distribution is drawn from: 65,536 order statistics read
   * instead of 25 M inter-token latencies (a run imported before summaries were kept
   * gets one made from its samples, kept when the project can be written) */
  if (ok && data->summary_metric != NULL && !g_cancellable_is_cancelled (cancellable))
    ok = procura_store_load_run_quantiles (self->store, run, data->summary_metric, &error);
  for (guint i = 0; ok && data->metrics[i] != NULL; i++)
    {
      if (g_cancellable_is_cancelled (cancellable))
        break;
      ok = procura_store_load_run_samples (self->store, run, data->metrics[i], &error);
    }
  g_mutex_unlock (&self->lock);
  if (g_task_return_error_if_cancelled (task))
    g_clear_error (&error);
  else if (!ok && error != NULL)
    g_task_return_error (task, error);
  else if (!ok)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CLOSED, "%s", _("The project is closed"));
  else
    g_task_return_pointer (task, g_steal_pointer (&run), (GDestroyNotify) procura_run_free);
}

void
procura_document_load_run_samples_async (ProcuraDocument     *self,
                                         gint64               run_id,
                                         const char          *summary_metric,
                                         const char * const  *metrics,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr (GTask) task = NULL;
  SamplesData *data;

  g_return_if_fail (PROCURA_IS_DOCUMENT (self) && metrics != NULL);
  data = g_new0 (SamplesData, 1);
  data->run_id = run_id;
  data->summary_metric = g_strdup (summary_metric);
  data->metrics = g_strdupv ((char **) metrics);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_task_data (task, data, (GDestroyNotify) samples_data_free);
  g_task_run_in_thread (task, samples_thread);
}

ProcuraRun *
procura_document_load_run_samples_finish (ProcuraDocument  *self,
                                          GAsyncResult     *result,
                                          GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
