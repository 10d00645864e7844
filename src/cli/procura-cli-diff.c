/* procura-cli-diff.c: `procura diff OLD.procura NEW.procura [--json]`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What changed since the last review: the brief, the assumptions, the decision,
 * candidates, quotes and runs, and the consequences (capacity, cost per accepted output,
 * rank, the recommendation). Exits 0 whether or not anything changed.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "procura-json-out.h"
#include "procura-cli.h"
#include "procura-diff.h"

int
procura_cli_diff (int    argc,
                  char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Machine-readable output (members in docs/diff.md)"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (_("OLD.procura NEW.procura — what changed since the last review"));
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraDiff) diff = NULL;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc != 3)
    return procura_cli_fail ("diff", PROCURA_EXIT_USAGE,
                             _("expected two project files (OLD.procura NEW.procura), got %d"), argc - 1);

  diff = procura_diff_files (argv[1], argv[2], &error);
  if (diff == NULL)
    return procura_cli_fail ("diff", PROCURA_EXIT_BAD_INPUT, "%s", error->message);

  if (json)
    {
      g_autoptr (JsonGenerator) gen = json_generator_new ();
      g_autoptr (JsonNode) root = procura_diff_to_json (diff);
      g_autofree char *text = NULL;

      json_generator_set_root (gen, root);
      json_generator_set_pretty (gen, TRUE);
      text = procura_json_to_data (root, TRUE);
      g_print ("%s\n", text);
    }
  else
    {
      g_autofree char *text = procura_diff_to_text (diff);
      procura_cli_print ("%s", text);
    }
  return PROCURA_EXIT_OK;
}
