/* procura-probe-import.h: probe output (JSON Lines) into the model, and plans for the probe
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "procura-import.h"
#include "procura-fit.h"

G_BEGIN_DECLS

/* "probe-jsonl": a file written by procura-probe (or `procura probe --json`). */
extern const ProcuraImporter procura_importer_probe_jsonl;

/* Parses probe JSON Lines into @result: one ProcuraProbeResult per device (test
 * "inventory") and per result event ("fit", "bandwidth", "d2d", "h2d", "d2h", "p2p",
 * "decode-floor"), each keeping the hello, device and result lines verbatim. Error
 * events become warnings. All or nothing: a malformed line is an error naming it. */
gboolean procura_probe_parse_jsonl (const char          *name,
                                    const char          *data,
                                    gsize                len,
                                    ProcuraImportResult *result,
                                    GError             **error);

/* The plan the probe executes for a fit (docs/probe.md, "Plan"): per GPU, the weights
 * as per-layer tensors (plus embeddings), an activation workspace, the non-torch and
 * CUDA graph estimates, and one KV pool per layer sized to the target tokens; the KV
 * block size is kv_bytes_per_token x block_size. Returns NULL when @fit has no layers. */
char    *procura_probe_plan_from_fit (const ProcuraFitResult *fit,
                                      const char             *name);

G_END_DECLS
