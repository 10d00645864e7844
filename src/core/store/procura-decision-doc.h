/* procura-decision-doc.h: the whole decision as one JSON document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `procura export` writes it and `procura apply` reads it (docs/cli.md, schema:
 * data/schemas/decision.schema.json). The settable tables (project, brief, assumptions,
 * decision, candidates, quotes, checklist, ops tests) use the columns and checks of the
 * field registry (procura-fields.h); runs, engine logs, probe results and warning
 * answers are written as imported, with their provenance inline. References to
 * candidates are by name, to quotes by the document's quote ids. Model shapes are not
 * part of the document.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "procura-model.h"

G_BEGIN_DECLS

#define PROCURA_DECISION_DOC_VERSION 1

/* The document of @project; per-request samples only when @with_samples (the project
 * must then have been loaded with them). */
JsonNode       *procura_decision_doc_build (ProcuraProject  *project,
                                            gboolean         with_samples);
/* Reads and checks a whole document: on any error returns NULL with a
 * G_IO_ERROR_INVALID_DATA error listing every problem found, one per line, each
 * starting with its key path (e.g. "candidates[2].tp: expected an integer >= 1, got 0").
 * The returned project is ready for procura_store_replace_project(). */
ProcuraProject *procura_decision_doc_parse (JsonNode        *root,
                                            GError         **error);

/* Reads the document in the file @path: procura_decision_doc_parse() with the errors
 * prefixed by the file name (also for a file that is not JSON). */
ProcuraProject *procura_decision_doc_load  (const char      *path,
                                            GError         **error);

G_END_DECLS
