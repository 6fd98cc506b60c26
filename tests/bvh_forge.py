"""BVH files generated for the scale tests and benchmarks (plain text, no QuatLab code).

* :func:`short_numbers` : a valid file of about ``size`` bytes, 2 joints and 9
  channels a frame, every value a short number ("12.5", "-3"): the shape
  whose text is smallest per value, so memory per byte of file is largest.
* :func:`many_joints` : ``joints`` joints under one root, 3 rotation channels
  each, a few frames: hierarchy work dominates.
"""

from __future__ import annotations

import numpy as np

HEADER_2_JOINTS = (
    "HIERARCHY\n"
    "ROOT Hips\n{\n  OFFSET 0 0 0\n"
    "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    "  JOINT Knee\n  {\n    OFFSET 0 -10 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "    End Site\n    {\n      OFFSET 0 -10 0\n    }\n  }\n}\n"
    "MOTION\n"
)


def short_numbers_rows(frames: int, seed: int = 1, smooth: bool = False) -> bytes:
    """``frames`` lines of 9 short values (1-4 characters, some negative, some with .5).

    Random picks from -90 to 90 in steps of 0.5 (every frame far from the last:
    findings everywhere), or with ``smooth`` a walk of at most one step a frame
    (no wrap, few findings: ``fix`` changes little).
    """
    rng = np.random.default_rng(seed)
    # A small table of short tokens; rows are picks from it, built in blocks
    # so that generating a big file needs little memory beyond the result.
    tokens = np.array([f"{v:g}" for v in np.arange(-90, 90.5, 0.5)], dtype=object)
    out = []
    block = 100_000
    at = np.full(9, len(tokens) // 2)
    for start in range(0, frames, block):
        n = min(block, frames - start)
        if smooth:
            walk = at + np.cumsum(rng.integers(-1, 2, size=(n, 9)), axis=0)
            index = np.abs((walk + len(tokens)) % (2 * len(tokens) - 2) - len(tokens) + 1)
            index = len(tokens) - 1 - index      # reflected into the table, no jumps
            at = walk[-1]
        else:
            index = rng.integers(len(tokens), size=(n, 9))
        picks = tokens[index]
        out.append(("\n".join(" ".join(r) for r in picks.tolist()) + "\n").encode("ascii"))
    return b"".join(out)


def short_numbers(size: int, seed: int = 1, smooth: bool = False) -> bytes:
    """A valid BVH of about ``size`` bytes (see the module documentation)."""
    frames = max(1, size // 40)  # about 4.3 bytes per value with its space, 9 a line
    rows = short_numbers_rows(frames, seed, smooth)
    return (HEADER_2_JOINTS + f"Frames: {frames}\nFrame Time: 0.0083333\n").encode() + rows


def many_joints(joints: int, frames: int = 4, seed: int = 2) -> bytes:
    """A valid BVH with ``joints`` joints (a root and ``joints - 1`` children of it)."""
    rng = np.random.default_rng(seed)
    lines = ["HIERARCHY", "ROOT J0", "{", "  OFFSET 0 0 0",
             "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"]
    for j in range(1, joints):
        lines += [f"  JOINT J{j}", "  {", "    OFFSET 0 1 0",
                  "    CHANNELS 3 Zrotation Xrotation Yrotation", "  }"]
    lines += ["}", "MOTION", f"Frames: {frames}", "Frame Time: 0.04"]
    values = rng.integers(-170, 171, size=(frames, 6 + 3 * (joints - 1)))
    lines += [" ".join(map(str, row)) for row in values.tolist()]
    return ("\n".join(lines) + "\n").encode("ascii")
