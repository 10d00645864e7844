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

#include "procura-probe-client.h"

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

G_END_DECLS
