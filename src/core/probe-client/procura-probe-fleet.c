/* procura-probe-fleet.c: the probe on many hosts at once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-probe-fleet.h"
#include "procura-probe-import.h"
#include "procura-store-probe.h"

static int fleet_run_tag;

GStrv
procura_probe_parse_hosts (const char *name,
                           const char *text,
                           GError    **error)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(GPtrArray) hosts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint i;

  for (i = 0; lines[i] != NULL; i++)
    {
      char *hash = strchr (lines[i], '#');
      char *t;

      if (hash != NULL)
        *hash = '\0';
      t = g_strstrip (lines[i]);
      if (*t == '\0')
        continue;
      if (t[0] == '-' || strpbrk (t, " \t\r\"'\\;`$") != NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s:%u: “%s” is not an ssh target (expected one HOST or USER@HOST a line)"),
                       name, i + 1, t);
          return NULL;
        }
      if (g_hash_table_contains (seen, t))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s:%u: “%s” is listed twice"), name, i + 1, t);
          return NULL;
        }
      if (hosts->len >= PROCURA_PROBE_FLEET_MAX_HOSTS)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s:%u: more than %d hosts"), name, i + 1, PROCURA_PROBE_FLEET_MAX_HOSTS);
          return NULL;
        }
      g_ptr_array_add (hosts, g_strdup (t));
      g_hash_table_add (seen, g_ptr_array_index (hosts, hosts->len - 1));
    }
  if (hosts->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: no host (expected one ssh target a line, # for comments)"), name);
      return NULL;
    }
  g_hash_table_steal_all (seen);
  g_ptr_array_add (hosts, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&hosts), FALSE);
}

/* ------------------------------------------------------------------------- */

typedef struct {
  ProcuraProbeOptions   *options;
  GStrv                  hosts;
  guint                  n, next, running, finished;
  guint                  max_parallel;
  GPtrArray             *reports;
  GCancellable          *cancel;
  ProcuraProbeFleetFunc  event_func;
  gpointer               event_data;
  gboolean               cancelled;
  GTask                 *task;
} Fleet;

typedef struct {
  Fleet *fleet;
  guint  index;
} FleetItem;

static void
fleet_free (Fleet *f)
{
  procura_probe_options_free (f->options);
  g_strfreev (f->hosts);
  g_ptr_array_unref (f->reports);
  g_clear_object (&f->cancel);
  g_free (f);
}

static void
item_event (const char *event,
            JsonObject *object,
            gpointer    user_data)
{
  FleetItem *item = user_data;

  if (item->fleet->event_func != NULL)
    item->fleet->event_func (item->fleet->hosts[item->index], event, object, item->fleet->event_data);
}

static void start_more (Fleet *f);

static void
item_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  FleetItem *item = user_data;
  Fleet *f = item->fleet;
  g_autoptr(GError) error = NULL;
  ProcuraProbeReport *report = procura_probe_run_finish (result, &error);

  if (report != NULL)
    {
      g_ptr_array_index (f->reports, item->index) = report;
      if (f->event_func != NULL)
        f->event_func (f->hosts[item->index], "finished", NULL, f->event_data);
    }
  else
    f->cancelled = TRUE;
  f->running--;
  f->finished++;
  g_free (item);
  start_more (f);
}

static void
start_more (Fleet *f)
{
  GTask *task = f->task;

  if (f->cancel != NULL && g_cancellable_is_cancelled (f->cancel))
    f->cancelled = TRUE;
  while (!f->cancelled && f->running < f->max_parallel && f->next < f->n)
    {
      FleetItem *item = g_new0 (FleetItem, 1);

      item->fleet = f;
      item->index = f->next++;
      g_free (f->options->ssh_host);
      f->options->ssh_host = g_strdup (f->hosts[item->index]);
      f->running++;
      procura_probe_run_async (f->options, f->cancel, item_event, item, item_done, item);
    }
  if (f->running > 0 || (!f->cancelled && f->next < f->n))
    return;
  if (f->cancelled)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The fleet probe was cancelled"));
  else
    g_task_return_pointer (task, g_ptr_array_ref (f->reports), (GDestroyNotify) g_ptr_array_unref);
  g_object_unref (task);
}

void
procura_probe_fleet_run_async (const ProcuraProbeOptions *options,
                               const char * const        *hosts,
                               guint                      max_parallel,
                               GCancellable              *cancellable,
                               ProcuraProbeFleetFunc      event_func,
                               gpointer                   event_data,
                               GAsyncReadyCallback        callback,
                               gpointer                   user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  Fleet *f = g_new0 (Fleet, 1);
  guint i;

  g_task_set_source_tag (task, &fleet_run_tag);
  f->options = procura_probe_options_copy (options);
  f->hosts = g_strdupv ((GStrv) hosts);
  f->n = g_strv_length (f->hosts);
  f->max_parallel = MAX (1, max_parallel);
  f->reports = g_ptr_array_new_full (f->n, (GDestroyNotify) procura_probe_report_free);
  for (i = 0; i < f->n; i++)
    g_ptr_array_add (f->reports, NULL);
  f->cancel = cancellable ? g_object_ref (cancellable) : NULL;
  f->event_func = event_func;
  f->event_data = event_data;
  f->task = task;
  g_task_set_task_data (task, f, (GDestroyNotify) fleet_free);
  /* the fleet holds one reference on the task until every run has finished */
  start_more (f);
}

GPtrArray *
procura_probe_fleet_run_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
sync_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

GPtrArray *
procura_probe_fleet_run_sync (const ProcuraProbeOptions *options,
                              const char * const        *hosts,
                              guint                      max_parallel,
                              GCancellable              *cancellable,
                              ProcuraProbeFleetFunc      event_func,
                              gpointer                   event_data,
                              GError                   **error)
{
  GMainContext *context = g_main_context_new ();
  GAsyncResult *result = NULL;
  GPtrArray *reports;

  g_main_context_push_thread_default (context);
  procura_probe_fleet_run_async (options, hosts, max_parallel, cancellable, event_func, event_data,
                                 sync_cb, &result);
  while (result == NULL)
    g_main_context_iteration (context, TRUE);
  reports = procura_probe_fleet_run_finish (result, error);
  g_object_unref (result);
  while (g_main_context_pending (context))
    g_main_context_iteration (context, FALSE);
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);
  return reports;
}

/* ------------------------------------------------------------------------- */

static gboolean
has_number (JsonObject *o,
            const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  return n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) != G_TYPE_STRING
         && json_node_get_value_type (n) != G_TYPE_BOOLEAN;
}

JsonObject *
procura_probe_fleet_summary (GPtrArray *reports)
{
  JsonObject *s = json_object_new ();
  JsonArray *nodes = json_array_new ();
  JsonArray *failed = json_array_new ();
  JsonObject *slowest = NULL;
  guint i, j, ran = 0, fit = 0;
  gboolean with_plan = FALSE;

  for (i = 0; i < reports->len; i++)
    {
      ProcuraProbeReport *r = g_ptr_array_index (reports, i);
      JsonObject *n = json_object_new ();
      JsonArray *names = json_array_new ();
      gboolean ok = r->status == PROCURA_PROBE_STATUS_OK || r->status == PROCURA_PROBE_STATUS_DOES_NOT_FIT;
      gboolean any_fit = FALSE, all_fit = TRUE;
      gint64 headroom = G_MAXINT64, missing = 0;
      double read = -1;

      json_object_set_string_member (n, "host", r->host ? r->host : "");
      json_object_set_string_member (n, "status", procura_probe_status_to_string (r->status));
      json_object_set_string_member (n, "message", r->message ? r->message : "");
      json_object_set_int_member (n, "exit_code", r->exit_code);
      json_object_set_int_member (n, "gpus", r->devices->len);
      for (j = 0; j < r->devices->len; j++)
        json_array_add_string_element (names, json_object_get_string_member_with_default (
                                                g_ptr_array_index (r->devices, j), "name", "?"));
      json_object_set_array_member (n, "gpu_names", names);
      for (j = 0; j < r->results->len; j++)
        {
          JsonObject *res = g_ptr_array_index (r->results, j);
          const char *test = json_object_get_string_member_with_default (res, "test", "");

          if (g_str_equal (test, "fit"))
            {
              any_fit = TRUE;
              if (!json_object_get_boolean_member_with_default (res, "fits", FALSE))
                {
                  all_fit = FALSE;
                  if (has_number (res, "missing_bytes"))
                    missing += json_object_get_int_member (res, "missing_bytes");
                }
              else if (has_number (res, "headroom_bytes"))
                headroom = MIN (headroom, json_object_get_int_member (res, "headroom_bytes"));
            }
          else if (g_str_equal (test, "bandwidth") && has_number (res, "gbps"))
            {
              double gbps = json_object_get_double_member (res, "gbps");
              gint64 dev = json_object_get_int_member_with_default (res, "device", -1);

              if (read < 0 || gbps < read)
                read = gbps;
              if (slowest == NULL || gbps < json_object_get_double_member (slowest, "gbps"))
                {
                  g_clear_pointer (&slowest, json_object_unref);
                  slowest = json_object_new ();
                  json_object_set_string_member (slowest, "host", r->host ? r->host : "");
                  json_object_set_int_member (slowest, "device", dev);
                  json_object_set_double_member (slowest, "gbps", gbps);
                }
            }
        }
      if (ok && any_fit)
        {
          with_plan = TRUE;
          json_object_set_boolean_member (n, "fits", all_fit);
          if (all_fit)
            fit++;
        }
      else
        json_object_set_null_member (n, "fits");
      if (ok && any_fit && all_fit && headroom != G_MAXINT64)
        json_object_set_int_member (n, "headroom_bytes", headroom);
      else
        json_object_set_null_member (n, "headroom_bytes");
      if (ok && any_fit && !all_fit)
        json_object_set_int_member (n, "missing_bytes", missing);
      else
        json_object_set_null_member (n, "missing_bytes");
      if (read >= 0)
        json_object_set_double_member (n, "read_gbps", read);
      else
        json_object_set_null_member (n, "read_gbps");
      json_array_add_object_element (nodes, n);
      if (ok)
        ran++;
      else
        {
          JsonObject *fo = json_object_new ();

          json_object_set_string_member (fo, "host", r->host ? r->host : "");
          json_object_set_string_member (fo, "status", procura_probe_status_to_string (r->status));
          json_object_set_string_member (fo, "message", r->message ? r->message : "");
          json_array_add_object_element (failed, fo);
        }
    }
  json_object_set_string_member (s, "event", "fleet");
  json_object_set_int_member (s, "hosts", reports->len);
  json_object_set_int_member (s, "ran", ran);
  json_object_set_int_member (s, "failed", reports->len - ran);
  json_object_set_boolean_member (s, "with_plan", with_plan);
  json_object_set_int_member (s, "fit", fit);
  json_object_set_array_member (s, "nodes", nodes);
  if (slowest != NULL)
    json_object_set_object_member (s, "slowest_read", slowest);
  else
    json_object_set_null_member (s, "slowest_read");
  json_object_set_array_member (s, "failed_nodes", failed);
  return s;
}

/* ------------------------------------------------------------------------- */
/* Into a project                                                             */

static ProcuraProvenance *
probe_provenance (const char *name,
                  const char *text,
                  const char *format_version,
                  GDateTime  *now)
{
  ProcuraProvenance *p = procura_provenance_new ();

  p->file_name = g_strdup (name);
  p->size = (gint64) strlen (text);
  p->sha256 = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
  p->importer = g_strdup (procura_importer_probe_jsonl.id);
  p->format_version = g_strdup (format_version);
  p->imported_at = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  return p;
}

ProcuraImportResult *
procura_probe_report_to_import (const ProcuraProbeReport  *report,
                                GError                   **error)
{
  g_autoptr (ProcuraImportResult) result = procura_import_result_new ();
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *name = report->host ? g_strdup_printf ("procura-probe@%s.jsonl", report->host)
                                       : g_strdup ("procura-probe.jsonl");
  gboolean ran = report->status == PROCURA_PROBE_STATUS_OK
                 || report->status == PROCURA_PROBE_STATUS_DOES_NOT_FIT;

  if (ran)
    {
      g_autofree char *text = procura_probe_report_to_jsonl (report);

      if (!procura_probe_parse_jsonl (name, text, strlen (text), result, error))
        return NULL;
      procura_provenance_free (result->provenance);
      result->provenance = probe_provenance (name, text, result->format_version, now);
    }
  else
    {
      ProcuraProbeResult *r = procura_probe_result_new ();
      const char *host = report->host ? report->host : "localhost";

      r->test = g_strdup (PROCURA_PROBE_TEST_NODE_FAILED);
      r->device_name = g_strdup (host);
      r->json = procura_probe_failure_json (host, procura_probe_status_to_string (report->status),
                                            report->message ? report->message : "");
      r->measured_at = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
      g_ptr_array_add (result->probe_results, r);
      result->format = g_strdup (procura_importer_probe_jsonl.id);
      result->provenance = probe_provenance (name, r->json, NULL, now);
    }
  return g_steal_pointer (&result);
}

gboolean
procura_probe_fleet_store (ProcuraStore        *store,
                           GPtrArray           *reports,
                           const char * const  *candidates,
                           guint               *stored_results,
                           guint               *stored_failures,
                           GError             **error)
{
  g_autoptr (GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_import_result_free);
  guint n_results = 0, n_failures = 0;
  gboolean ok = TRUE;

  /* everything parsed before the transaction starts */
  for (guint i = 0; i < reports->len; i++)
    {
      const ProcuraProbeReport *r = g_ptr_array_index (reports, i);
      ProcuraImportResult *result = procura_probe_report_to_import (r, error);

      if (result == NULL)
        {
          g_prefix_error (error, "%s: ", r->host ? r->host : "localhost");
          return FALSE;
        }
      g_ptr_array_add (results, result);
    }

  if (!procura_store_begin_batch (store, error))
    return FALSE;
  for (guint i = 0; ok && i < reports->len; i++)
    {
      const ProcuraProbeReport *r = g_ptr_array_index (reports, i);
      ProcuraImportResult *result = g_ptr_array_index (results, i);
      gboolean ran = r->status == PROCURA_PROBE_STATUS_OK || r->status == PROCURA_PROBE_STATUS_DOES_NOT_FIT;
      const char *name = candidates != NULL ? candidates[i] : NULL;
      gint64 candidate_id = 0;

      /* a failed node measured nothing: it belongs to no candidate */
      if (ran && name != NULL && *name != '\0')
        {
          candidate_id = procura_store_find_candidate_by_name (store, name);
          if (candidate_id <= 0)
            {
              g_autoptr (ProcuraCandidate) c = procura_candidate_new ();

              c->name = g_strdup (name);
              c->kind = PROCURA_CANDIDATE_GPU;
              if (r->devices->len > 0)
                c->gpu_name = g_strdup (json_object_get_string_member_with_default (
                                          g_ptr_array_index (r->devices, 0), "name", NULL));
              candidate_id = procura_store_add_candidate (store, c, error);
              ok = candidate_id > 0;
            }
        }
      if (ok)
        ok = procura_store_import (store, result, candidate_id, error);
      if (!ok)
        g_prefix_error (error, "%s: ", r->host ? r->host : "localhost");
      else if (ran)
        n_results += result->probe_results->len;
      else
        n_failures++;
    }
  if (!procura_store_end_batch (store, ok, ok ? error : NULL))
    return FALSE;
  if (!ok)
    return FALSE;
  if (stored_results != NULL)
    *stored_results = n_results;
  if (stored_failures != NULL)
    *stored_failures = n_failures;
  return TRUE;
}
