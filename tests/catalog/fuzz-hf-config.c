/* fuzz-hf-config.c: libFuzzer target for the Hugging Face config.json reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "procura-model-catalog.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(ProcuraImportResult) r = procura_import_result_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_strndup ((const char *) data, size);

  (void) procura_importer_hf_config.sniff (text, size);
  if (!procura_importer_hf_config.parse ("config.json", text, size, r, NULL, &error))
    {
      g_assert_nonnull (error);
      return 0;
    }
  for (guint i = 0; i < r->model_shapes->len; i++)
    {
      ProcuraModelShape *m = g_ptr_array_index (r->model_shapes, i);
      g_autoptr(ProcuraModelShape) copy = procura_model_shape_copy (m);
      double p = procura_model_shape_param_count (m);

      g_assert_cmpint (copy->num_layers, ==, m->num_layers);
      g_assert_true (p > 0);
      g_assert_true (procura_model_shape_active_param_count (m) <= p);
      if (m->layer_is_sliding != NULL)
        for (int l = 0; l < m->num_layers; l++)
          g_assert_cmpint (m->layer_is_sliding[l], <=, 1);
    }
  return 0;
}
