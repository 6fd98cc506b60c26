"""Evaluating a track segment by segment: each method's quaternions and speed per unit u.

The segment step of :func:`quatlab.math.track.evaluate`: every sample and
both ends of every segment in one vectorized call, or, when a segment's path
does not exist (exact antipodes), one segment at a time so that only that
one is NaN, with its note.

Examples
--------
>>> from quatlab.math import quaternion as Q
>>> a, b = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 90.0]))
>>> quats, speed, note = _segment("slerp", a, b, a, b, np.array([0.0, 0.5, 1.0]), True)
>>> np.round(np.degrees(speed), 6).tolist(), note    # 90 deg over the whole segment
([90.0, 90.0, 90.0], None)
"""

from __future__ import annotations

import numpy as np

from quatlab.math import interpolate
from quatlab.math.curves import _squad_speed, nlerp_path
from quatlab.math.great_circle import arc_frame
from quatlab.math.interpolate import InterpolationCollapseError
from quatlab.math.track_keys import _rowdot

__all__: list[str] = []  # its functions are quatlab.math.track's steps, not an API


def _next_to(q, ref):
    """``q`` or ``-q``, whichever is in the hemisphere of ``ref`` (kept at dot 0); rows."""
    return np.where((_rowdot(q, ref) < 0)[..., None], -q, q)


def _segments(method, a, b, c, d, u, shortest):
    """:func:`_segment` for many samples at once, each with its own segment's keys.

    ``a``, ``b``, ``c``, ``d`` are ``(n, 4)`` (each sample's keys and control
    points), ``u`` ``(n,)``. Returns quaternions ``(n, 4)`` and speed per unit
    ``u`` ``(n,)``; raises :class:`InterpolationCollapseError` when any
    segment's path does not exist (the caller then goes segment by segment).
    """
    if method == "nlerp":
        end = _next_to(b, a) if shortest else b
        return nlerp_path(a, end, u)
    if method == "slerp":
        quats = interpolate.slerp(a, b, u, shortest=shortest)
        omega, _ = arc_frame(a, _next_to(b, a) if shortest else b)
        return quats, 2.0 * omega
    if shortest:
        # interpolate.squad's own rule (q1 next to q0, s0 next to q0, s1 next
        # to q1), applied here too so that the speed is differentiated along
        # the very curve squad() returns.
        b = _next_to(b, a)
        c = _next_to(c, a)
        d = _next_to(d, b)
    return interpolate.squad(a, b, c, d, u, shortest=shortest), _squad_speed(a, b, c, d, u)


_NLERP_NOTE = "NLERP collapses where (1 - u) q0 + u q1 has zero length"


def _segment(method, a, b, c, d, u, shortest):
    """Quaternions ``(n, 4)`` and speed per unit ``u`` ``(n,)`` on one segment.

    ``a``, ``b`` are the segment's keys (4,), ``c``, ``d`` its control points
    (SQUAD only), ``u`` ``(n,)`` in [0, 1]. Returns NaN where the path does
    not exist, and a note (or None).
    """
    n = u.shape[0]
    quats = np.full((n, 4), np.nan)
    speed = np.full(n, np.nan)
    if method == "nlerp":
        end = -b if (shortest and a @ b < 0) else b
        quats, speed = nlerp_path(a, end, u)
        ok = np.isfinite(speed)
        note = None if np.all(ok) else _NLERP_NOTE
        return quats, speed, note
    try:
        if method == "slerp":
            quats = interpolate.slerp(a, b, u, shortest=shortest)
            end = -b if (shortest and a @ b < 0) else b
            omega, _ = arc_frame(a, end)
            speed = np.full(n, 2.0 * omega)
        else:
            if shortest:
                # interpolate.squad's own rule (q1 next to q0, s0 next to q0,
                # s1 next to q1), applied here too so that the speed below is
                # differentiated along the very curve squad() returns.
                b = _next_to(b, a)
                c = _next_to(c, a)
                d = _next_to(d, b)
            quats = interpolate.squad(a, b, c, d, u, shortest=shortest)
            speed = _squad_speed(a, b, c, d, u)
    except InterpolationCollapseError as exc:
        ends = (u == 0) | (u == 1)
        quats[ends] = np.where((u[ends] == 0)[:, None], a, b)
        return quats, speed, f"{method.upper()} undefined: {exc}"
    return quats, speed, None


def _evaluate_at_once(method, tk, used, s, seg, u, shortest):
    """Every sample and both ends of every segment in one vectorized call."""
    k, m = tk.shape[0], u.shape[0]
    dt = np.diff(tk)
    ends = np.arange(k - 1)
    rows = np.concatenate([seg, ends, ends])
    uu = np.concatenate([u, np.zeros(k - 1), np.ones(k - 1)])
    qi, wi = _segments(method, used[rows], used[rows + 1], s[rows], s[rows + 1], uu, shortest)
    wi = wi / dt[rows]
    before = np.full(k, np.nan)
    after = np.full(k, np.nan)
    after[:-1], before[1:] = wi[m : m + k - 1], wi[m + k - 1 :]
    notes = [  # only NLERP returns NaN rather than raising
        f"segment {i} ({tk[i]:g} s to {tk[i + 1]:g} s): {_NLERP_NOTE}"
        for i in np.unique(rows[~np.isfinite(wi)]).tolist()
    ]
    return qi[:m], wi[:m], before, after, notes


def _evaluate_per_segment(method, tk, used, s, seg, u, shortest):
    """:func:`_evaluate_at_once` one segment at a time, each with its own note."""
    k = tk.shape[0]
    dt = np.diff(tk)
    quats = np.full((u.shape[0], 4), np.nan)
    speed = np.full(u.shape[0], np.nan)
    before = np.full(k, np.nan)
    after = np.full(k, np.nan)
    notes = []
    for i in range(k - 1):
        sel = seg == i
        args = (method, used[i], used[i + 1], s[i], s[i + 1])
        # Samples of this segment plus its two ends, for the key markers.
        uu = np.concatenate([u[sel], [0.0, 1.0]])
        qi, wi, note = _segment(*args, uu, shortest)
        quats[sel], speed[sel] = qi[:-2], wi[:-2] / dt[i]
        after[i], before[i + 1] = wi[-2] / dt[i], wi[-1] / dt[i]
        if note:
            notes.append(f"segment {i} ({tk[i]:g} s to {tk[i + 1]:g} s): {note}")
    return quats, speed, before, after, notes
