"""Speed of the keyframe audit and sign fix, relative to copying the same keys.

Audits and sign-fixes 1,000 tracks of 1,000 keys (1,000,000 quaternions,
(w, x, y, z)) with :mod:`quatlab.math.audit` and compares the time with one
``numpy`` copy of the same key array, measured in the same run: the ratio is
what the target (at most 10x) is about, since it does not depend on the
machine's speed the way milliseconds do. Each figure is the median of
``--repeats`` runs.

The tracks are smooth random walks on S3 whose keys are stored as q or -q at
random (the worst case for sign repair: about half the segments flip), with
strictly increasing times.

Run: ``python benchmarks/bench_keyframes.py [--tracks 1000] [--keys 1000] [--repeats 9]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from quatlab.app.io.track_audit import audit_track, fix_track
from quatlab.app.io.tracks import Track
from quatlab.math import audit
from quatlab.math import quaternion as Q

TARGET_RATIO = 10.0
#: audit_track + fix_track of one track of all the keys, against a copy of them.
TRACK_TARGET_RATIO = 10.0


def make_tracks(tracks: int, keys: int, seed: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """Random smooth tracks ``(tracks, keys, 4)`` with random signs, and their times."""
    rng = np.random.default_rng(seed)
    steps = Q.from_rotvec(rng.normal(scale=0.05, size=(tracks, keys, 3)))
    values = np.empty((tracks, keys, 4))
    values[:, 0] = Q.normalize(rng.normal(size=(tracks, 4)))
    # Compose the small steps along each track (vectorized over tracks).
    for k in range(1, keys):
        values[:, k] = Q.multiply(values[:, k - 1], steps[:, k])
    values *= rng.choice([-1.0, 1.0], size=(tracks, keys, 1))
    times = np.broadcast_to(np.arange(keys) / 30.0, (tracks, keys)).copy()
    return values, times


def median_seconds(fn, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def audit_and_fix(values: np.ndarray, times: np.ndarray):
    report = audit.audit_keys(values)
    order = audit.time_order(times)
    fixed, flipped = audit.sign_continuity(values, audit=report)
    return report, order, fixed, flipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tracks", type=int, default=1000)
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args(argv)

    values, times = make_tracks(args.tracks, args.keys)
    n = values.shape[0] * values.shape[1]
    # Warm up both paths once so neither pays for first-touch page faults.
    values.copy()
    _, _, fixed, flipped = audit_and_fix(values, times)

    t_copy = median_seconds(values.copy, args.repeats)
    t_audit = median_seconds(lambda: audit.audit_keys(values), args.repeats)
    t_work = median_seconds(lambda: audit_and_fix(values, times), args.repeats)
    ratio = t_work / t_copy

    print(f"keys: {n:,} ({args.tracks} tracks x {args.keys} keys), repeats: {args.repeats}")
    print(f"numpy copy of the keys:  {t_copy * 1e3:8.2f} ms")
    print(f"audit only:              {t_audit * 1e3:8.2f} ms  ({t_audit / t_copy:5.1f}x copy)")
    print(f"audit + sign fix:        {t_work * 1e3:8.2f} ms  ({ratio:5.1f}x copy)")
    print(f"throughput:              {n / t_work / 1e6:8.1f} M keys/s")
    print(f"keys negated by the fix: {int(flipped.sum()):,}")
    print(f"target: <= {TARGET_RATIO:.0f}x copy -> {'met' if ratio <= TARGET_RATIO else 'MISSED'}")

    # What `quatlab fix` runs on one track of all the keys: the file-level
    # audit (findings, capped per track) and fix_track, against the same copy.
    track = Track(times=np.arange(n) / 30.0, values=values.reshape(-1, 4))
    flat = track.values
    t_copy1 = median_seconds(flat.copy, args.repeats)
    # A fresh track each time (outside the timing): the audit of a loaded,
    # read-only track is kept once computed, which must not flatter the figure.
    samples = []
    for _ in range(args.repeats):
        fresh = Track(times=track.times.copy(), values=flat.copy())
        start = time.perf_counter()
        audit_track(fresh)
        fix_track(fresh)
        samples.append(time.perf_counter() - start)
    t_track = statistics.median(samples)
    track_ratio = t_track / t_copy1
    print(f"one {n:,}-key track, audit_track + fix_track: {t_track * 1e3:8.2f} ms "
          f"({track_ratio:5.1f}x copy; target <= {TRACK_TARGET_RATIO:.0f}x -> "
          f"{'met' if track_ratio <= TRACK_TARGET_RATIO else 'MISSED'})")
    return 0 if ratio <= TARGET_RATIO and track_ratio <= TRACK_TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
