"""One player per runtime: keys, times, t -> the rotation that runtime shows.

Every ``play_*`` function has the same signature::

    play(keys, times, t, *, interpolation="LINEAR", in_tangents=None,
         out_tangents=None, euler=None) -> (..., M, 4)

``keys`` ``(..., N, 4)`` are (w, x, y, z) as the file stores them (signs and
lengths untouched; one track per leading index), ``times`` ``(N,)`` strictly
increasing seconds shared by those tracks, ``t`` ``(M,)`` the sample times
(clamped to the keys, as every runtime does). ``interpolation`` is glTF's
``"LINEAR"``, ``"STEP"`` or ``"CUBICSPLINE"`` (then ``in_tangents`` and
``out_tangents`` ``(..., N, 4)`` are required). ``euler`` is ``(angles, order)``
when the file stores Euler channels (BVH, FBX: ``angles`` ``(..., N, 3)``
degrees in ``order``, an order string of :mod:`quatlab.math.euler`); only the
Euler-curve players read it. The result is the quaternion the runtime
computes (NaN where its blend has no rotation), not renormalized where the
runtime does not renormalize.

What each runtime does and the source it follows is in ``docs/runtimes.md``;
the registry with labels and sources is :mod:`quatlab.math.runtimes`. The
runtimes differ in LINEAR rotation segments. STEP holds the key in all of
them, except compressed Godot tracks, which only interpolate linearly.
CUBICSPLINE is glTF's Hermite spline of the components, normalized, in all
of them except Godot, whose importer bakes splines into linear keys at the
import frame rate.

Examples
--------
>>> import numpy as np
>>> c = np.sqrt(0.5)
>>> keys = np.array([[1.0, 0, 0, 0], [-c, 0, 0, -c]])      # 90 deg about Z, stored as -q
>>> times = np.array([0.0, 1.0])
>>> np.round(play_reference(keys, times, [0.5]), 4) + 0.0   # 45 deg about +Z
array([[0.9239, 0.    , 0.    , 0.3827]])
>>> np.round(play_lerp_stored(keys, times, [0.5]), 4) + 0.0  # 135 deg about -Z: the long way
array([[ 0.3827,  0.    ,  0.    , -0.9239]])
>>> np.round(play_aligned_lerp(keys, times, [0.5]), 4) + 0.0  # signs fixed at load: short way
array([[0.9239, 0.    , 0.    , 0.3827]])
"""

from __future__ import annotations

import numpy as np

from quatlab.math import euler as E
from quatlab.math import key_codecs as C
from quatlab.math import runtime_kernels as K
from quatlab.math.quaternion import as_quaternion
from quatlab.math.track_keys import align_keys

__all__ = [
    "INTERPOLATIONS",
    "UNITY_EULER_ORDER",
    "DEFAULT_FPS",
    "GODOT_COMPRESS_FPS",
    "locate",
    "align_tracks",
    "hermite",
    "play_reference",
    "play_three",
    "play_babylon",
    "play_aligned_lerp",
    "play_lerp_stored",
    "play_unity_euler",
    "play_unity_euler_resampled",
    "play_godot",
    "play_godot_compressed",
    "play_unreal",
    "play_ozz",
    "play_acl",
    "play_slerp_stored",
]

INTERPOLATIONS = ("LINEAR", "STEP", "CUBICSPLINE")

#: Unity applies Euler angles about Z, then X, then Y, each about the fixed
#: axes (``Transform.eulerAngles``): extrinsic "zxy" in scipy's notation.
UNITY_EULER_ORDER = "zxy"

#: Frame rate of the resampling players (Unity's Euler resampling, Godot's
#: import bake of splines, its ``animation/fps`` option) when the caller gives none.
DEFAULT_FPS = 30.0

#: ``Animation::compress``'s default frame rate, which Godot's scene importer uses.
GODOT_COMPRESS_FPS = 120.0


# --------------------------------------------------------------------------- input


def _inputs(keys, times, t, interpolation, in_tangents, out_tangents):
    tk = np.asarray(times, dtype=np.float64)
    if tk.ndim != 1 or tk.shape[0] < 1:
        raise ValueError(f"times must have shape (N,) with N >= 1, got shape {tk.shape}")
    if not np.all(np.isfinite(tk)) or np.any(np.diff(tk) <= 0):
        raise ValueError("times must be finite and strictly increasing")
    q = as_quaternion(keys, "keys", normalized=False)
    if q.ndim < 2 or q.shape[-2] != tk.shape[0]:
        raise ValueError(f"keys must have shape (..., {tk.shape[0]}, 4), got shape {q.shape}")
    ts = np.atleast_1d(np.asarray(t, dtype=np.float64))
    if ts.ndim != 1 or not np.all(np.isfinite(ts)):
        raise ValueError("t must be a finite 1-D array of times")
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"interpolation must be one of {INTERPOLATIONS}, got {interpolation!r}")
    tangents = None
    if interpolation == "CUBICSPLINE":
        if in_tangents is None or out_tangents is None:
            raise ValueError("CUBICSPLINE needs in_tangents and out_tangents")
        tangents = (np.broadcast_to(np.asarray(in_tangents, dtype=np.float64), q.shape),
                    np.broadcast_to(np.asarray(out_tangents, dtype=np.float64), q.shape))
    return q, tk, ts, tangents


def locate(times, t) -> tuple[np.ndarray, np.ndarray]:
    """Segment ``k`` and fraction ``u`` in [0, 1] of each sample time, clamped to the keys.

    A time exactly at an interior key starts the segment there. With one
    key, ``k = 0`` and ``u = 0`` (the key holds).

    Examples
    --------
    >>> k, u = locate([0.0, 1.0, 3.0], [-1.0, 0.5, 1.0, 2.0, 9.0])
    >>> k.tolist(), u.tolist()
    ([0, 0, 1, 1, 1], [0.0, 0.5, 0.0, 0.5, 1.0])
    """
    tk = np.asarray(times, dtype=np.float64)
    ts = np.asarray(t, dtype=np.float64)
    if tk.shape[0] < 2:
        return np.zeros(ts.shape, dtype=np.intp), np.zeros(ts.shape)
    k = np.clip(np.searchsorted(tk, ts, side="right") - 1, 0, tk.shape[0] - 2)
    u = np.clip((ts - tk[k]) / (tk[k + 1] - tk[k]), 0.0, 1.0)
    return k, u


def align_tracks(keys) -> np.ndarray:
    """Every track of ``keys`` ``(..., N, 4)`` made sign-continuous, each key keeping its length.

    :func:`quatlab.math.track.align_keys` per track (key 0 keeps its sign,
    key i is negated when its dot with the fixed key i - 1 is negative), its
    signs put on the keys as stored: what a runtime that fixes signs at load
    plays (docs/runtimes.md, "PlayCanvas and glTFast").

    Examples
    --------
    >>> (align_tracks([[[2.0, 0, 0, 0], [-2, 0, 0, 0]], [[1, 0, 0, 0], [0, 0, 0, 1]]]) + 0).tolist()
    [[[2.0, 0.0, 0.0, 0.0], [2.0, 0.0, 0.0, 0.0]], [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]]
    """
    q = np.asarray(keys, dtype=np.float64)
    flat = q.reshape(-1, q.shape[-2], 4)
    out = np.empty_like(flat)
    for i, track in enumerate(flat):
        kept = np.all(align_keys(track) == as_quaternion(track, "keys"), axis=1)
        out[i] = np.where(kept[:, None], track, -track)
    return out.reshape(q.shape)


def _pair(q, k):
    """Keys k and k + 1 of every track, ``(..., M, 4)`` each (k + 1 capped for one key)."""
    last = q.shape[-2] - 1
    return q[..., k, :], q[..., np.minimum(k + 1, last), :]


def _hold(q, k, u):
    a, b = _pair(q, k)
    return np.where((u >= 1.0)[:, None], b, a)


def hermite(keys, in_tangents, out_tangents, times, t) -> np.ndarray:
    """glTF's CUBICSPLINE rotation: Hermite spline of the components, tangents times dt, normalized.

    No hemisphere test: a key stored as -q sends the spline the long way.

    Examples
    --------
    >>> z = np.zeros((2, 4))
    >>> hermite([[1.0, 0, 0, 0], [0, 0, 0, 1]], z, z, [0.0, 1.0], [0.5]).round(4).tolist()
    [[0.7071, 0.0, 0.0, 0.7071]]
    """
    q = np.asarray(keys, dtype=np.float64)
    ins = np.asarray(in_tangents, dtype=np.float64)
    outs = np.asarray(out_tangents, dtype=np.float64)
    tk = np.asarray(times, dtype=np.float64)
    k, u = locate(tk, t)
    if tk.shape[0] < 2:
        return K.normalized_or_nan(q[..., k, :])
    dt = (tk[k + 1] - tk[k])[:, None]
    u = u[:, None]
    u2, u3 = u * u, u * u * u
    value = ((2 * u3 - 3 * u2 + 1) * q[..., k, :] + dt * (u3 - 2 * u2 + u) * outs[..., k, :]
             + (-2 * u3 + 3 * u2) * q[..., k + 1, :] + dt * (u3 - u2) * ins[..., k + 1, :])
    return K.normalized_or_nan(value)


def _play(kernel, q, tk, ts, interpolation, tangents):
    """STEP holds, CUBICSPLINE is glTF's spline, LINEAR is ``kernel`` on the segment's keys."""
    if interpolation == "CUBICSPLINE":
        return hermite(q, tangents[0], tangents[1], tk, ts)
    k, u = locate(tk, ts)
    if interpolation == "STEP" or tk.shape[0] < 2:
        return _hold(q, k, u)
    a, b = _pair(q, k)
    return kernel(a, b, u)


def _simple(kernel, *, normalize_keys: bool = False):
    """A player whose LINEAR segments are ``kernel`` on the keys (normalized first if asked)."""

    def play(keys, times, t, *, interpolation="LINEAR", in_tangents=None, out_tangents=None,
             euler=None):
        q, tk, ts, tangents = _inputs(keys, times, t, interpolation, in_tangents, out_tangents)
        if normalize_keys:
            q = as_quaternion(q, "keys")
        return _play(kernel, q, tk, ts, interpolation, tangents)

    return play


# --------------------------------------------------------------------------- players

play_reference = _simple(K.reference_slerp, normalize_keys=True)
play_reference.__name__ = "play_reference"
play_reference.__doc__ = """glTF 2.0 (the reference): shortest-arc SLERP of the normalized keys.

    Examples
    --------
    >>> play_reference([[1.0, 0, 0, 0], [0, 0, 0, 1]], [0.0, 1.0], [0.5]).round(4).tolist()
    [[0.7071, 0.0, 0.0, 0.7071]]
    """

play_three = _simple(K.three_slerp_flat)
play_three.__name__ = "play_three"
play_three.__doc__ = "three.js: ``QuaternionLinearInterpolant`` (``Quaternion.slerpFlat``)."

play_babylon = _simple(K.babylon_slerp)
play_babylon.__name__ = "play_babylon"
play_babylon.__doc__ = "Babylon.js: ``Animation`` with ``Quaternion.Slerp``."

play_lerp_stored = _simple(K.lerp_stored)
play_lerp_stored.__name__ = "play_lerp_stored"
play_lerp_stored.__doc__ = """The stored components lerped, normalized: naive NLERP, Unity curves.

    Examples
    --------
    >>> play_lerp_stored([[1.0, 0, 0, 0], [-1, 0, 0, 0]], [0.0, 1.0], [0.5]).tolist()
    [[nan, nan, nan, nan]]
    """

play_unreal = _simple(K.unreal_fast_lerp)
play_unreal.__name__ = "play_unreal"
play_unreal.__doc__ = "Unreal Engine: ``FQuat::FastLerp`` then ``Normalize``."

play_slerp_stored = _simple(K.slerp_stored)
play_slerp_stored.__name__ = "play_slerp_stored"
play_slerp_stored.__doc__ = "Naive SLERP: slerp of the normalized keys with no hemisphere test."


def play_aligned_lerp(keys, times, t, *, interpolation="LINEAR", in_tangents=None,
                      out_tangents=None, euler=None):
    """PlayCanvas and glTFast: signs made continuous at load, then component lerp, normalized.

    PlayCanvas's glb parser negates key i + 1 when its dot with (fixed) key i
    is negative, for every non-CUBICSPLINE rotation sampler, then its
    animation cache lerps the components and ``AnimBlend`` normalizes;
    glTFast's importer does the same flip for LINEAR keys before it builds
    Unity curves with linear tangents, which Unity normalizes.

    Examples
    --------
    >>> q = play_aligned_lerp([[1.0, 0, 0, 0], [-1, 0, 0, 0]], [0.0, 1.0], [0.5])
    >>> q.tolist()                                             # q and -q: holds still
    [[1.0, 0.0, 0.0, 0.0]]
    """
    q, tk, ts, tangents = _inputs(keys, times, t, interpolation, in_tangents, out_tangents)
    if interpolation != "CUBICSPLINE":
        q = align_tracks(q)
    return _play(K.lerp_stored, q, tk, ts, interpolation, tangents)


def _euler_angles(q, euler):
    """``(degrees (..., N, 3), order)``: the file's Euler channels, else the keys in Unity order."""
    if euler is not None:
        angles, order = euler
        angles = np.broadcast_to(np.asarray(angles, dtype=np.float64), q.shape[:-1] + (3,))
        return angles, order
    # A quaternion track written as Euler curves: every key converted on its
    # own into (-180, 180], as an exporter with no Euler filter writes them.
    return np.degrees(E.to_euler(as_quaternion(q, "keys"), UNITY_EULER_ORDER)), UNITY_EULER_ORDER


def _euler_curve(angles, order, tk, ts):
    """Per-channel linear Euler curves at ``ts``, as rotations ``(..., M, 4)``."""
    k, u = locate(tk, ts)
    a, b = _pair(angles, k)
    return E.from_euler(np.radians(a + u[:, None] * (b - a)), order)


def play_unity_euler(keys, times, t, *, interpolation="LINEAR", in_tangents=None,
                     out_tangents=None, euler=None):
    """Unity with Euler curves kept (Resample Curves off): each channel blended on its own.

    The file's Euler channels when it has them, else the keys written as
    Euler angles in Unity's order; each channel is interpolated linearly
    (the curves' own tangents are not modelled) and the angles applied Z,
    X, Y. A channel that wraps from 179 to -179 turns 358 degrees.

    Examples
    --------
    >>> ang = np.array([[0.0, 0, 179], [0, 0, -179]])       # Y channel (zxy order: z, x, y)
    >>> q = play_unity_euler(np.zeros((2, 4)) + [1, 0, 0, 0], [0.0, 1.0], [0.5],
    ...                      euler=(ang, "zxy"))
    >>> np.round(q, 4) + 0.0                                 # 0 deg about Y, not 180
    array([[1., 0., 0., 0.]])
    """
    q, tk, ts, tangents = _inputs(keys, times, t, interpolation, in_tangents, out_tangents)
    if interpolation == "CUBICSPLINE":
        return hermite(q, tangents[0], tangents[1], tk, ts)
    angles, order = _euler_angles(q, euler)
    if interpolation == "STEP" or tk.shape[0] < 2:
        k, u = locate(tk, ts)
        return E.from_euler(np.radians(_hold(angles, k, u)), order)
    return _euler_curve(angles, order, tk, ts)


def _frame_grid(tk, fps):
    """Frame times ``j / fps`` covering the keys' time range (both ends included)."""
    first = np.floor(tk[0] * fps)
    last = np.ceil(tk[-1] * fps)
    return np.arange(first, last + 1.0) / fps


def play_unity_euler_resampled(keys, times, t, *, interpolation="LINEAR", in_tangents=None,
                               out_tangents=None, euler=None, fps=DEFAULT_FPS):
    """Unity's default import (Resample Curves on): Euler curves baked to a key per frame.

    The Euler curves of :func:`play_unity_euler` are sampled at every frame
    (``fps``), each sample becomes a quaternion key, the keys are made
    sign-continuous, and Unity's quaternion curves blend them per component
    and normalize. Between frames the motion is what the Euler curves did at
    the frames: a wrap between two keys a frame apart disappears, one
    spread over several frames is baked in.

    Examples
    --------
    >>> ang = np.array([[0.0, 0, 179], [0, 0, -179]])
    >>> q = play_unity_euler_resampled(np.zeros((2, 4)) + [1, 0, 0, 0], [0.0, 1 / 30], [1 / 60],
    ...                                euler=(ang, "zxy"))
    >>> round(float(np.degrees(2 * np.arccos(abs(q[0, 0])))), 6)  # at 180 deg, the short way
    180.0
    """
    q, tk, ts, tangents = _inputs(keys, times, t, interpolation, in_tangents, out_tangents)
    if interpolation != "LINEAR" or tk.shape[0] < 2:
        return play_unity_euler(q, tk, ts, interpolation=interpolation,
                                in_tangents=in_tangents, out_tangents=out_tangents, euler=euler)
    angles, order = _euler_angles(q, euler)
    grid = _frame_grid(tk, float(fps))
    baked = align_tracks(_euler_curve(angles, order, tk, grid))
    k, u = locate(grid, ts)
    a, b = _pair(baked, k)
    return K.lerp_stored(a, b, u)


def _godot_bake(q, tangents, tk, fps):
    """Godot's importer bakes a CUBICSPLINE track into keys every 1/fps from time 0 to the end."""
    start = min(0.0, tk[0])
    grid = np.append(np.arange(start, tk[-1], 1.0 / fps), tk[-1])
    grid = grid[np.concatenate([np.diff(grid) > 0, [True]])]
    return hermite(q, tangents[0], tangents[1], tk, grid), grid


def play_godot(keys, times, t, *, interpolation="LINEAR", in_tangents=None, out_tangents=None,
               euler=None, fps=DEFAULT_FPS):
    """Godot 4, uncompressed rotation track: ``Quaternion::slerp`` between keys as stored.

    CUBICSPLINE samplers are baked by the glTF importer into linear keys
    every ``1 / fps`` (its bake rate) and then slerped.

    Examples
    --------
    >>> c = np.sqrt(0.5)
    >>> np.round(play_godot([[1.0, 0, 0, 0], [-c, 0, 0, -c]], [0.0, 1.0], [0.5]), 4) + 0.0
    array([[0.9239, 0.    , 0.    , 0.3827]])
    """
    q, tk, ts, tangents = _inputs(keys, times, t, interpolation, in_tangents, out_tangents)
    if interpolation == "CUBICSPLINE":
        q, tk = _godot_bake(q, tangents, tk, float(fps))
        interpolation = "LINEAR"
    return _play(K.godot_slerp, q, tk, ts, interpolation, None)


def play_godot_compressed(keys, times, t, *, interpolation="LINEAR", in_tangents=None,
                          out_tangents=None, euler=None, fps=GODOT_COMPRESS_FPS,
                          bake_fps=DEFAULT_FPS):
    """Godot 4 with animation compression: keys on frames, axis-angle in 16 bits, slerp.

    The scene importer calls ``Animation::compress`` with its default frame
    rate, ``fps`` = 120; it puts each key on frame ``uint32(time / (1/fps))``
    (truncated: a key stored a hair before a frame, as float32 times of 24 fps
    keys are, moves a whole frame earlier; of keys on one frame the last one
    is played), stores it through
    :func:`quatlab.math.key_codecs.godot_round_trip`, and marks the track
    LINEAR ("only linear supported"): STEP keys are slerped too. Playback
    slerps the decoded keys (``Quaternion::slerp``). CUBICSPLINE samplers
    were baked at ``bake_fps`` by the importer first. The extra keys the
    compressor interpolates at page boundaries are not modelled.

    Examples
    --------
    A STEP track is played as LINEAR once compressed:

    >>> q = play_godot_compressed([[1.0, 0, 0, 0], [0, 0, 0, 1]], [0.0, 1.0], [0.5],
    ...                           interpolation="STEP")
    >>> round(float(np.degrees(2 * np.arccos(q[0, 0]))), 1)
    90.0
    """
    q, tk, ts, tangents = _inputs(keys, times, t, interpolation, in_tangents, out_tangents)
    fps = float(fps)
    if interpolation == "CUBICSPLINE":
        q, tk = _godot_bake(q, tangents, tk, float(bake_fps))
    q = C.godot_round_trip(as_quaternion(q, "keys"))
    frames = np.trunc(np.maximum(tk, 0.0) / (1.0 / fps))
    last_of_frame = np.append(frames[1:] != frames[:-1], True)
    q = q[..., last_of_frame, :]
    return _play(K.godot_slerp, q, frames[last_of_frame] / fps, ts, "LINEAR", None)


def play_ozz(keys, times, t, *, interpolation="LINEAR", in_tangents=None, out_tangents=None,
             euler=None):
    """ozz-animation: the builder fixes signs up and packs keys, the sampling job NLerps them.

    ``FixupQuaternions`` normalizes every key, gives the first ``w >= 0`` and
    negates each next key whose dot with the previous is negative;
    ``CompressQuaternion`` keeps the smallest three components in 15 bits
    (:func:`quatlab.math.key_codecs.ozz_round_trip`); ``NLerpEst`` blends
    the components and normalizes, with no sign test (the builder's fix-up
    is what makes it take the short way).

    Examples
    --------
    >>> c = np.sqrt(0.5)
    >>> q = play_ozz([[1.0, 0, 0, 0], [-c, 0, 0, -c]], [0.0, 1.0], [0.5])
    >>> round(float(np.degrees(2 * np.arccos(abs(q[0, 0])))), 2)
    45.0
    """
    q, tk, ts, tangents = _inputs(keys, times, t, interpolation, in_tangents, out_tangents)
    if interpolation == "CUBICSPLINE":
        return hermite(q, tangents[0], tangents[1], tk, ts)
    q = as_quaternion(q, "keys")
    q = np.where(q[..., :1, :1] < 0, -q, q)
    q = C.ozz_round_trip(align_tracks(q))
    return _play(K.lerp_stored, q, tk, ts, interpolation, None)


def play_acl(keys, times, t, *, interpolation="LINEAR", in_tangents=None, out_tangents=None,
             euler=None):
    """ACL: samples stored ``w >= 0`` with ``w`` dropped, played with rtm's ``quat_lerp``.

    Keys go through :func:`quatlab.math.key_codecs.acl_round_trip` (positive
    ``w``, float32 ``x, y, z``, ``w`` rebuilt) and are blended by
    :func:`quatlab.math.runtime_kernels.rtm_lerp`, whose dot-sign bias undoes
    the flips that ``w >= 0`` made. The keys stand for ACL's uniform samples.

    Examples
    --------
    >>> q = play_acl([[0.0, 1, 0, 0], [0.0, -1, 0, 0]], [0.0, 1.0], [0.5])
    >>> (np.abs(q).round(6) + 0.0).tolist()                  # a half turn about X, held
    [[0.0, 1.0, 0.0, 0.0]]
    """
    q, tk, ts, tangents = _inputs(keys, times, t, interpolation, in_tangents, out_tangents)
    if interpolation == "CUBICSPLINE":
        return hermite(q, tangents[0], tangents[1], tk, ts)
    return _play(K.rtm_lerp, C.acl_round_trip(q), tk, ts, interpolation, None)
