#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The GUI keeps its state in struct fields and types of its own, never in object data
# (src/gui/DESIGN.md): no g_object_set_data / get_data (nor the qdata, steal and dup
# forms) in src/gui. Prints each use found, with its file and line.
set -eu
top=$1
cd "$top"
[ -d src/gui ] || { echo "no src/gui under $top"; exit 1; }
found=$(grep -rnE 'g_object_(set|get|steal|dup|replace)_q?data' src/gui --include='*.c' --include='*.h' || true)
if [ -n "$found" ]; then
  echo "object data in src/gui (keep the state in a struct field or a type of its own):"
  echo "$found"
  exit 1
fi
echo "src/gui: no object data in $(find src/gui -name '*.[ch]' | wc -l) files"
