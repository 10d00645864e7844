#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# `procura inspect --json` and `procura import` against json + numpy (+ sqlite3 for the
# import) on the same vLLM detailed result: whole-process wall time and peak RSS, the
# median of RUNS interleaved pairs (Procura, then the peer, then again), and the ratios.
#
#   bench-import.sh PROCURA_BINARY [REQUESTS=10000] [RUNS=3] [WORKDIR=/tmp]
#
# Goals: inspect >= 5x faster at <= 0.8x the peer's peak memory (issue 4); import >= 8x
# faster at <= 0.5x (issue 19). 1,000 requests ~5.6 MB, 10,000 ~56 MB, 100,000 ~558 MB.
set -eu
procura=$1
requests=${2:-10000}
runs=${3:-3}
work=${4:-${TMPDIR:-/tmp}}
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-/usr/bin/python3}
file="$work/procura-bench-vllm-$requests.json"
tmp=$(mktemp -d "$work/procura-bench-import-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if ! "$python" -c 'import numpy' 2>/dev/null; then
  echo "SKIP: $python has no numpy"; exit 77
fi
[ -s "$file" ] || "$python" "$here/gen-vllm-result.py" "$file" "$requests"
size=$(stat -L -c %s "$file")

# one timed run: appends "seconds kib cpu_seconds" to $tmp/$1 (bench-run.py: wall time to
# the microsecond, peak RSS and CPU time from getrusage)
timed () {
  out=$1; shift
  "$python" "$here/bench-run.py" "$tmp/$out" "$@" || {
    echo "failed: $*" >&2; cat "$tmp/$out.stderr" >&2; exit 1; }
}
median () {  # of column $2 of file $1
  sort -n -k "$2" "$tmp/$1" | awk -v n="$runs" -v c="$2" 'NR == int((n + 1) / 2) { print $c }'
}

for i in $(seq "$runs"); do
  timed p-inspect "$procura" inspect "$file" --format vllm-bench-serve --json
  timed y-inspect "$python" "$here/bench-python.py" "$file"
  rm -f "$tmp/p.procura" "$tmp/p.procura-wal" "$tmp/p.procura-shm" "$tmp/y.sqlite"*
  "$procura" new "$tmp/p.procura" > /dev/null
  sync
  timed p-import "$procura" import "$tmp/p.procura" "$file" --format vllm-bench-serve
  timed y-import "$python" "$here/bench-python-import.py" "$file" "$tmp/y.sqlite"
done
project_mib=$(du -m "$tmp/p.procura" | cut -f1)

for w in inspect import; do
  echo "$(median p-$w 1) $(median p-$w 2) $(median p-$w 3) $(median y-$w 1) $(median y-$w 2) $(median y-$w 3)" |
    awk -v size="$size" -v req="$requests" -v w="$w" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" '{
      goal_sp = (w == "import") ? 8 : 5; goal_mem = (w == "import") ? 0.5 : 0.8;
      sp = $4 / ($1 > 0 ? $1 : 0.01); cpu = $6 / ($3 > 0 ? $3 : 0.01); mem = $2 / $5;
      printf "%-7s %7d requests %6.1f MB | procura %7.3f s (cpu %7.3f s) %7.1f MiB | peer %7.3f s (cpu %7.3f s) %7.1f MiB | %.1fx faster (cpu %.1fx), %.2fx memory (goal >= %dx, <= %.1fx) %s | load %s\n",
             w, req, size / 1e6, $1, $3, $2 / 1024, $4, $6, $5 / 1024, sp, cpu, mem, goal_sp, goal_mem,
             (sp >= goal_sp && mem <= goal_mem) ? "GOAL MET" : "GOAL NOT MET", load;
    }'
done
echo "project file after the import: $project_mib MiB; runs: $runs interleaved pairs, medians"
