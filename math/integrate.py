"""Integrating a constant angular velocity, and how the result drifts.

The update rules and their drift are those of ``docs/sources.md`` ("Integration
drift"); the lesson presets are described in ``docs/presets.md`` ("Integration").

Quaternions are (w, x, y, z), angles in radians, angular velocities in rad/s.

A rigid body spinning at a constant angular velocity ``omega`` has the exact
orientation

* ``q(t) = exp(omega t / 2) ⊗ q0`` when ``omega`` is given in the **world**
  frame (the increment is multiplied in from the left), and
* ``q(t) = q0 ⊗ exp(omega t / 2)`` when it is given in the **local** (body)
  frame (from the right: ``q_dot = q ω / 2``).

A simulation advances it in steps of ``dt``, either with the **exact** step
(the same exponential for one ``dt``) or with the **first-order** step
``q <- q + dt/2 (0, omega) ⊗ q`` (world) / ``q + dt/2 q ⊗ (0, omega)`` (local),
with or without renormalizing after each step. :func:`integrate` runs the
recursion and reports ``|q| - 1`` and the angle to the exact orientation at
every step, so the lesson can plot both.

Every one of those updates is linear in ``q``, so a step is a 4 x 4 matrix
(:func:`step_matrix`) built from :func:`quatlab.math.quaternion.multiply`;
the recursion is then one matrix-vector product per step.

The same drift exists for matrices: :func:`accumulate_matrix` multiplies a
rotation matrix by the per-step rotation again and again (float32 makes the
rounding visible within seconds of simulated time), measures
``||R^T R - I||`` and optionally repairs it with Gram-Schmidt
(:func:`quatlab.math.matrix.orthonormalize`, keeping a chosen axis).

Examples
--------
>>> import numpy as np
>>> run = integrate([1, 0, 0, 0], [0, 0, np.pi / 2], 1 / 20, 200, step="first_order")
>>> bool(run.norm_drift[-1] > 0.1)           # 10 s at 20 Hz: |q| grew by > 10 %
True
>>> exact = integrate([1, 0, 0, 0], [0, 0, np.pi / 2], 1 / 20, 200, step="exact")
>>> bool(np.max(np.abs(exact.norm_drift)) < 1e-12)
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from quatlab.math.angular_velocity import FRAMES  # the frames, defined with their formulas
from quatlab.math.marks import N_
from quatlab.math.matrix import (
    _shepperd,
    nearest_rotation,
    orthonormality_error,
    orthonormalize,
    to_matrix,
)
from quatlab.math.quaternion import angle_between, as_quaternion, from_rotvec, multiply

__all__ = [
    "FRAMES",
    "STEPS",
    "MAX_STEPS",
    "PRESETS",
    "Integration",
    "MatrixDrift",
    "exact_orientation",
    "step_matrix",
    "integrate",
    "orthonormality_error",
    "accumulate_matrix",
]


#: Step rules of :func:`integrate`.
STEPS = ("exact", "first_order")

#: Upper bound on the number of steps: keeps one evaluation well under a
#: second, so a slider-driven view stays responsive.
MAX_STEPS = 200_000



#: Lesson presets (JSON-able; ``docs/presets.md``, "Integration"). Angular
#: velocities in degrees per second, ``dt`` in seconds.
PRESETS = {
    "first_order_20hz": {
        "label": N_("First-order step at 20 Hz, no renormalization"),
        "description": N_(
            "At 20 Hz the first-order update q + dt/2 q ω drifts visibly: |q| "
            "grows every step and the orientation lags behind the exact spin."
        ),
        "q0": [1.0, 0.0, 0.0, 0.0],
        "omega_deg_per_s": [0.0, 0.0, 90.0],
        "dt": 0.05,
        "steps": 200,
        "frame": "local",
        "step": "first_order",
        "renormalize": False,
    },
    "first_order_renormalized": {
        "label": N_("First-order step, renormalized every step"),
        "description": N_(
            "Renormalizing keeps |q| = 1 but not the angle: each step turns by "
            "2 atan(|ω| dt / 2) instead of |ω| dt, so the lag still grows linearly."
        ),
        "q0": [1.0, 0.0, 0.0, 0.0],
        "omega_deg_per_s": [0.0, 0.0, 90.0],
        "dt": 0.05,
        "steps": 200,
        "frame": "local",
        "step": "first_order",
        "renormalize": True,
    },
    "exact_world_tumble": {
        "label": N_("Exact step, world frame, oblique axis"),
        "description": N_(
            "The exponential increment multiplied in from the left: |q| stays 1 "
            "to rounding and the angle error stays at rounding level."
        ),
        "q0": [0.9238795325112867, 0.0, 0.3826834323650898, 0.0],
        "omega_deg_per_s": [30.0, 50.0, 90.0],
        "dt": 1.0 / 60.0,
        "steps": 600,
        "frame": "world",
        "step": "exact",
        "renormalize": False,
    },
    "matrix_float32": {
        "label": N_("Rotation matrix accumulated in float32"),
        "description": N_(
            "Every matrix product rounds; after thousands of steps R^T R drifts "
            "from I. Gram-Schmidt keeping the first column restores it."
        ),
        "omega_deg_per_s": [30.0, 50.0, 90.0],
        "dt": 1.0 / 60.0,
        "steps": 10_000,
        "frame": "world",
        "dtype": "float32",
        "reorthonormalize_every": 0,
        "keep": 0,
    },
}


# --------------------------------------------------------------------------- validation


def _as_omega(omega) -> np.ndarray:
    try:
        w = np.asarray(omega, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"omega must be a 3-vector of numbers, got {omega!r}") from exc
    if w.shape != (3,):
        raise ValueError(f"omega must have shape (3,) (rad/s), got shape {w.shape}")
    if not np.all(np.isfinite(w)):
        raise ValueError("omega contains NaN or infinite components")
    return w


def _as_dt(dt) -> float:
    try:
        value = float(dt)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"dt must be a positive number of seconds, got {dt!r}") from exc
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"dt must be a positive finite number of seconds, got {dt!r}")
    return value


def _as_steps(steps) -> int:
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)):
        raise ValueError(f"steps must be an integer, got {steps!r}")
    if not 1 <= steps <= MAX_STEPS:
        raise ValueError(f"steps must lie in [1, {MAX_STEPS}], got {steps}")
    return int(steps)


def _as_choice(value, name: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


def _as_single_quaternion(q, name: str) -> np.ndarray:
    q = as_quaternion(q, name)
    if q.shape != (4,):
        raise ValueError(f"{name} must be one quaternion of shape (4,), got shape {q.shape}")
    return q


# --------------------------------------------------------------------------- quaternion


@dataclass(frozen=True)
class Integration:
    """Result of :func:`integrate`: the recursion next to the exact spin.

    ``times`` is ``(n + 1,)`` seconds (step 0 is ``q0``); ``quats`` and
    ``exact`` are ``(n + 1, 4)`` (w, x, y, z), ``quats`` exactly as the
    recursion left them (not normalized unless ``renormalize``);
    ``norm_drift = |q| - 1`` and ``angle_error`` (rad, in [0, pi], sign-blind)
    are ``(n + 1,)``.
    """

    times: np.ndarray
    quats: np.ndarray
    exact: np.ndarray
    norm_drift: np.ndarray
    angle_error: np.ndarray

    @property
    def angle_error_deg(self) -> np.ndarray:
        return np.degrees(self.angle_error)


def exact_orientation(q0, omega, t, *, frame: str = "world") -> np.ndarray:
    """Exact orientation (w, x, y, z) after spinning at constant ``omega`` for ``t`` s.

    ``exp(omega t / 2) ⊗ q0`` for a world-frame ``omega``,
    ``q0 ⊗ exp(omega t / 2)`` for a local one. ``t`` may be an array: the
    result has shape ``t.shape + (4,)``.

    Examples
    --------
    >>> q = exact_orientation([1, 0, 0, 0], [0, 0, np.pi], 0.5)   # 90 deg about Z
    >>> np.round(q, 12)
    array([0.70710678, 0.        , 0.        , 0.70710678])
    """
    q0 = _as_single_quaternion(q0, "q0")
    w = _as_omega(omega)
    frame = _as_choice(frame, "frame", FRAMES)
    t = np.asarray(t, dtype=np.float64)
    if not np.all(np.isfinite(t)):
        raise ValueError("t must be finite")
    turn = from_rotvec(t[..., None] * w)
    return multiply(turn, q0) if frame == "world" else multiply(q0, turn)


def step_matrix(omega, dt, *, frame: str = "world", step: str = "exact") -> np.ndarray:
    """The 4 x 4 matrix ``M`` of one update ``q <- M q`` for (w, x, y, z) column vectors.

    ``exact``: left (world) or right (local) multiplication by
    ``exp(omega dt / 2)``. ``first_order``: ``I + dt/2`` times left or right
    multiplication by the pure quaternion ``(0, omega)``. ``M`` of the exact
    step is orthogonal; the first-order one is ``sqrt(1 + (|omega| dt / 2)^2)``
    times an orthogonal matrix, which is why ``|q|`` grows.

    Examples
    --------
    >>> m = step_matrix([0, 0, 2.0], 0.1, step="first_order")
    >>> round(float(np.linalg.norm(m @ [1, 0, 0, 0])) ** 2, 12)   # 1 + (|w| dt / 2)^2
    1.01
    """
    w = _as_omega(omega)
    dt = _as_dt(dt)
    frame = _as_choice(frame, "frame", FRAMES)
    step = _as_choice(step, "step", STEPS)
    if step == "exact":
        factor = from_rotvec(w * dt)
    else:
        factor = np.concatenate([[0.0], w])
    # Row j of multiply(factor, I) is factor ⊗ e_j, i.e. column j of the
    # left-multiplication matrix; likewise for the right one.
    eye = np.eye(4)
    mult = multiply(factor, eye).T if frame == "world" else multiply(eye, factor).T
    if step == "exact":
        return mult
    return eye + 0.5 * dt * mult


def integrate(
    q0,
    omega,
    dt,
    steps: int,
    *,
    frame: str = "world",
    step: str = "exact",
    renormalize: bool = False,
) -> Integration:
    """Integrate a constant angular velocity step by step and measure the drift.

    Parameters
    ----------
    q0 : array_like, shape (4,)
        Start orientation (w, x, y, z); normalized here.
    omega : array_like, shape (3,)
        Angular velocity, rad/s, in ``frame``.
    dt : float
        Step, seconds (> 0).
    steps : int
        Number of steps, 1 to :data:`MAX_STEPS`.
    frame : {"world", "local"}
        Frame of ``omega``: the increment multiplies from the left or right.
    step : {"exact", "first_order"}
        Exponential step or the first-order step ``q + dt/2 q ω``.
    renormalize : bool
        Divide by ``|q|`` after every step.

    Returns
    -------
    Integration

    Examples
    --------
    >>> run = integrate([1, 0, 0, 0], [0, 0, np.pi / 2], 0.05, 200,
    ...                 step="first_order", renormalize=True)
    >>> bool(np.max(np.abs(run.norm_drift)) < 1e-12)   # |q| held at 1 ...
    True
    >>> round(float(run.angle_error_deg[-1]), 3)        # ... but the angle lags
    0.462
    """
    q0 = _as_single_quaternion(q0, "q0")
    w = _as_omega(omega)
    dt = _as_dt(dt)
    steps = _as_steps(steps)
    frame = _as_choice(frame, "frame", FRAMES)
    step = _as_choice(step, "step", STEPS)
    m = step_matrix(w, dt, frame=frame, step=step)
    quats = np.empty((steps + 1, 4))
    quats[0] = q = q0
    # A plain loop on purpose: the drift being shown is the rounding and
    # truncation of this very recursion, so it must be run, not summed in
    # closed form. A first-order run with a large step grows |q| geometrically
    # until it overflows: that is a result (inf), checked below by
    # angle_between, not a reason for a RuntimeWarning per step.
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(1, steps + 1):
            q = m @ q
            if renormalize:
                q = q / np.sqrt(q @ q)
            quats[k] = q
    times = dt * np.arange(steps + 1)
    exact = exact_orientation(q0, w, times, frame=frame)
    norm_drift = np.sqrt(np.einsum("...i,...i->...", quats, quats)) - 1.0
    return Integration(
        times=times,
        quats=quats,
        exact=exact,
        norm_drift=norm_drift,
        angle_error=angle_between(quats, exact),
    )


# --------------------------------------------------------------------------- matrices


@dataclass(frozen=True)
class MatrixDrift:
    """Result of :func:`accumulate_matrix`.

    ``times`` ``(n + 1,)`` seconds; ``matrices`` ``(n + 1, 3, 3)`` in the
    accumulation dtype; ``orthonormality_error`` ``||R^T R - I||_F`` and
    ``angle_error`` (rad, the rotation nearest ``R`` against the exact one)
    ``(n + 1,)``; ``repaired`` marks the steps after which Gram-Schmidt ran.
    """

    times: np.ndarray
    matrices: np.ndarray
    orthonormality_error: np.ndarray
    angle_error: np.ndarray
    repaired: np.ndarray


_DTYPES = {"float32": np.float32, "float64": np.float64}


def accumulate_matrix(
    omega,
    dt,
    steps: int,
    *,
    frame: str = "world",
    dtype: str = "float32",
    reorthonormalize_every: int = 0,
    keep: int = 0,
) -> MatrixDrift:
    """Accumulate a rotation matrix by repeated products and measure its drift.

    Starting from ``I``, ``R <- dR R`` (world ``omega``) or ``R <- R dR``
    (local), with ``dR`` the exact rotation by ``omega dt``, all in
    ``dtype``. Every ``reorthonormalize_every`` steps (0: never) the matrix
    is repaired with :func:`quatlab.math.matrix.orthonormalize` keeping
    column ``keep`` (0, 1, 2 = x, y, z axis of the body).

    Examples
    --------
    >>> w = np.radians([30.0, 50.0, 90.0])
    >>> raw = accumulate_matrix(w, 1 / 60, 5000)
    >>> bool(raw.orthonormality_error[-1] > 1e-5)          # float32 rounding piles up
    True
    >>> fixed = accumulate_matrix(w, 1 / 60, 5000, reorthonormalize_every=100)
    >>> bool(fixed.orthonormality_error[-1] < 1e-5)
    True
    """
    w = _as_omega(omega)
    dt = _as_dt(dt)
    steps = _as_steps(steps)
    frame = _as_choice(frame, "frame", FRAMES)
    if dtype not in _DTYPES:
        raise ValueError(f"dtype must be one of {tuple(_DTYPES)}, got {dtype!r}")
    ftype = _DTYPES[dtype]
    if (
        isinstance(reorthonormalize_every, bool)
        or not isinstance(reorthonormalize_every, (int, np.integer))
        or reorthonormalize_every < 0
    ):
        raise ValueError(
            "reorthonormalize_every must be a non-negative integer (0 = never), "
            f"got {reorthonormalize_every!r}"
        )
    if keep not in (0, 1, 2):
        raise ValueError(f"keep must be 0, 1 or 2 (the column to keep), got {keep!r}")
    d = to_matrix(from_rotvec(w * dt)).astype(ftype)
    mats = np.empty((steps + 1, 3, 3), dtype=ftype)
    repaired = np.zeros(steps + 1, dtype=bool)
    mats[0] = r = np.eye(3, dtype=ftype)
    for k in range(1, steps + 1):
        r = d @ r if frame == "world" else r @ d
        if reorthonormalize_every and k % reorthonormalize_every == 0:
            r = orthonormalize(r, keep=keep).astype(ftype)
            repaired[k] = True
        mats[k] = r
    times = dt * np.arange(steps + 1)
    # Exact orientation from the identity: world and local agree for a
    # constant omega started at I (both are exp(omega t)).
    exact = from_rotvec(times[:, None] * w)
    return MatrixDrift(
        times=times,
        matrices=mats,
        orthonormality_error=orthonormality_error(mats),
        # A drifted matrix is no rotation (from_matrix rejects it beyond 1e-6);
        # the orientation it stands for is the nearest rotation. That is
        # orthonormal by construction, so from_matrix's checks (a third of
        # the time at MAX_STEPS) are skipped.
        angle_error=angle_between(_shepperd(nearest_rotation(mats)), exact),
        repaired=repaired,
    )
