/* test-model.c: the plain data structs of the model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_MADVISE
# include <sys/mman.h>
#endif

#include "procura-model.h"
#include "procura-util.h"

static void
test_run_stats (void)
{
  g_autoptr (ProcuraRun) run = procura_run_new ();
  const ProcuraStat *s;

  g_assert_true (isnan (run->request_throughput));
  g_assert_cmpint (run->completed, ==, -1);

  procura_run_add_stat (run, "ttft", "p99", 120.0, PROCURA_SOURCE_AS_REPORTED, -1);
  s = procura_run_get_stat (run, "ttft", "p99");
  g_assert_nonnull (s);
  g_assert_cmpfloat (s->value, ==, 120.0);
  g_assert_cmpint (s->source, ==, PROCURA_SOURCE_AS_REPORTED);

  /* the recomputed figure wins, the reported one is kept */
  procura_run_add_stat (run, "ttft", "p99", 118.5, PROCURA_SOURCE_RECOMPUTED, 1000);
  s = procura_run_get_stat (run, "ttft", "p99");
  g_assert_cmpfloat (s->value, ==, 118.5);
  g_assert_cmpint (s->samples, ==, 1000);
  g_assert_cmpuint (run->stats->len, ==, 2);

  /* same metric, stat and source replaces */
  procura_run_add_stat (run, "ttft", "p99", 121.0, PROCURA_SOURCE_AS_REPORTED, -1);
  g_assert_cmpuint (run->stats->len, ==, 2);
  g_assert_null (procura_run_get_stat (run, "itl", "p99"));
}

static void
test_run_samples (void)
{
  g_autoptr (ProcuraRun) run = procura_run_new ();
  double *v = g_new (double, 3);
  const ProcuraSamples *s;

  v[0] = 1; v[1] = 2; v[2] = 3;
  procura_run_take_samples (run, "ttft", v, 3);
  s = procura_run_get_samples (run, "ttft");
  g_assert_nonnull (s);
  g_assert_cmpuint (s->n, ==, 3);
  g_assert_cmpfloat (s->values[2], ==, 3);
  g_assert_null (procura_run_get_samples (run, "itl"));

  procura_run_add_warning (run, "p99 (%g ms) below p50", 3.0);
  g_assert_cmpstr (g_ptr_array_index (run->warnings, 0), ==, "p99 (3 ms) below p50");
}

static void
test_brief_missing (void)
{
  g_autoptr (ProcuraBrief) b = procura_brief_new ();
  g_auto (GStrv) missing = procura_brief_missing (b);

  g_assert_true (g_strv_contains ((const char * const *) missing, "workload_type"));
  g_assert_true (g_strv_contains ((const char * const *) missing, "latency_target"));
  g_assert_cmpuint (g_strv_length (missing), ==, 9);

  b->workload_type = g_strdup ("online-inference");
  b->model_shape = g_strdup ("meta-llama/Llama-3.1-8B-Instruct");
  b->input_tokens = 1000;
  b->output_tokens = 250;
  b->success_unit = g_strdup ("accepted response");
  b->slo_metric = g_strdup ("ttft");
  b->slo_percentile = 99;
  b->slo_threshold_ms = 500;
  b->duty_cycle = g_strdup ("always-on");
  b->operating_boundary = g_strdup ("cloud");
  b->tooling = g_strdup ("vllm");
  b->demand_average = 20;
  b->demand_peak = 30;
  g_strfreev (missing);
  missing = procura_brief_missing (b);
  g_assert_cmpuint (g_strv_length (missing), ==, 0);
}

static void
test_quote_price (void)
{
  g_autoptr (ProcuraQuote) q = procura_quote_new ();
  g_autoptr (ProcuraQuote) c = NULL;

  g_assert_true (isnan (procura_quote_price_per_gpu_hour (q)));
  q->price_per_hour = 20.0;
  q->gpu_count = 8;
  q->provider = g_strdup ("lambda");
  g_assert_cmpfloat (procura_quote_price_per_gpu_hour (q), ==, 2.5);
  c = procura_quote_copy (q);
  g_assert_cmpstr (c->provider, ==, "lambda");
  g_assert_true (c->provider != q->provider);
}

static void
test_project_runs_for (void)
{
  g_autoptr (ProcuraProject) p = procura_project_new ();
  g_autoptr (GPtrArray) runs = NULL;

  for (int i = 0; i < 5; i++)
    {
      ProcuraRun *r = procura_run_new ();
      r->candidate_id = i % 2 ? 7 : 9;
      g_ptr_array_add (p->runs, r);
    }
  runs = procura_project_runs_for (p, 7);
  g_assert_cmpuint (runs->len, ==, 2);
}

static void
test_util (void)
{
  g_autofree char *hex = procura_sha256_hex ("abc", 3);

  g_assert_cmpstr (hex, ==, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  g_setenv ("SOURCE_DATE_EPOCH", "86400", TRUE);
  {
    g_autofree char *now = procura_now_iso8601 ();
    g_assert_cmpstr (now, ==, "1970-01-02T00:00:00Z");
    g_assert_cmpint (procura_days_since ("1970-01-01"), ==, 1);
    g_assert_cmpint (procura_days_since ("garbage"), ==, -1);
  }
  g_unsetenv ("SOURCE_DATE_EPOCH");
}

/* procura_memory_grow(): what was used survives every growth, below and above the 1 MiB
 * where it stops reallocating in place */
static void
test_memory_grow (void)
{
  gsize cap = 1000, n = 0;
  guint64 *v = g_new (guint64, cap);

  while (cap < ((gsize) 24 << 20) / sizeof (guint64))
    {
      for (; n < cap; n++)
        v[n] = n * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
      v = procura_memory_grow (v, n * sizeof (guint64), 2 * cap * sizeof (guint64));
      cap *= 2;
      for (gsize i = 0; i < n; i++)
        if (v[i] != i * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15))
          g_error ("grown to %" G_GSIZE_FORMAT " values: value %" G_GSIZE_FORMAT " changed", cap, i);
    }
  /* from nothing */
  g_free (v);
  v = procura_memory_grow (NULL, 0, (gsize) 8 << 20);
  v[((gsize) 8 << 20) / sizeof (guint64) - 1] = 7;
  g_free (v);
}

/* After procura_memory_tune_for_batch(), what the heap gives next lies on pages advised
 * for huge pages (the "hg" flag of its mapping). In a fresh process: the tests before
 * leave free blocks in the heap that malloc would hand out first. */
static gboolean
mapping_advised_huge (gconstpointer addr)
{
  g_autofree char *smaps = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean inside = FALSE;

  if (!g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL))
    return FALSE;
  lines = g_strsplit (smaps, "\n", -1);
  for (char **l = lines; *l != NULL; l++)
    {
      guint64 lo, hi;

      if (sscanf (*l, "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x ", &lo, &hi) == 2
          && strchr (*l, ' ') != NULL && strchr (*l, '-') < strchr (*l, ' '))
        inside = (guint64) (uintptr_t) addr >= lo && (guint64) (uintptr_t) addr < hi;
      else if (inside && g_str_has_prefix (*l, "VmFlags:"))
        return strstr (*l, " hg") != NULL;
    }
  return FALSE;
}

static gpointer
alloc_page_cache (gpointer data)
{
  return g_malloc0 (65536 + 256);
}

static void
test_heap_huge_pages (void)
{
  gboolean expected = FALSE;

#if defined (HAVE_MALLOPT) && defined (HAVE_MADVISE) && defined (MADV_HUGEPAGE) \
    && !PROCURA_WITH_ASAN
  expected = g_file_test ("/proc/self/smaps", G_FILE_TEST_EXISTS);
#endif
  if (!expected)
    {
      g_test_skip ("no malloc tuning, madvise or /proc/self/smaps here, or AddressSanitizer's allocator");
      return;
    }
  if (g_test_subprocess ())
    {
      void *small[4096], *page_cache, *record;

      g_assert_false (procura_memory_heap_on_huge_pages ());
      procura_memory_tune_for_batch ();
      g_assert_true (procura_memory_heap_on_huge_pages ());
      /* small blocks (the first few may be ones freed before), a 64 KiB SQLite page and
       * a 2 MB record: all from the heap */
      for (gsize i = 0; i < G_N_ELEMENTS (small); i++)
        small[i] = g_malloc0 (256);
      page_cache = g_malloc0 (65536 + 256);
      record = g_malloc0 (2 << 20);
      g_assert_true (mapping_advised_huge (small[G_N_ELEMENTS (small) - 1]));
      g_assert_true (mapping_advised_huge (page_cache));
      g_assert_true (mapping_advised_huge (record));
      /* a thread's allocations too (the project's open beside the parse): from the
       * same heap, not from a fresh arena of small pages */
      {
        GThread *t = g_thread_new ("alloc", alloc_page_cache, NULL);
        void *from_thread = g_thread_join (t);

        g_assert_true (mapping_advised_huge (from_thread));
        g_free (from_thread);
      }
      /* a second call changes nothing */
      procura_memory_tune_for_batch ();
      g_assert_true (procura_memory_heap_on_huge_pages ());
      g_free (record);
      g_free (page_cache);
      for (gsize i = 0; i < G_N_ELEMENTS (small); i++)
        g_free (small[i]);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/run/stats", test_run_stats);
  g_test_add_func ("/model/run/samples", test_run_samples);
  g_test_add_func ("/model/brief/missing", test_brief_missing);
  g_test_add_func ("/model/quote/price", test_quote_price);
  g_test_add_func ("/model/project/runs-for", test_project_runs_for);
  g_test_add_func ("/model/util", test_util);
  g_test_add_func ("/model/util/memory-grow", test_memory_grow);
  g_test_add_func ("/model/util/heap-huge-pages", test_heap_huge_pages);
  return g_test_run ();
}
