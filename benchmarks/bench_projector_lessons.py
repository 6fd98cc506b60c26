"""Every lesson tab x preset x t at projector scale, checked and timed (run on demand).

    xvfb-run -a -s "-screen 0 1920x1200x24" python benchmarks/bench_projector_lessons.py \\
        [--sizes 1280x720,1024x768@150%] [--tabs main,squad,...] [--json]

The exhaustive form of ``tests/test_projector_lessons.py`` (which runs a
representative set in CI): one window per size, every tab with a 3D scene,
every preset, t in {0, 0.5, 0.75, 1}; the checks are ``tests/lesson_checks.py``'s
(chains inside their view and not dots, the sweep filling the view, one
framing, labels and tick labels apart, coinciding chains both coloured, one
story for the angle at t). Prints each problem, then per size the cases, the
problems and the seconds per case; exits 1 if any check failed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
os.environ.setdefault("QT_QPA_PLATFORM", "xcb")

import lesson_checks as checks  # noqa: E402 - after the path: the tests' helper module


def sweep(size_name: str, tabs: list[str]) -> dict:
    size, zoom = checks.SIZES[size_name]
    start = time.perf_counter()
    win = checks.build_window(size, zoom)
    built = time.perf_counter() - start
    problems, cases = [], 0
    walk = time.perf_counter()
    for tab in tabs:
        for preset in checks.TABS[tab]:
            boxes: list = []
            for t in checks.TS:
                checks.show_case(win, tab, preset, t)
                cases += 1
                problems += [f"{size_name} {tab} {preset} t={t}: {p}"
                             for p in checks.check_case(win, tab, boxes)]
            problems += [f"{size_name} {tab} {preset}: {p}"
                         for p in checks.check_sweep_fill(win.views[tab].scene, boxes)]
    walked = time.perf_counter() - walk
    win.close()
    return {"size": size_name, "cases": cases, "problems": problems, "build_s": built,
            "s_per_case": walked / max(cases, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(checks.SIZES))
    parser.add_argument("--tabs", default=",".join(checks.TABS))
    parser.add_argument("--json", action="store_true", help="one JSON object per size")
    args = parser.parse_args()
    from quatlab.app.qt.window import make_app

    app = make_app()  # noqa: F841 - held: an application nothing refers to is destroyed
    failed = False
    for size_name in args.sizes.split(","):
        result = sweep(size_name, args.tabs.split(","))
        failed |= bool(result["problems"])
        if args.json:
            print(json.dumps(result))
            continue
        for p in result["problems"]:
            print(p)
        print(f"{size_name}: {result['cases']} cases, {len(result['problems'])} problems, "
              f"window {result['build_s']:.1f} s, {1000 * result['s_per_case']:.0f} ms per case",
              flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
