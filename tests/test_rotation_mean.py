"""quatlab.math.rotation_mean: the eigenvector mean of Markley et al. (2007).

Oracles: scipy's ``Rotation.mean`` (the same chordal L2 mean, by its own
eigen-decomposition), the circular mean ``atan2(sum w sin θ, sum w cos θ)`` for
rotations about one axis (the chordal mean of planar rotations, worked by
hand in docs/rotations.md), and the invariances that define the mean (signs,
order, a common rotation on either side).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from quatlab.math import quaternion as Q
from quatlab.math.rotation_mean import MEAN_GAP, MeanUndefinedError, mean, mean_matrix

PROPERTY = settings(max_examples=100, deadline=None)
seeds = st.integers(0, 2**32 - 1)


def _rot(q):
    return Rotation.from_quat(Q.to_xyzw(q))


def _scipy_mean(q, w):
    return Q.from_xyzw(_rot(q).mean(weights=w).as_quat())


def _gap(q, w) -> float:
    """The eigenvalue gap, from numpy's eigvalsh of the matrix written out here."""
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    m = sum(wi * np.outer(qi, qi) for wi, qi in zip(w, q, strict=True)) / np.sum(w)
    v = np.linalg.eigvalsh(m)
    return float(v[3] - v[2])


@PROPERTY
@given(seeds, st.integers(1, 7))
def test_matches_scipy_mean(seed, n):
    rng = np.random.default_rng(seed)
    q = rng.normal(size=(n, 4))
    w = rng.uniform(0.0, 1.0, n)
    w[rng.integers(n)] += 0.1
    # Where the two top eigenvalues nearly meet, any method's eigenvector moves by
    # ~1e-16 / gap; compare only where that is small.
    gap = _gap(q, w)
    assume(gap > 1e-6)
    got = mean(q, w)
    assert got[0] >= 0
    assert Q.angle_between(got, _scipy_mean(q, w)) < 1e-14 / gap + 1e-14


@PROPERTY
@given(seeds, st.integers(1, 6), st.floats(5.0, 179.0))
def test_about_one_axis_it_is_the_circular_mean_of_the_angles(seed, n, spread_deg):
    rng = np.random.default_rng(seed)
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    theta = np.radians(rng.uniform(-spread_deg, spread_deg, n))
    w = rng.uniform(0.05, 1.0, n)
    resultant = np.hypot(w @ np.sin(theta), w @ np.cos(theta)) / w.sum()
    assume(resultant > 1e-3)
    poses = Q.from_xyzw(Rotation.from_rotvec(axis * theta[:, None]).as_quat())
    poses *= rng.choice([-1.0, 1.0], size=(n, 1))  # stored signs are irrelevant
    expected = Rotation.from_rotvec(axis * np.arctan2(w @ np.sin(theta), w @ np.cos(theta)))
    got = mean(poses, w)
    assert Q.angle_between(got, Q.from_xyzw(expected.as_quat())) < 1e-13 / resultant


@pytest.mark.parametrize("angles_deg, weights, expected_deg", [
    ([0.0, 90.0], [1, 1], 45.0),
    ([0.0, 90.0], [3, 1], np.degrees(np.arctan2(1, 3))),
    ([0.0, 120.0, 240.0], [0.25, 0.5, 0.5], 180.0),   # the normalized sum aligned to 0 says 0
    ([-60.0, 60.0], [1, 1], 0.0),
    ([-60.0, 60.0, 180.0], [1, 1, 0.5], 0.0),          # 0.5 cos 180 + cos 60 + cos 60 > 0
    ([170.0, -170.0], [1, 1], 180.0),                 # across the half turn, not through 0
    ([30.0], [2.0], 30.0),
])
def test_hand_cases_about_z(angles_deg, weights, expected_deg):
    poses = Q.from_axis_angle([0, 0, 1], np.radians(angles_deg))
    got = mean(poses, weights)
    h = np.radians(expected_deg) / 2
    expected = Q.canonical([np.cos(h), 0, 0, np.sin(h)])
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-15)


def test_default_weights_are_equal_and_only_ratios_matter(rng):
    q = rng.normal(size=(5, 4))
    np.testing.assert_array_equal(mean(q), mean(q, np.ones(5)))
    np.testing.assert_allclose(mean(q, [1, 2, 3, 4, 5]), mean(q, [10, 20, 30, 40, 50]),
                               rtol=0, atol=1e-15)
    np.testing.assert_allclose(mean(q, [0, 0, 1, 0, 0]), Q.canonical(q[2]), rtol=0, atol=1e-15)


def test_invariant_to_signs_and_order_equivariant_to_rotations(rng):
    q = Q.normalize(rng.normal(size=(6, 4)))
    w = rng.uniform(0.1, 1.0, 6)
    base = mean(q, w)
    flips = rng.choice([-1.0, 1.0], size=(6, 1))
    np.testing.assert_array_equal(mean(q * flips, w), base)       # q q^T is exact for -q
    order = rng.permutation(6)
    np.testing.assert_allclose(mean(q[order], w[order]), base, rtol=0, atol=1e-14)
    r = Q.normalize(rng.normal(size=4))
    for left in (True, False):
        moved = Q.multiply(r, q) if left else Q.multiply(q, r)
        expect = Q.multiply(r, base) if left else Q.multiply(base, r)
        assert Q.angle_between(mean(moved, w), expect) < 1e-13


def test_a_mean_that_is_not_unique_is_refused_or_nan():
    even = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 120.0, 240.0]))
    with pytest.raises(MeanUndefinedError, match="the rotation mean is not unique"):
        mean(even)
    opposite = [[1.0, 0, 0, 0], [0, 0, 0, 1.0]]                  # a half turn apart
    with pytest.raises(MeanUndefinedError):
        mean(opposite, [2, 2])
    # Batched: only the rows without a unique mean are NaN.
    got = mean(np.stack([even, even]), [[1, 1, 1], [1, 1, 0]], undefined="nan")
    assert np.all(np.isnan(got[0]))
    np.testing.assert_allclose(got[1], Q.canonical(Q.from_axis_angle([0, 0, 1], np.pi / 3)),
                               atol=1e-15)
    # MeanUndefinedError is a ValueError: callers that catch bad input catch it too.
    assert issubclass(MeanUndefinedError, ValueError)
    assert MEAN_GAP < 1e-6


def test_broadcasts_over_leading_shapes(rng):
    q = rng.normal(size=(2, 1, 3, 4))
    w = rng.uniform(0.1, 1, size=(4, 3))
    got = mean(q, w)
    assert got.shape == (2, 4, 4)
    for i in range(2):
        for j in range(4):
            np.testing.assert_array_equal(got[i, j], mean(q[i, 0], w[j]))
    m = mean_matrix(q, w)
    assert m.shape == (2, 4, 4, 4)
    np.testing.assert_allclose(np.trace(m, axis1=-2, axis2=-1), 1.0, atol=1e-15)


@pytest.mark.parametrize("quats, weights, kwargs, match", [
    ([1.0, 0, 0, 0], None, {}, r"quats must have shape \(\.\.\., N, 4\) with N >= 1"),
    ([[1.0, 0, 0]], None, {}, r"quats must have shape \(\.\.\., 4\)"),
    ([[1.0, 0, 0, 0]] * 2, [1.0], {}, r"weights must have shape \(\.\.\., 2\)"),
    ([[1.0, 0, 0, 0]] * 2, [1.0, -1.0], {}, "weights must be non-negative"),
    ([[1.0, 0, 0, 0]] * 2, [0.0, 0.0], {}, "weights must not all be zero"),
    ([[0.0, 0, 0, 0]], None, {}, "quats has zero length"),
    ([[1.0, 0, 0, 0]], None, {"undefined": "zero"}, "undefined must be one of"),
])
def test_refusals_name_the_argument(quats, weights, kwargs, match):
    with pytest.raises(ValueError, match=match):
        mean(quats, weights, **kwargs)
