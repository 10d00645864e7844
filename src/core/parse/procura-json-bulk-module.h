/* procura-json-bulk-module.h: what the simdjson module (procura-simdjson.so) exports
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only procura-json-bulk.c loads the module and calls these; everything else goes
 * through procura-json-bulk.h.
 */
#pragma once

#include "procura-json-bulk.h"

G_BEGIN_DECLS

/* The module and the program that loads it come from the same build: anything else is
 * refused (the interface number counts changes to the functions below). */
#define PROCURA_JSON_BULK_MODULE_VERSION PACKAGE_VERSION "/1"
#define PROCURA_JSON_BULK_MODULE_EXPORT __attribute__ ((visibility ("default")))

typedef const char *(*ProcuraJsonBulkModuleVersion) (void);
/* Fills @out (from procura_json_bulk_doc_new()) from the one object in @data; FALSE on
 * any error, @out then half filled, for the caller to free. @capacity: readable bytes
 * from @data, or 0 (the module copies the data into a padded buffer). */
typedef gboolean (*ProcuraJsonBulkModuleParse) (const char        *data,
                                                gsize              len,
                                                gsize              capacity,
                                                const char * const *skip,
                                                ProcuraBulkDoc    *out);

PROCURA_JSON_BULK_MODULE_EXPORT
const char *procura_json_bulk_module_version (void);
PROCURA_JSON_BULK_MODULE_EXPORT
gboolean    procura_json_bulk_module_parse   (const char        *data,
                                              gsize              len,
                                              gsize              capacity,
                                              const char * const *skip,
                                              ProcuraBulkDoc    *out);

G_END_DECLS
