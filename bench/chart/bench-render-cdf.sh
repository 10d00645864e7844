#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# `procura render PROJECT cdf` on a project holding one vLLM run of 100,000 requests
# (25.5 M inter-token latencies, the 558 MB result), beside bench-render-cdf-peer.py
# (json + numpy + matplotlib) drawing the same CDF from the same result file. Interleaved
# pairs (Procura first in odd pairs), whole-process wall time, CPU time (user + sys)
# and peak RSS from /usr/bin/time, medians.
#
#   bench-render-cdf.sh PROCURA [PAIRS=3] [WORKDIR=$TMPDIR] [REQUESTS=100000]
set -eu
procura=$1
pairs=${2:-3}
work=${3:-${TMPDIR:-/tmp}}
requests=${4:-100000}
here=$(cd "$(dirname "$0")" && pwd)
json=$work/procura-bench-cdf-$requests.json
project=$work/procura-bench-cdf-$requests.procura
time_cmd=/usr/bin/time

[ -x "$time_cmd" ] || { echo "bench-render-cdf: /usr/bin/time is needed (Debian: time)"; exit 77; }
if [ ! -s "$json" ]; then
  echo "generating $json ($requests requests)..."
  python3 "$here/../import/gen-vllm-result.py" "$json" "$requests"
fi
if [ ! -s "$project" ]; then
  echo "importing it into $project..."
  "$procura" new "$project" --title "CDF bench" > /dev/null
  "$procura" import "$project" "$json" --candidate "H100" > /dev/null
  "$procura" set "$project" brief.slo_metric=itl > /dev/null
fi
# the python3 on PATH with numpy and matplotlib, else the system's
peer=no
for py in python3 /usr/bin/python3; do
  if "$py" -c "import numpy, matplotlib" 2> /dev/null; then peer=yes; break; fi
done

median () {
  sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

ours=$work/procura-bench-cdf-ours.txt
theirs=$work/procura-bench-cdf-theirs.txt
: > "$ours"
: > "$theirs"
run_ours () {
  "$time_cmd" -f "%e %M %U %S" -o "$work/procura-bench-cdf-t.txt" \
    "$procura" render "$project" cdf --output "$work/procura-bench-cdf-ours.png" > /dev/null
  cat "$work/procura-bench-cdf-t.txt" >> "$ours"
}
run_theirs () {
  [ "$peer" = yes ] || return 0
  "$time_cmd" -f "%e %M %U %S" -o "$work/procura-bench-cdf-t.txt" \
    "$py" "$here/bench-render-cdf-peer.py" "$json" "$work/procura-bench-cdf-theirs.png"
  cat "$work/procura-bench-cdf-t.txt" >> "$theirs"
}
load0=$(cut -d' ' -f1 /proc/loadavg)
i=1
while [ "$i" -le "$pairs" ]; do
  if [ $((i % 2)) -eq 1 ]; then run_ours; run_theirs; else run_theirs; run_ours; fi
  echo "  pair $i: procura $(tail -n1 "$ours")   peer $(tail -n1 "$theirs" 2> /dev/null) (wall s, KiB, user s, sys s)"
  i=$((i + 1))
done
load1=$(cut -d' ' -f1 /proc/loadavg)
ours_s=$(cut -d' ' -f1 "$ours" | median)
ours_m=$(cut -d' ' -f2 "$ours" | median)
ours_c=$(awk '{ print $3 + $4 }' "$ours" | median)
echo "render cdf, $requests requests, median of $pairs interleaved pairs (1-min load average $load0 before, $load1 after):"
echo "  procura render cdf:           $ours_s s (CPU $ours_c s), $(echo "$ours_m" | awk '{ printf "%.0f", $1 / 1024 }') MiB peak RSS"
if [ "$peer" = yes ]; then
  theirs_s=$(cut -d' ' -f1 "$theirs" | median)
  theirs_m=$(cut -d' ' -f2 "$theirs" | median)
  theirs_c=$(awk '{ print $3 + $4 }' "$theirs" | median)
  echo "  json + numpy + matplotlib:    $theirs_s s (CPU $theirs_c s), $(echo "$theirs_m" | awk '{ printf "%.0f", $1 / 1024 }') MiB peak RSS"
  echo "  ratio: $(echo "$theirs_s $ours_s" | awk '{ printf "%.1f", $1 / $2 }')x faster," \
       "$(echo "$ours_m $theirs_m" | awk '{ printf "%.2f", $1 / $2 }')x the memory"
else
  echo "  peer: python3 with numpy and matplotlib not found (Debian: python3-matplotlib): not run"
fi
