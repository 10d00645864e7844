/* procura-probe-client.c: runs procura-probe and reads its JSON Lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <glib/gi18n-lib.h>
#endif

#include "procura-host-tools.h"
#include "procura-probe-client.h"
#include "procura-util.h"

#define MAX_LINES        100000
#define MAX_LINE_BYTES   (1 << 20)
#define STDERR_KEEP      8192
#define DRAIN_AFTER_EXIT_MS 2000

static int probe_run_tag;

/* ------------------------------------------------------------------------- */
/* Small things                                                               */

const char *
procura_probe_status_to_string (ProcuraProbeStatus status)
{
  switch (status)
    {
    case PROCURA_PROBE_STATUS_OK: return "ok";
    case PROCURA_PROBE_STATUS_DOES_NOT_FIT: return "does-not-fit";
    case PROCURA_PROBE_STATUS_NO_DRIVER: return "no-driver";
    case PROCURA_PROBE_STATUS_NO_DEVICE: return "no-device";
    case PROCURA_PROBE_STATUS_BAD_INPUT: return "bad-input";
    case PROCURA_PROBE_STATUS_DRIVER_ERROR: return "driver-error";
    case PROCURA_PROBE_STATUS_TIMEOUT: return "timeout";
    case PROCURA_PROBE_STATUS_INTERRUPTED: return "interrupted";
    case PROCURA_PROBE_STATUS_CRASHED: return "crashed";
    case PROCURA_PROBE_STATUS_PROTOCOL_ERROR: return "protocol-error";
    case PROCURA_PROBE_STATUS_SPAWN_FAILED: return "spawn-failed";
    case PROCURA_PROBE_STATUS_FAILED: return "failed";
    default: return "failed";
    }
}

gboolean
procura_probe_status_is_calm (ProcuraProbeStatus status)
{
  return status == PROCURA_PROBE_STATUS_NO_DRIVER || status == PROCURA_PROBE_STATUS_NO_DEVICE;
}

ProcuraProbeOptions *
procura_probe_options_new (void)
{
  return g_new0 (ProcuraProbeOptions, 1);
}

ProcuraProbeOptions *
procura_probe_options_copy (const ProcuraProbeOptions *o)
{
  ProcuraProbeOptions *c = procura_probe_options_new ();

  /* the plain fields, then a copy of every owned one (keep in step with _free) */
  *c = *o;
  c->probe_path = g_strdup (o->probe_path);
  c->devices = g_strdup (o->devices);
  c->plan_path = g_strdup (o->plan_path);
  c->plan_json = g_strdup (o->plan_json);
  c->ssh_host = g_strdup (o->ssh_host);
  c->ssh_program = g_strdup (o->ssh_program);
  c->ssh_config = g_strdup (o->ssh_config);
  c->environ = g_strdupv (o->environ);
  return c;
}

void
procura_probe_options_free (ProcuraProbeOptions *options)
{
  if (options == NULL)
    return;
  g_free (options->probe_path);
  g_free (options->devices);
  g_free (options->plan_path);
  g_free (options->plan_json);
  g_free (options->ssh_host);
  g_free (options->ssh_program);
  g_free (options->ssh_config);
  g_strfreev (options->environ);
  g_free (options);
}

static ProcuraProbeReport *
report_new (void)
{
  ProcuraProbeReport *r = g_new0 (ProcuraProbeReport, 1);

  r->exit_code = -1;
  r->devices = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  r->results = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  r->lines = g_ptr_array_new_with_free_func (g_free);
  return r;
}

void
procura_probe_report_free (ProcuraProbeReport *r)
{
  if (r == NULL)
    return;
  g_free (r->message);
  g_free (r->probe_version);
  g_free (r->driver_version);
  g_free (r->cuda_version);
  g_free (r->started_at);
  g_free (r->error_kind);
  g_free (r->error_detail);
  g_free (r->error_step);
  g_free (r->done_status);
  g_ptr_array_unref (r->devices);
  g_ptr_array_unref (r->results);
  g_ptr_array_unref (r->lines);
  g_free (r->first_garbage);
  g_free (r->stderr_tail);
  g_free (r->host);
  g_free (r);
}

JsonObject *
procura_probe_report_find_result (const ProcuraProbeReport *report,
                                  const char               *test,
                                  int                       device)
{
  guint i;

  for (i = 0; i < report->results->len; i++)
    {
      JsonObject *o = g_ptr_array_index (report->results, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (o, "test", ""), test) == 0
          && json_object_get_int_member_with_default (o, "device", -1) == device)
        return o;
    }
  return NULL;
}

char *
procura_probe_report_to_jsonl (const ProcuraProbeReport *report)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < report->lines->len; i++)
    {
      g_string_append (s, g_ptr_array_index (report->lines, i));
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

char *
procura_probe_find_binary (void)
{
  const char *env = g_getenv ("PROCURA_PROBE");
  char *path;

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  path = procura_find_helper ("probe/procura-probe", "procura-probe");
  return path != NULL ? path : g_find_program_in_path ("procura-probe");
}

/* ------------------------------------------------------------------------- */
/* The command line                                                           */

static void
add_probe_args (GPtrArray                 *argv,
                const ProcuraProbeOptions *o,
                const char                *plan_arg)
{
  g_ptr_array_add (argv, g_strdup ("--json"));
  if (o->devices != NULL)
    {
      g_ptr_array_add (argv, g_strdup ("--device"));
      g_ptr_array_add (argv, g_strdup (o->devices));
    }
  if (plan_arg != NULL)
    {
      g_ptr_array_add (argv, g_strdup ("--plan"));
      g_ptr_array_add (argv, g_strdup (plan_arg));
    }
  if (o->bandwidth)
    g_ptr_array_add (argv, g_strdup ("--bandwidth"));
  if (o->time_limit_s > 0)
    {
      g_ptr_array_add (argv, g_strdup ("--time-limit"));
      g_ptr_array_add (argv, g_strdup_printf ("%d", o->time_limit_s));
    }
}

/* The script run on the remote host by sh: makes a private temporary folder, copies
 * the probe from stdin into it, writes the plan, runs the probe and removes the folder
 * whatever happens (also when the connection drops: the probe then stops on EPIPE). */
static char *
ssh_script (const ProcuraProbeOptions *o,
            const char                *plan_text)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  GString *s = g_string_new (NULL);
  guint i;

  add_probe_args (args, o, plan_text ? "$d/plan.json" : NULL);
  g_string_append (s,
                   "d=$(mktemp -d \"${TMPDIR:-/tmp}/procura-probe.XXXXXX\") || exit 97\n"
                   "trap 'rm -rf \"$d\"' EXIT\n"
                   "trap 'exit 6' HUP INT TERM PIPE\n"
                   "cat > \"$d/procura-probe\" && chmod 700 \"$d/procura-probe\" || exit 98\n");
  if (plan_text != NULL)
    {
      g_autofree char *quoted = g_shell_quote (plan_text);

      g_string_append_printf (s, "printf '%%s' %s > \"$d/plan.json\" || exit 98\n", quoted);
    }
  g_string_append (s, "\"$d/procura-probe\"");
  for (i = 0; i < args->len; i++)
    {
      const char *a = g_ptr_array_index (args, i);

      if (g_str_equal (a, "$d/plan.json"))
        g_string_append (s, " \"$d/plan.json\"");
      else
        {
          g_autofree char *q = g_shell_quote (a);

          g_string_append_printf (s, " %s", q);
        }
    }
  g_string_append (s, " </dev/null\n");
  return g_string_free (s, FALSE);
}

GStrv
procura_probe_build_argv (const ProcuraProbeOptions *o,
                          GError                   **error)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);

  if (o->ssh_host != NULL)
    {
      g_autofree char *plan_text = NULL;
      g_autofree char *script = NULL;
      g_autofree char *quoted = NULL;

      if (o->ssh_host[0] == '-' || o->ssh_host[0] == '\0')
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("“%s” is not a host name"), o->ssh_host);
          return NULL;
        }
      if (o->plan_json != NULL)
        plan_text = g_strdup (o->plan_json);
      else if (o->plan_path != NULL && !g_file_get_contents (o->plan_path, &plan_text, NULL, error))
        return NULL;
      script = ssh_script (o, plan_text);
      quoted = g_shell_quote (script);
      g_ptr_array_add (argv, g_strdup (o->ssh_program ? o->ssh_program : "ssh"));
      g_ptr_array_add (argv, g_strdup ("-T"));
      g_ptr_array_add (argv, g_strdup ("-o"));
      g_ptr_array_add (argv, g_strdup ("BatchMode=yes"));
      g_ptr_array_add (argv, g_strdup ("-o"));
      g_ptr_array_add (argv, g_strdup_printf ("ConnectTimeout=%d",
                                              o->connect_timeout_s > 0 ? o->connect_timeout_s
                                                                      : PROCURA_PROBE_SSH_CONNECT_TIMEOUT_S));
      if (o->ssh_config != NULL)
        {
          g_ptr_array_add (argv, g_strdup ("-F"));
          g_ptr_array_add (argv, g_strdup (o->ssh_config));
        }
      g_ptr_array_add (argv, g_strdup ("--"));
      g_ptr_array_add (argv, g_strdup (o->ssh_host));
      g_ptr_array_add (argv, g_strdup_printf ("exec sh -c %s", quoted));
      g_ptr_array_add (argv, NULL);
      {
        g_auto(GStrv) plain = (GStrv) g_ptr_array_free (g_steal_pointer (&argv), FALSE);

        /* inside a Flatpak: the host's ssh through flatpak-spawn --host */
        return procura_host_wrap_argv ((const char * const *) plain, (const char * const *) o->environ);
      }
    }
  else
    {
      char *probe = o->probe_path ? g_strdup (o->probe_path) : procura_probe_find_binary ();

      if (probe == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("procura-probe was not found (set PROCURA_PROBE or install it in %s)"),
                       PKGLIBEXECDIR);
          return NULL;
        }
      g_ptr_array_add (argv, probe);
      add_probe_args (argv, o, o->plan_json ? "-" : o->plan_path);
    }
  g_ptr_array_add (argv, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&argv), FALSE);
}

/* ------------------------------------------------------------------------- */
/* One run                                                                    */

typedef struct {
  GTask                 *task;          /* not owned: the task owns us */
  GSubprocess           *process;
  GDataInputStream      *out;
  GInputStream          *err;
  GCancellable          *io_cancel;     /* ours: stops the readers after the exit */
  GCancellable          *user_cancel;
  gulong                 cancel_id;
  GSource               *kill_timer;
  GSource               *drain_timer;
  ProcuraProbeEventFunc  event_func;
  gpointer               event_data;
  ProcuraProbeReport    *report;
  GString               *stderr_buf;
  char                   err_chunk[4096];
  double                 kill_after_s;
  gint                   cancelled;     /* atomic */
  gboolean               out_done, err_done, wait_done, completed;
} ProbeRun;

static void
probe_run_free (ProbeRun *run)
{
  if (run->cancel_id != 0)
    g_cancellable_disconnect (run->user_cancel, run->cancel_id);
  if (run->kill_timer != NULL)
    {
      g_source_destroy (run->kill_timer);
      g_source_unref (run->kill_timer);
    }
  if (run->drain_timer != NULL)
    {
      g_source_destroy (run->drain_timer);
      g_source_unref (run->drain_timer);
    }
  g_clear_object (&run->process);
  g_clear_object (&run->out);
  g_clear_object (&run->err);
  g_clear_object (&run->io_cancel);
  g_clear_object (&run->user_cancel);
  g_clear_pointer (&run->report, procura_probe_report_free);
  if (run->stderr_buf != NULL)
    g_string_free (run->stderr_buf, TRUE);
  g_free (run);
}

/* One sentence from what ssh said when it gave up (exit 255). */
static char *
ssh_failure_reason (const char *err)
{
  g_auto(GStrv) lines = g_strsplit (err, "\n", -1);
  const char *last = NULL;
  guint i;

  if (strstr (err, "REMOTE HOST IDENTIFICATION HAS CHANGED") != NULL)
    return g_strdup (_("the host key does not match the one in known_hosts, so the connection was "
                       "refused (if the host was reinstalled, check and update known_hosts)"));
  if (strstr (err, "Host key verification failed") != NULL)
    return g_strdup (_("the host key is not known (connect once with ssh to check and accept it)"));
  if (strstr (err, "Permission denied") != NULL)
    return g_strdup (_("authentication failed (only keys or an agent are used, never a password)"));
  for (i = 0; lines[i] != NULL; i++)
    {
      const char *l = g_strstrip (lines[i]);

      if (*l != '\0')
        last = l;
    }
  if (last == NULL)
    return g_strdup (_("ssh failed without a message"));
  /* "ssh: connect to host H port P: Connection refused" -> "Connection refused" */
  if (g_str_has_prefix (last, "ssh: connect to host ") && strstr (last, ": ") != NULL)
    return g_strdup (strrchr (last, ':') + 2);
  if (g_str_has_prefix (last, "ssh: "))
    return g_strdup (last + 5);
  return g_strdup (last);
}

static void
classify (ProbeRun *run)
{
  ProcuraProbeReport *r = run->report;
  const char *detail = r->error_detail ? r->error_detail : "";
  /* TRANSLATORS: where the probe ran, put after "The probe" and "The NVIDIA driver" in the
   * messages below: " on gpu-a" */
  g_autofree char *where = r->host ? g_strdup_printf (_(" on %s"), r->host) : g_strdup ("");

  r->stderr_tail = g_strdup (run->stderr_buf->str);
  if (r->timed_out && r->protocol == 0 && r->lines->len == 0 && r->garbage_lines == 0)
    {
      /* not one line: the probe greets as soon as cuInit returns, so the driver's start
       * (or, over ssh, the connection) never answered */
      r->status = PROCURA_PROBE_STATUS_TIMEOUT;
      r->message = g_strdup_printf (_("The NVIDIA driver%s did not answer: the probe's start "
                                      "(loading the driver, cuInit) did not finish within %g s "
                                      "and the probe was stopped."), where, run->kill_after_s);
    }
  else if (r->timed_out)
    {
      r->status = PROCURA_PROBE_STATUS_TIMEOUT;
      r->message = g_strdup_printf (_("The probe%s did not finish within %.0f s and was stopped."),
                                    where, run->kill_after_s);
    }
  else if (r->term_signal != 0)
    {
      r->status = PROCURA_PROBE_STATUS_CRASHED;
      r->message = g_strdup_printf (_("The probe%s crashed (signal %d, %s)."), where,
                                    r->term_signal, g_strsignal (r->term_signal));
    }
  else if (r->garbage_lines > 0)
    {
      r->status = PROCURA_PROBE_STATUS_PROTOCOL_ERROR;
      r->message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                 "The probe%s printed %u line that is not probe "
                                                 "protocol, starting with “%s”.",
                                                 "The probe%s printed %u lines that are not probe "
                                                 "protocol, starting with “%s”.", r->garbage_lines),
                                    where, r->garbage_lines, r->first_garbage);
    }
  else if (r->protocol == 0 && r->host != NULL && r->exit_code == 255)
    {
      g_autofree char *reason = ssh_failure_reason (run->stderr_buf->str);

      r->status = PROCURA_PROBE_STATUS_FAILED;
      r->message = g_strdup_printf (_("could not connect to %s: %s"), r->host, reason);
    }
  else if (r->protocol == 0)
    {
      r->status = PROCURA_PROBE_STATUS_PROTOCOL_ERROR;
      r->message = g_strdup_printf (_("The program run as the probe%s did not greet (exit code %d)."),
                                    where, r->exit_code);
    }
  else if (r->protocol != PROCURA_PROBE_PROTOCOL)
    {
      r->status = PROCURA_PROBE_STATUS_PROTOCOL_ERROR;
      r->message = g_strdup_printf (_("The probe%s speaks protocol %d; this Procura understands %d."),
                                    where, r->protocol, PROCURA_PROBE_PROTOCOL);
    }
  else if (r->exit_code == PROCURA_PROBE_EXIT_NO_DRIVER && g_strcmp0 (r->error_kind, "no-driver") == 0)
    {
      r->status = PROCURA_PROBE_STATUS_NO_DRIVER;
      r->message = g_strdup_printf (_("No NVIDIA driver was found%s, so there is nothing to probe here."), where);
    }
  else if (r->done_status == NULL)
    {
      r->status = PROCURA_PROBE_STATUS_PROTOCOL_ERROR;
      r->message = g_strdup_printf (_("The probe%s stopped without its final line (exit code %d)."),
                                    where, r->exit_code);
    }
  else
    switch (r->exit_code)
      {
      case PROCURA_PROBE_EXIT_OK:
        r->status = PROCURA_PROBE_STATUS_OK;
        {
          g_autofree char *gpus = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u GPU", "%u GPUs",
                                                                r->devices->len), r->devices->len);
          g_autofree char *results = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u result", "%u results",
                                                                   r->results->len), r->results->len);

          /* TRANSLATORS: "The probe on gpu-a finished: 8 GPUs, 12 results." */
          r->message = g_strdup_printf (_("The probe%s finished: %s, %s."), where, gpus, results);
        }
        break;
      case PROCURA_PROBE_EXIT_DOES_NOT_FIT:
        r->status = PROCURA_PROBE_STATUS_DOES_NOT_FIT;
        r->message = g_strdup_printf (_("The plan does not fit%s: an allocation failed."), where);
        break;
      case PROCURA_PROBE_EXIT_USAGE:
        r->status = PROCURA_PROBE_STATUS_BAD_INPUT;
        r->message = g_strdup_printf (_("The probe refused its input: %s"), detail);
        break;
      case PROCURA_PROBE_EXIT_DRIVER:
        if (g_strcmp0 (r->error_kind, "no-device") == 0)
          {
            r->status = PROCURA_PROBE_STATUS_NO_DEVICE;
            r->message = g_strdup_printf (_("The NVIDIA driver%s reports no usable GPU."), where);
          }
        else
          {
            r->status = PROCURA_PROBE_STATUS_DRIVER_ERROR;
            r->message = g_strdup_printf (_("The NVIDIA driver%s failed: %s"), where, detail);
          }
        break;
      case PROCURA_PROBE_EXIT_TIMEOUT:
        r->status = PROCURA_PROBE_STATUS_TIMEOUT;
        if (r->error_step != NULL)
          {
            const char *said = g_str_has_prefix (detail, "the NVIDIA driver did not answer: ")
                               ? detail + strlen ("the NVIDIA driver did not answer: ") : NULL;

            if (said != NULL && *said != '\0')
              r->message = g_strdup_printf (_("The NVIDIA driver%s did not answer: %s."), where, said);
            else
              r->message = g_strdup_printf (_("The NVIDIA driver%s did not answer: %s did not return "
                                              "in time."), where, r->error_step);
          }
        else
          r->message = g_strdup_printf (_("The probe%s reached its time limit: %s"), where, detail);
        break;
      case PROCURA_PROBE_EXIT_INTERRUPTED:
        r->status = PROCURA_PROBE_STATUS_INTERRUPTED;
        r->message = g_strdup_printf (_("The probe%s was interrupted."), where);
        break;
      default:
        r->status = PROCURA_PROBE_STATUS_FAILED;
        if (*detail != '\0')
          r->message = g_strdup_printf (_("The probe%s failed (exit code %d): %s"), where, r->exit_code, detail);
        else
          r->message = g_strdup_printf (_("The probe%s failed (exit code %d)."), where, r->exit_code);
        break;
      }
}

static void
maybe_complete (ProbeRun *run)
{
  GTask *task = run->task;

  if (run->completed || !run->out_done || !run->err_done || !run->wait_done)
    return;
  run->completed = TRUE;
  if (g_atomic_int_get (&run->cancelled))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The probe was cancelled"));
  else
    {
      classify (run);
      g_task_return_pointer (task, g_steal_pointer (&run->report), (GDestroyNotify) procura_probe_report_free);
    }
  g_object_unref (task);   /* the reference the run held */
}

static void
handle_line (ProbeRun   *run,
             const char *line,
             gsize       len)
{
  ProcuraProbeReport *r = run->report;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;
  JsonObject *o;
  const char *event;

  if (len == 0)
    return;
  if (len > MAX_LINE_BYTES || !json_parser_load_from_data (parser, line, (gssize) len, NULL)
      || (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root)
      || (event = json_object_get_string_member_with_default (json_node_get_object (root), "event", NULL)) == NULL)
    {
      if (r->garbage_lines++ == 0)
        r->first_garbage = g_utf8_make_valid (line, MIN (len, 200));
      return;
    }
  o = json_node_get_object (root);
  if (r->lines->len < MAX_LINES)
    g_ptr_array_add (r->lines, g_strndup (line, len));

  if (g_str_equal (event, "hello"))
    {
      r->protocol = (int) json_object_get_int_member_with_default (o, "protocol", -1);
      g_free (r->probe_version);
      g_free (r->driver_version);
      g_free (r->cuda_version);
      g_free (r->started_at);
      r->probe_version = g_strdup (json_object_get_string_member_with_default (o, "probe_version", NULL));
      r->driver_version = g_strdup (json_object_get_string_member_with_default (o, "driver_version", NULL));
      r->cuda_version = g_strdup (json_object_get_string_member_with_default (o, "cuda_version", NULL));
      r->started_at = g_strdup (json_object_get_string_member_with_default (o, "started_at", NULL));
    }
  else if (g_str_equal (event, "device") && r->devices->len < MAX_LINES)
    g_ptr_array_add (r->devices, json_object_ref (o));
  else if (g_str_equal (event, "result") && r->results->len < MAX_LINES)
    g_ptr_array_add (r->results, json_object_ref (o));
  else if (g_str_equal (event, "error") && r->error_kind == NULL)
    {
      r->error_kind = g_strdup (json_object_get_string_member_with_default (o, "kind", "unknown"));
      r->error_detail = g_strdup (json_object_get_string_member_with_default (o, "detail", ""));
      if (json_object_has_member (o, "step"))
        r->error_step = g_strdup (json_object_get_string_member_with_default (o, "step", NULL));
    }
  else if (g_str_equal (event, "done"))
    {
      g_free (r->done_status);
      r->done_status = g_strdup (json_object_get_string_member_with_default (o, "status", "failed"));
    }
  if (run->event_func != NULL)
    run->event_func (event, o, run->event_data);
}

static void read_line_cb (GObject *object, GAsyncResult *result, gpointer user_data);

static void
read_next_line (ProbeRun *run)
{
  g_data_input_stream_read_line_async (run->out, G_PRIORITY_DEFAULT, run->io_cancel,
                                       read_line_cb, run);
}

static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  ProbeRun *run = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  gsize len = 0;

  line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (object), result, &len, &error);
  if (line == NULL)
    {
      /* EOF, or the readers were stopped after the exit, or a read error: the
       * process outcome decides what the report says */
      run->out_done = TRUE;
      maybe_complete (run);
      return;
    }
  if (!g_utf8_validate (line, (gssize) len, NULL))
    {
      if (run->report->garbage_lines++ == 0)
        run->report->first_garbage = g_utf8_make_valid (line, MIN ((gssize) len, 200));
    }
  else
    handle_line (run, line, len);
  read_next_line (run);
}

static void
read_err_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  ProbeRun *run = user_data;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, NULL);

  if (n <= 0)
    {
      run->err_done = TRUE;
      maybe_complete (run);
      return;
    }
  g_string_append_len (run->stderr_buf, run->err_chunk, n);
  if (run->stderr_buf->len > STDERR_KEEP)
    g_string_erase (run->stderr_buf, 0, (gssize) (run->stderr_buf->len - STDERR_KEEP));
  g_input_stream_read_async (run->err, run->err_chunk, sizeof run->err_chunk, G_PRIORITY_DEFAULT,
                             run->io_cancel, read_err_cb, run);
}

static gboolean
drain_timeout_cb (gpointer user_data)
{
  ProbeRun *run = user_data;

  /* the process is gone but something (a grandchild) holds its pipes open */
  g_cancellable_cancel (run->io_cancel);
  g_clear_pointer (&run->drain_timer, g_source_unref);
  return G_SOURCE_REMOVE;
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  ProbeRun *run = user_data;
  GSubprocess *p = G_SUBPROCESS (object);

  g_subprocess_wait_finish (p, result, NULL);
  if (g_subprocess_get_if_exited (p))
    run->report->exit_code = g_subprocess_get_exit_status (p);
  else if (g_subprocess_get_if_signaled (p))
    run->report->term_signal = g_subprocess_get_term_sig (p);
  /* a SIGKILL we sent is not a crash */
  if ((run->report->timed_out || g_atomic_int_get (&run->cancelled)) && run->report->term_signal == SIGKILL)
    run->report->term_signal = 0;
  run->wait_done = TRUE;
  if (run->kill_timer != NULL)
    {
      g_source_destroy (run->kill_timer);
      g_clear_pointer (&run->kill_timer, g_source_unref);
    }
  if (!run->out_done || !run->err_done)
    {
      run->drain_timer = g_timeout_source_new (DRAIN_AFTER_EXIT_MS);
      g_source_set_callback (run->drain_timer, drain_timeout_cb, run, NULL);
      g_source_attach (run->drain_timer, g_task_get_context (run->task));
    }
  maybe_complete (run);
}

static gboolean
kill_timeout_cb (gpointer user_data)
{
  ProbeRun *run = user_data;

  run->report->timed_out = TRUE;
  g_subprocess_force_exit (run->process);
  g_clear_pointer (&run->kill_timer, g_source_unref);
  return G_SOURCE_REMOVE;
}

static void
cancelled_cb (GCancellable *cancellable,
              gpointer      user_data)
{
  ProbeRun *run = user_data;

  /* may run in another thread: only an atomic flag and a kill() */
  g_atomic_int_set (&run->cancelled, 1);
  if (run->process != NULL)
    g_subprocess_force_exit (run->process);
}

/* In the child: the probe (or ssh) gets SIGTERM when the app dies, so a crashed app
 * never leaves GPU memory held until the probe's time limit. */
static void
child_setup (gpointer user_data)
{
#ifdef __linux__
  prctl (PR_SET_PDEATHSIG, SIGTERM);
#endif
}

static void
plan_written_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GOutputStream *in = user_data;

  /* a probe that exits early makes this fail with a broken pipe: its report says why */
  g_output_stream_write_all_finish (in, result, NULL, NULL);
  g_output_stream_close (in, NULL, NULL);
  g_object_unref (in);
}

void
procura_probe_run_async (const ProcuraProbeOptions *options,
                         GCancellable              *cancellable,
                         ProcuraProbeEventFunc      event_func,
                         gpointer                   event_data,
                         GAsyncReadyCallback        callback,
                         gpointer                   user_data)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  GTask *task;
  ProbeRun *run;
  GOutputStream *in;
  guint i;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, &probe_run_tag);
  run = g_new0 (ProbeRun, 1);
  run->task = task;
  run->event_func = event_func;
  run->event_data = event_data;
  run->report = report_new ();
  run->report->host = g_strdup (options->ssh_host);
  run->stderr_buf = g_string_new (NULL);
  run->io_cancel = g_cancellable_new ();
  g_task_set_task_data (task, run, (GDestroyNotify) probe_run_free);

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  argv = procura_probe_build_argv (options, &error);
  if (argv != NULL)
    {
      GSubprocessFlags flags = G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE;

      if (options->ssh_host == NULL)
        flags |= G_SUBPROCESS_FLAGS_STDIN_PIPE;
      launcher = g_subprocess_launcher_new (flags);
      g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);
      if (options->ssh_host != NULL && options->ssh_program == NULL && procura_host_is_flatpak ())
        procura_host_check_tool ("ssh", &error);
      if (options->ssh_host != NULL && error == NULL)
        {
          /* the remote script copies the probe from ssh's stdin */
          g_autofree char *probe = options->probe_path ? g_strdup (options->probe_path)
                                                       : procura_probe_find_binary ();

          if (probe == NULL)
            g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                         _("procura-probe was not found, so it cannot be copied to %s"), options->ssh_host);
          else
            g_subprocess_launcher_set_stdin_file_path (launcher, probe);
        }
      for (i = 0; options->environ != NULL && options->environ[i] != NULL; i++)
        {
          g_auto(GStrv) kv = g_strsplit (options->environ[i], "=", 2);

          if (kv[0] != NULL && kv[1] != NULL)
            g_subprocess_launcher_setenv (launcher, kv[0], kv[1], TRUE);
        }
      if (error == NULL)
        run->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, &error);
    }
  if (run->process == NULL)
    {
      ProcuraProbeReport *r = g_steal_pointer (&run->report);

      r->status = PROCURA_PROBE_STATUS_SPAWN_FAILED;
      r->message = g_strdup_printf (_("The probe could not be started: %s"), error->message);
      g_task_return_pointer (task, r, (GDestroyNotify) procura_probe_report_free);
      g_object_unref (task);
      return;
    }

  /* the plan on stdin, then EOF; a small plan fits in the pipe buffer, a large one is
   * written by GIO in the background */
  in = g_subprocess_get_stdin_pipe (run->process);
  if (in != NULL)
    {
      if (options->plan_json != NULL)
        {
          GBytes *bytes = g_bytes_new (options->plan_json, strlen (options->plan_json));
          gsize size = 0;
          gconstpointer data = g_bytes_get_data (bytes, &size);

          g_object_set_data_full (G_OBJECT (in), "procura-plan", bytes, (GDestroyNotify) g_bytes_unref);
          g_output_stream_write_all_async (in, data, size, G_PRIORITY_DEFAULT, NULL,
                                           plan_written_cb, g_object_ref (in));
        }
      else
        g_output_stream_close (in, NULL, NULL);
    }

  run->kill_after_s = options->kill_after_s > 0 ? options->kill_after_s
                      : (options->time_limit_s > 0 ? options->time_limit_s
                                                   : PROCURA_PROBE_DEFAULT_TIME_LIMIT) + 10.0;
  run->kill_timer = g_timeout_source_new ((guint) (run->kill_after_s * 1000));
  g_source_set_callback (run->kill_timer, kill_timeout_cb, run, NULL);
  g_source_attach (run->kill_timer, g_task_get_context (task));

  if (cancellable != NULL)
    {
      run->user_cancel = g_object_ref (cancellable);
      run->cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), run, NULL);
    }

  run->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (run->process));
  g_data_input_stream_set_newline_type (run->out, G_DATA_STREAM_NEWLINE_TYPE_LF);
  run->err = g_object_ref (g_subprocess_get_stderr_pipe (run->process));
  read_next_line (run);
  g_input_stream_read_async (run->err, run->err_chunk, sizeof run->err_chunk, G_PRIORITY_DEFAULT,
                             run->io_cancel, read_err_cb, run);
  g_subprocess_wait_async (run->process, NULL, wait_cb, run);
  /* the run holds one reference on the task until everything has finished */
}

ProcuraProbeReport *
procura_probe_run_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct {
  GAsyncResult *result;
} SyncData;

static void
sync_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  SyncData *data = user_data;

  data->result = g_object_ref (result);
}

ProcuraProbeReport *
procura_probe_run_sync (const ProcuraProbeOptions *options,
                        GCancellable              *cancellable,
                        ProcuraProbeEventFunc      event_func,
                        gpointer                   event_data,
                        GError                   **error)
{
  GMainContext *context = g_main_context_new ();
  SyncData data = { NULL };
  ProcuraProbeReport *report;

  g_main_context_push_thread_default (context);
  procura_probe_run_async (options, cancellable, event_func, event_data, sync_cb, &data);
  while (data.result == NULL)
    g_main_context_iteration (context, TRUE);
  report = procura_probe_run_finish (data.result, error);
  g_object_unref (data.result);
  /* let the task's last references go in this context */
  while (g_main_context_pending (context))
    g_main_context_iteration (context, FALSE);
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);
  return report;
}

static void
done_exit_code_cb (const char *event,
                   JsonObject *object,
                   gpointer    user_data)
{
  int *code = user_data;

  if (g_str_equal (event, "done"))
    *code = (int) json_object_get_int_member_with_default (object, "exit_code", -1);
}

ProcuraProbeReport *
procura_probe_report_from_jsonl (const char *text,
                                 gsize       len,
                                 const char *host,
                                 int         exit_code)
{
  ProbeRun run = { 0 };
  ProcuraProbeReport *report;
  int done_code = -1;
  gsize start = 0;

  run.report = report_new ();
  run.report->host = g_strdup (host);
  run.stderr_buf = g_string_new (NULL);
  run.event_func = done_exit_code_cb;
  run.event_data = &done_code;
  while (start < len)
    {
      const char *nl = memchr (text + start, '\n', len - start);
      gsize end = nl != NULL ? (gsize) (nl - text) : len;
      gsize n = end - start;

      if (n > 0 && text[end - 1] == '\r')
        n--;
      /* diagnostics mixed into a log (stderr lines) are not protocol */
      if (n > 0 && text[start] == '{')
        {
          g_autofree char *line = g_strndup (text + start, n);

          if (g_utf8_validate (line, (gssize) n, NULL))
            handle_line (&run, line, n);
          else if (run.report->garbage_lines++ == 0)
            run.report->first_garbage = g_utf8_make_valid (line, MIN ((gssize) n, 200));
        }
      else if (n > 0)
        {
          g_string_append_len (run.stderr_buf, text + start, (gssize) n);
          g_string_append_c (run.stderr_buf, '\n');
          if (run.stderr_buf->len > STDERR_KEEP)
            g_string_erase (run.stderr_buf, 0, (gssize) (run.stderr_buf->len - STDERR_KEEP));
        }
      start = end + 1;
    }
  run.report->exit_code = exit_code >= 0 ? exit_code : done_code;
  classify (&run);
  report = run.report;
  g_string_free (run.stderr_buf, TRUE);
  return report;
}
