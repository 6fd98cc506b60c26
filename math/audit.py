"""Keyframe audit and sign repair on numpy arrays: the math behind ``quatlab check`` and ``fix``.

A rotation track is an array of quaternions of shape ``(..., N, 4)`` in
**(w, x, y, z)** order (scalar first, as everywhere in :mod:`quatlab.math`;
convert glTF's (x, y, z, w) with :func:`quatlab.math.quaternion.from_xyzw`)
and, optionally, key times of shape ``(..., N)``. Every function here is
vectorized over keys *and* over any leading "track" dimensions, so a whole
rig can be audited in one call. Nothing here reads files or raises on bad
keys: bad keys are what the audit reports.

What is checked, and the tolerances:

* **zero** -- squared length below :data:`ZERO_NORM_SQ`: no rotation at all.
* **non_finite** -- a NaN or infinite component.
* **non_unit** -- ``abs(|q| - 1) > UNIT_TOLERANCE`` (0.00769, the glTF
  validator's threshold: slightly above the worst error of a unit quaternion
  quantized to normalized signed bytes, so honest quantization passes).
* **sign_flip** -- consecutive keys with ``dot(q_i, q_i+1) < -half_turn_tol``:
  stored in opposite hemispheres, so a runtime that blends components
  without a hemisphere check turns the long way.
* **half_turn** -- ``|dot| <= half_turn_tol`` (:data:`HALF_TURN_TOLERANCE`,
  1e-6, for unit keys): the keys are 180 degrees apart, both arcs are equally
  long and the direction of the turn hangs on the sign of a dot product that
  rounding can flip. A half turn is reported instead of a sign flip.
* **time_order** -- ``t_i+1 <= t_i`` (or a non-finite time): not strictly
  increasing.

Segments touching a zero or non-finite key get neither sign_flip nor
half_turn: their dot product means nothing.

Examples
--------
>>> import numpy as np
>>> from quatlab.math import audit

Identity, 90 degrees about Z, and the same 90 degrees stored as -q:

>>> c = np.sqrt(0.5)
>>> q = np.array([[1.0, 0, 0, 0], [c, 0, 0, c], [-c, 0, 0, -c]])   # (w, x, y, z)
>>> report = audit.audit_keys(q)
>>> report.sign_flip, report.half_turn
(array([False,  True]), array([False, False]))
>>> fixed, flipped = audit.sign_continuity(q)
>>> flipped
array([False, False,  True])
>>> bool(np.all(fixed[2] == q[1]))
True
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from quatlab.math import quaternion as Q

__all__ = [
    "UNIT_TOLERANCE",
    "HALF_TURN_TOLERANCE",
    "ZERO_NORM_SQ",
    "KeyAudit",
    "audit_keys",
    "time_order",
    "sign_continuity",
    "normalize_keys",
]

#: Largest accepted ``abs(|q| - 1)`` of a key. The glTF validator's value for
#: unit quaternions: just above the worst length error that quantizing a unit
#: quaternion to normalized signed bytes (steps of 1/127) can cause.
UNIT_TOLERANCE = 0.00769

#: Largest ``|dot|`` of two unit keys that counts as a half turn. A float32
#: component carries a rounding error near 6e-8, so a dot this small can
#: change sign by storing the same rotation again; integer storage is coarser
#: and callers pass its step instead (see ``half_turn_tol``).
HALF_TURN_TOLERANCE = 1e-6

#: Squared lengths below this cannot be normalized (the same floor as
#: :func:`quatlab.math.quaternion.as_quaternion`): the key is "zero".
ZERO_NORM_SQ = 1e-300


class KeyAudit(NamedTuple):
    """Per-key and per-segment audit of quaternion keys ``(..., N, 4)``, (w, x, y, z).

    Key masks have shape ``(..., N)``; segment masks and ``dots`` have shape
    ``(..., N - 1)``, entry ``i`` describing keys ``i`` and ``i + 1``.
    """

    #: Length of each key, ``(..., N)`` (NaN or inf for non-finite keys).
    norms: np.ndarray
    #: Key has squared length below :data:`ZERO_NORM_SQ`.
    zero: np.ndarray
    #: Key has a NaN or infinite component.
    non_finite: np.ndarray
    #: Finite, non-zero key whose length is off 1 by more than the tolerance.
    non_unit: np.ndarray
    #: Dot product of the *normalized* neighbours, NaN where either is invalid.
    dots: np.ndarray
    #: Segment with ``dots < -half_turn_tol``: opposite hemispheres.
    sign_flip: np.ndarray
    #: Segment with ``|dots| <= half_turn_tol``: a 180 degree turn, direction ambiguous.
    half_turn: np.ndarray

    @property
    def valid(self) -> np.ndarray:
        """Keys that are finite and non-zero, ``(..., N)``: the ones that rotate."""
        return ~(self.zero | self.non_finite)


def _as_keys(values, name: str = "values") -> np.ndarray:
    """``values`` as a float64 array of shape ``(..., N, 4)``; no finiteness check."""
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim < 2 or arr.shape[-1] != 4:
        raise ValueError(
            f"{name} must have shape (..., N, 4) in (w, x, y, z) order, got shape {arr.shape}"
        )
    return arr


def _tolerance(value, name: str) -> float:
    tol = float(value)
    if not np.isfinite(tol) or tol < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return tol


#: Keys per block of the audit's inner loops. Each block's temporaries
#: (products of 4 components, 32 bytes a key: 1 MB) stay in the core's cache,
#: where a whole-array temporary of a million keys would go out to memory and
#: fault fresh pages in; a block is large enough that numpy's per-call cost
#: (about 1 us a call, some 20 calls a block) stays near 2 % of the work.
BLOCK = 32768


def _rowdot(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Row-wise dot products of ``(..., 4)`` arrays; NaN and inf pass through, silently.

    Not Q.dot: that one rejects NaN and infinity, which the audit must report
    rather than raise on. Every dot of the audit comes from here, so the fast
    and the general path of :func:`audit_keys` agree to the last bit.
    """
    if not (a.shape == b.shape and a.flags.c_contiguous and b.flags.c_contiguous):
        # Broadcast or strided input, in one go, summed in the blocks' order.
        with np.errstate(over="ignore", invalid="ignore"):
            products = a * b
            return np.add(products[..., 0] + products[..., 1],
                          products[..., 2] + products[..., 3], out=out)
    if out is not None and not out.flags.c_contiguous:
        out[...] = _rowdot(a, b)  # the blocks write through a flat view of their output
        return out
    flat_a, flat_b = a.reshape(-1, 4), b.reshape(-1, 4)
    result = np.empty(a.shape[:-1]) if out is None else out
    flat_out = result.reshape(-1)
    scratch = _Scratch(min(BLOCK, len(flat_a)))
    with np.errstate(over="ignore", invalid="ignore"):
        for start in range(0, len(flat_a), BLOCK):
            stop = min(start + BLOCK, len(flat_a))
            scratch.dot(flat_a[start:stop], flat_b[start:stop], flat_out[start:stop])
    return result


class _Scratch:
    """Cache-sized temporaries for one block of keys, reused by every block."""

    def __init__(self, size: int):
        # One row more than a block: a block's keys and the key after it.
        self.products = np.empty((size + 1, 4))
        self.halves = np.empty((size + 1, 2))
        self.norms = np.empty(size + 1)
        self.segments = np.empty(size)

    def dot(self, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> np.ndarray:
        """Row dots of ``(k, 4)`` blocks into ``out`` ``(k,)``: (a0 b0 + a1 b1) + (a2 b2 + a3 b3).

        Three whole-block ufunc calls on cached data: about 0.6 times the time
        of ``np.einsum("ij,ij->i")``. The pairs are taken with steps of 2
        (columns 0, 2 and 1, 3): numpy's loop over ``[:, :2]`` and ``[:, 2:]``
        is four times slower.
        """
        k = len(a)
        products, halves = self.products[:k], self.halves[:k]
        np.multiply(a, b, out=products)
        np.add(products[:, 0::2], products[:, 1::2], out=halves)
        return np.add(halves[:, 0], halves[:, 1], out=out)


def _neighbour_dots(q: np.ndarray) -> np.ndarray:
    """``dot(q[..., i, :], q[..., i + 1, :])``, shape ``(..., N - 1)``; NaN and inf pass through."""
    return _padded_dots(q)[..., :-1]


def _padded_dots(q: np.ndarray) -> np.ndarray:
    """The neighbour dots in a contiguous ``(..., N)`` array whose last column is padding.

    Entry ``[..., i]`` is ``dot(q[..., i, :], q[..., i + 1, :])`` for ``i < N - 1``;
    the last column holds the dot across a track boundary, or 0, and means
    nothing. Work on a million keys is about three times faster on this
    contiguous array than on its ``[..., :-1]`` view (numpy then sees one
    flat loop instead of a row of short ones), so the audit computes on it
    and slices only its results.
    """
    out = np.empty(q.shape[:-1])
    if out.size == 0:  # no keys, or no tracks: (..., 0, 4) or (0, ..., N, 4)
        return out
    flat_out = out.reshape(-1)
    flat_out[-1] = 0.0
    if q.flags.c_contiguous:
        # The dots along the flattened keys in one contiguous loop; the
        # products across track boundaries land in the padding.
        flat = q.reshape(-1, 4)
        _rowdot(flat[:-1], flat[1:], out=flat_out[:-1])
    else:
        out[..., :-1] = _rowdot(q[..., :-1, :], q[..., 1:, :])
        out[..., -1] = 0.0
    return out


def _valid_and_scaled(q: np.ndarray):
    """Squared lengths, finite and valid masks, and keys safe to take dot products of.

    Returns ``(n2, finite, valid, safe, scale)`` with ``safe = q / scale``.
    Keys with finite components whose squares overflow (|q| ~ 1e200) are
    divided by their largest component, which keeps the sign of every dot
    product and, after normalization, its value. When there are none (the
    common case) ``safe`` is ``q`` itself and ``scale`` is None.
    """
    n2 = _rowdot(q, q)
    finite = np.isfinite(n2)
    safe, scale = q, None
    if not finite.all():
        # A non-finite squared length comes from a NaN or inf component or
        # from huge finite components overflowing; only the former makes a
        # key non_finite, so look at the components of just those keys.
        suspects = ~finite
        finite[suspects] = np.isfinite(q[suspects]).all(axis=-1)
        overflow = finite & suspects
        if overflow.any():
            scale = np.ones(q.shape[:-1])
            scale[overflow] = np.abs(q[overflow]).max(axis=-1)
            safe = q / scale[..., None]
    # NaN fails n2 >= ZERO_NORM_SQ, so with every key finite (the common
    # case) that comparison alone is the valid mask.
    valid = n2 >= ZERO_NORM_SQ
    if not finite.all():
        valid &= finite
    return n2, finite, valid, safe, scale


def _audit_valid_keys(q: np.ndarray, unit_tol: float, half_turn_tol: float) -> KeyAudit | None:
    """:func:`audit_keys` of contiguous keys that are all finite and non-zero, block by block.

    The common case (every key of a real file), in one pass over the keys:
    each block's squared lengths, norms, neighbour dots and flags are
    computed while the block is in the cache (see :data:`BLOCK`), and only
    the results are written out. Returns None as soon as a key is zero, not
    finite or too long to square (the general path in :func:`audit_keys`
    handles those); the arithmetic is the general path's, operation for
    operation, so both give the same bits.
    """
    flat = q.reshape(-1, 4)
    m = len(flat)
    norms = np.empty(m)
    non_unit = np.empty(m, dtype=bool)
    # Segment arrays are padded to (..., N), as in _padded_dots.
    dots = np.empty(m)
    sign_flip = np.empty(m, dtype=bool)
    half_turn = np.empty(m, dtype=bool)
    scratch = _Scratch(min(BLOCK, m))
    with np.errstate(over="ignore", invalid="ignore"):
        for start in range(0, m, BLOCK):
            stop = min(start + BLOCK, m)
            ahead = min(stop + 1, m)  # the block and the key after it
            keys = flat[start:ahead]
            n = scratch.dot(keys, keys, scratch.norms[: ahead - start])
            # NaN fails both tests; +inf is a non-finite key or an overflow.
            if not (n.min() >= ZERO_NORM_SQ and n.max() < np.inf):
                return None
            np.sqrt(n, out=n)
            norms[start:stop] = n[: stop - start]
            off = np.subtract(n[: stop - start], 1.0, out=scratch.segments[: stop - start])
            np.greater(np.abs(off, out=off), unit_tol, out=non_unit[start:stop])
            seg = slice(start, ahead - 1)
            d = scratch.dot(keys[:-1], keys[1:], dots[seg])
            d /= np.multiply(n[:-1], n[1:], out=scratch.segments[: len(d)])
            np.less(d, -half_turn_tol, out=sign_flip[seg])
            np.less_equal(np.abs(d, out=scratch.segments[: len(d)]), half_turn_tol,
                          out=half_turn[seg])
    dots[-1], sign_flip[-1], half_turn[-1] = 0.0, False, False
    shape = q.shape[:-1]
    zero = np.zeros(shape, dtype=bool)
    return KeyAudit(norms.reshape(shape), zero, np.zeros(shape, dtype=bool),
                    non_unit.reshape(shape), dots.reshape(shape)[..., :-1],
                    sign_flip.reshape(shape)[..., :-1], half_turn.reshape(shape)[..., :-1])


def audit_keys(
    values,
    *,
    unit_tol: float = UNIT_TOLERANCE,
    half_turn_tol: float = HALF_TURN_TOLERANCE,
) -> KeyAudit:
    """Classify every key and every segment of quaternion tracks ``(..., N, 4)``, (w, x, y, z).

    Parameters
    ----------
    values : array_like, shape (..., N, 4)
        Keys in (w, x, y, z) order; need not be unit, finite or non-zero.
    unit_tol : float
        Accepted ``abs(|q| - 1)``; default :data:`UNIT_TOLERANCE`.
    half_turn_tol : float
        Largest ``|dot|`` of normalized neighbours reported as a half turn;
        default :data:`HALF_TURN_TOLERANCE`. Pass the quantization step for
        integer-stored keys (1/127 for normalized signed bytes).

    Returns
    -------
    KeyAudit
        Masks and the normalized dot products.

    Raises
    ------
    ValueError
        If ``values`` does not have shape ``(..., N, 4)`` or a tolerance is
        negative or not finite.

    Examples
    --------
    >>> keys = [[1, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0], [np.nan, 0, 0, 1]]
    >>> r = audit_keys(keys)
    >>> r.zero
    array([False,  True, False, False])
    >>> r.non_finite
    array([False, False, False,  True])
    >>> r.non_unit
    array([False, False,  True, False])
    >>> r.dots      # every segment touches a zero or NaN key
    array([nan, nan, nan])

    The real glTF sample "AnimatedTriangle": its last segment, (x, y, z, w)
    (0, 0, .707, -.707) -> (0, 0, 0, 1), is a sign flip:

    >>> from quatlab.math.quaternion import from_xyzw
    >>> r = audit_keys(from_xyzw([[0, 0, 0.707, -0.707], [0, 0, 0, 1]]))
    >>> r.sign_flip, np.round(r.dots, 4)
    (array([ True]), array([-0.7071]))
    """
    q = _as_keys(values)
    unit_tol = _tolerance(unit_tol, "unit_tol")
    half_turn_tol = _tolerance(half_turn_tol, "half_turn_tol")

    if q.flags.c_contiguous and q.size:
        report = _audit_valid_keys(q, unit_tol, half_turn_tol)
        if report is not None:
            return report
    n2, finite, valid, safe, scale = _valid_and_scaled(q)
    all_valid = valid.all()
    zero = ~valid if all_valid else n2 < ZERO_NORM_SQ
    # This runs on every key of every track: one scratch array serves each
    # temporary in turn, and the square root is taken in place (fewer fresh
    # pages to fault in on a million keys).
    safe_norms = np.sqrt(n2, out=n2) if scale is None else np.sqrt(_rowdot(safe, safe))
    norms = safe_norms if scale is None else safe_norms * scale
    scratch = np.subtract(norms, 1.0)
    with np.errstate(invalid="ignore"):
        non_unit = np.abs(scratch, out=scratch) > unit_tol  # |norm - 1|
    if not all_valid:
        non_unit &= valid

    # Segment arrays are computed on padded (..., N) arrays that are
    # contiguous (see _padded_dots) and sliced to (..., N - 1) at the end.
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        dots = _padded_dots(safe)
        flat_dots, flat_norms = dots.reshape(-1), safe_norms.reshape(-1)
        if flat_dots.size:
            product = np.multiply(flat_norms[:-1], flat_norms[1:], out=scratch.reshape(-1)[:-1])
            flat_dots[:-1] /= product
    dots = dots[..., :-1]
    if not all_valid:
        dots[~(valid[..., :-1] & valid[..., 1:])] = np.nan
    # Comparisons with NaN are False, so invalid segments get neither flag.
    with np.errstate(invalid="ignore"):
        magnitude = np.abs(flat_dots, out=scratch.reshape(-1))
        half_turn = (magnitude <= half_turn_tol).reshape(norms.shape)[..., :-1]
        sign_flip = (flat_dots < -half_turn_tol).reshape(norms.shape)[..., :-1]
    return KeyAudit(norms, zero, ~finite, non_unit, dots, sign_flip, half_turn)


def time_order(times) -> np.ndarray:
    """Segments whose times are not strictly increasing, shape ``(..., N - 1)``.

    Entry ``i`` is true when ``times[..., i + 1] <= times[..., i]`` or either
    time is NaN or infinite.

    Examples
    --------
    >>> time_order([0.0, 0.5, 0.5, 0.25, np.nan])
    array([False,  True,  True,  True])
    """
    t = np.asarray(times, dtype=np.float64)
    if t.ndim < 1:
        raise ValueError(f"times must have shape (..., N), got shape {t.shape}")
    t0, t1 = t[..., :-1], t[..., 1:]
    with np.errstate(invalid="ignore"):
        bad = ~(t1 > t0)
    # A NaN already fails t1 > t0, but an infinite time can pass it (-inf, 0),
    # so finiteness per segment is tested only when some time is not finite:
    # one pass over the times instead of three over the segments.
    if not np.isfinite(t).all():
        bad |= ~(np.isfinite(t0) & np.isfinite(t1))
    return bad


def sign_continuity(values, *, audit: KeyAudit | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Move every key of ``(..., N, 4)`` tracks, (w, x, y, z), into its predecessor's hemisphere.

    Walking along the keys, a key is negated when its dot product with the
    previous valid key *as corrected so far* is negative, and only then (a
    dot of exactly 0 keeps the sign: there is no shorter arc to prefer). The
    correction is cumulative: once a key is negated, all later keys are
    compared with the negated one. This is computed without a loop over
    keys, as the running product of the signs of consecutive dot products
    (numpy, block by block: see :data:`BLOCK`).

    Each key keeps its rotation (``q`` and ``-q`` are the same rotation) and
    the first valid key is never changed. Zero and non-finite keys are left
    untouched and skipped: the next valid key is compared with the last
    valid key before them.

    Parameters
    ----------
    values : array_like, shape (..., N, 4)
        Keys in (w, x, y, z) order, any length.
    audit : KeyAudit, optional
        The result of :func:`audit_keys` for the same ``values``, to reuse its
        dot products instead of computing them again.

    Returns
    -------
    fixed : ndarray, shape (..., N, 4)
        A new array: ``values`` with some keys negated.
    flipped : ndarray of bool, shape (..., N)
        Which keys were negated.

    Examples
    --------
    Three keys about Z, the middle one stored as -q:

    >>> from quatlab.math.quaternion import from_axis_angle
    >>> q = from_axis_angle([0, 0, 1], np.radians([0.0, 40.0, 80.0]))
    >>> q[1] *= -1
    >>> fixed, flipped = sign_continuity(q)
    >>> flipped
    array([False,  True, False])
    >>> bool(np.all(np.einsum("ij,ij->i", fixed[:-1], fixed[1:]) >= 0))
    True
    """
    q = _as_keys(values)
    if audit is not None and audit.zero.shape != q.shape[:-1]:
        raise ValueError(f"audit is for shape {audit.zero.shape + (4,)}, values have {q.shape}")
    if q.shape[-2] == 0:
        return q.copy(), np.zeros(q.shape[:-1], dtype=bool)
    if audit is not None and not (audit.zero.any() or audit.non_finite.any()):
        valid = None  # every key
        # The audit's dots are those of the normalized keys: same signs. A
        # dot in [-half_turn_tol, 0) is a half turn, so with none of those
        # the negative dots are exactly the sign flips, already computed.
        negative = audit.dots < 0 if audit.half_turn.any() else audit.sign_flip
    else:
        _, _, valid, safe, _ = _valid_and_scaled(q)
        if valid.all():
            negative = _neighbour_dots(safe) < 0
        else:
            # Compare each valid key with the last valid key before it,
            # gathered through a running maximum of valid indices.
            idx = np.where(valid, np.arange(q.shape[-2]), -1)
            prev = np.maximum.accumulate(idx, axis=-1)[..., :-1]  # for keys 1..N-1
            partner = np.take_along_axis(safe, np.maximum(prev, 0)[..., None], axis=-2)
            with np.errstate(invalid="ignore"):
                dots = _rowdot(partner, safe[..., 1:, :])
            negative = (dots < 0) & (prev >= 0) & valid[..., 1:]
    tracks, n = math.prod(q.shape[:-2]), q.shape[-2]
    fixed, flipped = _apply_signs(
        q.reshape(tracks, n, 4), negative.reshape(tracks, n - 1),
        None if valid is None or valid.all() else valid.reshape(tracks, n))
    return fixed.reshape(q.shape), flipped.reshape(q.shape[:-1])


def _apply_signs(q: np.ndarray, negative: np.ndarray, valid: np.ndarray | None):
    """Keys ``(T, N, 4)`` with signs made continuous, and which were negated ``(T, N)``.

    Key i+1 has the opposite sign of key i where their dot is negative
    (``negative``, ``(T, N - 1)``). The running product of these relative
    signs gives each key's absolute sign; it is computed as the parity of a
    running count of negative dots, which is cheaper than a cumulative
    product of +-1.0. Keys where ``valid`` is false carry the running sign
    but stay as stored.

    The work goes in blocks of whole tracks, or of one long track's keys with
    the count carried over, so that the counts stay in the cache (see
    :data:`BLOCK`). Each key gathers a whole row of +1 or -1 and multiplies
    by it in place: ``q * sign[..., None]`` (numpy's inner loop over the
    length-4 axis, with a stride-0 operand) takes about twice as long.
    """
    tracks, n = q.shape[:2]
    fixed = np.empty_like(q)
    flipped = np.empty((tracks, n), dtype=bool)
    rows, cols = max(1, BLOCK // max(n, 1)), min(n, BLOCK)
    counts = np.empty((rows, cols), dtype=np.intp)
    for r0 in range(0, tracks, rows):
        r1 = min(r0 + rows, tracks)
        carry = np.zeros((r1 - r0, 1), dtype=np.intp)  # negative dots before the block
        for c0 in range(0, n, cols):
            c1 = min(c0 + cols, n)
            block = (slice(r0, r1), slice(c0, c1))
            parity = counts[: r1 - r0, : c1 - c0]
            parity[:, :1] = carry
            np.cumsum(negative[r0:r1, c0 : c1 - 1], axis=1, out=parity[:, 1:])
            if c0:
                parity[:, 1:] += carry
            if c1 < n:
                carry = parity[:, -1:] + negative[r0:r1, c1 - 1 : c1]
            parity &= 1
            if valid is not None:
                parity &= valid[block]
            # The parities are 0 or 1: "clip" skips the bounds check, and
            # with "raise" numpy would buffer the output.
            np.take(_SIGN_ROWS, parity, axis=0, out=fixed[block], mode="clip")
            fixed[block] *= q[block]
            flipped[block] = parity
    return fixed, flipped


# Row k is the factor for a key with sign parity k (see sign_continuity).
_SIGN_ROWS = np.array([[1.0, 1.0, 1.0, 1.0], [-1.0, -1.0, -1.0, -1.0]])


def normalize_keys(values) -> tuple[np.ndarray, np.ndarray]:
    """Scale the finite, non-zero keys of ``(..., N, 4)``, (w, x, y, z), to unit length.

    Zero and non-finite keys are returned unchanged: they carry no direction
    to keep, and inventing one would hide the problem.

    Returns
    -------
    fixed : ndarray, shape (..., N, 4)
        A new array.
    changed : ndarray of bool, shape (..., N)
        Keys whose length was not exactly 1.

    Examples
    --------
    >>> fixed, changed = normalize_keys([[2.0, 0, 0, 0], [0, 0, 0, 0], [0, 0.6, 0.8, 0]])
    >>> fixed
    array([[1. , 0. , 0. , 0. ],
           [0. , 0. , 0. , 0. ],
           [0. , 0.6, 0.8, 0. ]])
    >>> changed
    array([ True, False, False])
    """
    q = _as_keys(values)
    norms = Q.norm(q)
    valid = np.isfinite(q).all(axis=-1) & (norms * norms >= ZERO_NORM_SQ)
    changed = valid & (norms != 1.0)
    scale = np.where(changed, norms, 1.0)
    return q / scale[..., None], changed
