/* procura-chart.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-chart.h"

void
procura_chart_placeholder (cairo_t *cr, int width, int height)
{
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_stroke (cr);
}
