/* probe-json.c: a tiny JSON writer and reader for procura-probe
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "probe-json.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- writer ------------------------------------------------------------ */

static void
pj_append (PjWriter   *w,
           const char *s,
           size_t      n)
{
  if (w->oom)
    return;
  if (w->len + n + 1 > w->cap)
    {
      size_t cap = w->cap ? w->cap : 256;
      char *buf;

      while (w->len + n + 1 > cap)
        cap *= 2;
      buf = realloc (w->buf, cap);
      if (buf == NULL)
        {
          w->oom = true;
          return;
        }
      w->buf = buf;
      w->cap = cap;
    }
  memcpy (w->buf + w->len, s, n);
  w->len += n;
  w->buf[w->len] = '\0';
}

static void
pj_puts (PjWriter   *w,
         const char *s)
{
  pj_append (w, s, strlen (s));
}

static void
pj_printf (PjWriter   *w,
           const char *format,
           ...) __attribute__ ((format (printf, 2, 3)));

static void
pj_printf (PjWriter   *w,
           const char *format,
           ...)
{
  char tmp[64];
  va_list ap;
  int n;

  va_start (ap, format);
  n = vsnprintf (tmp, sizeof tmp, format, ap);
  va_end (ap);
  if (n > 0)
    pj_append (w, tmp, (size_t) n < sizeof tmp ? (size_t) n : sizeof tmp - 1);
}

void
pj_append_string (PjWriter   *w,
                  const char *s)
{
  const unsigned char *p;

  pj_puts (w, "\"");
  for (p = (const unsigned char *) s; *p; p++)
    {
      if (*p == '"')
        pj_puts (w, "\\\"");
      else if (*p == '\\')
        pj_puts (w, "\\\\");
      else if (*p == '\n')
        pj_puts (w, "\\n");
      else if (*p == '\r')
        pj_puts (w, "\\r");
      else if (*p == '\t')
        pj_puts (w, "\\t");
      else if (*p < 0x20 || *p == 0x7f)
        pj_printf (w, "\\u%04x", *p);
      else if (*p >= 0x80)
        {
          /* keep valid UTF-8, replace invalid bytes with U+FFFD */
          int extra = (*p & 0xe0) == 0xc0 ? 1 : (*p & 0xf0) == 0xe0 ? 2 : (*p & 0xf8) == 0xf0 ? 3 : -1;
          int i;
          bool ok = extra > 0;

          for (i = 1; ok && i <= extra; i++)
            ok = (p[i] & 0xc0) == 0x80;
          if (ok)
            {
              pj_append (w, (const char *) p, (size_t) extra + 1);
              p += extra;
            }
          else
            pj_puts (w, "\\ufffd");
        }
      else
        pj_append (w, (const char *) p, 1);
    }
  pj_puts (w, "\"");
}

static void
pj_key (PjWriter   *w,
        const char *key)
{
  if (w->need_comma)
    pj_puts (w, ",");
  if (key != NULL)
    {
      pj_append_string (w, key);
      pj_puts (w, ":");
    }
  w->need_comma = true;
}

void
pj_begin (PjWriter   *w,
          const char *event)
{
  w->len = 0;
  w->oom = false;
  w->need_comma = false;
  pj_puts (w, "{");
  pj_key_str (w, "event", event);
}

void
pj_key_str (PjWriter   *w,
            const char *key,
            const char *value)
{
  pj_key (w, key);
  if (value == NULL)
    pj_puts (w, "null");
  else
    pj_append_string (w, value);
}

void
pj_key_int (PjWriter   *w,
            const char *key,
            long long   value)
{
  pj_key (w, key);
  pj_printf (w, "%lld", value);
}

void
pj_key_uint (PjWriter           *w,
             const char         *key,
             unsigned long long  value)
{
  pj_key (w, key);
  pj_printf (w, "%llu", value);
}

void
pj_key_double (PjWriter   *w,
               const char *key,
               double      value)
{
  pj_key (w, key);
  if (!isfinite (value))
    pj_puts (w, "null");
  else
    pj_printf (w, "%.6g", value);
}

void
pj_key_bool (PjWriter   *w,
             const char *key,
             bool        value)
{
  pj_key (w, key);
  pj_puts (w, value ? "true" : "false");
}

void
pj_key_null (PjWriter   *w,
             const char *key)
{
  pj_key (w, key);
  pj_puts (w, "null");
}

void
pj_key_raw (PjWriter   *w,
            const char *key,
            const char *raw_json)
{
  pj_key (w, key);
  pj_puts (w, raw_json);
}

void
pj_open_object (PjWriter   *w,
                const char *key)
{
  pj_key (w, key);
  pj_puts (w, "{");
  w->need_comma = false;
}

void
pj_close_object (PjWriter *w)
{
  pj_puts (w, "}");
  w->need_comma = true;
}

void
pj_open_array (PjWriter   *w,
               const char *key)
{
  pj_key (w, key);
  pj_puts (w, "[");
  w->need_comma = false;
}

void
pj_close_array (PjWriter *w)
{
  pj_puts (w, "]");
  w->need_comma = true;
}

const char *
pj_end (PjWriter *w)
{
  pj_puts (w, "}\n");
  if (w->oom)
    return "{\"event\":\"error\",\"kind\":\"internal\",\"detail\":\"out of host memory\"}\n";
  return w->buf;
}

void
pj_clear (PjWriter *w)
{
  free (w->buf);
  memset (w, 0, sizeof *w);
}

/* ---- reader ------------------------------------------------------------ */

#define PJ_MAX_DEPTH 64

typedef struct {
  const char *start;
  const char *p;
  char       *err;
  size_t      err_len;
  bool        failed;
} PjParser;

static void
pj_fail (PjParser   *ps,
         const char *what)
{
  const char *q;
  int line = 1, col = 1;

  if (ps->failed)
    return;
  ps->failed = true;
  for (q = ps->start; q < ps->p; q++)
    {
      if (*q == '\n')
        {
          line++;
          col = 1;
        }
      else
        col++;
    }
  snprintf (ps->err, ps->err_len, "line %d, column %d: %s", line, col, what);
}

static void
pj_skip_ws (PjParser *ps)
{
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
    ps->p++;
}

static PjValue *pj_parse_value (PjParser *ps, int depth);

static PjValue *
pj_new (PjType type)
{
  PjValue *v = calloc (1, sizeof *v);

  if (v != NULL)
    v->type = type;
  return v;
}

void
pj_free (PjValue *v)
{
  size_t i;

  if (v == NULL)
    return;
  for (i = 0; i < v->n; i++)
    {
      pj_free (v->items[i]);
      if (v->keys != NULL)
        free (v->keys[i]);
    }
  free (v->items);
  free (v->keys);
  free (v->string);
  free (v);
}

static void
pj_put_utf8 (char     **out,
             unsigned   cp)
{
  char *o = *out;

  if (cp < 0x80)
    *o++ = (char) cp;
  else if (cp < 0x800)
    {
      *o++ = (char) (0xc0 | (cp >> 6));
      *o++ = (char) (0x80 | (cp & 0x3f));
    }
  else if (cp < 0x10000)
    {
      *o++ = (char) (0xe0 | (cp >> 12));
      *o++ = (char) (0x80 | ((cp >> 6) & 0x3f));
      *o++ = (char) (0x80 | (cp & 0x3f));
    }
  else
    {
      *o++ = (char) (0xf0 | (cp >> 18));
      *o++ = (char) (0x80 | ((cp >> 12) & 0x3f));
      *o++ = (char) (0x80 | ((cp >> 6) & 0x3f));
      *o++ = (char) (0x80 | (cp & 0x3f));
    }
  *out = o;
}

static int
pj_hex4 (const char *p,
         unsigned   *out)
{
  unsigned v = 0;
  int i;

  for (i = 0; i < 4; i++)
    {
      char c = p[i];

      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= (unsigned) (c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= (unsigned) (c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= (unsigned) (c - 'A' + 10);
      else
        return -1;
    }
  *out = v;
  return 0;
}

static char *
pj_parse_string_raw (PjParser *ps)
{
  const char *q;
  char *out, *o;

  /* ps->p at the opening quote; the decoded string is never longer than the raw one */
  q = ps->p + 1;
  while (*q && *q != '"')
    {
      if (*q == '\\' && q[1])
        q++;
      q++;
    }
  if (*q != '"')
    {
      pj_fail (ps, "unterminated string");
      return NULL;
    }
  out = malloc ((size_t) (q - ps->p) + 4);
  if (out == NULL)
    {
      pj_fail (ps, "out of memory");
      return NULL;
    }
  o = out;
  ps->p++;
  while (*ps->p != '"')
    {
      unsigned char c = (unsigned char) *ps->p;

      if (c < 0x20)
        {
          pj_fail (ps, "control character in string");
          free (out);
          return NULL;
        }
      if (c == '\\')
        {
          ps->p++;
          switch (*ps->p)
            {
            case '"': *o++ = '"'; break;
            case '\\': *o++ = '\\'; break;
            case '/': *o++ = '/'; break;
            case 'b': *o++ = '\b'; break;
            case 'f': *o++ = '\f'; break;
            case 'n': *o++ = '\n'; break;
            case 'r': *o++ = '\r'; break;
            case 't': *o++ = '\t'; break;
            case 'u':
              {
                unsigned cp;

                if (pj_hex4 (ps->p + 1, &cp) != 0)
                  {
                    pj_fail (ps, "bad \\u escape");
                    free (out);
                    return NULL;
                  }
                ps->p += 4;
                if (cp >= 0xd800 && cp < 0xdc00 && ps->p[1] == '\\' && ps->p[2] == 'u')
                  {
                    unsigned lo;

                    if (pj_hex4 (ps->p + 3, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000)
                      {
                        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                        ps->p += 6;
                      }
                  }
                if (cp == 0 || (cp >= 0xd800 && cp < 0xe000))
                  cp = 0xfffd;
                pj_put_utf8 (&o, cp);
              }
              break;
            default:
              pj_fail (ps, "bad escape in string");
              free (out);
              return NULL;
            }
          ps->p++;
        }
      else
        *o++ = (char) *ps->p++;
    }
  ps->p++;
  *o = '\0';
  return out;
}

static bool
pj_push (PjValue  *v,
         char     *key,
         PjValue  *item)
{
  PjValue **items = realloc (v->items, (v->n + 1) * sizeof *items);

  if (items == NULL)
    return false;
  v->items = items;
  if (v->type == PJ_OBJECT)
    {
      char **keys = realloc (v->keys, (v->n + 1) * sizeof *keys);

      if (keys == NULL)
        return false;
      v->keys = keys;
      v->keys[v->n] = key;
    }
  v->items[v->n++] = item;
  return true;
}

static PjValue *
pj_parse_value (PjParser *ps,
                int       depth)
{
  PjValue *v = NULL;

  if (depth > PJ_MAX_DEPTH)
    {
      pj_fail (ps, "nested too deeply");
      return NULL;
    }
  pj_skip_ws (ps);
  switch (*ps->p)
    {
    case '{':
    case '[':
      {
        bool object = *ps->p == '{';
        char close = object ? '}' : ']';

        v = pj_new (object ? PJ_OBJECT : PJ_ARRAY);
        if (v == NULL)
          {
            pj_fail (ps, "out of memory");
            return NULL;
          }
        ps->p++;
        pj_skip_ws (ps);
        if (*ps->p == close)
          {
            ps->p++;
            return v;
          }
        for (;;)
          {
            char *key = NULL;
            PjValue *item;

            pj_skip_ws (ps);
            if (object)
              {
                if (*ps->p != '"')
                  {
                    pj_fail (ps, "expected a member name");
                    goto fail;
                  }
                key = pj_parse_string_raw (ps);
                if (key == NULL)
                  goto fail;
                pj_skip_ws (ps);
                if (*ps->p != ':')
                  {
                    free (key);
                    pj_fail (ps, "expected ':'");
                    goto fail;
                  }
                ps->p++;
              }
            item = pj_parse_value (ps, depth + 1);
            if (item == NULL || !pj_push (v, key, item))
              {
                free (key);
                pj_free (item);
                pj_fail (ps, "out of memory");
                goto fail;
              }
            pj_skip_ws (ps);
            if (*ps->p == ',')
              {
                ps->p++;
                continue;
              }
            if (*ps->p == close)
              {
                ps->p++;
                return v;
              }
            pj_fail (ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
            goto fail;
          }
      }
    case '"':
      {
        char *s = pj_parse_string_raw (ps);

        if (s == NULL)
          return NULL;
        v = pj_new (PJ_STRING);
        if (v == NULL)
          {
            free (s);
            pj_fail (ps, "out of memory");
            return NULL;
          }
        v->string = s;
        return v;
      }
    case 't':
    case 'f':
    case 'n':
      {
        const char *words[] = { "true", "false", "null" };
        int i;

        for (i = 0; i < 3; i++)
          if (strncmp (ps->p, words[i], strlen (words[i])) == 0)
            {
              ps->p += strlen (words[i]);
              v = pj_new (i == 2 ? PJ_NULL : PJ_BOOL);
              if (v == NULL)
                {
                  pj_fail (ps, "out of memory");
                  return NULL;
                }
              v->boolean = i == 0;
              return v;
            }
        pj_fail (ps, "unexpected word");
        return NULL;
      }
    default:
      {
        const char *q = ps->p;
        char *end = NULL;
        double d;

        if (*q == '-')
          q++;
        if (!(*q >= '0' && *q <= '9'))
          {
            pj_fail (ps, *ps->p ? "unexpected character" : "unexpected end of input");
            return NULL;
          }
        d = strtod (ps->p, &end);
        if (end == ps->p || !isfinite (d))
          {
            pj_fail (ps, "bad number");
            return NULL;
          }
        ps->p = end;
        v = pj_new (PJ_NUMBER);
        if (v == NULL)
          {
            pj_fail (ps, "out of memory");
            return NULL;
          }
        v->number = d;
        return v;
      }
    }

fail:
  pj_free (v);
  return NULL;
}

PjValue *
pj_parse (const char *text,
          char       *err,
          size_t      err_len)
{
  PjParser ps = { text, text, err, err_len, false };
  PjValue *v;

  if (err_len > 0)
    err[0] = '\0';
  v = pj_parse_value (&ps, 0);
  if (v == NULL)
    return NULL;
  pj_skip_ws (&ps);
  if (*ps.p != '\0')
    {
      pj_fail (&ps, "trailing characters after the document");
      pj_free (v);
      return NULL;
    }
  return v;
}

const PjValue *
pj_get (const PjValue *object,
        const char    *key)
{
  size_t i;

  if (object == NULL || object->type != PJ_OBJECT)
    return NULL;
  for (i = 0; i < object->n; i++)
    if (strcmp (object->keys[i], key) == 0)
      return object->items[i];
  return NULL;
}
