/* procura-sensitivity.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>

#include "procura-sensitivity.h"

void
procura_sensitivity_free (ProcuraSensitivity *s)
{
  if (s == NULL)
    return;
  g_free (s->input);
  g_free (s->label);
  g_free (s);
}

void
procura_what_if_free (ProcuraWhatIf *w)
{
  if (w == NULL)
    return;
  g_free (w->id);
  g_free (w->title);
  g_free (w->assumption);
  g_free (w->note);
  g_clear_pointer (&w->result, procura_cost_result_free);
  g_free (w);
}

typedef enum {
  MOVE_UTILIZATION,
  MOVE_ACCEPTANCE,
  MOVE_PRICE,
  MOVE_RETRY,
  MOVE_LABOR,
} Move;

static double
cost_of (const ProcuraCostInputs *in)
{
  g_autoptr(ProcuraCostResult) r = procura_cost_evaluate (in, NULL);
  return r != NULL ? r->cost_per_accepted : NAN;
}

/* Applies @factor (a multiplier of the base value) or sets @value. */
static void
apply (ProcuraCostInputs *in,
       Move               move,
       double             value,
       double             base)
{
  switch (move)
    {
    case MOVE_UTILIZATION:
      {
        double ratio = in->demand_average > 0 && !isnan (in->demand_peak)
                       ? in->demand_peak / in->demand_average : 1.0;
        /* value is the utilisation; demand = u x replicas x capacity / (1 + retry) */
        double d = base > 0 ? in->demand_average * value / base : 0;
        in->demand_average = d;
        in->demand_peak = d * ratio;
      }
      break;
    case MOVE_ACCEPTANCE:
      in->acceptance_rate = value;
      break;
    case MOVE_PRICE:
      {
        double f = base > 0 ? value / base : 1.0;
        in->price_per_gpu_hour *= f;
        in->price_input_per_mtok *= f;
        in->price_cached_per_mtok *= f;
        in->price_output_per_mtok *= f;
      }
      break;
    case MOVE_RETRY:
      in->retry_rate = value;
      break;
    case MOVE_LABOR:
      in->labor_hours = value;
      break;
    default:
      break;
    }
}

GPtrArray *
procura_sensitivity_run (const ProcuraCostInputs *in,
                         double                   relative)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_sensitivity_free);
  g_autoptr(ProcuraCostResult) base_r = procura_cost_evaluate (in, NULL);
  g_autoptr(ProcuraCostInputs) fixed = NULL;
  gboolean gpu_side = in->kind != PROCURA_CANDIDATE_API;
  struct {
    Move        move;
    const char *id;
    const char *label;
    double      base;
    double      step0;   /* absolute step when the base is 0 */
    double      lo_min, hi_max;
  } rows[] = {
    { MOVE_UTILIZATION, "utilization", N_("Utilisation"), 0, 0.05, 0, 1 },
    { MOVE_ACCEPTANCE, "acceptance_rate", N_("Acceptance rate"), in->acceptance_rate, 0.01, 0.001, 1 },
    { MOVE_PRICE, "price", N_("Price"), 0, 0, 0, INFINITY },
    { MOVE_RETRY, "retry_rate", N_("Retry rate"), in->retry_rate, 0.01, 0, 1 },
    { MOVE_LABOR, "labor", N_("Platform labor (hours)"), in->labor_hours, 10, 0, INFINITY },
  };

  if (base_r == NULL || !(relative > 0))
    return out;

  /* hold the replicas: a sensitivity row moves one input */
  fixed = procura_cost_inputs_copy (in);
  if (gpu_side && base_r->replicas > 0)
    fixed->fixed_replicas = base_r->replicas;

  rows[0].base = base_r->utilization;
  rows[2].base = gpu_side ? in->price_per_gpu_hour : in->price_output_per_mtok;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      ProcuraSensitivity *s;
      g_autoptr(ProcuraCostInputs) lo = NULL, hi = NULL;
      double b = rows[i].base, lo_v, hi_v;

      if (rows[i].move == MOVE_UTILIZATION && (!gpu_side || !isfinite (b)))
        continue;
      if (!isfinite (b))
        continue;
      if (b > 0)
        {
          lo_v = b * (1.0 - relative);
          hi_v = b * (1.0 + relative);
        }
      else
        {
          if (rows[i].step0 == 0)
            continue;      /* a zero price stays zero */
          lo_v = b - rows[i].step0;
          hi_v = b + rows[i].step0;
        }
      lo_v = CLAMP (lo_v, rows[i].lo_min, rows[i].hi_max);
      hi_v = CLAMP (hi_v, rows[i].lo_min, rows[i].hi_max);

      lo = procura_cost_inputs_copy (fixed);
      hi = procura_cost_inputs_copy (fixed);
      apply (lo, rows[i].move, lo_v, b);
      apply (hi, rows[i].move, hi_v, b);

      s = g_new0 (ProcuraSensitivity, 1);
      s->input = g_strdup (rows[i].id);
      s->label = g_strdup (_(rows[i].label));
      s->base_value = b;
      s->low_value = lo_v;
      s->high_value = hi_v;
      s->base_cost = base_r->cost_per_accepted;
      s->cost_low = cost_of (lo);
      s->cost_high = cost_of (hi);
      g_ptr_array_add (out, s);
    }
  return out;
}

static ProcuraWhatIf *
what_if_new (const char *id,
             const char *title,
             const char *assumption,
             gboolean    estimate,
             double      capacity_factor,
             double      demand_factor)
{
  ProcuraWhatIf *w = g_new0 (ProcuraWhatIf, 1);

  w->id = g_strdup (id);
  w->title = g_strdup (title);
  w->assumption = g_strdup (assumption);
  w->estimate = estimate;
  w->capacity_factor = capacity_factor;
  w->demand_factor = demand_factor;
  return w;
}

static void
what_if_cost (ProcuraWhatIf     *w,
              ProcuraCostInputs *in)
{
  GError *error = NULL;

  w->result = procura_cost_evaluate (in, &error);
  if (w->result == NULL)
    {
      w->note = g_strdup (error->message);
      g_error_free (error);
    }
}

GPtrArray *
procura_what_if_run (const ProcuraCostInputs *in)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_what_if_free);
  gboolean gpu_side = in->kind != PROCURA_CANDIDATE_API;
  ProcuraWhatIf *w;

  /* traffic x3 */
  {
    g_autoptr(ProcuraCostInputs) c = procura_cost_inputs_copy (in);
    c->demand_average *= 3.0;
    if (!isnan (c->demand_peak))
      c->demand_peak *= 3.0;
    c->fixed_replicas = 0;
    w = what_if_new ("traffic-x3", _("Traffic ×3"),
                     _("average and peak demand three times today's; replicas sized again for the peak"),
                     FALSE, 1.0, 3.0);
    what_if_cost (w, c);
    g_ptr_array_add (out, w);
  }

  /* context x2 */
  {
    g_autoptr(ProcuraCostInputs) c = procura_cost_inputs_copy (in);
    if (gpu_side)
      {
        c->capacity_at_slo *= 0.5;
        c->fixed_replicas = 0;
      }
    c->input_tokens *= 2.0;
    c->cached_input_tokens *= 2.0;
    w = what_if_new ("context-x2", _("Context ×2"),
                     gpu_side ? _("twice the context per request: the KV cache holds half the sequences, so "
                                "the capacity at the target is taken as half today's (an estimate: "
                                "benchmark at the longer context to replace it)")
                              : _("twice the input tokens per request at today's prices"),
                     gpu_side, gpu_side ? 0.5 : 1.0, 1.0);
    what_if_cost (w, c);
    g_ptr_array_add (out, w);
  }

  /* a larger model */
  if (gpu_side)
    {
      g_autoptr(ProcuraCostInputs) c = procura_cost_inputs_copy (in);
      c->gpus_per_replica *= 2;
      c->fixed_replicas = 0;
      w = what_if_new ("larger-model", _("A larger model (×2 parameters)"),
                       _("twice the parameters: twice the GPUs per replica to hold the weights; decoding "
                       "being bound by memory bandwidth, twice the bandwidth for twice the bytes keeps the "
                       "capacity per replica at today's, i.e. half per GPU (an estimate: check the memory "
                       "fit and benchmark the model you expect next)"),
                       TRUE, 1.0, 1.0);
      what_if_cost (w, c);
      g_ptr_array_add (out, w);
    }
  else
    {
      w = what_if_new ("larger-model", _("A larger model (×2 parameters)"),
                       _("the API's price for a larger model is not known"), TRUE, 1.0, 1.0);
      w->note = g_strdup (_("not estimated: add a quote for the larger model's API"));
      g_ptr_array_add (out, w);
    }
  return out;
}
