/* procura-chart.h: charts from plain series onto any cairo_t
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* PLACEHOLDER: the chart kit arrives with the charts issue. */
void procura_chart_placeholder (cairo_t *cr, int width, int height);

G_END_DECLS
