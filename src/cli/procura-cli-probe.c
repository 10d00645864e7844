/* procura-cli-probe.c: `procura probe`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * procura probe [--device N] [--plan FILE] [--bandwidth] [--time-limit S]
 *               [--into PROJECT.procura [--candidate NAME]] [--ssh HOST] [--save FILE] [--json]
 *
 * Runs procura-probe (here, or on HOST through ssh) with the probe client, prints its
 * lines (--json) or a table, and with --into stores the results with their provenance.
 * Exit codes: 0 the probe ran (the plan fits or not: see the output), 1 it could not
 * (no driver, driver error, crash, timeout, bad plan, store error), 2 usage.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "procura-cli.h"
#include "procura-probe-client.h"
#include "procura-probe-import.h"
#include "procura-store.h"
#include "procura-json-out.h"

typedef struct {
  gboolean json;
  gboolean tty;
} ProbeCli;

/* Text from the probe (maybe from another machine) before it reaches a terminal: made
 * valid UTF-8, and every control character (C0 but newline and tab, DEL, C1: ESC and
 * CSI start escape sequences that can rewrite the screen or the title) becomes '?'. */
static char *
term_safe (const char *text)
{
  g_autofree char *valid = NULL;
  GString *out;

  if (text == NULL)
    return NULL;
  valid = g_utf8_make_valid (text, -1);
  out = g_string_sized_new (strlen (valid));
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\r' && p[1] == '\n')
        continue;  /* a CRLF line end (ssh writes them) */
      if ((c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c < 0xa0))
        g_string_append_c (out, '?');
      else
        g_string_append_unichar (out, c);
    }
  return g_string_free (out, FALSE);
}

/* A string member made safe for the terminal; kept in @keep until the table is printed. */
static const char *
safe_member (GPtrArray  *keep,
             JsonObject *object,
             const char *key,
             const char *fallback)
{
  char *text = term_safe (json_object_get_string_member_with_default (object, key, fallback));

  g_ptr_array_add (keep, text);
  return text;
}

static const char *
safe_text (GPtrArray  *keep,
           const char *text)
{
  char *copy = term_safe (text);

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
      g_autofree char *step = term_safe (json_object_get_string_member_with_default (object, "step", ""));

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
    g_print (_("Driver %s, CUDA %s%s%s\n"),
             safe_text (keep, report->driver_version ? report->driver_version : "?"),
             safe_text (keep, report->cuda_version ? report->cuda_version : "?"),
             report->host ? _(", on ") : "", report->host ? safe_text (keep, report->host) : "");
  for (i = 0; i < report->devices->len; i++)
    {
      JsonObject *d = g_ptr_array_index (report->devices, i);

      g_print (_("GPU %" G_GINT64_FORMAT "  %s  cc %s  %" G_GINT64_FORMAT " SMs  %.2f GiB total, %.2f GiB free  MIG %s\n"),
               json_object_get_int_member_with_default (d, "index", -1),
               safe_member (keep, d, "name", "?"),
               safe_member (keep, d, "cc", "?"),
               json_object_get_int_member_with_default (d, "sms", -1),
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
            g_print (_("fit        GPU %" G_GINT64_FORMAT ": fits, headroom %.2f GiB, largest free block %.2f GiB, %" G_GINT64_FORMAT " more KV blocks\n"),
                     dev, gib (r, "headroom_bytes"), gib (r, "largest_free_block_bytes"),
                     json_object_get_int_member_with_default (r, "extra_kv_blocks", 0));
          else
            g_print (_("fit        GPU %" G_GINT64_FORMAT ": does not fit: %s (%s, %.2f GiB) failed, %.2f GiB missing\n"),
                     dev, safe_member (keep, failed, "name", "?"),
                     safe_member (keep, failed, "kind", "?"),
                     gib (failed, "bytes"), gib (r, "missing_bytes"));
        }
      else if (g_str_equal (test, "decode-floor"))
        {
          if (dev >= 0)
            g_print (_("floor      GPU %" G_GINT64_FORMAT ": %.3f ms per decode step\n"), dev,
                     json_object_get_double_member_with_default (r, "step_seconds", NAN) * 1e3);
          else
            g_print (_("floor      replica: %.3f ms per step, %.1f tokens/s per sequence\n"),
                     json_object_get_double_member_with_default (r, "step_seconds", NAN) * 1e3,
                     json_object_get_double_member_with_default (r, "tokens_per_second_per_sequence", NAN));
        }
      else if (json_object_has_member (r, "peer"))
        g_print ("%-10s GPU %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT ": %.1f GB/s\n", test, dev,
                 json_object_get_int_member_with_default (r, "peer", -1),
                 json_object_get_double_member_with_default (r, "gbps", NAN));
      else
        g_print ("%-10s GPU %" G_GINT64_FORMAT ": %.1f GB/s (%s)\n", test, dev,
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
  gboolean json = FALSE, bandwidth = FALSE;
  int time_limit = 0;
  const GOptionEntry entries[] = {
    { "device", 0, 0, G_OPTION_ARG_STRING, &device, N_("Probe GPU N (or N,M,…) only"), "N" },
    { "plan", 0, 0, G_OPTION_ARG_FILENAME, &plan, N_("Allocate the plan in FILE (the fit calculator's output)"), "FILE" },
    { "bandwidth", 0, 0, G_OPTION_ARG_NONE, &bandwidth, N_("Measure memory, copy, host and peer bandwidth"), NULL },
    { "time-limit", 0, 0, G_OPTION_ARG_INT, &time_limit, N_("Stop after S seconds (default 300)"), "S" },
    { "into", 0, 0, G_OPTION_ARG_FILENAME, &into, N_("Store the results in PROJECT.procura"), "PROJECT" },
    { "candidate", 0, 0, G_OPTION_ARG_STRING, &candidate, N_("With --into: assign the results to candidate NAME (created when absent)"), "NAME" },
    { "ssh", 0, 0, G_OPTION_ARG_STRING, &ssh, N_("Run the probe on HOST through ssh (copied, run, removed)"), "HOST" },
    { "save", 0, 0, G_OPTION_ARG_FILENAME, &save, N_("Write the probe's JSON Lines to FILE (importable later)"), "FILE" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the probe's JSON Lines as they arrive"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (_("— check GPU memory fit and bandwidth with procura-probe"));
  g_autoptr (ProcuraProbeOptions) options = procura_probe_options_new ();
  g_autoptr (ProcuraProbeReport) report = NULL;
  g_autoptr (GError) error = NULL;
  ProbeCli cli = { FALSE, FALSE };
  g_autofree char *message = NULL;
  gboolean ran;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!procura_cli_parse (context, &argc, &argv))
    return PROCURA_EXIT_USAGE;
  if (argc != 1)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("unexpected argument “%s”"), argv[1]);
  if (time_limit < 0 || time_limit > 86400)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--time-limit expects 1 to 86400 seconds"));
  if (candidate != NULL && into == NULL)
    return procura_cli_fail ("probe", PROCURA_EXIT_USAGE, _("--candidate needs --into"));
  if (plan != NULL && !g_file_test (plan, G_FILE_TEST_IS_REGULAR))
    return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, _("%s: no such plan file"), plan);

  options->devices = g_steal_pointer (&device);
  options->plan_path = g_strdup (plan);
  options->bandwidth = bandwidth;
  options->time_limit_s = time_limit;
  options->ssh_host = g_strdup (ssh);
  cli.json = json;
  cli.tty = !json && isatty (STDERR_FILENO);

  report = procura_probe_run_sync (options, NULL, on_event, &cli, &error);
  if (cli.tty)
    g_printerr ("\r%60s\r", "");
  if (report == NULL)
    return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, "%s", error->message);

  if (save != NULL)
    {
      g_autofree char *text = procura_probe_report_to_jsonl (report);

      if (!g_file_set_contents (save, text, -1, &error))
        return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
    }
  if (!json)
    print_table (report);

  ran = report->status == PROCURA_PROBE_STATUS_OK || report->status == PROCURA_PROBE_STATUS_DOES_NOT_FIT;
  message = term_safe (report->message);
  if (procura_probe_status_is_calm (report->status))
    g_printerr ("%s\n", message);
  else if (!ran)
    {
      if (report->stderr_tail != NULL && *report->stderr_tail != '\0' && !json)
        {
          g_autofree char *tail = term_safe (report->stderr_tail);
          g_printerr ("%s", tail);
        }
      return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, "%s (%s)", message,
                               procura_probe_status_to_string (report->status));
    }
  else if (!json)
    g_print ("%s\n", message);

  if (into != NULL)
    {
      guint stored = 0;

      if (!ran)
        return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, _("nothing stored in %s: %s"),
                                 into, message);
      if (!store_results (report, into, candidate, &stored, &error))
        return procura_cli_fail ("probe", PROCURA_EXIT_BAD_INPUT, "%s", error->message);
      g_printerr (_("Stored %u probe result(s) in %s\n"), stored, into);
    }
  return ran ? PROCURA_EXIT_OK : PROCURA_EXIT_BAD_INPUT;
}
