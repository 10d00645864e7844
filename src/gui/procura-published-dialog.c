/* procura-published-dialog.c: "Import Published Results…"
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A published data set holds hundreds of rows (435 InferenceX configurations, every
 * system of an MLPerf round); the analyst wants the few that match the brief. The file is
 * parsed by the core in a thread (never here); the rows are listed with a filter, ticked,
 * and stored with procura_document_import_rows() in one transaction, into an existing
 * candidate (the rows that disagree with it say so in their warnings) or a new one that
 * takes the deployment the rows state (procura_import_candidate_new).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "procura-busy-window.h"
#include "procura-published-dialog.h"
#include "procura-published-row.h"

/* The dialog's state. Until the file is read it belongs to the parse task (its
 * callback's data, with a reference to the window); then to the picker's content box,
 * freed when that box is (a weak reference), as the handlers of its widgets use it. */
typedef struct {
  GtkWindow           *window;         /* owned reference until the file is read */
  ProcuraDocument     *document;       /* owned reference */
  ProcuraImportResult *result;         /* owned; picked runs are moved out on import */
  GArray              *candidate_ids;  /* gint64 per drop-down item; [0] = a new candidate */
  GArray              *picked;         /* gboolean per run */
  char               **needles;        /* the filter's words, lower case */
  GtkWidget           *list;           /* the widgets below live as long as the window */
  GtkWidget           *count;
  GtkWidget           *dropdown;
  GtkWidget           *name;
  GtkWidget           *message;
  GtkWidget           *import;
} Picker;

static void
picker_free (Picker *p)
{
  g_clear_object (&p->window);
  g_clear_object (&p->document);
  g_clear_pointer (&p->result, procura_import_result_free);
  g_clear_pointer (&p->candidate_ids, g_array_unref);
  g_clear_pointer (&p->picked, g_array_unref);
  g_strfreev (p->needles);
  g_free (p);
}

static void
picker_content_gone (gpointer  data,
                     GObject  *where_the_object_was)
{
  picker_free (data);
}

static void
update_count (Picker *p)
{
  guint shown = 0, picked = 0, total = p->result != NULL ? p->result->runs->len : 0;
  g_autofree char *text = NULL;

  for (GtkWidget *row = gtk_widget_get_first_child (p->list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_child_visible (row))
      shown++;
  for (guint i = 0; p->picked != NULL && i < p->picked->len; i++)
    if (g_array_index (p->picked, gboolean, i))
      picked++;
  /* Translators: rows of a published data set: shown by the filter, of all, picked */
  text = g_strdup_printf (_("%u of %u rows shown, %u picked"), shown, total, picked);
  gtk_label_set_text (GTK_LABEL (p->count), text);
  gtk_widget_set_sensitive (p->import, picked > 0);
}

static gboolean
filter_row (GtkListBoxRow *row,
            gpointer       user_data)
{
  Picker *p = user_data;

  return procura_published_row_matches (PROCURA_PUBLISHED_ROW (row), (const char * const *) p->needles);
}

static void
filter_changed_cb (GtkSearchEntry *entry,
                   gpointer        user_data)
{
  Picker *p = user_data;
  g_autofree char *lower = g_utf8_strdown (gtk_editable_get_text (GTK_EDITABLE (entry)), -1);

  g_strfreev (p->needles);
  p->needles = g_strsplit_set (g_strstrip (lower), " \t", -1);
  gtk_list_box_invalidate_filter (GTK_LIST_BOX (p->list));
  update_count (p);
}

static void
picked_changed_cb (ProcuraPublishedRow *row,
                   GParamSpec          *pspec,
                   gpointer             user_data)
{
  Picker *p = user_data;
  guint i = procura_published_row_get_index (row);

  if (i < p->picked->len)
    g_array_index (p->picked, gboolean, i) = procura_published_row_get_picked (row);
  update_count (p);
}

static void
pick_shown_cb (GtkButton *button,
               gpointer   user_data)
{
  Picker *p = user_data;

  for (GtkWidget *row = gtk_widget_get_first_child (p->list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (PROCURA_IS_PUBLISHED_ROW (row) && gtk_widget_get_child_visible (row))
      procura_published_row_set_picked (PROCURA_PUBLISHED_ROW (row), TRUE);
}

static void
candidate_changed_cb (GObject    *dropdown,
                      GParamSpec *pspec,
                      gpointer    user_data)
{
  Picker *p = user_data;

  gtk_widget_set_visible (p->name, gtk_drop_down_get_selected (GTK_DROP_DOWN (p->dropdown)) == 0);
}

static void
show_message (Picker     *p,
              const char *text)
{
  gtk_label_set_text (GTK_LABEL (p->message), text);
  gtk_widget_set_visible (p->message, text != NULL);
}

static void
import_cb (GtkButton *button,
           gpointer   user_data)
{
  Picker *p = user_data;
  GtkRoot *window = gtk_widget_get_root (GTK_WIDGET (button));
  ProcuraImportResult *src = p->result;
  g_autoptr (ProcuraImportResult) sub = NULL;
  g_autoptr (GPtrArray) one = g_ptr_array_new ();
  g_autoptr (ProcuraCandidate) new_candidate = NULL;
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (p->dropdown));
  gint64 candidate_id = 0;
  ProcuraProject *project = procura_document_get_project (p->document);

  if (src == NULL)
    return;
  if (selected == 0)
    {
      g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (p->name))));

      if (*name == '\0')
        {
          show_message (p, _("Name the new candidate, or pick an existing one"));
          return;
        }
      for (guint i = 0; project != NULL && i < project->candidates->len; i++)
        if (g_strcmp0 (((ProcuraCandidate *) g_ptr_array_index (project->candidates, i))->name, name) == 0)
          {
            show_message (p, _("A candidate of that name exists: pick it in the list"));
            return;
          }
      new_candidate = procura_candidate_new ();   /* replaced below, once the rows are known */
      g_free (new_candidate->name);
      new_candidate->name = g_steal_pointer (&name);
    }
  else if (selected < p->candidate_ids->len)
    candidate_id = g_array_index (p->candidate_ids, gint64, selected);

  /* The picked rows move into a result of their own: same file, same provenance */
  sub = procura_import_result_new ();
  sub->format = g_strdup (src->format);
  sub->format_version = g_strdup (src->format_version);
  sub->provenance = src->provenance != NULL ? procura_provenance_copy (src->provenance) : NULL;
  for (guint i = 0; i < src->warnings->len; i++)
    g_ptr_array_add (sub->warnings, g_strdup (g_ptr_array_index (src->warnings, i)));
  for (guint i = 0; i < src->runs->len && i < p->picked->len; i++)
    if (g_array_index (p->picked, gboolean, i) && g_ptr_array_index (src->runs, i) != NULL)
      {
        g_ptr_array_add (sub->runs, g_ptr_array_index (src->runs, i));
        src->runs->pdata[i] = NULL;   /* moved: procura_run_free (NULL) is a no-op */
      }
  if (sub->runs->len == 0)
    return;
  g_ptr_array_add (one, sub);
  if (new_candidate != NULL)
    {
      ProcuraCandidate *made = procura_import_candidate_new (new_candidate->name, one);
      procura_candidate_free (g_steal_pointer (&new_candidate));
      new_candidate = made;
    }
  else if (candidate_id > 0)
    for (guint i = 0; project != NULL && i < project->candidates->len; i++)
      {
        const ProcuraCandidate *c = g_ptr_array_index (project->candidates, i);
        if (c->id == candidate_id)
          procura_import_check_candidate (c, one);
      }
  procura_document_import_rows (p->document, g_steal_pointer (&sub), candidate_id,
                                g_steal_pointer (&new_candidate));
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkWidget *
picker_content (Picker *p)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *filter = gtk_search_entry_new ();
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *shown = gtk_button_new_with_mnemonic (_("Pick _All Shown"));
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *target = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *into = gtk_label_new (_("Import into"));
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);
  ProcuraProject *project = procura_document_get_project (p->document);
  ProcuraImportResult *r = p->result;

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);

  gtk_widget_set_name (filter, "published-filter");
  g_object_set (filter, "placeholder-text", _("Filter by system, GPU, model, scenario…"), NULL);
  g_signal_connect (filter, "search-changed", G_CALLBACK (filter_changed_cb), p);
  gtk_box_append (GTK_BOX (box), filter);

  p->count = gtk_label_new (NULL);
  gtk_widget_set_name (p->count, "published-count");
  gtk_widget_set_hexpand (p->count, TRUE);
  gtk_label_set_xalign (GTK_LABEL (p->count), 0);
  gtk_widget_add_css_class (p->count, "dim-label");
  gtk_widget_set_name (shown, "published-pick-shown");
  g_signal_connect (shown, "clicked", G_CALLBACK (pick_shown_cb), p);
  gtk_box_append (GTK_BOX (bar), p->count);
  gtk_box_append (GTK_BOX (bar), shown);
  gtk_box_append (GTK_BOX (box), bar);

  p->list = gtk_list_box_new ();
  gtk_widget_set_name (p->list, "published-rows");
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (p->list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (p->list, "boxed-list");
  gtk_list_box_set_filter_func (GTK_LIST_BOX (p->list), filter_row, p, NULL);
  p->picked = g_array_new (FALSE, TRUE, sizeof (gboolean));
  g_array_set_size (p->picked, r->runs->len);
  for (guint i = 0; i < r->runs->len; i++)
    {
      GtkWidget *row = procura_published_row_new (g_ptr_array_index (r->runs, i), i);

      g_signal_connect (row, "notify::picked", G_CALLBACK (picked_changed_cb), p);
      gtk_list_box_append (GTK_LIST_BOX (p->list), row);
    }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), p->list);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (box), scrolled);

  /* Where the rows go: a new candidate, or one the project has (ids, not pointers) */
  p->candidate_ids = g_array_new (FALSE, TRUE, sizeof (gint64));
  gtk_string_list_append (names, _("A new candidate"));
  g_array_set_size (p->candidate_ids, 1);
  for (guint i = 0; project != NULL && i < project->candidates->len; i++)
    {
      const ProcuraCandidate *c = g_ptr_array_index (project->candidates, i);
      gtk_string_list_append (names, c->name);
      g_array_append_val (p->candidate_ids, c->id);
    }
  p->dropdown = gtk_drop_down_new (G_LIST_MODEL (g_object_ref (names)), NULL);
  gtk_widget_set_name (p->dropdown, "published-candidate");
  g_signal_connect (p->dropdown, "notify::selected", G_CALLBACK (candidate_changed_cb), p);
  p->name = gtk_entry_new ();
  gtk_widget_set_name (p->name, "published-name");
  gtk_widget_set_hexpand (p->name, TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (p->name), _("New candidate’s name"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (p->name), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("New candidate’s name"), -1);
  p->import = gtk_button_new_with_mnemonic (_("_Import"));
  gtk_widget_set_name (p->import, "published-import");
  gtk_widget_add_css_class (p->import, "suggested-action");
  g_signal_connect (p->import, "clicked", G_CALLBACK (import_cb), p);
  gtk_box_append (GTK_BOX (target), into);
  gtk_box_append (GTK_BOX (target), p->dropdown);
  gtk_box_append (GTK_BOX (target), p->name);
  gtk_box_append (GTK_BOX (target), p->import);
  gtk_box_append (GTK_BOX (box), target);

  p->message = gtk_label_new (NULL);
  gtk_widget_set_name (p->message, "published-message");
  gtk_widget_add_css_class (p->message, "error");
  gtk_label_set_wrap (GTK_LABEL (p->message), TRUE);
  gtk_widget_set_visible (p->message, FALSE);
  gtk_box_append (GTK_BOX (box), p->message);
  update_count (p);
  return box;
}

static void
parse_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  GError *error = NULL;
  ProcuraImportResult *r = procura_import_file (task_data, NULL, cancellable, &error);

  if (r == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, r, (GDestroyNotify) procura_import_result_free);
}

static void
parse_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Picker *p = user_data;
  g_autoptr (GtkWindow) window = g_steal_pointer (&p->window);
  g_autoptr (GError) error = NULL;
  ProcuraImportResult *r = g_task_propagate_pointer (G_TASK (result), &error);
  GtkWidget *content;

  /* Closed before the file was read: nothing left to fill */
  if (!procura_busy_window_is_waiting (window))
    {
      procura_import_result_free (r);
      picker_free (p);
      return;
    }
  if (r == NULL || r->runs->len == 0)
    {
      procura_busy_window_set_content (window,
                                       procura_busy_window_error_page (_("No results to pick"),
                                                                       r == NULL ? error->message
                                                                                 : _("The file holds no benchmark runs")));
      procura_import_result_free (r);
      picker_free (p);
      return;
    }
  p->result = r;
  content = picker_content (p);
  g_object_weak_ref (G_OBJECT (content), picker_content_gone, p);
  procura_busy_window_set_content (window, content);
}

GtkWindow *
procura_published_dialog_present (GtkWindow       *parent,
                                  ProcuraDocument *document,
                                  const char      *path)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *display = g_filename_display_name (base);
  GtkWindow *window;
  Picker *p;
  g_autoptr (GTask) task = NULL;

  g_return_val_if_fail (PROCURA_IS_DOCUMENT (document), NULL);
  window = procura_busy_window_present (parent, display, 760, 720);
  p = g_new0 (Picker, 1);
  p->window = g_object_ref (window);
  p->document = g_object_ref (document);

  /* No source object: the task may be finalized in its worker thread */
  task = g_task_new (NULL, NULL, parse_done_cb, p);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, parse_thread);
  return window;
}
