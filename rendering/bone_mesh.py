"""Triangle meshes of the chain's bones and joints, and the gizmo line geometry (numpy only).

Built once per chain and moved by per-bone transforms afterwards, so a
change of t costs matrix uploads, not mesh rebuilds (see
:mod:`quatlab.rendering.chain_scene`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
import pyqtgraph.opengl as gl

from quatlab.rendering.style import AXIS_COLORS, rgba

__all__ = ["BoneGeometry", "ball", "bone_geometry", "bake", "frame_transform", "gizmo_lines",
           "as_rgba", "BONE_WIDTH", "BONE_WAIST"]

BONE_WIDTH = 0.11               # widest bone radius, as a fraction of its length
BONE_WAIST = 0.18               # where along the bone it is widest, fraction of length


@dataclass(frozen=True)
class BoneGeometry:
    """Triangle soup of one bone with its joint ball (and the tip ball on the last bone)."""

    vertexes: np.ndarray    # (3 F, 3) float32, three corners per triangle
    normals: np.ndarray     # (3 F, 3) float32, one per corner
    edge_verts: np.ndarray  # (V, 3) float32, the octahedron's corners
    edges: np.ndarray       # (E, 2) uint32, its twelve edges


def ball(center, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Triangles and exact smooth normals of a ball (normals point from the centre)."""
    md = gl.MeshData.sphere(rows=10, cols=18, radius=radius)
    tri = md.vertexes()[md.faces()].reshape(-1, 3)
    return tri + np.asarray(center), tri / radius


def bone_geometry(length: float, ball_radius: float, tip_radius: float | None) -> BoneGeometry:
    """Octahedral bone along +X from 0 to ``length`` with a ball at its joint.

    The octahedron is the bone shape animators know from Blender and Maya;
    its flat facets catch the light differently as the bone spins about its
    own axis, which a round tube would hide: a twist is part of what the
    student must see. The balls get smooth normals, which a MeshData (flat
    or smooth for the whole mesh) cannot mix with flat facets in one item.
    """
    w = BONE_WIDTH * length
    ring = np.array([[BONE_WAIST * length, w * np.cos(a), w * np.sin(a)]
                     for a in np.radians([45.0, 135.0, 225.0, 315.0])])
    corners = np.vstack([[0.0, 0.0, 0.0], ring, [length, 0.0, 0.0]])
    faces = np.array([[end, 1 + i, 1 + (i + 1) % 4] for end in (0, 5) for i in range(4)])
    tri = corners[faces]
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    # Outward for a convex solid: away from its centre.
    outward = np.einsum("ij,ij->i", normal, tri.mean(axis=1) - corners.mean(axis=0))
    normal *= np.sign(outward)[:, None] / np.linalg.norm(normal, axis=1, keepdims=True)
    parts = [(tri.reshape(-1, 3), np.repeat(normal, 3, axis=0)),
             ball([0.0, 0.0, 0.0], ball_radius)]
    if tip_radius is not None:
        parts.append(ball([length, 0.0, 0.0], tip_radius))
    edges = np.array([[0, 1 + i] for i in range(4)] + [[5, 1 + i] for i in range(4)]
                     + [[1 + i, 1 + (i + 1) % 4] for i in range(4)], dtype=np.uint32)
    return BoneGeometry(
        vertexes=np.concatenate([p[0] for p in parts]).astype(np.float32),
        normals=np.concatenate([p[1] for p in parts]).astype(np.float32),
        edge_verts=corners.astype(np.float32),
        edges=edges,
    )


def bake(geometry: list[BoneGeometry], poses) -> BoneGeometry:
    """The bones of every pose in ``poses`` as one world-space triangle soup.

    ``poses`` holds ``(positions, rotation_matrices)`` pairs from the chain's
    forward kinematics; the result has no edges (ghosts are drawn without).
    """
    verts, normals = [np.empty((0, 3), np.float32)], [np.empty((0, 3), np.float32)]
    for positions, matrices in poses:
        for k, g in enumerate(geometry):
            verts.append(g.vertexes @ matrices[k].T + positions[k])
            normals.append(g.normals @ matrices[k].T)
    return BoneGeometry(
        vertexes=np.concatenate(verts).astype(np.float32),
        normals=np.concatenate(normals).astype(np.float32),
        edge_verts=np.empty((0, 3), np.float32),
        edges=np.empty((0, 2), np.uint32),
    )


def frame_transform(rotation: np.ndarray, origin: np.ndarray) -> pg.Transform3D:
    """4x4 transform (row-major, as QMatrix4x4 takes it) of a rotation matrix and origin."""
    m = np.eye(4)
    m[:3, :3] = rotation
    m[:3, 3] = origin
    return pg.Transform3D(m)


def gizmo_lines(length: float) -> tuple[np.ndarray, np.ndarray]:
    pos = np.zeros((6, 3), dtype=np.float32)
    color = np.empty((6, 4), dtype=np.float32)
    for axis in range(3):
        pos[2 * axis + 1, axis] = length
        color[2 * axis : 2 * axis + 2] = rgba(AXIS_COLORS[axis])
    return pos, color


def as_rgba(color) -> tuple[float, float, float, float]:
    return tuple(pg.mkColor(color).getRgbF())
