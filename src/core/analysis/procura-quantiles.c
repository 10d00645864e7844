/* procura-quantiles.c: sorted quantile summaries of per-request samples
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "procura-quantiles.h"
#include "procura-stats.h"

/* The widest gap between kept ranks a summary of @n values has. */
static guint64
max_gap (gsize n)
{
  if (n <= PROCURA_QUANTILES_GRID)
    return 1;
  return ((guint64) n - 1 + PROCURA_QUANTILES_GRID - 2) / (PROCURA_QUANTILES_GRID - 1);
}

/* The ranks a summary of @n > PROCURA_QUANTILES_GRID values keeps, when the
 * @first_positive smallest are <= 0: ascending and distinct, written to @ks (room for
 * GRID + 1); returns their number. */
static gsize
grid_ranks (gsize  n,
            gsize  first_positive,
            gsize *ks)
{
  gsize k = 0;

  for (guint64 j = 0; j < PROCURA_QUANTILES_GRID; j++)
    {
      /* floor (j (n - 1) / (GRID - 1)): 0 first, n - 1 last, gaps <= max_gap (n) */
      guint64 r = j * ((guint64) n - 1) / (PROCURA_QUANTILES_GRID - 1);

      /* the first value above 0 starts the part a log axis shows: keep it too */
      if (first_positive < n && first_positive > (k > 0 ? ks[k - 1] : 0) && first_positive < r)
        ks[k++] = first_positive;
      if (k > 0 && ks[k - 1] == r)
        continue;
      ks[k++] = r;
    }
  return k;
}

/* The summary of @n values keeping ranks @ks, read from @ordered: a sorted array, or one
 * where just those ranks are in place. */
static ProcuraQuantiles *
summarise (const char   *metric,
           const double *ordered,
           gsize         n,
           const gsize  *ks,
           gsize         nk)
{
  ProcuraQuantiles *q = g_new0 (ProcuraQuantiles, 1);

  q->metric = g_strdup (metric);
  q->n = n;
  q->k = nk;
  q->ranks = g_new (guint64, nk);
  q->values = g_new (double, nk);
  for (gsize j = 0; j < nk; j++)
    {
      q->ranks[j] = ks[j];
      q->values[j] = ordered[ks[j]];
    }
  return q;
}

static ProcuraQuantiles *
summarise_all (const char   *metric,
               const double *sorted,
               gsize         n)
{
  ProcuraQuantiles *q = g_new0 (ProcuraQuantiles, 1);

  q->metric = g_strdup (metric);
  q->n = n;
  q->k = n;
  q->ranks = g_new (guint64, n);
  q->values = g_memdup2 (sorted, n * sizeof (double));
  for (gsize i = 0; i < n; i++)
    q->ranks[i] = i;
  return q;
}

ProcuraQuantiles *
procura_quantiles_new_sorted (const char   *metric,
                              const double *sorted,
                              gsize         n)
{
  g_autofree gsize *ks = NULL;
  gsize first_positive = 0, nk;

  g_return_val_if_fail (metric != NULL, NULL);
  if (n == 0 || sorted == NULL)
    return NULL;
  if (n <= PROCURA_QUANTILES_GRID)
    return summarise_all (metric, sorted, n);
  for (gsize hi = n; first_positive < hi;)
    {
      gsize mid = first_positive + (hi - first_positive) / 2;

      if (sorted[mid] > 0)
        hi = mid;
      else
        first_positive = mid + 1;
    }
  ks = g_new (gsize, PROCURA_QUANTILES_GRID + 1);
  nk = grid_ranks (n, first_positive, ks);
  return summarise (metric, sorted, n, ks, nk);
}

ProcuraQuantiles *
procura_quantiles_new (const char   *metric,
                       const double *values,
                       gsize         n)
{
  g_autofree double *v = NULL;
  g_autofree gsize *ks = NULL;
  gsize m = 0, not_positive = 0, nk;

  g_return_val_if_fail (metric != NULL, NULL);
  if (values == NULL || n == 0)
    return NULL;
  v = g_new (double, n);
  for (gsize i = 0; i < n; i++)
    if (isfinite (values[i]))
      {
        not_positive += values[i] <= 0;
        v[m++] = values[i];
      }
  if (m <= PROCURA_QUANTILES_GRID)
    {
      procura_stats_sort (v, m);
      return procura_quantiles_new_sorted (metric, v, m);
    }
  /* only the kept ranks are put in place (the same values a full sort puts there): for
   * millions of values, one counting pass instead of a sort of them all */
  ks = g_new (gsize, PROCURA_QUANTILES_GRID + 1);
  nk = grid_ranks (m, not_positive, ks);
  procura_stats_select_ranks (v, m, ks, nk);
  return summarise (metric, v, m, ks, nk);
}

/* The ranks a summary of the @n > PROCURA_QUANTILES_GRID values @v keeps (*@grid, *@ng of
 * them), and their union with the caller's @extra (ascending, below @n): returned, *@na
 * of them, ascending and distinct, so that one selection pass puts both in place. NULL
 * when an extra rank is out of range. */
static gsize *
grid_and_extra (const double *v,
                gsize         n,
                const gsize  *extra,
                gsize         n_extra,
                gsize       **grid,
                gsize        *ng,
                gsize        *na)
{
  g_autofree gsize *all = NULL;
  gsize not_positive = 0, i = 0, j = 0, k = 0;

  for (gsize x = 0; x < n; x++)
    not_positive += v[x] <= 0;
  *grid = g_new (gsize, PROCURA_QUANTILES_GRID + 1);
  *ng = grid_ranks (n, not_positive, *grid);
  all = g_new (gsize, *ng + n_extra);
  while (i < *ng || j < n_extra)
    {
      gsize r;

      if (j >= n_extra || (i < *ng && (*grid)[i] <= extra[j]))
        r = (*grid)[i++];
      else
        r = extra[j++];
      g_return_val_if_fail (r < n, NULL);
      if (k == 0 || all[k - 1] != r)
        all[k++] = r;
    }
  *na = k;
  return g_steal_pointer (&all);
}

ProcuraQuantiles *
procura_quantiles_new_select (const char  *metric,
                              double      *v,
                              gsize        n,
                              const gsize *extra,
                              gsize        n_extra)
{
  g_autofree gsize *grid = NULL;
  g_autofree gsize *all = NULL;
  gsize ng, na;

  g_return_val_if_fail (metric != NULL, NULL);
  if (v == NULL || n == 0)
    return NULL;
  if (n <= PROCURA_QUANTILES_GRID)
    {
      /* every value is kept: the sort puts every rank, the extra ones too, in place */
      procura_stats_sort (v, n);
      return procura_quantiles_new_sorted (metric, v, n);
    }
  all = grid_and_extra (v, n, extra, n_extra, &grid, &ng, &na);
  if (all == NULL)
    return NULL;
  procura_stats_select_ranks (v, n, all, na);
  return summarise (metric, v, n, grid, ng);
}

ProcuraQuantiles *
procura_quantiles_new_select_into (const char   *metric,
                                   const double *v,
                                   gsize         n,
                                   const gsize  *extra,
                                   gsize         n_extra,
                                   double       *extra_out)
{
  g_autofree gsize *grid = NULL;
  g_autofree gsize *all = NULL;
  g_autofree double *at = NULL;
  ProcuraQuantiles *q;
  gsize ng, na;

  g_return_val_if_fail (metric != NULL, NULL);
  /* too few values for a selection that moves none: say so before any pass over them */
  if (v == NULL || n <= PROCURA_QUANTILES_GRID || n < PROCURA_STATS_BUCKET_PASS_MIN)
    return NULL;
  all = grid_and_extra (v, n, extra, n_extra, &grid, &ng, &na);
  if (all == NULL)
    return NULL;
  at = g_new (double, na);
  if (!procura_stats_select_ranks_into (v, n, all, na, at))
    return NULL;
  q = g_new0 (ProcuraQuantiles, 1);
  q->metric = g_strdup (metric);
  q->n = n;
  q->k = ng;
  q->ranks = g_new (guint64, ng);
  q->values = g_new (double, ng);
  /* both lists are ascending and within @all: one walk finds each rank's value */
  for (gsize a = 0, g = 0, e = 0; a < na; a++)
    {
      if (g < ng && grid[g] == all[a])
        {
          q->ranks[g] = grid[g];
          q->values[g] = at[a];
          g++;
        }
      while (e < n_extra && extra[e] == all[a])
        extra_out[e++] = at[a];
    }
  return q;
}

/* The index of the first kept value above 0 (k when none). */
static gsize
first_positive_index (const ProcuraQuantiles *q)
{
  gsize lo = 0, hi = q->k;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (q->values[mid] > 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

double
procura_quantiles_cdf_bound (const ProcuraQuantiles *q,
                             gboolean                positive_only)
{
  guint64 gap = 1;
  gsize j0 = 0;

  g_return_val_if_fail (q != NULL && q->n > 0, NAN);
  if (positive_only)
    {
      j0 = first_positive_index (q);
      if (j0 == q->k)
        return NAN;
    }
  for (gsize j = j0 + 1; j < q->k; j++)
    gap = MAX (gap, q->ranks[j] - q->ranks[j - 1]);
  return (double) (gap - 1) / (double) (q->n - q->ranks[j0]);
}

double
procura_quantiles_cdf (const ProcuraQuantiles *q,
                       double                  x,
                       gboolean                positive_only)
{
  gsize lo = 0, hi, jp = 0;
  guint64 base = 0, count;

  g_return_val_if_fail (q != NULL && q->n > 0, NAN);
  if (positive_only)
    {
      jp = first_positive_index (q);
      if (jp == q->k)
        return NAN;
      base = q->ranks[jp];
      lo = jp;
    }
  count = q->n - base;
  /* the last kept value <= x: at least its rank + 1 values are <= x */
  hi = q->k;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (q->values[mid] <= x)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == jp)
    return 0;
  return (double) (q->ranks[lo - 1] + 1 - base) / (double) count;
}

gsize
procura_quantiles_positive_steps (const ProcuraQuantiles  *q,
                                  double                 **x,
                                  double                 **y)
{
  gsize jp, m;
  guint64 base, count;

  g_return_val_if_fail (q != NULL && x != NULL && y != NULL, 0);
  jp = first_positive_index (q);
  m = q->k - jp;
  *x = NULL;
  *y = NULL;
  if (m == 0)
    return 0;
  base = q->ranks[jp];
  count = q->n - base;
  *x = g_memdup2 (q->values + jp, m * sizeof (double));
  *y = g_new (double, m);
  for (gsize j = 0; j < m; j++)
    (*y)[j] = (double) (q->ranks[jp + j] + 1 - base) / (double) count;
  return m;
}

gboolean
procura_quantiles_valid (const ProcuraQuantiles *q)
{
  guint64 gap;

  if (q == NULL || q->metric == NULL || q->n == 0 || q->k == 0 || q->k > q->n
      || q->k > PROCURA_QUANTILES_GRID + 1 || q->ranks == NULL || q->values == NULL)
    return FALSE;
  if (q->ranks[0] != 0 || q->ranks[q->k - 1] != q->n - 1)
    return FALSE;
  gap = max_gap (q->n);
  for (gsize j = 0; j < q->k; j++)
    {
      if (!isfinite (q->values[j]))
        return FALSE;
      if (j > 0 && (q->ranks[j] <= q->ranks[j - 1] || q->ranks[j] - q->ranks[j - 1] > gap
                    || q->values[j] < q->values[j - 1]))
        return FALSE;
    }
  return TRUE;
}
