"""quatlab.math.matrix: from_matrix validation, nearest_rotation, exact to_matrix entries.

Oracles, none taken from the code under test: scipy.spatial.transform.Rotation
(which stores (x, y, z, w), hence ``to_xyzw``), its octahedral group whose
matrices are signed permutations (exact integers), Wahba's problem solved by
scipy's ``Rotation.align_vectors`` (the nearest rotation in the Frobenius
norm), the polar decomposition ``R P`` built here, and hand-worked matrices.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import rot_angle, unit
from scipy.spatial.transform import Rotation

from quatlab.math import euler as E
from quatlab.math import matrix as M
from quatlab.math import quaternion as Q

PROPERTY = settings(max_examples=80, deadline=None)

RZ90 = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])


def _scipy_matrix(q):
    return Rotation.from_quat(Q.to_xyzw(q)).as_matrix()


quats = st.lists(st.floats(-1, 1, allow_nan=False), min_size=4, max_size=4).filter(
    lambda v: np.dot(v, v) > 1e-6
).map(lambda v: np.asarray(v) / np.linalg.norm(v))


# --------------------------------------------------------------------------- from_matrix rejects


DET_NEG = "m must be a rotation matrix, but its determinant is -1 <= 0 (a reflection"
DET_ZERO = "m must be a rotation matrix, but its determinant is 0 <= 0 (a reflection"
NOT_ORTHO = "m is not orthonormal: ||m^T m - I|| = "


@pytest.mark.parametrize(
    "m, message",
    [
        (np.diag([-1.0, 1.0, 1.0]), DET_NEG),  # used to come back as the identity
        (-np.eye(3), DET_NEG),
        (-RZ90, DET_NEG),
        (np.zeros((3, 3)), DET_ZERO),
        (np.diag([1.0, 1.0, 0.0]), DET_ZERO),
        (0.5 * RZ90, NOT_ORTHO),  # used to come back as 67.38 degrees about Z
        (1.001 * np.eye(3), NOT_ORTHO),
        (np.array([[1.0, 0.1, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), NOT_ORTHO),
    ],
)
def test_from_matrix_rejects_what_is_not_a_rotation(m, message):
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        M.from_matrix(m)


def test_from_matrix_half_rz90_is_rejected_not_67_degrees():
    # Hand-worked: 0.5 Rz(90) has m^T m = I / 4, so ||m^T m - I||_F = 0.75 sqrt(3).
    with pytest.raises(ValueError, match=r"\|\|m\^T m - I\|\| = 1\.3 exceeds 1e-06"):
        M.from_matrix(0.5 * RZ90)


def test_from_matrix_names_the_first_bad_matrix_of_a_stack():
    stack = np.stack([np.eye(3), RZ90, np.diag([1.0, -1.0, 1.0])]).reshape(1, 3, 3, 3)
    with pytest.raises(ValueError, match=r"^m\[0, 2\] must be a rotation matrix"):
        M.from_matrix(stack)
    stack = np.stack([np.eye(3), 2 * RZ90])
    with pytest.raises(ValueError, match=r"^m\[1\] is not orthonormal"):
        M.from_matrix(stack)


@pytest.mark.parametrize(
    "m, match",
    [
        (np.eye(2), r"m must have shape \(\.\.\., 3, 3\), got shape \(2, 2\)"),
        (np.ones(3), r"m must have shape \(\.\.\., 3, 3\), got shape \(3,\)"),
        (np.full((3, 3), np.nan), "m contains NaN or infinite entries"),
        (np.diag([np.inf, 1.0, 1.0]), "m contains NaN or infinite entries"),
    ],
)
def test_from_matrix_shape_and_finiteness_come_first(m, match):
    with pytest.raises(ValueError, match=match):
        M.from_matrix(m)


# --------------------------------------------------------------------------- from_matrix accepts


def test_from_matrix_accepts_float32_rotations(rng):
    # Rotations rounded to float32 (files, GPU buffers) are off by ~1e-7: within 1e-6.
    q = unit(rng.normal(size=(2000, 4)))
    m32 = _scipy_matrix(q).astype(np.float32)
    got = M.from_matrix(m32)
    assert np.max(rot_angle(got, q)) < 1e-6


def test_from_matrix_tolerance_boundary():
    # m = R (I + e S) with S symmetric, ||S||_F = 1: m^T m - I = 2 e S + e^2 S^2.
    s = np.diag([1.0, -1.0, 0.0]) / np.sqrt(2.0)
    inside = RZ90 @ (np.eye(3) + 4e-7 * s)
    outside = RZ90 @ (np.eye(3) + 6e-7 * s)
    np.testing.assert_allclose(M.from_matrix(inside), [np.sqrt(0.5), 0, 0, np.sqrt(0.5)],
                               atol=1e-6)
    with pytest.raises(ValueError, match="is not orthonormal"):
        M.from_matrix(outside)


@PROPERTY
@given(q=quats)
def test_from_matrix_of_scipy_matrix_is_plus_or_minus_q(q):
    back = M.from_matrix(_scipy_matrix(q))
    assert min(np.abs(back - q).max(), np.abs(back + q).max()) < 1e-12


# --------------------------------------------------------------------------- nearest_rotation


def _wahba(m):
    # argmin ||R - m||_F = argmax tr(R^T m) = argmin sum_i |m e_i - R e_i|^2:
    # scipy's align_vectors(a, b) minimizes sum |a_i - R b_i|^2 over rows.
    r, _ = Rotation.align_vectors(m.T, np.eye(3))
    return r.as_matrix()


def test_nearest_rotation_matches_wahba_solution(rng):
    for _ in range(200):
        m = rng.normal(size=(3, 3))
        got = M.nearest_rotation(m)
        np.testing.assert_allclose(got, _wahba(m), atol=1e-9)
        np.testing.assert_allclose(got.T @ got, np.eye(3), atol=1e-14)
        assert np.linalg.det(got) > 0


def test_nearest_rotation_of_r_times_spd_is_r(rng):
    # Polar decomposition m = R P with P symmetric positive definite: R is nearest.
    r = Rotation.random(50, random_state=1).as_matrix()
    a = rng.normal(size=(50, 3, 3))
    p = a @ np.swapaxes(a, -1, -2) + 0.1 * np.eye(3)
    np.testing.assert_allclose(M.nearest_rotation(r @ p), r, atol=1e-10)


def test_nearest_rotation_repairs_float32_drift_then_from_matrix_accepts():
    step = Rotation.from_rotvec([0.01, 0.02, 0.03]).as_matrix().astype(np.float32)
    m = np.eye(3, dtype=np.float32)
    for _ in range(20000):
        m = step @ m
    with pytest.raises(ValueError, match="is not orthonormal"):
        M.from_matrix(m)
    exact = Rotation.from_rotvec(20000 * np.array([0.01, 0.02, 0.03]))
    q = M.from_matrix(M.nearest_rotation(m))
    assert rot_angle(q, Q.from_xyzw(exact.as_quat())) < 1e-2


@pytest.mark.parametrize(
    "m",
    [np.zeros((3, 3)), np.diag([-1.0, 1.0, 1.0]), np.outer([1.0, 2, 3], [0.0, 1, 1])],
)
def test_nearest_rotation_not_unique_raises(m):
    with pytest.raises(ValueError, match="^m has no unique nearest rotation"):
        M.nearest_rotation(m)


def test_nearest_rotation_validates_first():
    with pytest.raises(ValueError, match=r"m must have shape \(\.\.\., 3, 3\)"):
        M.nearest_rotation(np.eye(4))
    with pytest.raises(ValueError, match="m contains NaN"):
        M.nearest_rotation(np.full((3, 3), np.nan))


# --------------------------------------------------------------------------- to_matrix exactness


def test_to_matrix_is_exact_for_the_24_rotations_of_the_cube():
    # The octahedral group: every matrix is a signed permutation, so the exact
    # entries are integers. scipy's own as_matrix leaves 2.2e-16 for some.
    group = Rotation.create_group("O")
    q = Q.from_xyzw(group.as_quat())
    exact = np.round(group.as_matrix())
    got = M.to_matrix(q)
    assert np.array_equal(got, exact), np.abs(got - exact).max()


@pytest.mark.parametrize("axis", range(3))
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_to_matrix_quarter_turn_exact_zeros(axis, sign):
    c = np.sqrt(0.5)
    q = np.zeros(4)
    q[0], q[1 + axis] = c, sign * c
    # Hand-worked: the elementary rotation matrix with cos = 0, sin = sign.
    i, j = (axis + 1) % 3, (axis + 2) % 3
    expected = np.zeros((3, 3))
    expected[axis, axis] = 1.0
    expected[i, j], expected[j, i] = -sign, sign
    assert np.array_equal(M.to_matrix(q), expected)


@PROPERTY
@given(q=quats)
def test_to_matrix_matches_scipy_and_is_orthonormal(q):
    got = M.to_matrix(q)
    np.testing.assert_allclose(got, _scipy_matrix(q), atol=1e-15)
    np.testing.assert_allclose(got.T @ got, np.eye(3), atol=2e-15)
    # Plain product oracle: the matrix rotates like q v q*.
    v = np.array([0.3, -1.2, 2.0])
    np.testing.assert_allclose(got @ v, Q.rotate_vector(q, v), atol=1e-14)


# --------------------------------------------------------------------------- moved names


def test_moved_names_still_import_from_quaternion():
    from quatlab.math.quaternion import EULER_ORDERS, from_euler, from_matrix, to_matrix

    assert to_matrix is M.to_matrix and from_matrix is M.from_matrix
    assert Q.orthonormalize is M.orthonormalize
    assert from_euler is E.from_euler and Q.to_euler is E.to_euler
    assert EULER_ORDERS is E.EULER_ORDERS and len(EULER_ORDERS) == 24
    with pytest.raises(AttributeError, match="no attribute 'nearest_rotation'"):
        Q.nearest_rotation  # noqa: B018 - new names live in matrix only


# --------------------------------------------------------------------------- quarter turns by angle


@pytest.mark.parametrize("axis", range(3))
@pytest.mark.parametrize("k", range(-4, 5))
def test_to_matrix_of_from_axis_angle_quarter_turns_is_exact(axis, k):
    # np.cos(pi / 4) != np.sin(pi / 4) and np.cos(pi / 2) = 6.1e-17: without
    # exact eighth turns the matrix of a 90 degree turn holds 2.2e-16 for 0.
    e = np.eye(3)[axis]
    expected = np.round(Rotation.from_rotvec(k * np.pi / 2 * e).as_matrix())
    assert np.array_equal(M.to_matrix(Q.from_axis_angle(e, k * np.pi / 2)), expected)


@pytest.mark.parametrize("order", ["XYZ", "zyx", "ZXZ", "yxy"])
def test_to_matrix_of_from_euler_quarter_turns_is_exact(order):
    grid = np.radians(90.0 * np.stack(np.meshgrid(*[range(-2, 3)] * 3), -1).reshape(-1, 3))
    expected = np.round(Rotation.from_euler(order, grid).as_matrix())
    assert np.array_equal(M.to_matrix(E.from_euler(grid, order)), expected)


@PROPERTY
@given(angle=st.floats(-30.0, 30.0), axis=st.integers(0, 2))
def test_from_axis_angle_stays_accurate(angle, axis):
    # Against np.cos / np.sin of the half angle, and scipy for the rotation.
    e = np.eye(3)[axis]
    q = Q.from_axis_angle(e, angle)
    # Reducing a large angle by whole turns first (as from_axis_angle may) moves the
    # result by up to an ulp of the half angle, not of the result.
    tol = 3e-16 + 2 * np.spacing(abs(angle / 2))
    assert abs(q[0] - np.cos(angle / 2)) <= tol
    assert abs(q[1 + axis] - np.sin(angle / 2)) <= tol
    if 1e-300 < abs(angle) < 0.1:
        # small angles keep their relative accuracy (no eighth-turn split)
        assert q[1 + axis] == np.sin(angle / 2)
    ref = Q.from_xyzw(Rotation.from_rotvec(angle * e).as_quat())
    assert rot_angle(q, ref) < 1e-14
