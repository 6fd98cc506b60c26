"""Tests of quatlab.rendering.chain: forward kinematics of the demo chain (no Qt).

The oracle is scipy's ``Rotation``: an independent implementation of rotation
composition and application, used with its own (x, y, z, w) storage so a
component-order slip on our side would show up.
"""

from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from quatlab.math import quaternion as Q
from quatlab.math.curves import compute_curves
from quatlab.rendering.chain import (
    ROOT,
    bone_lengths,
    chain_frames,
    chain_reach,
    polyline_segments,
    segment_indices,
    tip_trail,
)

_component = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False)


@st.composite
def unit_quaternions(draw):
    q = np.array([draw(_component) for _ in range(4)])
    assume(np.linalg.norm(q) > 0.1)
    return q / np.linalg.norm(q)


def _scipy_chain(q_wxyz, lengths, root_only=False):
    """Joint positions by composing scipy Rotations: the independent oracle."""
    local = Rotation.from_quat(Q.to_xyzw(q_wxyz))
    world = local
    pos = [ROOT.copy()]
    for length in lengths:
        pos.append(pos[-1] + world.apply([length, 0.0, 0.0]))
        if not root_only:
            world = world * local  # scipy: (a * b) applies b first
    return np.array(pos)


def test_doctests():
    module = importlib.import_module("quatlab.rendering.chain")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("root_only", [False, True])
def test_positions_match_scipy(rng, root_only):
    qs = rng.normal(size=(50, 4))
    pos, _ = chain_frames(qs, root_only=root_only)
    lengths = bone_lengths(3)
    for q, p in zip(qs, pos, strict=True):
        np.testing.assert_allclose(p, _scipy_chain(q / np.linalg.norm(q), lengths, root_only),
                                   atol=1e-12)


def test_rotations_are_exact_products_and_keep_their_sign():
    q = -Q.from_axis_angle([0, 0, 1], np.radians(20.0))  # the seed's negated 20 degrees
    _, rot = chain_frames(q)
    np.testing.assert_array_equal(rot[0], q)
    np.testing.assert_array_equal(rot[1], Q.multiply(q, q))
    np.testing.assert_array_equal(rot[2], Q.multiply(Q.multiply(q, q), q))
    # (-p)^3 = -(p^3): the stored sign survives, unlike a rotation-only product.
    p = -q
    np.testing.assert_allclose(rot[2], -Q.multiply(Q.multiply(p, p), p), atol=1e-15)


def test_compounding_turns_bone_k_by_k_plus_one_angles():
    angle = np.radians(30.0)
    pos, _ = chain_frames(Q.from_axis_angle([0, 0, 1], angle))
    bones = np.diff(pos, axis=0)
    headings = np.degrees(np.arctan2(bones[:, 1], bones[:, 0]))
    np.testing.assert_allclose(headings, [30.0, 60.0, 90.0], atol=1e-12)
    np.testing.assert_allclose(bones[:, 2], 0.0, atol=1e-15)


def test_root_only_keeps_the_chain_straight():
    q = Q.from_axis_angle([1, 2, 3], 2.0)
    pos, rot = chain_frames(q, root_only=True)
    for k in range(3):
        np.testing.assert_array_equal(rot[k], rot[0])
    direction = Q.rotate_vector(q, [1.0, 0.0, 0.0])
    np.testing.assert_allclose(pos[-1], ROOT + chain_reach() * direction, atol=1e-12)


def test_identity_is_straight_along_x_above_the_grid():
    pos, rot = chain_frames(Q.IDENTITY, n_bones=4, bone_length=2.0)
    np.testing.assert_allclose(pos[:, 0], [0.0, 2.0, 3.6, 4.88, 5.904])
    np.testing.assert_array_equal(pos[:, 1:], np.broadcast_to([0.0, 0.5], (5, 2)))
    np.testing.assert_array_equal(rot, np.broadcast_to(Q.IDENTITY, (4, 4)))


def test_explicit_bone_lengths():
    pos, _ = chain_frames(Q.IDENTITY, n_bones=2, bone_length=[0.5, 1.5])
    np.testing.assert_allclose(pos[:, 0], [0.0, 0.5, 2.0])


@pytest.mark.parametrize("shape", [(), (7,), (2, 3)])
def test_shapes_broadcast(rng, shape):
    qs = rng.normal(size=shape + (4,))
    pos, rot = chain_frames(qs, n_bones=5)
    assert pos.shape == shape + (6, 3)
    assert rot.shape == shape + (5, 4)
    flat_pos, _ = chain_frames(qs.reshape(-1, 4), n_bones=5)
    np.testing.assert_array_equal(pos.reshape(-1, 6, 3), flat_pos)


def test_non_unit_input_is_normalized():
    q = Q.from_axis_angle([0, 1, 0], 0.7)
    np.testing.assert_allclose(chain_frames(3.0 * q)[0], chain_frames(q)[0], atol=1e-15)


def test_nan_rows_give_nan_gaps_not_exceptions():
    q = np.array([Q.IDENTITY, [np.nan] * 4, [1.0, np.nan, 0.0, 0.0], [np.inf, 0, 0, 0],
                  Q.from_axis_angle([0, 0, 1], 1.0)])
    pos, rot = chain_frames(q)
    assert np.isnan(pos[1:4]).all() and np.isnan(rot[1:4]).all()
    assert np.isfinite(pos[[0, 4]]).all() and np.isfinite(rot[[0, 4]]).all()
    np.testing.assert_array_equal(pos[4], chain_frames(q[4])[0])


def test_zero_quaternion_is_an_error_naming_the_argument():
    with pytest.raises(ValueError, match="local_q"):
        chain_frames([0.0, 0.0, 0.0, 0.0])


@pytest.mark.parametrize("bad", [[1.0, 0.0, 0.0], [[1.0, 0.0]]])
def test_wrong_shape_is_an_error(bad):
    with pytest.raises(ValueError, match="local_q"):
        chain_frames(bad)


@pytest.mark.parametrize("n_bones, length", [(0, 1.0), (2.5, 1.0), (True, 1.0), (3, -1.0),
                                             (3, [1.0, 1.0]), (2, [1.0, np.nan])])
def test_bad_chain_parameters(n_bones, length):
    with pytest.raises(ValueError):
        bone_lengths(n_bones, length)


def test_tip_trail_of_the_collapse_has_a_gap():
    # q -> -q: naive NLERP has no rotation at t = 0.5.
    q0 = Q.from_axis_angle([1, 1, 0], 1.0)
    curves = compute_curves(q0, -q0, samples=5)
    trail = tip_trail(curves["naive_nlerp"].quats)
    assert trail.shape == (5, 3)
    assert np.isnan(trail[2]).all()
    # q and -q are the same rotation, so the other samples sit at one place.
    np.testing.assert_allclose(trail[[0, 1, 3, 4]], np.broadcast_to(trail[0], (4, 3)),
                               atol=1e-12)
    assert len(polyline_segments(trail)) == 4  # two segments, one on each side of the gap


def test_tip_trail_long_way_goes_round():
    # Seed 000: naive NLERP sweeps 340 degrees, so the root-only tip circles
    # nearly all the way round; the shortest path stays within 20 degrees.
    q1 = -Q.from_axis_angle([0, 0, 1], np.radians(20.0))
    curves = compute_curves(Q.IDENTITY, q1, samples=101)
    for name, sweep in [("naive_slerp", 340.0), ("shortest_slerp", 20.0)]:
        trail = tip_trail(curves[name].quats, root_only=True) - ROOT
        heading = np.unwrap(np.arctan2(trail[:, 1], trail[:, 0]))
        assert abs(np.degrees(heading[-1] - heading[0])) == pytest.approx(sweep, abs=1e-9)


def test_tip_trail_shape_checked():
    with pytest.raises(ValueError, match="path_q"):
        tip_trail([1.0, 0.0, 0.0, 0.0])


def test_segment_indices_carry_per_point_values():
    p = np.array([[0, 0, 0], [np.nan] * 3, [2, 0, 0], [3, 0, 0], [4, 0, 0]], dtype=float)
    idx = segment_indices(p)
    np.testing.assert_array_equal(idx, [2, 3, 3, 4])
    t = np.linspace(0.0, 1.0, len(p))
    np.testing.assert_array_equal(t[idx], [0.5, 0.75, 0.75, 1.0])
    assert segment_indices(np.empty((0, 3))).shape == (0,)


def _runs(finite):
    """(first, last) index of every run of at least two finite points."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], finite.astype(np.int8), [0]))))
    return [(a, b - 1) for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a >= 2]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.001, 0.2), st.integers(3, 400))
def test_a_resolved_trail_stays_within_its_tolerance_and_never_bridges_a_gap(seed, tol, n):
    rng = np.random.default_rng(seed)
    p = np.cumsum(rng.normal(scale=rng.choice([0.002, 0.02, 0.3]), size=(n, 3)), axis=0)
    p[rng.random(n) < 0.05] = np.nan
    idx = segment_indices(p, tol)
    finite = np.all(np.isfinite(p), axis=-1)
    a, b = idx[::2], idx[1::2]
    assert np.all(a < b) and finite[idx].all()
    bad = np.cumsum(~finite)
    assert np.all(bad[b] == bad[a])  # no NaN row between a segment's ends
    kept = p[np.unique(idx)] if idx.size else np.empty((0, 3))
    for first, last in _runs(finite):
        # Brute force: every point of a drawn run is near a drawn vertex (one
        # tolerance along the trail, one grid cell to a pass drawn once).
        run = p[first:last + 1]
        d = np.linalg.norm(run[:, None, :] - kept[None, :, :], axis=-1).min(axis=1)
        assert d.max() <= (1 + np.sqrt(3)) * tol + 1e-12
    assert segment_indices(p, 0.0).tolist() == segment_indices(p).tolist()


def test_a_spin_over_many_turns_draws_its_circle_once_and_the_ends_of_a_run():
    a = np.radians(4.5) * np.arange(80 * 125 + 1)  # 125 turns of 4.5-degree steps
    circle = np.column_stack([np.cos(a), np.sin(a), np.zeros_like(a)])
    idx = segment_indices(circle, 0.005)
    assert 80 <= len(idx) // 2 <= 3 * 80  # one pass (cells split a few), not 10,000
    assert idx[-1] == len(circle) - 1  # the last pass is the one kept
    dense = np.column_stack([np.linspace(0, 1, 1001), np.zeros(1001), np.zeros(1001)])
    idx = segment_indices(dense, 0.01)
    assert idx[0] == 0 and idx[-1] == 1000 and 99 <= len(idx) // 2 <= 101


def test_polyline_segments():
    p = np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0], [np.nan] * 3, [4, 0, 0], [np.nan] * 3,
                  [6, 0, 0], [7, 0, 0]], dtype=float)
    seg = polyline_segments(p)
    np.testing.assert_array_equal(seg[:, 0], [0, 1, 1, 2, 6, 7])
    assert polyline_segments(np.zeros((1, 3))).shape == (0, 3)
    assert polyline_segments(np.full((4, 3), np.nan)).shape == (0, 3)
    with pytest.raises(ValueError, match="points"):
        polyline_segments(np.zeros((4, 2)))


@settings(max_examples=200, deadline=None)
@given(unit_quaternions(), st.integers(1, 6), st.booleans())
def test_bone_lengths_preserved(q, n_bones, root_only):
    pos, _ = chain_frames(q, n_bones=n_bones, root_only=root_only)
    np.testing.assert_allclose(np.linalg.norm(np.diff(pos, axis=0), axis=-1),
                               bone_lengths(n_bones), rtol=1e-12)


@settings(max_examples=200, deadline=None)
@given(unit_quaternions(), st.integers(1, 6), st.booleans())
def test_q_and_minus_q_give_the_same_pose(q, n_bones, root_only):
    pos, rot = chain_frames(q, n_bones=n_bones, root_only=root_only)
    neg_pos, neg_rot = chain_frames(-q, n_bones=n_bones, root_only=root_only)
    np.testing.assert_allclose(neg_pos, pos, atol=1e-12)
    # The rotations agree up to sign: (-q)^(k+1) = (-1)^(k+1) q^(k+1).
    # Root only, every bone carries -q itself.
    signs = -np.ones(n_bones) if root_only else (-1.0) ** np.arange(1, n_bones + 1)
    np.testing.assert_allclose(neg_rot, rot * signs[:, None], atol=1e-12)
