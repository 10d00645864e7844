/* procura-chart.c: the chart spec and its drawing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <pango/pangocairo.h>

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
  g_free (s->cols);
  procura_chart_reduce_cache_clear (&s->reduce);
  g_free (s);
}

static void
annot_clear (gpointer data)
{
  ProcuraAnnot *a = data;

  g_free (a->label);
}

ProcuraChart *
procura_chart_new (void)
{
  ProcuraChart *chart = g_new0 (ProcuraChart, 1);

  g_atomic_ref_count_init (&chart->ref_count);
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
  g_clear_pointer (&s->cols, g_free);
  s->n_cols = 0;
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

/* A point of the segment from (x0, y0) to (x1, y1) at fraction f, as the line is drawn:
 * straight in each axis' drawing space (log10 on a log axis), or in data space. */
static void
segment_point (gboolean  x_log,
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
      segment_point (x_log, y_log, s->data_space, x0, y0, x1, y1, f, &xx, y);
      return TRUE;
    }
  return FALSE;
}

guint
procura_chart_get_n_series (const ProcuraChart *chart)
{
  return chart->series->len;
}

void
procura_chart_set_series_hidden (ProcuraChart *chart,
                                 guint         index,
                                 gboolean      hidden)
{
  g_return_if_fail (index < chart->series->len);
  ((ProcuraChartSeries *) chart->series->pdata[index])->hidden = hidden;
}

gboolean
procura_chart_get_series_hidden (const ProcuraChart *chart,
                                 guint               index)
{
  g_return_val_if_fail (index < chart->series->len, FALSE);
  return ((ProcuraChartSeries *) chart->series->pdata[index])->hidden;
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

gboolean
procura_chart_series_is_hidden (const ProcuraChart       *chart,
                                const ProcuraChartSeries *s)
{
  if (s->hidden)
    return TRUE;
  if (s->in_legend || s->color < 0)
    return FALSE;
  for (guint i = 0; i < chart->series->len; i++)
    {
      const ProcuraChartSeries *o = chart->series->pdata[i];
      if (o != s && o->hidden && o->in_legend && o->color == s->color)
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

ProcuraChartLayout
procura_chart_get_layout (const ProcuraChart *chart)
{
  return chart->layout;
}

/* ------------------------------------------------------------------------- */
/* Drawing                                                                    */

typedef struct {
  double lo, hi;
  gboolean log;
  double p0, p1;
} Map;

typedef struct {
  double x, y, w, h;
} Rect;

typedef struct {
  ProcuraChart            *chart;
  cairo_t                 *cr;
  const ProcuraChartTheme *t;
  PangoLayout             *pl;
  double                   w, h;
  double                   fs;
  double                   pad;
  double                   lw;
  gboolean                 category;
  gboolean                 horizontal;
  guint                    n_cat;
  Map                      mx, my;
  ProcuraTicks             xt, yt;     /* xt/yt: ticks of the x and y value axes */
  double                   px, py, pw, ph;
  GArray                  *placed;     /* Rect */
  double                   device_scale;
  Rect                     legend_rect;
} Ctx;

static double
map_value (const Map *m,
           double     v)
{
  double t, tl, th, p, lo_p, hi_p;

  if (m->log)
    {
      if (!(v > 0))
        return m->p0 - (m->p1 - m->p0) * 10;
      t = log10 (v);
      tl = log10 (m->lo);
      th = log10 (m->hi);
    }
  else
    {
      t = v;
      tl = m->lo;
      th = m->hi;
    }
  if (th == tl)
    return (m->p0 + m->p1) / 2;
  p = m->p0 + (t - tl) / (th - tl) * (m->p1 - m->p0);
  /* keep far-off values within what cairo's fixed point can hold */
  lo_p = MIN (m->p0, m->p1) - 1e5;
  hi_p = MAX (m->p0, m->p1) + 1e5;
  return CLAMP (p, lo_p, hi_p);
}

static double
unmap_value (const Map *m,
             double     p)
{
  double tl, th, t;

  if (m->p1 == m->p0)
    return m->lo;
  tl = m->log ? log10 (m->lo) : m->lo;
  th = m->log ? log10 (m->hi) : m->hi;
  t = tl + (p - m->p0) / (m->p1 - m->p0) * (th - tl);
  return m->log ? pow (10.0, t) : t;
}

static void
set_color (cairo_t                 *cr,
           const ProcuraChartColor *c,
           double                   alpha)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a * alpha);
}

static const ProcuraChartColor *
series_color (const Ctx                *c,
              const ProcuraChartSeries *s,
              guint                     index)
{
  int idx = s->color >= 0 ? s->color : (int) index;

  return &c->t->palette[idx % MAX (c->t->n_palette, 1)];
}

static int
series_style_index (const ProcuraChartSeries *s,
                    guint                     index)
{
  return s->color >= 0 ? s->color : (int) index;
}

static ProcuraDash
series_dash (const ProcuraChartSeries *s,
             guint                     index)
{
  if (s->dash != PROCURA_DASH_AUTO)
    return s->dash == PROCURA_DASH_SOLID && s->estimate ? PROCURA_DASH_DASHED : s->dash;
  if (s->estimate)
    return PROCURA_DASH_DASHED;
  return (ProcuraDash) (series_style_index (s, index) % 4);
}

static ProcuraMarker
series_marker (const ProcuraChartSeries *s,
               guint                     index)
{
  if (s->marker != PROCURA_MARKER_AUTO)
    return s->marker;
  return (ProcuraMarker) (1 + series_style_index (s, index) % (PROCURA_N_MARKERS - 1));
}

/* Lines show their markers when asked to, or (AUTO) when the points are few. */
static gboolean
line_shows_markers (const ProcuraChartSeries *s)
{
  return s->marker != PROCURA_MARKER_NONE && (s->marker != PROCURA_MARKER_AUTO || s->n <= 24);
}

static void
apply_dash (cairo_t     *cr,
            ProcuraDash  dash,
            double       lw)
{
  double pattern[4];

  switch (dash)
    {
    case PROCURA_DASH_DASHED:
      pattern[0] = 4 * lw;
      pattern[1] = 2.5 * lw;
      cairo_set_dash (cr, pattern, 2, 0);
      break;
    case PROCURA_DASH_DOTTED:
      pattern[0] = 0.01;
      pattern[1] = 2.2 * lw;
      cairo_set_dash (cr, pattern, 2, 0);
      break;
    case PROCURA_DASH_DASH_DOT:
      pattern[0] = 5 * lw;
      pattern[1] = 2 * lw;
      pattern[2] = 0.01;
      pattern[3] = 2 * lw;
      cairo_set_dash (cr, pattern, 4, 0);
      break;
    case PROCURA_DASH_LONG_DASH:
      pattern[0] = 8 * lw;
      pattern[1] = 3 * lw;
      cairo_set_dash (cr, pattern, 2, 0);
      break;
    case PROCURA_DASH_AUTO:
    case PROCURA_DASH_SOLID:
    case PROCURA_N_DASHES:
    default:
      cairo_set_dash (cr, NULL, 0, 0);
      break;
    }
}

static void
marker_path (cairo_t       *cr,
             ProcuraMarker  marker,
             double         x,
             double         y,
             double         r)
{
  switch (marker)
    {
    case PROCURA_MARKER_CIRCLE:
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, r, 0, 2 * G_PI);
      break;
    case PROCURA_MARKER_SQUARE:
      cairo_rectangle (cr, x - r * 0.88, y - r * 0.88, r * 1.76, r * 1.76);
      break;
    case PROCURA_MARKER_TRIANGLE:
      cairo_move_to (cr, x, y - r * 1.15);
      cairo_line_to (cr, x + r * 1.05, y + r * 0.75);
      cairo_line_to (cr, x - r * 1.05, y + r * 0.75);
      cairo_close_path (cr);
      break;
    case PROCURA_MARKER_DIAMOND:
      cairo_move_to (cr, x, y - r * 1.2);
      cairo_line_to (cr, x + r * 1.0, y);
      cairo_line_to (cr, x, y + r * 1.2);
      cairo_line_to (cr, x - r * 1.0, y);
      cairo_close_path (cr);
      break;
    case PROCURA_MARKER_CROSS:
      cairo_move_to (cr, x - r, y - r);
      cairo_line_to (cr, x + r, y + r);
      cairo_move_to (cr, x + r, y - r);
      cairo_line_to (cr, x - r, y + r);
      break;
    case PROCURA_MARKER_PLUS:
      cairo_move_to (cr, x - r * 1.2, y);
      cairo_line_to (cr, x + r * 1.2, y);
      cairo_move_to (cr, x, y - r * 1.2);
      cairo_line_to (cr, x, y + r * 1.2);
      break;
    case PROCURA_MARKER_AUTO:
    case PROCURA_MARKER_NONE:
    case PROCURA_N_MARKERS:
    default:
      break;
    }
}

static void
draw_marker (Ctx                     *c,
             ProcuraMarker            marker,
             double                   x,
             double                   y,
             double                   r,
             const ProcuraChartColor *color,
             double                   alpha)
{
  cairo_t *cr = c->cr;

  if (marker <= PROCURA_MARKER_NONE || marker >= PROCURA_N_MARKERS)
    return;
  cairo_save (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_new_path (cr);
  marker_path (cr, marker, x, y, r);
  if (marker == PROCURA_MARKER_CROSS || marker == PROCURA_MARKER_PLUS)
    {
      cairo_set_line_width (cr, MAX (c->lw * 0.9, 1.5));
      set_color (cr, color, alpha);
      cairo_stroke (cr);
    }
  else
    {
      set_color (cr, color, alpha);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 1.0);
      set_color (cr, &c->t->background, alpha * 0.9);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

/* Text */

static void
text_set_full (Ctx        *c,
               const char *text,
               gboolean    markup,
               double      size_factor,
               gboolean    bold,
               double      max_width,
               int         max_lines)
{
  PangoFontDescription *fd = pango_font_description_from_string (c->t->font_family ? c->t->font_family : "Sans");

  pango_font_description_set_absolute_size (fd, c->fs * size_factor * PANGO_SCALE);
  pango_font_description_set_weight (fd, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (c->pl, fd);
  pango_font_description_free (fd);
  pango_layout_set_attributes (c->pl, NULL);
  if (max_width > 0)
    {
      pango_layout_set_width (c->pl, (int) (max_width * PANGO_SCALE));
      pango_layout_set_wrap (c->pl, PANGO_WRAP_WORD_CHAR);
      pango_layout_set_ellipsize (c->pl, PANGO_ELLIPSIZE_END);
      pango_layout_set_height (c->pl, max_lines > 0 ? -max_lines : -1);
    }
  else
    {
      pango_layout_set_width (c->pl, -1);
      pango_layout_set_ellipsize (c->pl, PANGO_ELLIPSIZE_NONE);
      pango_layout_set_height (c->pl, -1);
    }
  pango_layout_set_alignment (c->pl, PANGO_ALIGN_LEFT);
  if (markup)
    pango_layout_set_markup (c->pl, text, -1);
  else
    pango_layout_set_text (c->pl, text, -1);
}

static void
text_set (Ctx        *c,
          const char *text,
          double      size_factor,
          gboolean    bold)
{
  text_set_full (c, text, FALSE, size_factor, bold, -1, 0);
}

static void
text_size (Ctx    *c,
           double *w,
           double *h)
{
  PangoRectangle logical;

  pango_layout_get_extents (c->pl, NULL, &logical);
  if (w)
    *w = logical.width / (double) PANGO_SCALE;
  if (h)
    *h = logical.height / (double) PANGO_SCALE;
}

static void
text_draw (Ctx                     *c,
           double                   x,
           double                   y,
           const ProcuraChartColor *color,
           double                   alpha)
{
  PangoRectangle logical;

  pango_layout_get_extents (c->pl, NULL, &logical);
  cairo_save (c->cr);
  set_color (c->cr, color, alpha);
  /* with a width the layout aligns its lines itself */
  if (pango_layout_get_width (c->pl) >= 0)
    logical.x = 0;
  cairo_move_to (c->cr, x - logical.x / (double) PANGO_SCALE, y);
  pango_cairo_show_layout (c->cr, c->pl);
  cairo_restore (c->cr);
}

static gboolean
rect_overlaps (const Rect *a,
               const Rect *b)
{
  return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static gboolean
rect_inside (const Rect *inner,
             double      x,
             double      y,
             double      w,
             double      h)
{
  return inner->x >= x - 0.5 && inner->y >= y - 0.5 && inner->x + inner->w <= x + w + 0.5
         && inner->y + inner->h <= y + h + 0.5;
}

static gboolean
rect_free (Ctx        *c,
           const Rect *r)
{
  for (guint i = 0; i < c->placed->len; i++)
    if (rect_overlaps (r, &g_array_index (c->placed, Rect, i)))
      return FALSE;
  return TRUE;
}

/* Draws the current layout with a halo at (x, y), remembers its rectangle */
static void
text_draw_halo (Ctx                     *c,
                double                   x,
                double                   y,
                const ProcuraChartColor *color)
{
  double w, h;
  Rect r;

  text_size (c, &w, &h);
  cairo_save (c->cr);
  cairo_rectangle (c->cr, x - 3, y - 1, w + 6, h + 2);
  set_color (c->cr, &c->t->background, 0.82);
  cairo_fill (c->cr);
  cairo_restore (c->cr);
  text_draw (c, x, y, color, 1.0);
  r.x = x - 3;
  r.y = y - 1;
  r.w = w + 6;
  r.h = h + 2;
  g_array_append_val (c->placed, r);
}

/* Places the current layout near (ax, ay), avoiding what is already placed. */
static gboolean
place_label (Ctx                     *c,
             double                   ax,
             double                   ay,
             double                   gap,
             const ProcuraChartColor *color,
             double                  *out_x,
             double                  *out_y)
{
  static const double dirs[][2] = {
    { 1, -1 }, { -1, -1 }, { 1, 1 }, { -1, 1 }, { 1, 0 }, { -1, 0 }, { 0, -1 }, { 0, 1 },
  };
  double w, h;
  Rect best = { 0 };
  gboolean have_best = FALSE;

  text_size (c, &w, &h);
  for (guint ring = 1; ring <= 4; ring++)
    for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
      {
        double g = gap * ring * (ring == 1 ? 1 : 1.6);
        double x, y;
        Rect r;

        if (dirs[d][0] > 0)
          x = ax + g;
        else if (dirs[d][0] < 0)
          x = ax - g - w;
        else
          x = ax - w / 2;
        if (dirs[d][1] > 0)
          y = ay + g;
        else if (dirs[d][1] < 0)
          y = ay - g - h;
        else
          y = ay - h / 2;
        r.x = x - 3;
        r.y = y - 1;
        r.w = w + 6;
        r.h = h + 2;
        if (!rect_inside (&r, c->px, c->py, c->pw, c->ph))
          continue;
        if (!have_best)
          {
            best = r;
            have_best = TRUE;
          }
        if (rect_free (c, &r))
          {
            text_draw_halo (c, x, y, color);
            if (out_x)
              *out_x = x;
            if (out_y)
              *out_y = y;
            return TRUE;
          }
      }
  if (!have_best)
    {
      best.x = CLAMP (ax + gap, c->px, MAX (c->px, c->px + c->pw - w - 6)) - 3;
      best.y = CLAMP (ay - gap - h, c->py, MAX (c->py, c->py + c->ph - h)) - 1;
    }
  text_draw_halo (c, best.x + 3, best.y + 1, color);
  if (out_x)
    *out_x = best.x + 3;
  if (out_y)
    *out_y = best.y + 1;
  return FALSE;
}

/* Mapping a data point to pixels; in category charts x is the category and y the value. */
static void
to_px (const Ctx *c,
       double     x,
       double     y,
       double    *px,
       double    *py)
{
  if (c->category && c->horizontal)
    {
      *px = map_value (&c->mx, y);
      *py = map_value (&c->my, x);
    }
  else
    {
      *px = map_value (&c->mx, x);
      *py = map_value (&c->my, y);
    }
}

static const Map *
value_map (const Ctx *c)
{
  return c->category && c->horizontal ? &c->mx : &c->my;
}

/* ------------------------------------------------------------------------- */
/* Ranges                                                                     */

static gboolean
series_is_bar (const ProcuraChartSeries *s)
{
  return s->kind == PROCURA_SERIES_BAR || s->kind == PROCURA_SERIES_STACKED_BAR
         || s->kind == PROCURA_SERIES_BOX;
}

static void
grow (double *lo,
      double *hi,
      double  v,
      gboolean log)
{
  if (!isfinite (v) || (log && !(v > 0)))
    return;
  if (v < *lo)
    *lo = v;
  if (v > *hi)
    *hi = v;
}

static void
xy_range (const ProcuraChart *chart,
          ProcuraAxisId       axis,
          double             *lo,
          double             *hi)
{
  gboolean log = chart->axis[axis].scale == PROCURA_SCALE_LOG;

  *lo = INFINITY;
  *hi = -INFINITY;
  for (guint i = 0; i < chart->series->len; i++)
    {
      const ProcuraChartSeries *s = chart->series->pdata[i];

      if (series_is_bar (s))
        continue;
      if (axis == PROCURA_AXIS_X)
        {
          grow (lo, hi, log ? s->x_min_pos : s->x_min, log);
          grow (lo, hi, s->x_max, log);
        }
      else
        {
          grow (lo, hi, log ? s->y_min_pos : s->y_min, log);
          grow (lo, hi, s->y_max, log);
        }
    }
  for (guint i = 0; i < chart->annots->len; i++)
    {
      const ProcuraAnnot *a = &g_array_index (chart->annots, ProcuraAnnot, i);

      if (axis == PROCURA_AXIS_X)
        {
          grow (lo, hi, a->x, log);
          if (a->kind == PROCURA_ANNOT_SHADED)
            grow (lo, hi, a->x1, log);
        }
      else
        {
          grow (lo, hi, a->y, log);
          if (a->kind == PROCURA_ANNOT_SHADED)
            grow (lo, hi, a->y1, log);
        }
    }
}

static void
category_value_range (const ProcuraChart *chart,
                      double             *lo,
                      double             *hi,
                      gboolean           *from_zero)
{
  gboolean log = chart->axis[PROCURA_AXIS_Y].scale == PROCURA_SCALE_LOG;
  guint n_cat = chart->categories->len;

  *lo = INFINITY;
  *hi = -INFINITY;
  /* bars grow from zero, unless they float (a low value given) or are boxes */
  *from_zero = FALSE;
  for (guint i = 0; i < chart->series->len; i++)
    {
      const ProcuraChartSeries *s = chart->series->pdata[i];

      if (s->kind == PROCURA_SERIES_STACKED_BAR || (s->kind == PROCURA_SERIES_BAR && s->y_low == NULL))
        *from_zero = TRUE;
    }
  for (guint cat = 0; cat < n_cat; cat++)
    {
      double pos = 0, neg = 0;
      gboolean stacked = FALSE;

      for (guint i = 0; i < chart->series->len; i++)
        {
          const ProcuraChartSeries *s = chart->series->pdata[i];
          double v;

          if (!series_is_bar (s) || cat >= s->n)
            continue;
          v = s->y ? s->y[cat] : NAN;
          if (s->kind == PROCURA_SERIES_STACKED_BAR)
            {
              if (!isfinite (v))
                continue;
              stacked = TRUE;
              if (v >= 0)
                pos += v;
              else
                neg += v;
            }
          else
            {
              grow (lo, hi, v, log);
              if (s->y_low)
                grow (lo, hi, s->y_low[cat], log);
              if (s->y_high)
                grow (lo, hi, s->y_high[cat], log);
            }
        }
      if (stacked)
        {
          grow (lo, hi, pos, log);
          grow (lo, hi, neg, log);
        }
    }
  for (guint i = 0; i < chart->annots->len; i++)
    {
      const ProcuraAnnot *a = &g_array_index (chart->annots, ProcuraAnnot, i);

      grow (lo, hi, a->y, log);
      if (a->kind == PROCURA_ANNOT_SHADED)
        grow (lo, hi, a->y1, log);
    }
}

static void
axis_ticks (const ProcuraChartAxis *axis,
            double                  lo,
            double                  hi,
            gboolean                force_zero,
            int                     target,
            ProcuraTicks           *ticks)
{
  gboolean log = axis->scale == PROCURA_SCALE_LOG;
  gboolean fixed_lo = isfinite (axis->min) && (!log || axis->min > 0);
  gboolean fixed_hi = isfinite (axis->max) && (!log || axis->max > 0);

  if (!log && (axis->include_zero || force_zero) && isfinite (lo))
    {
      lo = MIN (lo, 0);
      hi = MAX (hi, 0);
    }
  if (fixed_lo && fixed_hi)
    {
      procura_chart_ticks (axis->min, axis->max, target, axis->scale, FALSE, ticks);
      return;
    }
  procura_chart_ticks (lo, hi, target, axis->scale, TRUE, ticks);
  if (fixed_lo || fixed_hi)
    {
      double a = fixed_lo ? axis->min : ticks->lo;
      double b = fixed_hi ? axis->max : ticks->hi;
      procura_chart_ticks (a, b, target, axis->scale, FALSE, ticks);
    }
}

/* ------------------------------------------------------------------------- */
/* Legend                                                                     */

typedef struct {
  guint  series;
  char  *markup;
  double w, h;     /* of the text */
} LegendEntry;

static GArray *
legend_entries (Ctx *c)
{
  GArray *entries = g_array_new (FALSE, TRUE, sizeof (LegendEntry));

  for (guint i = 0; i < c->chart->series->len; i++)
    {
      const ProcuraChartSeries *s = c->chart->series->pdata[i];
      g_autofree char *name = NULL;
      LegendEntry e = { i, NULL, 0, 0 };

      if (!s->in_legend || s->name == NULL || s->name[0] == '\0')
        continue;
      name = g_markup_escape_text (s->name, -1);
      if (s->struck_out)
        {
          g_autofree char *reason = s->reason ? g_markup_escape_text (s->reason, -1) : NULL;
          e.markup = g_strdup_printf ("<s>%s</s>%s%s%s", name,
                                      s->estimate ? _(" (estimate)") : "",
                                      reason ? " — " : "", reason ? reason : "");
        }
      else
        e.markup = g_strdup_printf ("%s%s", name, s->estimate ? _(" (estimate)") : "");
      if (s->hidden)
        {
          /* toggled off: the entry stays, dimmed and marked */
          char *dimmed = g_strdup_printf ("<span alpha=\"45%%\">%s%s</span>", e.markup, _(" (hidden)"));
          g_free (e.markup);
          e.markup = dimmed;
        }
      text_set_full (c, e.markup, TRUE, 0.92, FALSE, -1, 0);
      text_size (c, &e.w, &e.h);
      g_array_append_val (entries, e);
    }
  return entries;
}

static void
legend_entries_free (GArray *entries)
{
  for (guint i = 0; i < entries->len; i++)
    g_free (g_array_index (entries, LegendEntry, i).markup);
  g_array_unref (entries);
}

#define SWATCH_W 30.0

static void
hatch (Ctx                     *c,
       double                   x,
       double                   y,
       double                   w,
       double                   h,
       const ProcuraChartColor *color,
       double                   alpha)
{
  cairo_t *cr = c->cr;
  double step = 6;

  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_set_line_width (cr, 1.6);
  set_color (cr, color, alpha);
  for (double d = -h; d < w + h; d += step)
    {
      cairo_move_to (cr, x + d, y + h);
      cairo_line_to (cr, x + d + h, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_bar_rect (Ctx                      *c,
               double                    x,
               double                    y,
               double                    w,
               double                    h,
               const ProcuraChartSeries *s,
               const ProcuraChartColor  *color,
               double                    alpha)
{
  cairo_t *cr = c->cr;

  if (w <= 0 || h <= 0)
    return;
  if (s->estimate)
    {
      /* the series colour, striped with the background: still the same colour at a
       * glance, and plainly not a measured figure */
      cairo_rectangle (cr, x, y, w, h);
      set_color (cr, color, alpha * 0.85);
      cairo_fill (cr);
      hatch (c, x, y, w, h, &c->t->background, alpha * (c->t->high_contrast ? 0.7 : 0.5));
    }
  else
    {
      cairo_rectangle (cr, x, y, w, h);
      set_color (cr, color, alpha);
      cairo_fill (cr);
    }
}

static void
draw_swatch (Ctx                      *c,
             const ProcuraChartSeries *s,
             guint                     index,
             double                    x,
             double                    y,
             double                    h)
{
  cairo_t *cr = c->cr;
  const ProcuraChartColor *color = series_color (c, s, index);
  double alpha = s->struck_out ? 0.45 : 1.0;
  double cy = y + h / 2;

  cairo_save (cr);
  switch (s->kind)
    {
    case PROCURA_SERIES_BAR:
    case PROCURA_SERIES_STACKED_BAR:
    case PROCURA_SERIES_BOX:
      draw_bar_rect (c, x + SWATCH_W - 16, cy - 6, 14, 12, s, color, alpha);
      break;
    case PROCURA_SERIES_BAND:
    case PROCURA_SERIES_AREA:
      cairo_rectangle (cr, x, cy - 6, SWATCH_W, 12);
      set_color (cr, color, alpha * (c->t->high_contrast ? 0.4 : 0.25));
      cairo_fill (cr);
      if (s->kind == PROCURA_SERIES_AREA || s->y)
        {
          cairo_move_to (cr, x, cy);
          cairo_line_to (cr, x + SWATCH_W, cy);
          apply_dash (cr, series_dash (s, index), c->lw);
          cairo_set_line_width (cr, c->lw);
          set_color (cr, color, alpha);
          cairo_stroke (cr);
        }
      break;
    case PROCURA_SERIES_SCATTER:
      draw_marker (c, series_marker (s, index), x + SWATCH_W / 2, cy, 4.5, color, alpha);
      break;
    case PROCURA_SERIES_ERRORBAR:
      cairo_move_to (cr, x + SWATCH_W / 2, cy - 6);
      cairo_line_to (cr, x + SWATCH_W / 2, cy + 6);
      cairo_set_line_width (cr, 1.5);
      set_color (cr, color, alpha);
      cairo_stroke (cr);
      draw_marker (c, series_marker (s, index), x + SWATCH_W / 2, cy, 4, color, alpha);
      break;
    case PROCURA_SERIES_LINE:
    case PROCURA_SERIES_STEP:
    default:
      cairo_move_to (cr, x, cy);
      cairo_line_to (cr, x + SWATCH_W, cy);
      apply_dash (cr, series_dash (s, index), c->lw);
      cairo_set_line_width (cr, c->lw);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
      set_color (cr, color, alpha);
      cairo_stroke (cr);
      if (line_shows_markers (s))
        draw_marker (c, series_marker (s, index), x + SWATCH_W / 2, cy, 3.5, color, alpha);
      break;
    }
  cairo_restore (cr);
}

/* Lays out the legend: returns its size; with @draw, draws it at (x, y). */
static void
legend_flow (Ctx    *c,
             GArray *entries,
             double  x,
             double  y,
             double  max_w,
             gboolean vertical,
             gboolean draw,
             double *out_w,
             double *out_h)
{
  double cx = 0, cy = 0, row_h = 0, used_w = 0;
  double gap = c->fs * 1.3;

  for (guint i = 0; i < entries->len; i++)
    {
      LegendEntry *e = &g_array_index (entries, LegendEntry, i);
      double ew = SWATCH_W + 6 + e->w;
      double eh = MAX (e->h, 14);

      if (!vertical && cx > 0 && cx + ew > max_w)
        {
          cx = 0;
          cy += row_h + 4;
          row_h = 0;
        }
      if (draw)
        {
          const ProcuraChartSeries *s = c->chart->series->pdata[e->series];

          draw_swatch (c, s, e->series, x + cx, y + cy, eh);
          text_set_full (c, e->markup, TRUE, 0.92, FALSE, -1, 0);
          text_draw (c, x + cx + SWATCH_W + 6, y + cy + (eh - e->h) / 2, &c->t->foreground,
                     s->struck_out ? 0.75 : 1.0);
        }
      used_w = MAX (used_w, cx + ew);
      row_h = MAX (row_h, eh);
      if (vertical)
        {
          cy += row_h + 4;
          row_h = 0;
        }
      else
        cx += ew + gap;
    }
  if (out_w)
    *out_w = used_w;
  if (out_h)
    *out_h = cy + row_h;
}

/* ------------------------------------------------------------------------- */
/* Series                                                                     */

static void
draw_decimated (Ctx                      *c,
                ProcuraChartSeries       *s,
                const ProcuraChartColor  *color,
                double                    alpha)
{
  cairo_t *cr = c->cr;
  guint cols = (guint) MAX (1, ceil (c->pw * c->device_scale));
  double colw = c->pw / cols;
  double half = c->lw / 2;
  double prev_last = NAN;
  long prev_c = -2;
  gboolean gaps = FALSE;
  double *tops, *bottoms;

  if (s->cols == NULL || s->n_cols != cols || s->cols_x0 != c->mx.lo || s->cols_x1 != c->mx.hi
      || s->cols_log != c->mx.log)
    {
      g_free (s->cols);
      s->cols = g_new (ProcuraColumn, cols);
      s->n_cols = cols;
      s->cols_x0 = c->mx.lo;
      s->cols_x1 = c->mx.hi;
      s->cols_log = c->mx.log;
      procura_chart_reduce_columns (&s->reduce, s->x, s->y, s->n, s->x_sorted, c->mx.lo, c->mx.hi,
                                    c->mx.log, cols, s->cols);
    }

  tops = g_new (double, cols);
  bottoms = g_new (double, cols);
  cairo_save (cr);
  for (guint k = 0; k < cols; k++)
    {
      const ProcuraColumn *col = &s->cols[k];
      double top, bottom;

      tops[k] = bottoms[k] = NAN;
      if (col->count == 0)
        continue;
      top = map_value (&c->my, col->max);
      bottom = map_value (&c->my, col->min);
      if (prev_c == (long) k - 1)
        {
          double p = map_value (&c->my, prev_last);
          top = MIN (top, p);
          bottom = MAX (bottom, p);
        }
      else if (prev_c >= 0)
        gaps = TRUE;
      tops[k] = top - half;
      bottoms[k] = bottom + half;
      prev_last = col->last;
      prev_c = k;
    }
  /* a column per device pixel: filled as a mask on raster targets */
  procura_chart_reduce_fill_columns (cr, c->px, c->pw, cols, tops, bottoms, c->device_scale, color, alpha);
  g_free (tops);
  g_free (bottoms);

  if (gaps)
    {
      /* connect columns across empty ones with a plain line */
      prev_c = -2;
      cairo_new_path (cr);
      for (guint k = 0; k < cols; k++)
        {
          const ProcuraColumn *col = &s->cols[k];

          if (col->count == 0)
            continue;
          if (prev_c >= 0 && prev_c < (long) k - 1)
            {
              cairo_move_to (cr, c->px + (prev_c + 0.5) * colw, map_value (&c->my, prev_last));
              cairo_line_to (cr, c->px + (k + 0.5) * colw, map_value (&c->my, col->first));
            }
          prev_last = col->last;
          prev_c = k;
        }
      cairo_set_line_width (cr, c->lw);
      apply_dash (cr, series_dash (s, 0) == PROCURA_DASH_SOLID ? PROCURA_DASH_SOLID : PROCURA_DASH_DASHED, c->lw);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

static double
pt_x (const ProcuraChartSeries *s,
      gsize                     i)
{
  return s->x ? s->x[i] : (double) i;
}

static void
draw_line_path (Ctx                      *c,
                const ProcuraChartSeries *s,
                gboolean                  step)
{
  cairo_t *cr = c->cr;
  gboolean pen = FALSE;
  gboolean curve = s->data_space && !step && (c->mx.log || c->my.log);
  double prev_y = 0, prev_dx = 0, prev_dy = 0;

  cairo_new_path (cr);
  for (gsize i = 0; i < s->n; i++)
    {
      double x = pt_x (s, i), y = s->y[i];
      double px, py;

      if (!isfinite (x) || !isfinite (y) || (c->mx.log && !(x > 0)) || (c->my.log && !(y > 0)))
        {
          pen = FALSE;
          continue;
        }
      px = map_value (&c->mx, x);
      py = map_value (&c->my, y);
      if (!pen)
        cairo_move_to (cr, px, py);
      else if (step)
        {
          cairo_line_to (cr, px, prev_y);
          cairo_line_to (cr, px, py);
        }
      else if (curve)
        {
          /* straight in data space: the curve of linear interpolation on screen */
          for (int k = 1; k < 48; k++)
            {
              double sx, sy;

              segment_point (FALSE, FALSE, TRUE, prev_dx, prev_dy, x, y, k / 48.0, &sx, &sy);
              cairo_line_to (cr, map_value (&c->mx, sx), map_value (&c->my, sy));
            }
          cairo_line_to (cr, px, py);
        }
      else
        cairo_line_to (cr, px, py);
      pen = TRUE;
      prev_y = py;
      prev_dx = x;
      prev_dy = y;
    }
}

static void
draw_band (Ctx                      *c,
           const ProcuraChartSeries *s,
           const double             *lo,
           const double             *hi,
           const ProcuraChartColor  *color,
           double                    alpha)
{
  cairo_t *cr = c->cr;
  gsize i = 0;

  while (i < s->n)
    {
      gsize start, end;

      while (i < s->n && !(isfinite (pt_x (s, i)) && isfinite (lo[i]) && isfinite (hi[i])))
        i++;
      start = i;
      while (i < s->n && isfinite (pt_x (s, i)) && isfinite (lo[i]) && isfinite (hi[i]))
        i++;
      end = i;
      if (end <= start)
        continue;
      cairo_new_path (cr);
      for (gsize k = start; k < end; k++)
        cairo_line_to (cr, map_value (&c->mx, pt_x (s, k)), map_value (&c->my, hi[k]));
      for (gsize k = end; k > start; k--)
        cairo_line_to (cr, map_value (&c->mx, pt_x (s, k - 1)), map_value (&c->my, lo[k - 1]));
      cairo_close_path (cr);
      set_color (cr, color, alpha);
      cairo_fill (cr);
    }
}

static void
draw_scatter (Ctx                      *c,
              ProcuraChartSeries       *s,
              ProcuraMarker             marker,
              const ProcuraChartColor  *color,
              double                    alpha)
{
  cairo_t *cr = c->cr;

  if (s->n > 4000)
    {
      /* Many points: one mark per occupied 2 px cell, so every point still shows. */
      guint gw = (guint) MAX (1, ceil (c->pw / 2)), gh = (guint) MAX (1, ceil (c->ph / 2));
      guint8 *grid;
      ProcuraReduceMap mx = { c->mx.lo, c->mx.hi, c->mx.log, c->mx.p0, c->mx.p1 };
      ProcuraReduceMap my = { c->my.lo, c->my.hi, c->my.log, c->my.p0, c->my.p1 };

      /* the density per pixel, counted once for this geometry */
      if (procura_chart_reduce_scatter (&s->reduce, cr, s->x, s->y, s->n, &mx, &my, c->px, c->py,
                                        c->pw, c->ph, c->device_scale, color, alpha))
        return;
      grid = g_malloc0 ((gsize) gw * gh);
      cairo_new_path (cr);
      for (gsize i = 0; i < s->n; i++)
        {
          double px = map_value (&c->mx, pt_x (s, i)), py = map_value (&c->my, s->y[i]);
          long gx, gy;

          if (!isfinite (px) || !isfinite (py) || !isfinite (s->y[i]))
            continue;
          gx = (long) floor ((px - c->px) / 2);
          gy = (long) floor ((py - c->py) / 2);
          if (gx < 0 || gy < 0 || gx >= (long) gw || gy >= (long) gh)
            continue;
          if (grid[(gsize) gy * gw + gx])
            continue;
          grid[(gsize) gy * gw + gx] = 1;
          cairo_rectangle (cr, c->px + gx * 2.0, c->py + gy * 2.0, 2.0, 2.0);
        }
      set_color (cr, color, alpha * 0.85);
      cairo_fill (cr);
      g_free (grid);
      return;
    }
  for (gsize i = 0; i < s->n; i++)
    {
      double x = pt_x (s, i), y = s->y[i];

      if (!isfinite (x) || !isfinite (y))
        continue;
      draw_marker (c, marker, map_value (&c->mx, x), map_value (&c->my, y), s->n <= 50 ? 6 : 4.5,
                   color, alpha);
    }
}

static void
draw_xy_series (Ctx                *c,
                ProcuraChartSeries *s,
                guint               index)
{
  cairo_t *cr = c->cr;
  const ProcuraChartColor *color = series_color (c, s, index);
  double alpha = s->struck_out ? 0.35 : 1.0;
  ProcuraDash dash = series_dash (s, index);
  ProcuraMarker marker = series_marker (s, index);
  guint cols = (guint) MAX (1, ceil (c->pw * c->device_scale));
  double band_alpha = c->t->high_contrast ? 0.35 : 0.2;

  if (s->n == 0 || s->y == NULL)
    {
      if (s->kind != PROCURA_SERIES_BAND || s->y_low == NULL)
        return;
    }

  cairo_save (cr);
  cairo_set_line_width (cr, c->lw);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);

  switch (s->kind)
    {
    case PROCURA_SERIES_BAND:
      if (s->y_low && s->y_high)
        {
          ProcuraReduceMap mx = { c->mx.lo, c->mx.hi, c->mx.log, c->mx.p0, c->mx.p1 };
          ProcuraReduceMap my = { c->my.lo, c->my.hi, c->my.log, c->my.p0, c->my.p1 };

          /* many points: per pixel column */
          if (!procura_chart_reduce_band (&s->reduce, cr, s->x, s->y_low, s->y_high, s->n, s->x_sorted,
                                          &mx, &my, c->px, c->pw, c->device_scale, color,
                                          alpha * band_alpha))
            draw_band (c, s, s->y_low, s->y_high, color, alpha * band_alpha);
        }
      if (s->y)
        {
          draw_line_path (c, s, FALSE);
          apply_dash (cr, dash, c->lw);
          set_color (cr, color, alpha);
          cairo_stroke (cr);
        }
      break;
    case PROCURA_SERIES_AREA:
      {
        double *base = g_new (double, s->n);
        double b = c->my.log ? c->my.lo : 0;

        for (gsize i = 0; i < s->n; i++)
          base[i] = b;
        draw_band (c, s, base, s->y, color, alpha * band_alpha);
        g_free (base);
        draw_line_path (c, s, FALSE);
        apply_dash (cr, dash, c->lw);
        set_color (cr, color, alpha);
        cairo_stroke (cr);
      }
      break;
    case PROCURA_SERIES_LINE:
    case PROCURA_SERIES_STEP:
      if (procura_chart_reduce_wanted (s->n, cols))
        {
          draw_decimated (c, s, color, alpha);
          break;
        }
      draw_line_path (c, s, s->kind == PROCURA_SERIES_STEP);
      apply_dash (cr, dash, c->lw);
      set_color (cr, color, alpha);
      cairo_stroke (cr);
      if (line_shows_markers (s))
        for (gsize i = 0; i < s->n; i++)
          {
            double x = pt_x (s, i), y = s->y[i];

            if (isfinite (x) && isfinite (y))
              draw_marker (c, marker, map_value (&c->mx, x), map_value (&c->my, y), 3.5,
                           color, alpha);
          }
      break;
    case PROCURA_SERIES_SCATTER:
      draw_scatter (c, s, marker == PROCURA_MARKER_NONE ? PROCURA_MARKER_CIRCLE : marker, color,
                    alpha);
      break;
    case PROCURA_SERIES_ERRORBAR:
      cairo_set_line_width (cr, 1.5);
      cairo_set_dash (cr, NULL, 0, 0);
      for (gsize i = 0; i < s->n; i++)
        {
          double x = pt_x (s, i);
          double lo = s->y_low ? s->y_low[i] : NAN, hi = s->y_high ? s->y_high[i] : NAN;
          double px = map_value (&c->mx, x);

          if (!isfinite (x))
            continue;
          if (isfinite (lo) && isfinite (hi))
            {
              double p0 = map_value (&c->my, lo), p1 = map_value (&c->my, hi);

              cairo_move_to (cr, px, p0);
              cairo_line_to (cr, px, p1);
              cairo_move_to (cr, px - 4, p0);
              cairo_line_to (cr, px + 4, p0);
              cairo_move_to (cr, px - 4, p1);
              cairo_line_to (cr, px + 4, p1);
              set_color (cr, color, alpha);
              cairo_stroke (cr);
            }
          if (isfinite (s->y[i]) && marker != PROCURA_MARKER_NONE)
            draw_marker (c, marker, px, map_value (&c->my, s->y[i]), 4, color, alpha);
        }
      break;
    case PROCURA_SERIES_BAR:
    case PROCURA_SERIES_STACKED_BAR:
    case PROCURA_SERIES_BOX:
    default:
      break;
    }
  cairo_restore (cr);
}

/* Category geometry: the rectangle of a bar from value a to b in category cat,
 * offset along the category axis by @offset with thickness @thick. */
static void
bar_rect (const Ctx *c,
          guint      cat,
          double     offset,
          double     thick,
          double     a,
          double     b,
          Rect      *r)
{
  double centre, pa, pb;
  const Map *vm = value_map (c);

  if (c->horizontal)
    centre = map_value (&c->my, cat);
  else
    centre = map_value (&c->mx, cat);
  pa = map_value (vm, a);
  pb = map_value (vm, b);
  if (c->horizontal)
    {
      r->x = MIN (pa, pb);
      r->w = fabs (pb - pa);
      r->y = centre + offset - thick / 2;
      r->h = thick;
    }
  else
    {
      r->y = MIN (pa, pb);
      r->h = fabs (pb - pa);
      r->x = centre + offset - thick / 2;
      r->w = thick;
    }
}

static double
slot_size (const Ctx *c)
{
  return (c->horizontal ? c->ph : c->pw) / MAX (c->n_cat, 1);
}

static guint
n_bar_groups (const ProcuraChart *chart)
{
  guint k = 0;
  gboolean stacked = FALSE;

  for (guint i = 0; i < chart->series->len; i++)
    {
      const ProcuraChartSeries *s = chart->series->pdata[i];

      if (s->kind == PROCURA_SERIES_BAR || s->kind == PROCURA_SERIES_BOX)
        k++;
      else if (s->kind == PROCURA_SERIES_STACKED_BAR)
        stacked = TRUE;
    }
  if (chart->bars_overlap)
    k = MIN (k, 1);
  return k + (stacked ? 1 : 0);
}

/* The group slot of series @index (stacked series share the last group). */
static guint
bar_group_of (const ProcuraChart *chart,
              guint               index)
{
  guint k = 0;
  const ProcuraChartSeries *target = chart->series->pdata[index];

  if (target->kind == PROCURA_SERIES_STACKED_BAR)
    return n_bar_groups (chart) - 1;
  if (chart->bars_overlap)
    return 0;
  for (guint i = 0; i < index; i++)
    {
      const ProcuraChartSeries *s = chart->series->pdata[i];

      if (s->kind == PROCURA_SERIES_BAR || s->kind == PROCURA_SERIES_BOX)
        k++;
    }
  return k;
}

static void
bar_geometry (const Ctx *c,
              guint      series_index,
              double    *offset,
              double    *thick)
{
  guint groups = MAX (n_bar_groups (c->chart), 1);
  guint g = bar_group_of (c->chart, series_index);
  double slot = slot_size (c);
  double total = slot * (groups > 1 ? 0.8 : 0.62);

  *thick = MIN (total / groups, c->fs * 4.5);
  *offset = (g - (groups - 1) / 2.0) * *thick;
}

static void
draw_category_series (Ctx      *c,
                      gboolean  labels)
{
  cairo_t *cr = c->cr;
  ProcuraChart *chart = c->chart;
  const Map *vm = value_map (c);
  double base = vm->log ? vm->lo : 0;

  for (guint cat = 0; cat < c->n_cat; cat++)
    {
      double pos = base, neg = base;
      gboolean struck = chart->category_reasons->pdata[cat] != NULL;
      double cat_alpha = struck ? 0.35 : 1.0;
      double stack_offset = 0, stack_thick = 0;
      gboolean have_stack = FALSE;

      for (guint i = 0; i < chart->series->len; i++)
        {
          ProcuraChartSeries *s = chart->series->pdata[i];
          const ProcuraChartColor *color = series_color (c, s, i);
          double alpha = cat_alpha * (s->struck_out ? 0.35 : 1.0);
          double offset, thick, v;
          Rect r;

          if (!series_is_bar (s) || cat >= s->n || s->y == NULL
              || procura_chart_series_is_hidden (chart, s))
            continue;
          v = s->y[cat];
          bar_geometry (c, i, &offset, &thick);
          if (labels)
            {
              /* only what the totals need: the stack's extent, and bar labels */
              if (s->kind == PROCURA_SERIES_STACKED_BAR && isfinite (v) && v != 0)
                {
                  if (v > 0)
                    pos += v;
                  else
                    neg += v;
                  have_stack = TRUE;
                  stack_offset = offset;
                  stack_thick = thick;
                }
              else if (s->kind == PROCURA_SERIES_BAR && chart->bar_totals && isfinite (v))
                {
                  double from = s->y_low && isfinite (s->y_low[cat]) ? s->y_low[cat] : base;
                  g_autofree char *label = procura_chart_value_text (chart, v, chart->axis[PROCURA_AXIS_Y].unit);
                  double tw, th;

                  bar_rect (c, cat, offset, thick, from, v, &r);
                  text_set (c, label, 0.85, FALSE);
                  text_size (c, &tw, &th);
                  if (c->horizontal)
                    text_draw (c, v >= from ? r.x + r.w + 4 : r.x - tw - 4, r.y + (r.h - th) / 2,
                               &c->t->foreground, 0.85);
                  else
                    text_draw (c, r.x + (r.w - tw) / 2, r.y - th - 2, &c->t->foreground, 0.85);
                }
              continue;
            }
          switch (s->kind)
            {
            case PROCURA_SERIES_STACKED_BAR:
              if (!isfinite (v) || v == 0)
                break;
              if (v > 0)
                {
                  bar_rect (c, cat, offset, thick, pos, pos + v, &r);
                  pos += v;
                }
              else
                {
                  bar_rect (c, cat, offset, thick, neg + v, neg, &r);
                  neg += v;
                }
              draw_bar_rect (c, r.x, r.y, r.w, r.h, s, color, alpha);
              /* a hairline of background between segments */
              cairo_save (cr);
              cairo_rectangle (cr, r.x, r.y, r.w, r.h);
              cairo_set_line_width (cr, 1);
              set_color (cr, &c->t->background, 1);
              cairo_stroke (cr);
              cairo_restore (cr);
              have_stack = TRUE;
              stack_offset = offset;
              stack_thick = thick;
              break;
            case PROCURA_SERIES_BAR:
              {
                double from = s->y_low && isfinite (s->y_low[cat]) ? s->y_low[cat] : base;

                if (!isfinite (v))
                  break;
                bar_rect (c, cat, offset, thick, from, v, &r);
                if (r.w < 1 && c->horizontal)
                  r.w = 1;
                if (r.h < 1 && !c->horizontal)
                  r.h = 1;
                draw_bar_rect (c, r.x, r.y, r.w, r.h, s, color, alpha);
              }
              break;
            case PROCURA_SERIES_BOX:
              {
                double lo = s->y_low ? s->y_low[cat] : NAN, hi = s->y_high ? s->y_high[cat] : NAN;

                if (isfinite (lo) && isfinite (hi))
                  {
                    bar_rect (c, cat, offset, thick, lo, hi, &r);
                    cairo_rectangle (cr, r.x, r.y, r.w, r.h);
                    set_color (cr, color, alpha * 0.3);
                    cairo_fill_preserve (cr);
                    set_color (cr, color, alpha);
                    cairo_set_line_width (cr, 1.5);
                    cairo_stroke (cr);
                  }
                if (isfinite (v))
                  {
                    bar_rect (c, cat, offset, thick, v, v, &r);
                    cairo_move_to (cr, r.x, r.y);
                    cairo_line_to (cr, r.x + (c->horizontal ? 0 : r.w), r.y + (c->horizontal ? r.h : 0));
                    set_color (cr, color, alpha);
                    cairo_set_line_width (cr, 2.5);
                    cairo_stroke (cr);
                  }
              }
              break;
            case PROCURA_SERIES_LINE:
            case PROCURA_SERIES_STEP:
            case PROCURA_SERIES_SCATTER:
            case PROCURA_SERIES_BAND:
            case PROCURA_SERIES_ERRORBAR:
            case PROCURA_SERIES_AREA:
            default:
              break;
            }
        }

      if (labels && have_stack && chart->bar_totals)
        {
          double total = (pos - base) + (neg - base);
          g_autofree char *label = procura_chart_value_text (chart, total, chart->axis[PROCURA_AXIS_Y].unit);
          double tw, th;
          Rect r;

          bar_rect (c, cat, stack_offset, stack_thick, base, pos, &r);
          text_set (c, label, 0.85, TRUE);
          text_size (c, &tw, &th);
          if (c->horizontal)
            text_draw (c, r.x + r.w + 4, r.y + (r.h - th) / 2, &c->t->foreground, 0.9);
          else
            text_draw (c, r.x + (r.w - tw) / 2, r.y - th - 2, &c->t->foreground, 0.9);
        }
    }
}

/* ------------------------------------------------------------------------- */
/* Annotations                                                                */

/* The pixel position of a line annotation; FALSE when it is off the plot. */
static gboolean
annot_line_position (Ctx                *c,
                     const ProcuraAnnot *a,
                     gboolean           *horizontal_line,
                     double             *p)
{
  double v = a->kind == PROCURA_ANNOT_HLINE ? a->y : a->x;

  if (!isfinite (v))
    return FALSE;
  /* An HLINE is a value threshold: across the plot, or down it in horizontal bars */
  *horizontal_line = (a->kind == PROCURA_ANNOT_HLINE) != (c->category && c->horizontal);
  if (a->kind == PROCURA_ANNOT_HLINE)
    *p = map_value (value_map (c), a->y);
  else if (c->category)
    *p = c->horizontal ? map_value (&c->my, a->x) : map_value (&c->mx, a->x);
  else
    *p = map_value (&c->mx, a->x);
  return *horizontal_line ? (*p >= c->py - 0.5 && *p <= c->py + c->ph + 0.5)
                          : (*p >= c->px - 0.5 && *p <= c->px + c->pw + 0.5);
}

static gboolean
annot_point_position (Ctx                *c,
                      const ProcuraAnnot *a,
                      double             *px,
                      double             *py)
{
  if (a->kind != PROCURA_ANNOT_MARKER && a->kind != PROCURA_ANNOT_CALLOUT && a->kind != PROCURA_ANNOT_LABEL)
    return FALSE;
  if (!isfinite (a->x) || !isfinite (a->y))
    return FALSE;
  to_px (c, a->x, a->y, px, py);
  return *px >= c->px - 1 && *px <= c->px + c->pw + 1 && *py >= c->py - 1 && *py <= c->py + c->ph + 1;
}

/* In four passes, so that labels never cover the marks: the lines, the marker rings
 * (claimed as taken), the lines' labels, then the point labels and callouts. */
static void
draw_annotations (Ctx *c)
{
  cairo_t *cr = c->cr;
  ProcuraChart *chart = c->chart;
  const ProcuraChartColor *fg = &c->t->foreground;
  guint n = chart->annots->len;

  for (guint i = 0; i < n; i++)
    {
      const ProcuraAnnot *a = &g_array_index (chart->annots, ProcuraAnnot, i);
      gboolean horizontal_line;
      double p;
      double pattern[2] = { 6, 4 };

      if ((a->kind != PROCURA_ANNOT_HLINE && a->kind != PROCURA_ANNOT_VLINE)
          || !annot_line_position (c, a, &horizontal_line, &p))
        continue;
      cairo_save (cr);
      cairo_set_line_width (cr, c->t->high_contrast ? 2 : 1.5);
      cairo_set_dash (cr, pattern, 2, 0);
      set_color (cr, fg, 0.85);
      if (horizontal_line)
        {
          cairo_move_to (cr, c->px, round (p) + 0.5);
          cairo_line_to (cr, c->px + c->pw, round (p) + 0.5);
        }
      else
        {
          cairo_move_to (cr, round (p) + 0.5, c->py);
          cairo_line_to (cr, round (p) + 0.5, c->py + c->ph);
        }
      cairo_stroke (cr);
      cairo_restore (cr);
    }

  for (guint i = 0; i < n; i++)
    {
      const ProcuraAnnot *a = &g_array_index (chart->annots, ProcuraAnnot, i);
      double px, py;

      if (!annot_point_position (c, a, &px, &py))
        continue;
      if (a->kind == PROCURA_ANNOT_MARKER)
        {
          /* the ring and a margin: no other label may come close enough to look like
           * this point's (its own label sits beyond it, with a leader line) */
          Rect r = { px - 18, py - 18, 36, 36 };

          cairo_save (cr);
          cairo_new_path (cr);
          cairo_arc (cr, px, py, 6, 0, 2 * G_PI);
          set_color (cr, &c->t->background, 1);
          cairo_fill_preserve (cr);
          cairo_set_line_width (cr, 2);
          set_color (cr, fg, 1);
          cairo_stroke (cr);
          cairo_arc (cr, px, py, 2, 0, 2 * G_PI);
          cairo_fill (cr);
          cairo_restore (cr);
          g_array_append_val (c->placed, r);
        }
      else
        {
          Rect r = { px - 6, py - 6, 12, 12 };   /* keep the point itself visible */
          g_array_append_val (c->placed, r);
        }
    }

  for (guint i = 0; i < n; i++)
    {
      const ProcuraAnnot *a = &g_array_index (chart->annots, ProcuraAnnot, i);
      gboolean horizontal_line;
      double p, tw, th;
      Rect cand[4];
      gboolean placed = FALSE;

      if ((a->kind != PROCURA_ANNOT_HLINE && a->kind != PROCURA_ANNOT_VLINE)
          || a->label == NULL || a->label[0] == '\0'
          || !annot_line_position (c, a, &horizontal_line, &p))
        continue;
      text_set (c, a->label, 0.88, TRUE);
      text_size (c, &tw, &th);
      if (horizontal_line)
        {
          cand[0] = (Rect) { c->px + c->pw - tw - 8, p - th - 3, tw + 6, th + 2 };
          cand[1] = (Rect) { c->px + c->pw - tw - 8, p + 3, tw + 6, th + 2 };
          cand[2] = (Rect) { c->px + 6, p - th - 3, tw + 6, th + 2 };
          cand[3] = (Rect) { c->px + 6, p + 3, tw + 6, th + 2 };
        }
      else
        {
          cand[0] = (Rect) { p + 4, c->py + 4, tw + 6, th + 2 };
          cand[1] = (Rect) { p - tw - 10, c->py + 4, tw + 6, th + 2 };
          cand[2] = (Rect) { p + 4, c->py + c->ph - th - 6, tw + 6, th + 2 };
          cand[3] = (Rect) { p - tw - 10, c->py + c->ph - th - 6, tw + 6, th + 2 };
        }
      for (guint k = 0; k < G_N_ELEMENTS (cand) && !placed; k++)
        if (rect_inside (&cand[k], c->px, c->py, c->pw, c->ph) && rect_free (c, &cand[k]))
          {
            text_draw_halo (c, cand[k].x + 3, cand[k].y + 1, fg);
            placed = TRUE;
          }
      if (!placed)
        place_label (c, horizontal_line ? c->px + c->pw - tw : p, horizontal_line ? p : c->py + th,
                     6, fg, NULL, NULL);
    }

  for (guint i = 0; i < n; i++)
    {
      const ProcuraAnnot *a = &g_array_index (chart->annots, ProcuraAnnot, i);
      double px, py;

      if (!annot_point_position (c, a, &px, &py) || a->label == NULL || a->label[0] == '\0')
        continue;
      if (a->kind == PROCURA_ANNOT_MARKER || a->kind == PROCURA_ANNOT_LABEL)
        {
          double lx, ly, tw, th, nx, ny;

          text_set (c, a->label, 0.85, FALSE);
          text_size (c, &tw, &th);
          place_label (c, px, py, a->kind == PROCURA_ANNOT_MARKER ? 19 : 7, fg, &lx, &ly);
          /* a label pushed away from its point gets a leader line, so that it is
           * never read as another point's */
          nx = CLAMP (px, lx - 3, lx + tw + 3);
          ny = CLAMP (py, ly - 1, ly + th + 1);
          if (hypot (nx - px, ny - py) > 10)
            {
              double d = hypot (nx - px, ny - py);

              cairo_save (cr);
              cairo_set_line_width (cr, 1);
              set_color (cr, fg, 0.55);
              cairo_move_to (cr, px + (nx - px) / d * 7, py + (ny - py) / d * 7);
              cairo_line_to (cr, nx, ny);
              cairo_stroke (cr);
              cairo_restore (cr);
            }
        }
      else
        {
          double lx, ly, tw, th;

          text_set_full (c, a->label, FALSE, 0.88, FALSE, c->pw * 0.4, 3);
          text_size (c, &tw, &th);
          place_label (c, px, py, 28, fg, &lx, &ly);
          cairo_save (cr);
          /* border and leader line from the box's nearest edge */
          cairo_rectangle (cr, lx - 3.5, ly - 1.5, tw + 7, th + 3);
          cairo_set_line_width (cr, 1);
          set_color (cr, fg, 0.6);
          cairo_stroke (cr);
          cairo_move_to (cr, CLAMP (px, lx - 3, lx + tw + 3), CLAMP (py, ly - 1, ly + th + 1));
          cairo_line_to (cr, px, py);
          cairo_stroke (cr);
          cairo_arc (cr, px, py, 2.5, 0, 2 * G_PI);
          cairo_fill (cr);
          cairo_restore (cr);
        }
    }
}

static void
draw_shaded (Ctx *c)
{
  cairo_t *cr = c->cr;
  ProcuraChart *chart = c->chart;

  for (guint i = 0; i < chart->annots->len; i++)
    {
      const ProcuraAnnot *a = &g_array_index (chart->annots, ProcuraAnnot, i);
      double x0, x1, y0, y1;

      if (a->kind != PROCURA_ANNOT_SHADED)
        continue;
      if (c->category)
        {
          /* x: categories (NAN = all), y: values */
          double c0 = isfinite (a->x) ? a->x - 0.5 : -0.5;
          double c1 = isfinite (a->x1) ? a->x1 + 0.5 : c->n_cat - 0.5;
          double v0 = isfinite (a->y) ? a->y : value_map (c)->lo;
          double v1 = isfinite (a->y1) ? a->y1 : value_map (c)->hi;

          to_px (c, c0, v0, &x0, &y0);
          to_px (c, c1, v1, &x1, &y1);
        }
      else
        {
          x0 = isfinite (a->x) ? map_value (&c->mx, a->x) : c->px;
          x1 = isfinite (a->x1) ? map_value (&c->mx, a->x1) : c->px + c->pw;
          y0 = isfinite (a->y) ? map_value (&c->my, a->y) : c->py + c->ph;
          y1 = isfinite (a->y1) ? map_value (&c->my, a->y1) : c->py;
        }
      x0 = CLAMP (x0, c->px, c->px + c->pw);
      x1 = CLAMP (x1, c->px, c->px + c->pw);
      y0 = CLAMP (y0, c->py, c->py + c->ph);
      y1 = CLAMP (y1, c->py, c->py + c->ph);
      cairo_save (cr);
      cairo_rectangle (cr, MIN (x0, x1), MIN (y0, y1), fabs (x1 - x0), fabs (y1 - y0));
      set_color (cr, &c->t->foreground, c->t->high_contrast ? 0.14 : 0.07);
      cairo_fill (cr);
      cairo_restore (cr);
      if (a->label && a->label[0] && fabs (x1 - x0) > 20)
        {
          double tw, th;
          Rect r;

          text_set_full (c, a->label, FALSE, 0.82, FALSE, MAX (fabs (x1 - x0) - 8, 30), 2);
          text_size (c, &tw, &th);
          r = (Rect) { MIN (x0, x1) + 4, MIN (y0, y1) + 4, tw, th };
          text_draw (c, r.x, r.y, &c->t->foreground, 0.75);
          g_array_append_val (c->placed, r);
        }
    }
}

/* ------------------------------------------------------------------------- */
/* Layout and the whole draw                                                  */

static char *
category_markup (const ProcuraChart *chart,
                 guint               i)
{
  const char *reason = chart->category_reasons->pdata[i];
  g_autofree char *esc = g_markup_escape_text (chart->categories->pdata[i], -1);

  if (reason)
    {
      g_autofree char *esc_reason = g_markup_escape_text (reason, -1);
      return g_strdup_printf ("<s>%s</s>%s<small>%s</small>", esc, esc_reason[0] ? "\n" : "",
                              esc_reason);
    }
  return g_steal_pointer (&esc);
}

static gboolean
chart_has_data (const ProcuraChart *chart)
{
  gboolean category = procura_chart_is_category (chart);

  if (category && chart->categories->len == 0)
    return FALSE;
  for (guint i = 0; i < chart->series->len; i++)
    {
      const ProcuraChartSeries *s = chart->series->pdata[i];

      if (category != series_is_bar (s))
        continue;
      if (isfinite (s->y_min) && (category || isfinite (s->x_min)))
        return TRUE;
    }
  return FALSE;
}

static double
max_tick_label_width (Ctx                *c,
                      const ProcuraTicks *ticks,
                      ProcuraChartUnit    unit,
                      double             *height)
{
  double mw = 0, mh = 0;

  for (guint i = 0; i < ticks->n; i++)
    {
      g_autofree char *label = NULL;
      double w, h;

      if (!ticks->major[i])
        continue;
      label = procura_chart_tick_text (c->chart, ticks->value[i], unit, ticks);
      text_set (c, label, 0.85, FALSE);
      text_size (c, &w, &h);
      mw = MAX (mw, w);
      mh = MAX (mh, h);
    }
  if (height)
    *height = mh;
  return mw;
}

static void
draw_value_ticks (Ctx                *c,
                  const ProcuraTicks *ticks,
                  const Map          *m,
                  ProcuraChartUnit    unit,
                  gboolean            along_x)
{
  cairo_t *cr = c->cr;
  double last_end = -INFINITY;

  for (guint i = 0; i < ticks->n; i++)
    {
      double p = map_value (m, ticks->value[i]);
      double rp = round (p) + 0.5;

      if (along_x ? (p < c->px - 0.5 || p > c->px + c->pw + 0.5)
                  : (p < c->py - 0.5 || p > c->py + c->ph + 0.5))
        continue;
      cairo_save (cr);
      cairo_set_line_width (cr, 1);
      if (ticks->major[i])
        set_color (cr, &c->t->grid, 1);
      else
        set_color (cr, &c->t->grid, 0.45);
      if (along_x)
        {
          cairo_move_to (cr, rp, c->py);
          cairo_line_to (cr, rp, c->py + c->ph);
        }
      else
        {
          cairo_move_to (cr, c->px, rp);
          cairo_line_to (cr, c->px + c->pw, rp);
        }
      cairo_stroke (cr);
      /* tick mark */
      set_color (cr, &c->t->foreground, 0.6);
      if (along_x)
        {
          cairo_move_to (cr, rp, c->py + c->ph);
          cairo_line_to (cr, rp, c->py + c->ph + (ticks->major[i] ? 5 : 3));
        }
      else
        {
          cairo_move_to (cr, c->px, rp);
          cairo_line_to (cr, c->px - (ticks->major[i] ? 5 : 3), rp);
        }
      cairo_stroke (cr);
      cairo_restore (cr);

      if (ticks->major[i])
        {
          g_autofree char *label = procura_chart_tick_text (c->chart, ticks->value[i], unit, ticks);
          double w, h;

          text_set (c, label, 0.85, FALSE);
          text_size (c, &w, &h);
          if (along_x)
            {
              double x = p - w / 2;

              x = MIN (x, c->w - w - 2);
              x = MAX (x, 2);
              if (x < last_end + 4)
                continue;   /* never overlap labels */
              text_draw (c, x, c->py + c->ph + 7, &c->t->foreground, 0.8);
              last_end = x + w;
            }
          else
            text_draw (c, c->px - 8 - w, p - h / 2, &c->t->foreground, 0.8);
        }
    }
}

static int
x_tick_target (Ctx                    *c,
               const ProcuraChartAxis *axis,
               double                  lo,
               double                  hi,
               double                  width)
{
  int target = MAX (2, (int) (width / (c->fs * 6)));

  /* shrink until the widest label fits its share */
  for (int round_ = 0; round_ < 6 && target > 2; round_++)
    {
      ProcuraTicks t;
      double mw;
      guint majors = 0;

      axis_ticks (axis, lo, hi, FALSE, target, &t);
      for (guint i = 0; i < t.n; i++)
        majors += t.major[i];
      mw = max_tick_label_width (c, &t, axis->unit, NULL);
      if (majors <= 1 || (mw + c->fs * 1.2) * majors <= width)
        break;
      target = MAX (2, (int) (target * 0.7));
    }
  return target;
}

static void
draw_message (Ctx        *c,
              const char *message,
              double      top)
{
  double tw, th, area_h = c->h - top - c->pad;

  text_set_full (c, message, FALSE, 1.1, FALSE, c->w * 0.8, 4);
  pango_layout_set_alignment (c->pl, PANGO_ALIGN_CENTER);
  text_size (c, &tw, &th);
  text_draw (c, (c->w - c->w * 0.8) / 2, top + MAX (0, (area_h - th) / 2), &c->t->foreground, 0.7);
}

void
procura_chart_draw (ProcuraChart            *chart,
                    cairo_t                 *cr,
                    double                   width,
                    double                   height,
                    const ProcuraChartTheme *theme)
{
  Ctx c = { 0 };
  cairo_font_options_t *fo;
  PangoContext *pctx;
  double top, bottom, left, right;
  GArray *entries = NULL;
  double legend_w = 0, legend_h = 0;
  gboolean has_data;
  const ProcuraChartAxis *ax = &chart->axis[PROCURA_AXIS_X], *ay = &chart->axis[PROCURA_AXIS_Y];
  double dx = 1, dy = 0;

  g_return_if_fail (chart != NULL && cr != NULL);
  if (theme == NULL)
    theme = procura_chart_theme_light ();
  chart->layout.valid = FALSE;
  if (width < 20 || height < 20)
    return;

  c.chart = chart;
  c.cr = cr;
  c.t = theme;
  c.w = width;
  c.h = height;
  c.fs = theme->font_size > 0 ? theme->font_size : 13;
  /* small renders get smaller text, never below 9 px */
  c.fs = MAX (9, MIN (c.fs, MIN (width / 38, height / 22)));
  c.pad = round (c.fs * 0.9);
  c.lw = (theme->line_width > 0 ? theme->line_width : 2) * (theme->high_contrast ? 1.2 : 1);
  c.placed = g_array_new (FALSE, FALSE, sizeof (Rect));
  cairo_user_to_device_distance (cr, &dx, &dy);
  c.device_scale = CLAMP (hypot (dx, dy), 0.25, 8);

  cairo_save (cr);
  c.pl = pango_cairo_create_layout (cr);
  pctx = pango_layout_get_context (c.pl);
  fo = cairo_font_options_create ();
  cairo_font_options_set_hint_metrics (fo, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (fo, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_antialias (fo, CAIRO_ANTIALIAS_GRAY);
  pango_cairo_context_set_font_options (pctx, fo);
  cairo_font_options_destroy (fo);
  pango_layout_context_changed (c.pl);

  if (theme->draw_background)
    {
      cairo_rectangle (cr, 0, 0, width, height);
      set_color (cr, &theme->background, 1);
      cairo_fill (cr);
    }

  /* Title and subtitle */
  top = c.pad;
  if (chart->title && chart->title[0])
    {
      double th;

      text_set_full (&c, chart->title, FALSE, 1.25, TRUE, width - 2 * c.pad, 2);
      text_size (&c, NULL, &th);
      text_draw (&c, c.pad, top, &theme->foreground, 1);
      top += th + 2;
    }
  if (chart->subtitle && chart->subtitle[0])
    {
      double th;

      text_set_full (&c, chart->subtitle, FALSE, 0.92, FALSE, width - 2 * c.pad, 2);
      text_size (&c, NULL, &th);
      text_draw (&c, c.pad, top, &theme->foreground, 0.7);
      top += th;
    }
  top += c.pad * 0.8;

  has_data = chart_has_data (chart);
  if (!has_data)
    {
      draw_message (&c, chart->message ? chart->message : _("No data"), top);
      goto out;
    }

  c.category = procura_chart_is_category (chart);
  c.horizontal = c.category && chart->orientation == PROCURA_ORIENTATION_HORIZONTAL;
  c.n_cat = chart->categories->len;

  bottom = height - c.pad;
  left = c.pad;
  right = width - c.pad;

  /* Legend */
  if (chart->legend != PROCURA_LEGEND_NONE)
    {
      entries = legend_entries (&c);
      if (entries->len == 0 || (entries->len == 1 && !c.category && chart->series->len == 1))
        g_clear_pointer (&entries, legend_entries_free);
    }
  if (entries)
    {
      if (chart->legend == PROCURA_LEGEND_RIGHT)
        {
          legend_flow (&c, entries, 0, 0, width * 0.3, TRUE, FALSE, &legend_w, &legend_h);
          legend_w = MIN (legend_w, width * 0.35);
          right -= legend_w + c.pad;
        }
      else if (chart->legend == PROCURA_LEGEND_BOTTOM)
        {
          legend_flow (&c, entries, 0, 0, width - 2 * c.pad, FALSE, FALSE, &legend_w, &legend_h);
          bottom -= legend_h + c.pad * 0.8;
        }
      else
        legend_flow (&c, entries, 0, 0, width * 0.45, TRUE, FALSE, &legend_w, &legend_h);
    }

  /* x axis title */
  {
    const char *xlabel = c.horizontal ? ay->label : ax->label;

    if (xlabel && xlabel[0])
      {
        double th;

        text_set (&c, xlabel, 0.92, FALSE);
        text_size (&c, NULL, &th);
        bottom -= th + 4;
      }
  }
  /* y axis title (rotated) */
  {
    const char *ylabel = c.horizontal ? ax->label : ay->label;

    if (ylabel && ylabel[0])
      {
        double th;

        text_set (&c, ylabel, 0.92, FALSE);
        text_size (&c, NULL, &th);
        left += th + 6;
      }
  }

  if (!c.category)
    {
      double xlo, xhi, ylo, yhi, tick_h, yw;
      int target;

      xy_range (chart, PROCURA_AXIS_X, &xlo, &xhi);
      xy_range (chart, PROCURA_AXIS_Y, &ylo, &yhi);
      /* bottom: x tick labels */
      text_set (&c, "0", 0.85, FALSE);
      text_size (&c, NULL, &tick_h);
      bottom -= tick_h + 9;
      target = MAX (2, (int) ((bottom - top) / (c.fs * 3.2)));
      axis_ticks (ay, ylo, yhi, FALSE, target, &c.yt);
      yw = max_tick_label_width (&c, &c.yt, ay->unit, NULL);
      left += yw + 10;
      right -= c.fs * 1.2;   /* room for the last x label's overhang */
      c.px = left;
      c.py = top;
      c.pw = MAX (right - left, 10);
      c.ph = MAX (bottom - top, 10);
      axis_ticks (ax, xlo, xhi, FALSE, x_tick_target (&c, ax, xlo, xhi, c.pw), &c.xt);
      c.mx = (Map) { c.xt.lo, c.xt.hi, ax->scale == PROCURA_SCALE_LOG, c.px, c.px + c.pw };
      c.my = (Map) { c.yt.lo, c.yt.hi, ay->scale == PROCURA_SCALE_LOG, c.py + c.ph, c.py };
    }
  else
    {
      double vlo, vhi, tick_h, cat_w = 0;
      gboolean log = ay->scale == PROCURA_SCALE_LOG;
      gboolean from_zero;

      category_value_range (chart, &vlo, &vhi, &from_zero);
      from_zero = from_zero && !log;
      for (guint i = 0; i < c.n_cat; i++)
        {
          g_autofree char *markup = category_markup (chart, i);
          double w;

          text_set_full (&c, markup, TRUE, 0.88, FALSE, -1, 0);
          text_size (&c, &w, NULL);
          cat_w = MAX (cat_w, w);
        }
      text_set (&c, "0", 0.85, FALSE);
      text_size (&c, NULL, &tick_h);
      if (c.horizontal)
        {
          double label_w = MIN (cat_w, width * 0.3) + 10;
          /* struck categories carry their reason on a second line */
          left += label_w;
          bottom -= tick_h + 9;
          right -= c.fs * 1.2;
          if (chart->bar_totals)
            right -= c.fs * 3.5;
          c.px = left;
          c.py = top;
          c.pw = MAX (right - left, 10);
          c.ph = MAX (bottom - top, 10);
          axis_ticks (ay, vlo, vhi, from_zero, x_tick_target (&c, ay, from_zero ? MIN (vlo, 0) : vlo, vhi, c.pw), &c.yt);
          c.xt = c.yt;
          c.mx = (Map) { c.yt.lo, c.yt.hi, log, c.px, c.px + c.pw };
          c.my = (Map) { c.n_cat - 0.5, -0.5, FALSE, c.py + c.ph, c.py };
        }
      else
        {
          double yw, line_h;
          int target;

          text_set (&c, "Ag", 0.88, FALSE);
          text_size (&c, NULL, &line_h);
          bottom -= line_h * 2 + 8;
          if (chart->bar_totals)
            top += c.fs * 1.2;
          target = MAX (2, (int) ((bottom - top) / (c.fs * 3.2)));
          axis_ticks (ay, vlo, vhi, from_zero, target, &c.yt);
          yw = max_tick_label_width (&c, &c.yt, ay->unit, NULL);
          left += yw + 10;
          c.px = left;
          c.py = top;
          c.pw = MAX (right - left, 10);
          c.ph = MAX (bottom - top, 10);
          c.mx = (Map) { -0.5, c.n_cat - 0.5, FALSE, c.px, c.px + c.pw };
          c.my = (Map) { c.yt.lo, c.yt.hi, log, c.py + c.ph, c.py };
        }
    }

  /* Remember the layout for lookups */
  chart->layout = (ProcuraChartLayout) {
    c.px, c.py, c.pw, c.ph, c.mx.lo, c.mx.hi, c.my.lo, c.my.hi, c.mx.log, c.my.log, TRUE
  };

  /* Grid and ticks */
  if (!c.category)
    {
      draw_value_ticks (&c, &c.xt, &c.mx, ax->unit, TRUE);
      draw_value_ticks (&c, &c.yt, &c.my, ay->unit, FALSE);
    }
  else if (c.horizontal)
    draw_value_ticks (&c, &c.yt, &c.mx, ay->unit, TRUE);
  else
    draw_value_ticks (&c, &c.yt, &c.my, ay->unit, FALSE);

  /* Legend inside the plot claims its corner before labels are placed */
  if (entries && chart->legend >= PROCURA_LEGEND_TOP_LEFT)
    {
      double lx = chart->legend == PROCURA_LEGEND_TOP_LEFT || chart->legend == PROCURA_LEGEND_BOTTOM_LEFT
                  ? c.px + 8 : c.px + c.pw - legend_w - 16;
      double ly = chart->legend == PROCURA_LEGEND_TOP_LEFT || chart->legend == PROCURA_LEGEND_TOP_RIGHT
                  ? c.py + 8 : c.py + c.ph - legend_h - 16;

      c.legend_rect = (Rect) { lx, ly, legend_w + 8, legend_h + 8 };
      g_array_append_val (c.placed, c.legend_rect);
    }

  draw_shaded (&c);

  /* Series, clipped to the plot */
  cairo_save (cr);
  cairo_rectangle (cr, c.px - 1, c.py - 1, c.pw + 2, c.ph + 2);
  cairo_clip (cr);
  if (c.category)
    draw_category_series (&c, FALSE);
  else
    {
      /* bands and areas under lines, scatter on top */
      static const ProcuraSeriesKind order[] = {
        PROCURA_SERIES_BAND, PROCURA_SERIES_AREA, PROCURA_SERIES_STEP, PROCURA_SERIES_LINE,
        PROCURA_SERIES_ERRORBAR, PROCURA_SERIES_SCATTER,
      };
      for (guint k = 0; k < G_N_ELEMENTS (order); k++)
        for (guint i = 0; i < chart->series->len; i++)
          {
            ProcuraChartSeries *s = chart->series->pdata[i];

            /* struck-out series first, so the live ones stay on top */
            if (s->kind == order[k] && s->struck_out && !procura_chart_series_is_hidden (chart, s))
              draw_xy_series (&c, s, i);
          }
      for (guint k = 0; k < G_N_ELEMENTS (order); k++)
        for (guint i = 0; i < chart->series->len; i++)
          {
            ProcuraChartSeries *s = chart->series->pdata[i];

            if (s->kind == order[k] && !s->struck_out && !procura_chart_series_is_hidden (chart, s))
              draw_xy_series (&c, s, i);
          }
    }
  cairo_restore (cr);
  if (c.category)
    draw_category_series (&c, TRUE);

  /* Axes lines */
  cairo_save (cr);
  cairo_set_line_width (cr, 1);
  set_color (cr, &theme->foreground, 0.55);
  cairo_move_to (cr, round (c.px) + 0.5, c.py);
  cairo_line_to (cr, round (c.px) + 0.5, c.py + c.ph + 0.5);
  cairo_line_to (cr, c.px + c.pw, c.py + c.ph + 0.5);
  cairo_stroke (cr);
  cairo_restore (cr);

  /* Category labels */
  if (c.category)
    {
      double slot = slot_size (&c);

      for (guint i = 0; i < c.n_cat; i++)
        {
          const char *reason = chart->category_reasons->pdata[i];
          g_autofree char *markup = category_markup (chart, i);
          double tw, th;

          if (c.horizontal)
            {
              double maxw = c.px - 10 - c.pad + 1;
              double cy = map_value (&c.my, i);

              text_set_full (&c, markup, TRUE, 0.88, FALSE, maxw, MAX (1, (int) (slot / (c.fs * 1.2))));
              pango_layout_set_alignment (c.pl, PANGO_ALIGN_RIGHT);
              text_size (&c, &tw, &th);
              text_draw (&c, c.px - 10 - maxw, cy - th / 2, &theme->foreground, reason ? 0.8 : 0.95);
            }
          else
            {
              double cx = map_value (&c.mx, i);

              text_set_full (&c, markup, TRUE, 0.88, FALSE, MAX (slot - 6, 20), 2);
              pango_layout_set_alignment (c.pl, PANGO_ALIGN_CENTER);
              text_size (&c, &tw, &th);
              text_draw (&c, cx - MAX (slot - 6, 20) / 2, c.py + c.ph + 6, &theme->foreground,
                         reason ? 0.8 : 0.95);
            }
        }
    }

  /* Axis titles */
  {
    const char *xlabel = c.horizontal ? ay->label : ax->label;
    const char *ylabel = c.horizontal ? ax->label : ay->label;

    if (xlabel && xlabel[0])
      {
        double tw, th, y;

        text_set (&c, xlabel, 0.92, FALSE);
        text_size (&c, &tw, &th);
        y = (entries && chart->legend == PROCURA_LEGEND_BOTTOM) ? height - c.pad - legend_h - c.pad * 0.8 - th
                                                               : height - c.pad - th;
        text_draw (&c, c.px + (c.pw - tw) / 2, y, &theme->foreground, 0.9);
      }
    if (ylabel && ylabel[0])
      {
        double tw, th;

        text_set (&c, ylabel, 0.92, FALSE);
        text_size (&c, &tw, &th);
        cairo_save (cr);
        cairo_translate (cr, c.pad, c.py + c.ph / 2 + MIN (tw, c.ph) / 2);
        cairo_rotate (cr, -G_PI / 2);
        if (tw > c.ph)
          {
            text_set_full (&c, ylabel, FALSE, 0.92, FALSE, c.ph, 1);
            text_size (&c, &tw, &th);
          }
        text_draw (&c, 0, 0, &theme->foreground, 0.9);
        cairo_restore (cr);
      }
  }

  draw_annotations (&c);

  /* Legend */
  if (entries)
    {
      if (chart->legend == PROCURA_LEGEND_BOTTOM)
        legend_flow (&c, entries, c.pad, height - c.pad - legend_h, width - 2 * c.pad, FALSE, TRUE, NULL, NULL);
      else if (chart->legend == PROCURA_LEGEND_RIGHT)
        legend_flow (&c, entries, width - c.pad - legend_w, c.py, legend_w, TRUE, TRUE, NULL, NULL);
      else
        {
          cairo_save (cr);
          cairo_rectangle (cr, c.legend_rect.x, c.legend_rect.y, c.legend_rect.w, c.legend_rect.h);
          set_color (cr, &theme->background, 0.88);
          cairo_fill_preserve (cr);
          set_color (cr, &theme->grid, 1);
          cairo_set_line_width (cr, 1);
          cairo_stroke (cr);
          cairo_restore (cr);
          legend_flow (&c, entries, c.legend_rect.x + 4, c.legend_rect.y + 4, legend_w, TRUE, TRUE, NULL, NULL);
        }
      legend_entries_free (entries);
    }

out:
  g_object_unref (c.pl);
  g_array_unref (c.placed);
  cairo_restore (cr);
}

/* Mapping with the last layout, for the query helpers */
gboolean
procura_chart_data_to_pixel (const ProcuraChart *chart,
                             double              x,
                             double              y,
                             double             *px,
                             double             *py)
{
  const ProcuraChartLayout *l = &chart->layout;
  Map mx, my;

  if (!l->valid)
    return FALSE;
  mx = (Map) { l->x_lo, l->x_hi, l->x_log, l->x, l->x + l->width };
  my = (Map) { l->y_lo, l->y_hi, l->y_log, l->y + l->height, l->y };
  if (px)
    *px = map_value (&mx, x);
  if (py)
    *py = map_value (&my, y);
  return TRUE;
}

gboolean
procura_chart_pixel_to_data (const ProcuraChart *chart,
                             double              px,
                             double              py,
                             double             *x,
                             double             *y)
{
  const ProcuraChartLayout *l = &chart->layout;
  Map mx, my;

  if (!l->valid)
    return FALSE;
  mx = (Map) { l->x_lo, l->x_hi, l->x_log, l->x, l->x + l->width };
  my = (Map) { l->y_lo, l->y_hi, l->y_log, l->y + l->height, l->y };
  if (x)
    *x = unmap_value (&mx, px);
  if (y)
    *y = unmap_value (&my, py);
  return TRUE;
}
