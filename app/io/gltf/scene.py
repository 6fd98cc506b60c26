"""The scene graph of a glTF 2.0 file (``.gltf``/``.glb``): nodes, skins, meshes, animations.

This is what the rig model (:mod:`quatlab.app.model.rig`) is built from. The
container, buffers and accessors are read by :mod:`quatlab.app.io.gltf.read` (data
URIs, external files, the GLB ``BIN`` chunk, ``byteStride``, sparse
accessors, normalized integers), so both readers decode a file the same way;
this module only walks the document:

* nodes: name, children, rest translation/rotation/scale or ``matrix``;
  the node graph must be a forest (no cycles, at most one parent each);
* the default scene's root nodes (``scene``, else scene 0, else every
  parentless node);
* skins: joints, inverse bind matrices (identity when absent), skeleton;
* meshes: per primitive ``POSITION``, triangle indices (or the implicit
  triangle list), ``JOINTS_0``/``WEIGHTS_0``, the ``TEXCOORD_n`` sets and
  the material; only ``TRIANGLES`` (mode 4) primitives are kept, others are
  skipped with a note in ``GltfScene.notes``;
* materials and textures: base colours (:mod:`quatlab.app.io.gltf.materials`,
  which also decodes the images, on demand);
* animations: every channel that targets a node's translation, rotation or
  scale (``weights`` channels are skipped with a note), with its sampler's
  times, outputs and interpolation.

Rotations are (w, x, y, z) here, converted from glTF's (x, y, z, w) on
reading. Matrices are ``(4, 4)`` arrays acting on column vectors (glTF stores
them column-major). Each accessor is decoded once and its array shared by
every channel or primitive that uses it; all arrays are read-only.

Any problem is a :class:`~quatlab.app.keyframes.KeyframeFileError` with a
one-line message naming the file and the problem.

Examples
--------
>>> import json, base64, tempfile, os
>>> doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
...        "nodes": [{"name": "root", "children": [1]}, {"name": "tip", "translation": [0, 1, 0]}]}
>>> path = os.path.join(tempfile.mkdtemp(), "two.gltf")
>>> with open(path, "w") as f:
...     _ = f.write(json.dumps(doc))
>>> scene = load_scene(path)
>>> [n.name for n in scene.nodes], scene.roots, scene.nodes[0].children
(['root', 'tip'], (0,), (1,))
>>> scene.nodes[1].rotation.tolist()   # (w, x, y, z)
[1.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pygltflib

from quatlab.app.i18n import N_, LazyText, _

# The container and accessor decoding are the keyframe reader's: one
# implementation of the glTF binary rules (docs/formats.md).
from quatlab.app.io.gltf.accessors import GLB_MAGIC, Invalid, as_int, as_list, item
from quatlab.app.io.gltf.materials import Material, Texture, read_materials
from quatlab.app.io.gltf.read import GltfFile, load_glb, load_gltf
from quatlab.app.io.keyframe_files import read_file
from quatlab.app.io.tracks import KeyframeFileError
from quatlab.math import quaternion as Q

__all__ = ["GltfScene", "Node", "Skin", "Primitive", "Mesh", "Channel", "Animation", "load_scene",
           "scene_of"]

PATHS = ("translation", "rotation", "scale")
_FLOAT = (5126,)
_NORMALIZED = (5126, 5120, 5121, 5122, 5123)
_UNSIGNED = (5121, 5123, 5125)
_TRIANGLES = 4


def _frozen(arr: np.ndarray) -> np.ndarray:
    arr.flags.writeable = False
    return arr


@dataclasses.dataclass(frozen=True, eq=False)
class Node:
    """One glTF node. ``rotation`` is (w, x, y, z); ``matrix`` is None unless the file gave one.

    When a node has a ``matrix``, ``translation``/``rotation``/``scale`` are
    its decomposition (exact for matrices without shear), for animation
    channels that still target it.
    """

    index: int
    name: str | None
    children: tuple[int, ...]
    translation: np.ndarray  # (3,)
    rotation: np.ndarray  # (4,), (w, x, y, z)
    scale: np.ndarray  # (3,)
    matrix: np.ndarray | None  # (4, 4), column vectors
    mesh: int | None
    skin: int | None


@dataclasses.dataclass(frozen=True, eq=False)
class Skin:
    """Joints (node indices), their inverse bind matrices ``(J, 4, 4)`` and the skeleton root."""

    index: int
    name: str | None
    joints: np.ndarray  # (J,) int
    inverse_bind: np.ndarray  # (J, 4, 4)
    skeleton: int | None


@dataclasses.dataclass(frozen=True, eq=False)
class Primitive:
    """A triangle primitive: positions ``(V, 3)``, triangles ``(T, 3)``, skin attributes or None.

    ``texcoords[n]`` is ``TEXCOORD_n`` ``(V, 2)`` (glTF's: (0, 0) the image's
    top left), up to the first set missing; ``material`` an index or None.
    """

    positions: np.ndarray
    triangles: np.ndarray
    joints: np.ndarray | None  # (V, 4) int, indices into the skin's joints
    weights: np.ndarray | None  # (V, 4) float, as stored (not renormalized)
    texcoords: tuple[np.ndarray, ...] = ()
    material: int | None = None


@dataclasses.dataclass(frozen=True, eq=False)
class Mesh:
    index: int
    name: str | None
    primitives: tuple[Primitive, ...]


@dataclasses.dataclass(frozen=True, eq=False)
class Channel:
    """One animated node property: key ``times`` ``(K,)`` and ``values`` ``(K, 3|4)``.

    Rotation values and tangents are (w, x, y, z). ``in_tangents`` and
    ``out_tangents`` are given for CUBICSPLINE only (as stored, not yet
    scaled by the key interval).
    """

    node: int
    path: str
    interpolation: str
    times: np.ndarray
    values: np.ndarray
    in_tangents: np.ndarray | None
    out_tangents: np.ndarray | None
    input: int  # accessor indices, to share work between channels
    output: int


@dataclasses.dataclass(frozen=True, eq=False)
class Animation:
    """An animation's channels and its time range ``[start, end]`` (seconds)."""

    index: int
    name: str | None
    channels: tuple[Channel, ...]
    start: float
    end: float


@dataclasses.dataclass(frozen=True, eq=False)
class GltfScene:
    """Everything :func:`load_scene` read; ``keyframes`` is the same file's rotation tracks."""

    path: Path
    nodes: tuple[Node, ...]
    roots: tuple[int, ...]
    skins: tuple[Skin, ...]
    meshes: tuple[Mesh, ...]
    animations: tuple[Animation, ...]
    notes: tuple[str, ...]
    keyframes: GltfFile
    materials: tuple[Material, ...] = ()
    textures: tuple[Texture, ...] = ()


class _Reader:
    """Walks one parsed document; raises ``Invalid`` (message without the file name)."""

    def __init__(self, keyframes: GltfFile):
        self.file = keyframes
        self.gltf = keyframes.document
        self.notes: list[str] = []
        self._floats: dict = {}  # accessor index, or (kind, index) for derived arrays
        self._ints: dict[int, np.ndarray] = {}

    # ------------------------------------------------------------- accessors

    def floats(self, index, what: str, types: tuple[str, ...], components=_FLOAT) -> np.ndarray:
        """Decoded float64 values ``(count, width)``; normalized integers scaled to [-1, 1]."""
        layout = self.file.accessor_layout(index, what, types=types, components=components,
                                           normalized=True)
        if layout.index not in self._floats:
            self._floats[layout.index] = _frozen(self.file.read_accessor(layout))
        return self._floats[layout.index]

    def ints(self, index, what: str, types: tuple[str, ...]) -> np.ndarray:
        """Stored unsigned integers (indices, joint numbers) as int64 ``(count, width)``."""
        layout = self.file.accessor_layout(index, what, types=types, components=_UNSIGNED,
                                           normalized=False)
        if layout.index not in self._ints:
            raw = self.file.read_raw(layout)
            self._ints[layout.index] = _frozen(raw.astype(np.int64))
        return self._ints[layout.index]

    def times(self, index, what: str) -> np.ndarray:
        """Key times ``(K,)``; the same array object for every sampler that shares the input."""
        key = ("times", as_int(index, what))
        if key not in self._floats:
            times = self.floats(index, what, ("SCALAR",))[:, 0]
            if not np.isfinite(times).all() or np.any(np.diff(times) <= 0):
                raise Invalid(_("{what}: key times are not finite and strictly increasing").format(
                    what=what))
            self._floats[key] = times
        return self._floats[key]

    def quaternions(self, index, what: str) -> np.ndarray:
        key = ("wxyz", as_int(index, what))
        if key not in self._floats:
            xyzw = self.floats(index, what, ("VEC4",), _NORMALIZED)
            self._floats[key] = _frozen(Q.from_xyzw(xyzw))
        return self._floats[key]

    # ------------------------------------------------------------- nodes

    def nodes(self) -> tuple[tuple[Node, ...], np.ndarray]:
        items = as_list(self.gltf.nodes, "nodes", pygltflib.Node)
        n = len(items)
        parent = np.full(n, -1, dtype=np.int64)
        nodes = []
        for i, node in enumerate(items):
            where = f"nodes[{i}]"
            children = tuple(item(items, c, f"{where}.children", "nodes")[0]
                             for c in (node.children or []))
            for c in children:
                if parent[c] >= 0 or c == i:
                    other = _("itself") if c == i else _("nodes[{a}] and nodes[{b}]").format(
                        a=parent[c], b=i)
                    raise Invalid(
                        _("node graph is not a tree: nodes[{c}] is a child of {other}").format(
                        c=c, other=other))
                parent[c] = i
            nodes.append(self._node(i, node, children, where))
        # Every node has at most one parent, so a node that no root reaches
        # lies on a cycle.
        reached = np.zeros(n, dtype=bool)
        stack = [i for i in range(n) if parent[i] < 0]
        while stack:
            i = stack.pop()
            reached[i] = True
            stack.extend(nodes[i].children)
        if not reached.all():
            raise Invalid(_("node graph has a cycle through nodes[{node}]").format(
                node=int(np.argmin(reached))))
        return tuple(nodes), parent

    def _node(self, i: int, node, children, where: str) -> Node:
        def vec(value, size, default, name):
            if value is None:
                return np.array(default, dtype=np.float64)
            arr = np.asarray(value, dtype=np.float64) if isinstance(value, list) else None
            if arr is None or arr.shape != (size,) or not np.isfinite(arr).all():
                raise Invalid(_("{where}.{name} must be {size} finite numbers").format(
                    where=where, name=name, size=size))
            return arr

        matrix = None
        if node.matrix is not None:
            m = vec(node.matrix, 16, None, "matrix").reshape(4, 4).T  # column-major
            # The identity matrix is the default: treat it as "no matrix".
            if not np.array_equal(m, np.eye(4)):
                matrix = m
        if matrix is not None:
            t, r, s = _decompose(matrix, where)
        else:
            t = vec(node.translation, 3, [0, 0, 0], "translation")
            r = Q.from_xyzw(vec(node.rotation, 4, [0, 0, 0, 1], "rotation"))
            s = vec(node.scale, 3, [1, 1, 1], "scale")
            big = np.abs(r).max()  # scaled first: the norm of (1e308, 1e308, 0, 0) overflows
            if big == 0 or (big < 1e-12 and np.linalg.norm(r) < 1e-12):
                raise Invalid(_("{where}.rotation has zero length").format(where=where))
            r = r / big
            r = r / np.linalg.norm(r)
        mesh = skin = None
        if node.mesh is not None:
            mesh = item(self.gltf.meshes or [], node.mesh, f"{where}.mesh", "meshes")[0]
        if node.skin is not None:
            skin = item(self.gltf.skins or [], node.skin, f"{where}.skin", "skins")[0]
            if mesh is None:
                self.notes.append(LazyText(N_("{where} has a skin but no mesh; the skin is not "
                                              "drawn there"), where=where))
        return Node(i, node.name if isinstance(node.name, str) else None, children,
                    *(_frozen(a) for a in (t, r, s)),
                    None if matrix is None else _frozen(matrix), mesh, skin)

    def roots(self, parent: np.ndarray) -> tuple[int, ...]:
        scenes = as_list(self.gltf.scenes, "scenes", pygltflib.Scene)
        if not scenes:
            return tuple(int(i) for i in np.flatnonzero(parent < 0))
        index = self.gltf.scene if self.gltf.scene is not None else 0
        s, scene = item(scenes, index, "scene", "scenes")
        roots = []
        for r in scene.nodes or []:
            r = item(self.gltf.nodes or [], r, f"scenes[{s}].nodes", "nodes")[0]
            if parent[r] >= 0:
                raise Invalid(_("scenes[{s}] lists nodes[{r}], which is not a root node").format(
                    s=s, r=r))
            roots.append(r)
        return tuple(roots)

    # ------------------------------------------------------------- skins

    def skins(self) -> tuple[Skin, ...]:
        out = []
        for i, skin in enumerate(as_list(self.gltf.skins, "skins", pygltflib.Skin)):
            where = f"skins[{i}]"
            if not skin.joints:
                raise Invalid(_("{where}.joints is empty").format(where=where))
            joints = np.array([item(self.gltf.nodes or [], j, f"{where}.joints", "nodes")[0]
                               for j in skin.joints], dtype=np.int64)
            if len(np.unique(joints)) != len(joints):
                raise Invalid(_("{where}.joints lists a node twice").format(where=where))
            if skin.inverseBindMatrices is None:
                ibm = np.broadcast_to(np.eye(4), (len(joints), 4, 4)).copy()
            else:
                flat = self.floats(skin.inverseBindMatrices, f"{where}.inverseBindMatrices",
                                   ("MAT4",))
                if len(flat) < len(joints):
                    raise Invalid(_("{where}.inverseBindMatrices has {n_flat} matrices for "
                                    "{n_joints} joints").format(
                                        where=where, n_flat=len(flat), n_joints=len(joints)))
                ibm = flat[: len(joints)].reshape(-1, 4, 4).transpose(0, 2, 1)
            skeleton = None
            if skin.skeleton is not None:
                skeleton = item(self.gltf.nodes or [], skin.skeleton, f"{where}.skeleton",
                                 "nodes")[0]
            name = skin.name if isinstance(skin.name, str) else None
            out.append(Skin(i, name, _frozen(joints), _frozen(np.ascontiguousarray(ibm)),
                            skeleton))
        return tuple(out)

    # ------------------------------------------------------------- meshes

    def meshes(self) -> tuple[Mesh, ...]:
        out = []
        for m, mesh in enumerate(as_list(self.gltf.meshes, "meshes", pygltflib.Mesh)):
            prims = []
            for p, prim in enumerate(as_list(mesh.primitives, f"meshes[{m}].primitives",
                                           pygltflib.Primitive)):
                where = f"meshes[{m}].primitives[{p}]"
                mode = prim.mode if prim.mode is not None else _TRIANGLES
                if mode != _TRIANGLES:
                    self.notes.append(LazyText(N_("{where}: mode {mode} skipped (only TRIANGLES is "
                                                  "drawn)"), where=where, mode=mode))
                    continue
                prims.append(self._primitive(prim, where))
            name = mesh.name if isinstance(mesh.name, str) else None
            out.append(Mesh(m, name, tuple(prims)))
        return tuple(out)

    def _primitive(self, prim, where: str) -> Primitive:
        attrs = prim.attributes
        if attrs is None or attrs.POSITION is None:
            raise Invalid(_("{where} has no POSITION attribute").format(where=where))
        pos = self.floats(attrs.POSITION, f"{where}.attributes.POSITION", ("VEC3",))
        v = len(pos)
        if prim.indices is not None:
            idx = self.ints(prim.indices, f"{where}.indices", ("SCALAR",))[:, 0]
            if len(idx) % 3:
                raise Invalid(
                    _("{where}: {n_idx} indices is not a whole number of triangles").format(
                    where=where, n_idx=len(idx)))
            if idx.size and idx.max() >= v:
                raise Invalid(_("{where}: index {idx} is out of range ({v} vertices)").format(
                    where=where, idx=int(idx.max()), v=v))
            tris = idx.reshape(-1, 3)
        else:
            if v % 3:
                raise Invalid(_("{where}: {v} vertices is not a whole number of triangles").format(
                    where=where, v=v))
            tris = np.arange(v, dtype=np.int64).reshape(-1, 3)
        joints = weights = None
        if attrs.JOINTS_0 is not None or attrs.WEIGHTS_0 is not None:
            if attrs.JOINTS_0 is None or attrs.WEIGHTS_0 is None:
                raise Invalid(_("{where} needs both JOINTS_0 and WEIGHTS_0").format(where=where))
            joints = self.ints(attrs.JOINTS_0, f"{where}.attributes.JOINTS_0", ("VEC4",))
            weights = self.floats(attrs.WEIGHTS_0, f"{where}.attributes.WEIGHTS_0", ("VEC4",),
                                  (5126, 5121, 5123))
            for name, arr in (("JOINTS_0", joints), ("WEIGHTS_0", weights)):
                if len(arr) != v:
                    raise Invalid(_("{where}: {name} has {n_arr} elements for {v} vertices").format(
                        where=where, name=name, n_arr=len(arr), v=v))
            if getattr(attrs, "JOINTS_1", None) is not None:
                self.notes.append(LazyText(N_("{where}: JOINTS_1/WEIGHTS_1 ignored (four "
                                              "influences used)"), where=where))
        if tris.flags.writeable:
            _frozen(tris)
        return Primitive(pos, tris, joints, weights, self._texcoords(attrs, v, where),
                         self._material(prim, where))

    def _texcoords(self, attrs, v: int, where: str) -> tuple[np.ndarray, ...]:
        """TEXCOORD_0, TEXCOORD_1, ... up to the first missing; a bad set is noted and dropped."""
        sets = []
        for n in range(8):
            index = getattr(attrs, f"TEXCOORD_{n}", None)
            if index is None:
                break
            what = f"{where}.attributes.TEXCOORD_{n}"
            try:
                uv = self.floats(index, what, ("VEC2",), (5126, 5121, 5123))
                if len(uv) != v:
                    raise Invalid(_("{what} has {n_uv} elements for {v} vertices").format(
                        what=what, n_uv=len(uv), v=v))
            except Invalid as exc:
                self.notes.append(LazyText(N_("{problem}; drawn without its texture"),
                                           problem=str(exc)))
                break
            sets.append(uv)
        return tuple(sets)

    def _material(self, prim, where: str) -> int | None:
        index = prim.material
        if index is None:
            return None
        if type(index) is not int or not 0 <= index < len(self.gltf.materials or []):
            self.notes.append(LazyText(N_("{where}.material names no material; drawn in "
                                          "white"), where=where))
            return None
        return index

    # ------------------------------------------------------------- animations

    def animations(self) -> tuple[Animation, ...]:
        out = []
        anims = as_list(self.gltf.animations, "animations", pygltflib.Animation)
        for a, anim in enumerate(anims):
            samplers = as_list(anim.samplers, f"animations[{a}].samplers",
                             pygltflib.AnimationSampler)
            channels = []
            skipped = 0
            for c, ch in enumerate(as_list(anim.channels, f"animations[{a}].channels",
                                         pygltflib.AnimationChannel)):
                where = f"animations[{a}].channels[{c}]"
                target = ch.target
                if not isinstance(target, pygltflib.AnimationChannelTarget):
                    raise Invalid(_("{where} has no target").format(where=where))
                if target.node is None:
                    continue  # glTF: such channels SHOULD be ignored (extensions use them)
                node = item(self.gltf.nodes or [], target.node, f"{where}.target.node",
                             "nodes")[0]
                if target.path == "weights":
                    skipped += 1
                    continue
                if target.path not in PATHS:
                    raise Invalid(_("{where}.target.path {path!r} is not a glTF path").format(
                        where=where, path=target.path))
                s, sampler = item(samplers, ch.sampler, f"{where}.sampler", "samplers")
                channels.append(self._channel(node, target.path, sampler,
                                              f"animations[{a}].samplers[{s}]"))
            if skipped:
                self.notes.append(LazyText(N_("animations[{a}]: {skipped} weights channel(s) "
                                              "ignored"), a=a, skipped=skipped))
            name = anim.name if isinstance(anim.name, str) else None
            start = min((float(ch.times[0]) for ch in channels), default=0.0)
            end = max((float(ch.times[-1]) for ch in channels), default=0.0)
            out.append(Animation(a, name, tuple(channels), start, end))
        return tuple(out)

    def _channel(self, node: int, path: str, sampler, where: str) -> Channel:
        mode = sampler.interpolation if sampler.interpolation is not None else "LINEAR"
        if mode not in ("LINEAR", "STEP", "CUBICSPLINE"):
            raise Invalid(
                _("{where}.interpolation {mode!r} is not LINEAR, STEP or CUBICSPLINE").format(
                where=where, mode=mode))
        times = self.times(sampler.input, f"{where}.input")
        if path == "rotation":
            out = self.quaternions(sampler.output, f"{where}.output")
        else:
            out = self.floats(sampler.output, f"{where}.output", ("VEC3",))
        n = len(times)
        per_key = 3 if mode == "CUBICSPLINE" else 1
        if len(out) != per_key * n:
            raise Invalid(_("{where}: {mode} needs {per_key} output elements for {n} times, "
                            "accessors[{output}] has {n_out}").format(
                                where=where, mode=mode, per_key=per_key * n, n=n,
                                output=sampler.output, n_out=len(out)))
        if mode == "CUBICSPLINE" and n < 2:
            raise Invalid(_("{where}: CUBICSPLINE needs at least 2 keyframes").format(where=where))
        if not np.isfinite(out).all():
            raise Invalid(_("{where}.output has NaN or infinite values").format(where=where))
        if path == "rotation":
            keys = out[1::3] if mode == "CUBICSPLINE" else out
            zero = np.flatnonzero(np.einsum("ij,ij->i", keys, keys) < 1e-24)
            if zero.size:
                # No player can turn toward a zero quaternion; `quatlab check` explains it.
                raise Invalid(_("{where}.output: rotation key {zero} has zero length").format(
                    where=where, zero=int(zero[0])))
        ins = outs = None
        if mode == "CUBICSPLINE":
            # Stored per key as (in-tangent, value, out-tangent).
            ins, out, outs = out[0::3], out[1::3], out[2::3]
        return Channel(node, path, mode, times, out, ins, outs, int(sampler.input),
                       int(sampler.output))


def _decompose(m: np.ndarray, where: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Translation, rotation (w, x, y, z) and scale of an affine matrix without shear."""
    t = m[:3, 3].copy()
    basis = m[:3, :3]
    identity = np.array([1.0, 0.0, 0.0, 0.0])
    big = np.abs(basis).max()
    if big == 0:
        return t, identity, np.zeros(3)
    # Norms of the scaled columns: finite for any finite matrix (1e308 entries too).
    unit_norms = np.linalg.norm(basis / big, axis=0)
    with np.errstate(over="ignore"):
        s = unit_norms * big
    if not np.isfinite(s).all():
        raise Invalid(_("{where}.matrix has a scale beyond the range of float64").format(
            where=where))
    if np.any(s < 1e-12) or np.any(unit_norms < 1e-12):
        # A degenerate matrix has no rotation to report; identity keeps channels usable.
        return t, identity, s
    r = (basis / big) / unit_norms
    if np.linalg.det(r) < 0:
        s[0], r[:, 0] = -s[0], -r[:, 0]  # a mirror: fold it into the scale
    try:
        return t, Q.from_matrix(Q.orthonormalize(r)), s
    except ValueError:  # two columns parallel: degenerate as above
        return t, identity, s


def load_scene(path) -> GltfScene:
    """Read the scene graph of a ``.gltf`` or ``.glb`` file (see the module documentation).

    Raises
    ------
    KeyframeFileError
        When the file cannot be read or is not valid glTF 2.0 as far as the
        scene graph is concerned; ``str()`` is ``"<file>: <problem>"``.
    """
    path = Path(path)
    data = read_file(path)
    if data[:4] == GLB_MAGIC:
        keyframes = load_glb(path, data)
    elif path.suffix.lower() == ".glb":
        raise KeyframeFileError(path, _("not a GLB file: it does not start with 'glTF'"))
    else:
        keyframes = load_gltf(path, data)
    return scene_of(keyframes)


def scene_of(keyframes: GltfFile) -> GltfScene:
    """The scene graph of a glTF file already read (``load_keyframes`` gives one).

    The Keyframes tab has the file parsed for its tracks; building the rig
    from the same document skips a second parse of the JSON (most of the
    time of reading a big file). Raises KeyframeFileError like :func:`load_scene`.
    """
    path = keyframes.path
    reader = _Reader(keyframes)
    try:
        nodes, parent = reader.nodes()
        roots = reader.roots(parent)
        skins = reader.skins()
        meshes = reader.meshes()
        animations = reader.animations()
    except Invalid as exc:
        raise KeyframeFileError(path, str(exc)) from None
    materials, textures, notes = read_materials(keyframes.document)
    return GltfScene(path, nodes, roots, skins, meshes, animations,
                     tuple(reader.notes) + tuple(notes), keyframes, materials, textures)
