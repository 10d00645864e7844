/* procura-cli-cost.c: `procura cost`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-cli.h"

/* NOT IMPLEMENTED YET: filled in by its issue. */
int
procura_cli_cost (int    argc,
                 char **argv)
{
  return procura_cli_fail ("cost", PROCURA_EXIT_USAGE, "not implemented yet");
}
