/* procura-chart-draw.c: drawing a laid-out chart onto any cairo_t
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * procura_chart_draw() lays the spec out into the caller's ProcuraChartLayout
 * (procura-chart-layout.c) and then draws it: grid, shaded regions, series, bars,
 * axes, annotation marks, and the texts the layout placed.
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

static inline const Map *
value_map (const Ctx *c)
{
  return procura_chart_value_map (c);
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

/* Draws text @t of the layout */
static void
text_draw (Ctx                    *c,
           const ProcuraChartText *t)
{
  PangoRectangle logical;

  procura_chart_text_set (c, t->shown, t->markup, t->size, t->bold, t->max_width, t->max_lines);
  pango_layout_set_alignment (c->pl, t->align);
  pango_layout_get_extents (c->pl, NULL, &logical);
  cairo_save (c->cr);
  if (t->halo)
    {
      cairo_rectangle (c->cr, t->box.x, t->box.y, t->box.width, t->box.height);
      set_color (c->cr, &c->t->background, 0.82);
      cairo_fill (c->cr);
    }
  set_color (c->cr, &c->t->foreground, t->alpha);
  /* with a width the layout aligns its lines itself */
  if (pango_layout_get_width (c->pl) >= 0)
    logical.x = 0;
  if (t->rotated)
    {
      cairo_translate (c->cr, t->tx, t->ty);
      cairo_rotate (c->cr, -G_PI / 2);
      cairo_move_to (c->cr, -logical.x / (double) PANGO_SCALE, 0);
    }
  else
    cairo_move_to (c->cr, t->tx - logical.x / (double) PANGO_SCALE, t->ty);
  pango_cairo_show_layout (c->cr, c->pl);
  cairo_restore (c->cr);
}


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
  /* the columns are cached in the caller's layout, for redraws at the same size */
  const ProcuraColumn *scols = procura_chart_layout_columns (c->l, s, cols, c->mx.lo, c->mx.hi, c->mx.log);
  double *tops = g_new (double, cols);
  double *bottoms = g_new (double, cols);

  cairo_save (cr);
  for (guint k = 0; k < cols; k++)
    {
      const ProcuraColumn *col = &scols[k];
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
          const ProcuraColumn *col = &scols[k];

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

              procura_chart_segment_point (FALSE, FALSE, TRUE, prev_dx, prev_dy, x, y, k / 48.0, &sx, &sy);
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

/* Bars, stacks and boxes */
static void
draw_category_series (Ctx *c)
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

      for (guint i = 0; i < chart->series->len; i++)
        {
          ProcuraChartSeries *s = chart->series->pdata[i];
          const ProcuraChartColor *color = series_color (c, s, i);
          double alpha = cat_alpha * (s->struck_out ? 0.35 : 1.0);
          double offset, thick, v;
          Rect r;

          if (!procura_chart_series_is_bar (s) || cat >= s->n || s->y == NULL
              || procura_chart_series_is_hidden (chart, c->l, s))
            continue;
          v = s->y[cat];
          procura_chart_bar_geometry (c, i, &offset, &thick);
          switch (s->kind)
            {
            case PROCURA_SERIES_STACKED_BAR:
              if (!isfinite (v) || v == 0)
                break;
              if (v > 0)
                {
                  procura_chart_bar_rect (c, cat, offset, thick, pos, pos + v, &r);
                  pos += v;
                }
              else
                {
                  procura_chart_bar_rect (c, cat, offset, thick, neg + v, neg, &r);
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
              break;
            case PROCURA_SERIES_BAR:
              {
                double from = s->y_low && isfinite (s->y_low[cat]) ? s->y_low[cat] : base;

                if (!isfinite (v))
                  break;
                procura_chart_bar_rect (c, cat, offset, thick, from, v, &r);
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
                    procura_chart_bar_rect (c, cat, offset, thick, lo, hi, &r);
                    cairo_rectangle (cr, r.x, r.y, r.w, r.h);
                    set_color (cr, color, alpha * 0.3);
                    cairo_fill_preserve (cr);
                    set_color (cr, color, alpha);
                    cairo_set_line_width (cr, 1.5);
                    cairo_stroke (cr);
                  }
                if (isfinite (v))
                  {
                    procura_chart_bar_rect (c, cat, offset, thick, v, v, &r);
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

    }
}

/* ------------------------------------------------------------------------- */
/* Annotations                                                                */


/* ------------------------------------------------------------------------- */
/* Annotations: the marks; their labels are texts of the layout               */

static void
draw_annotation_marks (Ctx *c)
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
          || !procura_chart_annot_line_position (c, a, &horizontal_line, &p))
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

      if (a->kind != PROCURA_ANNOT_MARKER || !procura_chart_annot_point_position (c, a, &px, &py))
        continue;
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
    }
}

/* Leader lines from the labels pushed away from their points, and the callouts'
 * borders, drawn before the texts */
static void
draw_leaders (Ctx *c)
{
  cairo_t *cr = c->cr;
  const ProcuraChartColor *fg = &c->t->foreground;

  for (guint i = 0; i < c->l->texts->len; i++)
    {
      const ProcuraChartText *t = &g_array_index (c->l->texts, ProcuraChartText, i);
      const ProcuraChartTextBox *b = &t->box;
      double nx, ny, px = t->ax, py = t->ay;

      if (!t->leader)
        continue;
      nx = CLAMP (px, b->x, b->x + b->width);
      ny = CLAMP (py, b->y, b->y + b->height);
      cairo_save (cr);
      cairo_set_line_width (cr, 1);
      if (t->boxed)
        {
          /* border and leader line from the box's nearest edge */
          set_color (cr, fg, 0.6);
          cairo_rectangle (cr, b->x - 0.5, b->y - 0.5, b->width + 1, b->height + 1);
          cairo_stroke (cr);
          cairo_move_to (cr, nx, ny);
          cairo_line_to (cr, px, py);
          cairo_stroke (cr);
          cairo_arc (cr, px, py, 2.5, 0, 2 * G_PI);
          cairo_fill (cr);
        }
      else if (hypot (nx - px, ny - py) > 10)
        {
          /* a label pushed away from its point gets a leader line, so that it is
           * never read as another point's */
          double d = hypot (nx - px, ny - py);

          set_color (cr, fg, 0.55);
          cairo_move_to (cr, px + (nx - px) / d * 7, py + (ny - py) / d * 7);
          cairo_line_to (cr, nx, ny);
          cairo_stroke (cr);
        }
      cairo_restore (cr);
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
      Rect r;

      if (a->kind != PROCURA_ANNOT_SHADED)
        continue;
      procura_chart_shaded_rect (c, a, &r);
      cairo_save (cr);
      cairo_rectangle (cr, r.x, r.y, r.w, r.h);
      set_color (cr, &c->t->foreground, c->t->high_contrast ? 0.14 : 0.07);
      cairo_fill (cr);
      cairo_restore (cr);
    }
}

/* ------------------------------------------------------------------------- */
/* Grid, legend, the whole draw                                               */

static void
draw_value_grid (Ctx                *c,
                 const ProcuraTicks *ticks,
                 const Map          *m,
                 gboolean            along_x)
{
  cairo_t *cr = c->cr;

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
    }
}

static void
draw_legend (Ctx *c)
{
  cairo_t *cr = c->cr;

  if (c->l->legend_boxed)
    {
      const Rect *r = &c->l->legend_rect;

      cairo_save (cr);
      cairo_rectangle (cr, r->x, r->y, r->w, r->h);
      set_color (cr, &c->t->background, 0.88);
      cairo_fill_preserve (cr);
      set_color (cr, &c->t->grid, 1);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      cairo_restore (cr);
    }
  for (guint i = 0; i < c->l->swatches->len; i++)
    {
      const ProcuraChartSwatch *sw = &g_array_index (c->l->swatches, ProcuraChartSwatch, i);

      draw_swatch (c, c->chart->series->pdata[sw->series], sw->series, sw->x, sw->y, sw->h);
    }
}

static void
draw_texts (Ctx *c)
{
  for (guint i = 0; i < c->l->texts->len; i++)
    text_draw (c, &g_array_index (c->l->texts, ProcuraChartText, i));
}

void
procura_chart_draw (ProcuraChart            *chart,
                    ProcuraChartLayout      *layout,
                    cairo_t                 *cr,
                    double                   width,
                    double                   height,
                    const ProcuraChartTheme *theme)
{
  g_autoptr (ProcuraChartLayout) own = NULL;
  Ctx c = { 0 };
  cairo_font_options_t *fo;
  PangoContext *pctx;
  double dx = 1, dy = 0;

  g_return_if_fail (chart != NULL && cr != NULL);
  if (theme == NULL)
    theme = procura_chart_theme_light ();
  if (layout == NULL)
    layout = own = procura_chart_layout_new ();
  layout->plot.valid = FALSE;
  layout->chart_id = chart->id;
  g_array_set_size (layout->texts, 0);
  g_array_set_size (layout->swatches, 0);
  if (width < 20 || height < 20)
    return;

  c.chart = chart;
  c.l = layout;
  c.cr = cr;
  c.t = theme;
  c.w = width;
  c.h = height;
  c.fs = theme->font_size > 0 ? theme->font_size : 13;
  /* small renders get smaller text, never below 9 px */
  c.fs = MAX (9, MIN (c.fs, MIN (width / 38, height / 22)));
  c.pad = round (c.fs * 0.9);
  c.lw = (theme->line_width > 0 ? theme->line_width : 2) * (theme->high_contrast ? 1.2 : 1);
  c.marks = g_array_new (FALSE, FALSE, sizeof (Rect));
  c.soft = g_array_new (FALSE, FALSE, sizeof (ProcuraChartSoft));
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

  /* The layout: again with room for notes while labels are dropped to them */
  for (guint attempt = 0; attempt < 4; attempt++)
    {
      if (!procura_chart_lay_out (&c) || c.n_dropped <= c.n_notes || c.n_notes >= MAX_NOTES)
        break;
      c.n_notes = MIN (MAX (c.n_dropped, c.n_notes + 1), MAX_NOTES);
    }

  if (theme->draw_background)
    {
      cairo_rectangle (cr, 0, 0, width, height);
      set_color (cr, &theme->background, 1);
      cairo_fill (cr);
    }
  if (!c.has_data)
    {
      draw_texts (&c);
      goto out;
    }

  /* Grid and ticks */
  if (!c.category)
    {
      draw_value_grid (&c, &c.xt, &c.mx, TRUE);
      draw_value_grid (&c, &c.yt, &c.my, FALSE);
    }
  else if (c.horizontal)
    draw_value_grid (&c, &c.yt, &c.mx, TRUE);
  else
    draw_value_grid (&c, &c.yt, &c.my, FALSE);

  draw_shaded (&c);

  /* Series, clipped to the plot */
  cairo_save (cr);
  cairo_rectangle (cr, c.px - 1, c.py - 1, c.pw + 2, c.ph + 2);
  cairo_clip (cr);
  if (c.category)
    draw_category_series (&c);
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
            if (s->kind == order[k] && s->struck_out && !procura_chart_series_is_hidden (chart, c.l, s))
              draw_xy_series (&c, s, i);
          }
      for (guint k = 0; k < G_N_ELEMENTS (order); k++)
        for (guint i = 0; i < chart->series->len; i++)
          {
            ProcuraChartSeries *s = chart->series->pdata[i];

            if (s->kind == order[k] && !s->struck_out && !procura_chart_series_is_hidden (chart, c.l, s))
              draw_xy_series (&c, s, i);
          }
    }
  cairo_restore (cr);

  /* Axes lines */
  cairo_save (cr);
  cairo_set_line_width (cr, 1);
  set_color (cr, &theme->foreground, 0.55);
  cairo_move_to (cr, round (c.px) + 0.5, c.py);
  cairo_line_to (cr, round (c.px) + 0.5, c.py + c.ph + 0.5);
  cairo_line_to (cr, c.px + c.pw, c.py + c.ph + 0.5);
  cairo_stroke (cr);
  cairo_restore (cr);

  draw_annotation_marks (&c);
  draw_legend (&c);
  draw_leaders (&c);
  draw_texts (&c);

out:
  g_object_unref (c.pl);
  g_array_unref (c.marks);
  g_array_unref (c.soft);
  cairo_restore (cr);
}
