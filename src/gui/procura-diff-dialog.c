/* procura-diff-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-diff-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "procura-busy-window.h"
#include "procura-diff-dialog.h"

static GtkWidget *
add_group (GtkWidget  *page,
           const char *title,
           const char *description)
{
  GtkWidget *group = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), title);
  if (description != NULL)
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group), description);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (group));
  return group;
}

static void
add_row (GtkWidget  *group,
         const char *title,
         const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  /* names and values come from the project: never markup */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  gtk_widget_add_css_class (row, "property");
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
}

static void
add_fields (GtkWidget  *page,
            const char *title,
            GPtrArray  *fields)
{
  GtkWidget *group;

  if (fields->len == 0)
    return;
  group = add_group (page, title, NULL);
  for (guint i = 0; i < fields->len; i++)
    {
      const ProcuraDiffField *f = g_ptr_array_index (fields, i);
      g_autofree char *arrow = procura_diff_field_arrow (f);
      add_row (group, f->column, arrow);
    }
}

static const char *
kind_label (ProcuraDiffKind kind)
{
  switch (kind)
    {
    case PROCURA_DIFF_ADDED:
      return _("Added");
    case PROCURA_DIFF_REMOVED:
      return _("Removed");
    case PROCURA_DIFF_CHANGED:
    default:
      return _("Changed");
    }
}

static void
add_items (GtkWidget  *page,
           const char *title,
           GPtrArray  *items)
{
  GtkWidget *group;

  if (items->len == 0)
    return;
  group = add_group (page, title, NULL);
  for (guint i = 0; i < items->len; i++)
    {
      const ProcuraDiffItem *it = g_ptr_array_index (items, i);
      g_autoptr (GString) sub = g_string_new (kind_label (it->kind));

      if (it->date != NULL)
        /* Translators: the date a price was seen */
        g_string_append_printf (sub, _(", seen %s"), it->date);
      if (it->file_name != NULL || it->candidate != NULL)
        /* Translators: a benchmark run: the candidate it belongs to and its file */
        g_string_append_printf (sub, _(" · %s · from %s"),
                                it->candidate != NULL ? it->candidate : _("unassigned"),
                                it->file_name != NULL ? it->file_name : "—");
      for (guint k = 0; k < it->fields->len; k++)
        {
          const ProcuraDiffField *f = g_ptr_array_index (it->fields, k);
          g_autofree char *arrow = procura_diff_field_arrow (f);
          g_string_append_printf (sub, "\n%s: %s", f->column, arrow);
        }
      add_row (group, it->name, sub->str);
    }
}

GtkWidget *
procura_diff_view_new (const ProcuraDiff *diff)
{
  GtkWidget *page = adw_preferences_page_new ();
  GtkWidget *group;
  g_autofree char *old_rec = NULL, *new_rec = NULL, *description = NULL;

  if (procura_diff_is_empty (diff))
    {
      group = add_group (page, _("No changes"),
                         _("The brief, the assumptions, the candidates, the quotes, the runs and every figure of "
                           "the analysis are as they were."));
      return page;
    }

  add_fields (page, _("Project"), diff->project);
  add_fields (page, _("Brief"), diff->brief);
  add_fields (page, _("Assumptions"), diff->assumptions);
  add_fields (page, _("Decision"), diff->decision);
  add_items (page, _("Candidates"), diff->candidates);
  add_items (page, _("Quotes"), diff->quotes);
  add_items (page, _("Benchmark runs"), diff->runs);

  if (g_strcmp0 (diff->old_target, diff->new_target) != 0)
    /* Translators: the latency target, old → new */
    description = g_strdup_printf (_("Latency target: %s → %s"), diff->old_target, diff->new_target);
  else
    /* Translators: the latency target */
    description = g_strdup_printf (_("Latency target: %s"), diff->new_target);
  group = add_group (page, _("Consequences"), description);
  if (procura_diff_n_changed_outcomes (diff) == 0)
    add_row (group, _("Every candidate"), _("Capacity, cost per accepted output and rank are unchanged"));
  for (guint i = 0; i < diff->outcomes->len; i++)
    {
      const ProcuraDiffOutcome *o = g_ptr_array_index (diff->outcomes, i);
      g_autofree char *old_rank = o->old_rank > 0 ? g_strdup_printf ("%d", o->old_rank) : g_strdup ("—");
      g_autofree char *new_rank = o->new_rank > 0 ? g_strdup_printf ("%d", o->new_rank) : g_strdup ("—");
      g_autofree char *sub = NULL;

      if (!o->changed)
        continue;
      /* Translators: the consequences for one candidate, each old → new */
      sub = g_strdup_printf (_("Capacity at target: %s → %s\nCost per accepted output: %s → %s\nRank: %s → %s"),
                             o->old_capacity_text, o->new_capacity_text, o->old_cost_text,
                             o->new_cost_text, old_rank, new_rank);
      add_row (group, o->name, sub);
    }

  old_rec = diff->old_recommended != NULL ? g_strdup_printf ("%s (%s)", diff->old_choice, diff->old_recommended)
                                          : g_strdup (diff->old_choice);
  new_rec = diff->new_recommended != NULL ? g_strdup_printf ("%s (%s)", diff->new_choice, diff->new_recommended)
                                          : g_strdup (diff->new_choice);
  group = add_group (page, _("Recommendation"), NULL);
  if (diff->recommendation_changed)
    {
      g_autofree char *arrow = g_strdup_printf ("%s → %s", old_rec, new_rec);
      add_row (group, _("Changed"), arrow);
    }
  else
    add_row (group, _("Unchanged"), new_rec);
  return page;
}

/* ------------------------------------------------------------------------- */

typedef struct {
  char *old_path;
  char *new_path;
} DiffTask;

static void
diff_task_free (DiffTask *t)
{
  g_free (t->old_path);
  g_free (t->new_path);
  g_free (t);
}

static void
diff_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  DiffTask *t = task_data;
  GError *error = NULL;
  ProcuraDiff *diff = procura_diff_files (t->old_path, t->new_path, &error);

  if (diff == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, diff, (GDestroyNotify) procura_diff_free);
}

static void
diff_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (GtkWindow) window = GTK_WINDOW (user_data);
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraDiff) diff = g_task_propagate_pointer (G_TASK (result), &error);

  /* Closed before the comparison finished: nothing left to fill. */
  if (!procura_busy_window_is_waiting (window))
    return;
  if (diff == NULL)
    procura_busy_window_set_content (window, procura_busy_window_error_page (_("Cannot compare the projects"),
                                                                             error->message));
  else
    {
      /* Translators: the window title: changes since the other project's title */
      g_autofree char *title = g_strdup_printf (_("Changes since “%s”"),
                                                diff->old_title != NULL ? diff->old_title : _("Untitled"));
      gtk_window_set_title (window, title);
      procura_busy_window_set_content (window, procura_diff_view_new (diff));
    }
}

void
procura_diff_dialog_present (GtkWindow  *parent,
                             const char *old_path,
                             const char *new_path)
{
  GtkWindow *window = procura_busy_window_present (parent, _("Compare Projects"), 640, 720);
  DiffTask *t = g_new0 (DiffTask, 1);
  g_autoptr (GTask) task = NULL;

  t->old_path = g_strdup (old_path);
  t->new_path = g_strdup (new_path);
  /* No source object: the task may be finalized in its worker thread, which must never
   * drop the last reference of a window. The callback drops this one. */
  task = g_task_new (NULL, NULL, diff_done_cb, g_object_ref (window));
  g_task_set_task_data (task, t, (GDestroyNotify) diff_task_free);
  g_task_run_in_thread (task, diff_thread);
}
