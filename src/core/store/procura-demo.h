/* procura-demo.h: the bundled demo project (illustrative data)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A complete, realistic decision that exercises every figure: the brief of an online
 * Llama-3.1-70B service, four GPU candidates with dated quotes and benchmark sweeps
 * (per-request samples from a seeded queueing-like model), one API route, operations
 * tests, checklist answers, a vLLM engine log and a probe result. Every number is
 * ILLUSTRATIVE: the project's title says so and ProcuraProject.illustrative is TRUE.
 *
 * Quote dates are relative to today (procura_now_iso8601(), which honours
 * SOURCE_DATE_EPOCH): all within two weeks except the A100 quote, 108 days old (stale).
 * Deterministic: the same SOURCE_DATE_EPOCH gives the same project and the same file,
 * byte for byte.
 */
#pragma once

#include <glib.h>

#include "procura-model.h"

G_BEGIN_DECLS

#define PROCURA_DEMO_TITLE "Demo (illustrative data): Llama 3.1 70B chat service"

/* Candidates and runs carry local ids (candidates 1.., quotes 1.., provenance 1..). */
ProcuraProject *procura_demo_project_new (void);
/* Creates @path (refuses to overwrite) and writes the demo into it in one transaction. */
gboolean        procura_demo_write       (const char  *path,
                                          GError     **error);

G_END_DECLS
