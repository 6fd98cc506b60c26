"""Benchmark: the Keyframes tab as a finder, opening a file to its dope sheet and N (run on demand).

    xvfb-run -a python benchmarks/bench_dope_sheet.py [--repeat 5] [--size 1400x900]

Needs a display (Xvfb). In one window, shown on the Keyframes tab, measured
in the same run (docs/keyframes.md, "Speed"):

* **open**: ``open_keyframes(RobotExpressive.glb)`` until the dope sheet has
  painted the new file's rows (the file is read and audited on a worker
  thread; the sheet is built and filled on the GUI thread), against the
  **baseline** of the same dope sheet fed the same sheet, precomputed, and
  painted (what drawing 147 tracks' rows costs by itself);
* **N**: the next finding (the walk, select the joint and segment, the time,
  the 3D centre) until every view has painted and the 3D view has swapped its
  frame, against the **baseline** of the same widgets fed precomputed data:
  the dope sheet's mark and cursor, a precomputed rig frame into the 3D view,
  the timeline's and plots' cursors;
* beside each, the **longest GUI block**: the largest gap between beats of a
  2 ms heartbeat while the action runs and the window settles (the measure of
  benchmarks/bench_gui_blocks.py); target about 100 ms.

Medians over ``--repeat`` runs, the first (warm-up) run dropped.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from bench_gui_blocks import TARGET_MS, longest_block_ms, settle
from gui_window import finish_frame, open_window  # benchmarks/ runs as scripts: siblings

ROBOT = Path(__file__).resolve().parents[1] / "tests" / "data" / "gltf" / "RobotExpressive.glb"


class Painted:
    """Counts the paint events of some widgets (an event filter)."""

    def __init__(self, widgets) -> None:
        from PyQt6 import QtCore

        class Filter(QtCore.QObject):
            def eventFilter(self, obj, ev):  # noqa: N802 - Qt API
                if ev.type() == QtCore.QEvent.Type.Paint:
                    counts[obj] = counts.get(obj, 0) + 1
                return False

        counts: dict = {}
        self.counts = counts
        self.filter = Filter()
        for w in widgets:
            w.installEventFilter(self.filter)
        self.widgets = list(widgets)

    def reset(self) -> None:
        self.counts.clear()

    def wait(self, app, widgets=None, timeout_s: float = 20.0) -> None:
        """Process events until each of ``widgets`` (default: all) has painted since reset."""
        from PyQt6 import QtCore

        deadline = time.perf_counter() + timeout_s
        for w in widgets or self.widgets:
            while not self.counts.get(w):
                if time.perf_counter() > deadline:
                    raise RuntimeError(f"{w.objectName() or w} did not paint")
                app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 5)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--size", default="1400x900")
    args = ap.parse_args(argv)
    opened = open_window(args.size, wait_scene=False)
    if opened is None:
        return 2
    app, win = opened
    win.show_view("keyframes")
    view = win.views["keyframes"]
    dope, panel, scene = view.dope_sheet, view.rig_panel, view.rig_panel.scene
    settle(app)
    swaps = {"frames": 0, "waited": 0}
    scene.frameSwapped.connect(lambda: swaps.__setitem__("frames", swaps["frames"] + 1))
    painted = Painted([dope.tree.viewport(), view.segment_table.viewport(),
                       view.timeline.viewport()])

    opens, open_base, open_blocks = [], [], []
    for _run in range(args.repeat + 1):
        painted.reset()
        t0 = time.perf_counter()
        win.open_keyframes(ROBOT)
        painted.wait(app, [dope.tree.viewport()])
        opens.append(time.perf_counter() - t0)
        panel.wait_loaded()
        settle(app)
        sheet = view.navigator.sheet  # built: the baseline draws it again
        painted.reset()
        t0 = time.perf_counter()
        dope.set_sheet(sheet)
        painted.wait(app, [dope.tree.viewport()])
        open_base.append(time.perf_counter() - t0)
        settle(app)
        open_blocks.append(longest_block_ms(app, lambda: win.open_keyframes(ROBOT), 2500))
        panel.wait_loaded()
        settle(app)

    def feed(k: int, t: float, frame) -> None:
        """A finding's precomputed state into the widgets N changes."""
        dope.set_current(k)
        dope.set_cursor(t, 0)
        scene.set_frame(frame)
        view.timeline.set_cursor(t)
        panel.components.set_cursor(t)
        panel.curves.set_cursor(t)
        view.segment_table.viewport().update()

    steps, step_base, step_blocks, base_blocks, idle_blocks = [], [], [], [], []
    n = len(view.navigator.sheet.marks)
    # The baseline's data: every finding's mark, time and rig frame, computed beforehand.
    shown = []
    for _k in range(n):
        view.navigator.step(1)
        frame = view.playback.frame()
        _ = frame.spec_meshes, frame.naive_meshes, frame.spec_bones, frame.naive_bones
        shown.append((view.navigator.current, view.playback.time, frame))
    settle(app)
    for _run in range(args.repeat + 1):
        for i in range(n):
            painted.reset()
            t0 = time.perf_counter()
            view.navigator.step(1)
            painted.wait(app)
            finish_frame(scene, app, swaps)
            steps.append(time.perf_counter() - t0)
            # The baseline: the finding before, precomputed, fed to the same widgets (so
            # that every one of them changes, as with N).
            painted.reset()
            t0 = time.perf_counter()
            feed(*shown[i - 1])
            painted.wait(app)
            finish_frame(scene, app, swaps)
            step_base.append(time.perf_counter() - t0)
        step_blocks.append(longest_block_ms(app, lambda: view.navigator.step(1), 600))

        base_blocks.append(longest_block_ms(
            app, lambda: feed(*shown[len(step_blocks) % n]), 600))
        idle_blocks.append(longest_block_ms(app, lambda: None, 600))

    def ms(values, drop):
        runs = values[drop:]
        return statistics.median(runs) * 1e3, max(runs) * 1e3

    print(f"window {args.size}, {ROBOT.name}: {len(view.model.tracks)} tracks, {n} findings")
    o, ob = ms(opens, 1), ms(open_base, 1)
    print(f"open to a drawn dope sheet: median {o[0]:.0f} ms (max {o[1]:.0f}); baseline "
          f"(the sheet precomputed, drawn) {ob[0]:.1f} ms; ratio {o[0] / ob[0]:.1f}")
    s, sb = ms(steps, n), ms(step_base, n)
    print(f"N to the next finding, all drawn: median {s[0]:.1f} ms (max {s[1]:.1f}); baseline "
          f"(precomputed, same widgets) {sb[0]:.1f} ms; ratio {s[0] / sb[0]:.2f}")
    worst_open, worst_step = max(open_blocks[1:]), max(step_blocks[1:])
    ok = worst_open <= TARGET_MS and worst_step <= TARGET_MS
    for label, blocks, judged in (("open", open_blocks, True), ("N", step_blocks, True),
                                  ("N's baseline (the same widgets, precomputed)",
                                   base_blocks, False),
                                  ("idle (heartbeat floor)", idle_blocks, False)):
        worst = max(blocks[1:])
        verdict = (" ok" if worst <= TARGET_MS else " BLOCKS") if judged else ""
        print(f"longest GUI block, {label}: worst {worst:.0f} ms, median "
              f"{statistics.median(blocks[1:]):.0f} ms{verdict}")
    print(f"{swaps['waited']} frames came after the two event passes")
    win.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
