"""BVH in the keyframe pipeline: load_keyframes, the two-family audit, check and fix.

Oracles: scipy's Rotation from the channel values read by ``np.loadtxt``
(not by our reader), the wrap frames the data README documents
(tests/data/bvh/README.md), and the bytes of the files themselves.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import report_schema
from bvh_oracle import FREEBVH, MOCAPBANK, motion_of, rotation_columns, scipy_quats
from scipy.spatial.transform import Rotation

from quatlab.app.commands.cli import main
from quatlab.app.io.bvh.keyframes import BvhKeyframeFile, audit_keyframes
from quatlab.app.io.keyframe_files import fix_file, load_keyframes
from quatlab.app.io.tracks import FINDING_KINDS, KeyframeFileError
from quatlab.app.model.keyframes_model import KeyframesModel

# --------------------------------------------------------------------------- loading


@pytest.mark.parametrize("path", [MOCAPBANK, FREEBVH])
def test_tracks_are_the_joints_rotations_as_quaternions(path):
    kf = load_keyframes(path)
    assert isinstance(kf, BvhKeyframeFile) and kf.format == "bvh"
    joints = rotation_columns(path)
    assert [t.node_name for t in kf.tracks] == list(joints)
    frames = len(motion_of(path))
    step = float(next(s for s in path.read_text().splitlines()
                      if s.startswith("Frame Time")).split()[-1])
    for t in kf.tracks:
        assert t.interpolation == "LINEAR"
        assert t.storage == f"euler {joints[t.node_name][1]}"
        np.testing.assert_allclose(t.times, np.arange(frames) * step, rtol=0, atol=1e-12)
        want = scipy_quats(path, t.node_name)
        dots = np.abs(np.einsum("ij,ij->i", t.values, want))
        np.testing.assert_allclose(dots, 1.0, atol=1e-12)   # the same rotation, either sign


def test_malformed_bvh_is_one_keyframe_error_with_the_line(tmp_path):
    text = MOCAPBANK.read_bytes().replace(b"CHANNELS 3 Zrotation", b"CHANNELS 3 Wrotation", 1)
    bad = tmp_path / "bad.bvh"
    bad.write_bytes(text)
    with pytest.raises(KeyframeFileError) as info:
        load_keyframes(bad)
    msg = str(info.value)
    line = text[: text.index(b"Wrotation")].count(b"\n") + 1
    assert msg.startswith(f"{bad}: line {line}: unknown channel name 'Wrotation'")
    assert "\n" not in msg and msg.count(str(bad)) == 1


# --------------------------------------------------------------------------- audit


def test_audit_names_the_documented_wraps_next_to_the_sign_flips():
    kf = load_keyframes(MOCAPBANK)
    reports = {r.track.node_name: r for r in audit_keyframes(kf)}
    hip = [(f.kind, f.keys) for f in reports["LeftHip"].findings]
    # README: LeftHip Zrotation wraps first between frames 210 and 211.
    assert hip[:2] == [("sign_flip", (210, 211)), ("euler_wrap", (210, 211))]
    knee = [(f.kind, f.keys) for f in reports["LeftKnee"].findings if f.kind == "euler_wrap"]
    assert knee[:2] == [("euler_wrap", (335, 336)), ("euler_wrap", (337, 338))]
    # Every wrap is a channel step of more than 180 deg in the raw values, and vice versa.
    cols, _ = rotation_columns(MOCAPBANK)["LeftHip"]
    steps = np.abs(np.diff(motion_of(MOCAPBANK)[:, cols], axis=0)) > 180
    want = sorted({(int(i), int(i) + 1) for i in np.flatnonzero(steps.any(axis=1))})
    assert [k for kind, k in hip if kind == "euler_wrap"] == want
    wrap = next(f for f in reports["LeftHip"].findings if f.kind == "euler_wrap")
    assert "per-channel lerp" in wrap.message and "Zrotation" in wrap.message
    for r in reports.values():
        order = [(f.keys[0], FINDING_KINDS.index(f.kind)) for f in r.findings]
        assert order == sorted(order)


def test_the_clean_file_has_no_findings():
    assert all(not r.findings for r in audit_keyframes(load_keyframes(FREEBVH)))


# --------------------------------------------------------------------------- the fixed copy


def test_fix_file_writes_the_euler_filtered_bvh(tmp_path):
    out = tmp_path / "fixed.bvh"
    fix_file(MOCAPBANK, out)
    src, new = MOCAPBANK.read_bytes(), out.read_bytes()
    head = src[: src.index(b"Frame Time")]
    assert new.startswith(head) and new.count(b"\r\n") == src.count(b"\r\n")
    before, after = motion_of(MOCAPBANK), motion_of(out)
    for joint, (cols, order) in rotation_columns(MOCAPBANK).items():
        r0 = Rotation.from_euler(order, before[:, cols], degrees=True)
        r1 = Rotation.from_euler(order, after[:, cols], degrees=True)
        assert np.max((r0.inv() * r1).magnitude()) < 1e-9, joint
        assert np.all(np.abs(np.diff(after[:, cols], axis=0)) <= 180.0), joint
    kinds = {f.kind for r in audit_keyframes(load_keyframes(out)) for f in r.findings}
    assert kinds <= {"gimbal_lock"}          # a pose near the lock stays near it


def test_write_copy_refuses_edited_rotations(tmp_path):
    import dataclasses

    kf = load_keyframes(MOCAPBANK)
    tracks = list(kf.tracks)
    v = tracks[0].values.copy()
    v[5] = [1.0, 0, 0, 0]
    tracks[0] = dataclasses.replace(tracks[0], values=v)
    with pytest.raises(KeyframeFileError, match="keeps the file's rotations"):
        kf.write_copy(tmp_path / "x.bvh", tracks)
    assert not (tmp_path / "x.bvh").exists()
    # Sign fixes are fine: a BVH has no quaternion signs to keep.
    tracks[0] = dataclasses.replace(kf.tracks[0], values=-kf.tracks[0].values)
    assert kf.write_copy(tmp_path / "y.bvh", tracks) == [tmp_path / "y.bvh"]


def test_the_keyframes_model_opens_bvh():
    m = KeyframesModel()
    m.load(MOCAPBANK)
    assert len(m.tracks) == 19
    assert m.tracks[m.selected_track].node_name == "LeftHip"   # the first with findings
    # Both families on the segment where LeftHip wraps: the converted keys flip sign and
    # the Z channel jumps across +-180 deg.
    assert m.segments(m.selected_track).flags[210] == ("sign_flip", "euler_wrap")


# --------------------------------------------------------------------------- command line


def test_check_names_the_wrap(capsys):
    assert main(["check", str(MOCAPBANK)]) == 1
    out = capsys.readouterr().out
    assert "euler_wrap (keys 210-211): LeftHip Zrotation goes from -180 to 179.87 deg" in out
    assert "(euler ZXY)" in out


def test_check_json_and_clean_exit_0(capsys):
    assert main(["check", str(MOCAPBANK), "--json"]) == 1
    doc = report_schema.file_report(capsys.readouterr().out)
    hip = next(t for t in doc["tracks"] if t["node"] == "LeftHip")
    assert hip["storage"] == "euler ZXY" and hip["keys"] == 455
    assert {"kind": "euler_wrap", "keys": [210, 211]}.items() <= hip["findings"][1].items()
    assert main(["check", str(FREEBVH)]) == 0


@pytest.mark.parametrize("flag", [[], ["--euler-filter"]])
def test_fix_command(tmp_path, capsys, flag):
    out = tmp_path / "fixed.bvh"
    assert main(["fix", str(MOCAPBANK), str(out), *flag]) == 0
    text = capsys.readouterr().out
    assert "LeftHip: Euler filter rewrote Zrotation in frames 211-212" in text
    assert "still euler_wrap" not in text and f"wrote {out}" in text
    assert main(["check", str(out)]) == 1     # gimbal lock stays
    assert "euler_wrap" not in capsys.readouterr().out


def test_fix_refusals_are_one_line(tmp_path):
    csv = tmp_path / "a.csv"
    csv.write_text("time,w,x,y,z\n0,1,0,0,0\n")
    bad = tmp_path / "bad.bvh"
    bad.write_bytes(MOCAPBANK.read_bytes()[:-200])        # truncated motion
    cases = [
        (["fix", str(csv), str(tmp_path / "b.csv"), "--euler-filter"], "BVH files (.bvh) only"),
        (["fix", str(bad), str(tmp_path / "o.bvh")], "line "),
        (["fix", str(MOCAPBANK), str(MOCAPBANK)], "is the input file"),
        (["check", str(bad)], "line "),
    ]
    for argv, needle in cases:
        proc = subprocess.run([sys.executable, "-m", "quatlab.app", *argv],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2, (argv, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0] and "Traceback" not in proc.stderr, argv
