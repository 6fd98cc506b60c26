"""Euler track audit and filter (quatlab.math.euler_track) against scipy and hand-made cases."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from quatlab.math import euler_track as E

TAIT_BRYAN = ["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"]
PROPER = ["XYX", "XZX", "YXY", "YZY", "ZXZ", "ZYZ"]
ALL_ORDERS = TAIT_BRYAN + PROPER + [o.lower() for o in TAIT_BRYAN + PROPER]


def angle_between(order, a, b):
    """Rotation angle (rad) between Euler triples a and b (degrees), computed by scipy."""
    ra = Rotation.from_euler(order, np.atleast_2d(a), degrees=True)
    rb = Rotation.from_euler(order, np.atleast_2d(b), degrees=True)
    return (ra.inv() * rb).magnitude()


def scipy_wxyz(order, angles_deg):
    xyzw = Rotation.from_euler(order, np.atleast_2d(angles_deg), degrees=True).as_quat()
    return np.concatenate([xyzw[:, 3:], xyzw[:, :3]], axis=1)


# --------------------------------------------------------------------------- conversions


@pytest.mark.parametrize("order", ALL_ORDERS)
def test_to_quaternions_matches_scipy(order):
    rng = np.random.default_rng(7)
    a = rng.uniform(-360, 360, (200, 3))
    mine = E.to_quaternions(a, order)
    ref = scipy_wxyz(order, a)
    # Same rotation: |dot| = 1 (scipy picks its own sign).
    assert np.allclose(np.abs(np.sum(mine * ref, axis=1)), 1.0, atol=1e-12)


@pytest.mark.parametrize("order", ALL_ORDERS)
def test_other_triple_is_the_same_rotation(order):
    rng = np.random.default_rng(8)
    a = rng.uniform(-180, 180, (200, 3))
    other = E.other_triple(a, order)
    assert np.all(angle_between(order, a, other) < 1e-9)
    # and by hand: Tait-Bryan (a+180, 180-b, c+180), proper (a+180, -b, c+180)
    b = a[:, 1]
    expect_b = -b if order[0].lower() == order[2].lower() else 180.0 - b
    assert np.allclose(other[:, 1], expect_b)
    assert np.allclose(other[:, [0, 2]], a[:, [0, 2]] + 180.0)


def test_bad_orders_are_refused():
    for bad in ["ZZX", "XYz", "ZX", "ABC", "ZXX"]:
        with pytest.raises(ValueError, match="order"):
            E.audit_euler(np.zeros((2, 3)), bad)


# --------------------------------------------------------------------------- filter, hand cases


def test_filter_plus_179_to_minus_179():
    track = np.array([[0.0, 0.0, 178.0], [0.0, 0.0, 179.0], [0.0, 0.0, -179.0], [0.0, 0.0, -177.0]])
    out = E.euler_filter(track, "ZXY")
    assert np.allclose(out[:, 2], [178.0, 179.0, 181.0, 183.0])
    assert np.allclose(out[:, :2], 0.0)


def test_filter_undoes_a_triple_swap():
    a, b, c = 10.0, 20.0, 30.0
    track = np.array([[a, b, c], [a + 1, b, c], [a + 1 + 180, 180 - b, c + 180], [a + 2, b, c]])
    out = E.euler_filter(track, "ZXY")
    assert np.allclose(out, [[a, b, c], [a + 1, b, c], [a + 1, b, c], [a + 2, b, c]])


def test_filter_undoes_a_proper_euler_swap_and_wraps_mod_360():
    track = np.array([[10.0, 40.0, 30.0], [10 + 180 - 360, -40.0, 30 + 180 - 360]])
    out = E.euler_filter(track, "ZXZ")
    assert np.allclose(out, [[10.0, 40.0, 30.0], [10.0, 40.0, 30.0]])


def test_filter_keeps_a_clean_track_exactly():
    t = np.linspace(0, 1, 50)[:, None]
    track = np.hstack([100 * t, 30 * t - 10, -50 * t])
    assert np.array_equal(E.euler_filter(track, "YXZ"), track)


def smooth_track(draw, n, proper):
    start = draw(st.tuples(st.floats(-170, 170), st.floats(-50, 50), st.floats(-170, 170)))
    steps = draw(st.lists(st.tuples(*[st.floats(-8, 8)] * 3), min_size=n - 1, max_size=n - 1))
    a = np.cumsum(np.vstack([start, steps]), axis=0)
    # keep the middle angle away from gimbal lock: [-60, 60] or, proper, [30, 150]
    a[:, 1] = np.clip(a[:, 1], -60, 60) + (90.0 if proper else 0.0)
    return a


@st.composite
def scrambled(draw):
    order = draw(st.sampled_from(ALL_ORDERS))
    proper = order[0].lower() == order[2].lower()
    n = draw(st.integers(2, 40))
    a = smooth_track(draw, n, proper)
    swap = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    b = np.where(swap[:, None], E.other_triple(a, order), a)
    turns = np.array(draw(st.lists(st.integers(-2, 2), min_size=3 * n, max_size=3 * n)))
    b = b + 360.0 * turns.reshape(n, 3)
    return order, a, b, bool(swap[0])


@given(scrambled())
def test_filter_recovers_the_smooth_track(case):
    order, smooth, scrambled_track, first_swapped = case
    out = E.euler_filter(scrambled_track, order)
    # Same rotations, frame by frame, to 1e-9 rad.
    assert np.all(angle_between(order, scrambled_track, out) < 1e-9)
    # The smooth track (or its other triple, if frame 0 was swapped) up to whole turns.
    ref = E.other_triple(smooth, order) if first_swapped else smooth
    k = (out - ref) / 360.0
    assert np.allclose(k, np.round(k), atol=1e-9)
    # One constant number of turns per channel: no wrap left.
    assert np.allclose(k - k[0], 0.0, atol=1e-9)
    assert np.all(np.abs(np.diff(out, axis=0)) <= 180.0)


@given(scrambled())
def test_filter_over_stacked_tracks_equals_one_by_one(case):
    order, _, track, _ = case
    both = E.euler_filter(np.stack([track, track[::-1]]), order)
    assert np.array_equal(both[0], E.euler_filter(track, order))
    assert np.array_equal(both[1], E.euler_filter(track[::-1], order))


# --------------------------------------------------------------------------- audit


def test_audit_wrap_and_sign_flip_hand_case():
    track = np.array([[0.0, 0.0, 178.0], [0.0, 0.0, 179.0], [0.0, 0.0, -179.0]])
    found = E.audit_euler(track, "ZXY", channel_names=["Zrotation", "Xrotation", "Yrotation"])
    kinds = {(f.kind, f.frame, f.channel) for f in found}
    assert kinds == {("wrap", 2, 2), ("sign_flip", 2, None)}
    wrap = next(f for f in found if f.kind == "wrap")
    assert wrap.values == (179.0, -179.0)
    assert "Yrotation" in wrap.message and "358" in wrap.message and "2 deg" in wrap.message
    # By hand: about one axis the quaternions are (cos 89.5, sin 89.5) and (cos 89.5, -sin 89.5),
    # dot = cos^2 - sin^2 = cos 179 deg.
    sign = next(f for f in found if f.kind == "sign_flip")
    assert sign.values[0] == pytest.approx(np.cos(np.radians(179.0)), abs=1e-12)


def test_audit_flip_of_the_other_triple():
    a, b, c = 10.0, 20.0, 30.0
    track = np.array([[a, b, c], [a + 180, 180 - b, c + 180 - 360]])
    found = [f for f in E.audit_euler(track, "YZX") if f.kind != "sign_flip"]
    assert [(f.kind, f.frame) for f in found] == [("flip", 1)]
    assert "per-channel lerp" in found[0].message


@pytest.mark.parametrize(
    "order, middle, locked",
    [("ZXY", 89.0, True), ("ZXY", -86.0, True), ("ZXY", 84.0, False), ("ZXY", 271.0, True),
     ("ZXZ", 3.0, True), ("ZXZ", 178.0, True), ("ZXZ", -179.0, True), ("ZXZ", 90.0, False)],
)
def test_audit_gimbal(order, middle, locked):
    found = E.audit_euler([[0.0, middle, 0.0]], order, gimbal_tol_deg=5.0)
    assert [f.kind for f in found] == (["gimbal"] if locked else [])


def test_audit_of_a_clean_track_is_empty():
    t = np.linspace(0, 1, 30)[:, None]
    assert E.audit_euler(np.hstack([100 * t, 30 * t, -50 * t]), "ZYX") == []


# --------------------------------------------------------------------------- quaternion signs


@given(st.integers(1, 30), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_continuous_quaternions(n_frames, n_joints, rng_key):
    rng = np.random.default_rng(rng_key)
    q = rng.normal(size=(n_frames, n_joints, 4))
    q /= np.linalg.norm(q, axis=-1, keepdims=True)
    out = E.continuous_quaternions(q)
    assert np.array_equal(out[0], q[0])
    ratio = out / q
    assert np.allclose(np.abs(ratio), 1.0)                     # each key is +q or -q
    assert np.allclose(ratio, ratio[..., :1])                  # the whole key, not a component
    assert np.all(np.sum(out[1:] * out[:-1], axis=-1) >= 0.0)


# --------------------------------------------------------------------------- blocks


def _is_filtered(track, out, order) -> bool:
    """The filter's definition, frame by frame: each output triple is the stored triple or the
    other one, moved by whole turns, and no such option is closer (summed over the channels) to
    the previous output frame. Exact ties (a change of exactly 180 deg) may go either way."""
    for f in range(1, len(track)):
        prev = out[f - 1]
        best = np.inf
        same_rotation = False
        for c in (np.array(track[f], dtype=float), E.other_triple(track[f], order)):
            v = c - 360.0 * np.round((c - prev) / 360.0)
            best = min(best, np.abs(v - prev).sum())
            turns = (out[f] - c) / 360.0
            same_rotation |= bool(np.allclose(turns, np.round(turns), atol=1e-9))
        if not same_rotation or np.abs(out[f] - prev).sum() > best + 1e-6:
            return False
    return True


tracks = st.integers(2, 60).flatmap(lambda n: st.lists(
    st.tuples(*[st.floats(-720, 720, allow_nan=False)] * 3), min_size=n, max_size=n))


@given(track=tracks, order=st.sampled_from(["ZXY", "YXZ", "ZXZ", "xyz"]),
       block=st.integers(1, 9))
def test_filter_in_blocks_matches_its_definition(track, order, block):
    a = np.array(track)
    whole = E.euler_filter(a, order)
    assert np.array_equal(E.euler_filter(a, order, block=block), whole)
    assert np.array_equal(whole[0], a[0]) and _is_filtered(a, whole, order)
    both = E.euler_filter(np.stack([a, a[::-1]]), order, block=block)
    assert np.array_equal(both[0], whole)


@given(best=st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=1, max_size=40),
       state0=st.integers(0, 1))
def test_two_state_scan_matches_the_loop(best, state0):
    expected, s = [], state0
    for b in best:
        s = b[s]
        expected.append(s)
    got = E._two_state_scan(np.array(best), np.array(state0))
    assert got.tolist() == expected


@given(track=tracks, order=st.sampled_from(["ZXY", "ZXZ"]), block=st.integers(1, 9),
       limit=st.integers(0, 12))
def test_audit_in_blocks_and_capped_keeps_the_first_findings(track, order, block, limit):
    a = np.array(track)
    everything = E.audit_euler(a, order)
    found, omitted, frames = E.audit_euler_capped(a, order, None, block=block)
    assert found == everything and omitted == {} and frames is None
    found, omitted, frames = E.audit_euler_capped(a, order, limit, block=block)
    assert found == everything[:limit]
    rest = everything[limit:]
    assert omitted == {k: n for k in E.EULER_KINDS
                       if (n := sum(f.kind == k for f in rest))}
    assert frames == ((min(f.frame for f in rest), max(f.frame for f in rest)) if rest else None)
