#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-probe-deps.sh PROBE: the probe links nothing but libc (and the sanitizer
# runtimes in sanitizer builds): no GLib, no CUDA, no NVML at build time.
probe="$1"
if ! command -v readelf >/dev/null 2>&1; then
  echo "SKIP: readelf not found"
  exit 77
fi
needed=$(readelf -d "$probe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "NEEDED: $(echo $needed)"
status=0
for lib in $needed; do
  case "$lib" in
    libc.so.*|libm.so.*|libdl.so.*|ld-linux*|libpthread.so.*) ;;
    libasan.so.*|libubsan.so.*|liblsan.so.*|libtsan.so.*|libgcc_s.so.*|libstdc++.so.*) ;;
    *) echo "FAIL: procura-probe links $lib"; status=1 ;;
  esac
done
exit $status
