#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# `procura inspect --json` against json + numpy on the same vLLM detailed result:
# whole-process wall time and peak RSS (median of RUNS runs), and the ratios.
#
#   bench-import.sh PROCURA_BINARY [REQUESTS=10000] [RUNS=3] [WORKDIR=/tmp]
#
# Goal (issue 4): Procura >= 5x faster and <= 0.8x the peak memory of the Python script,
# at 10,000 requests (~55 MB) and 100,000 requests (~550 MB).
set -eu
procura=$1
requests=${2:-10000}
runs=${3:-3}
work=${4:-${TMPDIR:-/tmp}}
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-/usr/bin/python3}
file="$work/procura-bench-vllm-$requests.json"

if ! "$python" -c 'import numpy' 2>/dev/null; then
  echo "SKIP: $python has no numpy"; exit 77
fi
[ -s "$file" ] || "$python" "$here/gen-vllm-result.py" "$file" "$requests"
size=$(stat -c %s "$file")

measure () {  # prints "seconds kib" of the median run
  for i in $(seq "$runs"); do
    /usr/bin/time -f '%e %M' -o "$work/procura-bench-time" "$@" > /dev/null 2> /dev/null
    cat "$work/procura-bench-time"
  done | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2) { print }'
}

p=$(measure "$procura" inspect "$file" --format vllm-bench-serve --json)
y=$(measure "$python" "$here/bench-python.py" "$file")
echo "$p $y" | awk -v size="$size" -v req="$requests" '{
  printf "file: %d requests, %.1f MB\n", req, size / 1e6;
  printf "procura inspect: %6.2f s  %7.1f MiB\n", $1, $2 / 1024;
  printf "python json+np:  %6.2f s  %7.1f MiB\n", $3, $4 / 1024;
  sp = $3 / ($1 > 0 ? $1 : 0.01); mem = $2 / $4;
  printf "speed-up: %.1fx (goal >= 5x)   memory: %.2fx of Python (goal <= 0.8x)   %s\n",
         sp, mem, (sp >= 5 && mem <= 0.8) ? "GOAL MET" : "GOAL NOT MET";
}'
