"""The USD reader: skeleton animations and rotate ops as tracks, against usd-core read directly.

The oracle is usd-core itself, in this process, on the test's own trusted files:
``Usd.Attribute.Get`` at each time sample, ``GfMatrix4d`` of the quaternions and of
the rotate ops (docs/formats.md, "USD").
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import numpy as np
import pytest

pxr = pytest.importorskip("pxr")
from pxr import Gf, Usd, UsdGeom, UsdSkel  # noqa: E402

from quatlab.app.io.keyframe_files import load_keyframes  # noqa: E402
from quatlab.app.io.track_audit import audit_track  # noqa: E402
from quatlab.app.io.usd.keyframes import UsdKeyframeFile, load_usd_keyframes  # noqa: E402
from quatlab.app.io.usd.scene import stage_matrix  # noqa: E402
from quatlab.math import quaternion as Q  # noqa: E402

DATA = Path(__file__).parent / "data" / "usd"
ELEPHANT = DATA / "SoC-ElephantWithMonochord.usdc"
FILES = sorted(p for p in DATA.iterdir() if p.suffix in (".usda", ".usdc", ".usdz")
               and "corrupt" not in p.name)


def _gf_rotation(q) -> np.ndarray:
    """The 3x3 rotation usd-core makes of a Gf quaternion, for column vectors."""
    m = Gf.Matrix4d().SetRotate(Gf.Quatd(q.GetReal(), Gf.Vec3d(q.GetImaginary())))
    return np.array(m).T[:3, :3]


@pytest.fixture(scope="module")
def elephant() -> UsdKeyframeFile:
    return load_usd_keyframes(ELEPHANT)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_shared_file_opens_with_one_track_per_animated_joint(path):
    kf = load_keyframes(path)
    assert isinstance(kf, UsdKeyframeFile)
    stage = Usd.Stage.Open(str(path))
    expected = 0
    for prim in stage.Traverse():
        if prim.IsA(UsdSkel.Animation):
            attr = UsdSkel.Animation(prim).GetRotationsAttr()
            if attr.GetNumTimeSamples():
                expected += len(UsdSkel.Animation(prim).GetJointsAttr().Get())
    assert len(kf.tracks) == expected > 0
    assert all(t.interpolation == "LINEAR" and t.animation_index == 0 for t in kf.tracks)
    assert all(t.node_index is not None for t in kf.tracks)


def test_keys_are_the_stored_quaternions_in_wxyz_at_seconds(elephant):
    stage = Usd.Stage.Open(str(ELEPHANT))
    anim = UsdSkel.Animation(stage.GetPrimAtPath("/SoC_ElephantWithMonochord/Object/Elefant/_anim"))
    attr = anim.GetRotationsAttr()
    times = attr.GetTimeSamples()
    tracks = [t for t in elephant.tracks if t.animation.endswith("Elefant/_anim.rotations")]
    names = [str(j).rsplit("/", 1)[-1] for j in anim.GetJointsAttr().Get()]
    assert [t.node_name for t in tracks] == names
    assert len(times) == 3023
    # Non-integer time codes (1.0000000521540642 ...) survive; seconds = code / 60.
    assert times[0] != round(times[0])
    np.testing.assert_array_equal(tracks[0].times * 60.0, np.array(times))
    for k in (0, 1, 1500, 3022):
        value = attr.Get(times[k])
        for j in (0, 5, 13):
            q = value[j]
            want = [q.GetReal(), *q.GetImaginary()]
            np.testing.assert_array_equal(tracks[j].values[k], np.array(want, dtype=np.float64))
    assert {t.storage for t in tracks} == {"float"}


def test_elephant_sign_flips_match_a_direct_count(elephant):
    stage = Usd.Stage.Open(str(ELEPHANT))
    expected = 0
    for prim in stage.Traverse():
        if prim.IsA(UsdSkel.Animation):
            attr = UsdSkel.Animation(prim).GetRotationsAttr()
            vals = [attr.Get(t) for t in attr.GetTimeSamples()]
            for a, b in zip(vals, vals[1:], strict=False):
                expected += sum(1 for qa, qb in zip(a, b, strict=True)
                                if Gf.Dot(qa, qb) < 0)
    found = sum(f.kind == "sign_flip" for r in elephant.audit() for f in r.findings)
    assert found == expected == 84


def test_held_interpolation_gives_step_tracks():
    kf = load_usd_keyframes(DATA / "RiggedSimple.usdz", interpolation="held")
    assert {t.interpolation for t in kf.tracks} == {"STEP"}
    assert kf.scene.meta["interpolation"] == "held"


def test_stage_metadata_is_read():
    kf = load_usd_keyframes(DATA / "openusd_testUsdSkelBakeSkinning_lbs.usda")
    meta = kf.scene.meta
    assert (meta["time_codes_per_second"], meta["meters_per_unit"], meta["up_axis"]) == \
        (24.0, 0.01, "Y")
    assert (meta["start"], meta["end"]) == (1.0, 30.0)
    np.testing.assert_allclose(kf.tracks[0].times, np.arange(1, 31) / 24.0)


def test_stage_matrix_honours_meters_per_unit_and_up_axis():
    # A point 100 units up +Z in a centimetre, Z-up stage is 1 m up +Y.
    m = stage_matrix({"meters_per_unit": 0.01, "up_axis": "Z"})
    np.testing.assert_allclose(m @ [0, 0, 100, 1], [0, 1, 0, 1])
    np.testing.assert_allclose(m @ [0, 100, 0, 1], [0, 0, -1, 1])
    assert np.linalg.det(m[:3, :3]) > 0
    np.testing.assert_allclose(stage_matrix({"meters_per_unit": 1, "up_axis": "Y"}), np.eye(4))


RIGID = textwrap.dedent("""\
    #usda 1.0
    (
        timeCodesPerSecond = 10
        upAxis = "Z"
        metersPerUnit = 1
    )
    def Xform "World"
    {
        def Xform "Wheel"
        {
            double3 xformOp:translate = (1, 2, 3)
            float3 xformOp:rotateXYZ.timeSamples = {
                0: (10, 20, 170),
                1: (10, 20, -170),
                2.5: (10, 20, -150),
            }
            float3 xformOp:scale = (2, 2, 2)
            uniform token[] xformOpOrder = [
                "xformOp:translate", "xformOp:rotateXYZ", "xformOp:scale"]
            def Xform "Hub"
            {
                quatf xformOp:orient.timeSamples = {
                    0: (1, 0, 0, 0),
                    1: (-0.70710677, 0, 0, -0.70710677),
                    2: (0, 0, 0, 1),
                }
                uniform token[] xformOpOrder = ["xformOp:orient"]
                def Mesh "Tri"
                {
                    point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
                    int[] faceVertexCounts = [3]
                    int[] faceVertexIndices = [0, 1, 2]
                }
            }
            def Xform "Spinner"
            {
                float xformOp:rotateZ.timeSamples = { 0: 170, 1: -170 }
                uniform token[] xformOpOrder = ["xformOp:rotateZ"]
            }
        }
    }
    """)


@pytest.fixture
def rigid(tmp_path) -> Path:
    path = tmp_path / "rigid.usda"
    path.write_text(RIGID)
    return path


def test_rotate_ops_become_tracks_whose_rotations_are_usd_s(rigid):
    kf = load_usd_keyframes(rigid)
    by_name = {t.node_name: t for t in kf.tracks}
    assert set(by_name) == {"Wheel", "Hub", "Spinner"}
    stage = Usd.Stage.Open(str(rigid))
    for name, path in (("Wheel", "/World/Wheel"), ("Hub", "/World/Wheel/Hub"),
                       ("Spinner", "/World/Wheel/Spinner")):
        track = by_name[name]
        op = [o for o in UsdGeom.Xformable(stage.GetPrimAtPath(path)).GetOrderedXformOps()
              if o.GetNumTimeSamples()][0]
        times = op.GetTimeSamples()
        np.testing.assert_allclose(track.times, np.array(times) / 10.0)
        for k, t in enumerate(times):
            want = np.array(op.GetOpTransform(t)).T[:3, :3]
            np.testing.assert_allclose(Q.to_matrix(track.values[k]), want, atol=1e-6)
    assert by_name["Wheel"].storage == "euler XYZ"
    assert by_name["Hub"].storage == "float"


def test_rotate_op_wraps_and_orient_flips_are_found(rigid):
    kf = load_usd_keyframes(rigid)
    kinds = {r.track.node_name: [(f.kind, f.keys) for f in r.findings] for r in kf.audit()}
    assert ("euler_wrap", (0, 1)) in kinds["Wheel"]
    assert ("euler_wrap", (0, 1)) in kinds["Spinner"]
    # (1,0,0,0), -(90 deg about Z), 180 deg about Z: dots -0.707 and -0.707.
    hub = next(t for t in kf.tracks if t.node_name == "Hub")
    assert [(f.kind, f.keys) for f in audit_track(hub)] == [("sign_flip", (0, 1)),
                                                            ("sign_flip", (1, 2))]


def test_a_usd_file_in_a_folder_is_found_by_suffix(tmp_path):
    copy = tmp_path / "a.usd"
    shutil.copyfile(DATA / "openusd_testUsdSkelBakeSkinning_lbs.usda", copy)
    assert len(load_keyframes(copy).tracks) == 3
