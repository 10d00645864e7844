/* procura-chart-layout.c: where a chart's parts go, owned by the caller
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layout of one draw: the plot rectangle and the scales, the tick labels, and
 * every text box of the chart. Labels are placed with collision avoidance: moved
 * clear of the other texts, the marks, the bars and the lines; if that fails, moved
 * further with a leader line; if that fails too, dropped to the notes under the
 * legend with a number at their point.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <pango/pangocairo.h>

#include <glib/gi18n-lib.h>

#include "procura-chart.h"
#include "procura-chart-private.h"

typedef ProcuraChartMap  Map;
typedef ProcuraChartRect Rect;
typedef ProcuraChartCtx  Ctx;

#define SWATCH_W 30.0
#define MAX_NOTES 6

static inline double
map_value (const Map *m,
           double     v)
{
  return procura_chart_map_value (m, v);
}

/* ------------------------------------------------------------------------- */
/* The layout object                                                          */

static void
text_clear (gpointer data)
{
  ProcuraChartText *t = data;

  g_free (t->full);
  g_free (t->shown);
}

ProcuraChartLayout *
procura_chart_layout_new (void)
{
  ProcuraChartLayout *layout = g_new0 (ProcuraChartLayout, 1);

  layout->texts = g_array_new (FALSE, TRUE, sizeof (ProcuraChartText));
  g_array_set_clear_func (layout->texts, text_clear);
  layout->swatches = g_array_new (FALSE, TRUE, sizeof (ProcuraChartSwatch));
  layout->columns = g_array_new (FALSE, TRUE, sizeof (ProcuraChartColumns));
  layout->hidden = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return layout;
}

static void
columns_clear (ProcuraChartLayout *layout)
{
  for (guint i = 0; i < layout->columns->len; i++)
    g_free (g_array_index (layout->columns, ProcuraChartColumns, i).cols);
  g_array_set_size (layout->columns, 0);
}

void
procura_chart_layout_free (ProcuraChartLayout *layout)
{
  if (layout == NULL)
    return;
  columns_clear (layout);
  g_array_unref (layout->columns);
  g_array_unref (layout->texts);
  g_array_unref (layout->swatches);
  g_hash_table_unref (layout->hidden);
  g_free (layout);
}

void
procura_chart_layout_set_series_hidden (ProcuraChartLayout *layout,
                                        const char         *name,
                                        gboolean            hidden)
{
  g_return_if_fail (layout != NULL);
  g_return_if_fail (name != NULL);
  if (hidden)
    g_hash_table_add (layout->hidden, g_strdup (name));
  else
    g_hash_table_remove (layout->hidden, name);
}

gboolean
procura_chart_layout_get_series_hidden (const ProcuraChartLayout *layout,
                                        const char               *name)
{
  g_return_val_if_fail (layout != NULL, FALSE);
  return name != NULL && g_hash_table_contains (layout->hidden, name);
}

void
procura_chart_layout_copy_hidden (ProcuraChartLayout       *dest,
                                  const ProcuraChartLayout *src)
{
  GHashTableIter iter;
  gpointer name;

  g_return_if_fail (dest != NULL && src != NULL);
  if (dest == src)
    return;
  g_hash_table_remove_all (dest->hidden);
  g_hash_table_iter_init (&iter, src->hidden);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    g_hash_table_add (dest->hidden, g_strdup (name));
}

void
procura_chart_layout_set_reserved (ProcuraChartLayout *layout,
                                   double              x,
                                   double              y,
                                   double              width,
                                   double              height)
{
  g_return_if_fail (layout != NULL);
  layout->reserved = (Rect) { x, y, MAX (width, 0), MAX (height, 0) };
}

ProcuraChartPlot
procura_chart_layout_get_plot (const ProcuraChartLayout *layout)
{
  ProcuraChartPlot none = { 0 };

  g_return_val_if_fail (layout != NULL, none);
  return layout->plot;
}

guint
procura_chart_layout_get_n_texts (const ProcuraChartLayout *layout)
{
  g_return_val_if_fail (layout != NULL, 0);
  return layout->texts->len;
}

const ProcuraChartTextBox *
procura_chart_layout_get_text (const ProcuraChartLayout *layout,
                               guint                     i)
{
  g_return_val_if_fail (layout != NULL && i < layout->texts->len, NULL);
  return &g_array_index (layout->texts, ProcuraChartText, i).box;
}

const char *
procura_chart_layout_truncated_text_at (const ProcuraChartLayout *layout,
                                        double                    px,
                                        double                    py)
{
  g_return_val_if_fail (layout != NULL, NULL);
  for (guint i = 0; i < layout->texts->len; i++)
    {
      const ProcuraChartTextBox *b = &g_array_index (layout->texts, ProcuraChartText, i).box;

      if (b->truncated && px >= b->x && px <= b->x + b->width && py >= b->y && py <= b->y + b->height)
        return b->text;
    }
  return NULL;
}

const ProcuraColumn *
procura_chart_layout_columns (ProcuraChartLayout       *layout,
                              ProcuraChartSeries       *s,
                              guint                     cols,
                              double                    x0,
                              double                    x1,
                              gboolean                  log)
{
  ProcuraChartColumns *entry = NULL;

  for (guint i = 0; i < layout->columns->len && entry == NULL; i++)
    if (g_array_index (layout->columns, ProcuraChartColumns, i).series == s)
      entry = &g_array_index (layout->columns, ProcuraChartColumns, i);
  if (entry == NULL)
    {
      ProcuraChartColumns fresh = { s, NULL, 0, 0, 0, FALSE };

      g_array_append_val (layout->columns, fresh);
      entry = &g_array_index (layout->columns, ProcuraChartColumns, layout->columns->len - 1);
    }
  if (entry->cols == NULL || entry->n_cols != cols || entry->x0 != x0 || entry->x1 != x1
      || entry->log != log)
    {
      g_free (entry->cols);
      entry->cols = g_new (ProcuraColumn, cols);
      entry->n_cols = cols;
      entry->x0 = x0;
      entry->x1 = x1;
      entry->log = log;
      /* from the series's min/max pyramid, built once per data set */
      procura_chart_reduce_columns (&s->reduce, s->x, s->y, s->n, s->x_sorted, x0, x1, log, cols,
                                    entry->cols);
    }
  return entry->cols;
}

/* Forgets the last draw; the caches stay while the spec is the same. */
static void
layout_reset (ProcuraChartLayout *layout,
              const ProcuraChart *chart,
              double              width,
              double              height)
{
  if (layout->columns_chart_id != chart->id)
    {
      columns_clear (layout);
      layout->columns_chart_id = chart->id;
    }
  layout->chart_id = chart->id;
  layout->width = width;
  layout->height = height;
  layout->plot = (ProcuraChartPlot) { 0 };
  layout->category = FALSE;
  layout->horizontal = FALSE;
  layout->legend_boxed = FALSE;
  g_array_set_size (layout->texts, 0);
  g_array_set_size (layout->swatches, 0);
}

/* ------------------------------------------------------------------------- */
/* Scales                                                                     */

double
procura_chart_map_value (const ProcuraChartMap *m,
                         double                 v)
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

double
procura_chart_unmap_value (const ProcuraChartMap *m,
                           double                 p)
{
  double tl, th, t;

  if (m->p1 == m->p0)
    return m->lo;
  tl = m->log ? log10 (m->lo) : m->lo;
  th = m->log ? log10 (m->hi) : m->hi;
  t = tl + (p - m->p0) / (m->p1 - m->p0) * (th - tl);
  return m->log ? pow (10.0, t) : t;
}


/* Mapping with a layout, for the lookups */
gboolean
procura_chart_data_to_pixel (const ProcuraChartLayout *layout,
                             double                    x,
                             double                    y,
                             double                   *px,
                             double                   *py)
{
  const ProcuraChartPlot *l;
  Map mx, my;

  g_return_val_if_fail (layout != NULL, FALSE);
  l = &layout->plot;
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
procura_chart_pixel_to_data (const ProcuraChartLayout *layout,
                             double                    px,
                             double                    py,
                             double                   *x,
                             double                   *y)
{
  const ProcuraChartPlot *l;
  Map mx, my;

  g_return_val_if_fail (layout != NULL, FALSE);
  l = &layout->plot;
  if (!l->valid)
    return FALSE;
  mx = (Map) { l->x_lo, l->x_hi, l->x_log, l->x, l->x + l->width };
  my = (Map) { l->y_lo, l->y_hi, l->y_log, l->y + l->height, l->y };
  if (x)
    *x = procura_chart_unmap_value (&mx, px);
  if (y)
    *y = procura_chart_unmap_value (&my, py);
  return TRUE;
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

      if (procura_chart_series_is_bar (s))
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

          if (!procura_chart_series_is_bar (s) || cat >= s->n)
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

/* ------------------------------------------------------------------------- */
/* Text                                                                       */

void
procura_chart_text_set (Ctx        *c,
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

void
procura_chart_text_size (Ctx    *c,
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
text_set (Ctx        *c,
          const char *text,
          double      size_factor,
          gboolean    bold)
{
  procura_chart_text_set (c, text, FALSE, size_factor, bold, -1, 0);
}

static void
text_size (Ctx    *c,
           double *w,
           double *h)
{
  procura_chart_text_size (c, w, h);
}

/* The plain text of @shown (markup stripped). */
static char *
plain_text (const char *shown,
            gboolean    markup)
{
  char *text = NULL;

  if (!markup)
    return g_strdup (shown);
  if (!pango_parse_markup (shown, -1, 0, NULL, &text, NULL, NULL))
    return g_strdup (shown);
  return text;
}

/* Sets up a text as the Pango layout of the draw and measures it; the text is recorded
 * by text_commit() once placed. */
typedef struct {
  ProcuraChartText t;
  double           w, h;        /* of the text itself */
  double           off_x;       /* where the text starts inside its layout width */
} Pending;

static Pending
text_prepare (Ctx                  *c,
              ProcuraChartTextKind  kind,
              const char           *shown,
              gboolean              markup,
              double                size,
              gboolean              bold,
              double                max_width,
              int                   max_lines,
              PangoAlignment        align)
{
  Pending p;
  PangoRectangle logical;

  memset (&p, 0, sizeof p);
  procura_chart_text_set (c, shown, markup, size, bold, max_width, max_lines);
  pango_layout_set_alignment (c->pl, align);
  pango_layout_get_extents (c->pl, NULL, &logical);
  p.t.box.kind = kind;
  p.t.box.truncated = pango_layout_is_ellipsized (c->pl);
  p.t.shown = g_strdup (shown);
  p.t.full = plain_text (shown, markup);
  p.t.markup = markup;
  p.t.size = size;
  p.t.bold = bold;
  p.t.max_width = max_width;
  p.t.max_lines = max_lines;
  p.t.align = align;
  p.t.alpha = 1;
  p.w = logical.width / (double) PANGO_SCALE;
  p.h = logical.height / (double) PANGO_SCALE;
  /* with a width the layout aligns its lines itself */
  p.off_x = max_width > 0 ? logical.x / (double) PANGO_SCALE : 0;
  return p;
}

/* The box a prepared text covers with its top-left (of the layout) at (x, y). */
static Rect
text_box (const Pending *p,
          double         x,
          double         y,
          gboolean       halo)
{
  if (halo)
    return (Rect) { x + p->off_x - 3, y - 1, p->w + 6, p->h + 2 };
  return (Rect) { x + p->off_x, y, p->w, p->h };
}

static ProcuraChartText *
text_commit (Ctx      *c,
             Pending  *p,
             double    x,
             double    y,
             double    alpha,
             gboolean  halo)
{
  Rect r = text_box (p, x, y, halo);
  ProcuraChartText *t;

  p->t.tx = x;
  p->t.ty = y;
  p->t.alpha = alpha;
  p->t.box.opacity = alpha;
  p->t.halo = halo;
  p->t.box.x = r.x;
  p->t.box.y = r.y;
  p->t.box.width = r.w;
  p->t.box.height = r.h;
  g_array_append_val (c->l->texts, p->t);
  t = &g_array_index (c->l->texts, ProcuraChartText, c->l->texts->len - 1);
  t->box.text = t->full;
  memset (p, 0, sizeof *p);
  return t;
}

static void
text_discard (Pending *p)
{
  g_free (p->t.full);
  g_free (p->t.shown);
  memset (p, 0, sizeof *p);
}

/* ------------------------------------------------------------------------- */
/* What is taken                                                              */

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

/* The caller's reserved area in this draw's coordinates (w 0: none) */
static Rect
reserved_rect (const Ctx *c)
{
  Rect r = c->l->reserved;

  if (r.w <= 0 || r.h <= 0)
    return (Rect) { 0, 0, 0, 0 };
  if (r.x < 0)
    r.x = c->w + r.x;
  if (r.y < 0)
    r.y = c->h + r.y;
  return r;
}

static gboolean
hits_reserved (const Ctx  *c,
               const Rect *r)
{
  Rect res = reserved_rect (c);

  return res.w > 0 && rect_overlaps (r, &res);
}

static gboolean
hits_texts (const Ctx  *c,
            const Rect *r)
{
  for (guint i = 0; i < c->l->texts->len; i++)
    {
      const ProcuraChartTextBox *b = &g_array_index (c->l->texts, ProcuraChartText, i).box;
      Rect o = { b->x, b->y, b->width, b->height };

      if (rect_overlaps (r, &o))
        return TRUE;
    }
  return FALSE;
}

/* Does the segment (x0, y0)-(x1, y1) cross @r? (clipped against each edge in turn) */
static gboolean
segment_hits_rect (double      x0,
                   double      y0,
                   double      x1,
                   double      y1,
                   const Rect *r)
{
  double t0 = 0, t1 = 1, dx = x1 - x0, dy = y1 - y0;
  double p[4] = { -dx, dx, -dy, dy };
  double q[4] = { x0 - r->x, r->x + r->w - x0, y0 - r->y, r->y + r->h - y0 };

  for (int i = 0; i < 4; i++)
    {
      if (p[i] == 0)
        {
          if (q[i] < 0)
            return FALSE;
          continue;
        }
      {
        double t = q[i] / p[i];

        if (p[i] < 0)
          t0 = MAX (t0, t);
        else
          t1 = MIN (t1, t);
        if (t0 > t1)
          return FALSE;
      }
    }
  return TRUE;
}

/* Does @r lie over one of the drawn lines (of the series with few enough points)? */
static gboolean
hits_lines (const Ctx  *c,
            const Rect *r)
{
  const ProcuraChart *chart = c->chart;

  if (c->category)
    return FALSE;
  for (guint k = 0; k < chart->series->len; k++)
    {
      const ProcuraChartSeries *s = chart->series->pdata[k];
      gboolean pen = FALSE;
      double lx = 0, ly = 0;

      if (s->y == NULL || s->n > 4000 || procura_chart_series_is_hidden (chart, c->l, s)
          || !(s->kind == PROCURA_SERIES_LINE || s->kind == PROCURA_SERIES_STEP
               || s->kind == PROCURA_SERIES_AREA || s->kind == PROCURA_SERIES_BAND))
        continue;
      for (gsize i = 0; i < s->n; i++)
        {
          double x = s->x ? s->x[i] : (double) i, y = s->y[i], px, py;

          if (!isfinite (x) || !isfinite (y) || (c->mx.log && !(x > 0)) || (c->my.log && !(y > 0)))
            {
              pen = FALSE;
              continue;
            }
          px = map_value (&c->mx, x);
          py = map_value (&c->my, y);
          if (pen && segment_hits_rect (lx, ly, px, py, r))
            return TRUE;
          pen = TRUE;
          lx = px;
          ly = py;
        }
    }
  return FALSE;
}

typedef enum {
  FREE_OF_ALL = 0,          /* texts, marks, every bar, the lines */
  FREE_OF_OTHER_BARS,       /* texts, marks, other categories' bars, the lines */
  FREE_OF_TEXT,             /* texts, marks, other categories' bars */
} Strictness;

typedef ProcuraChartSoft Soft;

static gboolean
rect_free (const Ctx  *c,
           const Rect *r,
           Strictness  level,
           int         own_cat)
{
  if (hits_texts (c, r) || hits_reserved (c, r))
    return FALSE;
  for (guint i = 0; i < c->marks->len; i++)
    if (rect_overlaps (r, &g_array_index (c->marks, Rect, i)))
      return FALSE;
  for (guint i = 0; i < c->soft->len; i++)
    {
      const Soft *s = &g_array_index (c->soft, Soft, i);

      if (level != FREE_OF_ALL && s->cat == own_cat)
        continue;
      if (rect_overlaps (r, &s->r))
        return FALSE;
    }
  return level == FREE_OF_TEXT || !hits_lines (c, r);
}

/* Places a prepared label near (ax, ay) in the plot, clear of what is taken at
 * @level, in up to @rings rings of growing distance. */
static gboolean
find_place (Ctx           *c,
            const Pending *p,
            double         ax,
            double         ay,
            double         gap,
            guint          rings,
            Strictness     level,
            int            own_cat,
            double        *out_x,
            double        *out_y)
{
  static const double dirs[][2] = {
    { 1, -1 }, { -1, -1 }, { 1, 1 }, { -1, 1 }, { 1, 0 }, { -1, 0 }, { 0, -1 }, { 0, 1 },
  };
  double w = p->w, h = p->h;

  for (guint ring = 1; ring <= rings; ring++)
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
        r = text_box (p, x - p->off_x, y, TRUE);
        if (!rect_inside (&r, c->px, c->py, c->pw, c->ph) || !rect_free (c, &r, level, own_cat))
          continue;
        *out_x = x - p->off_x;
        *out_y = y;
        return TRUE;
      }
  return FALSE;
}

/* Move, then move further with a leader line, then drop: a dropped label goes to the
 * notes under the legend, and its number is set beside its point. */
static gboolean
place_annotation (Ctx      *c,
                  Pending  *p,
                  double    ax,
                  double    ay,
                  double    gap,
                  int       own_cat,
                  gboolean  leader,
                  gboolean  boxed)
{
  static const struct { Strictness level; guint rings; } tries[] = {
    { FREE_OF_ALL, 2 }, { FREE_OF_OTHER_BARS, 4 }, { FREE_OF_TEXT, 6 },
  };
  ProcuraChartText *t;
  double x, y;

  for (guint k = 0; k < G_N_ELEMENTS (tries); k++)
    if (find_place (c, p, ax, ay, gap, tries[k].rings, tries[k].level, own_cat, &x, &y))
      {
        t = text_commit (c, p, x, y, 1, TRUE);
        t->leader = leader;
        t->boxed = boxed;
        t->ax = ax;
        t->ay = ay;
        return TRUE;
      }

  /* dropped: a number here, the text in the notes */
  c->n_dropped++;
  if (c->n_dropped <= c->n_notes)
    {
      g_autofree char *number = g_strdup_printf ("%u", c->n_dropped);
      g_autofree char *note = g_strdup_printf ("%u  %s", c->n_dropped, p->t.full);
      Pending num = text_prepare (c, PROCURA_CHART_TEXT_NOTE_NUMBER, number, FALSE, 0.8, TRUE, -1, 0,
                                  PANGO_ALIGN_LEFT);
      Pending n = text_prepare (c, PROCURA_CHART_TEXT_NOTE, note, FALSE, 0.85, FALSE,
                                c->w - 2 * c->pad, 1, PANGO_ALIGN_LEFT);
      double nh = n.h;

      for (guint k = 0; k < G_N_ELEMENTS (tries); k++)
        if (find_place (c, &num, ax, ay, 5, tries[k].rings, tries[k].level, own_cat, &x, &y))
          {
            text_commit (c, &num, x, y, 1, TRUE);
            break;
          }
      text_discard (&num);
      text_commit (c, &n, c->pad, c->h - c->pad - (c->n_notes - c->n_dropped + 1) * (nh + 2), 0.9, FALSE);
    }
  text_discard (p);
  return FALSE;
}

/* ------------------------------------------------------------------------- */
/* Legend                                                                     */

typedef struct {
  guint  series;
  char  *markup;
  double w, h;     /* of the text */
} LegendEntry;

static GArray *
legend_entries (Ctx    *c,
                double  max_text_w)
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
      if (procura_chart_series_is_hidden (c->chart, c->l, s))
        {
          /* toggled off: the entry stays, dimmed and marked */
          char *dimmed = g_strdup_printf ("<span alpha=\"45%%\">%s%s</span>", e.markup, _(" (hidden)"));
          g_free (e.markup);
          e.markup = dimmed;
        }
      procura_chart_text_set (c, e.markup, TRUE, 0.92, FALSE, max_text_w, 1);
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

/* Lays out the legend: returns its size; with @record, puts its swatches and texts
 * at (x, y) into the layout. */
static void
legend_flow (Ctx      *c,
             GArray   *entries,
             double    x,
             double    y,
             double    max_w,
             gboolean  vertical,
             gboolean  record,
             double   *out_w,
             double   *out_h)
{
  double cx = 0, cy = 0, row_h = 0, used_w = 0;
  double gap = c->fs * 1.3;
  double text_w = MAX (max_w - SWATCH_W - 6, 20);

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
      if (record)
        {
          const ProcuraChartSeries *s = c->chart->series->pdata[e->series];
          ProcuraChartSwatch sw = { e->series, x + cx, y + cy, eh };
          Pending p = text_prepare (c, PROCURA_CHART_TEXT_LEGEND, e->markup, TRUE, 0.92, FALSE, text_w, 1,
                                    PANGO_ALIGN_LEFT);

          g_array_append_val (c->l->swatches, sw);
          text_commit (c, &p, x + cx + SWATCH_W + 6, y + cy + (eh - e->h) / 2, s->struck_out ? 0.75 : 1.0,
                       FALSE);
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
/* Bars and annotations                                                       */

/* Category geometry: the rectangle of a bar from value a to b in category cat,
 * offset along the category axis by @offset with thickness @thick. */
void
procura_chart_bar_rect (const Ctx *c,
                        guint      cat,
                        double     offset,
                        double     thick,
                        double     a,
                        double     b,
                        Rect      *r)
{
  double centre, pa, pb;
  const Map *vm = procura_chart_value_map (c);

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

double
procura_chart_slot_size (const Ctx *c)
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

void
procura_chart_bar_geometry (const Ctx *c,
                            guint      series_index,
                            double    *offset,
                            double    *thick)
{
  guint groups = MAX (n_bar_groups (c->chart), 1);
  guint g = bar_group_of (c->chart, series_index);
  double slot = procura_chart_slot_size (c);
  double total = slot * (groups > 1 ? 0.8 : 0.62);

  *thick = MIN (total / groups, c->fs * 4.5);
  *offset = (g - (groups - 1) / 2.0) * *thick;
}


gboolean
procura_chart_annot_line_position (const Ctx          *c,
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
    *p = map_value (procura_chart_value_map (c), a->y);
  else if (c->category)
    *p = c->horizontal ? map_value (&c->my, a->x) : map_value (&c->mx, a->x);
  else
    *p = map_value (&c->mx, a->x);
  return *horizontal_line ? (*p >= c->py - 0.5 && *p <= c->py + c->ph + 0.5)
                          : (*p >= c->px - 0.5 && *p <= c->px + c->pw + 0.5);
}

gboolean
procura_chart_annot_point_position (const Ctx          *c,
                                    const ProcuraAnnot *a,
                                    double             *px,
                                    double             *py)
{
  if (a->kind != PROCURA_ANNOT_MARKER && a->kind != PROCURA_ANNOT_CALLOUT && a->kind != PROCURA_ANNOT_LABEL)
    return FALSE;
  if (!isfinite (a->x) || !isfinite (a->y))
    return FALSE;
  procura_chart_to_px (c, a->x, a->y, px, py);
  return *px >= c->px - 1 && *px <= c->px + c->pw + 1 && *py >= c->py - 1 && *py <= c->py + c->ph + 1;
}


/* ------------------------------------------------------------------------- */
/* Axes                                                                       */


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

      if (category != procura_chart_series_is_bar (s))
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

/* The gap between the plot and the x tick labels: below the tick marks, and below the
 * lowest y tick label, which is centred on the plot's bottom edge. */
static double
x_tick_gap (double tick_h)
{
  return MAX (7, tick_h / 2 + 2);
}

/* The tick labels of a value axis, along x (below the plot) or y (left of it); a label
 * that would touch the previous one is left out. */
static void
lay_out_tick_labels (Ctx                *c,
                     const ProcuraTicks *ticks,
                     const Map          *m,
                     ProcuraChartUnit    unit,
                     gboolean            along_x)
{
  double last_end = -INFINITY;

  for (guint i = 0; i < ticks->n; i++)
    {
      double p = map_value (m, ticks->value[i]);
      g_autofree char *label = NULL;
      Pending t;

      if (!ticks->major[i])
        continue;
      if (along_x ? (p < c->px - 0.5 || p > c->px + c->pw + 0.5)
                  : (p < c->py - 0.5 || p > c->py + c->ph + 0.5))
        continue;
      label = procura_chart_tick_text (c->chart, ticks->value[i], unit, ticks);
      t = text_prepare (c, PROCURA_CHART_TEXT_TICK, label, FALSE, 0.85, FALSE, -1, 0, PANGO_ALIGN_LEFT);
      if (along_x)
        {
          double x = p - t.w / 2;

          x = MIN (x, c->w - t.w - 2);
          x = MAX (x, 2);
          if (x < last_end + 4)
            {
              text_discard (&t);
              continue;   /* never overlap labels */
            }
          text_commit (c, &t, x, c->py + c->ph + x_tick_gap (t.h), 0.8, FALSE);
          last_end = x + t.w;
        }
      else
        {
          double y = p - t.h / 2;

          /* ticks run upwards: the previous label lies below */
          if (y + t.h > last_end - 1 && isfinite (last_end))
            {
              text_discard (&t);
              continue;
            }
          y = CLAMP (y, 1, c->h - t.h - 1);
          text_commit (c, &t, c->px - 8 - t.w, y, 0.8, FALSE);
          last_end = y;
        }
    }
}

static void
lay_out_category_labels (Ctx *c)
{
  ProcuraChart *chart = c->chart;
  double slot = procura_chart_slot_size (c);

  double size = 0.88, line_h;

  /* many categories down a short plot: smaller text, down to two thirds, then every
   * label that would touch the previous one is left out (the table has them all) */
  text_set (c, "Ag", size, FALSE);
  text_size (c, NULL, &line_h);
  if (c->horizontal && line_h > slot)
    size = MAX (size * slot / line_h, 0.6);

  for (guint i = 0; i < c->n_cat; i++)
    {
      const char *reason = chart->category_reasons->pdata[i];
      g_autofree char *markup = category_markup (chart, i);
      Pending t;

      if (c->horizontal)
        {
          double maxw = c->px - 10 - c->pad + 1;
          double cy = map_value (&c->my, i);
          int lines = MAX (1, (int) (slot / (c->fs * size * 1.36)));
          Rect box;

          t = text_prepare (c, PROCURA_CHART_TEXT_CATEGORY, markup, TRUE, size, FALSE, maxw, lines,
                            PANGO_ALIGN_RIGHT);
          box = text_box (&t, c->px - 10 - maxw, cy - t.h / 2, FALSE);
          if (hits_texts (c, &box))
            {
              text_discard (&t);
              continue;
            }
          text_commit (c, &t, c->px - 10 - maxw, cy - t.h / 2, reason ? 0.8 : 0.95, FALSE);
        }
      else
        {
          double cx = map_value (&c->mx, i);
          double maxw = MAX (slot - 6, 20);

          t = text_prepare (c, PROCURA_CHART_TEXT_CATEGORY, markup, TRUE, 0.88, FALSE, maxw, 2,
                            PANGO_ALIGN_CENTER);
          text_commit (c, &t, cx - maxw / 2, c->py + c->ph + 6, reason ? 0.8 : 0.95, FALSE);
        }
    }
}

/* The totals over bars and stacks (and the bars' rectangles, which labels avoid) */
static void
lay_out_bars (Ctx *c)
{
  ProcuraChart *chart = c->chart;
  const Map *vm = procura_chart_value_map (c);
  double base = vm->log ? vm->lo : 0;

  for (guint cat = 0; cat < c->n_cat; cat++)
    {
      double pos = base, neg = base;
      double stack_offset = 0, stack_thick = 0;
      gboolean have_stack = FALSE;

      for (guint i = 0; i < chart->series->len; i++)
        {
          ProcuraChartSeries *s = chart->series->pdata[i];
          double offset, thick, v;
          Soft soft = { { 0 }, (int) cat };
          Rect r;

          if (!procura_chart_series_is_bar (s) || cat >= s->n || s->y == NULL
              || procura_chart_series_is_hidden (chart, c->l, s))
            continue;
          v = s->y[cat];
          procura_chart_bar_geometry (c, i, &offset, &thick);
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
          else if (s->kind == PROCURA_SERIES_BAR && isfinite (v))
            {
              double from = s->y_low && isfinite (s->y_low[cat]) ? s->y_low[cat] : base;

              procura_chart_bar_rect (c, cat, offset, thick, from, v, &r);
              soft.r = r;
              g_array_append_val (c->soft, soft);
              if (chart->bar_totals)
                {
                  g_autofree char *label = procura_chart_value_text (chart, v, chart->axis[PROCURA_AXIS_Y].unit);
                  Pending t = text_prepare (c, PROCURA_CHART_TEXT_BAR_LABEL, label, FALSE, 0.85, FALSE, -1, 0,
                                            PANGO_ALIGN_LEFT);

                  if (c->horizontal)
                    text_commit (c, &t, v >= from ? r.x + r.w + 4 : r.x - t.w - 4, r.y + (r.h - t.h) / 2,
                                 0.85, FALSE);
                  else
                    text_commit (c, &t, r.x + (r.w - t.w) / 2, r.y - t.h - 2, 0.85, FALSE);
                }
            }
          else if (s->kind == PROCURA_SERIES_BOX && s->y_low && s->y_high
                   && isfinite (s->y_low[cat]) && isfinite (s->y_high[cat]))
            {
              procura_chart_bar_rect (c, cat, offset, thick, s->y_low[cat], s->y_high[cat], &soft.r);
              g_array_append_val (c->soft, soft);
            }
        }

      if (have_stack)
        {
          Soft soft = { { 0 }, (int) cat };
          Rect r;

          procura_chart_bar_rect (c, cat, stack_offset, stack_thick, neg, pos, &soft.r);
          g_array_append_val (c->soft, soft);
          if (chart->bar_totals)
            {
              double total = (pos - base) + (neg - base);
              g_autofree char *label = procura_chart_value_text (chart, total, chart->axis[PROCURA_AXIS_Y].unit);
              Pending t = text_prepare (c, PROCURA_CHART_TEXT_BAR_LABEL, label, FALSE, 0.85, TRUE, -1, 0,
                                        PANGO_ALIGN_LEFT);

              procura_chart_bar_rect (c, cat, stack_offset, stack_thick, base, pos, &r);
              if (c->horizontal)
                text_commit (c, &t, r.x + r.w + 4, r.y + (r.h - t.h) / 2, 0.9, FALSE);
              else
                text_commit (c, &t, r.x + (r.w - t.w) / 2, r.y - t.h - 2, 0.9, FALSE);
            }
        }
    }
}

static void
shaded_rect (const Ctx          *c,
             const ProcuraAnnot *a,
             double             *x0,
             double             *y0,
             double             *x1,
             double             *y1)
{
  if (c->category)
    {
      /* x: categories (NAN = all), y: values */
      double c0 = isfinite (a->x) ? a->x - 0.5 : -0.5;
      double c1 = isfinite (a->x1) ? a->x1 + 0.5 : c->n_cat - 0.5;
      double v0 = isfinite (a->y) ? a->y : procura_chart_value_map (c)->lo;
      double v1 = isfinite (a->y1) ? a->y1 : procura_chart_value_map (c)->hi;

      procura_chart_to_px (c, c0, v0, x0, y0);
      procura_chart_to_px (c, c1, v1, x1, y1);
    }
  else
    {
      *x0 = isfinite (a->x) ? map_value (&c->mx, a->x) : c->px;
      *x1 = isfinite (a->x1) ? map_value (&c->mx, a->x1) : c->px + c->pw;
      *y0 = isfinite (a->y) ? map_value (&c->my, a->y) : c->py + c->ph;
      *y1 = isfinite (a->y1) ? map_value (&c->my, a->y1) : c->py;
    }
  *x0 = CLAMP (*x0, c->px, c->px + c->pw);
  *x1 = CLAMP (*x1, c->px, c->px + c->pw);
  *y0 = CLAMP (*y0, c->py, c->py + c->ph);
  *y1 = CLAMP (*y1, c->py, c->py + c->ph);
}

void
procura_chart_shaded_rect (const ProcuraChartCtx *c,
                           const ProcuraAnnot    *a,
                           ProcuraChartRect      *r)
{
  double x0, y0, x1, y1;

  shaded_rect (c, a, &x0, &y0, &x1, &y1);
  *r = (Rect) { MIN (x0, x1), MIN (y0, y1), fabs (x1 - x0), fabs (y1 - y0) };
}

static void
lay_out_shaded_labels (Ctx *c)
{
  for (guint i = 0; i < c->chart->annots->len; i++)
    {
      const ProcuraAnnot *a = &g_array_index (c->chart->annots, ProcuraAnnot, i);
      Rect r;
      Pending t;

      if (a->kind != PROCURA_ANNOT_SHADED || a->label == NULL || a->label[0] == '\0')
        continue;
      procura_chart_shaded_rect (c, a, &r);
      if (r.w <= 20)
        continue;
      t = text_prepare (c, PROCURA_CHART_TEXT_ANNOTATION, a->label, FALSE, 0.82, FALSE, MAX (r.w - 8, 30), 2,
                        PANGO_ALIGN_LEFT);
      text_commit (c, &t, r.x + 4, r.y + 4, 0.75, FALSE);
    }
}

/* The category an annotation stands on (-1: none) */
static int
annot_category (const Ctx          *c,
                const ProcuraAnnot *a)
{
  if (!c->category || !isfinite (a->x))
    return -1;
  return (int) lround (a->x);
}

/* In three passes, so that labels never cover the marks: the marker rings (claimed as
 * taken), the lines' labels, then the point labels and callouts. */
static void
lay_out_annotations (Ctx *c)
{
  ProcuraChart *chart = c->chart;
  guint n = chart->annots->len;

  for (guint i = 0; i < n; i++)
    {
      const ProcuraAnnot *a = &g_array_index (chart->annots, ProcuraAnnot, i);
      double px, py;

      if (!procura_chart_annot_point_position (c, a, &px, &py))
        continue;
      if (a->kind == PROCURA_ANNOT_MARKER)
        {
          /* the ring and a margin: no other label may come close enough to look like
           * this point's (its own label sits beyond it, with a leader line) */
          Rect r = { px - 18, py - 18, 36, 36 };
          g_array_append_val (c->marks, r);
        }
      else
        {
          Rect r = { px - 6, py - 6, 12, 12 };   /* keep the point itself visible */
          g_array_append_val (c->marks, r);
        }
    }

  for (guint i = 0; i < n; i++)
    {
      const ProcuraAnnot *a = &g_array_index (chart->annots, ProcuraAnnot, i);
      gboolean horizontal_line;
      double p, x = 0, y = 0;
      Rect cand[4];
      gboolean placed = FALSE;
      Pending t;

      if ((a->kind != PROCURA_ANNOT_HLINE && a->kind != PROCURA_ANNOT_VLINE)
          || a->label == NULL || a->label[0] == '\0'
          || !procura_chart_annot_line_position (c, a, &horizontal_line, &p))
        continue;
      t = text_prepare (c, PROCURA_CHART_TEXT_ANNOTATION, a->label, FALSE, 0.88, TRUE, -1, 0, PANGO_ALIGN_LEFT);
      if (horizontal_line)
        {
          cand[0] = (Rect) { c->px + c->pw - t.w - 8, p - t.h - 3, t.w + 6, t.h + 2 };
          cand[1] = (Rect) { c->px + c->pw - t.w - 8, p + 3, t.w + 6, t.h + 2 };
          cand[2] = (Rect) { c->px + 6, p - t.h - 3, t.w + 6, t.h + 2 };
          cand[3] = (Rect) { c->px + 6, p + 3, t.w + 6, t.h + 2 };
        }
      else
        {
          cand[0] = (Rect) { p + 4, c->py + 4, t.w + 6, t.h + 2 };
          cand[1] = (Rect) { p - t.w - 10, c->py + 4, t.w + 6, t.h + 2 };
          cand[2] = (Rect) { p + 4, c->py + c->ph - t.h - 6, t.w + 6, t.h + 2 };
          cand[3] = (Rect) { p - t.w - 10, c->py + c->ph - t.h - 6, t.w + 6, t.h + 2 };
        }
      for (Strictness level = FREE_OF_ALL; level <= FREE_OF_TEXT && !placed; level++)
        for (guint k = 0; k < G_N_ELEMENTS (cand) && !placed; k++)
          if (rect_inside (&cand[k], c->px, c->py, c->pw, c->ph) && rect_free (c, &cand[k], level, -1))
            {
              x = cand[k].x + 3;
              y = cand[k].y + 1;
              placed = TRUE;
            }
      if (placed)
        text_commit (c, &t, x, y, 1, TRUE);
      else
        place_annotation (c, &t, horizontal_line ? c->px + c->pw - t.w : p, horizontal_line ? p : c->py + t.h,
                          6, -1, FALSE, FALSE);
    }

  for (guint i = 0; i < n; i++)
    {
      const ProcuraAnnot *a = &g_array_index (chart->annots, ProcuraAnnot, i);
      double px, py;
      Pending t;

      if (!procura_chart_annot_point_position (c, a, &px, &py) || a->label == NULL || a->label[0] == '\0')
        continue;
      if (a->kind == PROCURA_ANNOT_MARKER || a->kind == PROCURA_ANNOT_LABEL)
        {
          t = text_prepare (c, PROCURA_CHART_TEXT_ANNOTATION, a->label, FALSE, 0.85, FALSE, -1, 0,
                            PANGO_ALIGN_LEFT);
          place_annotation (c, &t, px, py, a->kind == PROCURA_ANNOT_MARKER ? 19 : 7, annot_category (c, a),
                            TRUE, FALSE);
        }
      else
        {
          t = text_prepare (c, PROCURA_CHART_TEXT_ANNOTATION, a->label, FALSE, 0.88, FALSE, c->pw * 0.4, 3,
                            PANGO_ALIGN_LEFT);
          place_annotation (c, &t, px, py, 28, annot_category (c, a), TRUE, TRUE);
        }
    }
}

/* ------------------------------------------------------------------------- */
/* The whole layout                                                           */

/* Title and subtitle, narrowed where they would run under the caller's reserved
 * area; returns the y below them. */
static double
lay_out_titles (Ctx *c)
{
  ProcuraChart *chart = c->chart;
  Rect res = reserved_rect (c);
  double top = c->pad;
  const char *texts[2] = { chart->title, chart->subtitle };

  for (guint k = 0; k < 2; k++)
    {
      double size = k == 0 ? 1.25 : 0.92;
      double max_w = c->w - 2 * c->pad, y;
      Pending t;
      Rect box;

      if (texts[k] == NULL || texts[k][0] == '\0')
        continue;
      t = text_prepare (c, k == 0 ? PROCURA_CHART_TEXT_TITLE : PROCURA_CHART_TEXT_SUBTITLE, texts[k], FALSE,
                        size, k == 0, max_w, 2, PANGO_ALIGN_LEFT);
      box = text_box (&t, c->pad, top, FALSE);
      if (res.w > 0 && rect_overlaps (&box, &res) && res.x - c->pad * 1.5 > 40)
        {
          text_discard (&t);
          max_w = res.x - c->pad * 1.5;
          t = text_prepare (c, k == 0 ? PROCURA_CHART_TEXT_TITLE : PROCURA_CHART_TEXT_SUBTITLE, texts[k], FALSE,
                            size, k == 0, max_w, 2, PANGO_ALIGN_LEFT);
          box = text_box (&t, c->pad, top, FALSE);
          /* still under it (too narrow a chart): start below it */
          if (rect_overlaps (&box, &res))
            top = res.y + res.h + 2;
        }
      y = top;
      top += t.h + (k == 0 ? 2 : 0);
      text_commit (c, &t, c->pad, y, k == 0 ? 1 : 0.7, FALSE);
    }
  return top + c->pad * 0.8;
}

gboolean
procura_chart_lay_out (Ctx *c)
{
  ProcuraChart *chart = c->chart;
  const ProcuraChartAxis *ax = &chart->axis[PROCURA_AXIS_X], *ay = &chart->axis[PROCURA_AXIS_Y];
  double top, bottom, left, right, notes_h = 0;
  GArray *entries = NULL;
  double legend_w = 0, legend_h = 0, xtitle_h = 0, ytitle_h = 0;
  const char *xlabel, *ylabel;
  Rect res;

  layout_reset (c->l, chart, c->w, c->h);
  g_array_set_size (c->marks, 0);
  g_array_set_size (c->soft, 0);
  c->n_dropped = 0;

  top = lay_out_titles (c);
  c->has_data = chart_has_data (chart);
  if (!c->has_data)
    {
      double area_h = c->h - top - c->pad;
      Pending t = text_prepare (c, PROCURA_CHART_TEXT_MESSAGE, chart->message ? chart->message : _("No data"),
                                FALSE, 1.1, FALSE, c->w * 0.8, 4, PANGO_ALIGN_CENTER);

      text_commit (c, &t, (c->w - c->w * 0.8) / 2, top + MAX (0, (area_h - t.h) / 2), 0.7, FALSE);
      return FALSE;
    }

  c->category = procura_chart_is_category (chart);
  c->horizontal = c->category && chart->orientation == PROCURA_ORIENTATION_HORIZONTAL;
  c->n_cat = chart->categories->len;
  c->l->category = c->category;
  c->l->horizontal = c->horizontal;

  bottom = c->h - c->pad;
  left = c->pad;
  right = c->w - c->pad;

  /* Notes: labels that found no place, one line each, at the very bottom */
  if (c->n_notes > 0)
    {
      double nh;

      text_set (c, "Ag", 0.85, FALSE);
      text_size (c, NULL, &nh);
      notes_h = c->n_notes * (nh + 2);
      bottom -= notes_h + c->pad * 0.5;
    }

  /* Legend */
  if (chart->legend != PROCURA_LEGEND_NONE)
    {
      double max_text_w = (chart->legend == PROCURA_LEGEND_BOTTOM ? c->w - 2 * c->pad
                           : chart->legend == PROCURA_LEGEND_RIGHT ? c->w * 0.35 : c->w * 0.45) - SWATCH_W - 6;

      entries = legend_entries (c, MAX (max_text_w, 20));
      if (entries->len == 0 || (entries->len == 1 && !c->category && chart->series->len == 1))
        g_clear_pointer (&entries, legend_entries_free);
    }
  if (entries)
    {
      if (chart->legend == PROCURA_LEGEND_RIGHT)
        {
          legend_flow (c, entries, 0, 0, c->w * 0.35, TRUE, FALSE, &legend_w, &legend_h);
          legend_w = MIN (legend_w, c->w * 0.35);
          right -= legend_w + c->pad;
        }
      else if (chart->legend == PROCURA_LEGEND_BOTTOM)
        {
          legend_flow (c, entries, 0, 0, c->w - 2 * c->pad, FALSE, FALSE, &legend_w, &legend_h);
          bottom -= legend_h + c->pad * 0.8;
        }
      else
        legend_flow (c, entries, 0, 0, c->w * 0.45, TRUE, FALSE, &legend_w, &legend_h);
    }

  /* axis titles: room below and left */
  xlabel = c->horizontal ? ay->label : ax->label;
  ylabel = c->horizontal ? ax->label : ay->label;
  if (xlabel && xlabel[0])
    {
      text_set (c, xlabel, 0.92, FALSE);
      text_size (c, NULL, &xtitle_h);
      bottom -= xtitle_h + 4;
    }
  if (ylabel && ylabel[0])
    {
      text_set (c, ylabel, 0.92, FALSE);
      text_size (c, NULL, &ytitle_h);
      left += ytitle_h + 6;
    }

  if (!c->category)
    {
      double xlo, xhi, ylo, yhi, tick_h, yw;
      int target;

      xy_range (chart, PROCURA_AXIS_X, &xlo, &xhi);
      xy_range (chart, PROCURA_AXIS_Y, &ylo, &yhi);
      /* bottom: x tick labels */
      text_set (c, "0", 0.85, FALSE);
      text_size (c, NULL, &tick_h);
      bottom -= tick_h + x_tick_gap (tick_h) + 2;
      target = MAX (2, (int) ((bottom - top) / (c->fs * 3.2)));
      axis_ticks (ay, ylo, yhi, FALSE, target, &c->yt);
      yw = max_tick_label_width (c, &c->yt, ay->unit, NULL);
      left += yw + 10;
      right -= c->fs * 1.2;   /* room for the last x label's overhang */
      c->px = left;
      c->py = top;
      c->pw = MAX (right - left, 10);
      c->ph = MAX (bottom - top, 10);
      axis_ticks (ax, xlo, xhi, FALSE, x_tick_target (c, ax, xlo, xhi, c->pw), &c->xt);
      c->mx = (Map) { c->xt.lo, c->xt.hi, ax->scale == PROCURA_SCALE_LOG, c->px, c->px + c->pw };
      c->my = (Map) { c->yt.lo, c->yt.hi, ay->scale == PROCURA_SCALE_LOG, c->py + c->ph, c->py };
    }
  else
    {
      double vlo, vhi, tick_h, cat_w = 0;
      gboolean log = ay->scale == PROCURA_SCALE_LOG;
      gboolean from_zero;

      category_value_range (chart, &vlo, &vhi, &from_zero);
      from_zero = from_zero && !log;
      for (guint i = 0; i < c->n_cat; i++)
        {
          g_autofree char *markup = category_markup (chart, i);
          double w;

          procura_chart_text_set (c, markup, TRUE, 0.88, FALSE, -1, 0);
          text_size (c, &w, NULL);
          cat_w = MAX (cat_w, w);
        }
      text_set (c, "0", 0.85, FALSE);
      text_size (c, NULL, &tick_h);
      if (c->horizontal)
        {
          double label_w = MIN (cat_w, c->w * 0.3) + 10;
          /* struck categories carry their reason on a second line */
          left += label_w;
          bottom -= tick_h + x_tick_gap (tick_h) + 2;
          right -= c->fs * 1.2;
          if (chart->bar_totals)
            right -= c->fs * 3.5;
          c->px = left;
          c->py = top;
          c->pw = MAX (right - left, 10);
          c->ph = MAX (bottom - top, 10);
          axis_ticks (ay, vlo, vhi, from_zero,
                      x_tick_target (c, ay, from_zero ? MIN (vlo, 0) : vlo, vhi, c->pw), &c->yt);
          c->xt = c->yt;
          c->mx = (Map) { c->yt.lo, c->yt.hi, log, c->px, c->px + c->pw };
          c->my = (Map) { c->n_cat - 0.5, -0.5, FALSE, c->py + c->ph, c->py };
        }
      else
        {
          double yw, line_h;
          int target;

          text_set (c, "Ag", 0.88, FALSE);
          text_size (c, NULL, &line_h);
          bottom -= line_h * 2 + 8;
          if (chart->bar_totals)
            top += c->fs * 1.2;
          target = MAX (2, (int) ((bottom - top) / (c->fs * 3.2)));
          axis_ticks (ay, vlo, vhi, from_zero, target, &c->yt);
          yw = max_tick_label_width (c, &c->yt, ay->unit, NULL);
          left += yw + 10;
          c->px = left;
          c->py = top;
          c->pw = MAX (right - left, 10);
          c->ph = MAX (bottom - top, 10);
          c->mx = (Map) { -0.5, c->n_cat - 0.5, FALSE, c->px, c->px + c->pw };
          c->my = (Map) { c->yt.lo, c->yt.hi, log, c->py + c->ph, c->py };
        }
    }

  /* the plot and its scales, for lookups */
  c->l->plot = (ProcuraChartPlot) {
    c->px, c->py, c->pw, c->ph, c->mx.lo, c->mx.hi, c->my.lo, c->my.hi, c->mx.log, c->my.log, TRUE
  };

  /* Fixed texts first: ticks, categories, axis titles, the legend, bar totals */
  if (!c->category)
    {
      lay_out_tick_labels (c, &c->xt, &c->mx, ax->unit, TRUE);
      lay_out_tick_labels (c, &c->yt, &c->my, ay->unit, FALSE);
    }
  else
    {
      if (c->horizontal)
        lay_out_tick_labels (c, &c->yt, &c->mx, ay->unit, TRUE);
      else
        lay_out_tick_labels (c, &c->yt, &c->my, ay->unit, FALSE);
      lay_out_category_labels (c);
    }

  if (xlabel && xlabel[0])
    {
      double y = c->h - c->pad - notes_h - (notes_h > 0 ? c->pad * 0.5 : 0) - xtitle_h;
      Pending t;

      if (entries && chart->legend == PROCURA_LEGEND_BOTTOM)
        y -= legend_h + c->pad * 0.8;
      t = text_prepare (c, PROCURA_CHART_TEXT_AXIS_TITLE, xlabel, FALSE, 0.92, FALSE, c->w - 2 * c->pad, 1,
                        PANGO_ALIGN_LEFT);
      text_commit (c, &t, CLAMP (c->px + (c->pw - t.w) / 2, c->pad, MAX (c->pad, c->w - c->pad - t.w)), y, 0.9,
                   FALSE);
    }
  if (ylabel && ylabel[0])
    {
      Pending t = text_prepare (c, PROCURA_CHART_TEXT_AXIS_TITLE, ylabel, FALSE, 0.92, FALSE, c->ph, 1,
                                PANGO_ALIGN_LEFT);
      double tw = t.w, th = t.h;
      ProcuraChartText *rec;

      /* turned a quarter: the text runs upwards along the plot's left side */
      rec = text_commit (c, &t, c->pad, c->py + c->ph / 2 + MIN (tw, c->ph) / 2, 0.9, FALSE);
      rec->rotated = TRUE;
      rec->box.x = c->pad;
      rec->box.y = c->py + c->ph / 2 - MIN (tw, c->ph) / 2;
      rec->box.width = th;
      rec->box.height = MIN (tw, c->ph);
    }

  res = reserved_rect (c);
  if (entries)
    {
      if (chart->legend == PROCURA_LEGEND_BOTTOM)
        legend_flow (c, entries, c->pad, c->h - c->pad - notes_h - (notes_h > 0 ? c->pad * 0.5 : 0) - legend_h,
                     c->w - 2 * c->pad, FALSE, TRUE, NULL, NULL);
      else if (chart->legend == PROCURA_LEGEND_RIGHT)
        {
          double ly = c->py;

          /* below the caller's reserved corner */
          if (res.w > 0 && res.x < c->w && res.x + res.w > c->w - c->pad - legend_w)
            ly = MAX (ly, res.y + res.h + 4);
          legend_flow (c, entries, c->w - c->pad - legend_w, ly, legend_w, TRUE, TRUE, NULL, NULL);
        }
      else
        {
          /* a legend inside the plot claims its corner before labels are placed */
          double lx = chart->legend == PROCURA_LEGEND_TOP_LEFT || chart->legend == PROCURA_LEGEND_BOTTOM_LEFT
                      ? c->px + 8 : c->px + c->pw - legend_w - 16;
          double ly = chart->legend == PROCURA_LEGEND_TOP_LEFT || chart->legend == PROCURA_LEGEND_TOP_RIGHT
                      ? c->py + 8 : c->py + c->ph - legend_h - 16;

          c->l->legend_rect = (Rect) { lx, ly, legend_w + 8, legend_h + 8 };
          c->l->legend_boxed = TRUE;
          g_array_append_val (c->marks, c->l->legend_rect);
          legend_flow (c, entries, lx + 4, ly + 4, legend_w, TRUE, TRUE, NULL, NULL);
        }
      legend_entries_free (entries);
    }

  if (c->category)
    lay_out_bars (c);
  lay_out_shaded_labels (c);
  lay_out_annotations (c);
  return TRUE;
}
