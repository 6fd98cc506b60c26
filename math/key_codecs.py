"""How engines and tools store rotation keys in fewer bits, and what comes back out.

Each ``*_round_trip`` function encodes quaternion keys ``(..., 4)`` (w, x, y,
z) the way one engine or tool does and decodes them again, so a player can
be fed exactly the keys that engine plays. They follow the sources quoted in
``docs/runtimes.md`` ("Key codecs"); where C code rounds, truncates or clamps,
the same integer steps are taken here. Arithmetic is float64 unless the
source's precision is the point (ACL's float32 ``w``).

* :func:`snorm_round_trip`: normalized signed integers, one per component, as
  glTF's ``KHR_mesh_quantization`` stores rotation outputs (8 or 16 bits) and
  ``meshopt_quantizeSnorm`` rounds them (any width 2..16). The stored sign of
  every key is kept.
* :func:`meshopt_quat_encode` / :func:`meshopt_quat_round_trip`: gltfpack's
  quaternion filter (``-cc``): the largest component is dropped after the key
  is negated to make it positive, so consecutive keys may change sign.
* :func:`ozz_round_trip`: ozz-animation's smallest-three 15-bit keys; the sign
  of the dropped component is stored, so signs survive.
* :func:`acl_round_trip`: ACL's ``drop w`` format: ``w >= 0`` first, then ``w``
  rebuilt from float32 ``x, y, z``.
* :func:`godot_round_trip`: Godot 4's compressed rotation: axis in 16-bit
  octahedral coordinates, angle in [0, 2 pi) in 16 bits.

Examples
--------
>>> import numpy as np
>>> q = np.array([0.5, 0.5, -0.5, 0.5])
>>> snorm_round_trip(q, 8).tolist()          # 0.5 * 127 = 63.5 rounds away from zero
[0.5039370078740157, 0.5039370078740157, -0.5039370078740157, 0.5039370078740157]
>>> bool(acl_round_trip(-q)[0] > 0)          # w >= 0 before w is dropped
True
"""

from __future__ import annotations

import numpy as np

from quatlab.math.quaternion import as_quaternion

__all__ = [
    "snorm_round_trip",
    "meshopt_quat_encode",
    "meshopt_quat_decode",
    "meshopt_quat_round_trip",
    "ozz_round_trip",
    "acl_round_trip",
    "godot_encode",
    "godot_decode",
    "godot_round_trip",
]

_SQRT2 = np.sqrt(2.0)


def _check_bits(bits, low: int, high: int) -> int:
    if isinstance(bits, bool) or not isinstance(bits, (int, np.integer)) or not low <= bits <= high:
        raise ValueError(f"bits must be a whole number in [{low}, {high}], got {bits!r}")
    return int(bits)


def _round_away(x: np.ndarray) -> np.ndarray:
    """``int(x + 0.5)`` for x >= 0 and ``int(x - 0.5)`` below: C's round half away from zero."""
    return np.trunc(x + np.where(x >= 0, 0.5, -0.5))


def _snorm_codes(v: np.ndarray, bits: int) -> np.ndarray:
    """``meshopt_quantizeSnorm(v, bits)``: clamp to [-1, 1], scale, round half away from zero."""
    scale = float((1 << (bits - 1)) - 1)
    return _round_away(np.clip(v, -1.0, 1.0) * scale)


def snorm_round_trip(keys, bits: int = 16) -> np.ndarray:
    """Keys after storing each component as a ``bits``-bit normalized signed integer.

    Encoding is ``c = round(clamp(f, -1, 1) * s)`` with ``s = 2**(bits-1) - 1``
    (127 for a signed byte, 32767 for a signed short), rounding half away
    from zero as ``meshopt_quantizeSnorm`` does; decoding is the glTF rule
    ``f = max(c / s, -1)``. Nothing is normalized: a key keeps its stored
    sign and comes back a little off unit length.

    Examples
    --------
    >>> snorm_round_trip([1.0, 0.0, 0.0, -1.0], 8).tolist()
    [1.0, 0.0, 0.0, -1.0]
    >>> round(float(snorm_round_trip([0.7071, 0.0, 0.0, 0.7071], 8)[0]), 6)  # 89.8 -> 90
    0.708661
    """
    bits = _check_bits(bits, 2, 16)
    q = np.asarray(keys, dtype=np.float64)
    scale = float((1 << (bits - 1)) - 1)
    return np.maximum(_snorm_codes(q, bits) / scale, -1.0)


def meshopt_quat_encode(keys, bits: int = 12) -> np.ndarray:
    """gltfpack's quaternion filter (``meshopt_encodeFilterQuat``): int16 words ``(..., 4)``.

    Works on the glTF component order (x, y, z, w): the key is negated if its
    largest component (the first of equals) is negative, the other three,
    taken cyclically after it and scaled by sqrt(2), become ``bits``-bit snorm
    codes, and the last word holds ``(snorm(1) & ~3) | index``. ``keys`` are
    (w, x, y, z); the words are in the filter's own order.

    Examples
    --------
    meshoptimizer's own test (demo/tests.cpp, ``encodeFilterQuat12``), keys
    given here as (w, x, y, z):

    >>> meshopt_quat_encode([[0, 1, 0, 0], [0, 0, -1, 0]], 12).tolist()
    [[0, 0, 0, 2044], [0, 0, 0, 2045]]
    """
    bits = _check_bits(bits, 4, 16)
    q = np.asarray(keys, dtype=np.float64)
    xyzw = np.concatenate([q[..., 1:], q[..., :1]], axis=-1)
    qc = np.argmax(np.abs(xyzw), axis=-1)  # first of equals, as the filter's strict >
    big = np.take_along_axis(xyzw, qc[..., None], axis=-1)
    sign = np.where(big < 0, -1.0, 1.0)
    out = np.empty(q.shape, dtype=np.int64)
    for j in range(3):
        comp = np.take_along_axis(xyzw, ((qc + 1 + j) & 3)[..., None], axis=-1)
        out[..., j] = _snorm_codes(comp * _SQRT2 * sign, bits)[..., 0]
    out[..., 3] = (int(_snorm_codes(np.array(1.0), bits)) & ~3) | qc
    return out


def meshopt_quat_decode(words) -> np.ndarray:
    """``meshopt_decodeFilterQuat`` then glTF's int16 rule: (w, x, y, z) keys from filter words.

    The largest component is rebuilt as ``sqrt(max(0, 2 s^2 - x^2 - y^2 - z^2))``,
    always positive, from the scale ``s = word3 | 3``; every component is
    rounded to int16 and read back as ``max(c / 32767, -1)``.

    Examples
    --------
    >>> meshopt_quat_decode([[0, 0, 0, 2044]]).tolist()   # (x, y, z, w) = (1, 0, 0, 0)
    [[0.0, 1.0, 0.0, 0.0]]
    """
    d = np.asarray(words, dtype=np.int64)
    s = (d[..., 3] | 3).astype(np.float64)
    x, y, z = (d[..., j].astype(np.float64) for j in range(3))
    w = np.sqrt(np.maximum(s * s * 2.0 - x * x - y * y - z * z, 0.0))
    ss = (32767.0 / _SQRT2) / s
    qc = d[..., 3] & 3
    xyzw = np.empty(d.shape, dtype=np.float64)
    parts = (_round_away(w * ss), _round_away(x * ss), _round_away(y * ss), _round_away(z * ss))
    for shift, part in enumerate(parts):
        slot = (qc + shift) & 3
        np.put_along_axis(xyzw, slot[..., None], part[..., None], axis=-1)
    xyzw = np.maximum(xyzw / 32767.0, -1.0)
    return np.concatenate([xyzw[..., 3:], xyzw[..., :3]], axis=-1)


def meshopt_quat_round_trip(keys, bits: int = 12) -> np.ndarray:
    """Keys after gltfpack's quaternion filter at ``bits`` bits (``-cc -ar bits``).

    Examples
    --------
    A key whose largest component is negative comes back negated:

    >>> meshopt_quat_round_trip([-0.8, 0.6, 0.0, 0.0], 16).round(4).tolist()
    [0.8, -0.6, 0.0, 0.0]
    """
    return meshopt_quat_decode(meshopt_quat_encode(keys, bits))


# ozz-animation: internal::QuaternionKey (15 bits per kept component).
_OZZ_BITS = 15
_OZZ_ISCALE = (1 << _OZZ_BITS) - 1


def ozz_round_trip(keys) -> np.ndarray:
    """Keys after ozz-animation's ``CompressQuaternion`` and the sampling job's decompression.

    On (x, y, z, w): the largest component (first of equals) is dropped and
    its sign kept in a bit; the other three are stored as
    ``min(int((c + sqrt(2)/2) * 32767 / sqrt(2) + 0.5), 32767)`` and read back as
    ``code * sqrt(2) / 32767 - sqrt(2)/2``; the dropped one is
    ``sign * sqrt(1 - sum of squares)``. Keys are expected normalized (the
    builder normalizes before it compresses).

    Examples
    --------
    >>> q = ozz_round_trip([-0.6, 0.0, 0.8, 0.0])
    >>> bool(q[2] > 0 and q[0] < 0)              # signs survive
    True
    """
    q = np.asarray(keys, dtype=np.float64)
    xyzw = np.concatenate([q[..., 1:], q[..., :1]], axis=-1)
    big = np.argmax(np.abs(xyzw), axis=-1)
    negative = np.take_along_axis(xyzw, big[..., None], axis=-1)[..., 0] < 0
    k_scale = _OZZ_ISCALE / _SQRT2
    offset = -_SQRT2 / 2.0
    codes = np.minimum(np.trunc((xyzw - offset) * k_scale + 0.5), _OZZ_ISCALE)
    out = codes * (_SQRT2 / _OZZ_ISCALE) + offset
    np.put_along_axis(out, big[..., None], 0.0, axis=-1)
    rest = np.einsum("...i,...i->...", out, out)
    largest = np.sqrt(np.maximum(1.0 - rest, 0.0))
    np.put_along_axis(out, big[..., None], np.where(negative, -largest, largest)[..., None],
                      axis=-1)
    return np.concatenate([out[..., 3:], out[..., :3]], axis=-1)


def acl_round_trip(keys) -> np.ndarray:
    """Keys after ACL's ``quat_ensure_positive_w`` and the ``drop w`` rotation format.

    Each key is normalized, negated when ``w < 0``, its ``x, y, z`` stored as
    float32, and ``w`` rebuilt at decompression as
    ``sqrt(|1 - x^2 - y^2 - z^2|)`` in float32 (``quat_from_positive_w``). Near a
    half turn ``w`` is tiny and this square root loses most of its digits.

    Examples
    --------
    >>> q = acl_round_trip([-0.6, 0.8, 0.0, 0.0])
    >>> (q.round(6) + 0.0).tolist()
    [0.6, -0.8, 0.0, 0.0]
    """
    q = as_quaternion(keys, "keys")
    q = np.where(q[..., :1] < 0, -q, q)
    xyz = q[..., 1:].astype(np.float32)
    w = np.sqrt(np.abs(np.float32(1.0) - np.einsum("...i,...i->...", xyz, xyz)))
    return np.concatenate([w[..., None], xyz], axis=-1).astype(np.float64)


_GODOT_MAX = 65535.0


def _octahedron_encode(n: np.ndarray) -> np.ndarray:
    """Godot's ``Vector3::octahedron_encode``: a direction ``(..., 3)`` to [0, 1]^2."""
    n = n / np.sum(np.abs(n), axis=-1, keepdims=True)
    x, y, z = n[..., 0], n[..., 1], n[..., 2]
    ox = np.where(z >= 0, x, (1.0 - np.abs(y)) * np.where(x >= 0, 1.0, -1.0))
    oy = np.where(z >= 0, y, (1.0 - np.abs(x)) * np.where(y >= 0, 1.0, -1.0))
    return np.stack([ox * 0.5 + 0.5, oy * 0.5 + 0.5], axis=-1)


def _octahedron_decode(o: np.ndarray) -> np.ndarray:
    """Godot's ``Vector3::octahedron_decode``: [0, 1]^2 back to a unit direction."""
    fx = o[..., 0] * 2.0 - 1.0
    fy = o[..., 1] * 2.0 - 1.0
    nz = 1.0 - np.abs(fx) - np.abs(fy)
    t = np.clip(-nz, 0.0, 1.0)
    nx = fx + np.where(fx >= 0, -t, t)
    ny = fy + np.where(fy >= 0, -t, t)
    n = np.stack([nx, ny, nz], axis=-1)
    return n / np.linalg.norm(n, axis=-1, keepdims=True)


def _to_codes(v: np.ndarray) -> np.ndarray:
    """``CLAMP(int32_t(v * 65535.0), 0, 65535)``; NaN gives 0 (x86 converts it to INT_MIN)."""
    return np.clip(np.trunc(np.nan_to_num(v * _GODOT_MAX, nan=-1.0)), 0.0, _GODOT_MAX)


def godot_encode(keys) -> np.ndarray:
    """Godot 4's ``Animation::_compress_key`` for a rotation: three 16-bit codes ``(..., 3)``.

    ``axis = v / sqrt(1 - w^2)`` (``Quaternion::get_axis``), ``angle = 2 acos(w)``
    wrapped into [0, 2 pi) (``fposmod``); the axis in octahedral coordinates
    and ``angle / 2 pi``, each ``int32(x * 65535)`` clamped to [0, 65535]. An
    identity key has no axis (NaN, coded 0): its angle 0 makes that harmless.

    Examples
    --------
    >>> godot_encode([np.sqrt(0.5), 0.0, 0.0, np.sqrt(0.5)]).tolist()  # 90 deg about +Z
    [32767.0, 32767.0, 16383.0]
    """
    q = as_quaternion(keys, "keys")
    w = np.clip(q[..., 0], -1.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        axis = q[..., 1:] / np.sqrt(1.0 - w * w)[..., None]
        oct_ = _octahedron_encode(axis)
    angle = np.mod(2.0 * np.arccos(w), 2.0 * np.pi)
    norm = np.concatenate([oct_, (angle / (2.0 * np.pi))[..., None]], axis=-1)
    return _to_codes(norm)


def godot_decode(codes) -> np.ndarray:
    """Godot 4's ``Animation::_uncompress_quaternion``: (w, x, y, z) from three 16-bit codes.

    Examples
    --------
    >>> (godot_decode([32767.0, 32767.0, 16383.0]).round(4) + 0.0).tolist()
    [0.7071, 0.0, 0.0, 0.7071]
    """
    c = np.asarray(codes, dtype=np.float64)
    axis = _octahedron_decode(c[..., :2] / _GODOT_MAX)
    half = (c[..., 2] / _GODOT_MAX) * np.pi
    return np.concatenate([np.cos(half)[..., None], axis * np.sin(half)[..., None]], axis=-1)


def godot_round_trip(keys) -> np.ndarray:
    """Keys after Godot 4's rotation compression and decompression.

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> q = Q.from_axis_angle([1, 2, 3], 2.5)
    >>> bool(np.degrees(Q.angle_between(godot_round_trip(q), q)) < 0.01)
    True
    """
    return godot_decode(godot_encode(keys))
