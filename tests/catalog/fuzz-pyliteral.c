/* fuzz-pyliteral.c: libFuzzer target for the Python-literal reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>

#include "procura-pyliteral.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = procura_pyliteral_parse ((const char *) data, (gssize) size, &error);

  if (node == NULL)
    {
      g_assert_nonnull (error);
      return 0;
    }
  /* what it built must be valid JSON again */
  {
    g_autofree char *json = json_to_string (node, FALSE);
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  }
  return 0;
}
