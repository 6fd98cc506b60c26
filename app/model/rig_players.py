"""Two players of a glTF animation: the spec's (glTF 2.0 Appendix C) and a naive runtime's. No Qt.

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

Rotation channels made from Euler-angle channels (a BVH joint,
:mod:`quatlab.app.model.bvh_rig`) are :class:`EulerChannel`: their keys are
the converted quaternions, so the spec player is as above, but the naive
player lerps each stored Euler channel on its own and converts the result,
the per-channel runtime of docs/formats.md ("BVH") that spins a joint across
a +-180 deg wrap. glTF channels are plain :class:`Channel` and play as above.
An animation with a ``pose_at(rig, time, player)`` method, and a channel
with a ``sample(times, player)`` method, play themselves: an FBX clip is
played as ufbx evaluates it (:mod:`quatlab.app.model.fbx_rig`).

Quaternions are (w, x, y, z), Hamilton product, active rotation; matrices
``(..., 4, 4)`` act on column vectors, ``world = parent_world @ local`` and
``local = T @ R @ S``.

Examples
--------
>>> import numpy as np
>>> from quatlab.app.io.gltf.scene import Animation, Channel
>>> from quatlab.app.model.rig import Rig
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
from collections.abc import Callable

import numpy as np

from quatlab.app.io.gltf.scene import Animation, Channel
from quatlab.app.model.rig import Rig, compose_trs
from quatlab.math import interpolate as I

__all__ = ["PLAYERS", "Pose", "EulerChannel", "evaluate", "sample_channel", "difference_angles"]

PLAYERS = ("spec", "naive")
#: Squared length below which a naive NLERP blend has no direction (q to -q at u = 0.5).
_COLLAPSE = 1e-12


@dataclasses.dataclass(frozen=True, eq=False)
class EulerChannel(Channel):
    """A LINEAR rotation channel whose keys were converted from Euler-angle channels.

    ``angles`` ``(K, k)`` are the stored channels (degrees) and ``convert``
    maps angles ``(n, k)`` to rotations ``(n, 4)`` (w, x, y, z) as the keys
    were made. The naive player lerps ``angles`` per channel and converts
    (module docs); the spec player SLERPs ``values`` like any channel.
    """

    angles: np.ndarray | None = None
    convert: Callable[[np.ndarray], np.ndarray] | None = None


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
    euler: tuple[EulerChannel, ...] = ()  # the group's channels, when they are EulerChannels


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
        euler = _is_euler(ch)
        by_key.setdefault((ch.path, ch.interpolation, euler), []).append((ch, input_id[key]))
    groups = []
    for (path, mode, euler), items in by_key.items():
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
            values, ins, outs, tuple(chans) if euler else (),
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
    if animation is not None:
        own = getattr(rig.animation(animation), "pose_at", None)
        if own is not None:
            # An animation that plays itself (an FBX clip: quatlab.app.model.fbx_rig).
            return own(rig, float(time), player)
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
    local = compose_trs(t, r, s)
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
        if g.euler and player == "naive":
            out[g.path][g.target] = np.concatenate([
                _euler_lerp(c, k[n:n + 1], u[n:n + 1]) for n, c in enumerate(g.euler)])
            continue
        out[g.path][g.target] = _blend(g.mode, g.path, player, g.values, i0, i1, u,
                                       dt_in[g.times][:, None], g.in_tangents, g.out_tangents)


def _is_euler(ch: Channel) -> bool:
    return (isinstance(ch, EulerChannel) and ch.angles is not None and ch.convert is not None
            and ch.path == "rotation" and ch.interpolation == "LINEAR")


def _euler_lerp(ch: EulerChannel, k: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The naive per-channel player: Euler angles lerped between keys ``k`` and ``k + 1``."""
    a = np.asarray(ch.angles, dtype=np.float64)
    k1 = np.minimum(k + 1, len(a) - 1)
    return ch.convert(a[k] + u * (a[k1] - a[k]))


def _blend(mode: str, path: str, player: str, values, i0, i1, u, dt, ins, outs) -> np.ndarray:
    """Values between keys ``i0`` and ``i1`` at fractions ``u`` ``(n, 1)``, key intervals ``dt``."""
    v0, v1 = values[i0], values[i1]
    if mode == "STEP":
        return np.where(u >= 1.0, v1, v0)
    if mode == "CUBICSPLINE":
        u2, u3 = u * u, u * u * u
        value = ((2 * u3 - 3 * u2 + 1) * v0 + dt * (u3 - 2 * u2 + u) * outs[i0]
                 + (-2 * u3 + 3 * u2) * v1 + dt * (u3 - u2) * ins[i1])
        if path == "rotation":
            value = value / np.linalg.norm(value, axis=1, keepdims=True)
        return value
    if path != "rotation":
        return v0 + u * (v1 - v0)
    if player == "spec":
        return I.slerp(v0, v1, u[:, 0])
    blend = v0 + u * (v1 - v0)
    n2 = np.einsum("ij,ij->i", blend, blend)[:, None]
    return np.where(n2 > _COLLAPSE, blend / np.sqrt(np.maximum(n2, _COLLAPSE)), v0)


def sample_channel(channel: Channel, times, player: str = "spec") -> np.ndarray:
    """One channel's values ``(S, 3|4)`` at many ``times`` ``(S,)``, as :func:`evaluate` plays it.

    For curves over time (the Keyframes tab plots a track's rotation for
    both players), without posing the whole rig per sample. Rotations are
    (w, x, y, z); LINEAR rotation keys are normalized first, as in
    :func:`evaluate`.

    Examples
    --------
    >>> from quatlab.app.io.gltf.scene import Channel
    >>> c = np.sqrt(0.5)
    >>> ch = Channel(0, "rotation", "LINEAR", np.array([0.0, 1.0]),
    ...              np.array([[1.0, 0, 0, 0], [-c, 0, 0, -c]]), None, None, 0, 1)
    >>> np.round(sample_channel(ch, [0.5], "spec"), 4) + 0.0   # 45 deg about +Z
    array([[0.9239, 0.    , 0.    , 0.3827]])
    >>> np.round(sample_channel(ch, [0.5], "naive"), 4) + 0.0  # 135 deg about -Z
    array([[ 0.3827,  0.    ,  0.    , -0.9239]])
    """
    own = getattr(channel, "sample", None)
    if own is not None:
        # A channel that plays itself (an FBX node's rotation: quatlab.app.model.fbx_rig).
        return own(np.asarray(times, dtype=np.float64).reshape(-1), player)
    if player not in PLAYERS:
        raise ValueError(f"player must be one of {PLAYERS}, got {player!r}")
    times = np.asarray(times, dtype=np.float64).reshape(-1)
    keys = np.asarray(channel.times, dtype=np.float64)
    values = np.asarray(channel.values, dtype=np.float64)
    if channel.path == "rotation" and channel.interpolation != "CUBICSPLINE":
        values = values / np.linalg.norm(values, axis=1, keepdims=True)
    if len(keys) < 2:
        return np.repeat(values[:1], len(times), axis=0)
    k = np.clip(np.searchsorted(keys, times, side="right") - 1, 0, len(keys) - 2)
    dt = (keys[k + 1] - keys[k])[:, None]
    u = np.clip((times - keys[k])[:, None] / dt, 0.0, 1.0)
    if player == "naive" and _is_euler(channel):
        return _euler_lerp(channel, k, u)
    return _blend(channel.interpolation, channel.path, player, values, k, k + 1, u, dt,
                  channel.in_tangents, channel.out_tangents)


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
