"""A small keyframe library for the folder-report tests: flagged, clean and unreadable files."""

from __future__ import annotations

import shutil
from pathlib import Path

from bvh_oracle import FREEBVH, MOCAPBANK

GLTF = Path(__file__).resolve().parent / "data" / "gltf"


def small_library(root: Path) -> Path:
    """``walk.bvh`` (41 findings), ``clean.bvh``, ``tri.gltf`` (a sign flip), ``bad.csv``."""
    root.mkdir(parents=True)
    shutil.copy(MOCAPBANK, root / "walk.bvh")
    shutil.copy(FREEBVH, root / "clean.bvh")
    shutil.copy(GLTF / "AnimatedTriangle.gltf", root / "tri.gltf")
    (root / "bad.csv").write_text("time,w,x,y,z\n0,1,0,0,zero\n")
    return root
