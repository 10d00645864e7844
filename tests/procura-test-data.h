/* procura-test-data.h: the text a project brings itself (names, notes, titles), which
 * no catalogue translates, for the translation tests to set aside
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "procura-model.h"

G_BEGIN_DECLS

/* Replaces in @text every text value of @project (each settable text or choice field of the
 * registry, run labels, imported file names) with "…", longest first. */
void procura_test_blank_project_text (GString        *text,
                                      ProcuraProject *project);

G_END_DECLS
