"""Benchmark: the Keyframes tab's rig view, opening a file and scrubbing (run on demand).

    xvfb-run -a python benchmarks/bench_rig_view.py [--repeat 120] [--size 1400x900]

Needs a display (Xvfb). Figures, measured in the same run, in one window
already shown on the Keyframes tab:

* **open**: ``open_keyframes(FILE)`` to the first frame of the rig swapped
  by the 3D view (the rig is read on a worker thread), per file; target at
  most 0.5 s for RobotExpressive, CesiumMan and Fox; and to everything
  drawn (the curves of the selected track are filled after that frame).
  Beside it the longest time the GUI thread did not get back to its event
  loop until everything was drawn (a 5 ms timer's largest gap): what a
  user would feel as a freeze; target about 100 ms.
* **time change**: ``playback.set_time(t)``, then every view that changed
  repaints (the 3D view renders and swaps, the curve cursors, the scrubber,
  the timeline) and ``glFinish``; median over many times of a skinned rig;
  target at most 16 ms.
* **baseline**: the same items fed precomputed snapshots (the rig frames
  computed before the loop): what posing and skinning add on top of drawing.
  The truck's clip crosses its sign flip: its time changes draw the error's
  paths, spokes and onion skin (and, the first time, work them out); the
  longest time change is printed too (a GUI block).

The time changes and the baseline alternate, one of each in turn, so load
from other processes weighs on both alike; beside the wall-clock medians
the process's CPU time per change (all threads: llvmpipe's too) is given.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from gui_window import finish_frame, open_window  # benchmarks/ runs as scripts: a sibling module

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "gltf"
OPEN_FILES = ("RobotExpressive.glb", "CesiumMan.glb", "Fox.glb", "CesiumMilkTruck.glb")
SCRUB_FILES = ("CesiumMan.glb", "RobotExpressive.glb", "Fox.glb", "CesiumMilkTruck.glb")


def _open(win, app, view, name: str, swaps: dict) -> tuple[float, float]:
    from PyQt6 import QtCore

    gaps = {"last": time.perf_counter(), "max": 0.0}

    def tick():
        now = time.perf_counter()
        gaps["max"] = max(gaps["max"], now - gaps["last"])
        gaps["last"] = now

    timer = QtCore.QTimer()
    timer.timeout.connect(tick)
    timer.start(5)
    t0 = time.perf_counter()
    gaps["last"] = t0
    win.open_keyframes(DATA / name)
    tick()  # the GUI thread is back: the synchronous part counts as a gap too
    panel = view.rig_panel
    deadline = QtCore.QDeadlineTimer(20000)
    swaps["at_rig"] = None
    # The first frame swapped after the rig arrived.
    while swaps["at_rig"] is None or swaps["frames"] <= swaps["at_rig"]:
        if deadline.hasExpired():
            raise RuntimeError(f"{name}: no frame of the rig in 20 s")
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 5)
    elapsed = time.perf_counter() - t0
    while panel.loading:  # the curves, then their paint
        if deadline.hasExpired():
            raise RuntimeError(f"{name}: the curves did not arrive in 20 s")
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 5)
    for _ in range(10):
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 5)
    drawn = time.perf_counter() - t0
    timer.stop()
    return elapsed, gaps["max"], drawn


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=120)
    ap.add_argument("--size", default="1400x900")
    args = ap.parse_args()
    import numpy as np

    opened = open_window(args.size, wait_scene=False)
    if opened is None:
        return 2
    app, win = opened
    win.show_view("keyframes")
    view = win.views["keyframes"]
    scene = view.rig_panel.scene
    for _ in range(20):
        app.processEvents()
        time.sleep(0.01)
    swaps = {"frames": 0, "waited": 0}

    def swapped():
        swaps["frames"] += 1

    scene.frameSwapped.connect(swapped)
    swaps["at_rig"] = None
    view.playback.events.connect("rig", lambda: swaps.__setitem__("at_rig", swaps["frames"]))
    print(f"window {args.size}")
    # One throw-away open warms the shaders and the caches of the GL items.
    _open(win, app, view, "CesiumMilkTruck.glb", swaps)
    for name in OPEN_FILES:
        runs = [_open(win, app, view, name, swaps) for _ in range(3)]
        med = statistics.median(r[0] for r in runs)
        print(f"open {name:<22} to first rig frame: median {med:.3f} s "
              f"({', '.join(f'{r[0]:.3f}' for r in runs)}); all drawn "
              f"{statistics.median(r[2] for r in runs):.3f} s; longest GUI block "
              f"{', '.join(f'{r[1] * 1e3:.0f}' for r in runs)} ms")

    for name in SCRUB_FILES:
        _open(win, app, view, name, swaps)
        pb, panel = view.playback, view.rig_panel
        lo, hi = pb.range
        ts = np.linspace(lo, hi, args.repeat)
        for t in ts[:10]:  # warm up
            pb.set_time(float(t))
            finish_frame(scene, app, swaps)
        # Baseline: the frames computed beforehand, pushed into the same items.
        frames = []
        for t in ts:
            pb.set_time(float(t))
            frame = pb.frame()
            # Skinned and its bones laid out now, not in the timed loop.
            _ = frame.spec_meshes, frame.naive_meshes, frame.spec_bones, frame.naive_bones
            frames.append(frame)
        times, base, cpu, bcpu = [], [], [], []
        # Scrub forwards, the baseline backwards: neighbouring times differ
        # from one change to the next in both.
        for t, (tb, frame) in zip(ts, reversed(list(zip(ts, frames, strict=True))), strict=True):
            c0, t0 = time.process_time(), time.perf_counter()
            pb.set_time(float(t))
            finish_frame(scene, app, swaps)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            c0, t0 = time.process_time(), time.perf_counter()
            scene.set_frame(frame)
            panel.components.set_cursor(float(tb))
            panel.curves.set_cursor(float(tb))
            view.timeline.set_cursor(float(tb))
            panel.scrubber.refresh()
            finish_frame(scene, app, swaps)
            base.append(time.perf_counter() - t0)
            bcpu.append(time.process_time() - c0)
        med, bmed = statistics.median(times), statistics.median(base)
        print(f"scrub {name:<21} time change -> all views rendered: median {med * 1e3:.2f} ms "
              f"(p90 {np.percentile(times, 90) * 1e3:.2f}; "
              f"CPU {statistics.median(cpu) * 1e3:.2f}); "
              f"baseline {bmed * 1e3:.2f} ms (CPU {statistics.median(bcpu) * 1e3:.2f}); "
              f"ratio {med / bmed:.2f}; target <= 16 ms; longest {max(times) * 1e3:.0f} ms")
    print(f"{swaps['waited']} frames came after the two event passes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
