/* procura-json-bulk.c: the plain-C half of the bulk reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <gmodule.h>

#include "procura-json-bulk.h"
#include "procura-json-bulk-module.h"

static __thread const char *padded_data;
static __thread gsize padded_capacity;

#if HAVE_SIMDJSON
static ProcuraJsonBulkModuleParse module_parse_func;

/* The module of this build: the one in the build tree for a program run from there (the
 * tests, `build/src/procura`), the installed one otherwise. */
static char *
module_path (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  char build[PATH_MAX];

  if (self != NULL && realpath (BUILDDIR, build) != NULL
      && g_str_has_prefix (self, build) && self[strlen (build)] == G_DIR_SEPARATOR)
    return g_strdup (SIMDJSON_MODULE_BUILD_PATH);
  return g_build_filename (PKGLIBDIR, SIMDJSON_MODULE_NAME, NULL);
}

static gpointer
load_module (gpointer unused)
{
  g_autofree char *path = module_path ();
  GModule *module = g_module_open (path, G_MODULE_BIND_LOCAL);
  ProcuraJsonBulkModuleVersion version = NULL;
  ProcuraJsonBulkModuleParse parse = NULL;

  if (module == NULL)
    {
      g_debug ("no simdjson module: %s", g_module_error ());
      return NULL;
    }
  if (!g_module_symbol (module, "procura_json_bulk_module_version", (gpointer *) &version)
      || !g_module_symbol (module, "procura_json_bulk_module_parse", (gpointer *) &parse)
      || g_strcmp0 (version (), PROCURA_JSON_BULK_MODULE_VERSION) != 0)
    {
      g_debug ("%s: not the simdjson module of Procura " PROCURA_JSON_BULK_MODULE_VERSION, path);
      g_module_close (module);
      return NULL;
    }
  /* kept for the life of the process: the arrays it fills outlive any one call */
  g_module_make_resident (module);
  module_parse_func = parse;
  return GINT_TO_POINTER (1);
}

/* The module's parser, loaded on the first call (from any thread); NULL where it is
 * missing or from another build. */
static ProcuraJsonBulkModuleParse
module_parse (void)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, load_module, NULL);
  return module_parse_func;
}
#endif

gboolean
procura_json_bulk_available (void)
{
#if HAVE_SIMDJSON
  return module_parse () != NULL;
#else
  return FALSE;
#endif
}

void
procura_json_bulk_set_padding (const char *data,
                               gsize       capacity)
{
  padded_data = data;
  padded_capacity = capacity;
}

ProcuraBulkDoc *
procura_json_bulk_parse (const char        *data,
                         gsize              len,
                         const char * const *skip)
{
#if HAVE_SIMDJSON
  gsize capacity = (data == padded_data && padded_capacity >= len + PROCURA_JSON_BULK_PADDING)
                   ? padded_capacity : 0;
  ProcuraJsonBulkModuleParse parse = module_parse ();
  ProcuraBulkDoc *doc;

  if (parse == NULL)
    return NULL;
  doc = procura_json_bulk_doc_new ();
  if (!parse (data, len, capacity, skip, doc))
    {
      procura_json_bulk_doc_free (doc);
      return NULL;
    }
  return doc;
#else
  return NULL;
#endif
}

ProcuraBulkArray *
procura_json_bulk_get (ProcuraBulkDoc *doc,
                       const char     *name)
{
  for (guint i = 0; i < doc->arrays->len; i++)
    {
      ProcuraBulkArray *a = g_ptr_array_index (doc->arrays, i);
      if (g_str_equal (a->name, name))
        return a;
    }
  return NULL;
}

double *
procura_json_bulk_steal_values (ProcuraBulkArray *array)
{
  double *v = array->values;

  array->values = NULL;
  array->n = 0;
  return v;
}

static void
array_free (ProcuraBulkArray *a)
{
  g_free (a->name);
  g_free (a->values);
  g_free (a->row_sum);
  g_free (a->row_len);
  g_free (a);
}

ProcuraBulkDoc *
procura_json_bulk_doc_new (void)
{
  ProcuraBulkDoc *doc = g_new0 (ProcuraBulkDoc, 1);

  doc->members = json_object_new ();
  doc->arrays = g_ptr_array_new_with_free_func ((GDestroyNotify) array_free);
  return doc;
}

void
procura_json_bulk_doc_free (ProcuraBulkDoc *doc)
{
  if (doc == NULL)
    return;
  json_object_unref (doc->members);
  g_ptr_array_unref (doc->arrays);
  g_free (doc);
}
