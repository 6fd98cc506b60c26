"""A track's keys made ready to interpolate: checked, sign-continuous, and SQUAD's control points.

The sign modes and tangent rules are those of :mod:`quatlab.math.track`
(its module documentation says what each does); :func:`align_keys` and
:func:`control_points` are the steps of its pipeline that work on the keys
alone.
"""

from __future__ import annotations

import numpy as np

from quatlab.math import interpolate
from quatlab.math.quaternion import as_quaternion, conjugate, exp, log, multiply

__all__ = [
    "TANGENTS",
    "SIGN_MODES",
    "align_keys",
    "intermediate_unaware",
    "control_points",
]

#: Tangent rules for the SQUAD control points.
TANGENTS = ("uniform", "time_scaled")

#: Sign handling of :func:`quatlab.math.track.evaluate` (see that module's documentation).
SIGN_MODES = ("aware", "unaware_controls", "stored")


# --------------------------------------------------------------------------- validation


def _as_track(times, keys):
    try:
        tk = np.asarray(times, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"times must be numeric, got {times!r}") from exc
    if tk.ndim != 1 or tk.shape[0] < 2:
        raise ValueError(f"times must have shape (K,) with K >= 2, got shape {tk.shape}")
    if not np.all(np.isfinite(tk)):
        raise ValueError("times must be finite")
    if np.any(np.diff(tk) <= 0):
        raise ValueError("times must be strictly increasing")
    q = as_quaternion(keys, "keys")
    if q.shape != (tk.shape[0], 4):
        raise ValueError(f"keys must have shape ({tk.shape[0]}, 4) to match times, got {q.shape}")
    return tk, q


def _as_choice(value, name, choices):
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


# --------------------------------------------------------------------------- keys


def align_keys(keys) -> np.ndarray:
    """Sign-continuous copy of ``keys`` ``(K, 4)`` (w, x, y, z).

    Each key is moved into the hemisphere of the one before it.

    Key 0 keeps its sign; key i is negated when its dot product with the
    (already fixed) key i-1 is negative, and kept at exactly zero.

    Examples
    --------
    >>> (align_keys([[1, 0, 0, 0], [-1, 0, 0, 0], [0, 0, 0, 1]]) + 0.0).tolist()
    [[1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
    """
    q = as_quaternion(keys, "keys")
    if q.ndim != 2:
        raise ValueError(f"keys must have shape (K, 4), got shape {q.shape}")
    # Key i's sign relative to the stored one flips with every negative dot
    # along the way, and an exact zero dot (the stored sign kept) starts the
    # count again: the sequential rule, as a running count.
    d = _rowdot(q[:-1], q[1:])
    k = q.shape[0]
    count = np.zeros(k, dtype=np.intp)
    np.cumsum(d < 0, out=count[1:])
    restart = np.zeros(k, dtype=bool)
    restart[1:] = d == 0
    if restart.any():
        count -= count[np.maximum.accumulate(np.where(restart, np.arange(k), 0))]
    return np.where((count & 1).astype(bool)[:, None], -q, q)


def _rowdot(a, b):
    """Dot products of the rows of ``(..., 4)`` arrays."""
    return np.einsum("...i,...i->...", a, b)


def intermediate_unaware(q_prev, q, q_next) -> np.ndarray:
    """SQUAD control point without the hemisphere step: what goes wrong (w, x, y, z).

    ``q exp(-(log(q^-1 q_next) + log(q^-1 q_prev)) / 4)`` on the stored
    signs, as numpy-quaternion's ``squad`` computes its control points.
    When a neighbour is stored as ``-q'`` its logarithm measures the long
    way round and the control point lands far off; compare
    :func:`quatlab.math.interpolate.intermediate`.

    Examples
    --------
    >>> from quatlab.math import interpolate
    >>> from quatlab.math import quaternion as Q
    >>> k = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 30.0, 90.0]))
    >>> np.allclose(intermediate_unaware(k[0], k[1], k[2]), interpolate.intermediate(*k))
    True
    >>> bad = intermediate_unaware(k[0], k[1], -k[2])
    >>> round(float(np.degrees(Q.angle_between(bad, interpolate.intermediate(*k)))), 6)
    90.0
    """
    return _control_point(
        as_quaternion(q_prev, "q_prev"), as_quaternion(q, "q"), as_quaternion(q_next, "q_next"),
        0.5, 0.5,
    )


def _control_point(qp, qc, qn, w_prev, w_next):
    """``qc exp(-(w_prev log(qc^-1 qp) + w_next log(qc^-1 qn)) / 2)``, signs as given.

    With weights 1/2 this is Shoemake's control point. Weights proportional
    to the *other* segment's duration make the angular velocity in time
    continuous at the key: the one-sided tangents ``log(qc^-1 qn) + 2 X``
    over the next duration and ``-log(qc^-1 qp) - 2 X`` over the previous
    one are equal exactly when ``X`` is this weighted mean.
    """
    inv = conjugate(qc)
    w_prev = np.asarray(w_prev)[..., None]
    w_next = np.asarray(w_next)[..., None]
    tangent = w_next * log(multiply(inv, qn)) + w_prev * log(multiply(inv, qp))
    return multiply(qc, exp(-0.5 * tangent))


def control_points(times, keys, *, signs: str = "aware", tangents: str = "uniform"):
    """SQUAD control points ``(K, 4)`` (w, x, y, z), one per key, for ``signs`` mode.

    ``"aware"``: :func:`quatlab.math.interpolate.intermediate` on the
    :func:`align_keys` output. ``"unaware_controls"``:
    :func:`intermediate_unaware` on the stored keys, each result then given
    the sign its key has after alignment (only relative signs enter the
    formula, so this is the stored-sign control point of the aligned key).
    ``"stored"``: :func:`intermediate_unaware` on the stored keys. The end
    keys are their own control points. ``tangents="time_scaled"`` weights
    each neighbour by the other segment's duration (see :mod:`quatlab.math.track`).

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> keys = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 40.0, 80.0]))
    >>> np.allclose(control_points([0, 1, 2], keys), keys)   # evenly spaced: no bend
    True
    """
    tk, q = _as_track(times, keys)
    _as_choice(signs, "signs", SIGN_MODES)
    _as_choice(tangents, "tangents", TANGENTS)
    aligned = align_keys(q)
    base = aligned if signs == "aware" else q
    s = base.copy()
    if q.shape[0] > 2:
        prev, cur, nxt = base[:-2], base[1:-1], base[2:]
        if tangents == "uniform" and signs == "aware":
            s[1:-1] = interpolate.intermediate(prev, cur, nxt)
        elif tangents == "uniform":
            s[1:-1] = intermediate_unaware(prev, cur, nxt)
        else:
            dp = tk[1:-1] - tk[:-2]
            dn = tk[2:] - tk[1:-1]
            # Aligned keys (signs="aware") are already in each other's
            # hemisphere, so this is the sign-aware rule with time weights.
            s[1:-1] = _control_point(prev, cur, nxt, dn / (dp + dn), dp / (dp + dn))
    if signs == "unaware_controls":
        s = np.where(np.all(aligned == q, axis=-1)[:, None], s, -s)
    return s
