"""The rig view's meshes as triangle soups: flat shading, rigid parts posed in place, one item.

A rig's meshes are drawn by three GL items whatever their number: every
mesh of the pose in one solid soup (in the file's base colours and textures
when it has materials, :mod:`quatlab.rendering.rig_textures`; else a
neutral grey), and the naive runtime's ghost of the
rigid parts and of the skinned meshes (drawn differently, see
:class:`MeshSoups`). Every GL item costs a fixed slice of Python and of
the driver per frame, so the rigid and the skinned meshes share the solid
item. A rigid part's flat-shaded triangles are built once in its node's
space and moved by the node's world matrix each frame, written straight
into the solid soup; skinned meshes are re-shaded from their posed
vertices (:func:`flat_soup`). The view's frame is Z-up: glTF's Y-up world
is turned by :data:`Y_UP`.
"""

from __future__ import annotations

import numpy as np
from OpenGL import GL

from quatlab.rendering.bone_mesh import BoneGeometry
from quatlab.rendering.gl_items import FLAT_LIT_SHADER, BoneItem, GhostItem
from quatlab.rendering.rig_textures import TexturedSoupItem, soup_colours
from quatlab.rendering.style import rgba

__all__ = ["Y_UP", "flat_soup", "to_view", "empty_geometry", "norm_rows", "cross_rows",
           "RigidParts", "MeshSoups"]

#: glTF's Y-up world turned into the view's Z-up one: +90 deg about X.
Y_UP = np.array([[1.0, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])


def to_view(points: np.ndarray) -> np.ndarray:
    """glTF world points ``(..., 3)`` in the view's Z-up frame."""
    return points @ Y_UP[:3, :3].T


def empty_geometry() -> BoneGeometry:
    z3 = np.zeros((0, 3), np.float32)
    return BoneGeometry(z3, z3, z3, np.zeros((0, 2), np.uint32))


def norm_rows(v: np.ndarray) -> np.ndarray:
    """Lengths of the vectors ``(..., 3)``: np.linalg.norm's sum, without its per-call checks."""
    return np.sqrt(np.add.reduce(v * v, axis=-1))


def cross_rows(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Cross products of ``(n, 3)`` vectors, as np.cross computes them (without its set-up)."""
    return np.stack([u[:, 1] * v[:, 2] - u[:, 2] * v[:, 1], u[:, 2] * v[:, 0] - u[:, 0] * v[:, 2],
                     u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]], axis=1)


def flat_soup(vertices: np.ndarray, triangles: np.ndarray) -> BoneGeometry:
    """Triangle soup with one normal per face (flat shading), float32.

    >>> g = flat_soup(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0.0]]), np.array([[0, 1, 2]]))
    >>> g.vertexes.shape, g.normals[0].tolist()
    ((3, 3), [0.0, 0.0, 1.0])
    """
    tri = np.asarray(vertices, dtype=np.float32)[triangles]  # (T, 3, 3)
    n = cross_rows(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    n /= np.maximum(norm_rows(n)[:, None], 1e-20)
    z = np.zeros((0, 3), np.float32)
    return BoneGeometry(tri.reshape(-1, 3), np.repeat(n, 3, axis=0).astype(np.float32), z,
                        np.zeros((0, 2), np.uint32))


def _soup(vertexes: np.ndarray, normals: np.ndarray) -> BoneGeometry:
    z3 = np.zeros((0, 3), np.float32)
    return BoneGeometry(vertexes, normals, z3, np.zeros((0, 2), np.uint32))


class RigidParts:
    """Rigid mesh instances as one flat-shaded soup in their nodes' spaces, posed by world matrices.

    ``meshes`` are :class:`~quatlab.app.model.rig.MeshInstance` without a
    skin. :meth:`pose` writes the posed soup of the parts asked for into
    given arrays; each part is one product with its node's matrix (normals
    by the inverse transpose: exact under non-uniform scale too), no copy
    per part.
    """

    def __init__(self, meshes: list) -> None:
        soups = [flat_soup(m.positions, m.triangles) for m in meshes]
        self.nodes = np.array([m.node for m in meshes], dtype=np.int64)
        self.counts = np.array([len(g.vertexes) for g in soups], dtype=np.int64)
        self.starts = np.concatenate([[0], np.cumsum(self.counts)])
        self.vertexes = np.concatenate([g.vertexes for g in soups]) if soups \
            else np.zeros((0, 3), np.float32)
        self.normals = np.concatenate([g.normals for g in soups]) if soups \
            else np.zeros((0, 3), np.float32)

    def __len__(self) -> int:
        """The number of soup vertices of all parts."""
        return int(self.starts[-1])

    def size(self, parts: np.ndarray) -> int:
        """The number of soup vertices of the parts ``parts`` (indices)."""
        return int(self.counts[parts].sum())

    def pose(self, world: np.ndarray, parts: np.ndarray, vertexes: np.ndarray,
             normals: np.ndarray) -> None:
        """Write the parts ``parts`` (indices, in order) posed by ``world`` ``(N, 4, 4)``.

        ``vertexes`` and ``normals`` are float ``(self.size(parts), 3)``, in the view's frame.
        """
        m = world[self.nodes[parts]]
        basis = Y_UP[:3, :3] @ m[:, :3, :3]  # (P, 3, 3)
        shift = m[:, :3, 3] @ Y_UP[:3, :3].T  # (P, 3)
        inverse = np.linalg.inv(basis) if len(parts) else basis
        at = 0
        for k, part in enumerate(parts):
            a, b = self.starts[part], self.starts[part + 1]
            rows = slice(at, at + b - a)
            np.matmul(self.vertexes[a:b], basis[k].T, out=vertexes[rows])
            vertexes[rows] += shift[k]
            np.matmul(self.normals[a:b], inverse[k], out=normals[rows])
            at += b - a
        n = normals[:at]
        n /= np.maximum(norm_rows(n), 1e-20)[:, None]


class MeshSoups:
    """The GL items of a rig's meshes: one solid soup for all, a ghost each for rigid and skinned.

    ``shown`` are the mesh instances in the scene, in the order of the
    frame's posed meshes (:attr:`~quatlab.app.model.rig_playback.RigFrame.spec_meshes`).
    A rigid part moves as a whole: its ghost shows through whatever covers
    it (the truck's wheels turn inside the body). A skinned mesh's ghost is
    depth-tested, so only the parts that moved show. ``solid_options`` and
    ``ghost_options`` are the items' GL states; ``order`` their depth values.
    """

    def __init__(self, shown: list, *, color: str, ghost_color: str, ghost_alpha: float,
                 solid_options: dict, ghost_options: dict, order: tuple[int, int],
                 onion_alpha: float = 0.2, materials: tuple = (), images: dict | None = None
                 ) -> None:
        self.shown = shown
        self.rigid = [k for k, m in enumerate(shown) if m.skin is None]
        self.skinned = [k for k, m in enumerate(shown) if m.skin is not None]
        self.parts = RigidParts([shown[k] for k in self.rigid])
        empty = empty_geometry()
        coloured = materials and any(m.materials is not None and (m.materials >= 0).any()
                                     for m in shown)
        if coloured:
            # The asset's own colours (rig_textures): the soup's order, rigid then skinned.
            ordered = [shown[k] for k in (*self.rigid, *self.skinned)]
            self.solid = TexturedSoupItem(empty, soup_colours(ordered, materials, color),
                                          images or {}, glOptions=dict(solid_options))
        else:
            self.solid = BoneItem(empty, shader=FLAT_LIT_SHADER, color=rgba(color),
                                  glOptions=dict(solid_options))
        self.solid.setDepthValue(order[0])
        self.ghosts: dict[bool, GhostItem] = {}  # rigid? -> item
        for rigid, group in ((True, self.rigid), (False, self.skinned)):
            if group:
                options = {**ghost_options, GL.GL_DEPTH_TEST: False} if rigid \
                    else dict(ghost_options)
                ghost = GhostItem(empty, shader=FLAT_LIT_SHADER,
                                  color=rgba(ghost_color, ghost_alpha), glOptions=options)
                ghost.setDepthValue(order[1])
                self.ghosts[rigid] = ghost
        # The naive runtime at a few times of a parted segment, fainter (show_onion).
        self.onions: dict[bool, GhostItem] = {}
        for rigid in self.ghosts:
            # Depth-tested even for rigid parts: a faint copy showing through
            # the body would only blur the ghost of the present moment.
            onion = GhostItem(empty, shader=FLAT_LIT_SHADER,
                              color=rgba(ghost_color, onion_alpha), glOptions=dict(ghost_options))
            onion.setDepthValue(order[1] - 1)
            onion.setVisible(False)
            self.onions[rigid] = onion
        self._onion_key: tuple = ()

    @property
    def items(self) -> list:
        """The GL items, to add to (and remove from) the view."""
        return [self.solid, *self.ghosts.values(), *self.onions.values()]

    def show(self, world: np.ndarray, posed) -> None:
        """Pose the solid soup: the rigid parts by ``world``, the skinned meshes as ``posed``.

        ``posed`` is a callable giving the frame's posed meshes; it is called only
        when there are skinned meshes (the rigid parts need only ``world``).
        """
        self.solid.set_geometry(self._soup(self.rigid, self.skinned, world, posed))
        self.solid.setVisible(True)

    def show_ghost(self, world: np.ndarray, posed, moved) -> None:
        """Pose the ghosts: the meshes ``moved(mesh)`` says differ between the players."""
        for rigid, ghost in self.ghosts.items():
            keys = [k for k in (self.rigid if rigid else self.skinned)
                    if moved(self.shown[k])]
            ghost.setVisible(bool(keys))
            if keys:
                ghost.set_geometry(self._soup(keys, [], world, posed) if rigid
                                   else self._soup([], keys, world, posed))

    def show_onion(self, poses, moved, key) -> None:
        """The onion skin: the meshes ``moved(mesh)`` says, posed as each of ``poses``.

        ``poses`` are ``(world, posed meshes)`` pairs; ``key`` names them: the
        soups are built again only when it changes (not per time).
        """
        if key == self._onion_key:
            return
        self._onion_key = key
        for rigid, onion in self.onions.items():
            keys = [k for k in (self.rigid if rigid else self.skinned) if moved(self.shown[k])]
            soups = [self._soup(keys, [], world, lambda m=meshes: m) if rigid
                     else self._soup([], keys, world, lambda m=meshes: m)
                     for world, meshes in poses] if keys else []
            soups = [g for g in soups if len(g.vertexes)]
            onion.setVisible(bool(soups))
            if soups:
                onion.set_geometry(_soup(np.concatenate([g.vertexes for g in soups]),
                                         np.concatenate([g.normals for g in soups])))

    def hide_onion(self) -> None:
        self._onion_key = ()
        for onion in self.onions.values():
            onion.setVisible(False)

    def hide(self) -> None:
        for item in self.items:
            item.setVisible(False)
        self._onion_key = ()

    def _soup(self, rigid: list, skinned: list, world: np.ndarray, posed) -> BoneGeometry:
        """One soup: the rigid meshes ``rigid``, then the skinned ``skinned`` (shown indices)."""
        parts = np.searchsorted(self.rigid, rigid).astype(np.int64) if rigid \
            else np.zeros(0, np.int64)
        meshes = posed() if skinned else []
        shaded = [flat_soup(to_view(meshes[k].vertices), meshes[k].triangles) for k in skinned]
        if not rigid:  # float32 already: no round trip through the posing arrays
            if len(shaded) == 1:
                return shaded[0]
            if shaded:
                return _soup(np.concatenate([g.vertexes for g in shaded]),
                             np.concatenate([g.normals for g in shaded]))
        n = self.parts.size(parts)
        total = n + sum(len(g.vertexes) for g in shaded)
        vertexes, normals = np.empty((total, 3)), np.empty((total, 3))
        self.parts.pose(world, parts, vertexes, normals)
        for g in shaded:
            vertexes[n:n + len(g.vertexes)] = g.vertexes
            normals[n:n + len(g.vertexes)] = g.normals
            n += len(g.vertexes)
        return _soup(vertexes.astype(np.float32), normals.astype(np.float32))
