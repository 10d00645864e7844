/* procura-json-bulk.h: simdjson (on-demand) reader for documents with bulk arrays
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * json-glib builds a DOM node per number: on a 55 MB vLLM result with 2.5 M
 * inter-token samples that is seconds and hundreds of MiB. This reader walks one
 * top-level JSON object with simdjson's on-demand API (one C++ file, this C API):
 * numeric arrays (flat, or lists of lists) become plain double arrays, arrays of
 * strings become 0/1 flags (non-empty or not), arrays named in @skip are skipped,
 * and every other member is handed over as a json-glib node.
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Bytes after the data that simdjson may read (simdjson::SIMDJSON_PADDING). */
#define PROCURA_JSON_BULK_PADDING 64

typedef struct {
  char    *name;
  double  *values;     /* every number (flattened for lists of lists); null -> NAN */
  gsize    n;
  gboolean nested;     /* a list of lists */
  gboolean strings;    /* an array of strings: values are 1 (non-empty) or 0 */
  gsize    rows;       /* nested: number of inner lists */
  double  *row_sum;    /* nested: sum of each inner list */
  guint32 *row_len;    /* nested: length of each inner list */
} ProcuraBulkArray;

typedef struct _ProcuraBulkDoc {
  JsonObject *members;  /* the other members */
  GPtrArray  *arrays;   /* ProcuraBulkArray* */
} ProcuraBulkDoc;

/* TRUE when built with simdjson and its module (procura-simdjson.so, loaded on the first
 * call) loads. */
gboolean        procura_json_bulk_available (void);
/* Tells the reader that @data is followed by at least @capacity - len readable bytes
 * (set by procura_import_file around a parse); NULL to clear. Without it the reader
 * copies the data into a padded buffer. */
void            procura_json_bulk_set_padding (const char *data,
                                               gsize       capacity);
/* Returns NULL when the text is not one well-formed object (or simdjson is absent):
 * the caller then falls back to the strict json-glib path, which words the error. */
ProcuraBulkDoc *procura_json_bulk_parse (const char        *data,
                                         gsize              len,
                                         const char * const *skip);
/* An empty document, for the readers to fill. */
ProcuraBulkDoc *procura_json_bulk_doc_new (void);
ProcuraBulkArray *procura_json_bulk_get (ProcuraBulkDoc *doc,
                                         const char     *name);
/* Takes the values out of the array (caller frees them with g_free). */
double         *procura_json_bulk_steal_values (ProcuraBulkArray *array);
void            procura_json_bulk_doc_free (ProcuraBulkDoc *doc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraBulkDoc, procura_json_bulk_doc_free)

G_END_DECLS
