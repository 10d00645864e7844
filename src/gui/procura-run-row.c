/* procura-run-row.c: one benchmark run on the Benchmarks page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-run-row"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "procura-format.h"
#include "procura-import-json.h"
#include "procura-run-row.h"
#include "procura-run-samples.h"
#include "procura-layout.h"

struct _ProcuraRunRow
{
  AdwExpanderRow   parent_instance;

  ProcuraDocument *document;
  gint64           run_id;
  gboolean         filled;     /* the details were built (on the first expansion) */
  gboolean         filling;    /* the candidate row is being set up, not chosen */
};

G_DEFINE_FINAL_TYPE (ProcuraRunRow, procura_run_row, ADW_TYPE_EXPANDER_ROW)

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

static void
delete_clicked_cb (GtkButton     *button,
                   ProcuraRunRow *self)
{
  procura_document_delete_run (self->document, self->run_id);
}

static void
assign_selected_cb (AdwComboRow   *row,
                    GParamSpec    *pspec,
                    ProcuraRunRow *self)
{
  ProcuraProject *project = procura_document_get_project (self->document);
  guint selected = adw_combo_row_get_selected (row);
  gint64 candidate_id = 0;

  if (self->filling || selected == GTK_INVALID_LIST_POSITION)
    return;
  if (selected > 0 && selected - 1 < project->candidates->len)
    candidate_id = ((ProcuraCandidate *) g_ptr_array_index (project->candidates, selected - 1))->id;
  procura_document_assign_run (self->document, self->run_id, candidate_id);
}

/* The candidate it was measured on. */
static void
add_assign_row (ProcuraRunRow  *self,
                ProcuraProject *project,
                ProcuraRun     *run)
{
  GtkWidget *assign = adw_combo_row_new ();
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);
  guint selected = 0;

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
  self->filling = TRUE;
  adw_combo_row_set_selected (ADW_COMBO_ROW (assign), selected);
  self->filling = FALSE;
  gtk_widget_set_sensitive (assign, !procura_document_get_read_only (self->document));
  g_signal_connect (assign, "notify::selected", G_CALLBACK (assign_selected_cb), self);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (self), assign);
}

/* One row per metric and source, its statistics in reading order. */
static void
add_metric_rows (ProcuraRunRow *self,
                 ProcuraRun    *run)
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
          title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, recomputed from %lld sample",
                                                "%s, recomputed from %lld samples",
                                                (gulong) MAX (samples, 0)),
                                   procura_format_metric (metric), (long long) samples);
        else
          /* Translators: a metric whose figures are the file's own */
          title = g_strdup_printf (_("%s, as reported by the file"), procura_format_metric (metric));
        row = adw_action_row_new ();
        adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), line->str);
        adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
        adw_expander_row_add_row (ADW_EXPANDER_ROW (self), row);
      }
}

/* What the file does not say: asked for, never guessed. */
static void
add_missing_row (ProcuraRunRow *self,
                 ProcuraRun    *run)
{
  g_auto (GStrv) missing = procura_scenario_missing (&run->scenario);
  g_autoptr (GString) list = NULL;
  g_autofree char *title = NULL;
  GtkWidget *row;

  if (missing == NULL || missing[0] == NULL)
    return;
  list = g_string_new (NULL);
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
  row = adw_action_row_new ();
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("dialog-information-symbolic"));
  /* Translators: %s is a list such as "the GPU, the model" */
  title = g_strdup_printf (_("The file does not say %s"), list->str);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               run->candidate_id == 0
                               ? _("Procura does not guess: choose above the candidate it was measured on")
                               : _("Taken from the candidate it is assigned to"));
  adw_expander_row_add_row (ADW_EXPANDER_ROW (self), row);
}

static void
add_warning_rows (ProcuraRunRow *self,
                  ProcuraRun    *run)
{
  for (guint i = 0; run->warnings != NULL && i < run->warnings->len; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      gtk_widget_add_css_class (icon, "warning");
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), g_ptr_array_index (run->warnings, i));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (self), row);
    }
}

static void
add_provenance_row (ProcuraRunRow *self,
                    ProcuraRun    *run)
{
  GtkWidget *row;
  g_autofree char *prov = NULL;
  g_autofree char *sha = NULL;

  if (run->provenance == NULL)
    return;
  row = adw_action_row_new ();
  sha = g_strndup (run->provenance->sha256 != NULL ? run->provenance->sha256 : "", 12);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                 run->provenance->file_name != NULL ? run->provenance->file_name : _("Unknown file"));
  /* Translators: provenance: importer · SHA-256 prefix · import time */
  prov = g_strdup_printf (_("Imported by %s · SHA-256 %s… · %s"),
                          run->provenance->importer != NULL ? run->provenance->importer : "?",
                          sha, run->provenance->imported_at != NULL ? run->provenance->imported_at : "");
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), prov);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("text-x-generic-symbolic"));
  adw_expander_row_add_row (ADW_EXPANDER_ROW (self), row);
}

/* The per-request views (latency distribution, scatter), from the run's samples read
 * in a thread now that the row is expanded. */
static void
add_samples_row (ProcuraRunRow  *self,
                 ProcuraProject *project)
{
  GtkWidget *row = gtk_list_box_row_new ();
  const char *metric = project->brief != NULL ? project->brief->slo_metric : NULL;
  double threshold = project->brief != NULL && g_strcmp0 (metric, NULL) != 0
                     ? project->brief->slo_threshold_ms : NAN;

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row),
                              procura_run_samples_new (self->document, self->run_id, metric, threshold));
  adw_expander_row_add_row (ADW_EXPANDER_ROW (self), row);
}

/* The details, built once, from the project as it is when the row is first expanded
 * (the page rebuilds its rows when the project changes). */
static void
fill (ProcuraRunRow *self)
{
  ProcuraProject *project = procura_document_get_project (self->document);
  ProcuraRun *run = project != NULL ? find_run (project, self->run_id) : NULL;

  if (self->filled || run == NULL)
    return;
  self->filled = TRUE;
  add_assign_row (self, project, run);
  add_metric_rows (self, run);
  add_missing_row (self, run);
  add_warning_rows (self, run);
  add_provenance_row (self, run);
  add_samples_row (self, project);
}

static void
expanded_cb (ProcuraRunRow *self,
             GParamSpec    *pspec,
             gpointer       user_data)
{
  if (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (self)))
    fill (self);
}

GtkWidget *
procura_run_row_new (ProcuraDocument *document,
                     ProcuraRun      *run)
{
  ProcuraRunRow *self;
  GtkWidget *delete_button;
  g_autoptr (GString) subtitle = g_string_new (NULL);
  g_autofree char *completed = procura_format_count (run->completed);
  g_autofree char *failed = procura_format_count (run->failed);
  g_autofree char *rps = procura_format_number (run->request_throughput, 2);

  g_return_val_if_fail (PROCURA_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (run != NULL, NULL);

  self = g_object_new (PROCURA_TYPE_RUN_ROW, NULL);
  self->document = g_object_ref (document);
  self->run_id = run->id;
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self),
                                 run->label != NULL ? run->label : _("Unnamed run"));
  /* Translators: run summary: format · completed · failed · throughput */
  g_string_append_printf (subtitle, _("%s · %s completed, %s failed · %s requests/s"),
                          run->format != NULL ? run->format : _("unknown format"),
                          completed, failed, rps);
  if (run->scenario.gpu_name != NULL)
    g_string_append_printf (subtitle, " · %s", run->scenario.gpu_name);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (self), subtitle->str);

  delete_button = gtk_button_new_from_icon_name ("user-trash-symbolic");
  gtk_widget_add_css_class (delete_button, "flat");
  gtk_widget_set_valign (delete_button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (delete_button, _("Delete this run"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (delete_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Delete this run"), -1);
  gtk_widget_set_sensitive (delete_button, !procura_document_get_read_only (document));
  g_signal_connect (delete_button, "clicked", G_CALLBACK (delete_clicked_cb), self);
  adw_expander_row_add_action (ADW_EXPANDER_ROW (self), delete_button);

  g_signal_connect (self, "notify::expanded", G_CALLBACK (expanded_cb), NULL);
  return GTK_WIDGET (self);
}

gint64
procura_run_row_get_run_id (ProcuraRunRow *self)
{
  g_return_val_if_fail (PROCURA_IS_RUN_ROW (self), 0);
  return self->run_id;
}

static void
procura_run_row_dispose (GObject *object)
{
  ProcuraRunRow *self = PROCURA_RUN_ROW (object);

  g_clear_object (&self->document);
  G_OBJECT_CLASS (procura_run_row_parent_class)->dispose (object);
}

static void
procura_run_row_class_init (ProcuraRunRowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = procura_run_row_dispose;
}

static void
procura_run_row_init (ProcuraRunRow *self)
{
}
