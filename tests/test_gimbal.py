"""Euler angles, gimbal lock and Euler interpolation (quatlab.math.gimbal).

Oracles: seed 004's closed-form matrix at pitch +90 in Y-X-Z, scipy's
Rotation.from_euler / as_euler / Slerp (same order-string convention), and
geometric facts of a gimbal (pivots lie in ring planes, the outer and inner
pivots coincide at the lock).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation, Slerp

from quatlab.math import euler as E
from quatlab.math import gimbal as G
from quatlab.math import matrix as M
from quatlab.math import quaternion as Q


def _scipy_matrix(angles, order):
    return Rotation.from_euler(order, angles).as_matrix()


def _seed004_matrix(yaw, roll):
    """Seed 004's matrix of Ry(yaw) Rx(90 deg) Rz(roll), as printed there."""
    d = yaw - roll
    return np.array(
        [[np.cos(d), np.sin(d), 0.0], [0.0, 0.0, -1.0], [-np.sin(d), np.cos(d), 0.0]]
    )


def _lock_values(order):
    tait_bryan = order[0].lower() != order[2].lower()
    return (np.pi / 2, -np.pi / 2) if tait_bryan else (0.0, np.pi)


# --------------------------------------------------------------------------- seed 004


@pytest.mark.parametrize("yaw_deg", [-170.0, -30.0, 0.0, 30.0, 95.0])
@pytest.mark.parametrize("roll_deg", [-120.0, 0.0, 10.0, 179.0])
def test_seed004_matrix_at_pitch_90(yaw_deg, roll_deg):
    yaw, roll = np.radians([yaw_deg, roll_deg])
    r = G.gimbal_readout([yaw, np.pi / 2, roll], "YXZ")
    np.testing.assert_allclose(r.matrix, _seed004_matrix(yaw, roll), atol=1e-15)
    np.testing.assert_allclose(r.matrix, _scipy_matrix([yaw, np.pi / 2, roll], "YXZ"),
                               atol=1e-15)
    assert r.locked and r.sign == -1 and r.expression == "yaw - roll"
    # Equal on the circle (+-pi are the same angle).
    assert abs(np.exp(1j * r.combined) - np.exp(1j * (yaw - roll))) < 1e-12


def test_adding_10_degrees_to_yaw_and_roll_changes_nothing_at_the_lock():
    a = np.radians([30.0, 90.0, 10.0])
    b = a + np.radians([10.0, 0.0, 10.0])
    np.testing.assert_allclose(G.gimbal_readout(b).matrix, G.gimbal_readout(a).matrix,
                               atol=1e-15)
    # Away from the lock the same edit is a real rotation, fading as pitch nears 90.
    def edit(pitch_deg):
        c = np.radians([30.0, pitch_deg, 10.0])
        d = c + np.radians([10.0, 0.0, 10.0])
        return np.degrees(Q.angle_between(G.gimbal_readout(c).quat, G.gimbal_readout(d).quat))

    assert edit(30.0) > 9 and 1 < edit(80.0) < 2 and edit(89.0) < 0.2


def test_pitch_minus_90_locks_the_sum():
    r = G.gimbal_readout(np.radians([30.0, -90.0, 10.0]))
    assert r.locked and r.expression == "yaw + roll"
    assert np.degrees(r.combined) == pytest.approx(40.0)
    same = G.gimbal_readout(np.radians([50.0, -90.0, -10.0]))
    np.testing.assert_allclose(same.matrix, r.matrix, atol=1e-15)


@pytest.mark.parametrize("order", E.EULER_ORDERS)
def test_locked_combination_for_every_order(order):
    rng = np.random.default_rng(abs(hash(order)) % 2**32)
    for middle in _lock_values(order):
        a1, a3 = rng.uniform(-np.pi, np.pi, 2)
        r = G.gimbal_readout([a1, middle, a3], order)
        assert r.locked and r.margin < 1e-7 and r.closeness == pytest.approx(1.0)
        base = _scipy_matrix([a1, middle, a3], order)
        np.testing.assert_allclose(r.matrix, base, atol=1e-12)
        for delta in (0.3, -1.1, 2.0):
            # Only a1 + sign a3 matters: moving along it changes nothing ...
            same = _scipy_matrix([a1 + delta, middle, a3 - r.sign * delta], order)
            np.testing.assert_allclose(same, base, atol=1e-12)
            # ... and across it the pose moves.
            moved = _scipy_matrix([a1 + delta, middle, a3 + r.sign * delta], order)
            assert np.max(np.abs(moved - base)) > 0.1
            shifted = G.gimbal_readout([a1 + delta, middle, a3 - r.sign * delta], order)
            assert shifted.combined == pytest.approx(r.combined, abs=1e-12)


@pytest.mark.parametrize("order", ["YXZ", "zyx", "ZXZ", "xyx"])
def test_margin_measures_the_distance_from_the_lock(order):
    lock = _lock_values(order)[0]
    for off_deg in (0.5, 10.0, 45.0):
        off = np.radians(off_deg)
        r = G.gimbal_readout([0.2, lock - off, -0.4], order)
        assert r.margin == pytest.approx(off, abs=1e-9)
        assert not r.locked
    assert G.gimbal_readout([0.2, lock + 1e-8, 0.1], order).locked


@settings(max_examples=100, deadline=None)
@given(
    angles=st.lists(st.floats(-np.pi, np.pi), min_size=3, max_size=3),
    order=st.sampled_from(E.EULER_ORDERS),
)
def test_property_readout_matrix_is_scipy(angles, order):
    r = G.gimbal_readout(angles, order)
    np.testing.assert_allclose(r.matrix, _scipy_matrix(angles, order), atol=1e-12)
    assert 0 <= r.closeness <= 1 and 0 <= r.margin <= np.pi / 2 + 1e-12
    assert -np.pi < r.combined <= np.pi


# --------------------------------------------------------------------------- rings


@pytest.mark.parametrize("order", E.EULER_ORDERS)
def test_gimbal_rings_geometry(order):
    angles = np.array([0.4, -0.7, 1.9])
    rings = G.gimbal_rings(angles, order)
    # The innermost ring carries the object: its orientation is the pose.
    assert _rot_angle(rings.orientations[2], E.from_euler(angles, order)) < 1e-12
    expected = Rotation.from_euler(order, angles).as_matrix()
    np.testing.assert_allclose(M.to_matrix(rings.orientations[2]), expected, atol=1e-12)
    # The outer pivot is fixed to the base: a world axis.
    letter = rings.axis_letters[0].lower()
    np.testing.assert_allclose(rings.pivots[0], np.eye(3)["xyz".index(letter)])
    # A ring's plane holds its own pivot and the pivot of the ring inside it.
    n, p = rings.normals, rings.pivots
    np.testing.assert_allclose(np.linalg.norm(n, axis=1), 1.0)
    for k in range(3):
        assert abs(n[k] @ p[k]) < 1e-12
    for k in range(2):
        assert abs(n[k] @ p[k + 1]) < 1e-12
    # Each ring turns by its Euler angle: the pivot of ring k+1 is ring k's
    # local axis turned by ring k's orientation.
    for k in range(3):
        assert rings.angle_index[k] in (0, 1, 2)
    assert sorted(rings.angle_index) == [0, 1, 2]


def _rot_angle(a, b):
    return float(Q.angle_between(a, b))


@pytest.mark.parametrize("order", [o for o in E.EULER_ORDERS if o[0].lower() != o[2].lower()])
def test_tait_bryan_rings_at_rest_are_perpendicular_and_fold_at_the_lock(order):
    rest = G.gimbal_rings([0.0, 0.0, 0.0], order)
    np.testing.assert_allclose(np.abs(rest.normals @ rest.normals.T), np.eye(3), atol=1e-15)
    locked = G.gimbal_rings([0.3, _lock_values(order)[0], -0.2], order)
    # Gimbal lock: outer and inner pivots on one line, outer and middle rings coplanar.
    assert abs(abs(locked.pivots[0] @ locked.pivots[2]) - 1) < 1e-12
    assert abs(abs(locked.normals[0] @ locked.normals[1]) - 1) < 1e-12


def test_extrinsic_rings_take_the_angles_in_reverse():
    intrinsic = G.gimbal_rings([0.1, 0.2, 0.3], "ZYX")
    extrinsic = G.gimbal_rings([0.3, 0.2, 0.1], "xyz")
    assert intrinsic.angle_index == (0, 1, 2) and extrinsic.angle_index == (2, 1, 0)
    assert intrinsic.axis_letters == extrinsic.axis_letters == ("Z", "Y", "X")
    np.testing.assert_allclose(extrinsic.orientations, intrinsic.orientations, atol=1e-15)
    np.testing.assert_allclose(extrinsic.pivots, intrinsic.pivots, atol=1e-15)


# --------------------------------------------------------------------------- paths


def test_yaw_wrap_preset():
    p = G.PRESETS["yaw_wrap"]
    a0, a1 = np.radians(p["start_deg"]), np.radians(p["end_deg"])
    c = G.compare_paths(a0, a1, p["order"])
    assert np.degrees(c.euler_swept) == pytest.approx(340.0, abs=1e-9)
    assert np.degrees(c.slerp_swept) == pytest.approx(20.0, abs=1e-9)
    assert np.degrees(c.euler_angle[-1]) == pytest.approx(340.0, abs=1e-9)
    assert np.degrees(c.slerp_angle[-1]) == pytest.approx(20.0, abs=1e-9)
    # The SLERP path's readout crosses +-180 deg in yaw exactly once, mid-way.
    assert np.flatnonzero(c.slerp_wraps[:, 0]).tolist() == [91]
    assert not c.slerp_wraps[:, 1:].any()
    yaw = np.degrees(c.slerp_euler[:, 0])
    assert yaw[90] == pytest.approx(180.0, abs=1e-9) and yaw[91] < -179
    # Wrapping the difference first turns the short way (one axis: = SLERP).
    w = G.compare_paths(a0, a1, p["order"], wrap=True)
    assert np.max(w.deviation) < 1e-12


@pytest.mark.parametrize("name", list(G.PRESETS))
def test_paths_match_scipy(name):
    p = G.PRESETS[name]
    a0, a1 = np.radians(p["start_deg"]), np.radians(p["end_deg"])
    c = G.compare_paths(a0, a1, p["order"], samples=61)
    lerped = (1 - c.t)[:, None] * a0 + c.t[:, None] * a1
    np.testing.assert_allclose(c.euler_angles, lerped, atol=1e-15)
    expected = Rotation.from_euler(p["order"], lerped)
    got = Rotation.from_quat(Q.to_xyzw(c.euler_quats))
    assert np.max((expected.inv() * got).magnitude()) < 1e-12
    ends = Rotation.from_euler(p["order"], [a0, a1])
    slerp = Slerp([0.0, 1.0], ends)(c.t)
    assert np.max((slerp.inv() * Rotation.from_quat(Q.to_xyzw(c.slerp_quats))).magnitude()) \
        < 1e-12
    # The readout names the same rotations as the SLERP path.
    back = Rotation.from_euler(p["order"], c.slerp_euler)
    assert np.max((slerp.inv() * back).magnitude()) < 1e-9
    if name == "yaw_wrap":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_allclose(c.slerp_euler, slerp.as_euler(p["order"]), atol=1e-12)


def test_pitch90_lock_path_does_not_move():
    p = G.PRESETS["pitch90_lock"]
    c = G.compare_paths(np.radians(p["start_deg"]), np.radians(p["end_deg"]), p["order"])
    assert np.ptp(np.degrees(c.euler_angles[:, 0])) == pytest.approx(10.0)
    assert c.euler_swept < 1e-12 and c.slerp_swept < 1e-12
    assert np.max(c.deviation) < 1e-12


def test_equivalent_triplet_and_near_lock_presets():
    p = G.PRESETS["equivalent_triplet"]
    # (180, 60, 180) is (0, 120, 0) in Y-X-Z.
    np.testing.assert_allclose(_scipy_matrix(np.radians(p["end_deg"]), "YXZ"),
                               _scipy_matrix(np.radians([0.0, 120.0, 0.0]), "YXZ"), atol=1e-15)
    c = G.compare_paths(np.radians(p["start_deg"]), np.radians(p["end_deg"]), p["order"])
    assert np.degrees(c.slerp_swept) == pytest.approx(60.0, abs=1e-9)
    assert np.degrees(np.max(c.deviation)) == pytest.approx(30.0, abs=1e-9)
    assert np.degrees(c.euler_swept) > 90
    p = G.PRESETS["near_lock"]
    c = G.compare_paths(np.radians(p["start_deg"]), np.radians(p["end_deg"]), p["order"])
    assert c.euler_swept > 1.9 * c.slerp_swept


def test_lerp_angles_and_wrap_jumps():
    a0, a1 = np.radians([170.0, -10.0, 0.0]), np.radians([-170.0, 10.0, 350.0])
    t = np.array([0.0, 0.5, 1.0])
    plain = G.lerp_angles(a0, a1, t)
    np.testing.assert_allclose(np.degrees(plain[1]), [0.0, 0.0, 175.0], atol=1e-12)
    wrapped = G.lerp_angles(a0, a1, t, wrap=True)
    np.testing.assert_allclose(np.degrees(wrapped[1]), [180.0, 0.0, -5.0], atol=1e-12)
    np.testing.assert_allclose(np.degrees(wrapped[2]), [190.0, 10.0, -10.0], atol=1e-12)
    jumps = G.wrap_jumps(np.radians([[0, 0, 0], [179, 0, 0], [-179, 10, 0], [-170, 0, 0]]))
    assert jumps.tolist() == [[False] * 3, [False] * 3, [True, False, False], [False] * 3]
    assert G.wrap_jumps([[0, 0, 0], [1, 0, 0]], threshold=0.5)[1, 0]


# --------------------------------------------------------------------------- errors


def test_error_paths():
    with pytest.raises(ValueError, match=r"angles must have shape \(3,\)"):
        G.gimbal_readout([0.0, 0.0])
    with pytest.raises(ValueError, match="angles must be finite"):
        G.gimbal_readout([0.0, np.nan, 0.0])
    with pytest.raises(ValueError, match="angles must be three numbers"):
        G.gimbal_readout("yaw")
    with pytest.raises(ValueError, match="order must be one of the 24 Euler orders"):
        G.gimbal_readout([0, 0, 0], "XYQ")
    with pytest.raises(ValueError, match="order must be one of"):
        G.gimbal_rings([0, 0, 0], "XYz")
    with pytest.raises(ValueError, match="names must be three strings"):
        G.gimbal_readout([0, 0, 0], names=("a", "b"))
    with pytest.raises(ValueError, match="tol must be a non-negative"):
        G.gimbal_readout([0, 0, 0], tol=-1)
    with pytest.raises(ValueError, match="angles0 must have shape"):
        G.compare_paths([0, 0], [0, 0, 0])
    with pytest.raises(ValueError, match="angles1 must be finite"):
        G.compare_paths([0, 0, 0], [0, np.inf, 0])
    with pytest.raises(ValueError, match=r"t must lie in \[0, 1\]"):
        G.compare_paths([0, 0, 0], [1, 0, 0], t=[0.5, 2.0])
    with pytest.raises(ValueError, match="t must be one-dimensional"):
        G.compare_paths([0, 0, 0], [1, 0, 0], t=[[0.5]])
    with pytest.raises(ValueError, match="samples must be an integer of at least 2"):
        G.compare_paths([0, 0, 0], [1, 0, 0], samples=1)
    with pytest.raises(ValueError, match="order must be one of"):
        G.compare_paths([0, 0, 0], [1, 0, 0], order="XX")
    with pytest.raises(ValueError, match="t must be finite"):
        G.lerp_angles([0, 0, 0], [1, 0, 0], np.nan)
    with pytest.raises(ValueError, match=r"angles must have shape \(M, 3\)"):
        G.wrap_jumps([0, 0, 0])
    with pytest.raises(ValueError, match="angles must be numeric"):
        G.wrap_jumps("abc")
    with pytest.raises(ValueError, match="threshold must be a positive"):
        G.wrap_jumps([[0, 0, 0]], threshold=0)
