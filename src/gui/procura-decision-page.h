/* procura-decision-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-document.h"
#include "procura-page.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_DECISION_PAGE (procura_decision_page_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraDecisionPage, procura_decision_page, PROCURA, DECISION_PAGE, ProcuraPage)

void procura_decision_page_set_document (ProcuraDecisionPage *self,
                                ProcuraDocument *document);

/* TRUE while the analysis runs. */
gboolean procura_decision_page_get_busy (ProcuraDecisionPage *self);

G_END_DECLS
