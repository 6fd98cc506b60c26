"""A USD stage as the :class:`~quatlab.app.model.rig.Rig` the rig view draws and plays. No Qt.

:func:`rig_of_usd` turns what the USD reader read (a
:class:`~quatlab.app.io.usd.keyframes.UsdKeyframeFile`, its
:class:`~quatlab.app.io.usd.scene.UsdScene`) into a rig with the node layout of
:meth:`UsdScene.layout` (docs/formats.md, "USD"):

* node 0, the stage: ``metersPerUnit`` to meters, Z-up to Y-up;
* per skeleton, a node holding the skeleton prim's world matrix and one node per
  joint with its ``restTransforms`` matrix (used while no channel animates it);
  one skin per skeleton whose inverse bind matrices are the inverses of its
  ``bindTransforms`` (skeleton space), so a skinned point is
  ``stage @ skeleton world @ sum(w * joint(t) @ bind^-1) @ geomBindTransform @ p``,
  UsdSkel's linear blend skinning (``UsdSkelSkinPointsLBS``: weights as stored, not
  renormalized);
* per animated transform op, the ops before it, the rotation, the ops after it;
* per rigid mesh, a node with its matrix.

One animation, ``"stage"``: the stage has one timeline, every skeleton and prim
plays on it. Each joint an animation drives gets rotation, translation and scale
channels (times in seconds; ``LINEAR`` or ``STEP`` for held interpolation);
``LINEAR`` rotations are shortest-arc SLERP in the spec player, as usd-core's
GfSlerp. Euler ops are :class:`~quatlab.app.model.rig_players.EulerChannel`: the
naive player lerps the stored components, which is what usd-core itself does
with an Euler op.

Examples
--------
>>> import numpy as np
>>> from quatlab.app.io.usd.scene import UsdScene, UsdSkeleton
>>> I = np.eye(4)
>>> tip = I.copy(); tip[1, 3] = 1.0                           # joint b 1 up +Y from a
>>> sk = UsdSkeleton("/Skel", ("a", "a/b"), ("a", "b"), np.array([-1, 0]),
...                  np.stack([I, tip]), np.stack([I, tip]), I, None, None)
>>> scene = UsdScene(None, {"meters_per_unit": 0.01, "up_axis": "Y",
...                         "time_codes_per_second": 24}, (sk,), (), (), (), (), ())
>>> rig = rig_from_scene(scene)
>>> rig.names, rig.parents.tolist()
(('stage', 'Skel', 'a', 'b'), [-1, 0, 1, 2])
>>> from quatlab.app.model.rig_players import evaluate
>>> evaluate(rig).world[3, :3, 3].tolist()                     # 1 cm up, in meters
[0.0, 0.01, 0.0]
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from quatlab.app.io.gltf.scene import Animation, Channel
from quatlab.app.io.usd import euler_ops
from quatlab.app.io.usd.scene import UsdScene, decompose, stage_matrix
from quatlab.app.model.rig import MeshInstance, Rig, RigSkin
from quatlab.app.model.rig_players import EulerChannel

__all__ = ["rig_of_usd", "rig_from_scene"]


def rig_of_usd(keyframes) -> Rig:
    """The rig of a USD file already read for its tracks (a ``UsdKeyframeFile``)."""
    return rig_from_scene(keyframes.scene)


def rig_from_scene(scene: UsdScene) -> Rig:
    """The rig of a :class:`UsdScene` (module docs); ``path`` is the file's."""
    lay = scene.layout()
    n = len(lay.names)
    parents = lay.parents
    matrix = np.tile(np.eye(4), (n, 1, 1))
    has_matrix = np.zeros(n, dtype=bool)
    matrix[0] = stage_matrix(scene.meta)
    has_matrix[0] = True
    skins, channels = [], []
    interp = scene.interpolation
    for s, sk in enumerate(scene.skeletons):
        node = lay.skeleton_nodes[s]
        matrix[node], has_matrix[node] = sk.world, True
        joints = lay.joint_nodes[s]
        matrix[joints], has_matrix[joints] = sk.rest, True
        if len(joints):
            skins.append(RigSkin(len(skins), sk.path.rsplit("/", 1)[-1], joints.copy(),
                                 np.linalg.inv(sk.bind)))
    for x, xf in enumerate(scene.xforms):
        pre, _rot, post = lay.xform_nodes[x]
        matrix[pre], has_matrix[pre] = xf.pre, True
        matrix[post], has_matrix[post] = xf.post, True
    for m, mesh in enumerate(scene.meshes):
        node = lay.mesh_nodes[m]
        if node is not None:
            matrix[node], has_matrix[node] = mesh.world, True
    t, r, sc = decompose(matrix)
    for x in range(len(scene.xforms)):
        rot = lay.xform_nodes[x][1]
        channels.append(_xform_channel(scene, x, rot, interp))
        r[rot] = channels[-1].values[0]
    channels.extend(_skeleton_channels(scene, interp))
    skin_of = {s: k for k, s in enumerate(s for s, sk in enumerate(scene.skeletons)
                                          if len(lay.joint_nodes[s]))}
    meshes = []
    for m, mesh in enumerate(scene.meshes):
        if mesh.skeleton is not None and mesh.joints is not None and mesh.skeleton in skin_of:
            meshes.append(MeshInstance(lay.skeleton_nodes[mesh.skeleton], m,
                                       skin_of[mesh.skeleton], mesh.points, mesh.triangles,
                                       mesh.joints, mesh.weights))
        elif lay.mesh_nodes[m] is not None:
            meshes.append(MeshInstance(lay.mesh_nodes[m], m, None, mesh.points, mesh.triangles,
                                       None, None))
    depth = np.zeros(n, dtype=np.int64)
    for i in range(1, n):  # parents come first
        depth[i] = depth[parents[i]] + 1
    levels = tuple(np.flatnonzero(depth == d) for d in range(int(depth.max()) + 1))
    animations = ()
    # Attributes with only a default value are one constant key: not part of the range. An
    # animation UsdSkel drops still has its time range (the rig stays at rest over it).
    span = scene.time_range()
    if channels or span is not None:
        start, end = span if span is not None else (0.0, 0.0)
        animations = (Animation(0, "stage", tuple(channels), start, end),)
    idx = np.arange(n, dtype=np.int64)
    path = None if scene.path is None else Path(scene.path)
    notes = tuple(scene.notes) + tuple(scene.warnings)
    return Rig(path, idx, idx.copy(), lay.names, parents, t, r, sc, matrix, has_matrix,
               np.ones(n, dtype=bool), levels, tuple(skins), tuple(meshes), animations, notes)


def _skeleton_channels(scene: UsdScene, interp: str) -> list[Channel]:
    lay = scene.layout()
    out: list[Channel] = []
    for s, sk in enumerate(scene.skeletons):
        if sk.animation is None or sk.anim_map is None or sk.ignored:
            continue   # (ignored: UsdSkel drops it and shows the rest pose; so does the rig)
        anim = scene.animations[sk.animation]
        for path, samples in (("rotation", anim.rotations), ("translation", anim.translations),
                              ("scale", anim.scales)):
            if samples is None:
                continue
            times = scene.seconds(samples.times)
            times.flags.writeable = False   # one array: the players search it once per time
            for j, target in enumerate(sk.anim_map.tolist()):
                if target < 0:
                    continue
                node = int(lay.joint_nodes[s][target])
                out.append(Channel(node, path, interp, times, samples.values[:, j], None, None,
                                   sk.animation, j))
    return out


def _xform_channel(scene: UsdScene, x: int, node: int, interp: str) -> Channel:
    xf = scene.xforms[x]
    times = scene.seconds(xf.times)
    if xf.kind == "orient":
        values = xf.values * (np.array([1.0, -1, -1, -1]) if xf.inverse else 1.0)
        return Channel(node, "rotation", interp, times, values, None, None, -1 - x, 0)
    convert = functools.partial(euler_ops.rotations, order=xf.order, inverse=xf.inverse)
    values = convert(xf.values)
    return EulerChannel(node, "rotation", interp, times, values, None, None, -1 - x, 0,
                        angles=np.asarray(xf.values, dtype=np.float64), convert=convert)
