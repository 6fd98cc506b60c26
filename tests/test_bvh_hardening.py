"""Hostile and odd BVH files: one-line errors, no changed frames, notes where a user should look.

docs/formats.md, "BVH": an extra ``}`` or an absurd angle is one line
(exit 2); a rotation channel listed twice in a row, joints sharing a name,
two ROOTs or a NUL in a name are read, with one note each in ``check``'s
output and JSON.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import report_schema

from quatlab.app.commands.cli import main
from quatlab.app.io import bvh as B
from quatlab.app.io import keyframe_files as KF


def bvh_text(joints=(("ROOT", "Hips", "Zrotation Xrotation Yrotation"),), rows=("10 20 30",),
             extra="") -> bytes:
    """A flat hierarchy: each (kind, name, channels) closes before the next (two ROOTs allowed)."""
    lines = ["HIERARCHY"]
    for kind, name, chans in joints:
        lines += [f"{kind} {name}", "{", "  OFFSET 0 0 0",
                  f"  CHANNELS {len(chans.split())} {chans}", "}"]
    lines += [extra, "MOTION", f"Frames: {len(rows)}", "Frame Time: 0.04", *rows]
    return ("\n".join(line for line in lines if line) + "\n").encode()


def _run(capsys, argv):
    status = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def test_an_extra_closing_brace_is_one_line(tmp_path, capsys):
    path = tmp_path / "brace.bvh"
    path.write_bytes(bvh_text(extra="}"))            # IndexError: pop from empty list before
    with pytest.raises(B.BvhError, match=r"line 7: unexpected '}': no joint is open here"):
        B.read_bvh(path)
    for argv in (["check", str(path)], ["check", "--json", str(path)],
                 ["fix", str(path), str(tmp_path / "o.bvh")]):
        status, out, err = _run(capsys, argv)
        assert status == 2 and out == ""
        assert err == (f"quatlab {argv[0]}: error: {path}: line 7: unexpected '}}': no joint is "
                       "open here\n")


@pytest.mark.parametrize("value", ["1e308", "-1e308", "1.5e12", "-2000000000000"])
def test_absurd_angles_are_refused_in_one_line(tmp_path, capsys, value):
    path = tmp_path / "huge.bvh"
    path.write_bytes(bvh_text(rows=("10 20 30", f"10 {value} 30", "10 20 30")))
    for argv in (["check", str(path)], ["fix", str(path), str(tmp_path / "o.bvh")]):
        with warnings.catch_warnings():
            warnings.simplefilter("error")            # numpy overflow warnings before
            status, out, err = _run(capsys, argv)
        assert status == 2 and out == ""
        assert err.startswith(f"quatlab {argv[0]}: error: {path}: line 11: value 2 ('Hips' "
                              "Xrotation) is ") and "beyond +-1e+12" in err, err
        assert len(err.splitlines()) == 1
    assert not (tmp_path / "o.bvh").exists()


def test_large_but_plausible_angles_are_read_and_filtered_exactly(tmp_path, capsys):
    # 1e6 deg (2,778 turns) is far from the limit: read, and the filter moves
    # only the wrapped frame, by whole turns (the rotations stay the same).
    path = tmp_path / "big.bvh"
    path.write_bytes(bvh_text(rows=("1000000 20 30", "1000170 20 30", "999810 20 30")))
    assert main(["fix", str(path), str(tmp_path / "o.bvh")]) == 0
    capsys.readouterr()
    out = B.read_bvh(tmp_path / "o.bvh").motion
    assert out[:2].tolist() == [[1e6, 20, 30], [1000170, 20, 30]]
    assert out[2].tolist() == [999810 + 360, 20, 30]


def test_a_filter_that_would_pass_the_limit_writes_nothing(tmp_path, capsys):
    # Read (just under the limit), but unwrapping frame 1 would carry it past:
    # the copy would not read back, so fix refuses before writing.
    path = tmp_path / "edge.bvh"
    path.write_bytes(bvh_text(rows=("999999999900 0 0", "-10 0 0")))
    status, out, err = _run(capsys, ["fix", str(path), str(tmp_path / "o.bvh")])
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"quatlab fix: error: {path}: line 11: the Euler filter would move "
                          "'Hips' Zrotation from -10 to 1e+12 degrees"), err
    assert not (tmp_path / "o.bvh").exists()
    assert main(["check", str(path)]) == 1       # the file itself reads


def test_positions_far_away_do_not_touch_rotations(tmp_path, capsys):
    # A huge position is no angle: read, and fix leaves every other value alone.
    path = tmp_path / "pos.bvh"
    path.write_bytes(bvh_text(joints=(("ROOT", "Hips", "Xposition Zrotation"),),
                              rows=("1e308 10", "-1e308 20", "5 30")))
    assert main(["fix", str(path), str(tmp_path / "o.bvh")]) == 0
    capsys.readouterr()
    assert (tmp_path / "o.bvh").read_bytes() == path.read_bytes()


NOTES = {
    "triple": (bvh_text(joints=(("ROOT", "Hips", "Zrotation Zrotation Zrotation"),)),
               "line 2: joint 'Hips' lists Zrotation twice in a row (Zrotation Zrotation "
               "Zrotation): the rotations about one axis add up, which exporters do not write; "
               "QuatLab reads them in turn"),
    "names": (bvh_text(joints=(("ROOT", "Hips", "Zrotation"), ("ROOT", "Hips", "Zrotation")),
                       rows=("1 2",)),
              "2 joints are named 'Hips' (lines 2, 7): tools that find joints by name pick one "
              "of them"),
    "roots": (bvh_text(joints=(("ROOT", "A", "Zrotation"), ("ROOT", "B", "Zrotation")),
                       rows=("1 2",)),
              "the file has 2 ROOT joints (lines 2, 7): most tools read only the first skeleton"),
    "nul": (bvh_text(joints=(("ROOT", "Hi\0ps", "Zrotation"),), rows=("1",)),
            "line 2: the joint name 'Hi\\x00ps' contains a control character (\\x00): tools "
            "written in C may cut the name there"),
}


@pytest.mark.parametrize("case", sorted(NOTES))
def test_odd_hierarchies_are_read_with_a_note(tmp_path, capsys, case):
    data, note = NOTES[case]
    path = tmp_path / "odd.bvh"
    path.write_bytes(data)
    assert note in KF.load_keyframes(path).notes
    status, out, _err = _run(capsys, ["check", str(path)])
    assert status in (0, 1) and f"  note: {note}" in out.splitlines()
    status, out, _err = _run(capsys, ["check", "--json", str(path)])
    assert note in report_schema.file_report(out)["notes"]


def test_notes_of_one_kind_are_capped(tmp_path):
    joints = tuple(("ROOT" if j == 0 else "ROOT", f"J{j % 2}", "Zrotation") for j in range(40))
    path = tmp_path / "many.bvh"
    path.write_bytes(bvh_text(joints=joints, rows=(" ".join(["1"] * 40),)))
    notes = KF.load_keyframes(path).notes
    assert len([n for n in notes if "joints are named" in n]) == 2
    roots = [n for n in notes if "ROOT joints" in n]
    assert roots == ["the file has 40 ROOT joints (lines 2, 7, 12, 17, 22, 27, 32, 37 ...): most "
                     "tools read only the first skeleton"]


def test_a_plain_file_has_no_notes(tmp_path):
    path = tmp_path / "plain.bvh"
    path.write_bytes(bvh_text())
    assert KF.load_keyframes(path).notes == ()


def test_channel_starts_are_computed_once():
    # Asked for per joint; recomputed on every call it made J joints cost J**2.
    b = B.parse_bvh(bvh_text(joints=(("ROOT", "A", "Xposition Zrotation"),
                                     ("ROOT", "B", "Zrotation Xrotation"))) .replace(
        b"10 20 30", b"1 2 3 4"), "two.bvh")
    assert b.channel_start is b.channel_start
    assert b.channel_start.tolist() == [0, 2] and not b.channel_start.flags.writeable
    assert np.array_equal(b.rotation_columns(1), [2, 3])


def test_a_joint_with_more_findings_than_shown_is_summarised(tmp_path, capsys):
    # 0 and 190 deg about Z alternate: every pair is a wrap and a sign flip,
    # 2,499 of each: past the 1,000 shown per family, one "more" finding each
    # (the sort of the summaries raised ValueError before).
    path = tmp_path / "busy.bvh"
    path.write_bytes(bvh_text(rows=[("0 0 0", "190 0 0")[i % 2] for i in range(2500)]))
    status, out, _err = _run(capsys, ["check", "--json", str(path)])
    assert status == 1
    (track,) = report_schema.file_report(out)["tracks"]
    kinds = [f["kind"] for f in track["findings"]]
    assert kinds.count("sign_flip") == 1000 and kinds.count("euler_wrap") == 1000
    assert kinds[-2:] == ["more", "more"]
    # Segments 1000-2498 (keys 1000-2499) of the track; frames 1001-2499 of the channels.
    assert [f["keys"] for f in track["findings"][-2:]] == [[1000, 2498], [1001, 2499]]
    assert "1,499 more findings past the first 1,000" in track["findings"][-2]["message"]
    assert "1,499 more Euler findings past the first 1,000 of this joint (1,499 euler_wrap)" in \
        track["findings"][-1]["message"]
