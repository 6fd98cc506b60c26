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

The pipeline is one module per stage. This one checks the sample times,
evaluates the methods and assembles the curves;
:mod:`quatlab.math.track_keys` checks the keys, aligns them and builds the
SQUAD control points; :mod:`quatlab.math.track_segments` evaluates each
segment with its one-sided speeds; :mod:`quatlab.math.track_presets` holds
the lesson's presets (``docs/presets.md``, "Tracks"). What stands on its own
lives further out (the great-circle frame in :mod:`quatlab.math.great_circle`,
the analytic SQUAD speed in :mod:`quatlab.math.curves`).

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

from quatlab.math.curves import path_angle
from quatlab.math.interpolate import InterpolationCollapseError
from quatlab.math.marks import N_
from quatlab.math.quaternion import angle_between
from quatlab.math.track_keys import (
    SIGN_MODES,
    TANGENTS,
    _as_choice,
    _as_track,
    align_keys,
    control_points,
)
from quatlab.math.track_segments import _evaluate_at_once, _evaluate_per_segment

__all__ = [
    "METHODS",
    "TRACK_METHODS",
    "METHOD_LABELS",
    "SAMPLES_PER_SEGMENT",
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

#: Default samples per segment of :func:`compute_track`.
SAMPLES_PER_SEGMENT = 120


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
    >>> from quatlab.math.track_presets import preset_track
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
