"""Benchmark: what the plots' callouts cost a cursor move while playing, and a placement.

Run on demand:

    xvfb-run -a -s "-screen 0 1920x1200x24" python benchmarks/bench_callouts.py \\
        [--rounds 3] [--size 1280x720]

Needs a display (Xvfb). Per case, a lesson preset whose callouts the t
cursor runs into (``CASES``), the cursor is swept across the range and back
in steps of 1/120, as playback moves it, for ``--rounds`` sweeps:

* **cursor move**: ``CurvePlots.set_cursor(t)``: the lines and dots move and
  every callout now in the cursor's way (or free to show again) is placed
  again (``plot_label.follow_keep_clear``); Qt's events run between moves;
* **baseline**: the same sweep with the plots' callouts set aside (their
  stacks emptied for the sweep): what a cursor move costs without them. The
  two alternate sweep by sweep, so load from other processes hits both alike;
* **placement**: every callout of the case's plots placed afresh (what the
  curves leave clear forgotten), as after a preset change or a resize;
  per callout.

Wall times, no repaint (Qt's painting is bench_window.py's). Prints per case
the median and worst of each in ms and their ratios to the baseline's
median: compare ratios across runs (and commits), not milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from gui_window import open_window  # noqa: E402 - benchmarks/ runs as scripts: a sibling module

#: (tab, preset): callouts the cursor meets (gaps at t = 0.5, peaks at 0.5).
CASES = (("main", "q-to-minus-q"), ("main", "negated-20"), ("wrap", "yaw_wrap"))


def _plots(win, tab):
    return win.lesson.plots if tab == "main" else win.views[tab].plots


def _drop_searches(stacks) -> None:
    """Forget what each callout worked out from the curves (as new curves make it)."""
    for stack in stacks:
        for label in stack:
            label._searches.clear()
            label._lines = None


def run_case(app, win, tab: str, preset: str, rounds: int) -> dict:
    import lesson_checks as checks
    import numpy as np

    checks.show_case(win, tab, preset, 0.0)
    checks.settle(8)
    plots = _plots(win, tab)
    stacks = list(plots._label_stack.values())
    sweep = np.concatenate([np.linspace(0.0, 1.0, 121), np.linspace(1.0, 0.0, 121)[1:]])
    moves, bases = [], []
    for _round in range(rounds):
        for timed in (moves, bases):
            plots.set_cursor(0.0)
            app.processEvents()
            kept = [list(stack) for stack in stacks]
            if timed is bases:
                for stack in stacks:
                    stack.clear()
            for t in sweep[1:]:
                start = time.perf_counter()
                plots.set_cursor(float(t))
                timed.append(time.perf_counter() - start)
                app.processEvents()
            for stack, labels in zip(stacks, kept, strict=True):
                stack[:] = labels
    placements, count = [], sum(len(stack) for stack in stacks)
    for _round in range(5 * rounds):
        _drop_searches(stacks)
        start = time.perf_counter()
        for stack in stacks:
            if stack:
                stack[0].updateTextPos()
        placements.append((time.perf_counter() - start) / max(count, 1))
    base = statistics.median(bases)
    return {"case": f"{tab}/{preset}", "callouts": count,
            "move_med": statistics.median(moves), "move_max": max(moves),
            "base_med": base, "base_max": max(bases),
            "place_med": statistics.median(placements),
            "ratio_move": statistics.median(moves) / base, "ratio_worst": max(moves) / base,
            "ratio_place": statistics.median(placements) / base}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--size", default="1280x720")
    args = ap.parse_args()
    opened = open_window(args.size, wait_scene=False)
    if opened is None:
        return 2
    app, win = opened
    for tab, preset in CASES:
        r = run_case(app, win, tab, preset, args.rounds)
        print(f"{r['case']:24s} callouts {r['callouts']}: cursor move median "
              f"{1e3 * r['move_med']:.2f} ms, worst {1e3 * r['move_max']:.1f} ms; baseline median "
              f"{1e3 * r['base_med']:.2f} ms, worst {1e3 * r['base_max']:.1f} ms; placement "
              f"{1e3 * r['place_med']:.2f} ms per callout; ratios to the baseline: move "
              f"{r['ratio_move']:.2f}, worst move {r['ratio_worst']:.1f}, placement "
              f"{r['ratio_place']:.1f}", flush=True)
    win.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
