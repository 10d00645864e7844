/* procura-quantiles.h: sorted quantile summaries of per-request samples
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run's samples can be tens of millions of values (inter-token latencies); a chart of
 * their empirical CDF needs only enough order statistics that every pixel column shows
 * the same step. ProcuraQuantiles (procura-model.h) keeps PROCURA_QUANTILES_GRID of them
 * at evenly spaced ranks (all of them for smaller runs), computed once and kept in the
 * project, so the CDF is drawn without reading or sorting the samples.
 */
#pragma once

#include <glib.h>

#include "procura-model.h"

G_BEGIN_DECLS

/* The order statistics a summary keeps at most, besides the first value above 0. */
#define PROCURA_QUANTILES_GRID 65536

/* The summary of the finite values among @values (any order). NULL when none is finite. */
ProcuraQuantiles *procura_quantiles_new        (const char       *metric,
                                                const double     *values,
                                                gsize             n);
/* The same from @sorted, the ascending finite values. NULL when @n is 0. */
ProcuraQuantiles *procura_quantiles_new_sorted (const char       *metric,
                                                const double     *sorted,
                                                gsize             n);
/* The same summary of the @n values in @v, all finite, which it reorders: the ranks
 * it keeps are selected together with @extra (@n_extra ranks below @n, ascending), so that
 * afterwards v[r] holds the r-th smallest value for each of them, as in a sorted array
 * (for @n up to PROCURA_QUANTILES_GRID, @v is sorted). One selection pass for a summary
 * and a caller's percentiles. NULL when @n is 0. */
ProcuraQuantiles *procura_quantiles_new_select (const char       *metric,
                                                double           *v,
                                                gsize             n,
                                                const gsize      *extra,
                                                gsize             n_extra);
/* The same summary without moving @v: where procura_stats_select_ranks_into() can
 * select without a copy, the summary, and in @extra_out (room for @n_extra) the values
 * of ranks @extra; else NULL, and the caller takes procura_quantiles_new_select() on a
 * copy. */
ProcuraQuantiles *procura_quantiles_new_select_into (const char   *metric,
                                                     const double *v,
                                                     gsize         n,
                                                     const gsize  *extra,
                                                     gsize         n_extra,
                                                     double       *extra_out);
/* The largest distance between the empirical CDF the summary gives and the one of all
 * the samples it summarises, at any x: (largest gap between kept ranks - 1) / n, or
 * over the values above 0 with @positive_only (NAN when none is). 0 when every value
 * is kept. */
double            procura_quantiles_cdf_bound  (const ProcuraQuantiles *q,
                                                gboolean                positive_only);
/* The summary's empirical CDF at @x: the share of values <= @x as far as the kept order
 * statistics tell (within procura_quantiles_cdf_bound() of the true share). With
 * @positive_only, the share among the values above 0 (what a log axis shows). */
double            procura_quantiles_cdf        (const ProcuraQuantiles *q,
                                                double                  x,
                                                gboolean                positive_only);
/* The summary's steps above 0: *@x (the kept values above 0) and *@y (the share of the
 * values above 0 at or below each), both newly allocated; returns their number. */
gsize             procura_quantiles_positive_steps (const ProcuraQuantiles *q,
                                                    double                **x,
                                                    double                **y);
/* Checks a summary read from a file: ranks ascending from 0 to n - 1, values ascending
 * and finite, no gap wider than a summary of n values has. */
gboolean          procura_quantiles_valid      (const ProcuraQuantiles *q);

G_END_DECLS
