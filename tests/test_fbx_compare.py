"""``quatlab compare`` (quatlab.app.model.rig_compare): a source against its conversion.

Oracles: a file against itself (nothing may differ), a copy whose keys were
negated here (the departures must sit exactly on the segments whose two keys
now disagree in sign), and a real FBX -> glTF chain (FBX2glTF 0.9.7, in
tests/data/fbx/converted) whose sign flips ``quatlab check`` finds in the
glTF and not in the FBX.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
import report_schema

from quatlab.app.commands.cli import main
from quatlab.app.io.bvh.keyframes import audit_keyframes
from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.tracks import KeyframeFileError
from quatlab.app.model.rig_compare import compare_files

DATA = Path(__file__).resolve().parent / "data"
KENNEY = DATA / "fbx" / "maya_kenney_character_7700_binary.fbx"
KENNEY_GLB = DATA / "fbx" / "converted" / "maya_kenney_character_7700_binary.fbx2gltf.glb"
CUBE = DATA / "fbx" / "maya_extrapolate_cube_7700_binary.fbx"
CUBE_GLB = DATA / "fbx" / "converted" / "maya_extrapolate_cube_7700_binary.fbx2gltf.glb"
CESIUM = DATA / "gltf" / "CesiumMan.glb"


@pytest.mark.parametrize("path", [KENNEY, CESIUM, DATA / "fbx" / "maya_dq_weights_7500_ascii.fbx"])
def test_a_file_against_itself_differs_nowhere(path, capsys):
    report = compare_files(path, path)
    assert report.joints and all(j.max_spec == 0.0 for j in report.joints)
    assert report.introduced == 0 and not report.unmatched_source
    assert all(s.cause == "source" for j in report.joints for s in j.segments)
    assert main(["compare", str(path), str(path)]) == 0
    assert "the conversion introduced no departure" in capsys.readouterr().out


def test_a_copy_with_negated_keys_departs_exactly_where_the_signs_now_disagree(tmp_path):
    kf = load_keyframes(CESIUM)

    negated = {8: [5, 6, 7], 11: [20], 12: [40]}
    tracks = []
    for i, t in enumerate(kf.tracks):
        values = t.values.copy()
        values[negated.get(i, [])] *= -1.0
        tracks.append(dataclasses.replace(t, values=values))
    copy = tmp_path / "negated.glb"
    kf.write_copy(copy, tracks)
    report = compare_files(CESIUM, copy)
    assert all(j.max_spec < 1e-5 for j in report.joints)       # same rotations: spec agrees
    got = {(j.source, s.converted_keys) for j in report.joints for s in j.segments}
    want = set()
    for i, keys in negated.items():
        t = kf.tracks[i]
        flipped = np.zeros(len(t), dtype=bool)
        flipped[keys] = True
        for k in np.flatnonzero(flipped[1:] != flipped[:-1]):
            # Identical keys stay the same rotation whatever the blend: nothing to see there.
            if abs(float(np.dot(t.values[k], t.values[k + 1]))) < 1.0 - 1e-12:
                want.add((t.node_name, (int(k), int(k) + 1)))
    assert len(want) == 6
    assert got == want
    assert {s.cause for j in report.joints for s in j.segments} == {"conversion"}
    assert report.introduced == len(want)


def test_the_real_fbx2gltf_chain_names_the_conversion_as_the_step_that_flips(capsys):
    report = compare_files(KENNEY, KENNEY_GLB)
    assert report.converted_clip["end"] < report.source_clip["end"]      # the bake is shorter
    assert report.overlap == pytest.approx(report.converted_clip["end"])
    found = {(j.source, s.converted_keys) for j in report.joints for s in j.segments}
    assert found and {s.cause for j in report.joints for s in j.segments} == {"conversion"}
    # Independently: the converted file's own audit has sign flips exactly there, the FBX none.
    glb = audit_keyframes(load_keyframes(KENNEY_GLB))
    flips = {(r.track.node_name, f.keys) for r in glb for f in r.findings
             if f.kind == "sign_flip"}
    assert found == flips and len(found) == 8          # every flip, each named
    fbx = audit_keyframes(load_keyframes(KENNEY))
    assert not [f for r in fbx for f in r.findings if f.kind in ("sign_flip", "frame_sign_flip")]
    assert all(j.max_spec < 5.0 for j in report.joints)
    assert main(["compare", str(KENNEY), str(KENNEY_GLB)]) == 1
    out = capsys.readouterr().out
    assert "a sign flip introduced by the conversion" in out and "LeftHeelRoll" in out


def test_a_lost_intended_turn_is_a_motion_departure(capsys):
    report = compare_files(CUBE, CUBE_GLB)
    (turn,) = report.turns
    assert turn.intended and turn.keys == (4, 5) and turn.turn > 180.0
    (joint,) = report.joints
    causes = {(s.cause, s.intended_turn) for s in joint.segments}
    assert ("motion", True) in causes
    assert main(["compare", str(CUBE), str(CUBE_GLB), "--json"]) == 1
    doc = report_schema.compare_report(capsys.readouterr().out)
    assert doc["long_turns"][0]["treated_as"] == "intended_turn" and doc["introduced"] >= 1


def test_a_mapping_matches_renamed_joints_and_reports_the_rest(tmp_path, capsys):
    mapping = tmp_path / "joints.csv"
    mapping.write_text("source,converted\nLeftHeelRoll,RightHeelRoll\n")
    report = compare_files(KENNEY, KENNEY_GLB, mapping=mapping)
    pair = next(j for j in report.joints if j.source == "LeftHeelRoll")
    assert pair.converted == "RightHeelRoll" and pair.max_spec > 5.0
    assert "RightHeelRoll" in report.unmatched_source
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b,c\n")
    assert main(["compare", str(KENNEY), str(KENNEY_GLB), "--map", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 1: expected two names" in err[0]


def test_unreadable_or_rigless_inputs_are_one_line(tmp_path, capsys):
    junk = tmp_path / "junk.fbx"
    junk.write_bytes(b"\x00" * 64)
    assert main(["compare", str(junk), str(KENNEY_GLB)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    csv = tmp_path / "t.csv"
    csv.write_text("time,w,x,y,z\n0,1,0,0,0\n1,1,0,0,0\n")
    with pytest.raises(KeyframeFileError):
        compare_files(csv, KENNEY_GLB)
