/* procura-capacity.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdlib.h>

#include <json-glib/json-glib.h>

#include "procura-capacity.h"
#include "procura-stats.h"

const char *
procura_capacity_status_name (ProcuraCapacityStatus s)
{
  switch (s)
    {
    case PROCURA_CAPACITY_OK:
      return "ok";
    case PROCURA_CAPACITY_NOT_SATURATED:
      return "not-saturated";
    case PROCURA_CAPACITY_MISSES:
      return "misses-target";
    case PROCURA_CAPACITY_NO_DATA:
    default:
      return "no-data";
    }
}

char *
procura_percentile_stat_name (double percentile)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buf, sizeof buf, "%.6g", percentile);
  return g_strconcat ("p", buf, NULL);
}

double
procura_brief_slo_percentile (const ProcuraBrief *brief)
{
  return brief != NULL && procura_is_set (brief->slo_percentile) ? brief->slo_percentile : 99;
}

/* Copies the finite values and sorts them; returns the count. */
static gsize
sorted_finite (const ProcuraSamples *s,
               double              **out)
{
  double *v = g_new (double, MAX (s->n, 1));
  gsize n = 0;

  for (gsize i = 0; i < s->n; i++)
    if (isfinite (s->values[i]))
      v[n++] = s->values[i];
  procura_stats_sort (v, n);
  *out = v;
  return n;
}

const double *
procura_samples_sorted (const ProcuraSamples *s,
                        gsize                *n_finite)
{
  static GMutex lock;
  ProcuraSamples *cache = (ProcuraSamples *) s;   /* only the kept sort is written */
  const double *sorted;

  g_mutex_lock (&lock);
  if (cache->sorted == NULL)
    cache->n_sorted = sorted_finite (s, &cache->sorted);
  sorted = cache->sorted;
  *n_finite = cache->n_sorted;
  g_mutex_unlock (&lock);
  return sorted;
}

double
procura_run_metric_percentile (const ProcuraRun *run,
                               const char       *metric,
                               double            percentile,
                               ProcuraSource    *source,
                               gint64           *samples)
{
  const ProcuraSamples *s = procura_run_get_samples (run, metric);
  const ProcuraStat *st;
  g_autofree char *name = NULL;

  if (s != NULL && s->n > 0)
    {
      gsize n;
      const double *v = procura_samples_sorted (s, &n);
      double r = procura_stats_percentile (v, n, percentile / 100.0);

      if (n > 0)
        {
          if (source != NULL)
            *source = PROCURA_SOURCE_RECOMPUTED;
          if (samples != NULL)
            *samples = (gint64) n;
          return r;
        }
    }
  name = procura_percentile_stat_name (percentile);
  st = procura_run_get_stat (run, metric, name);
  if (source != NULL)
    *source = st != NULL ? st->source : PROCURA_SOURCE_AS_REPORTED;
  if (samples != NULL)
    *samples = st != NULL ? st->samples : -1;
  return st != NULL ? st->value : NAN;
}

gint64
procura_run_requests_sent (const ProcuraRun *run)
{
  gint64 sent = -1;

  if (run->completed >= 0 && run->failed >= 0)
    sent = run->completed + run->failed;
  if (run->extras_json != NULL)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();

      if (json_parser_load_from_data (parser, run->extras_json, -1, NULL) &&
          JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        {
          JsonObject *o = json_node_get_object (json_parser_get_root (parser));
          JsonNode *n = json_object_get_member (o, "num_prompts");

          if (n != NULL && JSON_NODE_HOLDS_VALUE (n) &&
              (json_node_get_value_type (n) == G_TYPE_INT64 || json_node_get_value_type (n) == G_TYPE_DOUBLE))
            {
              double v = json_node_get_double (n);
              if (isfinite (v) && v > 0 && v < 1e15)
                sent = MAX (sent, (gint64) v);
            }
        }
    }
  return sent;
}

static void
point_clear (gpointer p)
{
  g_free (((ProcuraSweepPoint *) p)->label);
}

void
procura_capacity_free (ProcuraCapacity *c)
{
  if (c == NULL)
    return;
  g_free (c->metric);
  g_free (c->reason);
  g_free (c->non_monotone);
  g_free (c->interval_reason);
  g_clear_pointer (&c->points, g_array_unref);
  g_clear_pointer (&c->excluded, g_ptr_array_unref);
  g_free (c);
}

static int
cmp_points (gconstpointer a,
            gconstpointer b)
{
  const ProcuraSweepPoint *x = a, *y = b;

  if (x->throughput_rps != y->throughput_rps)
    return x->throughput_rps < y->throughput_rps ? -1 : 1;
  return (x->run_id > y->run_id) - (x->run_id < y->run_id);
}

static gboolean
interval_holds (const ProcuraSweepPoint *p,
                double                   threshold)
{
  return isfinite (p->ci_lo_ms) && isfinite (p->ci_hi_ms) &&
         p->ci_lo_ms <= threshold && threshold <= p->ci_hi_ms;
}

/* One reading of the rule over the points' loads and the values @val (the
 * percentiles, or one end of their intervals). */
typedef struct {
  ProcuraCapacityStatus status;
  int    below;
  int    above;
  double rps;
  double tok_s;
} Reading;

static Reading
read_sweep (GArray       *points,
            const double *val,
            double        threshold)
{
  Reading r = { PROCURA_CAPACITY_NO_DATA, -1, -1, NAN, NAN };
  guint n = points->len;
  int last_meet = -1;

  if (n == 0)
    return r;
  for (guint i = 0; i < n; i++)
    if (val[i] <= threshold)
      last_meet = (int) i;
  if (last_meet < 0)
    {
      r.status = PROCURA_CAPACITY_MISSES;
      r.above = 0;
    }
  else if (last_meet == (int) n - 1)
    {
      const ProcuraSweepPoint *last = &g_array_index (points, ProcuraSweepPoint, n - 1);

      r.status = PROCURA_CAPACITY_NOT_SATURATED;
      r.below = last_meet;
      r.rps = last->throughput_rps;
      r.tok_s = last->throughput_tok_s;
    }
  else
    {
      /* the highest load that meets, towards the next point, which misses */
      const ProcuraSweepPoint *b = &g_array_index (points, ProcuraSweepPoint, last_meet);
      const ProcuraSweepPoint *a = &g_array_index (points, ProcuraSweepPoint, last_meet + 1);
      double yb = val[last_meet], ya = val[last_meet + 1];
      double t = ya > yb ? (threshold - yb) / (ya - yb) : 0;

      t = CLAMP (t, 0.0, 1.0);
      r.status = PROCURA_CAPACITY_OK;
      r.below = last_meet;
      r.above = last_meet + 1;
      r.rps = b->throughput_rps + t * (a->throughput_rps - b->throughput_rps);
      if (isfinite (a->throughput_tok_s) && isfinite (b->throughput_tok_s))
        r.tok_s = b->throughput_tok_s + t * (a->throughput_tok_s - b->throughput_tok_s);
    }
  return r;
}

/* Why a run cannot be read at all, or NULL. */
static char *
exclusion_reason (const ProcuraRun *run)
{
  gint64 sent = procura_run_requests_sent (run);
  const char *label = run->label != NULL ? run->label : _("(unlabelled)");

  if (run->completed == 0)
    {
      g_autofree char *of = sent > 0 ? g_strdup_printf (_(" of %lld sent"), (long long) sent) : g_strdup ("");
      return g_strdup_printf (_("run “%s” completed no request%s: excluded from the capacity reading "
                              "(not used, not even as a bound)"), label, of);
    }
  if (run->completed > 0 && sent > 0 &&
      (double) run->completed < PROCURA_CAPACITY_MIN_COMPLETED_SHARE * (double) sent)
    return g_strdup_printf (_("run “%s” completed only %lld of %lld"
                            " requests sent (%.1f %%, under %.0f %%): it stopped part way, so its "
                            "throughput and percentiles describe an unknown load; excluded from the "
                            "capacity reading (not used, not even as a bound)"),
                            label, (long long) run->completed, (long long) sent, 100.0 * (double) run->completed / (double) sent,
                            100 * PROCURA_CAPACITY_MIN_COMPLETED_SHARE);
  if (isfinite (run->request_throughput) && run->request_throughput <= 0)
    return g_strdup_printf (_("run “%s” achieved 0 req/s: excluded from the capacity reading "
                            "(not used, not even as a bound)"), label);
  return NULL;
}

static void
describe_point (GString                 *out,
                const ProcuraSweepPoint *p)
{
  g_string_append_printf (out, _("“%s” (%.4g req/s, %.4g ms)"), p->label != NULL ? p->label : "?",
                          p->throughput_rps, p->value_ms);
}

/* The interval: the rule read off both ends of the points' intervals. */
static void
read_interval (ProcuraCapacity *c)
{
  guint n = c->points->len;
  g_autofree double *hi = g_new (double, MAX (n, 1));
  g_autofree double *lo = g_new (double, MAX (n, 1));
  Reading pess, opt;

  c->capacity_lo_rps = c->capacity_hi_rps = NAN;
  if (c->status == PROCURA_CAPACITY_NO_DATA)
    return;
  for (guint i = 0; i < n; i++)
    {
      const ProcuraSweepPoint *p = &g_array_index (c->points, ProcuraSweepPoint, i);

      if (!isfinite (p->ci_lo_ms) || !isfinite (p->ci_hi_ms))
        {
          c->interval_reason = g_strdup_printf (_("no interval on the capacity: run “%s” has no bootstrap "
                                                "interval (percentiles as reported, or no per-request samples)"),
                                                p->label != NULL ? p->label : "?");
          return;
        }
      hi[i] = MAX (p->ci_hi_ms, p->value_ms);
      lo[i] = MIN (p->ci_lo_ms, p->value_ms);
    }
  pess = read_sweep (c->points, hi, c->threshold_ms);
  opt = read_sweep (c->points, lo, c->threshold_ms);
  c->capacity_lo_rps = pess.status == PROCURA_CAPACITY_MISSES ? 0 : pess.rps;
  c->capacity_hi_rps = opt.rps;   /* NAN when even the optimistic reading misses */
  c->hi_lower_bound = opt.status == PROCURA_CAPACITY_NOT_SATURATED;
  if (c->hi_lower_bound && pess.status == PROCURA_CAPACITY_NOT_SATURATED &&
      c->capacity_lo_rps == c->capacity_hi_rps)
    /* both readings stop at the highest load measured: the interval is one open end */
    c->interval_reason = g_strdup_printf (_("%.4g req/s or more: even at the upper ends of the points' "
                                            "bootstrap intervals the highest load measured meets the "
                                            "target, so the sweep bounds the capacity from below only"),
                                          c->capacity_lo_rps);
  else
    c->interval_reason = g_strdup_printf (_("%.4g to %.4g req/s%s: the same rule read off the upper ends "
                                            "of the points' bootstrap intervals, then off their lower ends%s"),
                                          c->capacity_lo_rps, c->capacity_hi_rps,
                                          c->hi_lower_bound ? _(" or more") : "",
                                          pess.status == PROCURA_CAPACITY_MISSES
                                          ? _("; at the upper ends no load meets the target") : "");
}

ProcuraCapacity *
procura_capacity_from_runs (const ProcuraRun * const    *runs,
                            guint                         n_runs,
                            const char                   *metric,
                            double                        percentile,
                            double                        threshold_ms,
                            const ProcuraCapacityOptions *options)
{
  ProcuraCapacity *c = g_new0 (ProcuraCapacity, 1);
  ProcuraCapacityOptions opt = { 0 };
  g_autofree char *pname = procura_percentile_stat_name (percentile);
  g_autofree double *val = NULL;
  GString *how;
  guint n_recomputed = 0;
  Reading r;

  if (options != NULL)
    opt = *options;
  if (opt.resamples == 0)
    opt.resamples = PROCURA_STATS_DEFAULT_RESAMPLES;
  if (opt.seed == 0)
    opt.seed = PROCURA_STATS_DEFAULT_SEED;
  if (!(opt.level > 0 && opt.level < 1))
    opt.level = 0.95;

  c->metric = g_strdup (metric);
  c->percentile = percentile;
  c->threshold_ms = threshold_ms;
  c->capacity_rps = NAN;
  c->capacity_tok_s = NAN;
  c->capacity_lo_rps = NAN;
  c->capacity_hi_rps = NAN;
  c->below = c->above = -1;
  c->nm_miss = c->nm_meet = -1;
  c->samples_min = -1;
  c->points = g_array_new (FALSE, TRUE, sizeof (ProcuraSweepPoint));
  g_array_set_clear_func (c->points, point_clear);
  c->excluded = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n_runs; i++)
    {
      const ProcuraRun *run = runs[i];
      const ProcuraSamples *s;
      ProcuraSweepPoint p = { 0 };
      char *why;

      if (run == NULL || !isfinite (run->request_throughput) || run->request_throughput < 0)
        {
          c->skipped++;
          continue;
        }
      why = exclusion_reason (run);
      if (why != NULL)
        {
          g_ptr_array_add (c->excluded, why);
          continue;
        }
      p.run_id = run->id;
      p.throughput_rps = run->request_throughput;
      p.throughput_tok_s = run->output_throughput;
      p.ci_lo_ms = p.ci_hi_ms = NAN;
      p.samples = -1;
      p.source = PROCURA_SOURCE_AS_REPORTED;
      p.value_ms = NAN;

      s = metric != NULL ? procura_run_get_samples (run, metric) : NULL;
      if (s != NULL && s->n > 0)
        {
          double *v = g_new (double, s->n);
          gsize n = 0;

          for (gsize k = 0; k < s->n; k++)
            if (isfinite (s->values[k]))
              v[n++] = s->values[k];
          if (n > 0)
            {
              /* selects and sorts only the ranks around the percentile */
              p.value_ms = procura_stats_percentile_ci (v, n, percentile / 100.0, opt.level,
                                                        opt.no_bootstrap ? 0 : opt.resamples, opt.seed,
                                                        &p.ci_lo_ms, &p.ci_hi_ms);
              p.source = PROCURA_SOURCE_RECOMPUTED;
              p.samples = (gint64) n;
            }
          g_free (v);
        }
      if (isnan (p.value_ms) && metric != NULL)
        {
          const ProcuraStat *st = procura_run_get_stat (run, metric, pname);
          if (st != NULL && isfinite (st->value))
            {
              p.value_ms = st->value;
              p.source = st->source;
              p.samples = st->samples;
            }
        }
      if (isnan (p.value_ms))
        {
          c->skipped++;
          continue;
        }
      p.meets = p.value_ms <= threshold_ms;
      p.label = g_strdup (run->label);
      if (p.source == PROCURA_SOURCE_RECOMPUTED)
        {
          n_recomputed++;
          if (p.samples >= 0 && (c->samples_min < 0 || p.samples < c->samples_min))
            c->samples_min = p.samples;
        }
      g_array_append_val (c->points, p);
    }
  g_array_sort (c->points, cmp_points);
  c->all_recomputed = c->points->len > 0 && n_recomputed == c->points->len;

  how = g_string_new (NULL);
  if (c->points->len > 0)
    {
      if (c->all_recomputed)
        g_string_append_printf (how, _("; percentiles recomputed from per-request samples (n ≥ %lld"
                                ", %u-resample bootstrap %.0f %% intervals)"),
                                (long long) c->samples_min, opt.resamples, opt.level * 100);
      else if (n_recomputed > 0)
        g_string_append_printf (how, _("; %u of %u points recomputed from samples, the others as reported"),
                                n_recomputed, c->points->len);
      else
        g_string_append (how, _("; percentiles as reported by the benchmark files"));
    }
  if (c->excluded->len > 0)
    g_string_append_printf (how, ngettext ("; %u run excluded (no request completed, or under %.0f %% of those "
                                           "sent completed)",
                                           "; %u runs excluded (no request completed, or under %.0f %% of those "
                                           "sent completed)", c->excluded->len), c->excluded->len,
                            100 * PROCURA_CAPACITY_MIN_COMPLETED_SHARE);

  if (c->points->len == 0 || !isfinite (threshold_ms))
    {
      c->status = PROCURA_CAPACITY_NO_DATA;
      if (!isfinite (threshold_ms))
        c->reason = g_strdup (_("no latency target: set the metric, percentile and threshold in the brief"));
      else
        c->reason = g_strdup_printf (_("no benchmark run with a request throughput and %s %s%s"),
                                     pname, metric != NULL ? metric : _("(no metric)"), how->str);
      g_string_free (how, TRUE);
      return c;
    }

  val = g_new (double, c->points->len);
  for (guint i = 0; i < c->points->len; i++)
    val[i] = g_array_index (c->points, ProcuraSweepPoint, i).value_ms;
  r = read_sweep (c->points, val, threshold_ms);
  c->status = r.status;
  c->below = r.below;
  c->above = r.above;
  c->capacity_rps = r.rps;
  c->capacity_tok_s = r.tok_s;

  /* a miss below the highest point that meets: a warning naming both */
  if (r.below > 0)
    for (int i = 0; i < r.below; i++)
      if (!g_array_index (c->points, ProcuraSweepPoint, i).meets)
        {
          GString *w = g_string_new (NULL);
          guint others = 0;

          for (int k = i + 1; k < r.below; k++)
            others += !g_array_index (c->points, ProcuraSweepPoint, k).meets;
          c->nm_miss = i;
          c->nm_meet = r.below;
          g_string_append_printf (w, _("the sweep is not monotone: %s %s misses %g ms at "), pname, metric,
                                  threshold_ms);
          describe_point (w, &g_array_index (c->points, ProcuraSweepPoint, i));
          g_string_append (w, _(" but meets it at a higher load, "));
          describe_point (w, &g_array_index (c->points, ProcuraSweepPoint, r.below));
          if (others > 0)
            g_string_append_printf (w, ngettext (" (and %u more miss in between)", " (and %u more misses in between)",
                                                 others), others);
          g_string_append (w, _("; the capacity is read at the highest load that meets"));
          c->non_monotone = g_string_free (w, FALSE);
          break;
        }

  switch (c->status)
    {
    case PROCURA_CAPACITY_NOT_SATURATED:
      {
        const ProcuraSweepPoint *last = &g_array_index (c->points, ProcuraSweepPoint, c->below);

        c->uncertain = interval_holds (last, threshold_ms);
        c->reason = g_strdup_printf (_("not saturated: %s %s meets %g ms up to the largest measured "
                                     "load, %.4g req/s (%.4g ms), which is a lower bound%s%s%s"),
                                     pname, metric, threshold_ms, last->throughput_rps, last->value_ms,
                                     c->non_monotone != NULL ? "; " : "",
                                     c->non_monotone != NULL ? c->non_monotone : "", how->str);
      }
      break;
    case PROCURA_CAPACITY_MISSES:
      {
        const ProcuraSweepPoint *first = &g_array_index (c->points, ProcuraSweepPoint, 0);

        for (guint i = 0; i < c->points->len; i++)
          c->uncertain |= interval_holds (&g_array_index (c->points, ProcuraSweepPoint, i), threshold_ms);
        c->reason = g_strdup_printf (_("misses the target at every load measured: %s %s is above %g ms "
                                     "at all %u points, %.4g ms already at the lightest (%.4g req/s)%s"),
                                     pname, metric, threshold_ms, c->points->len, first->value_ms,
                                     first->throughput_rps, how->str);
      }
      break;
    case PROCURA_CAPACITY_OK:
    default:
      {
        const ProcuraSweepPoint *b = &g_array_index (c->points, ProcuraSweepPoint, c->below);
        const ProcuraSweepPoint *a = &g_array_index (c->points, ProcuraSweepPoint, c->above);

        c->uncertain = interval_holds (a, threshold_ms) || interval_holds (b, threshold_ms);
        c->reason = g_strdup_printf (_("%s %s crosses %g ms between %.4g req/s (%.4g ms), the highest load "
                                     "that meets, and %.4g req/s (%.4g ms): %.4g req/s by linear "
                                     "interpolation%s%s%s%s"),
                                     pname, metric, threshold_ms, b->throughput_rps, b->value_ms,
                                     a->throughput_rps, a->value_ms, c->capacity_rps,
                                     c->uncertain ? _("; uncertain: the target lies inside a neighbouring "
                                                    "point's confidence interval") : "",
                                     c->non_monotone != NULL ? "; " : "",
                                     c->non_monotone != NULL ? c->non_monotone : "", how->str);
      }
      break;
    }
  g_string_free (how, TRUE);
  read_interval (c);
  return c;
}
