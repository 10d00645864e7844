/* procura-figures.h: the standard comparison figures of a project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each figure is a ProcuraChart built from a project and its analysis; the GUI, the
 * CLI (`procura render`) and the report draw them. A project without the data a
 * figure needs gets a chart that says what is missing, never an error.
 */
#pragma once

#include "procura-model.h"
#include "procura-chart.h"
#include "procura-analysis.h"

G_BEGIN_DECLS

#define PROCURA_FIGURE_ERROR (procura_figure_error_quark ())
typedef enum {
  PROCURA_FIGURE_ERROR_UNKNOWN,   /* no figure of that name */
} ProcuraFigureError;
GQuark procura_figure_error_quark (void);

/* The figure names of the command line, in order, NULL-terminated:
 * cost-curve, latency, breakdown, memory, pareto, break-even, cdf, sensitivity, fit-map. */
extern const char * const procura_figure_names[];

/* TRUE when @name is one of procura_figure_names. */
gboolean    procura_figure_is_known (const char *name);
/* A short human title of the figure ("Cost per accepted output vs demand"), NULL when
 * unknown. */
const char *procura_figure_title    (const char *name);

/* Builds the figure @name. @analysis may be NULL: it is then computed with the
 * project's own settings. NULL with PROCURA_FIGURE_ERROR_UNKNOWN for an unknown
 * name; a project without the data gets a chart with a message instead. */
ProcuraChart *procura_figure_build (const char            *name,
                                    ProcuraProject        *project,
                                    const ProcuraAnalysis *analysis,
                                    GError               **error);

/* Every figure in procura_figure_names order (ProcuraChart*, unref'ed by the array). */
GPtrArray    *procura_figure_build_all (ProcuraProject        *project,
                                        const ProcuraAnalysis *analysis);

G_END_DECLS
