#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Makes a project with N candidates, each with its runs, from the demo project, through
the CLI only: `procura demo`, `procura export`, then `procura apply` of the exported
decision document with the candidates (and their runs) copied until there are N.

    gen-project.py PROCURA OUT.procura [N]
"""
import copy
import json
import os
import subprocess
import sys
import tempfile


def main():
    procura, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    with tempfile.TemporaryDirectory() as tmp:
        demo = os.path.join(tmp, 'demo.procura')
        doc_path = os.path.join(tmp, 'demo.json')
        subprocess.run([procura, 'demo', demo], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([procura, 'export', demo, '--output', doc_path], check=True,
                       stdout=subprocess.DEVNULL)
        with open(doc_path) as f:
            doc = json.load(f)
        base = doc['candidates']
        runs = doc['runs']
        candidates, new_runs = [], []
        next_candidate = max(c['id'] for c in base) + 1
        next_run = max(r['id'] for r in runs) + 1
        for i in range(n):
            src = base[i % len(base)]
            c = copy.deepcopy(src)
            if i >= len(base):
                c['id'] = next_candidate
                next_candidate += 1
                c['name'] = '%s · copy %d' % (src['name'], i // len(base))
            candidates.append(c)
            for r in runs:
                if r['candidate_id'] != src['name']:
                    continue
                r = copy.deepcopy(r)
                if i >= len(base):
                    r['id'] = next_run
                    next_run += 1
                    r['candidate_id'] = c['name']
                new_runs.append(r)
        doc['candidates'] = candidates
        doc['runs'] = new_runs
        big = os.path.join(tmp, 'big.json')
        with open(big, 'w') as f:
            json.dump(doc, f)
        if os.path.exists(out):
            os.unlink(out)
        subprocess.run([procura, 'apply', out, big], check=True, stdout=subprocess.DEVNULL)
    print('%s: %d candidates, %d runs' % (out, len(candidates), len(new_runs)))


if __name__ == '__main__':
    main()
