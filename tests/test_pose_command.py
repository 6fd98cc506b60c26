"""`quatlab pose` against an independent composition: pygltflib, scipy Rotation, matrix products.

The file is read again here with pygltflib and the accessors decoded by hand
(float data only, which is what CesiumMilkTruck stores); the spec player is
scipy's Slerp between the bracketing keys (a rotation, so the sign of the
stored keys cannot matter), the naive runtime the normalized component-wise
blend of the keys as stored.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pygltflib
import pytest
from scipy.spatial.transform import Rotation, Slerp

from quatlab.app.commands.cli import main

DATA = Path(__file__).parent / "data" / "gltf"
TRUCK = DATA / "CesiumMilkTruck.glb"
_COUNT = {"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def accessor(doc: pygltflib.GLTF2, index: int) -> np.ndarray:
    acc = doc.accessors[index]
    assert acc.componentType == 5126 and acc.sparse is None
    view = doc.bufferViews[acc.bufferView]
    n = _COUNT[acc.type]
    start = (view.byteOffset or 0) + (acc.byteOffset or 0)
    stride = view.byteStride or 4 * n
    blob = doc.binary_blob()
    rows = [np.frombuffer(blob, np.float32, n, start + i * stride) for i in range(acc.count)]
    return np.array(rows, dtype=float).reshape(acc.count, n)


def oracle_worlds(path: Path, anim: int, time: float, player: str) -> dict[int, np.ndarray]:
    doc = pygltflib.GLTF2().load(str(path))
    rotation = {}
    for ch in doc.animations[anim].channels:
        assert ch.target.path == "rotation"
        sampler = doc.animations[anim].samplers[ch.sampler]
        assert sampler.interpolation == "LINEAR"
        times = accessor(doc, sampler.input)[:, 0]
        keys = accessor(doc, sampler.output)  # x, y, z, w
        k = int(np.clip(np.searchsorted(times, time, side="right") - 1, 0, len(times) - 2))
        u = float(np.clip((time - times[k]) / (times[k + 1] - times[k]), 0, 1))
        if player == "spec":
            rot = Slerp(times[k:k + 2], Rotation.from_quat(keys[k:k + 2]))(
                times[k] + u * (times[k + 1] - times[k]))
        else:
            a, b = keys[k] / np.linalg.norm(keys[k]), keys[k + 1] / np.linalg.norm(keys[k + 1])
            rot = Rotation.from_quat((1 - u) * a + u * b)  # from_quat normalizes
        rotation[ch.target.node] = rot.as_matrix()
    parent = {c: p for p, n in enumerate(doc.nodes) for c in (n.children or [])}
    memo: dict[int, np.ndarray] = {}

    def world(g: int) -> np.ndarray:
        if g in memo:
            return memo[g]
        node = doc.nodes[g]
        if node.matrix is not None and g not in rotation:
            local = np.array(node.matrix, dtype=float).reshape(4, 4).T
        else:
            local = np.eye(4)
            r = rotation.get(g)
            if r is None:
                r = Rotation.from_quat(node.rotation or [0, 0, 0, 1]).as_matrix()
            local[:3, :3] = r @ np.diag(node.scale or [1, 1, 1])
            local[:3, 3] = node.translation or [0, 0, 0]
        memo[g] = local if g not in parent else world(parent[g]) @ local
        return memo[g]

    return {g: world(g) for g in range(len(doc.nodes))}


def pose_json(capsys, *args) -> dict:
    assert main(["pose", *map(str, args), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("player", ["spec", "naive"])
@pytest.mark.parametrize("time", [0.0, 0.3, 0.6042, 0.62, 1.25])
def test_world_matrices_match_an_independent_composition(capsys, player, time):
    report = pose_json(capsys, TRUCK, "--time", time, "--player", player)
    want = oracle_worlds(TRUCK, 0, time, player)
    assert [n["index"] for n in report["nodes"]] == sorted(want)
    for node in report["nodes"]:
        np.testing.assert_allclose(node["world"], want[node["index"]], atol=1e-6)


def test_the_players_part_on_the_flagged_keys_only(capsys):
    # Keys 14 and 15 of both wheels lie in opposite hemispheres (quatlab check).
    doc = pygltflib.GLTF2().load(str(TRUCK))
    times = accessor(doc, doc.animations[0].samplers[0].input)[:, 0]
    middle = 0.5 * (times[14] + times[15])

    def wheel_angle(time):
        spec = pose_json(capsys, TRUCK, "--time", time)
        naive = pose_json(capsys, TRUCK, "--time", time, "--player", "naive")
        rs, rn = (np.array(r["nodes"][0]["world"])[:3, :3] for r in (spec, naive))
        return np.degrees(Rotation.from_matrix(rs.T @ rn).magnitude())

    assert wheel_angle(middle) > 150  # the naive wheel swings back the long way
    assert wheel_angle(0.5 * (times[3] + times[4])) < 1  # elsewhere only NLERP's speed


def test_text_output_is_a_table_of_the_same_pose(capsys):
    report = pose_json(capsys, TRUCK, "--time", 0.6, "--player", "naive")
    assert main(["pose", str(TRUCK), "--time", "0.6", "--player", "naive"]) == 0
    text = capsys.readouterr().out
    head, *rows = text.splitlines()
    assert "Wheels" in head and "0.6 s" in head and "naive player" in head
    row = next(r for r in rows if r.startswith("Wheels (#0)"))
    numbers = [float(v) for v in row.split()[3:]]
    world = np.array(report["nodes"][0]["world"])
    np.testing.assert_allclose(numbers[:3], world[:3, 3], atol=1e-4)
    quat_xyzw = [*numbers[4:7], numbers[3]]
    rel = Rotation.from_quat(quat_xyzw).as_matrix().T @ world[:3, :3]
    assert np.degrees(Rotation.from_matrix(rel).magnitude()) < 0.01


def test_skin_joints_are_listed(capsys):
    report = pose_json(capsys, DATA / "CesiumMan.glb", "--time", 1.0)
    (skin,) = report["skins"]
    worlds = {n["index"]: np.array(n["world"]) for n in report["nodes"]}
    assert len(skin["joints"]) == 19
    for j in skin["joints"]:
        np.testing.assert_allclose(j["position"], worlds[j["node"]][:3, 3])


@pytest.mark.parametrize("args, words", [
    (["--animation", "Dance"], "no animation 'Dance'"),
    (["--animation", "7"], "no animation"),
    (["--time", "9"], "outside animation 'Wheels' [0, 1.25]"),
    (["--time", "nan"], "outside"),
])
def test_errors_are_one_line_naming_the_file(capsys, args, words):
    argv = ["pose", str(TRUCK), "--time", "0.5", *args]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(TRUCK) in err and words in err


def test_an_unreadable_file_exits_2(capsys, tmp_path):
    bad = tmp_path / "broken.glb"
    bad.write_bytes(b"glTF\x02\x00\x00\x00junk")
    assert main(["pose", str(bad), "--time", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(bad) in err
