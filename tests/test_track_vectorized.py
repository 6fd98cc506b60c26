"""The vectorized track evaluation (quatlab.math.track) against the segment-by-segment one.

Oracles: the segment-by-segment evaluation (the previous implementation,
kept as the fallback for segments whose path does not exist), the plain
sequential sign rule for :func:`align_keys`, scipy's ``Slerp`` for piecewise
SLERP, and hand-worked cases.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation, Slerp

from quatlab.math import quaternion as Q
from quatlab.math import track as T
from quatlab.math import track_keys as TK
from quatlab.math import track_segments as TS


def _sequential_align(keys):
    out = np.array(keys, dtype=float)
    for i in range(1, len(out)):
        if out[i - 1] @ out[i] < 0:
            out[i] = -out[i]
    return out


def _random_track(seed, k):
    rng = np.random.default_rng(seed)
    times = np.cumsum(rng.uniform(0.1, 2.0, size=k))
    keys = Q.normalize(rng.normal(size=(k, 4)))
    keys[rng.random(k) < 0.3] *= -1
    return times, keys


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(2, 12),
       mode=st.sampled_from([("nlerp", "aware"), ("slerp", "aware"), ("squad", "aware"),
                             ("squad", "unaware_controls"), ("nlerp", "stored"),
                             ("slerp", "stored"), ("squad", "stored")]),
       tangents=st.sampled_from(TK.TANGENTS))
def test_evaluate_at_once_equals_segment_by_segment(seed, k, mode, tangents):
    method, signs = mode
    times, keys = _random_track(seed, k)
    t = np.union1d(np.linspace(times[0], times[-1], 97), times)
    curve = T.evaluate(times, keys, t, method, signs=signs, tangents=tangents)
    shortest = signs != "stored"
    q = Q.normalize(keys)
    used = TK.align_keys(q) if shortest else q
    s = TK.control_points(times, q, signs=signs, tangents=tangents) if method == "squad" else used
    seg = np.clip(np.searchsorted(times, t, side="right") - 1, 0, k - 2)
    u = np.clip((t - times[seg]) / np.diff(times)[seg], 0.0, 1.0)
    quats, speed, before, after, notes = TS._evaluate_per_segment(
        method, times, used, s, seg, u, shortest)
    for got, want in ((curve.quats, quats), (curve.speed, speed),
                      (curve.speed_before, before), (curve.speed_after, after)):
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True)
    assert list(curve.notes) == notes


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(1, 30))
def test_align_keys_is_the_sequential_rule(seed, k):
    rng = np.random.default_rng(seed)
    keys = Q.normalize(rng.normal(size=(k, 4)))
    keys[rng.random(k) < 0.5] *= -1
    # Some exactly orthogonal neighbours (dot == 0 keeps the stored sign):
    # complementary zero components, so every product is 0 however the dot
    # is summed.
    for i in range(1, k, 3):  # disjoint pairs (0, 1), (3, 4)...
        if rng.random() < 0.5:
            continue
        keys[i - 1, 2:] = 0.0
        keys[i, :2] = 0.0
        keys[i - 1 : i + 1] = Q.normalize(keys[i - 1 : i + 1])
    np.testing.assert_array_equal(TK.align_keys(keys), _sequential_align(keys))


def test_align_keys_hand_worked_zero_dot_keeps_the_stored_sign():
    # key1 = -key0 is flipped; key2 is orthogonal to key1 (dot 0): kept as stored,
    # although the keys before it were flipped; key3 then follows key2.
    keys = [[1, 0, 0, 0], [-1, 0, 0, 0], [0, 1, 0, 0], [0, -1, 0, 0]]
    assert (TK.align_keys(keys) + 0.0).tolist() == [
        [1, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0]]


def test_piecewise_slerp_follows_scipy():
    times, keys = _random_track(11, 9)
    t = np.linspace(times[0], times[-1], 400)
    curve = T.evaluate(times, keys, t, "slerp")
    want = Slerp(times, Rotation.from_quat(Q.to_xyzw(keys)))(t)
    got = Rotation.from_quat(Q.to_xyzw(curve.quats))
    np.testing.assert_allclose((want.inv() * got).magnitude(), 0.0, atol=1e-9)


def test_a_segment_between_antipodes_is_nan_only_there():
    """Stored signs, exact antipodes in segment 1: the fallback marks that segment alone."""
    c = np.sqrt(0.5)
    keys = [[1, 0, 0, 0], [c, 0, 0, c], [-c, 0, 0, -c], [0, 0, 0, 1]]
    times = [0.0, 1.0, 2.0, 3.0]
    t = np.linspace(0, 3, 31)
    curve = T.evaluate(times, keys, t, "slerp", signs="stored")
    inside = (t > 1) & (t < 2)
    assert np.isnan(curve.quats[inside]).all() and np.isfinite(curve.quats[~inside]).all()
    assert len(curve.notes) == 1 and curve.notes[0].startswith("segment 1 (1 s to 2 s)")
    # Hand-worked: segment 0 turns 90 deg in 1 s (180 deg/s in 4D speed terms 2W/dt).
    np.testing.assert_allclose(np.degrees(curve.speed[t < 1]), 90.0)


@pytest.mark.parametrize("k", [2, 3, 50])
def test_compute_track_shapes_and_keys_on_the_curve(k):
    times, keys = _random_track(5, k)
    track = T.compute_track(times, keys, samples=101)
    for m in T.TRACK_METHODS:
        curve = track[m]
        at_keys = np.isin(track.t, times)
        np.testing.assert_allclose(  # every method passes through its keys (sign-blind)
            Q.angle_between(curve.quats[at_keys], TK.align_keys(Q.normalize(keys))), 0.0,
            atol=1e-7)
