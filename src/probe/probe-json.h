/* probe-json.h: a tiny JSON writer and reader for procura-probe (plain C11, no GLib)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The writer builds one JSON Lines object in a growable buffer; the reader parses a
 * plan file (objects, arrays, strings, numbers, true/false/null) into a small tree.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* ---- writer ------------------------------------------------------------ */

typedef struct {
  char   *buf;
  size_t  len;
  size_t  cap;
  bool    need_comma;
  bool    oom;
} PjWriter;

void pj_begin       (PjWriter *w, const char *event);   /* {"event":"..." */
void pj_key_str     (PjWriter *w, const char *key, const char *value);  /* NULL -> null */
void pj_key_int     (PjWriter *w, const char *key, long long value);
void pj_key_uint    (PjWriter *w, const char *key, unsigned long long value);
void pj_key_double  (PjWriter *w, const char *key, double value);       /* non-finite -> null */
void pj_key_bool    (PjWriter *w, const char *key, bool value);
void pj_key_null    (PjWriter *w, const char *key);
void pj_key_raw     (PjWriter *w, const char *key, const char *raw_json);
void pj_open_object (PjWriter *w, const char *key);     /* key NULL inside an array */
void pj_close_object(PjWriter *w);
void pj_open_array  (PjWriter *w, const char *key);
void pj_close_array (PjWriter *w);
/* Closes the top-level object, appends '\n'. Returns the line (owned by @w). */
const char *pj_end  (PjWriter *w);
void pj_clear       (PjWriter *w);
/* Appends @s as a JSON string literal (with quotes) */
void pj_append_string (PjWriter *w, const char *s);

/* ---- reader ------------------------------------------------------------ */

typedef enum {
  PJ_NULL, PJ_BOOL, PJ_NUMBER, PJ_STRING, PJ_ARRAY, PJ_OBJECT
} PjType;

typedef struct PjValue PjValue;
struct PjValue {
  PjType    type;
  bool      boolean;
  double    number;
  char     *string;      /* PJ_STRING */
  char    **keys;        /* PJ_OBJECT: n keys */
  PjValue **items;       /* PJ_ARRAY / PJ_OBJECT: n values */
  size_t    n;
};

/* Parses @text (NUL-terminated). On error returns NULL and writes a message with
 * the line and column into @err. */
PjValue       *pj_parse      (const char *text,
                              char       *err,
                              size_t      err_len);
void           pj_free       (PjValue *v);
const PjValue *pj_get        (const PjValue *object,
                              const char    *key);
