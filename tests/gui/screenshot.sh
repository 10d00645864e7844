#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# usage: screenshot.sh PROCURA_BINARY OUTDIR -- the real app in a real window, captured.
# Needs $DISPLAY (the suite runs under xvfb-run); exits 77 (skip) without one.
set -eu
app=$1 out=$2
[ -n "${DISPLAY:-}" ] || { echo "no DISPLAY: skipped"; exit 77; }
command -v xwininfo >/dev/null && command -v import >/dev/null || { echo "xwininfo/import missing: skipped"; exit 77; }
mkdir -p "$out"
"$app" & pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
id=
for _ in $(seq 50); do
  id=$(xwininfo -root -tree 2>/dev/null | awk '/"Procura"|"[^"]*\.procura"/ {print $1; exit}')
  [ -n "$id" ] && break
  sleep 0.2
done
[ -n "$id" ] || { echo "the window did not appear"; exit 1; }
sleep 1
import -window "$id" "$out/window.png"
colors=$(/usr/bin/convert "$out/window.png" -format '%k' info:)
size=$(/usr/bin/convert "$out/window.png" -format '%wx%h' info:)
echo "screenshot $out/window.png: $size, $colors colours"
[ "$colors" -gt 50 ]
