#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The peer of `procura import`: what an analyst would run to keep a vLLM detailed result
for later, with json + numpy + the sqlite3 module. The same parse and statistics as
bench-python.py (normalise to ms; mean/std/min/max and percentiles 1..99.9 of ttft, tpot,
itl, e2e), then every per-request array (input_len, output_len, ttft, tpot, itl, e2e) written
as one float64 BLOB per metric into a fresh SQLite file, in one transaction, with the
durability a project file has (WAL, synchronous=FULL), plus the statistics as rows.

    bench-python-import.py RESULT.json OUT.sqlite
"""
import json
import sqlite3
import sys

import numpy as np

PCTS = [1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9]


def stats(name, a):
    p = np.percentile(a, PCTS)
    return [(name, "mean", float(a.mean())), (name, "std", float(a.std())),
            (name, "min", float(a.min())), (name, "max", float(a.max()))] + \
        [(name, "p%g" % q, float(v)) for q, v in zip(PCTS, p)]


def main():
    with open(sys.argv[1]) as f:
        d = json.load(f)
    ok = np.asarray([e == "" for e in d.get("errors", [""] * len(d["ttfts"]))])
    t = np.asarray(d["ttfts"], dtype=np.float64)
    ttft = t[ok] * 1000.0
    itl = np.concatenate([np.asarray(x, dtype=np.float64) for x, g in zip(d["itls"], ok) if g]) * 1000.0
    outs = np.asarray(d["output_lens"], dtype=np.float64)
    ins = np.asarray(d["input_lens"], dtype=np.float64)
    lat = np.asarray(d["latencies"], dtype=np.float64)
    m = ok & (outs > 1)
    tpot = (lat[m] - t[m]) / (outs[m] - 1) * 1000.0
    e2e = lat[ok] * 1000.0
    del d
    arrays = {"input_len": ins, "output_len": outs, "ttft": ttft, "tpot": tpot, "itl": itl, "e2e": e2e}
    rows = []
    for name in ("ttft", "tpot", "itl", "e2e"):
        rows += stats(name, arrays[name])

    db = sqlite3.connect(sys.argv[2], isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("CREATE TABLE IF NOT EXISTS stats (metric TEXT, stat TEXT, value REAL)")
    db.execute("CREATE TABLE IF NOT EXISTS samples (metric TEXT, n INTEGER, data BLOB)")
    db.execute("BEGIN")
    db.executemany("INSERT INTO stats VALUES (?, ?, ?)", rows)
    for name, a in arrays.items():
        db.execute("INSERT INTO samples VALUES (?, ?, ?)",
                   (name, int(a.size), np.ascontiguousarray(a, dtype="<f8").tobytes()))
    db.execute("COMMIT")
    db.close()


if __name__ == "__main__":
    main()
