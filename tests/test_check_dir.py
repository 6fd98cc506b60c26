"""``quatlab check DIR``: the walk (no symlinks out, no FIFOs), one line per file, summary, exits.

Run as the user runs it (a subprocess with a timeout, so a blocking read of a
FIFO would fail the test instead of hanging) and through ``check_files``.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import report_schema
from bvh_oracle import FREEBVH, MOCAPBANK

from quatlab.app.commands import check_dir as C
from quatlab.app.io.reports.schema import schema_id

ROOT = Path(__file__).resolve().parents[1]
GLTF = ROOT / "tests" / "data" / "gltf"


def quatlab(*argv, timeout=120):
    return subprocess.run([sys.executable, "-m", "quatlab.app", *map(str, argv)],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


@pytest.fixture
def folder(tmp_path):
    """A mixed tree: BVH with findings and without, glTF with a sign flip, a CSV, traps."""
    root = tmp_path / "takes"
    (root / "a" / "deep").mkdir(parents=True)
    shutil.copy(MOCAPBANK, root / "a" / "walk.bvh")
    shutil.copy(FREEBVH, root / "a" / "deep" / "clean.bvh")
    shutil.copy(GLTF / "AnimatedTriangle.gltf", root / "tri.gltf")
    (root / "a" / "spin.csv").write_text("time,w,x,y,z\n0,1,0,0,0\n1,0.9,0,0,0.43589\n")
    (root / "notes.txt").write_text("not a keyframe file\n")
    # Outside the folder: an unreadable BVH that a followed symlink would report.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.bvh").write_text("HIERARCHY\nnonsense\n")
    os.symlink(outside / "secret.bvh", root / "link_out.bvh")
    os.symlink(outside, root / "a" / "link_dir")
    os.symlink(root, root / "a" / "loop")
    os.symlink(root / "tri.gltf", root / "a" / "link_in.gltf")   # inside: checked
    os.mkfifo(root / "a" / "pipe.bvh")
    return root


def test_mixed_folder_findings_exit_1(folder):
    proc = quatlab("check", folder)
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    lines = out.splitlines()
    checked = [ln for ln in lines if ln.startswith(str(folder)) and ": skipped:" not in ln]
    assert [ln.split(":")[0] for ln in checked] == [
        str(folder / "a" / "deep" / "clean.bvh"), str(folder / "a" / "link_in.gltf"),
        str(folder / "a" / "spin.csv"), str(folder / "a" / "walk.bvh"), str(folder / "tri.gltf")]
    walk = next(ln for ln in checked if "walk.bvh" in ln)
    assert "14 euler_wrap" in walk and "14 sign_flip" in walk
    assert f"{folder / 'a' / 'deep' / 'clean.bvh'}: 55 rotation tracks, no findings" in out
    skipped = {ln.split(": skipped: ")[0]: ln.split(": skipped: ")[1]
               for ln in lines if ": skipped: " in ln}
    assert skipped == {
        str(folder / "link_out.bvh"): "symlink to outside the folder (not followed)",
        str(folder / "a" / "link_dir"): "symlink to outside the folder (not followed)",
        str(folder / "a" / "loop"): "symlink to a folder (not followed)",
        str(folder / "a" / "pipe.bvh"): "not a regular file (FIFO, device or socket)",
    }
    assert "secret" not in out and "notes.txt" not in out
    table = lines[lines.index(next(ln for ln in lines if ln.startswith("format"))):]
    rows = {ln.split()[0]: ln.split()[1:] for ln in table if ln and ln[0].isalpha()}
    assert rows["bvh"] == ["2", "1", "1", "0", "41"]
    assert rows["gltf"] == ["2", "0", "2", "0", "2"]
    assert rows["total"][:4] == ["5", "2", "3", "0"]


def test_unreadable_file_exit_2_and_named(folder):
    bad = folder / "a" / "broken.bvh"
    bad.write_bytes(MOCAPBANK.read_bytes()[:-300])
    proc = quatlab("check", folder, "--jobs", "2")
    assert proc.returncode == 2
    assert f"{bad}: unreadable: line " in proc.stdout
    assert f"unreadable (1): {bad}" in proc.stdout
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and str(bad) in err[0] and "Traceback" not in proc.stderr


def test_json_lines(folder):
    proc = quatlab("check", folder, "--json")
    assert proc.returncode == 1
    docs = report_schema.folder_report(proc.stdout)
    files = {d["file"]: d for d in docs if "file" in d}
    walk = files[str(folder / "a" / "walk.bvh")]
    assert walk["status"] == "findings" and walk["kinds"]["euler_wrap"] == 14
    assert files[str(folder / "a" / "pipe.bvh")]["status"] == "skipped"
    summary = docs[-1]["summary"]
    assert {k: summary.pop(k) for k in ("kinds", "top_files", "top_joints")}["top_files"][0] == {
        "file": str(folder / "a" / "walk.bvh"), "findings": 41}
    assert summary == {"schema": schema_id(), "folder": str(folder), "files": 5, "clean": 2,
                       "flagged": 3, "unreadable": 0, "skipped": 4, "exit": 1, "resumed": 0}


def test_clean_and_empty_folders_exit_0(tmp_path):
    shutil.copy(FREEBVH, tmp_path / "clean.bvh")
    assert quatlab("check", tmp_path).returncode == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = quatlab("check", empty)
    assert proc.returncode == 0 and "no keyframe files" in proc.stdout


def test_two_processes_give_the_same_results_in_order(folder, tmp_path):
    for i in range(40):                       # more files than one chunk
        shutil.copy(folder / "a" / "spin.csv", folder / f"c{i:02d}.csv")
    files, _ = C.walk_keyframe_files(folder)
    one = list(C.check_files(files, jobs=1))
    two = list(C.check_files(files, jobs=2))
    assert one == two and len(one) == len(files) == 45
    assert [r["file"] for r in one] == [str(p) for p in files]


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_only_on_a_terminal(monkeypatch):
    clock = iter([0.5, 2.0, 2.05, 3.0])
    bar = C._Progress(10, stream=_Tty())
    bar._time = lambda: next(clock)
    bar.start = 0.0
    bar(1)                  # t = 0.5: the first second, nothing
    bar(1)                  # t = 2.0: drawn
    bar(2)                  # t = 2.05: too soon, skipped
    bar(3)                  # t = 3.0: drawn
    text = bar.stream.getvalue()
    assert text.count("\r[") == 2 and "3/10 files" in text and "2/10" not in text
    plain = C._Progress(10, stream=io.StringIO())
    plain._time = lambda: 5.0
    plain(5)
    assert plain.stream.getvalue() == ""


def test_several_paths_are_one_report(folder, tmp_path):
    """``quatlab check A B ...`` (what pre-commit runs): one report as for a folder."""
    clean = tmp_path / "clean.bvh"
    shutil.copy(FREEBVH, clean)
    proc = quatlab("check", folder / "tri.gltf", clean, folder / "a", "--json")
    assert proc.returncode == 1, proc.stderr
    lines = report_schema.folder_report(proc.stdout)
    files = [line["file"] for line in lines if line.get("status") not in (None, "skipped")]
    # a/link_in.gltf points out of a/ (to tri.gltf): walking a/ alone skips it.
    assert files == [str(folder / "tri.gltf"), str(clean), str(folder / "a" / "deep" / "clean.bvh"),
                     str(folder / "a" / "spin.csv"), str(folder / "a" / "walk.bvh")]
    summary = lines[-1]["summary"]
    assert summary["folder"] is None and summary["files"] == 5 and summary["skipped"] == 4
