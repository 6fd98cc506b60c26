"""Resident memory while the window plays, sampled over simulated minutes of playback (on demand).

    xvfb-run -a -s "-screen 0 1920x1200x24" python benchmarks/bench_playback_memory.py \\
        [--minutes 10] [--view main] [--tracemalloc]

The lesson's scrubber is advanced as its play timer does, one tick per
16 ms of simulated time (``Scrubber.advance``), and every tick is painted
(Qt events processed, the 3D scene rendered), so ten minutes of playback are
37,500 frames, run as fast as the machine paints them. Resident memory is
read from ``/proc/self/statm`` at the start, after a warm-up minute and at
the end; the growth after warm-up per simulated minute is the figure to keep
near zero (the hardening review measured 1.5-2 MB a minute). With
``--tracemalloc`` the Python allocations that grew most between warm-up and
the end are listed (slower: Python allocations are traced).
"""

from __future__ import annotations

import argparse
import os
import time
import tracemalloc

from gui_window import open_window  # benchmarks/ runs as scripts: a sibling module

TICK_S = 0.016  # the scrubber's timer interval


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        resident_pages = int(f.read().split()[1])
    return resident_pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--warmup", type=float, default=1.0, help="simulated minutes before the "
                    "reference sample")
    ap.add_argument("--view", default="main")
    ap.add_argument("--tracemalloc", action="store_true")
    ap.add_argument("--size", default="1400x900")
    args = ap.parse_args(argv)
    import gc

    opened = open_window(args.size)
    if opened is None:
        return 2
    app, win = opened
    win.show_view(args.view)
    view = win.current_view()
    scrubber = getattr(view, "scrubber", None) or view.slider
    scrubber.mode.setCurrentText("ping-pong")

    def play(minutes: float) -> None:
        for _ in range(int(minutes * 60 / TICK_S)):
            scrubber.advance(TICK_S)
            app.processEvents()

    start = rss_mb()
    t0 = time.perf_counter()
    play(args.warmup)
    gc.collect()
    warm = rss_mb()
    if args.tracemalloc:
        tracemalloc.start(10)
        before = tracemalloc.take_snapshot()
    samples = []
    rest = args.minutes - args.warmup
    for _ in range(int(round(rest))):
        play(1.0)
        samples.append(rss_mb())
    play(rest - int(round(rest)))
    gc.collect()
    end = rss_mb()
    wall = time.perf_counter() - t0
    per_min = (end - warm) / rest if rest > 0 else float("nan")
    print(f"view {args.view}: {args.minutes:g} simulated minutes "
          f"({int(args.minutes * 60 / TICK_S):,} frames) in {wall:.0f} s")
    print(f"resident memory: start {start:.1f} MB, after {args.warmup:g} min warm-up {warm:.1f} "
          f"MB, end {end:.1f} MB: {per_min:+.2f} MB per minute after warm-up")
    print("per minute: " + ", ".join(f"{m:.1f}" for m in samples))
    if args.tracemalloc:
        after = tracemalloc.take_snapshot()
        print("largest growth of Python allocations after warm-up:")
        for stat in after.compare_to(before, "lineno")[:10]:
            print(f"  {stat}")
    win.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
