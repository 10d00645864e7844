/* procura-chart-query.c: nearest point, keyboard steps, summary and data table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "procura-chart.h"
#include "procura-chart-private.h"

static gboolean
point_like (const ProcuraChartSeries *s)
{
  return s->kind == PROCURA_SERIES_LINE || s->kind == PROCURA_SERIES_STEP
         || s->kind == PROCURA_SERIES_SCATTER || s->kind == PROCURA_SERIES_ERRORBAR
         || (s->kind == PROCURA_SERIES_BAND && s->y != NULL) || s->kind == PROCURA_SERIES_AREA;
}

static gboolean
is_bar (const ProcuraChartSeries *s)
{
  return s->kind == PROCURA_SERIES_BAR || s->kind == PROCURA_SERIES_STACKED_BAR
         || s->kind == PROCURA_SERIES_BOX;
}

static double
sx (const ProcuraChartSeries *s,
    gsize                     i)
{
  return s->x ? s->x[i] : (double) i;
}

/* First index with x >= v in an ascending series */
static gsize
lower_bound (const ProcuraChartSeries *s,
             double                    v)
{
  gsize lo = 0, hi = s->n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (sx (s, mid) < v)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gboolean
procura_chart_nearest_point (const ProcuraChart       *chart,
                             const ProcuraChartLayout *layout,
                             double                    px,
                             double                    py,
                             double                    max_distance,
                             guint                    *series,
                             gsize                    *index)
{
  const ProcuraChartPlot *l;
  double best = max_distance * max_distance;
  gboolean found = FALSE;
  guint best_s = 0;
  gsize best_i = 0;

  g_return_val_if_fail (chart != NULL && layout != NULL, FALSE);
  /* only the geometry this spec was drawn with */
  l = &layout->plot;
  if (!l->valid || layout->chart_id != chart->id)
    return FALSE;

  if (procura_chart_is_category (chart))
    {
      /* the category under the pointer, and the bar series nearest along the value axis */
      gboolean horizontal = chart->orientation == PROCURA_ORIENTATION_HORIZONTAL;
      double cx, cy, cat_f;
      long cat;
      double best_d = INFINITY;

      if (!procura_chart_pixel_to_data (layout, px, py, &cx, &cy))
        return FALSE;
      cat_f = horizontal ? cy : cx;
      cat = lround (cat_f);
      if (cat < 0 || cat >= (long) chart->categories->len || fabs (cat_f - cat) > 0.5)
        return FALSE;
      if (px < l->x - max_distance || px > l->x + l->width + max_distance
          || py < l->y - max_distance || py > l->y + l->height + max_distance)
        return FALSE;
      for (guint i = 0; i < chart->series->len; i++)
        {
          const ProcuraChartSeries *s = chart->series->pdata[i];
          double v, p, q;

          if (!is_bar (s) || (gsize) cat >= s->n || !isfinite (s->y[cat])
              || procura_chart_series_is_hidden (chart, layout, s))
            continue;
          v = s->y[cat];
          if (horizontal)
            procura_chart_data_to_pixel (layout, v, 0, &p, NULL), q = px;
          else
            procura_chart_data_to_pixel (layout, 0, v, NULL, &p), q = py;
          if (fabs (p - q) < best_d)
            {
              best_d = fabs (p - q);
              best_s = i;
              found = TRUE;
            }
        }
      if (found)
        {
          *series = best_s;
          *index = (gsize) cat;
        }
      return found;
    }

  for (guint k = 0; k < chart->series->len; k++)
    {
      const ProcuraChartSeries *s = chart->series->pdata[k];
      gsize a = 0, b = s->n;

      if (!point_like (s) || s->y == NULL || procura_chart_series_is_hidden (chart, layout, s))
        continue;
      if (s->x_sorted && s->n > 64)
        {
          double x0, x1;

          procura_chart_pixel_to_data (layout, px - max_distance, py, &x0, NULL);
          procura_chart_pixel_to_data (layout, px + max_distance, py, &x1, NULL);
          a = lower_bound (s, MIN (x0, x1));
          b = MIN (s->n, lower_bound (s, MAX (x0, x1)) + 1);
        }
      for (gsize i = a; i < b; i++)
        {
          double ppx, ppy, d;

          if (!isfinite (s->y[i]) || !isfinite (sx (s, i)))
            continue;
          procura_chart_data_to_pixel (layout, sx (s, i), s->y[i], &ppx, &ppy);
          d = (ppx - px) * (ppx - px) + (ppy - py) * (ppy - py);
          if (d <= best)
            {
              best = d;
              best_s = k;
              best_i = i;
              found = TRUE;
            }
        }
    }
  if (found)
    {
      *series = best_s;
      *index = best_i;
    }
  return found;
}

static gboolean
navigable (const ProcuraChart       *chart,
           const ProcuraChartLayout *layout,
           const ProcuraChartSeries *s)
{
  return (point_like (s) || is_bar (s)) && s->n > 0 && s->y != NULL
         && !procura_chart_series_is_hidden (chart, layout, s);
}

gboolean
procura_chart_step_point (const ProcuraChart       *chart,
                          const ProcuraChartLayout *layout,
                          guint                    *series,
                          gsize                    *index,
                          int                       delta,
                          int                       delta_series)
{
  guint n = chart->series->len;
  const ProcuraChartSeries *s;
  guint si = *series;
  gboolean any = FALSE;

  for (guint i = 0; i < n; i++)
    any |= navigable (chart, layout, chart->series->pdata[i]);
  if (!any)
    return FALSE;
  if (si >= n || !navigable (chart, layout, chart->series->pdata[si]))
    {
      si = 0;
      while (!navigable (chart, layout, chart->series->pdata[si]))
        si++;
      *series = si;
      *index = 0;
    }
  if (delta_series != 0)
    {
      const ProcuraChartSeries *from = chart->series->pdata[si];
      double x = *index < from->n ? sx (from, *index) : 0;
      int dir = delta_series > 0 ? 1 : -1;
      guint next = si;

      for (guint tries = 0; tries < n; tries++)
        {
          next = (next + n + dir) % n;
          if (navigable (chart, layout, chart->series->pdata[next]))
            break;
        }
      s = chart->series->pdata[next];
      if (is_bar (s) || !s->x_sorted)
        *index = MIN (*index, s->n - 1);
      else
        {
          gsize lb = lower_bound (s, x);

          if (lb >= s->n)
            lb = s->n - 1;
          else if (lb > 0 && fabs (sx (s, lb - 1) - x) <= fabs (sx (s, lb) - x))
            lb--;
          *index = lb;
        }
      *series = next;
    }
  s = chart->series->pdata[*series];
  if (delta != 0)
    {
      gint64 ni = (gint64) *index + delta;

      *index = (gsize) CLAMP (ni, 0, (gint64) s->n - 1);
    }
  if (*index >= s->n)
    *index = s->n - 1;
  return TRUE;
}

char *
procura_chart_describe_point (const ProcuraChart *chart,
                              guint               series,
                              gsize               index)
{
  const ProcuraChartSeries *s;
  g_autofree char *y = NULL;

  if (series >= chart->series->len)
    return NULL;
  s = chart->series->pdata[series];
  if (index >= s->n || s->y == NULL)
    return NULL;
  y = procura_chart_value_text (chart, s->y[index], chart->axis[PROCURA_AXIS_Y].unit);
  if (is_bar (s))
    {
      const char *cat = index < chart->categories->len ? chart->categories->pdata[index] : "";
      if (s->name && s->name[0])
        return g_strdup_printf ("%s, %s: %s", cat, s->name, y);
      return g_strdup_printf ("%s: %s", cat, y);
    }
  else
    {
      g_autofree char *x = procura_chart_value_text (chart, sx (s, index), chart->axis[PROCURA_AXIS_X].unit);
      GString *out = g_string_new (NULL);

      g_string_append_printf (out, "%s: %s, %s", s->name ? s->name : "", x, y);
      if (s->y_low && s->y_high && isfinite (s->y_low[index]) && isfinite (s->y_high[index]))
        {
          g_autofree char *lo = procura_chart_value_text (chart, s->y_low[index], chart->axis[PROCURA_AXIS_Y].unit);
          g_autofree char *hi = procura_chart_value_text (chart, s->y_high[index], chart->axis[PROCURA_AXIS_Y].unit);
          g_string_append_printf (out, " (%s to %s)", lo, hi);
        }
      if (s->estimate)
        g_string_append (out, _(", estimate"));
      if (s->struck_out)
        g_string_append_printf (out, _(", struck out%s%s"), s->reason ? ": " : "", s->reason ? s->reason : "");
      return g_string_free (out, FALSE);
    }
}

/* ------------------------------------------------------------------------- */
/* Summary                                                                    */

static const char *
kind_name (ProcuraSeriesKind kind)
{
  switch (kind)
    {
    case PROCURA_SERIES_LINE: return _("line");
    case PROCURA_SERIES_STEP: return _("step");
    case PROCURA_SERIES_SCATTER: return _("scatter");
    case PROCURA_SERIES_BAND: return _("band");
    case PROCURA_SERIES_ERRORBAR: return _("error bar");
    case PROCURA_SERIES_BAR: return _("bar");
    case PROCURA_SERIES_STACKED_BAR: return _("stacked bar");
    case PROCURA_SERIES_BOX: return _("box");
    case PROCURA_SERIES_AREA: return _("area");
    default: return _("data");
    }
}

static void
append_range (const ProcuraChart *chart,
              GString          *out,
              const char       *what,
              double            lo,
              double            hi,
              ProcuraChartUnit  unit)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  if (!isfinite (lo) || !isfinite (hi))
    return;
  a = procura_chart_value_text (chart, lo, unit);
  b = procura_chart_value_text (chart, hi, unit);
  if (g_str_equal (a, b))
    g_string_append_printf (out, "; %s %s", what, a);
  else
    /* TRANSLATORS: "; p99 TTFT from 120 ms to 1.4 s" */
    g_string_append_printf (out, _("; %s from %s to %s"), what, a, b);
}

char *
procura_chart_summary (const ProcuraChart *chart)
{
  GString *out = g_string_new (NULL);
  gboolean category = procura_chart_is_category (chart);
  const ProcuraChartAxis *ax = &chart->axis[PROCURA_AXIS_X], *ay = &chart->axis[PROCURA_AXIS_Y];
  ProcuraSeriesKind main_kind = PROCURA_SERIES_LINE;
  gboolean first_kind = TRUE, mixed = FALSE;
  guint n_named = 0;
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
  const char *what = chart->description ? chart->description : chart->title;

  for (guint i = 0; i < chart->series->len; i++)
    {
      const ProcuraChartSeries *s = chart->series->pdata[i];

      if (category != is_bar (s))
        continue;
      if (first_kind)
        main_kind = s->kind, first_kind = FALSE;
      else if (s->kind != main_kind && s->kind != PROCURA_SERIES_BAND)
        mixed = TRUE;
      if (s->in_legend && s->name)
        n_named++;
      if (isfinite (s->x_min))
        xlo = MIN (xlo, s->x_min), xhi = MAX (xhi, s->x_max);
      if (isfinite (s->y_min))
        ylo = MIN (ylo, s->y_min), yhi = MAX (yhi, s->y_max);
    }

  if (what && what[0])
    g_string_append_printf (out, "%s: ", what);

  if (first_kind || (category && chart->categories->len == 0))
    {
      g_string_append_printf (out, "%s", chart->message ? chart->message : _("no data"));
      return g_string_free (out, FALSE);
    }

  if (category)
    {
      guint n_cat = chart->categories->len;

      /* TRANSLATORS: "horizontal stacked bar chart of Cost for 3 categories (" */
      g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%s%s chart of %s for %u category (",
                                                "%s%s chart of %s for %u categories (", n_cat),
                              chart->orientation == PROCURA_ORIENTATION_HORIZONTAL ? _("horizontal ") : "",
                              kind_name (main_kind),
                              ay->label ? ay->label : _("values"), n_cat);
      for (guint i = 0; i < n_cat && i < 8; i++)
        g_string_append_printf (out, "%s%s", i ? ", " : "", (char *) chart->categories->pdata[i]);
      if (n_cat > 8)
        g_string_append_printf (out, _(" and %u more"), n_cat - 8);
      g_string_append (out, ")");
      if (chart->series->len > 1)
        {
          g_string_append_printf (out, main_kind == PROCURA_SERIES_STACKED_BAR ? _(" in %u parts (") : _(" in %u series ("),
                                  chart->series->len);
          for (guint i = 0, k = 0; i < chart->series->len && k < 8; i++)
            {
              const ProcuraChartSeries *s = chart->series->pdata[i];
              if (s->name)
                g_string_append_printf (out, "%s%s", k++ ? ", " : "", s->name);
            }
          g_string_append (out, ")");
        }
      if (main_kind == PROCURA_SERIES_STACKED_BAR)
        {
          /* the stacks' totals say more than the parts */
          double tlo = INFINITY, thi = -INFINITY;

          for (guint cat = 0; cat < n_cat; cat++)
            {
              double total = 0;
              gboolean any = FALSE;

              for (guint i = 0; i < chart->series->len; i++)
                {
                  const ProcuraChartSeries *s = chart->series->pdata[i];
                  if (s->kind == PROCURA_SERIES_STACKED_BAR && cat < s->n && s->y && isfinite (s->y[cat]))
                    total += s->y[cat], any = TRUE;
                }
              if (any)
                tlo = MIN (tlo, total), thi = MAX (thi, total);
            }
          append_range (chart, out, _("totals"), tlo, thi, ay->unit);
        }
      else
        append_range (chart, out, _("values"), ylo, yhi, ay->unit);
      for (guint i = 0; i < n_cat; i++)
        if (chart->category_reasons->pdata[i])
          {
            const char *reason = chart->category_reasons->pdata[i];
            g_string_append_printf (out, _("; %s struck out%s%s"), (char *) chart->categories->pdata[i],
                                    reason[0] ? ": " : "", reason);
          }
    }
  else
    {
      /* TRANSLATORS: "line chart of p99 TTFT against Request rate" */
      g_string_append_printf (out, _("%s chart of %s against %s"),
                              mixed ? _("line") : kind_name (main_kind),
                              ay->label ? ay->label : "y", ax->label ? ax->label : "x");
      if (n_named > 0)
        {
          guint k = 0;

          g_string_append_printf (out, _(" for %u series ("), n_named);
          for (guint i = 0; i < chart->series->len && k < 8; i++)
            {
              const ProcuraChartSeries *s = chart->series->pdata[i];

              if (!s->in_legend || !s->name)
                continue;
              g_string_append_printf (out, "%s%s%s%s", k++ ? ", " : "", s->name,
                                      s->estimate ? _(" (estimate)") : "",
                                      s->struck_out ? _(" (struck out)") : "");
            }
          if (n_named > 8)
            g_string_append_printf (out, _(" and %u more"), n_named - 8);
          g_string_append (out, ")");
        }
      if (ax->scale == PROCURA_SCALE_LOG || ay->scale == PROCURA_SCALE_LOG)
        g_string_append (out, ax->scale == ay->scale ? _(" on log-log axes") :
                         ax->scale == PROCURA_SCALE_LOG ? _(" on a log x axis") : _(" on a log y axis"));
      append_range (chart, out, ax->label ? ax->label : "x", xlo, xhi, ax->unit);
      append_range (chart, out, ay->label ? ay->label : "y", ylo, yhi, ay->unit);
      for (guint i = 0; i < chart->series->len; i++)
        {
          const ProcuraChartSeries *s = chart->series->pdata[i];
          if (s->struck_out && s->name)
            g_string_append_printf (out, _("; %s struck out%s%s"), s->name, s->reason ? ": " : "",
                                    s->reason ? s->reason : "");
        }
    }

  for (guint i = 0; i < chart->annots->len; i++)
    {
      const ProcuraAnnot *a = &g_array_index (chart->annots, ProcuraAnnot, i);

      if (a->label == NULL || a->label[0] == '\0')
        continue;
      switch (a->kind)
        {
        case PROCURA_ANNOT_HLINE:
        case PROCURA_ANNOT_VLINE:
        case PROCURA_ANNOT_MARKER:
        case PROCURA_ANNOT_CALLOUT:
        case PROCURA_ANNOT_LABEL:
          g_string_append_printf (out, "; %s", a->label);
          break;
        case PROCURA_ANNOT_SHADED:
        default:
          g_string_append_printf (out, _("; shaded: %s"), a->label);
          break;
        }
    }
  g_string_append (out, ".");
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------- */
/* Table                                                                      */

static char **
row_new (GPtrArray *cells)
{
  g_ptr_array_add (cells, NULL);
  return (char **) g_ptr_array_free (cells, FALSE);
}

GPtrArray *
procura_chart_table (const ProcuraChart *chart,
                     gsize               max_rows_per_series)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  const ProcuraChartAxis *ax = &chart->axis[PROCURA_AXIS_X], *ay = &chart->axis[PROCURA_AXIS_Y];

  if (procura_chart_is_category (chart))
    {
      GPtrArray *head = g_ptr_array_new ();

      g_ptr_array_add (head, g_strdup (ax->label ? ax->label : _("Category")));
      for (guint i = 0; i < chart->series->len; i++)
        {
          const ProcuraChartSeries *s = chart->series->pdata[i];
          if (is_bar (s))
            g_ptr_array_add (head, g_strdup (s->name ? s->name : ay->label ? ay->label : ""));
        }
      g_ptr_array_add (rows, row_new (head));
      for (guint cat = 0; cat < chart->categories->len; cat++)
        {
          GPtrArray *row = g_ptr_array_new ();
          const char *reason = chart->category_reasons->pdata[cat];

          if (reason)
            g_ptr_array_add (row, g_strdup_printf (_("%s (struck out%s%s)"), (char *) chart->categories->pdata[cat],
                                                   reason[0] ? ": " : "", reason));
          else
            g_ptr_array_add (row, g_strdup (chart->categories->pdata[cat]));
          for (guint i = 0; i < chart->series->len; i++)
            {
              const ProcuraChartSeries *s = chart->series->pdata[i];
              if (!is_bar (s))
                continue;
              g_ptr_array_add (row, cat < s->n && s->y ? procura_chart_value_text (chart, s->y[cat], ay->unit)
                                                        : g_strdup ("—"));
            }
          g_ptr_array_add (rows, row_new (row));
        }
      return rows;
    }

  {
    GPtrArray *head = g_ptr_array_new ();
    gboolean ranges = FALSE;

    for (guint i = 0; i < chart->series->len; i++)
      {
        const ProcuraChartSeries *s = chart->series->pdata[i];
        ranges |= s->y_low != NULL && s->y_high != NULL;
      }
    g_ptr_array_add (head, g_strdup (_("Series")));
    g_ptr_array_add (head, g_strdup (ax->label ? ax->label : "x"));
    g_ptr_array_add (head, g_strdup (ay->label ? ay->label : "y"));
    if (ranges)
      {
        g_ptr_array_add (head, g_strdup (_("Low")));
        g_ptr_array_add (head, g_strdup (_("High")));
      }
    g_ptr_array_add (rows, row_new (head));

    for (guint i = 0; i < chart->series->len; i++)
      {
        const ProcuraChartSeries *s = chart->series->pdata[i];
        gsize stride = 1;

        if (!s->y && !(s->y_low && s->y_high))
          continue;
        if (max_rows_per_series > 0 && s->n > max_rows_per_series)
          stride = (s->n + max_rows_per_series - 1) / max_rows_per_series;
        for (gsize k = 0; k < s->n; k += stride)
          {
            GPtrArray *row = g_ptr_array_new ();
            g_autofree char *name = NULL;

            name = g_strdup_printf ("%s%s", s->name ? s->name : "", s->struck_out ? _(" (struck out)") : "");
            g_ptr_array_add (row, g_steal_pointer (&name));
            g_ptr_array_add (row, procura_chart_value_text (chart, sx (s, k), ax->unit));
            g_ptr_array_add (row, s->y ? procura_chart_value_text (chart, s->y[k], ay->unit) : g_strdup ("—"));
            if (ranges)
              {
                g_ptr_array_add (row, s->y_low ? procura_chart_value_text (chart, s->y_low[k], ay->unit) : g_strdup ("—"));
                g_ptr_array_add (row, s->y_high ? procura_chart_value_text (chart, s->y_high[k], ay->unit) : g_strdup ("—"));
              }
            g_ptr_array_add (rows, row_new (row));
          }
      }
  }
  return rows;
}

guint
procura_chart_get_n_markers (const ProcuraChart *chart)
{
  guint n = 0;

  for (guint i = 0; i < chart->annots->len; i++)
    if (g_array_index (chart->annots, ProcuraAnnot, i).kind == PROCURA_ANNOT_MARKER)
      n++;
  return n;
}

void
procura_chart_get_marker (const ProcuraChart *chart,
                          guint               i,
                          double             *x,
                          double             *y,
                          const char        **label)
{
  for (guint k = 0; k < chart->annots->len; k++)
    {
      const ProcuraAnnot *a = &g_array_index (chart->annots, ProcuraAnnot, k);

      if (a->kind != PROCURA_ANNOT_MARKER)
        continue;
      if (i-- > 0)
        continue;
      if (x != NULL)
        *x = a->x;
      if (y != NULL)
        *y = a->y;
      if (label != NULL)
        *label = a->label;
      return;
    }
  g_return_if_reached ();
}
