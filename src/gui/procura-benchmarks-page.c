/* procura-benchmarks-page.c: benchmark runs grouped by candidate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-benchmarks-page"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "procura-benchmarks-page.h"
#include "procura-run-row.h"
#include "procura-layout.h"
#include "procura-format.h"
#include "procura-import-json.h"

struct _ProcuraBenchmarksPage
{
  ProcuraPage      parent_instance;

  GtkStack        *stack;
  AdwStatusPage   *status;
  GtkBox          *box;

  ProcuraDocument *document;
  gulong           changed_id;
  GHashTable      *expanded;      /* ids (gint64) of the runs left open, kept across rebuilds */
  GStrv            import_errors;
};

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

/* Keeps the row open across rebuilds (an edit reloads the project and rebuilds the page). */
static void
remember_expanded (GtkWidget  *row,
                   GHashTable *expanded)
{
  gint64 id = procura_run_row_get_run_id (PROCURA_RUN_ROW (row));

  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), g_hash_table_contains (expanded, &id));
  g_signal_connect (row, "notify::expanded", G_CALLBACK (expanded_cb), expanded);
}

static void
add_group (ProcuraBenchmarksPage *self,
           ProcuraProject        *project,
           const char            *title,
           gint64                 candidate_id)
{
  GtkWidget *group = NULL;
  guint n = 0;

  for (guint i = 0; i < project->runs->len; i++)
    {
      ProcuraRun *run = g_ptr_array_index (project->runs, i);

      if (run->candidate_id != candidate_id)
        continue;
      if (group == NULL)
        {
          group = adw_preferences_group_new ();
          adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), title);
          gtk_box_append (self->box, group);
        }
      {
        GtkWidget *row = procura_run_row_new (self->document, run);

        remember_expanded (row, self->expanded);
        adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
      }
      n++;
    }
  if (group != NULL)
    {
      g_autofree char *description =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u run", "%u runs", n), n);
      adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group), description);
    }
}

static void
rebuild (ProcuraBenchmarksPage *self)
{
  ProcuraProject *project;
  gboolean known;

  procura_page_clear_box (self->box);
  if (self->import_errors != NULL && self->import_errors[0] != NULL)
    {
      GtkWidget *group = adw_preferences_group_new ();

      adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Import Errors"));
      adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                             _("These files were not imported; nothing of them was stored."));
      for (guint i = 0; self->import_errors[i] != NULL; i++)
        {
          GtkWidget *row = adw_action_row_new ();
          GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-error-symbolic");
          g_auto (GStrv) parts = g_strsplit (self->import_errors[i], ": ", 2);

          gtk_widget_add_css_class (icon, "error");
          adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), parts[0]);
          if (parts[0] != NULL && parts[1] != NULL)
            adw_action_row_set_subtitle (ADW_ACTION_ROW (row), parts[1]);
          adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
        }
      gtk_box_append (self->box, group);
    }
  if (self->document == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  project = procura_document_get_project (self->document);
  for (guint i = 0; i < project->candidates->len; i++)
    {
      ProcuraCandidate *c = g_ptr_array_index (project->candidates, i);
      add_group (self, project, c->name != NULL ? c->name : "", c->id);
    }
  /* Runs whose candidate is unknown are listed as unassigned. */
  for (guint i = 0; i < project->runs->len; i++)
    {
      ProcuraRun *run = g_ptr_array_index (project->runs, i);
      known = run->candidate_id == 0 || procura_project_find_candidate (project, run->candidate_id) != NULL;
      if (!known)
        run->candidate_id = 0;
    }
  add_group (self, project, _("Not Assigned to a Candidate"), 0);
  gtk_stack_set_visible_child_name (self->stack,
                                    gtk_widget_get_first_child (GTK_WIDGET (self->box)) != NULL
                                      ? "content" : "empty");
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
  self->box = procura_page_get_box (PROCURA_PAGE (self));
  procura_page_setup (PROCURA_PAGE (self), "power-profile-performance-symbolic", _("No Benchmark Results"),
                      _("Import results from vLLM, SGLang, guidellm, GenAI-Perf, AIPerf, llmperf or MLPerf. Drop files onto this window to import them."),
                      800, 600);
  procura_page_add_empty_action (PROCURA_PAGE (self), _("_Import Results…"), "win.import", NULL);
  /* the way in without a file of one's own */
  procura_page_add_empty_action (PROCURA_PAGE (self), _("Import _Published Results…"), "win.import-published", NULL);
  self->expanded = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}
