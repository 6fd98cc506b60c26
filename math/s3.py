"""Geometry of the unit 3-sphere S3 for the "why -q is the long way" views.

Every path of the lesson (naive or shortest, NLERP or SLERP, from ``q0`` to
``q1``) lies in the 2D plane that ``q0`` and ``q1`` span inside R4: NLERP walks
the chord from ``q0`` to ``q1`` (or ``-q1``) and normalizes it back onto the
circle, SLERP walks the arc. This module gives

* the **great-circle view** (2D, exact): an orthonormal basis of that plane
  (:func:`plane_basis`), coordinates in it (:func:`to_plane`,
  :func:`from_plane`, :func:`path_in_plane`), the unit circle
  (:func:`circle_points`), the NLERP chord (:func:`chord`) and its radial
  projection onto the circle (:func:`project_to_circle`), and the angle
  between ``q0`` and ``q1`` in the plane (:func:`plane_angle`);
* the **stereographic view** (3D): S3 projected from a pole onto R3, in
  :mod:`quatlab.math.stereographic` (:func:`stereographic`,
  :func:`inverse_stereographic`, :func:`hyperplane_basis`; still importable
  from here, where app/ and the view tests look for them).

Conventions are those of :mod:`quatlab.math.quaternion` (``docs/conventions.md``): quaternions are
arrays of shape ``(..., 4)`` in **(w, x, y, z)** order and every function
broadcasts over leading dimensions. Inputs of the plane and projection
functions are validated at the boundary; errors are :class:`ValueError`
(subclasses) whose message names the argument.

Gaps: a path may mark a collapse (the naive NLERP of q and -q at t = 0.5) by
a row that is entirely NaN. :func:`to_plane`, :func:`path_in_plane`,
:func:`project_to_circle`, :func:`stereographic` and
:func:`inverse_stereographic` keep such rows as NaN (a gap for the plot, e.g.
pyqtgraph's ``connect="finite"``) instead of raising; a row with only some
NaN components, or an infinite one, is still an error.

Examples
--------
The 20 degree turn stored as -q of ``docs/sources.md`` ("Sign flips"): its dot
with the identity is -0.9848077, so in 4D it lies 170 degrees away.

>>> import numpy as np
>>> from quatlab.math import quaternion as Q
>>> from quatlab.math import s3
>>> q0 = Q.IDENTITY
>>> q1 = -Q.from_axis_angle([0, 0, 1], np.radians(20))   # stored as -q
>>> basis = s3.plane_basis(q0, q1)
>>> np.round(s3.to_plane(np.stack([q0, q1, -q1]), basis), 6) + 0.0
array([[ 1.      ,  0.      ],
       [-0.984808,  0.173648],
       [ 0.984808, -0.173648]])
>>> round(float(np.degrees(s3.plane_angle(q0, q1))), 9)   # q1 is 170 deg away in 4D
170.0

Why this module is a little over 500 lines: the great-circle view is one
geometry (plane basis, coordinates, chords, arcs, their projections) whose
functions share their validation; the stereographic view lives in
:mod:`.stereographic`.
"""

from __future__ import annotations

import importlib
from typing import NamedTuple

import numpy as np

from quatlab.math import quaternion as Q
from quatlab.math.great_circle import arc_frame
from quatlab.math.interpolate import COLLAPSE_EPS, as_parameter

__all__ = [
    "PLANE_TOLERANCE",
    "DegeneratePlaneError",
    "PathOffPlaneError",
    "PlaneBasis",
    "plane_basis",
    "plane_angle",
    "to_plane",
    "from_plane",
    "plane_residual",
    "path_in_plane",
    "circle_points",
    "chord",
    "project_to_circle",
]

#: ``q1`` counts as ``+q0`` or ``-q0`` (no plane) when the component of the
#: normalized ``q1`` orthogonal to ``q0`` is shorter than this, i.e. when the
#: sine of their 4D angle is below it. 1e-9 is a rotation of 2e-9 rad, far
#: below anything visible, yet far above the 1e-16 rounding of the
#: difference-based Gram-Schmidt, so a real small plane is never rejected.
PLANE_TOLERANCE = 1e-9

class DegeneratePlaneError(ValueError):
    """``q1 = +q0`` or ``q1 = -q0``: the two quaternions span a line, not a plane.

    The great-circle view has nothing to draw (every path stays at ``q0``, or
    naive NLERP runs through the origin); the caller shows a message instead.
    """


class PathOffPlaneError(ValueError):
    """A path handed to :func:`path_in_plane` does not lie in the plane of the basis."""


class PlaneBasis(NamedTuple):
    """Orthonormal basis ``(e1, e2)`` of the plane span(q0, q1) in R4, each ``(..., 4)``.

    ``e1`` is the normalized ``q0``; ``e2`` is orthogonal to it and points
    towards the stored ``q1``, so ``q1`` has plane coordinates
    ``(cos a, sin a)`` with ``a`` in (0, pi) (see :func:`plane_angle`).
    """

    e1: np.ndarray
    e2: np.ndarray


# --------------------------------------------------------------------------- validation


def _as_points(value, name: str, size: int = 4) -> np.ndarray:
    """Float64 array of shape ``(..., size)``; rows of all-NaN (gaps) are allowed."""
    try:
        arr = np.array(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric, got {value!r}") from exc
    if arr.ndim == 0 or arr.shape[-1] != size:
        what = "(w, x, y, z) order" if size == 4 else "coordinates"
        raise ValueError(f"{name} must have shape (..., {size}) in {what}, got shape {arr.shape}")
    finite = np.isfinite(arr)
    gap = np.all(np.isnan(arr), axis=-1)
    if not np.all(finite | gap[..., None]):
        raise ValueError(
            f"{name} contains infinite components or partly-NaN rows "
            "(only rows that are entirely NaN are accepted, as gaps)"
        )
    return arr


def _as_basis(basis) -> PlaneBasis:
    try:
        e1, e2 = basis
    except (TypeError, ValueError) as exc:
        raise ValueError(
            "basis must be an (e1, e2) pair such as plane_basis(q0, q1) returns"
        ) from exc
    e1 = _as_points(e1, "basis.e1")
    e2 = _as_points(e2, "basis.e2")
    if np.isnan(e1).any() or np.isnan(e2).any():
        raise ValueError("basis contains NaN components")
    return PlaneBasis(e1, e2)


def _as_tol(tol) -> float:
    try:
        value = float(tol)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"tol must be a number, got {tol!r}") from exc
    if not (0.0 <= value < 1.0):
        raise ValueError(f"tol must lie in [0, 1), got {tol!r}")
    return value


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.einsum("...i,...i->...", a, b)


def _frame(q0, q1):
    """Normalized, broadcast q0, q1, their dot, and arc_frame's (omega, u).

    :func:`quatlab.math.great_circle.arc_frame` forms ``q1 - dot q0`` from
    ``q1 - q0`` (dot >= 0) or ``q1 + q0`` (dot < 0), exact near dot = +-1
    where the textbook subtraction loses half the digits; ``u`` is ``e2``.
    """
    q0 = Q.as_quaternion(q0, "q0")
    q1 = Q.as_quaternion(q1, "q1")
    q0, q1 = np.broadcast_arrays(q0, q1)
    omega, u = arc_frame(q0, q1)
    return q0, q1, _dot(q0, q1), omega, u


# --------------------------------------------------------------------------- great circle


def plane_basis(q0, q1, *, tol: float = PLANE_TOLERANCE) -> PlaneBasis:
    """Orthonormal basis of the plane span(q0, q1) in R4, (w, x, y, z).

    Parameters
    ----------
    q0, q1 : array_like, shape (..., 4)
        Quaternions in (w, x, y, z) order; non-unit inputs are normalized.
        They broadcast against each other.
    tol : float, optional
        Degeneracy tolerance on the sine of the 4D angle between ``q0`` and
        ``q1`` (default :data:`PLANE_TOLERANCE` = 1e-9).

    Returns
    -------
    PlaneBasis
        ``(e1, e2)``, each of shape ``(..., 4)``: ``e1 = q0 / |q0|`` and
        ``e2`` the unit Gram-Schmidt direction of ``q1`` orthogonal to ``e1``
        (so ``q1`` has a positive ``e2`` coordinate). Computed from ``q1 - q0``
        when ``dot >= 0`` and ``q1 + q0`` when ``dot < 0``, which stays
        accurate near ``dot = +-1``.

    Raises
    ------
    DegeneratePlaneError
        If ``q1 = +q0`` or ``q1 = -q0`` within ``tol`` (a :class:`ValueError`).
    ValueError
        If ``q0`` or ``q1`` is zero-length, NaN, infinite or not ``(..., 4)``,
        or ``tol`` is not in [0, 1).

    Examples
    --------
    >>> import numpy as np
    >>> e1, e2 = plane_basis([1, 0, 0, 0], [0.6, 0, 0, 0.8])
    >>> e1, e2
    (array([1., 0., 0., 0.]), array([0., 0., 0., 1.]))
    >>> plane_basis([1, 0, 0, 0], [-2, 0, 0, 0])
    Traceback (most recent call last):
    ...
    quatlab.math.s3.DegeneratePlaneError: q1 = -q0 (within tol=1e-09): q0 and q1 span no plane ...
    """
    tol = _as_tol(tol)
    q0, _, d, omega, u = _frame(q0, q1)
    # sin(omega) is |q1 perp|: arc_frame's atan2 keeps omega accurate to
    # ~4e-16 absolute near 0 and pi, far below any sensible tol.
    bad = np.sin(omega) <= tol
    if np.any(bad):
        same = np.any(bad & (d >= 0))
        opposite = np.any(bad & (d < 0))
        if same and opposite:
            kind, detail = "q1 = +-q0", "some pairs are equal, others antipodal"
        elif opposite:
            kind, detail = "q1 = -q0", "the same rotation stored with opposite signs"
        else:
            kind, detail = "q1 = +q0", "no rotation between them"
        where = "" if bad.ndim == 0 else f" for {int(bad.sum())} of {bad.size} pairs"
        raise DegeneratePlaneError(
            f"{kind} (within tol={tol:g}){where}: q0 and q1 span no plane "
            f"({detail}), so there is no great circle to draw"
        )
    return PlaneBasis(q0.copy(), u)


def plane_angle(q0, q1, *, tol: float = PLANE_TOLERANCE) -> np.ndarray:
    """4D angle in (0, pi) from ``q0`` to the stored ``q1`` in their plane, radians.

    It is the angle of ``q1`` on the great circle of :func:`plane_basis`
    (``q0`` at angle 0) and equals ``acos(dot(q0, q1))`` for unit inputs, but
    is computed as ``atan2(|q1 perp|, dot)``, accurate near ``dot = +-1``.
    ``-q1`` sits at ``plane_angle - pi``. The rotation angle of naive SLERP is
    twice this value, that of shortest SLERP ``2 * min(a, pi - a)``.

    Parameters
    ----------
    q0, q1 : array_like, shape (..., 4)
        Quaternions in (w, x, y, z) order; non-unit inputs are normalized.
    tol : float, optional
        As in :func:`plane_basis`.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    DegeneratePlaneError
        If ``q1 = +-q0`` within ``tol``.

    Examples
    --------
    >>> import numpy as np
    >>> q20 = [np.cos(np.radians(10)), 0, 0, np.sin(np.radians(10))]   # 20 deg about Z
    >>> round(float(np.degrees(plane_angle([1, 0, 0, 0], q20))), 9)
    10.0
    >>> a = plane_angle([1, 0, 0, 0], [1, 0, 0, 1e-7])   # exact value: atan(1e-7)
    >>> acos = np.arccos(1 / np.sqrt(1 + 1e-14))          # the textbook formula
    >>> float(abs(a / np.arctan(1e-7) - 1)) < 1e-15, round(float(abs(acos / a - 1)), 3)
    (True, 0.012)
    """
    plane_basis(q0, q1, tol=tol)  # same validation and the same degeneracy message
    return _frame(q0, q1)[3]


def to_plane(q, basis) -> np.ndarray:
    """Coordinates ``(q . e1, q . e2)`` of 4D point(s) ``q`` in a plane basis.

    This is the orthogonal projection onto the plane; for points of the plane
    (every path of the lesson) it is exact. ``q`` is **not** normalized: chord
    points keep their length (they lie inside the unit circle).

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Points of R4 in (w, x, y, z) order; all-NaN rows (gaps) stay NaN.
    basis : PlaneBasis or (e1, e2)
        From :func:`plane_basis`; broadcasts against ``q``.

    Returns
    -------
    ndarray, shape (..., 2)

    Examples
    --------
    >>> b = plane_basis([1, 0, 0, 0], [0, 0, 0, 1])
    >>> to_plane([[0.6, 0, 0, 0.8], [np.nan] * 4], b)
    array([[0.6, 0.8],
           [nan, nan]])
    """
    q = _as_points(q, "q")
    e1, e2 = _as_basis(basis)
    return np.stack(np.broadcast_arrays(_dot(q, e1), _dot(q, e2)), axis=-1)


def from_plane(xy, basis) -> np.ndarray:
    """4D point(s) ``x e1 + y e2`` (w, x, y, z) from plane coordinates ``xy``.

    Parameters
    ----------
    xy : array_like, shape (..., 2)
        Plane coordinates; all-NaN rows (gaps) stay NaN.
    basis : PlaneBasis or (e1, e2)
        From :func:`plane_basis`.

    Returns
    -------
    ndarray, shape (..., 4)

    Examples
    --------
    >>> b = plane_basis([1, 0, 0, 0], [0, 0, 0, 1])
    >>> from_plane([0.6, 0.8], b)
    array([0.6, 0. , 0. , 0.8])
    """
    xy = _as_points(xy, "xy", size=2)
    e1, e2 = _as_basis(basis)
    return xy[..., :1] * e1 + xy[..., 1:] * e2


def plane_residual(q, basis) -> np.ndarray:
    """Distance of 4D point(s) ``q`` from the plane of ``basis``, shape ``(...)``.

    Examples
    --------
    >>> b = plane_basis([1, 0, 0, 0], [0, 0, 0, 1])
    >>> float(plane_residual([0.6, 0, 0.8, 0], b))
    0.8
    """
    q = _as_points(q, "q")
    r = q - from_plane(to_plane(q, basis), basis)
    return np.sqrt(_dot(r, r))


def path_in_plane(path, basis, *, atol: float = 1e-9) -> np.ndarray:
    """Plane coordinates of an already computed 4D path, checking that it lies in the plane.

    Use it for the (N, 4) quaternion paths of the interpolation methods (the
    SLERP arcs, the normalized NLERP points) and for :func:`chord`: they all
    lie in span(q0, q1), so the 2D view is exact. A path that leaves the plane
    (a bug, or the wrong basis) raises instead of being silently flattened.

    Parameters
    ----------
    path : array_like, shape (..., 4)
        Points in (w, x, y, z) order; all-NaN rows (collapse gaps) stay NaN.
    basis : PlaneBasis or (e1, e2)
        From :func:`plane_basis`.
    atol : float, optional
        Largest accepted distance from the plane (default 1e-9).

    Returns
    -------
    ndarray, shape (..., 2)

    Raises
    ------
    PathOffPlaneError
        If a point is farther than ``atol`` from the plane (a :class:`ValueError`).

    Examples
    --------
    >>> b = plane_basis([1, 0, 0, 0], [0, 0, 0, 1])
    >>> path_in_plane([[1, 0, 0, 0], [0, 0, 0, 1]], b)
    array([[1., 0.],
           [0., 1.]])
    >>> path_in_plane([[0, 1, 0, 0]], b)
    Traceback (most recent call last):
    ...
    quatlab.math.s3.PathOffPlaneError: path leaves the plane of the basis by up to 1 (atol=1e-09)
    """
    try:
        atol = float(atol)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"atol must be a number, got {atol!r}") from exc
    if not (atol >= 0.0 and np.isfinite(atol)):
        raise ValueError(f"atol must be finite and >= 0, got {atol!r}")
    xy = to_plane(path, basis)
    res = plane_residual(path, basis)
    worst = np.nanmax(res) if np.any(np.isfinite(res)) else 0.0
    if worst > atol:
        raise PathOffPlaneError(
            f"path leaves the plane of the basis by up to {worst:.3g} (atol={atol:g})"
        )
    return xy


def circle_points(n: int = 361) -> np.ndarray:
    """``n`` points of the unit circle, shape ``(n, 2)``, closed (last = first).

    Map them to R4 with :func:`from_plane` to get the great circle of S3.

    Examples
    --------
    >>> np.round(circle_points(5), 12) + 0.0
    array([[ 1.,  0.],
           [ 0.,  1.],
           [-1.,  0.],
           [ 0., -1.],
           [ 1.,  0.]])
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 3:
        raise ValueError(f"n must be an integer >= 3, got {n!r}")
    a = np.linspace(0.0, 2.0 * np.pi, int(n))
    pts = np.stack([np.cos(a), np.sin(a)], axis=-1)
    pts[-1] = pts[0]  # exactly closed, not closed up to rounding of 2 pi
    return pts


def chord(q0, q1, t, *, shortest: bool = True) -> np.ndarray:
    """The un-normalized NLERP blend ``(1 - t) q0 + t q1'``, (w, x, y, z).

    NLERP walks this straight chord of the 4D ball and normalizes it; its
    radial projection onto the circle (:func:`project_to_circle`, or just
    normalizing) is the NLERP point. ``q0`` and ``q1`` are normalized first;
    ``q1' = -q1`` when ``shortest`` and ``dot(q0, q1) < 0`` (only then: at
    ``dot == 0`` the sign is kept), else ``q1' = q1``.

    Parameters
    ----------
    q0, q1 : array_like, shape (..., 4)
        Quaternions in (w, x, y, z) order.
    t : array_like, shape (...)
        Parameters in [0, 1]; ``t[..., None]`` broadcasts against ``q0``.
    shortest : bool, keyword-only
        Flip ``q1`` into ``q0``'s hemisphere first (default True).

    Returns
    -------
    ndarray, shape (..., 4)
        Chord points: ``q0`` at ``t = 0``, ``q1'`` at ``t = 1``, shorter than 1
        in between.

    Raises
    ------
    ValueError
        Zero, NaN or infinite ``q0``/``q1``; ``t`` non-finite or outside [0, 1].

    Examples
    --------
    >>> q1 = [-np.cos(np.radians(10)), 0, 0, -np.sin(np.radians(10))]   # -(20 deg about Z)
    >>> np.round(chord([1, 0, 0, 0], q1, [0, 0.5, 1]), 6) + 0.0
    array([[1.      , 0.      , 0.      , 0.      ],
           [0.992404, 0.      , 0.      , 0.086824],
           [0.984808, 0.      , 0.      , 0.173648]])
    >>> np.round(chord([1, 0, 0, 0], q1, 0.5, shortest=False), 6) + 0.0
    array([ 0.007596,  0.      ,  0.      , -0.086824])
    """
    q0 = Q.as_quaternion(q0, "q0")
    q1 = Q.as_quaternion(q1, "q1")
    t = as_parameter(t)
    if shortest:
        q1 = np.where(_dot(q0, q1)[..., None] < 0.0, -q1, q1)
    tt = t[..., None]
    # q0 + t (q1' - q0) ends exactly at q0 for t = 0 but only to rounding at
    # t = 1; the symmetric form is exact at both ends.
    return (1.0 - tt) * q0 + tt * q1


def project_to_circle(xy) -> np.ndarray:
    """Radial projection of plane point(s) ``xy`` onto the unit circle, shape ``(..., 2)``.

    For chord points this gives the NLERP point. A point with squared length
    below :data:`~quatlab.math.interpolate.COLLAPSE_EPS` (1e-12: the naive
    NLERP collapse of q and -q) has no direction: it becomes NaN, a gap,
    never an invented value.

    Examples
    --------
    >>> project_to_circle([[3.0, 4.0], [0.0, 0.0]])
    array([[0.6, 0.8],
           [nan, nan]])
    """
    xy = _as_points(xy, "xy", size=2)
    n2 = _dot(xy, xy)
    ok = n2 >= COLLAPSE_EPS  # False for NaN gaps too
    safe = np.where(ok, np.sqrt(np.where(ok, n2, 1.0)), np.nan)
    return xy / safe[..., None]


# --------------------------------------------------------------------------- moved names

# The stereographic view lives in quatlab.math.stereographic; app/s3_view.py
# and the view tests use it through this module. Resolved lazily (PEP 562)
# because that module imports this one's input checks.
_MOVED = ("POLE_TOLERANCE", "DEFAULT_POLE", "hyperplane_basis", "stereographic",
          "inverse_stereographic")


def __getattr__(name: str):
    if name not in _MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module("quatlab.math.stereographic"), name)
