/* test-errors-german.c: under LANGUAGE=de the errors of core's readers, store, fit
 * calculator and probe client read in German: no sentence of the catalogue is left
 * in English
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include <glib/gi18n.h>

#include "procura-fit.h"
#include "procura-import.h"
#include "procura-probe-client.h"
#include "procura-store.h"
#include "procura-test-util.h"

/* @message reads in German: it holds @german (a phrase of the catalogue's translation)
 * and no English piece of the catalogue. */
static void
assert_german (const char *message,
               const char *german)
{
  g_autofree char *mo = procura_test_catalogue_path ("de");
  g_autofree char *english = NULL;

  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, german));
  english = procura_test_english_left (mo, message, NULL);
  if (english != NULL)
    g_error ("\"%s\" still reads \"%s\" in English", message, english);
}

static char *
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
  return path;
}

static void
test_import (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *empty = write_file (dir, "empty.json", "");
  g_autofree char *broken = write_file (dir, "broken.json", "{\"benchmarks\": [1,]}");
  g_autoptr (GError) error = NULL;
  ProcuraImportResult *r;

  if (g_strcmp0 (_("expected a number or null, got %s"), "expected a number or null, got %s") == 0)
    g_error ("the German catalogue is not used (LANGUAGE=%s)", g_getenv ("LANGUAGE"));
  r = procura_import_file (empty, NULL, NULL, &error);
  g_assert_null (r);
  g_assert_nonnull (error);
  assert_german (error->message, "die Datei ist leer");
  g_clear_error (&error);

  /* the JSON reader names the line, the column and what it expected */
  r = procura_import_file (broken, NULL, NULL, &error);
  g_assert_null (r);
  g_assert_nonnull (error);
  assert_german (error->message, "erwartet");
  procura_test_rmtree (dir);
}

static void
test_store (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *text = write_file (dir, "notes.procura", "not a database, only some text that is long "
                                      "enough to hold the hundred bytes of an SQLite header, and more.");
  g_autoptr (GError) error = NULL;
  ProcuraStore *store = procura_store_open (text, PROCURA_STORE_OPEN_DEFAULT, &error);

  g_assert_null (store);
  g_assert_nonnull (error);
  assert_german (error->message, "kein Procura-Projekt");
  procura_test_rmtree (dir);
}

static void
test_fit (void)
{
  ProcuraFitRequest request;
  ProcuraFitResult result;
  g_autoptr (GError) error = NULL;

  procura_fit_request_init (&request);
  g_assert_false (procura_fit_compute (&request, &result, &error));
  g_assert_nonnull (error);
  assert_german (error->message, "kein Modell angegeben");
}

static void
test_probe (void)
{
  /* a program that printed no line of the probe protocol */
  const char *out = "Segmentation fault in someone else's program\n";
  ProcuraProbeReport *r = procura_probe_report_from_jsonl (out, strlen (out), "gpu-a", 1);

  g_assert_nonnull (r);
  g_assert_nonnull (r->message);
  assert_german (r->message, "auf gpu-a hat nicht gegrüßt");
  procura_probe_report_free (r);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  procura_test_bind_build_catalogues ();
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/errors-german/import", test_import);
  g_test_add_func ("/errors-german/store", test_store);
  g_test_add_func ("/errors-german/fit", test_fit);
  g_test_add_func ("/errors-german/probe", test_probe);
  return g_test_run ();
}
