/* chart-legible.h: asserts that a drawn chart's texts are legible
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the chart and figure tests: no two text boxes of a layout overlap, none
 * is cut by the edge of the surface, and none lies under an area the caller reserved.
 */
#pragma once

#include <glib.h>

#include "procura-chart.h"

static inline gboolean
chart_boxes_overlap (const ProcuraChartTextBox *a,
                     const ProcuraChartTextBox *b)
{
  /* a hair of tolerance for boxes that merely touch */
  return a->x < b->x + b->width - 0.5 && b->x < a->x + a->width - 0.5
         && a->y < b->y + b->height - 0.5 && b->y < a->y + a->height - 0.5;
}

/* Counts (and names, in the test's log) the text boxes that overlap another, leave
 * the width x height surface or cover @reserved (may be NULL). */
static inline guint
chart_count_collisions (const ProcuraChartLayout *layout,
                        const char               *what,
                        double                    width,
                        double                    height,
                        const double             *reserved)
{
  guint n = procura_chart_layout_get_n_texts (layout), bad = 0;

  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    {
      const ProcuraChartTextBox *a = procura_chart_layout_get_text (layout, i);

      if (a->x < -0.5 || a->y < -0.5 || a->x + a->width > width + 0.5 || a->y + a->height > height + 0.5)
        {
          g_test_message ("%s at %g×%g: \"%s\" (%g, %g, %g × %g) is cut by the edge", what, width, height,
                          a->text, a->x, a->y, a->width, a->height);
          bad++;
        }
      if (reserved != NULL)
        {
          ProcuraChartTextBox r = { 0, reserved[0], reserved[1], reserved[2], reserved[3], NULL, FALSE, 1 };

          if (chart_boxes_overlap (a, &r))
            {
              g_test_message ("%s at %g×%g: \"%s\" runs under the reserved area", what, width, height,
                              a->text);
              bad++;
            }
        }
      for (guint k = i + 1; k < n; k++)
        {
          const ProcuraChartTextBox *b = procura_chart_layout_get_text (layout, k);

          if (chart_boxes_overlap (a, b))
            {
              g_test_message ("%s at %g×%g: \"%s\" (%g, %g, %g × %g) overlaps \"%s\" (%g, %g, %g × %g)",
                              what, width, height, a->text, a->x, a->y, a->width, a->height, b->text, b->x,
                              b->y, b->width, b->height);
              bad++;
            }
        }
    }
  return bad;
}

/* Fails the test when chart_count_collisions() finds any (they are in the log). */
static inline void
chart_assert_legible (const ProcuraChartLayout *layout,
                      const char               *what,
                      double                    width,
                      double                    height,
                      const double             *reserved)
{
  g_assert_cmpuint (chart_count_collisions (layout, what, width, height, reserved), ==, 0);
}
