#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The build generated po/procura.pot from every file of po/POTFILES.in that has
# translatable strings, and each language of po/LINGUAS translates all of it: no
# message missing, untranslated or fuzzy, formats and plural forms that msgfmt accepts.
# With --complete: only the translations' completeness (the "po-complete" test), so that
# a branch that adds messages fails there, saying which, and not in "pot".
set -eu
complete=0
if [ "$1" = --complete ]; then complete=1; shift; fi
top=$1
pot=$2
cd "$top"
fail=0
[ -s "$pot" ] || { echo "the build did not generate $pot"; exit 1; }
n=$(grep -c '^msgid ' "$pot")
[ "$n" -gt 1 ] || { echo "$pot has no messages"; exit 1; }
# every listed file that marks strings shows up in the template's references
for f in $(grep -v '^#' po/POTFILES.in | sed '/^$/d' | sort -u); do
  if grep -qE '(^|[^A-Za-z_])(N?_|C_|NC_|g_dngettext|ngettext)[[:space:]]*\("|translatable="yes"' "$f"; then
    grep -q "^#:.* $f:" "$pot" || { echo "$pot has no message from $f"; fail=1; }
  fi
done
for lang in $(grep -v '^#' po/LINGUAS | sed '/^$/d'); do
  po=po/$lang.po
  [ -f "$po" ] || { echo "po/LINGUAS names $lang but $po is missing"; fail=1; continue; }
  if [ $complete -eq 0 ]; then
    msgfmt --check --check-accelerators=_ -o /dev/null "$po" || { echo "$po: msgfmt --check fails"; fail=1; }
    continue
  fi
  # msgcmp: every message of the template is in the catalogue
  msgcmp "$po" "$pot" || { echo "$po lacks messages of the template (run: meson compile -C build procura-update-po, then translate them)"; fail=1; }
  stats=$(LC_ALL=C msgfmt --statistics -o /dev/null "$po" 2>&1)
  case "$stats" in
    *untranslated*|*fuzzy*) echo "$po is not complete: $stats"; fail=1 ;;
  esac
  # the catalogue translates what the template asks, not messages gone from the code
  obsolete=$(msgattrib --only-obsolete "$po" | grep -c '^#~ msgid' || true)
  [ "$obsolete" -eq 0 ] || { echo "$po keeps $obsolete obsolete messages"; fail=1; }
  echo "$po: $stats"
done
[ $fail -eq 0 ] && echo "$pot: $n messages from $(grep -v '^#' po/POTFILES.in | sed '/^$/d' | sort -u | wc -l) files"
exit $fail
