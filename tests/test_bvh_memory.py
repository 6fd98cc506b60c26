"""BVH memory is bounded by the file: a few times its text, whatever its frame count.

docs/formats.md, "BVH": the frame lines are parsed block by block into one
``(F, C)`` array allocated from the declared counts, audited and filtered a
block of frames at a time, and written back block by block. Measured as the
peak resident set of ``quatlab check`` and ``quatlab fix`` in child
processes (tests/child_rss.py) on a generated 16 MiB file of short numbers
(2 joints, 9 channels a frame: the most numbers per byte of text), minus the
same command's peak on a one-frame file (the interpreter and the imports). The
file of random picks has findings on most frames (the audit's caps matter);
the smooth one is what ``fix`` mostly copies. benchmarks/bench_bvh_scale.py
measures the same at 200 MB.
"""

from __future__ import annotations

import numpy as np
import pytest
from bvh_forge import short_numbers
from child_rss import run_quatlab

from quatlab.app.commands.cli import main
from quatlab.app.io import bvh as B
from quatlab.app.io.bvh import motion as M

SIZE = 16 << 20
#: Peak memory above the baseline per byte of the file (the old reader: 20x for
#: check, 24x and more for fix).
BOUND = 8.0


def _peak_mib(argv: list[str]) -> float:
    _seconds, peak, status, err = run_quatlab(argv)
    assert status in (0, 1) and not err, err
    return peak


@pytest.mark.parametrize("command, smooth", [("check", False), ("fix", True)])
def test_peak_memory_is_a_few_times_the_file(tmp_path, command, smooth):
    big, tiny = tmp_path / "big.bvh", tmp_path / "tiny.bvh"
    big.write_bytes(short_numbers(SIZE, smooth=smooth))
    tiny.write_bytes(short_numbers(100, smooth=smooth))
    extra = [] if command == "check" else [str(tmp_path / "out.bvh")]
    base = _peak_mib([command, str(tiny), *[e.replace("out", "out0") for e in extra]])
    peak = _peak_mib([command, str(big), *extra])
    ratio = (peak - base) / (big.stat().st_size / 2**20)
    print(f"{command}: {peak:.0f} MiB peak, {ratio:.2f}x the file above {base:.0f} MiB")
    assert ratio < BOUND, f"{command}: {peak:.0f} MiB peak, {ratio:.2f}x the file above {base:.0f}"


def test_a_failed_allocation_is_one_line(tmp_path, capsys, monkeypatch):
    path = tmp_path / "a.bvh"
    path.write_bytes(short_numbers(2000))

    def no_memory(shape, *args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(M.np, "empty", no_memory)
    with pytest.raises(B.BvhError, match=r"line 17: not enough memory for 50 frames of 9 "
                                         r"channels \(3.6e-06 GB of numbers\)"):
        B.read_bvh(path)
    for argv in (["check", str(path)], ["fix", str(path), str(tmp_path / "o.bvh")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and "not enough memory" in err and str(path) in err


def test_memory_running_out_later_is_one_line_too(tmp_path, capsys, monkeypatch):
    from quatlab.app.io.bvh import keyframes

    path = tmp_path / "a.bvh"
    path.write_bytes(short_numbers(2000))

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(keyframes.B, "joint_rotations", no_memory)
    monkeypatch.setattr(keyframes.B, "filtered_motion", no_memory)
    for argv in (["check", str(path)], ["fix", str(path), str(tmp_path / "o.bvh")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"quatlab {argv[0]}: error: {path}: not enough memory"), err
        assert len(err.splitlines()) == 1


def test_blocks_give_the_same_numbers_and_bytes(tmp_path, monkeypatch):
    # Blocks of a few lines (a block boundary in every few frames, CRLF ends,
    # a last line without its end) read and write what one block does.
    text = short_numbers(4000).replace(b"\n", b"\r\n")[:-2]
    whole = B.parse_bvh(text, "a.bvh")
    monkeypatch.setattr(M, "CHUNK", 97)
    small = B.parse_bvh(text, "a.bvh")
    assert np.array_equal(small.motion, whole.motion)
    new = whole.motion + 360.0 * (np.arange(whole.motion.size).reshape(whole.motion.shape) % 3 == 0)
    assert B.format_bvh(small, new) == B.format_bvh(whole, new)
    assert B.format_bvh(small, small.motion) == text
