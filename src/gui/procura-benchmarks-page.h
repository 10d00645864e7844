/* procura-benchmarks-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "procura-document.h"
#include "procura-page.h"

G_BEGIN_DECLS

#define PROCURA_TYPE_BENCHMARKS_PAGE (procura_benchmarks_page_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraBenchmarksPage, procura_benchmarks_page, PROCURA, BENCHMARKS_PAGE, ProcuraPage)

void procura_benchmarks_page_set_document (ProcuraBenchmarksPage *self,
                                ProcuraDocument *document);

/* "file: reason" lines of the last import, shown above the runs. */
void procura_benchmarks_page_set_import_errors (ProcuraBenchmarksPage *self,
                                                const char * const    *errors);
/* The list of headings, errors and runs (a GtkListView: only the rows in view exist). */
GtkListView *procura_benchmarks_page_get_list (ProcuraBenchmarksPage *self);

G_END_DECLS
