/* fuzz-vllm-bulk.c: the vLLM importer through simdjson and through json-glib; when
 * both accept a file they must agree on what it says. The chunked bulk reader takes
 * a file only where simdjson takes it, and then finds the same arrays.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "procura-import.h"
#include "procura-json-stream.h"

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
  {
    static const char * const skip[] = { "generated_texts", "start_times", NULL };
    static char *path;
    static int fd = -1;
    g_autoptr (ProcuraBulkDoc) sa = NULL;
    g_autoptr (ProcuraBulkDoc) sb = NULL;

    if (fd < 0)
      {
        /* one scratch file for every input, gone from the folder at once */
        fd = g_file_open_tmp ("procura-fuzz-XXXXXX", &path, NULL);
        if (path != NULL)
          g_unlink (path);
      }
    if (fd < 0 || ftruncate (fd, 0) != 0 || pwrite (fd, data, size, 0) != (ssize_t) size
        || lseek (fd, 0, SEEK_SET) != 0)
      __builtin_trap ();
    sb = procura_json_bulk_parse_fd (fd, size, skip, NULL, NULL, NULL);
    if (sb != NULL && procura_json_bulk_available ())
      {
        sa = procura_json_bulk_parse ((const char *) data, size, skip);
        if (sa == NULL || sa->arrays->len != sb->arrays->len
            || json_object_get_size (sa->members) != json_object_get_size (sb->members))
          __builtin_trap ();
        for (guint i = 0; i < sa->arrays->len; i++)
          {
            ProcuraBulkArray *x = g_ptr_array_index (sa->arrays, i);
            ProcuraBulkArray *y = g_ptr_array_index (sb->arrays, i);
            if (x->n != y->n || x->nested != y->nested || x->strings != y->strings
                || x->rows != y->rows || memcmp (x->values, y->values, x->n * sizeof (double)) != 0)
              __builtin_trap ();
          }
      }
  }
  return 0;
}
