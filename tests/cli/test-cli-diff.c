/* test-cli-diff.c: `procura diff OLD NEW [--json]` and `procura report --since OLD`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The demo project against a copy with three changes made through the store: a
 * candidate's price per GPU-hour, the brief's latency threshold and one more benchmark
 * run (tests/fixtures/diff/vllm-l40s-rate-2.json imported into a candidate). The diff
 * must name exactly those, and its consequences must be what the analysis gives on
 * each file.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "procura-analysis.h"
#include "procura-demo.h"
#include "procura-diff.h"
#include "procura-import.h"
#include "procura-store.h"
#include "procura-test-util.h"
#include "procura-units.h"

typedef struct {
  char   *dir;
  char   *old_path;
  char   *new_path;
  char   *same_path;
  char   *priced;       /* the candidate whose price changed */
  double  old_price, new_price;
  double  old_threshold, new_threshold;
  char   *run_into;     /* the candidate that got the run */
  char   *run_label;
  char   *run_sha256;
} Fixture;

static void
copy_file (const char *from,
           const char *to)
{
  g_autoptr (GFile) a = g_file_new_for_path (from);
  g_autoptr (GFile) b = g_file_new_for_path (to);
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_copy (a, b, G_FILE_COPY_NONE, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (ProcuraProject) p = NULL;
  g_autoptr (ProcuraBrief) brief = NULL;
  g_autoptr (ProcuraCandidate) c = NULL;
  g_autoptr (ProcuraImportResult) result = NULL;
  g_autofree char *fixture = procura_test_fixture ("diff/vllm-l40s-rate-2.json");
  const ProcuraCandidate *target = NULL;

  f->dir = procura_test_mkdtemp ();
  f->old_path = g_build_filename (f->dir, "review-1.procura", NULL);
  f->new_path = g_build_filename (f->dir, "review-2.procura", NULL);
  f->same_path = g_build_filename (f->dir, "same.procura", NULL);
  g_assert_true (procura_demo_write (f->old_path, &error));
  g_assert_no_error (error);
  copy_file (f->old_path, f->new_path);
  copy_file (f->old_path, f->same_path);

  store = procura_store_open (f->new_path, PROCURA_STORE_OPEN_WRITABLE, &error);
  g_assert_no_error (error);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);

  /* 1. the price of the first GPU candidate: 40 % off */
  c = procura_candidate_copy (g_ptr_array_index (p->candidates, 0));
  g_assert_cmpint (c->kind, ==, PROCURA_CANDIDATE_GPU);
  g_assert_true (procura_is_set (c->price_per_gpu_hour));
  f->priced = g_strdup (c->name);
  f->old_price = c->price_per_gpu_hour;
  f->new_price = c->price_per_gpu_hour * 0.6;
  c->price_per_gpu_hour = f->new_price;
  g_assert_true (procura_store_update_candidate (store, c, &error));
  g_assert_no_error (error);

  /* 2. a tighter latency target */
  brief = procura_brief_copy (p->brief);
  f->old_threshold = brief->slo_threshold_ms;
  f->new_threshold = brief->slo_threshold_ms * 0.75;
  brief->slo_threshold_ms = f->new_threshold;
  g_assert_true (procura_store_save_brief (store, brief, &error));
  g_assert_no_error (error);

  /* 3. one more run, into the last GPU candidate */
  for (guint i = 0; i < p->candidates->len; i++)
    {
      const ProcuraCandidate *k = g_ptr_array_index (p->candidates, i);
      if (k->kind == PROCURA_CANDIDATE_GPU)
        target = k;
    }
  g_assert_nonnull (target);
  g_assert_cmpstr (target->name, !=, f->priced);
  f->run_into = g_strdup (target->name);
  result = procura_import_file (fixture, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->runs->len, ==, 1);
  f->run_label = g_strdup (((ProcuraRun *) g_ptr_array_index (result->runs, 0))->label);
  f->run_sha256 = g_strdup (result->provenance->sha256);
  g_assert_true (procura_store_import (store, result, target->id, &error));
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  procura_test_rmtree (f->dir);
  g_free (f->dir);
  g_free (f->old_path);
  g_free (f->new_path);
  g_free (f->same_path);
  g_free (f->priced);
  g_free (f->run_into);
  g_free (f->run_label);
  g_free (f->run_sha256);
}

static ProcuraProject *
load (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  ProcuraProject *p;

  g_assert_no_error (error);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, &error);
  g_assert_no_error (error);
  return p;
}

static const ProcuraCandidateAnalysis *
by_name (const ProcuraAnalysis *a,
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

static double
cost_of (const ProcuraCandidateAnalysis *ca)
{
  return ca != NULL && ca->cost != NULL ? ca->cost->cost_per_accepted : NAN;
}

static double
capacity_of (const ProcuraCandidateAnalysis *ca)
{
  return ca != NULL ? ca->capacity_at_slo : NAN;
}

static gboolean
differ (double a,
        double b)
{
  if (isnan (a) || isnan (b))
    return isnan (a) != isnan (b);
  return fabs (a - b) > 1e-9 * MAX (fabs (a), fabs (b));
}

/* A JSON number member, NAN for null. */
static double
num (JsonObject *o,
     const char *member)
{
  g_assert_true (json_object_has_member (o, member));
  if (json_object_get_null_member (o, member))
    return NAN;
  return json_object_get_double_member (o, member);
}

static void
assert_same (double expected,
             double got)
{
  if (isnan (expected))
    g_assert_true (isnan (got));
  else
    g_assert_cmpfloat_with_epsilon (got, expected, 1e-9 * MAX (1, fabs (expected)));
}

static JsonObject *
run_json (const char * const *argv,
          JsonParser         *parser)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* The changed candidates, as the analyses of the two files give them. */
static GPtrArray *
expected_changed (const ProcuraAnalysis *oa,
                  const ProcuraAnalysis *na)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const ProcuraAnalysis *sides[] = { oa, na };

  for (int s = 0; s < 2; s++)
    for (guint i = 0; i < sides[s]->candidates->len; i++)
      {
        const ProcuraCandidateAnalysis *ca = g_ptr_array_index (sides[s]->candidates, i);
        const ProcuraCandidateAnalysis *o = by_name (oa, ca->name), *n = by_name (na, ca->name);
        gboolean changed;

        if (s == 1 && o != NULL)
          continue;   /* already seen on the old side */
        changed = o == NULL || n == NULL || differ (capacity_of (o), capacity_of (n))
                  || differ (cost_of (o), cost_of (n)) || o->rank != n->rank;
        if (changed)
          g_ptr_array_add (names, g_strdup (ca->name));
      }
  return names;
}

static void
test_json (Fixture       *f,
           gconstpointer  data)
{
  const char *argv[] = { "diff", f->old_path, f->new_path, "--json", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (ProcuraProject) op = load (f->old_path);
  g_autoptr (ProcuraProject) np = load (f->new_path);
  g_autoptr (ProcuraAnalysis) oa = procura_analysis_run (op, NULL);
  g_autoptr (ProcuraAnalysis) na = procura_analysis_run (np, NULL);
  g_autoptr (GPtrArray) changed = expected_changed (oa, na);
  JsonObject *root = run_json (argv, parser);
  JsonArray *arr;
  JsonObject *o, *field, *rec;
  guint n_changed = 0;

  g_assert_cmpint (json_object_get_int_member (root, "procura_diff"), ==, 1);
  g_assert_true (json_object_get_boolean_member (root, "changed"));

  /* exactly the three inputs */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "project")), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "assumptions")), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "decision")), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "quotes")), ==, 0);

  arr = json_object_get_array_member (root, "brief");
  g_assert_cmpuint (json_array_get_length (arr), ==, 1);
  field = json_array_get_object_element (arr, 0);
  g_assert_cmpstr (json_object_get_string_member (field, "column"), ==, "slo_threshold_ms");
  assert_same (f->old_threshold, num (field, "old"));
  assert_same (f->new_threshold, num (field, "new"));
  {
    g_autofree char *t = g_strdup_printf ("%g ms", f->new_threshold);
    g_assert_cmpstr (json_object_get_string_member (field, "new_text"), ==, t);
  }

  arr = json_object_get_array_member (root, "candidates");
  g_assert_cmpuint (json_array_get_length (arr), ==, 1);
  o = json_array_get_object_element (arr, 0);
  g_assert_cmpstr (json_object_get_string_member (o, "change"), ==, "changed");
  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, f->priced);
  arr = json_object_get_array_member (o, "fields");
  g_assert_cmpuint (json_array_get_length (arr), ==, 1);
  field = json_array_get_object_element (arr, 0);
  g_assert_cmpstr (json_object_get_string_member (field, "column"), ==, "price_per_gpu_hour");
  assert_same (f->old_price, num (field, "old"));
  assert_same (f->new_price, num (field, "new"));
  {
    g_autofree char *t = procura_units_money (f->new_price, op->assumptions.currency);
    g_assert_cmpstr (json_object_get_string_member (field, "new_text"), ==, t);
  }

  arr = json_object_get_array_member (root, "runs");
  g_assert_cmpuint (json_array_get_length (arr), ==, 1);
  o = json_array_get_object_element (arr, 0);
  g_assert_cmpstr (json_object_get_string_member (o, "change"), ==, "added");
  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, f->run_label);
  g_assert_cmpstr (json_object_get_string_member (o, "candidate"), ==, f->run_into);
  g_assert_cmpstr (json_object_get_string_member (o, "file_name"), ==, "vllm-l40s-rate-2.json");
  g_assert_cmpstr (json_object_get_string_member (o, "sha256"), ==, f->run_sha256);

  /* the consequences are the two analyses' figures, and "changed" exactly where they differ */
  g_assert_cmpuint (changed->len, >, 0);
  arr = json_object_get_array_member (root, "consequences");
  for (guint i = 0; i < json_array_get_length (arr); i++)
    {
      const ProcuraCandidateAnalysis *oc, *nc;
      const char *name;

      o = json_array_get_object_element (arr, i);
      name = json_object_get_string_member (o, "candidate");
      oc = by_name (oa, name);
      nc = by_name (na, name);
      g_assert_true (oc != NULL || nc != NULL);
      g_assert_cmpint (json_object_get_boolean_member (o, "in_old"), ==, oc != NULL);
      g_assert_cmpint (json_object_get_boolean_member (o, "in_new"), ==, nc != NULL);
      assert_same (capacity_of (oc), num (o, "old_capacity_rps"));
      assert_same (capacity_of (nc), num (o, "new_capacity_rps"));
      assert_same (cost_of (oc), num (o, "old_cost_per_accepted"));
      assert_same (cost_of (nc), num (o, "new_cost_per_accepted"));
      assert_same (oc != NULL && oc->rank > 0 ? oc->rank : NAN, num (o, "old_rank"));
      assert_same (nc != NULL && nc->rank > 0 ? nc->rank : NAN, num (o, "new_rank"));
      g_assert_cmpint (json_object_get_boolean_member (o, "changed"), ==,
                       g_ptr_array_find_with_equal_func (changed, name, g_str_equal, NULL));
      if (json_object_get_boolean_member (o, "changed"))
        n_changed++;
    }
  g_assert_cmpuint (n_changed, ==, changed->len);
  /* the cheaper candidate is cheaper per accepted output at the new target, all else equal */
  g_assert_true (g_ptr_array_find_with_equal_func (changed, f->priced, g_str_equal, NULL));

  rec = json_object_get_object_member (root, "recommendation");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (rec, "old"), "choice"), ==,
                   procura_choice_name (oa->recommendation->choice));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (rec, "new"), "choice"), ==,
                   procura_choice_name (na->recommendation->choice));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (rec, "old"), "candidate"), ==,
                   oa->recommendation->candidate_name);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (rec, "new"), "candidate"), ==,
                   na->recommendation->candidate_name);
  g_assert_cmpint (json_object_get_boolean_member (rec, "changed"), ==,
                   oa->recommendation->choice != na->recommendation->choice
                   || g_strcmp0 (oa->recommendation->candidate_name, na->recommendation->candidate_name) != 0);
}

static void
test_text (Fixture       *f,
           gconstpointer  data)
{
  const char *argv[] = { "diff", f->old_path, f->new_path, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (ProcuraProject) op = load (f->old_path);
  g_autoptr (ProcuraProject) np = load (f->new_path);
  g_autoptr (ProcuraAnalysis) oa = procura_analysis_run (op, NULL);
  g_autoptr (ProcuraAnalysis) na = procura_analysis_run (np, NULL);
  g_autoptr (GPtrArray) changed = expected_changed (oa, na);
  g_autofree char *price_old = procura_units_money (f->old_price, op->assumptions.currency);
  g_autofree char *price_new = procura_units_money (f->new_price, op->assumptions.currency);
  g_autofree char *price = g_strdup_printf ("price_per_gpu_hour: %s → %s", price_old, price_new);
  g_autofree char *slo = g_strdup_printf ("slo_threshold_ms: %g ms → %g ms", f->old_threshold, f->new_threshold);
  g_autofree char *run = g_strdup_printf ("+ %s (added; %s; from vllm-l40s-rate-2.json)", f->run_label, f->run_into);
  const char *consequences;

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, slo));
  g_assert_nonnull (strstr (out, price));
  g_assert_nonnull (strstr (out, run));
  g_assert_null (strstr (out, "no changes"));
  g_assert_null (strstr (out, "\nQuotes\n"));
  g_assert_null (strstr (out, "\nAssumptions\n"));
  /* one changed candidate, one changed brief column, one run */
  g_assert_nonnull (strstr (out, "\nBrief\n  slo_threshold_ms:"));
  {
    /* the brief section and the candidate have one line each */
    const char *line = strchr (strstr (out, "\nBrief\n") + 7, '\n') + 1;
    g_assert_cmpint (line[0], !=, ' ');
    line = strstr (out, price);
    g_assert_nonnull (line);
    line = strchr (line, '\n') + 1;
    g_assert_false (g_str_has_prefix (line, "      "));
  }

  consequences = strstr (out, "\nConsequences");
  g_assert_nonnull (consequences);
  for (guint i = 0; i < na->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (na->candidates, i);
      g_autofree char *line = g_strdup_printf ("\n  %s\n", ca->name);
      g_autofree char *line_new = g_strdup_printf ("\n  %s (new)\n", ca->name);
      gboolean listed;

      if (strstr (consequences, line) == NULL && strstr (consequences, line_new) != NULL)
        {
          g_free (line);
          line = g_steal_pointer (&line_new);
        }
      listed = strstr (consequences, line) != NULL;

      g_assert_cmpint (listed, ==, g_ptr_array_find_with_equal_func (changed, ca->name, g_str_equal, NULL));
      if (listed && ca->cost != NULL)
        {
          g_autofree char *cost = procura_units_cost_per_output (ca->cost->cost_per_accepted, na->currency);
          g_autofree char *arrow = g_strdup_printf ("→ %s\n", cost);
          g_assert_nonnull (strstr (strstr (consequences, line), arrow));
        }
    }
  if (oa->recommendation->choice != na->recommendation->choice
      || g_strcmp0 (oa->recommendation->candidate_name, na->recommendation->candidate_name) != 0)
    g_assert_nonnull (strstr (out, "\nRecommendation: "));
  else
    g_assert_nonnull (strstr (out, "\nRecommendation unchanged: "));
}

static void
test_no_changes (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *argv[] = { "diff", f->old_path, f->same_path, NULL };
  const char *jargv[] = { "diff", f->old_path, f->same_path, "--json", NULL };
  static const char *lists[] = { "project", "brief", "assumptions", "decision", "candidates",
                                 "quotes", "runs" };
  JsonObject *root;
  JsonArray *outcomes;

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "\nno changes\n"));

  root = run_json (jargv, parser);
  g_assert_false (json_object_get_boolean_member (root, "changed"));
  for (gsize i = 0; i < G_N_ELEMENTS (lists); i++)
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, lists[i])), ==, 0);
  outcomes = json_object_get_array_member (root, "consequences");
  g_assert_cmpuint (json_array_get_length (outcomes), >, 0);
  for (guint i = 0; i < json_array_get_length (outcomes); i++)
    g_assert_false (json_object_get_boolean_member (json_array_get_object_element (outcomes, i), "changed"));
  g_assert_false (json_object_get_boolean_member (json_object_get_object_member (root, "recommendation"),
                                                  "changed"));
}

/* Moving a run to another candidate is a change of that run, not a removal and an addition */
static void
test_run_identity (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraProject) op = load (f->old_path);
  g_autoptr (ProcuraProject) np = NULL;
  g_autoptr (ProcuraDiff) diff = NULL;
  const ProcuraRun *moved = g_ptr_array_index (op->runs, 0);
  const ProcuraDiffItem *it;

  {
    g_autoptr (ProcuraStore) store = procura_store_open (f->same_path, PROCURA_STORE_OPEN_WRITABLE, &error);
    g_assert_no_error (error);
    g_assert_true (procura_store_assign_run (store, moved->id, 0, &error));
    g_assert_no_error (error);
  }
  np = load (f->same_path);
  diff = procura_diff_projects (op, np);
  g_assert_cmpuint (diff->runs->len, ==, 1);
  it = g_ptr_array_index (diff->runs, 0);
  g_assert_cmpint (it->kind, ==, PROCURA_DIFF_CHANGED);
  g_assert_cmpstr (it->name, ==, moved->label);
  g_assert_cmpuint (it->fields->len, ==, 1);
  g_assert_cmpstr (((ProcuraDiffField *) g_ptr_array_index (it->fields, 0))->column, ==, "candidate_id");
  g_assert_cmpstr (((ProcuraDiffField *) g_ptr_array_index (it->fields, 0))->new_text, ==, "unassigned");
  g_assert_cmpuint (diff->candidates->len, ==, 0);
  g_assert_false (procura_diff_is_empty (diff));
}

static char *
read_file (const char *path)
{
  char *text = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

static void
test_report_since (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *md = g_build_filename (f->dir, "record.md", NULL);
  g_autofree char *plain = g_build_filename (f->dir, "plain.md", NULL);
  g_autofree char *same = g_build_filename (f->dir, "same.md", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *text = NULL, *plain_text = NULL, *same_text = NULL;
  g_autoptr (ProcuraProject) op = load (f->old_path);
  g_autofree char *heading = NULL;
  g_autofree char *slo = g_strdup_printf ("| slo_threshold_ms | %g ms | %g ms |", f->old_threshold, f->new_threshold);
  char date[11];

  {
    const char *argv[] = { "report", f->new_path, "--output", md, "--since", f->old_path, NULL };
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  }
  g_strlcpy (date, op->modified, sizeof date);
  heading = g_strdup_printf ("# Changes since “%s” (review-1.procura, %s)", op->title, date);
  text = read_file (md);
  g_assert_nonnull (strstr (text, heading));
  g_assert_nonnull (strstr (text, slo));
  g_assert_nonnull (strstr (text, "| price_per_gpu_hour |"));
  g_assert_nonnull (strstr (text, f->priced));
  g_assert_nonnull (strstr (text, f->run_label));
  g_assert_nonnull (strstr (text, "## Consequences"));
  g_assert_true (strstr (text, "Recommendation: ") != NULL || strstr (text, "Recommendation unchanged: ") != NULL);
  /* before the brief: the first thing a reviewer reads */
  g_assert_true (strstr (text, heading) < strstr (text, "# Workload brief"));

  {
    const char *argv[] = { "report", f->new_path, "--output", plain, NULL };
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  }
  plain_text = read_file (plain);
  g_assert_null (strstr (plain_text, "Changes since"));

  {
    const char *argv[] = { "report", f->same_path, "--output", same, "--since", f->old_path, NULL };
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  }
  same_text = read_file (same);
  g_assert_nonnull (strstr (same_text, "Changes since"));
  g_assert_nonnull (strstr (same_text, "No changes"));
  g_assert_null (strstr (same_text, "## Consequences"));

  /* CSV: the changes beside the finance table */
  {
    g_autofree char *csv = g_build_filename (f->dir, "record.csv", NULL);
    g_autofree char *changes = g_build_filename (f->dir, "record-changes.csv", NULL);
    g_autofree char *changes_text = NULL;
    g_autofree char *row = g_strdup_printf ("Brief,—,changed,slo_threshold_ms,%g ms,%g ms",
                                            f->old_threshold, f->new_threshold);
    const char *argv[] = { "report", f->new_path, "--output", csv, "--since", f->old_path, NULL };

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
    changes_text = read_file (changes);
    g_assert_true (g_str_has_prefix (changes_text, "part,item,change,column,old,new"));
    g_assert_nonnull (strstr (changes_text, row));
    g_assert_nonnull (strstr (changes_text, "price_per_gpu_hour"));
  }
}

static void
test_errors (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *missing = g_build_filename (f->dir, "none.procura", NULL);
  g_autofree char *garbage = g_build_filename (f->dir, "garbage.procura", NULL);
  g_autofree char *md = g_build_filename (f->dir, "x.md", NULL);

  g_assert_true (g_file_set_contents (garbage, "not a database", -1, NULL));
  {
    const char *argv[] = { "diff", f->old_path, missing, NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, "none.procura"));
  }
  {
    const char *argv[] = { "diff", garbage, f->old_path, "--json", NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, "garbage.procura"));
    g_assert_cmpstr (out, ==, "");
  }
  {
    const char *argv[] = { "diff", f->old_path, NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 2);
  }
  {
    const char *argv[] = { "report", f->new_path, "--output", md, "--since", missing, NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, "--since"));
    g_assert_nonnull (strstr (err, "none.procura"));
    g_assert_false (g_file_test (md, G_FILE_TEST_EXISTS));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/cli/diff/json", Fixture, NULL, fixture_set_up, test_json, fixture_tear_down);
  g_test_add ("/cli/diff/text", Fixture, NULL, fixture_set_up, test_text, fixture_tear_down);
  g_test_add ("/cli/diff/no-changes", Fixture, NULL, fixture_set_up, test_no_changes, fixture_tear_down);
  g_test_add ("/cli/diff/run-identity", Fixture, NULL, fixture_set_up, test_run_identity, fixture_tear_down);
  g_test_add ("/cli/diff/report-since", Fixture, NULL, fixture_set_up, test_report_since, fixture_tear_down);
  g_test_add ("/cli/diff/errors", Fixture, NULL, fixture_set_up, test_errors, fixture_tear_down);
  return g_test_run ();
}
