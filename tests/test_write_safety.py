"""``fix`` and every writer: no silent replacing, all files or none, nothing left on failure.

docs/formats.md, "Safety rules for readers and writers" (Writers).
"""

from __future__ import annotations

import errno
import os
import re

import pytest
from gltf_forge import with_bin

from quatlab.app.commands.cli import main
from quatlab.app.io import atomic
from quatlab.app.io import keyframe_files as KF
from quatlab.app.io import track_audit as TA
from quatlab.app.io.tracks import KeyframeFileError


def _one_error(capsys, *words):
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("quatlab fix: error: "), err
    for w in words:
        assert w in err, err
    return err


def test_fix_never_replaces_out_without_force(tmp_path, capsys):
    src = with_bin(tmp_path)
    out = tmp_path / "o.gltf"
    out.write_text("keep me")
    assert main(["fix", str(src), str(out)]) == 2
    err = _one_error(capsys, str(out), "--force")
    assert err.startswith(f"quatlab fix: error: {out}: already exists: pass --force"), err
    assert out.read_text() == "keep me"
    assert not (tmp_path / "o.bin").exists()
    assert main(["fix", str(src), str(out), "--force"]) == 0
    assert out.read_text() != "keep me" and (tmp_path / "o.bin").exists()


def test_fix_names_an_existing_companion_bin(tmp_path, capsys):
    src = with_bin(tmp_path)
    (tmp_path / "o.bin").write_bytes(b"old")
    assert main(["fix", str(src), str(tmp_path / "o.gltf")]) == 2
    err = _one_error(capsys, "o.bin", "would replace")
    # The file that exists is named first, not OUT (which does not exist).
    assert err.startswith(f"quatlab fix: error: {tmp_path / 'o.bin'}: already exists; writing "
                          f"{tmp_path / 'o.gltf'} would replace {tmp_path / 'o.bin'}"), err
    assert not (tmp_path / "o.gltf").exists()
    assert (tmp_path / "o.bin").read_bytes() == b"old"


def test_existing_outputs_lists_what_would_be_replaced(tmp_path):
    kf = KF.load_keyframes(with_bin(tmp_path))
    fixed = [TA.fix_track(t).fixed for t in kf.tracks]
    assert kf.existing_outputs(tmp_path / "o.gltf", fixed) == []
    (tmp_path / "o.bin").write_bytes(b"old")
    assert kf.existing_outputs(tmp_path / "o.gltf", fixed) == [tmp_path / "o.bin"]
    with pytest.raises(KeyframeFileError, match="would replace"):
        kf.write_copy(tmp_path / "o.gltf", fixed)
    assert kf.write_copy(tmp_path / "o.gltf", fixed, force=True)[-1] == tmp_path / "o.gltf"


def test_disk_full_on_the_main_file_leaves_nothing(tmp_path, capsys, monkeypatch):
    src = with_bin(tmp_path)
    before = sorted(os.listdir(tmp_path))
    calls = []
    real = os.fsync

    def full(fd):
        calls.append(fd)
        if len(calls) == 2:  # the companion .bin went through, the .gltf does not
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd)

    monkeypatch.setattr(atomic.os, "fsync", full)
    assert main(["fix", str(src), str(tmp_path / "o.gltf")]) == 2
    _one_error(capsys, "No space left", "o.gltf")
    assert sorted(os.listdir(tmp_path)) == before


def test_missing_folder_names_out_not_a_temp(tmp_path, capsys):
    src = with_bin(tmp_path)
    out = tmp_path / "missing" / "dir" / "out.gltf"
    assert main(["fix", str(src), str(out)]) == 2
    err = _one_error(capsys)
    assert "out.gltf" in err or "out.bin" in err
    assert "partial" not in err and ".tmp" not in err


def test_temp_files_are_recognisable_and_stale_ones_cleaned(tmp_path, monkeypatch):
    target = tmp_path / "o.csv"
    dead = tmp_path / "o.csv.quatlab-999999999-0bad.partial"   # no such process
    alive = tmp_path / f"o.csv.quatlab-{os.getppid()}-0bad.partial"
    other = tmp_path / "o.csv.someone-else.partial"
    for p in (dead, alive, other):
        p.write_bytes(b"half")
    names = []
    real = os.open

    def spy(path, flags, *a):
        names.append(os.path.basename(path))
        return real(path, flags, *a)

    monkeypatch.setattr(atomic.os, "open", spy)
    atomic.write_files([(target, b"data")])
    assert target.read_bytes() == b"data"
    assert not dead.exists() and alive.exists() and other.exists()
    temps = [n for n in names if n != os.path.basename(tmp_path)]
    assert temps and all(re.fullmatch(r"o\.csv\.quatlab-\d+-[0-9a-f]+\.partial", n) for n in temps)


def test_new_files_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        atomic.atomic_write(tmp_path / "a.json", "{}")
    finally:
        os.umask(old)
    assert (os.stat(tmp_path / "a.json").st_mode & 0o777) == 0o644
