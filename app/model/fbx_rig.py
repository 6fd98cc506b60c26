"""An FBX file as the :class:`~quatlab.app.model.rig.Rig` the rig view draws, and its players.

:func:`rig_of_fbx` turns an :class:`~quatlab.app.io.fbx.keyframes.FbxKeyframeFile`
into a rig (docs/formats.md, "FBX"): one rig node per FBX node, parents
first (``gltf_index`` holds the FBX node index, as track ``node_index``
does); rest transforms the loader's static node-to-parent matrices; one skin
per skinned mesh (joints: the clusters' bones, inverse bind matrices: the
clusters' geometry-to-bone matrices); meshes in geometry space (skinned) or
node space (rigid); one :class:`FbxAnimation` per clip, holding one
:class:`FbxChannel` per track of the clip (the node's quaternion keys).

An FBX clip plays itself (``pose_at``, which
:func:`quatlab.app.model.rig_players.evaluate` defers to) with three players:

=========== ==========================================================
``"spec"``  the FBX evaluation (:mod:`quatlab.app.io.fbx.evaluate`):
            curves, layers, pivots, inherit modes, as ufbx plays them
``"naive"`` per-key quaternion NLERP: the node's local rotation blended
            from its keys' quaternions as stored (no hemisphere check),
            what a runtime fed the converted keys does; the keys are the
            channel's, so "Fix signs" in the Keyframes tab shows here
``"euler"`` per-channel Euler lerp: the blended ``Lcl Rotation`` at the
            keys lerped channel by channel, then composed as FBX does
=========== ==========================================================

Translation, scale and pivots are the clip's for every player; only the
rotations of the nodes with rotation keys differ. Skins are drawn with
linear blend skinning (a dual-quaternion skin is noted, not reproduced). No Qt.

Examples
--------
>>> import pathlib, sys
>>> sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests"))
>>> from fbx_forge import ascii_fbx, chain
>>> from quatlab.app.io.fbx.keyframes import load_fbx_bytes
>>> from quatlab.app.model.rig_players import evaluate
>>> text = ascii_fbx(chain(2), {("j1", "R", 2): ([0.0, 1.0], [170.0, -170.0])})
>>> kf = load_fbx_bytes("spin.fbx", text.encode())
>>> rig = rig_of_fbx(kf)
>>> spec, naive, euler = (evaluate(rig, 0, 0.5, p) for p in ("spec", "naive", "euler"))
>>> [round(float(np.degrees(Q.angle_between(p.rotation[1], Q.IDENTITY))), 6) + 0.0
...  for p in (spec, naive, euler)]
[0.0, 0.0, 0.0]

The curve runs 170 -> 0 -> -170 deg (a 340 deg spin): all three pass 0 deg
at 0.5 s. The keys' quaternions are in opposite hemispheres, so the naive
NLERP follows the spin by accident; a SLERP player with the hemisphere
check would pass 180 deg (the short way).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from quatlab.app.io.fbx.evaluate import compose_matrices
from quatlab.app.io.fbx.scene import SKINNING_METHODS
from quatlab.app.io.gltf.scene import Animation, Channel
from quatlab.app.model.rig import MeshInstance, Rig, RigSkin, compose_trs
from quatlab.app.model.rig_players import Pose, sample_channel
from quatlab.math import matrix as M
from quatlab.math import quaternion as Q

__all__ = ["rig_of_fbx", "FbxAnimation", "FbxChannel", "FBX_PLAYERS", "MAX_INFLUENCES"]

#: The players of an FBX clip (module docs).
FBX_PLAYERS = ("spec", "naive", "euler")
#: Influences kept per vertex (the largest; the rest dropped and the weights renormalized).
MAX_INFLUENCES = 8


@dataclasses.dataclass(frozen=True, eq=False)
class FbxChannel(Channel):
    """A node's rotation keys in one clip, which plays itself (:meth:`sample`)."""

    keyframes: object = None      # the FbxKeyframeFile
    track: int = -1               # its track index in the file

    def sample(self, times, player: str = "spec") -> np.ndarray:
        """The node's local rotation ``(S, 4)`` (w, x, y, z) at ``times`` for ``player``."""
        if player not in FBX_PLAYERS:
            raise ValueError(f"player must be one of {FBX_PLAYERS}, got {player!r}")
        times = np.asarray(times, dtype=np.float64).reshape(-1)
        kf = self.keyframes
        stack, node = kf.entries[self.track]
        ev = kf.evaluator(stack)
        if player == "naive":
            plain = Channel(self.node, "rotation", "LINEAR", self.times, self.values, None, None,
                            self.input, self.output)
            return sample_channel(plain, times, "naive")
        if player == "euler":
            return ev.local(times, [node], euler=_euler_lerp(kf, self.track, times)[:, None]
                            ).rotation[:, 0]
        return ev.local(times, [node]).rotation[:, 0]


def _euler_lerp(kf, track: int, times: np.ndarray) -> np.ndarray:
    """The track's blended Euler angles at its keys, lerped per channel at ``times`` ``(S, 3)``."""
    keys = kf.tracks[track].times
    a = kf.euler(track)
    if len(keys) < 2:
        return np.repeat(a[:1], len(times), axis=0)
    k = np.clip(np.searchsorted(keys, times, side="right") - 1, 0, len(keys) - 2)
    u = np.clip((times - keys[k]) / (keys[k + 1] - keys[k]), 0.0, 1.0)[:, None]
    return a[k] + u * (a[k + 1] - a[k])


@dataclasses.dataclass(frozen=True, eq=False)
class FbxAnimation(Animation):
    """A clip of an FBX file as a rig animation that plays itself (:meth:`pose_at`)."""

    keyframes: object = None
    stack: int = 0
    fps: float = 30.0

    def pose_at(self, rig: Rig, time: float, player: str = "spec") -> Pose:
        """The rig's pose at ``time`` for ``player`` (module docs), in rig order."""
        if player not in FBX_PLAYERS:
            raise ValueError(f"player must be one of {FBX_PLAYERS}, got {player!r}")
        kf = self.keyframes
        sc = kf.scene
        ev = kf.evaluator(self.stack)
        t = np.array([float(time)])
        rotation = None
        if player != "spec":
            rotation = np.full((1, sc.n_nodes, 4), np.nan)
            for ch in self.channels:
                if isinstance(ch, FbxChannel):
                    rotation[0, ch.node] = ch.sample(t, player)[0]
        local = ev.local(t, rotation=rotation)
        world = compose_matrices(sc.node_parent, sc.node_inherit, sc.node_scale_node,
                                 local.translation, local.rotation, local.scale)[0]
        g = rig.gltf_index
        tr, q, s = local.translation[0, g], local.rotation[0, g], local.scale[0, g]
        return Pose(tr, q, s, compose_trs(tr, q, s), world[g], float(time), player, self.index)


def rig_of_fbx(kf) -> Rig:
    """The rig of an FBX file read for its tracks (module docs)."""
    sc = kf.scene
    n = sc.n_nodes
    depth = sc.depth() if n else np.zeros(0, dtype=np.int64)
    order = np.argsort(depth, kind="stable").astype(np.int64)
    rig_index = np.empty(n, dtype=np.int64)
    rig_index[order] = np.arange(n)
    parents = np.where(sc.node_parent[order] >= 0, rig_index[np.maximum(sc.node_parent[order],
                                                                        0)], -1)
    rest = sc.node_rest_local[order]
    t, r, s = _decompose(rest)
    levels = tuple(np.flatnonzero(depth[order] == d) for d in range(int(depth.max()) + 1)) \
        if n else ()
    notes: list[str] = []
    skins, meshes = _skins_and_meshes(sc, rig_index, notes)
    animations = tuple(_animation(kf, stack, rig_index) for stack in range(len(sc.stack_names)))
    return Rig(Path(kf.path), order, rig_index, tuple(sc.node_names[i] for i in order),
               parents.astype(np.int64), t, r, s, rest, np.ones(n, dtype=bool),
               np.ones(n, dtype=bool), levels, skins, meshes, animations, tuple(notes))


def _decompose(m: np.ndarray):
    """Translation, rotation (w, x, y, z) and scale of local matrices (shear dropped)."""
    t = m[:, :3, 3].copy()
    scale = np.linalg.norm(m[:, :3, :3], axis=1)
    rot = np.divide(m[:, :3, :3], scale[:, None, :], out=np.zeros_like(m[:, :3, :3]),
                    where=scale[:, None, :] > 0)
    q = np.tile(Q.IDENTITY, (len(m), 1)).astype(float)
    for i in range(len(m)):
        try:
            q[i] = M.from_matrix(M.nearest_rotation(rot[i]))
        except ValueError:        # a zero or mirrored scale: the identity stands in
            pass
    return t, q, scale


def _animation(kf, stack: int, rig_index: np.ndarray) -> FbxAnimation:
    sc = kf.scene
    channels = []
    for i, (s, node) in enumerate(kf.entries):
        if s != stack:
            continue
        tr = kf.tracks[i]
        channels.append(FbxChannel(node, "rotation", "LINEAR", tr.times, tr.values, None, None,
                                   i, i, keyframes=kf, track=i))
    start, end = (float(x) for x in sc.stack_range[stack])
    return FbxAnimation(stack, sc.stack_names[stack], tuple(channels), start, max(end, start),
                        keyframes=kf, stack=stack, fps=sc.fps)


def _skins_and_meshes(sc, rig_index: np.ndarray, notes: list[str]):
    skins, meshes = [], []
    starts = sc.mesh_rows[:, 1].tolist() + [len(sc.mesh_positions)]
    tri_starts = sc.mesh_rows[:, 2].tolist() + [len(sc.mesh_triangles)]
    for row, (node, v0, f0, method) in enumerate(sc.mesh_rows.tolist()):
        v1, f1 = starts[row + 1], tri_starts[row + 1]
        pos = sc.mesh_positions[v0:v1]
        tris = sc.mesh_triangles[f0:f1]
        clusters = np.flatnonzero(sc.cluster_mesh == row)
        if method < 0 or not len(clusters):
            geom = sc.node_geometry[node]
            meshes.append(MeshInstance(int(rig_index[node]), row, None,
                                       pos @ geom[:3, :3].T + geom[:3, 3], tris, None, None))
            continue
        bones = sc.cluster_bone[clusters]
        if (bones < 0).any():
            notes.append(f"mesh {row}: a skin cluster has no bone; drawn rigid")
            meshes.append(MeshInstance(int(rig_index[node]), row, None, pos, tris, None, None))
            continue
        skin = len(skins)
        skins.append(RigSkin(skin, sc.node_names[node], rig_index[bones],
                             sc.cluster_geometry_to_bone[clusters]))
        joints, weights = _influences(sc, v0, v1, clusters, notes, row)
        if SKINNING_METHODS[method] != "linear" and sc.vertex_dq_weight[v0:v1].any():
            notes.append(f"mesh {row}: the file asks for {SKINNING_METHODS[method]} skinning; "
                         "drawn with linear blend skinning")
        meshes.append(MeshInstance(int(rig_index[node]), row, skin, pos, tris, joints, weights))
    return tuple(skins), tuple(meshes)


def _influences(sc, v0: int, v1: int, clusters: np.ndarray, notes: list[str], row: int):
    """``(V, K)`` joints (indices into the skin's clusters) and normalized weights."""
    start = sc.influence_start[v0:v1 + 1]
    counts = np.diff(start)
    k = int(min(max(counts.max(initial=0), 1), MAX_INFLUENCES))
    if counts.max(initial=0) > MAX_INFLUENCES:
        notes.append(f"mesh {row}: up to {int(counts.max())} influences per vertex; the "
                     f"{MAX_INFLUENCES} largest are kept")
    local = {int(c): j for j, c in enumerate(clusters)}
    joints = np.zeros((v1 - v0, k), dtype=np.int64)
    weights = np.zeros((v1 - v0, k))
    for v in range(v1 - v0):
        a, b = int(start[v]), int(start[v + 1])
        cl = sc.influence_cluster[a:b]
        w = sc.influence_weight[a:b]
        if b - a > k:
            keep = np.argsort(-w, kind="stable")[:k]
            cl, w = cl[keep], w[keep]
        joints[v, :len(cl)] = [local.get(int(c), 0) for c in cl]
        weights[v, :len(w)] = w
    total = weights.sum(axis=1, keepdims=True)
    weights = np.divide(weights, total, out=np.zeros_like(weights), where=total > 0)
    return joints, weights
