"""A library sweep three ways: serial, ``--jobs 2`` and ``--dask local:2``, in the same run.

Two libraries: ``--small`` generated small files (BVH, CSV, JSON tracks, as
``bench_check_dir.py`` makes them) and ``--real`` real-size files (the glTF,
GLB and BVH files of ``tests/data``, 2 KB to 490 KB, copied round-robin
under distinct names). Each is checked by the whole command as a user runs
it (``python -m quatlab.app check DIR --json``, start-up and, for Dask, the
LocalCluster's start included), with the report written to a file; each
figure is the median of ``--repeats`` runs. Printed per library and mode:
the time, the throughput (files per second) and the parallel efficiency
against serial: ``(serial time / time) / 2`` for two processes or workers
(1.0 = twice as fast). The fixed start-up (an empty folder; for Dask a
folder of one file, which starts the cluster) is measured too, since on a
2-core machine it is a large part of a short sweep. The reports of the
three modes are compared (same lines, order aside), so the speed is of the
same answer.

Run: ``python benchmarks/bench_pipeline.py [--small 5000] [--real 200] [--repeats 1]``
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_check_dir import make_folder

ROOT = Path(__file__).resolve().parents[1]
REAL = sorted(p for folder in ("gltf", "bvh") for p in (ROOT / "tests" / "data" / folder).iterdir()
              if p.suffix in (".gltf", ".glb", ".bvh"))
MODES = {"serial": ["--jobs", "1"], "--jobs 2": ["--jobs", "2"],
         "--dask local:2": ["--dask", "local:2"]}


def make_real(root: Path, files: int) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(files):
        src = REAL[i % len(REAL)]
        shutil.copy(src, root / f"{src.stem}_{i:04d}{src.suffix}")


def run(folder: Path, mode: list[str], out: Path) -> float:
    t0 = time.perf_counter()
    with open(out, "w") as f:
        proc = subprocess.run([sys.executable, "-m", "quatlab.app", "check", str(folder),
                               "--json", *mode], stdout=f, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"check {' '.join(mode)} exited {proc.returncode}: {proc.stderr}")
    return elapsed


def lines(report: Path) -> list[str]:
    docs = [json.loads(line) for line in report.read_text().splitlines()]
    return sorted(json.dumps(d, sort_keys=True) for d in docs)


def sweep(name: str, folder: Path, files: int, repeats: int, tmp: Path) -> None:
    """Time the three modes on ``folder`` and print time, throughput and efficiency."""
    times = {mode: [] for mode in MODES}
    reports = {}
    for _ in range(repeats):
        for mode, argv in MODES.items():
            reports[mode] = tmp / f"{folder.name}-{mode.replace(' ', '_')}.jsonl"
            times[mode].append(run(folder, argv, reports[mode]))
    same = len({tuple(lines(r)) for r in reports.values()}) == 1
    serial = statistics.median(times["serial"])
    print(f"{name}: {files} files{'' if same else '  (REPORTS DIFFER)'}")
    for mode in MODES:
        t = statistics.median(times[mode])
        eff = "" if mode == "serial" else f"  efficiency {serial / t / 2:5.2f}"
        print(f"  {mode:15s} {t:8.2f} s  {files / t:8.1f} files/s{eff}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", type=int, default=5000)
    ap.add_argument("--real", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        small, real, empty, one = tmp / "small", tmp / "real", tmp / "empty", tmp / "one"
        small.mkdir()
        make_folder(small, args.small)
        make_real(real, args.real)
        empty.mkdir()
        make_real(one, 1)
        start = {mode: statistics.median(run(one if "dask" in mode else empty, argv,
                                             tmp / "start.jsonl") for _ in range(args.repeats))
                 for mode, argv in MODES.items()}
        print("start-up (serial and --jobs: an empty folder; --dask: one file, the cluster "
              "started and stopped):")
        for mode, t in start.items():
            print(f"  {mode:15s} {t:8.2f} s")
        sweep("small files (BVH, CSV, JSON)", small, args.small, args.repeats, tmp)
        sweep(f"real-size files ({len(REAL)} glTF/GLB/BVH of tests/data, round-robin)", real,
              args.real, args.repeats, tmp)
    # Other work on the machine takes cores from the parallel modes first: say how busy it was.
    print("load average (1, 5, 15 min) at the end: {:.1f} {:.1f} {:.1f} on {} CPUs".format(
        *os.getloadavg(), os.cpu_count()))


if __name__ == "__main__":
    main()
