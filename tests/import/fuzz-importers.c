/* fuzz-importers.c: every importer forced on the same input, then detection
 *
 * Replayed (the fuzz suite), every importer runs on every input. Under libFuzzer
 * (PROCURA_FUZZ_SELECT) the first byte picks one importer, or detection, and the rest
 * is the input: each importer is then fuzzed on its own, about 20 times faster.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
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
      /* the empty-run rule: no run without a single figure */
      for (guint i = 0; i < r->runs->len; i++)
        {
          const ProcuraRun *run = g_ptr_array_index (r->runs, i);
          if (run->stats->len == 0 && run->samples->len == 0 && isnan (run->request_throughput)
              && isnan (run->output_throughput) && isnan (run->total_throughput)
              && run->completed < 0 && run->failed < 0)
            __builtin_trap ();
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const ProcuraImporter * const *all = procura_importers ();
  gsize n_all = 0;

  while (all[n_all] != NULL)
    n_all++;
#ifdef PROCURA_FUZZ_SELECT
  if (size > 0)
    {
      gsize pick = data[0] % (n_all + 1);
      g_autoptr (GError) error = NULL;
      g_autoptr (ProcuraImportResult) r = procura_import_data ("fuzz", (const char *) data + 1, size - 1,
                                                               pick < n_all ? all[pick]->id : NULL, NULL, &error);
      check (r, error);
    }
  return 0;
#endif
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
