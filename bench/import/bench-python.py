#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What an analyst would run instead of `procura inspect`: json + numpy on a vLLM
detailed result, the same work (parse, normalise to ms, recompute mean/std/min/max and
the percentiles 1..99.9 of ttft, tpot, itl, e2e with numpy's default linear method).

    bench-python.py RESULT.json
"""
import json
import sys

import numpy as np

PCTS = [1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9]


def stats(name, values):
    a = np.asarray(values, dtype=np.float64)
    p = np.percentile(a, PCTS)
    return {"metric": name, "samples": int(a.size), "mean": float(a.mean()), "std": float(a.std()),
            "min": float(a.min()), "max": float(a.max()), **{"p%g" % q: float(v) for q, v in zip(PCTS, p)}}


def main():
    with open(sys.argv[1]) as f:
        d = json.load(f)
    ok = [e == "" for e in d.get("errors", [""] * len(d["ttfts"]))]
    ttft = np.asarray(d["ttfts"])[ok] * 1000.0
    itl = np.concatenate([np.asarray(x) for x, g in zip(d["itls"], ok) if g]) * 1000.0
    outs = np.asarray(d["output_lens"])
    lat = np.asarray(d["latencies"])
    t = np.asarray(d["ttfts"])
    m = np.asarray(ok) & (outs > 1)
    tpot = (lat[m] - t[m]) / (outs[m] - 1) * 1000.0
    e2e = lat[ok] * 1000.0
    out = [stats("ttft", ttft), stats("tpot", tpot), stats("itl", itl), stats("e2e", e2e)]
    print(json.dumps(out)[:200])


if __name__ == "__main__":
    main()
