/* procura-import-private.h: helpers shared by the importers of src/core/import
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "procura-import.h"
#include "procura-json.h"

G_BEGIN_DECLS

/* The benchmark and engine-log importers of this folder. */
extern const ProcuraImporter procura_importer_vllm_serve;       /* "vllm-bench-serve" */
extern const ProcuraImporter procura_importer_vllm_latency;     /* "vllm-bench-latency" */
extern const ProcuraImporter procura_importer_vllm_throughput;  /* "vllm-bench-throughput" */
extern const ProcuraImporter procura_importer_sglang_serve;     /* "sglang-bench-serving" */
extern const ProcuraImporter procura_importer_guidellm;         /* "guidellm" */
extern const ProcuraImporter procura_importer_guidellm_csv;     /* "guidellm-csv" */
extern const ProcuraImporter procura_importer_guidellm_yaml;    /* "guidellm-yaml" */
extern const ProcuraImporter procura_importer_genai_perf;       /* "genai-perf" */
extern const ProcuraImporter procura_importer_aiperf;           /* "aiperf" */
extern const ProcuraImporter procura_importer_aiperf_jsonl;     /* "aiperf-jsonl" */
extern const ProcuraImporter procura_importer_aiperf_csv;       /* "aiperf-csv" */
extern const ProcuraImporter procura_importer_aiperf_aggregate; /* "aiperf-aggregate" */
extern const ProcuraImporter procura_importer_llmperf_summary;  /* "llmperf-summary" */
extern const ProcuraImporter procura_importer_llmperf_individual; /* "llmperf-individual" */
extern const ProcuraImporter procura_importer_mlperf_summary;   /* "mlperf-summary" */
extern const ProcuraImporter procura_importer_mlperf_detail;    /* "mlperf-detail" */
extern const ProcuraImporter procura_importer_lmbench_csv;      /* "lmbench-csv" */
extern const ProcuraImporter procura_importer_vllm_log;         /* "vllm-log" */
extern const ProcuraImporter procura_importer_sglang_log;       /* "sglang-log" */
extern const ProcuraImporter procura_importer_inferencex;       /* "inferencex" */
extern const ProcuraImporter procura_importer_mlperf_results;   /* "mlperf-results" */
extern const ProcuraImporter procura_importer_llmd_report;      /* "llmd-report" */

/* Sniff helpers: look only at the first 64 KiB (sniffers must stay cheap on 500 MB). */
#define PROCURA_SNIFF_WINDOW 65536
gboolean    procura_sniff_has        (const char *data,
                                      gsize       len,
                                      const char *needle);
/* First non-white-space byte, '\0' when none. */
char        procura_sniff_first_char (const char *data,
                                      gsize       len);

/* Adds the stat when @value is set (not NAN); @factor converts to milliseconds. */
void        procura_import_reported  (ProcuraRun *run,
                                      const char *metric,
                                      const char *stat,
                                      double      value,
                                      double      factor);

/* The empty-run rule, applied by the registry after every parse: a run without any
 * metric (no stat, sample, throughput or request count) is left out with a warning
 * naming it; when no run is left, or the file yields nothing at all, the file is
 * refused (a file of another format read by the wrong importer looks like this). */
gboolean    procura_import_run_has_metric  (const ProcuraRun *run);
gboolean    procura_import_drop_empty_runs (const char          *name,
                                            const char          *importer_id,
                                            ProcuraImportResult *result,
                                            GError             **error);

/* JSON Lines: calls @func for each non-blank line (parsed strictly). */
typedef gboolean (*ProcuraJsonLineFunc) (JsonNode  *line,
                                         guint      line_number,
                                         gpointer   user_data,
                                         GError   **error);
gboolean    procura_import_json_lines (const char       *name,
                                       const char       *data,
                                       gsize             len,
                                       ProcuraJsonFlags  flags,
                                       ProcuraJsonLineFunc func,
                                       gpointer          user_data,
                                       GCancellable     *cancellable,
                                       GError          **error);

/* @text split at every '\n', as g_strsplit (text, "\n", -1) splits it, in one pass.
 * g_strsplit() calls strstr() on the rest of the text for each piece: linear with
 * glibc, but AddressSanitizer's strstr() measures the whole rest first, so a 2 MB file of
 * 50,000 lines took minutes there. */
char      **procura_import_split_lines (const char *text);

/* Copies @array of numbers into a new g_malloc'ed array times @factor. */
gboolean    procura_import_number_array (const char  *name,
                                         JsonArray   *array,
                                         const char  *path,
                                         double       factor,
                                         double     **values,
                                         gsize       *n,
                                         GError     **error);

/* SHA-256 of the file's bytes as lower-case hex: the same as procura_sha256_hex(), in
 * hardware where the CPU has the SHA extensions. */
char       *procura_import_sha256_hex (const void *data,
                                       gsize       len);

/* The same hash over bytes handed in pieces (a file read in chunks). */
typedef struct {
  guint32    state[8];
  guint8     buf[64];
  gsize      buf_len;
  guint64    total;
  GChecksum *checksum;   /* without the SHA extensions */
} ProcuraSha256Stream;

void        procura_import_sha256_begin  (ProcuraSha256Stream *s);
void        procura_import_sha256_update (ProcuraSha256Stream *s,
                                          const void          *data,
                                          gsize                len);
/* Returns the lower-case hex digest and frees what @s held. */
char       *procura_import_sha256_end    (ProcuraSha256Stream *s);

/* A single big vLLM bench serve object read from @fd in chunks (each handed to
 * @chunk_func), the same run procura_importer_vllm_serve makes of it. *handled FALSE:
 * the chunked reader declined (returns FALSE, no error); the caller then reads the
 * whole file and takes the usual path. */
gboolean    procura_import_vllm_serve_parse_fd (const char          *name,
                                                int                  fd,
                                                gsize                size,
                                                void               (*chunk_func) (const char *data,
                                                                                  gsize       len,
                                                                                  gpointer    user_data),
                                                gpointer             user_data,
                                                ProcuraImportResult *result,
                                                GCancellable        *cancellable,
                                                gboolean            *handled,
                                                GError             **error);

/* Percentile key ("p99", "p99.9", "p50") for a percentage. */
char       *procura_import_pct_name   (double pct);

/* vLLM-style helpers shared with SGLang (procura-import-vllm.c) */
struct _ProcuraBulkDoc;
/* "mean_ttft_ms", "median_itl_ms", "p99.9_ttft_ms", "mean_e2e_latency_ms"... ->
 * metric ("ttft", "tpot", "itl", "e2e") and stat ("mean", "p50", "std", "p99.9"). */
gboolean    procura_import_vllm_stat_key (const char  *key,
                                          const char **metric,
                                          char       **stat);
/* ttfts/itls/input_lens/output_lens/latencies/errors (seconds) -> samples. @bulk may
 * be NULL (then the arrays are read from @o). */
gboolean    procura_import_vllm_per_request (const char          *name,
                                             JsonObject          *o,
                                             const char          *path,
                                             struct _ProcuraBulkDoc *bulk,
                                             ProcuraRun          *run,
                                             GError             **error);
/* gpu=, tp=, engine=... keys (vLLM --metadata) into the scenario, where unset. */
void        procura_import_scenario_from_metadata (ProcuraScenario *sc,
                                                   JsonObject      *o);
gboolean    procura_import_looks_like_json_lines (const char *data,
                                                  gsize       len);

G_END_DECLS
