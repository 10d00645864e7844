/* procura-fields.c: the settable fields of a project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The checks are the app's: text is stripped and empty means unknown; the brief's and a
 * candidate's numbers must be finite and >= 0 (brief page, candidates page); a decision
 * date is YYYY-MM-DD (decision page); choices are the app's combo rows. Fields the app
 * does not edit take the checks of the files they come from (quote JSON: gpu_count 0 (API) ..
 * 100000, support_pct 0..100, pricing model, currency, date) or of the cost model
 * (assumptions: procura_cost_inputs_validate()).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "procura-fields.h"
#include "procura-store.h"

static const char * const workload_types[] = {
  "online-inference", "batch-inference", "embeddings", "code-agents", "image-generation",
  "video-generation", "training", "fine-tuning", "evaluation", NULL
};
static const char * const slo_metrics[] = { "ttft", "tpot", "itl", "e2e", NULL };
static const char * const duty_cycles[] = { "always-on", "business-hours", "batch-window", "bursty", NULL };
static const char * const candidate_kinds[] = { "gpu", "api", "hybrid", NULL };
static const char * const provisionings[] = { "always-on", "scheduled", "autoscaled", NULL };
static const char * const quote_kinds[] = { "gpu", "api", NULL };
static const char * const pricing_models[] = { "on-demand", "spot", "reserved", "committed", NULL };
static const char * const checklist_sections[] = { "hardware", "software", "commercial", "security", NULL };
static const char * const checklist_answers[] = { "unknown", "yes", "partial", "no", NULL };
static const char * const ops_kinds[] = {
  "kill-worker", "drain-node", "restart-stack", "bad-deploy", "cold-start", "checkpoint-recovery", NULL
};
static const char * const ops_results[] = { "not-run", "pass", "fail", NULL };

#define T(table) PROCURA_FIELD_TABLE_##table
#define NONE NAN, NAN
#define REQ PROCURA_FIELD_REQUIRED
#define MINO PROCURA_FIELD_MIN_OPEN
#define MAXO PROCURA_FIELD_MAX_OPEN

/* One line per settable column: table, column, type, struct offset, min, max, flags, choices. */
#define PROJ(c, ty, m, ...)  { T (PROJECT), c, PROCURA_FIELD_##ty, G_STRUCT_OFFSET (ProcuraProject, m), __VA_ARGS__ }
#define BRIEF(c, ty, ...)    { T (BRIEF), #c, PROCURA_FIELD_##ty, G_STRUCT_OFFSET (ProcuraBrief, c), __VA_ARGS__ }
#define ASSUME(c, ty, ...)   { T (ASSUMPTIONS), #c, PROCURA_FIELD_##ty, G_STRUCT_OFFSET (ProcuraAssumptions, c), __VA_ARGS__ }
#define DECIDE(c, ty, ...)   { T (DECISION), #c, PROCURA_FIELD_##ty, G_STRUCT_OFFSET (ProcuraDecision, c), __VA_ARGS__ }
#define CAND(c, ty, ...)     { T (CANDIDATE), #c, PROCURA_FIELD_##ty, G_STRUCT_OFFSET (ProcuraCandidate, c), __VA_ARGS__ }
#define QUOTE(c, m, ty, ...) { T (QUOTE), c, PROCURA_FIELD_##ty, G_STRUCT_OFFSET (ProcuraQuote, m), __VA_ARGS__ }
#define CHECK(c, ty, ...)    { T (CHECKLIST), #c, PROCURA_FIELD_##ty, G_STRUCT_OFFSET (ProcuraChecklistItem, c), __VA_ARGS__ }
#define OPS(c, ty, ...)      { T (OPS_TEST), #c, PROCURA_FIELD_##ty, G_STRUCT_OFFSET (ProcuraOpsTest, c), __VA_ARGS__ }

static const ProcuraField fields[] = {
  PROJ ("title", TEXT, title, NONE, REQ, NULL),
  PROJ ("illustrative", BOOL, illustrative, NONE, REQ, NULL),

  BRIEF (workload_type, CHOICE, NONE, 0, workload_types),
  BRIEF (model_shape, TEXT, NONE, 0, NULL),
  BRIEF (input_tokens, NUMBER, 0, NAN, 0, NULL),
  BRIEF (output_tokens, NUMBER, 0, NAN, 0, NULL),
  BRIEF (input_tokens_mean, NUMBER, 0, NAN, 0, NULL),
  BRIEF (output_tokens_mean, NUMBER, 0, NAN, 0, NULL),
  BRIEF (context_tokens, NUMBER, 0, NAN, 0, NULL),
  BRIEF (concurrency, NUMBER, 0, NAN, 0, NULL),
  BRIEF (success_unit, TEXT, NONE, 0, NULL),
  BRIEF (slo_metric, CHOICE, NONE, 0, slo_metrics),
  BRIEF (slo_percentile, NUMBER, 0, 100, 0, NULL),
  BRIEF (slo_threshold_ms, NUMBER, 0, NAN, 0, NULL),
  BRIEF (duty_cycle, CHOICE, NONE, 0, duty_cycles),
  BRIEF (operating_boundary, TEXT, NONE, 0, NULL),
  BRIEF (tooling, TEXT, NONE, 0, NULL),
  BRIEF (demand_average, NUMBER, 0, NAN, 0, NULL),
  BRIEF (demand_peak, NUMBER, 0, NAN, 0, NULL),
  BRIEF (window_hours, NUMBER, 0, NAN, 0, NULL),
  BRIEF (storage_gb, NUMBER, 0, NAN, 0, NULL),
  BRIEF (egress_gb, NUMBER, 0, NAN, 0, NULL),

  ASSUME (acceptance_rate, NUMBER, 0, 1, MINO, NULL),
  ASSUME (retry_rate, NUMBER, 0, 1, 0, NULL),
  ASSUME (failure_rate, NUMBER, 0, 1, MAXO, NULL),
  ASSUME (headroom, NUMBER, 0, NAN, MINO, NULL),
  ASSUME (stale_days, NUMBER, 0, NAN, 0, NULL),
  ASSUME (currency, CURRENCY, NONE, REQ, NULL),

  DECIDE (candidate_id, CANDIDATE, NONE, 0, NULL),
  DECIDE (overflow_candidate_id, CANDIDATE, NONE, 0, NULL),
  DECIDE (rationale, TEXT, NONE, 0, NULL),
  DECIDE (approver, TEXT, NONE, 0, NULL),
  DECIDE (date, DATE, NONE, 0, NULL),

  CAND (name, TEXT, NONE, REQ, NULL),
  CAND (kind, ENUM, NONE, REQ, candidate_kinds),
  CAND (gpu_name, TEXT, NONE, 0, NULL),
  CAND (gpus_per_replica, INT, 0, NAN, 0, NULL),
  CAND (provider, TEXT, NONE, 0, NULL),
  CAND (pricing_model, TEXT, NONE, 0, NULL),
  CAND (region, TEXT, NONE, 0, NULL),
  CAND (engine, TEXT, NONE, 0, NULL),
  CAND (tp, INT, 0, NAN, 0, NULL),           /* 0: not applicable (API routes) */
  CAND (pp, INT, 0, NAN, 0, NULL),
  CAND (quote_id, QUOTE, NONE, 0, NULL),
  CAND (price_per_gpu_hour, NUMBER, 0, NAN, 0, NULL),
  CAND (price_date, TEXT, NONE, 0, NULL),
  CAND (provisioning, ENUM, NONE, REQ, provisionings),
  CAND (billed_hours, NUMBER, 0, NAN, 0, NULL),
  CAND (target_utilization, NUMBER, 0, NAN, 0, NULL),
  CAND (capacity_override, NUMBER, 0, NAN, 0, NULL),
  CAND (interconnect, TEXT, NONE, 0, NULL),
  CAND (storage, NUMBER, 0, NAN, 0, NULL),
  CAND (network, NUMBER, 0, NAN, 0, NULL),
  CAND (serving_stack, NUMBER, 0, NAN, 0, NULL),
  CAND (observability, NUMBER, 0, NAN, 0, NULL),
  CAND (labor_hours, NUMBER, 0, NAN, 0, NULL),
  CAND (labor_rate, NUMBER, 0, NAN, 0, NULL),
  CAND (purchase_price_per_gpu, NUMBER, 0, NAN, 0, NULL),
  CAND (depreciation_years, NUMBER, 0, NAN, 0, NULL),
  CAND (power_per_gpu_hour, NUMBER, 0, NAN, 0, NULL),
  CAND (hosting_per_gpu_month, NUMBER, 0, NAN, 0, NULL),
  CAND (api_provider, TEXT, NONE, 0, NULL),
  CAND (api_model, TEXT, NONE, 0, NULL),
  CAND (input_tokens, NUMBER, 0, NAN, 0, NULL),
  CAND (cached_input_tokens, NUMBER, 0, NAN, 0, NULL),
  CAND (output_tokens, NUMBER, 0, NAN, 0, NULL),
  CAND (price_input_per_mtok, NUMBER, 0, NAN, 0, NULL),
  CAND (price_cached_per_mtok, NUMBER, 0, NAN, 0, NULL),
  CAND (price_output_per_mtok, NUMBER, 0, NAN, 0, NULL),
  CAND (gateway, NUMBER, 0, NAN, 0, NULL),
  CAND (rate_limit_rpm, NUMBER, 0, NAN, 0, NULL),
  CAND (notes, TEXT, NONE, 0, NULL),

  QUOTE ("kind", kind, ENUM, NONE, REQ, quote_kinds),
  QUOTE ("provider", provider, TEXT, NONE, 0, NULL),
  QUOTE ("sku", sku, TEXT, NONE, 0, NULL),
  QUOTE ("gpu_name", gpu_name, TEXT, NONE, 0, NULL),
  QUOTE ("gpu_id", gpu_id, TEXT, NONE, 0, NULL),
  QUOTE ("gpu_count", gpu_count, INT, 0, 100000, 0, NULL),   /* 0: API quotes */
  QUOTE ("price_per_hour", price_per_hour, NUMBER, 0, NAN, 0, NULL),
  QUOTE ("currency", currency, CURRENCY, NONE, 0, NULL),
  QUOTE ("pricing_model", pricing_model, CHOICE, NONE, 0, pricing_models),
  QUOTE ("term_months", term_months, NUMBER, 0, NAN, 0, NULL),
  QUOTE ("min_commitment", min_commitment, NUMBER, 0, NAN, 0, NULL),
  QUOTE ("region", region, TEXT, NONE, 0, NULL),
  QUOTE ("seen_date", seen_date, DATE, NONE, 0, NULL),
  QUOTE ("source", source, TEXT, NONE, 0, NULL),
  QUOTE ("storage_per_gb_month", storage_per_gb_month, NUMBER, 0, NAN, 0, NULL),
  QUOTE ("egress_per_gb", egress_per_gb, NUMBER, 0, NAN, 0, NULL),
  QUOTE ("support_pct", support_pct, NUMBER, 0, 100, 0, NULL),
  QUOTE ("setup_fee", setup_fee, NUMBER, 0, NAN, 0, NULL),
  QUOTE ("notes", notes, TEXT, NONE, 0, NULL),
  QUOTE ("api_model", api_model, TEXT, NONE, 0, NULL),
  QUOTE ("price_input_per_mtok", price_input_per_mtok, NUMBER, 0, NAN, 0, NULL),
  QUOTE ("price_cached_per_mtok", price_cached_per_mtok, NUMBER, 0, NAN, 0, NULL),
  QUOTE ("price_output_per_mtok", price_output_per_mtok, NUMBER, 0, NAN, 0, NULL),
  QUOTE ("rate_limit_rpm", rate_limit_rpm, NUMBER, 0, NAN, 0, NULL),
  QUOTE ("rate_limit_tpm", rate_limit_tpm, NUMBER, 0, NAN, 0, NULL),

  CHECK (candidate_id, CANDIDATE, NONE, 0, NULL),
  CHECK (section, CHOICE, NONE, 0, checklist_sections),
  CHECK (item, TEXT, NONE, REQ, NULL),
  CHECK (answer, CHOICE, NONE, 0, checklist_answers),
  CHECK (evidence, TEXT, NONE, 0, NULL),
  CHECK (evidence_file, TEXT, NONE, 0, NULL),

  OPS (candidate_id, CANDIDATE, NONE, 0, NULL),
  OPS (kind, CHOICE, NONE, REQ, ops_kinds),
  OPS (result, CHOICE, NONE, 0, ops_results),
  OPS (recovery_s, NUMBER, 0, NAN, 0, NULL),
  OPS (failed_requests, NUMBER, 0, NAN, 0, NULL),
  OPS (per_month, NUMBER, 0, NAN, 0, NULL),
  OPS (notes, TEXT, NONE, 0, NULL),
};

static const struct {
  const char *name;
  const char *sql;
} tables[PROCURA_FIELD_N_TABLES] = {
  { "project", "project" },
  { "brief", "brief" },
  { "assumptions", "assumptions" },
  { "decision", "decision" },
  { "candidate", "candidates" },
  { "quote", "quotes" },
  { "checklist", "checklist" },
  { "ops_test", "ops_tests" },
};

/* The units of the numeric fields that have one (the others are plain numbers). */
static const struct {
  ProcuraFieldTable table;
  const char       *column;
  ProcuraFieldUnit  unit;
} units[] = {
  { T (BRIEF), "input_tokens", PROCURA_FIELD_UNIT_TOKENS },
  { T (BRIEF), "output_tokens", PROCURA_FIELD_UNIT_TOKENS },
  { T (BRIEF), "input_tokens_mean", PROCURA_FIELD_UNIT_TOKENS },
  { T (BRIEF), "output_tokens_mean", PROCURA_FIELD_UNIT_TOKENS },
  { T (BRIEF), "context_tokens", PROCURA_FIELD_UNIT_TOKENS },
  { T (BRIEF), "slo_threshold_ms", PROCURA_FIELD_UNIT_MS },
  { T (BRIEF), "demand_average", PROCURA_FIELD_UNIT_RPS },
  { T (BRIEF), "demand_peak", PROCURA_FIELD_UNIT_RPS },
  { T (BRIEF), "window_hours", PROCURA_FIELD_UNIT_HOURS },
  { T (BRIEF), "storage_gb", PROCURA_FIELD_UNIT_GB },
  { T (BRIEF), "egress_gb", PROCURA_FIELD_UNIT_GB },
  { T (ASSUMPTIONS), "stale_days", PROCURA_FIELD_UNIT_DAYS },
  { T (CANDIDATE), "price_per_gpu_hour", PROCURA_FIELD_UNIT_MONEY },
  { T (CANDIDATE), "billed_hours", PROCURA_FIELD_UNIT_HOURS },
  { T (CANDIDATE), "capacity_override", PROCURA_FIELD_UNIT_RPS },
  { T (CANDIDATE), "storage", PROCURA_FIELD_UNIT_MONEY },
  { T (CANDIDATE), "network", PROCURA_FIELD_UNIT_MONEY },
  { T (CANDIDATE), "serving_stack", PROCURA_FIELD_UNIT_MONEY },
  { T (CANDIDATE), "observability", PROCURA_FIELD_UNIT_MONEY },
  { T (CANDIDATE), "labor_hours", PROCURA_FIELD_UNIT_HOURS },
  { T (CANDIDATE), "labor_rate", PROCURA_FIELD_UNIT_MONEY },
  { T (CANDIDATE), "purchase_price_per_gpu", PROCURA_FIELD_UNIT_MONEY },
  { T (CANDIDATE), "depreciation_years", PROCURA_FIELD_UNIT_YEARS },
  { T (CANDIDATE), "power_per_gpu_hour", PROCURA_FIELD_UNIT_MONEY },
  { T (CANDIDATE), "hosting_per_gpu_month", PROCURA_FIELD_UNIT_MONEY },
  { T (CANDIDATE), "input_tokens", PROCURA_FIELD_UNIT_TOKENS },
  { T (CANDIDATE), "cached_input_tokens", PROCURA_FIELD_UNIT_TOKENS },
  { T (CANDIDATE), "output_tokens", PROCURA_FIELD_UNIT_TOKENS },
  { T (CANDIDATE), "price_input_per_mtok", PROCURA_FIELD_UNIT_MONEY },
  { T (CANDIDATE), "price_cached_per_mtok", PROCURA_FIELD_UNIT_MONEY },
  { T (CANDIDATE), "price_output_per_mtok", PROCURA_FIELD_UNIT_MONEY },
  { T (CANDIDATE), "gateway", PROCURA_FIELD_UNIT_MONEY },
  { T (CANDIDATE), "rate_limit_rpm", PROCURA_FIELD_UNIT_PER_MINUTE },
  { T (QUOTE), "price_per_hour", PROCURA_FIELD_UNIT_MONEY },
  { T (QUOTE), "term_months", PROCURA_FIELD_UNIT_MONTHS },
  { T (QUOTE), "min_commitment", PROCURA_FIELD_UNIT_MONEY },
  { T (QUOTE), "storage_per_gb_month", PROCURA_FIELD_UNIT_MONEY },
  { T (QUOTE), "egress_per_gb", PROCURA_FIELD_UNIT_MONEY },
  { T (QUOTE), "support_pct", PROCURA_FIELD_UNIT_PERCENT },
  { T (QUOTE), "setup_fee", PROCURA_FIELD_UNIT_MONEY },
  { T (QUOTE), "price_input_per_mtok", PROCURA_FIELD_UNIT_MONEY },
  { T (QUOTE), "price_cached_per_mtok", PROCURA_FIELD_UNIT_MONEY },
  { T (QUOTE), "price_output_per_mtok", PROCURA_FIELD_UNIT_MONEY },
  { T (QUOTE), "rate_limit_rpm", PROCURA_FIELD_UNIT_PER_MINUTE },
  { T (OPS_TEST), "recovery_s", PROCURA_FIELD_UNIT_SECONDS },
};

ProcuraFieldUnit
procura_field_unit (const ProcuraField *field)
{
  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (units[i].table == field->table && g_str_equal (units[i].column, field->column))
      return units[i].unit;
  return PROCURA_FIELD_UNIT_NONE;
}

const ProcuraField *
procura_fields (gsize *n_fields)
{
  *n_fields = G_N_ELEMENTS (fields);
  return fields;
}

const ProcuraField *
procura_field_lookup (ProcuraFieldTable  table,
                      const char        *column)
{
  for (gsize i = 0; column != NULL && i < G_N_ELEMENTS (fields); i++)
    if (fields[i].table == table && g_str_equal (fields[i].column, column))
      return &fields[i];
  return NULL;
}

const char *
procura_field_table_name (ProcuraFieldTable table)
{
  g_return_val_if_fail (table < PROCURA_FIELD_N_TABLES, NULL);
  return tables[table].name;
}

int
procura_field_table_from_name (const char *name)
{
  for (int i = 0; name != NULL && i < PROCURA_FIELD_N_TABLES; i++)
    if (g_str_equal (tables[i].name, name))
      return i;
  return -1;
}

const char *
procura_field_table_sql_name (ProcuraFieldTable table)
{
  g_return_val_if_fail (table < PROCURA_FIELD_N_TABLES, NULL);
  return tables[table].sql;
}

gboolean
procura_field_table_has_rows (ProcuraFieldTable table)
{
  return table >= PROCURA_FIELD_TABLE_CANDIDATE && table < PROCURA_FIELD_N_TABLES;
}

GPtrArray *
procura_field_table_rows (ProcuraProject    *project,
                          ProcuraFieldTable  table)
{
  switch (table)
    {
    case PROCURA_FIELD_TABLE_CANDIDATE:
      return project->candidates;
    case PROCURA_FIELD_TABLE_QUOTE:
      return project->quotes;
    case PROCURA_FIELD_TABLE_CHECKLIST:
      return project->checklist;
    case PROCURA_FIELD_TABLE_OPS_TEST:
      return project->ops_tests;
    case PROCURA_FIELD_TABLE_PROJECT:
    case PROCURA_FIELD_TABLE_BRIEF:
    case PROCURA_FIELD_TABLE_ASSUMPTIONS:
    case PROCURA_FIELD_TABLE_DECISION:
    case PROCURA_FIELD_N_TABLES:
    default:
      return NULL;
    }
}

gpointer
procura_field_record (ProcuraProject    *project,
                      ProcuraFieldTable  table,
                      gpointer           row)
{
  switch (table)
    {
    case PROCURA_FIELD_TABLE_PROJECT:
      return project;
    case PROCURA_FIELD_TABLE_BRIEF:
      return project->brief;
    case PROCURA_FIELD_TABLE_ASSUMPTIONS:
      return &project->assumptions;
    case PROCURA_FIELD_TABLE_DECISION:
      return &project->decision;
    case PROCURA_FIELD_TABLE_CANDIDATE:
    case PROCURA_FIELD_TABLE_QUOTE:
    case PROCURA_FIELD_TABLE_CHECKLIST:
    case PROCURA_FIELD_TABLE_OPS_TEST:
      return row;
    case PROCURA_FIELD_N_TABLES:
    default:
      return NULL;
    }
}

gint64
procura_field_row_id (ProcuraFieldTable  table,
                      gconstpointer      row)
{
  switch (table)
    {
    case PROCURA_FIELD_TABLE_CANDIDATE:
      return ((const ProcuraCandidate *) row)->id;
    case PROCURA_FIELD_TABLE_QUOTE:
      return ((const ProcuraQuote *) row)->id;
    case PROCURA_FIELD_TABLE_CHECKLIST:
      return ((const ProcuraChecklistItem *) row)->id;
    case PROCURA_FIELD_TABLE_OPS_TEST:
      return ((const ProcuraOpsTest *) row)->id;
    case PROCURA_FIELD_TABLE_PROJECT:
    case PROCURA_FIELD_TABLE_BRIEF:
    case PROCURA_FIELD_TABLE_ASSUMPTIONS:
    case PROCURA_FIELD_TABLE_DECISION:
    case PROCURA_FIELD_N_TABLES:
    default:
      return 0;
    }
}

const char *
procura_field_row_name (ProcuraFieldTable  table,
                        gconstpointer      row)
{
  switch (table)
    {
    case PROCURA_FIELD_TABLE_CANDIDATE:
      return ((const ProcuraCandidate *) row)->name;
    case PROCURA_FIELD_TABLE_QUOTE:
      return ((const ProcuraQuote *) row)->sku;
    case PROCURA_FIELD_TABLE_CHECKLIST:
      return ((const ProcuraChecklistItem *) row)->item;
    case PROCURA_FIELD_TABLE_OPS_TEST:
      return ((const ProcuraOpsTest *) row)->kind;
    case PROCURA_FIELD_TABLE_PROJECT:
    case PROCURA_FIELD_TABLE_BRIEF:
    case PROCURA_FIELD_TABLE_ASSUMPTIONS:
    case PROCURA_FIELD_TABLE_DECISION:
    case PROCURA_FIELD_N_TABLES:
    default:
      return NULL;
    }
}

static gboolean
parse_id (const char *text,
          gint64     *id)
{
  guint64 v;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 1, G_MAXINT64, &v, NULL))
    return FALSE;
  *id = (gint64) v;
  return TRUE;
}

char *
procura_field_row_key_name (ProcuraProject    *project,
                            ProcuraFieldTable  table,
                            gconstpointer      row)
{
  GPtrArray *rows = procura_field_table_rows (project, table);
  const char *name = procura_field_row_name (table, row);
  gint64 id;

  if (name != NULL && *name != '\0' && !parse_id (name, &id))
    {
      guint same = 0;

      for (guint i = 0; rows != NULL && i < rows->len; i++)
        same += g_strcmp0 (procura_field_row_name (table, g_ptr_array_index (rows, i)), name) == 0;
      if (same == 1)
        return g_strdup (name);
    }
  return g_strdup_printf ("%" G_GINT64_FORMAT, procura_field_row_id (table, row));
}

static char *
column_list (ProcuraFieldTable table)
{
  GString *s = g_string_new (NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (fields); i++)
    if (fields[i].table == table)
      g_string_append_printf (s, "%s%s", s->len > 0 ? ", " : "", fields[i].column);
  return g_string_free (s, FALSE);
}

static gpointer
find_row (ProcuraProject     *project,
          ProcuraFieldTable   table,
          const char         *key,
          const char         *name,
          GError            **error)
{
  GPtrArray *rows = procura_field_table_rows (project, table);
  gpointer found = NULL;
  guint matches = 0;
  gint64 id;

  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (procura_field_row_name (table, g_ptr_array_index (rows, i)), name) == 0)
      {
        found = g_ptr_array_index (rows, i);
        matches++;
      }
  if (matches == 1)
    return found;
  if (matches > 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s: %u %s rows are called “%s”; name the row by its id"), key, matches,
                   procura_field_table_name (table), name);
      return NULL;
    }
  if (parse_id (name, &id))
    for (guint i = 0; i < rows->len; i++)
      if (procura_field_row_id (table, g_ptr_array_index (rows, i)) == id)
        return g_ptr_array_index (rows, i);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               _("%s: expected the name or id of a %s, no %s is called “%s”"), key,
               procura_field_table_name (table), procura_field_table_name (table), name);
  return NULL;
}

gboolean
procura_field_resolve (ProcuraProject      *project,
                       const char          *key,
                       const ProcuraField **field,
                       gpointer            *record,
                       GError             **error)
{
  const char *dot = strchr (key, '.');
  const char *last = strrchr (key, '.');
  g_autofree char *table_name = NULL;
  g_autofree char *columns = NULL;
  gpointer row = NULL;
  int table;

  table_name = dot != NULL ? g_strndup (key, (gsize) (dot - key)) : g_strdup (key);
  table = procura_field_table_from_name (table_name);
  if (table < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s: expected a key TABLE.COLUMN or TABLE.NAME.COLUMN, where TABLE is one of "
                     "project, brief, assumptions, decision, candidate, quote, checklist, ops_test"),
                   key);
      return FALSE;
    }
  columns = column_list (table);
  if (!procura_field_table_has_rows (table))
    {
      *field = dot != NULL ? procura_field_lookup (table, dot + 1) : NULL;
      if (*field == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("%s: expected %s.COLUMN, where COLUMN is one of %s"), key, table_name, columns);
          return FALSE;
        }
      *record = procura_field_record (project, table, NULL);
      if (*record == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("%s: the project has no %s"), key, table_name);
          return FALSE;
        }
      return TRUE;
    }
  *field = dot != NULL && last != dot ? procura_field_lookup (table, last + 1) : NULL;
  if (*field == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s: expected %s.NAME.COLUMN (NAME: the row's name or id), where COLUMN is one of %s"),
                   key, table_name, columns);
      return FALSE;
    }
  {
    g_autofree char *name = g_strndup (dot + 1, (gsize) (last - dot - 1));

    row = find_row (project, table, key, name, error);
  }
  if (row == NULL)
    return FALSE;
  *record = row;
  return TRUE;
}

static void
append_bound (GString    *s,
              const char *op,
              double      v)
{
  g_string_append_printf (s, " %s %g", op, v);
}

char *
procura_field_describe (const ProcuraField *field)
{
  GString *s = g_string_new (NULL);
  gboolean has_min = !isnan (field->min), has_max = !isnan (field->max);

  switch (field->type)
    {
    case PROCURA_FIELD_TEXT:
      g_string_append (s, (field->flags & PROCURA_FIELD_REQUIRED) ? _("a non-empty text") : _("a text"));
      break;
    case PROCURA_FIELD_CHOICE:
    case PROCURA_FIELD_ENUM:
      {
        g_autofree char *choices = g_strjoinv (", ", (char **) field->choices);

        /* TRANSLATORS: the values a setting takes (identifiers, never translated) */
        g_string_append_printf (s, _("one of %s"), choices);
      }
      break;
    case PROCURA_FIELD_DATE:
      g_string_append (s, _("a date YYYY-MM-DD"));
      break;
    case PROCURA_FIELD_CURRENCY:
      g_string_append (s, _("an ISO 4217 currency code such as USD"));
      break;
    case PROCURA_FIELD_NUMBER:
    case PROCURA_FIELD_INT:
      g_string_append (s, field->type == PROCURA_FIELD_INT ? _("an integer") : _("a number"));
      if (has_min && has_max && !(field->flags & (PROCURA_FIELD_MIN_OPEN | PROCURA_FIELD_MAX_OPEN)))
        /* TRANSLATORS: after "a number" or "an integer" */
        g_string_append_printf (s, _(" from %g to %g"), field->min, field->max);
      else
        {
          if (has_min)
            append_bound (s, (field->flags & PROCURA_FIELD_MIN_OPEN) ? ">" : ">=", field->min);
          if (has_min && has_max)
            /* TRANSLATORS: between two bounds, "a number > 0 and <= 1" */
            g_string_append (s, _(" and"));
          if (has_max)
            append_bound (s, (field->flags & PROCURA_FIELD_MAX_OPEN) ? "<" : "<=", field->max);
        }
      break;
    case PROCURA_FIELD_BOOL:
      g_string_append (s, _("true or false"));
      break;
    case PROCURA_FIELD_CANDIDATE:
      g_string_append (s, _("the name or id of a candidate"));
      break;
    case PROCURA_FIELD_QUOTE:
      g_string_append (s, _("the id of a quote"));
      break;
    default:
      g_assert_not_reached ();
    }
  if (!(field->flags & PROCURA_FIELD_REQUIRED))
    g_string_append (s, _(" (or null)"));
  return g_string_free (s, FALSE);
}

static gboolean
valid_date (const char *s)
{
  unsigned y, m, d;
  int n = 0;

  if (strlen (s) != 10 || s[4] != '-' || s[7] != '-'
      || sscanf (s, "%4u-%2u-%2u%n", &y, &m, &d, &n) != 3 || n != 10)
    return FALSE;
  for (int i = 0; i < 10; i++)
    if (i != 4 && i != 7 && !g_ascii_isdigit (s[i]))
      return FALSE;
  return y >= 1900 && g_date_valid_dmy ((GDateDay) d, (GDateMonth) m, (GDateYear) y);
}

static gboolean
in_range (const ProcuraField *field,
          double              v)
{
  if (!isfinite (v))
    return FALSE;
  if (!isnan (field->min) && ((field->flags & PROCURA_FIELD_MIN_OPEN) ? v <= field->min : v < field->min))
    return FALSE;
  if (!isnan (field->max) && ((field->flags & PROCURA_FIELD_MAX_OPEN) ? v >= field->max : v > field->max))
    return FALSE;
  return TRUE;
}

static int
choice_index (const ProcuraField *field,
              const char         *text)
{
  for (int i = 0; field->choices[i] != NULL; i++)
    if (g_str_equal (field->choices[i], text))
      return i;
  return -1;
}

static gboolean
refuse (const ProcuraField  *field,
        const char          *got,
        GError             **error)
{
  g_autofree char *expected = procura_field_describe (field);

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("expected %s, got %s"), expected, got);
  return FALSE;
}

static gboolean
refuse_text (const ProcuraField  *field,
             const char          *text,
             GError             **error)
{
  g_autofree char *quoted = g_strdup_printf ("“%s”", text);

  return refuse (field, quoted, error);
}

/* Sets @field of @record from @text, already stripped, non-NULL; "" clears. */
static gboolean
set_text (const ProcuraField  *field,
          ProcuraProject      *project,
          gpointer             record,
          const char          *text,
          GError             **error)
{
  gpointer slot = G_STRUCT_MEMBER_P (record, field->offset);

  if (*text == '\0')
    {
      if (field->flags & PROCURA_FIELD_REQUIRED)
        return refuse (field, "null", error);
      switch (field->type)
        {
        case PROCURA_FIELD_TEXT:
        case PROCURA_FIELD_CHOICE:
        case PROCURA_FIELD_DATE:
        case PROCURA_FIELD_CURRENCY:
          g_clear_pointer ((char **) slot, g_free);
          break;
        case PROCURA_FIELD_NUMBER:
          *(double *) slot = NAN;
          break;
        case PROCURA_FIELD_INT:
          *(int *) slot = -1;
          break;
        case PROCURA_FIELD_CANDIDATE:
        case PROCURA_FIELD_QUOTE:
          *(gint64 *) slot = 0;
          break;
        case PROCURA_FIELD_BOOL:
        case PROCURA_FIELD_ENUM:
        default:
          g_assert_not_reached ();
        }
      return TRUE;
    }

  switch (field->type)
    {
    case PROCURA_FIELD_TEXT:
      break;
    case PROCURA_FIELD_CHOICE:
      if (choice_index (field, text) < 0)
        return refuse_text (field, text, error);
      break;
    case PROCURA_FIELD_DATE:
      if (!valid_date (text))
        return refuse_text (field, text, error);
      break;
    case PROCURA_FIELD_CURRENCY:
      if (strlen (text) != 3 || !g_ascii_isupper (text[0]) || !g_ascii_isupper (text[1])
          || !g_ascii_isupper (text[2]))
        return refuse_text (field, text, error);
      break;
    case PROCURA_FIELD_NUMBER:
    case PROCURA_FIELD_INT:
      {
        char *end = NULL;
        double v = g_ascii_strtod (text, &end);

        if (end != text && *end == '\0' && isfinite (v) && fabs (v) > PROCURA_STORE_MAX_REAL)
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                         _("expected a magnitude of at most 1e18 (the largest a project holds), got “%s”"), text);
            return FALSE;
          }
        if (end == text || *end != '\0' || !in_range (field, v)
            || (field->type == PROCURA_FIELD_INT && (v != floor (v) || v > G_MAXINT)))
          return refuse_text (field, text, error);
        if (field->type == PROCURA_FIELD_INT)
          *(int *) slot = (int) v;
        else
          *(double *) slot = v;
        return TRUE;
      }
    case PROCURA_FIELD_BOOL:
      if (g_str_equal (text, "true") || g_str_equal (text, "1") || g_str_equal (text, "yes"))
        *(gboolean *) slot = TRUE;
      else if (g_str_equal (text, "false") || g_str_equal (text, "0") || g_str_equal (text, "no"))
        *(gboolean *) slot = FALSE;
      else
        return refuse_text (field, text, error);
      return TRUE;
    case PROCURA_FIELD_ENUM:
      {
        int i = choice_index (field, text);

        if (i < 0)
          return refuse_text (field, text, error);
        *(int *) slot = i;
        return TRUE;
      }
    case PROCURA_FIELD_CANDIDATE:
      {
        gint64 id = 0;

        for (guint i = 0; id == 0 && i < project->candidates->len; i++)
          {
            ProcuraCandidate *c = g_ptr_array_index (project->candidates, i);

            if (g_strcmp0 (c->name, text) == 0)
              id = c->id;
          }
        if (id == 0 && parse_id (text, &id) && procura_project_find_candidate (project, id) == NULL)
          id = 0;
        if (id == 0)
          return refuse_text (field, text, error);
        *(gint64 *) slot = id;
        return TRUE;
      }
    case PROCURA_FIELD_QUOTE:
      {
        gint64 id = 0;
        gboolean found = FALSE;

        if (parse_id (text, &id))
          for (guint i = 0; !found && i < project->quotes->len; i++)
            found = ((ProcuraQuote *) g_ptr_array_index (project->quotes, i))->id == id;
        if (!found)
          return refuse_text (field, text, error);
        *(gint64 *) slot = id;
        return TRUE;
      }
    default:
      g_assert_not_reached ();
    }
  /* the string types */
  g_free (*(char **) slot);
  *(char **) slot = g_strdup (text);
  return TRUE;
}

gboolean
procura_field_set (const ProcuraField  *field,
                   ProcuraProject      *project,
                   gpointer             record,
                   const char          *text,
                   GError             **error)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));

  g_return_val_if_fail (field != NULL && record != NULL, FALSE);
  if (g_str_equal (stripped, "null"))
    stripped[0] = '\0';
  return set_text (field, project, record, stripped, error);
}

gboolean
procura_field_set_json (const ProcuraField  *field,
                        ProcuraProject      *project,
                        gpointer             record,
                        JsonNode            *value,
                        GError             **error)
{
  GType type;

  g_return_val_if_fail (field != NULL && record != NULL, FALSE);
  if (value == NULL || JSON_NODE_HOLDS_NULL (value))
    return set_text (field, project, record, "", error);
  if (!JSON_NODE_HOLDS_VALUE (value))
    return refuse (field, JSON_NODE_HOLDS_ARRAY (value) ? "an array" : "an object", error);
  type = json_node_get_value_type (value);
  switch (field->type)
    {
    case PROCURA_FIELD_NUMBER:
    case PROCURA_FIELD_INT:
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
          return refuse (field, type == G_TYPE_STRING ? "a string" : "a boolean", error);
        g_ascii_dtostr (buf, sizeof buf, json_node_get_double (value));
        return set_text (field, project, record, buf, error);
      }
    case PROCURA_FIELD_BOOL:
      if (type != G_TYPE_BOOLEAN)
        return refuse (field, type == G_TYPE_STRING ? "a string" : "a number", error);
      *(gboolean *) G_STRUCT_MEMBER_P (record, field->offset) = json_node_get_boolean (value);
      return TRUE;
    case PROCURA_FIELD_QUOTE:
      if (type == G_TYPE_INT64)
        {
          g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (value));

          return set_text (field, project, record, text, error);
        }
      return refuse (field, type == G_TYPE_STRING ? "a string" : "a non-integer", error);
    case PROCURA_FIELD_TEXT:
    case PROCURA_FIELD_CHOICE:
    case PROCURA_FIELD_DATE:
    case PROCURA_FIELD_CURRENCY:
    case PROCURA_FIELD_ENUM:
    case PROCURA_FIELD_CANDIDATE:
    default:
      if (type != G_TYPE_STRING)
        return refuse (field, type == G_TYPE_BOOLEAN ? "a boolean" : "a number", error);
      {
        g_autofree char *stripped = g_strstrip (g_strdup (json_node_get_string (value)));

        return set_text (field, project, record, stripped, error);
      }
    }
}

gboolean
procura_field_is_unset (const ProcuraField  *field,
                        gconstpointer        record)
{
  gconstpointer slot = G_STRUCT_MEMBER_P (record, field->offset);

  switch (field->type)
    {
    case PROCURA_FIELD_TEXT:
    case PROCURA_FIELD_CHOICE:
    case PROCURA_FIELD_DATE:
    case PROCURA_FIELD_CURRENCY:
      return *(char * const *) slot == NULL;
    case PROCURA_FIELD_NUMBER:
      return isnan (*(const double *) slot);
    case PROCURA_FIELD_INT:
      return *(const int *) slot < 0;
    case PROCURA_FIELD_CANDIDATE:
    case PROCURA_FIELD_QUOTE:
      return *(const gint64 *) slot <= 0;
    case PROCURA_FIELD_BOOL:
      return FALSE;
    case PROCURA_FIELD_ENUM:
      {
        int v = *(const int *) slot;

        return v < 0 || v >= (int) g_strv_length ((char **) field->choices);
      }
    default:
      g_assert_not_reached ();
    }
}

static const char *
enum_text (const ProcuraField *field,
           gconstpointer       record)
{
  int v = G_STRUCT_MEMBER (int, record, field->offset);

  return v >= 0 && v < (int) g_strv_length ((char **) field->choices) ? field->choices[v] : NULL;
}

static const ProcuraCandidate *
referenced_candidate (ProcuraProject *project,
                      gconstpointer   record,
                      gsize           offset)
{
  return procura_project_find_candidate (project, G_STRUCT_MEMBER (gint64, record, offset));
}

char *
procura_field_format (const ProcuraField  *field,
                      ProcuraProject      *project,
                      gconstpointer        record)
{
  if (procura_field_is_unset (field, record))
    return g_strdup ("null");
  switch (field->type)
    {
    case PROCURA_FIELD_TEXT:
    case PROCURA_FIELD_CHOICE:
    case PROCURA_FIELD_DATE:
    case PROCURA_FIELD_CURRENCY:
      return g_strdup (G_STRUCT_MEMBER (char *, record, field->offset));
    case PROCURA_FIELD_NUMBER:
      {
        double v = G_STRUCT_MEMBER (double, record, field->offset);
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        /* the shortest text that reads back as the same double: 0.92, not 0.92000000000000004 */
        static const char * const formats[] = { "%.15g", "%.16g", "%.17g" };

        for (gsize i = 0; i < G_N_ELEMENTS (formats); i++)
          {
            g_ascii_formatd (buf, sizeof buf, formats[i], v);
            if (g_ascii_strtod (buf, NULL) == v)
              break;
          }
        return g_strdup (buf);
      }
    case PROCURA_FIELD_INT:
      return g_strdup_printf ("%d", G_STRUCT_MEMBER (int, record, field->offset));
    case PROCURA_FIELD_BOOL:
      return g_strdup (G_STRUCT_MEMBER (gboolean, record, field->offset) ? "true" : "false");
    case PROCURA_FIELD_ENUM:
      return g_strdup (enum_text (field, record));
    case PROCURA_FIELD_CANDIDATE:
      {
        const ProcuraCandidate *c = referenced_candidate (project, record, field->offset);

        if (c != NULL)
          return procura_field_row_key_name (project, PROCURA_FIELD_TABLE_CANDIDATE, c);
      }
      G_GNUC_FALLTHROUGH;
    case PROCURA_FIELD_QUOTE:
      return g_strdup_printf ("%" G_GINT64_FORMAT, G_STRUCT_MEMBER (gint64, record, field->offset));
    default:
      g_assert_not_reached ();
    }
}

void
procura_field_add_json (const ProcuraField  *field,
                        ProcuraProject      *project,
                        gconstpointer        record,
                        const char          *member,
                        JsonBuilder         *b)
{
  json_builder_set_member_name (b, member != NULL ? member : field->column);
  if (procura_field_is_unset (field, record))
    {
      json_builder_add_null_value (b);
      return;
    }
  switch (field->type)
    {
    case PROCURA_FIELD_TEXT:
    case PROCURA_FIELD_CHOICE:
    case PROCURA_FIELD_DATE:
    case PROCURA_FIELD_CURRENCY:
      json_builder_add_string_value (b, G_STRUCT_MEMBER (char *, record, field->offset));
      break;
    case PROCURA_FIELD_NUMBER:
      json_builder_add_double_value (b, G_STRUCT_MEMBER (double, record, field->offset));
      break;
    case PROCURA_FIELD_INT:
      json_builder_add_int_value (b, G_STRUCT_MEMBER (int, record, field->offset));
      break;
    case PROCURA_FIELD_BOOL:
      json_builder_add_boolean_value (b, G_STRUCT_MEMBER (gboolean, record, field->offset));
      break;
    case PROCURA_FIELD_ENUM:
      json_builder_add_string_value (b, enum_text (field, record));
      break;
    case PROCURA_FIELD_CANDIDATE:
      {
        const ProcuraCandidate *c = referenced_candidate (project, record, field->offset);

        if (c != NULL && c->name != NULL)
          json_builder_add_string_value (b, c->name);
        else
          json_builder_add_null_value (b);
      }
      break;
    case PROCURA_FIELD_QUOTE:
      json_builder_add_int_value (b, G_STRUCT_MEMBER (gint64, record, field->offset));
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
take_text (char       **slot,
           const char  *value)
{
  if (value == NULL)
    return;
  g_free (*slot);
  *slot = g_strdup (value);
}

void
procura_candidate_take_quote (ProcuraCandidate   *c,
                              const ProcuraQuote *q)
{
  g_return_if_fail (c != NULL && q != NULL);
  c->quote_id = q->id;
  if (procura_is_set (procura_quote_price_per_gpu_hour (q)))
    c->price_per_gpu_hour = procura_quote_price_per_gpu_hour (q);
  take_text (&c->price_date, q->seen_date);
  take_text (&c->provider, q->provider);
  take_text (&c->pricing_model, q->pricing_model);
  take_text (&c->region, q->region);
  take_text (&c->gpu_name, q->gpu_id != NULL ? q->gpu_id : q->gpu_name);
}
