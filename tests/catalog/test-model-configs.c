/* test-model-configs.c: the real config.json files of shared/fixtures/real/model-configs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "procura-model-catalog.h"
#include "procura-test-util.h"

/* Published totals: Hugging Face model pages, the DeepSeek-V3 report (671 B without
 * the MTP module), the gpt-oss model card, NVIDIA's Nemotron Super 49B card (49.9 B). */
static const struct {
  const char *file, *id;
  double      published;
  int         layers, hidden, kv_heads, experts;
  const char *dtype;
} configs[] = {
  { "aic__meta-llama--Meta-Llama-3.1-8B_config.json", "meta-llama/Meta-Llama-3.1-8B", 8.03e9, 32, 4096, 8, 0, "bf16" },
  { "aic__meta-llama--Meta-Llama-3.1-70B_config.json", "meta-llama/Meta-Llama-3.1-70B", 70.6e9, 80, 8192, 8, 0, "bf16" },
  { "aic__mistralai--Mixtral-8x7B-v0.1_config.json", "mistralai/Mixtral-8x7B-v0.1", 46.7e9, 32, 4096, 8, 8, "bf16" },
  { "aic__deepseek-ai--DeepSeek-V3_config.json", "deepseek-ai/DeepSeek-V3", 671e9, 61, 7168, 128, 256, "fp8" },
  { "aic__Qwen--Qwen3-30B-A3B_config.json", "Qwen/Qwen3-30B-A3B", 30.5e9, 48, 2048, 4, 128, "bf16" },
  { "aic__Qwen--Qwen3-32B_config.json", "Qwen/Qwen3-32B", 32.8e9, 64, 5120, 8, 0, "bf16" },
  { "aic__openai--gpt-oss-20b_config.json", "openai/gpt-oss-20b", 20.91e9, 24, 2880, 8, 32, "mxfp4" },
  { "aic__openai--gpt-oss-120b_config.json", "openai/gpt-oss-120b", 116.83e9, 36, 2880, 8, 128, "mxfp4" },
  { "aic__nvidia--Llama-3.1-70B-Instruct-FP8_config.json", "nvidia/Llama-3.1-70B-Instruct-FP8", 70.6e9, 80, 8192, 8, 0, "bf16" },
  { "aic__nvidia--Llama-3_3-Nemotron-Super-49B-v1_config.json", "nvidia/Llama-3_3-Nemotron-Super-49B-v1", 49.9e9, 80, 8192, 5, 0, "bf16" },
};

static void
test_configs (void)
{
  g_autofree char *dir = procura_test_real_fixture ("model-configs");

  if (dir == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (configs); i++)
    {
      g_autofree char *path = g_build_filename (dir, configs[i].file, NULL);
      g_autofree char *text = NULL;
      g_autoptr(ProcuraImportResult) r = procura_import_result_new ();
      g_autoptr(GError) error = NULL;
      ProcuraModelShape *m;
      gsize len = 0;
      double computed;

      g_test_message ("%s", configs[i].file);
      g_assert_true (g_file_get_contents (path, &text, &len, NULL));
      g_assert_cmpint (procura_importer_hf_config.sniff (text, len), >=, 50);
      g_assert_true (procura_importer_hf_config.parse (configs[i].file, text, len, r, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (r->model_shapes->len, ==, 1);
      m = g_ptr_array_index (r->model_shapes, 0);
      g_assert_cmpstr (m->id, ==, configs[i].id);
      g_assert_cmpint (m->num_layers, ==, configs[i].layers);
      g_assert_cmpint (m->hidden_size, ==, configs[i].hidden);
      g_assert_cmpint (m->num_kv_heads, ==, configs[i].kv_heads);
      g_assert_cmpint (m->num_experts, ==, configs[i].experts);
      g_assert_cmpstr (m->weights_dtype, ==, configs[i].dtype);
      computed = procura_model_shape_param_count (m);
      g_test_message ("  computed %.3f B, published %.3f B", computed / 1e9, configs[i].published / 1e9);
      g_assert_cmpfloat (fabs (computed / configs[i].published - 1), <, 0.01);
      /* shapes the catalog knows carry the published figure for display */
      if (!isnan (m->published_params))
        g_assert_cmpfloat (fabs (m->published_params / configs[i].published - 1), <, 0.01);
    }
}

static void
test_nemotron_warns (void)
{
  g_autofree char *path = procura_test_real_fixture ("model-configs/aic__nvidia--Llama-3_3-Nemotron-Super-49B-v1_config.json");
  g_autofree char *text = NULL;
  g_autoptr(ProcuraImportResult) r = procura_import_result_new ();
  gsize len = 0;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  g_assert_true (procura_importer_hf_config.parse ("nemotron.json", text, len, r, NULL, NULL));
  g_assert_cmpuint (r->warnings->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (r->warnings, 0), "block_configs"));
}

static void
test_quant_descriptor_is_not_a_shape (void)
{
  g_autofree char *path = procura_test_real_fixture ("model-configs/aic__nvidia--Llama-3.1-70B-Instruct-FP8_hf_quant_config.json");
  g_autofree char *text = NULL;
  g_autoptr(ProcuraImportResult) r = procura_import_result_new ();
  g_autoptr(GError) error = NULL;
  gsize len = 0;

  if (path == NULL)
    {
      g_test_skip (procura_test_real_fixtures_missing ());
      return;
    }
  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  /* hf_quant_config.json has no shape: not sniffed as one, and a clear error if forced */
  g_assert_cmpint (procura_importer_hf_config.sniff (text, len), <, 50);
  g_assert_false (procura_importer_hf_config.parse ("hf_quant_config.json", text, len, r, NULL, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA);
  g_assert_nonnull (strstr (error->message, "hf_quant_config.json: expected num_hidden_layers"));
  g_assert_cmpuint (r->model_shapes->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model-configs/all", test_configs);
  g_test_add_func ("/model-configs/nemotron-warns", test_nemotron_warns);
  g_test_add_func ("/model-configs/quant-descriptor", test_quant_descriptor_is_not_a_shape);
  return g_test_run ();
}
