#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a vLLM `bench serve --save-detailed` result of any size, like the real ones:
summary keys, then the per-request arrays input_lens, output_lens, ttfts, itls (a list
of lists, seconds), latencies, errors and generated_texts, numbers printed the way
Python's json module prints floats.

    gen-vllm-result.py OUT.json REQUESTS [ITL_PER_REQUEST=250] [SEED=1]

10,000 requests x 250 gaps is about 55 MB; 100,000 requests about 550 MB.
"""
import random
import sys


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    per = int(sys.argv[3]) if len(sys.argv) > 3 else 250
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    ttfts, outs, ins, lats, rows = [], [], [], [], []
    for i in range(n):
        k = max(1, int(rng.gauss(per, per / 10)))
        gaps = [rng.lognormvariate(-4.3, 0.35) for _ in range(k)]
        t = rng.lognormvariate(-2.0, 0.5)
        rows.append(", ".join(repr(g) for g in gaps))
        ttfts.append(t)
        outs.append(k + 1)
        ins.append(rng.randint(200, 2000))
        lats.append(t + sum(gaps) + rng.random() * 1e-3)
    dur = max(lats) * 3

    def pct(sorted_v, q):
        h = (len(sorted_v) - 1) * q / 100.0
        lo = int(h)
        hi = min(lo + 1, len(sorted_v) - 1)
        return sorted_v[lo] + (h - lo) * (sorted_v[hi] - sorted_v[lo])

    summary = []
    itl_all = sorted(float(g) * 1000 for r in rows for g in r.split(", "))
    tpot = sorted((lat - t) / (o - 1) * 1000 for lat, t, o in zip(lats, ttfts, outs) if o > 1)
    for name, v in (("ttft", sorted(t * 1000 for t in ttfts)), ("tpot", tpot), ("itl", itl_all),
                    ("e2el", sorted(x * 1000 for x in lats))):
        mean = sum(v) / len(v)
        std = (sum((x - mean) ** 2 for x in v) / len(v)) ** 0.5
        summary.append('"mean_%s_ms": %r, "median_%s_ms": %r, "std_%s_ms": %r, "p99_%s_ms": %r'
                       % (name, mean, name, pct(v, 50), name, std, name, pct(v, 99)))
    with open(out, "w") as f:
        f.write('{"date": "20260101-000000", "endpoint_type": "vllm", "backend": "vllm", "label": null, '
                '"model_id": "meta-llama/Llama-3.1-8B-Instruct", "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct", '
                '"num_prompts": %d, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 256, ' % n)
        # summary keys first, then the per-request arrays (vLLM's order)
        f.write('"duration": %r, "completed": %d, "failed": 0, "total_input_tokens": %d, '
                '"total_output_tokens": %d, "request_throughput": %r, "output_throughput": %r, '
                '"total_token_throughput": %r, '
                % (dur, n, sum(ins), sum(outs), n / dur, sum(outs) / dur, (sum(ins) + sum(outs)) / dur))
        f.write(", ".join(summary) + ", ")
        f.write('"input_lens": [' + ", ".join(str(x) for x in ins) + "]")
        f.write(', "output_lens": [' + ", ".join(str(x) for x in outs) + "]")
        f.write(', "ttfts": [' + ", ".join(repr(t) for t in ttfts) + "]")
        f.write(', "itls": [')
        for i, r in enumerate(rows):
            f.write(("[" if i == 0 else ", [") + r + "]")
        f.write("]")
        f.write(', "latencies": [' + ", ".join(repr(t) for t in lats) + "]")
        f.write(', "errors": [' + ", ".join('""' for _ in range(n)) + "]")
        f.write(', "generated_texts": [' + ", ".join('"token %d of a reply"' % i for i in range(n)) + "]")
        f.write("}\n")


if __name__ == "__main__":
    main()
