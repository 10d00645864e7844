/* procura-report.c: builds the decision record from a project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "procura-analysis.h"
#include "procura-atomic-file.h"
#include "procura-diff.h"
#include "procura-figures.h"
#include "procura-report.h"
#include "procura-store-probe.h"
#include "procura-units.h"
#include "procura-util.h"

/* @decimals < 0: shortest form (%g). @unit may be NULL. The forms are the core's
 * (procura-units.h), shared with `procura diff` and the app's Compare dialog. */
static char *
fmt_num (double      v,
         int         decimals,
         const char *unit)
{
  return procura_units_number (v, decimals, unit);
}

static char *
fmt_money (double      v,
           const char *currency)
{
  return procura_units_money (v, currency);
}

/* A plain number for CSV: shortest exact-enough form, empty when unknown. */
static char *
raw_num (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (v) || isinf (v))
    return g_strdup ("");
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.10g", v));
}

typedef struct {
  ProcuraReportDoc      *doc;
  ProcuraProject        *project;
  const ProcuraAnalysis *analysis;
} ReportCtx;

static const char *
or_dash (const char *s)
{
  return s != NULL && *s != '\0' ? s : "—";
}

static const char *
candidate_kind_name (ProcuraCandidateKind kind)
{
  switch (kind)
    {
    case PROCURA_CANDIDATE_API:
      return _("model API");
    case PROCURA_CANDIDATE_HYBRID:
      return _("hybrid (GPUs + API overflow)");
    case PROCURA_CANDIDATE_GPU:
    default:
      return _("GPU");
    }
}

static const char *
provisioning_name (ProcuraProvisioning p)
{
  switch (p)
    {
    case PROCURA_PROVISION_SCHEDULED:
      return _("scheduled");
    case PROCURA_PROVISION_AUTOSCALED:
      return _("autoscaled");
    case PROCURA_PROVISION_ALWAYS_ON:
    default:
      return _("always-on");
    }
}

/* The decided candidate's name, or the hybrid's (its GPUs + the overflow API route,
 * docs/project-file.md), or NULL when nothing is decided. */
static char *
decision_name (ProcuraProject *project)
{
  ProcuraCandidate *chosen = project->decision.candidate_id != 0
    ? procura_project_find_candidate (project, project->decision.candidate_id) : NULL;
  ProcuraCandidate *overflow = project->decision.overflow_candidate_id != 0
    ? procura_project_find_candidate (project, project->decision.overflow_candidate_id) : NULL;

  if (chosen == NULL)
    return NULL;
  if (overflow != NULL)
    return g_strdup_printf (_("Hybrid: %s + %s"), or_dash (chosen->name), or_dash (overflow->name));
  return g_strdup (or_dash (chosen->name));
}

static void
add_title (ProcuraReportDoc *doc,
           ProcuraProject   *project)
{
  ProcuraBlock *title = procura_report_doc_add (doc, PROCURA_BLOCK_TITLE,
                                                or_dash (project->title));
  g_autofree char *chosen = decision_name (project);

  title->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  procura_block_add_pair (title, _("Decision"),
                          chosen != NULL ? chosen : _("No candidate chosen yet"));
  procura_block_add_pair (title, _("Date"), or_dash (project->decision.date));
  procura_block_add_pair (title, _("Approver"), or_dash (project->decision.approver));
  procura_block_add_pair (title, _("Project created"), or_dash (project->created));
  procura_block_add_pair (title, _("Generated"), or_dash (doc->generated_at));
  if (project->illustrative)
    procura_block_add_pair (title, _("Data"), _("ILLUSTRATIVE — the bundled demo project, not real measurements or prices"));
}

static void
add_brief (ProcuraReportDoc *doc,
           ProcuraProject   *project)
{
  ProcuraBrief *b = project->brief;
  g_auto (GStrv) missing = procura_brief_missing (b);
  ProcuraBlock *kv;
  g_autofree char *request = NULL, *target = NULL, *demand = NULL, *window = NULL;

  procura_report_doc_heading (doc, 1, _("Workload brief"));
  kv = procura_report_doc_keyvalue (doc);
  {
    g_autofree char *in = fmt_num (b->input_tokens, 0, NULL);
    g_autofree char *out = fmt_num (b->output_tokens, 0, NULL);
    request = g_strdup_printf (_("%s input tokens, %s output tokens"), in, out);
  }
  if (b->slo_metric != NULL && !isnan (b->slo_percentile) && !isnan (b->slo_threshold_ms))
    target = g_strdup_printf (_("p%g %s ≤ %g ms"), b->slo_percentile, b->slo_metric, b->slo_threshold_ms);
  if (!isnan (b->demand_average) || !isnan (b->demand_peak))
    {
      g_autofree char *avg = fmt_num (b->demand_average, -1, NULL);
      g_autofree char *peak = fmt_num (b->demand_peak, -1, NULL);
      demand = g_strdup_printf (_("average %s req/s, peak %s req/s"), avg, peak);
    }
  window = fmt_num (b->window_hours, -1, _("hours"));

  procura_block_add_pair (kv, _("Workload type"), or_dash (b->workload_type));
  procura_block_add_pair (kv, _("Model"), or_dash (b->model_shape));
  procura_block_add_pair (kv, _("Request shape"), request);
  procura_block_add_pair (kv, _("Success unit"), or_dash (b->success_unit));
  procura_block_add_pair (kv, _("Latency target"), or_dash (target));
  procura_block_add_pair (kv, _("Duty cycle"), or_dash (b->duty_cycle));
  procura_block_add_pair (kv, _("Operating boundary"), or_dash (b->operating_boundary));
  procura_block_add_pair (kv, _("Tooling"), or_dash (b->tooling));
  procura_block_add_pair (kv, _("Demand"), or_dash (demand));
  procura_block_add_pair (kv, _("Planning window"), window);

  if (missing[0] != NULL)
    {
      g_autofree char *list = g_strjoinv (", ", missing);
      procura_report_doc_missing (doc, _("the brief lacks %s; candidates are not ranked until it is complete."),
                                  list);
    }
}

static void
add_assumptions (ProcuraReportDoc *doc,
                 ProcuraProject   *project)
{
  ProcuraAssumptions *a = &project->assumptions;
  ProcuraBlock *kv;
  g_autofree char *acc = fmt_num (a->acceptance_rate, -1, NULL);
  g_autofree char *retry = fmt_num (a->retry_rate, -1, NULL);
  g_autofree char *fail = fmt_num (a->failure_rate, -1, NULL);
  g_autofree char *head = fmt_num (a->headroom, -1, NULL);
  g_autofree char *stale = fmt_num (a->stale_days, -1, _("days"));

  procura_report_doc_heading (doc, 1, _("Assumptions"));
  kv = procura_report_doc_keyvalue (doc);
  procura_block_add_pair (kv, _("Acceptance rate (share of outputs that pass)"), acc);
  procura_block_add_pair (kv, _("Retry rate (extra attempts per request)"), retry);
  procura_block_add_pair (kv, _("Failure rate (requests that error or time out)"), fail);
  procura_block_add_pair (kv, _("Headroom on peak demand"), head);
  procura_block_add_pair (kv, _("A price is stale after"), stale);
  procura_block_add_pair (kv, _("Currency"), or_dash (a->currency));
  if (isnan (a->acceptance_rate))
    procura_report_doc_missing (doc, _("no acceptance rate: generated outputs would be counted as accepted."));
}

static void
add_candidates (ProcuraReportDoc *doc,
                ProcuraProject   *project)
{
  static const char *header[] = { N_("Candidate"), N_("Kind"), N_("GPUs / replica"), N_("Provider"),
                                  N_("Pricing"), N_("Region"), N_("Engine, parallelism"),
                                  N_("Price per GPU-hour"), N_("Price seen"), N_("Provisioning"), NULL };
  ProcuraBlock *table;

  procura_report_doc_heading (doc, 1, _("Candidates"));
  if (project->candidates->len == 0)
    {
      procura_report_doc_missing (doc, _("no candidates: add GPU offers or API routes to compare."));
      return;
    }
  table = procura_report_doc_table (doc, "candidates", NULL, header);
  for (guint i = 0; i < project->candidates->len; i++)
    {
      ProcuraCandidate *c = g_ptr_array_index (project->candidates, i);
      g_autofree char *gpus = NULL, *engine = NULL, *price = NULL;

      if (c->kind == PROCURA_CANDIDATE_API)
        {
          gpus = g_strdup ("—");
          engine = g_strdup_printf ("%s %s", or_dash (c->api_provider), or_dash (c->api_model));
          g_autofree char *pin = fmt_money (c->price_input_per_mtok, project->assumptions.currency);
          g_autofree char *pout = fmt_money (c->price_output_per_mtok, project->assumptions.currency);
          price = g_strdup_printf (_("in %s / out %s per Mtok"), pin, pout);
        }
      else
        {
          gpus = g_strdup_printf ("%d × %s", c->gpus_per_replica, or_dash (c->gpu_name));
          engine = g_strdup_printf (_("%s, TP %d PP %d"), or_dash (c->engine), c->tp, c->pp);
          price = fmt_money (c->price_per_gpu_hour, project->assumptions.currency);
        }
      {
        const char *row[] = { or_dash (c->name), candidate_kind_name (c->kind), gpus,
                              or_dash (c->provider), or_dash (c->pricing_model),
                              or_dash (c->region), engine, price, or_dash (c->price_date),
                              c->kind == PROCURA_CANDIDATE_API ? "—" : provisioning_name (c->provisioning),
                              NULL };
        procura_block_add_row (table, row);
      }
    }
}

static void
add_quotes (ProcuraReportDoc *doc,
            ProcuraProject   *project)
{
  static const char *header[] = { N_("Provider"), N_("SKU"), N_("GPU"), N_("GPUs"), N_("Price per hour"),
                                  N_("Per GPU-hour"), N_("Pricing"), N_("Region"), N_("Seen"), N_("Age"),
                                  N_("Source"), NULL };
  ProcuraBlock *table;

  procura_report_doc_heading (doc, 2, _("Quotes"));
  if (project->quotes->len == 0)
    {
      procura_report_doc_missing (doc, _("no price quotes imported: prices were typed in."));
      return;
    }
  table = procura_report_doc_table (doc, "quotes", NULL, header);
  for (guint i = 0; i < project->quotes->len; i++)
    {
      ProcuraQuote *q = g_ptr_array_index (project->quotes, i);
      g_autofree char *count = g_strdup_printf ("%d", q->gpu_count);
      g_autofree char *price = fmt_money (q->price_per_hour, q->currency);
      g_autofree char *per_gpu = fmt_money (procura_quote_price_per_gpu_hour (q), q->currency);
      int age = procura_days_since (q->seen_date);
      g_autofree char *age_s = age < 0 ? g_strdup (_("unknown"))
        : age > project->assumptions.stale_days
        ? g_strdup_printf (ngettext ("%d day (stale)", "%d days (stale)", age), age)
        : g_strdup_printf (ngettext ("%d day", "%d days", age), age);
      const char *row[] = { or_dash (q->provider), or_dash (q->sku),
                            or_dash (q->gpu_id ? q->gpu_id : q->gpu_name), count, price,
                            per_gpu, or_dash (q->pricing_model), or_dash (q->region),
                            or_dash (q->seen_date), age_s, or_dash (q->source), NULL };
      if (q->kind == PROCURA_QUOTE_API)
        {
          g_autofree char *pin = fmt_money (q->price_input_per_mtok, q->currency);
          g_autofree char *pout = fmt_money (q->price_output_per_mtok, q->currency);
          g_free (price);
          price = g_strdup_printf (_("in %s / out %s per Mtok"), pin, pout);
          row[4] = price;
          row[2] = or_dash (q->api_model);
          row[3] = "—";
          row[5] = "—";
        }
      procura_block_add_row (table, row);
    }
}

static const ProcuraCandidate *
find_candidate_const (ProcuraProject *project,
                      gint64          id)
{
  return id > 0 ? procura_project_find_candidate (project, id) : NULL;
}

/* A cost per accepted output at the project's one scale (per output, per 1,000 or per
 * 1M, chosen by the analysis): money only, the column or sentence says the unit. */
static char *
fmt_cost_per_accepted (double                 v,
                       const ProcuraAnalysis *analysis)
{
  return procura_units_cost_scaled (v, analysis->unit_factor, analysis->currency);
}

/* "per 1,000 accepted responses": the one unit of the project's costs per output */
static char *
cost_unit (const ProcuraAnalysis *analysis)
{
  return procura_units_per_label (analysis->unit_factor, analysis->unit_label);
}

static void
add_finance (ProcuraReportDoc      *doc,
             ProcuraProject        *project,
             const ProcuraAnalysis *analysis)
{
  static const char *header[] = { N_("Rank"), N_("Candidate"), N_("Kind"), N_("Pricing"), N_("Price per GPU-hour"),
                                  N_("Replicas × GPUs"), N_("Utilisation"), N_("Capacity at target (req/s)"),
                                  N_("All-in cost per window"), N_("Accepted outputs per window"),
                                  NULL, NULL };
  g_autofree char *unit = cost_unit (analysis);
  /* TRANSLATORS: a column title; %s is the project's unit, "per 1,000 accepted responses" */
  g_autofree char *cost_title = g_strdup_printf (_("Cost %s"), unit);
  const char *titles[G_N_ELEMENTS (header)];
  ProcuraBlock *table;

  procura_report_doc_heading (doc, 1, _("Finance normalisation"));
  procura_report_doc_paragraph (doc,
    _("Every candidate on one footing: the all-in cost of the planning window (%g hours) over the "
    "outputs that pass the quality filter, at the latency target p%g %s ≤ %g ms, for an average "
    "demand of %g req/s and a peak of %g req/s. Money in %s."),
    analysis->window_hours, analysis->slo_percentile, or_dash (analysis->slo_metric),
    analysis->slo_threshold_ms, analysis->demand_average, analysis->demand_peak,
    or_dash (analysis->currency));
  if (analysis->ranking_withheld)
    procura_report_doc_missing (doc, _("ranking withheld: %s"), or_dash (analysis->ranking_withheld_reason));
  else if (analysis->ranking_uncertainty != NULL)
    procura_report_doc_paragraph (doc, _("Uncertainty: %s.%s%s"), analysis->ranking_uncertainty,
                                  analysis->measure_next != NULL ? " " : "",
                                  analysis->measure_next != NULL ? analysis->measure_next : "");

  /* one cost per output, in the unit the project shows everywhere (the CSV keeps both) */
  memcpy (titles, header, sizeof header);
  titles[G_N_ELEMENTS (header) - 2] = cost_title;
  table = procura_report_doc_table (doc, "finance", NULL, titles);
  {
    static const char *csv_header[] = { "rank", "candidate", "kind", "pricing_model",
                                        "price_per_gpu_hour", "replicas", "gpus_per_replica",
                                        "utilization", "capacity_status", "capacity_at_slo_rps",
                                        "all_in_cost", "accepted_outputs", "cost_per_accepted",
                                        "cost_per_1000_accepted", "currency", "window_hours",
                                        NULL };
    procura_block_set_csv_header (table, csv_header);
  }
  for (guint i = 0; i < analysis->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (analysis->candidates, i);
      const ProcuraCandidate *c = find_candidate_const (project, ca->candidate_id);
      const ProcuraCostResult *r = ca->cost;
      g_autofree char *rank = ca->rank > 0 ? g_strdup_printf ("%d", ca->rank) : g_strdup ("—");
      g_autofree char *price = fmt_money (ca->inputs != NULL ? ca->inputs->price_per_gpu_hour : NAN,
                                          analysis->currency);
      g_autofree char *fleet = NULL, *util = NULL, *cap = NULL, *all_in = NULL;
      g_autofree char *accepted = NULL, *cpa = NULL;

      if (r != NULL && r->replicas > 0)
        fleet = g_strdup_printf ("%d × %d", r->replicas, ca->inputs->gpus_per_replica);
      util = r != NULL && !isnan (r->utilization) ? g_strdup_printf ("%.0f %%", r->utilization * 100)
                                                  : g_strdup ("—");
      cap = fmt_num (ca->capacity_at_slo, 2, NULL);
      if (ca->capacity != NULL && ca->capacity->status == PROCURA_CAPACITY_NOT_SATURATED)
        {
          char *tmp = g_strdup_printf (_("≥ %s (not saturated)"), cap);
          g_free (cap);
          cap = tmp;
        }
      all_in = fmt_money (r != NULL ? r->all_in_cost : NAN, analysis->currency);
      accepted = fmt_num (r != NULL ? r->accepted_outputs : NAN, 0, NULL);
      cpa = fmt_cost_per_accepted (r != NULL ? r->cost_per_accepted : NAN, analysis);
      if (r == NULL && ca->cost_reason != NULL)
        {
          g_free (cpa);
          cpa = g_strdup_printf (_("no cost: %s"), ca->cost_reason);
        }
      {
        const char *row[] = { rank, ca->name,
                              ca->derived ? _("hybrid (derived)") : candidate_kind_name (ca->kind),
                              c != NULL ? or_dash (c->pricing_model) : "—",
                              ca->kind == PROCURA_CANDIDATE_API ? "—" : price,
                              or_dash (fleet), util, cap, all_in, accepted, cpa, NULL };
        procura_block_add_row (table, row);
      }
      {
        g_autofree char *r_rank = ca->rank > 0 ? g_strdup_printf ("%d", ca->rank) : g_strdup ("");
        g_autofree char *r_price = raw_num (ca->inputs != NULL && ca->kind != PROCURA_CANDIDATE_API
                                            ? ca->inputs->price_per_gpu_hour : NAN);
        g_autofree char *r_repl = r != NULL && r->replicas > 0 ? g_strdup_printf ("%d", r->replicas) : g_strdup ("");
        g_autofree char *r_gpus = ca->inputs != NULL && ca->kind != PROCURA_CANDIDATE_API
                                  ? g_strdup_printf ("%d", ca->inputs->gpus_per_replica) : g_strdup ("");
        g_autofree char *r_util = raw_num (r != NULL ? r->utilization : NAN);
        g_autofree char *r_cap = raw_num (ca->capacity_at_slo);
        g_autofree char *r_all = raw_num (r != NULL ? r->all_in_cost : NAN);
        g_autofree char *r_acc = raw_num (r != NULL ? r->accepted_outputs : NAN);
        g_autofree char *r_cpa = raw_num (r != NULL ? r->cost_per_accepted : NAN);
        g_autofree char *r_cpk = raw_num (r != NULL ? r->cost_per_accepted * 1000 : NAN);
        g_autofree char *r_win = raw_num (analysis->window_hours);
        const char *csv[] = { r_rank, ca->name,
                              ca->derived ? "hybrid" : (ca->kind == PROCURA_CANDIDATE_API ? "api" : "gpu"),
                              c != NULL && c->pricing_model != NULL ? c->pricing_model : "",
                              r_price, r_repl, r_gpus, r_util,
                              ca->capacity != NULL ? procura_capacity_status_name (ca->capacity->status) : "",
                              r_cap, r_all, r_acc, r_cpa, r_cpk,
                              analysis->currency != NULL ? analysis->currency : "", r_win, NULL };
        procura_block_add_csv_row (table, csv);
      }
    }
}

/* The capacity status as the reader reads it (the CSV keeps procura_capacity_status_name()). */
static const char *
capacity_status_label (ProcuraCapacityStatus status)
{
  switch (status)
    {
    case PROCURA_CAPACITY_OK:
      return _("crosses the target");
    case PROCURA_CAPACITY_NOT_SATURATED:
      return _("not saturated");
    case PROCURA_CAPACITY_MISSES:
      return _("misses the target");
    case PROCURA_CAPACITY_NO_DATA:
    default:
      return _("no data");
    }
}

static void
add_capacity (ProcuraReportDoc      *doc,
              const ProcuraAnalysis *analysis)
{
  static const char *header[] = { N_("Candidate"), N_("Status"), N_("Capacity (req/s)"), N_("Capacity (tok/s)"),
                                  N_("Sweep points"), N_("Percentiles"), N_("Uncertain"), N_("How it was read"),
                                  NULL };
  ProcuraBlock *table;
  gboolean any = FALSE;

  procura_report_doc_heading (doc, 1, _("Capacity at the latency target"));
  table = procura_report_doc_table (doc, "capacity", NULL, header);
  for (guint i = 0; i < analysis->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (analysis->candidates, i);
      const ProcuraCapacity *cap = ca->capacity;
      g_autofree char *rps = NULL, *tok = NULL, *points = NULL, *source = NULL;

      if (cap == NULL)
        continue;
      any = TRUE;
      rps = fmt_num (cap->capacity_rps, 2, NULL);
      tok = fmt_num (cap->capacity_tok_s, 0, NULL);
      points = g_strdup_printf ("%u", cap->points->len);
      source = cap->all_recomputed
        ? g_strdup_printf (_("recomputed (≥ %lld samples each)"), (long long) cap->samples_min)
        : g_strdup (_("as reported (some or all)"));
      {
        const char *row[] = { ca->name, capacity_status_label (cap->status), rps, tok,
                              points, source, cap->uncertain ? _("yes") : _("no"),
                              or_dash (cap->reason), NULL };
        procura_block_add_row (table, row);
      }
    }
  if (!any)
    procura_report_doc_missing (doc, _("no GPU candidate has benchmark runs to read a capacity from."));
}

static void
add_breakdown (ProcuraReportDoc      *doc,
               const ProcuraAnalysis *analysis)
{
  static const ProcuraCostLine base_lines[] = {
    PROCURA_COST_GPU_COMPUTE, PROCURA_COST_IDLE_CAPACITY, PROCURA_COST_RETRY_WASTE,
    PROCURA_COST_STORAGE, PROCURA_COST_NETWORK, PROCURA_COST_SERVING_STACK,
    PROCURA_COST_OBSERVABILITY, PROCURA_COST_PLATFORM_LABOR, PROCURA_COST_API_TOKENS,
    PROCURA_COST_GATEWAY,
  };
  g_autoptr (GPtrArray) header = g_ptr_array_new ();
  g_autoptr (GArray) used = g_array_new (FALSE, FALSE, sizeof (ProcuraCostLine));
  const ProcuraCostLine *lines;
  ProcuraBlock *table;

  /* the serving lines always; the others (media, run workloads, quote terms, failure
   * waste) as their own columns when a candidate has them */
  g_array_append_vals (used, base_lines, G_N_ELEMENTS (base_lines));
  for (guint l = 0; l < PROCURA_COST_N_LINES; l++)
    {
      gboolean in_base = FALSE, any = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (base_lines); k++)
        in_base |= base_lines[k] == (ProcuraCostLine) l;
      for (guint i = 0; !in_base && i < analysis->candidates->len; i++)
        {
          const ProcuraCandidateAnalysis *ca = g_ptr_array_index (analysis->candidates, i);
          any |= ca->cost != NULL && procura_cost_result_line_applies (ca->cost, l);
        }
      if (any)
        {
          ProcuraCostLine line = l;
          g_array_append_val (used, line);
        }
    }
  lines = (const ProcuraCostLine *) used->data;

  procura_report_doc_heading (doc, 2, _("Where the money goes"));
  g_ptr_array_add (header, (gpointer) N_("Candidate"));
  for (guint l = 0; l < used->len; l++)
    g_ptr_array_add (header, (gpointer) procura_cost_line_name (lines[l]));
  g_ptr_array_add (header, (gpointer) "all_in_cost");
  g_ptr_array_add (header, NULL);
  table = procura_report_doc_table (doc, "metrics",
                                    _("Cost lines per planning window (a dash: the line does not apply)"),
                                    (const char * const *) header->pdata);
  {
    g_autoptr (GPtrArray) csv_header = g_ptr_array_new ();
    g_ptr_array_add (csv_header, (gpointer) "candidate");
    g_ptr_array_add (csv_header, (gpointer) "capacity_status");
    g_ptr_array_add (csv_header, (gpointer) "capacity_at_slo_rps");
    g_ptr_array_add (csv_header, (gpointer) "capacity_uncertain");
    for (guint l = 0; l < used->len; l++)
      g_ptr_array_add (csv_header, (gpointer) procura_cost_line_name (lines[l]));
    g_ptr_array_add (csv_header, (gpointer) "all_in_cost");
    g_ptr_array_add (csv_header, (gpointer) "accepted_outputs");
    g_ptr_array_add (csv_header, (gpointer) "cost_per_accepted");
    g_ptr_array_add (csv_header, (gpointer) "replicas");
    g_ptr_array_add (csv_header, (gpointer) "utilization");
    g_ptr_array_add (csv_header, (gpointer) "fits");
    g_ptr_array_add (csv_header, NULL);
    procura_block_set_csv_header (table, (const char * const *) csv_header->pdata);
  }
  for (guint i = 0; i < analysis->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (analysis->candidates, i);
      g_autoptr (GPtrArray) row = g_ptr_array_new_with_free_func (g_free);

      if (ca->cost == NULL)
        continue;
      g_ptr_array_add (row, g_strdup (ca->name));
      for (guint l = 0; l < used->len; l++)
        g_ptr_array_add (row, procura_cost_result_line_applies (ca->cost, lines[l])
                              ? fmt_money (ca->cost->lines[lines[l]], analysis->currency)
                              : g_strdup ("—"));
      g_ptr_array_add (row, fmt_money (ca->cost->all_in_cost, analysis->currency));
      g_ptr_array_add (row, NULL);
      procura_block_add_row (table, (const char * const *) row->pdata);
      {
        g_autoptr (GPtrArray) csv = g_ptr_array_new_with_free_func (g_free);
        const ProcuraCapacity *cap = ca->capacity;

        g_ptr_array_add (csv, g_strdup (ca->name));
        g_ptr_array_add (csv, g_strdup (cap != NULL ? procura_capacity_status_name (cap->status) : ""));
        g_ptr_array_add (csv, raw_num (ca->capacity_at_slo));
        g_ptr_array_add (csv, g_strdup (cap == NULL ? "" : cap->uncertain ? "true" : "false"));
        for (guint l = 0; l < used->len; l++)
          g_ptr_array_add (csv, procura_cost_result_line_applies (ca->cost, lines[l])
                                ? raw_num (ca->cost->lines[lines[l]]) : g_strdup (""));
        g_ptr_array_add (csv, raw_num (ca->cost->all_in_cost));
        g_ptr_array_add (csv, raw_num (ca->cost->accepted_outputs));
        g_ptr_array_add (csv, raw_num (ca->cost->cost_per_accepted));
        g_ptr_array_add (csv, ca->cost->replicas > 0 ? g_strdup_printf ("%d", ca->cost->replicas) : g_strdup (""));
        g_ptr_array_add (csv, raw_num (ca->cost->utilization));
        g_ptr_array_add (csv, g_strdup (ca->fit == NULL ? "" : ca->fit->fits ? "true" : "false"));
        g_ptr_array_add (csv, NULL);
        procura_block_add_csv_row (table, (const char * const *) csv->pdata);
      }
    }
  /* how the API routes were billed, and what the operations tests cost */
  for (guint i = 0; i < analysis->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (analysis->candidates, i);

      if (ca->token_basis != NULL && ca->cost != NULL)
        procura_report_doc_paragraph (doc, _("%s: API tokens billed on %s."), ca->name,
                                      g_strcmp0 (ca->token_basis, "mean") == 0 ? _("the brief's mean request shape")
                                      : g_strcmp0 (ca->token_basis, "p95") == 0
                                      ? _("the brief's p95 request shape (no mean given: an upper bound)")
                                      : _("the route's own token counts"));
      if (ca->cost != NULL && procura_cost_result_line_applies (ca->cost, PROCURA_COST_FAILURE_WASTE))
        procura_report_doc_paragraph (doc, _("%s: failure waste from its operations tests, %.4g failed requests "
                                      "and %.4g idle replica-hours per window."), ca->name,
                                      ca->ops_failed_requests, ca->ops_idle_replica_hours);
    }
}

static void
add_sensitivity (ProcuraReportDoc      *doc,
                 const ProcuraAnalysis *analysis)
{
  static const char *header[] = { N_("Candidate"), N_("Input"), N_("Low"), N_("High"), N_("Cost at low"),
                                  N_("Base cost"), N_("Cost at high"), NULL };
  static const char *wheader[] = { N_("Candidate"), N_("Scenario"), NULL,
                                   N_("Change"), N_("Assumption"), NULL };
  g_autofree char *unit = cost_unit (analysis);
  /* TRANSLATORS: a column title; %s is the project's unit, "per 1,000 accepted responses" */
  g_autofree char *cost_title = g_strdup_printf (_("Cost %s"), unit);
  /* TRANSLATORS: a table's caption; %s is the project's unit, "per 1,000 accepted responses" */
  g_autofree char *caption = g_strdup_printf (_("Cost %s when one input moves, the rest held"), unit);
  const char *wtitles[G_N_ELEMENTS (wheader)];
  ProcuraBlock *table, *wtable;

  memcpy (wtitles, wheader, sizeof wheader);
  wtitles[2] = cost_title;
  procura_report_doc_heading (doc, 1, _("Sensitivity and what-if"));
  table = procura_report_doc_table (doc, "sensitivity", caption, header);
  wtable = NULL;
  for (guint i = 0; i < analysis->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (analysis->candidates, i);

      for (guint s = 0; ca->sensitivity != NULL && s < ca->sensitivity->len; s++)
        {
          const ProcuraSensitivity *sv = g_ptr_array_index (ca->sensitivity, s);
          g_autofree char *lo = fmt_num (sv->low_value, -1, NULL);
          g_autofree char *hi = fmt_num (sv->high_value, -1, NULL);
          g_autofree char *clo = fmt_cost_per_accepted (sv->cost_low, analysis);
          g_autofree char *cb = fmt_cost_per_accepted (sv->base_cost, analysis);
          g_autofree char *chi = fmt_cost_per_accepted (sv->cost_high, analysis);
          const char *row[] = { ca->name, or_dash (sv->label), lo, hi, clo, cb, chi, NULL };
          procura_block_add_row (table, row);
        }
    }
  for (guint i = 0; i < analysis->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (analysis->candidates, i);

      for (guint w = 0; ca->what_ifs != NULL && w < ca->what_ifs->len; w++)
        {
          const ProcuraWhatIf *wi = g_ptr_array_index (ca->what_ifs, w);
          g_autofree char *cost = NULL, *change = NULL, *assumption = NULL;

          if (wtable == NULL)
            wtable = procura_report_doc_table (doc, "what-if",
                                               _("What if the plan is only right for today"), wtitles);
          cost = wi->result != NULL ? fmt_cost_per_accepted (wi->result->cost_per_accepted, analysis)
                                    : g_strdup_printf (_("not estimated: %s"), or_dash (wi->note));
          change = wi->result != NULL && ca->cost != NULL && ca->cost->cost_per_accepted > 0
            ? g_strdup_printf ("%+.0f %%", (wi->result->cost_per_accepted / ca->cost->cost_per_accepted - 1) * 100)
            : g_strdup ("—");
          assumption = g_strdup_printf ("%s%s", or_dash (wi->assumption), wi->estimate ? _(" (estimate)") : "");
          {
            const char *row[] = { ca->name, or_dash (wi->title), cost, change, assumption, NULL };
            procura_block_add_row (wtable, row);
          }
        }
    }
}

/* "the answer (YYYY-MM-DD)", or "not answered". */
static char *
fmt_answer (const ProcuraWarningAnswer *a)
{
  g_autofree char *date = NULL;

  if (a == NULL || a->answer == NULL || *a->answer == '\0')
    return g_strdup (_("not answered"));
  if (a->answered_at == NULL || *a->answered_at == '\0')
    return g_strdup (a->answer);
  /* ISO 8601: the date is what the record needs */
  date = g_strndup (a->answered_at, strlen (a->answered_at) >= 10 ? 10 : strlen (a->answered_at));
  return g_strdup_printf ("%s (%s)", a->answer, date);
}

static void
add_warnings (ProcuraReportDoc      *doc,
              ProcuraProject        *project,
              const ProcuraAnalysis *analysis)
{
  static const char *header[] = { N_("Severity"), N_("Candidate"), N_("Warning"), N_("What to do"),
                                  N_("How it was answered"), NULL };
  ProcuraBlock *table;
  guint answered = 0;

  procura_report_doc_heading (doc, 1, _("Warnings"));
  if (analysis->warnings->len == 0)
    {
      procura_report_doc_paragraph (doc, _("None: no common mistake was found in this project."));
      return;
    }
  for (guint i = 0; i < analysis->warnings->len; i++)
    {
      const ProcuraWarning *w = g_ptr_array_index (analysis->warnings, i);

      if (procura_project_find_answer (project, w->id, w->candidate_id) != NULL)
        answered++;
    }
  if (answered == analysis->warnings->len)
    procura_report_doc_paragraph (doc, _("Every warning was answered (%u of %u)."),
                                  answered, analysis->warnings->len);
  else
    procura_report_doc_paragraph (doc, _("%u of %u warnings answered; %u not answered."),
                                  answered, analysis->warnings->len,
                                  analysis->warnings->len - answered);
  table = procura_report_doc_table (doc, "warnings", NULL, header);
  for (guint i = 0; i < analysis->warnings->len; i++)
    {
      const ProcuraWarning *w = g_ptr_array_index (analysis->warnings, i);
      const ProcuraCandidate *c = find_candidate_const (project, w->candidate_id);
      g_autofree char *how = fmt_answer (procura_project_find_answer (project, w->id, w->candidate_id));
      const char *row[] = { procura_severity_name (w->severity),
                            c != NULL ? c->name : _("project"), or_dash (w->message),
                            or_dash (w->what_to_do), how, NULL };
      procura_block_add_row (table, row);
    }
}

static void
add_recommendation (ProcuraReportDoc      *doc,
                    const ProcuraAnalysis *analysis)
{
  const ProcuraRecommendation *r = analysis->recommendation;

  procura_report_doc_heading (doc, 1, _("Recommendation"));
  if (r == NULL)
    {
      procura_report_doc_missing (doc, _("no recommendation could be made."));
      return;
    }
  if (r->candidate_name != NULL)
    procura_report_doc_paragraph (doc, "%s: %s.", procura_choice_label (r->choice), r->candidate_name);
  else
    procura_report_doc_paragraph (doc, "%s.", procura_choice_label (r->choice));
  for (guint i = 0; r->reasons != NULL && i < r->reasons->len; i++)
    procura_report_doc_paragraph (doc, "• %s", (const char *) g_ptr_array_index (r->reasons, i));

  if (analysis->tipping_points != NULL && analysis->tipping_points->len > 0)
    {
      const ProcuraCandidateAnalysis *w = procura_analysis_find (analysis, analysis->tipping_winner);
      const ProcuraCandidateAnalysis *ru = procura_analysis_find (analysis, analysis->tipping_runner_up);
      const char *header[] = { N_("Input"), N_("Of"), N_("Now"), N_("Flips at"), N_("Change"), NULL };
      ProcuraBlock *table;

      procura_report_doc_heading (doc, 2, _("Tipping points"));
      procura_report_doc_paragraph (doc, _("The value of each main input at which %s and %s change places, "
                                    "the other inputs as they are (found by bisection on the cost)."),
                                    w != NULL ? w->name : "#1", ru != NULL ? ru->name : "#2");
      table = procura_report_doc_table (doc, "tipping-points", NULL, header);
      for (guint i = 0; i < analysis->tipping_points->len; i++)
        {
          const ProcuraTippingPoint *t = g_ptr_array_index (analysis->tipping_points, i);
          g_autofree char *now = fmt_num (t->current, -1, NULL);
          g_autofree char *at = isfinite (t->value) ? g_strdup_printf ("%.6g", t->value)
                                                    : g_strdup (_("does not flip within 1/100–100×"));
          g_autofree char *change = isfinite (t->value) ? g_strdup_printf ("%+.1f %%", 100.0 * (t->ratio - 1.0))
                                                        : g_strdup ("—");
          const char *row[] = { procura_tipping_input_label (t->input), t->candidate_name != NULL ? t->candidate_name : _("project"), now, at,
                                change, NULL };
          procura_block_add_row (table, row);
        }
    }
}

static void
draw_chart_cb (gpointer  figure,
               cairo_t  *cr,
               double    width,
               double    height)
{
  /* the light theme: its series differ by dash and marker too, so print in grey reads */
  procura_chart_draw (figure, NULL, cr, width, height, procura_chart_theme_light ());
}

static void
add_figures (ReportCtx *ctx)
{
  g_autoptr (GPtrArray) charts = procura_figure_build_all (ctx->project, ctx->analysis);

  procura_report_doc_add (ctx->doc, PROCURA_BLOCK_PAGE_BREAK, NULL);
  procura_report_doc_heading (ctx->doc, 1, _("Figures"));
  procura_report_doc_paragraph (ctx->doc,
    _("One figure per page. Each caption ends with the figure's text summary; the numbers "
    "behind every figure are in the tables of this record."));
  for (guint i = 0; i < charts->len && procura_figure_names[i] != NULL; i++)
    {
      ProcuraChart *chart = g_ptr_array_index (charts, i);
      g_autofree char *summary = procura_chart_summary (chart);
      g_autofree char *caption = g_strdup_printf (_("Figure %u. %s. %s"), i + 1,
                                                  procura_figure_title (procura_figure_names[i]),
                                                  summary != NULL ? summary : "");
      ProcuraBlock *b = procura_report_doc_add (ctx->doc, PROCURA_BLOCK_FIGURE, caption);

      b->id = g_strdup (procura_figure_names[i]);
      b->figure = procura_chart_ref (chart);
      b->figure_draw = draw_chart_cb;
      b->figure_free = (GDestroyNotify) procura_chart_unref;
    }
}

static char *
fmt_gib (double bytes)
{
  if (isnan (bytes))
    return g_strdup ("—");
  return g_strdup_printf (_("%.1f GiB"), bytes / (1024.0 * 1024.0 * 1024.0));
}

/* The node a probe result was measured on: "procura probe --ssh/--hosts/--slurm/--kubectl"
 * store it as "procura-probe@HOST.jsonl"; NULL for a local run or a plain import. */
static char *
probe_result_host (ProcuraProject           *project,
                   const ProcuraProbeResult *r)
{
  for (guint i = 0; i < project->provenance->len; i++)
    {
      const ProcuraProvenance *p = g_ptr_array_index (project->provenance, i);

      if (p->id == r->provenance_id && p->file_name != NULL
          && g_str_has_prefix (p->file_name, "procura-probe@") && g_str_has_suffix (p->file_name, ".jsonl"))
        return g_strndup (p->file_name + strlen ("procura-probe@"),
                          strlen (p->file_name) - strlen ("procura-probe@") - strlen (".jsonl"));
    }
  return NULL;
}

typedef struct {
  char    *host;
  guint    gpus;
  guint    fit_results;
  gboolean all_fit;
  double   headroom;   /* smallest, NAN when none */
  double   read_gbps;  /* slowest, NAN when none */
} FleetNode;

static void
fleet_node_free (FleetNode *n)
{
  g_free (n->host);
  g_free (n);
}

/* The fleet: probe results of two or more nodes, one row per node. */
static void
add_probe_fleet (ReportCtx *ctx)
{
  static const char *header[] = { N_("Node"), N_("GPUs"), N_("Plan fits"), N_("Headroom (smallest)"),
                                  N_("Read bandwidth (slowest)"), NULL };
  ProcuraProject *project = ctx->project;
  g_autoptr (GPtrArray) nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) fleet_node_free);
  g_autoptr (GString) text = g_string_new (NULL);
  const FleetNode *slowest = NULL;
  guint fit = 0, with_plan = 0;
  ProcuraBlock *table;

  for (guint i = 0; i < project->probe_results->len; i++)
    {
      const ProcuraProbeResult *r = g_ptr_array_index (project->probe_results, i);
      g_autofree char *host = probe_result_host (project, r);
      FleetNode *n = NULL;

      if (host == NULL)
        continue;
      for (guint j = 0; j < nodes->len && n == NULL; j++)
        if (g_str_equal (((FleetNode *) g_ptr_array_index (nodes, j))->host, host))
          n = g_ptr_array_index (nodes, j);
      if (n == NULL)
        {
          n = g_new0 (FleetNode, 1);
          n->host = g_steal_pointer (&host);
          n->all_fit = TRUE;
          n->headroom = NAN;
          n->read_gbps = NAN;
          g_ptr_array_add (nodes, n);
        }
      if (g_strcmp0 (r->test, "inventory") == 0)
        n->gpus++;
      else if (g_strcmp0 (r->test, "fit") == 0)
        {
          n->fit_results++;
          if (!r->fits)
            n->all_fit = FALSE;
          else if (!isnan (r->headroom_bytes) && (isnan (n->headroom) || r->headroom_bytes < n->headroom))
            n->headroom = r->headroom_bytes;
        }
      else if (g_strcmp0 (r->test, "bandwidth") == 0 && !isnan (r->bandwidth_gbps)
               && (isnan (n->read_gbps) || r->bandwidth_gbps < n->read_gbps))
        n->read_gbps = r->bandwidth_gbps;
    }
  /* a fleet: two nodes or more, counting those that could not be probed */
  if (nodes->len + project->probe_failures->len < 2)
    return;

  procura_report_doc_heading (ctx->doc, 2, _("Probe fleet"));
  for (guint i = 0; i < nodes->len; i++)
    {
      const FleetNode *n = g_ptr_array_index (nodes, i);

      if (n->fit_results > 0)
        {
          with_plan++;
          if (n->all_fit)
            fit++;
        }
      if (!isnan (n->read_gbps) && (slowest == NULL || n->read_gbps < slowest->read_gbps))
        slowest = n;
    }
  g_string_append_printf (text, _("%u nodes probed"), nodes->len);
  if (with_plan > 0)
    g_string_append_printf (text, _("; the plan fits on %u of the %u with a fit result"), fit, with_plan);
  if (slowest != NULL)
    g_string_append_printf (text, _("; the slowest HBM read bandwidth is %.0f GB/s, on %s"),
                            slowest->read_gbps, slowest->host);
  if (project->probe_failures->len > 0)
    g_string_append_printf (text, ngettext ("; %u node could not be probed (below: why)",
                                            "; %u nodes could not be probed (below: why)",
                                            project->probe_failures->len),
                            project->probe_failures->len);
  g_string_append (text, ".");
  procura_report_doc_paragraph (ctx->doc, "%s", text->str);
  table = procura_report_doc_table (ctx->doc, "probe-fleet", NULL, header);
  for (guint i = 0; i < nodes->len; i++)
    {
      const FleetNode *n = g_ptr_array_index (nodes, i);
      g_autofree char *gpus = g_strdup_printf ("%u", n->gpus);
      g_autofree char *head = fmt_gib (n->headroom);
      g_autofree char *bw = fmt_num (n->read_gbps, 0, "GB/s");
      const char *row[] = { n->host, gpus, n->fit_results == 0 ? "—" : n->all_fit ? _("yes") : _("no"),
                            head, bw, NULL };

      procura_block_add_row (table, row);
    }
  if (project->probe_failures->len > 0)
    {
      static const char *fheader[] = { "Node", "Status", "Reason", "When", NULL };
      ProcuraBlock *failed = procura_report_doc_table (ctx->doc, "probe-fleet-failed", NULL, fheader);

      for (guint i = 0; i < project->probe_failures->len; i++)
        {
          const ProcuraProbeResult *f = g_ptr_array_index (project->probe_failures, i);
          g_autofree char *host = procura_probe_failure_get (f, "host");
          g_autofree char *status = procura_probe_failure_get (f, "status");
          g_autofree char *reason = procura_probe_failure_get (f, "reason");
          const char *row[] = { host ? host : or_dash (f->device_name), or_dash (status),
                                or_dash (reason), or_dash (f->measured_at), NULL };

          procura_block_add_row (failed, row);
        }
    }
}

static void
add_memory_fit (ReportCtx *ctx)
{
  static const char *header[] = { N_("Candidate"), N_("Fits"), N_("Limit"), N_("Weights / GPU"), N_("KV needed / GPU"),
                                  N_("KV pool / GPU"), N_("KV tokens"), N_("Max concurrency"), N_("Headroom / GPU"),
                                  N_("Estimated parts"), N_("Measured"), N_("Caveat"), NULL };
  static const char *pheader[] = { N_("Candidate"), N_("Device"), N_("Test"), N_("Fits"), N_("Total"), N_("Free"),
                                   N_("Headroom"), N_("Bandwidth"), N_("Measured"), NULL };
  static const char *lheader[] = { N_("Candidate"), N_("Engine"), N_("Model"), N_("TP"), N_("Weights"), N_("KV available"),
                                   N_("KV tokens"), N_("Max concurrency"), N_("Errors"), NULL };
  ProcuraBlock *table = NULL;
  ProcuraProject *project = ctx->project;

  procura_report_doc_heading (ctx->doc, 1, _("Memory fit"));
  procura_report_doc_paragraph (ctx->doc,
    _("Per GPU of each candidate, at the brief's context and concurrency. Calculated, except where "
    "a candidate has an engine startup log (its weights, KV pool and CUDA graph figures replace "
    "the calculator's) or a probe result (its measured total replaces the catalog's usable "
    "memory): the \"Measured\" column names those figures and their source; \"Estimated parts\" "
    "lists what is still estimated."));
  for (guint i = 0; i < ctx->analysis->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (ctx->analysis->candidates, i);
      const ProcuraFitResult *f = ca->fit;
      g_autofree char *w = NULL, *kvn = NULL, *kvp = NULL, *tokens = NULL, *conc = NULL;
      g_autofree char *head = NULL;
      g_autoptr (GString) est = g_string_new (NULL);

      if (ca->kind == PROCURA_CANDIDATE_API || ca->derived)
        continue;
      if (table == NULL)
        table = procura_report_doc_table (ctx->doc, "memory-fit", NULL, header);
      if (f == NULL)
        {
          const char *row[] = { ca->name, _("unknown"), or_dash (ca->fit_reason), "—", "—", "—", "—",
                                "—", "—", "—", "—", "—", NULL };
          procura_block_add_row (table, row);
          continue;
        }
      w = fmt_gib (f->weights_bytes);
      kvn = fmt_gib (f->kv_needed_bytes);
      kvp = fmt_gib (f->kv_pool_bytes);
      tokens = g_strdup_printf ("%" G_GINT64_FORMAT, f->kv_tokens);
      conc = g_strdup_printf ("%.1f", f->max_concurrency);
      head = fmt_gib (f->headroom_bytes);
      for (guint p = 0; p < PROCURA_FIT_N_PARTS; p++)
        if (f->parts[p].estimate && f->parts[p].bytes > 0)
          g_string_append_printf (est, "%s%s", est->len > 0 ? ", " : "", f->parts[p].id);
      {
        const char *row[] = { ca->name, f->fits ? _("yes") : _("no"),
                              f->fits ? "—" : f->limit_text, w, kvn, kvp, tokens, conc, head,
                              est->len > 0 ? est->str : "—",
                              ca->fit_measured_text != NULL ? ca->fit_measured_text : "—",
                              f->caveat[0] != '\0' ? f->caveat : "—", NULL };
        procura_block_add_row (table, row);
      }
    }
  if (table == NULL)
    procura_report_doc_missing (ctx->doc, _("no GPU candidate to check."));

  procura_report_doc_heading (ctx->doc, 2, _("Probe results"));
  if (project->probe_results->len == 0)
    procura_report_doc_missing (ctx->doc, _("no probe run on a real GPU: the fit above is calculated only."));
  else
    {
      ProcuraBlock *pt = procura_report_doc_table (ctx->doc, "probe", NULL, pheader);
      for (guint i = 0; i < project->probe_results->len; i++)
        {
          const ProcuraProbeResult *r = g_ptr_array_index (project->probe_results, i);
          const ProcuraCandidate *c = find_candidate_const (project, r->candidate_id);
          g_autofree char *total = fmt_gib (r->total_bytes);
          g_autofree char *freeb = fmt_gib (r->free_bytes);
          g_autofree char *head = fmt_gib (r->headroom_bytes);
          g_autofree char *bw = fmt_num (r->bandwidth_gbps, 0, "GB/s");
          const char *row[] = { c != NULL ? c->name : "—", or_dash (r->device_name),
                                or_dash (r->test), r->fits ? _("yes") : _("no"), total, freeb, head, bw,
                                or_dash (r->measured_at), NULL };
          procura_block_add_row (pt, row);
        }
    }

  add_probe_fleet (ctx);

  procura_report_doc_heading (ctx->doc, 2, _("Engine logs"));
  if (project->engine_logs->len == 0)
    procura_report_doc_missing (ctx->doc, _("no engine startup log imported."));
  else
    {
      ProcuraBlock *lt = procura_report_doc_table (ctx->doc, "engine-logs", NULL, lheader);
      for (guint i = 0; i < project->engine_logs->len; i++)
        {
          const ProcuraEngineLog *l = g_ptr_array_index (project->engine_logs, i);
          const ProcuraCandidate *c = find_candidate_const (project, l->candidate_id);
          g_autofree char *engine = g_strdup_printf ("%s %s", or_dash (l->engine), l->engine_version ? l->engine_version : "");
          g_autofree char *tp = l->tp > 0 ? g_strdup_printf ("%d", l->tp) : g_strdup ("—");
          g_autofree char *w = fmt_num (l->weights_gib, 2, "GiB");
          g_autofree char *kv = fmt_num (l->kv_available_gib, 2, "GiB");
          g_autofree char *tokens = l->kv_tokens >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, l->kv_tokens) : g_strdup ("—");
          g_autofree char *conc = fmt_num (l->max_concurrency, 2, "×");
          g_autoptr (GString) errors = g_string_new (NULL);

          for (guint k = 0; k < l->errors->len; k++)
            g_string_append_printf (errors, "%s%s", k > 0 ? "; " : "",
                                    (const char *) g_ptr_array_index (l->errors, k));
          {
            const char *row[] = { c != NULL ? c->name : "—", engine, or_dash (l->model), tp, w,
                                  kv, tokens, conc, errors->len > 0 ? errors->str : _("none"), NULL };
            procura_block_add_row (lt, row);
          }
        }
    }
}

static void
add_ops_tests (ProcuraReportDoc *doc,
               ProcuraProject   *project)
{
  static const char *header[] = { N_("Candidate"), N_("Test"), N_("Result"), N_("Recovery"), N_("Failed requests"),
                                  N_("Per window"), N_("Notes"), NULL };
  ProcuraBlock *table;

  procura_report_doc_heading (doc, 1, _("Operations tests"));
  if (project->ops_tests->len == 0)
    {
      procura_report_doc_missing (doc, _("no operations tests recorded (kill a worker, drain a node, restart the stack, a bad deploy, cold start, checkpoint recovery)."));
      return;
    }
  table = procura_report_doc_table (doc, "ops-tests", NULL, header);
  for (guint i = 0; i < project->ops_tests->len; i++)
    {
      ProcuraOpsTest *t = g_ptr_array_index (project->ops_tests, i);
      ProcuraCandidate *c = procura_project_find_candidate (project, t->candidate_id);
      g_autofree char *rec = fmt_num (t->recovery_s, 0, "s");
      g_autofree char *failed = fmt_num (t->failed_requests, 0, NULL);
      g_autofree char *per = fmt_num (t->per_month, -1, NULL);
      const char *row[] = { c != NULL ? c->name : "—", or_dash (t->kind), or_dash (t->result),
                            rec, failed, per, or_dash (t->notes), NULL };
      procura_block_add_row (table, row);
    }
}

static void
add_checklist (ProcuraReportDoc *doc,
               ProcuraProject   *project)
{
  static const char *header[] = { N_("Candidate"), N_("Section"), N_("Item"), N_("Answer"), N_("Evidence"), NULL };
  ProcuraBlock *table;

  procura_report_doc_heading (doc, 1, _("Procurement checklist"));
  if (project->checklist->len == 0)
    {
      procura_report_doc_missing (doc, _("no checklist answers (hardware and topology, software stack, commercial model, security and governance)."));
      return;
    }
  table = procura_report_doc_table (doc, "checklist", NULL, header);
  for (guint i = 0; i < project->checklist->len; i++)
    {
      ProcuraChecklistItem *it = g_ptr_array_index (project->checklist, i);
      ProcuraCandidate *c = procura_project_find_candidate (project, it->candidate_id);
      gboolean has_text = it->evidence != NULL && *it->evidence != '\0';
      gboolean has_file = it->evidence_file != NULL && *it->evidence_file != '\0';
      /* The evidence and the file (path or URI) that backs it. */
      g_autofree char *evidence = has_file
        ? g_strdup_printf (_("%s%sfile: %s"), has_text ? it->evidence : "", has_text ? "; " : "",
                           it->evidence_file)
        : g_strdup (or_dash (it->evidence));
      const char *row[] = { c != NULL ? c->name : "—", or_dash (it->section), or_dash (it->item),
                            or_dash (it->answer), evidence, NULL };
      procura_block_add_row (table, row);
    }
}

static void
add_decision (ProcuraReportDoc *doc,
              ProcuraProject   *project)
{
  g_autofree char *chosen = decision_name (project);
  ProcuraBlock *kv;

  procura_report_doc_heading (doc, 1, _("Decision"));
  if (chosen == NULL)
    {
      procura_report_doc_missing (doc, _("no candidate has been chosen yet."));
      return;
    }
  kv = procura_report_doc_keyvalue (doc);
  procura_block_add_pair (kv, _("Chosen candidate"), chosen);
  procura_block_add_pair (kv, _("Rationale"), or_dash (project->decision.rationale));
  procura_block_add_pair (kv, _("Approver"), or_dash (project->decision.approver));
  procura_block_add_pair (kv, _("Date"), or_dash (project->decision.date));
}

static void
add_provenance (ProcuraReportDoc *doc,
                ProcuraProject   *project)
{
  static const char *header[] = { N_("File"), N_("Size (bytes)"), N_("SHA-256"), N_("Importer"), N_("Format version"),
                                  N_("Imported"), NULL };
  ProcuraBlock *table;

  procura_report_doc_heading (doc, 1, _("Provenance"));
  if (project->provenance->len == 0)
    {
      procura_report_doc_missing (doc, _("no imported files: every figure was typed in."));
      return;
    }
  procura_report_doc_paragraph (doc, _("Every imported file, so that each figure can be traced to the bytes it came from."));
  table = procura_report_doc_table (doc, "provenance", NULL, header);
  for (guint i = 0; i < project->provenance->len; i++)
    {
      ProcuraProvenance *p = g_ptr_array_index (project->provenance, i);
      g_autofree char *size = p->size >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, p->size)
                                           : g_strdup ("—");
      const char *row[] = { or_dash (p->file_name), size, or_dash (p->sha256),
                            or_dash (p->importer), or_dash (p->format_version),
                            or_dash (p->imported_at), NULL };
      procura_block_add_row (table, row);
    }
}

/* "Changes since …": the diff from the last review's project to this one. */
static void
add_fields_rows (ProcuraBlock *table,
                 const char   *part,
                 const char   *item,
                 const char   *change,
                 GPtrArray    *fields)
{
  for (guint i = 0; i < fields->len; i++)
    {
      const ProcuraDiffField *f = g_ptr_array_index (fields, i);
      /* the CSV keeps the English part and change, as scripts read them */
      const char *row[] = { _(part), item, _(change), f->column, f->old_text, f->new_text, NULL };
      const char *csv[] = { part, item, change, f->column, f->old_text, f->new_text, NULL };

      procura_block_add_row (table, row);
      procura_block_add_csv_row (table, csv);
    }
}

static void
add_items_rows (ProcuraBlock *table,
                const char   *part,
                GPtrArray    *items)
{
  for (guint i = 0; i < items->len; i++)
    {
      const ProcuraDiffItem *it = g_ptr_array_index (items, i);
      g_autofree char *item = NULL;

      if (it->date != NULL)
        item = g_strdup_printf (_("%s (seen %s)"), it->name, it->date);
      else if (g_str_equal (part, "Run"))
        item = g_strdup_printf (_("%s (%s; from %s)"), it->name, or_dash (it->candidate), or_dash (it->file_name));
      else
        item = g_strdup (it->name);
      if (it->fields->len > 0)
        add_fields_rows (table, part, item, procura_diff_kind_name (it->kind), it->fields);
      else
        {
          const char *row[] = { _(part), item, _(procura_diff_kind_name (it->kind)), "—", "—", "—", NULL };
          const char *csv[] = { part, item, procura_diff_kind_name (it->kind), "—", "—", "—", NULL };
          procura_block_add_row (table, row);
          procura_block_add_csv_row (table, csv);
        }
    }
}

static void
add_changes (ProcuraReportDoc *doc,
             ProcuraProject   *project,
             ProcuraProject   *since,
             const char       *since_file)
{
  static const char *header[] = { N_("Part"), N_("Item"), N_("Change"), N_("Column"), N_("Old"), N_("New"), NULL };
  static const char *csv_header[] = { "part", "item", "change", "column", "old", "new", NULL };
  static const char *cheader[] = { N_("Candidate"), N_("Capacity at target"), N_("Cost per accepted output"),
                                   N_("Rank"), NULL };
  g_autoptr (ProcuraDiff) diff = procura_diff_projects (since, project);
  g_autofree char *base = since_file != NULL ? g_path_get_basename (since_file) : NULL;
  g_autofree char *heading = NULL;
  g_autofree char *old_rec = NULL, *new_rec = NULL;
  char date[11] = "";

  if (since->modified != NULL)
    g_strlcpy (date, since->modified, sizeof date);
  heading = g_strdup_printf (_("Changes since “%s” (%s%s%s)"), or_dash (since->title),
                             base != NULL ? base : _("previous record"), date[0] ? ", " : "", date);
  procura_report_doc_heading (doc, 1, heading);
  if (procura_diff_is_empty (diff))
    {
      procura_report_doc_paragraph (doc, _("No changes: the brief, the assumptions, the candidates, the quotes, "
                                         "the runs and every figure of the analysis are as they were."));
      return;
    }
  procura_report_doc_paragraph (doc, _("What differs from the previous record, column by column (names as in the "
                                     "project file), then what it changes in the analysis."));
  if (diff->project->len + diff->brief->len + diff->assumptions->len + diff->decision->len
      + diff->candidates->len + diff->quotes->len + diff->runs->len > 0)
    {
      ProcuraBlock *table = procura_report_doc_table (doc, "changes", NULL, header);

      procura_block_set_csv_header (table, csv_header);
      /* the parts and changes are marked here and translated in the Markdown and PDF rows */
      add_fields_rows (table, N_("Project"), "—", N_("changed"), diff->project);
      add_fields_rows (table, N_("Brief"), "—", N_("changed"), diff->brief);
      add_fields_rows (table, N_("Assumptions"), "—", N_("changed"), diff->assumptions);
      add_fields_rows (table, N_("Decision"), "—", N_("changed"), diff->decision);
      add_items_rows (table, N_("Candidate"), diff->candidates);
      add_items_rows (table, N_("Quote"), diff->quotes);
      add_items_rows (table, N_("Run"), diff->runs);
    }
  else
    procura_report_doc_paragraph (doc, _("No input changed."));

  procura_report_doc_heading (doc, 2, _("Consequences"));
  if (g_strcmp0 (diff->old_target, diff->new_target) != 0)
    procura_report_doc_paragraph (doc, _("Latency target: %s → %s."), diff->old_target, diff->new_target);
  if (procura_diff_n_changed_outcomes (diff) == 0)
    procura_report_doc_paragraph (doc, _("Capacity, cost per accepted output and rank are unchanged for every candidate."));
  else
    {
      ProcuraBlock *ct = procura_report_doc_table (doc, "changes-consequences", NULL, cheader);

      for (guint i = 0; i < diff->outcomes->len; i++)
        {
          const ProcuraDiffOutcome *o = g_ptr_array_index (diff->outcomes, i);
          g_autofree char *name = NULL, *cap = NULL, *cost = NULL, *rank = NULL;
          g_autofree char *old_rank = o->old_rank > 0 ? g_strdup_printf ("%d", o->old_rank) : g_strdup ("—");
          g_autofree char *new_rank = o->new_rank > 0 ? g_strdup_printf ("%d", o->new_rank) : g_strdup ("—");

          if (!o->changed)
            continue;
          name = g_strdup_printf ("%s%s", o->name, !o->in_old ? " (new)" : !o->in_new ? " (gone)" : "");
          cap = g_strdup_printf ("%s → %s", o->old_capacity_text, o->new_capacity_text);
          cost = g_strdup_printf ("%s → %s", o->old_cost_text, o->new_cost_text);
          rank = g_strdup_printf ("%s → %s", old_rank, new_rank);
          {
            const char *row[] = { name, cap, cost, rank, NULL };
            procura_block_add_row (ct, row);
          }
        }
    }
  old_rec = diff->old_recommended != NULL ? g_strdup_printf ("%s (%s)", diff->old_choice, diff->old_recommended)
                                          : g_strdup (diff->old_choice);
  new_rec = diff->new_recommended != NULL ? g_strdup_printf ("%s (%s)", diff->new_choice, diff->new_recommended)
                                          : g_strdup (diff->new_choice);
  if (diff->recommendation_changed)
    procura_report_doc_paragraph (doc, _("Recommendation: %s → %s."), old_rec, new_rec);
  else
    procura_report_doc_paragraph (doc, _("Recommendation unchanged: %s."), new_rec);
}

ProcuraReportDoc *
procura_report_build (ProcuraProject *project)
{
  return procura_report_build_since (project, NULL, NULL);
}

ProcuraReportDoc *
procura_report_build_since (ProcuraProject *project,
                            ProcuraProject *since,
                            const char     *since_file)
{
  ProcuraReportDoc *doc = procura_report_doc_new (project->title != NULL ? project->title
                                                                         : _("Untitled decision"));

  doc->generated_at = procura_now_iso8601 ();
  add_title (doc, project);
  if (since != NULL)
    add_changes (doc, project, since, since_file);
  add_brief (doc, project);
  add_candidates (doc, project);
  add_quotes (doc, project);
  {
    g_autoptr (ProcuraAnalysis) analysis = procura_analysis_run (project, NULL);
    ReportCtx ctx = { doc, project, analysis };

    add_finance (doc, project, analysis);
    add_capacity (doc, analysis);
    add_breakdown (doc, analysis);
    add_figures (&ctx);
    add_memory_fit (&ctx);
    add_ops_tests (doc, project);
    add_sensitivity (doc, analysis);
    add_warnings (doc, project, analysis);
    add_recommendation (doc, analysis);
  }
  add_decision (doc, project);
  add_assumptions (doc, project);
  add_checklist (doc, project);
  add_provenance (doc, project);
  return doc;
}

gboolean
procura_report_format_from_path (const char          *path,
                                 ProcuraReportFormat *format)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_str_has_suffix (lower, ".pdf"))
    *format = PROCURA_REPORT_PDF;
  else if (g_str_has_suffix (lower, ".md") || g_str_has_suffix (lower, ".markdown"))
    *format = PROCURA_REPORT_MARKDOWN;
  else if (g_str_has_suffix (lower, ".csv"))
    *format = PROCURA_REPORT_CSV;
  else
    return FALSE;
  return TRUE;
}

static char *
sibling_path (const char *path,
              const char *suffix)
{
  const char *dot = strrchr (path, '.');
  const char *slash = strrchr (path, '/');
  g_autofree char *stem = (dot != NULL && (slash == NULL || dot > slash))
    ? g_strndup (path, dot - path) : g_strdup (path);

  return g_strconcat (stem, suffix, NULL);
}

gboolean
procura_report_write (ProcuraProject      *project,
                      const char          *path,
                      ProcuraReportFormat  format,
                      GError             **error)
{
  return procura_report_write_since (project, NULL, NULL, path, format, error);
}

gboolean
procura_report_write_since (ProcuraProject      *project,
                            ProcuraProject      *since,
                            const char          *since_file,
                            const char          *path,
                            ProcuraReportFormat  format,
                            GError             **error)
{
  return procura_report_write_full (project, since, since_file, path, format, NULL, error);
}

/* Every file the report writes, in the order it writes them: (path, bytes or NULL for
 * a figure, the figure's block) */
typedef struct {
  char                *path;
  char                *text;      /* Markdown or CSV; NULL for a figure */
  const ProcuraBlock  *figure;    /* the figure's block; NULL for text */
  gboolean             svg;
} Output;

static void
output_clear (gpointer data)
{
  Output *o = data;

  g_free (o->path);
  g_free (o->text);
}

static void
add_text_output (GArray     *outputs,
                 char       *path,
                 char       *text)
{
  Output o = { path, text, NULL, FALSE };

  g_array_append_val (outputs, o);
}

/* An output that already exists and is one of @keep (same device and inode, whatever
 * the names: hard links, symbolic links, "./x") is refused before anything is written. */
static gboolean
check_keep (GArray              *outputs,
            const char * const  *keep,
            GError             **error)
{
  for (guint i = 0; i < outputs->len; i++)
    {
      const Output *o = &g_array_index (outputs, Output, i);
      struct stat out_st;

      if (keep == NULL || g_stat (o->path, &out_st) != 0)
        continue;
      for (guint k = 0; keep[k] != NULL; k++)
        {
          struct stat keep_st;

          if (g_stat (keep[k], &keep_st) == 0
              && keep_st.st_dev == out_st.st_dev && keep_st.st_ino == out_st.st_ino)
            {
              g_autofree char *name = g_filename_display_name (o->path);
              g_autofree char *kept = g_filename_display_name (keep[k]);

              g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                           "%s: the report writes this file beside its output, and it is %s, "
                           "which the report reads; choose another output name",
                           name, kept);
              return FALSE;
            }
        }
    }
  return TRUE;
}

gboolean
procura_report_write_full (ProcuraProject      *project,
                           ProcuraProject      *since,
                           const char          *since_file,
                           const char          *path,
                           ProcuraReportFormat  format,
                           const char * const  *keep,
                           GError             **error)
{
  g_autoptr (ProcuraReportDoc) doc = procura_report_build_since (project, since, since_file);
  g_autoptr (GArray) outputs = g_array_new (FALSE, TRUE, sizeof (Output));

  g_array_set_clear_func (outputs, output_clear);
  switch (format)
    {
    case PROCURA_REPORT_PDF:
      add_text_output (outputs, g_strdup (path), NULL);
      if (!check_keep (outputs, keep, error))
        return FALSE;
      return procura_report_doc_write_pdf (doc, path, NULL, error);

    case PROCURA_REPORT_MARKDOWN:
      {
        g_autofree char *base = g_path_get_basename (path);
        g_autofree char *dir = g_path_get_dirname (path);
        g_autofree char *prefix = sibling_path (base, "-");

        /* every figure beside the Markdown, as SVG and PNG; the Markdown last */
        for (guint i = 0; i < doc->blocks->len; i++)
          {
            const ProcuraBlock *b = g_ptr_array_index (doc->blocks, i);
            Output svg = { NULL, NULL, b, TRUE }, png = { NULL, NULL, b, FALSE };

            if (b->kind != PROCURA_BLOCK_FIGURE || b->figure == NULL)
              continue;
            svg.path = g_strdup_printf ("%s/%s%s.svg", dir, prefix, b->id);
            png.path = g_strdup_printf ("%s/%s%s.png", dir, prefix, b->id);
            g_array_append_val (outputs, svg);
            g_array_append_val (outputs, png);
          }
        add_text_output (outputs, g_strdup (path), procura_report_doc_to_markdown (doc, prefix));
        if (!check_keep (outputs, keep, error))
          return FALSE;
        {
          /* each PNG is deflated and written by a worker while the next figure is drawn;
           * the Markdown, which names them, once they are all written */
          g_autoptr (ProcuraChartPngQueue) pngs = procura_chart_png_queue_new ();

          for (guint i = 0; i < outputs->len; i++)
            {
              const Output *o = &g_array_index (outputs, Output, i);

              if (o->figure == NULL)
                {
                  if (!procura_chart_png_queue_finish (pngs, error)
                      || !procura_atomic_file_write (o->path, o->text, strlen (o->text), error))
                    return FALSE;
                }
              else if (o->svg)
                {
                  if (!procura_chart_write_svg (o->figure->figure, o->path, 800, 480,
                                                procura_chart_theme_light (), error))
                    return FALSE;
                }
              else if (!procura_chart_png_queue_add (pngs, o->figure->figure, o->path, 1200, 720, 1.0,
                                                     procura_chart_theme_light (), error))
                return FALSE;
            }
          return procura_chart_png_queue_finish (pngs, error);
        }
      }

    case PROCURA_REPORT_CSV:
      {
        const ProcuraBlock *finance = procura_report_doc_find_table (doc, "finance");
        const ProcuraBlock *metrics = procura_report_doc_find_table (doc, "metrics");
        const ProcuraBlock *candidates = procura_report_doc_find_table (doc, "candidates");

        if (finance == NULL)
          finance = candidates;
        if (finance == NULL)
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("%s: the project has no candidates, so there is no finance table to write"),
                         path);
            return FALSE;
          }
        add_text_output (outputs, g_strdup (path), procura_report_table_to_csv (finance));
        if (since != NULL)
          {
            const ProcuraBlock *changes = procura_report_doc_find_table (doc, "changes");

            add_text_output (outputs, sibling_path (path, "-changes.csv"),
                             changes != NULL ? procura_report_table_to_csv (changes)
                                             : g_strdup ("part,item,change,column,old,new\n"));
          }
        if (metrics != NULL)
          add_text_output (outputs, sibling_path (path, "-metrics.csv"),
                           procura_report_table_to_csv (metrics));
        if (!check_keep (outputs, keep, error))
          return FALSE;
        for (guint i = 0; i < outputs->len; i++)
          {
            const Output *o = &g_array_index (outputs, Output, i);

            if (!procura_atomic_file_write (o->path, o->text, strlen (o->text), error))
              return FALSE;
          }
        return TRUE;
      }

    default:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("unknown report format"));
      return FALSE;
    }
}
