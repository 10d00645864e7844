/* test-fit-cli.c: `procura fit`, run as a program
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "procura-test-util.h"

static JsonObject *
parse_object (const char  *text,
              JsonParser **parser_out)
{
  JsonParser *parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  *parser_out = parser;
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_engine_pool (void)
{
  const char *argv[] = { "fit", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--gpu", "H100",
                         "--util", "0.95", "--context", "8192", "--kv-pool-gib", "58.11",
                         "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *o;
  const char * const members[] = { "weights_bytes", "kv_bytes_per_token", "kv_pool_bytes",
                                   "kv_tokens", "max_concurrency", "headroom_bytes", "fits",
                                   "limit" };

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  o = parse_object (out, &parser);
  for (gsize i = 0; i < G_N_ELEMENTS (members); i++)
    g_assert_true (json_object_has_member (o, members[i]));
  /* hand figures: see tests/fit/test-fit.c; the catalog's config.json also gives the
   * window, so vLLM's rotary table is counted: 131,072 x 128 x 2 bytes = 33,554,432 */
  g_assert_cmpint (json_object_get_int_member (o, "weights_bytes"), ==, 16060522496 + 33554432);
  g_assert_cmpint (json_object_get_int_member (o, "kv_bytes_per_token"), ==, 131072);
  g_assert_cmpint (json_object_get_int_member (o, "kv_pool_bytes"), ==, 62395137392); /* floor (58.11 x 2^30) */
  g_assert_cmpint (json_object_get_int_member (o, "kv_tokens"), ==, 476032);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "max_concurrency"), 29752.0 / 512.0, 1e-9);
  g_assert_true (json_object_get_boolean_member (o, "fits"));
  g_assert_cmpstr (json_object_get_string_member (o, "limit"), ==, "none");
  g_assert_cmpint (json_object_get_int_member (o, "headroom_bytes"), >, 0);
}

static void
test_does_not_fit (void)
{
  const char *argv[] = { "fit", "--model", "meta-llama/Llama-3.1-70B", "--gpu", "H100 SXM",
                         "--json", "--all-gpus", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *o;
  JsonArray *smallest;
  gboolean seen_h100 = FALSE;

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  o = parse_object (out, &parser);
  g_assert_false (json_object_get_boolean_member (o, "fits"));
  g_assert_cmpstr (json_object_get_string_member (o, "limit"), ==, "weights");
  smallest = json_object_get_array_member (o, "smallest_tp");
  g_assert_cmpuint (json_array_get_length (smallest), >, 5);
  for (guint i = 0; i < json_array_get_length (smallest); i++)
    {
      JsonObject *e = json_array_get_object_element (smallest, i);

      if (g_str_equal (json_object_get_string_member (e, "gpu"), "h100-sxm-80gb"))
        {
          /* 131.4 GiB of bf16 weights: TP 2 leaves 65.7 GiB per GPU, which with the
           * activation, NCCL and CUDA graph estimates passes 0.9 x 79.19 GiB; TP 4 fits */
          g_assert_cmpint (json_object_get_int_member (e, "tp"), ==, 4);
          seen_h100 = TRUE;
        }
    }
  g_assert_true (seen_h100);
}

static void
test_custom_gpu_and_file (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *config = g_build_filename (dir, "config.json", NULL);
  /* a small Llama: 2 layers, hidden 256, MLP 512, 4 heads, 2 KV heads of 64, vocab 1000 */
  const char *json = "{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\","
                     " \"num_hidden_layers\": 2, \"hidden_size\": 256, \"intermediate_size\": 512,"
                     " \"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"vocab_size\": 1000,"
                     " \"tie_word_embeddings\": false, \"torch_dtype\": \"bfloat16\"}";
  const char *argv[] = { "fit", "--model", config, "--gpu", "Mystery Card", "--gpu-memory-gib", "2",
                         "--json", "--kv-dtype", "fp8", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *o, *gpu;

  g_assert_true (g_file_set_contents (config, json, -1, NULL));
  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  o = parse_object (out, &parser);
  gpu = json_object_get_object_member (o, "gpu");
  g_assert_cmpint (json_object_get_int_member (gpu, "usable_memory_bytes"), ==, 2147483648);
  g_assert_false (json_object_get_boolean_member (gpu, "driver_figure"));
  /* embeddings 2 x 1000 x 256 = 512,000; per layer q,o 2 x 256 x 256 = 131,072, k,v
   * 2 x 256 x 128 = 65,536, MLP 3 x 256 x 512 = 393,216, norms 512: 590,336 x 2 =
   * 1,180,672; final norm 256: 1,692,928 params = 3,385,856 bytes */
  g_assert_cmpint (json_object_get_int_member (o, "weights_bytes"), ==, 3385856);
  /* fp8 KV: 2 x 2 layers x 2 heads x 64 x 1 byte = 512 */
  g_assert_cmpint (json_object_get_int_member (o, "kv_bytes_per_token"), ==, 512);
  procura_test_rmtree (dir);
}

static void
test_errors (void)
{
  const char *unknown_gpu[] = { "fit", "--model", "meta-llama/Llama-3.1-8B", "--gpu", "Z9000", "--json", NULL };
  const char *unknown_model[] = { "fit", "--model", "no-such-model-xyz", "--gpu", "H100", "--json", NULL };
  const char *bad_tp[] = { "fit", "--model", "meta-llama/Llama-3.1-8B", "--gpu", "H100", "--tp", "0", NULL };
  const char *bad_tp_word[] = { "fit", "--model", "meta-llama/Llama-3.1-8B", "--gpu", "H100", "--tp", "two", NULL };
  const char *bad_util[] = { "fit", "--model", "meta-llama/Llama-3.1-8B", "--gpu", "H100", "--util", "1.5", NULL };
  const char *bad_dtype[] = { "fit", "--model", "meta-llama/Llama-3.1-8B", "--gpu", "H100", "--weights-dtype", "int3", NULL };
  const char *no_model[] = { "fit", "--gpu", "H100", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (procura_test_run_cli (unknown_gpu, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "Z9000"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (procura_test_run_cli (unknown_model, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "no-such-model-xyz"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (procura_test_run_cli (bad_tp, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--tp"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (procura_test_run_cli (bad_tp_word, &out, &err), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (procura_test_run_cli (bad_util, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--util"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (procura_test_run_cli (bad_dtype, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "int3"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (procura_test_run_cli (no_model, &out, &err), ==, 2);
}

static void
test_training (void)
{
  const char *argv[] = { "fit", "--model", "meta-llama/Llama-3.1-8B", "--gpu", "H100",
                         "--train", "lora", "--lora-rank", "16", "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *o;

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  o = parse_object (out, &parser);
  /* 41,943,040 adapter parameters (see test-fit-training.c) */
  g_assert_cmpfloat (json_object_get_double_member (o, "trainable_params"), ==, 41943040.0);
  g_assert_true (json_object_get_boolean_member (o, "fits"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "parts")), ==, 8);
}

/* --engine-version, the hf_quant_config.json beside a config.json, and --log's rows */
static void
test_versions_quant_log (void)
{
  g_autofree char *config = procura_test_real_fixture ("model-configs/aic__nvidia--Llama-3.1-70B-Instruct-FP8_config.json");
  g_autofree char *log = procura_test_real_fixture ("vllm-server-logs/llmdplanner__meta-llama-llama-3-1-8b---h100-80gb--tp1pp1dp1--8192.log");
  const char *bad_version[] = { "fit", "--model", "meta-llama/Llama-3.1-8B", "--gpu", "H100",
                                "--engine-version", "latest", NULL };
  const char *old_version[] = { "fit", "--model", "meta-llama/Llama-3.1-8B", "--gpu", "A100 80GB",
                                "--engine-version", "0.10.1.1", "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *o;

  g_assert_cmpint (procura_test_run_cli (bad_version, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "latest"));
  g_assert_nonnull (strstr (err, "0.19"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (procura_test_run_cli (old_version, &out, &err), ==, 0);
  o = parse_object (out, &parser);
  g_assert_cmpstr (json_object_get_string_member (o, "engine_rules"), ==, "vllm 0.10");
  g_assert_cmpint (json_object_get_int_member (o, "model_max_context"), ==, 131072);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_clear_object (&parser);

  if (config == NULL || log == NULL)
    {
      g_test_message ("%s", procura_test_real_fixtures_missing ());
      return;
    }
  {
    const char *argv[] = { "fit", "--model", config, "--gpu", "H100", "--tp", "2", "--json", NULL };

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
    o = parse_object (out, &parser);
    /* config.json declares no quantisation; the hf_quant_config.json beside it says FP8 */
    g_assert_cmpstr (json_object_get_string_member (o, "weights_dtype"), ==, "fp8");
    g_assert_cmpstr (json_object_get_string_member (o, "kv_dtype"), ==, "fp8");
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *argv[] = { "fit", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--gpu", "H100",
                           "--util", "0.95", "--log", log, NULL };

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
    /* each token count says which pool it comes from; no "nan" for a figure */
    g_assert_nonnull (strstr (out, "KV tokens (calculated pool)"));
    g_assert_nonnull (strstr (out, "KV tokens (engine's pool)"));
    g_assert_null (strstr (out, "nan"));
  }
}

/* --log with a log of two starts (the first failed for want of memory, the second
 * succeeded): the last successful start by default, --start N for another, and each run
 * says which one it compared */
static void
test_log_starts (void)
{
  g_autofree char *log = procura_test_fixture ("import/vllm-two-starts.log");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *o;

  {
    const char *argv[] = { "fit", "--model", "Qwen/Qwen3-8B", "--gpu", "H100", "--log", log, "--json", NULL };

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
    o = parse_object (out, &parser);
    g_assert_cmpint (json_object_get_int_member (o, "log_starts"), ==, 2);
    g_assert_cmpint (json_object_get_int_member (o, "log_start"), ==, 2);
    g_assert_true (json_object_get_boolean_member (o, "log_start_successful"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_clear_object (&parser);
  }
  {
    /* the engine's figures are those of the start chosen: the first has no KV pool */
    const char *argv[] = { "fit", "--model", "Qwen/Qwen3-8B", "--gpu", "H100", "--log", log,
                           "--start", "1", "--json", NULL };
    JsonArray *rows;
    gboolean saw_pool = FALSE;

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
    o = parse_object (out, &parser);
    g_assert_cmpint (json_object_get_int_member (o, "log_start"), ==, 1);
    g_assert_false (json_object_get_boolean_member (o, "log_start_successful"));
    rows = json_object_get_array_member (o, "engine_log");
    for (guint i = 0; i < json_array_get_length (rows); i++)
      {
        JsonObject *row = json_array_get_object_element (rows, i);

        if (g_str_equal (json_object_get_string_member (row, "figure"), "kv-pool"))
          saw_pool = !json_object_get_null_member (row, "engine");
      }
    g_assert_false (saw_pool);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_clear_object (&parser);
  }
  {
    const char *argv[] = { "fit", "--model", "Qwen/Qwen3-8B", "--gpu", "H100", "--log", log, NULL };

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
    g_assert_nonnull (strstr (out, "start 2 of 2, the last successful one"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *argv[] = { "fit", "--model", "Qwen/Qwen3-8B", "--gpu", "H100", "--log", log,
                           "--start", "3", NULL };

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), !=, 0);
    g_assert_nonnull (strstr (err, "start 3"));
    g_assert_nonnull (strstr (err, "2 starts"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *argv[] = { "fit", "--model", "Qwen/Qwen3-8B", "--gpu", "H100", "--start", "1", NULL };

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), !=, 0);
    g_assert_nonnull (strstr (err, "--log"));
  }
}

/* SGLang's hybrid SWA pools for gpt-oss-20b (catalog): a full and a sliding pool, the
 * sliding one swa_full_tokens_ratio times the full one; a smaller ratio gives the full pool
 * more tokens; --disable-sliding-window keeps one pool */
static void
test_sglang_swa_cli (void)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *o;
  gint64 full, swa, full_half, one_pool;

  {
    const char *argv[] = { "fit", "--model", "openai/gpt-oss-20b", "--gpu", "H100", "--engine", "sglang",
                           "--json", NULL };

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
    o = parse_object (out, &parser);
    g_assert_cmpstr (json_object_get_string_member (o, "kv_rule"), ==, "sglang-swa");
    full = json_object_get_int_member (o, "kv_tokens");
    swa = json_object_get_int_member (o, "kv_swa_tokens");
    g_assert_cmpint (swa, ==, (gint64) (full * 0.8));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_clear_object (&parser);
  }
  {
    const char *argv[] = { "fit", "--model", "openai/gpt-oss-20b", "--gpu", "H100", "--engine", "sglang",
                           "--swa-full-tokens-ratio", "0.5", "--json", NULL };

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
    o = parse_object (out, &parser);
    full_half = json_object_get_int_member (o, "kv_tokens");
    g_assert_cmpint (full_half, >, full);
    g_assert_cmpint (json_object_get_int_member (o, "kv_swa_tokens"), ==, (gint64) (full_half * 0.5));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_clear_object (&parser);
  }
  {
    const char *argv[] = { "fit", "--model", "openai/gpt-oss-20b", "--gpu", "H100", "--engine", "sglang",
                           "--disable-sliding-window", "--json", NULL };

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
    o = parse_object (out, &parser);
    g_assert_cmpstr (json_object_get_string_member (o, "kv_rule"), ==, "all-full");
    one_pool = json_object_get_int_member (o, "kv_tokens");
    /* one pool of every layer holds fewer tokens than the full pool of the split */
    g_assert_cmpint (one_pool, <, full);
    g_assert_false (json_object_has_member (o, "kv_swa_tokens"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *argv[] = { "fit", "--model", "openai/gpt-oss-20b", "--gpu", "H100", "--engine", "sglang",
                           "--swa-full-tokens-ratio", "-1", NULL };

    g_assert_cmpint (procura_test_run_cli (argv, &out, &err), !=, 0);
    g_assert_nonnull (strstr (err, "--swa-full-tokens-ratio"));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fit/cli/engine-pool", test_engine_pool);
  g_test_add_func ("/fit/cli/does-not-fit", test_does_not_fit);
  g_test_add_func ("/fit/cli/custom-gpu-and-file", test_custom_gpu_and_file);
  g_test_add_func ("/fit/cli/errors", test_errors);
  g_test_add_func ("/fit/cli/training", test_training);
  g_test_add_func ("/fit/cli/versions-quant-log", test_versions_quant_log);
  g_test_add_func ("/fit/cli/log-starts", test_log_starts);
  g_test_add_func ("/fit/cli/sglang-swa", test_sglang_swa_cli);
  return g_test_run ();
}
