#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a vLLM `bench serve --save-detailed` result of any size, like the real ones:
the summary keys first (mean/median/std/p99 of ttft, tpot, itl, e2el as vLLM computes
them), then the per-request arrays input_lens, output_lens, ttfts, itls (a list of
lists, seconds), latencies, errors and generated_texts, floats printed the way Python's
json module prints them.

    gen-vllm-result.py OUT.json REQUESTS [ITL_PER_REQUEST=250] [SEED=1]

10,000 requests x 250 gaps is about 55 MB; 100,000 requests about 550 MB.
"""
import array
import random
import sys

try:
    import numpy as np
except ImportError:  # the summary is then computed in plain Python (slower)
    np = None


def summary(name, values):
    if np is not None:
        a = np.asarray(values, dtype=np.float64)
        mean, median, std, p99 = a.mean(), np.median(a), a.std(), np.percentile(a, 99)
    else:
        v = sorted(values)
        n = len(v)
        mean = sum(v) / n
        std = (sum((x - mean) ** 2 for x in v) / n) ** 0.5

        def pct(q):
            h = (n - 1) * q / 100.0
            lo = int(h)
            hi = min(lo + 1, n - 1)
            return v[lo] + (h - lo) * (v[hi] - v[lo])
        median, p99 = pct(50), pct(99)
    return ('"mean_%s_ms": %r, "median_%s_ms": %r, "std_%s_ms": %r, "p99_%s_ms": %r'
            % (name, float(mean), name, float(median), name, float(std), name, float(p99)))


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    per = int(sys.argv[3]) if len(sys.argv) > 3 else 250
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    gaps = array.array("d")
    lens, ttfts, outs, ins, lats = [], [], [], [], []
    for _ in range(n):
        k = max(1, int(rng.gauss(per, per / 10)))
        start = len(gaps)
        gaps.extend(rng.lognormvariate(-4.3, 0.35) for _ in range(k))
        t = rng.lognormvariate(-2.0, 0.5)
        lens.append(k)
        ttfts.append(t)
        outs.append(k + 1)
        ins.append(rng.randint(200, 2000))
        lats.append(t + sum(gaps[start:]) + rng.random() * 1e-3)
    dur = max(lats) * 3
    ms = 1000.0
    parts = [summary("ttft", [t * ms for t in ttfts]),
             summary("tpot", [(lat - t) / (o - 1) * ms for lat, t, o in zip(lats, ttfts, outs) if o > 1]),
             summary("itl", (np.frombuffer(gaps, dtype=np.float64) * ms) if np is not None else [g * ms for g in gaps]),
             summary("e2el", [x * ms for x in lats])]
    with open(out, "w") as f:
        f.write('{"date": "20260101-000000", "endpoint_type": "vllm", "backend": "vllm", "label": null, '
                '"model_id": "meta-llama/Llama-3.1-8B-Instruct", "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct", '
                '"num_prompts": %d, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 256, ' % n)
        f.write('"duration": %r, "completed": %d, "failed": 0, "total_input_tokens": %d, '
                '"total_output_tokens": %d, "request_throughput": %r, "output_throughput": %r, '
                '"total_token_throughput": %r, '
                % (dur, n, sum(ins), sum(outs), n / dur, sum(outs) / dur, (sum(ins) + sum(outs)) / dur))
        f.write(", ".join(parts) + ", ")
        f.write('"input_lens": [' + ", ".join(str(x) for x in ins) + "]")
        f.write(', "output_lens": [' + ", ".join(str(x) for x in outs) + "]")
        f.write(', "ttfts": [' + ", ".join(repr(t) for t in ttfts) + "]")
        f.write(', "itls": [')
        off = 0
        for i, k in enumerate(lens):
            f.write(("[" if i == 0 else ", [") + ", ".join(repr(g) for g in gaps[off:off + k]) + "]")
            off += k
        f.write("]")
        f.write(', "latencies": [' + ", ".join(repr(t) for t in lats) + "]")
        f.write(', "errors": [' + ", ".join('""' for _ in range(n)) + "]")
        f.write(', "generated_texts": [' + ", ".join('"token %d of a reply"' % i for i in range(n)) + "]")
        f.write("}\n")


if __name__ == "__main__":
    main()
