"""The rig view's curves of one track: the unwrapped angle, the error between the players, omega.

Oracles: scipy's Rotation and Slerp (the spec player's path, the angle
between two rotations, the constant angular velocity of a SLERP segment),
np.unwrap of the signed angle about a known fixed axis (the truck's wheels
turn about their axle only), and the rig's own evaluation at one time
(:class:`RigPlayback`'s frame, which the 3D label shows) for the error.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation, Slerp

from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.track_audit import fix_track
from quatlab.app.io.tracks import Track
from quatlab.app.model.rig import load_rig, rig_of
from quatlab.app.model.rig_curves import PER_SEGMENT, angular_velocity_between, track_curves
from quatlab.app.model.rig_playback import RigPlayback

DATA = Path(__file__).parent / "data"
TRUCK = DATA / "gltf" / "CesiumMilkTruck.glb"
ROBOT = DATA / "gltf" / "RobotExpressive.glb"
MOCAP = DATA / "bvh" / "test_mocapbank.bvh"


def xyzw(q):
    q = np.asarray(q, dtype=float)
    return np.concatenate([q[..., 1:], q[..., :1]], axis=-1)


def angle_about(q, axis) -> np.ndarray:
    """Signed angle (deg) about a fixed unit ``axis`` of rotations turning about it only."""
    q = np.asarray(q, dtype=float)
    return np.degrees(np.unwrap(2.0 * np.arctan2(q[:, 1:] @ axis, q[:, 0])))


@pytest.fixture(scope="module")
def truck():
    return load_keyframes(TRUCK)


@pytest.mark.parametrize("wheel", [0, 1])
def test_the_truck_wheels_unwrapped_angle_climbs_steadily_over_the_clip(truck, wheel):
    # "Angle from key 0" made a tent 0 -> 180 -> 0 of this steady spin.
    tr = truck.tracks[wheel]
    cv = track_curves(tr, 0.0, 1.25)
    spec = cv.angle["spec"]
    assert np.all(np.diff(spec) >= 0)
    # 30 segments of 11.66 deg: past the half turn where the old curve folded.
    assert spec[-1] == pytest.approx(30 * 11.661, abs=0.1)
    # The spec player's path (scipy Slerp of the keys) about the axle, unwrapped.
    keys = tr.values / np.linalg.norm(tr.values, axis=1, keepdims=True)
    path = Slerp(tr.times, Rotation.from_quat(xyzw(keys)))(cv.t).as_quat()
    axle = np.array([0.0, -1.0, 0.0])  # the axle, in the wheel's parent frame
    wxyz = np.concatenate([path[:, 3:], path[:, :3]], axis=1)
    want = angle_about(wxyz, axle)
    np.testing.assert_allclose(spec, want - want[0], atol=1e-6)


def test_across_the_flip_the_naive_wheel_turns_back_the_long_way(truck):
    tr = truck.tracks[0]
    cv = track_curves(tr, 0.0, 1.25)
    t0, t1 = tr.times[14], tr.times[15]
    naive = cv.angle["naive"]
    # The naive runtime's own path about the axle, unwrapped (np.unwrap: the
    # samples are dense enough that no step turns half a turn).
    q = cv.rotations["naive"]
    want = angle_about(q, np.array([0.0, -1.0, 0.0]))
    np.testing.assert_allclose(naive, want - want[0], atol=1e-6)
    at = np.interp([t0, t1], cv.t, naive)
    assert at[1] - at[0] == pytest.approx(-(360 - 11.661), abs=0.05)
    # Before and after the segment the two players coincide (a whole turn apart
    # after), but for NLERP's uneven speed within a segment of 11.7 deg.
    spec = cv.angle["spec"]
    assert np.abs(naive - spec)[cv.t <= t0].max() < 0.01
    assert np.abs(naive - spec + 360.0)[cv.t >= t1].max() < 0.01


def test_every_segment_gets_enough_samples_for_the_long_way(truck):
    tr = load_keyframes(ROBOT).tracks[0]
    cv = track_curves(tr, float(tr.times[0]), float(tr.times[-1]), samples=50)
    per = np.histogram(cv.t, bins=tr.times)[0]
    assert per.min() >= PER_SEGMENT - 1  # ends shared with the next segment


def test_the_error_is_the_angle_between_the_players(truck):
    tr = truck.tracks[0]
    cv = track_curves(tr, 0.0, 1.25)
    spec = Rotation.from_quat(xyzw(cv.rotations["spec"]))
    naive = Rotation.from_quat(xyzw(cv.rotations["naive"]))
    np.testing.assert_allclose(cv.error, np.degrees((spec.inv() * naive).magnitude()),
                               atol=1e-6)
    inside = (cv.t > tr.times[14]) & (cv.t < tr.times[15])
    assert cv.error[inside].max() > 170 and cv.error[~inside].max() < 0.01
    fixed = track_curves(fix_track(tr).fixed, 0.0, 1.25, before=tr)
    assert fixed.error.max() < 0.01  # NLERP's uneven speed within 11.7 deg
    np.testing.assert_array_equal(fixed.before, tr.values)


@pytest.mark.parametrize("path, index", [(TRUCK, 0), (ROBOT, None), (MOCAP, 13)])
def test_the_error_curve_is_what_the_rig_shows_for_the_joint(path, index):
    # The rig's own pose at one time (what the 3D label says) is the oracle:
    # for a BVH joint that is the per-channel Euler runtime, not NLERP.
    kf = load_keyframes(path)
    if index is None:  # the first track with a sign flip
        index = next(k for k, tr in enumerate(kf.tracks)
                     if tr.animation_index == 0 and _flip(tr) is not None)
    tr = kf.tracks[index]
    rig = rig_of(kf)
    pb = RigPlayback()
    pb.set_rig(rig)
    anim = pb.animation
    node = tr.node_index
    channel = next(c for c in anim.channels if c.path == "rotation" and c.node == node)
    cv = track_curves(tr, *pb.range, channel=channel)
    k = _flip(tr) if _flip(tr) is not None else 0
    for u in (0.3, 0.5, 0.8):
        t = tr.times[k] + u * (tr.times[k + 1] - tr.times[k])
        pb.set_time(t)
        shown = pb.frame().local_difference[rig.rig_index[node]]
        at = track_curves(tr, t, t + 1e-9, samples=2, channel=channel)
        assert at.error[0] == pytest.approx(shown, abs=1e-6)
        # ... and the plotted curve passes within a degree of it.
        assert np.interp(t, cv.t, cv.error) == pytest.approx(shown, abs=1.0)


def _flip(tr: Track) -> int | None:
    d = np.einsum("ij,ij->i", tr.values[:-1], tr.values[1:])
    k = np.flatnonzero(d < 0)
    return int(k[0]) if k.size else None


def test_omega_of_the_spec_player_is_each_segments_constant_slerp_velocity(truck):
    tr = truck.tracks[0]
    cv = track_curves(tr, 0.0, 1.25)
    keys = Rotation.from_quat(xyzw(tr.values))
    dt = np.diff(tr.times)
    want = np.degrees((keys[1:] * keys[:-1].inv()).as_rotvec() / dt[:, None])
    seg = np.clip(np.searchsorted(tr.times, cv.t, side="left") - 1, 0, len(dt) - 1)
    np.testing.assert_allclose(cv.omega["spec"][1:], want[seg[1:]], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(cv.speed["spec"], np.linalg.norm(cv.omega["spec"], axis=1))
    # The naive wheel spins backwards through the flip: omega against the axle's.
    inside = (cv.t > tr.times[14]) & (cv.t < tr.times[15])
    assert np.all(cv.omega["naive"][inside] @ want[14] < 0)
    assert cv.speed["naive"][inside].max() > 348.3 / dt[14]


def test_the_local_velocity_helper_turns_the_body_frame():
    q0 = Rotation.from_euler("x", 90, degrees=True)
    q1 = q0 * Rotation.from_euler("z", 30, degrees=True)  # 30 deg about the body's z
    a, b = (np.roll(q.as_quat(), 1) for q in (q0, q1))
    np.testing.assert_allclose(np.degrees(angular_velocity_between(a, -b, 2.0, frame="local")),
                               [0, 0, 15], atol=1e-9)
    np.testing.assert_allclose(np.degrees(angular_velocity_between(a, b, 2.0)), [0, -15, 0],
                               atol=1e-9)
    with pytest.raises(ValueError):
        angular_velocity_between(a, b, 0.0)


steps = st.lists(st.floats(-170.0, 170.0).filter(lambda v: abs(v) > 1.0), min_size=1,
                 max_size=12)


@settings(max_examples=60, deadline=None)
@given(steps, st.lists(st.booleans(), min_size=13, max_size=13))
def test_the_unwrapped_angle_adds_the_signed_turns_of_the_keys(turns, negate):
    # Keys about one axis with signed turns between them, stored with random
    # signs: at the keys the spec curve is the running sum of the turns, the
    # naive one differs from it by whole turns only.
    axis = np.array([0.36, 0.48, 0.8])
    angles = np.radians(np.concatenate([[0.0], np.cumsum(turns)]))
    keys = Rotation.from_rotvec(angles[:, None] * axis).as_quat()
    keys = np.roll(keys, 1, axis=1) * np.where(negate[:len(keys)], -1.0, 1.0)[:, None]
    times = np.arange(len(keys), dtype=float)
    cv = track_curves(Track(times=times, values=keys), 0.0, times[-1] or 1.0, samples=20)
    at_keys = np.interp(times, cv.t, cv.angle["spec"])
    # The first turn's sign sets the axis: the curve follows it.
    sign = np.sign(turns[0])
    np.testing.assert_allclose(at_keys, sign * np.degrees(angles), atol=1e-6)
    naive = np.interp(times, cv.t, cv.angle["naive"])
    whole = (naive - at_keys) / 360.0
    np.testing.assert_allclose(whole, np.round(whole), atol=1e-6)


def test_broken_keys_give_empty_curves_not_an_error():
    tr = Track(times=[0, 1, 2], values=[[1, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]])
    cv = track_curves(tr, 0.0, 2.0, samples=10)
    assert np.isnan(cv.angle["spec"]).all() and np.isnan(cv.error).all()
    assert np.isnan(cv.omega["naive"]).all()


def test_curves_of_the_bvh_joint_use_its_euler_runtime():
    kf = load_keyframes(MOCAP)
    rig = rig_of(kf)
    anim = rig.animations[0]
    tr = next(tr for tr in kf.tracks if tr.node_name == "LeftHip")  # its Z channel wraps
    channel = next(c for c in anim.channels if c.path == "rotation" and c.node == tr.node_index)
    own = track_curves(tr, anim.start, anim.end, channel=channel)
    plain = track_curves(tr, anim.start, anim.end)
    # The spec player is the same SLERP; the naive one is the Euler lerp, not NLERP.
    np.testing.assert_allclose(np.interp(plain.t, own.t, own.angle["spec"]),
                               plain.angle["spec"], atol=1e-3)
    assert np.abs(np.interp(plain.t, own.t, own.error) - plain.error).max() > 90.0


def test_load_rig_of_the_truck_plays_the_tracks_channels(truck):
    rig = load_rig(TRUCK)
    nodes = {c.node for c in rig.animations[0].channels if c.path == "rotation"}
    assert {tr.node_index for tr in truck.tracks} <= nodes


def test_a_step_track_jumps_without_endless_refinement():
    # A STEP key turns at once: the samples around the jump stop being split.
    keys = Rotation.from_euler("z", [[0], [120], [10]], degrees=True).as_quat()
    tr = Track(times=[0.0, 1.0, 2.0], values=np.roll(keys, 1, axis=1), interpolation="STEP")
    cv = track_curves(tr, 0.0, 2.0)
    assert np.all(np.diff(cv.t) > 0) and len(cv.t) < 5000
    assert np.isfinite(cv.omega["spec"]).all()
    at = np.interp([0.5, 1.5], cv.t, cv.angle["spec"])
    assert at == pytest.approx([0.0, 120.0], abs=1e-6)


@pytest.mark.parametrize("path, node", [(TRUCK, "Wheels"), (ROBOT, "Head")])
def test_the_3d_turns_count_as_the_unwrapped_curve_does(path, node):
    # The 3D labels ("spec +11.7°", "naive −348.3°") and the angle plot agree
    # on each player's direction over the segment, and on its size.
    from quatlab.app.model.rig_sweeps import parted_segments, segment_sweep

    kf = load_keyframes(path)
    rig = rig_of(kf)
    anim = rig.animations[0]
    tr = next(t for t in kf.tracks if t.node_name == node and t.animation_index == 0)
    seg = next(s for s in parted_segments(rig, anim) if rig.names[s.node] == node)
    sweep = segment_sweep(rig, anim, seg)
    channel = next(c for c in anim.channels if c.path == "rotation" and c.node == tr.node_index)
    cv = track_curves(tr, anim.start, anim.end, channel=channel)
    for player in ("spec", "naive"):
        change = np.diff(np.interp([seg.t0, seg.t1], cv.t, cv.angle[player]))[0]
        assert sweep.turned(player) == pytest.approx(change, abs=1.0), player
