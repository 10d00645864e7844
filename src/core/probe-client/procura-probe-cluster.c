/* procura-probe-cluster.c: the probe as a Kubernetes Job or a Slurm job
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "procura-host-tools.h"
#include "procura-probe-cluster.h"

#define JOB_NAME "procura-probe"

ProcuraProbeClusterOptions *
procura_probe_cluster_options_new (void)
{
  return g_new0 (ProcuraProbeClusterOptions, 1);
}

void
procura_probe_cluster_options_free (ProcuraProbeClusterOptions *o)
{
  if (o == NULL)
    return;
  g_free (o->context);
  g_free (o->namespace);
  g_free (o->partition);
  g_free (o->gres);
  g_free (o->workdir);
  g_free (o);
}

char *
procura_probe_cluster_file (const char *name)
{
  const char *env = g_getenv ("PROCURA_DATADIR");
  char *path;

  if (env != NULL && *env != '\0')
    {
      path = g_build_filename (env, "cluster", name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return path;
      g_free (path);
    }
  path = g_build_filename (PKGDATADIR, "cluster", name, NULL);
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return path;
  g_free (path);
  return NULL;
}

/* Runs a host tool, returns its stdout; FALSE with an error naming the command and
 * carrying its stderr when it cannot start or exits non-zero. */
static gboolean
run_tool (GPtrArray    *args,
          char        **out,
          GError      **error)
{
  g_autoptr(GSubprocess) p = NULL;
  g_auto(GStrv) argv = NULL;
  g_autofree char *o = NULL;
  g_autofree char *e = NULL;
  g_autoptr(GError) local = NULL;

  g_ptr_array_add (args, NULL);
  argv = procura_host_wrap_argv ((const char * const *) args->pdata, NULL);
  g_ptr_array_remove_index (args, args->len - 1);
  p = g_subprocess_newv ((const char * const *) argv,
                         G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &local);
  if (p == NULL || !g_subprocess_communicate_utf8 (p, NULL, NULL, &o, &e, &local))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s could not be run: %s"),
                   (const char *) g_ptr_array_index (args, 0), local->message);
      return FALSE;
    }
  if (!g_subprocess_get_if_exited (p) || g_subprocess_get_exit_status (p) != 0)
    {
      g_autofree char *cmd = NULL;

      g_ptr_array_add (args, NULL);
      cmd = g_strjoinv (" ", (char **) args->pdata);
      g_ptr_array_remove_index (args, args->len - 1);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("“%s” failed: %s"), cmd,
                   e != NULL && *g_strstrip (e) != '\0' ? e : "(no message)");
      return FALSE;
    }
  if (out != NULL)
    *out = g_steal_pointer (&o);
  return TRUE;
}

/* Sleeps @seconds in small steps, running the thread-default context's sources (a
 * signal handler may cancel); FALSE when cancelled. */
static gboolean
wait_a_while (double        seconds,
              GCancellable *cancellable)
{
  gint64 until = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < until)
    {
      while (g_main_context_iteration (g_main_context_get_thread_default (), FALSE))
        ;
      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
      g_usleep (MIN (50000, MAX (0, until - g_get_monotonic_time ())));
    }
  return !g_cancellable_is_cancelled (cancellable);
}

/* The plan as a file the tool can read: plan_path, or plan_json written into @dir. */
static char *
plan_file (const ProcuraProbeOptions *probe,
           const char                *dir,
           GError                   **error)
{
  g_autofree char *path = g_build_filename (dir, "plan.json", NULL);

  if (probe->plan_json != NULL)
    {
      if (!g_file_set_contents (path, probe->plan_json, -1, error))
        return NULL;
    }
  else
    {
      g_autofree char *text = NULL;

      if (!g_file_get_contents (probe->plan_path, &text, NULL, error)
          || !g_file_set_contents (path, text, -1, error))
        return NULL;
    }
  return g_steal_pointer (&path);
}

static gboolean
copy_file (const char *from,
           const char *to,
           int         mode,
           GError    **error)
{
  g_autoptr(GFile) src = g_file_new_for_path (from);
  g_autoptr(GFile) dst = g_file_new_for_path (to);

  if (!g_file_copy (src, dst, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, error))
    return FALSE;
  if (g_chmod (to, mode) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: cannot set its mode"), to);
      return FALSE;
    }
  return TRUE;
}

/* A private folder the host's tools can read: under the user's cache folder, which a
 * Flatpak maps to the same path on the host (~/.var/app/ID/cache). */
static char *
staging_dir (const char *prefix,
             GError    **error)
{
  g_autofree char *parent = g_build_filename (g_get_user_cache_dir (), "procura", NULL);
  g_autofree char *templ = NULL;

  if (g_mkdir_with_parents (parent, 0700) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: cannot create the folder"), parent);
      return NULL;
    }
  templ = g_strdup_printf ("%s/%s-XXXXXX", parent, prefix);
  if (g_mkdtemp (templ) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: cannot create a folder"), templ);
      return NULL;
    }
  return g_steal_pointer (&templ);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      g_unlink (child);
    }
  g_rmdir (path);
}

/* ------------------------------------------------------------------------- */
/* Kubernetes                                                                 */

/* The one argv builder of both schedulers: the tool's command line starts with @kube's
 * context and namespace options when @kube is set (then the tool is kubectl), else with
 * the first of the NULL-ended arguments; runs it as run_tool() does. */
static gboolean
run_args (const ProcuraProbeClusterOptions *kube,
          char                            **out,
          GError                          **error,
          ...)
{
  g_autoptr(GPtrArray) a = g_ptr_array_new_with_free_func (g_free);
  const char *arg;
  va_list ap;

  if (kube != NULL)
    {
      g_ptr_array_add (a, g_strdup ("kubectl"));
      if (kube->context != NULL)
        g_ptr_array_add (a, g_strdup_printf ("--context=%s", kube->context));
      if (kube->namespace != NULL)
        g_ptr_array_add (a, g_strdup_printf ("--namespace=%s", kube->namespace));
    }
  va_start (ap, error);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (a, g_strdup (arg));
  va_end (ap);
  return run_tool (a, out, error);
}

/* kubectl with the cluster's context and namespace, then the arguments */
#define kubectl(c, out, error, ...) run_args ((c), (out), (error), __VA_ARGS__)
/* a Slurm command: the tool, then its arguments */
#define slurm(out, error, ...) run_args (NULL, (out), (error), __VA_ARGS__)

static void
kubectl_clean_up (const ProcuraProbeClusterOptions *c)
{
  /* best effort: what is not there is no error */
  kubectl (c, NULL, NULL, "delete", "job/" JOB_NAME, "configmap/procura-probe-bin",
           "configmap/procura-probe-plan", "--ignore-not-found", "--wait=false", NULL);
}

GPtrArray *
procura_probe_run_kubectl (const ProcuraProbeOptions        *probe,
                           const ProcuraProbeClusterOptions *c,
                           GCancellable                     *cancellable,
                           GError                          **error)
{
  g_autofree char *probe_bin = probe->probe_path ? g_strdup (probe->probe_path) : procura_probe_find_binary ();
  g_autofree char *manifest = procura_probe_cluster_file ("procura-probe-job.yaml");
  g_autofree char *dir = NULL;
  g_autofree char *staged_probe = NULL;
  g_autofree char *staged_manifest = NULL;
  g_autofree char *plan = NULL;
  g_autofree char *from_probe = NULL;
  g_autofree char *from_plan = NULL;
  g_autofree char *logs = NULL;
  g_autoptr(GPtrArray) reports = NULL;
  double timeout = c->timeout_s > 0 ? c->timeout_s : 1200;
  double poll = c->poll_s > 0 ? c->poll_s : 2;
  gint64 deadline = g_get_monotonic_time () + (gint64) (timeout * G_USEC_PER_SEC);
  gboolean done = FALSE, ok = FALSE;

  if (probe_bin == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("procura-probe was not found, so it cannot be sent to the cluster"));
      return NULL;
    }
  if (manifest == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("the Job manifest procura-probe-job.yaml was not found in %s/cluster"),
                                                            PKGDATADIR);
      return NULL;
    }
  if (!procura_host_check_tool ("kubectl", error))
    return NULL;
  /* the files go through a folder the host's kubectl can read (also from a Flatpak) */
  dir = staging_dir ("kubectl", error);
  if (dir == NULL)
    return NULL;
  staged_probe = g_build_filename (dir, "procura-probe", NULL);
  staged_manifest = g_build_filename (dir, "procura-probe-job.yaml", NULL);
  if (!copy_file (probe_bin, staged_probe, 0755, error) || !copy_file (manifest, staged_manifest, 0644, error))
    goto out;
  if ((probe->plan_json != NULL || probe->plan_path != NULL) && (plan = plan_file (probe, dir, error)) == NULL)
    goto out;

  /* a Job of an earlier run that was not cleaned up would make apply change nothing */
  kubectl_clean_up (c);
  from_probe = g_strdup_printf ("--from-file=procura-probe=%s", staged_probe);
  if (!kubectl (c, NULL, error, "create", "configmap", "procura-probe-bin", from_probe, NULL))
    goto out;
  if (plan != NULL)
    {
      from_plan = g_strdup_printf ("--from-file=plan.json=%s", plan);
      if (!kubectl (c, NULL, error, "create", "configmap", "procura-probe-plan", from_plan, NULL))
        goto out;
    }
  if (!kubectl (c, NULL, error, "apply", "-f", staged_manifest, NULL))
    goto out;

  while (!done)
    {
      g_autofree char *state = NULL;

      if (!wait_a_while (poll, cancellable))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The Kubernetes Job was cancelled (and deleted)"));
          goto out;
        }
      if (!kubectl (c, &state, error, "get", "job/" JOB_NAME, "-o",
                    "jsonpath={.status.succeeded}/{.status.failed}", NULL))
        goto out;
      g_strstrip (state);
      /* "1/" succeeded, "/1" failed (the probe's own exit code is in its done line) */
      if (state[0] != '/' && state[0] != '\0')
        done = TRUE;
      else if (state[0] == '/' && state[1] != '\0')
        done = TRUE;
      else if (g_get_monotonic_time () > deadline)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       _("The Kubernetes Job did not finish within %.0f s (it was deleted)"), timeout);
          goto out;
        }
    }
  if (!kubectl (c, &logs, error, "logs", "job/" JOB_NAME, "--container=probe", NULL))
    goto out;
  reports = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_probe_report_free);
  g_ptr_array_add (reports, procura_probe_report_from_jsonl (logs, strlen (logs),
                                                             c->context ? c->context : "kubernetes", -1));
  ok = TRUE;

out:
  kubectl_clean_up (c);
  remove_tree (dir);
  return ok ? g_steal_pointer (&reports) : NULL;
}

/* ------------------------------------------------------------------------- */
/* Slurm                                                                      */

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

GPtrArray *
procura_probe_run_slurm (const ProcuraProbeOptions        *probe,
                         const ProcuraProbeClusterOptions *c,
                         GCancellable                     *cancellable,
                         GError                          **error)
{
  g_autofree char *probe_bin = probe->probe_path ? g_strdup (probe->probe_path) : procura_probe_find_binary ();
  g_autofree char *script = procura_probe_cluster_file ("procura-probe.sbatch");
  g_autofree char *dir = NULL;
  g_autofree char *staged_script = NULL;
  g_autofree char *staged_probe = NULL;
  g_autofree char *plan = NULL;
  g_autofree char *out = NULL;
  g_autofree char *job = NULL;
  g_autofree char *prefix = NULL;
  g_autoptr(GPtrArray) a = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) reports = NULL;
  g_autoptr(GDir) listing = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  double timeout = c->timeout_s > 0 ? c->timeout_s : 1200;
  double poll = c->poll_s > 0 ? c->poll_s : 2;
  gint64 deadline = g_get_monotonic_time () + (gint64) (timeout * G_USEC_PER_SEC);
  const char *name;
  guint i;

  if (probe_bin == NULL || script == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s was not found (looked in %s)"),
                   probe_bin == NULL ? "procura-probe" : "procura-probe.sbatch",
                   probe_bin == NULL ? PKGLIBEXECDIR : PKGDATADIR "/cluster");
      return NULL;
    }
  if (!procura_host_check_tool ("sbatch", error))
    return NULL;
  if (c->workdir != NULL)
    {
      if (g_mkdir_with_parents (c->workdir, 0700) != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: cannot create the folder"), c->workdir);
          return NULL;
        }
      dir = g_canonicalize_filename (c->workdir, NULL);
    }
  else if ((dir = staging_dir ("slurm", error)) == NULL)
    return NULL;
  staged_probe = g_build_filename (dir, "procura-probe", NULL);
  staged_script = g_build_filename (dir, "procura-probe.sbatch", NULL);
  if (!copy_file (probe_bin, staged_probe, 0755, error) || !copy_file (script, staged_script, 0755, error))
    return NULL;
  if ((probe->plan_json != NULL || probe->plan_path != NULL) && (plan = plan_file (probe, dir, error)) == NULL)
    return NULL;

  g_ptr_array_add (a, g_strdup ("sbatch"));
  g_ptr_array_add (a, g_strdup ("--parsable"));
  g_ptr_array_add (a, g_strdup_printf ("--chdir=%s", dir));
  if (c->partition != NULL)
    g_ptr_array_add (a, g_strdup_printf ("--partition=%s", c->partition));
  if (c->nodes > 0)
    g_ptr_array_add (a, g_strdup_printf ("--nodes=%d", c->nodes));
  if (c->gres != NULL)
    g_ptr_array_add (a, g_strdup_printf ("--gres=%s", c->gres));
  g_ptr_array_add (a, g_strdup (staged_script));
  if (!run_tool (a, &out, error))
    return NULL;
  /* --parsable: "JOBID" or "JOBID;CLUSTER" */
  job = g_strndup (out, strcspn (out, ";\n\r "));
  if (*job == '\0' || strspn (job, "0123456789_") != strlen (job))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("sbatch printed “%s” instead of a job id"),
                                                               g_strstrip (out));
      return NULL;
    }

  for (;;)
    {
      g_autofree char *state = NULL;
      g_autoptr(GError) local = NULL;

      if (!wait_a_while (poll, cancellable) || g_get_monotonic_time () > deadline)
        {
          gboolean cancelled = g_cancellable_is_cancelled (cancellable);

          slurm (NULL, NULL, "scancel", job, NULL);
          if (cancelled)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Slurm job %s was cancelled (scancel)"), job);
          else
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                         _("Slurm job %s did not finish within %.0f s (scancel)"), job, timeout);
          return NULL;
        }
      /* squeue forgets a finished job after a while (and says "Invalid job id") */
      if (!slurm (&state, &local, "squeue", "--noheader", "--jobs", job, "--format=%T", NULL))
        break;
      if (*g_strstrip (state) == '\0')
        break;
    }

  /* the job's end state, where accounting is on (not needed for the result) */
  {
    g_autofree char *acct = NULL;

    if (slurm (&acct, NULL, "sacct", "--noheader", "--parsable2", "--allocations", "--jobs", job,
               "--format=State,ExitCode", NULL))
      g_debug ("slurm job %s: %s", job, g_strstrip (acct));
  }

  prefix = g_strdup_printf ("procura-probe-%s", job);
  listing = g_dir_open (dir, 0, error);
  if (listing == NULL)
    return NULL;
  while ((name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_prefix (name, prefix) && g_str_has_suffix (name, ".jsonl")
        && (name[strlen (prefix)] == '.' || name[strlen (prefix)] == '-'))
      g_ptr_array_add (names, g_strdup (name));
  if (names->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("Slurm job %s left no %s*.jsonl in %s (see %s.err there)"), job, prefix, dir, prefix);
      return NULL;
    }
  g_ptr_array_sort (names, compare_names);
  reports = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_probe_report_free);
  for (i = 0; i < names->len; i++)
    {
      const char *n = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, n, NULL);
      g_autofree char *text = NULL;
      g_autofree char *host = NULL;
      gsize len = 0;

      if (!g_file_get_contents (path, &text, &len, error))
        return NULL;
      if (n[strlen (prefix)] == '-')
        host = g_strndup (n + strlen (prefix) + 1, strlen (n) - strlen (prefix) - 1 - strlen (".jsonl"));
      else
        host = g_strdup_printf ("slurm-%s", job);
      g_ptr_array_add (reports, procura_probe_report_from_jsonl (text, len, host, -1));
    }
  return g_steal_pointer (&reports);
}
