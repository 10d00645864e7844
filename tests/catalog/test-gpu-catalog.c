/* test-gpu-catalog.c: the GPU catalog and GPU name normalisation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "procura-gpu-catalog.h"

/* Real-world spellings: price lists (SkyPilot, gpuhunt, the fixtures'
 * AcceleratorName values), nvidia-smi / torch device names, benchmark metadata. */
static const struct { const char *name, *id; } spellings[] = {
  { "H100", "h100-sxm-80gb" },
  { "H100-SXM", "h100-sxm-80gb" },
  { "H100-80GB", "h100-sxm-80gb" },
  { "h100_sxm5", "h100-sxm-80gb" },
  { "NVIDIA H100 80GB HBM3", "h100-sxm-80gb" },
  { "NVIDIA H100-SXM5-80GB", "h100-sxm-80gb" },
  { "H100-MEGA", "h100-sxm-80gb" },
  { "H100-NVLINK", "h100-sxm-80gb" },
  { "H100_SXM", "h100-sxm-80gb" },
  { "H100 PCIe", "h100-pcie-80gb" },
  { "NVIDIA H100 PCIe", "h100-pcie-80gb" },
  { "H100 NVL", "h100-nvl-94gb" },
  { "NVIDIA H100 NVL", "h100-nvl-94gb" },
  { "H100 94GB", "h100-nvl-94gb" },
  { "NVIDIA H100 NVL 94GB", "h100-nvl-94gb" },
  { "A100", "a100-sxm-80gb" },
  { "A100-80GB", "a100-sxm-80gb" },
  { "A100-80GB-SXM4", "a100-sxm-80gb" },
  { "A100-80GB-SXM", "a100-sxm-80gb" },
  { "NVIDIA A100-SXM4-80GB", "a100-sxm-80gb" },
  { "NVIDIA A100-SXM4-40GB", "a100-sxm-40gb" },
  { "A100-40GB", "a100-sxm-40gb" },
  { "A100_SXM4", "a100-sxm-80gb" },
  { "NVIDIA A100 80GB PCIe", "a100-pcie-80gb" },
  { "A100 PCIe 40GB", "a100-pcie-40gb" },
  { "A100_PCIE", "a100-pcie-80gb" },
  { "Tesla A100", "a100-sxm-80gb" },
  { "H200", "h200-sxm-141gb" },
  { "NVIDIA H200", "h200-sxm-141gb" },
  { "NVIDIA H200 141GB HBM3e", "h200-sxm-141gb" },
  { "H200 NVL", "h200-nvl-141gb" },
  { "NVIDIA H200 NVL", "h200-nvl-141gb" },
  { "B200", "b200-sxm-180gb" },
  { "NVIDIA B200", "b200-sxm-180gb" },
  { "HGX B200", "b200-sxm-180gb" },
  { "B300", "b300-sxm-288gb" },
  { "NVIDIA B300 SXM6 AC", "b300-sxm-288gb" },
  { "GB200", "gb200-186gb" },
  { "GB200 NVL72", "gb200-186gb" },
  { "NVIDIA GB200", "gb200-186gb" },
  { "GH200", "gh200-96gb" },
  { "NVIDIA GH200 480GB", "gh200-96gb" },  /* nvidia-smi's name: 480 GB is the CPU's LPDDR5X */
  { "GH200 200GB", NULL },
  { "L40S", "l40s-48gb" },
  { "NVIDIA L40S", "l40s-48gb" },
  { "L40", "l40-48gb" },
  { "NVIDIA L40", "l40-48gb" },
  { "L4", "l4-24gb" },
  { "NVIDIA L4", "l4-24gb" },
  { "A10G", "a10g-24gb" },
  { "NVIDIA A10G", "a10g-24gb" },
  { "A10", "a10-24gb" },
  { "NVIDIA A10", "a10-24gb" },
  { "RTX 4090", "rtx-4090-24gb" },
  { "RTX4090", "rtx-4090-24gb" },
  { "NVIDIA GeForce RTX 4090", "rtx-4090-24gb" },
  { "RTX_4090", "rtx-4090-24gb" },
  { "RTX5090", "rtx-5090-32gb" },
  { "NVIDIA GeForce RTX 5090", "rtx-5090-32gb" },
  { "RTX 6000 Ada", "rtx-6000-ada-48gb" },
  { "RTX6000-Ada", "rtx-6000-ada-48gb" },
  { "NVIDIA RTX 6000 Ada Generation", "rtx-6000-ada-48gb" },
  { "RTX PRO 6000 Blackwell", "rtx-pro-6000-blackwell-96gb" },
  { "NVIDIA RTX PRO 6000 Blackwell Server Edition", "rtx-pro-6000-blackwell-96gb" },
  { "RTXPRO6000WS", "rtx-pro-6000-blackwell-96gb" },
  { "MI300X", "mi300x-192gb" },
  { "AMD Instinct MI300X", "mi300x-192gb" },
  { "mi325x", "mi325x-256gb" },
  { "AMD Instinct MI355X", "mi355x-288gb" },
  /* unknown or too vague */
  { "V100", NULL },
  { "Tesla V100-SXM2-16GB", NULL },
  { "T4", NULL },
  { "RTX6000", NULL },          /* Lambda's Quadro RTX 6000 (Turing), not the Ada card */
  { "RTXA6000", NULL },
  { "A6000", NULL },
  { "RTX5880-Ada", NULL },
  { "MI300A", NULL },
  { "A1000", NULL },
  { "H1000", NULL },
  { "tpu-v5p-8", NULL },
  { "Intel Arc Pro B60", NULL },
  { "L40S SXM", NULL },         /* no such part */
  { "H100 40GB", NULL },        /* no such size */
  { "", NULL },
  { "NVIDIA", NULL },
};

static void
test_spellings (void)
{
  guint bad = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (spellings); i++)
    {
      const ProcuraGpuSpec *s = procura_gpu_catalog_lookup (spellings[i].name);
      const char *got = s != NULL ? s->id : NULL;

      if (g_strcmp0 (got, spellings[i].id) != 0)
        {
          g_printerr ("# \"%s\": expected %s, got %s\n", spellings[i].name,
                      spellings[i].id ? spellings[i].id : "unknown", got ? got : "unknown");
          bad++;
        }
    }
  g_assert_cmpuint (bad, ==, 0);
  g_assert_null (procura_gpu_catalog_lookup (NULL));
}

static void
test_memory_hint (void)
{
  /* SkyPilot's GCP "A100" rows say 40960 MiB per GPU: the 40 GB part */
  g_assert_cmpstr (procura_gpu_catalog_lookup_full ("A100", 40960 * 1048576.0 / 1e9)->id, ==, "a100-sxm-40gb");
  g_assert_cmpstr (procura_gpu_catalog_lookup_full ("A100", 81920 * 1048576.0 / 1e9)->id, ==, "a100-sxm-80gb");
  /* a hint far from every size (host RAM in the GPU memory field) is ignored */
  g_assert_cmpstr (procura_gpu_catalog_lookup_full ("H100", 214.7)->id, ==, "h100-sxm-80gb");
  /* the name's own size wins over the hint */
  g_assert_cmpstr (procura_gpu_catalog_lookup_full ("A100-80GB", 42.9)->id, ==, "a100-sxm-80gb");
}

static gboolean
valid_date (const char *s)
{
  int y, m, d;

  return s != NULL && strlen (s) == 10 && sscanf (s, "%4d-%2d-%2d", &y, &m, &d) == 3 &&
         g_date_valid_dmy ((GDateDay) d, (GDateMonth) m, (GDateYear) y);
}

static void
test_entries (void)
{
  gsize n = 0;
  const ProcuraGpuSpec * const *all = procura_gpu_catalog_all (&n);
  static const char * const required[] = {
    "a100-sxm-40gb", "a100-sxm-80gb", "a100-pcie-40gb", "a100-pcie-80gb", "h100-sxm-80gb",
    "h100-pcie-80gb", "h100-nvl-94gb", "h200-sxm-141gb", "h200-nvl-141gb", "b200-sxm-180gb",
    "b300-sxm-288gb", "gb200-186gb", "l40s-48gb", "l40-48gb", "l4-24gb", "a10g-24gb", "a10-24gb",
    "rtx-4090-24gb", "rtx-5090-32gb", "rtx-6000-ada-48gb", "rtx-pro-6000-blackwell-96gb",
    "mi300x-192gb", "mi325x-256gb", "mi355x-288gb",
  };

  g_assert_cmpuint (n, >=, G_N_ELEMENTS (required));
  g_assert_null (all[n]);
  for (gsize i = 0; i < G_N_ELEMENTS (required); i++)
    g_assert_nonnull (procura_gpu_catalog_get (required[i]));
  for (gsize i = 0; i < n; i++)
    {
      const ProcuraGpuSpec *s = all[i];

      g_test_message ("%s", s->id);
      g_assert_nonnull (s->name);
      /* every entry cites a public source and its date */
      g_assert_true (g_str_has_prefix (s->source, "https://"));
      g_assert_true (valid_date (s->source_date));
      g_assert_true (g_str_equal (s->vendor, "NVIDIA") || g_str_equal (s->vendor, "AMD"));
      g_assert_cmpfloat (s->memory_gb_marketed, >=, 16);
      g_assert_cmpfloat (s->memory_bandwidth_gbps, >, 100);
      g_assert_cmpfloat (s->bf16_tflops, >, 10);
      g_assert_cmpfloat (s->tdp_w, >, 50);
      g_assert_cmpint (s->pcie_gen, >=, 4);
      g_assert_nonnull (s->architecture);
      g_assert_nonnull (s->compute_capability);
      /* FP8 is at least BF16 rate where present; FP4 at least FP8 */
      if (!isnan (s->fp8_tflops))
        g_assert_cmpfloat (s->fp8_tflops, >=, s->bf16_tflops);
      if (!isnan (s->fp4_tflops))
        g_assert_cmpfloat (s->fp4_tflops, >=, s->fp8_tflops);
      /* usable memory (bytes, driver) is below the marketed size in GiB and not far below */
      if (!isnan (s->usable_memory_bytes))
        {
          g_assert_cmpfloat (s->usable_memory_bytes, <, s->memory_gb_marketed * 1073741824.0);
          g_assert_cmpfloat (s->usable_memory_bytes, >, 0.9 * s->memory_gb_marketed * 1073741824.0);
        }
      /* the display name normalises to its own entry */
      g_assert_true (procura_gpu_catalog_lookup (s->name) == s);
      g_assert_true (procura_gpu_catalog_get (s->id) == s);
    }
}

static void
test_known_figures (void)
{
  const ProcuraGpuSpec *h100 = procura_gpu_catalog_get ("h100-sxm-80gb");
  const ProcuraGpuSpec *mi300x = procura_gpu_catalog_get ("mi300x-192gb");
  gboolean driver = FALSE;

  /* NVIDIA H100 datasheet: 3.35 TB/s, 989 dense BF16 TFLOPS (1,979 with sparsity), 700 W */
  g_assert_cmpfloat_with_epsilon (h100->memory_bandwidth_gbps, 3350, 1);
  g_assert_cmpfloat_with_epsilon (h100->bf16_tflops, 1979 / 2.0, 1);
  g_assert_cmpfloat (h100->tdp_w, ==, 700);
  g_assert_true (h100->mig);
  g_assert_cmpstr (h100->compute_capability, ==, "9.0");
  /* MEMORY-FIT.md: an H100 80GB shows 79.19 GiB to the framework */
  g_assert_cmpfloat_with_epsilon (procura_gpu_spec_usable_bytes (h100, &driver) / 1073741824.0, 79.19, 0.005);
  g_assert_true (driver);
  /* AMD MI300X: 192 GB HBM3, 5.3 TB/s; ROCm reports 191.98 GiB (docs/memory-fit.md) */
  g_assert_cmpfloat (mi300x->memory_gb_marketed, ==, 192);
  g_assert_cmpfloat_with_epsilon (procura_gpu_spec_usable_bytes (mi300x, &driver) / 1073741824.0, 191.98, 0.005);
  g_assert_true (driver);
  g_assert_nonnull (mi300x->usable_memory_source);
  /* no public driver figure for the H100 PCIe: the estimate says so */
  g_assert_true (procura_gpu_spec_usable_bytes (procura_gpu_catalog_get ("h100-pcie-80gb"), &driver) > 0);
  g_assert_false (driver);
  /* a spec without any figure: the marketed size, flagged */
  {
    ProcuraGpuSpec bare = { .id = "test", .memory_gb_marketed = 24, .usable_memory_bytes = NAN };

    g_assert_cmpfloat (procura_gpu_spec_usable_bytes (&bare, &driver), ==, 24e9);
    g_assert_false (driver);
  }
  g_assert_true (isnan (procura_gpu_spec_usable_bytes (NULL, NULL)));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gpu-catalog/spellings", test_spellings);
  g_test_add_func ("/gpu-catalog/memory-hint", test_memory_hint);
  g_test_add_func ("/gpu-catalog/entries", test_entries);
  g_test_add_func ("/gpu-catalog/known-figures", test_known_figures);
  return g_test_run ();
}
