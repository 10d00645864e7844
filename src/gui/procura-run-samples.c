/* procura-run-samples.c: a run's per-request views, from its samples
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built when the run's details are first expanded: the kept sorted quantile summary of
 * the brief's metric (procura-quantiles.h: 25 M inter-token latencies make a CDF of
 * 65,536 steps, the same at every pixel column) and the per-request samples of the
 * scatter (one value a request) are read in a thread (ProcuraDocument), arranged in
 * another, then drawn. The snapshot never holds samples.
 */
#define G_LOG_DOMAIN "procura-run-samples"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "procura-chart.h"
#include "procura-chart-view.h"
#include "procura-quantiles.h"
#include "procura-format.h"
#include "procura-run-samples.h"

struct _ProcuraRunSamples
{
  GtkBox        parent_instance;

  GCancellable *cancellable;
  char         *metric;
  double        threshold_ms;
  gint64        n;
  GtkWidget    *spinner;
  GtkWidget    *status;
};

G_DEFINE_FINAL_TYPE (ProcuraRunSamples, procura_run_samples, GTK_TYPE_BOX)

/* What the views are drawn from, made in a thread. */
typedef struct {
  char             *metric;
  ProcuraQuantiles *quantiles;     /* of @metric, NULL without samples */
  char             *scatter_metric;
  double           *scatter_x;     /* input tokens */
  double           *scatter_y;     /* ms */
  gsize             scatter_n;
} Views;

static void
views_free (Views *v)
{
  g_free (v->metric);
  procura_quantiles_free (v->quantiles);
  g_free (v->scatter_metric);
  g_free (v->scatter_x);
  g_free (v->scatter_y);
  g_free (v);
}

static void
views_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  ProcuraRun *run = task_data;
  ProcuraRunSamples *self = source_object;
  Views *v = g_new0 (Views, 1);
  const ProcuraSamples *in = procura_run_get_samples (run, "input_len");
  const ProcuraQuantiles *q = procura_run_get_quantiles (run, self->metric);
  guint at;

  v->metric = g_strdup (self->metric);
  /* the distribution comes from the run's kept summary, read instead of the samples */
  if (q != NULL && g_ptr_array_find (run->quantiles, q, &at))
    v->quantiles = g_ptr_array_steal_index (run->quantiles, at);
  for (guint k = 0; k < 2 && in != NULL && v->scatter_n == 0; k++)
    {
      const char *m = k == 0 ? "ttft" : "e2e";
      const ProcuraSamples *y = procura_run_get_samples (run, m);

      if (y == NULL || y->n != in->n || y->n == 0)
        continue;
      v->scatter_metric = g_strdup (m);
      v->scatter_x = g_new (double, y->n);
      v->scatter_y = g_new (double, y->n);
      for (gsize i = 0; i < y->n; i++)
        if (isfinite (in->values[i]) && isfinite (y->values[i]))
          {
            v->scatter_x[v->scatter_n] = in->values[i];
            v->scatter_y[v->scatter_n++] = y->values[i];
          }
    }
  g_task_return_pointer (task, v, (GDestroyNotify) views_free);
}

static GtkWidget *
chart_widget (ProcuraChart *chart)
{
  GtkWidget *view = procura_chart_view_new ();

  procura_chart_view_set_chart (PROCURA_CHART_VIEW (view), chart);
  gtk_widget_set_size_request (view, -1, 300);
  gtk_widget_set_hexpand (view, TRUE);
  return view;
}

static ProcuraChart *
distribution_chart (ProcuraRunSamples *self,
                    const Views       *v)
{
  ProcuraChart *chart = procura_chart_new ();
  const ProcuraQuantiles *q = v->quantiles;
  double *x = NULL, *y = NULL;
  gsize n = procura_quantiles_positive_steps (q, &x, &y);
  g_autofree char *subtitle = NULL;
  ProcuraChartSeries *series;

  procura_chart_set_title (chart, _("Latency distribution"));
  /* TRANSLATORS: %s is a metric (TTFT, ITL...); %lld the number of requests or tokens */
  subtitle = g_strdup_printf (ngettext ("Empirical CDF of %s over %lld sample",
                                        "Empirical CDF of %s over %lld samples", (unsigned long) q->n),
                              procura_format_metric (v->metric), (long long) q->n);
  procura_chart_set_subtitle (chart, subtitle);
  procura_chart_set_description (chart, _("share of requests at or below a latency"));
  procura_chart_set_axis (chart, PROCURA_AXIS_X, procura_format_metric (v->metric), PROCURA_UNIT_MS,
                          n > 0 && x[n - 1] / x[0] >= 20 ? PROCURA_SCALE_LOG : PROCURA_SCALE_LINEAR);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, _("Share of requests at or below"), PROCURA_UNIT_PERCENT,
                          PROCURA_SCALE_LINEAR);
  procura_chart_set_axis_range (chart, PROCURA_AXIS_Y, 0, 1);
  if (n > 0)
    {
      series = procura_chart_add_series_take (chart, PROCURA_SERIES_STEP, procura_format_metric (v->metric), x, y, n);
      procura_chart_series_set_marker (series, PROCURA_MARKER_NONE);
      procura_chart_series_set_in_legend (series, FALSE);
    }
  else
    procura_chart_set_message (chart, _("No value above 0 to draw"));
  if (isfinite (self->threshold_ms))
    procura_chart_add_vline (chart, self->threshold_ms, _("target"));
  return chart;
}

static ProcuraChart *
scatter_chart (const Views *v)
{
  ProcuraChart *chart = procura_chart_new ();
  g_autofree char *title = NULL;
  ProcuraChartSeries *series;

  /* TRANSLATORS: %s is a latency metric (TTFT, End-to-end latency) */
  title = g_strdup_printf (_("%s per request"), procura_format_metric (v->scatter_metric));
  procura_chart_set_title (chart, title);
  procura_chart_set_subtitle (chart, _("Each dot is one request, against its input length"));
  procura_chart_set_description (chart, _("latency of each request against its input tokens"));
  procura_chart_set_axis (chart, PROCURA_AXIS_X, _("Input tokens"), PROCURA_UNIT_TOKENS, PROCURA_SCALE_LINEAR);
  procura_chart_set_axis (chart, PROCURA_AXIS_Y, procura_format_metric (v->scatter_metric), PROCURA_UNIT_MS,
                          PROCURA_SCALE_LINEAR);
  series = procura_chart_add_series (chart, PROCURA_SERIES_SCATTER, procura_format_metric (v->scatter_metric),
                                     v->scatter_x, v->scatter_y, v->scatter_n);
  procura_chart_series_set_in_legend (series, FALSE);
  return chart;
}

static void
stop_spinner (ProcuraRunSamples *self,
              const char        *text)
{
  gtk_spinner_stop (GTK_SPINNER (self->spinner));
  gtk_widget_set_visible (self->spinner, FALSE);
  if (text != NULL)
    gtk_label_set_text (GTK_LABEL (self->status), text);
  else
    gtk_widget_set_visible (self->status, FALSE);
}

static void
views_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  ProcuraRunSamples *self = PROCURA_RUN_SAMPLES (object);
  g_autoptr (GError) error = NULL;
  Views *v = g_task_propagate_pointer (G_TASK (result), &error);

  if (v == NULL)
    return;   /* cancelled: the row is gone */
  if (v->quantiles == NULL && v->scatter_n == 0)
    {
      self->n = 0;
      stop_spinner (self, _("This run has no per-request samples: only its summary figures."));
    }
  else
    {
      stop_spinner (self, NULL);
      self->n = v->quantiles != NULL ? (gint64) v->quantiles->n : 0;
      if (v->quantiles != NULL)
        {
          g_autoptr (ProcuraChart) chart = distribution_chart (self, v);
          gtk_box_append (GTK_BOX (self), chart_widget (chart));
        }
      if (v->scatter_n > 0)
        {
          g_autoptr (ProcuraChart) chart = scatter_chart (v);
          gtk_box_append (GTK_BOX (self), chart_widget (chart));
        }
    }
  views_free (v);
}

static void
samples_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr (ProcuraRunSamples) self = user_data;   /* the ref taken at the start */
  g_autoptr (GError) error = NULL;
  ProcuraRun *run = procura_document_load_run_samples_finish (PROCURA_DOCUMENT (object), result, &error);
  g_autoptr (GTask) task = NULL;

  if (run == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *text = g_strdup_printf (_("The samples could not be read: %s"), error->message);
          stop_spinner (self, text);
        }
      return;
    }
  task = g_task_new (self, self->cancellable, views_done_cb, NULL);
  g_task_set_task_data (task, run, (GDestroyNotify) procura_run_free);
  g_task_run_in_thread (task, views_thread);
}

GtkWidget *
procura_run_samples_new (ProcuraDocument *document,
                         gint64           run_id,
                         const char      *metric,
                         double           threshold_ms)
{
  ProcuraRunSamples *self = g_object_new (PROCURA_TYPE_RUN_SAMPLES,
                                          "orientation", GTK_ORIENTATION_VERTICAL,
                                          "spacing", 12, NULL);
  GtkWidget *loading = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  const char *metrics[] = { "ttft", "e2e", "input_len", NULL };

  self->metric = g_strdup (metric != NULL ? metric : "ttft");
  self->threshold_ms = threshold_ms;
  self->spinner = gtk_spinner_new ();
  self->status = gtk_label_new (_("Reading the per-request samples…"));
  gtk_label_set_wrap (GTK_LABEL (self->status), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_spinner_start (GTK_SPINNER (self->spinner));
  gtk_box_append (GTK_BOX (loading), self->spinner);
  gtk_box_append (GTK_BOX (loading), self->status);
  gtk_box_append (GTK_BOX (self), loading);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_start (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self), 12);
  procura_document_load_run_samples_async (document, run_id, self->metric, metrics, self->cancellable,
                                           samples_done_cb, g_object_ref (self));
  return GTK_WIDGET (self);
}

gint64
procura_run_samples_get_n (ProcuraRunSamples *self)
{
  g_return_val_if_fail (PROCURA_IS_RUN_SAMPLES (self), -1);
  return self->n;
}

static void
procura_run_samples_dispose (GObject *object)
{
  ProcuraRunSamples *self = PROCURA_RUN_SAMPLES (object);

  g_cancellable_cancel (self->cancellable);
  G_OBJECT_CLASS (procura_run_samples_parent_class)->dispose (object);
}

static void
procura_run_samples_finalize (GObject *object)
{
  ProcuraRunSamples *self = PROCURA_RUN_SAMPLES (object);

  g_clear_object (&self->cancellable);
  g_free (self->metric);
  G_OBJECT_CLASS (procura_run_samples_parent_class)->finalize (object);
}

static void
procura_run_samples_class_init (ProcuraRunSamplesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = procura_run_samples_dispose;
  object_class->finalize = procura_run_samples_finalize;
}

static void
procura_run_samples_init (ProcuraRunSamples *self)
{
  self->cancellable = g_cancellable_new ();
  self->n = -1;
  self->threshold_ms = NAN;
}
