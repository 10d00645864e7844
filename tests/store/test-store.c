/* test-store.c: the project file: every table, migrations, undo, locking
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <sys/stat.h>

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procura-store.h"
#include "procura-store-schema.h"
#include "procura-store-signature.h"
#include "procura-test-util.h"
#include "procura-util.h"

typedef struct {
  char *dir;
  char *path;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = procura_test_mkdtemp ();
  f->path = g_build_filename (f->dir, "test.procura", NULL);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  procura_test_rmtree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static ProcuraCandidate *
make_candidate (const char *name)
{
  ProcuraCandidate *c = procura_candidate_new ();

  c->name = g_strdup (name);
  c->kind = PROCURA_CANDIDATE_GPU;
  c->gpu_name = g_strdup ("H100-SXM");
  c->gpus_per_replica = 4;
  c->provider = g_strdup ("Example Cloud");
  c->pricing_model = g_strdup ("on-demand");
  c->region = g_strdup ("us-east");
  c->engine = g_strdup ("vllm");
  c->tp = 4;
  c->pp = 1;
  c->price_per_gpu_hour = 2.49;
  c->price_date = g_strdup ("2026-11-20");
  c->provisioning = PROCURA_PROVISION_AUTOSCALED;
  c->target_utilization = 0.7;
  c->interconnect = g_strdup ("NVLink 900 GB/s");
  c->storage = 120;
  c->network = 80.5;
  c->serving_stack = 0;
  c->observability = 40;
  c->labor_hours = 10;
  c->labor_rate = 95;
  c->notes = g_strdup ("quoted “as is”\nsecond line");
  return c;
}

/* A run with stats and samples whose values are computed here. */
static ProcuraRun *
make_run (const char *label,
          gsize       n)
{
  ProcuraRun *r = procura_run_new ();
  double *ttft = g_new (double, n);
  double *e2e = g_new (double, n);

  r->label = g_strdup (label);
  r->format = g_strdup ("test-format");
  r->format_version = g_strdup ("1");
  r->scenario.model = g_strdup ("meta-llama/Llama-3.1-8B-Instruct");
  r->scenario.engine = g_strdup ("vllm");
  r->scenario.gpu_name = g_strdup ("H100");
  r->scenario.gpu_count = 4;
  r->scenario.tp = 4;
  r->scenario.load_type = g_strdup ("rate");
  r->scenario.load_value = INFINITY;
  r->scenario.input_len = 1000;
  r->completed = (gint64) n;
  r->failed = 0;
  r->duration_s = 60.25;
  r->request_throughput = n / 60.25;
  for (gsize i = 0; i < n; i++)
    {
      ttft[i] = 100.0 + (double) i * 0.5;
      e2e[i] = 1000.0 + (double) i;
    }
  procura_run_add_stat (r, "ttft", "p99", 612.5, PROCURA_SOURCE_AS_REPORTED, -1);
  procura_run_add_stat (r, "ttft", "mean", 100.0 + (n - 1) * 0.25, PROCURA_SOURCE_RECOMPUTED, (gint64) n);
  procura_run_take_samples (r, "ttft", ttft, n);
  procura_run_take_samples (r, "e2e", e2e, n);
  procura_run_add_warning (r, "warning with \"quotes\" and a\nnewline");
  r->extras_json = g_strdup ("{\"gpu_util\": [0.5, 0.75]}");
  return r;
}

static ProcuraImportResult *
make_import (const char *name,
             int         n_runs,
             gsize       n_samples)
{
  ProcuraImportResult *res = procura_import_result_new ();
  g_autofree char *label = NULL;

  res->format = g_strdup ("test-format");
  res->provenance = procura_provenance_new ();
  res->provenance->file_name = g_strdup (name);
  res->provenance->size = 1234;
  res->provenance->sha256 = procura_sha256_hex (name, strlen (name));
  res->provenance->importer = g_strdup ("test-format");
  res->provenance->format_version = g_strdup ("1");
  res->provenance->imported_at = g_strdup ("2026-11-30T06:00:00Z");
  for (int i = 0; i < n_runs; i++)
    {
      g_free (label);
      label = g_strdup_printf ("%s run %d", name, i);
      g_ptr_array_add (res->runs, make_run (label, n_samples));
    }
  return res;
}

static ProcuraStore *
create_store (Fixture *f)
{
  g_autoptr (GError) error = NULL;
  ProcuraStore *store = procura_store_create (f->path, "Test project", &error);

  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

static gint64
sql_count (const char *path,
           const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 n = -1;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return n;
}

/* ------------------------------------------------------------------------- */

static void
test_create_and_reopen (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraProject) p = NULL;
  ProcuraStore *store = create_store (f);
  ProcuraStore *again;

  g_assert_false (procura_store_is_read_only (store));
  g_assert_null (procura_store_get_read_only_reason (store));
  g_assert_cmpint (procura_store_get_file_schema_version (store), ==, PROCURA_STORE_SCHEMA_VERSION);
  procura_store_close (store);

  /* built under a temporary name and linked into place: nothing else is left */
  {
    GDir *d = g_dir_open (f->dir, 0, NULL);
    const char *name;
    int files = 0;

    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_assert_cmpstr (name, ==, "test.procura");
        files++;
      }
    g_dir_close (d);
    g_assert_cmpint (files, ==, 1);
  }

  /* pragmas of the file */
  g_assert_cmpint (sql_count (f->path, "PRAGMA user_version"), ==, PROCURA_STORE_SCHEMA_VERSION);
  g_assert_cmpint (sql_count (f->path, "PRAGMA application_id"), ==, PROCURA_STORE_APPLICATION_ID);
  g_assert_cmpint (sql_count (f->path, "SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = 'wal'"), ==, 1);
  /* large pages: a run's sample BLOBs are written in large sequential writes */
  g_assert_cmpint (sql_count (f->path, "PRAGMA page_size"), ==, 65536);

  /* refuses to overwrite */
  again = procura_store_create (f->path, "Other", &error);
  g_assert_null (again);
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, f->path));
  g_clear_error (&error);

  store = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (p->title, ==, "Test project");
  g_assert_false (p->illustrative);
  g_assert_nonnull (p->created);
  g_assert_cmpstr (p->created, ==, p->modified);
  g_assert_cmpfloat (p->brief->window_hours, ==, 730);
  g_assert_true (isnan (p->brief->demand_average));
  g_assert_cmpstr (p->assumptions.currency, ==, "USD");
  g_assert_cmpint (p->decision.candidate_id, ==, 0);
  g_assert_cmpuint (p->candidates->len, ==, 0);
  g_assert_cmpuint (p->runs->len, ==, 0);
  procura_store_close (store);
}

static void
test_missing_file (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  ProcuraStore *store = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, &error);

  g_assert_null (store);
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND);
  g_assert_false (g_file_test (f->path, G_FILE_TEST_EXISTS));
}

static void
test_project_fields (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = create_store (f);
  g_autoptr (ProcuraBrief) brief = procura_brief_new ();
  g_autoptr (ProcuraProject) p = NULL;
  g_auto (GStrv) missing = NULL;
  ProcuraAssumptions a;
  ProcuraDecision d = { 0 };
  gint64 cid;

  g_assert_true (procura_store_set_title (store, "Renamed", &error));
  g_assert_no_error (error);
  g_assert_false (procura_store_set_title (store, "", &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (procura_store_set_illustrative (store, TRUE, &error));

  brief->workload_type = g_strdup ("online-inference");
  brief->model_shape = g_strdup ("meta-llama/Llama-3.1-70B-Instruct");
  brief->input_tokens = 1000;
  brief->output_tokens = 250;
  brief->concurrency = 64;
  brief->success_unit = g_strdup ("accepted response");
  brief->slo_metric = g_strdup ("ttft");
  brief->slo_percentile = 99;
  brief->slo_threshold_ms = 800;
  brief->duty_cycle = g_strdup ("always-on");
  brief->operating_boundary = g_strdup ("public cloud, US regions");
  brief->tooling = g_strdup ("vllm");
  brief->demand_average = 12;
  brief->demand_peak = 30;
  brief->window_hours = 720;
  brief->input_tokens_mean = 600;     /* v4 */
  brief->output_tokens_mean = 150;
  brief->storage_gb = 2048;
  brief->egress_gb = 300;
  g_assert_true (procura_store_save_brief (store, brief, &error));
  g_assert_no_error (error);

  procura_assumptions_init (&a);
  a.acceptance_rate = 0.92;
  a.retry_rate = 0.04;
  a.failure_rate = 0.01;
  a.headroom = 1.25;
  a.stale_days = 45;
  g_free (a.currency);
  a.currency = g_strdup ("EUR");
  g_assert_true (procura_store_save_assumptions (store, &a, &error));
  g_assert_no_error (error);
  procura_assumptions_clear (&a);

  /* a decision must name a live candidate */
  d.candidate_id = 99;
  d.rationale = (char *) "cheapest";
  g_assert_false (procura_store_save_decision (store, &d, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  {
    g_autoptr (ProcuraCandidate) c = make_candidate ("A");
    c->purchase_price_per_gpu = 30000;   /* v4 */
    c->depreciation_years = 4;
    c->power_per_gpu_hour = 0.1;
    c->hosting_per_gpu_month = 73;
    cid = procura_store_add_candidate (store, c, &error);
    g_assert_no_error (error);
  }
  d.candidate_id = cid;
  d.approver = (char *) "J. Doe";
  d.date = (char *) "2026-12-01";
  g_assert_true (procura_store_save_decision (store, &d, &error));
  g_assert_no_error (error);

  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (p->title, ==, "Renamed");
  g_assert_true (p->illustrative);
  g_assert_cmpstr (p->brief->workload_type, ==, "online-inference");
  g_assert_cmpstr (p->brief->model_shape, ==, "meta-llama/Llama-3.1-70B-Instruct");
  g_assert_cmpfloat (p->brief->input_tokens, ==, 1000);
  g_assert_cmpfloat (p->brief->output_tokens, ==, 250);
  g_assert_true (isnan (p->brief->context_tokens));
  g_assert_cmpfloat (p->brief->concurrency, ==, 64);
  g_assert_cmpstr (p->brief->success_unit, ==, "accepted response");
  g_assert_cmpstr (p->brief->slo_metric, ==, "ttft");
  g_assert_cmpfloat (p->brief->slo_percentile, ==, 99);
  g_assert_cmpfloat (p->brief->slo_threshold_ms, ==, 800);
  g_assert_cmpstr (p->brief->duty_cycle, ==, "always-on");
  g_assert_cmpstr (p->brief->operating_boundary, ==, "public cloud, US regions");
  g_assert_cmpstr (p->brief->tooling, ==, "vllm");
  g_assert_cmpfloat (p->brief->demand_average, ==, 12);
  g_assert_cmpfloat (p->brief->demand_peak, ==, 30);
  g_assert_cmpfloat (p->brief->window_hours, ==, 720);
  g_assert_cmpfloat (p->brief->input_tokens_mean, ==, 600);
  g_assert_cmpfloat (p->brief->output_tokens_mean, ==, 150);
  g_assert_cmpfloat (p->brief->storage_gb, ==, 2048);
  g_assert_cmpfloat (p->brief->egress_gb, ==, 300);
  {
    const ProcuraCandidate *c = g_ptr_array_index (p->candidates, 0);
    g_assert_cmpfloat (c->purchase_price_per_gpu, ==, 30000);
    g_assert_cmpfloat (c->depreciation_years, ==, 4);
    g_assert_cmpfloat (c->power_per_gpu_hour, ==, 0.1);
    g_assert_cmpfloat (c->hosting_per_gpu_month, ==, 73);
  }
  missing = procura_brief_missing (p->brief);
  g_assert_cmpuint (g_strv_length (missing), ==, 0);
  g_assert_cmpfloat (p->assumptions.acceptance_rate, ==, 0.92);
  g_assert_cmpfloat (p->assumptions.retry_rate, ==, 0.04);
  g_assert_cmpfloat (p->assumptions.failure_rate, ==, 0.01);
  g_assert_cmpfloat (p->assumptions.headroom, ==, 1.25);
  g_assert_cmpfloat (p->assumptions.stale_days, ==, 45);
  g_assert_cmpstr (p->assumptions.currency, ==, "EUR");
  g_assert_cmpint (p->decision.candidate_id, ==, cid);
  g_assert_cmpstr (p->decision.rationale, ==, "cheapest");
  g_assert_cmpstr (p->decision.approver, ==, "J. Doe");
  g_assert_cmpstr (p->decision.date, ==, "2026-12-01");
}

#define assert_same_double(x, y) \
  G_STMT_START { \
    double x_ = (x), y_ = (y); \
    if (isnan (x_) || isnan (y_)) \
      g_assert_true (isnan (x_) && isnan (y_)); \
    else \
      g_assert_cmpfloat (x_, ==, y_); \
  } G_STMT_END

static void
assert_candidate_equal (const ProcuraCandidate *a,
                        const ProcuraCandidate *b)
{
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpint (a->kind, ==, b->kind);
  g_assert_cmpstr (a->gpu_name, ==, b->gpu_name);
  g_assert_cmpint (a->gpus_per_replica, ==, b->gpus_per_replica);
  g_assert_cmpstr (a->provider, ==, b->provider);
  g_assert_cmpstr (a->pricing_model, ==, b->pricing_model);
  g_assert_cmpstr (a->region, ==, b->region);
  g_assert_cmpstr (a->engine, ==, b->engine);
  g_assert_cmpint (a->tp, ==, b->tp);
  g_assert_cmpint (a->pp, ==, b->pp);
  g_assert_cmpint (a->quote_id, ==, b->quote_id);
  assert_same_double (a->price_per_gpu_hour, b->price_per_gpu_hour);
  g_assert_cmpstr (a->price_date, ==, b->price_date);
  g_assert_cmpint (a->provisioning, ==, b->provisioning);
  g_assert_cmpint (isnan (a->billed_hours), ==, isnan (b->billed_hours));
  assert_same_double (a->target_utilization, b->target_utilization);
  g_assert_true (isnan (a->capacity_override) == isnan (b->capacity_override));
  g_assert_cmpstr (a->interconnect, ==, b->interconnect);
  assert_same_double (a->storage, b->storage);
  assert_same_double (a->network, b->network);
  assert_same_double (a->observability, b->observability);
  assert_same_double (a->labor_hours, b->labor_hours);
  assert_same_double (a->labor_rate, b->labor_rate);
  g_assert_cmpstr (a->api_provider, ==, b->api_provider);
  g_assert_cmpstr (a->api_model, ==, b->api_model);
  assert_same_double (a->cached_input_tokens, b->cached_input_tokens);
  g_assert_true (isnan (a->price_input_per_mtok) == isnan (b->price_input_per_mtok));
  if (!isnan (a->price_input_per_mtok))
    assert_same_double (a->price_input_per_mtok, b->price_input_per_mtok);
  g_assert_cmpstr (a->notes, ==, b->notes);
}

static void
test_candidates (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = create_store (f);
  g_autoptr (ProcuraCandidate) a = make_candidate ("4×H100 TP4");
  g_autoptr (ProcuraCandidate) api = procura_candidate_new ();
  g_autoptr (ProcuraCandidate) dup = make_candidate ("4×H100 TP4");
  g_autoptr (ProcuraCandidate) bad = make_candidate ("");
  g_autoptr (GPtrArray) list = NULL;
  gint64 ida, idb;

  ida = procura_store_add_candidate (store, a, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ida, >, 0);

  api->name = g_strdup ("API route");
  api->kind = PROCURA_CANDIDATE_API;
  api->api_provider = g_strdup ("Example API");
  api->api_model = g_strdup ("llama-3.1-70b");
  api->input_tokens = 1000;
  api->output_tokens = 250;
  api->price_input_per_mtok = 0.60;
  api->price_output_per_mtok = 1.80;
  api->rate_limit_rpm = 6000;
  idb = procura_store_add_candidate (store, api, &error);
  g_assert_no_error (error);
  g_assert_cmpint (idb, >, ida);

  /* duplicate and empty names are refused, and leave nothing behind */
  g_assert_cmpint (procura_store_add_candidate (store, dup, &error), ==, 0);
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "4×H100 TP4"));
  g_clear_error (&error);
  g_assert_cmpint (procura_store_add_candidate (store, bad, &error), ==, 0);
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_clear_error (&error);
  /* a quote id that does not exist */
  dup->quote_id = 42;
  g_free (dup->name);
  dup->name = g_strdup ("with quote");
  g_assert_cmpint (procura_store_add_candidate (store, dup, &error), ==, 0);
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  list = procura_store_list_candidates (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (list->len, ==, 2);
  a->id = ida;
  assert_candidate_equal (g_ptr_array_index (list, 0), a);
  assert_candidate_equal (g_ptr_array_index (list, 1), api);
  g_assert_cmpfloat (((ProcuraCandidate *) g_ptr_array_index (list, 1))->rate_limit_rpm, ==, 6000);
  g_assert_cmpint (((ProcuraCandidate *) g_ptr_array_index (list, 1))->id, ==, idb);

  g_assert_cmpint (procura_store_find_candidate_by_name (store, "API route"), ==, idb);
  g_assert_cmpint (procura_store_find_candidate_by_name (store, "nope"), ==, 0);

  /* update */
  a->price_per_gpu_hour = 2.10;
  g_free (a->region);
  a->region = g_strdup ("us-west");
  g_assert_true (procura_store_update_candidate (store, a, &error));
  g_assert_no_error (error);
  g_clear_pointer (&list, g_ptr_array_unref);
  list = procura_store_list_candidates (store, &error);
  assert_candidate_equal (g_ptr_array_index (list, 0), a);

  /* renaming onto another's name is refused */
  g_free (a->name);
  a->name = g_strdup ("API route");
  g_assert_false (procura_store_update_candidate (store, a, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_clear_error (&error);
  a->id = 1000;
  g_free (a->name);
  a->name = g_strdup ("ghost");
  g_assert_false (procura_store_update_candidate (store, a, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND);
}

static void
assert_run_equal (const ProcuraRun *a,
                  const ProcuraRun *b,
                  gboolean          samples)
{
  g_assert_cmpstr (a->label, ==, b->label);
  g_assert_cmpstr (a->format, ==, b->format);
  g_assert_cmpstr (a->format_version, ==, b->format_version);
  g_assert_cmpstr (a->scenario.model, ==, b->scenario.model);
  g_assert_cmpstr (a->scenario.engine, ==, b->scenario.engine);
  g_assert_cmpstr (a->scenario.gpu_name, ==, b->scenario.gpu_name);
  g_assert_cmpint (a->scenario.gpu_count, ==, b->scenario.gpu_count);
  g_assert_cmpint (a->scenario.tp, ==, b->scenario.tp);
  g_assert_cmpint (a->scenario.pp, ==, b->scenario.pp);
  g_assert_cmpint (a->scenario.dp, ==, b->scenario.dp);
  g_assert_cmpstr (a->scenario.load_type, ==, b->scenario.load_type);
  g_assert_cmpfloat (a->scenario.load_value, ==, b->scenario.load_value);
  g_assert_cmpfloat (a->scenario.input_len, ==, b->scenario.input_len);
  g_assert_true (isnan (b->scenario.output_len));
  g_assert_cmpfloat (a->duration_s, ==, b->duration_s);
  g_assert_cmpint (a->completed, ==, b->completed);
  g_assert_cmpint (a->failed, ==, b->failed);
  g_assert_cmpfloat (a->request_throughput, ==, b->request_throughput);
  g_assert_true (isnan (b->output_throughput));
  g_assert_cmpuint (a->stats->len, ==, b->stats->len);
  for (guint i = 0; i < a->stats->len; i++)
    {
      const ProcuraStat *s = g_ptr_array_index (a->stats, i);
      const ProcuraStat *t = NULL;

      for (guint j = 0; j < b->stats->len; j++)
        {
          const ProcuraStat *u = g_ptr_array_index (b->stats, j);
          if (g_str_equal (u->metric, s->metric) && g_str_equal (u->stat, s->stat) && u->source == s->source)
            t = u;
        }
      g_assert_nonnull (t);
      g_assert_cmpfloat (s->value, ==, t->value);
      g_assert_cmpint (s->samples, ==, t->samples);
    }
  g_assert_cmpuint (a->warnings->len, ==, b->warnings->len);
  for (guint i = 0; i < a->warnings->len; i++)
    g_assert_cmpstr (g_ptr_array_index (a->warnings, i), ==, g_ptr_array_index (b->warnings, i));
  g_assert_cmpstr (a->extras_json, ==, b->extras_json);
  if (!samples)
    {
      g_assert_cmpuint (b->samples->len, ==, 0);
      return;
    }
  g_assert_cmpuint (a->samples->len, ==, b->samples->len);
  for (guint i = 0; i < a->samples->len; i++)
    {
      const ProcuraSamples *s = g_ptr_array_index (a->samples, i);
      const ProcuraSamples *t = procura_run_get_samples (b, s->metric);

      g_assert_nonnull (t);
      g_assert_cmpuint (s->n, ==, t->n);
      g_assert_true (memcmp (s->values, t->values, s->n * sizeof (double)) == 0);
    }
}

static void
test_import (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = create_store (f);
  g_autoptr (ProcuraImportResult) res = make_import ("bench.json", 3, 500);
  g_autoptr (ProcuraProject) p = NULL;
  g_autoptr (ProcuraProject) ps = NULL;
  g_autoptr (ProcuraCandidate) c = make_candidate ("C");
  ProcuraQuote *q = procura_quote_new ();
  ProcuraQuote *qa = procura_quote_new ();
  ProcuraModelShape *m = procura_model_shape_new ();
  ProcuraEngineLog *l = procura_engine_log_new ();
  ProcuraProbeResult *pr = procura_probe_result_new ();
  ProcuraRun *fresh;
  gint64 cid;

  cid = procura_store_add_candidate (store, c, &error);
  g_assert_no_error (error);

  q->provider = g_strdup ("Example Cloud");
  q->sku = g_strdup ("p5.48xlarge");
  q->gpu_name = g_strdup ("H100 80GB");
  q->gpu_id = g_strdup ("h100-sxm");
  q->gpu_count = 8;
  q->price_per_hour = 31.46;
  q->pricing_model = g_strdup ("reserved");
  q->term_months = 12;
  q->region = g_strdup ("us-east-1");
  q->seen_date = g_strdup ("2026-11-02");
  q->source = g_strdup ("https://example.com/pricing");
  q->egress_per_gb = 0.09;
  g_ptr_array_add (res->quotes, q);
  qa->kind = PROCURA_QUOTE_API;
  qa->provider = g_strdup ("Example API");
  qa->api_model = g_strdup ("llama-70b");
  qa->price_input_per_mtok = 0.6;
  qa->price_output_per_mtok = 1.8;
  qa->rate_limit_tpm = 2e6;
  g_ptr_array_add (res->quotes, qa);

  m->id = g_strdup ("google/gemma-2-9b");
  m->architecture = g_strdup ("Gemma2ForCausalLM");
  m->num_layers = 4;
  m->hidden_size = 3584;
  m->num_attention_heads = 16;
  m->num_kv_heads = 8;
  m->head_dim = 256;
  m->vocab_size = 256000;
  m->tie_word_embeddings = TRUE;
  m->sliding_window = 4096;
  m->layer_is_sliding = g_new0 (guint8, 4);
  m->layer_is_sliding[0] = m->layer_is_sliding[2] = 1;
  m->weights_dtype = g_strdup ("bf16");
  m->published_params = 9.24e9;
  g_ptr_array_add (res->model_shapes, m);

  l->engine = g_strdup ("vllm");
  l->engine_version = g_strdup ("0.11.0");
  l->tp = 4;
  l->gpu_memory_utilization = 0.9;
  l->kv_tokens = 1234567;
  l->weights_gib = 33.5;
  l->max_concurrency = 18.4;
  g_ptr_array_add (l->errors, g_strdup ("No available memory for the cache blocks"));
  g_ptr_array_add (res->engine_logs, l);

  pr->device_name = g_strdup ("NVIDIA H200");
  pr->test = g_strdup ("fit");
  pr->fits = TRUE;
  pr->total_bytes = 150e9;
  pr->json = g_strdup ("{\"event\":\"done\",\"status\":\"ok\"}\n");
  pr->measured_at = g_strdup ("2026-11-29T12:00:00Z");
  g_ptr_array_add (res->probe_results, pr);

  g_assert_true (procura_store_import (store, res, cid, &error));
  g_assert_no_error (error);
  g_assert_cmpint (res->provenance->id, >, 0);
  for (guint i = 0; i < res->runs->len; i++)
    {
      ProcuraRun *r = g_ptr_array_index (res->runs, i);
      g_assert_cmpint (r->id, >, 0);
      g_assert_cmpint (r->candidate_id, ==, cid);
    }
  g_assert_cmpint (q->id, >, 0);
  g_assert_cmpint (q->provenance_id, ==, res->provenance->id);

  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->runs->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      ProcuraRun *r = g_ptr_array_index (p->runs, i);
      assert_run_equal (g_ptr_array_index (res->runs, i), r, FALSE);
      g_assert_cmpint (r->candidate_id, ==, cid);
      g_assert_nonnull (r->provenance);
      g_assert_cmpstr (r->provenance->file_name, ==, "bench.json");
      g_assert_cmpstr (r->provenance->sha256, ==, res->provenance->sha256);
    }
  ps = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 3; i++)
    assert_run_equal (g_ptr_array_index (res->runs, i), g_ptr_array_index (ps->runs, i), TRUE);

  /* on demand */
  fresh = procura_run_new ();
  g_assert_true (procura_store_load_samples (store, ((ProcuraRun *) g_ptr_array_index (res->runs, 1))->id,
                                             fresh, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fresh->samples->len, ==, 2);
  g_assert_cmpuint (procura_run_get_samples (fresh, "e2e")->n, ==, 500);
  g_assert_cmpfloat (procura_run_get_samples (fresh, "e2e")->values[499], ==, 1499.0);
  procura_run_free (fresh);

  /* one metric of one run, then one metric of every run of a snapshot without samples */
  {
    ProcuraRun *r1 = g_ptr_array_index (p->runs, 1);
    ProcuraRun *src1 = g_ptr_array_index (res->runs, 1);
    const ProcuraSamples *got;

    g_assert_cmpuint (r1->samples->len, ==, 0);
    g_assert_true (procura_store_load_run_samples (store, r1, "e2e", &error));
    g_assert_no_error (error);
    g_assert_cmpuint (r1->samples->len, ==, 1);
    got = procura_run_get_samples (r1, "e2e");
    g_assert_nonnull (got);
    g_assert_cmpuint (got->n, ==, procura_run_get_samples (src1, "e2e")->n);
    g_assert_cmpmem (got->values, got->n * sizeof (double),
                     procura_run_get_samples (src1, "e2e")->values, got->n * sizeof (double));
    /* a metric the run has no samples of */
    g_assert_true (procura_store_load_run_samples (store, r1, "itl", &error));
    g_assert_no_error (error);
    g_assert_cmpuint (r1->samples->len, ==, 1);

    g_assert_true (procura_store_load_project_samples (store, p, "ttft", &error));
    g_assert_no_error (error);
    for (guint i = 0; i < 3; i++)
      {
        ProcuraRun *r = g_ptr_array_index (p->runs, i);
        const ProcuraSamples *want = procura_run_get_samples (g_ptr_array_index (res->runs, i), "ttft");

        if (i != 1)
          g_assert_null (procura_run_get_samples (r, "e2e"));  /* only the metric asked for */
        if (want == NULL)
          {
            g_assert_null (procura_run_get_samples (r, "ttft"));
            continue;
          }
        got = procura_run_get_samples (r, "ttft");
        g_assert_nonnull (got);
        g_assert_cmpmem (got->values, got->n * sizeof (double), want->values, want->n * sizeof (double));
      }
  }

  /* provenance */
  g_assert_cmpuint (p->provenance->len, ==, 1);
  {
    ProcuraProvenance *pv = g_ptr_array_index (p->provenance, 0);
    g_assert_cmpstr (pv->file_name, ==, "bench.json");
    g_assert_cmpint (pv->size, ==, 1234);
    g_assert_cmpstr (pv->importer, ==, "test-format");
    g_assert_cmpstr (pv->format_version, ==, "1");
    g_assert_cmpstr (pv->imported_at, ==, "2026-11-30T06:00:00Z");
  }
  /* quotes */
  g_assert_cmpuint (p->quotes->len, ==, 2);
  {
    ProcuraQuote *lq = g_ptr_array_index (p->quotes, 0);
    ProcuraQuote *la = g_ptr_array_index (p->quotes, 1);
    g_assert_cmpint (lq->kind, ==, PROCURA_QUOTE_GPU);
    g_assert_cmpstr (lq->sku, ==, "p5.48xlarge");
    g_assert_cmpstr (lq->gpu_id, ==, "h100-sxm");
    g_assert_cmpint (lq->gpu_count, ==, 8);
    g_assert_cmpfloat (lq->price_per_hour, ==, 31.46);
    g_assert_cmpfloat (procura_quote_price_per_gpu_hour (lq), ==, 31.46 / 8);
    g_assert_cmpstr (lq->currency, ==, "USD");
    g_assert_cmpfloat (lq->term_months, ==, 12);
    g_assert_true (isnan (lq->min_commitment));
    g_assert_cmpstr (lq->seen_date, ==, "2026-11-02");
    g_assert_cmpfloat (lq->egress_per_gb, ==, 0.09);
    g_assert_cmpint (lq->provenance_id, ==, res->provenance->id);
    g_assert_cmpint (la->kind, ==, PROCURA_QUOTE_API);
    g_assert_cmpstr (la->api_model, ==, "llama-70b");
    g_assert_cmpfloat (la->price_output_per_mtok, ==, 1.8);
    g_assert_cmpfloat (la->rate_limit_tpm, ==, 2e6);
  }
  /* model shapes */
  g_assert_cmpuint (p->model_shapes->len, ==, 1);
  {
    ProcuraModelShape *lm = g_ptr_array_index (p->model_shapes, 0);
    g_assert_cmpstr (lm->id, ==, "google/gemma-2-9b");
    g_assert_cmpint (lm->num_layers, ==, 4);
    g_assert_cmpint (lm->head_dim, ==, 256);
    g_assert_true (lm->tie_word_embeddings);
    g_assert_nonnull (lm->layer_is_sliding);
    g_assert_true (memcmp (lm->layer_is_sliding, m->layer_is_sliding, 4) == 0);
    g_assert_cmpfloat (lm->published_params, ==, 9.24e9);
  }
  /* engine logs */
  g_assert_cmpuint (p->engine_logs->len, ==, 1);
  {
    ProcuraEngineLog *ll = g_ptr_array_index (p->engine_logs, 0);
    g_assert_cmpint (ll->candidate_id, ==, cid);
    g_assert_cmpstr (ll->engine_version, ==, "0.11.0");
    g_assert_cmpint (ll->kv_tokens, ==, 1234567);
    g_assert_cmpint (ll->block_size, ==, -1);
    g_assert_true (isnan (ll->mem_fraction_static));
    g_assert_cmpfloat (ll->max_concurrency, ==, 18.4);
    g_assert_cmpuint (ll->errors->len, ==, 1);
    g_assert_cmpstr (g_ptr_array_index (ll->errors, 0), ==, "No available memory for the cache blocks");
  }
  /* probe results */
  g_assert_cmpuint (p->probe_results->len, ==, 1);
  {
    ProcuraProbeResult *lp = g_ptr_array_index (p->probe_results, 0);
    g_assert_cmpstr (lp->device_name, ==, "NVIDIA H200");
    g_assert_true (lp->fits);
    g_assert_cmpfloat (lp->total_bytes, ==, 150e9);
    g_assert_true (isnan (lp->bandwidth_gbps));
    g_assert_cmpstr (lp->json, ==, pr->json);
    g_assert_cmpint (lp->provenance_id, ==, res->provenance->id);
  }
}

/* An import that fails half-way stores nothing. */
static void
test_import_all_or_nothing (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = create_store (f);
  g_autoptr (ProcuraImportResult) good = make_import ("good.json", 2, 10);
  g_autoptr (ProcuraImportResult) bad = make_import ("bad.json", 4, 10);
  g_autoptr (ProcuraProject) p = NULL;
  ProcuraRun *broken;
  ProcuraSamples *s;

  g_assert_true (procura_store_import (store, good, 0, &error));
  g_assert_no_error (error);

  /* the last run's samples have no metric name: the store refuses them */
  broken = g_ptr_array_index (bad->runs, 3);
  s = g_ptr_array_index (broken->samples, 0);
  g_clear_pointer (&s->metric, g_free);
  g_assert_false (procura_store_import (store, bad, 0, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "nothing was imported"));
  g_clear_error (&error);
  g_assert_cmpint (((ProcuraRun *) g_ptr_array_index (bad->runs, 0))->id, ==, 0);
  g_assert_cmpint (bad->provenance->id, ==, 0);

  /* unknown candidate */
  s->metric = g_strdup ("ttft");
  g_assert_false (procura_store_import (store, bad, 77, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  p = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->runs->len, ==, 2);
  g_assert_cmpuint (p->provenance->len, ==, 1);
  g_assert_cmpint (sql_count (f->path, "SELECT count(*) FROM run_samples"), ==, 4);
  g_assert_cmpint (sql_count (f->path, "SELECT count(*) FROM run_stats"), ==, 4);
}

static void
test_assign_and_undo (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = create_store (f);
  g_autoptr (ProcuraImportResult) res = make_import ("r.json", 3, 5);
  g_autoptr (ProcuraCandidate) a = make_candidate ("A");
  g_autoptr (ProcuraCandidate) b = make_candidate ("B");
  g_autoptr (ProcuraCandidate) a2 = make_candidate ("A");
  ProcuraOpsTest *t = procura_ops_test_new ();
  ProcuraChecklistItem *it = procura_checklist_item_new ();
  ProcuraDecision d = { 0 };
  gint64 ida, idb, r0, r1, r2, tok_run, tok_cand, tok_a2, ida2;

  ida = procura_store_add_candidate (store, a, &error);
  idb = procura_store_add_candidate (store, b, &error);
  g_assert_no_error (error);
  g_assert_true (procura_store_import (store, res, ida, &error));
  g_assert_no_error (error);
  r0 = ((ProcuraRun *) g_ptr_array_index (res->runs, 0))->id;
  r1 = ((ProcuraRun *) g_ptr_array_index (res->runs, 1))->id;
  r2 = ((ProcuraRun *) g_ptr_array_index (res->runs, 2))->id;

  /* assign run 2 to B, and back to unassigned, then to B */
  g_assert_true (procura_store_assign_run (store, r2, 0, &error));
  g_assert_true (procura_store_assign_run (store, r2, idb, &error));
  g_assert_no_error (error);
  g_assert_false (procura_store_assign_run (store, r2, 999, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (procura_store_assign_run (store, 999, idb, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  t->candidate_id = ida;
  t->kind = g_strdup ("kill-worker");
  t->result = g_strdup ("pass");
  g_assert_cmpint (procura_store_add_ops_test (store, t, &error), >, 0);
  it->candidate_id = ida;
  it->section = g_strdup ("commercial");
  it->item = g_strdup ("Capacity reserved in writing?");
  it->answer = g_strdup ("yes");
  g_assert_cmpint (procura_store_add_checklist_item (store, it, &error), >, 0);
  g_assert_no_error (error);
  d.candidate_id = ida;
  d.rationale = (char *) "best";
  g_assert_true (procura_store_save_decision (store, &d, &error));

  /* delete a run, undo it */
  g_assert_true (procura_store_delete_run (store, r0, &tok_run, &error));
  g_assert_no_error (error);
  {
    g_autoptr (ProcuraProject) p = procura_store_load_project (store, 0, &error);
    g_assert_cmpuint (p->runs->len, ==, 2);
    g_assert_cmpint (((ProcuraRun *) g_ptr_array_index (p->runs, 0))->id, ==, r1);
  }
  g_assert_false (procura_store_delete_run (store, r0, NULL, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_true (procura_store_undo (store, tok_run, &error));
  g_assert_no_error (error);
  g_assert_false (procura_store_undo (store, tok_run, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* delete candidate A: its runs, ops test, checklist answer, engine logs go with it,
   * the decision is cleared */
  g_assert_true (procura_store_delete_candidate (store, ida, &tok_cand, &error));
  g_assert_no_error (error);
  {
    g_autoptr (ProcuraProject) p = procura_store_load_project (store, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (p->candidates->len, ==, 1);
    g_assert_cmpuint (p->runs->len, ==, 1);
    g_assert_cmpint (((ProcuraRun *) g_ptr_array_index (p->runs, 0))->id, ==, r2);
    g_assert_cmpuint (p->ops_tests->len, ==, 0);
    g_assert_cmpuint (p->checklist->len, ==, 0);
    g_assert_cmpint (p->decision.candidate_id, ==, 0);
    g_assert_cmpstr (p->decision.rationale, ==, "best");
  }
  g_assert_cmpint (procura_store_find_candidate_by_name (store, "A"), ==, 0);
  g_assert_false (procura_store_import (store, res, ida, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* undo brings everything back */
  g_assert_true (procura_store_undo (store, tok_cand, &error));
  g_assert_no_error (error);
  {
    g_autoptr (ProcuraProject) p = procura_store_load_project (store, 0, &error);
    g_assert_cmpuint (p->candidates->len, ==, 2);
    g_assert_cmpuint (p->runs->len, ==, 3);
    g_assert_cmpuint (p->ops_tests->len, ==, 1);
    g_assert_cmpuint (p->checklist->len, ==, 1);
    g_assert_cmpint (p->decision.candidate_id, ==, ida);
  }

  /* undo refused when a new candidate took the name in the meantime */
  g_assert_true (procura_store_delete_candidate (store, ida, &tok_cand, &error));
  ida2 = procura_store_add_candidate (store, a2, &error);
  g_assert_no_error (error);
  g_assert_false (procura_store_undo (store, tok_cand, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (procura_store_delete_candidate (store, ida2, &tok_a2, &error));
  g_assert_true (procura_store_undo (store, tok_cand, &error));
  g_assert_no_error (error);
  g_assert_cmpint (procura_store_find_candidate_by_name (store, "A"), ==, ida);

  /* purge: deleted rows are gone for good, undo tokens too */
  g_assert_true (procura_store_delete_run (store, r1, &tok_run, &error));
  g_assert_true (procura_store_purge_deleted (store, &error));
  g_assert_no_error (error);
  g_assert_false (procura_store_undo (store, tok_run, &error));
  g_clear_error (&error);
  g_assert_cmpint (sql_count (f->path, "SELECT count(*) FROM runs"), ==, 2);
  g_assert_cmpint (sql_count (f->path, "SELECT count(*) FROM candidates"), ==, 2);
  g_assert_cmpint (sql_count (f->path, "SELECT count(*) FROM run_samples"), ==, 4);
  g_assert_cmpint (sql_count (f->path, "SELECT count(*) FROM undo_log"), ==, 0);

  procura_ops_test_free (t);
  procura_checklist_item_free (it);
}

static void
test_quotes_ops_checklist (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = create_store (f);
  g_autoptr (ProcuraQuote) q = procura_quote_new ();
  g_autoptr (ProcuraCandidate) c = make_candidate ("C");
  ProcuraOpsTest *t = procura_ops_test_new ();
  ProcuraChecklistItem *it = procura_checklist_item_new ();
  g_autoptr (ProcuraProject) p = NULL;
  gint64 qid, cid, tid, iid;

  q->provider = g_strdup ("P");
  q->gpu_count = 4;
  q->price_per_hour = 10;
  q->seen_date = g_strdup ("2026-10-01");
  qid = procura_store_add_quote (store, q, &error);
  g_assert_no_error (error);
  q->id = qid;
  q->price_per_hour = 9;
  g_assert_true (procura_store_update_quote (store, q, &error));
  g_assert_no_error (error);
  q->id = 555;
  g_assert_false (procura_store_update_quote (store, q, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  q->kind = 7;
  g_assert_cmpint (procura_store_add_quote (store, q, &error), ==, 0);
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_clear_error (&error);

  c->quote_id = qid;
  cid = procura_store_add_candidate (store, c, &error);
  g_assert_no_error (error);

  t->candidate_id = cid;
  t->kind = g_strdup ("cold-start");
  t->result = g_strdup ("pass");
  t->recovery_s = 312.5;
  t->per_month = 2;
  tid = procura_store_add_ops_test (store, t, &error);
  g_assert_no_error (error);
  t->id = tid;
  t->failed_requests = 14;
  g_assert_true (procura_store_update_ops_test (store, t, &error));
  g_assert_no_error (error);
  g_free (t->kind);
  t->kind = NULL;
  g_assert_cmpint (procura_store_add_ops_test (store, t, &error), ==, 0);
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_clear_error (&error);

  it->section = g_strdup ("security");
  it->item = g_strdup ("SOC 2 report?");
  it->answer = g_strdup ("partial");
  it->evidence = g_strdup ("type I only, 2026-06");
  iid = procura_store_add_checklist_item (store, it, &error);
  g_assert_no_error (error);
  it->id = iid;
  g_free (it->answer);
  it->answer = g_strdup ("yes");
  it->candidate_id = cid;
  g_assert_true (procura_store_update_checklist_item (store, it, &error));
  g_assert_no_error (error);

  p = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->quotes->len, ==, 1);
  g_assert_cmpfloat (((ProcuraQuote *) g_ptr_array_index (p->quotes, 0))->price_per_hour, ==, 9);
  g_assert_cmpint (((ProcuraCandidate *) g_ptr_array_index (p->candidates, 0))->quote_id, ==, qid);
  g_assert_cmpuint (p->ops_tests->len, ==, 1);
  {
    ProcuraOpsTest *lt = g_ptr_array_index (p->ops_tests, 0);
    g_assert_cmpstr (lt->kind, ==, "cold-start");
    g_assert_cmpfloat (lt->recovery_s, ==, 312.5);
    g_assert_cmpfloat (lt->failed_requests, ==, 14);
    g_assert_cmpfloat (lt->per_month, ==, 2);
    g_assert_cmpint (lt->candidate_id, ==, cid);
  }
  g_assert_cmpuint (p->checklist->len, ==, 1);
  {
    ProcuraChecklistItem *li = g_ptr_array_index (p->checklist, 0);
    g_assert_cmpstr (li->section, ==, "security");
    g_assert_cmpstr (li->answer, ==, "yes");
    g_assert_cmpstr (li->evidence, ==, "type I only, 2026-06");
    g_assert_cmpint (li->candidate_id, ==, cid);
  }
  g_clear_pointer (&p, procura_project_free);

  /* deleting the quote unlinks the candidate */
  g_assert_true (procura_store_delete_quote (store, qid, &error));
  g_assert_true (procura_store_delete_ops_test (store, tid, &error));
  g_assert_true (procura_store_delete_checklist_item (store, iid, &error));
  g_assert_no_error (error);
  g_assert_false (procura_store_delete_checklist_item (store, iid, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  p = procura_store_load_project (store, 0, &error);
  g_assert_cmpuint (p->quotes->len, ==, 0);
  g_assert_cmpuint (p->ops_tests->len, ==, 0);
  g_assert_cmpuint (p->checklist->len, ==, 0);
  g_assert_cmpint (((ProcuraCandidate *) g_ptr_array_index (p->candidates, 0))->quote_id, ==, 0);

  procura_ops_test_free (t);
  procura_checklist_item_free (it);
}

/* A second store on the same file opens read-only and says why; writes fail. */
static void
test_second_instance (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) first = create_store (f);
  ProcuraStore *second;
  g_autoptr (ProcuraProject) p = NULL;
  const char *reason;

  second = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_true (procura_store_is_read_only (second));
  reason = procura_store_get_read_only_reason (second);
  g_assert_nonnull (reason);
  g_assert_nonnull (strstr (reason, "another Procura"));
  g_assert_false (procura_store_set_title (second, "x", &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_READ_ONLY);
  g_clear_error (&error);

  /* the reader sees the writer's changes */
  g_assert_true (procura_store_set_title (first, "Seen by the reader", &error));
  p = procura_store_load_project (second, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (p->title, ==, "Seen by the reader");
  procura_store_close (second);

  /* WRITABLE demands the lock */
  second = procura_store_open (f->path, PROCURA_STORE_OPEN_WRITABLE, &error);
  g_assert_null (second);
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_LOCKED);
  g_clear_error (&error);

  /* another process too */
  {
    pid_t pid;
    int status = 0;

    pid = fork ();
    g_assert_cmpint (pid, >=, 0);
    if (pid == 0)
      {
        ProcuraStore *s = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, NULL);
        _exit (s != NULL && procura_store_is_read_only (s) ? 0 : 1);
      }
    g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  }

  /* once the first closes, the lock is free */
  g_clear_pointer (&first, procura_store_close);
  second = procura_store_open (f->path, PROCURA_STORE_OPEN_WRITABLE, &error);
  g_assert_no_error (error);
  g_assert_false (procura_store_is_read_only (second));
  procura_store_close (second);

  /* READ_ONLY on request: cannot write, and leaves no -wal or -shm behind */
  second = procura_store_open (f->path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  g_assert_true (procura_store_is_read_only (second));
  g_clear_pointer (&p, procura_project_free);
  p = procura_store_load_project (second, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (p->title, ==, "Seen by the reader");
  g_assert_false (procura_store_set_title (second, "x", &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_READ_ONLY);
  g_clear_error (&error);
  procura_store_close (second);
  {
    g_autofree char *wal = g_strconcat (f->path, "-wal", NULL);
    g_autofree char *shm = g_strconcat (f->path, "-shm", NULL);
    g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));
    g_assert_false (g_file_test (shm, G_FILE_TEST_EXISTS));
  }
  g_assert_cmpint (sql_count (f->path, "SELECT count(*) FROM project WHERE title = 'Seen by the reader'"), ==, 1);
}

/* The SHA-256 of the file's bytes, to show it unchanged */
static char *
file_sha256 (const char *path)
{
  g_autofree char *bytes = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  return procura_sha256_hex (bytes, len);
}

/* Whether an open changes nothing in the file (what `procura import` asks before it
 * opens the project beside reading its inputs): a project of this schema in WAL mode;
 * not a hot journal beside it, an older schema, another file, or none */
static void
test_open_writes_nothing (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *journal = g_strconcat (f->path, "-journal", NULL);
  g_autofree char *other = g_build_filename (f->dir, "notes.txt", NULL);
  ProcuraStore *store;
  sqlite3 *db = NULL;

  g_assert_false (procura_store_open_writes_nothing (f->path));   /* none yet */
  store = procura_store_create (f->path, "Fresh", &error);
  g_assert_no_error (error);
  procura_store_close (store);
  g_assert_true (procura_store_open_writes_nothing (f->path));
  /* and opening it indeed leaves it as it was */
  {
    g_autofree char *before = file_sha256 (f->path);
    g_autofree char *after = NULL;

    store = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, &error);
    g_assert_no_error (error);
    procura_store_close (store);
    after = file_sha256 (f->path);
    g_assert_cmpstr (before, ==, after);
  }

  /* a journal left by a crash would be rolled back; an empty one is no journal */
  g_assert_true (g_file_set_contents (journal, "", 0, NULL));
  g_assert_true (procura_store_open_writes_nothing (f->path));
  g_assert_true (g_file_set_contents (journal, "journal bytes", -1, NULL));
  g_assert_false (procura_store_open_writes_nothing (f->path));
  g_assert_cmpint (g_unlink (journal), ==, 0);

  /* an older schema would be migrated */
  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "PRAGMA user_version = 4", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  g_assert_false (procura_store_open_writes_nothing (f->path));

  /* not a project at all, or too short to be one */
  g_assert_true (g_file_set_contents (other, "SQLite format 3", -1, NULL));
  g_assert_false (procura_store_open_writes_nothing (other));
  /* a FIFO: refused at once, not waited on for a writer that never comes */
  {
    g_autofree char *fifo = g_build_filename (f->dir, "fifo.procura", NULL);

    g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
    g_assert_false (procura_store_open_writes_nothing (fifo));
  }
}

/* A file written with the oldest schema (v1 SQL, v1 user_version) is migrated on open,
 * keeping its data. */
static void
test_migration_from_v1 (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraProject) p = NULL;
  g_autoptr (ProcuraCandidate) c = make_candidate ("new one");
  double samples[3] = { 1.5, -2.25, 1e300 };
  g_autofree char *sql = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  ProcuraStore *store;
  const ProcuraSamples *s;
  gint64 tok;

  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, procura_store_schema_v1_sql (), NULL, NULL, NULL), ==, SQLITE_OK);
  sql = g_strdup_printf ("PRAGMA application_id = %d; PRAGMA user_version = 1;"
                         "INSERT INTO project VALUES (1, 'Old project', '2025-01-01T00:00:00Z', '2025-01-02T00:00:00Z', 0);"
                         "INSERT INTO brief (id, workload_type, demand_peak, window_hours) VALUES (1, 'batch-inference', 40, 730);"
                         "INSERT INTO assumptions (id, acceptance_rate, currency) VALUES (1, 0.8, 'GBP');"
                         "INSERT INTO candidates (id, name, kind, gpu_name, gpus_per_replica, tp, pp) VALUES (3, 'Old GPU', 0, 'A100', 8, 8, 1);"
                         "INSERT INTO decision (id, candidate_id, rationale) VALUES (1, 3, 'legacy');"
                         "INSERT INTO provenance (id, file_name, importer) VALUES (1, 'old.json', 'vllm-bench-serve');"
                         "INSERT INTO runs (id, candidate_id, provenance_id, label, completed) VALUES (7, 3, 1, 'old run', 3);"
                         "INSERT INTO run_stats VALUES (7, 'ttft', 'p99', 0, 450.0, -1);",
                         PROCURA_STORE_APPLICATION_ID);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "INSERT INTO run_samples (run_id, metric, n, data) VALUES (7, 'ttft', 3, ?)",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  {
    /* little-endian float64, written byte by byte */
    guint8 le[24];
    for (int i = 0; i < 3; i++)
      {
        guint64 bits;
        memcpy (&bits, &samples[i], 8);
        for (int b = 0; b < 8; b++)
          le[i * 8 + b] = (guint8) (bits >> (8 * b));
      }
    sqlite3_bind_blob (stmt, 1, le, sizeof le, SQLITE_TRANSIENT);
  }
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  /* read-only: upgraded in memory, the file untouched */
  {
    g_autofree char *before = file_sha256 (f->path);
    g_autofree char *after = NULL;

    store = procura_store_open (f->path, PROCURA_STORE_OPEN_READ_ONLY, &error);
    g_assert_no_error (error);
    g_assert_true (procura_store_is_read_only (store));
    g_assert_nonnull (strstr (procura_store_get_read_only_reason (store), "older Procura"));
    g_assert_cmpint (procura_store_get_file_schema_version (store), ==, 1);
    p = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (p->title, ==, "Old project");
    g_assert_cmpuint (p->runs->len, ==, 1);
    g_assert_cmpuint (procura_run_get_samples (g_ptr_array_index (p->runs, 0), "ttft")->n, ==, 3);
    g_clear_pointer (&p, procura_project_free);
    g_assert_false (procura_store_set_title (store, "x", &error));
    g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_READ_ONLY);
    g_clear_error (&error);
    procura_store_close (store);
    after = file_sha256 (f->path);
    g_assert_cmpstr (before, ==, after);
    g_assert_cmpint (sql_count (f->path, "PRAGMA user_version"), ==, 1);
  }

  store = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  g_assert_cmpint (procura_store_get_file_schema_version (store), ==, 1);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (p->title, ==, "Old project");
  g_assert_cmpstr (p->created, ==, "2025-01-01T00:00:00Z");
  g_assert_cmpstr (p->brief->workload_type, ==, "batch-inference");
  g_assert_cmpfloat (p->brief->demand_peak, ==, 40);
  g_assert_cmpfloat (p->assumptions.acceptance_rate, ==, 0.8);
  g_assert_cmpstr (p->assumptions.currency, ==, "GBP");
  g_assert_cmpuint (p->candidates->len, ==, 1);
  g_assert_cmpstr (((ProcuraCandidate *) g_ptr_array_index (p->candidates, 0))->name, ==, "Old GPU");
  g_assert_null (((ProcuraCandidate *) g_ptr_array_index (p->candidates, 0))->interconnect);
  g_assert_cmpint (p->decision.candidate_id, ==, 3);
  g_assert_cmpuint (p->runs->len, ==, 1);
  g_assert_cmpstr (((ProcuraRun *) g_ptr_array_index (p->runs, 0))->provenance->file_name, ==, "old.json");
  g_assert_cmpfloat (procura_run_get_stat (g_ptr_array_index (p->runs, 0), "ttft", "p99")->value, ==, 450.0);
  s = procura_run_get_samples (g_ptr_array_index (p->runs, 0), "ttft");
  g_assert_nonnull (s);
  g_assert_cmpuint (s->n, ==, 3);
  g_assert_cmpfloat (s->values[0], ==, 1.5);
  g_assert_cmpfloat (s->values[1], ==, -2.25);
  g_assert_cmpfloat (s->values[2], ==, 1e300);

  /* the v2 features work on the migrated file */
  g_assert_true (procura_store_delete_candidate (store, 3, &tok, &error));
  g_assert_no_error (error);
  g_assert_cmpint (procura_store_add_candidate (store, c, &error), >, 0);
  g_assert_true (procura_store_undo (store, tok, &error));
  g_assert_no_error (error);
  /* and so do the v3 ones */
  g_assert_true (procura_store_answer_warning (store, "stale-price", 3, "re-quoted", &error));
  g_assert_no_error (error);
  procura_store_close (store);

  g_assert_cmpint (sql_count (f->path, "PRAGMA user_version"), ==, PROCURA_STORE_SCHEMA_VERSION);
  g_assert_cmpint (sql_count (f->path, "SELECT count(*) FROM warning_answers WHERE candidate_id = 3"), ==, 1);
  /* and it reopens as a current file */
  store = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpint (procura_store_get_file_schema_version (store), ==, PROCURA_STORE_SCHEMA_VERSION);
  procura_store_close (store);
}

/* A version 2 file (v1 + migration 2) migrates to the current version too. */
static void
test_migration_from_v2 (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraProject) p = NULL;
  g_autofree char *sql = NULL;
  sqlite3 *db = NULL;
  ProcuraStore *store;

  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, procura_store_schema_v1_sql (), NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, procura_store_migration_sql (2), NULL, NULL, NULL), ==, SQLITE_OK);
  sql = g_strdup_printf ("PRAGMA application_id = %d; PRAGMA user_version = 2;"
                         "INSERT INTO project VALUES (1, 'Version 2', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', 0);"
                         "INSERT INTO candidates (id, name, kind, interconnect) VALUES (5, 'V2 GPU', 0, 'PCIe');",
                         PROCURA_STORE_APPLICATION_ID);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  store = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  g_assert_cmpint (procura_store_get_file_schema_version (store), ==, 2);
  p = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (p->title, ==, "Version 2");
  g_assert_cmpuint (p->warning_answers->len, ==, 0);
  g_assert_cmpstr (((ProcuraCandidate *) g_ptr_array_index (p->candidates, 0))->interconnect, ==, "PCIe");
  g_assert_true (procura_store_answer_warning (store, "no-price", 5, "priced next week", &error));
  g_assert_no_error (error);
  procura_store_close (store);
  g_assert_cmpint (sql_count (f->path, "PRAGMA user_version"), ==, PROCURA_STORE_SCHEMA_VERSION);

  store = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpint (procura_store_get_file_schema_version (store), ==, PROCURA_STORE_SCHEMA_VERSION);
  g_clear_pointer (&p, procura_project_free);
  p = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (procura_project_find_answer (p, "no-price", 5)->answer, ==, "priced next week");
  procura_store_close (store);
}

/* Answers to warnings: answer, re-answer replaces, empty removes, they survive a reload,
 * a deleted candidate's answers come back with the undo and go with the purge. */
static void
test_warning_answers (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraCandidate) c = make_candidate ("Answered");
  g_autoptr (ProcuraProject) p = NULL;
  const ProcuraWarningAnswer *a;
  ProcuraStore *store = create_store (f);
  gint64 id, tok = 0;

  id = procura_store_add_candidate (store, c, &error);
  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);

  g_setenv ("SOURCE_DATE_EPOCH", "1795996800", TRUE);   /* 2026-11-30T00:00:00Z */
  g_assert_true (procura_store_answer_warning (store, "stale-price", id, "Re-quoted on 11-28", &error));
  g_assert_no_error (error);
  g_assert_true (procura_store_answer_warning (store, "acceptance-unset", 0, "Measured: 0.9", &error));
  g_assert_no_error (error);
  g_setenv ("SOURCE_DATE_EPOCH", "1796083200", TRUE);   /* a day later */
  /* the same warning about the same candidate: replaced, not added */
  g_assert_true (procura_store_answer_warning (store, "stale-price", id, "Re-quoted again", &error));
  g_assert_no_error (error);
  g_unsetenv ("SOURCE_DATE_EPOCH");

  p = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->warning_answers->len, ==, 2);
  a = procura_project_find_answer (p, "stale-price", id);
  g_assert_nonnull (a);
  g_assert_cmpstr (a->answer, ==, "Re-quoted again");
  g_assert_cmpstr (a->answered_at, ==, "2026-12-01T00:00:00Z");
  g_assert_cmpstr (p->modified, ==, "2026-12-01T00:00:00Z");
  a = procura_project_find_answer (p, "acceptance-unset", 0);
  g_assert_nonnull (a);
  g_assert_cmpstr (a->answer, ==, "Measured: 0.9");
  g_assert_cmpstr (a->answered_at, ==, "2026-11-30T00:00:00Z");
  g_assert_null (procura_project_find_answer (p, "stale-price", 0));
  g_assert_null (procura_project_find_answer (p, "acceptance-unset", id));

  /* bad arguments change nothing */
  g_assert_false (procura_store_answer_warning (store, "stale-price", 999, "x", &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (procura_store_answer_warning (store, "", 0, "x", &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_clear_error (&error);

  /* empty removes; NULL too; removing what is not there is fine */
  g_assert_true (procura_store_answer_warning (store, "acceptance-unset", 0, "", &error));
  g_assert_no_error (error);
  g_assert_true (procura_store_answer_warning (store, "labor-zero", 0, NULL, &error));
  g_assert_no_error (error);

  /* a deleted candidate hides its answers; the undo brings them back */
  g_assert_true (procura_store_delete_candidate (store, id, &tok, &error));
  g_assert_no_error (error);
  g_clear_pointer (&p, procura_project_free);
  p = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->warning_answers->len, ==, 0);
  g_assert_true (procura_store_undo (store, tok, &error));
  g_assert_no_error (error);
  procura_store_close (store);

  /* reload from disk */
  store = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  g_clear_pointer (&p, procura_project_free);
  p = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->warning_answers->len, ==, 1);
  g_assert_cmpstr (procura_project_find_answer (p, "stale-price", id)->answer, ==, "Re-quoted again");

  /* deleted for good: its answers go with it */
  g_assert_true (procura_store_delete_candidate (store, id, NULL, &error));
  g_assert_true (procura_store_purge_deleted (store, &error));
  g_assert_no_error (error);
  procura_store_close (store);
  g_assert_cmpint (sql_count (f->path, "SELECT count(*) FROM warning_answers"), ==, 0);
}

/* The migrations end where a freshly created file is: same sqlite_schema. */
static void
test_migration_matches_create (Fixture       *f,
                               gconstpointer  data)
{
  g_autofree char *sql = NULL;
  sqlite3 *db = NULL;
  g_autoptr (GError) error = NULL;
  ProcuraStore *store;

  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  sql = g_strdup_printf ("%s PRAGMA application_id = %d; PRAGMA user_version = 1;"
                         "INSERT INTO project VALUES (1, 'x', 'c', 'm', 0);",
                         procura_store_schema_v1_sql (), PROCURA_STORE_APPLICATION_ID);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  store = procura_store_open (f->path, 0, &error);
  g_assert_no_error (error);
  procura_store_close (store);

  {
    g_autofree char *other = g_build_filename (f->dir, "fresh.procura", NULL);
    const char *q = "SELECT group_concat(type || name || sql, '|') FROM (SELECT * FROM sqlite_schema ORDER BY name)";
    sqlite3 *a = NULL, *b = NULL;
    sqlite3_stmt *sa = NULL, *sb = NULL;

    store = procura_store_create (other, "y", &error);
    g_assert_no_error (error);
    procura_store_close (store);
    sqlite3_open_v2 (f->path, &a, SQLITE_OPEN_READONLY, NULL);
    sqlite3_open_v2 (other, &b, SQLITE_OPEN_READONLY, NULL);
    sqlite3_prepare_v2 (a, q, -1, &sa, NULL);
    sqlite3_prepare_v2 (b, q, -1, &sb, NULL);
    g_assert_cmpint (sqlite3_step (sa), ==, SQLITE_ROW);
    g_assert_cmpint (sqlite3_step (sb), ==, SQLITE_ROW);
    g_assert_cmpstr ((const char *) sqlite3_column_text (sa, 0), ==, (const char *) sqlite3_column_text (sb, 0));
    sqlite3_finalize (sa);
    sqlite3_finalize (sb);
    sqlite3_close (a);
    sqlite3_close (b);
  }
}

/* A statistic named twice in a run's list (metric, statistic and source alike) is stored
 * once, with the value given last; the same statistic from the other source stays */
static void
test_repeated_stat (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = create_store (f);
  g_autoptr (ProcuraImportResult) res = make_import ("repeat.json", 1, 10);
  g_autoptr (ProcuraProject) p = NULL;
  ProcuraRun *run = g_ptr_array_index (res->runs, 0);
  guint reported = 0, recomputed = 0;

  procura_run_add_stat (run, "ttft", "p99", 7.5, PROCURA_SOURCE_AS_REPORTED, -1);
  procura_run_add_stat (run, "ttft", "p99", 8.25, PROCURA_SOURCE_RECOMPUTED, 10);
  g_assert_true (procura_store_import (store, res, 0, &error));
  g_assert_no_error (error);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  run = g_ptr_array_index (p->runs, 0);
  for (guint i = 0; i < run->stats->len; i++)
    {
      const ProcuraStat *st = g_ptr_array_index (run->stats, i);

      if (!g_str_equal (st->metric, "ttft") || !g_str_equal (st->stat, "p99"))
        continue;
      if (st->source == PROCURA_SOURCE_AS_REPORTED)
        {
          reported++;
          g_assert_cmpfloat (st->value, ==, 7.5);   /* not the 612.5 given first */
        }
      else
        {
          recomputed++;
          g_assert_cmpfloat (st->value, ==, 8.25);
        }
    }
  g_assert_cmpuint (reported, ==, 1);
  g_assert_cmpuint (recomputed, ==, 1);
}

static void
test_samples_encoding (void)
{
  double v[4] = { 0.0, -0.0, 1.0, 123456.789 };
  g_autoptr (GBytes) bytes = procura_samples_encode (v, 4);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  double *back = NULL;
  gsize n = 0;
  guint64 bits = 0;

  g_assert_cmpuint (len, ==, 32);
  /* 1.0 is 0x3FF0000000000000: little-endian puts 0xF0 0x3F last */
  g_assert_cmpuint (data[16 + 7], ==, 0x3F);
  g_assert_cmpuint (data[16 + 6], ==, 0xF0);
  g_assert_cmpuint (data[16 + 0], ==, 0x00);
  for (int b = 7; b >= 0; b--)
    bits = (bits << 8) | data[24 + b];
  {
    double d;
    memcpy (&d, &bits, 8);
    g_assert_cmpfloat (d, ==, 123456.789);
  }
  g_assert_true (procura_samples_decode (data, len, &back, &n));
  g_assert_cmpuint (n, ==, 4);
  g_assert_true (memcmp (back, v, sizeof v) == 0);
  g_free (back);
  g_assert_false (procura_samples_decode (data, 31, &back, &n));
}

/* The sample BLOB really is one row per (run, metric), n * 8 bytes. */
static void
test_samples_layout (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) res = make_import ("s.json", 2, 1000);
  ProcuraStore *store = create_store (f);

  g_assert_true (procura_store_import (store, res, 0, &error));
  g_assert_no_error (error);
  procura_store_close (store);
  g_assert_cmpint (sql_count (f->path, "SELECT count(*) FROM run_samples"), ==, 4);
  g_assert_cmpint (sql_count (f->path, "SELECT sum(length(data)) FROM run_samples"), ==, 4 * 1000 * 8);
  g_assert_cmpint (sql_count (f->path, "SELECT count(*) FROM run_samples WHERE n = 1000"), ==, 4);
}

/* created stays, modified follows every write (SOURCE_DATE_EPOCH drives the clock) */
static void
test_modified (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  ProcuraStore *store;
  ProcuraProject *p;

  g_setenv ("SOURCE_DATE_EPOCH", "1795996800", TRUE);   /* 2026-11-30T00:00:00Z */
  store = create_store (f);
  g_setenv ("SOURCE_DATE_EPOCH", "1796083200", TRUE);   /* a day later */
  g_assert_true (procura_store_set_title (store, "Later", &error));
  g_assert_no_error (error);
  g_unsetenv ("SOURCE_DATE_EPOCH");
  p = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (p->created, ==, "2026-11-30T00:00:00Z");
  g_assert_cmpstr (p->modified, ==, "2026-12-01T00:00:00Z");
  procura_project_free (p);
  procura_store_close (store);
}

/* save_project is all or nothing too: a dangling candidate reference stores nothing. */
static void
test_save_project_all_or_nothing (Fixture       *f,
                                  gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = create_store (f);
  g_autoptr (ProcuraProject) in = procura_project_new ();
  g_autoptr (ProcuraProject) out = NULL;
  ProcuraCandidate *c = make_candidate ("kept?");
  ProcuraRun *r = make_run ("orphan", 3);

  in->title = g_strdup ("Should not be saved");
  c->id = 1;
  g_ptr_array_add (in->candidates, c);
  r->candidate_id = 99;
  g_ptr_array_add (in->runs, r);
  g_assert_false (procura_store_save_project (store, in, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "candidate 99"));
  g_clear_error (&error);

  out = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out->title, ==, "Test project");
  g_assert_cmpuint (out->candidates->len, ==, 0);
  g_assert_cmpuint (out->runs->len, ==, 0);

  /* fixed, it saves, with the run attached to the stored candidate */
  r->candidate_id = 1;
  g_assert_true (procura_store_save_project (store, in, &error));
  g_assert_no_error (error);
  g_clear_pointer (&out, procura_project_free);
  out = procura_store_load_project (store, 0, &error);
  g_assert_cmpstr (out->title, ==, "Should not be saved");
  g_assert_cmpuint (out->runs->len, ==, 1);
  g_assert_cmpint (((ProcuraRun *) g_ptr_array_index (out->runs, 0))->candidate_id, ==,
                   ((ProcuraCandidate *) g_ptr_array_index (out->candidates, 0))->id);
}

/* The signature made at build time is the one this SQLite gives the latest schema (so a
 * current project is checked without running the schema in memory), and a new project
 * file holds exactly it. */
static void
test_schema_signature (void)
{
  g_autofree char *expected = procura_store_schema_expected (PROCURA_STORE_SCHEMA_VERSION);
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = g_build_filename (dir, "sig.procura", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *actual = NULL;
  ProcuraStore *store;
  sqlite3 *db = NULL;

  g_assert_cmpint (PROCURA_STORE_SCHEMA_SIGNATURE_VERSION, ==, PROCURA_STORE_SCHEMA_VERSION);
  g_assert_cmpstr (expected, ==, PROCURA_STORE_SCHEMA_SIGNATURE);
  store = procura_store_create (path, "Signature", &error);
  g_assert_no_error (error);
  procura_store_close (store);
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  actual = procura_store_schema_signature (db);
  sqlite3_close (db);
  g_assert_cmpstr (actual, ==, PROCURA_STORE_SCHEMA_SIGNATURE);
  /* an older version's differs (the migrations change it) */
  {
    g_autofree char *v4 = procura_store_schema_expected (4);

    g_assert_nonnull (v4);
    g_assert_cmpstr (v4, !=, PROCURA_STORE_SCHEMA_SIGNATURE);
  }
  procura_test_rmtree (dir);
}

/* The journal mode of the file at @path as a fresh connection finds it ("wal", "delete") */
static const char *
file_journal_mode (const char *path)
{
  if (sql_count (path, "SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = 'wal'") == 1)
    return "wal";
  if (sql_count (path, "SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = 'delete'") == 1)
    return "delete";
  return "other";
}

/* procura_store_prepare_import_all (): the switch to a rollback journal made ahead of an
 * import, taken over by it (whatever its size) and undone after it; undone at close
 * where no import came; not made below the bulk size, for a read-only store, or beside
 * a second connection to the file (the import then goes through the WAL) */
static void
test_prepare_bulk (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *journal = g_strconcat (f->path, "-journal", NULL);
  ProcuraStore *store = create_store (f);
  /* 2 runs of 70,000 TTFT and end-to-end samples: 2.2 MB, past the bulk size */
  g_autoptr (ProcuraImportResult) bulky = make_import ("bulky.json", 2, 70000);
  g_autoptr (GPtrArray) big = g_ptr_array_new ();
  g_autoptr (ProcuraImportResult) tiny = make_import ("tiny.json", 1, 10);
  g_autoptr (GPtrArray) small = g_ptr_array_new ();

  g_ptr_array_add (big, bulky);
  g_ptr_array_add (small, tiny);
  procura_store_prepare_import_all (store, small);   /* too small: nothing */
  g_assert_cmpstr (file_journal_mode (f->path), ==, "wal");
  procura_store_prepare_import_all (store, big);
  g_assert_cmpstr (file_journal_mode (f->path), ==, "delete");
  {
    g_autoptr (ProcuraImportResult) res = make_import ("small.json", 2, 50);
    g_autoptr (ProcuraProject) p = NULL;

    {
      g_autoptr (GPtrArray) all = g_ptr_array_new ();

      g_ptr_array_add (all, res);
      g_assert_true (procura_store_import_all (store, all, 0, NULL, NULL, &error));
      g_assert_no_error (error);
    }
    g_assert_cmpstr (file_journal_mode (f->path), ==, "wal");
    g_assert_false (g_file_test (journal, G_FILE_TEST_EXISTS));
    p = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (p->runs->len, ==, 2);
    for (guint i = 0; i < 2; i++)
      assert_run_equal (g_ptr_array_index (res->runs, i), g_ptr_array_index (p->runs, i), TRUE);
  }

  /* no import after it: the WAL back at close */
  procura_store_prepare_import_all (store, big);
  g_assert_cmpstr (file_journal_mode (f->path), ==, "delete");
  procura_store_close (store);
  g_assert_cmpstr (file_journal_mode (f->path), ==, "wal");
  g_assert_false (g_file_test (journal, G_FILE_TEST_EXISTS));

  /* read-only: nothing */
  store = procura_store_open (f->path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  procura_store_prepare_import_all (store, big);
  g_assert_cmpstr (file_journal_mode (f->path), ==, "wal");
  procura_store_close (store);

  /* a second connection holds the file: SQLite refuses the switch, the import goes
   * through the WAL and is whole */
  store = procura_store_open (f->path, PROCURA_STORE_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  {
    sqlite3 *other = NULL;
    sqlite3_stmt *stmt = NULL;
    g_autoptr (ProcuraImportResult) res = make_import ("beside.json", 1, 50);
    g_autoptr (GPtrArray) all = g_ptr_array_new ();
    g_autoptr (ProcuraProject) p = NULL;

    g_assert_cmpint (sqlite3_open_v2 (f->path, &other, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_prepare_v2 (other, "SELECT count(*) FROM runs", -1, &stmt, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    sqlite3_finalize (stmt);
    procura_store_prepare_import_all (store, big);
    g_ptr_array_add (all, res);
    g_assert_true (procura_store_import_all (store, all, 0, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpint (sqlite3_prepare_v2 (other, "PRAGMA journal_mode", -1, &stmt, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "wal");
    sqlite3_finalize (stmt);
    sqlite3_close (other);
    p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (p->runs->len, ==, 3);
  }
  procura_store_close (store);
}

/* SQLite's default VFS with a count of the statement journals it opens (a statement
 * that may have to undo part of itself inside a transaction keeps one: a temporary
 * file holding a copy of each page it changes) */
static sqlite3_vfs counting_vfs;
static sqlite3_vfs *real_vfs;
static gint subjournal_opens;

static int
counting_open (sqlite3_vfs  *vfs,
               const char   *name,
               sqlite3_file *file,
               int           flags,
               int          *out_flags)
{
  if (flags & SQLITE_OPEN_SUBJOURNAL)
    g_atomic_int_inc (&subjournal_opens);
  return real_vfs->xOpen (real_vfs, name, file, flags, out_flags);
}

/* A run's import writes its samples and their summary (a megabyte for 100,000 values)
 * without a statement journal: each a plain INSERT of a new row */
static void
test_import_no_statement_journal (Fixture       *f,
                                  gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) res = make_import ("big.json", 2, 100000);
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  g_autoptr (ProcuraProject) p = NULL;
  ProcuraStore *store;

  real_vfs = sqlite3_vfs_find (NULL);
  g_assert_nonnull (real_vfs);
  counting_vfs = *real_vfs;
  counting_vfs.zName = "procura-test-counting";
  counting_vfs.xOpen = counting_open;
  g_assert_cmpint (sqlite3_vfs_register (&counting_vfs, 1), ==, SQLITE_OK);
  store = create_store (f);
  g_atomic_int_set (&subjournal_opens, 0);
  g_ptr_array_add (all, res);
  g_assert_true (procura_store_import_all (store, all, 0, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_atomic_int_get (&subjournal_opens), ==, 0);
  /* the summaries are there */
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->runs->len, ==, 2);
  g_assert_cmpint (sql_count (f->path, "SELECT count(*) FROM run_quantiles"), ==, 4);
  procura_store_close (store);
  sqlite3_vfs_unregister (&counting_vfs);
  sqlite3_vfs_register (real_vfs, 1);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, fn) g_test_add (name, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/store/create-and-reopen", test_create_and_reopen);
  ADD ("/store/missing-file", test_missing_file);
  ADD ("/store/project-fields", test_project_fields);
  ADD ("/store/candidates", test_candidates);
  ADD ("/store/import", test_import);
  ADD ("/store/import-all-or-nothing", test_import_all_or_nothing);
  ADD ("/store/prepare-bulk", test_prepare_bulk);
  ADD ("/store/import-no-statement-journal", test_import_no_statement_journal);
  ADD ("/store/import-repeated-stat", test_repeated_stat);
  ADD ("/store/assign-and-undo", test_assign_and_undo);
  ADD ("/store/quotes-ops-checklist", test_quotes_ops_checklist);
  ADD ("/store/second-instance", test_second_instance);
  ADD ("/store/open-writes-nothing", test_open_writes_nothing);
  ADD ("/store/migration-from-v1", test_migration_from_v1);
  ADD ("/store/migration-from-v2", test_migration_from_v2);
  ADD ("/store/migration-matches-create", test_migration_matches_create);
  ADD ("/store/warning-answers", test_warning_answers);
  ADD ("/store/samples-layout", test_samples_layout);
  ADD ("/store/modified", test_modified);
  ADD ("/store/save-project-all-or-nothing", test_save_project_all_or_nothing);
#undef ADD
  g_test_add_func ("/store/samples-encoding", test_samples_encoding);
  g_test_add_func ("/store/schema-signature", test_schema_signature);

  return g_test_run ();
}
