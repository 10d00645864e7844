/* procura-candidates-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-document.h"
#include "procura-page.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_CANDIDATES_PAGE (procura_candidates_page_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraCandidatesPage, procura_candidates_page, PROCURA, CANDIDATES_PAGE, ProcuraPage)

void procura_candidates_page_set_document (ProcuraCandidatesPage *self,
                                ProcuraDocument *document);

G_END_DECLS
