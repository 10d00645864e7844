#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The peer of bench-chart: matplotlib (Agg) drawing the same points at 1600x900.

    bench-chart-peer.py line    Y.f64
    bench-chart-peer.py scatter X.f64 Y.f64

Prints one line: first_ms redraw_ms zoom_ms cpu_first_ms cpu_redraw_ms cpu_zoom_ms peak_rss_kib
(zoom: the x range narrowed, then drawn; "nan" for scatter). Wall and CPU time per draw
(fig.canvas.draw(), which rasterises everything again: matplotlib keeps no raster cache).
"""
import resource
import sys
import time

import numpy as np
import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402


def timed(fig):
    w, c = time.perf_counter(), time.process_time()
    fig.canvas.draw()
    return (time.perf_counter() - w) * 1000, (time.process_time() - c) * 1000


def main():
    case = sys.argv[1]
    fig, ax = plt.subplots(figsize=(16, 9), dpi=100)
    if case == 'line':
        y = np.fromfile(sys.argv[2], dtype=np.float64)
        ax.plot(y, linewidth=1)
        ax.set_xlabel('Request')
        ax.set_ylabel('TTFT (ms)')
        ax.axhline(800, color='k', linewidth=1)
    else:
        x = np.fromfile(sys.argv[2], dtype=np.float64)
        y = np.fromfile(sys.argv[3], dtype=np.float64)
        ax.scatter(x, y, s=1, linewidths=0)
        ax.set_xlabel('Input length (tokens)')
        ax.set_ylabel('TTFT (ms)')
    first, cpu_first = timed(fig)
    redraw, cpu_redraw = timed(fig)
    zoom = cpu_zoom = float('nan')
    if case == 'line':
        n = len(y)
        ax.set_xlim(0, n - 1 - n // 50)
        zoom, cpu_zoom = timed(fig)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print('%.1f %.1f %.1f %.1f %.1f %.1f %d' % (first, redraw, zoom, cpu_first, cpu_redraw, cpu_zoom, rss))


if __name__ == '__main__':
    main()
