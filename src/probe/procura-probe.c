/* procura-probe.c: the bundled CUDA fit probe (plain C11 + libc + dlopen)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PLACEHOLDER until the probe issue lands: says that it cannot probe yet.
 */
#include <stdio.h>

int
main (void)
{
  printf ("{\"event\":\"hello\",\"protocol\":1,\"probe_version\":\"0.1.0\"}\n");
  printf ("{\"event\":\"error\",\"kind\":\"not-implemented\",\"detail\":\"this probe build cannot probe yet\"}\n");
  printf ("{\"event\":\"done\",\"status\":\"failed\"}\n");
  return 3;
}
