/* procura-figures.h: the standard comparison figures of a project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "procura-model.h"
#include "procura-chart.h"

G_BEGIN_DECLS

/* The figure names of the command line, in order. */
extern const char * const procura_figure_names[];

G_END_DECLS
