/* procura-json-bulk.c: the plain-C half of the bulk reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-json-bulk.h"

/* Implemented in procura-json-bulk.cc when simdjson is available. */
ProcuraBulkDoc *procura_json_bulk_parse_impl (const char        *data,
                                              gsize              len,
                                              gsize              capacity,
                                              const char * const *skip);

static __thread const char *padded_data;
static __thread gsize padded_capacity;

gboolean
procura_json_bulk_available (void)
{
  return HAVE_SIMDJSON;
}

void
procura_json_bulk_set_padding (const char *data,
                               gsize       capacity)
{
  padded_data = data;
  padded_capacity = capacity;
}

ProcuraBulkDoc *
procura_json_bulk_parse (const char        *data,
                         gsize              len,
                         const char * const *skip)
{
#if HAVE_SIMDJSON
  gsize capacity = (data == padded_data && padded_capacity >= len + PROCURA_JSON_BULK_PADDING)
                   ? padded_capacity : 0;

  return procura_json_bulk_parse_impl (data, len, capacity, skip);
#else
  return NULL;
#endif
}

ProcuraBulkArray *
procura_json_bulk_get (ProcuraBulkDoc *doc,
                       const char     *name)
{
  for (guint i = 0; i < doc->arrays->len; i++)
    {
      ProcuraBulkArray *a = g_ptr_array_index (doc->arrays, i);
      if (g_str_equal (a->name, name))
        return a;
    }
  return NULL;
}

double *
procura_json_bulk_steal_values (ProcuraBulkArray *array)
{
  double *v = array->values;

  array->values = NULL;
  array->n = 0;
  return v;
}

static void
array_free (ProcuraBulkArray *a)
{
  g_free (a->name);
  g_free (a->values);
  g_free (a->row_sum);
  g_free (a->row_len);
  g_free (a);
}

ProcuraBulkDoc *
procura_json_bulk_doc_new (void);

ProcuraBulkDoc *
procura_json_bulk_doc_new (void)
{
  ProcuraBulkDoc *doc = g_new0 (ProcuraBulkDoc, 1);

  doc->members = json_object_new ();
  doc->arrays = g_ptr_array_new_with_free_func ((GDestroyNotify) array_free);
  return doc;
}

void
procura_json_bulk_doc_free (ProcuraBulkDoc *doc)
{
  if (doc == NULL)
    return;
  json_object_unref (doc->members);
  g_ptr_array_unref (doc->arrays);
  g_free (doc);
}
