/* fuzz-skypilot.c: libFuzzer target for the SkyPilot and gpuhunt price importers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>

#include "procura-quotes.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  const ProcuraImporter *importers[] = { &procura_importer_skypilot_csv, &procura_importer_gpuhunt_csv };

  for (gsize i = 0; i < G_N_ELEMENTS (importers); i++)
    {
      g_autoptr(ProcuraImportResult) r = procura_import_result_new ();
      g_autoptr(GError) error = NULL;

      (void) importers[i]->sniff (text, size);
      if (!importers[i]->parse ("fuzz.csv", text, size, r, NULL, &error))
        g_assert_nonnull (error);
      for (guint k = 0; k < r->quotes->len; k++)
        {
          ProcuraQuote *q = g_ptr_array_index (r->quotes, k);
          g_assert_cmpint (q->gpu_count, >=, 1);
          g_assert_true (q->price_per_hour > 0);
        }
    }
  return 0;
}
