/* test-cli-cost.c: `procura cost INPUTS.json --json` run as a program
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "procura-test-util.h"

static const char *section8 =
  "{\"window_hours\": 730,\n"
  " \"demand\": {\"average\": 20, \"peak\": 30},\n"
  " \"retry_rate\": 0.05, \"failure_rate\": 0.01, \"acceptance_rate\": 0.9, \"headroom\": 1.0,\n"
  " \"candidates\": [\n"
  "   {\"name\": \"8xH100\", \"kind\": \"gpu\", \"price_per_gpu_hour\": 2.5, \"gpus_per_replica\": 8,\n"
  "    \"capacity_at_slo\": 40, \"provisioning\": \"always-on\",\n"
  "    \"storage\": 300, \"network\": 200, \"serving_stack\": 0, \"observability\": 100,\n"
  "    \"labor_hours\": 20, \"labor_rate\": 100},\n"
  "   {\"name\": \"hosted API\", \"kind\": \"api\", \"input_tokens\": 1000, \"cached_input_tokens\": 0,\n"
  "    \"output_tokens\": 250, \"price_input_per_mtok\": 0.5, \"price_cached_per_mtok\": 0,\n"
  "    \"price_output_per_mtok\": 1.5, \"gateway\": 0}]}";

static char *
write_input (const char *dir,
             const char *name,
             const char *text)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static void
test_worked_example (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = write_input (dir, "inputs.json", section8);
  const char *argv[] = { "cost", path, "--json", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *cands;
  JsonObject *gpu, *api, *lines;

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  cands = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "candidates");
  g_assert_cmpuint (json_array_get_length (cands), ==, 2);

  gpu = json_array_get_object_element (cands, 0);
  g_assert_cmpstr (json_object_get_string_member (gpu, "name"), ==, "8xH100");
  g_assert_cmpint (json_object_get_int_member (gpu, "replicas"), ==, 1);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (gpu, "utilization"), 0.525, 1e-12);
  lines = json_object_get_object_member (gpu, "lines");
  /* COST-MODEL.md §7, to the cent */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (lines, "idle_capacity"), 6935, 0.005);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (lines, "retry_waste"), 438, 0.005);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (lines, "gpu_compute"), 7227, 0.005);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (lines, "storage"), 300, 0.005);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (lines, "network"), 200, 0.005);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (lines, "serving_stack"), 0, 0.005);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (lines, "observability"), 100, 0.005);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (lines, "platform_labor"), 2000, 0.005);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (gpu, "all_in_cost"), 17200, 0.005);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (gpu, "accepted_outputs"), 46830960, 1e-6);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (gpu, "cost_per_accepted"),
                                  17200.0 / 46830960.0, 1e-15);

  api = json_array_get_object_element (cands, 1);
  g_assert_cmpstr (json_object_get_string_member (api, "kind"), ==, "api");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (api, "cost_per_accepted"),
                                  0.000875 * 1.05 / 0.9, 1e-15);

  procura_test_rmtree (dir);
}

static void
test_text_output (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = write_input (dir, "inputs.json", section8);
  const char *argv[] = { "cost", path, NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "17200.00"));
  g_assert_nonnull (strstr (out, "6935.00"));
  procura_test_rmtree (dir);
}

/* issue 16: no "nan" in the text output; a run's accepted count is its success
 * probability, not a rounded 1; the quote terms are lines of their own */
static void
test_text_runs_and_terms (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = write_input (dir, "inputs.json",
    "{\"candidates\": [\n"
    "  {\"name\": \"pretrain\", \"kind\": \"run\", \"gpus\": 64, \"price_per_gpu_hour\": 2,\n"
    "   \"wall_clock_hours\": 100, \"success_probability\": 0.8}]}");
  g_autofree char *path2 = write_input (dir, "terms.json",
    "{\"demand\": {\"average\": 20, \"peak\": 30}, \"candidates\": [\n"
    "  {\"name\": \"8xH100\", \"kind\": \"gpu\", \"price_per_gpu_hour\": 2.5, \"gpus_per_replica\": 8,\n"
    "   \"capacity_at_slo\": 40, \"support_pct\": 10, \"setup_fee\": 1000, \"min_commitment\": 20000,\n"
    "   \"storage_gb\": 100, \"storage_per_gb_month\": 0.1, \"egress_gb\": 10, \"egress_per_gb\": 0.5}]}");
  const char *argv[] = { "cost", path, NULL };
  const char *argv2[] = { "cost", path2, NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  g_assert_null (strstr (out, "nan"));
  /* 64 x 2 x 100 = 12,800 per run, 0.8 of runs complete: 16,000 per completed run */
  g_assert_nonnull (strstr (out, "12800.00"));
  g_assert_nonnull (strstr (out, "completed runs per run started 0.8"));
  g_assert_nonnull (strstr (out, "cost per completed run 16000"));

  /* G = 14,600; the floor 20,000: 5,400 short; storage 10, egress 5; support 10 % of
   * 20,015 = 2001.50; setup fee 1000 in this window */
  g_assert_cmpint (procura_test_run_cli (argv2, &out2, &err2), ==, 0);
  g_assert_null (strstr (out2, "nan"));
  g_assert_nonnull (strstr (out2, "commitment_shortfall"));
  g_assert_nonnull (strstr (out2, "5400.00"));
  g_assert_nonnull (strstr (out2, "2001.50"));
  g_assert_nonnull (strstr (out2, "setup_fee"));
  g_assert_nonnull (strstr (out2, "1000.00"));
  procura_test_rmtree (dir);
}

static void
test_errors (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  struct {
    const char *json;
    const char *stderr_part;
  } cases[] = {
    { "{\"demand\": {\"average\": 1}, \"candidates\": [{\"name\": \"a\", \"kind\": \"gpu\", "
      "\"price_per_gpu_hour\": 1, \"gpus_per_replica\": 1, \"capacity_at_slo\": 0}]}",
      "bad.json: candidates[0].capacity_at_slo: must be > 0" },
    { "{\"demand\": {\"average\": 1}, \"candidates\": [{\"name\": \"a\", \"kind\": \"gpu\", "
      "\"gpus_per_replica\": 1, \"capacity_at_slo\": 2}]}",
      "bad.json: candidates[0].price_per_gpu_hour: missing" },
    { "{\"demand\": {\"average\": 1}, \"acceptance_rate\": 1.5, \"candidates\": [{\"name\": \"a\", "
      "\"kind\": \"gpu\", \"price_per_gpu_hour\": 1, \"gpus_per_replica\": 1, \"capacity_at_slo\": 2}]}",
      "bad.json: acceptance_rate: must be between 0 and 1" },
    { "{\"demand\": {\"average\": 1}, \"candidates\": [{\"name\": \"a\", \"kind\": \"gpu\", "
      "\"price_per_gpu_hour\": -1, \"gpus_per_replica\": 1, \"capacity_at_slo\": 2}]}",
      "bad.json: candidates[0].price_per_gpu_hour: must be a number >= 0" },
    { "{\"demand\": ", "bad.json" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = write_input (dir, "bad.json", cases[i].json);
      const char *argv[] = { "cost", path, "--json", NULL };
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 1);
      if (strstr (err, cases[i].stderr_part) == NULL)
        g_error ("expected “%s” in stderr, got: %s", cases[i].stderr_part, err);
      g_assert_cmpstr (out, ==, "");
    }

  /* usage errors */
  {
    const char *argv[] = { "cost", NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 2);
  }
  {
    g_autofree char *missing = g_build_filename (dir, "nope.json", NULL);
    const char *argv[] = { "cost", missing, NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 1);
  }
  procura_test_rmtree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/cli-cost/worked-example", test_worked_example);
  g_test_add_func ("/analysis/cli-cost/text", test_text_output);
  g_test_add_func ("/analysis/cli-cost/errors", test_errors);
  g_test_add_func ("/analysis/cli-cost/text-runs-and-terms", test_text_runs_and_terms);
  return g_test_run ();
}
