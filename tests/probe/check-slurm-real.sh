#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# `procura probe --slurm` against a real single-node Slurm: munged, slurmctld and slurmd
# (Debian's slurmctld, slurmd, slurm-client and munge) started here on 127.0.0.1 only
# (CommunicationParameters=NoInAddrAny,NoCtldInAddrAny) with a generated slurm.conf, a
# throw-away munge key and one node with one "gpu" GRES; the job runs the real probe with
# the fake driver. Checks a run imported with --into, and a Ctrl+C that scancels the job.
# TAP; skipped, saying so, without the Slurm daemons or without root.
#
#   check-slurm-real.sh PROCURA
set -u
procura=$(readlink -f "$1")

skip() { echo "1..0 # SKIP $*"; exit 0; }
for t in /usr/sbin/munged /usr/sbin/slurmctld /usr/sbin/slurmd; do
  [ -x "$t" ] || skip "$t is not installed (apt-get install slurmctld slurmd slurm-client munge)"
done
for t in sbatch squeue scancel munge; do
  command -v "$t" >/dev/null || skip "$t is not installed (apt-get install slurm-client munge)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd runs jobs as their user: run as root"
[ -n "${PROCURA_TEST_FAKE_CUDA:-}" ] || skip "run through meson test (the fake driver is needed)"

T=$(mktemp -d -t procura-slurm-XXXXXX)
chmod 755 "$T"   # munged wants its socket folder searchable
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT
fail() {
  echo "not ok $n - $*"
  for f in "$T"/*.log "$T"/*.out "$T"/jobs/*.err; do [ -f "$f" ] && sed "s|^|# $(basename "$f"): |" "$f" | tail -15; done
  exit 1
}

host=$(hostname -s)
read -r ctld_port d_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
mkdir -p "$T/state" "$T/spool" "$T/jobs"
head -c 1024 /dev/urandom > "$T/munge.key"
chmod 400 "$T/munge.key"
/usr/sbin/munged -F -f --key-file="$T/munge.key" --socket="$T/munge.socket" --pid-file="$T/munged.pid" \
  --log-file="$T/munged.log" --seed-file="$T/munge.seed" > "$T/munged.out" 2>&1 &
pids+=($!)
node=$(/usr/sbin/slurmd -C | head -1)
cat > "$T/slurm.conf" <<CONF
ClusterName=procuratest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.socket
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
GresTypes=gpu
$node NodeAddr=127.0.0.1 Gres=gpu:1 State=UNKNOWN
PartitionName=probe Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
echo "NodeName=$host Name=gpu File=/dev/null" > "$T/gres.conf"
export SLURM_CONF=$T/slurm.conf
for i in $(seq 50); do [ -S "$T/munge.socket" ] && break; sleep 0.1; done
/usr/sbin/slurmctld -D -f "$SLURM_CONF" > "$T/slurmctld.out" 2>&1 &
pids+=($!)
sleep 1
/usr/sbin/slurmd -D -f "$SLURM_CONF" -N "$host" > "$T/slurmd.out" 2>&1 &
pids+=($!)

echo "1..3"
n=1
for i in $(seq 100); do
  sinfo --noheader --format=%T 2>/dev/null | grep -qx idle && break
  sleep 0.2
done
sinfo --noheader --format=%T 2>/dev/null | grep -qx idle || fail "the Slurm node came up idle"
echo "ok $n - a single-node Slurm on 127.0.0.1 is up"

n=2
export PROCURA_PROBE_LIBCUDA=$PROCURA_TEST_FAKE_CUDA PROCURA_PROBE_LIBNVML=$PROCURA_TEST_FAKE_NVML
export FAKE_CUDA_MEMORY_MIB=8192 PROCURA_CLUSTER_POLL_S=0.2
printf '%s' '{"gpus":[{"allocations":[{"name":"w","kind":"weights","bytes":2097152,"count":4}]}]}' > "$T/plan.json"
"$procura" new "$T/p.procura" --title slurm > /dev/null 2>&1 || true
[ -f "$T/p.procura" ] || fail "procura new made a project"
out=$(cd "$T" && timeout 120 "$procura" probe --slurm --partition probe --gres gpu:1 --workdir "$T/jobs" \
        --plan "$T/plan.json" --into "$T/p.procura" 2>&1) || fail "procura probe --slurm: $out"
echo "$out" | grep -q "fit        GPU 0: fits" || fail "the fit result came back: $out"
ls "$T"/jobs/procura-probe-*.jsonl > /dev/null 2>&1 || fail "the job wrote its JSON Lines"
echo "$out" | grep -q "Stored .* probe result(s)" || fail "the results were stored: $out"
echo "ok $n - procura probe --slurm ran the probe as a Slurm job and imported it"

n=3
# 400 allocations of 50 ms: 20 s; Ctrl+C once it runs
printf '%s' '{"gpus":[{"allocations":[{"name":"w","kind":"weights","bytes":2097152,"count":400}]}]}' > "$T/long.json"
FAKE_CUDA_SLOW_MS=50 "$procura" probe --slurm --workdir "$T/jobs2" --plan "$T/long.json" > "$T/cancel.out" 2>&1 &
cli=$!
for i in $(seq 100); do
  [ "$(squeue --noheader --states=RUNNING --format=%i | wc -l)" -ge 1 ] && break
  sleep 0.1
done
[ "$(squeue --noheader --states=RUNNING --format=%i | wc -l)" -ge 1 ] || fail "the job started"
kill -INT "$cli"
wait "$cli"
rc=$?
[ "$rc" -eq 1 ] || fail "procura probe --slurm ended with 1 after Ctrl+C (got $rc: $(cat "$T/cancel.out"))"
grep -q "was cancelled (scancel)" "$T/cancel.out" || fail "it said the job was cancelled: $(cat "$T/cancel.out")"
for i in $(seq 100); do
  [ -z "$(squeue --noheader --format=%i)" ] && ! pgrep -f "$T/jobs2/procura-probe" > /dev/null && break
  sleep 0.1
done
[ -z "$(squeue --noheader --format=%i)" ] || fail "the job left the queue"
! pgrep -f "$T/jobs2/procura-probe" > /dev/null || fail "no probe process was left behind"
echo "ok $n - Ctrl+C scancels the job and leaves no probe behind"
