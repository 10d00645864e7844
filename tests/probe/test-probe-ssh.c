/* test-probe-ssh.c: `procura probe --ssh` and `--hosts` against a real OpenSSH sshd
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Starts /usr/sbin/sshd on a free high port of 127.0.0.1 (never another address) with a
 * throw-away host key and authorised key in a temporary folder, and an ssh client
 * configuration (-F) whose aliases all lead to it: each alias sends the "remote" side
 * its environment with SetEnv (sshd's AcceptEnv), so one alias has the fake driver,
 * another a slow one, another none. Every path goes through real ssh: the copy, the run,
 * the streaming, the clean-up of the remote folder, a cancel in the middle, a refused
 * port, a host key that does not match, a remote without a driver, and a fleet.
 * Skipped, saying so, where sshd is not installed.
 */
#include "config.h"

#include <signal.h>
#include <sys/types.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "procura-probe-client.h"
#include "procura-store.h"
#include "procura-store-probe.h"
#include "procura-test-util.h"

#define SSHD "/usr/sbin/sshd"

static const char *plan_small =
  "{\"name\":\"small\",\"kv_block_bytes\":4194304,\"gpus\":[{\"allocations\":["
  "{\"name\":\"layer\",\"kind\":\"weights\",\"bytes\":300000000,\"count\":4},"
  "{\"name\":\"kv\",\"kind\":\"kv\",\"bytes\":536870912,\"count\":4}]}]}";

/* 40 allocations: with 50 ms each about 2 s, progress every 2 allocations */
static const char *plan_stream =
  "{\"gpus\":[{\"allocations\":[{\"name\":\"w\",\"kind\":\"weights\",\"bytes\":2097152,\"count\":40}]}]}";
/* 400 allocations of 50 ms: 20 s, much longer than the test waits */
static const char *plan_long =
  "{\"gpus\":[{\"allocations\":[{\"name\":\"w\",\"kind\":\"weights\",\"bytes\":2097152,\"count\":400}]}]}";

static char *tmp;
static char *remote_tmp;       /* the remote side's TMPDIR */
static char *ssh_config;
static char *plan_path;
static char *skip_reason;
static GSubprocess *sshd;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp, name, NULL);
}

static void
write_text (const char *path,
            const char *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static char *
read_text (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return g_strstrip (text);
}

static void
keygen (const char *name)
{
  g_autofree char *path = tmp_path (name);
  const char *argv[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "procura-test", "-f", path, NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* A port of 127.0.0.1 nobody listens on (just bound and released). */
static guint16
free_port (void)
{
  g_autoptr(GSocket) sock = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) lo = g_inet_address_new_from_string ("127.0.0.1");
  g_autoptr(GSocketAddress) addr = g_inet_socket_address_new (lo, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  g_assert_nonnull (sock);
  g_assert_true (g_socket_bind (sock, addr, FALSE, NULL));
  bound = g_socket_get_local_address (sock, NULL);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static gboolean
port_open (guint16 port)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) conn = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL, NULL);

  return conn != NULL;
}

static char *
host_block (const char *alias,
            const char *extra_env,
            const char *extra)
{
  return g_strdup_printf ("Host %s\n"
                          "  SetEnv TMPDIR=%s PROCURA_PROBE_LIBCUDA=%s PROCURA_PROBE_LIBNVML=%s %s\n"
                          "%s",
                          alias, remote_tmp,
                          g_getenv ("PROCURA_TEST_FAKE_CUDA"), g_getenv ("PROCURA_TEST_FAKE_NVML"),
                          extra_env, extra ? extra : "");
}

/* Sets up keys, configurations and sshd; returns NULL or why the tests are skipped. */
static char *
start_sshd (void)
{
  g_autofree char *host_key = tmp_path ("host_key");
  g_autofree char *host_pub = tmp_path ("host_key.pub");
  g_autofree char *other_pub = tmp_path ("other_key.pub");
  g_autofree char *client_key = tmp_path ("client_key");
  g_autofree char *client_pub = tmp_path ("client_key.pub");
  g_autofree char *auth = tmp_path ("authorized_keys");
  g_autofree char *known = tmp_path ("known_hosts");
  g_autofree char *sshd_config = tmp_path ("sshd_config");
  g_autofree char *sshd_log = tmp_path ("sshd.log");
  g_autofree char *pid_file = tmp_path ("sshd.pid");
  g_autofree char *host_pub_text = NULL, *other_pub_text = NULL, *client_pub_text = NULL;
  g_autofree char *text = NULL, *a = NULL, *b = NULL, *c = NULL, *slow = NULL, *nodrv = NULL, *wrong = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  guint16 port, refused_port;
  int i;

  if (!g_file_test (SSHD, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup ("OpenSSH's sshd is not installed (" SSHD "): install openssh-server "
                     "(build-aux/procura-dev test does) to run the real ssh tests");

  g_autofree char *ssh_bin = g_find_program_in_path ("ssh");
  g_autofree char *keygen_bin = g_find_program_in_path ("ssh-keygen");

  if (ssh_bin == NULL || keygen_bin == NULL)
    return g_strdup ("the OpenSSH client (ssh, ssh-keygen) is not installed: install openssh-client");
  /* as root, sshd wants its privilege separation folder (the package's service makes it) */
  if (geteuid () == 0 && !g_file_test ("/run/sshd", G_FILE_TEST_IS_DIR))
    g_mkdir_with_parents ("/run/sshd", 0755);

  remote_tmp = tmp_path ("remote-tmp");
  g_assert_cmpint (g_mkdir (remote_tmp, 0700), ==, 0);
  keygen ("host_key");
  keygen ("other_key");
  keygen ("client_key");
  host_pub_text = read_text (host_pub);
  other_pub_text = read_text (other_pub);
  client_pub_text = read_text (client_pub);
  text = g_strdup_printf ("%s\n", client_pub_text);
  write_text (auth, text);
  g_clear_pointer (&text, g_free);

  port = free_port ();
  do
    refused_port = free_port ();
  while (refused_port == port);

  text = g_strdup_printf ("Port %u\n"
                          "ListenAddress 127.0.0.1\n"
                          "HostKey %s\n"
                          "PidFile %s\n"
                          "AuthorizedKeysFile %s\n"
                          "StrictModes no\n"
                          "UsePAM no\n"
                          "PubkeyAuthentication yes\n"
                          "PasswordAuthentication no\n"
                          "KbdInteractiveAuthentication no\n"
                          "PermitRootLogin prohibit-password\n"
                          "AcceptEnv TMPDIR PROCURA_PROBE_* FAKE_CUDA_*\n"
                          "MaxStartups 50\n"
                          "LogLevel INFO\n",
                          port, host_key, pid_file, auth);
  write_text (sshd_config, text);
  g_clear_pointer (&text, g_free);

  /* known_hosts: sshd's real key for 127.0.0.1, another key for the "wrongkey" alias */
  text = g_strdup_printf ("[127.0.0.1]:%u %s\nwrongkey %s\n", port, host_pub_text, other_pub_text);
  write_text (known, text);
  g_clear_pointer (&text, g_free);

  a = host_block ("gpu-a", "FAKE_CUDA_MEMORY_MIB=81559 FAKE_CUDA_NAMES=NVIDIA_H100_A FAKE_CUDA_READ_GBPS=3000", NULL);
  b = host_block ("gpu-b", "FAKE_CUDA_MEMORY_MIB=2048 FAKE_CUDA_NAMES=NVIDIA_L4_B FAKE_CUDA_READ_GBPS=250", NULL);
  c = host_block ("gpu-c", "FAKE_CUDA_MEMORY_MIB=49152 FAKE_CUDA_DEVICES=2 FAKE_CUDA_NAMES=NVIDIA_L40S_C FAKE_CUDA_READ_GBPS=800", NULL);
  slow = host_block ("slow", "FAKE_CUDA_MEMORY_MIB=8192 FAKE_CUDA_SLOW_MS=50", NULL);
  nodrv = g_strdup_printf ("Host nodriver\n"
                           "  SetEnv TMPDIR=%s PROCURA_PROBE_LIBCUDA=/nonexistent/libcuda.so.1\n", remote_tmp);
  wrong = host_block ("wrongkey", "", "  HostKeyAlias wrongkey\n");
  text = g_strdup_printf ("%s%s%s%s%s%s"
                          "Host refused\n"
                          "  Port %u\n"
                          "Host *\n"
                          "  HostName 127.0.0.1\n"
                          "  Port %u\n"
                          "  User %s\n"
                          "  IdentityFile %s\n"
                          "  IdentitiesOnly yes\n"
                          "  IdentityAgent none\n"
                          "  UserKnownHostsFile %s\n"
                          "  GlobalKnownHostsFile /dev/null\n"
                          "  StrictHostKeyChecking yes\n"
                          "  CheckHostIP no\n"
                          "  LogLevel ERROR\n",
                          a, b, c, slow, nodrv, wrong, refused_port, port, g_get_user_name (),
                          client_key, known);
  ssh_config = tmp_path ("ssh_config");
  write_text (ssh_config, text);
  g_clear_pointer (&text, g_free);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_subprocess_launcher_set_stderr_file_path (launcher, sshd_log);
  sshd = g_subprocess_launcher_spawn (launcher, &error, SSHD, "-D", "-e", "-f", sshd_config, NULL);
  g_assert_no_error (error);
  for (i = 0; i < 100 && !port_open (port); i++)
    {
      g_autofree char *log = NULL;

      g_usleep (100000);
      if (g_file_get_contents (sshd_log, &log, NULL, NULL) && strstr (log, "fatal") != NULL)
        break;
    }
  if (!port_open (port))
    {
      g_autofree char *log = NULL;

      g_file_get_contents (sshd_log, &log, NULL, NULL);
      g_error ("sshd did not start on 127.0.0.1:%u: %s", port, log ? log : "(no log)");
    }

  /* one plain login first: an account sshd refuses (locked root) is a skip, not a failure */
  {
    const char *argv[] = { "ssh", "-F", ssh_config, "-T", "-o", "BatchMode=yes", "gpu-a", "true", NULL };
    g_autofree char *err = NULL;
    int status = 0;

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                  NULL, NULL, NULL, &err, &status, &error);
    g_assert_no_error (error);
    if (!g_spawn_check_wait_status (status, NULL))
      {
        g_autofree char *log = NULL;

        g_file_get_contents (sshd_log, &log, NULL, NULL);
        if (log != NULL && strstr (log, "account is locked") != NULL)
          return g_strdup_printf ("sshd refuses the account %s (locked): cannot log in to run the ssh tests",
                                  g_get_user_name ());
        g_error ("a plain ssh login to the test sshd failed: %s\nsshd: %s", err, log ? log : "");
      }
  }
  plan_path = tmp_path ("plan.json");
  write_text (plan_path, plan_small);
  return NULL;
}

static void
stop_sshd (void)
{
  if (sshd == NULL)
    return;
  g_subprocess_send_signal (sshd, SIGTERM);
  g_subprocess_wait (sshd, NULL, NULL);
  g_clear_object (&sshd);
}

static gboolean
skip_if_needed (void)
{
  if (skip_reason == NULL)
    return FALSE;
  g_test_skip (skip_reason);
  return TRUE;
}

static guint
dir_entries (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

/* Processes whose environment holds @needle (the remote side: TMPDIR=remote_tmp) or whose
 * command line does (the local side: the ssh configuration's path). */
static guint
count_processes (const char *needle,
                 gboolean    in_environ)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (proc);
  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *data = NULL;
      gsize len = 0, i;

      if (!g_ascii_isdigit (name[0]) || atoi (name) == getpid ())
        continue;
      path = g_build_filename ("/proc", name, in_environ ? "environ" : "cmdline", NULL);
      if (!g_file_get_contents (path, &data, &len, NULL) || len == 0)
        continue;
      for (i = 0; i < len; i++)
        if (data[i] == '\0')
          data[i] = '\n';
      data[len - 1] = '\0';
      if (strstr (data, needle) != NULL)
        n++;
    }
  return n;
}

static int
run_cli (const char * const *argv,
         char              **out,
         char              **err)
{
  return procura_test_run_cli (argv, out, err);
}

/* ------------------------------------------------------------------------- */

static void
test_run (void)
{
  const char *argv[] = { "probe", "--ssh", "gpu-a", "--ssh-config", ssh_config, "--plan", plan_path, "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  guint n;

  if (skip_if_needed ())
    return;
  if (run_cli (argv, &out, &err) != 0)
    g_error ("procura probe --ssh gpu-a failed: %s", err);
  lines = g_strsplit (g_strstrip (out), "\n", -1);
  n = g_strv_length (lines);
  g_assert_cmpuint (n, >=, 4);
  g_assert_true (g_str_has_prefix (lines[0], "{\"event\":\"hello\""));
  /* the remote side's environment (its fake GPU) came through ssh */
  g_assert_nonnull (strstr (out, "\"name\":\"NVIDIA_H100_A\""));
  g_assert_nonnull (strstr (out, "\"test\":\"fit\""));
  g_assert_nonnull (strstr (out, "\"fits\":true"));
  g_assert_true (g_str_has_prefix (lines[n - 1], "{\"event\":\"done\",\"status\":\"ok\""));
  /* copied, run and removed: nothing left in the remote TMPDIR */
  g_assert_cmpuint (dir_entries (remote_tmp), ==, 0);
}

typedef struct {
  gint64        hello_at;
  gint64        done_at;
  guint         progress;
  GCancellable *cancel;
} StreamData;

static void
stream_event (const char *event,
              JsonObject *object,
              gpointer    user_data)
{
  StreamData *d = user_data;

  if (g_str_equal (event, "hello"))
    d->hello_at = g_get_monotonic_time ();
  else if (g_str_equal (event, "done"))
    d->done_at = g_get_monotonic_time ();
  else if (g_str_equal (event, "progress"))
    {
      d->progress++;
      if (d->cancel != NULL)
        g_cancellable_cancel (d->cancel);
    }
}

static ProcuraProbeOptions *
ssh_options (const char *host,
             const char *plan)
{
  ProcuraProbeOptions *o = procura_probe_options_new ();

  o->probe_path = g_strdup (g_getenv ("PROCURA_PROBE"));
  o->ssh_host = g_strdup (host);
  o->ssh_config = g_strdup (ssh_config);
  o->plan_json = g_strdup (plan);
  return o;
}

static void
test_stream (void)
{
  g_autoptr(ProcuraProbeOptions) o = NULL;
  g_autoptr(ProcuraProbeReport) report = NULL;
  g_autoptr(GError) error = NULL;
  StreamData d = { 0 };

  if (skip_if_needed ())
    return;
  o = ssh_options ("slow", plan_stream);
  report = procura_probe_run_sync (o, NULL, stream_event, &d, &error);
  g_assert_no_error (error);
  if (report->status != PROCURA_PROBE_STATUS_OK)
    g_error ("%s\n%s", report->message, report->stderr_tail);
  /* the lines came as the probe wrote them: hello long before done (40 x 50 ms) */
  g_assert_cmpint (d.hello_at, >, 0);
  g_assert_cmpint (d.done_at - d.hello_at, >=, 1500000);
  g_assert_cmpuint (d.progress, >=, 10);
  g_assert_cmpuint (dir_entries (remote_tmp), ==, 0);
}

static void
test_cancel (void)
{
  g_autoptr(ProcuraProbeOptions) o = NULL;
  g_autoptr(ProcuraProbeReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  g_autofree char *marker = g_strdup_printf ("TMPDIR=%s", remote_tmp);
  StreamData d = { 0 };
  gint64 start = g_get_monotonic_time ();
  int i;

  if (skip_if_needed ())
    return;
  o = ssh_options ("slow", plan_long);
  d.cancel = cancel;
  report = procura_probe_run_sync (o, cancel, stream_event, &d, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (report);
  g_assert_cmpuint (d.progress, >=, 1);
  /* cancelled long before the probe's 20 s */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
  /* the local ssh is reaped before the call returns */
  g_assert_cmpuint (count_processes (ssh_config, FALSE), ==, 0);
  /* the remote probe notices the closed connection at its next line, stops and its
   * folder goes: give it a few seconds */
  for (i = 0; i < 100; i++)
    {
      if (count_processes (marker, TRUE) == 0 && dir_entries (remote_tmp) == 0)
        break;
      g_usleep (100000);
    }
  g_assert_cmpuint (count_processes (marker, TRUE), ==, 0);
  g_assert_cmpuint (dir_entries (remote_tmp), ==, 0);
}

static void
test_refused (void)
{
  const char *argv[] = { "probe", "--ssh", "refused", "--ssh-config", ssh_config, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  gint64 start = g_get_monotonic_time ();

  if (skip_if_needed ())
    return;
  g_assert_cmpint (run_cli (argv, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "could not connect to refused: Connection refused"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 15 * G_USEC_PER_SEC);
}

static void
test_host_key_mismatch (void)
{
  const char *argv[] = { "probe", "--ssh", "wrongkey", "--ssh-config", ssh_config, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  if (skip_if_needed ())
    return;
  g_assert_cmpint (run_cli (argv, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "could not connect to wrongkey: the host key does not match"));
  g_assert_null (strstr (out, "\"event\""));
  g_assert_cmpuint (dir_entries (remote_tmp), ==, 0);
}

static void
test_no_driver (void)
{
  const char *argv[] = { "probe", "--ssh", "nodriver", "--ssh-config", ssh_config, NULL };
  const char *json_argv[] = { "probe", "--ssh", "nodriver", "--ssh-config", ssh_config, "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  if (skip_if_needed ())
    return;
  g_assert_cmpint (run_cli (argv, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "No NVIDIA driver was found on nodriver"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (json_argv, &out, &err), ==, 1);
  g_assert_nonnull (strstr (out, "\"kind\":\"no-driver\""));
  g_assert_nonnull (strstr (out, "\"exit_code\":3"));
  g_assert_cmpuint (dir_entries (remote_tmp), ==, 0);
}

static JsonObject *
fleet_node (JsonObject *summary,
            const char *host)
{
  JsonArray *nodes = json_object_get_array_member (summary, "nodes");
  guint i;

  for (i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *n = json_array_get_object_element (nodes, i);

      if (g_str_equal (json_object_get_string_member (n, "host"), host))
        return n;
    }
  g_error ("no node %s in the fleet summary", host);
  return NULL;
}

static void
test_fleet (void)
{
  g_autofree char *hosts = tmp_path ("hosts");
  g_autofree char *project = tmp_path ("fleet.procura");
  const char *argv[] = { "probe", "--hosts", hosts, "--ssh-config", ssh_config, "--plan", plan_path,
                         "--bandwidth", "--parallel", "2", "--json", "--into", project, NULL };
  const char *text_argv[] = { "probe", "--hosts", hosts, "--ssh-config", ssh_config, "--plan", plan_path,
                              "--bandwidth", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(ProcuraStore) store = NULL;
  g_autoptr(GHashTable) devices = g_hash_table_new (g_str_hash, g_str_equal);
  JsonObject *summary, *a, *b, *c, *slowest, *failed;
  ProcuraProject *p;
  guint i;

  if (skip_if_needed ())
    return;
  write_text (hosts, "# the candidate nodes\n"
                     "gpu-a\n"
                     "\n"
                     "gpu-b   # the small one\n"
                     "gpu-c\n"
                     "refused\n");
  store = procura_store_create (project, "fleet", &error);
  g_assert_no_error (error);
  g_clear_pointer (&store, procura_store_close);

  /* one host failed: exit 1, but the others are summarised and stored */
  g_assert_cmpint (run_cli (argv, &out, &err), ==, 1);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  summary = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (summary, "event"), ==, "fleet");
  g_assert_cmpint (json_object_get_int_member (summary, "hosts"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (summary, "ran"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (summary, "failed"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (summary, "fit"), ==, 2);

  a = fleet_node (summary, "gpu-a");
  b = fleet_node (summary, "gpu-b");
  c = fleet_node (summary, "gpu-c");
  g_assert_true (json_object_get_boolean_member (a, "fits"));
  g_assert_false (json_object_get_boolean_member (b, "fits"));
  g_assert_true (json_object_get_boolean_member (c, "fits"));
  g_assert_cmpint (json_object_get_int_member (c, "gpus"), ==, 2);
  /* more memory, more headroom: the H100 node has 80 GiB, the L40S node 48 GiB */
  g_assert_cmpint (json_object_get_int_member (a, "headroom_bytes"), >,
                   json_object_get_int_member (c, "headroom_bytes"));
  g_assert_cmpint (json_object_get_int_member (c, "headroom_bytes"), >, 0);
  g_assert_cmpint (json_object_get_int_member (b, "missing_bytes"), >, 0);
  g_assert_true (json_object_get_null_member (b, "headroom_bytes"));
  g_assert_cmpfloat (json_object_get_double_member (a, "read_gbps"), ==, 3000.0);
  g_assert_cmpfloat (json_object_get_double_member (c, "read_gbps"), ==, 800.0);
  slowest = json_object_get_object_member (summary, "slowest_read");
  g_assert_nonnull (slowest);
  g_assert_cmpfloat (json_object_get_double_member (slowest, "gbps"), <=, 800.0);
  failed = json_array_get_object_element (json_object_get_array_member (summary, "failed_nodes"), 0);
  g_assert_cmpstr (json_object_get_string_member (failed, "host"), ==, "refused");
  g_assert_nonnull (strstr (json_object_get_string_member (failed, "message"),
                            "could not connect to refused: Connection refused"));
  g_assert_nonnull (strstr (err, "of 3 node(s) and 1 failed node(s)"));

  /* every node that ran is in the project, with its own provenance; the node that
   * failed too, as such (host, status, reason, when), never among the results */
  store = procura_store_open (project, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  for (i = 0; i < p->probe_results->len; i++)
    {
      ProcuraProbeResult *r = p->probe_results->pdata[i];

      if (r->device_name != NULL)
        g_hash_table_add (devices, r->device_name);
    }
  g_assert_true (g_hash_table_contains (devices, "NVIDIA_H100_A"));
  g_assert_true (g_hash_table_contains (devices, "NVIDIA_L4_B"));
  g_assert_true (g_hash_table_contains (devices, "NVIDIA_L40S_C"));
  g_assert_false (g_hash_table_contains (devices, "refused"));
  g_hash_table_remove_all (devices);
  g_assert_cmpuint (p->probe_failures->len, ==, 1);
  {
    const ProcuraProbeResult *f = g_ptr_array_index (p->probe_failures, 0);
    g_autofree char *host = procura_probe_failure_get (f, "host");
    g_autofree char *status = procura_probe_failure_get (f, "status");
    g_autofree char *reason = procura_probe_failure_get (f, "reason");

    g_assert_cmpstr (host, ==, "refused");
    g_assert_cmpstr (status, ==, "failed");
    g_assert_nonnull (strstr (reason, "could not connect to refused: Connection refused"));
    g_assert_nonnull (f->measured_at);
    g_assert_cmpint (f->candidate_id, ==, 0);
  }
  procura_project_free (p);
  g_clear_pointer (&store, procura_store_close);
  g_assert_cmpuint (dir_entries (remote_tmp), ==, 0);

  /* the decision record's fleet section: one row per node that ran */
  {
    g_autofree char *md = tmp_path ("fleet.md");
    const char *report_argv[] = { "report", project, "--output", md, NULL };
    g_autofree char *text = NULL;
    g_autofree char *rout = NULL;
    g_autofree char *rerr = NULL;

    if (run_cli (report_argv, &rout, &rerr) != 0)
      g_error ("procura report failed: %s", rerr);
    g_assert_true (g_file_get_contents (md, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, "## Probe fleet"));
    g_assert_nonnull (strstr (text, "3 nodes probed; the plan fits on 2 of the 3 with a fit result; "
                                    "the slowest HBM read bandwidth is"));
    g_assert_nonnull (strstr (text, "| gpu-a | 1 | yes |"));
    g_assert_nonnull (strstr (text, "| gpu-b | 1 | no | — |"));
    g_assert_nonnull (strstr (text, "| gpu-c | 2 | yes |"));
    g_assert_nonnull (strstr (text, "1 node could not be probed"));
    g_assert_nonnull (strstr (text, "| refused | failed | could not connect to refused: Connection refused"));
  }

  /* and in summary --json */
  {
    const char *summary_argv[] = { "summary", project, "--json", NULL };
    g_autofree char *sout = NULL;
    g_autofree char *serr = NULL;
    g_autoptr (JsonParser) sp = json_parser_new ();
    JsonArray *failures;
    JsonObject *f;

    if (run_cli (summary_argv, &sout, &serr) != 0)
      g_error ("procura summary failed: %s", serr);
    g_assert_true (json_parser_load_from_data (sp, sout, -1, &error));
    g_assert_no_error (error);
    failures = json_object_get_array_member (json_node_get_object (json_parser_get_root (sp)),
                                             "probe_failures");
    g_assert_cmpuint (json_array_get_length (failures), ==, 1);
    f = json_array_get_object_element (failures, 0);
    g_assert_cmpstr (json_object_get_string_member (f, "host"), ==, "refused");
    g_assert_cmpstr (json_object_get_string_member (f, "status"), ==, "failed");
    g_assert_nonnull (strstr (json_object_get_string_member (f, "reason"), "Connection refused"));
    g_assert_nonnull (json_object_get_string_member (f, "failed_at"));
  }

  /* the same as a table */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (text_argv, &out, &err), ==, 1);
  g_assert_nonnull (strstr (out, "Fleet: 4 hosts, 3 ran, 1 failed"));
  g_assert_nonnull (strstr (out, "The plan fits on 2 of 3 nodes that ran"));
  g_assert_nonnull (strstr (out, "Slowest HBM read bandwidth: "));
  g_assert_nonnull (strstr (out, "Failed: refused: could not connect to refused: Connection refused"));
}

static void
test_hosts_file_errors (void)
{
  g_autofree char *hosts = tmp_path ("bad-hosts");
  const char *argv[] = { "probe", "--hosts", hosts, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  write_text (hosts, "gpu-a\n-oProxyCommand=evil\n");
  g_assert_cmpint (run_cli (argv, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "bad-hosts:2: “-oProxyCommand=evil” is not an ssh target"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  write_text (hosts, "# nothing\n\n");
  g_assert_cmpint (run_cli (argv, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "bad-hosts: no host"));
}

int
main (int    argc,
      char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("PROCURA_BINARY") == NULL || g_getenv ("PROCURA_TEST_FAKE_CUDA") == NULL)
    {
      g_test_skip ("run through meson test: PROCURA_BINARY and PROCURA_TEST_FAKE_CUDA are unset");
      return g_test_run ();
    }
  tmp = procura_test_mkdtemp ();
  skip_reason = start_sshd ();

  g_test_add_func ("/probe-ssh/run", test_run);
  g_test_add_func ("/probe-ssh/stream", test_stream);
  g_test_add_func ("/probe-ssh/cancel", test_cancel);
  g_test_add_func ("/probe-ssh/refused", test_refused);
  g_test_add_func ("/probe-ssh/host-key-mismatch", test_host_key_mismatch);
  g_test_add_func ("/probe-ssh/no-driver", test_no_driver);
  g_test_add_func ("/probe-ssh/fleet", test_fleet);
  g_test_add_func ("/probe-ssh/hosts-file-errors", test_hosts_file_errors);

  rc = g_test_run ();
  stop_sshd ();
  procura_test_rmtree (tmp);
  g_free (tmp);
  return rc;
}
