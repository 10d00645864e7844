/* procura-json.h: the safe front door for JSON documents
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * json-glib alone is not safe on untrusted files: ~75,000 nesting levels overflow its
 * stack, integers of 2^63 and above wrap silently, an empty file "succeeds" with no
 * root, a truncated file is reported as an unexpected number, and it accepts single
 * quotes, hex numbers and leading zeros. procura_json_parse() first checks the whole
 * text with a strict RFC 8259 scanner (bounded depth, UTF-8, exact line:column and key
 * path in every message), rewrites what must be rewritten (integers too large for
 * gint64 become doubles; bare NaN/Infinity become strings when the format allows
 * them), and only then hands it to json-glib.
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define PROCURA_JSON_MAX_DEPTH 512

typedef enum {
  PROCURA_JSON_STRICT           = 0,
  /* Bare NaN, Infinity and -Infinity (Python's json.dump) outside strings are read as
   * the strings "NaN", "Infinity", "-Infinity"; procura_json_number() understands them. */
  PROCURA_JSON_ALLOW_NONFINITE  = 1 << 0,
} ProcuraJsonFlags;

/* Checks @data (@len bytes) strictly. @line_base is added to line numbers (for JSON
 * Lines). On success returns TRUE and, when the text had to be rewritten, sets
 * *@rewritten to a new buffer (free with g_free) and *@rewritten_len; otherwise
 * *@rewritten is NULL. Errors are PROCURA_IMPORT_ERROR_SYNTAX / _LIMIT and read
 * "NAME:LINE:COL: ... at $.key.path; expected ...". */
gboolean   procura_json_check (const char        *name,
                               const char        *data,
                               gsize              len,
                               guint              line_base,
                               ProcuraJsonFlags   flags,
                               char             **rewritten,
                               gsize             *rewritten_len,
                               GError           **error);

/* While @notes is set (not NULL), procura_json_check() adds to it a message for each
 * key that appears twice in one object (at most 20 per document). Per thread. */
void       procura_json_set_notes (GPtrArray *notes);

/* A quick scan of @data for nesting deeper than PROCURA_JSON_MAX_DEPTH (brackets
 * outside strings), without checking anything else: the registry runs it over the
 * part of a file the format sniffers look at, before any of them parses it. */
gboolean   procura_json_check_depth (const char  *name,
                                     const char  *data,
                                     gsize        len,
                                     GError     **error);

/* Checks then parses; returns the root node (never NULL on success). */
JsonNode  *procura_json_parse (const char        *name,
                               const char        *data,
                               gsize              len,
                               guint              line_base,
                               ProcuraJsonFlags   flags,
                               GError           **error);

/* Typed readers of one member of @object. @path is the key path of @object ("$",
 * "$.benchmarks[2].metrics") and is used only in messages. Absent members and null
 * give NAN / -1 / NULL and TRUE; a member of the wrong type is an error
 * PROCURA_IMPORT_ERROR_SCHEMA naming @name, the full key path and what was expected. */
gboolean   procura_json_number  (const char  *name,
                                 JsonObject  *object,
                                 const char  *path,
                                 const char  *key,
                                 double      *out,
                                 GError     **error);
/* Like procura_json_number() but also accepts numbers written as strings ("550"). */
gboolean   procura_json_number_lax (const char  *name,
                                    JsonObject  *object,
                                    const char  *path,
                                    const char  *key,
                                    double      *out,
                                    GError     **error);
/* A non-negative whole count (integer, or a double with no fraction); -1 when absent. */
gboolean   procura_json_count   (const char  *name,
                                 JsonObject  *object,
                                 const char  *path,
                                 const char  *key,
                                 gint64      *out,
                                 GError     **error);
/* A string member; *out borrowed (NULL when absent or null). */
gboolean   procura_json_string  (const char  *name,
                                 JsonObject  *object,
                                 const char  *path,
                                 const char  *key,
                                 const char **out,
                                 GError     **error);
/* An object member; *out NULL when absent or null. */
gboolean   procura_json_object  (const char  *name,
                                 JsonObject  *object,
                                 const char  *path,
                                 const char  *key,
                                 JsonObject **out,
                                 GError     **error);
gboolean   procura_json_array   (const char  *name,
                                 JsonObject  *object,
                                 const char  *path,
                                 const char  *key,
                                 JsonArray  **out,
                                 GError     **error);
/* Reads one number from a node (array element): number, "inf"/"Infinity"/"NaN"
 * strings; @what names the place in the message. */
gboolean   procura_json_node_number (const char  *name,
                                     JsonNode    *node,
                                     const char  *what,
                                     double      *out,
                                     GError     **error);
/* The numeric meaning of a string such as "inf", "Infinity", "-inf", "NaN"; FALSE when
 * it is none of them. */
gboolean   procura_json_nonfinite_string (const char *s,
                                          double     *out);
const char *procura_json_node_type_name (JsonNode *node);

G_END_DECLS
