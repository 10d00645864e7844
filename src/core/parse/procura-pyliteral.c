/* procura-pyliteral.c: reads Python literals into a JsonNode
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-import.h"
#include "procura-pyliteral.h"

typedef struct {
  const char *s;
  gsize       len;
  gsize       pos;
  GError    **error;
} Py;

static JsonNode *parse_value (Py *p, guint depth);

static void
fail (Py         *p,
      int         code,
      const char *what)
{
  g_set_error (p->error, PROCURA_IMPORT_ERROR, code,
               _("column %zu: %s"), p->pos + 1, what);
}

static void
skip_ws (Py *p)
{
  while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                             p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
    p->pos++;
}

static gboolean
peek_is (Py  *p,
         char c)
{
  return p->pos < p->len && p->s[p->pos] == c;
}

static int
hexval (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static char *
parse_string (Py *p)
{
  char quote = p->s[p->pos];
  g_autoptr(GString) out = g_string_new (NULL);

  p->pos++;
  while (p->pos < p->len)
    {
      char c = p->s[p->pos];

      if (c == quote)
        {
          p->pos++;
          if (!g_utf8_validate (out->str, (gssize) out->len, NULL))
            {
              fail (p, PROCURA_IMPORT_ERROR_SYNTAX, "string is not valid UTF-8");
              return NULL;
            }
          return g_string_free (g_steal_pointer (&out), FALSE);
        }
      if (c == '\n' || c == '\0')
        {
          fail (p, PROCURA_IMPORT_ERROR_SYNTAX, "line end or NUL inside a string (expected the closing quote)");
          return NULL;
        }
      if (c == '\\')
        {
          char e;
          int digits = 0;

          if (p->pos + 1 >= p->len)
            break;
          e = p->s[++p->pos];
          switch (e)
            {
            case 'n': g_string_append_c (out, '\n'); break;
            case 't': g_string_append_c (out, '\t'); break;
            case 'r': g_string_append_c (out, '\r'); break;
            case '\\': g_string_append_c (out, '\\'); break;
            case '\'': g_string_append_c (out, '\''); break;
            case '"': g_string_append_c (out, '"'); break;
            case 'x': digits = 2; break;
            case 'u': digits = 4; break;
            default:
              g_string_append_c (out, '\\');
              g_string_append_c (out, e);
              break;
            }
          if (digits > 0)
            {
              gunichar u = 0;

              for (int k = 0; k < digits; k++)
                {
                  int h = p->pos + 1 < p->len ? hexval (p->s[p->pos + 1]) : -1;
                  if (h < 0)
                    {
                      fail (p, PROCURA_IMPORT_ERROR_SYNTAX, "bad escape (expected hex digits)");
                      return NULL;
                    }
                  u = u * 16 + (gunichar) h;
                  p->pos++;
                }
              if (u == 0 || !g_unichar_validate (u))
                {
                  fail (p, PROCURA_IMPORT_ERROR_SYNTAX, "escape names no valid character");
                  return NULL;
                }
              g_string_append_unichar (out, u);
            }
          p->pos++;
          continue;
        }
      g_string_append_c (out, c);
      p->pos++;
    }
  fail (p, PROCURA_IMPORT_ERROR_SYNTAX, "string never closed (expected a closing quote)");
  return NULL;
}

static JsonNode *
parse_number (Py *p)
{
  gsize start = p->pos;
  gboolean is_float = FALSE;
  g_autofree char *text = NULL;
  JsonNode *node;

  if (peek_is (p, '-') || peek_is (p, '+'))
    p->pos++;
  while (p->pos < p->len)
    {
      char c = p->s[p->pos];
      if (g_ascii_isdigit (c) || c == '_')
        p->pos++;
      else if (c == '.' || c == 'e' || c == 'E')
        {
          is_float = TRUE;
          p->pos++;
          if ((c == 'e' || c == 'E') && p->pos < p->len && (p->s[p->pos] == '-' || p->s[p->pos] == '+'))
            p->pos++;
        }
      else
        break;
    }
  text = g_strndup (p->s + start, p->pos - start);
  /* Python allows 1_000: drop the underscores */
  {
    char *w = text;
    for (char *r = text; *r != '\0'; r++)
      if (*r != '_')
        *w++ = *r;
    *w = '\0';
  }
  node = json_node_new (JSON_NODE_VALUE);
  if (!is_float)
    {
      char *end = NULL;
      gint64 v;

      errno = 0;
      v = g_ascii_strtoll (text, &end, 10);
      if (end != NULL && *end == '\0' && end != text && errno == 0 &&
          !(text[0] == '-' && text[1] == '\0') && !(text[0] == '+' && text[1] == '\0'))
        {
          json_node_set_int (node, v);
          return node;
        }
      /* too large for 64 bits: fall through to a double */
    }
  {
    char *end = NULL;
    double d = g_ascii_strtod (text, &end);

    if (end == NULL || *end != '\0' || end == text || !isfinite (d))
      {
        json_node_unref (node);
        p->pos = start;
        fail (p, PROCURA_IMPORT_ERROR_SYNTAX, "malformed number");
        return NULL;
      }
    json_node_set_double (node, d);
  }
  return node;
}

static JsonNode *
parse_sequence (Py      *p,
                char     close,
                guint    depth)
{
  JsonArray *array = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  json_node_take_array (node, array);
  p->pos++;
  skip_ws (p);
  if (peek_is (p, close))
    {
      p->pos++;
      return node;
    }
  for (;;)
    {
      JsonNode *v = parse_value (p, depth + 1);

      if (v == NULL)
        {
          json_node_unref (node);
          return NULL;
        }
      json_array_add_element (array, v);
      skip_ws (p);
      if (peek_is (p, ','))
        {
          p->pos++;
          skip_ws (p);
          if (peek_is (p, close))
            {
              p->pos++;
              return node;
            }
          continue;
        }
      if (peek_is (p, close))
        {
          p->pos++;
          return node;
        }
      fail (p, PROCURA_IMPORT_ERROR_SYNTAX, close == ']' ? "expected ',' or ']'" : "expected ',' or ')'");
      json_node_unref (node);
      return NULL;
    }
}

static char *
key_text (JsonNode *k)
{
  if (JSON_NODE_HOLDS_VALUE (k))
    {
      GType t = json_node_get_value_type (k);
      if (t == G_TYPE_STRING)
        return g_strdup (json_node_get_string (k));
      if (t == G_TYPE_INT64)
        return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (k));
      if (t == G_TYPE_DOUBLE)
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          return g_strdup (g_ascii_dtostr (buf, sizeof buf, json_node_get_double (k)));
        }
      if (t == G_TYPE_BOOLEAN)
        return g_strdup (json_node_get_boolean (k) ? "True" : "False");
    }
  if (JSON_NODE_HOLDS_NULL (k))
    return g_strdup ("None");
  return NULL;
}

static JsonNode *
parse_dict (Py    *p,
            guint  depth)
{
  JsonObject *obj = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, obj);
  p->pos++;
  skip_ws (p);
  if (peek_is (p, '}'))
    {
      p->pos++;
      return node;
    }
  for (;;)
    {
      JsonNode *k, *v;
      g_autofree char *key = NULL;
      gsize key_pos = p->pos;

      k = parse_value (p, depth + 1);
      if (k == NULL)
        goto fail;
      key = key_text (k);
      json_node_unref (k);
      if (key == NULL)
        {
          p->pos = key_pos;
          fail (p, PROCURA_IMPORT_ERROR_SYNTAX, "dict key must be a string or a number");
          goto fail;
        }
      skip_ws (p);
      if (!peek_is (p, ':'))
        {
          fail (p, PROCURA_IMPORT_ERROR_SYNTAX, "expected ':' after a dict key");
          goto fail;
        }
      p->pos++;
      v = parse_value (p, depth + 1);
      if (v == NULL)
        goto fail;
      json_object_set_member (obj, key, v);
      skip_ws (p);
      if (peek_is (p, ','))
        {
          p->pos++;
          skip_ws (p);
          if (peek_is (p, '}'))
            {
              p->pos++;
              return node;
            }
          continue;
        }
      if (peek_is (p, '}'))
        {
          p->pos++;
          return node;
        }
      fail (p, PROCURA_IMPORT_ERROR_SYNTAX, "expected ',' or '}'");
      goto fail;
    }
fail:
  json_node_unref (node);
  return NULL;
}

static gboolean
word_at (Py         *p,
         const char *word)
{
  gsize n = strlen (word);

  if (p->len - p->pos < n || memcmp (p->s + p->pos, word, n) != 0)
    return FALSE;
  if (p->pos + n < p->len && (g_ascii_isalnum (p->s[p->pos + n]) || p->s[p->pos + n] == '_'))
    return FALSE;
  p->pos += n;
  return TRUE;
}

static JsonNode *
parse_value (Py    *p,
             guint  depth)
{
  char c;

  if (depth > PROCURA_PYLITERAL_MAX_DEPTH)
    {
      fail (p, PROCURA_IMPORT_ERROR_LIMIT, "nested too deeply");
      return NULL;
    }
  skip_ws (p);
  if (p->pos >= p->len)
    {
      fail (p, PROCURA_IMPORT_ERROR_SYNTAX, "unexpected end (expected a value)");
      return NULL;
    }
  c = p->s[p->pos];
  if (c == '{')
    return parse_dict (p, depth);
  if (c == '[')
    return parse_sequence (p, ']', depth);
  if (c == '(')
    return parse_sequence (p, ')', depth);
  if (c == '\'' || c == '"')
    {
      char *s = parse_string (p);
      JsonNode *node;

      if (s == NULL)
        return NULL;
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_string (node, s);
      g_free (s);
      return node;
    }
  if (g_ascii_isdigit (c) || c == '-' || c == '+' || c == '.')
    return parse_number (p);
  if (word_at (p, "True"))
    {
      JsonNode *node = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (node, TRUE);
      return node;
    }
  if (word_at (p, "False"))
    {
      JsonNode *node = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (node, FALSE);
      return node;
    }
  if (word_at (p, "None"))
    return json_node_new (JSON_NODE_NULL);
  fail (p, PROCURA_IMPORT_ERROR_SYNTAX, "expected a dict, list, tuple, string, number, True, False or None");
  return NULL;
}

JsonNode *
procura_pyliteral_parse (const char  *text,
                         gssize       len,
                         GError     **error)
{
  Py p = { text, 0, 0, error };
  JsonNode *node;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  p.len = len < 0 ? strlen (text) : (gsize) len;
  node = parse_value (&p, 0);
  if (node == NULL)
    return NULL;
  skip_ws (&p);
  if (p.pos != p.len)
    {
      fail (&p, PROCURA_IMPORT_ERROR_SYNTAX, "unexpected text after the value");
      json_node_unref (node);
      return NULL;
    }
  return node;
}
