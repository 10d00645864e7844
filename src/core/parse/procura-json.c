/* procura-json.c: strict checks before json-glib sees a document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-import.h"
#include "procura-json.h"

typedef struct {
  char        type;      /* '{' or '[' */
  gint64      index;     /* array element index */
  const char *key;       /* last key read in an object (points into the text) */
  gsize       key_len;
  guint       key_first; /* the object's first key in Scanner.keys */
} Level;

typedef struct {
  const char *key;
  gsize       len;
} KeySpan;

/* Duplicate keys are looked for among an object's first keys only: enough for every
 * format read, and no quadratic cost on an object keyed by thousands of ids */
#define DUPLICATE_SCAN_KEYS 512
#define MAX_NOTES 20

static _Thread_local GPtrArray *json_notes;

void
procura_json_set_notes (GPtrArray *notes)
{
  json_notes = notes;
}

typedef struct {
  const char       *name;
  const char       *data;
  gsize             len;
  gsize             pos;
  guint             line_base;
  ProcuraJsonFlags  flags;
  Level            *stack;
  int               depth;
  GString          *out;
  gsize             copied;
  GArray           *keys;   /* KeySpan of the open objects, innermost last */
  guint             n_duplicates;
} Scanner;

static char *
scanner_path (Scanner *s)
{
  GString *p = g_string_new ("$");

  for (int i = 0; i < s->depth; i++)
    {
      if (s->stack[i].type == '[')
        g_string_append_printf (p, "[%" G_GINT64_FORMAT "]", s->stack[i].index);
      else if (s->stack[i].key != NULL)
        {
          g_string_append_c (p, '.');
          g_string_append_len (p, s->stack[i].key, (gssize) MIN (s->stack[i].key_len, 80));
        }
    }
  return g_string_free (p, FALSE);
}

static void
position_of (const char *data,
             gsize       pos,
             guint      *line,
             guint      *column)
{
  guint l = 1, c = 1;

  for (gsize i = 0; i < pos; i++)
    {
      if (data[i] == '\n')
        {
          l++;
          c = 1;
        }
      else if (((guchar) data[i] & 0xC0) != 0x80)
        c++;
    }
  *line = l;
  *column = c;
}

static gboolean G_GNUC_PRINTF (4, 5)
scanner_fail (Scanner    *s,
              GError    **error,
              int         code,
              const char *format,
              ...)
{
  g_autofree char *what = NULL;
  g_autofree char *path = scanner_path (s);
  guint line, column;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  position_of (s->data, s->pos, &line, &column);
  g_set_error (error, PROCURA_IMPORT_ERROR, code, _("%s:%u:%u: %s (at %s)"),
               s->name, line + s->line_base, column, what, path);
  return FALSE;
}

/* Records a key of the innermost object; a key seen before in that object is a note
 * (json-glib keeps the last value; the tool may have meant either) */
static void
note_key (Scanner    *s,
          const char *key,
          gsize       len)
{
  guint first = s->stack[s->depth - 1].key_first;
  KeySpan span = { key, len };

  for (guint i = first; i < s->keys->len && i < first + DUPLICATE_SCAN_KEYS; i++)
    {
      const KeySpan *k = &g_array_index (s->keys, KeySpan, i);

      if (k->len == len && memcmp (k->key, key, len) == 0)
        {
          if (s->n_duplicates++ < MAX_NOTES && json_notes->len < 2 * MAX_NOTES)
            {
              g_autofree char *path = scanner_path (s);
              guint line, column;

              position_of (s->data, s->pos, &line, &column);
              g_ptr_array_add (json_notes,
                               g_strdup_printf ("%s:%u:%u: the key “%.*s” appears twice in the same object "
                                                "(at %s); the last value is used", s->name,
                                                line + s->line_base, column, (int) MIN (len, 80), key, path));
            }
          return;
        }
    }
  g_array_append_val (s->keys, span);
}

static void
scanner_replace (Scanner    *s,
                 gsize       start,
                 gsize       end,
                 const char *replacement)
{
  if (s->out == NULL)
    s->out = g_string_sized_new (s->len + 64);
  g_string_append_len (s->out, s->data + s->copied, (gssize) (start - s->copied));
  g_string_append (s->out, replacement);
  s->copied = end;
}

static inline void
skip_ws (Scanner *s)
{
  while (s->pos < s->len)
    {
      char c = s->data[s->pos];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        break;
      s->pos++;
    }
}

static int
hex4 (const char *p)
{
  int v = 0;

  for (int i = 0; i < 4; i++)
    {
      int d = g_ascii_xdigit_value (p[i]);
      if (d < 0)
        return -1;
      v = v * 16 + d;
    }
  return v;
}

static gboolean
scan_string (Scanner  *s,
             GError  **error)
{
  /* s->data[s->pos] == '"' */
  s->pos++;
  while (s->pos < s->len)
    {
      guchar c = (guchar) s->data[s->pos];

      if (c == '"')
        {
          s->pos++;
          return TRUE;
        }
      if (c < 0x20)
        return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                             _("control character U+%04X inside a string; expected it escaped"), c);
      if (c == '\\')
        {
          if (s->pos + 1 >= s->len)
            break;
          c = (guchar) s->data[s->pos + 1];
          if (c == 'u')
            {
              int v;

              if (s->pos + 6 > s->len || (v = hex4 (s->data + s->pos + 2)) < 0)
                return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                                     _("bad \\u escape; expected four hex digits"));
              if (v >= 0xDC00 && v <= 0xDFFF)
                return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                                     _("lone low surrogate \\u%04X in a string"), (guint) v);
              if (v >= 0xD800 && v <= 0xDBFF)
                {
                  int w;

                  if (s->pos + 12 > s->len || s->data[s->pos + 6] != '\\' || s->data[s->pos + 7] != 'u'
                      || (w = hex4 (s->data + s->pos + 8)) < 0xDC00 || w > 0xDFFF)
                    return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                                         _("high surrogate \\u%04X not followed by a low surrogate"),
                                         (guint) v);
                  s->pos += 12;
                }
              else
                s->pos += 6;
              continue;
            }
          if (strchr ("\"\\/bfnrt", (char) c) == NULL || c == 0)
            return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                                 _("bad escape \\%c in a string"), g_ascii_isprint (c) ? c : '?');
          s->pos += 2;
          continue;
        }
      s->pos++;
    }
  return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                       _("unexpected end of file inside a string; expected a closing '\"'"));
}

static gboolean
scan_number (Scanner  *s,
             GError  **error)
{
  gsize start = s->pos, digits_start;
  gboolean negative = FALSE, is_float = FALSE, has_exp = FALSE;

  if (s->data[s->pos] == '-')
    {
      negative = TRUE;
      s->pos++;
    }
  digits_start = s->pos;
  if (s->pos >= s->len || !g_ascii_isdigit (s->data[s->pos]))
    {
      if (s->pos < s->len && s->data[s->pos] == 'I' && (s->flags & PROCURA_JSON_ALLOW_NONFINITE)
          && s->len - s->pos >= 8 && memcmp (s->data + s->pos, "Infinity", 8) == 0)
        {
          s->pos += 8;
          scanner_replace (s, start, s->pos, "\"-Infinity\"");
          return TRUE;
        }
      return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                           _("'-' not followed by a digit; expected a number"));
    }
  if (s->data[s->pos] == '0')
    {
      s->pos++;
      if (s->pos < s->len && (g_ascii_isdigit (s->data[s->pos]) || s->data[s->pos] == 'x'
                              || s->data[s->pos] == 'X'))
        return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                             _("number with a leading zero or in hex; expected a decimal number"));
    }
  else
    while (s->pos < s->len && g_ascii_isdigit (s->data[s->pos]))
      s->pos++;
  if (s->pos < s->len && s->data[s->pos] == '.')
    {
      is_float = TRUE;
      s->pos++;
      if (s->pos >= s->len || !g_ascii_isdigit (s->data[s->pos]))
        return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                             _("'.' not followed by a digit in a number"));
      while (s->pos < s->len && g_ascii_isdigit (s->data[s->pos]))
        s->pos++;
    }
  if (s->pos < s->len && (s->data[s->pos] == 'e' || s->data[s->pos] == 'E'))
    {
      has_exp = TRUE;
      s->pos++;
      if (s->pos < s->len && (s->data[s->pos] == '+' || s->data[s->pos] == '-'))
        s->pos++;
      if (s->pos >= s->len || !g_ascii_isdigit (s->data[s->pos]))
        return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                             _("exponent without digits in a number"));
      while (s->pos < s->len && g_ascii_isdigit (s->data[s->pos]))
        s->pos++;
    }
  if (has_exp)
    {
      char buf[64];
      gsize n = MIN (s->pos - start, sizeof buf - 1);
      double v;

      memcpy (buf, s->data + start, n);
      buf[n] = '\0';
      v = g_ascii_strtod (buf, NULL);
      if (!isfinite (v))
        {
          s->pos = start;
          return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                               _("number out of the range of a double"));
        }
    }
  if (!is_float && !has_exp)
    {
      gsize nd = s->pos - digits_start;
      /* json-glib reads integers as gint64 and wraps 2^63 and above silently
       * (2^64 reads as -1): such integers are rewritten as doubles. */
      if (nd > 19 || (nd == 19 && memcmp (s->data + digits_start, "9223372036854775807", 19) > 0))
        {
          g_autofree char *num = g_strndup (s->data + start, s->pos - start);
          g_autofree char *rep = g_strconcat (num, ".0", NULL);

          if (nd > 300)
            return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                                 _("integer with %zu digits; out of range"), nd);
          scanner_replace (s, start, s->pos, rep);
        }
    }
  (void) negative;
  return TRUE;
}

static gboolean
scan_word (Scanner    *s,
           const char *word,
           GError    **error)
{
  gsize n = strlen (word);

  if (s->len - s->pos < n || memcmp (s->data + s->pos, word, n) != 0)
    return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                         _("unexpected word; expected a value (true, false, null, a number, a string, an object or an array)"));
  s->pos += n;
  return TRUE;
}

static gboolean
check_utf8 (Scanner  *s,
            GError  **error)
{
  const char *end = NULL;

  if (g_utf8_validate_len (s->data, s->len, &end))
    return TRUE;
  s->pos = (gsize) (end - s->data);
  if (s->pos < s->len && s->data[s->pos] == '\0')
    return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                         _("NUL byte in the text; expected UTF-8 JSON text"));
  return scanner_fail (s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                       _("invalid UTF-8 (byte 0x%02X); expected UTF-8 JSON text"),
                       (guchar) s->data[s->pos]);
}

gboolean
procura_json_check (const char        *name,
                    const char        *data,
                    gsize              len,
                    guint              line_base,
                    ProcuraJsonFlags   flags,
                    char             **rewritten,
                    gsize             *rewritten_len,
                    GError           **error)
{
  Scanner s = { name, data, len, 0, line_base, flags, NULL, 0, NULL, 0, NULL, 0 };
  Level stack[PROCURA_JSON_MAX_DEPTH];
  gboolean ok = FALSE;

  s.stack = stack;
  if (json_notes != NULL)
    s.keys = g_array_new (FALSE, FALSE, sizeof (KeySpan));
  *rewritten = NULL;
  *rewritten_len = 0;

  /* A UTF-8 byte order mark is tolerated (and skipped) */
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    {
      s.pos = 3;
      scanner_replace (&s, 0, 3, "");
    }
  if (!check_utf8 (&s, error))
    goto out;

  skip_ws (&s);
  if (s.pos >= len)
    {
      if (len == 0)
        g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                     _("%s: the file is empty; expected a JSON document"), name);
      else
        g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                     _("%s: the file holds only white space (%zu bytes); expected a JSON document"),
                     name, len);
      goto out;
    }

value:
  skip_ws (&s);
  if (s.pos >= len)
    {
      scanner_fail (&s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                    _("unexpected end of file (the file is truncated); expected a value"));
      goto out;
    }
  switch (data[s.pos])
    {
    case '{':
    case '[':
      if (s.depth >= PROCURA_JSON_MAX_DEPTH)
        {
          scanner_fail (&s, error, PROCURA_IMPORT_ERROR_LIMIT,
                        _("nesting deeper than %d levels; refused"), PROCURA_JSON_MAX_DEPTH);
          goto out;
        }
      stack[s.depth].type = data[s.pos];
      stack[s.depth].index = 0;
      stack[s.depth].key = NULL;
      stack[s.depth].key_len = 0;
      stack[s.depth].key_first = s.keys ? s.keys->len : 0;
      s.depth++;
      s.pos++;
      skip_ws (&s);
      if (s.pos < len && data[s.pos] == (stack[s.depth - 1].type == '{' ? '}' : ']'))
        {
          s.depth--;
          s.pos++;
          goto after;
        }
      if (stack[s.depth - 1].type == '{')
        goto key;
      goto value;
    case '"':
      if (!scan_string (&s, error))
        goto out;
      goto after;
    case 't':
      if (!scan_word (&s, "true", error))
        goto out;
      goto after;
    case 'f':
      if (!scan_word (&s, "false", error))
        goto out;
      goto after;
    case 'n':
      if (!scan_word (&s, "null", error))
        goto out;
      goto after;
    case 'N':
    case 'I':
      if (flags & PROCURA_JSON_ALLOW_NONFINITE)
        {
          gsize start = s.pos;
          gboolean nan = data[s.pos] == 'N';

          if (!scan_word (&s, nan ? "NaN" : "Infinity", error))
            goto out;
          scanner_replace (&s, start, s.pos, nan ? "\"NaN\"" : "\"Infinity\"");
          goto after;
        }
      scanner_fail (&s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                    _("bare %s is not JSON; expected a number, a string or null"),
                    data[s.pos] == 'N' ? "NaN" : "Infinity");
      goto out;
    default:
      if (data[s.pos] == '-' || g_ascii_isdigit (data[s.pos]))
        {
          if (!scan_number (&s, error))
            goto out;
          goto after;
        }
      if (data[s.pos] == '\'')
        scanner_fail (&s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                      _("single-quoted string; expected a double-quoted JSON string"));
      else if (data[s.pos] == ']' || data[s.pos] == '}')
        scanner_fail (&s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                      _("unexpected '%c' (trailing comma?); expected a value"), data[s.pos]);
      else
        scanner_fail (&s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                      _("unexpected character '%c'; expected a value"),
                      g_ascii_isprint (data[s.pos]) ? data[s.pos] : '?');
      goto out;
    }

key:
  skip_ws (&s);
  if (s.pos >= len)
    {
      scanner_fail (&s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                    _("unexpected end of file (the file is truncated) inside an object; expected a key"));
      goto out;
    }
  if (data[s.pos] != '"')
    {
      scanner_fail (&s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                    _("%s; expected a double-quoted key"),
                    data[s.pos] == '\'' ? "single-quoted key" :
                    data[s.pos] == '}' ? "unexpected '}' (trailing comma?)" : "unexpected character");
      goto out;
    }
  {
    gsize kstart = s.pos + 1;

    if (!scan_string (&s, error))
      goto out;
    stack[s.depth - 1].key = data + kstart;
    stack[s.depth - 1].key_len = s.pos - 1 - kstart;
    if (s.keys != NULL)
      note_key (&s, data + kstart, s.pos - 1 - kstart);
  }
  skip_ws (&s);
  if (s.pos >= len || data[s.pos] != ':')
    {
      scanner_fail (&s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                    s.pos >= len ? _("unexpected end of file (the file is truncated); expected ':'")
                                 : _("expected ':' after the key"));
      goto out;
    }
  s.pos++;
  goto value;

after:
  if (s.depth == 0)
    {
      skip_ws (&s);
      if (s.pos < len)
        {
          scanner_fail (&s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                        _("unexpected text after the end of the JSON document"));
          goto out;
        }
      ok = TRUE;
      goto out;
    }
  skip_ws (&s);
  if (s.pos >= len)
    {
      scanner_fail (&s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                    _("unexpected end of file (the file is truncated) inside an %s; expected ',' or '%c'"),
                    stack[s.depth - 1].type == '{' ? "object" : "array",
                    stack[s.depth - 1].type == '{' ? '}' : ']');
      goto out;
    }
  if (data[s.pos] == ',')
    {
      s.pos++;
      if (stack[s.depth - 1].type == '{')
        goto key;
      stack[s.depth - 1].index++;
      goto value;
    }
  if (data[s.pos] == (stack[s.depth - 1].type == '{' ? '}' : ']'))
    {
      s.pos++;
      s.depth--;
      if (s.keys != NULL && stack[s.depth].type == '{')
        g_array_set_size (s.keys, stack[s.depth].key_first);
      goto after;
    }
  scanner_fail (&s, error, PROCURA_IMPORT_ERROR_SYNTAX,
                _("unexpected character '%c'; expected ',' or '%c'"),
                g_ascii_isprint (data[s.pos]) ? data[s.pos] : '?',
                stack[s.depth - 1].type == '{' ? '}' : ']');

out:
  if (s.keys != NULL)
    g_array_free (s.keys, TRUE);
  if (ok && s.out != NULL)
    {
      g_string_append_len (s.out, data + s.copied, (gssize) (len - s.copied));
      *rewritten_len = s.out->len;
      *rewritten = g_string_free (s.out, FALSE);
    }
  else if (s.out != NULL)
    g_string_free (s.out, TRUE);
  return ok;
}

gboolean
procura_json_check_depth (const char  *name,
                          const char  *data,
                          gsize        len,
                          GError     **error)
{
  gboolean in_string = FALSE;
  int depth = 0;

  for (gsize i = 0; i < len; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"' || c == '\n')
            in_string = FALSE;   /* a new line starts afresh (JSON Lines, logs) */
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > PROCURA_JSON_MAX_DEPTH)
            {
              guint line, column;
              position_of (data, i, &line, &column);
              g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_LIMIT,
                           _("%s:%u:%u: nesting deeper than %d levels; refused"), name, line, column,
                           PROCURA_JSON_MAX_DEPTH);
              return FALSE;
            }
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return TRUE;
}

JsonNode *
procura_json_parse (const char        *name,
                    const char        *data,
                    gsize              len,
                    guint              line_base,
                    ProcuraJsonFlags   flags,
                    GError           **error)
{
  g_autofree char *rewritten = NULL;
  gsize rewritten_len = 0;
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GError) local = NULL;

  if (!procura_json_check (name, data, len, line_base, flags, &rewritten, &rewritten_len, error))
    return NULL;
  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, rewritten ? rewritten : data,
                                   (gssize) (rewritten ? rewritten_len : len), &local))
    {
      /* Should not happen after the strict check; never trust it anyway */
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                   "%s: %s", name, local->message);
      return NULL;
    }
  if (json_parser_get_root (parser) == NULL)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                   _("%s: no JSON document; expected one"), name);
      return NULL;
    }
  return json_parser_steal_root (parser);
}

/* ------------------------------------------------------------------------- */

const char *
procura_json_node_type_name (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return "null";
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "an object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "an array";
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return "a string";
    case G_TYPE_BOOLEAN:
      return "a boolean";
    default:
      return "a number";
    }
}

gboolean
procura_json_nonfinite_string (const char *s,
                               double     *out)
{
  if (s == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (s, "inf") == 0 || g_ascii_strcasecmp (s, "infinity") == 0
      || g_ascii_strcasecmp (s, "+inf") == 0)
    *out = INFINITY;
  else if (g_ascii_strcasecmp (s, "-inf") == 0 || g_ascii_strcasecmp (s, "-infinity") == 0)
    *out = -INFINITY;
  else if (g_ascii_strcasecmp (s, "nan") == 0)
    *out = NAN;
  else
    return FALSE;
  return TRUE;
}

static gboolean
type_error (const char  *name,
            const char  *path,
            const char  *key,
            const char  *expected,
            JsonNode    *node,
            GError     **error)
{
  g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
               _("%s: %s%s%s: expected %s, found %s"), name, path, key ? "." : "", key ? key : "",
               expected, procura_json_node_type_name (node));
  return FALSE;
}

static gboolean
node_number (const char  *name,
             JsonNode    *node,
             const char  *path,
             const char  *key,
             gboolean     lax,
             double      *out,
             GError     **error)
{
  *out = NAN;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType t = json_node_get_value_type (node);

      if (t == G_TYPE_INT64 || t == G_TYPE_DOUBLE)
        {
          *out = json_node_get_double (node);
          return TRUE;
        }
      if (t == G_TYPE_STRING)
        {
          const char *s = json_node_get_string (node);
          char *end = NULL;

          if (procura_json_nonfinite_string (s, out))
            return TRUE;
          if (lax && s[0] != '\0')
            {
              double v = g_ascii_strtod (s, &end);
              if (end != NULL && *end == '\0' && isfinite (v))
                {
                  *out = v;
                  return TRUE;
                }
            }
        }
    }
  return type_error (name, path, key, "a number", node, error);
}

gboolean
procura_json_number (const char  *name,
                     JsonObject  *object,
                     const char  *path,
                     const char  *key,
                     double      *out,
                     GError     **error)
{
  return node_number (name, json_object_get_member (object, key), path, key, FALSE, out, error);
}

gboolean
procura_json_number_lax (const char  *name,
                         JsonObject  *object,
                         const char  *path,
                         const char  *key,
                         double      *out,
                         GError     **error)
{
  return node_number (name, json_object_get_member (object, key), path, key, TRUE, out, error);
}

gboolean
procura_json_node_number (const char  *name,
                          JsonNode    *node,
                          const char  *what,
                          double      *out,
                          GError     **error)
{
  return node_number (name, node, what, NULL, FALSE, out, error);
}

gboolean
procura_json_count (const char  *name,
                    JsonObject  *object,
                    const char  *path,
                    const char  *key,
                    gint64      *out,
                    GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);
  double v;

  *out = -1;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    {
      if (json_node_get_int (node) < 0)
        return type_error (name, path, key, "a count (0 or more)", node, error);
      *out = json_node_get_int (node);
      return TRUE;
    }
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      v = json_node_get_double (node);
      if (v >= 0 && v < 9.0e15 && v == floor (v))
        {
          *out = (gint64) v;
          return TRUE;
        }
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: %s.%s: expected a count (a whole number from 0 to 9e15), found %g"),
                   name, path, key, v);
      return FALSE;
    }
  return type_error (name, path, key, "a count", node, error);
}

gboolean
procura_json_string (const char  *name,
                     JsonObject  *object,
                     const char  *path,
                     const char  *key,
                     const char **out,
                     GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      *out = json_node_get_string (node);
      return TRUE;
    }
  return type_error (name, path, key, "a string", node, error);
}

gboolean
procura_json_object (const char  *name,
                     JsonObject  *object,
                     const char  *path,
                     const char  *key,
                     JsonObject **out,
                     GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      *out = json_node_get_object (node);
      return TRUE;
    }
  return type_error (name, path, key, "an object", node, error);
}

gboolean
procura_json_array (const char  *name,
                    JsonObject  *object,
                    const char  *path,
                    const char  *key,
                    JsonArray  **out,
                    GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      *out = json_node_get_array (node);
      return TRUE;
    }
  return type_error (name, path, key, "an array", node, error);
}
