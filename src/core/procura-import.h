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

/* One importer. Every area that reads a kind of file exports one or more of these
 * (e.g. `extern const ProcuraImporter procura_importer_vllm_serve;` in its header),
 * and src/core/import/procura-import-registry.c lists them all. */
typedef struct {
  const char *id;            /* "vllm-bench-serve", "guidellm", "quote-json", "hf-config", ... */
  const char *description;   /* human name, e.g. "vLLM bench serve result (JSON)" */
  /* Confidence 0..100 that @data is this format; 0 = certainly not. Must be cheap and
   * never fail. The registry passes at most the first 64 KiB (@len is capped there; the
   * buffer itself is NUL-terminated at the file's real end), after refusing JSON nested
   * deeper than PROCURA_JSON_MAX_DEPTH in that window. */
  int       (*sniff) (const char *data,
                      gsize       len);
  /* Parses @data into @result (runs, quotes, shapes, logs, probe results, warnings).
   * @name is the file name to put in messages. On error leaves @result as it was
   * or partially filled: the caller throws it away. */
  gboolean  (*parse) (const char          *name,
                      const char          *data,
                      gsize                len,
                      ProcuraImportResult *result,
                      GCancellable        *cancellable,
                      GError             **error);
} ProcuraImporter;

/* NULL-terminated list of every importer (src/core/import/procura-import-registry.c). */
const ProcuraImporter * const *procura_importers (void);
const ProcuraImporter         *procura_importer_find (const char *id);

/* Reads @path, sniffs its format (or uses @format when not NULL), parses it and fills
 * the provenance (file name, size, SHA-256, importer and version, time). An ambiguous
 * or unknown format is an error that lists the candidates. Nothing is stored. */
ProcuraImportResult *procura_import_file (const char    *path,
                                          const char    *format,
                                          GCancellable  *cancellable,
                                          GError       **error);
typedef enum {
  PROCURA_IMPORT_DEFAULT      = 0,
  /* skip the quantile summaries (run_quantiles) an import keeps for the project: for a
   * result that is only read, not stored (`procura inspect`) */
  PROCURA_IMPORT_NO_SUMMARIES = 1 << 0,
  /* parse and check only: the recomputed statistics, summaries and the checks on them
   * (procura_import_finalize ()) are left to the caller, who must run them before the
   * result is used. Every error an import can give has been given by then. */
  PROCURA_IMPORT_NO_FINALIZE  = 1 << 1,
} ProcuraImportFlags;

/* Run by the import after a successful parse (the caller's, with
 * PROCURA_IMPORT_NO_FINALIZE), once the file's bytes are no longer needed: for every
 * run, recomputes mean, std, min, max and percentiles of each latency sample array
 * (numpy linear), stores them as "recomputed" with the sample count, keeps their
 * quantile summaries unless @flags has PROCURA_IMPORT_NO_SUMMARIES, warns where the
 * file's own figures disagree, and warns about impossible data (negative latencies,
 * p99 below p50, zero completed requests). Run it once per result. */
void                 procura_import_finalize (ProcuraImportResult *result,
                                              ProcuraImportFlags   flags);

/* procura_import_file() with @flags. */
ProcuraImportResult *procura_import_file_with_flags (const char          *path,
                                                     const char          *format,
                                                     ProcuraImportFlags   flags,
                                                     GCancellable        *cancellable,
                                                     GError             **error);
/* Files larger than this are refused before reading (a limit, not a format rule). */
#define PROCURA_IMPORT_MAX_BYTES (G_GINT64_CONSTANT (8) << 30)

/* The one safe way to read an input file whole, used by every reader of user files:
 * opened without blocking and refused before a byte is read unless it is a regular
 * file (a FIFO or a device would hang or never end), refused above the importers' size
 * limit, read (not mapped) into a buffer NUL-terminated at @len and zero-padded for
 * simdjson. @expected ("a benchmark result…", "cost inputs (JSON)") completes the
 * message for what is not a regular file. Errors are PROCURA_IMPORT_ERROR_IO / _LIMIT
 * and name @path. Free with g_free(). */
char                *procura_import_read_file (const char  *path,
                                               const char  *expected,
                                               gsize       *len,
                                               GError     **error);
/* The same checks, without the read: returns the open descriptor (close it) and its
 * size, or -1 with the same errors. */
int                  procura_import_open_file (const char  *path,
                                               const char  *expected,
                                               gsize       *size,
                                               GError     **error);
ProcuraImportResult *procura_import_data (const char    *name,
                                          const char    *data,
                                          gsize          len,
                                          const char    *format,
                                          GCancellable  *cancellable,
                                          GError       **error);

/* The deployment the files state, as a candidate (src/core/import/procura-import-candidate.c).
 * A new GPU candidate named @name whose GPU (a catalog id when the catalog knows the
 * name), engine, GPUs per replica, TP and PP are those the runs and engine logs of
 * @results (ProcuraImportResult*) state, where they agree. One replica is the unit
 * measured: the stated GPU count, else TP × PP × DP. Figures the files disagree on keep
 * the default, with a warning on the first result naming two of the values. */
ProcuraCandidate *procura_import_candidate_new   (const char             *name,
                                                  GPtrArray              *results);
/* Compares an existing @candidate with every run and engine log of @results: each
 * GPU, TP, PP or GPU count that differs becomes a warning naming the file's value and
 * the candidate's (on the run, or on the file for an engine log). Returns how many. */
guint             procura_import_check_candidate (const ProcuraCandidate *candidate,
                                                  GPtrArray              *results);

G_END_DECLS
