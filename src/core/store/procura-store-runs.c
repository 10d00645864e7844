/* procura-store-runs.c: imports: provenance, runs, sample BLOBs, model shapes,
 * engine logs and probe results
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
#include "procura-util.h"

/* ------------------------------------------------------------------------- */
/* Imports                                                                    */

gint64
insert_provenance (ProcuraStore             *store,
                   const ProcuraProvenance  *p,
                   GError                  **error)
{
  g_autoptr (sqlite3_stmt) stmt = store_prepare (store,
    "INSERT INTO provenance (file_name, size, sha256, importer, format_version, imported_at)"
    " VALUES (:file_name, :size, :sha256, :importer, :format_version, :imported_at)", error);
  g_autofree char *now = NULL;

  if (stmt == NULL)
    return 0;
  if (p->imported_at == NULL)
    now = procura_now_iso8601 ();
  bind_text (stmt, "file_name", p->file_name);
  bind_int (stmt, "size", p->size);
  bind_text (stmt, "sha256", p->sha256);
  bind_text (stmt, "importer", p->importer);
  bind_text (stmt, "format_version", p->format_version);
  bind_text (stmt, "imported_at", p->imported_at != NULL ? p->imported_at : now);
  if (!step_done (store, stmt, error, _("cannot record the provenance")))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

static gboolean
insert_samples (ProcuraStore          *store,
                gint64                 run_id,
                const ProcuraSamples  *s,
                GError               **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
#if G_BYTE_ORDER != G_LITTLE_ENDIAN
  g_autoptr (GBytes) bytes = NULL;
#endif
  gsize len;
  gconstpointer data;

  if (s->metric == NULL || (s->values == NULL && s->n > 0))
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   _("%s: samples without a metric name or values"), store->path);
      return FALSE;
    }
  if (s->n > (gsize) STORE_MAX_LENGTH / 8)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   _("%s: too many samples of “%s” in one run (%zu, at most %d)"),
                   store->path, s->metric, s->n, STORE_MAX_LENGTH / 8);
      return FALSE;
    }
  stmt = store_prepare (store, "INSERT INTO run_samples (run_id, metric, n, data) VALUES (:run, :metric, :n, :data)",
                        error);
  if (stmt == NULL)
    return FALSE;
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  data = s->n > 0 ? (gconstpointer) s->values : (gconstpointer) "";
  len = s->n * sizeof (double);
#else
  bytes = procura_samples_encode (s->values, s->n);
  data = g_bytes_get_data (bytes, &len);
  if (data == NULL)
    data = "";
#endif
  bind_int (stmt, "run", run_id);
  bind_text (stmt, "metric", s->metric);
  bind_int (stmt, "n", (gint64) s->n);
  sqlite3_bind_blob64 (stmt, store_param (stmt, "data"), data, len, SQLITE_STATIC);
  return step_done (store, stmt, error, _("cannot store the samples"));
}

/* A run_stats row's key within its run (metric, statistic, source) */
static char *
stat_key (const ProcuraStat *s)
{
  return g_strdup_printf ("%s%c%s%c%d", s->metric, 0x1f, s->stat, 0x1f, (int) s->source);
}

#define RUN_COLUMNS \
  "candidate_id, provenance_id, label, format, format_version, model, engine, engine_version," \
  " gpu_name, gpu_count, tp, pp, dp, load_type, load_value, input_len, output_len, duration_s," \
  " completed, failed, request_throughput, output_throughput, total_throughput," \
  " input_tokens_mean, output_tokens_mean, warnings, extras_json"
#define RUN_VALUES \
  ":candidate_id, :provenance_id, :label, :format, :format_version, :model, :engine," \
  " :engine_version, :gpu_name, :gpu_count, :tp, :pp, :dp, :load_type, :load_value, :input_len," \
  " :output_len, :duration_s, :completed, :failed, :request_throughput, :output_throughput," \
  " :total_throughput, :input_tokens_mean, :output_tokens_mean, :warnings, :extras_json"

gint64
insert_run (ProcuraStore      *store,
            const ProcuraRun  *r,
            gint64             candidate_id,
            gint64             provenance_id,
            GError           **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autoptr (sqlite3_stmt) stat = NULL;
  g_autofree char *warnings = NULL;
  gint64 id;

  stmt = store_prepare (store, "INSERT INTO runs (" RUN_COLUMNS ") VALUES (" RUN_VALUES ")", error);
  if (stmt == NULL)
    return 0;
  warnings = strv_to_json (r->warnings);
  bind_id (stmt, "candidate_id", candidate_id);
  bind_id (stmt, "provenance_id", provenance_id);
  bind_text (stmt, "label", r->label);
  bind_text (stmt, "format", r->format);
  bind_text (stmt, "format_version", r->format_version);
  bind_text (stmt, "model", r->scenario.model);
  bind_text (stmt, "engine", r->scenario.engine);
  bind_text (stmt, "engine_version", r->scenario.engine_version);
  bind_text (stmt, "gpu_name", r->scenario.gpu_name);
  bind_int (stmt, "gpu_count", r->scenario.gpu_count);
  bind_int (stmt, "tp", r->scenario.tp);
  bind_int (stmt, "pp", r->scenario.pp);
  bind_int (stmt, "dp", r->scenario.dp);
  bind_text (stmt, "load_type", r->scenario.load_type);
  bind_double (stmt, "load_value", r->scenario.load_value);
  bind_double (stmt, "input_len", r->scenario.input_len);
  bind_double (stmt, "output_len", r->scenario.output_len);
  bind_double (stmt, "duration_s", r->duration_s);
  bind_int (stmt, "completed", r->completed);
  bind_int (stmt, "failed", r->failed);
  bind_double (stmt, "request_throughput", r->request_throughput);
  bind_double (stmt, "output_throughput", r->output_throughput);
  bind_double (stmt, "total_throughput", r->total_throughput);
  bind_double (stmt, "input_tokens_mean", r->input_tokens_mean);
  bind_double (stmt, "output_tokens_mean", r->output_tokens_mean);
  bind_text (stmt, "warnings", warnings);
  bind_text (stmt, "extras_json", r->extras_json);
  if (!step_done (store, stmt, error, _("cannot store the run")))
    return 0;
  id = sqlite3_last_insert_rowid (store->db);

  if (r->stats->len > 0)
    {
      /* The run is new: a key repeats only within its own list, where the last one wins
       * (as INSERT OR REPLACE would have it). A plain INSERT cannot fail half-way, so
       * SQLite keeps no statement journal for it (with 64 KiB pages, a page written to a
       * temporary file for every row). */
      g_autoptr (GHashTable) last = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

      for (guint i = 0; i < r->stats->len; i++)
        {
          const ProcuraStat *s = g_ptr_array_index (r->stats, i);

          if (s->metric != NULL && s->stat != NULL)
            g_hash_table_replace (last, stat_key (s), GUINT_TO_POINTER (i + 1));
        }
      stat = store_prepare (store,
        "INSERT INTO run_stats (run_id, metric, stat, source, value, samples)"
        " VALUES (:run, :metric, :stat, :source, :value, :samples)", error);
      if (stat == NULL)
        return 0;
      for (guint i = 0; i < r->stats->len; i++)
        {
          const ProcuraStat *s = g_ptr_array_index (r->stats, i);
          g_autofree char *key = NULL;

          if (s->metric == NULL || s->stat == NULL)
            continue;
          key = stat_key (s);
          if (GPOINTER_TO_UINT (g_hash_table_lookup (last, key)) != i + 1)
            continue;   /* a later one of the same key replaces it */
          sqlite3_reset (stat);
          bind_int (stat, "run", id);
          bind_text (stat, "metric", s->metric);
          bind_text (stat, "stat", s->stat);
          bind_int (stat, "source", s->source);
          bind_double (stat, "value", s->value);
          bind_int (stat, "samples", s->samples);
          if (!step_done (store, stat, error, _("cannot store a statistic")))
            return 0;
        }
    }
  for (guint i = 0; i < r->samples->len; i++)
    if (!insert_samples (store, id, g_ptr_array_index (r->samples, i), error)
        || !store_insert_quantiles (store, id, r, g_ptr_array_index (r->samples, i), error))
      return 0;
  return id;
}

gint64
insert_model_shape (ProcuraStore             *store,
                    const ProcuraModelShape  *m,
                    gint64                    provenance_id,
                    GError                  **error)
{
  g_autoptr (sqlite3_stmt) stmt = store_prepare (store,
    "INSERT INTO model_shapes (provenance_id, model_id, architecture, num_layers, hidden_size,"
    " intermediate_size, moe_intermediate_size, num_experts, num_shared_experts, experts_per_token,"
    " first_dense_layers, num_attention_heads, num_kv_heads, head_dim, vocab_size,"
    " tie_word_embeddings, sliding_window, layer_is_sliding, kv_lora_rank, q_lora_rank,"
    " qk_rope_head_dim, qk_nope_head_dim, v_head_dim, weights_dtype, quant_group_size,"
    " published_params, vision_params, vision_params_split, vision_tokens_per_item,"
    " vision_image_size, vision_channels, vision_config_layers, vision_config_hidden,"
    " max_position_embeddings, rope_cache_elements)"
    " VALUES (:provenance_id, :model_id, :architecture, :num_layers,"
    " :hidden_size, :intermediate_size, :moe_intermediate_size, :num_experts,"
    " :num_shared_experts, :experts_per_token, :first_dense_layers, :num_attention_heads,"
    " :num_kv_heads, :head_dim, :vocab_size, :tie_word_embeddings, :sliding_window,"
    " :layer_is_sliding, :kv_lora_rank, :q_lora_rank, :qk_rope_head_dim, :qk_nope_head_dim,"
    " :v_head_dim, :weights_dtype, :quant_group_size, :published_params, :vision_params,"
    " :vision_params_split, :vision_tokens_per_item, :vision_image_size, :vision_channels,"
    " :vision_config_layers, :vision_config_hidden, :max_position_embeddings,"
    " :rope_cache_elements)", error);

  if (stmt == NULL)
    return 0;
  bind_id (stmt, "provenance_id", provenance_id);
  bind_text (stmt, "model_id", m->id);
  bind_text (stmt, "architecture", m->architecture);
  bind_int (stmt, "num_layers", m->num_layers);
  bind_int (stmt, "hidden_size", m->hidden_size);
  bind_int (stmt, "intermediate_size", m->intermediate_size);
  bind_int (stmt, "moe_intermediate_size", m->moe_intermediate_size);
  bind_int (stmt, "num_experts", m->num_experts);
  bind_int (stmt, "num_shared_experts", m->num_shared_experts);
  bind_int (stmt, "experts_per_token", m->experts_per_token);
  bind_int (stmt, "first_dense_layers", m->first_dense_layers);
  bind_int (stmt, "num_attention_heads", m->num_attention_heads);
  bind_int (stmt, "num_kv_heads", m->num_kv_heads);
  bind_int (stmt, "head_dim", m->head_dim);
  bind_int (stmt, "vocab_size", m->vocab_size);
  bind_int (stmt, "tie_word_embeddings", m->tie_word_embeddings ? 1 : 0);
  bind_int (stmt, "sliding_window", m->sliding_window);
  if (m->layer_is_sliding != NULL && m->num_layers > 0)
    sqlite3_bind_blob (stmt, store_param (stmt, "layer_is_sliding"), m->layer_is_sliding, m->num_layers,
                       SQLITE_STATIC);
  bind_int (stmt, "kv_lora_rank", m->kv_lora_rank);
  bind_int (stmt, "q_lora_rank", m->q_lora_rank);
  bind_int (stmt, "qk_rope_head_dim", m->qk_rope_head_dim);
  bind_int (stmt, "qk_nope_head_dim", m->qk_nope_head_dim);
  bind_int (stmt, "v_head_dim", m->v_head_dim);
  bind_text (stmt, "weights_dtype", m->weights_dtype);
  bind_int (stmt, "quant_group_size", m->quant_group_size);
  bind_double (stmt, "published_params", m->published_params);
  bind_double (stmt, "vision_params", m->vision_params);
  bind_double (stmt, "vision_params_split", m->vision_params_split);
  bind_int (stmt, "vision_tokens_per_item", m->vision_tokens_per_item);
  bind_int (stmt, "vision_image_size", m->vision_image_size);
  bind_int (stmt, "vision_channels", m->vision_channels);
  bind_int (stmt, "vision_config_layers", m->vision_config_layers);
  bind_int (stmt, "vision_config_hidden", m->vision_config_hidden);
  bind_int (stmt, "max_position_embeddings", m->max_position_embeddings);
  bind_double (stmt, "rope_cache_elements", m->rope_cache_elements);
  if (!step_done (store, stmt, error, _("cannot store the model shape")))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

gint64
insert_engine_log (ProcuraStore            *store,
                   const ProcuraEngineLog  *l,
                   gint64                   candidate_id,
                   gint64                   provenance_id,
                   GError                 **error)
{
  g_autoptr (sqlite3_stmt) stmt = store_prepare (store,
    "INSERT INTO engine_logs (candidate_id, provenance_id, engine, engine_version, model, gpu_name,"
    " tp, pp, gpu_memory_utilization, mem_fraction_static, max_model_len, block_size, kv_dtype,"
    " weights_gib, kv_available_gib, kv_tokens, max_concurrency, cuda_graph_gib, errors)"
    " VALUES (:candidate_id, :provenance_id, :engine, :engine_version, :model, :gpu_name, :tp,"
    " :pp, :gpu_memory_utilization, :mem_fraction_static, :max_model_len, :block_size,"
    " :kv_dtype, :weights_gib, :kv_available_gib, :kv_tokens, :max_concurrency,"
    " :cuda_graph_gib, :errors)", error);
  g_autofree char *errors = NULL;

  if (stmt == NULL)
    return 0;
  errors = strv_to_json (l->errors);
  bind_id (stmt, "candidate_id", candidate_id);
  bind_id (stmt, "provenance_id", provenance_id);
  bind_text (stmt, "engine", l->engine);
  bind_text (stmt, "engine_version", l->engine_version);
  bind_text (stmt, "model", l->model);
  bind_text (stmt, "gpu_name", l->gpu_name);
  bind_int (stmt, "tp", l->tp);
  bind_int (stmt, "pp", l->pp);
  bind_double (stmt, "gpu_memory_utilization", l->gpu_memory_utilization);
  bind_double (stmt, "mem_fraction_static", l->mem_fraction_static);
  bind_int (stmt, "max_model_len", l->max_model_len);
  bind_int (stmt, "block_size", l->block_size);
  bind_text (stmt, "kv_dtype", l->kv_dtype);
  bind_double (stmt, "weights_gib", l->weights_gib);
  bind_double (stmt, "kv_available_gib", l->kv_available_gib);
  bind_int (stmt, "kv_tokens", l->kv_tokens);
  bind_double (stmt, "max_concurrency", l->max_concurrency);
  bind_double (stmt, "cuda_graph_gib", l->cuda_graph_gib);
  bind_text (stmt, "errors", errors);
  if (!step_done (store, stmt, error, _("cannot store the engine log")))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

gint64
insert_probe_result (ProcuraStore              *store,
                     const ProcuraProbeResult  *r,
                     gint64                     candidate_id,
                     gint64                     provenance_id,
                     GError                   **error)
{
  g_autoptr (sqlite3_stmt) stmt = store_prepare (store,
    "INSERT INTO probe_results (candidate_id, provenance_id, device_name, test, fits, total_bytes,"
    " free_bytes, headroom_bytes, bandwidth_gbps, json, measured_at) VALUES (:candidate_id,"
    " :provenance_id, :device_name, :test, :fits, :total_bytes, :free_bytes, :headroom_bytes,"
    " :bandwidth_gbps, :json, :measured_at)", error);

  if (stmt == NULL)
    return 0;
  bind_id (stmt, "candidate_id", candidate_id);
  bind_id (stmt, "provenance_id", provenance_id);
  bind_text (stmt, "device_name", r->device_name);
  bind_text (stmt, "test", r->test);
  bind_int (stmt, "fits", r->fits ? 1 : 0);
  bind_double (stmt, "total_bytes", r->total_bytes);
  bind_double (stmt, "free_bytes", r->free_bytes);
  bind_double (stmt, "headroom_bytes", r->headroom_bytes);
  bind_double (stmt, "bandwidth_gbps", r->bandwidth_gbps);
  bind_text (stmt, "json", r->json);
  bind_text (stmt, "measured_at", r->measured_at);
  if (!step_done (store, stmt, error, _("cannot store the probe result")))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

/* The rows of one import result, inside the caller's transaction; the new ids are
 * appended to @ids (written back by import_write_back() after the commit). */
static gboolean
import_rows (ProcuraStore         *store,
             ProcuraImportResult  *result,
             gint64                candidate_id,
             GArray               *ids,
             gint64               *prov_out,
             GError              **error)
{
  gint64 prov = 0;
  gboolean ok;

  ok = check_candidate (store, candidate_id, error);
  if (ok && result->provenance != NULL)
    ok = (prov = insert_provenance (store, result->provenance, error)) > 0;
  *prov_out = prov;

#define STORE_ALL(array, expr)                                  \
  for (guint i = 0; ok && (array) != NULL && i < (array)->len; i++) \
    {                                                           \
      gint64 id_ = (expr);                                      \
      ok = id_ > 0;                                             \
      g_array_append_val (ids, id_);                            \
    }
  STORE_ALL (result->quotes, insert_quote (store, g_ptr_array_index (result->quotes, i), prov, error));
  STORE_ALL (result->model_shapes, insert_model_shape (store, g_ptr_array_index (result->model_shapes, i), prov, error));
  STORE_ALL (result->engine_logs, insert_engine_log (store, g_ptr_array_index (result->engine_logs, i), candidate_id, prov, error));
  STORE_ALL (result->probe_results, insert_probe_result (store, g_ptr_array_index (result->probe_results, i), candidate_id, prov, error));
  STORE_ALL (result->runs, insert_run (store, g_ptr_array_index (result->runs, i), candidate_id, prov, error));
#undef STORE_ALL
  return ok;
}

static void
import_write_back (ProcuraImportResult *result,
                   gint64               candidate_id,
                   GArray              *ids,
                   gint64               prov)
{
  guint k = 0;

  if (result->provenance != NULL)
    result->provenance->id = prov;
  for (guint i = 0; result->quotes != NULL && i < result->quotes->len; i++)
    {
      ProcuraQuote *q = g_ptr_array_index (result->quotes, i);
      q->id = g_array_index (ids, gint64, k++);
      q->provenance_id = prov;
    }
  k += result->model_shapes != NULL ? result->model_shapes->len : 0;
  for (guint i = 0; result->engine_logs != NULL && i < result->engine_logs->len; i++)
    {
      ProcuraEngineLog *l = g_ptr_array_index (result->engine_logs, i);
      l->id = g_array_index (ids, gint64, k++);
      l->candidate_id = candidate_id;
      l->provenance_id = prov;
    }
  for (guint i = 0; result->probe_results != NULL && i < result->probe_results->len; i++)
    {
      ProcuraProbeResult *r = g_ptr_array_index (result->probe_results, i);
      r->id = g_array_index (ids, gint64, k++);
      r->candidate_id = candidate_id;
      r->provenance_id = prov;
    }
  for (guint i = 0; result->runs != NULL && i < result->runs->len; i++)
    {
      ProcuraRun *r = g_ptr_array_index (result->runs, i);
      r->id = g_array_index (ids, gint64, k++);
      r->candidate_id = candidate_id;
    }
}

gboolean
procura_store_import (ProcuraStore         *store,
                      ProcuraImportResult  *result,
                      gint64                candidate_id,
                      GError              **error)
{
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 prov = 0;
  gboolean ok;

  g_return_val_if_fail (store != NULL && result != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;

  /* Ids are written back only after the commit: collect them first. */
  ok = import_rows (store, result, candidate_id, ids, &prov, error);
  if (!store_finish (store, ok, error))
    {
      g_prefix_error (error, _("nothing was imported: "));
      return FALSE;
    }
  import_write_back (result, candidate_id, ids, prov);
  return TRUE;
}

gboolean
procura_store_assign_run (ProcuraStore  *store,
                          gint64         run_id,
                          gint64         candidate_id,
                          GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gboolean ok;

  g_return_val_if_fail (store != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  ok = check_candidate (store, candidate_id, error)
       && (stmt = store_prepare (store, "UPDATE runs SET candidate_id = :candidate WHERE id = :id AND deleted_by IS NULL",
                                 error)) != NULL;
  if (ok)
    {
      bind_id (stmt, "candidate", candidate_id);
      bind_int (stmt, "id", run_id);
      ok = step_done (store, stmt, error, _("cannot assign the run"))
           && check_changed_one (store, "run", run_id, error);
    }
  return store_finish (store, ok, error);
}

guint64
store_import_bytes (GPtrArray *results)
{
  guint64 bytes = 0;

  for (guint f = 0; f < results->len; f++)
    {
      const ProcuraImportResult *result = g_ptr_array_index (results, f);

      for (guint r = 0; r < result->runs->len; r++)
        {
          const ProcuraRun *run = g_ptr_array_index (result->runs, r);

          for (guint i = 0; i < run->samples->len; i++)
            bytes += ((const ProcuraSamples *) g_ptr_array_index (run->samples, i))->n * sizeof (double);
        }
    }
  return bytes;
}

void
procura_store_prepare_import_all (ProcuraStore *store,
                                  GPtrArray    *results)
{
  g_return_if_fail (store != NULL && results != NULL);
  store_prepare_bulk (store, store_import_bytes (results));
}

gboolean
procura_store_import_all (ProcuraStore            *store,
                          GPtrArray               *results,
                          gint64                   candidate_id,
                          const ProcuraCandidate  *new_candidate,
                          gint64                  *out_candidate_id,
                          GError                 **error)
{
  g_autoptr (GPtrArray) all_ids = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr (GArray) provs = g_array_new (FALSE, TRUE, sizeof (gint64));
  gboolean ok = TRUE, bulk;

  g_return_val_if_fail (store != NULL && results != NULL, FALSE);
  g_return_val_if_fail (new_candidate == NULL || candidate_id == 0, FALSE);
  if (!store_begin_bulk (store, store_import_bytes (results), &bulk, error))
    return FALSE;
  if (new_candidate != NULL)
    {
      candidate_id = insert_candidate (store, new_candidate, new_candidate->quote_id, error);
      ok = candidate_id > 0;
    }
  for (guint f = 0; ok && f < results->len; f++)
    {
      ProcuraImportResult *result = g_ptr_array_index (results, f);
      GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint64));
      gint64 prov = 0;

      g_ptr_array_add (all_ids, ids);
      ok = import_rows (store, result, candidate_id, ids, &prov, error);
      g_array_append_val (provs, prov);
      if (!ok && result->provenance != NULL && result->provenance->file_name != NULL)
        g_prefix_error (error, "%s: ", result->provenance->file_name);
    }
  ok = store_finish (store, ok, error);
  store_end_bulk (store, bulk);
  if (!ok)
    {
      g_prefix_error (error, _("nothing was imported: "));
      return FALSE;
    }
  for (guint f = 0; f < results->len; f++)
    import_write_back (g_ptr_array_index (results, f), candidate_id,
                       g_ptr_array_index (all_ids, f), g_array_index (provs, gint64, f));
  if (out_candidate_id != NULL)
    *out_candidate_id = candidate_id;
  return TRUE;
}
