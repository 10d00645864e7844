/* procura-chart-reduce.h: drawing millions of points at the cost of the pixels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a chart draws of a big series depends on the pixels, not on the points: a line
 * is its min/max envelope per pixel column, a scatter is its density per pixel, a band
 * is its lowest low and highest high per pixel column. The work that depends on the
 * points is done once per data set and kept in a ProcuraReduceCache that hangs off the
 * series (dropped whenever its data change); a redraw, a zoom or a resize then costs
 * about as much as the pixels.
 *
 * - Lines and bands with ascending x: a min/max pyramid over the values (blocks of 64,
 *   then pairs of blocks, ...) answers a pixel column's exact min, max and count in
 *   O(log n), so a zoom costs O(columns · log n) and no pass over the points.
 * - Scatter: the number of points in each device pixel, counted once per plot geometry
 *   and range; a redraw paints the cached image.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "procura-chart.h"

G_BEGIN_DECLS

/* A data axis as drawn: the data range [lo, hi] (log10 when @log) lands on pixels
 * [p0, p1] (user units; p1 < p0 for a y axis). */
typedef struct {
  double   lo, hi;
  gboolean log;
  double   p0, p1;
} ProcuraReduceMap;

typedef enum {
  PROCURA_REDUCE_AUTO,    /* reduce when the series has more points than pixels to draw */
  PROCURA_REDUCE_ALWAYS,  /* reduce whenever possible, even for a few points (tests) */
  PROCURA_REDUCE_NEVER,   /* draw every point as it is (tests, benchmarks) */
} ProcuraReduceMode;

/* For tests and benchmarks: the process-wide mode, PROCURA_REDUCE_AUTO by default. */
void              procura_chart_reduce_set_mode (ProcuraReduceMode mode);
ProcuraReduceMode procura_chart_reduce_get_mode (void);

/* Whether a series of @n points drawn over @columns device pixel columns is drawn
 * reduced: AUTO when it has more than 3 points a column, ALWAYS, or NEVER. */
gboolean          procura_chart_reduce_wanted   (gsize n,
                                                 guint columns);

typedef struct _ProcuraReduceCache ProcuraReduceCache;

/* Frees the cache and sets *@cache to NULL; call whenever the series' data change. */
void procura_chart_reduce_cache_clear (ProcuraReduceCache **cache);

/* procura_chart_decimate_full(), answered from a min/max pyramid built once per @y
 * (kept in *@cache) when @x_sorted (ascending x, or @x NULL for 0, 1, 2, ...); the
 * same exact columns. Unsorted x, or the NEVER mode, falls back to the full pass. */
void procura_chart_reduce_columns (ProcuraReduceCache **cache,
                                   const double        *x,
                                   const double        *y,
                                   gsize                n,
                                   gboolean             x_sorted,
                                   double               x0,
                                   double               x1,
                                   gboolean             x_log,
                                   guint                columns,
                                   ProcuraColumn       *out);

/* Fills @cols columns of width @pw / @cols from x = @px, column k from @top[k] down to
 * @bottom[k] (user units; NAN: nothing), in one operation: on raster targets (image,
 * recording) as a coverage mask written column by column, the cost of the pixels; on
 * vector targets (PDF, SVG, PS) as rectangles. */
void procura_chart_reduce_fill_columns (cairo_t                 *cr,
                                        double                   px,
                                        double                   pw,
                                        guint                    cols,
                                        const double            *top,
                                        const double            *bottom,
                                        double                   device_scale,
                                        const ProcuraChartColor *color,
                                        double                   alpha);

/* Draws a scatter of @n points as their density per device pixel: a pixel holding a
 * point gets a dot of 2 units, shaded from half the colour's alpha (a lone point) to
 * the full alpha (the densest pixel). The plot is [px, px + pw] × [py, py + ph] in user
 * units, @device_scale device pixels per unit. The counts are kept in *@cache for the
 * same geometry and ranges, the image for the same colour: a redraw only paints it.
 * Returns FALSE, drawing nothing, in the NEVER mode. */
gboolean procura_chart_reduce_scatter (ProcuraReduceCache      **cache,
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
                                       double                    alpha);

/* Fills a band between @lo and @hi (ascending @x) as one shape made of a rectangle per
 * device pixel column, from the column's lowest @lo to its highest @hi (joined to the
 * neighbouring column's last values), so that a band of 25 M points (an empirical
 * CDF's confidence band) costs its columns. Returns FALSE, drawing nothing, when @x is
 * not ascending or procura_chart_reduce_wanted() says no: then draw the band point
 * by point. */
gboolean procura_chart_reduce_band (ProcuraReduceCache      **cache,
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
                                    double                    alpha);

G_END_DECLS
