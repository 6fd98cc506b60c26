"""Speed of opening and auditing a USD file, relative to usd-core alone reading every rotation.

The file is the long shared animation (``tests/data/usd/SoC-ElephantWithMonochord.usdc``: two
skeletons, two SkelAnimations of 3,023 samples, 84 sign flips). Timed in the same run:

* ``open + audit``: :func:`quatlab.app.io.keyframe_files.load_keyframes` (a child process
  that checks every layer the stage pulls in, composes the stage, reads skeletons,
  animations and meshes, and sends them back) and the full audit
  (:func:`quatlab.app.io.bvh.keyframes.audit_keyframes`, messages included);
* the phases of that: ``child process`` (the reply alone, :func:`quatlab.app.io.usd.isolate.call`)
  and the audit of the loaded file;
* the baseline, in this process: ``Usd.Stage.Open`` and ``Get`` of every time sample of
  every ``SkelAnimation.rotations`` turned into a numpy array (no checks, no audit);
* the same baseline in a fresh interpreter (``python -c``), which pays the start-up and
  ``import pxr`` the child pays too.

Each figure is the median of ``--repeats`` runs; the ratios, not the milliseconds, are
what compare across machines.

Run: ``python benchmarks/bench_usd.py [--repeats 5] [--file PATH]``
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

FILE = Path(__file__).resolve().parent.parent / "tests" / "data" / "usd" / \
    "SoC-ElephantWithMonochord.usdc"

BASELINE = """
import sys
import numpy as np
from pxr import Usd, UsdSkel
stage = Usd.Stage.Open(sys.argv[1])
n = 0
for prim in stage.Traverse():
    if prim.IsA(UsdSkel.Animation):
        attr = UsdSkel.Animation(prim).GetRotationsAttr()
        n += sum(np.asarray(attr.Get(t)).size for t in attr.GetTimeSamples())
print(n)
"""


def median_seconds(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def usd_alone(path: Path) -> int:
    from pxr import Usd, UsdSkel

    stage = Usd.Stage.Open(str(path))
    n = 0
    for prim in stage.Traverse():
        if prim.IsA(UsdSkel.Animation):
            attr = UsdSkel.Animation(prim).GetRotationsAttr()
            n += sum(np.asarray(attr.Get(t)).size for t in attr.GetTimeSamples())
    return n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--file", type=Path, default=FILE)
    args = ap.parse_args(argv)

    from quatlab.app.io.bvh.keyframes import audit_keyframes
    from quatlab.app.io.keyframe_files import load_keyframes
    from quatlab.app.io.usd import isolate

    path = args.file
    findings = sum(len(r.findings) for r in audit_keyframes(load_keyframes(path)))
    samples = usd_alone(path) // 4

    def open_audit():
        audit_keyframes(load_keyframes(path))

    loaded = load_keyframes(path)

    def audit_only():
        # Fresh copies of the keys: the audit keeps its results per read-only array.
        for i, t in enumerate(loaded.tracks):
            loaded.audit_track(i, dataclasses.replace(t, values=np.array(t.values)))

    rows = [
        ("open + audit (QuatLab)", median_seconds(open_audit, args.repeats)),
        ("  child process (read, check, reply)",
         median_seconds(lambda: isolate.call("load", path, {}), args.repeats)),
        ("  audit of the loaded tracks", median_seconds(audit_only, args.repeats)),
        ("baseline: usd-core alone, this process",
         median_seconds(lambda: usd_alone(path), args.repeats)),
        ("baseline: usd-core alone, fresh interpreter",
         median_seconds(lambda: subprocess.run([sys.executable, "-c", BASELINE, str(path)],
                                               check=True, capture_output=True),
                        args.repeats)),
    ]
    base = rows[3][1]
    fresh = rows[4][1]
    print(f"{path.name}: {samples:,} rotation samples (joint x time), {findings} findings")
    for label, seconds in rows:
        print(f"{label:<46} {seconds * 1000:9.1f} ms   {seconds / base:6.2f}x in-process "
              f"baseline   {seconds / fresh:5.2f}x fresh-interpreter baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
