/* test-properties.c: properties of the capacity rule over random sweeps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each property runs over CASES generated sweeps (1 to 8 points, loads and
 * percentiles drawn at random, some runs that must be excluded) from a fixed seed,
 * printed on failure; PROCURA_PROPERTY_SEED=N replays another seed. A capacity that
 * misses at every load counts as 0 req/s.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "procura-capacity.h"

#define CASES 600
#define DEFAULT_SEED 20261201u

static guint32
seed (void)
{
  const char *env = g_getenv ("PROCURA_PROPERTY_SEED");

  return env != NULL ? (guint32) g_ascii_strtoull (env, NULL, 10) : DEFAULT_SEED;
}

static ProcuraRun *
run_reported (gint64 id,
              double rps,
              double p99)
{
  ProcuraRun *r = procura_run_new ();

  r->id = id;
  r->label = g_strdup_printf ("run %" G_GINT64_FORMAT, id);
  r->request_throughput = rps;
  r->output_throughput = rps * 100;
  r->completed = 100;
  r->failed = 0;
  procura_run_add_stat (r, "ttft", "p99", p99, PROCURA_SOURCE_AS_REPORTED, -1);
  return r;
}

/* A random sweep: latency rising with the load on the whole, with noise (so some
 * sweeps are not monotone), and now and then a run to be excluded. */
static GPtrArray *
random_sweep (GRand *rand,
              gint64 *next_id)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_run_free);
  guint n = (guint) g_rand_int_range (rand, 1, 9);

  for (guint i = 0; i < n; i++)
    {
      double rps = g_rand_double_range (rand, 0.1, 50);
      double p99 = 20 * exp (rps / g_rand_double_range (rand, 5, 30)) * g_rand_double_range (rand, 0.5, 2.0);
      ProcuraRun *r = run_reported ((*next_id)++, rps, p99);

      switch (g_rand_int_range (rand, 0, 12))
        {
        case 0:   /* every request failed */
          r->completed = 0;
          r->failed = 50;
          break;
        case 1:   /* stopped part way */
          r->completed = 40;
          r->failed = 60;
          break;
        default:
          break;
        }
      g_ptr_array_add (runs, r);
    }
  return runs;
}

static double
capacity (GPtrArray *runs,
          double     threshold,
          double    *lo,
          double    *hi)
{
  ProcuraCapacityOptions o = { 0 };
  g_autoptr(ProcuraCapacity) c = NULL;

  o.resamples = 200;
  c = procura_capacity_from_runs ((const ProcuraRun * const *) runs->pdata, runs->len, "ttft", 99,
                                  threshold, &o);
  if (lo != NULL)
    *lo = c->capacity_lo_rps;
  if (hi != NULL)
    *hi = c->capacity_hi_rps;
  if (c->status == PROCURA_CAPACITY_MISSES || c->status == PROCURA_CAPACITY_NO_DATA)
    return 0;
  return c->capacity_rps;
}

static double
max_load (GPtrArray *runs)
{
  double m = 0;

  for (guint i = 0; i < runs->len; i++)
    m = MAX (m, ((ProcuraRun *) runs->pdata[i])->request_throughput);
  return m;
}

/* Adding a run that meets the target at a load above the capacity never lowers it. */
static void
test_adding_a_meeting_run (void)
{
  guint32 s = seed ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (s);
  gint64 id = 1;

  for (guint k = 0; k < CASES; k++)
    {
      g_autoptr(GPtrArray) runs = random_sweep (rand, &id);
      double threshold = g_rand_double_range (rand, 30, 3000);
      double before = capacity (runs, threshold, NULL, NULL), after;
      double load = g_rand_double_range (rand, before, MAX (before, max_load (runs)) * 1.5 + 1);

      if (!(load > before))
        load = before + 0.5;
      g_ptr_array_add (runs, run_reported (id++, load, g_rand_double_range (rand, 1, threshold)));
      after = capacity (runs, threshold, NULL, NULL);
      if (!(after >= before - 1e-9 * MAX (1, before)))
        {
          g_test_fail_printf ("adding a meeting run at %g req/s lowered the capacity from %g to %g "
                              "(seed %u, case %u)", load, before, after, s, k);
          return;
        }
    }
}

/* Tightening the target never raises the capacity. */
static void
test_tightening_the_target (void)
{
  guint32 s = seed () + 1;
  g_autoptr(GRand) rand = g_rand_new_with_seed (s);
  gint64 id = 1;

  for (guint k = 0; k < CASES; k++)
    {
      g_autoptr(GPtrArray) runs = random_sweep (rand, &id);
      double loose = g_rand_double_range (rand, 30, 3000);
      double tight = loose * g_rand_double_range (rand, 0.2, 1.0);
      double a = capacity (runs, loose, NULL, NULL), b = capacity (runs, tight, NULL, NULL);

      if (!(b <= a + 1e-9 * MAX (1, a)))
        {
          g_test_fail_printf ("tightening the target from %g to %g ms raised the capacity from %g to %g "
                              "(seed %u, case %u)", loose, tight, a, b, s, k);
          return;
        }
    }
}

/* The order the runs come in does not matter. */
static void
test_order_does_not_matter (void)
{
  guint32 s = seed () + 2;
  g_autoptr(GRand) rand = g_rand_new_with_seed (s);
  gint64 id = 1;

  for (guint k = 0; k < CASES; k++)
    {
      g_autoptr(GPtrArray) runs = random_sweep (rand, &id);
      double threshold = g_rand_double_range (rand, 30, 3000);
      double a = capacity (runs, threshold, NULL, NULL), b;

      for (guint i = runs->len; i > 1; i--)
        {
          guint j = (guint) g_rand_int_range (rand, 0, (gint32) i);
          gpointer t = runs->pdata[i - 1];
          runs->pdata[i - 1] = runs->pdata[j];
          runs->pdata[j] = t;
        }
      b = capacity (runs, threshold, NULL, NULL);
      if (a != b)
        {
          g_test_fail_printf ("shuffling the runs changed the capacity from %g to %g (seed %u, case %u)",
                              a, b, s, k);
          return;
        }
    }
}

/* With per-request samples, the capacity interval holds the reading. */
static void
test_interval_holds_the_reading (void)
{
  guint32 s = seed () + 3;
  g_autoptr(GRand) rand = g_rand_new_with_seed (s);

  for (guint k = 0; k < CASES; k++)
    {
      g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_run_free);
      guint n = (guint) g_rand_int_range (rand, 1, 6);
      double threshold = g_rand_double_range (rand, 30, 3000), c, lo, hi;

      for (guint i = 0; i < n; i++)
        {
          ProcuraRun *r = procura_run_new ();
          gsize m = (gsize) g_rand_int_range (rand, 20, 120);
          double *v = g_new (double, m);
          double rps = g_rand_double_range (rand, 0.1, 50);
          double scale = 20 * exp (rps / g_rand_double_range (rand, 5, 30));

          for (gsize j = 0; j < m; j++)
            v[j] = scale * g_rand_double_range (rand, 0.2, 3.0);
          r->id = i + 1;
          r->label = g_strdup_printf ("run %u", i + 1);
          r->request_throughput = rps;
          procura_run_take_samples (r, "ttft", v, m);
          g_ptr_array_add (runs, r);
        }
      c = capacity (runs, threshold, &lo, &hi);
      if (!(lo <= c + 1e-9 && (c <= hi + 1e-9 || (c == 0 && isnan (hi)))))
        {
          g_test_fail_printf ("the interval [%g, %g] does not hold the capacity %g (seed %u, case %u)",
                              lo, hi, c, s, k);
          return;
        }
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/properties/capacity/adding-a-meeting-run", test_adding_a_meeting_run);
  g_test_add_func ("/analysis/properties/capacity/tightening-the-target", test_tightening_the_target);
  g_test_add_func ("/analysis/properties/capacity/order", test_order_does_not_matter);
  g_test_add_func ("/analysis/properties/capacity/interval", test_interval_holds_the_reading);
  return g_test_run ();
}
