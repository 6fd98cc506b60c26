"""A glTF rig as arrays: the node forest in parents-first order, its skins and meshes. No Qt.

The model behind the rig view and ``quatlab pose``. A :class:`Rig` is built
from a :class:`~quatlab.app.io.gltf.scene.GltfScene`: nodes are reordered so
that every parent comes before its children (``parents[i] < i``), which lets
world matrices be composed one depth level at a time with batched matrix
products instead of a Python loop over nodes. Posing it is
:mod:`quatlab.app.model.rig_players`; skinning and drawing aids are
:mod:`quatlab.app.model.skinning`; the JSON pose is
:mod:`quatlab.app.model.pose_report`.

Quaternions are (w, x, y, z), Hamilton product, active rotation; matrices
``(..., 4, 4)`` act on column vectors, ``world = parent_world @ local`` and
``local = T @ R @ S``.

Examples
--------
>>> rig = Rig.chain(3)
>>> rig.parents.tolist(), rig.rest_translation[:, 1].tolist()
([-1, 0, 1], [0.0, 1.0, 1.0])
"""

from __future__ import annotations

import dataclasses
import numbers
from pathlib import Path

import numpy as np

from quatlab.app.io.gltf.materials import decode_image
from quatlab.app.io.gltf.scene import Animation, GltfScene, load_scene, scene_of
from quatlab.app.io.tracks import KeyframeFileError
from quatlab.math import quaternion as Q

__all__ = ["Rig", "RigSkin", "MeshInstance", "load_rig", "rig_of", "compose_trs", "RIG_FORMATS"]

#: ``KeyframeFile.format`` values whose files have a rig (:func:`rig_of`): a scene graph
#: with animations, not a bare table of tracks.
RIG_FORMATS = ("gltf", "glb", "bvh", "fbx", "usda", "usdc", "usdz", "usd")


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
    skinned instances, None for rigid ones. ``materials`` ``(T,)`` is each
    triangle's material index (-1: none); ``uv`` ``(V, 2)`` the texture
    coordinates each vertex's material reads (its ``texCoord`` set; zeros
    where the primitive has none), or None when no triangle is textured.
    """

    node: int  # rig index
    mesh: int
    skin: int | None
    positions: np.ndarray  # (V, 3)
    triangles: np.ndarray  # (T, 3)
    joints: np.ndarray | None
    weights: np.ndarray | None
    materials: np.ndarray | None = None
    uv: np.ndarray | None = None


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
    #: The file's materials and textures (:mod:`quatlab.app.io.gltf.materials`).
    materials: tuple = ()
    textures: tuple = ()
    #: Decodes ``images[i]`` of the file (see :meth:`texture_image`).
    image_reader: object = dataclasses.field(default=None, repr=False)

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
        rest = compose_trs(t, r, s)
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
        reader = getattr(scene, "keyframes", None)
        return cls(scene.path, gltf_index, rig_index, tuple(nd.name for nd in nodes), parents,
                   t, r, s, rest, has_matrix, in_scene,
                   tuple(np.array(rig_index[lev], dtype=np.int64) for lev in levels),
                   skins, meshes, scene.animations, tuple(notes),
                   materials=scene.materials, textures=scene.textures,
                   image_reader=(lambda i: decode_image(reader, i)) if reader is not None
                   else None)

    @classmethod
    def chain(cls, n: int, length: float = 1.0) -> Rig:
        """A chain of ``n`` nodes, each ``length`` along +Y from its parent (for examples)."""
        t = np.zeros((n, 3))
        t[1:, 1] = length
        r = np.tile([1.0, 0.0, 0.0, 0.0], (n, 1))
        s = np.ones((n, 3))
        idx = np.arange(n)
        return cls(None, idx, idx, (None,) * n, idx - 1, t, r, s, compose_trs(t, r, s),
                   np.zeros(n, dtype=bool), np.ones(n, dtype=bool),
                   tuple(np.array([i]) for i in range(n)), (), (), ())

    def texture_image(self, texture: int) -> np.ndarray | None:
        """The RGBA image ``(H, W, 4)`` of ``textures[texture]``, decoded once; None if unusable.

        Why an image could not be had is kept in :meth:`image_problems`.
        """
        image = self.textures[texture].image if 0 <= texture < len(self.textures) else None
        key = ("image", image)  # textures may share an image: decoded once
        if key not in self._compiled:
            out = None
            if image is not None and self.image_reader is not None:
                try:
                    out = self.image_reader(image)
                except ValueError as exc:  # ImageRefused: one line, the view goes on
                    self._compiled.setdefault("image problems", []).append(str(exc))
            self._compiled[key] = out
        return self._compiled[key]

    def image_problems(self) -> list[str]:
        """Why images could not be decoded (one line each), so far."""
        return list(self._compiled.get("image problems", []))

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
    materials = np.concatenate([np.full(len(p.triangles), -1 if p.material is None
                                        else p.material, dtype=np.int64) for p in prims])
    uv = _texcoords(scene, prims)
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
    return MeshInstance(int(rig_index[node.index]), node.mesh, skin, pos, tris, joints, weights,
                        materials, uv)


def _texcoords(scene: GltfScene, prims) -> np.ndarray | None:
    """Per vertex, the texture coordinates its primitive's material reads (see MeshInstance)."""
    rows, textured = [], False
    for p in prims:
        uv = np.zeros((len(p.positions), 2))
        mat = scene.materials[p.material] if p.material is not None and \
            p.material < len(scene.materials) else None
        if mat is not None and mat.texture is not None and mat.texcoord < len(p.texcoords):
            uv = p.texcoords[mat.texcoord]
            textured = True
        rows.append(uv)
    return np.concatenate(rows) if textured else None


def load_rig(path) -> Rig:
    """Load a ``.gltf``/``.glb`` (or USD) file as a :class:`Rig` (errors: ``KeyframeFileError``)."""
    from quatlab.app.io.usd import USD_SUFFIXES  # noqa: PLC0415

    if Path(path).suffix.lower() in USD_SUFFIXES:
        from quatlab.app.io.usd.keyframes import load_usd_keyframes  # noqa: PLC0415

        return rig_of(load_usd_keyframes(path))
    return Rig.from_scene(load_scene(path))


def rig_of(keyframes) -> Rig:
    """The :class:`Rig` of a file already read for its tracks: a ``GltfFile``, BVH, FBX or USD
    file.

    A ``BvhKeyframeFile`` gives its skeleton (:func:`quatlab.app.model.bvh_rig.rig_of_bvh`), an
    ``FbxKeyframeFile`` its nodes, skins and clips (:func:`quatlab.app.model.fbx_rig.rig_of_fbx`),
    a ``UsdKeyframeFile`` its stage (:func:`quatlab.app.model.usd_rig.rig_of_usd`).
    """
    from quatlab.app.io.bvh.keyframes import BvhKeyframeFile  # noqa: PLC0415 - bvh_rig imports us
    from quatlab.app.io.fbx.keyframes import FbxKeyframeFile  # noqa: PLC0415
    from quatlab.app.io.usd.keyframes import UsdKeyframeFile  # noqa: PLC0415
    from quatlab.app.model.bvh_rig import rig_of_bvh  # noqa: PLC0415
    from quatlab.app.model.usd_rig import rig_of_usd  # noqa: PLC0415

    if isinstance(keyframes, BvhKeyframeFile):
        return rig_of_bvh(keyframes.bvh)
    if isinstance(keyframes, UsdKeyframeFile):
        return rig_of_usd(keyframes)
    if isinstance(keyframes, FbxKeyframeFile):
        from quatlab.app.model.fbx_rig import rig_of_fbx  # noqa: PLC0415 - it imports us

        return rig_of_fbx(keyframes)
    return Rig.from_scene(scene_of(keyframes))


def compose_trs(t: np.ndarray, r: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Local matrices ``T @ R @ S`` ``(N, 4, 4)`` from TRS, rotations (w, x, y, z)."""
    m = np.zeros((len(t), 4, 4))
    m[:, :3, :3] = Q.to_matrix(r) * s[:, None, :]  # R @ diag(s): scale the columns
    m[:, :3, 3] = t
    m[:, 3, 3] = 1.0
    return m
