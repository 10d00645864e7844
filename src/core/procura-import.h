/* procura-import.h: reading files into the model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One entry point for every kind of file Procura reads: benchmark results, engine
 * logs, price lists and quotes, model config.json, probe output. The format is sniffed
 * from the content (never the file name) unless the caller forces one.
 */
#pragma once

#include <gio/gio.h>

#include "procura-model.h"

G_BEGIN_DECLS

#define PROCURA_IMPORT_ERROR (procura_import_error_quark ())

typedef enum {
  PROCURA_IMPORT_ERROR_IO,          /* cannot read the file */
  PROCURA_IMPORT_ERROR_UNKNOWN,     /* no importer recognises the content */
  PROCURA_IMPORT_ERROR_AMBIGUOUS,   /* several importers do; the message lists them */
  PROCURA_IMPORT_ERROR_SYNTAX,      /* malformed: message names file, line:column */
  PROCURA_IMPORT_ERROR_SCHEMA,      /* well-formed but wrong: message names the key path */
  PROCURA_IMPORT_ERROR_LIMIT,       /* too deep, too large, too many */
  PROCURA_IMPORT_ERROR_CANCELLED,
} ProcuraImportError;

GQuark procura_import_error_quark (void);

/* Everything one file yielded. Arrays are never NULL (possibly empty). */
typedef struct {
  char              *format;          /* importer id, e.g. "vllm-bench-serve" */
  char              *format_version;  /* may be NULL */
  ProcuraProvenance *provenance;      /* file name, size, SHA-256, importer, version, time */
  GPtrArray         *runs;            /* ProcuraRun* */
  GPtrArray         *quotes;          /* ProcuraQuote* */
  GPtrArray         *model_shapes;    /* ProcuraModelShape* */
  GPtrArray         *engine_logs;     /* ProcuraEngineLog* */
  GPtrArray         *probe_results;   /* ProcuraProbeResult* */
  GPtrArray         *warnings;        /* char*: file-level warnings shown to the user */
} ProcuraImportResult;

ProcuraImportResult *procura_import_result_new  (void);
void                 procura_import_result_free (ProcuraImportResult *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraImportResult, procura_import_result_free)

G_END_DECLS
