"""Rotation matrices <-> quaternions (w, x, y, z), and repairing matrices that drifted.

Conventions are those of :mod:`quatlab.math.quaternion` (see
``docs/conventions.md``): quaternions are (w, x, y, z) arrays of shape
``(..., 4)``; matrices are ``(..., 3, 3)`` and act on column vectors
(``v' = R v``), so ``to_matrix(q) @ v == rotate_vector(q, v)``.

:func:`from_matrix` accepts only rotations: a matrix that is not orthonormal
to within :data:`ORTHONORMAL_TOLERANCE`, or whose determinant is not
positive (a reflection, a singular or a zero matrix), raises
:class:`ValueError` instead of being silently turned into some rotation.
A matrix known to be only *near* a rotation (accumulated rounding, a scaled
rotation) is converted explicitly, with :func:`nearest_rotation` (the closest
rotation, by SVD) or :func:`orthonormalize` (Gram-Schmidt keeping one axis).

The app imports :func:`to_matrix` from :mod:`quatlab.math.quaternion`, which
still provides the names of this module that existed there.

Examples
--------
>>> import numpy as np
>>> from quatlab.math.quaternion import from_axis_angle
>>> r = to_matrix(from_axis_angle([0, 0, 1], np.pi / 2))
>>> np.round(from_matrix(r), 12) + 0.0
array([0.70710678, 0.        , 0.        , 0.70710678])
>>> from_matrix(np.diag([-1.0, 1.0, 1.0]))
Traceback (most recent call last):
...
ValueError: m must be a rotation matrix, but its determinant is -1 <= 0 (a reflection, \
or singular); nearest_rotation(m) gives the closest rotation when there is one
"""

from __future__ import annotations

import numpy as np

from quatlab.math.quaternion import _as_float_array, as_quaternion

__all__ = [
    "ORTHONORMAL_TOLERANCE",
    "to_matrix",
    "from_matrix",
    "nearest_rotation",
    "orthonormalize",
    "orthonormality_error",
]

#: Largest accepted ``||m^T m - I||`` (Frobenius) in :func:`from_matrix`.
#: A rotation rounded to float32 is off by a few 1e-7 (3 units of float32's
#: 6e-8 rounding per entry, doubled by the product), so float32 data from
#: files and GPUs passes; drift from thousands of products (1e-5 and more)
#: does not, and must be repaired on purpose.
ORTHONORMAL_TOLERANCE = 1e-6

# Singular-value gap below which the nearest rotation is not unique, relative
# to the largest singular value: a few hundred ulp above SVD rounding.
_UNIQUE_TOL = 1e-12


def _as_matrices(m, name: str) -> np.ndarray:
    """``m`` as a finite float64 array of shape ``(..., 3, 3)``, or ValueError naming it."""
    arr = _as_float_array(m, name)
    if arr.ndim < 2 or arr.shape[-2:] != (3, 3):
        raise ValueError(f"{name} must have shape (..., 3, 3), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite entries")
    return arr


def _where(mask: np.ndarray, name: str) -> str:
    """``name`` or ``name[i, j]``: the first matrix where ``mask`` holds, for messages."""
    if mask.ndim == 0:
        return name
    index = np.unravel_index(int(np.argmax(mask)), mask.shape)
    return f"{name}[{', '.join(str(int(i)) for i in index)}]"


def orthonormality_error(m) -> np.ndarray:
    """Frobenius norm of ``m^T m - I`` for matrix(es) ``m`` of shape ``(..., 3, 3)``.

    Zero for a rotation; grows as products accumulate rounding
    (:mod:`quatlab.math.integrate` plots it). Computed in float64 whatever the
    input dtype; NaN entries give NaN.

    Examples
    --------
    >>> float(orthonormality_error(np.eye(3)))
    0.0
    >>> round(float(orthonormality_error(np.diag([1.0, 1.0, 1.1]))), 12)
    0.21
    """
    m = _as_float_array(m, "m")
    if m.ndim < 2 or m.shape[-2:] != (3, 3):
        raise ValueError(f"m must have shape (..., 3, 3), got shape {m.shape}")
    gram = np.swapaxes(m, -1, -2) @ m
    return np.linalg.norm(gram - np.eye(3), axis=(-2, -1))


def to_matrix(q) -> np.ndarray:
    """Rotation matrix (``(..., 3, 3)``, acting on column vectors) of (w, x, y, z) q.

    The diagonal is written ``(w^2 + x^2 - y^2 - z^2) / |q|^2`` and so on, and
    the off-diagonal entries ``2 (x y - w z) / |q|^2`` and so on, rather than
    ``1 - 2 (y^2 + z^2)``: where two equal squares cancel the entry is exactly
    0 (not the 2.2e-16 that ``1 - 2 * 0.5000000000000001`` leaves), and the
    division by ``|q|^2`` makes the ±1 entries of axis-aligned quarter and half
    turns exactly ±1.

    Examples
    --------
    >>> c = np.sqrt(0.5)                                # 90 degrees about Z
    >>> to_matrix([c, 0, 0, c]) + 0.0
    array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]])
    """
    q = as_quaternion(q, "q")
    w, x, y, z = np.moveaxis(q, -1, 0)
    ww, xx, yy, zz = w * w, x * x, y * y, z * z
    # |q|^2 is 1 to a few ulp (as_quaternion); dividing by it, not assuming
    # 1, is what turns 2 c^2 / (c^2 + c^2) into exactly 1.
    n2 = ww + xx + yy + zz
    m = np.empty(q.shape[:-1] + (3, 3))
    m[..., 0, 0] = (ww + xx - yy - zz) / n2
    m[..., 0, 1] = 2 * (x * y - w * z) / n2
    m[..., 0, 2] = 2 * (x * z + w * y) / n2
    m[..., 1, 0] = 2 * (x * y + w * z) / n2
    m[..., 1, 1] = (ww - xx + yy - zz) / n2
    m[..., 1, 2] = 2 * (y * z - w * x) / n2
    m[..., 2, 0] = 2 * (x * z - w * y) / n2
    m[..., 2, 1] = 2 * (y * z + w * x) / n2
    m[..., 2, 2] = (ww - xx - yy + zz) / n2
    return m


def from_matrix(m) -> np.ndarray:
    """Unit quaternion (w, x, y, z) with w >= 0 of rotation matrix(es) ``m`` (``(..., 3, 3)``).

    Validation comes first, as in ``scipy.spatial.transform``: ``m`` must have
    shape ``(..., 3, 3)``, finite entries, a positive determinant and
    ``||m^T m - I|| <= ORTHONORMAL_TOLERANCE`` (1e-6, Frobenius norm).
    Anything else is not a rotation, and converting it would silently invent
    one (``diag(-1, 1, 1)`` used to come back as the identity, ``0.5 Rz(90°)``
    as 67.38°). For a matrix that is only near a rotation, convert
    ``nearest_rotation(m)`` or ``orthonormalize(m)`` instead.

    Uses Shepperd's method (the largest of w, x, y, z is computed from the
    trace, the others from off-diagonal sums), stable for every rotation.

    Raises
    ------
    ValueError
        For a wrong shape, a NaN or infinite entry, ``det(m) <= 0`` (a
        reflection, a singular or a zero matrix), or a matrix that is not
        orthonormal within the tolerance. The message names ``m`` (with the
        index of the first bad matrix of a stack) and the problem.

    Examples
    --------
    >>> np.round(from_matrix(np.diag([1.0, -1.0, -1.0])), 12) + 0.0
    array([0., 1., 0., 0.])
    >>> from_matrix(0.5 * np.eye(3))
    Traceback (most recent call last):
    ...
    ValueError: m is not orthonormal: ||m^T m - I|| = 1.3 exceeds 1e-06; nearest_rotation(m) \
or orthonormalize(m) gives a rotation near it
    """
    m = _as_matrices(m, "m")
    det = np.linalg.det(m)
    bad = ~(det > 0)
    if np.any(bad):
        where = _where(bad, "m")
        raise ValueError(
            f"{where} must be a rotation matrix, but its determinant is "
            f"{float(det[bad].flat[0]):.6g} <= 0 (a reflection, or singular); "
            "nearest_rotation(m) gives the closest rotation when there is one"
        )
    err = orthonormality_error(m)
    bad = err > ORTHONORMAL_TOLERANCE
    if np.any(bad):
        where = _where(bad, "m")
        raise ValueError(
            f"{where} is not orthonormal: ||m^T m - I|| = {float(err[bad].flat[0]):.2g} "
            f"exceeds {ORTHONORMAL_TOLERANCE:g}; nearest_rotation(m) or orthonormalize(m) "
            "gives a rotation near it"
        )
    return _shepperd(m)


def _shepperd(m: np.ndarray) -> np.ndarray:
    """Quaternion (w >= 0) of validated rotation matrices: Shepperd's method."""
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


def nearest_rotation(m) -> np.ndarray:
    """The rotation matrix closest to ``m`` (``(..., 3, 3)``) in the Frobenius norm.

    With the SVD ``m = U S V^T`` it is ``U diag(1, 1, d) V^T``, where
    ``d = det(U V^T)`` (±1) corrects a reflection into a rotation (the
    orthogonal Procrustes problem, as in the Kabsch algorithm). For a rotation
    scaled by ``s > 0`` it is the rotation itself; for a matrix drifted by
    rounding it is the rotation the matrix stands for. Unlike
    :func:`orthonormalize` no column is preferred.

    Raises
    ------
    ValueError
        For a wrong shape or a NaN or infinite entry, and where the nearest
        rotation is not unique: singular values ``s1 >= s2 >= s3`` with
        ``s2 + d s3 <= 1e-12 s1``, e.g. a zero or rank-1 matrix, or an exact
        reflection such as ``diag(-1, 1, 1)`` (every half turn about an axis
        in the mirror plane is equally near).

    Examples
    --------
    >>> from quatlab.math.quaternion import from_axis_angle
    >>> rz = to_matrix(from_axis_angle([0, 0, 1], np.pi / 2))
    >>> np.allclose(nearest_rotation(0.5 * rz), rz)
    True
    >>> nearest_rotation(np.diag([-0.1, 1.0, 1.0])) + 0.0   # det < 0: the short axis flips
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    >>> nearest_rotation(np.zeros((3, 3)))
    Traceback (most recent call last):
    ...
    ValueError: m has no unique nearest rotation: singular values [0. 0. 0.] with det(U V^T) = 1
    """
    m = _as_matrices(m, "m")
    u, s, vt = np.linalg.svd(m)
    d = np.sign(np.linalg.det(u) * np.linalg.det(vt))
    bad = ~(s[..., 1] + d * s[..., 2] > _UNIQUE_TOL * s[..., 0])
    if np.any(bad):
        first = np.unravel_index(int(np.argmax(bad)), bad.shape) if bad.ndim else ()
        raise ValueError(
            f"{_where(bad, 'm')} has no unique nearest rotation: singular values "
            f"{np.round(s[first], 12)} with det(U V^T) = {int(d[first])}"
        )
    # U diag(1, 1, d) V^T: scale the last column of U by d.
    u = u.copy()
    u[..., :, 2] *= d[..., None]
    return u @ vt


def orthonormalize(m, keep: int = 0) -> np.ndarray:
    """Re-orthonormalize rotation matrix(es) ``m`` (``(..., 3, 3)``) by Gram-Schmidt.

    Column ``keep`` (0, 1 or 2: the axis that matters most, e.g. the facing
    axis) keeps its direction; the next column (cyclically) loses its
    component along it; the third is their cross product, so the result is a
    right-handed rotation. Degenerate input (a zero or parallel pair of
    columns) raises :class:`ValueError` rather than inventing an axis. For
    the rotation nearest to ``m`` with no preferred axis, see
    :func:`nearest_rotation`.

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
