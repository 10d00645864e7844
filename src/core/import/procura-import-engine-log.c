/* procura-import-engine-log.c: vLLM server startup logs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads the lines an analyst checks by hand: the version, the engine config
 * (model, tensor/pipeline parallel size, max_seq_len, kv_cache_dtype), the
 * non-default args (gpu_memory_utilization, max_model_len, block_size), "Model loading
 * took X GiB", "Available KV cache memory: X GiB", "GPU KV cache size: N tokens",
 * "Maximum concurrency for M tokens per request: K x", "Graph capturing finished in
 * N secs, took X GiB" and errors such as "No available memory for the cache blocks".
 * With TP > 1 every worker prints its own lines: the first (per GPU) is kept.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-import-private.h"
#include "procura-pyliteral.h"

/* Number after @key in @line, commas allowed ("476,016"); NAN when absent. */
static double
number_after (const char *line,
              const char *key)
{
  const char *p = strstr (line, key);
  char buf[64];
  gsize n = 0;

  if (p == NULL)
    return NAN;
  p += strlen (key);
  while (*p == ' ')
    p++;
  while (n < sizeof buf - 1 && (g_ascii_isdigit (*p) || *p == '.' || *p == ',' || (n == 0 && *p == '-')))
    {
      if (*p != ',')
        buf[n++] = *p;
      p++;
    }
  buf[n] = '\0';
  if (n == 0)
    return NAN;
  return g_ascii_strtod (buf, NULL);
}

/* key=value (value up to ',' or ')'), quotes removed; NULL when absent */
static char *
config_value (const char *line,
              const char *key)
{
  g_autofree char *pat = g_strdup_printf (" %s=", key);
  const char *p = strstr (line, pat);
  const char *end;

  if (p == NULL)
    return NULL;
  p += strlen (pat);
  if (*p == '\'' || *p == '"')
    {
      char q = *p++;
      end = strchr (p, q);
    }
  else
    end = p + strcspn (p, ",)");
  if (end == NULL)
    return NULL;
  return g_strndup (p, (gsize) (end - p));
}

static void
strip_ansi (char *s)
{
  char *w = s;

  for (char *r = s; *r; r++)
    {
      if (*r == '\033' && r[1] == '[')
        {
          r += 2;
          while (*r && !g_ascii_isalpha (*r))
            r++;
          if (*r == '\0')
            break;
          continue;
        }
      *w++ = *r;
    }
  *w = '\0';
}

static int
to_int (const char *s)
{
  char *end = NULL;
  gint64 v;

  if (s == NULL)
    return -1;
  v = g_ascii_strtoll (s, &end, 10);
  return (end != s && *end == '\0' && v > 0 && v < 1000000) ? (int) v : -1;
}

static void
from_args (ProcuraEngineLog *l,
           const char       *dict)
{
  g_autoptr (JsonNode) node = procura_pyliteral_parse (dict, -1, NULL);
  JsonObject *o;
  JsonNode *n;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;
  o = json_node_get_object (node);
#define NUM(key) ((n = json_object_get_member (o, key)) && JSON_NODE_HOLDS_VALUE (n) \
                  && json_node_get_value_type (n) != G_TYPE_STRING && json_node_get_value_type (n) != G_TYPE_BOOLEAN)
  if (NUM ("gpu_memory_utilization"))
    l->gpu_memory_utilization = json_node_get_double (n);
  if (NUM ("max_model_len") && json_node_get_double (n) > 0)
    l->max_model_len = (gint64) json_node_get_double (n);
  if (NUM ("block_size") && json_node_get_double (n) > 0 && json_node_get_double (n) < 1e6)
    l->block_size = (int) json_node_get_double (n);
  if (NUM ("tensor_parallel_size") && l->tp < 0 && json_node_get_double (n) >= 1 && json_node_get_double (n) < 1e6)
    l->tp = (int) json_node_get_double (n);
  if (NUM ("pipeline_parallel_size") && l->pp < 0 && json_node_get_double (n) >= 1 && json_node_get_double (n) < 1e6)
    l->pp = (int) json_node_get_double (n);
#undef NUM
  n = json_object_get_member (o, "model");
  if (l->model == NULL && n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
    l->model = g_strdup (json_node_get_string (n));
  n = json_object_get_member (o, "kv_cache_dtype");
  if (l->kv_dtype == NULL && n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
    l->kv_dtype = g_strdup (json_node_get_string (n));
}

static void
add_error (ProcuraEngineLog *l,
           const char       *msg)
{
  for (guint i = 0; i < l->errors->len; i++)
    if (g_str_equal (g_ptr_array_index (l->errors, i), msg))
      return;
  if (l->errors->len < 50)
    g_ptr_array_add (l->errors, g_strndup (msg, 400));
}

/* The lines that open a start of the server: a second one of the same kind in a
 * segment means the server was started again (a restart after a failure, as
 * Kubernetes restarts a container into the same log) */
enum {
  START_VERSION = 1 << 0,   /* "vLLM API server version X" */
  START_ARGS    = 1 << 1,   /* "non-default args: {...}" */
};

static guint
start_marker (const char *line)
{
  if (strstr (line, "vLLM API server version "))
    return START_VERSION;
  if (strstr (line, "non-default args: "))
    return START_ARGS;
  return 0;
}

/* Reads lines [@from, @to) as one start of the server; @any says whether a startup
 * line was found */
static ProcuraEngineLog *
read_start (char     **lines,
            gsize      from,
            gsize      to,
            gboolean  *any_out)
{
  g_autoptr (ProcuraEngineLog) l = procura_engine_log_new ();
  gboolean any = FALSE, in_validation = FALSE;
  double v;

  l->engine = g_strdup ("vllm");
  for (gsize i = from; i < to; i++)
    {
      char *line = lines[i];
      const char *s;

      if (l->engine_version == NULL && (s = strstr (line, "vLLM API server version ")) != NULL)
        {
          l->engine_version = g_strstrip (g_strdup (s + 24));
          any = TRUE;
        }
      else if (l->engine_version == NULL && (s = strstr (line, "LLM engine (v")) != NULL)
        {
          const char *e = strchr (s + 13, ')');
          if (e)
            l->engine_version = g_strndup (s + 13, (gsize) (e - s - 13));
        }
      else if (l->engine_version == NULL && strstr (line, "api_utils.py") && (s = strstr (line, " version ")) != NULL)
        l->engine_version = g_strstrip (g_strdup (s + 9));

      if (strstr (line, "with config:"))
        {
          g_autofree char *model = config_value (line, "model");
          g_autofree char *tp = config_value (line, "tensor_parallel_size");
          g_autofree char *pp = config_value (line, "pipeline_parallel_size");
          g_autofree char *msl = config_value (line, "max_seq_len");
          g_autofree char *kvd = config_value (line, "kv_cache_dtype");

          if (l->model == NULL && model)
            l->model = g_strdup (model);
          if (l->tp < 0)
            l->tp = to_int (tp);
          if (l->pp < 0)
            l->pp = to_int (pp);
          if (l->max_model_len < 0 && to_int (msl) > 0)
            l->max_model_len = to_int (msl);
          if (l->kv_dtype == NULL && kvd)
            l->kv_dtype = g_strdup (kvd);
          any = TRUE;
        }
      else if ((s = strstr (line, "non-default args: ")) != NULL)
        {
          /* the dict may be wrapped over the next lines */
          g_autoptr (GString) dict = g_string_new (s + 18);
          for (gsize k = 1; k <= 20 && strchr (dict->str, '}') == NULL && i + k < to; k++)
            g_string_append (dict, lines[i + k]);
          from_args (l, dict->str);
          any = TRUE;
        }
      else if (strstr (line, "Model loading took ") && isnan (l->weights_gib))
        {
          v = number_after (line, "Model loading took ");
          if (!isnan (v))
            {
              l->weights_gib = v;
              any = TRUE;
            }
        }
      else if (strstr (line, "Available KV cache memory:") && isnan (l->kv_available_gib))
        {
          l->kv_available_gib = number_after (line, "Available KV cache memory:");
          any = TRUE;
        }
      else if (strstr (line, "GPU KV cache size:") && l->kv_tokens < 0)
        {
          v = number_after (line, "GPU KV cache size:");
          if (v >= 0 && v < 1e15)
            l->kv_tokens = (gint64) v;
          any = TRUE;
        }
      else if (strstr (line, "Maximum concurrency for ") && isnan (l->max_concurrency))
        {
          l->max_concurrency = number_after (line, "tokens per request:");
          any = TRUE;
        }
      else if (strstr (line, "Graph capturing finished") && isnan (l->cuda_graph_gib))
        {
          l->cuda_graph_gib = number_after (line, ", took ");
          any = TRUE;
        }

      /* Argument validation (pydantic): "ValidationError: 1 validation error for
       * ModelConfig", then "  Value error, <message> [type=value_error, ...]" */
      if (strstr (line, "ValidationError: ") && strstr (line, "validation error"))
        {
          in_validation = TRUE;
          continue;
        }
      if (in_validation && (s = strstr (line, "Value error, ")) != NULL)
        {
          g_autofree char *msg = g_strdup (s + 13);
          char *cut = strstr (msg, " [type=");
          if (cut)
            *cut = '\0';
          add_error (l, g_strstrip (msg));
          in_validation = FALSE;
          continue;
        }
      if ((s = strstr (line, "No available memory for the cache blocks")) != NULL)
        add_error (l, "No available memory for the cache blocks");
      else if ((s = strstr (line, "CUDA out of memory")) != NULL)
        add_error (l, s);
      else if ((s = strstr (line, "larger than the maximum number of tokens that can be stored in KV cache")) != NULL
               || (s = strstr (line, "ValueError: ")) != NULL || (s = strstr (line, "RuntimeError: ")) != NULL)
        add_error (l, g_strstrip (line + (strstr (line, "Error: ") ? (gsize) (strstr (line, "Error: ") - line) + 7 : 0)));
    }
  *any_out = any;
  return g_steal_pointer (&l);
}

static gboolean
parse_vllm_log (const char          *name,
                const char          *data,
                gsize                len,
                ProcuraImportResult *result,
                GCancellable        *cancellable,
                GError             **error)
{
  g_autoptr (GPtrArray) starts = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_engine_log_free);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  gsize n_lines, from = 0;
  guint seen = 0;

  if (memchr (data, '\0', len) != NULL)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                   _("%s: binary data (a NUL byte); expected a vLLM server log (text)"), name);
      return FALSE;
    }
  text = g_utf8_make_valid (data, (gssize) len);
  lines = procura_import_split_lines (text);
  n_lines = g_strv_length (lines);
  for (gsize i = 0; i <= n_lines; i++)
    {
      guint marker = 0;

      if (i < n_lines)
        {
          strip_ansi (lines[i]);
          marker = start_marker (lines[i]);
        }

      /* a marker already seen in this start opens the next one */
      if (i == n_lines || (marker & seen) != 0)
        {
          gboolean any = FALSE;
          ProcuraEngineLog *l = read_start (lines, from, i, &any);

          if (any || l->errors->len > 0)
            g_ptr_array_add (starts, l);
          else
            procura_engine_log_free (l);
          from = i;
          seen = 0;
        }
      seen |= marker;
    }
  if (starts->len == 0)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: no vLLM startup line found (engine config, “Model loading took”, “GPU KV cache size”); "
                     "expected a vLLM server log"), name);
      return FALSE;
    }
  result->format_version = g_strdup ("log");
  for (guint k = 0; k < starts->len; k++)
    {
      ProcuraEngineLog *l = g_ptr_array_index (starts, k);

      for (guint i = 0; i < l->errors->len; i++)
        {
          if (starts->len > 1)
            g_ptr_array_add (result->warnings,
                             g_strdup_printf (_("start %u of %u: the engine failed to start: %s"), k + 1, starts->len,
                                              (const char *) g_ptr_array_index (l->errors, i)));
          else
            g_ptr_array_add (result->warnings, g_strdup_printf (_("the engine failed to start: %s"),
                                                                (const char *) g_ptr_array_index (l->errors, i)));
        }
      g_ptr_array_add (result->engine_logs, l);
    }
  g_ptr_array_set_free_func (starts, NULL);
  if (result->engine_logs->len > 1)
    g_ptr_array_add (result->warnings,
                     g_strdup_printf (_("%s: the log holds %u starts of the server, each read as its own engine log, in order"),
                                      name, result->engine_logs->len));
  return TRUE;
}

static int
sniff_vllm_log (const char *data,
                gsize       len)
{
  if (procura_sniff_has (data, len, "vLLM API server version") || procura_sniff_has (data, len, "LLM engine (v")
      || procura_sniff_has (data, len, "Available KV cache memory:") || procura_sniff_has (data, len, "vllm.entrypoints"))
    return 85;
  /* a start that fails in argument validation prints only its arguments and a traceback */
  if (procura_sniff_has (data, len, "non-default args: {'model_tag'")
      || procura_sniff_has (data, len, "/vllm/engine/arg_utils.py") || procura_sniff_has (data, len, "/vllm/entrypoints/"))
    return 80;
  return 0;
}

const ProcuraImporter procura_importer_vllm_log = {
  "vllm-log",
  "vLLM server startup log",
  sniff_vllm_log,
  parse_vllm_log,
};
