"""A BVH skeleton's channels as rotations and transforms: quaternions, matrices, poses. No Qt.

Rotation channels listed as ``Zrotation Xrotation Yrotation`` mean
``R = Rz Rx Ry`` on column vectors (docs/conventions.md, "BVH channel order");
quaternions are (w, x, y, z).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np

from quatlab.math import quaternion as Q

if TYPE_CHECKING:
    from quatlab.app.io.bvh import BvhFile

__all__ = ["local_rotations", "joint_rotations", "local_translations", "local_matrices",
           "compose_world", "world_matrices", "world_positions"]


_AXIS = {"X": np.array([1.0, 0, 0]), "Y": np.array([0, 1.0, 0]), "Z": np.array([0, 0, 1.0])}


def local_rotations(bvh: BvhFile) -> np.ndarray:
    """Local rotation of every joint and frame, ``(F, J, 4)`` (w, x, y, z).

    Three rotation channels with no axis twice in a row are an Euler order
    for :func:`quatlab.math.quaternion.from_euler` (``Zrotation Xrotation
    Yrotation`` is intrinsic ``"ZXY"``); any other list (one or two
    channels) is the product of its elementary rotations in listed order.
    A joint without rotation channels has the identity. One joint at a
    time: :func:`joint_rotations`.

    Examples
    --------
    >>> from quatlab.app.io.bvh import parse_bvh
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 3 Zrotation Xrotation"
    ...               b" Yrotation\\n}\\nMOTION\\nFrames: 1\\nFrame Time: 1\\n90 0 0\\n")
    >>> np.round(local_rotations(b), 6)    # 90 deg about Z, (w, x, y, z)
    array([[[0.707107, 0.      , 0.      , 0.707107]]])
    """
    out = np.empty((bvh.n_frames, bvh.n_joints, 4))
    for j in range(bvh.n_joints):
        out[:, j] = joint_rotations(bvh, j)
    return out


#: Frames converted at once by :func:`joint_rotations`: the conversion's
#: temporaries stay a few megabytes however long the capture.
BLOCK = 1 << 14


def joint_rotations(bvh: BvhFile, joint: int, block: int = BLOCK) -> np.ndarray:
    """Local rotation of one joint at every frame, ``(F, 4)`` (w, x, y, z), contiguous.

    As :func:`local_rotations` (same values), converted ``block`` frames at a time.

    Examples
    --------
    >>> from quatlab.app.io.bvh import parse_bvh
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 2 Zrotation Zrotation"
    ...               b"\\n}\\nMOTION\\nFrames: 1\\nFrame Time: 1\\n45 45\\n")
    >>> np.round(joint_rotations(b, 0), 6)    # two turns of 45 deg about Z
    array([[0.707107, 0.      , 0.      , 0.707107]])
    """
    n = bvh.n_frames
    out = np.empty((n, 4))
    order = bvh.rotation_order(joint)
    if not order:
        out[:] = Q.IDENTITY
        return out
    cols = bvh.rotation_columns(joint)
    euler = len(order) == 3 and order[0] != order[1] and order[1] != order[2]
    for start in range(0, n, block):
        stop = min(start + block, n)
        ang = np.radians(bvh.motion[start:stop, cols])
        if euler:
            out[start:stop] = Q.from_euler(ang, order)
        else:
            q = np.broadcast_to(Q.IDENTITY, (stop - start, 4))
            for i, ax in enumerate(order):
                q = Q.multiply(q, Q.from_axis_angle(_AXIS[ax], ang[:, i]))
            out[start:stop] = q
    return out


def local_translations(bvh: BvhFile) -> np.ndarray:
    """Local translation of every joint and frame, ``(F, J, 3)``: OFFSET plus position channels.

    Missing position channels count as 0.

    Examples
    --------
    >>> from quatlab.app.io.bvh import parse_bvh
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 1 2 3\\n CHANNELS 2 Zrotation Xposition"
    ...               b"\\n}\\nMOTION\\nFrames: 1\\nFrame Time: 1\\n90 5\\n")
    >>> local_translations(b)
    array([[[6., 2., 3.]]])
    """
    F = bvh.n_frames
    out = np.broadcast_to(bvh.offsets, (F,) + bvh.offsets.shape).copy()
    start = bvh.channel_start
    for j, chans in enumerate(bvh.channels):
        for i, c in enumerate(chans):
            if c.endswith("position"):
                out[:, j, "XYZ".index(c[0])] += bvh.motion[:, start[j] + i]
    return out


def local_matrices(bvh: BvhFile) -> np.ndarray:
    """Local 4x4 transforms ``T R`` of every joint and frame, ``(F, J, 4, 4)``.

    Examples
    --------
    >>> from quatlab.app.io.bvh import parse_bvh
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 1 2 3\\n CHANNELS 1 Zrotation"
    ...               b"\\n}\\nMOTION\\nFrames: 1\\nFrame Time: 1\\n90\\n")
    >>> np.round(local_matrices(b)[0, 0], 9) + 0.0
    array([[ 0., -1.,  0.,  1.],
           [ 1.,  0.,  0.,  2.],
           [ 0.,  0.,  1.,  3.],
           [ 0.,  0.,  0.,  1.]])
    """
    F, J = bvh.n_frames, bvh.n_joints
    m = np.zeros((F, J, 4, 4))
    m[..., :3, :3] = Q.to_matrix(local_rotations(bvh))
    m[..., :3, 3] = local_translations(bvh)
    m[..., 3, 3] = 1.0
    return m


def _world(bvh: BvhFile, local: np.ndarray) -> np.ndarray:
    return compose_world(bvh.parents, local)


def compose_world(parents, local: np.ndarray) -> np.ndarray:
    """World transforms ``(..., J, 4, 4)`` from local ones: ``M_parent M_local`` down the tree.

    ``parents[j]`` (-1 for a root) must come before ``j``, as in a BVH file's joint order.
    """
    world = np.empty_like(local)
    for j, p in enumerate(parents):
        # Parents precede children in file order, so world[p] is ready.
        world[..., j, :, :] = local[..., j, :, :] if p < 0 else world[..., p, :, :] @ local[
            ..., j, :, :
        ]
    return world


def world_matrices(bvh: BvhFile, frame: int) -> np.ndarray:
    """World 4x4 transforms of all joints at ``frame``, ``(J, 4, 4)``: ``M_parent M_local``.

    Examples
    --------
    >>> from quatlab.app.io.bvh import parse_bvh
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 1 Zrotation\\n"
    ...               b" JOINT B\\n {\\n  OFFSET 1 0 0\\n }\\n}\\nMOTION\\nFrames: 1\\n"
    ...               b"Frame Time: 1\\n90\\n")
    >>> np.round(world_matrices(b, 0)[1, :3, 3], 9) + 0.0     # B turned with A
    array([0., 1., 0.])
    """
    if not -bvh.n_frames <= frame < bvh.n_frames:
        raise IndexError(f"frame {frame} out of range for {bvh.n_frames} frames")
    one = dataclasses.replace(
        bvh, motion=bvh.motion[frame:frame + 1] if frame >= 0 else bvh.motion[frame:][:1])
    return _world(one, local_matrices(one))[0]


def world_positions(bvh: BvhFile, *, end_sites: bool = False) -> np.ndarray:
    """World position of every joint at every frame, ``(F, J, 3)``.

    With ``end_sites`` the End Sites follow the joints, ``(F, J + E, 3)``.

    Examples
    --------
    >>> from quatlab.app.io.bvh import parse_bvh
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 1 Zrotation\\n"
    ...               b" End Site\\n {\\n  OFFSET 1 0 0\\n }\\n}\\nMOTION\\nFrames: 2\\n"
    ...               b"Frame Time: 1\\n0\\n90\\n")
    >>> np.round(world_positions(b, end_sites=True)[:, 1], 9) + 0.0
    array([[1., 0., 0.],
           [0., 1., 0.]])
    """
    world = _world(bvh, local_matrices(bvh))
    pos = world[..., :3, 3]
    if not end_sites or not bvh.end_sites:
        return pos
    parent = np.array([e.parent for e in bvh.end_sites], dtype=np.intp)
    off = np.array([e.offset for e in bvh.end_sites])
    pw = world[:, parent]                # (F, E, 4, 4)
    ends = np.einsum("fejk,ek->fej", pw[..., :3, :3], off) + pw[..., :3, 3]
    return np.concatenate([pos, ends], axis=1)
