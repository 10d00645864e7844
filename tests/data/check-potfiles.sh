#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every file with translatable strings is listed in po/POTFILES.in, and every listed file exists.
set -eu
top=$1
cd "$top"
fail=0
listed=$(grep -v '^#' po/POTFILES.in | sed '/^$/d' | sort)
for f in $listed; do
  [ -f "$f" ] || { echo "POTFILES.in lists a missing file: $f"; fail=1; }
done
found=$( { grep -rlE '(^|[^A-Za-z_])(N?_|C_|NC_|g_dn?gettext|ngettext)[[:space:]]*\("' src --include='*.c' 2>/dev/null || true;
           grep -rl 'translatable="yes"' ui --include='*.ui' 2>/dev/null || true; } | sort -u)
for f in $found; do
  echo "$listed" | grep -qx "$f" || { echo "has translatable strings but is not in po/POTFILES.in: $f"; fail=1; }
done
[ $fail -eq 0 ] && echo "POTFILES.in lists all $(echo "$found" | wc -l) files with translatable strings"
exit $fail
