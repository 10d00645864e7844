/* procura-probe-client.h: runs procura-probe and reads its JSON Lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The probe runs as a subprocess (GSubprocess); its stdout is read line by line
 * asynchronously, every event is handed to a callback as it arrives (progress for the
 * UI), and the run ends in a ProcuraProbeReport. Whatever the probe does (crash, hang,
 * print garbage, find no driver) the report says so in its status and message: the
 * caller is never left waiting and never crashes. Cancelling kills the probe (and,
 * with --ssh, the connection) and the finish call then returns G_IO_ERROR_CANCELLED
 * once the process is gone.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "procura-probe-protocol.h"

G_BEGIN_DECLS

/* Seconds ssh may take to connect (TCP and the SSH handshake) before giving up. */
#define PROCURA_PROBE_SSH_CONNECT_TIMEOUT_S 10

typedef enum {
  PROCURA_PROBE_STATUS_OK = 0,        /* everything ran; the plan (if any) fits */
  PROCURA_PROBE_STATUS_DOES_NOT_FIT,  /* the plan ran and an allocation failed */
  PROCURA_PROBE_STATUS_NO_DRIVER,     /* no NVIDIA driver here: a calm status */
  PROCURA_PROBE_STATUS_NO_DEVICE,     /* a driver but no usable GPU: a calm status */
  PROCURA_PROBE_STATUS_BAD_INPUT,     /* bad arguments or plan */
  PROCURA_PROBE_STATUS_DRIVER_ERROR,  /* cuInit or a CUDA call failed */
  PROCURA_PROBE_STATUS_TIMEOUT,       /* the probe's own limit, or the client killed it */
  PROCURA_PROBE_STATUS_INTERRUPTED,   /* stopped by a signal it handled */
  PROCURA_PROBE_STATUS_CRASHED,       /* killed by a signal the client did not send */
  PROCURA_PROBE_STATUS_PROTOCOL_ERROR,/* garbage on stdout, no hello, unknown protocol, no done */
  PROCURA_PROBE_STATUS_SPAWN_FAILED,  /* the probe (or ssh) could not be started */
  PROCURA_PROBE_STATUS_FAILED,        /* any other failure (e.g. ssh could not connect) */
} ProcuraProbeStatus;

/* "ok", "does-not-fit", "no-driver", "no-device", "bad-input", "driver-error",
 * "timeout", "interrupted", "crashed", "protocol-error", "spawn-failed", "failed" */
const char *procura_probe_status_to_string (ProcuraProbeStatus status);
/* TRUE for statuses that describe the machine rather than a failure (no driver, no
 * GPU): show them as a calm status page, not as an error. */
gboolean    procura_probe_status_is_calm   (ProcuraProbeStatus status);

typedef struct {
  char     *probe_path;     /* NULL: procura_probe_find_binary () */
  char     *devices;        /* "0" or "0,1"; NULL: every GPU */
  char     *plan_path;      /* a plan file (sent with --plan FILE) */
  char     *plan_json;      /* a plan as text (sent on stdin); wins over plan_path */
  gboolean  bandwidth;      /* --bandwidth */
  int       time_limit_s;   /* the probe's --time-limit; 0 = its default (300 s) */
  double    kill_after_s;   /* the client's own limit; 0 = time limit + 10 s */
  char     *ssh_host;       /* run on this host: copied to a temporary folder, run, removed;
                             * ssh gives up connecting after PROCURA_PROBE_SSH_CONNECT_TIMEOUT_S */
  char     *ssh_program;    /* NULL: "ssh" from PATH */
  char     *ssh_config;     /* ssh -F FILE; NULL: the user's ~/.ssh/config */
  int       connect_timeout_s; /* ssh ConnectTimeout; 0 = 10 s */
  GStrv     environ;        /* extra NAME=VALUE for a local probe */
} ProcuraProbeOptions;

ProcuraProbeOptions *procura_probe_options_new  (void);
/* A deep copy (every string and the environment). */
ProcuraProbeOptions *procura_probe_options_copy (const ProcuraProbeOptions *options);
void                 procura_probe_options_free (ProcuraProbeOptions *options);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraProbeOptions, procura_probe_options_free)

typedef struct {
  ProcuraProbeStatus  status;
  char               *message;         /* one sentence for people */
  int                 exit_code;       /* -1 when it did not exit normally */
  int                 term_signal;     /* 0 unless killed by a signal */
  gboolean            timed_out;       /* the client's own limit fired */
  int                 protocol;        /* from hello; 0 when none came */
  char               *probe_version;
  char               *driver_version;
  char               *cuda_version;
  char               *started_at;
  char               *error_kind;      /* the first error event, NULL when none */
  char               *error_detail;
  char               *error_step;      /* the driver call that did not answer ("cuInit"), or NULL */
  char               *done_status;     /* "ok", "failed", NULL when no done line came */
  GPtrArray          *devices;         /* JsonObject*: device events */
  GPtrArray          *results;         /* JsonObject*: result events */
  GPtrArray          *lines;           /* char*: stdout verbatim (valid protocol lines) */
  guint               garbage_lines;
  char               *first_garbage;   /* the first bad line, cut to 200 bytes */
  char               *stderr_tail;     /* the last 8 KiB of stderr */
  char               *host;            /* the ssh host (or node), NULL when local */
} ProcuraProbeReport;

void procura_probe_report_free (ProcuraProbeReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraProbeReport, procura_probe_report_free)

/* The result event of @test ("fit", "bandwidth", "d2d", ...) for @device, or NULL. */
JsonObject *procura_probe_report_find_result (const ProcuraProbeReport *report,
                                              const char               *test,
                                              int                       device);
/* The stdout lines joined, one per line (what `procura-probe > file` would hold). */
char       *procura_probe_report_to_jsonl    (const ProcuraProbeReport *report);

/* A report from probe output gathered some other way (a Kubernetes log, a Slurm
 * job's files): lines that do not start with "{" (diagnostics mixed in) are skipped;
 * @exit_code -1 takes the exit code of the done line. Classified like a run. */
ProcuraProbeReport *procura_probe_report_from_jsonl (const char *text,
                                                     gsize       len,
                                                     const char *host,
                                                     int         exit_code);

/* Called for every protocol line as it arrives (hello, device, progress, result,
 * error, done), in the thread-default main context of the caller. */
typedef void (*ProcuraProbeEventFunc) (const char *event,
                                       JsonObject *object,
                                       gpointer    user_data);

/* The probe binary: $PROCURA_PROBE, else next to the running procura binary in the
 * build tree (probe/procura-probe), else PKGLIBEXECDIR, else PATH. NULL if none. */
char *procura_probe_find_binary (void);

/* The argv the client will run (for logs and tests). */
GStrv procura_probe_build_argv (const ProcuraProbeOptions *options,
                                GError                   **error);

void                procura_probe_run_async  (const ProcuraProbeOptions *options,
                                              GCancellable              *cancellable,
                                              ProcuraProbeEventFunc      event_func,
                                              gpointer                   event_data,
                                              GAsyncReadyCallback        callback,
                                              gpointer                   user_data);
/* Returns a report (never NULL) unless cancelled (G_IO_ERROR_CANCELLED). */
ProcuraProbeReport *procura_probe_run_finish (GAsyncResult              *result,
                                              GError                   **error);
/* Runs the async call in a private main context until it ends. */
ProcuraProbeReport *procura_probe_run_sync   (const ProcuraProbeOptions *options,
                                              GCancellable              *cancellable,
                                              ProcuraProbeEventFunc      event_func,
                                              gpointer                   event_data,
                                              GError                   **error);

G_END_DECLS
