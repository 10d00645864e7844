/* procura-store-probe.h: the probe fleet's failed nodes in a project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * No schema of their own: a node that could not be probed is a probe_results row of
 * test PROCURA_PROBE_TEST_NODE_FAILED (procura-model.h) whose json holds the host, the
 * status and the reason, imported with the nodes that ran in one transaction
 * (procura_probe_fleet_store() in src/core/probe-client).
 */
#pragma once

#include "procura-model.h"

G_BEGIN_DECLS

/* Moves the failed-node rows of @project->probe_results into @project->probe_failures
 * (keeping their order), so that nothing that reads probe results takes a failure for
 * a measurement. Called by procura_store_load_project(). */
void        procura_store_probe_split_failures (ProcuraProject           *project);

/* The members of a failed node's row (its json), or NULL when absent. */
char       *procura_probe_failure_get          (const ProcuraProbeResult *failure,
                                                const char               *member);

/* The json of a failed node's row: {"event":"node-failed","host","status","reason"}. */
char       *procura_probe_failure_json         (const char               *host,
                                                const char               *status,
                                                const char               *reason);

G_END_DECLS
