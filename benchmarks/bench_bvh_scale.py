"""BVH at scale: peak memory per byte of file, and time against the number of joints.

    python benchmarks/bench_bvh_scale.py [--size-mb 200] [--joints 1250 2500 5000 10000]

Memory: a valid file of ``--size-mb`` MiB of short numbers (2 joints, 9
channels a frame, tests/bvh_forge.py) is checked (``quatlab check``,
``check --json``) and fixed (``quatlab fix``), each command in its own
child process; the figure is the child's peak resident set
(tests/child_rss.py: measured under a small launcher, so this process's own
memory is not counted) divided by the file's size. The baseline, measured in the
same run, is the same command on a 1-frame file (the interpreter, numpy and
QuatLab's imports); the "above baseline" ratio is what the file costs.
docs/formats.md, "BVH", gives the bound (about 6-8x the text).

Joints: files of ``J`` joints under one root, 3 rotation channels each, 4
frames (bvh_forge.many_joints); the CPU time of ``quatlab check`` per joint
count (CPU, not wall time: the machine is shared), and the ratio of the
largest to the smallest count against the ratio of the counts (linear
growth: the two ratios match; 10,000 / 1,250 joints is 8x).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the generators are shared with the tests
import bvh_forge  # noqa: E402
from child_rss import run_quatlab  # noqa: E402


def run(argv: list[str]) -> tuple[float, float, int]:
    """(CPU seconds, peak RSS in MiB, exit status) of ``quatlab ARGV`` in a child process."""
    seconds, peak, code, err = run_quatlab(argv)
    if code not in (0, 1) or err:
        print(f"  quatlab {' '.join(argv)}: exit {code}: {err[-300:]}")
    return seconds, peak, code


def memory(folder: Path, size_mb: float) -> None:
    big = folder / "big.bvh"
    big.write_bytes(bvh_forge.short_numbers(int(size_mb * 2**20)))
    tiny = folder / "tiny.bvh"
    tiny.write_bytes(bvh_forge.short_numbers(100))
    size = big.stat().st_size / 2**20
    print(f"short numbers: {size:.1f} MiB, 2 joints, 9 channels a frame")
    for name, argv in (("check", ["check", "{}"]), ("check --json", ["check", "--json", "{}"]),
                       ("fix", ["fix", "{}", "{out}"])):
        def args(path, tag, argv=argv):
            out = folder / f"out-{tag}.bvh"
            out.unlink(missing_ok=True)
            return [a.format(path, out=out) for a in argv]

        _t0, base, _c0 = run(args(tiny, "tiny"))
        seconds, peak, _code = run(args(big, "big"))
        print(f"  {name:13s} peak {peak:8.0f} MiB = {peak / size:5.2f}x the file; above the "
              f"baseline ({base:.0f} MiB) {(peak - base) / size:5.2f}x; {seconds:6.2f} s CPU")


def joints(folder: Path, counts: list[int]) -> None:
    times = {}
    for n in counts:
        path = folder / f"j{n}.bvh"
        path.write_bytes(bvh_forge.many_joints(n))
        seconds, peak, _code = run(["check", str(path)])
        times[n] = seconds
        print(f"  {n:6d} joints: check {seconds:6.2f} s CPU ({seconds / n * 1e3:.3f} ms a joint), "
              f"peak {peak:.0f} MiB")
    lo, hi = min(counts), max(counts)
    print(f"  time ratio {hi}/{lo} joints: {times[hi] / times[lo]:.1f} "
          f"(linear: {hi / lo:.1f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=float, default=200.0)
    ap.add_argument("--joints", type=int, nargs="*", default=[1250, 2500, 5000, 10000])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.size_mb > 0:
            memory(Path(tmp), args.size_mb)
        if args.joints:
            joints(Path(tmp), args.joints)


if __name__ == "__main__":
    main()
