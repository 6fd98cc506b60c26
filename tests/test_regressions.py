"""Regression tests for bugs found in quatlab.math and fixed: overflowing |q|^2,
tiny-angle relative accuracy of angle_between, orthonormalize's keep and scale."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from quatlab.math import interpolate as I
from quatlab.math import quaternion as Q

sys.path.insert(0, str(Path(__file__).parent))
from test_quaternion import exact_rotation_angle, random_quats  # noqa: E402

# --------------------------------------------------------------------------- 1. SLERP


# --------------------------------------------------------------------------- 2. overflow


BIG = np.array([1e200, 0.0, 0.0, 1e200])  # finite, non-zero: 90 deg about Z, scaled
BIG_UNIT = np.array([np.sqrt(0.5), 0.0, 0.0, np.sqrt(0.5)])


def test_normalize_large_finite_quaternion():
    # |q|^2 overflows to inf and as_quaternion divides by sqrt(inf): the zero quaternion.
    assert np.allclose(Q.normalize(BIG), BIG_UNIT)  # currently [0, 0, 0, 0]
    assert np.allclose(Q.normalize([3e154, 0, 0, 0]), [1, 0, 0, 0])


def test_large_finite_quaternion_rotates_correctly():
    assert np.allclose(Q.rotate_vector(BIG, [1.0, 0, 0]), [0, 1, 0])  # currently [1, 0, 0]
    assert np.isclose(Q.angle_between(BIG, BIG_UNIT), 0.0)  # currently pi
    assert np.allclose(Q.to_matrix(BIG), Q.to_matrix(BIG_UNIT))


def test_large_finite_quaternion_interpolates_correctly():
    q1 = Q.from_axis_angle([1, 0, 0], 1.0)
    assert np.allclose(I.nlerp(BIG, q1, 0.5), I.nlerp(BIG_UNIT, q1, 0.5))  # wrong value now
    assert np.allclose(I.slerp(BIG, q1, 0.5), I.slerp(BIG_UNIT, q1, 0.5))  # NaN now


# --------------------------------------------------------------------------- 3. angle_between


def test_angle_between_relative_accuracy_for_tiny_angles(rng):
    # Random a, b = a (x) tiny rotation (1e-16 .. 1e-6 rad). 4 atan2(|a-b|, |a+b|) counts the
    # few-ulp difference of |a| and |b| as angle: 40% off at 1e-15 rad, 1% at 1e-14, 1e-9
    # at 1e-10. Computing the angle from vec(conj(a) (x) (b - a)) is scale-invariant and
    # keeps ~3e-16 relative accuracy at every size.
    a = random_quats(rng, (80,))
    steps = Q.from_rotvec(rng.normal(size=(80, 3)) * np.logspace(-16, -6, 80)[:, None])
    b = Q.multiply(a, steps)
    got = Q.angle_between(a, b)
    for ai, bi, g in zip(a, b, got, strict=True):
        exact = exact_rotation_angle(ai, bi)
        assert abs(np.longdouble(g) - exact) <= 1e-14 * exact, (float(g), float(exact))


# --------------------------------------------------------------------------- 4. orthonormalize


@pytest.mark.parametrize("keep", [1.0, True])
def test_orthonormalize_non_int_keep_is_a_value_error_naming_keep(keep):
    # keep=1.0 passes the `in (0, 1, 2)` check, then numpy indexing raises IndexError;
    # keep=True indexes with a boolean and reports "column True of m has zero length" for
    # the identity matrix.
    with pytest.raises(ValueError, match=r"\bkeep\b"):
        Q.orthonormalize(np.eye(3), keep)


@pytest.mark.parametrize("scale", [1e-13, 1e-20])
def test_orthonormalize_is_scale_invariant(rng, scale):
    # Gram-Schmidt does not depend on the scale of the matrix; the 1e-12 degeneracy
    # thresholds are absolute, so a uniformly small (valid) basis is called degenerate.
    r = Q.to_matrix(random_quats(rng, ()))
    assert np.allclose(Q.orthonormalize(scale * r), r, atol=1e-14)
