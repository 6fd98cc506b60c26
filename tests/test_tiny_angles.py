"""Rotation angles below 1e-154 rad: to_axis_angle, to_rotvec, angle_between, norm, from_axis_angle.

A plain Euclidean norm squares the components, and squares below ~2e-308 are
subnormal or zero: a rotation of 2e-200 rad used to read as the identity.
Oracles: exact hand cases (q = (1, e, 0, 0) turns by 2 atan(e), which is 2e
in floats for e < 1e-8), the closed form 2 atan(|d| / |a|) for b = a + d with
d orthogonal to a in 4D (|d| from ``np.hypot``, which scales), and scipy's
``Rotation`` where its own norms do not underflow.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from quatlab.math import quaternion as Q

PROPERTY = settings(max_examples=120, deadline=None)

# Down to the smallest subnormal: the angle 2e stays representable.
TINY = [1e-100, 1.4e-154, 1e-160, 1e-200, 1e-300, 1e-310, 5e-324]


def hypot(v) -> float:
    """Length of a vector by repeated ``np.hypot`` (scaled in C, never squares to 0)."""
    return float(np.hypot.reduce(np.asarray(v, dtype=np.float64)))


@pytest.mark.parametrize("e", TINY)
@pytest.mark.parametrize("i", [1, 2, 3])
def test_tiny_rotation_about_a_coordinate_axis(e, i):
    # q = (1, e e_i): |q| = 1 exactly in floats, the angle 2 atan2(e, 1) = 2e exactly.
    q = np.zeros(4)
    q[0], q[i] = 1.0, e
    axis, angle = Q.to_axis_angle(q)
    expected_axis = np.eye(3)[i - 1]
    assert angle == 2 * e
    assert np.array_equal(axis, expected_axis)
    assert np.array_equal(Q.to_rotvec(q), 2 * e * expected_axis)
    # The other sign of q and the other argument order give the same.
    assert Q.to_axis_angle(-q)[1] == 2 * e
    for a, b in [(Q.IDENTITY, q), (q, Q.IDENTITY), (-q, Q.IDENTITY), (q, -Q.IDENTITY)]:
        assert Q.angle_between(a, b) == 2 * e


@pytest.mark.parametrize("e", TINY)
def test_norm_and_from_axis_angle_of_tiny_vectors(e):
    assert Q.norm([0.0, 3 * e, 4 * e, 0.0]) == pytest.approx(5 * e, rel=1e-15) or e < 1e-300
    # An axis of length 1e-200 is a direction like any other.
    got = Q.from_axis_angle([0.0, e, 0.0], np.pi / 2)
    assert np.allclose(got, [np.sqrt(0.5), 0, np.sqrt(0.5), 0], rtol=0, atol=1e-16)
    with pytest.raises(ValueError, match="axis has zero length"):
        Q.from_axis_angle([0.0, 0.0, 0.0], 1.0)


def test_norm_of_huge_components_does_not_overflow():
    assert Q.norm([3e200, 0.0, -4e200, 0.0]) == pytest.approx(5e200, rel=1e-15)
    assert Q.norm([np.inf, 0.0, 0.0, 0.0]) == np.inf
    assert np.isnan(Q.norm([np.nan, 0.0, 0.0, 0.0]))
    with pytest.raises(ValueError, match=r"q must have shape \(\.\.\., 4\)"):
        Q.norm([1.0, 2.0, 3.0])


# A direction with components clear of zero (or exactly zero), and a scale 1e-300 .. 1e-150:
# every product e * u_i is a normal float, so the oracle's inputs are exact.
directions = st.lists(
    st.one_of(st.just(0.0), st.floats(1e-3, 1.0), st.floats(-1.0, -1e-3)), min_size=3,
    max_size=3).filter(lambda u: any(u))
exponents = st.floats(-300.0, -150.0)


@PROPERTY
@given(directions, exponents)
def test_to_axis_angle_and_rotvec_of_tiny_rotations(u, exponent):
    u = np.array(u)
    e = 10.0 ** exponent
    q = np.concatenate([[1.0], e * u])
    length = hypot(e * u)
    axis, angle = Q.to_axis_angle(q)
    assert angle == pytest.approx(2 * length, rel=4e-16)
    np.testing.assert_allclose(axis, u / hypot(u), rtol=1e-15, atol=0)
    np.testing.assert_allclose(Q.to_rotvec(q), 2 * e * u, rtol=1e-15, atol=0)


slots = st.permutations(range(4))
splits = st.integers(1, 3)


@PROPERTY
@given(slots, splits, st.lists(st.floats(0.1, 1.0), min_size=4, max_size=4),
       st.lists(st.floats(-1.0, 1.0), min_size=4, max_size=4), exponents)
def test_angle_between_tiny_offsets_orthogonal_in_4d(order, split, a_parts, d_parts, exponent):
    # a on some components, the offset d on the others: b = a + d is exact, d is
    # orthogonal to a, and the rotation angle between a and b is 2 atan(|d| / |a|).
    a = np.zeros(4)
    d = np.zeros(4)
    on_a, on_d = list(order[:split]), list(order[split:])
    a[on_a] = np.array(a_parts)[: len(on_a)]
    a /= hypot(a)
    d[on_d] = 10.0 ** exponent * np.array(d_parts)[: len(on_d)]
    b = a + d
    expected = 2 * np.arctan(hypot(d) / hypot(a))
    for x, y in [(a, b), (b, a), (a, -b), (-a, b)]:
        got = Q.angle_between(x, y)
        assert got == pytest.approx(expected, rel=1e-15, abs=0)


def test_agrees_with_scipy_where_scipy_does_not_underflow(rng):
    # scipy squares components too; from 1e-140 rad up its answers are full precision.
    n = 200
    angles = np.logspace(-140, 0, n)
    axes = rng.normal(size=(n, 3))
    axes /= np.linalg.norm(axes, axis=-1, keepdims=True)
    base = Rotation.random(n, random_state=1)
    step = Rotation.from_rotvec(axes * angles[:, None])
    q = Q.from_xyzw(step.as_quat())
    np.testing.assert_allclose(Q.to_rotvec(q), step.as_rotvec(), rtol=1e-14, atol=0)
    a, b = base, base * step
    # The products round a and b to ~1e-16, so only angles far above that are comparable.
    big = angles > 1e-6
    got = Q.angle_between(Q.from_xyzw(a.as_quat()), Q.from_xyzw(b.as_quat()))
    np.testing.assert_allclose(got[big], (a.inv() * b).magnitude()[big], rtol=1e-9)
    np.testing.assert_allclose(Q.angle_between(Q.IDENTITY, q), step.magnitude(), rtol=1e-14)
