#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# usage: screenshot.sh PROCURA_BINARY OUTDIR -- the real app in a real window, captured.
# Needs $DISPLAY (the suite runs under xvfb-run); exits 77 (skip) without one.
set -eu
app=$1 out=$2
[ -n "${DISPLAY:-}" ] || { echo "no DISPLAY: skipped"; exit 77; }
command -v xwininfo >/dev/null && command -v import >/dev/null || { echo "xwininfo/import missing: skipped"; exit 77; }
mkdir -p "$out"
# A private data folder: nothing of $HOME is read or written (the first start shows
# the welcome page).
XDG_DATA_HOME=$(mktemp -d); export XDG_DATA_HOME
"$app" & pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$XDG_DATA_HOME"' EXIT
id=
for _ in $(seq 50); do
  # The app's mapped window (its title is the project's), not GTK's 1x1 leader window.
  id=$(xwininfo -root -tree 2>/dev/null | awk '/\("procura" / && !/ 1x1\+/ {print $1; exit}')
  [ -n "$id" ] && break
  sleep 0.2
done
[ -n "$id" ] || { echo "the window did not appear"; exit 1; }
# The window is painted after it appears: retry for 15 s.
colors=0
for _ in $(seq 30); do
  sleep 0.5
  import -window "$id" "$out/window.png"
  colors=$(/usr/bin/convert "$out/window.png" -format '%k' info:)
  [ "$colors" -gt 50 ] && break
done
size=$(/usr/bin/convert "$out/window.png" -format '%wx%h' info:)
echo "screenshot $out/window.png: $size, $colors colours"
[ "$colors" -gt 50 ]
