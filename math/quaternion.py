"""Quaternion algebra on numpy arrays: the one convention of QuatLab.

Conventions (``docs/conventions.md``), fixed here once for the whole project:

* Component order **(w, x, y, z)**: scalar first. glTF, Unity and scipy store
  (x, y, z, w); convert only at the boundary with :func:`from_xyzw` and
  :func:`to_xyzw`.
* Hamilton product; :func:`multiply(a, b) <multiply>` applies ``b`` first,
  then ``a``.
* Active rotation of column vectors: ``v' = q v q*``.
* Angles in radians.
* Every function broadcasts over leading dimensions: quaternions are arrays of
  shape ``(..., 4)``, vectors ``(..., 3)``, matrices ``(..., 3, 3)``. Leading
  shapes that do not broadcast raise a :class:`ValueError` naming both
  arguments and their shapes.

Rotation matrices live in :mod:`quatlab.math.matrix` and Euler angles in
:mod:`quatlab.math.euler`; the names that used to be defined here
(``to_matrix``, ``from_matrix``, ``orthonormalize``, ``from_euler``,
``to_euler``, ``EULER_ORDERS``) can still be imported from this module, which
app/ and rendering/ do.

Examples
--------
>>> import numpy as np
>>> from quatlab.math import quaternion as Q
>>> q = Q.from_axis_angle([0, 0, 1], np.pi / 2)
>>> np.round(Q.rotate_vector(q, [1, 0, 0]), 12) + 0.0
array([0., 1., 0.])
>>> Q.multiply(np.ones((3, 4)), np.ones((2, 4)))
Traceback (most recent call last):
...
ValueError: a and b must broadcast: shapes (3, 4) and (2, 4)

Why this module is a little over 500 lines: it is the one convention, and
every function here is a primitive the others build on; Euler angles
(:mod:`.euler`) and matrices (:mod:`.matrix`) have modules of their own and
are re-exported here only for callers that use this one import.
"""

from __future__ import annotations

import importlib

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
    "from_xyzw",
    "to_xyzw",
    "angle_between",
    "canonical",
    "exp",
    "log",
    "power",
    "IDENTITY",
]

#: The identity rotation, (w, x, y, z).
IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])

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


def _broadcast(*args: tuple[str, np.ndarray, int]) -> tuple[int, ...]:
    """Broadcast leading shape of ``(name, array, core_ndim)`` arguments, or ValueError.

    ``core_ndim`` trailing dimensions of each array (1 for a quaternion or a
    vector, 0 for a parameter) are left out. numpy's own message ("operands
    could not be broadcast together with remapped shapes ...") names no
    argument; this one names the first two that conflict (shapes broadcast
    together exactly when every pair does), with their full shapes.

    Examples
    --------
    >>> _broadcast(("q0", np.ones((3, 4)), 1), ("t", np.ones(3), 0))
    (3,)
    >>> _broadcast(("q0", np.ones((3, 4)), 1), ("q1", np.ones((2, 4)), 1), ("t", np.ones(()), 0))
    Traceback (most recent call last):
    ...
    ValueError: q0 and q1 must broadcast: shapes (3, 4) and (2, 4)
    """
    leading = [arr.shape[: arr.ndim - core] for _, arr, core in args]
    try:
        return np.broadcast_shapes(*leading)
    except ValueError:
        pass
    for i in range(len(args)):
        for j in range(i + 1, len(args)):
            try:
                np.broadcast_shapes(leading[i], leading[j])
            except ValueError:
                (n1, a1, _), (n2, a2, _) = args[i], args[j]
                raise ValueError(
                    f"{n1} and {n2} must broadcast: shapes {a1.shape} and {a2.shape}"
                ) from None
    raise AssertionError("unreachable: shapes that broadcast pairwise broadcast together")


# Below this length the squares of a vector's components may be subnormal or
# zero (components under ~1.5e-154), and at inf they overflowed: there the
# length is taken again of the vector divided by its largest component.
_NORM_SAFE_MIN = 1e-150


def _vector_norm(v: np.ndarray) -> np.ndarray:
    """Euclidean length over the last axis, accurate for components from 1e-308 to 1e308.

    ``np.linalg.norm`` squares the components: ``(1e-200, 0, 0)`` has length
    0 and ``(1e200, 0, 0)`` infinity. Rows outside the safe range are scaled
    by their largest component first (exact in direction), as LAPACK's
    ``dnrm2`` does; the others keep the plain, faster sum of squares.

    Examples
    --------
    >>> _vector_norm(np.array([[3e-200, 4e-200, 0.0], [3.0, 4.0, 0.0], [3e200, 4e200, 0.0]]))
    array([5.e-200, 5.e+000, 5.e+200])
    """
    n = np.sqrt(np.einsum("...i,...i->...", v, v))
    redo = (n < _NORM_SAFE_MIN) | (n == np.inf)
    if np.any(redo):
        vr = v[redo]
        big = np.max(np.abs(vr), axis=-1)
        # An infinite component is left unscaled: its length stays inf.
        unit = np.where((big > 0) & (big < np.inf), big, 1.0)
        scaled = vr / unit[..., None]
        n = np.array(n, copy=True)
        n[redo] = unit * np.sqrt(np.einsum("...i,...i->...", scaled, scaled))
    return n


# --------------------------------------------------------------------------- algebra


def norm(q) -> np.ndarray:
    """Euclidean length of quaternion(s) ``q`` of shape ``(..., 4)``, (w, x, y, z).

    Examples
    --------
    >>> float(norm([0, 3, 4, 0]))
    5.0
    >>> float(norm([0, 3e-200, 4e-200, 0]))    # no underflow of the squares
    5e-200
    """
    arr = _as_float_array(q, "q")
    if arr.ndim == 0 or arr.shape[-1] != 4:
        raise ValueError(f"q must have shape (..., 4) in (w, x, y, z) order, got shape {arr.shape}")
    return _vector_norm(arr)


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
    _broadcast(("a", a, 1), ("b", b, 1))
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
    _broadcast(("a", a, 1), ("b", b, 1))
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
    _broadcast(("q", q, 1), ("v", v, 1))
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
    n = _vector_norm(axis)[..., None]
    if np.any(n == 0):
        raise ValueError("axis has zero length")
    shape = _broadcast(("axis", axis, 1), ("angle", angle, 0))
    cos, sin = _cos_sin_half(angle[..., None])
    w = np.broadcast_to(cos, shape + (1,))
    xyz = np.broadcast_to(sin * (axis / n), shape + (3,))
    return np.concatenate([w, xyz], axis=-1)


# cos and sin of k * 45 degrees, k = 0..7: exact but for the rounding of sqrt(1/2).
_R = float(np.sqrt(0.5))
_COS_EIGHTHS = np.array([1.0, _R, 0.0, -_R, -1.0, -_R, 0.0, _R])
_SIN_EIGHTHS = np.roll(_COS_EIGHTHS, 2)


def _cos_sin_half(angle: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``cos(angle / 2)`` and ``sin(angle / 2)``, exact at multiples of 90 degrees of ``angle``.

    ``np.cos(np.pi / 4)`` and ``np.sin(np.pi / 4)`` differ by one ulp and
    ``np.cos(np.pi / 2)`` is 6.1e-17, so a quarter turn would come out as
    ``(c, 0, 0, c')`` with ``c != c'`` and a half turn with ``w = 6.1e-17``:
    their matrices then hold 2.2e-16 or 1.2e-16 where 0 is meant. Here the
    half angle is split as ``k pi/4 + d`` (``k`` the nearest integer, float
    ``pi`` standing for pi), and ``(cos d, sin d)`` is turned by ``k`` eighths
    of a turn with exact constants, so whole quarter and half turns give
    equal or zero components. Within two turns (where ``k pi/4`` is within
    2.4e-16 of the true multiple) the result is within about 2 ulp of
    ``np.cos`` and ``np.sin``; larger angles use those directly.

    Examples
    --------
    >>> c, s = _cos_sin_half(np.array([np.pi / 2, np.pi, 0.1]))
    >>> bool(c[0] == s[0]), float(c[1]), bool(abs(c[2] - np.cos(0.05)) < 1e-16)
    (True, 0.0, True)
    """
    h = 0.5 * angle
    eighths = np.rint(h / (np.pi / 4))
    small = np.abs(eighths) <= 8
    k = np.where(small, eighths, 0.0)
    # d is h itself when k = 0, so small angles keep full relative accuracy.
    d = np.where(small, h - k * (np.pi / 4), h)
    cd, sd = np.cos(d), np.sin(d)
    i = np.mod(k, 8).astype(np.intp)
    ck, sk = _COS_EIGHTHS[i], _SIN_EIGHTHS[i]
    return ck * cd - sk * sd, sk * cd + ck * sd


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
    # Scaled: a plain norm squares components below ~1e-154 to zero and
    # would call a rotation of 2e-200 rad the identity.
    s = _vector_norm(vec)
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
    _broadcast(("a", a, 1), ("b", b, 1))
    d = np.einsum("...i,...i->...", a, b)
    b = np.where(d[..., None] < 0, -b, b)
    # The relative rotation r = conj(a) (b - a) + |a|^2: its vector part comes
    # from the exact difference b - a, so tiny angles keep their relative
    # accuracy even when |a| and |b| differ by a few ulp.
    r = multiply(conjugate(a), b - a)
    return 2.0 * np.arctan2(_vector_norm(r[..., 1:]), np.abs(d))


def canonical(q) -> np.ndarray:
    """The one of ``q`` and ``-q`` with w > 0, normalized: a unique key per rotation.

    Tie rule (``docs/rotations.md``, "Canonical form"): when ``w == 0`` (a
    half turn) the first non-zero of x, y, z is made positive, so every
    rotation has exactly one canonical quaternion; scipy's
    ``as_quat(canonical=True)`` uses the same rule. Signed zeros come out as
    ``+0.0``. The test is exact, not within a tolerance: a ``w`` of 1e-17
    keeps its sign, so rotations that differ by a rounding error may still get
    opposite signs near a half turn (compare them with :func:`angle_between`).

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Quaternion(s) (w, x, y, z); non-zero and finite.

    Returns
    -------
    ndarray, shape (..., 4)
        Unit quaternion(s), w >= 0.

    Examples
    --------
    >>> canonical([-0.5, 0.5, -0.5, 0.5])
    array([ 0.5, -0.5,  0.5, -0.5])
    >>> canonical([0.0, 0.0, -1.0, 0.0])    # w == 0: the first non-zero, y, made positive
    array([0., 0., 1., 0.])
    >>> canonical([[-2.0, 0.0, 0.0, 0.0], [-0.0, -0.0, 0.0, 3.0]])
    array([[1., 0., 0., 0.],
           [0., 0., 0., 1.]])
    """
    q = as_quaternion(q, "q")
    # The sign of the first non-zero component, w first: w decides unless it is 0.
    nonzero = q != 0.0
    first = np.argmax(nonzero, axis=-1)[..., None]
    lead = np.take_along_axis(q, first, axis=-1)
    return np.where(lead < 0, -q, q) + 0.0


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
    # |v| and the axis through the largest component: squares of components
    # below ~1e-154 are subnormal and lose digits, which would bend the axis
    # (and, near q = -1, the angle pi) by up to 1e-11; and phi / |v| itself
    # would overflow for a vector part near the smallest doubles.
    big = np.max(np.abs(v), axis=-1)
    unit = np.where(big > 0, big, 1.0)
    scaled = v / unit[..., None]
    scaled_norm = np.linalg.norm(scaled, axis=-1)
    vn = unit * scaled_norm
    phi = np.arctan2(vn, q[..., 0])
    axis = scaled / np.where(scaled_norm > 0, scaled_norm, 1.0)[..., None]
    vec = np.where((vn > 0)[..., None], phi[..., None] * axis, v / n[..., None])
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


# --------------------------------------------------------------------------- moved names

# Defined in their own modules now; app/ and rendering/ still import them from
# here. Resolved lazily (PEP 562) because those modules import this one.
_MOVED = {
    "to_matrix": "matrix",
    "from_matrix": "matrix",
    "orthonormalize": "matrix",
    "from_euler": "euler",
    "to_euler": "euler",
    "EULER_ORDERS": "euler",
}


def __getattr__(name: str):
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"quatlab.math.{module}"), name)
