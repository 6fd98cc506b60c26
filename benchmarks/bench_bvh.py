"""Speed of reading and auditing a BVH file, relative to ``np.loadtxt`` of its motion block.

Builds a synthetic BVH in memory (``--joints`` joints in a chain, the root
with 6 channels and the others with ``Zrotation Xrotation Yrotation``,
``--frames`` frames of smooth random-walk angles printed with 2 decimals
and wrapped to [-180, 180), so the wraps a real capture has are there;
the middle angle stays within +-60 degrees),
then times, in the same run:

* ``parse``: :func:`quatlab.app.io.bvh.parse_bvh` of the file's bytes;
* ``parse + audit``: that plus :func:`quatlab.math.euler_track.audit_euler`
  of every joint's rotation channels (findings with messages);
* ``filter``: :func:`quatlab.math.euler_track.euler_filter` of all joints at once;
* the baseline, ``np.loadtxt`` of the motion lines alone (no hierarchy,
  no checks).

Each figure is the median of ``--repeats`` runs; the ratios, not the
milliseconds, are what compare across machines.

Run: ``python benchmarks/bench_bvh.py [--frames 10000] [--joints 60] [--repeats 5]``
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from quatlab.app.io import bvh as B
from quatlab.math import euler_track as E


def make_bvh(frames: int, joints: int, rng_key: int = 7) -> bytes:
    """Bytes of a synthetic BVH: a chain of ``joints`` joints, ``frames`` frames."""
    rng = np.random.default_rng(rng_key)
    lines = ["HIERARCHY"]
    for j in range(joints):
        pad = "  " * j
        kind = "ROOT" if j == 0 else "JOINT"
        chans = ("CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"
                 if j == 0 else "CHANNELS 3 Zrotation Xrotation Yrotation")
        lines += [f"{pad}{kind} J{j}", f"{pad}{{", f"{pad}  OFFSET 0.0000 5.0000 0.0000",
                  f"{pad}  {chans}"]
    pad = "  " * joints
    lines += [f"{pad}End Site", f"{pad}{{", f"{pad}  OFFSET 0.0000 2.0000 0.0000", f"{pad}}}"]
    lines += ["  " * j + "}" for j in reversed(range(joints))]
    n_cols = 6 + 3 * (joints - 1)
    lines += ["MOTION", f"Frames: {frames}", "Frame Time: 0.033333"]
    # First and third angles drift (and so cross +-180 now and then); the
    # middle one swings within +-60 degrees, away from gimbal lock.
    walk = np.cumsum(rng.normal(scale=0.7, size=(frames, n_cols)), axis=0)
    walk[:, 4::3] = 60.0 * np.sin(np.radians(walk[:, 4::3]))
    walk[:, 3:] = (walk[:, 3:] + 180.0) % 360.0 - 180.0
    body = "\n".join(" ".join(f"{v:.2f}" for v in row) for row in walk)
    return ("\n".join(lines) + "\n" + body + "\n").encode()


def median_seconds(fn, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def parse(data: bytes) -> B.BvhFile:
    return B.parse_bvh(data, "synthetic.bvh")


def parse_and_audit(data: bytes) -> int:
    b = parse(data)
    n = 0
    for j in range(b.n_joints):
        n += len(E.audit_euler(b.euler_degrees(j), b.rotation_order(j)))
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=10_000)
    ap.add_argument("--joints", type=int, default=60)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()

    data = make_bvh(args.frames, args.joints)
    text = data.decode()
    motion_lines = text[text.index("Frame Time:"):].split("\n", 1)[1].splitlines()
    b = parse(data)
    assert np.array_equal(b.motion, np.loadtxt(motion_lines)), "parse disagrees with loadtxt"
    angles = np.stack([b.euler_degrees(j) for j in range(b.n_joints)])

    t_base = median_seconds(lambda: np.loadtxt(motion_lines), args.repeats)
    t_parse = median_seconds(lambda: parse(data), args.repeats)
    t_both = median_seconds(lambda: parse_and_audit(data), args.repeats)
    t_filter = median_seconds(lambda: E.euler_filter(angles, "ZXY"), args.repeats)

    print(f"synthetic BVH: {args.frames} frames, {args.joints} joints, "
          f"{b.motion.shape[1]} channels, {len(data) / 2**20:.1f} MiB, "
          f"{parse_and_audit(data)} findings")
    print(f"np.loadtxt of the motion block : {t_base * 1e3:8.1f} ms  (baseline)")
    print(f"parse_bvh                      : {t_parse * 1e3:8.1f} ms  ratio {t_parse / t_base:.2f}")
    print(f"parse_bvh + audit_euler        : {t_both * 1e3:8.1f} ms  ratio {t_both / t_base:.2f}")
    print(f"euler_filter (all joints)      : {t_filter * 1e3:8.1f} ms  "
          f"ratio {t_filter / t_base:.2f}")


if __name__ == "__main__":
    main()
