/* procura-cli-probe.c: `procura probe`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * procura probe [--device N] [--plan FILE] [--bandwidth] [--time-limit S]
 *               [--into PROJECT.procura [--candidate NAME]] [--save FILE] [--json]
 *               [--ssh HOST | --hosts FILE [--parallel N] [--host-timeout S]]
 *               [--ssh-config FILE]
 *               [--kubectl [--context C] [--namespace N]]
 *               [--slurm [--partition P] [--nodes N] [--gres gpu:K] [--workdir DIR]]
 *
 * Runs procura-probe (here, on HOST through ssh, or on every host of a hosts file) with
 * the probe client, prints its lines (--json) or a table (for a fleet: the fleet
 * summary), and with --into stores the results with their provenance.
 * Exit codes: 0 the probe ran (the plan fits or not: see the output; for a fleet: on
 * every host), 1 it could not (no driver, driver error, crash, timeout, bad plan, store
 * error; for a fleet: on at least one host), 2 usage.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "procura-cli.h"
#include "procura-probe-client.h"
#include "procura-probe-cluster.h"
#include "procura-probe-fleet.h"
#include "procura-probe-import.h"
#include "procura-store.h"
#include "procura-json-out.h"
#include "procura-atomic-file.h"

typedef struct {
  gboolean json;
  gboolean tty;
} ProbeCli;

/* Text from the probe (maybe from another machine) goes through the one terminal
 * sanitiser, procura_cli_term_safe(), before it reaches a terminal. */
/* A string member made safe for the terminal; kept in @keep until the table is printed. */
static const char *
safe_member (GPtrArray  *keep,
             JsonObject *object,
             const char *key,
             const char *fallback)
{
  char *text = procura_cli_term_safe (json_object_get_string_member_with_default (object, key, fallback));

  g_ptr_array_add (keep, text);
  return text;
}

static const char *
safe_text (GPtrArray  *keep,
           const char *text)
{
  char *copy = procura_cli_term_safe (text);

  g_ptr_array_add (keep, copy);
  return copy;
}

static void
on_event (const char *event,
          JsonObject *object,
          gpointer    user_data)
{
  ProbeCli *cli = user_data;

  if (cli->json)
    {
      g_autoptr (JsonNode) node = json_node_new (JSON_NODE_OBJECT);
      g_autofree char *text = NULL;

      json_node_set_object (node, object);
      text = procura_json_to_data (node, FALSE);
      fputs (text, stdout);
      fputc ('\n', stdout);
      fflush (stdout);
    }
  else if (cli->tty && g_str_equal (event, "progress"))
    {
      g_autofree char *step = procura_cli_term_safe (json_object_get_string_member_with_default (object, "step", ""));

      g_printerr ("\r%-16s device %" G_GINT64_FORMAT ": %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT "   ",
                step,
                json_object_get_int_member_with_default (object, "device", -1),
                json_object_get_int_member_with_default (object, "done", 0),
                json_object_get_int_member_with_default (object, "total", 0));
    }
}

static double
gib (JsonObject *o,
     const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  return n != NULL && JSON_NODE_HOLDS_VALUE (n) ? json_node_get_double (n) / 1073741824.0 : NAN;
}

static void
print_table (const ProcuraProbeReport *report)
{
  g_autoptr (GPtrArray) keep = g_ptr_array_new_with_free_func (g_free);
  guint i;

  if (report->driver_version != NULL || report->cuda_version != NULL)
    procura_cli_print (_("Driver %s, CUDA %s%s%s\n"),
             safe_text (keep, report->driver_version ? report->driver_version : "?"),
             safe_text (keep, report->cuda_version ? report->cuda_version : "?"),
             report->host ? _(", on ") : "", report->host ? safe_text (keep, report->host) : "");
  for (i = 0; i < report->devices->len; i++)
    {
      JsonObject *d = g_ptr_array_index (report->devices, i);

      procura_cli_print (_("GPU %lld  %s  cc %s  %lld SMs  %.2f GiB total, %.2f GiB free  MIG %s\n"),
               (long long) json_object_get_int_member_with_default (d, "index", -1),
               safe_member (keep, d, "name", "?"),
               safe_member (keep, d, "cc", "?"),
               (long long) json_object_get_int_member_with_default (d, "sms", -1),
               gib (d, "total_bytes"), gib (d, "free_bytes"),
               safe_member (keep, d, "mig_mode", "unknown"));
    }
  for (i = 0; i < report->results->len; i++)
    {
      JsonObject *r = g_ptr_array_index (report->results, i);
      const char *test = safe_member (keep, r, "test", "?");
      gint64 dev = json_object_get_int_member_with_default (r, "device", -1);

      if (g_str_equal (test, "fit"))
        {
          JsonObject *failed = NULL;
          JsonNode *n = json_object_get_member (r, "failed_at");

          if (n != NULL && JSON_NODE_HOLDS_OBJECT (n))
            failed = json_node_get_object (n);
          if (failed == NULL)
            procura_cli_print (_("fit        GPU %lld: fits, headroom %.2f GiB, largest free block %.2f GiB, %lld more KV blocks\n"),
                     (long long) dev, gib (r, "headroom_bytes"), gib (r, "largest_free_block_bytes"),
                     (long long) json_object_get_int_member_with_default (r, "extra_kv_blocks", 0));
          else
            procura_cli_print (_("fit        GPU %lld: does not fit: %s (%s, %.2f GiB) failed, %.2f GiB missing\n"),
                     (long long) dev, safe_member (keep, failed, "name", "?"),
                     safe_member (keep, failed, "kind", "?"),
                     gib (failed, "bytes"), gib (r, "missing_bytes"));
        }
      else if (g_str_equal (test, "decode-floor"))
        {
          if (dev >= 0)
            procura_cli_print (_("floor      GPU %lld: %.3f ms per decode step\n"), (long long) dev,
                     json_object_get_double_member_with_default (r, "step_seconds", NAN) * 1e3);
          else
            procura_cli_print (_("floor      replica: %.3f ms per step, %.1f tokens/s per sequence\n"),
                     json_object_get_double_member_with_default (r, "step_seconds", NAN) * 1e3,
                     json_object_get_double_member_with_default (r, "tokens_per_second_per_sequence", NAN));
        }
      else if (json_object_has_member (r, "peer"))
        procura_cli_print ("%-10s GPU %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT ": %.1f GB/s\n", test, dev,
                 json_object_get_int_member_with_default (r, "peer", -1),
                 json_object_get_double_member_with_default (r, "gbps", NAN));
      else
        procura_cli_print ("%-10s GPU %" G_GINT64_FORMAT ": %.1f GB/s (%s)\n", test, dev,
                 json_object_get_double_member_with_default (r, "gbps", NAN),
                 safe_member (keep, r, "counting", ""));
    }
}

static gboolean
store_results (const ProcuraProbeReport *report,
               const char               *project,
               const char               *candidate,
               guint                    *stored,
               GError                  **error)
{
  g_autoptr (ProcuraImportResult) result = procura_import_result_new ();
  g_autoptr (ProcuraStore) store = NULL;
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *text = procura_probe_report_to_jsonl (report);
  g_autofree char *name = report->host ? g_strdup_printf ("procura-probe@%s.jsonl", report->host)
                                       : g_strdup ("procura-probe.jsonl");
  g_autoptr (GPtrArray) results = g_ptr_array_new ();
  g_autoptr (ProcuraCandidate) new_candidate = NULL;
  gint64 candidate_id = 0;

  if (!procura_probe_parse_jsonl (name, text, strlen (text), result, error))
    return FALSE;
  if (result->provenance == NULL)
    result->provenance = procura_provenance_new ();
  g_free (result->provenance->file_name);
  result->provenance->file_name = g_strdup (name);
  result->provenance->size = (gint64) strlen (text);
  g_free (result->provenance->sha256);
  result->provenance->sha256 = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
  g_free (result->provenance->importer);
  result->provenance->importer = g_strdup (procura_importer_probe_jsonl.id);
  g_free (result->provenance->format_version);
  result->provenance->format_version = g_strdup (result->format_version);
  g_free (result->provenance->imported_at);
  result->provenance->imported_at = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");

  store = procura_store_open (project, PROCURA_STORE_OPEN_WRITABLE, error);
  if (store == NULL)
    return FALSE;
  if (candidate != NULL)
    {
      candidate_id = procura_store_find_candidate_by_name (store, candidate);
      if (candidate_id <= 0)
        {
          /* created when absent, as `procura import --candidate` does, in the same
           * transaction as the results */
          new_candidate = procura_candidate_new ();
          new_candidate->name = g_strdup (candidate);
          new_candidate->kind = PROCURA_CANDIDATE_GPU;
          if (report->devices->len > 0)
            new_candidate->gpu_name = g_strdup (json_object_get_string_member_with_default (
                                                  g_ptr_array_index (report->devices, 0), "name", NULL));
          candidate_id = 0;
        }
    }
  g_ptr_array_add (results, result);
  if (!procura_store_import_all (store, results, candidate_id, new_candidate, &candidate_id, error))
    return FALSE;
  *stored = result->probe_results->len;
  return TRUE;
}

/* Saves, prints and stores one report; the exit code of `procura probe`. @print_lines:
 * with --json, print its lines (they did not stream through on_event). */
static int
handle_report (const ProcuraProbeReport *report,
               const char               *save,
               const char               *into,
               const char               *candidate,
               ProbeCli                 *cli,
               gboolean                  print_lines)
{
  g_autoptr(GError) error = NULL;
  gboolean json = cli->json;
  gboolean ran;
  g_autofree char *message = procura_cli_term_safe (report->message);

  if (print_lines && json)
    {
      g_autofree char *text = procura_probe_report_to_jsonl (report);

      fputs (text, stdout);
      fflush (stdout);
    }
  if (save != NULL)
    {
      g_autofree char *text = procura_probe_report_to_jsonl (report);

      if (!procura_atomic_file_write (save, text, strlen (text), &error))
        return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
    }
  if (!json)
    print_table (report);

  ran = report->status == PROCURA_PROBE_STATUS_OK || report->status == PROCURA_PROBE_STATUS_DOES_NOT_FIT;
  if (procura_probe_status_is_calm (report->status))
    procura_cli_printerr ("%s\n", message);
  else if (!ran)
    {
      if (report->stderr_tail != NULL && *report->stderr_tail != '\0' && !json)
        {
          g_autofree char *tail = procura_cli_term_safe (report->stderr_tail);
          procura_cli_printerr ("%s", tail);
        }
      return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, "%s (%s)", message,
                               procura_probe_status_to_string (report->status));
    }
  else if (!json)
    procura_cli_print ("%s\n", message);

  if (into != NULL)
    {
      guint stored = 0;

      if (!ran)
        return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, _("nothing stored in %s: %s"),
                                 into, message);
      if (!store_results (report, into, candidate, &stored, &error))
        return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
      procura_cli_printerr (_("Stored %u probe result(s) in %s\n"), stored, into);
    }
  return ran ? PROCURA_EXIT_OK : PROCURA_EXIT_BAD_INPUT;
}

static gboolean
on_stop_signal (gpointer user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
  return G_SOURCE_CONTINUE;
}

/* --kubectl or --slurm: one report per pod or node */
static int
run_cluster (ProcuraProbeOptions        *options,
             ProcuraProbeClusterOptions *cluster,
             gboolean                    kube,
             const char                 *save,
             const char                 *into,
             const char                 *candidate,
             ProbeCli                   *cli)
{
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  g_autoptr(GPtrArray) reports = NULL;
  g_autoptr(GError) error = NULL;
  guint sigint, sigterm, i;
  int rc = PROCURA_EXIT_OK;

  /* Ctrl+C or SIGTERM: delete the Job or scancel the job before leaving */
  sigint = g_unix_signal_add (SIGINT, on_stop_signal, cancel);
  sigterm = g_unix_signal_add (SIGTERM, on_stop_signal, cancel);
  if (!cli->json)
    procura_cli_printerr (kube ? _("Running the probe as a Kubernetes Job…\n") : _("Submitting the probe to Slurm…\n"));
  reports = kube ? procura_probe_run_kubectl (options, cluster, cancel, &error)
                 : procura_probe_run_slurm (options, cluster, cancel, &error);
  g_source_remove (sigint);
  g_source_remove (sigterm);
  if (reports == NULL)
    return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
  if (save != NULL && reports->len > 1)
    return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT,
                             _("%u nodes ran: --save keeps one node's lines (use --into, or the job's files)"),
                             reports->len);
  for (i = 0; i < reports->len; i++)
    {
      ProcuraProbeReport *r = g_ptr_array_index (reports, i);
      int one;

      if (reports->len > 1 && !cli->json)
        procura_cli_print (_("== %s\n"), r->host);
      one = handle_report (r, save, into, candidate, cli, TRUE);
      if (one != PROCURA_EXIT_OK)
        rc = one;
    }
  return rc;
}

static void
on_fleet_event (const char *host,
                const char *event,
                JsonObject *object,
                gpointer    user_data)
{
  ProbeCli *cli = user_data;

  if (cli->tty && g_str_equal (event, "progress"))
    {
      g_autofree char *step = procura_cli_term_safe (json_object_get_string_member_with_default (object, "step", ""));
      g_autofree char *safe_host = procura_cli_term_safe (host);

      g_printerr ("\r%-24.24s %-16s device %" G_GINT64_FORMAT ": %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT "   ",
                safe_host, step,
                json_object_get_int_member_with_default (object, "device", -1),
                json_object_get_int_member_with_default (object, "done", 0),
                json_object_get_int_member_with_default (object, "total", 0));
    }
  else if (!cli->json && g_str_equal (event, "finished"))
    {
      if (cli->tty)
        g_printerr ("\r%70s\r", "");
      procura_cli_printerr (_("%s: finished\n"), host);
    }
}

static char *
fleet_gib (JsonObject *node,
           const char *key)
{
  JsonNode *n = json_object_get_member (node, key);

  if (n == NULL || JSON_NODE_HOLDS_NULL (n))
    return g_strdup ("—");
  return g_strdup_printf (_("%.2f GiB"), json_node_get_int (n) / 1073741824.0);
}

/* @text padded with spaces to @width characters (not bytes: "—" is three bytes). */
static char *
pad (const char *text,
     int         width)
{
  glong n = g_utf8_strlen (text, -1);

  return g_strdup_printf ("%s%*s", text, n < width ? (int) (width - n) : 0, "");
}

static void
print_fleet (JsonObject *summary)
{
  g_autoptr (GPtrArray) keep = g_ptr_array_new_with_free_func (g_free);
  JsonArray *nodes = json_object_get_array_member (summary, "nodes");
  JsonArray *failed = json_object_get_array_member (summary, "failed_nodes");
  JsonNode *slowest = json_object_get_member (summary, "slowest_read");
  guint i;

  procura_cli_print (_("Fleet: %lld hosts, %lld ran, %lld failed\n"),
           (long long) json_object_get_int_member (summary, "hosts"), (long long) json_object_get_int_member (summary, "ran"),
           (long long) json_object_get_int_member (summary, "failed"));
  if (json_object_get_boolean_member (summary, "with_plan"))
    procura_cli_print (_("The plan fits on %lld of %lld nodes that ran\n"),
             (long long) json_object_get_int_member (summary, "fit"), (long long) json_object_get_int_member (summary, "ran"));
  procura_cli_print ("%-24s %-14s %4s  %-5s %-14s %s\n", _("host"), _("status"), _("GPUs"), _("fits"),
           _("headroom"), _("read GB/s"));
  for (i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *n = json_array_get_object_element (nodes, i);
      JsonNode *fits = json_object_get_member (n, "fits");
      JsonNode *read = json_object_get_member (n, "read_gbps");
      g_autofree char *room = NULL;
      g_autofree char *gbps = NULL;

      if (fits != NULL && !JSON_NODE_HOLDS_NULL (fits) && !json_node_get_boolean (fits))
        {
          g_autofree char *miss = fleet_gib (n, "missing_bytes");

          room = g_strdup_printf (_("%s short"), miss);
        }
      else
        room = fleet_gib (n, "headroom_bytes");
      gbps = read != NULL && !JSON_NODE_HOLDS_NULL (read) ? g_strdup_printf ("%.1f", json_node_get_double (read))
                                                           : g_strdup ("—");
      {
        g_autofree char *host = pad (safe_member (keep, n, "host", "?"), 24);
        g_autofree char *fit_text = pad (fits == NULL || JSON_NODE_HOLDS_NULL (fits) ? "—"
                                         : json_node_get_boolean (fits) ? _("yes") : _("no"), 5);
        g_autofree char *room_text = pad (room, 14);

        procura_cli_print ("%s %-14s %4" G_GINT64_FORMAT "  %s %s %s\n", host, safe_member (keep, n, "status", "?"),
                 json_object_get_int_member (n, "gpus"), fit_text, room_text, gbps);
      }
    }
  if (slowest != NULL && JSON_NODE_HOLDS_OBJECT (slowest))
    {
      JsonObject *o = json_node_get_object (slowest);

      procura_cli_print (_("Slowest HBM read bandwidth: %.1f GB/s on %s GPU %lld\n"),
               json_object_get_double_member (o, "gbps"), safe_member (keep, o, "host", "?"),
               (long long) json_object_get_int_member (o, "device"));
    }
  for (i = 0; i < json_array_get_length (failed); i++)
    {
      JsonObject *f = json_array_get_object_element (failed, i);

      procura_cli_print (_("Failed: %s: %s\n"), safe_member (keep, f, "host", "?"),
               safe_member (keep, f, "message", ""));
    }
}

static int
run_fleet (ProcuraProbeOptions *options,
           const char          *hosts_file,
           int                  parallel,
           const char          *into,
           const char          *candidate,
           ProbeCli            *cli)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize text_len = 0;
  g_auto(GStrv) hosts = NULL;
  g_autoptr(GPtrArray) reports = NULL;
  g_autoptr(JsonObject) summary = NULL;
  guint i, stored_total = 0, nodes_stored = 0;
  gint64 failed;

  text = procura_import_read_file (hosts_file, "a hosts file (one ssh target a line)", &text_len, &error);
  if (text == NULL)
    return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
  hosts = procura_probe_parse_hosts (hosts_file, text, &error);
  if (hosts == NULL)
    return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
  reports = procura_probe_fleet_run_sync (options, (const char * const *) hosts, (guint) parallel, NULL,
                                          on_fleet_event, cli, &error);
  if (reports == NULL)
    return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
  summary = procura_probe_fleet_summary (reports);
  if (cli->json)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
      g_autofree char *out = NULL;

      json_node_set_object (node, summary);
      out = procura_json_to_data (node, FALSE);
      g_print ("%s\n", out);
    }
  else
    print_fleet (summary);

  if (into != NULL)
    {
      /* the whole fleet in one transaction: the nodes that ran and those that failed */
      g_autoptr (ProcuraStore) store = procura_store_open (into, PROCURA_STORE_OPEN_WRITABLE, &error);
      g_autoptr (GPtrArray) names = g_ptr_array_new ();
      guint failures_stored = 0;

      if (store == NULL)
        return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
      for (i = 0; i < reports->len; i++)
        g_ptr_array_add (names, (gpointer) candidate);
      if (!procura_probe_fleet_store (store, reports, (const char * const *) names->pdata,
                                      &stored_total, &failures_stored, &error))
        return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, _("nothing stored in %s: %s"),
                                 into, error->message);
      nodes_stored = reports->len - failures_stored;
      procura_cli_printerr (_("Stored %u probe result(s) of %u node(s) and %u failed node(s) in %s\n"),
                            stored_total, nodes_stored, failures_stored, into);
    }
  failed = json_object_get_int_member (summary, "failed");
  return failed == 0 ? PROCURA_EXIT_OK : PROCURA_EXIT_BAD_INPUT;
}

int
procura_cli_probe (int    argc,
                   char **argv)
{
  g_autofree char *device = NULL;
  g_autofree char *plan = NULL;
  g_autofree char *into = NULL;
  g_autofree char *candidate = NULL;
  g_autofree char *ssh = NULL;
  g_autofree char *save = NULL;
  g_autofree char *ssh_config = NULL;
  g_autofree char *hosts = NULL;
  g_autofree char *context_name = NULL;
  g_autofree char *namespace = NULL;
  g_autofree char *partition = NULL;
  g_autofree char *gres = NULL;
  g_autofree char *workdir = NULL;
  gboolean json = FALSE, bandwidth = FALSE, kube = FALSE, slurm = FALSE;
  int time_limit = 0, parallel = 8, nodes = 0;
  double host_timeout = 0;
  const GOptionEntry entries[] = {
    { "device", 0, 0, G_OPTION_ARG_STRING, &device, N_("Probe GPU N (or N,M,…) only"), "N" },
    { "plan", 0, 0, G_OPTION_ARG_FILENAME, &plan, N_("Allocate the plan in FILE (the fit calculator's output)"), "FILE" },
    { "bandwidth", 0, 0, G_OPTION_ARG_NONE, &bandwidth, N_("Measure memory, copy, host and peer bandwidth"), NULL },
    { "time-limit", 0, 0, G_OPTION_ARG_INT, &time_limit, N_("Stop after S seconds (default 300)"), "S" },
    { "into", 0, 0, G_OPTION_ARG_FILENAME, &into, N_("Store the results in PROJECT.procura"), "PROJECT" },
    { "candidate", 0, 0, G_OPTION_ARG_STRING, &candidate, N_("With --into: assign the results to candidate NAME (created when absent)"), "NAME" },
    { "ssh", 0, 0, G_OPTION_ARG_STRING, &ssh, N_("Run the probe on HOST through ssh (copied, run, removed)"), "HOST" },
    { "ssh-config", 0, 0, G_OPTION_ARG_FILENAME, &ssh_config, N_("With --ssh or --hosts: ssh's configuration FILE (ssh -F)"), "FILE" },
    { "hosts", 0, 0, G_OPTION_ARG_FILENAME, &hosts, N_("Probe every ssh target of FILE (one a line, # comments) in parallel"), "FILE" },
    { "parallel", 0, 0, G_OPTION_ARG_INT, &parallel, N_("With --hosts: at most N hosts at a time (default 8)"), "N" },
    { "host-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &host_timeout, N_("Stop a host's probe after S seconds (default: the time limit + 10 s)"), "S" },
    { "kubectl", 0, 0, G_OPTION_ARG_NONE, &kube, N_("Run the probe as a Kubernetes Job (kubectl apply, wait, logs, delete)"), NULL },
    { "context", 0, 0, G_OPTION_ARG_STRING, &context_name, N_("With --kubectl: the kubeconfig context C"), "C" },
    { "namespace", 0, 0, G_OPTION_ARG_STRING, &namespace, N_("With --kubectl: the namespace N"), "N" },
    { "slurm", 0, 0, G_OPTION_ARG_NONE, &slurm, N_("Submit the probe to Slurm (sbatch), follow it and gather every node's lines"), NULL },
    { "partition", 0, 0, G_OPTION_ARG_STRING, &partition, N_("With --slurm: the partition P"), "P" },
    { "nodes", 0, 0, G_OPTION_ARG_INT, &nodes, N_("With --slurm: probe N nodes"), "N" },
    { "gres", 0, 0, G_OPTION_ARG_STRING, &gres, N_("With --slurm: the generic resources per node, e.g. gpu:8"), "gpu:K" },
    { "workdir", 0, 0, G_OPTION_ARG_FILENAME, &workdir, N_("With --slurm: a folder on the cluster's shared file system (default: a new one in the cache folder)"), "DIR" },
    { "save", 0, 0, G_OPTION_ARG_FILENAME, &save, N_("Write the probe's JSON Lines to FILE (importable later)"), "FILE" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the probe's JSON Lines as they arrive"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (_("— check GPU memory fit and bandwidth with procura-probe"));
  g_autoptr (ProcuraProbeOptions) options = procura_probe_options_new ();
  g_autoptr (ProcuraProbeReport) report = NULL;
  g_autoptr (GError) error = NULL;
  ProbeCli cli = { FALSE, FALSE };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc != 1)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("unexpected argument “%s”"), argv[1]);
  if (time_limit < 0 || time_limit > 86400)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--time-limit expects 1 to 86400 seconds"));
  if (candidate != NULL && into == NULL)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--candidate needs --into"));
  if ((ssh != NULL) + (hosts != NULL) + kube + slurm > 1)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--ssh, --hosts, --kubectl and --slurm exclude each other"));
  if ((context_name != NULL || namespace != NULL) && !kube)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--context and --namespace need --kubectl"));
  if ((partition != NULL || nodes != 0 || gres != NULL || workdir != NULL) && !slurm)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--partition, --nodes, --gres and --workdir need --slurm"));
  if (nodes < 0 || nodes > 10000)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--nodes expects 1 to 10000"));
  if (gres != NULL && (!g_str_has_prefix (gres, "gpu") || strpbrk (gres, " \t,") != NULL))
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--gres expects gpu:K or gpu:TYPE:K"));
  if ((kube || slurm) && device != NULL)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--device does not apply to --kubectl or --slurm (the scheduler picks the GPUs)"));
  if (ssh_config != NULL && ssh == NULL && hosts == NULL)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--ssh-config needs --ssh or --hosts"));
  if (parallel < 1 || parallel > 256)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--parallel expects 1 to 256"));
  if (host_timeout < 0 || host_timeout > 86400)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--host-timeout expects 1 to 86400 seconds"));
  if (hosts != NULL && save != NULL)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--save takes one host's lines: with --hosts, use --into"));
  if (plan != NULL && !g_file_test (plan, G_FILE_TEST_IS_REGULAR))
    return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, _("%s: no such plan file"), plan);

  options->devices = g_steal_pointer (&device);
  options->plan_path = g_strdup (plan);
  options->bandwidth = bandwidth;
  options->time_limit_s = time_limit;
  options->ssh_host = g_strdup (ssh);
  options->ssh_config = g_strdup (ssh_config);
  options->kill_after_s = host_timeout;
  cli.json = json;
  cli.tty = !json && isatty (STDERR_FILENO);

  if (hosts != NULL)
    return run_fleet (options, hosts, parallel, into, candidate, &cli);
  if (kube || slurm)
    {
      g_autoptr(ProcuraProbeClusterOptions) cluster = procura_probe_cluster_options_new ();
      const char *poll = g_getenv ("PROCURA_CLUSTER_POLL_S");

      cluster->context = g_steal_pointer (&context_name);
      cluster->namespace = g_steal_pointer (&namespace);
      cluster->partition = g_steal_pointer (&partition);
      cluster->nodes = nodes;
      cluster->gres = g_steal_pointer (&gres);
      cluster->workdir = g_steal_pointer (&workdir);
      cluster->timeout_s = host_timeout;
      /* the tests poll faster than a real cluster needs */
      if (poll != NULL)
        cluster->poll_s = g_ascii_strtod (poll, NULL);
      return run_cluster (options, cluster, kube, save, into, candidate, &cli);
    }

  report = procura_probe_run_sync (options, NULL, on_event, &cli, &error);
  if (cli.tty)
    g_printerr ("\r%60s\r", "");
  if (report == NULL)
    return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, "%s", error->message);

  return handle_report (report, save, into, candidate, &cli, FALSE);
}
