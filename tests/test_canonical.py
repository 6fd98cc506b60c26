"""quatlab.math.quaternion.canonical: the w >= 0 representative, with a tie rule at w == 0.

Oracles: scipy's ``as_quat(canonical=True)`` (documented with the same tie
rule: w > 0, else the first non-zero of x, y, z positive), hand cases, and
the properties that define a canonical form (one answer for q and -q, the same
rotation, idempotent).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.spatial.transform import Rotation

from quatlab.math import quaternion as Q

PROPERTY = settings(max_examples=150, deadline=None)

# Components drawn from a few exact values, zeros and signed zeros included, so that
# w == 0 and leading zeros (the tie cases) come up often.
parts = st.sampled_from([0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 0.25, -2.0, 1e-300, -1e-300])
quats = arrays(np.float64, 4, elements=parts).filter(lambda q: np.any(q != 0))


@pytest.mark.parametrize("q, expected", [
    ([1, 0, 0, 0], [1, 0, 0, 0]),
    ([-1, 0, 0, 0], [1, 0, 0, 0]),
    ([-0.5, 0.5, -0.5, 0.5], [0.5, -0.5, 0.5, -0.5]),
    ([0, -1, 0, 0], [0, 1, 0, 0]),           # w == 0: x decides
    ([0, 0, -1, 0], [0, 0, 1, 0]),           # w == x == 0: y decides
    ([0, 0, 0, -1], [0, 0, 0, 1]),
    ([0, -0.6, 0.8, 0], [0, 0.6, -0.8, 0]),  # x decides even though y is larger
    ([-0.0, 0.0, -0.6, -0.8], [0, 0, 0.6, 0.8]),
    ([0, 0, 0, 2], [0, 0, 0, 1]),            # normalized
])
def test_hand_cases(q, expected):
    got = Q.canonical(q)
    assert np.array_equal(got, expected)
    assert not np.any(np.signbit(got)[np.asarray(expected) == 0])  # no -0.0 left


@PROPERTY
@given(quats)
def test_matches_scipy_canonical(q):
    got = Q.canonical(q)
    # scipy normalizes with its own norm: compare after the same normalization.
    ref = Q.from_xyzw(Rotation.from_quat(Q.to_xyzw(Q.normalize(q))).as_quat(canonical=True))
    assert np.array_equal(np.sign(got), np.sign(ref))
    np.testing.assert_allclose(got, ref, rtol=0, atol=5e-16)


@PROPERTY
@given(quats)
def test_is_a_canonical_form(q):
    c = Q.canonical(q)
    assert np.array_equal(Q.canonical(-np.asarray(q)), c)   # one answer for q and -q
    assert np.array_equal(Q.canonical(c), c)                # idempotent
    assert c[0] >= 0 and not np.signbit(c[0])
    lead = c[np.flatnonzero(c)[0]]
    assert lead > 0                                         # the tie rule
    assert np.array_equal(np.abs(c), np.abs(Q.normalize(q)))  # the same rotation, same digits


def test_random_rotations_and_broadcasting(rng):
    q = rng.normal(size=(2, 3, 5, 4))
    q[0, 0, :, 0] = 0.0                                       # half turns
    c = Q.canonical(q)
    assert c.shape == q.shape
    ref = Rotation.from_quat(Q.to_xyzw(Q.normalize(q)).reshape(-1, 4)).as_quat(canonical=True)
    np.testing.assert_allclose(c, Q.from_xyzw(ref).reshape(q.shape), rtol=0, atol=5e-16)
    v = rng.normal(size=3)
    np.testing.assert_allclose(Q.rotate_vector(c, v), Q.rotate_vector(q, v), atol=1e-14)


@pytest.mark.parametrize("bad, match", [
    ([1, 0, 0], r"q must have shape \(\.\.\., 4\) in \(w, x, y, z\) order, got shape \(3,\)"),
    ([0, 0, 0, 0], "q has zero length"),
    ([np.nan, 0, 0, 1], "q contains NaN"),
])
def test_refuses_what_is_no_rotation(bad, match):
    with pytest.raises(ValueError, match=match):
        Q.canonical(bad)
