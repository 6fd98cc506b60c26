"""Where the players part, and the path a point of the joint sweeps there under each. No Qt.

A label saying "162°" tells that a joint is wrong, not which way it turns;
on a symmetric part (the truck's wheels) the naive runtime's ghost even
looks like the correct pose. So over each segment where the players part,
the rig view draws the path a **marker** fixed on the joint sweeps under
the spec player and under the naive runtime, with equal-time ticks and
arrows (:mod:`quatlab.rendering.rig_sweep_items`): the short way and the
long way, and which way round each goes.

* :func:`parted_segments`: the key segments of an animation's rotation
  channels in which the players part: where, half-way between the keys,
  their rotations differ by more than :data:`PARTED_DEG`. NLERP and SLERP
  of two keys in one hemisphere meet exactly there, so this finds the
  sign flips of glTF channels and the wraps of a BVH joint's Euler
  runtime, and nothing else.
* :func:`marker_point`: the point of the joint whose turn reads best: of
  its children, the vertices of the rigid meshes it carries and the skinned
  vertices it leads, the one farthest from the segment's turn axis (a point
  on the axis would not move), in the joint's own coordinates.
* :func:`segment_sweep`: that point's world path over the segment for
  both players (the joint's chain of ancestors posed at each sample, all
  samples at once: a parent turning as well moves the path along), and the
  naive runtime's poses at a few times for an onion skin
  (:attr:`SegmentSweep.onion_times`).

Examples
--------
>>> import dataclasses
>>> from quatlab.app.io.gltf.scene import Animation, Channel
>>> from quatlab.app.model.rig import Rig
>>> c = np.sqrt(0.5)
>>> keys = np.array([[1, 0, 0, 0], [-c, 0, 0, -c]])     # 90 deg about z, stored as -q
>>> turn = Channel(0, "rotation", "LINEAR", np.array([0.0, 1.0]), keys, None, None, 0, 1)
>>> rig = dataclasses.replace(Rig.chain(2), animations=(Animation(0, "t", (turn,), 0, 1),))
>>> [(p.node, p.key) for p in parted_segments(rig, rig.animations[0])]
[(0, 0)]
>>> sweep = segment_sweep(rig, rig.animations[0], parted_segments(rig, rig.animations[0])[0])
>>> sweep.marker.tolist()                          # the child, 1 up +y
[0.0, 1.0, 0.0]
>>> (np.round(sweep.spec[-1], 6) + 0.0).tolist(), (np.round(sweep.naive[-1], 6) + 0.0).tolist()
([-1.0, 0.0, 0.0], [-1.0, 0.0, 0.0])
>>> round(sweep.turned("spec")), round(sweep.turned("naive"))   # degrees about the axis
(90, -270)
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from quatlab.app.io.gltf.scene import Animation, Channel
from quatlab.app.model.rig import Rig, compose_trs
from quatlab.app.model.rig_curves import segment_axes
from quatlab.app.model.rig_players import PLAYERS, evaluate, sample_channel
from quatlab.app.model.skinning import PosedMesh, skin_meshes
from quatlab.math.quaternion import angle_between, conjugate, multiply, to_rotvec

__all__ = ["PartedSegment", "SegmentSweep", "parted_segments", "marker_point", "segment_sweep",
           "chain_world", "active_segments", "PARTED_DEG", "SAMPLES", "ONION", "HOLD_S",
           "SHOWN_AT_ONCE"]

#: Players parting by more than this half-way through a segment (degrees) mark it.
PARTED_DEG = 1.0
#: A BVH joint's Euler channel stepping more than this (degrees) may part the players.
_EULER_STEP = 20.0
#: Samples of each path over a segment (its ends included), evenly in time.
SAMPLES = 61
#: Largest turn (degrees) of the joint between two points of a drawn path.
FINE_DEG = 3.0
#: Fractions of the segment at which the naive runtime's onion skin is posed.
ONION = (0.2, 0.4, 0.6, 0.8)
#: A segment's sweep shows this long (s) before and after it, or a segment's
#: length if longer: a 1/24 s segment would flash by in playback.
HOLD_S = 0.3
#: At most this many sweeps at once (the nearest in time).
SHOWN_AT_ONCE = 3


@dataclasses.dataclass(frozen=True)
class PartedSegment:
    """Key segment ``key`` -> ``key + 1`` of the rotation channel of ``node`` (rig index)."""

    node: int
    key: int
    t0: float
    t1: float
    #: The players' angle apart half-way (degrees).
    apart: float


def parted_segments(rig: Rig, animation: Animation) -> list[PartedSegment]:
    """Every segment of ``animation``'s rotation channels where the players part (module doc).

    Only LINEAR channels can part (STEP and CUBICSPLINE play alike). For a
    glTF channel that is exactly where two keys lie in opposite hemispheres:
    half-way, NLERP's ``q0 + q1`` and SLERP's ``q0 - q1`` are then
    perpendicular in 4D, a half turn apart, and otherwise the same. A BVH
    joint's Euler runtime is sampled half-way in the segments where one of
    its channels steps more than :data:`_EULER_STEP` degrees (smaller steps
    part by far less than a degree).
    """
    out = []
    for ch in animation.channels:
        if ch.path != "rotation" or ch.interpolation != "LINEAR" or len(ch.times) < 2:
            continue
        q = ch.values / np.linalg.norm(ch.values, axis=1, keepdims=True)
        angles = getattr(ch, "angles", None)
        if angles is None or getattr(ch, "convert", None) is None:
            keys = np.flatnonzero(np.einsum("ij,ij->i", q[:-1], q[1:]) < 0)
            apart = np.full(len(keys), 180.0)
        else:
            step = np.abs(np.diff(np.asarray(angles, dtype=float), axis=0)).max(axis=1)
            keys = np.flatnonzero(step > _EULER_STEP)
            mid = 0.5 * (ch.times[keys] + ch.times[keys + 1])
            spec, naive = (sample_channel(ch, mid, p) for p in PLAYERS) if len(keys) \
                else (np.zeros((0, 4)),) * 2
            apart = np.degrees(np.nan_to_num(angle_between(spec, naive))) if len(keys) \
                else np.zeros(0)
            keys, apart = keys[apart > PARTED_DEG], apart[apart > PARTED_DEG]
        node = int(rig.rig_index[ch.node])
        for k, a in zip(keys, apart, strict=True):
            out.append(PartedSegment(node, int(k), float(ch.times[k]), float(ch.times[k + 1]),
                                     float(a)))
    return sorted(out, key=lambda p: (p.t0, p.node))


def active_segments(segments: list[PartedSegment], time: float, *, hold: float = HOLD_S,
                    limit: int = SHOWN_AT_ONCE) -> list[PartedSegment]:
    """The segments whose sweep shows at ``time``: inside them or within ``hold`` of them.

    The nearest first (inside counts as 0), then the largest ``apart``; at
    most ``limit``.

    >>> segs = [PartedSegment(0, 3, 1.0, 1.1, 170.0), PartedSegment(1, 8, 3.0, 3.1, 90.0)]
    >>> [s.key for s in active_segments(segs, 1.3)], active_segments(segs, 2.0)
    ([3], [])
    """
    out = []
    for s in segments:
        margin = max(hold, s.t1 - s.t0)
        if s.t0 - margin <= time <= s.t1 + margin:
            away = max(s.t0 - time, time - s.t1, 0.0)
            out.append((away, -s.apart, s))
    out.sort(key=lambda item: item[:2])
    return [s for _, _, s in out[:limit]]


def _channel(rig: Rig, animation: Animation, node: int) -> Channel:
    g = int(rig.gltf_index[node])
    return next(c for c in animation.channels if c.path == "rotation" and c.node == g)


def _candidates(rig: Rig, node: int) -> np.ndarray:
    """Points of the joint in its own coordinates: children, rigid mesh and skinned vertices."""
    pts = [rig.rest_translation[rig.parents == node]]
    rest = evaluate(rig)
    to_node = np.linalg.inv(rest.world[node])
    for m in rig.meshes:
        if not rig.in_scene[m.node]:
            continue
        if m.skin is None:
            # Carried by the joint: the mesh's node is the joint or below it.
            n = m.node
            while n >= 0 and n != node:
                n = rig.parents[n]
            if n == node:
                local = to_node @ rest.world[m.node]
                pts.append(m.positions @ local[:3, :3].T + local[:3, 3])
        else:
            sk = rig.skins[m.skin]
            at = np.flatnonzero(sk.joints == node)
            if at.size:
                led = sk.joints[np.argmax(m.weights, axis=1)] == node
                ib = sk.inverse_bind[at[0]]
                pts.append(m.positions[led] @ ib[:3, :3].T + ib[:3, 3])
    pts = np.concatenate(pts) if pts else np.zeros((0, 3))
    return pts[np.all(np.isfinite(pts), axis=1)]


def marker_point(rig: Rig, node: int, axis, fallback: float) -> np.ndarray:
    """The point of ``node`` farthest from its turn ``axis`` (node coordinates; module doc).

    ``axis`` is the segment's turn axis in the joint's frame (after its
    rotation, before its scale). When every candidate lies near the axis (a
    twist), a point ``fallback`` (node units) off the axis stands in.
    """
    a = np.asarray(axis, dtype=float)
    a = a / np.linalg.norm(a) if np.linalg.norm(a) > 1e-12 else np.array([0.0, 0.0, 1.0])
    scale = rig.rest_scale[node]
    pts = _candidates(rig, node) * scale  # in the rotated frame
    off = np.linalg.norm(pts - np.outer(pts @ a, a), axis=1) if len(pts) else np.zeros(0)
    reach = float(np.linalg.norm(pts, axis=1).max()) if len(pts) else 0.0
    if len(pts) and off.max() > 0.25 * reach and off.max() > 1e-9:
        return pts[int(np.argmax(off))] / scale
    other = np.eye(3)[int(np.argmin(np.abs(a)))]
    side = np.cross(a, other)
    side /= np.linalg.norm(side)
    return side * (reach if reach > 1e-9 else fallback) / scale


@dataclasses.dataclass(frozen=True, eq=False)
class SegmentSweep:
    """The paths of a joint's marker over one parted segment, both players (module doc).

    ``spec`` and ``naive`` are world points ``(SAMPLES, 3)`` at ``times``
    (evenly spaced: equal-time ticks go there); ``fine`` holds each player's
    path sampled densely enough to draw as a smooth curve (``(t, points,
    the joint's rotations)``:
    no step turns more than :data:`FINE_DEG` about the marker's circle
    centre, though the naive runtime races round near a flip's middle).
    ``marker`` is the point in the joint's coordinates, ``axis`` the turn
    axis (joint frame) its turn is measured about.
    """

    rig: Rig = dataclasses.field(repr=False)
    animation: Animation = dataclasses.field(repr=False)
    segment: PartedSegment
    marker: np.ndarray
    axis: np.ndarray
    times: np.ndarray
    spec: np.ndarray
    naive: np.ndarray
    rotations: dict = dataclasses.field(repr=False)
    fine: dict = dataclasses.field(repr=False, default_factory=dict)

    @property
    def node(self) -> int:
        return self.segment.node

    def turned(self, player: str) -> float:
        """Degrees the joint turns over the segment under ``player``, + along :attr:`axis`.

        Each sample step counts whole, signed by whether it turns with the
        axis or against it: about the axis itself (glTF players) that is the
        turn about it; a BVH joint's Euler runtime, spinning about another
        axis, still shows its whole spin.
        """
        q = self.fine_rotations(player)
        step = to_rotvec(multiply(conjugate(q[:-1]), q[1:]))  # the joint's own frame
        size = np.linalg.norm(step, axis=1)
        return float(np.degrees((np.sign(step @ self.axis) * size).sum()))

    def fine_rotations(self, player: str) -> np.ndarray:
        """The joint's rotations at the densely sampled times of :attr:`fine` (``(N, 4)``)."""
        return self.fine[player][2] if player in self.fine else self.rotations[player]

    @property
    def onion_times(self) -> np.ndarray:
        s = self.segment
        return s.t0 + np.asarray(ONION) * (s.t1 - s.t0)

    @functools.cached_property
    def onion(self) -> list[tuple[np.ndarray, list[PosedMesh]]]:
        """The naive runtime at :attr:`onion_times`: (world matrices, posed meshes) each."""
        out = []
        for t in self.onion_times:
            pose = evaluate(self.rig, self.animation, float(t), "naive")
            out.append((pose.world, skin_meshes(self.rig, pose)))
        return out


def segment_sweep(rig: Rig, animation: Animation, segment: PartedSegment, *,
                  fallback: float = 0.1, samples: int = SAMPLES) -> SegmentSweep:
    """The marker's paths over ``segment`` (see the module docstring).

    ``fallback``: the marker's distance from the axis in the joint's units
    when no point of the joint lies off it.
    """
    ch = _channel(rig, animation, segment.node)
    k = segment.key
    q0, q1 = (ch.values[i] / np.linalg.norm(ch.values[i]) for i in (k, k + 1))
    axis = to_rotvec(multiply(conjugate(q0), q1))  # the spec player's short arc, joint frame
    length = np.linalg.norm(axis)
    axis = axis / length if length > 1e-12 else np.array([0.0, 0.0, 1.0])
    # Turned the way the track's unwrapped angle counts (rig_curves.segment_axes): a
    # segment that swings back reads negative there and here alike.
    keys = ch.values / np.linalg.norm(ch.values, axis=1, keepdims=True)
    chained = segment_axes(keys)[k]
    short = to_rotvec(multiply(q1, conjugate(q0)))  # the same arc in the parent's frame
    if chained @ short < 0:
        axis = -axis
    marker = marker_point(rig, segment.node, axis, fallback)
    times = np.linspace(segment.t0, segment.t1, max(int(samples), 3))
    point = np.append(marker, 1.0)
    paths, rotations, fine = {}, {}, {}
    for player in PLAYERS:
        world, rotations[player] = chain_world(rig, animation, segment.node, times, player)
        paths[player] = (world @ point)[:, :3]
        fine[player] = _fine_path(rig, animation, segment.node, point, times, rotations[player],
                                  player)
    return SegmentSweep(rig, animation, segment, marker, axis, times, paths["spec"],
                        paths["naive"], rotations, fine)


def _fine_path(rig, animation, node, point, times, rotations, player):
    """``(t, points, rotations)``: the path resampled until no step turns the joint over
    :data:`FINE_DEG`."""
    least = np.cos(np.radians(FINE_DEG) / 2)
    t, q = times, rotations
    for _ in range(12):
        coarse = np.abs(np.einsum("ij,ij->i", q[:-1], q[1:])) < least
        if not coarse.any() or len(t) > 4000:
            break
        gaps = np.flatnonzero(coarse)
        new = 0.5 * (t[gaps] + t[gaps + 1])
        _, q_new = chain_world(rig, animation, node, new, player)
        order = np.argsort(np.concatenate([t, new]), kind="stable")
        t, q = np.concatenate([t, new])[order], np.concatenate([q, q_new])[order]
    world, q = chain_world(rig, animation, node, t, player)
    return t, (world @ point)[:, :3], q


def chain_world(rig: Rig, animation: Animation, node: int, times: np.ndarray,
                player: str) -> tuple[np.ndarray, np.ndarray]:
    """World matrices ``(S, 4, 4)`` of ``node`` and its local rotations ``(S, 4)`` at ``times``.

    As :func:`~quatlab.app.model.rig_players.evaluate` poses it, but only
    the node's chain of ancestors, each channel sampled at every time at
    once (:func:`~quatlab.app.model.rig_players.sample_channel`).
    """
    chain = []
    n = node
    while n >= 0:
        chain.append(n)
        n = int(rig.parents[n])
    by_node: dict[int, dict[str, Channel]] = {}
    for ch in animation.channels:
        by_node.setdefault(int(rig.rig_index[ch.node]), {})[ch.path] = ch
    s = len(times)
    world = np.broadcast_to(np.eye(4), (s, 4, 4))
    rotation = None
    for n in reversed(chain):
        channels = by_node.get(n, {})
        if channels:
            trs = {}
            for path, rest in (("translation", rig.rest_translation), ("rotation",
                               rig.rest_rotation), ("scale", rig.rest_scale)):
                ch = channels.get(path)
                trs[path] = (sample_channel(ch, times, player) if ch is not None
                             else np.broadcast_to(rest[n], (s, rest.shape[1])))
            local = compose_trs(trs["translation"], trs["rotation"], trs["scale"])
            rot = trs["rotation"]
        else:
            local = np.broadcast_to(rig.rest_matrix[n], (s, 4, 4))
            rot = np.broadcast_to(rig.rest_rotation[n], (s, 4))
        world = world @ local
        rotation = rot
    return world, np.array(rotation)
