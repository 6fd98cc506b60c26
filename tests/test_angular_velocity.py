"""quatlab.math.angular_velocity: ω vectors between keys and along tracks, world and local frame.

Oracles: central finite differences of scipy ``Rotation`` samples
(``(R(t+h) R(t-h)^-1).as_rotvec() / 2h`` in the world frame,
``(R(t-h)^-1 R(t+h)).as_rotvec() / 2h`` in the body frame) on paths made by
scipy's own ``Slerp`` (SLERP) or by the library's ``track.evaluate`` (NLERP,
SQUAD: the curve whose derivative is checked); scipy's relative rotation for
the constant ω between two keys; the exact spin of
``integrate.exact_orientation``; hand-worked cases.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation, Slerp

from quatlab.math import angular_velocity as AV
from quatlab.math import integrate as I
from quatlab.math import quaternion as Q
from quatlab.math import track as T

PROPERTY = settings(max_examples=40, deadline=None)
seeds = st.integers(0, 2**32 - 1)
H = 1e-6  # seconds: central differences err by ~h^2 |ω''| + 1e-16 / h


def _rot(q):
    return Rotation.from_quat(Q.to_xyzw(q))


def _finite_difference(path, t, frame):
    """ω at times ``t`` from rotations ``path(t ± H)`` (scipy does the log)."""
    before, after = path(t - H), path(t + H)
    rel = after * before.inv() if frame == "world" else before.inv() * after
    return rel.as_rotvec() / (2 * H)


def _random_track(rng, k=5):
    times = np.cumsum(rng.uniform(0.3, 2.0, k)) - 0.5
    keys = Q.normalize(rng.normal(size=(k, 4)))
    # Keys within ~100 deg of each other, some stored negated: a track, not noise.
    for i in range(1, k):
        step = Q.from_rotvec(rng.normal(size=3) * 0.6)
        keys[i] = Q.multiply(keys[i - 1], step) * rng.choice([-1.0, 1.0])
    return times, keys


def _inner_samples(times, rng, n=25):
    """Sample times at least 10 H from every key (the velocity may jump there)."""
    t = rng.uniform(times[0], times[-1], n)
    gap = np.min(np.abs(t[:, None] - times[None, :]), axis=1)
    return t[gap > 10 * H]


@pytest.mark.parametrize("frame", AV.FRAMES)
@PROPERTY
@given(seed=seeds)
def test_slerp_track_against_scipy_slerp_finite_differences(frame, seed):
    rng = np.random.default_rng(seed)
    times, keys = _random_track(rng)
    slerp = Slerp(times, _rot(keys))  # scipy's own piecewise SLERP, short arcs
    t = _inner_samples(times, rng)
    got = AV.along_track(times, keys, t, "slerp", frame=frame)
    expected = _finite_difference(slerp, t, frame)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-7 * np.abs(expected).max())


@pytest.mark.parametrize("method, tangents", [("nlerp", "uniform"), ("squad", "uniform"),
                                              ("squad", "time_scaled")])
@pytest.mark.parametrize("frame", AV.FRAMES)
@PROPERTY
@given(seed=seeds)
def test_nlerp_and_squad_against_finite_differences_of_their_curve(method, tangents, frame,
                                                                    seed):
    rng = np.random.default_rng(seed)
    times, keys = _random_track(rng)

    def path(tt):
        return _rot(T.evaluate(times, keys, tt, method, tangents=tangents).quats)

    t = _inner_samples(times, rng)
    t = t[(t - H >= times[0]) & (t + H <= times[-1])]
    got = AV.along_track(times, keys, t, method, frame=frame, tangents=tangents)
    expected = _finite_difference(path, t, frame)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-7 * np.abs(expected).max())


@PROPERTY
@given(seed=seeds)
def test_length_is_the_tracks_speed_and_frames_differ_by_the_rotation(seed):
    rng = np.random.default_rng(seed)
    times, keys = _random_track(rng)
    t = np.union1d(np.linspace(times[0], times[-1], 40), times)
    for method in T.METHODS:
        curve = T.evaluate(times, keys, t, method)
        world = AV.along_track(times, keys, t, method)
        local = AV.along_track(times, keys, t, method, frame="local")
        np.testing.assert_allclose(np.linalg.norm(world, axis=1), curve.speed, rtol=1e-12)
        np.testing.assert_allclose(Q.rotate_vector(curve.quats, local), world, atol=1e-12)
        # One-sided values at the keys: the speeds the track marks before and after them.
        left = AV.along_track(times, keys, times, method, side="left")
        right = AV.along_track(times, keys, times, method, side="right")
        np.testing.assert_allclose(np.linalg.norm(left[1:], axis=1), curve.speed_before[1:],
                                   rtol=1e-12)
        np.testing.assert_allclose(np.linalg.norm(right[:-1], axis=1), curve.speed_after[:-1],
                                   rtol=1e-12)
        # Stored signs do not matter to a sign-aware track.
        flips = rng.choice([-1.0, 1.0], size=(len(keys), 1))
        np.testing.assert_allclose(AV.along_track(times, keys * flips, t, method), world,
                                   rtol=0, atol=1e-12)


@pytest.mark.parametrize("frame", AV.FRAMES)
def test_between_against_scipy_relative_rotation(rng, frame):
    q0 = Q.normalize(rng.normal(size=(50, 4)))
    q1 = Q.normalize(rng.normal(size=(50, 4)))
    dt = rng.uniform(0.01, 3.0, 50)
    r0, r1 = _rot(q0), _rot(q1)
    rel = r1 * r0.inv() if frame == "world" else r0.inv() * r1
    got = AV.between(q0, q1 * rng.choice([-1.0, 1.0], size=(50, 1)), dt, frame=frame)
    np.testing.assert_allclose(got, rel.as_rotvec() / dt[:, None], rtol=0, atol=1e-13 / dt.min())


@pytest.mark.parametrize("frame", AV.FRAMES)
def test_constant_spin_of_integrate_is_recovered(rng, frame):
    omega = np.array([0.3, -1.1, 0.7])
    q0 = Q.normalize(rng.normal(size=4))
    t = np.linspace(0.0, 2.0, 21)
    q = I.exact_orientation(q0, omega, t, frame=frame)
    got = AV.between(q[:-1], q[1:], np.diff(t), frame=frame)
    np.testing.assert_allclose(got, np.broadcast_to(omega, got.shape), atol=1e-13)
    # Keys of that spin played by any method turn at omega too (evenly spaced: no SQUAD bend).
    for method in T.METHODS[1:]:
        w = AV.along_track(t, q, [0.05, 0.77, 1.93], method, frame=frame)
        np.testing.assert_allclose(w, np.broadcast_to(omega, w.shape), atol=1e-12)


def test_hand_cases_world_versus_local():
    # 90 deg about x first: the body's z axis then points along world -y.
    q0 = Q.from_axis_angle([1, 0, 0], np.pi / 2)
    q1 = Q.multiply(q0, Q.from_axis_angle([0, 0, 1], 0.3))   # 0.3 rad about body z
    np.testing.assert_allclose(AV.between(q0, q1, 0.5, frame="local"), [0, 0, 0.6], atol=1e-15)
    np.testing.assert_allclose(AV.between(q0, q1, 0.5, frame="world"), [0, -0.6, 0], atol=1e-15)
    q2 = Q.multiply(Q.from_axis_angle([0, 0, 1], 0.3), q0)   # 0.3 rad about world z
    np.testing.assert_allclose(AV.between(q0, q2, 2.0, frame="world"), [0, 0, 0.15], atol=1e-15)
    np.testing.assert_allclose(AV.between(q0, q2, 2.0, frame="local"), [0, 0.15, 0], atol=1e-15)
    # The short way: 270 deg stored is -90 deg turned.
    q3 = Q.from_axis_angle([0, 0, 1], np.radians(270))
    np.testing.assert_allclose(AV.between(Q.IDENTITY, q3, 1.0), [0, 0, -np.pi / 2], atol=1e-15)


def test_nlerp_hand_case_peaks_mid_segment():
    # 0 -> 90 deg about z in 1 s: |ω| = 2 sin Ω / |p|^2 with Ω = 45 deg (docs/curves.md).
    keys = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 90.0]))
    u = np.array([0.0, 0.25, 0.5, 1.0])
    w = AV.along_track([0.0, 1.0], keys, u, "nlerp")
    c = np.cos(np.pi / 4)
    expected = 2 * np.sin(np.pi / 4) / (1 - 2 * u * (1 - u) * (1 - c))
    np.testing.assert_allclose(w, np.stack([0 * u, 0 * u, expected], axis=1), atol=1e-15)


def test_from_derivative_ignores_the_radial_part_and_scale(rng):
    q = Q.normalize(rng.normal(size=(10, 4)))
    omega = rng.normal(size=(10, 3))
    q_dot = 0.5 * Q.multiply(np.concatenate([np.zeros((10, 1)), omega], axis=1), q)
    np.testing.assert_allclose(AV.from_derivative(q, q_dot), omega, atol=1e-14)
    # A radial part (the length of a non-unit path changing) turns nothing.
    s = rng.uniform(0.5, 2.0, (10, 1))
    np.testing.assert_allclose(AV.from_derivative(s * q, s * q_dot + 3.0 * q), omega,
                               atol=1e-13)


def test_of_segments_is_between_consecutive_keys(rng):
    times, keys = _random_track(rng)
    seg = AV.of_segments(times, keys, frame="local")
    assert seg.shape == (len(times) - 1, 3)
    mid = 0.5 * (times[1:] + times[:-1])
    np.testing.assert_allclose(seg, AV.along_track(times, keys, mid, frame="local"), atol=1e-14)


@pytest.mark.parametrize("call, match", [
    (lambda: AV.between(Q.IDENTITY, Q.IDENTITY, 0.0), "dt must be finite and positive"),
    (lambda: AV.between(Q.IDENTITY, Q.IDENTITY, 1.0, frame="body"),
     r"frame must be one of \('world', 'local'\), got 'body'"),
    (lambda: AV.between(np.ones((2, 4)), np.ones((3, 4)), 1.0),
     r"q0 and q1 must broadcast: shapes \(2, 4\) and \(3, 4\)"),
    (lambda: AV.between([1, 0, 0], Q.IDENTITY, 1.0), r"q0 must have shape \(\.\.\., 4\)"),
    (lambda: AV.from_derivative(Q.IDENTITY, [0, 0, 1]), r"q_dot must have shape \(\.\.\., 4\)"),
    (lambda: AV.from_derivative([0, 0, 0, 0], [0, 0, 0, 1]), "q has zero length"),
    (lambda: AV.of_segments([0.0], [Q.IDENTITY]), r"times must have shape \(K,\) with K >= 2"),
    (lambda: AV.along_track([0, 1], [Q.IDENTITY] * 3, [0.5]), r"keys must have shape \(2, 4\)"),
    (lambda: AV.along_track([0, 1], [Q.IDENTITY] * 2, [1.5]), r"t must lie in \[0, 1\]"),
    (lambda: AV.along_track([0, 1], [Q.IDENTITY] * 2, [0.5], "cubic"), "method must be one of"),
    (lambda: AV.along_track([0, 1], [Q.IDENTITY] * 2, [0.5], side="up"), "side must be one of"),
    (lambda: AV.along_track([0, 1], [Q.IDENTITY] * 2, [0.5], tangents="x"),
     "tangents must be one of"),
])
def test_refusals_name_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()
