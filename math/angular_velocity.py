"""The angular velocity vector of a rotation path: between two keys, and along a key track.

Quaternions are (w, x, y, z), angular velocities 3-vectors in radians per
second (per unit of whatever ``dt`` and ``times`` are in). Two frames
(``docs/rotations.md``, "Angular velocity vector"), as in
:mod:`quatlab.math.integrate`:

``"world"``
    the fixed frame the rotation maps into: ``dq/dt = ½ (0, ω) ⊗ q``, so
    ``ω = 2 vec(dq/dt ⊗ q*)``;
``"local"``
    the body frame that turns with ``q``: ``dq/dt = ½ q ⊗ (0, ω)``, so
    ``ω = 2 vec(q* ⊗ dq/dt)``. The two are related by
    ``ω_world = rotate_vector(q, ω_local)``.

Either has length ``2 |dq/dt|``, the angular speed that
:mod:`quatlab.math.track` and :mod:`quatlab.math.curves` plot.

* :func:`from_derivative`: ω from a quaternion and its time derivative.
* :func:`between`: the constant ω that turns ``q0`` into ``q1`` in ``dt``
  the short way (SLERP's; also the mean ω over the interval of any path
  that turns less than a half turn in it).
* :func:`of_segments`: :func:`between` on every pair of consecutive keys
  of a track: piecewise SLERP's ω, constant on each segment.
* :func:`along_track`: ω at sample times along a sign-aware NLERP, SLERP or
  SQUAD track, analytic, the same curve :func:`quatlab.math.track.evaluate`
  gives.

For samples of a path that no formula here describes (a player's output),
``between(q[:-1], q[1:], np.diff(t))`` is ω over each sample interval.

Examples
--------
>>> import numpy as np
>>> from quatlab.math import quaternion as Q
>>> q0 = Q.from_axis_angle([1, 0, 0], np.pi / 2)      # x: 90 deg, so body z is world -y
>>> turn = Q.from_axis_angle([0, 0, 1], 0.3)
>>> q1 = Q.multiply(q0, turn)                          # then 0.3 rad about the body's z
>>> np.round(between(q0, q1, 0.5, frame="local"), 12) + 0.0    # rad/s about body z
array([0. , 0. , 0.6])
>>> np.round(between(q0, q1, 0.5, frame="world"), 12) + 0.0    # the same about world -y
array([ 0. , -0.6,  0. ])
"""

from __future__ import annotations

import numpy as np

from quatlab.math import track as T
from quatlab.math.curves import _squad_derivative
from quatlab.math.interpolate import _align
from quatlab.math.quaternion import (
    _as_float_array,
    _as_vector,
    _broadcast,
    as_quaternion,
    conjugate,
    multiply,
    to_rotvec,
)

__all__ = ["FRAMES", "SIDES", "from_derivative", "between", "of_segments", "along_track"]

#: Frames an angular velocity may be given in (see the module documentation).
FRAMES = ("world", "local")

#: Which segment a sample exactly at an interior key belongs to (:func:`along_track`).
SIDES = ("right", "left")


def _as_frame(frame) -> str:
    if frame not in FRAMES:
        raise ValueError(f"frame must be one of {FRAMES}, got {frame!r}")
    return frame


def from_derivative(q, q_dot, *, frame: str = "world") -> np.ndarray:
    """Angular velocity ``(..., 3)`` of the rotation ``q / |q|`` moving at ``dq/dt = q_dot``.

    ``q`` need not be unit: for a path ``p(t)`` of non-zero quaternions the
    rotation ``p / |p|`` turns at ``2 vec(ṗ ⊗ p*) / |p|^2`` (world) or
    ``2 vec(p* ⊗ ṗ) / |p|^2`` (local), the radial part of ``ṗ`` dropping out;
    so an NLERP blend can be passed as it is, un-normalized.

    Parameters
    ----------
    q : array_like, shape (..., 4)
        The path's quaternion(s) (w, x, y, z); non-zero and finite.
    q_dot : array_like, shape (..., 4)
        Its derivative with respect to time; leading shapes broadcast.
    frame : {"world", "local"}

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> w = 0.5               # rad/s about z: q(t) = (cos wt/2, 0, 0, sin wt/2), here at t = 2
    >>> q = Q.from_axis_angle([0, 0, 1], 1.0)
    >>> q_dot = 0.5 * w * np.array([-np.sin(0.5), 0, 0, np.cos(0.5)])
    >>> np.round(from_derivative(q, q_dot), 12) + 0.0
    array([0. , 0. , 0.5])
    >>> np.round(from_derivative(3 * q, 3 * q_dot, frame="local"), 12) + 0.0
    array([0. , 0. , 0.5])
    """
    p = as_quaternion(q, "q", normalized=False)
    p_dot = _as_vector(q_dot, "q_dot", 4)
    _broadcast(("q", p, 1), ("q_dot", p_dot, 1))
    frame = _as_frame(frame)
    prod = (multiply(p_dot, conjugate(p)) if frame == "world"
            else multiply(conjugate(p), p_dot))
    return 2.0 * prod[..., 1:] / np.einsum("...i,...i->...", p, p)[..., None]


def between(q0, q1, dt, *, frame: str = "world") -> np.ndarray:
    """The constant angular velocity ``(..., 3)`` turning ``q0`` into ``q1`` in ``dt``, short way.

    ``rotvec(q1 ⊗ q0*) / dt`` in the world frame, ``rotvec(q0* ⊗ q1) / dt``
    in the local frame, the rotation vector taken with angle in [0, pi]
    (:func:`~quatlab.math.quaternion.to_rotvec`), so the signs of ``q0`` and
    ``q1`` do not matter. This is the angular velocity of the shortest-arc
    SLERP from ``q0`` to ``q1`` over ``dt``, constant in both frames. For a
    half turn either direction is as short; the one ``q1 ⊗ q0*`` stores is
    taken.

    Parameters
    ----------
    q0, q1 : array_like, shape (..., 4)
        Rotations (w, x, y, z), normalized here.
    dt : array_like, shape (...)
        Time from ``q0`` to ``q1``, positive; broadcasts with the leading
        shapes of ``q0`` and ``q1``.
    frame : {"world", "local"}

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> keys = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 90.0, 120.0]))
    >>> np.round(np.degrees(between(keys[:-1], -keys[1:], [1.0, 0.5])), 9) + 0.0
    array([[ 0.,  0., 90.],
           [ 0.,  0., 60.]])
    """
    a = as_quaternion(q0, "q0")
    b = as_quaternion(q1, "q1")
    step = _as_float_array(dt, "dt")
    shape = _broadcast(("q0", a, 1), ("q1", b, 1), ("dt", step, 0))
    if not np.all(np.isfinite(step) & (step > 0)):
        raise ValueError("dt must be finite and positive")
    frame = _as_frame(frame)
    rel = multiply(b, conjugate(a)) if frame == "world" else multiply(conjugate(a), b)
    return np.broadcast_to(to_rotvec(rel) / step[..., None], shape + (3,)).copy()


def of_segments(times, keys, *, frame: str = "world") -> np.ndarray:
    """Piecewise SLERP's angular velocity on each segment of a track, ``(K - 1, 3)``.

    Row ``i`` is :func:`between` ``(keys[i], keys[i + 1], times[i + 1] -
    times[i])``: what a glTF player (LINEAR, shortest-arc SLERP) turns at
    from key ``i`` to key ``i + 1``. Its jumps at the keys are the jumps in
    direction that a plot of the speed alone does not show.

    Parameters
    ----------
    times : array_like, shape (K,)
        Key times, strictly increasing, K >= 2.
    keys : array_like, shape (K, 4)
        Keys (w, x, y, z), either sign.
    frame : {"world", "local"}

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> keys = [Q.IDENTITY, Q.from_axis_angle([0, 0, 1], np.pi / 2),
    ...         Q.multiply(Q.from_axis_angle([1, 0, 0], np.pi / 2),
    ...                    Q.from_axis_angle([0, 0, 1], np.pi / 2))]
    >>> np.round(np.degrees(of_segments([0, 1, 3], keys)), 9) + 0.0     # about z, then x
    array([[ 0.,  0., 90.],
           [45.,  0.,  0.]])
    """
    tk, q = T._as_track(times, keys)
    return between(q[:-1], q[1:], np.diff(tk), frame=frame)


def along_track(times, keys, t, method: str = "slerp", *, frame: str = "world",
                tangents: str = "uniform", side: str = "right") -> np.ndarray:
    """Angular velocity ``(M, 3)`` at times ``t`` along a sign-aware track, analytic.

    The curve is :func:`quatlab.math.track.evaluate`'s with ``signs="aware"``:
    keys made sign-continuous (:func:`~quatlab.math.track.align_keys`), short
    arcs, SQUAD control points from
    :func:`~quatlab.math.track.control_points`. On segment ``i`` with
    ``u = (t - times[i]) / dt_i``:

    * SLERP: :func:`between` of the segment's keys, constant;
    * NLERP: :func:`from_derivative` of ``p = (1 - u) a + u b`` and
      ``ṗ = (b - a) / dt_i``: a fixed direction, ``a × b``-like, whose
      length peaks mid-segment;
    * SQUAD: :func:`from_derivative` of ``q(u)`` and ``dq/du / dt_i``
      through the chain rule of :func:`quatlab.math.curves._squad_speed`.

    Its length is the ``speed`` of :func:`quatlab.math.track.evaluate`.

    Parameters
    ----------
    times : array_like, shape (K,)
        Key times in seconds, strictly increasing, K >= 2.
    keys : array_like, shape (K, 4)
        Keys (w, x, y, z), normalized here, either sign.
    t : array_like, shape (M,)
        Sample times in ``[times[0], times[-1]]``.
    method : {"slerp", "nlerp", "squad"}
    frame : {"world", "local"}
    tangents : {"uniform", "time_scaled"}
        SQUAD's control-point rule (ignored by the others).
    side : {"right", "left"}
        At a sample exactly on an interior key the velocity may jump:
        ``"right"`` takes the segment that starts there (as ``evaluate``
        does), ``"left"`` the one that ends there. So the one-sided values
        at the keys are ``along_track(times, keys, times, side=...)``.

    Returns
    -------
    ndarray, shape (M, 3)
        Radians per second (per unit of ``times``).

    Examples
    --------
    A track from the identity to 90 deg about z (1 s) and on to 90 deg about
    x after that (2 s): SLERP turns about z, then at 45 deg/s about world x.

    >>> from quatlab.math import quaternion as Q
    >>> keys = [Q.IDENTITY, Q.from_axis_angle([0, 0, 1], np.pi / 2),
    ...         Q.multiply(Q.from_axis_angle([1, 0, 0], np.pi / 2),
    ...                    Q.from_axis_angle([0, 0, 1], np.pi / 2))]
    >>> w = along_track([0, 1, 3], keys, [0.5, 1.0, 2.0])
    >>> np.round(np.degrees(w), 9) + 0.0
    array([[ 0.,  0., 90.],
           [45.,  0.,  0.],
           [45.,  0.,  0.]])
    >>> np.round(np.degrees(along_track([0, 1, 3], keys, [1.0], side="left")), 9) + 0.0
    array([[ 0.,  0., 90.]])
    >>> np.round(np.degrees(along_track([0, 1, 3], keys, [0.5], "nlerp")), 3) + 0.0
    array([[ 0.   ,  0.   , 94.931]])
    """
    if method not in T.METHODS:
        raise ValueError(f"method must be one of {T.METHODS}, got {method!r}")
    if side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}, got {side!r}")
    frame = _as_frame(frame)
    # control_points validates times, keys and tangents (messages naming them).
    controls = T.control_points(times, keys, tangents=tangents)
    tk, q = T._as_track(times, keys)
    ts = T._as_samples(t, tk)
    aligned = T.align_keys(q)
    dt = np.diff(tk)
    seg = np.clip(np.searchsorted(tk, ts, side=side) - 1, 0, tk.shape[0] - 2)
    u = np.clip((ts - tk[seg]) / dt[seg], 0.0, 1.0)
    a, b = aligned[seg], aligned[seg + 1]
    if method == "slerp":
        return between(a, b, dt[seg], frame=frame)
    if method == "nlerp":
        p = (1.0 - u)[:, None] * a + u[:, None] * b
        return from_derivative(p, (b - a) / dt[seg][:, None], frame=frame)
    # interpolate.squad's own hemisphere rule, as track.evaluate applies it.
    c = _align(controls[seg], a)
    d = _align(controls[seg + 1], b)
    qu, dq = _squad_derivative(a, b, c, d, u)
    return from_derivative(qu, dq / dt[seg][:, None], frame=frame)
