/* procura-store-schema.c: the SQL of every schema version
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * NEVER edit a released schema or migration: add a migration instead, bump
 * PROCURA_STORE_SCHEMA_VERSION and document it in docs/project-file.md.
 */
#include "config.h"

#include "procura-store.h"
#include "procura-store-schema.h"

/* Version 1. */
static const char schema_v1[] =
  "CREATE TABLE project (\n"
  "  id INTEGER PRIMARY KEY CHECK (id = 1),\n"
  "  title TEXT NOT NULL,\n"
  "  created TEXT NOT NULL,\n"
  "  modified TEXT NOT NULL,\n"
  "  illustrative INTEGER NOT NULL DEFAULT 0\n"
  ");\n"
  "CREATE TABLE brief (\n"
  "  id INTEGER PRIMARY KEY CHECK (id = 1),\n"
  "  workload_type TEXT, model_shape TEXT,\n"
  "  input_tokens REAL, output_tokens REAL, context_tokens REAL, concurrency REAL,\n"
  "  success_unit TEXT, slo_metric TEXT, slo_percentile REAL, slo_threshold_ms REAL,\n"
  "  duty_cycle TEXT, operating_boundary TEXT, tooling TEXT,\n"
  "  demand_average REAL, demand_peak REAL, window_hours REAL\n"
  ");\n"
  "CREATE TABLE assumptions (\n"
  "  id INTEGER PRIMARY KEY CHECK (id = 1),\n"
  "  acceptance_rate REAL, retry_rate REAL, failure_rate REAL,\n"
  "  headroom REAL, stale_days REAL, currency TEXT\n"
  ");\n"
  "CREATE TABLE provenance (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  file_name TEXT, size INTEGER, sha256 TEXT, importer TEXT,\n"
  "  format_version TEXT, imported_at TEXT\n"
  ");\n"
  "CREATE TABLE quotes (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  provenance_id INTEGER REFERENCES provenance (id) ON DELETE SET NULL,\n"
  "  kind INTEGER NOT NULL,\n"
  "  provider TEXT, sku TEXT, gpu_name TEXT, gpu_id TEXT, gpu_count INTEGER,\n"
  "  price_per_hour REAL, currency TEXT, pricing_model TEXT, term_months REAL,\n"
  "  min_commitment REAL, region TEXT, seen_date TEXT, source TEXT,\n"
  "  storage_per_gb_month REAL, egress_per_gb REAL, support_pct REAL, setup_fee REAL,\n"
  "  notes TEXT, api_model TEXT, price_input_per_mtok REAL, price_cached_per_mtok REAL,\n"
  "  price_output_per_mtok REAL, rate_limit_rpm REAL, rate_limit_tpm REAL\n"
  ");\n"
  "CREATE TABLE candidates (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL,\n"
  "  kind INTEGER NOT NULL,\n"
  "  gpu_name TEXT, gpus_per_replica INTEGER, provider TEXT, pricing_model TEXT,\n"
  "  region TEXT, engine TEXT, tp INTEGER, pp INTEGER,\n"
  "  quote_id INTEGER REFERENCES quotes (id) ON DELETE SET NULL,\n"
  "  price_per_gpu_hour REAL, price_date TEXT, provisioning INTEGER,\n"
  "  billed_hours REAL, target_utilization REAL, capacity_override REAL,\n"
  "  storage REAL, network REAL, serving_stack REAL, observability REAL,\n"
  "  labor_hours REAL, labor_rate REAL,\n"
  "  api_provider TEXT, api_model TEXT, input_tokens REAL, cached_input_tokens REAL,\n"
  "  output_tokens REAL, price_input_per_mtok REAL, price_cached_per_mtok REAL,\n"
  "  price_output_per_mtok REAL, gateway REAL, rate_limit_rpm REAL, notes TEXT\n"
  ");\n"
  "CREATE UNIQUE INDEX candidates_name ON candidates (name);\n"
  "CREATE TABLE decision (\n"
  "  id INTEGER PRIMARY KEY CHECK (id = 1),\n"
  "  candidate_id INTEGER REFERENCES candidates (id) ON DELETE SET NULL,\n"
  "  rationale TEXT, approver TEXT, date TEXT\n"
  ");\n"
  "CREATE TABLE runs (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  candidate_id INTEGER REFERENCES candidates (id) ON DELETE CASCADE,\n"
  "  provenance_id INTEGER REFERENCES provenance (id) ON DELETE SET NULL,\n"
  "  label TEXT, format TEXT, format_version TEXT,\n"
  "  model TEXT, engine TEXT, engine_version TEXT, gpu_name TEXT, gpu_count INTEGER,\n"
  "  tp INTEGER, pp INTEGER, dp INTEGER, load_type TEXT, load_value REAL,\n"
  "  input_len REAL, output_len REAL,\n"
  "  duration_s REAL, completed INTEGER, failed INTEGER, request_throughput REAL,\n"
  "  output_throughput REAL, total_throughput REAL, input_tokens_mean REAL,\n"
  "  output_tokens_mean REAL, warnings TEXT, extras_json TEXT\n"
  ");\n"
  "CREATE INDEX runs_candidate ON runs (candidate_id);\n"
  "CREATE TABLE run_stats (\n"
  "  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,\n"
  "  metric TEXT NOT NULL, stat TEXT NOT NULL, source INTEGER NOT NULL,\n"
  "  value REAL, samples INTEGER,\n"
  "  PRIMARY KEY (run_id, metric, stat, source)\n"
  ") WITHOUT ROWID;\n"
  "CREATE TABLE run_samples (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,\n"
  "  metric TEXT NOT NULL, n INTEGER NOT NULL, data BLOB NOT NULL,\n"
  "  UNIQUE (run_id, metric)\n"
  ");\n"
  "CREATE TABLE model_shapes (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  provenance_id INTEGER REFERENCES provenance (id) ON DELETE SET NULL,\n"
  "  model_id TEXT, architecture TEXT, num_layers INTEGER, hidden_size INTEGER,\n"
  "  intermediate_size INTEGER, moe_intermediate_size INTEGER, num_experts INTEGER,\n"
  "  num_shared_experts INTEGER, experts_per_token INTEGER, first_dense_layers INTEGER,\n"
  "  num_attention_heads INTEGER, num_kv_heads INTEGER, head_dim INTEGER,\n"
  "  vocab_size INTEGER, tie_word_embeddings INTEGER, sliding_window INTEGER,\n"
  "  layer_is_sliding BLOB, kv_lora_rank INTEGER, q_lora_rank INTEGER,\n"
  "  qk_rope_head_dim INTEGER, qk_nope_head_dim INTEGER, v_head_dim INTEGER,\n"
  "  weights_dtype TEXT, quant_group_size INTEGER, published_params REAL\n"
  ");\n"
  "CREATE TABLE engine_logs (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  candidate_id INTEGER REFERENCES candidates (id) ON DELETE CASCADE,\n"
  "  provenance_id INTEGER REFERENCES provenance (id) ON DELETE SET NULL,\n"
  "  engine TEXT, engine_version TEXT, model TEXT, gpu_name TEXT, tp INTEGER, pp INTEGER,\n"
  "  gpu_memory_utilization REAL, mem_fraction_static REAL, max_model_len INTEGER,\n"
  "  block_size INTEGER, kv_dtype TEXT, weights_gib REAL, kv_available_gib REAL,\n"
  "  kv_tokens INTEGER, max_concurrency REAL, cuda_graph_gib REAL, errors TEXT\n"
  ");\n"
  "CREATE TABLE probe_results (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  candidate_id INTEGER REFERENCES candidates (id) ON DELETE CASCADE,\n"
  "  provenance_id INTEGER REFERENCES provenance (id) ON DELETE SET NULL,\n"
  "  device_name TEXT, test TEXT, fits INTEGER, total_bytes REAL, free_bytes REAL,\n"
  "  headroom_bytes REAL, bandwidth_gbps REAL, json TEXT, measured_at TEXT\n"
  ");\n"
  "CREATE TABLE ops_tests (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  candidate_id INTEGER REFERENCES candidates (id) ON DELETE CASCADE,\n"
  "  kind TEXT NOT NULL, result TEXT, recovery_s REAL, failed_requests REAL,\n"
  "  per_month REAL, notes TEXT\n"
  ");\n"
  "CREATE TABLE checklist (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  candidate_id INTEGER REFERENCES candidates (id) ON DELETE CASCADE,\n"
  "  section TEXT, item TEXT NOT NULL, answer TEXT, evidence TEXT\n"
  ");\n";

/* Version 2: undoable deletion (undo_log, deleted_by) and the candidate's interconnect. */
static const char migration_v2[] =
  "CREATE TABLE undo_log (\n"
  "  id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
  "  kind TEXT NOT NULL,\n"
  "  target_id INTEGER NOT NULL,\n"
  "  decision_candidate_id INTEGER,\n"
  "  created TEXT NOT NULL\n"
  ");\n"
  "ALTER TABLE candidates ADD COLUMN interconnect TEXT;\n"
  "ALTER TABLE candidates ADD COLUMN deleted_by INTEGER;\n"
  "ALTER TABLE runs ADD COLUMN deleted_by INTEGER;\n"
  "DROP INDEX candidates_name;\n"
  "CREATE UNIQUE INDEX candidates_name ON candidates (name) WHERE deleted_by IS NULL;\n";

/* Version 3: the analyst's answers to the analysis warnings. candidate_id 0 is
 * project-wide, so there is no foreign key: answers of a deleted candidate stay (the
 * deletion can be undone) and go when it is purged. */
static const char migration_v3[] =
  "CREATE TABLE warning_answers (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  warning_id TEXT NOT NULL,\n"
  "  candidate_id INTEGER NOT NULL DEFAULT 0,\n"
  "  answer TEXT NOT NULL,\n"
  "  answered_at TEXT NOT NULL,\n"
  "  UNIQUE (warning_id, candidate_id)\n"
  ");\n";

/* Version 4: the cost model's own inputs (docs/cost-model.md). The brief asks for the
 * mean request shape beside the p95 one (the API is billed on the mean) and the stored
 * and egress volumes the quote's per-GB prices apply to; a candidate carries its
 * purchase price inputs, without which "buy" is never advised. A checklist answer may
 * name a file reference (path or URI) as its evidence. The decision may name the hybrid. */
static const char migration_v4[] =
  "ALTER TABLE brief ADD COLUMN input_tokens_mean REAL;\n"
  "ALTER TABLE brief ADD COLUMN output_tokens_mean REAL;\n"
  "ALTER TABLE brief ADD COLUMN storage_gb REAL;\n"
  "ALTER TABLE brief ADD COLUMN egress_gb REAL;\n"
  "ALTER TABLE candidates ADD COLUMN purchase_price_per_gpu REAL;\n"
  "ALTER TABLE candidates ADD COLUMN depreciation_years REAL;\n"
  "ALTER TABLE candidates ADD COLUMN power_per_gpu_hour REAL;\n"
  "ALTER TABLE candidates ADD COLUMN hosting_per_gpu_month REAL;\n"
  "ALTER TABLE checklist ADD COLUMN evidence_file TEXT;\n"
  /* the decision may be the analysis' hybrid, which has no row of its own: candidate_id
   * names its GPUs, overflow_candidate_id the API route taking the overflow */
  "ALTER TABLE decision ADD COLUMN overflow_candidate_id INTEGER REFERENCES candidates (id) ON DELETE SET NULL;\n";

/* Version 5: two additions, both derived from what an import reads.
 * - The sorted quantile summary of each run's samples of each metric
 *   (procura-quantiles.h; docs/project-file.md), so a CDF needs neither the samples nor
 *   their sort. A project without them gets them from its samples.
 * - What the memory fit needs of an imported config.json beyond the text model: the
 *   vision tower (parameters, of which split by TP, decoder tokens per image, image side
 *   and channels, and vision_config's own num_hidden_layers and hidden_size, which SGLang
 *   reads), the model's window (max_position_embeddings with the rope scaling vLLM
 *   applies) and the size of the rotary tables vLLM builds at load time. Without them a
 *   VLM imported into a project was sized as text only. */
static const char migration_v5[] =
  "CREATE TABLE run_quantiles (\n"
  "  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,\n"
  "  metric TEXT NOT NULL, n INTEGER NOT NULL, k INTEGER NOT NULL, data BLOB NOT NULL,\n"
  "  PRIMARY KEY (run_id, metric)\n"
  ");\n"
  "ALTER TABLE model_shapes ADD COLUMN vision_params REAL;\n"
  "ALTER TABLE model_shapes ADD COLUMN vision_params_split REAL;\n"
  "ALTER TABLE model_shapes ADD COLUMN vision_tokens_per_item INTEGER;\n"
  "ALTER TABLE model_shapes ADD COLUMN vision_image_size INTEGER;\n"
  "ALTER TABLE model_shapes ADD COLUMN vision_channels INTEGER;\n"
  "ALTER TABLE model_shapes ADD COLUMN vision_config_layers INTEGER;\n"
  "ALTER TABLE model_shapes ADD COLUMN vision_config_hidden INTEGER;\n"
  "ALTER TABLE model_shapes ADD COLUMN max_position_embeddings INTEGER;\n"
  "ALTER TABLE model_shapes ADD COLUMN rope_cache_elements REAL;\n";

const char *
procura_store_schema_v1_sql (void)
{
  return schema_v1;
}

const char *
procura_store_migration_sql (int to)
{
  switch (to)
    {
    case 2:
      return migration_v2;
    case 3:
      return migration_v3;
    case 4:
      return migration_v4;
    case 5:
      return migration_v5;
    default:
      return NULL;
    }
}

char *
procura_store_schema_signature (sqlite3 *db)
{
  sqlite3_stmt *stmt = NULL;
  GString *out;
  int rc;

  if (sqlite3_prepare_v2 (db,
                          "SELECT type, name, tbl_name, sql FROM sqlite_schema "
                          "ORDER BY type, name", -1, &stmt, NULL) != SQLITE_OK)
    return NULL;
  out = g_string_new (NULL);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      for (int i = 0; i < 4; i++)
        {
          const char *t = (const char *) sqlite3_column_text (stmt, i);
          g_string_append (out, t != NULL ? t : "");
          g_string_append_c (out, i < 3 ? '\x1f' : '\x1e');
        }
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return g_string_free (out, FALSE);
}

gboolean
procura_store_schema_apply (sqlite3 *db,
                            int      from,
                            int      to)
{
  if (from < 1 && sqlite3_exec (db, procura_store_schema_v1_sql (), NULL, NULL, NULL) != SQLITE_OK)
    return FALSE;
  for (int v = MAX (from, 1) + 1; v <= to; v++)
    if (procura_store_migration_sql (v) == NULL
        || sqlite3_exec (db, procura_store_migration_sql (v), NULL, NULL, NULL) != SQLITE_OK)
      return FALSE;
  return TRUE;
}

char *
procura_store_schema_expected (int version)
{
  sqlite3 *mem = NULL;
  char *sig = NULL;

  if (sqlite3_open_v2 (":memory:", &mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) == SQLITE_OK
      && procura_store_schema_apply (mem, 0, version))
    sig = procura_store_schema_signature (mem);
  sqlite3_close (mem);
  return sig;
}
