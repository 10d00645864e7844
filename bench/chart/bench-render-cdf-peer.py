#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The peer of `procura render PROJECT cdf`: what an analyst would write with Python's
json, numpy and matplotlib (Agg) to draw the empirical CDF of a vLLM result's
inter-token latencies with its 95% DKW confidence band, on a log axis, to a PNG.

    bench-render-cdf-peer.py RESULT.json OUT.png
"""
import json
import math
import sys

import numpy as np
import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402


def main():
    with open(sys.argv[1]) as f:
        result = json.load(f)
    itl = np.fromiter((g * 1000.0 for gaps in result['itls'] for g in gaps), dtype=np.float64)
    itl = np.sort(itl[np.isfinite(itl) & (itl > 0)])
    n = len(itl)
    y = np.arange(1, n + 1, dtype=np.float64) / n
    eps = math.sqrt(math.log(2 / 0.05) / (2.0 * n))
    fig, ax = plt.subplots(figsize=(16, 9), dpi=100)
    ax.fill_between(itl, np.maximum(y - eps, 0), np.minimum(y + eps, 1), step='post', alpha=0.2)
    ax.step(itl, y, where='post', linewidth=1, label='ITL')
    ax.set_xscale('log')
    ax.set_ylim(0, 1)
    ax.set_xlabel('ITL (ms)')
    ax.set_ylabel('Share of requests at or below')
    ax.set_title('Latency distribution')
    ax.legend(loc='lower right')
    fig.savefig(sys.argv[2])


if __name__ == '__main__':
    main()
