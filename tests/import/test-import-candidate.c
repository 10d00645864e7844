/* test-import-candidate.c: `import --candidate NAME` takes the deployment the file
 * states (GPU, GPUs per replica, TP, PP, DP), and an existing candidate that says
 * otherwise gets warnings naming both values. Own small files per format, then the
 * real files (each figure read here independently of the importers).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "procura-gpu-catalog.h"
#include "procura-import.h"
#include "procura-store.h"
#include "procura-test-util.h"

static GPtrArray *
import_paths (const char * const *paths)
{
  GPtrArray *results = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_import_result_free);

  for (gsize i = 0; paths[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      ProcuraImportResult *r = procura_import_file (paths[i], NULL, NULL, &error);

      g_assert_no_error (error);
      g_ptr_array_add (results, r);
    }
  return results;
}

static GPtrArray *
import_own (const char *file)
{
  g_autofree char *rel = g_build_filename ("import", file, NULL);
  g_autofree char *path = procura_test_fixture (rel);
  const char *paths[] = { path, NULL };

  return import_paths (paths);
}

static gboolean
has_warning (GPtrArray  *warnings,
             const char *needle)
{
  for (guint i = 0; warnings != NULL && i < warnings->len; i++)
    if (strstr (g_ptr_array_index (warnings, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

/* The catalog id a file's GPU name stands for (the name itself when not in the catalog) */
static const char *
gpu_id (const char *name)
{
  const ProcuraGpuSpec *spec = procura_gpu_catalog_lookup (name);
  return spec != NULL ? spec->id : name;
}

/* vLLM bench serve with --metadata: TP 16 and DP 4 are 64 GPUs per measured replica */
static void
test_vllm_metadata (void)
{
  g_autoptr (GPtrArray) results = import_own ("vllm-serve-tp16-dp4.json");
  g_autoptr (ProcuraCandidate) c = procura_import_candidate_new ("R1", results);

  g_assert_cmpstr (c->name, ==, "R1");
  g_assert_cmpint (c->kind, ==, PROCURA_CANDIDATE_GPU);
  g_assert_nonnull (procura_gpu_catalog_lookup ("NVIDIA H200"));
  g_assert_cmpstr (c->gpu_name, ==, gpu_id ("NVIDIA H200"));
  g_assert_cmpint (c->tp, ==, 16);
  g_assert_cmpint (c->pp, ==, 1);
  g_assert_cmpint (c->gpus_per_replica, ==, 16 * 4);
  g_assert_cmpstr (c->engine, ==, "vllm");
  g_assert_nonnull (strstr (c->notes, "DP 4"));
  /* the candidate built from the file agrees with it */
  g_assert_cmpuint (procura_import_check_candidate (c, results), ==, 0);
}

/* SGLang bench_serving: server_info's tp_size, pp_size, dp_size */
static void
test_sglang_server_info (void)
{
  g_autoptr (GPtrArray) results = import_own ("sglang-server-info-tp2-dp2.jsonl");
  g_autoptr (ProcuraCandidate) c = procura_import_candidate_new ("q", results);

  g_assert_cmpint (c->tp, ==, 2);
  g_assert_cmpint (c->pp, ==, 1);
  g_assert_cmpint (c->gpus_per_replica, ==, 4);
  g_assert_cmpstr (c->engine, ==, "sglang");
  g_assert_null (c->gpu_name);   /* the file does not say */
}

/* A vLLM engine log: the startup arguments' TP and PP */
static void
test_engine_log (void)
{
  g_autoptr (GPtrArray) results = import_own ("vllm-tp4-pp2.log");
  g_autoptr (ProcuraCandidate) c = procura_import_candidate_new ("l", results);
  g_autoptr (ProcuraCandidate) other = procura_candidate_new ();
  ProcuraImportResult *r = g_ptr_array_index (results, 0);

  g_assert_cmpuint (r->engine_logs->len, ==, 1);
  g_assert_cmpint (c->tp, ==, 4);
  g_assert_cmpint (c->pp, ==, 2);
  g_assert_cmpint (c->gpus_per_replica, ==, 8);
  g_assert_cmpuint (procura_import_check_candidate (c, results), ==, 0);

  /* an existing 8-GPU TP 8 candidate: TP and PP differ, the GPU count agrees */
  other->name = g_strdup ("8x");
  other->tp = 8;
  other->gpus_per_replica = 8;
  g_assert_cmpuint (procura_import_check_candidate (other, results), ==, 2);
  g_assert_true (has_warning (r->warnings, "vllm-tp4-pp2.log (engine start 1) states TP 4, candidate “8x” has TP 8"));
  g_assert_true (has_warning (r->warnings, "states PP 2, candidate “8x” has PP 1"));
  g_assert_false (has_warning (r->warnings, "GPU(s) per replica"));
}

/* Files that state nothing about the deployment leave the defaults, and say nothing */
static void
test_nothing_stated (void)
{
  static const char * const files[] = { "guidellm-benchmarks.yaml", "sglang-2024-no-request-throughput.jsonl" };

  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr (GPtrArray) results = import_own (files[i]);
      g_autoptr (ProcuraCandidate) c = procura_import_candidate_new ("x", results);
      ProcuraImportResult *r = g_ptr_array_index (results, 0);

      g_assert_cmpint (c->tp, ==, 1);
      g_assert_cmpint (c->pp, ==, 1);
      g_assert_cmpint (c->gpus_per_replica, ==, 1);
      g_assert_null (c->notes);
      g_assert_false (has_warning (r->warnings, "state different"));
    }
}

/* AIPerf: the GPU name of its telemetry table, no count (DCGM sees the whole node) */
static void
test_aiperf_telemetry (void)
{
  g_autoptr (GPtrArray) results = import_own ("aiperf-telemetry.csv");
  g_autoptr (ProcuraCandidate) c = procura_import_candidate_new ("a", results);
  ProcuraRun *run = g_ptr_array_index (((ProcuraImportResult *) g_ptr_array_index (results, 0))->runs, 0);

  g_assert_nonnull (run->scenario.gpu_name);
  g_assert_cmpstr (c->gpu_name, ==, gpu_id (run->scenario.gpu_name));
  g_assert_cmpint (c->gpus_per_replica, ==, 1);
}

/* An existing candidate that differs: a warning on each run naming both values */
static void
test_existing_disagrees (void)
{
  g_autoptr (GPtrArray) results = import_own ("vllm-serve-tp16-dp4.json");
  g_autoptr (ProcuraCandidate) c = procura_candidate_new ();
  ProcuraImportResult *r = g_ptr_array_index (results, 0);
  ProcuraRun *run = g_ptr_array_index (r->runs, 0);

  c->name = g_strdup ("A100 box");
  c->gpu_name = g_strdup ("a100-sxm-80gb");
  g_assert_nonnull (procura_gpu_catalog_get ("a100-sxm-80gb"));
  g_assert_cmpuint (procura_import_check_candidate (c, results), ==, 3);
  g_assert_true (has_warning (run->warnings, "vllm-serve-tp16-dp4.json states the GPU “NVIDIA H200”, candidate “A100 box” has “a100-sxm-80gb”"));
  g_assert_true (has_warning (run->warnings, "states TP 16, candidate “A100 box” has TP 1"));
  g_assert_true (has_warning (run->warnings, "TP 16 × PP 1 × DP 4 = 64 GPU(s), candidate “A100 box” has 1 GPU(s) per replica"));

  /* the same GPU spelt another way is no disagreement */
  g_ptr_array_set_size (run->warnings, 0);
  g_free (c->gpu_name);
  c->gpu_name = g_strdup ("H200 SXM");
  c->tp = 16;
  c->gpus_per_replica = 64;
  g_assert_true (procura_gpu_catalog_lookup ("H200 SXM") == procura_gpu_catalog_lookup ("NVIDIA H200"));
  g_assert_cmpuint (procura_import_check_candidate (c, results), ==, 0);
  g_assert_cmpuint (run->warnings->len, ==, 0);
}

/* Runs of several deployments: the new candidate keeps the defaults and says so */
static void
test_runs_disagree (void)
{
  g_autofree char *a = procura_test_fixture ("import/vllm-serve-tp16-dp4.json");
  g_autofree char *b = procura_test_fixture ("import/sglang-server-info-tp2-dp2.jsonl");
  const char *paths[] = { a, b, NULL };
  g_autoptr (GPtrArray) results = import_paths (paths);
  g_autoptr (ProcuraCandidate) c = procura_import_candidate_new ("mixed", results);
  ProcuraImportResult *r = g_ptr_array_index (results, 0);

  g_assert_cmpint (c->tp, ==, 1);
  g_assert_cmpint (c->gpus_per_replica, ==, 1);
  g_assert_null (c->engine);
  g_assert_true (has_warning (r->warnings, "state different TP (16, 2…)"));
  g_assert_true (has_warning (r->warnings, "state different GPU counts (64, 4…)"));
  /* the H200 is the only GPU stated: it is kept */
  g_assert_cmpstr (c->gpu_name, ==, gpu_id ("NVIDIA H200"));
}

/* Real files: each figure read here from the file itself */
static void
test_real_inferencex (void)
{
  g_autofree char *path = procura_test_real_fixture ("public-datasets/inferencex/SemiAnalysisAI__inferencex-agg-kimik2.5-1k1k-int4-vllm-mi355x-tp8-conc4.json");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GPtrArray) results = NULL;
  g_autoptr (ProcuraCandidate) c = NULL;
  JsonObject *o;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  {
    const char *paths[] = { path, NULL };
    results = import_paths (paths);
  }
  c = procura_import_candidate_new ("mi355x", results);
  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (c->tp, ==, json_object_get_int_member (o, "tp"));
  g_assert_cmpint (c->gpus_per_replica, ==, json_object_get_int_member (o, "tp"));
  g_assert_cmpstr (c->gpu_name, ==, gpu_id (json_object_get_string_member (o, "hw")));
}

static void
test_real_llmd (void)
{
  g_autofree char *path = procura_test_real_fixture ("public-datasets/llm-d/llm-d__benchmark-report-v0.2-example-dummy.yaml");
  g_autoptr (GPtrArray) results = NULL;
  g_autoptr (ProcuraCandidate) c = NULL;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  {
    const char *paths[] = { path, NULL };
    results = import_paths (paths);
  }
  c = procura_import_candidate_new ("llm-d", results);
  /* the report: replicas: 2, accelerator.count: 8, parallelism.tp: 8, NVIDIA-H100-80GB-HBM3 */
  g_assert_cmpint (c->tp, ==, 8);
  g_assert_cmpint (c->gpus_per_replica, ==, 16);
  g_assert_cmpstr (c->gpu_name, ==, gpu_id ("NVIDIA-H100-80GB-HBM3"));
}

/* vLLM server logs whose names give the deployment (…--tp2pp1dp1--…) */
static void
test_real_vllm_logs (void)
{
  static const char * const logs[] = {
    "vllm-server-logs/llmdplanner__mistralai-mixtral-8x7b-i--h100-80gb--tp2pp1dp1--8192.log",
    "vllm-server-logs/llmdplanner__meta-llama-llama-3-1-8b---h100-80gb--tp1pp1dp1--8192.log",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (logs); i++)
    {
      g_autofree char *path = procura_test_real_fixture (logs[i]);
      g_autoptr (GPtrArray) results = NULL;
      g_autoptr (ProcuraCandidate) c = NULL;
      const char *tp;

      if (path == NULL)
        {
          g_test_skip (procura_test_real_fixtures_missing ());
          return;
        }
      {
        const char *paths[] = { path, NULL };
        results = import_paths (paths);
      }
      c = procura_import_candidate_new ("log", results);
      tp = strstr (logs[i], "--tp");
      g_assert_nonnull (tp);
      g_assert_cmpint (c->tp, ==, tp[4] - '0');
      g_assert_cmpint (c->pp, ==, tp[7] - '0');
      g_assert_cmpint (c->gpus_per_replica, ==, (tp[4] - '0') * (tp[7] - '0'));
    }
}

static void
test_real_sglang (void)
{
  g_autofree char *path = procura_test_real_fixture ("sglang-bench-serving/tonyli__agg_local.jsonl");
  g_autofree char *text = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GPtrArray) results = NULL;
  g_autoptr (ProcuraCandidate) c = NULL;
  g_auto (GStrv) lines = NULL;
  JsonObject *si;
  gint64 tp, dp;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  {
    const char *paths[] = { path, NULL };
    results = import_paths (paths);
  }
  c = procura_import_candidate_new ("sgl", results);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", 2);
  {
    /* Python's bare Infinity (the request rate) is no JSON for json-glib */
    g_auto (GStrv) parts = g_strsplit (lines[0], "Infinity", -1);
    g_autofree char *line = g_strjoinv ("null", parts);
    g_assert_true (json_parser_load_from_data (parser, line, -1, NULL));
  }
  si = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "server_info");
  tp = json_object_get_int_member (si, "tp_size");
  dp = json_object_get_int_member_with_default (si, "dp_size", 1);
  g_assert_cmpint (c->tp, ==, tp);
  g_assert_cmpint (c->gpus_per_replica, ==, tp * MAX (dp, 1) * MAX (json_object_get_int_member_with_default (si, "pp_size", 1), 1));
  g_assert_cmpstr (c->engine, ==, "sglang");
  /* stated (if only TP 1): the candidate says where its figures came from */
  g_assert_nonnull (c->notes);
  g_assert_nonnull (strstr (c->notes, "TP 1"));
}

/* A results round of MLPerf: many systems, so no one deployment */
static void
test_real_mlperf (void)
{
  g_autofree char *path = procura_test_real_fixture ("public-datasets/mlperf/mlcommons__inference-results-v4.1-summary_results.json");
  g_autoptr (GPtrArray) results = NULL;
  g_autoptr (ProcuraCandidate) c = NULL;
  ProcuraImportResult *r;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  {
    const char *paths[] = { path, NULL };
    results = import_paths (paths);
  }
  r = g_ptr_array_index (results, 0);
  c = procura_import_candidate_new ("round", results);
  g_assert_null (c->gpu_name);
  g_assert_cmpint (c->gpus_per_replica, ==, 1);
  g_assert_true (has_warning (r->warnings, "state different GPUs"));
  g_assert_true (has_warning (r->warnings, "state different GPU counts"));
}

/* The CLI: a new candidate from the file; an existing one warned about, in the output,
 * in the stored run's warnings and in inspect --json */
static void
test_cli (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *project = g_build_filename (dir, "p.procura", NULL);
  g_autofree char *vllm = procura_test_fixture ("import/vllm-serve-tp16-dp4.json");
  g_autofree char *sgl = procura_test_fixture ("import/sglang-server-info-tp2-dp2.jsonl");
  g_autoptr (GError) error = NULL;
  int status;

  {
    g_autoptr (ProcuraStore) store = procura_store_create (project, "t", &error);
    g_assert_no_error (error);
    g_assert_nonnull (store);
  }
  {
    const char *argv[] = { "import", project, vllm, "--candidate", "R1 box", NULL };
    g_autofree char *out = NULL, *err = NULL;

    status = procura_test_run_cli (argv, &out, &err);
    g_assert_cmpint (status, ==, 0);
    g_assert_null (strstr (err, "candidate “R1 box” has"));
  }
  {
    const char *argv[] = { "import", project, sgl, "--candidate", "R1 box", NULL };
    g_autofree char *out = NULL, *err = NULL;

    status = procura_test_run_cli (argv, &out, &err);
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (err, "states TP 2, candidate “R1 box” has TP 16"));
  }
  {
    g_autoptr (ProcuraStore) store = procura_store_open (project, PROCURA_STORE_OPEN_DEFAULT, &error);
    g_autoptr (GPtrArray) cands = procura_store_list_candidates (store, &error);
    g_autoptr (GPtrArray) runs = procura_store_list_runs (store, PROCURA_STORE_LOAD_DEFAULT, &error);
    const ProcuraCandidate *c;
    guint warned = 0;

    g_assert_no_error (error);
    g_assert_cmpuint (cands->len, ==, 1);
    c = g_ptr_array_index (cands, 0);
    g_assert_cmpstr (c->gpu_name, ==, gpu_id ("NVIDIA H200"));
    g_assert_cmpint (c->gpus_per_replica, ==, 64);
    g_assert_cmpint (c->tp, ==, 16);
    g_assert_cmpstr (c->engine, ==, "vllm");
    g_assert_cmpuint (runs->len, ==, 2);
    for (guint i = 0; i < runs->len; i++)
      {
        ProcuraRun *run = g_ptr_array_index (runs, i);
        g_assert_cmpint (run->candidate_id, ==, c->id);
        if (has_warning (run->warnings, "states TP 2, candidate “R1 box” has TP 16"))
          warned++;
      }
    g_assert_cmpuint (warned, ==, 1);
  }
  {
    const char *argv[] = { "inspect", sgl, "--project", project, "--candidate", "R1 box", "--json", NULL };
    g_autofree char *out = NULL, *err = NULL;

    status = procura_test_run_cli (argv, &out, &err);
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (out, "states TP 2, candidate “R1 box” has TP 16"));
    g_assert_null (strstr (out, "\"new_candidate\""));
  }
  {
    const char *argv[] = { "inspect", sgl, "--project", project, "--candidate", "new one", "--json", NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *nc;

    status = procura_test_run_cli (argv, &out, &err);
    g_assert_cmpint (status, ==, 0);
    g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
    nc = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "new_candidate");
    g_assert_nonnull (nc);
    g_assert_cmpint (json_object_get_int_member (nc, "tp"), ==, 2);
    g_assert_cmpint (json_object_get_int_member (nc, "gpus_per_replica"), ==, 4);
  }
  {
    const char *argv[] = { "inspect", sgl, "--candidate", "x", NULL };
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), !=, 0);
  }
  procura_test_rmtree (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/import/candidate/vllm-metadata", test_vllm_metadata);
  g_test_add_func ("/import/candidate/sglang-server-info", test_sglang_server_info);
  g_test_add_func ("/import/candidate/engine-log", test_engine_log);
  g_test_add_func ("/import/candidate/nothing-stated", test_nothing_stated);
  g_test_add_func ("/import/candidate/aiperf-telemetry", test_aiperf_telemetry);
  g_test_add_func ("/import/candidate/existing-disagrees", test_existing_disagrees);
  g_test_add_func ("/import/candidate/runs-disagree", test_runs_disagree);
  g_test_add_func ("/import/candidate/real-inferencex", test_real_inferencex);
  g_test_add_func ("/import/candidate/real-llmd", test_real_llmd);
  g_test_add_func ("/import/candidate/real-vllm-logs", test_real_vllm_logs);
  g_test_add_func ("/import/candidate/real-sglang", test_real_sglang);
  g_test_add_func ("/import/candidate/real-mlperf", test_real_mlperf);
  g_test_add_func ("/import/candidate/cli", test_cli);
  return g_test_run ();
}
