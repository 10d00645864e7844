/* procura-recommend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "procura-analysis.h"
#include "procura-units.h"

const char *
procura_choice_name (ProcuraChoice c)
{
  switch (c)
    {
    case PROCURA_CHOICE_API:
      return "api";
    case PROCURA_CHOICE_RENT:
      return "rent";
    case PROCURA_CHOICE_RESERVE:
      return "reserve";
    case PROCURA_CHOICE_BUY:
      return "buy";
    case PROCURA_CHOICE_HYBRID:
      return "hybrid";
    case PROCURA_CHOICE_UNDECIDED:
    default:
      return "undecided";
    }
}

const char *
procura_choice_label (ProcuraChoice c)
{
  switch (c)
    {
    case PROCURA_CHOICE_API:
      return _("Use the API");
    case PROCURA_CHOICE_RENT:
      return _("Rent GPUs");
    case PROCURA_CHOICE_RESERVE:
      return _("Reserve GPUs");
    case PROCURA_CHOICE_BUY:
      return _("Buy GPUs");
    case PROCURA_CHOICE_HYBRID:
      return _("GPUs with API overflow");
    case PROCURA_CHOICE_UNDECIDED:
    default:
      return _("Undecided");
    }
}

void
procura_recommendation_free (ProcuraRecommendation *r)
{
  if (r == NULL)
    return;
  g_free (r->candidate_name);
  g_clear_pointer (&r->reasons, g_ptr_array_unref);
  g_free (r);
}

static void
reason (ProcuraRecommendation *r,
        const char            *format,
        ...) G_GNUC_PRINTF (2, 3);

static void
reason (ProcuraRecommendation *r,
        const char            *format,
        ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (r->reasons, g_strdup_vprintf (format, args));
  va_end (args);
}

static gboolean
contains_ci (const char *haystack,
             const char *needle)
{
  g_autofree char *h = NULL;

  if (haystack == NULL)
    return FALSE;
  h = g_ascii_strdown (haystack, -1);
  return strstr (h, needle) != NULL;
}

#define STEADY_UTILIZATION 0.6
#define STEADY_PEAK_RATIO  1.5
#define HOURS_PER_YEAR     8760.0

static gboolean
reserved_model (const char *m)
{
  return m != NULL && (contains_ci (m, "reserved") || contains_ci (m, "committed") || contains_ci (m, "savings"));
}

/* The pricing model of the GPUs behind @ca (the candidate's, else its quote's). */
static const char *
pricing_model_of (const ProcuraProject           *p,
                  const ProcuraCandidateAnalysis *ca)
{
  gint64 id = ca->derived ? ca->derived_from[0] : ca->candidate_id;
  const ProcuraCandidate *c = procura_project_find_candidate ((ProcuraProject *) p, id);

  if (c == NULL)
    return NULL;
  if (c->pricing_model != NULL && *c->pricing_model)
    return c->pricing_model;
  for (guint i = 0; c->quote_id != 0 && i < p->quotes->len; i++)
    {
      const ProcuraQuote *q = g_ptr_array_index (p->quotes, i);
      if (q->id == c->quote_id)
        return q->pricing_model;
    }
  return NULL;
}

/* Owning the GPUs, per GPU-hour: capex over the depreciation years, power and
 * hosting; NAN unless every purchase input is given. */
static double
owned_cost_per_gpu_hour (const ProcuraCandidate *c)
{
  if (c == NULL || !procura_is_set (c->purchase_price_per_gpu) || !procura_is_set (c->depreciation_years) ||
      c->depreciation_years <= 0 || !procura_is_set (c->power_per_gpu_hour) ||
      !procura_is_set (c->hosting_per_gpu_month))
    return NAN;
  return c->purchase_price_per_gpu / (c->depreciation_years * HOURS_PER_YEAR) + c->power_per_gpu_hour
         + c->hosting_per_gpu_month / 730.0;
}

/* Why the API routes that are not ranked are out: their hard limits. */
static void
constraint_reasons (ProcuraRecommendation *r,
                    const ProcuraAnalysis *a)
{
  for (guint i = 0; i < a->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (a->candidates, i);
      if ((ca->misses_target || ca->rate_limited) && ca->cost_reason != NULL)
        g_ptr_array_add (r->reasons, g_strdup_printf (_("%s is out of the ranking: %s."), ca->name, ca->cost_reason));
    }
}

ProcuraRecommendation *
procura_recommend (const ProcuraProject   *p,
                   const ProcuraAnalysis  *a)
{
  ProcuraRecommendation *r = g_new0 (ProcuraRecommendation, 1);
  const ProcuraCandidateAnalysis *best = NULL, *best_api = NULL, *best_gpu = NULL;
  const ProcuraBrief *b = p->brief;
  const char *cur = a->currency != NULL ? a->currency : "USD";
  gboolean steady, owned_boundary;
  double ratio;

  r->reasons = g_ptr_array_new_with_free_func (g_free);

  if (a->ranking_withheld)
    {
      r->choice = PROCURA_CHOICE_UNDECIDED;
      reason (r, _("No recommendation while the ranking is withheld: %s."), a->ranking_withheld_reason);
      return r;
    }
  best = procura_analysis_find (a, g_array_index (a->ranking, gint64, 0));
  for (guint i = 0; i < a->ranking->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = procura_analysis_find (a, g_array_index (a->ranking, gint64, i));
      if (ca->kind == PROCURA_CANDIDATE_API && best_api == NULL)
        best_api = ca;
      if (ca->kind == PROCURA_CANDIDATE_GPU && best_gpu == NULL)
        best_gpu = ca;
    }
  r->candidate_id = best->candidate_id;
  r->candidate_name = g_strdup (best->name);
  constraint_reasons (r, a);

  /* at the project's scale (per 1,000 reads better than a long fraction of a cent),
   * written as everywhere else (procura-units.h) */
  {
    g_autofree char *cost = procura_units_cost_with_unit (best->cost->cost_per_accepted, a->unit_factor,
                                                          a->unit_label, cur);

    reason (r, _("%s has the lowest cost per accepted output: %s at %.4g requests/s average (%.4g peak)."),
            best->name, cost, a->demand_average,
            procura_is_set (a->demand_peak) ? a->demand_peak : a->demand_average);
  }

  if (best->kind == PROCURA_CANDIDATE_API)
    {
      r->choice = PROCURA_CHOICE_API;
      if (best_gpu != NULL)
        {
          const ProcuraCandidateAnalysis *g = best_gpu;
          g_autofree char *cost = procura_units_cost_with_unit (g->cost->cost_per_accepted, a->unit_factor,
                                                                a->unit_label, cur);

          reason (r, _("The cheapest GPU candidate, %s, costs %s at %.0f %% "
                  "utilisation: at this demand the GPUs would sit idle much of the time."),
                  g->name, cost, 100.0 * g->cost->utilization);
          for (guint k = 0; k < g->break_even->len; k++)
            {
              const ProcuraBreakEven *be = &g_array_index (g->break_even, ProcuraBreakEven, k);
              if (be->gpu_cheaper_above)
                {
                  reason (r, _("%s becomes cheaper than the API above about %.4g requests/s average "
                          "(%.0f %% utilisation): revisit when demand grows past it."),
                          g->name, be->demand, 100.0 * be->utilization);
                  break;
                }
            }
        }
      else
        reason (r, _("No GPU candidate has a cost at the target."));
      return r;
    }

  if (best->kind == PROCURA_CANDIDATE_HYBRID)
    {
      r->choice = PROCURA_CHOICE_HYBRID;
      if (best_api == NULL)
        reason (r, _("GPUs for the base load and the API for the %.1f %% of requests above their capacity "
                "beat the GPUs alone, and no API route can take the whole load on its own: the GPUs stay busy "
                "and the API stays within its limits."), 100.0 * best->cost->api_share);
      else
        reason (r, _("GPUs for the base load and the API for the %.1f %% of requests above their capacity "
                "beat both pure options: the GPUs stay busy and the peaks do not need idle replicas."),
                100.0 * best->cost->api_share);
      if (reserved_model (pricing_model_of (p, best)))
        reason (r, _("The base GPUs are costed at a %s price: take that term for the base replicas (they run "
                "all the time) and pay the API per token for the overflow."), pricing_model_of (p, best));
      else
        reason (r, _("Rent the base GPUs on demand first; reserve them once the base load has held for a "
                "few months."));
      return r;
    }

  /* a GPU candidate: rent, reserve or buy */
  ratio = procura_is_set (a->demand_peak) && a->demand_average > 0 ? a->demand_peak / a->demand_average : 1.0;
  steady = (b == NULL || b->duty_cycle == NULL || g_strcmp0 (b->duty_cycle, "always-on") == 0) &&
           ratio <= STEADY_PEAK_RATIO;
  owned_boundary = b != NULL && (contains_ci (b->operating_boundary, "on-prem") ||
                                 contains_ci (b->operating_boundary, "sovereign") ||
                                 contains_ci (b->operating_boundary, "air-gap") ||
                                 contains_ci (b->operating_boundary, "own"));

  if (best_api != NULL)
    {
      g_autofree char *cost = procura_units_cost_with_unit (best_api->cost->cost_per_accepted, a->unit_factor,
                                                            a->unit_label, cur);

      reason (r, _("The API route %s costs %s, %.1f× as much."), best_api->name, cost,
              best_api->cost->cost_per_accepted / best->cost->cost_per_accepted);
    }

  {
    const ProcuraCandidate *bc = procura_project_find_candidate ((ProcuraProject *) p, best->candidate_id);
    double owned = owned_cost_per_gpu_hour (bc);
    double rented = best->inputs != NULL ? best->inputs->price_per_gpu_hour : NAN;

    if (steady && best->cost->utilization >= STEADY_UTILIZATION && isfinite (owned) &&
        (owned_boundary || (isfinite (rented) && owned < rented)))
      {
        r->choice = PROCURA_CHOICE_BUY;
        reason (r, _("Owning costs %.4g %s per GPU-hour (%.6g capex over %.4g years, %.4g power per GPU-hour, "
                "%.4g hosting per GPU-month) against %.4g %s rented."), owned, cur,
                bc->purchase_price_per_gpu, bc->depreciation_years, bc->power_per_gpu_hour,
                bc->hosting_per_gpu_month, rented, cur);
        if (owned_boundary)
          /* TRANSLATORS: the peak over the average, the utilisation, the brief's operating boundary */
          reason (r, _("The load is steady (peak %.2f× average) with %.0f %% utilisation, and the operating "
                       "boundary (%s) keeps it on your hardware: buying pays off over the GPUs' life."),
                  ratio, 100.0 * best->cost->utilization, b->operating_boundary);
        else
          reason (r, _("The load is steady (peak %.2f× average) with %.0f %% utilisation: buying pays off "
                       "over the GPUs' life."), ratio, 100.0 * best->cost->utilization);
        return r;
      }
    if (owned_boundary && !isfinite (owned))
      reason (r, _("Buying is not advised: it needs purchase inputs of its own for %s (capex per GPU, "
              "depreciation years, power per GPU-hour, hosting per GPU-month), and they are not all given."),
              best->name);
  }
  if (steady && best->cost->utilization >= STEADY_UTILIZATION)
    {
      r->choice = PROCURA_CHOICE_RESERVE;
      /* TRANSLATORS: the duty cycle, the peak over the average, the replicas, the utilisation */
      reason (r, ngettext ("The load is steady (%s, peak %.2f× average) and keeps %d replica %.0f %% busy: a "
                           "reserved or committed term buys the same hours for less.",
                           "The load is steady (%s, peak %.2f× average) and keeps %d replicas %.0f %% busy: a "
                           "reserved or committed term buys the same hours for less.", best->cost->replicas),
              b != NULL && b->duty_cycle != NULL ? b->duty_cycle : "always-on", ratio,
              best->cost->replicas, 100.0 * best->cost->utilization);
      if (owned_boundary)
        reason (r, _("Buying would need a steadier or busier load (at least %.0f %% utilisation)."),
                100.0 * STEADY_UTILIZATION);
    }
  else
    {
      r->choice = PROCURA_CHOICE_RENT;
      if (!steady)
        reason (r, _("The load is not steady (%s, peak %.2f× average): rent on demand and scale with it "
                "rather than commit to a term."),
                b != NULL && b->duty_cycle != NULL ? b->duty_cycle : _("duty cycle unknown"), ratio);
      if (best->cost->utilization < STEADY_UTILIZATION)
        reason (r, _("Utilisation is %.0f %%, below the %.0f %% at which a reserved term usually pays off."),
                100.0 * best->cost->utilization, 100.0 * STEADY_UTILIZATION);
      if (reserved_model (pricing_model_of (p, best)))
        reason (r, _("%s is costed at a %s price: renting on demand costs more per hour than this figure; "
                "re-cost it at the on-demand price before choosing."), best->name, pricing_model_of (p, best));
    }
  return r;
}
