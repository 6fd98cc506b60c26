"""Speed of ``quatlab check DIR`` on many small files: ``--jobs 2`` against one process.

Generates ``--files`` small keyframe files in a temporary folder tree (a
third each: BVH of 3 joints x 30 frames with a +-180 wrap, CSV tracks of 8
keys with a sign flip, JSON tracks of 8 keys), then times, in the same run,
the whole command as a user runs it (``python -m quatlab.app check DIR``,
start-up included) with ``--jobs 1`` and with ``--jobs 2``, and its start-up
alone (an empty folder). Each figure is
the median of ``--repeats`` runs. The ratio (one process / two) is what
compares across machines; on a machine whose cores are busy with other work
it stays near 1 however the work is split.

Run: ``python benchmarks/bench_check_dir.py [--files 1000] [--repeats 3]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

BVH = """HIERARCHY
ROOT Hips
{{
  OFFSET 0.00 0.00 0.00
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Knee
  {{
    OFFSET 0.00 -10.00 0.00
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT Foot
    {{
      OFFSET 0.00 -10.00 0.00
      CHANNELS 3 Zrotation Xrotation Yrotation
      End Site
      {{
        OFFSET 0.00 0.00 5.00
      }}
    }}
  }}
}}
MOTION
Frames: {frames}
Frame Time: 0.033333
{rows}
"""


def make_folder(root: Path, files: int, rng_key: int = 3) -> None:
    rng = np.random.default_rng(rng_key)
    for i in range(files):
        sub = root / f"take{i // 100:02d}"
        sub.mkdir(exist_ok=True)
        kind = i % 3
        if kind == 0:
            frames = 30
            ang = np.cumsum(rng.normal(0, 4, (frames, 9)), axis=0) + 170
            ang = (ang + 180) % 360 - 180
            rows = "\n".join("0.00 90.00 0.00 " + " ".join(f"{v:.2f}" for v in r) for r in ang)
            (sub / f"clip{i:04d}.bvh").write_text(BVH.format(frames=frames, rows=rows))
        else:
            q = rng.normal(size=(8, 4))
            q /= np.linalg.norm(q, axis=1, keepdims=True)
            q[4] *= -1
            if kind == 1:
                lines = ["time,w,x,y,z"] + [f"{t},{','.join(f'{v:.6f}' for v in k)}"
                                            for t, k in enumerate(q)]
                (sub / f"track{i:04d}.csv").write_text("\n".join(lines) + "\n")
            else:
                doc = {"order": "wxyz", "times": list(range(8)), "values": q.round(6).tolist()}
                (sub / f"track{i:04d}.json").write_text(json.dumps(doc))


def time_check(folder: Path, jobs: int) -> tuple[float, int]:
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "quatlab.app", "check", str(folder), "--jobs", str(jobs)],
        capture_output=True, text=True,
    )
    return time.perf_counter() - t0, proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        make_folder(folder, args.files)
        empty = folder / "empty"
        empty.mkdir()
        times = {0: [], 1: [], 2: []}
        for _ in range(args.repeats):
            times[0].append(time_check(empty, 2)[0])
            for jobs in (1, 2):
                t, status = time_check(folder, jobs)
                if status not in (0, 1):
                    raise SystemExit(f"check --jobs {jobs} exited {status}")
                times[jobs].append(t)
    t0, t1, t2 = (statistics.median(times[k]) for k in (0, 1, 2))
    print(f"quatlab check DIR, {args.files} small files (BVH, CSV, JSON), whole command:")
    print(f"  start-up (an empty folder): {t0 * 1e3:8.0f} ms")
    print(f"  --jobs 1 : {t1 * 1e3:8.0f} ms  ({t1 / args.files * 1e3:.2f} ms per file)")
    print(f"  --jobs 2 : {t2 * 1e3:8.0f} ms  ({t2 / args.files * 1e3:.2f} ms per file)")
    print(f"  ratio one process / two: {t1 / t2:.2f}")
    print(f"  start-up share of --jobs 2: {t0 / t2:.2f}")


if __name__ == "__main__":
    main()
