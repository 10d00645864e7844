/* test-analysis.c: the whole analysis of an in-memory project, warnings, ranking,
 * recommendation and the summary JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-analysis.h"
#include "procura-demo.h"

#define T730 2628000.0

static char *
today (int days_ago)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) then = g_date_time_add_days (now, -days_ago);
  return g_date_time_format (then, "%Y-%m-%d");
}

static void
add_point (ProcuraProject *p,
           gint64          candidate_id,
           gint64          run_id,
           double          rps,
           double          p99_ttft_ms)
{
  ProcuraRun *r = procura_run_new ();

  r->id = run_id;
  r->candidate_id = candidate_id;
  r->label = g_strdup_printf ("rate %g", rps);
  r->request_throughput = rps;
  procura_run_add_stat (r, "ttft", "p99", p99_ttft_ms, PROCURA_SOURCE_AS_REPORTED, -1);
  g_ptr_array_add (p->runs, r);
}

static ProcuraCandidate *
gpu_candidate (gint64      id,
               const char *name,
               int         gpus,
               double      price,
               const char *price_date)
{
  ProcuraCandidate *c = procura_candidate_new ();

  c->id = id;
  c->name = g_strdup (name);
  c->kind = PROCURA_CANDIDATE_GPU;
  c->gpus_per_replica = gpus;
  c->tp = gpus;
  c->price_per_gpu_hour = price;
  c->price_date = g_strdup (price_date);
  return c;
}

/* The worked example as a project: 8xH100 reads 40 req/s off its sweep. */
static ProcuraProject *
make_project (void)
{
  ProcuraProject *p = procura_project_new ();
  ProcuraBrief *b = p->brief;
  ProcuraCandidate *c;
  g_autofree char *fresh = today (3);

  p->title = g_strdup ("test");
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
  b->window_hours = 730;
  p->assumptions.acceptance_rate = 0.9;
  p->assumptions.retry_rate = 0.05;
  p->assumptions.failure_rate = 0.01;

  c = gpu_candidate (1, "8xH100", 8, 2.5, fresh);
  c->interconnect = g_strdup ("NVLink");
  c->storage = 300;
  c->network = 200;
  c->observability = 100;
  c->labor_hours = 20;
  c->labor_rate = 100;
  g_ptr_array_add (p->candidates, c);
  /* p99 TTFT 200 ms at 20 req/s, 800 ms at 60: 500 ms at 20 + 300/600 x 40 = 40 req/s */
  add_point (p, 1, 11, 60, 800);
  add_point (p, 1, 10, 20, 200);

  /* 4xL40S: no interconnect, no labor, a price from 2020; 10 req/s at the target */
  c = gpu_candidate (2, "4xL40S", 4, 1.0, "2020-01-01");
  g_ptr_array_add (p->candidates, c);
  add_point (p, 2, 20, 5, 300);
  add_point (p, 2, 21, 15, 700);

  /* the API route */
  c = procura_candidate_new ();
  c->id = 3;
  c->name = g_strdup ("hosted API");
  c->kind = PROCURA_CANDIDATE_API;
  c->price_input_per_mtok = 0.5;
  c->price_output_per_mtok = 1.5;
  g_ptr_array_add (p->candidates, c);

  /* a GPU with a price and nothing else */
  g_ptr_array_add (p->candidates, gpu_candidate (4, "1xA100", 1, 1.2, fresh));
  return p;
}

static gboolean
has_warning (const ProcuraAnalysis *a,
             const char            *id,
             gint64                 candidate_id)
{
  for (guint i = 0; i < a->warnings->len; i++)
    {
      const ProcuraWarning *w = g_ptr_array_index (a->warnings, i);
      if (g_str_equal (w->id, id) && w->candidate_id == candidate_id)
        {
          g_assert_true (w->message != NULL && *w->message);
          g_assert_true (w->what_to_do != NULL && *w->what_to_do);
          return TRUE;
        }
    }
  return FALSE;
}

static void
test_project (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = procura_analysis_run (p, NULL);
  const ProcuraCandidateAnalysis *h100, *l40s, *api, *a100, *hyb;
  double accepted = 20 * T730 * 0.99 * 0.9;
  double c_api = (1000 * 0.5 + 250 * 1.5) / 1e6;
  double hybrid_gpu_cap, overflow, hybrid_all_in;

  h100 = procura_analysis_find (a, 1);
  l40s = procura_analysis_find (a, 2);
  api = procura_analysis_find (a, 3);
  a100 = procura_analysis_find (a, 4);
  hyb = procura_analysis_find (a, -2);
  g_assert_nonnull (h100);
  g_assert_nonnull (hyb);

  /* the worked example, with the capacity read off the sweep */
  g_assert_cmpint (h100->capacity->status, ==, PROCURA_CAPACITY_OK);
  g_assert_cmpfloat_with_epsilon (h100->capacity_at_slo, 40, 1e-9);
  g_assert_nonnull (h100->cost);
  g_assert_cmpfloat_with_epsilon (h100->cost->all_in_cost, 17200, 0.005);
  g_assert_cmpfloat_with_epsilon (h100->cost->cost_per_accepted, 17200 / accepted, 1e-15);

  /* 4xL40S: 10 req/s; ceil(30 x 1.05 / 10) = 4 replicas x 4 GPUs x 1 $ x 730 h */
  g_assert_cmpfloat_with_epsilon (l40s->capacity_at_slo, 10, 1e-9);
  g_assert_cmpint (l40s->cost->replicas, ==, 4);
  g_assert_cmpfloat_with_epsilon (l40s->cost->all_in_cost, 11680, 0.005);

  /* the API takes the request shape from the brief */
  g_assert_null (api->capacity);
  g_assert_cmpfloat_with_epsilon (api->cost->cost_per_accepted, c_api * 1.05 / 0.9, 1e-15);

  /* no benchmark: no capacity, no cost, and the hourly-rate warning */
  g_assert_cmpint (a100->capacity->status, ==, PROCURA_CAPACITY_NO_DATA);
  g_assert_null (a100->cost);
  g_assert_nonnull (a100->cost_reason);
  g_assert_true (has_warning (a, PROCURA_WARN_HOURLY_RATE_ONLY, 4));

  /* the derived hybrid: the cheapest GPU (4xL40S) sized for the average,
   * ceil(20 x 1.05 / 10) = 3 replicas = 30 / 1.05 req/s; the load-duration line from 30
   * down to 10 puts (30 - 28.571)^2 / (2 x 20) req/s on the API */
  g_assert_true (hyb->derived);
  g_assert_cmpint (hyb->kind, ==, PROCURA_CANDIDATE_HYBRID);
  g_assert_cmpint (hyb->cost->replicas, ==, 3);
  hybrid_gpu_cap = 30 / 1.05;
  overflow = (30 - hybrid_gpu_cap) * (30 - hybrid_gpu_cap) / 40;
  g_assert_cmpfloat_with_epsilon (hyb->cost->api_demand_average, overflow, 1e-12);
  hybrid_all_in = 3 * 4 * 1.0 * 730 + c_api * overflow * T730 * 0.99 * 1.05;
  g_assert_cmpfloat_with_epsilon (hyb->cost->all_in_cost, hybrid_all_in, 0.005);

  /* ranking: hybrid 8,882 $ < L40S 11,680 $ < H100 17,200 $ < API 47,807 $ */
  g_assert_false (a->ranking_withheld);
  g_assert_cmpuint (a->ranking->len, ==, 4);
  g_assert_cmpint (g_array_index (a->ranking, gint64, 0), ==, -2);
  g_assert_cmpint (g_array_index (a->ranking, gint64, 1), ==, 2);
  g_assert_cmpint (g_array_index (a->ranking, gint64, 2), ==, 1);
  g_assert_cmpint (g_array_index (a->ranking, gint64, 3), ==, 3);
  g_assert_cmpint (h100->rank, ==, 3);
  g_assert_cmpint (a100->rank, ==, 0);

  /* break-even against the API: 8xH100 at one replica costs 17,200 $ a window;
   * the API 0.000875 x 1.05 x 0.99 $ per request-second... equal where
   * 17,200 = 2,600 + ... solved by the curve: check it is a real crossing */
  g_assert_cmpuint (h100->break_even->len, >=, 1);
  {
    const ProcuraBreakEven *be = &g_array_index (h100->break_even, ProcuraBreakEven, 0);
    /* fixed 17,200 $ (one replica, always-on) against c_api x 1.05 / 0.9 per accepted:
     * 17,200 / (d x T x 0.99 x 0.9) = c_api x 1.05 / 0.9 → d = 17,200 / (c_api x 1.05 x T x 0.99) */
    double d = 17200 / (c_api * 1.05 * T730 * 0.99);
    g_assert_cmpfloat_with_epsilon (be->demand, d, 1e-6);
    g_assert_true (be->gpu_cheaper_above);
  }

  /* warnings */
  g_assert_true (has_warning (a, PROCURA_WARN_NO_INTERCONNECT, 2));
  g_assert_false (has_warning (a, PROCURA_WARN_NO_INTERCONNECT, 1));
  g_assert_true (has_warning (a, PROCURA_WARN_LABOR_ZERO, 2));
  g_assert_false (has_warning (a, PROCURA_WARN_LABOR_ZERO, 1));
  g_assert_true (has_warning (a, PROCURA_WARN_STALE_PRICE, 2));
  g_assert_false (has_warning (a, PROCURA_WARN_STALE_PRICE, 1));
  g_assert_true (has_warning (a, PROCURA_WARN_SINGLE_POINT_FIT, 1));
  g_assert_true (has_warning (a, PROCURA_WARN_AS_REPORTED, 1));
  g_assert_true (has_warning (a, PROCURA_WARN_NO_SCENARIO, 0));
  g_assert_false (has_warning (a, PROCURA_WARN_ACCEPTANCE_UNSET, 0));
  g_assert_false (has_warning (a, PROCURA_WARN_BRIEF_INCOMPLETE, 0));

  /* recommendation: the hybrid is cheapest */
  g_assert_cmpint (a->recommendation->choice, ==, PROCURA_CHOICE_HYBRID);
  g_assert_cmpuint (a->recommendation->reasons->len, >=, 2);

  /* sensitivity and what-ifs are there for each costed candidate */
  g_assert_cmpuint (h100->sensitivity->len, ==, 5);
  g_assert_cmpuint (h100->what_ifs->len, ==, 3);
}

static void
test_incomplete_brief (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = NULL;

  p->brief->demand_average = NAN;
  g_clear_pointer (&p->brief->tooling, g_free);
  p->assumptions.acceptance_rate = NAN;
  a = procura_analysis_run (p, NULL);

  g_assert_true (a->ranking_withheld);
  g_assert_nonnull (strstr (a->ranking_withheld_reason, "demand"));
  g_assert_nonnull (strstr (a->ranking_withheld_reason, "tooling"));
  g_assert_cmpuint (a->ranking->len, ==, 0);
  g_assert_null (procura_analysis_find (a, 1)->cost);
  g_assert_nonnull (strstr (procura_analysis_find (a, 1)->cost_reason, "demand"));
  /* the capacity does not need the demand */
  g_assert_cmpfloat_with_epsilon (procura_analysis_find (a, 1)->capacity_at_slo, 40, 1e-9);
  g_assert_true (has_warning (a, PROCURA_WARN_BRIEF_INCOMPLETE, 0));
  g_assert_true (has_warning (a, PROCURA_WARN_ACCEPTANCE_UNSET, 0));
  g_assert_cmpint (a->recommendation->choice, ==, PROCURA_CHOICE_UNDECIDED);
}

static void
test_acceptance_unset_uses_generated (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = NULL;

  p->assumptions.acceptance_rate = NAN;
  a = procura_analysis_run (p, NULL);
  g_assert_true (has_warning (a, PROCURA_WARN_ACCEPTANCE_UNSET, 0));
  /* generated outputs counted as accepted: 17,200 / 52,034,400 */
  g_assert_cmpfloat_with_epsilon (procura_analysis_find (a, 1)->cost->cost_per_accepted,
                                  17200 / (20 * T730 * 0.99), 1e-15);
}

static void
test_options_override (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = NULL;
  ProcuraAnalysisOptions o;

  procura_analysis_options_init (&o);
  o.slo_threshold_ms = 800;
  o.demand_average = 40;   /* peak keeps the brief's 1.5 ratio: 60 */
  a = procura_analysis_run (p, &o);
  /* 800 ms is the 60 req/s point itself */
  g_assert_cmpfloat_with_epsilon (procura_analysis_find (a, 1)->capacity_at_slo, 60, 1e-9);
  g_assert_cmpfloat (a->demand_peak, ==, 60);
  /* ceil(60 x 1.05 / 60) = 2 replicas */
  g_assert_cmpint (procura_analysis_find (a, 1)->cost->replicas, ==, 2);
}

static void
test_misses (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = NULL;
  ProcuraAnalysisOptions o;

  procura_analysis_options_init (&o);
  o.slo_threshold_ms = 150;   /* under every H100 and L40S point */
  a = procura_analysis_run (p, &o);
  g_assert_cmpint (procura_analysis_find (a, 1)->capacity->status, ==, PROCURA_CAPACITY_MISSES);
  g_assert_null (procura_analysis_find (a, 1)->cost);
  g_assert_true (has_warning (a, PROCURA_WARN_MISSES_TARGET, 1));
  /* only the API is left: it is the recommendation */
  g_assert_cmpint (a->recommendation->choice, ==, PROCURA_CHOICE_API);
}

static ProcuraProject *
single_gpu_project (double      average,
                    const char *duty,
                    const char *boundary)
{
  ProcuraProject *p = make_project ();

  /* keep the 8xH100 only */
  g_ptr_array_remove_range (p->candidates, 1, 3);
  p->brief->demand_average = average;
  p->brief->demand_peak = 30;
  g_free (p->brief->duty_cycle);
  p->brief->duty_cycle = g_strdup (duty);
  g_free (p->brief->operating_boundary);
  p->brief->operating_boundary = g_strdup (boundary);
  return p;
}

static void
test_recommendation_table (void)
{
  struct {
    double average;
    const char *duty, *boundary;
    ProcuraChoice expected;
  } rows[] = {
    /* u = 28 x 1.05 / 40 = 0.735, peak 1.07 x average, always-on: reserve */
    { 28, "always-on", "cloud", PROCURA_CHOICE_RESERVE },
    /* the same on premises, without purchase inputs: never buy */
    { 28, "always-on", "on-prem", PROCURA_CHOICE_RESERVE },
    /* business hours: rent */
    { 28, "business-hours", "cloud", PROCURA_CHOICE_RENT },
    /* u = 0.525 and peak 1.5 x average: rent */
    { 20, "always-on", "cloud", PROCURA_CHOICE_RENT },
    /* bursty (peak 3 x average): rent, even on premises */
    { 10, "always-on", "on-prem", PROCURA_CHOICE_RENT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autoptr(ProcuraProject) p = single_gpu_project (rows[i].average, rows[i].duty, rows[i].boundary);
      g_autoptr(ProcuraAnalysis) a = procura_analysis_run (p, NULL);

      g_assert_cmpint (a->recommendation->choice, ==, rows[i].expected);
      g_assert_cmpint (a->recommendation->candidate_id, ==, 1);
      g_assert_cmpuint (a->recommendation->reasons->len, >=, 2);
    }
}

static void
test_json (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = procura_analysis_run (p, NULL);
  g_autoptr(JsonNode) root = procura_analysis_to_json (a, p);
  JsonObject *o = json_node_get_object (root);
  JsonArray *cands = json_object_get_array_member (o, "candidates");
  JsonObject *h100 = NULL, *cap, *cost, *ranking;
  g_autofree char *text = procura_analysis_to_text (a, p);

  g_assert_cmpuint (json_array_get_length (cands), ==, 5);   /* 4 + the derived hybrid */
  for (guint i = 0; i < json_array_get_length (cands); i++)
    {
      JsonObject *c = json_array_get_object_element (cands, i);
      g_assert_true (json_object_has_member (c, "fit"));
      g_assert_true (json_object_has_member (c, "warnings"));
      if (g_strcmp0 (json_object_get_string_member (c, "name"), "8xH100") == 0)
        h100 = c;
    }
  g_assert_nonnull (h100);
  cap = json_object_get_object_member (h100, "capacity");
  g_assert_cmpstr (json_object_get_string_member (cap, "status"), ==, "ok");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (cap, "rps"), 40, 1e-9);
  g_assert_false (json_object_get_boolean_member (cap, "uncertain"));
  cost = json_object_get_object_member (h100, "cost");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (cost, "cost_per_accepted"),
                                  17200 / 46830960.0, 1e-15);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_object_get_object_member (cost, "lines"),
                                                                 "idle_capacity"), 6935, 0.005);
  ranking = json_object_get_object_member (o, "ranking");
  g_assert_false (json_object_get_boolean_member (ranking, "withheld"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (ranking, "order")), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (o, "recommendation"), "choice"),
                   ==, "hybrid");
  /* project-level warnings are listed once at the top */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "warnings")), >=, 1);

  g_assert_nonnull (strstr (text, "8xH100"));
  g_assert_nonnull (strstr (text, "Recommendation: hybrid"));
}

static void
test_fit (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = NULL;
  const ProcuraCandidateAnalysis *h100, *l40s, *a100;
  ProcuraCandidate *c;

  g_free (p->brief->model_shape);
  p->brief->model_shape = g_strdup ("meta-llama/Llama-3.1-70B");
  p->brief->concurrency = 8;
  c = g_ptr_array_index (p->candidates, 0);
  c->gpu_name = g_strdup ("h100-sxm-80gb");       /* TP 8 */
  c = g_ptr_array_index (p->candidates, 3);
  c->gpu_name = g_strdup ("a100-sxm-40gb");       /* TP 1 */
  a = procura_analysis_run (p, NULL);

  h100 = procura_analysis_find (a, 1);
  l40s = procura_analysis_find (a, 2);
  a100 = procura_analysis_find (a, 4);
  /* 70 B parameters in bf16 are about 141 GB: over 8 GPUs they fit */
  g_assert_nonnull (h100->fit);
  g_assert_true (h100->fit->fits);
  g_assert_cmpint (h100->fit->tp, ==, 8);
  g_assert_cmpint (h100->fit->context_tokens, ==, 1250);   /* brief: 1000 in + 250 out */
  g_assert_cmpint (h100->fit->concurrency, ==, 8);
  g_assert_cmpfloat (fabs (h100->fit->weights_total_bytes / 141e9 - 1), <, 0.03);
  /* on one 40 GB GPU the weights alone do not fit */
  g_assert_nonnull (a100->fit);
  g_assert_false (a100->fit->fits);
  g_assert_cmpstr (procura_fit_limit_to_string (a100->fit->limit), ==, "weights");
  g_assert_true (has_warning (a, PROCURA_WARN_DOES_NOT_FIT, 4));
  g_assert_false (has_warning (a, PROCURA_WARN_DOES_NOT_FIT, 1));
  /* no GPU named: no fit, and the reason */
  g_assert_null (l40s->fit);
  g_assert_nonnull (l40s->fit_reason);

  {
    g_autoptr(JsonNode) root = procura_analysis_to_json (a, p);
    JsonArray *cands = json_object_get_array_member (json_node_get_object (root), "candidates");
    JsonObject *first = json_array_get_object_element (cands, 0);
    JsonObject *fit = json_object_get_object_member (first, "fit");
    g_assert_true (json_object_get_boolean_member (fit, "fits"));
    g_assert_cmpstr (json_object_get_string_member (fit, "limit"), ==, "none");
  }
}

static void
test_explicit_hybrid (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = NULL;
  const ProcuraCandidateAnalysis *h;
  g_autofree char *fresh = today (1);
  ProcuraCandidate *c = gpu_candidate (5, "hybrid 1xGPU + API", 1, 2.0, fresh);

  /* test-cost.c's hybrid as a project candidate: capacity 12 read off the sweep
   * (6 req/s at 200 ms, 18 at 800 ms: 6 + 300/600 x 12), no retries, failures or
   * rejections; 2 replicas would send 0.9 req/s to the API (2920 $ of GPUs + 2838.24 $
   * of tokens), 3 replicas cover the peak for 4380 $: 3, + 500 $ of labor */
  c->kind = PROCURA_CANDIDATE_HYBRID;
  c->input_tokens = 1000;
  c->output_tokens = 100;
  c->price_input_per_mtok = 1.0;
  c->price_output_per_mtok = 2.0;
  c->labor_hours = 10;
  c->labor_rate = 50;
  g_ptr_array_add (p->candidates, c);
  add_point (p, 5, 50, 6, 200);
  add_point (p, 5, 51, 18, 800);
  p->assumptions.acceptance_rate = 1;
  p->assumptions.retry_rate = 0;
  p->assumptions.failure_rate = 0;
  a = procura_analysis_run (p, NULL);

  h = procura_analysis_find (a, 5);
  g_assert_nonnull (h->cost);
  g_assert_cmpfloat_with_epsilon (h->capacity_at_slo, 12, 1e-9);
  g_assert_cmpint (h->cost->replicas, ==, 3);
  g_assert_cmpfloat_with_epsilon (h->cost->api_demand_average, 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (h->cost->all_in_cost, 4380 + 500, 0.005);
  /* an explicit hybrid: no derived one */
  g_assert_null (procura_analysis_find (a, -2));
}


static const char *
reason_with (const ProcuraAnalysis *a,
             const char            *fragment)
{
  for (guint i = 0; i < a->recommendation->reasons->len; i++)
    if (strstr (g_ptr_array_index (a->recommendation->reasons, i), fragment) != NULL)
      return g_ptr_array_index (a->recommendation->reasons, i);
  return NULL;
}

/* issue 16: a hybrid costed at a reserved price is not advised "rent on demand first" */
static void
test_hybrid_reserved (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = NULL;
  g_autoptr(ProcuraAnalysis) b = NULL;
  g_autofree char *fresh = today (1);
  ProcuraCandidate *c = gpu_candidate (5, "hybrid 1xGPU + API", 1, 2.0, fresh);

  c->kind = PROCURA_CANDIDATE_HYBRID;
  c->input_tokens = 1000;
  c->output_tokens = 100;
  c->price_input_per_mtok = 1.0;
  c->price_output_per_mtok = 2.0;
  c->pricing_model = g_strdup ("reserved");
  g_ptr_array_add (p->candidates, c);
  add_point (p, 5, 50, 6, 200);
  add_point (p, 5, 51, 18, 800);
  a = procura_analysis_run (p, NULL);
  g_assert_cmpint (a->recommendation->choice, ==, PROCURA_CHOICE_HYBRID);
  g_assert_null (reason_with (a, "on demand first"));
  g_assert_nonnull (reason_with (a, "reserved price"));

  /* the same at an on-demand price: rent first */
  g_free (c->pricing_model);
  c->pricing_model = g_strdup ("on-demand");
  b = procura_analysis_run (p, NULL);
  g_assert_cmpint (b->recommendation->choice, ==, PROCURA_CHOICE_HYBRID);
  g_assert_nonnull (reason_with (b, "on demand first"));
}

/* issue 16: "buy" needs purchase inputs of its own */
static void
test_buy_needs_purchase_inputs (void)
{
  g_autoptr(ProcuraProject) p = single_gpu_project (28, "always-on", "on-prem");
  ProcuraCandidate *c = g_ptr_array_index (p->candidates, 0);
  g_autoptr(ProcuraAnalysis) none = procura_analysis_run (p, NULL);
  g_autoptr(ProcuraAnalysis) all = NULL;
  g_autoptr(ProcuraAnalysis) cloud = NULL;
  g_autoptr(ProcuraAnalysis) dear = NULL;

  g_assert_cmpint (none->recommendation->choice, !=, PROCURA_CHOICE_BUY);
  g_assert_nonnull (reason_with (none, "purchase inputs"));

  /* 30,000 over 4 years = 0.8562 per GPU-hour + 0.1 power + 73 / 730 hosting = 1.0562 */
  c->purchase_price_per_gpu = 30000;
  c->depreciation_years = 4;
  c->power_per_gpu_hour = 0.1;
  c->hosting_per_gpu_month = 73;
  all = procura_analysis_run (p, NULL);
  g_assert_cmpint (all->recommendation->choice, ==, PROCURA_CHOICE_BUY);
  g_assert_nonnull (reason_with (all, "1.056"));

  /* in the cloud, owning cheaper per GPU-hour than the 2.5 rented: buy too */
  g_free (p->brief->operating_boundary);
  p->brief->operating_boundary = g_strdup ("cloud");
  cloud = procura_analysis_run (p, NULL);
  g_assert_cmpint (cloud->recommendation->choice, ==, PROCURA_CHOICE_BUY);
  /* ... but not when owning is dearer (capex 100,000: 2.85 + 0.2 per GPU-hour) */
  c->purchase_price_per_gpu = 100000;
  dear = procura_analysis_run (p, NULL);
  g_assert_cmpint (dear->recommendation->choice, ==, PROCURA_CHOICE_RESERVE);
}

/* issue 16: an API's measured latency is a hard constraint */
static void
test_api_latency (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = NULL;
  g_autoptr(ProcuraAnalysis) b = NULL;
  const ProcuraCandidateAnalysis *api;

  /* an llmperf-like run against the API: p99 TTFT 900 ms against a 500 ms target */
  add_point (p, 3, 30, 2, 420);
  add_point (p, 3, 31, 4, 900);
  a = procura_analysis_run (p, NULL);
  api = procura_analysis_find (a, 3);
  g_assert_true (api->misses_target);
  g_assert_null (api->cost);
  g_assert_cmpfloat (api->latency_ms, ==, 900);
  g_assert_nonnull (strstr (api->cost_reason, "900 ms"));
  g_assert_nonnull (strstr (api->cost_reason, "rate 4"));
  g_assert_cmpint (api->rank, ==, 0);
  /* no hybrid with an API that misses */
  for (guint i = 0; i < a->candidates->len; i++)
    g_assert_false (((ProcuraCandidateAnalysis *) g_ptr_array_index (a->candidates, i))->derived);
  g_assert_nonnull (reason_with (a, "misses the target"));
  g_assert_true (has_warning (a, PROCURA_WARN_MISSES_TARGET, 3));

  /* at a 1 s target it meets and is costed */
  g_ptr_array_remove_index (p->runs, p->runs->len - 1);
  b = procura_analysis_run (p, NULL);
  api = procura_analysis_find (b, 3);
  g_assert_false (api->misses_target);
  g_assert_cmpfloat (api->latency_ms, ==, 420);
  g_assert_nonnull (api->cost);
}

/* issue 16: the API's rate limits are hard: it is not ranked and the hybrid keeps
 * within them */
static void
test_api_rate_limit (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = NULL;
  ProcuraCandidate *api_c = g_ptr_array_index (p->candidates, 2);
  const ProcuraCandidateAnalysis *api, *h;
  double limit = 600.0 / 60.0 / 1.05;   /* 9.524 first attempts/s */

  api_c->rate_limit_rpm = 600;
  a = procura_analysis_run (p, NULL);
  api = procura_analysis_find (a, 3);
  g_assert_true (api->rate_limited);
  g_assert_null (api->cost);
  g_assert_nonnull (strstr (api->cost_reason, "not feasible"));
  g_assert_cmpint (api->rank, ==, 0);
  /* the derived hybrid (the cheapest GPU + the API) keeps within the API's limit */
  h = NULL;
  for (guint i = 0; i < a->candidates->len; i++)
    if (((ProcuraCandidateAnalysis *) g_ptr_array_index (a->candidates, i))->derived)
      h = g_ptr_array_index (a->candidates, i);
  g_assert_nonnull (h);
  g_assert_nonnull (h->cost);
  g_assert_cmpfloat (h->cost->api_peak_rps, <=, limit * (1 + 1e-12));
  g_assert_nonnull (reason_with (a, "out of the ranking"));
  g_assert_true (has_warning (a, PROCURA_WARN_RATE_LIMIT, 3));
  {
    g_autoptr(JsonNode) root = procura_analysis_to_json (a, p);
    JsonArray *cands = json_object_get_array_member (json_node_get_object (root), "candidates");
    for (guint i = 0; i < json_array_get_length (cands); i++)
      {
        JsonObject *o = json_array_get_object_element (cands, i);
        if (json_object_get_int_member (o, "id") == 3)
          g_assert_true (json_object_get_boolean_member (json_object_get_object_member (o, "constraints"),
                                                         "rate_limited"));
      }
  }
}

/* issue 16: every quote term its own line, hand-computed */
static void
test_quote_terms (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = NULL;
  ProcuraQuote *q = procura_quote_new ();
  ProcuraCandidate *c = g_ptr_array_index (p->candidates, 0);
  const ProcuraCostResult *r;

  q->id = 7;
  q->provider = g_strdup ("Example Cloud");
  q->gpu_name = g_strdup ("H100");
  q->gpu_count = 8;
  q->price_per_hour = 20;
  q->pricing_model = g_strdup ("committed");
  q->term_months = 12;
  q->min_commitment = 240000;     /* over 8,760 h: 20,000 in a 730 h window */
  q->setup_fee = 8760;            /* spread over the term: 730 in the window */
  q->support_pct = 3;
  q->storage_per_gb_month = 0.08;
  q->egress_per_gb = 0.05;
  g_ptr_array_add (p->quotes, q);
  c->quote_id = 7;
  p->brief->storage_gb = 1000;
  p->brief->egress_gb = 500;
  a = procura_analysis_run (p, NULL);
  r = procura_analysis_find (a, 1)->cost;
  g_assert_nonnull (r);
  /* G = 8 x 2.5 x 730 = 14,600: below the 20,000 floor by 5,400 */
  g_assert_cmpfloat_with_epsilon (r->lines[PROCURA_COST_COMMITMENT_SHORTFALL], 5400, 1e-6);
  g_assert_cmpfloat_with_epsilon (r->lines[PROCURA_COST_SETUP_FEE], 730, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->lines[PROCURA_COST_STORAGE_VOLUME], 80, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->lines[PROCURA_COST_EGRESS], 25, 1e-9);
  /* 3 % of 14,600 + 5,400 + 80 + 25 */
  g_assert_cmpfloat_with_epsilon (r->lines[PROCURA_COST_SUPPORT], 603.15, 1e-6);
  g_assert_cmpfloat_with_epsilon (r->all_in_cost, 17200 + 5400 + 730 + 80 + 25 + 603.15, 1e-6);
  g_assert_false (procura_cost_result_line_applies (r, PROCURA_COST_OVERAGE));

  /* without the brief's volumes the per-GB prices are not applied, and say so */
  p->brief->storage_gb = NAN;
  {
    g_autoptr(ProcuraAnalysis) b = procura_analysis_run (p, NULL);
    const ProcuraCostResult *rb = procura_analysis_find (b, 1)->cost;
    gboolean said = FALSE;

    g_assert_false (procura_cost_result_line_applies (rb, PROCURA_COST_STORAGE_VOLUME));
    for (guint i = 0; i < procura_analysis_find (b, 1)->inputs->trace->len; i++)
      {
        const ProcuraCostInput *t = g_ptr_array_index (procura_analysis_find (b, 1)->inputs->trace, i);
        said |= g_strcmp0 (t->name, "storage_gb") == 0 && strstr (t->origin, "not in the brief") != NULL;
      }
    g_assert_true (said);
  }
}

/* issue 16: the API is billed on the brief's mean request shape, and says which */
static void
test_api_mean_tokens (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) p95 = procura_analysis_run (p, NULL);
  g_autoptr(ProcuraAnalysis) mean = NULL;
  const ProcuraCandidateAnalysis *api;

  api = procura_analysis_find (p95, 3);
  g_assert_cmpstr (api->token_basis, ==, "p95");
  g_assert_cmpfloat (api->inputs->input_tokens, ==, 1000);

  p->brief->input_tokens_mean = 600;
  p->brief->output_tokens_mean = 150;
  mean = procura_analysis_run (p, NULL);
  api = procura_analysis_find (mean, 3);
  g_assert_cmpstr (api->token_basis, ==, "mean");
  g_assert_cmpfloat (api->inputs->input_tokens, ==, 600);
  g_assert_cmpfloat (api->inputs->output_tokens, ==, 150);
  /* 600 x 0.5 + 150 x 1.5 = 525 $ per million requests, x 1.05 / 0.9 */
  g_assert_cmpfloat_with_epsilon (api->cost->cost_per_accepted, 525e-6 * 1.05 / 0.9, 1e-15);
}

/* issue 16: operations tests priced as failure waste */
static void
test_ops_failure_waste (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = NULL;
  ProcuraOpsTest *t = procura_ops_test_new ();
  const ProcuraCostResult *r;

  t->candidate_id = 1;
  t->kind = g_strdup ("kill-worker");
  t->result = g_strdup ("pass");
  t->failed_requests = 100;
  t->recovery_s = 1800;
  t->per_month = 2;
  g_ptr_array_add (p->ops_tests, t);
  a = procura_analysis_run (p, NULL);
  r = procura_analysis_find (a, 1)->cost;
  /* 2 a month: 200 requests at 17,200 / (20 x 2,628,000) each, and 2 x 0.5 h of one
   * 8-GPU replica at 2.5 = 20 */
  g_assert_cmpfloat_with_epsilon (r->lines[PROCURA_COST_FAILURE_WASTE], 200 * 17200.0 / (20 * T730) + 20, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->all_in_cost, 17200 + 200 * 17200.0 / (20 * T730) + 20, 1e-9);
}

/* issue 16: success units per workload type; a clip is a clip */
static void
test_success_units (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = NULL;

  g_assert_cmpstr (procura_success_unit_default ("code-agents"), ==, "accepted task");
  g_assert_cmpstr (procura_success_unit_default ("fine-tuning"), ==, "accepted fine-tuned checkpoint");
  g_assert_cmpstr (procura_success_unit_default ("evaluation"), ==, "completed evaluation suite");
  g_assert_cmpstr (procura_success_unit_default ("embeddings"), ==, "accepted record");
  g_assert_cmpstr (procura_success_unit_default ("video-generation"), ==, "accepted clip");
  g_free (p->brief->workload_type);
  p->brief->workload_type = g_strdup ("video-generation");
  g_free (p->brief->success_unit);
  p->brief->success_unit = g_strdup ("accepted video second");
  a = procura_analysis_run (p, NULL);
  g_assert_cmpstr (a->unit_label, ==, "accepted clip");
  g_assert_cmpfloat (a->unit_factor, ==, 1);
}

/* issue 16: a training project is costed per completed run in the project */
static void
test_run_workload_project (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = NULL;
  ProcuraCandidate *c = g_ptr_array_index (p->candidates, 0);
  const ProcuraCandidateAnalysis *ca;

  g_free (p->brief->workload_type);
  p->brief->workload_type = g_strdup ("training");
  g_free (p->brief->success_unit);
  p->brief->success_unit = g_strdup (procura_success_unit_default ("training"));
  c->billed_hours = 100;     /* hours one run takes */
  a = procura_analysis_run (p, NULL);
  ca = procura_analysis_find (a, 1);
  g_assert_nonnull (ca->cost);
  g_assert_true (ca->cost->run_workload);
  /* 8 x 2.5 x 100 + 300 + 200 + 2,000 labor, over P(success) = 0.9 */
  g_assert_cmpfloat_with_epsilon (ca->cost->cost_per_accepted, (2000.0 + 300 + 200 + 2000) / 0.9, 1e-9);
  g_assert_cmpstr (a->unit_label, ==, "completed training run at the target evaluation");
  /* the API has no run formula */
  g_assert_null (procura_analysis_find (a, 3)->cost);
  g_assert_cmpint (ca->rank, >=, 1);
}

/* issue 16: each tipping point, applied, flips the ranking */
static void
test_tipping_points (void)
{
  g_autoptr(ProcuraProject) p = make_project ();
  g_autoptr(ProcuraAnalysis) a = procura_analysis_run (p, NULL);
  gint64 w, r;
  guint found = 0;

  g_assert_cmpuint (a->ranking->len, >=, 2);
  w = g_array_index (a->ranking, gint64, 0);
  r = g_array_index (a->ranking, gint64, 1);
  g_assert_cmpint (a->tipping_winner, ==, w);
  g_assert_cmpint (a->tipping_runner_up, ==, r);
  g_assert_cmpuint (a->tipping_points->len, >=, 4);
  for (guint i = 0; i < a->tipping_points->len; i++)
    {
      const ProcuraTippingPoint *t = g_ptr_array_index (a->tipping_points, i);
      double dir, beyond, before, cw, cr;

      if (isnan (t->value))
        continue;
      found++;
      dir = t->value > t->current ? 1 : -1;
      beyond = t->value * (1 + dir * 1e-3);
      before = t->value * (1 - dir * 1e-6);
      cw = procura_analysis_cost_with (a, p, w, t->input, t->candidate_id, beyond);
      cr = procura_analysis_cost_with (a, p, r, t->input, t->candidate_id, beyond);
      if (!(isnan (cw) || cw >= cr))
        g_error ("%s: %g does not flip (%g vs %g)", t->input, beyond, cw, cr);
      cw = procura_analysis_cost_with (a, p, w, t->input, t->candidate_id, before);
      cr = procura_analysis_cost_with (a, p, r, t->input, t->candidate_id, before);
      if (!(cw <= cr))
        g_error ("%s: %g already flips (%g vs %g)", t->input, before, cw, cr);
    }
  g_assert_cmpuint (found, >=, 1);
  {
    g_autoptr(JsonNode) root = procura_analysis_to_json (a, p);
    JsonArray *tp = json_object_get_array_member (json_node_get_object (root), "tipping_points");
    g_assert_cmpuint (json_array_get_length (tp), ==, a->tipping_points->len);
  }
}


static const ProcuraCandidateAnalysis *
analysis_of (const ProcuraAnalysis *a,
             gint64                 candidate_id)
{
  for (guint i = 0; i < a->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (a->candidates, i);

      if (ca->candidate_id == candidate_id && !ca->derived)
        return ca;
    }
  return NULL;
}

/* issue 17: the demo's engine log (H100 candidate) and probe result (H200 candidate)
 * replace the calculator's estimates in the analysis, and say so */
static void
test_fit_measured_demo (void)
{
  g_autoptr (ProcuraProject) p = procura_demo_project_new ();
  g_autoptr (ProcuraAnalysis) a = procura_analysis_run (p, NULL);
  const ProcuraEngineLog *log = NULL;
  const ProcuraProbeResult *probe = NULL;
  const ProcuraCandidateAnalysis *ca;
  ProcuraAnalysisFitSetup setup;
  ProcuraFitResult calculated;
  g_autofree char *reason = NULL;
  guint others = 0;

  for (guint i = 0; i < p->engine_logs->len; i++)
    if (((ProcuraEngineLog *) p->engine_logs->pdata[i])->candidate_id > 0)
      log = p->engine_logs->pdata[i];
  for (guint i = 0; i < p->probe_results->len; i++)
    if (((ProcuraProbeResult *) p->probe_results->pdata[i])->candidate_id > 0)
      probe = p->probe_results->pdata[i];
  g_assert_nonnull (log);
  g_assert_nonnull (probe);

  /* the engine log's candidate: weights, KV pool and CUDA graphs are the log's */
  ca = analysis_of (a, log->candidate_id);
  g_assert_nonnull (ca);
  g_assert_nonnull (ca->fit);
  g_assert_cmpuint (ca->fit_measured & PROCURA_FIT_MEASURED_WEIGHTS, !=, 0);
  g_assert_cmpuint (ca->fit_measured & PROCURA_FIT_MEASURED_KV_POOL, !=, 0);
  g_assert_cmpuint (ca->fit_measured & PROCURA_FIT_MEASURED_CUDA_GRAPHS, !=, 0);
  g_assert_cmpfloat_with_epsilon (ca->fit->weights_bytes, log->weights_gib * PROCURA_GIB, 1.0);
  g_assert_cmpfloat_with_epsilon (ca->fit->kv_pool_bytes, log->kv_available_gib * PROCURA_GIB, 1.0);
  g_assert_cmpfloat_with_epsilon (ca->fit->cuda_graph_bytes, log->cuda_graph_gib * PROCURA_GIB, 1.0);
  /* tokens follow from the engine's pool: within one block of the log's count */
  g_assert_cmpint (llabs (ca->fit->kv_tokens - log->kv_tokens), <=, 16);
  g_assert_false (ca->fit->parts[PROCURA_FIT_PART_KV_CACHE].estimate);
  g_assert_cmpint (ca->fit_engine_log_id, ==, log->id);
  g_assert_nonnull (ca->fit_measured_text);
  g_assert_nonnull (strstr (ca->fit_measured_text, "measured by the engine"));
  g_assert_nonnull (strstr (ca->fit_measured_text, "demo-vllm-h100.log"));
  /* the log's version picks the rules (0.11 runs under the 0.10 rules) */
  g_assert_cmpstr (ca->fit->engine_rules, ==, "vllm 0.10");
  /* and the figures differ from the calculator's own */
  {
    const ProcuraCandidate *c = procura_project_find_candidate (p, log->candidate_id);

    g_assert_true (procura_analysis_fit_setup (p, c, FALSE, &setup, &reason));
    g_assert_true (procura_fit_compute (&setup.request, &calculated, NULL));
    g_assert_cmpuint (setup.measured, ==, 0);
    g_assert_null (setup.measured_text);
    g_assert_cmpfloat (fabs (calculated.kv_pool_bytes - ca->fit->kv_pool_bytes), >, 0.01 * PROCURA_GIB);
    procura_analysis_fit_setup_clear (&setup);
  }

  /* the probe's candidate: usable memory is the probe's total, its verdict is kept */
  ca = analysis_of (a, probe->candidate_id);
  g_assert_nonnull (ca);
  g_assert_nonnull (ca->fit);
  g_assert_cmpuint (ca->fit_measured & PROCURA_FIT_MEASURED_USABLE, !=, 0);
  g_assert_cmpuint (ca->fit_measured & PROCURA_FIT_MEASURED_PROBE_FIT, !=, 0);
  g_assert_cmpfloat (ca->fit->usable_memory_bytes, ==, probe->total_bytes);
  g_assert_cmpfloat (ca->fit_probe_headroom_bytes, ==, probe->headroom_bytes);
  g_assert_true (ca->fit_probe_fits == probe->fits);
  g_assert_nonnull (strstr (ca->fit_measured_text, "measured by the probe"));

  /* every other GPU candidate is calculated only */
  for (guint i = 0; i < a->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *o = g_ptr_array_index (a->candidates, i);

      if (o->kind != PROCURA_CANDIDATE_GPU || o->candidate_id == log->candidate_id
          || o->candidate_id == probe->candidate_id || o->fit == NULL)
        continue;
      g_assert_cmpuint (o->fit_measured, ==, 0);
      g_assert_null (o->fit_measured_text);
      others++;
    }
  g_assert_cmpuint (others, >=, 1);
}

/* issue 17: a log taken at another TP does not replace anything, and says why */
static void
test_fit_measured_other_tp (void)
{
  g_autoptr (ProcuraProject) p = procura_demo_project_new ();
  g_autoptr (ProcuraAnalysis) a = NULL;
  const ProcuraCandidateAnalysis *ca;
  ProcuraEngineLog *log = p->engine_logs->pdata[0];

  log->tp = 2;
  a = procura_analysis_run (p, NULL);
  ca = analysis_of (a, log->candidate_id);
  g_assert_nonnull (ca->fit);
  g_assert_cmpuint (ca->fit_measured, ==, 0);
  g_assert_nonnull (strstr (ca->fit_measured_text, "not the candidate's TP 4"));
}

/* issue 17: the engine version comes from the candidate's engine field, else the brief's
 * tooling */
static void
test_fit_engine_version (void)
{
  g_autoptr (ProcuraProject) p = procura_demo_project_new ();
  ProcuraCandidate *c = NULL;
  ProcuraAnalysisFitSetup setup;
  ProcuraFitResult r;
  g_autofree char *reason = NULL;

  for (guint i = 0; i < p->candidates->len && c == NULL; i++)
    if (((ProcuraCandidate *) p->candidates->pdata[i])->kind == PROCURA_CANDIDATE_GPU)
      c = p->candidates->pdata[i];
  g_assert_nonnull (c);

  g_free (p->brief->tooling);
  p->brief->tooling = g_strdup ("vLLM 0.10.1 on Kubernetes");
  g_free (c->engine);
  c->engine = g_strdup ("vllm");
  g_assert_true (procura_analysis_fit_setup (p, c, FALSE, &setup, &reason));
  g_assert_cmpstr (setup.request.engine_version, ==, "0.10.1");
  g_assert_true (procura_fit_compute (&setup.request, &r, NULL));
  g_assert_cmpstr (r.engine_rules, ==, "vllm 0.10");
  procura_analysis_fit_setup_clear (&setup);

  /* the candidate's own version wins */
  g_free (c->engine);
  c->engine = g_strdup ("vllm 0.19.0");
  g_assert_true (procura_analysis_fit_setup (p, c, FALSE, &setup, &reason));
  g_assert_cmpstr (setup.request.engine_version, ==, "0.19.0");
  g_assert_true (procura_fit_compute (&setup.request, &r, NULL));
  g_assert_cmpstr (r.engine_rules, ==, "vllm 0.19");
  procura_analysis_fit_setup_clear (&setup);

  /* an SGLang candidate does not take the brief's vLLM version */
  g_free (c->engine);
  c->engine = g_strdup ("sglang");
  g_assert_true (procura_analysis_fit_setup (p, c, FALSE, &setup, &reason));
  g_assert_cmpint (setup.request.engine, ==, PROCURA_ENGINE_SGLANG);
  g_assert_null (setup.request.engine_version);
  procura_analysis_fit_setup_clear (&setup);
}

/* issue 17: the calculator beside the engine log and the probe, line by line */
static void
test_fit_compare_demo (void)
{
  g_autoptr (ProcuraProject) p = procura_demo_project_new ();
  const ProcuraEngineLog *log = p->engine_logs->pdata[0];
  const ProcuraProbeResult *probe = p->probe_results->pdata[0];
  g_autoptr (GArray) rows = NULL;
  g_autofree char *reason = NULL;
  const char *ids[] = { "usable", "weights", "profile", "cuda-graphs", "kv-pool", "kv-tokens", "headroom" };
  double calc_weights = NAN, calc_pool = NAN, calc_profile = NAN, engine_profile = NAN;

  rows = procura_analysis_fit_compare (p, procura_project_find_candidate (p, log->candidate_id), &reason);
  g_assert_nonnull (rows);
  g_assert_cmpuint (rows->len, ==, G_N_ELEMENTS (ids));
  for (guint i = 0; i < rows->len; i++)
    {
      const ProcuraFitCompareRow *row = &g_array_index (rows, ProcuraFitCompareRow, i);

      g_assert_cmpstr (row->id, ==, ids[i]);
      g_assert_true (isfinite (row->calculated));
      g_assert_nonnull (row->explanation);
      g_assert_false (isfinite (row->probe));   /* no probe on this candidate */
      if (g_str_equal (row->id, "weights"))
        {
          g_assert_cmpfloat (row->engine, ==, log->weights_gib);
          calc_weights = row->calculated;
        }
      if (g_str_equal (row->id, "kv-pool"))
        {
          g_assert_cmpfloat (row->engine, ==, log->kv_available_gib);
          calc_pool = row->calculated;
        }
      if (g_str_equal (row->id, "kv-tokens"))
        g_assert_cmpfloat (row->engine, ==, (double) log->kv_tokens);
      if (g_str_equal (row->id, "cuda-graphs"))
        g_assert_cmpfloat (row->engine, ==, log->cuda_graph_gib);
      if (g_str_equal (row->id, "profile"))
        {
          calc_profile = row->calculated;
          engine_profile = row->engine;
        }
    }
  /* the lines add up: the pool's difference is the others' with the sign reversed (vLLM
   * 0.11: graphs outside the budget; same usable memory on both sides) */
  g_assert_true (isfinite (engine_profile));
  g_assert_cmpfloat_with_epsilon ((calc_pool - log->kv_available_gib),
                                  -((calc_weights - log->weights_gib) + (calc_profile - engine_profile)), 1e-3);

  /* the probe's candidate: usable memory and headroom as measured */
  g_clear_pointer (&rows, g_array_unref);
  rows = procura_analysis_fit_compare (p, procura_project_find_candidate (p, probe->candidate_id), &reason);
  g_assert_nonnull (rows);
  g_assert_cmpfloat (g_array_index (rows, ProcuraFitCompareRow, 0).probe, ==, probe->total_bytes / PROCURA_GIB);
  g_assert_cmpfloat (g_array_index (rows, ProcuraFitCompareRow, 6).probe, ==, probe->headroom_bytes / PROCURA_GIB);
  g_assert_false (isfinite (g_array_index (rows, ProcuraFitCompareRow, 1).engine));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/project/all", test_project);
  g_test_add_func ("/analysis/project/incomplete-brief", test_incomplete_brief);
  g_test_add_func ("/analysis/project/acceptance-unset", test_acceptance_unset_uses_generated);
  g_test_add_func ("/analysis/project/options", test_options_override);
  g_test_add_func ("/analysis/project/misses", test_misses);
  g_test_add_func ("/analysis/project/recommendation", test_recommendation_table);
  g_test_add_func ("/analysis/project/json", test_json);
  g_test_add_func ("/analysis/project/fit", test_fit);
  g_test_add_func ("/analysis/project/explicit-hybrid", test_explicit_hybrid);
  g_test_add_func ("/analysis/project/hybrid-reserved", test_hybrid_reserved);
  g_test_add_func ("/analysis/project/buy-needs-purchase-inputs", test_buy_needs_purchase_inputs);
  g_test_add_func ("/analysis/project/api-latency", test_api_latency);
  g_test_add_func ("/analysis/project/api-rate-limit", test_api_rate_limit);
  g_test_add_func ("/analysis/project/quote-terms", test_quote_terms);
  g_test_add_func ("/analysis/project/api-mean-tokens", test_api_mean_tokens);
  g_test_add_func ("/analysis/project/ops-failure-waste", test_ops_failure_waste);
  g_test_add_func ("/analysis/project/success-units", test_success_units);
  g_test_add_func ("/analysis/project/run-workload", test_run_workload_project);
  g_test_add_func ("/analysis/project/tipping-points", test_tipping_points);
  g_test_add_func ("/analysis/fit/measured-demo", test_fit_measured_demo);
  g_test_add_func ("/analysis/fit/measured-other-tp", test_fit_measured_other_tp);
  g_test_add_func ("/analysis/fit/engine-version", test_fit_engine_version);
  g_test_add_func ("/analysis/fit/compare-demo", test_fit_compare_demo);
  return g_test_run ();
}
