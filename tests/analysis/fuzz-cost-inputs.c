/* fuzz-cost-inputs.c: `procura cost` inputs (COST-MODEL.md §8) from arbitrary bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Parses the bytes as JSON, reads the cost inputs, and runs everything an input can
 * reach: the evaluation, its JSON, the cost curve, the sensitivity and the what-ifs.
 */
#include "config.h"

#include <stdint.h>

#include <json-glib/json-glib.h>

#include "procura-cost.h"
#include "procura-sensitivity.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) inputs = NULL;
  g_autoptr(GError) error = NULL;

  if (size > 1 << 20)
    return 0;
  if (!json_parser_load_from_data (parser, (const char *) data, (gssize) size, NULL))
    return 0;
  inputs = procura_cost_inputs_from_json (json_parser_get_root (parser), "fuzz.json", &error);
  if (inputs == NULL)
    {
      g_assert_nonnull (error);
      g_assert_nonnull (error->message);
      return 0;
    }
  for (guint i = 0; i < inputs->len; i++)
    {
      const ProcuraCostInputs *in = g_ptr_array_index (inputs, i);
      g_autoptr(ProcuraCostResult) r = procura_cost_evaluate (in, NULL);
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(GArray) curve = NULL;
      g_autoptr(GPtrArray) sens = NULL;
      g_autoptr(GPtrArray) what = NULL;

      /* inputs that passed validation always evaluate */
      g_assert_nonnull (r);
      node = procura_cost_result_to_json (r);
      if (in->run_inputs != NULL)
        continue;
      curve = procura_cost_curve (in, 2.0 * (in->demand_average + 1.0), 24);
      sens = procura_sensitivity_run (in, 0.1);
      what = procura_what_if_run (in);
    }
  return 0;
}
