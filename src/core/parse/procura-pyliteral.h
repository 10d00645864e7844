/* procura-pyliteral.h: reads Python literals into a JsonNode
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For values such as SkyPilot's GpuInfo column:
 *   {'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8.0,
 *              'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 655360}
 * dict → object (keys must be strings or numbers, kept as their text), list and
 * tuple → array, 'str' / "str" with escapes (\n \t \\ \' \" \xHH \uHHHH) → string,
 * int/float (incl. inf, nan are refused) → int or double, True/False → boolean,
 * None → null. Nesting deeper than PROCURA_PYLITERAL_MAX_DEPTH is an error
 * (PROCURA_IMPORT_ERROR_LIMIT); malformed text is PROCURA_IMPORT_ERROR_SYNTAX naming
 * the column.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define PROCURA_PYLITERAL_MAX_DEPTH 64

JsonNode *procura_pyliteral_parse (const char  *text,
                                   gssize       len,
                                   GError     **error);

G_END_DECLS
