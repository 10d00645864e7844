/* procura-store-probe.c: the probe fleet's failed nodes in a project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "procura-json.h"
#include "procura-json-out.h"
#include "procura-store-probe.h"

void
procura_store_probe_split_failures (ProcuraProject *project)
{
  guint i = 0;

  while (i < project->probe_results->len)
    {
      ProcuraProbeResult *r = g_ptr_array_index (project->probe_results, i);

      if (g_strcmp0 (r->test, PROCURA_PROBE_TEST_NODE_FAILED) == 0)
        g_ptr_array_add (project->probe_failures, g_ptr_array_steal_index (project->probe_results, i));
      else
        i++;
    }
}

char *
procura_probe_failure_get (const ProcuraProbeResult *failure,
                           const char               *member)
{
  g_autoptr (JsonNode) root = NULL;
  JsonNode *node;

  if (failure->json == NULL)
    return NULL;
  /* the store checked the column when it was read; the strict reader all the same */
  root = procura_json_parse ("probe_results.json", failure->json, strlen (failure->json), 0,
                             PROCURA_JSON_STRICT, NULL);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  node = json_object_get_member (json_node_get_object (root), member);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return g_strdup (json_node_get_string (node));
}

char *
procura_probe_failure_json (const char *host,
                            const char *status,
                            const char *reason)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "event");
  json_builder_add_string_value (b, PROCURA_PROBE_TEST_NODE_FAILED);
  json_builder_set_member_name (b, "host");
  json_builder_add_string_value (b, host);
  json_builder_set_member_name (b, "status");
  json_builder_add_string_value (b, status);
  json_builder_set_member_name (b, "reason");
  json_builder_add_string_value (b, reason);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return procura_json_to_data (root, FALSE);
}
