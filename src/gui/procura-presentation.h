/* procura-presentation.h: presentation mode, one figure per slide, full screen
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-chart-view.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_PRESENTATION (procura_presentation_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraPresentation, procura_presentation, PROCURA, PRESENTATION, AdwWindow)

/* @charts: ProcuraChart* (referenced), one slide each after the title slide. */
ProcuraPresentation *procura_presentation_new        (GtkWindow   *parent,
                                                      const char  *title,
                                                      const char  *subtitle,
                                                      GPtrArray   *charts);
guint                procura_presentation_get_n_slides (ProcuraPresentation *self);
guint                procura_presentation_get_slide    (ProcuraPresentation *self);
void                 procura_presentation_move         (ProcuraPresentation *self,
                                                        int                  delta);

G_END_DECLS
