/* procura-yaml.h: the block-style YAML subset that PyYAML's safe_dump writes, as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Parses @data as one YAML document into a JSON tree (mappings as objects, sequences as
 * arrays; .inf and .nan as the strings "Infinity" and "NaN", as procura_json_parse()
 * reads them). Errors (PROCURA_IMPORT_ERROR_SYNTAX) name the file and the line. */
JsonNode *procura_yaml_parse (const char  *name,
                              const char  *data,
                              gsize        len,
                              GError     **error);

G_END_DECLS
