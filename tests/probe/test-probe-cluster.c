/* test-probe-cluster.c: `procura probe --kubectl`, `--slurm` and the Flatpak route
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Against the fake tools of tests/probe/fake-tools/ (kubectl; sbatch, srun, squeue,
 * sacct, scancel; flatpak-spawn), which accept only the exact arguments procura must
 * give them and log every call; the "cluster" runs the real probe with the fake driver.
 */
#include "config.h"

#include <signal.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "procura-store.h"
#include "procura-test-util.h"

static const char *plan_small =
  "{\"name\":\"small\",\"kv_block_bytes\":4194304,\"gpus\":[{\"allocations\":["
  "{\"name\":\"layer\",\"kind\":\"weights\",\"bytes\":300000000,\"count\":4},"
  "{\"name\":\"kv\",\"kind\":\"kv\",\"bytes\":536870912,\"count\":4}]}]}";

typedef struct {
  char *tmp;
  char *bin;        /* the PATH's first folder: links to the fake tools a test wants */
  char *state;      /* the fakes' state and call logs */
  char *cache;      /* XDG_CACHE_HOME */
  char *plan;
  char *old_path;
  GPtrArray *keep;  /* strings handed out by calls () */
} Fixture;

static void
link_tool (Fixture    *f,
           const char *dir,
           const char *name)
{
  g_autofree char *from = g_build_filename (g_getenv ("PROCURA_TEST_FAKE_TOOLS"), name, NULL);
  g_autofree char *to = g_build_filename (dir, name, NULL);

  g_assert_cmpint (symlink (from, to), ==, 0);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->tmp = procura_test_mkdtemp ();
  f->bin = g_build_filename (f->tmp, "bin", NULL);
  f->state = g_build_filename (f->tmp, "state", NULL);
  f->cache = g_build_filename (f->tmp, "cache", NULL);
  f->plan = g_build_filename (f->tmp, "plan.json", NULL);
  g_assert_cmpint (g_mkdir (f->bin, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (f->state, 0755), ==, 0);
  g_assert_true (g_file_set_contents (f->plan, plan_small, -1, NULL));
  f->old_path = g_strdup (g_getenv ("PATH"));
  f->keep = g_ptr_array_new_with_free_func (g_free);
  {
    g_autofree char *path = g_strdup_printf ("%s:%s", f->bin, f->old_path);

    g_setenv ("PATH", path, TRUE);
  }
  g_setenv ("XDG_CACHE_HOME", f->cache, TRUE);
  g_setenv ("PROCURA_CLUSTER_POLL_S", "0.05", TRUE);
  g_setenv ("FAKE_KUBE_DIR", f->state, TRUE);
  g_setenv ("FAKE_SLURM_DIR", f->state, TRUE);
  g_setenv ("PROCURA_PROBE_LIBCUDA", g_getenv ("PROCURA_TEST_FAKE_CUDA"), TRUE);
  g_setenv ("PROCURA_PROBE_LIBNVML", g_getenv ("PROCURA_TEST_FAKE_NVML"), TRUE);
  g_setenv ("FAKE_CUDA_MEMORY_MIB", "8192", TRUE);
  g_setenv ("PROCURA_TEST_FLATPAK", "0", TRUE);
  g_unsetenv ("FAKE_KUBE_HANG");
  g_unsetenv ("FAKE_SLURM_HANG");
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_setenv ("PATH", f->old_path, TRUE);
  procura_test_rmtree (f->tmp);
  g_free (f->tmp);
  g_free (f->bin);
  g_free (f->state);
  g_free (f->cache);
  g_free (f->plan);
  g_free (f->old_path);
  g_ptr_array_unref (f->keep);
}

/* The fakes' call log, with the random part of the staging folders and the test's
 * temporary folder replaced by fixed words (owned by the fixture). */
static const char *
calls (Fixture    *f,
       const char *name)
{
  g_autofree char *path = g_build_filename (f->state, name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GRegex) stage = g_regex_new ("(kubectl|slurm)-[A-Za-z0-9]{6}", 0, 0, NULL);
  g_autofree char *a = NULL;
  GString *s;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return "";
  a = g_regex_replace_literal (stage, text, -1, 0, "STAGE", 0, NULL);
  s = g_string_new (a);
  g_string_replace (s, f->tmp, "TMP", 0);
  g_ptr_array_add (f->keep, g_string_free (s, FALSE));
  return g_ptr_array_index (f->keep, f->keep->len - 1);
}

static guint
dir_entries (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  guint n = 0;

  if (dir == NULL)
    return 0;
  while (g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

static ProcuraProject *
load_project (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ProcuraStore) store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  ProcuraProject *p;

  g_assert_no_error (error);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  return p;
}

static char *
new_project (Fixture    *f,
             const char *name)
{
  char *path = g_build_filename (f->tmp, name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(ProcuraStore) store = procura_store_create (path, "cluster", &error);

  g_assert_no_error (error);
  g_assert_nonnull (store);
  return path;
}

/* ------------------------------------------------------------------------- */
/* Kubernetes                                                                 */

static const char *kube_expected =
  "--context=lab --namespace=gpu-team delete job/procura-probe configmap/procura-probe-bin configmap/procura-probe-plan --ignore-not-found --wait=false\n"
  "--context=lab --namespace=gpu-team create configmap procura-probe-bin --from-file=procura-probe=TMP/cache/procura/STAGE/procura-probe\n"
  "--context=lab --namespace=gpu-team create configmap procura-probe-plan --from-file=plan.json=TMP/cache/procura/STAGE/plan.json\n"
  "--context=lab --namespace=gpu-team apply -f TMP/cache/procura/STAGE/procura-probe-job.yaml\n"
  "--context=lab --namespace=gpu-team get job/procura-probe -o jsonpath={.status.succeeded}/{.status.failed}\n"
  "--context=lab --namespace=gpu-team get job/procura-probe -o jsonpath={.status.succeeded}/{.status.failed}\n"
  "--context=lab --namespace=gpu-team logs job/procura-probe --container=probe\n"
  "--context=lab --namespace=gpu-team delete job/procura-probe configmap/procura-probe-bin configmap/procura-probe-plan --ignore-not-found --wait=false\n";

static void
test_kubectl (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *project = new_project (f, "kube.procura");
  const char *argv[] = { "probe", "--kubectl", "--context", "lab", "--namespace", "gpu-team", "--plan", f->plan,
                         "--json", "--into", project, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *log = NULL;
  g_autofree char *staging = g_build_filename (f->cache, "procura", NULL);
  ProcuraProject *p;
  guint i, fits = 0;

  link_tool (f, f->bin, "kubectl");
  g_setenv ("FAKE_KUBE_FLAGS", "--context=lab --namespace=gpu-team", TRUE);
  if (procura_test_run_cli (argv, &out, &err) != 0)
    g_error ("procura probe --kubectl failed: %s\ncalls:\n%s", err, calls (f, "calls"));
  log = calls (f, "calls");
  g_assert_cmpstr (log, ==, kube_expected);
  /* the Job's log, without the diagnostic line kubectl mixed in */
  g_assert_true (g_str_has_prefix (out, "{\"event\":\"hello\""));
  g_assert_null (strstr (out, "diagnostic line"));
  g_assert_nonnull (strstr (out, "\"test\":\"fit\""));
  g_assert_nonnull (strstr (out, "\"test\":\"bandwidth\""));
  /* the plan went through its configmap */
  g_assert_nonnull (strstr (out, "\"fits\":true"));
  /* the staging folder is gone */
  g_assert_cmpuint (dir_entries (staging), ==, 0);

  p = load_project (project);
  g_assert_cmpuint (p->probe_results->len, >=, 2);
  for (i = 0; i < p->probe_results->len; i++)
    {
      ProcuraProbeResult *r = p->probe_results->pdata[i];

      if (g_strcmp0 (r->test, "fit") == 0 && r->fits)
        fits++;
    }
  g_assert_cmpuint (fits, ==, 1);
  procura_project_free (p);
}

static void
test_kubectl_no_driver (Fixture       *f,
                        gconstpointer  data)
{
  const char *argv[] = { "probe", "--kubectl", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  link_tool (f, f->bin, "kubectl");
  g_setenv ("FAKE_KUBE_FLAGS", "", TRUE);
  g_setenv ("PROCURA_PROBE_LIBCUDA", "/nonexistent/libcuda.so.1", TRUE);
  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 1);
  /* the Job failed: the probe's own lines say why */
  g_assert_nonnull (strstr (err, "No NVIDIA driver was found on kubernetes"));
  g_assert_nonnull (strstr (calls (f, "calls"), "logs job/procura-probe --container=probe\n"
                                                "delete job/procura-probe"));
}

static void
test_kubectl_timeout (Fixture       *f,
                      gconstpointer  data)
{
  const char *argv[] = { "probe", "--kubectl", "--host-timeout", "0.5", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *log = NULL;

  link_tool (f, f->bin, "kubectl");
  g_setenv ("FAKE_KUBE_FLAGS", "", TRUE);
  g_setenv ("FAKE_KUBE_HANG", "1", TRUE);
  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "The Kubernetes Job did not finish within"));
  log = calls (f, "calls");
  /* no logs asked for; the Job deleted at the end */
  g_assert_null (strstr (log, " logs "));
  g_assert_true (g_str_has_suffix (log, "delete job/procura-probe configmap/procura-probe-bin "
                                        "configmap/procura-probe-plan --ignore-not-found --wait=false\n"));
}

static void
test_kubectl_missing (Fixture       *f,
                      gconstpointer  data)
{
  const char *argv[] = { "probe", "--kubectl", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  /* a PATH without kubectl (this machine may have a real one in /usr/bin) */
  g_setenv ("PATH", f->bin, TRUE);
  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "kubectl was not found"));
}

/* ------------------------------------------------------------------------- */
/* Slurm                                                                      */

static void
slurm_tools (Fixture *f)
{
  link_tool (f, f->bin, "sbatch");
  link_tool (f, f->bin, "srun");
  link_tool (f, f->bin, "squeue");
  link_tool (f, f->bin, "sacct");
  link_tool (f, f->bin, "scancel");
}

static void
test_slurm (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *project = new_project (f, "slurm.procura");
  g_autofree char *work = g_build_filename (f->tmp, "shared", "probe", NULL);
  const char *argv[] = { "probe", "--slurm", "--partition", "gpu", "--nodes", "2", "--gres", "gpu:1",
                         "--workdir", work, "--plan", f->plan, "--into", project, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *log = NULL;
  g_autofree char *n1 = g_build_filename (work, "procura-probe-4242-n1.jsonl", NULL);
  g_autofree char *n2 = g_build_filename (work, "procura-probe-4242-n2.jsonl", NULL);
  ProcuraProject *p;
  guint i, fits = 0;

  slurm_tools (f);
  g_setenv ("FAKE_SLURM_EXPECT", "--partition=gpu --nodes=2 --gres=gpu:1", TRUE);
  g_setenv ("FAKE_SLURM_NODES", "n1 n2", TRUE);
  if (procura_test_run_cli (argv, &out, &err) != 0)
    g_error ("procura probe --slurm failed: %s\n%s", err, calls (f, "calls"));
  log = calls (f, "calls");
  g_assert_cmpstr (log, ==,
                   "sbatch --parsable --chdir=TMP/shared/probe --partition=gpu --nodes=2 --gres=gpu:1 "
                   "TMP/shared/probe/procura-probe.sbatch\n"
                   "srun --ntasks-per-node=1 bash -c exec \"$0\" \"$@\" > \"procura-probe-${SLURM_JOB_ID}-${SLURMD_NODENAME:-$(hostname)}.jsonl\" "
                   "./procura-probe --time-limit 600 --bandwidth --plan plan.json\n"
                   "sacct --noheader --parsable2 --allocations --jobs 4242 --format=State,ExitCode\n");
  /* followed with squeue until the job left the queue */
  g_assert_true (g_str_has_prefix (calls (f, "calls.poll"), "squeue --noheader --jobs 4242 --format=%T\n"));
  /* every node's lines, kept in the work folder, one table per node */
  g_assert_true (g_file_test (n1, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (n2, G_FILE_TEST_IS_REGULAR));
  g_assert_nonnull (strstr (out, "== n1\n"));
  g_assert_nonnull (strstr (out, "== n2\n"));
  g_assert_nonnull (strstr (err, "Stored "));

  p = load_project (project);
  for (i = 0; i < p->probe_results->len; i++)
    {
      ProcuraProbeResult *r = p->probe_results->pdata[i];

      if (g_strcmp0 (r->test, "fit") == 0 && r->fits)
        fits++;
    }
  g_assert_cmpuint (fits, ==, 2);
  procura_project_free (p);
}

static void
test_slurm_one_node (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *work = g_build_filename (f->tmp, "work", NULL);
  const char *argv[] = { "probe", "--slurm", "--workdir", work, "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *file = g_build_filename (work, "procura-probe-4242.jsonl", NULL);

  slurm_tools (f);
  g_setenv ("FAKE_SLURM_EXPECT", "", TRUE);
  g_setenv ("FAKE_SLURM_NODES", "n1", TRUE);
  if (procura_test_run_cli (argv, &out, &err) != 0)
    g_error ("procura probe --slurm failed: %s\n%s", err, calls (f, "calls"));
  g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_str_has_prefix (out, "{\"event\":\"hello\""));
  g_assert_null (strstr (calls (f, "calls"), "srun"));
}

static void
test_slurm_timeout (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *work = g_build_filename (f->tmp, "work", NULL);
  const char *argv[] = { "probe", "--slurm", "--workdir", work, "--host-timeout", "0.5", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  slurm_tools (f);
  g_setenv ("FAKE_SLURM_EXPECT", "", TRUE);
  g_setenv ("FAKE_SLURM_HANG", "1", TRUE);
  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "Slurm job 4242 did not finish within"));
  g_assert_true (g_str_has_suffix (calls (f, "calls"), "scancel 4242\n"));
}

static void
test_slurm_cancel (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *work = g_build_filename (f->tmp, "work", NULL);
  const char *argv[] = { g_getenv ("PROCURA_BINARY"), "probe", "--slurm", "--workdir", work, NULL };
  g_autoptr(GSubprocess) p = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *poll = g_build_filename (f->state, "calls.poll", NULL);
  int i;

  slurm_tools (f);
  g_setenv ("FAKE_SLURM_EXPECT", "", TRUE);
  g_setenv ("FAKE_SLURM_HANG", "1", TRUE);
  p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
  g_assert_no_error (error);
  /* once it follows the job, Ctrl+C */
  for (i = 0; i < 200 && !g_file_test (poll, G_FILE_TEST_EXISTS); i++)
    g_usleep (50000);
  g_assert_true (g_file_test (poll, G_FILE_TEST_EXISTS));
  g_subprocess_send_signal (p, SIGINT);
  g_subprocess_wait (p, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 1);
  g_assert_true (g_str_has_suffix (calls (f, "calls"), "scancel 4242\n"));
}

/* ------------------------------------------------------------------------- */
/* Flatpak                                                                    */

static void
flatpak_host (Fixture    *f,
              const char *tool)
{
  g_autofree char *host_bin = g_build_filename (f->tmp, "host-bin", NULL);
  g_autofree char *host_path = g_strdup_printf ("%s:/usr/bin:/bin", host_bin);
  g_autofree char *log = g_build_filename (f->state, "flatpak-spawn.log", NULL);

  g_assert_cmpint (g_mkdir (host_bin, 0755), ==, 0);
  if (tool != NULL)
    link_tool (f, host_bin, tool);
  link_tool (f, f->bin, "flatpak-spawn");
  g_setenv ("FAKE_HOST_PATH", host_path, TRUE);
  g_setenv ("FAKE_FLATPAK_LOG", log, TRUE);
  g_setenv ("PROCURA_TEST_FLATPAK", "1", TRUE);
}

static void
test_flatpak_kubectl (Fixture       *f,
                      gconstpointer  data)
{
  const char *argv[] = { "probe", "--kubectl", "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *log = NULL;

  /* kubectl only on the "host", not on the app's PATH */
  flatpak_host (f, "kubectl");
  g_setenv ("FAKE_KUBE_FLAGS", "", TRUE);
  if (procura_test_run_cli (argv, &out, &err) != 0)
    g_error ("procura probe --kubectl in a Flatpak failed: %s", err);
  g_assert_nonnull (strstr (out, "\"event\":\"done\""));
  log = calls (f, "flatpak-spawn.log");
  g_assert_true (g_str_has_prefix (log, "--host sh -c command -v \"$1\" >/dev/null sh kubectl\n"
                                        "--host kubectl delete job/procura-probe"));
  g_assert_nonnull (strstr (log, "--host kubectl apply -f TMP/cache/procura/STAGE/procura-probe-job.yaml\n"));
}

static void
test_flatpak_missing_tool (Fixture       *f,
                           gconstpointer  data)
{
  const char *kube[] = { "probe", "--kubectl", NULL };
  const char *ssh[] = { "probe", "--ssh", "gpu-box", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_autofree char *host_bin = g_build_filename (f->tmp, "host-bin", NULL);
  g_autofree char *host_sh = g_build_filename (host_bin, "sh", NULL);

  /* a "host" with sh and nothing else */
  flatpak_host (f, NULL);
  g_assert_cmpint (symlink ("/bin/sh", host_sh), ==, 0);
  g_setenv ("FAKE_HOST_PATH", host_bin, TRUE);
  g_assert_cmpint (procura_test_run_cli (kube, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "kubectl is not installed on the host system (Procura runs in a Flatpak"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (procura_test_run_cli (ssh, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "ssh is not installed on the host system"));
}

static void
test_flatpak_ssh (Fixture       *f,
                  gconstpointer  data)
{
  const char *argv[] = { "probe", "--ssh", "gpu-box", "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *log = NULL;
  g_autofree char *host_ssh = g_build_filename (f->tmp, "host-bin", "ssh", NULL);

  flatpak_host (f, NULL);
  /* the host's ssh: drops the options, takes the host, runs the command here */
  g_assert_true (g_file_set_contents (host_ssh,
    "#!/bin/sh\n"
    "while [ $# -gt 0 ]; do case \"$1\" in -o|-F) shift 2;; -*) shift;; *) break;; esac; done\n"
    "[ \"$1\" = gpu-box ] || exit 255\n"
    "shift\n"
    "exec sh -c \"$*\"\n", -1, NULL));
  g_assert_cmpint (g_chmod (host_ssh, 0755), ==, 0);
  if (procura_test_run_cli (argv, &out, &err) != 0)
    g_error ("procura probe --ssh in a Flatpak failed: %s", err);
  g_assert_true (g_str_has_prefix (out, "{\"event\":\"hello\""));
  log = calls (f, "flatpak-spawn.log");
  g_assert_true (g_str_has_prefix (log, "--host sh -c command -v \"$1\" >/dev/null sh ssh\n"
                                        "--host ssh -T -o BatchMode=yes -o ConnectTimeout=10 -- gpu-box exec sh -c "));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("PROCURA_BINARY") == NULL || g_getenv ("PROCURA_TEST_FAKE_TOOLS") == NULL)
    {
      g_test_skip ("run through meson test: PROCURA_BINARY and PROCURA_TEST_FAKE_TOOLS are unset");
      return g_test_run ();
    }
#define ADD(name, func) \
  g_test_add ("/probe-cluster/" name, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("kubectl", test_kubectl);
  ADD ("kubectl-no-driver", test_kubectl_no_driver);
  ADD ("kubectl-timeout", test_kubectl_timeout);
  ADD ("kubectl-missing", test_kubectl_missing);
  ADD ("slurm", test_slurm);
  ADD ("slurm-one-node", test_slurm_one_node);
  ADD ("slurm-timeout", test_slurm_timeout);
  ADD ("slurm-cancel", test_slurm_cancel);
  ADD ("flatpak-kubectl", test_flatpak_kubectl);
  ADD ("flatpak-missing-tool", test_flatpak_missing_tool);
  ADD ("flatpak-ssh", test_flatpak_ssh);
  return g_test_run ();
}
