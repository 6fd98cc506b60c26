"""Independent readings of the BVH test files for oracles: np.loadtxt and scipy, not our reader."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy.spatial.transform import Rotation

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "bvh"
MOCAPBANK = DATA / "test_mocapbank.bvh"
FREEBVH = DATA / "test_freebvh.bvh"


def motion_of(path) -> np.ndarray:
    """The MOTION values by hand: every line after 'Frame Time:' through np.loadtxt."""
    lines = Path(path).read_bytes().decode().replace("\r\n", "\n").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("Frame Time")) + 1
    return np.loadtxt([s for s in lines[start:] if s.strip()], ndmin=2)


def rotation_columns(path) -> dict[str, tuple[list[int], str]]:
    """Joint name -> (motion columns of its rotation channels, scipy order), by hand."""
    out, col, joint = {}, 0, None
    for line in Path(path).read_text().splitlines():
        tok = line.split()
        if tok and tok[0] in ("ROOT", "JOINT"):
            joint = tok[1]
        elif tok and tok[0] == "CHANNELS":
            names = tok[2:]
            rot = [i for i, n in enumerate(names) if n.endswith("rotation")]
            out[joint] = ([col + i for i in rot], "".join(names[i][0] for i in rot))
            col += len(names)
        elif tok and tok[0] == "MOTION":
            break
    return out


def scipy_quats(path, joint) -> np.ndarray:
    cols, order = rotation_columns(path)[joint]
    xyzw = Rotation.from_euler(order, motion_of(path)[:, cols], degrees=True).as_quat()
    return np.concatenate([xyzw[:, 3:], xyzw[:, :3]], axis=1)
