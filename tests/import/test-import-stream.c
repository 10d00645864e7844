/* test-import-stream.c: a big vLLM result read in chunks says what the whole-file read
 * says, and the fast number reader rounds as strtod does
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <fcntl.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "procura-import.h"
#include "procura-json-stream.h"

/* ------------------------------------------------------------------------- */
/* Numbers                                                                    */

static void
check_number (const char *s)
{
  double want = g_ascii_strtod (s, NULL), got = -12345.0;
  gboolean is_int;
  gsize n = procura_json_number_scan (s, s + strlen (s), &got, &is_int);

  if (n != strlen (s))
    g_error ("“%s”: read %" G_GSIZE_FORMAT " characters", s, n);
  if (memcmp (&want, &got, sizeof want) != 0 && !(isnan (want) && isnan (got)))
    g_error ("“%s”: %.17g, strtod says %.17g", s, got, want);
  g_assert_true (is_int == (strpbrk (s, ".eE") == NULL));
}

static void
test_number_edges (void)
{
  static const char * const good[] = {
    "0", "-0", "0.0", "-0.0", "1", "-1", "9007199254740993", "9007199254740992",
    "18446744073709551615", "18446744073709551616", "123456789012345678901234567890",
    "0.1", "0.2", "0.30000000000000004", "1e22", "1e23", "1e-22", "1e-23", "1.7976931348623157e308",
    "2.2250738585072014e-308", "4.9e-324", "5e-324", "2.4703282292062327e-324", "1e-400",
    "1e400", "-1e400", "0.016782972473072824", "0.01350117033344718", "7.2057594037927933e16",
    "9.999999999999999e22", "1.00000000000000011102230246251565404236316680908203125",
    "1.00000000000000011102230246251565404236316680908203124",
    "1.00000000000000011102230246251565404236316680908203126",
    "0.000000000000000000000000000001", "123456789012345678e-27", "123456789012345678e27",
    "999999999999999999e-27", "100000000000000000e-17", "1E5", "1e+5", "1e-5", "1.5E-3",
    "3.0517578125e-05", "8.98846567431158e307", "0.1e1", "123.456e-2",
    "9007199254740993e-17", "4503599627370497.5", "4503599627370496.5", "2251799813685248.25",
    "1125899906842624.125", "1125899906842624.1250000001", "1125899906842624.1249999999",
    "9999999999999999999e-27", "1e-27", "18446744073709551615e-27", "0.000000000000000000000000001", "2.00000000000000011102230246251565404236316680908203125",
  };
  static const char * const bad[] = { "", "-", "+1", ".5", "1.", "1e", "1e+", "01", "-.5", "x" };

  for (gsize i = 0; i < G_N_ELEMENTS (good); i++)
    check_number (good[i]);
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      double d;
      gsize n = procura_json_number_scan (bad[i], bad[i] + strlen (bad[i]), &d, NULL);
      /* "01" reads as "0"; the rest start with no number at all */
      g_assert_cmpuint (n, ==, g_str_equal (bad[i], "01") ? 1 : 0);
    }
}

/* Random doubles printed every way a benchmark tool prints them, and random digit
 * strings near the halfway points: each read exactly as strtod reads it. */
static void
test_number_random (void)
{
  GRand *rand = g_rand_new_with_seed (19);
  guint count = g_test_slow () ? 20000000 : 2000000;
  char buf[128];

  for (guint i = 0; i < count; i++)
    {
      union { guint64 u; double d; } bits;
      double v;

      switch (i % 6)
        {
        case 0:   /* any finite double, shortest-ish and full precision */
          do
            {
              bits.u = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
              v = bits.d;
            }
          while (!isfinite (v));
          g_snprintf (buf, sizeof buf, "%.17g", v);
          break;
        case 1:   /* latencies in seconds as Python prints them */
          v = exp (g_rand_double_range (rand, -12, 4));
          g_snprintf (buf, sizeof buf, "%.*g", g_rand_int_range (rand, 1, 18), v);
          break;
        case 2:   /* halfway and near-halfway decimals */
          {
            double a = exp (g_rand_double_range (rand, -30, 30));
            double b = nextafter (a, INFINITY);
            g_snprintf (buf, sizeof buf, "%.25e", a / 2 + b / 2);
            /* cut to 16..20 significant digits: near the halfway point, not on it */
            buf[2 + g_rand_int_range (rand, 15, 19)] = '\0';
            break;
          }
        case 3:   /* integers */
          g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT,
                      (gint64) (((guint64) g_rand_int (rand) << 32) | g_rand_int (rand)) >> g_rand_int_range (rand, 0, 63));
          break;
        case 4:   /* fixed notation */
          v = g_rand_double_range (rand, -1000, 1000);
          g_snprintf (buf, sizeof buf, "%.*f", g_rand_int_range (rand, 0, 20), v);
          break;
        default:  /* random digit strings with exponents */
          {
            int nd = g_rand_int_range (rand, 1, 22), k = 0;

            if (g_rand_boolean (rand))
              buf[k++] = '-';
            buf[k++] = (char) ('1' + g_rand_int_range (rand, 0, 9));
            for (int j = 1; j < nd; j++)
              {
                if (j == 1 && g_rand_boolean (rand))
                  buf[k++] = '.';
                buf[k++] = (char) ('0' + g_rand_int_range (rand, 0, 10));
              }
            g_snprintf (buf + k, sizeof buf - (gsize) k, "e%d", g_rand_int_range (rand, -40, 40));
            break;
          }
        }
      /* "%.17g" may print "1e+100" or "inf": keep to JSON */
      if (strstr (buf, "inf") || strstr (buf, "nan"))
        continue;
      if (buf[strlen (buf) - 1] == '.')
        continue;
      check_number (buf);
    }
  g_rand_free (rand);
}

/* ------------------------------------------------------------------------- */
/* Whole files                                                                */

/* A vLLM bench serve result of @n requests, numbers printed several ways, with
 * failed requests, nulls, texts that need escapes and a nested member. */
static char *
make_result (guint n,
             guint seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  GString *s = g_string_new ("{\"date\": \"20260101-000000\", \"backend\": \"vllm\", "
                             "\"model_id\": \"meta-llama/Llama-3.1-8B-Instruct\", "
                             "\"num_prompts\": 0, \"request_rate\": \"inf\", "
                             "\"burstiness\": 1.0, \"max_concurrency\": 64, \"duration\": 12.5, "
                             "\"label\": null, "
                             "\"mean_ttft_ms\": 150.25, \"median_ttft_ms\": 132.5, "
                             "\"std_ttft_ms\": 20.0, \"p99_ttft_ms\": 400.0, \"mean_tpot_ms\": 14.0, "
                             "\"mean_itl_ms\": 14.0, \"p99_itl_ms\": 30.0, "
                             "\"metadata\": {\"gpu\": \"H100\", \"tp\": 2, \"nested\": [1, 2.5, true, null]}, "
                             "\"note\": \"caf\\u00e9 \\\"quoted\\\" \\ud83d\\ude00 \xc3\xa9\", ");
  const char *const sep[] = { ",", ", ", " ,\n " };

  g_string_append (s, "\"input_lens\": [");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%d", i ? sep[i % 3] : "", g_rand_int_range (rand, 100, 2000));
  g_string_append (s, "], \"output_lens\": [");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%d", i ? ", " : "", 40 + (int) (i % 7));
  g_string_append (s, "], \"ttfts\": [");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%.17g", i ? ", " : "", g_rand_double_range (rand, 0.01, 2.0));
  g_string_append (s, "], \"itls\": [");
  for (guint i = 0; i < n; i++)
    {
      g_string_append (s, i ? ", [" : "[");
      for (guint j = 0; j < 39 + i % 7; j++)
        {
          double v = exp (g_rand_double_range (rand, -6, -2));

          if (j % 50 == 49)
            g_string_append_printf (s, "%s%.6e", j ? ", " : "", v);
          else
            g_string_append_printf (s, "%s%.*g", j ? ", " : "", 12 + (int) (j % 6), v);
        }
      g_string_append (s, "]");
    }
  g_string_append (s, "], \"latencies\": [");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%.17g", i ? ", " : "", g_rand_double_range (rand, 1.0, 9.0));
  g_string_append (s, "], \"generated_texts\": [");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s\"text %u: \\\"line\\\"\\n\\t\xe2\x82\xac \\u00fc\"", i ? ", " : "", i);
  g_string_append (s, "], \"errors\": [");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s\"%s\"", i ? ", " : "", i % 97 == 5 ? "timeout" : "");
  g_string_append (s, "]}\n");
  g_rand_free (rand);
  return g_string_free (s, FALSE);
}

static char *
write_temp (const char *text,
            gsize       len)
{
  g_autoptr (GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("procura-stream-XXXXXX.json", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, text, (gssize) len, &error);
  g_assert_no_error (error);
  return path;
}

static void
assert_same_result (ProcuraImportResult *a,
                    ProcuraImportResult *b)
{
  g_assert_cmpuint (a->runs->len, ==, b->runs->len);
  g_assert_cmpstr (a->format, ==, b->format);
  g_assert_cmpstr (a->format_version, ==, b->format_version);
  g_assert_cmpuint (a->warnings->len, ==, b->warnings->len);
  g_assert_cmpstr (a->provenance->sha256, ==, b->provenance->sha256);
  g_assert_cmpint (a->provenance->size, ==, b->provenance->size);
  for (guint r = 0; r < a->runs->len; r++)
    {
      ProcuraRun *ra = g_ptr_array_index (a->runs, r);
      ProcuraRun *rb = g_ptr_array_index (b->runs, r);

      g_assert_cmpstr (ra->label, ==, rb->label);
      g_assert_cmpint (ra->completed, ==, rb->completed);
      g_assert_cmpint (ra->failed, ==, rb->failed);
      g_assert_cmpstr (ra->scenario.model, ==, rb->scenario.model);
      g_assert_cmpstr (ra->scenario.gpu_name, ==, rb->scenario.gpu_name);
      g_assert_cmpint (ra->scenario.tp, ==, rb->scenario.tp);
      g_assert_cmpstr (ra->extras_json, ==, rb->extras_json);
      g_assert_cmpuint (ra->warnings->len, ==, rb->warnings->len);
      for (guint i = 0; i < ra->warnings->len; i++)
        g_assert_cmpstr (g_ptr_array_index (ra->warnings, i), ==, g_ptr_array_index (rb->warnings, i));
      g_assert_cmpuint (ra->samples->len, ==, rb->samples->len);
      g_assert_cmpuint (ra->samples->len, >=, 5);
      for (guint i = 0; i < ra->samples->len; i++)
        {
          const ProcuraSamples *sa = g_ptr_array_index (ra->samples, i);
          const ProcuraSamples *sb = procura_run_get_samples (rb, sa->metric);

          g_assert_nonnull (sb);
          g_assert_cmpuint (sa->n, ==, sb->n);
          g_assert_cmpmem (sa->values, sa->n * sizeof (double), sb->values, sb->n * sizeof (double));
        }
      g_assert_cmpuint (ra->stats->len, ==, rb->stats->len);
      for (guint i = 0; i < ra->stats->len; i++)
        {
          const ProcuraStat *sa = g_ptr_array_index (ra->stats, i);
          const ProcuraStat *sb = g_ptr_array_index (rb->stats, i);

          g_assert_cmpstr (sa->metric, ==, sb->metric);
          g_assert_cmpstr (sa->stat, ==, sb->stat);
          g_assert_cmpint (sa->source, ==, sb->source);
          g_assert_true (sa->value == sb->value || (isnan (sa->value) && isnan (sb->value)));
        }
    }
}

/* The chunked read of a file gives the run the whole-buffer read gives, sample for
 * sample, with the same SHA-256 (hashed on another thread from the reader's own buffers,
 * which it fills in turn: more chunks than buffers, so each is read over at least once) */
static void
test_stream_agrees (void)
{
  g_autofree char *text = make_result (9000, 7);
  gsize len = strlen (text);
  g_autofree char *path = write_temp (text, len);
  g_autofree char *base = g_path_get_basename (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) a = NULL;
  g_autoptr (ProcuraImportResult) b = NULL;
  g_autofree char *sha = NULL;
  ProcuraRun *run;

  g_assert_cmpuint (len, >, (PROCURA_JSON_CHUNKS_KEPT + 1) * 1024 * 1024);
  a = procura_import_file (path, NULL, NULL, &error);
  g_assert_no_error (error);
  b = procura_import_data (base, text, len, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_same_result (a, b);
  sha = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) text, len);
  g_assert_cmpstr (a->provenance->sha256, ==, sha);
  run = g_ptr_array_index (a->runs, 0);
  g_assert_cmpint (run->failed, ==, 93);   /* every 97th request, from the 6th */
  g_assert_cmpuint (procura_run_get_samples (run, "ttft")->n, ==, 9000 - 93);
  g_test_message ("%u samples sets, sha %s", run->samples->len, a->provenance->sha256);
  g_unlink (path);
}

/* Whether this process has mapped a file whose name contains @name */
static gboolean
mapped (const char *name)
{
  g_autofree char *maps = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  return strstr (maps, name) != NULL;
}

/* simdjson (and the libstdc++ it needs) is a module loaded by the first whole-buffer
 * read of a big object: a process that only reads files in chunks never maps it, one
 * that reads from memory loads it once and gets the same run (in a fresh process) */
static void
test_stream_module_lazy (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *text = make_result (2500, 11);
      gsize len = strlen (text);
      g_autofree char *path = write_temp (text, len);
      g_autofree char *base = g_path_get_basename (path);
      g_autoptr (GError) error = NULL;
      g_autoptr (ProcuraImportResult) a = NULL;
      g_autoptr (ProcuraImportResult) b = NULL;

      g_assert_cmpuint (len, >=, 1024 * 1024);
      g_assert_false (mapped ("procura-simdjson"));
      g_assert_false (mapped ("libsimdjson"));
      a = procura_import_file (path, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_false (mapped ("procura-simdjson"));
      g_assert_false (mapped ("libsimdjson"));

      b = procura_import_data (base, text, len, NULL, NULL, &error);
      g_assert_no_error (error);
      assert_same_result (a, b);
      g_assert_cmpint (procura_json_bulk_available (), ==, HAVE_SIMDJSON);
      g_assert_cmpint (mapped ("procura-simdjson.so"), ==, HAVE_SIMDJSON);
      g_assert_cmpint (mapped ("libsimdjson"), ==, HAVE_SIMDJSON);
      if (HAVE_SIMDJSON)
        {
          static const char *const none[] = { NULL };
          static const char doc[] = "{\"a\": [1, 2.5, 3e2], \"b\": {\"c\": true}}";
          g_autoptr (ProcuraBulkDoc) bulk = procura_json_bulk_parse (doc, strlen (doc), none);
          ProcuraBulkArray *arr;

          g_assert_nonnull (bulk);
          arr = procura_json_bulk_get (bulk, "a");
          g_assert_nonnull (arr);
          g_assert_cmpuint (arr->n, ==, 3);
          g_assert_cmpfloat (arr->values[1], ==, 2.5);
          g_assert_cmpfloat (arr->values[2], ==, 300.0);
          g_assert_true (json_object_has_member (bulk->members, "b"));
          g_assert_null (procura_json_bulk_parse ("{\"a\": [1,", 9, none));
        }
      g_unlink (path);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* What the chunked reader declines (or finds broken) ends as the whole-file read
 * ends: the same error, naming the same file and place */
static void
test_stream_broken (void)
{
  g_autofree char *text = make_result (4000, 3);
  gsize len = strlen (text);
  static const struct {
    const char *find;
    const char *put;
  } edits[] = {
    { "\"burstiness\": 1.0", "\"burstiness\": NaN" },                    /* json-glib's extension */
    { "\"ttfts\": [", "\"ttfts\": [\"x\", " },                          /* a string among numbers */
    { "\"itls\": [[", "\"itls\": [[{}, " },                              /* an object in a row */
    { "\"max_concurrency\": 64", "\"max_concurrency\": -0" },           /* left to the usual path */
    { "\"max_concurrency\": 64", "\"max_concurrency\": 99999999999999999999" },
    { "\"generated_texts\": [\"text", "\"generated_texts\": [\"\xff text" }, /* not UTF-8 */
    { "\"output_lens\": [40", "\"output_lens\": [40, 41" },              /* a shape error */
    { "\"errors\": [", "\"errors\": [1e999, " },
    { "\"label\": null", "\"label\": nul" },
    { "]}\n", "]} x" },                                                   /* something after */
    { "]}\n", "]" },                                                      /* truncated */
  };

  for (gsize i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      const char *at = strstr (text, edits[i].find);
      g_autoptr (GString) s = g_string_new_len (text, (gssize) len);
      g_autofree char *path = NULL;
      g_autofree char *base = NULL;
      g_autoptr (GError) ea = NULL;
      g_autoptr (GError) eb = NULL;
      g_autoptr (ProcuraImportResult) a = NULL;
      g_autoptr (ProcuraImportResult) b = NULL;

      g_assert_nonnull (at);
      if (g_str_equal (edits[i].find, "]}\n"))
        at = text + len - 3;
      g_string_erase (s, at - text, (gssize) strlen (edits[i].find));
      g_string_insert (s, at - text, edits[i].put);
      path = write_temp (s->str, s->len);
      base = g_path_get_basename (path);
      a = procura_import_file (path, "vllm-bench-serve", NULL, &ea);
      b = procura_import_data (base, s->str, s->len, "vllm-bench-serve", NULL, &eb);
      g_test_message ("edit %" G_GSIZE_FORMAT ": %s", i, ea ? ea->message : "(accepted)");
      g_assert_true ((a == NULL) == (b == NULL));
      if (a == NULL)
        {
          g_assert_nonnull (ea);
          g_assert_nonnull (eb);
          g_assert_cmpstr (ea->message, ==, eb->message);
          g_assert_cmpint (ea->code, ==, eb->code);
        }
      else
        assert_same_result (a, b);
      g_unlink (path);
    }
}

/* Every real vLLM result, through both bulk readers: the chunked one takes a file
 * only where simdjson takes it, and then reads it member for member the same way */
static void
test_stream_fixtures (void)
{
  static const char * const skip[] = { "generated_texts", "start_times", NULL };
  const char *root = g_getenv ("PROCURA_FIXTURES_DIR");
  g_autofree char *dir_path = NULL;
  g_autoptr (GDir) dir = NULL;
  const char *entry;
  guint seen = 0, taken = 0;

  if (root == NULL || !procura_json_bulk_available ())
    {
      g_test_skip ("PROCURA_FIXTURES_DIR is not set, or no simdjson");
      return;
    }
  dir_path = g_build_filename (root, "vllm-bench-serve", NULL);
  dir = g_dir_open (dir_path, 0, NULL);
  if (dir == NULL)
    {
      g_test_skip ("no vllm-bench-serve fixtures");
      return;
    }
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, entry, NULL);
      g_autofree char *text = NULL;
      gsize len = 0;
      g_autoptr (ProcuraBulkDoc) a = NULL;
      g_autoptr (ProcuraBulkDoc) b = NULL;
      int fd;

      if (!g_file_get_contents (path, &text, &len, NULL))
        continue;
      seen++;
      a = procura_json_bulk_parse (text, len, skip);
      fd = g_open (path, O_RDONLY, 0);
      g_assert_cmpint (fd, >=, 0);
      b = procura_json_bulk_parse_fd (fd, len, skip, NULL, NULL, NULL);
      close (fd);
      g_test_message ("%s: simdjson %s, chunked %s", entry, a ? "takes it" : "declines",
                      b ? "takes it" : "declines");
      if (b == NULL)
        continue;
      g_assert_nonnull (a);
      taken++;
      {
        g_autoptr (JsonNode) na = json_node_init_object (json_node_alloc (), a->members);
        g_autoptr (JsonNode) nb = json_node_init_object (json_node_alloc (), b->members);
        g_assert_true (json_node_equal (na, nb));
      }
      g_assert_cmpuint (a->arrays->len, ==, b->arrays->len);
      for (guint i = 0; i < a->arrays->len; i++)
        {
          ProcuraBulkArray *x = g_ptr_array_index (a->arrays, i);
          ProcuraBulkArray *y = g_ptr_array_index (b->arrays, i);

          g_assert_cmpstr (x->name, ==, y->name);
          g_assert_cmpuint (x->n, ==, y->n);
          g_assert_cmpint (x->nested, ==, y->nested);
          g_assert_cmpint (x->strings, ==, y->strings);
          g_assert_cmpmem (x->values, x->n * sizeof (double), y->values, y->n * sizeof (double));
          g_assert_cmpuint (x->rows, ==, y->rows);
          if (x->nested)
            {
              g_assert_cmpmem (x->row_sum, x->rows * sizeof (double), y->row_sum, y->rows * sizeof (double));
              g_assert_cmpmem (x->row_len, x->rows * sizeof (guint32), y->row_len, y->rows * sizeof (guint32));
            }
        }
    }
  g_test_message ("%u fixtures, %u read by both", seen, taken);
  g_assert_cmpuint (taken, >, 0);
}

/* ------------------------------------------------------------------------- */
/* The second reader of a list of lists                                       */

/* A list of lists written into @s, and what any reader must make of it */
typedef struct {
  GArray *values;    /* double */
  GArray *row_sum;   /* double */
  GArray *row_len;   /* guint32 */
} Expected;

static void
expected_clear (Expected *e)
{
  g_array_unref (e->values);
  g_array_unref (e->row_sum);
  g_array_unref (e->row_len);
}

/* @rows inner lists of 0 to 299 values in every spelling the grammar allows: nulls, empty
 * lists, integers, exponents, white space of each kind around every token; @odd (when
 * not NULL) is written as the middle value of row @odd_row (40 values long). */
static void
write_lists (GString    *s,
             Expected   *e,
             GRand      *rand,
             guint       rows,
             guint       odd_row,
             const char *odd)
{
  static const char * const space[] = { "", " ", "\n  ", "\t", " \r\n" };

  e->values = g_array_new (FALSE, FALSE, sizeof (double));
  e->row_sum = g_array_new (FALSE, FALSE, sizeof (double));
  e->row_len = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_string_append (s, "[");
  for (guint r = 0; r < rows; r++)
    {
      guint len = g_rand_int_range (rand, 0, 10) == 0 ? 0 : (guint) g_rand_int_range (rand, 1, 300);

      if (odd != NULL && r == odd_row)
        len = 40;
      double sum = 0;

      if (r > 0)
        g_string_append_printf (s, "%s,%s", space[r % 5], space[(r / 5) % 5]);
      g_string_append_printf (s, "[%s", space[(r / 3) % 5]);
      for (guint i = 0; i < len; i++)
        {
          double v;

          if (i > 0)
            g_string_append_printf (s, "%s,%s", space[(r + i) % 5 == 0 ? 1 : 0], space[(i % 7) == 0 ? 2 : 0]);
          if (odd != NULL && r == odd_row && i == len / 2)
            {
              g_string_append (s, odd);
              v = g_ascii_strtod (odd, NULL);
            }
          else if (i % 97 == 13)
            {
              g_string_append (s, "null");
              v = NAN;
            }
          else if (i % 31 == 7)
            {
              v = (double) g_rand_int_range (rand, 0, 100000);
              g_string_append_printf (s, "%.0f", v);
            }
          else
            {
              char buf[G_ASCII_DTOSTR_BUF_SIZE];

              v = exp (g_rand_double_range (rand, -9, 3));
              if (i % 11 == 3)
                g_ascii_formatd (buf, sizeof buf, "%.6e", v);
              else
                g_ascii_formatd (buf, sizeof buf, "%.17g", v);
              v = g_ascii_strtod (buf, NULL);
              g_string_append (s, buf);
            }
          g_array_append_val (e->values, v);
          sum += v;
        }
      g_string_append_printf (s, "%s]", space[(r / 2) % 5]);
      g_array_append_val (e->row_sum, sum);
      g_array_append_val (e->row_len, len);
    }
  g_string_append (s, "]");
}

static void
assert_lists (ProcuraBulkDoc *doc,
              const char     *name,
              const Expected *e)
{
  ProcuraBulkArray *a = procura_json_bulk_get (doc, name);

  g_assert_nonnull (a);
  g_assert_true (a->nested);
  g_assert_cmpuint (a->n, ==, e->values->len);
  g_assert_cmpuint (a->rows, ==, e->row_len->len);
  /* bit for bit: NaN for null included */
  g_assert_cmpmem (a->values, a->n * sizeof (double), e->values->data, e->values->len * sizeof (double));
  g_assert_cmpmem (a->row_sum, a->rows * sizeof (double), e->row_sum->data, e->row_sum->len * sizeof (double));
  g_assert_cmpmem (a->row_len, a->rows * sizeof (guint32), e->row_len->data, e->row_len->len * sizeof (guint32));
}

static ProcuraBulkDoc *
parse_text_fd (const GString *s)
{
  static const char * const skip[] = { "generated_texts", NULL };
  g_autofree char *path = write_temp (s->str, s->len);
  ProcuraBulkDoc *doc;
  int fd = g_open (path, O_RDONLY, 0);

  g_assert_cmpint (fd, >=, 0);
  doc = procura_json_bulk_parse_fd (fd, s->len, skip, NULL, NULL, NULL);
  close (fd);
  g_unlink (path);
  return doc;
}

/* The parse of @s, and how often the second reader's work was kept and dropped in it */
static ProcuraBulkDoc *
parse_counting_lanes (const GString *s,
                      guint         *kept,
                      guint         *dropped)
{
  guint kept0, dropped0;
  ProcuraBulkDoc *doc;

  procura_json_stream_get_lane_counts (&kept0, &dropped0);
  doc = parse_text_fd (s);
  procura_json_stream_get_lane_counts (kept, dropped);
  *kept -= kept0;
  *dropped -= dropped0;
  return doc;
}

/* Megabytes of lists of lists: the second reader takes part, and what comes out is
 * what was written, value for value, row for row, in every spelling */
static void
test_lane_agrees (void)
{
  GRand *rand = g_rand_new_with_seed (11);
  g_autoptr (GString) s = g_string_new ("{\"a\": 1, \"itls\": ");
  g_autoptr (ProcuraBulkDoc) doc = NULL;
  Expected e1, e2;
  guint kept, dropped;

  write_lists (s, &e1, rand, 2500, 0, NULL);
  g_string_append (s, ", \"b\": \"x\", \"more\": ");
  write_lists (s, &e2, rand, 1500, 0, NULL);
  g_string_append (s, "}");
  g_assert_cmpuint (s->len, >, 4 * 1024 * 1024);
  doc = parse_counting_lanes (s, &kept, &dropped);
  g_assert_nonnull (doc);
  assert_lists (doc, "itls", &e1);
  assert_lists (doc, "more", &e2);
  g_test_message ("%u lanes kept, %u dropped", kept, dropped);
  g_assert_cmpuint (kept, >=, 4);
  expected_clear (&e1);
  expected_clear (&e2);
  g_rand_free (rand);
}

/* The second reader guesses that a '[' past the middle of the buffer opens an inner
 * list; where the list of lists ends before it (the '[' is in a string, or in the next
 * list of lists), its work is dropped and nothing of it shows */
static void
test_lane_false_start (void)
{
  for (int variant = 0; variant < 2; variant++)
    {
      GRand *rand = g_rand_new_with_seed (5 + variant);
      g_autoptr (GString) s = g_string_new ("{\"itls\": ");
      g_autoptr (ProcuraBulkDoc) doc = NULL;
      Expected e1, e2;
      guint kept, dropped;

      write_lists (s, &e1, rand, 3, 0, NULL);
      if (variant == 0)
        {
          /* a skipped member of strings that read like inner lists */
          g_string_append (s, ", \"generated_texts\": [");
          for (guint i = 0; i < 40000; i++)
            g_string_append_printf (s, "%s\"[0.5, 1.5], [2.5, %u], [\"", i ? ", " : "", i);
          g_string_append (s, "], \"more\": ");
          write_lists (s, &e2, rand, 20, 0, NULL);
        }
      else
        {
          /* the next member is a list of lists too */
          g_string_append (s, ", \"more\": ");
          write_lists (s, &e2, rand, 3000, 0, NULL);
        }
      g_string_append (s, "}");
      doc = parse_counting_lanes (s, &kept, &dropped);
      g_assert_nonnull (doc);
      assert_lists (doc, "itls", &e1);
      assert_lists (doc, "more", &e2);
      g_test_message ("variant %d: %u lanes kept, %u dropped", variant, kept, dropped);
      g_assert_cmpuint (dropped, >=, 1);
      expected_clear (&e1);
      expected_clear (&e2);
      g_rand_free (rand);
    }
}

/* What the second reader is unsure of, the reader reads itself: a value it refuses
 * refuses the file, as without it; a token longer than the lane reads is read right */
static void
test_lane_odd_values (void)
{
  static const struct {
    const char *odd;
    gboolean    taken;
  } cases[] = {
    { "1e400", FALSE },          /* infinite */
    { "1e-400", FALSE },         /* underflow to 0 */
    { "01.5", FALSE },           /* a leading zero */
    { "\"7\"", FALSE },          /* a string in a list of numbers */
    { "0.000000000000000000000000000000000000000000000000000000000000000000000000001234567", TRUE },
    { "123456789012345678901234567890123456789012345678901234567890123456789012345", TRUE },
    { "-0.0", TRUE },
  };

  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    for (guint where = 0; where < 3; where++)
      {
        GRand *rand = g_rand_new_with_seed (17 + c);
        g_autoptr (GString) s = g_string_new ("{\"itls\": ");
        g_autoptr (ProcuraBulkDoc) doc = NULL;
        /* in the first buffer's second half, near its end, and in a later buffer
         * (some 340 rows to a buffer of 1 MiB) */
        guint rows = 700, row = where == 0 ? 250 : where == 1 ? 336 : 600;
        Expected e;

        write_lists (s, &e, rand, rows, row, cases[c].odd);
        g_string_append (s, "}");
        doc = parse_text_fd (s);
        g_test_message ("“%s” at row %u: %s", cases[c].odd, row, doc ? "taken" : "refused");
        if (!cases[c].taken)
          g_assert_null (doc);
        else
          {
            g_assert_nonnull (doc);
            assert_lists (doc, "itls", &e);
          }
        expected_clear (&e);
        g_rand_free (rand);
      }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/import/stream/number-edges", test_number_edges);
  g_test_add_func ("/import/stream/number-random", test_number_random);
  g_test_add_func ("/import/stream/agrees", test_stream_agrees);
  g_test_add_func ("/import/stream/broken", test_stream_broken);
  g_test_add_func ("/import/stream/module-lazy", test_stream_module_lazy);
  g_test_add_func ("/import/stream/fixtures", test_stream_fixtures);
  g_test_add_func ("/import/stream/lane-agrees", test_lane_agrees);
  g_test_add_func ("/import/stream/lane-false-start", test_lane_false_start);
  g_test_add_func ("/import/stream/lane-odd-values", test_lane_odd_values);
  return g_test_run ();
}
