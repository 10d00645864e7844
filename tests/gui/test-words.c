/* test-words.c: the Decision page says each advice once; the recommendation slide is
 * short, one idea per line, the names once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "procura-gui-test.h"
#include "procura-test-util.h"
#include "procura-application.h"
#include "procura-analysis.h"
#include "procura-document.h"
#include "procura-presentation.h"

static ProcuraApplication *app;

static ProcuraWindow *
open_demo_window (void)
{
  ProcuraWindow *window = procura_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  procura_window_open_demo (window);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  return window;
}

/* Every label's text under @widget, visible or inside a closed expander. */
static void
collect_labels (GtkWidget *widget,
                GPtrArray *out)
{
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (out, (gpointer) gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, out);
}

static guint
count (GPtrArray  *labels,
       const char *text)
{
  guint n = 0;

  for (guint i = 0; i < labels->len; i++)
    for (const char *at = strstr (labels->pdata[i], text); at != NULL; at = strstr (at + strlen (text), text))
      n++;
  return n;
}

static void
test_decision_advice_once (void)
{
  ProcuraWindow *window = open_demo_window ();
  GtkWidget *page = procura_window_get_page (window, "decision");
  ProcuraDocument *document = procura_window_get_document (window);
  g_autoptr (ProcuraAnalysis) analysis = procura_analysis_run (procura_document_get_project (document), NULL);
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  guint n_shared = 0;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 5);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  procura_gui_test_settle ();
  procura_gui_test_expand_all (page);
  procura_gui_test_settle ();
  collect_labels (page, labels);
  g_assert_nonnull (procura_gui_test_find_label (page, "What to do"));
  for (guint i = 0; i < analysis->warnings->len; i++)
    {
      const ProcuraWarning *w = g_ptr_array_index (analysis->warnings, i);
      guint n_warnings = 0;

      for (guint j = 0; j < analysis->warnings->len; j++)
        n_warnings += g_strcmp0 (((ProcuraWarning *) g_ptr_array_index (analysis->warnings, j))->what_to_do,
                                 w->what_to_do) == 0;
      if (n_warnings > 1)
        n_shared++;
      /* said once, however many warnings it answers */
      g_assert_cmpuint (count (labels, w->what_to_do), ==, 1);
      /* each warning still there */
      g_assert_cmpuint (count (labels, w->message), >=, 1);
    }
  /* the demo's memory-fit advice concerns three candidates: a real repetition gone */
  g_assert_cmpuint (n_shared, >=, 2);
  /* naming the candidates it concerns */
  for (guint i = 0; i < analysis->warnings->len; i++)
    {
      const ProcuraWarning *w = g_ptr_array_index (analysis->warnings, i);
      const ProcuraCandidateAnalysis *ca = procura_analysis_find (analysis, w->candidate_id);
      gboolean named = FALSE;

      if (ca == NULL)
        continue;
      for (guint k = 0; k < labels->len; k++)
        if (g_str_has_prefix (labels->pdata[k], "For ") && strstr (labels->pdata[k], ca->name) != NULL)
          named = TRUE;
      g_assert_true (named);
    }
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
}

static void
test_slide_short (void)
{
  ProcuraWindow *window = open_demo_window ();
  ProcuraDocument *document = procura_window_get_document (window);
  ProcuraProject *project = procura_document_get_project (document);
  g_autoptr (ProcuraAnalysis) analysis = procura_analysis_run (project, NULL);
  GtkWidget *slide = procura_presentation_recommendation_slide (project, analysis);
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  const char *rec;
  guint naming = 0;

  g_assert_nonnull (slide);
  g_object_ref_sink (slide);
  collect_labels (slide, labels);
  for (guint i = 0; i < labels->len; i++)
    g_test_message ("slide: %s", (const char *) labels->pdata[i]);
  rec = analysis->recommendation->candidate_name;
  g_assert_nonnull (rec);
  /* the recommended option named once */
  g_assert_cmpuint (count (labels, rec), ==, 1);
  for (guint i = 0; i < labels->len; i++)
    /* short: no line runs on (before: the tipping points and the ranking's
     * uncertainty ran to two and three lines of 180 characters) */
    g_assert_cmpuint (g_utf8_strlen (labels->pdata[i], -1), <=, 100);
  /* every other candidate named on one line at most (a hybrid's parts inside its own
   * name do not count); before, the runner-up was named on four lines and a candidate
   * with two warnings on two */
  for (guint k = 0; k < analysis->candidates->len; k++)
    {
      const char *name = ((ProcuraCandidateAnalysis *) g_ptr_array_index (analysis->candidates, k))->name;
      guint lines = 0;

      if (g_str_equal (name, rec))
        continue;
      for (guint i = 0; i < labels->len; i++)
        {
          const char *line = labels->pdata[i];

          if (strstr (line, rec) != NULL)
            continue;
          if (strstr (line, name) != NULL)
            lines++;
        }
      g_assert_cmpuint (lines, <=, 1);
      naming += lines;
    }
  g_assert_cmpuint (naming, >=, 1);
  /* still there: the tipping points with their values in their units, the warnings */
  g_assert_cmpuint (count (labels, "per GPU-hour →"), >=, 1);
  g_assert_cmpuint (count (labels, "⚠ "), >=, 1);
  g_assert_cmpuint (count (labels, "Runner-up: "), ==, 1);
  g_object_unref (slide);
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
}

int
main (int    argc,
      char **argv)
{
  if (!procura_gui_test_init (&argc, &argv))
    return 0;
  app = procura_gui_test_application ();

  g_test_add_func ("/words/decision-advice-once", test_decision_advice_once);
  g_test_add_func ("/words/slide-short", test_slide_short);
  return procura_gui_test_run ();
}
