"""Interpolation between rotations: NLERP, SLERP and SQUAD, naive or shortest-arc.

All quaternions are (w, x, y, z) arrays of shape ``(..., 4)``; ``t`` broadcasts
against their leading dimensions. The contract (``docs/interpolation.md``, sections
"Validation", "Collapse" and "Shortest-arc rule"):

* inputs are validated at the boundary: zero, NaN or infinite quaternions, a
  last dimension other than 4, and ``t`` non-finite or outside [0, 1] raise a
  :class:`ValueError` whose message names the argument;
* non-unit inputs are normalized before the hemisphere test;
* ``shortest=True`` flips ``q1`` to ``-q1`` when ``dot(q0, q1) < 0`` and only
  then: at ``dot == 0`` the stored sign is kept, so every platform agrees;
* a normalized lerp whose squared length falls below 1e-12 raises
  :class:`InterpolationCollapseError` instead of returning noise;
* inputs are never mutated.

Examples
--------
The 20 degree turn stored as -q (``docs/sources.md``, "Sign flips"): the naive
blend turns 170 degrees at the midpoint, the shortest-arc one 10.

>>> import numpy as np
>>> from quatlab.math import quaternion as Q
>>> q20 = Q.from_axis_angle([0, 0, 1], np.radians(20))
>>> naive = nlerp(Q.IDENTITY, -q20, 0.5, shortest=False)
>>> short = nlerp(Q.IDENTITY, -q20, 0.5)
>>> round(float(np.degrees(Q.angle_between(Q.IDENTITY, naive))), 6)  # 360 - 170
170.0
>>> round(float(np.degrees(Q.angle_between(Q.IDENTITY, short))), 6)
10.0
"""

from __future__ import annotations

import numpy as np

from quatlab.math.great_circle import _dot4, _inexact_rows, arc_frame
from quatlab.math.quaternion import (
    _UNIT_TOL,
    _broadcast,
    as_quaternion,
    conjugate,
    exp,
    log,
    multiply,
)

__all__ = [
    "InterpolationCollapseError",
    "COLLAPSE_EPS",
    "as_parameter",
    "nlerp",
    "slerp",
    "squad",
    "intermediate",
    "arc_frame",  # defined in quatlab.math.great_circle; benchmarks use it from here
]

#: Squared length below which a normalized lerp is a collapse
#: (``docs/interpolation.md``, "Collapse").
COLLAPSE_EPS = 1e-12

# Largest finite float64: a squared norm above it has overflowed.
_FLOAT_MAX = float(np.finfo(np.float64).max)

# Rows per chunk in :func:`slerp`. Each chunk works on three (4, _CHUNK)
# float64 buffers (512 KiB each) plus a few rows, so it stays within L2 (and
# L3 at worst) while every step makes one pass; larger chunks spill to RAM,
# smaller ones pay numpy's per-call overhead (~40 ufunc calls per chunk) more
# often. Measured for 1,000,000 random pairs, shortest SLERP, CPU time (AMD
# EPYC, 1 MiB L2 per core; numpy-quaternion slerp_vectorized: 95 ms):
# chunk 2048: 70 ms, 4096: 60, 8192: 51, 16384: 48, 32768: 47, 65536: 50,
# one chunk of all 10^6 rows: 94. See benchmarks/bench_slerp.py --profile.
_CHUNK = 16384


class InterpolationCollapseError(ValueError):
    """The interpolated quaternion has no direction.

    Raised when the naive NLERP of q and -q reaches the zero quaternion (at
    t = 0.5), and when the naive SLERP of exact antipodes is asked for: every
    great circle through q and -q is a valid path, so none is *the* path.
    """


def as_parameter(t, name: str = "t") -> np.ndarray:
    """Validate the interpolation parameter: finite and within [0, 1].

    Examples
    --------
    >>> as_parameter(0.25)
    array(0.25)
    >>> as_parameter(1.5)
    Traceback (most recent call last):
    ...
    ValueError: t must lie in [0, 1], got 1.5
    """
    try:
        arr = np.asarray(t, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a number or an array of numbers, got {t!r}") from exc
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {t!r}")
    if np.any((arr < 0.0) | (arr > 1.0)):
        # .item(): a Python float, so the message reads 'got 1.5' under numpy 2 too.
        bad = arr[(arr < 0.0) | (arr > 1.0)].flat[0].item()
        raise ValueError(f"{name} must lie in [0, 1], got {bad!r}")
    return arr


def _prepare(q0, q1, t, shortest: bool):
    """Validate, normalize, broadcast and (optionally) align the hemisphere."""
    a = as_quaternion(q0, "q0")
    b = as_quaternion(q1, "q1")
    t = as_parameter(t)
    shape = _broadcast(("q0", a, 1), ("q1", b, 1), ("t", t, 0))
    a = np.broadcast_to(a, shape + (4,))
    b = np.broadcast_to(b, shape + (4,))
    t = np.broadcast_to(t, shape)
    if shortest:
        d = np.einsum("...i,...i->...", a, b)
        # Strictly below zero: at dot == 0 the stored sign is kept, so every
        # platform agrees (docs/interpolation.md, "Shortest-arc rule").
        b = np.where((d < 0)[..., None], -b, b)
    return a, b, t


def nlerp(q0, q1, t, *, shortest: bool = True) -> np.ndarray:
    """Normalized linear interpolation of (w, x, y, z) quaternions.

    ``normalize((1 - t) q0 + t q1)`` after normalizing both ends and, when
    ``shortest``, flipping ``q1`` if ``dot(q0, q1) < 0``. Cheap and exact at the
    ends, but its angular speed is not constant (it peaks mid-way).

    Raises
    ------
    ValueError
        For invalid ``q0``, ``q1`` or ``t`` (the message names which).
    InterpolationCollapseError
        When the blend has squared length below :data:`COLLAPSE_EPS`: the naive
        blend of q and -q at t = 0.5.

    Examples
    --------
    >>> nlerp([1, 0, 0, 0], [0, 0, 0, 1], 0.5)
    array([0.70710678, 0.        , 0.        , 0.70710678])
    >>> nlerp([1, 0, 0, 0], [-1, 0, 0, 0], 0.5, shortest=False)
    Traceback (most recent call last):
    ...
    quatlab.math.interpolate.InterpolationCollapseError: nlerp collapsed at t = 0.5: ...
    """
    a, b, t = _prepare(q0, q1, t, shortest)
    m, n2 = _lerp(a, b, t)
    collapsed = n2 < COLLAPSE_EPS
    if np.any(collapsed):
        t_bad = float(t[collapsed].flat[0])
        raise InterpolationCollapseError(
            f"nlerp collapsed at t = {t_bad:g}: (1 - t) q0 + t q1 has zero length "
            "(q1 = -q0 in the naive blend)"
        )
    return m / np.sqrt(n2)[..., None]


def _lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray):
    """Un-normalized blend and its squared length (no validation)."""
    m = a + t[..., None] * (b - a)
    return m, np.einsum("...i,...i->...", m, m)


def slerp(q0, q1, t, *, shortest: bool = True) -> np.ndarray:
    """Spherical linear interpolation of (w, x, y, z) quaternions.

    Walks the great circle from ``q0`` to ``q1`` (or ``-q1`` when ``shortest``
    and ``dot < 0``) at constant angular speed. Evaluated as
    ``cos(t w) q0 + sin(t w) u`` in the frame of :func:`arc_frame`, which has
    no ``1 / sin(w)`` and so needs no threshold fallback (no switch to NLERP
    above ``dot > 0.9995``): it stays within 1e-12 rad of the exact result for
    ``dot`` arbitrarily close to +1 or -1 (``docs/interpolation.md``, "SLERP
    accuracy").

    Raises
    ------
    ValueError
        For invalid ``q0``, ``q1`` or ``t`` (the message names which).
    InterpolationCollapseError
        For the naive SLERP of exact antipodes (``q1 = -q0``) at 0 < t < 1:
        every great circle joins them, so the path is not defined.

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> q = slerp(Q.IDENTITY, Q.from_axis_angle([0, 0, 1], np.pi / 2), 0.5)
    >>> np.round(Q.rotate_vector(q, [1, 0, 0]), 4) + 0.0   # docs/sources.md, "SLERP midpoint"
    array([0.7071, 0.7071, 0.    ])
    """
    out = _slerp_fast(q0, q1, t, shortest)
    if out is None:
        # Invalid input, an overflowing norm or the undefined antipode: the
        # reference path raises the documented error (or, for overflow,
        # computes what it always did).
        out = _slerp_reference(q0, q1, t, shortest)
    return out


def _slerp_reference(q0, q1, t, shortest: bool) -> np.ndarray:
    """:func:`slerp` written plainly: validate everything, then arc_frame per chunk.

    The specification the fast path reproduces bit for bit (same operations
    in the same order), and the path that raises every error, so messages
    and their precedence (q0, then q1, then t, then the antipode) are those
    of :func:`_prepare`.
    """
    a, b, t = _prepare(q0, q1, t, shortest)
    shape = a.shape
    a = a.reshape(-1, 4)
    b = b.reshape(-1, 4)
    t = t.reshape(-1)
    out = np.empty(a.shape)
    for start in range(0, a.shape[0], _CHUNK):
        sl = slice(start, start + _CHUNK)
        omega, u = arc_frame(a[sl], b[sl])
        undefined = (omega > 3.0) & ~np.any(u, axis=-1)
        tc = t[sl]
        if np.any(undefined & (tc > 0) & (tc < 1)):
            raise InterpolationCollapseError(
                "slerp undefined: q1 = -q0 exactly, so every great circle joins them "
                "(use shortest=True, or perturb the keys)"
            )
        angle = tc * omega
        # The exact antipode at t = 1 is q1 itself; cos(pi) a already gives it.
        out[sl] = np.cos(angle)[:, None] * a[sl] + np.sin(angle)[:, None] * u
    return out.reshape(shape)


def _slerp_fast(q0, q1, t, shortest: bool) -> np.ndarray | None:
    """:func:`slerp` for valid input in one pass, or None to defer to the reference.

    Validation, normalization, the hemisphere flip and arc_frame all happen
    per chunk, on data already in cache, instead of as separate passes over
    the whole arrays. Anything unusual (a conversion or shape error, a
    zero/NaN/inf quaternion, ``t`` outside [0, 1], an overflowing norm, the
    naive antipode) makes it return None, having returned nothing else, and
    :func:`_slerp_reference` then raises the exact error.
    """
    try:
        a = np.asarray(q0, dtype=np.float64)
        b = np.asarray(q1, dtype=np.float64)
        t = np.asarray(t, dtype=np.float64)
        if a.ndim == 0 or b.ndim == 0 or a.shape[-1] != 4 or b.shape[-1] != 4:
            return None
        shape = np.broadcast_shapes(a.shape[:-1], b.shape[:-1], t.shape)
    except Exception:  # whatever failed, the reference path fails the same way
        return None
    # Where an argument is broadcast (one quaternion against many) these stay
    # stride-0 views: reshape does not copy them.
    a = np.broadcast_to(a, shape + (4,)).reshape(-1, 4)
    b = np.broadcast_to(b, shape + (4,)).reshape(-1, 4)
    t = np.broadcast_to(t, shape).reshape(-1)
    n = a.shape[0]
    out = np.empty((n, 4))
    # Three (4, chunk) buffers reused by every chunk: a fresh array of this
    # size per operation costs page faults, about 3x an in-place operation.
    work = np.empty((3, 4, min(n, _CHUNK)))
    for start in range(0, n, _CHUNK):
        sl = slice(start, start + _CHUNK)
        if not _slerp_chunk(a[sl], b[sl], t[sl], out[sl], work, shortest):
            return None
    return out.reshape(shape + (4,))


# |q|^2 in [_UNIT_LO, _UNIT_HI] is exactly as_quaternion's |n2 - 1| <= _UNIT_TOL
# (n2 - 1 is exact there, and 1 -/+ 4 eps are floats).
_UNIT_LO = 1.0 - _UNIT_TOL
_UNIT_HI = 1.0 + _UNIT_TOL


def _slerp_chunk(a0, b0, t, out, work, shortest: bool) -> bool:
    """One chunk of :func:`_slerp_fast`: fill ``out`` and return True, or return False.

    ``a0``, ``b0`` are raw (m, 4) inputs and are only read; ``work`` is
    scratch of shape (3, 4, >= m).

    The same operations, in the same order, as :func:`_prepare`,
    :func:`arc_frame` and :func:`_slerp_reference`'s blend, so the results
    are identical; only the layout and the buffers differ. The rare rows
    that arc_frame recomputes exactly (:func:`_inexact_rows`) are handed to
    arc_frame itself.
    """
    m = a0.shape[0]
    a, b, w = work[:, :, :m]
    # Struct-of-arrays layout (4, m): every component a contiguous row, so
    # each step is one ufunc call over whole rows, not einsum or (m, 1)
    # broadcasting over a length-4 axis (several times slower in numpy).
    a[...] = a0.T
    b[...] = b0.T
    # A norm that overflows sends the chunk to the reference path, which
    # warns as it always did; no second warning from here.
    with np.errstate(over="ignore"):
        na = _dot4(a, a, w)
        nb = _dot4(b, b, w)
    lo_a, hi_a, lo_b, hi_b = na.min(), na.max(), nb.min(), nb.max()
    # as_quaternion's and as_parameter's tests, as bounds on the chunk: NaN
    # fails every comparison, inf (or a norm that overflowed) the upper
    # bound, a zero quaternion as_quaternion's lower one, 1e-300.
    if not (
        lo_a >= 1e-300
        and lo_b >= 1e-300
        and hi_a <= _FLOAT_MAX
        and hi_b <= _FLOAT_MAX
        and t.min() >= 0.0
        and t.max() <= 1.0
    ):
        return False
    # Normalize as as_quaternion does: rows already unit within _UNIT_TOL are
    # left as they are (x / 1.0 is x), the others divided by |q|. The bounds
    # just computed settle the common all-unit chunk without a pass.
    if not (lo_a >= _UNIT_LO and hi_a <= _UNIT_HI):
        a /= np.where(np.abs(na - 1.0) <= _UNIT_TOL, 1.0, np.sqrt(na))
        na = _dot4(a, a, w)
    if not (lo_b >= _UNIT_LO and hi_b <= _UNIT_HI):
        b /= np.where(np.abs(nb - 1.0) <= _UNIT_TOL, 1.0, np.sqrt(nb))
    d = _dot4(a, b, w)
    # arc_frame's s = b - a (d >= 0) or b + a (d < 0), exact by Sterbenz
    # near dot = +1 / -1. With shortest, b is flipped where d < 0 (only
    # there: d == 0 keeps its sign), which makes d >= 0, so s = sign b - a;
    # the flipped dot is exactly sign * d (each product just changes sign).
    # 1 - 2 (d < 0) is +1 or -1, as np.where would give, at half the cost.
    if shortest:
        sign = 1.0 - 2.0 * (d < 0)
        b *= sign
        b -= a
        d *= sign
    else:
        # b + (+1 or -1) a: the very sums of where(d < 0, b + a, b - a).
        np.multiply(a, 2.0 * (d < 0) - 1.0, out=w)
        b += w
    s = b  # b's buffer now holds s, then perp, then u
    proj = _dot4(s, a, w)
    proj /= na  # |a|^2, not 1: see arc_frame
    np.multiply(a, proj, out=w)
    s -= w
    perp = s
    sin = _dot4(perp, perp, w)
    np.sqrt(sin, out=sin)
    rows = _inexact_rows(sin, proj)
    omega = np.arctan2(sin, d)
    np.copyto(sin, 1.0, where=sin == 0)
    perp /= sin
    u = perp
    if rows is not None:
        # s nearly parallel to a (|s| ~ 1e-16; see _PERP_TINY), which random
        # input practically never has. s is overwritten by now, so arc_frame redoes these
        # rows from the normalized a and b, flipped as above: exactly what
        # _slerp_reference computes for them.
        b_rows = as_quaternion(b0[rows], "q1")
        if shortest:
            b_rows *= sign[rows, None]
        omega_rows, u_rows = arc_frame(a[:, rows].T.copy(), b_rows)
        omega[rows] = omega_rows
        u[:, rows] = u_rows.T
    # Naive only (shortest keeps omega <= pi/2): exact antipodes have u = 0,
    # and between them only t = 0 and t = 1 are defined. omega > 3 is rare,
    # so the test over u runs only in a chunk that has such a pair.
    if not shortest and np.any(omega > 3.0):
        undefined = (omega > 3.0) & ~np.any(u, axis=0)
        if np.any(undefined & (t > 0) & (t < 1)):
            return False
    angle = np.multiply(t, omega, out=omega)  # omega is not needed again
    a *= np.cos(angle)
    u *= np.sin(angle, out=angle)
    # Written straight into the (m, 4) output through its transposed view.
    np.add(a, u, out=out.T)
    return True


def intermediate(q_prev, q, q_next) -> np.ndarray:
    """Sign-aware SQUAD control point for key ``q`` between its neighbours (w, x, y, z).

    ``s = q exp(-(log(q^-1 q_next) + log(q^-1 q_prev)) / 4)`` (Shoemake), after
    moving ``q_prev`` and ``q_next`` into the hemisphere of ``q``: otherwise a
    key stored as -q makes the logarithm take the long way and the curve
    leaves the path by tens of degrees, as numpy-quaternion's sign-unaware
    ``squad`` does (``docs/sources.md``, "Sign-unaware SQUAD").

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> keys = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 30.0, 60.0]))
    >>> s = intermediate(keys[0], keys[1], keys[2])
    >>> np.allclose(s, keys[1])   # evenly spaced on one axis: s is the key itself
    True
    >>> np.allclose(intermediate(keys[0], keys[1], -keys[2]), s)
    True
    """
    qp = as_quaternion(q_prev, "q_prev")
    qc = as_quaternion(q, "q")
    qn = as_quaternion(q_next, "q_next")
    _broadcast(("q_prev", qp, 1), ("q", qc, 1), ("q_next", qn, 1))
    qp = np.where((np.einsum("...i,...i->...", qp, qc) < 0)[..., None], -qp, qp)
    qn = np.where((np.einsum("...i,...i->...", qn, qc) < 0)[..., None], -qn, qn)
    inv = conjugate(qc)
    tangent = log(multiply(inv, qn)) + log(multiply(inv, qp))
    return multiply(qc, exp(-0.25 * tangent))


def squad(q0, q1, s0, s1, t, *, shortest: bool = True) -> np.ndarray:
    """Spherical quadrangle interpolation between keys ``q0``, ``q1`` (w, x, y, z).

    ``slerp(slerp(q0, q1, t), slerp(s0, s1, t), 2 t (1 - t))`` with control
    points ``s0``, ``s1`` from :func:`intermediate`. With ``shortest`` the
    keys and control points are first moved into one hemisphere (``q1`` next
    to ``q0``, ``s0`` next to ``q0``, ``s1`` next to ``q1``); with
    ``shortest=False`` they are used as stored, which is what a sign-unaware
    runtime does.

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> a, b = Q.IDENTITY, Q.from_axis_angle([0, 0, 1], np.pi / 2)
    >>> np.allclose(squad(a, b, a, b, 0.5), slerp(a, b, 0.5))  # s = keys: SLERP
    True
    """
    a = as_quaternion(q0, "q0")
    b = as_quaternion(q1, "q1")
    c = as_quaternion(s0, "s0")
    d = as_quaternion(s1, "s1")
    t = as_parameter(t)
    _broadcast(("q0", a, 1), ("q1", b, 1), ("s0", c, 1), ("s1", d, 1), ("t", t, 0))
    if shortest:
        b = _align(b, a)
        c = _align(c, a)
        d = _align(d, b)
    outer = slerp(a, b, t, shortest=False)
    inner = slerp(c, d, t, shortest=False)
    return slerp(outer, inner, 2.0 * t * (1.0 - t), shortest=False)


def _align(q: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """``q`` moved into the hemisphere of ``ref`` (kept at dot == 0)."""
    return np.where((np.einsum("...i,...i->...", q, ref) < 0)[..., None], -q, q)
