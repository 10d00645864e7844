/* procura-import-guidellm.c: guidellm benchmarks.json, three schema generations
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Generations: pre-metadata (v0.2/0.3: {benchmarks}, benchmark.args.strategy,
 * benchmark.request_totals, percentiles without p50), metadata.version 1 (0.5.x:
 * {metadata, args, benchmarks}, benchmark.config.strategy, metrics.request_totals) and
 * metadata.version 2 (0.8: {metadata, config, benchmarks}). Every benchmark of a sweep
 * becomes one run. Metrics: time_to_first_token_ms -> ttft, inter_token_latency_ms
 * (first token excluded) -> tpot, time_per_output_token_ms (includes the first token)
 * -> tpot_incl_first, request_latency (SECONDS) -> e2e.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-csv.h"
#include "procura-import-private.h"
#include "procura-yaml.h"

static const struct {
  const char *key;
  const char *metric;
  double      factor;
} metric_map[] = {
  { "time_to_first_token_ms", "ttft", 1.0 },
  { "inter_token_latency_ms", "tpot", 1.0 },
  { "time_per_output_token_ms", "tpot_incl_first", 1.0 },
  { "request_latency", "e2e", 1000.0 },
};

/* guidellm percentile keys: p001 = 0.1 %, p01 = 1 %, p05 = 5 %, p10 ... p99, p999 = 99.9 % */
static char *
pct_key_to_stat (const char *key)
{
  if (g_str_equal (key, "p001"))
    return g_strdup ("p0.1");
  if (g_str_equal (key, "p999"))
    return g_strdup ("p99.9");
  if (strlen (key) == 3 && key[0] == 'p' && g_ascii_isdigit (key[1]) && g_ascii_isdigit (key[2]))
    return g_strdup_printf ("p%d", (key[1] - '0') * 10 + (key[2] - '0'));
  return NULL;
}

static gboolean
read_distribution (const char *name,
                   JsonObject *metrics,
                   const char *mpath,
                   const char *key,
                   JsonObject **successful,
                   GError    **error)
{
  JsonObject *m = NULL;
  g_autofree char *p = g_strdup_printf ("%s.%s", mpath, key);

  *successful = NULL;
  if (!procura_json_object (name, metrics, mpath, key, &m, error))
    return FALSE;
  if (m == NULL)
    return TRUE;
  return procura_json_object (name, m, p, "successful", successful, error);
}

static gboolean
add_distribution (const char *name,
                  ProcuraRun *run,
                  JsonObject *d,
                  const char *path,
                  const char *metric,
                  double      factor,
                  GError    **error)
{
  static const char * const plain[][2] = {
    { "mean", "mean" }, { "std_dev", "std" }, { "min", "min" }, { "max", "max" }, { "median", "p50" },
  };
  JsonObject *pct = NULL;
  gboolean have_p50 = FALSE;

  if (!procura_json_object (name, d, path, "percentiles", &pct, error))
    return FALSE;
  if (pct != NULL)
    {
      g_autofree char *pp = g_strdup_printf ("%s.percentiles", path);
      GList *members = json_object_get_members (pct);

      for (GList *l = members; l; l = l->next)
        {
          g_autofree char *stat = pct_key_to_stat (l->data);
          double v;

          if (stat == NULL)
            continue;
          if (!procura_json_number (name, pct, pp, l->data, &v, error))
            {
              g_list_free (members);
              return FALSE;
            }
          if (g_str_equal (stat, "p50") && !isnan (v))
            have_p50 = TRUE;
          procura_import_reported (run, metric, stat, v, factor);
        }
      g_list_free (members);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (plain); i++)
    {
      double v;

      if (g_str_equal (plain[i][1], "p50") && have_p50)
        continue;
      if (!procura_json_number (name, d, path, plain[i][0], &v, error))
        return FALSE;
      procura_import_reported (run, metric, plain[i][1], v, factor);
    }
  return TRUE;
}

static double
dist_mean (const char *name,
           JsonObject *metrics,
           const char *mpath,
           const char *key,
           GError    **error,
           gboolean   *ok)
{
  JsonObject *d = NULL;
  double v = NAN;

  if (!read_distribution (name, metrics, mpath, key, &d, error))
    {
      *ok = FALSE;
      return NAN;
    }
  if (d != NULL)
    {
      g_autofree char *p = g_strdup_printf ("%s.%s.successful", mpath, key);
      if (!procura_json_number (name, d, p, "mean", &v, error))
        *ok = FALSE;
    }
  return v;
}

static gboolean
parse_benchmark (const char          *name,
                 JsonObject          *b,
                 const char          *path,
                 int                  generation,
                 const char          *model,
                 ProcuraImportResult *result,
                 GError             **error)
{
  g_autoptr (ProcuraRun) run = procura_run_new ();
  g_autofree char *mpath = g_strdup_printf ("%s.metrics", path);
  JsonObject *metrics = NULL, *strategy = NULL, *totals = NULL, *holder = NULL;
  const char *type = NULL;
  double rate = NAN, conc = NAN;
  gint64 incomplete = -1;
  gboolean ok = TRUE;

  /* strategy: args.strategy (pre-metadata) or config.strategy */
  {
    const char *key = generation == 0 ? "args" : "config";
    g_autofree char *hp = g_strdup_printf ("%s.%s", path, key);
    g_autofree char *sp = g_strdup_printf ("%s.strategy", hp);

    if (!procura_json_object (name, b, path, key, &holder, error))
      return FALSE;
    if (holder != NULL && !procura_json_object (name, holder, hp, "strategy", &strategy, error))
      return FALSE;
    if (strategy != NULL
        && (!procura_json_string (name, strategy, sp, "type_", &type, error)
            || !procura_json_number (name, strategy, sp, "rate", &rate, error)
            || !procura_json_number (name, strategy, sp, "max_concurrency", &conc, error)))
      return FALSE;
    if (strategy != NULL && isnan (conc) && !procura_json_number (name, strategy, sp, "streams", &conc, error))
      return FALSE;
  }
  if (type == NULL)
    ;
  else if (g_str_equal (type, "synchronous"))
    {
      run->scenario.load_type = g_strdup ("concurrency");
      run->scenario.load_value = 1;
    }
  else if (g_str_equal (type, "throughput"))
    {
      run->scenario.load_type = g_strdup ("throughput");
      run->scenario.load_value = INFINITY;
    }
  else if (g_str_equal (type, "concurrent"))
    {
      run->scenario.load_type = g_strdup ("concurrency");
      run->scenario.load_value = conc;
    }
  else if (g_str_equal (type, "constant") || g_str_equal (type, "poisson") || g_str_equal (type, "async"))
    {
      run->scenario.load_type = g_strdup ("rate");
      run->scenario.load_value = rate;
    }
  else
    run->scenario.load_type = g_strdup (type);

  run->scenario.model = g_strdup (model);
  if (!procura_json_number (name, b, path, "duration", &run->duration_s, error))
    return FALSE;
  if (!procura_json_object (name, b, path, "metrics", &metrics, error))
    return FALSE;
  if (metrics == NULL)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: %s.metrics: expected an object of metric distributions, found nothing"), name, path);
      return FALSE;
    }

  /* request counts */
  if (generation == 0)
    {
      if (!procura_json_object (name, b, path, "request_totals", &totals, error))
        return FALSE;
    }
  else if (!procura_json_object (name, metrics, mpath, "request_totals", &totals, error))
    return FALSE;
  if (totals != NULL)
    {
      g_autofree char *tp = g_strdup_printf (generation == 0 ? "%s.request_totals" : "%s.metrics.request_totals", path);
      if (!procura_json_count (name, totals, tp, "successful", &run->completed, error)
          || !procura_json_count (name, totals, tp, "errored", &run->failed, error)
          || !procura_json_count (name, totals, tp, "incomplete", &incomplete, error))
        return FALSE;
      if (incomplete > 0)
        procura_run_add_warning (run, "%" G_GINT64_FORMAT " requests were incomplete (cancelled at the end of the benchmark) and are not counted", incomplete);
    }

  for (gsize i = 0; i < G_N_ELEMENTS (metric_map); i++)
    {
      JsonObject *d = NULL;
      g_autofree char *dp = g_strdup_printf ("%s.%s.successful", mpath, metric_map[i].key);

      if (!read_distribution (name, metrics, mpath, metric_map[i].key, &d, error))
        return FALSE;
      if (d != NULL && !add_distribution (name, run, d, dp, metric_map[i].metric, metric_map[i].factor, error))
        return FALSE;
    }
  run->request_throughput = dist_mean (name, metrics, mpath, "requests_per_second", error, &ok);
  run->output_throughput = dist_mean (name, metrics, mpath, "output_tokens_per_second", error, &ok);
  run->total_throughput = dist_mean (name, metrics, mpath, "tokens_per_second", error, &ok);
  run->input_tokens_mean = dist_mean (name, metrics, mpath, "prompt_token_count", error, &ok);
  run->output_tokens_mean = dist_mean (name, metrics, mpath, "output_token_count", error, &ok);
  if (!ok)
    return FALSE;
  run->scenario.input_len = run->input_tokens_mean;
  run->scenario.output_len = run->output_tokens_mean;

  if (run->scenario.load_type == NULL)
    run->label = g_strdup_printf ("benchmark %s", path);
  else if (g_str_equal (run->scenario.load_type, "rate"))
    run->label = g_strdup_printf ("%s %g req/s", type, run->scenario.load_value);
  else if (g_str_equal (run->scenario.load_type, "concurrency"))
    run->label = g_strdup_printf ("%s, concurrency %g", type, run->scenario.load_value);
  else
    run->label = g_strdup (type);
  g_ptr_array_add (result->runs, g_steal_pointer (&run));
  return TRUE;
}

static gboolean
parse_guidellm_root (const char          *name,
                     JsonNode            *root,
                     ProcuraImportResult *result,
                     GError             **error)
{
  JsonObject *o, *meta = NULL, *args = NULL, *config = NULL, *spec = NULL, *backend = NULL;
  JsonArray *benchmarks = NULL;
  const char *model = NULL;
  const char *version = NULL;
  gint64 generation = 0;
  guint n;

  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $: expected an object with \"benchmarks\", found %s"), name,
                   procura_json_node_type_name (root));
      return FALSE;
    }
  o = json_node_get_object (root);
  if (!procura_json_object (name, o, "$", "metadata", &meta, error)
      || !procura_json_array (name, o, "$", "benchmarks", &benchmarks, error))
    return FALSE;
  if (benchmarks == NULL)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $.benchmarks: expected a list of benchmarks, found nothing"), name);
      return FALSE;
    }
  if (meta != NULL)
    {
      if (!procura_json_count (name, meta, "$.metadata", "version", &generation, error)
          || !procura_json_string (name, meta, "$.metadata", "guidellm_version", &version, error))
        return FALSE;
      if (generation != 1 && generation != 2)
        {
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                       _("%s: $.metadata.version: expected 1 or 2 (the report generations Procura knows), found %lld"),
                       name, (long long) generation);
          return FALSE;
        }
    }
  /* the model: args.model (v1), config.spec.backend.model (v2), benchmarks[0].worker.backend_model (v0.3) */
  if (!procura_json_object (name, o, "$", "args", &args, error)
      || !procura_json_object (name, o, "$", "config", &config, error))
    return FALSE;
  if (args != NULL && !procura_json_string (name, args, "$.args", "model", &model, error))
    return FALSE;
  if (model != NULL && *model == '\0')
    model = NULL;   /* an empty string is no model */
  if (model == NULL && config != NULL
      && procura_json_object (name, config, "$.config", "spec", &spec, NULL) && spec != NULL
      && procura_json_object (name, spec, "$.config.spec", "backend", &backend, NULL) && backend != NULL)
    procura_json_string (name, backend, "$.config.spec.backend", "model", &model, NULL);
  if (model != NULL && *model == '\0')
    model = NULL;

  result->format_version = generation == 0 ? g_strdup ("guidellm-v0") : g_strdup_printf ("guidellm-v%d", (int) generation);
  n = json_array_get_length (benchmarks);
  if (n == 0)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: $.benchmarks: the list is empty; expected at least one benchmark"), name);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      JsonNode *e = json_array_get_element (benchmarks, i);
      g_autofree char *path = g_strdup_printf ("$.benchmarks[%u]", i);
      const char *bmodel = NULL;
      JsonObject *bconf = NULL, *bbackend = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (e))
        {
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                       _("%s: %s: expected a benchmark object, found %s"), name, path,
                       procura_json_node_type_name (e));
          return FALSE;
        }
      /* guidellm 0.8: the model of each benchmark in benchmarks[i].config.backend.model,
       * which wins over the top (where 0.8 may leave an empty string) */
      {
        JsonNode *cn = json_object_get_member (json_node_get_object (e), "config");
        if (cn && JSON_NODE_HOLDS_OBJECT (cn))
          bconf = json_node_get_object (cn);
        cn = bconf ? json_object_get_member (bconf, "backend") : NULL;
        if (cn && JSON_NODE_HOLDS_OBJECT (cn))
          bbackend = json_node_get_object (cn);
        cn = bbackend ? json_object_get_member (bbackend, "model") : NULL;
        if (cn && JSON_NODE_HOLDS_VALUE (cn) && json_node_get_value_type (cn) == G_TYPE_STRING
            && *json_node_get_string (cn) != '\0')
          bmodel = json_node_get_string (cn);
      }
      if (bmodel == NULL)
        bmodel = model;
      if (bmodel == NULL && generation == 0)
        {
          JsonObject *worker = NULL;
          g_autofree char *wp = g_strdup_printf ("%s.worker", path);
          if (!procura_json_object (name, json_node_get_object (e), path, "worker", &worker, error))
            return FALSE;
          if (worker != NULL && !procura_json_string (name, worker, wp, "backend_model", &bmodel, error))
            return FALSE;
        }
      if (!parse_benchmark (name, json_node_get_object (e), path, (int) generation, bmodel, result, error))
        return FALSE;
    }
  if (version != NULL)
    {
      g_autofree char *esc = g_strescape (version, NULL);
      for (guint i = 0; i < result->runs->len; i++)
        {
          ProcuraRun *run = g_ptr_array_index (result->runs, i);
          run->extras_json = g_strdup_printf ("{\"guidellm_version\":\"%s\"}", esc);
        }
    }
  return TRUE;
}

static gboolean
parse_guidellm (const char          *name,
                const char          *data,
                gsize                len,
                ProcuraImportResult *result,
                GCancellable        *cancellable,
                GError             **error)
{
  g_autoptr (JsonNode) root = procura_json_parse (name, data, len, 0, PROCURA_JSON_ALLOW_NONFINITE, error);

  return parse_guidellm_root (name, root, result, error);
}

/* benchmarks.yaml: the same report as benchmarks.json, written by PyYAML */
static gboolean
parse_guidellm_yaml (const char          *name,
                     const char          *data,
                     gsize                len,
                     ProcuraImportResult *result,
                     GCancellable        *cancellable,
                     GError             **error)
{
  g_autoptr (JsonNode) root = procura_yaml_parse (name, data, len, error);

  if (!parse_guidellm_root (name, root, result, error))
    return FALSE;
  {
    char *v = g_strdup_printf ("%s-yaml", result->format_version ? result->format_version : "guidellm");
    g_free (result->format_version);
    result->format_version = v;
  }
  return TRUE;
}

static int
sniff_guidellm_yaml (const char *data,
                     gsize       len)
{
  char first = procura_sniff_first_char (data, len);

  if (first == '{' || first == '[')
    return 0;
  if (procura_sniff_has (data, len, "benchmarks:")
      && (procura_sniff_has (data, len, "type_: generative_benchmark")
          || procura_sniff_has (data, len, "time_to_first_token_ms:")
          || procura_sniff_has (data, len, "guidellm_version:")))
    return 85;
  return 0;
}

const ProcuraImporter procura_importer_guidellm_yaml = {
  "guidellm-yaml",
  "guidellm benchmarks.yaml (the YAML twin of benchmarks.json)",
  sniff_guidellm_yaml,
  parse_guidellm_yaml,
};

static int
sniff_guidellm (const char *data,
                gsize       len)
{
  if (procura_sniff_first_char (data, len) != '{' || !procura_sniff_has (data, len, "\"benchmarks\""))
    return 0;
  if (procura_sniff_has (data, len, "\"guidellm_version\"") || procura_sniff_has (data, len, "\"generative_benchmark\"")
      || procura_sniff_has (data, len, "\"time_to_first_token_ms\"") || procura_sniff_has (data, len, "\"request_totals\""))
    return 90;
  return 0;
}

const ProcuraImporter procura_importer_guidellm = {
  "guidellm",
  "guidellm benchmarks.json (all three report generations)",
  sniff_guidellm,
  parse_guidellm,
};

/* ------------------------------------------------------------------------- */
/* guidellm benchmarks.csv: three header rows (group, field, unit or statistic),
 * then one row per benchmark. Distributions are columns "<Group> / Successful <unit>
 * / Mean | Median | Std Dev | Percentiles", the last a list "[min, p0.1, p1, p5, p10,
 * p25, p75, p90, p95, p99, max]"; request latency in seconds, the others in ms. */

typedef struct {
  const ProcuraCsv *csv;
  guint             n_cols;
} GuideCsv;

static int
gcsv_col (const GuideCsv *g,
          const char     *group,
          const char     *field,
          const char     *unit)
{
  for (guint c = 0; c < g->n_cols; c++)
    if (g_strcmp0 (procura_csv_get (g->csv, 0, c), group) == 0
        && g_strcmp0 (procura_csv_get (g->csv, 1, c), field) == 0
        && (unit == NULL || g_strcmp0 (procura_csv_get (g->csv, 2, c), unit) == 0))
      return (int) c;
  return -1;
}

static gboolean
gcsv_number (const char     *name,
             const GuideCsv *g,
             guint           row,
             int             col,
             double         *out,
             GError        **error)
{
  const char *f = col >= 0 ? procura_csv_get (g->csv, row, (guint) col) : NULL;
  char *end = NULL;

  *out = NAN;
  if (f == NULL || *f == '\0' || g_ascii_strcasecmp (f, "None") == 0)
    return TRUE;
  *out = g_ascii_strtod (f, &end);
  if (end == f || *end != '\0')
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s:%u: column “%s / %s / %s”: expected a number, found “%s”"), name,
                   procura_csv_row_line (g->csv, row), procura_csv_get (g->csv, 0, (guint) col),
                   procura_csv_get (g->csv, 1, (guint) col), procura_csv_get (g->csv, 2, (guint) col), f);
      return FALSE;
    }
  return TRUE;
}

static gboolean
gcsv_distribution (const char     *name,
                   const GuideCsv *g,
                   guint           row,
                   ProcuraRun     *run,
                   const char     *group,
                   const char     *unit,
                   const char     *metric,
                   double          factor,
                   GError        **error)
{
  static const char * const pct_stats[] = { "min", "p0.1", "p1", "p5", "p10", "p25", "p75", "p90", "p95", "p99", "max" };
  static const char * const plain[][2] = { { "Mean", "mean" }, { "Median", "p50" }, { "Std Dev", "std" } };
  g_autofree char *field = g_strdup_printf ("Successful %s", unit);
  const char *list;
  int col;

  for (gsize i = 0; i < G_N_ELEMENTS (plain); i++)
    {
      double v;
      if (!gcsv_number (name, g, row, gcsv_col (g, group, field, plain[i][0]), &v, error))
        return FALSE;
      procura_import_reported (run, metric, plain[i][1], v, factor);
    }
  col = gcsv_col (g, group, field, "Percentiles");
  list = col >= 0 ? procura_csv_get (g->csv, row, (guint) col) : NULL;
  if (list != NULL && *list != '\0')
    {
      g_autofree char *inner = NULL;
      g_auto (GStrv) parts = NULL;
      gsize len = strlen (list);

      if (list[0] != '[' || list[len - 1] != ']')
        goto bad;
      inner = g_strndup (list + 1, len - 2);
      parts = g_strsplit (inner, ",", -1);
      if (g_strv_length (parts) != G_N_ELEMENTS (pct_stats))
        goto bad;
      for (gsize i = 0; i < G_N_ELEMENTS (pct_stats); i++)
        {
          char *end = NULL;
          const char *p = g_strstrip (parts[i]);
          double v = g_ascii_strtod (p, &end);

          if (end == p || *end != '\0')
            goto bad;
          procura_import_reported (run, metric, pct_stats[i], v, factor);
        }
    }
  return TRUE;

bad:
  g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
               _("%s:%u: column “%s / %s / Percentiles”: expected a list of %u numbers "
                 "[min, p0.1, p1, p5, p10, p25, p75, p90, p95, p99, max], found “%s”"), name,
               procura_csv_row_line (g->csv, row), group, field,
               (guint) G_N_ELEMENTS (pct_stats), list);
  return FALSE;
}

static gboolean
parse_guidellm_csv (const char          *name,
                    const char          *data,
                    gsize                len,
                    ProcuraImportResult *result,
                    GCancellable        *cancellable,
                    GError             **error)
{
  g_autoptr (ProcuraCsv) csv = procura_csv_parse (name, data, len, ',', error);
  GuideCsv g;
  int c_strategy, c_backend, c_duration, c_ok, c_err, c_inc;

  if (csv == NULL)
    return FALSE;
  g.csv = csv;
  g.n_cols = procura_csv_n_rows (csv) > 0 ? procura_csv_n_fields (csv, 0) : 0;
  if (procura_csv_n_rows (csv) < 4 || gcsv_col (&g, "Request Counts", "Successful", NULL) < 0)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: expected guidellm's benchmarks.csv: three header rows (group, field, unit) "
                     "with a “Request Counts / Successful” column, then one row per benchmark"), name);
      return FALSE;
    }
  c_strategy = gcsv_col (&g, "Benchmark", "Strategy", NULL);
  c_backend = gcsv_col (&g, "Run Info", "Backend", NULL);
  c_duration = gcsv_col (&g, "Timings", "Duration", NULL);
  c_ok = gcsv_col (&g, "Request Counts", "Successful", NULL);
  c_err = gcsv_col (&g, "Request Counts", "Errored", NULL);
  c_inc = gcsv_col (&g, "Request Counts", "Incomplete", NULL);

  for (guint r = 3; r < procura_csv_n_rows (csv); r++)
    {
      g_autoptr (ProcuraRun) run = procura_run_new ();
      const char *type = c_strategy >= 0 ? procura_csv_get (csv, r, (guint) c_strategy) : NULL;
      const char *backend = c_backend >= 0 ? procura_csv_get (csv, r, (guint) c_backend) : NULL;
      double ok, err, inc;

      if (procura_csv_n_fields (csv, r) <= 1 && (procura_csv_get (csv, r, 0) == NULL
                                                 || *procura_csv_get (csv, r, 0) == '\0'))
        continue;   /* a blank line */
      if (!gcsv_number (name, &g, r, c_duration, &run->duration_s, error)
          || !gcsv_number (name, &g, r, c_ok, &ok, error)
          || !gcsv_number (name, &g, r, c_err, &err, error)
          || !gcsv_number (name, &g, r, c_inc, &inc, error))
        return FALSE;
      if (ok >= 0 && ok < 1e15)
        run->completed = (gint64) ok;
      if (err >= 0 && err < 1e15)
        run->failed = (gint64) err;
      if (inc > 0)
        procura_run_add_warning (run, "%.0f requests were incomplete (cancelled at the end of the benchmark) and are not counted", inc);
      if (!gcsv_distribution (name, &g, r, run, "Time to First Token", "ms", "ttft", 1.0, error)
          || !gcsv_distribution (name, &g, r, run, "Inter Token Latency", "ms", "tpot", 1.0, error)
          || !gcsv_distribution (name, &g, r, run, "Time per Output Token", "ms", "tpot_incl_first", 1.0, error)
          || !gcsv_distribution (name, &g, r, run, "Request Latency", "Sec", "e2e", 1000.0, error)
          || !gcsv_number (name, &g, r, gcsv_col (&g, "Server Throughput", "Successful Requests/Sec", "Mean"), &run->request_throughput, error)
          || !gcsv_number (name, &g, r, gcsv_col (&g, "Token Throughput", "Successful Output Tokens/Sec", "Mean"), &run->output_throughput, error)
          || !gcsv_number (name, &g, r, gcsv_col (&g, "Token Throughput", "Successful Total Tokens/Sec", "Mean"), &run->total_throughput, error)
          || !gcsv_number (name, &g, r, gcsv_col (&g, "Token Metrics", "Successful Input Tokens", "Mean"), &run->input_tokens_mean, error)
          || !gcsv_number (name, &g, r, gcsv_col (&g, "Token Metrics", "Successful Output Tokens", "Mean"), &run->output_tokens_mean, error))
        return FALSE;
      run->scenario.input_len = run->input_tokens_mean;
      run->scenario.output_len = run->output_tokens_mean;
      /* the backend column is the backend's settings as JSON */
      if (backend != NULL && *backend == '{')
        {
          g_autoptr (JsonNode) b = procura_json_parse (name, backend, strlen (backend), 0, 0, NULL);
          JsonNode *m = b && JSON_NODE_HOLDS_OBJECT (b) ? json_object_get_member (json_node_get_object (b), "model") : NULL;
          if (m && JSON_NODE_HOLDS_VALUE (m) && json_node_get_value_type (m) == G_TYPE_STRING
              && *json_node_get_string (m) != '\0')
            run->scenario.model = g_strdup (json_node_get_string (m));
        }
      if (type != NULL && g_str_equal (type, "synchronous"))
        {
          run->scenario.load_type = g_strdup ("concurrency");
          run->scenario.load_value = 1;
        }
      else if (type != NULL && g_str_equal (type, "throughput"))
        {
          run->scenario.load_type = g_strdup ("throughput");
          run->scenario.load_value = INFINITY;
        }
      else if (type != NULL && *type != '\0')
        procura_run_add_warning (run, "guidellm's CSV names the strategy (%s) but not its rate or "
                                 "concurrency: import benchmarks.json for the load", type);
      run->label = g_strdup_printf ("%s (row %u)", type && *type ? type : "benchmark", r - 2);
      g_ptr_array_add (result->runs, g_steal_pointer (&run));
    }
  result->format_version = g_strdup ("guidellm-csv");
  return TRUE;
}

static int
sniff_guidellm_csv (const char *data,
                    gsize       len)
{
  if (procura_sniff_has (data, len, "Request Counts") && procura_sniff_has (data, len, "Time to First Token")
      && procura_sniff_has (data, len, "Successful ms") && procura_sniff_first_char (data, len) != '{')
    return 85;
  return 0;
}

const ProcuraImporter procura_importer_guidellm_csv = {
  "guidellm-csv",
  "guidellm benchmarks.csv (three header rows)",
  sniff_guidellm_csv,
  parse_guidellm_csv,
};
