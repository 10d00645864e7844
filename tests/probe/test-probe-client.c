/* test-probe-client.c: the probe client (src/core/probe-client) against the real probe
 * and the fake driver, fake probes that misbehave, and a fake ssh
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <glib/gstdio.h>

#include "procura-probe-client.h"
#include "procura-probe-import.h"
#include "procura-store.h"
#include "procura-test-util.h"

static const char *plan_small =
  "{\"name\":\"small\",\"kv_block_bytes\":4194304,\"gpus\":[{\"allocations\":["
  "{\"name\":\"layer\",\"kind\":\"weights\",\"bytes\":300000000,\"count\":4},"
  "{\"name\":\"kv\",\"kind\":\"kv\",\"bytes\":536870912,\"count\":4}]}]}";

static const char *plan_slow =
  "{\"gpus\":[{\"allocations\":[{\"name\":\"w\",\"kind\":\"weights\",\"bytes\":2097152,\"count\":400}]}]}";

typedef struct {
  char                *tmp;
  ProcuraProbeOptions *options;
  GMainLoop           *loop;
  ProcuraProbeReport  *report;
  GError              *error;
  guint                progress;
  guint                events;
  gint64               pid;
  GCancellable        *cancel_on_progress;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  GPtrArray *env = g_ptr_array_new ();

  f->tmp = procura_test_mkdtemp ();
  f->options = procura_probe_options_new ();
  f->options->probe_path = g_strdup (g_getenv ("PROCURA_PROBE"));
  g_ptr_array_add (env, g_strdup_printf ("PROCURA_PROBE_LIBCUDA=%s", g_getenv ("PROCURA_TEST_FAKE_CUDA")));
  g_ptr_array_add (env, g_strdup_printf ("PROCURA_PROBE_LIBNVML=%s", g_getenv ("PROCURA_TEST_FAKE_NVML")));
  g_ptr_array_add (env, NULL);
  f->options->environ = (GStrv) g_ptr_array_free (env, FALSE);
  f->loop = g_main_loop_new (NULL, FALSE);
  f->pid = -1;
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  procura_test_rmtree (f->tmp);
  g_free (f->tmp);
  procura_probe_options_free (f->options);
  g_main_loop_unref (f->loop);
  g_clear_pointer (&f->report, procura_probe_report_free);
  g_clear_error (&f->error);
  g_clear_object (&f->cancel_on_progress);
}

static void
add_env (Fixture    *f,
         const char *assignment)
{
  guint n = g_strv_length (f->options->environ);

  f->options->environ = g_renew (char *, f->options->environ, n + 2);
  f->options->environ[n] = g_strdup (assignment);
  f->options->environ[n + 1] = NULL;
}

static void
on_event (const char *event,
          JsonObject *object,
          gpointer    user_data)
{
  Fixture *f = user_data;

  f->events++;
  if (g_str_equal (event, "hello"))
    f->pid = json_object_get_int_member_with_default (object, "pid", -1);
  if (g_str_equal (event, "progress"))
    {
      f->progress++;
      if (f->cancel_on_progress != NULL)
        g_cancellable_cancel (f->cancel_on_progress);
    }
}

static void
on_done (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Fixture *f = user_data;

  f->report = procura_probe_run_finish (result, &f->error);
  g_main_loop_quit (f->loop);
}

static double
run (Fixture      *f,
     GCancellable *cancellable)
{
  gint64 t0 = g_get_monotonic_time ();

  procura_probe_run_async (f->options, cancellable, on_event, f, on_done, f);
  g_main_loop_run (f->loop);
  return (g_get_monotonic_time () - t0) / 1e6;
}

static char *
write_script (Fixture    *f,
              const char *name,
              const char *body)
{
  char *path = g_build_filename (f->tmp, name, NULL);
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\n%s", body);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

/* ------------------------------------------------------------------------- */

static void
test_fits (Fixture       *f,
           gconstpointer  data)
{
  JsonObject *fit;

  f->options->plan_json = g_strdup (plan_small);
  add_env (f, "FAKE_CUDA_MEMORY_MIB=8192");
  run (f, NULL);
  g_assert_no_error (f->error);
  g_assert_nonnull (f->report);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_OK);
  g_assert_cmpint (f->report->exit_code, ==, 0);
  g_assert_cmpint (f->report->protocol, ==, 1);
  g_assert_cmpstr (f->report->driver_version, ==, "550.54.15");
  g_assert_cmpstr (f->report->done_status, ==, "ok");
  g_assert_cmpuint (f->report->devices->len, ==, 1);
  g_assert_null (f->report->error_kind);
  fit = procura_probe_report_find_result (f->report, "fit", 0);
  g_assert_nonnull (fit);
  g_assert_true (json_object_get_boolean_member (fit, "fits"));
  g_assert_cmpuint (f->progress, >, 0);
  g_assert_cmpuint (f->events, ==, f->report->lines->len);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (f->report->lines, 0), "{\"event\":\"hello\""));
  g_assert_false (procura_probe_status_is_calm (f->report->status));
  g_assert_nonnull (strstr (f->report->message, "1 GPU"));
}

static void
test_does_not_fit (Fixture       *f,
                   gconstpointer  data)
{
  f->options->plan_json = g_strdup (plan_small);
  add_env (f, "FAKE_CUDA_MEMORY_MIB=2048");
  run (f, NULL);
  g_assert_no_error (f->error);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_DOES_NOT_FIT);
  g_assert_cmpint (f->report->exit_code, ==, 1);
  g_assert_false (json_object_get_boolean_member (procura_probe_report_find_result (f->report, "fit", 0), "fits"));
}

static void
test_no_driver (Fixture       *f,
                gconstpointer  data)
{
  add_env (f, "PROCURA_PROBE_LIBCUDA=/nonexistent/libcuda.so.1");
  run (f, NULL);
  g_assert_no_error (f->error);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_NO_DRIVER);
  g_assert_true (procura_probe_status_is_calm (f->report->status));
  g_assert_cmpstr (f->report->error_kind, ==, "no-driver");
  g_assert_nonnull (strstr (f->report->message, "No NVIDIA driver"));
  g_assert_cmpstr (procura_probe_status_to_string (f->report->status), ==, "no-driver");
}

static void
test_no_device (Fixture       *f,
                gconstpointer  data)
{
  add_env (f, "FAKE_CUDA_DEVICES=0");
  run (f, NULL);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_NO_DEVICE);
  g_assert_true (procura_probe_status_is_calm (f->report->status));
}

static void
test_driver_error (Fixture       *f,
                   gconstpointer  data)
{
  add_env (f, "FAKE_CUDA_INIT_FAIL=999");
  run (f, NULL);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_DRIVER_ERROR);
  g_assert_cmpstr (f->report->error_kind, ==, "init-failed");
  g_assert_nonnull (strstr (f->report->message, "CUDA_ERROR_UNKNOWN"));
}

static void
test_bad_plan (Fixture       *f,
               gconstpointer  data)
{
  f->options->plan_json = g_strdup ("{\"gpus\":[{\"allocations\":[{\"kind\":\"bogus\",\"bytes\":1}]}]}");
  run (f, NULL);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_BAD_INPUT);
  g_assert_nonnull (strstr (f->report->message, "gpus[0].allocations[0].kind"));
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  double took;

  f->options->plan_json = g_strdup (plan_slow);
  add_env (f, "FAKE_CUDA_SLOW_MS=20");
  f->cancel_on_progress = g_cancellable_new ();
  took = run (f, f->cancel_on_progress);
  g_assert_error (f->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (f->report);
  g_assert_cmpfloat (took, <, 4.0);
  /* the probe is gone (killed and reaped) when finish returns */
  g_assert_cmpint (f->pid, >, 0);
  g_assert_cmpint (kill ((pid_t) f->pid, 0), ==, -1);
  g_assert_cmpint (errno, ==, ESRCH);
}

static void
test_cancel_before_start (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(GCancellable) c = g_cancellable_new ();

  g_cancellable_cancel (c);
  run (f, c);
  g_assert_error (f->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (f->events, ==, 0);
}

static void
test_client_timeout (Fixture       *f,
                     gconstpointer  data)
{
  double took;

  /* the probe would wait 60 s; the client gives it half a second */
  f->options->plan_json = g_strdup (plan_small);
  f->options->time_limit_s = 60;
  f->options->kill_after_s = 0.5;
  add_env (f, "FAKE_CUDA_HANG_AT=cuMemAlloc");
  took = run (f, NULL);
  g_assert_no_error (f->error);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_TIMEOUT);
  g_assert_true (f->report->timed_out);
  g_assert_cmpint (f->report->term_signal, ==, 0);
  g_assert_cmpfloat (took, <, 4.0);
  g_assert_cmpint (kill ((pid_t) f->pid, 0), ==, -1);
  g_assert_nonnull (strstr (f->report->stderr_tail, "hanging in cuMemAlloc"));
}

static void
test_probe_timeout (Fixture       *f,
                    gconstpointer  data)
{
  f->options->plan_json = g_strdup (plan_small);
  f->options->time_limit_s = 1;
  add_env (f, "FAKE_CUDA_HANG_AT=cuMemAlloc:2");
  run (f, NULL);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_TIMEOUT);
  g_assert_false (f->report->timed_out);
  g_assert_cmpint (f->report->exit_code, ==, 5);
  g_assert_cmpstr (f->report->error_kind, ==, "timeout");
}

/* A driver whose cuInit never returns: the probe's start watchdog names the call; the
 * report is a timeout of the driver, never a protocol error. */
static void
test_cuinit_hang_probe (Fixture       *f,
                        gconstpointer  data)
{
  double took;

  f->options->time_limit_s = 1;
  f->options->kill_after_s = 30;
  add_env (f, "FAKE_CUDA_HANG_AT=cuInit");
  took = run (f, NULL);
  g_assert_no_error (f->error);
  g_test_message ("%s", f->report->message);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_TIMEOUT);
  g_assert_false (f->report->timed_out);
  g_assert_cmpint (f->report->exit_code, ==, PROCURA_PROBE_EXIT_TIMEOUT);
  g_assert_cmpint (f->report->protocol, ==, PROCURA_PROBE_PROTOCOL);
  g_assert_cmpstr (f->report->error_kind, ==, "timeout");
  g_assert_cmpstr (f->report->error_step, ==, "cuInit");
  g_assert_nonnull (strstr (f->report->message, "did not answer"));
  g_assert_nonnull (strstr (f->report->message, "cuInit"));
  g_assert_null (strstr (f->report->message, "protocol"));
  g_assert_cmpfloat (took, <, 10.0);
}

/* The same hang when the client's own limit comes first: still the driver's start that
 * did not answer, not a probe that "did not greet". */
static void
test_cuinit_hang_client (Fixture       *f,
                         gconstpointer  data)
{
  f->options->time_limit_s = 60;
  f->options->kill_after_s = 0.5;
  add_env (f, "FAKE_CUDA_HANG_AT=cuInit");
  run (f, NULL);
  g_assert_no_error (f->error);
  g_test_message ("%s", f->report->message);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_TIMEOUT);
  g_assert_true (f->report->timed_out);
  g_assert_nonnull (strstr (f->report->message, "did not answer"));
  g_assert_nonnull (strstr (f->report->message, "cuInit"));
  g_assert_null (strstr (f->report->message, "greet"));
}

static void
test_crash (Fixture       *f,
            gconstpointer  data)
{
  f->options->plan_json = g_strdup (plan_small);
  add_env (f, "FAKE_CUDA_CRASH_AT=cuMemAlloc");
  run (f, NULL);
  g_assert_no_error (f->error);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_CRASHED);
  g_assert_cmpint (f->report->term_signal, ==, SIGSEGV);
  g_assert_nonnull (strstr (f->report->message, "crashed"));
  g_assert_cmpuint (f->report->devices->len, ==, 1);   /* what came before is kept */
}

static void
test_garbage (Fixture       *f,
              gconstpointer  data)
{
  g_free (f->options->probe_path);
  f->options->probe_path = write_script (f, "garbage-probe",
    "echo '{\"event\":\"hello\",\"protocol\":1,\"probe_version\":\"x\"}'\n"
    "echo 'Segmentation fault? no: just text'\n"
    "echo '[1,2,3]'\n"
    "echo '{\"no_event\":true}'\n"
    "echo '{\"event\":\"done\",\"status\":\"ok\"}'\n");
  run (f, NULL);
  g_assert_no_error (f->error);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_PROTOCOL_ERROR);
  g_assert_cmpuint (f->report->garbage_lines, ==, 3);
  g_assert_cmpstr (f->report->first_garbage, ==, "Segmentation fault? no: just text");
  g_assert_nonnull (strstr (f->report->message, "3 lines"));
  g_assert_cmpuint (f->report->lines->len, ==, 2);
}

static void
test_misbehaving (Fixture       *f,
                  gconstpointer  data)
{
  const struct { const char *body; const char *message; } cases[] = {
    { "exit 0\n", "did not greet" },
    { "echo '{\"event\":\"hello\",\"protocol\":2,\"probe_version\":\"9\"}'\necho '{\"event\":\"done\",\"status\":\"ok\"}'\n", "protocol 2" },
    { "echo '{\"event\":\"hello\",\"protocol\":1,\"probe_version\":\"x\"}'\nexit 0\n", "without its final line" },
    { "printf '\\377\\376 not utf-8\\n'\necho '{\"event\":\"hello\",\"protocol\":1}'\necho '{\"event\":\"done\",\"status\":\"ok\"}'\n", "not probe protocol" },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("bad-probe-%u", i);

      g_free (f->options->probe_path);
      f->options->probe_path = write_script (f, name, cases[i].body);
      g_clear_pointer (&f->report, procura_probe_report_free);
      run (f, NULL);
      g_assert_no_error (f->error);
      g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_PROTOCOL_ERROR);
      if (strstr (f->report->message, cases[i].message) == NULL)
        g_error ("case %u: “%s” lacks “%s”", i, f->report->message, cases[i].message);
    }
}

static void
test_stderr_flood (Fixture       *f,
                   gconstpointer  data)
{
  /* 1 MB on stderr before the first line: a client that does not drain stderr hangs */
  g_free (f->options->probe_path);
  f->options->probe_path = write_script (f, "noisy-probe",
    "head -c 1000000 /dev/zero | tr '\\0' 'e' >&2\n"
    "echo '{\"event\":\"hello\",\"protocol\":1,\"probe_version\":\"x\"}'\n"
    "echo '{\"event\":\"done\",\"status\":\"ok\"}'\n");
  f->options->kill_after_s = 10;
  run (f, NULL);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_OK);
  g_assert_cmpuint (strlen (f->report->stderr_tail), ==, 8192);
}

static void
test_spawn_failed (Fixture       *f,
                   gconstpointer  data)
{
  g_free (f->options->probe_path);
  f->options->probe_path = g_strdup ("/nonexistent/procura-probe");
  run (f, NULL);
  g_assert_no_error (f->error);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_SPAWN_FAILED);
  g_assert_nonnull (strstr (f->report->message, "could not be started"));
}

/* A fake ssh: drops the options, takes the host, runs the command here. */
static char *
fake_ssh (Fixture *f)
{
  return write_script (f, "ssh",
    "log=\"$(dirname \"$0\")/ssh.log\"\n"
    "while [ $# -gt 0 ]; do case \"$1\" in -o) shift 2;; -*) shift;; *) break;; esac; done\n"
    "echo \"host=$1\" >> \"$log\"\n"
    "shift\n"
    "exec sh -c \"$*\"\n");
}

static void
test_ssh (Fixture       *f,
          gconstpointer  data)
{
  g_autofree char *remote_tmp = g_build_filename (f->tmp, "remote-tmp", NULL);
  g_autofree char *log_path = g_build_filename (f->tmp, "ssh.log", NULL);
  g_autofree char *log = NULL;
  g_autofree char *tmp_env = g_strdup_printf ("TMPDIR=%s", remote_tmp);
  g_autoptr(GDir) dir = NULL;
  JsonObject *fit;

  g_assert_cmpint (g_mkdir (remote_tmp, 0700), ==, 0);
  f->options->ssh_program = fake_ssh (f);
  f->options->ssh_host = g_strdup ("gpu-box");
  f->options->plan_json = g_strdup (plan_small);
  add_env (f, tmp_env);
  add_env (f, "FAKE_CUDA_MEMORY_MIB=8192");
  run (f, NULL);
  g_assert_no_error (f->error);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_OK);
  g_assert_cmpstr (f->report->host, ==, "gpu-box");
  fit = procura_probe_report_find_result (f->report, "fit", 0);
  g_assert_nonnull (fit);
  g_assert_true (json_object_get_boolean_member (fit, "fits"));
  g_assert_cmpuint (f->progress, >, 0);
  g_assert_true (g_file_get_contents (log_path, &log, NULL, NULL));
  g_assert_cmpstr (log, ==, "host=gpu-box\n");
  /* the temporary folder on the "host" is gone */
  dir = g_dir_open (remote_tmp, 0, NULL);
  g_assert_nonnull (dir);
  g_assert_null (g_dir_read_name (dir));
}

static void
test_ssh_fails (Fixture       *f,
                gconstpointer  data)
{
  g_free (f->options->ssh_program);
  f->options->ssh_program = write_script (f, "ssh", "echo 'ssh: connect to host gpu-box port 22: Connection refused' >&2\nexit 255\n");
  f->options->ssh_host = g_strdup ("gpu-box");
  run (f, NULL);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_FAILED);
  g_assert_nonnull (strstr (f->report->message, "Connection refused"));

  g_clear_pointer (&f->report, procura_probe_report_free);
  g_free (f->options->ssh_host);
  f->options->ssh_host = g_strdup ("-oProxyCommand=evil");
  run (f, NULL);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_SPAWN_FAILED);
}

static void
test_sync (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(ProcuraProbeReport) report = NULL;
  g_autoptr(GError) error = NULL;

  add_env (f, "FAKE_CUDA_DEVICES=2");
  f->options->devices = g_strdup ("1");
  report = procura_probe_run_sync (f->options, NULL, on_event, f, &error);
  g_assert_no_error (error);
  g_assert_cmpint (report->status, ==, PROCURA_PROBE_STATUS_OK);
  g_assert_cmpuint (report->devices->len, ==, 1);
  g_assert_cmpint (json_object_get_int_member (report->devices->pdata[0], "index"), ==, 1);
}

static void
test_import (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(ProcuraImportResult) result = procura_import_result_new ();
  g_autoptr(ProcuraImportResult) bad = procura_import_result_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  ProcuraProbeResult *inventory, *fit, *bw;
  guint i;

  f->options->plan_json = g_strdup (plan_small);
  f->options->bandwidth = TRUE;
  add_env (f, "FAKE_CUDA_MEMORY_MIB=8192");
  add_env (f, "FAKE_CUDA_READ_GBPS=1234");
  run (f, NULL);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_OK);
  text = procura_probe_report_to_jsonl (f->report);

  g_assert_cmpint (procura_importer_probe_jsonl.sniff (text, strlen (text)), >=, 90);
  g_assert_cmpint (procura_importer_probe_jsonl.sniff ("{\"event\":\"hello\"}\n", 18), ==, 0);
  /* the hello's members on its own line, as members: not a later line, not a value */
  {
    const char *later = "{\"event\":\"hello\",\"protocol\":1}\n{\"probe_version\":\"1\"}\n";
    const char *value = "{\"event\":\"hello\",\"protocol\":1,\"note\":\"probe_version\"}\n";
    const char *spaced = "{ \"event\" : \"hello\" , \"protocol\" : 1 , \"probe_version\" : \"9\" }\n";

    g_assert_cmpint (procura_importer_probe_jsonl.sniff (later, strlen (later)), ==, 0);
    g_assert_cmpint (procura_importer_probe_jsonl.sniff (value, strlen (value)), ==, 0);
    g_assert_cmpint (procura_importer_probe_jsonl.sniff (spaced, strlen (spaced)), >=, 90);
  }
  g_assert_cmpint (procura_importer_probe_jsonl.sniff ("{\"benchmarks\":[]}", 17), ==, 0);
  g_assert_cmpint (procura_importer_probe_jsonl.sniff ("", 0), ==, 0);

  g_assert_true (procura_importer_probe_jsonl.parse ("probe.jsonl", text, strlen (text), result, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (result->format, ==, "probe-jsonl");
  /* 1 inventory + fit + bandwidth + d2d + h2d + d2h + 2 decode-floor */
  g_assert_cmpuint (result->probe_results->len, ==, 1 + f->report->results->len);
  inventory = result->probe_results->pdata[0];
  g_assert_cmpstr (inventory->test, ==, "inventory");
  g_assert_cmpstr (inventory->device_name, ==, "NVIDIA H100 80GB HBM3");
  g_assert_cmpfloat (inventory->total_bytes, ==, 8192.0 * 1048576);
  fit = bw = NULL;
  for (i = 0; i < result->probe_results->len; i++)
    {
      ProcuraProbeResult *r = result->probe_results->pdata[i];

      if (g_str_equal (r->test, "fit"))
        fit = r;
      if (g_str_equal (r->test, "bandwidth"))
        bw = r;
      g_assert_nonnull (r->measured_at);
      g_assert_true (g_str_has_prefix (r->json, "{\"event\":\"hello\""));
    }
  g_assert_nonnull (fit);
  g_assert_true (fit->fits);
  g_assert_cmpfloat (fit->headroom_bytes, ==,
                     json_object_get_double_member (procura_probe_report_find_result (f->report, "fit", 0), "headroom_bytes"));
  g_assert_nonnull (strstr (fit->json, "\"event\":\"device\""));
  g_assert_nonnull (bw);
  g_assert_cmpfloat_with_epsilon (bw->bandwidth_gbps, 1234, 1);
  g_assert_cmpuint (result->warnings->len, ==, 0);

  /* all or nothing, with the line named */
  g_assert_false (procura_probe_parse_jsonl ("p.jsonl", "{\"event\":\"hello\",\"protocol\":1}\n{oops\n", 38, bad, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "p.jsonl:2"));
  g_clear_error (&error);
  g_assert_false (procura_probe_parse_jsonl ("p.jsonl", "{\"event\":\"device\"}\n", 19, bad, &error));
  g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA);
  g_clear_error (&error);
  {
    const char *no_driver =
      "{\"event\":\"hello\",\"protocol\":1,\"probe_version\":\"0.1.0\"}\n"
      "{\"event\":\"error\",\"kind\":\"no-driver\",\"detail\":\"libcuda.so.1: cannot open\"}\n"
      "{\"event\":\"done\",\"status\":\"failed\"}\n";

    g_assert_false (procura_probe_parse_jsonl ("p.jsonl", no_driver, strlen (no_driver), bad, &error));
    g_assert_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA);
    g_assert_nonnull (strstr (error->message, "no-driver"));
  }
}

static void
test_plan_from_fit (Fixture       *f,
                    gconstpointer  data)
{
  ProcuraFitResult fit;
  g_autofree char *plan = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *gpu;
  JsonArray *allocs;
  gint64 total = 0;
  guint i;

  /* Llama-3.1-8B bf16, 8k context x 64 sequences on one GPU */
  memset (&fit, 0, sizeof fit);
  fit.gpus = 1;
  fit.tp = fit.pp = 1;
  fit.block_size = 16;
  fit.context_tokens = 8192;
  fit.concurrency = 64;
  fit.layers_per_gpu = 32;
  fit.weights_bytes = 16060522496.0;
  fit.embedding_bytes = 2 * 525336576.0;
  fit.kv_bytes_per_token = 131072;
  fit.kv_needed_bytes = 131072.0 * 8192 * 64;
  fit.activation_bytes = 1.5 * 1073741824.0;
  fit.non_torch_bytes = 0.2 * 1073741824.0;
  fit.cuda_graph_bytes = 0;
  plan = procura_probe_plan_from_fit (&fit, "llama-3.1-8b");
  g_assert_nonnull (plan);
  g_assert_true (json_parser_load_from_data (parser, plan, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (root, "kv_block_bytes"), ==, 131072 * 16);
  g_assert_cmpint (json_object_get_int_member (root, "sequences"), ==, 64);
  gpu = json_array_get_object_element (json_object_get_array_member (root, "gpus"), 0);
  g_assert_cmpint (json_object_get_int_member (gpu, "kv_read_bytes_per_step"), ==, 131072LL * 8192 * 64);
  allocs = json_object_get_array_member (gpu, "allocations");
  for (i = 0; i < json_array_get_length (allocs); i++)
    {
      JsonObject *a = json_array_get_object_element (allocs, i);

      total += json_object_get_int_member (a, "bytes") * json_object_get_int_member_with_default (a, "count", 1);
    }
  /* no cuda-graphs allocation of 0 bytes; rounding up adds at most a byte per tensor */
  g_assert_cmpuint (json_array_get_length (allocs), ==, 5);
  g_assert_cmpint (total, >=, (gint64) (16060522496.0 + 131072.0 * 8192 * 64 + 1.7 * 1073741824.0));
  g_assert_cmpint (total, <=, (gint64) (16060522496.0 + 131072.0 * 8192 * 64 + 1.7 * 1073741824.0) + 100);

  /* the probe runs it: 64 GiB of KV + 16 GB of weights do not fit in 80 GB */
  f->options->plan_json = g_strdup (plan);
  run (f, NULL);
  g_assert_cmpint (f->report->status, ==, PROCURA_PROBE_STATUS_DOES_NOT_FIT);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                     procura_probe_report_find_result (f->report, "fit", 0), "failed_at"), "kind"), ==, "kv");

  fit.layers_per_gpu = 0;
  g_assert_null (procura_probe_plan_from_fit (&fit, NULL));
}

static void
test_find_binary (void)
{
  g_autofree char *found = NULL;
  ProcuraProbeOptions o = { 0 };
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;

  found = procura_probe_find_binary ();
  g_assert_cmpstr (found, ==, g_getenv ("PROCURA_PROBE"));
  o.devices = (char *) "0,1";
  o.bandwidth = TRUE;
  o.time_limit_s = 30;
  o.plan_path = (char *) "plan.json";
  argv = procura_probe_build_argv (&o, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (argv[0], ==, g_getenv ("PROCURA_PROBE"));
  {
    g_autofree char *joined = g_strjoinv (" ", argv + 1);

    g_assert_cmpstr (joined, ==, "--json --device 0,1 --plan plan.json --bandwidth --time-limit 30");
  }
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

#define ADD(path, fn) g_test_add ("/probe-client/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("fits", test_fits);
  ADD ("does-not-fit", test_does_not_fit);
  ADD ("no-driver", test_no_driver);
  ADD ("no-device", test_no_device);
  ADD ("driver-error", test_driver_error);
  ADD ("bad-plan", test_bad_plan);
  ADD ("cancel", test_cancel);
  ADD ("cancel-before-start", test_cancel_before_start);
  ADD ("timeout/client", test_client_timeout);
  ADD ("timeout/probe", test_probe_timeout);
  ADD ("timeout/cuinit-probe", test_cuinit_hang_probe);
  ADD ("timeout/cuinit-client", test_cuinit_hang_client);
  ADD ("crash", test_crash);
  ADD ("garbage", test_garbage);
  ADD ("misbehaving", test_misbehaving);
  ADD ("stderr-flood", test_stderr_flood);
  ADD ("spawn-failed", test_spawn_failed);
  ADD ("ssh", test_ssh);
  ADD ("ssh-fails", test_ssh_fails);
  ADD ("sync", test_sync);
  ADD ("import", test_import);
  ADD ("plan-from-fit", test_plan_from_fit);
#undef ADD
  g_test_add_func ("/probe-client/find-binary", test_find_binary);

  return g_test_run ();
}
