/* procura-store-load.c: reading the project back (rows, stats, samples)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-json.h"
#include "procura-json-out.h"
#include "procura-store-private.h"
#include "procura-store-probe.h"
#include "procura-util.h"

/* ------------------------------------------------------------------------- */
/* Loading                                                                    */

gboolean
load_rows (ProcuraStore  *store,
           const char    *sql,
           ReadRow        read,
           GPtrArray     *into,
           GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = store_prepare (store, sql, error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gpointer row = read (store, stmt, error);
      if (row == NULL)
        return FALSE;
      g_ptr_array_add (into, row);
    }
  if (rc != SQLITE_DONE)
    {
      store_error (store, error, _("cannot read the project"));
      return FALSE;
    }
  return TRUE;
}

static gpointer
read_candidate_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  return read_candidate (stmt);
}

static gpointer
read_quote_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraQuote *q = procura_quote_new ();

  q->id = col_int (stmt, "id", 0);
  q->provenance_id = col_int (stmt, "provenance_id", 0);
  q->kind = (ProcuraQuoteKind) col_enum (stmt, "kind", PROCURA_QUOTE_API + 1);
  q->provider = col_text (stmt, "provider");
  q->sku = col_text (stmt, "sku");
  q->gpu_name = col_text (stmt, "gpu_name");
  q->gpu_id = col_text (stmt, "gpu_id");
  q->gpu_count = col_small (stmt, "gpu_count", 1);
  q->price_per_hour = col_double (stmt, "price_per_hour");
  g_free (q->currency);
  q->currency = col_text (stmt, "currency");
  q->pricing_model = col_text (stmt, "pricing_model");
  q->term_months = col_double (stmt, "term_months");
  q->min_commitment = col_double (stmt, "min_commitment");
  q->region = col_text (stmt, "region");
  q->seen_date = col_text (stmt, "seen_date");
  q->source = col_text (stmt, "source");
  q->storage_per_gb_month = col_double (stmt, "storage_per_gb_month");
  q->egress_per_gb = col_double (stmt, "egress_per_gb");
  q->support_pct = col_double (stmt, "support_pct");
  q->setup_fee = col_double (stmt, "setup_fee");
  q->notes = col_text (stmt, "notes");
  q->api_model = col_text (stmt, "api_model");
  q->price_input_per_mtok = col_double (stmt, "price_input_per_mtok");
  q->price_cached_per_mtok = col_double (stmt, "price_cached_per_mtok");
  q->price_output_per_mtok = col_double (stmt, "price_output_per_mtok");
  q->rate_limit_rpm = col_double (stmt, "rate_limit_rpm");
  q->rate_limit_tpm = col_double (stmt, "rate_limit_tpm");
  return q;
}

static gpointer
read_provenance_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraProvenance *p = procura_provenance_new ();

  p->id = col_int (stmt, "id", 0);
  p->file_name = col_text (stmt, "file_name");
  p->size = col_count (stmt, "size");
  p->sha256 = col_text (stmt, "sha256");
  p->importer = col_text (stmt, "importer");
  p->format_version = col_text (stmt, "format_version");
  p->imported_at = col_text (stmt, "imported_at");
  return p;
}

static gpointer
read_run_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraRun *r = procura_run_new ();
  g_autofree char *warnings = NULL;

  r->id = col_int (stmt, "id", 0);
  r->candidate_id = col_int (stmt, "candidate_id", 0);
  r->label = col_text (stmt, "label");
  r->format = col_text (stmt, "format");
  r->format_version = col_text (stmt, "format_version");
  r->scenario.model = col_text (stmt, "model");
  r->scenario.engine = col_text (stmt, "engine");
  r->scenario.engine_version = col_text (stmt, "engine_version");
  r->scenario.gpu_name = col_text (stmt, "gpu_name");
  r->scenario.gpu_count = col_small (stmt, "gpu_count", -1);
  r->scenario.tp = col_small (stmt, "tp", -1);
  r->scenario.pp = col_small (stmt, "pp", -1);
  r->scenario.dp = col_small (stmt, "dp", -1);
  r->scenario.load_type = col_text (stmt, "load_type");
  r->scenario.load_value = col_load_value (stmt, "load_value");
  r->scenario.input_len = col_double (stmt, "input_len");
  r->scenario.output_len = col_double (stmt, "output_len");
  r->duration_s = col_double (stmt, "duration_s");
  r->completed = col_count (stmt, "completed");
  r->failed = col_count (stmt, "failed");
  r->request_throughput = col_double (stmt, "request_throughput");
  r->output_throughput = col_double (stmt, "output_throughput");
  r->total_throughput = col_double (stmt, "total_throughput");
  r->input_tokens_mean = col_double (stmt, "input_tokens_mean");
  r->output_tokens_mean = col_double (stmt, "output_tokens_mean");
  warnings = col_text (stmt, "warnings");
  r->extras_json = col_text (stmt, "extras_json");
  /* earlier versions stored json-glib's "1e+20.0" here */
  if (r->extras_json != NULL)
    procura_json_fix_numbers (r->extras_json);
  if (!json_to_strv (store, "runs", "warnings", r->id, warnings, r->warnings, error)
      || !check_json_column (store, "runs", "extras_json", r->id, r->extras_json, FALSE, error))
    {
      procura_run_free (r);
      return NULL;
    }
  if (col_int (stmt, "provenance_id", 0) > 0)
    {
      r->provenance = procura_provenance_new ();
      r->provenance->id = col_int (stmt, "provenance_id", 0);
      r->provenance->file_name = col_text (stmt, "p_file_name");
      r->provenance->size = col_count (stmt, "p_size");
      r->provenance->sha256 = col_text (stmt, "p_sha256");
      r->provenance->importer = col_text (stmt, "p_importer");
      r->provenance->format_version = col_text (stmt, "p_format_version");
      r->provenance->imported_at = col_text (stmt, "p_imported_at");
    }
  return r;
}

/* A non-negative REAL up to @max; 0 when NULL or out of range. */
static double
col_bounded (sqlite3_stmt *stmt,
             const char   *name,
             double        max)
{
  double v = col_double (stmt, name);

  return v >= 0 && v <= max ? v : 0.0;
}

static gpointer
read_model_shape_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraModelShape *m = procura_model_shape_new ();
  int blob = store_col (stmt, "layer_is_sliding");

  m->id = col_text (stmt, "model_id");
  m->architecture = col_text (stmt, "architecture");
  m->num_layers = col_small (stmt, "num_layers", 0);
  m->hidden_size = col_small (stmt, "hidden_size", 0);
  m->intermediate_size = col_small (stmt, "intermediate_size", 0);
  m->moe_intermediate_size = col_small (stmt, "moe_intermediate_size", 0);
  m->num_experts = col_small (stmt, "num_experts", 0);
  m->num_shared_experts = col_small (stmt, "num_shared_experts", 0);
  m->experts_per_token = col_small (stmt, "experts_per_token", 0);
  m->first_dense_layers = col_small (stmt, "first_dense_layers", 0);
  m->num_attention_heads = col_small (stmt, "num_attention_heads", 0);
  m->num_kv_heads = col_small (stmt, "num_kv_heads", 0);
  m->head_dim = col_small (stmt, "head_dim", 0);
  m->vocab_size = col_small (stmt, "vocab_size", 0);
  m->tie_word_embeddings = col_int (stmt, "tie_word_embeddings", 0) != 0;
  m->sliding_window = col_small (stmt, "sliding_window", 0);
  if (sqlite3_column_type (stmt, blob) == SQLITE_BLOB)
    {
      const void *data = sqlite3_column_blob (stmt, blob);
      int len = sqlite3_column_bytes (stmt, blob);

      if (m->num_layers < 0 || len != m->num_layers)
        {
          g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                       _("%s: the project file is damaged: model shape “%s”: the sliding-window "
                         "layer pattern has %d entries for %d layers"), store->path,
                       m->id != NULL ? m->id : "?", len, m->num_layers);
          procura_model_shape_free (m);
          return NULL;
        }
      if (len > 0)
        m->layer_is_sliding = g_memdup2 (data, (gsize) len);
    }
  m->kv_lora_rank = col_small (stmt, "kv_lora_rank", 0);
  m->q_lora_rank = col_small (stmt, "q_lora_rank", 0);
  m->qk_rope_head_dim = col_small (stmt, "qk_rope_head_dim", 0);
  m->qk_nope_head_dim = col_small (stmt, "qk_nope_head_dim", 0);
  m->v_head_dim = col_small (stmt, "v_head_dim", 0);
  m->weights_dtype = col_text (stmt, "weights_dtype");
  m->quant_group_size = col_small (stmt, "quant_group_size", 0);
  m->published_params = col_double (stmt, "published_params");
  /* schema 5: a value no real model has (negative, beyond 10^13 parameters or 2^34
   * positions) is read as none, so a hostile file cannot steer the fit's arithmetic */
  m->vision_params = col_bounded (stmt, "vision_params", 1e13);
  m->vision_params_split = MIN (col_bounded (stmt, "vision_params_split", 1e13), m->vision_params);
  m->vision_tokens_per_item = MAX (col_small (stmt, "vision_tokens_per_item", 0), 0);
  m->vision_image_size = MAX (col_small (stmt, "vision_image_size", 0), 0);
  m->vision_channels = MAX (col_small (stmt, "vision_channels", 0), 0);
  /* the bounds the config.json reader accepts */
  if (m->vision_image_size > 65536 || m->vision_channels > 64)
    m->vision_image_size = m->vision_channels = 0;
  m->vision_config_layers = MAX (col_small (stmt, "vision_config_layers", 0), 0);
  m->vision_config_hidden = MAX (col_small (stmt, "vision_config_hidden", 0), 0);
  m->max_position_embeddings = col_int (stmt, "max_position_embeddings", 0);
  if (m->max_position_embeddings < 0 || m->max_position_embeddings > (G_GINT64_CONSTANT (1) << 34))
    m->max_position_embeddings = 0;
  m->rope_cache_elements = col_bounded (stmt, "rope_cache_elements", 1e13);
  return m;
}

static gpointer
read_engine_log_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraEngineLog *l = procura_engine_log_new ();
  g_autofree char *errors = NULL;

  l->id = col_int (stmt, "id", 0);
  l->candidate_id = col_int (stmt, "candidate_id", 0);
  l->provenance_id = col_int (stmt, "provenance_id", 0);
  l->engine = col_text (stmt, "engine");
  l->engine_version = col_text (stmt, "engine_version");
  l->model = col_text (stmt, "model");
  l->gpu_name = col_text (stmt, "gpu_name");
  l->tp = col_small (stmt, "tp", -1);
  l->pp = col_small (stmt, "pp", -1);
  l->gpu_memory_utilization = col_double (stmt, "gpu_memory_utilization");
  l->mem_fraction_static = col_double (stmt, "mem_fraction_static");
  l->max_model_len = col_count (stmt, "max_model_len");
  l->block_size = col_small (stmt, "block_size", -1);
  l->kv_dtype = col_text (stmt, "kv_dtype");
  l->weights_gib = col_double (stmt, "weights_gib");
  l->kv_available_gib = col_double (stmt, "kv_available_gib");
  l->kv_tokens = col_count (stmt, "kv_tokens");
  l->max_concurrency = col_double (stmt, "max_concurrency");
  l->cuda_graph_gib = col_double (stmt, "cuda_graph_gib");
  errors = col_text (stmt, "errors");
  if (!json_to_strv (store, "engine_logs", "errors", l->id, errors, l->errors, error))
    {
      procura_engine_log_free (l);
      return NULL;
    }
  return l;
}

static gpointer
read_probe_result_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraProbeResult *r = procura_probe_result_new ();

  r->id = col_int (stmt, "id", 0);
  r->candidate_id = col_int (stmt, "candidate_id", 0);
  r->provenance_id = col_int (stmt, "provenance_id", 0);
  r->device_name = col_text (stmt, "device_name");
  r->test = col_text (stmt, "test");
  r->fits = col_int (stmt, "fits", 0) != 0;
  r->total_bytes = col_double (stmt, "total_bytes");
  r->free_bytes = col_double (stmt, "free_bytes");
  r->headroom_bytes = col_double (stmt, "headroom_bytes");
  r->bandwidth_gbps = col_double (stmt, "bandwidth_gbps");
  r->json = col_text (stmt, "json");
  r->measured_at = col_text (stmt, "measured_at");
  if (!check_json_column (store, "probe_results", "json", r->id, r->json, TRUE, error))
    {
      procura_probe_result_free (r);
      return NULL;
    }
  return r;
}

static gpointer
read_ops_test_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraOpsTest *t = procura_ops_test_new ();

  t->id = col_int (stmt, "id", 0);
  t->candidate_id = col_int (stmt, "candidate_id", 0);
  t->kind = col_text (stmt, "kind");
  t->result = col_text (stmt, "result");
  t->recovery_s = col_double (stmt, "recovery_s");
  t->failed_requests = col_double (stmt, "failed_requests");
  t->per_month = col_double (stmt, "per_month");
  t->notes = col_text (stmt, "notes");
  return t;
}

static gpointer
read_warning_answer_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraWarningAnswer *a = procura_warning_answer_new ();

  a->id = col_int (stmt, "id", 0);
  a->warning_id = col_text (stmt, "warning_id");
  a->candidate_id = col_int (stmt, "candidate_id", 0);
  a->answer = col_text (stmt, "answer");
  a->answered_at = col_text (stmt, "answered_at");
  return a;
}

static gpointer
read_checklist_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraChecklistItem *i = procura_checklist_item_new ();

  i->id = col_int (stmt, "id", 0);
  i->candidate_id = col_int (stmt, "candidate_id", 0);
  i->section = col_text (stmt, "section");
  i->item = col_text (stmt, "item");
  i->answer = col_text (stmt, "answer");
  i->evidence = col_text (stmt, "evidence");
  i->evidence_file = col_text (stmt, "evidence_file");
  return i;
}

/* Rows of a live candidate, or of none. */
#define LIVE_CANDIDATE \
  " (candidate_id IS NULL OR candidate_id IN (SELECT id FROM candidates WHERE deleted_by IS NULL))"

#define RUN_SELECT \
  "SELECT r.*, p.file_name AS p_file_name, p.size AS p_size, p.sha256 AS p_sha256," \
  " p.importer AS p_importer, p.format_version AS p_format_version," \
  " p.imported_at AS p_imported_at" \
  " FROM runs r LEFT JOIN provenance p ON p.id = r.provenance_id"

static gboolean
load_stats (ProcuraStore  *store,
            GPtrArray     *runs,
            GError       **error)
{
  g_autoptr (GHashTable) by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  if (runs->len == 0)
    return TRUE;
  for (guint i = 0; i < runs->len; i++)
    {
      ProcuraRun *r = g_ptr_array_index (runs, i);
      g_hash_table_insert (by_id, &r->id, r);
    }
  stmt = store_prepare (store, "SELECT run_id, metric, stat, source, value, samples FROM run_stats"
                               " ORDER BY run_id, metric, stat, source", error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 run_id = sqlite3_column_int64 (stmt, 0);
      ProcuraRun *r = g_hash_table_lookup (by_id, &run_id);
      g_autofree char *metric = valid_text ((const char *) sqlite3_column_text (stmt, 1),
                                            sqlite3_column_bytes (stmt, 1));
      g_autofree char *stat = valid_text ((const char *) sqlite3_column_text (stmt, 2),
                                          sqlite3_column_bytes (stmt, 2));
      gint64 source = sqlite3_column_int64 (stmt, 3);

      if (r == NULL || metric == NULL || stat == NULL)
        continue;
      procura_run_add_stat (r, metric, stat, col_double (stmt, "value"),
                            source == PROCURA_SOURCE_RECOMPUTED ? PROCURA_SOURCE_RECOMPUTED
                                                                : PROCURA_SOURCE_AS_REPORTED,
                            col_count (stmt, "samples"));
    }
  if (rc != SQLITE_DONE)
    {
      store_error (store, error, _("cannot read the statistics"));
      return FALSE;
    }
  return TRUE;
}

/* Samples are read without sorting BLOBs: the query orders the rows by their small
 * columns only (the BLOB's type and length come from the record header, without reading
 * its pages), then each BLOB is read by incremental I/O straight into its array: one copy,
 * no temporary the size of the BLOB. */
#define SAMPLES_SELECT \
  "SELECT id, run_id, metric, n, typeof (data) AS type, length (data) AS len FROM run_samples"

static gboolean
samples_damaged (ProcuraStore  *store,
                 gint64         run_id,
                 const char    *metric,
                 gint64         len,
                 gint64         n,
                 GError       **error)
{
  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
               _("%s: the project file is damaged: table “run_samples”, column “data”, run %lld: "
                 "samples of “%s” hold %lld bytes for %lld values (8 bytes each expected)"),
                 store->path, (long long) run_id, metric != NULL ? metric : "?", (long long) len, (long long) n);
  return FALSE;
}

static gboolean
read_samples_row (ProcuraStore  *store,
                  sqlite3_stmt  *stmt,
                  ProcuraRun    *run,
                  GError       **error)
{
  gint64 row_id = sqlite3_column_int64 (stmt, 0);
  gint64 run_id = sqlite3_column_int64 (stmt, 1);
  g_autofree char *metric = valid_text ((const char *) sqlite3_column_text (stmt, 2),
                                        sqlite3_column_bytes (stmt, 2));
  gint64 n = sqlite3_column_int64 (stmt, 3);
  const char *type = (const char *) sqlite3_column_text (stmt, 4);
  gint64 len = sqlite3_column_int64 (stmt, 5);
  g_autofree double *values = NULL;
  sqlite3_blob *blob = NULL;
  int rc;

  if (metric == NULL || g_strcmp0 (type, "blob") != 0
      || n < 0 || n > G_MAXINT64 / 8 || len != n * 8 || len > STORE_MAX_LENGTH)
    return samples_damaged (store, run_id, metric, len, n, error);

  values = g_new (double, n > 0 ? n : 1);
  if (len > 0)
    {
      rc = sqlite3_blob_open (store->db, "main", "run_samples", "data", row_id, 0, &blob);
      if (rc == SQLITE_OK && sqlite3_blob_bytes (blob) != len)
        {
          sqlite3_blob_close (blob);
          return samples_damaged (store, run_id, metric, len, n, error);
        }
      if (rc == SQLITE_OK)
        rc = sqlite3_blob_read (blob, values, (int) len, 0);
      sqlite3_blob_close (blob);
      if (rc != SQLITE_OK)
        {
          store_error (store, error, _("cannot read the samples"));
          return FALSE;
        }
#if G_BYTE_ORDER != G_LITTLE_ENDIAN
      for (gint64 i = 0; i < n; i++)
        {
          guint64 bits;
          memcpy (&bits, &values[i], 8);
          bits = GUINT64_FROM_LE (bits);
          memcpy (&values[i], &bits, 8);
        }
#endif
    }
  procura_run_take_samples (run, metric, g_steal_pointer (&values), (gsize) n);
  return TRUE;
}

/* Reads the rows of @stmt (SAMPLES_SELECT ...) into the run of @by_id (run id -> run), or
 * into @only when not NULL. */
static gboolean
read_samples_rows (ProcuraStore  *store,
                   sqlite3_stmt  *stmt,
                   GHashTable    *by_id,
                   ProcuraRun    *only,
                   GError       **error)
{
  gboolean began = FALSE;
  gboolean ok = TRUE;
  int rc;

  /* one snapshot for the query and the BLOB reads, unless the caller has one */
  if (sqlite3_get_autocommit (store->db))
    {
      if (sqlite3_exec (store->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        {
          store_error (store, error, _("cannot read the samples"));
          return FALSE;
        }
      began = TRUE;
    }
  while (ok && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 run_id = sqlite3_column_int64 (stmt, 1);
      ProcuraRun *r = only != NULL ? only : g_hash_table_lookup (by_id, &run_id);

      if (r != NULL && !read_samples_row (store, stmt, r, error))
        ok = FALSE;
    }
  if (ok && rc != SQLITE_DONE)
    {
      store_error (store, error, _("cannot read the samples"));
      ok = FALSE;
    }
  sqlite3_reset (stmt);
  if (began)
    sqlite3_exec (store->db, "COMMIT", NULL, NULL, NULL);
  return ok;
}

static gboolean
load_all_samples (ProcuraStore  *store,
                  GPtrArray     *runs,
                  const char    *metric,
                  GError       **error)
{
  g_autoptr (GHashTable) by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (runs->len == 0)
    return TRUE;
  for (guint i = 0; i < runs->len; i++)
    {
      ProcuraRun *r = g_ptr_array_index (runs, i);
      g_hash_table_insert (by_id, &r->id, r);
    }
  if (metric != NULL)
    {
      stmt = store_prepare (store, SAMPLES_SELECT " WHERE metric = :metric ORDER BY run_id, id", error);
      if (stmt != NULL)
        bind_text (stmt, "metric", metric);
    }
  else
    stmt = store_prepare (store, SAMPLES_SELECT " ORDER BY run_id, id", error);
  return stmt != NULL && read_samples_rows (store, stmt, by_id, NULL, error);
}

gboolean
procura_store_load_samples (ProcuraStore  *store,
                            gint64         run_id,
                            ProcuraRun    *run,
                            GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (store != NULL && run != NULL, FALSE);
  stmt = store_prepare (store, SAMPLES_SELECT " WHERE run_id = :id ORDER BY id", error);
  if (stmt == NULL)
    return FALSE;
  bind_int (stmt, "id", run_id);
  return read_samples_rows (store, stmt, NULL, run, error);
}

gboolean
procura_store_load_run_samples (ProcuraStore  *store,
                                ProcuraRun    *run,
                                const char    *metric,
                                GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (store != NULL && run != NULL, FALSE);
  if (metric == NULL)
    return procura_store_load_samples (store, run->id, run, error);
  stmt = store_prepare (store, SAMPLES_SELECT " WHERE run_id = :id AND metric = :metric", error);
  if (stmt == NULL)
    return FALSE;
  bind_int (stmt, "id", run->id);
  bind_text (stmt, "metric", metric);
  return read_samples_rows (store, stmt, NULL, run, error);
}

gboolean
procura_store_load_project_samples (ProcuraStore    *store,
                                    ProcuraProject  *project,
                                    const char      *metric,
                                    GError         **error)
{
  g_return_val_if_fail (store != NULL && project != NULL, FALSE);
  return load_all_samples (store, project->runs, metric, error);
}

GPtrArray *
procura_store_list_runs (ProcuraStore      *store,
                         ProcuraStoreLoad   flags,
                         GError           **error)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_run_free);

  g_return_val_if_fail (store != NULL, NULL);
  if (!load_rows (store, RUN_SELECT " WHERE r.deleted_by IS NULL AND" LIVE_CANDIDATE " ORDER BY r.id",
                  read_run_row, runs, error)
      || !load_stats (store, runs, error)
      || ((flags & PROCURA_STORE_LOAD_WITH_SAMPLES) && !load_all_samples (store, runs, NULL, error)))
    return NULL;
  return g_steal_pointer (&runs);
}

ProcuraProject *
procura_store_load_project (ProcuraStore      *store,
                            ProcuraStoreLoad   flags,
                            GError           **error)
{
  g_autoptr (ProcuraProject) p = procura_project_new ();
  g_autoptr (GPtrArray) runs = NULL;
  gboolean ok = TRUE;
  gboolean found = FALSE;

  g_return_val_if_fail (store != NULL, NULL);

  /* One read transaction: a consistent snapshot even while another process writes. */
  if (sqlite3_exec (store->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
    {
      store_error (store, error, _("cannot read the project"));
      return NULL;
    }

  {
    g_autoptr (sqlite3_stmt) stmt = store_prepare (store, "SELECT * FROM project WHERE id = 1", error);
    ok = stmt != NULL;
    if (ok && sqlite3_step (stmt) == SQLITE_ROW)
      {
        found = TRUE;
        g_free (p->title);
        p->title = col_text (stmt, "title");
        p->created = col_text (stmt, "created");
        p->modified = col_text (stmt, "modified");
        p->illustrative = col_int (stmt, "illustrative", 0) != 0;
      }
  }
  if (ok && !found)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                   _("%s: the project file is damaged: it has no project record"), store->path);
      ok = FALSE;
    }
  if (ok)
    {
      g_autoptr (sqlite3_stmt) stmt = store_prepare (store, "SELECT * FROM brief WHERE id = 1", error);
      ok = stmt != NULL;
      if (ok && sqlite3_step (stmt) == SQLITE_ROW)
        {
          ProcuraBrief *b = p->brief;
          g_free (b->workload_type);
          b->workload_type = col_text (stmt, "workload_type");
          g_free (b->model_shape);
          b->model_shape = col_text (stmt, "model_shape");
          b->input_tokens = col_double (stmt, "input_tokens");
          b->output_tokens = col_double (stmt, "output_tokens");
          b->context_tokens = col_double (stmt, "context_tokens");
          b->concurrency = col_double (stmt, "concurrency");
          g_free (b->success_unit);
          b->success_unit = col_text (stmt, "success_unit");
          g_free (b->slo_metric);
          b->slo_metric = col_text (stmt, "slo_metric");
          b->slo_percentile = col_double (stmt, "slo_percentile");
          b->slo_threshold_ms = col_double (stmt, "slo_threshold_ms");
          g_free (b->duty_cycle);
          b->duty_cycle = col_text (stmt, "duty_cycle");
          g_free (b->operating_boundary);
          b->operating_boundary = col_text (stmt, "operating_boundary");
          g_free (b->tooling);
          b->tooling = col_text (stmt, "tooling");
          b->demand_average = col_double (stmt, "demand_average");
          b->demand_peak = col_double (stmt, "demand_peak");
          b->window_hours = col_double (stmt, "window_hours");
          b->input_tokens_mean = col_double (stmt, "input_tokens_mean");
          b->output_tokens_mean = col_double (stmt, "output_tokens_mean");
          b->storage_gb = col_double (stmt, "storage_gb");
          b->egress_gb = col_double (stmt, "egress_gb");
        }
    }
  if (ok)
    {
      g_autoptr (sqlite3_stmt) stmt = store_prepare (store, "SELECT * FROM assumptions WHERE id = 1", error);
      ok = stmt != NULL;
      if (ok && sqlite3_step (stmt) == SQLITE_ROW)
        {
          ProcuraAssumptions *a = &p->assumptions;
          a->acceptance_rate = col_double (stmt, "acceptance_rate");
          a->retry_rate = col_double (stmt, "retry_rate");
          a->failure_rate = col_double (stmt, "failure_rate");
          a->headroom = col_double (stmt, "headroom");
          a->stale_days = col_double (stmt, "stale_days");
          if (sqlite3_column_type (stmt, store_col (stmt, "currency")) != SQLITE_NULL)
            {
              g_free (a->currency);
              a->currency = col_text (stmt, "currency");
            }
        }
    }
  if (ok)
    {
      g_autoptr (sqlite3_stmt) stmt = store_prepare (store, "SELECT * FROM decision WHERE id = 1", error);
      ok = stmt != NULL;
      if (ok && sqlite3_step (stmt) == SQLITE_ROW)
        {
          ProcuraDecision *d = &p->decision;
          procura_decision_clear (d);
          d->candidate_id = col_int (stmt, "candidate_id", 0);
          d->overflow_candidate_id = col_int (stmt, "overflow_candidate_id", 0);
          d->rationale = col_text (stmt, "rationale");
          d->approver = col_text (stmt, "approver");
          d->date = col_text (stmt, "date");
        }
    }

  ok = ok
    && load_rows (store, "SELECT * FROM candidates WHERE deleted_by IS NULL ORDER BY id",
                  read_candidate_row, p->candidates, error)
    && load_rows (store, "SELECT * FROM quotes ORDER BY id", read_quote_row, p->quotes, error)
    && load_rows (store, "SELECT * FROM provenance ORDER BY id", read_provenance_row, p->provenance, error)
    && load_rows (store, "SELECT * FROM model_shapes ORDER BY id", read_model_shape_row, p->model_shapes, error)
    && load_rows (store, "SELECT * FROM engine_logs WHERE" LIVE_CANDIDATE " ORDER BY id",
                  read_engine_log_row, p->engine_logs, error)
    && load_rows (store, "SELECT * FROM probe_results WHERE" LIVE_CANDIDATE " ORDER BY id",
                  read_probe_result_row, p->probe_results, error)
    && load_rows (store, "SELECT * FROM ops_tests WHERE" LIVE_CANDIDATE " ORDER BY id",
                  read_ops_test_row, p->ops_tests, error)
    && load_rows (store, "SELECT * FROM checklist WHERE" LIVE_CANDIDATE " ORDER BY id",
                  read_checklist_row, p->checklist, error)
    && load_rows (store, "SELECT * FROM warning_answers WHERE (candidate_id = 0 OR candidate_id IN"
                         " (SELECT id FROM candidates WHERE deleted_by IS NULL)) ORDER BY id",
                  read_warning_answer_row, p->warning_answers, error);
  if (ok)
    {
      runs = procura_store_list_runs (store, flags, error);
      ok = runs != NULL;
    }
  if (ok && (flags & PROCURA_STORE_LOAD_SLO_SAMPLES) && !(flags & PROCURA_STORE_LOAD_WITH_SAMPLES)
      && p->brief->slo_metric != NULL)
    ok = load_all_samples (store, runs, p->brief->slo_metric, error);

  sqlite3_exec (store->db, "COMMIT", NULL, NULL, NULL);
  /* after the read: summaries a project lacks are computed, and kept when it can write */
  if (ok && (flags & PROCURA_STORE_LOAD_SLO_QUANTILES) && p->brief->slo_metric != NULL)
    ok = procura_store_load_quantiles (store, runs, p->brief->slo_metric, error);
  if (!ok)
    return NULL;

  procura_store_probe_split_failures (p);
  g_ptr_array_extend_and_steal (p->runs, g_steal_pointer (&runs));
  return g_steal_pointer (&p);
}
