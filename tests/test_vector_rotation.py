"""quatlab.math.vector_rotation.rotation_between: the shortest arc from one direction to another.

Oracles: scipy's ``Rotation.align_vectors`` with one vector pair (the
rotation of least angle, as scipy documents), hand-worked cases (coordinate
axes, the antiparallel axis rule of the module), and the angle between two
unit vectors by Kahan's formula 2 atan2(|â - b̂|, |â + b̂|), written here.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.spatial.transform import Rotation

from quatlab.math import quaternion as Q
from quatlab.math.vector_rotation import rotation_between

PROPERTY = settings(max_examples=150, deadline=None)
R2 = np.sqrt(0.5)

vectors = arrays(np.float64, 3, elements=st.floats(-10.0, 10.0)).filter(
    lambda v: np.linalg.norm(v) > 1e-3)
scales = st.floats(1e-3, 1e3)
# No subnormal components: scaled by 2 ** k they stay exact, so -2 ** k a is exactly antiparallel.
normal_vectors = vectors.filter(lambda v: np.all((v == 0) | (np.abs(v) > 1e-200)))


def unit(v):
    v = np.asarray(v, dtype=np.float64)
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def kahan_angle(a, b):
    a, b = unit(a), unit(b)
    return 2 * np.arctan2(np.linalg.norm(a - b, axis=-1), np.linalg.norm(a + b, axis=-1))


@pytest.mark.parametrize("a, b, expected", [
    ([1, 0, 0], [0, 1, 0], [R2, 0, 0, R2]),          # x onto y: a quarter turn about z
    ([0, 1, 0], [1, 0, 0], [R2, 0, 0, -R2]),
    ([0, 0, 2], [0, 3, 0], [R2, -R2, 0, 0]),
    ([1, 0, 0], [1, 0, 0], [1, 0, 0, 0]),            # parallel: the identity
    ([1, 2, 3], [2, 4, 6], [1, 0, 0, 0]),
    # Antiparallel: a half turn about the coordinate axis least along a, made perpendicular.
    ([1, 0, 0], [-1, 0, 0], [0, 0, 1, 0]),           # x: about y
    ([0, 1, 0], [0, -1, 0], [0, 1, 0, 0]),           # y: about x
    ([0, 0, 1], [0, 0, -5], [0, 1, 0, 0]),           # z: about x
    ([0, 3, 4], [0, -3, -4], [0, 1, 0, 0]),          # x is perpendicular already
    ([1, 1, 1], [-1, -1, -1], [0, 2 / np.sqrt(6), -1 / np.sqrt(6), -1 / np.sqrt(6)]),
    ([3, 0, 1], [-3, 0, -1], [0, 0, 1, 0]),          # smallest |component| is y
])
def test_hand_cases(a, b, expected):
    got = rotation_between(a, b)
    np.testing.assert_allclose(got, expected, rtol=0, atol=3e-16)
    np.testing.assert_allclose(Q.rotate_vector(got, unit(a)), unit(b), rtol=0, atol=1e-15)


def test_tiny_angles_and_tiny_vectors():
    # 1e-200 rad about z: cos(5e-201) = 1, sin(5e-201) = 5e-201.
    assert np.array_equal(rotation_between([1, 0, 0], [1, 1e-200, 0]), [1, 0, 0, 5e-201])
    # Lengths of 1e-300 are directions like any other.
    np.testing.assert_allclose(rotation_between([1e-300, 0, 0], [0, 1e-300, 0]),
                               [R2, 0, 0, R2], rtol=0, atol=2e-16)


@PROPERTY
@given(vectors, vectors, scales, scales)
def test_maps_a_onto_b_by_the_angle_between_them(a, b, sa, sb):
    q = rotation_between(sa * a, sb * b)
    assert q[0] >= 0
    assert np.linalg.norm(q) == pytest.approx(1.0, abs=4e-16)
    np.testing.assert_allclose(Q.rotate_vector(q, unit(a)), unit(b), rtol=0, atol=2e-15)
    axis, angle = Q.to_axis_angle(q)
    assert angle == pytest.approx(kahan_angle(a, b), rel=1e-12, abs=4e-15)
    if 1e-6 < angle < np.pi - 1e-6:
        # The least rotation turns about a x b: its axis is perpendicular to both.
        assert abs(axis @ unit(a)) < 1e-12 and abs(axis @ unit(b)) < 1e-12


@PROPERTY
@given(normal_vectors, st.integers(-20, 20))
def test_antiparallel_is_a_half_turn_about_a_perpendicular(a, k):
    # Scaled by a power of two, so -b is exactly along a in floats too.
    q = rotation_between(a, -(2.0 ** k) * a)
    axis, angle = Q.to_axis_angle(q)
    assert q[0] == 0 and angle == np.pi
    assert abs(axis @ unit(a)) < 1e-15
    np.testing.assert_allclose(Q.rotate_vector(q, unit(a)), -unit(a), rtol=0, atol=1e-15)
    # The axis lies in the plane of a and the coordinate axis a has least of.
    e = np.eye(3)[np.argmin(np.abs(a))]
    assert abs(np.linalg.det(np.stack([axis, unit(a), e]))) < 1e-15
    assert axis @ e > 0 or q[1:][np.flatnonzero(q[1:])[0]] > 0


def test_matches_scipy_align_vectors(rng):
    a = rng.normal(size=(200, 3)) * rng.uniform(0.01, 100, size=(200, 1))
    b = rng.normal(size=(200, 3))
    b[:20] = a[:20] * 2 + rng.normal(size=(20, 3)) * 1e-7     # nearly parallel
    b[20:40] = -a[20:40] + rng.normal(size=(20, 3)) * 1e-7    # nearly antiparallel
    got = rotation_between(a, b)
    for ai, bi, qi in zip(a, b, got, strict=True):
        # align_vectors(b, a) finds C with b ≈ C a; for one pair, the least rotation.
        ref, _ = Rotation.align_vectors(bi[None], ai[None])
        ref_q = Q.from_xyzw(ref.as_quat())
        # Near a half turn the axis is a x b / |a x b|: rounding of ~1e-16 in the inputs moves
        # it by ~1e-16 / sin(angle) in any method (the problem's own condition number).
        angle = kahan_angle(ai, bi)
        tol = 1e-14 + (4e-16 / np.sin(angle) if angle > np.pi / 2 else 0.0)
        assert Q.angle_between(qi, ref_q) < tol
        assert Q.to_axis_angle(qi)[1] == pytest.approx(ref.magnitude(), abs=1e-14)


def test_broadcasts(rng):
    a = rng.normal(size=(4, 1, 3))
    b = rng.normal(size=(5, 3))
    got = rotation_between(a, b)
    assert got.shape == (4, 5, 4)
    for i in range(4):
        for j in range(5):
            np.testing.assert_array_equal(got[i, j], rotation_between(a[i, 0], b[j]))


@pytest.mark.parametrize("a, b, match", [
    ([0, 0, 0], [1, 0, 0], "a has zero length"),
    ([1, 0, 0], [0.0, -0.0, 0.0], "b has zero length"),
    ([1, 0], [1, 0, 0], r"a must have shape \(\.\.\., 3\), got shape \(2,\)"),
    ([1, 0, 0], [[1, 0, 0, 0]], r"b must have shape \(\.\.\., 3\), got shape \(1, 4\)"),
    ([1, np.nan, 0], [1, 0, 0], "a contains NaN or infinite"),
    ([1, 0, 0], [np.inf, 0, 0], "b contains NaN or infinite"),
    (np.ones((2, 3)), np.ones((3, 3)), r"a and b must broadcast: shapes \(2, 3\) and \(3, 3\)"),
])
def test_refusals_name_the_argument(a, b, match):
    with pytest.raises(ValueError, match=match):
        rotation_between(a, b)
