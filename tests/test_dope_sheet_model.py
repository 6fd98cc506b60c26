"""The dope sheet's data (app/model/dope_sheet.py): rows, marks and the walk's order. No display.

Oracles: ``quatlab check --json`` (the findings, their keys and times, as the
command line reports them), the glTF JSON read here with the standard
library (the node hierarchy), the BVH file's own HIERARCHY text, and orders
and filters written out from their definitions.
"""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path

import numpy as np
import pytest
from bvh_oracle import MOCAPBANK
from hypothesis import given, settings
from hypothesis import strategies as st

from quatlab.app.commands import cli
from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.tracks import FINDING_KINDS, Finding, Track
from quatlab.app.model.dope_sheet import DopeSheet, node_parents
from quatlab.app.model.finding_families import FAMILIES, FAMILY_OF, family_of, primary
from quatlab.app.model.keyframes_model import KeyframesModel

DATA = Path(__file__).resolve().parent / "data"
ROBOT = DATA / "gltf" / "RobotExpressive.glb"
FOX = DATA / "gltf" / "Fox.glb"


def check_json(path, capsys) -> dict:
    assert cli.main(["check", str(path), "--json"]) in (0, 1)
    return json.loads(capsys.readouterr().out)


def sheet_of(path) -> tuple[DopeSheet, KeyframesModel]:
    m = KeyframesModel()
    m.load(path)
    return DopeSheet(m.tracks, [m.findings(i) for i in range(len(m.tracks))],
                     node_parents(m.file)), m


def glb_nodes(path) -> list[dict]:
    """The ``nodes`` of a GLB's JSON chunk, read from the container's layout (glTF 2.0 spec)."""
    data = path.read_bytes()
    length, kind = struct.unpack_from("<I4s", data, 12)
    assert kind == b"JSON"
    return json.loads(data[20:20 + length])["nodes"]


# --------------------------------------------------------------------------- families


def test_every_kind_the_audit_reports_has_a_family_of_its_own():
    for kind in FINDING_KINDS:
        assert FAMILY_OF[kind] in FAMILIES and FAMILY_OF[kind] != "other", kind
    assert family_of("more") == "other" and family_of("a_kind_from_the_future") == "other"
    # The brief's six families, each named by the legend.
    assert {family_of(k) for k in FINDING_KINDS} == {
        "sign_flip", "half_turn", "euler_wrap", "euler_flip", "gimbal", "broken"}
    assert primary(["gimbal_lock", "euler_wrap"]) == "euler_wrap"
    assert primary([]) is None


# --------------------------------------------------------------------------- marks


def test_every_finding_of_quatlab_check_is_a_mark_at_its_time_and_joint(capsys):
    report = check_json(ROBOT, capsys)
    sheet, _m = sheet_of(ROBOT)
    want = sorted((t["animation_index"], t["node_index"], f["kind"], tuple(f["keys"]),
                   tuple(f["times"])) for t in report["tracks"] for f in t["findings"])
    assert len(want) == 15
    got = sorted((sheet.tracks[m.track].animation_index, sheet.tracks[m.track].node_index,
                  m.kind, m.keys, (m.t0, m.t1)) for m in sheet.marks)
    assert got == want
    # Each mark lives on its track's row, and that row names the joint the report names.
    for k, m in enumerate(sheet.marks):
        row = sheet.rows[sheet.row_of_track[m.track]]
        assert k in row.marks and row.label == sheet.tracks[m.track].node_name
        assert m.segment == m.keys[0] and m.t0 <= m.time <= m.t1


def test_the_walk_is_animation_by_animation_then_time_then_row(capsys):
    report = check_json(ROBOT, capsys)
    sheet, _m = sheet_of(ROBOT)
    row_of = {(sheet.tracks[r.track].animation_index, sheet.tracks[r.track].node_index): n
              for n, r in enumerate(sheet.rows) if r.track is not None}
    # The animations in file order; within one, the first key's time, then the row.
    want = sorted((t["animation_index"], f["times"][0],
                    row_of[t["animation_index"], t["node_index"]], t["node"])
                   for t in report["tracks"] for f in t["findings"])
    got = [(sheet.tracks[m.track].animation_index, m.t0, sheet.row_of_track[m.track],
            sheet.tracks[m.track].node_name) for m in sheet.marks]
    assert got == want
    # The Dance clip's first finding is the right lower arm's at 0.75 s, the head's later.
    assert got[0][3] == "LowerArm.R" and got[0][1] == pytest.approx(0.75)
    n = len(sheet.marks)
    assert [sheet.following(k) for k in range(n)] == [*range(1, n), 0]
    assert [sheet.preceding(k) for k in range(n)] == [n - 1, *range(n - 1)]


def test_the_walk_continues_from_a_time_when_no_finding_is_shown():
    sheet, _m = sheet_of(ROBOT)
    head = next(i for i, t in enumerate(sheet.tracks)
                if t.animation == "Dance" and t.node_name == "Head")
    # At 2.0 s in the Dance clip: the next finding is the head's at 2.125 s, the one
    # before it the left lower arm's at 1.75 s.
    after = sheet.marks[sheet.following(None, track=head, time=2.0)]
    before = sheet.marks[sheet.preceding(None, track=head, time=2.0)]
    assert (sheet.tracks[after.track].node_name, after.t0) == ("Head", 2.125)
    assert (sheet.tracks[before.track].node_name, before.t0) == ("LowerArm.L", 1.75)
    # Past the last finding of the file, the walk starts again at the first.
    last_clip = max(i for i, t in enumerate(sheet.tracks))
    assert sheet.following(None, track=last_clip, time=1e9) == 0
    assert sheet.following(None) == 0 and sheet.preceding(None) == len(sheet.marks) - 1


# --------------------------------------------------------------------------- rows


def test_rows_follow_the_rigs_hierarchy_within_each_animation():
    sheet, _m = sheet_of(ROBOT)
    nodes = glb_nodes(ROBOT)
    parent = {c: p for p, node in enumerate(nodes) for c in node.get("children", [])}

    def ancestors(n):
        while n in parent:
            n = parent[n]
            yield n

    assert sheet.grouped and len(sheet.group_labels) == 14
    assert sheet.track_rows == len(sheet.tracks) == 147
    for r, row in enumerate(sheet.rows):
        if row.track is None:
            assert row.parent is None and row.depth == 0
            continue
        track = sheet.tracks[row.track]
        up = sheet.rows[row.parent]
        assert up.group == row.group
        if up.track is None:
            continue  # a root joint of the animation, under the animation's row
        # The parent row is the nearest ancestor node that the same animation animates.
        mine = {sheet.tracks[x.track].node_index for x in sheet.rows
                if x.track is not None and x.group == row.group}
        nearest = next(a for a in ancestors(track.node_index) if a in mine)
        assert sheet.tracks[up.track].node_index == nearest
        assert row.depth == up.depth + 1 and r in up.children


def test_a_bvh_skeleton_nests_and_draws_its_euler_findings_in_a_lane_of_their_own():
    sheet, _m = sheet_of(MOCAPBANK)
    assert not sheet.grouped  # one motion: no animation rows
    names = {sheet.rows[r].label: r for r in range(len(sheet.rows))}
    # From the file's HIERARCHY: LeftKnee is LeftHip's child, LeftHip Hips'.
    assert sheet.rows[names["LeftKnee"]].parent == names["LeftHip"]
    assert sheet.rows[names["LeftHip"]].parent == names["Hips"]
    kinds = {m.kind for m in sheet.marks}
    assert {"sign_flip", "euler_wrap", "euler_flip", "gimbal_lock"} <= kinds
    assert sheet.two_lanes
    gimbal = next(m for m in sheet.marks if m.kind == "gimbal_lock")
    assert gimbal.key_mark and gimbal.t0 == gimbal.t1
    wrap = next(m for m in sheet.marks if m.kind == "euler_wrap")
    assert not wrap.key_mark and wrap.t1 > wrap.t0


def test_tracks_without_a_hierarchy_are_listed_flat_in_file_order(tmp_path):
    path = tmp_path / "two.json"
    path.write_text(json.dumps({"order": "wxyz", "tracks": [
        {"name": name, "times": [0, 1, 2], "values": [[1, 0, 0, 0], [0, 1, 0, 0], [-1, 0, 0, 0]]}
        for name in ("b", "a")]}))
    kf = load_keyframes(path)
    assert node_parents(kf) == {}
    m = KeyframesModel()
    m.load(path)
    sheet = DopeSheet(m.tracks, [m.findings(i) for i in range(2)], node_parents(m.file))
    assert [(r.track, r.depth, r.parent) for r in sheet.rows] == [(0, 0, None), (1, 0, None)]


def test_a_parent_cycle_or_a_broken_hook_never_loses_a_row():
    q = [[1, 0, 0, 0]] * 2
    tracks = [Track([0, 1], q, node_index=n) for n in range(3)]
    sheet = DopeSheet(tracks, [()] * 3, parents={0: 1, 1: 0, 2: 2})
    assert sorted(r.track for r in sheet.rows) == [0, 1, 2]

    class Broken:
        def node_parents(self):
            raise RuntimeError("no")

    assert node_parents(Broken()) == {} and node_parents(object()) == {}


def test_the_filter_keeps_matches_and_their_ancestors_and_only_findings_keeps_flagged_rows(
        capsys):
    report = check_json(ROBOT, capsys)
    sheet, _m = sheet_of(ROBOT)
    shown = sheet.visible("arm.l")
    matched = [r for r, context in shown if not context and sheet.rows[r].track is not None]
    assert matched and all("arm.l" in sheet.rows[r].label.lower() for r in matched)
    # Every joint whose name matches is there, in every animation.
    assert len(matched) == sum(1 for t in sheet.tracks if "arm.l" in t.node_name.lower())
    for r, context in shown:  # the others are there only as the way up to a match
        if context:
            assert any(sheet.rows[c].parent == r for c, _ctx in shown)
    flagged = {(t["animation_index"], t["node_index"]) for t in report["tracks"]
               if t["findings"]}
    only = [r for r, context in sheet.visible(only_findings=True)
            if not context and sheet.rows[r].track is not None]
    assert {(sheet.tracks[sheet.rows[r].track].animation_index,
             sheet.tracks[sheet.rows[r].track].node_index) for r in only} == flagged
    assert sheet.flagged_rows == len(flagged) == 7
    # The animation's name filters too: all of the Wave clip's joints.
    wave = [r for r, c in sheet.visible("wave") if sheet.rows[r].track is not None]
    assert len(wave) == sum(1 for t in sheet.tracks if t.animation == "Wave") == 16


def test_fox_has_sixty_rows_in_three_animations():
    sheet, _m = sheet_of(FOX)
    assert sheet.track_rows == 60 and len(sheet.group_labels) == 3 and not sheet.marks
    assert len(sheet.visible()) == 63


def test_group_and_file_spans_cover_their_tracks():
    sheet, _m = sheet_of(ROBOT)
    for row in sheet.rows:
        if row.track is None:
            under = [sheet.rows[c] for c in range(len(sheet.rows))
                     if sheet.rows[c].group == row.group and sheet.rows[c].track is not None]
            assert row.start == min(u.start for u in under)
            assert row.end == max(u.end for u in under)
    times = np.concatenate([t.times for t in sheet.tracks])
    assert (sheet.start, sheet.end) == (times.min(), times.max())


def test_summary_rows_gather_the_marks_under_them():
    q = [[1, 0, 0, 0], [-1, 0, 0, 0], [1, 0, 0, 0]]
    tracks = [Track([0, 1, 2], q, node_index=n, animation="A", animation_index=0)
              for n in range(2)]
    tracks.append(Track([0, 1, 2], q, node_index=0, animation="B", animation_index=1))
    flips = (Finding("sign_flip", (0, 1), ""), Finding("sign_flip", (1, 2), ""))
    sheet = DopeSheet(tracks, [flips] * 3, parents={1: 0})
    group_a = 0
    assert sheet.rows[group_a].track is None and sheet.rows[group_a].label == "A"
    assert len(sheet.subtree_marks(group_a)) == 4
    hip = sheet.row_of_track[0]
    assert sheet.rows[sheet.row_of_track[1]].parent == hip
    assert len(sheet.subtree_marks(hip)) == 4 and len(sheet.rows[hip].marks) == 2
    assert sheet.mark_of(1, 1) is not None and sheet.mark_of(1, 5) is None


def test_findings_outside_the_track_and_non_finite_times_do_not_break_the_sheet():
    tracks = [Track([0.0, math.nan, 2.0], [[1, 0, 0, 0]] * 3, node_index=0)]
    findings = [(Finding("time_order", (0, 1), ""), Finding("zero", (7,), ""))]
    sheet = DopeSheet(tracks, findings)
    assert len(sheet.marks) == 1 and math.isnan(sheet.marks[0].t1)
    assert sheet.start == 0.0 and sheet.end == 2.0


# --------------------------------------------------------------------------- properties


@st.composite
def random_files(draw):
    """Tracks of a few animations and nodes with findings at random keys, and a random forest."""
    n_tracks = draw(st.integers(1, 8))
    tracks, findings = [], []
    for _ in range(n_tracks):
        keys = draw(st.integers(2, 6))
        start = draw(st.sampled_from([0.0, 0.5]))
        times = start + np.arange(keys) / draw(st.sampled_from([2.0, 3.0]))
        anim = draw(st.integers(0, 2))
        tracks.append(Track(times, [[1, 0, 0, 0]] * keys, animation_index=anim,
                            node_index=draw(st.integers(0, 5))))
        found = []
        for k in draw(st.lists(st.integers(0, keys - 2), max_size=3)):
            kind = draw(st.sampled_from(["sign_flip", "euler_wrap", "gimbal_lock", "zero"]))
            found.append(Finding(kind, (k,) if kind in ("gimbal_lock", "zero") else (k, k + 1),
                                 ""))
        findings.append(tuple(found))
    parents = {c: draw(st.integers(0, 5)) for c in range(6) if draw(st.booleans())}
    return tracks, findings, parents


@settings(max_examples=60)
@given(random_files())
def test_the_walk_visits_every_finding_once_in_order_and_back(case):
    tracks, findings, parents = case
    sheet = DopeSheet(tracks, findings, parents)
    assert len(sheet.marks) == sum(len(f) for f in findings)
    # Every track has exactly one row, whatever cycles the forest has.
    assert sorted(r.track for r in sheet.rows if r.track is not None) == list(range(len(tracks)))
    n = len(sheet.marks)
    if not n:
        assert sheet.following(None) is None
        return
    seen, k = [], sheet.following(None)
    for _ in range(n):
        seen.append(k)
        k = sheet.following(k)
    assert sorted(seen) == list(range(n)) and k == seen[0]
    assert all(sheet.preceding(sheet.following(j)) == j for j in range(n))
    # The order: the animation's group, then time, then the row, never going back.
    keys = [(sheet.rows[sheet.row_of_track[m.track]].group, m.t0,
             sheet.row_of_track[m.track]) for m in sheet.marks]
    assert keys == sorted(keys)
    # A walk from a time lands on the first mark at or after it in that animation (or wraps).
    for j, m in enumerate(sheet.marks):
        before = m.t0 - 1e-9
        got = sheet.following(None, track=m.track, time=before)
        assert keys[got] >= (keys[j][0], before, sheet.row_of_track[m.track]) or got == 0
