#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# data/schemas/cost-inputs.schema.json accepts COST-MODEL.md §8's example and rejects
# what `procura cost` rejects (TAP; skips without the jsonschema module).
import json
import sys

try:
    import jsonschema
except ImportError:
    print("1..0 # SKIP python3-jsonschema is not installed")
    sys.exit(0)

schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft202012Validator(schema)
example = {
    "window_hours": 730, "demand": {"average": 20, "peak": 30},
    "retry_rate": 0.05, "failure_rate": 0.01, "acceptance_rate": 0.9, "headroom": 1.0,
    "candidates": [
        {"name": "8xH100", "kind": "gpu", "price_per_gpu_hour": 2.5, "gpus_per_replica": 8,
         "capacity_at_slo": 40, "provisioning": "always-on", "storage": 300, "network": 200,
         "serving_stack": 0, "observability": 100, "labor_hours": 20, "labor_rate": 100},
        {"name": "hosted API", "kind": "api", "input_tokens": 1000, "cached_input_tokens": 0,
         "output_tokens": 250, "price_input_per_mtok": 0.5, "price_cached_per_mtok": 0,
         "price_output_per_mtok": 1.5, "gateway": 0}]}


def variant(path, value):
    doc = json.loads(json.dumps(example))
    node = doc
    for key in path[:-1]:
        node = node[key]
    if value is None:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


cases = [
    ("section 8 example", example, True),
    ("run workload without demand",
     {"candidates": [{"name": "r", "kind": "run", "gpus": 8, "price_per_gpu_hour": 2,
                      "wall_clock_hours": 10}]}, True),
    ("zero capacity", variant(["candidates", 0, "capacity_at_slo"], 0), False),
    ("negative price", variant(["candidates", 0, "price_per_gpu_hour"], -1), False),
    ("rate above 1", variant(["retry_rate"], 1.5), False),
    ("missing capacity", variant(["candidates", 0, "capacity_at_slo"], None), False),
    ("missing demand", variant(["demand"], None), False),
    ("unknown kind", variant(["candidates", 1, "kind"], "tpu"), False),
    ("scheduled without billed hours", variant(["candidates", 0, "provisioning"], "scheduled"), False),
]
print("1..%d" % len(cases))
failed = 0
for i, (name, doc, valid) in enumerate(cases, 1):
    errors = list(validator.iter_errors(doc))
    ok = (not errors) == valid
    failed += not ok
    print("%s %d %s" % ("ok" if ok else "not ok", i, name))
sys.exit(1 if failed else 0)
