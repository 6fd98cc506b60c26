"""Readers never reach outside the asset's folder, never block, never read past a declared length.

docs/formats.md, "Safety rules for readers and writers". Each hostile case is
run through the command line too: exit 2, one line naming the buffer (or
the file) and the rule, nothing written.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from gltf_forge import data_uri, doc, payload, with_bin, write

from quatlab.app.commands.cli import main
from quatlab.app.io import keyframe_files as KF
from quatlab.app.io import safe_read
from quatlab.app.io.gltf.scene import load_scene
from quatlab.app.io.tracks import KeyframeFileError


def _refused(path: Path, *words: str) -> str:
    with pytest.raises(KeyframeFileError) as info:
        KF.load_keyframes(path)
    text = str(info.value)
    for w in words:
        assert w in text, text
    return text


def _cli_refuses(capsys, argv, *words: str) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for w in words:
        assert w in err, err
    return err


def test_regular_sibling_buffer_still_loads(tmp_path):
    kf = KF.load_keyframes(with_bin(tmp_path))
    assert len(kf.tracks) == 1 and len(kf.tracks[0]) == 2


@pytest.mark.parametrize(
    "uri, rule",
    [
        ("%2Fetc%2Fpasswd", "absolute"),
        ("/etc/passwd", "absolute"),
        ("../secret.bin", "outside"),
        ("sub/../../secret.bin", "outside"),
        ("%2E%2E/secret.bin", "outside"),
        ("file:///etc/passwd", "scheme"),
        ("http://example.com/a.bin", "scheme"),
        ("a%00.bin", "NUL"),
    ],
)
def test_buffer_uris_that_leave_the_folder_are_refused(tmp_path, capsys, uri, rule):
    (tmp_path / "secret.bin").write_bytes(payload())
    asset = tmp_path / "in"
    asset.mkdir()
    (asset / "sub").mkdir()
    (asset / "a.bin").write_bytes(payload())
    path = write(asset / "x.gltf", doc(uri, len(payload())))
    _refused(path, "buffers[0]", rule)
    out = tmp_path / "out.gltf"
    _cli_refuses(capsys, ["fix", str(path), str(out)], "buffers[0]", rule)
    assert not out.exists() and not (tmp_path / "out.bin").exists()


def test_symlink_out_of_the_folder_is_refused(tmp_path, capsys):
    (tmp_path / "secret.bin").write_bytes(payload())
    asset = tmp_path / "in"
    asset.mkdir()
    os.symlink(tmp_path / "secret.bin", asset / "a.bin")
    path = write(asset / "x.gltf", doc("a.bin", len(payload())))
    _refused(path, "buffers[0]", "outside")
    out = tmp_path / "o.gltf"
    _cli_refuses(capsys, ["fix", str(path), str(out)], "buffers[0]", "outside")
    assert list(tmp_path.glob("o*")) == []


def test_symlink_inside_the_folder_is_followed(tmp_path):
    (tmp_path / "real.bin").write_bytes(payload())
    os.symlink("real.bin", tmp_path / "a.bin")
    write(tmp_path / "x.gltf", doc("a.bin", len(payload())))
    assert len(KF.load_keyframes(tmp_path / "x.gltf").tracks) == 1


def test_proc_and_devices_are_refused(tmp_path):
    # A link to /dev/zero inside the folder: resolving it leaves the folder,
    # and even as a path it is not a regular file.
    os.symlink("/dev/zero", tmp_path / "z.bin")
    write(tmp_path / "x.gltf", doc("z.bin", 1 << 30))
    _refused(tmp_path / "x.gltf", "buffers[0]")
    with pytest.raises(safe_read.FileRefused, match="not a regular file"):
        safe_read.read_regular("/dev/zero")


def _with_timeout(fn, seconds=5.0):
    box = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - reported below
            box["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "the reader blocked"
    return box


def test_fifo_as_file_or_buffer_never_blocks(tmp_path):
    fifo = tmp_path / "pipe.gltf"
    os.mkfifo(fifo)
    box = _with_timeout(lambda: KF.load_keyframes(fifo))
    assert isinstance(box.get("error"), KeyframeFileError)
    assert "regular file" in str(box["error"])
    box = _with_timeout(lambda: load_scene(fifo))
    assert isinstance(box.get("error"), KeyframeFileError)
    os.mkfifo(tmp_path / "b.bin")
    write(tmp_path / "x.gltf", doc("b.bin", 40))
    box = _with_timeout(lambda: KF.load_keyframes(tmp_path / "x.gltf"))
    assert "buffers[0]" in str(box.get("error")) and "regular file" in str(box["error"])
    os.mkfifo(tmp_path / "s.json")
    box = _with_timeout(lambda: safe_read.read_regular(tmp_path / "s.json"))
    assert isinstance(box.get("error"), safe_read.FileRefused)


def test_buffer_shorter_than_declared_is_refused(tmp_path):
    (tmp_path / "a.bin").write_bytes(payload()[:-4])
    write(tmp_path / "x.gltf", doc("a.bin", len(payload())))
    _refused(tmp_path / "x.gltf", "buffers[0]", "byteLength")


def test_never_reads_past_the_declared_length(tmp_path):
    import tracemalloc

    # The declared 40 bytes, then a 2 GiB sparse tail (no disk used) that a
    # whole-file read would pull into memory.
    with open(tmp_path / "a.bin", "wb") as f:
        f.write(payload())
        f.truncate(len(payload()) + (2 << 30))
    write(tmp_path / "x.gltf", doc("a.bin", len(payload())))
    tracemalloc.start()
    try:
        kf = KF.load_keyframes(tmp_path / "x.gltf")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(kf.tracks) == 1
    assert peak < 50e6, f"{peak / 1e6:.0f} MB"


def test_fix_never_copies_an_outside_file(tmp_path, capsys):
    secret = tmp_path / "secret.bin"
    secret.write_bytes(payload())
    asset = tmp_path / "in"
    asset.mkdir()
    path = write(asset / "x.gltf", doc("../secret.bin", len(payload())))
    assert main(["fix", str(path), str(asset / "o.gltf")]) == 2
    capsys.readouterr()
    assert sorted(p.name for p in asset.iterdir()) == ["x.gltf"]


def test_data_uri_buffers_are_unaffected(tmp_path):
    write(tmp_path / "x.gltf", doc(data_uri(payload()), len(payload())))
    assert len(KF.load_keyframes(tmp_path / "x.gltf").tracks) == 1


def test_read_regular_bounds_the_size(tmp_path):
    p = tmp_path / "big.json"
    p.write_bytes(b"x" * 1000)
    with pytest.raises(safe_read.FileRefused, match="more than"):
        safe_read.read_regular(p, limit=999)
    assert safe_read.read_regular(p, limit=1000) == b"x" * 1000
    assert safe_read.read_regular(p, length=10) == b"x" * 10
    with pytest.raises(safe_read.FileRefused, match="byteLength says 1001|says 1001"):
        safe_read.read_regular(p, length=1001)


def test_read_text_for_sessions(tmp_path):
    (tmp_path / "s.json").write_bytes(b'\xef\xbb\xbf{"format": "quatlab-session"}')
    assert safe_read.read_text(tmp_path / "s.json").startswith('{"format"')
    os.mkfifo(tmp_path / "f.json")
    box = _with_timeout(lambda: safe_read.read_text(tmp_path / "f.json"))
    assert isinstance(box.get("error"), safe_read.FileRefused)
    (tmp_path / "b.json").write_bytes(b"\xff\xfe")
    with pytest.raises(safe_read.FileRefused, match="not UTF-8"):
        safe_read.read_text(tmp_path / "b.json")
