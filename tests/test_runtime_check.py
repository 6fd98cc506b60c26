"""The findings x runtimes table (app/io/runtime_check.py) and its players on loaded files.

Expected figures are worked here: a sign flip played by a stored-sign lerp is
180 deg off the reference at the segment's middle (the two are on one great
circle, half a turn apart: the short arc's middle and the long arc's), so a
lerping runtime's cell on a real flip is 180; runtimes that take the dot's
sign are within NLERP's timing of the reference. The real files are the
shared truck, robot and motion-capture files (tests/data, README beside them).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.runtime_check import GLITCH_DEG, runtime_matrix, segment_errors
from quatlab.app.io.track_runtimes import after_steps, key_track, play_track, unplayable
from quatlab.app.io.tracks import KeyframeFile, Track
from quatlab.math import key_pipeline as KP
from quatlab.math import quaternion as Q

DATA = Path(__file__).parent / "data"
#: Runtimes that lerp or slerp the keys as stored (no sign test anywhere).
STORED_SIGN = ("unity_quat", "nlerp", "slerp")
#: Runtimes that follow the dot's sign or fix signs first.
SIGN_AWARE = ("gltf", "three", "babylon", "playcanvas", "godot", "unreal", "ozz", "acl")


def _column(matrix, rows, runtime):
    j = matrix.runtimes.index(runtime)
    return np.array([r.degrees[j] for r in rows], dtype=float)


@pytest.mark.parametrize("name, flips", [("gltf/CesiumMilkTruck.glb", 2),
                                         ("gltf/RobotExpressive.glb", 15)])
def test_real_sign_flips_glitch_on_stored_sign_runtimes_and_not_on_the_reference(name, flips):
    matrix = runtime_matrix(load_keyframes(DATA / name))
    rows = [r for r in matrix.rows if r.kind == "sign_flip"]
    assert len(rows) == flips                              # tests/data/gltf/README.md
    for rid in STORED_SIGN:
        # 180 but for the float32 keys' lengths, which a stored-sign lerp keeps.
        assert np.all(np.abs(_column(matrix, rows, rid) - 180.0) < 1e-3), rid
    assert np.all(_column(matrix, rows, "gltf") == 0.0)
    for rid in SIGN_AWARE:
        assert np.all(_column(matrix, rows, rid) < 3.0), rid
    assert set(STORED_SIGN) <= set(matrix.glitching())
    assert "gltf" not in matrix.glitching()


def test_bvh_wraps_glitch_on_euler_curves_but_not_once_resampled():
    # test_mocapbank.bvh: one channel wraps across +-180 between frames 1/30 s apart.
    kf = load_keyframes(DATA / "bvh/test_mocapbank.bvh")
    matrix = runtime_matrix(kf, ("gltf", "unity_euler", "unity_euler_rs", "playcanvas"))
    wraps = [r for r in matrix.rows if r.kind == "euler_wrap"]
    assert wraps
    assert np.all(_column(matrix, wraps, "unity_euler") >= GLITCH_DEG)
    assert np.all(_column(matrix, wraps, "unity_euler_rs") < 2.0)
    assert np.all(_column(matrix, wraps, "playcanvas") < 1.0)
    # The Euler player read the file's own channels (order ZXY, as stored).
    track = wraps[0].track
    angles, order = kf.euler_channels(track)
    assert order == "ZXY" and np.array_equal(angles, kf.bvh.euler_degrees(kf.joints[track]))


def test_a_glitch_no_finding_names_gets_its_own_row():
    # A STEP track has nothing to report, but compressed Godot tracks are LINEAR only.
    step = Track(times=[0.0, 1.0, 2.0], values=Q.from_axis_angle([0, 0, 1], np.radians(
        [0.0, 90.0, 90.0])), interpolation="STEP")
    matrix = runtime_matrix(KeyframeFile("step.csv", [step]), ("gltf", "godot", "godot_comp"))
    (row,) = matrix.rows
    assert (row.kind, row.keys, row.start, row.end) == ("runtime", (0, 1), 0.0, 1.0)
    # Halfway through the held key Godot has turned 45 of the 90 deg: at u = 15/16, 84.4.
    assert row.degrees[0] == 0.0 and row.degrees[1] == 0.0
    assert row.degrees[2] == pytest.approx(90 * 15 / 16, abs=0.05)


def test_steps_change_what_the_runtimes_play_and_the_reference_shows_the_damage():
    keys = Q.from_axis_angle([0, 0, 1], np.radians(np.arange(0.0, 241.0, 2.0)))
    track = Track(times=np.arange(121.0) / 30, values=keys)
    kf = KeyframeFile("turn.csv", [track])
    before = runtime_matrix(kf, ("gltf", "nlerp"))
    assert before.rows == () and before.glitching() == ()
    after = runtime_matrix(kf, ("gltf", "nlerp"), "reduce-v2:0.001")
    (row,) = after.rows
    # Two keys 240 deg apart (dot -0.5: a sign flip): the reference's short arc runs the
    # other way, 180 deg off the original turn at its middle. A stored-sign NLERP goes the
    # original way round, off by its timing only: at u = 1/4 it has turned
    # 2 atan2(sin 120 / 4, 3/4 + cos 120 / 4) = 38.2 deg instead of 60.
    assert row.kind == "sign_flip" and row.keys == (0, 1)
    assert row.degrees[0] == pytest.approx(180.0, abs=1e-6)
    assert 60 - 38.3 < row.degrees[1] < 30
    assert after.steps == ("reduce-v2:0.001",) and after.glitching() == ("gltf", "nlerp")
    assert len(after.reports[0].track) == 2


def test_unplayable_tracks_are_listed_and_their_cells_left_empty():
    bad = Track(times=[0.0, 0.0], values=[[1.0, 0, 0, 0], [0, 0, 0, 1]])
    matrix = runtime_matrix(KeyframeFile("bad.csv", [bad]), ("gltf", "nlerp"))
    assert [i for i, _ in matrix.skipped] == [0]
    assert "increasing" in matrix.skipped[0][1]
    assert all(r.degrees == (None, None) for r in matrix.rows)
    data = matrix.as_dict()
    assert data["skipped"][0]["track"] == 0 and data["worst"] == {"gltf": None, "nlerp": None}


def test_as_dict_is_plain_json_data():
    c = np.sqrt(0.5)
    kf = KeyframeFile("a.csv", [Track(times=[0.0, 1.0], values=[[1, 0, 0, 0], [-c, 0, 0, -c]],
                                      node_name="Arm")])
    data = runtime_matrix(kf, ("gltf", "nlerp")).as_dict()
    assert data["ids"] == ["gltf", "nlerp"] and data["reference"] == "gltf"
    (row,) = data["rows"]
    assert row["node"] == "Arm" and row["keys"] == [0, 1] and row["time"] == [0.0, 1.0]
    assert row["degrees"] == {"gltf": 0.0, "nlerp": 180.0}
    assert data["glitching"] == ["nlerp"]


def test_segment_errors_sample_each_segment_and_one_key_tracks():
    c = np.sqrt(0.5)
    flip = KP.KeyTrack(np.array([0.0, 1.0, 2.0]),
                       np.array([[1.0, 0, 0, 0], [c, 0, 0, c], [-1.0, 0, 0, 0]]))
    err = segment_errors(flip, flip, ("gltf", "nlerp"))
    assert err.shape == (2, 2) and np.all(err[0] == 0)
    # Segment 0 is continuous (NLERP's timing only), segment 1 a flip (180 mid-way).
    assert err[1, 0] < 1 and err[1, 1] == pytest.approx(180.0)
    one = KP.KeyTrack(np.array([0.0]), np.array([[0.0, 1.0, 0, 0]]))
    assert segment_errors(one, one, ("gltf", "acl")).shape == (2, 1)


def test_play_track_and_after_steps_keep_the_track_and_its_names():
    c = np.sqrt(0.5)
    track = Track(times=[0.0, 1.0], values=[[1, 0, 0, 0], [-c, 0, 0, -c]], node_name="Arm",
                  animation="Wave")
    assert np.allclose(np.abs(play_track(track, "gltf", [0.5])[0]),
                       [np.cos(np.pi / 8), 0, 0, np.sin(np.pi / 8)])
    out = after_steps(track, "quantize:8")
    assert (out.node_name, out.animation) == ("Arm", "Wave")
    assert out.quantum == pytest.approx(1 / 127) and "quantize:8" in out.storage
    assert unplayable(track) is None
    assert "zero" in unplayable(Track(times=[0.0, 1.0], values=[[0.0, 0, 0, 0], [1, 0, 0, 0]]))
    with pytest.raises(ValueError, match="unknown runtime"):
        play_track(key_track(track), "unity", [0.5])
