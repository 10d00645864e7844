#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-ptxas.sh PTXAS ARCH FILE.ptx: assembles the probe's PTX; exit 77 (skip) without ptxas.
ptxas="$1" arch="$2" ptx="$3"
if [ -z "$ptxas" ] || [ ! -x "$ptxas" ]; then
  echo "SKIP: ptxas not found (install the CUDA toolkit to check the PTX for $arch)"
  exit 77
fi
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
"$ptxas" -arch="$arch" "$ptx" -o "$out" || { echo "ptxas -arch=$arch failed on $ptx"; exit 1; }
[ -s "$out" ] || { echo "ptxas wrote no cubin"; exit 1; }
echo "ptxas -arch=$arch: $(wc -c < "$out") bytes of cubin"
