/* test-cli-summary.c: `procura summary PROJECT [--json]` run as a program on a stored project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "procura-model.h"
#include "procura-store.h"
#include "procura-test-util.h"

/* COST-MODEL.md §7 as a project: the 8xH100 sweep crosses p99 TTFT 500 ms at
 * 20 + (500 - 200) / (800 - 200) x 40 = 40 req/s. */
static char *
make_project (const char *dir)
{
  g_autoptr(ProcuraProject) p = procura_project_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  char *path = g_build_filename (dir, "summary.procura", NULL);
  ProcuraBrief *b = p->brief;
  ProcuraCandidate *c;
  ProcuraStore *store;

  p->title = g_strdup ("summary test");
  b->workload_type = g_strdup ("online-inference");
  b->model_shape = g_strdup ("example/model");
  b->input_tokens = 1000;
  b->output_tokens = 250;
  b->success_unit = g_strdup ("accepted response");
  b->slo_metric = g_strdup ("ttft");
  b->slo_percentile = 99;
  b->slo_threshold_ms = 500;
  b->duty_cycle = g_strdup ("always-on");
  b->operating_boundary = g_strdup ("cloud");
  b->tooling = g_strdup ("vllm");
  b->demand_average = 20;
  b->demand_peak = 30;
  p->assumptions.acceptance_rate = 0.9;
  p->assumptions.retry_rate = 0.05;
  p->assumptions.failure_rate = 0.01;

  c = procura_candidate_new ();
  c->id = 1;
  c->name = g_strdup ("8xH100");
  c->gpus_per_replica = 8;
  c->tp = 8;
  c->interconnect = g_strdup ("NVLink");
  c->price_per_gpu_hour = 2.5;
  c->price_date = g_date_time_format (now, "%Y-%m-%d");
  c->storage = 300;
  c->network = 200;
  c->observability = 100;
  c->labor_hours = 20;
  c->labor_rate = 100;
  g_ptr_array_add (p->candidates, c);
  for (int i = 0; i < 2; i++)
    {
      ProcuraRun *r = procura_run_new ();
      r->id = i + 1;
      r->candidate_id = 1;
      r->label = g_strdup (i == 0 ? "rate 20" : "rate 60");
      r->request_throughput = i == 0 ? 20 : 60;
      procura_run_add_stat (r, "ttft", "p99", i == 0 ? 200 : 800, PROCURA_SOURCE_AS_REPORTED, -1);
      g_ptr_array_add (p->runs, r);
    }

  store = procura_store_create (path, "summary test", &error);
  g_assert_no_error (error);
  g_assert_true (procura_store_save_project (store, p, &error));
  g_assert_no_error (error);
  procura_store_close (store);
  return path;
}

static void
test_json (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = make_project (dir);
  const char *argv[] = { "summary", path, "--json", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *c, *cap, *cost;

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  c = json_array_get_object_element (json_object_get_array_member (root, "candidates"), 0);
  g_assert_cmpstr (json_object_get_string_member (c, "name"), ==, "8xH100");
  cap = json_object_get_object_member (c, "capacity");
  g_assert_cmpstr (json_object_get_string_member (cap, "status"), ==, "ok");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (cap, "rps"), 40, 1e-9);
  cost = json_object_get_object_member (c, "cost");
  g_assert_cmpint (json_object_get_int_member (cost, "replicas"), ==, 1);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (cost, "all_in_cost"), 17200, 0.005);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (cost, "cost_per_accepted"),
                                  17200.0 / 46830960.0, 1e-15);
  g_assert_cmpint (json_object_get_int_member (c, "rank"), ==, 1);
  g_assert_false (json_object_get_boolean_member (json_object_get_object_member (root, "ranking"), "withheld"));
  /* u = 0.525 < 0.6: rent */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "recommendation"),
                                                  "choice"), ==, "rent");
  procura_test_rmtree (dir);
}

static void
test_overrides_and_text (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = make_project (dir);
  g_autofree char *out = NULL, *err = NULL;

  /* 800 ms is the 60 req/s point: 1 replica for 30 x 1.05 */
  {
    const char *argv[] = { "summary", path, "--threshold-ms", "800", "--json", NULL };
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *c;

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
    g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
    c = json_array_get_object_element (json_object_get_array_member (
          json_node_get_object (json_parser_get_root (parser)), "candidates"), 0);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_object_get_object_member (c, "capacity"),
                                                                   "rps"), 60, 1e-9);
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  {
    const char *argv[] = { "summary", path, NULL };
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
    g_assert_nonnull (strstr (out, "8xH100"));
    /* money as everywhere else: the currency and thousands grouped (procura-units.h) */
    g_assert_nonnull (strstr (out, "$17,200.00"));
    g_assert_nonnull (strstr (out, "Recommendation: rent"));
  }
  procura_test_rmtree (dir);
}

static void
test_errors (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *missing = g_build_filename (dir, "none.procura", NULL);
  g_autofree char *garbage = g_build_filename (dir, "garbage.procura", NULL);

  g_assert_true (g_file_set_contents (garbage, "not a database", -1, NULL));
  {
    const char *argv[] = { "summary", missing, "--json", NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, "none.procura"));
  }
  {
    const char *argv[] = { "summary", garbage, NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 1);
  }
  {
    const char *argv[] = { "summary", NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 2);
  }
  {
    const char *argv[] = { "summary", garbage, "--metric", "speed", NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "--metric"));
  }
  procura_test_rmtree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/cli-summary/json", test_json);
  g_test_add_func ("/analysis/cli-summary/overrides-text", test_overrides_and_text);
  g_test_add_func ("/analysis/cli-summary/errors", test_errors);
  return g_test_run ();
}
