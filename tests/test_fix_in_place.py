"""``quatlab fix --in-place FILE...``: the fix written over each file, only where a byte changes.

The oracle for what is written is ``quatlab fix IN OUT``'s copy (tested on its
own against the glTF validator, scipy and the hand-made files elsewhere): the
file fixed in place must hold exactly those bytes.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from bvh_oracle import MOCAPBANK
from gltf_forge import doc, glb, payload, with_bin

from quatlab.app.commands.cli import main
from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.track_audit import audit_track

ROOT = Path(__file__).resolve().parents[1]
GLTF = ROOT / "tests" / "data" / "gltf"
CSV_FLIP = "time,w,x,y,z\n0,1,0,0,0\n1,-0.9,0,0,-0.43589\n2,-0.8,0,0,-0.6\n"


def _flawed(tmp_path) -> dict[str, Path]:
    src = tmp_path / "src"
    src.mkdir()
    (src / "spin.csv").write_text(CSV_FLIP)
    (src / "forged.glb").write_bytes(glb(doc(None), payload()))
    shutil.copy(GLTF / "AnimatedTriangle.gltf", src / "tri.gltf")
    shutil.copy(MOCAPBANK, src / "walk.bvh")
    return {p.name: p for p in src.iterdir()}


@pytest.mark.parametrize("name", ["spin.csv", "forged.glb", "tri.gltf", "walk.bvh"])
def test_in_place_writes_what_the_copy_holds(tmp_path, capsys, name):
    src = _flawed(tmp_path)[name]
    copy = tmp_path / f"copy{src.suffix}"
    assert main(["fix", str(src), str(copy)]) == 0
    work = tmp_path / "work"
    work.mkdir()
    target = Path(shutil.copy(src, work / name))
    os.chmod(target, 0o640)
    status = main(["fix", "--in-place", str(target)])
    out = capsys.readouterr().out
    assert f"{target}: fixed in place" in out
    assert target.read_bytes() == copy.read_bytes() != src.read_bytes()
    assert os.stat(target).st_mode & 0o777 == 0o640            # the file's permissions kept
    assert sorted(p.name for p in work.iterdir()) == [name]    # no temporary left
    tracks = load_keyframes(target).tracks
    assert not any(f.kind == "sign_flip" for t in tracks for f in audit_track(t))
    # BVH keeps its gimbal locks (a property of the pose); the others are clean now.
    assert status == (1 if name == "walk.bvh" else 0)


def test_a_clean_file_is_not_touched(tmp_path, capsys):
    clean = Path(shutil.copy(GLTF / "RiggedSimple.gltf", tmp_path / "clean.gltf"))
    before = os.stat(clean)
    assert main(["fix", "--in-place", str(clean)]) == 0
    assert capsys.readouterr().out.strip() == f"{clean}: nothing to fix"
    after = os.stat(clean)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_what_the_fix_cannot_repair_is_listed_and_exit_1(tmp_path, capsys):
    box = Path(shutil.copy(GLTF / "BoxAnimated.gltf", tmp_path / "box.gltf"))
    assert main(["fix", "--in-place", str(box)]) == 1
    out = capsys.readouterr().out
    assert "animation #0, node #2: still half_turn (keys 0-1)" in out


def test_the_buffer_named_after_the_file_is_rewritten_in_place(tmp_path, capsys):
    gltf = with_bin(tmp_path, "a.gltf", "a.bin")
    text = gltf.read_text()
    copy_dir = tmp_path / "copy"
    copy_dir.mkdir()
    assert main(["fix", str(gltf), str(copy_dir / "a.gltf")]) == 0
    assert main(["fix", "--in-place", str(gltf)]) == 0
    assert "wrote " + str(tmp_path / "a.bin") in capsys.readouterr().out
    assert (tmp_path / "a.bin").read_bytes() == (copy_dir / "a.bin").read_bytes()
    assert gltf.read_text() == text                           # the URI still says a.bin
    (track,) = load_keyframes(gltf).tracks
    assert np.dot(*track.values) > 0 and audit_track(track) == []


def test_a_buffer_under_another_name_is_refused_and_nothing_written(tmp_path, capsys):
    gltf = with_bin(tmp_path, "a.gltf", "shared.bin")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert main(["fix", "--in-place", str(gltf)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot be fixed in place" in err[0] and "a.bin" in err[0]
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_symlink_is_refused(tmp_path, capsys):
    real = tmp_path / "real.csv"
    real.write_text(CSV_FLIP)
    link = tmp_path / "link.csv"
    os.symlink(real, link)
    before = real.read_bytes()
    assert main(["fix", "--in-place", str(link)]) == 2
    assert "is a symlink" in capsys.readouterr().err
    assert real.read_bytes() == before and link.is_symlink()


def test_an_unreadable_file_does_not_stop_the_others(tmp_path, capsys):
    files = _flawed(tmp_path)
    bad = tmp_path / "bad.glb"
    bad.write_bytes(b"nope")
    assert main(["fix", "--in-place", str(bad), str(files["spin.csv"])]) == 2
    captured = capsys.readouterr()
    assert str(bad) in captured.err and f"{files['spin.csv']}: fixed in place" in captured.out


@pytest.mark.parametrize("argv, message", [
    (["fix", "a.csv", "b.csv", "--in-place", "c.csv"], "not both"),
    (["fix", "a.csv"], "the following arguments are required: OUT (see quatlab fix --help)"),
    (["fix", "--normalize", "--in-place", str(MOCAPBANK)], "--normalize does not apply"),
])
def test_argument_mistakes_are_one_line(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
