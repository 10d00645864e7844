#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# data/schemas/decision.schema.json accepts what `procura export` writes (the demo, with
# and without samples, and after `procura set`) and rejects what `procura apply` refuses
# (TAP; skips without the jsonschema module).
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    print("1..0 # SKIP python3-jsonschema is not installed")
    sys.exit(0)

schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
binary = os.environ["PROCURA_BINARY"]


def procura(*args):
    return subprocess.run([binary] + list(args), check=True, capture_output=True, text=True).stdout


tmp = tempfile.mkdtemp()
demo = os.path.join(tmp, "demo.procura")
procura("demo", demo)
plain = json.loads(procura("export", demo))
samples = json.loads(procura("export", demo, "--with-samples"))
procura("set", demo, "brief.slo_threshold_ms=null", "assumptions.currency=EUR", "decision.date=2026-03-01")
edited = json.loads(procura("export", demo))


def variant(doc, path, value):
    doc = json.loads(json.dumps(doc))
    node = doc
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


cases = [
    ("demo export", plain, True),
    ("demo export with samples", samples, True),
    ("export after set", edited, True),
    ("no version", variant(plain, ["procura_decision"], KeyError), False),
    ("version 2", variant(plain, ["procura_decision"], 2), False),
    ("tp -1", variant(plain, ["candidates", 0, "tp"], -1), False),
    ("tp 2.5", variant(plain, ["candidates", 0, "tp"], 2.5), False),
    ("negative price", variant(plain, ["candidates", 0, "price_per_gpu_hour"], -1), False),
    ("unknown kind", variant(plain, ["candidates", 0, "kind"], "tpu"), False),
    ("unknown slo metric", variant(plain, ["brief", "slo_metric"], "p99"), False),
    ("percentile above 100", variant(plain, ["brief", "slo_percentile"], 101), False),
    ("acceptance rate 0", variant(plain, ["assumptions", "acceptance_rate"], 0), False),
    ("currency in words", variant(plain, ["assumptions", "currency"], "euro"), False),
    ("support above 100", variant(plain, ["quotes", 0, "support_pct"], 120), False),
    ("bad checklist answer", variant(plain, ["checklist", 0, "answer"], "maybe"), False),
    ("bad ops result", variant(plain, ["ops_tests", 0, "result"], "ok"), False),
    ("unknown member", variant(plain, ["candidates", 0, "colour"], "red"), False),
    ("unknown top-level member", variant(plain, ["extra"], 1), False),
    ("candidate without name", variant(plain, ["candidates", 0, "name"], KeyError), False),
    ("stat with bad source", variant(samples, ["runs", 0, "stats", 0, "source"], "guessed"), False),
]
print("1..%d" % len(cases))
failed = 0
for i, (name, doc, valid) in enumerate(cases, 1):
    errors = list(validator.iter_errors(doc))
    ok = (not errors) == valid
    failed += not ok
    print("%s %d %s%s" % ("ok" if ok else "not ok", i, name,
                          "" if ok or not errors else " # " + errors[0].message[:200]))
sys.exit(1 if failed else 0)
