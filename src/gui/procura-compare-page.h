/* procura-compare-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-document.h"
#include "procura-page.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_COMPARE_PAGE (procura_compare_page_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraComparePage, procura_compare_page, PROCURA, COMPARE_PAGE, ProcuraPage)

void procura_compare_page_set_document (ProcuraComparePage *self,
                                ProcuraDocument *document);

/* The chart views, one per figure (ProcuraChartView*, borrowed). */
GPtrArray *procura_compare_page_get_chart_views (ProcuraComparePage *self);
/* The charts shown now whose card is in the presentation (its slide toggle on), in the
 * page's order; the charts are borrowed (the views hold them). Free the array with
 * g_ptr_array_unref(). */
GPtrArray *procura_compare_page_get_slide_charts (ProcuraComparePage *self);

/* Sets the SLO and demand controls (as the analyst would). */
void       procura_compare_page_set_controls (ProcuraComparePage *self,
                                              double              threshold_ms,
                                              double              percentile,
                                              double              demand_average,
                                              double              demand_peak);
/* TRUE while the charts are being recomputed. */
gboolean   procura_compare_page_get_busy (ProcuraComparePage *self);

/* The target and demand controls are a what-if until applied: "Apply to Brief" saves
 * them into the brief (undone by procura_compare_page_undo_apply), "Reset" sets them back
 * to the brief's. The what-if's sentence is on the document (procura_document_get_what_if). */
void       procura_compare_page_apply_what_if (ProcuraComparePage *self);
void       procura_compare_page_reset_what_if (ProcuraComparePage *self);
void       procura_compare_page_undo_apply    (ProcuraComparePage *self);

/* The analysis the charts on show were built from (with the what-if), or NULL. */
struct _ProcuraAnalysis;
const struct _ProcuraAnalysis *procura_compare_page_get_analysis (ProcuraComparePage *self);

G_END_DECLS
