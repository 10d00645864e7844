/* procura-cli-render.c: `procura render PROJECT.procura FIGURE --output OUT.png|.svg|.pdf`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "procura-capacity.h"
#include "procura-cli.h"
#include "procura-figures.h"
#include "procura-store.h"
#include "procura-util.h"
#include "procura-json-out.h"

/* Whether the analysis reads the same percentile of the brief's metric from every run's
 * statistics as from its samples: the import keeps the percentiles it recomputed from
 * them, so a figure that shows no confidence interval (the CDF) needs the samples only
 * for a percentile the import did not keep. */
static gboolean
percentiles_kept (const ProcuraProject *project)
{
  const char *metric = project->brief->slo_metric;
  g_autofree char *stat = NULL;

  if (metric == NULL)
    return TRUE;
  /* the analysis' percentile */
  stat = procura_percentile_stat_name (procura_brief_slo_percentile (project->brief));
  for (guint i = 0; i < project->runs->len; i++)
    {
      const ProcuraRun *run = g_ptr_array_index (project->runs, i);
      const ProcuraStat *st;

      if (procura_run_get_quantiles (run, metric) == NULL)
        continue;   /* no samples: the analysis reads the statistics either way */
      st = procura_run_get_stat (run, metric, stat);
      if (st == NULL || st->source != PROCURA_SOURCE_RECOMPUTED)
        return FALSE;
    }
  return TRUE;
}

static char *
figure_list (void)
{
  return g_strjoinv (", ", (char **) procura_figure_names);
}

int
procura_cli_render (int    argc,
                    char **argv)
{
  char *output = NULL;
  char *theme_name = NULL;
  int width = 1200, height = 700;
  double scale = 1;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("The file to write: .png, .svg or .pdf"), "OUT" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, N_("Width in pixels (points for SVG and PDF), default 1200"), "W" },
    { "height", 0, 0, G_OPTION_ARG_INT, &height, N_("Height in pixels (points for SVG and PDF), default 700"), "H" },
    { "scale", 0, 0, G_OPTION_ARG_DOUBLE, &scale, N_("PNG only: device pixels per pixel (2 for HiDPI), default 1"), "S" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &theme_name, N_("light (default), dark or high-contrast"), "THEME" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print what was written (file, figure, summary) as JSON"), NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("PROJECT.procura FIGURE");
  g_autoptr(GError) error = NULL;
  g_autoptr(ProcuraStore) store = NULL;
  g_autoptr(ProcuraProject) project = NULL;
  g_autoptr(ProcuraChart) chart = NULL;
  g_autofree char *names = figure_list ();
  g_autofree char *summary_text = NULL;
  g_autofree char *lower = NULL;
  const ProcuraChartTheme *theme;
  int status = PROCURA_EXIT_OK;
  gboolean ok;

  {
    g_autofree char *description = g_strdup_printf (_("FIGURE is one of: %s."), names);
    g_option_context_set_summary (context, _("Draws one of the project's standard figures to a PNG, SVG or PDF file."));
    g_option_context_set_description (context, description);
  }
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;

  if (argc != 3)
    {
      status = procura_cli_fail ("render", PROCURA_EXIT_USAGE,
                                 _("usage: procura render PROJECT.procura FIGURE --output OUT.png|.svg|.pdf "
                                 "[--width W] [--height H] [--theme light|dark|high-contrast]; FIGURE: %s"), names);
      goto out;
    }
  if (!procura_figure_is_known (argv[2]))
    {
      status = procura_cli_fail ("render", PROCURA_EXIT_USAGE, _("unknown figure “%s”; the figures are: %s"),
                                 argv[2], names);
      goto out;
    }
  if (output == NULL)
    {
      status = procura_cli_fail ("render", PROCURA_EXIT_USAGE, _("--output OUT.png|.svg|.pdf is required"));
      goto out;
    }
  lower = g_ascii_strdown (output, -1);
  if (!g_str_has_suffix (lower, ".png") && !g_str_has_suffix (lower, ".svg") && !g_str_has_suffix (lower, ".pdf"))
    {
      status = procura_cli_fail ("render", PROCURA_EXIT_USAGE, _("--output: %s: the name must end in .png, .svg or .pdf"),
                                 output);
      goto out;
    }
  if (width < 200 || width > 10000 || height < 150 || height > 10000)
    {
      status = procura_cli_fail ("render", PROCURA_EXIT_USAGE, _("--width and --height: expected 200..10000 and 150..10000"));
      goto out;
    }
  if (!(scale >= 0.5 && scale <= 4))
    {
      status = procura_cli_fail ("render", PROCURA_EXIT_USAGE, _("--scale: expected 0.5 to 4"));
      goto out;
    }
  theme = procura_chart_theme_by_name (theme_name);
  if (theme == NULL)
    {
      status = procura_cli_fail ("render", PROCURA_EXIT_USAGE, _("--theme: expected light, dark or high-contrast, got “%s”"),
                                 theme_name);
      goto out;
    }

  status = procura_cli_check_output ("render", output, argv[1]);
  if (status != PROCURA_EXIT_OK)
    goto out;

  store = procura_store_open (argv[1], PROCURA_STORE_OPEN_READ_ONLY, &error);
  if (store != NULL && g_str_equal (argv[2], "cdf"))
    {
      /* the CDF is drawn from the kept quantile summary, without the samples (25 M of
       * them are 200 MB) unless the analysis needs them for its percentile */
      project = procura_store_load_project (store, PROCURA_STORE_LOAD_SLO_QUANTILES, &error);
      if (project != NULL && !percentiles_kept (project)
          && !procura_store_load_project_samples (store, project, project->brief->slo_metric, &error))
        g_clear_pointer (&project, procura_project_free);
    }
  else if (store != NULL)
    project = procura_store_load_project (store, PROCURA_STORE_LOAD_SLO_SAMPLES, &error);
  if (project == NULL)
    {
      /* the store's messages name the file */
      status = procura_cli_fail ("render", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
      goto out;
    }

  chart = procura_figure_build (argv[2], project, NULL, &error);
  if (chart == NULL)
    {
      status = procura_cli_fail ("render", PROCURA_EXIT_USAGE, "%s", error->message);
      goto out;
    }
  if (g_str_has_suffix (lower, ".png"))
    ok = procura_chart_write_png (chart, output, width, height, scale, theme, &error);
  else
    ok = procura_chart_write_file (chart, output, width, height, theme, &error);
  if (!ok)
    {
      status = procura_cli_fail ("render", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
      goto out;
    }

  summary_text = procura_chart_summary (chart);
  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autofree char *display = g_filename_display_name (output);  /* JSON is UTF-8 */
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "file");
      json_builder_add_string_value (b, display);
      json_builder_set_member_name (b, "figure");
      json_builder_add_string_value (b, argv[2]);
      json_builder_set_member_name (b, "title");
      json_builder_add_string_value (b, procura_chart_get_title (chart));
      json_builder_set_member_name (b, "width");
      json_builder_add_int_value (b, width);
      json_builder_set_member_name (b, "height");
      json_builder_add_int_value (b, height);
      json_builder_set_member_name (b, "summary");
      json_builder_add_string_value (b, summary_text);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      text = procura_json_to_data (root, TRUE);
      g_print ("%s\n", text);
    }
  else
    procura_cli_print ("%s: %s\n", output, summary_text);

out:
  g_free (output);
  g_free (theme_name);
  return status;
}
