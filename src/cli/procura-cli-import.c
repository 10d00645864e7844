/* procura-cli-import.c: `procura import`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-cli.h"

/* NOT IMPLEMENTED YET: filled in by its issue. */
int
procura_cli_import (int    argc,
                 char **argv)
{
  return procura_cli_fail ("import", PROCURA_EXIT_USAGE, "not implemented yet");
}

int
procura_cli_inspect (int    argc,
                     char **argv)
{
  return procura_cli_fail ("inspect", PROCURA_EXIT_USAGE, "not implemented yet");
}
