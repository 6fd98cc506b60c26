"""Longest block of the GUI thread during File > Export animation (run on demand).

    xvfb-run -a -s "-screen 0 1920x1200x24" python benchmarks/bench_export_animation.py [--repeat 3]

A heartbeat timer (every 2 ms, as in bench_gui_blocks.py) records when the
event loop gets to run while an export of the two-key lesson's sweep runs
to its end (frames taken, encoded on the worker thread, file written). The
longest gap between two beats is how long the window was frozen; it is
reported for the first frames (``--first``, where the export used to block
longest), for the later ones, and against the idle heartbeat floor measured
in the same run, with the GUI thread's CPU time in its busiest turn (what
the gap would be on an idle machine, whatever else runs) and the phase it
was in. Each ``--repeat`` exports to a new file; the first export of the
process is reported apart (it also pays for the first dialog, the first
offscreen grab and the encoder's imports).

Target (docs/architecture.md): no block over about 100 ms.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_gui_blocks import TARGET_MS, longest_block_ms
from gui_window import open_window  # benchmarks/ runs as scripts: a sibling module


def export_gaps(app, win, path: Path, duration: float, fps: float):
    """Heartbeat gaps over one export (ms: wall time, GUI-thread CPU time), the times (s)
    they end, when each frame was taken, and the export's state at the end of each gap."""
    from PyQt6 import QtCore

    from quatlab.app.qt import export_animation

    beats: list[float] = []
    heart = QtCore.QTimer()
    heart.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
    cpu: list[float] = []
    phase: list[str] = []

    def beat() -> None:
        beats.append(time.perf_counter())
        cpu.append(time.thread_time())
        phase.append(export_box[0].state if export_box else "new")

    heart.timeout.connect(beat)
    loop = QtCore.QEventLoop()
    export_box: list = []
    taken: list[float] = []
    steps = export_animation.sweep_steps

    def timed_steps(*a, **kw):
        for frame in steps(*a, **kw):
            yield frame
            if frame is not None:  # the frame's grab ended when the export asks again
                taken.append(time.perf_counter())

    def begin() -> None:
        export = export_animation.run_export(win, path, duration=duration, fps=fps)
        export_box.append(export)
        export.done.connect(lambda _msg: QtCore.QTimer.singleShot(100, loop.quit))

    export_animation.sweep_steps = timed_steps
    heart.start(2)
    QtCore.QTimer.singleShot(50, begin)
    try:
        loop.exec()
    finally:
        heart.stop()
        export_animation.sweep_steps = steps
    export = export_box[0]
    if export.state != "written":
        raise RuntimeError(f"export ended {export.state}: {export.message}")
    return (1e3 * np.diff(beats), 1e3 * np.diff(cpu), np.asarray(beats[1:]),
            np.asarray(taken), phase[1:])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--size", default="1400x900")
    ap.add_argument("--duration", type=float, default=2.0)
    ap.add_argument("--fps", type=float, default=12.5)
    ap.add_argument("--suffix", default=".gif", choices=(".gif", ".mp4"))
    ap.add_argument("--first", type=int, default=5, help="frames counted as the first ones")
    args = ap.parse_args(argv)
    opened = open_window(args.size)
    if opened is None:
        return 2
    app, win = opened
    from PyQt6 import QtCore

    idle, first, later, total, busiest, busiest_phase = [], [], [], [], [], []
    longest: list[tuple[float, float, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.repeat + 1):  # run 0: the process's first export
            idle.append(longest_block_ms(app, lambda: None))
            path = Path(tmp) / f"sweep{run}{args.suffix}"
            t0 = time.perf_counter()
            gaps, cpu, at, taken, phases = export_gaps(app, win, path, args.duration, args.fps)
            total.append(time.perf_counter() - t0)
            # The gaps up to the beat after the first frames' grab (a block
            # ends with the beat that follows it).
            split = int(np.searchsorted(at, taken[args.first - 1])) + 1
            first.append(float(gaps[:split].max()))
            later.append(float(gaps[split:].max()))
            busiest.append(float(cpu.max()))
            busiest_phase.append(phases[int(np.argmax(cpu))])
            k = int(np.argmax(gaps))
            longest.append((float(gaps[k]), float(cpu[k]), phases[k]))
            QtCore.QCoreApplication.processEvents()
    floor = statistics.median(idle[1:])
    print(f"window {args.size}, {round(args.duration * args.fps)} frames to {args.suffix}, "
          f"idle heartbeat floor {floor:.1f} ms")
    ok = True
    for label, runs in (("first export of the process", [max(first[0], later[0])]),
                        (f"  its first {args.first} frames", first[:1]),
                        ("later exports, longest block", [max(a, b) for a, b in
                                                          zip(first[1:], later[1:], strict=True)]),
                        (f"  their first {args.first} frames", first[1:]),
                        ("  the rest (frames, encoding, writing)", later[1:])):
        worst = max(runs)
        ok &= worst <= TARGET_MS
        print(f"{label:<40} {worst:7.1f} ms (median {statistics.median(runs):6.1f} ms, "
              f"{worst / floor:5.1f}x the idle floor)" + (" ok" if worst <= TARGET_MS
                                                          else " BLOCKS"))
    worst = int(np.argmax(busiest[1:])) + 1
    print(f"GUI-thread CPU time of the busiest turn: first export {busiest[0]:.1f} ms "
          f"(ending {busiest_phase[0]}), later ones {busiest[worst]:.1f} ms (ending "
          f"{busiest_phase[worst]}); load on the machine stretches the gaps, not this")
    print("longest gap of each export: " + ", ".join(
        f"{wall:.0f} ms ({cpu:.0f} ms GUI-thread CPU, ending {phase})"
        for wall, cpu, phase in longest) + "; much more wall than CPU time is waiting: "
        "for the other thread's GIL or for the machine's other processes")
    print(f"export took {statistics.median(total[1:]):.2f} s (median of later runs)")
    win.close()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
