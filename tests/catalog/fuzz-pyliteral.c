/* fuzz-pyliteral.c: libFuzzer target for the Python-literal reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "procura-pyliteral.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
walk (JsonNode *node,
      guint     depth)
{
  g_assert_cmpuint (depth, <=, PROCURA_PYLITERAL_MAX_DEPTH);
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter it;
        const char *key;
        JsonNode *member;

        json_object_iter_init (&it, json_node_get_object (node));
        while (json_object_iter_next (&it, &key, &member))
          {
            g_assert_true (g_utf8_validate (key, -1, NULL));
            walk (member, depth + 1);
          }
      }
      break;
    case JSON_NODE_ARRAY:
      {
        JsonArray *a = json_node_get_array (node);
        for (guint i = 0; i < json_array_get_length (a); i++)
          walk (json_array_get_element (a, i), depth + 1);
      }
      break;
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        g_assert_true (g_utf8_validate (json_node_get_string (node), -1, NULL));
      else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
        g_assert_true (isfinite (json_node_get_double (node)));
      break;
    case JSON_NODE_NULL:
    default:
      break;
    }
}

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
  /* what it built is a well-formed tree of valid UTF-8 strings */
  walk (node, 0);
  return 0;
}
