/* procura-chart-private.h: the chart spec's insides, shared by the chart's files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <pango/pangocairo.h>

#include "procura-chart.h"
#include "procura-chart-reduce.h"

G_BEGIN_DECLS

typedef struct {
  char              *label;
  ProcuraChartUnit   unit;
  ProcuraChartScale  scale;
  double             min, max;     /* NAN = auto */
  gboolean           include_zero;
} ProcuraChartAxis;

struct _ProcuraChartSeries;
/* TRUE when @layout (the view's choice; NULL: nothing hidden) hides @s, or @s is a
 * helper series (not in the legend) of a hidden series of the same colour, such as a
 * line's confidence band. */
gboolean procura_chart_series_is_hidden (const ProcuraChart                *chart,
                                         const struct _ProcuraChartLayout  *layout,
                                         const struct _ProcuraChartSeries *s);

struct _ProcuraChartSeries {
  ProcuraSeriesKind kind;
  char       *name;
  double     *x;          /* NULL: 0, 1, 2, ... */
  double     *y;
  double     *y_low;
  double     *y_high;
  gsize       n;
  int         color;      /* -1 auto */
  ProcuraDash dash;
  ProcuraMarker marker;
  gboolean    struck_out;
  char       *reason;
  gboolean    estimate;
  gboolean    in_legend;
  gboolean    x_sorted;   /* x ascending (or implicit) */
  gboolean    data_space; /* line segments straight in data space, curved on a log axis */
  /* finite bounds of the data, and the smallest positive values for log axes */
  double      x_min, x_max, y_min, y_max, x_min_pos, y_min_pos;
  /* pyramids and densities of the data, dropped when the data change */
  ProcuraReduceCache *reduce;
};

typedef enum {
  PROCURA_ANNOT_HLINE,
  PROCURA_ANNOT_VLINE,
  PROCURA_ANNOT_MARKER,
  PROCURA_ANNOT_CALLOUT,
  PROCURA_ANNOT_SHADED,
  PROCURA_ANNOT_LABEL,
} ProcuraAnnotKind;

typedef struct {
  ProcuraAnnotKind kind;
  double x, y, x1, y1;
  char  *label;
} ProcuraAnnot;

struct _ProcuraChart {
  gatomicrefcount        ref_count;
  char                  *title;
  char                  *subtitle;
  char                  *message;
  char                  *description;
  ProcuraChartAxis       axis[2];
  ProcuraLegendPosition  legend;
  ProcuraOrientation     orientation;
  GPtrArray             *categories;     /* char* */
  GPtrArray             *category_reasons; /* char* or NULL, parallel to categories */
  gboolean               bar_totals;
  gboolean               bars_overlap;
  GPtrArray             *series;         /* ProcuraChartSeries* */
  GArray                *annots;         /* ProcuraAnnot */
  guint64                id;             /* unique per spec: a layout knows what it drew */
  /* money (PROCURA_UNIT_DOLLARS) is written with this sign before it ("€"), or with
   * this code after it ("CHF"); both NULL: "$" */
  char                  *money_before;
  char                  *money_after;
};

/* @text (taken) formatted in @unit, with the chart's currency for money. */
char *procura_chart_money_text (const ProcuraChart *chart,
                                ProcuraChartUnit    unit,
                                char               *text);

static inline char *
procura_chart_value_text (const ProcuraChart *chart,
                          double              value,
                          ProcuraChartUnit    unit)
{
  return procura_chart_money_text (chart, unit, procura_chart_format_value (value, unit));
}

static inline char *
procura_chart_tick_text (const ProcuraChart *chart,
                         double              value,
                         ProcuraChartUnit    unit,
                         const ProcuraTicks *ticks)
{
  return procura_chart_money_text (chart, unit, procura_chart_format_tick (value, unit, ticks));
}

/* Decimation with a known sortedness (-1: detect). */
void procura_chart_decimate_full (const double  *x,
                                  const double  *y,
                                  gsize          n,
                                  double         x0,
                                  double         x1,
                                  gboolean       x_log,
                                  guint          columns,
                                  int            sorted_hint,
                                  ProcuraColumn *out);

gboolean procura_chart_is_category (const ProcuraChart *chart);

/* A point of the segment from (x0, y0) to (x1, y1) at fraction f, as the line is drawn:
 * straight in each axis' drawing space (log10 on a log axis), or in data space. */
void procura_chart_segment_point (gboolean  x_log,
                                  gboolean  y_log,
                                  gboolean  data_space,
                                  double    x0,
                                  double    y0,
                                  double    x1,
                                  double    y1,
                                  double    f,
                                  double   *x,
                                  double   *y);

/* ------------------------------------------------------------------------- */
/* The layout (procura-chart-layout.c) and the drawing (procura-chart-draw.c)  */

typedef struct {
  double lo, hi;
  gboolean log;
  double p0, p1;
} ProcuraChartMap;

typedef struct {
  double x, y, w, h;
} ProcuraChartRect;

double procura_chart_map_value   (const ProcuraChartMap *m,
                                  double                 v);
double procura_chart_unmap_value (const ProcuraChartMap *m,
                                  double                 p);

/* One text of a draw: what to show and how (for the drawing), and its box (for tests,
 * tooltips and the placement of the next labels). */
typedef struct {
  ProcuraChartTextBox box;        /* box.text points at full */
  char          *full;            /* the plain text */
  char          *shown;           /* text or markup as given to Pango */
  gboolean       markup;
  double         size;            /* factor of the body font size */
  gboolean       bold;
  double         max_width;       /* <= 0: no limit */
  int            max_lines;
  int            align;           /* PangoAlignment */
  double         tx, ty;          /* where the Pango layout's top-left goes */
  gboolean       rotated;         /* turned a quarter anticlockwise about (tx, ty) */
  double         alpha;
  gboolean       halo;            /* a background box behind the text */
  gboolean       boxed;           /* a callout's border */
  gboolean       leader;          /* a line from the anchor to the box */
  double         ax, ay;          /* the anchor (annotations) */
} ProcuraChartText;

typedef struct {
  guint  series;
  double x, y, h;                 /* the swatch's left edge, top and height */
} ProcuraChartSwatch;

typedef struct {
  const void    *series;          /* ProcuraChartSeries*, a key only */
  ProcuraColumn *cols;
  guint          n_cols;
  double         x0, x1;
  gboolean       log;
} ProcuraChartColumns;

struct _ProcuraChartLayout {
  guint64            chart_id;     /* the spec last drawn; 0 none */
  double             width, height;
  ProcuraChartPlot   plot;
  gboolean           category;
  gboolean           horizontal;
  ProcuraChartRect   reserved;     /* w 0: none; as the caller gave it */
  GHashTable        *hidden;       /* names of the legend entries this view hides */
  GArray            *texts;        /* ProcuraChartText */
  GArray            *swatches;     /* ProcuraChartSwatch (legend) */
  gboolean           legend_boxed; /* a legend inside the plot gets a background */
  ProcuraChartRect   legend_rect;
  guint64            columns_chart_id;
  GArray            *columns;      /* ProcuraChartColumns, the decimation cache */
};

/* A bar: labels keep off it when they can, off other categories' bars always */
typedef struct {
  ProcuraChartRect r;
  int              cat;
} ProcuraChartSoft;

/* One draw in progress: the spec, the surface, the theme and what the layout
 * decided. Made by procura_chart_draw(), filled by procura_chart_lay_out(). */
typedef struct {
  ProcuraChart            *chart;
  ProcuraChartLayout      *l;
  cairo_t                 *cr;
  const ProcuraChartTheme *t;
  PangoLayout             *pl;
  double                   w, h;
  double                   fs;
  double                   pad;
  double                   lw;
  gboolean                 has_data;
  gboolean                 category;
  gboolean                 horizontal;
  guint                    n_cat;
  ProcuraChartMap          mx, my;
  ProcuraTicks             xt, yt;     /* xt/yt: ticks of the x and y value axes */
  double                   px, py, pw, ph;
  GArray                  *marks;      /* ProcuraChartRect: marks labels keep off */
  GArray                  *soft;       /* ProcuraChartSoft: bars labels avoid */
  double                   device_scale;
  guint                    n_notes;    /* lines kept for dropped labels under the legend */
  guint                    n_dropped;  /* labels the last placement dropped to the notes */
} ProcuraChartCtx;

/* Pango */
void procura_chart_text_set  (ProcuraChartCtx *c,
                              const char      *text,
                              gboolean         markup,
                              double           size_factor,
                              gboolean         bold,
                              double           max_width,
                              int              max_lines);
void procura_chart_text_size (ProcuraChartCtx *c,
                              double          *w,
                              double          *h);

/* Lays the chart out into c->l: the plot, the scales, every text box (with
 * collision avoidance for the labels). FALSE when the chart has no data (then only
 * the titles and the message were laid out). */
gboolean procura_chart_lay_out (ProcuraChartCtx *c);

/* Geometry shared by the layout and the drawing */
static inline gboolean
procura_chart_series_is_bar (const ProcuraChartSeries *s)
{
  return s->kind == PROCURA_SERIES_BAR || s->kind == PROCURA_SERIES_STACKED_BAR
         || s->kind == PROCURA_SERIES_BOX;
}

/* Mapping a data point to pixels; in category charts x is the category and y the value. */
static inline void
procura_chart_to_px (const ProcuraChartCtx *c,
                     double                 x,
                     double                 y,
                     double                *px,
                     double                *py)
{
  if (c->category && c->horizontal)
    {
      *px = procura_chart_map_value (&c->mx, y);
      *py = procura_chart_map_value (&c->my, x);
    }
  else
    {
      *px = procura_chart_map_value (&c->mx, x);
      *py = procura_chart_map_value (&c->my, y);
    }
}

static inline const ProcuraChartMap *
procura_chart_value_map (const ProcuraChartCtx *c)
{
  return c->category && c->horizontal ? &c->mx : &c->my;
}

/* Category geometry: the rectangle of a bar from value a to b in category cat,
 * offset along the category axis by @offset with thickness @thick. */
void procura_chart_bar_rect     (const ProcuraChartCtx *c,
                                 guint                  cat,
                                 double                 offset,
                                 double                 thick,
                                 double                 a,
                                 double                 b,
                                 ProcuraChartRect      *r);
void procura_chart_bar_geometry (const ProcuraChartCtx *c,
                                 guint                  series_index,
                                 double                *offset,
                                 double                *thick);
double procura_chart_slot_size  (const ProcuraChartCtx *c);

/* The pixel position of a line annotation; FALSE when it is off the plot. */
gboolean procura_chart_annot_line_position  (const ProcuraChartCtx *c,
                                             const ProcuraAnnot    *a,
                                             gboolean              *horizontal_line,
                                             double                *p);
gboolean procura_chart_annot_point_position (const ProcuraChartCtx *c,
                                             const ProcuraAnnot    *a,
                                             double                *px,
                                             double                *py);

/* The pixel rectangle of a shaded region, clamped to the plot */
void procura_chart_shaded_rect (const ProcuraChartCtx *c,
                                const ProcuraAnnot    *a,
                                ProcuraChartRect      *r);

/* The decimation cache of series @s for this draw's columns (made when missing). */
const ProcuraColumn *procura_chart_layout_columns (ProcuraChartLayout       *layout,
                                                  ProcuraChartSeries       *s,
                                                  guint                     cols,
                                                  double                    x0,
                                                  double                    x1,
                                                  gboolean                  log);

G_END_DECLS
