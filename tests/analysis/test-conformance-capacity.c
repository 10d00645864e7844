/* test-conformance-capacity.c: capacity at the target on real sweeps (docs/capacity.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * 1. The SGLang rate sweep of vllm-bench-serve/nerdalert__results_append.jsonl
 *    (benchmark_serving.py --append-result, the runs with "framework": "sgl"): its
 *    lightest point (1 req/s) misses p99 TTFT <= 500 ms (629 ms, a warm-up outlier),
 *    10 and 20 req/s meet it, 30 req/s misses; the unlimited-rate run completed 1015 of
 *    2000 prompts. The capacity is read between 20 and 30 req/s:
 *      19.2425 + (500 - 244.675) / (1875.369 - 244.675) x (27.0768 - 19.2425) = 20.469 req/s
 *    (by hand from the file's figures), with a warning naming the 1 req/s and the
 *    20 req/s points, and the unlimited-rate run excluded with a warning.
 * 2. vllm-bench-serve/er0080__bench_serve_all_requests_failed_v0.25.1.json (every
 *    request failed): excluded, no capacity, no internal error, through the store and
 *    `procura summary --json`.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "procura-analysis.h"
#include "procura-import.h"
#include "procura-store.h"
#include "procura-test-util.h"

#define SGLANG_SWEEP "vllm-bench-serve/nerdalert__results_append.jsonl"
#define ALL_FAILED "vllm-bench-serve/er0080__bench_serve_all_requests_failed_v0.25.1.json"

static ProcuraBrief *
brief_ttft_500 (void)
{
  ProcuraBrief *b = procura_brief_new ();

  b->workload_type = g_strdup ("online-inference");
  b->model_shape = g_strdup ("meta-llama/Llama-3.1-8B-Instruct");
  b->input_tokens = 256;
  b->output_tokens = 100;
  b->success_unit = g_strdup ("accepted response");
  b->slo_metric = g_strdup ("ttft");
  b->slo_percentile = 99;
  b->slo_threshold_ms = 500;
  b->duty_cycle = g_strdup ("always-on");
  b->operating_boundary = g_strdup ("cloud");
  b->tooling = g_strdup ("sglang");
  b->demand_average = 5;
  b->demand_peak = 10;
  return b;
}

static ProcuraCandidate *
gpu (gint64      id,
     const char *name)
{
  ProcuraCandidate *c = procura_candidate_new ();

  c->id = id;
  c->name = g_strdup (name);
  c->kind = PROCURA_CANDIDATE_GPU;
  c->gpus_per_replica = 1;
  c->price_per_gpu_hour = 2.5;
  c->price_date = g_strdup ("2026-11-01");
  return c;
}

static const ProcuraWarning *
find_warning (const ProcuraAnalysis *a,
              const char            *id,
              gint64                 candidate_id)
{
  for (guint i = 0; i < a->warnings->len; i++)
    {
      const ProcuraWarning *w = g_ptr_array_index (a->warnings, i);
      if (g_str_equal (w->id, id) && w->candidate_id == candidate_id)
        return w;
    }
  return NULL;
}

/* The file's own figures for one framework, read with json-glib, by throughput. */
typedef struct {
  double rps, p99, rate;
  gint64 completed, prompts;
} Line;

static int
cmp_line (gconstpointer a,
          gconstpointer b)
{
  double x = ((const Line *) a)->rps, y = ((const Line *) b)->rps;
  return (x > y) - (x < y);
}

static GArray *
read_lines (const char *path,
            const char *framework)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Line));

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *o;
      JsonNode *rate;
      Line l;

      if (g_strstrip (lines[i])[0] == '\0')
        continue;
      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, NULL));
      o = json_node_get_object (json_parser_get_root (parser));
      if (g_strcmp0 (json_object_get_string_member (o, "framework"), framework) != 0)
        continue;
      l.rps = json_object_get_double_member (o, "request_throughput");
      l.p99 = json_object_get_double_member (o, "p99_ttft_ms");
      rate = json_object_get_member (o, "request_rate");
      l.rate = json_node_get_value_type (rate) == G_TYPE_STRING ? INFINITY : json_node_get_double (rate);
      l.completed = json_object_get_int_member (o, "completed");
      l.prompts = json_object_get_int_member (o, "num_prompts");
      g_array_append_val (out, l);
    }
  g_array_sort (out, cmp_line);
  return out;
}

static void
test_sglang_sweep (void)
{
  g_autofree char *path = procura_test_real_fixture (SGLANG_SWEEP);
  g_autoptr(GError) error = NULL;
  g_autoptr(ProcuraImportResult) imported = NULL;
  g_autoptr(ProcuraProject) p = NULL;
  g_autoptr(ProcuraAnalysis) a = NULL;
  g_autoptr(GArray) sgl = NULL;
  const ProcuraCandidateAnalysis *ca;
  const ProcuraCapacity *cap;
  const ProcuraWarning *w;
  const ProcuraSweepPoint *first, *below;
  const Line *l20 = NULL, *l30 = NULL;
  double expected;
  guint n_sgl = 0;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  sgl = read_lines (path, "sgl");
  g_assert_cmpuint (sgl->len, ==, 6);
  for (guint i = 0; i < sgl->len; i++)
    {
      const Line *l = &g_array_index (sgl, Line, i);
      if (l->rate == 20)
        l20 = l;
      if (l->rate == 30)
        l30 = l;
    }
  g_assert_nonnull (l20);
  g_assert_nonnull (l30);
  /* the shape this test is about, in the file itself */
  g_assert_cmpfloat (g_array_index (sgl, Line, 0).p99, >, 500);   /* 1 req/s misses */
  g_assert_cmpfloat (l20->p99, <=, 500);
  g_assert_cmpfloat (l30->p99, >, 500);

  imported = procura_import_file (path, NULL, NULL, &error);
  g_assert_no_error (error);
  p = procura_project_new ();
  procura_brief_free (p->brief);
  p->brief = brief_ttft_500 ();
  p->title = g_strdup ("sglang sweep");
  p->assumptions.acceptance_rate = 1;
  g_ptr_array_add (p->candidates, gpu (1, "SGLang 1x GPU"));
  while (imported->runs->len > 0)
    {
      ProcuraRun *r = g_ptr_array_steal_index (imported->runs, 0);

      /* the importer does not keep the "framework" metadata: pick the SGLang runs by
       * their throughput, which the file gives to full precision */
      for (guint i = 0; i < sgl->len; i++)
        if (r->request_throughput == g_array_index (sgl, Line, i).rps)
          {
            r->candidate_id = 1;
            n_sgl++;
          }
      r->id = p->runs->len + 1;
      g_ptr_array_add (p->runs, r);
    }
  g_assert_cmpuint (n_sgl, ==, 6);

  a = procura_analysis_run (p, NULL);
  ca = procura_analysis_find (a, 1);
  cap = ca->capacity;

  /* by hand: 20.469 req/s; from the file's figures to full precision */
  expected = l20->rps + (500 - l20->p99) / (l30->p99 - l20->p99) * (l30->rps - l20->rps);
  g_assert_cmpfloat_with_epsilon (expected, 20.469, 0.001);
  g_assert_cmpstr (procura_capacity_status_name (cap->status), ==, "ok");
  g_assert_cmpfloat_with_epsilon (cap->capacity_rps, expected, 1e-9 * expected);
  g_assert_cmpfloat_with_epsilon (ca->capacity_at_slo, expected, 1e-9 * expected);
  g_assert_nonnull (ca->cost);
  g_assert_cmpint (ca->rank, ==, 1);

  /* the unlimited-rate run (1015 of 2000) is left out, with a warning that says so */
  g_assert_cmpuint (cap->points->len, ==, 5);
  g_assert_cmpuint (cap->excluded->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (cap->excluded, 0), "1015 of 2000"));
  w = find_warning (a, "run-excluded", 1);
  g_assert_nonnull (w);
  g_assert_nonnull (strstr (w->message, "excluded from the capacity reading"));

  /* the miss at 1 req/s below the meeting point at 20 req/s: a warning naming both */
  first = &g_array_index (cap->points, ProcuraSweepPoint, 0);
  below = &g_array_index (cap->points, ProcuraSweepPoint, cap->below);
  g_assert_cmpint (cap->nm_miss, ==, 0);
  g_assert_cmpint (cap->nm_meet, ==, cap->below);
  g_assert_cmpfloat (below->throughput_rps, ==, l20->rps);
  w = find_warning (a, "non-monotone-sweep", 1);
  g_assert_nonnull (w);
  g_test_message ("%s", w->message);
  g_test_message ("%s", cap->reason);
  g_assert_nonnull (strstr (w->message, first->label));
  g_assert_nonnull (strstr (w->message, below->label));
  g_assert_null (find_warning (a, "misses-target", 1));

  /* as reported (summary only): no interval, and the reason says why */
  g_assert_true (isnan (cap->capacity_lo_rps));
  g_assert_true (isnan (ca->cost_lo));
  g_assert_nonnull (ca->cost_interval_reason);
}

static void
test_all_failed (void)
{
  g_autofree char *path = procura_test_real_fixture (ALL_FAILED);
  g_autofree char *dir = NULL, *project = NULL, *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *cand, *cap;
  JsonArray *excluded;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  dir = procura_test_mkdtemp ();
  project = g_build_filename (dir, "failed.procura", NULL);
  {
    g_autoptr(ProcuraStore) store = procura_store_create (project, "failed", &error);
    g_autoptr(ProcuraImportResult) imported = NULL;
    g_autoptr(ProcuraBrief) brief = brief_ttft_500 ();
    g_autoptr(ProcuraCandidate) c = gpu (0, "failed GPU");
    gint64 id;

    g_assert_no_error (error);
    g_assert_true (procura_store_save_brief (store, brief, &error));
    id = procura_store_add_candidate (store, c, &error);
    g_assert_no_error (error);
    imported = procura_import_file (path, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (procura_store_import (store, imported, id, &error));
    g_assert_no_error (error);
  }
  {
    const char *argv[] = { "summary", project, "--json", NULL };
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  }
  g_assert_null (strstr (err, "internal"));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  cand = json_array_get_object_element (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                                                      "candidates"), 0);
  cap = json_object_get_object_member (cand, "capacity");
  g_assert_cmpstr (json_object_get_string_member (cap, "status"), ==, "no-data");
  g_assert_true (json_node_is_null (json_object_get_member (cap, "rps")));
  excluded = json_object_get_array_member (cap, "excluded_runs");
  g_assert_cmpuint (json_array_get_length (excluded), ==, 1);
  g_assert_nonnull (strstr (json_array_get_string_element (excluded, 0), "completed no request of 8 sent"));
  g_assert_nonnull (strstr (json_array_get_string_element (excluded, 0), "not even as a bound"));
  g_assert_true (json_node_is_null (json_object_get_member (cand, "cost")));
  g_assert_nonnull (json_object_get_string_member (cand, "cost_reason"));
  {
    const char *argv[] = { "summary", project, NULL };
    g_free (out);
    g_free (err);
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
    g_assert_nonnull (strstr (out, "completed no request"));
  }
  procura_test_rmtree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/conformance/capacity/sglang-sweep", test_sglang_sweep);
  g_test_add_func ("/analysis/conformance/capacity/all-failed", test_all_failed);
  return g_test_run ();
}
