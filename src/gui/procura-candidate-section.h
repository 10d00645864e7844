/* procura-candidate-section.h: one expander of a candidate (cost inputs, checklist,
 * operations tests) whose rows are built when it is first expanded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PROCURA_TYPE_CANDIDATE_SECTION (procura_candidate_section_get_type ())
G_DECLARE_FINAL_TYPE (ProcuraCandidateSection, procura_candidate_section, PROCURA, CANDIDATE_SECTION, AdwExpanderRow)

/* Adds the section's rows; called once, on the first expansion. */
typedef void (*ProcuraCandidateSectionFill) (ProcuraCandidateSection *section,
                                             gpointer                 user_data);

GtkWidget  *procura_candidate_section_new              (void);
/* What the section shows: @kind ("cost", "checklist", "ops") for @candidate_id (0: the
 * whole project). @user_data is not owned: whoever fills the section outlives it (the
 * page holding it). */
void        procura_candidate_section_setup            (ProcuraCandidateSection     *self,
                                                        const char                  *kind,
                                                        gint64                       candidate_id,
                                                        ProcuraCandidateSectionFill  fill,
                                                        gpointer                     user_data);
/* Opens the section if @expanded (a set of "kind:id" keys, referenced) holds its key and
 * keeps the set up to date when it is opened or closed: the state survives a rebuild. */
void        procura_candidate_section_remember         (ProcuraCandidateSection     *self,
                                                        GHashTable                  *expanded);
gint64      procura_candidate_section_get_candidate_id (ProcuraCandidateSection     *self);
const char *procura_candidate_section_get_kind         (ProcuraCandidateSection     *self);
/* TRUE once its rows were built. */
gboolean    procura_candidate_section_is_filled        (ProcuraCandidateSection     *self);

G_END_DECLS
