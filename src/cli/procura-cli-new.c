/* procura-cli-new.c: `procura new`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-cli.h"

/* NOT IMPLEMENTED YET: filled in by its issue. */
int
procura_cli_new (int    argc,
                 char **argv)
{
  return procura_cli_fail ("new", PROCURA_EXIT_USAGE, "not implemented yet");
}
