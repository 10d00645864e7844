/* test-samples-sorted.c: a run's samples are sorted once and the sort is kept
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "procura-capacity.h"
#include "procura-model.h"
#include "procura-stats.h"

static void
test_sorted_once (void)
{
  g_autoptr (ProcuraRun) run = procura_run_new ();
  double *values = g_new (double, 6);
  const double raw[] = { 30, NAN, 10, INFINITY, 20, 5 };
  const ProcuraSamples *s;
  const double *sorted, *again;
  gsize n = 0, n_again = 0;
  double p50;

  for (guint i = 0; i < G_N_ELEMENTS (raw); i++)
    values[i] = raw[i];
  procura_run_take_samples (run, "itl", values, 6);
  s = procura_run_get_samples (run, "itl");
  g_assert_null (s->sorted);

  sorted = procura_samples_sorted (s, &n);
  g_assert_cmpuint (n, ==, 4);            /* NaN and infinity left out */
  g_assert_cmpfloat (sorted[0], ==, 5);
  g_assert_cmpfloat (sorted[1], ==, 10);
  g_assert_cmpfloat (sorted[2], ==, 20);
  g_assert_cmpfloat (sorted[3], ==, 30);
  /* the samples themselves keep their order */
  g_assert_cmpfloat (s->values[0], ==, 30);

  /* kept: the percentile and a second caller use the same sort */
  p50 = procura_run_metric_percentile (run, "itl", 50, NULL, NULL);
  g_assert_cmpfloat (p50, ==, procura_stats_percentile (sorted, n, 0.5));
  again = procura_samples_sorted (s, &n_again);
  g_assert_true (again == sorted);
  g_assert_cmpuint (n_again, ==, n);

  /* new values: sorted anew */
  values = g_new (double, 3);
  values[0] = 3;
  values[1] = 1;
  values[2] = 2;
  procura_run_take_samples (run, "itl", values, 3);
  s = procura_run_get_samples (run, "itl");
  sorted = procura_samples_sorted (s, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpfloat (sorted[0], ==, 1);
  g_assert_cmpfloat (sorted[2], ==, 3);
  g_assert_cmpfloat (procura_run_metric_percentile (run, "itl", 50, NULL, NULL), ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/samples/sorted-once", test_sorted_once);
  return g_test_run ();
}
