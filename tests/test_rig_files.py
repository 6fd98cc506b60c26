"""Reading glTF scene graphs for the rig: bad files refused with one-line errors, notes for
what is skipped, accessors decoded once, ``pose_report`` output and errors, no Qt imported.

Bad files are small documents written here; each test breaks one thing.
"""

from __future__ import annotations

import base64
import copy
import json
from pathlib import Path

import numpy as np
import pytest

from quatlab.app.io.gltf import scene as S
from quatlab.app.io.tracks import KeyframeFileError
from quatlab.app.model import pose_report as PR
from quatlab.app.model import rig as R
from quatlab.app.model import rig_players as P
from quatlab.app.model import skinning as SK

DATA = Path(__file__).parent / "data" / "gltf"
ROOT = Path(__file__).resolve().parents[1]


def _buffer(*arrays):
    blob, views = b"", []
    for a in arrays:
        data = np.ascontiguousarray(a).tobytes()
        views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(data)})
        blob += data + b"\0" * (-len(data) % 4)
    uri = "data:application/octet-stream;base64," + base64.b64encode(blob).decode()
    return [{"uri": uri, "byteLength": len(blob)}], views


def base_doc() -> dict:
    """Root -> child, a triangle mesh on the root, one translation animation on the child."""
    pos = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype="<f4")
    idx = np.array([0, 1, 2], dtype="<u2")
    times = np.array([0.0, 1.0], dtype="<f4")
    moves = np.array([[0, 0, 0], [0, 2, 0]], dtype="<f4")
    buffers, views = _buffer(pos, idx, times, moves)
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "root", "children": [1], "mesh": 0}, {"name": "child"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "animations": [{"name": "move", "samplers": [{"input": 2, "output": 3}],
                        "channels": [{"sampler": 0, "target": {"node": 1,
                                                               "path": "translation"}}]}],
        "buffers": buffers, "bufferViews": views,
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
             "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"},
            {"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR",
             "min": [0], "max": [1]},
            {"bufferView": 3, "componentType": 5126, "count": 2, "type": "VEC3"},
        ],
    }


def write(tmp_path: Path, doc: dict, name: str = "case.gltf") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def one_line_error(path: Path, fn=S.load_scene, *args) -> str:
    with pytest.raises(KeyframeFileError) as info:
        fn(path, *args)
    text = str(info.value)
    assert "\n" not in text and text.startswith(str(path) + ": ")
    return info.value.problem


def test_the_base_document_loads(tmp_path):
    rig = R.load_rig(write(tmp_path, base_doc()))
    pose = P.evaluate(rig, "move", 0.5)
    np.testing.assert_allclose(pose.world[1, :3, 3], [0, 1, 0])
    (mesh,) = SK.skin_meshes(rig, pose)
    assert mesh.triangles.tolist() == [[0, 1, 2]]


def break_doc(edit):
    doc = base_doc()
    edit(doc)
    return doc


BAD = {
    "cycle": (lambda d: d["nodes"][1].update(children=[0]), "cycle"),
    "two parents": (lambda d: d["nodes"].append({"children": [1]}), "not a tree"),
    "own child": (lambda d: d["nodes"][1].update(children=[1]), "child of itself"),
    "child out of range": (lambda d: d["nodes"][1].update(children=[7]), "out of range"),
    "scene lists a child": (lambda d: d["scenes"][0].update(nodes=[0, 1]), "not a root"),
    "bad matrix": (lambda d: d["nodes"][1].update(matrix=[1, 0, 0]), "16 finite numbers"),
    "index out of range": (
        lambda d: d["accessors"][0].update(count=2, max=[1, 0, 0]), "out of range"),
    "not triangles": (lambda d: d["accessors"][1].update(count=2), "whole number"),
    "skin joint out of range": (
        lambda d: d.update(skins=[{"joints": [0, 9]}]), "out of range"),
    "times not float": (
        lambda d: d["animations"][0]["samplers"][0].update(input=1), "expected float"),
    "unknown path": (
        lambda d: d["animations"][0]["channels"][0]["target"].update(path="colour"),
        "not a glTF path"),
    "wrong output count": (
        lambda d: d["animations"][0]["samplers"][0].update(interpolation="CUBICSPLINE"),
        "needs 6 output elements"),
    "sampler out of range": (
        lambda d: d["animations"][0]["channels"][0].update(sampler=3), "out of range"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_documents_are_refused_in_one_line(tmp_path, case):
    edit, words = BAD[case]
    problem = one_line_error(write(tmp_path, break_doc(edit)))
    assert words in problem


def test_times_must_increase(tmp_path):
    doc = base_doc()
    times = np.array([1.0, 0.5], dtype="<f4")
    blob = base64.b64decode(doc["buffers"][0]["uri"].split(",")[1])
    start = doc["bufferViews"][2]["byteOffset"]
    blob = blob[:start] + times.tobytes() + blob[start + 8:]
    doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + \
        base64.b64encode(blob).decode()
    assert "strictly increasing" in one_line_error(write(tmp_path, doc))


def test_zero_rotation_keys_are_refused(tmp_path):
    doc = base_doc()
    keys = np.array([[0, 0, 0, 1], [0, 0, 0, 0]], dtype="<f4")  # (x, y, z, w)
    extra, views = _buffer(keys)
    doc["buffers"].append(extra[0])
    views[0]["buffer"] = 1
    doc["bufferViews"] += views
    doc["accessors"].append({"bufferView": len(doc["bufferViews"]) - 1, "componentType": 5126,
                             "count": 2, "type": "VEC4"})
    doc["animations"][0]["samplers"].append({"input": 2, "output": 4})
    doc["animations"][0]["channels"].append({"sampler": 1, "target": {"node": 1,
                                                                      "path": "rotation"}})
    assert "rotation key 1 has zero length" in one_line_error(write(tmp_path, doc))


def test_joints_beyond_the_skin_are_refused(tmp_path):
    doc = base_doc()
    joints = np.array([[0, 0, 0, 0], [1, 0, 0, 0], [2, 0, 0, 0]], dtype="<u1")
    weights = np.tile(np.array([1, 0, 0, 0], dtype="<f4"), (3, 1))
    extra, views = _buffer(joints, weights)
    doc["buffers"].append(extra[0])
    for v in views:
        v["buffer"] = 1
    n = len(doc["bufferViews"])
    doc["bufferViews"] += views
    doc["accessors"] += [
        {"bufferView": n, "componentType": 5121, "count": 3, "type": "VEC4"},
        {"bufferView": n + 1, "componentType": 5126, "count": 3, "type": "VEC4"},
    ]
    doc["meshes"][0]["primitives"][0]["attributes"].update(JOINTS_0=4, WEIGHTS_0=5)
    doc["skins"] = [{"joints": [0, 1]}]
    doc["nodes"][0]["skin"] = 0
    assert "uses joint 2" in one_line_error(write(tmp_path, doc), R.load_rig)


def test_unreadable_files(tmp_path):
    assert "cannot read" in one_line_error(tmp_path / "missing.glb")
    (tmp_path / "fake.glb").write_bytes(b"not a glb at all")
    assert "not a GLB" in one_line_error(tmp_path / "fake.glb")
    (tmp_path / "junk.gltf").write_text("{")
    assert "does not parse" in one_line_error(tmp_path / "junk.gltf")


def test_skipped_parts_leave_notes(tmp_path):
    doc = base_doc()
    doc["meshes"][0]["primitives"].append(copy.deepcopy(doc["meshes"][0]["primitives"][0]))
    doc["meshes"][0]["primitives"][1]["mode"] = 1  # LINES
    scene = S.load_scene(write(tmp_path, doc))
    assert len(scene.meshes[0].primitives) == 1
    assert any("mode 1 skipped" in n for n in scene.notes)
    robot = S.load_scene(DATA / "RobotExpressive.glb")
    assert sum("weights channel" in n for n in robot.notes) == 14


def test_each_accessor_is_decoded_once():
    scene = S.load_scene(DATA / "RobotExpressive.glb")
    by_input: dict[int, set[int]] = {}
    by_output: dict[int, np.ndarray] = {}
    for anim in scene.animations:
        for ch in anim.channels:
            by_input.setdefault(ch.input, set()).add(id(ch.times))
            assert not ch.times.flags.writeable and not ch.values.flags.writeable
            first = by_output.setdefault(ch.output, ch.values)
            assert first is ch.values or np.shares_memory(first, ch.values)
    assert all(len(ids) == 1 for ids in by_input.values())  # the same array object
    assert sum(len(a.channels) for a in scene.animations) > len(by_input)  # some are shared


# --------------------------------------------------------------------------- pose_report


def test_pose_report_is_json_and_matches_evaluate():
    path = DATA / "Fox.glb"
    report = json.loads(json.dumps(PR.pose_report(path, "Walk", 0.25, "naive")))
    assert report["animation"]["name"] == "Walk" and report["player"] == "naive"
    rig = R.load_rig(path)
    pose = P.evaluate(rig, "Walk", 0.25, "naive")
    assert [n["index"] for n in report["nodes"]] == list(range(len(rig)))
    for node in report["nodes"]:
        world = np.array(node["world"])
        np.testing.assert_allclose(world, pose.world[rig.rig_index[node["index"]]])
        np.testing.assert_allclose(world[3], [0, 0, 0, 1])  # row-major: the last row
    (skin,) = report["skins"]
    assert len(skin["joints"]) == 24
    for j in skin["joints"]:
        np.testing.assert_allclose(j["position"], np.array(report["nodes"][j["node"]]["world"])
                                   [:3, 3])
    assert PR.pose_report(path)["animation"]["index"] == 0
    assert PR.pose_report(path, 2, 0.0)["animation"]["name"] == "Run"


@pytest.mark.parametrize("args, words", [
    (("Gallop", 0.0), "no animation 'Gallop'"),
    ((7, 0.0), "no animation 7"),
    (("Walk", 5.0), "outside animation 'Walk'"),
    (("Walk", -0.1), "outside animation 'Walk'"),
    (("Walk", 0.0, "fast"), "player must be one of"),
])
def test_pose_report_errors(args, words):
    assert words in one_line_error(DATA / "Fox.glb", PR.pose_report, *args)


def test_evaluate_arguments():
    rig = R.load_rig(DATA / "Fox.glb")
    assert P.evaluate(rig, np.int64(2), 0.1).animation == 2
    assert P.evaluate(rig, "1", 0.1).animation == 1  # a command line's index
    with pytest.raises(ValueError, match="player must be one of"):
        P.evaluate(rig, 0, 0.0, player="fast")
    with pytest.raises(KeyframeFileError, match="no animation True"):
        P.evaluate(rig, True, 0.0)


def test_pose_report_of_an_unreadable_file(tmp_path):
    assert "cannot read" in one_line_error(tmp_path / "gone.glb", PR.pose_report)


# The no-Qt import check and the doctests of the rig modules run in tests/test_layering.py.
