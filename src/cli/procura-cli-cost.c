/* procura-cli-cost.c: `procura cost INPUTS.json [--json]`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Evaluates the cost model on explicit inputs (shared/design/COST-MODEL.md §8; schema
 * in data/schemas/cost-inputs.schema.json).
 */
#include "config.h"

#include <glib/gi18n.h>

#include <math.h>

#include <json-glib/json-glib.h>

#include "procura-cli.h"
#include "procura-cost.h"
#include "procura-json-out.h"

/* A figure, or "n/a" where it does not exist (never "nan"). */
#define NUM(format, v) (isfinite (v) ? g_strdup_printf (format, (double) (v)) : g_strdup ("n/a"))

static void
print_text (GPtrArray *results)
{
  for (guint i = 0; i < results->len; i++)
    {
      const ProcuraCostResult *r = g_ptr_array_index (results, i);
      g_autofree char *total = NUM ("%14.2f", r->all_in_cost);
      g_autofree char *each = NUM ("%.9g", r->cost_per_accepted);
      g_autofree char *per_k = NUM ("%.4f", 1000.0 * r->cost_per_accepted);

      procura_cli_print ("%s\n", r->name);
      if (r->run_workload)
        procura_cli_print (_("  %.4g wall-clock hours per run\n"), r->billed_hours);
      else if (r->kind != PROCURA_CANDIDATE_API)
        {
          g_autofree char *u = NUM ("%.1f %%", 100.0 * r->utilization);
          procura_cli_print (_("  replicas %d, utilisation %s\n"), r->replicas, u);
        }
      if (!r->feasible)
        procura_cli_print (_("  NOT FEASIBLE: %s\n"), r->infeasible_reason);
      for (guint l = 0; l < PROCURA_COST_N_LINES; l++)
        if (procura_cost_result_line_applies (r, l))
          procura_cli_print ("  %-20s %14.2f\n", procura_cost_line_name (l), r->lines[l]);
      procura_cli_print ("  %-20s %s\n", r->run_workload ? "cost per run" : "all_in_cost", total);
      if (r->run_workload)
        {
          /* a run either completes at the target or not: the count is P(success) per run */
          procura_cli_print (_("  completed runs per run started %.4g (success probability)\n"), r->accepted_outputs);
          procura_cli_print (_("  cost per completed run %s\n"), each);
        }
      else
        {
          procura_cli_print (_("  accepted outputs %14.0f\n"), r->accepted_outputs);
          procura_cli_print (_("  cost per accepted output %s (%s per 1k)\n"), each, per_k);
        }
      for (guint k = 0; r->notes != NULL && k < r->notes->len; k++)
        procura_cli_print (_("  note: %s\n"), (const char *) g_ptr_array_index (r->notes, k));
    }
}

int
procura_cli_cost (int    argc,
                  char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Machine-readable output", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("INPUTS.json");
  g_autoptr(GPtrArray) inputs = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *base = NULL;

  g_option_context_set_summary (context, _("Evaluates the cost model on explicit inputs."));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc != 2)
    return procura_cli_fail ("cost", PROCURA_EXIT_USAGE, _("usage: procura cost INPUTS.json [--json]"));

  base = g_path_get_basename (argv[1]);
  /* core reads the file (a regular file only, the strict JSON reader): never the CLI */
  inputs = procura_cost_inputs_load (argv[1], &error);
  if (inputs == NULL)
    return procura_cli_fail ("cost", PROCURA_EXIT_BAD_INPUT, "%s", error->message);

  results = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_cost_result_free);
  for (guint i = 0; i < inputs->len; i++)
    {
      ProcuraCostResult *r = procura_cost_evaluate (g_ptr_array_index (inputs, i), &error);
      if (r == NULL)
        return procura_cli_fail ("cost", PROCURA_EXIT_BAD_INPUT, "%s: candidates[%u].%s", base, i, error->message);
      g_ptr_array_add (results, r);
    }

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "candidates");
      json_builder_begin_array (b);
      for (guint i = 0; i < results->len; i++)
        json_builder_add_value (b, procura_cost_result_to_json (g_ptr_array_index (results, i)));
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      text = procura_json_to_data (root, TRUE);
      g_print ("%s\n", text);
    }
  else
    print_text (results);
  return PROCURA_EXIT_OK;
}
