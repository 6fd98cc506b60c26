"""Path angle and angular speed of the four interpolation methods (``docs/curves.md``).

One function, :func:`compute_curves`, produces exactly what the plots show,
what ``quatlab curves`` prints and what the tests check, for the four methods
of :data:`METHODS`:

``naive_nlerp``, ``shortest_nlerp``, ``naive_slerp``, ``shortest_slerp``
    "naive" interpolates the stored components; "shortest" flips ``q1`` to
    ``-q1`` when ``dot(q0, q1) < 0``.

Definitions (``docs/curves.md``, "Path angle" and "Angular speed"), for unit q0
and the path q(t):

* **path angle** ``theta(t) = 2 atan2(|vec r|, w(r))`` with
  ``r = conj(q0) ⊗ q(t)``: the angle swept from q0, in [0, 2 pi]. The long
  way shows as ``theta(1) = 2 pi - short angle``.
* **angular speed** ``omega(t) = 2 |dq/dt|``, analytic: for SLERP the constant
  ``2 W`` (W the 4D angle of the arc); for NLERP, with
  ``p(t) = (1 - t) a + t b``, ``omega = 2 sin(W) / |p(t)|^2`` (the 4D
  bivector ``p ∧ p'`` equals ``a ∧ b``, whose size is ``sin W``).

A value that does not exist is NaN, never an invented number: the naive NLERP
of q and -q at its collapse point, and naive SLERP between exact antipodes.
:attr:`Curves.notes` says why.

Examples
--------
The 20 degree turn stored as -q (``docs/sources.md``, "Sign flips"):

>>> import numpy as np
>>> from quatlab.math import quaternion as Q
>>> q1 = -Q.from_axis_angle([0, 0, 1], np.radians(20))
>>> c = compute_curves(Q.IDENTITY, q1, samples=3)
>>> np.round(c["naive_nlerp"].angle_deg, 6).tolist()
[0.0, 170.0, 340.0]
>>> np.round(c["shortest_nlerp"].angle_deg, 6).tolist()
[0.0, 10.0, 20.0]
>>> np.round(c["shortest_slerp"].speed_deg, 6).tolist()
[20.0, 20.0, 20.0]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from quatlab.math.great_circle import arc_frame
from quatlab.math.interpolate import COLLAPSE_EPS, _lerp, as_parameter, slerp
from quatlab.math.marks import N_
from quatlab.math.quaternion import angle_between, as_quaternion, conjugate, exp, log, multiply

__all__ = [
    "METHODS",
    "METHOD_LABELS",
    "MethodCurve",
    "Curves",
    "compute_curves",
    "nlerp_path",
    "path_angle",
    "DEFAULT_SAMPLES",
]

#: The four methods, in the order every view lists them.
METHODS = ("naive_nlerp", "shortest_nlerp", "naive_slerp", "shortest_slerp")

#: Human-readable names of :data:`METHODS`.
METHOD_LABELS = {
    "naive_nlerp": N_("naive NLERP"),
    "shortest_nlerp": N_("shortest NLERP"),
    "naive_slerp": N_("naive SLERP"),
    "shortest_slerp": N_("shortest SLERP"),
}

#: Samples over [0, 1] used by the plots; odd, so t = 0.5 (the collapse
#: point of q -> -q) is one of them.
DEFAULT_SAMPLES = 501


@dataclass(frozen=True)
class MethodCurve:
    """One method's path, sampled: quaternions (w, x, y, z), angle and speed.

    ``quats`` is ``(N, 4)``; ``angle`` (rad) and ``speed`` (rad per unit t) are
    ``(N,)``; NaN marks samples where the value does not exist.
    """

    name: str
    quats: np.ndarray
    angle: np.ndarray
    speed: np.ndarray

    @property
    def label(self) -> str:
        return METHOD_LABELS[self.name]

    @property
    def angle_deg(self) -> np.ndarray:
        return np.degrees(self.angle)

    @property
    def speed_deg(self) -> np.ndarray:
        return np.degrees(self.speed)

    @property
    def defined(self) -> np.ndarray:
        """Boolean mask of the samples where the path exists."""
        return np.isfinite(self.angle)


@dataclass(frozen=True)
class Curves:
    """The four methods' curves between ``q0`` and ``q1`` at parameters ``t``.

    ``q0``/``q1`` are the normalized endpoints as stored (not flipped);
    ``dot`` is their 4D dot product; ``notes`` explains every gap.
    """

    t: np.ndarray
    q0: np.ndarray
    q1: np.ndarray
    dot: float
    methods: dict[str, MethodCurve]
    notes: tuple[str, ...] = field(default=())

    def __getitem__(self, name: str) -> MethodCurve:
        return self.methods[name]

    @property
    def shortest_flips(self) -> bool:
        """True when the shortest methods use ``-q1`` (dot < 0)."""
        return self.dot < 0

    @property
    def short_angle(self) -> float:
        """Rotation angle between the two endpoint rotations, radians in [0, pi]."""
        return float(angle_between(self.q0, self.q1))


def path_angle(q0, q) -> np.ndarray:
    """Angle in [0, 2 pi] swept from ``q0`` to ``q`` along a path (w, x, y, z).

    ``2 atan2(|vec r|, w(r))`` with ``r = conj(q0) ⊗ q``. Unlike
    :func:`quatlab.math.quaternion.angle_between` it is *not* sign-invariant:
    ``-q`` reads as ``2 pi`` minus the angle of ``q``, which is how a path that
    went the long way shows itself.

    Examples
    --------
    >>> round(float(np.degrees(path_angle([1, 0, 0, 0], [-1, 0, 0, 0]))), 9)
    360.0
    """
    r = multiply(conjugate(as_quaternion(q0, "q0")), np.asarray(q, dtype=np.float64))
    return 2.0 * np.arctan2(np.linalg.norm(r[..., 1:], axis=-1), r[..., 0])


def nlerp_path(a: np.ndarray, b: np.ndarray, t: np.ndarray):
    """NLERP from unit ``a`` to unit ``b`` (as given, no flip) and its analytic speed.

    ``a`` and ``b`` are one pair ``(4,)`` or one pair per parameter ``(N, 4)``.
    Returns ``(quats (N, 4), speed (N,))`` for parameters ``t`` (N,), speed in
    rad per unit t: ``2 sin(W) / |p(t)|^2`` with ``p = (1 - t) a + t b``.
    Rows where ``|p|^2`` < :data:`~quatlab.math.interpolate.COLLAPSE_EPS`
    (the collapse) are NaN in both. No validation: callers pass unit arrays.

    Examples
    --------
    >>> q, w = nlerp_path(np.array([1.0, 0, 0, 0]), np.array([-1.0, 0, 0, 0]),
    ...                   np.array([0.0, 0.5]))
    >>> w.tolist()
    [0.0, nan]
    """
    _, u = arc_frame(a, b)
    m, n2 = _lerp(a, b, t)
    collapsed = n2 < COLLAPSE_EPS
    with np.errstate(invalid="ignore", divide="ignore"):
        quats = m / np.sqrt(n2)[:, None]
        # sin(W) as b . u: exactly 0 for q -> -q, where sin(pi) would leave 1e-16.
        sin_w = float(b @ u) if b.ndim == 1 else np.einsum("...i,...i->...", b, u)
        speed = 2.0 * sin_w / n2
    quats[collapsed] = np.nan
    speed[collapsed] = np.nan
    return quats, speed


def compute_curves(q0, q1, t=None, *, samples: int = DEFAULT_SAMPLES) -> Curves:
    """Sample the four methods between (w, x, y, z) quaternions ``q0`` and ``q1``.

    Parameters
    ----------
    q0, q1 : array_like, shape (4,)
        Endpoints, (w, x, y, z); normalized here, validated like
        :func:`quatlab.math.interpolate.nlerp`.
    t : array_like, shape (N,), optional
        Parameters in [0, 1]. Default: ``samples`` evenly spaced, 0 and 1
        included.
    samples : int
        Number of samples when ``t`` is not given (at least 2).

    Examples
    --------
    >>> c = compute_curves([1, 0, 0, 0], [-1, 0, 0, 0], samples=3)   # q -> -q
    >>> c["naive_nlerp"].angle_deg.tolist()
    [0.0, nan, 360.0]
    >>> c["shortest_nlerp"].angle_deg.tolist()
    [0.0, 0.0, 0.0]
    """
    a = as_quaternion(q0, "q0")
    b = as_quaternion(q1, "q1")
    if a.shape != (4,) or b.shape != (4,):
        raise ValueError(
            f"q0 and q1 must each be one quaternion of shape (4,), got {a.shape} and {b.shape}"
        )
    if t is None:
        if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 2:
            raise ValueError(f"samples must be an integer of at least 2, got {samples!r}")
        t = np.linspace(0.0, 1.0, int(samples))
    t = np.atleast_1d(as_parameter(t))
    if t.ndim != 1:
        raise ValueError(f"t must be one-dimensional, got shape {t.shape}")
    d = float(a @ b)
    notes: list[str] = []
    methods: dict[str, MethodCurve] = {}
    for shortest in (False, True):
        # Strictly below zero: at dot == 0 the stored sign is kept
        # (docs/interpolation.md, "Shortest-arc rule").
        end = -b if (shortest and d < 0) else b
        omega, u = arc_frame(a, end)
        kind = "shortest" if shortest else "naive"

        quats, speed = nlerp_path(a, end, t)
        collapsed = np.isnan(speed)
        if np.any(collapsed):
            t_bad = ", ".join(f"{x:g}" for x in t[collapsed][:3])
            notes.append(
                f"{kind} NLERP collapses at t = {t_bad}: (1 - t) q0 + t q1 has zero length "
                "because q1 = -q0, so the rotation, its angle and its speed do not exist there"
            )
        methods[f"{kind}_nlerp"] = MethodCurve(f"{kind}_nlerp", quats, path_angle(a, quats), speed)

        # SLERP: cos(t omega) a + sin(t omega) u, speed 2 omega.
        if omega > 3.0 and not np.any(u):
            inner = (t > 0) & (t < 1)
            quats = np.where(t[:, None] >= 1, end, a)
            quats[inner] = np.nan
            speed = np.full(t.shape, np.nan)
            notes.append(
                f"{kind} SLERP is undefined between exact antipodes (q1 = -q0): every great "
                "circle joins them, so there is no unique path for 0 < t < 1"
            )
        else:
            angle = t * omega
            quats = np.cos(angle)[:, None] * a + np.sin(angle)[:, None] * u
            speed = np.full(t.shape, 2.0 * omega)
        methods[f"{kind}_slerp"] = MethodCurve(f"{kind}_slerp", quats, path_angle(a, quats), speed)
    return Curves(t=t, q0=a, q1=b, dot=d, methods={k: methods[k] for k in METHODS},
                  notes=tuple(notes))


# --------------------------------------------------------------------------- SQUAD speed

# The analytic angular speed of a SQUAD segment, for the track curves
# (quatlab.math.track): the same definition, 2 |dq/dt|, as the two-key
# methods above (docs/curves.md, "Angular speed"), through the derivatives of
# exp and log.


def _pure(v):
    """Pure quaternion(s) (0, v) from 3-vector(s) v."""
    return np.concatenate([np.zeros(v.shape[:-1] + (1,)), v], axis=-1)


def _dexp(v, dv):
    """Derivative of ``exp((0, v))`` along ``dv`` (3-vectors), a quaternion.

    ``exp = (cos r, sinc(r) v)`` with ``r = |v|``; differentiating gives
    ``(-sinc(r) v.dv, sinc(r) dv + g(r) (v.dv) v)`` with
    ``g(r) = (r cos r - sin r) / r^3``, whose series ``-1/3 + r^2/30`` is used
    near 0 where the closed form cancels.
    """
    r = np.linalg.norm(v, axis=-1)
    sinc = np.sinc(r / np.pi)
    small = r < 1e-3
    rs = np.where(small, 1.0, r)
    g = np.where(small, -1.0 / 3.0 + r * r / 30.0, (rs * np.cos(rs) - np.sin(rs)) / rs**3)
    vdv = np.einsum("...i,...i->...", v, dv)
    w = -sinc * vdv
    vec = sinc[..., None] * dv + (g * vdv)[..., None] * v
    return np.concatenate([w[..., None], vec], axis=-1)


def _dlog(c, dc):
    """Derivative of the vector part of ``log(c)`` for unit ``c`` along tangent ``dc``.

    ``log(c) = phi v / s`` with ``s = |v|``, ``phi = atan2(s, w)``;
    differentiating gives ``f dv + k (v.dv) v - dw v`` with ``f = phi / s`` and
    ``k = (w s - phi) / s^3``; near ``phi = 0`` their series
    ``1 + phi^2/6`` and ``-2/3 - phi^2/5`` replace the cancelling closed
    forms. Singular at ``c = -1`` (the logarithm has no direction there).
    """
    w = c[..., 0]
    v = c[..., 1:]
    s = np.linalg.norm(v, axis=-1)
    phi = np.arctan2(s, w)
    small = phi < 1e-3
    ss = np.where(small, 1.0, s)
    f = np.where(small, 1.0 + phi * phi / 6.0, phi / ss)
    k = np.where(small, -2.0 / 3.0 - phi * phi / 5.0, (w * ss - phi) / ss**3)
    dw = dc[..., 0]
    dv = dc[..., 1:]
    vdv = np.einsum("...i,...i->...", v, dv)
    return f[..., None] * dv + (k * vdv - dw)[..., None] * v


def _squad_speed(a, b, c, d, u):
    """``2 |dq/du|`` of SQUAD ``q(u) = slerp(P, S, h)``, ``P``/``S`` the slerps of a, b / c, d.

    All slerps take the quaternions as given (the caller aligned them); see
    :func:`_squad_derivative`.
    """
    return 2.0 * np.linalg.norm(_squad_derivative(a, b, c, d, u)[1], axis=-1)


def _squad_derivative(a, b, c, d, u):
    """``q(u)`` and ``dq/du`` of SQUAD ``q(u) = slerp(P, S, h)`` (both ``(..., 4)``).

    All slerps take the quaternions as given (the caller aligned them).
    Writing ``P = a exp(u L0)``, ``S = c exp(u L1)`` (``L0 = log(a^-1 b)``,
    ``L1 = log(c^-1 d)``), ``C = P^-1 S``, ``V = h log C`` with
    ``h = 2 u (1 - u)``:

    * ``q = P exp(V)``;
    * ``C' = -L0 C + C L1`` (from ``P' = P L0``, ``S' = S L1``);
    * ``V' = h' log C + h dlog_C(C')``;
    * ``q' = P L0 exp(V) + P dexp_V(V')``.
    """
    l0 = log(multiply(conjugate(a), b))[..., 1:]
    l1 = log(multiply(conjugate(c), d))[..., 1:]
    p = slerp(a, b, u, shortest=False)
    s = slerp(c, d, u, shortest=False)
    cc = multiply(conjugate(p), s)
    lam = log(cc)[..., 1:]
    h = (2.0 * u * (1.0 - u))[..., None]
    hp = (2.0 - 4.0 * u)[..., None]
    dc = multiply(cc, _pure(l1)) - multiply(_pure(l0), cc)
    v = h * lam
    dv = hp * lam + h * _dlog(cc, dc)
    e = exp(_pure(v))
    dq = multiply(p, multiply(_pure(l0), e) + _dexp(v, dv))
    return multiply(p, e), dq
