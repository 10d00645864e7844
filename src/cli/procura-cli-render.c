/* procura-cli-render.c: `procura render`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-cli.h"

/* NOT IMPLEMENTED YET: filled in by its issue. */
int
procura_cli_render (int    argc,
                 char **argv)
{
  return procura_cli_fail ("render", PROCURA_EXIT_USAGE, "not implemented yet");
}
