/* procura-cost.c: the cost model of shared/design/COST-MODEL.md
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "procura-import.h"
#include "procura-json.h"
#include "procura-json-out.h"
#include "procura-cost.h"
#include "procura-units.h"

G_DEFINE_QUARK (procura-cost-error-quark, procura_cost_error)

static const char * const line_names[PROCURA_COST_N_LINES] = {
  "gpu_compute",
  "idle_capacity",
  "retry_waste",
  "storage",
  "network",
  "serving_stack",
  "observability",
  "platform_labor",
  "api_tokens",
  "gateway",
  "moderation",
  "queue_overhead",
  "operator_review",
  "checkpointing",
  "failed_run_waste",
  "storage_volume",
  "egress",
  "overage",
  "commitment_shortfall",
  "support",
  "setup_fee",
  "failure_waste",
};

const char *
procura_cost_line_name (ProcuraCostLine line)
{
  if ((int) line < 0 || line >= PROCURA_COST_N_LINES)
    return NULL;
  return line_names[line];
}

#define BIT(l) (1u << (l))

/* ---- inputs --------------------------------------------------------------- */

void
procura_cost_input_free (ProcuraCostInput *i)
{
  if (i == NULL)
    return;
  g_free (i->name);
  g_free (i->origin);
  g_free (i);
}

static ProcuraCostInput *
cost_input_new (const char *name,
                double      value,
                const char *origin)
{
  ProcuraCostInput *i = g_new0 (ProcuraCostInput, 1);

  i->name = g_strdup (name);
  i->value = value;
  i->origin = g_strdup (origin);
  return i;
}

ProcuraCostInputs *
procura_cost_inputs_new (void)
{
  ProcuraCostInputs *in = g_new0 (ProcuraCostInputs, 1);

  in->kind = PROCURA_CANDIDATE_GPU;
  in->window_hours = PROCURA_DEFAULT_WINDOW_HOURS;
  in->demand_average = NAN;
  in->demand_peak = NAN;
  in->acceptance_rate = 1.0;
  in->headroom = 1.0;
  in->outputs_per_request = 1.0;
  in->price_per_gpu_hour = NAN;
  in->gpus_per_replica = 1;
  in->capacity_at_slo = NAN;
  in->provisioning = PROCURA_PROVISION_ALWAYS_ON;
  in->billed_hours = NAN;
  in->target_utilization = NAN;
  in->input_tokens = 0;
  in->output_tokens = 0;
  in->rate_limit_rpm = NAN;
  in->rate_limit_tpm = NAN;
  in->support_pct = 0;
  in->setup_fee = 0;
  in->setup_amortization_hours = NAN;
  in->min_commitment = 0;
  in->overage_per_gpu_hour = NAN;
  in->storage_gb = 0;
  in->storage_per_gb_month = 0;
  in->egress_gb = 0;
  in->egress_per_gb = 0;
  in->ops_failed_requests = 0;
  in->ops_idle_replica_hours = 0;
  in->trace = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_cost_input_free);
  return in;
}

ProcuraCostInputs *
procura_cost_inputs_copy (const ProcuraCostInputs *in)
{
  ProcuraCostInputs *c;

  if (in == NULL)
    return NULL;
  c = g_memdup2 (in, sizeof *in);
  c->name = g_strdup (in->name);
  c->run_inputs = procura_run_cost_inputs_copy (in->run_inputs);
  c->trace = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_cost_input_free);
  if (in->trace != NULL)
    for (guint i = 0; i < in->trace->len; i++)
      {
        const ProcuraCostInput *t = g_ptr_array_index (in->trace, i);
        g_ptr_array_add (c->trace, cost_input_new (t->name, t->value, t->origin));
      }
  return c;
}

void
procura_cost_inputs_free (ProcuraCostInputs *in)
{
  if (in == NULL)
    return;
  g_free (in->name);
  g_clear_pointer (&in->trace, g_ptr_array_unref);
  g_clear_pointer (&in->run_inputs, procura_run_cost_inputs_free);
  g_free (in);
}

void
procura_cost_inputs_note (ProcuraCostInputs *in,
                          const char        *name,
                          const char        *origin)
{
  for (guint i = 0; i < in->trace->len; i++)
    {
      ProcuraCostInput *t = g_ptr_array_index (in->trace, i);
      if (g_strcmp0 (t->name, name) == 0)
        {
          g_free (t->origin);
          t->origin = g_strdup (origin);
          return;
        }
    }
  g_ptr_array_add (in->trace, cost_input_new (name, NAN, origin));
}

static const char *
origin_of (GPtrArray  *trace,
           const char *name)
{
  if (trace != NULL)
    for (guint i = 0; i < trace->len; i++)
      {
        const ProcuraCostInput *t = g_ptr_array_index (trace, i);
        if (g_strcmp0 (t->name, name) == 0)
          return t->origin;
      }
  return "input";
}

static gboolean
invalid (GError    **error,
         const char *prefix,
         const char *member,
         const char *what)
{
  g_set_error (error, PROCURA_COST_ERROR, PROCURA_COST_ERROR_INVALID,
               "%s%s%s: %s", prefix ? prefix : "", prefix && *prefix ? "." : "", member, what);
  return FALSE;
}

#define CHECK(cond, member, what) \
  G_STMT_START { if (!(cond)) return invalid (error, prefix, member, what); } G_STMT_END

static gboolean
validate_shared (const ProcuraCostInputs *in,
                 const char              *prefix,
                 GError                 **error)
{
  struct { const char *name; double v; } money[] = {
    { "storage", in->storage }, { "network", in->network },
    { "serving_stack", in->serving_stack }, { "observability", in->observability },
    { "labor_hours", in->labor_hours }, { "labor_rate", in->labor_rate },
    { "moderation", in->moderation }, { "queue_overhead", in->queue_overhead },
    { "operator_review", in->operator_review }, { "gateway", in->gateway },
    { "setup_fee", in->setup_fee }, { "min_commitment", in->min_commitment },
    { "storage_gb", in->storage_gb }, { "storage_per_gb_month", in->storage_per_gb_month },
    { "egress_gb", in->egress_gb }, { "egress_per_gb", in->egress_per_gb },
    { "ops_failed_requests", in->ops_failed_requests },
    { "ops_idle_replica_hours", in->ops_idle_replica_hours },
  };

  CHECK (isfinite (in->window_hours) && in->window_hours > 0, "window_hours", "must be a number > 0");
  CHECK (isfinite (in->demand_average) && in->demand_average >= 0,
         "demand.average", "must be a number >= 0 (requests/s)");
  CHECK (isnan (in->demand_peak) || (isfinite (in->demand_peak) && in->demand_peak >= in->demand_average),
         "demand.peak", "must be a number >= demand.average (requests/s)");
  CHECK (isfinite (in->retry_rate) && in->retry_rate >= 0 && in->retry_rate <= 1,
         "retry_rate", "must be between 0 and 1");
  CHECK (isfinite (in->failure_rate) && in->failure_rate >= 0 && in->failure_rate < 1,
         "failure_rate", "must be between 0 and 1 (below 1)");
  CHECK (isfinite (in->acceptance_rate) && in->acceptance_rate > 0 && in->acceptance_rate <= 1,
         "acceptance_rate", "must be between 0 and 1 (above 0)");
  CHECK (isfinite (in->headroom) && in->headroom > 0, "headroom", "must be a number > 0");
  CHECK (isfinite (in->outputs_per_request) && in->outputs_per_request > 0,
         "outputs_per_request", "must be a number > 0");
  for (guint i = 0; i < G_N_ELEMENTS (money); i++)
    CHECK (isfinite (money[i].v) && money[i].v >= 0, money[i].name, "must be a number >= 0");
  CHECK (isfinite (in->support_pct) && in->support_pct >= 0 && in->support_pct <= 100,
         "support_pct", "must be a percentage from 0 to 100");
  CHECK (isnan (in->setup_amortization_hours) ||
         (isfinite (in->setup_amortization_hours) && in->setup_amortization_hours > 0),
         "setup_amortization_hours", "must be a number of hours > 0");
  CHECK (isnan (in->overage_per_gpu_hour) ||
         (isfinite (in->overage_per_gpu_hour) && in->overage_per_gpu_hour >= 0),
         "overage_per_gpu_hour", "must be a number >= 0");

  return TRUE;
}

gboolean
procura_cost_inputs_validate (const ProcuraCostInputs *in,
                              const char              *prefix,
                              GError                 **error)
{
  gboolean gpu_side = in->kind == PROCURA_CANDIDATE_GPU || in->kind == PROCURA_CANDIDATE_HYBRID;
  gboolean api_side = in->kind == PROCURA_CANDIDATE_API || in->kind == PROCURA_CANDIDATE_HYBRID;

  if (!validate_shared (in, prefix, error))
    return FALSE;
  if (gpu_side)
    {
      CHECK (isfinite (in->price_per_gpu_hour) && in->price_per_gpu_hour >= 0,
             "price_per_gpu_hour", "must be a number >= 0");
      CHECK (in->gpus_per_replica >= 1 && in->gpus_per_replica <= 65536, "gpus_per_replica",
             "must be an integer from 1 to 65536");
      CHECK (isfinite (in->capacity_at_slo) && in->capacity_at_slo > 0,
             "capacity_at_slo", "must be > 0");
      CHECK (in->fixed_replicas >= 0 && in->fixed_replicas <= 1000000, "replicas",
             "must be an integer from 0 to 1000000");
      if (in->provisioning == PROCURA_PROVISION_SCHEDULED)
        CHECK (isfinite (in->billed_hours) && in->billed_hours >= 0 && in->billed_hours <= in->window_hours,
               "billed_hours", "must be between 0 and window_hours for scheduled provisioning");
      if (in->provisioning == PROCURA_PROVISION_AUTOSCALED)
        CHECK (isfinite (in->target_utilization) && in->target_utilization > 0 && in->target_utilization <= 1,
               "target_utilization", "must be between 0 and 1 (above 0) for autoscaled provisioning");
    }
  if (api_side)
    {
      struct { const char *name; double v; } api[] = {
        { "input_tokens", in->input_tokens }, { "cached_input_tokens", in->cached_input_tokens },
        { "output_tokens", in->output_tokens }, { "price_input_per_mtok", in->price_input_per_mtok },
        { "price_cached_per_mtok", in->price_cached_per_mtok },
        { "price_output_per_mtok", in->price_output_per_mtok },
      };
      for (guint i = 0; i < G_N_ELEMENTS (api); i++)
        CHECK (isfinite (api[i].v) && api[i].v >= 0, api[i].name, "must be a number >= 0");
      CHECK (isnan (in->rate_limit_rpm) || (isfinite (in->rate_limit_rpm) && in->rate_limit_rpm > 0),
             "rate_limit_rpm", "must be > 0");
      CHECK (isnan (in->rate_limit_tpm) || (isfinite (in->rate_limit_tpm) && in->rate_limit_tpm > 0),
             "rate_limit_tpm", "must be > 0");
    }
  return TRUE;
}

/* ---- results -------------------------------------------------------------- */

void
procura_cost_result_free (ProcuraCostResult *r)
{
  if (r == NULL)
    return;
  g_free (r->name);
  g_free (r->infeasible_reason);
  g_clear_pointer (&r->inputs, g_ptr_array_unref);
  g_clear_pointer (&r->notes, g_ptr_array_unref);
  g_free (r);
}

gboolean
procura_cost_result_line_applies (const ProcuraCostResult *r,
                                  ProcuraCostLine          line)
{
  if ((int) line < 0 || line >= PROCURA_COST_N_LINES)
    return FALSE;
  return (r->applies & BIT (line)) != 0;
}

static ProcuraCostResult *
result_new (const ProcuraCostInputs *in,
            gboolean                 trace)
{
  ProcuraCostResult *r = g_new0 (ProcuraCostResult, 1);

  r->name = g_strdup (in != NULL ? in->name : NULL);
  r->kind = in != NULL ? in->kind : PROCURA_CANDIDATE_GPU;
  r->media = in != NULL && in->media;
  r->utilization = NAN;
  r->billed_hours = NAN;
  r->provisioned_gpu_cost = NAN;
  r->gpu_demand_average = NAN;
  r->api_demand_average = NAN;
  r->api_share = NAN;
  r->feasible = TRUE;
  r->served_demand_average = in != NULL ? in->demand_average : NAN;
  r->unserved_demand_average = 0;
  r->api_peak_rps = 0;
  r->api_limit_rps = NAN;
  if (trace)
    {
      r->inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_cost_input_free);
      r->notes = g_ptr_array_new_with_free_func (g_free);
    }
  return r;
}

static void
use (ProcuraCostResult       *r,
     const ProcuraCostInputs *in,
     const char              *name,
     double                   value)
{
  if (r->inputs == NULL)
    return;       /* a quick evaluation (curves, break-even): no trace */
  for (guint i = 0; i < r->inputs->len; i++)
    if (g_strcmp0 (((ProcuraCostInput *) g_ptr_array_index (r->inputs, i))->name, name) == 0)
      return;
  g_ptr_array_add (r->inputs, cost_input_new (name, value, origin_of (in->trace, name)));
}

/* ceil() that does not add a replica for a ratio that is an integer up to rounding. */
static double
ceil_tolerant (double x)
{
  double r = round (x);

  if (fabs (x - r) <= 1e-9 * MAX (1.0, fabs (x)))
    return r;
  return ceil (x);
}

static double
peak_of (const ProcuraCostInputs *in)
{
  return isnan (in->demand_peak) ? in->demand_average : in->demand_peak;
}

static void
use_workload (ProcuraCostResult       *r,
              const ProcuraCostInputs *in)
{
  use (r, in, "window_hours", in->window_hours);
  use (r, in, "demand.average", in->demand_average);
  use (r, in, "demand.peak", peak_of (in));
  use (r, in, "retry_rate", in->retry_rate);
  use (r, in, "failure_rate", in->failure_rate);
  use (r, in, "acceptance_rate", in->acceptance_rate);
  if (in->outputs_per_request != 1.0)
    use (r, in, "outputs_per_request", in->outputs_per_request);
}

/* The per-window lines every kind carries. */
static void
add_window_lines (ProcuraCostResult       *r,
                  const ProcuraCostInputs *in)
{
  r->lines[PROCURA_COST_STORAGE] = in->storage;
  r->lines[PROCURA_COST_NETWORK] = in->network;
  r->lines[PROCURA_COST_OBSERVABILITY] = in->observability;
  r->lines[PROCURA_COST_PLATFORM_LABOR] = in->labor_hours * in->labor_rate;
  r->applies |= BIT (PROCURA_COST_STORAGE) | BIT (PROCURA_COST_NETWORK) |
                BIT (PROCURA_COST_OBSERVABILITY) | BIT (PROCURA_COST_PLATFORM_LABOR);
  use (r, in, "storage", in->storage);
  use (r, in, "network", in->network);
  use (r, in, "observability", in->observability);
  use (r, in, "labor_hours", in->labor_hours);
  use (r, in, "labor_rate", in->labor_rate);
  if (in->kind != PROCURA_CANDIDATE_API)
    {
      r->lines[PROCURA_COST_SERVING_STACK] = in->serving_stack;
      r->applies |= BIT (PROCURA_COST_SERVING_STACK);
      use (r, in, "serving_stack", in->serving_stack);
    }
  if (in->media)
    {
      r->lines[PROCURA_COST_MODERATION] = in->moderation;
      r->lines[PROCURA_COST_QUEUE_OVERHEAD] = in->queue_overhead;
      r->lines[PROCURA_COST_OPERATOR_REVIEW] = in->operator_review;
      r->applies |= BIT (PROCURA_COST_MODERATION) | BIT (PROCURA_COST_QUEUE_OVERHEAD) |
                    BIT (PROCURA_COST_OPERATOR_REVIEW);
      use (r, in, "moderation", in->moderation);
      use (r, in, "queue_overhead", in->queue_overhead);
      use (r, in, "operator_review", in->operator_review);
    }
}

static void
finish (ProcuraCostResult *r)
{
  r->all_in_cost = 0;
  for (guint l = 0; l < PROCURA_COST_N_LINES; l++)
    if (r->applies & BIT (l))
      r->all_in_cost += r->lines[l];
  r->cost_per_accepted = r->accepted_outputs > 0 ? r->all_in_cost / r->accepted_outputs : NAN;
}

/* Seconds in which the demand is served: the window, or the scheduled hours. */
static double
active_seconds (const ProcuraCostInputs *in)
{
  if ((in->kind == PROCURA_CANDIDATE_GPU) && in->provisioning == PROCURA_PROVISION_SCHEDULED)
    return in->billed_hours * 3600.0;
  return in->window_hours * 3600.0;
}

static void
outputs (ProcuraCostResult       *r,
         const ProcuraCostInputs *in)
{
  r->generated_outputs = r->served_demand_average * active_seconds (in) * (1.0 - in->failure_rate)
                         * in->outputs_per_request;
  r->accepted_outputs = r->generated_outputs * in->acceptance_rate;
}

static double
positive (double v)
{
  return isfinite (v) && v > 0 ? v : 0;
}

/* The quote terms (docs/cost-model.md, "Quote terms"): storage volume, egress,
 * overage, the commitment floor, support and the setup fee, each its own line. */
static void
quote_lines (ProcuraCostResult       *r,
             const ProcuraCostInputs *in)
{
  double gpu_bill = 0, gpu_hours = 0, api_bill = 0, compute, floor_, months;

  if (r->kind != PROCURA_CANDIDATE_API)
    {
      gpu_bill = positive (r->provisioned_gpu_cost);
      gpu_hours = r->replicas * positive (r->billed_hours) * in->gpus_per_replica;
    }
  if (r->applies & BIT (PROCURA_COST_API_TOKENS))
    api_bill = r->lines[PROCURA_COST_API_TOKENS] * (1.0 + in->retry_rate);

  months = in->window_hours / 730.0;
  if (positive (in->storage_gb) > 0 && positive (in->storage_per_gb_month) > 0)
    {
      r->lines[PROCURA_COST_STORAGE_VOLUME] = in->storage_gb * in->storage_per_gb_month * months;
      r->applies |= BIT (PROCURA_COST_STORAGE_VOLUME);
      use (r, in, "storage_gb", in->storage_gb);
      use (r, in, "storage_per_gb_month", in->storage_per_gb_month);
    }
  if (positive (in->egress_gb) > 0 && positive (in->egress_per_gb) > 0)
    {
      r->lines[PROCURA_COST_EGRESS] = in->egress_gb * in->egress_per_gb;
      r->applies |= BIT (PROCURA_COST_EGRESS);
      use (r, in, "egress_gb", in->egress_gb);
      use (r, in, "egress_per_gb", in->egress_per_gb);
    }
  /* GPU-hours above the commitment (min_commitment / price) are billed at the
   * overage price instead of the committed one */
  if (r->kind != PROCURA_CANDIDATE_API && !isnan (in->overage_per_gpu_hour) &&
      positive (in->min_commitment) > 0 && positive (in->price_per_gpu_hour) > 0)
    {
      double committed_hours = in->min_commitment / in->price_per_gpu_hour;
      double over = MAX (0.0, gpu_hours - committed_hours);

      r->lines[PROCURA_COST_OVERAGE] = over * MAX (0.0, in->overage_per_gpu_hour - in->price_per_gpu_hour);
      r->applies |= BIT (PROCURA_COST_OVERAGE);
      use (r, in, "overage_per_gpu_hour", in->overage_per_gpu_hour);
    }
  compute = gpu_bill + api_bill + r->lines[PROCURA_COST_OVERAGE];
  floor_ = positive (in->min_commitment);
  if (floor_ > 0)
    {
      r->lines[PROCURA_COST_COMMITMENT_SHORTFALL] = MAX (0.0, floor_ - compute);
      r->applies |= BIT (PROCURA_COST_COMMITMENT_SHORTFALL);
      use (r, in, "min_commitment", in->min_commitment);
    }
  if (positive (in->support_pct) > 0)
    {
      r->lines[PROCURA_COST_SUPPORT] = in->support_pct / 100.0
                                       * (compute + r->lines[PROCURA_COST_COMMITMENT_SHORTFALL]
                                          + r->lines[PROCURA_COST_STORAGE_VOLUME]
                                          + r->lines[PROCURA_COST_EGRESS]);
      r->applies |= BIT (PROCURA_COST_SUPPORT);
      use (r, in, "support_pct", in->support_pct);
    }
  if (positive (in->setup_fee) > 0)
    {
      double over_h = isnan (in->setup_amortization_hours) ? in->window_hours : in->setup_amortization_hours;

      r->lines[PROCURA_COST_SETUP_FEE] = in->setup_fee * in->window_hours / over_h;
      r->applies |= BIT (PROCURA_COST_SETUP_FEE);
      use (r, in, "setup_fee", in->setup_fee);
      use (r, in, "setup_amortization_hours", over_h);
    }
}

/* Operations tests as failure waste: the requests they lose, each at the cost of a
 * request without this line, and the replica-hours billed while recovering. */
static void
failure_waste (ProcuraCostResult       *r,
               const ProcuraCostInputs *in)
{
  double requests, per_request, idle = 0;

  if (positive (in->ops_failed_requests) == 0 && positive (in->ops_idle_replica_hours) == 0)
    return;
  requests = r->served_demand_average * active_seconds (in);
  per_request = requests > 0 ? r->all_in_cost / requests : 0;
  if (r->kind != PROCURA_CANDIDATE_API)
    idle = in->ops_idle_replica_hours * in->gpus_per_replica * positive (in->price_per_gpu_hour);
  r->lines[PROCURA_COST_FAILURE_WASTE] = in->ops_failed_requests * per_request + idle;
  r->applies |= BIT (PROCURA_COST_FAILURE_WASTE);
  use (r, in, "ops_failed_requests", in->ops_failed_requests);
  use (r, in, "ops_idle_replica_hours", in->ops_idle_replica_hours);
}

/* quote terms, the total, the failure waste (priced on that total) and the total again */
static void
finish_all (ProcuraCostResult       *r,
            const ProcuraCostInputs *in)
{
  quote_lines (r, in);
  finish (r);
  failure_waste (r, in);
  finish (r);
}

/* GPU lines for @gpu_average requests/s served by the GPUs. */
static void
gpu_lines (ProcuraCostResult       *r,
           const ProcuraCostInputs *in,
           int                      replicas,
           double                   gpu_average)
{
  double gpu_hour_cost = in->gpus_per_replica * in->price_per_gpu_hour;
  double busy_replica_h, billed_replica_h, g, u;

  r->replicas = replicas;
  switch (in->provisioning)
    {
    case PROCURA_PROVISION_SCHEDULED:
      r->billed_hours = in->billed_hours;
      billed_replica_h = replicas * in->billed_hours;
      u = replicas > 0 ? gpu_average * (1.0 + in->retry_rate) / (replicas * in->capacity_at_slo) : 0;
      use (r, in, "billed_hours", in->billed_hours);
      break;
    case PROCURA_PROVISION_AUTOSCALED:
      /* billed hours = busy hours / target utilisation, never above the replicas
       * running the whole window */
      busy_replica_h = gpu_average * (1.0 + in->retry_rate) / in->capacity_at_slo * in->window_hours;
      billed_replica_h = MIN (busy_replica_h / in->target_utilization, replicas * in->window_hours);
      r->billed_hours = replicas > 0 ? billed_replica_h / replicas : 0;
      u = billed_replica_h > 0 ? busy_replica_h / billed_replica_h : 0;
      use (r, in, "target_utilization", in->target_utilization);
      break;
    case PROCURA_PROVISION_ALWAYS_ON:
    default:
      r->billed_hours = in->window_hours;
      billed_replica_h = replicas * in->window_hours;
      u = replicas > 0 ? gpu_average * (1.0 + in->retry_rate) / (replicas * in->capacity_at_slo) : 0;
      break;
    }
  u = CLAMP (u, 0.0, 1.0);
  g = billed_replica_h * gpu_hour_cost;

  r->utilization = u;
  r->provisioned_gpu_cost = g;
  r->lines[PROCURA_COST_IDLE_CAPACITY] = g * (1.0 - u);
  r->lines[PROCURA_COST_RETRY_WASTE] = g * u * (in->retry_rate + in->failure_rate) / (1.0 + in->retry_rate);
  r->lines[PROCURA_COST_GPU_COMPUTE] = g - r->lines[PROCURA_COST_IDLE_CAPACITY]
                                         - r->lines[PROCURA_COST_RETRY_WASTE];
  r->applies |= BIT (PROCURA_COST_GPU_COMPUTE) | BIT (PROCURA_COST_IDLE_CAPACITY) |
                BIT (PROCURA_COST_RETRY_WASTE);

  use (r, in, "price_per_gpu_hour", in->price_per_gpu_hour);
  use (r, in, "gpus_per_replica", in->gpus_per_replica);
  use (r, in, "capacity_at_slo", in->capacity_at_slo);
  use (r, in, "headroom", in->headroom);
}

static int
replicas_for_peak (const ProcuraCostInputs *in)
{
  double need;

  if (in->fixed_replicas > 0)
    return in->fixed_replicas;
  need = ceil_tolerant (peak_of (in) * in->headroom * (1.0 + in->retry_rate) / in->capacity_at_slo);
  return (int) MAX (1.0, MIN (need, (double) G_MAXINT / 2));
}

static ProcuraCostResult *
serving_impl (const ProcuraCostInputs *in,
             gboolean                 trace,
                      GError                 **error)
{
  ProcuraCostInputs gpu;
  ProcuraCostResult *r;

  gpu = *in;
  gpu.kind = PROCURA_CANDIDATE_GPU;
  if (!procura_cost_inputs_validate (&gpu, "", error))
    return NULL;

  r = result_new (in, trace);
  r->kind = PROCURA_CANDIDATE_GPU;
  use_workload (r, in);
  gpu_lines (r, &gpu, replicas_for_peak (&gpu), in->demand_average);
  add_window_lines (r, &gpu);
  r->gpu_demand_average = in->demand_average;
  r->api_demand_average = 0;
  r->api_share = 0;
  outputs (r, &gpu);
  finish_all (r, &gpu);
  return r;
}

/* Token cost of one first attempt on the API. */
static double
api_request_cost (const ProcuraCostInputs *in)
{
  return (in->input_tokens * in->price_input_per_mtok
          + in->cached_input_tokens * in->price_cached_per_mtok
          + in->output_tokens * in->price_output_per_mtok) / 1e6;
}

static void
api_lines (ProcuraCostResult       *r,
           const ProcuraCostInputs *in,
           double                   api_average,
           double                   seconds)
{
  double requests = api_average * seconds * (1.0 - in->failure_rate);
  double c = api_request_cost (in);

  /* (tokens x prices) x (1 + retry_rate) / acceptance_rate per accepted output: the
   * first attempts are api_tokens, the extra attempts retry_waste. */
  r->lines[PROCURA_COST_API_TOKENS] += c * requests;
  r->lines[PROCURA_COST_RETRY_WASTE] += c * in->retry_rate * requests;
  r->lines[PROCURA_COST_GATEWAY] = in->gateway;
  r->applies |= BIT (PROCURA_COST_API_TOKENS) | BIT (PROCURA_COST_RETRY_WASTE) | BIT (PROCURA_COST_GATEWAY);

  use (r, in, "input_tokens", in->input_tokens);
  use (r, in, "cached_input_tokens", in->cached_input_tokens);
  use (r, in, "output_tokens", in->output_tokens);
  use (r, in, "price_input_per_mtok", in->price_input_per_mtok);
  use (r, in, "price_cached_per_mtok", in->price_cached_per_mtok);
  use (r, in, "price_output_per_mtok", in->price_output_per_mtok);
  use (r, in, "gateway", in->gateway);

  if (!isnan (in->rate_limit_rpm))
    use (r, in, "rate_limit_rpm", in->rate_limit_rpm);
  if (!isnan (in->rate_limit_tpm))
    use (r, in, "rate_limit_tpm", in->rate_limit_tpm);
}

double
procura_cost_api_limit_rps (const ProcuraCostInputs *in)
{
  double limit = INFINITY;
  double tokens = positive (in->input_tokens) + positive (in->cached_input_tokens) + positive (in->output_tokens);

  if (!isnan (in->rate_limit_rpm) && in->rate_limit_rpm > 0)
    limit = MIN (limit, in->rate_limit_rpm / 60.0);
  if (!isnan (in->rate_limit_tpm) && in->rate_limit_tpm > 0 && tokens > 0)
    limit = MIN (limit, in->rate_limit_tpm / tokens / 60.0);
  return limit / (1.0 + positive (in->retry_rate));
}

static char *
limit_text (const ProcuraCostInputs *in)
{
  g_autofree char *rpm = procura_units_count (in->rate_limit_rpm);
  g_autofree char *tpm = procura_units_count (in->rate_limit_tpm);

  if (!isnan (in->rate_limit_rpm) && !isnan (in->rate_limit_tpm))
    return g_strdup_printf (_("%s requests/min and %s tokens/min"), rpm, tpm);
  if (!isnan (in->rate_limit_tpm))
    return g_strdup_printf (_("%s tokens/min"), tpm);
  return g_strdup_printf (_("%s requests/min"), rpm);
}

static ProcuraCostResult *
api_impl (const ProcuraCostInputs *in,
             gboolean                 trace,
                  GError                 **error)
{
  ProcuraCostInputs api;
  ProcuraCostResult *r;

  api = *in;
  api.kind = PROCURA_CANDIDATE_API;
  if (!procura_cost_inputs_validate (&api, "", error))
    return NULL;

  r = result_new (in, trace);
  r->kind = PROCURA_CANDIDATE_API;
  r->replicas = 0;
  use_workload (r, in);

  /* the rate limits are hard: the load above them is not served */
  r->api_limit_rps = procura_cost_api_limit_rps (&api);
  r->api_peak_rps = MIN (peak_of (&api), r->api_limit_rps);
  if (peak_of (&api) > r->api_limit_rps * (1.0 + 1e-12))
    {
      g_autofree char *limits = limit_text (&api);

      r->unserved_demand_average = CLAMP (procura_cost_overflow (api.demand_average, peak_of (&api),
                                                                 r->api_limit_rps),
                                          0.0, api.demand_average);
      r->served_demand_average = api.demand_average - r->unserved_demand_average;
      r->feasible = FALSE;
      r->infeasible_reason = g_strdup_printf (_("over its rate limit: %s allow %.4g requests/s (with %.3g "
                                              "retries per request), the peak demand is %.4g requests/s; "
                                              "%.4g requests/s on average (%.1f %%) would be refused"),
                                              limits, r->api_limit_rps, api.retry_rate, peak_of (&api),
                                              r->unserved_demand_average,
                                              api.demand_average > 0
                                              ? 100.0 * r->unserved_demand_average / api.demand_average : 0.0);
      if (r->notes != NULL)
        g_ptr_array_add (r->notes, g_strdup_printf (_("not feasible: %s; the figures are for the part it "
                                                    "serves"), r->infeasible_reason));
    }
  api_lines (r, &api, r->served_demand_average, api.window_hours * 3600.0);
  add_window_lines (r, &api);
  r->gpu_demand_average = 0;
  r->api_demand_average = r->served_demand_average;
  r->api_share = 1;
  outputs (r, &api);
  finish_all (r, &api);
  return r;
}

double
procura_cost_overflow (double average,
                       double peak,
                       double capacity)
{
  double trough, span;

  if (!(average > 0))
    return 0;
  if (isnan (peak) || peak < average)
    peak = average;
  if (capacity >= peak)
    return 0;
  if (capacity <= 0)
    return average;
  if (peak == average)
    return average - capacity;

  /* Load-duration curve: linear from the peak (share 0 of the window) down to the
   * trough; mean = average. Trough 2A - P over the whole window, or (when that is
   * negative) 0 reached at share 2A / P and zero after. */
  trough = 2.0 * average - peak;
  span = 1.0;
  if (trough < 0)
    {
      span = 2.0 * average / peak;
      trough = 0;
    }
  if (capacity <= trough)
    return average - capacity;
  /* the triangle above the capacity */
  return (peak - capacity) * (peak - capacity) * span / (2.0 * (peak - trough));
}

/* The hybrid with @replicas GPU replicas (@h validated, always-on). */
static ProcuraCostResult *
hybrid_at (const ProcuraCostInputs *in,
           const ProcuraCostInputs *h,
           int                      replicas,
           gboolean                 trace)
{
  ProcuraCostResult *r;
  double gpu_capacity, overflow, api_limit;

  /* requests/s (first attempts) the GPUs take at the target */
  gpu_capacity = replicas * h->capacity_at_slo / (1.0 + h->retry_rate);
  api_limit = procura_cost_api_limit_rps (h);
  overflow = procura_cost_overflow (h->demand_average, peak_of (h), gpu_capacity);
  overflow = CLAMP (overflow, 0.0, h->demand_average);

  r = result_new (in, trace);
  r->kind = PROCURA_CANDIDATE_HYBRID;
  use_workload (r, h);
  r->api_limit_rps = api_limit;
  r->api_peak_rps = MAX (0.0, peak_of (h) - gpu_capacity);
  if (r->api_peak_rps > api_limit * (1.0 + 1e-12))
    {
      /* the API's rate limits are hard: what neither takes is refused */
      g_autofree char *limits = limit_text (h);
      double refused = procura_cost_overflow (h->demand_average, peak_of (h), gpu_capacity + api_limit);

      r->api_peak_rps = api_limit;
      r->unserved_demand_average = CLAMP (refused, 0.0, overflow);
      r->feasible = FALSE;
      r->infeasible_reason = g_strdup_printf (ngettext ("over the API's rate limit: %d replica takes %.4g requests/s "
                                                        "and the API's %s allow %.4g more; the peak demand is %.4g "
                                                        "requests/s",
                                                        "over the API's rate limit: %d replicas take %.4g requests/s "
                                                        "and the API's %s allow %.4g more; the peak demand is %.4g "
                                                        "requests/s", replicas), replicas, gpu_capacity,
                                              limits, api_limit, peak_of (h));
    }
  overflow -= r->unserved_demand_average;
  r->served_demand_average = h->demand_average - r->unserved_demand_average;
  gpu_lines (r, h, replicas, r->served_demand_average - overflow);
  api_lines (r, h, overflow, h->window_hours * 3600.0);
  add_window_lines (r, h);
  r->gpu_demand_average = r->served_demand_average - overflow;
  r->api_demand_average = overflow;
  r->api_share = h->demand_average > 0 ? overflow / h->demand_average : 0;
  outputs (r, h);
  finish_all (r, h);
  return r;
}

#define HYBRID_MAX_SCAN 4096

static ProcuraCostResult *
hybrid_impl (const ProcuraCostInputs *in,
             gboolean                 trace,
             GError                 **error)
{
  ProcuraCostInputs h;
  ProcuraCostResult *r;
  int replicas, lo, hi, base;
  double api_limit, peak_need;

  h = *in;
  h.kind = PROCURA_CANDIDATE_HYBRID;
  h.provisioning = PROCURA_PROVISION_ALWAYS_ON;  /* the base runs all the time */
  if (!procura_cost_inputs_validate (&h, "", error))
    return NULL;

  api_limit = procura_cost_api_limit_rps (&h);
  base = (int) CLAMP (ceil_tolerant (h.demand_average * (1.0 + h.retry_rate) / h.capacity_at_slo),
                      1.0, (double) (G_MAXINT / 4));
  if (h.fixed_replicas > 0)
    {
      replicas = lo = hi = h.fixed_replicas;
    }
  else
    {
      /* the replica count that costs least, from the fewest that keep the API within
       * its limits up to enough for the peak (the API then takes nothing): a tighter
       * limit or a dearer input only takes choices away, so the cost never falls */
      peak_need = CLAMP (ceil_tolerant (peak_of (&h) * (1.0 + h.retry_rate) / h.capacity_at_slo),
                         1.0, (double) (G_MAXINT / 4));
      lo = 1;
      if (isfinite (api_limit))
        lo = (int) CLAMP (ceil_tolerant ((peak_of (&h) - api_limit) * (1.0 + h.retry_rate) / h.capacity_at_slo),
                          1.0, peak_need);
      hi = (int) MAX ((double) lo, MIN (peak_need, (double) lo + HYBRID_MAX_SCAN));
      replicas = lo;
      {
        double best = INFINITY;

        for (int n = lo; n <= hi; n++)
          {
            g_autoptr(ProcuraCostResult) t = hybrid_at (in, &h, n, FALSE);
            double c = t->feasible ? t->all_in_cost / MAX (t->accepted_outputs, 1e-300) : INFINITY;

            if (c < best * (1.0 - 1e-12))
              {
                best = c;
                replicas = n;
              }
          }
      }
    }

  r = hybrid_at (in, &h, replicas, trace);
  if (r->notes != NULL && !r->feasible)
    g_ptr_array_add (r->notes, g_strdup_printf (_("not feasible: %s"), r->infeasible_reason));
  if (r->notes != NULL && h.fixed_replicas == 0)
    {
      g_autofree char *why = NULL;

      if (isfinite (api_limit) && lo > 1 && replicas == lo)
        {
          g_autofree char *limits = limit_text (&h);
          why = g_strdup_printf (_("the fewest that keep the API within its rate limit (%s, %.4g requests/s)"),
                                 limits, api_limit);
        }
      else
        why = g_strdup_printf (_("the count that costs least (from %d to %d tried; %d would carry the average)"),
                               lo, hi, base);
      g_ptr_array_add (r->notes,
                       g_strdup_printf (ngettext ("%d GPU replica, %s; it takes %.4g requests/s at the target and the "
                                                  "API takes %.1f %% of requests, the load above that",
                                                  "%d GPU replicas, %s; they take %.4g requests/s at the target and the "
                                                  "API takes %.1f %% of requests, the load above that", replicas),
                                        replicas, why,
                                        replicas * h.capacity_at_slo / (1.0 + h.retry_rate),
                                        100.0 * r->api_share));
    }
  else if (r->notes != NULL)
    g_ptr_array_add (r->notes,
                     g_strdup_printf (ngettext ("%d GPU replica (fixed); the API takes %.1f %% of requests, the load "
                                                "above it",
                                                "%d GPU replicas (fixed); the API takes %.1f %% of requests, the load "
                                                "above them", replicas), replicas, 100.0 * r->api_share));
  return r;
}

ProcuraCostResult *
procura_cost_serving (const ProcuraCostInputs *in,
                      GError                 **error)
{
  return serving_impl (in, TRUE, error);
}

ProcuraCostResult *
procura_cost_api (const ProcuraCostInputs *in,
                  GError                 **error)
{
  return api_impl (in, TRUE, error);
}

ProcuraCostResult *
procura_cost_hybrid (const ProcuraCostInputs *in,
                     GError                 **error)
{
  return hybrid_impl (in, TRUE, error);
}

static ProcuraCostResult *
evaluate_impl (const ProcuraCostInputs *in,
               gboolean                 trace,
               GError                 **error)
{
  switch (in->kind)
    {
    case PROCURA_CANDIDATE_API:
      return api_impl (in, trace, error);
    case PROCURA_CANDIDATE_HYBRID:
      return hybrid_impl (in, trace, error);
    case PROCURA_CANDIDATE_GPU:
    default:
      return serving_impl (in, trace, error);
    }
}

ProcuraCostResult *
procura_cost_evaluate (const ProcuraCostInputs *in,
                       GError                 **error)
{
  if (in->run_inputs != NULL)
    return procura_cost_run_workload (in->run_inputs, error);
  return evaluate_impl (in, TRUE, error);
}

/* ---- run workloads -------------------------------------------------------- */

ProcuraRunCostInputs *
procura_run_cost_inputs_new (void)
{
  ProcuraRunCostInputs *in = g_new0 (ProcuraRunCostInputs, 1);

  in->gpus = 1;
  in->nodes = 1;
  in->price_per_gpu_hour = NAN;
  in->wall_clock_hours = NAN;
  in->tokens_to_train = NAN;
  in->tokens_per_s = NAN;
  in->interruptions = NAN;
  in->mtbf_node_hours = NAN;
  in->lost_hours_per_interruption = NAN;
  in->success_probability = 1.0;
  in->trace = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_cost_input_free);
  return in;
}

ProcuraRunCostInputs *
procura_run_cost_inputs_copy (const ProcuraRunCostInputs *in)
{
  ProcuraRunCostInputs *c;

  if (in == NULL)
    return NULL;
  c = g_memdup2 (in, sizeof *in);
  c->name = g_strdup (in->name);
  c->trace = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_cost_input_free);
  if (in->trace != NULL)
    for (guint i = 0; i < in->trace->len; i++)
      {
        const ProcuraCostInput *t = g_ptr_array_index (in->trace, i);
        g_ptr_array_add (c->trace, cost_input_new (t->name, t->value, t->origin));
      }
  return c;
}

void
procura_run_cost_inputs_free (ProcuraRunCostInputs *in)
{
  if (in == NULL)
    return;
  g_free (in->name);
  g_clear_pointer (&in->trace, g_ptr_array_unref);
  g_free (in);
}

static void
use_run (ProcuraCostResult          *r,
         const ProcuraRunCostInputs *in,
         const char                 *name,
         double                      value)
{
  g_ptr_array_add (r->inputs, cost_input_new (name, value, origin_of (in->trace, name)));
}

static gboolean
run_inputs_validate (const ProcuraRunCostInputs *in,
                     const char                 *prefix,
                     double                     *hours,
                     double                     *interruptions,
                     GError                    **error)
{
  CHECK (in->gpus >= 1 && in->gpus <= 10000000, "gpus", "must be an integer from 1 to 10000000");
  CHECK (in->nodes >= 1 && in->nodes <= 10000000, "nodes", "must be an integer from 1 to 10000000");
  CHECK (isfinite (in->price_per_gpu_hour) && in->price_per_gpu_hour >= 0,
         "price_per_gpu_hour", "must be a number >= 0");
  if (isnan (in->wall_clock_hours))
    {
      CHECK (isfinite (in->tokens_to_train) && in->tokens_to_train > 0, "tokens_to_train",
             "must be > 0 when wall_clock_hours is not given");
      CHECK (isfinite (in->tokens_per_s) && in->tokens_per_s > 0, "tokens_per_s",
             "must be > 0 when wall_clock_hours is not given");
      *hours = in->tokens_to_train / in->tokens_per_s / 3600.0;
    }
  else
    {
      CHECK (isfinite (in->wall_clock_hours) && in->wall_clock_hours > 0, "wall_clock_hours", "must be > 0");
      *hours = in->wall_clock_hours;
    }
  CHECK (in->storage >= 0, "storage", "must be a number >= 0");
  CHECK (in->network >= 0, "network", "must be a number >= 0");
  CHECK (in->checkpoint_storage >= 0, "checkpoint_storage", "must be a number >= 0");
  CHECK (in->checkpoints >= 0, "checkpoints", "must be a number >= 0");
  CHECK (in->checkpoint_write_hours >= 0, "checkpoint_write_hours", "must be a number >= 0");
  CHECK (in->restart_hours >= 0, "restart_hours", "must be a number >= 0");
  CHECK (in->labor_hours >= 0, "labor_hours", "must be a number >= 0");
  CHECK (in->labor_rate >= 0, "labor_rate", "must be a number >= 0");
  CHECK (isnan (in->lost_hours_per_interruption) || in->lost_hours_per_interruption >= 0,
         "lost_hours_per_interruption", "must be a number >= 0");
  CHECK (isfinite (in->success_probability) && in->success_probability > 0 && in->success_probability <= 1,
         "success_probability", "must be between 0 and 1 (above 0)");

  if (!isnan (in->interruptions))
    {
      CHECK (in->interruptions >= 0, "interruptions", "must be >= 0");
      *interruptions = in->interruptions;
    }
  else if (!isnan (in->mtbf_node_hours))
    {
      CHECK (in->mtbf_node_hours > 0, "mtbf_node_hours", "must be > 0");
      *interruptions = *hours * in->nodes / in->mtbf_node_hours;
    }
  else
    *interruptions = 0;
  return TRUE;
}

ProcuraCostResult *
procura_cost_run_workload (const ProcuraRunCostInputs *in,
                           GError                    **error)
{
  ProcuraCostResult *r;
  double hours = 0, cluster_price, interruptions = 0, lost, interval;

  if (!run_inputs_validate (in, "", &hours, &interruptions, error))
    return NULL;

  interval = hours / (in->checkpoints + 1.0);
  lost = isnan (in->lost_hours_per_interruption) ? interval / 2.0 : in->lost_hours_per_interruption;
  cluster_price = in->gpus * in->price_per_gpu_hour;

  r = g_new0 (ProcuraCostResult, 1);
  r->name = g_strdup (in->name);
  r->kind = PROCURA_CANDIDATE_GPU;
  r->run_workload = TRUE;
  r->feasible = TRUE;
  r->served_demand_average = NAN;
  r->api_limit_rps = NAN;
  r->replicas = 1;
  r->utilization = NAN;
  r->billed_hours = hours;
  r->provisioned_gpu_cost = in->gpus * hours * in->price_per_gpu_hour;
  r->gpu_demand_average = r->api_demand_average = r->api_share = NAN;
  r->inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_cost_input_free);
  r->notes = g_ptr_array_new_with_free_func (g_free);

  r->lines[PROCURA_COST_GPU_COMPUTE] = r->provisioned_gpu_cost;
  r->lines[PROCURA_COST_STORAGE] = in->storage;
  r->lines[PROCURA_COST_NETWORK] = in->network;
  r->lines[PROCURA_COST_CHECKPOINTING] = in->checkpoints * in->checkpoint_write_hours * cluster_price
                                         + in->checkpoint_storage;
  r->lines[PROCURA_COST_FAILED_RUN_WASTE] = interruptions * (lost + in->restart_hours) * cluster_price;
  r->lines[PROCURA_COST_PLATFORM_LABOR] = in->labor_hours * in->labor_rate;
  r->applies = BIT (PROCURA_COST_GPU_COMPUTE) | BIT (PROCURA_COST_STORAGE) | BIT (PROCURA_COST_NETWORK) |
               BIT (PROCURA_COST_CHECKPOINTING) | BIT (PROCURA_COST_FAILED_RUN_WASTE) |
               BIT (PROCURA_COST_PLATFORM_LABOR);
  r->generated_outputs = 1;
  r->accepted_outputs = in->success_probability;

  use_run (r, in, "gpus", in->gpus);
  use_run (r, in, "price_per_gpu_hour", in->price_per_gpu_hour);
  use_run (r, in, "wall_clock_hours", hours);
  use_run (r, in, "checkpoints", in->checkpoints);
  use_run (r, in, "checkpoint_write_hours", in->checkpoint_write_hours);
  use_run (r, in, "checkpoint_storage", in->checkpoint_storage);
  use_run (r, in, "interruptions", interruptions);
  use_run (r, in, "lost_hours_per_interruption", lost);
  use_run (r, in, "restart_hours", in->restart_hours);
  use_run (r, in, "storage", in->storage);
  use_run (r, in, "network", in->network);
  use_run (r, in, "labor_hours", in->labor_hours);
  use_run (r, in, "labor_rate", in->labor_rate);
  use_run (r, in, "success_probability", in->success_probability);
  finish (r);
  return r;
}

/* ---- curves and break-even -------------------------------------------------- */

static gboolean
point_at (const ProcuraCostInputs *in,
          double                   demand,
          ProcuraCostCurvePoint   *p)
{
  ProcuraCostInputs c = *in;   /* shallow: only numbers change, nothing is freed */
  double ratio = 1.0;
  g_autoptr(ProcuraCostResult) r = NULL;

  if (in->demand_average > 0 && !isnan (in->demand_peak))
    ratio = in->demand_peak / in->demand_average;
  c.demand_average = demand;
  c.demand_peak = demand * ratio;
  r = evaluate_impl (&c, FALSE, NULL);

  if (r == NULL)
    return FALSE;
  p->demand = demand;
  p->cost_per_accepted = r->cost_per_accepted;
  p->all_in_cost = r->all_in_cost;
  p->replicas = r->replicas;
  p->utilization = r->utilization;
  return TRUE;
}

static int
cmp_point (gconstpointer a,
           gconstpointer b)
{
  double x = ((const ProcuraCostCurvePoint *) a)->demand, y = ((const ProcuraCostCurvePoint *) b)->demand;
  return (x > y) - (x < y);
}

GArray *
procura_cost_curve (const ProcuraCostInputs *in,
                    double                   demand_max,
                    guint                    n_points)
{
  GArray *curve = g_array_new (FALSE, FALSE, sizeof (ProcuraCostCurvePoint));
  ProcuraCostCurvePoint p;
  double ratio = 1.0;

  if (!(demand_max > 0) || n_points == 0 || !isfinite (demand_max))
    return curve;
  for (guint i = 1; i <= n_points; i++)
    if (point_at (in, demand_max * i / n_points, &p))
      g_array_append_val (curve, p);
  if (curve->len == 0)
    return curve;

  /* the replica steps of the GPU side: the N-replica limit is the average demand at
   * which peak x headroom x (1 + retry) reaches N x capacity */
  if (in->kind == PROCURA_CANDIDATE_GPU && in->fixed_replicas == 0 && in->capacity_at_slo > 0)
    {
      int n_max;

      if (in->demand_average > 0 && !isnan (in->demand_peak))
        ratio = in->demand_peak / in->demand_average;
      n_max = g_array_index (curve, ProcuraCostCurvePoint, curve->len - 1).replicas;
      for (int n = 1; n < n_max && n < 10000; n++)
        {
          double edge = n * in->capacity_at_slo / (ratio * in->headroom * (1.0 + in->retry_rate));
          double after = edge * (1.0 + 1e-7);
          if (edge <= 0 || edge >= demand_max)
            continue;
          if (point_at (in, edge, &p))
            g_array_append_val (curve, p);
          if (point_at (in, after, &p))
            g_array_append_val (curve, p);
        }
      g_array_sort (curve, cmp_point);
    }
  return curve;
}

static double
cost_difference (const ProcuraCostInputs *gpu,
                 const ProcuraCostInputs *api,
                 double                   demand,
                 ProcuraCostCurvePoint   *gp)
{
  ProcuraCostCurvePoint ap;

  if (!point_at (gpu, demand, gp) || !point_at (api, demand, &ap))
    return NAN;
  return gp->cost_per_accepted - ap.cost_per_accepted;
}

GArray *
procura_cost_break_even (const ProcuraCostInputs *gpu,
                         const ProcuraCostInputs *api,
                         double                   demand_max)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (ProcuraBreakEven));
  g_autoptr(GArray) grid = NULL;
  double prev_d = NAN, prev_x = NAN;
  ProcuraCostCurvePoint gp;

  if (!(demand_max > 0) || !isfinite (demand_max))
    return out;
  /* scan the GPU curve (with its replica steps) and bisect each sign change */
  grid = procura_cost_curve (gpu, demand_max, 400);
  for (guint i = 0; i < grid->len; i++)
    {
      double x = g_array_index (grid, ProcuraCostCurvePoint, i).demand;
      double d = cost_difference (gpu, api, x, &gp);

      if (isnan (d))
        continue;
      if (!isnan (prev_d) && ((prev_d > 0 && d <= 0) || (prev_d < 0 && d >= 0)))
        {
          double lo = prev_x, hi = x, dlo = prev_d;
          ProcuraBreakEven be;

          if (d != 0)
            for (int it = 0; it < 100 && hi - lo > 1e-12 * MAX (1.0, hi); it++)
              {
                double mid = 0.5 * (lo + hi), dm = cost_difference (gpu, api, mid, &gp);
                if ((dlo > 0) == (dm > 0))
                  {
                    lo = mid;
                    dlo = dm;
                  }
                else
                  hi = mid;
              }
          /* at a replica step the GPU curve jumps: the crossing is then the step */
          cost_difference (gpu, api, hi, &gp);
          be.demand = hi;
          be.utilization = gp.utilization;
          be.cost_per_accepted = gp.cost_per_accepted;
          be.gpu_cheaper_above = prev_d > 0;
          g_array_append_val (out, be);
        }
      prev_d = d;
      prev_x = x;
    }
  return out;
}

/* ---- §8 JSON ---------------------------------------------------------------- */

typedef struct {
  const char *file;
  const char *path;   /* "candidates[0]" or "" */
  JsonObject *obj;
  GError    **error;
  gboolean    failed;
} Reader;

static void
reader_fail (Reader     *rd,
             const char *member,
             const char *what)
{
  if (rd->failed)
    return;
  rd->failed = TRUE;
  g_set_error (rd->error, PROCURA_COST_ERROR, PROCURA_COST_ERROR_INVALID,
               "%s: %s%s%s: %s", rd->file, rd->path, *rd->path ? "." : "", member, what);
}

/* A number member: missing → @def (NAN def = required). */
static double
read_num (Reader     *rd,
          const char *member,
          double      def,
          gboolean    required)
{
  JsonNode *n;

  if (rd->failed)
    return NAN;
  n = json_object_get_member (rd->obj, member);
  if (n == NULL || JSON_NODE_HOLDS_NULL (n))
    {
      if (required)
        reader_fail (rd, member, "missing (a number is required)");
      return def;
    }
  if (!JSON_NODE_HOLDS_VALUE (n) ||
      (json_node_get_value_type (n) != G_TYPE_DOUBLE && json_node_get_value_type (n) != G_TYPE_INT64))
    {
      reader_fail (rd, member, "must be a number");
      return NAN;
    }
  return json_node_get_double (n);
}

static int
read_int (Reader     *rd,
          const char *member,
          int         def,
          gboolean    required)
{
  double v = read_num (rd, member, def, required);

  if (rd->failed)
    return def;
  if (v != floor (v) || v < 0 || v > G_MAXINT)
    {
      reader_fail (rd, member, "must be a whole number >= 0");
      return def;
    }
  return (int) v;
}

static const char *
read_str (Reader     *rd,
          const char *member,
          const char *def,
          gboolean    required)
{
  JsonNode *n;

  if (rd->failed)
    return def;
  n = json_object_get_member (rd->obj, member);
  if (n == NULL || JSON_NODE_HOLDS_NULL (n))
    {
      if (required)
        reader_fail (rd, member, "missing (a string is required)");
      return def;
    }
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    {
      reader_fail (rd, member, "must be a string");
      return def;
    }
  return json_node_get_string (n);
}

static void
note_file (ProcuraCostInputs *in,
           Reader            *rd,
           const char        *name,
           const char        *member)
{
  if (json_object_has_member (rd->obj, member))
    procura_cost_inputs_note (in, name, _("input file"));
  else
    procura_cost_inputs_note (in, name, _("default"));
}

/* A "kind": "run" candidate (COST-MODEL.md §3). */
static gboolean
read_run (Reader            *rd,
          ProcuraCostInputs *in)
{
  ProcuraRunCostInputs *run = procura_run_cost_inputs_new ();
  GError *local = NULL;
  double hours, interruptions;

  run->name = g_strdup (in->name);
  in->run_inputs = run;
  run->gpus = read_int (rd, "gpus", 1, TRUE);
  run->price_per_gpu_hour = read_num (rd, "price_per_gpu_hour", NAN, TRUE);
  run->wall_clock_hours = read_num (rd, "wall_clock_hours", NAN, FALSE);
  run->tokens_to_train = read_num (rd, "tokens_to_train", NAN, FALSE);
  run->tokens_per_s = read_num (rd, "tokens_per_s", NAN, FALSE);
  run->storage = read_num (rd, "storage", 0, FALSE);
  run->network = read_num (rd, "network", 0, FALSE);
  run->checkpoints = read_num (rd, "checkpoints", 0, FALSE);
  run->checkpoint_write_hours = read_num (rd, "checkpoint_write_hours", 0, FALSE);
  run->checkpoint_storage = read_num (rd, "checkpoint_storage", 0, FALSE);
  run->interruptions = read_num (rd, "interruptions", NAN, FALSE);
  run->mtbf_node_hours = read_num (rd, "mtbf_node_hours", NAN, FALSE);
  run->nodes = read_int (rd, "nodes", 1, FALSE);
  run->lost_hours_per_interruption = read_num (rd, "lost_hours_per_interruption", NAN, FALSE);
  run->restart_hours = read_num (rd, "restart_hours", 0, FALSE);
  run->labor_hours = read_num (rd, "labor_hours", 0, FALSE);
  run->labor_rate = read_num (rd, "labor_rate", 0, FALSE);
  run->success_probability = read_num (rd, "success_probability", 1, FALSE);
  if (rd->failed)
    return FALSE;
  if (!run_inputs_validate (run, rd->path, &hours, &interruptions, &local))
    {
      g_set_error (rd->error, PROCURA_COST_ERROR, PROCURA_COST_ERROR_INVALID, "%s: %s", rd->file, local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

GPtrArray *
procura_cost_inputs_from_json (JsonNode    *root,
                               const char  *file_name,
                               GError     **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_cost_inputs_free);
  Reader top = { file_name ? file_name : "input", "", NULL, error, FALSE };
  JsonNode *demand_node, *cands_node;
  JsonArray *cands;
  ProcuraCostInputs *base = NULL;
  double window, average, peak, retry, failure, accept, headroom, opr;
  const char *unit;
  gboolean only_runs = FALSE;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, PROCURA_COST_ERROR, PROCURA_COST_ERROR_INVALID,
                   _("%s: the document must be a JSON object"), top.file);
      return NULL;
    }
  top.obj = json_node_get_object (root);

  window = read_num (&top, "window_hours", PROCURA_DEFAULT_WINDOW_HOURS, FALSE);
  demand_node = json_object_get_member (top.obj, "demand");
  cands_node = json_object_get_member (top.obj, "candidates");
  if (demand_node == NULL && cands_node != NULL && JSON_NODE_HOLDS_ARRAY (cands_node) &&
      json_array_get_length (json_node_get_array (cands_node)) > 0)
    {
      /* only run workloads: no demand needed */
      JsonArray *ca = json_node_get_array (cands_node);
      only_runs = TRUE;
      for (guint i = 0; i < json_array_get_length (ca); i++)
        {
          JsonNode *cn = json_array_get_element (ca, i);
          JsonNode *kn = JSON_NODE_HOLDS_OBJECT (cn) ? json_object_get_member (json_node_get_object (cn), "kind")
                                                     : NULL;
          if (kn == NULL || !JSON_NODE_HOLDS_VALUE (kn) || json_node_get_value_type (kn) != G_TYPE_STRING ||
              g_strcmp0 (json_node_get_string (kn), "run") != 0)
            only_runs = FALSE;
        }
    }
  if (!top.failed && !only_runs && (demand_node == NULL || !JSON_NODE_HOLDS_OBJECT (demand_node)))
    reader_fail (&top, "demand", demand_node == NULL ? "missing (an object {\"average\", \"peak\"} is required)"
                                                     : "must be an object {\"average\", \"peak\"}");
  average = peak = NAN;
  if (only_runs && demand_node == NULL)
    average = 0;
  else if (!top.failed)
    {
      Reader d = { top.file, "demand", json_node_get_object (demand_node), error, FALSE };
      average = read_num (&d, "average", NAN, TRUE);
      peak = read_num (&d, "peak", NAN, FALSE);
      top.failed = d.failed;
    }
  retry = read_num (&top, "retry_rate", 0, FALSE);
  failure = read_num (&top, "failure_rate", 0, FALSE);
  accept = read_num (&top, "acceptance_rate", 1, FALSE);
  headroom = read_num (&top, "headroom", 1, FALSE);
  opr = read_num (&top, "outputs_per_request", 1, FALSE);
  unit = read_str (&top, "workload", "serving", FALSE);
  if (!top.failed && g_strcmp0 (unit, "serving") != 0 && g_strcmp0 (unit, "media") != 0)
    reader_fail (&top, "workload", "must be \"serving\" or \"media\"");

  if (!top.failed && (cands_node == NULL || !JSON_NODE_HOLDS_ARRAY (cands_node)))
    reader_fail (&top, "candidates", cands_node == NULL ? "missing (an array is required)" : "must be an array");
  if (!top.failed && json_array_get_length (json_node_get_array (cands_node)) == 0)
    reader_fail (&top, "candidates", "must have at least one candidate");
  if (top.failed)
    return NULL;

  base = procura_cost_inputs_new ();
  base->window_hours = window;
  base->demand_average = average;
  base->demand_peak = peak;
  base->retry_rate = retry;
  base->failure_rate = failure;
  base->acceptance_rate = accept;
  base->headroom = headroom;
  base->outputs_per_request = opr;
  base->media = g_strcmp0 (unit, "media") == 0;
  {
    /* where the shared inputs came from */
    static const char * const members[][2] = {
      { "window_hours", "window_hours" }, { "retry_rate", "retry_rate" },
      { "failure_rate", "failure_rate" }, { "acceptance_rate", "acceptance_rate" },
      { "headroom", "headroom" }, { "outputs_per_request", "outputs_per_request" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (members); i++)
      note_file (base, &top, members[i][0], members[i][1]);
    procura_cost_inputs_note (base, "demand.average", _("input file"));
    procura_cost_inputs_note (base, "demand.peak", isnan (peak) ? "default (= demand.average)" : "input file");
  }
  if (!validate_shared (base, "", NULL))
    {
      /* report the first bad shared member with the file name */
      GError *local = NULL;
      validate_shared (base, "", &local);
      g_set_error (error, PROCURA_COST_ERROR, PROCURA_COST_ERROR_INVALID, "%s: %s", top.file, local->message);
      g_error_free (local);
      procura_cost_inputs_free (base);
      return NULL;
    }

  cands = json_node_get_array (cands_node);
  for (guint i = 0; i < json_array_get_length (cands); i++)
    {
      JsonNode *cn = json_array_get_element (cands, i);
      g_autofree char *path = g_strdup_printf ("candidates[%u]", i);
      Reader rd = { top.file, path, NULL, error, FALSE };
      ProcuraCostInputs *in;
      const char *kind, *prov;
      gboolean gpu_side, api_side;
      GError *local = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (cn))
        {
          g_set_error (error, PROCURA_COST_ERROR, PROCURA_COST_ERROR_INVALID,
                       _("%s: %s: must be an object"), top.file, path);
          procura_cost_inputs_free (base);
          return NULL;
        }
      rd.obj = json_node_get_object (cn);
      in = procura_cost_inputs_copy (base);
      g_ptr_array_add (out, in);

      in->name = g_strdup (read_str (&rd, "name", NULL, TRUE));
      kind = read_str (&rd, "kind", NULL, TRUE);
      if (!rd.failed)
        {
          if (g_strcmp0 (kind, "gpu") == 0)
            in->kind = PROCURA_CANDIDATE_GPU;
          else if (g_strcmp0 (kind, "api") == 0)
            in->kind = PROCURA_CANDIDATE_API;
          else if (g_strcmp0 (kind, "hybrid") == 0)
            in->kind = PROCURA_CANDIDATE_HYBRID;
          else if (g_strcmp0 (kind, "run") == 0)
            {
              if (!read_run (&rd, in))
                {
                  procura_cost_inputs_free (base);
                  return NULL;
                }
              continue;
            }
          else
            reader_fail (&rd, "kind", "must be \"gpu\", \"api\", \"hybrid\" or \"run\"");
        }
      gpu_side = in->kind != PROCURA_CANDIDATE_API;
      api_side = in->kind != PROCURA_CANDIDATE_GPU;

      if (gpu_side)
        {
          in->price_per_gpu_hour = read_num (&rd, "price_per_gpu_hour", NAN, TRUE);
          in->gpus_per_replica = read_int (&rd, "gpus_per_replica", 1, TRUE);
          in->capacity_at_slo = read_num (&rd, "capacity_at_slo", NAN, TRUE);
          in->fixed_replicas = read_int (&rd, "replicas", 0, FALSE);
          prov = read_str (&rd, "provisioning", "always-on", FALSE);
          if (!rd.failed)
            {
              if (g_strcmp0 (prov, "always-on") == 0)
                in->provisioning = PROCURA_PROVISION_ALWAYS_ON;
              else if (g_strcmp0 (prov, "scheduled") == 0)
                {
                  in->provisioning = PROCURA_PROVISION_SCHEDULED;
                  in->billed_hours = read_num (&rd, "billed_hours", NAN, TRUE);
                }
              else if (g_strcmp0 (prov, "autoscaled") == 0)
                {
                  in->provisioning = PROCURA_PROVISION_AUTOSCALED;
                  in->target_utilization = read_num (&rd, "target_utilization", NAN, TRUE);
                }
              else
                reader_fail (&rd, "provisioning", "must be \"always-on\", \"scheduled\" or \"autoscaled\"");
            }
        }
      if (api_side)
        {
          in->input_tokens = read_num (&rd, "input_tokens", NAN, TRUE);
          in->cached_input_tokens = read_num (&rd, "cached_input_tokens", 0, FALSE);
          in->output_tokens = read_num (&rd, "output_tokens", NAN, TRUE);
          in->price_input_per_mtok = read_num (&rd, "price_input_per_mtok", NAN, TRUE);
          in->price_cached_per_mtok = read_num (&rd, "price_cached_per_mtok", 0, FALSE);
          in->price_output_per_mtok = read_num (&rd, "price_output_per_mtok", NAN, TRUE);
          in->gateway = read_num (&rd, "gateway", 0, FALSE);
          in->rate_limit_rpm = read_num (&rd, "rate_limit_rpm", NAN, FALSE);
          in->rate_limit_tpm = read_num (&rd, "rate_limit_tpm", NAN, FALSE);
        }
      if (gpu_side)
        in->overage_per_gpu_hour = read_num (&rd, "overage_per_gpu_hour", NAN, FALSE);
      in->support_pct = read_num (&rd, "support_pct", 0, FALSE);
      in->setup_fee = read_num (&rd, "setup_fee", 0, FALSE);
      in->setup_amortization_hours = read_num (&rd, "setup_amortization_hours", NAN, FALSE);
      in->min_commitment = read_num (&rd, "min_commitment", 0, FALSE);
      in->storage_gb = read_num (&rd, "storage_gb", 0, FALSE);
      in->storage_per_gb_month = read_num (&rd, "storage_per_gb_month", 0, FALSE);
      in->egress_gb = read_num (&rd, "egress_gb", 0, FALSE);
      in->egress_per_gb = read_num (&rd, "egress_per_gb", 0, FALSE);
      in->ops_failed_requests = read_num (&rd, "ops_failed_requests", 0, FALSE);
      in->ops_idle_replica_hours = read_num (&rd, "ops_idle_replica_hours", 0, FALSE);
      in->storage = read_num (&rd, "storage", 0, FALSE);
      in->network = read_num (&rd, "network", 0, FALSE);
      in->serving_stack = read_num (&rd, "serving_stack", 0, FALSE);
      in->observability = read_num (&rd, "observability", 0, FALSE);
      in->labor_hours = read_num (&rd, "labor_hours", 0, FALSE);
      in->labor_rate = read_num (&rd, "labor_rate", 0, FALSE);
      in->moderation = read_num (&rd, "moderation", 0, FALSE);
      in->queue_overhead = read_num (&rd, "queue_overhead", 0, FALSE);
      in->operator_review = read_num (&rd, "operator_review", 0, FALSE);
      if (rd.failed)
        {
          procura_cost_inputs_free (base);
          return NULL;
        }

      {
        static const char * const members[] = {
          "price_per_gpu_hour", "gpus_per_replica", "capacity_at_slo", "billed_hours",
          "target_utilization", "storage", "network", "serving_stack", "observability",
          "labor_hours", "labor_rate", "moderation", "queue_overhead", "operator_review",
          "input_tokens", "cached_input_tokens", "output_tokens", "price_input_per_mtok",
          "price_cached_per_mtok", "price_output_per_mtok", "gateway", "rate_limit_rpm",
          "rate_limit_tpm", "overage_per_gpu_hour", "support_pct", "setup_fee",
          "setup_amortization_hours", "min_commitment", "storage_gb", "storage_per_gb_month",
          "egress_gb", "egress_per_gb", "ops_failed_requests", "ops_idle_replica_hours",
        };
        for (guint m = 0; m < G_N_ELEMENTS (members); m++)
          note_file (in, &rd, members[m], members[m]);
      }

      if (!procura_cost_inputs_validate (in, path, &local))
        {
          g_set_error (error, PROCURA_COST_ERROR, PROCURA_COST_ERROR_INVALID, "%s: %s", top.file, local->message);
          g_error_free (local);
          procura_cost_inputs_free (base);
          return NULL;
        }
    }
  procura_cost_inputs_free (base);
  return g_steal_pointer (&out);
}

JsonNode *
procura_cost_result_to_json (const ProcuraCostResult *r)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, r->name != NULL ? r->name : "");
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, r->run_workload ? "run" : procura_candidate_kind_id (r->kind));
  json_builder_set_member_name (b, "replicas");
  if (r->kind == PROCURA_CANDIDATE_API)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, r->replicas);
  procura_json_add_number (b, "utilization", r->utilization);
  if (r->kind != PROCURA_CANDIDATE_API)
    {
      procura_json_add_number (b, "billed_hours", r->billed_hours);
      procura_json_add_number (b, "provisioned_gpu_cost", r->provisioned_gpu_cost);
    }
  if (r->kind == PROCURA_CANDIDATE_HYBRID)
    {
      procura_json_add_number (b, "gpu_demand_average", r->gpu_demand_average);
      procura_json_add_number (b, "api_demand_average", r->api_demand_average);
      procura_json_add_number (b, "api_share", r->api_share);
    }
  json_builder_set_member_name (b, "lines");
  json_builder_begin_object (b);
  for (guint l = 0; l < PROCURA_COST_N_LINES; l++)
    if (r->applies & BIT (l))
      procura_json_add_number (b, line_names[l], r->lines[l]);
  json_builder_end_object (b);
  procura_json_add_number (b, "all_in_cost", r->all_in_cost);
  procura_json_add_number (b, "generated_outputs", r->generated_outputs);
  procura_json_add_number (b, "accepted_outputs", r->accepted_outputs);
  procura_json_add_number (b, "cost_per_accepted", r->cost_per_accepted);
  json_builder_set_member_name (b, "feasible");
  json_builder_add_boolean_value (b, r->feasible);
  if (!r->feasible)
    {
      json_builder_set_member_name (b, "infeasible_reason");
      json_builder_add_string_value (b, r->infeasible_reason != NULL ? r->infeasible_reason : "");
    }
  if (!r->run_workload)
    {
      procura_json_add_number (b, "served_demand_average", r->served_demand_average);
      procura_json_add_number (b, "unserved_demand_average", r->unserved_demand_average);
    }
  if (r->kind != PROCURA_CANDIDATE_GPU && !r->run_workload)
    {
      procura_json_add_number (b, "api_peak_rps", r->api_peak_rps);
      procura_json_add_number (b, "api_limit_rps", isfinite (r->api_limit_rps) ? r->api_limit_rps : NAN);
    }
  json_builder_set_member_name (b, "inputs");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->inputs->len; i++)
    {
      const ProcuraCostInput *in = g_ptr_array_index (r->inputs, i);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, in->name);
      procura_json_add_number (b, "value", in->value);
      json_builder_set_member_name (b, "origin");
      json_builder_add_string_value (b, in->origin != NULL ? in->origin : "input");
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->notes->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (r->notes, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

GPtrArray *
procura_cost_inputs_load (const char  *path,
                          GError     **error)
{
  g_autofree char *data = NULL;
  g_autofree char *base = NULL;
  g_autoptr (JsonNode) root = NULL;
  gsize len = 0;

  data = procura_import_read_file (path, "cost inputs (a JSON document, COST-MODEL.md §8)", &len, error);
  if (data == NULL)
    return NULL;
  root = procura_json_parse (path, data, len, 0, PROCURA_JSON_STRICT, error);
  if (root == NULL)
    return NULL;
  base = g_path_get_basename (path);
  return procura_cost_inputs_from_json (root, base, error);
}
