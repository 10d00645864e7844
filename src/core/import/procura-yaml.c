/* procura-yaml.c: the block-style YAML subset that PyYAML's safe_dump writes, as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Read: block mappings and sequences (a sequence may sit at its key's indentation),
 * "- key: value" items, plain scalars (also folded over several lines), double- and
 * single-quoted scalars (also folded), empty values (null), "{}" and "[]", flow
 * sequences and mappings of scalars on one line, comments, a leading "---". Refused
 * with the line: anchors, aliases, tags, block scalars ("|", ">"), several documents,
 * tabs in the indentation. Enough for guidellm's benchmarks.yaml; not a YAML parser.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-import-private.h"
#include "procura-yaml.h"

#define MAX_DEPTH 256

typedef struct {
  guint  indent;
  char  *text;    /* without the indentation; may be rewritten for "- " items */
  guint  line;    /* 1-based */
} Line;

typedef struct {
  const char *name;
  GArray     *lines;   /* Line */
  guint       pos;
  int         depth;
} Parser;

static gboolean G_GNUC_PRINTF (4, 5)
fail (Parser     *p,
      GError    **error,
      guint       line,
      const char *format,
      ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX, "%s:%u: %s", p->name, line, what);
  return FALSE;
}

static Line *
cur (Parser *p)
{
  return p->pos < p->lines->len ? &g_array_index (p->lines, Line, p->pos) : NULL;
}

static gboolean
is_seq_item (const char *t)
{
  return t[0] == '-' && (t[1] == ' ' || t[1] == '\0');
}

/* The ": " (or final ":") that ends a mapping key outside quotes, or NULL */
static char *
key_colon (char *t)
{
  char q = 0;

  if (*t == '"' || *t == '\'')
    {
      q = *t;
      for (t++; *t && *t != q; t++)
        if (q == '"' && *t == '\\' && t[1])
          t++;
      if (*t != q)
        return NULL;
      t++;
      while (*t == ' ')
        t++;
      return (*t == ':' && (t[1] == ' ' || t[1] == '\0')) ? t : NULL;
    }
  for (; *t; t++)
    {
      if (*t == ':' && (t[1] == ' ' || t[1] == '\0'))
        return t;
      if (*t == ' ' && t[1] == '#')
        return NULL;
    }
  return NULL;
}

static void
strip_comment (char *t)
{
  char q = 0;

  for (char *c = t; *c; c++)
    {
      if (q)
        {
          if (q == '"' && *c == '\\' && c[1])
            c++;
          else if (*c == q)
            q = 0;
        }
      else if (*c == '"' || *c == '\'')
        q = *c;
      else if (*c == '#' && (c == t || c[-1] == ' '))
        {
          *c = '\0';
          break;
        }
    }
  g_strchomp (t);
}

static JsonNode *
plain_scalar (const char *s)
{
  char *end = NULL;
  double d;

  if (*s == '\0' || g_str_equal (s, "~") || g_str_equal (s, "null") || g_str_equal (s, "Null") || g_str_equal (s, "NULL"))
    return json_node_new (JSON_NODE_NULL);
  if (g_str_equal (s, "true") || g_str_equal (s, "True") || g_str_equal (s, "TRUE"))
    {
      JsonNode *n = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (n, TRUE);
      return n;
    }
  if (g_str_equal (s, "false") || g_str_equal (s, "False") || g_str_equal (s, "FALSE"))
    {
      JsonNode *n = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (n, FALSE);
      return n;
    }
  if (g_str_equal (s, ".inf") || g_str_equal (s, "+.inf") || g_str_equal (s, "-.inf") || g_str_equal (s, ".nan"))
    {
      /* as procura-json.c rewrites bare Infinity and NaN: strings the number readers know */
      JsonNode *n = json_node_new (JSON_NODE_VALUE);
      json_node_set_string (n, s[1] == 'n' ? "NaN" : s[0] == '-' ? "-Infinity" : "Infinity");
      return n;
    }
  if (g_ascii_isdigit (*s) || ((*s == '-' || *s == '+' || *s == '.') && (g_ascii_isdigit (s[1]) || s[1] == '.')))
    {
      gboolean integer = TRUE;

      for (const char *c = (*s == '-' || *s == '+') ? s + 1 : s; *c; c++)
        if (!g_ascii_isdigit (*c))
          integer = FALSE;
      if (integer)
        {
          gint64 v = g_ascii_strtoll (s, &end, 10);
          if (end && *end == '\0' && v != G_MAXINT64 && v != G_MININT64)
            {
              JsonNode *n = json_node_new (JSON_NODE_VALUE);
              json_node_set_int (n, v);
              return n;
            }
        }
      d = g_ascii_strtod (s, &end);
      if (end && *end == '\0' && isfinite (d))
        {
          JsonNode *n = json_node_new (JSON_NODE_VALUE);
          json_node_set_double (n, d);
          return n;
        }
    }
  {
    JsonNode *n = json_node_new (JSON_NODE_VALUE);
    json_node_set_string (n, s);
    return n;
  }
}

/* A quoted scalar starting at @t (which may continue on the next lines, folded);
 * on success the lines used are consumed */
static JsonNode *
quoted_scalar (Parser     *p,
               const char *t,
               guint       line,
               GError    **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  char q = *t;
  const char *c = t + 1;
  gboolean first = TRUE;

  for (;;)
    {
      for (; *c; c++)
        {
          if (q == '\'' && *c == '\'' && c[1] == '\'')
            {
              g_string_append_c (out, '\'');
              c++;
              continue;
            }
          if (*c == q)
            {
              JsonNode *n;
              const char *rest = c + 1;

              while (*rest == ' ')
                rest++;
              if (*rest != '\0' && *rest != '#')
                {
                  fail (p, error, line, _("text after the closing quote; expected the end of the line"));
                  return NULL;
                }
              n = json_node_new (JSON_NODE_VALUE);
              json_node_set_string (n, out->str);
              p->pos++;
              return n;
            }
          if (q == '"' && *c == '\\')
            {
              c++;
              switch (*c)
                {
                case 'n': g_string_append_c (out, '\n'); break;
                case 't': g_string_append_c (out, '\t'); break;
                case 'r': g_string_append_c (out, '\r'); break;
                case '0': g_string_append_c (out, '\0'); break;
                case '"': case '\\': case '/': case ' ': g_string_append_c (out, *c); break;
                case 'x': case 'u': case 'U':
                  {
                    int digits = *c == 'x' ? 2 : *c == 'u' ? 4 : 8;
                    gunichar u = 0;
                    for (int k = 1; k <= digits; k++)
                      {
                        if (!g_ascii_isxdigit (c[k]))
                          {
                            fail (p, error, line, _("bad \\%c escape; expected %d hex digits"), *c, digits);
                            return NULL;
                          }
                        u = u * 16 + (gunichar) g_ascii_xdigit_value (c[k]);
                      }
                    if (!g_unichar_validate (u))
                      {
                        fail (p, error, line, _("escape of an invalid character U+%04X"), u);
                        return NULL;
                      }
                    g_string_append_unichar (out, u);
                    c += digits;
                  }
                  break;
                case '\0':
                  /* an escaped line break: the lines join without a space */
                  c--;
                  first = TRUE;
                  goto next_line;
                default:
                  fail (p, error, line, _("unknown escape \\%c in a double-quoted string"), *c);
                  return NULL;
                }
              continue;
            }
          g_string_append_c (out, *c);
        }
      first = FALSE;
next_line:
      /* folded onto the next line */
      p->pos++;
      if (cur (p) == NULL)
        {
          fail (p, error, line, _("the quoted string does not end (the file is truncated?)"));
          return NULL;
        }
      if (!first)
        g_string_append_c (out, ' ');
      c = cur (p)->text;
      line = cur (p)->line;
    }
}

static JsonNode *parse_node (Parser *p, guint indent, GError **error);

/* The items of a one-line flow collection: split at the commas outside quotes */
static GPtrArray *
flow_items (const char *inner)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_free);
  const char *start = inner;
  char q = 0;

  for (const char *c = inner;; c++)
    {
      if (q)
        {
          if (*c == '\0')
            break;
          if (q == '"' && *c == '\\' && c[1])
            c++;
          else if (*c == q)
            q = 0;
          continue;
        }
      if (*c == '"' || *c == '\'')
        q = *c;
      else if (*c == ',' || *c == '\0')
        {
          g_autofree char *item = g_strndup (start, (gsize) (c - start));
          g_strstrip (item);
          if (*item != '\0' || *c == ',')
            g_ptr_array_add (items, g_steal_pointer (&item));
          if (*c == '\0')
            break;
          start = c + 1;
        }
    }
  if (q)
    {
      g_ptr_array_unref (items);
      return NULL;
    }
  return items;
}

/* One scalar of a flow collection, plain or quoted (one line) */
static JsonNode *
flow_scalar (Parser     *p,
             const char *t,
             guint       line,
             GError    **error)
{
  if (*t == '"' || *t == '\'')
    {
      /* a quoted scalar on its line: parse it as one, on a scratch parser */
      Line l = { 0, g_strdup (t), line };
      g_autoptr (GArray) one = g_array_new (FALSE, FALSE, sizeof (Line));
      Parser sub = { p->name, one, 0, 0 };
      JsonNode *n;

      g_array_append_val (one, l);
      n = quoted_scalar (&sub, l.text, line, error);
      g_free (l.text);
      return n;
    }
  return plain_scalar (t);
}

/* A flow collection on one line: [a, "b"] or {k: v, "k2": "v2"}, of scalars */
static JsonNode *
flow (Parser     *p,
      const char *t,
      guint       line,
      GError    **error)
{
  g_autofree char *inner = NULL;
  g_autoptr (GPtrArray) items = NULL;
  g_autofree char *body = g_strdup (t);
  gsize len;
  gboolean map = t[0] == '{';
  JsonNode *node;

  strip_comment (body);
  len = strlen (body);
  if (len < 2 || body[len - 1] != (map ? '}' : ']'))
    {
      fail (p, error, line, _("a flow %s that spans lines; only one-line flow collections are read"),
            map ? "mapping" : "sequence");
      return NULL;
    }
  inner = g_strstrip (g_strndup (body + 1, len - 2));
  items = flow_items (inner);
  if (items == NULL)
    {
      fail (p, error, line, _("an unterminated quoted string in a flow collection"));
      return NULL;
    }
  for (guint i = 0; i < items->len; i++)
    {
      const char *it = g_ptr_array_index (items, i);
      if (*it == '\0' || *it == '[' || *it == '{')
        {
          fail (p, error, line, _("a nested or empty item in a flow collection; only flat one-line flow collections are read"));
          return NULL;
        }
    }
  if (map)
    {
      JsonObject *o = json_object_new ();

      for (guint i = 0; i < items->len; i++)
        {
          char *it = g_ptr_array_index (items, i);
          char *colon = NULL, *kend;
          g_autofree char *key = NULL;
          JsonNode *v;

          if (*it == '"' || *it == '\'')
            {
              char q = *it;
              for (kend = it + 1; *kend && *kend != q; kend++)
                if (q == '"' && *kend == '\\' && kend[1])
                  kend++;
              if (*kend == q)
                {
                  key = g_strndup (it + 1, (gsize) (kend - it - 1));
                  colon = kend + 1;
                  while (*colon == ' ')
                    colon++;
                  if (*colon != ':')
                    colon = NULL;
                }
            }
          else if ((colon = key_colon (it)) != NULL)
            key = g_strchomp (g_strndup (it, (gsize) (colon - it)));
          if (colon == NULL || key == NULL)
            {
              json_object_unref (o);
              fail (p, error, line, _("“%s” in a flow mapping; expected key: value"), it);
              return NULL;
            }
          v = flow_scalar (p, g_strstrip (colon + 1), line, error);
          if (v == NULL)
            {
              json_object_unref (o);
              return NULL;
            }
          json_object_set_member (o, key, v);
        }
      node = json_node_init_object (json_node_alloc (), o);
      json_object_unref (o);
    }
  else
    {
      JsonArray *a = json_array_new ();

      for (guint i = 0; i < items->len; i++)
        {
          JsonNode *v = flow_scalar (p, g_ptr_array_index (items, i), line, error);
          if (v == NULL)
            {
              json_array_unref (a);
              return NULL;
            }
          json_array_add_element (a, v);
        }
      node = json_node_init_array (json_node_alloc (), a);
      json_array_unref (a);
    }
  p->pos++;
  return node;
}

/* A scalar value @t on the current line, continued (plain, folded) on the lines more
 * indented than @parent_indent */
static JsonNode *
scalar_value (Parser     *p,
              char       *t,
              guint       parent_indent,
              GError    **error)
{
  guint line = cur (p)->line;

  if (*t == '"' || *t == '\'')
    return quoted_scalar (p, t, line, error);
  if (*t == '[' || *t == '{')
    return flow (p, t, line, error);
  if (*t == '&' || *t == '*' || *t == '!')
    {
      fail (p, error, line, _("anchors, aliases and tags are not read; expected a plain value"));
      return NULL;
    }
  if ((*t == '|' || *t == '>') && (t[1] == '\0' || t[1] == '-' || t[1] == '+' || g_ascii_isdigit (t[1])))
    {
      fail (p, error, line, _("block scalars (| and >) are not read; expected a plain value"));
      return NULL;
    }
  {
    g_autoptr (GString) s = g_string_new (t);

    strip_comment (s->str);
    g_string_set_size (s, strlen (s->str));
    p->pos++;
    while (cur (p) != NULL && cur (p)->indent > parent_indent && !is_seq_item (cur (p)->text)
           && key_colon (cur (p)->text) == NULL)
      {
        g_string_append_c (s, ' ');
        g_string_append (s, cur (p)->text);
        p->pos++;
      }
    return plain_scalar (s->str);
  }
}

static JsonNode *
parse_sequence (Parser  *p,
                guint    indent,
                GError **error)
{
  JsonArray *a = json_array_new ();
  JsonNode *node;

  while (cur (p) != NULL && cur (p)->indent == indent && is_seq_item (cur (p)->text))
    {
      Line *l = cur (p);
      char *rest = l->text + 1;
      JsonNode *item;

      while (*rest == ' ')
        rest++;
      if (*rest == '\0')
        {
          p->pos++;
          if (cur (p) != NULL && cur (p)->indent > indent)
            item = parse_node (p, cur (p)->indent, error);
          else
            item = json_node_new (JSON_NODE_NULL);
        }
      else
        {
          /* "- key: value" or "- - x": the rest of the line is a node at its column */
          guint col = indent + (guint) (rest - l->text);
          memmove (l->text, rest, strlen (rest) + 1);
          l->indent = col;
          item = parse_node (p, col, error);
        }
      if (item == NULL)
        {
          json_array_unref (a);
          return NULL;
        }
      json_array_add_element (a, item);
    }
  node = json_node_init_array (json_node_alloc (), a);
  json_array_unref (a);
  return node;
}

static JsonNode *
parse_mapping (Parser  *p,
               guint    indent,
               GError **error)
{
  JsonObject *o = json_object_new ();
  JsonNode *node;

  while (cur (p) != NULL && cur (p)->indent == indent && !is_seq_item (cur (p)->text))
    {
      Line *l = cur (p);
      char *colon = key_colon (l->text);
      g_autofree char *key = NULL;
      char *value;
      JsonNode *v;

      if (colon == NULL)
        {
          json_object_unref (o);
          fail (p, error, l->line, _("expected “key: value” at this indentation"));
          return NULL;
        }
      key = g_strndup (l->text, (gsize) (colon - l->text));
      g_strchomp (key);
      if ((key[0] == '"' || key[0] == '\'') && strlen (key) >= 2)
        {
          memmove (key, key + 1, strlen (key));
          key[strlen (key) - 1] = '\0';
        }
      if (key[0] == '?' || key[0] == '&' || key[0] == '*' || key[0] == '!')
        {
          json_object_unref (o);
          fail (p, error, l->line, _("complex keys, anchors, aliases and tags are not read"));
          return NULL;
        }
      value = colon + 1;
      while (*value == ' ')
        value++;
      if (*value == '#')
        *value = '\0';
      if (*value == '\0')
        {
          p->pos++;
          if (cur (p) != NULL && cur (p)->indent > indent)
            v = parse_node (p, cur (p)->indent, error);
          else if (cur (p) != NULL && cur (p)->indent == indent && is_seq_item (cur (p)->text))
            v = parse_sequence (p, indent, error);
          else
            v = json_node_new (JSON_NODE_NULL);
        }
      else
        v = scalar_value (p, value, indent, error);
      if (v == NULL)
        {
          json_object_unref (o);
          return NULL;
        }
      if (json_object_has_member (o, key))
        {
          json_node_unref (v);
          json_object_unref (o);
          fail (p, error, l->line, _("the key “%s” appears twice in the same mapping"), key);
          return NULL;
        }
      json_object_set_member (o, key, v);
    }
  node = json_node_init_object (json_node_alloc (), o);
  json_object_unref (o);
  return node;
}

static JsonNode *
parse_node (Parser  *p,
            guint    indent,
            GError **error)
{
  Line *l = cur (p);
  JsonNode *n;

  if (l == NULL)
    return json_node_new (JSON_NODE_NULL);
  if (++p->depth > MAX_DEPTH)
    {
      fail (p, error, l->line, _("nesting deeper than %d levels; refused"), MAX_DEPTH);
      return NULL;
    }
  if (is_seq_item (l->text))
    n = parse_sequence (p, indent, error);
  else if (key_colon (l->text) != NULL && l->text[0] != '[' && l->text[0] != '{')
    n = parse_mapping (p, indent, error);
  else
    n = scalar_value (p, l->text, indent > 0 ? indent - 1 : 0, error);
  p->depth--;
  return n;
}

static void
clear_line (Line *l)
{
  g_free (l->text);
}

JsonNode *
procura_yaml_parse (const char  *name,
                    const char  *data,
                    gsize        len,
                    GError     **error)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) raw = NULL;
  Parser p = { name, NULL, 0, 0 };
  JsonNode *root = NULL;
  gboolean started = FALSE;

  if (memchr (data, '\0', len) != NULL || !g_utf8_validate_len (data, len, NULL))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                   _("%s: not UTF-8 text; expected YAML"), name);
      return NULL;
    }
  text = g_strndup (data, len);
  raw = procura_import_split_lines (text);
  p.lines = g_array_new (FALSE, FALSE, sizeof (Line));
  g_array_set_clear_func (p.lines, (GDestroyNotify) clear_line);
  for (guint i = 0; raw[i] != NULL; i++)
    {
      char *s = raw[i];
      guint indent = 0;
      Line l;

      g_strchomp (s);
      while (s[indent] == ' ')
        indent++;
      if (s[indent] == '\t')
        {
          fail (&p, error, i + 1, _("a tab in the indentation; YAML indents with spaces"));
          goto out;
        }
      if (s[indent] == '\0' || s[indent] == '#')
        continue;
      if (indent == 0 && (g_str_equal (s, "---") || g_str_has_prefix (s, "--- ") || g_str_equal (s, "...")))
        {
          if (started || s[0] == '.')
            {
              if (s[0] == '.')
                continue;
              fail (&p, error, i + 1, _("a second YAML document; expected one"));
              goto out;
            }
          started = TRUE;
          continue;
        }
      started = TRUE;
      l.indent = indent;
      l.text = g_strdup (s + indent);
      l.line = i + 1;
      g_array_append_val (p.lines, l);
    }
  if (p.lines->len == 0)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                   _("%s: the YAML document is empty"), name);
      goto out;
    }
  root = parse_node (&p, g_array_index (p.lines, Line, 0).indent, error);
  if (root != NULL && p.pos < p.lines->len)
    {
      fail (&p, error, cur (&p)->line, _("unexpected indentation; expected the end of the document "
                                         "or a line at the indentation of its parent"));
      g_clear_pointer (&root, json_node_unref);
    }

out:
  g_array_unref (p.lines);
  return root;
}
