"""Benchmark every runtime player (docs/runtimes.md) against a numpy copy of the keys.

Run on demand from the repository root (not part of the test suite)::

    python benchmarks/bench_runtimes.py [--tracks 1000] [--keys 1000] [--rate 4]
                                        [--chunk 100] [--repeat 3] [--only ID,ID]

What is timed: each player of ``quatlab.math.runtimes.RUNTIMES`` plays
``tracks`` x ``keys`` keys (10^6 by default: 1,000 tracks of 1,000 keys at
30 keys per second, shared times) at ``rate`` times the key rate (4,000
samples per track), through ``quatlab.math.runtimes.play`` as a caller would,
``chunk`` tracks per call (the output of all of it at once would be 128 MB).
The keys are a random walk of 1 to 11 degrees a key about changing axes,
unit length, each key negated with probability 0.05, so the sign tests and
fix-ups have work to do.

The baseline, timed in the same run on the same keys, is ``np.copy`` of the
key array (32 MB): memory traffic every player pays at least once. Each
measurement runs once untimed (warm-up), then ``--repeat`` times; the median
is reported with its ratio to the copy's median. A last line checks the
outputs: the largest angle between the reference and three.js over all
samples after the keys are made sign-continuous (a few nano-degrees: the
two compute the same motion).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from quatlab.math import quaternion as Q
from quatlab.math import runtimes as R
from quatlab.math.runtime_players import align_tracks


def make_keys(tracks: int, keys: int, seed: int = 1) -> np.ndarray:
    """``(tracks, keys, 4)`` unit keys: random walks with 5 % of the keys stored as -q."""
    rng = np.random.default_rng(seed)
    q = np.empty((tracks, keys, 4))
    start = rng.normal(size=(tracks, 4))
    q[:, 0] = start / np.linalg.norm(start, axis=1, keepdims=True)
    axes = rng.normal(size=(tracks, keys, 3))
    steps = np.radians(rng.uniform(1.0, 11.0, size=(tracks, keys)))
    turns = Q.from_axis_angle(axes, steps)
    for i in range(1, keys):
        q[:, i] = Q.multiply(q[:, i - 1], turns[:, i])
    q[rng.random((tracks, keys)) < 0.05] *= -1
    return q


def median_time(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tracks", type=int, default=1000)
    ap.add_argument("--keys", type=int, default=1000)
    ap.add_argument("--rate", type=float, default=4.0, help="samples per key interval")
    ap.add_argument("--chunk", type=int, default=100, help="tracks per player call")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", help="comma-separated runtime ids (default: all)")
    args = ap.parse_args(argv)

    keys = make_keys(args.tracks, args.keys)
    times = np.arange(args.keys) / 30.0
    t = np.linspace(times[0], times[-1], int(round(args.keys * args.rate)))
    ids = R.parse_runtimes(args.only or "all")

    copy = median_time(lambda: np.copy(keys), args.repeat)
    print(f"{args.tracks} tracks x {args.keys} keys = {keys.shape[0] * keys.shape[1]:,} keys, "
          f"{len(t)} samples a track ({args.rate:g}x the key rate), {args.chunk} tracks a call")
    print(f"baseline np.copy(keys): {copy * 1e3:8.1f} ms")
    print(f"{'runtime':16s} {'median':>10s} {'/ copy':>8s}")

    def run(rid):
        for a in range(0, keys.shape[0], args.chunk):
            R.play(rid, keys[a:a + args.chunk], times, t)

    for rid in ids:
        seconds = median_time(lambda rid=rid: run(rid), args.repeat)
        print(f"{rid:16s} {seconds * 1e3:8.0f} ms {seconds / copy:8.1f}")

    sample = align_tracks(keys[: args.chunk])
    ref = R.play("gltf", sample, times, t)
    three = R.play("three", sample, times, t)
    worst = float(np.degrees(np.max(Q.angle_between(ref, three))))
    print(f"check: gltf vs three.js on sign-continuous keys, largest angle {worst:.2e} deg")


if __name__ == "__main__":
    main()
