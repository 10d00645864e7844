/* test-cost.c: the cost model against COST-MODEL.md's worked example and hand-worked cases
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every expected figure below is worked by hand in the comment beside it.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-cost.h"
#include "procura-sensitivity.h"

#define CENT 0.005
#define T730 2628000.0   /* 730 h in seconds */

static void
assert_close (double got,
              double expected,
              double eps)
{
  if (!(fabs (got - expected) <= eps))
    g_error ("expected %.12g, got %.12g (tolerance %g)", expected, got, eps);
}

/* COST-MODEL.md §7 */
static ProcuraCostInputs *
worked_example (void)
{
  ProcuraCostInputs *in = procura_cost_inputs_new ();

  in->name = g_strdup ("8xH100");
  in->kind = PROCURA_CANDIDATE_GPU;
  in->window_hours = 730;
  in->demand_average = 20;
  in->demand_peak = 30;
  in->retry_rate = 0.05;
  in->failure_rate = 0.01;
  in->acceptance_rate = 0.9;
  in->price_per_gpu_hour = 2.5;
  in->gpus_per_replica = 8;
  in->capacity_at_slo = 40;
  in->storage = 300;
  in->network = 200;
  in->serving_stack = 0;
  in->observability = 100;
  in->labor_hours = 20;
  in->labor_rate = 100;
  return in;
}

static void
test_worked_example (void)
{
  g_autoptr(ProcuraCostInputs) in = worked_example ();
  g_autoptr(ProcuraCostResult) r = NULL;
  g_autoptr(GError) error = NULL;

  r = procura_cost_evaluate (in, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);

  g_assert_cmpint (r->replicas, ==, 1);                       /* ceil(30 x 1.05 / 40) */
  assert_close (r->utilization, 0.525, 1e-12);                /* 20 x 1.05 / 40 */
  assert_close (r->provisioned_gpu_cost, 14600, CENT);        /* 1 x 8 x 2.5 x 730 */
  assert_close (r->lines[PROCURA_COST_IDLE_CAPACITY], 6935, CENT);
  assert_close (r->lines[PROCURA_COST_RETRY_WASTE], 438, CENT);
  assert_close (r->lines[PROCURA_COST_GPU_COMPUTE], 7227, CENT);
  assert_close (r->lines[PROCURA_COST_STORAGE], 300, CENT);
  assert_close (r->lines[PROCURA_COST_NETWORK], 200, CENT);
  assert_close (r->lines[PROCURA_COST_SERVING_STACK], 0, CENT);
  assert_close (r->lines[PROCURA_COST_OBSERVABILITY], 100, CENT);
  assert_close (r->lines[PROCURA_COST_PLATFORM_LABOR], 2000, CENT);
  assert_close (r->all_in_cost, 17200, CENT);
  assert_close (r->generated_outputs, 52034400, 1e-6);
  assert_close (r->accepted_outputs, 46830960, 1e-6);
  /* 17,200 / 46,830,960 = 0.000367278 $ per accepted response, 0.367 $ per 1k */
  assert_close (r->cost_per_accepted, 17200.0 / 46830960.0, 1e-15);
  g_assert_cmpfloat (round (r->cost_per_accepted * 1e9) / 1e9, ==, 0.000367278);
  g_assert_cmpfloat (round (r->cost_per_accepted * 1000 * 1000) / 1000, ==, 0.367);

  /* the lines that apply to a GPU candidate, and only those */
  g_assert_true (procura_cost_result_line_applies (r, PROCURA_COST_GPU_COMPUTE));
  g_assert_true (procura_cost_result_line_applies (r, PROCURA_COST_SERVING_STACK));
  g_assert_false (procura_cost_result_line_applies (r, PROCURA_COST_API_TOKENS));
  g_assert_false (procura_cost_result_line_applies (r, PROCURA_COST_MODERATION));

  /* every input used is listed */
  {
    gboolean saw_price = FALSE;
    for (guint i = 0; i < r->inputs->len; i++)
      {
        ProcuraCostInput *ci = g_ptr_array_index (r->inputs, i);
        if (g_str_equal (ci->name, "price_per_gpu_hour"))
          {
            saw_price = TRUE;
            g_assert_cmpfloat (ci->value, ==, 2.5);
          }
      }
    g_assert_true (saw_price);
  }
}

static void
test_replicas_and_headroom (void)
{
  g_autoptr(ProcuraCostInputs) in = procura_cost_inputs_new ();
  g_autoptr(ProcuraCostResult) r = NULL;

  in->demand_average = 60;
  in->demand_peak = 100;
  in->price_per_gpu_hour = 2;
  in->gpus_per_replica = 1;
  in->capacity_at_slo = 40;
  r = procura_cost_evaluate (in, NULL);
  /* ceil(100 / 40) = 3 replicas; u = 60 / 120 = 0.5; G = 3 x 2 x 730 = 4380 */
  g_assert_cmpint (r->replicas, ==, 3);
  assert_close (r->utilization, 0.5, 1e-12);
  assert_close (r->provisioned_gpu_cost, 4380, CENT);
  assert_close (r->lines[PROCURA_COST_IDLE_CAPACITY], 2190, CENT);
  assert_close (r->lines[PROCURA_COST_RETRY_WASTE], 0, CENT);
  assert_close (r->lines[PROCURA_COST_GPU_COMPUTE], 2190, CENT);
  /* acceptance defaults to 1, failure to 0: 60 x 2,628,000 outputs */
  assert_close (r->accepted_outputs, 60 * T730, 1e-6);
  procura_cost_result_free (g_steal_pointer (&r));

  /* exactly at capacity: 80 / 40 = 2 replicas, not 3 */
  in->demand_peak = 80;
  r = procura_cost_evaluate (in, NULL);
  g_assert_cmpint (r->replicas, ==, 2);
  procura_cost_result_free (g_steal_pointer (&r));

  /* 0.1 x 3 is 0.30000000000000004 in binary: still one replica of 0.3 */
  in->demand_average = 0.1;
  in->demand_peak = 0.1 * 3;
  in->capacity_at_slo = 0.3;
  r = procura_cost_evaluate (in, NULL);
  g_assert_cmpint (r->replicas, ==, 1);
  procura_cost_result_free (g_steal_pointer (&r));

  /* headroom 1.5: ceil(30 x 1.5 x 1.05 / 40) = ceil(1.18125) = 2 */
  {
    g_autoptr(ProcuraCostInputs) w = worked_example ();
    w->headroom = 1.5;
    r = procura_cost_evaluate (w, NULL);
    g_assert_cmpint (r->replicas, ==, 2);
    /* u = 20 x 1.05 / 80 = 0.2625; G = 29,200 */
    assert_close (r->utilization, 0.2625, 1e-12);
    assert_close (r->provisioned_gpu_cost, 29200, CENT);
    /* retry waste = 29,200 x 0.2625 x 0.06 / 1.05 = 438 (same busy time) */
    assert_close (r->lines[PROCURA_COST_RETRY_WASTE], 438, CENT);
    assert_close (r->all_in_cost, 29200 + 2600, CENT);
    procura_cost_result_free (g_steal_pointer (&r));
  }

  /* demand above every replica: utilisation capped at 1 with fixed replicas */
  in->demand_average = 10;
  in->demand_peak = 10;
  in->capacity_at_slo = 4;
  in->fixed_replicas = 2;
  r = procura_cost_evaluate (in, NULL);
  g_assert_cmpint (r->replicas, ==, 2);
  assert_close (r->utilization, 1.0, 1e-12);
  assert_close (r->lines[PROCURA_COST_IDLE_CAPACITY], 0, CENT);
}

static void
test_scheduled_autoscaled (void)
{
  g_autoptr(ProcuraCostInputs) in = procura_cost_inputs_new ();
  g_autoptr(ProcuraCostResult) r = NULL;

  /* scheduled: 200 billed hours, demand 10 req/s while running, capacity 20,
   * 1 GPU at 2 $/h: G = 400; u = 0.5; outputs = 10 x 720,000 s x 0.98 x 0.5 */
  in->provisioning = PROCURA_PROVISION_SCHEDULED;
  in->billed_hours = 200;
  in->demand_average = 10;
  in->demand_peak = 10;
  in->price_per_gpu_hour = 2;
  in->capacity_at_slo = 20;
  in->failure_rate = 0.02;
  in->acceptance_rate = 0.5;
  r = procura_cost_evaluate (in, NULL);
  g_assert_cmpint (r->replicas, ==, 1);
  assert_close (r->provisioned_gpu_cost, 400, CENT);
  assert_close (r->utilization, 0.5, 1e-12);
  assert_close (r->lines[PROCURA_COST_IDLE_CAPACITY], 200, CENT);
  /* retry waste = 400 x 0.5 x 0.02 / 1 = 4 */
  assert_close (r->lines[PROCURA_COST_RETRY_WASTE], 4, CENT);
  assert_close (r->lines[PROCURA_COST_GPU_COMPUTE], 196, CENT);
  assert_close (r->accepted_outputs, 10 * 720000.0 * 0.98 * 0.5, 1e-6);
  procura_cost_result_free (g_steal_pointer (&r));

  /* autoscaled: average 10, peak 30, capacity 20 (2 replicas at most), 2 GPUs at 3 $/h,
   * target 0.8. Busy replica-hours = 10 / 20 x 730 = 365; billed = 365 / 0.8 = 456.25
   * (under 2 x 730); G = 456.25 x 2 x 3 = 2737.5; u = 0.8 */
  in->provisioning = PROCURA_PROVISION_AUTOSCALED;
  in->target_utilization = 0.8;
  in->demand_peak = 30;
  in->gpus_per_replica = 2;
  in->price_per_gpu_hour = 3;
  in->failure_rate = 0;
  in->acceptance_rate = 1;
  r = procura_cost_evaluate (in, NULL);
  g_assert_cmpint (r->replicas, ==, 2);
  assert_close (r->provisioned_gpu_cost, 2737.5, CENT);
  assert_close (r->utilization, 0.8, 1e-12);
  assert_close (r->lines[PROCURA_COST_IDLE_CAPACITY], 547.5, CENT);
  assert_close (r->billed_hours, 228.125, 1e-9);     /* 456.25 / 2 per replica */
  assert_close (r->accepted_outputs, 10 * T730, 1e-6);
}

static void
test_api (void)
{
  g_autoptr(ProcuraCostInputs) in = worked_example ();
  g_autoptr(ProcuraCostResult) r = NULL;
  double c = (1000 * 0.5 + 250 * 1.5) / 1e6;   /* 0.000875 $ per first attempt */

  in->kind = PROCURA_CANDIDATE_API;
  in->storage = in->network = in->observability = 0;
  in->labor_hours = 0;
  in->input_tokens = 1000;
  in->output_tokens = 250;
  in->price_input_per_mtok = 0.5;
  in->price_output_per_mtok = 1.5;
  in->gateway = 0;
  r = procura_cost_evaluate (in, NULL);
  g_assert_nonnull (r);
  g_assert_cmpint (r->replicas, ==, 0);
  g_assert_true (isnan (r->utilization));
  /* §5: c x (1 + retry) / acceptance = 0.000875 x 1.05 / 0.9 */
  assert_close (r->cost_per_accepted, c * 1.05 / 0.9, 1e-15);
  /* tokens of first attempts on 52,034,400 completed requests, and the retries */
  assert_close (r->lines[PROCURA_COST_API_TOKENS], 45530.10, CENT);
  assert_close (r->lines[PROCURA_COST_RETRY_WASTE], 2276.505, CENT);
  assert_close (r->all_in_cost, 47806.605, CENT);
  g_assert_false (procura_cost_result_line_applies (r, PROCURA_COST_GPU_COMPUTE));
  g_assert_false (procura_cost_result_line_applies (r, PROCURA_COST_SERVING_STACK));
  procura_cost_result_free (g_steal_pointer (&r));

  /* gateway 1000 $ per window: + 1000 / 46,830,960 per accepted output */
  in->gateway = 1000;
  in->cached_input_tokens = 4000;
  in->price_cached_per_mtok = 0.1;   /* + 0.0004 $ per request */
  r = procura_cost_evaluate (in, NULL);
  assert_close (r->cost_per_accepted, (c + 0.0004) * 1.05 / 0.9 + 1000.0 / 46830960.0, 1e-15);

  /* a rate limit below the peak is a hard limit: 1000 requests/min with 0.05 retries
   * is 1000 / 60 / 1.05 = 15.873 first attempts/s; the load-duration curve (peak 30,
   * trough 2 x 20 - 30 = 10) is above it by (30 - 15.873)^2 / (2 x 20) = 4.989 req/s
   * on average: refused, so the route is not feasible */
  procura_cost_result_free (g_steal_pointer (&r));
  in->rate_limit_rpm = 1000;
  r = procura_cost_evaluate (in, NULL);
  {
    double limit = 1000.0 / 60.0 / 1.05;
    double refused = (30 - limit) * (30 - limit) / 40.0;

    g_assert_false (r->feasible);
    g_assert_nonnull (strstr (r->infeasible_reason, "rate limit"));
    assert_close (r->api_limit_rps, limit, 1e-12);
    assert_close (r->api_peak_rps, limit, 1e-12);
    assert_close (r->unserved_demand_average, refused, 1e-9);
    assert_close (r->served_demand_average, 20 - refused, 1e-9);
    /* the tokens billed are those of the requests served */
    assert_close (r->lines[PROCURA_COST_API_TOKENS], (c + 0.0004) * (20 - refused) * 2628000 * 0.99, 1e-6);
    g_assert_cmpuint (r->notes->len, ==, 1);
  }
  procura_cost_result_free (g_steal_pointer (&r));

  /* tokens per minute: 5,250 tokens a request (1000 + 4000 cached + 250) at 2,000,000
   * tokens/min is 6.349 requests/s, below the 1000/min limit: the tighter one rules */
  in->rate_limit_tpm = 2e6;
  assert_close (procura_cost_api_limit_rps (in), 2e6 / 5250.0 / 60.0 / 1.05, 1e-12);
  /* above the peak: feasible, nothing refused */
  in->rate_limit_rpm = 2000;
  in->rate_limit_tpm = NAN;
  r = procura_cost_evaluate (in, NULL);
  g_assert_true (r->feasible);
  g_assert_cmpfloat (r->unserved_demand_average, ==, 0);
  assert_close (r->api_peak_rps, 30, 1e-12);
}

static void
test_overflow (void)
{
  /* peak = average: a flat load */
  assert_close (procura_cost_overflow (10, 10, 8), 2, 1e-12);
  assert_close (procura_cost_overflow (10, 10, 12), 0, 1e-12);
  /* average 20, peak 30: trough 10 over the whole window; capacity 24:
   * the triangle above 24 = (30 - 24)^2 / (2 x (30 - 10)) = 0.9 */
  assert_close (procura_cost_overflow (20, 30, 24), 0.9, 1e-12);
  /* capacity under the trough: everything above it, 20 - 8 */
  assert_close (procura_cost_overflow (20, 30, 8), 12, 1e-12);
  /* average 10, peak 40: the load falls from 40 to 0 over half the window (mean 10);
   * above 20 for the first quarter: area 0.5 x 0.25 x 20 = 2.5 */
  assert_close (procura_cost_overflow (10, 40, 20), 2.5, 1e-12);
  assert_close (procura_cost_overflow (10, 40, 0), 10, 1e-12);
  assert_close (procura_cost_overflow (10, 40, 40), 0, 1e-12);
}

static void
test_hybrid (void)
{
  g_autoptr(ProcuraCostInputs) in = procura_cost_inputs_new ();
  g_autoptr(ProcuraCostResult) r = NULL;
  in->kind = PROCURA_CANDIDATE_HYBRID;
  in->demand_average = 20;
  in->demand_peak = 30;
  in->price_per_gpu_hour = 2;
  in->gpus_per_replica = 1;
  in->capacity_at_slo = 12;
  in->input_tokens = 1000;
  in->output_tokens = 100;
  in->price_input_per_mtok = 1.0;
  in->price_output_per_mtok = 2.0;
  in->labor_hours = 10;
  in->labor_rate = 50;
  in->fixed_replicas = 2;
  r = procura_cost_evaluate (in, NULL);
  g_assert_nonnull (r);
  /* 2 replicas (what carries the average, ceil(20 / 12)), 24 req/s; overflow 0.9 req/s */
  g_assert_cmpint (r->replicas, ==, 2);
  assert_close (r->api_demand_average, 0.9, 1e-12);
  assert_close (r->gpu_demand_average, 19.1, 1e-12);
  assert_close (r->api_share, 0.045, 1e-12);
  /* GPUs: G = 2 x 2 x 730 = 2920, u = 19.1 / 24 */
  assert_close (r->provisioned_gpu_cost, 2920, CENT);
  assert_close (r->utilization, 19.1 / 24.0, 1e-12);
  assert_close (r->lines[PROCURA_COST_IDLE_CAPACITY], 2920 * (1 - 19.1 / 24.0), CENT);
  /* API: 0.9 req/s x 2,628,000 s x 0.0012 $ = 2838.24 $ */
  assert_close (r->lines[PROCURA_COST_API_TOKENS], 2838.24, CENT);
  assert_close (r->lines[PROCURA_COST_PLATFORM_LABOR], 500, CENT);
  assert_close (r->all_in_cost, 2920 + 2838.24 + 500, CENT);
  assert_close (r->accepted_outputs, 20 * T730, 1e-6);
  assert_close (r->cost_per_accepted, (2920 + 2838.24 + 500) / (20 * T730), 1e-15);
  procura_cost_result_free (g_steal_pointer (&r));

  /* free to choose: 1 replica sends (30 - 12)^2 / 40 = 8.1 req/s to the API
   * (1460 + 25,544.16 $), 2 replicas 0.9 req/s (2920 + 2838.24 $), 3 replicas cover the
   * peak (4380 $): the third replica is cheaper than the tokens it saves */
  in->fixed_replicas = 0;
  r = procura_cost_evaluate (in, NULL);
  g_assert_cmpint (r->replicas, ==, 3);
  assert_close (r->api_demand_average, 0, 1e-12);
  assert_close (r->all_in_cost, 4380 + 500, CENT);
  procura_cost_result_free (g_steal_pointer (&r));

  /* at 10 $ per GPU-hour a replica (7300 $) costs more than the tokens: 2 replicas,
   * 14,600 + 2838.24 $, against 21,900 for 3 and 7300 + 25,544.16 for 1 */
  in->price_per_gpu_hour = 10;
  r = procura_cost_evaluate (in, NULL);
  g_assert_cmpint (r->replicas, ==, 2);
  assert_close (r->api_demand_average, 0.9, 1e-12);
  assert_close (r->all_in_cost, 14600 + 2838.24 + 500, CENT);
  procura_cost_result_free (g_steal_pointer (&r));

  /* an API limit of 100 requests per minute (1.667 req/s): 2 replicas would leave a
   * peak of 30 - 24 = 6 req/s to the API, so 3 replicas are the fewest allowed */
  in->rate_limit_rpm = 100;
  r = procura_cost_evaluate (in, NULL);
  g_assert_true (r->feasible);
  g_assert_cmpint (r->replicas, ==, 3);
  g_assert_cmpfloat (r->api_peak_rps, <=, 100.0 / 60.0);
  procura_cost_result_free (g_steal_pointer (&r));

  /* fixed at 2 replicas with that limit: 6 - 1.667 req/s at the peak refused */
  in->fixed_replicas = 2;
  r = procura_cost_evaluate (in, NULL);
  g_assert_false (r->feasible);
  assert_close (r->api_peak_rps, 100.0 / 60.0, 1e-12);
  /* refused: the triangle above 24 + 1.667 = (30 - 25.667)^2 / 40 */
  assert_close (r->unserved_demand_average, (30 - 24 - 100.0 / 60.0) * (30 - 24 - 100.0 / 60.0) / 40.0, 1e-12);
}

static void
test_media (void)
{
  g_autoptr(ProcuraCostInputs) in = worked_example ();
  g_autoptr(ProcuraCostResult) r = NULL;

  in->media = TRUE;
  in->moderation = 500;
  in->queue_overhead = 50;
  in->operator_review = 1000;
  r = procura_cost_evaluate (in, NULL);
  g_assert_true (procura_cost_result_line_applies (r, PROCURA_COST_MODERATION));
  assert_close (r->lines[PROCURA_COST_MODERATION], 500, CENT);
  assert_close (r->all_in_cost, 17200 + 1550, CENT);
  assert_close (r->cost_per_accepted, 18750.0 / 46830960.0, 1e-15);
}

static void
test_run_workload (void)
{
  g_autoptr(ProcuraRunCostInputs) in = procura_run_cost_inputs_new ();
  g_autoptr(ProcuraCostResult) r = NULL;
  g_autoptr(GError) error = NULL;

  /* 64 GPUs (8 nodes) at 2 $/h for 100 h: 12,800 $; cluster price 128 $/h.
   * 9 checkpoints: interval 100 / 10 = 10 h, lost 5 h per interruption by default;
   * checkpointing = 9 x 0.1 h x 128 + 50 = 165.2 $.
   * interruptions = 100 h x 8 nodes / 1000 h MTBF = 0.8; waste = 0.8 x (5 + 0.5) x 128 = 563.2 $.
   * total = 12,800 + 100 + 20 + 165.2 + 563.2 + 1,000 = 14,648.4 $; / 0.8 = 18,310.5 $ */
  in->gpus = 64;
  in->nodes = 8;
  in->price_per_gpu_hour = 2;
  in->wall_clock_hours = 100;
  in->storage = 100;
  in->network = 20;
  in->checkpoints = 9;
  in->checkpoint_write_hours = 0.1;
  in->checkpoint_storage = 50;
  in->mtbf_node_hours = 1000;
  in->restart_hours = 0.5;
  in->labor_hours = 10;
  in->labor_rate = 100;
  in->success_probability = 0.8;
  r = procura_cost_run_workload (in, &error);
  g_assert_no_error (error);
  assert_close (r->lines[PROCURA_COST_GPU_COMPUTE], 12800, CENT);
  assert_close (r->lines[PROCURA_COST_CHECKPOINTING], 165.2, CENT);
  assert_close (r->lines[PROCURA_COST_FAILED_RUN_WASTE], 563.2, CENT);
  assert_close (r->lines[PROCURA_COST_PLATFORM_LABOR], 1000, CENT);
  assert_close (r->all_in_cost, 14648.4, CENT);
  assert_close (r->cost_per_accepted, 18310.5, CENT);
  procura_cost_result_free (g_steal_pointer (&r));

  /* hours from tokens: 3.6e9 tokens at 10,000 tok/s = 100 h; same figures */
  in->wall_clock_hours = NAN;
  in->tokens_to_train = 3.6e9;
  in->tokens_per_s = 10000;
  r = procura_cost_run_workload (in, NULL);
  assert_close (r->all_in_cost, 14648.4, CENT);
  procura_cost_result_free (g_steal_pointer (&r));

  in->success_probability = 0;
  r = procura_cost_run_workload (in, &error);
  g_assert_null (r);
  g_assert_error (error, PROCURA_COST_ERROR, PROCURA_COST_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "success_probability"));
}

static void
test_validation (void)
{
  g_autoptr(ProcuraCostInputs) in = worked_example ();
  g_autoptr(GError) error = NULL;

#define EXPECT_INVALID(stmt, member) \
  G_STMT_START { \
    g_autoptr(ProcuraCostInputs) _c = procura_cost_inputs_copy (in); \
    g_autoptr(ProcuraCostResult) _r = NULL; \
    g_autoptr(GError) _e = NULL; \
    { ProcuraCostInputs *c = _c; stmt; } \
    _r = procura_cost_evaluate (_c, &_e); \
    g_assert_null (_r); \
    g_assert_error (_e, PROCURA_COST_ERROR, PROCURA_COST_ERROR_INVALID); \
    if (!g_str_has_prefix (_e->message, member ":")) \
      g_error ("expected an error on %s, got: %s", member, _e->message); \
  } G_STMT_END

  EXPECT_INVALID (c->capacity_at_slo = 0, "capacity_at_slo");
  EXPECT_INVALID (c->capacity_at_slo = NAN, "capacity_at_slo");
  EXPECT_INVALID (c->price_per_gpu_hour = -1, "price_per_gpu_hour");
  EXPECT_INVALID (c->retry_rate = 1.5, "retry_rate");
  EXPECT_INVALID (c->failure_rate = -0.1, "failure_rate");
  EXPECT_INVALID (c->acceptance_rate = 0, "acceptance_rate");
  EXPECT_INVALID (c->acceptance_rate = 1.01, "acceptance_rate");
  EXPECT_INVALID (c->storage = -5, "storage");
  EXPECT_INVALID (c->demand_peak = 10, "demand.peak");
  EXPECT_INVALID (c->gpus_per_replica = 0, "gpus_per_replica");
  EXPECT_INVALID ({ c->provisioning = PROCURA_PROVISION_SCHEDULED; c->billed_hours = 800; }, "billed_hours");
  EXPECT_INVALID ({ c->provisioning = PROCURA_PROVISION_AUTOSCALED; c->target_utilization = NAN; },
                  "target_utilization");
  EXPECT_INVALID ({ c->kind = PROCURA_CANDIDATE_API; c->price_output_per_mtok = NAN; },
                  "price_output_per_mtok");
#undef EXPECT_INVALID

  g_assert_true (procura_cost_inputs_validate (in, "candidates[0]", &error));
  in->capacity_at_slo = 0;
  g_assert_false (procura_cost_inputs_validate (in, "candidates[0]", &error));
  g_assert_cmpstr (error->message, ==, "candidates[0].capacity_at_slo: must be > 0");
}

static void
test_curve (void)
{
  g_autoptr(ProcuraCostInputs) in = procura_cost_inputs_new ();
  g_autoptr(GArray) curve = NULL;
  gboolean saw_step_1 = FALSE, saw_step_2 = FALSE;

  /* 1 GPU at 1 $/h, capacity 10, peak = average: replicas step at 10 and 20 req/s */
  in->demand_average = 5;
  in->demand_peak = 5;
  in->price_per_gpu_hour = 1;
  in->capacity_at_slo = 10;
  curve = procura_cost_curve (in, 30, 30);
  g_assert_cmpuint (curve->len, >=, 30);
  for (guint i = 0; i < curve->len; i++)
    {
      const ProcuraCostCurvePoint *p = &g_array_index (curve, ProcuraCostCurvePoint, i);
      int replicas = (int) MAX (1, ceil (p->demand / 10 - 1e-9));

      if (i > 0)
        g_assert_cmpfloat (p->demand, >=, g_array_index (curve, ProcuraCostCurvePoint, i - 1).demand);
      g_assert_cmpint (p->replicas, ==, replicas);
      /* all-in = replicas x 730 $, accepted = demand x 2,628,000 */
      assert_close (p->all_in_cost, replicas * 730.0, 1e-9);
      assert_close (p->cost_per_accepted, replicas * 730.0 / (p->demand * T730), 1e-15);
      if (fabs (p->demand - 10) < 1e-9 && p->replicas == 1)
        saw_step_1 = TRUE;
      if (p->demand > 10 && p->demand < 10.001 && p->replicas == 2)
        saw_step_2 = TRUE;
    }
  /* the last point with one replica and the first with two are both on the curve */
  g_assert_true (saw_step_1);
  g_assert_true (saw_step_2);
}

static void
test_break_even (void)
{
  g_autoptr(ProcuraCostInputs) gpu = procura_cost_inputs_new ();
  g_autoptr(ProcuraCostInputs) api = procura_cost_inputs_new ();
  g_autoptr(GArray) be = NULL;
  const ProcuraBreakEven *b;

  gpu->demand_average = 5;
  gpu->demand_peak = 5;
  gpu->price_per_gpu_hour = 1;
  gpu->capacity_at_slo = 10;
  api->kind = PROCURA_CANDIDATE_API;
  api->demand_average = 5;
  api->demand_peak = 5;
  api->input_tokens = 100;
  api->output_tokens = 0;
  api->price_input_per_mtok = 1;   /* 1e-4 $ per request */
  api->price_output_per_mtok = 0;

  /* 730 / (d x 2,628,000) = 1e-4 → d = 730 / 262.8 = 2.7778 req/s; above it the GPU
   * is cheaper and stays so (two replicas at 10+ cost 5.6e-5, three at 20+ 4.2e-5) */
  be = procura_cost_break_even (gpu, api, 30);
  g_assert_cmpuint (be->len, ==, 1);
  b = &g_array_index (be, ProcuraBreakEven, 0);
  assert_close (b->demand, 730.0 / 262.8, 1e-6);
  assert_close (b->utilization, 730.0 / 262.8 / 10, 1e-6);
  assert_close (b->cost_per_accepted, 1e-4, 1e-9);
  g_assert_true (b->gpu_cheaper_above);
  g_array_unref (g_steal_pointer (&be));

  /* an API 10x cheaper (1e-5 $): the GPU catches up only at 730 / 26.28 = 27.8 req/s,
   * where it needs 3 replicas: 2190 / (d x T) = 1e-5 → d = 83.3 > 30: no crossing */
  api->price_input_per_mtok = 0.1;
  be = procura_cost_break_even (gpu, api, 30);
  g_assert_cmpuint (be->len, ==, 0);
}

static void
test_sensitivity (void)
{
  g_autoptr(ProcuraCostInputs) in = worked_example ();
  g_autoptr(GPtrArray) rows = procura_sensitivity_run (in, 0.10);
  const double acc = 46830960.0;

  g_assert_cmpuint (rows->len, ==, 5);
  for (guint i = 0; i < rows->len; i++)
    {
      const ProcuraSensitivity *s = g_ptr_array_index (rows, i);

      assert_close (s->base_cost, 17200 / acc, 1e-15);
      if (g_str_equal (s->input, "price"))
        {
          /* ±10 % of 14,600 $ of GPU time */
          assert_close (s->cost_low, (17200 - 1460) / acc, 1e-15);
          assert_close (s->cost_high, (17200 + 1460) / acc, 1e-15);
        }
      else if (g_str_equal (s->input, "acceptance_rate"))
        {
          assert_close (s->low_value, 0.81, 1e-12);
          assert_close (s->high_value, 0.99, 1e-12);
          assert_close (s->cost_low, 17200 / (52034400 * 0.81), 1e-15);
          assert_close (s->cost_high, 17200 / (52034400 * 0.99), 1e-15);
        }
      else if (g_str_equal (s->input, "labor"))
        {
          /* 18 h and 22 h at 100 $/h */
          assert_close (s->cost_low, 17000 / acc, 1e-15);
          assert_close (s->cost_high, 17400 / acc, 1e-15);
        }
      else if (g_str_equal (s->input, "utilization"))
        {
          /* u 0.525 ± 10 % through demand 18 and 22 req/s, one replica held */
          assert_close (s->low_value, 0.4725, 1e-12);
          assert_close (s->cost_low, 17200 / (18 * T730 * 0.99 * 0.9), 1e-15);
          assert_close (s->cost_high, 17200 / (22 * T730 * 0.99 * 0.9), 1e-15);
        }
      else if (g_str_equal (s->input, "retry_rate"))
        {
          /* the retry rate only moves money between lines while the replicas hold */
          assert_close (s->low_value, 0.045, 1e-12);
          assert_close (s->cost_low, 17200 / acc, 1e-15);
        }
      else
        g_assert_not_reached ();
    }
}

static void
test_what_if (void)
{
  g_autoptr(ProcuraCostInputs) in = worked_example ();
  g_autoptr(GPtrArray) w = procura_what_if_run (in);
  const double acc = 46830960.0;

  g_assert_cmpuint (w->len, ==, 3);
  for (guint i = 0; i < w->len; i++)
    {
      const ProcuraWhatIf *x = g_ptr_array_index (w, i);

      g_assert_nonnull (x->result);
      if (g_str_equal (x->id, "traffic-x3"))
        {
          /* peak 90 x 1.05 / 40 = 2.36 → 3 replicas: 43,800 $ + 2,600 $, three times the outputs */
          g_assert_false (x->estimate);
          g_assert_cmpint (x->result->replicas, ==, 3);
          assert_close (x->result->cost_per_accepted, 46400 / (3 * acc), 1e-15);
        }
      else if (g_str_equal (x->id, "context-x2"))
        {
          /* capacity 20: ceil(31.5 / 20) = 2 replicas: 29,200 + 2,600 */
          g_assert_true (x->estimate);
          g_assert_cmpint (x->result->replicas, ==, 2);
          assert_close (x->result->cost_per_accepted, 31800 / acc, 1e-15);
        }
      else if (g_str_equal (x->id, "larger-model"))
        {
          /* 16 GPUs per replica, capacity per replica unchanged: 29,200 + 2,600 */
          g_assert_cmpint (x->result->replicas, ==, 1);
          assert_close (x->result->cost_per_accepted, 31800 / acc, 1e-15);
        }
      else
        g_assert_not_reached ();
    }
}

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

static GPtrArray *
parse (const char  *text,
       GError     **error)
{
  g_autoptr(JsonParser) p = json_parser_new ();

  g_assert_true (json_parser_load_from_data (p, text, -1, NULL));
  return procura_cost_inputs_from_json (json_parser_get_root (p), "inputs.json", error);
}

static void
test_json_inputs (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) in = parse (section8, &error);
  g_autoptr(ProcuraCostResult) r = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *o, *lines;

  g_assert_no_error (error);
  g_assert_cmpuint (in->len, ==, 2);
  r = procura_cost_evaluate (g_ptr_array_index (in, 0), &error);
  assert_close (r->all_in_cost, 17200, CENT);
  assert_close (r->cost_per_accepted, 17200.0 / 46830960.0, 1e-15);

  node = procura_cost_result_to_json (r);
  o = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "8xH100");
  g_assert_cmpint (json_object_get_int_member (o, "replicas"), ==, 1);
  assert_close (json_object_get_double_member (o, "utilization"), 0.525, 1e-12);
  lines = json_object_get_object_member (o, "lines");
  {
    const char *members[] = { "gpu_compute", "idle_capacity", "retry_waste", "storage", "network",
                              "serving_stack", "observability", "platform_labor" };
    for (guint i = 0; i < G_N_ELEMENTS (members); i++)
      g_assert_true (json_object_has_member (lines, members[i]));
    g_assert_cmpuint (json_object_get_size (lines), ==, G_N_ELEMENTS (members));
  }
  assert_close (json_object_get_double_member (lines, "idle_capacity"), 6935, CENT);
  assert_close (json_object_get_double_member (o, "accepted_outputs"), 46830960, 1e-6);
  procura_cost_result_free (g_steal_pointer (&r));

  r = procura_cost_evaluate (g_ptr_array_index (in, 1), &error);
  assert_close (r->cost_per_accepted, 0.000875 * 1.05 / 0.9, 1e-15);
}

static void
test_json_run (void)
{
  /* the run of test_run_workload as a "kind": "run" candidate, without "demand" */
  const char *json =
    "{\"candidates\": [{\"name\": \"pretrain\", \"kind\": \"run\", \"gpus\": 64, \"nodes\": 8,"
    " \"price_per_gpu_hour\": 2, \"wall_clock_hours\": 100, \"storage\": 100, \"network\": 20,"
    " \"checkpoints\": 9, \"checkpoint_write_hours\": 0.1, \"checkpoint_storage\": 50,"
    " \"mtbf_node_hours\": 1000, \"restart_hours\": 0.5, \"labor_hours\": 10, \"labor_rate\": 100,"
    " \"success_probability\": 0.8}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) in = parse (json, &error);
  g_autoptr(ProcuraCostResult) r = NULL;
  g_autoptr(JsonNode) node = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (in->len, ==, 1);
  r = procura_cost_evaluate (g_ptr_array_index (in, 0), &error);
  g_assert_no_error (error);
  g_assert_true (r->run_workload);
  assert_close (r->all_in_cost, 14648.4, CENT);
  assert_close (r->cost_per_accepted, 18310.5, CENT);
  node = procura_cost_result_to_json (r);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "kind"), ==, "run");
  g_assert_true (json_object_has_member (json_object_get_object_member (json_node_get_object (node), "lines"),
                                         "failed_run_waste"));

  g_clear_pointer (&in, g_ptr_array_unref);
  in = parse ("{\"candidates\": [{\"name\": \"r\", \"kind\": \"run\", \"gpus\": 8, "
              "\"price_per_gpu_hour\": 2, \"wall_clock_hours\": 10, \"success_probability\": 1.5}]}", &error);
  g_assert_null (in);
  g_assert_cmpstr (error->message, ==, "inputs.json: candidates[0].success_probability: must be between 0 and 1 (above 0)");
}

static void
test_json_errors (void)
{
  struct {
    const char *json;
    const char *message;
  } cases[] = {
    { "{\"demand\": {\"average\": 1}, \"candidates\": [{\"name\": \"a\", \"kind\": \"gpu\", "
      "\"price_per_gpu_hour\": 1, \"gpus_per_replica\": 1}]}",
      "inputs.json: candidates[0].capacity_at_slo: missing (a number is required)" },
    { "{\"demand\": {\"average\": 1}, \"candidates\": [{\"name\": \"a\", \"kind\": \"gpu\", "
      "\"price_per_gpu_hour\": 1, \"gpus_per_replica\": 1, \"capacity_at_slo\": 0}]}",
      "inputs.json: candidates[0].capacity_at_slo: must be > 0" },
    { "{\"demand\": {\"average\": 1}, \"candidates\": [{\"name\": \"a\", \"kind\": \"gpu\", "
      "\"price_per_gpu_hour\": -2, \"gpus_per_replica\": 1, \"capacity_at_slo\": 3}]}",
      "inputs.json: candidates[0].price_per_gpu_hour: must be a number >= 0" },
    { "{\"demand\": {\"average\": 1}, \"retry_rate\": 1.2, \"candidates\": [{\"name\": \"a\", \"kind\": \"api\", "
      "\"input_tokens\": 1, \"output_tokens\": 1, \"price_input_per_mtok\": 1, \"price_output_per_mtok\": 1}]}",
      "inputs.json: retry_rate: must be between 0 and 1" },
    { "{\"candidates\": []}", "inputs.json: demand: missing (an object {\"average\", \"peak\"} is required)" },
    { "{\"demand\": {\"peak\": 3}, \"candidates\": []}",
      "inputs.json: demand.average: missing (a number is required)" },
    { "{\"demand\": {\"average\": 1}, \"candidates\": [{\"name\": \"a\", \"kind\": \"tpu\"}]}",
      "inputs.json: candidates[0].kind: must be \"gpu\", \"api\", \"hybrid\" or \"run\"" },
    { "{\"demand\": {\"average\": 1}, \"candidates\": [{\"name\": \"a\", \"kind\": \"api\", "
      "\"input_tokens\": \"many\"}]}",
      "inputs.json: candidates[0].input_tokens: must be a number" },
    { "{\"demand\": {\"average\": 1}, \"candidates\": [{\"name\": \"a\", \"kind\": \"gpu\", "
      "\"price_per_gpu_hour\": 1, \"gpus_per_replica\": 1, \"capacity_at_slo\": 3, \"labor_rate\": -1}]}",
      "inputs.json: candidates[0].labor_rate: must be a number >= 0" },
    { "[1, 2]", "inputs.json: the document must be a JSON object" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) in = parse (cases[i].json, &error);

      g_assert_null (in);
      g_assert_error (error, PROCURA_COST_ERROR, PROCURA_COST_ERROR_INVALID);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/cost/worked-example", test_worked_example);
  g_test_add_func ("/analysis/cost/replicas-headroom", test_replicas_and_headroom);
  g_test_add_func ("/analysis/cost/scheduled-autoscaled", test_scheduled_autoscaled);
  g_test_add_func ("/analysis/cost/api", test_api);
  g_test_add_func ("/analysis/cost/overflow", test_overflow);
  g_test_add_func ("/analysis/cost/hybrid", test_hybrid);
  g_test_add_func ("/analysis/cost/media", test_media);
  g_test_add_func ("/analysis/cost/run-workload", test_run_workload);
  g_test_add_func ("/analysis/cost/validation", test_validation);
  g_test_add_func ("/analysis/cost/curve", test_curve);
  g_test_add_func ("/analysis/cost/break-even", test_break_even);
  g_test_add_func ("/analysis/cost/sensitivity", test_sensitivity);
  g_test_add_func ("/analysis/cost/what-if", test_what_if);
  g_test_add_func ("/analysis/cost/json-inputs", test_json_inputs);
  g_test_add_func ("/analysis/cost/json-run", test_json_run);
  g_test_add_func ("/analysis/cost/json-errors", test_json_errors);
  return g_test_run ();
}
