/* procura-probe-cluster.h: the probe as a Kubernetes Job or a Slurm job
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both run the cluster's own command-line tools (kubectl; sbatch, squeue, sacct,
 * scancel), through flatpak-spawn --host inside a Flatpak, wait for the job, gather the
 * probe's JSON Lines and turn them into ProcuraProbeReports. Cancelling (checked while
 * waiting) deletes the Job or scancels the job. Synchronous: the caller's thread waits;
 * while waiting, the thread-default main context is iterated (signal sources run).
 */
#pragma once

#include "procura-probe-client.h"

G_BEGIN_DECLS

typedef struct {
  char   *context;       /* kubectl --context */
  char   *namespace;     /* kubectl --namespace */
  char   *partition;     /* sbatch --partition */
  int     nodes;         /* sbatch --nodes; 0: the script's default (1) */
  char   *gres;          /* sbatch --gres, e.g. "gpu:8"; NULL: the script's gpu:1 */
  char   *workdir;       /* Slurm: a folder on the shared file system; NULL: a new one
                          * under the user's cache folder */
  double  poll_s;        /* how often the job is looked at; 0 = 2 s */
  double  timeout_s;     /* give up (and delete or cancel the job) after; 0 = 20 min */
} ProcuraProbeClusterOptions;

ProcuraProbeClusterOptions *procura_probe_cluster_options_new  (void);
void                        procura_probe_cluster_options_free (ProcuraProbeClusterOptions *options);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraProbeClusterOptions, procura_probe_cluster_options_free)

/* A file of data/cluster/ (PROCURA_DATADIR/cluster, else PKGDATADIR/cluster); NULL if absent. */
char      *procura_probe_cluster_file (const char *name);

/* kubectl: configmaps procura-probe-bin (the probe) and procura-probe-plan (the plan,
 * if any), apply data/cluster/procura-probe-job.yaml, wait until the Job succeeds or
 * fails, read `kubectl logs job/procura-probe --container probe`, delete the Job and
 * both configmaps. Returns one report (host "kubernetes" or the context), or NULL with
 * @error when a kubectl step failed or the wait was cancelled or timed out. */
GPtrArray *procura_probe_run_kubectl (const ProcuraProbeOptions        *probe,
                                      const ProcuraProbeClusterOptions *cluster,
                                      GCancellable                     *cancellable,
                                      GError                          **error);

/* Slurm: copies the probe, the plan (plan.json) and data/cluster/procura-probe.sbatch
 * into the work folder, `sbatch --parsable`, follows the job with squeue (then sacct for
 * its end state), and reads every node's procura-probe-JOBID[-NODE].jsonl. Returns one
 * report per file (host = the node, or slurm-JOBID), or NULL with @error; cancelled or
 * timed out, the job is scancelled. */
GPtrArray *procura_probe_run_slurm   (const ProcuraProbeOptions        *probe,
                                      const ProcuraProbeClusterOptions *cluster,
                                      GCancellable                     *cancellable,
                                      GError                          **error);

G_END_DECLS
