#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks data/cluster/procura-probe-job.yaml against batch-v1-job.schema.json (the fields
of a Kubernetes batch/v1 Job and their types) and what the probe client relies on: one
container named "probe", restartPolicy Never, one nvidia.com/gpu, the configmaps
procura-probe-bin and procura-probe-plan. First it checks that the checker itself
refuses broken copies of the manifest (an unknown field, a wrong type, a bad enum).
TAP output; skipped when python3-yaml is absent."""
import copy
import json
import re
import sys

try:
    import yaml
except ImportError:
    print("1..0 # SKIP python3-yaml is not installed (apt-get install python3-yaml)")
    sys.exit(0)

QUANTITY = re.compile(r"^[0-9]+(\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$")


def check(value, typ, schema, path, errors):
    types = schema["types"]
    if typ.startswith("[") and typ.endswith("]"):
        if not isinstance(value, list):
            errors.append(f"{path}: expected a list")
            return
        for i, v in enumerate(value):
            check(v, typ[1:-1], schema, f"{path}[{i}]", errors)
    elif typ.startswith("{") and typ.endswith("}"):
        if not isinstance(value, dict):
            errors.append(f"{path}: expected a map")
            return
        for k, v in value.items():
            if not isinstance(k, str):
                errors.append(f"{path}: key {k!r} is not a string")
            check(v, typ[1:-1], schema, f"{path}.{k}", errors)
    elif typ == "string":
        if not isinstance(value, str):
            errors.append(f"{path}: expected a string, got {type(value).__name__}")
    elif typ == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            errors.append(f"{path}: expected an integer, got {type(value).__name__}")
    elif typ == "boolean":
        if not isinstance(value, bool):
            errors.append(f"{path}: expected true or false")
    elif typ == "quantity":
        if isinstance(value, bool) or not (isinstance(value, int) or (isinstance(value, str) and QUANTITY.match(value))):
            errors.append(f"{path}: {value!r} is not a Kubernetes quantity")
    elif typ == "object":
        if not isinstance(value, dict):
            errors.append(f"{path}: expected an object")
    elif typ in types:
        spec = types[typ]
        if not isinstance(value, dict):
            errors.append(f"{path}: expected a {typ} object")
            return
        for k in spec.get("required", []):
            if k not in value:
                errors.append(f"{path}: {typ} needs {k}")
        for k, v in value.items():
            if k not in spec["fields"]:
                errors.append(f"{path}.{k}: no such field in {typ}")
                continue
            check(v, spec["fields"][k], schema, f"{path}.{k}", errors)
            allowed = spec.get("enum", {}).get(k)
            if allowed is not None and v not in allowed:
                errors.append(f"{path}.{k}: {v!r} is not one of {', '.join(allowed)}")
    else:
        errors.append(f"{path}: the schema has no type {typ}")


def validate(doc, schema):
    errors = []
    check(doc, schema["root"], schema, "$", errors)
    return errors


def probe_rules(doc):
    """What procura probe --kubectl relies on."""
    errors = []
    try:
        spec = doc["spec"]["template"]["spec"]
        names = [c["name"] for c in spec["containers"]]
        if names != ["probe"]:
            errors.append(f"containers: expected exactly one named probe, got {names}")
        if doc["metadata"]["name"] != "procura-probe":
            errors.append("metadata.name: expected procura-probe")
        if spec.get("restartPolicy") != "Never":
            errors.append("restartPolicy: expected Never (a failed probe must not run again)")
        if doc["spec"].get("backoffLimit") != 0:
            errors.append("backoffLimit: expected 0")
        if spec["containers"][0]["resources"]["limits"].get("nvidia.com/gpu") != 1:
            errors.append("limits: expected nvidia.com/gpu: 1")
        maps = {v["configMap"]["name"] for v in spec["volumes"] if "configMap" in v}
        if maps != {"procura-probe-bin", "procura-probe-plan"}:
            errors.append(f"volumes: expected the configmaps procura-probe-bin and procura-probe-plan, got {sorted(maps)}")
    except (KeyError, TypeError, IndexError) as e:
        errors.append(f"missing {e}")
    return errors


def main():
    manifest_path, schema_path = sys.argv[1], sys.argv[2]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    with open(manifest_path, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]

    broken = []
    if len(docs) == 1:
        d = copy.deepcopy(docs[0]); d["spec"]["backofLimit"] = 0
        broken.append(("an unknown field", d))
        d = copy.deepcopy(docs[0]); d["spec"]["template"]["spec"]["restartPolicy"] = "Always"
        broken.append(("restartPolicy Always", d))
        d = copy.deepcopy(docs[0]); d["spec"]["activeDeadlineSeconds"] = "900"
        broken.append(("a string for an integer", d))
        d = copy.deepcopy(docs[0]); d["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["memory"] = "4 GB"
        broken.append(("a bad quantity", d))
        d = copy.deepcopy(docs[0]); del d["spec"]["template"]["spec"]["containers"][0]["image"]
        broken.append(("a container without image", d))
        d = copy.deepcopy(docs[0]); d["apiVersion"] = "batch/v1beta1"
        broken.append(("another apiVersion", d))

    print(f"1..{3 + len(broken)}")
    n = 1
    if len(docs) == 1:
        print(f"ok {n} - {manifest_path} holds one document")
    else:
        print(f"not ok {n} - {manifest_path} holds {len(docs)} documents, expected one Job")
        return 1
    rc = 0
    for what, d in broken:
        n += 1
        if validate(d, schema):
            print(f"ok {n} - the checker refuses {what}")
        else:
            print(f"not ok {n} - the checker accepts {what}")
            rc = 1
    n += 1
    errors = validate(docs[0], schema)
    if errors:
        print(f"not ok {n} - the Job is a valid batch/v1 Job")
        for e in errors:
            print(f"# {e}")
        rc = 1
    else:
        print(f"ok {n} - the Job is a valid batch/v1 Job")
    n += 1
    errors = probe_rules(docs[0])
    if errors:
        print(f"not ok {n} - the Job is what procura probe --kubectl expects")
        for e in errors:
            print(f"# {e}")
        rc = 1
    else:
        print(f"ok {n} - the Job is what procura probe --kubectl expects")
    return rc


if __name__ == "__main__":
    sys.exit(main())
