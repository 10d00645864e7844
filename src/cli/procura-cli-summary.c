/* procura-cli-summary.c: `procura summary PROJECT.procura [--json]`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include <math.h>

#include <json-glib/json-glib.h>

#include "procura-analysis.h"
#include "procura-cli.h"
#include "procura-store.h"
#include "procura-json-out.h"

int
procura_cli_summary (int    argc,
                     char **argv)
{
  gboolean json = FALSE, no_bootstrap = FALSE;
  char *metric = NULL;
  double percentile = NAN, threshold = NAN, average = NAN, peak = NAN;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Machine-readable output", NULL },
    { "metric", 0, 0, G_OPTION_ARG_STRING, &metric, "Latency metric instead of the brief's (ttft, tpot, itl, e2e)", "M" },
    { "percentile", 0, 0, G_OPTION_ARG_DOUBLE, &percentile, "Percentile instead of the brief's (50..100)", "P" },
    { "threshold-ms", 0, 0, G_OPTION_ARG_DOUBLE, &threshold, "Latency threshold instead of the brief's", "MS" },
    { "demand", 0, 0, G_OPTION_ARG_DOUBLE, &average, "Average demand (requests/s) instead of the brief's", "RPS" },
    { "peak", 0, 0, G_OPTION_ARG_DOUBLE, &peak, "Peak demand (requests/s) instead of the brief's", "RPS" },
    { "no-bootstrap", 0, 0, G_OPTION_ARG_NONE, &no_bootstrap, "Skip the bootstrap intervals", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("PROJECT.procura");
  g_autoptr(GError) error = NULL;
  g_autoptr(ProcuraStore) store = NULL;
  g_autoptr(ProcuraProject) project = NULL;
  g_autoptr(ProcuraAnalysis) analysis = NULL;
  ProcuraAnalysisOptions options;
  int status = PROCURA_EXIT_OK;

  g_option_context_set_summary (context, _("Per candidate: capacity at the latency target, cost per accepted "
                                         "output and its breakdown, warnings; the ranking and the "
                                         "recommendation."));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc != 2)
    {
      g_free (metric);
      return procura_cli_fail ("summary", PROCURA_EXIT_USAGE, _("usage: procura summary PROJECT.procura [--json]"));
    }
  if (metric != NULL && g_strcmp0 (metric, "ttft") != 0 && g_strcmp0 (metric, "tpot") != 0 &&
      g_strcmp0 (metric, "itl") != 0 && g_strcmp0 (metric, "e2e") != 0 &&
      g_strcmp0 (metric, "tpot_incl_first") != 0)
    {
      status = procura_cli_fail ("summary", PROCURA_EXIT_USAGE, _("--metric: expected ttft, tpot, itl or e2e, got “%s”"),
                                 metric);
      g_free (metric);
      return status;
    }
  if (!isnan (percentile) && !(percentile >= 0 && percentile <= 100))
    {
      g_free (metric);
      return procura_cli_fail ("summary", PROCURA_EXIT_USAGE, _("--percentile: expected a number from 0 to 100"));
    }

  store = procura_store_open (argv[1], PROCURA_STORE_OPEN_READ_ONLY, &error);
  if (store != NULL)
    project = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  /* the samples of the one latency metric the analysis reads, not the others */
  if (project != NULL && (metric != NULL || project->brief->slo_metric != NULL)
      && !procura_store_load_project_samples (store, project,
                                              metric != NULL ? metric : project->brief->slo_metric,
                                              &error))
    g_clear_pointer (&project, procura_project_free);
  if (project == NULL)
    {
      g_free (metric);
      return procura_cli_fail ("summary", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
    }

  procura_analysis_options_init (&options);
  options.slo_metric = metric;
  options.slo_percentile = percentile;
  options.slo_threshold_ms = threshold;
  options.demand_average = average;
  options.demand_peak = peak;
  options.no_bootstrap = no_bootstrap;
  analysis = procura_analysis_run (project, &options);

  if (json)
    {
      g_autoptr(JsonNode) root = procura_analysis_to_json (analysis, project);
      g_autofree char *text = NULL;

      text = procura_json_to_data (root, TRUE);
      g_print ("%s\n", text);
    }
  else
    {
      g_autofree char *text = procura_analysis_to_text (analysis, project);
      procura_cli_print ("%s", text);
    }
  g_free (metric);
  return status;
}
