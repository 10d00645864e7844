/* procura-figures.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-figures.h"

const char * const procura_figure_names[] = {
  "cost-curve", "latency", "breakdown", "memory", "pareto", "break-even", "cdf",
  "sensitivity", "fit-map", NULL
};
