/* procura-uncertainty.c: the capacity interval carried to the cost, and the ranking's
 * separation (docs/capacity.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The cost per accepted output of a GPU candidate (and of the hybrid built on it)
 * depends on its capacity at the target; every other input is a figure the user
 * typed or a quote. So the interval on the cost is the cost model evaluated at the
 * two ends of the capacity interval (procura-capacity.c), not an approximation:
 * the cost at the low capacity is the high cost, and the other way round.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>

#include "procura-analysis-private.h"
#include "procura-units.h"

const char *
procura_separation_name (ProcuraSeparation s)
{
  switch (s)
    {
    case PROCURA_SEPARATION_DISTINCT:
      return "distinct";
    case PROCURA_SEPARATION_OVERLAP:
      return "not-distinguishable";
    case PROCURA_SEPARATION_UNKNOWN:
      return "unknown";
    case PROCURA_SEPARATION_NONE:
    default:
      return "none";
    }
}

/* The cost per accepted output of @in with the capacity at the target replaced by
 * @capacity; NAN when the model refuses it. This is the one place where a capacity
 * other than the reading is costed. */
static double
cost_at_capacity (const ProcuraCostInputs *in,
                  double                   capacity)
{
  g_autoptr(ProcuraCostInputs) copy = NULL;
  g_autoptr(ProcuraCostResult) r = NULL;

  if (!(capacity > 0) || !isfinite (capacity))
    return NAN;
  copy = procura_cost_inputs_copy (in);
  copy->capacity_at_slo = capacity;
  r = procura_cost_evaluate (copy, NULL);
  return r != NULL ? r->cost_per_accepted : NAN;
}

/* The capacity reading the candidate's cost rests on: its own, or for the derived
 * hybrid the GPU candidate's. NULL when the capacity was typed in. */
static const ProcuraCandidateAnalysis *
capacity_source (const ProcuraAnalysis          *a,
                 const ProcuraCandidateAnalysis *ca)
{
  const ProcuraCandidateAnalysis *src = ca->derived ? procura_analysis_find (a, ca->derived_from[0]) : ca;

  if (src == NULL || src->capacity == NULL || src->capacity_origin == NULL ||
      !g_str_has_prefix (src->capacity_origin, "benchmark"))
    return NULL;
  return src;
}

static void
candidate_interval (const ProcuraAnalysis    *a,
                    ProcuraCandidateAnalysis *ca)
{
  const ProcuraCandidateAnalysis *src;
  const ProcuraCapacity *cap;

  ca->cost_lo = ca->cost_hi = NAN;
  if (ca->cost == NULL || ca->inputs == NULL || !isfinite (ca->cost->cost_per_accepted))
    return;
  if (ca->kind == PROCURA_CANDIDATE_API)
    {
      ca->cost_lo = ca->cost_hi = ca->cost->cost_per_accepted;
      ca->cost_interval_reason = g_strdup (_("the API route's cost does not rest on a measured capacity: "
                                           "no sampling interval"));
      return;
    }
  src = capacity_source (a, ca);
  if (src == NULL)
    {
      ca->cost_interval_reason = g_strdup (_("no interval: the capacity at the target was typed in, not "
                                           "read off a sweep"));
      return;
    }
  cap = src->capacity;
  if (!isfinite (cap->capacity_lo_rps) || !isfinite (cap->capacity_hi_rps))
    {
      /* the capacity's own reason already says "no interval …" */
      ca->cost_interval_reason = cap->interval_reason != NULL
        ? g_strdup (cap->interval_reason)
        : g_strdup_printf (_("no interval: %s"), _("the capacity reading has none"));
      return;
    }
  ca->cost_lo = cost_at_capacity (ca->inputs, cap->capacity_hi_rps);
  ca->cost_hi = cap->capacity_lo_rps > 0 ? cost_at_capacity (ca->inputs, cap->capacity_lo_rps) : INFINITY;
  if (isnan (ca->cost_lo) || isnan (ca->cost_hi))
    {
      ca->cost_lo = ca->cost_hi = NAN;
      ca->cost_interval_reason = g_strdup (_("no interval: the cost model refused a capacity at the "
                                           "interval's ends"));
      return;
    }
  /* the reading lies inside its interval, and so does its cost */
  ca->cost_lo = MIN (ca->cost_lo, ca->cost->cost_per_accepted);
  ca->cost_hi = MAX (ca->cost_hi, ca->cost->cost_per_accepted);
  {
    g_autofree char *lo = procura_units_cost_scaled (ca->cost_lo, a->unit_factor, a->currency);
    g_autofree char *hi = procura_units_cost_scaled (ca->cost_hi, a->unit_factor, a->currency);
    g_autofree char *per = procura_units_per_label (a->unit_factor, a->unit_label);
    const char *open_end = cap->hi_lower_bound ? _("; the high end is itself a lower bound, the sweep did not "
                                                   "saturate") : "";

    if (isinf (ca->cost_hi))
      ca->cost_interval_reason = g_strdup_printf (_("from %s %s (at %.4g req/s per replica) with no upper "
                                                    "end: at the upper ends of the percentiles' intervals no "
                                                    "load meets the target"), lo, per, cap->capacity_hi_rps);
    else if (g_strcmp0 (lo, hi) == 0 && cap->capacity_hi_rps == cap->capacity_lo_rps)
      ca->cost_interval_reason = g_strdup_printf (_("%s %s: the capacity interval is one point (%.4g req/s "
                                                    "per replica%s)"), lo, per, cap->capacity_hi_rps, open_end);
    else if (g_strcmp0 (lo, hi) == 0)
      /* both ends need as many replicas as the reading: the interval does not move the cost */
      ca->cost_interval_reason = g_strdup_printf (_("%s %s at both ends of the capacity interval (%.4g and "
                                                    "%.4g req/s per replica%s): the same number of replicas "
                                                    "carries the demand"), lo, per, cap->capacity_hi_rps,
                                                  cap->capacity_lo_rps, open_end);
    else
      ca->cost_interval_reason = g_strdup_printf (_("%s to %s %s: the cost at %.4g and at %.4g req/s per "
                                                    "replica, the ends of the capacity interval%s"), lo, hi, per,
                                                  cap->capacity_hi_rps, cap->capacity_lo_rps, open_end);
  }
}

/* "X (between 10 and 20 req/s)" or "X (beyond 20 req/s)": where to measure. */
static void
where_to_measure (GString                        *out,
                  const ProcuraAnalysis          *a,
                  const ProcuraCandidateAnalysis *ca)
{
  const ProcuraCandidateAnalysis *src = capacity_source (a, ca);
  const ProcuraCapacity *cap = src != NULL ? src->capacity : (ca->capacity != NULL ? ca->capacity : NULL);

  g_string_append (out, src != NULL && src != ca ? src->name : ca->name);
  if (cap == NULL || cap->points->len == 0)
    return;
  if (cap->below >= 0 && cap->above >= 0)
    g_string_append_printf (out, _(" (between %.4g and %.4g req/s)"),
                            g_array_index (cap->points, ProcuraSweepPoint, cap->below).throughput_rps,
                            g_array_index (cap->points, ProcuraSweepPoint, cap->above).throughput_rps);
  else if (cap->below >= 0)
    g_string_append_printf (out, _(" (at %.4g req/s and beyond)"),
                            g_array_index (cap->points, ProcuraSweepPoint, cap->below).throughput_rps);
}

static gboolean
has_sampling_interval (const ProcuraAnalysis          *a,
                       const ProcuraCandidateAnalysis *ca)
{
  return ca->kind != PROCURA_CANDIDATE_API && capacity_source (a, ca) != NULL;
}

/* In the project's money and scale, as every other cost per output: "$0.97 to $1.01". */
static char *
fmt_interval (const ProcuraAnalysis          *a,
              const ProcuraCandidateAnalysis *ca)
{
  g_autofree char *lo = NULL, *hi = NULL;

  if (isnan (ca->cost_lo))
    return g_strdup (_("unknown"));
  lo = procura_units_cost_scaled (ca->cost_lo, a->unit_factor, a->currency);
  if (isinf (ca->cost_hi))
    /* TRANSLATORS: a cost's interval open above, "$0.97 or more" */
    return g_strdup_printf (_("%s or more"), lo);
  hi = procura_units_cost_scaled (ca->cost_hi, a->unit_factor, a->currency);
  if (g_str_equal (lo, hi))
    return g_steal_pointer (&lo);
  /* TRANSLATORS: a cost's interval, "$0.97 to $1.01" */
  return g_strdup_printf (_("%s to %s"), lo, hi);
}

static void
ranking_separation (ProcuraAnalysis *a)
{
  ProcuraCandidateAnalysis *first, *second;
  g_autofree char *i1 = NULL, *i2 = NULL, *per = NULL;
  GString *where;
  gboolean m1, m2;

  a->ranking_separation = PROCURA_SEPARATION_NONE;
  if (a->ranking_withheld || a->ranking->len < 2)
    return;
  first = (ProcuraCandidateAnalysis *) procura_analysis_find (a, g_array_index (a->ranking, gint64, 0));
  second = (ProcuraCandidateAnalysis *) procura_analysis_find (a, g_array_index (a->ranking, gint64, 1));
  i1 = fmt_interval (a, first);
  i2 = fmt_interval (a, second);
  per = procura_units_per_label (a->unit_factor, a->unit_label);
  /* measure the candidates whose cost rests on a sweep */
  m1 = has_sampling_interval (a, first) || isnan (first->cost_lo);
  m2 = has_sampling_interval (a, second) || isnan (second->cost_lo);
  where = g_string_new (NULL);
  if (m1)
    where_to_measure (where, a, first);
  if (m2)
    {
      g_autoptr (GString) other = g_string_new (NULL);

      /* a hybrid is measured on its GPU candidate: name that one once */
      where_to_measure (other, a, second);
      if (!g_string_equal (other, where))
        {
          if (m1)
            g_string_append (where, _(" and "));
          g_string_append_len (where, other->str, other->len);
        }
    }

  if (isnan (first->cost_lo) || isnan (second->cost_lo))
    {
      const ProcuraCandidateAnalysis *u = isnan (first->cost_lo) ? first : second;

      a->ranking_separation = PROCURA_SEPARATION_UNKNOWN;
      a->ranking_uncertainty = g_strdup_printf (_("whether #1 %s and #2 %s are distinguishable is unknown: "
                                                "%s's cost has no interval (%s)"), first->name, second->name,
                                                u->name, u->cost_interval_reason != NULL
                                                ? u->cost_interval_reason : _("no interval"));
      a->measure_next = g_strdup_printf (_("To know whether the ranking holds, re-run %s keeping per-request "
                                         "results (the percentiles' intervals need the samples)."),
                                         where->str);
    }
  else if (second->cost_lo <= first->cost_hi)
    {
      a->ranking_separation = PROCURA_SEPARATION_OVERLAP;
      /* TRANSLATORS: the two best candidates, their cost intervals, the unit ("per 1,000 …") */
      a->ranking_uncertainty = g_strdup_printf (_("#1 %s and #2 %s are not distinguishable at this sample "
                                                "size: their costs, %s and %s %s, overlap"),
                                                first->name, second->name, i1, i2, per);
      if (where->len > 0)
        a->measure_next = g_strdup_printf (_("To separate them, measure more requests at the loads near the "
                                           "target for %s: longer runs there narrow the capacity intervals."),
                                           where->str);
      else
        a->measure_next = g_strdup (_("Neither cost rests on a measured capacity: compare the quotes' terms."));
    }
  else
    {
      a->ranking_separation = PROCURA_SEPARATION_DISTINCT;
      /* TRANSLATORS: the two best candidates, their cost intervals, the unit ("per 1,000 …") */
      a->ranking_uncertainty = g_strdup_printf (_("#1 %s and #2 %s are distinguishable at this sample size: "
                                                "their costs, %s and %s %s, do not overlap"),
                                                first->name, second->name, i1, i2, per);
    }
  g_string_free (where, TRUE);
}

void
procura_analysis_uncertainty (ProcuraAnalysis *a)
{
  for (guint i = 0; i < a->candidates->len; i++)
    candidate_interval (a, g_ptr_array_index (a->candidates, i));
  ranking_separation (a);
}
