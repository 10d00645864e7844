/* procura-cli-fit.c: `procura fit`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-cli.h"

/* NOT IMPLEMENTED YET: filled in by its issue. */
int
procura_cli_fit (int    argc,
                 char **argv)
{
  return procura_cli_fail ("fit", PROCURA_EXIT_USAGE, "not implemented yet");
}
