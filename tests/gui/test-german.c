/* test-german.c: the Decision page of the demo project under LANGUAGE=de reads in
 * German: no sentence of the catalogue is left in English
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "procura-demo.h"
#include "procura-gui-test.h"
#include "procura-test-data.h"
#include "procura-test-util.h"

static ProcuraApplication *app;

static void
test_decision_page (void)
{
  g_autofree char *mo = procura_test_catalogue_path ("de");
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *english = NULL;
  ProcuraWindow *window;
  GtkWidget *page;
  g_autoptr (ProcuraProject) demo = NULL;
  guint pieces = 0;

  /* the catalogue is the one the build made, and gettext reads it */
  g_assert_true (g_file_test (mo, G_FILE_TEST_EXISTS));
  if (g_strcmp0 (_("Decision"), "Decision") == 0)
    g_error ("the German catalogue %s is not used (LANGUAGE=%s, LC_ALL=%s)", mo,
             g_getenv ("LANGUAGE"), g_getenv ("LC_ALL"));

  window = procura_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  procura_window_open_demo (window);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  for (guint i = 0; procura_window_page_names[i] != NULL; i++)
    if (g_str_equal (procura_window_page_names[i], "decision"))
      gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", i);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  procura_gui_test_settle ();

  page = procura_window_get_page (window, "decision");
  g_assert_nonnull (page);
  procura_gui_test_collect_labels (page, text);
  /* the page shows the analysis: its recommendation and warnings come from core */
  g_assert_cmpuint (text->len, >, 2000);
  g_test_message ("the Decision page shows %" G_GSIZE_FORMAT " bytes of text", text->len);

  /* the demo's own names, notes and titles are data, not the catalogue's */
  demo = procura_demo_project_new ();
  procura_test_blank_project_text (text, demo);
  /* with $PROCURA_GERMAN_PAGE set: the page's text for a read */
  if (g_getenv ("PROCURA_GERMAN_PAGE") != NULL)
    g_file_set_contents (g_getenv ("PROCURA_GERMAN_PAGE"), text->str, -1, NULL);
  english = procura_test_english_left (mo, text->str, &pieces);
  g_assert_cmpuint (pieces, >, 500);
  if (english != NULL)
    g_error ("the Decision page still reads \"%s\" in English:\n%s", english, text->str);

  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
}

int
main (int    argc,
      char **argv)
{
  /* gtk_init_check() calls setlocale(): the domain is bound before it */
  procura_test_bind_build_catalogues ();
  if (!procura_gui_test_init (&argc, &argv))
    return 0;
  app = procura_gui_test_application ();

  g_test_add_func ("/german/decision-page", test_decision_page);
  return procura_gui_test_run ();
}
