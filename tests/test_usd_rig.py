"""The USD rig plays as UsdSkel computes: joint world transforms and skinned points, any time.

Oracle: usd-core's own UsdSkel in this process (docs/formats.md, "USD"):
``UsdSkelSkeletonQuery.ComputeJointWorldTransforms`` for the joints and
``UsdSkelSkinningQuery.ComputeSkinnedPoints`` with the skeleton query's skinning
transforms for the meshes (skeleton space, placed by the skeleton's world matrix),
at sample times, between samples (non-integer time codes) and with held
interpolation. QuatLab's side is the rig model (:mod:`quatlab.app.model.usd_rig`)
posed by the spec player, times in seconds, with the stage node's units and axis.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pxr")
from pxr import Usd, UsdGeom, UsdSkel, Vt  # noqa: E402

from quatlab.app.io.usd.keyframes import load_usd_keyframes  # noqa: E402
from quatlab.app.io.usd.scene import stage_matrix  # noqa: E402
from quatlab.app.model.pose_report import pose_report  # noqa: E402
from quatlab.app.model.rig import rig_of  # noqa: E402
from quatlab.app.model.rig_players import evaluate  # noqa: E402
from quatlab.app.model.skinning import skin_meshes  # noqa: E402

DATA = Path(__file__).parent / "data" / "usd"
CASES = {
    "CesiumMan.usdz": (1.0, 13.5, 24.25, 48.0),
    "RiggedFigure.usdz": (0.0, 7.3, 30.0),
    "openusd_testUsdSkelBakeSkinning_lbs.usda": (1.0, 10.5, 30.0),
    "openusd_testUsdImagingGLSkelSkinning_test_lbs.usda": (1.0, 17.25, 75.0, 120.0),
    "SoC-ElephantWithMonochord.usdc": (1.0000000521540642, 40.5, 1501.75, 3023.0),
}


def _usd_side(path: Path, time_codes, held=False):
    """Per time code: {skeleton path: joint world (J, 4, 4)}, {mesh path: world points}."""
    stage = Usd.Stage.Open(str(path))
    if held:
        stage.SetInterpolationType(Usd.InterpolationTypeHeld)
    to_m = stage_matrix({"meters_per_unit": UsdGeom.GetStageMetersPerUnit(stage),
                         "up_axis": str(UsdGeom.GetStageUpAxis(stage))})
    cache = UsdSkel.Cache()
    roots = [UsdSkel.Root(p) for p in stage.Traverse() if p.IsA(UsdSkel.Root)]
    for root in roots:
        cache.Populate(root, Usd.TraverseInstanceProxies())
    out = []
    for tc in time_codes:
        xf = UsdGeom.XformCache(tc)
        joints, points = {}, {}
        for prim in stage.Traverse():
            if prim.IsA(UsdSkel.Skeleton):
                sq = cache.GetSkelQuery(UsdSkel.Skeleton(prim))
                world = np.array(sq.ComputeJointWorldTransforms(xf)).transpose(0, 2, 1)
                joints[str(prim.GetPath())] = to_m @ world
        for root in roots:
            for binding in cache.ComputeSkelBindings(root, Usd.TraverseInstanceProxies()):
                sq = cache.GetSkelQuery(binding.GetSkeleton())
                skel_world = np.array(xf.GetLocalToWorldTransform(sq.GetPrim())).T
                skinning = sq.ComputeSkinningTransforms(tc)
                for target in binding.GetSkinningTargets():
                    if not target.GetPrim().IsA(UsdGeom.Mesh):
                        continue   # a transform bound to a joint: not a mesh QuatLab draws
                    mesh = UsdGeom.Mesh(target.GetPrim())
                    pts = Vt.Vec3fArray(mesh.GetPointsAttr().Get(Usd.TimeCode.EarliestTime()))
                    assert target.ComputeSkinnedPoints(skinning, pts, tc)
                    p = np.array(pts, dtype=np.float64)
                    m = to_m @ skel_world
                    points[str(target.GetPrim().GetPath())] = p @ m[:3, :3].T + m[:3, 3]
        out.append((joints, points))
    return out


def _our_side(kf, rig, time_codes, player="spec"):
    scene = kf.scene
    lay = scene.layout()
    out = []
    for tc in time_codes:
        pose = evaluate(rig, 0, tc / scene.time_codes_per_second, player)
        joints = {sk.path: pose.world[lay.joint_nodes[s]] for s, sk in enumerate(scene.skeletons)}
        meshes = {scene.meshes[m.mesh].path: m.vertices for m in skin_meshes(rig, pose)
                  if m.skinned}
        out.append((joints, meshes))
    return out


@pytest.mark.parametrize("name", sorted(CASES), ids=str)
def test_joint_world_transforms_and_skinned_points_match_usdskel(name):
    path = DATA / name
    kf = load_usd_keyframes(path)
    rig = rig_of(kf)
    times = CASES[name]
    usd, ours = _usd_side(path, times), _our_side(kf, rig, times)
    for tc, (uj, up), (oj, op) in zip(times, usd, ours, strict=True):
        assert uj.keys() == oj.keys() and up.keys() == op.keys() and up and uj, name
        for key, want in uj.items():
            size = max(float(np.abs(want[:, :3, 3]).max()), 1e-6)
            np.testing.assert_allclose(oj[key][:, :3, :3], want[:, :3, :3], atol=2e-5,
                                       err_msg=f"{name} {key} rotation at {tc}")
            np.testing.assert_allclose(oj[key][:, :3, 3], want[:, :3, 3], atol=2e-5 * size,
                                       err_msg=f"{name} {key} position at {tc}")
        for key, want in up.items():
            size = max(float(np.abs(want).max()), 1e-6)
            np.testing.assert_allclose(op[key], want, atol=5e-5 * size,
                                       err_msg=f"{name} {key} points at {tc}")


def test_held_interpolation_holds_like_usd():
    path = DATA / "openusd_testUsdSkelBakeSkinning_lbs.usda"
    kf = load_usd_keyframes(path, interpolation="held")
    rig = rig_of(kf)
    assert {c.interpolation for c in rig.animations[0].channels} == {"STEP"}
    times = (10.5, 12.9)
    usd, ours = _usd_side(path, times, held=True), _our_side(kf, rig, times)
    linear = _usd_side(path, times)
    for (uj, _up), (oj, _op), (lj, _lp) in zip(usd, ours, linear, strict=True):
        for key, want in uj.items():
            np.testing.assert_allclose(oj[key], want, atol=1e-6)
            assert not np.allclose(lj[key], want, atol=1e-6)   # held is not linear here


def test_the_naive_player_plays_rotate_ops_as_usd_does(tmp_path):
    # usd-core lerps an Euler op's components: across a wrap it turns the long way.
    path = tmp_path / "spin.usda"
    path.write_text('#usda 1.0\n(\n    timeCodesPerSecond = 1\n)\ndef Xform "S"\n{\n'
                    '    float xformOp:rotateZ.timeSamples = { 0: 170, 1: -170 }\n'
                    '    uniform token[] xformOpOrder = ["xformOp:rotateZ"]\n}\n')
    kf = load_usd_keyframes(path)
    rig = rig_of(kf)
    node = kf.tracks[0].node_index
    stage = Usd.Stage.Open(str(path))
    # No metersPerUnit authored: USD's fallback is 0.01 (centimetres).
    to_m = stage_matrix({"meters_per_unit": UsdGeom.GetStageMetersPerUnit(stage), "up_axis": "Y"})
    assert to_m[0, 0] == 0.01
    for t in (0.25, 0.5, 0.75):
        want = to_m @ np.array(UsdGeom.Xformable(stage.GetPrimAtPath("/S"))
                               .ComputeLocalToWorldTransform(t)).T
        naive = evaluate(rig, 0, t, "naive").world[node]
        np.testing.assert_allclose(naive, want, atol=1e-6)
        spec = evaluate(rig, 0, t, "spec").world[node]   # the short way: 180 +- 20 deg
        assert abs(abs(np.degrees(np.arctan2(spec[1, 0], spec[0, 0]))) - 180) <= 20.0 + 1e-6


def test_pose_reports_usd_joints_by_name_at_seconds():
    report = pose_report(DATA / "CesiumMan.usdz", None, 1.0, "spec")
    names = [n["name"] for n in report["nodes"]]
    assert names[:2] == ["stage", "Skeleton"]
    assert "Skeleton_torso_joint_1" in names
    assert report["animation"]["start"] == pytest.approx(1 / 24)
    assert report["animation"]["end"] == pytest.approx(2.0)


def test_rigid_prims_and_their_meshes_sit_where_usd_puts_them(tmp_path):
    from test_usd_reader import RIGID  # noqa: PLC0415 - the reader test's rigid asset

    path = tmp_path / "rigid.usda"
    path.write_text(RIGID)
    kf = load_usd_keyframes(path)
    rig = rig_of(kf)
    stage = Usd.Stage.Open(str(path))
    to_m = stage_matrix({"meters_per_unit": 1.0, "up_axis": "Z"})
    nodes = {t.node_name: t.node_index for t in kf.tracks}
    lay = kf.scene.layout()
    tri = next(m for m in rig.meshes if kf.scene.meshes[m.mesh].path.endswith("Tri"))
    for tc in (0.0, 1.0, 2.0, 2.5):      # sample times: every player agrees with USD there
        pose = evaluate(rig, 0, tc / 10.0)
        for name, prim in (("Wheel", "/World/Wheel"), ("Hub", "/World/Wheel/Hub"),
                           ("Spinner", "/World/Wheel/Spinner")):
            want = to_m @ np.array(UsdGeom.Xformable(stage.GetPrimAtPath(prim))
                                   .ComputeLocalToWorldTransform(tc)).T
            post = lay.xform_nodes[[t.node_name for t in kf.tracks].index(name)][2]
            assert nodes[name] == post - 1
            np.testing.assert_allclose(pose.world[post], want, atol=1e-6, err_msg=f"{name} {tc}")
        mesh_world = to_m @ np.array(UsdGeom.Xformable(stage.GetPrimAtPath(
            "/World/Wheel/Hub/Tri")).ComputeLocalToWorldTransform(tc)).T
        posed = next(m for m in skin_meshes(rig, pose) if m.node == tri.node)
        np.testing.assert_allclose(posed.vertices, tri.positions @ mesh_world[:3, :3].T
                                   + mesh_world[:3, 3], atol=1e-6)


def test_cesium_man_in_usdz_poses_as_its_gltf_original():
    # What a glTF-vs-USD compare needs: the same joint names, times in seconds, spec poses.
    from quatlab.app.io.keyframe_files import load_keyframes  # noqa: PLC0415

    gltf = load_keyframes(DATA.parent / "gltf" / "CesiumMan.glb")
    usd = load_keyframes(DATA / "CesiumMan.usdz")
    assert [t.node_name for t in usd.tracks] == [t.node_name for t in gltf.tracks]
    np.testing.assert_allclose(usd.tracks[0].times, gltf.tracks[0].times, atol=1e-6)
    grig, urig = rig_of(gltf), rig_of(usd)
    for t in (0.1, 0.77, 1.5):
        gp, up = evaluate(grig, 0, t), evaluate(urig, 0, t)
        for track in usd.tracks:
            g = grig.names.index(track.node_name)
            np.testing.assert_allclose(up.world[track.node_index, :3, 3], gp.world[g, :3, 3],
                                       atol=1e-5, err_msg=f"{track.node_name} at {t}")


SPARSE = """#usda 1.0
(
    timeCodesPerSecond = 30
    metersPerUnit = 1
    upAxis = "Z"
)
def SkelRoot "Root"
{
    def Skeleton "Skel" (prepend apiSchemas = ["SkelBindingAPI"])
    {
        uniform token[] joints = ["a", "a/b", "a/b/c"]
        uniform matrix4d[] bindTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1)),
            ((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,1,0,1)), ((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,2,0,1))]
        uniform matrix4d[] restTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1)),
            ((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,1,0,1)), ((0,1,0,0),(-1,0,0,0),(0,0,1,0),(0,1,0,1))]
        rel skel:animationSource = </Root/Skel/Anim>
        def SkelAnimation "Anim"
        {
            uniform token[] joints = ["a/b", "a"]
            quath[] rotations.timeSamples = {
                0: [(1, 0, 0, 0), (1, 0, 0, 0)],
                2.5: [(0.6, 0.8, 0, 0), (0.8, 0, 0, 0.6)],
                7: [(-0.6, 0, -0.8, 0), (0, 0, 0, 1)],
            }
            float3[] translations = [(0, 1, 0), (0.5, 0, 0)]
            half3[] scales = [(1, 1, 1), (1, 1, 1)]
        }
    }
}
"""


@pytest.mark.parametrize("rotation_type", ["quatf", "quath"])
def test_a_sparse_reordered_animation_plays_as_usdskel(tmp_path, rotation_type):
    path = tmp_path / "sparse.usda"
    path.write_text(SPARSE.replace("quath[]", f"{rotation_type}[]"))
    kf = load_usd_keyframes(path)
    assert [t.node_name for t in kf.tracks] == ["b", "a"]
    rig = rig_of(kf)
    times = (0.0, 1.0, 2.5, 4.2, 7.0)
    usd, ours = _usd_side(path, times), _our_side(kf, rig, times)
    for tc, (uj, _up), (oj, _op) in zip(times, usd, ours, strict=True):
        np.testing.assert_allclose(oj["/Root/Skel"], uj["/Root/Skel"], atol=1e-6,
                                   err_msg=f"at {tc}")
    # The keys are audited whatever UsdSkel makes of them: key 2 of "b" is stored as -q.
    assert [(f.kind, f.keys) for r in kf.audit() for f in r.findings] == [("sign_flip", (1, 2))]
    if rotation_type == "quath":
        # usd-core's UsdSkel drops an animation whose rotations are not quatf[]: rest pose.
        assert {t.storage for t in kf.tracks} == {"half"} and kf.tracks[0].quantum > 0
        assert kf.scene.skeletons[0].ignored
        assert any("cannot evaluate this animation" in n for n in kf.scene.notes)
        np.testing.assert_allclose(ours[2][0]["/Root/Skel"], ours[0][0]["/Root/Skel"])
    else:
        assert not kf.scene.skeletons[0].ignored
        assert not np.allclose(ours[2][0]["/Root/Skel"], ours[0][0]["/Root/Skel"])
