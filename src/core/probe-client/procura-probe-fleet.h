/* procura-probe-fleet.h: the probe on many hosts at once, and what the fleet says
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A hosts file lists ssh targets (one a line, # comments). Every host is probed through
 * ssh as `procura probe --ssh` does, at most @max_parallel at a time, each under the
 * client's own limit (ProcuraProbeOptions.kill_after_s) and ssh's ConnectTimeout, so one
 * dead node never holds the fleet. The summary says which nodes fit the plan, the
 * headroom per node, the slowest HBM read bandwidth and which nodes failed and why.
 */
#pragma once

#include "procura-import.h"
#include "procura-probe-client.h"
#include "procura-store.h"

G_BEGIN_DECLS

#define PROCURA_PROBE_FLEET_MAX_HOSTS 4096

/* The targets of a hosts file: one per line, blank lines and # comments (also after a
 * target) skipped. A target that starts with "-", holds a space, or repeats, is an
 * error naming @name and the line. No target at all is an error. */
GStrv procura_probe_parse_hosts (const char *name,
                                 const char *text,
                                 GError    **error);

/* Called for every protocol line of every host, with the host; at the end of a host's
 * run once more with @event "finished" and @object NULL. */
typedef void (*ProcuraProbeFleetFunc) (const char *host,
                                       const char *event,
                                       JsonObject *object,
                                       gpointer    user_data);

/* @options: everything but ssh_host (taken from @hosts). */
void       procura_probe_fleet_run_async  (const ProcuraProbeOptions *options,
                                           const char * const        *hosts,
                                           guint                      max_parallel,
                                           GCancellable              *cancellable,
                                           ProcuraProbeFleetFunc      event_func,
                                           gpointer                   event_data,
                                           GAsyncReadyCallback        callback,
                                           gpointer                   user_data);
/* ProcuraProbeReport*, one per host in the order of @hosts; NULL when cancelled. */
GPtrArray *procura_probe_fleet_run_finish (GAsyncResult              *result,
                                           GError                   **error);
GPtrArray *procura_probe_fleet_run_sync   (const ProcuraProbeOptions *options,
                                           const char * const        *hosts,
                                           guint                      max_parallel,
                                           GCancellable              *cancellable,
                                           ProcuraProbeFleetFunc      event_func,
                                           gpointer                   event_data,
                                           GError                   **error);

/* The fleet summary as a JSON object (docs/probe.md, "A fleet"):
 *   {"event":"fleet","hosts":N,"ran":N,"failed":N,"with_plan":bool,"fit":N,
 *    "nodes":[{"host","status","message","exit_code","gpus","gpu_names":[…],
 *              "fits":bool|null,"headroom_bytes":int|null,"missing_bytes":int|null,
 *              "read_gbps":num|null}],
 *    "slowest_read":{"host","device","gbps"}|null,
 *    "failed_nodes":[{"host","status","message"}]}
 * headroom_bytes is the smallest fit headroom of the node's GPUs, read_gbps its slowest
 * device-memory read bandwidth. */
JsonObject *procura_probe_fleet_summary (GPtrArray *reports);

/* What a project stores of one host's report: a node that ran gives its probe results
 * (procura_probe_parse_jsonl() of its lines); a node that did not gives one row of test
 * PROCURA_PROBE_TEST_NODE_FAILED naming the host, the status and the reason (its
 * message). Provenance "procura-probe@HOST.jsonl" either way. */
ProcuraImportResult *procura_probe_report_to_import (const ProcuraProbeReport  *report,
                                                     GError                   **error);

/* Stores a whole fleet run in ONE transaction (a failure or a kill leaves none of it):
 * every node that ran with its results, every node that failed as such (no candidate).
 * @candidates: NULL (no candidate), or one candidate name per report (NULL or "" for
 * none), found by name or created (a GPU candidate named after the node's first GPU).
 * Undoable as the other imports are: deleting the candidate removes its results. */
gboolean   procura_probe_fleet_store     (ProcuraStore        *store,
                                          GPtrArray           *reports,
                                          const char * const  *candidates,
                                          guint               *stored_results,
                                          guint               *stored_failures,
                                          GError             **error);

G_END_DECLS
