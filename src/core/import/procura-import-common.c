/* procura-import-common.c: what every importer shares (recomputed statistics, checks)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE 1   /* memmem() */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-import-private.h"
#include "procura-quantiles.h"
#include "procura-stats.h"
#include "procura-util.h"

gboolean
procura_sniff_has (const char *data,
                   gsize       len,
                   const char *needle)
{
  gsize n = MIN (len, PROCURA_SNIFF_WINDOW);
  const char *end = memchr (data, '\0', n);

  /* up to the first NUL, as g_strstr_len() searches, but with glibc's memmem(): the
   * sniffers make some fifty searches of the window, and g_strstr_len() compares byte
   * by byte (3 MB of it per file, 5 % of a 5.5 MB vLLM import) */
  if (end != NULL)
    n = (gsize) (end - data);
  return memmem (data, n, needle, strlen (needle)) != NULL;
}

char
procura_sniff_first_char (const char *data,
                          gsize       len)
{
  gsize i = 0;

  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    i = 3;
  for (; i < len && i < PROCURA_SNIFF_WINDOW; i++)
    if (!g_ascii_isspace (data[i]))
      return data[i];
  return '\0';
}

void
procura_import_reported (ProcuraRun *run,
                         const char *metric,
                         const char *stat,
                         double      value,
                         double      factor)
{
  if (isnan (value))
    return;
  procura_run_add_stat (run, metric, stat, value * factor, PROCURA_SOURCE_AS_REPORTED, -1);
}

char *
procura_import_pct_name (double pct)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (pct == floor (pct) && fabs (pct) <= 1e6)
    return g_strdup_printf ("p%d", (int) pct);
  g_ascii_formatd (buf, sizeof buf, "%.10g", pct);
  return g_strdup_printf ("p%s", buf);
}

gboolean
procura_import_number_array (const char  *name,
                             JsonArray   *array,
                             const char  *path,
                             double       factor,
                             double     **values,
                             gsize       *n,
                             GError     **error)
{
  guint len = json_array_get_length (array);
  g_autofree double *v = g_new (double, MAX (len, 1));

  for (guint i = 0; i < len; i++)
    {
      g_autofree char *what = NULL;
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) != G_TYPE_STRING
          && json_node_get_value_type (node) != G_TYPE_BOOLEAN)
        {
          v[i] = json_node_get_double (node) * factor;
          continue;
        }
      what = g_strdup_printf ("%s[%u]", path, i);
      if (!procura_json_node_number (name, node, what, &v[i], error))
        return FALSE;
      v[i] *= factor;
    }
  *values = g_steal_pointer (&v);
  *n = len;
  return TRUE;
}

gboolean
procura_import_json_lines (const char          *name,
                           const char          *data,
                           gsize                len,
                           ProcuraJsonFlags     flags,
                           ProcuraJsonLineFunc  func,
                           gpointer             user_data,
                           GCancellable        *cancellable,
                           GError             **error)
{
  gsize pos = 0;
  guint line = 0;
  guint n = 0;

  while (pos < len)
    {
      const char *nl = memchr (data + pos, '\n', len - pos);
      gsize end = nl ? (gsize) (nl - data) : len;
      gboolean blank = TRUE;

      line++;
      for (gsize i = pos; i < end; i++)
        if (!g_ascii_isspace (data[i]))
          {
            blank = FALSE;
            break;
          }
      if (!blank)
        {
          g_autoptr (JsonNode) node = NULL;

          if ((++n & 1023) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;
          node = procura_json_parse (name, data + pos, end - pos, line - 1, flags, error);
          if (node == NULL || !func (node, line, user_data, error))
            return FALSE;
        }
      pos = end + 1;
    }
  if (n == 0)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                   _("%s: the file holds no JSON line; expected one JSON object per line"), name);
      return FALSE;
    }
  return TRUE;
}

char **
procura_import_split_lines (const char *text)
{
  GPtrArray *lines = g_ptr_array_new ();
  gsize len = strlen (text), pos = 0;

  if (len > 0)
    for (;;)
      {
        const char *nl = memchr (text + pos, '\n', len - pos);
        gsize end = nl != NULL ? (gsize) (nl - text) : len;

        g_ptr_array_add (lines, g_strndup (text + pos, end - pos));
        if (nl == NULL)
          break;
        pos = end + 1;
      }
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_free (lines, FALSE);
}

/* ------------------------------------------------------------------------- */

static const char * const latency_metrics[] = { "ttft", "tpot", "tpot_incl_first", "itl", "e2e", NULL };

static gboolean
is_latency_metric (const char *m)
{
  return g_strv_contains (latency_metrics, m);
}

static double
reported_value (const ProcuraRun *run,
                const char       *metric,
                const char       *stat)
{
  for (guint i = 0; i < run->stats->len; i++)
    {
      const ProcuraStat *s = g_ptr_array_index (run->stats, i);
      if (s->source == PROCURA_SOURCE_AS_REPORTED && g_str_equal (s->metric, metric)
          && g_str_equal (s->stat, stat))
        return s->value;
    }
  return NAN;
}

static void
compare (ProcuraRun *run,
         const char *metric,
         const char *stat,
         double      recomputed)
{
  double reported = reported_value (run, metric, stat);
  double diff;

  if (isnan (reported) || isnan (recomputed))
    return;
  diff = fabs (reported - recomputed);
  if (diff > 1.0 && diff > 0.10 * MAX (fabs (reported), fabs (recomputed)))
    procura_run_add_warning (run,
                             "%s %s: the file reports %.4g ms but its per-request samples give %.4g ms (%.0f%% apart)",
                             metric, stat, reported, recomputed,
                             100.0 * diff / MAX (fabs (reported), fabs (recomputed)));
}

static int
cmp_gsize (const void *a,
           const void *b)
{
  gsize x = *(const gsize *) a, y = *(const gsize *) b;
  return (x > y) - (x < y);
}

/* How a warning names its run: the label, or "the run" */
static const char *
run_name (const ProcuraRun *run)
{
  return run->label ? run->label : "the run";
}

/* The value of rank @r of the values, from the ranks @ks (ascending) selected into @at */
static double
at_rank (const gsize  *ks,
         const double *at,
         gsize         nk,
         gsize         r)
{
  gsize lo = 0, hi = nk;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (ks[mid] < r)
        lo = mid + 1;
      else
        hi = mid;
    }
  g_assert (lo < nk && ks[lo] == r);
  return at[lo];
}

static void
recompute (ProcuraRun           *run,
           const ProcuraSamples *s,
           gboolean              summarise)
{
  static const double pcts[] = { 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9 };
  g_autofree double *v = NULL;
  const double *kept;
  gsize n = 0, negative = 0, infinite = 0;
  double mean, std, min, max, sum = 0.0, ss = 0.0;
  gsize ks[2 + 2 * G_N_ELEMENTS (pcts)], nk = 0, u = 0;
  double at[G_N_ELEMENTS (ks)];

  /* the values kept, and their sum in the order procura_stats_mean() adds them (the
   * same mean, bit for bit, without a pass of its own) */
  for (gsize i = 0; i < s->n; i++)
    if (isinf (s->values[i]))
      infinite++;
    else if (!isnan (s->values[i]))
      {
        if (s->values[i] < 0)
          negative++;
        sum += s->values[i];
        n++;
      }
  if (negative > 0)
    procura_run_add_warning (run, "%s: %s: %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                             " per-request values are negative (impossible latencies)",
                             run_name (run), s->metric, negative, n);
  if (infinite > 0)
    procura_run_add_warning (run, "%s: %s: %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                             " per-request values are infinite; left out of the recomputed statistics",
                             run_name (run), s->metric, infinite, s->n);
  if (n == 0)
    return;
  if (n == s->n)
    kept = s->values;   /* all of them: read where they are */
  else
    {
      gsize m = 0;

      v = procura_memory_alloc_large (n * sizeof (double));
      for (gsize i = 0; i < s->n; i++)
        if (isfinite (s->values[i]))
          v[m++] = s->values[i];
      kept = v;
    }
  /* procura_stats_std() with the mean at hand: its sum of squared deviations, in order */
  mean = sum / (double) n;
  for (gsize i = 0; i < n; i++)
    ss += (kept[i] - mean) * (kept[i] - mean);
  std = sqrt (ss / (double) n);

  /* only the ranks the statistics read are selected: the ends, and the ranks
   * procura_stats_percentile() reads of a sorted array */
  ks[nk++] = 0;
  ks[nk++] = n - 1;
  for (gsize i = 0; i < G_N_ELEMENTS (pcts); i++)
    {
      double t;

      procura_stats_percentile_ranks (n, pcts[i] / 100.0, &ks[nk], &ks[nk + 1], &t);
      nk += 2;
    }
  qsort (ks, nk, sizeof ks[0], cmp_gsize);
  for (gsize i = 0; i < nk; i++)
    if (u == 0 || ks[i] != ks[u - 1])
      ks[u++] = ks[i];
  /* the quantile summary the project keeps (run_quantiles) is selected in the same pass;
   * millions of values are read where they are, fewer (or ranks that need the values
   * moved) in a copy */
  {
    gboolean done = FALSE;

    if (v == NULL)
      {
        if (summarise)
          {
            ProcuraQuantiles *q = procura_quantiles_new_select_into (s->metric, kept, n, ks, u, at);

            if (q != NULL)
              {
                procura_run_take_quantiles (run, q);
                done = TRUE;
              }
          }
        else
          done = procura_stats_select_ranks_into (kept, n, ks, u, at);
        if (!done)
          {
            v = procura_memory_alloc_large (n * sizeof (double));
            memcpy (v, kept, n * sizeof (double));
          }
      }
    if (!done)
      {
        if (summarise)
          procura_run_take_quantiles (run, procura_quantiles_new_select (s->metric, v, n, ks, u));
        else
          procura_stats_select_ranks (v, n, ks, u);
        for (gsize i = 0; i < u; i++)
          at[i] = v[ks[i]];
      }
  }
  min = at[0];
  max = at[u - 1];
  procura_run_add_stat (run, s->metric, "mean", mean, PROCURA_SOURCE_RECOMPUTED, (gint64) n);
  procura_run_add_stat (run, s->metric, "std", std, PROCURA_SOURCE_RECOMPUTED, (gint64) n);
  procura_run_add_stat (run, s->metric, "min", min, PROCURA_SOURCE_RECOMPUTED, (gint64) n);
  procura_run_add_stat (run, s->metric, "max", max, PROCURA_SOURCE_RECOMPUTED, (gint64) n);
  compare (run, s->metric, "mean", mean);
  compare (run, s->metric, "max", max);
  for (gsize i = 0; i < G_N_ELEMENTS (pcts); i++)
    {
      g_autofree char *stat = procura_import_pct_name (pcts[i]);
      gsize lo, hi;
      double t, p;

      procura_stats_percentile_ranks (n, pcts[i] / 100.0, &lo, &hi, &t);
      p = procura_stats_percentile_mix (at_rank (ks, at, u, lo), at_rank (ks, at, u, hi), t);

      procura_run_add_stat (run, s->metric, stat, p, PROCURA_SOURCE_RECOMPUTED, (gint64) n);
      compare (run, s->metric, stat, p);
    }
}

/* Data that passes every parse and is still wrong: each a warning naming the run */
static void
check_bad_data (ProcuraRun *run)
{
  const char *name = run_name (run);
  const ProcuraSamples *out_len = procura_run_get_samples (run, "output_len");
  const double *figures[] = { &run->request_throughput, &run->output_throughput, &run->total_throughput,
                              &run->duration_s, &run->input_tokens_mean, &run->output_tokens_mean };
  const char *figure_names[] = { "request throughput", "output throughput", "total throughput",
                                 "duration", "mean input tokens", "mean output tokens" };

  for (guint i = 0; i < run->stats->len; i++)
    {
      const ProcuraStat *st = g_ptr_array_index (run->stats, i);
      if (isinf (st->value))
        procura_run_add_warning (run, "%s: %s %s is infinite (%s): not a measurement", name,
                                 st->metric, st->stat,
                                 st->source == PROCURA_SOURCE_RECOMPUTED ? "recomputed" : "as reported");
    }
  for (gsize i = 0; i < G_N_ELEMENTS (figures); i++)
    {
      double v = *figures[i];
      if (isinf (v))
        procura_run_add_warning (run, "%s: the %s is infinite: not a measurement", name, figure_names[i]);
      else if (!isnan (v) && v < 0 && i > 0)
        procura_run_add_warning (run, "%s: the %s is negative (%.4g): impossible", name, figure_names[i], v);
    }
  if (run->request_throughput == 0 && run->completed > 0)
    procura_run_add_warning (run, "%s: the request throughput is 0 req/s although %" G_GINT64_FORMAT
                             " requests completed: the throughput figure is wrong or missing", name, run->completed);
  /* the load asked for against the load achieved */
  if (g_strcmp0 (run->scenario.load_type, "rate") == 0 && isfinite (run->scenario.load_value)
      && run->scenario.load_value > 0 && run->request_throughput > 0 && isfinite (run->request_throughput))
    {
      double ratio = run->request_throughput / run->scenario.load_value;
      if (ratio < 0.8 || ratio > 1.25)
        procura_run_add_warning (run, "%s: the achieved rate (%.4g req/s) is %.0f%% of the configured rate "
                                 "(%.4g req/s): the client or the server could not keep the load",
                                 name, run->request_throughput, 100.0 * ratio, run->scenario.load_value);
    }
  /* "successful" requests that produced no token */
  if (out_len != NULL && out_len->n > 0)
    {
      gsize zero = 0;
      for (gsize i = 0; i < out_len->n; i++)
        if (out_len->values[i] == 0)
          zero++;
      if (zero > 0)
        procura_run_add_warning (run, "%s: %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " successful requests "
                                 "produced no output token: they count as successes but served nothing",
                                 name, zero, out_len->n);
    }
  else if (run->output_tokens_mean == 0 && run->completed > 0)
    procura_run_add_warning (run, "%s: the successful requests produced no output token (mean 0): "
                             "they count as successes but served nothing", name);
  /* inter-token latency all zero: the tool did not stream, or did not time the tokens */
  for (int k = 0; k < 2 && run->completed != 0; k++)
    {
      const char *metric = k == 0 ? "itl" : "tpot";
      const ProcuraSamples *sm = procura_run_get_samples (run, metric);
      gboolean all_zero = FALSE;

      if (sm != NULL && sm->n > 0)
        {
          gsize zero = 0, finite = 0;
          for (gsize i = 0; i < sm->n; i++)
            if (isfinite (sm->values[i]))
              {
                finite++;
                if (sm->values[i] == 0)
                  zero++;
              }
          all_zero = finite > 0 && zero == finite;
        }
      else
        {
          const ProcuraStat *mean = procura_run_get_stat (run, metric, "mean");
          const ProcuraStat *max = procura_run_get_stat (run, metric, "max");
          const ProcuraStat *p99 = procura_run_get_stat (run, metric, "p99");
          all_zero = mean != NULL && mean->value == 0 && (max == NULL || max->value == 0)
                     && (p99 == NULL || p99->value == 0);
        }
      if (all_zero)
        procura_run_add_warning (run, "%s: every %s value is 0 ms: the tokens were not streamed or not "
                                 "timed, so the %s figures say nothing", name,
                                 k == 0 ? "inter-token latency" : "time per output token", metric);
    }
}

static void
check_run (ProcuraRun *run)
{
  const char *checks[][2] = { { "p50", "p99" }, { "p50", "p90" }, { "min", "max" } };

  if (run->completed == 0)
    procura_run_add_warning (run, "no request completed (completed = 0%s): latency figures are empty",
                             run->failed > 0 ? ", every request failed" : "");
  for (guint i = 0; i < run->stats->len; i++)
    {
      const ProcuraStat *s = g_ptr_array_index (run->stats, i);
      if (s->value < 0 && !g_str_equal (s->stat, "std"))
        procura_run_add_warning (run, "%s %s is negative (%.4g ms): impossible latency (%s)",
                                 s->metric, s->stat, s->value,
                                 s->source == PROCURA_SOURCE_RECOMPUTED ? "recomputed" : "as reported");
    }
  for (const char * const *m = latency_metrics; *m; m++)
    for (gsize c = 0; c < G_N_ELEMENTS (checks); c++)
      for (int src = 0; src < 2; src++)
        {
          double lo = NAN, hi = NAN;

          for (guint i = 0; i < run->stats->len; i++)
            {
              const ProcuraStat *s = g_ptr_array_index (run->stats, i);
              if ((int) s->source != src || !g_str_equal (s->metric, *m))
                continue;
              if (g_str_equal (s->stat, checks[c][0]))
                lo = s->value;
              else if (g_str_equal (s->stat, checks[c][1]))
                hi = s->value;
            }
          if (!isnan (lo) && !isnan (hi) && hi < lo)
            procura_run_add_warning (run, "%s %s (%.4g ms) is below %s (%.4g ms): impossible (%s)",
                                     *m, checks[c][1], hi, checks[c][0], lo,
                                     src == PROCURA_SOURCE_RECOMPUTED ? "recomputed" : "as reported");
        }
  if (procura_is_set (run->request_throughput) && run->request_throughput < 0)
    procura_run_add_warning (run, "request throughput is negative (%.4g req/s)", run->request_throughput);
  if (run->completed > 0 && run->failed > 0)
    procura_run_add_warning (run, "%" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " requests failed",
                             run->failed, run->completed + run->failed);
  check_bad_data (run);
}

void
procura_import_finalize (ProcuraImportResult *result,
                         ProcuraImportFlags   flags)
{
  for (guint r = 0; r < result->runs->len; r++)
    {
      ProcuraRun *run = g_ptr_array_index (result->runs, r);

      for (guint i = 0; i < run->samples->len; i++)
        {
          const ProcuraSamples *s = g_ptr_array_index (run->samples, i);
          if (is_latency_metric (s->metric))
            recompute (run, s, (flags & PROCURA_IMPORT_NO_SUMMARIES) == 0);
        }
      check_run (run);
    }
}

/* ------------------------------------------------------------------------- */
/* The empty-run rule: a run without a single figure is not a result           */

gboolean
procura_import_run_has_metric (const ProcuraRun *run)
{
  return run->stats->len > 0 || run->samples->len > 0
    || procura_is_set (run->request_throughput) || procura_is_set (run->output_throughput)
    || procura_is_set (run->total_throughput) || run->completed >= 0 || run->failed >= 0;
}

gboolean
procura_import_drop_empty_runs (const char          *name,
                                const char          *importer_id,
                                ProcuraImportResult *result,
                                GError             **error)
{
  g_autoptr (GString) dropped = g_string_new (NULL);
  guint n_dropped = 0, n_runs = result->runs->len;

  for (guint i = 0; i < result->runs->len;)
    {
      ProcuraRun *run = g_ptr_array_index (result->runs, i);

      if (procura_import_run_has_metric (run))
        {
          i++;
          continue;
        }
      g_string_append_printf (dropped, "%s“%s”", n_dropped ? ", " : "",
                              run->label ? run->label : "(unnamed)");
      n_dropped++;
      g_ptr_array_remove_index (result->runs, i);
    }
  if (n_runs > 0 && result->runs->len == 0)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: read as %s, but none of its %u runs holds a metric (no latency, throughput "
                     "or request count): the file is not in this format, or in a layout of it "
                     "that Procura does not read (runs: %s)"),
                   name, importer_id, n_runs, dropped->str);
      return FALSE;
    }
  if (n_dropped > 0)
    g_ptr_array_add (result->warnings,
                     g_strdup_printf (_("%s: %u of %u runs hold no metric (no latency, throughput or "
                                        "request count) and were left out: %s"),
                                      name, n_dropped, n_runs, dropped->str));
  if (result->runs->len == 0 && result->quotes->len == 0 && result->model_shapes->len == 0
      && result->engine_logs->len == 0 && result->probe_results->len == 0)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: read as %s, but it yields nothing (no run, quote, model, engine log or "
                     "probe result)"), name, importer_id);
      return FALSE;
    }
  return TRUE;
}
