"""What the USD child read, as arrays in the parent: skeletons, animations, meshes, transform ops.

:func:`load_scene` runs the worker's ``"load"`` (:mod:`quatlab.app.io.usd.stage_read`,
in a child process, :mod:`quatlab.app.io.usd.isolate`) and rebuilds a
:class:`UsdScene`. Times stay USD time codes here (frames); :attr:`UsdScene.seconds`
turns them into seconds (``time code / timeCodesPerSecond``, so time code 0 is
second 0). Quaternions are (w, x, y, z); matrices act on column vectors.

The scene also fixes the **node layout** the rig and the tracks share
(:meth:`UsdScene.layout`): node 0 is the stage (its matrix turns the stage's
``upAxis`` into +Y and its ``metersPerUnit`` into meters), then per skeleton one
node (its world matrix) and one node per joint, then per animated transform op
three nodes (the ops before it, the rotation, the ops after it), then one node per
rigid mesh. Tracks name their node by this index.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.tracks import KeyframeFileError
from quatlab.app.io.usd import isolate
from quatlab.math import quaternion as Q

__all__ = ["Samples", "UsdSkeleton", "UsdAnimation", "UsdMesh", "UsdXform", "UsdScene",
           "Layout", "load_scene", "scene_from_reply", "stage_matrix", "decompose"]


@dataclasses.dataclass(frozen=True, eq=False)
class Samples:
    """One attribute's samples: ``times`` ``(S,)`` time codes, ``values`` ``(S, ...)``.

    ``type`` is the USD type (``quatf[]``, ``half3[]``...); ``default`` is true when
    the attribute has no time samples and ``values`` holds its one default value;
    ``layer`` is the identifier of the layer the samples are authored in.
    """

    times: np.ndarray
    values: np.ndarray
    type: str
    default: bool
    layer: str | None


@dataclasses.dataclass(frozen=True, eq=False)
class UsdSkeleton:
    """A ``Skeleton``: joint paths and names, parents, rest (local) and bind (skeleton) matrices."""

    path: str
    joints: tuple[str, ...]
    names: tuple[str, ...]
    parents: np.ndarray  # (J,)
    rest: np.ndarray  # (J, 4, 4), joint-local
    bind: np.ndarray  # (J, 4, 4), skeleton space
    world: np.ndarray  # (4, 4), the skeleton prim's local-to-world at the first time
    animation: int | None  # index into UsdScene.animations
    anim_map: np.ndarray | None  # (Ja,) skeleton joint of each animation joint, -1: none
    #: UsdSkel cannot evaluate the animation (a component of another type): USD shows rest.
    ignored: bool = False


@dataclasses.dataclass(frozen=True, eq=False)
class UsdAnimation:
    """A ``SkelAnimation``: its joint order and the samples of each component (or None)."""

    path: str
    joints: tuple[str, ...]
    names: tuple[str, ...]
    rotations: Samples | None  # (S, Ja, 4) (w, x, y, z)
    translations: Samples | None  # (S, Ja, 3)
    scales: Samples | None  # (S, Ja, 3)


@dataclasses.dataclass(frozen=True, eq=False)
class UsdMesh:
    """A mesh: points and triangles; skinned ones carry joints/weights ``(V, k)`` (skeleton order).

    Skinned points have the ``geomBindTransform`` applied (skeleton space); a rigid
    mesh's ``world`` places it relative to its transform node (``xform``) or the stage.
    """

    path: str
    skeleton: int | None
    xform: int | None
    points: np.ndarray
    triangles: np.ndarray
    joints: np.ndarray | None
    weights: np.ndarray | None
    world: np.ndarray | None


@dataclasses.dataclass(frozen=True, eq=False)
class UsdXform:
    """A prim's animated rotation op: samples, kind (``orient``/``euler``), the ops around it."""

    path: str
    name: str
    op: str
    kind: str
    order: str | None  # Euler ops: the axes in the order they apply ("xyz" for rotateXYZ)
    type: str
    parent: int | None  # index of the animated ancestor's UsdXform, or None
    inverse: bool
    layer: str | None
    times: np.ndarray
    values: np.ndarray  # (S, 4) orient (w, x, y, z); (S, k) Euler degrees, components x, y, z
    pre: np.ndarray  # (4, 4): parent (or animated ancestor) to just before the op
    post: np.ndarray  # (4, 4): the ops after it


@dataclasses.dataclass(frozen=True, eq=False)
class Layout:
    """The rig's nodes (see the module docs): names, parents and where each thing sits."""

    names: tuple[str, ...]
    parents: np.ndarray
    skeleton_nodes: tuple[int, ...]
    joint_nodes: tuple[np.ndarray, ...]
    xform_nodes: tuple[tuple[int, int, int], ...]
    mesh_nodes: tuple[int | None, ...]


@dataclasses.dataclass(frozen=True, eq=False)
class UsdScene:
    """Everything the child read from one USD file."""

    path: Path
    meta: dict
    skeletons: tuple[UsdSkeleton, ...]
    animations: tuple[UsdAnimation, ...]
    meshes: tuple[UsdMesh, ...]
    xforms: tuple[UsdXform, ...]
    notes: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def time_codes_per_second(self) -> float:
        return float(self.meta["time_codes_per_second"])

    def seconds(self, time_codes) -> np.ndarray:
        """Time codes (frames) as seconds: ``time code / timeCodesPerSecond``."""
        return np.asarray(time_codes, dtype=np.float64) / self.time_codes_per_second

    @property
    def interpolation(self) -> str:
        """``"LINEAR"`` for usd-core's default (linear) interpolation, ``"STEP"`` for held."""
        return "STEP" if self.meta.get("interpolation") == "held" else "LINEAR"

    def skeleton_rotations(self, s: int) -> tuple[np.ndarray, np.ndarray]:
        """Seconds ``(S,)`` and every joint's local rotation ``(S, J, 4)`` of skeleton ``s``.

        At each rotation sample of its animation; joints the animation leaves out
        keep their rest rotation (a skeleton without animation: one frame at 0 s).
        """
        sk = self.skeletons[s]
        rest = decompose(sk.rest)[1]
        anim = None if sk.animation is None else self.animations[sk.animation]
        if anim is None or anim.rotations is None:
            return np.zeros(1), rest[None].copy()
        rot = anim.rotations
        q = np.repeat(rest[None], len(rot.times), axis=0)
        for j, target in enumerate(sk.anim_map.tolist()):
            if target >= 0:
                q[:, target] = rot.values[:, j]
        return self.seconds(rot.times), q

    def time_range(self) -> tuple[float, float] | None:
        """First and last time sample (seconds) over every animated attribute, or None."""
        times = [x.times for x in self.xforms if len(x.times)]
        for anim in self.animations:
            for samples in (anim.rotations, anim.translations, anim.scales):
                if samples is not None and not samples.default and len(samples.times):
                    times.append(samples.times)
        if not times:
            return None
        seconds = self.seconds([t for arr in times for t in (arr[0], arr[-1])])
        return float(seconds.min()), float(seconds.max())

    def layout(self) -> Layout:
        cached = self.__dict__.get("_layout")
        if cached is not None:
            return cached
        names: list[str] = ["stage"]
        parents: list[int] = [-1]
        skel_nodes, joint_nodes = [], []
        for sk in self.skeletons:
            s = len(names)
            names.append(sk.path.rsplit("/", 1)[-1])
            parents.append(0)
            skel_nodes.append(s)
            first = len(names)
            names.extend(sk.names)
            parents.extend(int(p) + first if p >= 0 else s for p in sk.parents)
            joint_nodes.append(np.arange(first, first + len(sk.names), dtype=np.int64))
        xform_nodes: list[tuple[int, int, int]] = []
        for x in self.xforms:
            up = 0 if x.parent is None else xform_nodes[x.parent][2]
            base = len(names)
            names.extend([_("{name} (before {op})").format(name=x.name, op=x.op), x.name,
                          _("{name} (after {op})").format(name=x.name, op=x.op)])
            parents.extend([up, base, base + 1])
            xform_nodes.append((base, base + 1, base + 2))
        mesh_nodes: list[int | None] = []
        for m in self.meshes:
            if m.skeleton is not None:
                mesh_nodes.append(None)
                continue
            mesh_nodes.append(len(names))
            names.append(m.path.rsplit("/", 1)[-1])
            parents.append(0 if m.xform is None else xform_nodes[m.xform][2])
        layout = Layout(tuple(names), np.array(parents, dtype=np.int64), tuple(skel_nodes),
                        tuple(joint_nodes), tuple(xform_nodes), tuple(mesh_nodes))
        object.__setattr__(self, "_layout", layout)
        return layout

    def joint_node(self, animation: int, joint: int) -> int | None:
        """The node an animation's joint drives (in the first skeleton bound to it), or None."""
        for s, sk in enumerate(self.skeletons):
            if sk.animation == animation and sk.anim_map is not None:
                target = int(sk.anim_map[joint])
                return int(self.layout().joint_nodes[s][target]) if target >= 0 else None
        return None


def stage_matrix(meta: dict) -> np.ndarray:
    """The stage node's matrix: ``metersPerUnit`` into meters, ``upAxis`` Z into +Y.

    >>> stage_matrix({"meters_per_unit": 0.01, "up_axis": "Z"}) @ [0, 0, 100, 1]
    array([0., 1., 0., 1.])
    """
    m = np.eye(4) * float(meta.get("meters_per_unit") or 1.0)
    m[3, 3] = 1.0
    if str(meta.get("up_axis", "Y")).upper() == "Z":
        # -90 deg about X: +Z goes to +Y, +Y to -Z (a right-handed frame stays one).
        turn = np.array([[1.0, 0, 0, 0], [0, 0, 1, 0], [0, -1, 0, 0], [0, 0, 0, 1]])
        m = turn @ m
    return m


def decompose(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Translation ``(N, 3)``, rotation ``(N, 4)`` (w, x, y, z), scale ``(N, 3)`` of ``(N, 4, 4)``.

    Exact for matrices without shear; a mirror becomes a negative x scale.
    """
    m = np.asarray(m, dtype=np.float64).reshape(-1, 4, 4)
    t = m[:, :3, 3].copy()
    s = np.linalg.norm(m[:, :3, :3], axis=1)
    r = m[:, :3, :3] / np.where(s > 0, s, 1.0)[:, None, :]
    mirror = np.linalg.det(r) < 0
    s[mirror, 0] *= -1
    r[mirror, :, 0] *= -1
    q = Q.from_matrix(Q.orthonormalize(r))
    return t, np.asarray(q, dtype=np.float64).reshape(-1, 4), s


def _samples(info, arrays: dict, key: str) -> Samples | None:
    if info is None:
        return None
    return Samples(_frozen(arrays[f"{key}_times"]), _frozen(arrays[key]), str(info["type"]),
                   bool(info["default"]), info.get("layer"))


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.flags.writeable = False
    return a


def scene_from_reply(path, reply: isolate.Reply) -> UsdScene:
    """A :class:`UsdScene` from the worker's ``"load"`` reply (shapes checked)."""
    path = Path(path)
    d, a = reply.data, reply.arrays
    try:
        anims = tuple(
            UsdAnimation(e["path"], tuple(e["joints"]), tuple(e["names"]),
                         _samples(e["rotations"], a, f"anim{i}_rotations"),
                         _samples(e["translations"], a, f"anim{i}_translations"),
                         _samples(e["scales"], a, f"anim{i}_scales"))
            for i, e in enumerate(d["animations"]))
        skels = tuple(
            UsdSkeleton(e["path"], tuple(e["joints"]), tuple(e["names"]),
                        np.array(e["parents"], dtype=np.int64), _frozen(a[f"skel{i}_rest"]),
                        _frozen(a[f"skel{i}_bind"]), _frozen(a[f"skel{i}_world"]),
                        e["animation"],
                        None if e["anim_map"] is None else np.array(e["anim_map"], np.int64),
                        bool(e.get("ignored", False)))
            for i, e in enumerate(d["skeletons"]))
        meshes = tuple(
            UsdMesh(e["path"], e["skeleton"], e["xform"], _frozen(a[f"mesh{i}_points"]),
                    _frozen(a[f"mesh{i}_triangles"]), a.get(f"mesh{i}_joints"),
                    a.get(f"mesh{i}_weights"), a.get(f"mesh{i}_world"))
            for i, e in enumerate(d["meshes"]))
        xforms = tuple(
            UsdXform(e["path"], e["name"], e["op"], e["kind"], e["order"], e["type"],
                     e["parent"], bool(e["inverse"]), e.get("layer"),
                     _frozen(a[f"xf{i}_times"]), _frozen(a[f"xf{i}_values"]),
                     a[f"xf{i}_pre"], a[f"xf{i}_post"])
            for i, e in enumerate(d["xforms"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise KeyframeFileError(path, _("the USD reader's answer is incomplete ({what})").format(
            what=exc)) from None
    for sk in skels:
        n = len(sk.joints)
        if sk.rest.shape != (n, 4, 4) or sk.bind.shape != (n, 4, 4) or sk.parents.shape != (n,):
            raise KeyframeFileError(path, _("{skel}: joint arrays disagree").format(skel=sk.path))
    return UsdScene(path, dict(d["meta"]), skels, anims, meshes, xforms, tuple(d["notes"]),
                    reply.warnings)


def load_scene(path, *, interpolation: str = "linear", meshes: bool = True) -> UsdScene:
    """Read the USD file at ``path`` in a child process (module docs).

    ``interpolation`` is the stage's: ``"linear"`` (usd-core's default) or
    ``"held"``. ``meshes=False`` skips the meshes (the audit needs none).
    Any problem is a :class:`KeyframeFileError` naming the file.
    """
    reply = isolate.call("load", path, {"interpolation": interpolation, "meshes": meshes})
    return scene_from_reply(path, reply)
