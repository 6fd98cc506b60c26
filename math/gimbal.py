"""Euler angles, gimbal lock and Euler-angle interpolation.

Angles are radians, in the order of the Euler ``order`` string (scipy's
convention, as :func:`quatlab.math.euler.from_euler`: uppercase is
intrinsic, lowercase extrinsic). Quaternions are (w, x, y, z).

The example of ``docs/sources.md`` ("Gimbal lock") is the intrinsic order ``"YXZ"`` with angles
``(yaw, pitch, roll)``: ``R = Ry(yaw) Rx(pitch) Rz(roll)`` acting on column
vectors. At ``pitch = +90 deg`` the matrix is

.. code-block:: text

    [ cos(yaw-roll), sin(yaw-roll),  0 ]
    [ 0,             0,            -1 ]
    [-sin(yaw-roll), cos(yaw-roll),  0 ]

so only ``yaw - roll`` matters: adding 10 deg to both changes nothing.
:func:`gimbal_readout` finds that combination for any of the 24 orders:
for the intrinsic order ``ABC`` with angles ``(a1, a2, a3)``, rotating the
third axis ``c`` about ``b`` by ``a2`` gives ``s = dot(a, R_b(a2) c)``;
when ``|s| = 1`` the third rotation turns about the first axis and
``R = R_a(a1 + s a3) R_b(a2)``. ``|s|`` is ``|sin a2|`` for Tait-Bryan
orders and ``|cos a2|`` for proper Euler orders, so it also measures how
close the pose is to the lock. (An extrinsic order is the reversed
intrinsic one, and the same combination ``a1 + s a3`` results with
``s = dot(c, R_b(a2) a)``.)

:func:`gimbal_rings` gives the orientation, pivot axis and plane normal of
the three rings of a physical gimbal for an order, for drawing.
:func:`compare_paths` samples linear interpolation of Euler angles next to
SLERP between the same two poses, with the SLERP path's Euler readout and
the places where that readout wraps across +-180 deg.

Examples
--------
>>> import numpy as np
>>> r = gimbal_readout(np.radians([30.0, 90.0, 10.0]), "YXZ")
>>> r.locked, r.expression, round(float(np.degrees(r.combined)), 9)
(True, 'yaw - roll', 20.0)
>>> c = compare_paths(np.radians([170.0, 0, 0]), np.radians([-170.0, 0, 0]), "YXZ")
>>> round(float(np.degrees(c.euler_swept)), 6), round(float(np.degrees(c.slerp_swept)), 6)
(340.0, 20.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from quatlab.math.curves import path_angle
from quatlab.math.euler import from_euler, to_euler
from quatlab.math.interpolate import as_parameter, slerp
from quatlab.math.marks import N_
from quatlab.math.matrix import to_matrix
from quatlab.math.quaternion import angle_between, from_axis_angle, multiply, rotate_vector

__all__ = [
    "DEFAULT_ORDER",
    "ANGLE_NAMES",
    "DEFAULT_SAMPLES",
    "PRESETS",
    "GimbalReadout",
    "gimbal_readout",
    "gimbal_locked",
    "GimbalRings",
    "gimbal_rings",
    "lerp_angles",
    "wrap_jumps",
    "EulerComparison",
    "compare_paths",
]

#: The default order, that of the gimbal lock example in ``docs/sources.md``:
#: intrinsic Y-X-Z, R = Ry(yaw) Rx(pitch) Rz(roll).
DEFAULT_ORDER = "YXZ"

#: Names of the three angles, in order-string position.
ANGLE_NAMES = ("yaw", "pitch", "roll")

#: Samples of :func:`compare_paths` over [0, 1]; odd, so t = 0.5 is one.
DEFAULT_SAMPLES = 181



#: Lesson presets (JSON-able; ``docs/presets.md``, "Euler angles"): Euler angles
#: in degrees.
PRESETS = {
    "pitch90_lock": {
        "label": N_("Gimbal lock: pitch +90 in Y-X-Z"),
        "description": N_(
            "R = Ry(yaw) Rx(pitch) Rz(roll) at pitch 90: only yaw - roll matters. "
            "Adding 10° to yaw and to roll gives the same matrix, and the "
            "interpolation between them does not move at all."
        ),
        "order": "YXZ",
        "start_deg": [30.0, 90.0, 10.0],
        "end_deg": [40.0, 90.0, 20.0],
    },
    "yaw_wrap": {
        "label": N_("Yaw across ±180°"),
        "description": N_(
            "170° to −170° of yaw is a 20° turn. Linear Euler interpolation "
            "turns 340° through 0; SLERP turns 20°, and its Euler readout wraps "
            "from +180 to -180 on the way."
        ),
        "order": "YXZ",
        "start_deg": [170.0, 0.0, 0.0],
        "end_deg": [-170.0, 0.0, 0.0],
    },
    "equivalent_triplet": {
        "label": N_("Two names for pitch 120"),
        "description": N_(
            "(180, 60, 180) is the pose (0, 120, 0): from (0, 60, 0) SLERP tilts 60°, "
            "linear Euler interpolation swings yaw and roll half a turn each and strays "
            "30° from it."
        ),
        "order": "YXZ",
        "start_deg": [0.0, 60.0, 0.0],
        "end_deg": [180.0, 60.0, 180.0],
    },
    "near_lock": {
        "label": N_("Near the lock (pitch 85)"),
        "description": N_(
            "Close to the lock yaw and roll almost cancel: linear Euler interpolation "
            "sweeps twice the angle SLERP needs."
        ),
        "order": "YXZ",
        "start_deg": [-60.0, 85.0, 60.0],
        "end_deg": [60.0, 85.0, -60.0],
    },
    "extrinsic_xyz_lock": {
        "label": N_("Extrinsic x-y-z: y at 90"),
        "description": N_(
            "Fixed axes, R = Rz(c) Ry(b) Rx(a): the lock is where the middle angle is 90 "
            "in this order too, but the gimbal is built the other way round (the outer "
            "ring takes the z angle). At b = 90 only a - c matters: adding 60° to both "
            "gives the same pose, and neither path moves."
        ),
        "order": "xyz",
        "start_deg": [0.0, 90.0, 0.0],
        "end_deg": [60.0, 90.0, 60.0],
    },
}


# --------------------------------------------------------------------------- validation


def _as_angles(angles, name: str, *, rows: bool = False) -> np.ndarray:
    """``angles`` as floats of shape (3,), or (..., 3) with ``rows``, finite."""
    try:
        a = np.asarray(angles, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be three numbers (radians), got {angles!r}") from exc
    if rows and (a.ndim == 0 or a.shape[-1] != 3):
        raise ValueError(f"{name} must have shape (..., 3) (radians), got shape {a.shape}")
    if not rows and a.shape != (3,):
        raise ValueError(f"{name} must have shape (3,) (radians), got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite")
    return a


def _axes(order: str):
    """Unit axes (3, 3) of the order string, validated through from_euler."""
    from_euler(np.zeros(3), order)  # raises ValueError naming `order`
    return np.eye(3)[["xyz".index(c) for c in order.lower()]]


def _wrap(x):
    """Angles wrapped into (-pi, pi]."""
    return np.pi - np.mod(np.pi - x, 2 * np.pi)


# --------------------------------------------------------------------------- readout


@dataclass(frozen=True)
class GimbalReadout:
    """What the Euler lesson prints for one pose.

    ``closeness`` is ``|s|`` in [0, 1] (1 at the lock); ``margin`` the angle
    (rad) the middle angle is from the nearest lock; ``sign`` is ``+1`` or
    ``-1`` (the sign of ``s``); ``combined = a1 + sign * a3`` wrapped into
    (-pi, pi], the only combination of the outer angles that matters at the
    lock, ``expression`` its name (``"yaw - roll"``); ``matrix`` the
    rotation matrix (column vectors), ``quat`` its quaternion (w, x, y, z).
    """

    order: str
    angles: np.ndarray
    closeness: float
    margin: float
    locked: bool
    sign: int
    combined: float
    expression: str
    matrix: np.ndarray
    quat: np.ndarray


def gimbal_readout(
    angles, order: str = DEFAULT_ORDER, *, names=ANGLE_NAMES, tol: float = 1e-6
) -> GimbalReadout:
    """Gimbal-lock readout of Euler ``angles`` (radians) in ``order``.

    ``locked`` is true when the middle angle is within ``tol`` radians of a
    lock (+-90 deg for Tait-Bryan orders, 0 or 180 deg for proper Euler
    orders). ``combined`` and ``expression`` are given for every pose; away
    from the lock they simply describe the pose the lock would collapse to.

    Examples
    --------
    >>> r = gimbal_readout(np.radians([30.0, -90.0, 10.0]))   # pitch -90: the sum
    >>> r.expression, round(float(np.degrees(r.combined)), 9)
    ('yaw + roll', 40.0)
    >>> r = gimbal_readout(np.radians([0.0, 45.0, 0.0]))
    >>> r.locked, round(float(np.degrees(r.margin)), 9)
    (False, 45.0)
    """
    a = _as_angles(angles, "angles")
    if len(names) != 3 or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names must be three strings, got {names!r}")
    if not np.isfinite(tol) or tol < 0:
        raise ValueError(f"tol must be a non-negative number of radians, got {tol!r}")
    s = float(_lock_cosine(a, order))
    closeness = min(abs(s), 1.0)
    sign = -1 if s < 0 else 1
    combined = float(_wrap(a[0] + sign * a[2]))
    q = from_euler(a, order)
    return GimbalReadout(
        order=order,
        angles=a,
        closeness=closeness,
        margin=float(np.arccos(closeness)),
        locked=bool(np.arccos(closeness) <= tol),
        sign=sign,
        combined=combined,
        expression=f"{names[0]} {'-' if sign < 0 else '+'} {names[2]}",
        matrix=to_matrix(q),
        quat=q,
    )


def _lock_cosine(a: np.ndarray, order: str) -> np.ndarray:
    """``s`` of the module docstring for angles ``a`` (..., 3): ``|s| = 1`` at the lock."""
    axes = _axes(order)
    if order.isupper():
        first, third = axes[0], axes[2]
    else:
        # Extrinsic "abc" = intrinsic "CBA" on reversed angles: the roles of
        # the first and third axes swap, the combination keeps its form.
        first, third = axes[2], axes[0]
    turned = rotate_vector(from_axis_angle(axes[1], a[..., 1]), third)
    return turned @ first


def gimbal_locked(angles, order: str = DEFAULT_ORDER, *, tol: float = 1e-6) -> np.ndarray:
    """Whether each pose of ``angles`` (..., 3) is locked: :attr:`GimbalReadout.locked` at once.

    Examples
    --------
    >>> gimbal_locked(np.radians([[30.0, 90.0, 10.0], [0.0, 45.0, 0.0]]), "YXZ").tolist()
    [True, False]
    """
    a = _as_angles(angles, "angles", rows=True)
    if not np.isfinite(tol) or tol < 0:
        raise ValueError(f"tol must be a non-negative number of radians, got {tol!r}")
    return np.arccos(np.minimum(np.abs(_lock_cosine(a, order)), 1.0)) <= tol


# --------------------------------------------------------------------------- rings


@dataclass(frozen=True)
class GimbalRings:
    """Three rings of a physical gimbal for an Euler order, outermost first.

    ``orientations`` ``(3, 4)``: each ring's orientation (w, x, y, z), the
    product of the rotations outside and including it; the innermost ring's
    is the carried object's. ``pivots`` ``(3, 3)``: each ring's rotation
    axis in world coordinates (the outer one is fixed to the base).
    ``normals`` ``(3, 3)``: the unit normal of each ring's plane (the plane
    holds its own pivot and the bearings of the ring inside it), for drawing.
    ``angle_index`` ``(3,)``: which Euler angle turns each ring (outer = the
    first angle of an intrinsic order, the last of an extrinsic one).
    ``axis_letters``: each ring's local axis. Rings of several poses at once
    (angles ``(..., 3)``) have the poses' shape in front of every array.
    """

    order: str
    angles: np.ndarray
    orientations: np.ndarray
    pivots: np.ndarray
    normals: np.ndarray
    angle_index: tuple[int, int, int]
    axis_letters: tuple[str, str, str]


def gimbal_rings(angles, order: str = DEFAULT_ORDER) -> GimbalRings:
    """Ring orientations, pivots and plane normals of a three-ring gimbal.

    For intrinsic ``"ABC"`` the outer ring turns by angle 1 about ``A``, the
    middle one (carried by it) by angle 2 about its ``B``, the inner one by
    angle 3 about its ``C``. An extrinsic ``"abc"`` is the same gimbal built
    for ``"CBA"``: the outer ring takes the last angle. At the lock the outer
    and inner pivots coincide and two ring planes fold together.

    Examples
    --------
    >>> rings = gimbal_rings(np.radians([0.0, 90.0, 0.0]), "YXZ")
    >>> np.round(rings.pivots, 12) + 0.0        # Y, X, and Z turned onto -Y: lock
    array([[ 0.,  1.,  0.],
           [ 1.,  0.,  0.],
           [ 0., -1.,  0.]])
    >>> rings.angle_index, rings.axis_letters
    ((0, 1, 2), ('Y', 'X', 'Z'))

    Several poses at once, ``angles`` ``(..., 3)``: the same rings, stacked.

    >>> many = gimbal_rings(np.radians([[0.0, 90.0, 0.0], [10.0, 20.0, 30.0]]), "YXZ")
    >>> many.pivots.shape, bool(np.array_equal(many.pivots[0], rings.pivots))
    ((2, 3, 3), True)
    """
    a = _as_angles(angles, "angles", rows=True)
    axes = _axes(order)
    letters = tuple(order.upper())
    if order.isupper():
        index = (0, 1, 2)
    else:
        index = (2, 1, 0)
    local = axes[list(index)]
    ring_letters = tuple(letters[i] for i in index)
    steps = from_axis_angle(local, a[..., list(index)])
    orientations = np.empty(a.shape[:-1] + (3, 4))
    orientations[..., 0, :] = steps[..., 0, :]
    orientations[..., 1, :] = multiply(orientations[..., 0, :], steps[..., 1, :])
    orientations[..., 2, :] = multiply(orientations[..., 1, :], steps[..., 2, :])
    # A ring's own pivot is fixed in the frame it hangs from (the ring
    # outside it, or the base); its rotation does not move the axis.
    frames = np.concatenate([np.broadcast_to([1.0, 0.0, 0.0, 0.0], a.shape[:-1] + (1, 4)),
                             orientations[..., :2, :]], axis=-2)
    pivots = rotate_vector(frames, local)
    # Plane normals in each ring's own frame: outer holds (p0, p1), middle
    # (p1, p2); the inner ring's plane holds p2 and is perpendicular to p1,
    # so at rest the three rings of a Tait-Bryan gimbal are mutually
    # perpendicular.
    n_local = np.stack([np.cross(local[0], local[1]), np.cross(local[1], local[2]), local[1]])
    lengths = np.linalg.norm(n_local, axis=-1, keepdims=True)
    # Proper Euler orders repeat an axis (a x b is fine, b x a as well); a
    # zero cross product cannot occur because adjacent axes always differ.
    normals = rotate_vector(orientations, n_local / lengths)
    return GimbalRings(
        order=order,
        angles=a,
        orientations=orientations,
        pivots=pivots,
        normals=normals,
        angle_index=index,
        axis_letters=ring_letters,
    )


# --------------------------------------------------------------------------- paths


def lerp_angles(angles0, angles1, t, *, wrap: bool = False) -> np.ndarray:
    """Linear interpolation of Euler angles, ``(..., 3)`` for ``t`` of shape ``(...)``.

    ``wrap=False`` interpolates the numbers as given (170 to -170 goes
    through 0); ``wrap=True`` first wraps each difference into (-pi, pi],
    the usual per-angle fix (170 to -170 goes through 180). Neither is the
    shortest rotation in general.

    Examples
    --------
    >>> a0, a1 = np.radians([170.0, 0, 0]), np.radians([-170.0, 0, 0])
    >>> np.degrees(lerp_angles(a0, a1, 0.5)).round(9) + 0.0
    array([0., 0., 0.])
    >>> np.degrees(lerp_angles(a0, a1, 0.5, wrap=True)).round(9) + 0.0
    array([180.,   0.,   0.])
    """
    a0 = _as_angles(angles0, "angles0")
    a1 = _as_angles(angles1, "angles1")
    t = as_parameter(t)
    delta = a1 - a0
    if wrap:
        delta = _wrap(delta)
    return a0 + t[..., None] * delta


def wrap_jumps(angles, threshold: float = np.pi) -> np.ndarray:
    """Mask ``(M, 3)`` of samples whose angle jumped by more than ``threshold`` from the previous.

    A readout in (-pi, pi] that crosses +-180 deg jumps by almost 2 pi:
    a plot should break the line there. Row 0 is always False.

    Examples
    --------
    >>> readout = np.radians([[170.0, 0, 0], [179.0, 0, 0], [-179.0, 0, 0]])
    >>> wrap_jumps(readout)[:, 0].tolist()
    [False, False, True]
    """
    try:
        a = np.asarray(angles, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"angles must be numeric, got {angles!r}") from exc
    if a.ndim != 2 or a.shape[1] != 3:
        raise ValueError(f"angles must have shape (M, 3), got shape {a.shape}")
    if not np.isfinite(threshold) or threshold <= 0:
        raise ValueError(f"threshold must be a positive number of radians, got {threshold!r}")
    out = np.zeros(a.shape, dtype=bool)
    out[1:] = np.abs(np.diff(a, axis=0)) > threshold
    return out


@dataclass(frozen=True)
class EulerComparison:
    """Linear Euler interpolation against SLERP between the same two poses.

    ``t`` ``(M,)`` in [0, 1]. ``euler_angles`` ``(M, 3)``: the interpolated
    angles as animated; ``euler_quats`` and ``slerp_quats`` ``(M, 4)``
    (w, x, y, z); ``slerp_euler`` ``(M, 3)``: the SLERP path read back as
    Euler angles (each in (-pi, pi], the middle one per the order's range);
    ``slerp_wraps`` ``(M, 3)`` where that readout wraps (see
    :func:`wrap_jumps`). ``euler_angle``/``slerp_angle`` ``(M,)``: path angle
    from the start pose (rad, as in the two-key plots); ``deviation`` ``(M,)``
    the rotation angle between the two paths; ``euler_swept``/``slerp_swept``
    the total angle each path turns through (rad).
    """

    order: str
    t: np.ndarray
    euler_angles: np.ndarray
    euler_quats: np.ndarray
    slerp_quats: np.ndarray
    slerp_euler: np.ndarray
    slerp_wraps: np.ndarray
    euler_angle: np.ndarray
    slerp_angle: np.ndarray
    deviation: np.ndarray
    euler_swept: float
    slerp_swept: float


def compare_paths(
    angles0,
    angles1,
    order: str = DEFAULT_ORDER,
    t=None,
    *,
    samples: int = DEFAULT_SAMPLES,
    wrap: bool = False,
) -> EulerComparison:
    """Sample linear Euler interpolation and shortest SLERP between two Euler poses.

    Parameters
    ----------
    angles0, angles1 : array_like, shape (3,)
        Start and end angles (radians) in ``order``.
    order : str
        One of the 24 Euler orders (scipy convention).
    t : array_like, shape (M,), optional
        Parameters in [0, 1]; default ``samples`` evenly spaced.
    wrap : bool
        Wrap each angle difference into (-pi, pi] before interpolating.

    Examples
    --------
    >>> p = PRESETS["equivalent_triplet"]
    >>> c = compare_paths(np.radians(p["start_deg"]), np.radians(p["end_deg"]), p["order"])
    >>> round(float(np.degrees(c.slerp_swept)), 6), round(float(np.degrees(c.deviation.max())), 6)
    (60.0, 30.0)
    """
    a0 = _as_angles(angles0, "angles0")
    a1 = _as_angles(angles1, "angles1")
    _axes(order)
    if t is None:
        if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 2:
            raise ValueError(f"samples must be an integer of at least 2, got {samples!r}")
        t = np.linspace(0.0, 1.0, int(samples))
    t = np.atleast_1d(as_parameter(t))
    if t.ndim != 1:
        raise ValueError(f"t must be one-dimensional, got shape {t.shape}")
    euler = lerp_angles(a0, a1, t, wrap=wrap)
    qe = from_euler(euler, order)
    q0 = from_euler(a0, order)
    qs = slerp(q0, from_euler(a1, order), t)
    readout = to_euler(qs, order)

    def swept(q):
        # Sum of the rotation between consecutive samples: the angle the
        # path turns through (exact for SLERP, a fine sampling for Euler).
        return float(np.sum(angle_between(q[:-1], q[1:]))) if len(q) > 1 else 0.0

    return EulerComparison(
        order=order,
        t=t,
        euler_angles=euler,
        euler_quats=qe,
        slerp_quats=qs,
        slerp_euler=readout,
        slerp_wraps=wrap_jumps(readout),
        euler_angle=path_angle(q0, qe),
        slerp_angle=path_angle(q0, qs),
        deviation=angle_between(qe, qs),
        euler_swept=swept(qe),
        slerp_swept=swept(qs),
    )
