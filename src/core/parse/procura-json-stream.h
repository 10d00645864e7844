/* procura-json-stream.h: the bulk reader over a file read in bounded chunks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * procura_json_bulk_parse() (simdjson) needs the whole file in memory beside the arrays
 * it fills: at 550 MB that is most of an import's peak. This reader takes the same
 * documents (one top-level object; numeric arrays, lists of lists and arrays of
 * strings become ProcuraBulkArray, arrays named in @skip are skipped, every other
 * member a json-glib node) from a file descriptor, one bounded buffer at a time, and
 * hands each chunk to @chunk_func as it is read (the importer hashes it, on another
 * thread: a chunk stays unchanged until @chunk_func has been called for the next
 * PROCURA_JSON_CHUNKS_KEPT - 1 chunks, so that it needs no copy of its own).
 *
 * A buffer of a list of lists (the inter-token gaps) is read by two threads, the second
 * one's work kept only where it is what the first would have read (see the .c).
 *
 * It is stricter than simdjson, never looser: whatever it is unsure of (a number too
 * long, an integer beyond int64, "-0" as a member, a byte-order mark, deep nesting,
 * invalid UTF-8, a file that changed size) makes it return NULL, and the caller
 * then reads the whole file and takes the usual path, which words any error.
 */
#pragma once

#include <gio/gio.h>

#include "procura-json-bulk.h"

G_BEGIN_DECLS

/* A chunk's bytes stay as they are until @chunk_func returns from its call for the
 * chunk PROCURA_JSON_CHUNKS_KEPT - 1 chunks later (the reader fills that many buffers
 * in turn; a consumer on another thread waits there until it is done with the old one).
 * Last comes a call with NULL and 0: the buffers are freed after it returns. */
#define PROCURA_JSON_CHUNKS_KEPT 3

typedef void (*ProcuraJsonChunkFunc) (const char *data,
                                      gsize       len,
                                      gpointer    user_data);

/* Reads exactly @size bytes of @fd from its current offset (fewer or more: NULL). */
ProcuraBulkDoc *procura_json_bulk_parse_fd (int                  fd,
                                            gsize                size,
                                            const char * const  *skip,
                                            ProcuraJsonChunkFunc chunk_func,
                                            gpointer             user_data,
                                            GCancellable        *cancellable);

/* One strict JSON number at @p (no leading '+', no leading zeros, digits after '.'
 * and 'e'), to the nearest double. Returns its length, 0 when @p does not start with
 * one; *is_int (may be NULL) says it had neither fraction nor exponent. Does not look
 * at what follows it. Out-of-range values come back as ±inf or 0, as strtod gives. */
gsize           procura_json_number_scan (const char *p,
                                          const char *end,
                                          double     *out,
                                          gboolean   *is_int);

/* How many times, in this process so far, the second reader of a list of lists had its
 * work taken, and how many times dropped (for the tests). */
void            procura_json_stream_get_lane_counts (guint *kept,
                                                     guint *dropped);

G_END_DECLS
