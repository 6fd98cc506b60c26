"""Speed of the keyframe audit and sign fix, relative to copying the same keys.

Audits and sign-fixes 1,000 tracks of 1,000 keys (1,000,000 quaternions,
(w, x, y, z)) with :mod:`quatlab.math.audit` and compares the time with one
``numpy`` copy of the same key array, measured in the same run: the ratio is
what the target (at most 10x) is about, since it does not depend on the
machine's speed the way milliseconds do. The copy is timed next to each run
(copy, work, copy, work...), so both see the same load on a shared machine;
each ratio is the median of the ``--repeats`` per-run ratios.

The tracks are smooth random walks on S3 whose keys are stored as q or -q at
random (the worst case for sign repair: about half the segments flip), with
strictly increasing times.

The one-track figure is bimodal on a virtual machine that hands freed
memory back to its host (free page reporting, as on the 2-core test
machine, docs/environment.md "Memory"): pages the process freed and then
faults in again a few seconds later cost the host a zero-fill each, about
1.5 ms per MB, where a page still held costs 0.2. The work's 32 MB result
then takes 60-90 ms of system time on its own, and the run reads 30-40x;
numpy's huge-page advice for arrays of 4 MB and more makes this likelier
(``NUMPY_MADVISE_HUGEPAGE=0`` takes it out, and every fresh 4 kB page then
costs about 1.5 us instead). The figure of a run in the usual state, and
the user and system time of a slow one, tell the two apart.

Run: ``python benchmarks/bench_keyframes.py [--tracks 1000] [--keys 1000] [--repeats 9]``
"""

from __future__ import annotations

import argparse
import resource
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


def paired(baseline, work, repeats: int, setup=None) -> dict:
    """Work timed after two baseline copies, ``repeats`` times (copy, copy kept, work...).

    Two copies per run, because what a 32 MB copy costs depends on where its
    memory comes from: the first one after the work released its arrays
    faults fresh pages in (as the work's own result must), the second reuses
    the first's. Returns the median seconds of the cheaper and the dearer
    copy of each run (``"cheap"``, ``"dear"``) and of the work (``"work"``),
    and the work's system time (``"system"``, page faults mostly),
    and the medians of the per-run ratios against each (``"ratio"`` against
    the cheaper copy: the strict figure the target is checked on;
    ``"ratio_dear"``). ``setup`` runs before each work run, outside the
    timing. Times are the process's CPU time: on a machine shared with other
    jobs, wall time mostly measures them.
    """
    cheap, dear, done, system = [], [], [], []

    def timed(fn):
        start = time.process_time()
        result = fn()
        return time.process_time() - start, result

    for _ in range(repeats):
        first, _ = timed(baseline)
        second, kept = timed(baseline)
        if setup is not None:
            setup()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_stime
        seconds, result = timed(work)
        system.append(resource.getrusage(resource.RUSAGE_SELF).ru_stime - before)
        cheap.append(min(first, second))
        dear.append(max(first, second))
        done.append(seconds)
        del kept, result  # held through the work, then released together
    return {
        "cheap": statistics.median(cheap), "dear": statistics.median(dear),
        "work": statistics.median(done), "system": statistics.median(system),
        "ratio": statistics.median(w / c for w, c in zip(done, cheap, strict=True)),
        "ratio_dear": statistics.median(w / c for w, c in zip(done, dear, strict=True)),
    }


def _line(name: str, r: dict, target: float) -> str:
    verdict = "met" if r["ratio"] <= target else "MISSED"
    return (f"{name}: {r['work'] * 1e3:7.2f} ms = {r['ratio']:4.1f}x the cheaper copy "
            f"({r['cheap'] * 1e3:.2f} ms; {r['ratio_dear']:4.1f}x the copy into fresh pages, "
            f"{r['dear'] * 1e3:.2f} ms); target <= {target:.0f}x -> {verdict}"
            f"\n    of the work, system time (page faults): {r['system'] * 1e3:.1f} ms; "
            f"the rest is {(r['work'] - r['system']) / r['cheap']:.1f}x the cheaper copy")


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

    # The baseline is measured next to each run (copy, work, copy, work...) so
    # that both see the same load on a shared machine; the ratio reported is
    # the median of the per-run ratios against the cheaper copy.
    audit_only = paired(values.copy, lambda: audit.audit_keys(values), args.repeats)
    both = paired(values.copy, lambda: audit_and_fix(values, times), args.repeats)
    ratio = both["ratio"]
    print(f"keys: {n:,} ({args.tracks} tracks x {args.keys} keys), repeats: {args.repeats}, "
          f"keys negated by the fix: {int(flipped.sum()):,}")
    print(_line("audit only      ", audit_only, TARGET_RATIO))
    print(_line("audit + sign fix", both, TARGET_RATIO))

    # What `quatlab fix` runs on one track of all the keys: the file-level
    # audit (findings, capped per track) and fix_track, against the same copy.
    track = Track(times=np.arange(n) / 30.0, values=values.reshape(-1, 4))
    flat = track.values
    # A fresh track each time (made outside the timing): the audit of a loaded,
    # read-only track is kept once computed, which must not flatter the figure.
    fresh = []

    def setup():
        fresh.append(Track(times=track.times.copy(), values=flat.copy()))

    def one_track():
        t = fresh.pop()
        return audit_track(t), fix_track(t)

    one = paired(flat.copy, one_track, args.repeats, setup)
    track_ratio = one["ratio"]
    print(_line(f"one {n:,}-key track, audit_track + fix_track", one, TRACK_TARGET_RATIO))
    return 0 if ratio <= TARGET_RATIO and track_ratio <= TRACK_TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
