#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-device-check.sh [OUTDIR]: checks procura-probe on a real NVIDIA GPU.
#
# Builds the probe with gcc alone (no meson, no GLib, no CUDA toolkit), then runs:
#   1. inventory;
#   2. the fit of Llama-3.1-8B bf16 at 8k context x 64 sequences with the bandwidth tests;
#   3. SIGTERM in the middle of a fit (must exit 6 and give the memory back);
# and checks the results against the driver's own figures: cuMemGetInfo after the
# allocations (the headroom must equal free memory before minus what the plan took),
# NVML's free memory before and after, and the streaming-read bandwidth against a plain
# device-to-device copy and the memory bus's peak. Prints a table. Under 5 minutes.
# Writes the probe's JSON Lines to OUTDIR (default: $OUT, else a temporary folder).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-${OUT:-$(mktemp -d)}}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

say () { printf '== %s\n' "$*" >&2; }
die () { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

command -v gcc >/dev/null || command -v cc >/dev/null || die "no C compiler (gcc or cc) on this machine"
CC=${CC:-$(command -v gcc || command -v cc)}
command -v python3 >/dev/null || die "python3 is needed to check the results"

say "building procura-probe with $CC"
{
  echo '/* SPDX-License-Identifier: GPL-3.0-or-later */'
  echo '#pragma once'
  echo 'static const char procura_kernels_ptx[] = {'
  od -An -v -tx1 "$root/src/probe/procura-kernels.ptx" | awk '{ for (i = 1; i <= NF; i++) printf "0x%s,", $i; print "" }'
  echo '0x00 };'
} > "$work/procura-kernels-ptx.h"
"$CC" -std=gnu11 -O2 -Wall -D_GNU_SOURCE -I"$work" -I"$root/src/probe" \
  "$root/src/probe/procura-probe.c" "$root/src/probe/probe-json.c" "$root/src/probe/probe-driver.c" \
  -o "$work/procura-probe" -ldl -lm
if ldd "$work/procura-probe" | grep -Eq 'libcuda|libnvidia-ml|libglib'; then
  die "the probe links CUDA or GLib at build time"
fi
probe="$work/procura-probe"

# Llama-3.1-8B: 32 layers, hidden 4096, intermediate 14336, 32 heads, 8 KV heads,
# head_dim 128, vocab 128256, untied embeddings; bf16 (2 bytes).
#   embeddings = LM head = 128256 x 4096 x 2   =   1,050,673,152 bytes each
#   one layer  = (4096*4096*2 + 4096*1024*2 + 3*4096*14336 + 2*4096) x 2 = 436,224,000 bytes
#   weights    = 2 x 1,050,673,152 + 32 x 436,224,000 + 8,192 = 16,060,522,496 bytes
#   KV / token = 2 x 32 layers x 8 heads x 128 x 2 bytes = 131,072 bytes
#   KV pool    = 131,072 x 8192 tokens x 64 sequences = 64 GiB, one 2 GiB pool per layer
#   KV block   = 16 tokens x 131,072 = 2 MiB; activation workspace: 2 GiB (vLLM's profile
#   run for 8192 batched tokens is 1-2 GiB)
cat > "$out/plan-llama-3.1-8b-bf16-8k-x64.json" <<'PLAN'
{"name":"Llama-3.1-8B bf16, 8k context x 64 sequences","block_size":16,"sequences":64,
 "context_tokens":8192,"kv_block_bytes":2097152,
 "gpus":[{"kv_read_bytes_per_step":68719476736,"allocations":[
  {"name":"embed_tokens","kind":"weights","bytes":1050673152},
  {"name":"layer","kind":"weights","bytes":436224000,"count":32},
  {"name":"norm","kind":"weights","bytes":8192},
  {"name":"lm_head","kind":"weights","bytes":1050673152},
  {"name":"activation","kind":"activation","bytes":2147483648},
  {"name":"kv.layer","kind":"kv","bytes":2147483648,"count":32}]}]}
PLAN

run_probe () {   # NAME ARGS...: runs the probe with a 120 s guard, keeps its lines
  local name=$1; shift
  local rc=0
  timeout -s KILL 150 "$probe" --time-limit 120 "$@" > "$out/$name.jsonl" 2> "$out/$name.stderr" || rc=$?
  echo "$rc" > "$out/$name.rc"
  say "$name: exit $rc, $(wc -l < "$out/$name.jsonl") lines"
}

say "1/4 inventory"
run_probe inventory --inventory
[ "$(cat "$out/inventory.rc")" = 0 ] || { cat "$out/inventory.jsonl" "$out/inventory.stderr" >&2; die "inventory failed"; }

say "2/4 fit of Llama-3.1-8B bf16 8k x 64 on GPU 0, with bandwidth"
run_probe fit --device 0 --plan "$out/plan-llama-3.1-8b-bf16-8k-x64.json" --bandwidth
case "$(cat "$out/fit.rc")" in 0|1) ;; *) cat "$out/fit.jsonl" "$out/fit.stderr" >&2; die "fit run failed";; esac

say "3/4 SIGTERM in the middle of a fit"
rc=0
"$probe" --device 0 --plan "$out/plan-llama-3.1-8b-bf16-8k-x64.json" > "$out/sigterm.jsonl" 2> "$out/sigterm.stderr" &
pid=$!
for _ in $(seq 1 200); do
  grep -q '"alloc-kv"' "$out/sigterm.jsonl" 2>/dev/null && break
  sleep 0.05
done
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" || rc=$?
echo "$rc" > "$out/sigterm.rc"
say "sigterm: exit $rc"

say "4/4 inventory again (memory given back?)"
run_probe inventory-after --inventory

python3 - "$out" "$(( $(date +%s) - start ))" <<'PY'
import json, sys, os
out, elapsed = sys.argv[1], int(sys.argv[2])
def lines(name):
    with open(os.path.join(out, name + ".jsonl")) as f:
        return [json.loads(l) for l in f if l.strip()]
def rc(name):
    return int(open(os.path.join(out, name + ".rc")).read())
inv, fit, sig, after = lines("inventory"), lines("fit"), lines("sigterm"), lines("inventory-after")
ok = True
rows = []
def check(name, passed, detail):
    global ok
    ok = ok and passed
    rows.append(("PASS" if passed else "FAIL", name, detail))
GiB = 2**30
hello = inv[0]
devs = [e for e in inv if e["event"] == "device"]
res = {e["test"] + ("" if e.get("scope") != "replica" else "-replica"): e for e in fit if e["event"] == "result" and e.get("device", 0) in (0, None)}
print()
print("procura-probe device check  driver %s  CUDA %s  (%d s)" % (hello.get("driver_version"), hello.get("cuda_version"), elapsed))
print()
print("| GPU | name | cc | SMs | total GiB | free GiB | SM MHz (max) | mem MHz | bus bits | PCIe | NVLink | ECC | MIG |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for d in devs:
    p = d.get("pcie") or {}
    print("| %s | %s | %s | %s | %.2f | %s | %s (%s) | %s | %s | gen%s x%s | %s/%s | %s | %s |" % (
        d["index"], d["name"], d.get("cc"), d.get("sms"), d["total_bytes"] / GiB,
        "%.2f" % (d["free_bytes"] / GiB) if d.get("free_bytes") is not None else "?",
        d.get("sm_clock_mhz"), d.get("sm_clock_max_mhz"), d.get("memory_clock_max_mhz") or d.get("memory_clock_mhz"),
        d.get("memory_bus_bits"), p.get("gen"), p.get("width"), d.get("nvlink_active"), d.get("nvlink_links"),
        d.get("ecc"), d.get("mig_mode")))
check("inventory", rc("inventory") == 0 and len(devs) > 0 and all(d.get("cc") and d.get("sms") for d in devs),
      "%d GPU(s), exit %d" % (len(devs), rc("inventory")))

f = res.get("fit")
check("fit ran", f is not None and rc("fit") in (0, 1), "exit %d" % rc("fit"))
if f:
    print()
    print("| fit (Llama-3.1-8B bf16, 8k x 64) | value |")
    print("|---|---|")
    for k in ("fits", "total_bytes", "free_before_bytes", "required_bytes", "allocated_bytes",
              "free_after_bytes", "headroom_bytes", "largest_free_block_bytes", "fragmentation",
              "extra_kv_blocks", "extra_kv_tokens", "failed_at", "missing_bytes"):
        v = f.get(k)
        if isinstance(v, int) and k.endswith("bytes"):
            v = "%d (%.3f GiB)" % (v, v / GiB)
        print("| %s | %s |" % (k, v))
    taken = f["free_before_bytes"] - f["free_after_bytes"]
    # cuMemGetInfo after the allocations must account for what the plan took; the
    # driver rounds each allocation up (2 MiB pages), so allow 2 MiB per allocation.
    slack = 2 * 2**20 * (f["allocations"] + 1)
    check("headroom = free before - allocated (cuMemGetInfo)",
          f["allocated_bytes"] <= taken <= f["allocated_bytes"] + slack,
          "took %.3f GiB for %.3f GiB allocated" % (taken / GiB, f["allocated_bytes"] / GiB))
    d0 = devs[0]
    if d0.get("free_bytes") is not None:
        ctx = d0["free_bytes"] - f["free_before_bytes"]
        check("context overhead (NVML free - cuMemGetInfo free)", 0 <= ctx < 2 * GiB, "%.3f GiB" % (ctx / GiB))
    if f["fits"]:
        extra = f["extra_kv_blocks"] * f["kv_block_bytes"]
        check("extra KV blocks fill the headroom", 0.9 * f["headroom_bytes"] <= extra <= f["headroom_bytes"],
              "%d blocks = %.3f of %.3f GiB" % (f["extra_kv_blocks"], extra / GiB, f["headroom_bytes"] / GiB))
    check("largest free block <= headroom", f["largest_free_block_bytes"] <= f["headroom_bytes"],
          "%.3f GiB of %.3f GiB" % (f["largest_free_block_bytes"] / GiB, f["headroom_bytes"] / GiB))

print()
print("| test | GB/s | bytes | counting |")
print("|---|---|---|---|")
for t in ("bandwidth", "d2d", "h2d", "d2h"):
    e = res.get(t)
    if e:
        print("| %s | %.1f | %d | %s |" % (t, e["gbps"], e["bytes"], e["counting"]))
for e in fit:
    if e["event"] == "result" and e["test"] == "p2p":
        print("| p2p %d->%d | %.1f | %d | %s |" % (e["device"], e["peer"], e["gbps"], e["bytes"], e["counting"]))
bw, d2d = res.get("bandwidth"), res.get("d2d")
check("bandwidth measured", bw is not None and d2d is not None and bw["gbps"] > 0, "")
if bw and d2d:
    ratio = bw["gbps"] / d2d["gbps"]
    check("read kernel vs plain D2D copy (read+write)", 0.7 <= ratio <= 1.6, "ratio %.2f" % ratio)
    d0 = devs[0]
    mhz = d0.get("memory_clock_max_mhz") or d0.get("memory_clock_mhz")
    if mhz and d0.get("memory_bus_bits"):
        peak = mhz * 1e6 * 2 * d0["memory_bus_bits"] / 8 / 1e9
        check("read bandwidth below the bus peak", bw["gbps"] <= peak * 1.05,
              "%.0f of %.0f GB/s peak (%.0f %%)" % (bw["gbps"], peak, 100 * bw["gbps"] / peak))
for t in ("h2d", "d2h"):
    if res.get(t):
        check(t + " plausible", 1 < res[t]["gbps"] < 200, "%.1f GB/s" % res[t]["gbps"])
df, dr = res.get("decode-floor"), res.get("decode-floor-replica")
if df and dr:
    print()
    print("decode floor: %.3f ms per step (%.1f tokens/s per sequence, %.0f tokens/s for 64 sequences)" % (
        dr["step_seconds"] * 1e3, dr["tokens_per_second_per_sequence"], dr.get("tokens_per_second", 0)))
    expect = (df["weights_bytes"] + df["kv_read_bytes"]) / (df["gbps"] * 1e9)
    check("decode floor = (weights + KV) / bandwidth", abs(expect - df["step_seconds"]) < 1e-3 * expect, "")

sig_kinds = [e.get("kind") for e in sig if e["event"] == "error"]
check("SIGTERM: exit 6, interrupted, done line", rc("sigterm") == 6 and "interrupted" in sig_kinds and sig[-1]["event"] == "done",
      "exit %d, errors %s" % (rc("sigterm"), sig_kinds))
da = [e for e in after if e["event"] == "device"]
if devs and da and devs[0].get("free_bytes") is not None and da[0].get("free_bytes") is not None:
    diff = abs(devs[0]["free_bytes"] - da[0]["free_bytes"])
    check("memory given back after the runs (NVML free)", diff < 0.5 * GiB, "%.3f GiB difference" % (diff / GiB))
check("under 5 minutes", elapsed < 300, "%d s" % elapsed)
print()
print("| check | result | detail |")
print("|---|---|---|")
for r in rows:
    print("| %s | %s | %s |" % (r[1], r[0], r[2]))
print()
print("ALL PASS" if ok else "SOME CHECKS FAILED")
sys.exit(0 if ok else 1)
PY
