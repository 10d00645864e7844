/* test-import-prices.c: provider GPU names mapped to catalog GPUs per provider, the
 * catalog GPU of each quote in the normalised JSON, dropped rows counted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "procura-gpu-catalog.h"
#include "procura-import.h"
#include "procura-import-json.h"
#include "procura-test-util.h"

static const ProcuraQuote *
quote_for (ProcuraImportResult *r,
           const char          *gpu_name)
{
  for (guint i = 0; i < r->quotes->len; i++)
    {
      const ProcuraQuote *q = g_ptr_array_index (r->quotes, i);
      if (g_strcmp0 (q->gpu_name, gpu_name) == 0)
        return q;
    }
  g_error ("no quote for %s", gpu_name);
  return NULL;
}

static gboolean
has_warning (GPtrArray  *warnings,
             const char *needle)
{
  for (guint i = 0; i < warnings->len; i++)
    if (strstr (g_ptr_array_index (warnings, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

/* RunPod's names, as SkyPilot's RunPod catalog spells them: the plain names are the
 * PCIe cards */
static void
test_runpod_names (void)
{
  g_autofree char *path = procura_test_fixture ("import/skypilot-runpod-vms.csv");
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) r = procura_import_file (path, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (r->format, ==, "skypilot-vms-csv");
  g_assert_cmpstr (quote_for (r, "A100-80GB")->gpu_id, ==, "a100-pcie-80gb");
  g_assert_cmpstr (quote_for (r, "A100-80GB-SXM")->gpu_id, ==, "a100-sxm-80gb");
  g_assert_cmpstr (quote_for (r, "H100")->gpu_id, ==, "h100-pcie-80gb");
  g_assert_cmpstr (quote_for (r, "H100-SXM")->gpu_id, ==, "h100-sxm-80gb");
  g_assert_null (quote_for (r, "MYSTERY9000")->gpu_id);
  g_assert_true (has_warning (r->warnings, "2 CPU-only rows skipped (no GPU)"));
  g_assert_true (has_warning (r->warnings, "GPU \"MYSTERY9000\" (1 quotes) is not in the GPU catalog"));
}

/* The same names without a provider follow the generic rules (the SXM boards) */
static void
test_generic_names (void)
{
  g_assert_cmpstr (procura_gpu_catalog_lookup_provider (NULL, "A100-80GB", NAN)->id, ==, "a100-sxm-80gb");
  g_assert_cmpstr (procura_gpu_catalog_lookup_provider ("RunPod", "A100-80GB", NAN)->id, ==, "a100-pcie-80gb");
  g_assert_cmpstr (procura_gpu_catalog_lookup_provider ("gcp", "A100", NAN)->id, ==, "a100-sxm-40gb");
  g_assert_cmpstr (procura_gpu_catalog_lookup_provider ("aws", "H100", NAN)->id, ==, "h100-sxm-80gb");
}

/* The normalised JSON (inspect --json) names the catalog GPU of each quote */
static void
test_json_gpu_id (void)
{
  g_autofree char *path = procura_test_fixture ("import/skypilot-runpod-vms.csv");
  g_autoptr (ProcuraImportResult) r = procura_import_file (path, NULL, NULL, NULL);
  g_autoptr (JsonNode) node = procura_import_result_to_json (r);
  JsonArray *quotes = json_object_get_array_member (json_node_get_object (node), "quotes");
  guint with_id = 0;

  g_assert_cmpuint (json_array_get_length (quotes), ==, r->quotes->len);
  for (guint i = 0; i < json_array_get_length (quotes); i++)
    {
      JsonObject *q = json_array_get_object_element (quotes, i);
      const ProcuraQuote *src = g_ptr_array_index (r->quotes, i);

      g_assert_true (json_object_has_member (q, "gpu_id"));
      if (src->gpu_id != NULL)
        {
          g_assert_cmpstr (json_object_get_string_member (q, "gpu_id"), ==, src->gpu_id);
          with_id++;
        }
      else
        g_assert_true (json_object_get_null_member (q, "gpu_id"));
    }
  g_assert_cmpuint (with_id, ==, 4);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/import/prices/runpod-names", test_runpod_names);
  g_test_add_func ("/import/prices/generic-names", test_generic_names);
  g_test_add_func ("/import/prices/json-gpu-id", test_json_gpu_id);
  return g_test_run ();
}
