"""``quatlab compare`` on glTF and its USD conversions: what the shared pairs really differ by.

The pairs are the shared CesiumMan, RiggedSimple and RiggedFigure glTF files and
their USDZ conversions (tests/data/usd). Oracles, all computed here and not by
the compare: the keys of both files read side by side (CesiumMan's are the same
float32 numbers, bit for bit; only the times differ, glTF's float32 seconds
against USD's time codes over 24), scipy's ``Rotation`` for each joint's
largest angular speed between keys, and from those two a bound on how far
apart the two spec poses can be at the same clip time: speed x time shift.
The compare must find at most that, no departure, and every joint matched.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import report_schema
from scipy.spatial.transform import Rotation

pytest.importorskip("pxr")

from quatlab.app.commands.cli import main  # noqa: E402
from quatlab.app.io.keyframe_files import load_keyframes  # noqa: E402
from quatlab.app.model.rig_compare import compare_files  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
CESIUM_GLB = DATA / "gltf" / "CesiumMan.glb"
CESIUM_USDZ = DATA / "usd" / "CesiumMan.usdz"


def _scipy(q):
    return Rotation.from_quat(np.asarray(q)[..., [1, 2, 3, 0]])


def test_cesium_man_usdz_keeps_every_key_and_differs_only_by_float32_time():
    gltf, usd = load_keyframes(CESIUM_GLB), load_keyframes(CESIUM_USDZ)
    report = compare_files(CESIUM_GLB, CESIUM_USDZ)
    assert len(report.joints) == 19 and not report.unmatched_source
    assert not report.unmatched_converted
    assert report.introduced == 0 and not any(j.segments for j in report.joints)
    assert all(j.source == j.converted and j.offset == 0.0 for j in report.joints)
    assert report.source_clip["start"] == pytest.approx(1 / 24, abs=1e-6)
    assert report.converted_clip["end"] == report.source_clip["end"] == 2.0
    by_name = {t.node_name: t for t in usd.tracks}
    found = {j.source: j.max_spec for j in report.joints}
    assert set(found) == set(by_name)
    for g in gltf.tracks:
        u = by_name[g.node_name]
        # The conversion kept every key: the same float32 numbers, signs included.
        np.testing.assert_array_equal(u.values, g.values)
        # Times: glTF stores seconds as float32 (1/24 s is 0.04166662), USD frame numbers.
        np.testing.assert_array_equal(u.times * 24.0, np.arange(1, 49))
        shift = np.abs((g.times - g.times[0]) - (u.times - u.times[0])).max()
        assert 0.0 < shift < 4e-7
        r = _scipy(g.values)
        speed = np.degrees((r[:-1].inv() * r[1:]).magnitude() / np.diff(g.times)).max()
        # Same keys, clips aligned at their starts: the spec poses at one clip time are at
        # most the joint's top speed times the time shift apart (and not exactly equal).
        assert 0.0 < found[g.node_name] <= speed * shift * (1 + 1e-3) + 1e-9, g.node_name
    assert max(found.values()) == pytest.approx(1.76e-4, rel=0.01)     # leg_joint_R_2


def test_cesium_man_compare_on_the_command_line_both_ways(capsys):
    assert main(["compare", str(CESIUM_GLB), str(CESIUM_USDZ)]) == 0
    out = capsys.readouterr().out
    assert "19 joints matched" in out and "the conversion introduced no departure" in out
    # The USD file as the source: the same pairs, the same figures.
    assert main(["compare", str(CESIUM_USDZ), str(CESIUM_GLB), "--json"]) == 0
    doc = report_schema.compare_report(capsys.readouterr().out)
    assert doc["introduced"] == 0 and len(doc["joints"]) == 19
    assert doc["source_clip"]["name"] == "stage"
    assert max(j["max_spec_deg"] for j in doc["joints"]) < 2e-4


def test_rigged_figure_usdz_is_exactly_its_gltf():
    # Two keys per joint at 0 and 1.25 s, exact in float32 and as time codes: nothing differs.
    report = compare_files(DATA / "gltf" / "RiggedFigure.gltf", DATA / "usd" / "RiggedFigure.usdz")
    assert len(report.joints) == 19 and not report.unmatched_converted
    assert all(j.max_spec == 0.0 and not j.segments for j in report.joints)


def test_rigged_simple_joints_renamed_by_usd_and_keyed_only_there_are_compared(tmp_path):
    gltf_path, usd_path = DATA / "gltf" / "RiggedSimple.gltf", DATA / "usd" / "RiggedSimple.usdz"
    usd = load_keyframes(usd_path)
    # USD names cannot hold '.', the conversion wrote Bone.001 as Bone_001; it also keys
    # Bone, which the glTF leaves at its rest matrix.
    assert sorted(t.node_name for t in usd.tracks) == ["Bone", "Bone_001"]
    assert [t.node_name for t in load_keyframes(gltf_path).tracks] == ["Bone.001"]
    report = compare_files(gltf_path, usd_path)
    pairs = {j.source: j for j in report.joints}
    assert {(j.source, j.converted) for j in report.joints} == {("Bone.001", "Bone_001"),
                                                                ("Bone", "Bone")}
    assert not report.unmatched_source and not report.unmatched_converted
    assert report.introduced == 0 and all(j.max_spec < 1e-3 for j in report.joints)
    # A copy whose Bone rest matrix is turned 30 deg about its local x axis: the USD keys no
    # longer hold Bone's pose, and the compare says so as a constant offset of 30 deg.
    doc = json.loads(gltf_path.read_text())
    bone = next(n for n in doc["nodes"] if n["name"] == "Bone")
    m = np.array(bone["matrix"]).reshape(4, 4).T                  # glTF matrices: column major
    turn = np.eye(4)
    turn[:3, :3] = Rotation.from_euler("x", 30, degrees=True).as_matrix()
    bone["matrix"] = (m @ turn).T.reshape(-1).tolist()
    turned = tmp_path / "RiggedSimple.gltf"
    turned.write_text(json.dumps(doc))
    report = compare_files(turned, usd_path)
    joint = next(j for j in report.joints if j.source == "Bone")
    assert joint.max_spec == pytest.approx(30.0, abs=1e-3)
    assert joint.offset == pytest.approx(30.0, abs=1e-3) and joint.constant_offset
    assert next(j for j in report.joints if j.source == "Bone.001").max_spec < 1e-3
    assert pairs["Bone"].max_spec < 1e-3
