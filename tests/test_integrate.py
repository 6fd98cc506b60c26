"""Angular-velocity integration and matrix drift (quatlab.math.integrate).

Oracles: scipy's Rotation for the exact spin, and closed forms derived here
for the first-order step. One first-order step multiplies q by the quaternion
(1, omega dt / 2) (from the left or right): its length is
sqrt(1 + (|omega| dt / 2)^2) and its rotation angle 2 atan(|omega| dt / 2)
about omega, instead of |omega| dt. Because every step uses the same factor,
k steps give |q_k| = (1 + (|omega| dt/2)^2)^(k/2) exactly and a rotation by
k * 2 atan(|omega| dt / 2), renormalized or not.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from quatlab.math import integrate as I
from quatlab.math import matrix as M
from quatlab.math import quaternion as Q


def _scipy(q):
    return Rotation.from_quat(Q.to_xyzw(q))


def _angle(a, b):
    """Rotation angle between two sets of (w, x, y, z) quaternions, via scipy."""
    return (_scipy(a).inv() * _scipy(b)).magnitude()


Q0 = Q.from_axis_angle([1.0, 2.0, -0.5], 0.7)
OMEGA = np.radians([30.0, -50.0, 90.0])


# --------------------------------------------------------------------------- exact spin


@pytest.mark.parametrize("frame", I.FRAMES)
def test_exact_orientation_matches_scipy_composition(frame):
    t = np.linspace(0.0, 7.0, 15)
    q = I.exact_orientation(Q0, OMEGA, t, frame=frame)
    spin = Rotation.from_rotvec(t[:, None] * OMEGA)
    # scipy: a * b applies b first, like quaternion.multiply.
    expected = spin * _scipy(Q0) if frame == "world" else _scipy(Q0) * spin
    assert np.all((expected.inv() * _scipy(q)).magnitude() < 1e-12)


def test_world_and_local_differ_unless_they_commute():
    t = 1.5
    world = I.exact_orientation(Q0, OMEGA, t, frame="world")
    local = I.exact_orientation(Q0, OMEGA, t, frame="local")
    assert _angle(world, local) > 0.1
    # From the identity they agree: exp(w t) either way.
    assert _angle(
        I.exact_orientation(Q.IDENTITY, OMEGA, t, frame="world"),
        I.exact_orientation(Q.IDENTITY, OMEGA, t, frame="local"),
    ) < 1e-12


@pytest.mark.parametrize("frame", I.FRAMES)
def test_exact_step_keeps_unit_length_and_follows_scipy(frame):
    run = I.integrate(Q0, OMEGA, 1 / 60, 10_000, frame=frame, step="exact")
    # Seed figure: the exact step keeps |q| = 1 to 1e-12 without renormalizing.
    assert np.max(np.abs(run.norm_drift)) < 1e-12
    assert np.max(run.angle_error) < 1e-10
    expected = I.exact_orientation(Q0, OMEGA, run.times, frame=frame)
    assert np.max(_angle(run.quats / np.linalg.norm(run.quats, axis=1)[:, None], expected)) < 1e-10
    assert run.times[-1] == pytest.approx(10_000 / 60)
    assert run.quats.shape == (10_001, 4) and np.array_equal(run.quats[0], Q0)


# --------------------------------------------------------------------------- first order


@pytest.mark.parametrize("frame", I.FRAMES)
def test_first_order_norm_grows_by_the_closed_form(frame):
    dt, steps = 0.05, 200
    run = I.integrate(Q0, OMEGA, dt, steps, frame=frame, step="first_order")
    half = np.linalg.norm(OMEGA) * dt / 2
    k = np.arange(steps + 1)
    expected = (1 + half**2) ** (k / 2) - 1
    np.testing.assert_allclose(run.norm_drift, expected, rtol=1e-9, atol=1e-15)
    # Without renormalization the drift only grows (seed 002).
    assert np.all(np.diff(run.norm_drift) > 0)


@pytest.mark.parametrize("frame", I.FRAMES)
@pytest.mark.parametrize("renormalize", [False, True])
def test_first_order_rotation_lags_by_the_closed_form(frame, renormalize):
    dt, steps = 0.05, 200
    run = I.integrate(
        Q0, OMEGA, dt, steps, frame=frame, step="first_order", renormalize=renormalize
    )
    speed = np.linalg.norm(OMEGA)
    per_step = 2 * np.arctan(speed * dt / 2)
    k = np.arange(steps + 1)
    np.testing.assert_allclose(run.angle_error, k * (speed * dt - per_step), atol=1e-11)
    # The direction of q is exactly the spin at the slower effective rate.
    slower = I.exact_orientation(Q0, OMEGA * per_step / (speed * dt), run.times, frame=frame)
    assert np.max(_angle(run.quats, slower)) < 1e-10
    if renormalize:
        assert np.max(np.abs(run.norm_drift)) < 1e-12


def test_first_order_renormalized_still_drifts_in_angle_but_not_in_length():
    raw = I.integrate(Q0, OMEGA, 0.05, 200, step="first_order")
    fixed = I.integrate(Q0, OMEGA, 0.05, 200, step="first_order", renormalize=True)
    assert raw.norm_drift[-1] > 0.1
    assert abs(fixed.norm_drift[-1]) < 1e-12
    np.testing.assert_allclose(fixed.angle_error, raw.angle_error, atol=1e-12)
    np.testing.assert_allclose(
        fixed.quats, raw.quats / np.linalg.norm(raw.quats, axis=1)[:, None], atol=1e-12
    )


def test_zero_angular_velocity_keeps_the_pose():
    for step in I.STEPS:
        run = I.integrate(Q0, [0, 0, 0], 0.1, 10, step=step)
        np.testing.assert_array_equal(run.quats, np.broadcast_to(Q0, (11, 4)))
        assert np.max(run.angle_error) == 0


@pytest.mark.parametrize("frame", I.FRAMES)
def test_step_matrix_structure(frame):
    exact = I.step_matrix(OMEGA, 0.1, frame=frame, step="exact")
    np.testing.assert_allclose(exact.T @ exact, np.eye(4), atol=1e-15)
    first = I.step_matrix(OMEGA, 0.1, frame=frame, step="first_order")
    scale2 = 1 + (np.linalg.norm(OMEGA) * 0.1 / 2) ** 2
    np.testing.assert_allclose(first.T @ first, scale2 * np.eye(4), atol=1e-15)
    # Applied to a quaternion it is the product of seed 004's formula.
    incr = Q.from_rotvec(OMEGA * 0.1)
    expected = Q.multiply(incr, Q0) if frame == "world" else Q.multiply(Q0, incr)
    np.testing.assert_allclose(exact @ Q0, expected, atol=1e-15)


@settings(max_examples=40, deadline=None)
@given(
    axis=st.lists(st.floats(-1, 1), min_size=3, max_size=3).filter(
        lambda v: np.linalg.norm(v) > 0.1
    ),
    rate=st.floats(0.01, 10.0),
    dt=st.floats(1e-3, 0.1),
    steps=st.integers(1, 60),
    frame=st.sampled_from(I.FRAMES),
    start=st.lists(st.floats(-1, 1), min_size=4, max_size=4).filter(
        lambda v: np.linalg.norm(v) > 0.1
    ),
)
def test_property_exact_step_agrees_with_scipy(axis, rate, dt, steps, frame, start):
    omega = rate * np.asarray(axis) / np.linalg.norm(axis)
    run = I.integrate(start, omega, dt, steps, frame=frame, step="exact")
    spin = Rotation.from_rotvec(steps * dt * omega)
    q0 = _scipy(Q.normalize(start))
    expected = spin * q0 if frame == "world" else q0 * spin
    assert (expected.inv() * _scipy(run.quats[-1])).magnitude() < 1e-10
    assert abs(run.norm_drift[-1]) < 1e-13


# --------------------------------------------------------------------------- matrices


def test_orthonormality_error():
    assert I.orthonormality_error(np.eye(3)) == 0
    r = M.to_matrix(Q0)
    assert I.orthonormality_error(r) < 1e-15
    np.testing.assert_allclose(I.orthonormality_error(np.stack([np.eye(3), 2 * np.eye(3)])),
                               [0.0, 3 * np.sqrt(3)])


def test_float64_matrix_accumulation_barely_drifts():
    run = I.accumulate_matrix(OMEGA, 1 / 60, 10_000, dtype="float64")
    assert run.matrices.dtype == np.float64
    assert run.orthonormality_error[-1] < 1e-10
    expected = Rotation.from_rotvec(run.times[-1] * OMEGA).as_matrix()
    np.testing.assert_allclose(run.matrices[-1], expected, atol=1e-9)


@pytest.mark.parametrize("frame", I.FRAMES)
def test_float32_matrix_drifts_and_gram_schmidt_restores_it(frame):
    raw = I.accumulate_matrix(OMEGA, 1 / 60, 6000, frame=frame)
    assert raw.matrices.dtype == np.float32
    err = raw.orthonormality_error
    # Seed 004: rounding accumulates with the number of products.
    assert err[600] > 1e-6 and err[6000] > 5 * err[600] and err[6000] > 2e-5
    assert not raw.repaired.any()

    keep = 2
    fixed = I.accumulate_matrix(OMEGA, 1 / 60, 6000, frame=frame, reorthonormalize_every=50,
                                keep=keep)
    assert fixed.repaired[50] and fixed.repaired[6000] and not fixed.repaired[49]
    assert fixed.repaired.sum() == 120
    assert np.max(fixed.orthonormality_error[fixed.repaired]) < 1e-6
    assert np.max(fixed.orthonormality_error) < 1e-5
    # The kept axis keeps its direction through the repair.
    d = Rotation.from_rotvec(OMEGA / 60).as_matrix().astype(np.float32)
    before = d @ fixed.matrices[49] if frame == "world" else fixed.matrices[49] @ d
    col = before[:, keep] / np.linalg.norm(before[:, keep])
    np.testing.assert_allclose(fixed.matrices[50][:, keep], col, atol=1e-6)
    # And the rotation it encodes is still the spin (float32 accuracy).
    assert np.max(fixed.angle_error) < 1e-3
    assert np.all(np.linalg.det(fixed.matrices[fixed.repaired].astype(float)) > 0.999)


def test_matrix_angle_error_matches_scipy_reading():
    run = I.accumulate_matrix(OMEGA, 1 / 60, 300)
    k = 300
    exact = Rotation.from_rotvec(run.times[k] * OMEGA)
    got = Rotation.from_matrix(run.matrices[k].astype(float))
    assert run.angle_error[k] == pytest.approx((exact.inv() * got).magnitude(), abs=1e-6)


# --------------------------------------------------------------------------- presets


def test_presets_show_what_they_describe():
    for name, p in I.PRESETS.items():
        omega = np.radians(p["omega_deg_per_s"])
        if "dtype" in p:
            run = I.accumulate_matrix(
                omega, p["dt"], p["steps"], frame=p["frame"], dtype=p["dtype"],
                reorthonormalize_every=p["reorthonormalize_every"], keep=p["keep"],
            )
            assert run.orthonormality_error[-1] > 1e-4, name
            continue
        run = I.integrate(p["q0"], omega, p["dt"], p["steps"], frame=p["frame"],
                          step=p["step"], renormalize=p["renormalize"])
        if p["step"] == "exact":
            assert np.max(np.abs(run.norm_drift)) < 1e-12, name
            assert np.max(run.angle_error) < 1e-10, name
        elif p["renormalize"]:
            assert np.max(np.abs(run.norm_drift)) < 1e-12, name
            assert run.angle_error_deg[-1] > 0.3, name
        else:
            assert run.norm_drift[-1] > 0.1, name


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"q0": [0, 0, 0, 0]}, "q0 has zero length"),
        ({"q0": [[1, 0, 0, 0]] * 2}, "q0 must be one quaternion"),
        ({"q0": [1, 0, 0]}, "q0 must have shape"),
        ({"omega": [1, 2]}, "omega must have shape"),
        ({"omega": [1, np.nan, 0]}, "omega contains NaN"),
        ({"omega": "fast"}, "omega must be a 3-vector"),
        ({"dt": 0}, "dt must be a positive"),
        ({"dt": -0.1}, "dt must be a positive"),
        ({"dt": np.inf}, "dt must be a positive"),
        ({"dt": "x"}, "dt must be a positive"),
        ({"steps": 0}, "steps must lie in"),
        ({"steps": I.MAX_STEPS + 1}, "steps must lie in"),
        ({"steps": 2.0}, "steps must be an integer"),
        ({"steps": True}, "steps must be an integer"),
        ({"frame": "body"}, "frame must be one of"),
        ({"step": "rk4"}, "step must be one of"),
    ],
)
def test_integrate_rejects_bad_input(kwargs, match):
    args = {"q0": Q.IDENTITY, "omega": OMEGA, "dt": 0.1, "steps": 3} | kwargs
    with pytest.raises(ValueError, match=match):
        I.integrate(args.pop("q0"), args.pop("omega"), args.pop("dt"), args.pop("steps"),
                    **args)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"dtype": "float16"}, "dtype must be one of"),
        ({"reorthonormalize_every": -1}, "reorthonormalize_every must be"),
        ({"reorthonormalize_every": True}, "reorthonormalize_every must be"),
        ({"keep": 3}, "keep must be 0, 1 or 2"),
        ({"frame": "x"}, "frame must be one of"),
        ({"steps": 0}, "steps must lie in"),
    ],
)
def test_accumulate_matrix_rejects_bad_input(kwargs, match):
    args = {"steps": 3} | kwargs
    with pytest.raises(ValueError, match=match):
        I.accumulate_matrix(OMEGA, 0.1, args.pop("steps"), **args)


def test_other_error_paths():
    with pytest.raises(ValueError, match="t must be finite"):
        I.exact_orientation(Q.IDENTITY, OMEGA, np.nan)
    with pytest.raises(ValueError, match="frame must be one of"):
        I.exact_orientation(Q.IDENTITY, OMEGA, 1.0, frame="fixed")
    with pytest.raises(ValueError, match="step must be one of"):
        I.step_matrix(OMEGA, 0.1, step="euler")
    with pytest.raises(ValueError, match=r"m must have shape \(\.\.\., 3, 3\)"):
        I.orthonormality_error(np.eye(4))
    with pytest.raises(ValueError, match="m must be numeric"):
        I.orthonormality_error("identity")
