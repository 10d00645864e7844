/* procura-store-documents.c: project-level fields, warning answers, candidates, ops tests,
 * checklist and saving a whole project
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
/* Project-level fields                                                       */

gboolean
procura_store_set_title (ProcuraStore  *store,
                         const char    *title,
                         GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (store != NULL, FALSE);
  if (title == NULL || *title == '\0')
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   _("%s: the title must not be empty"), store->path);
      return FALSE;
    }
  if (!store_begin (store, error))
    return FALSE;
  stmt = store_prepare (store, "UPDATE project SET title = :title WHERE id = 1", error);
  if (stmt != NULL)
    bind_text (stmt, "title", title);
  return store_finish (store, stmt != NULL && step_done (store, stmt, error, _("cannot save the title")), error);
}

gboolean
procura_store_set_illustrative (ProcuraStore  *store,
                                gboolean       illustrative,
                                GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (store != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  stmt = store_prepare (store, "UPDATE project SET illustrative = :v WHERE id = 1", error);
  if (stmt != NULL)
    bind_int (stmt, "v", illustrative ? 1 : 0);
  return store_finish (store, stmt != NULL && step_done (store, stmt, error, _("cannot save the project")), error);
}

static gboolean
write_brief (ProcuraStore        *store,
             const ProcuraBrief  *b,
             GError             **error)
{
  g_autoptr (sqlite3_stmt) stmt = store_prepare (store,
    "INSERT OR REPLACE INTO brief (id, workload_type, model_shape, input_tokens, output_tokens,"
    " context_tokens, concurrency, success_unit, slo_metric, slo_percentile, slo_threshold_ms,"
    " duty_cycle, operating_boundary, tooling, demand_average, demand_peak, window_hours,"
    " input_tokens_mean, output_tokens_mean, storage_gb, egress_gb)"
    " VALUES (1, :workload_type, :model_shape, :input_tokens, :output_tokens, :context_tokens,"
    " :concurrency, :success_unit, :slo_metric, :slo_percentile, :slo_threshold_ms, :duty_cycle,"
    " :operating_boundary, :tooling, :demand_average, :demand_peak, :window_hours,"
    " :input_tokens_mean, :output_tokens_mean, :storage_gb, :egress_gb)", error);

  if (stmt == NULL)
    return FALSE;
  bind_text (stmt, "workload_type", b->workload_type);
  bind_text (stmt, "model_shape", b->model_shape);
  bind_double (stmt, "input_tokens", b->input_tokens);
  bind_double (stmt, "output_tokens", b->output_tokens);
  bind_double (stmt, "context_tokens", b->context_tokens);
  bind_double (stmt, "concurrency", b->concurrency);
  bind_text (stmt, "success_unit", b->success_unit);
  bind_text (stmt, "slo_metric", b->slo_metric);
  bind_double (stmt, "slo_percentile", b->slo_percentile);
  bind_double (stmt, "slo_threshold_ms", b->slo_threshold_ms);
  bind_text (stmt, "duty_cycle", b->duty_cycle);
  bind_text (stmt, "operating_boundary", b->operating_boundary);
  bind_text (stmt, "tooling", b->tooling);
  bind_double (stmt, "demand_average", b->demand_average);
  bind_double (stmt, "demand_peak", b->demand_peak);
  bind_double (stmt, "window_hours", b->window_hours);
  bind_double (stmt, "input_tokens_mean", b->input_tokens_mean);
  bind_double (stmt, "output_tokens_mean", b->output_tokens_mean);
  bind_double (stmt, "storage_gb", b->storage_gb);
  bind_double (stmt, "egress_gb", b->egress_gb);
  return step_done (store, stmt, error, _("cannot save the brief"));
}

gboolean
procura_store_save_brief (ProcuraStore        *store,
                          const ProcuraBrief  *brief,
                          GError             **error)
{
  g_return_val_if_fail (store != NULL && brief != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  return store_finish (store, write_brief (store, brief, error), error);
}

static gboolean
write_assumptions (ProcuraStore              *store,
                   const ProcuraAssumptions  *a,
                   GError                   **error)
{
  g_autoptr (sqlite3_stmt) stmt = store_prepare (store,
    "INSERT OR REPLACE INTO assumptions (id, acceptance_rate, retry_rate, failure_rate, headroom,"
    " stale_days, currency) VALUES (1, :acceptance_rate, :retry_rate, :failure_rate, :headroom,"
    " :stale_days, :currency)", error);

  if (stmt == NULL)
    return FALSE;
  bind_double (stmt, "acceptance_rate", a->acceptance_rate);
  bind_double (stmt, "retry_rate", a->retry_rate);
  bind_double (stmt, "failure_rate", a->failure_rate);
  bind_double (stmt, "headroom", a->headroom);
  bind_double (stmt, "stale_days", a->stale_days);
  bind_text (stmt, "currency", a->currency);
  return step_done (store, stmt, error, _("cannot save the assumptions"));
}

gboolean
procura_store_save_assumptions (ProcuraStore              *store,
                                const ProcuraAssumptions  *assumptions,
                                GError                   **error)
{
  g_return_val_if_fail (store != NULL && assumptions != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  return store_finish (store, write_assumptions (store, assumptions, error), error);
}

static gboolean
write_decision (ProcuraStore           *store,
                const ProcuraDecision  *d,
                GError                **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (!check_candidate (store, d->candidate_id, error)
      || !check_candidate (store, d->overflow_candidate_id, error))
    return FALSE;
  stmt = store_prepare (store,
    "INSERT OR REPLACE INTO decision (id, candidate_id, overflow_candidate_id, rationale, approver, date)"
    " VALUES (1, :candidate_id, :overflow_candidate_id, :rationale, :approver, :date)", error);
  if (stmt == NULL)
    return FALSE;
  bind_id (stmt, "candidate_id", d->candidate_id);
  bind_id (stmt, "overflow_candidate_id", d->overflow_candidate_id);
  bind_text (stmt, "rationale", d->rationale);
  bind_text (stmt, "approver", d->approver);
  bind_text (stmt, "date", d->date);
  return step_done (store, stmt, error, _("cannot save the decision"));
}

gboolean
procura_store_save_decision (ProcuraStore           *store,
                             const ProcuraDecision  *decision,
                             GError                **error)
{
  g_return_val_if_fail (store != NULL && decision != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  return store_finish (store, write_decision (store, decision, error), error);
}

/* ------------------------------------------------------------------------- */
/* Answers to the analysis warnings                                           */

/* Stores (or, @answer NULL or empty, removes) one answer; @candidate_id is a stored id
 * or 0. */
static gboolean
write_warning_answer (ProcuraStore  *store,
                      const char    *warning_id,
                      gint64         candidate_id,
                      const char    *answer,
                      const char    *answered_at,
                      GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gboolean remove = answer == NULL || *answer == '\0';

  if (warning_id == NULL || *warning_id == '\0')
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   _("%s: an answer needs the id of the warning it answers"), store->path);
      return FALSE;
    }
  if (!check_candidate (store, candidate_id, error))
    return FALSE;
  stmt = store_prepare (store, remove
    ? "DELETE FROM warning_answers WHERE warning_id = :warning_id AND candidate_id = :candidate_id"
    : "INSERT INTO warning_answers (warning_id, candidate_id, answer, answered_at)"
      " VALUES (:warning_id, :candidate_id, :answer, :answered_at)"
      " ON CONFLICT (warning_id, candidate_id) DO UPDATE SET answer = excluded.answer,"
      " answered_at = excluded.answered_at", error);
  if (stmt == NULL)
    return FALSE;
  bind_text (stmt, "warning_id", warning_id);
  bind_int (stmt, "candidate_id", candidate_id);
  if (!remove)
    {
      g_autofree char *now = answered_at == NULL ? procura_now_iso8601 () : NULL;

      bind_text (stmt, "answer", answer);
      bind_text (stmt, "answered_at", answered_at != NULL ? answered_at : now);
    }
  return step_done (store, stmt, error, _("cannot save the answer"));
}

gboolean
procura_store_answer_warning (ProcuraStore  *store,
                              const char    *warning_id,
                              gint64         candidate_id,
                              const char    *answer,
                              GError       **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  return store_finish (store, write_warning_answer (store, warning_id, candidate_id, answer, NULL, error),
                       error);
}

/* ------------------------------------------------------------------------- */
/* Candidates                                                                 */

#define CANDIDATE_COLUMNS \
  "name, kind, gpu_name, gpus_per_replica, provider, pricing_model, region, engine, tp, pp," \
  " quote_id, price_per_gpu_hour, price_date, provisioning, billed_hours, target_utilization," \
  " capacity_override, interconnect, storage, network, serving_stack, observability," \
  " labor_hours, labor_rate, api_provider, api_model, input_tokens, cached_input_tokens," \
  " output_tokens, price_input_per_mtok, price_cached_per_mtok, price_output_per_mtok," \
  " gateway, rate_limit_rpm, notes, purchase_price_per_gpu, depreciation_years," \
  " power_per_gpu_hour, hosting_per_gpu_month"
#define CANDIDATE_VALUES \
  ":name, :kind, :gpu_name, :gpus_per_replica, :provider, :pricing_model, :region, :engine," \
  " :tp, :pp, :quote_id, :price_per_gpu_hour, :price_date, :provisioning, :billed_hours," \
  " :target_utilization, :capacity_override, :interconnect, :storage, :network," \
  " :serving_stack, :observability, :labor_hours, :labor_rate, :api_provider, :api_model," \
  " :input_tokens, :cached_input_tokens, :output_tokens, :price_input_per_mtok," \
  " :price_cached_per_mtok, :price_output_per_mtok, :gateway, :rate_limit_rpm, :notes," \
  " :purchase_price_per_gpu, :depreciation_years, :power_per_gpu_hour, :hosting_per_gpu_month"

static gboolean
validate_candidate (ProcuraStore            *store,
                    const ProcuraCandidate  *c,
                    GError                 **error)
{
  if (c->name == NULL || *c->name == '\0')
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   _("%s: a candidate needs a name"), store->path);
      return FALSE;
    }
  if (c->kind < PROCURA_CANDIDATE_GPU || c->kind > PROCURA_CANDIDATE_HYBRID)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   _("%s: candidate “%s”: unknown kind %d"), store->path, c->name, (int) c->kind);
      return FALSE;
    }
  return TRUE;
}

static void
bind_candidate (sqlite3_stmt           *stmt,
                const ProcuraCandidate *c,
                gint64                  quote_id)
{
  bind_text (stmt, "name", c->name);
  bind_int (stmt, "kind", c->kind);
  bind_text (stmt, "gpu_name", c->gpu_name);
  bind_int (stmt, "gpus_per_replica", c->gpus_per_replica);
  bind_text (stmt, "provider", c->provider);
  bind_text (stmt, "pricing_model", c->pricing_model);
  bind_text (stmt, "region", c->region);
  bind_text (stmt, "engine", c->engine);
  bind_int (stmt, "tp", c->tp);
  bind_int (stmt, "pp", c->pp);
  bind_id (stmt, "quote_id", quote_id);
  bind_double (stmt, "price_per_gpu_hour", c->price_per_gpu_hour);
  bind_text (stmt, "price_date", c->price_date);
  bind_int (stmt, "provisioning", c->provisioning);
  bind_double (stmt, "billed_hours", c->billed_hours);
  bind_double (stmt, "target_utilization", c->target_utilization);
  bind_double (stmt, "capacity_override", c->capacity_override);
  bind_text (stmt, "interconnect", c->interconnect);
  bind_double (stmt, "storage", c->storage);
  bind_double (stmt, "network", c->network);
  bind_double (stmt, "serving_stack", c->serving_stack);
  bind_double (stmt, "observability", c->observability);
  bind_double (stmt, "labor_hours", c->labor_hours);
  bind_double (stmt, "labor_rate", c->labor_rate);
  bind_text (stmt, "api_provider", c->api_provider);
  bind_text (stmt, "api_model", c->api_model);
  bind_double (stmt, "input_tokens", c->input_tokens);
  bind_double (stmt, "cached_input_tokens", c->cached_input_tokens);
  bind_double (stmt, "output_tokens", c->output_tokens);
  bind_double (stmt, "price_input_per_mtok", c->price_input_per_mtok);
  bind_double (stmt, "price_cached_per_mtok", c->price_cached_per_mtok);
  bind_double (stmt, "price_output_per_mtok", c->price_output_per_mtok);
  bind_double (stmt, "gateway", c->gateway);
  bind_double (stmt, "rate_limit_rpm", c->rate_limit_rpm);
  bind_text (stmt, "notes", c->notes);
  bind_double (stmt, "purchase_price_per_gpu", c->purchase_price_per_gpu);
  bind_double (stmt, "depreciation_years", c->depreciation_years);
  bind_double (stmt, "power_per_gpu_hour", c->power_per_gpu_hour);
  bind_double (stmt, "hosting_per_gpu_month", c->hosting_per_gpu_month);
}

static gboolean
check_quote (ProcuraStore  *store,
             gint64         quote_id,
             GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (quote_id <= 0)
    return TRUE;
  stmt = store_prepare (store, "SELECT 1 FROM quotes WHERE id = :id", error);
  if (stmt == NULL)
    return FALSE;
  bind_int (stmt, "id", quote_id);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    return TRUE;
  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND,
               _("%s: no quote with id %lld"), store->path, (long long) quote_id);
  return FALSE;
}

gboolean
name_taken (ProcuraStore  *store,
            const char    *name,
            gint64         except_id,
            GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = store_prepare (store,
    "SELECT 1 FROM candidates WHERE name = :name AND deleted_by IS NULL AND id != :id", NULL);

  if (stmt == NULL)
    return FALSE;
  bind_text (stmt, "name", name);
  bind_int (stmt, "id", except_id);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    return FALSE;
  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
               _("%s: there is already a candidate called “%s”"), store->path, name);
  return TRUE;
}

gint64
insert_candidate (ProcuraStore            *store,
                  const ProcuraCandidate  *c,
                  gint64                   quote_id,
                  GError                 **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (!validate_candidate (store, c, error)
      || name_taken (store, c->name, 0, error)
      || !check_quote (store, quote_id, error))
    return 0;
  stmt = store_prepare (store, "INSERT INTO candidates (" CANDIDATE_COLUMNS ") VALUES (" CANDIDATE_VALUES ")",
                        error);
  if (stmt == NULL)
    return 0;
  bind_candidate (stmt, c, quote_id);
  if (!step_done (store, stmt, error, _("cannot add the candidate")))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

gint64
procura_store_add_candidate (ProcuraStore            *store,
                             const ProcuraCandidate  *candidate,
                             GError                 **error)
{
  gint64 id;

  g_return_val_if_fail (store != NULL && candidate != NULL, 0);
  if (!store_begin (store, error))
    return 0;
  id = insert_candidate (store, candidate, candidate->quote_id, error);
  if (!store_finish (store, id > 0, error))
    return 0;
  return id;
}

gboolean
procura_store_update_candidate (ProcuraStore            *store,
                                const ProcuraCandidate  *c,
                                GError                 **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gboolean ok;

  g_return_val_if_fail (store != NULL && c != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  ok = check_candidate (store, c->id > 0 ? c->id : -1, error)
       && validate_candidate (store, c, error)
       && !name_taken (store, c->name, c->id, error)
       && check_quote (store, c->quote_id, error);
  if (ok)
    {
      stmt = store_prepare (store,
        "UPDATE candidates SET (" CANDIDATE_COLUMNS ") = (" CANDIDATE_VALUES ") WHERE id = :id",
        error);
      ok = stmt != NULL;
    }
  if (ok)
    {
      bind_candidate (stmt, c, c->quote_id);
      bind_int (stmt, "id", c->id);
      ok = step_done (store, stmt, error, _("cannot save the candidate"));
    }
  return store_finish (store, ok, error);
}

gint64
procura_store_find_candidate_by_name (ProcuraStore *store,
                                      const char   *name)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (store != NULL, 0);
  if (name == NULL)
    return 0;
  stmt = store_prepare (store, "SELECT id FROM candidates WHERE name = :name AND deleted_by IS NULL", NULL);
  if (stmt == NULL)
    return 0;
  bind_text (stmt, "name", name);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    return 0;
  return sqlite3_column_int64 (stmt, 0);
}

ProcuraCandidate *
read_candidate (sqlite3_stmt *stmt)
{
  ProcuraCandidate *c = procura_candidate_new ();

  c->id = col_int (stmt, "id", 0);
  c->name = col_text (stmt, "name");
  c->kind = (ProcuraCandidateKind) col_enum (stmt, "kind", PROCURA_CANDIDATE_HYBRID + 1);
  c->gpu_name = col_text (stmt, "gpu_name");
  c->gpus_per_replica = col_small (stmt, "gpus_per_replica", 1);
  c->provider = col_text (stmt, "provider");
  c->pricing_model = col_text (stmt, "pricing_model");
  c->region = col_text (stmt, "region");
  c->engine = col_text (stmt, "engine");
  c->tp = col_small (stmt, "tp", 1);
  c->pp = col_small (stmt, "pp", 1);
  c->quote_id = col_int (stmt, "quote_id", 0);
  c->price_per_gpu_hour = col_double (stmt, "price_per_gpu_hour");
  c->price_date = col_text (stmt, "price_date");
  c->provisioning = (ProcuraProvisioning) col_enum (stmt, "provisioning", PROCURA_PROVISION_AUTOSCALED + 1);
  c->billed_hours = col_double (stmt, "billed_hours");
  c->target_utilization = col_double (stmt, "target_utilization");
  c->capacity_override = col_double (stmt, "capacity_override");
  c->interconnect = col_text (stmt, "interconnect");
  c->storage = col_double (stmt, "storage");
  c->network = col_double (stmt, "network");
  c->serving_stack = col_double (stmt, "serving_stack");
  c->observability = col_double (stmt, "observability");
  c->labor_hours = col_double (stmt, "labor_hours");
  c->labor_rate = col_double (stmt, "labor_rate");
  c->api_provider = col_text (stmt, "api_provider");
  c->api_model = col_text (stmt, "api_model");
  c->input_tokens = col_double (stmt, "input_tokens");
  c->cached_input_tokens = col_double (stmt, "cached_input_tokens");
  c->output_tokens = col_double (stmt, "output_tokens");
  c->price_input_per_mtok = col_double (stmt, "price_input_per_mtok");
  c->price_cached_per_mtok = col_double (stmt, "price_cached_per_mtok");
  c->price_output_per_mtok = col_double (stmt, "price_output_per_mtok");
  c->gateway = col_double (stmt, "gateway");
  c->rate_limit_rpm = col_double (stmt, "rate_limit_rpm");
  c->notes = col_text (stmt, "notes");
  c->purchase_price_per_gpu = col_double (stmt, "purchase_price_per_gpu");
  c->depreciation_years = col_double (stmt, "depreciation_years");
  c->power_per_gpu_hour = col_double (stmt, "power_per_gpu_hour");
  c->hosting_per_gpu_month = col_double (stmt, "hosting_per_gpu_month");
  return c;
}

GPtrArray *
procura_store_list_candidates (ProcuraStore  *store,
                               GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_candidate_free);
  int rc;

  g_return_val_if_fail (store != NULL, NULL);
  stmt = store_prepare (store, "SELECT id, " CANDIDATE_COLUMNS " FROM candidates WHERE deleted_by IS NULL ORDER BY id",
                        error);
  if (stmt == NULL)
    return NULL;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (out, read_candidate (stmt));
  if (rc != SQLITE_DONE)
    {
      store_error (store, error, _("cannot read the candidates"));
      return NULL;
    }
  return g_steal_pointer (&out);
}

/* ------------------------------------------------------------------------- */
/* Ops tests and checklist                                                    */

static gboolean check_ops_test_values (ProcuraStore          *store,
                                       const ProcuraOpsTest  *t,
                                       GError               **error);

static gint64
write_ops_test (ProcuraStore          *store,
                const ProcuraOpsTest  *t,
                gint64                 candidate_id,
                gboolean               update,
                GError               **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (t->kind == NULL || *t->kind == '\0')
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   _("%s: an operations test needs a kind (e.g. “kill-worker”)"), store->path);
      return 0;
    }
  if (!check_ops_test_values (store, t, error) || !check_candidate (store, candidate_id, error))
    return 0;
  stmt = store_prepare (store, update
    ? "UPDATE ops_tests SET candidate_id = :candidate_id, kind = :kind, result = :result,"
      " recovery_s = :recovery_s, failed_requests = :failed_requests, per_month = :per_month,"
      " notes = :notes WHERE id = :id"
    : "INSERT INTO ops_tests (candidate_id, kind, result, recovery_s, failed_requests, per_month, notes)"
      " VALUES (:candidate_id, :kind, :result, :recovery_s, :failed_requests, :per_month, :notes)",
    error);
  if (stmt == NULL)
    return 0;
  bind_id (stmt, "candidate_id", candidate_id);
  bind_text (stmt, "kind", t->kind);
  bind_text (stmt, "result", t->result);
  bind_double (stmt, "recovery_s", t->recovery_s);
  bind_double (stmt, "failed_requests", t->failed_requests);
  bind_double (stmt, "per_month", t->per_month);
  bind_text (stmt, "notes", t->notes);
  if (update)
    bind_int (stmt, "id", t->id);
  if (!step_done (store, stmt, error, _("cannot save the operations test")))
    return 0;
  if (update)
    return check_changed_one (store, "operations test", t->id, error) ? t->id : 0;
  return sqlite3_last_insert_rowid (store->db);
}

gint64
procura_store_add_ops_test (ProcuraStore          *store,
                            const ProcuraOpsTest  *test,
                            GError               **error)
{
  gint64 id;

  g_return_val_if_fail (store != NULL && test != NULL, 0);
  if (!store_begin (store, error))
    return 0;
  id = write_ops_test (store, test, test->candidate_id, FALSE, error);
  return store_finish (store, id > 0, error) ? id : 0;
}

gboolean
procura_store_update_ops_test (ProcuraStore          *store,
                               const ProcuraOpsTest  *test,
                               GError               **error)
{
  g_return_val_if_fail (store != NULL && test != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  return store_finish (store, write_ops_test (store, test, test->candidate_id, TRUE, error) > 0, error);
}

gboolean
procura_store_delete_ops_test (ProcuraStore  *store,
                               gint64         id,
                               GError       **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  return store_delete_row (store, "ops_tests", "operations test", id, error);
}

static gint64
write_checklist_item (ProcuraStore                *store,
                      const ProcuraChecklistItem  *i,
                      gint64                       candidate_id,
                      gboolean                     update,
                      GError                     **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (i->item == NULL || *i->item == '\0')
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   _("%s: a checklist answer needs the question (item)"), store->path);
      return 0;
    }
  if (!check_candidate (store, candidate_id, error))
    return 0;
  stmt = store_prepare (store, update
    ? "UPDATE checklist SET candidate_id = :candidate_id, section = :section, item = :item,"
      " answer = :answer, evidence = :evidence, evidence_file = :evidence_file WHERE id = :id"
    : "INSERT INTO checklist (candidate_id, section, item, answer, evidence, evidence_file)"
      " VALUES (:candidate_id, :section, :item, :answer, :evidence, :evidence_file)",
    error);
  if (stmt == NULL)
    return 0;
  bind_id (stmt, "candidate_id", candidate_id);
  bind_text (stmt, "section", i->section);
  bind_text (stmt, "item", i->item);
  bind_text (stmt, "answer", i->answer);
  bind_text (stmt, "evidence", i->evidence);
  bind_text (stmt, "evidence_file", i->evidence_file);
  if (update)
    bind_int (stmt, "id", i->id);
  if (!step_done (store, stmt, error, _("cannot save the checklist answer")))
    return 0;
  if (update)
    return check_changed_one (store, "checklist answer", i->id, error) ? i->id : 0;
  return sqlite3_last_insert_rowid (store->db);
}

gint64
procura_store_add_checklist_item (ProcuraStore                *store,
                                  const ProcuraChecklistItem  *item,
                                  GError                     **error)
{
  gint64 id;

  g_return_val_if_fail (store != NULL && item != NULL, 0);
  if (!store_begin (store, error))
    return 0;
  id = write_checklist_item (store, item, item->candidate_id, FALSE, error);
  return store_finish (store, id > 0, error) ? id : 0;
}

gboolean
procura_store_update_checklist_item (ProcuraStore                *store,
                                     const ProcuraChecklistItem  *item,
                                     GError                     **error)
{
  g_return_val_if_fail (store != NULL && item != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;
  return store_finish (store, write_checklist_item (store, item, item->candidate_id, TRUE, error) > 0, error);
}

gboolean
procura_store_delete_checklist_item (ProcuraStore  *store,
                                     gint64         id,
                                     GError       **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  return store_delete_row (store, "checklist", "checklist answer", id, error);
}

/* ------------------------------------------------------------------------- */
/* Operations test values                                                     */

static gboolean
check_ops_test_values (ProcuraStore          *store,
                       const ProcuraOpsTest  *t,
                       GError               **error)
{
  const struct { const char *column; double value; } values[] = {
    { "recovery_s", t->recovery_s },
    { "failed_requests", t->failed_requests },
    { "per_month", t->per_month },
  };

  /* NAN is "not measured"; anything else is a measurement: finite and not negative. */
  for (gsize i = 0; i < G_N_ELEMENTS (values); i++)
    if (!isnan (values[i].value) && (!isfinite (values[i].value) || values[i].value < 0))
      {
        g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                     _("%s: ops_tests.%s of the “%s” test must be a finite number ≥ 0 (or unknown), not %g"),
                     store->path, values[i].column, t->kind, values[i].value);
        return FALSE;
      }
  return TRUE;
}

/* ------------------------------------------------------------------------- */
/* Saving a whole project (the demo)                                          */

static gint64
map_id (GHashTable *map,
        gint64      old_id)
{
  gpointer v;

  if (old_id <= 0)
    return 0;
  v = g_hash_table_lookup (map, &old_id);
  return v != NULL ? *(gint64 *) v : -1;
}

static void
map_put (GHashTable *map,
         gint64      old_id,
         gint64      new_id)
{
  gint64 *k = g_new (gint64, 1);
  gint64 *v = g_new (gint64, 1);

  *k = old_id;
  *v = new_id;
  g_hash_table_replace (map, k, v);
}

static gboolean
mapped (ProcuraStore  *store,
        GHashTable    *map,
        gint64         old_id,
        const char    *what,
        gint64        *out,
        GError       **error)
{
  gint64 id = map_id (map, old_id);

  if (id < 0)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   _("%s: the project refers to %s %lld that it does not hold"),
                   store->path, what, (long long) old_id);
      return FALSE;
    }
  *out = id;
  return TRUE;
}

gboolean
procura_store_save_project (ProcuraStore          *store,
                            const ProcuraProject  *p,
                            GError               **error)
{
  g_autoptr (GHashTable) cands = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr (GHashTable) quotes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr (GHashTable) provs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr (sqlite3_stmt) stmt = NULL;
  ProcuraDecision decision = { 0 };
  gboolean ok;

  g_return_val_if_fail (store != NULL && p != NULL, FALSE);
  if (!store_begin (store, error))
    return FALSE;

  ok = (stmt = store_prepare (store, "UPDATE project SET title = :title, created = :created,"
                                     " illustrative = :illustrative WHERE id = 1", error)) != NULL;
  if (ok)
    {
      g_autofree char *now = procura_now_iso8601 ();

      bind_text (stmt, "title", p->title != NULL ? p->title : "Untitled");
      bind_text (stmt, "created", p->created != NULL ? p->created : now);
      bind_int (stmt, "illustrative", p->illustrative ? 1 : 0);
      ok = step_done (store, stmt, error, _("cannot save the project"));
    }
  if (ok && p->brief != NULL)
    ok = write_brief (store, p->brief, error);
  ok = ok && write_assumptions (store, &p->assumptions, error);

  for (guint i = 0; ok && i < p->provenance->len; i++)
    {
      const ProcuraProvenance *pr = g_ptr_array_index (p->provenance, i);
      gint64 id = insert_provenance (store, pr, error);
      ok = id > 0;
      if (ok && pr->id > 0)
        map_put (provs, pr->id, id);
    }
  for (guint i = 0; ok && i < p->quotes->len; i++)
    {
      const ProcuraQuote *q = g_ptr_array_index (p->quotes, i);
      gint64 prov = 0, id = 0;

      ok = mapped (store, provs, q->provenance_id, "provenance record", &prov, error)
           && (id = insert_quote (store, q, prov, error)) > 0;
      if (ok && q->id > 0)
        map_put (quotes, q->id, id);
    }
  for (guint i = 0; ok && i < p->candidates->len; i++)
    {
      const ProcuraCandidate *c = g_ptr_array_index (p->candidates, i);
      gint64 quote = 0, id = 0;

      ok = mapped (store, quotes, c->quote_id, "quote", &quote, error)
           && (id = insert_candidate (store, c, quote, error)) > 0;
      if (ok && c->id > 0)
        map_put (cands, c->id, id);
    }
  for (guint i = 0; ok && i < p->model_shapes->len; i++)
    ok = insert_model_shape (store, g_ptr_array_index (p->model_shapes, i), 0, error) > 0;
  for (guint i = 0; ok && i < p->engine_logs->len; i++)
    {
      const ProcuraEngineLog *l = g_ptr_array_index (p->engine_logs, i);
      gint64 cand = 0, prov = 0;

      ok = mapped (store, cands, l->candidate_id, "candidate", &cand, error)
           && mapped (store, provs, l->provenance_id, "provenance record", &prov, error)
           && insert_engine_log (store, l, cand, prov, error) > 0;
    }
  for (guint i = 0; ok && i < p->probe_results->len + p->probe_failures->len; i++)
    {
      /* the fleet's failed nodes are rows of probe_results too */
      const ProcuraProbeResult *r = i < p->probe_results->len
        ? g_ptr_array_index (p->probe_results, i)
        : g_ptr_array_index (p->probe_failures, i - p->probe_results->len);
      gint64 cand = 0, prov = 0;

      ok = mapped (store, cands, r->candidate_id, "candidate", &cand, error)
           && mapped (store, provs, r->provenance_id, "provenance record", &prov, error)
           && insert_probe_result (store, r, cand, prov, error) > 0;
    }
  for (guint i = 0; ok && i < p->runs->len; i++)
    {
      const ProcuraRun *r = g_ptr_array_index (p->runs, i);
      gint64 cand = 0, prov = 0;

      ok = mapped (store, cands, r->candidate_id, "candidate", &cand, error);
      if (ok && r->provenance != NULL)
        {
          prov = map_id (provs, r->provenance->id);
          if (prov < 0 || r->provenance->id <= 0)
            {
              ok = (prov = insert_provenance (store, r->provenance, error)) > 0;
              if (ok && r->provenance->id > 0)
                map_put (provs, r->provenance->id, prov);
            }
        }
      ok = ok && insert_run (store, r, cand, prov, error) > 0;
    }
  for (guint i = 0; ok && i < p->ops_tests->len; i++)
    {
      const ProcuraOpsTest *t = g_ptr_array_index (p->ops_tests, i);
      gint64 cand = 0;

      ok = mapped (store, cands, t->candidate_id, "candidate", &cand, error)
           && write_ops_test (store, t, cand, FALSE, error) > 0;
    }
  for (guint i = 0; ok && i < p->checklist->len; i++)
    {
      const ProcuraChecklistItem *it = g_ptr_array_index (p->checklist, i);
      gint64 cand = 0;

      ok = mapped (store, cands, it->candidate_id, "candidate", &cand, error)
           && write_checklist_item (store, it, cand, FALSE, error) > 0;
    }
  for (guint i = 0; ok && p->warning_answers != NULL && i < p->warning_answers->len; i++)
    {
      const ProcuraWarningAnswer *a = g_ptr_array_index (p->warning_answers, i);
      gint64 cand = 0;

      ok = mapped (store, cands, a->candidate_id, "candidate", &cand, error)
           && write_warning_answer (store, a->warning_id, cand, a->answer, a->answered_at, error);
    }
  if (ok)
    {
      decision = p->decision;
      ok = mapped (store, cands, p->decision.candidate_id, "candidate", &decision.candidate_id, error)
           && mapped (store, cands, p->decision.overflow_candidate_id, "candidate",
                      &decision.overflow_candidate_id, error)
           && write_decision (store, &decision, error);
    }

  if (!ok)
    {
      store_rollback (store);
      return FALSE;
    }
  /* `modified` is the project's own (the demo is reproducible). */
  {
    g_autoptr (sqlite3_stmt) mod = store_prepare (store, "UPDATE project SET modified = :m WHERE id = 1", error);
    g_autofree char *now = procura_now_iso8601 ();

    ok = mod != NULL;
    if (ok)
      {
        bind_text (mod, "m", p->modified != NULL ? p->modified : now);
        ok = step_done (store, mod, error, _("cannot save the project"));
      }
  }
  if (!ok || !store_commit (store, error))
    {
      store_rollback (store);
      return FALSE;
    }
  return TRUE;
}

gboolean
procura_store_replace_project (ProcuraStore          *store,
                               const ProcuraProject  *project,
                               GError               **error)
{
  gboolean ok;

  g_return_val_if_fail (store != NULL && project != NULL, FALSE);
  if (!procura_store_begin_batch (store, error))
    return FALSE;
  ok = store_exec_sql (store->db, store->path,
                       "DELETE FROM decision; DELETE FROM warning_answers; DELETE FROM run_samples;"
                       " DELETE FROM run_stats; DELETE FROM runs; DELETE FROM engine_logs;"
                       " DELETE FROM probe_results; DELETE FROM ops_tests; DELETE FROM checklist;"
                       " DELETE FROM candidates; DELETE FROM quotes;"
                       " DELETE FROM provenance; DELETE FROM undo_log; DELETE FROM brief;"
                       " DELETE FROM assumptions", error)
       && procura_store_save_project (store, project, error);
  return procura_store_end_batch (store, ok, error) && ok;
}
