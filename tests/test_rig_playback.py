"""The rig view's Qt-free state and drawing aids: playback, curves, label placement, bone soups.

Oracles: scipy's Rotation/Slerp and hand-written NLERP for the players,
the audit's flagged segments for where they part, plain geometry for the
bone and label layouts.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation, Slerp

from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.track_audit import fix_track
from quatlab.app.model.rig import load_rig, rig_of
from quatlab.app.model.rig_curves import track_curves
from quatlab.app.model.rig_playback import RigPlayback, sampling_rate
from quatlab.app.model.rig_players import evaluate, sample_channel

DATA = Path(__file__).parent / "data" / "gltf"
TRUCK = DATA / "CesiumMilkTruck.glb"
ROBOT = DATA / "RobotExpressive.glb"


def xyzw(q):
    q = np.asarray(q, dtype=float)
    return np.concatenate([q[..., 1:], q[..., :1]], axis=-1)


@pytest.fixture(scope="module")
def truck():
    return load_rig(TRUCK), load_keyframes(TRUCK)


def playing(rig) -> RigPlayback:
    pb = RigPlayback()
    pb.set_rig(rig)
    return pb


@pytest.mark.parametrize("module", ["quatlab.app.model.rig_playback",
                                    "quatlab.app.model.rig_curves",
                                    "quatlab.rendering.rig_labels",
                                    "quatlab.rendering.rig_meshes"])
def test_doctests(module):
    mod = importlib.import_module(module)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


# --------------------------------------------------------------------------- playback


def test_the_wheels_part_by_the_players_angle_in_the_flagged_segment(truck):
    rig, kf = truck
    pb = playing(rig)
    tr = kf.tracks[0]
    t = 0.5 * (tr.times[14] + tr.times[15])
    pb.set_time(t)
    frame = pb.frame()
    wheels = sorted(int(rig.rig_index[x.node_index]) for x in kf.tracks)
    assert sorted(frame.flagged.tolist()) == wheels
    keys = tr.values[14:16] / np.linalg.norm(tr.values[14:16], axis=1, keepdims=True)
    spec = Slerp([0, 1], Rotation.from_quat(xyzw(keys)))(0.5)
    naive = Rotation.from_quat(xyzw(0.5 * keys[0] + 0.5 * keys[1]))
    want = np.degrees((spec.inv() * naive).magnitude())
    for i in wheels:
        assert frame.local_difference[i] == pytest.approx(want, abs=1e-6)
    assert frame.differs


def test_fixed_tracks_make_the_players_coincide_and_leave_the_spec_pose(truck):
    rig, kf = truck
    pb = playing(rig)
    times = np.linspace(*pb.range, 61)
    before = []
    for t in times:
        pb.set_time(t)
        before.append(pb.frame().spec.world)
    pb.use_tracks(kf.tracks)  # as stored: nothing changes
    pb.set_time(0.5 * (kf.tracks[0].times[14] + kf.tracks[0].times[15]))
    assert pb.frame().differs
    pb.use_tracks([fix_track(tr).fixed for tr in kf.tracks])
    for t, world in zip(times, before, strict=True):
        pb.set_time(t)
        frame = pb.frame()
        assert not frame.differs
        assert frame.local_difference.max() < 0.01  # NLERP's uneven speed, 11.7 deg segments
        np.testing.assert_allclose(frame.spec.world, world, atol=1e-12)


def test_a_rig_given_with_fixed_tracks_plays_them_from_the_first_frame(truck):
    rig, kf = truck
    fixed = [fix_track(tr).fixed for tr in kf.tracks]
    mid = 0.5 * (kf.tracks[0].times[14] + kf.tracks[0].times[15])
    pb = RigPlayback()
    keys = []
    pb.events.connect("keys", lambda: keys.append(1))
    pb.set_rig(rig, tracks=fixed)
    pb.set_time(mid)
    assert not pb.frame().differs and keys == []
    pb.use_tracks(fixed)  # the same keys again: no change, no event
    assert keys == []
    # Another rig: its own animations and rate, none of the previous one's.
    robot = load_rig(ROBOT)
    pb.set_rig(robot)
    assert pb.animation.name == robot.animations[0].name and pb.fps == 24.0
    assert len(pb.animated_nodes()) and pb.animated_nodes().max() < len(robot)
    pb.set_rig(rig)  # the truck again, as stored: the flip is back
    pb.set_time(mid)
    assert pb.frame().differs and pb.fps == sampling_rate(rig.animations[0])


def test_rig_of_the_tracks_file_equals_the_loaded_rig(truck):
    rig, kf = truck
    again = rig_of(kf)
    for t in (0.0, 0.6, 1.1):
        np.testing.assert_array_equal(evaluate(again, 0, t).world, evaluate(rig, 0, t).world)


def test_time_animation_and_selection():
    rig = load_rig(ROBOT)
    pb = playing(rig)
    seen = []
    for name in ("time", "animation", "selection", "players"):
        pb.events.connect(name, lambda name=name: seen.append(name))
    assert len(pb.animation_names()) == 14 and pb.fps == 24.0
    pb.set_time(99.0)
    assert pb.time == pb.range[1]
    pb.set_time(-5.0)
    assert pb.time == pb.range[0]
    pb.set_animation(3)
    assert pb.animation.name == rig.animations[3].name and pb.time == rig.animations[3].start
    with pytest.raises(IndexError):
        pb.set_animation(14)
    pb.select_node(5)
    pb.set_players("naive")
    with pytest.raises(ValueError):
        pb.set_players("both players")
    assert seen == ["time", "time", "animation", "time", "selection", "players"]


def test_sampling_rate_snaps_to_the_common_rates():
    from quatlab.app.io.gltf.scene import Animation, Channel

    def anim(step):
        t = np.arange(0, 2, step)
        ch = Channel(0, "rotation", "LINEAR", t, np.tile([1.0, 0, 0, 0], (len(t), 1)),
                     None, None, 0, 1)
        return Animation(0, None, (ch,), 0.0, float(t[-1]))

    assert sampling_rate(anim(1 / 30.0001)) == 30.0
    assert sampling_rate(anim(1 / 25)) == 25.0
    assert sampling_rate(anim(0.1)) == pytest.approx(10.0)
    assert sampling_rate(None) == 30.0


# --------------------------------------------------------------------------- channels and curves


@pytest.mark.parametrize("player", ["spec", "naive"])
def test_sample_channel_against_scipy_and_hand_nlerp(truck, player):
    rig, _ = truck
    ch = rig.animations[0].channels[0]
    t = np.linspace(0, 1.25, 97)
    got = sample_channel(ch, t, player)
    keys = ch.values / np.linalg.norm(ch.values, axis=1, keepdims=True)
    if player == "spec":
        want = Slerp(ch.times, Rotation.from_quat(xyzw(keys)))(t)
    else:
        k = np.clip(np.searchsorted(ch.times, t, side="right") - 1, 0, len(ch.times) - 2)
        u = ((t - ch.times[k]) / (ch.times[k + 1] - ch.times[k]))[:, None]
        want = Rotation.from_quat(xyzw((1 - u) * keys[k] + u * keys[k + 1]))
    err = (want.inv() * Rotation.from_quat(xyzw(got))).magnitude()
    assert np.degrees(err).max() < 1e-6


def test_track_curves_of_broken_keys_are_empty_not_an_error():
    from quatlab.app.io.tracks import Track

    tr = Track(times=[0, 1, 2], values=[[1, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]])
    cv = track_curves(tr, 0.0, 2.0, samples=10)
    assert np.isnan(cv.angle["spec"]).all() and np.isnan(cv.speed["naive"]).all()


# --------------------------------------------------------------------------- drawing aids


boxes = st.lists(st.tuples(st.floats(0, 400), st.floats(0, 300), st.floats(5, 120),
                           st.floats(5, 30)), min_size=1, max_size=25)


@settings(max_examples=150, deadline=None)
@given(boxes)
def test_placed_labels_never_overlap_and_stay_in_view(items):
    from quatlab.rendering.rig_labels import place_labels

    anchors = [(x, y) for x, y, _, _ in items]
    sizes = [(w, h) for _, _, w, h in items]
    spots = place_labels(anchors, sizes, 400, 300)
    placed = [(s[0], s[1], w, h) for s, (w, h) in zip(spots, sizes, strict=True) if s]
    for i, (x, y, w, h) in enumerate(placed):
        assert x >= 0 and y >= 0 and x + w <= 400 + 1e-9 and y + h <= 300 + 1e-9
        for px, py, pw, ph in placed[:i]:
            assert not (x < px + pw and px < x + w and y < py + ph and py < y + h)
    # The first label is placed whenever one of its spots fits in the view at all.
    (x0, y0), (w0, h0) = anchors[0], sizes[0]
    if 14 + w0 <= 400 - x0 and 14 + h0 <= 300 - y0:
        assert spots[0] is not None


def test_baked_bones_run_from_joint_to_joint():
    from quatlab.rendering.bone_mesh import BoneGeometry, bone_geometry
    from quatlab.rendering.rig_scene import bake_bones

    g = bone_geometry(1.0, 1e-3, None)
    unit = BoneGeometry(g.vertexes[:24], g.normals[:24], g.edge_verts, g.edges)
    a, b = np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 5.0])  # 2 long, along +Z
    soup = bake_bones(unit, np.array([[a, b], [b, b]]))  # the zero-length one is dropped
    v = soup.vertexes.reshape(-1, 3)
    assert len(v) == 24
    along = (v - a) @ (b - a) / 2
    assert along.min() == pytest.approx(0, abs=1e-6) and along.max() == pytest.approx(2, abs=1e-6)
    radial = np.linalg.norm((v - a) - np.outer(along, (b - a) / 2), axis=1)
    assert radial.max() <= 0.6 * 2 * 0.11 + 1e-6  # girth: 0.6 of BONE_WIDTH times the length
    # Normals stay unit and face outwards.
    n = soup.normals.reshape(-1, 3)
    np.testing.assert_allclose(np.linalg.norm(n, axis=1), 1, atol=1e-5)
    centre = v.reshape(-1, 3, 3).mean(axis=1) - (a + b) / 2
    assert (np.einsum("ij,ij->i", n.reshape(-1, 3, 3)[:, 0], centre) > 0).all()
