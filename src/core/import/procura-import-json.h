/* procura-import-json.h: the normalised content of an import as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What `procura inspect --json` prints (docs/formats.md describes it). Metric names as
 * in ARCHITECTURE.md: ttft, tpot, tpot_incl_first, itl, e2e, each an object of
 * statistics in milliseconds (mean, std, min, max, p50, p90, p99, p99.9, ...) with
 * "source" ("recomputed" or "as-reported") and "samples" (per-request count when
 * recomputed); when both exist the file's own figures follow under "as_reported".
 * Unknown numbers are null; an unlimited request rate is the string "inf".
 */
#pragma once

#include <json-glib/json-glib.h>

#include "procura-import.h"

G_BEGIN_DECLS

JsonNode *procura_import_result_to_json (const ProcuraImportResult *result);
JsonNode *procura_run_to_json           (const ProcuraRun          *run);
JsonNode *procura_engine_log_to_json    (const ProcuraEngineLog    *log);
/* Names of the scenario fields a run lacks and the user must supply ("gpu_name",
 * "gpu_count", "model", "engine", "tp", "load"); NULL-terminated, g_strfreev. */
char    **procura_scenario_missing      (const ProcuraScenario     *scenario);

G_END_DECLS
