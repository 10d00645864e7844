/* test-diff.c: procura_diff_projects() on in-memory projects: quotes with their dates,
 * candidates added and removed, assumptions, and nothing for an identical copy
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-demo.h"
#include "procura-diff.h"
#include "procura-fields.h"
#include "procura-units.h"

static const ProcuraDiffItem *
only_item (GPtrArray       *items,
           ProcuraDiffKind  kind)
{
  const ProcuraDiffItem *found = NULL;

  for (guint i = 0; i < items->len; i++)
    {
      const ProcuraDiffItem *it = g_ptr_array_index (items, i);
      if (it->kind == kind)
        {
          g_assert_null (found);
          found = it;
        }
    }
  g_assert_nonnull (found);
  return found;
}

static void
test_identical (void)
{
  g_autoptr (ProcuraProject) a = procura_demo_project_new ();
  g_autoptr (ProcuraProject) b = procura_demo_project_new ();
  g_autoptr (ProcuraDiff) d = NULL;
  g_autofree char *text = NULL;

  /* the time stamps differ, and are not compared */
  g_free (b->modified);
  b->modified = g_strdup ("2099-01-01T00:00:00Z");
  d = procura_diff_projects (a, b);
  g_assert_true (procura_diff_is_empty (d));
  g_assert_cmpuint (procura_diff_n_changed_outcomes (d), ==, 0);
  g_assert_cmpuint (d->outcomes->len, >, 0);
  text = procura_diff_to_text (d);
  g_assert_true (g_str_has_suffix (text, "\nno changes\n"));
}

static void
test_quotes_candidates_assumptions (void)
{
  g_autoptr (ProcuraProject) a = procura_demo_project_new ();
  g_autoptr (ProcuraProject) b = procura_demo_project_new ();
  g_autoptr (ProcuraDiff) d = NULL;
  ProcuraQuote *q = g_ptr_array_index (b->quotes, 0);
  ProcuraQuote *added = procura_quote_copy (q);
  ProcuraCandidate *extra = procura_candidate_copy (g_ptr_array_index (b->candidates, 0));
  double old_price = q->price_per_hour;
  g_autofree char *old_date = g_strdup (q->seen_date);
  g_autofree char *old_money = NULL, *new_money = NULL;
  const ProcuraDiffItem *it;
  const ProcuraDiffField *f;

  /* a newer price for the first quote */
  q->price_per_hour = old_price * 1.1;
  g_free (q->seen_date);
  q->seen_date = g_strdup ("2099-01-02");
  /* another region: a new quote */
  g_free (added->region);
  added->region = g_strdup ("test-region-9");
  added->id = 9999;
  g_ptr_array_add (b->quotes, added);
  /* a new candidate */
  g_free (extra->name);
  extra->name = g_strdup ("Test candidate");
  extra->id = 9999;
  g_ptr_array_add (b->candidates, extra);
  /* an assumption */
  b->assumptions.acceptance_rate = 0.5;

  d = procura_diff_projects (a, b);
  g_assert_false (procura_diff_is_empty (d));
  g_assert_cmpuint (d->brief->len, ==, 0);
  g_assert_cmpuint (d->runs->len, ==, 0);

  g_assert_cmpuint (d->assumptions->len, ==, 1);
  f = g_ptr_array_index (d->assumptions, 0);
  g_assert_cmpstr (f->column, ==, "acceptance_rate");
  g_assert_true (f->numeric);
  g_assert_cmpfloat (f->old_number, ==, a->assumptions.acceptance_rate);
  g_assert_cmpfloat (f->new_number, ==, 0.5);

  g_assert_cmpuint (d->quotes->len, ==, 2);
  it = only_item (d->quotes, PROCURA_DIFF_CHANGED);
  g_assert_cmpstr (it->date, ==, "2099-01-02");
  g_assert_cmpuint (it->fields->len, ==, 2);
  f = g_ptr_array_index (it->fields, 0);
  g_assert_cmpstr (f->column, ==, "price_per_hour");
  old_money = procura_units_money (old_price, q->currency);
  new_money = procura_units_money (old_price * 1.1, q->currency);
  g_assert_cmpstr (f->old_text, ==, old_money);
  g_assert_cmpstr (f->new_text, ==, new_money);
  f = g_ptr_array_index (it->fields, 1);
  g_assert_cmpstr (f->column, ==, "seen_date");
  g_assert_cmpstr (f->old_string, ==, old_date);
  g_assert_cmpstr (f->new_string, ==, "2099-01-02");
  it = only_item (d->quotes, PROCURA_DIFF_ADDED);
  g_assert_nonnull (strstr (it->name, "test-region-9"));
  g_assert_cmpuint (it->fields->len, ==, 0);

  g_assert_cmpuint (d->candidates->len, ==, 1);
  it = only_item (d->candidates, PROCURA_DIFF_ADDED);
  g_assert_cmpstr (it->name, ==, "Test candidate");

  /* the other way round: removed */
  {
    g_autoptr (ProcuraDiff) back = procura_diff_projects (b, a);
    it = only_item (back->candidates, PROCURA_DIFF_REMOVED);
    g_assert_cmpstr (it->name, ==, "Test candidate");
    it = only_item (back->quotes, PROCURA_DIFF_REMOVED);
    g_assert_nonnull (strstr (it->name, "test-region-9"));
  }

  /* a lower acceptance rate costs more per accepted output, for every costed candidate */
  for (guint i = 0; i < d->outcomes->len; i++)
    {
      const ProcuraDiffOutcome *o = g_ptr_array_index (d->outcomes, i);
      if (o->in_old && o->in_new && !isnan (o->old_cost) && !isnan (o->new_cost))
        {
          g_assert_true (o->changed);
          g_assert_cmpfloat (o->new_cost, >, o->old_cost);
        }
    }
}

/* Finds the change of @column in @fields, or fails. */
static const ProcuraDiffField *
field_of (GPtrArray  *fields,
          const char *column)
{
  for (guint i = 0; i < fields->len; i++)
    {
      const ProcuraDiffField *f = g_ptr_array_index (fields, i);
      if (g_str_equal (f->column, column))
        return f;
    }
  g_error ("no change of %s in the diff", column);
  return NULL;
}

/* Every number an analyst may set (procura-fields.h) is compared, with its unit: a
 * change to every numeric field of the brief and of a candidate shows up, each once,
 * under its column. */
static void
test_every_settable_number (void)
{
  g_autoptr (ProcuraProject) a = procura_demo_project_new ();
  g_autoptr (ProcuraProject) b = procura_demo_project_new ();
  g_autoptr (ProcuraDiff) d = NULL;
  GPtrArray *candidate_fields;
  gsize n_fields;
  const ProcuraField *fields = procura_fields (&n_fields);
  guint brief_numbers = 0, candidate_numbers = 0;

  for (gsize i = 0; i < n_fields; i++)
    {
      const ProcuraField *field = &fields[i];
      gpointer record;
      double *v;

      if (field->type != PROCURA_FIELD_NUMBER
          || (field->table != PROCURA_FIELD_TABLE_BRIEF && field->table != PROCURA_FIELD_TABLE_CANDIDATE))
        continue;
      record = procura_field_record (b, field->table,
                                     field->table == PROCURA_FIELD_TABLE_CANDIDATE
                                     ? g_ptr_array_index (b->candidates, 0) : NULL);
      v = (double *) ((guint8 *) record + field->offset);
      *v = isnan (*v) ? 7 : *v + 7;
      if (field->table == PROCURA_FIELD_TABLE_BRIEF)
        brief_numbers++;
      else
        candidate_numbers++;
    }
  d = procura_diff_projects (a, b);
  g_assert_cmpuint (d->brief->len, ==, brief_numbers);
  candidate_fields = only_item (d->candidates, PROCURA_DIFF_CHANGED)->fields;
  g_assert_cmpuint (candidate_fields->len, ==, candidate_numbers);
  for (gsize i = 0; i < n_fields; i++)
    {
      const ProcuraField *field = &fields[i];
      const ProcuraDiffField *f;

      if (field->type != PROCURA_FIELD_NUMBER
          || (field->table != PROCURA_FIELD_TABLE_BRIEF && field->table != PROCURA_FIELD_TABLE_CANDIDATE))
        continue;
      f = field_of (field->table == PROCURA_FIELD_TABLE_BRIEF ? d->brief : candidate_fields, field->column);
      g_assert_true (f->numeric);
      /* money in the project's currency */
      if (procura_field_unit (field) == PROCURA_FIELD_UNIT_MONEY)
        {
          g_autofree char *expected = procura_units_money (f->new_number, b->assumptions.currency);
          g_assert_cmpstr (f->new_text, ==, expected);
        }
    }
  /* among them those the diff's own column lists used to leave out */
  field_of (d->brief, "input_tokens_mean");
  field_of (candidate_fields, "hosting_per_gpu_month");
  g_assert_cmpint (procura_field_unit (procura_field_lookup (PROCURA_FIELD_TABLE_BRIEF, "slo_threshold_ms")), ==,
                   PROCURA_FIELD_UNIT_MS);
  g_assert_cmpint (procura_field_unit (procura_field_lookup (PROCURA_FIELD_TABLE_ASSUMPTIONS, "acceptance_rate")),
                   ==, PROCURA_FIELD_UNIT_NONE);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/diff/identical", test_identical);
  g_test_add_func ("/analysis/diff/quotes-candidates-assumptions", test_quotes_candidates_assumptions);
  g_test_add_func ("/analysis/diff/every-settable-number", test_every_settable_number);
  return g_test_run ();
}
