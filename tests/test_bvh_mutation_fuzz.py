"""Fuzz: random mutations of real BVH files never end in a traceback, in any command.

The two real files (tests/data/bvh, cut to their first 24 frames so a case
runs in milliseconds) are mutated at the token and line level: keywords,
braces and channel names swapped, deleted or duplicated; numbers made huge,
negative, non-finite or malformed; counts (``Frames:``, ``CHANNELS``) made
negative or absurd; lines dropped, repeated or cut. ``quatlab check``,
``check --json`` and ``fix`` run in process and must exit 0, 1 or 2; exit 2
comes with one stderr line naming the file, no warning is printed, and a
written copy holds the same rotations and positions as the input
(docs/formats.md, "BVH"). The seed is fixed, so CI runs the same cases.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from cli_cases import run_case

from quatlab.app.commands.cli import main
from quatlab.app.io import bvh as B

DATA = Path(__file__).parent / "data" / "bvh"
FRAMES = 24
CASES = 80             # per file

# Words of the grammar and oddities, for any token; numbers (mostly valid,
# some at or past the limits) for the numbers, which are most of a file.
WORDS = ["{", "}", "ROOT", "JOINT", "End", "Site", "OFFSET", "CHANNELS", "MOTION", "Frames:",
         "Frame", "Time:", "HIERARCHY", "Xrotation", "Zrotation", "Yposition", "Wrotation",
         "\x00", "\u0661", "\ufeff", "\r", "\x0c", "é", "0x10", "1_0", "1.2.3", "--1", "nan",
         "-inf", "1e999", "99999999999999999999"]
NUMBERS = ["0", "-0", "1", "-1", "3", "6", "180", "-180", "179.999", "181", "360", "-540",
           "89.99", "90", "-90.0001", "1e8", "-1e8", "1e9", "1e-300", "5e-324", "+4", ".5", "5.",
           "1E2", "1e308", "-1e308", "2e9"]


def _trimmed(path: Path) -> bytes:
    """The file with only its first FRAMES frames (its own line ends kept)."""
    data = path.read_bytes()
    nl = b"\r\n" if b"\r\n" in data else b"\n"
    head, _sep, rest = data.partition(b"Frame Time:")
    time_line, _nl, frames = rest.partition(nl)
    rows = frames.split(nl)[:FRAMES]
    head = re.sub(rb"Frames:\s*\d+", b"Frames: %d" % FRAMES, head)
    return head + b"Frame Time:" + time_line + nl + nl.join(rows) + nl


def _mutate(data: bytes, rng: np.random.Generator) -> tuple[bytes, list]:
    done = []
    for _ in range(int(rng.integers(1, 3))):
        roll = rng.random()
        if roll < 0.7:                          # a token replaced, removed or doubled
            parts = re.split(rb"(\s+)", data)
            words = [i for i, p in enumerate(parts) if p and not p.isspace()]
            i = words[int(rng.integers(len(words)))]
            numeric = re.fullmatch(rb"[-+0-9.eE]+", parts[i]) is not None
            pool = NUMBERS if numeric and rng.random() < 0.85 else WORDS
            new = pool[int(rng.integers(len(pool)))].encode()
            how = rng.random()
            parts[i] = new if how < 0.9 else b"" if how < 0.95 else parts[i] + b" " + parts[i]
            done.append(("token", i, new))
            data = b"".join(parts)
        elif roll < 0.85:                       # a line dropped, repeated, moved or added
            lines = data.split(b"\n")
            i, j = (int(x) for x in rng.integers(len(lines), size=2))
            how = rng.random()
            if how < 0.3:
                del lines[i]
            elif how < 0.6:
                lines.insert(j, lines[i])
            elif how < 0.8:
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines.insert(j, rng.choice([b"}", b"{", b"ROOT Extra", b"End Site"]))
            done.append(("line", i, j, round(how, 2)))
            data = b"\n".join(lines)
        elif roll < 0.93:                       # a count made absurd
            data, n = re.subn(rb"(Frames:|CHANNELS)\s+\d+", lambda m: m.group(1) + b" " + str(
                int(rng.choice([-3, 0, 1, 2**31, 10**12]))).encode(), data, count=1)
            done.append(("count", n))
        else:                                   # cut anywhere
            cut = int(rng.integers(len(data) + 1))
            data = data[:cut]
            done.append(("cut", cut))
    return data, done


@pytest.mark.filterwarnings("error")  # a numpy warning on stderr is a failure too
@pytest.mark.parametrize("name", ["test_mocapbank.bvh", "test_freebvh.bvh"])
def test_mutated_real_bvh_files_never_raise(tmp_path, capsys, name):
    rng = np.random.default_rng(2027)
    source = _trimmed(DATA / name)
    assert main(["check", "--json", _write(tmp_path / "plain.bvh", source)]) in (0, 1)
    capsys.readouterr()
    statuses = {0: 0, 1: 0, 2: 0}
    for i in range(CASES):
        data, done = _mutate(source, rng)
        case = f"{name} #{i} {done!r:.300}"
        path = tmp_path / f"m{i}.bvh"
        path.write_bytes(data)
        status = run_case(capsys, ["check", str(path)], path, case)
        statuses[status] += 1
        assert run_case(capsys, ["check", "--json", str(path)], path, case) == status
        out = tmp_path / f"o{i}.bvh"
        fixed = run_case(capsys, ["fix", str(path), str(out)], path, case)
        assert (fixed == 2) == (status == 2), case
        if fixed == 0:
            _assert_same_pose(path, out, case)
        path.unlink()
        out.unlink(missing_ok=True)
    # Both outcomes must be exercised, or the test proves nothing.
    assert statuses[2] > 15 and statuses[0] + statuses[1] > 15, statuses


def _assert_same_pose(src: Path, out: Path, case: str) -> None:
    """The Euler filter changes how rotations are stored, never a rotation or a position."""
    a, b = B.read_bvh(src), B.read_bvh(out)
    assert np.array_equal(a.motion.shape, b.motion.shape), case
    for j in range(a.n_joints):
        dots = np.abs(np.einsum("ij,ij->i", B.joint_rotations(a, j), B.joint_rotations(b, j)))
        assert np.allclose(dots, 1.0, atol=1e-6), (case, a.names[j], dots.min())
    positions = [c for c, name in enumerate(n for cs in a.channels for n in cs)
                 if name.endswith("position")]
    assert np.array_equal(a.motion[:, positions], b.motion[:, positions]), case


def _write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)
