/* test-cli-hostile.c: the CLI against special files, outputs that are inputs,
 * unreachable hosts, hostile text and large numbers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procura-json.h"
#include "procura-json-out.h"
#include "procura-probe-client.h"
#include "procura-store.h"
#include "procura-test-util.h"
#include "procura-util.h"

static char *dir;
/* What the last run_bounded() printed on stdout */
static char *last_out;

/* Runs the binary with @argv and @env_extra (NAME=VALUE or NULL); fails the test when it
 * takes more than @limit_s seconds. Returns the exit status; *@elapsed_s its duration. */
static int
run_bounded (const char * const *argv,
             const char         *env_extra,
             int                 limit_s,
             char              **err,
             double             *elapsed_s)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_auto (GStrv) env = g_get_environ ();
  g_autoptr (GError) error = NULL;
  g_autofree char *err_path = g_build_filename (dir, "stderr.txt", NULL);
  g_autofree char *out_path = g_build_filename (dir, "stdout.txt", NULL);
  gint64 t0 = g_get_monotonic_time ();
  GPid pid;
  int status = 0;
  int fd, out_fd;

  g_ptr_array_add (args, (gpointer) g_getenv ("PROCURA_BINARY"));
  for (gsize i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) argv[i]);
  g_ptr_array_add (args, NULL);
  if (env_extra != NULL)
    {
      g_auto (GStrv) kv = g_strsplit (env_extra, "=", 2);
      env = g_environ_setenv (env, kv[0], kv[1], TRUE);
    }
  fd = g_open (err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (fd, >=, 0);
  out_fd = g_open (out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (out_fd, >=, 0);
  g_spawn_async_with_fds (NULL, (char **) args->pdata, env, G_SPAWN_DO_NOT_REAP_CHILD,
                          NULL, NULL, &pid, -1, out_fd, fd, &error);
  g_assert_no_error (error);
  close (fd);
  close (out_fd);
  for (;;)
    {
      pid_t got = waitpid (pid, &status, WNOHANG);

      if (got == pid)
        break;
      if (g_get_monotonic_time () - t0 > limit_s * G_USEC_PER_SEC)
        {
          kill (pid, SIGKILL);
          waitpid (pid, &status, 0);
          g_error ("procura %s did not finish within %d s", argv[0], limit_s);
        }
      g_usleep (10000);
    }
  if (elapsed_s != NULL)
    *elapsed_s = (g_get_monotonic_time () - t0) / 1e6;
  g_assert_true (g_file_get_contents (err_path, err, NULL, NULL));
  g_clear_pointer (&last_out, g_free);
  g_assert_true (g_file_get_contents (out_path, &last_out, NULL, NULL));
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static char *
make_project (const char *name,
              const char *title,
              const char *candidate,
              const char *notes,
              double      price)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraCandidate) c = procura_candidate_new ();
  char *path = g_build_filename (dir, name, NULL);
  ProcuraStore *store = procura_store_create (path, title, &error);

  g_assert_no_error (error);
  c->name = g_strdup (candidate);
  c->notes = g_strdup (notes);
  c->gpu_name = g_strdup ("H100 80GB");
  c->gpus_per_replica = 1;
  c->price_per_gpu_hour = price;
  g_assert_cmpint (procura_store_add_candidate (store, c, &error), >, 0);
  procura_store_close (store);
  return path;
}

static char *
sha_of (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return procura_sha256_hex (data, len);
}

/* import and inspect refuse a FIFO at once (opening it for reading would block). */
static void
test_fifo (void)
{
  g_autofree char *fifo = g_build_filename (dir, "results.json", NULL);
  g_autofree char *project = make_project ("fifo.procura", "FIFO", "gpu", NULL, 2);
  const char *import_argv[] = { "import", project, fifo, NULL };
  const char *inspect_argv[] = { "inspect", fifo, NULL };
  g_autofree char *err = NULL;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (run_bounded (inspect_argv, NULL, 10, &err, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "not a regular file"));
  g_assert_nonnull (strstr (err, fifo));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_bounded (import_argv, NULL, 10, &err, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "not a regular file"));
}

/* Every other file a user names is read the same way: a FIFO is refused at once by
 * apply (a decision document), fit --model (a config.json) and fit --quant-config. */
static void
test_fifo_every_input (void)
{
  g_autofree char *fifo = g_build_filename (dir, "every-fifo.json", NULL);
  g_autofree char *project = make_project ("fifo-every.procura", "FIFO", "gpu", NULL, 2);
  g_autofree char *before = sha_of (project);
  g_autofree char *after = NULL;
  const char *apply_argv[] = { "apply", project, fifo, NULL };
  const char *model_argv[] = { "fit", "--model", fifo, "--gpu", "H100 SXM", NULL };
  const char *quant_argv[] = { "fit", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--gpu", "H100 SXM",
                                "--quant-config", fifo, NULL };
  const char * const *runs[] = { apply_argv, model_argv, quant_argv };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *err = NULL;
      int rc = run_bounded (runs[i], NULL, 10, &err, NULL);

      g_test_message ("procura %s: exit %d: %s", runs[i][0], rc, err);
      g_assert_cmpint (rc, !=, 0);
      g_assert_nonnull (strstr (err, "not a regular file"));
      g_assert_nonnull (strstr (err, fifo));
    }
  after = sha_of (project);
  g_assert_cmpstr (before, ==, after);
}

/* procura cost reads its input through core's safe front door: a FIFO is refused at
 * once, JSON nested 100,000 deep is refused by the depth limit (no stack overflow), and
 * a syntax error names the line and column. */
static void
test_cost_input (void)
{
  g_autofree char *fifo = g_build_filename (dir, "cost-fifo.json", NULL);
  g_autofree char *deep = g_build_filename (dir, "cost-deep.json", NULL);
  g_autofree char *bad = g_build_filename (dir, "cost-bad.json", NULL);
  const char *fifo_argv[] = { "cost", fifo, NULL };
  const char *deep_argv[] = { "cost", deep, "--json", NULL };
  const char *bad_argv[] = { "cost", bad, NULL };
  g_autofree char *err = NULL;
  GString *nest = g_string_new ("{\"window_hours\": 730, \"candidates\": ");

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (run_bounded (fifo_argv, NULL, 10, &err, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "not a regular file"));
  g_assert_nonnull (strstr (err, fifo));
  g_clear_pointer (&err, g_free);

  for (int i = 0; i < 100000; i++)
    g_string_append_c (nest, '[');
  g_assert_true (g_file_set_contents (deep, nest->str, nest->len, NULL));
  g_string_free (nest, TRUE);
  g_assert_cmpint (run_bounded (deep_argv, NULL, 30, &err, NULL), ==, 1);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, deep));
  g_assert_nonnull (strstr (err, "deep"));
  g_assert_cmpstr (last_out, ==, "");
  g_clear_pointer (&err, g_free);

  /* json-glib alone would take the single quotes */
  g_assert_true (g_file_set_contents (bad, "{\"window_hours\": 730,\n 'candidates': []}", -1, NULL));
  g_assert_cmpint (run_bounded (bad_argv, NULL, 30, &err, NULL), ==, 1);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, "cost-bad.json:2:"));
}

/* Text mode prints project text through the one terminal sanitiser: no escape sequence
 * or other control character from a project reaches the terminal (JSON escapes them). */
static void
test_text_escapes (void)
{
  const char *evil = "T\033]0;owned\007\033[2J\302\233 \r";
  g_autofree char *title = g_strconcat ("Title ", evil, NULL);
  g_autofree char *name = g_strconcat ("gpu ", evil, NULL);
  g_autofree char *project = make_project ("term.procura", title, name, evil, 2);
  g_autofree char *other = make_project ("term-other.procura", "Other", "gpu", NULL, 3);
  const char *summary_argv[] = { "summary", project, NULL };
  const char *get_argv[] = { "get", project, NULL };
  const char *diff_argv[] = { "diff", other, project, NULL };
  const char *summary_json[] = { "summary", project, "--json", NULL };
  const char * const *text_runs[] = { summary_argv, get_argv, diff_argv };
  g_autofree char *err = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (text_runs); i++)
    {
      int rc = run_bounded (text_runs[i], NULL, 120, &err, NULL);

      g_test_message ("procura %s: exit %d", text_runs[i][0], rc);
      g_assert_cmpint (rc, ==, 0);
      /* the text is there, its control characters are not */
      g_assert_nonnull (strstr (last_out, "owned"));
      for (const char *p = last_out; *p != '\0'; p++)
        if ((guchar) *p < 0x20 && *p != '\n' && *p != '\t')
          g_error ("procura %s printed control character 0x%02x", text_runs[i][0], (guchar) *p);
      g_assert_true (g_utf8_validate (last_out, -1, NULL));
      g_assert_null (strstr (last_out, "\302\233"));   /* C1 CSI */
      g_clear_pointer (&err, g_free);
    }

  /* JSON mode keeps the exact text (escaped by the generator), as before */
  g_assert_cmpint (run_bounded (summary_json, NULL, 120, &err, NULL), ==, 0);
  g_assert_null (strchr (last_out, '\033'));
  g_assert_nonnull (strstr (last_out, "\\u001b]0;owned"));
}

/* A Markdown report writes its figures beside it: one of them that would be the
 * project is refused before anything is written; a CSV's -metrics.csv likewise. */
static void
test_report_extra_files (void)
{
  g_autofree char *sub = g_build_filename (dir, "extra", NULL);
  g_autofree char *project = NULL;
  g_autofree char *md = NULL, *figure = NULL, *csv = NULL, *metrics = NULL;
  g_autofree char *before = NULL, *after = NULL, *err = NULL;
  const char *md_argv[] = { "report", NULL, "--output", NULL, NULL };
  const char *csv_argv[] = { "report", NULL, "--output", NULL, NULL };
  g_autoptr (GDir) d = NULL;
  const char *entry;
  guint figures = 0;

  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  project = make_project ("extra/plan.procura", "Extra", "gpu", NULL, 2);
  md = g_build_filename (sub, "r.md", NULL);
  md_argv[1] = project;
  md_argv[3] = md;
  /* a first report shows which figure files a report of this project writes */
  g_assert_cmpint (run_bounded (md_argv, NULL, 120, &err, NULL), ==, 0);
  g_clear_pointer (&err, g_free);
  d = g_dir_open (sub, 0, NULL);
  while ((entry = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (entry, "r-") && g_str_has_suffix (entry, ".png"))
      {
        if (figure == NULL)
          figure = g_build_filename (sub, entry, NULL);
        figures++;
      }
  g_test_message ("%u figure(s) beside the Markdown", figures);
  g_assert_nonnull (figure);

  /* the project itself under that figure's name (a hard link: the same file) */
  g_assert_cmpint (g_unlink (figure), ==, 0);
  g_assert_cmpint (link (project, figure), ==, 0);
  g_assert_cmpint (g_unlink (md), ==, 0);
  before = sha_of (project);
  g_assert_cmpint (run_bounded (md_argv, NULL, 120, &err, NULL), ==, 2);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, figure));
  g_assert_nonnull (strstr (err, "which the report reads"));
  after = sha_of (project);
  g_assert_cmpstr (before, ==, after);
  g_assert_false (g_file_test (md, G_FILE_TEST_EXISTS));   /* nothing written */
  g_clear_pointer (&err, g_free);

  /* the CSV's metrics file */
  csv = g_build_filename (sub, "t.csv", NULL);
  metrics = g_build_filename (sub, "t-metrics.csv", NULL);
  csv_argv[1] = project;
  csv_argv[3] = csv;
  g_assert_cmpint (symlink (project, metrics), ==, 0);
  g_assert_cmpint (run_bounded (csv_argv, NULL, 120, &err, NULL), ==, 2);
  g_assert_nonnull (strstr (err, metrics));
  g_clear_pointer (&after, g_free);
  after = sha_of (project);
  g_assert_cmpstr (before, ==, after);
  g_assert_false (g_file_test (csv, G_FILE_TEST_EXISTS));
}

/* An output that is the project (another name for the same file) is refused. */
static void
test_output_is_input (void)
{
  g_autofree char *project = make_project ("self.procura", "Self", "gpu", NULL, 2);
  g_autofree char *hard = g_build_filename (dir, "self.pdf", NULL);
  g_autofree char *soft = g_build_filename (dir, "self.png", NULL);
  g_autofree char *before = sha_of (project);
  g_autofree char *after = NULL;
  const char *report_argv[] = { "report", project, "--output", hard, NULL };
  const char *render_argv[] = { "render", project, "cost-curve", "--output", soft, NULL };
  g_autofree char *err = NULL;

  g_assert_cmpint (link (project, hard), ==, 0);
  g_assert_cmpint (symlink (project, soft), ==, 0);
  g_assert_cmpint (run_bounded (report_argv, NULL, 60, &err, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "is the input file"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_bounded (render_argv, NULL, 60, &err, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "is the input file"));
  after = sha_of (project);
  g_assert_cmpstr (before, ==, after);
}

/* An unreachable ssh host fails within the stated connect timeout, saying so. Only
 * loopback: port 1 of 127.0.0.1 refuses the connection. */
static void
test_ssh_unreachable (void)
{
  g_autofree char *ssh = g_find_program_in_path ("ssh");
  g_autoptr (ProcuraProbeOptions) options = procura_probe_options_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) argv = NULL;
  g_autofree char *joined = NULL;
  g_autofree char *timeout = g_strdup_printf ("ConnectTimeout=%d", PROCURA_PROBE_SSH_CONNECT_TIMEOUT_S);
  const char *probe_argv[] = { "probe", "--ssh", "ssh://127.0.0.1:1", NULL };
  g_autofree char *err = NULL;
  double elapsed = 0;

  options->ssh_host = g_strdup ("gpu-box");
  argv = procura_probe_build_argv (options, &error);
  g_assert_no_error (error);
  joined = g_strjoinv (" ", argv);
  g_assert_nonnull (strstr (joined, timeout));

  if (ssh == NULL)
    {
      g_test_skip ("no ssh program in PATH");
      return;
    }
  g_assert_cmpint (run_bounded (probe_argv, NULL, PROCURA_PROBE_SSH_CONNECT_TIMEOUT_S + 20, &err,
                                &elapsed), ==, 1);
  g_test_message ("ssh to a closed port: %.1f s: %s", elapsed, err);
  g_assert_nonnull (strstr (err, "could not connect to ssh://127.0.0.1:1: "));
  g_assert_cmpfloat (elapsed, <, PROCURA_PROBE_SSH_CONNECT_TIMEOUT_S + 10);
}

/* Control characters from the probe (maybe remote) never reach the terminal. */
static void
test_probe_escapes (void)
{
  g_autofree char *script = g_build_filename (dir, "evil-probe", NULL);
  g_autofree char *env = g_strdup_printf ("PROCURA_PROBE=%s", script);
  const char *argv[] = { "probe", NULL };
  g_autofree char *err = NULL;

  g_assert_true (g_file_set_contents (script,
    "#!/bin/sh\n"
    "echo '{\"event\":\"hello\",\"protocol\":1,\"probe_version\":\"x\"}'\n"
    "printf 'garbage \\033]0;owned\\007 \\033[2J\\n'\n"
    "printf 'stderr \\033[31mred\\033[0m \\233 \\n' >&2\n"
    "echo '{\"event\":\"done\",\"status\":\"ok\"}'\n", -1, NULL));
  g_assert_cmpint (g_chmod (script, 0755), ==, 0);
  g_assert_cmpint (run_bounded (argv, env, 60, &err, NULL), ==, 1);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, "garbage"));
  g_assert_null (strchr (err, '\033'));
  g_assert_null (strchr (err, '\007'));
  g_assert_true (g_utf8_validate (err, -1, NULL));
}

/* Project text is escaped for Markdown and neutralised for spreadsheets. */
static void
test_report_escaping (void)
{
  g_autofree char *project = make_project ("escape.procura", "<img src=x onerror=alert(1)> & *bold*",
                                           "=HYPERLINK(\"http://evil.example\")",
                                           "# not a heading\n- not a list", 2.5);
  g_autofree char *md = g_build_filename (dir, "escape.md", NULL);
  g_autofree char *csv = g_build_filename (dir, "escape.csv", NULL);
  const char *md_argv[] = { "report", project, "--output", md, NULL };
  const char *csv_argv[] = { "report", project, "--output", csv, NULL };
  g_autofree char *err = NULL, *md_text = NULL, *csv_text = NULL;

  g_assert_cmpint (run_bounded (md_argv, NULL, 120, &err, NULL), ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_bounded (csv_argv, NULL, 120, &err, NULL), ==, 0);
  g_assert_true (g_file_get_contents (md, &md_text, NULL, NULL));
  g_assert_true (g_file_get_contents (csv, &csv_text, NULL, NULL));

  g_assert_null (strstr (md_text, "<img"));
  g_assert_nonnull (strstr (md_text, "# &lt;img src=x onerror=alert(1)&gt; &amp; \\*bold\\*"));
  g_assert_null (strstr (md_text, "\n# not a heading"));
  /* the candidate's name is a cell; a formula becomes text */
  g_assert_nonnull (strstr (csv_text, "\"'=HYPERLINK(\"\"http://evil.example\"\")\""));
  g_assert_null (strstr (csv_text, ",=HYPERLINK"));
  g_assert_false (g_str_has_prefix (csv_text, "=HYPERLINK"));
}

/* Every number the CLI prints as JSON is valid JSON, large ones included. */
static void
test_json_numbers (void)
{
  const double values[] = { 1e20, -1e21, 1e17, 123456789012345678.0, 1.5e300, 1e-7, 3.0, 0.1, -0.0 };
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (JsonNode) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *input = g_build_filename (dir, "big.json", NULL);
  const char *argv[] = { "inspect", input, "--json", NULL };
  g_autofree char *out = NULL, *err = NULL;
  char *rewritten = NULL;
  gsize rewritten_len = 0;
  JsonArray *array;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "v");
  json_builder_begin_array (b);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    json_builder_add_double_value (b, values[i]);
  json_builder_end_array (b);
  procura_json_add_number (b, "nan", NAN);
  procura_json_add_number (b, "inf", INFINITY);
  json_builder_set_member_name (b, "s");
  json_builder_add_string_value (b, "1e+20.0 stays as it is in a string");
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = procura_json_to_data (root, TRUE);
  back = procura_json_parse ("generated", text, strlen (text), 0, PROCURA_JSON_STRICT, &error);
  g_assert_no_error (error);
  array = json_object_get_array_member (json_node_get_object (back), "v");
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    g_assert_cmpfloat (json_array_get_double_element (array, i), ==, values[i]);
  g_assert_true (json_object_get_null_member (json_node_get_object (back), "nan"));
  g_assert_true (json_object_get_null_member (json_node_get_object (back), "inf"));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (back), "s"), ==,
                   "1e+20.0 stays as it is in a string");

  /* and through the CLI: a run at 1e17 requests/s for 1e20 s (json-glib alone writes
   * "1e+17.0" and "1e+20.0") */
  g_assert_true (g_file_set_contents (input, "{\"backend\": \"vllm\", \"model_id\": \"m\", "
                                      "\"request_rate\": 1e17, \"completed\": 5, \"failed\": 0, "
                                      "\"mean_ttft_ms\": 1, \"mean_tpot_ms\": 1, \"duration\": 1e20}",
                                      -1, NULL));
  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  g_assert_true (procura_json_check ("inspect --json", out, strlen (out), 0, PROCURA_JSON_STRICT,
                                     &rewritten, &rewritten_len, &error));
  g_assert_no_error (error);
  g_free (rewritten);
  g_assert_null (strstr (out, "e+20.0"));
  g_assert_nonnull (strstr (out, ": 1e+20"));
  g_assert_nonnull (strstr (out, ": 1e+17"));
}

/* The JSON of set, get, export and diff is valid JSON with large numbers too; a value
 * larger than a project holds is refused by set. */
static void
test_json_numbers_project (void)
{
  g_autofree char *old = g_build_filename (dir, "big-old.procura", NULL);
  g_autofree char *new = g_build_filename (dir, "big-new.procura", NULL);
  const char *demo_old[] = { "demo", old, NULL };
  const char *demo_new[] = { "demo", new, NULL };
  const char *set_argv[] = { "set", new, "brief.window_hours=1e17", "brief.demand_average=1.5e16", "--json", NULL };
  const char *get_argv[] = { "get", new, "--json", NULL };
  const char *export_argv[] = { "export", new, NULL };
  const char *diff_argv[] = { "diff", old, new, "--json", NULL };
  const char * const *commands[] = { set_argv, get_argv, export_argv, diff_argv };

  g_assert_cmpint (procura_test_run_cli (demo_old, NULL, NULL), ==, 0);
  g_assert_cmpint (procura_test_run_cli (demo_new, NULL, NULL), ==, 0);
  {
    const char *too_big[] = { "set", new, "brief.window_hours=1e20", NULL };
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (procura_test_run_cli (too_big, &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, "brief.window_hours"));
    g_assert_nonnull (strstr (err, "at most 1e18"));
  }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      g_autoptr (GError) error = NULL;
      char *rewritten = NULL;
      gsize rewritten_len = 0;

      g_test_message ("procura %s", commands[i][0]);
      g_assert_cmpint (procura_test_run_cli (commands[i], &out, &err), ==, 0);
      g_assert_true (procura_json_check (commands[i][0], out, strlen (out), 0, PROCURA_JSON_STRICT,
                                         &rewritten, &rewritten_len, &error));
      g_assert_no_error (error);
      g_free (rewritten);
      g_assert_null (strstr (out, "e+17.0"));
      g_assert_null (strstr (out, "e+16.0"));
      if (i > 0)   /* set --json lists the keys it set */
        g_assert_nonnull (strstr (out, "1e+17"));
    }
}

/* `procura` links no cairo: its `render` and `report` run procura-render (beside it, else
 * in PKGLIBEXECDIR). A copy of `procura` with neither there says which program it could
 * not run and where, and writes nothing. */
static void
test_figures_helper_missing (void)
{
  g_autofree char *installed = g_build_filename (PKGLIBEXECDIR, "procura-render", NULL);
  g_autofree char *bin_dir = g_build_filename (dir, "lonely-bin", NULL);
  g_autofree char *copy = g_build_filename (bin_dir, "procura", NULL);
  g_autofree char *project = make_project ("helper.procura", "Helper", "H100", NULL, 2.0);
  g_autofree char *out = g_build_filename (dir, "helper.png", NULL);
  g_autofree char *data = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  gsize len = 0;
  int status = 0;

  if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("procura-render is installed in PKGLIBEXECDIR: the copy would find it");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (bin_dir, 0700), ==, 0);
  g_assert_true (g_file_get_contents (g_getenv ("PROCURA_BINARY"), &data, &len, NULL));
  g_assert_true (g_file_set_contents (copy, data, (gssize) len, NULL));
  g_assert_cmpint (g_chmod (copy, 0700), ==, 0);
  for (int c = 0; c < 2; c++)
    {
      const char *cmd = c == 0 ? "render" : "report";
      const char *argv[] = { copy, cmd, project, c == 0 ? "breakdown" : "--output",
                             c == 0 ? "--output" : out, c == 0 ? out : NULL, NULL };
      g_autofree char *expected = g_strdup_printf ("cannot run “%s” (%s)", cmd, installed);

      g_clear_pointer (&err, g_free);
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                                   NULL, &err, &status, &error));
      g_assert_no_error (error);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 1);
      g_assert_nonnull (strstr (err, expected));
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  /* the build tree's procura runs the helper beside it: the same command draws */
  {
    const char *argv[] = { "render", project, "breakdown", "--output", out, NULL };

    g_clear_pointer (&err, g_free);
    g_assert_cmpint (run_bounded (argv, NULL, 60, &err, NULL), ==, 0);
    g_assert_true (g_file_test (out, G_FILE_TEST_IS_REGULAR));
  }
}

int
main (int    argc,
      char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("PROCURA_BINARY") == NULL)
    {
      g_test_skip ("run through meson test: PROCURA_BINARY is unset");
      return g_test_run ();
    }
  dir = procura_test_mkdtemp ();

  g_test_add_func ("/cli/hostile/fifo", test_fifo);
  g_test_add_func ("/cli/hostile/output-is-input", test_output_is_input);
  g_test_add_func ("/cli/hostile/cost-input", test_cost_input);
  g_test_add_func ("/cli/hostile/fifo-every-input", test_fifo_every_input);
  g_test_add_func ("/cli/hostile/text-escapes", test_text_escapes);
  g_test_add_func ("/cli/hostile/report-extra-files", test_report_extra_files);
  g_test_add_func ("/cli/hostile/ssh-unreachable", test_ssh_unreachable);
  g_test_add_func ("/cli/hostile/probe-escapes", test_probe_escapes);
  g_test_add_func ("/cli/hostile/report-escaping", test_report_escaping);
  g_test_add_func ("/cli/hostile/json-numbers", test_json_numbers);
  g_test_add_func ("/cli/hostile/json-numbers-project", test_json_numbers_project);
  g_test_add_func ("/cli/hostile/figures-helper-missing", test_figures_helper_missing);

  rc = g_test_run ();
  procura_test_rmtree (dir);
  g_free (dir);
  g_free (last_out);
  return rc;
}
