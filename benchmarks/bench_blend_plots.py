"""Benchmark: what one change costs the pose blending tab's plots (run on demand).

    xvfb-run -a python benchmarks/bench_blend_plots.py [--repeat 60] [--size 1280x720]

Needs a display (Xvfb). Per change, the time the plots' view spends in its
``paintEvent`` (as in benchmarks/bench_window.py) and the wall time from the
change to every widget repainted (Qt's event processing), median over
about ``--repeat`` changes of each kind, in blocks of ten, the kinds in turn
so load from other processes hits all alike (blocks of ten, the kinds in turn):

* **sweep**: the sweep slider moved (``model.set_param``): the curves stay,
  the cursor moves;
* **drag**: one weight set by hand and dragged on (``model.set_weight``):
  the curves of that weight's sweep stay, the cursor moves;
* **new curves**: the weight of another pose set each time, so every curve
  changes: the least a change that redraws the curves can cost;
* **baseline**: the plots' cursor alone moved (``plots.set_cursor``) over the
  same curves: what any change must cost.

Ratios are against the baseline of the same run. Before the curves were
updated in place every change cost about what "new curves" costs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from gui_window import open_window  # benchmarks/ runs as scripts: a sibling module


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=60)
    ap.add_argument("--size", default="1280x720")
    args = ap.parse_args()
    import numpy as np
    import pyqtgraph as pg
    from PyQt6 import QtCore

    opened = open_window(args.size)
    if opened is None:
        return 2
    app, win = opened
    win.show_view("blend")
    view, m = win.views["blend"], win.views["blend"].model
    m.set_preset("reference_switch")
    loop = QtCore.QEventLoop()
    QtCore.QTimer.singleShot(500, loop.quit)  # first paints, not timed
    loop.exec()

    cls = pg.GraphicsLayoutWidget
    plain, spent = cls.paintEvent, []
    watched = view.plots.findChild(cls)

    def timed(widget, ev):
        t0 = time.perf_counter()
        try:
            return plain(widget, ev)
        finally:
            if widget is watched:
                spent.append(time.perf_counter() - t0)

    cls.paintEvent = timed
    lo, hi = m.param_range
    xs = np.linspace(0.05, 0.95, args.repeat)

    def sweep(k):
        m.set_param(lo + xs[k] * (hi - lo))

    def drag(k):
        m.set_weight(1, float(xs[k]))

    def new_curves(k):
        m.set_weight(k % 2 + 1, float(xs[k]))  # another pose each time: other curves

    def baseline(k):
        view.plots.set_cursor(float(xs[k]))

    kinds = {"sweep": sweep, "drag": drag, "new curves": new_curves, "baseline": baseline}
    paint = {k: [] for k in kinds}
    wall = {k: [] for k in kinds}
    block = 10
    try:
        # Blocks of each kind in turn (the kinds are modes of one model: a
        # sweep change after a hand edit brings other curves); the change
        # into a block's mode is not timed.
        for start in range(0, args.repeat, block):
            for name, change in kinds.items():
                change(start)
                app.processEvents()
                app.processEvents()
                for k in range(start + 1, min(start + block + 1, args.repeat)):
                    spent.clear()
                    t0 = time.perf_counter()
                    change(k)
                    app.processEvents()
                    app.processEvents()
                    wall[name].append(time.perf_counter() - t0)
                    paint[name].append(sum(spent))
    finally:
        cls.paintEvent = plain

    base_p, base_w = (statistics.median(paint["baseline"]),
                      statistics.median(wall["baseline"]))
    print(f"window {args.size}, blend tab, {args.repeat} changes of each kind")
    for name in kinds:
        p, w = statistics.median(paint[name]), statistics.median(wall[name])
        print(f"{name:<11} plots paint median {p * 1e3:6.2f} ms (x{p / base_p:5.2f} baseline), "
              f"change to repainted {w * 1e3:6.2f} ms (x{w / base_w:5.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
