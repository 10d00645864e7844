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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/diff/identical", test_identical);
  g_test_add_func ("/analysis/diff/quotes-candidates-assumptions", test_quotes_candidates_assumptions);
  return g_test_run ();
}
