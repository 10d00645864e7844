/* procura-fit-page.c: memory fit, engine logs and the probe
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-fit-page"

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>

#include "procura-fit-page.h"
#include "procura-layout.h"
#include "procura-format.h"

#include "procura-chart-view.h"

#include "procura-fit.h"
#include "procura-gpu-catalog.h"
#include "procura-model-catalog.h"

#include "procura-probe-client.h"
#include "procura-probe-fleet.h"
#include "procura-probe-import.h"
#include "procura-analysis.h"
#include "procura-figures.h"

struct _ProcuraFitPage
{
  ProcuraPage      parent_instance;

  GtkStack        *stack;
  AdwStatusPage   *status;
  GtkBox          *box;

  ProcuraDocument *document;
  gulong           changed_id;

  /* The calculator (persistent, like the probe panel; both built with the page's
   * first content, not with the window) */
  GtkWidget       *calc_panel;
  GtkWidget       *calc_model;
  GtkWidget       *calc_gpu;
  GtkWidget       *calc_weights;
  GtkWidget       *calc_kv;
  GtkWidget       *calc_engine;
  GtkWidget       *calc_context;
  GtkWidget       *calc_concurrency;
  GtkWidget       *calc_tp;
  GtkWidget       *calc_pp;
  GtkWidget       *calc_utilization;
  GtkWidget       *calc_results;
  GPtrArray       *calc_gpu_names;   /* char*: GPU of each entry of calc_gpu */
  GArray          *calc_gpu_parallel;/* int pairs: the candidate's TP and PP per entry */
  GArray          *calc_gpu_engine;  /* int: the candidate's engine per entry (0 vLLM, 1 SGLang) */
  GPtrArray       *calc_gpu_version; /* char*: its engine version ("" unknown) per entry */
  GArray          *calc_gpu_usable;  /* double: the probe's measured total per entry, NAN none */
  GtkWidget       *calc_engine_version;
  char            *calc_plan;        /* the calculator's allocation plan for the probe, or NULL */
  ProcuraModelShape *calc_config;    /* a config.json the analyst loaded, or NULL */
  gboolean         calc_filling;

  GtkWidget       *memory_view;
  GtkWidget       *fit_map_view;
  GCancellable    *figures_cancellable;
  gboolean         figures_pending;
  guint            figures_running;

  /* The probe panel survives rebuilds of the page. */
  GtkWidget       *probe_panel;
  GtkWidget       *probe_run;
  GtkWidget       *probe_cancel;
  GtkWidget       *probe_save;
  GtkWidget       *probe_progress;
  GtkWidget       *probe_status;
  GtkWidget       *probe_rows;
  GtkWidget       *probe_hosts;      /* AdwEntryRow: ssh targets for a fleet run */
  GHashTable      *probe_host_rows;  /* host -> AdwActionRow (owned by probe_rows) */
  GPtrArray       *probe_fleet;      /* the last fleet run's ProcuraProbeReport*, or NULL */
  GtkWidget       *probe_fleet_candidate; /* AdwComboRow: which candidate "Save" gives it */
  GCancellable    *probe_cancellable;
  char            *probe_state;      /* "idle", "running", "done", "cancelled" */
  char            *probe_result;     /* status of the last run, e.g. "ok", "crashed" */
  char            *probe_jsonl;      /* the last run's output */
  GStrv            probe_environ;    /* extra environment (tests point it at the fake driver) */
  double           probe_kill_after;
  guint            pulse_id;
  gboolean         probe_determinate; /* the run said how far it is: no pulsing */
  gboolean         probe_progress_seen; /* the run reported progress */
};

G_DEFINE_FINAL_TYPE (ProcuraFitPage, procura_fit_page, PROCURA_TYPE_PAGE)

enum {
  SIGNAL_PROBE_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void ensure_built (ProcuraFitPage *self);

static GtkWidget *
value_row (const char *title,
           const char *subtitle,
           const char *value)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new (value);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_add_css_class (label, "numeric");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  return row;
}

static const char *
candidate_name (ProcuraProject *project,
                gint64          id)
{
  ProcuraCandidate *c = id > 0 ? procura_project_find_candidate (project, id) : NULL;

  return c != NULL && c->name != NULL ? c->name : _("Not assigned");
}

typedef struct {
  ProcuraDocument *document;
  ProcuraProject  *project;   /* held */
  ProcuraChart    *memory;
  ProcuraChart    *fit_map;
} FiguresData;

static void
figures_data_free (FiguresData *data)
{
  procura_document_release_project (data->document);
  g_clear_pointer (&data->memory, procura_chart_unref);
  g_clear_pointer (&data->fit_map, procura_chart_unref);
  g_free (data);
}

static void
figures_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  FiguresData *data = task_data;
  ProcuraProject *project = data->project;

  data->memory = procura_figure_build ("memory", project, NULL, NULL);
  if (!g_cancellable_is_cancelled (cancellable))
    data->fit_map = procura_figure_build ("fit-map", project, NULL, NULL);
  g_task_return_boolean (task, TRUE);
}

static void
figures_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  FiguresData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr (ProcuraFitPage) self = PROCURA_FIT_PAGE (user_data);

  self->figures_running--;
  if (!g_task_propagate_boolean (G_TASK (result), NULL) || self->memory_view == NULL)
    return;
  procura_chart_view_set_chart (PROCURA_CHART_VIEW (self->memory_view), data->memory);
  procura_chart_view_set_chart (PROCURA_CHART_VIEW (self->fit_map_view), data->fit_map);
}

static void
start_figures (ProcuraFitPage *self)
{
  g_autoptr (GTask) task = NULL;
  FiguresData *data;

  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      /* Nothing is computed for a page nobody looks at, and a result for the
       * replaced snapshot is never shown. */
      g_cancellable_cancel (self->figures_cancellable);
      self->figures_pending = TRUE;
      return;
    }
  self->figures_pending = FALSE;
  g_cancellable_cancel (self->figures_cancellable);
  g_clear_object (&self->figures_cancellable);
  self->figures_cancellable = g_cancellable_new ();
  data = g_new0 (FiguresData, 1);
  data->document = self->document;
  data->project = procura_document_hold_project (self->document);
  task = g_task_new (NULL, self->figures_cancellable, figures_done_cb, g_object_ref (self));
  g_task_set_task_data (task, data, (GDestroyNotify) figures_data_free);
  self->figures_running++;
  g_task_run_in_thread (task, figures_thread);
}

static void
map_cb (GtkWidget      *widget,
        ProcuraFitPage *self)
{
  if (self->figures_pending && self->document != NULL)
    start_figures (self);
}

gboolean
procura_fit_page_get_busy (ProcuraFitPage *self)
{
  g_return_val_if_fail (PROCURA_IS_FIT_PAGE (self), FALSE);
  return self->figures_running > 0 || (self->figures_pending && gtk_widget_get_mapped (GTK_WIDGET (self)));
}

static GtkWidget *
chart_frame (GtkWidget *view)
{
  GtkWidget *frame = gtk_frame_new (NULL);

  gtk_widget_add_css_class (frame, "card");
  gtk_widget_set_size_request (view, -1, 360);
  gtk_widget_set_margin_start (view, 6);
  gtk_widget_set_margin_end (view, 6);
  gtk_widget_set_margin_top (view, 6);
  gtk_widget_set_margin_bottom (view, 6);
  gtk_frame_set_child (GTK_FRAME (frame), view);
  return frame;
}

static void
go_to_brief_cb (GtkButton *button,
                gpointer   user_data)
{
  gtk_widget_activate_action (GTK_WIDGET (button), "win.page", "i", 0);
}

static void
calculator_group (ProcuraFitPage *self,
                  ProcuraProject *project)
{
  GtkWidget *group = adw_preferences_group_new ();
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *edit = gtk_button_new_with_mnemonic (_("_Edit in the Brief"));
  ProcuraBrief *brief = project->brief;
  const char *model = brief != NULL ? brief->model_shape : NULL;
  g_autofree char *context = procura_format_number (brief != NULL ? brief->context_tokens : NAN, 0);
  g_autofree char *conc = procura_format_number (brief != NULL ? brief->concurrency : NAN, 0);
  g_autofree char *subtitle = NULL;

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Memory per Candidate"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("The brief’s model at its context and concurrency, on every candidate’s GPUs, and the fit map."));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), model != NULL ? model : _("No model in the brief"));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  /* Translators: the fit inputs taken from the brief */
  subtitle = g_strdup_printf (_("Context %s tokens · %s concurrent sequences per replica"), context, conc);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_valign (edit, GTK_ALIGN_CENTER);
  g_signal_connect (edit, "clicked", G_CALLBACK (go_to_brief_cb), NULL);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), edit);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
  {
    GtkWidget *charts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);

    gtk_widget_set_margin_top (charts, 12);
    if (gtk_widget_get_parent (self->memory_view) != NULL)
      {
        gtk_frame_set_child (GTK_FRAME (gtk_widget_get_parent (self->memory_view)), NULL);
        gtk_frame_set_child (GTK_FRAME (gtk_widget_get_parent (self->fit_map_view)), NULL);
      }
    gtk_box_append (GTK_BOX (charts), chart_frame (self->memory_view));
    gtk_box_append (GTK_BOX (charts), chart_frame (self->fit_map_view));
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), charts);

    start_figures (self);
  }
  gtk_box_append (self->box, group);
}

static const char *
compare_label (const char *id)
{
  if (g_str_equal (id, "usable"))
    return _("Usable memory");
  if (g_str_equal (id, "weights"))
    return _("Weights");
  if (g_str_equal (id, "profile"))
    return _("Activation and non-torch (profiling run)");
  if (g_str_equal (id, "cuda-graphs"))
    return _("CUDA graphs");
  if (g_str_equal (id, "kv-pool"))
    return _("KV pool");
  if (g_str_equal (id, "kv-tokens"))
    return _("KV cache tokens");
  return _("Headroom");
}

static char *
compare_value (double      v,
               gboolean    tokens)
{
  g_autofree char *n = NULL;

  if (!isfinite (v))
    return g_strdup ("—");
  if (tokens)
    return procura_format_count ((gint64) v);
  n = procura_format_number (v, 2);
  /* Translators: an amount of memory in GiB */
  return g_strdup_printf (_("%s GiB"), n);
}

/* Per candidate with an engine log or a probe result: the calculator, the engine log and
 * the probe side by side, each difference explained. */
static void
compare_group (ProcuraFitPage *self,
               ProcuraProject *project)
{
  GtkWidget *group = NULL;

  for (guint i = 0; i < project->candidates->len; i++)
    {
      ProcuraCandidate *c = g_ptr_array_index (project->candidates, i);
      gboolean measured = FALSE;
      g_autoptr (GArray) rows = NULL;
      g_autofree char *reason = NULL;
      GtkWidget *expander;

      for (guint k = 0; k < project->engine_logs->len && !measured; k++)
        measured = ((ProcuraEngineLog *) g_ptr_array_index (project->engine_logs, k))->candidate_id == c->id;
      for (guint k = 0; k < project->probe_results->len && !measured; k++)
        measured = ((ProcuraProbeResult *) g_ptr_array_index (project->probe_results, k))->candidate_id == c->id;
      if (!measured || c->kind == PROCURA_CANDIDATE_API)
        continue;
      rows = procura_analysis_fit_compare (project, c, &reason);
      if (group == NULL)
        {
          group = adw_preferences_group_new ();
          adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Calculator, Engine Log and Probe"));
          adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                                 _("Per GPU, the calculator’s figures beside what the engine and the probe measured, and where each difference comes from."));
        }
      expander = adw_expander_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (expander), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (expander), c->name);
      if (rows == NULL)
        adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (expander), reason);
      for (guint r = 0; rows != NULL && r < rows->len; r++)
        {
          const ProcuraFitCompareRow *row = &g_array_index (rows, ProcuraFitCompareRow, r);
          gboolean tokens = g_str_equal (row->id, "kv-tokens");
          g_autofree char *calc = compare_value (row->calculated, tokens);
          g_autofree char *engine = compare_value (row->engine, tokens);
          g_autofree char *probe = compare_value (row->probe, tokens);
          double measured_v = isfinite (row->engine) ? row->engine : row->probe;
          g_autofree char *diff = isfinite (measured_v) && isfinite (row->calculated)
                                  ? (tokens ? g_strdup_printf ("%+.0f", row->calculated - measured_v)
                                            : g_strdup_printf ("%+.2f", row->calculated - measured_v))
                                  : g_strdup ("—");
          /* Translators: calculator, engine log and probe figures, then why they differ */
          g_autofree char *subtitle = g_strdup_printf (_("calculated %s · engine log %s · probe %s\n%s"),
                                                       calc, engine, probe, row->explanation);
          GtkWidget *line = adw_action_row_new ();
          GtkWidget *label = gtk_label_new (diff);

          adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (line), FALSE);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (line), compare_label (row->id));
          adw_action_row_set_subtitle (ADW_ACTION_ROW (line), subtitle);
          gtk_widget_add_css_class (label, "numeric");
          gtk_widget_set_tooltip_text (label, _("Calculated less measured"));
          adw_action_row_add_suffix (ADW_ACTION_ROW (line), label);
          adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), line);
        }
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), expander);
    }
  if (group != NULL)
    gtk_box_append (self->box, group);
}

static void
engine_logs_group (ProcuraFitPage *self,
                   ProcuraProject *project)
{
  GtkWidget *group;

  if (project->engine_logs->len == 0)
    return;
  group = adw_preferences_group_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Engine Logs"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("What the serving engine reported at start-up."));
  for (guint i = 0; i < project->engine_logs->len; i++)
    {
      ProcuraEngineLog *log = g_ptr_array_index (project->engine_logs, i);
      GtkWidget *expander = adw_expander_row_new ();
      g_autofree char *title = g_strdup_printf ("%s %s · %s", log->engine != NULL ? log->engine : "",
                                                log->engine_version != NULL ? log->engine_version : "",
                                                candidate_name (project, log->candidate_id));
      g_autofree char *weights = procura_format_number (log->weights_gib, 2);
      g_autofree char *kv = procura_format_number (log->kv_available_gib, 2);
      g_autofree char *tokens = procura_format_count (log->kv_tokens);
      g_autofree char *conc = procura_format_number (log->max_concurrency, 1);
      g_autofree char *weights_gib = g_strdup_printf (_("%s GiB"), weights);
      g_autofree char *kv_gib = g_strdup_printf (_("%s GiB"), kv);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (expander), title);
      adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (expander),
                                     log->model != NULL ? log->model : _("Unknown model"));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), value_row (_("Weights"), NULL, weights_gib));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), value_row (_("KV cache available"), NULL, kv_gib));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), value_row (_("KV cache tokens"), NULL, tokens));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (expander),
                                value_row (_("Maximum concurrency"), _("At the logged maximum model length"), conc));
      for (guint j = 0; log->errors != NULL && j < log->errors->len; j++)
        {
          GtkWidget *row = adw_action_row_new ();
          GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-error-symbolic");

          gtk_widget_add_css_class (icon, "error");
          adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), g_ptr_array_index (log->errors, j));
          adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);
        }
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), expander);
    }
  gtk_box_append (self->box, group);
}

static void
probe_group (ProcuraFitPage *self,
             ProcuraProject *project)
{
  GtkWidget *group = adw_preferences_group_new ();
  GtkWidget *import = gtk_button_new_with_mnemonic (_("_Import Probe Output…"));

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("GPU Probe"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("Measured inventory, free memory and bandwidth, from the local probe or a remote run’s output."));
  gtk_widget_add_css_class (import, "flat");
  gtk_widget_set_valign (import, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (import), "win.import");
  adw_preferences_group_set_header_suffix (ADW_PREFERENCES_GROUP (group), import);
  if (project->probe_results->len == 0)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No probe results"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                   _("Run “procura probe” on the GPU machine and import its output here."));
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
    }
  for (guint i = 0; i < project->probe_results->len; i++)
    {
      ProcuraProbeResult *r = g_ptr_array_index (project->probe_results, i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *badge;
      g_autofree char *title = g_strdup_printf ("%s · %s", r->device_name != NULL ? r->device_name : _("Unknown device"),
                                                r->test != NULL ? r->test : "");
      g_autofree char *total = procura_format_number (r->total_bytes / (1024.0 * 1024 * 1024), 1);
      g_autofree char *free_ = procura_format_number (r->free_bytes / (1024.0 * 1024 * 1024), 1);
      g_autofree char *bw = procura_format_number (r->bandwidth_gbps, 0);
      g_autofree char *subtitle = NULL;

      /* Translators: probe result: free of total GiB · bandwidth · candidate */
      subtitle = g_strdup_printf (_("%s of %s GiB free · %s GB/s · %s"), free_, total, bw,
                                  candidate_name (project, r->candidate_id));
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      if (g_strcmp0 (r->test, "fit") == 0)
        {
          badge = gtk_label_new (r->fits ? _("Fits") : _("Does not fit"));
          gtk_widget_add_css_class (badge, r->fits ? "success" : "error");
          gtk_widget_add_css_class (badge, "caption-heading");
          adw_action_row_add_suffix (ADW_ACTION_ROW (row), badge);
        }
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
    }
  gtk_box_append (self->box, group);
}



/* ------------------------------------------------------------------------- */
/* The memory-fit calculator                                                  */

static const ProcuraDtype weight_dtypes[] = {
  PROCURA_DTYPE_AUTO, PROCURA_DTYPE_BF16, PROCURA_DTYPE_FP16, PROCURA_DTYPE_FP8, PROCURA_DTYPE_INT8, PROCURA_DTYPE_INT4,
};
static const ProcuraDtype kv_dtypes[] = { PROCURA_DTYPE_AUTO, PROCURA_DTYPE_BF16, PROCURA_DTYPE_FP8 };

static void
calc_clear_results (ProcuraFitPage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->calc_results)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->calc_results), child);
}

static void
calc_result_row (ProcuraFitPage *self,
                 const char     *title,
                 const char     *subtitle,
                 const char     *value,
                 const char     *style)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL && *subtitle != '\0')
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  if (value != NULL)
    {
      GtkWidget *label = gtk_label_new (value);

      gtk_widget_add_css_class (label, style != NULL ? style : "numeric");
      if (style != NULL)
        gtk_widget_add_css_class (label, "heading");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
    }
  gtk_list_box_append (GTK_LIST_BOX (self->calc_results), row);
}

static char *
gib (double bytes)
{
  g_autofree char *n = procura_format_number (bytes / (1024.0 * 1024 * 1024), 1);
  /* Translators: an amount of memory in GiB */
  return g_strdup_printf (_("%s GiB"), n);
}

static void
calc_recompute (ProcuraFitPage *self)
{
  g_autoptr (ProcuraModelShape) catalog_shape = NULL;
  const ProcuraModelShape *model = NULL;
  const char *model_text = gtk_editable_get_text (GTK_EDITABLE (self->calc_model));
  guint gpu_index = adw_combo_row_get_selected (ADW_COMBO_ROW (self->calc_gpu));
  const char *gpu_name = NULL;
  const ProcuraGpuSpec *gpu = NULL;
  ProcuraFitRequest request;
  ProcuraFitResult result;
  g_autoptr (GError) error = NULL;
  guint w = adw_combo_row_get_selected (ADW_COMBO_ROW (self->calc_weights));
  guint k = adw_combo_row_get_selected (ADW_COMBO_ROW (self->calc_kv));
  gboolean probed = FALSE;

  if (self->calc_filling || self->calc_results == NULL)
    return;
  calc_clear_results (self);
  g_clear_pointer (&self->calc_plan, g_free);
  if (self->calc_config != NULL && (*model_text == '\0' || g_strcmp0 (model_text, self->calc_config->id) == 0))
    model = self->calc_config;
  else if (*model_text != '\0')
    model = catalog_shape = procura_model_catalog_lookup (model_text);
  if (model == NULL)
    {
      calc_result_row (self, _("Unknown model"),
                       _("Type a model of the catalog (for example meta-llama/Llama-3.1-8B-Instruct) or load its config.json."),
                       NULL, NULL);
      return;
    }
  if (self->calc_gpu_names != NULL && gpu_index < self->calc_gpu_names->len)
    gpu_name = g_ptr_array_index (self->calc_gpu_names, gpu_index);
  if (gpu_name != NULL)
    gpu = procura_gpu_catalog_lookup (gpu_name);
  if (gpu == NULL)
    {
      calc_result_row (self, _("Unknown GPU"),
                       _("Give the candidate a GPU of the catalog (its GPU field on the Candidates page)."),
                       NULL, NULL);
      return;
    }

  procura_fit_request_init (&request);
  request.model = model;
  request.weights_dtype = weight_dtypes[MIN (w, G_N_ELEMENTS (weight_dtypes) - 1)];
  request.kv_dtype = kv_dtypes[MIN (k, G_N_ELEMENTS (kv_dtypes) - 1)];
  request.context_tokens = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->calc_context));
  request.concurrency = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->calc_concurrency));
  request.tp = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->calc_tp));
  request.pp = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->calc_pp));
  request.engine = adw_combo_row_get_selected (ADW_COMBO_ROW (self->calc_engine)) == 1
                   ? PROCURA_ENGINE_SGLANG : PROCURA_ENGINE_VLLM;
  if (request.engine == PROCURA_ENGINE_VLLM)
    request.gpu_memory_utilization = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->calc_utilization));
  else
    request.mem_fraction_static = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->calc_utilization));
  request.gpu_id = gpu->id;
  request.usable_memory_bytes = procura_gpu_spec_usable_bytes (gpu, NULL);
  /* the probe measured this candidate's GPU: its total, as in the analysis */
  if (self->calc_gpu_usable != NULL && gpu_index < self->calc_gpu_usable->len
      && isfinite (g_array_index (self->calc_gpu_usable, double, gpu_index)))
    {
      request.usable_memory_bytes = g_array_index (self->calc_gpu_usable, double, gpu_index);
      probed = TRUE;
    }
  {
    const char *version = gtk_editable_get_text (GTK_EDITABLE (self->calc_engine_version));

    if (request.engine == PROCURA_ENGINE_VLLM && version != NULL && *version != '\0')
      {
        if (!procura_fit_engine_version_valid (version))
          {
            calc_result_row (self, _("Unknown engine version"),
                             _("Type a version such as 0.19.0, or leave it empty for the newest known rules."),
                             NULL, NULL);
            return;
          }
        request.engine_version = version;
      }
  }

  if (!procura_fit_compute (&request, &result, &error))
    {
      calc_result_row (self, _("Cannot compute the fit"), error->message, NULL, NULL);
      return;
    }
  /* "Check on this GPU" hands the probe exactly this plan, one GPU's share of it (every
   * GPU of the replica holds the same allocations): `procura fit --plan` writes the
   * whole replica for a machine with all its GPUs */
  {
    g_autofree char *plan_name = g_strdup_printf ("%s on %s", model->id ? model->id : "model", gpu->name);
    ProcuraFitResult one_gpu = result;

    one_gpu.gpus = 1;
    self->calc_plan = procura_probe_plan_from_fit (&one_gpu, plan_name);
  }
  {
    g_autofree char *weights = gib (result.weights_bytes);
    g_autofree char *pool = gib (result.kv_pool_bytes);
    g_autofree char *needed = gib (result.kv_needed_bytes);
    g_autofree char *headroom = gib (result.headroom_bytes);
    g_autofree char *usable = gib (result.usable_memory_bytes);
    g_autofree char *conc = procura_format_number (result.max_concurrency, 1);
    g_autofree char *max_context = procura_format_count (result.max_context);
    /* Translators: the GPU the fit is computed for, and its usable memory */
    g_autofree char *on = probed ? g_strdup_printf (_("On %s, %s usable per GPU (measured by the probe)"), gpu->name, usable)
                                 : g_strdup_printf (_("On %s, %s usable per GPU"), gpu->name, usable);

    calc_result_row (self, on, result.fits ? NULL : result.limit_text,
                     result.fits ? _("Fits") : _("Does not fit"), result.fits ? "success" : "error");
    calc_result_row (self, _("Engine rules"), NULL, result.engine_rules, NULL);
    calc_result_row (self, _("Weights per GPU"), NULL, weights, NULL);
    calc_result_row (self, _("KV cache pool per GPU"), NULL, pool, NULL);
    calc_result_row (self, _("KV cache the target needs per GPU"), NULL, needed, NULL);
    calc_result_row (self, _("Most concurrent sequences at this context"), NULL, conc, NULL);
    calc_result_row (self, _("Longest context at this concurrency (tokens)"), NULL, max_context, NULL);
    calc_result_row (self, _("Headroom per GPU"), result.caveat, headroom, NULL);
  }
}

static void
calc_changed_cb (GObject        *object,
                 GParamSpec     *pspec,
                 ProcuraFitPage *self)
{
  calc_recompute (self);
}

/* Choosing another candidate's GPU takes that candidate's parallelism too. */
static void
calc_gpu_selected_cb (GObject        *object,
                      GParamSpec     *pspec,
                      ProcuraFitPage *self)
{
  guint index = adw_combo_row_get_selected (ADW_COMBO_ROW (self->calc_gpu));

  if (!self->calc_filling && self->calc_gpu_parallel != NULL
      && index != GTK_INVALID_LIST_POSITION && 2 * index + 1 < self->calc_gpu_parallel->len)
    {
      self->calc_filling = TRUE;
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->calc_tp),
                                 g_array_index (self->calc_gpu_parallel, int, 2 * index));
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->calc_pp),
                                 g_array_index (self->calc_gpu_parallel, int, 2 * index + 1));
      if (self->calc_gpu_engine != NULL && index < self->calc_gpu_engine->len)
        {
          adw_combo_row_set_selected (ADW_COMBO_ROW (self->calc_engine),
                                      g_array_index (self->calc_gpu_engine, int, index));
          gtk_editable_set_text (GTK_EDITABLE (self->calc_engine_version),
                                 g_ptr_array_index (self->calc_gpu_version, index));
        }
      self->calc_filling = FALSE;
    }
  calc_recompute (self);
}

void
procura_fit_page_select_calculator_candidate (ProcuraFitPage *self,
                                              guint           index)
{
  g_return_if_fail (PROCURA_IS_FIT_PAGE (self));
  ensure_built (self);
  adw_combo_row_set_selected (ADW_COMBO_ROW (self->calc_gpu), index);
}

const char *
procura_fit_page_get_probe_plan (ProcuraFitPage *self)
{
  g_return_val_if_fail (PROCURA_IS_FIT_PAGE (self), NULL);
  ensure_built (self);
  return self->calc_plan;
}

const char *
procura_fit_page_get_calculator_engine_version (ProcuraFitPage *self)
{
  g_return_val_if_fail (PROCURA_IS_FIT_PAGE (self), NULL);
  ensure_built (self);
  return gtk_editable_get_text (GTK_EDITABLE (self->calc_engine_version));
}

void
procura_fit_page_get_calculator_parallelism (ProcuraFitPage *self,
                                             int            *tp,
                                             int            *pp)
{
  g_return_if_fail (PROCURA_IS_FIT_PAGE (self));
  ensure_built (self);
  *tp = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->calc_tp));
  *pp = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->calc_pp));
}

static void
calc_spin_changed_cb (GtkSpinButton  *spin,
                      ProcuraFitPage *self)
{
  calc_recompute (self);
}

static void
calc_apply_cb (AdwEntryRow    *row,
               ProcuraFitPage *self)
{
  calc_recompute (self);
}

static void
config_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    ProcuraFitPage  *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *contents = NULL;
      gsize len = 0;
      g_autoptr (GError) error = NULL;

      /* A config.json is a few kilobytes: read here, parsed by the core. */
      if (g_file_load_contents (file, NULL, &contents, &len, NULL, &error))
        {
          g_autofree char *base = g_file_get_basename (file);
          ProcuraModelShape *shape = procura_model_shape_from_config_json (NULL, contents, len, &error);

          if (shape != NULL)
            {
              g_clear_pointer (&self->calc_config, procura_model_shape_free);
              self->calc_config = shape;
              self->calc_filling = TRUE;
              gtk_editable_set_text (GTK_EDITABLE (self->calc_model), shape->id != NULL ? shape->id : base);
              self->calc_filling = FALSE;
            }
        }
      if (error != NULL)
        gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", error->message);
      calc_recompute (self);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
load_config_clicked_cb (GtkButton      *button,
                        ProcuraFitPage *self)
{
  GtkFileChooserNative *chooser;
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Load a Model’s config.json"),
                                         GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Load"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("Model configuration (JSON)"));
  gtk_file_filter_add_suffix (filter, "json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (config_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static GtkWidget *
calc_combo (const char * const *labels,
            const char         *title)
{
  GtkWidget *row = adw_combo_row_new ();
  g_autoptr (GtkStringList) list = gtk_string_list_new ((const char * const *) labels);

  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (list));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  return row;
}

static GtkWidget *
calc_spin (ProcuraFitPage  *self,
           GtkWidget       *group,
           const char      *title,
           double           min,
           double           max,
           double           step,
           int              digits)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (min, max, step);

  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), digits);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  g_signal_connect (spin, "value-changed", G_CALLBACK (calc_spin_changed_cb), self);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
  return spin;
}

static void
build_calculator (ProcuraFitPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *group = adw_preferences_group_new ();
  GtkWidget *load = gtk_button_new_with_mnemonic (_("Load _config.json…"));
  const char *weights[] = { _("As the checkpoint ships"), "BF16", "FP16", "FP8", "INT8", "INT4", NULL };
  const char *kv[] = { _("As the activations"), "BF16", "FP8", NULL };
  const char *engines[] = { "vLLM", "SGLang", NULL };

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Memory Fit Calculator"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("Weights, KV cache and activations per GPU for a model on a candidate’s GPU."));
  gtk_widget_add_css_class (load, "flat");
  gtk_widget_set_valign (load, GTK_ALIGN_CENTER);
  g_signal_connect (load, "clicked", G_CALLBACK (load_config_clicked_cb), self);
  adw_preferences_group_set_header_suffix (ADW_PREFERENCES_GROUP (group), load);

  self->calc_model = adw_entry_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->calc_model), _("Model (catalog id)"));
  adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (self->calc_model), TRUE);
  g_signal_connect (self->calc_model, "apply", G_CALLBACK (calc_apply_cb), self);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), self->calc_model);

  self->calc_gpu = adw_combo_row_new ();
  procura_combo_row_show_names (self->calc_gpu);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->calc_gpu), _("Candidate GPU"));
  g_signal_connect (self->calc_gpu, "notify::selected", G_CALLBACK (calc_gpu_selected_cb), self);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), self->calc_gpu);

  self->calc_weights = calc_combo (weights, _("Weights precision"));
  self->calc_kv = calc_combo (kv, _("KV cache precision"));
  self->calc_engine = calc_combo (engines, _("Engine"));
  for (GtkWidget *row = self->calc_weights; row != NULL;
       row = row == self->calc_weights ? self->calc_kv : row == self->calc_kv ? self->calc_engine : NULL)
    {
      g_signal_connect (row, "notify::selected", G_CALLBACK (calc_changed_cb), self);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
    }
  self->calc_engine_version = adw_entry_row_new ();
  /* Translators: e.g. 0.19.0; the brief's tooling or the candidate's engine fills it */
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->calc_engine_version), _("Engine version (vLLM)"));
  adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (self->calc_engine_version), TRUE);
  g_signal_connect (self->calc_engine_version, "apply", G_CALLBACK (calc_apply_cb), self);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), self->calc_engine_version);
  self->calc_context = calc_spin (self, group, _("Context per sequence (tokens)"), 128, 2097152, 1024, 0);
  self->calc_concurrency = calc_spin (self, group, _("Concurrent sequences"), 1, 4096, 1, 0);
  self->calc_tp = calc_spin (self, group, _("Tensor parallel (TP)"), 1, 64, 1, 0);
  self->calc_pp = calc_spin (self, group, _("Pipeline parallel (PP)"), 1, 64, 1, 0);
  self->calc_utilization = calc_spin (self, group, _("GPU memory share for the engine"), 0.3, 0.99, 0.01, 2);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->calc_utilization), 0.90);

  self->calc_results = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->calc_results), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (self->calc_results, "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->calc_results), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Memory fit result"), -1);

  gtk_box_append (GTK_BOX (box), group);
  gtk_box_append (GTK_BOX (box), self->calc_results);
  self->calc_panel = g_object_ref_sink (box);
}

static void
calc_fill (ProcuraFitPage *self,
           ProcuraProject *project)
{
  ProcuraBrief *brief = project->brief;
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);
  int tp = 1, pp = 1;

  self->calc_filling = TRUE;
  g_clear_pointer (&self->calc_gpu_names, g_ptr_array_unref);
  self->calc_gpu_names = g_ptr_array_new_with_free_func (g_free);
  g_clear_pointer (&self->calc_gpu_parallel, g_array_unref);
  self->calc_gpu_parallel = g_array_new (FALSE, FALSE, sizeof (int));
  g_clear_pointer (&self->calc_gpu_engine, g_array_unref);
  self->calc_gpu_engine = g_array_new (FALSE, FALSE, sizeof (int));
  g_clear_pointer (&self->calc_gpu_version, g_ptr_array_unref);
  self->calc_gpu_version = g_ptr_array_new_with_free_func (g_free);
  g_clear_pointer (&self->calc_gpu_usable, g_array_unref);
  self->calc_gpu_usable = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < project->candidates->len; i++)
    {
      ProcuraCandidate *c = g_ptr_array_index (project->candidates, i);

      if (c->kind == PROCURA_CANDIDATE_API || c->gpu_name == NULL)
        continue;
      gtk_string_list_append (names, c->name);
      g_ptr_array_add (self->calc_gpu_names, g_strdup (c->gpu_name));
      {
        /* TP, PP, engine and version as every fit of the candidate takes them (the
         * analysis' one request); the probe's measured total where it has one */
        int parallel[2] = { 1, 1 };
        int engine_index = 0;
        char *version = NULL;
        double usable = NAN;
        ProcuraAnalysisFitSetup setup;
        g_autofree char *reason = NULL;
        const ProcuraProbeResult *probe = procura_analysis_fit_probe (project, c->id);
        ProcuraFitEngine engine = PROCURA_ENGINE_VLLM;

        if (procura_analysis_fit_setup (project, c, FALSE, &setup, &reason))
          {
            parallel[0] = setup.request.tp;
            parallel[1] = setup.request.pp;
            engine = setup.request.engine;
            version = g_strdup (setup.engine_version);
            procura_analysis_fit_setup_clear (&setup);
          }
        else
          {
            /* no model or no catalog GPU yet: the same rules for what the candidate says */
            procura_analysis_fit_parallel (c, &parallel[0], &parallel[1]);
            procura_fit_engine_resolve (c->engine, brief != NULL ? brief->tooling : NULL, &engine, &version);
          }
        engine_index = engine == PROCURA_ENGINE_SGLANG ? 1 : 0;
        if (probe != NULL)
          usable = probe->total_bytes;
        g_array_append_vals (self->calc_gpu_parallel, parallel, 2);
        g_array_append_val (self->calc_gpu_engine, engine_index);
        g_ptr_array_add (self->calc_gpu_version, version != NULL ? version : g_strdup (""));
        g_array_append_val (self->calc_gpu_usable, usable);
        if (self->calc_gpu_names->len == 1)
          {
            tp = parallel[0];
            pp = parallel[1];
          }
      }
    }
  adw_combo_row_set_model (ADW_COMBO_ROW (self->calc_gpu), G_LIST_MODEL (names));
  gtk_editable_set_text (GTK_EDITABLE (self->calc_model),
                         brief != NULL && brief->model_shape != NULL ? brief->model_shape : "");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->calc_context),
                             brief != NULL && procura_is_set (brief->context_tokens) ? brief->context_tokens
                             : brief != NULL && procura_is_set (brief->input_tokens) && procura_is_set (brief->output_tokens)
                               ? brief->input_tokens + brief->output_tokens : 8192);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->calc_concurrency),
                             brief != NULL && procura_is_set (brief->concurrency) ? brief->concurrency : 32);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->calc_tp), tp);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->calc_pp), pp);
  if (self->calc_gpu_engine != NULL && self->calc_gpu_engine->len > 0)
    {
      adw_combo_row_set_selected (ADW_COMBO_ROW (self->calc_engine), g_array_index (self->calc_gpu_engine, int, 0));
      gtk_editable_set_text (GTK_EDITABLE (self->calc_engine_version), g_ptr_array_index (self->calc_gpu_version, 0));
    }
  self->calc_filling = FALSE;
  calc_recompute (self);
}

/* ------------------------------------------------------------------------- */
/* The probe panel                                                            */

static void
set_probe_state (ProcuraFitPage *self,
                 const char     *state)
{
  gboolean running = g_str_equal (state, "running");

  g_free (self->probe_state);
  self->probe_state = g_strdup (state);
  gtk_widget_set_visible (self->probe_run, !running);
  gtk_widget_set_visible (self->probe_cancel, running);
  gtk_widget_set_visible (self->probe_progress, running);
  gtk_widget_set_sensitive (self->probe_save, !running
                            && (self->probe_jsonl != NULL || self->probe_fleet != NULL)
                            && self->document != NULL && !procura_document_get_read_only (self->document));
  gtk_widget_set_visible (self->probe_fleet_candidate, !running && self->probe_fleet != NULL);
}

static void
clear_probe_rows (ProcuraFitPage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->probe_rows)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->probe_rows), child);
  if (self->probe_host_rows != NULL)
    g_hash_table_remove_all (self->probe_host_rows);
}

static void
add_probe_row (ProcuraFitPage *self,
               const char     *icon_name,
               const char     *title,
               const char     *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  if (icon_name != NULL)
    adw_action_row_add_prefix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name (icon_name));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_list_box_append (GTK_LIST_BOX (self->probe_rows), row);
  gtk_widget_set_visible (self->probe_rows, TRUE);
}

static gboolean
pulse_cb (gpointer user_data)
{
  ProcuraFitPage *self = PROCURA_FIT_PAGE (user_data);

  if (!self->probe_determinate)
    gtk_progress_bar_pulse (GTK_PROGRESS_BAR (self->probe_progress));
  return G_SOURCE_CONTINUE;
}

static void
probe_event_cb (const char *event,
                JsonObject *object,
                gpointer    user_data)
{
  ProcuraFitPage *self = PROCURA_FIT_PAGE (user_data);

  if (self->probe_panel == NULL)
    return;
  if (g_str_equal (event, "progress"))
    {
      gint64 done = json_object_get_int_member_with_default (object, "done", 0);
      gint64 total = json_object_get_int_member_with_default (object, "total", 0);
      const char *step = json_object_get_string_member_with_default (object, "step", "");
      g_autofree char *text = NULL;

      if (total > 0)
        {
          self->probe_determinate = TRUE;
          gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->probe_progress), (double) done / total);
        }
      /* Translators: probe progress, e.g. "bandwidth on GPU 0" */
      text = g_strdup_printf (_("%s on GPU %d"), step,
                              (int) json_object_get_int_member_with_default (object, "device", 0));
      gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->probe_progress), text);
      self->probe_progress_seen = TRUE;
    }
  else if (g_str_equal (event, "device"))
    {
      const char *name = json_object_get_string_member_with_default (object, "name", _("Unknown GPU"));
      double total = json_object_get_double_member_with_default (object, "total_bytes", NAN);
      g_autofree char *gib = procura_format_number (total / (1024.0 * 1024 * 1024), 1);
      /* Translators: a GPU found by the probe: memory in GiB */
      g_autofree char *subtitle = g_strdup_printf (_("%s GiB of memory"), gib);

      add_probe_row (self, "drive-harddisk-solidstate-symbolic", name, subtitle);
    }
}

static void
probe_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  ProcuraFitPage *self = PROCURA_FIT_PAGE (user_data);
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraProbeReport) report = procura_probe_run_finish (result, &error);

  if (self->probe_panel == NULL)
    {
      /* The page went away while the probe ran. */
      g_object_unref (self);
      return;
    }
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  g_clear_object (&self->probe_cancellable);
  g_free (self->probe_result);
  g_clear_pointer (&self->probe_jsonl, g_free);
  if (report == NULL)
    {
      self->probe_result = g_strdup ("cancelled");
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->probe_status), _("The probe was stopped"));
      set_probe_state (self, "cancelled");
    }
  else
    {
      self->probe_result = g_strdup (procura_probe_status_to_string (report->status));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->probe_status),
                                   report->message != NULL ? report->message : self->probe_result);
      for (guint i = 0; report->results != NULL && i < report->results->len; i++)
        {
          JsonObject *r = g_ptr_array_index (report->results, i);
          const char *test = json_object_get_string_member_with_default (r, "test", "");
          /* every bandwidth result of the probe names its figure "gbps" (docs/probe.md) */
          double gbps = json_object_has_member (r, "gbps")
                        && JSON_NODE_HOLDS_VALUE (json_object_get_member (r, "gbps"))
                        ? json_object_get_double_member (r, "gbps") : NAN;
          g_autofree char *title = g_strdup_printf ("%s · GPU %d", test,
                                                    (int) json_object_get_int_member_with_default (r, "device", 0));
          g_autofree char *subtitle = isnan (gbps) ? NULL : g_strdup_printf (_("%.0f GB/s"), gbps);

          add_probe_row (self, "emblem-ok-symbolic", title, subtitle);
        }
      if (report->status == PROCURA_PROBE_STATUS_OK && report->lines != NULL && report->lines->len > 0)
        self->probe_jsonl = procura_probe_report_to_jsonl (report);
      set_probe_state (self, "done");
    }
  g_signal_emit (self, signals[SIGNAL_PROBE_FINISHED], 0);
  g_object_unref (self);
}

void
procura_fit_page_run_probe (ProcuraFitPage *self)
{
  g_return_if_fail (PROCURA_IS_FIT_PAGE (self));
  ensure_built (self);
  {
    g_autoptr (ProcuraProbeOptions) options = procura_probe_options_new ();
    g_autofree char *hosts_text = g_strstrip (g_strdup (self->probe_hosts != NULL
                                                        ? gtk_editable_get_text (GTK_EDITABLE (self->probe_hosts))
                                                        : ""));

    if (self->probe_cancellable != NULL)
      return;
    if (*hosts_text != '\0')
      {
        g_autoptr (GError) error = NULL;
        g_autofree char *lines = g_strdelimit (g_strdup (hosts_text), " ,;\t", '\n');
        g_auto (GStrv) hosts = procura_probe_parse_hosts (_("Hosts"), lines, &error);

        if (hosts == NULL)
          {
            adw_action_row_set_subtitle (ADW_ACTION_ROW (self->probe_status), error->message);
            return;
          }
        procura_fit_page_run_probe_fleet (self, (const char * const *) hosts);
        return;
      }
    options->bandwidth = TRUE;
    options->kill_after_s = self->probe_kill_after;
    g_clear_pointer (&self->probe_fleet, g_ptr_array_unref);   /* Save: this run's, not a fleet's */
    /* the calculator's plan as it stands (the same as `procura fit --plan`) */
    options->plan_json = g_strdup (self->calc_plan);
    options->environ = g_strdupv (self->probe_environ);
    self->probe_cancellable = g_cancellable_new ();
    clear_probe_rows (self);
    gtk_widget_set_visible (self->probe_rows, FALSE);
    self->probe_determinate = FALSE;
    self->probe_progress_seen = FALSE;
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->probe_progress), 0);
    gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->probe_progress), _("Starting…"));
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self->probe_status), _("Running the probe on this machine…"));
    g_clear_pointer (&self->probe_jsonl, g_free);
    set_probe_state (self, "running");
    self->pulse_id = g_timeout_add (150, pulse_cb, self);
    /* The run holds the page until it ends (a cancel ends it at once). */
    procura_probe_run_async (options, self->probe_cancellable, probe_event_cb, self, probe_done_cb,
                             g_object_ref (self));
  }
}

static void
fleet_event_cb (const char *host,
                const char *event,
                JsonObject *object,
                gpointer    user_data)
{
  ProcuraFitPage *self = PROCURA_FIT_PAGE (user_data);
  GtkWidget *row;

  if (self->probe_panel == NULL || self->probe_host_rows == NULL
      || (row = g_hash_table_lookup (self->probe_host_rows, host)) == NULL)
    return;
  if (g_str_equal (event, "hello"))
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("Connected, the probe is running…"));
  else if (g_str_equal (event, "progress"))
    {
      /* Translators: a fleet host's progress, e.g. "alloc-kv on GPU 0: 12 of 32" */
      g_autofree char *text = g_strdup_printf (_("%s on GPU %d: %d of %d"),
                                               json_object_get_string_member_with_default (object, "step", ""),
                                               (int) json_object_get_int_member_with_default (object, "device", 0),
                                               (int) json_object_get_int_member_with_default (object, "done", 0),
                                               (int) json_object_get_int_member_with_default (object, "total", 0));

      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), text);
      self->probe_progress_seen = TRUE;
    }
}

/* The choices of the fleet's "Save to Project": a candidate per host (named after it),
 * no candidate, or one of the project's GPU candidates for every node. */
static void
fill_fleet_candidates (ProcuraFitPage *self)
{
  g_autoptr (GtkStringList) model = gtk_string_list_new (NULL);

  gtk_string_list_append (model, _("A candidate per host, named after it"));
  gtk_string_list_append (model, _("No candidate"));
  if (self->document != NULL)
    {
      ProcuraProject *project = procura_document_get_project (self->document);

      for (guint i = 0; i < project->candidates->len; i++)
        {
          const ProcuraCandidate *c = g_ptr_array_index (project->candidates, i);

          if (c->kind == PROCURA_CANDIDATE_GPU && c->name != NULL)
            gtk_string_list_append (model, c->name);
        }
    }
  adw_combo_row_set_model (ADW_COMBO_ROW (self->probe_fleet_candidate), G_LIST_MODEL (model));
  adw_combo_row_set_selected (ADW_COMBO_ROW (self->probe_fleet_candidate), 0);
}

static void
fleet_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  ProcuraFitPage *self = PROCURA_FIT_PAGE (user_data);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) reports = procura_probe_fleet_run_finish (result, &error);

  if (self->probe_panel == NULL)
    {
      g_object_unref (self);
      return;
    }
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  g_clear_object (&self->probe_cancellable);
  g_free (self->probe_result);
  g_clear_pointer (&self->probe_jsonl, g_free);
  g_clear_pointer (&self->probe_fleet, g_ptr_array_unref);
  if (reports == NULL)
    {
      self->probe_result = g_strdup ("cancelled");
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->probe_status), _("The probe was stopped"));
      set_probe_state (self, "cancelled");
    }
  else
    {
      g_autoptr (JsonObject) summary = procura_probe_fleet_summary (reports);
      JsonNode *slowest = json_object_get_member (summary, "slowest_read");
      gint64 failed = json_object_get_int_member (summary, "failed");
      g_autoptr (GString) text = g_string_new (NULL);

      for (guint i = 0; i < reports->len; i++)
        {
          ProcuraProbeReport *r = g_ptr_array_index (reports, i);
          GtkWidget *row = g_hash_table_lookup (self->probe_host_rows, r->host);
          gboolean ran = r->status == PROCURA_PROBE_STATUS_OK || r->status == PROCURA_PROBE_STATUS_DOES_NOT_FIT;

          if (row == NULL)
            continue;
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), r->message);
          adw_action_row_add_prefix (ADW_ACTION_ROW (row),
                                     gtk_image_new_from_icon_name (ran ? "emblem-ok-symbolic"
                                                                       : "dialog-warning-symbolic"));
        }
      /* Translators: the fleet summary: hosts, how many ran, how many failed */
      g_string_append_printf (text, _("%d hosts: %d ran, %d failed"),
                              (int) json_object_get_int_member (summary, "hosts"),
                              (int) json_object_get_int_member (summary, "ran"), (int) failed);
      if (slowest != NULL && JSON_NODE_HOLDS_OBJECT (slowest))
        {
          JsonObject *o = json_node_get_object (slowest);

          /* Translators: appended to the fleet summary */
          g_string_append_printf (text, _("; slowest HBM read bandwidth %.0f GB/s on %s"),
                                  json_object_get_double_member (o, "gbps"),
                                  json_object_get_string_member (o, "host"));
        }
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->probe_status), text->str);
      self->probe_result = g_strdup (failed == 0 ? "ok" : "failed");
      /* kept for "Save to Project", the nodes that failed included */
      self->probe_fleet = g_ptr_array_ref (reports);
      fill_fleet_candidates (self);
      set_probe_state (self, "done");
    }
  g_signal_emit (self, signals[SIGNAL_PROBE_FINISHED], 0);
  g_object_unref (self);
}

void
procura_fit_page_run_probe_fleet (ProcuraFitPage     *self,
                                  const char * const *hosts)
{
  g_return_if_fail (PROCURA_IS_FIT_PAGE (self));
  g_return_if_fail (hosts != NULL);
  ensure_built (self);
  {
    g_autoptr (ProcuraProbeOptions) options = procura_probe_options_new ();
    g_autofree char *status = NULL;

    if (self->probe_cancellable != NULL)
      return;
    options->bandwidth = TRUE;
    options->kill_after_s = self->probe_kill_after;
    options->environ = g_strdupv (self->probe_environ);
    self->probe_cancellable = g_cancellable_new ();
    g_clear_pointer (&self->probe_fleet, g_ptr_array_unref);
    clear_probe_rows (self);
    if (self->probe_host_rows == NULL)
      self->probe_host_rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    for (guint i = 0; hosts[i] != NULL; i++)
      {
        GtkWidget *row = adw_action_row_new ();

        adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
        adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), hosts[i]);
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("Waiting…"));
        gtk_list_box_append (GTK_LIST_BOX (self->probe_rows), row);
        g_hash_table_replace (self->probe_host_rows, g_strdup (hosts[i]), row);
      }
    gtk_widget_set_visible (self->probe_rows, TRUE);
    self->probe_determinate = FALSE;
    self->probe_progress_seen = FALSE;
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->probe_progress), 0);
    gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->probe_progress), _("Starting…"));
    /* Translators: the status while a fleet is probed */
    status = g_strdup_printf (_("Running the probe on %u hosts through ssh…"), g_strv_length ((char **) hosts));
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self->probe_status), status);
    g_clear_pointer (&self->probe_jsonl, g_free);
    set_probe_state (self, "running");
    self->pulse_id = g_timeout_add (150, pulse_cb, self);
    procura_probe_fleet_run_async (options, hosts, 8, self->probe_cancellable, fleet_event_cb, self,
                                   fleet_done_cb, g_object_ref (self));
  }
}

const char *
procura_fit_page_get_probe_host_status (ProcuraFitPage *self,
                                        const char     *host)
{
  GtkWidget *row;

  g_return_val_if_fail (PROCURA_IS_FIT_PAGE (self), NULL);
  if (self->probe_host_rows == NULL || (row = g_hash_table_lookup (self->probe_host_rows, host)) == NULL)
    return NULL;
  return adw_action_row_get_subtitle (ADW_ACTION_ROW (row));
}

const char *
procura_fit_page_get_probe_status_text (ProcuraFitPage *self)
{
  g_return_val_if_fail (PROCURA_IS_FIT_PAGE (self), NULL);
  ensure_built (self);
  return adw_action_row_get_subtitle (ADW_ACTION_ROW (self->probe_status));
}

void
procura_fit_page_cancel_probe (ProcuraFitPage *self)
{
  g_return_if_fail (PROCURA_IS_FIT_PAGE (self));
  if (self->probe_cancellable != NULL)
    g_cancellable_cancel (self->probe_cancellable);
}

gboolean
procura_fit_page_get_probe_progress_seen (ProcuraFitPage *self)
{
  g_return_val_if_fail (PROCURA_IS_FIT_PAGE (self), FALSE);
  return self->probe_progress_seen;
}

const char *
procura_fit_page_get_probe_state (ProcuraFitPage *self)
{
  g_return_val_if_fail (PROCURA_IS_FIT_PAGE (self), NULL);
  return self->probe_state;
}

const char *
procura_fit_page_get_probe_result (ProcuraFitPage *self)
{
  g_return_val_if_fail (PROCURA_IS_FIT_PAGE (self), NULL);
  return self->probe_result;
}

void
procura_fit_page_set_probe_environment (ProcuraFitPage     *self,
                                        const char * const *environ_,
                                        double              kill_after_s)
{
  g_return_if_fail (PROCURA_IS_FIT_PAGE (self));
  g_strfreev (self->probe_environ);
  self->probe_environ = g_strdupv ((char **) environ_);
  self->probe_kill_after = kill_after_s;
}

static void
probe_saved_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autofree char *path = user_data;
  g_auto (GStrv) errors = NULL;
  g_autoptr (GError) error = NULL;

  procura_document_import_finish (PROCURA_DOCUMENT (object), result, &errors, &error);
  g_unlink (path);
}

void
procura_fit_page_save_probe_fleet (ProcuraFitPage *self,
                                   const char     *candidate)
{
  g_autoptr (GPtrArray) names = NULL;

  g_return_if_fail (PROCURA_IS_FIT_PAGE (self));
  if (self->probe_fleet == NULL || self->document == NULL)
    return;
  names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < self->probe_fleet->len; i++)
    {
      const ProcuraProbeReport *r = g_ptr_array_index (self->probe_fleet, i);

      g_ptr_array_add (names, g_strdup (candidate != NULL ? candidate : r->host));
    }
  g_ptr_array_add (names, NULL);
  /* one transaction for the whole fleet, the failed nodes included */
  procura_document_save_probe_fleet (self->document, self->probe_fleet,
                                     (const char * const *) names->pdata);
  g_clear_pointer (&self->probe_fleet, g_ptr_array_unref);
  {
    /* the same state, with Save off (the fleet is stored once) */
    g_autofree char *state = g_strdup (self->probe_state != NULL ? self->probe_state : "done");

    set_probe_state (self, state);
  }
}

static void
save_probe_clicked_cb (GtkButton      *button,
                       ProcuraFitPage *self)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "procura", NULL);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%dT%H%M%S");
  g_autofree char *path = NULL;
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->probe_fleet != NULL)
    {
      guint choice = adw_combo_row_get_selected (ADW_COMBO_ROW (self->probe_fleet_candidate));
      GObject *item = choice >= 2 ? adw_combo_row_get_selected_item (ADW_COMBO_ROW (self->probe_fleet_candidate))
                                  : NULL;

      /* 0: a candidate per host; 1: none; then a candidate of the project */
      procura_fit_page_save_probe_fleet (self, choice == 0 ? NULL
                                               : item != NULL ? gtk_string_object_get_string (GTK_STRING_OBJECT (item))
                                                              : "");
      return;
    }
  if (self->probe_jsonl == NULL || self->document == NULL)
    return;
  g_mkdir_with_parents (dir, 0700);
  path = g_strdup_printf ("%s/probe-%s.jsonl", dir, stamp);
  if (!g_file_set_contents (path, self->probe_jsonl, -1, NULL))
    return;
  g_ptr_array_add (files, g_file_new_for_path (path));
  procura_document_import_async (self->document, files, NULL, NULL, probe_saved_cb, g_steal_pointer (&path));
  gtk_widget_set_sensitive (self->probe_save, FALSE);
}

static void
build_probe_panel (ProcuraFitPage *self)
{
  GtkWidget *group = adw_preferences_group_new ();
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Local Probe"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("Measures the GPUs of this machine: inventory, free memory and bandwidth. It never blocks the window and can be stopped at any time."));
  self->probe_run = gtk_button_new_with_mnemonic (_("_Run Probe"));
  self->probe_cancel = gtk_button_new_with_mnemonic (_("_Stop"));
  self->probe_save = gtk_button_new_with_mnemonic (_("Save to _Project"));
  gtk_widget_add_css_class (self->probe_run, "suggested-action");
  gtk_widget_add_css_class (self->probe_cancel, "destructive-action");
  g_signal_connect_swapped (self->probe_run, "clicked", G_CALLBACK (procura_fit_page_run_probe), self);
  g_signal_connect_swapped (self->probe_cancel, "clicked", G_CALLBACK (procura_fit_page_cancel_probe), self);
  g_signal_connect (self->probe_save, "clicked", G_CALLBACK (save_probe_clicked_cb), self);
  gtk_box_append (GTK_BOX (buttons), self->probe_save);
  gtk_box_append (GTK_BOX (buttons), self->probe_cancel);
  gtk_box_append (GTK_BOX (buttons), self->probe_run);
  gtk_widget_set_valign (buttons, GTK_ALIGN_CENTER);
  adw_preferences_group_set_header_suffix (ADW_PREFERENCES_GROUP (group), buttons);

  self->probe_status = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->probe_status), _("Status"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->probe_status), _("Not run yet"));
  self->probe_progress = gtk_progress_bar_new ();
  gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (self->probe_progress), TRUE);
  gtk_widget_set_valign (self->probe_progress, GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (self->probe_progress, 200, -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (self->probe_status), self->probe_progress);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), self->probe_status);

  /* ssh targets: Run probes them all at once instead of this machine */
  self->probe_hosts = adw_entry_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->probe_hosts),
                                 _("Hosts over ssh (space-separated; empty: this machine)"));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), self->probe_hosts);

  /* after a fleet run: the candidate its results are saved under */
  self->probe_fleet_candidate = adw_combo_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->probe_fleet_candidate), _("Save the Fleet As"));
  gtk_widget_set_visible (self->probe_fleet_candidate, FALSE);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), self->probe_fleet_candidate);

  self->probe_rows = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->probe_rows), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (self->probe_rows, "boxed-list");
  gtk_widget_set_margin_top (self->probe_rows, 12);
  gtk_widget_set_visible (self->probe_rows, FALSE);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), self->probe_rows);

  self->probe_panel = g_object_ref_sink (group);
  set_probe_state (self, "idle");
}

/* The calculator and the probe panel: built once, when the page is first built (shown,
 * or asked for by a caller), then kept across rebuilds (a probe may be running). */
static void
ensure_panels (ProcuraFitPage *self)
{
  if (self->probe_panel == NULL)
    build_probe_panel (self);
  if (self->calc_panel == NULL)
    build_calculator (self);
}

/* For the API that reads or drives the panels: the page as it would be shown. */
static void
ensure_built (ProcuraFitPage *self)
{
  procura_page_ensure_built (PROCURA_PAGE (self));
  ensure_panels (self);
}

gboolean
procura_fit_page_get_panels_built (ProcuraFitPage *self)
{
  g_return_val_if_fail (PROCURA_IS_FIT_PAGE (self), FALSE);
  return self->calc_panel != NULL && self->probe_panel != NULL;
}

static void
rebuild (ProcuraFitPage *self)
{
  ProcuraProject *project;

  procura_page_clear_box (self->box);
  if (self->document == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  project = procura_document_get_project (self->document);
  if (project->brief == NULL || project->brief->model_shape == NULL)
    {
      if (project->engine_logs->len == 0 && project->probe_results->len == 0)
        {
          gtk_stack_set_visible_child_name (self->stack, "empty");
          return;
        }
    }
  ensure_panels (self);
  gtk_box_append (self->box, self->calc_panel);
  calc_fill (self, project);
  calculator_group (self, project);
  gtk_box_append (self->box, self->probe_panel);
  compare_group (self, project);
  engine_logs_group (self, project);
  probe_group (self, project);
  gtk_stack_set_visible_child_name (self->stack, "content");
}

static void
document_changed_cb (ProcuraDocument *document,
                     ProcuraFitPage  *self)
{
  procura_page_queue_rebuild (PROCURA_PAGE (self));
}

void
procura_fit_page_set_document (ProcuraFitPage  *self,
                               ProcuraDocument *document)
{
  g_return_if_fail (PROCURA_IS_FIT_PAGE (self));

  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_set_object (&self->document, document);
  if (document != NULL)
    self->changed_id = g_signal_connect (document, "changed", G_CALLBACK (document_changed_cb), self);
  procura_page_queue_rebuild (PROCURA_PAGE (self));
}

static void
procura_fit_page_dispose (GObject *object)
{
  ProcuraFitPage *self = PROCURA_FIT_PAGE (object);

  if (self->probe_cancellable != NULL)
    g_cancellable_cancel (self->probe_cancellable);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  g_clear_object (&self->probe_panel);
  g_clear_pointer (&self->probe_host_rows, g_hash_table_unref);
  g_clear_pointer (&self->probe_fleet, g_ptr_array_unref);
  g_clear_object (&self->calc_panel);
  g_clear_pointer (&self->calc_gpu_names, g_ptr_array_unref);
  g_clear_pointer (&self->calc_gpu_parallel, g_array_unref);
  g_clear_pointer (&self->calc_gpu_engine, g_array_unref);
  g_clear_pointer (&self->calc_gpu_version, g_ptr_array_unref);
  g_clear_pointer (&self->calc_gpu_usable, g_array_unref);
  g_clear_pointer (&self->calc_plan, g_free);
  g_clear_pointer (&self->calc_config, procura_model_shape_free);
  g_cancellable_cancel (self->figures_cancellable);
  g_clear_object (&self->figures_cancellable);
  g_clear_object (&self->memory_view);
  g_clear_object (&self->fit_map_view);
  g_clear_pointer (&self->probe_state, g_free);
  g_clear_pointer (&self->probe_result, g_free);
  g_clear_pointer (&self->probe_jsonl, g_free);
  g_clear_pointer (&self->probe_environ, g_strfreev);
  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (procura_fit_page_parent_class)->dispose (object);
}

static void
page_rebuild (ProcuraPage *page)
{
  rebuild (PROCURA_FIT_PAGE (page));
}

static void
procura_fit_page_class_init (ProcuraFitPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = procura_fit_page_dispose;
  signals[SIGNAL_PROBE_FINISHED] =
    g_signal_new ("probe-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  PROCURA_PAGE_CLASS (klass)->rebuild = page_rebuild;
}

static void
procura_fit_page_init (ProcuraFitPage *self)
{
  self->stack = procura_page_get_stack (PROCURA_PAGE (self));
  self->status = procura_page_get_status (PROCURA_PAGE (self));
  self->box = procura_page_get_box (PROCURA_PAGE (self));
  procura_page_setup (PROCURA_PAGE (self), "drive-harddisk-solidstate-symbolic", _("No Memory Plan Yet"),
                      _("Choose a model in the brief to see whether it fits each candidate’s GPUs at the target context and concurrency."),
                      800, 600);
  self->probe_state = g_strdup ("idle");
  /* the empty state is for a brief without a model */
  procura_page_add_empty_action (PROCURA_PAGE (self), _("Choose the _Model"), "win.brief-field", "s", "model_shape");
  procura_page_add_empty_action (PROCURA_PAGE (self), _("Add _Candidates"), "win.page", "i", 1);
  g_signal_connect (self, "map", G_CALLBACK (map_cb), self);
  g_type_ensure (PROCURA_TYPE_CHART_VIEW);
  self->memory_view = g_object_ref_sink (procura_chart_view_new ());
  self->fit_map_view = g_object_ref_sink (procura_chart_view_new ());
  gtk_widget_set_hexpand (self->memory_view, TRUE);
  gtk_widget_set_hexpand (self->fit_map_view, TRUE);
}
