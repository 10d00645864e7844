/* fuzz-vllm-bulk.c: the vLLM importer through simdjson and through json-glib; when
 * both accept a file they must agree on what it says
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "procura-import.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
gboolean procura_import_vllm_serve_parse (const char          *name,
                                          const char          *data,
                                          gsize                len,
                                          gboolean             allow_bulk,
                                          ProcuraImportResult *result,
                                          GError             **error);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (ProcuraImportResult) a = procura_import_result_new ();
  g_autoptr (ProcuraImportResult) b = procura_import_result_new ();
  g_autoptr (GError) ea = NULL;
  g_autoptr (GError) eb = NULL;
  gboolean oka = procura_import_vllm_serve_parse ("fuzz", (const char *) data, size, TRUE, a, &ea);
  gboolean okb = procura_import_vllm_serve_parse ("fuzz", (const char *) data, size, FALSE, b, &eb);

  if (oka != (ea == NULL) || okb != (eb == NULL))
    __builtin_trap ();
  if (oka && okb && a->runs->len == 1 && b->runs->len == 1)
    {
      ProcuraRun *ra = g_ptr_array_index (a->runs, 0);
      ProcuraRun *rb = g_ptr_array_index (b->runs, 0);
      if (ra->completed != rb->completed || ra->samples->len != rb->samples->len
          || ra->stats->len != rb->stats->len)
        __builtin_trap ();
    }
  return 0;
}
