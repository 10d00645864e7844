/* test-cli-set.c: `procura set`, `get`, `candidate add|remove`, `export` and `apply`
 * run as a program on real project files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "procura-decision-doc.h"
#include "procura-fields.h"
#include "procura-model.h"
#include "procura-store.h"
#include "procura-test-util.h"

typedef struct {
  char *dir;
  char *path;   /* the demo project */
} Fixture;

static int
run (char **out,
     char **err,
     ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;
  const char *a;

  va_start (ap, err);
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  return procura_test_run_cli ((const char * const *) args->pdata, out, err);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = procura_test_mkdtemp ();
  f->path = g_build_filename (f->dir, "demo.procura", NULL);
  g_assert_cmpint (run (NULL, NULL, "demo", f->path, NULL), ==, 0);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  procura_test_rmtree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static ProcuraProject *
load (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraStore) store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  ProcuraProject *p;

  g_assert_no_error (error);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  return p;
}

static GBytes *
file_bytes (const char *path)
{
  char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

/* A valid value for @field that differs from @current where the field allows it. */
static char *
valid_value (const ProcuraField *field,
             ProcuraProject     *p,
             const char         *current,
             gconstpointer       row)
{
  switch (field->type)
    {
    case PROCURA_FIELD_TEXT:
      return g_strdup_printf ("set %s · v2", field->column);
    case PROCURA_FIELD_CHOICE:
    case PROCURA_FIELD_ENUM:
      for (guint i = 0; field->choices[i] != NULL; i++)
        if (g_strcmp0 (field->choices[i], current) != 0)
          return g_strdup (field->choices[i]);
      g_assert_not_reached ();
    case PROCURA_FIELD_DATE:
      return g_strdup ("2025-02-28");
    case PROCURA_FIELD_CURRENCY:
      return g_strdup (g_strcmp0 (current, "EUR") == 0 ? "CHF" : "EUR");
    case PROCURA_FIELD_NUMBER:
      {
        double lo = isnan (field->min) ? 0 : field->min;
        double v = isnan (field->max) ? lo + 12.25 : (lo + field->max) / 2 + 0.125;
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        return g_strdup (g_ascii_dtostr (buf, sizeof buf, v));
      }
    case PROCURA_FIELD_INT:
      return g_strdup_printf ("%d", (int) (isnan (field->min) ? 0 : field->min) + 3);
    case PROCURA_FIELD_BOOL:
      return g_strdup (g_strcmp0 (current, "true") == 0 ? "false" : "true");
    case PROCURA_FIELD_CANDIDATE:
      {
        ProcuraCandidate *c = g_ptr_array_index (p->candidates, p->candidates->len - 1);

        if (row == c)
          c = g_ptr_array_index (p->candidates, 0);
        return g_strdup (c->name);
      }
    case PROCURA_FIELD_QUOTE:
      {
        ProcuraQuote *q = g_ptr_array_index (p->quotes, p->quotes->len - 1);

        return g_strdup_printf ("%" G_GINT64_FORMAT, q->id);
      }
    default:
      g_assert_not_reached ();
    }
}

static char *
key_for (ProcuraProject     *p,
         const ProcuraField *field,
         guint               row_index)
{
  const char *table = procura_field_table_name (field->table);

  if (procura_field_table_has_rows (field->table))
    {
      gpointer row = g_ptr_array_index (procura_field_table_rows (p, field->table), row_index);
      g_autofree char *name = procura_field_row_key_name (p, field->table, row);

      return g_strdup_printf ("%s.%s.%s", table, name, field->column);
    }
  return g_strdup_printf ("%s.%s", table, field->column);
}

/* Every settable field of every table: set, read back with get (text and JSON) and from
 * the file, then cleared with null where it may be. */
static void
test_every_field (Fixture       *f,
                  gconstpointer  data)
{
  gsize n;
  const ProcuraField *fields = procura_fields (&n);
  guint tables_seen = 0;

  for (gsize i = 0; i < n; i++)
    {
      const ProcuraField *field = &fields[i];
      /* the last row, so that renaming it does not change the other keys */
      g_autoptr (ProcuraProject) p = load (f->path);
      GPtrArray *rows = procura_field_table_rows (p, field->table);
      guint row_index = rows != NULL ? rows->len - 1 : 0;
      gpointer row = rows != NULL ? g_ptr_array_index (rows, row_index) : NULL;
      gpointer record = procura_field_record (p, field->table, row);
      gint64 row_id = rows != NULL ? procura_field_row_id (field->table, row) : 0;
      g_autofree char *key = key_for (p, field, row_index);
      g_autofree char *current = procura_field_format (field, p, record);
      g_autofree char *value = valid_value (field, p, current, row);
      g_autofree char *pair = g_strdup_printf ("%s=%s", key, value);
      g_autofree char *out = NULL, *err = NULL, *json = NULL;
      g_autoptr (ProcuraProject) after = NULL;
      g_autoptr (JsonParser) parser = json_parser_new ();
      gpointer after_record;
      g_autofree char *stored = NULL;
      g_autofree char *new_key = NULL;

      g_assert_nonnull (rows == NULL || rows->len > 0 ? record : NULL);
      if (i == 0 || fields[i - 1].table != field->table)
        tables_seen++;
      g_test_message ("%s", pair);
      g_assert_cmpint (run (NULL, &err, "set", f->path, pair, NULL), ==, 0);
      g_assert_cmpstr (err, ==, "");

      after = load (f->path);
      after_record = procura_field_record (after, field->table, NULL);
      if (rows != NULL)
        {
          GPtrArray *after_rows = procura_field_table_rows (after, field->table);

          after_record = NULL;
          for (guint r = 0; r < after_rows->len; r++)
            if (procura_field_row_id (field->table, g_ptr_array_index (after_rows, r)) == row_id)
              after_record = g_ptr_array_index (after_rows, r);
        }
      g_assert_nonnull (after_record);
      stored = procura_field_format (field, after, after_record);
      g_assert_cmpstr (stored, ==, value);

      /* get KEY prints the value alone; --json an object KEY → value */
      new_key = key_for (after, field, row_index);
      g_assert_cmpint (run (&out, NULL, "get", f->path, new_key, NULL), ==, 0);
      g_assert_cmpstr (g_strchomp (out), ==, value);
      g_assert_cmpint (run (&json, NULL, "get", f->path, new_key, "--json", NULL), ==, 0);
      g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
      g_assert_true (json_object_has_member (json_node_get_object (json_parser_get_root (parser)), new_key));

      if (!(field->flags & PROCURA_FIELD_REQUIRED))
        {
          /* by id: clearing a name column changes the row's name */
          g_autofree char *id_key = rows != NULL
            ? g_strdup_printf ("%s.%" G_GINT64_FORMAT ".%s", procura_field_table_name (field->table), row_id,
                               field->column)
            : g_strdup (new_key);
          g_autofree char *clear = g_strdup_printf ("%s=null", id_key);
          g_autofree char *text = NULL;

          g_assert_cmpint (run (NULL, NULL, "set", f->path, clear, NULL), ==, 0);
          g_assert_cmpint (run (&text, NULL, "get", f->path, id_key, NULL), ==, 0);
          g_assert_cmpstr (g_strchomp (text), ==, "null");
        }
    }
  g_assert_cmpuint (tables_seen, ==, PROCURA_FIELD_N_TABLES);
}

/* Refused keys and values: exit 1, the key named on stderr, the file unchanged. */
static void
test_refused (Fixture       *f,
              gconstpointer  data)
{
  static const struct { const char *pair; const char *says; } cases[] = {
    { "nosuch.title=x", "nosuch.title" },
    { "brief.nosuch=1", "brief.nosuch" },
    { "brief=1", "brief" },
    { "candidate.No such candidate.tp=2", "candidate.No such candidate.tp" },
    { "candidate.tp=2", "candidate.tp" },
    { "brief.slo_threshold_ms=-5", "brief.slo_threshold_ms: expected a number >= 0" },
    { "brief.slo_threshold_ms=fast", "brief.slo_threshold_ms" },
    { "brief.slo_percentile=101", "brief.slo_percentile: expected a number from 0 to 100" },
    { "brief.slo_metric=p99", "brief.slo_metric: expected one of ttft, tpot, itl, e2e" },
    { "brief.window_hours=inf", "brief.window_hours" },
    { "assumptions.acceptance_rate=0", "assumptions.acceptance_rate: expected a number > 0 and <= 1" },
    { "assumptions.failure_rate=1", "assumptions.failure_rate" },
    { "assumptions.currency=euro", "assumptions.currency: expected an ISO 4217" },
    { "decision.date=2026-02-30", "decision.date: expected a date YYYY-MM-DD" },
    { "decision.candidate_id=Nobody", "decision.candidate_id: expected the name or id of a candidate" },
    { "project.title=null", "project.title: expected a non-empty text" },
    { "project.illustrative=maybe", "project.illustrative: expected true or false" },
    { "candidate.Hosted API · Llama 3.1 70B.tp=-1", "candidate.Hosted API · Llama 3.1 70B.tp: expected an integer >= 0" },
    { "candidate.Hosted API · Llama 3.1 70B.tp=2.5", "candidate.Hosted API · Llama 3.1 70B.tp" },
    { "candidate.Hosted API · Llama 3.1 70B.kind=tpu", "kind: expected one of gpu, api, hybrid" },
    { "candidate.Hosted API · Llama 3.1 70B.name=", "name: expected a non-empty text" },
    { "candidate.Hosted API · Llama 3.1 70B.quote_id=999", "quote_id: expected the id of a quote" },
    { "candidate.Hosted API · Llama 3.1 70B.rate_limit_rpm=-1", "rate_limit_rpm: expected a number >= 0" },
    { "quote.1.support_pct=120", "quote.1.support_pct: expected a number from 0 to 100" },
    { "quote.1.gpu_count=100001", "quote.1.gpu_count" },
    { "quote.1.seen_date=yesterday", "quote.1.seen_date" },
    { "quote.1.pricing_model=cheap", "quote.1.pricing_model" },
  };
  g_autoptr (GBytes) before = file_bytes (f->path);
  g_autoptr (ProcuraProject) p = load (f->path);
  ProcuraChecklistItem *item = g_ptr_array_index (p->checklist, 0);
  ProcuraOpsTest *test = g_ptr_array_index (p->ops_tests, 0);
  g_autofree char *bad_answer = g_strdup_printf ("checklist.%" G_GINT64_FORMAT ".answer=maybe", item->id);
  g_autofree char *bad_result = g_strdup_printf ("ops_test.%" G_GINT64_FORMAT ".result=ok", test->id);
  g_autofree char *bad_recovery = g_strdup_printf ("ops_test.%" G_GINT64_FORMAT ".recovery_s=-1", test->id);
  const char *more[] = { bad_answer, bad_result, bad_recovery };

  for (gsize i = 0; i < G_N_ELEMENTS (cases) + G_N_ELEMENTS (more); i++)
    {
      const char *pair = i < G_N_ELEMENTS (cases) ? cases[i].pair : more[i - G_N_ELEMENTS (cases)];
      g_autofree char *key = g_strndup (pair, strcspn (pair, "="));
      const char *says = i < G_N_ELEMENTS (cases) ? cases[i].says : key;
      g_autofree char *err = NULL;
      g_autoptr (GBytes) now = NULL;

      g_test_message ("%s", pair);
      g_assert_cmpint (run (NULL, &err, "set", f->path, pair, NULL), ==, 1);
      g_assert_nonnull (strstr (err, says));
      g_assert_nonnull (strstr (err, key));
      now = file_bytes (f->path);
      g_assert_true (g_bytes_equal (before, now));
    }
}

/* Several pairs: all or none, also when the store refuses one at write time. */
static void
test_all_or_nothing (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr (GBytes) before = file_bytes (f->path);
  g_autoptr (ProcuraProject) p = load (f->path);
  ProcuraCandidate *first = g_ptr_array_index (p->candidates, 0);
  ProcuraCandidate *second = g_ptr_array_index (p->candidates, 1);
  g_autofree char *rename = g_strdup_printf ("candidate.%s.name=%s", second->name, first->name);
  g_autofree char *price = g_strdup_printf ("candidate.%s.price_per_gpu_hour=9.75", first->name);
  g_autofree char *err = NULL;
  g_autoptr (ProcuraProject) after = NULL;

  /* a bad value after good ones */
  g_assert_cmpint (run (NULL, &err, "set", f->path, "brief.slo_threshold_ms=650", price,
                        "assumptions.currency=EUR", "brief.slo_metric=fast", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "brief.slo_metric"));
  g_assert_true (g_bytes_equal (before, file_bytes (f->path)));

  /* every value valid, but the store refuses a duplicate name: the batch is rolled back */
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "set", f->path, "brief.slo_threshold_ms=650", price, rename, NULL), ==, 1);
  g_assert_nonnull (strstr (err, first->name));
  after = load (f->path);
  g_assert_cmpfloat (after->brief->slo_threshold_ms, ==, p->brief->slo_threshold_ms);
  g_assert_cmpfloat (((ProcuraCandidate *) g_ptr_array_index (after->candidates, 0))->price_per_gpu_hour, ==,
                     first->price_per_gpu_hour);
  g_assert_cmpstr (((ProcuraCandidate *) g_ptr_array_index (after->candidates, 1))->name, ==, second->name);

  /* and all pairs valid: all applied in one call */
  g_clear_pointer (&after, procura_project_free);
  g_assert_cmpint (run (NULL, NULL, "set", f->path, "brief.slo_threshold_ms=650", price,
                        "assumptions.currency=EUR", NULL), ==, 0);
  after = load (f->path);
  g_assert_cmpfloat (after->brief->slo_threshold_ms, ==, 650);
  g_assert_cmpfloat (((ProcuraCandidate *) g_ptr_array_index (after->candidates, 0))->price_per_gpu_hour, ==, 9.75);
  g_assert_cmpstr (after->assumptions.currency, ==, "EUR");
}

/* Names with dots, spaces and · resolve; ids too; `get` without a key lists every field
 * as KEY=VALUE lines that `set` takes back. */
static void
test_get_all (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *out = NULL, *json = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_auto (GStrv) lines = NULL;
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (ProcuraProject) p = NULL;
  gsize n;
  int status;

  g_assert_cmpint (run (NULL, NULL, "set", f->path, "candidate.Hosted API · Llama 3.1 70B.name=v1.2 API · x.y",
                        NULL), ==, 0);
  g_assert_cmpint (run (NULL, NULL, "set", f->path, "candidate.v1.2 API · x.y.rate_limit_rpm=600", NULL), ==, 0);
  p = load (f->path);
  {
    ProcuraCandidate *c = g_ptr_array_index (p->candidates, p->candidates->len - 1);
    g_autofree char *by_id = g_strdup_printf ("candidate.%" G_GINT64_FORMAT ".rate_limit_rpm", c->id);
    g_autofree char *v = NULL;

    g_assert_cmpstr (c->name, ==, "v1.2 API · x.y");
    g_assert_cmpfloat (c->rate_limit_rpm, ==, 600);
    g_assert_cmpint (run (&v, NULL, "get", f->path, by_id, NULL), ==, 0);
    g_assert_cmpstr (g_strchomp (v), ==, "600");
  }

  g_assert_cmpint (run (&out, NULL, "get", f->path, NULL), ==, 0);
  g_assert_cmpint (run (&json, NULL, "get", f->path, "--json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  lines = g_strsplit (g_strchomp (out), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, json_object_get_size (json_node_get_object (json_parser_get_root (parser))));
  procura_fields (&n);
  g_assert_cmpuint (g_strv_length (lines), >, n);

  /* feeding every line back changes nothing but `modified` */
  {
    g_autofree char *exported = NULL, *again = NULL;

    g_assert_cmpint (run (&exported, NULL, "export", f->path, NULL), ==, 0);
    g_ptr_array_add (args, (gpointer) "set");
    g_ptr_array_add (args, f->path);
    for (guint i = 0; lines[i] != NULL; i++)
      g_ptr_array_add (args, lines[i]);
    g_ptr_array_add (args, NULL);
    status = procura_test_run_cli ((const char * const *) args->pdata, NULL, NULL);
    g_assert_cmpint (status, ==, 0);
    g_assert_cmpint (run (&again, NULL, "export", f->path, NULL), ==, 0);
    /* modified is the only difference */
    {
      g_autoptr (GRegex) re = g_regex_new ("\"modified\" : \"[^\"]*\"", 0, 0, NULL);
      g_autofree char *a = g_regex_replace_literal (re, exported, -1, 0, "", 0, NULL);
      g_autofree char *b = g_regex_replace_literal (re, again, -1, 0, "", 0, NULL);

      g_assert_cmpstr (a, ==, b);
    }
  }
}

/* candidate add / remove; the removal is the store's undoable deletion. */
static void
test_candidate_add_remove (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr (ProcuraProject) p = load (f->path);
  ProcuraQuote *q = NULL;
  g_autofree char *quote_id = NULL, *out = NULL, *err = NULL;
  g_autoptr (ProcuraProject) after = NULL;
  ProcuraCandidate *added = NULL, *api = NULL;
  g_autoptr (GBytes) before = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  gint64 token, removed_id;
  guint runs_before, runs_of_removed = 0;
  ProcuraCandidate *victim;

  for (guint i = 0; i < p->quotes->len && q == NULL; i++)
    if (((ProcuraQuote *) g_ptr_array_index (p->quotes, i))->kind == PROCURA_QUOTE_GPU)
      q = g_ptr_array_index (p->quotes, i);
  g_assert_nonnull (q);
  quote_id = g_strdup_printf ("%" G_GINT64_FORMAT, q->id);

  g_assert_cmpint (run (NULL, NULL, "candidate", "add", f->path, "2× B200 · TP2", "--gpu", "B200",
                        "--gpus-per-replica", "2", "--tp", "2", "--pp", "1", "--quote", quote_id, NULL), ==, 0);
  g_assert_cmpint (run (NULL, NULL, "candidate", "add", f->path, "Other API", "--api-model", "m/x",
                        "--api-provider", "P", NULL), ==, 0);
  after = load (f->path);
  g_assert_cmpuint (after->candidates->len, ==, p->candidates->len + 2);
  for (guint i = 0; i < after->candidates->len; i++)
    {
      ProcuraCandidate *c = g_ptr_array_index (after->candidates, i);

      if (g_strcmp0 (c->name, "2× B200 · TP2") == 0)
        added = c;
      if (g_strcmp0 (c->name, "Other API") == 0)
        api = c;
    }
  g_assert_nonnull (added);
  g_assert_cmpint (added->kind, ==, PROCURA_CANDIDATE_GPU);
  g_assert_cmpstr (added->gpu_name, ==, "B200");
  g_assert_cmpint (added->gpus_per_replica, ==, 2);
  g_assert_cmpint (added->tp, ==, 2);
  g_assert_cmpint (added->pp, ==, 1);
  g_assert_cmpint (added->quote_id, ==, q->id);
  g_assert_cmpfloat (added->price_per_gpu_hour, ==, procura_quote_price_per_gpu_hour (q));
  g_assert_cmpstr (added->price_date, ==, q->seen_date);
  g_assert_nonnull (api);
  g_assert_cmpint (api->kind, ==, PROCURA_CANDIDATE_API);
  g_assert_cmpstr (api->api_model, ==, "m/x");

  /* refused: a duplicate name, a bad --tp, an unknown quote; nothing added */
  before = file_bytes (f->path);
  g_assert_cmpint (run (NULL, &err, "candidate", "add", f->path, "Other API", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "Other API"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "candidate", "add", f->path, "X", "--tp", "1.5", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "--tp: expected an integer >= 0"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "candidate", "add", f->path, "Y", "--quote", "9999", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "--quote"));
  g_assert_true (g_bytes_equal (before, file_bytes (f->path)));

  /* remove a demo candidate with its runs; undo through the store brings all back */
  victim = g_ptr_array_index (p->candidates, 0);
  removed_id = victim->id;
  runs_before = after->runs->len;
  for (guint i = 0; i < after->runs->len; i++)
    runs_of_removed += ((ProcuraRun *) g_ptr_array_index (after->runs, i))->candidate_id == removed_id;
  g_assert_cmpuint (runs_of_removed, >, 0);
  g_assert_cmpint (run (&out, NULL, "candidate", "remove", f->path, victim->name, "--json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  token = json_object_get_int_member (json_node_get_object (json_parser_get_root (parser)), "undo_token");
  g_assert_cmpint (token, >, 0);
  g_clear_pointer (&after, procura_project_free);
  after = load (f->path);
  g_assert_null (procura_project_find_candidate (after, removed_id));
  g_assert_cmpuint (after->runs->len, ==, runs_before - runs_of_removed);
  g_assert_cmpint (run (NULL, NULL, "candidate", "remove", f->path, victim->name, NULL), ==, 1);
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (ProcuraStore) store = procura_store_open (f->path, PROCURA_STORE_OPEN_WRITABLE, &error);

    g_assert_no_error (error);
    g_assert_true (procura_store_undo (store, token, &error));
    g_assert_no_error (error);
  }
  g_clear_pointer (&after, procura_project_free);
  after = load (f->path);
  g_assert_nonnull (procura_project_find_candidate (after, removed_id));
  g_assert_cmpstr (procura_project_find_candidate (after, removed_id)->name, ==, victim->name);
  g_assert_cmpuint (after->runs->len, ==, runs_before);
}

/* The document without what changes on every apply: ids and `modified`. */
static void
strip_ids (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node);
      g_autoptr (GList) members = json_object_get_members (o);

      json_object_remove_member (o, "id");
      json_object_remove_member (o, "modified");
      for (GList *l = members; l != NULL; l = l->next)
        if (json_object_has_member (o, l->data))
          strip_ids (json_object_get_member (o, l->data));
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
      strip_ids (json_array_get_element (json_node_get_array (node), i));
}

static char *
normalised (const char *json)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();

  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  strip_ids (json_parser_get_root (parser));
  json_generator_set_root (gen, json_parser_get_root (parser));
  json_generator_set_pretty (gen, TRUE);
  return json_generator_to_data (gen, NULL);
}

static void
check_round_trip (const char *dir,
                  const char *path)
{
  g_autofree char *doc = g_build_filename (dir, "decision.json", NULL);
  g_autofree char *copy = g_build_filename (dir, "copy.procura", NULL);
  g_autofree char *first = NULL, *second = NULL, *sum1 = NULL, *sum2 = NULL, *err = NULL;
  g_autofree char *n1 = NULL, *n2 = NULL;

  g_assert_cmpint (run (NULL, NULL, "export", path, "--with-samples", "--output", doc, NULL), ==, 0);
  g_assert_true (g_file_get_contents (doc, &first, NULL, NULL));
  g_assert_cmpint (run (NULL, &err, "apply", copy, doc, NULL), ==, 0);
  g_assert_cmpint (run (&second, NULL, "export", copy, "--with-samples", NULL), ==, 0);
  n1 = normalised (first);
  n2 = normalised (second);
  g_assert_cmpstr (n1, ==, n2);
  g_assert_cmpint (run (&sum1, NULL, "summary", path, "--json", NULL), ==, 0);
  g_assert_cmpint (run (&sum2, NULL, "summary", copy, "--json", NULL), ==, 0);
  g_assert_cmpstr (sum1, ==, sum2);

  /* applied again onto the copy (replacing its contents): still the same */
  g_clear_pointer (&second, g_free);
  g_clear_pointer (&n2, g_free);
  g_assert_cmpint (run (NULL, NULL, "apply", copy, doc, NULL), ==, 0);
  g_assert_cmpint (run (&second, NULL, "export", copy, "--with-samples", NULL), ==, 0);
  n2 = normalised (second);
  g_assert_cmpstr (n1, ==, n2);
}

static void
test_round_trip_demo (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *out = NULL;

  /* without --with-samples there are no samples */
  g_assert_cmpint (run (&out, NULL, "export", f->path, NULL), ==, 0);
  g_assert_null (strstr (out, "\"samples\" : {"));
  g_assert_nonnull (strstr (out, "\"procura_decision\" : 1"));
  check_round_trip (f->dir, f->path);
}

static void
test_round_trip_imported (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = g_build_filename (dir, "imported.procura", NULL);
  g_autofree char *vllm = g_build_filename (g_getenv ("PROCURA_DATADIR"), "..", "tests", "import", "corpus",
                                            "importers", "vllm-small.json", NULL);
  g_autofree char *guidellm = procura_test_real_fixture ("guidellm/guidellmTest__benchmarks_stripped.json");

  g_assert_cmpint (run (NULL, NULL, "new", path, "--title", "Imported", NULL), ==, 0);
  g_assert_cmpint (run (NULL, NULL, "candidate", "add", path, "1× H100 · vLLM", "--gpu", "H100",
                        "--gpus-per-replica", "1", NULL), ==, 0);
  g_assert_cmpint (run (NULL, NULL, "import", path, vllm, "--candidate", "1× H100 · vLLM", NULL), ==, 0);
  if (guidellm != NULL)
    g_assert_cmpint (run (NULL, NULL, "import", path, guidellm, NULL), ==, 0);
  g_assert_cmpint (run (NULL, NULL, "set", path, "brief.slo_metric=ttft", "brief.slo_percentile=99",
                        "brief.slo_threshold_ms=500", "brief.demand_average=2",
                        "candidate.1× H100 · vLLM.price_per_gpu_hour=2.5", NULL), ==, 0);
  check_round_trip (dir, path);
  procura_test_rmtree (dir);
}

/* apply refuses a bad document with key paths and changes nothing. */
static void
test_apply_refused (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *doc = g_build_filename (f->dir, "bad.json", NULL);
  g_autofree char *fresh = g_build_filename (f->dir, "fresh.procura", NULL);
  g_autofree char *text = NULL, *err = NULL, *bad = NULL;
  g_autoptr (GBytes) before = file_bytes (f->path);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  JsonObject *root, *c1;

  g_assert_cmpint (run (&text, NULL, "export", f->path, NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  c1 = json_array_get_object_element (json_object_get_array_member (root, "candidates"), 1);
  json_object_set_int_member (c1, "tp", -1);
  json_object_set_string_member (json_object_get_object_member (root, "brief"), "slo_metric", "p99");
  json_object_set_string_member (json_array_get_object_element (json_object_get_array_member (root, "checklist"), 0),
                                 "candidate_id", "Nobody");
  json_object_set_int_member (root, "extra", 1);
  json_generator_set_root (gen, json_parser_get_root (parser));
  bad = json_generator_to_data (gen, NULL);
  g_assert_true (g_file_set_contents (doc, bad, -1, NULL));

  g_assert_cmpint (run (NULL, &err, "apply", f->path, doc, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "candidates[1].tp: expected an integer >= 0"));
  g_assert_nonnull (strstr (err, "brief.slo_metric: expected one of ttft"));
  g_assert_nonnull (strstr (err, "checklist[0].candidate_id"));
  g_assert_nonnull (strstr (err, "extra: unknown member"));
  g_assert_true (g_bytes_equal (before, file_bytes (f->path)));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "apply", fresh, doc, NULL), ==, 1);
  g_assert_false (g_file_test (fresh, G_FILE_TEST_EXISTS));

  /* not a decision document at all */
  g_assert_true (g_file_set_contents (doc, "{\"procura_quotes\": 1}", -1, NULL));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "apply", f->path, doc, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "procura_decision"));
  g_assert_true (g_file_set_contents (doc, "{ not json", -1, NULL));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "apply", f->path, doc, NULL), ==, 1);
  g_assert_nonnull (strstr (err, doc));
  g_assert_true (g_bytes_equal (before, file_bytes (f->path)));
}

/* The schema lists exactly the registry's columns for each settable table. */
static void
test_schema_agrees (void)
{
  static const struct { ProcuraFieldTable table; const char *member; gboolean array; guint extra; } map[] = {
    { PROCURA_FIELD_TABLE_PROJECT, "project", FALSE, 2 },       /* created, modified */
    { PROCURA_FIELD_TABLE_BRIEF, "brief", FALSE, 0 },
    { PROCURA_FIELD_TABLE_ASSUMPTIONS, "assumptions", FALSE, 0 },
    { PROCURA_FIELD_TABLE_DECISION, "decision", FALSE, 0 },
    { PROCURA_FIELD_TABLE_CANDIDATE, "candidates", TRUE, 1 },   /* id */
    { PROCURA_FIELD_TABLE_QUOTE, "quotes", TRUE, 2 },           /* id, provenance */
    { PROCURA_FIELD_TABLE_CHECKLIST, "checklist", TRUE, 1 },
    { PROCURA_FIELD_TABLE_OPS_TEST, "ops_tests", TRUE, 1 },
  };
  const char *datadir = g_getenv ("PROCURA_DATADIR");
  g_autofree char *path = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *props;
  gsize n;
  const ProcuraField *fields = procura_fields (&n);

  if (datadir == NULL)
    {
      g_test_skip ("PROCURA_DATADIR not set");
      return;
    }
  path = g_build_filename (datadir, "schemas", "decision.schema.json", NULL);
  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  props = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "properties");
  for (gsize t = 0; t < G_N_ELEMENTS (map); t++)
    {
      JsonObject *o = json_object_get_object_member (props, map[t].member);
      JsonObject *columns;
      guint count = 0;

      if (map[t].array)
        o = json_object_get_object_member (o, "items");
      else if (json_object_has_member (o, "oneOf"))
        o = json_array_get_object_element (json_object_get_array_member (o, "oneOf"), 1);
      columns = json_object_get_object_member (o, "properties");
      for (gsize i = 0; i < n; i++)
        if (fields[i].table == map[t].table)
          {
            g_test_message ("%s.%s", map[t].member, fields[i].column);
            g_assert_true (json_object_has_member (columns, fields[i].column));
            count++;
          }
      g_assert_cmpuint (json_object_get_size (columns), ==, count + map[t].extra);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
#define ADD(name, fn) g_test_add (name, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/cli-set/every-field", test_every_field);
  ADD ("/cli-set/refused", test_refused);
  ADD ("/cli-set/all-or-nothing", test_all_or_nothing);
  ADD ("/cli-set/get-all", test_get_all);
  ADD ("/cli-set/candidate-add-remove", test_candidate_add_remove);
  ADD ("/cli-export/round-trip-demo", test_round_trip_demo);
  ADD ("/cli-export/apply-refused", test_apply_refused);
  g_test_add_func ("/cli-export/round-trip-imported", test_round_trip_imported);
  g_test_add_func ("/cli-export/schema-agrees", test_schema_agrees);
  return g_test_run ();
}
