"""Stereographic projection of S3 onto R3: the 3D view of the S3 lesson.

Quaternions are (w, x, y, z) arrays of shape ``(..., 4)`` (``docs/conventions.md``),
points of R3 ``(..., 3)``; every function broadcasts over leading dimensions.
As in :mod:`quatlab.math.s3` (the great-circle view, whose input checks this
module shares), a row that is entirely NaN is a gap in a path and stays NaN,
and a point at the pole maps to NaN rather than to infinity.

The app and its tests reach these names through :mod:`quatlab.math.s3`, which
still provides them.

Examples
--------
>>> import numpy as np
>>> y = stereographic([0.6, 0.8, 0.0, 0.0])     # (x, y, z) / (1 + w)
>>> np.round(y, 12) + 0.0
array([0.5, 0. , 0. ])
>>> np.round(inverse_stereographic(y), 12) + 0.0
array([0.6, 0.8, 0. , 0. ])
"""

from __future__ import annotations

import numpy as np

from quatlab.math import quaternion as Q
from quatlab.math.s3 import _as_points, _dot

__all__ = ["POLE_TOLERANCE", "DEFAULT_POLE", "hyperplane_basis", "stereographic",
           "inverse_stereographic", "shrink_far"]

#: Points closer than this (4D distance) to the projection pole are "at the
#: pole" and map to NaN. Their image would be farther than ~2e12 from the
#: origin, which no view can draw, and at the pole itself it is infinite.
POLE_TOLERANCE = 1e-12

#: Default stereographic pole: w = -1, i.e. (-1, 0, 0, 0), giving the classic
#: projection (x, y, z) / (1 + w).
DEFAULT_POLE = np.array([-1.0, 0.0, 0.0, 0.0])


def hyperplane_basis(pole=DEFAULT_POLE) -> np.ndarray:
    """Orthonormal basis of the 3D hyperplane orthogonal to ``pole``, shape ``(..., 3, 4)``.

    With ``a = -pole / |pole|`` (the point that projects to the origin) the
    rows are ``a ⊗ i, a ⊗ j, a ⊗ k`` (Hamilton product, (w, x, y, z)). Left
    multiplication by a unit quaternion is an isometry of R4, so they are
    orthonormal and orthogonal to ``a``; the coordinates of a vector ``y`` in
    this basis are ``vec(conj(a) ⊗ y)``. For the default pole (-1, 0, 0, 0)
    the basis is simply (i, j, k), i.e. the x, y, z axes.

    Examples
    --------
    >>> hyperplane_basis() + 0.0
    array([[0., 1., 0., 0.],
           [0., 0., 1., 0.],
           [0., 0., 0., 1.]])
    """
    a = -Q.as_quaternion(pole, "pole")
    units = np.eye(4)[1:]  # i, j, k
    return Q.multiply(a[..., None, :], units)


def stereographic(q, pole=DEFAULT_POLE) -> np.ndarray:
    """Stereographic projection of S3 from ``pole`` onto R3, shape ``(..., 3)``.

    A point ``q`` of S3 maps to where the line from the pole ``p`` through
    ``q`` meets the hyperplane through the origin orthogonal to ``p``:
    ``y = (q - (q . p) p) / (1 - q . p)``, written in the basis of
    :func:`hyperplane_basis`. With ``a = -p`` that is::

        stereographic(q, p) = vec(r) / (1 + w(r)),   r = conj(a) ⊗ q,

    the classic projection of ``r``. Hence

    * pole (-1, 0, 0, 0) (the default, "w = -1"): ``(x, y, z) / (1 + w)``;
    * pole ``-q0``: ``r`` is the rotation from ``q0`` to ``q`` (the design's
      ``conj(q0) ⊗ q(t)``). ``q0`` lands on the origin; a point lies along the
      axis of ``r`` at distance ``tan(theta / 4)``, ``theta`` its rotation
      angle in [0, 2 pi] as stored. The hemisphere ``dot(q, q0) > 0`` (the
      short way) is the open unit ball, the equator ``dot = 0`` the unit
      sphere, and the long way runs outside it towards the pole ``-q0`` at
      infinity.

    The map is conformal (angles are kept; lengths scale by
    ``1 / (1 - q . p)``) and takes circles of S3 to circles or lines.

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Quaternions in (w, x, y, z) order; non-unit inputs are normalized.
        All-NaN rows (gaps) stay NaN.
    pole : array_like, shape (..., 4), optional
        The projection centre, normalized; default :data:`DEFAULT_POLE`.
        Broadcasts against ``q``.

    Returns
    -------
    ndarray, shape (..., 3)
        Points at the pole (within :data:`POLE_TOLERANCE`) would map to
        infinity: they are returned as **NaN** (a gap in the curve), not inf.

    Raises
    ------
    ValueError
        Zero-length, infinite or partly-NaN ``q``; invalid ``pole``.

    Examples
    --------
    >>> np.round(stereographic([[1, 0, 0, 0], [0, 0, 0, 1], [0.6, 0.8, 0, 0]]), 12) + 0.0
    array([[0. , 0. , 0. ],
           [0. , 0. , 1. ],
           [0.5, 0. , 0. ]])
    >>> stereographic([-1, 0, 0, 0])          # the pole itself: a gap, not inf
    array([nan, nan, nan])
    >>> q0 = Q.from_axis_angle([0, 0, 1], 1.0)
    >>> np.round(stereographic(q0, pole=-q0), 12) + 0.0   # q0 at the origin
    array([0., 0., 0.])
    """
    q = _as_points(q, "q")
    gap = np.all(np.isnan(q), axis=-1)
    # Fill gaps with a harmless unit quaternion so validation and the product
    # accept them; their result is overwritten with NaN below.
    q = Q.as_quaternion(np.where(gap[..., None], Q.IDENTITY, q), "q")
    a = -Q.as_quaternion(pole, "pole")
    r = Q.multiply(Q.conjugate(a), q)
    # 1 + a.q computed as |a + q|^2 / 2 (equal for unit vectors): no
    # cancellation near the pole, where 1 + a.q -> 0.
    s = a + q
    s2 = _dot(s, s)
    at_pole = gap | (s2 < POLE_TOLERANCE**2)
    den = np.where(at_pole, 1.0, 0.5 * s2)
    return np.where(at_pole[..., None], np.nan, r[..., 1:] / den[..., None])


def inverse_stereographic(y, pole=DEFAULT_POLE) -> np.ndarray:
    """Point of S3 (w, x, y, z) whose :func:`stereographic` image is ``y``, shape ``(..., 4)``.

    ``q = a ⊗ ((1 - |y|^2, 2 y) / (1 + |y|^2))`` with ``a = -pole``; all-NaN
    rows (gaps, i.e. the pole) stay NaN.

    Examples
    --------
    >>> inverse_stereographic([0.5, 0, 0])
    array([0.6, 0.8, 0. , 0. ])
    """
    y = _as_points(y, "y", size=3)
    gap = np.all(np.isnan(y), axis=-1)
    y = np.where(gap[..., None], 0.0, y)
    a = -Q.as_quaternion(pole, "pole")
    n2 = _dot(y, y)
    r = np.concatenate([(1.0 - n2)[..., None], 2.0 * y], axis=-1) / (1.0 + n2)[..., None]
    q = Q.multiply(a, r)
    return np.where(gap[..., None], np.nan, q)


def shrink_far(y, inner: float = 2.0, band: float = 1.0) -> np.ndarray:
    """Points of R3 ``(..., 3)`` drawn nearer the origin beyond radius ``inner``, for a view.

    The stereographic image of S3 is unbounded: a point next to the pole maps
    arbitrarily far out, and a view framing it shows the unit ball as a dot.
    This keeps every point within ``inner`` exactly where it is and moves one
    at radius ``r > inner`` along its own ray to radius

        ``inner + band * (r - inner) / (r - inner + band)``,

    which is continuous with slope 1 at ``inner`` (paths bend smoothly, never
    kink), strictly increasing (order along a ray is kept) and below
    ``inner + band`` for every finite ``r``: the pole, at infinity, would lie on
    the sphere of that radius. Inside ``inner`` the picture is the conformal
    projection; outside it distances are no longer to scale (docs/curves.md).
    NaN rows (gaps) stay NaN.

    Examples
    --------
    >>> shrink_far([[0.5, 0, 0], [0, 3.0, 0], [0, 0, -11.0]])   # 2 + 1/2; 2 + 9/10
    array([[ 0.5,  0. ,  0. ],
           [ 0. ,  2.5,  0. ],
           [ 0. ,  0. , -2.9]])
    """
    y = np.asarray(y, dtype=np.float64)
    if y.shape[-1:] != (3,):
        raise ValueError(f"y must have shape (..., 3), got {y.shape}")
    if not (inner > 0 and band > 0):
        raise ValueError(f"inner and band must be positive, got {inner} and {band}")
    r = np.linalg.norm(y, axis=-1, keepdims=True)
    over = np.maximum(r - inner, 0.0)
    shrunk = inner + band * over / (over + band)
    with np.errstate(invalid="ignore", divide="ignore"):
        factor = np.where(r > inner, shrunk / np.where(r > 0, r, 1.0), 1.0)
    return y * factor
