"""A glTF rig as arrays: evaluate an animation, pose the node forest, skin the meshes. No Qt.

The model behind the rig view and ``quatlab pose``. A :class:`Rig` is built
from a :class:`~quatlab.app.io.gltf_scene.GltfScene`: nodes are reordered so
that every parent comes before its children (``parents[i] < i``), which lets
world matrices be composed one depth level at a time with batched matrix
products instead of a Python loop over nodes.

:func:`evaluate` samples every channel of an animation at one time, the way
glTF 2.0 (Appendix C) says, or the way a *naive runtime* does:

=========== =================================== ====================================
mode        ``player="spec"``                   ``player="naive"``
=========== =================================== ====================================
STEP        hold key k until key k + 1          same as spec
LINEAR      lerp; rotation: shortest-arc SLERP  lerp; rotation: NLERP of the stored
                                                components, no hemisphere check
CUBICSPLINE Hermite, tangents times the key     same as spec
            interval; rotation normalized
=========== =================================== ====================================

So the players part ways inside LINEAR rotation segments whose keys are
stored in opposite hemispheres (``dot < 0``, what ``quatlab check`` reports
as ``sign_flip``): there the naive runtime turns the long way. Elsewhere they
differ only by NLERP's uneven speed, a small amount that vanishes at keys
and at each segment's midpoint. Times before the first key or after the
last clamp.

Quaternions are (w, x, y, z), Hamilton product, active rotation; matrices
``(..., 4, 4)`` act on column vectors, ``world = parent_world @ local`` and
``local = T @ R @ S``.

Examples
--------
>>> import numpy as np
>>> from quatlab.app.io.gltf_scene import Animation, Channel
>>> rig = Rig.chain(2, length=1.0)            # root at the origin, a child 1 up +Y
>>> c = np.sqrt(0.5)
>>> keys = np.array([[1, 0, 0, 0], [-c, 0, 0, -c]])  # 0 deg, then 90 deg about Z stored as -q
>>> turn = Channel(0, "rotation", "LINEAR", np.array([0.0, 1.0]), keys, None, None, 0, 1)
>>> anim = Animation(0, "turn", (turn,), 0.0, 1.0)
>>> spec = evaluate(rig, anim, 0.5)
>>> naive = evaluate(rig, anim, 0.5, player="naive")
>>> np.round(spec.world[1, :3, 3], 4) + 0.0       # tip turned 45 deg toward -X
array([-0.7071,  0.7071,  0.    ])
>>> np.round(naive.world[1, :3, 3], 4) + 0.0      # the long way: 135 deg the other side
array([ 0.7071, -0.7071,  0.    ])
>>> np.round(difference_angles(spec, naive), 3).tolist()
[180.0, 180.0]
"""

from __future__ import annotations

import dataclasses
import numbers
import os
from pathlib import Path

import numpy as np

from quatlab.app.io.gltf_scene import Animation, GltfScene, load_scene
from quatlab.app.io.tracks import KeyframeFileError
from quatlab.math import interpolate as I
from quatlab.math import quaternion as Q

__all__ = [
    "Rig",
    "RigSkin",
    "MeshInstance",
    "Pose",
    "PosedMesh",
    "Bones",
    "PLAYERS",
    "load_rig",
    "evaluate",
    "joint_matrices",
    "skin_meshes",
    "bones",
    "scene_bounds",
    "difference_angles",
    "pose_report",
]

PLAYERS = ("spec", "naive")
_PATH_WIDTH = {"translation": 3, "rotation": 4, "scale": 3}
#: Squared length below which a naive NLERP blend has no direction (q to -q at u = 0.5).
_COLLAPSE = 1e-12


@dataclasses.dataclass(frozen=True, eq=False)
class RigSkin:
    """A skin: ``joints`` as rig indices ``(J,)`` and ``inverse_bind`` ``(J, 4, 4)``."""

    index: int
    name: str | None
    joints: np.ndarray
    inverse_bind: np.ndarray


@dataclasses.dataclass(frozen=True, eq=False)
class MeshInstance:
    """A mesh placed at a node: its triangle primitives concatenated.

    ``joints`` (indices into the skin's joints) and ``weights`` (normalized
    to sum 1; rows that sum to 0 keep the bind position) are ``(V, 4)`` for
    skinned instances, None for rigid ones.
    """

    node: int  # rig index
    mesh: int
    skin: int | None
    positions: np.ndarray  # (V, 3)
    triangles: np.ndarray  # (T, 3)
    joints: np.ndarray | None
    weights: np.ndarray | None


@dataclasses.dataclass(frozen=True, eq=False)
class Rig:
    """Node forest in topological order (``parents[i] < i``) and rest local TRS.

    Attributes
    ----------
    gltf_index : ndarray (N,)
        glTF node index of each rig node; ``rig_index`` is its inverse.
    names : tuple of str or None
    parents : ndarray (N,)
        Rig index of each node's parent, -1 for roots.
    rest_translation, rest_rotation, rest_scale : ndarray (N, 3), (N, 4), (N, 3)
        Rest local TRS; rotations (w, x, y, z), unit.
    rest_matrix : ndarray (N, 4, 4)
        Rest local matrices (the file's ``matrix`` where given).
    has_matrix : ndarray (N,) bool
        Nodes whose file gave a ``matrix``; it is used unless a channel
        animates the node.
    in_scene : ndarray (N,) bool
        Nodes under the default scene's roots (only their meshes are drawn).
    levels : tuple of ndarray
        Rig indices by depth, roots first.
    """

    path: Path | None
    gltf_index: np.ndarray
    rig_index: np.ndarray
    names: tuple[str | None, ...]
    parents: np.ndarray
    rest_translation: np.ndarray
    rest_rotation: np.ndarray
    rest_scale: np.ndarray
    rest_matrix: np.ndarray
    has_matrix: np.ndarray
    in_scene: np.ndarray
    levels: tuple[np.ndarray, ...]
    skins: tuple[RigSkin, ...]
    meshes: tuple[MeshInstance, ...]
    animations: tuple[Animation, ...]
    notes: tuple[str, ...] = ()
    _compiled: dict = dataclasses.field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.parents)

    @classmethod
    def from_scene(cls, scene: GltfScene) -> Rig:
        """Arrange a loaded scene graph (see :func:`load_rig`)."""
        n = len(scene.nodes)
        parent_g = np.full(n, -1, dtype=np.int64)
        for node in scene.nodes:
            parent_g[list(node.children)] = node.index
        # Breadth-first from the roots: parents first, depth levels for free.
        order, levels = [], []
        level = [i for i in range(n) if parent_g[i] < 0]
        while level:
            levels.append(level)
            order.extend(level)
            level = [c for i in level for c in scene.nodes[i].children]
        gltf_index = np.array(order, dtype=np.int64)
        rig_index = np.empty(n, dtype=np.int64)
        rig_index[gltf_index] = np.arange(n)
        parents = np.where(parent_g[gltf_index] >= 0, rig_index[parent_g[gltf_index]], -1)
        nodes = [scene.nodes[g] for g in gltf_index]
        t = np.array([nd.translation for nd in nodes]).reshape(n, 3)
        r = np.array([nd.rotation for nd in nodes]).reshape(n, 4)
        s = np.array([nd.scale for nd in nodes]).reshape(n, 3)
        has_matrix = np.array([nd.matrix is not None for nd in nodes], dtype=bool)
        rest = _compose(t, r, s)
        for i in np.flatnonzero(has_matrix):
            rest[i] = nodes[i].matrix
        roots = set(scene.roots)
        in_scene = np.zeros(n, dtype=bool)
        for i in range(n):  # once per load; parents come first
            in_scene[i] = in_scene[parents[i]] if parents[i] >= 0 else gltf_index[i] in roots
        skins = tuple(RigSkin(sk.index, sk.name, rig_index[sk.joints], sk.inverse_bind)
                      for sk in scene.skins)
        notes = list(scene.notes)
        meshes = tuple(m for m in (_instance(scene, nd, rig_index, notes) for nd in nodes)
                       if m is not None)
        return cls(scene.path, gltf_index, rig_index, tuple(nd.name for nd in nodes), parents,
                   t, r, s, rest, has_matrix, in_scene,
                   tuple(np.array(rig_index[lev], dtype=np.int64) for lev in levels),
                   skins, meshes, scene.animations, tuple(notes))

    @classmethod
    def chain(cls, n: int, length: float = 1.0) -> Rig:
        """A chain of ``n`` nodes, each ``length`` along +Y from its parent (for examples)."""
        t = np.zeros((n, 3))
        t[1:, 1] = length
        r = np.tile([1.0, 0.0, 0.0, 0.0], (n, 1))
        s = np.ones((n, 3))
        idx = np.arange(n)
        return cls(None, idx, idx, (None,) * n, idx - 1, t, r, s, _compose(t, r, s),
                   np.zeros(n, dtype=bool), np.ones(n, dtype=bool),
                   tuple(np.array([i]) for i in range(n)), (), (), ())

    def animation(self, which) -> Animation:
        """An animation by index or name; ``KeyframeFileError`` (or ``ValueError``) if unknown."""
        if isinstance(which, Animation):
            return which
        found = None
        if isinstance(which, str):
            found = next((a for a in self.animations if a.name == which), None)
            if found is None and which.isdigit():
                which = int(which)
        # numpy integers count as indices too (they come from arrays of indices).
        if found is None and isinstance(which, numbers.Integral) and not isinstance(which, bool):
            if 0 <= which < len(self.animations):
                found = self.animations[int(which)]
        if found is None:
            names = ", ".join(repr(a.name) if a.name else f"#{a.index}" for a in self.animations)
            problem = (f"no animation {which!r} (the file has "
                       f"{names or 'no animations'})")
            if self.path is None:
                raise ValueError(problem)
            raise KeyframeFileError(self.path, problem)
        return found


def _instance(scene: GltfScene, node, rig_index, notes: list[str]) -> MeshInstance | None:
    if node.mesh is None:
        return None
    prims = scene.meshes[node.mesh].primitives
    if not prims:
        return None
    sizes = np.cumsum([0] + [len(p.positions) for p in prims])
    pos = np.concatenate([p.positions for p in prims])
    tris = np.concatenate([p.triangles + sizes[k] for k, p in enumerate(prims)])
    skin = node.skin
    joints = weights = None
    if skin is not None and all(p.joints is not None for p in prims):
        joints = np.concatenate([p.joints for p in prims])
        n_joints = len(scene.skins[skin].joints)
        if joints.max() >= n_joints:
            raise KeyframeFileError(scene.path, f"meshes[{node.mesh}]: JOINTS_0 uses joint "
                                    f"{int(joints.max())}, skins[{skin}] has {n_joints}")
        weights = np.concatenate([p.weights for p in prims]).astype(np.float64)
        total = weights.sum(axis=1, keepdims=True)
        # Exporters often leave sums a quantum off 1; glTF asks players to cope.
        weights = np.divide(weights, total, out=np.zeros_like(weights), where=total > 0)
    elif skin is not None:
        notes.append(f"nodes[{node.index}]: a primitive lacks JOINTS_0/WEIGHTS_0; drawn rigid")
        skin = None
    return MeshInstance(int(rig_index[node.index]), node.mesh, skin, pos, tris, joints, weights)


def load_rig(path) -> Rig:
    """Load a ``.gltf``/``.glb`` file as a :class:`Rig` (errors: ``KeyframeFileError``)."""
    return Rig.from_scene(load_scene(path))


# --------------------------------------------------------------------------- evaluation


@dataclasses.dataclass(frozen=True, eq=False)
class _Group:
    """Channels of one path and interpolation, their keys packed end to end."""

    path: str
    mode: str
    target: np.ndarray  # (C,) rig indices
    times: np.ndarray  # (C,) index into the compiled animation's unique key-time arrays
    offset: np.ndarray  # (C,) first key of each channel in the packed arrays
    count: np.ndarray  # (C,)
    values: np.ndarray  # (K, w); rotations normalized
    in_tangents: np.ndarray | None
    out_tangents: np.ndarray | None


@dataclasses.dataclass(frozen=True, eq=False)
class _Compiled:
    inputs: tuple[np.ndarray, ...]
    groups: tuple[_Group, ...]
    animated: np.ndarray  # (N,) bool: nodes some channel targets


def _compile(rig: Rig, anim: Animation) -> _Compiled:
    inputs: list[np.ndarray] = []
    input_id: dict[int, int] = {}
    by_key: dict[tuple[str, str], list] = {}
    for ch in anim.channels:
        # Channels that share an input accessor share one search per time.
        key = id(ch.times)
        if key not in input_id:
            input_id[key] = len(inputs)
            inputs.append(ch.times)
        by_key.setdefault((ch.path, ch.interpolation), []).append((ch, input_id[key]))
    groups = []
    for (path, mode), items in by_key.items():
        chans = [c for c, _ in items]
        counts = np.array([len(c.times) for c in chans], dtype=np.int64)
        values = np.concatenate([c.values for c in chans])
        ins = outs = None
        if mode == "CUBICSPLINE":
            ins = np.concatenate([c.in_tangents for c in chans])
            outs = np.concatenate([c.out_tangents for c in chans])
        elif path == "rotation":
            # Both players normalize the keys first (glTF requires unit keys;
            # float storage is a few ulp off), so they agree wherever the
            # hemisphere does and differ only by the sign question.
            values = values / np.linalg.norm(values, axis=1, keepdims=True)
        groups.append(_Group(
            path, mode, rig.rig_index[[c.node for c in chans]],
            np.array([i for _, i in items], dtype=np.int64),
            np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64), counts,
            values, ins, outs,
        ))
    animated = np.zeros(len(rig), dtype=bool)
    for g in groups:
        animated[g.target] = True
    return _Compiled(tuple(inputs), tuple(groups), animated)


@dataclasses.dataclass(frozen=True, eq=False)
class Pose:
    """A rig's local TRS (rotations (w, x, y, z)), local and world matrices ``(N, 4, 4)``."""

    translation: np.ndarray
    rotation: np.ndarray
    scale: np.ndarray
    local: np.ndarray
    world: np.ndarray
    time: float
    player: str
    animation: int | None


def evaluate(rig: Rig, animation=None, time: float = 0.0, player: str = "spec") -> Pose:
    """Pose ``rig`` at ``time`` (seconds) of ``animation`` as a glTF 2.0 player would.

    Parameters
    ----------
    rig : Rig
    animation : Animation, int, str or None
        The animation, its index or its name; None gives the rest pose.
    time : float
        Clamped to the key range of each channel (before the first key the
        first key holds, after the last the last).
    player : {"spec", "naive"}
        ``"spec"``: glTF 2.0 Appendix C -- STEP holds, LINEAR lerps
        translation/scale and SLERPs rotation along the shortest arc,
        CUBICSPLINE is the Hermite spline with tangents scaled by the key
        interval (rotation normalized after). ``"naive"``: a runtime that
        blends LINEAR rotation keys component-wise as stored (NLERP, no
        hemisphere check), so it turns the long way across a sign flip;
        STEP and CUBICSPLINE are identical to ``"spec"`` (glTF's cubic
        spline has no hemisphere check either). A naive blend that collapses
        (q to -q at the midpoint) holds the first key.

    Returns
    -------
    Pose

    Examples
    --------
    >>> rig = Rig.chain(3)
    >>> pose = evaluate(rig)                       # rest pose: the tip is 2 up +Y
    >>> pose.world[2, :3, 3].tolist()
    [0.0, 2.0, 0.0]
    """
    if player not in PLAYERS:
        raise ValueError(f"player must be one of {PLAYERS}, got {player!r}")
    t = rig.rest_translation.copy()
    r = rig.rest_rotation.copy()
    s = rig.rest_scale.copy()
    index = None
    animated = np.zeros(len(rig), dtype=bool)
    if animation is not None:
        anim = rig.animation(animation)
        index = anim.index
        # Keyed by identity; the animation is kept with it so a recycled id cannot match.
        entry = rig._compiled.get(id(anim))
        if entry is None or entry[0] is not anim:
            entry = rig._compiled[id(anim)] = (anim, _compile(rig, anim))
        compiled = entry[1]
        _sample(compiled, float(time), player, {"translation": t, "rotation": r, "scale": s})
        animated = compiled.animated
    local = _compose(t, r, s)
    keep = rig.has_matrix & ~animated
    if keep.any():
        local[keep] = rig.rest_matrix[keep]
    world = np.empty_like(local)
    first = rig.levels[0] if rig.levels else np.zeros(0, dtype=np.int64)
    world[first] = local[first]
    for level in rig.levels[1:]:
        world[level] = world[rig.parents[level]] @ local[level]
    return Pose(t, r, s, local, world, float(time), player, index)


def _sample(compiled: _Compiled, time: float, player: str, out: dict) -> None:
    n_in = len(compiled.inputs)
    k_in = np.zeros(n_in, dtype=np.int64)
    u_in = np.zeros(n_in)
    dt_in = np.ones(n_in)
    for j, times in enumerate(compiled.inputs):
        if len(times) < 2:
            continue  # one key: it holds (k = 0, u = 0)
        k = min(max(int(np.searchsorted(times, time, side="right")) - 1, 0), len(times) - 2)
        dt = float(times[k + 1] - times[k])
        k_in[j], dt_in[j] = k, dt
        u_in[j] = min(max((time - float(times[k])) / dt, 0.0), 1.0)
    for g in compiled.groups:
        k = k_in[g.times]
        u = u_in[g.times][:, None]
        i0 = g.offset + k
        i1 = g.offset + np.minimum(k + 1, g.count - 1)
        v0, v1 = g.values[i0], g.values[i1]
        if g.mode == "STEP":
            value = np.where(u >= 1.0, v1, v0)
        elif g.mode == "CUBICSPLINE":
            dt = dt_in[g.times][:, None]
            u2, u3 = u * u, u * u * u
            value = ((2 * u3 - 3 * u2 + 1) * v0 + dt * (u3 - 2 * u2 + u) * g.out_tangents[i0]
                     + (-2 * u3 + 3 * u2) * v1 + dt * (u3 - u2) * g.in_tangents[i1])
            if g.path == "rotation":
                value = value / np.linalg.norm(value, axis=1, keepdims=True)
        elif g.path != "rotation":
            value = v0 + u * (v1 - v0)
        elif player == "spec":
            value = I.slerp(v0, v1, u[:, 0])
        else:
            blend = v0 + u * (v1 - v0)
            n2 = np.einsum("ij,ij->i", blend, blend)[:, None]
            value = np.where(n2 > _COLLAPSE, blend / np.sqrt(np.maximum(n2, _COLLAPSE)), v0)
        out[g.path][g.target] = value


def _compose(t: np.ndarray, r: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Local matrices ``T @ R @ S`` ``(N, 4, 4)`` from TRS, rotations (w, x, y, z)."""
    m = np.zeros((len(t), 4, 4))
    m[:, :3, :3] = Q.to_matrix(r) * s[:, None, :]  # R @ diag(s): scale the columns
    m[:, :3, 3] = t
    m[:, 3, 3] = 1.0
    return m


# --------------------------------------------------------------------------- skinning


@dataclasses.dataclass(frozen=True, eq=False)
class PosedMesh:
    """A mesh instance's posed vertices ``(V, 3)`` (world space) and triangles ``(T, 3)``."""

    node: int  # rig index
    mesh: int
    skinned: bool
    vertices: np.ndarray
    triangles: np.ndarray


def joint_matrices(rig: Rig, pose: Pose, skin: int) -> np.ndarray:
    """``world(joint) @ inverseBind`` for each joint of ``skins[skin]``, ``(J, 4, 4)``."""
    sk = rig.skins[skin]
    return pose.world[sk.joints] @ sk.inverse_bind


def skin_meshes(rig: Rig, pose: Pose) -> list[PosedMesh]:
    """Every mesh instance in the scene, posed.

    Skinned instances use linear blend skinning with the joint matrices of
    their skin; per glTF the skinned mesh's own node transform is ignored.
    Rigid instances use their node's world matrix.

    Examples
    --------
    >>> rig = Rig.chain(1)
    >>> skin_meshes(rig, evaluate(rig))
    []
    """
    out = []
    joints = {}
    for m in rig.meshes:
        if not rig.in_scene[m.node]:
            continue
        if m.skin is None:
            w = pose.world[m.node]
            verts = m.positions @ w[:3, :3].T + w[:3, 3]
        else:
            if m.skin not in joints:
                joints[m.skin] = joint_matrices(rig, pose, m.skin)[:, :3, :]
            verts = _blend_skin(joints[m.skin], m.joints, m.weights, m.positions)
        out.append(PosedMesh(m.node, m.mesh, m.skin is not None, verts, m.triangles))
    return out


def _blend_skin(jm: np.ndarray, joints: np.ndarray, weights: np.ndarray,
                positions: np.ndarray) -> np.ndarray:
    # Blend the (3, 4) joint matrices per vertex, then apply the blend once:
    # one gather and two contractions, no per-influence transform.
    blended = np.einsum("vk,vkab->vab", weights, jm[joints])
    out = np.einsum("vab,vb->va", blended[:, :, :3], positions) + blended[:, :, 3]
    # Rows whose weights sum to 0 keep their bind position.
    zero = weights.sum(axis=1) == 0
    if zero.any():
        out[zero] = positions[zero]
    return out


# --------------------------------------------------------------------------- drawing aids


@dataclasses.dataclass(frozen=True, eq=False)
class Bones:
    """Line segments ``(B, 2, 3)`` between joints (and stubs at leaves) and joint frames.

    ``axes[j, a]`` is the world direction (unit) of joint ``joints[j]``'s
    local axis ``a`` (x, y, z); draw it with length ``axis_length``.
    """

    joints: np.ndarray  # (J,) rig indices
    positions: np.ndarray  # (J, 3)
    segments: np.ndarray  # (B, 2, 3)
    axes: np.ndarray  # (J, 3, 3)
    axis_length: float


def _joint_set(rig: Rig) -> np.ndarray:
    if not rig.skins:
        return np.zeros(0, dtype=np.int64)
    return np.unique(np.concatenate([sk.joints for sk in rig.skins]))


def bones(rig: Rig, pose: Pose) -> Bones:
    """Bones of every skin for drawing: joint-to-child segments and a stub at each leaf.

    A leaf's stub continues its parent bone's direction at half its length
    (or runs along the joint's local +Y when it has no parent joint).
    """
    joints = _joint_set(rig)
    is_joint = np.zeros(len(rig), dtype=bool)
    is_joint[joints] = True
    pos = pose.world[:, :3, 3]
    child = np.flatnonzero(is_joint & (rig.parents >= 0))
    child = child[is_joint[rig.parents[child]]]
    segs = np.stack([pos[rig.parents[child]], pos[child]], axis=1).reshape(-1, 2, 3)
    lengths = np.linalg.norm(segs[:, 1] - segs[:, 0], axis=1)
    typical = float(np.median(lengths)) if lengths.size and np.median(lengths) > 0 else 0.1
    has_child = np.zeros(len(rig), dtype=bool)
    has_child[rig.parents[child]] = True
    leaves = joints[~has_child[joints]]
    rot = pose.world[:, :3, :3]
    axes = rot[joints].transpose(0, 2, 1)  # rows: world images of local x, y, z
    axes = axes / np.maximum(np.linalg.norm(axes, axis=2, keepdims=True), 1e-300)
    stubs = []
    for j in leaves:  # leaves are few; clarity over vectorizing
        p = rig.parents[j]
        d = pos[j] - pos[p] if p >= 0 and is_joint[p] else np.zeros(3)
        length = 0.5 * float(np.linalg.norm(d))
        if length == 0.0:
            d, length = rot[j][:, 1], 0.5 * typical
        stubs.append([pos[j], pos[j] + d / np.linalg.norm(d) * length if np.any(d) else pos[j]])
    if stubs:
        segs = np.concatenate([segs, np.array(stubs).reshape(-1, 2, 3)])
    return Bones(joints, pos[joints], segs, axes, 0.25 * typical)


def scene_bounds(rig: Rig, pose: Pose, meshes: list[PosedMesh] | None = None):
    """``(lo, hi)``, each ``(3,)``: bounds of the posed vertices and joints (for framing).

    Pass the result of :func:`skin_meshes` as ``meshes`` to avoid skinning
    twice. With no meshes and no joints, the node origins are used.
    """
    if meshes is None:
        meshes = skin_meshes(rig, pose)
    pts = [m.vertices for m in meshes if len(m.vertices)]
    joints = _joint_set(rig)
    pts.append(pose.world[joints, :3, 3])
    pts = np.concatenate(pts)
    if not len(pts):
        pts = pose.world[:, :3, 3]
    return pts.min(axis=0), pts.max(axis=0)


def difference_angles(a: Pose, b: Pose) -> np.ndarray:
    """Per node, the angle in degrees between the world rotations of two poses, ``(N,)``.

    Rotations are the world matrices' 3x3 blocks with the column scales
    divided out. The angle is ``atan2(sin, cos)`` from the relative
    rotation's skew and trace parts, accurate near 0 deg as well as 180 deg.
    Use it to highlight joints where the players differ by more than 1 deg.
    """
    ra = _rotation_part(a.world)
    rb = _rotation_part(b.world)
    rel = np.einsum("nji,njk->nik", ra, rb)  # ra^T rb
    cos = (np.trace(rel, axis1=1, axis2=2) - 1.0) / 2.0
    skew = np.stack([rel[:, 2, 1] - rel[:, 1, 2], rel[:, 0, 2] - rel[:, 2, 0],
                     rel[:, 1, 0] - rel[:, 0, 1]], axis=1)
    sin = np.linalg.norm(skew, axis=1) / 2.0
    return np.degrees(np.arctan2(sin, cos))


def _rotation_part(world: np.ndarray) -> np.ndarray:
    m = world[:, :3, :3]
    return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-300)


# --------------------------------------------------------------------------- report


def pose_report(path, animation=None, time: float = 0.0, player: str = "spec") -> dict:
    """A JSON-serializable pose of a glTF file: what ``quatlab pose`` prints.

    Parameters
    ----------
    path : str or Path
    animation : None, int or str
        Index or name; None takes the first animation (the rest pose when
        the file has none).
    time : float
        Seconds; must lie in the animation's ``[start, end]``.
    player : {"spec", "naive"}

    Returns
    -------
    dict
        ``file``, ``animation`` (index, name, start, end or None), ``time``,
        ``player``, ``nodes`` (index, name, parent, ``world`` as a row-major
        4x4 list) in file order and ``skins`` (index, name, ``joints`` with
        node index, name and world ``position``).

    Raises
    ------
    KeyframeFileError
        One line naming the file: unreadable or invalid file, unknown
        animation, time outside the animation, unknown player.
    """
    rig = load_rig(path)
    if player not in PLAYERS:
        raise KeyframeFileError(path, f"player must be one of {', '.join(PLAYERS)}, "
                                f"got {player!r}")
    anim = None
    if animation is not None or rig.animations:
        anim = rig.animation(0 if animation is None else animation)
    time = float(time)
    if anim is not None and not (anim.start <= time <= anim.end):
        label = repr(anim.name) if anim.name else f"#{anim.index}"
        raise KeyframeFileError(path, f"time {time:g} is outside animation {label} "
                                f"[{anim.start:g}, {anim.end:g}]")
    pose = evaluate(rig, anim, time, player)
    nodes = []
    for g in range(len(rig)):
        i = int(rig.rig_index[g])
        p = int(rig.parents[i])
        nodes.append({"index": g, "name": rig.names[i],
                      "parent": None if p < 0 else int(rig.gltf_index[p]),
                      "world": pose.world[i].tolist()})
    skins = [{"index": sk.index, "name": sk.name,
              "joints": [{"node": int(rig.gltf_index[j]), "name": rig.names[j],
                          "position": pose.world[j, :3, 3].tolist()} for j in sk.joints]}
             for sk in rig.skins]
    return {
        "file": os.fspath(path),
        "animation": None if anim is None else {
            "index": anim.index, "name": anim.name, "start": anim.start, "end": anim.end},
        "time": time,
        "player": player,
        "nodes": nodes,
        "skins": skins,
    }
