/* procura-import-result.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-import.h"

G_DEFINE_QUARK (procura-import-error-quark, procura_import_error)

ProcuraImportResult *
procura_import_result_new (void)
{
  ProcuraImportResult *r = g_new0 (ProcuraImportResult, 1);

  r->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_run_free);
  r->quotes = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_quote_free);
  r->model_shapes = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_model_shape_free);
  r->engine_logs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_engine_log_free);
  r->probe_results = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_probe_result_free);
  r->warnings = g_ptr_array_new_with_free_func (g_free);
  return r;
}

void
procura_import_result_free (ProcuraImportResult *r)
{
  if (r == NULL)
    return;
  g_free (r->format);
  g_free (r->format_version);
  procura_provenance_free (r->provenance);
  g_ptr_array_unref (r->runs);
  g_ptr_array_unref (r->quotes);
  g_ptr_array_unref (r->model_shapes);
  g_ptr_array_unref (r->engine_logs);
  g_ptr_array_unref (r->probe_results);
  g_ptr_array_unref (r->warnings);
  g_free (r);
}
