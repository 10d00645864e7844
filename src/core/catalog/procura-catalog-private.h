/* procura-catalog-private.h: internal helpers shared by the catalog sources
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Parses data/catalog/@name from the compiled-in GResource (registered on first use).
 * Aborts with a critical when the bundled catalog is missing or malformed: that is a
 * build bug, not user input. Returns a new JsonParser holding the document. */
JsonParser *procura_catalog_load_json (const char *name);

/* Splits a human name into lower-case words (letters and digits apart: "A100-80GB"
 * → "a", "100", "80", "gb"), dropping the words in @noise (NULL-terminated, matched
 * before the split). */
char      **procura_catalog_tokenize  (const char         *text,
                                       const char * const *noise);

G_END_DECLS
