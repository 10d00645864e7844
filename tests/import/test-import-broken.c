/* test-import-broken.c: broken inputs get clear errors and change nothing; the
 * registry, normalisation, recomputed percentiles, warnings and the two parse paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "procura-import.h"
#include "procura-quantiles.h"
#include "procura-import-json.h"
#include "procura-import-private.h"
#include "procura-store.h"
#include "procura-test-util.h"

gboolean procura_import_vllm_serve_parse (const char          *name,
                                          const char          *data,
                                          gsize                len,
                                          gboolean             allow_bulk,
                                          ProcuraImportResult *result,
                                          GError             **error);

/* numpy's default (linear) percentile, written here independently of the code under test */
static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
np_percentile (const double *values,
               gsize         n,
               double        pct)
{
  g_autofree double *s = g_memdup2 (values, n * sizeof (double));
  double h, lo;
  gsize i;

  qsort (s, n, sizeof (double), cmp_double);
  h = (double) (n - 1) * pct / 100.0;
  lo = floor (h);
  i = (gsize) lo;
  if (i + 1 >= n)
    return s[n - 1];
  return s[i] + (h - lo) * (s[i + 1] - s[i]);
}

static ProcuraImportResult *
import_text (const char  *text,
             const char  *format,
             GError     **error)
{
  return procura_import_data ("input.json", text, strlen (text), format, NULL, error);
}

static gboolean
has_warning (const ProcuraRun *run,
             const char       *needle)
{
  for (guint i = 0; i < run->warnings->len; i++)
    if (strstr (g_ptr_array_index (run->warnings, i), needle))
      return TRUE;
  return FALSE;
}

static const ProcuraStat *
stat_of (const ProcuraRun *run,
         const char       *metric,
         const char       *stat,
         ProcuraSource     source)
{
  for (guint i = 0; i < run->stats->len; i++)
    {
      const ProcuraStat *s = g_ptr_array_index (run->stats, i);
      if (s->source == source && g_str_equal (s->metric, metric) && g_str_equal (s->stat, stat))
        return s;
    }
  return NULL;
}

/* A small vLLM result with per-request arrays; built here so that its figures are known */
static char *
make_vllm (guint n_requests,
           guint seed,
           double mean_ttft_reported)
{
  GString *s = g_string_new ("{\"backend\": \"vllm\", \"model_id\": \"m/x\", \"request_rate\": \"inf\", ");
  GRand *rand = g_rand_new_with_seed (seed);

  g_string_append_printf (s, "\"max_concurrency\": 4, \"completed\": %u, \"failed\": 0, \"num_prompts\": %u, "
                          "\"duration\": 10.0, \"total_input_tokens\": %u, \"total_output_tokens\": %u, "
                          "\"request_throughput\": %g, \"output_throughput\": 1.0, \"total_token_throughput\": 2.0, "
                          "\"gpu\": \"H100\", \"tp\": 2, ",
                          n_requests, n_requests, n_requests * 100, n_requests * 10,
                          n_requests / 10.0);
  if (!isnan (mean_ttft_reported))
    g_string_append_printf (s, "\"mean_ttft_ms\": %.17g, ", mean_ttft_reported);
  g_string_append (s, "\"ttfts\": [");
  for (guint i = 0; i < n_requests; i++)
    g_string_append_printf (s, "%s%.17g", i ? ", " : "", 0.05 + g_rand_double (rand) * 0.2);
  g_string_append (s, "], \"itls\": [");
  for (guint i = 0; i < n_requests; i++)
    {
      g_string_append (s, i ? ", [" : "[");
      for (guint j = 0; j < 9; j++)
        g_string_append_printf (s, "%s%.17g", j ? ", " : "", 0.005 + g_rand_double (rand) * 0.02);
      g_string_append (s, "]");
    }
  g_string_append (s, "], \"input_lens\": [");
  for (guint i = 0; i < n_requests; i++)
    g_string_append_printf (s, "%s100", i ? ", " : "");
  g_string_append (s, "], \"output_lens\": [");
  for (guint i = 0; i < n_requests; i++)
    g_string_append_printf (s, "%s10", i ? ", " : "");
  g_string_append (s, "], \"errors\": [");
  for (guint i = 0; i < n_requests; i++)
    g_string_append_printf (s, "%s\"\"", i ? ", " : "");
  g_string_append (s, "], \"generated_texts\": [");
  for (guint i = 0; i < n_requests; i++)
    g_string_append_printf (s, "%s\"some text \\\"quoted\\\" %u\"", i ? ", " : "", i);
  g_string_append (s, "]}");
  g_rand_free (rand);
  return g_string_free (s, FALSE);
}

/* Reads the ttfts and itls back with plain json-glib, independently of Procura */
static void
arrays_of (const char *text,
           GArray    **ttft_ms,
           GArray    **itl_ms)
{
  g_autoptr (JsonParser) p = json_parser_new ();
  JsonObject *o;
  JsonArray *t, *it;

  g_assert_true (json_parser_load_from_data (p, text, -1, NULL));
  o = json_node_get_object (json_parser_get_root (p));
  t = json_object_get_array_member (o, "ttfts");
  it = json_object_get_array_member (o, "itls");
  *ttft_ms = g_array_new (FALSE, FALSE, sizeof (double));
  *itl_ms = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < json_array_get_length (t); i++)
    {
      double v = json_array_get_double_element (t, i) * 1000.0;
      g_array_append_val (*ttft_ms, v);
    }
  for (guint i = 0; i < json_array_get_length (it); i++)
    {
      JsonArray *row = json_array_get_array_element (it, i);
      for (guint j = 0; j < json_array_get_length (row); j++)
        {
          double v = json_array_get_double_element (row, j) * 1000.0;
          g_array_append_val (*itl_ms, v);
        }
    }
}

static void
test_recomputed_percentiles (void)
{
  g_autofree char *text = make_vllm (200, 7, NAN);
  g_autoptr (GArray) ttft = NULL;
  g_autoptr (GArray) itl = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) r = NULL;
  ProcuraRun *run;
  const ProcuraStat *s;
  double mean = 0;

  arrays_of (text, &ttft, &itl);
  r = import_text (text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (r->format, ==, "vllm-bench-serve");
  run = g_ptr_array_index (r->runs, 0);

  for (guint i = 0; i < ttft->len; i++)
    mean += g_array_index (ttft, double, i);
  mean /= ttft->len;
  s = stat_of (run, "ttft", "mean", PROCURA_SOURCE_RECOMPUTED);
  g_assert_nonnull (s);
  g_assert_cmpfloat_with_epsilon (s->value, mean, 1e-9);
  g_assert_cmpint (s->samples, ==, 200);
  s = stat_of (run, "ttft", "p99", PROCURA_SOURCE_RECOMPUTED);
  g_assert_cmpfloat_with_epsilon (s->value, np_percentile ((double *) ttft->data, ttft->len, 99), 1e-9);
  s = stat_of (run, "itl", "p99.9", PROCURA_SOURCE_RECOMPUTED);
  g_assert_cmpfloat_with_epsilon (s->value, np_percentile ((double *) itl->data, itl->len, 99.9), 1e-9);
  g_assert_cmpint (s->samples, ==, 200 * 9);
  s = stat_of (run, "itl", "p50", PROCURA_SOURCE_RECOMPUTED);
  g_assert_cmpfloat_with_epsilon (s->value, np_percentile ((double *) itl->data, itl->len, 50), 1e-9);
  /* tpot = sum of the request's gaps / (output_len - 1) */
  g_assert_nonnull (procura_run_get_samples (run, "tpot"));
  g_assert_cmpuint (procura_run_get_samples (run, "tpot")->n, ==, 200);
  /* --metadata gpu= and tp= are taken; nothing else is guessed */
  g_assert_cmpstr (run->scenario.gpu_name, ==, "H100");
  g_assert_cmpint (run->scenario.tp, ==, 2);
  g_assert_cmpint (run->scenario.gpu_count, ==, -1);
  g_assert_cmpstr (run->scenario.load_type, ==, "concurrency");
  g_assert_cmpfloat (run->scenario.load_value, ==, 4);
  /* provenance on the run */
  g_assert_nonnull (run->provenance);
  g_assert_cmpstr (run->provenance->importer, ==, "vllm-bench-serve");
  g_assert_cmpint (strlen (run->provenance->sha256), ==, 64);
  g_assert_cmpint (run->provenance->size, ==, (gint64) strlen (text));
}

/* Millions of samples take the histogram path: same figures as a full sort; values of
 * both signs are selected in a copy, positive latencies where they are */
static void
many_samples (gboolean positive)
{
  gsize n = 1200000;
  g_autoptr (ProcuraImportResult) r = procura_import_result_new ();
  ProcuraRun *run = procura_run_new ();
  double *v = g_new (double, n);
  g_autofree double *copy = NULL;
  GRand *rand = g_rand_new_with_seed (5);
  static const double pcts[] = { 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9 };
  double mean = 0;

  for (gsize i = 0; i < n; i++)
    {
      /* heavy ties, several magnitudes, a few exact zeros and negatives */
      double x = exp (g_rand_double_range (rand, -3, 6));
      if (positive)
        x = exp (g_rand_double_range (rand, 0.7, 8.8));
      else if (i % 7 == 0)
        x = floor (x);
      if (!positive && i % 1001 == 0)
        x = -x;
      v[i] = x;
      mean += x;
    }
  mean /= (double) n;
  copy = g_memdup2 (v, n * sizeof (double));
  qsort (copy, n, sizeof (double), cmp_double);
  procura_run_take_samples (run, "itl", v, n);
  g_ptr_array_add (r->runs, run);
  procura_import_finalize (r, PROCURA_IMPORT_DEFAULT);
  g_assert_cmpfloat_with_epsilon (stat_of (run, "itl", "mean", PROCURA_SOURCE_RECOMPUTED)->value, mean, 1e-9 * fabs (mean));
  for (gsize i = 0; i < G_N_ELEMENTS (pcts); i++)
    {
      g_autofree char *name = pcts[i] == floor (pcts[i]) ? g_strdup_printf ("p%d", (int) pcts[i]) : g_strdup ("p99.9");
      /* numpy linear on the sorted copy */
      double h = (double) (n - 1) * pcts[i] / 100.0, fl = floor (h);
      double want = copy[(gsize) fl] + (h - fl) * (copy[(gsize) fl + 1] - copy[(gsize) fl]);
      g_assert_cmpfloat_with_epsilon (stat_of (run, "itl", name, PROCURA_SOURCE_RECOMPUTED)->value, want,
                                      1e-12 * MAX (1.0, fabs (want)));
    }
  g_assert_cmpfloat (stat_of (run, "itl", "min", PROCURA_SOURCE_RECOMPUTED)->value, ==, copy[0]);
  g_assert_cmpfloat (stat_of (run, "itl", "max", PROCURA_SOURCE_RECOMPUTED)->value, ==, copy[n - 1]);
  g_assert_true (has_warning (run, "per-request values are negative") == !positive);
  /* the samples themselves are left as they were */
  g_assert_cmpuint (procura_run_get_samples (run, "itl")->n, ==, n);
  /* the quantile summary the store keeps, selected with the percentiles: the one built
   * from the samples alone, bit for bit */
  {
    g_autoptr (ProcuraQuantiles) alone = procura_quantiles_new ("itl", procura_run_get_samples (run, "itl")->values, n);
    const ProcuraQuantiles *kept = procura_run_get_quantiles (run, "itl");

    g_assert_nonnull (kept);
    g_assert_cmpuint (kept->n, ==, alone->n);
    g_assert_cmpuint (kept->k, ==, alone->k);
    g_assert_cmpmem (kept->ranks, kept->k * sizeof (guint64), alone->ranks, alone->k * sizeof (guint64));
    g_assert_cmpmem (kept->values, kept->k * sizeof (double), alone->values, alone->k * sizeof (double));
  }
  /* a result only read (inspect) gets the same figures and no summary */
  {
    g_autoptr (ProcuraImportResult) r2 = procura_import_result_new ();
    ProcuraRun *run2 = procura_run_new ();

    procura_run_take_samples (run2, "itl", g_memdup2 (procura_run_get_samples (run, "itl")->values, n * sizeof (double)), n);
    g_ptr_array_add (r2->runs, run2);
    procura_import_finalize (r2, PROCURA_IMPORT_NO_SUMMARIES);
    g_assert_null (procura_run_get_quantiles (run2, "itl"));
    for (gsize i = 0; i < G_N_ELEMENTS (pcts); i++)
      {
        g_autofree char *name = pcts[i] == floor (pcts[i]) ? g_strdup_printf ("p%d", (int) pcts[i]) : g_strdup ("p99.9");
        g_assert_cmpfloat (stat_of (run2, "itl", name, PROCURA_SOURCE_RECOMPUTED)->value, ==,
                           stat_of (run, "itl", name, PROCURA_SOURCE_RECOMPUTED)->value);
      }
  }
  g_rand_free (rand);
}

static void
test_many_samples (void)
{
  many_samples (FALSE);
  many_samples (TRUE);
}

static void
test_disagreement_warning (void)
{
  /* the file claims a mean TTFT of 900 ms; its arrays say about 150 ms */
  g_autofree char *text = make_vllm (50, 3, 900.0);
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) r = import_text (text, NULL, &error);
  ProcuraRun *run;

  g_assert_no_error (error);
  run = g_ptr_array_index (r->runs, 0);
  g_assert_true (has_warning (run, "ttft mean: the file reports 900 ms"));
  /* both figures are kept, each labelled */
  g_assert_cmpfloat (stat_of (run, "ttft", "mean", PROCURA_SOURCE_AS_REPORTED)->value, ==, 900.0);
  g_assert_nonnull (stat_of (run, "ttft", "mean", PROCURA_SOURCE_RECOMPUTED));
}

/* PROCURA_IMPORT_NO_FINALIZE: the parse and its refusals only; procura_import_finalize ()
 * run afterwards gives the result the import gives by itself, stat for stat, warning for
 * warning, summary for summary */
static void
test_finalize_later (void)
{
  g_autofree char *text = make_vllm (300, 5, 900.0);
  g_autofree char *dir = g_dir_make_tmp ("procura-finalize-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "input.json", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) whole = NULL;
  g_autoptr (ProcuraImportResult) later = NULL;
  ProcuraRun *a, *b;
  guint recomputed = 0;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  whole = procura_import_file (path, NULL, NULL, &error);
  g_assert_no_error (error);
  later = procura_import_file_with_flags (path, NULL, PROCURA_IMPORT_NO_FINALIZE, NULL, &error);
  g_assert_no_error (error);
  a = g_ptr_array_index (whole->runs, 0);
  b = g_ptr_array_index (later->runs, 0);

  /* parsed, with its provenance, and nothing recomputed yet */
  g_assert_cmpuint (b->samples->len, ==, a->samples->len);
  g_assert_cmpstr (b->format, ==, a->format);
  g_assert_cmpstr (b->provenance->sha256, ==, a->provenance->sha256);
  for (guint i = 0; i < b->stats->len; i++)
    g_assert_cmpint (((const ProcuraStat *) g_ptr_array_index (b->stats, i))->source, !=, PROCURA_SOURCE_RECOMPUTED);
  g_assert_false (has_warning (b, "ttft mean: the file reports 900 ms"));
  g_assert_null (procura_run_get_quantiles (b, "ttft"));

  procura_import_finalize (later, PROCURA_IMPORT_DEFAULT);
  g_assert_cmpuint (b->stats->len, ==, a->stats->len);
  for (guint i = 0; i < a->stats->len; i++)
    {
      const ProcuraStat *x = g_ptr_array_index (a->stats, i), *y = g_ptr_array_index (b->stats, i);

      g_assert_cmpstr (y->metric, ==, x->metric);
      g_assert_cmpstr (y->stat, ==, x->stat);
      g_assert_cmpint (y->source, ==, x->source);
      g_assert_cmpint (y->samples, ==, x->samples);
      g_assert_cmpmem (&y->value, sizeof (double), &x->value, sizeof (double));
      recomputed += x->source == PROCURA_SOURCE_RECOMPUTED;
    }
  g_assert_cmpuint (recomputed, >, 10);
  g_assert_cmpuint (b->warnings->len, ==, a->warnings->len);
  for (guint i = 0; i < a->warnings->len; i++)
    g_assert_cmpstr (g_ptr_array_index (b->warnings, i), ==, g_ptr_array_index (a->warnings, i));
  g_assert_true (has_warning (b, "ttft mean: the file reports 900 ms"));
  {
    const ProcuraQuantiles *qa = procura_run_get_quantiles (a, "ttft");
    const ProcuraQuantiles *qb = procura_run_get_quantiles (b, "ttft");

    g_assert_nonnull (qa);
    g_assert_nonnull (qb);
    g_assert_cmpuint (qb->k, ==, qa->k);
    g_assert_cmpmem (qb->ranks, qb->k * sizeof (guint64), qa->ranks, qa->k * sizeof (guint64));
    g_assert_cmpmem (qb->values, qb->k * sizeof (double), qa->values, qa->k * sizeof (double));
  }

  /* the refusals come with the parse */
  g_assert_true (g_file_set_contents (bad, "{\"backend\": \"vllm\", \"ttfts\": [1, 2,", -1, NULL));
  g_assert_null (procura_import_file_with_flags (bad, "vllm-bench-serve", PROCURA_IMPORT_NO_FINALIZE, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "bad.json"));
  g_unlink (bad);
  g_unlink (path);
  g_rmdir (dir);
}

/* simdjson and json-glib read the same file the same way */
static void
test_bulk_path_agrees (void)
{
  g_autofree char *text = make_vllm (3000, 11, 150.0);
  g_autoptr (ProcuraImportResult) a = procura_import_result_new ();
  g_autoptr (ProcuraImportResult) b = procura_import_result_new ();
  g_autoptr (GError) error = NULL;
  ProcuraRun *ra, *rb;

  g_assert_true (procura_import_vllm_serve_parse ("a", text, strlen (text), TRUE, a, &error));
  g_assert_no_error (error);
  g_assert_true (procura_import_vllm_serve_parse ("b", text, strlen (text), FALSE, b, &error));
  g_assert_no_error (error);
  ra = g_ptr_array_index (a->runs, 0);
  rb = g_ptr_array_index (b->runs, 0);
  g_assert_cmpint (ra->samples->len, ==, rb->samples->len);
  for (guint i = 0; i < ra->samples->len; i++)
    {
      const ProcuraSamples *sa = g_ptr_array_index (ra->samples, i);
      const ProcuraSamples *sb = procura_run_get_samples (rb, sa->metric);
      g_assert_nonnull (sb);
      g_assert_cmpuint (sa->n, ==, sb->n);
      g_assert_cmpmem (sa->values, sa->n * sizeof (double), sb->values, sb->n * sizeof (double));
    }
  g_assert_cmpint (ra->stats->len, ==, rb->stats->len);
  g_assert_cmpstr (ra->scenario.model, ==, rb->scenario.model);
  g_assert_cmpfloat (ra->scenario.load_value, ==, rb->scenario.load_value);
}

static void
test_impossible_data_warnings (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) r = import_text (
    "{\"backend\": \"vllm\", \"model_id\": \"m\", \"request_rate\": 2.0, \"completed\": 0, \"failed\": 3, "
    "\"mean_ttft_ms\": -5.0, \"median_ttft_ms\": 40.0, \"p99_ttft_ms\": 20.0, \"mean_tpot_ms\": 1.0}",
    NULL, &error);
  ProcuraRun *run;

  g_assert_no_error (error);
  run = g_ptr_array_index (r->runs, 0);
  g_assert_true (has_warning (run, "no request completed"));
  g_assert_true (has_warning (run, "ttft mean is negative"));
  g_assert_true (has_warning (run, "ttft p99 (20 ms) is below p50 (40 ms)"));
  g_assert_cmpint (run->completed, ==, 0);
  g_assert_cmpint (run->failed, ==, 3);
}

static void
test_broken_inputs (void)
{
  static const struct {
    const char *text;
    const char *format;
    int         code;
    const char *needle;
  } cases[] = {
    { "", NULL, PROCURA_IMPORT_ERROR_SYNTAX, "input.json: the file is empty; expected a benchmark result" },
    { " \n\t\r\n", NULL, PROCURA_IMPORT_ERROR_SYNTAX, "input.json: the file holds only white space (5 bytes)" },
    { "hello", NULL, PROCURA_IMPORT_ERROR_UNKNOWN, "input.json: no importer recognises this content; name the format with --format" },
    { "", "vllm-bench-serve", PROCURA_IMPORT_ERROR_SYNTAX, "empty" },
    { "{\"backend\": \"vllm\", \"model_id\": \"m\", \"mean_ttft_ms\": 3, \"mean_tpot_ms\"",
      NULL, PROCURA_IMPORT_ERROR_SYNTAX, "truncated" },
    { "{\"backend\": \"vllm\", \"model_id\": \"m\", \"mean_ttft_ms\": \"fast\", \"mean_tpot_ms\": 1}",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "$.mean_ttft_ms: expected a number, found a string" },
    { "{\"backend\": \"vllm\", \"model_id\": \"m\", \"mean_ttft_ms\": 1, \"mean_tpot_ms\": 1, \"completed\": -4}",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "$.completed: expected a count" },
    { "{\"backend\": \"vllm\", \"model_id\": \"m\", \"mean_ttft_ms\": 1, \"mean_tpot_ms\": 1, \"completed\": 18446744073709551616}",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "$.completed" },
    { "{\"backend\": \"vllm\", \"model_id\": \"m\", \"mean_ttft_ms\": 1, \"mean_tpot_ms\": 1, \"ttfts\": [0.1, 0.2], \"output_lens\": [3]}",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "$.output_lens has 1 entries but $.ttfts has 2" },
    { "{\"backend\": \"vllm\", \"model_id\": 7, \"mean_ttft_ms\": 1, \"mean_tpot_ms\": 1}",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "$.model_id: expected a string, found a number" },
    { "{\"benchmarks\": 3, \"metadata\": {\"version\": 1, \"guidellm_version\": \"0.5\"}}",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "$.benchmarks: expected an array" },
    { "{\"benchmarks\": [{\"metrics\": {\"time_to_first_token_ms\": {\"successful\": {\"mean\": []}}}}], \"metadata\": {\"version\": 2, \"guidellm_version\": \"0.8\"}}",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "$.benchmarks[0].metrics.time_to_first_token_ms.successful.mean: expected a number" },
    { "{\"benchmarks\": [], \"metadata\": {\"version\": 9, \"guidellm_version\": \"9\"}}",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "$.metadata.version: expected 1 or 2" },
    { "{\"tag\": \"x\", \"server_info\": {}, \"mean_ttft_ms\": 1}\n{\"tag\": \"y\", \"server_info\": {}, \"mean_ttft_ms\": [}\n",
      NULL, PROCURA_IMPORT_ERROR_SYNTAX, "input.json:2:" },
    { "{\"tag\": \"x\", \"server_info\": {}, \"mean_ttft_ms\": 1, \"request_rate\": NaN}\n[1]\n",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "input.json:2: expected a JSON object" },
    { "prompt_tokens,generation_tokens,ttft,generation_time\n10,5,0.1,abc\n",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "input.json:2: column “generation_time”: expected a number" },
    { "================================================\nMLPerf Results Summary\nScenario : Server\nMean latency (ns) : twelve\n",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "input.json:4: “Mean latency (ns)”: expected a number of nanoseconds" },
    { "[{\"ttft_s\": \"slow\", \"end_to_end_latency_s\": 1, \"error_code\": null}]",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "$[0].ttft_s: expected a number" },
    { "{\"avg_latency\": 1.0, \"latencies\": [1.0, {}], \"percentiles\": {}}",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "$.latencies[1]: expected a number, found an object" },
    { "{\"time_to_first_token\": {\"unit\": \"furlongs\", \"avg\": 1}, \"request_throughput\": {\"unit\": \"x\", \"avg\": 1}}",
      NULL, PROCURA_IMPORT_ERROR_SCHEMA, "$.time_to_first_token.unit: expected a time unit" },
    { "{\"a\": 1}", "no-such-format", PROCURA_IMPORT_ERROR_UNKNOWN, "unknown format" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ProcuraImportResult) r = import_text (cases[i].text, cases[i].format, &error);

      g_test_message ("case %" G_GSIZE_FORMAT ": %s", i, error ? error->message : "(no error)");
      g_assert_null (r);
      g_assert_error (error, PROCURA_IMPORT_ERROR, cases[i].code);
      if (strstr (error->message, cases[i].needle) == NULL)
        g_error ("case %" G_GSIZE_FORMAT ": “%s” does not contain “%s”", i, error->message, cases[i].needle);
    }
}

static void
test_binary_and_huge (void)
{
  gsize n = 24 * 1024 * 1024;
  g_autofree char *ws = g_malloc (n);
  g_autoptr (GError) error = NULL;
  const char bin[] = "{\"backend\": \"vllm\", \"model_id\": \"\xc3\x28\", \"mean_ttft_ms\": 1, \"mean_tpot_ms\": 1}";
  g_autofree char *deep = NULL;
  GString *d;

  /* 24 MB of white space (the 1 GB case in small): refused quickly, names the file */
  memset (ws, ' ', n);
  ws[n - 1] = '\n';
  g_assert_null (procura_import_data ("blank.json", ws, n, "vllm-bench-serve", NULL, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX);
  g_assert_true (g_str_has_prefix (error->message, "blank.json"));
  g_clear_error (&error);
  /* and detected, not forced: the same plain reason, not a list of formats */
  g_assert_null (procura_import_data ("blank.json", ws, n, NULL, NULL, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX);
  g_assert_cmpstr (error->message, ==, "blank.json: the file holds only white space (25165824 bytes); "
                   "expected a benchmark result, an engine log or a price list");
  g_clear_error (&error);
  /* non-UTF-8 */
  g_assert_null (procura_import_data ("bin.json", bin, sizeof bin - 1, NULL, NULL, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "UTF-8"));
  g_clear_error (&error);
  /* deep nesting inside a recognised document */
  d = g_string_new ("{\"backend\": \"vllm\", \"model_id\": \"m\", \"mean_ttft_ms\": 1, \"mean_tpot_ms\": 1, \"x\": ");
  for (int i = 0; i < 100000; i++)
    g_string_append_c (d, '[');
  deep = g_string_free (d, FALSE);
  g_assert_null (procura_import_data ("deep.json", deep, strlen (deep), NULL, NULL, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_LIMIT);
  g_assert_true (g_str_has_prefix (error->message, "deep.json:1:"));
  g_assert_nonnull (strstr (error->message, "deeper than 512 levels"));
  g_clear_error (&error);
  /* forced to the vLLM importer, the strict check gives the key path too */
  g_assert_null (procura_import_data ("deep.json", deep, strlen (deep), "vllm-bench-serve", NULL, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_LIMIT);
  g_assert_nonnull (strstr (error->message, "$.x"));
}

static void
test_detection (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) r = NULL;
  /* both MLPerf formats claim this text equally: the error lists both */
  const char *both = ":::MLLOG {\"key\": \"result_completed_samples_per_sec\", \"value\": 1}\n"
                     "MLPerf Results Summary\nScenario : Server\n";

  g_assert_null (import_text (both, NULL, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_AMBIGUOUS);
  g_assert_nonnull (strstr (error->message, "mlperf-summary"));
  g_assert_nonnull (strstr (error->message, "mlperf-detail"));
  g_assert_nonnull (strstr (error->message, "--format"));
  g_clear_error (&error);
  /* --format resolves it */
  r = import_text (both, "mlperf-detail", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (r->format, ==, "mlperf-detail");
  g_clear_pointer (&r, procura_import_result_free);
  /* a detail log without a single figure is refused (the empty-run rule), naming the importer */
  {
    const char *none = ":::MLLOG {\"key\": \"x\", \"value\": 1}\nMLPerf Results Summary\nScenario : Server\n";
    g_assert_null (import_text (none, "mlperf-detail", &error));
    g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA);
    g_assert_nonnull (strstr (error->message, "read as mlperf-detail, but none of its 1 runs holds a metric"));
    g_clear_error (&error);
  }
  /* the content decides, not the name: a vLLM result called .csv */
  {
    const char *t = "{\"model_id\": \"m\", \"mean_ttft_ms\": 1.5, \"mean_tpot_ms\": 2}";
    r = procura_import_data ("results.csv", t, strlen (t), NULL, NULL, &error);
  }
  g_assert_no_error (error);
  g_assert_cmpstr (r->format, ==, "vllm-bench-serve");
  g_assert_cmpstr (r->provenance->file_name, ==, "results.csv");
  /* every importer has an id that procura_importer_find() returns */
  for (const ProcuraImporter * const *i = procura_importers (); *i; i++)
    g_assert_true (procura_importer_find ((*i)->id) == *i);
}

/* Bare Infinity in SGLang lines is fixed up outside strings only */
static void
test_sglang_infinity (void)
{
  const char *text = "{\"tag\": \"Infinity and NaN\", \"backend\": \"sglang\", \"request_rate\": Infinity, "
                     "\"max_concurrency\": null, \"server_info\": {\"model_path\": \"q\", \"tp_size\": 2}, "
                     "\"completed\": 10, \"mean_ttft_ms\": 12.5, \"p99_ttft_ms\": NaN, \"mean_e2e_latency_ms\": 100}\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) r = import_text (text, NULL, &error);
  ProcuraRun *run;

  g_assert_no_error (error);
  g_assert_cmpstr (r->format, ==, "sglang-bench-serving");
  run = g_ptr_array_index (r->runs, 0);
  g_assert_cmpstr (run->scenario.load_type, ==, "rate");
  g_assert_true (isinf (run->scenario.load_value));
  g_assert_cmpint (run->scenario.tp, ==, 2);
  g_assert_true (g_str_has_prefix (run->label, "Infinity and NaN"));
  g_assert_cmpfloat (stat_of (run, "e2e", "mean", PROCURA_SOURCE_AS_REPORTED)->value, ==, 100.0);
  /* NaN is unknown: no p99 */
  g_assert_null (stat_of (run, "ttft", "p99", PROCURA_SOURCE_AS_REPORTED));
  g_assert_true (has_warning (run, "no failed-request count"));
}

/* Engine logs: SGLang's KV allocation lines; vLLM with colours and an OOM */
static void
test_engine_logs (void)
{
  const char *sglang =
    "[2025-11-01 10:00:00] Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=73.52 GB, mem usage=5.97 GB.\n"
    "[2025-11-01 10:00:01] KV Cache is allocated. #tokens: 2301748, K size: 39.51 GB, V size: 39.51 GB\n"
    "[2025-11-01 10:00:05] Capture cuda graph end. Time elapsed: 5.12 s. mem usage=0.62 GB. avail mem=1.2 GB.\n";
  const char *vllm =
    "\033[1;36m(APIServer pid=1)\033[0;0m INFO 01-01 00:00:00 [api_server.py:1] vLLM API server version 0.11.0\n"
    "(EngineCore pid=2) INFO 01-01 00:00:01 [core.py:1] Initializing a V1 LLM engine (v0.11.0) with config: "
    "model='org/model', tensor_parallel_size=4, pipeline_parallel_size=2, max_seq_len=32768, kv_cache_dtype=fp8, quantization=None\n"
    "(EngineCore pid=2) INFO 01-01 00:00:09 [gpu_model_runner.py:1] Model loading took 35.5 GiB and 20.0 seconds\n"
    "(EngineCore pid=2) ERROR 01-01 00:00:10 [core.py:1] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) r = NULL;
  ProcuraEngineLog *l;

  r = procura_import_data ("sglang.log", sglang, strlen (sglang), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (r->format, ==, "sglang-log");
  l = g_ptr_array_index (r->engine_logs, 0);
  g_assert_cmpint (l->kv_tokens, ==, 2301748);
  g_assert_cmpfloat_with_epsilon (l->kv_available_gib, 39.51 + 39.51, 1e-9);
  g_assert_cmpfloat (l->weights_gib, ==, 5.97);
  g_assert_cmpfloat (l->cuda_graph_gib, ==, 0.62);
  g_clear_pointer (&r, procura_import_result_free);

  r = procura_import_data ("vllm.log", vllm, strlen (vllm), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (r->format, ==, "vllm-log");
  l = g_ptr_array_index (r->engine_logs, 0);
  g_assert_cmpstr (l->engine_version, ==, "0.11.0");
  g_assert_cmpstr (l->model, ==, "org/model");
  g_assert_cmpint (l->tp, ==, 4);
  g_assert_cmpint (l->pp, ==, 2);
  g_assert_cmpint (l->max_model_len, ==, 32768);
  g_assert_cmpstr (l->kv_dtype, ==, "fp8");
  g_assert_cmpfloat (l->weights_gib, ==, 35.5);
  g_assert_true (isnan (l->kv_available_gib));
  g_assert_cmpuint (l->errors->len, ==, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (l->errors, 0), "CUDA out of memory"));
  g_assert_cmpuint (r->warnings->len, ==, 1);
  g_clear_pointer (&r, procura_import_result_free);

  /* a text that is no log at all */
  g_assert_null (procura_import_data ("x.log", "vLLM API server version", 23, "sglang-log", NULL, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA);
  g_assert_nonnull (strstr (error->message, "expected an SGLang server log"));
}

/* The CLI: a failed import stores nothing; --candidate creates and assigns */
static void
test_cli_nothing_stored (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *project = g_build_filename (dir, "p.procura", NULL);
  g_autofree char *good = g_build_filename (dir, "good.json", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.json", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  int status;

  {
    g_autoptr (ProcuraStore) store = procura_store_create (project, "t", &error);
    g_assert_no_error (error);
    g_assert_nonnull (store);
  }
  g_assert_true (g_file_set_contents (good, "{\"model_id\": \"m\", \"backend\": \"vllm\", \"request_rate\": 1.0, "
                                      "\"completed\": 5, \"mean_ttft_ms\": 10, \"mean_tpot_ms\": 2}", -1, NULL));
  g_assert_true (g_file_set_contents (bad, "{\"model_id\": \"m\", \"mean_ttft_ms\": 10, \"mean_tpot_ms\": [", -1, NULL));

  {
    const char *argv[] = { "import", project, good, bad, "--candidate", "H100 box", NULL };
    status = procura_test_run_cli (argv, &out, &err);
    g_assert_cmpint (status, ==, 1);
    g_assert_nonnull (strstr (err, "bad.json:1:"));
    g_assert_nonnull (strstr (err, "nothing was imported"));
  }
  {
    g_autoptr (ProcuraStore) store = procura_store_open (project, PROCURA_STORE_OPEN_DEFAULT, &error);
    g_autoptr (GPtrArray) runs = NULL;
    g_assert_no_error (error);
    runs = procura_store_list_runs (store, PROCURA_STORE_LOAD_DEFAULT, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (runs->len, ==, 0);
    g_assert_cmpint (procura_store_find_candidate_by_name (store, "H100 box"), ==, 0);
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  {
    const char *argv[] = { "import", project, good, "--candidate", "H100 box", "--json", NULL };
    status = procura_test_run_cli (argv, &out, &err);
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (out, "\"missing\""));
    g_assert_nonnull (strstr (out, "gpu_name"));
  }
  {
    g_autoptr (ProcuraStore) store = procura_store_open (project, PROCURA_STORE_OPEN_DEFAULT, &error);
    g_autoptr (GPtrArray) runs = procura_store_list_runs (store, PROCURA_STORE_LOAD_DEFAULT, &error);
    gint64 cid = procura_store_find_candidate_by_name (store, "H100 box");
    g_assert_no_error (error);
    g_assert_cmpuint (runs->len, ==, 1);
    g_assert_cmpint (cid, >, 0);
    g_assert_cmpint (((ProcuraRun *) g_ptr_array_index (runs, 0))->candidate_id, ==, cid);
  }
  procura_test_rmtree (dir);
}

static void
test_cli_inspect (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *file = g_build_filename (dir, "r.json", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonParser) p = json_parser_new ();
  JsonObject *run, *ttft;
  int status;

  g_assert_true (g_file_set_contents (file, "{\"model_id\": \"m\", \"backend\": \"vllm\", \"request_rate\": \"inf\", "
                                      "\"completed\": 2, \"mean_ttft_ms\": 150, \"mean_tpot_ms\": 2, "
                                      "\"ttfts\": [0.1, 0.2], \"output_lens\": [5, 9], \"itls\": [[0.01], [0.02, 0.03]]}", -1, NULL));
  {
    const char *argv[] = { "inspect", file, "--json", NULL };
    status = procura_test_run_cli (argv, &out, &err);
  }
  g_assert_cmpint (status, ==, 0);
  g_assert_true (json_parser_load_from_data (p, out, -1, NULL));
  run = json_array_get_object_element (json_object_get_array_member (json_node_get_object (json_parser_get_root (p)), "runs"), 0);
  ttft = json_object_get_object_member (json_object_get_object_member (run, "metrics"), "ttft");
  g_assert_cmpstr (json_object_get_string_member (ttft, "source"), ==, "recomputed");
  g_assert_cmpint (json_object_get_int_member (ttft, "samples"), ==, 2);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (ttft, "mean"), 150.0, 1e-9);
  /* numpy: percentile([100, 200], 90) = 190 */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (ttft, "p90"), 190.0, 1e-9);
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (ttft, "as_reported"), "mean"), ==, 150.0);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (run, "scenario"), "load_value"), ==, "inf");
  /* tpot: (0.01) / 4 and (0.05) / 8 s -> 2.5 and 6.25 ms */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_object_get_object_member (
                                    json_object_get_object_member (run, "metrics"), "tpot"), "max"), 6.25, 1e-9);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  {
    const char *argv[] = { "inspect", file, "--format", "guidellm", "--json", NULL };
    status = procura_test_run_cli (argv, &out, &err);
  }
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "$.benchmarks"));
  procura_test_rmtree (dir);
}

/* The sniffers' search: the window's first PROCURA_SNIFF_WINDOW bytes, up to a NUL */
static void
test_sniff_has (void)
{
  gsize len = PROCURA_SNIFF_WINDOW + 64;
  g_autofree char *data = g_malloc (len);

  memset (data, 'x', len);
  g_assert_false (procura_sniff_has (data, len, "\"ttft\""));
  memcpy (data + 100, "\"ttft\"", 6);
  g_assert_true (procura_sniff_has (data, len, "\"ttft\""));
  g_assert_true (procura_sniff_has (data, len, "x\"t"));
  g_assert_false (procura_sniff_has (data, 105, "\"ttft\""));   /* cut by the length */
  g_assert_true (procura_sniff_has (data, 106, "\"ttft\""));
  data[50] = '\0';                                                 /* cut by a NUL */
  g_assert_false (procura_sniff_has (data, len, "\"ttft\""));
  data[50] = 'x';
  memset (data + 100, 'x', 6);
  /* across the end of the window: not seen */
  memcpy (data + PROCURA_SNIFF_WINDOW - 3, "\"ttft\"", 6);
  g_assert_false (procura_sniff_has (data, len, "\"ttft\""));
  memcpy (data + PROCURA_SNIFF_WINDOW - 6, "\"ttft\"", 6);
  g_assert_true (procura_sniff_has (data, len, "\"ttft\""));
  g_assert_true (procura_sniff_has (data, len, "x"));
  g_assert_false (procura_sniff_has (data, 0, "x"));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/import/sniff-has", test_sniff_has);
  g_test_add_func ("/import/recomputed-percentiles", test_recomputed_percentiles);
  g_test_add_func ("/import/many-samples", test_many_samples);
  g_test_add_func ("/import/disagreement-warning", test_disagreement_warning);
  g_test_add_func ("/import/finalize-later", test_finalize_later);
  g_test_add_func ("/import/bulk-path-agrees", test_bulk_path_agrees);
  g_test_add_func ("/import/impossible-data-warnings", test_impossible_data_warnings);
  g_test_add_func ("/import/broken-inputs", test_broken_inputs);
  g_test_add_func ("/import/binary-and-huge", test_binary_and_huge);
  g_test_add_func ("/import/detection", test_detection);
  g_test_add_func ("/import/sglang-infinity", test_sglang_infinity);
  g_test_add_func ("/import/engine-logs", test_engine_logs);
  g_test_add_func ("/import/cli-nothing-stored", test_cli_nothing_stored);
  g_test_add_func ("/import/cli-inspect", test_cli_inspect);
  return g_test_run ();
}
