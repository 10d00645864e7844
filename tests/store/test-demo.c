/* test-demo.c: the bundled demo project, `procura demo` and `procura new`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "procura-demo.h"
#include "procura-store.h"
#include "procura-test-util.h"
#include "procura-util.h"

/* 2026-11-30T00:00:00Z */
#define EPOCH "1795996800"

static int
cmp_double (gconstpointer a,
            gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y ? 1 : 0;
}

/* numpy's default ("linear") percentile, written out here independently */
static double
linear_percentile (const double *values,
                   gsize         n,
                   double        q)
{
  double *s = g_memdup2 (values, n * sizeof (double));
  double h, out;
  gsize lo;

  qsort (s, n, sizeof (double), cmp_double);
  h = (n - 1) * q;
  lo = (gsize) floor (h);
  out = lo + 1 < n ? s[lo] + (h - lo) * (s[lo + 1] - s[lo]) : s[lo];
  g_free (s);
  return out;
}

static char *
file_sha256 (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return procura_sha256_hex (data, len);
}

static void
test_content (void)
{
  g_autoptr (ProcuraProject) p = NULL;
  g_auto (GStrv) missing = NULL;
  int stale = 0, gpu = 0, api = 0;

  g_setenv ("SOURCE_DATE_EPOCH", EPOCH, TRUE);
  p = procura_demo_project_new ();

  g_assert_true (p->illustrative);
  g_assert_nonnull (strstr (p->title, "illustrative"));
  g_assert_cmpstr (p->created, ==, "2026-11-30T00:00:00Z");
  missing = procura_brief_missing (p->brief);
  g_assert_cmpuint (g_strv_length (missing), ==, 0);
  g_assert_cmpstr (p->brief->model_shape, ==, "meta-llama/Llama-3.1-70B-Instruct");
  g_assert_cmpfloat (p->brief->slo_threshold_ms, ==, 800);
  g_assert_cmpfloat (p->brief->demand_average, ==, 12);
  g_assert_cmpfloat (p->brief->demand_peak, ==, 30);
  g_assert_cmpfloat (p->assumptions.acceptance_rate, ==, 0.92);
  g_assert_cmpint (p->decision.candidate_id, ==, 0);

  for (guint i = 0; i < p->candidates->len; i++)
    {
      ProcuraCandidate *c = g_ptr_array_index (p->candidates, i);
      g_autoptr (GPtrArray) runs = procura_project_runs_for (p, c->id);
      int days = procura_days_since (c->price_date);
      double first_p99 = NAN, last_p99 = NAN;

      g_assert_cmpint (days, >=, 0);
      if (days > 30)
        stale++;
      if (c->kind == PROCURA_CANDIDATE_API)
        {
          api++;
          g_assert_cmpuint (runs->len, ==, 0);
          g_assert_cmpfloat (c->price_input_per_mtok, ==, 0.60);
          continue;
        }
      gpu++;
      g_assert_cmpint (c->quote_id, >, 0);
      g_assert_cmpfloat (c->storage, >, 0);
      g_assert_cmpfloat (c->labor_hours, >, 0);
      g_assert_cmpuint (runs->len, >=, 6);
      g_assert_cmpuint (runs->len, <=, 8);
      for (guint k = 0; k < runs->len; k++)
        {
          ProcuraRun *r = g_ptr_array_index (runs, k);
          const ProcuraSamples *ttft = procura_run_get_samples (r, "ttft");
          const ProcuraStat *p99 = procura_run_get_stat (r, "ttft", "p99");
          const ProcuraStat *mean = procura_run_get_stat (r, "e2e", "mean");
          const ProcuraSamples *e2e = procura_run_get_samples (r, "e2e");
          double sum = 0;

          g_assert_nonnull (ttft);
          g_assert_cmpuint (ttft->n, >=, 200);
          g_assert_nonnull (p99);
          g_assert_cmpint (p99->source, ==, PROCURA_SOURCE_RECOMPUTED);
          g_assert_cmpint (p99->samples, ==, (gint64) ttft->n);
          g_assert_cmpfloat_with_epsilon (p99->value, linear_percentile (ttft->values, ttft->n, 0.99), 1e-9);
          for (gsize j = 0; j < e2e->n; j++)
            sum += e2e->values[j];
          g_assert_cmpfloat_with_epsilon (mean->value, sum / e2e->n, 1e-6);
          g_assert_cmpint (r->completed, ==, (gint64) ttft->n);
          g_assert_nonnull (r->provenance);
          g_assert_cmpstr (r->provenance->importer, ==, "procura demo (illustrative)");
          if (k > 0)
            g_assert_cmpfloat (r->scenario.load_value, >, ((ProcuraRun *) g_ptr_array_index (runs, k - 1))->scenario.load_value);
          if (k == 0)
            first_p99 = p99->value;
          last_p99 = p99->value;
        }
      g_assert_cmpfloat (first_p99, <, 800);
      /* the H200s never cross the target within their sweep; the others do */
      if (g_str_equal (c->gpu_name, "h200-sxm-141gb"))
        g_assert_cmpfloat (last_p99, <, 800);
      else
        g_assert_cmpfloat (last_p99, >, 800);
    }
  g_assert_cmpint (gpu, >=, 3);
  g_assert_cmpint (api, ==, 1);
  g_assert_cmpint (stale, ==, 1);
  g_assert_cmpuint (p->quotes->len, ==, p->candidates->len);
  g_assert_cmpuint (p->engine_logs->len, >=, 1);
  g_assert_cmpuint (p->ops_tests->len, >=, 4);
  g_assert_cmpuint (p->checklist->len, >=, 3);
  for (guint i = 0; i < p->provenance->len; i++)
    g_assert_cmpstr (((ProcuraProvenance *) g_ptr_array_index (p->provenance, i))->importer,
                     ==, "procura demo (illustrative)");
}

/* Written and loaded back, the demo is the same project; two writes are identical. */
static void
test_write_deterministic (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *a = g_build_filename (dir, "a.procura", NULL);
  g_autofree char *b = g_build_filename (dir, "b.procura", NULL);
  g_autofree char *ha = NULL;
  g_autofree char *hb = NULL;
  g_autoptr (ProcuraProject) mem = NULL;
  g_autoptr (ProcuraProject) disk = NULL;
  ProcuraStore *store;

  g_setenv ("SOURCE_DATE_EPOCH", EPOCH, TRUE);
  g_assert_true (procura_demo_write (a, &error));
  g_assert_no_error (error);
  g_assert_true (procura_demo_write (b, &error));
  g_assert_no_error (error);
  ha = file_sha256 (a);
  hb = file_sha256 (b);
  g_assert_cmpstr (ha, ==, hb);

  g_assert_false (procura_demo_write (a, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID);
  g_clear_error (&error);

  mem = procura_demo_project_new ();
  store = procura_store_open (a, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  disk = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, &error);
  g_assert_no_error (error);
  procura_store_close (store);

  g_assert_cmpstr (disk->title, ==, mem->title);
  g_assert_true (disk->illustrative);
  g_assert_cmpstr (disk->created, ==, mem->created);
  g_assert_cmpstr (disk->modified, ==, mem->modified);
  g_assert_cmpuint (disk->candidates->len, ==, mem->candidates->len);
  g_assert_cmpuint (disk->runs->len, ==, mem->runs->len);
  g_assert_cmpuint (disk->quotes->len, ==, mem->quotes->len);
  g_assert_cmpuint (disk->ops_tests->len, ==, mem->ops_tests->len);
  g_assert_cmpuint (disk->checklist->len, ==, mem->checklist->len);
  g_assert_cmpuint (disk->engine_logs->len, ==, mem->engine_logs->len);
  g_assert_cmpuint (disk->probe_results->len, ==, mem->probe_results->len);
  g_assert_cmpuint (disk->model_shapes->len, ==, mem->model_shapes->len);
  g_assert_cmpuint (disk->provenance->len, ==, mem->provenance->len);
  for (guint i = 0; i < mem->runs->len; i++)
    {
      ProcuraRun *m = g_ptr_array_index (mem->runs, i);
      ProcuraRun *d = g_ptr_array_index (disk->runs, i);
      ProcuraCandidate *mc = procura_project_find_candidate (mem, m->candidate_id);
      ProcuraCandidate *dc = procura_project_find_candidate (disk, d->candidate_id);
      const ProcuraSamples *ms = procura_run_get_samples (m, "ttft");
      const ProcuraSamples *ds = procura_run_get_samples (d, "ttft");

      g_assert_cmpstr (m->label, ==, d->label);
      g_assert_cmpstr (mc->name, ==, dc->name);
      g_assert_cmpuint (ms->n, ==, ds->n);
      g_assert_true (memcmp (ms->values, ds->values, ms->n * sizeof (double)) == 0);
      g_assert_cmpfloat (procura_run_get_stat (m, "ttft", "p99")->value, ==,
                         procura_run_get_stat (d, "ttft", "p99")->value);
    }
  /* quote links survive the id remapping */
  for (guint i = 0; i < disk->candidates->len; i++)
    {
      ProcuraCandidate *c = g_ptr_array_index (disk->candidates, i);
      gboolean found = FALSE;

      for (guint k = 0; k < disk->quotes->len; k++)
        {
          ProcuraQuote *q = g_ptr_array_index (disk->quotes, k);
          if (q->id == c->quote_id)
            {
              found = TRUE;
              g_assert_cmpstr (q->seen_date, ==, c->price_date);
            }
        }
      g_assert_true (found);
    }
  procura_test_rmtree (dir);
}

static JsonObject *
parse_object (const char *text,
              JsonParser *parser)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_cli (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *demo = g_build_filename (dir, "demo.procura", NULL);
  g_autofree char *fresh = g_build_filename (dir, "My decision.procura", NULL);
  g_autofree char *titled = g_build_filename (dir, "t.procura", NULL);
  g_autofree char *junk = g_build_filename (dir, "junk.procura", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  char *out = NULL, *err = NULL;
  JsonObject *o;
  ProcuraStore *store;
  int rc;

  g_setenv ("SOURCE_DATE_EPOCH", EPOCH, TRUE);
  {
    const char *argv[] = { "demo", demo, "--json", NULL };
    rc = procura_test_run_cli (argv, &out, &err);
    g_assert_cmpint (rc, ==, 0);
    o = parse_object (out, parser);
    g_assert_cmpstr (json_object_get_string_member (o, "path"), ==, demo);
    g_assert_true (json_object_get_boolean_member (o, "illustrative"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  store = procura_store_open (demo, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  {
    g_autoptr (ProcuraProject) p = procura_store_load_project (store, 0, &error);
    g_assert_true (p->illustrative);
    g_assert_cmpstr (p->title, ==, PROCURA_DEMO_TITLE);
  }
  procura_store_close (store);
  {
    /* never overwrites */
    const char *argv[] = { "demo", demo, NULL };
    g_autofree char *before = file_sha256 (demo);
    g_autofree char *after = NULL;

    rc = procura_test_run_cli (argv, &out, &err);
    g_assert_cmpint (rc, ==, 1);
    g_assert_nonnull (strstr (err, "exists"));
    after = file_sha256 (demo);
    g_assert_cmpstr (before, ==, after);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *argv[] = { "new", fresh, "--json", NULL };
    rc = procura_test_run_cli (argv, &out, &err);
    g_assert_cmpint (rc, ==, 0);
    o = parse_object (out, parser);
    g_assert_cmpstr (json_object_get_string_member (o, "title"), ==, "My decision");
    g_assert_cmpint (json_object_get_int_member (o, "schema_version"), ==, PROCURA_STORE_SCHEMA_VERSION);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *argv[] = { "new", titled, "--title", "GPU or API for chat", NULL };
    rc = procura_test_run_cli (argv, &out, &err);
    g_assert_cmpint (rc, ==, 0);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    store = procura_store_open (titled, PROCURA_STORE_OPEN_READ_ONLY, &error);
    g_assert_no_error (error);
    {
      g_autoptr (ProcuraProject) p = procura_store_load_project (store, 0, &error);
      g_assert_cmpstr (p->title, ==, "GPU or API for chat");
      g_assert_false (p->illustrative);
      g_assert_cmpuint (p->candidates->len, ==, 0);
    }
    procura_store_close (store);
  }
  {
    /* an existing file, whatever it holds, is not overwritten: exit 1 */
    const char *argv[] = { "new", junk, NULL };
    g_assert_true (g_file_set_contents (junk, "keep me", -1, NULL));
    rc = procura_test_run_cli (argv, &out, &err);
    g_assert_cmpint (rc, ==, 1);
    g_assert_nonnull (strstr (err, junk));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_true (g_file_get_contents (junk, &out, NULL, NULL));
    g_assert_cmpstr (out, ==, "keep me");
    g_clear_pointer (&out, g_free);
  }
  {
    /* usage errors: exit 2 */
    const char *argv1[] = { "new", NULL };
    const char *argv2[] = { "demo", "a.procura", "b.procura", NULL };
    const char *argv3[] = { "new", titled, "--bogus", NULL };

    g_assert_cmpint (procura_test_run_cli (argv1, &out, &err), ==, 2);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (procura_test_run_cli (argv2, &out, &err), ==, 2);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (procura_test_run_cli (argv3, &out, &err), ==, 2);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  procura_test_rmtree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/store/demo/content", test_content);
  g_test_add_func ("/store/demo/write-deterministic", test_write_deterministic);
  g_test_add_func ("/store/demo/cli", test_cli);
  return g_test_run ();
}
