"""Tests for quatlab.math.audit, with scipy's Rotation as the independent oracle."""

from __future__ import annotations

import doctest
import importlib
import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.spatial.transform import Rotation

from quatlab.math import audit
from quatlab.math.quaternion import from_xyzw, to_xyzw


def test_doctests():
    module = importlib.import_module("quatlab.math.audit")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


def _random_track(rng, n, max_step_deg=150.0):
    """n scipy rotations with steps up to max_step_deg, as (w, x, y, z), random signs."""
    steps = Rotation.from_rotvec(
        rng.normal(size=(n, 3)) * np.radians(max_step_deg) / 3.0
    )
    rots = [Rotation.random(random_state=rng)]
    for k in range(1, n):
        rots.append(rots[-1] * steps[k])
    rots = Rotation.concatenate(rots)
    q = from_xyzw(rots.as_quat())
    signs = rng.choice([-1.0, 1.0], size=(n, 1))
    return rots, q * signs


# --------------------------------------------------------------------------- scipy oracle


def _naive_midpoint_turns_long_way(r0: Rotation, q0, q1) -> bool:
    """Does the component blend of q0 and q1 (naive NLERP at t=0.5) turn the long way?

    Judged by geometry only: the midpoint of the short arc is half the
    relative rotation away from r0; the midpoint of the long arc is pi minus
    that.
    """
    r1 = Rotation.from_quat(to_xyzw(q1))
    theta = (r0.inv() * r1).magnitude()
    mid = Rotation.from_quat(to_xyzw(q0 + q1))  # scipy normalizes
    swept = (r0.inv() * mid).magnitude()
    return bool(swept > theta / 2 + 1e-6)


def test_sign_flip_is_where_naive_blending_turns_the_long_way(rng):
    rots, q = _random_track(rng, 200)
    report = audit.audit_keys(q)
    expected = np.array(
        [_naive_midpoint_turns_long_way(rots[i], q[i], q[i + 1]) for i in range(len(q) - 1)]
    )
    assert expected.any() and not expected.all()
    np.testing.assert_array_equal(report.sign_flip, expected)
    assert not report.half_turn.any()


def test_sign_continuity_keeps_rotations_and_makes_every_segment_short(rng):
    rots, q = _random_track(rng, 200)
    fixed, flipped = audit.sign_continuity(q)
    fixed_rots = Rotation.from_quat(to_xyzw(fixed))
    # Same rotations (scipy compares rotations, not quaternion signs).
    assert np.all(rots.approx_equal(fixed_rots, atol=1e-12))
    # After the fix the naive blend of every segment follows the short arc.
    assert not any(
        _naive_midpoint_turns_long_way(rots[i], fixed[i], fixed[i + 1])
        for i in range(len(q) - 1)
    )
    # And the stored-component arc equals the rotation angle between the keys.
    theta = (rots[:-1].inv() * rots[1:]).magnitude()
    arc = 2 * np.arccos(np.clip(np.einsum("ij,ij->i", fixed[:-1], fixed[1:]), -1, 1))
    np.testing.assert_allclose(arc, theta, atol=1e-6)
    assert audit.audit_keys(fixed).sign_flip.sum() == 0
    assert flipped[0] == False  # noqa: E712 - numpy bool


def test_half_turn_from_scipy_rotations(rng):
    r0 = Rotation.random(5, random_state=rng)
    axes = rng.normal(size=(5, 3))
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    half = r0 * Rotation.from_rotvec(axes * np.pi)
    almost = r0 * Rotation.from_rotvec(axes * (np.pi - 1e-3))
    for r1, expected in ((half, True), (almost, False)):
        pairs = np.stack([from_xyzw(r0.as_quat()), from_xyzw(r1.as_quat())], axis=1)
        report = audit.audit_keys(pairs)  # (5 tracks, 2 keys, 4)
        assert report.half_turn.shape == (5, 1)
        assert np.all(report.half_turn[:, 0] == expected)
        # A half turn is never also reported as a sign flip.
        assert not np.any(report.half_turn & report.sign_flip)


def test_int8_quantized_unit_keys_pass_the_unit_tolerance(rng):
    # The tolerance is the glTF validator's: honest int8 quantization passes.
    q = from_xyzw(Rotation.random(5000, random_state=rng).as_quat())
    decoded = np.maximum(np.round(q * 127) / 127, -1.0)
    assert not audit.audit_keys(decoded).non_unit.any()
    assert audit.audit_keys(q * 1.01).non_unit.all()


# --------------------------------------------------------------------------- real figures


def test_animated_triangle_keys():
    # KhronosGroup glTF-Sample-Assets AnimatedTriangle, rotation keys (x, y, z, w),
    # as listed in the data README.
    xyzw = [[0, 0, 0, 1], [0, 0, 0.707, 0.707], [0, 0, 1, 0], [0, 0, 0.707, -0.707], [0, 0, 0, 1]]
    report = audit.audit_keys(from_xyzw(np.array(xyzw, dtype=np.float32)))
    np.testing.assert_array_equal(report.sign_flip, [False, False, False, True])
    assert not report.half_turn.any()
    assert not report.non_unit.any()  # |.707, .707| = 0.99985: inside the tolerance
    assert report.dots[-1] == pytest.approx(-np.sqrt(0.5), abs=1e-4)


def test_box_animated_keys():
    # glTF-Sample-Models BoxAnimated: (-0, -0, -0, -1) -> (1, 0, 0, 4.49e-11), (x, y, z, w).
    xyzw = np.array([[-0.0, -0.0, -0.0, -1.0], [1.0, 0.0, 0.0, 4.49e-11]], dtype=np.float32)
    report = audit.audit_keys(from_xyzw(xyzw))
    assert report.half_turn.tolist() == [True]
    assert report.sign_flip.tolist() == [False]
    # A quantization-sized tolerance still sees it; an int8 step would too.
    assert audit.audit_keys(from_xyzw(xyzw), half_turn_tol=1 / 127).half_turn.tolist() == [True]


# --------------------------------------------------------------------------- key classes


def test_key_classes_are_exclusive_and_segments_skip_bad_keys():
    keys = np.array(
        [
            [1.0, 0, 0, 0],
            [0.0, 0, 0, 0],  # zero
            [np.nan, 0, 0, 1],  # non-finite
            [np.inf, 0, 0, 0],  # non-finite
            [3.0, 0, 0, 0],  # non-unit
            [1e200, 1e200, 0, 0],  # finite components whose square overflows
            [1e-160, 0, 0, 0],  # too small to normalize: zero
            [-1.0, 0, 0, 0],
        ]
    )
    r = audit.audit_keys(keys)
    np.testing.assert_array_equal(r.zero, [0, 1, 0, 0, 0, 0, 1, 0])
    np.testing.assert_array_equal(r.non_finite, [0, 0, 1, 1, 0, 0, 0, 0])
    np.testing.assert_array_equal(r.non_unit, [0, 0, 0, 0, 1, 1, 0, 0])
    np.testing.assert_array_equal(r.valid, [1, 0, 0, 0, 1, 1, 0, 1])
    # Only segments between two valid keys have a dot.
    assert np.isnan(r.dots[:4]).all() and np.isnan(r.dots[5:7]).all()
    assert r.dots[4] == pytest.approx(np.sqrt(0.5))  # (3,0,0,0) . (1e200,1e200,0,0)
    assert not (r.sign_flip[:4].any() or r.half_turn[:4].any())


def test_sign_flip_threshold_and_zero_dot():
    keys = np.array([[1.0, 0, 0, 0], [0.0, 1, 0, 0], [0.0, -1, 0, 0]])
    r = audit.audit_keys(keys)
    assert r.half_turn.tolist() == [True, False]  # dot exactly 0
    assert r.sign_flip.tolist() == [False, True]  # dot -1
    fixed, flipped = audit.sign_continuity(keys)
    # dot == 0 keeps the sign; only the third key flips.
    assert flipped.tolist() == [False, False, True]
    np.testing.assert_array_equal(fixed, [[1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0]])


def test_tiny_negative_dot_is_a_half_turn_but_is_still_aligned():
    keys = np.array([[-1.0, 0, 0, 0], [4.49e-11, 1, 0, 0]])  # BoxAnimated, (w, x, y, z)
    r = audit.audit_keys(keys)
    assert r.half_turn.tolist() == [True] and r.sign_flip.tolist() == [False]
    # The fix follows the rule "flip when dot < 0": naive runtimes then turn
    # the way a spec SLERP player already does.
    _, flipped = audit.sign_continuity(keys)
    assert flipped.tolist() == [False, True]


def test_time_order():
    np.testing.assert_array_equal(
        audit.time_order([0.0, 1.0, 1.0, 0.5, np.inf, 2.0]), [False, True, True, True, True]
    )
    assert audit.time_order([[0.0, 1.0], [1.0, 0.0]]).tolist() == [[False], [True]]
    assert audit.time_order([3.0]).shape == (0,)
    with pytest.raises(ValueError, match="times"):
        audit.time_order(1.0)


def test_normalize_keys():
    keys = np.array([[2.0, 0, 0, 0], [0, 0, 0, 0], [np.nan, 1, 0, 0], [0, 0.6, 0.8, 0]])
    fixed, changed = audit.normalize_keys(keys)
    assert changed.tolist() == [True, False, False, False]
    np.testing.assert_array_equal(fixed[0], [1, 0, 0, 0])
    np.testing.assert_array_equal(fixed[1], [0, 0, 0, 0])
    assert np.isnan(fixed[2, 0]) and fixed[2, 1] == 1
    np.testing.assert_array_equal(fixed[3], keys[3])
    assert fixed is not keys


@pytest.mark.parametrize(
    "bad", [np.zeros(4), np.zeros((3, 3)), np.zeros((2, 5)), [[1, 2, 3, "x"]]]
)
def test_shape_and_type_errors(bad):
    with pytest.raises(ValueError):
        audit.audit_keys(bad)
    with pytest.raises(ValueError):
        audit.sign_continuity(bad)
    with pytest.raises(ValueError):
        audit.normalize_keys(bad)


@pytest.mark.parametrize("tol", [-1e-3, np.nan, np.inf])
def test_tolerance_errors(tol):
    with pytest.raises(ValueError, match="unit_tol"):
        audit.audit_keys(np.eye(4), unit_tol=tol)
    with pytest.raises(ValueError, match="half_turn_tol"):
        audit.audit_keys(np.eye(4), half_turn_tol=tol)


def test_audit_reuse_must_match_values():
    report = audit.audit_keys(np.eye(4))
    with pytest.raises(ValueError, match="audit is for shape"):
        audit.sign_continuity(np.eye(4)[:3], audit=report)


def test_empty_and_single_key_tracks():
    for n in (0, 1):
        keys = np.tile([0.0, 0, 0, -1], (n, 1))
        r = audit.audit_keys(keys)
        assert r.dots.shape == (0,) and r.zero.shape == (n,)
        fixed, flipped = audit.sign_continuity(keys)
        np.testing.assert_array_equal(fixed, keys)
        assert flipped.shape == (n,) and not flipped.any()


@pytest.mark.parametrize("shape", [(0, 5, 4), (3, 0, 4), (0, 0, 4), (2, 1, 4), (0, 4)])
def test_no_tracks_or_no_keys_in_a_batch(shape):
    # No tracks at all, (0, N, 4), raised IndexError from the padded dots.
    keys = np.ones(shape)
    r = audit.audit_keys(keys)
    assert r.norms.shape == shape[:-1]
    assert r.dots.shape == shape[:-2] + (max(shape[-2] - 1, 0),)
    for report in (None, r):
        fixed, flipped = audit.sign_continuity(keys, audit=report)
        assert fixed.shape == shape and flipped.shape == shape[:-1] and not flipped.any()


# --------------------------------------------------------------------------- properties


def _keys_strategy(max_keys=40, allow_bad=False):
    elements = st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False, width=64)
    if allow_bad:
        elements = st.one_of(
            elements, st.just(0.0), st.just(np.nan), st.just(np.inf), st.just(-np.inf)
        )
    return hnp.arrays(
        np.float64, st.tuples(st.integers(0, max_keys), st.just(4)), elements=elements
    )


def _same_bits(a, b):
    return np.array_equal(a, b, equal_nan=True)


@settings(max_examples=300, deadline=None)
@given(_keys_strategy())
def test_sign_continuity_properties(keys):
    fixed, flipped = audit.sign_continuity(keys)
    assert fixed.shape == keys.shape and flipped.shape == keys.shape[:-1]
    # Every key is +-input, and the flags say which.
    np.testing.assert_array_equal(fixed, np.where(flipped[:, None], -keys, keys))
    valid = audit.audit_keys(keys).valid
    if valid.any():
        first = np.argmax(valid)
        assert not flipped[: first + 1].any()  # the first (valid) key is untouched
    # Consecutive valid keys never point into opposite hemispheres.
    v = fixed[valid]
    assert np.all(np.einsum("ij,ij->i", v[:-1], v[1:]) >= 0)
    # Idempotent.
    again, flipped_again = audit.sign_continuity(fixed)
    assert not flipped_again.any()
    np.testing.assert_array_equal(again, fixed)


@settings(max_examples=300, deadline=None)
@given(_keys_strategy(allow_bad=True))
def test_sign_continuity_skips_bad_keys(keys):
    fixed, flipped = audit.sign_continuity(keys)
    r = audit.audit_keys(keys)
    # Zero and non-finite keys are returned bit for bit and never flagged.
    assert _same_bits(fixed[~r.valid], keys[~r.valid])
    assert not flipped[~r.valid].any()
    # Valid keys are +-input, aligned with the previous valid key.
    np.testing.assert_array_equal(
        fixed[r.valid], np.where(flipped[r.valid][:, None], -keys[r.valid], keys[r.valid])
    )
    v = fixed[r.valid]
    with np.errstate(over="ignore", invalid="ignore"):
        d = np.einsum("ij,ij->i", v[:-1], v[1:])
    assert np.all(d[np.isfinite(d)] >= 0)
    # With the audit passed in, the answer is the same.
    fixed2, flipped2 = audit.sign_continuity(keys, audit=r)
    assert _same_bits(fixed2, fixed) and np.array_equal(flipped2, flipped)


@settings(max_examples=100, deadline=None)
@given(
    hnp.arrays(
        np.float64,
        st.tuples(st.integers(1, 4), st.integers(0, 12), st.just(4)),
        elements=st.floats(-2, 2, allow_nan=False, width=64),
    )
)
def test_batched_tracks_equal_one_by_one(tracks):
    fixed, flipped = audit.sign_continuity(tracks)
    report = audit.audit_keys(tracks)
    for i, track in enumerate(tracks):
        f, fl = audit.sign_continuity(track)
        np.testing.assert_array_equal(fixed[i], f)
        np.testing.assert_array_equal(flipped[i], fl)
        one = audit.audit_keys(track)
        for name in ("zero", "non_finite", "non_unit", "sign_flip", "half_turn"):
            np.testing.assert_array_equal(getattr(report, name)[i], getattr(one, name))


# --------------------------------------------------------------------------- blocks
# The audit and the sign fix work through the keys in blocks of audit.BLOCK
# (a block's neighbour dot reaches one key into the next block; the sign
# count is carried from block to block). The answers must not depend on
# where the blocks fall, nor on which path (all keys valid, or the general
# one) or memory layout computed them.


def _audit_bits(report):
    return [np.asarray(a).tobytes() for a in report]


def _tracks_strategy(max_tracks=4, max_keys=12, allow_bad=False):
    elements = st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False, width=64)
    if allow_bad:
        elements = st.one_of(elements, st.just(0.0), st.just(np.nan))
    return hnp.arrays(
        np.float64,
        st.tuples(st.integers(1, max_tracks), st.integers(0, max_keys), st.just(4)),
        elements=elements,
    )


@settings(max_examples=150, deadline=None)
@given(_tracks_strategy(allow_bad=True), st.sampled_from([1, 2, 3, 5, 8]))
def test_block_size_changes_no_bit(tracks, block):
    reference = audit.audit_keys(tracks)
    fixed, flipped = audit.sign_continuity(tracks, audit=reference)
    with mock.patch.object(audit, "BLOCK", block):
        small = audit.audit_keys(tracks)
        small_fixed, small_flipped = audit.sign_continuity(tracks, audit=small)
        alone_fixed, alone_flipped = audit.sign_continuity(tracks)
    assert _audit_bits(small) == _audit_bits(reference)
    assert small_fixed.tobytes() == fixed.tobytes()
    assert alone_fixed.tobytes() == fixed.tobytes()
    np.testing.assert_array_equal(small_flipped, flipped)
    np.testing.assert_array_equal(alone_flipped, flipped)


@settings(max_examples=150, deadline=None)
@given(_tracks_strategy())
def test_fast_and_general_paths_agree_bit_for_bit(tracks):
    # Contiguous keys that are all valid take the fast path; the same keys as
    # a strided view, or beside a track with a NaN key, take the general one.
    fast = audit.audit_keys(tracks)
    strided = np.repeat(tracks, 2, axis=-1)[..., ::2]
    assert not strided.flags.c_contiguous or strided.size == 0
    assert _audit_bits(audit.audit_keys(strided)) == _audit_bits(fast)
    poisoned = np.concatenate([tracks, np.full((1,) + tracks.shape[1:], np.nan)])
    general = audit.audit_keys(poisoned)
    for name, a, b in zip(fast._fields, fast, general, strict=True):
        assert np.asarray(a).tobytes() == np.asarray(b)[:-1].tobytes(), name


def test_a_long_track_across_many_blocks_matches_a_sequential_walk():
    # An independent oracle: the documented rule, one key at a time in plain
    # Python floats, on a track of 40 blocks of 3 keys plus 1.
    rng = np.random.default_rng(11)
    keys = rng.normal(size=(121, 4))
    keys[::7] *= -1
    expected, sign, previous = [], 1.0, None
    for k in keys.tolist():
        # Negated when its dot with the previous key, as corrected, is negative.
        dot = 0.0 if previous is None else sum(a * b for a, b in zip(previous, k, strict=True))
        sign = -1.0 if sign * dot < 0 else 1.0
        expected.append(sign < 0)
        previous = k
    with mock.patch.object(audit, "BLOCK", 3):
        report = audit.audit_keys(keys)
        fixed, flipped = audit.sign_continuity(keys, audit=report)
    assert flipped.tolist() == expected
    np.testing.assert_array_equal(fixed, np.where(flipped[:, None], -keys, keys))
    norms = [math.sqrt(sum(c * c for c in k)) for k in keys.tolist()]
    np.testing.assert_allclose(report.norms, norms, rtol=1e-15)
    dots = [sum(a * b for a, b in zip(p, n, strict=True)) / (norms[i] * norms[i + 1])
            for i, (p, n) in enumerate(zip(keys.tolist(), keys[1:].tolist(), strict=False))]
    np.testing.assert_allclose(report.dots, dots, rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(report.sign_flip, np.array(dots) < -audit.HALF_TURN_TOLERANCE)


def test_row_dots_into_a_strided_output():
    a = np.arange(24.0).reshape(2, 3, 4)
    out = np.zeros((2, 4))[:, :3]
    assert audit._rowdot(a, a, out=out) is out
    np.testing.assert_array_equal(out, np.einsum("...i,...i->...", a, a))
