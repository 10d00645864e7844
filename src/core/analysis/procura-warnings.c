/* procura-warnings.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "procura-analysis.h"
#include "procura-util.h"

const char *
procura_severity_name (ProcuraSeverity s)
{
  switch (s)
    {
    case PROCURA_SEVERITY_ERROR:
      return "error";
    case PROCURA_SEVERITY_WARNING:
      return "warning";
    case PROCURA_SEVERITY_INFO:
    default:
      return "info";
    }
}

ProcuraWarning *
procura_warning_new (const char      *id,
                     ProcuraSeverity  severity,
                     gint64           candidate_id,
                     const char      *message,
                     const char      *what_to_do)
{
  ProcuraWarning *w = g_new0 (ProcuraWarning, 1);

  w->id = g_strdup (id);
  w->severity = severity;
  w->candidate_id = candidate_id;
  w->message = g_strdup (message);
  w->what_to_do = g_strdup (what_to_do);
  return w;
}

void
procura_warning_free (ProcuraWarning *w)
{
  if (w == NULL)
    return;
  g_free (w->id);
  g_free (w->message);
  g_free (w->what_to_do);
  g_free (w);
}

/* The live runs assigned to candidate @id. */
static guint
runs_of (const ProcuraProject *p,
         gint64                id)
{
  guint n = 0;

  for (guint i = 0; p->runs != NULL && i < p->runs->len; i++)
    if (((const ProcuraRun *) g_ptr_array_index (p->runs, i))->candidate_id == id)
      n++;
  return n;
}

static const struct
{
  const char *id;
  const char *title;
} warning_titles[] = {
  { PROCURA_WARN_BRIEF_INCOMPLETE, N_("the brief is incomplete") },
  { PROCURA_WARN_HOURLY_RATE_ONLY, N_("no benchmark at the target, only a price") },
  { PROCURA_WARN_SINGLE_POINT_FIT, N_("memory checked at one context length only") },
  { PROCURA_WARN_NO_INTERCONNECT, N_("interconnect unknown") },
  { PROCURA_WARN_ACCEPTANCE_UNSET, N_("no acceptance rate") },
  { PROCURA_WARN_LABOR_ZERO, N_("no platform labor") },
  { PROCURA_WARN_NO_SCENARIO, N_("only today's model and request shape measured") },
  { PROCURA_WARN_STALE_PRICE, N_("price out of date") },
  { PROCURA_WARN_NO_PRICE, N_("no price") },
  { PROCURA_WARN_NOT_SATURATED, N_("capacity not reached by the sweep") },
  { PROCURA_WARN_MISSES_TARGET, N_("misses the latency target") },
  { PROCURA_WARN_UNCERTAIN_CAPACITY, N_("capacity uncertain") },
  { PROCURA_WARN_AS_REPORTED, N_("percentiles as reported, no interval") },
  { PROCURA_WARN_RATE_LIMIT, N_("over its rate limit") },
  { PROCURA_WARN_RUN_WORKLOAD, N_("costed per completed run") },
  { PROCURA_WARN_DOES_NOT_FIT, N_("does not fit in GPU memory") },
  { PROCURA_WARN_RUN_EXCLUDED, N_("a run left out") },
  { PROCURA_WARN_NON_MONOTONE, N_("a sweep that does not rise with load") },
};

const char *
procura_warning_title (const char *id)
{
  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (warning_titles); i++)
    if (g_str_equal (warning_titles[i].id, id))
      return _(warning_titles[i].title);
  return NULL;
}

static void
warn (ProcuraAnalysis *a,
      const char      *id,
      ProcuraSeverity  severity,
      gint64           candidate_id,
      char            *message,     /* owned */
      char            *what_to_do)  /* owned */
{
  g_ptr_array_add (a->warnings, procura_warning_new (id, severity, candidate_id, message, what_to_do));
  g_free (message);
  g_free (what_to_do);
}

static const ProcuraCandidate *
project_candidate (const ProcuraProject *p,
                   gint64                id)
{
  for (guint i = 0; i < p->candidates->len; i++)
    {
      const ProcuraCandidate *c = g_ptr_array_index (p->candidates, i);
      if (c->id == id)
        return c;
    }
  return NULL;
}

static const ProcuraQuote *
quote_of (const ProcuraProject   *p,
          const ProcuraCandidate *c)
{
  if (c->quote_id == 0)
    return NULL;
  for (guint i = 0; i < p->quotes->len; i++)
    {
      const ProcuraQuote *q = g_ptr_array_index (p->quotes, i);
      if (q->id == c->quote_id)
        return q;
    }
  return NULL;
}

/* Context lengths (input + output tokens) measured or checked for a candidate:
 * benchmark shapes, engine logs' max_model_len, probe fit tests. */
static guint
distinct_contexts (const ProcuraProject *p,
                   gint64                candidate_id,
                   gboolean              all_candidates,
                   guint                *evidence)
{
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (double));
  guint n_evidence = 0;

#define ADD_CONTEXT(v) \
  G_STMT_START { \
    double _v = (v); gboolean _dup = FALSE; \
    for (guint _k = 0; _k < seen->len; _k++) \
      if (fabs (g_array_index (seen, double, _k) - _v) <= 0.02 * _v) _dup = TRUE; \
    if (!_dup) g_array_append_val (seen, _v); \
  } G_STMT_END

  for (guint i = 0; i < p->runs->len; i++)
    {
      const ProcuraRun *r = g_ptr_array_index (p->runs, i);
      if (!all_candidates && r->candidate_id != candidate_id)
        continue;
      n_evidence++;
      if (procura_is_set (r->scenario.input_len) && procura_is_set (r->scenario.output_len))
        ADD_CONTEXT (r->scenario.input_len + r->scenario.output_len);
      else if (procura_is_set (r->input_tokens_mean) && procura_is_set (r->output_tokens_mean))
        ADD_CONTEXT (r->input_tokens_mean + r->output_tokens_mean);
    }
  for (guint i = 0; i < p->engine_logs->len; i++)
    {
      const ProcuraEngineLog *l = g_ptr_array_index (p->engine_logs, i);
      if (!all_candidates && l->candidate_id != candidate_id)
        continue;
      n_evidence++;
      if (l->max_model_len > 0)
        ADD_CONTEXT ((double) l->max_model_len);
    }
  for (guint i = 0; i < p->probe_results->len; i++)
    {
      const ProcuraProbeResult *r = g_ptr_array_index (p->probe_results, i);
      if (!all_candidates && r->candidate_id != candidate_id)
        continue;
      if (g_strcmp0 (r->test, "fit") == 0)
        n_evidence++;
    }
#undef ADD_CONTEXT
  if (evidence != NULL)
    *evidence = n_evidence;
  return seen->len;
}

static guint
distinct_models (const ProcuraProject *p)
{
  g_autoptr(GPtrArray) seen = g_ptr_array_new ();

  for (guint i = 0; i < p->runs->len; i++)
    {
      const ProcuraRun *r = g_ptr_array_index (p->runs, i);
      if (r->scenario.model != NULL &&
          !g_ptr_array_find_with_equal_func (seen, r->scenario.model, g_str_equal, NULL))
        g_ptr_array_add (seen, r->scenario.model);
    }
  for (guint i = 0; i < p->model_shapes->len; i++)
    {
      const ProcuraModelShape *m = g_ptr_array_index (p->model_shapes, i);
      if (m->id != NULL && !g_ptr_array_find_with_equal_func (seen, m->id, g_str_equal, NULL))
        g_ptr_array_add (seen, m->id);
    }
  return seen->len;
}

static void
price_warnings (const ProcuraProject   *p,
                ProcuraAnalysis        *a,
                const ProcuraCandidate *c)
{
  const ProcuraQuote *q = quote_of (p, c);
  double stale = procura_is_set (p->assumptions.stale_days) && p->assumptions.stale_days > 0
                 ? p->assumptions.stale_days : 30;
  const char *date = NULL;
  const char *where = NULL;
  int days;

  if (procura_is_set (c->price_per_gpu_hour))
    {
      date = c->price_date;
      /* TRANSLATORS: fills "The %s of %s has no date" and "The %s of %s was seen …" */
      where = _("typed-in price");
    }
  else if (q != NULL && procura_is_set (procura_quote_price_per_gpu_hour (q)))
    {
      date = q->seen_date;
      /* TRANSLATORS: fills "The %s of %s has no date" and "The %s of %s was seen …" */
      where = _("quoted price");
    }
  else
    {
      warn (a, PROCURA_WARN_NO_PRICE, PROCURA_SEVERITY_ERROR, c->id,
            g_strdup_printf (_("%s has no price per GPU-hour: it has no cost"), c->name),
            g_strdup (_("Import a price list or a quote for this GPU and provider, or type the price "
                      "with the date it was seen.")));
      return;
    }

  days = date != NULL ? procura_days_since (date) : -1;
  if (date == NULL || days < 0)
    warn (a, PROCURA_WARN_STALE_PRICE, PROCURA_SEVERITY_WARNING, c->id,
          /* TRANSLATORS: "The typed-in price of CANDIDATE has no date…" */
          g_strdup_printf (_("The %s of %s has no date: it cannot be trusted as current"), where, c->name),
          g_strdup (_("Record the date the price was seen, or refresh it from the provider.")));
  else if (days > stale)
    warn (a, PROCURA_WARN_STALE_PRICE, PROCURA_SEVERITY_WARNING, c->id,
          /* TRANSLATORS: the price kind, the candidate, the age in days, the date, the limit in days */
          g_strdup_printf (_("The %s of %s was seen %d days ago (%s), more than %.0f days"), where, c->name,
                           days, date, stale),
          g_strdup (_("Refresh the quote: GPU prices move monthly, and a stale price can change the ranking.")));
}

void
procura_warnings_collect (const ProcuraProject *p,
                          ProcuraAnalysis      *a)
{
  const ProcuraBrief *b = p->brief;
  g_auto(GStrv) missing = b != NULL ? procura_brief_missing (b) : NULL;
  guint n_gpu = 0, n_gpu_benchmarked = 0;

  /* project level */
  if (missing != NULL && g_strv_length (missing) > 0)
    {
      g_autofree char *list = g_strjoinv (", ", missing);
      warn (a, PROCURA_WARN_BRIEF_INCOMPLETE, PROCURA_SEVERITY_WARNING, 0,
            g_strdup_printf (_("The brief is missing: %s. The ranking is withheld until it is complete."), list),
            g_strdup (_("Fill in the workload brief: workload type, model, request shape, success unit, "
                      "latency target, duty cycle, operating boundary, tooling and demand.")));
    }
  if (!procura_is_set (p->assumptions.acceptance_rate))
    warn (a, PROCURA_WARN_ACCEPTANCE_UNSET, PROCURA_SEVERITY_WARNING, 0,
          g_strdup (_("No acceptance rate: every generated output is counted as accepted, so every cost "
                    "per accepted output is too low")),
          g_strdup (_("Measure the share of outputs that pass your quality filter (an eval on a sample of "
                    "real requests) and set the acceptance rate in the assumptions.")));
  if (b != NULL && (g_strcmp0 (b->workload_type, "training") == 0 || g_strcmp0 (b->workload_type, "fine-tuning") == 0 ||
                    g_strcmp0 (b->workload_type, "evaluation") == 0))
    warn (a, PROCURA_WARN_RUN_WORKLOAD, PROCURA_SEVERITY_INFO, 0,
          g_strdup_printf (_("A %s workload is costed per completed run, not per request: the summary "
                           "shows no serving cost"), b->workload_type),
          g_strdup (_("Cost the run with `procura cost` and the run inputs (GPU hours, checkpoints, "
                    "interruptions, success probability).")));
  {
    guint ctx = distinct_contexts (p, 0, TRUE, NULL);
    if (distinct_models (p) <= 1 && ctx <= 1 && p->runs->len > 0)
      warn (a, PROCURA_WARN_NO_SCENARIO, PROCURA_SEVERITY_WARNING, 0,
            g_strdup (_("Every measurement is of today's model at today's request shape: nothing shows "
                      "what a longer context, a larger model or more traffic would cost")),
            g_strdup (_("Read the what-if scenarios (context ×2, a larger model, traffic ×3) and benchmark "
                      "the one you expect within the planning window before committing.")));
  }

  /* per candidate */
  for (guint i = 0; i < a->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (a->candidates, i);
      const ProcuraCandidate *c = ca->derived ? NULL : project_candidate (p, ca->candidate_id);
      gboolean gpu = ca->kind != PROCURA_CANDIDATE_API;

      if (c == NULL)
        continue;
      if (gpu)
        {
          const ProcuraCapacity *cap = ca->capacity;
          guint evidence = 0, contexts;
          double labor = (procura_is_set (c->labor_hours) ? c->labor_hours : 0) *
                         (procura_is_set (c->labor_rate) ? c->labor_rate : 0);

          n_gpu++;
          price_warnings (p, a, c);

          if (cap != NULL && cap->status == PROCURA_CAPACITY_NO_DATA && !procura_is_set (c->capacity_override)
              && !isfinite (a->slo_threshold_ms) && runs_of (p, c->id) > 0)
            /* the runs are there: what is missing is the target to read them at */
            warn (a, PROCURA_WARN_HOURLY_RATE_ONLY, PROCURA_SEVERITY_ERROR, c->id,
                  /* TRANSLATORS: a candidate, then the number of its runs */
                  g_strdup_printf (ngettext ("%s has %u benchmark run but the brief has no latency target to read "
                                             "it at, so its capacity and cost per accepted output are unknown",
                                             "%s has %u benchmark runs but the brief has no latency target to read "
                                             "them at, so its capacity and cost per accepted output are unknown",
                                             runs_of (p, c->id)),
                                   c->name, runs_of (p, c->id)),
                  g_strdup (_("Set the latency target in the brief: the metric, the percentile and the "
                            "threshold in milliseconds.")));
          else if (cap != NULL && cap->status == PROCURA_CAPACITY_NO_DATA && !procura_is_set (c->capacity_override))
            warn (a, PROCURA_WARN_HOURLY_RATE_ONLY, PROCURA_SEVERITY_ERROR, c->id,
                  g_strdup_printf (_("%s has no benchmark at the latency target: all that is known is its hourly "
                                   "rate, which says nothing about the cost of an accepted output"), c->name),
                  g_strdup_printf (_("Import a load sweep of %s (e.g. guidellm --profile sweep, or vllm bench "
                                   "serve at rising request rates) that goes past the target, or type its "
                                   "capacity at the target."), c->name));
          else
            n_gpu_benchmarked++;

          if (cap != NULL && cap->status == PROCURA_CAPACITY_MISSES)
            warn (a, PROCURA_WARN_MISSES_TARGET, PROCURA_SEVERITY_ERROR, c->id,
                  g_strdup_printf ("%s %s", c->name, cap->reason),
                  g_strdup (_("Drop it at this target, or benchmark a larger configuration (more GPUs per "
                            "replica, a quantised model, another engine setting).")));
          if (cap != NULL && cap->status == PROCURA_CAPACITY_NOT_SATURATED && !procura_is_set (c->capacity_override))
            warn (a, PROCURA_WARN_NOT_SATURATED, PROCURA_SEVERITY_WARNING, c->id,
                  g_strdup_printf (_("%s: %s; its cost is an upper bound"), c->name, cap->reason),
                  g_strdup (_("Extend the sweep to higher loads until the target is missed.")));
          for (guint k = 0; cap != NULL && k < cap->excluded->len; k++)
            warn (a, PROCURA_WARN_RUN_EXCLUDED, PROCURA_SEVERITY_WARNING, c->id,
                  g_strdup_printf ("%s: %s", c->name, (const char *) g_ptr_array_index (cap->excluded, k)),
                  g_strdup (_("Find out why its requests failed (the server log), then re-run it or "
                            "remove it from the candidate.")));
          if (cap != NULL && cap->non_monotone != NULL)
            warn (a, PROCURA_WARN_NON_MONOTONE, PROCURA_SEVERITY_WARNING, c->id,
                  g_strdup_printf ("%s: %s", c->name, cap->non_monotone),
                  g_strdup (_("Re-run the point that misses with a warm-up phase and more requests; if it "
                            "still misses, the sweep is noisy and the capacity is uncertain.")));
          if (cap != NULL && cap->uncertain)
            warn (a, PROCURA_WARN_UNCERTAIN_CAPACITY, PROCURA_SEVERITY_WARNING, c->id,
                  g_strdup_printf (_("%s: the capacity at the target is uncertain: the target lies inside the "
                                   "95 %% confidence interval of a neighbouring sweep point"), c->name),
                  g_strdup (_("Run more requests at the loads around the crossing (a longer run narrows "
                            "the interval).")));
          if (cap != NULL && cap->points->len > 0 && !cap->all_recomputed)
            warn (a, PROCURA_WARN_AS_REPORTED, PROCURA_SEVERITY_INFO, c->id,
                  g_strdup_printf (_("%s: some percentiles are used as the benchmark reported them, without "
                                   "per-request samples or a confidence interval"), c->name),
                  g_strdup (_("Re-run the benchmark keeping per-request results (e.g. vllm bench serve "
                            "--save-detailed, guidellm's full report) to recompute them.")));

          contexts = distinct_contexts (p, c->id, FALSE, &evidence);
          if (evidence > 0 && contexts <= 1)
            warn (a, PROCURA_WARN_SINGLE_POINT_FIT, PROCURA_SEVERITY_WARNING, c->id,
                  g_strdup_printf (_("%s: memory and capacity were checked at a single context length; "
                                   "a longer context or a larger batch may not fit"), c->name),
                  g_strdup (_("Check the memory fit over the contexts and concurrencies you expect (the fit "
                            "map, or `procura fit` at twice the context) and benchmark the longest.")));

          if (ca->fit != NULL && !ca->fit->fits)
            warn (a, PROCURA_WARN_DOES_NOT_FIT, PROCURA_SEVERITY_ERROR, c->id,
                  g_strdup_printf (_("%s does not fit the model at the brief's context and concurrency "
                                   "(%s): %s"), c->name, procura_fit_limit_to_string (ca->fit->limit),
                                   ca->fit->limit_text),
                  g_strdup (_("Use more GPUs per replica (a higher TP), a quantised model or KV cache, "
                            "or a GPU with more memory; check the fit map for what fits.")));

          if ((c->gpus_per_replica > 1 || c->tp * MAX (c->pp, 1) > 1) &&
              (c->interconnect == NULL || *c->interconnect == '\0'))
            warn (a, PROCURA_WARN_NO_INTERCONNECT, PROCURA_SEVERITY_WARNING, c->id,
                  g_strdup_printf (_("%s uses %d GPUs per replica but its interconnect is unknown: tensor "
                                   "parallelism over PCIe can be several times slower than over NVLink"),
                                   c->name, MAX (c->gpus_per_replica, c->tp * MAX (c->pp, 1))),
                  g_strdup (_("Ask the provider for the GPU-to-GPU link (NVLink / NVSwitch / PCIe) and "
                            "benchmark on that exact instance type, or measure it with the probe (p2p).")));

          if (labor == 0)
            warn (a, PROCURA_WARN_LABOR_ZERO, PROCURA_SEVERITY_WARNING, c->id,
                  g_strdup_printf (_("%s has no platform labor: running GPUs yourself takes people "
                                   "(on-call, upgrades, capacity planning)"), c->name),
                  g_strdup (_("Enter the engineering hours per month this option needs and their hourly "
                            "cost.")));
        }
      /* an API route's hard constraints (docs/cost-model.md): out of the ranking */
      if (ca->kind == PROCURA_CANDIDATE_API && ca->rate_limited)
        warn (a, PROCURA_WARN_RATE_LIMIT, PROCURA_SEVERITY_ERROR, c->id,
              g_strdup_printf (_("%s is %s"), c->name, ca->cost_reason),
              g_strdup (_("Ask for a higher rate limit, or plan a hybrid with GPUs for the base load.")));
      if (ca->kind == PROCURA_CANDIDATE_API && ca->misses_target)
        warn (a, PROCURA_WARN_MISSES_TARGET, PROCURA_SEVERITY_ERROR, c->id,
              g_strdup_printf ("%s %s", c->name, ca->cost_reason),
              g_strdup (_("Ask for a faster tier or region, or loosen the target if the brief allows it.")));
    }

  if (n_gpu > 0 && n_gpu_benchmarked == 0)
    warn (a, PROCURA_WARN_HOURLY_RATE_ONLY, PROCURA_SEVERITY_ERROR, 0,
          g_strdup (_("No GPU candidate has a benchmark: any ranking would be by hourly rate only")),
          g_strdup (_("Import a benchmark sweep for each GPU candidate.")));
}
