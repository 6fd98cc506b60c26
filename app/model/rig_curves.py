"""One rotation track over time as the two players play it: the curves the rig view plots. No Qt.

:func:`track_curves` samples a :class:`~quatlab.app.io.tracks.Track` (or the
rig's own channel for it) over its animation's time range with
:func:`~quatlab.app.model.rig_players.sample_channel` for both players and
returns a :class:`TrackCurves`:

* the stored components w, x, y, z at the keys (as stored, sign included:
  the way a graph editor shows them, a sign flip is a jump of every
  component), and of the track before a fix when one is given;
* per player, the **unwrapped rotation angle** (degrees): the turn about
  each segment's axis, accumulated from the first key. Each segment's axis
  is the spec player's short-arc axis from key k to key k + 1 (in the
  parent's frame), oriented like the segment before it, so a joint that
  keeps turning one way climbs steadily (the truck's wheel), one that swings
  back comes down again, and nothing folds at 180 deg. Within a segment the
  spec player (SLERP) and the naive runtime (NLERP of the stored keys) both
  turn about that axis, so each player's curve is its true turn: across a
  sign flip the naive curve drops by 360 - theta while the spec curve rises
  by theta (docs/curves.md, "The rig view's curves");
* the **error**: the angle between the two players' rotations (degrees,
  0..180) at each time, the number the 3D view labels a joint with;
* per player, the **angular velocity** ``omega`` (degrees per second, in the
  parent's frame, ``(S, 3)``) over each sample interval and its length, the
  angular speed.

Every segment gets at least :data:`PER_SEGMENT` samples, so no sample step
turns more than a quarter turn even where the naive runtime turns the long
way (at most a whole turn in one segment): the short way between two
samples is the way the player went. Then, where a player turns more than
:data:`STEP_DEG` between two samples (the naive runtime racing round near
a sign flip's midpoint, at up to 10^5 deg/s), samples are added between
them until it does not (up to :data:`MAX_SAMPLES`), so the error's steep
flanks are drawn as they are and read at any time to within a degree.

Examples
--------
>>> from quatlab.app.io.tracks import Track
>>> c = np.sqrt(0.5)
>>> tr = Track(times=[0, 1], values=[[1, 0, 0, 0], [-c, 0, 0, -c]])   # 90 deg about z, as -q
>>> cv = track_curves(tr, 0.0, 1.0, samples=5)
>>> len(cv.t) > 180                # the naive turns 270 deg: no step over 1.5 deg
True
>>> at = np.isin(cv.t, [0.0, 0.25, 0.5, 0.75, 1.0])
>>> np.round(cv.angle["spec"][at], 1).tolist()      # the short way: up to 90
[0.0, 22.5, 45.0, 67.5, 90.0]
>>> np.round(cv.angle["naive"][at], 1).tolist()     # the long way, the other way round
[0.0, -34.3, -135.0, -235.7, -270.0]
>>> np.round(cv.error[at], 1).tolist()              # the angle between them: 22.5 + 34.3
[0.0, 56.8, 180.0, 56.8, 0.0]
>>> np.round(cv.omega["spec"][at, 2], 1).tolist()   # deg/s about z
[90.0, 90.0, 90.0, 90.0, 90.0]
"""

from __future__ import annotations

import dataclasses

import numpy as np

from quatlab.app.io.gltf.scene import Channel
from quatlab.app.io.tracks import Track
from quatlab.app.model.rig_players import PLAYERS, sample_channel
from quatlab.math.quaternion import angle_between, conjugate, multiply, to_rotvec

__all__ = ["TrackCurves", "track_curves", "angular_velocity_between", "segment_axes",
           "unwrapped_angle", "SAMPLES", "PER_SEGMENT"]

#: Samples over the animation's range (the key times are added to them).
SAMPLES = 600
#: Least samples per key segment, ends included (see the module docstring).
PER_SEGMENT = 5
#: Largest turn of a player between two samples, after refinement (degrees).
STEP_DEG = 1.5
#: Refinement stops adding samples at this many.
MAX_SAMPLES = 40000


@dataclasses.dataclass(frozen=True, eq=False)
class TrackCurves:
    """A track's curves; see the module docstring. Angles in degrees, speeds in degrees/s."""

    key_times: np.ndarray  # (K,)
    keys: np.ndarray  # (K, 4) w, x, y, z as stored
    before: np.ndarray | None  # (K, 4): the keys before a fix, or None
    t: np.ndarray  # (S,) sample times
    angle: dict[str, np.ndarray]  # player -> (S,) unwrapped turn about the segments' axes
    speed: dict[str, np.ndarray]  # player -> (S,); the first sample repeats the second's
    error: np.ndarray  # (S,) angle between the players' rotations
    omega: dict[str, np.ndarray]  # player -> (S, 3) deg/s, parent frame; first = second
    rotations: dict[str, np.ndarray] = dataclasses.field(repr=False, default_factory=dict)


def angular_velocity_between(q0, q1, dt, *, frame: str = "world") -> np.ndarray:
    """The constant angular velocity ``(..., 3)`` (rad per unit ``dt``) turning ``q0`` into ``q1``.

    The short way: ``rotvec(q1 q0*) / dt`` in the ``"world"`` frame (for a
    joint's local rotation, its parent's frame), ``rotvec(q0* q1) / dt`` in
    the ``"local"`` (body) frame; the signs of ``q0`` and ``q1`` do not
    matter. The signature of ``quatlab.math.angular_velocity.between``,
    which is being added to the math layer; until it is there the rig
    curves use this one.

    Examples
    --------
    >>> from quatlab.math.quaternion import from_axis_angle
    >>> keys = from_axis_angle([0, 0, 1], np.radians([0.0, 90.0]))
    >>> np.round(np.degrees(angular_velocity_between(keys[0], -keys[1], 0.5)), 9) + 0.0
    array([  0.,   0., 180.])
    """
    if frame not in ("world", "local"):
        raise ValueError(f"frame must be 'world' or 'local', got {frame!r}")
    q0 = np.asarray(q0, dtype=np.float64)
    q1 = np.asarray(q1, dtype=np.float64)
    dt = np.asarray(dt, dtype=np.float64)
    if not np.all(np.isfinite(dt) & (dt > 0)):
        raise ValueError("dt must be finite and positive")
    rel = multiply(q1, conjugate(q0)) if frame == "world" else multiply(conjugate(q0), q1)
    return to_rotvec(rel) / dt[..., None]


def segment_axes(keys: np.ndarray) -> np.ndarray:
    """Each segment's turn axis ``(K - 1, 3)``, oriented like the segment before it.

    The axis of the short arc from key k to key k + 1 in the parent's frame
    (``rotvec(q[k+1] q[k]*)``); flipped when it points against the previous
    segment's axis, so a steady spin keeps one axis and a swing back gets the
    same axis with a negative turn. A segment that does not turn takes the
    previous axis (the first ones take the first turning segment's).

    >>> from quatlab.math.quaternion import from_axis_angle
    >>> q = from_axis_angle([0, 0, 1], np.radians([0.0, 30.0, 60.0, 30.0]))
    >>> (segment_axes(q) + 0.0).tolist()        # the swing back keeps +z (and turns by -30 deg)
    [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]
    """
    keys = np.asarray(keys, dtype=np.float64)
    if len(keys) < 2:
        return np.zeros((0, 3))
    rv = to_rotvec(multiply(keys[1:], conjugate(keys[:-1])))
    length = np.linalg.norm(rv, axis=1)
    axes = np.zeros_like(rv)
    turning = length > 1e-12
    axes[turning] = rv[turning] / length[turning, None]
    first = np.flatnonzero(turning)
    previous = axes[first[0]] if first.size else np.array([1.0, 0.0, 0.0])
    for k in range(len(axes)):  # a chain: each depends on the one before
        if not turning[k]:
            axes[k] = previous
        elif axes[k] @ previous < 0:
            axes[k] = -axes[k]
        previous = axes[k]
    return axes


def unwrapped_angle(t: np.ndarray, q: np.ndarray, key_times: np.ndarray,
                    axes: np.ndarray) -> np.ndarray:
    """Degrees turned about the segments' ``axes`` from ``t[0]``, accumulated (see the module doc).

    ``q`` ``(S, 4)`` are a player's rotations at the times ``t`` ``(S,)``;
    each sample step's turn (the short way, parent's frame) is projected on
    the axis of the segment its middle lies in.

    >>> from quatlab.math.quaternion import from_axis_angle
    >>> t = np.linspace(0, 2, 9)
    >>> q = from_axis_angle([0, 0, 1], np.radians(200 * t))       # 400 deg: past a full turn
    >>> float(np.round(unwrapped_angle(t, q, np.array([0.0, 2.0]), np.array([[0, 0, 1.0]]))[-1], 6))
    400.0
    """
    if len(t) < 2 or not len(axes):
        return np.zeros(len(t))
    step = to_rotvec(multiply(q[1:], conjugate(q[:-1])))
    middle = 0.5 * (t[1:] + t[:-1])
    seg = np.clip(np.searchsorted(key_times, middle, side="right") - 1, 0, len(axes) - 1)
    turn = np.einsum("ij,ij->i", step, axes[seg])
    return np.degrees(np.concatenate([[0.0], np.cumsum(turn)]))


def sample_times(key_times: np.ndarray, lo: float, hi: float, samples: int) -> np.ndarray:
    """``samples`` times over ``[lo, hi]``, the key times and :data:`PER_SEGMENT` per segment."""
    t = np.linspace(lo, hi, max(int(samples), 2))
    inside = key_times[(key_times >= lo) & (key_times <= hi)]
    return np.union1d(t, np.concatenate([inside, _within(inside, PER_SEGMENT)]))


def _within(key_times: np.ndarray, count: int) -> np.ndarray:
    """``count - 2`` evenly spaced times inside each segment between ``key_times``."""
    if len(key_times) < 2:
        return np.zeros(0)
    u = np.linspace(0.0, 1.0, count)[1:-1]
    return (key_times[:-1, None] + u * np.diff(key_times)[:, None]).ravel()


def track_curves(track: Track, start: float, end: float, *, before: Track | None = None,
                 samples: int = SAMPLES, channel: Channel | None = None) -> TrackCurves:
    """Sample ``track`` on ``[start, end]`` for both players (see the module docstring).

    ``channel``: the rig's channel that plays the track (a BVH joint's
    :class:`~quatlab.app.model.rig_players.EulerChannel`, whose naive player
    lerps the Euler angles; an FBX node's
    :class:`~quatlab.app.model.fbx_rig.FbxChannel`, whose spec curve is the
    file's own evaluation), so the curves are what the 3D view shows; by
    default a glTF channel is made from the track's keys.
    """
    key_times = np.asarray(track.times, dtype=np.float64)
    keys = np.asarray(track.values, dtype=np.float64)
    finite = np.isfinite(key_times) & np.all(np.isfinite(keys), axis=1)
    usable = finite & (np.linalg.norm(np.where(finite[:, None], keys, 0.0), axis=1) > 1e-150)
    lo, hi = (float(start), float(end)) if end > start else (float(start), float(start) + 1.0)
    t = sample_times(key_times[usable], lo, hi, samples)
    angle, speed, omega, rotations = {}, {}, {}, {}
    ordered = usable.all() and np.all(np.diff(key_times) > 0)
    if ordered and len(keys):
        if channel is not None and hasattr(channel, "sample"):
            # It plays itself (an FBX node): the naive player blends these keys.
            channel = dataclasses.replace(channel, times=key_times, values=keys)
        elif channel is None or len(channel.values) != len(keys):
            channel = Channel(track.node_index or 0, "rotation", track.interpolation, key_times,
                              keys, track.in_tangents, track.out_tangents, 0, 0)
        unit = keys / np.linalg.norm(keys, axis=1, keepdims=True)
        axes = segment_axes(unit)
        t, rotations = _refined(channel, t)
        error = np.degrees(angle_between(rotations["spec"], rotations["naive"]))
        dt = np.diff(t)
        for player in PLAYERS:
            q = rotations[player]
            angle[player] = unwrapped_angle(t, q, key_times, axes)
            w = np.degrees(angular_velocity_between(q[:-1], q[1:], dt)) if len(dt) \
                else np.zeros((0, 3))
            omega[player] = np.concatenate([w[:1], w]) if len(w) else np.zeros((len(t), 3))
            speed[player] = np.linalg.norm(omega[player], axis=1)
    else:
        # Keys out of order or broken: no player can play the track (the audit says why).
        for player in PLAYERS:
            angle[player] = np.full(len(t), np.nan)
            speed[player] = np.full(len(t), np.nan)
            omega[player] = np.full((len(t), 3), np.nan)
        error = np.full(len(t), np.nan)
    old = None
    if before is not None and len(before) == len(track) and before.values is not track.values:
        old = np.asarray(before.values, dtype=np.float64)
    return TrackCurves(key_times, keys, old, t, angle, speed, error, omega, rotations)


def _refined(channel: Channel, t: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Times with no player step over :data:`STEP_DEG` (module docstring), and both paths there.

    Each round samples only the times it adds (a BVH joint's Euler runtime
    converts every sample) and merges them in.
    """
    # Unit quaternions turn by more than the step where |dot| < cos(step / 2).
    least = np.cos(np.radians(STEP_DEG) / 2)
    # A STEP key jumps at once: no interval that short is split again.
    shortest = 1e-6 * max(float(t[-1] - t[0]), 1e-9)
    rotations = {p: sample_channel(channel, t, p) for p in PLAYERS}
    while True:
        coarse = np.zeros(len(t) - 1, dtype=bool)
        for q in rotations.values():
            coarse |= np.abs(np.einsum("ij,ij->i", q[:-1], q[1:])) < least
        coarse &= np.diff(t) > shortest
        room = MAX_SAMPLES - len(t)
        if not coarse.any() or room <= 0:
            return t, rotations
        gaps = np.flatnonzero(coarse)[:room]
        new = 0.5 * (t[gaps] + t[gaps + 1])
        order = np.argsort(np.concatenate([t, new]), kind="stable")
        t = np.concatenate([t, new])[order]
        rotations = {p: np.concatenate([q, sample_channel(channel, new, p)])[order]
                     for p, q in rotations.items()}
