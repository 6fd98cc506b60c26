"""The Euler channels FBX and USD files store, played by the Euler-curve runtimes (unity_euler).

``KeyframeFile.euler_channels(track)`` hands a file's own Euler angles to the
players that blend each channel on its own (docs/runtimes.md, "Unity Euler
curves"). Oracles, all independent of QuatLab's conversions: scipy's
``Rotation`` (its lowercase orders are extrinsic, as FBX's and USD's: ``"xyz"``
turns about X first) for the key rotations and the blends, scipy's ``Slerp``
for the glTF reference, and usd-core's own interpolation of a rotate op
between samples (``UsdGeomXformOp.GetOpTransform``), which blends the stored
components as a Euler-curve player does. Hand cases: a keyframed 270 deg spin
(the channel keeps it, every quaternion player takes the short way) and a
two-channel move whose per-channel blend differs from SLERP by 11 deg, by a
different amount than the same keys written as Unity-order Euler angles.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import report_schema
from scipy.spatial.transform import Rotation, Slerp

from quatlab.app.commands.cli import main
from quatlab.app.io.fbx.keyframes import load_fbx_bytes
from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.runtime_check import runtime_matrix
from quatlab.app.io.track_runtimes import key_track, play_track

sys.path.insert(0, str(Path(__file__).parent))
from fbx_forge import Joint, ascii_fbx, chain  # noqa: E402

DATA = Path(__file__).parent / "data"
#: Samples per segment of the runtime table (both ends): u = k / 16.
U = np.arange(17) / 16


def _rot(q):
    return Rotation.from_quat(np.asarray(q)[..., [1, 2, 3, 0]])


def _deg(a: Rotation, b: Rotation) -> np.ndarray:
    return np.degrees((a.inv() * b).magnitude())


def _row_cell(doc, runtime, kind=None):
    rows = [r for r in doc["runtimes"]["rows"] if kind is None or r["kind"] == kind]
    return max(r["degrees"][runtime] for r in rows)


# ----------------------------------------------------------------------------- FBX


@pytest.mark.parametrize("path", sorted((DATA / "fbx").glob("*.fbx")), ids=lambda p: p.name)
def test_fbx_channels_are_the_keys_rotations_in_the_nodes_order(path):
    kf = load_keyframes(path)
    for i, track in enumerate(kf.tracks):
        channels = kf.euler_channels(i)
        stack, node = kf.entries[i]
        pre, post = kf.scene.node_props[node][3:5]
        if np.any(pre != 0) or np.any(post != 0):
            assert channels is None, track.label        # Rpre R Rpost^-1: not the channels
            continue
        angles, order = channels
        assert angles.shape == (len(track), 3) and order.islower()
        np.testing.assert_allclose(
            _deg(Rotation.from_euler(order, angles, degrees=True), _rot(track.values)), 0.0,
            atol=1e-6, err_msg=track.label)


def test_fbx_channels_follow_every_rotation_order():
    kf = load_keyframes(DATA / "fbx" / "maya_anim_layers_over_acc_orders_7500_binary.fbx")
    orders = {kf.euler_channels(i)[1] for i in range(len(kf.tracks))}
    assert orders == {"xyz", "xzy", "yzx", "yxz", "zxy", "zyx"}


def _fbx(tmp_path, joints, curves) -> Path:
    path = tmp_path / "hand.fbx"
    path.write_text(ascii_fbx(joints, curves))
    return path


def test_unity_euler_keeps_an_fbx_spin_every_quaternion_player_takes_the_short_way(
        tmp_path, capsys):
    # Z from 0 to 270 deg in one second: the keys are Rz(0) and Rz(-90), so SLERP turns -90
    # deg; the channel turns +270. Halfway: Rz(135) against Rz(-45), half a turn apart.
    path = _fbx(tmp_path, chain(2), {("j1", "R", 2): ([0.0, 1.0], [0.0, 270.0])})
    kf = load_keyframes(path)
    angles, order = kf.euler_channels(0)
    assert order == "xyz" and angles.tolist() == [[0.0, 0.0, 0.0], [0.0, 0.0, 270.0]]
    assert main(["check", str(path), "--runtimes", "gltf,unity_euler,three", "--json"]) == 1
    doc = report_schema.file_report(capsys.readouterr().out)
    want = _deg(Rotation.from_euler("z", 270 * U[:, None], degrees=True),
                Rotation.from_euler("z", -90 * U[:, None], degrees=True)).max()
    assert want == pytest.approx(180.0)
    assert _row_cell(doc, "unity_euler") == pytest.approx(want, abs=1e-3)
    assert _row_cell(doc, "gltf") == 0.0 and _row_cell(doc, "three") < 1.0
    # Without the file's channels the player writes each key in Unity's order on its own
    # (-90, the short way) and would have agreed with SLERP: the channels made the difference.
    kf.euler_channels = lambda _i: None
    assert max(r.degrees[1] for r in runtime_matrix(kf, ("gltf", "unity_euler")).rows) < 1.0


def test_unity_euler_blends_the_fbx_channels_not_slerp(tmp_path, capsys):
    # Two channels at once, order XYZ: (0, 0, 0) to (60, 0, 80) deg. Blended per channel the
    # rotation leaves the great circle SLERP follows.
    path = _fbx(tmp_path, chain(2), {("j1", "R", 0): ([0.0, 1.0], [0.0, 60.0]),
                                     ("j1", "R", 2): ([0.0, 1.0], [0.0, 80.0])})
    keys = Rotation.from_euler("xyz", [[0, 0, 0], [60, 0, 80]], degrees=True)
    reference = Slerp([0.0, 1.0], keys)(U)
    per_channel = Rotation.from_euler("xyz", np.outer(U, [60.0, 0.0, 80.0]), degrees=True)
    want = _deg(per_channel, reference).max()
    # The same keys written as Unity-order (extrinsic zxy) angles, key by key, then blended.
    unity = keys.as_euler("zxy", degrees=True)
    fallback = _deg(Rotation.from_euler(
        "zxy", unity[0] + U[:, None] * (unity[1] - unity[0]), degrees=True), reference).max()
    assert want > 10.0 and abs(want - fallback) > 0.5
    assert main(["check", str(path), "--runtimes", "gltf,unity_euler", "--json"]) == 1
    doc = report_schema.file_report(capsys.readouterr().out)
    (row,) = doc["runtimes"]["rows"]
    assert row["kind"] == "runtime" and row["degrees"]["gltf"] == 0.0
    assert row["degrees"]["unity_euler"] == pytest.approx(want, abs=1e-4)
    # Between the table's samples too: the player is the channels' blend.
    t = np.linspace(0.0, 1.0, 41)
    played = play_track(key_track(load_keyframes(path), 0), "unity_euler", t)
    expect = Rotation.from_euler("xyz", np.outer(t, [60.0, 0.0, 80.0]), degrees=True)
    np.testing.assert_allclose(_deg(_rot(played), expect), 0.0, atol=1e-6)


def test_fbx_nodes_with_pre_rotation_have_no_channels_of_their_own(tmp_path):
    joints = [Joint("j0", -1), Joint("j1", 0, pre_rotation=(0.0, 0.0, 30.0))]
    kf = load_fbx_bytes("pre.fbx", ascii_fbx(joints, {("j1", "R", 0): ([0.0, 1.0],
                                                                        [0.0, 90.0])}).encode())
    # The key is Rz(30) Rx(a): the channel alone is not the track's rotation.
    np.testing.assert_allclose(_deg(_rot(kf.tracks[0].values), Rotation.from_euler(
        "ZX", [[30, 0], [30, 90]], degrees=True)), 0.0, atol=1e-6)  # intrinsic: Rz Rx
    assert kf.euler_channels(0) is None


# ----------------------------------------------------------------------------- USD

RIGID = textwrap.dedent("""\
    #usda 1.0
    (
        timeCodesPerSecond = 10
    )
    def Xform "World"
    {
        def Xform "Wheel"
        {
            float3 xformOp:rotateZXY.timeSamples = {
                0: (10, 20, 170),
                10: (30, -40, -170),
                25: (35, -60, -150),
            }
            uniform token[] xformOpOrder = ["xformOp:rotateZXY"]
        }
        def Xform "Back"
        {
            float3 xformOp:rotateXYZ.timeSamples = { 0: (0, 0, 0), 10: (60, 0, 80) }
            uniform token[] xformOpOrder = ["!invert!xformOp:rotateXYZ"]
        }
        def Xform "Spinner"
        {
            float xformOp:rotateY.timeSamples = { 0: 170, 10: -170 }
            uniform token[] xformOpOrder = ["xformOp:rotateY"]
        }
    }
    """)


@pytest.fixture
def rigid(tmp_path) -> Path:
    pytest.importorskip("pxr")
    path = tmp_path / "rigid.usda"
    path.write_text(RIGID)
    return path


def test_usd_rotate_ops_play_as_usd_interpolates_them(rigid):
    from pxr import Usd, UsdGeom  # noqa: PLC0415

    kf = load_keyframes(rigid)
    stage = Usd.Stage.Open(str(rigid))
    codes = np.linspace(0.0, 25.0, 51)
    for i, track in enumerate(kf.tracks):
        angles, order = kf.euler_channels(i)
        assert angles.shape == (len(track), 3)
        (op,) = UsdGeom.Xformable(stage.GetPrimAtPath(f"/World/{track.node_name}")
                                  ).GetOrderedXformOps()
        inside = codes[codes <= op.GetTimeSamples()[-1]]
        played = play_track(key_track(kf, i), "unity_euler", inside / 10.0)
        # usd-core blends the stored components, then builds the op (inverted for !invert!).
        usd = Rotation.from_matrix(np.stack([np.array(op.GetOpTransform(c)).T[:3, :3]
                                             for c in inside]))
        np.testing.assert_allclose(_deg(_rot(played), usd), 0.0, atol=1e-4,
                                   err_msg=track.node_name)
    orders = {t.node_name: kf.euler_channels(i)[1] for i, t in enumerate(kf.tracks)}
    # ZXY as stored; the inverse of XYZ is ZYX (angles negated); one axis is its channel.
    assert orders == {"Wheel": "zxy", "Back": "zyx", "Spinner": "xyz"}


def test_usd_check_runtimes_plays_the_ops_channels(rigid, capsys):
    assert main(["check", str(rigid), "--runtimes", "gltf,unity_euler,slerp", "--json"]) == 1
    doc = report_schema.file_report(capsys.readouterr().out)
    spinner = [r for r in doc["runtimes"]["rows"] if r["node"] == "Spinner"]
    assert {r["kind"] for r in spinner} >= {"euler_wrap"}
    # 170 to -170 deg about Y: USD (and the channel blend) turns 340 deg the long way, the
    # reference 20 deg the short way; halfway they are half a turn apart.
    want = _deg(Rotation.from_euler("y", 170 - 340 * U[:, None], degrees=True),
                Rotation.from_euler("y", 170 + 20 * U[:, None], degrees=True)).max()
    assert max(r["degrees"]["unity_euler"] for r in spinner) == pytest.approx(want, abs=1e-3)
    assert max(r["degrees"]["gltf"] for r in spinner) == 0.0
    assert json.dumps(doc)                                   # plain JSON throughout
