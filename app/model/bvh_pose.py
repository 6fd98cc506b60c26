"""The pose of a BVH file at a time, as ``quatlab pose`` prints it for glTF. No Qt.

:func:`pose_report_bvh` returns the dict of
:func:`quatlab.app.model.rig.pose_report` (``file``, ``animation``, ``time``,
``player``, ``nodes``, ``skins``) for a BVH file (docs/formats.md, "BVH"):
the joints are the nodes (file order, parents first, ``world`` a row-major
4x4 with ``world = parent_world @ local`` and ``local = T(offset + position
channels) R``), and the skeleton is one skin whose joints are every joint.
The motion is one animation, index 0, from 0 to ``(frames - 1) * Frame
Time`` seconds. Between two frames the players part ways:

=========== ==============================================================
``"spec"``  a rotation-aware player: each frame's rotation converted to a
            quaternion, shortest-arc SLERP between the two frames;
            translations lerped
``"naive"`` a per-channel player: every channel (Euler angles included)
            lerped on its own, the way a runtime that never looks at the
            rotation does; across a +-180 deg wrap it spins the joint
=========== ==============================================================

At a frame's own time both give the frame's pose. Quaternions are
(w, x, y, z) (docs/conventions.md).

Examples
--------
>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "a.bvh").write_text("HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 1 "
...     "Zrotation\\n JOINT B\\n {\\n  OFFSET 1 0 0\\n }\\n}\\nMOTION\\nFrames: 2\\n"
...     "Frame Time: 1\\n170\\n-170\\n")
>>> def tip(player):      # joint B half way between the frames: 20 deg apart across the wrap
...     joints = pose_report_bvh(d / "a.bvh", 0.5, player)["skins"][0]["joints"]
...     return [round(x, 6) + 0 for x in joints[1]["position"]]
>>> tip("spec"), tip("naive")      # SLERP at yaw 180; per-channel lerp at yaw 0
([-1.0, 0.0, 0.0], [1.0, 0.0, 0.0])
"""

from __future__ import annotations

import dataclasses
import os

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io import bvh as B
from quatlab.app.io.bvh.keyframes import bvh_error_to_keyframe_error
from quatlab.app.io.tracks import KeyframeFileError
from quatlab.app.model.rig_players import PLAYERS
from quatlab.math import quaternion as Q
from quatlab.math.interpolate import slerp

__all__ = ["pose_report_bvh", "bvh_world_at"]


def _frame_of(bvh: B.BvhFile, time: float) -> tuple[int, int, float]:
    """Frames ``f0``, ``f1`` around ``time`` and the fraction ``s`` between them."""
    if bvh.n_frames == 1 or bvh.frame_time <= 0:
        return 0, 0, 0.0
    x = time / bvh.frame_time
    f0 = min(int(np.floor(x)), bvh.n_frames - 1)
    f1 = min(f0 + 1, bvh.n_frames - 1)
    s = float(x - f0) if f1 != f0 else 0.0
    return f0, f1, s


def bvh_world_at(bvh: B.BvhFile, time: float, player: str = "spec") -> np.ndarray:
    """World 4x4 transforms ``(J, 4, 4)`` of every joint at ``time`` seconds (module docs)."""
    f0, f1, s = _frame_of(bvh, time)
    m0, m1 = bvh.motion[f0], bvh.motion[f1]
    if player == "naive" or s == 0.0:
        one = dataclasses.replace(bvh, motion=(m0 + s * (m1 - m0))[None])
        return B.world_matrices(one, 0)
    two = dataclasses.replace(bvh, motion=np.stack([m0, m1]))
    q = B.local_rotations(two)                         # (2, J, 4)
    tr = B.local_translations(two)                     # (2, J, 3)
    local = np.zeros((bvh.n_joints, 4, 4))
    local[:, :3, :3] = Q.to_matrix(slerp(q[0], q[1], s))
    local[:, :3, 3] = tr[0] + s * (tr[1] - tr[0])
    local[:, 3, 3] = 1.0
    return B.compose_world(bvh.parents, local)


def pose_report_bvh(path, time: float = 0.0, player: str = "spec") -> dict:
    """A JSON-serializable pose of a BVH file at ``time`` seconds (module docs).

    Raises :class:`KeyframeFileError` (one line naming the file) for an
    unreadable file, an unknown player or a time outside the motion.
    """
    if player not in PLAYERS:
        raise KeyframeFileError(path, _("player must be one of {players}, got {player!r}")
                                .format(players=", ".join(PLAYERS), player=player))
    try:
        bvh = B.read_bvh(path)
    except B.BvhError as exc:
        raise bvh_error_to_keyframe_error(exc, path) from None
    end = max(bvh.n_frames - 1, 0) * bvh.frame_time
    time = float(time)
    if not 0.0 <= time <= end:
        raise KeyframeFileError(path, _("time {time:g} is outside the motion [0, {end:g}] "
                                        "({frames} frames of {step:g} s)").format(
            time=time, end=end, frames=bvh.n_frames, step=bvh.frame_time))
    if bvh.n_frames == 0:
        raise KeyframeFileError(path, _("the motion has no frames"))
    world = bvh_world_at(bvh, time, player)
    nodes = [{"index": j, "name": bvh.names[j],
              "parent": None if bvh.parents[j] < 0 else int(bvh.parents[j]),
              "world": world[j].tolist()} for j in range(bvh.n_joints)]
    roots = [j for j in range(bvh.n_joints) if bvh.parents[j] < 0]
    skins = [{"index": 0, "name": bvh.names[roots[0]] if roots else None,
              "joints": [{"node": j, "name": bvh.names[j], "position": world[j, :3, 3].tolist()}
                         for j in range(bvh.n_joints)]}]
    return {
        "file": os.fspath(path),
        "animation": {"index": 0, "name": None, "start": 0.0, "end": end},
        "time": time,
        "player": player,
        "nodes": nodes,
        "skins": skins,
    }
