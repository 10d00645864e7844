/* procura-probe-protocol.h: exit codes and limits of procura-probe (plain C, shared
 * by the probe in src/probe and its client in src/core/probe-client)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/probe.md describes the protocol; keep both in step.
 */
#pragma once

#define PROCURA_PROBE_PROTOCOL 1

typedef enum {
  PROCURA_PROBE_EXIT_OK           = 0,  /* everything ran; the plan (if any) fits */
  PROCURA_PROBE_EXIT_DOES_NOT_FIT = 1,  /* the plan ran and an allocation failed */
  PROCURA_PROBE_EXIT_USAGE        = 2,  /* bad arguments, unreadable or invalid plan */
  PROCURA_PROBE_EXIT_NO_DRIVER    = 3,  /* libcuda.so.1 cannot be loaded */
  PROCURA_PROBE_EXIT_DRIVER       = 4,  /* cuInit failed, no device, a CUDA call failed */
  PROCURA_PROBE_EXIT_TIMEOUT      = 5,  /* the time limit was reached */
  PROCURA_PROBE_EXIT_INTERRUPTED  = 6,  /* SIGTERM, SIGINT or SIGHUP */
  PROCURA_PROBE_EXIT_INTERNAL     = 7,  /* host out of memory, cannot write stdout */
} ProcuraProbeExit;

/* Seconds each call of the driver's start (loading libcuda, nvmlInit, cuInit) may take
 * (at most the time limit): past it the probe reports an error of kind "timeout" whose
 * "step" names the call that did not answer, and exits with PROCURA_PROBE_EXIT_TIMEOUT. */
#define PROCURA_PROBE_START_TIMEOUT 30

/* Default --time-limit in seconds */
#define PROCURA_PROBE_DEFAULT_TIME_LIMIT 300
