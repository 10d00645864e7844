/* procura-compare-page.c: the comparison figures as live charts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The SLO and demand controls re-run the analysis in a thread and rebuild every
 * figure at once.
 */
#define G_LOG_DOMAIN "procura-compare-page"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "procura-chart-view.h"
#include "procura-compare-page.h"
#include "procura-layout.h"

#include "procura-chart.h"
#include "procura-analysis.h"
#include "procura-figures.h"

struct _ProcuraComparePage
{
  ProcuraPage      parent_instance;

  GtkStack        *stack;
  AdwStatusPage   *status;
  GtkBox          *box;
  GtkWidget       *complete_brief_button;   /* of the empty state */

  GtkWidget       *threshold_spin;
  GtkWidget       *percentile_spin;
  GtkWidget       *average_spin;
  GtkWidget       *peak_spin;
  GtkWidget       *grid;
  GtkWidget       *withheld_label;
  GtkWidget       *withheld_box;
  GtkWidget       *what_if_banner;
  GtkWidget       *what_if_label;
  GtkWidget       *what_if_apply;
  GtkWidget       *what_if_reset;
  GtkWidget       *what_if_undo;
  ProcuraBrief    *brief_before_apply; /* for "Undo" after "Apply to Brief" */
  struct _ProcuraAnalysis *analysis;    /* of the charts shown, what-if included */
  GtkWidget       *brief_button;   /* "Open Brief", when what is missing is in the brief */
  GPtrArray       *views;          /* ProcuraChartView*, one per figure */
  GPtrArray       *cards;          /* ChartCard*, one per figure (owned) */

  ProcuraDocument *document;
  gulong           changed_id;
  GCancellable    *cancellable;
  guint            debounce_id;
  gboolean         filling;
  gboolean         pending;        /* charts to rebuild once the page is shown */
  guint            running;        /* analyses in flight */
};

G_DEFINE_FINAL_TYPE (ProcuraComparePage, procura_compare_page, PROCURA_TYPE_PAGE)

enum {
  SIGNAL_CHARTS_UPDATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* One figure's card: its view and whether presentation mode shows it. */
typedef struct {
  ProcuraChartView *view;          /* in the card, which the page holds */
  gboolean          in_slides;
} ChartCard;

/* What a button of a card acts on, owned by its "clicked" or "toggled" handler: the
 * card's view and the extension or series name it stands for. */
typedef struct {
  ProcuraChartView *view;
  char             *text;
} ViewText;

static void
view_text_free (gpointer  data,
                GClosure *closure)
{
  ViewText *vt = data;

  g_free (vt->text);
  g_free (vt);
}

static ViewText *
view_text_new (GtkWidget  *view,
               const char *text)
{
  ViewText *vt = g_new0 (ViewText, 1);

  vt->view = PROCURA_CHART_VIEW (view);
  vt->text = g_strdup (text);
  return vt;
}

typedef struct {
  ProcuraDocument        *document;
  ProcuraProject         *project;   /* held */
  ProcuraAnalysisOptions  options;
  char                   *slo_metric;
  GPtrArray              *charts;    /* ProcuraChart* */
  char                   *withheld;
  gboolean                needs_brief;  /* the brief is incomplete or has no latency target */
  ProcuraAnalysis        *analysis;     /* what the charts were built from */
} AnalysisData;

static void
analysis_data_free (AnalysisData *data)
{
  procura_document_release_project (data->document);
  g_clear_pointer (&data->charts, g_ptr_array_unref);
  g_free (data->slo_metric);
  g_free (data->withheld);
  g_clear_pointer (&data->analysis, procura_analysis_free);
  g_free (data);
}

static void
chart_unref0 (gpointer chart)
{
  if (chart != NULL)
    procura_chart_unref (chart);
}

static void
analysis_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  AnalysisData *data = task_data;
  g_autoptr (ProcuraAnalysis) analysis = NULL;

  data->options.slo_metric = data->slo_metric;
  analysis = procura_analysis_run (data->project, &data->options);
  data->charts = g_ptr_array_new_with_free_func (chart_unref0);
  for (guint i = 0; procura_figure_names[i] != NULL; i++)
    {
      ProcuraChart *chart;

      if (g_cancellable_is_cancelled (cancellable))
        break;
      chart = procura_figure_build (procura_figure_names[i], data->project, analysis, NULL);
      /* A figure that cannot be built leaves its slot empty (the view shows nothing). */
      g_ptr_array_add (data->charts, chart);
    }
  {
    g_auto (GStrv) missing = data->project->brief != NULL ? procura_brief_missing (data->project->brief) : NULL;

    data->needs_brief = !isfinite (analysis->slo_threshold_ms) || analysis->slo_metric == NULL
                        || (missing != NULL && missing[0] != NULL);
  }
  if (analysis->ranking_withheld)
    data->withheld = g_strdup (analysis->ranking_withheld_reason);
  else if (data->needs_brief && data->project->runs->len > 0)
    data->withheld = g_strdup (_("The runs are imported, but the brief has no latency target to read them at: set its metric, percentile and threshold."));
  data->analysis = g_steal_pointer (&analysis);
  g_task_return_boolean (task, TRUE);
}

static void
analysis_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  ProcuraComparePage *self = PROCURA_COMPARE_PAGE (user_data);
  AnalysisData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  self->running--;
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_object_unref (self);
      return;   /* cancelled: the page is gone or a newer run replaced this one */
    }
  g_clear_pointer (&self->analysis, procura_analysis_free);
  self->analysis = g_steal_pointer (&data->analysis);
  for (guint i = 0; i < data->charts->len && i < self->views->len; i++)
    procura_chart_view_set_chart (g_ptr_array_index (self->views, i), g_ptr_array_index (data->charts, i));
  g_signal_emit (self, signals[SIGNAL_CHARTS_UPDATED], 0);
  gtk_label_set_text (GTK_LABEL (self->withheld_label), data->withheld != NULL ? data->withheld : "");
  gtk_widget_set_visible (self->withheld_box, data->withheld != NULL);
  gtk_widget_set_visible (self->brief_button, data->withheld != NULL && data->needs_brief);
  g_object_unref (self);
}

static void
run_analysis (ProcuraComparePage *self)
{
  g_autoptr (GTask) task = NULL;
  AnalysisData *data;
  ProcuraBrief *brief;

  if (self->document == NULL)
    return;
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      /* Nothing is computed for a page nobody looks at, and a result for the
       * replaced snapshot is never shown. */
      g_cancellable_cancel (self->cancellable);
      self->pending = TRUE;
      return;
    }
  self->pending = FALSE;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  data = g_new0 (AnalysisData, 1);
  data->document = self->document;
  data->project = procura_document_hold_project (self->document);
  brief = data->project->brief;
  procura_analysis_options_init (&data->options);
  data->slo_metric = g_strdup (brief != NULL ? brief->slo_metric : NULL);
  data->options.slo_threshold_ms = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->threshold_spin));
  data->options.slo_percentile = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->percentile_spin));
  data->options.demand_average = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->average_spin));
  data->options.demand_peak = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->peak_spin));
  /* Zero means "not set": keep the brief's figures. */
  if (data->options.slo_threshold_ms <= 0)
    data->options.slo_threshold_ms = NAN;
  if (data->options.demand_average <= 0)
    data->options.demand_average = NAN;
  if (data->options.demand_peak <= 0)
    data->options.demand_peak = NAN;
  task = g_task_new (NULL, self->cancellable, analysis_done_cb, g_object_ref (self));
  g_task_set_task_data (task, data, (GDestroyNotify) analysis_data_free);
  self->running++;
  g_task_run_in_thread (task, analysis_thread);
}

static gboolean
debounce_cb (gpointer user_data)
{
  ProcuraComparePage *self = PROCURA_COMPARE_PAGE (user_data);

  self->debounce_id = 0;
  run_analysis (self);
  return G_SOURCE_REMOVE;
}

/* The brief's value of a control (0 when unset, as the control shows it). */
static double
brief_value (double value,
             double unset)
{
  return procura_is_set (value) ? value : unset;
}

/* The controls as a what-if against the brief: one sentence, or NULL when they are
 * the brief's. */
static char *
what_if_text (ProcuraComparePage *self,
              ProcuraProject     *project)
{
  ProcuraBrief *b = project->brief;
  double t = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->threshold_spin));
  double p = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->percentile_spin));
  double avg = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->average_spin));
  double peak = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->peak_spin));

  if (b == NULL
      || (fabs (t - brief_value (b->slo_threshold_ms, 0)) < 1e-9 && fabs (p - brief_value (b->slo_percentile, 99)) < 1e-9
          && fabs (avg - brief_value (b->demand_average, 0)) < 1e-9 && fabs (peak - brief_value (b->demand_peak, 0)) < 1e-9))
    return NULL;
  /* Translators: the Compare page's controls, when they differ from the brief */
  return g_strdup_printf (_("What-if: p%g under %g ms at %g req/s average and %g peak, not the brief's target and demand. The recommendation on the Decision page uses the brief."),
                          p, t, avg, peak);
}

static void
update_what_if (ProcuraComparePage *self)
{
  g_autofree char *text = NULL;
  gboolean read_only;

  if (self->document == NULL || self->what_if_banner == NULL)
    return;
  read_only = procura_document_get_read_only (self->document);
  text = what_if_text (self, procura_document_get_project (self->document));
  procura_document_set_what_if (self->document, text);
  if (text != NULL)
    g_clear_pointer (&self->brief_before_apply, procura_brief_free);
  gtk_label_set_text (GTK_LABEL (self->what_if_label),
                      text != NULL ? text : _("The what-if is now the brief's target and demand."));
  gtk_widget_set_visible (self->what_if_apply, text != NULL && !read_only);
  gtk_widget_set_visible (self->what_if_reset, text != NULL);
  gtk_widget_set_visible (self->what_if_undo, text == NULL && self->brief_before_apply != NULL);
  gtk_widget_set_visible (self->what_if_banner, text != NULL || self->brief_before_apply != NULL);
}

static void
control_changed_cb (GtkSpinButton      *spin,
                    ProcuraComparePage *self)
{
  if (self->filling)
    return;
  update_what_if (self);
  g_clear_handle_id (&self->debounce_id, g_source_remove);
  self->debounce_id = g_timeout_add (250, debounce_cb, self);
}

static GtkWidget *
control (ProcuraComparePage  *self,
         GtkWidget           *box,
         const char          *title,
         double               max,
         double               step,
         int                  digits,
         GtkWidget          **spin_out)
{
  GtkWidget *column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *spin = gtk_spin_button_new_with_range (0, max, step);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), digits);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
  g_signal_connect (spin, "value-changed", G_CALLBACK (control_changed_cb), self);
  gtk_box_append (GTK_BOX (column), label);
  gtk_box_append (GTK_BOX (column), spin);
  procura_wrap_box_append (box, column);
  *spin_out = spin;
  return column;
}

static void
table_toggled_cb (GtkToggleButton *button,
                  GtkStack        *stack)
{
  gboolean table = gtk_toggle_button_get_active (button);

  if (table)
    {
      GtkWidget *view = gtk_stack_get_child_by_name (stack, "chart");
      GtkWidget *scroller = gtk_stack_get_child_by_name (stack, "table");
      GtkWidget *grid = gtk_grid_new ();
      ProcuraChart *chart = procura_chart_view_get_chart (PROCURA_CHART_VIEW (view));
      g_autoptr (GPtrArray) rows = chart != NULL ? procura_chart_table (chart, 50) : NULL;

      for (guint r = 0; rows != NULL && r < rows->len; r++)
        {
          char **cells = g_ptr_array_index (rows, r);

          for (guint c = 0; cells[c] != NULL; c++)
            {
              GtkWidget *label = gtk_label_new (cells[c]);

              gtk_label_set_xalign (GTK_LABEL (label), c == 0 ? 0 : 1);
              gtk_label_set_selectable (GTK_LABEL (label), TRUE);
              if (r == 0)
                gtk_widget_add_css_class (label, "heading");
              else
                gtk_widget_add_css_class (label, "numeric");
              gtk_grid_attach (GTK_GRID (grid), label, c, r, 1, 1);
            }
        }
      gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
      gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
      gtk_widget_set_margin_start (grid, 12);
      gtk_widget_set_margin_end (grid, 12);
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), grid);
    }
  gtk_stack_set_visible_child_name (stack, table ? "table" : "chart");
}

static void
export_response_cb (GtkNativeDialog  *dialog,
                    int               response,
                    ProcuraChartView *view)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr (GError) error = NULL;
      GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (view)));

      if (path != NULL && !procura_chart_view_export (view, path, &error) && root != NULL)
        gtk_widget_activate_action (root, "win.toast", "s", error->message);
      else if (root != NULL)
        gtk_widget_activate_action (root, "win.toast", "s", _("Chart exported"));
    }
  g_object_unref (dialog);
  g_object_unref (view);
}

static void
export_clicked_cb (GtkButton *button,
                   ViewText  *format)
{
  ProcuraChartView *view = format->view;
  const char *ext = format->text;
  GtkFileChooserNative *chooser;
  g_autofree char *name = NULL;
  const char *title = NULL;
  if (procura_chart_view_get_chart (view) != NULL)
    title = procura_chart_get_title (procura_chart_view_get_chart (view));
  name = g_strdup_printf ("%s.%s", title != NULL && *title ? title : "chart", ext);
  g_strdelimit (name, "/\\:", '-');
  chooser = gtk_file_chooser_native_new (_("Export Chart"),
                                         GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (button))),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (export_response_cb), g_object_ref (view));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
slide_toggled_cb (GtkToggleButton *button,
                  ChartCard       *card)
{
  /* The analyst chooses the slides: a chart left out is skipped by presentation mode. */
  card->in_slides = gtk_toggle_button_get_active (button);
  gtk_widget_set_tooltip_text (GTK_WIDGET (button),
                               gtk_toggle_button_get_active (button)
                                 ? _("In the Presentation (F5): click to leave it out")
                                 : _("Left out of the Presentation: click to include it"));
}

static void
series_toggled_cb (GtkCheckButton *check,
                   ViewText       *series)
{
  procura_chart_view_set_series_hidden (series->view, series->text,
                                        !gtk_check_button_get_active (check));
}

/* The legend toggles: one check per series in the legend, made when the menu opens so
 * that it lists the series of the chart shown now. */
static void
series_menu_show_cb (GtkPopover       *popover,
                     ProcuraChartView *view)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  ProcuraChart *chart = procura_chart_view_get_chart (view);
  guint n = 0;

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  for (guint i = 0; chart != NULL && i < procura_chart_get_n_series (chart); i++)
    {
      const char *name = procura_chart_series_get_name (chart, i);
      GtkWidget *check;

      if (!procura_chart_series_get_in_legend (chart, i))
        continue;
      check = gtk_check_button_new_with_label (name);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check),
                                   !procura_chart_view_get_series_hidden (view, name));
      g_signal_connect_data (check, "toggled", G_CALLBACK (series_toggled_cb),
                             view_text_new (GTK_WIDGET (view), name), view_text_free, 0);
      gtk_box_append (GTK_BOX (box), check);
      n++;
    }
  if (n == 0)
    gtk_box_append (GTK_BOX (box), gtk_label_new (_("This chart has no series to hide")));
  gtk_popover_set_child (popover, box);
}

static GtkWidget *
chart_card (ProcuraComparePage *self,
            const char         *name)
{
  GtkWidget *card = gtk_overlay_new ();
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *stack = gtk_stack_new ();
  GtkWidget *view = procura_chart_view_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *toggle = gtk_toggle_button_new ();
  GtkWidget *slide = gtk_toggle_button_new ();
  GtkWidget *export = gtk_menu_button_new ();
  GtkWidget *series = gtk_menu_button_new ();
  GtkWidget *series_popover = gtk_popover_new ();
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *export_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  ChartCard *entry = g_new0 (ChartCard, 1);
  static const char *formats[][2] = {
    { "png", N_("Export as _PNG…") }, { "svg", N_("Export as _SVG…") }, { "pdf", N_("Export as P_DF…") },
  };

  gtk_widget_add_css_class (card, "card");
  gtk_widget_set_hexpand (card, TRUE);
  gtk_widget_set_margin_end (header, 6);
  gtk_widget_set_margin_top (header, 6);
  gtk_widget_set_halign (header, GTK_ALIGN_END);
  gtk_widget_set_valign (header, GTK_ALIGN_START);

  gtk_button_set_icon_name (GTK_BUTTON (toggle), "view-list-symbolic");
  gtk_widget_set_tooltip_text (toggle, _("Show the Data as a Table"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Show the Data as a Table"), -1);
  gtk_widget_add_css_class (toggle, "flat");
  g_signal_connect (toggle, "toggled", G_CALLBACK (table_toggled_cb), stack);
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (export), "document-save-as-symbolic");
  gtk_widget_set_tooltip_text (export, _("Export the Chart"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (export), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Export the Chart"), -1);
  gtk_widget_add_css_class (export, "flat");
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      GtkWidget *button = gtk_button_new_with_mnemonic (_(formats[i][1]));

      gtk_widget_add_css_class (button, "flat");
      gtk_label_set_xalign (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), 0);
      g_signal_connect_data (button, "clicked", G_CALLBACK (export_clicked_cb),
                             view_text_new (view, formats[i][0]), view_text_free, 0);
      g_signal_connect_swapped (button, "clicked", G_CALLBACK (gtk_popover_popdown), popover);
      gtk_box_append (GTK_BOX (export_box), button);
    }
  gtk_popover_set_child (GTK_POPOVER (popover), export_box);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (export), popover);
  gtk_button_set_icon_name (GTK_BUTTON (slide), "x-office-presentation-symbolic");
  gtk_widget_add_css_class (slide, "flat");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (slide), TRUE);
  entry->view = PROCURA_CHART_VIEW (view);
  g_ptr_array_add (self->cards, entry);
  g_signal_connect (slide, "toggled", G_CALLBACK (slide_toggled_cb), entry);
  slide_toggled_cb (GTK_TOGGLE_BUTTON (slide), entry);
  gtk_accessible_update_property (GTK_ACCESSIBLE (slide), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Show in the Presentation"), -1);
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (series), "view-continuous-symbolic");
  gtk_widget_set_tooltip_text (series, _("Show or Hide Series"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (series), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Show or Hide Series"), -1);
  gtk_widget_add_css_class (series, "flat");
  g_signal_connect (series_popover, "show", G_CALLBACK (series_menu_show_cb), view);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (series), series_popover);
  gtk_box_append (GTK_BOX (header), slide);
  gtk_box_append (GTK_BOX (header), series);
  gtk_box_append (GTK_BOX (header), toggle);
  gtk_box_append (GTK_BOX (header), export);

  gtk_widget_set_size_request (view, -1, 340);
  gtk_widget_set_margin_start (view, 6);
  gtk_widget_set_margin_end (view, 6);
  gtk_widget_set_margin_top (view, 6);
  gtk_widget_set_margin_bottom (view, 6);
  gtk_widget_set_margin_top (scroller, 48);
  gtk_widget_set_name (view, name);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  gtk_stack_add_named (GTK_STACK (stack), view, "chart");
  gtk_stack_add_named (GTK_STACK (stack), scroller, "table");
  gtk_stack_set_vhomogeneous (GTK_STACK (stack), TRUE);
  gtk_overlay_set_child (GTK_OVERLAY (card), stack);
  gtk_overlay_add_overlay (GTK_OVERLAY (card), header);
  procura_chart_view_set_overlay (PROCURA_CHART_VIEW (view), header);
  g_ptr_array_add (self->views, view);
  return card;
}

static void
fill_controls (ProcuraComparePage *self,
               ProcuraProject     *project)
{
  ProcuraBrief *brief = project->brief;

  self->filling = TRUE;
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->threshold_spin),
                             brief != NULL && procura_is_set (brief->slo_threshold_ms) ? brief->slo_threshold_ms : 0);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->percentile_spin),
                             brief != NULL && procura_is_set (brief->slo_percentile) ? brief->slo_percentile : 99);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->average_spin),
                             brief != NULL && procura_is_set (brief->demand_average) ? brief->demand_average : 0);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->peak_spin),
                             brief != NULL && procura_is_set (brief->demand_peak) ? brief->demand_peak : 0);
  self->filling = FALSE;
}

static void
build (ProcuraComparePage *self)
{
  GtkWidget *controls = procura_wrap_box_new (18, 4);   /* one column when narrow */

  control (self, controls, _("Latency target (ms)"), 1e6, 10, 0, &self->threshold_spin);
  control (self, controls, _("Percentile"), 100, 0.5, 1, &self->percentile_spin);
  control (self, controls, _("Average demand (req/s)"), 1e6, 1, 1, &self->average_spin);
  control (self, controls, _("Peak demand (req/s)"), 1e6, 1, 1, &self->peak_spin);
  gtk_spin_button_set_range (GTK_SPIN_BUTTON (self->percentile_spin), 50, 100);
  gtk_box_append (self->box, controls);

  /* the controls are a what-if until applied to the brief: said in a banner */
  self->what_if_banner = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_name (self->what_if_banner, "what-if-banner");
  gtk_widget_add_css_class (self->what_if_banner, "what-if-banner");
  {
    GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

    gtk_widget_add_css_class (icon, "warning");
    gtk_box_append (GTK_BOX (self->what_if_banner), icon);
  }
  self->what_if_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->what_if_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->what_if_label), 0);
  gtk_widget_set_hexpand (self->what_if_label, TRUE);
  gtk_box_append (GTK_BOX (self->what_if_banner), self->what_if_label);
  self->what_if_apply = gtk_button_new_with_mnemonic (_("_Apply to Brief"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->what_if_apply), "compare.apply-what-if");
  self->what_if_reset = gtk_button_new_with_mnemonic (_("_Reset"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->what_if_reset), "compare.reset-what-if");
  self->what_if_undo = gtk_button_new_with_mnemonic (_("_Undo"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->what_if_undo), "compare.undo-apply");
  gtk_box_append (GTK_BOX (self->what_if_banner), self->what_if_reset);
  gtk_box_append (GTK_BOX (self->what_if_banner), self->what_if_apply);
  gtk_box_append (GTK_BOX (self->what_if_banner), self->what_if_undo);
  for (GtkWidget *b = self->what_if_reset; b != NULL; b = b == self->what_if_reset ? self->what_if_apply
                                                           : b == self->what_if_apply ? self->what_if_undo : NULL)
    gtk_widget_set_valign (b, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (self->what_if_apply, "suggested-action");
  gtk_widget_set_visible (self->what_if_banner, FALSE);
  gtk_box_append (self->box, self->what_if_banner);

  self->withheld_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_halign (self->withheld_box, GTK_ALIGN_CENTER);
  self->withheld_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->withheld_label), TRUE);
  gtk_widget_add_css_class (self->withheld_label, "warning");
  gtk_box_append (GTK_BOX (self->withheld_box), self->withheld_label);
  /* what is missing is a field of the brief: one click to it */
  self->brief_button = gtk_button_new_with_mnemonic (_("Open _Brief"));
  gtk_widget_set_tooltip_text (self->brief_button, _("Set the latency target and the other missing fields on the Brief page"));
  gtk_widget_set_valign (self->brief_button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->brief_button), "win.complete-brief");
  gtk_box_append (GTK_BOX (self->withheld_box), self->brief_button);
  gtk_widget_set_visible (self->withheld_box, FALSE);
  gtk_box_append (self->box, self->withheld_box);

  /* two charts a line, one when narrow */
  self->grid = procura_wrap_box_new (18, 2);
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (self->grid), TRUE);
  for (guint i = 0; procura_figure_names[i] != NULL; i++)
    procura_wrap_box_append (self->grid, chart_card (self, procura_figure_names[i]));
  gtk_box_append (self->box, self->grid);
}

/* The empty state asks for the brief only while something of it is missing. */
static gboolean
brief_is_complete (ProcuraProject *project)
{
  g_auto (GStrv) missing = NULL;

  if (project->brief == NULL)
    return FALSE;
  missing = procura_brief_missing (project->brief);
  return missing[0] == NULL;
}

static void
rebuild (ProcuraComparePage *self)
{
  ProcuraProject *project;

  if (self->document == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  project = procura_document_get_project (self->document);
  if (project->candidates->len == 0)
    {
      procura_page_show_empty_action (self->complete_brief_button, !brief_is_complete (project));
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  if (self->views->len == 0)
    build (self);
  fill_controls (self, project);
  update_what_if (self);
  run_analysis (self);
  gtk_stack_set_visible_child_name (self->stack, "content");
}

static void
document_changed_cb (ProcuraDocument    *document,
                     ProcuraComparePage *self)
{
  procura_page_queue_rebuild (PROCURA_PAGE (self));
}

void
procura_compare_page_set_document (ProcuraComparePage *self,
                                   ProcuraDocument    *document)
{
  g_clear_pointer (&self->brief_before_apply, procura_brief_free);
  g_return_if_fail (PROCURA_IS_COMPARE_PAGE (self));

  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_cancellable_cancel (self->cancellable);
  g_set_object (&self->document, document);
  if (document != NULL)
    self->changed_id = g_signal_connect (document, "changed", G_CALLBACK (document_changed_cb), self);
  procura_page_queue_rebuild (PROCURA_PAGE (self));
}

static void
map_cb (GtkWidget          *widget,
        ProcuraComparePage *self)
{
  if (self->pending)
    run_analysis (self);
}

void
procura_compare_page_set_controls (ProcuraComparePage *self,
                                   double              threshold_ms,
                                   double              percentile,
                                   double              demand_average,
                                   double              demand_peak)
{
  g_return_if_fail (PROCURA_IS_COMPARE_PAGE (self));
  procura_page_ensure_built (PROCURA_PAGE (self));
  g_return_if_fail (self->threshold_spin != NULL);
  /* As if typed: each change re-runs the analysis (debounced) and rebuilds every chart. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->threshold_spin), threshold_ms);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->percentile_spin), percentile);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->average_spin), demand_average);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->peak_spin), demand_peak);
}

void
procura_compare_page_apply_what_if (ProcuraComparePage *self)
{
  ProcuraProject *project;
  g_autoptr (ProcuraBrief) brief = NULL;
  double t, avg, peak;

  g_return_if_fail (PROCURA_IS_COMPARE_PAGE (self));
  procura_page_ensure_built (PROCURA_PAGE (self));
  if (self->document == NULL || self->threshold_spin == NULL || procura_document_get_read_only (self->document))
    return;
  project = procura_document_get_project (self->document);
  if (project->brief == NULL)
    return;
  t = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->threshold_spin));
  avg = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->average_spin));
  peak = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->peak_spin));
  brief = procura_brief_copy (project->brief);
  brief->slo_threshold_ms = t > 0 ? t : NAN;
  brief->slo_percentile = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->percentile_spin));
  brief->demand_average = avg > 0 ? avg : NAN;
  brief->demand_peak = peak > 0 ? peak : NAN;
  g_clear_pointer (&self->brief_before_apply, procura_brief_free);
  self->brief_before_apply = procura_brief_copy (project->brief);
  procura_document_save_brief (self->document, brief);
}

void
procura_compare_page_reset_what_if (ProcuraComparePage *self)
{
  g_return_if_fail (PROCURA_IS_COMPARE_PAGE (self));
  procura_page_ensure_built (PROCURA_PAGE (self));
  if (self->document == NULL || self->threshold_spin == NULL)
    return;
  fill_controls (self, procura_document_get_project (self->document));
  update_what_if (self);
  g_clear_handle_id (&self->debounce_id, g_source_remove);
  run_analysis (self);
}

void
procura_compare_page_undo_apply (ProcuraComparePage *self)
{
  g_autoptr (ProcuraBrief) before = NULL;

  g_return_if_fail (PROCURA_IS_COMPARE_PAGE (self));
  if (self->document == NULL || self->brief_before_apply == NULL)
    return;
  before = g_steal_pointer (&self->brief_before_apply);
  procura_document_save_brief (self->document, before);
}

static void
apply_what_if_action (GtkWidget *widget, const char *name, GVariant *parameter)
{
  procura_compare_page_apply_what_if (PROCURA_COMPARE_PAGE (widget));
}

static void
reset_what_if_action (GtkWidget *widget, const char *name, GVariant *parameter)
{
  procura_compare_page_reset_what_if (PROCURA_COMPARE_PAGE (widget));
}

static void
undo_apply_action (GtkWidget *widget, const char *name, GVariant *parameter)
{
  procura_compare_page_undo_apply (PROCURA_COMPARE_PAGE (widget));
}

const struct _ProcuraAnalysis *
procura_compare_page_get_analysis (ProcuraComparePage *self)
{
  g_return_val_if_fail (PROCURA_IS_COMPARE_PAGE (self), NULL);
  return self->analysis;
}

gboolean
procura_compare_page_get_busy (ProcuraComparePage *self)
{
  g_return_val_if_fail (PROCURA_IS_COMPARE_PAGE (self), FALSE);
  return self->running > 0 || self->debounce_id != 0 || (self->pending && gtk_widget_get_mapped (GTK_WIDGET (self)));
}

GPtrArray *
procura_compare_page_get_chart_views (ProcuraComparePage *self)
{
  g_return_val_if_fail (PROCURA_IS_COMPARE_PAGE (self), NULL);
  procura_page_ensure_built (PROCURA_PAGE (self));
  return self->views;
}

GPtrArray *
procura_compare_page_get_slide_charts (ProcuraComparePage *self)
{
  GPtrArray *charts = g_ptr_array_new ();

  g_return_val_if_fail (PROCURA_IS_COMPARE_PAGE (self), charts);
  procura_page_ensure_built (PROCURA_PAGE (self));
  for (guint i = 0; self->cards != NULL && i < self->cards->len; i++)
    {
      ChartCard *card = g_ptr_array_index (self->cards, i);
      ProcuraChart *chart = procura_chart_view_get_chart (card->view);

      if (card->in_slides && chart != NULL)
        g_ptr_array_add (charts, chart);
    }
  return charts;
}

static void
procura_compare_page_dispose (GObject *object)
{
  ProcuraComparePage *self = PROCURA_COMPARE_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->debounce_id, g_source_remove);
  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_clear_object (&self->document);
  g_clear_pointer (&self->views, g_ptr_array_unref);
  g_clear_pointer (&self->brief_before_apply, procura_brief_free);
  g_clear_pointer (&self->analysis, procura_analysis_free);
  G_OBJECT_CLASS (procura_compare_page_parent_class)->dispose (object);
  /* after the cards' buttons, whose handlers read them, are gone */
  g_clear_pointer (&self->cards, g_ptr_array_unref);
}

static void
page_rebuild (ProcuraPage *page)
{
  rebuild (PROCURA_COMPARE_PAGE (page));
}

static void
procura_compare_page_class_init (ProcuraComparePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = procura_compare_page_dispose;
  signals[SIGNAL_CHARTS_UPDATED] =
    g_signal_new ("charts-updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  PROCURA_PAGE_CLASS (klass)->rebuild = page_rebuild;
  gtk_widget_class_install_action (widget_class, "compare.apply-what-if", NULL, apply_what_if_action);
  gtk_widget_class_install_action (widget_class, "compare.reset-what-if", NULL, reset_what_if_action);
  gtk_widget_class_install_action (widget_class, "compare.undo-apply", NULL, undo_apply_action);
}

static void
procura_compare_page_init (ProcuraComparePage *self)
{
  g_type_ensure (PROCURA_TYPE_CHART_VIEW);
  self->stack = procura_page_get_stack (PROCURA_PAGE (self));
  self->status = procura_page_get_status (PROCURA_PAGE (self));
  self->box = procura_page_get_box (PROCURA_PAGE (self));
  procura_page_setup (PROCURA_PAGE (self), "view-dual-symbolic", _("Nothing to Compare Yet"),
                      _("Charts of cost per accepted output, latency against the target, and where the money goes appear here once candidates have benchmarks and prices."),
                      1200, 1000);
  self->complete_brief_button =
    procura_page_add_empty_action (PROCURA_PAGE (self), _("Complete the _Brief"), "win.complete-brief", NULL);
  procura_page_add_empty_action (PROCURA_PAGE (self), _("Add _Candidates"), "win.page", "i", 1);
  self->views = g_ptr_array_new ();
  self->cards = g_ptr_array_new_with_free_func (g_free);
  self->cancellable = g_cancellable_new ();
  g_signal_connect (self, "map", G_CALLBACK (map_cb), self);
}
