"""Longest block of the GUI thread per preset change, every ordered pair in every tab (on demand).

    xvfb-run -a -s "-screen 0 1920x1200x24" python benchmarks/bench_preset_blocks.py \
        [--size 1400x900] [--repeat 2] [--settle 150] [--tabs main,s3]

Each tab with presets (``tests/preset_tour.py``: the two-key lesson and the
S3 tab through the Presets menu's Alt+N shortcuts, the other lessons through
their preset combos) walks every ordered pair of its presets; a heartbeat
(every 2 ms) gives the longest gap while the change runs and the window
settles after it (what a user feels as a frozen window). The baseline is the
heartbeat's own floor with no action (and the CPU the heartbeat itself
takes over the same window), measured in the same run before each tab. Per
tab: median and worst change, how many exceed the ~100 ms target
(docs/architecture.md), and the slowest changes. With ``--repeat`` each
change is the median of its repeats (the first tour warms up and is not
counted). Exit status 1 if any change's median exceeds the target.

The wall-clock gap also counts the time the GUI thread waited for a core:
on a shared machine (the load average is printed) it can be several times
the work. The GUI thread's CPU time over the same window is printed beside
it: the work done, which the load hardly changes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from gui_window import open_window  # benchmarks/ runs as scripts: a sibling module

# tests/preset_tour.py, by its bare name as the tests import it (a package called
# ``tests`` that another distribution installs would shadow ``tests.preset_tour``).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

TARGET_MS = 100.0


def _row(name: str, count: int, idle, values, cpu) -> str:
    """One line of the table; ``idle`` the baseline (wall, CPU) ms, or None."""
    over = sum(v > TARGET_MS for v in values)
    wall_idle, cpu_idle = (f"{v:>5.1f}ms" for v in idle) if idle else (" " * 7, " " * 7)
    return (f"{name:<10} {count:>7} {wall_idle} {statistics.median(values):>6.1f}ms "
            f"{max(values):>6.1f}ms {over:>8}   {cpu_idle} {statistics.median(cpu):>6.1f}ms "
            f"{max(cpu):>6.1f}ms {sum(v > TARGET_MS for v in cpu):>6}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="1400x900")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--settle", type=int, default=150, help="ms run after each change")
    ap.add_argument("--tabs", default="", help="comma-separated tab names (default: all)")
    ap.add_argument("--worst", type=int, default=3, help="slowest changes listed per tab")
    args = ap.parse_args(argv)
    opened = open_window(args.size)
    if opened is None:
        return 2
    from preset_tour import measure, routes, walk

    app, win = opened
    win.activateWindow()   # the Alt+N shortcuts go to the active window
    app.processEvents()
    wanted = {t for t in args.tabs.split(",") if t}
    ok = True
    every, every_cpu = [], []
    print(f"window {args.size}; target {TARGET_MS:.0f} ms; each change the median of "
          f"{args.repeat} tour(s) after a warm-up tour; load average {os.getloadavg()[0]:.1f}")
    print(f"{'':<18}{'-- longest block (wall) --':^42}   {'--- GUI thread CPU ---':^30}")
    print(f"{'tab':<10} {'changes':>7} {'idle':>7} {'median':>8} {'max':>8} {'>100 ms':>8}   "
          f"{'idle':>7} {'median':>8} {'max':>8} {'>100':>6}")
    for route in routes(win):
        if wanted and route.tab not in wanted:
            continue
        win.show_view(route.tab)
        base = [measure(lambda: None, args.settle) for _ in range(5)]
        idle = (statistics.median(b.longest for b in base), statistics.median(b.cpu for b in base))
        runs = [walk(win, route, args.settle) for _ in range(args.repeat + 1)][1:]
        wall = {pair: statistics.median(run[pair].longest for run in runs) for pair in runs[0]}
        cpu = {pair: statistics.median(run[pair].cpu for run in runs) for pair in runs[0]}
        every += wall.values()
        every_cpu += cpu.values()
        ok &= max(wall.values()) <= TARGET_MS
        print(_row(route.tab, len(wall), idle, list(wall.values()), list(cpu.values())))
        for (a, b), ms in sorted(wall.items(), key=lambda kv: -kv[1])[:args.worst]:
            print(f"{'':<12}{a} -> {b}: {ms:.1f} ms (CPU {cpu[(a, b)]:.1f} ms)")
    if every:
        print(_row("all", len(every), None, every, every_cpu))
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    win.close()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
