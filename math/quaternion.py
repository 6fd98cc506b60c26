"""Quaternion algebra on numpy arrays: the one convention of QuatLab.

Conventions, fixed here once for the whole project:

* Component order **(w, x, y, z)**: scalar first. glTF, Unity and scipy store
  (x, y, z, w); convert only at the boundary with :func:`from_xyzw` and
  :func:`to_xyzw`.
* Hamilton product; :func:`multiply(a, b) <multiply>` applies ``b`` first,
  then ``a``.
* Active rotation of column vectors: ``v' = q v q*``.
* Angles in radians.
* Every function broadcasts over leading dimensions: quaternions are arrays of
  shape ``(..., 4)``, vectors ``(..., 3)``, matrices ``(..., 3, 3)``.

Examples
--------
>>> import numpy as np
>>> from quatlab.math import quaternion as Q
>>> q = Q.from_axis_angle([0, 0, 1], np.pi / 2)
>>> np.round(Q.rotate_vector(q, [1, 0, 0]), 12) + 0.0
array([0., 1., 0.])
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "as_quaternion",
    "normalize",
    "multiply",
    "conjugate",
    "inverse",
    "dot",
    "norm",
    "rotate_vector",
    "from_axis_angle",
    "to_axis_angle",
    "from_rotvec",
    "to_rotvec",
    "from_matrix",
    "to_matrix",
    "from_euler",
    "to_euler",
    "EULER_ORDERS",
    "from_xyzw",
    "to_xyzw",
    "angle_between",
    "exp",
    "log",
    "power",
    "orthonormalize",
    "IDENTITY",
]

#: The identity rotation, (w, x, y, z).
IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])

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


# --------------------------------------------------------------------------- validation

# |q|^2 within this of 1 counts as unit (about 4 ulp of 1.0).
_UNIT_TOL = 4 * np.finfo(np.float64).eps


def _as_float_array(value, name: str) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric, got {value!r}") from exc
    return arr


def as_quaternion(q, name: str = "q", *, normalized: bool = True) -> np.ndarray:
    """Validate ``q`` as quaternion(s) of shape ``(..., 4)``, (w, x, y, z).

    Zero-length, NaN and infinite quaternions and a last dimension other than
    4 raise a :class:`ValueError` whose message names ``name``. The result is a
    new float64 array (the input is never mutated), unit length when
    ``normalized`` is true.

    Examples
    --------
    >>> as_quaternion([2, 0, 0, 0])
    array([1., 0., 0., 0.])
    >>> as_quaternion([0, 0, 0], name="q0")
    Traceback (most recent call last):
    ...
    ValueError: q0 must have shape (..., 4) in (w, x, y, z) order, got shape (3,)
    """
    arr = _as_float_array(q, name)
    if arr.ndim == 0 or arr.shape[-1] != 4:
        raise ValueError(
            f"{name} must have shape (..., 4) in (w, x, y, z) order, got shape {arr.shape}"
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite components")
    n2 = np.einsum("...i,...i->...", arr, arr)
    if not np.all(np.isfinite(n2) & (n2 >= 1e-300)):
        # |q|^2 overflowed or underflowed: rescale by the largest component
        # first, which is exact in direction, so 1e200 or 1e-160 still work.
        big = np.max(np.abs(arr), axis=-1, keepdims=True)
        if np.any(big == 0):
            raise ValueError(f"{name} has zero length and represents no rotation")
        arr = arr / big
        n2 = np.einsum("...i,...i->...", arr, arr)
    if normalized:
        # Inputs already unit to within a few ulp are left as they are:
        # re-normalizing moves them by ~1e-16, and near the antipode a SLERP's
        # direction is that sensitive (1e-16 / sin of the arc angle). Leaving
        # them keeps repeated normalization idempotent.
        scale = np.where(np.abs(n2 - 1.0) <= _UNIT_TOL, 1.0, np.sqrt(n2))
        return arr / scale[..., None]
    return arr.copy()


def _as_vector(v, name: str, size: int = 3, *, finite: bool = True) -> np.ndarray:
    arr = _as_float_array(v, name)
    if arr.ndim == 0 or arr.shape[-1] != size:
        raise ValueError(f"{name} must have shape (..., {size}), got shape {arr.shape}")
    if finite and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite components")
    return arr


# --------------------------------------------------------------------------- algebra


def norm(q) -> np.ndarray:
    """Euclidean length of quaternion(s) ``q`` of shape ``(..., 4)``, (w, x, y, z).

    Examples
    --------
    >>> float(norm([0, 3, 4, 0]))
    5.0
    """
    arr = _as_float_array(q, "q")
    return np.sqrt(np.einsum("...i,...i->...", arr, arr))


def normalize(q) -> np.ndarray:
    """Unit quaternion(s) along ``q``, shape ``(..., 4)``, (w, x, y, z).

    Raises :class:`ValueError` for zero, NaN or infinite input.

    Examples
    --------
    >>> normalize([0, 0, 0, 2])
    array([0., 0., 0., 1.])
    """
    return as_quaternion(q, "q")


def multiply(a, b) -> np.ndarray:
    """Hamilton product ``a ⊗ b`` of (w, x, y, z) quaternions: ``b`` is applied first.

    Broadcasts over leading dimensions. Inputs are neither normalized (the
    product of non-unit quaternions is well defined) nor checked for NaN: NaN
    marks a missing sample in a path and propagates.

    Examples
    --------
    >>> i = [0, 1, 0, 0]; j = [0, 0, 1, 0]
    >>> multiply(i, j)   # i j = k
    array([0., 0., 0., 1.])
    """
    a = _as_vector(a, "a", 4, finite=False)
    b = _as_vector(b, "b", 4, finite=False)
    aw, ax, ay, az = np.moveaxis(a, -1, 0)
    bw, bx, by, bz = np.moveaxis(b, -1, 0)
    return np.stack(
        [
            aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
        ],
        axis=-1,
    )


def conjugate(q) -> np.ndarray:
    """Conjugate (w, -x, -y, -z) of quaternion(s) ``q``, shape ``(..., 4)``.

    Examples
    --------
    >>> conjugate([1, 2, 3, 4])
    array([ 1., -2., -3., -4.])
    """
    arr = _as_vector(q, "q", 4, finite=False)
    return arr * np.array([1.0, -1.0, -1.0, -1.0])


def inverse(q) -> np.ndarray:
    """Multiplicative inverse ``conj(q) / |q|^2`` of (w, x, y, z) quaternion(s).

    Examples
    --------
    >>> inverse([0, 0, 0, 2])
    array([ 0. , -0. , -0. , -0.5])
    """
    arr = as_quaternion(q, "q", normalized=False)
    return conjugate(arr) / np.einsum("...i,...i->...", arr, arr)[..., None]


def dot(a, b) -> np.ndarray:
    """4D dot product of (w, x, y, z) quaternions, over the last axis.

    Its sign tells whether ``a`` and ``b`` lie in the same hemisphere of S3.

    Examples
    --------
    >>> float(dot([1, 0, 0, 0], [-1, 0, 0, 0]))
    -1.0
    """
    a = _as_vector(a, "a", 4, finite=False)
    b = _as_vector(b, "b", 4, finite=False)
    return np.einsum("...i,...i->...", a, b)


def rotate_vector(q, v) -> np.ndarray:
    """Rotate vector(s) ``v`` (``(..., 3)``) by quaternion(s) ``q`` (``(..., 4)``, w first).

    Computes ``q v q*`` for the normalized ``q`` (active rotation).

    Examples
    --------
    >>> q = from_axis_angle([0, 0, 1], np.pi / 2)
    >>> np.round(rotate_vector(q, [1, 0, 0]), 12) + 0.0
    array([0., 1., 0.])
    """
    q = as_quaternion(q, "q")
    v = _as_vector(v, "v")
    w = q[..., :1]
    u = q[..., 1:]
    # v' = v + 2 w (u x v) + 2 u x (u x v): the expanded sandwich product.
    uv = np.cross(u, v)
    return v + 2.0 * (w * uv + np.cross(u, uv))


# --------------------------------------------------------------------------- converters


def from_axis_angle(axis, angle) -> np.ndarray:
    """Quaternion (w, x, y, z) of a rotation by ``angle`` radians about ``axis``.

    ``axis`` (``(..., 3)``) is normalized; a zero axis raises
    :class:`ValueError`. ``angle`` broadcasts against the axis' leading shape.

    Examples
    --------
    >>> np.round(from_axis_angle([0, 0, 2], np.pi), 12) + 0.0
    array([0., 0., 0., 1.])
    """
    axis = _as_vector(axis, "axis")
    angle = _as_float_array(angle, "angle")
    if not np.all(np.isfinite(angle)):
        raise ValueError("angle must be finite")
    n = np.linalg.norm(axis, axis=-1, keepdims=True)
    if np.any(n == 0):
        raise ValueError("axis has zero length")
    shape = np.broadcast_shapes(angle.shape, axis.shape[:-1])
    half = 0.5 * angle[..., None]
    w = np.broadcast_to(np.cos(half), shape + (1,))
    xyz = np.broadcast_to(np.sin(half) * axis / n, shape + (3,))
    return np.concatenate([w, xyz], axis=-1)


def to_axis_angle(q) -> tuple[np.ndarray, np.ndarray]:
    """Axis (``(..., 3)``, unit) and angle in [0, pi] of (w, x, y, z) quaternion(s).

    The sign of ``q`` is chosen so the angle is at most pi (q and -q give the
    same answer). The identity gets axis (1, 0, 0) and angle 0.

    Examples
    --------
    >>> axis, angle = to_axis_angle(from_axis_angle([0, 1, 0], 3 * np.pi / 2))
    >>> np.round(axis, 12) + 0.0, round(float(np.degrees(angle)), 9)
    (array([ 0., -1.,  0.]), 90.0)
    """
    q = as_quaternion(q, "q")
    q = np.where(q[..., :1] < 0, -q, q)
    vec = q[..., 1:]
    s = np.linalg.norm(vec, axis=-1)
    angle = 2.0 * np.arctan2(s, q[..., 0])
    safe = np.where(s > 0, s, 1.0)[..., None]
    axis = np.where(s[..., None] > 0, vec / safe, np.array([1.0, 0.0, 0.0]))
    return axis, angle


def from_rotvec(rotvec) -> np.ndarray:
    """Quaternion (w, x, y, z) from rotation vector(s) (axis times angle, radians).

    Examples
    --------
    >>> np.round(from_rotvec([0, 0, np.pi]), 12) + 0.0
    array([0., 0., 0., 1.])
    """
    v = _as_vector(rotvec, "rotvec")
    return exp(np.concatenate([np.zeros_like(v[..., :1]), 0.5 * v], axis=-1))


def to_rotvec(q) -> np.ndarray:
    """Rotation vector (axis times angle in [0, pi]) of (w, x, y, z) quaternion(s).

    Examples
    --------
    >>> np.round(to_rotvec([0, 0, 0, 1]), 12)
    array([0.        , 0.        , 3.14159265])
    """
    axis, angle = to_axis_angle(q)
    return axis * angle[..., None]


def to_matrix(q) -> np.ndarray:
    """Rotation matrix (``(..., 3, 3)``, acting on column vectors) of (w, x, y, z) q.

    Examples
    --------
    >>> np.round(to_matrix(from_axis_angle([0, 0, 1], np.pi / 2)), 12) + 0.0
    array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]])
    """
    q = as_quaternion(q, "q")
    w, x, y, z = np.moveaxis(q, -1, 0)
    m = np.empty(q.shape[:-1] + (3, 3))
    m[..., 0, 0] = 1 - 2 * (y * y + z * z)
    m[..., 0, 1] = 2 * (x * y - w * z)
    m[..., 0, 2] = 2 * (x * z + w * y)
    m[..., 1, 0] = 2 * (x * y + w * z)
    m[..., 1, 1] = 1 - 2 * (x * x + z * z)
    m[..., 1, 2] = 2 * (y * z - w * x)
    m[..., 2, 0] = 2 * (x * z - w * y)
    m[..., 2, 1] = 2 * (y * z + w * x)
    m[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return m


def from_matrix(m) -> np.ndarray:
    """Unit quaternion (w, x, y, z) with w >= 0 of rotation matrix(es) ``m`` (``(..., 3, 3)``).

    Uses Shepperd's method (the largest of w, x, y, z is computed from the
    trace, the others from off-diagonal sums), stable for every rotation.
    The matrix should be orthonormal; see :func:`orthonormalize`.

    Examples
    --------
    >>> np.round(from_matrix(np.diag([1.0, -1.0, -1.0])), 12) + 0.0
    array([0., 1., 0., 0.])
    """
    m = _as_float_array(m, "m")
    if m.ndim < 2 or m.shape[-2:] != (3, 3):
        raise ValueError(f"m must have shape (..., 3, 3), got shape {m.shape}")
    if not np.all(np.isfinite(m)):
        raise ValueError("m contains NaN or infinite entries")
    m00, m11, m22 = m[..., 0, 0], m[..., 1, 1], m[..., 2, 2]
    trace = m00 + m11 + m22
    # Four candidate (unnormalized) quaternions; each is accurate when its
    # leading component is the largest.
    cands = np.stack(
        [
            np.stack([1 + trace, m[..., 2, 1] - m[..., 1, 2], m[..., 0, 2] - m[..., 2, 0],
                      m[..., 1, 0] - m[..., 0, 1]], axis=-1),
            np.stack([m[..., 2, 1] - m[..., 1, 2], 1 + m00 - m11 - m22,
                      m[..., 0, 1] + m[..., 1, 0], m[..., 0, 2] + m[..., 2, 0]], axis=-1),
            np.stack([m[..., 0, 2] - m[..., 2, 0], m[..., 0, 1] + m[..., 1, 0],
                      1 - m00 + m11 - m22, m[..., 1, 2] + m[..., 2, 1]], axis=-1),
            np.stack([m[..., 1, 0] - m[..., 0, 1], m[..., 0, 2] + m[..., 2, 0],
                      m[..., 1, 2] + m[..., 2, 1], 1 - m00 - m11 + m22], axis=-1),
        ],
        axis=-2,
    )
    choice = np.argmax(np.stack([trace, m00, m11, m22], axis=-1), axis=-1)
    q = np.take_along_axis(cands, choice[..., None, None], axis=-2)[..., 0, :]
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    return np.where(q[..., :1] < 0, -q, q)


def from_xyzw(q_xyzw) -> np.ndarray:
    """Reorder (x, y, z, w) quaternion(s), as glTF and scipy store them, to (w, x, y, z).

    No normalization or validation beyond the shape: a boundary converter.

    Examples
    --------
    >>> from_xyzw([0.0, 0.0, 0.7071, 0.7071])
    array([0.7071, 0.    , 0.    , 0.7071])
    """
    arr = _as_float_array(q_xyzw, "q_xyzw")
    if arr.ndim == 0 or arr.shape[-1] != 4:
        raise ValueError(f"q_xyzw must have shape (..., 4), got shape {arr.shape}")
    return np.roll(arr, 1, axis=-1)


def to_xyzw(q) -> np.ndarray:
    """Reorder (w, x, y, z) quaternion(s) to (x, y, z, w) for glTF, scipy or Unity.

    Examples
    --------
    >>> to_xyzw([1.0, 2.0, 3.0, 4.0])
    array([2., 3., 4., 1.])
    """
    arr = _as_float_array(q, "q")
    if arr.ndim == 0 or arr.shape[-1] != 4:
        raise ValueError(f"q must have shape (..., 4), got shape {arr.shape}")
    return np.roll(arr, -1, axis=-1)


# --------------------------------------------------------------------------- Euler angles


_AXIS_INDEX = {"x": 0, "y": 1, "z": 2}


def _parse_order(order: str) -> tuple[list[int], bool]:
    if not isinstance(order, str) or len(order) != 3 or order not in EULER_ORDERS:
        raise ValueError(
            f"order must be one of the 24 Euler orders such as 'XYZ' (intrinsic) or "
            f"'xyz' (extrinsic), got {order!r}"
        )
    return [_AXIS_INDEX[c] for c in order.lower()], order.isupper()


def _elementary(axis_index: int, angle: np.ndarray) -> np.ndarray:
    half = 0.5 * angle
    q = np.zeros(angle.shape + (4,))
    q[..., 0] = np.cos(half)
    q[..., 1 + axis_index] = np.sin(half)
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

    Uses the direct quaternion method of Bernardes and Shuster (2022), which
    never goes through a matrix.

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


# --------------------------------------------------------------------------- metric


def angle_between(a, b) -> np.ndarray:
    """Rotation angle in [0, pi] between the rotations ``a`` and ``b`` (w, x, y, z).

    Sign-invariant: ``angle_between(a, -b) == angle_between(a, b)``. Computed as
    ``2 atan2(|vec(conj(a) (b - a))|, |dot(a, b)|)`` after aligning hemispheres,
    which stays accurate for tiny angles where ``2 acos(|dot|)`` loses half
    its digits.

    Examples
    --------
    >>> q20 = from_axis_angle([0, 0, 1], np.radians(20))
    >>> round(float(np.degrees(angle_between([1, 0, 0, 0], -q20))), 9)
    20.0
    """
    a = as_quaternion(a, "a")
    b = as_quaternion(b, "b")
    d = np.einsum("...i,...i->...", a, b)
    b = np.where(d[..., None] < 0, -b, b)
    # The relative rotation r = conj(a) (b - a) + |a|^2: its vector part comes
    # from the exact difference b - a, so tiny angles keep their relative
    # accuracy even when |a| and |b| differ by a few ulp.
    r = multiply(conjugate(a), b - a)
    return 2.0 * np.arctan2(np.linalg.norm(r[..., 1:], axis=-1), np.abs(d))


# --------------------------------------------------------------------------- exp / log


def exp(q) -> np.ndarray:
    """Quaternion exponential of (w, x, y, z) quaternion(s) ``q``.

    ``exp(w + v) = e^w (cos|v| + sin|v| v/|v|)``; ``exp((0, axis * angle/2))``
    is the rotation by ``angle`` about ``axis``.

    Examples
    --------
    >>> np.round(exp([0, 0, 0, np.pi / 4]), 12)
    array([0.70710678, 0.        , 0.        , 0.70710678])
    """
    q = _as_vector(q, "q", 4)
    v = q[..., 1:]
    theta = np.linalg.norm(v, axis=-1)
    # sin(theta)/theta written with np.sinc stays exact as theta -> 0.
    s = np.sinc(theta / np.pi)
    scale = np.exp(q[..., 0])
    return np.concatenate(
        [(scale * np.cos(theta))[..., None], (scale * s)[..., None] * v], axis=-1
    )


def log(q) -> np.ndarray:
    """Quaternion logarithm of non-zero (w, x, y, z) quaternion(s) ``q``.

    ``log(q) = (log|q|, v/|v| * atan2(|v|, w))``: for a unit q the vector part
    is half the rotation vector. The logarithm of a negative real quaternion
    has no unique direction; the x axis is chosen.

    Examples
    --------
    >>> np.round(log(from_axis_angle([0, 0, 1], np.pi / 2)), 12) + 0.0
    array([0.        , 0.        , 0.        , 0.78539816])
    """
    q = as_quaternion(q, "q", normalized=False)
    n = np.linalg.norm(q, axis=-1)
    v = q[..., 1:]
    vn = np.linalg.norm(v, axis=-1)
    phi = np.arctan2(vn, q[..., 0])
    # phi / |v| -> 1/|q| as |v| -> 0 (phi ~ |v| / w).
    safe = np.where(vn > 0, vn, 1.0)
    factor = np.where(vn > 0, phi / safe, 1.0 / n)
    vec = factor[..., None] * v
    # Negative real axis: log(-r) = (log r, pi * x) by convention.
    neg_real = (vn == 0) & (q[..., 0] < 0)
    vec = np.where(neg_real[..., None], np.array([np.pi, 0.0, 0.0]), vec)
    return np.concatenate([np.log(n)[..., None], vec], axis=-1)


def power(q, t) -> np.ndarray:
    """``q`` raised to the real power ``t``: ``exp(t log q)``, (w, x, y, z).

    For a unit quaternion this scales the rotation angle by ``t`` about the
    same axis (taking q as stored: ``power(-q, t)`` differs for fractional t).

    Examples
    --------
    >>> q = from_axis_angle([0, 0, 1], np.pi / 2)
    >>> np.allclose(power(q, 0.5), from_axis_angle([0, 0, 1], np.pi / 4))
    True
    """
    t = _as_float_array(t, "t")
    if not np.all(np.isfinite(t)):
        raise ValueError("t must be finite")
    return exp(t[..., None] * log(q))


# --------------------------------------------------------------------------- matrices


def orthonormalize(m, keep: int = 0) -> np.ndarray:
    """Re-orthonormalize rotation matrix(es) ``m`` (``(..., 3, 3)``) by Gram-Schmidt.

    Column ``keep`` (0, 1 or 2: the axis that matters most, e.g. the facing
    axis) keeps its direction; the next column (cyclically) loses its
    component along it; the third is their cross product, so the result is a
    right-handed rotation. Degenerate input (a zero or parallel pair of
    columns) raises :class:`ValueError` rather than inventing an axis.

    Examples
    --------
    >>> m = np.array([[1.0, 0.1, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    >>> r = orthonormalize(m)
    >>> np.allclose(r.T @ r, np.eye(3)), np.allclose(r[:, 0], [1, 0, 0])
    (True, True)
    """
    m = _as_float_array(m, "m")
    if m.ndim < 2 or m.shape[-2:] != (3, 3):
        raise ValueError(f"m must have shape (..., 3, 3), got shape {m.shape}")
    if isinstance(keep, bool) or not isinstance(keep, (int, np.integer)) or keep not in (0, 1, 2):
        raise ValueError(f"keep must be 0, 1 or 2 (the column to keep), got {keep!r}")
    if not np.all(np.isfinite(m)):
        raise ValueError("m contains NaN or infinite entries")
    i, j, k = keep, (keep + 1) % 3, (keep + 2) % 3
    a = m[..., :, i]
    b = m[..., :, j]
    na = np.linalg.norm(a, axis=-1, keepdims=True)
    if np.any(na == 0):
        raise ValueError(f"column {i} of m has zero length; cannot orthonormalize")
    a = a / na
    nb0 = np.linalg.norm(b, axis=-1, keepdims=True)
    b = b - a * np.einsum("...i,...i->...", a, b)[..., None]
    nb = np.linalg.norm(b, axis=-1, keepdims=True)
    # Relative test: Gram-Schmidt doesn't depend on scale, parallel columns do.
    if np.any(nb <= 1e-12 * nb0) or np.any(nb0 == 0):
        raise ValueError(f"columns {i} and {j} of m are parallel; cannot orthonormalize")
    b = b / nb
    c = np.cross(a, b)
    out = np.empty(m.shape)
    out[..., :, i] = a
    out[..., :, j] = b
    out[..., :, k] = c
    return out
