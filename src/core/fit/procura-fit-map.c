/* procura-fit-map.c: the fit map (GPU x TP x context x concurrency) for the heat map
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every cell is one full procura_fit_compute (no allocation, a few microseconds), so
 * the map says exactly what a single fit would; bench/fit/bench-fit-map times the full
 * catalog x TP 1/2/4/8 x 20 x 20 grid.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "procura-fit.h"

void
procura_fit_map_free (ProcuraFitMap *map)
{
  if (map == NULL)
    return;
  if (map->gpu_ids)
    for (gsize i = 0; i < map->n_gpus; i++)
      g_free (map->gpu_ids[i]);
  if (map->gpu_names)
    for (gsize i = 0; i < map->n_gpus; i++)
      g_free (map->gpu_names[i]);
  g_free (map->gpu_ids);
  g_free (map->gpu_names);
  g_free (map->tps);
  g_free (map->contexts);
  g_free (map->concurrencies);
  g_free (map->kv_tokens);
  g_free (map->weights_bytes);
  g_free (map->kv_pool_bytes);
  g_free (map->cells);
  g_free (map);
}

const ProcuraFitMapCell *
procura_fit_map_cell (const ProcuraFitMap *map,
                      gsize                gpu,
                      gsize                tp,
                      gsize                context,
                      gsize                concurrency)
{
  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (gpu < map->n_gpus && tp < map->n_tps, NULL);
  g_return_val_if_fail (context < map->n_contexts && concurrency < map->n_concurrencies, NULL);
  return &map->cells[((gpu * map->n_tps + tp) * map->n_contexts + context)
                     * map->n_concurrencies + concurrency];
}

gint64 *
procura_fit_geometric_grid (gint64  lo,
                            gint64  hi,
                            gsize   n,
                            gsize  *n_out)
{
  gint64 *v;
  gsize k = 0;

  g_return_val_if_fail (lo >= 1 && hi >= lo && n >= 1, NULL);
  v = g_new (gint64, n);
  for (gsize i = 0; i < n; i++)
    {
      double x = n == 1 ? (double) lo
                 : exp (log ((double) lo) + (log ((double) hi) - log ((double) lo)) * i / (n - 1));
      gint64 r = (gint64) llround (x);

      r = CLAMP (r, lo, hi);
      if (k > 0 && r <= v[k - 1])
        r = v[k - 1] + 1;   /* keep the values distinct at the low end */
      if (r <= hi)
        v[k++] = r;
    }
  if (n_out)
    *n_out = k;
  return v;
}

ProcuraFitMap *
procura_fit_map (const ProcuraFitRequest            *base,
                 const ProcuraGpuSpec * const        *gpus,
                 gsize                                n_gpus,
                 const int                           *tps,
                 gsize                                n_tps,
                 const gint64                        *contexts,
                 gsize                                n_contexts,
                 const gint64                        *concurrencies,
                 gsize                                n_concurrencies,
                 GError                             **error)
{
  return procura_fit_map_full (base, gpus, NULL, n_gpus, tps, n_tps, contexts, n_contexts,
                               concurrencies, n_concurrencies, error);
}

ProcuraFitMap *
procura_fit_map_full (const ProcuraFitRequest            *base,
                      const ProcuraGpuSpec * const        *gpus,
                      const int                           *pps,
                      gsize                                n_gpus,
                      const int                           *tps,
                      gsize                                n_tps,
                      const gint64                        *contexts,
                      gsize                                n_contexts,
                      const gint64                        *concurrencies,
                      gsize                                n_concurrencies,
                      GError                             **error)
{
  g_autoptr (ProcuraFitMap) map = NULL;
  ProcuraFitRequest r;
  ProcuraFitResult probe;

  g_return_val_if_fail (base != NULL, NULL);
  g_return_val_if_fail (n_gpus == 0 || gpus != NULL, NULL);

  /* validate the base once, on any memory size */
  r = *base;
  if (!procura_is_set (r.usable_memory_bytes))
    r.usable_memory_bytes = 80 * PROCURA_GIB;
  if (!procura_fit_compute (&r, &probe, error))
    return NULL;
  for (gsize i = 0; i < n_tps; i++)
    if (tps[i] < 1)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     _("fit map: TP %d is not a positive integer"), tps[i]);
        return NULL;
      }
  for (gsize i = 0; i < n_contexts; i++)
    if (contexts[i] < 1)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     _("fit map: context %lld is not a positive number of tokens"),
                     (long long) contexts[i]);
        return NULL;
      }
  for (gsize i = 0; i < n_concurrencies; i++)
    if (concurrencies[i] < 1)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     _("fit map: concurrency %lld is not a positive integer"),
                     (long long) concurrencies[i]);
        return NULL;
      }

  map = g_new0 (ProcuraFitMap, 1);
  map->n_gpus = n_gpus;
  map->n_tps = n_tps;
  map->n_contexts = n_contexts;
  map->n_concurrencies = n_concurrencies;
  map->gpu_ids = g_new0 (char *, n_gpus + 1);
  map->gpu_names = g_new0 (char *, n_gpus + 1);
  map->tps = g_memdup2 (tps, sizeof (int) * n_tps);
  map->contexts = g_memdup2 (contexts, sizeof (gint64) * n_contexts);
  map->concurrencies = g_memdup2 (concurrencies, sizeof (gint64) * n_concurrencies);
  map->kv_tokens = g_new0 (gint64, n_gpus * n_tps);
  map->weights_bytes = g_new0 (double, n_gpus * n_tps);
  map->kv_pool_bytes = g_new0 (double, n_gpus * n_tps);
  map->cells = g_new0 (ProcuraFitMapCell, n_gpus * n_tps * n_contexts * n_concurrencies);

  for (gsize g = 0; g < n_gpus; g++)
    {
      double usable = procura_fit_gpu_usable_bytes (gpus[g], NULL);

      map->gpu_ids[g] = g_strdup (gpus[g]->id);
      map->gpu_names[g] = g_strdup (gpus[g]->name);
      for (gsize t = 0; t < n_tps; t++)
        {
          gsize pair = g * n_tps + t;

          r = *base;
          r.usable_memory_bytes = usable;
          r.gpu_id = gpus[g]->id;
          r.tp = tps[t];
          if (pps != NULL && pps[g] >= 1)
            r.pp = pps[g];
          for (gsize c = 0; c < n_contexts; c++)
            for (gsize k = 0; k < n_concurrencies; k++)
              {
                ProcuraFitResult res;
                ProcuraFitMapCell *cell = &map->cells[(pair * n_contexts + c) * n_concurrencies + k];

                r.context_tokens = contexts[c];
                r.concurrency = concurrencies[k];
                if (!procura_fit_compute (&r, &res, error))
                  return NULL;
                if (c == 0 && k == 0)
                  {
                    map->weights_bytes[pair] = res.weights_bytes;
                    map->kv_pool_bytes[pair] = res.kv_pool_bytes;
                    map->kv_tokens[pair] = (res.limit == PROCURA_FIT_LIMIT_WEIGHTS
                                            || res.limit == PROCURA_FIT_LIMIT_PARALLELISM)
                                           ? -1 : res.kv_tokens;
                  }
                cell->fits = res.fits;
                cell->limit = res.limit;
                cell->headroom_gib = (float) (res.headroom_bytes / PROCURA_GIB);
                cell->max_concurrency = (float) res.max_concurrency;
                cell->kv_fraction = res.kv_pool_bytes > 0
                                    ? (float) (res.kv_needed_bytes / res.kv_pool_bytes)
                                    : INFINITY;
              }
        }
    }
  return g_steal_pointer (&map);
}
