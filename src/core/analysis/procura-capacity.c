/* procura-capacity.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

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
      double *v, r;
      gsize n = sorted_finite (s, &v);

      r = procura_stats_percentile (v, n, percentile / 100.0);
      g_free (v);
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
  g_clear_pointer (&c->points, g_array_unref);
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
  GString *how;
  int first_miss = -1;
  guint n_recomputed = 0;

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
  c->below = c->above = -1;
  c->samples_min = -1;
  c->points = g_array_new (FALSE, TRUE, sizeof (ProcuraSweepPoint));
  g_array_set_clear_func (c->points, point_clear);

  for (guint i = 0; i < n_runs; i++)
    {
      const ProcuraRun *run = runs[i];
      const ProcuraSamples *s;
      ProcuraSweepPoint p = { 0 };

      if (run == NULL || !isfinite (run->request_throughput) || run->request_throughput < 0)
        {
          c->skipped++;
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
        g_string_append_printf (how, "; percentiles recomputed from per-request samples (n ≥ %" G_GINT64_FORMAT
                                ", %u-resample bootstrap %.0f %% intervals)",
                                c->samples_min, opt.resamples, opt.level * 100);
      else if (n_recomputed > 0)
        g_string_append_printf (how, "; %u of %u points recomputed from samples, the others as reported",
                                n_recomputed, c->points->len);
      else
        g_string_append (how, "; percentiles as reported by the benchmark files");
    }

  if (c->points->len == 0 || !isfinite (threshold_ms))
    {
      c->status = PROCURA_CAPACITY_NO_DATA;
      if (!isfinite (threshold_ms))
        c->reason = g_strdup ("no latency target: set the metric, percentile and threshold in the brief");
      else
        c->reason = g_strdup_printf ("no benchmark run with a request throughput and %s %s",
                                     pname, metric != NULL ? metric : "(no metric)");
      g_string_free (how, TRUE);
      return c;
    }

  for (guint i = 0; i < c->points->len; i++)
    if (!g_array_index (c->points, ProcuraSweepPoint, i).meets)
      {
        first_miss = (int) i;
        break;
      }

  if (first_miss < 0)
    {
      const ProcuraSweepPoint *last = &g_array_index (c->points, ProcuraSweepPoint, c->points->len - 1);

      c->status = PROCURA_CAPACITY_NOT_SATURATED;
      c->below = (int) c->points->len - 1;
      c->capacity_rps = last->throughput_rps;
      c->capacity_tok_s = last->throughput_tok_s;
      c->uncertain = interval_holds (last, threshold_ms);
      c->reason = g_strdup_printf ("not saturated: every point meets %s %s ≤ %g ms; the largest measured "
                                   "load, %.4g req/s (%.4g ms), is a lower bound%s",
                                   pname, metric, threshold_ms, last->throughput_rps, last->value_ms, how->str);
    }
  else if (first_miss == 0)
    {
      const ProcuraSweepPoint *first = &g_array_index (c->points, ProcuraSweepPoint, 0);

      c->status = PROCURA_CAPACITY_MISSES;
      c->above = 0;
      c->uncertain = interval_holds (first, threshold_ms);
      c->reason = g_strdup_printf ("misses the target: %s %s is %.4g ms already at the lightest load "
                                   "measured (%.4g req/s), above %g ms%s",
                                   pname, metric, first->value_ms, first->throughput_rps, threshold_ms, how->str);
    }
  else
    {
      const ProcuraSweepPoint *b = &g_array_index (c->points, ProcuraSweepPoint, first_miss - 1);
      const ProcuraSweepPoint *a = &g_array_index (c->points, ProcuraSweepPoint, first_miss);
      double t = a->value_ms > b->value_ms ? (threshold_ms - b->value_ms) / (a->value_ms - b->value_ms) : 0;

      t = CLAMP (t, 0.0, 1.0);
      c->status = PROCURA_CAPACITY_OK;
      c->below = first_miss - 1;
      c->above = first_miss;
      c->capacity_rps = b->throughput_rps + t * (a->throughput_rps - b->throughput_rps);
      if (isfinite (a->throughput_tok_s) && isfinite (b->throughput_tok_s))
        c->capacity_tok_s = b->throughput_tok_s + t * (a->throughput_tok_s - b->throughput_tok_s);
      c->uncertain = interval_holds (a, threshold_ms) || interval_holds (b, threshold_ms);
      c->reason = g_strdup_printf ("%s %s crosses %g ms between %.4g req/s (%.4g ms) and %.4g req/s "
                                   "(%.4g ms): %.4g req/s by linear interpolation%s%s",
                                   pname, metric, threshold_ms, b->throughput_rps, b->value_ms,
                                   a->throughput_rps, a->value_ms, c->capacity_rps,
                                   c->uncertain ? "; uncertain: the target lies inside a neighbouring "
                                                  "point's confidence interval" : "",
                                   how->str);
    }
  g_string_free (how, TRUE);
  return c;
}
