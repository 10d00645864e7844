/* test-pyliteral.c: the Python-literal reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "procura-import.h"
#include "procura-pyliteral.h"

static JsonNode *
parse (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = procura_pyliteral_parse (text, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
  return node;
}

static void
test_gpuinfo (void)
{
  /* SkyPilot's GpuInfo as the v7 Nebius catalog writes it */
  g_autoptr(JsonNode) node = parse ("{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8.0, "
                                    "'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 655360}");
  JsonObject *o, *g;

  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  o = json_node_get_object (node);
  g_assert_cmpint (json_object_get_int_member (o, "TotalGpuMemoryInMiB"), ==, 655360);
  g = json_array_get_object_element (json_object_get_array_member (o, "Gpus"), 0);
  g_assert_cmpstr (json_object_get_string_member (g, "Name"), ==, "H100");
  g_assert_cmpfloat (json_object_get_double_member (g, "Count"), ==, 8.0);
  g_assert_cmpint (json_node_get_value_type (json_object_get_member (g, "Count")), ==, G_TYPE_DOUBLE);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (g, "MemoryInfo"), "SizeInMiB"), ==, 81920);
}

static void
test_scalars (void)
{
  g_autoptr(JsonNode) node = parse ("[True, False, None, -3, 2.5e3, 1_000, \"dq 'x'\", 'sq \\'y\\'', "
                                    "'\\x41\\u00e9\\n', (1, 2), (), [], {}, {1: 'one'},]");
  JsonArray *a = json_node_get_array (node);

  g_assert_cmpuint (json_array_get_length (a), ==, 14);
  g_assert_true (json_array_get_boolean_element (a, 0));
  g_assert_false (json_array_get_boolean_element (a, 1));
  g_assert_true (json_array_get_null_element (a, 2));
  g_assert_cmpint (json_array_get_int_element (a, 3), ==, -3);
  g_assert_cmpfloat (json_array_get_double_element (a, 4), ==, 2500.0);
  g_assert_cmpint (json_array_get_int_element (a, 5), ==, 1000);
  g_assert_cmpstr (json_array_get_string_element (a, 6), ==, "dq 'x'");
  g_assert_cmpstr (json_array_get_string_element (a, 7), ==, "sq 'y'");
  g_assert_cmpstr (json_array_get_string_element (a, 8), ==, "A\xc3\xa9\n");
  g_assert_cmpuint (json_array_get_length (json_array_get_array_element (a, 9)), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_array_get_array_element (a, 10)), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (a, 13), "1"), ==, "one");
}

static void
check_error (const char *text,
             int         code,
             const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = procura_pyliteral_parse (text, -1, &error);

  g_assert_null (node);
  g_assert_error (error, PROCURA_IMPORT_ERROR, code);
  if (strstr (error->message, fragment) == NULL)
    g_error ("\"%s\" lacks \"%s\"", error->message, fragment);
}

static void
test_errors (void)
{
  check_error ("{'a': 1", PROCURA_IMPORT_ERROR_SYNTAX, "column 8: expected ',' or '}'");
  check_error ("{'a' 1}", PROCURA_IMPORT_ERROR_SYNTAX, "column 6: expected ':'");
  check_error ("'open", PROCURA_IMPORT_ERROR_SYNTAX, "string never closed");
  check_error ("[1, 2] x", PROCURA_IMPORT_ERROR_SYNTAX, "column 8: unexpected text after the value");
  check_error ("{[1]: 2}", PROCURA_IMPORT_ERROR_SYNTAX, "dict key must be a string");
  check_error ("nan", PROCURA_IMPORT_ERROR_SYNTAX, "column 1: expected a dict");
  check_error ("1e999", PROCURA_IMPORT_ERROR_SYNTAX, "malformed number");
  check_error ("'\\x4'", PROCURA_IMPORT_ERROR_SYNTAX, "hex digits");
  check_error ("", PROCURA_IMPORT_ERROR_SYNTAX, "unexpected end");
  check_error ("Truex", PROCURA_IMPORT_ERROR_SYNTAX, "expected a dict");
}

static void
test_depth (void)
{
  g_autoptr(GString) ok = g_string_new (NULL);
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(JsonNode) node = NULL;

  for (int i = 0; i < PROCURA_PYLITERAL_MAX_DEPTH; i++)
    g_string_append_c (ok, '[');
  for (int i = 0; i < PROCURA_PYLITERAL_MAX_DEPTH; i++)
    g_string_append_c (ok, ']');
  node = parse (ok->str);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (node));

  for (int i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  check_error (deep->str, PROCURA_IMPORT_ERROR_LIMIT, "nested too deeply");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pyliteral/gpuinfo", test_gpuinfo);
  g_test_add_func ("/pyliteral/scalars", test_scalars);
  g_test_add_func ("/pyliteral/errors", test_errors);
  g_test_add_func ("/pyliteral/depth", test_depth);
  return g_test_run ();
}
