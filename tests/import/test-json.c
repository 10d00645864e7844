/* test-json.c: the safe JSON front door (procura-json.h) against json-glib's traps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-import.h"
#include "procura-json.h"

static JsonNode *
parse (const char        *text,
       ProcuraJsonFlags   flags,
       GError           **error)
{
  return procura_json_parse ("t.json", text, strlen (text), 0, flags, error);
}

static void
assert_error_contains (const char *text,
                       int         code,
                       const char *needle)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = parse (text, PROCURA_JSON_STRICT, &error);

  g_assert_null (node);
  g_assert_error (error, PROCURA_IMPORT_ERROR, code);
  if (strstr (error->message, needle) == NULL)
    g_error ("“%s” does not contain “%s”", error->message, needle);
  g_assert_true (g_str_has_prefix (error->message, "t.json"));
}

/* ~75,000 levels overflow json-glib's stack: the depth is bounded before parsing. */
static void
test_deep_nesting (void)
{
  gsize n = 200000;
  g_autofree char *deep = g_malloc (2 * n + 1);
  g_autoptr (GError) error = NULL;
  JsonNode *node;

  memset (deep, '[', n);
  memset (deep + n, ']', n);
  deep[2 * n] = '\0';
  node = procura_json_parse ("deep.json", deep, 2 * n, 0, PROCURA_JSON_STRICT, &error);
  g_assert_null (node);
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_LIMIT);
  g_assert_nonnull (strstr (error->message, "deeper than"));
  /* column of the first bracket beyond the limit */
  {
    g_autofree char *where = g_strdup_printf ("deep.json:1:%d:", PROCURA_JSON_MAX_DEPTH + 1);
    g_assert_true (g_str_has_prefix (error->message, where));
  }

  /* nesting at the limit is fine */
  {
    gsize m = PROCURA_JSON_MAX_DEPTH;
    g_autofree char *ok = g_malloc (2 * m + 1);
    g_autoptr (JsonNode) root = NULL;

    memset (ok, '[', m);
    memset (ok + m, ']', m);
    ok[2 * m] = '\0';
    root = procura_json_parse ("ok.json", ok, 2 * m, 0, PROCURA_JSON_STRICT, NULL);
    g_assert_nonnull (root);
  }
}

/* json-glib reads 2^64 as -1: big integers become doubles instead */
static void
test_big_integers (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) root = parse ("{\"a\": 18446744073709551616, \"b\": 9223372036854775808, "
                                     "\"c\": 9223372036854775807, \"d\": -9223372036854775809}",
                                     PROCURA_JSON_STRICT, &error);
  JsonObject *o;
  double a, b, d;
  gint64 c;

  g_assert_no_error (error);
  o = json_node_get_object (root);
  g_assert_true (procura_json_number ("t", o, "$", "a", &a, NULL));
  g_assert_true (procura_json_number ("t", o, "$", "b", &b, NULL));
  g_assert_true (procura_json_number ("t", o, "$", "d", &d, NULL));
  g_assert_cmpfloat (a, ==, ldexp (1.0, 64));
  g_assert_cmpfloat (b, ==, ldexp (1.0, 63));
  g_assert_cmpfloat (d, ==, -ldexp (1.0, 63));
  /* the largest gint64 is still exact */
  g_assert_cmpint (json_object_get_int_member (o, "c"), ==, G_MAXINT64);
  /* a count of 2^64 is refused with its key path, not read as -1 */
  g_assert_false (procura_json_count ("t", o, "$", "a", &c, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA);
  g_assert_nonnull (strstr (error->message, "$.a"));
}

static void
test_empty (void)
{
  g_autofree char *ws = NULL;
  g_autoptr (GError) error = NULL;
  gsize n = 16 * 1024 * 1024;   /* stands for the 1 GB of white space */

  assert_error_contains ("", PROCURA_IMPORT_ERROR_SYNTAX, "empty");
  assert_error_contains (" \n\t\r\n", PROCURA_IMPORT_ERROR_SYNTAX, "only white space");
  ws = g_malloc (n);
  memset (ws, ' ', n);
  g_assert_null (procura_json_parse ("ws.json", ws, n, 0, PROCURA_JSON_STRICT, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "only white space"));
}

/* json-glib reports a truncated file as an unexpected number: we say where it ends */
static void
test_truncated (void)
{
  const char *text = "{\n  \"a\": [1, 2,\n  3";
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = parse (text, PROCURA_JSON_STRICT, &error);
  /* the end of the text is line 3, column 4 (after "  3") */
  g_assert_null (node);
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX);
  g_assert_true (g_str_has_prefix (error->message, "t.json:3:4:"));
  g_assert_nonnull (strstr (error->message, "truncated"));
  g_assert_nonnull (strstr (error->message, "$.a[2]"));

  assert_error_contains ("{\"a\": \"abc", PROCURA_IMPORT_ERROR_SYNTAX, "inside a string");
  assert_error_contains ("{\"a\"", PROCURA_IMPORT_ERROR_SYNTAX, "expected ':'");
}

/* json-glib accepts single quotes, hex and leading zeros: strict JSON does not */
static void
test_lenient_syntax_refused (void)
{
  assert_error_contains ("{'a': 1}", PROCURA_IMPORT_ERROR_SYNTAX, "single-quoted");
  assert_error_contains ("{\"a\": 'x'}", PROCURA_IMPORT_ERROR_SYNTAX, "single-quoted");
  assert_error_contains ("{\"a\": 0x10}", PROCURA_IMPORT_ERROR_SYNTAX, "hex");
  assert_error_contains ("{\"a\": 01}", PROCURA_IMPORT_ERROR_SYNTAX, "leading zero");
  assert_error_contains ("[1, 2,]", PROCURA_IMPORT_ERROR_SYNTAX, "trailing comma");
  assert_error_contains ("{\"a\": 1,}", PROCURA_IMPORT_ERROR_SYNTAX, "trailing comma");
  assert_error_contains ("{\"a\": 1} x", PROCURA_IMPORT_ERROR_SYNTAX, "after the end");
  assert_error_contains ("{\"a\": 1.}", PROCURA_IMPORT_ERROR_SYNTAX, "'.' not followed");
  assert_error_contains ("{\"a\": 1e999}", PROCURA_IMPORT_ERROR_SYNTAX, "out of the range");
  assert_error_contains ("{\"a\": \"\\x\"}", PROCURA_IMPORT_ERROR_SYNTAX, "bad escape");
  assert_error_contains ("{\"a\": \"\\ud800\"}", PROCURA_IMPORT_ERROR_SYNTAX, "surrogate");
  assert_error_contains ("{\"a\": tru}", PROCURA_IMPORT_ERROR_SYNTAX, "unexpected word");
  assert_error_contains ("{\"a\": \"x\ny\"}", PROCURA_IMPORT_ERROR_SYNTAX, "control character");
}

/* Python's json.dump writes bare NaN/Infinity: refused when strict, strings when allowed */
static void
test_nonfinite (void)
{
  const char *text = "{\"a\": NaN, \"b\": Infinity, \"c\": -Infinity, \"d\": \"NaN inside a string\", \"e\": [Infinity]}";
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *o;
  double a, b, c, e;

  assert_error_contains (text, PROCURA_IMPORT_ERROR_SYNTAX, "bare NaN");
  assert_error_contains ("[Infinity]", PROCURA_IMPORT_ERROR_SYNTAX, "bare Infinity");
  root = parse (text, PROCURA_JSON_ALLOW_NONFINITE, &error);
  g_assert_no_error (error);
  o = json_node_get_object (root);
  g_assert_true (procura_json_number ("t", o, "$", "a", &a, NULL));
  g_assert_true (procura_json_number ("t", o, "$", "b", &b, NULL));
  g_assert_true (procura_json_number ("t", o, "$", "c", &c, NULL));
  g_assert_true (isnan (a));
  g_assert_true (isinf (b) && b > 0);
  g_assert_true (isinf (c) && c < 0);
  /* only tokens outside strings are rewritten */
  g_assert_cmpstr (json_object_get_string_member (o, "d"), ==, "NaN inside a string");
  g_assert_true (procura_json_node_number ("t", json_array_get_element (json_object_get_array_member (o, "e"), 0),
                                           "$.e[0]", &e, NULL));
  g_assert_true (isinf (e));
}

static void
test_utf8 (void)
{
  const char bad[] = "{\"a\":\n \"\xff\"}";
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = procura_json_parse ("u.json", bad, sizeof bad - 1, 0, PROCURA_JSON_STRICT, &error);
  g_autoptr (JsonNode) bom = NULL;

  g_assert_null (node);
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX);
  g_assert_true (g_str_has_prefix (error->message, "u.json:2:3:"));
  g_assert_nonnull (strstr (error->message, "UTF-8"));
  g_clear_error (&error);
  /* a NUL byte in the text */
  node = procura_json_parse ("n.json", "{\"a\":\0}", 7, 0, PROCURA_JSON_STRICT, &error);
  g_assert_null (node);
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX);
  g_clear_error (&error);
  /* a byte order mark is fine */
  bom = procura_json_parse ("b.json", "\xEF\xBB\xBF{\"a\": 1}", 11, 0, PROCURA_JSON_STRICT, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (bom), "a"), ==, 1);
}

static void
test_key_paths (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonObject *o, *inner = NULL;
  double v;
  const char *s;

  assert_error_contains ("{\"a\": {\"b\": [1, 2, x]}}", PROCURA_IMPORT_ERROR_SYNTAX, "$.a.b[2]");
  root = parse ("{\"x\": {\"y\": \"fast\", \"z\": 3, \"w\": [1]}}", PROCURA_JSON_STRICT, &error);
  g_assert_no_error (error);
  o = json_node_get_object (root);
  g_assert_true (procura_json_object ("f.json", o, "$", "x", &inner, &error));
  g_assert_false (procura_json_number ("f.json", inner, "$.x", "y", &v, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA);
  g_assert_cmpstr (error->message, ==, "f.json: $.x.y: expected a number, found a string");
  g_clear_error (&error);
  g_assert_false (procura_json_string ("f.json", inner, "$.x", "z", &s, &error));
  g_assert_cmpstr (error->message, ==, "f.json: $.x.z: expected a string, found a number");
  g_clear_error (&error);
  g_assert_false (procura_json_number ("f.json", inner, "$.x", "w", &v, &error));
  g_assert_cmpstr (error->message, ==, "f.json: $.x.w: expected a number, found an array");
  g_clear_error (&error);
  /* absent members are unknown, not errors */
  g_assert_true (procura_json_number ("f.json", inner, "$.x", "nope", &v, &error));
  g_assert_true (isnan (v));
  /* lax numbers: llmperf writes counts as strings */
  g_assert_false (procura_json_number ("f.json", inner, "$.x", "y", &v, NULL));
  {
    g_autoptr (JsonNode) r2 = parse ("{\"n\": \"550\", \"bad\": \"55x\"}", PROCURA_JSON_STRICT, NULL);
    g_assert_true (procura_json_number_lax ("f", json_node_get_object (r2), "$", "n", &v, NULL));
    g_assert_cmpfloat (v, ==, 550.0);
    g_assert_false (procura_json_number_lax ("f", json_node_get_object (r2), "$", "bad", &v, &error));
    g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA);
  }
}

static void
test_line_base (void)
{
  g_autoptr (GError) error = NULL;

  g_assert_null (procura_json_parse ("l.jsonl", "{\"a\": ]", 7, 41, PROCURA_JSON_STRICT, &error));
  g_assert_true (g_str_has_prefix (error->message, "l.jsonl:42:7:"));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/deep-nesting", test_deep_nesting);
  g_test_add_func ("/json/big-integers", test_big_integers);
  g_test_add_func ("/json/empty", test_empty);
  g_test_add_func ("/json/truncated", test_truncated);
  g_test_add_func ("/json/lenient-syntax-refused", test_lenient_syntax_refused);
  g_test_add_func ("/json/nonfinite", test_nonfinite);
  g_test_add_func ("/json/utf8", test_utf8);
  g_test_add_func ("/json/key-paths", test_key_paths);
  g_test_add_func ("/json/line-base", test_line_base);
  return g_test_run ();
}
