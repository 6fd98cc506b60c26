"""The rig model against independent computations: world matrices, skinning, glTF interpolation.

Oracles are written here from the glTF 2.0 definitions (Appendix C for the
samplers, "Skins" for joint matrices) with scipy's Rotation and plain numpy;
the node graph and the rest transforms are read again with pygltflib, so the
rig's topological reordering is checked too.
"""

from __future__ import annotations

import base64
import dataclasses
import json
from pathlib import Path

import numpy as np
import pygltflib
import pytest
from oracles import rot_angle
from scipy.spatial.transform import Rotation

from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.track_audit import audit_file
from quatlab.app.model import rig as R
from quatlab.app.model import rig_players as P
from quatlab.app.model import skinning as S

DATA = Path(__file__).parent / "data" / "gltf"
ALL = ["Fox.glb", "CesiumMan.glb", "CesiumMilkTruck.glb", "RobotExpressive.glb",
       "InterpolationTest.glb", "RiggedFigure.gltf", "RiggedSimple.gltf", "BoxAnimated.gltf"]
SKINNED = ["Fox.glb", "CesiumMan.glb", "RobotExpressive.glb", "RiggedFigure.gltf",
           "RiggedSimple.gltf"]

_rigs: dict[str, R.Rig] = {}


def rig_of(name: str) -> R.Rig:
    if name not in _rigs:
        _rigs[name] = R.load_rig(DATA / name)
    return _rigs[name]


def gltf_doc(name: str) -> pygltflib.GLTF2:
    return pygltflib.GLTF2().load(str(DATA / name))


# --------------------------------------------------------------------------- world matrices


def local_oracle(node, t, r_wxyz, s, animated):
    if node.matrix is not None and not animated:
        return np.array(node.matrix, dtype=float).reshape(4, 4).T
    m = np.eye(4)
    rot = Rotation.from_quat([r_wxyz[1], r_wxyz[2], r_wxyz[3], r_wxyz[0]]).as_matrix()
    m[:3, :3] = rot @ np.diag(s)
    m[:3, 3] = t
    return m


@pytest.mark.parametrize("name", ALL)
def test_world_matrices_match_a_recursive_composition(name):
    rig = rig_of(name)
    doc = gltf_doc(name)
    parent = {c: p for p, n in enumerate(doc.nodes) for c in (n.children or [])}
    for anim in [None, *range(len(rig.animations))][:4]:
        a = None if anim is None else rig.animations[anim]
        times = [0.0] if a is None else np.linspace(a.start, a.end, 4)
        animated = set() if a is None else {c.node for c in a.channels}
        for time in times:
            pose = P.evaluate(rig, anim, time)
            memo = {}

            def world(g, pose=pose, memo=memo, animated=animated):
                if g not in memo:
                    i = rig.rig_index[g]
                    local = local_oracle(doc.nodes[g], pose.translation[i], pose.rotation[i],
                                         pose.scale[i], g in animated)
                    memo[g] = local if g not in parent else world(parent[g]) @ local
                return memo[g]

            for g in range(len(doc.nodes)):
                np.testing.assert_allclose(pose.world[rig.rig_index[g]], world(g),
                                           rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("name", ALL)
def test_rest_pose_and_parents_match_the_file(name):
    rig = rig_of(name)
    doc = gltf_doc(name)
    assert np.all(rig.parents < np.arange(len(rig)))  # topological order
    parent = {c: p for p, n in enumerate(doc.nodes) for c in (n.children or [])}
    for g, node in enumerate(doc.nodes):
        i = rig.rig_index[g]
        assert rig.gltf_index[i] == g
        assert rig.names[i] == node.name
        want = parent.get(g)
        assert (rig.parents[i] < 0) if want is None else (rig.gltf_index[rig.parents[i]] == want)
        if node.matrix is None:
            np.testing.assert_allclose(rig.rest_translation[i], node.translation or [0, 0, 0])
            np.testing.assert_allclose(rig.rest_scale[i], node.scale or [1, 1, 1])
            xyzw = node.rotation or [0, 0, 0, 1]
            assert rot_angle(rig.rest_rotation[i], [xyzw[3], *xyzw[:3]]) < 1e-7


# --------------------------------------------------------------------------- skinning


@pytest.mark.parametrize("name", SKINNED)
def test_bind_pose_skins_to_the_mesh_positions(name):
    rig = rig_of(name)
    pose = P.evaluate(rig)
    checked = 0
    for k, skin in enumerate(rig.skins):
        world = pose.world.copy()
        world[skin.joints] = np.linalg.inv(skin.inverse_bind)
        bind = dataclasses.replace(pose, world=world)
        for posed, inst in zip(S.skin_meshes(rig, bind), [m for m in rig.meshes
                                                          if rig.in_scene[m.node]], strict=True):
            if inst.skin != k:
                continue
            assert posed.skinned
            scale = np.abs(inst.positions).max()
            np.testing.assert_allclose(posed.vertices, inst.positions, atol=1e-9 * scale)
            checked += 1
    assert checked > 0


def _b64(*arrays) -> tuple[str, list[tuple[int, int]]]:
    blob, spans = b"", []
    for a in arrays:
        data = a.tobytes()
        spans.append((len(blob), len(data)))
        blob += data + b"\0" * (-len(data) % 4)
    return "data:application/octet-stream;base64," + base64.b64encode(blob).decode(), spans


def synthetic_skin(tmp_path: Path, weights) -> Path:
    """Two joints: j0 at the origin turned 90 deg about Z, j1 one unit along j0's +X, also
    turned 90 deg about Z. The skinned mesh's node sits at (5, 5, 5), which glTF ignores."""
    pos = np.array([[1, 1, 0], [0, 0, 0], [1, 0, 0]], dtype="<f4")
    joints = np.array([[0, 1, 0, 0]] * 3, dtype="<u1")
    w = np.array([weights] * 3, dtype="<f4")
    ibm = np.stack([np.eye(4), np.eye(4)]).astype("<f4")
    ibm[1, :3, 3] = [-1, 0, 0]  # inverse of the bind world T(1, 0, 0)
    ibm_colmajor = ibm.transpose(0, 2, 1).copy()
    uri, spans = _b64(pos, joints, w, ibm_colmajor)
    z90 = [0, 0, np.sqrt(0.5), np.sqrt(0.5)]
    doc = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 2]}],
        "nodes": [
            {"name": "j0", "rotation": z90, "children": [1]},
            {"name": "j1", "translation": [1, 0, 0], "rotation": z90},
            {"name": "skinned", "mesh": 0, "skin": 0, "translation": [5, 5, 5]},
        ],
        "skins": [{"joints": [0, 1], "inverseBindMatrices": 3}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1,
                                                   "WEIGHTS_0": 2}}]}],
        "buffers": [{"uri": uri, "byteLength": sum(spans[-1])}],
        "bufferViews": [{"buffer": 0, "byteOffset": o, "byteLength": n} for o, n in spans],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
             "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
            {"bufferView": 3, "componentType": 5126, "count": 2, "type": "MAT4"},
        ],
    }
    path = tmp_path / "two_joints.gltf"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize("weights", [[0.25, 0.75, 0, 0], [1.0, 3.0, 0, 0]])
def test_hand_computed_vertex_with_two_joints(tmp_path, weights):
    # v = (1, 1, 0). Joint 0: Rz90 v = (-1, 1, 0). Joint 1: world1 = Rz90 T(1,0,0) Rz90, so
    # world1 @ T(-1,0,0) v = Rz90 (T(1,0,0) (Rz90 (0, 1, 0))) = Rz90 (0, 0, 0) = 0.
    # 0.25 (-1, 1, 0) + 0.75 (0, 0, 0) = (-0.25, 0.25, 0); weights 1:3 normalize to the same.
    # The origin: joint 0 keeps it; joint 1 gives Rz90 (T(1,0,0) (Rz90 (-1, 0, 0))) = (1, 1, 0).
    rig = R.load_rig(synthetic_skin(tmp_path, weights))
    (posed,) = S.skin_meshes(rig, P.evaluate(rig))
    np.testing.assert_allclose(posed.vertices[0], [-0.25, 0.25, 0.0], atol=1e-7)
    np.testing.assert_allclose(posed.vertices[1], [0.75, 0.75, 0.0], atol=1e-7)
    bones = S.bones(rig, P.evaluate(rig))
    np.testing.assert_allclose(bones.positions, [[0, 0, 0], [0, 1, 0]], atol=1e-7)
    assert len(bones.segments) == 2  # j0 -> j1 and j1's stub
    lo, hi = S.scene_bounds(rig, P.evaluate(rig))
    np.testing.assert_allclose(lo, [-0.25, 0, 0], atol=1e-7)
    np.testing.assert_allclose(hi, [0.75, 1, 0], atol=1e-7)  # stub tips are not bounds


def test_rigid_meshes_use_their_node_world_matrix():
    rig = rig_of("CesiumMilkTruck.glb")
    pose = P.evaluate(rig, 0, 0.3)
    for posed, inst in zip(S.skin_meshes(rig, pose), rig.meshes, strict=True):
        w = pose.world[inst.node]
        want = (w @ np.c_[inst.positions, np.ones(len(inst.positions))].T).T[:, :3]
        np.testing.assert_allclose(posed.vertices, want, atol=1e-9)


# --------------------------------------------------------------------------- samplers


def channel(rig, anim_name):
    anim = next(a for a in rig.animations if a.name == anim_name)
    (ch,) = anim.channels
    return anim, ch, rig.rig_index[ch.node]


def segment(times, t):
    k = int(np.searchsorted(times, t, side="right")) - 1
    return k, times[k + 1] - times[k], (t - times[k]) / (times[k + 1] - times[k])


def appendix_c_slerp(a, b, u):
    d = float(np.dot(a, b))
    ang = np.arccos(abs(d))
    return (np.sin(ang * (1 - u)) * a + np.sign(d) * np.sin(ang * u) * b) / np.sin(ang)


def hermite(v0, b0, v1, a1, td, u):
    return ((2 * u**3 - 3 * u**2 + 1) * v0 + td * (u**3 - 2 * u**2 + u) * b0
            + (-2 * u**3 + 3 * u**2) * v1 + td * (u**3 - u**2) * a1)


@pytest.mark.parametrize("t", [0.2, 0.6, 1.1, 1.5])
def test_interpolation_test_rotation_samplers(t):
    rig = rig_of("InterpolationTest.glb")
    tracks = {tr.animation: tr for tr in load_keyframes(DATA / "InterpolationTest.glb").tracks}
    for name in ("Step Rotation", "Linear Rotation", "CubicSpline Rotation"):
        anim, ch, i = channel(rig, name)
        tr = tracks[name]
        v = tr.values / np.linalg.norm(tr.values, axis=1, keepdims=True)
        k, td, u = segment(tr.times, t)
        naive = None
        if tr.interpolation == "STEP":
            want = tr.values[k]
        elif tr.interpolation == "LINEAR":
            want = appendix_c_slerp(v[k], v[k + 1], u)
            # The naive runtime's NLERP: same hemisphere here, but NLERP's uneven speed.
            naive = (1 - u) * v[k] + u * v[k + 1]
            naive = naive / np.linalg.norm(naive)
            assert rot_angle(want, naive) > 1e-5
        else:
            want = hermite(tr.values[k], tr.out_tangents[k], tr.values[k + 1],
                           tr.in_tangents[k + 1], td, u)
            unscaled = hermite(tr.values[k], tr.out_tangents[k], tr.values[k + 1],
                               tr.in_tangents[k + 1], 1.0, u)
            assert rot_angle(want, unscaled) > 1e-3  # the test can tell the tangent scaling
            want = want / np.linalg.norm(want)
        np.testing.assert_allclose(P.evaluate(rig, anim, t).rotation[i], want, atol=1e-12)
        # STEP and CUBICSPLINE: the naive player is the spec player.
        np.testing.assert_allclose(P.evaluate(rig, anim, t, "naive").rotation[i],
                                   want if naive is None else naive, atol=1e-12)


@pytest.mark.parametrize("t", [0.2, 0.6, 1.1, 1.5])
def test_interpolation_test_vector_samplers(t):
    rig = rig_of("InterpolationTest.glb")
    for path in ("Scale", "Translation"):
        for mode in ("Step", "Linear", "CubicSpline"):
            anim, ch, i = channel(rig, f"{mode} {path}")
            k, td, u = segment(ch.times, t)
            v = ch.values
            if mode == "Step":
                want = v[k]
            elif mode == "Linear":
                want = (1 - u) * v[k] + u * v[k + 1]
            else:
                want = hermite(v[k], ch.out_tangents[k], v[k + 1], ch.in_tangents[k + 1], td, u)
            pose = P.evaluate(rig, anim, t)
            got = pose.scale[i] if path == "Scale" else pose.translation[i]
            np.testing.assert_allclose(got, want, atol=1e-12)


def test_times_clamp_and_step_switches_at_the_key():
    rig = rig_of("InterpolationTest.glb")
    anim, ch, i = channel(rig, "Step Translation")
    np.testing.assert_allclose(P.evaluate(rig, anim, -5.0).translation[i], ch.values[0])
    np.testing.assert_allclose(P.evaluate(rig, anim, 99.0).translation[i], ch.values[-1])
    np.testing.assert_allclose(P.evaluate(rig, anim, ch.times[2]).translation[i], ch.values[2])
    anim, ch, i = channel(rig, "CubicSpline Rotation")
    last = ch.values[-1] / np.linalg.norm(ch.values[-1])
    np.testing.assert_allclose(P.evaluate(rig, anim, 99.0).rotation[i], last, atol=1e-12)


# --------------------------------------------------------------------------- the two players


def flagged_segments(name):
    """(animation index, node index, segment) of every sign_flip the audit reports."""
    out = set()
    for report in audit_file(load_keyframes(DATA / name)):
        tr = report.track
        for f in report.findings:
            if f.kind == "sign_flip" and tr.interpolation == "LINEAR":
                out.add((tr.animation_index, tr.node_index, f.keys[0]))
    return out


def differing_segments(name):
    rig = rig_of(name)
    out = set()
    for anim in rig.animations:
        for ch in anim.channels:
            if ch.path != "rotation":
                continue
            i = rig.rig_index[ch.node]
            for k, mid in enumerate((ch.times[:-1] + ch.times[1:]) / 2):
                spec = P.evaluate(rig, anim, mid, "spec").rotation[i]
                naive = P.evaluate(rig, anim, mid, "naive").rotation[i]
                if np.degrees(rot_angle(spec, naive)) > 1e-6:
                    out.add((anim.index, ch.node, k))
    return out


@pytest.mark.parametrize("name, count", [("CesiumMilkTruck.glb", 2), ("RobotExpressive.glb", 15)])
def test_players_differ_exactly_in_the_segments_the_audit_flags(name, count):
    flagged = flagged_segments(name)
    assert len(flagged) == count
    assert differing_segments(name) == flagged
    if name == "CesiumMilkTruck.glb":
        assert {k for _, _, k in flagged} == {14}


def test_difference_angles_highlight_the_wheels_only():
    rig = rig_of("CesiumMilkTruck.glb")
    (anim,) = rig.animations
    ch = anim.channels[0]
    mid = (ch.times[14] + ch.times[15]) / 2
    d = P.difference_angles(P.evaluate(rig, anim, mid), P.evaluate(rig, anim, mid, "naive"))
    wheels = set(rig.rig_index[[c.node for c in anim.channels]].tolist())
    # Descendants of a wheel turn with it.
    moved = {i for i in range(len(rig)) if i in wheels or rig.parents[i] in wheels}
    assert set(np.flatnonzero(d > 1.0).tolist()) == moved
    assert np.all(d[[i for i in range(len(rig)) if i not in moved]] < 1e-9)
    # 11.7 deg one way vs 348.3 deg the other: the halves, 5.85 + 174.15, sum to 180 deg.
    np.testing.assert_allclose(d[sorted(wheels)], 180.0, atol=1e-6)
    np.testing.assert_allclose(P.difference_angles(P.evaluate(rig), P.evaluate(rig)), 0,
                               atol=1e-12)


def test_bones_and_bounds_on_a_skinned_file():
    rig = rig_of("CesiumMan.glb")
    pose = P.evaluate(rig, 0, 0.5)
    b = S.bones(rig, pose)
    assert len(b.joints) == 19 and b.axes.shape == (19, 3, 3)
    np.testing.assert_allclose(np.linalg.norm(b.axes, axis=2), 1.0)
    # 18 parent-to-child bones in the 19-joint tree, plus one stub per leaf joint.
    leaves = sum(1 for j in b.joints if not np.any(rig.parents[b.joints] == j))
    assert len(b.segments) == 18 + leaves
    meshes = S.skin_meshes(rig, pose)
    lo, hi = S.scene_bounds(rig, pose, meshes)
    pts = np.concatenate([m.vertices for m in meshes] + [b.positions])
    np.testing.assert_allclose(lo, pts.min(0))
    np.testing.assert_allclose(hi, pts.max(0))


@pytest.mark.parametrize("name", ["RobotExpressive.glb", "Fox.glb"])
def test_bone_segments_join_parent_to_child_and_stubs_continue_the_parent(name):
    # The layout is worked out once per rig; every pose gets its own geometry.
    rig = rig_of(name)
    joints = sorted({int(j) for sk in rig.skins for j in sk.joints})
    children = [j for j in joints if rig.parents[j] in joints]
    leaves = [j for j in joints if not any(rig.parents[k] == j for k in joints)]
    for t in (0.0, 0.37, 1.1):
        pose = P.evaluate(rig, 0, t)
        b = S.bones(rig, pose)
        pos = pose.world[:, :3, 3]
        assert b.ends.tolist() == children + leaves
        for (a, z), j in zip(b.segments[:len(children)], children, strict=True):
            np.testing.assert_array_equal(a, pos[rig.parents[j]])
            np.testing.assert_array_equal(z, pos[j])
        for (a, z), j in zip(b.segments[len(children):], leaves, strict=True):
            np.testing.assert_array_equal(a, pos[j])
            p = rig.parents[j]
            if p in joints and np.linalg.norm(pos[j] - pos[p]) > 0:
                np.testing.assert_allclose(z - a, 0.5 * (pos[j] - pos[p]), atol=1e-9)
            else:  # no parent bone: along the joint's local +Y
                y = pose.world[j, :3, 1]
                np.testing.assert_allclose(np.cross(z - a, y), 0, atol=1e-9)
                assert np.dot(z - a, y) > 0
