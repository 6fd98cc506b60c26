"""Keyframe tracks: piecewise NLERP, piecewise SLERP and SQUAD over a key sequence.

A track is ``times`` (``(K,)`` seconds, strictly increasing, K >= 2) and
``keys`` (``(K, 4)`` quaternions, (w, x, y, z), normalized here). Sample
times ``t`` lie in ``[times[0], times[-1]]``; a sample exactly at an interior
key belongs to the segment that starts there.

Sign handling (``docs/interpolation.md``, "Shortest-arc rule"): ``signs``, one of
:data:`SIGN_MODES`
    ``"aware"``: the keys are first made sign-continuous (:func:`align_keys`:
    key i becomes ``-key i`` when ``dot(key i-1, key i) < 0`` with key i-1
    already fixed; at ``dot == 0`` the stored sign is kept), every segment
    takes the short arc and SQUAD's control points use
    :func:`quatlab.math.interpolate.intermediate`. The samples are then
    continuous in 4D, not only as rotations.

    ``"unaware_controls"`` (SQUAD only): short arcs, but control points from
    the keys as stored (:func:`intermediate_unaware`). This is what
    numpy-quaternion's ``squad`` does with rotors that have sign flips (it
    takes the control points' logarithms without a hemisphere test;
    ``docs/sources.md``, "Sign-unaware SQUAD"): one negated key bends the curve
    tens of degrees off the
    sign-aware path (40 deg in the ``negated_key`` preset, 27 deg in the
    glTF AnimatedTriangle track).

    ``"stored"``: everything as stored, no hemisphere test anywhere (a
    runtime whose slerp never flips): a negated key sends the segments next
    to it the long way round, which is a different, larger failure.

SQUAD (``docs/interpolation.md``, "SQUAD")
    On segment i with local parameter ``u`` in [0, 1],
    ``squad(k_i, k_i+1, s_i, s_i+1, u)`` from
    :func:`quatlab.math.interpolate.squad`, with control points ``s_i`` as
    above. The end keys are their own control points
    (``s_0 = k_0``, ``s_K-1 = k_K-1``, as numpy-quaternion does). With
    ``tangents="uniform"`` (the formula of ``docs/sources.md``, "SQUAD") the curve
    is C1 in ``u``, so
    its angular velocity is continuous at keys only if neighbouring segments
    last equally long; ``tangents="time_scaled"`` weights the two
    neighbours by the other segment's duration, which makes the velocity in
    rad/s continuous for any key spacing (continuity depends on the key time
    parametrization: ``docs/sources.md``, "Key spacing").

Path angle
    ``theta(t)`` is :func:`quatlab.math.curves.path_angle` from key 0 (as
    stored): the rotation angle of ``conj(k_0) ⊗ q(t)``, in [0, 2 pi]. It is
    the same definition the two-key plots use; it is not sign-blind, so a
    path that went the long way reads ``2 pi - x``. On a sign-aware track it
    grows past pi when the joint turns more than a half turn in total (the
    glTF AnimatedTriangle preset reads 0, 90, 180, 270, 360 degrees at its keys).

Angular speed
    ``omega(t) = 2 |dq/dt|`` in rad/s, analytic on every segment: ``2 W / dt``
    for SLERP (W the 4D arc angle), ``2 sin(W) / (|p|^2 dt)`` for NLERP
    (``p`` the un-normalized blend), and for SQUAD the chain rule through
    ``q = P exp(h log(P^-1 S))`` (see :func:`quatlab.math.curves._squad_speed`). ``speed_before``
    and ``speed_after`` give the one-sided limits at each key: their
    difference is the jump the plot marks.

A value that does not exist is NaN with a note, never a made-up number: the
naive NLERP of q and -q at its collapse point, the naive SLERP or SQUAD of a
segment between exact antipodes.

Why this module stays whole (about 600 lines): it is one pipeline, validate
the track, align the keys, build the control points, evaluate each segment
with its one-sided speeds, assemble the curves, and every stage is written
for the next one's sign mode and tangent rule; split, each piece would only
make sense read next to the others. What stands on its own has moved out
(the great-circle frame to :mod:`quatlab.math.great_circle`, the analytic
SQUAD speed to :mod:`quatlab.math.curves`), and what is left beyond the
pipeline is the presets' data (``docs/presets.md``, "Tracks"), kept beside
the code they exercise as in the other lesson modules.

Examples
--------
>>> import numpy as np
>>> from quatlab.math import quaternion as Q
>>> keys = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 90.0, 120.0]))
>>> track = compute_track([0.0, 1.0, 2.0], keys, samples=5)
>>> slerp = track["slerp"]
>>> np.round(slerp.speed_deg, 6).tolist()          # 90 deg/s, then 30 deg/s
[90.0, 90.0, 30.0, 30.0, 30.0]
>>> np.round(np.degrees(slerp.speed_before), 6).tolist(), \\
...     np.round(np.degrees(slerp.speed_after), 6).tolist()
([nan, 90.0, 30.0], [90.0, 30.0, nan])
>>> np.round(track["squad"].angle_deg, 3).tolist()
[0.0, 48.75, 90.0, 108.75, 120.0]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from quatlab.math import interpolate
from quatlab.math.curves import _squad_speed, nlerp_path, path_angle
from quatlab.math.great_circle import arc_frame
from quatlab.math.interpolate import InterpolationCollapseError
from quatlab.math.marks import N_
from quatlab.math.quaternion import (
    angle_between,
    as_quaternion,
    conjugate,
    exp,
    from_xyzw,
    log,
    multiply,
)

__all__ = [
    "METHODS",
    "TRACK_METHODS",
    "METHOD_LABELS",
    "TANGENTS",
    "SIGN_MODES",
    "SAMPLES_PER_SEGMENT",
    "PRESETS",
    "preset_track",
    "align_keys",
    "intermediate_unaware",
    "control_points",
    "TrackCurve",
    "Track",
    "evaluate",
    "compute_track",
]

#: Interpolation methods of :func:`evaluate`.
METHODS = ("nlerp", "slerp", "squad")

#: The curves :func:`compute_track` produces, in the order views list them:
#: the three sign-aware methods and the sign-unaware SQUAD.
TRACK_METHODS = ("nlerp", "slerp", "squad", "squad_unaware")

METHOD_LABELS = {
    "nlerp": N_("piecewise NLERP"),
    "slerp": N_("piecewise SLERP"),
    "squad": "SQUAD",
    "squad_unaware": N_("SQUAD, sign-unaware"),
}

#: Tangent rules for the SQUAD control points.
TANGENTS = ("uniform", "time_scaled")

#: Sign handling of :func:`evaluate` (see the module documentation).
SIGN_MODES = ("aware", "unaware_controls", "stored")

#: Default samples per segment of :func:`compute_track`.
SAMPLES_PER_SEGMENT = 120



#: Lesson presets (JSON-able; ``docs/presets.md``, "Tracks"): key times in seconds
#: and keys (w, x, y, z).
PRESETS = {
    "four_keys": {
        "label": N_("Four keys, unequal turns"),
        "description": N_(
            "Turns of 90, 60 and 120 deg per second about changing axes: piecewise "
            "SLERP jumps in speed (and direction) at every key, SQUAD does not."
        ),
        "times": [0.0, 1.0, 2.0, 3.0],
        "keys": [
            [1.0, 0.0, 0.0, 0.0],
            [0.7071067811865476, 0.0, 0.0, 0.7071067811865475],
            [0.6123724356957946, 0.35355339059327373, 0.3535533905932737, 0.6123724356957945],
            [0.0, -0.35355339059327373, 0.7071067811865476, 0.6123724356957945],
        ],
    },
    "negated_key": {
        "label": N_("Four keys, key 2 stored as -q"),
        "description": N_(
            "The same rotations with key 2 negated, as an exporter may write it. The "
            "sign-aware curves do not change; SQUAD with control points from the stored "
            "signs (as numpy-quaternion's squad computes them) leaves the path by 40 deg."
        ),
        "times": [0.0, 1.0, 2.0, 3.0],
        "keys": [
            [1.0, 0.0, 0.0, 0.0],
            [0.7071067811865476, 0.0, 0.0, 0.7071067811865475],
            [-0.6123724356957946, -0.35355339059327373, -0.3535533905932737, -0.6123724356957945],
            [0.0, -0.35355339059327373, 0.7071067811865476, 0.6123724356957945],
        ],
    },
    "uneven_times": {
        "label": N_("Uneven key times"),
        "description": N_(
            "Keys at 0, 0.5, 2.5 and 3 s. With the usual uniform tangents SQUAD's "
            "speed jumps at the keys; time-scaled tangents make it continuous."
        ),
        "times": [0.0, 0.5, 2.5, 3.0],
        "keys": [
            [1.0, 0.0, 0.0, 0.0],
            [0.7071067811865476, 0.0, 0.0, 0.7071067811865475],
            [0.6123724356957946, 0.35355339059327373, 0.3535533905932737, 0.6123724356957945],
            [0.0, -0.35355339059327373, 0.7071067811865476, 0.6123724356957945],
        ],
    },
    "gltf_animated_triangle": {
        "label": N_("glTF AnimatedTriangle (real asset)"),
        "description": N_(
            "Khronos glTF-Sample-Assets AnimatedTriangle (CC0, Marco Hutter): five "
            "LINEAR keys about Z, stored (x, y, z, w) as (0,0,0,1) (0,0,.707,.707) "
            "(0,0,1,0) (0,0,.707,-.707) (0,0,0,1). The last pair has dot -0.707: sign-aware "
            "evaluation keeps turning (270 -> 360 deg), the stored signs turn back 270 deg, "
            "and sign-unaware SQUAD control points pull the curve 27 deg off."
        ),
        "times": [0.0, 0.25, 0.5, 0.75, 1.0],
        "keys_xyzw": [
            [0.0, 0.0, 0.0, 1.0],
            [0.0, 0.0, 0.7070000171661377, 0.7070000171661377],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.7070000171661377, -0.7070000171661377],
            [0.0, 0.0, 0.0, 1.0],
        ],
    },
}


def preset_track(name: str) -> tuple[np.ndarray, np.ndarray]:
    """``(times, keys)`` of preset ``name``, keys (w, x, y, z) as stored (not normalized).

    Examples
    --------
    >>> times, keys = preset_track("gltf_animated_triangle")
    >>> keys[3].tolist()                      # (x, y, z, w) reordered to (w, x, y, z)
    [-0.7070000171661377, 0.0, 0.0, 0.7070000171661377]
    """
    if name not in PRESETS:
        raise ValueError(f"name must be one of {tuple(PRESETS)}, got {name!r}")
    p = PRESETS[name]
    keys = from_xyzw(p["keys_xyzw"]) if "keys_xyzw" in p else np.asarray(p["keys"], float)
    return np.asarray(p["times"], dtype=np.float64), keys


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


def _as_samples(t, times):
    try:
        ts = np.asarray(t, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"t must be numeric, got {t!r}") from exc
    ts = np.atleast_1d(ts)
    if ts.ndim != 1:
        raise ValueError(f"t must be one-dimensional, got shape {ts.shape}")
    if not np.all(np.isfinite(ts)):
        raise ValueError("t must be finite")
    if np.any((ts < times[0]) | (ts > times[-1])):
        bad = ts[(ts < times[0]) | (ts > times[-1])][0]
        raise ValueError(f"t must lie in [{times[0]:g}, {times[-1]:g}] (the keys), got {bad:g}")
    return ts


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
    each neighbour by the other segment's duration (see module docs).

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


# --------------------------------------------------------------------------- evaluation


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


@dataclass(frozen=True)
class TrackCurve:
    """One method's evaluation of a track.

    ``t`` ``(M,)`` seconds; ``quats`` ``(M, 4)`` (w, x, y, z); ``angle``
    ``(M,)`` path angle from key 0 (rad, [0, 2 pi]); ``speed`` ``(M,)`` rad/s.
    Key markers: ``key_times`` ``(K,)``, ``key_angle`` ``(K,)`` (the path
    angle at each key as this method reaches it), ``speed_before`` /
    ``speed_after`` ``(K,)`` the one-sided speed limits (NaN before the first
    and after the last key). NaN marks values that do not exist; ``notes``
    says why.
    """

    name: str
    t: np.ndarray
    quats: np.ndarray
    angle: np.ndarray
    speed: np.ndarray
    key_times: np.ndarray
    key_angle: np.ndarray
    speed_before: np.ndarray
    speed_after: np.ndarray
    notes: tuple[str, ...] = field(default=())

    @property
    def label(self) -> str:
        return METHOD_LABELS.get(self.name, self.name)

    @property
    def angle_deg(self) -> np.ndarray:
        return np.degrees(self.angle)

    @property
    def speed_deg(self) -> np.ndarray:
        return np.degrees(self.speed)

    @property
    def speed_jump(self) -> np.ndarray:
        """``speed_after - speed_before`` at each key, rad/s (NaN at the ends)."""
        return self.speed_after - self.speed_before


def evaluate(
    times,
    keys,
    t,
    method: str,
    *,
    signs: str = "aware",
    tangents: str = "uniform",
    name: str | None = None,
) -> TrackCurve:
    """Evaluate a key track with one method at sample times ``t``.

    Parameters
    ----------
    times : array_like, shape (K,)
        Key times, seconds, strictly increasing, K >= 2.
    keys : array_like, shape (K, 4)
        Keys (w, x, y, z), normalized here.
    t : array_like, shape (M,)
        Sample times in ``[times[0], times[-1]]``.
    method : {"nlerp", "slerp", "squad"}
    signs : {"aware", "unaware_controls", "stored"}
        Sign handling (module documentation); ``"unaware_controls"`` is for
        SQUAD only.
    tangents : {"uniform", "time_scaled"}
        SQUAD control-point rule (ignored by the other methods).
    name : str, optional
        Name stored in the result (default: ``method``).

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> keys = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 90.0, 180.0]))
    >>> c = evaluate([0, 1, 2], keys, [0.5, 1.5], "nlerp")
    >>> np.round(c.angle_deg, 6).tolist(), np.round(c.speed_deg, 3).tolist()
    ([45.0, 135.0], [94.931, 94.931])
    """
    tk, q = _as_track(times, keys)
    ts = _as_samples(t, tk)
    _as_choice(method, "method", METHODS)
    _as_choice(tangents, "tangents", TANGENTS)
    _as_choice(signs, "signs", SIGN_MODES)
    if signs == "unaware_controls" and method != "squad":
        raise ValueError(f"signs='unaware_controls' applies to method 'squad' only, not {method!r}")
    shortest = signs != "stored"
    used = align_keys(q) if shortest else q
    s = control_points(tk, q, signs=signs, tangents=tangents) if method == "squad" else used
    k = tk.shape[0]
    dt = np.diff(tk)
    seg = np.clip(np.searchsorted(tk, ts, side="right") - 1, 0, k - 2)
    u = np.clip((ts - tk[seg]) / dt[seg], 0.0, 1.0)
    try:
        quats, speed, before, after, notes = _evaluate_at_once(
            method, tk, used, s, seg, u, shortest)
    except InterpolationCollapseError:
        # A segment between exact antipodes: its path does not exist. Segment
        # by segment, so that only that one is NaN (with its note).
        quats, speed, before, after, notes = _evaluate_per_segment(
            method, tk, used, s, seg, u, shortest)
    return TrackCurve(
        name=name or method,
        t=ts,
        quats=quats,
        angle=path_angle(q[0], quats),
        speed=speed,
        key_times=tk,
        key_angle=path_angle(q[0], used),
        speed_before=before,
        speed_after=after,
        notes=tuple(notes),
    )


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


@dataclass(frozen=True)
class Track:
    """All of :data:`TRACK_METHODS` evaluated on one track.

    ``keys`` are the normalized keys as stored, ``aligned`` their
    sign-continuous version, ``flipped`` the indices :func:`align_keys`
    negated (the keys a sign-unaware runtime gets wrong).
    """

    times: np.ndarray
    keys: np.ndarray
    aligned: np.ndarray
    t: np.ndarray
    methods: dict[str, TrackCurve]

    def __getitem__(self, name: str) -> TrackCurve:
        return self.methods[name]

    @property
    def flipped(self) -> np.ndarray:
        return np.flatnonzero(np.any(self.aligned != self.keys, axis=-1))

    def deviation(self, a: str, b: str) -> np.ndarray:
        """Rotation angle (rad, sign-blind) between methods ``a`` and ``b`` per sample."""
        qa, qb = self.methods[a].quats, self.methods[b].quats
        out = np.full(self.t.shape, np.nan)
        ok = np.all(np.isfinite(qa), axis=-1) & np.all(np.isfinite(qb), axis=-1)
        if np.any(ok):
            out[ok] = angle_between(qa[ok], qb[ok])
        return out


def compute_track(
    times,
    keys,
    t=None,
    *,
    samples: int | None = None,
    tangents: str = "uniform",
) -> Track:
    """Evaluate :data:`TRACK_METHODS` on a track, ready to plot.

    ``t`` defaults to ``samples`` evenly spaced times (default
    :data:`SAMPLES_PER_SEGMENT` per segment) merged with the key times, so
    every key is a sample.

    Examples
    --------
    >>> track = compute_track(*preset_track("negated_key"))
    >>> track.flipped.tolist()
    [2]
    >>> round(float(np.nanmax(np.degrees(track.deviation("squad", "squad_unaware")))))
    40
    >>> np.round(track["squad"].key_angle * 180 / np.pi, 6).tolist()
    [0.0, 90.0, 104.477512, 180.0]
    """
    tk, q = _as_track(times, keys)
    if t is None:
        k = tk.shape[0]
        if samples is None:
            samples = SAMPLES_PER_SEGMENT * (k - 1) + 1
        if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 2:
            raise ValueError(f"samples must be an integer of at least 2, got {samples!r}")
        t = np.union1d(np.linspace(tk[0], tk[-1], int(samples)), tk)
    ts = _as_samples(t, tk)
    methods = {
        m: evaluate(tk, q, ts, m, tangents=tangents) for m in METHODS
    }
    methods["squad_unaware"] = evaluate(
        tk, q, ts, "squad", signs="unaware_controls", tangents=tangents, name="squad_unaware"
    )
    return Track(times=tk, keys=q, aligned=align_keys(q), t=ts,
                 methods={m: methods[m] for m in TRACK_METHODS})
