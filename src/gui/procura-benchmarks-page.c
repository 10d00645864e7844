/* procura-benchmarks-page.c: benchmark runs grouped by candidate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-benchmarks-page"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "procura-benchmarks-page.h"
#include "procura-layout.h"
#include "procura-format.h"
#include "procura-import-json.h"

struct _ProcuraBenchmarksPage
{
  AdwBin           parent_instance;

  GtkStack        *stack;
  AdwStatusPage   *status;
  GtkBox          *box;

  ProcuraDocument *document;
  gulong           changed_id;
  GHashTable      *expanded;      /* keys of the expander rows left open, kept across rebuilds */
  GStrv            import_errors;
};

G_DEFINE_FINAL_TYPE (ProcuraBenchmarksPage, procura_benchmarks_page, ADW_TYPE_BIN)

static void rebuild (ProcuraBenchmarksPage *self);

static void
expanded_cb (AdwExpanderRow *row,
             GParamSpec     *pspec,
             GHashTable     *expanded)
{
  const char *key = g_object_get_data (G_OBJECT (row), "expander-key");

  if (adw_expander_row_get_expanded (row))
    g_hash_table_add (expanded, g_strdup (key));
  else
    g_hash_table_remove (expanded, key);
}

/* Keeps the row open across rebuilds (an edit reloads the project and rebuilds the page). */
static void
remember_expanded (GtkWidget  *row,
                   GHashTable *expanded,
                   const char *kind,
                   gint64      id)
{
  g_autofree char *key = g_strdup_printf ("%s:%" G_GINT64_FORMAT, kind, id);

  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), g_hash_table_contains (expanded, key));
  g_object_set_data_full (G_OBJECT (row), "expander-key", g_steal_pointer (&key), g_free);
  g_signal_connect (row, "notify::expanded", G_CALLBACK (expanded_cb), expanded);
}

static void
assign_selected_cb (AdwComboRow           *row,
                    GParamSpec            *pspec,
                    ProcuraBenchmarksPage *self)
{
  ProcuraProject *project = procura_document_get_project (self->document);
  gint64 run_id = *(gint64 *) g_object_get_data (G_OBJECT (row), "run-id");
  guint selected = adw_combo_row_get_selected (row);
  gint64 candidate_id = 0;

  if (g_object_get_data (G_OBJECT (row), "filling") != NULL || selected == GTK_INVALID_LIST_POSITION)
    return;
  if (selected > 0 && selected - 1 < project->candidates->len)
    candidate_id = ((ProcuraCandidate *) g_ptr_array_index (project->candidates, selected - 1))->id;
  procura_document_assign_run (self->document, run_id, candidate_id);
}

static void
delete_run_clicked_cb (GtkButton             *button,
                       ProcuraBenchmarksPage *self)
{
  procura_document_delete_run (self->document,
                               *(gint64 *) g_object_get_data (G_OBJECT (button), "run-id"));
}

static void
attach_run_id (gpointer object,
               gint64   id)
{
  g_object_set_data_full (G_OBJECT (object), "run-id", g_memdup2 (&id, sizeof id), g_free);
}

static const char *
metric_label (const char *metric)
{
  if (g_strcmp0 (metric, "ttft") == 0)
    return _("TTFT");
  if (g_strcmp0 (metric, "tpot") == 0)
    return _("TPOT");
  if (g_strcmp0 (metric, "tpot_incl_first") == 0)
    return _("TPOT incl. first token");
  if (g_strcmp0 (metric, "itl") == 0)
    return _("ITL");
  if (g_strcmp0 (metric, "e2e") == 0)
    return _("End-to-end");
  return metric;
}

/* Rank of a statistic in reading order: mean, the percentiles rising, min, max, std. */
static int
stat_rank (const char *stat)
{
  if (g_str_equal (stat, "mean"))
    return 0;
  if (g_str_equal (stat, "median"))
    return 50 * 100;
  if (stat[0] == 'p' && g_ascii_isdigit (stat[1]))
    return (int) (g_ascii_strtod (stat + 1, NULL) * 100) + 1;
  if (g_str_equal (stat, "min"))
    return 200000;
  if (g_str_equal (stat, "max"))
    return 200001;
  return 300000;
}

static int
compare_stats (gconstpointer a,
               gconstpointer b)
{
  const ProcuraStat *x = *(ProcuraStat * const *) a;
  const ProcuraStat *y = *(ProcuraStat * const *) b;
  int rx = stat_rank (x->stat), ry = stat_rank (y->stat);

  return rx != ry ? (rx < ry ? -1 : 1) : g_strcmp0 (x->stat, y->stat);
}

/* "mean 120 ms · p50 118 ms · … · max 210 ms" for one metric and source. */
static void
stats_line (ProcuraRun    *run,
            const char    *metric,
            ProcuraSource  source,
            GString       *line,
            gint64        *samples)
{
  g_autoptr (GPtrArray) stats = g_ptr_array_new ();

  for (guint i = 0; run->stats != NULL && i < run->stats->len; i++)
    {
      ProcuraStat *stat = g_ptr_array_index (run->stats, i);
      if (stat->source == source && g_str_equal (stat->metric, metric))
        g_ptr_array_add (stats, stat);
    }
  g_ptr_array_sort (stats, compare_stats);
  for (guint i = 0; i < stats->len; i++)
    {
      ProcuraStat *stat = g_ptr_array_index (stats, i);
      g_autofree char *value = procura_format_ms (stat->value);

      g_string_append_printf (line, "%s%s %s", line->len > 0 ? " · " : "", stat->stat, value);
      *samples = MAX (*samples, stat->samples);
    }
}

static GtkWidget *
run_row (ProcuraBenchmarksPage *self,
         ProcuraProject        *project,
         ProcuraRun            *run)
{
  GtkWidget *expander = adw_expander_row_new ();
  GtkWidget *assign = adw_combo_row_new ();
  GtkWidget *delete_button;
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);
  g_autoptr (GString) subtitle = g_string_new (NULL);
  g_autofree char *completed = procura_format_count (run->completed);
  g_autofree char *failed = procura_format_count (run->failed);
  g_autofree char *rps = procura_format_number (run->request_throughput, 2);
  guint selected = 0;
  gboolean read_only = procura_document_get_read_only (self->document);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (expander),
                                 run->label != NULL ? run->label : _("Unnamed run"));
  /* Translators: run summary: format · completed · failed · throughput */
  g_string_append_printf (subtitle, _("%s · %s completed, %s failed · %s requests/s"),
                          run->format != NULL ? run->format : _("unknown format"),
                          completed, failed, rps);
  if (run->scenario.gpu_name != NULL)
    g_string_append_printf (subtitle, " · %s", run->scenario.gpu_name);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (expander), subtitle->str);

  delete_button = gtk_button_new_from_icon_name ("user-trash-symbolic");
  gtk_widget_add_css_class (delete_button, "flat");
  gtk_widget_set_valign (delete_button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (delete_button, _("Delete this run"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (delete_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Delete this run"), -1);
  gtk_widget_set_sensitive (delete_button, !read_only);
  attach_run_id (delete_button, run->id);
  g_signal_connect (delete_button, "clicked", G_CALLBACK (delete_run_clicked_cb), self);
  adw_expander_row_add_action (ADW_EXPANDER_ROW (expander), delete_button);

  /* Assignment */
  gtk_string_list_append (names, _("Not assigned"));
  for (guint i = 0; i < project->candidates->len; i++)
    {
      ProcuraCandidate *c = g_ptr_array_index (project->candidates, i);
      gtk_string_list_append (names, c->name != NULL ? c->name : "");
      if (c->id == run->candidate_id)
        selected = i + 1;
    }
  procura_combo_row_show_names (assign);
  adw_combo_row_set_model (ADW_COMBO_ROW (assign), G_LIST_MODEL (names));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (assign), _("Candidate"));
  g_object_set_data (G_OBJECT (assign), "filling", GINT_TO_POINTER (1));
  adw_combo_row_set_selected (ADW_COMBO_ROW (assign), selected);
  g_object_set_data (G_OBJECT (assign), "filling", NULL);
  attach_run_id (assign, run->id);
  gtk_widget_set_sensitive (assign, !read_only);
  g_signal_connect (assign, "notify::selected", G_CALLBACK (assign_selected_cb), self);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), assign);

  /* Metrics: one row per metric and source, its statistics in reading order */
  {
    static const char *metric_order[] = { "ttft", "tpot", "itl", "tpot_incl_first", "e2e", NULL };
    g_autoptr (GPtrArray) metrics = g_ptr_array_new ();

    for (guint i = 0; metric_order[i] != NULL; i++)
      g_ptr_array_add (metrics, (gpointer) metric_order[i]);
    for (guint i = 0; run->stats != NULL && i < run->stats->len; i++)
      {
        ProcuraStat *stat = g_ptr_array_index (run->stats, i);
        if (!g_ptr_array_find_with_equal_func (metrics, stat->metric, g_str_equal, NULL))
          g_ptr_array_add (metrics, stat->metric);
      }
    for (guint m = 0; m < metrics->len; m++)
      for (int source = PROCURA_SOURCE_RECOMPUTED; source >= PROCURA_SOURCE_AS_REPORTED; source--)
        {
          const char *metric = g_ptr_array_index (metrics, m);
          g_autoptr (GString) line = g_string_new (NULL);
          g_autofree char *title = NULL;
          gint64 samples = -1;
          GtkWidget *row;

          stats_line (run, metric, source, line, &samples);
          if (line->len == 0)
            continue;
          if (source == PROCURA_SOURCE_RECOMPUTED)
            /* Translators: a metric and how its figures were obtained, e.g. "TTFT, recomputed from 300 samples" */
            title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, recomputed from %" G_GINT64_FORMAT " sample",
                                                  "%s, recomputed from %" G_GINT64_FORMAT " samples",
                                                  (gulong) MAX (samples, 0)),
                                     metric_label (metric), samples);
          else
            /* Translators: a metric whose figures are the file's own */
            title = g_strdup_printf (_("%s, as reported by the file"), metric_label (metric));
          row = adw_action_row_new ();
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), line->str);
          adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
          adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);
        }
  }

  /* What the file does not say: asked for, never guessed */
  {
    g_auto (GStrv) missing = procura_scenario_missing (&run->scenario);

    if (missing != NULL && missing[0] != NULL)
      {
        GtkWidget *row = adw_action_row_new ();
        GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-information-symbolic");
        g_autoptr (GString) list = g_string_new (NULL);

        for (guint i = 0; missing[i] != NULL; i++)
          {
            const char *label = g_str_equal (missing[i], "gpu_name") ? _("the GPU")
                              : g_str_equal (missing[i], "gpu_count") ? _("the GPU count")
                              : g_str_equal (missing[i], "model") ? _("the model")
                              : g_str_equal (missing[i], "engine") ? _("the engine")
                              : g_str_equal (missing[i], "tp") ? _("the tensor parallelism")
                              : g_str_equal (missing[i], "load") ? _("the load (rate or concurrency)")
                              : missing[i];
            g_string_append_printf (list, "%s%s", i > 0 ? ", " : "", label);
          }
        adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
        /* Translators: %s is a list such as "the GPU, the model" */
        {
          g_autofree char *title = g_strdup_printf (_("The file does not say %s"), list->str);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
        }
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                     run->candidate_id == 0
                                     ? _("Procura does not guess: choose above the candidate it was measured on")
                                     : _("Taken from the candidate it is assigned to"));
        adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);
      }
  }

  /* Warnings */
  for (guint i = 0; run->warnings != NULL && i < run->warnings->len; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      gtk_widget_add_css_class (icon, "warning");
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), g_ptr_array_index (run->warnings, i));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);
    }

  /* Provenance */
  if (run->provenance != NULL)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *prov = NULL;
      g_autofree char *sha = g_strndup (run->provenance->sha256 != NULL ? run->provenance->sha256 : "", 12);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                     run->provenance->file_name != NULL ? run->provenance->file_name : _("Unknown file"));
      /* Translators: provenance: importer · SHA-256 prefix · import time */
      prov = g_strdup_printf (_("Imported by %s · SHA-256 %s… · %s"),
                              run->provenance->importer != NULL ? run->provenance->importer : "?",
                              sha, run->provenance->imported_at != NULL ? run->provenance->imported_at : "");
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), prov);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("text-x-generic-symbolic"));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);
    }
  return expander;
}

static void
remove_children (GtkBox *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))) != NULL)
    gtk_box_remove (box, child);
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
        GtkWidget *row = run_row (self, project, run);

        remember_expanded (row, self->expanded, "run", run->id);
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

  remove_children (self->box);
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
  rebuild (self);
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
  rebuild (self);
}

void
procura_benchmarks_page_set_import_errors (ProcuraBenchmarksPage *self,
                                           const char * const    *errors)
{
  g_return_if_fail (PROCURA_IS_BENCHMARKS_PAGE (self));
  g_strfreev (self->import_errors);
  self->import_errors = g_strdupv ((char **) errors);
  rebuild (self);
}

static void
procura_benchmarks_page_dispose (GObject *object)
{
  ProcuraBenchmarksPage *self = PROCURA_BENCHMARKS_PAGE (object);

  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_clear_object (&self->document);
  g_clear_pointer (&self->import_errors, g_strfreev);
  /* No gtk_widget_dispose_template(): AdwBin unparents its child itself. */
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
procura_benchmarks_page_class_init (ProcuraBenchmarksPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = procura_benchmarks_page_dispose;
  object_class->finalize = procura_benchmarks_page_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/procura/Procura/procura-benchmarks-page.ui");
  gtk_widget_class_bind_template_child (widget_class, ProcuraBenchmarksPage, box);
  gtk_widget_class_bind_template_child (widget_class, ProcuraBenchmarksPage, stack);
  gtk_widget_class_bind_template_child (widget_class, ProcuraBenchmarksPage, status);
}

static void
procura_benchmarks_page_init (ProcuraBenchmarksPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->expanded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}
