/* procura-chart-view.h: a live chart widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Draws a ProcuraChart (src/chart) in snapshot, with colours from the style (dark and
 * high contrast follow), the static drawing cached as a render node, tooltips at the
 * nearest point, keyboard navigation between points (arrows), and the chart's summary
 * as its accessible label (role "img").
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PROCURA_TYPE_CHART_VIEW (procura_chart_view_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraChartView, procura_chart_view, PROCURA, CHART_VIEW, GtkWidget)

typedef struct _ProcuraChart ProcuraChart;
typedef struct _ProcuraChartLayout ProcuraChartLayout;

GtkWidget    *procura_chart_view_new        (void);
/* Takes a reference; NULL shows nothing. */
void          procura_chart_view_set_chart  (ProcuraChartView *self,
                                             ProcuraChart     *chart);
ProcuraChart *procura_chart_view_get_chart  (ProcuraChartView *self);
/* Multiplies the theme's font size and line width (presentation mode). */
void          procura_chart_view_set_scale  (ProcuraChartView *self,
                                             double            scale);
/* Where this view last drew its chart (owned by the view; each view has its own). */
const ProcuraChartLayout *procura_chart_view_get_layout (ProcuraChartView *self);
/* Buttons laid over the chart (a card's header): the chart keeps its title and labels
 * clear of where @overlay is (held weakly; NULL: none). */
void          procura_chart_view_set_overlay (ProcuraChartView *self,
                                              GtkWidget        *overlay);
/* Legend toggles: hides or shows the series called @name (and its band) in this view
 * only (another view of the same spec, such as its slide, keeps its own choice). The
 * choice is kept by name, so it survives a rebuilt chart (new SLO or demand). */
void          procura_chart_view_set_series_hidden (ProcuraChartView *self,
                                                    const char       *name,
                                                    gboolean          hidden);
gboolean      procura_chart_view_get_series_hidden (ProcuraChartView *self,
                                                    const char       *name);
/* The accessible summary as set (for tests); NULL without a chart. */
const char   *procura_chart_view_get_summary (ProcuraChartView *self);
/* Moves the keyboard cursor; returns the description of the point now selected. */
char         *procura_chart_view_describe_cursor (ProcuraChartView *self);
/* Writes the chart as PNG, SVG or PDF (from the extension) in the light theme, as this
 * view shows it: the series hidden in its legend are left out. */
gboolean      procura_chart_view_export     (ProcuraChartView *self,
                                             const char       *path,
                                             GError          **error);

G_END_DECLS
