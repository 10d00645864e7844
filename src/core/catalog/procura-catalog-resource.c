/* procura-catalog-resource.c: the bundled catalogs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "procura-catalog-private.h"
#include "procura-catalog-resources.h"

#define CATALOG_PREFIX "/io/github/procura/Procura/catalog/"

static gpointer
register_resource (gpointer data)
{
  procura_catalog_register_resource ();
  return NULL;
}

JsonParser *
procura_catalog_load_json (const char *name)
{
  static GOnce once = G_ONCE_INIT;
  g_autofree char *path = g_strconcat (CATALOG_PREFIX, name, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  JsonParser *parser;
  gsize len = 0;
  const char *data;

  g_once (&once, register_resource, NULL);
  bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  parser = json_parser_new ();
  if (bytes == NULL)
    {
      g_critical ("Bundled catalog %s is missing: %s", name, error->message);
      return parser;
    }
  data = g_bytes_get_data (bytes, &len);
  if (!json_parser_load_from_data (parser, data, (gssize) len, &error))
    g_critical ("Bundled catalog %s is malformed: %s", name, error->message);
  return parser;
}

static gboolean
in_list (const char         *word,
         const char * const *list)
{
  for (gsize i = 0; list != NULL && list[i] != NULL; i++)
    if (g_str_equal (word, list[i]))
      return TRUE;
  return FALSE;
}

char **
procura_catalog_tokenize (const char         *text,
                          const char * const *noise)
{
  GPtrArray *out = g_ptr_array_new ();
  g_autofree char *lower = NULL;
  const char *p;

  if (text == NULL)
    {
      g_ptr_array_add (out, NULL);
      return (char **) g_ptr_array_free (out, FALSE);
    }
  lower = g_ascii_strdown (text, -1);
  p = lower;
  while (*p != '\0')
    {
      const char *start;
      g_autofree char *word = NULL;

      while (*p != '\0' && !g_ascii_isalnum (*p))
        p++;
      if (*p == '\0')
        break;
      start = p;
      while (g_ascii_isalnum (*p))
        p++;
      word = g_strndup (start, (gsize) (p - start));
      if (in_list (word, noise))
        continue;
      /* split letters from digits */
      for (const char *q = word; *q != '\0';)
        {
          const char *s = q;
          gboolean digit = g_ascii_isdigit (*q);

          while (*q != '\0' && (g_ascii_isdigit (*q) != 0) == digit)
            q++;
          g_ptr_array_add (out, g_strndup (s, (gsize) (q - s)));
        }
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}
