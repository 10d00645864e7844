/* procura-chart-private.h: the chart spec's insides, shared by the chart's files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

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
/* TRUE when @s is hidden, or is a helper series (not in the legend) of a hidden series
 * of the same colour, such as a line's confidence band. */
gboolean procura_chart_series_is_hidden (const ProcuraChart                *chart,
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
  gboolean    hidden;     /* toggled off in the legend: not drawn, not looked up */
  gboolean    x_sorted;   /* x ascending (or implicit) */
  gboolean    data_space; /* line segments straight in data space, curved on a log axis */
  /* finite bounds of the data, and the smallest positive values for log axes */
  double      x_min, x_max, y_min, y_max, x_min_pos, y_min_pos;
  /* decimation cache */
  ProcuraColumn *cols;
  guint       n_cols;
  double      cols_x0, cols_x1;
  gboolean    cols_log;
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
  ProcuraChartLayout     layout;
  /* geometry of category charts from the last draw */
  double                 slot_fraction;
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

G_END_DECLS
