/* fuzz-importers.c: every importer forced on the same input, then detection
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>

#include "procura-import.h"
#include "procura-import-json.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check (ProcuraImportResult *r,
       GError              *error)
{
  if ((r == NULL) == (error == NULL))
    __builtin_trap ();
  if (r != NULL)
    {
      /* the normalised output must always be printable */
      g_autoptr (JsonNode) node = procura_import_result_to_json (r);
      g_autofree char *text = json_to_string (node, FALSE);
      if (text == NULL)
        __builtin_trap ();
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const ProcuraImporter * const *all = procura_importers ();

  for (gsize i = 0; all[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ProcuraImportResult) r = procura_import_data ("fuzz", (const char *) data, size,
                                                               all[i]->id, NULL, &error);
      check (r, error);
    }
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (ProcuraImportResult) r = procura_import_data ("fuzz", (const char *) data, size, NULL, NULL, &error);
    check (r, error);
  }
  return 0;
}
