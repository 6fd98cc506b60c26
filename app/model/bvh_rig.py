"""A BVH skeleton as the :class:`~quatlab.app.model.rig.Rig` the rig view draws and plays. No Qt.

:func:`rig_of_bvh` turns a :class:`~quatlab.app.io.bvh.BvhFile` into a rig
(docs/formats.md, "BVH"): one node per joint in file order (parents come
first in a BVH, as the rig needs), then one leaf node per End Site so the
last bones have a length; rest translation = OFFSET, rest rotation the
identity; one skin holding every node (the bones drawn). The motion is one
animation, ``"motion"``, from 0 to ``(frames - 1) * Frame Time``: per joint
with rotation channels a LINEAR rotation channel (keys: each frame's Euler
channels converted to a quaternion, :func:`quatlab.app.io.bvh.local_rotations`)
and, where the joint has position channels, a LINEAR translation channel
(OFFSET plus the position channels). The rotation channels are
:class:`~quatlab.app.model.rig_players.EulerChannel`: the spec player
SLERPs the converted keys on the shortest arc, the naive player lerps each
Euler channel on its own, the way a per-channel runtime does (across a
+-180 deg wrap it spins the joint), as :func:`quatlab.app.model.bvh_pose.pose_report_bvh`.

Examples
--------
>>> from quatlab.app.io.bvh import parse_bvh
>>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 1 Zrotation\\n"
...               b" End Site\\n {\\n  OFFSET 1 0 0\\n }\\n}\\nMOTION\\nFrames: 2\\n"
...               b"Frame Time: 1\\n170\\n-170\\n")
>>> rig = rig_of_bvh(b)
>>> rig.names, rig.parents.tolist(), rig.animations[0].end
(('A', 'A (end)'), [-1, 0], 1.0)
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import numpy as np

from quatlab.app.io import bvh as B
from quatlab.app.io.gltf.scene import Animation, Channel
from quatlab.app.model.rig import Rig, RigSkin, compose_trs
from quatlab.app.model.rig_players import EulerChannel
from quatlab.math import quaternion as Q

__all__ = ["rig_of_bvh"]


def _joint_rotations(one: B.BvhFile, angles: np.ndarray) -> np.ndarray:
    """Rotations ``(n, 4)`` of a one-joint file's rotation channels ``(n, k)`` degrees."""
    return B.local_rotations(dataclasses.replace(one, motion=np.asarray(angles, float)))[:, 0]


def rig_of_bvh(bvh: B.BvhFile) -> Rig:
    """The rig of a BVH file (module docs); ``path`` is the file's."""
    J, E = bvh.n_joints, len(bvh.end_sites)
    n = J + E
    parents = np.concatenate([np.asarray(bvh.parents, dtype=np.int64),
                              np.array([e.parent for e in bvh.end_sites], dtype=np.int64)])
    names = tuple(bvh.names) + tuple(f"{bvh.names[e.parent]} (end)" for e in bvh.end_sites)
    t = np.concatenate([np.asarray(bvh.offsets, float).reshape(J, 3),
                        np.array([e.offset for e in bvh.end_sites], float).reshape(E, 3)])
    r = np.tile(Q.IDENTITY, (n, 1)).astype(float)
    s = np.ones((n, 3))
    depth = np.zeros(n, dtype=np.int64)
    for i in range(n):  # parents come first
        depth[i] = depth[parents[i]] + 1 if parents[i] >= 0 else 0
    levels = tuple(np.flatnonzero(depth == d) for d in range(int(depth.max()) + 1)) if n else ()
    rest = compose_trs(t, r, s)
    world = np.empty_like(rest)
    for i in range(n):
        world[i] = rest[i] if parents[i] < 0 else world[parents[i]] @ rest[i]
    idx = np.arange(n, dtype=np.int64)
    skins = (RigSkin(0, bvh.names[0] if J else None, idx, np.linalg.inv(world)),) if n else ()
    return Rig(Path(bvh.path), idx, idx.copy(), names, parents, t, r, s, rest,
               np.zeros(n, dtype=bool), np.ones(n, dtype=bool), levels, skins, (),
               (_motion(bvh),) if bvh.n_frames else ())


def _motion(bvh: B.BvhFile) -> Animation:
    times = np.arange(bvh.n_frames, dtype=np.float64) * bvh.frame_time
    q = B.local_rotations(bvh)
    tr = B.local_translations(bvh)
    channels: list[Channel] = []
    for j in range(bvh.n_joints):
        order = bvh.rotation_order(j)
        if order:
            one = dataclasses.replace(
                bvh, names=(bvh.names[j],), parents=np.array([-1]), offsets=np.zeros((1, 3)),
                channels=(tuple(c for c in bvh.channels[j] if c.endswith("rotation")),),
                end_sites=())
            channels.append(EulerChannel(j, "rotation", "LINEAR", times, q[:, j], None, None,
                                         0, 1 + j, angles=bvh.euler_degrees(j),
                                         convert=functools.partial(_joint_rotations, one)))
        if any(c.endswith("position") for c in bvh.channels[j]):
            channels.append(Channel(j, "translation", "LINEAR", times, tr[:, j], None, None,
                                    0, 1 + bvh.n_joints + j))
    return Animation(0, "motion", tuple(channels), 0.0, float(times[-1]))
