/* procura-presentation.h: presentation mode, one figure per slide, full screen
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-chart-view.h"
#include "procura-model.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_PRESENTATION (procura_presentation_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraPresentation, procura_presentation, PROCURA, PRESENTATION, AdwWindow)

/* @charts: ProcuraChart* (referenced), one slide each after the title slide. */
ProcuraPresentation *procura_presentation_new        (GtkWindow   *parent,
                                                      const char  *title,
                                                      const char  *subtitle,
                                                      GPtrArray   *charts);
/* With the recommendation slide (procura_presentation_recommendation_slide, or NULL)
 * after the title, and @what_if (or NULL) in a banner over every slide. */
ProcuraPresentation *procura_presentation_new_full   (GtkWindow   *parent,
                                                      const char  *title,
                                                      const char  *subtitle,
                                                      GtkWidget   *recommendation,
                                                      const char  *what_if,
                                                      GPtrArray   *charts);
/* The decision, the recommendation and its cost, interval, tipping points and top
 * warnings, as one slide; NULL without a recommendation. */
struct _ProcuraAnalysis;
GtkWidget           *procura_presentation_recommendation_slide (ProcuraProject                *project,
                                                                const struct _ProcuraAnalysis *analysis);
guint                procura_presentation_get_n_slides (ProcuraPresentation *self);
guint                procura_presentation_get_slide    (ProcuraPresentation *self);
void                 procura_presentation_move         (ProcuraPresentation *self,
                                                        int                  delta);
/* The slide's view of @chart (its own view, with its own layout and legend choices);
 * NULL when no slide shows it. */
ProcuraChartView    *procura_presentation_get_chart_view (ProcuraPresentation *self,
                                                          ProcuraChart        *chart);

G_END_DECLS
