/* procura-json-bulk.cc: the simdjson (on-demand) half of the bulk reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The only C++ in Procura, built as a module of its own (procura-simdjson.so) that
 * procura-json-bulk.c loads the first time a document needs it: no command pays for
 * loading simdjson and libstdc++ at start (bench/import). It calls nothing of
 * Procura's: the caller hands it the document to fill. No exceptions escape: every
 * simdjson call is checked through its error code, and any error makes the whole
 * parse fail.
 */
#include "config.h"

#include <cmath>
#include <cstring>
#include <string>

#include <simdjson.h>

#include "procura-json-bulk.h"

#include "procura-json-bulk-module.h"

using namespace simdjson;

namespace {

/* A growable buffer on g_realloc: big blocks grow in place (mremap) and are handed
 * over without a copy, so a 25 M-sample array never exists twice. */
template <typename T>
struct Buffer {
  T     *data = nullptr;
  gsize  size = 0;
  gsize  cap = 0;
  ~Buffer () { g_free (data); }
  void push_back (T v)
  {
    if (size == cap)
      {
        cap = cap ? cap * 2 : 256;
        data = static_cast<T *> (g_realloc_n (data, cap, sizeof (T)));
      }
    data[size++] = v;
  }
  T *steal ()
  {
    T *d = data;
    if (d == nullptr)
      d = static_cast<T *> (g_malloc (sizeof (T)));
    data = nullptr;
    size = cap = 0;
    return d;
  }
};

struct Builder {
  Buffer<double> values;
  Buffer<double> row_sum;
  Buffer<guint32> row_len;
  bool nested = false;
  bool strings = false;
  bool numbers = false;
};

bool
read_number (ondemand::value &v, double &out)
{
  /* the common case first: a number, parsed in one go */
  if (v.get_double ().get (out) == SUCCESS)
    return true;
  bool null = false;
  if (v.is_null ().get (null) == SUCCESS && null)
    {
      out = NAN;
      return true;
    }
  return false;
}

/* An array of numbers, of strings, or of lists of numbers. FALSE on anything else. */
bool
read_array (ondemand::array &arr, Builder &b)
{
  for (auto el_result : arr)
    {
      ondemand::value el;
      ondemand::json_type t;

      if (std::move (el_result).get (el) || el.type ().get (t))
        return false;
      switch (t)
        {
        case ondemand::json_type::number:
        case ondemand::json_type::null:
          {
            double d;
            if (b.nested || b.strings || !read_number (el, d))
              return false;
            b.numbers = true;
            b.values.push_back (d);
            break;
          }
        case ondemand::json_type::string:
          {
            std::string_view sv;
            if (b.nested || b.numbers || el.get_string ().get (sv))
              return false;
            b.strings = true;
            b.values.push_back (sv.empty () ? 0.0 : 1.0);
            break;
          }
        case ondemand::json_type::array:
          {
            ondemand::array inner;
            double sum = 0;
            guint32 count = 0;

            if (b.numbers || b.strings || el.get_array ().get (inner))
              return false;
            b.nested = true;
            for (auto x_result : inner)
              {
                double d;
                /* the common case in one call: a number */
                if (x_result.get_double ().get (d) != SUCCESS)
                  {
                    ondemand::value x;
                    if (std::move (x_result).get (x) || !read_number (x, d))
                      return false;
                  }
                b.values.push_back (d);
                sum += d;
                count++;
              }
            b.row_sum.push_back (sum);
            b.row_len.push_back (count);
            break;
          }
        default:
          return false;
        }
    }
  return true;
}

bool
in_list (const char * const *list, std::string_view key)
{
  for (; list != nullptr && *list != nullptr; list++)
    if (key == *list)
      return true;
  return false;
}

/* Any other value, as a json-glib node (bounded depth). */
JsonNode *
to_node (ondemand::value v, int depth)
{
  ondemand::json_type t;

  if (depth > 64 || v.type ().get (t))
    return nullptr;
  switch (t)
    {
    case ondemand::json_type::number:
      {
        ondemand::number_type nt;
        if (v.get_number_type ().get (nt))
          return nullptr;
        if (nt == ondemand::number_type::signed_integer)
          {
            int64_t i;
            if (v.get_int64 ().get (i))
              return nullptr;
            return json_node_init_int (json_node_alloc (), i);
          }
        double d;
        if (v.get_double ().get (d))
          return nullptr;
        return json_node_init_double (json_node_alloc (), d);
      }
    case ondemand::json_type::string:
      {
        std::string_view sv;
        if (v.get_string ().get (sv))
          return nullptr;
        std::string s (sv);
        if (std::memchr (s.data (), 0, s.size ()) != nullptr)
          return nullptr;
        return json_node_init_string (json_node_alloc (), s.c_str ());
      }
    case ondemand::json_type::boolean:
      {
        bool b;
        if (v.get_bool ().get (b))
          return nullptr;
        return json_node_init_boolean (json_node_alloc (), b);
      }
    case ondemand::json_type::null:
      if (v.is_null ().error ())
        return nullptr;
      return json_node_init_null (json_node_alloc ());
    case ondemand::json_type::object:
      {
        ondemand::object o;
        JsonObject *jo;
        if (v.get_object ().get (o))
          return nullptr;
        jo = json_object_new ();
        for (auto f_result : o)
          {
            ondemand::field f;
            std::string_view k;
            JsonNode *child;
            if (std::move (f_result).get (f) || f.unescaped_key ().get (k)
                || (child = to_node (f.value (), depth + 1)) == nullptr)
              {
                json_object_unref (jo);
                return nullptr;
              }
            json_object_set_member (jo, std::string (k).c_str (), child);
          }
        JsonNode *n = json_node_init_object (json_node_alloc (), jo);
        json_object_unref (jo);
        return n;
      }
    case ondemand::json_type::array:
      {
        ondemand::array a;
        JsonArray *ja;
        if (v.get_array ().get (a))
          return nullptr;
        ja = json_array_new ();
        for (auto e_result : a)
          {
            ondemand::value e;
            JsonNode *child;
            if (std::move (e_result).get (e) || (child = to_node (e, depth + 1)) == nullptr)
              {
                json_array_unref (ja);
                return nullptr;
              }
            json_array_add_element (ja, child);
          }
        JsonNode *n = json_node_init_array (json_node_alloc (), ja);
        json_array_unref (ja);
        return n;
      }
    }
  return nullptr;
}

bool
parse_into (ondemand::document &doc, ProcuraBulkDoc *out, const char * const *skip)
{
  ondemand::object obj;

  if (doc.get_object ().get (obj))
    return false;
  for (auto field_result : obj)
    {
      ondemand::field field;
      std::string_view key_view;
      ondemand::value v;
      ondemand::json_type t;

      if (std::move (field_result).get (field) || field.unescaped_key ().get (key_view))
        return false;
      std::string key (key_view);
      v = field.value ();
      if (v.type ().get (t))
        return false;
      switch (t)
        {
        case ondemand::json_type::number:
          {
            ondemand::number_type nt;
            if (v.get_number_type ().get (nt))
              return false;
            if (nt == ondemand::number_type::signed_integer)
              {
                int64_t i;
                if (v.get_int64 ().get (i))
                  return false;
                json_object_set_int_member (out->members, key.c_str (), i);
              }
            else
              {
                double d;
                if (v.get_double ().get (d))
                  return false;
                json_object_set_double_member (out->members, key.c_str (), d);
              }
            break;
          }
        case ondemand::json_type::string:
          {
            std::string_view sv;
            if (v.get_string ().get (sv))
              return false;
            std::string s (sv);
            if (std::memchr (s.data (), 0, s.size ()) != nullptr)
              return false;
            json_object_set_string_member (out->members, key.c_str (), s.c_str ());
            break;
          }
        case ondemand::json_type::boolean:
          {
            bool bv;
            if (v.get_bool ().get (bv))
              return false;
            json_object_set_boolean_member (out->members, key.c_str (), bv);
            break;
          }
        case ondemand::json_type::null:
          if (v.is_null ().error ())
            return false;
          json_object_set_null_member (out->members, key.c_str ());
          break;
        case ondemand::json_type::object:
          {
            JsonNode *node = to_node (v, 1);
            if (node == nullptr)
              return false;
            json_object_set_member (out->members, key.c_str (), node);
            break;
          }
        case ondemand::json_type::array:
          {
            ondemand::array arr;
            Builder b;

            if (in_list (skip, key))
              {
                /* left alone: on-demand skips it when the loop moves on */
                break;
              }
            if (v.get_array ().get (arr) || !read_array (arr, b))
              return false;
            ProcuraBulkArray *a = g_new0 (ProcuraBulkArray, 1);
            a->name = g_strdup (key.c_str ());
            a->n = b.values.size;
            a->values = b.values.steal ();
            a->nested = b.nested;
            a->strings = b.strings;
            if (b.nested)
              {
                a->rows = b.row_sum.size;
                a->row_sum = b.row_sum.steal ();
                a->row_len = b.row_len.steal ();
              }
            g_ptr_array_add (out->arrays, a);
            break;
          }
        }
    }
  /* nothing may follow the object */
  const char *rest;
  return doc.current_location ().get (rest) != SUCCESS;
}

} /* namespace */

const char *
procura_json_bulk_module_version (void)
{
  return PROCURA_JSON_BULK_MODULE_VERSION;
}

gboolean
procura_json_bulk_module_parse (const char        *data,
                                gsize              len,
                                gsize              capacity,
                                const char * const *skip,
                                ProcuraBulkDoc    *out)
{
  ondemand::parser parser;
  ondemand::document doc;
  padded_string copy;

  if (capacity >= len + SIMDJSON_PADDING)
    {
      if (parser.iterate (data, len, capacity).get (doc))
        return FALSE;
    }
  else
    {
      copy = padded_string (data, len);
      if (parser.iterate (copy).get (doc))
        return FALSE;
    }
  return parse_into (doc, out, skip) ? TRUE : FALSE;
}
