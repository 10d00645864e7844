/* procura-benchmarks-page.c: benchmark runs grouped by candidate
 *
 * The runs are a GtkListView over a list of ProcuraRunItem (headings, import errors,
 * runs by id): only the rows in view exist, and a run row builds its details when it is
 * expanded. The list gets the first screenful of items with the page and the others in
 * idle batches, a group at a time (GTK 4.8 binds up to 200 items around the view at once).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-benchmarks-page"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "procura-benchmarks-page.h"
#include "procura-run-item.h"
#include "procura-run-row.h"
#include "procura-layout.h"
#include "procura-format.h"
#include "procura-import-json.h"

struct _ProcuraBenchmarksPage
{
  ProcuraPage      parent_instance;

  GtkStack        *stack;
  AdwStatusPage   *status;
  GtkListView     *list;
  GListStore      *items;         /* ProcuraRunItem */

  ProcuraDocument *document;
  gulong           changed_id;
  GHashTable      *expanded;      /* ids (gint64) of the runs left open, kept across rebuilds */
  GStrv            import_errors;
  GPtrArray       *pending;       /* ProcuraRunItem not yet in the list (idle batches) */
  guint            next_item;     /* ... the next one to append */
};

/* A closed run's height in pixels, a little less (54 px in Adwaita; a heading ~60):
 * the items that fill the window are in the list with the page. */
#define ITEM_HEIGHT 48
/* At most this many items a batch, else up to the end of a group. */
#define MAX_BATCH_ITEMS 16

G_DEFINE_FINAL_TYPE (ProcuraBenchmarksPage, procura_benchmarks_page, PROCURA_TYPE_PAGE)

static void rebuild (ProcuraBenchmarksPage *self);

static void
expanded_cb (ProcuraRunRow *row,
             GParamSpec    *pspec,
             GHashTable    *expanded)
{
  gint64 id = procura_run_row_get_run_id (row);

  if (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (row)))
    g_hash_table_add (expanded, g_memdup2 (&id, sizeof id));
  else
    g_hash_table_remove (expanded, &id);
}

static ProcuraRun *
find_run (ProcuraProject *project,
          gint64          id)
{
  for (guint i = 0; i < project->runs->len; i++)
    {
      ProcuraRun *run = g_ptr_array_index (project->runs, i);
      if (run->id == id)
        return run;
    }
  return NULL;
}

/* A boxed list of one row, as a preferences group would show it. */
static GtkWidget *
boxed (GtkWidget *row)
{
  GtkWidget *list = gtk_list_box_new ();

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_list_box_append (GTK_LIST_BOX (list), row);
  return list;
}

static GtkWidget *
heading_widget (ProcuraRunItem *item)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *title = gtk_label_new (procura_run_item_get_title (item));
  GtkWidget *subtitle;

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_widget_add_css_class (title, "heading");
  gtk_accessible_update_property (GTK_ACCESSIBLE (title), GTK_ACCESSIBLE_PROPERTY_LEVEL, 2, -1);
  gtk_box_append (GTK_BOX (box), title);
  if (procura_run_item_get_subtitle (item) != NULL)
    {
      subtitle = gtk_label_new (procura_run_item_get_subtitle (item));
      gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
      gtk_label_set_wrap (GTK_LABEL (subtitle), TRUE);
      gtk_widget_add_css_class (subtitle, "dim-label");
      gtk_box_append (GTK_BOX (box), subtitle);
    }
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 6);
  return box;
}

static GtkWidget *
error_widget (ProcuraRunItem *item)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-error-symbolic");

  gtk_widget_add_css_class (icon, "error");
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), procura_run_item_get_title (item));
  if (procura_run_item_get_subtitle (item) != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), procura_run_item_get_subtitle (item));
  return boxed (row);
}

/* A run's row, from the current snapshot (the item keeps only the id); it keeps the row
 * open across rebuilds and scrolling. */
static GtkWidget *
run_widget (ProcuraBenchmarksPage *self,
            ProcuraRunItem        *item)
{
  gint64 id = procura_run_item_get_run_id (item);
  ProcuraRun *run;
  GtkWidget *row;

  if (self->document == NULL
      || (run = find_run (procura_document_get_project (self->document), id)) == NULL)
    return NULL;
  row = procura_run_row_new (self->document, run);
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), g_hash_table_contains (self->expanded, &id));
  g_signal_connect (row, "notify::expanded", G_CALLBACK (expanded_cb), self->expanded);
  return boxed (row);
}

/* TRUE when the item at @position is a run or an error, as its neighbour @item is: the
 * two rows are drawn as one list. */
static gboolean
joins (ProcuraBenchmarksPage *self,
       ProcuraRunItem        *item,
       guint                  position)
{
  g_autoptr (ProcuraRunItem) other = NULL;

  if (position >= g_list_model_get_n_items (G_LIST_MODEL (self->items)))
    return FALSE;
  other = g_list_model_get_item (G_LIST_MODEL (self->items), position);
  return procura_run_item_get_kind (other) == procura_run_item_get_kind (item);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         ProcuraBenchmarksPage    *self)
{
  ProcuraRunItem *item = gtk_list_item_get_item (list_item);
  guint position = gtk_list_item_get_position (list_item);
  GtkWidget *child = NULL;

  switch (procura_run_item_get_kind (item))
    {
    case PROCURA_RUN_ITEM_HEADING:
      child = heading_widget (item);
      break;
    case PROCURA_RUN_ITEM_ERROR:
      child = error_widget (item);
      break;
    case PROCURA_RUN_ITEM_RUN:
    default:
      child = run_widget (self, item);
      break;
    }
  if (child != NULL)
    {
      gtk_widget_set_margin_start (child, 12);
      gtk_widget_set_margin_end (child, 12);
      /* A group's runs read as one boxed list: square corners where rows meet. */
      if (procura_run_item_get_kind (item) != PROCURA_RUN_ITEM_HEADING)
        {
          if (position > 0 && joins (self, item, position - 1))
            gtk_widget_add_css_class (child, "joined-above");
          if (joins (self, item, position + 1))
            gtk_widget_add_css_class (child, "joined-below");
        }
    }
  gtk_list_item_set_child (list_item, child);
}

static void
unbind_cb (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           ProcuraBenchmarksPage    *self)
{
  gtk_list_item_set_child (list_item, NULL);
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          ProcuraBenchmarksPage    *self)
{
  gtk_list_item_set_activatable (list_item, FALSE);
  gtk_list_item_set_selectable (list_item, FALSE);
}

static void
add_group (GPtrArray      *items,
           ProcuraProject *project,
           const char     *title,
           gint64          candidate_id)
{
  guint heading = items->len;
  guint n = 0;

  for (guint i = 0; i < project->runs->len; i++)
    {
      ProcuraRun *run = g_ptr_array_index (project->runs, i);

      if (run->candidate_id != candidate_id)
        continue;
      g_ptr_array_add (items, procura_run_item_new (PROCURA_RUN_ITEM_RUN, run->id, NULL, NULL));
      n++;
    }
  if (n > 0)
    {
      g_autofree char *description =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u run", "%u runs", n), n);

      g_ptr_array_insert (items, (int) heading,
                          procura_run_item_new (PROCURA_RUN_ITEM_HEADING, 0, title, description));
    }
}

/* Appends the next pending items to the list, up to a group's end (or MAX_BATCH_ITEMS);
 * FALSE when none is left. */
static gboolean
append_next_items (ProcuraPage *page)
{
  ProcuraBenchmarksPage *self = PROCURA_BENCHMARKS_PAGE (page);
  g_autoptr (GPtrArray) batch = NULL;
  guint n, position, end;

  if (self->items == NULL || self->pending == NULL || self->next_item >= self->pending->len)
    return FALSE;
  batch = g_ptr_array_new_with_free_func (g_object_unref);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  position = n;
  end = self->next_item;
  do
    end++;
  while (end < self->pending->len && end - self->next_item < MAX_BATCH_ITEMS
         && procura_run_item_get_kind (g_ptr_array_index (self->pending, end)) != PROCURA_RUN_ITEM_HEADING);
  if (n > 0)
    {
      g_autoptr (ProcuraRunItem) last = g_list_model_get_item (G_LIST_MODEL (self->items), n - 1);

      /* The last row was bound as the end of its group's list: replaced by a copy (the
       * same item would keep its row), it is bound again, joined to the rows below. */
      if (procura_run_item_get_kind (last) != PROCURA_RUN_ITEM_HEADING
          && procura_run_item_get_kind (last) == procura_run_item_get_kind (g_ptr_array_index (self->pending, self->next_item)))
        {
          g_ptr_array_add (batch, procura_run_item_new (procura_run_item_get_kind (last),
                                                        procura_run_item_get_run_id (last),
                                                        procura_run_item_get_title (last),
                                                        procura_run_item_get_subtitle (last)));
          position = n - 1;
        }
    }
  for (; self->next_item < end; self->next_item++)
    g_ptr_array_add (batch, g_object_ref (g_ptr_array_index (self->pending, self->next_item)));
  g_list_store_splice (self->items, position, n - position, batch->pdata, batch->len);
  if (self->next_item < self->pending->len)
    return TRUE;
  g_ptr_array_set_size (self->pending, 0);
  self->next_item = 0;
  return FALSE;
}

static void
rebuild (ProcuraBenchmarksPage *self)
{
  ProcuraProject *project;
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean known;
  guint first;

  if (self->import_errors != NULL && self->import_errors[0] != NULL)
    {
      g_ptr_array_add (items, procura_run_item_new (PROCURA_RUN_ITEM_HEADING, 0, _("Import Errors"),
                                                    _("These files were not imported; nothing of them was stored.")));
      for (guint i = 0; self->import_errors[i] != NULL; i++)
        {
          g_auto (GStrv) parts = g_strsplit (self->import_errors[i], ": ", 2);

          g_ptr_array_add (items, procura_run_item_new (PROCURA_RUN_ITEM_ERROR, 0,
                                                        parts[0] != NULL ? parts[0] : "",
                                                        parts[0] != NULL ? parts[1] : NULL));
        }
    }
  if (self->document != NULL)
    {
      project = procura_document_get_project (self->document);
      for (guint i = 0; i < project->candidates->len; i++)
        {
          ProcuraCandidate *c = g_ptr_array_index (project->candidates, i);
          add_group (items, project, c->name != NULL ? c->name : "", c->id);
        }
      /* Runs whose candidate is unknown are listed as unassigned. */
      for (guint i = 0; i < project->runs->len; i++)
        {
          ProcuraRun *run = g_ptr_array_index (project->runs, i);
          known = run->candidate_id == 0 || procura_project_find_candidate (project, run->candidate_id) != NULL;
          if (!known)
            run->candidate_id = 0;
        }
      add_group (items, project, _("Not Assigned to a Candidate"), 0);
    }
  /* One splice: the view drops the rows it had and binds those of the first screenful;
   * the others are appended in idle batches. */
  g_ptr_array_set_size (self->pending, 0);
  self->next_item = 0;
  first = procura_page_rows_to_fill (PROCURA_PAGE (self), ITEM_HEIGHT);
  if (items->len > first)
    {
      for (guint i = first; i < items->len; i++)
        g_ptr_array_add (self->pending, g_object_ref (g_ptr_array_index (items, i)));
      g_ptr_array_set_size (items, first);
    }
  g_list_store_splice (self->items, 0, g_list_model_get_n_items (G_LIST_MODEL (self->items)),
                       items->pdata, items->len);
  gtk_stack_set_visible_child_name (self->stack, items->len > 0 ? "content" : "empty");
  if (self->pending->len > 0)
    procura_page_build_in_idle (PROCURA_PAGE (self), append_next_items);
}

static void
document_changed_cb (ProcuraDocument       *document,
                     ProcuraBenchmarksPage *self)
{
  procura_page_queue_rebuild (PROCURA_PAGE (self));
}

void
procura_benchmarks_page_set_document (ProcuraBenchmarksPage *self,
                                      ProcuraDocument       *document)
{
  g_return_if_fail (PROCURA_IS_BENCHMARKS_PAGE (self));

  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_set_object (&self->document, document);
  g_clear_pointer (&self->import_errors, g_strfreev);
  if (document != NULL)
    self->changed_id = g_signal_connect (document, "changed", G_CALLBACK (document_changed_cb), self);
  procura_page_queue_rebuild (PROCURA_PAGE (self));
}

void
procura_benchmarks_page_set_import_errors (ProcuraBenchmarksPage *self,
                                           const char * const    *errors)
{
  g_return_if_fail (PROCURA_IS_BENCHMARKS_PAGE (self));
  g_strfreev (self->import_errors);
  self->import_errors = g_strdupv ((char **) errors);
  procura_page_queue_rebuild (PROCURA_PAGE (self));
}

static void
procura_benchmarks_page_dispose (GObject *object)
{
  ProcuraBenchmarksPage *self = PROCURA_BENCHMARKS_PAGE (object);

  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_clear_object (&self->document);
  g_clear_pointer (&self->import_errors, g_strfreev);
  g_clear_object (&self->items);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  G_OBJECT_CLASS (procura_benchmarks_page_parent_class)->dispose (object);
}

static void
procura_benchmarks_page_finalize (GObject *object)
{
  ProcuraBenchmarksPage *self = PROCURA_BENCHMARKS_PAGE (object);

  /* In finalize: the rows point at the table until the child is gone. */
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  G_OBJECT_CLASS (procura_benchmarks_page_parent_class)->finalize (object);
}

static void
page_rebuild (ProcuraPage *page)
{
  rebuild (PROCURA_BENCHMARKS_PAGE (page));
}

static void
procura_benchmarks_page_class_init (ProcuraBenchmarksPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = procura_benchmarks_page_dispose;
  object_class->finalize = procura_benchmarks_page_finalize;
  PROCURA_PAGE_CLASS (klass)->rebuild = page_rebuild;
}

static void
procura_benchmarks_page_init (ProcuraBenchmarksPage *self)
{
  self->stack = procura_page_get_stack (PROCURA_PAGE (self));
  self->status = procura_page_get_status (PROCURA_PAGE (self));
  procura_page_setup (PROCURA_PAGE (self), "power-profile-performance-symbolic", _("No Benchmark Results"),
                      _("Import results from vLLM, SGLang, guidellm, GenAI-Perf, AIPerf, llmperf or MLPerf. Drop files onto this window to import them."),
                      800, 600);
  procura_page_add_empty_action (PROCURA_PAGE (self), _("_Import Results…"), "win.import", NULL);
  /* the way in without a file of one's own */
  procura_page_add_empty_action (PROCURA_PAGE (self), _("Import _Published Results…"), "win.import-published", NULL);
  self->expanded = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  {
    /* The list, in place of the page's box: a GtkListView recycles its rows only as
     * the scrolled window's own child (through AdwClampScrollable, itself scrollable). */
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
    GtkWidget *clamp = adw_clamp_scrollable_new ();

    self->items = g_list_store_new (PROCURA_TYPE_RUN_ITEM);
    g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), self);
    g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), self);
    g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cb), self);
    self->list = GTK_LIST_VIEW (gtk_list_view_new (GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->items)))),
                                                   factory));
    gtk_widget_add_css_class (GTK_WIDGET (self->list), "procura-run-list");
    gtk_widget_set_margin_top (GTK_WIDGET (self->list), 6);
    gtk_widget_set_margin_bottom (GTK_WIDGET (self->list), 24);
    adw_clamp_scrollable_set_maximum_size (ADW_CLAMP_SCROLLABLE (clamp), 800);
    adw_clamp_scrollable_set_tightening_threshold (ADW_CLAMP_SCROLLABLE (clamp), 600);
    adw_clamp_scrollable_set_child (ADW_CLAMP_SCROLLABLE (clamp), GTK_WIDGET (self->list));
    procura_page_set_scrollable (PROCURA_PAGE (self), clamp);
  }
}

GtkListView *
procura_benchmarks_page_get_list (ProcuraBenchmarksPage *self)
{
  g_return_val_if_fail (PROCURA_IS_BENCHMARKS_PAGE (self), NULL);
  return self->list;
}
