/* fuzz-decision-doc.c: `procura apply`'s reader of the decision document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Any input gives a project or an error, never both and never neither; a document that
 * is accepted, written back, is accepted again.
 */
#include "config.h"

#include <stdint.h>

#include "procura-decision-doc.h"
#include "procura-json.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) root = procura_json_parse ("fuzz.json", (const char *) data, size, 0,
                                                  PROCURA_JSON_STRICT, &error);
  g_autoptr (ProcuraProject) project = NULL;
  g_autoptr (JsonNode) again = NULL;
  g_autoptr (ProcuraProject) reread = NULL;

  if (root == NULL)
    return 0;
  project = procura_decision_doc_parse (root, &error);
  if ((project == NULL) == (error == NULL))
    __builtin_trap ();
  if (project == NULL)
    return 0;
  again = procura_decision_doc_build (project, TRUE);
  reread = procura_decision_doc_parse (again, &error);
  if (reread == NULL || reread->candidates->len != project->candidates->len
      || reread->runs->len != project->runs->len)
    __builtin_trap ();
  return 0;
}
