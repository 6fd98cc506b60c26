"""Benchmark: time from a change of t to every view updated and rendered (run on demand).

    python benchmarks/bench_window.py [--repeat 200] [--size 1400x900]

Needs a display (Xvfb). Three figures, measured in the same run:

* **t change**: ``state.set_t(t)``, then Qt's event processing repaints every
  widget that changed (plots, readouts, explanation, slider), the 3D scene
  (a native GL window, see ``GLWindowView``) renders and swaps its frame, and
  ``glFinish`` makes sure the GL work is counted; median over many t values;
  target at most 16 ms.
* **baseline**: the same pyqtgraph items (chain transforms, plot cursors) moved
  with precomputed data and the window repainted the same way: what the
  model, the readouts and the explanation add on top of drawing. The two
  alternate sample by sample, so load from other processes hits both alike.
* **curve plots repaint**: per lesson (the two-key lesson and every lesson
  tab with curve plots), the time the plots' view spends painting per
  change of the lesson's parameter (its ``paintEvent``, after Qt's event
  processing); median over ``--lesson-repeat`` values.
* **cold start**: a fresh process from interpreter start to the first frame
  of the window, in seconds.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from gui_window import finish_frame, open_window  # benchmarks/ runs as scripts: a sibling module

COLD = r"""
import time; t0 = time.perf_counter()
from quatlab.app.qt.window import MainWindow, make_app
app = make_app()
w = MainWindow(); w.resize(1400, 900); w.show()
while not w.lesson.scene.isValid():
    app.processEvents()
w.repaint(); app.processEvents()
print(time.perf_counter() - t0)
"""


#: The lesson tabs whose curve plots the repaint figure covers ("main": the two-key lesson).
PLOT_LESSONS = ("main", "squad", "integrate", "euler", "wrap", "blend")


def _curve_plots_repaint(app, win, repeat: int) -> dict[str, float]:
    """Median ms the curve plots' view spends in paintEvent per parameter change, per lesson."""
    import numpy as np
    import pyqtgraph as pg
    from PyQt6 import QtCore

    spent: list[float] = []
    watched: set[int] = set()
    cls = pg.GraphicsLayoutWidget
    plain = cls.paintEvent

    def timed(view, ev):
        t0 = time.perf_counter()
        try:
            return plain(view, ev)
        finally:
            if id(view) in watched:
                spent.append(time.perf_counter() - t0)

    cls.paintEvent = timed
    out = {}
    try:
        for name in PLOT_LESSONS:
            view = win.views.get(name)
            if view is None:
                continue
            win.show_view(name)
            loop = QtCore.QEventLoop()
            QtCore.QTimer.singleShot(300, loop.quit)  # its first paints are not timed
            loop.exec()
            if name == "main":
                setter, (lo, hi) = win.state.set_t, (0.0, 1.0)
            else:
                setter, (lo, hi) = view.model.set_param, view.model.param_range
            watched.clear()
            watched.add(id(view.plots.findChild(cls)))
            per_change = []
            for x in np.linspace(lo, hi, repeat):
                spent.clear()
                setter(float(x))
                app.processEvents()
                app.processEvents()
                per_change.append(sum(spent))
            out[name] = 1e3 * statistics.median(per_change)
    finally:
        cls.paintEvent = plain
    win.show_view("main")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--size", default="1400x900")
    ap.add_argument("--lesson-repeat", type=int, default=60)
    args = ap.parse_args()
    import numpy as np

    opened = open_window(args.size)
    if opened is None:
        return 2
    app, win = opened
    for _ in range(10):
        app.processEvents()
    swaps = {"frames": 0, "waited": 0}

    def swapped():
        swaps["frames"] += 1

    win.lesson.scene.frameSwapped.connect(swapped)
    state = win.state
    ts = np.linspace(0.0, 1.0, args.repeat)

    # Warm up both paths (shader compilation, caches).
    for t in ts[:10]:
        state.set_t(float(t))
        finish_frame(win.lesson.scene, app, swaps)

    # The two paths alternate, sample by sample, so a machine shared with
    # other work slows both alike and the ratio stays meaningful; each is
    # timed on the wall clock and on this process's CPU clock (which leaves
    # out the time spent waiting for a core, but also the X server's work).
    at = [state.curves["naive_slerp"].quats, state.curves["shortest_slerp"].quats]
    idx = np.linspace(0, len(state.curves.t) - 1, args.repeat).astype(int)
    scene, plots = win.lesson.scene, win.lesson.plots
    times, base, cpu, cpu_base = [], [], [], []
    t_frames = 0
    for k, t in enumerate(ts):
        frames0 = swaps["frames"]
        t0, c0 = time.perf_counter(), time.process_time()
        state.set_t(float(t))
        finish_frame(win.lesson.scene, app, swaps)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        t_frames += swaps["frames"] - frames0

        # Baseline: precomputed poses pushed straight into the same items.
        i = idx[k]
        t0, c0 = time.perf_counter(), time.process_time()
        scene.set_chain("naive", at[0][i], "#CC79A7")
        scene.set_chain("shortest", at[1][i], "#009E73")
        plots.set_cursor(float(ts[k]))
        finish_frame(win.lesson.scene, app, swaps)
        base.append(time.perf_counter() - t0)
        cpu_base.append(time.process_time() - c0)

    plot_paint = _curve_plots_repaint(app, win, args.lesson_repeat)

    cold = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True,
                             check=True)
        cold.append(float(out.stdout.strip().splitlines()[-1]))

    med, bmed = statistics.median(times), statistics.median(base)
    print(f"window {args.size}, {args.repeat} t values")
    print(f"t change -> all views rendered: median {med * 1e3:.2f} ms "
          f"(p90 {np.percentile(times, 90) * 1e3:.2f} ms); target <= 16 ms")
    print(f"baseline (precomputed data, same items): median {bmed * 1e3:.2f} ms")
    print(f"ratio t change / baseline: {med / bmed:.2f}")
    cmed, cbmed = statistics.median(cpu), statistics.median(cpu_base)
    print(f"process CPU time: t change median {cmed * 1e3:.2f} ms, baseline "
          f"{cbmed * 1e3:.2f} ms, ratio {cmed / cbmed:.2f}")
    print(f"3D frames swapped in the t loop: {t_frames} for {len(ts)} t changes; "
          f"{swaps['waited']} of all frames came after the two event passes")
    for name, ms in plot_paint.items():
        print(f"curve plots repaint per change, {name:<10} median {ms:.2f} ms")
    print(f"cold start to first frame: median {statistics.median(cold):.2f} s "
          f"({', '.join(f'{c:.2f}' for c in cold)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
