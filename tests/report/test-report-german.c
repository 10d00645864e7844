/* test-report-german.c: the Markdown decision record of the demo project under
 * LANGUAGE=de reads in German: no sentence of the catalogue is left in English
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include <glib/gi18n.h>

#include "procura-demo.h"
#include "procura-report.h"
#include "procura-test-data.h"
#include "procura-test-util.h"

/* The check itself finds English: a sentence of the catalogue, as the C locale writes it. */
static void
test_check_finds_english (void)
{
  g_autofree char *mo = procura_test_catalogue_path ("de");
  g_autofree char *found = NULL;
  guint pieces = 0;

  const char *english = "Recommendation\n\nThe brief is missing: demand. The ranking is withheld until "
                        "it is complete.\n";

  found = procura_test_english_left (mo, english, &pieces);
  g_assert_nonnull (found);
  g_assert_true (g_str_equal (found, "The brief is missing:")
                 || g_str_equal (found, "The ranking is withheld until it is complete."));
  g_assert_cmpuint (pieces, >, 500);
  g_clear_pointer (&found, g_free);
  /* a product name or a unit kept by the translation is not English left over */
  found = procura_test_english_left (mo, "H100-SXM, vLLM 0.11, GiB, req/s\n", NULL);
  g_assert_null (found);
}

static void
test_markdown (void)
{
  g_autofree char *mo = procura_test_catalogue_path ("de");
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = g_build_filename (dir, "record.md", NULL);
  g_autofree char *md = NULL;
  g_autoptr (GString) text = NULL;
  g_autofree char *english = NULL;
  g_autofree char *heading = NULL;
  g_autoptr (ProcuraProject) project = procura_demo_project_new ();
  g_autoptr (GError) error = NULL;

  if (g_strcmp0 (_("Workload brief"), "Workload brief") == 0)
    g_error ("the German catalogue %s is not used (LANGUAGE=%s, LC_ALL=%s)", mo,
             g_getenv ("LANGUAGE"), g_getenv ("LC_ALL"));
  g_assert_true (procura_report_write (project, path, PROCURA_REPORT_MARKDOWN, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &md, NULL, &error));
  g_assert_no_error (error);

  /* with $PROCURA_GERMAN_RECORD set: a copy for a read */
  if (g_getenv ("PROCURA_GERMAN_RECORD") != NULL)
    g_file_set_contents (g_getenv ("PROCURA_GERMAN_RECORD"), md, -1, NULL);
  /* the headings are the catalogue's */
  heading = g_strdup_printf ("## %s\n", _("Workload brief"));
  g_assert_nonnull (strstr (md, heading));
  /* the demo's own names, notes and titles are data, not the catalogue's */
  text = g_string_new (md);
  procura_test_blank_project_text (text, project);
  english = procura_test_english_left (mo, text->str, NULL);
  if (english != NULL)
    g_error ("the Markdown record still reads \"%s\" in English:\n%s", english, text->str);

  /* the PDF lays the German record out too (longer words, the same pages) */
  {
    g_autofree char *pdf = g_build_filename (dir, "record.pdf", NULL);
    g_autofree char *bytes = NULL;
    gsize len = 0;

    g_assert_true (procura_report_write (project, pdf, PROCURA_REPORT_PDF, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (pdf, &bytes, &len, NULL));
    g_assert_true (len > 1000 && memcmp (bytes, "%PDF-", 5) == 0);
  }
  procura_test_rmtree (dir);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  procura_test_bind_build_catalogues ();
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report-german/check-finds-english", test_check_finds_english);
  g_test_add_func ("/report-german/markdown", test_markdown);
  return g_test_run ();
}
