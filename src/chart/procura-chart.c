/* procura-chart.c: the chart spec: what to draw (series, axes, annotations, titles)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "procura-chart.h"
#include "procura-chart-private.h"

/* ------------------------------------------------------------------------- */
/* The spec                                                                   */

static void
series_free (gpointer data)
{
  ProcuraChartSeries *s = data;

  g_free (s->name);
  g_free (s->x);
  g_free (s->y);
  g_free (s->y_low);
  g_free (s->y_high);
  g_free (s->reason);
  procura_chart_reduce_cache_clear (&s->reduce);
  g_free (s);
}

static void
annot_clear (gpointer data)
{
  ProcuraAnnot *a = data;

  g_free (a->label);
}

/* every spec gets its own id, so that a layout knows which spec it was drawn from */
static guint64 next_id = 1;
G_LOCK_DEFINE_STATIC (next_id);

ProcuraChart *
procura_chart_new (void)
{
  ProcuraChart *chart = g_new0 (ProcuraChart, 1);

  g_atomic_ref_count_init (&chart->ref_count);
  G_LOCK (next_id);
  chart->id = next_id++;
  G_UNLOCK (next_id);
  for (guint i = 0; i < 2; i++)
    {
      chart->axis[i].min = NAN;
      chart->axis[i].max = NAN;
    }
  chart->legend = PROCURA_LEGEND_BOTTOM;
  chart->categories = g_ptr_array_new_with_free_func (g_free);
  chart->category_reasons = g_ptr_array_new_with_free_func (g_free);
  chart->series = g_ptr_array_new_with_free_func (series_free);
  chart->annots = g_array_new (FALSE, TRUE, sizeof (ProcuraAnnot));
  g_array_set_clear_func (chart->annots, annot_clear);
  return chart;
}

ProcuraChart *
procura_chart_ref (ProcuraChart *chart)
{
  g_return_val_if_fail (chart != NULL, NULL);
  g_atomic_ref_count_inc (&chart->ref_count);
  return chart;
}

void
procura_chart_unref (ProcuraChart *chart)
{
  if (chart == NULL || !g_atomic_ref_count_dec (&chart->ref_count))
    return;
  g_free (chart->title);
  g_free (chart->money_before);
  g_free (chart->money_after);
  g_free (chart->subtitle);
  g_free (chart->message);
  g_free (chart->description);
  for (guint i = 0; i < 2; i++)
    g_free (chart->axis[i].label);
  g_ptr_array_unref (chart->categories);
  g_ptr_array_unref (chart->category_reasons);
  g_ptr_array_unref (chart->series);
  g_array_unref (chart->annots);
  g_free (chart);
}

static void
set_string (char       **field,
            const char  *value)
{
  char *copy = g_strdup (value);

  g_free (*field);
  *field = copy;
}

void
procura_chart_set_title (ProcuraChart *chart,
                         const char   *title)
{
  set_string (&chart->title, title);
}

const char *
procura_chart_get_title (const ProcuraChart *chart)
{
  return chart->title;
}

const char *
procura_chart_get_subtitle (const ProcuraChart *chart)
{
  return chart->subtitle;
}

void
procura_chart_set_subtitle (ProcuraChart *chart,
                            const char   *subtitle)
{
  set_string (&chart->subtitle, subtitle);
}

void
procura_chart_set_message (ProcuraChart *chart,
                           const char   *message)
{
  set_string (&chart->message, message);
}

void
procura_chart_set_description (ProcuraChart *chart,
                               const char   *description)
{
  set_string (&chart->description, description);
}

void
procura_chart_set_currency (ProcuraChart *chart,
                            const char   *symbol,
                            const char   *code)
{
  g_return_if_fail (chart != NULL);
  g_free (chart->money_before);
  g_free (chart->money_after);
  chart->money_before = g_strdup (symbol);
  chart->money_after = symbol == NULL ? g_strdup (code) : NULL;
}

char *
procura_chart_money_text (const ProcuraChart *chart,
                          ProcuraChartUnit    unit,
                          char               *text)
{
  const char *dollar;
  GString *out;

  if (unit != PROCURA_UNIT_DOLLARS || chart == NULL || text == NULL
      || (chart->money_before == NULL && chart->money_after == NULL)
      || (dollar = strchr (text, '$')) == NULL)
    return text;
  out = g_string_new_len (text, dollar - text);
  if (chart->money_before != NULL)
    g_string_append (out, chart->money_before);
  g_string_append (out, dollar + 1);
  if (chart->money_before == NULL)
    g_string_append_printf (out, " %s", chart->money_after);
  g_free (text);
  return g_string_free (out, FALSE);
}

char *
procura_chart_format_money (const ProcuraChart *chart,
                            double              value)
{
  return procura_chart_value_text (chart, value, PROCURA_UNIT_DOLLARS);
}

void
procura_chart_set_axis (ProcuraChart      *chart,
                        ProcuraAxisId      axis,
                        const char        *label,
                        ProcuraChartUnit   unit,
                        ProcuraChartScale  scale)
{
  g_return_if_fail (axis <= PROCURA_AXIS_Y);
  set_string (&chart->axis[axis].label, label);
  chart->axis[axis].unit = unit;
  chart->axis[axis].scale = scale;
}

void
procura_chart_set_axis_range (ProcuraChart *chart,
                              ProcuraAxisId axis,
                              double        min,
                              double        max)
{
  g_return_if_fail (axis <= PROCURA_AXIS_Y);
  chart->axis[axis].min = min;
  chart->axis[axis].max = max;
}

void
procura_chart_set_axis_include_zero (ProcuraChart *chart,
                                     ProcuraAxisId axis,
                                     gboolean      include_zero)
{
  g_return_if_fail (axis <= PROCURA_AXIS_Y);
  chart->axis[axis].include_zero = include_zero;
}

void
procura_chart_set_legend (ProcuraChart          *chart,
                          ProcuraLegendPosition  position)
{
  chart->legend = position;
}

void
procura_chart_set_orientation (ProcuraChart       *chart,
                               ProcuraOrientation  orientation)
{
  chart->orientation = orientation;
}

void
procura_chart_set_categories (ProcuraChart       *chart,
                              const char * const *labels,
                              guint               n)
{
  g_ptr_array_set_size (chart->categories, 0);
  g_ptr_array_set_size (chart->category_reasons, 0);
  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_add (chart->categories, g_strdup (labels[i] ? labels[i] : ""));
      g_ptr_array_add (chart->category_reasons, NULL);
    }
}

void
procura_chart_set_category_struck_out (ProcuraChart *chart,
                                       guint         category,
                                       const char   *reason)
{
  g_return_if_fail (category < chart->categories->len);
  g_free (chart->category_reasons->pdata[category]);
  chart->category_reasons->pdata[category] = g_strdup (reason ? reason : "");
}

void
procura_chart_set_bar_totals (ProcuraChart *chart,
                              gboolean      totals)
{
  chart->bar_totals = totals;
}

void
procura_chart_set_bars_overlap (ProcuraChart *chart,
                                gboolean      overlap)
{
  chart->bars_overlap = overlap;
}

static void
series_update_bounds (ProcuraChartSeries *s)
{
  double x_min = INFINITY, x_max = -INFINITY, y_min = INFINITY, y_max = -INFINITY;
  double x_min_pos = INFINITY, y_min_pos = INFINITY;
  gboolean sorted = TRUE;
  double prev_x = -INFINITY;

  for (gsize i = 0; i < s->n; i++)
    {
      double xv = s->x ? s->x[i] : (double) i;
      double ys[3] = { s->y ? s->y[i] : NAN,
                       s->y_low ? s->y_low[i] : NAN,
                       s->y_high ? s->y_high[i] : NAN };
      gboolean any = FALSE;

      if (sorted && !(xv >= prev_x))
        sorted = FALSE;
      prev_x = xv;
      for (guint k = 0; k < 3; k++)
        {
          double v = ys[k];

          if (!isfinite (v))
            continue;
          any = TRUE;
          if (v < y_min)
            y_min = v;
          if (v > y_max)
            y_max = v;
          if (v > 0 && v < y_min_pos)
            y_min_pos = v;
        }
      if (!any || !isfinite (xv))
        continue;
      if (xv < x_min)
        x_min = xv;
      if (xv > x_max)
        x_max = xv;
      if (xv > 0 && xv < x_min_pos)
        x_min_pos = xv;
    }
  s->x_min = x_min;
  s->x_max = x_max;
  s->y_min = y_min;
  s->y_max = y_max;
  s->x_min_pos = x_min_pos;
  s->y_min_pos = y_min_pos;
  s->x_sorted = sorted;
  procura_chart_reduce_cache_clear (&s->reduce);
}

ProcuraChartSeries *
procura_chart_add_series_take (ProcuraChart      *chart,
                               ProcuraSeriesKind  kind,
                               const char        *name,
                               double            *x,
                               double            *y,
                               gsize              n)
{
  ProcuraChartSeries *s = g_new0 (ProcuraChartSeries, 1);

  s->kind = kind;
  s->name = g_strdup (name);
  s->x = x;
  s->y = y;
  s->n = n;
  s->color = -1;
  s->dash = PROCURA_DASH_AUTO;
  s->marker = PROCURA_MARKER_AUTO;
  s->in_legend = TRUE;
  series_update_bounds (s);
  g_ptr_array_add (chart->series, s);
  return s;
}

static double *
copy_doubles (const double *values,
              gsize         n)
{
  return values && n ? g_memdup2 (values, n * sizeof (double)) : NULL;
}

ProcuraChartSeries *
procura_chart_add_series (ProcuraChart      *chart,
                          ProcuraSeriesKind  kind,
                          const char        *name,
                          const double      *x,
                          const double      *y,
                          gsize              n)
{
  return procura_chart_add_series_take (chart, kind, name, copy_doubles (x, n),
                                        copy_doubles (y, n), x || y ? n : 0);
}

void
procura_chart_series_set_range (ProcuraChartSeries *series,
                                const double       *y_low,
                                const double       *y_high)
{
  g_free (series->y_low);
  g_free (series->y_high);
  series->y_low = copy_doubles (y_low, series->n);
  series->y_high = copy_doubles (y_high, series->n);
  series_update_bounds (series);
}

void
procura_chart_series_set_color (ProcuraChartSeries *series,
                                int                 color_index)
{
  series->color = color_index;
}

void
procura_chart_series_set_dash (ProcuraChartSeries *series,
                               ProcuraDash         dash)
{
  series->dash = dash;
}

void
procura_chart_series_set_marker (ProcuraChartSeries *series,
                                 ProcuraMarker       marker)
{
  series->marker = marker;
}

void
procura_chart_series_set_struck_out (ProcuraChartSeries *series,
                                     gboolean            struck_out,
                                     const char         *reason)
{
  series->struck_out = struck_out;
  set_string (&series->reason, reason);
}

void
procura_chart_series_set_estimate (ProcuraChartSeries *series,
                                   gboolean            estimate)
{
  series->estimate = estimate;
}

void
procura_chart_series_set_in_legend (ProcuraChartSeries *series,
                                    gboolean            in_legend)
{
  series->in_legend = in_legend;
}

void
procura_chart_series_set_data_space (ProcuraChartSeries *series,
                                     gboolean            data_space)
{
  series->data_space = data_space;
}

void
procura_chart_segment_point (gboolean  x_log,
                             gboolean  y_log,
                             gboolean  data_space,
                             double    x0,
                             double    y0,
                             double    x1,
                             double    y1,
                             double    f,
                             double   *x,
                             double   *y)
{
  if (x_log && !data_space)
    *x = pow (10, log10 (x0) + f * (log10 (x1) - log10 (x0)));
  else
    *x = x0 + f * (x1 - x0);
  if (y_log && !data_space)
    *y = pow (10, log10 (y0) + f * (log10 (y1) - log10 (y0)));
  else
    *y = y0 + f * (y1 - y0);
}

gboolean
procura_chart_series_value_at (const ProcuraChart *chart,
                               guint               series,
                               double              x,
                               double             *y)
{
  const ProcuraChartSeries *s;
  gboolean x_log = chart->axis[PROCURA_AXIS_X].scale == PROCURA_SCALE_LOG;
  gboolean y_log = chart->axis[PROCURA_AXIS_Y].scale == PROCURA_SCALE_LOG;

  if (series >= chart->series->len)
    return FALSE;
  s = chart->series->pdata[series];
  if ((s->kind != PROCURA_SERIES_LINE && s->kind != PROCURA_SERIES_STEP) || s->y == NULL)
    return FALSE;
  for (gsize i = 1; i < s->n; i++)
    {
      double x0 = s->x ? s->x[i - 1] : (double) (i - 1), x1 = s->x ? s->x[i] : (double) i;
      double y0 = s->y[i - 1], y1 = s->y[i], f, xx;

      if (!isfinite (x0) || !isfinite (x1) || !isfinite (y0) || !isfinite (y1) ||
          (x_log && !(x0 > 0 && x1 > 0)) || (y_log && !(y0 > 0 && y1 > 0)))
        continue;
      if (!(MIN (x0, x1) <= x && x <= MAX (x0, x1)))
        continue;
      if (s->kind == PROCURA_SERIES_STEP)
        {
          *y = x < x1 ? y0 : y1;
          return TRUE;
        }
      if (x0 == x1)
        f = 0;
      else if (x_log && !s->data_space)
        f = (log10 (x) - log10 (x0)) / (log10 (x1) - log10 (x0));
      else
        f = (x - x0) / (x1 - x0);
      procura_chart_segment_point (x_log, y_log, s->data_space, x0, y0, x1, y1, f, &xx, y);
      return TRUE;
    }
  return FALSE;
}

guint
procura_chart_get_n_series (const ProcuraChart *chart)
{
  return chart->series->len;
}

gboolean
procura_chart_series_get_in_legend (const ProcuraChart *chart,
                                    guint               index)
{
  const ProcuraChartSeries *s;

  g_return_val_if_fail (index < chart->series->len, FALSE);
  s = chart->series->pdata[index];
  return s->in_legend && s->name != NULL && s->name[0] != '\0';
}

static gboolean
hides_entry (const ProcuraChartLayout *layout,
             const ProcuraChartSeries *s)
{
  return s->in_legend && s->name != NULL && s->name[0] != '\0'
         && g_hash_table_contains (layout->hidden, s->name);
}

gboolean
procura_chart_series_is_hidden (const ProcuraChart       *chart,
                                const ProcuraChartLayout *layout,
                                const ProcuraChartSeries *s)
{
  if (layout == NULL || g_hash_table_size (layout->hidden) == 0)
    return FALSE;
  if (hides_entry (layout, s))
    return TRUE;
  if (s->in_legend || s->color < 0)
    return FALSE;
  for (guint i = 0; i < chart->series->len; i++)
    {
      const ProcuraChartSeries *o = chart->series->pdata[i];
      if (o != s && o->color == s->color && hides_entry (layout, o))
        return TRUE;
    }
  return FALSE;
}

const char *
procura_chart_series_get_name (const ProcuraChart *chart,
                               guint               index)
{
  g_return_val_if_fail (index < chart->series->len, NULL);
  return ((ProcuraChartSeries *) chart->series->pdata[index])->name;
}

gsize
procura_chart_series_get_n_points (const ProcuraChart *chart,
                                   guint               index)
{
  g_return_val_if_fail (index < chart->series->len, 0);
  return ((ProcuraChartSeries *) chart->series->pdata[index])->n;
}

gboolean
procura_chart_series_get_point (const ProcuraChart *chart,
                                guint               series,
                                gsize               index,
                                double             *x,
                                double             *y)
{
  const ProcuraChartSeries *s;

  if (series >= chart->series->len)
    return FALSE;
  s = chart->series->pdata[series];
  if (index >= s->n)
    return FALSE;
  if (x)
    *x = s->x ? s->x[index] : (double) index;
  if (y)
    *y = s->y ? s->y[index] : NAN;
  return TRUE;
}

static void
add_annot (ProcuraChart     *chart,
           ProcuraAnnotKind  kind,
           double            x,
           double            y,
           double            x1,
           double            y1,
           const char       *label)
{
  ProcuraAnnot a = { kind, x, y, x1, y1, g_strdup (label) };

  g_array_append_val (chart->annots, a);
}

void
procura_chart_add_hline (ProcuraChart *chart,
                         double        y,
                         const char   *label)
{
  add_annot (chart, PROCURA_ANNOT_HLINE, NAN, y, NAN, NAN, label);
}

void
procura_chart_add_vline (ProcuraChart *chart,
                         double        x,
                         const char   *label)
{
  add_annot (chart, PROCURA_ANNOT_VLINE, x, NAN, NAN, NAN, label);
}

void
procura_chart_add_marker (ProcuraChart *chart,
                          double        x,
                          double        y,
                          const char   *label)
{
  add_annot (chart, PROCURA_ANNOT_MARKER, x, y, NAN, NAN, label);
}

void
procura_chart_add_label (ProcuraChart *chart,
                         double        x,
                         double        y,
                         const char   *text)
{
  add_annot (chart, PROCURA_ANNOT_LABEL, x, y, NAN, NAN, text);
}

void
procura_chart_add_callout (ProcuraChart *chart,
                           double        x,
                           double        y,
                           const char   *text)
{
  add_annot (chart, PROCURA_ANNOT_CALLOUT, x, y, NAN, NAN, text);
}

void
procura_chart_add_shaded (ProcuraChart *chart,
                          double        x0,
                          double        x1,
                          double        y0,
                          double        y1,
                          const char   *label)
{
  add_annot (chart, PROCURA_ANNOT_SHADED, x0, y0, x1, y1, label);
}

gboolean
procura_chart_is_category (const ProcuraChart *chart)
{
  for (guint i = 0; i < chart->series->len; i++)
    {
      const ProcuraChartSeries *s = chart->series->pdata[i];

      if (s->kind == PROCURA_SERIES_BAR || s->kind == PROCURA_SERIES_STACKED_BAR
          || s->kind == PROCURA_SERIES_BOX)
        return TRUE;
    }
  return FALSE;
}

