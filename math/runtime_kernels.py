"""The two-key rotation blends of real runtimes, written as their sources compute them.

Every kernel takes the segment's two keys ``q0``, ``q1`` ``(..., 4)`` (w, x,
y, z, as the runtime holds them: stored signs, stored lengths) and the
fraction ``u`` ``(...)`` in [0, 1], and returns what that runtime computes,
without any normalization the runtime does not do itself (three.js,
Babylon.js and Godot return slightly off-unit quaternions for off-unit
keys, as they do). Thresholds, branch conditions and the sign rules are the
sources' own; ``docs/runtimes.md`` quotes each source.

==================  ==========================================================
kernel              rule
==================  ==========================================================
reference_slerp     glTF's slerp: shortest arc (negate q1 when dot < 0)
three_slerp_flat    three.js ``Quaternion.slerpFlat``: dir = sign(dot >= 0),
                    atan2 angle, lerp + normalize when 1 - dot^2 <= eps
babylon_slerp       Babylon.js ``Quaternion.SlerpToRef``: acos, plain lerp
                    when |dot| > 0.999999
godot_slerp         Godot ``Quaternion::slerp``: acos, plain lerp when
                    1 - |dot| <= 1e-5
unreal_fast_lerp    Unreal ``FQuat::FastLerp`` (bias on q0 from the dot's
                    sign), then normalized
rtm_lerp            ACL / rtm ``quat_lerp``: bias on q1, normalized
lerp_stored         the stored components blended, then normalized; a blend
                    through zero (q to -q at u = 1/2) has no rotation: NaN
slerp_stored        slerp with no hemisphere test; exact antipodes: NaN
==================  ==========================================================

Examples
--------
>>> import numpy as np
>>> c = np.sqrt(0.5)
>>> q0, q1 = np.array([1.0, 0, 0, 0]), np.array([-c, 0, 0, -c])   # 90 deg about Z, stored -q
>>> np.round(three_slerp_flat(q0, q1, 0.5), 4) + 0.0                 # short arc: 45 deg about +Z
array([0.9239, 0.    , 0.    , 0.3827])
>>> np.round(lerp_stored(q0, q1, 0.5), 4) + 0.0                      # long arc: 135 deg about -Z
array([ 0.3827,  0.    ,  0.    , -0.9239])
"""

from __future__ import annotations

import numpy as np

from quatlab.math import interpolate as I

__all__ = [
    "reference_slerp",
    "three_slerp_flat",
    "babylon_slerp",
    "godot_slerp",
    "unreal_fast_lerp",
    "rtm_lerp",
    "lerp_stored",
    "slerp_stored",
    "normalized_or_nan",
]

#: ``Number.EPSILON`` (three.js) and Godot's ``CMP_EPSILON``.
_JS_EPSILON = np.finfo(np.float64).eps
_GODOT_CMP_EPSILON = 1e-5
#: Below this squared length a blend has no direction.
_ZERO = 1e-300


def _dot(a, b):
    return np.einsum("...i,...i->...", a, b)


def _args(q0, q1, u):
    a = np.asarray(q0, dtype=np.float64)
    b = np.asarray(q1, dtype=np.float64)
    u = np.asarray(u, dtype=np.float64)
    shape = np.broadcast_shapes(a.shape[:-1], b.shape[:-1], u.shape)
    return (np.broadcast_to(a, shape + (4,)), np.broadcast_to(b, shape + (4,)),
            np.broadcast_to(u, shape))


def normalized_or_nan(q) -> np.ndarray:
    """``q / |q|``, and NaN where ``q`` is zero (a blend that passed through zero).

    Examples
    --------
    >>> normalized_or_nan([[0, 0, 0, 2], [0, 0, 0, 0]]).tolist()
    [[0.0, 0.0, 0.0, 1.0], [nan, nan, nan, nan]]
    """
    q = np.asarray(q, dtype=np.float64)
    n2 = _dot(q, q)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((n2 > _ZERO)[..., None], q / np.sqrt(n2)[..., None], np.nan)


def _normalized_in_place(m: np.ndarray) -> np.ndarray:
    """:func:`normalized_or_nan` of a blend the caller just made (``m`` is overwritten)."""
    n2 = _dot(m, m)
    zero = n2 <= _ZERO
    with np.errstate(invalid="ignore", divide="ignore"):
        m /= np.sqrt(n2)[..., None]
    if zero.any():
        m[zero] = np.nan
    return m


def reference_slerp(q0, q1, u) -> np.ndarray:
    """glTF 2.0's LINEAR rotation: slerp of the normalized keys along the shorter arc.

    :func:`quatlab.math.interpolate.slerp` with ``shortest=True`` (q1 negated
    when dot < 0, kept at dot = 0).

    Examples
    --------
    >>> np.round(reference_slerp([1, 0, 0, 0], [0, 0, 0, 1], 0.5), 4)
    array([0.7071, 0.    , 0.    , 0.7071])
    """
    a, b, u = _args(q0, q1, u)
    return I.slerp(a, b, u)


def three_slerp_flat(q0, q1, u) -> np.ndarray:
    """three.js ``Quaternion.slerpFlat`` (what ``QuaternionLinearInterpolant`` calls).

    ``u == 0`` returns q0 and ``u == 1`` returns q1 exactly as stored; equal
    keys return q0. Otherwise ``cos = dot``, ``dir = 1 if cos >= 0 else -1``,
    ``sqrSin = 1 - cos^2``; when ``sqrSin > Number.EPSILON`` the weights are
    ``sin(s len) / sin`` and ``sin(u len) / sin`` with ``len = atan2(sin, cos dir)``,
    else plain lerp weights and the result is normalized. The second weight
    is multiplied by ``dir``. Keys are not normalized first.

    Examples
    --------
    >>> np.round(three_slerp_flat([1, 0, 0, 0], [0, 0, 0, 1], 0.5), 4)
    array([0.7071, 0.    , 0.    , 0.7071])
    """
    a, b, u = _args(q0, q1, u)
    cos = _dot(a, b)
    direction = np.where(cos >= 0, 1.0, -1.0)
    sqr_sin = 1.0 - cos * cos
    arc = sqr_sin > _JS_EPSILON
    with np.errstate(invalid="ignore", divide="ignore"):
        sin = np.sqrt(np.where(arc, sqr_sin, 1.0))
        length = np.arctan2(sin, cos * direction)
        s = np.where(arc, np.sin((1.0 - u) * length) / sin, 1.0 - u)
        t = np.where(arc, np.sin(u * length) / sin, u)
    out = s[..., None] * a + (t * direction)[..., None] * b
    # "Normalize in case we just did a lerp" (the lerp branch only).
    norm = np.sqrt(_dot(out, out))
    out = np.where((~arc)[..., None], out / np.where(norm > 0, norm, 1.0)[..., None], out)
    same = np.all(a == b, axis=-1)
    out = np.where((same | (u == 0))[..., None], a, out)
    return np.where((u == 1)[..., None], b, out)


def babylon_slerp(q0, q1, u) -> np.ndarray:
    """Babylon.js ``Quaternion.SlerpToRef``, which ``Animation`` calls for quaternion keys.

    ``num4 = dot``, made positive with a ``flag`` when negative; above
    0.999999 the weights are ``1 - u`` and ``+-u`` (no normalization), else
    ``sin((1 - u) acos) / sin(acos)`` and ``+-sin(u acos) / sin(acos)``.

    Examples
    --------
    >>> c = np.sqrt(0.5)
    >>> np.round(babylon_slerp([1, 0, 0, 0], [-c, 0, 0, -c], 0.5), 4) + 0.0
    array([0.9239, 0.    , 0.    , 0.3827])
    """
    a, b, u = _args(q0, q1, u)
    num4 = _dot(a, b)
    flag = num4 < 0
    num4 = np.abs(num4)
    close = num4 > 0.999999
    with np.errstate(invalid="ignore", divide="ignore"):
        num5 = np.arccos(np.minimum(num4, 1.0))
        num6 = 1.0 / np.sin(np.where(close, 1.0, num5))
        w0 = np.where(close, 1.0 - u, np.sin((1.0 - u) * num5) * num6)
        w1 = np.where(close, u, np.sin(u * num5) * num6)
    w1 = np.where(flag, -w1, w1)
    return w0[..., None] * a + w1[..., None] * b


def godot_slerp(q0, q1, u) -> np.ndarray:
    """Godot 4 ``Quaternion::slerp`` (what a rotation track's LINEAR interpolation calls).

    ``cosom = dot``; q1 negated when ``cosom < 0``; when ``1 - cosom > CMP_EPSILON``
    (1e-5) the acos/sin weights, else ``1 - u`` and ``u``. No normalization.

    Examples
    --------
    >>> np.round(godot_slerp([1, 0, 0, 0], [0, 0, 0, 1], 0.25), 4)
    array([0.9239, 0.    , 0.    , 0.3827])
    """
    a, b, u = _args(q0, q1, u)
    cosom = _dot(a, b)
    b = np.where((cosom < 0)[..., None], -b, b)
    cosom = np.abs(cosom)
    arc = (1.0 - cosom) > _GODOT_CMP_EPSILON
    with np.errstate(invalid="ignore", divide="ignore"):
        omega = np.arccos(np.minimum(cosom, 1.0))
        sinom = np.sin(np.where(arc, omega, 1.0))
        s0 = np.where(arc, np.sin((1.0 - u) * omega) / sinom, 1.0 - u)
        s1 = np.where(arc, np.sin(u * omega) / sinom, u)
    return s0[..., None] * a + s1[..., None] * b


def unreal_fast_lerp(q0, q1, u) -> np.ndarray:
    """Unreal ``FQuat::FastLerp`` then ``Normalize``: ``B u + A (bias (1 - u))``, bias = sign(dot).

    ``FloatSelect(dot, 1, -1)`` gives +1 at ``dot >= 0``; the bias goes on
    the first key. The blend is normalized, as the pose blending and
    decompression code does after ``FastLerp``.

    Examples
    --------
    >>> c = np.sqrt(0.5)
    >>> np.round(unreal_fast_lerp([1, 0, 0, 0], [-c, 0, 0, -c], 0.5), 4) + 0.0  # same rotation
    array([-0.9239,  0.    ,  0.    , -0.3827])
    """
    a, b, u = _args(q0, q1, u)
    bias = np.where(_dot(a, b) >= 0, 1.0, -1.0)
    return _normalized_in_place(u[..., None] * b + (bias * (1.0 - u))[..., None] * a)


def rtm_lerp(q0, q1, u) -> np.ndarray:
    """rtm ``quat_lerp`` (ACL's decompression): bias = sign(dot) on the second key, normalized.

    ``(1 - u) start + u (end * bias)``, bias +1 at ``dot >= 0``.

    Examples
    --------
    >>> c = np.sqrt(0.5)
    >>> np.round(rtm_lerp([1, 0, 0, 0], [-c, 0, 0, -c], 0.5), 4) + 0.0
    array([0.9239, 0.    , 0.    , 0.3827])
    """
    a, b, u = _args(q0, q1, u)
    bias = np.where(_dot(a, b) >= 0, 1.0, -1.0)
    return _normalized_in_place((1.0 - u)[..., None] * a + (u * bias)[..., None] * b)


def lerp_stored(q0, q1, u) -> np.ndarray:
    """The stored components blended per component, then normalized (no hemisphere test).

    What a runtime does that puts each component on its own linear curve
    (Unity's quaternion curves) and normalizes the result; q to -q passes
    through zero at ``u = 1/2``, where there is no rotation (NaN).

    Examples
    --------
    >>> lerp_stored([1, 0, 0, 0], [-1, 0, 0, 0], [0.25, 0.5]).tolist()
    [[1.0, 0.0, 0.0, 0.0], [nan, nan, nan, nan]]
    """
    a, b, u = _args(q0, q1, u)
    blend = b - a
    blend *= u[..., None]
    blend += a
    return _normalized_in_place(blend)


def slerp_stored(q0, q1, u) -> np.ndarray:
    """Slerp of the normalized keys with no hemisphere test (a negated key: the long arc).

    Exact antipodes (``q1 = -q0``) have no great circle, so 0 < u < 1 is NaN there.

    Examples
    --------
    >>> c = np.sqrt(0.5)
    >>> np.round(slerp_stored([1, 0, 0, 0], [-c, 0, 0, -c], 0.5), 4) + 0.0
    array([ 0.3827,  0.    ,  0.    , -0.9239])
    """
    a, b, u = _args(q0, q1, u)
    a = normalized_or_nan(a)
    b = normalized_or_nan(b)
    antipode = np.all(a == -b, axis=-1) & (u > 0) & (u < 1)
    safe_b = np.where(antipode[..., None], a, b)
    out = I.slerp(a, safe_b, u, shortest=False)
    return np.where(antipode[..., None], np.nan, out)
