/* procura-json-out.h: writing the model as JSON, one member at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Unknown values are written as null, never as NaN (which is not JSON) or -1.
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* @v as a number, null when not finite. */
void procura_json_add_number (JsonBuilder *b,
                              const char  *member,
                              double       v);
/* @v as a string, null when NULL. */
void procura_json_add_string (JsonBuilder *b,
                              const char  *member,
                              const char  *v);
/* @v as an integer, null when negative (the model's "unknown count"). */
void procura_json_add_count  (JsonBuilder *b,
                              const char  *member,
                              gint64       v);

/* @root as JSON text (free with g_free), every number valid JSON: use this rather than
 * json_generator_to_data(), which writes 1e20 as "1e+20.0". */
char *procura_json_to_data (JsonNode *root,
                            gboolean  pretty);

/* Rewrites, in place, the numbers json-glib wrote as "1e+20.0" (outside strings) as
 * "1e+20"; for text written by older versions. */
void  procura_json_fix_numbers (char *text);

G_END_DECLS
