#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Time from exec to the first frame that shows a project, and the CPU time to it:
Procura on the demo project and on a 40-candidate project, beside an empty libadwaita
window, interleaved, medians. Needs a display (run it under xvfb-run and
dbus-run-session, as the GUI tests).

    bench-first-frame.py PROCURA EMPTY_WINDOW SCHEMA_DIR [ROUNDS [OTHER_PROCURA]]

PROCURA is the built `procura`, EMPTY_WINDOW bench/gui/bench-empty-window, SCHEMA_DIR the
build's data/ (the compiled GSettings schema). OTHER_PROCURA, another build (an earlier
commit, with the same PROCURA_BENCH_FIRST_FRAME hook), runs interleaved with the others. Each program prints, on its first frame
after paint (a frame-clock callback), the monotonic times of its first frame and of the
first frame with the project shown, and its CPU time; the difference to the monotonic
time just before exec is the figure.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run_once(argv, env):
    start_us = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
    proc = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=120)
    for line in proc.stdout.splitlines():
        if line.startswith('procura-bench '):
            f = line.split()
            values = dict(zip(f[1::2], (int(v) for v in f[2::2])))
            return ((values['first-paint-us'] - start_us) / 1000.0,
                    (values['document-paint-us'] - start_us) / 1000.0,
                    values['cpu-us'] / 1000.0)
    raise RuntimeError('%s printed no first frame (exit %d): %s'
                       % (argv[0], proc.returncode, proc.stderr[-2000:]))


def main():
    procura, empty, schema_dir = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 7
    other = sys.argv[5] if len(sys.argv) > 5 else None
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env.update({
            'PROCURA_BENCH_FIRST_FRAME': '1',
            'GSETTINGS_BACKEND': 'memory',
            'GSETTINGS_SCHEMA_DIR': schema_dir,
            'XDG_DATA_HOME': os.path.join(tmp, 'data'),
            'XDG_CONFIG_HOME': os.path.join(tmp, 'config'),
            'XDG_CACHE_HOME': os.path.join(tmp, 'cache'),
            'NO_AT_BRIDGE': '1',
        })
        env.setdefault('PROCURA_DATADIR', os.path.join(here, '..', '..', 'data'))
        demo = os.path.join(tmp, 'demo.procura')
        big = os.path.join(tmp, 'big40.procura')
        subprocess.run([procura, 'demo', demo], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([sys.executable, os.path.join(here, 'gen-project.py'), procura, big, '40'],
                       check=True, stdout=subprocess.DEVNULL)
        # PROCURA_BENCH_PAGE: the page the project opens on (the Brief by default).
        candidates_env = dict(env, PROCURA_BENCH_PAGE='candidates')
        benchmarks_env = dict(env, PROCURA_BENCH_PAGE='benchmarks')
        cases = [
            ('empty libadwaita window', [empty], env),
            ('procura, demo project', [procura, 'open', demo], env),
            ('procura, 40 candidates with runs', [procura, 'open', big], env),
            ('procura, 40, on Candidates', [procura, 'open', big], candidates_env),
            ('procura, 40, on Benchmarks', [procura, 'open', big], benchmarks_env),
        ]
        if other is not None:
            cases += [
                ('other build, demo project', [other, 'open', demo], env),
                ('other build, 40 candidates', [other, 'open', big], env),
                ('other build, 40, on Candidates', [other, 'open', big], candidates_env),
                ('other build, 40, on Benchmarks', [other, 'open', big], benchmarks_env),
            ]
        results = {name: [] for name, _, _ in cases}
        run_once(cases[0][1], env)   # warm the caches once, untimed
        run_once(cases[1][1], env)
        for _ in range(rounds):
            for name, argv, case_env in cases:   # interleaved
                results[name].append(run_once(argv, case_env))
    load = os.getloadavg()
    print('first frame, %d rounds interleaved, medians (load average %.2f %.2f %.2f, %d CPUs)'
          % (rounds, load[0], load[1], load[2], os.cpu_count()))
    print('%-34s %16s %18s %14s' % ('', 'first frame (ms)', 'project shown (ms)', 'CPU time (ms)'))
    for name, _, _ in cases:
        r = results[name]
        print('%-34s %16.0f %18.0f %14.0f' % (name,
                                             statistics.median(x[0] for x in r),
                                             statistics.median(x[1] for x in r),
                                             statistics.median(x[2] for x in r)))


if __name__ == '__main__':
    main()
