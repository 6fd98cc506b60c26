"""Line geometry that makes the chain scene read by itself (numpy only: no Qt, no GL).

* :func:`trail_marks`: equal-t ticks and arrowheads along a tip trail, so
  NLERP's uneven speed shows as uneven tick spacing and the direction of
  travel (naive and shortest turning opposite ways) as arrows;
* :func:`turn_of`: the rotation a chain's root has turned since t = 0, as
  an axis and an angle in [0, 360°] (docs/conventions.md: the path angle),
  and :func:`last_turn_axis`, the axis of a whole path's last turned sample;
* :func:`turn_arc`: that turn drawn at the root, as the axis with an arrow
  and an arc around it from the t = 0 direction to the current one;
* :func:`fit_distance`: how far a camera must back off for a set of balls
  to fit both of its fields of view.

Everything returns vertex pairs for GL ``'lines'`` mode: one item draws a
trail with its marks, or an axis with its arc.
"""

from __future__ import annotations

from math import radians, sin, tan

import numpy as np

from quatlab.math import quaternion as Q

__all__ = ["TICKS", "cross3", "trail_marks", "turn_of", "last_turn_axis", "turn_arc",
           "fit_distance", "fit_view", "perpendicular", "plane_normal"]

#: Ticks at t = 1/10, 2/10, ..., 9/10.
TICKS = 10


def cross3(a, b) -> np.ndarray:
    """``np.cross`` of two 3-vectors, on plain floats.

    The turn marks are redrawn at every t from a handful of single vectors,
    where ``np.cross``'s axis handling costs ten times the arithmetic.

    >>> cross3([1, 0, 0], [0, 1, 0]).tolist()
    [0.0, 0.0, 1.0]
    """
    (a0, a1, a2), (b0, b1, b2) = (float(x) for x in a), (float(x) for x in b)
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


def perpendicular(v) -> np.ndarray:
    """A unit vector perpendicular to ``v`` (any, stable for axis-aligned ``v``)."""
    v = np.asarray(v, dtype=np.float64)
    other = np.eye(3)[int(np.argmin(np.abs(v)))]
    p = cross3(v, other)
    return p / np.linalg.norm(p)


def plane_normal(points: np.ndarray) -> np.ndarray | None:
    """Normal of the plane that best holds ``points`` (None for fewer than 3 spread points)."""
    p = points[np.all(np.isfinite(points), axis=-1)]
    if len(p) < 3:
        return None
    centred = p - p.mean(axis=0)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    if s[0] < 1e-9:
        return None
    return vt[-1]


def trail_marks(points, size: float) -> tuple[np.ndarray, np.ndarray]:
    """Ticks at equal steps of t and arrowheads along a trail sampled at equal t.

    Parameters
    ----------
    points : array_like, shape (N, 3)
        The trail, in order of t, uniformly spaced in t from 0 to 1; NaN rows
        are gaps (no mark is placed on a gap).
    size : float
        Half length of a tick and length of an arrowhead, world units.

    Returns
    -------
    vertices : numpy.ndarray, shape (2 M, 3)
        Segment ends for GL ``'lines'``.
    sample : numpy.ndarray of int, shape (2 M,)
        For each vertex, the trail sample it marks (to take its colour).

    Ticks cross the trail in the plane of the trail and out of it, so they
    read from any side; arrowheads sit at t = 0.5 and at the end, pointing
    along the direction of travel.

    Examples
    --------
    >>> a = np.linspace(0, np.pi / 2, 101)
    >>> arc = np.column_stack([np.cos(a), np.sin(a), np.zeros_like(a)])
    >>> v, s = trail_marks(arc, 0.05)
    >>> len(v) == len(s), sorted(set(s.tolist()))[:3]
    (True, [10, 20, 30])
    """
    p = np.asarray(points, dtype=np.float64)
    if p.ndim != 2 or p.shape[-1] != 3:
        raise ValueError(f"points must have shape (N, 3), got shape {p.shape}")
    n = len(p)
    verts, samples = [], []
    if n < 3:
        return np.empty((0, 3)), np.empty(0, dtype=int)
    normal = plane_normal(p)

    def frame(i: int):
        lo, hi = max(i - 1, 0), min(i + 1, n - 1)
        tangent = p[hi] - p[lo]
        length = np.linalg.norm(tangent)
        if not np.all(np.isfinite(p[[lo, i, hi]])) or length < 1e-9:
            return None
        tangent /= length
        out = normal if normal is not None else perpendicular(tangent)
        out = out - (out @ tangent) * tangent
        if np.linalg.norm(out) < 1e-9:
            out = perpendicular(tangent)
        out /= np.linalg.norm(out)
        return tangent, np.cross(out, tangent), out

    for k in range(1, TICKS):
        i = int(round(k * (n - 1) / TICKS))
        f = frame(i)
        if f is None:
            continue
        _, across, out = f
        for d in (across, out):
            verts += [p[i] - size * d, p[i] + size * d]
            samples += [i, i]
    for i in (int(round((n - 1) / 2)), n - 1):
        f = frame(i)
        if f is None:
            continue
        tangent, across, out = f
        tip = p[i] + (0.6 * size * tangent if i < n - 1 else 0.0)
        for d in (across, -across, out, -out):
            verts += [tip, tip - 2.0 * size * tangent + 0.9 * size * d]
            samples += [i, i]
    if not verts:
        return np.empty((0, 3)), np.empty(0, dtype=int)
    return np.array(verts), np.array(samples, dtype=int)


def _turns(q_start, q: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vector part, its length and the angle of ``q * conj(q_start)`` for finite ``q`` (..., 4)."""
    d = Q.multiply(Q.as_quaternion(q, "q"), Q.conjugate(Q.as_quaternion(q_start, "q_start")))
    vec = d[..., 1:]
    s = np.sqrt(np.einsum("...i,...i->...", vec, vec))
    return vec, s, 2.0 * np.arctan2(s, d[..., 0])


def turn_of(q_start, q) -> tuple[np.ndarray | None, float]:
    """Axis (world, unit) and angle (radians, [0, 2 pi]) turned from ``q_start`` to ``q``.

    The world-frame turn ``d = q * conj(q_start)`` read with its sign, like
    the path angle: a naive path that went the long way reads 340°, not
    20°. The axis is None when there is none (no turn, or a whole turn to
    ``-q_start``, which is the same pose). NaN in ``q`` gives ``(None, nan)``.

    Examples
    --------
    >>> axis, angle = turn_of([1, 0, 0, 0], -Q.from_axis_angle([0, 0, 1], np.radians(20)))
    >>> np.round(axis, 6).tolist(), round(float(np.degrees(angle)), 6)
    ([0.0, 0.0, -1.0], 340.0)
    """
    q = np.asarray(q, dtype=np.float64)
    if not np.all(np.isfinite(q)):
        return None, float("nan")
    vec, s, angle = _turns(q_start, q)
    s = float(s)
    return (vec / s if s > 1e-12 else None), float(angle)


def last_turn_axis(q_start, path) -> np.ndarray | None:
    """The axis of :func:`turn_of` at the last sample of ``path`` (N, 4) that has one, or None.

    One vectorized pass: a path that never turns (the shortest methods
    between q and -q stand still) has no sample with an axis, and asking
    :func:`turn_of` sample by sample walked all of them.

    Examples
    --------
    >>> path = [Q.from_axis_angle([0, 1, 0], 0.3), [1, 0, 0, 0], [np.nan] * 4]
    >>> last_turn_axis([1, 0, 0, 0], path).round(6).tolist()
    [0.0, 1.0, 0.0]
    >>> last_turn_axis([1, 0, 0, 0], [[-1, 0, 0, 0], [1, 0, 0, 0]]) is None
    True
    """
    path = np.asarray(path, dtype=np.float64).reshape(-1, 4)
    path = path[np.all(np.isfinite(path), axis=-1)]
    if not len(path):
        return None
    vec, s, _angle = _turns(q_start, path)
    has = np.flatnonzero(s > 1e-12)
    return vec[has[-1]] / s[has[-1]] if len(has) else None


def turn_arc(root, axis, start, angle: float, radius: float, axis_length: float,
             arrow: float, samples: int = 48) -> np.ndarray:
    """The axis through ``root`` with an arrowhead and the arc of ``angle`` about it.

    Parameters
    ----------
    root : array_like, shape (3,)
    axis : array_like, shape (3,)
        Unit rotation axis (right-handed: the arc turns counter-clockwise
        seen from the arrow's tip).
    start : array_like, shape (3,)
        Direction the arc starts from; projected to the plane of the arc.
    angle : float
        Radians; the arc runs from 0 to ``angle`` and ends in an arrowhead.
    radius, axis_length, arrow : float
        Arc radius, axis line length (from ``root - 0.35 * axis_length`` to
        ``root + axis_length``), arrowhead size.

    Returns
    -------
    numpy.ndarray, shape (2 M, 3)
        Segment ends for GL ``'lines'``.
    """
    root = np.asarray(root, dtype=np.float64)
    u = np.asarray(axis, dtype=np.float64)
    e1 = np.asarray(start, dtype=np.float64)
    e1 = e1 - (e1 @ u) * u
    if np.linalg.norm(e1) < 1e-6:
        e1 = perpendicular(u)
    e1 /= np.linalg.norm(e1)
    e2 = cross3(u, e1)
    end = root + axis_length * u
    side = perpendicular(u)
    segs = [root - 0.35 * axis_length * u, end]
    across = cross3(u, side)
    for d in (side, -side, across, -across):
        segs += [end, end - arrow * u + 0.5 * arrow * d]
    if angle > 1e-6:
        a = np.linspace(0.0, angle, max(int(samples * angle / (2 * np.pi)) + 2, 3))
        pts = root + radius * (np.cos(a)[:, None] * e1 + np.sin(a)[:, None] * e2)
        segs += [x for pair in zip(pts[:-1], pts[1:], strict=True) for x in pair]
        tip = pts[-1]
        tangent = -np.sin(a[-1]) * e1 + np.cos(a[-1]) * e2
        radial = tip - root
        radial /= np.linalg.norm(radial)
        for d in (radial, -radial):
            segs += [tip, tip - arrow * tangent + 0.5 * arrow * d]
    return np.array(segs)


def fit_distance(points, radii, back, right, up, half_x: float, half_y: float) -> float:
    """Camera distance from the centre at which every ball fits both fields of view.

    ``points`` are ball centres relative to the look-at point, ``radii`` their
    radii; ``back`` points towards the camera, ``right`` and ``up`` along the
    screen; ``half_x`` and ``half_y`` are the half fields of view (radians).
    A ball of radius r whose centre sits x off the view axis and z towards
    the camera fits a half-angle a from distance z + |x| / tan(a) + r / sin(a).
    """
    p = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    r = np.broadcast_to(np.asarray(radii, dtype=np.float64), (len(p),))
    return max(float(np.max(p @ back + np.abs(p @ axis) / tan(half) + r / sin(half)))
               for axis, half in ((right, half_x), (up, half_y)))


def fit_view(centres, radii, elevation: float, azimuth: float, half_x: float, half_y: float):
    """Look-at point, distance and towards-camera vector that fit the balls from one direction.

    ``elevation`` and ``azimuth`` are pyqtgraph's camera angles (degrees).
    The look-at point is the screen-space middle of the content, not the
    middle of its 3D box, so the margins left and right (and above and
    below) come out equal; the distance is :func:`fit_distance`'s.
    """
    centres = np.asarray(centres, dtype=np.float64)
    radii = np.asarray(radii, dtype=np.float64)
    elev, azim = radians(elevation), radians(azimuth)
    # Camera frame: towards the camera, screen right, screen up.
    back = np.array([np.cos(elev) * np.cos(azim), np.cos(elev) * np.sin(azim), np.sin(elev)])
    right = np.array([-np.sin(azim), np.cos(azim), 0.0])
    up = np.cross(back, right)
    flat = centres - np.outer(centres @ back, back)
    mid = sum(axis * (float((flat @ axis + radii).max() + (flat @ axis - radii).min()) / 2)
              for axis in (right, up))
    center = mid + back * float(np.mean(centres @ back))
    return center, fit_distance(centres - center, radii, back, right, up, half_x, half_y), back
