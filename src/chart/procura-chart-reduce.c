/* procura-chart-reduce.c: min/max pyramids, per-pixel density, per-column bands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-chart-reduce.h"
#include "procura-chart-private.h"

/* ------------------------------------------------------------------------- */
/* Mode                                                                       */

static ProcuraReduceMode reduce_mode = PROCURA_REDUCE_AUTO;

void
procura_chart_reduce_set_mode (ProcuraReduceMode mode)
{
  reduce_mode = mode;
}

ProcuraReduceMode
procura_chart_reduce_get_mode (void)
{
  return reduce_mode;
}

gboolean
procura_chart_reduce_wanted (gsize n,
                             guint columns)
{
  switch (reduce_mode)
    {
    case PROCURA_REDUCE_ALWAYS:
      return TRUE;
    case PROCURA_REDUCE_NEVER:
      return FALSE;
    case PROCURA_REDUCE_AUTO:
    default:
      return n > (gsize) columns * 3;
    }
}

/* ------------------------------------------------------------------------- */
/* Min/max pyramid                                                            */

#define LEAF_SHIFT 6
#define LEAF ((gsize) 1 << LEAF_SHIFT)
#define MAX_LEVELS 64
#define N_PYRAMIDS 3

typedef struct {
  double mn, mx;      /* of the values that are not NaN; +inf/-inf when there are none */
  gsize  count;       /* values that are not NaN */
} Block;

/* Level 0 holds a Block per LEAF values, level l + 1 a Block per two of level l. */
typedef struct {
  const double *y;
  gsize         n;
  guint         levels;
  Block        *level[MAX_LEVELS];
  gsize         len[MAX_LEVELS];
} Pyramid;

struct _ProcuraReduceCache {
  Pyramid          *pyramid[N_PYRAMIDS];
  guint             next_pyramid;

  /* scatter: points per device pixel for one geometry */
  guint32          *counts;
  int               cw, ch;
  const double     *sx, *sy;
  gsize             sn;
  ProcuraReduceMap  smx, smy;
  double            spx, spy, spw, sph, sscale;
  /* and its image in one colour */
  cairo_surface_t  *image;
  ProcuraChartColor icolor;
  double            ialpha;
};

/* Folds y[a..b) into *mn, *mx, *count: NaN compares false, so it never wins and is not
 * counted (as in procura_chart_decimate). */
static inline void
scan (const double *y,
      gsize         a,
      gsize         b,
      double       *mn,
      double       *mx,
      gsize        *count)
{
  double lo0 = *mn, lo1 = INFINITY, hi0 = *mx, hi1 = -INFINITY;
  gsize c = *count, i = a;

  for (; i + 2 <= b; i += 2)
    {
      double v0 = y[i], v1 = y[i + 1];

      lo0 = v0 < lo0 ? v0 : lo0;
      lo1 = v1 < lo1 ? v1 : lo1;
      hi0 = v0 > hi0 ? v0 : hi0;
      hi1 = v1 > hi1 ? v1 : hi1;
      c += (v0 == v0) + (v1 == v1);
    }
  for (; i < b; i++)
    {
      double v = y[i];

      lo0 = v < lo0 ? v : lo0;
      hi0 = v > hi0 ? v : hi0;
      c += v == v;
    }
  *mn = MIN (lo0, lo1);
  *mx = MAX (hi0, hi1);
  *count = c;
}

static void
pyramid_free (Pyramid *p)
{
  if (p == NULL)
    return;
  for (guint l = 0; l < p->levels; l++)
    g_free (p->level[l]);
  g_free (p);
}

static Pyramid *
pyramid_new (const double *y,
             gsize         n)
{
  Pyramid *p = g_new0 (Pyramid, 1);
  gsize len = (n + LEAF - 1) >> LEAF_SHIFT;
  Block *leaves = g_new (Block, MAX (len, 1));

  p->y = y;
  p->n = n;
  for (gsize b = 0; b < len; b++)
    {
      Block *blk = &leaves[b];

      blk->mn = INFINITY;
      blk->mx = -INFINITY;
      blk->count = 0;
      scan (y, b << LEAF_SHIFT, MIN (n, (b + 1) << LEAF_SHIFT), &blk->mn, &blk->mx, &blk->count);
    }
  p->level[0] = leaves;
  p->len[0] = len;
  p->levels = 1;
  while (p->len[p->levels - 1] > 1 && p->levels < MAX_LEVELS)
    {
      const Block *prev = p->level[p->levels - 1];
      gsize prev_len = p->len[p->levels - 1];
      gsize up_len = (prev_len + 1) / 2;
      Block *up = g_new (Block, up_len);

      for (gsize b = 0; b < up_len; b++)
        {
          up[b] = prev[2 * b];
          if (2 * b + 1 < prev_len)
            {
              const Block *o = &prev[2 * b + 1];

              up[b].mn = MIN (up[b].mn, o->mn);
              up[b].mx = MAX (up[b].mx, o->mx);
              up[b].count += o->count;
            }
        }
      p->level[p->levels] = up;
      p->len[p->levels] = up_len;
      p->levels++;
    }
  return p;
}

static inline void
take_block (const Block *blk,
            double      *mn,
            double      *mx,
            gsize       *count)
{
  *mn = MIN (*mn, blk->mn);
  *mx = MAX (*mx, blk->mx);
  *count += blk->count;
}

/* Min, max and count of y[a..b): the partial leaves at both ends are read, the whole
 * blocks between come from O(log n) blocks of the levels above. */
static void
pyramid_query (const Pyramid *p,
               gsize          a,
               gsize          b,
               double        *mn,
               double        *mx,
               gsize         *count)
{
  gsize ba = (a + LEAF - 1) >> LEAF_SHIFT;
  gsize bb = b >> LEAF_SHIFT;

  *mn = INFINITY;
  *mx = -INFINITY;
  *count = 0;
  if (ba >= bb)
    {
      scan (p->y, a, b, mn, mx, count);
      return;
    }
  scan (p->y, a, ba << LEAF_SHIFT, mn, mx, count);
  scan (p->y, bb << LEAF_SHIFT, b, mn, mx, count);
  for (guint l = 0; ba < bb && l < p->levels; l++)
    {
      if (ba & 1)
        take_block (&p->level[l][ba++], mn, mx, count);
      if (bb & 1)
        take_block (&p->level[l][--bb], mn, mx, count);
      ba >>= 1;
      bb >>= 1;
    }
}

/* The first index in [a, b) whose value is not NaN, or b; leaves without one are skipped. */
static gsize
first_number (const Pyramid *p,
              gsize          a,
              gsize          b)
{
  gsize i = a;

  while (i < b)
    {
      if (!isnan (p->y[i]))
        return i;
      i++;
      if ((i & (LEAF - 1)) == 0)
        while (i + LEAF <= b && p->level[0][i >> LEAF_SHIFT].count == 0)
          i += LEAF;
    }
  return b;
}

/* The last index in [a, b) whose value is not NaN, or b. */
static gsize
last_number (const Pyramid *p,
             gsize          a,
             gsize          b)
{
  gsize i = b;

  while (i > a)
    {
      if (!isnan (p->y[i - 1]))
        return i - 1;
      i--;
      if ((i & (LEAF - 1)) == 0)
        while (i >= a + LEAF && p->level[0][(i >> LEAF_SHIFT) - 1].count == 0)
          i -= LEAF;
    }
  return b;
}

static ProcuraReduceCache *
cache_get (ProcuraReduceCache **cache)
{
  if (*cache == NULL)
    *cache = g_new0 (ProcuraReduceCache, 1);
  return *cache;
}

/* The pyramid of @y in the cache, built when it is not there yet. */
static const Pyramid *
pyramid_get (ProcuraReduceCache *cache,
             const double       *y,
             gsize               n)
{
  guint slot;

  for (guint i = 0; i < N_PYRAMIDS; i++)
    if (cache->pyramid[i] && cache->pyramid[i]->y == y && cache->pyramid[i]->n == n)
      return cache->pyramid[i];
  slot = cache->next_pyramid;
  cache->next_pyramid = (slot + 1) % N_PYRAMIDS;
  pyramid_free (cache->pyramid[slot]);
  cache->pyramid[slot] = pyramid_new (y, n);
  return cache->pyramid[slot];
}

void
procura_chart_reduce_cache_clear (ProcuraReduceCache **cache)
{
  ProcuraReduceCache *c = *cache;

  if (c == NULL)
    return;
  for (guint i = 0; i < N_PYRAMIDS; i++)
    pyramid_free (c->pyramid[i]);
  g_free (c->counts);
  if (c->image)
    cairo_surface_destroy (c->image);
  g_free (c);
  *cache = NULL;
}

/* ------------------------------------------------------------------------- */
/* Columns                                                                    */

/* Where x (ascending) falls, as procura_chart_decimate_full() sees it: -1 before
 * [t0, t1], @columns after it, else its column. */
static double
column_position (double   xv,
                 double   t0,
                 double   span,
                 double   t1,
                 guint    columns,
                 gboolean x_log)
{
  double t = x_log ? (xv > 0 ? log10 (xv) : -INFINITY) : xv;
  double c;

  if (t < t0)
    return -1;
  if (t > t1)
    return columns;
  c = floor ((t - t0) / span * columns);
  return c >= columns ? columns - 1 : c;
}

/* The first index in [lo, hi) at column @c or after. */
static gsize
column_start (const double *x,
              gsize         lo,
              gsize         hi,
              double        c,
              double        t0,
              double        span,
              double        t1,
              guint         columns,
              gboolean      x_log)
{
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (column_position (x ? x[mid] : (double) mid, t0, span, t1, columns, x_log) < c)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

void
procura_chart_reduce_columns (ProcuraReduceCache **cache,
                              const double        *x,
                              const double        *y,
                              gsize                n,
                              gboolean             x_sorted,
                              double               x0,
                              double               x1,
                              gboolean             x_log,
                              guint                columns,
                              ProcuraColumn       *out)
{
  double t0, t1;
  const Pyramid *p;
  gsize start;

  if (x_log)
    {
      t0 = x0 > 0 ? log10 (x0) : NAN;
      t1 = x1 > 0 ? log10 (x1) : NAN;
    }
  else
    {
      t0 = x0;
      t1 = x1;
    }
  if (!x_sorted || reduce_mode == PROCURA_REDUCE_NEVER || n == 0 || y == NULL || columns == 0
      || !(t1 > t0) || !isfinite (t1 - t0))
    {
      /* the full pass knows every other case (unsorted, an empty or a zero-width range) */
      procura_chart_decimate_full (x, y, n, x0, x1, x_log, columns, x_sorted, out);
      return;
    }

  p = pyramid_get (cache_get (cache), y, n);
  for (guint c = 0; c < columns; c++)
    {
      out[c].min = out[c].max = out[c].first = out[c].last = NAN;
      out[c].count = 0;
    }
  /* the columns' index ranges follow from binary searches on x; points past t1 are
   * in no column (position @columns) */
  start = column_start (x, 0, n, 0, t0, t1 - t0, t1, columns, x_log);
  for (guint c = 0; c < columns && start < n; c++)
    {
      gsize end = column_start (x, start, n, c + 1, t0, t1 - t0, t1, columns, x_log);
      ProcuraColumn *col = &out[c];
      double mn, mx;
      gsize count;

      if (end > start)
        {
          pyramid_query (p, start, end, &mn, &mx, &count);
          if (count > 0)
            {
              col->min = mn;
              col->max = mx;
              col->first = y[first_number (p, start, end)];
              col->last = y[last_number (p, start, end)];
              col->count = count;
            }
        }
      start = end;
    }
}

/* ------------------------------------------------------------------------- */
/* Column fills                                                               */

static gboolean
is_vector_target (cairo_t *cr)
{
  switch (cairo_surface_get_type (cairo_get_target (cr)))
    {
    case CAIRO_SURFACE_TYPE_PDF:
    case CAIRO_SURFACE_TYPE_PS:
    case CAIRO_SURFACE_TYPE_SVG:
    case CAIRO_SURFACE_TYPE_SCRIPT:
      return TRUE;
    default:
      return FALSE;
    }
}

void
procura_chart_reduce_fill_columns (cairo_t                 *cr,
                                   double                   px,
                                   double                   pw,
                                   guint                    cols,
                                   const double            *top,
                                   const double            *bottom,
                                   double                   device_scale,
                                   const ProcuraChartColor *color,
                                   double                   alpha)
{
  double colw = pw / MAX (cols, 1);
  double y0 = INFINITY, y1 = -INFINITY;
  cairo_surface_t *mask;
  cairo_pattern_t *pattern;
  unsigned char *data;
  int stride, mh;

  cairo_save (cr);
  cairo_set_source_rgba (cr, color->r, color->g, color->b, color->a * alpha);
  for (guint k = 0; k < cols; k++)
    if (bottom[k] > top[k])
      {
        y0 = MIN (y0, top[k]);
        y1 = MAX (y1, bottom[k]);
      }
  if (!(y1 > y0) || !(device_scale > 0) || cols == 0)
    {
      cairo_restore (cr);
      return;
    }
  if (is_vector_target (cr) || (y1 - y0) * device_scale > 1e5 || cols > 100000)
    {
      cairo_new_path (cr);
      for (guint k = 0; k < cols; k++)
        if (bottom[k] > top[k])
          cairo_rectangle (cr, px + k * colw, top[k], colw, bottom[k] - top[k]);
      cairo_fill (cr);
      cairo_restore (cr);
      return;
    }

  /* one mask pixel per column across, device pixels down, from y0 */
  y0 = floor (y0 * device_scale) / device_scale;
  mh = (int) ceil ((y1 - y0) * device_scale) + 1;
  mask = cairo_image_surface_create (CAIRO_FORMAT_A8, (int) cols, mh);
  cairo_surface_flush (mask);
  data = cairo_image_surface_get_data (mask);
  stride = cairo_image_surface_get_stride (mask);
  memset (data, 0, (gsize) stride * mh);
  for (guint k = 0; k < cols; k++)
    {
      double a, b;
      int ra, rb;

      if (!(bottom[k] > top[k]))
        continue;
      a = (top[k] - y0) * device_scale;
      b = (bottom[k] - y0) * device_scale;
      ra = (int) floor (a);
      rb = MIN ((int) ceil (b), mh);
      for (int r = MAX (ra, 0); r < rb; r++)
        {
          double cover;

          if (r > ra && r + 1 < rb)
            {
              data[(gsize) r * stride + k] = 255;   /* a whole pixel inside */
              continue;
            }
          cover = MIN (b, r + 1.0) - MAX (a, (double) r);
          data[(gsize) r * stride + k] = (unsigned char) (CLAMP (cover, 0, 1) * 255 + 0.5);
        }
    }
  cairo_surface_mark_dirty (mask);
  cairo_surface_set_device_scale (mask, cols / pw, device_scale);
  pattern = cairo_pattern_create_for_surface (mask);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  cairo_translate (cr, px, y0);
  cairo_mask (cr, pattern);
  cairo_pattern_destroy (pattern);
  cairo_surface_destroy (mask);
  cairo_restore (cr);
}

/* ------------------------------------------------------------------------- */
/* Scatter density                                                            */

/* Device pixel = data value × scale + offset along one axis (log10 first when log). */
static void
axis_affine (const ProcuraReduceMap *m,
             double                  origin,
             double                  device_scale,
             double                 *scale,
             double                 *offset)
{
  double tl = m->log ? log10 (m->lo) : m->lo;
  double th = m->log ? log10 (m->hi) : m->hi;

  if (th == tl || !isfinite (th - tl))
    {
      *scale = 0;
      *offset = ((m->p0 + m->p1) / 2 - origin) * device_scale;
      return;
    }
  *scale = (m->p1 - m->p0) / (th - tl) * device_scale;
  *offset = (m->p0 - origin) * device_scale - tl * *scale;
}

static gboolean
same_map (const ProcuraReduceMap *a,
          const ProcuraReduceMap *b)
{
  return a->lo == b->lo && a->hi == b->hi && a->log == b->log && a->p0 == b->p0 && a->p1 == b->p1;
}

static void
count_points (ProcuraReduceCache     *c,
              const double           *x,
              const double           *y,
              gsize                   n,
              const ProcuraReduceMap *mx,
              const ProcuraReduceMap *my,
              double                  px,
              double                  py,
              double                  device_scale)
{
  double kx, bx, ky, by;
  double w = c->cw, h = c->ch;

  memset (c->counts, 0, (gsize) c->cw * c->ch * sizeof (guint32));
  axis_affine (mx, px, device_scale, &kx, &bx);
  axis_affine (my, py, device_scale, &ky, &by);
  for (gsize i = 0; i < n; i++)
    {
      double xv = x ? x[i] : (double) i, yv = y[i];
      double fx, fy;

      if (!isfinite (xv) || !isfinite (yv))
        continue;
      if (mx->log)
        {
          if (!(xv > 0))
            continue;
          xv = log10 (xv);
        }
      if (my->log)
        {
          if (!(yv > 0))
            continue;
          yv = log10 (yv);
        }
      fx = xv * kx + bx;
      fy = yv * ky + by;
      if (!(fx >= 0 && fx < w && fy >= 0 && fy < h))
        continue;
      c->counts[(gsize) fy * c->cw + (gsize) fx]++;
    }
}

/* Each pixel holding points gets a dot of @d × @d device pixels; a pixel's shade
 * follows the points under it, on a log scale up to the densest. */
static cairo_surface_t *
density_image (const ProcuraReduceCache *c,
               int                       d,
               double                    device_scale,
               const ProcuraChartColor  *color,
               double                    alpha)
{
  int iw = c->cw + d - 1, ih = c->ch + d - 1;
  guint32 *sum = g_new0 (guint32, (gsize) iw * ih);
  guint32 top = 0;
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, iw, ih);
  unsigned char *data;
  int stride;
  double scale;

  for (int v = 0; v < c->ch; v++)
    for (int u = 0; u < c->cw; u++)
      {
        guint32 k = c->counts[(gsize) v * c->cw + u];

        if (k == 0)
          continue;
        for (int j = 0; j < d; j++)
          for (int i = 0; i < d; i++)
            {
              guint32 *s = &sum[(gsize) (v + j) * iw + u + i];

              *s = *s > G_MAXUINT32 - k ? G_MAXUINT32 : *s + k;
              top = MAX (top, *s);
            }
      }

  cairo_surface_flush (image);
  data = cairo_image_surface_get_data (image);
  stride = cairo_image_surface_get_stride (image);
  scale = top > 1 ? 1 / log1p ((double) top) : 0;
  for (int v = 0; v < ih; v++)
    {
      guint32 *row = (guint32 *) (gpointer) (data + (gsize) v * stride);

      for (int u = 0; u < iw; u++)
        {
          guint32 k = sum[(gsize) v * iw + u];
          double shade, a;
          guint32 A;

          if (k == 0)
            {
              row[u] = 0;
              continue;
            }
          shade = 0.55 + 0.45 * log1p ((double) k) * scale;
          a = CLAMP (color->a * alpha * shade, 0, 1);
          A = (guint32) lround (a * 255);
          row[u] = (A << 24)
                   | ((guint32) lround (CLAMP (color->r, 0, 1) * A) << 16)
                   | ((guint32) lround (CLAMP (color->g, 0, 1) * A) << 8)
                   | (guint32) lround (CLAMP (color->b, 0, 1) * A);
        }
    }
  g_free (sum);
  cairo_surface_mark_dirty (image);
  cairo_surface_set_device_scale (image, device_scale, device_scale);
  return image;
}

gboolean
procura_chart_reduce_scatter (ProcuraReduceCache      **cache,
                              cairo_t                  *cr,
                              const double             *x,
                              const double             *y,
                              gsize                     n,
                              const ProcuraReduceMap   *mx,
                              const ProcuraReduceMap   *my,
                              double                    px,
                              double                    py,
                              double                    pw,
                              double                    ph,
                              double                    device_scale,
                              const ProcuraChartColor  *color,
                              double                    alpha)
{
  ProcuraReduceCache *c;
  int w, h, d;

  if (reduce_mode == PROCURA_REDUCE_NEVER || y == NULL || n == 0)
    return FALSE;
  if (!(device_scale > 0) || !(pw > 0) || !(ph > 0) || pw * device_scale > 1e5 || ph * device_scale > 1e5)
    return FALSE;
  c = cache_get (cache);
  w = (int) MAX (1, ceil (pw * device_scale));
  h = (int) MAX (1, ceil (ph * device_scale));
  d = (int) MAX (1, lround (2 * device_scale));

  if (c->counts == NULL || c->cw != w || c->ch != h || c->sx != x || c->sy != y || c->sn != n
      || !same_map (&c->smx, mx) || !same_map (&c->smy, my) || c->spx != px || c->spy != py
      || c->spw != pw || c->sph != ph || c->sscale != device_scale)
    {
      g_free (c->counts);
      c->cw = w;
      c->ch = h;
      c->counts = g_new (guint32, (gsize) w * h);
      count_points (c, x, y, n, mx, my, px, py, device_scale);
      c->sx = x;
      c->sy = y;
      c->sn = n;
      c->smx = *mx;
      c->smy = *my;
      c->spx = px;
      c->spy = py;
      c->spw = pw;
      c->sph = ph;
      c->sscale = device_scale;
      g_clear_pointer (&c->image, cairo_surface_destroy);
    }
  if (c->image == NULL || memcmp (&c->icolor, color, sizeof *color) != 0 || c->ialpha != alpha)
    {
      g_clear_pointer (&c->image, cairo_surface_destroy);
      c->image = density_image (c, d, device_scale, color, alpha);
      c->icolor = *color;
      c->ialpha = alpha;
    }

  cairo_save (cr);
  cairo_set_source_surface (cr, c->image, px, py);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_restore (cr);
  return TRUE;
}

/* ------------------------------------------------------------------------- */
/* Bands                                                                      */

/* the chart kit's one data-to-pixel rule (procura-chart-layout.c) */
static double
map_to_pixel (const ProcuraReduceMap *m,
              double                  v)
{
  ProcuraChartMap map = { m->lo, m->hi, m->log, m->p0, m->p1 };

  return procura_chart_map_value (&map, v);
}

gboolean
procura_chart_reduce_band (ProcuraReduceCache      **cache,
                           cairo_t                  *cr,
                           const double             *x,
                           const double             *lo,
                           const double             *hi,
                           gsize                     n,
                           gboolean                  x_sorted,
                           const ProcuraReduceMap   *mx,
                           const ProcuraReduceMap   *my,
                           double                    px,
                           double                    pw,
                           double                    device_scale,
                           const ProcuraChartColor  *color,
                           double                    alpha)
{
  guint cols;
  double colw;
  ProcuraColumn *lc, *hc;
  double *tops, *bottoms;
  long prev = -2;
  double prev_lo = NAN, prev_hi = NAN;

  if (!x_sorted || lo == NULL || hi == NULL || n == 0 || !(device_scale > 0) || !(pw > 0)
      || pw * device_scale > 1e5)
    return FALSE;
  cols = (guint) MAX (1, ceil (pw * device_scale));
  if (!procura_chart_reduce_wanted (n, cols))
    return FALSE;
  colw = pw / cols;
  lc = g_new (ProcuraColumn, cols);
  hc = g_new (ProcuraColumn, cols);
  procura_chart_reduce_columns (cache, x, lo, n, TRUE, mx->lo, mx->hi, mx->log, cols, lc);
  procura_chart_reduce_columns (cache, x, hi, n, TRUE, mx->lo, mx->hi, mx->log, cols, hc);

  tops = g_new (double, cols);
  bottoms = g_new (double, cols);
  cairo_save (cr);
  cairo_new_path (cr);
  for (guint k = 0; k < cols; k++)
    {
      double top, bottom, left = px + k * colw;

      tops[k] = bottoms[k] = NAN;
      if (lc[k].count == 0 || hc[k].count == 0)
        continue;
      top = map_to_pixel (my, hc[k].max);
      bottom = map_to_pixel (my, lc[k].min);
      if (prev == (long) k - 1)
        {
          /* joined to the column before, as the band runs on from its last point */
          top = MIN (top, map_to_pixel (my, prev_hi));
          bottom = MAX (bottom, map_to_pixel (my, prev_lo));
        }
      else if (prev >= 0)
        {
          /* across empty columns: straight from the last point to the first */
          double prev_right = px + (prev + 1) * colw;

          cairo_move_to (cr, prev_right, map_to_pixel (my, prev_hi));
          cairo_line_to (cr, left, map_to_pixel (my, hc[k].first));
          cairo_line_to (cr, left, map_to_pixel (my, lc[k].first));
          cairo_line_to (cr, prev_right, map_to_pixel (my, prev_lo));
          cairo_close_path (cr);
        }
      tops[k] = top;
      bottoms[k] = bottom;
      prev = k;
      prev_lo = lc[k].last;
      prev_hi = hc[k].last;
    }
  cairo_set_source_rgba (cr, color->r, color->g, color->b, color->a * alpha);
  cairo_fill (cr);
  cairo_restore (cr);
  procura_chart_reduce_fill_columns (cr, px, pw, cols, tops, bottoms, device_scale, color, alpha);
  g_free (tops);
  g_free (bottoms);
  g_free (lc);
  g_free (hc);
  return TRUE;
}
