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

from quatlab.rendering import themes
from quatlab.rendering.style import AXIS_COLORS, rgba

__all__ = ["BoneGeometry", "ball", "bone_geometry", "bake", "frame_transform", "gizmo_lines",
           "as_rgba", "fin", "fin_outline", "BONE_WIDTH", "BONE_WAIST", "FIN_HEIGHT",
           "FIN_THICKNESS"]

BONE_WIDTH = 0.11               # widest bone radius, as a fraction of its length
BONE_WAIST = 0.18               # where along the bone it is widest, fraction of length
FIN_HEIGHT = 0.24               # height of a bone's fin along its local +Z, fraction of length
FIN_THICKNESS = 0.012           # half thickness of a fin (and of the hand), fraction of length


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


def fin(outline, half_thickness: float) -> tuple[np.ndarray, np.ndarray]:
    """Triangles and flat outward normals of a thin plate in the local XZ plane.

    ``outline`` is a convex polygon of (x, z) corners; the plate is that
    polygon extruded by ``half_thickness`` either side along Y, so both of
    its faces are lit and it reads edge-on as a line. A plate sticking out
    of a bone along +Z makes a turn about the bone's own axis visible: the
    bone alone looks the same at every twist.
    """
    poly = np.asarray(outline, dtype=np.float64)
    n = len(poly)
    side = [np.column_stack([poly[:, 0], np.full(n, y), poly[:, 1]])
            for y in (-half_thickness, half_thickness)]
    tris = []
    for face in side:                                    # the two flat faces, fanned
        tris += [[face[0], face[i], face[i + 1]] for i in range(1, n - 1)]
    for i in range(n):                                   # the rim, two triangles per edge
        j = (i + 1) % n
        tris += [[side[0][i], side[0][j], side[1][j]], [side[0][i], side[1][j], side[1][i]]]
    tri = np.array(tris)
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    centre = np.vstack(side).mean(axis=0)
    outward = np.einsum("ij,ij->i", normal, tri.mean(axis=1) - centre)
    normal *= np.sign(outward)[:, None] / np.linalg.norm(normal, axis=1, keepdims=True)
    return tri.reshape(-1, 3), np.repeat(normal, 3, axis=0)


def fin_outline(length: float, hand_height: float | None = None) -> list[tuple[float, float]]:
    """Corners (x, z) of a bone's fin, or with ``hand_height`` of the hand on the last bone.

    In the bone's local frame (x along the bone from its joint, z its fin's
    side): what :func:`bone_geometry` extrudes, and what the labels keep clear of.

    >>> fin_outline(1.0)
    [(0.3, 0.0), (0.85, 0.0), (0.42, 0.24)]
    """
    if hand_height is None:
        return [(0.3 * length, 0.0), (0.85 * length, 0.0), (0.42 * length, FIN_HEIGHT * length)]
    return [(0.35 * length, 0.0), (length, 0.0), (length, hand_height), (0.8 * length, hand_height)]


def bone_geometry(length: float, ball_radius: float, tip_radius: float | None,
                  hand_height: float | None = None) -> BoneGeometry:
    """Octahedral bone along +X from 0 to ``length`` with a ball at its joint.

    The octahedron is the bone shape animators know from Blender and Maya;
    its flat facets catch the light differently as the bone spins about its
    own axis, which a round tube would hide: a twist is part of what the
    student must see. The balls get smooth normals, which a MeshData (flat
    or smooth for the whole mesh) cannot mix with flat facets in one item.

    Facets alone are subtle from across a lecture hall, so every bone also
    carries a :func:`fin` along its local +Z, and the last bone (given
    ``hand_height``) a flat "hand" rising from its tip to the point the tip
    trail follows (:func:`quatlab.rendering.chain.marker_trail`): a half
    turn about the bone axis then flips the fins and swings the hand round.
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
    parts.append(fin(fin_outline(length, hand_height), FIN_THICKNESS * length))
    if tip_radius is not None:
        parts.append(ball([length, 0.0, 0.0], tip_radius))
        if hand_height is not None:
            parts.append(ball([length, 0.0, hand_height], 0.6 * tip_radius))
    edges = np.array([[0, 1 + i] for i in range(4)] + [[5, 1 + i] for i in range(4)]
                     + [[1 + i, 1 + (i + 1) % 4] for i in range(4)], dtype=np.uint32)
    vertexes, normals = _counter_clockwise(np.concatenate([p[0] for p in parts]),
                                           np.concatenate([p[1] for p in parts]))
    return BoneGeometry(
        vertexes=vertexes.astype(np.float32),
        normals=normals.astype(np.float32),
        edge_verts=corners.astype(np.float32),
        edges=edges,
    )


def _counter_clockwise(vertexes: np.ndarray,
                       normals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The triangles (three corners each) wound counter-clockwise seen from their normals' side.

    So that GL can cull the faces turned away from the camera: a translucent
    ghost then blends one layer of each surface, its front, not the front
    over its own darker back.
    """
    tri, n = vertexes.reshape(-1, 3, 3).copy(), normals.reshape(-1, 3, 3).copy()
    winding = np.einsum("ij,ij->i", np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]),
                        n.sum(axis=1))
    flip = winding < 0
    tri[flip] = tri[flip][:, ::-1]
    n[flip] = n[flip][:, ::-1]
    return tri.reshape(-1, 3), n.reshape(-1, 3)


def bake(geometry: list[BoneGeometry], poses, *, edges: bool = False) -> BoneGeometry:
    """The bones of every pose in ``poses`` as one triangle soup (and, if asked, their edges).

    ``poses`` holds ``(positions, rotation_matrices)`` pairs from the chain's
    forward kinematics, in whatever frame the result is to be drawn in;
    without ``edges`` the result has none (ghosts are drawn without).
    """
    verts, normals = [np.empty((0, 3), np.float32)], [np.empty((0, 3), np.float32)]
    corners, lines, n = [np.empty((0, 3), np.float32)], [np.empty((0, 2), np.uint32)], 0
    for positions, matrices in poses:
        for k, g in enumerate(geometry):
            verts.append(g.vertexes @ matrices[k].T + positions[k])
            normals.append(g.normals @ matrices[k].T)
            if edges:
                corners.append(g.edge_verts @ matrices[k].T + positions[k])
                lines.append(g.edges + n)
                n += len(g.edge_verts)
    return BoneGeometry(
        vertexes=np.concatenate(verts).astype(np.float32),
        normals=np.concatenate(normals).astype(np.float32),
        edge_verts=np.concatenate(corners).astype(np.float32),
        edges=np.concatenate(lines).astype(np.uint32),
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
    """Any colour pyqtgraph takes as floats; a colour name in the current theme."""
    if isinstance(color, str):
        color = themes.themed(color)
    return tuple(pg.mkColor(color).getRgbF())
