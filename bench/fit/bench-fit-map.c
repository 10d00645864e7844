/* bench-fit-map.c: time a full fit map
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every catalog GPU x TP 1, 2, 4, 8 x 20 contexts (512 to 131,072 tokens) x 20
 * concurrencies (1 to 1,024) for Llama-3.1-70B and for gpt-oss-120b (hybrid attention,
 * MoE): the goal is at most 1 s per map. The peer tools (web calculators, the llm-d
 * capacity planner) compute one cell per request; no peer computes a whole map.
 * Prints the best and median of 7 runs; exits 1 when the median misses the goal.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "procura-fit.h"
#include "procura-gpu-catalog.h"
#include "procura-model-catalog.h"

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static gboolean
bench_model (const char *name)
{
  g_autoptr (ProcuraModelShape) m = procura_model_catalog_lookup (name);
  const ProcuraGpuSpec * const *gpus;
  const int tps[] = { 1, 2, 4, 8 };
  g_autofree gint64 *contexts = NULL;
  g_autofree gint64 *concurrencies = NULL;
  gsize n_gpus = 0, n_ctx = 0, n_conc = 0, cells, fits = 0;
  ProcuraFitRequest r;
  double times[7];

  if (m == NULL)
    {
      fprintf (stderr, "bench-fit-map: %s is not in the model catalog\n", name);
      return FALSE;
    }
  gpus = procura_gpu_catalog_all (&n_gpus);
  contexts = procura_fit_geometric_grid (512, 131072, 20, &n_ctx);
  concurrencies = procura_fit_geometric_grid (1, 1024, 20, &n_conc);
  procura_fit_request_init (&r);
  r.model = m;
  cells = n_gpus * G_N_ELEMENTS (tps) * n_ctx * n_conc;

  for (int run = 0; run < 7; run++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ProcuraFitMap) map = NULL;
      gint64 t0 = g_get_monotonic_time ();

      map = procura_fit_map (&r, gpus, n_gpus, tps, G_N_ELEMENTS (tps), contexts, n_ctx,
                             concurrencies, n_conc, &error);
      times[run] = (g_get_monotonic_time () - t0) / 1e6;
      if (map == NULL)
        {
          fprintf (stderr, "bench-fit-map: %s\n", error->message);
          return FALSE;
        }
      if (run == 0)
        for (gsize i = 0; i < cells; i++)
          fits += map->cells[i].fits;
    }
  qsort (times, 7, sizeof (double), compare_double);
  printf ("%-28s %3zu GPUs x %zu TP x %zu x %zu = %6zu cells (%zu fit): best %.4f s, "
          "median %.4f s (goal <= 1 s)\n", name, n_gpus, G_N_ELEMENTS (tps), n_ctx, n_conc,
          cells, fits, times[0], times[3]);
  return times[3] <= 1.0;
}

int
main (int    argc,
      char **argv)
{
  gboolean ok = TRUE;

  ok &= bench_model ("meta-llama/Llama-3.1-70B");
  ok &= bench_model ("openai/gpt-oss-120b");
  ok &= bench_model ("deepseek-ai/DeepSeek-V3");
  return ok ? 0 : 1;
}
