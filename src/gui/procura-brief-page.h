/* procura-brief-page.h: the workload brief
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-document.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_BRIEF_PAGE (procura_brief_page_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraBriefPage, procura_brief_page, PROCURA, BRIEF_PAGE, AdwBin)

void procura_brief_page_set_document (ProcuraBriefPage *self,
                                      ProcuraDocument  *document);
/* Moves the focus to the first empty field of the brief's part @part (an id of
 * procura_brief_missing (): "model_shape", "latency_target"…), or with @part NULL of the
 * first missing part; returns the field's title (translated), NULL when none is empty. */
const char *procura_brief_page_focus_missing (ProcuraBriefPage *self,
                                              const char       *part);
/* "7 of 9 complete" as shown (for tests). */
const char *procura_brief_page_get_completeness (ProcuraBriefPage *self);

/* The success unit Procura proposes for a workload type (translated), NULL if none. */
const char *procura_brief_propose_success_unit (const char *workload_type);

G_END_DECLS
