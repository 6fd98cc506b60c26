"""Skinning and drawing aids for a posed rig: joint matrices, linear blend skinning, bones, bounds.

Per glTF 2.0 ("Skins"): a joint's matrix is ``world(joint) @ inverseBind``;
a skinned vertex is the weighted blend of its (up to four) joints' matrices
applied to the bind-space position, and the skinned mesh's own node
transform is ignored. Rigid meshes follow their node's world matrix. No Qt.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from quatlab.app.model.rig import Rig
from quatlab.app.model.rig_players import Pose

__all__ = ["PosedMesh", "Bones", "joint_matrices", "skin_meshes", "bones", "joint_set",
           "scene_bounds"]


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
    >>> from quatlab.app.model.rig_players import evaluate
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




@dataclasses.dataclass(frozen=True, eq=False)
class Bones:
    """Line segments ``(B, 2, 3)`` between joints (and stubs at leaves) and joint frames.

    ``axes[j, a]`` is the world direction (unit) of joint ``joints[j]``'s
    local axis ``a`` (x, y, z); draw it with length ``axis_length``.
    """

    joints: np.ndarray  # (J,) rig indices
    positions: np.ndarray  # (J, 3)
    segments: np.ndarray  # (B, 2, 3)
    ends: np.ndarray  # (B,) rig index of each segment's far end: the child joint, or the leaf
    axes: np.ndarray  # (J, 3, 3)
    axis_length: float


def joint_set(rig: Rig) -> np.ndarray:
    if not rig.skins:
        return np.zeros(0, dtype=np.int64)
    return np.unique(np.concatenate([sk.joints for sk in rig.skins]))


@dataclasses.dataclass(frozen=True, eq=False)
class _BoneLayout:
    """Which nodes :func:`bones` joins: it depends on the rig alone, so it is worked out once."""

    joints: np.ndarray  # (J,) the skin joints
    child: np.ndarray  # (C,) joints whose parent is a joint: one bone each, parent to child
    leaves: np.ndarray  # (L,) joints without a child joint: a stub each
    leaf_parent: np.ndarray  # (L,) the leaf's parent joint, or -1 (no parent or not a joint)


def _bone_layout(rig: Rig) -> _BoneLayout:
    layout = rig._compiled.get("bone_layout")
    if layout is None:
        joints = joint_set(rig)
        is_joint = np.zeros(len(rig), dtype=bool)
        is_joint[joints] = True
        child = np.flatnonzero(is_joint & (rig.parents >= 0))
        child = child[is_joint[rig.parents[child]]]
        has_child = np.zeros(len(rig), dtype=bool)
        has_child[rig.parents[child]] = True
        leaves = joints[~has_child[joints]]
        p = rig.parents[leaves]
        leaf_parent = np.where((p >= 0) & is_joint[np.maximum(p, 0)], p, -1)
        layout = rig._compiled["bone_layout"] = _BoneLayout(joints, child, leaves, leaf_parent)
    return layout


def bones(rig: Rig, pose: Pose) -> Bones:
    """Bones of every skin for drawing: joint-to-child segments and a stub at each leaf.

    A leaf's stub continues its parent bone's direction at half its length
    (or runs along the joint's local +Y when it has no parent joint).
    """
    lay = _bone_layout(rig)
    joints, child, leaves = lay.joints, lay.child, lay.leaves
    pos = pose.world[:, :3, 3]
    segs = np.stack([pos[rig.parents[child]], pos[child]], axis=1).reshape(-1, 2, 3)
    lengths = np.linalg.norm(segs[:, 1] - segs[:, 0], axis=1)
    typical = float(np.median(lengths)) if lengths.size and np.median(lengths) > 0 else 0.1
    rot = pose.world[:, :3, :3]
    axes = rot[joints].transpose(0, 2, 1)  # rows: world images of local x, y, z
    axes = axes / np.maximum(np.linalg.norm(axes, axis=2, keepdims=True), 1e-300)
    if len(leaves):
        at = pos[leaves]
        d = np.where((lay.leaf_parent >= 0)[:, None], at - pos[np.maximum(lay.leaf_parent, 0)],
                     0.0)
        length = 0.5 * np.linalg.norm(d, axis=1)
        alone = length == 0.0
        d[alone] = rot[leaves[alone]][:, :, 1]
        length[alone] = 0.5 * typical
        norm = np.linalg.norm(d, axis=1)
        some = np.any(d != 0, axis=1)
        tip = at.copy()
        tip[some] = at[some] + d[some] / norm[some, None] * length[some, None]
        segs = np.concatenate([segs, np.stack([at, tip], axis=1)])
    ends = np.concatenate([child, leaves]).astype(np.int64)
    return Bones(joints, pos[joints], segs, ends, axes, 0.25 * typical)


def scene_bounds(rig: Rig, pose: Pose, meshes: list[PosedMesh] | None = None):
    """``(lo, hi)``, each ``(3,)``: bounds of the posed vertices and joints (for framing).

    Pass the result of :func:`skin_meshes` as ``meshes`` to avoid skinning
    twice. With no meshes and no joints, the node origins are used.
    """
    if meshes is None:
        meshes = skin_meshes(rig, pose)
    pts = [m.vertices for m in meshes if len(m.vertices)]
    joints = joint_set(rig)
    pts.append(pose.world[joints, :3, 3])
    pts = np.concatenate(pts)
    if not len(pts):
        pts = pose.world[:, :3, 3]
    return pts.min(axis=0), pts.max(axis=0)
