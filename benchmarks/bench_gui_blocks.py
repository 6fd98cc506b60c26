"""Longest block of the GUI thread during actions that used to freeze the window (run on demand).

    xvfb-run -a -s "-screen 0 1920x1200x24" python benchmarks/bench_gui_blocks.py [--repeat 3]

A heartbeat timer (every 2 ms) records when the event loop gets to run; the
longest gap between two beats while an action runs and the window repaints
after it is how long the GUI thread was blocked (what a user feels as a
frozen window). Actions:

* **open track**: "Open track in SQUAD lesson" of a 200-key track (the
  Keyframes tab loaded it before; two tracks alternate so each run computes),
  a smooth one and a jittery one (see :func:`track_file`);
* **drift 10,000**: the Integration lesson's steps set to 10,000 (from 200),
  so both recursions run and the drift plots repaint;
* **idle**: no action, the same time waited: the heartbeat's own floor on
  this machine, measured in the same run.

Target (docs/architecture.md): no action blocks the GUI thread more than
about 100 ms. Each action runs ``--repeat`` times; the worst and the median
are printed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from gui_window import open_window  # benchmarks/ runs as scripts: a sibling module

TARGET_MS = 100.0


def track_file(folder: Path, keys: int, seed: int, step: float = 0.05) -> Path:
    """A ``keys``-key JSON track (w, x, y, z), every fifth key stored as -q.

    Consecutive keys differ by a random rotation of about ``step`` rad per
    axis: 0.05 is a smooth capture, 0.3 a jittery one whose sign-unaware
    SQUAD speed spikes at every segment (the costliest curve to draw).
    """
    from quatlab.math import quaternion as Q

    rng = np.random.default_rng(seed)
    q = np.empty((keys, 4))
    q[0] = Q.normalize(rng.normal(size=4))
    steps = Q.from_rotvec(rng.normal(scale=step, size=(keys, 3)))
    for k in range(1, keys):
        q[k] = Q.multiply(q[k - 1], steps[k])
    q[::5] *= -1
    path = folder / f"track{seed}-{step:g}.json"
    path.write_text(json.dumps({"order": "wxyz", "times": (np.arange(keys) / 10).tolist(),
                                "values": q.tolist()}))
    return path


def settle(app, ms: int = 300) -> None:
    """Run the event loop for ``ms`` ms: what the set-up left to paint is done before timing.

    The lesson views paint their plots a turn after the rest of a change
    (docs/architecture.md): one ``processEvents()`` after the set-up left
    that paint to land inside the next timed action.
    """
    from PyQt6 import QtCore

    loop = QtCore.QEventLoop()
    QtCore.QTimer.singleShot(ms, loop.quit)
    loop.exec()


def longest_block_ms(app, action, settle_ms: int = 600) -> float:
    """The longest gap between heartbeats while ``action`` runs and the window settles."""
    from PyQt6 import QtCore

    beats: list[float] = []
    heart = QtCore.QTimer()
    heart.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
    heart.timeout.connect(lambda: beats.append(time.perf_counter()))
    heart.start(2)
    loop = QtCore.QEventLoop()
    QtCore.QTimer.singleShot(50, action)
    QtCore.QTimer.singleShot(50 + settle_ms, loop.quit)
    loop.exec()
    heart.stop()
    return 1e3 * float(np.max(np.diff(beats)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keys", type=int, default=200)
    ap.add_argument("--steps", type=int, default=10_000)
    ap.add_argument("--size", default="1400x900")
    args = ap.parse_args(argv)
    opened = open_window(args.size)
    if opened is None:
        return 2
    app, win = opened
    results: dict[str, list[float]] = {"idle": [], "open track": [], "open jittery": [],
                                       "drift": []}
    with tempfile.TemporaryDirectory() as tmp:
        files = [track_file(Path(tmp), args.keys, seed) for seed in (1, 2)]
        jittery = [track_file(Path(tmp), args.keys, seed, 0.3) for seed in (1, 2)]
        keyframes = win.views["keyframes"]
        integrate = win.views["integrate"]
        for run in range(args.repeat + 1):  # the first run warms up (imports, shaders)
            results["idle"].append(longest_block_ms(app, lambda: None))
            win.open_keyframes(files[run % 2])
            keyframes.model.select_track(0)
            settle(app)
            results["open track"].append(longest_block_ms(app, keyframes._open_in_squad))
            win.open_keyframes(jittery[run % 2])
            keyframes.model.select_track(0)
            settle(app)
            results["open jittery"].append(longest_block_ms(app, keyframes._open_in_squad))
            win.show_view("integrate")
            integrate.steps.setValue(200)
            settle(app)
            results["drift"].append(
                longest_block_ms(app, lambda: integrate.steps.setValue(args.steps)))
    ok = True
    for name, label in (("idle", "idle (heartbeat floor)"),
                        ("open track", f"open a {args.keys}-key track in the SQUAD lesson"),
                        ("open jittery", f"  the same, a jittery {args.keys}-key track"),
                        ("drift", f"Integration drift with {args.steps:,} steps")):
        runs = results[name][1:]
        worst = max(runs)
        verdict = "" if name == "idle" else (" ok" if worst <= TARGET_MS else " BLOCKS")
        ok &= name == "idle" or worst <= TARGET_MS
        print(f"{label:<48} longest block {worst:7.1f} ms (median {statistics.median(runs):6.1f}"
              f" ms over {len(runs)} runs){verdict}")
    win.close()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
