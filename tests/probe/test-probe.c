/* test-probe.c: the real procura-probe binary against the fake CUDA driver
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "procura-test-util.h"

#define MIB ((gint64) 1 << 20)
#define GRAN ((gint64) 2 << 20)

typedef struct {
  char      *tmp;
  char      *log;
  GPtrArray *env;      /* "NAME=VALUE" */
  int        status;   /* exit code, or -signal */
  GPtrArray *events;   /* JsonObject* */
  char      *out;
  char      *err;
} Run;

static void
run_free (Run *r)
{
  procura_test_rmtree (r->tmp);
  g_free (r->tmp);
  g_free (r->log);
  g_ptr_array_unref (r->env);
  g_clear_pointer (&r->events, g_ptr_array_unref);
  g_free (r->out);
  g_free (r->err);
  g_free (r);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, run_free)

static Run *
run_new (void)
{
  Run *r = g_new0 (Run, 1);

  r->tmp = procura_test_mkdtemp ();
  r->log = g_build_filename (r->tmp, "fake-cuda.log", NULL);
  r->env = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (r->env, g_strdup_printf ("PROCURA_PROBE_LIBCUDA=%s", g_getenv ("PROCURA_TEST_FAKE_CUDA")));
  g_ptr_array_add (r->env, g_strdup_printf ("PROCURA_PROBE_LIBNVML=%s", g_getenv ("PROCURA_TEST_FAKE_NVML")));
  g_ptr_array_add (r->env, g_strdup_printf ("FAKE_CUDA_LOG=%s", r->log));
  return r;
}

static void
run_env (Run        *r,
         const char *assignment)
{
  g_ptr_array_add (r->env, g_strdup (assignment));
}

static char *
run_write (Run        *r,
           const char *name,
           const char *content)
{
  char *path = g_build_filename (r->tmp, name, NULL);

  g_assert_true (g_file_set_contents (path, content, -1, NULL));
  return path;
}

static GSubprocessLauncher *
run_launcher (Run *r)
{
  GSubprocessLauncher *l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                                      | G_SUBPROCESS_FLAGS_STDERR_PIPE
                                                      | G_SUBPROCESS_FLAGS_STDIN_PIPE);
  guint i;

  for (i = 0; i < r->env->len; i++)
    {
      g_auto(GStrv) kv = g_strsplit (r->env->pdata[i], "=", 2);

      g_subprocess_launcher_setenv (l, kv[0], kv[1], TRUE);
    }
  return l;
}

static void
run_parse (Run *r)
{
  g_auto(GStrv) lines = g_strsplit (r->out, "\n", -1);
  guint i;

  r->events = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  for (i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      JsonNode *root;

      if (lines[i][0] == '\0')
        {
          g_assert_null (lines[i + 1]);   /* only the final newline */
          continue;
        }
      json_parser_load_from_data (parser, lines[i], -1, &error);
      g_assert_no_error (error);
      root = json_parser_get_root (parser);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
      g_assert_nonnull (json_object_get_string_member_with_default (json_node_get_object (root), "event", NULL));
      g_ptr_array_add (r->events, json_object_ref (json_node_get_object (root)));
    }
}

static void
run_status (Run         *r,
            GSubprocess *p)
{
  if (g_subprocess_get_if_exited (p))
    r->status = g_subprocess_get_exit_status (p);
  else
    r->status = -g_subprocess_get_term_sig (p);
}

/* Runs the probe with @args (NULL-terminated), feeding @input on stdin. */
static void
run_probe (Run                *r,
           const char * const *args,
           const char         *input)
{
  g_autoptr(GSubprocessLauncher) l = run_launcher (r);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) p = NULL;
  g_autoptr(GError) error = NULL;
  guint i;

  g_ptr_array_add (argv, (char *) g_getenv ("PROCURA_PROBE"));
  for (i = 0; args != NULL && args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  p = g_subprocess_launcher_spawnv (l, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (p, input ? input : "", NULL, &r->out, &r->err, &error);
  g_assert_no_error (error);
  g_subprocess_wait (p, NULL, &error);
  g_assert_no_error (error);
  run_status (r, p);
  run_parse (r);
}

static JsonObject *
nth_event (Run        *r,
           const char *event,
           const char *test,
           guint       n)
{
  guint i;

  for (i = 0; i < r->events->len; i++)
    {
      JsonObject *o = r->events->pdata[i];

      if (g_strcmp0 (json_object_get_string_member_with_default (o, "event", ""), event) != 0)
        continue;
      if (test != NULL && g_strcmp0 (json_object_get_string_member_with_default (o, "test", ""), test) != 0)
        continue;
      if (n-- == 0)
        return o;
    }
  return NULL;
}

static guint
count_events (Run        *r,
              const char *event,
              const char *test)
{
  guint n = 0;

  while (nth_event (r, event, test, n) != NULL)
    n++;
  return n;
}

/* hello first, done last (status), at most one error of @kind (NULL: none) */
static void
assert_shape (Run        *r,
              const char *error_kind,
              const char *done_status)
{
  JsonObject *first, *last, *error;

  g_assert_cmpuint (r->events->len, >=, 2);
  first = r->events->pdata[0];
  last = r->events->pdata[r->events->len - 1];
  g_assert_cmpstr (json_object_get_string_member (first, "event"), ==, "hello");
  g_assert_cmpint (json_object_get_int_member (first, "protocol"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (last, "event"), ==, "done");
  g_assert_cmpstr (json_object_get_string_member (last, "status"), ==, done_status);
  g_assert_cmpint (json_object_get_int_member (last, "exit_code"), ==, r->status);
  error = nth_event (r, "error", NULL, 0);
  if (error_kind == NULL)
    g_assert_null (error);
  else
    {
      g_assert_nonnull (error);
      g_assert_cmpstr (json_object_get_string_member (error, "kind"), ==, error_kind);
      g_assert_cmpstr (json_object_get_string_member_with_default (error, "detail", ""), !=, "");
    }
}

/* The fake driver's accounting at unload: nothing left allocated. */
static void
assert_all_freed (Run *r)
{
  g_autofree char *log = NULL;

  g_assert_true (g_file_get_contents (r->log, &log, NULL, NULL));
  g_assert_nonnull (strstr (log, " live_allocations=0 live_bytes=0 live_contexts=0 live_host=0 "));
  g_assert_nonnull (strstr (log, " live_events=0"));
}

static guint64
log_value (Run        *r,
           const char *key)
{
  g_autofree char *log = NULL;
  g_autofree char *needle = g_strdup_printf ("%s=", key);
  const char *p;

  g_assert_true (g_file_get_contents (r->log, &log, NULL, NULL));
  p = strstr (log, needle);
  g_assert_nonnull (p);
  return g_ascii_strtoull (p + strlen (needle), NULL, 10);
}

static gint64
round_up (gint64 bytes)
{
  return (bytes + GRAN - 1) / GRAN * GRAN;
}

/* ------------------------------------------------------------------------- */

static void
test_no_driver (void)
{
  g_autoptr(Run) r = run_new ();
  const char *args[] = { "--inventory", NULL };
  JsonObject *hello;

  run_env (r, "PROCURA_PROBE_LIBCUDA=/nonexistent/libcuda.so.1");
  run_probe (r, args, NULL);
  g_assert_cmpint (r->status, ==, 3);
  g_assert_cmpuint (r->events->len, ==, 3);
  assert_shape (r, "no-driver", "failed");
  hello = r->events->pdata[0];
  g_assert_true (json_object_get_null_member (hello, "driver_version"));
  g_assert_nonnull (strstr (json_object_get_string_member (nth_event (r, "error", NULL, 0), "detail"),
                            "libcuda.so.1"));
}

static void
test_init_failed (void)
{
  g_autoptr(Run) r = run_new ();
  g_autoptr(Run) r2 = run_new ();
  g_autoptr(Run) r3 = run_new ();

  run_env (r, "FAKE_CUDA_INIT_FAIL=999");
  run_probe (r, NULL, NULL);
  g_assert_cmpint (r->status, ==, 4);
  assert_shape (r, "init-failed", "failed");
  g_assert_nonnull (strstr (json_object_get_string_member (nth_event (r, "error", NULL, 0), "detail"),
                            "CUDA_ERROR_UNKNOWN"));

  run_env (r2, "FAKE_CUDA_INIT_FAIL=100");
  run_probe (r2, NULL, NULL);
  g_assert_cmpint (r2->status, ==, 4);
  assert_shape (r2, "no-device", "failed");

  run_env (r3, "FAKE_CUDA_DEVICES=0");
  run_probe (r3, NULL, NULL);
  g_assert_cmpint (r3->status, ==, 4);
  assert_shape (r3, "no-device", "failed");
}

static void
test_usage (void)
{
  const char *bad[][3] = {
    { "--bogus", NULL, NULL },
    { "--time-limit", "soon", NULL },
    { "--device", "x", NULL },
    { "--plan", NULL, NULL },
    { "--inventory", "--bandwidth", NULL },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(Run) r = run_new ();

      run_probe (r, bad[i], NULL);
      g_assert_cmpint (r->status, ==, 2);
      assert_shape (r, "usage", "failed");
    }
}

static void
test_inventory (void)
{
  g_autoptr(Run) r = run_new ();
  const char *args[] = { "--inventory", "--json", NULL };
  JsonObject *hello, *d0, *d1, *pcie;
  JsonArray *mig;

  run_env (r, "FAKE_CUDA_DEVICES=2");
  run_env (r, "FAKE_CUDA_NAMES=NVIDIA A100-SXM4-80GB,NVIDIA H100 80GB HBM3");
  run_env (r, "FAKE_CUDA_MEMORY_MIB=81920");
  run_env (r, "FAKE_CUDA_CC=8.0");
  run_env (r, "FAKE_CUDA_SMS=108");
  run_env (r, "FAKE_CUDA_MIG=3");
  run_env (r, "FAKE_NVML_NVLINKS=12");
  run_probe (r, args, NULL);
  g_assert_cmpint (r->status, ==, 0);
  assert_shape (r, NULL, "ok");
  hello = r->events->pdata[0];
  g_assert_cmpstr (json_object_get_string_member (hello, "driver_version"), ==, "550.54.15");
  g_assert_cmpstr (json_object_get_string_member (hello, "cuda_version"), ==, "12.4");
  g_assert_cmpstr (json_object_get_string_member (hello, "probe_version"), !=, "");

  g_assert_cmpuint (count_events (r, "device", NULL), ==, 2);
  d0 = nth_event (r, "device", NULL, 0);
  d1 = nth_event (r, "device", NULL, 1);
  g_assert_cmpint (json_object_get_int_member (d0, "index"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (d1, "index"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (d0, "name"), ==, "NVIDIA A100-SXM4-80GB");
  g_assert_cmpstr (json_object_get_string_member (d1, "name"), ==, "NVIDIA H100 80GB HBM3");
  g_assert_cmpstr (json_object_get_string_member (d0, "cc"), ==, "8.0");
  g_assert_cmpint (json_object_get_int_member (d0, "sms"), ==, 108);
  g_assert_cmpint (json_object_get_int_member (d0, "total_bytes"), ==, 81920 * MIB);
  g_assert_cmpint (json_object_get_int_member (d0, "free_bytes"), ==, 81920 * MIB);
  g_assert_cmpstr (json_object_get_string_member (d0, "uuid"), ==, "GPU-fa4e0000-0000-4000-8000-000000000000");
  g_assert_cmpstr (json_object_get_string_member (d1, "uuid"), ==, "GPU-fa4e0000-0000-4000-8000-000000000001");
  g_assert_cmpstr (json_object_get_string_member (d1, "pci_bus_id"), ==, "0000:11:00.0");
  g_assert_cmpint (json_object_get_int_member (d0, "sm_clock_mhz"), ==, 1980);
  g_assert_cmpint (json_object_get_int_member (d0, "memory_clock_max_mhz"), ==, 2619);
  pcie = json_object_get_object_member (d0, "pcie");
  g_assert_cmpint (json_object_get_int_member (pcie, "gen"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (pcie, "width"), ==, 16);
  g_assert_cmpint (json_object_get_int_member (d0, "nvlink_active"), ==, 12);
  g_assert_cmpint (json_object_get_int_member (d0, "nvlink_links"), ==, 18);
  g_assert_true (json_object_get_boolean_member (d0, "ecc"));
  g_assert_cmpstr (json_object_get_string_member (d0, "mig_mode"), ==, "enabled");
  mig = json_object_get_array_member (d0, "mig_instances");
  g_assert_cmpuint (json_array_get_length (mig), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (mig, 2), "uuid"),
                   ==, "MIG-fa4e0000-0000-4000-8000-000000000002");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (mig, 0), "total_bytes"),
                   ==, 81920 * MIB / 8);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (mig, 0), "sms"), ==, 16);
  assert_all_freed (r);
}

static void
test_inventory_without_nvml (void)
{
  g_autoptr(Run) r = run_new ();
  g_autoptr(Run) r2 = run_new ();
  JsonObject *d;

  run_env (r, "PROCURA_PROBE_LIBNVML=/nonexistent/libnvidia-ml.so.1");
  run_probe (r, NULL, NULL);
  g_assert_cmpint (r->status, ==, 0);
  assert_shape (r, NULL, "ok");
  g_assert_true (json_object_get_null_member (r->events->pdata[0], "driver_version"));
  d = nth_event (r, "device", NULL, 0);
  /* CUDA's own UUID bytes, formatted like NVML's */
  g_assert_cmpstr (json_object_get_string_member (d, "uuid"), ==, "GPU-a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf");
  g_assert_true (json_object_get_null_member (d, "free_bytes"));
  g_assert_true (json_object_get_null_member (d, "mig_mode"));
  g_assert_true (json_object_get_boolean_member (d, "ecc"));   /* from the CUDA attribute */
  g_assert_nonnull (strstr (r->err, "NVML unavailable"));

  run_env (r2, "FAKE_NVML_INIT_FAIL=1");
  run_probe (r2, NULL, NULL);
  g_assert_cmpint (r2->status, ==, 0);
  g_assert_true (json_object_get_null_member (r2->events->pdata[0], "driver_version"));
  g_assert_cmpstr (json_object_get_string_member (nth_event (r2, "device", NULL, 0), "pci_bus_id"), ==, "0000:10:00.0");
}

static void
test_device_selection (void)
{
  g_autoptr(Run) r = run_new ();
  g_autoptr(Run) r2 = run_new ();
  const char *one[] = { "--device", "1", NULL };
  const char *missing[] = { "--device", "0,5", NULL };

  run_env (r, "FAKE_CUDA_DEVICES=3");
  run_probe (r, one, NULL);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpuint (count_events (r, "device", NULL), ==, 1);
  g_assert_cmpint (json_object_get_int_member (nth_event (r, "device", NULL, 0), "index"), ==, 1);

  run_env (r2, "FAKE_CUDA_DEVICES=3");
  run_probe (r2, missing, NULL);
  g_assert_cmpint (r2->status, ==, 2);
  assert_shape (r2, "bad-device", "failed");
}

/* 4 weight tensors of 300,000,000 bytes, a 1 GiB activation workspace, 4 KV pools */
static const char *plan_small =
  "{\"name\":\"small\",\"block_size\":16,\"sequences\":8,\"kv_block_bytes\":4194304,"
  " \"gpus\":[{\"allocations\":["
  "  {\"name\":\"layer\",\"kind\":\"weights\",\"bytes\":300000000,\"count\":4},"
  "  {\"name\":\"workspace\",\"kind\":\"activation\",\"bytes\":1073741824},"
  "  {\"name\":\"kv\",\"kind\":\"kv\",\"bytes\":536870912,\"count\":4}]}]}";

static void
test_fit_fits (void)
{
  g_autoptr(Run) r = run_new ();
  g_autofree char *plan = run_write (r, "plan.json", plan_small);
  const char *args[] = { "--plan", plan, NULL };
  JsonObject *fit;
  gint64 total = 8192 * MIB, ctx = 300 * MIB, free_before, charged, free_after;

  run_env (r, "FAKE_CUDA_MEMORY_MIB=8192");
  run_env (r, "FAKE_CUDA_CONTEXT_MIB=300");
  run_probe (r, args, NULL);
  g_assert_cmpint (r->status, ==, 0);
  assert_shape (r, NULL, "ok");
  g_assert_cmpuint (count_events (r, "result", "fit"), ==, 1);
  fit = nth_event (r, "result", "fit", 0);

  free_before = total - ctx;
  charged = 4 * round_up (300000000) + 1073741824 + 4 * (gint64) 536870912;
  free_after = free_before - charged;
  g_assert_true (json_object_get_boolean_member (fit, "fits"));
  g_assert_cmpint (json_object_get_int_member (fit, "device"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (fit, "total_bytes"), ==, total);
  g_assert_cmpint (json_object_get_int_member (fit, "free_before_bytes"), ==, free_before);
  g_assert_cmpint (json_object_get_int_member (fit, "required_bytes"), ==, 4 * 300000000LL + 1073741824 + 4 * 536870912LL);
  g_assert_cmpint (json_object_get_int_member (fit, "allocated_bytes"), ==, 4 * 300000000LL + 1073741824 + 4 * 536870912LL);
  g_assert_cmpint (json_object_get_int_member (fit, "allocations"), ==, 9);
  g_assert_cmpint (json_object_get_int_member (fit, "headroom_bytes"), ==, free_after);
  g_assert_cmpint (json_object_get_int_member (fit, "free_after_bytes"), ==, free_after);
  g_assert_cmpint (json_object_get_int_member (fit, "largest_free_block_bytes"), ==, free_after / GRAN * GRAN);
  g_assert_cmpint (json_object_get_int_member (fit, "extra_kv_blocks"), ==, free_after / 4194304);
  g_assert_cmpint (json_object_get_int_member (fit, "extra_kv_tokens"), ==, free_after / 4194304 * 16);
  g_assert_true (json_object_get_null_member (fit, "failed_at"));
  g_assert_false (json_object_get_boolean_member (fit, "extra_kv_capped"));
  /* every byte of the plan was touched, and everything was freed */
  g_assert_cmpuint (log_value (r, "touched_bytes"), ==, 4 * 300000000ULL + 1073741824 + 4 * 536870912ULL);
  assert_all_freed (r);
}

static void
test_fit_does_not_fit (void)
{
  g_autoptr(Run) r = run_new ();
  g_autofree char *plan = run_write (r, "plan.json", plan_small);
  const char *args[] = { "--plan", plan, NULL };
  JsonObject *fit, *failed;
  gint64 free_before = 3000 * MIB - 300 * MIB;
  gint64 after_weights = free_before - 4 * round_up (300000000) - 1073741824;

  /* room for the weights, the workspace and 1 of the 4 KV pools */
  g_assert_cmpint (after_weights / 536870912, ==, 1);
  run_env (r, "FAKE_CUDA_MEMORY_MIB=3000");
  run_env (r, "FAKE_CUDA_CONTEXT_MIB=300");
  run_probe (r, args, NULL);
  g_assert_cmpint (r->status, ==, 1);
  assert_shape (r, NULL, "failed");
  fit = nth_event (r, "result", "fit", 0);
  g_assert_false (json_object_get_boolean_member (fit, "fits"));
  failed = json_object_get_object_member (fit, "failed_at");
  g_assert_nonnull (failed);
  g_assert_cmpstr (json_object_get_string_member (failed, "name"), ==, "kv.1");
  g_assert_cmpstr (json_object_get_string_member (failed, "kind"), ==, "kv");
  g_assert_cmpint (json_object_get_int_member (failed, "index"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (failed, "bytes"), ==, 536870912);
  g_assert_cmpstr (json_object_get_string_member (failed, "error"), ==, "CUDA_ERROR_OUT_OF_MEMORY");
  g_assert_cmpint (json_object_get_int_member (fit, "allocations"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (fit, "headroom_bytes"), ==, after_weights - 536870912);
  g_assert_cmpint (json_object_get_int_member (fit, "missing_bytes"), ==,
                   3 * 536870912LL - (after_weights - 536870912));
  g_assert_true (json_object_get_null_member (fit, "extra_kv_blocks"));
  assert_all_freed (r);
}

static void
test_fit_oom_at (void)
{
  g_autoptr(Run) r = run_new ();
  g_autofree char *plan = run_write (r, "plan.json", plan_small);
  const char *args[] = { "--plan", "-", NULL };
  g_autofree char *text = NULL;
  JsonObject *failed;

  g_assert_true (g_file_get_contents (plan, &text, NULL, NULL));
  run_env (r, "FAKE_CUDA_OOM_AT=3");
  run_probe (r, args, text);   /* the plan on stdin */
  g_assert_cmpint (r->status, ==, 1);
  failed = json_object_get_object_member (nth_event (r, "result", "fit", 0), "failed_at");
  g_assert_cmpstr (json_object_get_string_member (failed, "name"), ==, "layer.2");
  g_assert_cmpstr (json_object_get_string_member (failed, "step"), ==, "weights");
  g_assert_cmpint (json_object_get_int_member (failed, "index"), ==, 2);
  assert_all_freed (r);
}

static void
test_fit_fragmentation (void)
{
  g_autoptr(Run) r = run_new ();
  g_autofree char *plan = run_write (r, "plan.json", plan_small);
  const char *args[] = { "--plan", plan, NULL };
  JsonObject *fit;

  run_env (r, "FAKE_CUDA_MEMORY_MIB=8192");
  run_env (r, "FAKE_CUDA_MAX_BLOCK_MIB=1024");
  run_probe (r, args, NULL);
  g_assert_cmpint (r->status, ==, 0);
  fit = nth_event (r, "result", "fit", 0);
  g_assert_cmpint (json_object_get_int_member (fit, "largest_free_block_bytes"), ==, 1024 * MIB);
  g_assert_cmpfloat (json_object_get_double_member (fit, "fragmentation"), >, 0.5);
  g_assert_cmpfloat (json_object_get_double_member (fit, "fragmentation"), <, 1.0);
}

static void
test_fit_progress (void)
{
  g_autoptr(Run) r = run_new ();
  g_autofree char *plan = run_write (r, "plan.json",
    "{\"gpus\":[{\"allocations\":[{\"name\":\"w\",\"kind\":\"weights\",\"bytes\":1048576,\"count\":80},"
    "{\"name\":\"kv\",\"kind\":\"kv\",\"bytes\":1048576,\"count\":80}]}]}");
  const char *args[] = { "--plan", plan, NULL };
  gint64 last = 0;
  guint i, n_kv = 0, result_at = 0, last_progress_at = 0;

  run_env (r, "FAKE_CUDA_MEMORY_MIB=4096");
  run_probe (r, args, NULL);
  g_assert_cmpint (r->status, ==, 0);
  for (i = 0; i < r->events->len; i++)
    {
      JsonObject *o = r->events->pdata[i];
      const char *event = json_object_get_string_member (o, "event");

      if (g_str_equal (event, "result"))
        result_at = i;
      if (!g_str_equal (event, "progress"))
        continue;
      last_progress_at = i;
      if (!g_str_equal (json_object_get_string_member (o, "step"), "alloc-kv"))
        continue;
      n_kv++;
      g_assert_cmpint (json_object_get_int_member (o, "total"), ==, 80);
      g_assert_cmpint (json_object_get_int_member (o, "done"), >, last);
      last = json_object_get_int_member (o, "done");
    }
  g_assert_cmpint (last, ==, 80);
  g_assert_cmpuint (n_kv, >=, 10);
  g_assert_cmpuint (n_kv, <=, 22);       /* throttled */
  g_assert_cmpuint (last_progress_at, <, result_at);
  g_assert_nonnull (nth_event (r, "progress", NULL, 0));
}

static void
test_fit_multi_gpu (void)
{
  g_autoptr(Run) r = run_new ();
  g_autoptr(Run) r2 = run_new ();
  g_autofree char *plan = run_write (r, "plan.json",
    "{\"kv_block_bytes\":2097152,\"gpus\":["
    "{\"allocations\":[{\"kind\":\"weights\",\"bytes\":104857600}]},"
    "{\"kv_block_bytes\":4194304,\"allocations\":[{\"kind\":\"weights\",\"bytes\":209715200}]}]}");
  const char *args[] = { "--plan", plan, NULL };
  JsonObject *f0, *f1;

  run_env (r, "FAKE_CUDA_DEVICES=2");
  run_env (r, "FAKE_CUDA_MEMORY_MIB=1024");
  run_env (r, "FAKE_CUDA_CONTEXT_MIB=24");
  run_probe (r, args, NULL);
  g_assert_cmpint (r->status, ==, 0);
  f0 = nth_event (r, "result", "fit", 0);
  f1 = nth_event (r, "result", "fit", 1);
  g_assert_cmpint (json_object_get_int_member (f0, "device"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (f1, "device"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (f0, "headroom_bytes"), ==, 1000 * MIB - 100 * MIB);
  g_assert_cmpint (json_object_get_int_member (f1, "headroom_bytes"), ==, 1000 * MIB - 200 * MIB);
  g_assert_cmpint (json_object_get_int_member (f0, "extra_kv_blocks"), ==, 900 / 2);
  g_assert_cmpint (json_object_get_int_member (f1, "extra_kv_blocks"), ==, 800 / 4);
  assert_all_freed (r);

  /* more plan GPUs than devices */
  run_probe (r2, args, NULL);
  g_assert_cmpint (r2->status, ==, 2);
  assert_shape (r2, "not-enough-devices", "failed");
}

static void
test_bad_plan (void)
{
  const struct { const char *text; const char *detail; } cases[] = {
    { "{\"gpus\":[{\"allocations\":[{\"kind\":\"weights\",\"bytes\":1,}]}]}", "line 1, column" },
    { "{\"gpus\":\n  [}", "line 2, column 4" },
    { "[1,2]", "must be a JSON object" },
    { "{}", "gpus: expected a non-empty array" },
    { "{\"gpus\":[{\"allocations\":[{\"kind\":\"weights\",\"bytes\":-5}]}]}", "gpus[0].allocations[0].bytes" },
    { "{\"gpus\":[{\"allocations\":[{\"kind\":\"weights\",\"bytes\":1.5}]}]}", "gpus[0].allocations[0].bytes" },
    { "{\"gpus\":[{\"allocations\":[{\"kind\":\"bogus\",\"bytes\":10}]}]}", "gpus[0].allocations[0].kind" },
    { "{\"gpus\":[{}]}", "gpus[0].allocations: expected an array" },
    { "{\"gpus\":[{\"allocations\":[{\"kind\":\"kv\",\"bytes\":10,\"count\":0}]}]}", "count" },
    { "", "unexpected end of input" },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(Run) r = run_new ();
      const char *args[] = { "--plan", "-", NULL };
      const char *detail;

      run_probe (r, args, cases[i].text);
      g_assert_cmpint (r->status, ==, 2);
      assert_shape (r, "bad-plan", "failed");
      detail = json_object_get_string_member (nth_event (r, "error", NULL, 0), "detail");
      if (strstr (detail, cases[i].detail) == NULL)
        g_error ("case %u: detail \"%s\" lacks \"%s\"", i, detail, cases[i].detail);
    }

  {
    g_autoptr(Run) r = run_new ();
    const char *args[] = { "--plan", "/nonexistent/plan.json", NULL };

    run_probe (r, args, NULL);
    g_assert_cmpint (r->status, ==, 2);
    assert_shape (r, "bad-plan", "failed");
  }
}

static void
test_bandwidth (void)
{
  g_autoptr(Run) r = run_new ();
  g_autofree char *plan = run_write (r, "plan.json",
    "{\"sequences\":4,\"gpus\":["
    "{\"kv_read_bytes_per_step\":50000000,\"allocations\":[{\"name\":\"w\",\"kind\":\"weights\",\"bytes\":100000000,\"count\":2},"
    "  {\"kind\":\"kv\",\"bytes\":209715200}]},"
    "{\"allocations\":[{\"name\":\"w\",\"kind\":\"weights\",\"bytes\":200000000},{\"kind\":\"kv\",\"bytes\":104857600}]}]}");
  const char *args[] = { "--plan", plan, "--bandwidth", NULL };
  JsonObject *o;
  double step0, step1;

  run_env (r, "FAKE_CUDA_DEVICES=2");
  run_env (r, "FAKE_CUDA_MEMORY_MIB=2048");
  run_env (r, "FAKE_CUDA_CONTEXT_MIB=48");
  run_env (r, "FAKE_CUDA_READ_GBPS=2000");
  run_env (r, "FAKE_CUDA_COPY_GBPS=1600");
  run_env (r, "FAKE_CUDA_H2D_GBPS=25");
  run_env (r, "FAKE_CUDA_D2H_GBPS=20");
  run_env (r, "FAKE_CUDA_P2P_GBPS=300");
  run_probe (r, args, NULL);
  g_assert_cmpint (r->status, ==, 0);
  assert_shape (r, NULL, "ok");

  o = nth_event (r, "result", "bandwidth", 0);
  g_assert_cmpstr (json_object_get_string_member (o, "buffer"), ==, "weights");
  g_assert_cmpint (json_object_get_int_member (o, "bytes"), ==, 200000000);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "gbps"), 2000, 2);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (nth_event (r, "result", "d2d", 1), "gbps"), 1600, 2);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (nth_event (r, "result", "h2d", 0), "gbps"), 25, 0.05);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (nth_event (r, "result", "d2h", 1), "gbps"), 20, 0.05);
  g_assert_cmpuint (count_events (r, "result", "p2p"), ==, 2);
  o = nth_event (r, "result", "p2p", 0);
  g_assert_cmpint (json_object_get_int_member (o, "device"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "peer"), ==, 1);
  g_assert_true (json_object_get_boolean_member (o, "peer_access"));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "gbps"), 300, 0.5);

  /* decode floor: (weights + KV read per step) / read bandwidth */
  step0 = (200000000.0 + 50000000.0) / 2000e9;
  step1 = (200000000.0 + 104857600.0) / 2000e9;
  o = nth_event (r, "result", "decode-floor", 0);
  g_assert_cmpint (json_object_get_int_member (o, "weights_bytes"), ==, 200000000);
  g_assert_cmpint (json_object_get_int_member (o, "kv_read_bytes"), ==, 50000000);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "step_seconds"), step0, step0 * 1e-3);
  o = nth_event (r, "result", "decode-floor", 2);
  g_assert_cmpstr (json_object_get_string_member (o, "scope"), ==, "replica");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "step_seconds"), step1, step1 * 1e-3);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "tokens_per_second"), 4 / step1, 4 / step1 * 1e-3);
  g_assert_cmpuint (log_value (r, "kernels"), ==, 2 * 6 + 1 * 6);
  assert_all_freed (r);
}

static void
test_bandwidth_without_plan (void)
{
  g_autoptr(Run) r = run_new ();
  const char *args[] = { "--bandwidth", NULL };
  JsonObject *o;

  run_env (r, "FAKE_CUDA_MEMORY_MIB=1024");
  run_env (r, "FAKE_CUDA_CONTEXT_MIB=24");
  run_probe (r, args, NULL);
  g_assert_cmpint (r->status, ==, 0);
  o = nth_event (r, "result", "bandwidth", 0);
  g_assert_cmpstr (json_object_get_string_member (o, "buffer"), ==, "scratch");
  g_assert_cmpint (json_object_get_int_member (o, "bytes"), ==, 1000 * MIB / 4 / GRAN * GRAN);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "gbps"), 3000, 3);
  g_assert_null (nth_event (r, "result", "p2p", 0));
  g_assert_null (nth_event (r, "result", "decode-floor", 0));
  assert_all_freed (r);
}

/* Starts the probe, reads lines until one contains @marker, then sends @sig. */
static void
run_and_signal (Run                *r,
                const char * const *args,
                const char         *marker,
                int                 sig,
                double             *seconds_after_signal)
{
  g_autoptr(GSubprocessLauncher) l = run_launcher (r);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) p = NULL;
  g_autoptr(GDataInputStream) in = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  char *line;
  gint64 t0 = 0;
  guint i;

  g_ptr_array_add (argv, (char *) g_getenv ("PROCURA_PROBE"));
  for (i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  p = g_subprocess_launcher_spawnv (l, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_output_stream_close (g_subprocess_get_stdin_pipe (p), NULL, NULL);
  in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (p));
  while ((line = g_data_input_stream_read_line_utf8 (in, NULL, NULL, &error)) != NULL)
    {
      g_string_append_printf (out, "%s\n", line);
      if (t0 == 0 && strstr (line, marker) != NULL)
        {
          g_subprocess_send_signal (p, sig);
          t0 = g_get_monotonic_time ();
        }
      g_free (line);
    }
  g_assert_no_error (error);
  g_subprocess_wait (p, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (t0, !=, 0);
  *seconds_after_signal = (g_get_monotonic_time () - t0) / 1e6;
  run_status (r, p);
  r->out = g_string_free (g_steal_pointer (&out), FALSE);
  run_parse (r);
}

static const char *plan_many =
  "{\"kv_block_bytes\":2097152,\"gpus\":[{\"allocations\":["
  "{\"name\":\"w\",\"kind\":\"weights\",\"bytes\":2097152,\"count\":200}]}]}";

static void
test_sigterm (void)
{
  g_autoptr(Run) r = run_new ();
  g_autofree char *plan = run_write (r, "plan.json", plan_many);
  const char *args[] = { "--plan", plan, NULL };
  double after;

  run_env (r, "FAKE_CUDA_SLOW_MS=10");
  run_and_signal (r, args, "\"alloc-weights\"", SIGTERM, &after);
  g_assert_cmpint (r->status, ==, 6);
  assert_shape (r, "interrupted", "failed");
  g_assert_null (nth_event (r, "result", "fit", 0));
  g_assert_cmpfloat (after, <, 2.0);   /* checked before every allocation (10 ms each) */
  assert_all_freed (r);
}

static void
test_sigint (void)
{
  g_autoptr(Run) r = run_new ();
  g_autofree char *plan = run_write (r, "plan.json", plan_many);
  const char *args[] = { "--plan", plan, NULL };
  double after;

  run_env (r, "FAKE_CUDA_SLOW_MS=10");
  run_and_signal (r, args, "\"alloc-weights\"", SIGINT, &after);
  g_assert_cmpint (r->status, ==, 6);
  assert_shape (r, "interrupted", "failed");
  assert_all_freed (r);
}

static void
test_time_limit (void)
{
  g_autoptr(Run) r = run_new ();
  g_autofree char *plan = run_write (r, "plan.json", plan_many);
  const char *args[] = { "--plan", plan, "--time-limit", "1", NULL };
  gint64 t0 = g_get_monotonic_time ();
  double took;

  run_env (r, "FAKE_CUDA_SLOW_MS=20");     /* 200 allocations: 4 s */
  run_probe (r, args, NULL);
  took = (g_get_monotonic_time () - t0) / 1e6;
  g_assert_cmpint (r->status, ==, 5);
  assert_shape (r, "timeout", "failed");
  g_assert_cmpfloat (took, <, 2.9);   /* the soft limit; the hard one is at 3 s */
  g_assert_cmpint (json_object_get_int_member (r->events->pdata[0], "time_limit_s"), ==, 1);
  assert_all_freed (r);     /* a soft limit frees everything */
}

static void
test_hang (void)
{
  g_autoptr(Run) r = run_new ();
  g_autofree char *plan = run_write (r, "plan.json", plan_small);
  const char *args[] = { "--plan", plan, "--time-limit", "1", NULL };
  gint64 t0 = g_get_monotonic_time ();
  double took;

  run_env (r, "FAKE_CUDA_HANG_AT=cuMemAlloc:2");
  run_probe (r, args, NULL);
  took = (g_get_monotonic_time () - t0) / 1e6;
  g_assert_cmpint (r->status, ==, 5);
  assert_shape (r, "timeout", "failed");
  g_assert_cmpfloat (took, <, 6.0);   /* the alarm fires at limit + 2 s */
  g_assert_nonnull (strstr (r->err, "hanging in cuMemAlloc"));
}

static void
test_hang_then_sigterm (void)
{
  g_autoptr(Run) r = run_new ();
  g_autofree char *plan = run_write (r, "plan.json", plan_small);
  const char *args[] = { "--plan", plan, NULL };
  double after;

  run_env (r, "FAKE_CUDA_HANG_AT=cuMemsetD8");
  run_and_signal (r, args, "\"alloc-kv\",\"device\":0,\"done\":4", SIGTERM, &after);
  g_assert_cmpint (r->status, ==, 6);
  assert_shape (r, "interrupted", "failed");
  g_assert_cmpfloat (after, <, 5.0);   /* 2 s of grace after the signal */
}

static void
test_crash (void)
{
  g_autoptr(Run) r = run_new ();
  g_autofree char *plan = run_write (r, "plan.json", plan_small);
  const char *args[] = { "--plan", plan, NULL };
  JsonObject *last;

  run_env (r, "FAKE_CUDA_CRASH_AT=cuMemAlloc:3");
  run_probe (r, args, NULL);
  g_assert_cmpint (r->status, ==, -SIGSEGV);
  last = r->events->pdata[r->events->len - 1];
  g_assert_cmpstr (json_object_get_string_member (last, "event"), !=, "done");
  g_assert_nonnull (nth_event (r, "device", NULL, 0));
}

static void
test_cuda_error (void)
{
  g_autoptr(Run) r = run_new ();
  g_autofree char *plan = run_write (r, "plan.json", plan_small);
  const char *args[] = { "--plan", plan, NULL };
  const char *detail;

  run_env (r, "FAKE_CUDA_MEMORY_MIB=8192");
  run_env (r, "FAKE_CUDA_FAIL_AT=cuMemsetD8:3:700");
  run_probe (r, args, NULL);
  g_assert_cmpint (r->status, ==, 4);
  assert_shape (r, "cuda-error", "failed");
  detail = json_object_get_string_member (nth_event (r, "error", NULL, 0), "detail");
  g_assert_nonnull (strstr (detail, "CUDA_ERROR_ILLEGAL_ADDRESS"));
  g_assert_nonnull (strstr (detail, "layer.2"));
  g_assert_null (nth_event (r, "result", "fit", 0));
  assert_all_freed (r);
}

static void
test_kernel_load_failed (void)
{
  g_autoptr(Run) r = run_new ();
  const char *args[] = { "--bandwidth", NULL };

  run_env (r, "FAKE_CUDA_MEMORY_MIB=1024");
  run_env (r, "FAKE_CUDA_CONTEXT_MIB=24");
  run_env (r, "FAKE_CUDA_FAIL_AT=cuModuleLoadDataEx:1:218");
  run_probe (r, args, NULL);
  g_assert_cmpint (r->status, ==, 4);
  assert_shape (r, "kernel-load-failed", "failed");
  g_assert_nonnull (strstr (json_object_get_string_member (nth_event (r, "error", NULL, 0), "detail"),
                            "CUDA_ERROR_INVALID_PTX"));
  /* the copies do not need the kernel */
  g_assert_null (nth_event (r, "result", "bandwidth", 0));
  g_assert_nonnull (nth_event (r, "result", "d2d", 0));
  g_assert_nonnull (nth_event (r, "result", "h2d", 0));
  assert_all_freed (r);
}

static void
test_no_room_for_bandwidth (void)
{
  g_autoptr(Run) r = run_new ();
  const char *args[] = { "--bandwidth", NULL };

  run_env (r, "FAKE_CUDA_MEMORY_MIB=516");
  run_env (r, "FAKE_CUDA_CONTEXT_MIB=512");
  run_probe (r, args, NULL);
  g_assert_cmpint (r->status, ==, 4);
  assert_shape (r, "out-of-memory", "failed");
  assert_all_freed (r);
}

static void
test_help (void)
{
  g_autofree char *out = NULL;
  const char *argv[] = { g_getenv ("PROCURA_PROBE"), "--help", NULL };
  int status = -1;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (out, "Exit codes"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("PROCURA_PROBE") == NULL || g_getenv ("PROCURA_TEST_FAKE_CUDA") == NULL)
    {
      g_test_skip ("run through meson test: PROCURA_PROBE and PROCURA_TEST_FAKE_CUDA are unset");
      return g_test_run ();
    }

  g_test_add_func ("/probe/no-driver", test_no_driver);
  g_test_add_func ("/probe/init-failed", test_init_failed);
  g_test_add_func ("/probe/usage", test_usage);
  g_test_add_func ("/probe/help", test_help);
  g_test_add_func ("/probe/inventory", test_inventory);
  g_test_add_func ("/probe/inventory-without-nvml", test_inventory_without_nvml);
  g_test_add_func ("/probe/device-selection", test_device_selection);
  g_test_add_func ("/probe/fit/fits", test_fit_fits);
  g_test_add_func ("/probe/fit/does-not-fit", test_fit_does_not_fit);
  g_test_add_func ("/probe/fit/oom-at-nth-allocation", test_fit_oom_at);
  g_test_add_func ("/probe/fit/fragmentation", test_fit_fragmentation);
  g_test_add_func ("/probe/fit/progress", test_fit_progress);
  g_test_add_func ("/probe/fit/multi-gpu", test_fit_multi_gpu);
  g_test_add_func ("/probe/bad-plan", test_bad_plan);
  g_test_add_func ("/probe/cuda-error", test_cuda_error);
  g_test_add_func ("/probe/bandwidth/kernel-load-failed", test_kernel_load_failed);
  g_test_add_func ("/probe/bandwidth/no-room", test_no_room_for_bandwidth);
  g_test_add_func ("/probe/bandwidth/plan", test_bandwidth);
  g_test_add_func ("/probe/bandwidth/scratch", test_bandwidth_without_plan);
  g_test_add_func ("/probe/signal/sigterm", test_sigterm);
  g_test_add_func ("/probe/signal/sigint", test_sigint);
  g_test_add_func ("/probe/signal/hang-then-sigterm", test_hang_then_sigterm);
  g_test_add_func ("/probe/time-limit", test_time_limit);
  g_test_add_func ("/probe/hang", test_hang);
  g_test_add_func ("/probe/crash", test_crash);

  return g_test_run ();
}
