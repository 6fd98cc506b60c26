"""An FBX file as a rig (quatlab.app.model.fbx_rig): poses, skinning, players, playback, pose.

Oracles: the ufbx loader's own evaluated scene (world matrices, and the
skinned vertex positions of its linear blend skinning), asked for through
the worker; the track keys themselves for the naive players at the keys.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from quatlab.app.commands.cli import main
from quatlab.app.io.fbx.keyframes import FbxKeyframeFile
from quatlab.app.io.fbx.loader import read_fbx
from quatlab.app.io.gltf.scene import Channel
from quatlab.app.io.track_audit import fix_track
from quatlab.app.model.fbx_rig import FbxAnimation, rig_of_fbx
from quatlab.app.model.rig import rig_of
from quatlab.app.model.rig_curves import track_curves
from quatlab.app.model.rig_playback import RigPlayback, sampling_rate
from quatlab.app.model.rig_players import evaluate, sample_channel
from quatlab.app.model.skinning import bones, skin_meshes
from quatlab.math import quaternion as Q

DATA = Path(__file__).resolve().parent / "data" / "fbx"
FILES = sorted(DATA.glob("*.fbx"))
TIMES = [0.1, 0.45, 0.8]


@pytest.fixture(scope="module")
def loaded():
    out = {}
    for p in FILES:
        scene = read_fbx(p, eval_times=TIMES)
        kf = FbxKeyframeFile(p, scene)
        out[p.name] = (scene, kf, rig_of_fbx(kf))
    return out


@pytest.mark.parametrize("name", [p.name for p in FILES])
def test_the_rigs_spec_pose_and_skinned_meshes_are_the_loaders(loaded, name):
    scene, kf, rig = loaded[name]
    assert rig_of(kf).names == rig.names                  # the viewer's entry point
    assert (rig.parents < np.arange(len(rig))).all()        # parents first
    for clip in range(len(scene.stack_names)):
        for i, t in enumerate(TIMES):
            pose = evaluate(rig, clip, t)
            ref = scene.eval_world[clip, i][rig.gltf_index]
            np.testing.assert_allclose(pose.world, ref, atol=1e-9 * max(1.0, np.abs(ref).max()))
            for mesh in skin_meshes(rig, pose):
                first = scene.mesh_rows[mesh.mesh, 1]
                want = scene.eval_skinned[clip, i, first:first + len(mesh.vertices)]
                if not mesh.skinned or np.isnan(want).all():
                    continue
                if "dq_weights" in name:       # ufbx blends dual quaternions; we draw LBS
                    assert np.abs(want - mesh.vertices).max() > 1e-3
                    continue
                np.testing.assert_allclose(mesh.vertices, want,
                                           atol=1e-9 * max(1.0, np.abs(want).max()))


def test_skins_bones_and_notes(loaded):
    _s, _kf, rig = loaded["maya_kenney_character_7700_binary.fbx"]
    assert len(rig.skins) == 1 and len(rig.skins[0].joints) == 45
    (mesh,) = rig.meshes
    np.testing.assert_allclose(mesh.weights.sum(axis=1), 1.0)
    b = bones(rig, evaluate(rig, 0, 0.4))
    assert len(b.joints) == 45
    _s, _kf, dq = loaded["maya_dq_weights_7500_ascii.fbx"]
    assert any("blended_dq_linear" in n for n in dq.notes)
    _s, _kf, cubes = loaded["maya_anim_layers_over_acc_orders_7500_binary.fbx"]
    assert not cubes.skins and all(m.skin is None for m in cubes.meshes) and len(cubes.meshes) == 6


@pytest.mark.parametrize("name", ["maya_kenney_character_7700_binary.fbx",
                                  "maya_dq_weights_7500_ascii.fbx",
                                  "maya_anim_layers_over_acc_orders_7500_binary.fbx"])
def test_the_naive_players_meet_the_spec_at_the_keys(loaded, name):
    _scene, kf, rig = loaded[name]
    anim = rig.animations[0]
    for ch in anim.channels[:12]:
        for k in (0, len(ch.times) // 2, len(ch.times) - 1):
            t = float(ch.times[k])
            spec = sample_channel(ch, [t], "spec")[0]
            for player in ("naive", "euler"):
                other = sample_channel(ch, [t], player)[0]
                assert abs(abs(float(np.dot(spec, other))) - 1.0) < 1e-9, (ch.node, t, player)
            np.testing.assert_allclose(spec, ch.values[k], atol=1e-12)


def test_the_naive_player_plays_the_current_keys(loaded):
    """After "Fix signs" the per-key NLERP takes the short way where the fix negated a key."""
    _scene, kf, rig = loaded["maya_dq_weights_7500_ascii.fbx"]
    i = next(i for i, t in enumerate(kf.tracks) if t.node_name == "joint2")
    track = kf.tracks[i]
    node = rig.rig_index[track.node_index]
    mid = 0.5 * float(track.times[0] + track.times[1])
    pb = RigPlayback()
    pb.set_rig(rig)
    pb.set_time(mid)
    before = pb.frame()
    fixed = fix_track(track).fixed
    pb.use_tracks([fixed if j == i else t for j, t in enumerate(kf.tracks)])
    after = pb.frame()
    # The keys are 178.5 deg apart the short way: fixed, the NLERP swings the other way round.
    assert abs(before.local_difference[node] - after.local_difference[node]) > 90.0
    np.testing.assert_allclose(after.spec.world, before.spec.world)   # the spec is the curves'


def test_playback_uses_the_files_frame_rate_and_flags_where_players_part(loaded):
    _scene, _kf, rig = loaded["maya_extrapolate_cube_7700_binary.fbx"]
    assert isinstance(rig.animations[0], FbxAnimation)
    assert sampling_rate(rig.animations[0]) == 24.0
    pb = RigPlayback()
    pb.set_rig(rig)
    pb.set_time(3.07)
    frame = pb.frame()
    assert frame.flagged.tolist() == [0] and frame.local_difference[0] > 150.0
    pb.set_time(float(rig.animations[0].channels[0].times[3]))
    assert not pb.frame().differs


def test_track_curves_follow_the_fbx_curves_when_given_the_rig_channel(loaded):
    _scene, kf, rig = loaded["maya_extrapolate_cube_7700_binary.fbx"]
    channel = rig.animations[0].channels[0]
    track = kf.tracks[0]
    own = track_curves(track, 2.5, 3.5, samples=40, channel=channel)
    spec = sample_channel(channel, own.t, "spec")
    # The spec curve is the file's own evaluation (the FBX curves), sign aside.
    np.testing.assert_allclose(np.abs(np.sum(own.rotations["spec"] * spec, axis=1)), 1.0,
                               atol=1e-9)
    # The naive one blends the stored keys: NLERP, worked out here by hand.
    keys = np.asarray(track.values, dtype=np.float64)
    times = np.asarray(track.times, dtype=np.float64)
    k = np.clip(np.searchsorted(times, own.t, side="right") - 1, 0, len(times) - 2)
    u = np.clip((own.t - times[k]) / (times[k + 1] - times[k]), 0.0, 1.0)[:, None]
    lerp = (1 - u) * keys[k] + u * keys[k + 1]
    naive = lerp / np.linalg.norm(lerp, axis=1, keepdims=True)
    np.testing.assert_allclose(np.abs(np.sum(own.rotations["naive"] * naive, axis=1)), 1.0,
                               atol=1e-9)
    # The error is the angle between those two, and the curves are not SLERP of the keys.
    np.testing.assert_allclose(own.error, np.degrees(Q.angle_between(spec, naive)), atol=1e-6)
    keyed = Channel(0, "rotation", track.interpolation, times, keys, track.in_tangents,
                    track.out_tangents, 0, 0)
    slerp = sample_channel(keyed, own.t, "spec")
    assert np.degrees(Q.angle_between(spec, slerp)).max() > 10.0   # curve, not SLERP


def test_pose_command_json_is_the_loaders_world(loaded, capsys):
    scene, _kf, _rig = loaded["maya_game_sausage_7500_ascii_combined.fbx"]
    path = DATA / "maya_game_sausage_7500_ascii_combined.fbx"
    assert main(["pose", str(path), "--time", "0.8", "--animation", "wiggle", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["animation"]["name"] == "wiggle" and report["player"] == "spec"
    world = np.array([n["world"] for n in report["nodes"]])
    np.testing.assert_allclose(world, scene.eval_world[0, TIMES.index(0.8)], atol=1e-9)
    assert [n["name"] for n in report["nodes"]] == list(scene.node_names)
    assert main(["pose", str(path), "--time", "0.8", "--player", "euler"]) == 0
    capsys.readouterr()
    assert main(["pose", str(DATA.parent / "gltf" / "CesiumMan.glb"), "--time", "0.5",
                 "--player", "euler"]) == 2
    assert "player must be one of spec, naive" in capsys.readouterr().err


def test_rotation_override_keeps_pivots_consistent():
    """The naive players replace the local rotation; the translation follows the pivot."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from fbx_forge import Joint, ascii_fbx

    text = ascii_fbx([Joint("a", -1, (0.0, 0.0, 0.0))], {("a", "R", 2): ([0.0, 1.0],
                                                                          [0.0, 90.0])})
    # A rotation pivot at (1, 0, 0): the node turns about it.
    text = text.replace('"RotationOrder", "enum", "", "",0',
                        '"RotationOrder", "enum", "", "",0\n\t\t\tP: "RotationPivot", '
                        '"Vector3D", "Vector", "",1,0,0')
    from quatlab.app.io.fbx.keyframes import load_fbx_bytes

    kf = load_fbx_bytes("p.fbx", text.encode())
    ev = kf.evaluator(0)
    spec = ev.local([1.0])
    np.testing.assert_allclose(spec.translation[0, 0], [1.0, -1.0, 0.0], atol=1e-12)
    half = Q.from_axis_angle([0, 0, 1], np.pi / 4)
    moved = ev.local([1.0], rotation=half[None, None])
    np.testing.assert_allclose(moved.translation[0, 0],
                               [1 - np.cos(np.pi / 4), -np.sin(np.pi / 4), 0.0], atol=1e-12)


def test_the_keyframes_tab_says_in_one_line_how_to_get_fbx(monkeypatch, tmp_path):
    """Without ufbx the tab's message (what the window shows) names the pip command."""
    from quatlab.app.io.fbx import loader
    from quatlab.app.io.tracks import KeyframeFileError
    from quatlab.app.model.keyframes_model import KeyframesModel

    monkeypatch.setattr(loader, "ufbx_available", lambda: False)
    model = KeyframesModel()
    with pytest.raises(KeyframeFileError):
        model.load(DATA / "maya_dq_weights_7500_ascii.fbx")
    assert "pip install 'quatlab[fbx]'" in model.message.text
    assert "\n" not in model.message.text
