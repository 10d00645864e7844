/* procura-gpu-catalog.h: the GPU catalog and GPU name normalisation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The catalog is data/catalog/gpus.json compiled into a GResource; it is loaded
 * once, lazily, on the first call (thread-safe) and lives for the whole process.
 * Every figure comes from a public datasheet named in `source` with `source_date`.
 *
 * Units: memory_gb_marketed in GB as marketed (80 for an "80GB" part);
 * usable_memory_bytes is the total memory the driver reports to CUDA/ROCm
 * (torch.cuda.mem_get_info total, nvidia-smi "Total" in MiB x 2^20), NAN when
 * not known; memory_bandwidth_gbps and interconnect_gbps in GB/s (10^9 bytes/s,
 * interconnect = total bidirectional per GPU as marketed); TFLOPS dense (without
 * sparsity), NAN when the GPU has no such format; tdp_w in watts.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct ProcuraGpuSpec {
  const char *id;                  /* catalog id, e.g. "h100-sxm-80gb" */
  const char *name;                /* display name, e.g. "NVIDIA H100 SXM 80GB" */
  double      memory_gb_marketed;
  double      usable_memory_bytes; /* as the driver reports; NAN unknown */
  double      memory_bandwidth_gbps;
  double      bf16_tflops;
  double      fp8_tflops;
  double      fp4_tflops;
  double      tdp_w;
  const char *form_factor;         /* "SXM", "PCIe", "NVL", "OAM", "Superchip" */
  const char *interconnect;        /* "NVLink 4", "PCIe", "Infinity Fabric" */
  double      interconnect_gbps;
  int         pcie_gen;
  gboolean    mig;
  const char *architecture;        /* "Hopper", "Ampere", "CDNA 3" ... */
  const char *compute_capability;  /* "9.0"; "gfx942" for AMD */
  const char *vendor;              /* "NVIDIA", "AMD" */
  const char *source;              /* public datasheet URL */
  const char *source_date;         /* YYYY-MM-DD of the datasheet / retrieval */
  /* Usable memory as the driver reports it, with where the figure comes from (see
   * docs/memory-fit.md): total (usable_memory_bytes above, cudaMemGetInfo / torch total),
   * free after the CUDA context is created (NAN when not known), the source, and TRUE
   * when the figure is an estimate (no public driver figure found). */
  double      usable_memory_free_bytes;
  const char *usable_memory_source;
  gboolean    usable_memory_estimate;
} ProcuraGpuSpec;

/* Normalises any spelling ("H100", "H100-SXM", "NVIDIA H100 80GB HBM3", "h100 nvl",
 * "A100-80GB-SXM4", "Tesla V100"…) to one catalog entry; NULL when the name names no
 * catalog GPU or is too vague to tell. Defaults (documented in docs/quotes.md):
 * "H100" → H100 SXM 80GB, "H200" → H200 SXM, "A100" → A100 SXM 80GB,
 * "A100-40GB" → A100 SXM 40GB, "L40S"/"L40"/"L4" → the PCIe card. */
const ProcuraGpuSpec          *procura_gpu_catalog_lookup (const char *any_name);
/* Same, with a memory hint in GB (e.g. from a price list's GpuInfo; NAN for none)
 * that picks between sizes when the name does not say ("A100" + 40 → A100 40GB). A
 * hint more than 15 % away from every candidate is ignored (it is wrong data). */
const ProcuraGpuSpec          *procura_gpu_catalog_lookup_full (const char *any_name,
                                                                double      memory_gb_hint);
/* Same, for a name as a provider's price list spells it: the provider's own names are
 * read first (after SkyPilot's per-cloud name maps: RunPod's "A100-80GB" is the PCIe
 * card and its "A100-80GB-SXM" the SXM board, RunPod's plain "H100" the PCIe card,
 * GCP's and AWS's plain "A100" the 40 GB SXM board...), then the generic rules.
 * @provider is the cloud's short name ("runpod", "gcp", "aws", "azure", "lambda",
 * "nebius", "vast"...), case-insensitive; NULL for none. */
const ProcuraGpuSpec          *procura_gpu_catalog_lookup_provider (const char *provider,
                                                                    const char *name,
                                                                    double      memory_gb_hint);
/* Catalog entry by exact id ("h100-sxm-80gb"), NULL when absent. */
const ProcuraGpuSpec          *procura_gpu_catalog_get    (const char *id);
/* All entries, in catalog order; @n receives the count (may be NULL). The array is
 * NULL-terminated and owned by the catalog. */
const ProcuraGpuSpec * const *procura_gpu_catalog_all    (gsize      *n);
/* Usable memory in bytes: the driver figure (every catalog GPU has one, public or
 * estimated, see usable_memory_source); for a spec without one, the marketed GB (10^9
 * bytes each). @is_driver_figure is FALSE for estimates and the marketed fallback. */
double                        procura_gpu_spec_usable_bytes (const ProcuraGpuSpec *spec,
                                                             gboolean             *is_driver_figure);

G_END_DECLS
