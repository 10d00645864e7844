/* procura-diff.c: what changed between two versions of a decision
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "procura-analysis.h"
#include "procura-diff.h"
#include "procura-fields.h"
#include "procura-json-out.h"
#include "procura-store.h"
#include "procura-units.h"

/* ------------------------------------------------------------------------- */
/* The columns compared are the settable fields of the registry (procura-fields.h):
 * one list of the project file's columns, their types and their units. */

/* ------------------------------------------------------------------------- */

const char *
procura_diff_kind_name (ProcuraDiffKind kind)
{
  switch (kind)
    {
    /* N_(): the names stay English (JSON, CSV); a reader's copy translates them */
    case PROCURA_DIFF_ADDED:
      return N_("added");
    case PROCURA_DIFF_REMOVED:
      return N_("removed");
    case PROCURA_DIFF_CHANGED:
    default:
      return N_("changed");
    }
}

static void
field_free (ProcuraDiffField *f)
{
  g_free (f->column);
  g_free (f->old_string);
  g_free (f->new_string);
  g_free (f->old_text);
  g_free (f->new_text);
  g_free (f);
}

static void
item_free (ProcuraDiffItem *it)
{
  g_free (it->name);
  g_free (it->date);
  g_free (it->candidate);
  g_free (it->file_name);
  g_free (it->sha256);
  g_ptr_array_unref (it->fields);
  g_free (it);
}

static void
outcome_free (ProcuraDiffOutcome *o)
{
  g_free (o->name);
  g_free (o->old_capacity_status);
  g_free (o->new_capacity_status);
  g_free (o->old_capacity_text);
  g_free (o->new_capacity_text);
  g_free (o->old_cost_text);
  g_free (o->new_cost_text);
  g_free (o);
}

void
procura_diff_free (ProcuraDiff *d)
{
  if (d == NULL)
    return;
  g_free (d->old_title);
  g_free (d->new_title);
  g_free (d->old_modified);
  g_free (d->new_modified);
  g_free (d->old_target);
  g_free (d->new_target);
  g_ptr_array_unref (d->project);
  g_ptr_array_unref (d->brief);
  g_ptr_array_unref (d->assumptions);
  g_ptr_array_unref (d->decision);
  g_ptr_array_unref (d->candidates);
  g_ptr_array_unref (d->quotes);
  g_ptr_array_unref (d->runs);
  g_ptr_array_unref (d->outcomes);
  g_free (d->old_choice);
  g_free (d->new_choice);
  g_free (d->old_recommended);
  g_free (d->new_recommended);
  g_ptr_array_unref (d->old_reasons);
  g_ptr_array_unref (d->new_reasons);
  g_free (d);
}

static ProcuraDiffItem *
item_new (ProcuraDiffKind  kind,
          const char      *name)
{
  ProcuraDiffItem *it = g_new0 (ProcuraDiffItem, 1);

  it->kind = kind;
  it->name = g_strdup (name);
  it->fields = g_ptr_array_new_with_free_func ((GDestroyNotify) field_free);
  return it;
}

/* Two figures are the same when both are unknown or they agree to 1e-9 (relative). */
static gboolean
same_number (double a,
             double b)
{
  if (isnan (a) || isnan (b))
    return isnan (a) && isnan (b);
  if (a == b)
    return TRUE;
  return fabs (a - b) <= 1e-9 * MAX (fabs (a), fabs (b));
}

static char *
number_text (double            v,
             ProcuraFieldUnit  unit,
             const char       *currency)
{
  g_autofree char *num = NULL;

  if (isnan (v))
    return g_strdup ("—");
  if (unit == PROCURA_FIELD_UNIT_MONEY)
    return procura_units_money (v, currency);
  num = g_strdup_printf ("%.6g", v);
  switch (unit)
    {
    case PROCURA_FIELD_UNIT_MS:
      return g_strdup_printf (_("%s ms"), num);
    case PROCURA_FIELD_UNIT_SECONDS:
      return g_strdup_printf (_("%s s"), num);
    case PROCURA_FIELD_UNIT_TOKENS:
      return g_strdup_printf (_("%s tokens"), num);
    case PROCURA_FIELD_UNIT_RPS:
      return g_strdup_printf (_("%s req/s"), num);
    case PROCURA_FIELD_UNIT_HOURS:
      return g_strdup_printf (_("%s h"), num);
    case PROCURA_FIELD_UNIT_DAYS:
      return g_strdup_printf (_("%s days"), num);
    case PROCURA_FIELD_UNIT_MONTHS:
      return g_strdup_printf (_("%s months"), num);
    case PROCURA_FIELD_UNIT_YEARS:
      return g_strdup_printf (_("%s years"), num);
    case PROCURA_FIELD_UNIT_GB:
      return g_strdup_printf (_("%s GB"), num);
    case PROCURA_FIELD_UNIT_PERCENT:
      return g_strdup_printf ("%s %%", num);
    case PROCURA_FIELD_UNIT_PER_MINUTE:
      return g_strdup_printf (_("%s per minute"), num);
    case PROCURA_FIELD_UNIT_NONE:
    case PROCURA_FIELD_UNIT_MONEY:
    default:
      return g_steal_pointer (&num);
    }
}

/* The identity of a quote: what it is for, not its store id or its price. */
static char *
quote_key (const ProcuraQuote *q)
{
  return g_strdup_printf ("%d\x1f%s\x1f%s\x1f%s\x1f%d\x1f%s\x1f%.6g\x1f%s\x1f%s", q->kind,
                          q->provider ? q->provider : "", q->sku ? q->sku : "",
                          q->gpu_name ? q->gpu_name : "", q->gpu_count,
                          q->pricing_model ? q->pricing_model : "", q->term_months,
                          q->region ? q->region : "", q->api_model ? q->api_model : "");
}

/* "Lambda · gpu_8x_h100_sxm5 · on-demand · us-east-1" */
static char *
quote_name (const ProcuraQuote *q)
{
  const char *parts[] = { q->provider, q->kind == PROCURA_QUOTE_API ? q->api_model : q->sku,
                          q->pricing_model, q->region };
  GString *s = g_string_new (NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (parts); i++)
    if (parts[i] != NULL && *parts[i] != '\0')
      g_string_append_printf (s, "%s%s", s->len > 0 ? " · " : "", parts[i]);
  if (s->len == 0)
    g_string_append_printf (s, "quote %" G_GINT64_FORMAT, q->id);
  return g_string_free (s, FALSE);
}

static const ProcuraQuote *
find_quote (const ProcuraProject *p,
            gint64                id)
{
  for (guint i = 0; id > 0 && i < p->quotes->len; i++)
    {
      const ProcuraQuote *q = g_ptr_array_index (p->quotes, i);
      if (q->id == id)
        return q;
    }
  return NULL;
}

static const char *
candidate_name (const ProcuraProject *p,
                gint64                id)
{
  const ProcuraCandidate *c = id > 0 ? procura_project_find_candidate ((ProcuraProject *) p, id) : NULL;
  return c != NULL ? c->name : NULL;
}

/* Reads one field of @base (a record of @p) as a string or a number. */
static void
read_field (const ProcuraProject *p,
            const ProcuraField   *field,
            gconstpointer         base,
            gboolean             *numeric,
            double               *number,
            char                **string)
{
  const guint8 *at = (const guint8 *) base + field->offset;

  *numeric = FALSE;
  *number = NAN;
  *string = NULL;
  switch (field->type)
    {
    case PROCURA_FIELD_TEXT:
    case PROCURA_FIELD_CHOICE:
    case PROCURA_FIELD_DATE:
    case PROCURA_FIELD_CURRENCY:
      *string = g_strdup (*(char * const *) at);
      break;
    case PROCURA_FIELD_NUMBER:
      *numeric = TRUE;
      *number = *(const double *) at;
      break;
    case PROCURA_FIELD_INT:
      *numeric = TRUE;
      *number = *(const int *) at >= 0 ? (double) *(const int *) at : NAN;
      break;
    case PROCURA_FIELD_BOOL:
    case PROCURA_FIELD_ENUM:
      /* as procura set spells it: "true", "gpu", "always-on" */
      *string = procura_field_format (field, (ProcuraProject *) p, base);
      break;
    case PROCURA_FIELD_QUOTE:
      {
        const ProcuraQuote *q = find_quote (p, *(const gint64 *) at);
        *string = q != NULL ? quote_name (q) : NULL;
      }
      break;
    case PROCURA_FIELD_CANDIDATE:
      *string = g_strdup (candidate_name (p, *(const gint64 *) at));
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Compares the fields of @table in two records (the row's name, by which rows are
 * paired, aside); appends a ProcuraDiffField per difference. */
static void
compare_columns (const ProcuraProject *old_p,
                 gconstpointer         old_base,
                 const char           *old_currency,
                 const ProcuraProject *new_p,
                 gconstpointer         new_base,
                 const char           *new_currency,
                 ProcuraFieldTable     table,
                 GPtrArray            *out)
{
  gsize n_fields;
  const ProcuraField *fields = procura_fields (&n_fields);

  for (gsize i = 0; i < n_fields; i++)
    {
      const ProcuraField *field = &fields[i];
      gboolean numeric, numeric2;
      double a, b;
      g_autofree char *sa = NULL, *sb = NULL;
      ProcuraDiffField *f;

      if (field->table != table || (table == PROCURA_FIELD_TABLE_CANDIDATE && g_str_equal (field->column, "name")))
        continue;
      read_field (old_p, field, old_base, &numeric, &a, &sa);
      read_field (new_p, field, new_base, &numeric2, &b, &sb);
      if (numeric ? same_number (a, b) : g_strcmp0 (sa, sb) == 0)
        continue;
      f = g_new0 (ProcuraDiffField, 1);
      f->column = g_strdup (field->column);
      f->numeric = numeric;
      f->old_number = a;
      f->new_number = b;
      if (numeric)
        {
          f->old_text = number_text (a, procura_field_unit (field), old_currency);
          f->new_text = number_text (b, procura_field_unit (field), new_currency);
        }
      else
        {
          f->old_text = g_strdup (sa != NULL ? sa : "—");
          f->new_text = g_strdup (sb != NULL ? sb : "—");
          f->old_string = g_steal_pointer (&sa);
          f->new_string = g_steal_pointer (&sb);
        }
      g_ptr_array_add (out, f);
    }
}

/* Keys for a list of rows: the identity, with " #2", " #3"… for repeats, so that two
 * runs of one file with one label still pair up one to one. */
static GPtrArray *
keyed (GPtrArray *rows,
       char     *(*key_of) (gconstpointer row))
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < rows->len; i++)
    {
      g_autofree char *k = key_of (g_ptr_array_index (rows, i));
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (seen, k)) + 1;

      g_hash_table_replace (seen, g_strdup (k), GUINT_TO_POINTER (n));
      g_ptr_array_add (keys, n == 1 ? g_steal_pointer (&k) : g_strdup_printf ("%s\x1f#%u", k, n));
    }
  return keys;
}

static int
find_key (GPtrArray  *keys,
          const char *key)
{
  for (guint i = 0; i < keys->len; i++)
    if (g_str_equal (g_ptr_array_index (keys, i), key))
      return (int) i;
  return -1;
}

static char *
candidate_key (gconstpointer row)
{
  return g_strdup (((const ProcuraCandidate *) row)->name ? ((const ProcuraCandidate *) row)->name : "");
}

static char *
quote_key_cb (gconstpointer row)
{
  return quote_key (row);
}

static char *
run_key (gconstpointer row)
{
  const ProcuraRun *r = row;

  if (r->provenance != NULL && r->provenance->sha256 != NULL)
    return g_strdup_printf ("%s\x1f%s", r->provenance->sha256, r->label ? r->label : "");
  /* typed-in or provenance-less runs: what they measured */
  return g_strdup_printf ("\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%.9g\x1f%.9g", r->label ? r->label : "",
                          r->format ? r->format : "", r->scenario.model ? r->scenario.model : "",
                          r->scenario.gpu_name ? r->scenario.gpu_name : "",
                          r->scenario.load_type ? r->scenario.load_type : "", r->scenario.load_value,
                          r->request_throughput);
}

static void
diff_candidates (ProcuraDiff          *d,
                 const ProcuraProject *o,
                 const ProcuraProject *n)
{
  g_autoptr (GPtrArray) ok = keyed (o->candidates, candidate_key);
  g_autoptr (GPtrArray) nk = keyed (n->candidates, candidate_key);

  for (guint i = 0; i < o->candidates->len; i++)
    {
      const ProcuraCandidate *oc = g_ptr_array_index (o->candidates, i);
      int j = find_key (nk, g_ptr_array_index (ok, i));

      if (j < 0)
        g_ptr_array_add (d->candidates, item_new (PROCURA_DIFF_REMOVED, oc->name));
      else
        {
          const ProcuraCandidate *nc = g_ptr_array_index (n->candidates, j);
          ProcuraDiffItem *it = item_new (PROCURA_DIFF_CHANGED, oc->name);

          compare_columns (o, oc, o->assumptions.currency, n, nc, n->assumptions.currency,
                           PROCURA_FIELD_TABLE_CANDIDATE, it->fields);
          if (it->fields->len > 0)
            g_ptr_array_add (d->candidates, it);
          else
            item_free (it);
        }
    }
  for (guint j = 0; j < n->candidates->len; j++)
    if (find_key (ok, g_ptr_array_index (nk, j)) < 0)
      g_ptr_array_add (d->candidates,
                       item_new (PROCURA_DIFF_ADDED, ((ProcuraCandidate *) g_ptr_array_index (n->candidates, j))->name));
}

static void
diff_quotes (ProcuraDiff          *d,
             const ProcuraProject *o,
             const ProcuraProject *n)
{
  g_autoptr (GPtrArray) ok = keyed (o->quotes, quote_key_cb);
  g_autoptr (GPtrArray) nk = keyed (n->quotes, quote_key_cb);

  for (guint i = 0; i < o->quotes->len; i++)
    {
      const ProcuraQuote *oq = g_ptr_array_index (o->quotes, i);
      g_autofree char *name = quote_name (oq);
      int j = find_key (nk, g_ptr_array_index (ok, i));
      ProcuraDiffItem *it;

      if (j < 0)
        {
          it = item_new (PROCURA_DIFF_REMOVED, name);
          it->date = g_strdup (oq->seen_date);
          g_ptr_array_add (d->quotes, it);
          continue;
        }
      {
        const ProcuraQuote *nq = g_ptr_array_index (n->quotes, j);

        it = item_new (PROCURA_DIFF_CHANGED, name);
        it->date = g_strdup (nq->seen_date);
        compare_columns (o, oq, oq->currency, n, nq, nq->currency,
                         PROCURA_FIELD_TABLE_QUOTE, it->fields);
        if (it->fields->len > 0)
          g_ptr_array_add (d->quotes, it);
        else
          item_free (it);
      }
    }
  for (guint j = 0; j < n->quotes->len; j++)
    if (find_key (ok, g_ptr_array_index (nk, j)) < 0)
      {
        const ProcuraQuote *nq = g_ptr_array_index (n->quotes, j);
        g_autofree char *name = quote_name (nq);
        ProcuraDiffItem *it = item_new (PROCURA_DIFF_ADDED, name);

        it->date = g_strdup (nq->seen_date);
        g_ptr_array_add (d->quotes, it);
      }
}

static ProcuraDiffItem *
run_item (ProcuraDiffKind       kind,
          const ProcuraProject *p,
          const ProcuraRun     *r)
{
  ProcuraDiffItem *it = item_new (kind, r->label != NULL ? r->label : "(unlabelled run)");

  it->candidate = g_strdup (candidate_name (p, r->candidate_id));
  if (r->provenance != NULL)
    {
      it->file_name = g_strdup (r->provenance->file_name);
      it->sha256 = g_strdup (r->provenance->sha256);
    }
  return it;
}

static void
diff_runs (ProcuraDiff          *d,
           const ProcuraProject *o,
           const ProcuraProject *n)
{
  g_autoptr (GPtrArray) ok = keyed (o->runs, run_key);
  g_autoptr (GPtrArray) nk = keyed (n->runs, run_key);

  for (guint i = 0; i < o->runs->len; i++)
    {
      const ProcuraRun *or = g_ptr_array_index (o->runs, i);
      int j = find_key (nk, g_ptr_array_index (ok, i));

      if (j < 0)
        g_ptr_array_add (d->runs, run_item (PROCURA_DIFF_REMOVED, o, or));
      else
        {
          /* the same measurement: it can only have moved to another candidate */
          const ProcuraRun *nr = g_ptr_array_index (n->runs, j);
          const char *a = candidate_name (o, or->candidate_id);
          const char *b = candidate_name (n, nr->candidate_id);

          if (g_strcmp0 (a, b) != 0)
            {
              ProcuraDiffItem *it = run_item (PROCURA_DIFF_CHANGED, n, nr);
              ProcuraDiffField *f = g_new0 (ProcuraDiffField, 1);

              f->column = g_strdup ("candidate_id");
              f->old_number = f->new_number = NAN;
              f->old_string = g_strdup (a);
              f->new_string = g_strdup (b);
              f->old_text = g_strdup (a != NULL ? a : "unassigned");
              f->new_text = g_strdup (b != NULL ? b : "unassigned");
              g_ptr_array_add (it->fields, f);
              g_ptr_array_add (d->runs, it);
            }
        }
    }
  for (guint j = 0; j < n->runs->len; j++)
    if (find_key (ok, g_ptr_array_index (nk, j)) < 0)
      g_ptr_array_add (d->runs, run_item (PROCURA_DIFF_ADDED, n, g_ptr_array_index (n->runs, j)));
}

/* ------------------------------------------------------------------------- */
/* Consequences                                                               */

static char *
capacity_text (const ProcuraCandidateAnalysis *ca)
{
  g_autofree char *num = NULL;

  if (ca == NULL)
    return g_strdup ("—");
  num = procura_units_number (ca->capacity_at_slo, 2, "req/s");
  if (ca->capacity != NULL && ca->capacity->status == PROCURA_CAPACITY_NOT_SATURATED && !isnan (ca->capacity_at_slo))
    return g_strdup_printf ("≥ %s (not saturated)", num);
  if (isnan (ca->capacity_at_slo) && ca->capacity != NULL)
    return g_strdup_printf ("none (%s)", procura_capacity_status_name (ca->capacity->status));
  return g_steal_pointer (&num);
}

static char *
target_text (const ProcuraAnalysis *a)
{
  if (a->slo_metric == NULL || isnan (a->slo_threshold_ms))
    return g_strdup ("not set");
  return g_strdup_printf ("p%g %s ≤ %g ms", a->slo_percentile, a->slo_metric, a->slo_threshold_ms);
}

static void
fill_side (ProcuraDiffOutcome             *o,
           gboolean                        old_side,
           const ProcuraCandidateAnalysis *ca,
           const char                     *currency)
{
  double cap = ca != NULL ? ca->capacity_at_slo : NAN;
  double cost = ca != NULL && ca->cost != NULL ? ca->cost->cost_per_accepted : NAN;
  char *status = ca != NULL && ca->capacity != NULL
    ? g_strdup (procura_capacity_status_name (ca->capacity->status)) : NULL;
  char *cap_text = capacity_text (ca);
  char *cost_text = procura_units_cost_per_output (cost, currency);
  int rank = ca != NULL ? ca->rank : 0;

  if (old_side)
    {
      o->in_old = ca != NULL;
      o->old_capacity = cap;
      o->old_cost = cost;
      o->old_rank = rank;
      o->old_capacity_status = status;
      o->old_capacity_text = cap_text;
      o->old_cost_text = cost_text;
    }
  else
    {
      o->in_new = ca != NULL;
      o->new_capacity = cap;
      o->new_cost = cost;
      o->new_rank = rank;
      o->new_capacity_status = status;
      o->new_capacity_text = cap_text;
      o->new_cost_text = cost_text;
    }
}

static const ProcuraCandidateAnalysis *
find_analysis_by_name (const ProcuraAnalysis *a,
                       const char            *name)
{
  for (guint i = 0; i < a->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (a->candidates, i);
      if (g_strcmp0 (ca->name, name) == 0)
        return ca;
    }
  return NULL;
}

static void
add_outcome (ProcuraDiff           *d,
             const ProcuraAnalysis *oa,
             const ProcuraAnalysis *na,
             const char            *name)
{
  const ProcuraCandidateAnalysis *o = find_analysis_by_name (oa, name);
  const ProcuraCandidateAnalysis *n = find_analysis_by_name (na, name);
  ProcuraDiffOutcome *out = g_new0 (ProcuraDiffOutcome, 1);

  out->name = g_strdup (name);
  out->derived = (o != NULL && o->derived) || (n != NULL && n->derived);
  fill_side (out, TRUE, o, oa->currency);
  fill_side (out, FALSE, n, na->currency);
  out->changed = out->in_old != out->in_new
                 || !same_number (out->old_capacity, out->new_capacity)
                 || !same_number (out->old_cost, out->new_cost)
                 || out->old_rank != out->new_rank
                 || g_strcmp0 (out->old_capacity_status, out->new_capacity_status) != 0;
  g_ptr_array_add (d->outcomes, out);
}

static GPtrArray *
copy_reasons (const ProcuraRecommendation *r)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; r != NULL && r->reasons != NULL && i < r->reasons->len; i++)
    g_ptr_array_add (out, g_strdup (g_ptr_array_index (r->reasons, i)));
  return out;
}

static void
diff_outcomes (ProcuraDiff          *d,
               const ProcuraProject *o,
               const ProcuraProject *n)
{
  g_autoptr (ProcuraAnalysis) oa = procura_analysis_run (o, NULL);
  g_autoptr (ProcuraAnalysis) na = procura_analysis_run (n, NULL);
  const ProcuraRecommendation *orr = oa->recommendation, *nrr = na->recommendation;

  d->old_target = target_text (oa);
  d->new_target = target_text (na);
  for (guint i = 0; i < oa->candidates->len; i++)
    add_outcome (d, oa, na, ((ProcuraCandidateAnalysis *) g_ptr_array_index (oa->candidates, i))->name);
  for (guint i = 0; i < na->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (na->candidates, i);
      if (find_analysis_by_name (oa, ca->name) == NULL)
        add_outcome (d, oa, na, ca->name);
    }

  d->old_choice = g_strdup (procura_choice_name (orr != NULL ? orr->choice : PROCURA_CHOICE_UNDECIDED));
  d->new_choice = g_strdup (procura_choice_name (nrr != NULL ? nrr->choice : PROCURA_CHOICE_UNDECIDED));
  d->old_recommended = g_strdup (orr != NULL ? orr->candidate_name : NULL);
  d->new_recommended = g_strdup (nrr != NULL ? nrr->candidate_name : NULL);
  d->old_reasons = copy_reasons (orr);
  d->new_reasons = copy_reasons (nrr);
  d->recommendation_changed = g_strcmp0 (d->old_choice, d->new_choice) != 0
                              || g_strcmp0 (d->old_recommended, d->new_recommended) != 0;
}

ProcuraDiff *
procura_diff_projects (const ProcuraProject *o,
                       const ProcuraProject *n)
{
  ProcuraDiff *d = g_new0 (ProcuraDiff, 1);
  g_autoptr (ProcuraBrief) empty_o = procura_brief_new ();
  g_autoptr (ProcuraBrief) empty_n = procura_brief_new ();

  g_return_val_if_fail (o != NULL && n != NULL, NULL);

  d->old_title = g_strdup (o->title);
  d->new_title = g_strdup (n->title);
  d->old_modified = g_strdup (o->modified);
  d->new_modified = g_strdup (n->modified);
  d->project = g_ptr_array_new_with_free_func ((GDestroyNotify) field_free);
  d->brief = g_ptr_array_new_with_free_func ((GDestroyNotify) field_free);
  d->assumptions = g_ptr_array_new_with_free_func ((GDestroyNotify) field_free);
  d->decision = g_ptr_array_new_with_free_func ((GDestroyNotify) field_free);
  d->candidates = g_ptr_array_new_with_free_func ((GDestroyNotify) item_free);
  d->quotes = g_ptr_array_new_with_free_func ((GDestroyNotify) item_free);
  d->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) item_free);
  d->outcomes = g_ptr_array_new_with_free_func ((GDestroyNotify) outcome_free);

  compare_columns (o, o, NULL, n, n, NULL, PROCURA_FIELD_TABLE_PROJECT, d->project);
  compare_columns (o, o->brief != NULL ? o->brief : empty_o, NULL, n, n->brief != NULL ? n->brief : empty_n,
                   NULL, PROCURA_FIELD_TABLE_BRIEF, d->brief);
  compare_columns (o, &o->assumptions, NULL, n, &n->assumptions, NULL, PROCURA_FIELD_TABLE_ASSUMPTIONS,
                   d->assumptions);
  compare_columns (o, &o->decision, NULL, n, &n->decision, NULL, PROCURA_FIELD_TABLE_DECISION,
                   d->decision);
  diff_candidates (d, o, n);
  diff_quotes (d, o, n);
  diff_runs (d, o, n);
  diff_outcomes (d, o, n);
  return d;
}

ProcuraDiff *
procura_diff_files (const char  *old_path,
                    const char  *new_path,
                    GError     **error)
{
  const char *paths[2] = { old_path, new_path };
  ProcuraProject *projects[2] = { NULL, NULL };
  ProcuraDiff *d = NULL;

  for (int i = 0; i < 2; i++)
    {
      g_autoptr (GError) local = NULL;
      g_autoptr (ProcuraStore) store = procura_store_open (paths[i], PROCURA_STORE_OPEN_READ_ONLY, &local);

      if (store != NULL)
        projects[i] = procura_store_load_project (store, PROCURA_STORE_LOAD_SLO_SAMPLES, &local);
      if (projects[i] == NULL)
        {
          /* store messages usually name the file already */
          if (strstr (local->message, paths[i]) != NULL)
            g_propagate_error (error, g_steal_pointer (&local));
          else
            g_set_error (error, local->domain, local->code, "%s: %s", paths[i], local->message);
          goto out;
        }
    }
  d = procura_diff_projects (projects[0], projects[1]);
out:
  for (int i = 0; i < 2; i++)
    if (projects[i] != NULL)
      procura_project_free (projects[i]);
  return d;
}

guint
procura_diff_n_changed_outcomes (const ProcuraDiff *d)
{
  guint n = 0;

  for (guint i = 0; i < d->outcomes->len; i++)
    if (((ProcuraDiffOutcome *) g_ptr_array_index (d->outcomes, i))->changed)
      n++;
  return n;
}

gboolean
procura_diff_is_empty (const ProcuraDiff *d)
{
  return d->project->len == 0 && d->brief->len == 0 && d->assumptions->len == 0
         && d->decision->len == 0 && d->candidates->len == 0 && d->quotes->len == 0
         && d->runs->len == 0 && procura_diff_n_changed_outcomes (d) == 0
         && !d->recommendation_changed;
}

char *
procura_diff_field_arrow (const ProcuraDiffField *f)
{
  return g_strdup_printf ("%s → %s", f->old_text, f->new_text);
}

/* ------------------------------------------------------------------------- */
/* JSON                                                                       */

static void
field_value_json (JsonBuilder *b,
                  const char  *member,
                  gboolean     numeric,
                  double       number,
                  const char  *string)
{
  if (numeric)
    procura_json_add_number (b, member, number);
  else
    procura_json_add_string (b, member, string);
}

static void
fields_json (JsonBuilder *b,
             const char  *member,
             GPtrArray   *fields)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < fields->len; i++)
    {
      const ProcuraDiffField *f = g_ptr_array_index (fields, i);

      json_builder_begin_object (b);
      procura_json_add_string (b, "column", f->column);
      field_value_json (b, "old", f->numeric, f->old_number, f->old_string);
      field_value_json (b, "new", f->numeric, f->new_number, f->new_string);
      procura_json_add_string (b, "old_text", f->old_text);
      procura_json_add_string (b, "new_text", f->new_text);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
items_json (JsonBuilder *b,
            const char  *member,
            GPtrArray   *items,
            gboolean     quotes,
            gboolean     runs)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < items->len; i++)
    {
      const ProcuraDiffItem *it = g_ptr_array_index (items, i);

      json_builder_begin_object (b);
      procura_json_add_string (b, "change", procura_diff_kind_name (it->kind));
      procura_json_add_string (b, "name", it->name);
      if (quotes)
        procura_json_add_string (b, "seen_date", it->date);
      if (runs)
        {
          procura_json_add_string (b, "candidate", it->candidate);
          procura_json_add_string (b, "file_name", it->file_name);
          procura_json_add_string (b, "sha256", it->sha256);
        }
      fields_json (b, "fields", it->fields);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
rank_json (JsonBuilder *b,
           const char  *member,
           int          rank)
{
  json_builder_set_member_name (b, member);
  if (rank > 0)
    json_builder_add_int_value (b, rank);
  else
    json_builder_add_null_value (b);
}

static void
side_json (JsonBuilder *b,
           const char  *member,
           const char  *choice,
           const char  *candidate,
           GPtrArray   *reasons)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
  procura_json_add_string (b, "choice", choice);
  procura_json_add_string (b, "candidate", candidate);
  json_builder_set_member_name (b, "reasons");
  json_builder_begin_array (b);
  for (guint i = 0; i < reasons->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (reasons, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
}

JsonNode *
procura_diff_to_json (const ProcuraDiff *d)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "procura_diff");
  json_builder_add_int_value (b, 1);
  json_builder_set_member_name (b, "changed");
  json_builder_add_boolean_value (b, !procura_diff_is_empty (d));

  json_builder_set_member_name (b, "old");
  json_builder_begin_object (b);
  procura_json_add_string (b, "title", d->old_title);
  procura_json_add_string (b, "modified", d->old_modified);
  procura_json_add_string (b, "target", d->old_target);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "new");
  json_builder_begin_object (b);
  procura_json_add_string (b, "title", d->new_title);
  procura_json_add_string (b, "modified", d->new_modified);
  procura_json_add_string (b, "target", d->new_target);
  json_builder_end_object (b);

  fields_json (b, "project", d->project);
  fields_json (b, "brief", d->brief);
  fields_json (b, "assumptions", d->assumptions);
  fields_json (b, "decision", d->decision);
  items_json (b, "candidates", d->candidates, FALSE, FALSE);
  items_json (b, "quotes", d->quotes, TRUE, FALSE);
  items_json (b, "runs", d->runs, FALSE, TRUE);

  json_builder_set_member_name (b, "consequences");
  json_builder_begin_array (b);
  for (guint i = 0; i < d->outcomes->len; i++)
    {
      const ProcuraDiffOutcome *o = g_ptr_array_index (d->outcomes, i);

      json_builder_begin_object (b);
      procura_json_add_string (b, "candidate", o->name);
      json_builder_set_member_name (b, "derived");
      json_builder_add_boolean_value (b, o->derived);
      json_builder_set_member_name (b, "in_old");
      json_builder_add_boolean_value (b, o->in_old);
      json_builder_set_member_name (b, "in_new");
      json_builder_add_boolean_value (b, o->in_new);
      json_builder_set_member_name (b, "changed");
      json_builder_add_boolean_value (b, o->changed);
      procura_json_add_number (b, "old_capacity_rps", o->old_capacity);
      procura_json_add_number (b, "new_capacity_rps", o->new_capacity);
      procura_json_add_string (b, "old_capacity_status", o->old_capacity_status);
      procura_json_add_string (b, "new_capacity_status", o->new_capacity_status);
      procura_json_add_number (b, "old_cost_per_accepted", o->old_cost);
      procura_json_add_number (b, "new_cost_per_accepted", o->new_cost);
      rank_json (b, "old_rank", o->old_rank);
      rank_json (b, "new_rank", o->new_rank);
      procura_json_add_string (b, "old_capacity_text", o->old_capacity_text);
      procura_json_add_string (b, "new_capacity_text", o->new_capacity_text);
      procura_json_add_string (b, "old_cost_text", o->old_cost_text);
      procura_json_add_string (b, "new_cost_text", o->new_cost_text);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "recommendation");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "changed");
  json_builder_add_boolean_value (b, d->recommendation_changed);
  side_json (b, "old", d->old_choice, d->old_recommended, d->old_reasons);
  side_json (b, "new", d->new_choice, d->new_recommended, d->new_reasons);
  json_builder_end_object (b);

  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* ------------------------------------------------------------------------- */
/* Text                                                                       */

static void
fields_text (GString    *s,
             const char *indent,
             GPtrArray  *fields)
{
  for (guint i = 0; i < fields->len; i++)
    {
      const ProcuraDiffField *f = g_ptr_array_index (fields, i);
      g_string_append_printf (s, "%s%s: %s → %s\n", indent, f->column, f->old_text, f->new_text);
    }
}

static void
section_fields (GString    *s,
                const char *title,
                GPtrArray  *fields)
{
  if (fields->len == 0)
    return;
  g_string_append_printf (s, "%s\n", title);
  fields_text (s, "  ", fields);
}

static const char *
sign_of (ProcuraDiffKind k)
{
  return k == PROCURA_DIFF_ADDED ? "+" : k == PROCURA_DIFF_REMOVED ? "-" : "~";
}

static char *
recommendation_text (const char *choice,
                     const char *candidate)
{
  return candidate != NULL ? g_strdup_printf ("%s (%s)", choice, candidate) : g_strdup (choice);
}

char *
procura_diff_to_text (const ProcuraDiff *d)
{
  GString *s = g_string_new (NULL);
  g_autofree char *old_rec = recommendation_text (d->old_choice, d->old_recommended);
  g_autofree char *new_rec = recommendation_text (d->new_choice, d->new_recommended);

  g_string_append_printf (s, "Changes from “%s” (modified %s) to “%s” (modified %s)\n\n",
                          d->old_title ? d->old_title : "untitled", d->old_modified ? d->old_modified : "—",
                          d->new_title ? d->new_title : "untitled", d->new_modified ? d->new_modified : "—");
  if (procura_diff_is_empty (d))
    {
      g_string_append (s, "no changes\n");
      return g_string_free (s, FALSE);
    }

  section_fields (s, "Project", d->project);
  section_fields (s, "Brief", d->brief);
  section_fields (s, "Assumptions", d->assumptions);
  section_fields (s, "Decision", d->decision);
  if (d->candidates->len > 0)
    {
      g_string_append (s, "Candidates\n");
      for (guint i = 0; i < d->candidates->len; i++)
        {
          const ProcuraDiffItem *it = g_ptr_array_index (d->candidates, i);
          g_string_append_printf (s, "  %s %s (%s)\n", sign_of (it->kind), it->name, procura_diff_kind_name (it->kind));
          fields_text (s, "      ", it->fields);
        }
    }
  if (d->quotes->len > 0)
    {
      g_string_append (s, "Quotes\n");
      for (guint i = 0; i < d->quotes->len; i++)
        {
          const ProcuraDiffItem *it = g_ptr_array_index (d->quotes, i);
          g_string_append_printf (s, "  %s %s (%s, seen %s)\n", sign_of (it->kind), it->name,
                                  procura_diff_kind_name (it->kind), it->date ? it->date : "—");
          fields_text (s, "      ", it->fields);
        }
    }
  if (d->runs->len > 0)
    {
      g_string_append (s, "Runs\n");
      for (guint i = 0; i < d->runs->len; i++)
        {
          const ProcuraDiffItem *it = g_ptr_array_index (d->runs, i);
          g_string_append_printf (s, "  %s %s (%s; %s; from %s)\n", sign_of (it->kind), it->name,
                                  procura_diff_kind_name (it->kind),
                                  it->candidate ? it->candidate : "unassigned",
                                  it->file_name ? it->file_name : "no file");
          fields_text (s, "      ", it->fields);
        }
    }

  g_string_append (s, "\nConsequences");
  if (g_strcmp0 (d->old_target, d->new_target) != 0)
    g_string_append_printf (s, " (target %s → %s)", d->old_target, d->new_target);
  else
    g_string_append_printf (s, " (target %s)", d->new_target);
  g_string_append (s, "\n");
  if (procura_diff_n_changed_outcomes (d) == 0)
    g_string_append (s, "  capacity, cost per accepted output and rank unchanged for every candidate\n");
  for (guint i = 0; i < d->outcomes->len; i++)
    {
      const ProcuraDiffOutcome *o = g_ptr_array_index (d->outcomes, i);
      g_autofree char *old_rank = o->old_rank > 0 ? g_strdup_printf ("%d", o->old_rank) : g_strdup ("—");
      g_autofree char *new_rank = o->new_rank > 0 ? g_strdup_printf ("%d", o->new_rank) : g_strdup ("—");

      if (!o->changed)
        continue;
      g_string_append_printf (s, "  %s%s\n", o->name,
                              !o->in_old ? " (new)" : !o->in_new ? " (gone)" : "");
      g_string_append_printf (s, "    capacity at target: %s → %s\n", o->old_capacity_text, o->new_capacity_text);
      g_string_append_printf (s, "    cost per accepted output: %s → %s\n", o->old_cost_text, o->new_cost_text);
      g_string_append_printf (s, "    rank: %s → %s\n", old_rank, new_rank);
    }
  if (d->recommendation_changed)
    g_string_append_printf (s, "\nRecommendation: %s → %s\n", old_rec, new_rec);
  else
    g_string_append_printf (s, "\nRecommendation unchanged: %s\n", new_rec);
  return g_string_free (s, FALSE);
}
