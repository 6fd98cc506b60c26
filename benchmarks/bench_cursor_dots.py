"""Benchmark: what sharing a dot between curves that meet costs a cursor move and its repaint.

Run on demand:

    xvfb-run -a -s "-screen 0 1920x1200x24" python benchmarks/bench_cursor_dots.py \\
        [--moves 400] [--size 600x500]

Needs a display (Xvfb). The two-key lesson's plots on negated-20, where the
shortest NLERP and SLERP dots meet at every t (and naive NLERP joins them
near the ends), the cursor moved across the range; per move
``CurvePlots.set_cursor(t)`` and a synchronous repaint of the plots' view:

* **grouped**: the dots as drawn now (``rendering/cursor_dots.py``: grouped
  in device pixels where they are painted, shared dots as pie slices);
* **baseline**: the same moves with pyqtgraph's own scatter painting (every
  dot from its atlas, one over the other). The two alternate move by move,
  so load from other processes hits both alike.

Also the cost of ``CursorDots.groups()`` (what the callouts read for the
width to keep clear of). Prints the medians and their ratio: compare ratios
across runs, not milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import time


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=400)
    ap.add_argument("--size", default="600x500")
    args = ap.parse_args()
    import numpy as np
    import pyqtgraph as pg
    from PyQt6 import QtWidgets

    from quatlab.app.model.state import LessonState
    from quatlab.rendering.cursor_dots import CursorDots
    from quatlab.rendering.curve_plots import CurvePlots

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    plots = CurvePlots()
    plots.resize(*(int(v) for v in args.size.split("x")))
    plots.show()
    plots.set_curves(LessonState.from_preset("negated-20").curves)
    for _ in range(5):
        app.processEvents()
    grouped = (CursorDots.paint, CursorDots.pixelPadding)
    plain = (pg.ScatterPlotItem.paint, pg.ScatterPlotItem.pixelPadding)
    viewport = plots._view.viewport()
    spent: dict[bool, list[float]] = {True: [], False: []}
    for k, t in enumerate(np.linspace(0.05, 0.95, args.moves)):
        for shared in (k % 2 == 0, k % 2 == 1):
            CursorDots.paint, CursorDots.pixelPadding = grouped if shared else plain
            t0 = time.perf_counter()
            plots.set_cursor(float(t))
            viewport.repaint()
            spent[shared].append(time.perf_counter() - t0)
    CursorDots.paint, CursorDots.pixelPadding = grouped
    dots = plots._dots["speed"]
    t0 = time.perf_counter()
    for _ in range(1000):
        dots.groups()
    per_groups = (time.perf_counter() - t0) / 1000
    new, base = statistics.median(spent[True]), statistics.median(spent[False])
    print(f"cursor move + repaint, {args.moves} moves: grouped median {new * 1e3:.3f} ms, "
          f"baseline median {base * 1e3:.3f} ms, ratio {new / base:.2f}")
    print(f"CursorDots.groups(): {per_groups * 1e6:.1f} us "
          f"(speed plot at t = 0.95: {[len(g[3]) for g in dots.groups()]} dots per drawn dot)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
