/* fuzz-probe-jsonl.c: libFuzzer target for the probe output importer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>

#include "procura-probe-import.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(ProcuraImportResult) result = procura_import_result_new ();
  g_autofree char *text = g_strndup ((const char *) data, size);

  if (procura_importer_probe_jsonl.sniff (text, size) > 0 || size < 4096)
    procura_importer_probe_jsonl.parse ("fuzz.jsonl", text, size, result, NULL, NULL);
  return 0;
}
