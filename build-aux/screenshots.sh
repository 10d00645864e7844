#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Screenshots of every page in light and dark, and of presentation mode, at 1280×800,
# with the bundled demo project, under Xvfb:
#
#   build-aux/screenshots.sh [BUILDDIR] [OUTDIR]     (defaults: build, data/screenshots)
#
# The window is rendered offscreen by the real widgets (tests/gui/procura-screenshots.c),
# so no window manager or screen grabber is needed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
out=${2:-$top/data/screenshots}
tool=$build/tests/gui/procura-screenshots
[ -x "$tool" ] || { echo "screenshots.sh: build first: $tool is missing" >&2; exit 1; }
mkdir -p "$out"
export GSETTINGS_SCHEMA_DIR="$build/data" GSETTINGS_BACKEND=memory GSK_RENDERER=cairo
export GTK_A11Y=none NO_AT_BRIDGE=1 GDK_BACKEND=x11
if [ -n "${DISPLAY:-}" ] && [ "${SCREENSHOTS_OWN_XVFB:-1}" = 0 ]; then
  exec "$tool" "$out"
fi
exec xvfb-run -a -s '-screen 0 1600x1000x24 -nolisten tcp' "$tool" "$out"
