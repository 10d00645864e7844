/* fuzz-probe-plan.c: libFuzzer target for the probe's JSON reader (plans)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe-json.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  char *text = malloc (size + 1);
  char err[256];
  PjValue *v;

  if (text == NULL)
    return 0;
  memcpy (text, data, size);
  text[size] = '\0';
  v = pj_parse (text, err, sizeof err);
  if (v != NULL)
    {
      (void) pj_get (v, "gpus");
      pj_free (v);
    }
  free (text);
  return 0;
}
