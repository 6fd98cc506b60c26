"""The great-circle frame of two unit quaternions, accurate up to the antipode.

Quaternions are (w, x, y, z) arrays of shape ``(..., 4)`` (``docs/conventions.md``).
:func:`arc_frame` gives the 4D angle between two unit quaternions and the unit
direction along the great circle from the first to the second; SLERP
(:mod:`quatlab.math.interpolate`), the path and speed curves
(:mod:`quatlab.math.curves`), the tracks (:mod:`quatlab.math.track`) and the
S3 views (:mod:`quatlab.math.s3`) are all written in that frame. Keeping it
accurate where ``acos(dot)`` and ``1 / sin(omega)`` lose their digits (dot
near +1 or -1, ``docs/interpolation.md``, "SLERP accuracy") takes an exact
projection (:func:`_exact_perp`, with Dekker's exact product), which lives
here with it.

Examples
--------
>>> import numpy as np
>>> c = np.sqrt(0.5)
>>> omega, u = arc_frame(np.array([1.0, 0, 0, 0]), np.array([c, 0, 0, c]))
>>> round(float(np.degrees(omega)), 12), u + 0.0
(45.0, array([0., 0., 0., 1.]))
"""

from __future__ import annotations

import numpy as np

__all__ = ["arc_frame"]


def arc_frame(a: np.ndarray, b: np.ndarray):
    """Great-circle frame of unit (w, x, y, z) quaternions ``a`` -> ``b``.

    Returns ``(omega, u)``: the 4D angle between them in [0, pi] and the unit
    4-vector ``u`` orthogonal to ``a`` with ``b = cos(omega) a + sin(omega) u``.
    Where ``b = ±a`` exactly, ``u`` is zero.

    ``b - d a`` is formed from ``b - a`` (when d >= 0) or ``b + a`` (when
    d < 0): for nearly parallel or nearly antipodal inputs that difference is
    exact in floating point (Sterbenz), so ``u`` and ``omega`` keep full
    precision where ``acos(d)`` and ``1 / sin(omega)`` would lose it.
    Where that difference lies almost along ``a`` (``|a|`` and ``|b|``
    differing by more than their angle, or its supplement: both ~1e-16), the
    projection is redone exactly (:func:`_exact_perp`), so ``u`` stays
    orthogonal to ``a`` to ~1e-16 even with ``sin(omega)`` ~ 1e-22.
    No validation: callers pass normalized arrays.

    Examples
    --------
    >>> omega, u = arc_frame(np.array([1.0, 0, 0, 0]), np.array([0.0, 1, 0, 0]))
    >>> float(omega) == np.pi / 2, u
    (True, array([0., 1., 0., 0.]))
    """
    d = np.einsum("...i,...i->...", a, b)
    s = np.where((d < 0)[..., None], b + a, b - a)
    # Divide by |a|^2 rather than assume 1: a normalized in floating point is
    # off by ~1e-16, and near the antipode that error, unscaled, would tilt
    # u by 1e-16 / sin(omega).
    proj = np.einsum("...i,...i->...", s, a) / np.einsum("...i,...i->...", a, a)
    perp = s - proj[..., None] * a
    sin = np.sqrt(np.einsum("...i,...i->...", perp, perp))
    rows = _inexact_rows(sin, proj)
    if rows is not None:
        # s nearly parallel to a: redo those rows exactly (see _exact_perp).
        # perp is a fresh array, so the reshape is a view and writes through.
        flat = perp.reshape(-1, 4)
        s_rows = s.reshape(-1, 4)[rows]
        a_rows = np.broadcast_to(a, s.shape).reshape(-1, 4)[rows]
        flat[rows] = _exact_perp(s_rows.T, a_rows.T).T
        sin = np.sqrt(np.einsum("...i,...i->...", perp, perp))
    omega = np.arctan2(sin, d)
    u = perp / np.where(sin > 0, sin, 1.0)[..., None]
    return omega, u


# arc_frame's perp = s - proj a keeps its relative accuracy only while s is
# not nearly parallel to a: the rounding of proj and of proj a, ~1e-16 of
# |proj|, stays in perp along a and tilts u towards a by ~1e-16 |proj| /
# |perp|. Naive SLERP across a near antipode carries that tilt into the
# result (times sin(t omega) ~ 1): 1.0e-10 rad for dot + 1 = 1.4e-16 and
# |perp| = 4.8e-22 with |proj| = 1.4e-16. (Shortest SLERP multiplies it by
# sin(t omega) <= |perp| instead, which hides it, but u itself is off.)
# For exactly unit a and b the angle between s and a is ~90 degrees when s
# is small, so |proj| exceeds |perp| only when the norms of a and b, each
# unit within _UNIT_TOL, differ by more than |s|: |s| < ~1e-15.
# Rows with |perp| < |proj| are recomputed by _exact_perp (the others keep
# a tilt of a few 1e-16); |perp| < _PERP_TINY is required too, a screen that
# drops none of them and lets one min() clear the usual batch, which has no
# such row.
_PERP_TINY = 1e-12

# Veltkamp's splitting constant 2^27 + 1 for Dekker's exact product (numpy
# has no fma): x * _SPLIT - (x * _SPLIT - x) is x rounded to 26 bits.
_SPLIT = 134217729.0


def _inexact_rows(sin: np.ndarray, proj: np.ndarray) -> np.ndarray | None:
    """Flat indices of the rows whose perp needs :func:`_exact_perp`, or None.

    ``sin`` is ``|perp|``, ``proj`` the coefficient of ``a`` in ``s`` (any
    matching shapes, scalars included). The test is
    ``sin < min(|proj|, _PERP_TINY)``; one ``min`` over ``sin`` settles the
    usual batch, which has no such row.
    """
    sin = np.asarray(sin)
    if sin.size == 0 or sin.min() >= _PERP_TINY:
        return None
    limit = np.minimum(np.abs(proj), _PERP_TINY)
    rows = np.flatnonzero(sin < limit)
    return rows if rows.size else None


def _two_product(x: np.ndarray, y: np.ndarray):
    """``p, e`` with ``p = fl(x y)`` and ``p + e = x y`` exactly (Dekker, Veltkamp split).

    Exact barring overflow of ``x * _SPLIT`` and underflow (|x y| < ~1e-292):
    here ``|x|, |y| <= ~2``, and an underflowing product is far below any
    perp that matters.
    """
    p = x * y
    cx = _SPLIT * x
    xh = cx - (cx - x)
    xl = x - xh
    cy = _SPLIT * y
    yh = cy - (cy - y)
    yl = y - yh
    return p, xl * yl - (((p - xh * yh) - xl * yh) - xh * yl)


def _exact_perp(s: np.ndarray, a: np.ndarray) -> np.ndarray:
    """``s - (s.a / a.a) a`` for (4, k) component rows, accurate even when s is nearly along a.

    Two projections (reorthogonalization): the first removes ``c a`` with
    ``c = fl(s.a / a.a)`` exactly (``c a`` as an unevaluated sum ``h + l``
    from :func:`_two_product`; ``s - h`` is exact by Sterbenz wherever ``h``
    cancels ``s``), leaving the true perp plus ``(c_exact - c) a``, about
    ``1e-16 |s| a``; the second removes that remainder in plain arithmetic,
    whose rounding is ~1e-16 of the (now small) result. The residual along a
    is ~1e-16 (|perp| + 1e-16 |s|), so u keeps ~1e-16 relative accuracy
    unless |perp| < ~1e-20 |s|.

    A compensated (Ogita-Rump-Oishi Dot2) ``s.a`` would not help: c is
    rounded to a double either way, and the plain dot of nearly parallel
    vectors has no cancellation (measured on 10^4 near-antipodal mixed-scale
    pairs: results within 1 ulp, the same worst error). The exact product
    does: without it the worst of those pairs is 2.3e-14 rad, not 1.0e-15.

    Examples
    --------
    One row (shape (4, 1)) whose s is 2^-52 a plus a part 2^-100 across it:

    >>> a = np.array([[1.0], [2.0**-30], [0.0], [0.0]])
    >>> s = 2.0**-52 * a + np.array([[0.0], [2.0**-100], [0.0], [0.0]])
    >>> naive = s - (s[:, 0] @ a[:, 0]) / (a[:, 0] @ a[:, 0]) * a
    >>> p = _exact_perp(s, a)
    >>> cos = lambda v: abs(float(np.sum(v * a))) / float(np.sqrt(np.sum(v * v)))
    >>> f"{cos(naive):.1e}", cos(p) < 1e-20   # cosine of the angle to a
    ('9.3e-10', True)
    """
    scratch = np.empty_like(s)
    aa = _dot4(a, a, scratch)
    c = _dot4(s, a, scratch) / aa
    h, lo = _two_product(c, a)
    perp = (s - h) - lo
    perp -= (_dot4(perp, a, scratch) / aa) * a
    return perp


def _dot4(p: np.ndarray, q: np.ndarray, scratch: np.ndarray) -> np.ndarray:
    """Dot products of (4, m) component rows, as a new (m,) array.

    Summed as (w + y) + (x + z), the order of ``np.einsum("...i,...i->...")``
    over a length-4 axis, so the one-pass SLERP of :mod:`quatlab.math.interpolate`
    stays bit-identical to its plain reference path (including the unit-norm
    test at as_quaternion's _UNIT_TOL).
    """
    np.multiply(p, q, out=scratch)
    scratch[0] += scratch[2]
    scratch[1] += scratch[3]
    return scratch[0] + scratch[1]
