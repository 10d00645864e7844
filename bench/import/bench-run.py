#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-run.py OUT CMD ARG… : runs CMD once (stdout to /dev/null, stderr to OUT.stderr)
# and appends "wall_s peak_kib cpu_s" to OUT: wall time to the microsecond (time's %e
# has 10 ms steps, too coarse for a 5 MB import), the child's peak RSS and user + system
# time from getrusage(). Exits with the command's status.
import resource, subprocess, sys, time

out, cmd = sys.argv[1], sys.argv[2:]
with open(out + ".stderr", "wb") as err:
    t0 = time.perf_counter()
    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=err).returncode
    wall = time.perf_counter() - t0
use = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(out, "a") as f:
    f.write(f"{wall:.4f} {use.ru_maxrss} {use.ru_utime + use.ru_stime:.4f}\n")
sys.exit(rc)
