/* fuzz-json.c: the strict JSON front door, strict and with NaN/Infinity allowed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>

#include "procura-json.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  for (int flags = 0; flags < 2; flags++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (JsonNode) root = procura_json_parse ("fuzz.json", (const char *) data, size, 0,
                                                      (ProcuraJsonFlags) flags, &error);
      /* exactly one of root and error */
      if ((root == NULL) == (error == NULL))
        __builtin_trap ();
      if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
        {
          JsonObject *o = json_node_get_object (root);
          GList *members = json_object_get_members (o);
          for (GList *l = members; l; l = l->next)
            {
              double v;
              gint64 c;
              const char *s;
              procura_json_number ("fuzz.json", o, "$", l->data, &v, NULL);
              procura_json_number_lax ("fuzz.json", o, "$", l->data, &v, NULL);
              procura_json_count ("fuzz.json", o, "$", l->data, &c, NULL);
              procura_json_string ("fuzz.json", o, "$", l->data, &s, NULL);
            }
          g_list_free (members);
        }
    }
  return 0;
}
