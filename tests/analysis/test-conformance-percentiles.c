/* test-conformance-percentiles.c: percentiles recomputed from real per-request samples
 * equal the ones numpy computed in the tool that wrote the file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * vLLM's benchmark_serving.py computes p99_ttft_ms and median_ttft_ms with
 * np.percentile / np.median over its own `ttfts` array; the analysis recomputes them
 * from the samples the importer keeps. They must agree to rounding.
 */
#include "config.h"

#include <math.h>

#include <json-glib/json-glib.h>

#include "procura-analysis.h"
#include "procura-import.h"
#include "procura-test-util.h"

#define FILE_ "vllm-bench-serve/lambdalabs__1xH100-80GB-SXM_Mistral-7B-Instruct-v0.3_tp1_len2048.json"

static void
test_vllm_numpy (void)
{
  g_autofree char *path = procura_test_real_fixture (FILE_);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(ProcuraImportResult) imported = NULL;
  JsonObject *o;
  const ProcuraRun *run;
  ProcuraSource source;
  gint64 n = 0;
  double p99, p50, file_p99, file_p50;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  o = json_node_get_object (json_parser_get_root (parser));
  file_p99 = json_object_get_double_member (o, "p99_ttft_ms");
  file_p50 = json_object_get_double_member (o, "median_ttft_ms");

  imported = procura_import_file (path, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (imported->runs->len, ==, 1);
  run = g_ptr_array_index (imported->runs, 0);

  p99 = procura_run_metric_percentile (run, "ttft", 99, &source, &n);
  g_assert_cmpint (source, ==, PROCURA_SOURCE_RECOMPUTED);
  g_assert_cmpint (n, ==, (gint64) json_array_get_length (json_object_get_array_member (o, "ttfts")));
  g_assert_cmpfloat_with_epsilon (p99, file_p99, 1e-9 * file_p99);
  p50 = procura_run_metric_percentile (run, "ttft", 50, &source, &n);
  g_assert_cmpfloat_with_epsilon (p50, file_p50, 1e-9 * file_p50);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/conformance/vllm-numpy-percentiles", test_vllm_numpy);
  return g_test_run ();
}
