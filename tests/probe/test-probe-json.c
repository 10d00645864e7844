/* test-probe-json.c: the probe's own JSON writer and reader (src/probe/probe-json.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The probe has no GLib, so its JSON is hand-made: every line it writes must parse as
 * the same values with json-glib, whatever bytes a driver puts in a device name.
 */
#include "config.h"

#include <math.h>
#include <json-glib/json-glib.h>

#include "probe-json.h"

static JsonObject *
parse_line (const char *line)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  g_assert_true (g_str_has_suffix (line, "}\n"));
  g_assert_true (strchr (line, '\n') == line + strlen (line) - 1);   /* one line */
  json_parser_load_from_data (parser, line, -1, &error);
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return json_object_ref (json_node_get_object (root));
}

static void
test_writer (void)
{
  PjWriter w = { 0 };
  JsonObject *o, *inner;
  JsonArray *a;
  const char *line;

  pj_begin (&w, "device");
  pj_key_str (&w, "name", "GPU \"quoted\" \\ back\nslash\t\x01 é ✓");
  pj_key_str (&w, "bad_utf8", "a\xff\xfe" "b\xc3");
  pj_key_str (&w, "none", NULL);
  pj_key_int (&w, "neg", -42);
  pj_key_uint (&w, "big", 18446744073709551615ULL);
  pj_key_uint (&w, "bytes", 85520809984ULL);
  pj_key_double (&w, "nan", NAN);
  pj_key_double (&w, "inf", INFINITY);
  pj_key_double (&w, "gbps", 3352.5);
  pj_key_bool (&w, "yes", true);
  pj_open_object (&w, "pcie");
  pj_key_int (&w, "gen", 5);
  pj_close_object (&w);
  pj_open_array (&w, "list");
  pj_open_object (&w, NULL);
  pj_key_int (&w, "index", 0);
  pj_close_object (&w);
  pj_open_object (&w, NULL);
  pj_key_int (&w, "index", 1);
  pj_close_object (&w);
  pj_close_array (&w);
  line = pj_end (&w);
  o = parse_line (line);
  g_assert_cmpstr (json_object_get_string_member (o, "event"), ==, "device");
  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "GPU \"quoted\" \\ back\nslash\t\x01 é ✓");
  g_assert_cmpstr (json_object_get_string_member (o, "bad_utf8"), ==, "a\xef\xbf\xbd\xef\xbf\xbd" "b\xef\xbf\xbd");
  g_assert_true (json_object_get_null_member (o, "none"));
  g_assert_cmpint (json_object_get_int_member (o, "neg"), ==, -42);
  g_assert_cmpint (json_object_get_int_member (o, "bytes"), ==, 85520809984LL);
  g_assert_true (json_object_get_null_member (o, "nan"));
  g_assert_true (json_object_get_null_member (o, "inf"));
  g_assert_cmpfloat (json_object_get_double_member (o, "gbps"), ==, 3352.5);
  g_assert_true (json_object_get_boolean_member (o, "yes"));
  inner = json_object_get_object_member (o, "pcie");
  g_assert_cmpint (json_object_get_int_member (inner, "gen"), ==, 5);
  a = json_object_get_array_member (o, "list");
  g_assert_cmpuint (json_array_get_length (a), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (a, 1), "index"), ==, 1);
  json_object_unref (o);

  /* the writer is reused line after line */
  pj_begin (&w, "done");
  pj_key_str (&w, "status", "ok");
  g_assert_cmpstr (pj_end (&w), ==, "{\"event\":\"done\",\"status\":\"ok\"}\n");
  pj_clear (&w);
}

static void
test_reader (void)
{
  char err[256];
  PjValue *v;
  const PjValue *x;

  v = pj_parse (" {\"a\": [1, -2.5e3, true, false, null, \"s\\u00e9\\ud83d\\ude00\\n\"], \"b\": {}} ", err, sizeof err);
  g_assert_nonnull (v);
  x = pj_get (v, "a");
  g_assert_nonnull (x);
  g_assert_cmpint (x->type, ==, PJ_ARRAY);
  g_assert_cmpuint (x->n, ==, 6);
  g_assert_cmpfloat (x->items[1]->number, ==, -2500);
  g_assert_true (x->items[2]->boolean);
  g_assert_cmpint (x->items[4]->type, ==, PJ_NULL);
  g_assert_cmpstr (x->items[5]->string, ==, "sé😀\n");
  g_assert_cmpint (pj_get (v, "b")->type, ==, PJ_OBJECT);
  g_assert_null (pj_get (v, "c"));
  g_assert_null (pj_get (x, "a"));
  pj_free (v);
}

static void
test_reader_errors (void)
{
  const struct { const char *text; const char *message; } cases[] = {
    { "", "line 1, column 1: unexpected end of input" },
    { "{\"a\":1,}", "expected a member name" },
    { "{\"a\" 1}", "expected ':'" },
    { "[1 2]", "expected ',' or ']'" },
    { "{\"a\":1} x", "trailing characters" },
    { "\"abc", "unterminated string" },
    { "\"a\\q\"", "bad escape" },
    { "\"\\u12g4\"", "bad \\u escape" },
    { "\"tab\there\"", "control character" },
    { "tru", "unexpected word" },
    { "-", "unexpected character" },
    { "1e999", "bad number" },
    { "{\n\n  \"a\": @}", "line 3, column 8" },
  };
  g_autoptr(GString) deep = g_string_new (NULL);
  char err[256];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      PjValue *v = pj_parse (cases[i].text, err, sizeof err);

      g_assert_null (v);
      if (strstr (err, cases[i].message) == NULL)
        g_error ("case %u (%s): “%s” lacks “%s”", i, cases[i].text, err, cases[i].message);
    }
  for (i = 0; i < 100; i++)
    g_string_append_c (deep, '[');
  g_assert_null (pj_parse (deep->str, err, sizeof err));
  g_assert_nonnull (strstr (err, "nested too deeply"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/probe-json/writer", test_writer);
  g_test_add_func ("/probe-json/reader", test_reader);
  g_test_add_func ("/probe-json/reader-errors", test_reader_errors);
  return g_test_run ();
}
