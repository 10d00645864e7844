/* procura-cli-probe.c: `procura probe`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-cli.h"

/* NOT IMPLEMENTED YET: filled in by its issue. */
int
procura_cli_probe (int    argc,
                 char **argv)
{
  return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, "not implemented yet");
}
