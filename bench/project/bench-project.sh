#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# `procura summary`, `render breakdown`, `render latency` and `report` on a project holding
# one large vLLM run (100,000 requests, 25 M inter-token samples: the 558 MB result):
# whole-process wall time and peak RSS, the median of RUNS runs of each, interleaved.
#
#   bench-project.sh PROCURA_BINARY [REQUESTS=100000] [RUNS=3] [WORKDIR=/tmp]
#
# Goal (issue 19): <= 0.2 s and <= 100 MiB for what needs no samples (the samples of the
# brief's latency metric, one per request, are read; the 25 M inter-token ones are not).
set -eu
procura=$1
requests=${2:-100000}
runs=${3:-3}
work=${4:-${TMPDIR:-/tmp}}
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-/usr/bin/python3}
file="$work/procura-bench-vllm-$requests.json"
tmp=$(mktemp -d "$work/procura-bench-project-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
project="$tmp/big.procura"

[ -s "$file" ] || "$python" "$here/../import/gen-vllm-result.py" "$file" "$requests"
"$procura" new "$project" --title "Benchmark" > /dev/null
"$procura" import "$project" "$file" --format vllm-bench-serve --candidate h100 > /dev/null
"$procura" set "$project" brief.slo_metric=ttft brief.slo_percentile=99 \
  brief.slo_threshold_ms=500 brief.demand_average=50 brief.demand_peak=100 \
  candidate.h100.gpu_name=H100 candidate.h100.price_per_gpu_hour=2.5 \
  candidate.h100.price_date=2026-11-30 > /dev/null

timed () {
  out=$1; shift
  /usr/bin/time -f '%e %M %U %S' -o "$tmp/time" "$@" > /dev/null 2> "$tmp/stderr" || {
    echo "failed: $*" >&2; cat "$tmp/stderr" >&2; exit 1; }
  awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$tmp/time" >> "$tmp/$out"
}
median () {
  sort -n -k "$2" "$tmp/$1" | awk -v n="$runs" -v c="$2" 'NR == int((n + 1) / 2) { print $c }'
}

for i in $(seq "$runs"); do
  timed summary "$procura" summary "$project"
  timed breakdown "$procura" render "$project" breakdown --output "$tmp/breakdown.png"
  timed latency "$procura" render "$project" latency --output "$tmp/latency.png"
  timed report "$procura" report "$project" --output "$tmp/report.md"
done

echo "project: $(du -m "$project" | cut -f1) MiB holding $requests requests ($(stat -L -c %s "$file") bytes of JSON); load $(cut -d' ' -f1-3 /proc/loadavg)"
for w in summary breakdown latency report; do
  echo "$(median $w 1) $(median $w 2) $(median $w 3)" | awk -v w="$w" '{
    ok = ($1 <= 0.2 && $2 / 1024 <= 100) ? "GOAL MET" : "GOAL NOT MET";
    printf "%-10s %6.2f s (cpu %6.2f s) %7.1f MiB  (goal <= 0.2 s, <= 100 MiB) %s\n", w, $1, $3, $2 / 1024, ok }'
done
