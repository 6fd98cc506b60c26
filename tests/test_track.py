"""Keyframe tracks: piecewise NLERP / SLERP and SQUAD (quatlab.math.track).

Oracles: scipy's Slerp for piecewise SLERP; numpy-quaternion's squad (a
third-party implementation, when installed) for SQUAD with equally spaced
keys, with and without its own unflipping; central finite differences of the
returned quaternions for every analytic speed; and geometric facts (NLERP
stays on SLERP's great arc, the speed integrates to the segment angle,
SQUAD's angular velocity is continuous at keys).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation, Slerp

from quatlab.math import interpolate
from quatlab.math import quaternion as Q
from quatlab.math import track as T


def _rot(q):
    return Rotation.from_quat(Q.to_xyzw(q))


def _finite_difference_speed(times, keys, t, method, h=1e-6, **kw):
    """2 |dq/dt| by central differences of the evaluated quaternions."""
    plus = T.evaluate(times, keys, t + h, method, **kw).quats
    minus = T.evaluate(times, keys, t - h, method, **kw).quats
    return 2 * np.linalg.norm((plus - minus) / (2 * h), axis=-1)


def _interior(times, n=97, margin=1e-4):
    """Sample times away from the keys (where one-sided limits differ)."""
    t = np.linspace(times[0], times[-1], n)
    return t[np.min(np.abs(t[:, None] - np.asarray(times)[None, :]), axis=1) > margin]


# --------------------------------------------------------------------------- keys


def test_align_keys_follows_the_previous_key():
    times, keys = T.preset_track("negated_key")
    aligned = T.align_keys(keys)
    np.testing.assert_array_equal(aligned[2], -Q.normalize(keys[2]))
    assert np.all(np.einsum("ij,ij->i", aligned[:-1], aligned[1:]) >= 0)
    # Rotations unchanged.
    assert np.all(Q.angle_between(aligned, keys) < 1e-15)
    # dot == 0 keeps the stored sign (seed 000's determinism rule).
    got = T.align_keys([[1, 0, 0, 0], [0, 0, 0, -1]])
    np.testing.assert_array_equal(got[1], [0, 0, 0, -1])


def test_control_points_reuse_the_sign_aware_intermediate():
    times, keys = T.preset_track("four_keys")
    s = T.control_points(times, keys)
    np.testing.assert_array_equal(s[[0, -1]], Q.normalize(keys[[0, -1]]))
    expected = interpolate.intermediate(keys[:-2], keys[1:-1], keys[2:])
    np.testing.assert_allclose(s[1:-1], expected, atol=1e-15)
    # With equal spacing the time-scaled weights are 1/2: the same points.
    np.testing.assert_allclose(T.control_points(times, keys, tangents="time_scaled"), s,
                               atol=1e-15)
    # Without sign flips the unaware formula agrees.
    np.testing.assert_allclose(T.control_points(times, keys, signs="stored"), s, atol=1e-15)


def test_unaware_control_point_goes_wrong_for_a_negated_neighbour():
    times, keys = T.preset_track("negated_key")
    good = T.control_points(times, keys)
    bad = T.control_points(times, keys, signs="unaware_controls")
    stored = T.control_points(times, keys, signs="stored")
    # unaware_controls = stored-sign formula, re-signed to the aligned key.
    assert np.all(Q.angle_between(bad, stored) < 1e-15)
    assert np.all(np.einsum("ij,ij->i", bad, T.align_keys(keys)) > 0)
    errors = np.degrees(Q.angle_between(good, bad))
    assert errors[0] == 0 and errors[-1] == 0
    assert np.all(errors[1:3] > 40)


# --------------------------------------------------------------------------- SLERP / NLERP


@pytest.mark.parametrize("name", ["four_keys", "uneven_times", "gltf_animated_triangle"])
def test_piecewise_slerp_matches_scipy_slerp(name):
    times, keys = T.preset_track(name)
    t = np.linspace(times[0], times[-1], 201)
    curve = T.evaluate(times, keys, t, "slerp")
    expected = Slerp(times, _rot(Q.normalize(keys)))(t)
    assert np.max((expected.inv() * _rot(curve.quats)).magnitude()) < 1e-12
    # Speed: the segment's rotation angle over its duration (scipy's magnitude).
    rel = (_rot(keys[:-1]).inv() * _rot(keys[1:])).magnitude() / np.diff(times)
    seg = np.clip(np.searchsorted(times, t, side="right") - 1, 0, len(times) - 2)
    np.testing.assert_allclose(curve.speed, rel[seg], rtol=1e-12)
    np.testing.assert_allclose(curve.speed_after[:-1], rel, rtol=1e-12)
    np.testing.assert_allclose(curve.speed_before[1:], rel, rtol=1e-12)
    assert np.isnan(curve.speed_before[0]) and np.isnan(curve.speed_after[-1])


def test_piecewise_slerp_jumps_at_keys():
    times, keys = T.preset_track("four_keys")
    curve = T.evaluate(times, keys, _interior(times), "slerp")
    np.testing.assert_allclose(np.degrees(curve.speed_after[:-1]), [90, 60, 120], rtol=1e-12)
    np.testing.assert_allclose(np.degrees(curve.speed_jump[1:-1]), [-30, 60], rtol=1e-12)


@pytest.mark.parametrize("name", ["four_keys", "uneven_times", "gltf_animated_triangle"])
def test_piecewise_nlerp_stays_on_the_slerp_arc(name):
    times, keys = T.preset_track(name)
    t = _interior(times)
    nl = T.evaluate(times, keys, t, "nlerp")
    sl = T.evaluate(times, keys, t, "slerp")
    aligned = T.align_keys(keys)
    seg = np.clip(np.searchsorted(times, t, side="right") - 1, 0, len(times) - 2)
    a, b = aligned[seg], aligned[seg + 1]
    # On the great arc between the keys: 4D angles to both ends add up.
    ang = lambda x, y: np.arccos(np.clip(np.einsum("ij,ij->i", x, y), -1, 1))  # noqa: E731
    np.testing.assert_allclose(ang(nl.quats, a) + ang(nl.quats, b), ang(a, b), atol=1e-7)
    # Same ends, different timing: faster in the middle of each segment.
    assert np.max(nl.speed - sl.speed) > 0 and np.min(nl.speed - sl.speed) < 0


@pytest.mark.parametrize("method", T.METHODS)
@pytest.mark.parametrize("name", list(T.PRESETS))
def test_analytic_speed_matches_finite_differences(method, name):
    times, keys = T.preset_track(name)
    t = _interior(times)
    curve = T.evaluate(times, keys, t, method)
    fd = _finite_difference_speed(times, keys, t, method)
    np.testing.assert_allclose(curve.speed, fd, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("method", ["nlerp", "slerp"])
def test_speed_integrates_to_the_segment_angle(method):
    times, keys = T.preset_track("uneven_times")
    for i in range(len(times) - 1):
        t = np.linspace(times[i], times[i + 1], 2001)[:-1]
        t = np.append(t, times[i + 1] - 1e-12)
        speed = T.evaluate(times, keys, t, method).speed
        total = np.sum((speed[1:] + speed[:-1]) / 2 * np.diff(t))
        expected = Q.angle_between(keys[i], keys[i + 1])
        assert total == pytest.approx(expected, rel=1e-6)


# --------------------------------------------------------------------------- SQUAD


def test_squad_passes_through_the_keys():
    for name in T.PRESETS:
        times, keys = T.preset_track(name)
        for signs in T.SIGN_MODES:
            curve = T.evaluate(times, keys, times, "squad", signs=signs)
            assert np.all(Q.angle_between(curve.quats, keys) < 1e-12), (name, signs)


def test_squad_with_two_keys_is_slerp():
    times, keys = [0.0, 2.0], Q.from_axis_angle([[1, 0, 0], [0, 1, 1]], [0.3, 2.0])
    t = np.linspace(0, 2, 11)
    np.testing.assert_allclose(T.evaluate(times, keys, t, "squad").quats,
                               T.evaluate(times, keys, t, "slerp").quats, atol=1e-15)


def _body_rate(times, keys, t, side, h=1e-7, **kw):
    """One-sided angular velocity 2 conj(q) dq/dt (vector part) just before/after t."""
    if side > 0:
        t0, t1 = t, t + h
    else:
        t0, t1 = t - h, t
    q0, q1 = T.evaluate(times, keys, [t0, t1], "squad", **kw).quats
    return 2 * Q.multiply(Q.conjugate(q0), (q1 - q0) / h)[1:]


@pytest.mark.parametrize(
    ("name", "tangents"),
    [("four_keys", "uniform"), ("uneven_times", "time_scaled"), ("negated_key", "uniform")],
)
def test_squad_angular_velocity_is_continuous_at_keys(name, tangents):
    times, keys = T.preset_track(name)
    curve = T.evaluate(times, keys, _interior(times), "squad", tangents=tangents)
    np.testing.assert_allclose(curve.speed_jump[1:-1], 0, atol=1e-12)
    for tk in times[1:-1]:
        before = _body_rate(times, keys, tk, -1, tangents=tangents)
        after = _body_rate(times, keys, tk, +1, tangents=tangents)
        np.testing.assert_allclose(before, after, atol=1e-5)


def test_uniform_tangents_jump_when_keys_are_unevenly_spaced():
    times, keys = T.preset_track("uneven_times")
    uniform = T.evaluate(times, keys, _interior(times), "squad")
    assert np.all(np.abs(np.degrees(uniform.speed_jump[1:-1])) > 50)


@pytest.mark.parametrize("name", list(T.PRESETS))
def test_sign_aware_curves_ignore_key_signs(name):
    times, keys = T.preset_track(name)
    t = np.linspace(times[0], times[-1], 61)
    for j in range(len(keys)):
        flipped = np.array(keys, dtype=float)
        flipped[j] *= -1
        for method in T.METHODS:
            a = T.evaluate(times, keys, t, method)
            b = T.evaluate(times, flipped, t, method)
            if j > 0:
                # Key 0 fixes the signs of the aligned sequence: identical output.
                np.testing.assert_allclose(b.quats, a.quats, atol=1e-15)
                np.testing.assert_allclose(b.speed, a.speed, rtol=1e-12)
            else:
                assert np.all(Q.angle_between(a.quats, b.quats) < 1e-12)


def test_issue_166_figures():
    """Sign-unaware control points bend SQUAD tens of degrees off the path."""
    for name, expected in (("negated_key", 40.0), ("gltf_animated_triangle", 26.67)):
        track = T.compute_track(*T.preset_track(name), samples=1201)
        dev = np.degrees(track.deviation("squad", "squad_unaware"))
        assert np.nanmax(dev) == pytest.approx(expected, abs=0.05), name
        assert track["squad_unaware"].notes == ()
    # With consistent signs the two coincide.
    track = T.compute_track(*T.preset_track("four_keys"))
    assert np.nanmax(track.deviation("squad", "squad_unaware")) < 1e-12


def test_stored_signs_send_the_segments_the_long_way():
    times, keys = T.preset_track("negated_key")
    naive = T.evaluate(times, keys, times, "slerp", signs="stored")
    np.testing.assert_allclose(np.degrees(naive.key_angle), [0, 90, 255.522488, 180],
                               atol=1e-6)
    np.testing.assert_allclose(np.degrees(naive.speed_after[1:3]), [300, 240], rtol=1e-12)


@pytest.mark.parametrize("signs", ["aware", "unaware_controls"])
def test_squad_matches_numpy_quaternion(signs):
    nq = pytest.importorskip("quaternion")
    for name in ("four_keys", "negated_key", "gltf_animated_triangle"):
        times, keys = T.preset_track(name)
        keys = Q.normalize(keys)
        t = np.linspace(times[0], times[-1], 241)[:-1]  # its squad extrapolates at the end
        # numpy-quaternion's squad takes rotors as given, signs and all
        # (docs/sources.md, "Sign-unaware SQUAD"), unless asked to unflip them first.
        ref = nq.squad(nq.as_quat_array(keys), times, t,
                       unflip_input_rotors=(signs == "aware"))
        got = T.evaluate(times, keys, t, "squad", signs=signs)
        assert np.max(Q.angle_between(got.quats, nq.as_float_array(ref))) < 1e-12, name


@settings(max_examples=40, deadline=None)
@given(
    k=st.integers(2, 5),
    seed=st.integers(0, 2**32 - 1),
    method=st.sampled_from(T.METHODS),
    tangents=st.sampled_from(T.TANGENTS),
)
def test_property_random_tracks(k, seed, method, tangents):
    rng = np.random.default_rng(seed)
    keys = rng.normal(size=(k, 4))
    times = np.cumsum(rng.uniform(0.2, 2.0, k)) - 1.0
    aligned = Q.normalize(T.align_keys(keys))
    # Keep clear of half-turn segments (4D dot ~ 0), where the short arc is a
    # coin toss and a finite difference would straddle it.
    assume(np.all(np.einsum("ij,ij->i", aligned[:-1], aligned[1:]) > 0.05))
    t = _interior(times, n=41, margin=1e-3)
    curve = T.evaluate(times, keys, t, method, tangents=tangents)
    assert np.all(np.abs(np.linalg.norm(curve.quats, axis=1) - 1) < 1e-12)
    fd = _finite_difference_speed(times, keys, t, method, tangents=tangents)
    np.testing.assert_allclose(curve.speed, fd, rtol=1e-5, atol=1e-6)
    at_keys = T.evaluate(times, keys, times, method, tangents=tangents)
    assert np.all(Q.angle_between(at_keys.quats, keys) < 1e-12)
    flipped = keys * rng.choice([-1.0, 1.0], size=(k, 1))
    other = T.evaluate(times, flipped, t, method, tangents=tangents)
    assert np.all(Q.angle_between(other.quats, curve.quats) < 1e-12)


# --------------------------------------------------------------------------- compute_track


def test_compute_track_for_the_gltf_asset():
    times, keys = T.preset_track("gltf_animated_triangle")
    track = T.compute_track(times, keys)
    assert list(track.methods) == list(T.TRACK_METHODS)
    assert track.flipped.tolist() == [4]
    assert np.all(np.isin(times, track.t))
    assert len(track.t) == T.SAMPLES_PER_SEGMENT * 4 + 1
    # Sign-aware: the joint keeps turning, 90 deg per key, 360 deg/s throughout.
    for m in ("slerp", "squad"):
        np.testing.assert_allclose(np.degrees(track[m].key_angle), [0, 90, 180, 270, 360],
                                   atol=1e-4)
    np.testing.assert_allclose(track["slerp"].speed_deg, 360.0, rtol=1e-6)
    # Equal turns at equal spacing: SQUAD reduces to SLERP here.
    assert np.nanmax(track.deviation("squad", "slerp")) < 1e-12
    for m in T.TRACK_METHODS:
        assert track[m].label == T.METHOD_LABELS[m]
        assert np.all(np.isfinite(track[m].angle))


def test_custom_samples_and_times():
    times, keys = T.preset_track("four_keys")
    assert len(T.compute_track(times, keys, samples=2).t) == 4  # ends + interior keys
    track = T.compute_track(times, keys, t=[0.5, 2.5])
    assert track.t.tolist() == [0.5, 2.5]


# --------------------------------------------------------------------------- gaps


def test_naive_collapse_is_a_labelled_gap():
    q = Q.from_axis_angle([0, 0, 1], 0.5)
    times, keys = [0.0, 1.0, 2.0], np.array([q, -q, q])
    t = np.linspace(0, 2, 9)
    nl = T.evaluate(times, keys, t, "nlerp", signs="stored")
    assert np.isnan(nl.speed[[2, 6]]).all() and np.isnan(nl.quats[[2, 6]]).all()
    assert np.isfinite(nl.speed[[0, 1, 3, 4, 5, 7, 8]]).all()
    assert len(nl.notes) == 2 and "collapses" in nl.notes[0]
    sl = T.evaluate(times, keys, t, "slerp", signs="stored")
    assert np.isnan(sl.quats[[1, 2, 3, 5, 6, 7]]).all()
    assert np.isfinite(sl.quats[[0, 4, 8]]).all()
    assert "undefined" in sl.notes[0]
    sq = T.evaluate(times, keys, t, "squad", signs="stored")
    assert np.isnan(sq.quats[[1, 2, 3]]).all() and sq.notes
    # Sign-aware: the same rotation three times is no motion at all.
    aware = T.evaluate(times, keys, t, "squad")
    assert np.all(aware.speed == 0) and aware.notes == ()


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("times", "keys", "t", "match"),
    [
        ([0.0], [[1, 0, 0, 0]], 0.0, r"times must have shape \(K,\) with K >= 2"),
        ([[0.0, 1.0]], [[1, 0, 0, 0]] * 2, 0.0, "times must have shape"),
        ([0.0, np.nan], [[1, 0, 0, 0]] * 2, 0.0, "times must be finite"),
        ([1.0, 1.0], [[1, 0, 0, 0]] * 2, 1.0, "times must be strictly increasing"),
        ([1.0, 0.0], [[1, 0, 0, 0]] * 2, 0.5, "times must be strictly increasing"),
        (["a", "b"], [[1, 0, 0, 0]] * 2, 0.5, "times must be numeric"),
        ([0.0, 1.0], [[1, 0, 0, 0]] * 3, 0.5, r"keys must have shape \(2, 4\)"),
        ([0.0, 1.0], [[1, 0, 0, 0], [0, 0, 0, 0]], 0.5, "keys has zero length"),
        ([0.0, 1.0], [[1, 0, 0, np.inf]] * 2, 0.5, "keys contains NaN or infinite"),
        ([0.0, 1.0], [[1, 0, 0]] * 2, 0.5, "keys must have shape"),
        ([0.0, 1.0], [[1, 0, 0, 0]] * 2, 1.5, r"t must lie in \[0, 1\]"),
        ([0.0, 1.0], [[1, 0, 0, 0]] * 2, -0.1, "t must lie in"),
        ([0.0, 1.0], [[1, 0, 0, 0]] * 2, np.nan, "t must be finite"),
        ([0.0, 1.0], [[1, 0, 0, 0]] * 2, [[0.5]], "t must be one-dimensional"),
        ([0.0, 1.0], [[1, 0, 0, 0]] * 2, "x", "t must be numeric"),
    ],
)
def test_evaluate_rejects_bad_input(times, keys, t, match):
    with pytest.raises(ValueError, match=match):
        T.evaluate(times, keys, t, "slerp")


def test_other_error_paths():
    times, keys = T.preset_track("four_keys")
    with pytest.raises(ValueError, match="method must be one of"):
        T.evaluate(times, keys, 0.5, "cubic")
    with pytest.raises(ValueError, match="signs must be one of"):
        T.evaluate(times, keys, 0.5, "squad", signs="naive")
    with pytest.raises(ValueError, match="applies to method 'squad' only"):
        T.evaluate(times, keys, 0.5, "slerp", signs="unaware_controls")
    with pytest.raises(ValueError, match="tangents must be one of"):
        T.evaluate(times, keys, 0.5, "squad", tangents="catmull")
    with pytest.raises(ValueError, match="tangents must be one of"):
        T.control_points(times, keys, tangents="x")
    with pytest.raises(ValueError, match="signs must be one of"):
        T.control_points(times, keys, signs="x")
    with pytest.raises(ValueError, match="samples must be an integer of at least 2"):
        T.compute_track(times, keys, samples=1)
    with pytest.raises(ValueError, match="samples must be an integer"):
        T.compute_track(times, keys, samples=10.0)
    with pytest.raises(ValueError, match="t must lie in"):
        T.compute_track(times, keys, t=[4.0])
    with pytest.raises(ValueError, match="name must be one of"):
        T.preset_track("nope")
    with pytest.raises(ValueError, match=r"keys must have shape \(K, 4\)"):
        T.align_keys([1, 0, 0, 0])
    with pytest.raises(ValueError, match="q_next has zero length"):
        T.intermediate_unaware([1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0])
