"""An FBX scene as plain arrays: nodes, clips, layers, curves, meshes and skins. No Qt.

:class:`FbxScene` is what :func:`quatlab.app.io.fbx.loader.read_fbx` returns:
everything the ufbx loader read, copied out of its child process
(docs/formats.md, "FBX"). Times are seconds, angles degrees, matrices
``(4, 4)`` act on column vectors. Node indices follow the loader's node list
without its synthetic root (a parent of -1 is a root of the file).

Evaluating the scene at a time (curves, layers, transforms) is
:mod:`quatlab.app.io.fbx.evaluate`.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

__all__ = [
    "FbxScene", "ROTATION_ORDERS", "INTERPOLATIONS", "EXTRAPOLATIONS", "SKINNING_METHODS",
    "PROP_NAMES", "VECTOR_PROPS", "LAYER_FLAGS",
]

#: ufbx's rotation orders by number. ``"XYZ"`` rotates about X first, then Y, then Z
#: (``R = Rz Ry Rx`` on column vectors); ``SPHERIC`` is read as ``XYZ``, as ufbx does.
ROTATION_ORDERS = ("XYZ", "XZY", "YZX", "YXZ", "ZXY", "ZYX", "SPHERIC")
#: Key interpolation modes by number (the mode of the segment that starts at the key).
INTERPOLATIONS = ("constant", "constant_next", "linear", "cubic")
#: Extrapolation modes by number (before the first key and after the last).
EXTRAPOLATIONS = ("constant", "repeat", "mirror", "slope", "repeat_relative")
#: Skinning methods by number.
SKINNING_METHODS = ("linear", "rigid", "dual_quaternion", "blended_dq_linear")
#: Animated properties kept, by number (``prop_rows[:, 2]``).
PROP_NAMES = ("Lcl Translation", "Lcl Rotation", "Lcl Scaling", "RotationOrder", "Weight")
#: Static vector properties of a node, by number (``node_props[:, k]``).
VECTOR_PROPS = ("Lcl Translation", "Lcl Rotation", "Lcl Scaling", "PreRotation",
                "PostRotation", "RotationPivot", "RotationOffset", "ScalingPivot",
                "ScalingOffset")
#: Columns of ``layer_flags``.
LAYER_FLAGS = ("weight_is_animated", "blended", "additive", "compose_rotation", "compose_scale")


@dataclasses.dataclass(frozen=True, eq=False)
class FbxScene:
    """Everything read from one FBX file (module docs).

    Attributes
    ----------
    node_names : tuple of str
    node_parent : ndarray (N,) int
        Parent node, -1 for a root.
    node_order : ndarray (N,) int
        Static rotation order (:data:`ROTATION_ORDERS`); an animated
        ``RotationOrder`` property overrides it (``prop_rows``).
    node_inherit, node_scale_node : ndarray (N,) int
        ufbx's inherit mode (0 normal, 1 ignore parent scale, 2 component-wise)
        and the node whose scale is inherited (-1: none).
    node_kind : ndarray (N,) int
        ufbx element type of the node's attribute (5 bone, 2 mesh, 0 none...).
    node_props : ndarray (N, 9, 3)
        Static :data:`VECTOR_PROPS` (degrees for rotations).
    node_geometry, node_rest_local : ndarray (N, 4, 4)
        Geometry-to-node transform; the loader's node-to-parent matrix at rest.
    stack_names, stack_range, stack_layers
        Clips: names, ``(S, 2)`` time range, and for each the indices of its
        layers in order (a tuple of arrays).
    layer_names, layer_weight, layer_flags
        Layers: names, weight (0..1) and :data:`LAYER_FLAGS` ``(L, 5)``.
    prop_rows : ndarray (P, 3) int
        Animated properties: layer, target node (-2: the layer itself, for
        its ``Weight``), property (:data:`PROP_NAMES`).
    prop_default, prop_curves : ndarray (P, 3)
        Each property's value where a component has no curve, and the curve
        of each component (-1: none).
    curve_key_start : ndarray (C + 1,) int
        Curve ``c`` owns keys ``curve_key_start[c]:curve_key_start[c + 1]``.
    keys : ndarray (K, 7)
        Time, value, interpolation (:data:`INTERPOLATIONS`), left tangent
        ``(dx, dy)``, right tangent ``(dx, dy)`` (ufbx's Bezier handles).
    curve_extrapolation : ndarray (C, 4) int
        Pre mode, pre repeat count, post mode, post repeat count.
    mesh_rows : ndarray (M, 4) int
        A mesh placed at a node: node, first vertex, first triangle, skinning
        method (-1: rigid).
    mesh_positions, mesh_triangles
        Vertices ``(V, 3)`` in the mesh's geometry space, triangles ``(T, 3)``
        indexing each mesh's own vertices.
    cluster_mesh, cluster_bone, cluster_geometry_to_bone
        Skin clusters: mesh row, bone node, geometry-to-bone matrix (the
        inverse bind matrix of glTF).
    influence_start, influence_cluster, influence_weight
        Per vertex (all meshes, in order) its influences
        ``influence_start[v]:influence_start[v + 1]``.
    vertex_dq_weight : ndarray (V,)
        Dual-quaternion blend weight per vertex (0: linear).
    eval_local : ndarray (S, T, N, 10) or None
        The loader's own local transforms (translation, rotation (x, y, z, w),
        scale) at the times asked for (tests).
    eval_world : ndarray (S, T, N, 4, 4) or None
        The loader's world matrices of its evaluated scene at those times.
    eval_skinned : ndarray (S, T, V, 3) or None
        The loader's skinned vertex positions (world space; NaN where it keeps
        a mesh in its own space) at those times.
    """

    path: Path
    version: int
    ascii: bool
    creator: str
    fps: float
    ktime_second: int
    unit_meters: float
    warnings: tuple[str, ...]
    node_names: tuple[str, ...]
    node_parent: np.ndarray
    node_order: np.ndarray
    node_inherit: np.ndarray
    node_scale_node: np.ndarray
    node_kind: np.ndarray
    node_props: np.ndarray
    node_geometry: np.ndarray
    node_rest_local: np.ndarray
    stack_names: tuple[str, ...]
    stack_range: np.ndarray
    stack_layers: tuple[np.ndarray, ...]
    layer_names: tuple[str, ...]
    layer_weight: np.ndarray
    layer_flags: np.ndarray
    prop_rows: np.ndarray
    prop_default: np.ndarray
    prop_curves: np.ndarray
    curve_key_start: np.ndarray
    keys: np.ndarray
    curve_extrapolation: np.ndarray
    mesh_rows: np.ndarray
    mesh_positions: np.ndarray
    mesh_triangles: np.ndarray
    cluster_mesh: np.ndarray
    cluster_bone: np.ndarray
    cluster_geometry_to_bone: np.ndarray
    influence_start: np.ndarray
    influence_cluster: np.ndarray
    influence_weight: np.ndarray
    vertex_dq_weight: np.ndarray
    eval_local: np.ndarray | None = None
    eval_world: np.ndarray | None = None
    eval_skinned: np.ndarray | None = None

    @property
    def n_nodes(self) -> int:
        return len(self.node_names)

    @property
    def n_curves(self) -> int:
        return len(self.curve_key_start) - 1

    def curve_keys(self, curve: int) -> np.ndarray:
        """Curve ``curve``'s keys ``(k, 7)`` (see :attr:`keys`)."""
        return self.keys[self.curve_key_start[curve]:self.curve_key_start[curve + 1]]

    def props_of(self, node: int, prop: str, stack: int) -> list[tuple[int, int]]:
        """``(layer, property row)`` of ``prop`` on ``node`` in ``stack``'s layers, in order."""
        want = PROP_NAMES.index(prop)
        rows = np.flatnonzero((self.prop_rows[:, 1] == node) & (self.prop_rows[:, 2] == want))
        out = []
        for layer in self.stack_layers[stack]:
            out.extend((int(layer), int(r)) for r in rows if self.prop_rows[r, 0] == layer)
        return out

    def rotation_key_times(self, node: int, stack: int) -> np.ndarray:
        """Sorted unique times of ``node``'s rotation curve keys in ``stack`` (any layer)."""
        times = [self.curve_keys(int(c))[:, 0]
                 for _, r in self.props_of(node, "Lcl Rotation", stack)
                 for c in self.prop_curves[r] if c >= 0]
        return np.unique(np.concatenate(times)) if times else np.zeros(0)

    def animated_nodes(self, stack: int, prop: str = "Lcl Rotation") -> np.ndarray:
        """Nodes with a curve of ``prop`` in any layer of ``stack``, sorted."""
        want = PROP_NAMES.index(prop)
        layers = set(int(x) for x in self.stack_layers[stack])
        rows = [r for r in range(len(self.prop_rows))
                if self.prop_rows[r, 2] == want and int(self.prop_rows[r, 0]) in layers
                and self.prop_rows[r, 1] >= 0 and (self.prop_curves[r] >= 0).any()]
        return np.unique(self.prop_rows[rows, 1]) if rows else np.zeros(0, dtype=np.int64)

    def depth(self) -> np.ndarray:
        """Depth of each node (roots 0); the parents were checked to form a forest."""
        depth = np.full(self.n_nodes, -1, dtype=np.int64)
        for i in range(self.n_nodes):
            chain = []
            j = i
            while j >= 0 and depth[j] < 0:
                chain.append(j)
                j = int(self.node_parent[j])
            d = depth[j] if j >= 0 else -1
            for k in reversed(chain):
                d += 1
                depth[k] = d
        return depth
