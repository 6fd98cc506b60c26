"""Benchmark batched shortest-arc SLERP: QuatLab against numpy-quaternion and scipy.

Run on demand from the repository root (not part of the test suite)::

    python benchmarks/bench_slerp.py [--n 1000000] [--repeat 5] [--t T] [--profile]

What is timed, per implementation, on the same ``n`` random pairs (uniform on
S3: normalized Gaussian 4-vectors, fixed seed) and the same parameters:

* **QuatLab**: ``quatlab.math.interpolate.slerp(q0, q1, t)`` with its default
  ``shortest=True``: input validation (finite, non-zero, shape, t in [0, 1]),
  normalization and the hemisphere flip are *inside* the timing, because every
  caller pays for them.
* **numpy-quaternion**: the ufunc ``np.slerp_vectorized(a, b, t)`` that
  ``import quaternion`` registers (the package has no
  ``quaternion.slerp_vectorized``). It does **not** flip hemispheres, so the
  end points are flipped into q0's hemisphere beforehand, outside the timing,
  so that it does the same (shortest) work; the conversion to its quaternion
  dtype is outside the timing too. It does no validation at all.
* **scipy**: the relative-rotation-vector route
  ``r0 * Rotation.from_rotvec((r0.inv() * r1).as_rotvec() * t[:, None])``;
  ``as_rotvec`` takes the short way by itself. Building ``r0``/``r1`` (which
  normalizes) is outside the timing.

``t`` is random per pair (uniform in [0, 1]) by default: that is how an
animation samples many joints at different phases, and no implementation can
hoist a shared weight out of its loop. ``--t T`` uses one fixed value for
every pair instead (still passed as an array, the same for all three).

Each implementation runs once untimed (warm-up), then ``--repeat`` times; the
median is reported with the ratios QuatLab / numpy-quaternion and
QuatLab / scipy (below 1 means QuatLab is faster). The three results are then
compared (largest rotation angle between them, sign-invariant) so the timing
compares equal work. ``--profile`` adds a stage-by-stage breakdown of
QuatLab's slerp and the effect of its chunk size (set at run time on the
imported module; the source is not changed).

OPENBLAS_CORETYPE, set on some machines, is irrelevant here: everything timed
is elementwise numpy or compiled loops, not BLAS.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time

import numpy as np


def _import_or_exit(name: str):
    try:
        return importlib.import_module(name)
    except ImportError:
        sys.exit(f"{name} is not installed: pip install 'quatlab[bench]'")


def make_inputs(n: int, seed: int, fixed_t: float | None):
    """Random unit pairs (w, x, y, z) and parameters, reproducible from ``seed``."""
    rng = np.random.default_rng(seed)
    q0 = rng.normal(size=(n, 4))
    q1 = rng.normal(size=(n, 4))
    q0 /= np.linalg.norm(q0, axis=1, keepdims=True)
    q1 /= np.linalg.norm(q1, axis=1, keepdims=True)
    t = rng.uniform(0.0, 1.0, n) if fixed_t is None else np.full(n, fixed_t)
    return q0, q1, t


def time_call(fn, repeat: int) -> list[float]:
    fn()  # warm-up: page-faults the output buffers, loads code
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def max_angle(Q, a: np.ndarray, b: np.ndarray) -> float:
    """Largest rotation angle (rad) between two (n, 4) wxyz arrays, sign-invariant."""
    return float(np.max(Q.angle_between(a, b)))


def profile_quatlab(interpolate, q0, q1, t, repeat: int) -> None:
    """Stage timings of interpolate.slerp and a sweep of its chunk size."""
    from quatlab.math.quaternion import as_quaternion

    n = q0.shape[0]
    print("\nQuatLab slerp, stage by stage (median ms):")

    def stage(label, fn):
        ms = 1e3 * statistics.median(time_call(fn, repeat))
        print(f"  {label:<46s} {ms:9.1f}")
        return ms

    a = as_quaternion(q0, "q0")
    b = as_quaternion(q1, "q1")
    stage("as_quaternion(q0) (validate + normalize)", lambda: as_quaternion(q0, "q0"))
    stage("as_parameter(t)", lambda: interpolate.as_parameter(t))
    stage("_prepare (both + t + broadcast + flip)", lambda: interpolate._prepare(q0, q1, t, True))
    pa, pb, pt = interpolate._prepare(q0, q1, t, True)
    chunk = interpolate._CHUNK

    def loop(with_frame=True, with_trig=True):
        out = np.empty(pa.shape)
        for s in range(0, n, chunk):
            sl = slice(s, s + chunk)
            omega, u = interpolate.arc_frame(pa[sl], pb[sl])
            if with_trig:
                angle = pt[sl] * omega
                out[sl] = np.cos(angle)[:, None] * pa[sl] + np.sin(angle)[:, None] * u
        return out

    stage(f"chunk loop: arc_frame only (chunk {chunk})", lambda: loop(with_trig=False))
    stage("chunk loop: arc_frame + cos/sin + blend", lambda: loop())
    stage("arc_frame on the whole array (no chunks)", lambda: interpolate.arc_frame(pa, pb))
    ang = pt * np.pi
    stage("np.cos + np.sin of n angles", lambda: (np.cos(ang), np.sin(ang)))
    stage("one einsum '...i,...i->...' of (n, 4)", lambda: np.einsum("...i,...i->...", a, b))
    stage("same dot as (a * b).sum(1)", lambda: (a * b).sum(1))
    stage("np.isfinite(q0).all()", lambda: np.isfinite(q0).all())

    print("\nChunk size sweep of interpolate.slerp (module attribute set at run time):")
    original = interpolate._CHUNK
    try:
        for c in (1024, 4096, 16384, 65536, 262144, n):
            interpolate._CHUNK = c
            ms = 1e3 * statistics.median(time_call(lambda: interpolate.slerp(q0, q1, t), repeat))
            print(f"  _CHUNK = {c:>8d}: {ms:9.1f} ms")
    finally:
        interpolate._CHUNK = original


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="number of pairs")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per implementation")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--t", type=float, default=None, help="one fixed t for all pairs")
    parser.add_argument("--profile", action="store_true", help="break down QuatLab's time")
    args = parser.parse_args(argv)
    if args.n < 1 or args.repeat < 1:
        parser.error("--n and --repeat must be positive")
    if args.t is not None and not 0.0 <= args.t <= 1.0:
        parser.error("--t must lie in [0, 1]")

    from quatlab.math import interpolate
    from quatlab.math import quaternion as Q

    quaternion = _import_or_exit("quaternion")
    scipy = _import_or_exit("scipy")
    Rotation = _import_or_exit("scipy.spatial.transform").Rotation

    q0, q1, t = make_inputs(args.n, args.seed, args.t)

    # --- untimed preparation for the other two ------------------------------------
    # numpy-quaternion interpolates the components as given: flip into q0's
    # hemisphere here so it, too, computes the shortest arc.
    d = np.einsum("ij,ij->i", q0, q1)
    q1_flipped = np.where(d[:, None] < 0, -q1, q1)
    nq0 = quaternion.as_quat_array(q0)  # both use (w, x, y, z): no reordering
    nq1 = quaternion.as_quat_array(q1_flipped)
    r0 = Rotation.from_quat(q0, scalar_first=True)
    r1 = Rotation.from_quat(q1, scalar_first=True)
    tcol = t[:, None]

    def run_quatlab():
        return interpolate.slerp(q0, q1, t)

    def run_npq():
        return np.slerp_vectorized(nq0, nq1, t)

    def run_scipy():
        return r0 * Rotation.from_rotvec((r0.inv() * r1).as_rotvec() * tcol)

    print(
        f"shortest SLERP of n = {args.n:,} random pairs, "
        f"{'random t' if args.t is None else f't = {args.t}'}, "
        f"median of {args.repeat} (after one warm-up)"
    )
    print(
        f"numpy {np.__version__}, numpy-quaternion {quaternion.__version__}, "
        f"scipy {scipy.__version__}, Python {sys.version.split()[0]}"
    )
    results = {}
    for label, fn in (
        ("QuatLab interpolate.slerp", run_quatlab),
        ("numpy-quaternion slerp_vectorized", run_npq),
        ("scipy Rotation rotvec route", run_scipy),
    ):
        times = time_call(fn, args.repeat)
        results[label] = statistics.median(times)
        runs = ", ".join(f"{1e3 * x:.1f}" for x in times)
        print(f"  {label:<36s} median {1e3 * results[label]:8.1f} ms   (runs: {runs})")

    ours, npq, sp = results.values()
    print(f"  ratio QuatLab / numpy-quaternion = {ours / npq:.2f}")
    print(f"  ratio QuatLab / scipy            = {ours / sp:.2f}")
    print(f"  per pair: QuatLab {1e9 * ours / args.n:.0f} ns, "
          f"numpy-quaternion {1e9 * npq / args.n:.0f} ns, scipy {1e9 * sp / args.n:.0f} ns")

    # --- equal work: the three agree --------------------------------------------
    a = run_quatlab()
    b = quaternion.as_float_array(run_npq())
    c = run_scipy().as_quat(scalar_first=True)
    ab, ac = max_angle(Q, a, b), max_angle(Q, a, c)
    print("agreement (largest rotation angle between results):")
    print(f"  QuatLab vs numpy-quaternion {ab:.2e} rad    QuatLab vs scipy {ac:.2e} rad")
    # Same hemisphere as numpy-quaternion's (flipped) result, not just the same
    # rotation: both walked the same arc of S3.
    same_sign = bool(np.all(np.einsum("ij,ij->i", a, b) > 0))
    print(f"  QuatLab and numpy-quaternion results in the same hemisphere: {same_sign}")
    ok = ab < 1e-9 and ac < 1e-9 and same_sign

    if args.profile:
        profile_quatlab(interpolate, q0, q1, t, args.repeat)
    if not ok:
        print("DISAGREEMENT: the implementations did not compute the same rotations")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
