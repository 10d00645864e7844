/* test-csv.c: the RFC 4180 CSV reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "procura-csv.h"
#include "procura-import.h"

static ProcuraCsv *
parse (const char *text)
{
  g_autoptr(GError) error = NULL;
  ProcuraCsv *csv = procura_csv_parse ("t.csv", text, strlen (text), ',', &error);

  g_assert_no_error (error);
  g_assert_nonnull (csv);
  return csv;
}

static void
test_simple (void)
{
  g_autoptr(ProcuraCsv) csv = parse ("a,b,c\n1,2,3\n");

  g_assert_cmpuint (procura_csv_n_rows (csv), ==, 2);
  g_assert_cmpuint (procura_csv_n_fields (csv, 0), ==, 3);
  g_assert_cmpstr (procura_csv_get (csv, 0, 0), ==, "a");
  g_assert_cmpstr (procura_csv_get (csv, 1, 2), ==, "3");
  g_assert_null (procura_csv_get (csv, 1, 3));
  g_assert_null (procura_csv_get (csv, 2, 0));
  g_assert_cmpint (procura_csv_column (csv, "B"), ==, 1);
  g_assert_cmpint (procura_csv_column (csv, "d"), ==, -1);
}

static void
test_quotes (void)
{
  /* "" escapes, separators and newlines inside quotes, a CRLF inside quotes */
  g_autoptr(ProcuraCsv) csv = parse ("name,info\r\n"
                                     "\"x, y\",\"say \"\"hi\"\"\"\r\n"
                                     "\"two\nlines\",\"crlf\r\nkept\"\r\n"
                                     "last,\"\"\r\n");

  g_assert_cmpuint (procura_csv_n_rows (csv), ==, 4);
  g_assert_cmpstr (procura_csv_get (csv, 1, 0), ==, "x, y");
  g_assert_cmpstr (procura_csv_get (csv, 1, 1), ==, "say \"hi\"");
  g_assert_cmpstr (procura_csv_get (csv, 2, 0), ==, "two\nlines");
  g_assert_cmpstr (procura_csv_get (csv, 2, 1), ==, "crlf\r\nkept");
  g_assert_cmpstr (procura_csv_get (csv, 3, 1), ==, "");
  g_assert_cmpuint (procura_csv_n_fields (csv, 3), ==, 2);
  /* the record that starts on line 3 holds two line ends: the next starts on 6 */
  g_assert_cmpuint (procura_csv_row_line (csv, 2), ==, 3);
  g_assert_cmpuint (procura_csv_row_line (csv, 3), ==, 6);
}

static void
test_bom_and_line_ends (void)
{
  g_autoptr(ProcuraCsv) csv = parse ("\xEF\xBB\xBFh1,h2\r1,2\n\n3,4");

  /* the BOM is not part of the first header; CR alone ends a line; blank lines are
   * skipped; the last line needs no line end */
  g_assert_cmpstr (procura_csv_get (csv, 0, 0), ==, "h1");
  g_assert_cmpint (procura_csv_column (csv, "h1"), ==, 0);
  g_assert_cmpuint (procura_csv_n_rows (csv), ==, 3);
  g_assert_cmpstr (procura_csv_get (csv, 2, 1), ==, "4");
  g_assert_cmpuint (procura_csv_row_line (csv, 2), ==, 4);
}

static void
test_empty_fields (void)
{
  g_autoptr(ProcuraCsv) csv = parse (",a,,\n,\n");

  g_assert_cmpuint (procura_csv_n_fields (csv, 0), ==, 4);
  g_assert_cmpstr (procura_csv_get (csv, 0, 0), ==, "");
  g_assert_cmpstr (procura_csv_get (csv, 0, 1), ==, "a");
  g_assert_cmpstr (procura_csv_get (csv, 0, 3), ==, "");
  g_assert_cmpuint (procura_csv_n_fields (csv, 1), ==, 2);
}

static void
test_empty_input (void)
{
  g_autoptr(ProcuraCsv) a = parse ("");
  g_autoptr(ProcuraCsv) b = parse ("\n\r\n");

  g_assert_cmpuint (procura_csv_n_rows (a), ==, 0);
  g_assert_cmpuint (procura_csv_n_rows (b), ==, 0);
  g_assert_cmpint (procura_csv_column (a, "x"), ==, -1);
}

static void
test_other_separator (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ProcuraCsv) csv = procura_csv_parse ("t.tsv", "a\tb,c\n", 6, '\t', &error);

  g_assert_no_error (error);
  g_assert_cmpstr (procura_csv_get (csv, 0, 1), ==, "b,c");
}

static void
check_error (const char *text,
             gsize       len,
             const char *expected_fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ProcuraCsv) csv = procura_csv_parse ("bad.csv", text, len, ',', &error);

  g_assert_null (csv);
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX);
  if (strstr (error->message, expected_fragment) == NULL)
    g_error ("\"%s\" lacks \"%s\"", error->message, expected_fragment);
}

static void
test_errors (void)
{
  /* an unclosed quote names where it opened */
  check_error ("a,b\n1,\"open\n2,3\n", 16, "bad.csv:2:3: quoted field never closed");
  /* text after a closing quote */
  check_error ("a\n\"x\"y\n", 7, "bad.csv:2:4: unexpected character after a quoted field");
  /* a NUL byte */
  check_error ("a,b\nx\0y,1\n", 10, "bad.csv:2: NUL byte");
}

static void
test_literal_quote_in_unquoted (void)
{
  /* like Python's csv module: a quote inside an unquoted field stays literal */
  g_autoptr(ProcuraCsv) csv = parse ("a 5\" disk,b\n");

  g_assert_cmpstr (procura_csv_get (csv, 0, 0), ==, "a 5\" disk");
}

static void
test_large (void)
{
  g_autoptr(GString) s = g_string_new ("id,price\n");
  g_autoptr(ProcuraCsv) csv = NULL;

  for (int i = 0; i < 20000; i++)
    g_string_append_printf (s, "%d,\"%d.5\"\r\n", i, i);
  csv = parse (s->str);
  g_assert_cmpuint (procura_csv_n_rows (csv), ==, 20001);
  g_assert_cmpstr (procura_csv_get (csv, 20000, 1), ==, "19999.5");
  g_assert_cmpuint (procura_csv_row_line (csv, 20000), ==, 20001);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/csv/simple", test_simple);
  g_test_add_func ("/csv/quotes", test_quotes);
  g_test_add_func ("/csv/bom-and-line-ends", test_bom_and_line_ends);
  g_test_add_func ("/csv/empty-fields", test_empty_fields);
  g_test_add_func ("/csv/empty-input", test_empty_input);
  g_test_add_func ("/csv/other-separator", test_other_separator);
  g_test_add_func ("/csv/errors", test_errors);
  g_test_add_func ("/csv/literal-quote", test_literal_quote_in_unquoted);
  g_test_add_func ("/csv/large", test_large);
  return g_test_run ();
}
