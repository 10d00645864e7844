/* procura-cli-demo.c: `procura demo`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-cli.h"

/* NOT IMPLEMENTED YET: filled in by its issue. */
int
procura_cli_demo (int    argc,
                 char **argv)
{
  return procura_cli_fail ("demo", PROCURA_EXIT_USAGE, "not implemented yet");
}
