"""Euler angles <-> quaternions (w, x, y, z), in scipy's 24 order strings.

Conventions are those of :mod:`quatlab.math.quaternion` (see
``docs/conventions.md``): quaternions are (w, x, y, z) arrays of shape
``(..., 4)``, angles are radians in arrays of shape ``(..., 3)``, and an order
string is uppercase for intrinsic rotations (about the moving body axes) and
lowercase for extrinsic ones (about the fixed axes), as in
``scipy.spatial.transform.Rotation``.

The app imports these names from :mod:`quatlab.math.quaternion`, which still
provides them.

Examples
--------
>>> import numpy as np
>>> q = from_euler(np.radians([0.0, 0.0, 90.0]), "XYZ")
>>> np.round(np.degrees(to_euler(q, "zyx")), 9) + 0.0
array([90.,  0.,  0.])
"""

from __future__ import annotations

import numpy as np

from quatlab.math.quaternion import _as_vector, _cos_sin_half, as_quaternion, multiply

__all__ = ["EULER_ORDERS", "from_euler", "to_euler"]

#: All 24 Euler order strings in scipy's convention: uppercase is intrinsic
#: (rotations about the moving body axes), lowercase is extrinsic (fixed axes).
EULER_ORDERS = tuple(
    s
    for kind in (str.upper, str.lower)
    for s in map(
        kind,
        ["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX", "XYX", "XZX", "YXY", "YZY", "ZXZ", "ZYZ"],
    )
)

_AXIS_INDEX = {"x": 0, "y": 1, "z": 2}


def _parse_order(order: str) -> tuple[list[int], bool]:
    if not isinstance(order, str) or len(order) != 3 or order not in EULER_ORDERS:
        raise ValueError(
            f"order must be one of the 24 Euler orders such as 'XYZ' (intrinsic) or "
            f"'xyz' (extrinsic), got {order!r}"
        )
    return [_AXIS_INDEX[c] for c in order.lower()], order.isupper()


def _elementary(axis_index: int, angle: np.ndarray) -> np.ndarray:
    # Through _cos_sin_half, so a quarter turn is exactly (c, ..., c, ...).
    q = np.zeros(angle.shape + (4,))
    q[..., 0], q[..., 1 + axis_index] = _cos_sin_half(angle)
    return q


def from_euler(angles, order: str) -> np.ndarray:
    """Quaternion (w, x, y, z) from Euler ``angles`` (``(..., 3)``, radians).

    ``order`` follows scipy: uppercase (``"XYZ"``) is intrinsic, the first
    angle turning about the first body axis; lowercase (``"xyz"``) is
    extrinsic, about fixed axes. Proper Euler orders (``"ZXZ"``) are accepted.

    Examples
    --------
    >>> q = from_euler([0, 0, np.pi / 2], "XYZ")
    >>> np.round(q, 12) + 0.0
    array([0.70710678, 0.        , 0.        , 0.70710678])
    """
    axes, intrinsic = _parse_order(order)
    a = _as_vector(angles, "angles")
    q0, q1, q2 = (_elementary(axes[i], a[..., i]) for i in range(3))
    if intrinsic:
        return multiply(multiply(q0, q1), q2)
    return multiply(q2, multiply(q1, q0))


def to_euler(q, order: str) -> np.ndarray:
    """Euler angles (``(..., 3)``, radians) of (w, x, y, z) quaternion(s) in ``order``.

    Same convention as :func:`from_euler`. The first and third angles lie in
    [-pi, pi]; the second in [-pi/2, pi/2] for Tait-Bryan orders and [0, pi]
    for proper Euler orders. At gimbal lock the third angle is set to 0 and
    the first carries the whole remaining rotation (as scipy does).

    Reads the angles straight from the quaternion's components, never going
    through a matrix (the method is described in ``docs/sources.md``, "Euler
    angles from quaternions").

    Examples
    --------
    >>> np.round(np.degrees(to_euler(from_euler(np.radians([10, 20, 30]), "ZYX"), "ZYX")), 9)
    array([10., 20., 30.])
    """
    axes, intrinsic = _parse_order(order)
    qa = as_quaternion(q, "q")
    if intrinsic:
        # An intrinsic sequence equals the reversed extrinsic one.
        axes = axes[::-1]
    i, j, k = axes
    symmetric = i == k
    if symmetric:
        k = 3 - i - j
    sign = (i - j) * (j - k) * (k - i) // 2
    w = qa[..., 0]
    qi, qj, qk = qa[..., 1 + i], qa[..., 1 + j], qa[..., 1 + k] * sign
    if symmetric:
        a, b, c, d = w, qi, qj, qk
    else:
        a, b, c, d = w - qj, qi + qk, qj + w, qk - qi
    second = 2.0 * np.arctan2(np.hypot(c, d), np.hypot(a, b))
    half_sum = np.arctan2(b, a)
    half_diff = np.arctan2(d, c)
    eps = 1e-7
    locked_zero = np.abs(second) <= eps
    locked_pi = np.abs(second - np.pi) <= eps
    first = half_sum - half_diff
    third = half_sum + half_diff
    # At gimbal lock only the sum (second angle 0) or the difference (second
    # angle pi) of first and third is determined; put it all on the angle that
    # ends up first in the caller's order and zero the one that ends up third.
    locked = locked_zero | locked_pi
    combined = np.where(locked_zero, 2.0 * half_sum, 2.0 * half_diff)
    if intrinsic:
        first = np.where(locked, 0.0, first)
        third = np.where(locked, combined, third)
    else:
        first = np.where(locked, np.where(locked_zero, combined, -combined), first)
        third = np.where(locked, 0.0, third)
    if not symmetric:
        third = third * sign
        second = second - np.pi / 2
    if intrinsic:
        first, third = third, first
    out = np.stack([first, second, third], axis=-1)
    # Wrap into [-pi, pi].
    out = np.where(out < -np.pi, out + 2 * np.pi, out)
    out = np.where(out > np.pi, out - 2 * np.pi, out)
    return out
