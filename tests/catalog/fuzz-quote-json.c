/* fuzz-quote-json.c: libFuzzer target for Procura's quote file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "procura-quotes.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(ProcuraImportResult) r = procura_import_result_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_strndup ((const char *) data, size);  /* importers get NUL-terminated data */

  (void) procura_importer_quote_json.sniff (text, size);
  if (!procura_importer_quote_json.parse ("fuzz.json", text, size, r, NULL, &error))
    {
      g_assert_nonnull (error);
      /* all or nothing */
      g_assert_cmpuint (r->quotes->len, ==, 0);
      return 0;
    }
  {
    g_autofree char *out = procura_quotes_to_json ((const ProcuraQuote * const *) r->quotes->pdata, r->quotes->len);
    g_autoptr(ProcuraImportResult) again = procura_import_result_new ();
    /* what we write, we read back */
    g_assert_true (procura_importer_quote_json.parse ("again.json", out, strlen (out), again, NULL, NULL));
    g_assert_cmpuint (again->quotes->len, ==, r->quotes->len);
  }
  return 0;
}
