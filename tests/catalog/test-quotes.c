/* test-quotes.c: Procura's quote file, the gpuhunt importer, staleness
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "procura-quotes.h"
#include "procura-test-util.h"

static char *
read_data (const char *name,
           gsize      *len)
{
  g_autofree char *path = g_build_filename (CATALOG_TEST_DATA, name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, len, NULL));
  return text;
}

static void
assert_same (double a,
             double b)
{
  if (isnan (a))
    g_assert_true (isnan (b));
  else
    g_assert_cmpfloat (a, ==, b);
}

static char *
date_days_ago (int days)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) then = g_date_time_add_days (now, -days);

  return g_date_time_format (then, "%Y-%m-%d");
}

static void
test_example (void)
{
  gsize len = 0;
  g_autofree char *text = read_data ("quotes-example.json", &len);
  g_autoptr(ProcuraImportResult) r = procura_import_result_new ();
  g_autoptr(GError) error = NULL;
  ProcuraQuote *q;

  g_assert_cmpint (procura_importer_quote_json.sniff (text, len), ==, 100);
  g_assert_true (procura_importer_quote_json.parse ("quotes-example.json", text, len, r, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (r->quotes->len, ==, 3);

  q = g_ptr_array_index (r->quotes, 0);
  g_assert_cmpint (q->kind, ==, PROCURA_QUOTE_GPU);
  g_assert_cmpstr (q->provider, ==, "Example Cloud");
  g_assert_cmpstr (q->gpu_id, ==, "h100-sxm-80gb");
  g_assert_cmpint (q->gpu_count, ==, 8);
  g_assert_cmpfloat (procura_quote_price_per_gpu_hour (q), ==, 23.92 / 8);
  g_assert_cmpstr (q->pricing_model, ==, "on-demand");
  g_assert_cmpstr (q->currency, ==, "USD");
  g_assert_cmpfloat (q->egress_per_gb, ==, 0.05);
  g_assert_cmpfloat (q->support_pct, ==, 3);
  g_assert_cmpstr (q->seen_date, ==, "2026-11-20");

  q = g_ptr_array_index (r->quotes, 1);
  g_assert_cmpstr (q->pricing_model, ==, "committed");
  g_assert_cmpfloat (q->term_months, ==, 12);
  g_assert_cmpfloat (q->min_commitment, ==, 150000);
  g_assert_cmpstr (q->gpu_id, ==, "h100-sxm-80gb");
  g_assert_true (isnan (q->egress_per_gb));

  q = g_ptr_array_index (r->quotes, 2);
  g_assert_cmpint (q->kind, ==, PROCURA_QUOTE_API);
  g_assert_cmpstr (q->api_model, ==, "example-large");
  g_assert_cmpfloat (q->price_input_per_mtok, ==, 2.5);
  g_assert_cmpfloat (q->price_cached_per_mtok, ==, 1.25);
  g_assert_cmpfloat (q->price_output_per_mtok, ==, 10);
  g_assert_cmpfloat (q->rate_limit_tpm, ==, 2000000);
}

static void
test_round_trip (void)
{
  gsize len = 0;
  g_autofree char *text = read_data ("quotes-example.json", &len);
  g_autoptr(ProcuraImportResult) a = procura_import_result_new ();
  g_autoptr(ProcuraImportResult) b = procura_import_result_new ();
  g_autofree char *written = NULL;

  g_assert_true (procura_importer_quote_json.parse ("a.json", text, len, a, NULL, NULL));
  written = procura_quotes_to_json ((const ProcuraQuote * const *) a->quotes->pdata, a->quotes->len);
  g_assert_true (procura_importer_quote_json.parse ("b.json", written, strlen (written), b, NULL, NULL));
  g_assert_cmpuint (b->quotes->len, ==, a->quotes->len);
  for (guint i = 0; i < a->quotes->len; i++)
    {
      ProcuraQuote *x = g_ptr_array_index (a->quotes, i), *y = g_ptr_array_index (b->quotes, i);
      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpstr (x->gpu_name, ==, y->gpu_name);
      assert_same (x->price_per_hour, y->price_per_hour);
      assert_same (x->term_months, y->term_months);
      assert_same (x->min_commitment, y->min_commitment);
      assert_same (x->support_pct, y->support_pct);
      g_assert_cmpstr (x->seen_date, ==, y->seen_date);
      g_assert_cmpstr (x->gpu_id, ==, y->gpu_id);
      assert_same (x->price_output_per_mtok, y->price_output_per_mtok);
      assert_same (x->rate_limit_rpm, y->rate_limit_rpm);
    }
}

/* A bad file: the error names the file and the key path, and the result is untouched */
static void
check_bad (const char *body,
           int         code,
           const char *fragment)
{
  g_autofree char *text = g_strdup_printf ("{\"procura_quotes\": 1, \"quotes\": [\n"
                                           "{\"provider\": \"A\", \"gpu\": \"H100\", \"gpu_count\": 8, "
                                           "\"price_per_hour\": 20, \"seen\": \"2026-11-01\"},\n%s]}", body);
  g_autoptr(ProcuraImportResult) r = procura_import_result_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (procura_importer_quote_json.parse ("bad.json", text, strlen (text), r, NULL, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, code);
  if (strstr (error->message, fragment) == NULL)
    g_error ("\"%s\" lacks \"%s\"", error->message, fragment);
  /* nothing partial: the first, valid quote is not kept */
  g_assert_cmpuint (r->quotes->len, ==, 0);
  g_assert_cmpuint (r->warnings->len, ==, 0);
}

#define GOOD "\"provider\": \"B\", \"gpu\": \"L4\", \"gpu_count\": 1, \"seen\": \"2026-11-02\""

static void
test_bad_files (void)
{
  check_bad ("{" GOOD ", \"price_per_hour\": -1}", PROCURA_IMPORT_ERROR_SCHEMA,
             "bad.json: quotes[1].price_per_hour: expected a number ≥ 0, got -1");
  check_bad ("{" GOOD ", \"price_per_hour\": 1e20}", PROCURA_IMPORT_ERROR_SCHEMA,
             "quotes[1].price_per_hour: expected a number ≤ 1e+12, got 1e+20");
  check_bad ("{" GOOD ", \"price_per_hour\": \"1.2\"}", PROCURA_IMPORT_ERROR_SCHEMA,
             "quotes[1].price_per_hour: expected a number ≥ 0");
  check_bad ("{" GOOD "}", PROCURA_IMPORT_ERROR_SCHEMA, "quotes[1].price_per_hour: missing");
  check_bad ("{\"provider\": \"B\", \"gpu\": \"L4\", \"gpu_count\": 1.5, \"price_per_hour\": 1, \"seen\": \"2026-11-02\"}",
             PROCURA_IMPORT_ERROR_SCHEMA, "quotes[1].gpu_count: expected a whole number");
  check_bad ("{\"provider\": \"B\", \"gpu\": \"L4\", \"gpu_count\": 1, \"price_per_hour\": 1, \"seen\": \"2026-02-30\"}",
             PROCURA_IMPORT_ERROR_SCHEMA, "quotes[1].seen: expected a date YYYY-MM-DD, got \"2026-02-30\"");
  check_bad ("{" GOOD ", \"price_per_hour\": 1, \"pricing_model\": \"reserved\"}", PROCURA_IMPORT_ERROR_SCHEMA,
             "quotes[1].term_months: missing");
  check_bad ("{" GOOD ", \"price_per_hour\": 1, \"pricing_model\": \"cheap\"}", PROCURA_IMPORT_ERROR_SCHEMA,
             "quotes[1].pricing_model: expected \"on-demand\"");
  check_bad ("{" GOOD ", \"price_per_hour\": 1, \"currency\": \"dollars\"}", PROCURA_IMPORT_ERROR_SCHEMA,
             "quotes[1].currency: expected an ISO 4217 code");
  check_bad ("{" GOOD ", \"price_per_hour\": 1, \"prize\": 2}", PROCURA_IMPORT_ERROR_SCHEMA,
             "quotes[1].prize: unknown key");
  check_bad ("{" GOOD ", \"price_per_hour\": 1, \"extras\": {\"egress_per_gb\": -0.1}}", PROCURA_IMPORT_ERROR_SCHEMA,
             "quotes[1].extras.egress_per_gb: expected a number ≥ 0");
  check_bad ("{\"kind\": \"api\", \"provider\": \"C\", \"model\": \"m\", \"input_per_mtok\": 1, \"seen\": \"2026-11-02\"}",
             PROCURA_IMPORT_ERROR_SCHEMA, "quotes[1].output_per_mtok: missing");
  check_bad ("{\"kind\": \"tpu\"}", PROCURA_IMPORT_ERROR_SCHEMA, "quotes[1].kind: expected \"gpu\" or \"api\"");
  check_bad ("42", PROCURA_IMPORT_ERROR_SCHEMA, "quotes[1]: expected an object");
  /* a syntax error names the line */
  check_bad ("{\"provider\": }", PROCURA_IMPORT_ERROR_SYNTAX, "bad.json:3:");
}

static void
test_bad_top_level (void)
{
  static const struct { const char *text, *fragment; } cases[] = {
    { "[]", "bad.json: (top level): expected an object" },
    { "{\"quotes\": []}", "bad.json: procura_quotes: expected the format version 1" },
    { "{\"procura_quotes\": 2, \"quotes\": []}", "procura_quotes: expected the format version 1" },
    { "{\"procura_quotes\": 1}", "bad.json: quotes: expected an array" },
    { "{\"procura_quotes\": 1, \"quotes\": [], \"extra\": 1}", "(top level).extra: unknown key" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(ProcuraImportResult) r = procura_import_result_new ();
      g_autoptr(GError) error = NULL;

      g_assert_false (procura_importer_quote_json.parse ("bad.json", cases[i].text, strlen (cases[i].text), r, NULL, &error));
      g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA);
      if (strstr (error->message, cases[i].fragment) == NULL)
        g_error ("\"%s\" lacks \"%s\"", error->message, cases[i].fragment);
    }
}

/* issue 16: a quote dated in the future is refused, naming the quote and the date */
static void
test_future_date_refused (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) later = g_date_time_add_days (now, 40);
  g_autofree char *day = g_date_time_format (later, "%Y-%m-%d");
  g_autofree char *text = g_strdup_printf ("{\"procura_quotes\": 1, \"quotes\": [{\"provider\": \"Acme\", "
                                           "\"gpu\": \"H100\", \"gpu_count\": 8, \"price_per_hour\": 20, "
                                           "\"seen\": \"%s\"}]}", day);
  g_autoptr(ProcuraImportResult) r = procura_import_result_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (procura_importer_quote_json.parse ("q.json", text, strlen (text), r, NULL, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA);
  g_assert_nonnull (strstr (error->message, "q.json"));
  g_assert_nonnull (strstr (error->message, "quotes[0].seen"));
  g_assert_nonnull (strstr (error->message, day));
  g_assert_nonnull (strstr (error->message, "Acme"));
  g_assert_nonnull (strstr (error->message, "future"));
  g_assert_cmpuint (r->quotes->len, ==, 0);
}

static void
test_unknown_gpu_warns (void)
{
  /* seen today: neither stale nor in the future */
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *day = g_date_time_format (now, "%Y-%m-%d");
  g_autofree char *text = g_strdup_printf ("{\"procura_quotes\": 1, \"quotes\": [{\"provider\": \"A\", "
                                           "\"gpu\": \"Tesla V100\", \"gpu_count\": 8, \"price_per_hour\": 20, "
                                           "\"seen\": \"%s\"}]}", day);
  g_autoptr(ProcuraImportResult) r = procura_import_result_new ();

  g_assert_true (procura_importer_quote_json.parse ("q.json", text, strlen (text), r, NULL, NULL));
  g_assert_cmpuint (r->quotes->len, ==, 1);
  g_assert_null (((ProcuraQuote *) g_ptr_array_index (r->quotes, 0))->gpu_id);
  g_assert_cmpuint (r->warnings->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (r->warnings, 0), "quotes[0].gpu: \"Tesla V100\" is not in the GPU catalog"));
}

static void
test_staleness (void)
{
  g_autofree char *d10 = date_days_ago (10);
  g_autofree char *d31 = date_days_ago (31);
  g_autofree char *d90 = date_days_ago (90);
  g_autofree char *future = date_days_ago (-3);
  g_autoptr(ProcuraQuote) q = procura_quote_new ();
  g_autofree char *text = NULL;
  g_autoptr(ProcuraImportResult) r = procura_import_result_new ();

  g_assert_true (procura_quote_is_stale (q, 30));   /* undated */
  g_assert_cmpint (procura_quote_age_days (q), ==, -1);
  q->seen_date = g_strdup (d10);
  g_assert_cmpint (procura_quote_age_days (q), ==, 10);
  g_assert_false (procura_quote_is_stale (q, 30));
  g_assert_true (procura_quote_is_stale (q, 7));
  g_assert_false (procura_quote_is_stale (q, NAN));  /* the default, 30 days */
  g_free (q->seen_date);
  q->seen_date = g_strdup (d31);
  g_assert_true (procura_quote_is_stale (q, 30));
  g_assert_false (procura_quote_is_stale (q, 45));
  g_assert_true (procura_price_date_is_stale (d90, 0));
  g_assert_false (procura_price_date_is_stale (future, 30));
  g_assert_true (procura_price_date_is_stale ("not a date", 30));
  g_assert_true (procura_price_date_is_stale (NULL, 30));

  /* the importer reports stale prices */
  text = g_strdup_printf ("{\"procura_quotes\": 1, \"quotes\": ["
                          "{\"provider\": \"A\", \"gpu\": \"L4\", \"gpu_count\": 1, \"price_per_hour\": 1, \"seen\": \"%s\"},"
                          "{\"provider\": \"A\", \"gpu\": \"L4\", \"gpu_count\": 1, \"price_per_hour\": 1, \"seen\": \"%s\"}]}",
                          d10, d90);
  g_assert_true (procura_importer_quote_json.parse ("q.json", text, strlen (text), r, NULL, NULL));
  g_assert_cmpuint (r->warnings->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (r->warnings, 0), "1 of 2 prices are older than 30 days (the oldest 90 days)"));
}

static void
test_gpuhunt (void)
{
  gsize len = 0;
  g_autofree char *text = read_data ("gpuhunt-sample.csv", &len);
  g_autoptr(ProcuraImportResult) r = procura_import_result_new ();
  g_autoptr(GError) error = NULL;
  ProcuraQuote *q;

  g_assert_cmpint (procura_importer_gpuhunt_csv.sniff (text, len), >, 50);
  g_assert_cmpint (procura_importer_skypilot_csv.sniff (text, len), ==, 0);
  g_assert_true (procura_importer_gpuhunt_csv.parse ("aws.csv", text, len, r, NULL, &error));
  g_assert_no_error (error);
  /* the CPU-only m5.large is skipped */
  g_assert_cmpuint (r->quotes->len, ==, 4);
  q = g_ptr_array_index (r->quotes, 0);
  g_assert_cmpstr (q->provider, ==, "aws");
  g_assert_cmpstr (q->sku, ==, "p5.48xlarge");
  g_assert_cmpint (q->gpu_count, ==, 8);
  g_assert_cmpfloat (procura_quote_price_per_gpu_hour (q), ==, 98.32 / 8);
  g_assert_cmpstr (q->pricing_model, ==, "on-demand");
  g_assert_cmpstr (q->gpu_id, ==, "h100-sxm-80gb");
  q = g_ptr_array_index (r->quotes, 1);
  g_assert_cmpstr (q->pricing_model, ==, "spot");
  g_assert_cmpfloat (q->price_per_hour, ==, 39.33);
  q = g_ptr_array_index (r->quotes, 2);
  g_assert_cmpstr (q->region, ==, "us-west-2");
  g_assert_cmpstr (q->gpu_id, ==, "l4-24gb");
  q = g_ptr_array_index (r->quotes, 3);
  g_assert_cmpstr (q->gpu_id, ==, "a10g-24gb");
}

/* The shipped JSON Schema and the C validator accept the same keys */
static JsonNode *
sample_value (JsonObject *schema_defs,
              JsonObject *prop)
{
  JsonNode *n;

  if (json_object_has_member (prop, "$ref"))
    {
      const char *ref = json_object_get_string_member (prop, "$ref");
      g_assert_true (g_str_has_prefix (ref, "#/$defs/"));
      return sample_value (schema_defs, json_object_get_object_member (schema_defs, ref + strlen ("#/$defs/")));
    }
  if (json_object_has_member (prop, "const"))
    return json_node_copy (json_object_get_member (prop, "const"));
  if (json_object_has_member (prop, "enum"))
    return json_node_copy (json_array_get_element (json_object_get_array_member (prop, "enum"), 0));
  n = json_node_new (JSON_NODE_VALUE);
  if (json_object_has_member (prop, "pattern") &&
      strstr (json_object_get_string_member (prop, "pattern"), "[A-Z]{3}") != NULL)
    json_node_set_string (n, "EUR");
  else if (json_object_has_member (prop, "pattern"))
    json_node_set_string (n, "2026-01-02");
  else if (g_str_equal (json_object_get_string_member (prop, "type"), "string"))
    json_node_set_string (n, "x");
  else if (g_str_equal (json_object_get_string_member (prop, "type"), "object"))
    {
      json_node_unref (n);
      n = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (n, json_object_new ());
    }
  else
    json_node_set_int (n, 1);
  return n;
}

static void
check_schema_def (JsonObject *defs,
                  const char *def,
                  const char *base)
{
  JsonObject *props = json_object_get_object_member (json_object_get_object_member (defs, def), "properties");
  g_autoptr(GList) keys = json_object_get_members (props);

  for (GList *l = keys; l != NULL; l = l->next)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(JsonNode) value = sample_value (defs, json_object_get_object_member (props, l->data));
      g_autoptr(ProcuraImportResult) r = procura_import_result_new ();
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL, *doc = NULL;
      JsonObject *q;

      g_assert_true (json_parser_load_from_data (parser, base, -1, NULL));
      q = json_node_get_object (json_parser_get_root (parser));
      json_object_set_member (q, l->data, json_node_copy (value));
      text = json_to_string (json_parser_get_root (parser), FALSE);
      doc = g_strdup_printf ("{\"procura_quotes\": 1, \"quotes\": [%s]}", text);
      g_test_message ("%s: %s", def, text);
      g_assert_true (procura_importer_quote_json.parse ("schema.json", doc, strlen (doc), r, NULL, &error));
      g_assert_no_error (error);
    }

  /* the other way: every key the validator names as allowed is in the schema */
  {
    g_autofree char *doc = g_strdup_printf ("{\"procura_quotes\": 1, \"quotes\": [%.*s, \"bogus\": 1}]}",
                                            (int) (strlen (base) - 1), base);
    g_autoptr(ProcuraImportResult) r = procura_import_result_new ();
    g_autoptr(GError) error = NULL;
    const char *list, *end;
    g_auto(GStrv) allowed = NULL;
    g_autofree char *joined = NULL;

    g_assert_false (procura_importer_quote_json.parse ("schema.json", doc, strlen (doc), r, NULL, &error));
    list = strstr (error->message, "expected one of ");
    g_assert_nonnull (list);
    list += strlen ("expected one of ");
    end = strstr (list, ", or a key");
    g_assert_nonnull (end);
    joined = g_strndup (list, (gsize) (end - list));
    allowed = g_strsplit (joined, ", ", -1);
    for (gsize i = 0; allowed[i] != NULL; i++)
      {
        g_test_message ("%s allows %s", def, allowed[i]);
        g_assert_true (json_object_has_member (props, allowed[i]));
      }
    g_assert_cmpuint (g_strv_length (allowed), ==, json_object_get_size (props));
  }
}

static void
test_schema_agrees (void)
{
  const char *datadir = g_getenv ("PROCURA_DATADIR");
  g_autofree char *path = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *defs;

  if (datadir == NULL)
    {
      g_test_skip ("PROCURA_DATADIR not set");
      return;
    }
  path = g_build_filename (datadir, "schemas", "quote.schema.json", NULL);
  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "$schema"), ==, "https://json-schema.org/draft/2020-12/schema");
  defs = json_object_get_object_member (root, "$defs");
  check_schema_def (defs, "gpu_quote",
                    "{\"provider\": \"A\", \"gpu\": \"L4\", \"gpu_count\": 1, \"price_per_hour\": 1, \"seen\": \"2026-01-01\"}");
  check_schema_def (defs, "api_quote",
                    "{\"kind\": \"api\", \"provider\": \"A\", \"model\": \"m\", \"input_per_mtok\": 1, "
                    "\"output_per_mtok\": 2, \"seen\": \"2026-01-01\"}");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/quotes/example", test_example);
  g_test_add_func ("/quotes/round-trip", test_round_trip);
  g_test_add_func ("/quotes/bad-files", test_bad_files);
  g_test_add_func ("/quotes/future-date-refused", test_future_date_refused);
  g_test_add_func ("/quotes/bad-top-level", test_bad_top_level);
  g_test_add_func ("/quotes/unknown-gpu", test_unknown_gpu_warns);
  g_test_add_func ("/quotes/staleness", test_staleness);
  g_test_add_func ("/quotes/gpuhunt", test_gpuhunt);
  g_test_add_func ("/quotes/schema-agrees", test_schema_agrees);
  return g_test_run ();
}
