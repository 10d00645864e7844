/* procura-cli-summary.c: `procura summary`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-cli.h"

/* NOT IMPLEMENTED YET: filled in by its issue. */
int
procura_cli_summary (int    argc,
                 char **argv)
{
  return procura_cli_fail ("summary", PROCURA_EXIT_USAGE, "not implemented yet");
}
