/* test-currency.c: one way of writing money, in the project's currency, everywhere
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A EUR project: the summary text (`procura summary`), the Markdown report, the charts'
 * text (the axis labels, the table view and the text alternative that the SVG and PNG
 * are drawn from) and the shared formatting module write € and never $.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "procura-analysis.h"
#include "procura-demo.h"
#include "procura-figures.h"
#include "procura-chart.h"
#include "procura-report.h"
#include "procura-units.h"
#include "procura-test-util.h"

static ProcuraProject *
eur_demo (void)
{
  ProcuraProject *p = procura_demo_project_new ();

  g_free (p->assumptions.currency);
  p->assumptions.currency = g_strdup ("EUR");
  /* its quotes too: a quote keeps its own currency wherever it is shown */
  for (guint i = 0; i < p->quotes->len; i++)
    {
      ProcuraQuote *q = g_ptr_array_index (p->quotes, i);
      g_free (q->currency);
      q->currency = g_strdup ("EUR");
    }
  return p;
}

static void
assert_euro (const char *what,
             const char *text)
{
  if (strstr (text, "$") != NULL || strstr (text, "USD") != NULL)
    g_error ("%s writes dollars in a EUR project:\n%s", what, text);
  g_assert_nonnull (strstr (text, "€"));
}

static void
test_units (void)
{
  g_autofree char *m = procura_units_money (55255.5, "EUR");
  g_autofree char *u = procura_units_money (-1234567, NULL);
  g_autofree char *c = procura_units_money (12.5, "CHF");
  g_autofree char *k = procura_units_cost_with_unit (0.0009687, 1e3, "accepted response", "EUR");
  g_autofree char *one = procura_units_cost_with_unit (0.42, 1, "accepted clip", "GBP");
  g_autofree char *e = procura_units_cost_per_output (0.0009687, "EUR");
  g_autofree char *pct = procura_units_percent (0.199, 1);
  g_autofree char *tok = procura_units_tokens (32768);
  g_autofree char *gib = procura_units_gib (80.0 * 1024 * 1024 * 1024);
  g_autofree char *rps = procura_units_req_per_s (12.34);
  g_autofree char *count = procura_units_count (2000000);
  g_autofree char *small = procura_units_count (999.6);

  g_assert_cmpstr (m, ==, "€55,255.50");
  g_assert_cmpstr (u, ==, "-$1,234,567.00");
  g_assert_cmpstr (c, ==, "12.50 CHF");
  g_assert_cmpstr (k, ==, "€0.969 per 1,000 accepted responses");
  g_assert_cmpstr (one, ==, "£0.42 per accepted clip");
  g_assert_cmpstr (e, ==, "€0.0009687");
  g_assert_cmpstr (pct, ==, "19.9 %");
  g_assert_cmpstr (tok, ==, "32.8 k tokens");
  g_assert_cmpstr (gib, ==, "80.0 GiB");
  g_assert_cmpstr (rps, ==, "12.3 req/s");
  g_assert_cmpstr (count, ==, "2,000,000");
  g_assert_cmpstr (small, ==, "1,000");
  g_assert_cmpfloat (procura_units_scale (1e6), ==, 1e6);
  g_assert_cmpfloat (procura_units_scale (1e3), ==, 1e3);
}

static void
test_summary_text (void)
{
  g_autoptr (ProcuraProject) p = eur_demo ();
  g_autoptr (ProcuraAnalysis) a = procura_analysis_run (p, NULL);
  g_autofree char *text = procura_analysis_to_text (a, p);

  g_assert_nonnull (a->recommendation);
  assert_euro ("procura summary", text);
  for (guint i = 0; i < a->recommendation->reasons->len; i++)
    g_assert_null (strstr (g_ptr_array_index (a->recommendation->reasons, i), "$"));
}

static void
test_charts (void)
{
  g_autoptr (ProcuraProject) p = eur_demo ();
  g_autoptr (ProcuraAnalysis) a = procura_analysis_run (p, NULL);
  g_autoptr (GPtrArray) charts = procura_figure_build_all (p, a);
  g_autofree char *dir = procura_test_mkdtemp ();
  guint money_charts = 0;

  for (guint i = 0; i < charts->len; i++)
    {
      ProcuraChart *chart = g_ptr_array_index (charts, i);
      g_autofree char *summary = NULL;
      g_autofree char *svg = g_strdup_printf ("%s/%u.svg", dir, i);
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) table = NULL;
      GString *all = g_string_new (NULL);

      if (chart == NULL)
        continue;
      summary = procura_chart_summary (chart);
      g_string_append (all, summary);
      g_string_append_printf (all, " | %s", procura_chart_get_title (chart));
      table = procura_chart_table (chart, 0);
      for (guint r = 0; table != NULL && r < table->len; r++)
        {
          char **row = g_ptr_array_index (table, r);
          for (guint k = 0; row[k] != NULL; k++)
            g_string_append_printf (all, " | %s", row[k]);
        }
      /* the SVG draws its text as glyph outlines: drawing must work, and what it writes
       * is what the summary and table above say */
      g_assert_true (procura_chart_write_svg (chart, svg, 640, 400, procura_chart_theme_light (), &error));
      g_assert_no_error (error);
      g_assert_null (strstr (all->str, "$"));
      if (strstr (all->str, "€") != NULL)
        money_charts++;
      g_string_free (all, TRUE);
    }
  /* cost vs demand, the breakdown, Pareto, break-even and sensitivity show money */
  g_assert_cmpuint (money_charts, >=, 3);
  procura_test_rmtree (dir);
}

static void
test_report_markdown (void)
{
  g_autoptr (ProcuraProject) p = eur_demo ();
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *path = g_build_filename (dir, "record.md", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (procura_report_write (p, path, PROCURA_REPORT_MARKDOWN, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  assert_euro ("the Markdown report", text);
  procura_test_rmtree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/currency/units", test_units);
  g_test_add_func ("/currency/summary-text", test_summary_text);
  g_test_add_func ("/currency/charts", test_charts);
  g_test_add_func ("/currency/report-markdown", test_report_markdown);
  return g_test_run ();
}
