"""Pipeline steps that tools apply to rotation keys, and that can make a flip or a glitch.

A :class:`KeyTrack` (times, keys (w, x, y, z), interpolation, CUBICSPLINE
tangents, Euler channels if the keys came from Euler angles) goes through
steps parsed from a spec like ``"quantize:16,resample:30"``
(:func:`parse_steps`, :func:`apply_steps`). Each step follows the tool named
in ``docs/runtimes.md`` ("Pipeline steps"):

==============  ======================================================================
step            what it does
==============  ======================================================================
quantize:B      KHR_mesh_quantization: components as B-bit normalized signed integers
                (B = 8 or 16; tangents too, clamped to [-1, 1])
meshopt:B       gltfpack ``-cc -ar B``: the quaternion filter (largest component made
                positive: flips), B in 4..16; CUBICSPLINE tracks get 16-bit snorm
resample:F      gltfpack's resampler at F keys per second (its approximate slerp,
                double cover handled), CUBICSPLINE becomes LINEAR; a track that stays
                within 0.1 deg of its first key keeps only that key
reduce:T        glTF-Transform ``resample()`` (keyframe-resample): drop a key when the
                slerp of its kept neighbours is within T per component, unless the
                two arcs add up to 180 deg or more
reduce-v2:T     glTF-Transform 2.4 and older: drop a key when the component lerp of its
                stored neighbours is within T (so drops chain, across a half turn)
positive-w      ACL's ``quat_ensure_positive_w``: keys with w < 0 negated (flips)
euler:ORDER     quaternion -> Euler angles -> quaternion in ORDER, key by key, as an
                FBX exporter writes Euler curves (sign flips; the angles are kept)
==============  ======================================================================

Examples
--------
>>> import numpy as np
>>> steps = parse_steps("quantize:16,resample:30")
>>> [s.text for s in steps]
['quantize:16', 'resample:30']
>>> track = KeyTrack(np.array([0.0, 1.0]), np.array([[1.0, 0, 0, 0], [0, 0, 0, 1]]))
>>> out = apply_steps(track, steps)
>>> len(out.times), out.interpolation
(31, 'LINEAR')
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from quatlab.math import euler as E
from quatlab.math import key_codecs as C
from quatlab.math import runtime_players as P
from quatlab.math.quaternion import as_quaternion

__all__ = [
    "STEP_KINDS",
    "KeyTrack",
    "Step",
    "parse_steps",
    "apply_steps",
    "gltfpack_slerp",
    "resample_gltfpack",
    "reduce_keyframes",
    "reduce_keyframes_v2",
    "positive_w",
    "euler_round_trip",
]

#: Step names :func:`parse_steps` accepts, in the order ``--help`` lists them.
STEP_KINDS = ("quantize", "meshopt", "resample", "reduce", "reduce-v2", "positive-w", "euler")

#: gltfpack's tolerance for a constant rotation track (0.1 degree).
_GLTFPACK_CONSTANT = 0.1 * (3.1415926 / 180.0)
#: gl-matrix's slerp switches to lerp when 1 - dot is below this (keyframe-resample).
_GL_MATRIX_EPSILON = 0.000001


@dataclasses.dataclass(frozen=True, eq=False)
class KeyTrack:
    """One rotation track as the pipeline carries it.

    ``times`` ``(N,)`` seconds; ``keys`` ``(N, 4)`` (w, x, y, z) as stored;
    ``interpolation`` glTF's mode; ``in_tangents``/``out_tangents`` ``(N, 4)``
    for CUBICSPLINE; ``euler`` ``(degrees (N, 3), order)`` when the keys are
    Euler channels (a BVH joint, or after an ``euler:`` step), else None.
    """

    times: np.ndarray
    keys: np.ndarray
    interpolation: str = "LINEAR"
    in_tangents: np.ndarray | None = None
    out_tangents: np.ndarray | None = None
    euler: tuple | None = None

    def replace(self, **changes) -> KeyTrack:
        return dataclasses.replace(self, **changes)


@dataclasses.dataclass(frozen=True)
class Step:
    """A parsed step: ``kind`` (one of :data:`STEP_KINDS`), its ``value``, and its ``text``."""

    kind: str
    value: object
    text: str


def _number(kind, raw, convert, low, high):
    try:
        value = convert(raw)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or not low <= value <= high:
        raise ValueError(f"{kind}: expected a number in [{low:g}, {high:g}], got {raw!r}")
    return value


def parse_steps(spec: str) -> tuple[Step, ...]:
    """The steps of ``spec``: comma-separated ``kind`` or ``kind:value`` (see module docs).

    Examples
    --------
    >>> [(s.kind, s.value) for s in parse_steps("meshopt:12, positive-w, euler:ZXY")]
    [('meshopt', 12), ('positive-w', None), ('euler', 'ZXY')]
    >>> parse_steps("quantize:12")
    Traceback (most recent call last):
    ...
    ValueError: quantize: KHR_mesh_quantization stores 8 or 16 bits, got '12' (meshopt:12 for ...)
    """
    steps = []
    for part in (p.strip() for p in str(spec).split(",")):
        if not part:
            continue
        kind, _, raw = part.partition(":")
        kind, raw = kind.strip(), raw.strip()
        if kind not in STEP_KINDS:
            raise ValueError(f"unknown step {kind!r}; steps: {', '.join(STEP_KINDS)}")
        if kind == "positive-w":
            if raw:
                raise ValueError(f"positive-w takes no value, got {raw!r}")
            value = None
        elif not raw:
            raise ValueError(f"{kind} needs a value, as in {kind}:{_EXAMPLE[kind]}")
        elif kind == "quantize":
            if raw not in ("8", "16"):
                raise ValueError(f"quantize: KHR_mesh_quantization stores 8 or 16 bits, got "
                                 f"{raw!r} (meshopt:{raw} for gltfpack's filter)")
            value = int(raw)
        elif kind == "meshopt":
            value = int(_number(kind, raw, int, 4, 16))
        elif kind == "resample":
            value = _number(kind, raw, float, 1, 1000)
            value = int(value) if value == int(value) else value
        elif kind in ("reduce", "reduce-v2"):
            value = _number(kind, raw, float, 1e-12, 1)
        else:
            if raw not in E.EULER_ORDERS:
                raise ValueError(f"euler: expected an order such as ZXY or zxy, got {raw!r}")
            value = raw
        steps.append(Step(kind, value, part.replace(" ", "")))
    if not steps:
        raise ValueError("give at least one step, such as quantize:16,resample:30")
    return tuple(steps)


_EXAMPLE = {"quantize": "16", "meshopt": "12", "resample": "30", "reduce": "0.0001",
            "reduce-v2": "0.0001", "euler": "ZXY"}


def apply_steps(track: KeyTrack, steps) -> KeyTrack:
    """``track`` after every step of ``steps`` (a spec string or :class:`Step` objects), in order.

    Steps other than ``euler:`` change the keys, so a track's Euler channels
    are dropped by them (the keys are no longer those angles).
    """
    if isinstance(steps, str):
        steps = parse_steps(steps)
    for step in steps:
        track = _STEPS[step.kind](track, step.value)
    return track


# --------------------------------------------------------------------------- codecs


def _quantize(track: KeyTrack, bits) -> KeyTrack:
    tangents = {}
    if track.interpolation == "CUBICSPLINE":
        tangents = {"in_tangents": C.snorm_round_trip(track.in_tangents, bits),
                    "out_tangents": C.snorm_round_trip(track.out_tangents, bits)}
    return track.replace(keys=C.snorm_round_trip(track.keys, bits), euler=None, **tangents)


def _meshopt(track: KeyTrack, bits) -> KeyTrack:
    if track.interpolation == "CUBICSPLINE":
        # gltfpack writes tangent tracks unfiltered, as 16-bit snorm.
        return _quantize(track, 16)
    return track.replace(keys=C.meshopt_quat_round_trip(track.keys, bits), euler=None)


def positive_w(keys) -> np.ndarray:
    """ACL's ``quat_ensure_positive_w``: ``w >= 0 ? q : -q`` for every key (w, x, y, z).

    Examples
    --------
    >>> (positive_w([[-0.6, 0.8, 0, 0], [0.0, -1.0, 0, 0]]) + 0.0).tolist()
    [[0.6, -0.8, 0.0, 0.0], [0.0, -1.0, 0.0, 0.0]]
    """
    q = np.asarray(keys, dtype=np.float64)
    return np.where(q[..., :1] < 0, -q, q)


def _positive_w(track: KeyTrack, _value) -> KeyTrack:
    changes = {}
    if track.interpolation == "CUBICSPLINE":
        flip = track.keys[:, :1] < 0
        changes = {"in_tangents": np.where(flip, -track.in_tangents, track.in_tangents),
                   "out_tangents": np.where(flip, -track.out_tangents, track.out_tangents)}
    return track.replace(keys=positive_w(track.keys), euler=None, **changes)


def euler_round_trip(keys, order: str) -> tuple[np.ndarray, np.ndarray]:
    """Keys through Euler angles in ``order`` and back, key by key: ``(keys, degrees (N, 3))``.

    Each key becomes the angles :func:`quatlab.math.euler.to_euler` gives
    (first and third in [-180, 180]), and those angles become a quaternion
    again by :func:`quatlab.math.euler.from_euler`, whose sign has nothing
    to do with the stored one.

    Examples
    --------
    >>> q, ang = euler_round_trip([[-1.0, 0, 0, 0]], "ZXY")
    >>> (q + 0.0).tolist(), (ang + 0.0).tolist()
    ([[1.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0]])
    """
    q = as_quaternion(keys, "keys")
    angles = E.to_euler(q, order)
    return E.from_euler(angles, order), np.degrees(angles)


def _euler(track: KeyTrack, order) -> KeyTrack:
    keys, angles = euler_round_trip(track.keys, order)
    if track.interpolation == "CUBICSPLINE":
        track = _bake_linear(track)
        keys, angles = euler_round_trip(track.keys, order)
    return track.replace(keys=keys, euler=(angles, order))


def _bake_linear(track: KeyTrack) -> KeyTrack:
    """A CUBICSPLINE track as LINEAR keys at its own key times (an exporter's bake)."""
    keys = P.hermite(track.keys, track.in_tangents, track.out_tangents, track.times, track.times)
    return track.replace(keys=keys, interpolation="LINEAR", in_tangents=None, out_tangents=None)


# --------------------------------------------------------------------------- gltfpack resampling


def gltfpack_slerp(l, r, t) -> np.ndarray:
    """gltfpack's ``interpolateLinear`` for rotations: zeux's approximate slerp, double cover.

    ``ot`` is ``t`` corrected by a cubic fitted to slerp's timing; the second
    key's weight takes the dot's sign (negative at ``dot = 0``, ``ca > 0`` is
    false there); the blend is normalized.

    Examples
    --------
    A quarter of a 90 deg turn: 22.5 deg, to 4 digits (the exact slerp gives
    cos 11.25 deg = 0.98079, sin 11.25 deg = 0.19509):

    >>> np.round(gltfpack_slerp([1.0, 0, 0, 0], [np.sqrt(0.5), 0, 0, np.sqrt(0.5)], 0.25), 4)
    array([0.9808, 0.    , 0.    , 0.1951])
    """
    a = np.asarray(l, dtype=np.float64)
    b = np.asarray(r, dtype=np.float64)
    t = np.asarray(t, dtype=np.float64)
    ca = np.einsum("...i,...i->...", a, b)
    d = np.abs(ca)
    big_a = 1.0904 + d * (-3.2452 + d * (3.55645 - d * 1.43519))
    big_b = 0.848013 + d * (-1.06021 + d * 0.215638)
    k = big_a * (t - 0.5) * (t - 0.5) + big_b
    ot = t + t * (t - 0.5) * (t - 1) * k
    t1 = np.where(ca > 0, ot, -ot)
    lerp = a * (1 - ot)[..., None] + b * t1[..., None]
    length = np.sqrt(np.einsum("...i,...i->...", lerp, lerp))
    return np.where((length > 0)[..., None], lerp / np.where(length > 0, length, 1.0)[..., None],
                    lerp)


def resample_gltfpack(track: KeyTrack, freq: float) -> KeyTrack:
    """gltfpack's ``resampleKeyframes`` at ``freq`` Hz, then its constant-track test.

    ``frames = 1 + int((maxt - mint) * freq + 0.8)`` samples at
    ``mint + i / freq`` (gltfpack takes ``mint``, ``maxt`` over the whole
    animation; here over the track). LINEAR samples use
    :func:`gltfpack_slerp` between the keys around them, STEP holds,
    CUBICSPLINE is the normalized spline and the track becomes LINEAR. If
    every sample is within 0.1 deg of the first (``2 acos |dot|``), only the
    first is kept.

    Examples
    --------
    >>> tr = KeyTrack(np.array([0.0, 0.1]), np.array([[1.0, 0, 0, 0], [1.0, 0, 0, 0]]))
    >>> resample_gltfpack(tr, 30).times.tolist()            # constant: one key
    [0.0]
    """
    times = track.times
    mint, maxt = float(times[0]), float(times[-1])
    frames = 1 + int((maxt - mint) * freq + 0.8)
    grid = mint + np.arange(frames) / freq
    cursor = np.clip(np.searchsorted(times, grid, side="right") - 1, 0, len(times) - 1)
    inside = cursor + 1 < len(times)
    nxt = np.minimum(cursor + 1, len(times) - 1)
    span = times[nxt] - times[cursor]
    u = np.where(inside & (span > 0), (grid - times[cursor]) / np.where(span > 0, span, 1.0), 0.0)
    u = np.clip(u, 0.0, 1.0)
    if track.interpolation == "CUBICSPLINE":
        values = P.hermite(track.keys, track.in_tangents, track.out_tangents, times,
                           np.minimum(grid, maxt))
    elif track.interpolation == "STEP":
        values = track.keys[cursor]
    else:
        values = gltfpack_slerp(track.keys[cursor], track.keys[nxt], u)
    values = np.where(inside[:, None], values, track.keys[cursor])
    interpolation = "LINEAR" if track.interpolation == "CUBICSPLINE" else track.interpolation
    deviation = 2 * np.arccos(np.minimum(1.0, np.abs(values @ values[0])))
    if np.max(deviation) <= _GLTFPACK_CONSTANT:
        grid, values = grid[:1], values[:1]
    return KeyTrack(grid, values, interpolation)


def _resample(track: KeyTrack, freq) -> KeyTrack:
    return resample_gltfpack(track, float(freq))


# --------------------------------------------------------------------------- key reduction


def _gl_matrix_slerp(a, b, t):
    """gl-matrix ``quat.slerp`` (keyframe-resample's copy) on one key pair."""
    cosom = float(np.dot(a, b))
    if cosom < 0.0:
        cosom, b = -cosom, -b
    if 1.0 - cosom > _GL_MATRIX_EPSILON:
        omega = math.acos(min(cosom, 1.0))
        sinom = math.sin(omega)
        return (math.sin((1.0 - t) * omega) / sinom) * a + (math.sin(t * omega) / sinom) * b
    return (1.0 - t) * a + t * b


def _half_angle_sum(a, b):
    """keyframe-resample's ``getAngle``: ``acos(2 dot^2 - 1)`` (NaN above 1, as in JavaScript)."""
    c = 2.0 * float(np.dot(a, b)) ** 2 - 1.0
    return math.acos(c) if -1.0 <= c <= 1.0 else math.nan


def reduce_keyframes(track: KeyTrack, tolerance: float) -> KeyTrack:
    """glTF-Transform's ``resample()`` (keyframe-resample ``resampleDebug``), for a rotation track.

    Walking the keys, key i is dropped when it equals (within ``tolerance``
    per component, as stored) the slerp of the last kept key and key i + 1 at
    its time, unless the angles last kept -> i -> i + 1 add up to 180 deg or
    more; STEP keys are dropped when equal to both neighbours. A key at the
    same time as the next (or the second key at the first's time) is
    dropped. CUBICSPLINE tracks are left alone.

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> keys = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 10, 20, 30]))
    >>> reduce_keyframes(KeyTrack(np.arange(4.0), keys), 1e-4).times.tolist()
    [0.0, 3.0]
    """
    if track.interpolation == "CUBICSPLINE" or len(track.times) < 3:
        return track
    times, keys = track.times, track.keys
    kept = [0]
    last = len(times) - 1
    for i in range(1, last):
        t_prev, t, t_next = times[kept[-1]], times[i], times[i + 1]
        keep = False
        if t != t_next and (i != 1 or t != times[0]):
            prev, value, nxt = keys[kept[-1]], keys[i], keys[i + 1]
            if track.interpolation == "STEP":
                keep = not (np.array_equal(value, prev) and np.array_equal(value, nxt))
            else:
                sample = _gl_matrix_slerp(prev, nxt, (t - t_prev) / (t_next - t_prev))
                angle = _half_angle_sum(prev, value) + _half_angle_sum(value, nxt)
                keep = (bool(np.any(np.abs(value - sample) > tolerance))
                        or angle + np.finfo(float).eps >= math.pi)
        if keep:
            kept.append(i)
    kept.append(last)
    return track.replace(times=times[kept], keys=keys[kept], euler=None)


def reduce_keyframes_v2(track: KeyTrack, tolerance: float) -> KeyTrack:
    """glTF-Transform 2.4.7 and older, ``resample()``: the component test against stored neighbours.

    Key i is dropped when every component is within ``tolerance`` of the
    lerp of keys i - 1 and i + 1 *as stored* (not the last kept key), so a
    smooth turn loses all its inner keys, however far they go in total; its
    ends may then be more than a half turn apart and the short arc between
    them turns the other way (fixed in glTF-Transform 3.0, PR #760).

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> keys = Q.from_axis_angle([0, 0, 1], np.radians(np.arange(0.0, 241, 2)))
    >>> out = reduce_keyframes_v2(KeyTrack(np.arange(121.0), keys), 1e-3)
    >>> out.times.tolist()                                   # 240 deg between two keys
    [0.0, 120.0]
    """
    if track.interpolation == "CUBICSPLINE" or len(track.times) < 3:
        return track
    times, keys = track.times, track.keys
    i = np.arange(1, len(times) - 1)
    mix = (times[i] - times[i - 1]) / (times[i + 1] - times[i - 1])
    if track.interpolation == "STEP":
        drop = np.all(keys[i] == keys[i - 1], axis=1) & np.all(keys[i] == keys[i + 1], axis=1)
    else:
        lerp = keys[i - 1] + (keys[i + 1] - keys[i - 1]) * mix[:, None]
        drop = np.all(np.abs(keys[i] - lerp) <= tolerance, axis=1)
    # A key at the same time as the next (or the second at the first's) goes too.
    same_time = (times[i] == times[i + 1]) | ((i == 1) & (times[i] == times[0]))
    keep = np.concatenate([[True], ~(drop | same_time), [True]])
    return track.replace(times=times[keep], keys=keys[keep], euler=None)


_STEPS = {
    "quantize": _quantize,
    "meshopt": _meshopt,
    "resample": _resample,
    "reduce": lambda tr, tol: reduce_keyframes(tr, tol),
    "reduce-v2": lambda tr, tol: reduce_keyframes_v2(tr, tol),
    "positive-w": _positive_w,
    "euler": _euler,
}
