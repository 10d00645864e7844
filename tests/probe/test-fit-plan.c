/* test-fit-plan.c: `procura fit --plan` writes the calculator's plan, and the probe runs it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 17: the plan handed to the probe is exactly the calculator's allocation plan for
 * the candidate (the figures the analysis computes, calculated only), and the probe,
 * against the fake driver, accepts and allocates it.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "procura-analysis.h"
#include "procura-demo.h"
#include "procura-probe-import.h"
#include "procura-store.h"
#include "procura-test-util.h"

static char *tmp;

/* The first GPU candidate of the demo and its calculated fit. */
static const ProcuraCandidate *
demo_fit (ProcuraProject    *p,
          ProcuraFitResult  *res,
          char             **plan_name)
{
  const ProcuraCandidate *c = NULL;
  ProcuraAnalysisFitSetup setup;
  g_autofree char *reason = NULL;

  for (guint i = 0; i < p->candidates->len && c == NULL; i++)
    if (((ProcuraCandidate *) p->candidates->pdata[i])->kind == PROCURA_CANDIDATE_GPU)
      c = p->candidates->pdata[i];
  g_assert_nonnull (c);
  g_assert_true (procura_analysis_fit_setup (p, c, FALSE, &setup, &reason));
  g_assert_true (procura_fit_compute (&setup.request, res, NULL));
  *plan_name = g_strdup_printf ("%s: %s", c->name, setup.request.model->id);
  procura_analysis_fit_setup_clear (&setup);
  return c;
}

static void
test_plan_is_the_calculators (void)
{
  g_autofree char *project = g_build_filename (tmp, "demo.procura", NULL);
  g_autofree char *plan_path = g_build_filename (tmp, "plan.json", NULL);
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) p = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *expected = NULL, *written = NULL, *name = NULL;
  g_autofree char *out = NULL, *err = NULL;
  ProcuraFitResult res;
  const ProcuraCandidate *c;
  JsonObject *gpu0;
  JsonArray *gpus, *allocs;
  double weights = 0, kv = 0, activation = 0, other = 0;

  g_assert_true (procura_demo_write (project, NULL));
  store = procura_store_open (project, PROCURA_STORE_OPEN_READ_ONLY, NULL);
  g_assert_nonnull (store);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, NULL);
  g_assert_nonnull (p);
  c = demo_fit (p, &res, &name);

  {
    const char *argv[] = { "fit", "--project", project, "--candidate", c->name, "--plan", plan_path, NULL };

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  }
  g_assert_nonnull (strstr (out, "Probe plan written to"));
  g_assert_true (g_file_get_contents (plan_path, &written, NULL, NULL));
  /* byte for byte the plan of the calculator's figures */
  expected = procura_probe_plan_from_fit (&res, name);
  g_assert_cmpstr (written, ==, expected);

  /* and those figures, per GPU: one entry per GPU of the replica, the weights, the KV the
   * target needs, the activation peak and the other allocations as calculated */
  g_assert_true (json_parser_load_from_data (parser, written, -1, NULL));
  gpus = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "gpus");
  g_assert_cmpuint (json_array_get_length (gpus), ==, (guint) res.gpus);
  gpu0 = json_array_get_object_element (gpus, 0);
  allocs = json_object_get_array_member (gpu0, "allocations");
  for (guint i = 0; i < json_array_get_length (allocs); i++)
    {
      JsonObject *a = json_array_get_object_element (allocs, i);
      const char *kind = json_object_get_string_member (a, "kind");
      double bytes = (double) json_object_get_int_member (a, "bytes")
                     * (json_object_has_member (a, "count") ? json_object_get_int_member (a, "count") : 1);

      if (g_str_equal (kind, "weights"))
        weights += bytes;
      else if (g_str_equal (kind, "kv"))
        kv += bytes;
      else if (g_str_equal (kind, "activation"))
        activation += bytes;
      else
        other += bytes;
    }
  /* each allocation is rounded up to a whole byte: at most one byte per tensor */
  g_assert_cmpfloat (fabs (weights - res.weights_bytes), <=, 200);
  g_assert_cmpfloat (fabs (kv - res.kv_needed_bytes), <=, 200);
  g_assert_cmpfloat (fabs (activation - res.activation_bytes), <=, 1);
  g_assert_cmpfloat (fabs (other - res.non_torch_bytes - res.cuda_graph_bytes), <=, 2);

  /* the probe, on as many fake GPUs as the plan has, accepts and allocates it */
  {
    const char *argv[] = { "probe", "--plan", plan_path, "--json", NULL };
    g_autofree char *devices = g_strdup_printf ("%d", res.gpus);
    g_autofree char *pout = NULL, *perr = NULL;

    g_setenv ("PROCURA_PROBE_LIBCUDA", g_getenv ("PROCURA_TEST_FAKE_CUDA"), TRUE);
    g_setenv ("PROCURA_PROBE_LIBNVML", g_getenv ("PROCURA_TEST_FAKE_NVML"), TRUE);
    g_setenv ("FAKE_CUDA_DEVICES", devices, TRUE);
    g_setenv ("FAKE_CUDA_MEMORY_MIB", "81559", TRUE);
    g_assert_cmpint (procura_test_run_cli (argv, &pout, &perr), ==, 0);
    g_assert_nonnull (strstr (pout, "\"test\":\"fit\""));
    g_assert_nonnull (strstr (pout, "\"fits\":true"));
    g_assert_null (strstr (pout, "bad-plan"));
  }
}

static void
test_usage (void)
{
  const char *argv[] = { "fit", "--project", "x.procura", NULL };
  const char *argv2[] = { "fit", "--project", "x.procura", "--candidate", "a", "--model", "m", NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--candidate"));
  g_assert_cmpint (procura_test_run_cli (argv2, &out2, &err2), ==, 2);
  g_assert_nonnull (strstr (err2, "--model"));
  {
    const char *argv3[] = { "fit", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--gpu", "h100",
                            "--train", "lora", "--plan", "x.json", NULL };
    g_autofree char *out3 = NULL, *err3 = NULL;

    g_assert_cmpint (procura_test_run_cli (argv3, &out3, &err3), ==, 2);
    g_assert_nonnull (strstr (err3, "--train"));
    g_assert_false (g_file_test ("x.json", G_FILE_TEST_EXISTS));
  }
}

static void
test_unknown_candidate (void)
{
  g_autofree char *project = g_build_filename (tmp, "demo2.procura", NULL);
  const char *argv[] = { "fit", "--project", project, "--candidate", "no such", "--plan", "x.json", NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_true (procura_demo_write (project, NULL));
  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), !=, 0);
  g_assert_nonnull (strstr (err, "no such"));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = procura_test_mkdtemp ();
  g_test_add_func ("/fit-plan/calculators-plan", test_plan_is_the_calculators);
  g_test_add_func ("/fit-plan/usage", test_usage);
  g_test_add_func ("/fit-plan/unknown-candidate", test_unknown_candidate);
  status = g_test_run ();
  procura_test_rmtree (tmp);
  g_free (tmp);
  return status;
}
