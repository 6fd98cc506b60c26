"""Composition is input too: hostile USD references are refused and nothing outside is read.

docs/formats.md, "USD: composition is input too". Each hostile asset sits in its own
folder next to an ``outside/`` folder holding a sentinel layer. ``quatlab check``
must exit 2 with one line naming the file and the reference, and the kernel's
inotify must report no open of anything in ``outside/`` (the child process opens
files on its own, so the proof has to come from outside it).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import io
import os
import struct
import warnings
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("pxr")

from quatlab.app.commands import cli  # noqa: E402
from quatlab.app.io.keyframe_files import load_keyframes  # noqa: E402
from quatlab.app.io.tracks import KeyframeFileError  # noqa: E402
from quatlab.app.io.usd import package as P  # noqa: E402

SENTINEL = "SENTINEL_c0ffee_outside"
ANIMATED = """\
def SkelRoot "Root"
{
    def Skeleton "Skel" (prepend apiSchemas = ["SkelBindingAPI"])
    {
        uniform token[] joints = ["a"]
        uniform matrix4d[] bindTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]
        uniform matrix4d[] restTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]
        rel skel:animationSource = </Root/Skel/Anim>
        def SkelAnimation "Anim"
        {
            uniform token[] joints = ["a"]
            quatf[] rotations.timeSamples = { 0: [(1, 0, 0, 0)], 1: [(0, 0, 0, 1)] }
            float3[] translations = [(0, 0, 0)]
            half3[] scales = [(1, 1, 1)]
        }
    }
}
"""

IN_OPEN, IN_ACCESS, IN_NONBLOCK = 0x20, 0x01, 0o4000


class OpenWatch:
    """inotify on a folder: every open or read of a file in it, by any process."""

    def __init__(self, folder: Path):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        self.fd = libc.inotify_init1(IN_NONBLOCK)
        if self.fd < 0:
            pytest.skip("inotify is not available here")
        if libc.inotify_add_watch(self.fd, os.fsencode(folder), IN_OPEN | IN_ACCESS) < 0:
            pytest.skip("inotify cannot watch the folder")

    def events(self) -> list[str]:
        names = []
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError as exc:
                if exc.errno == errno.EAGAIN:
                    break
                raise
            at = 0
            while at < len(data):
                _wd, _mask, _cookie, length = struct.unpack_from("iIII", data, at)
                name = data[at + 16: at + 16 + length].rstrip(b"\0").decode()
                names.append(name or ".")
                at += 16 + length
        return names

    def close(self):
        os.close(self.fd)


@pytest.fixture
def place(tmp_path):
    """``(asset folder, outside folder, watch)``: a sentinel layer outside, watched."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.usda").write_text(f'#usda 1.0\ndef "{SENTINEL}" {{}}\n')
    asset = tmp_path / "asset"
    asset.mkdir()
    watch = OpenWatch(outside)
    yield asset, outside, watch
    watch.close()


def _layer(path: Path, body: str = ANIMATED, header: str = "") -> Path:
    path.write_text(f"#usda 1.0\n({header})\n" + body)
    return path


def _check_refused(path: Path, capsys, watch: OpenWatch, *expect: str) -> str:
    code = cli.main(["check", str(path)])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"quatlab check: error: {path}: "), lines[0]
    for text in expect:
        assert text in lines[0], lines[0]
    assert SENTINEL not in out + err
    assert watch.events() == []
    return lines[0]


def test_the_watch_sees_an_open_of_the_sentinel(place):
    # The proof below is worth something only if a read outside would show.
    _asset, outside, watch = place
    (outside / "secret.usda").read_text()
    assert "secret.usda" in watch.events()


def test_an_absolute_reference_is_refused(place, capsys):
    asset, outside, watch = place
    root = _layer(asset / "root.usda", ANIMATED + f'def "X" (references = @{outside}/secret.usda@)'
                  " {}\n")
    _check_refused(root, capsys, watch, "root.usda refers to", "secret.usda",
                   "an absolute path")


def test_a_dotdot_escape_is_refused(place, capsys):
    asset, _outside, watch = place
    root = _layer(asset / "root.usda", ANIMATED + 'def "X" (references = @../outside/secret.usda@)'
                  " {}\n")
    _check_refused(root, capsys, watch, "'../outside/secret.usda'", "leads outside the asset's "
                   "folder")


def test_a_symbolic_link_out_of_the_folder_is_refused(place, capsys):
    asset, outside, watch = place
    os.symlink(outside / "secret.usda", asset / "inside.usda")
    root = _layer(asset / "root.usda", ANIMATED + 'def "X" (payload = @./inside.usda@) {}\n')
    _check_refused(root, capsys, watch, "'./inside.usda'", "leads outside the asset's folder")


def test_a_sublayer_url_is_refused(place, capsys):
    asset, _outside, watch = place
    root = _layer(asset / "root.usda", header='subLayers = [@https://example.com/x.usda@]')
    _check_refused(root, capsys, watch, "'https://example.com/x.usda'", "a URL")


def test_a_reference_to_a_fifo_is_refused_without_blocking(place, capsys):
    asset, _outside, watch = place
    os.mkfifo(asset / "pipe.usda")
    root = _layer(asset / "root.usda", ANIMATED + 'def "X" (references = @./pipe.usda@) {}\n')
    _check_refused(root, capsys, watch, "'./pipe.usda'", "not a regular file")


def test_a_cyclic_sublayer_is_refused(place, capsys):
    asset, _outside, watch = place
    _layer(asset / "b.usda", "", header="subLayers = [@./root.usda@]")
    root = _layer(asset / "root.usda", ANIMATED, header="subLayers = [@./b.usda@]")
    _check_refused(root, capsys, watch, "the sublayers form a cycle",
                   "root.usda -> b.usda -> root.usda")


def test_an_absolute_texture_path_is_refused(place, capsys):
    asset, outside, watch = place
    root = _layer(asset / "root.usda", ANIMATED + f'def "M"\n{{\n    asset tex = '
                  f'@{outside}/secret.usda@\n}}\n')
    _check_refused(root, capsys, watch, "an absolute path")


def _zip(members) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data, compress in members:
            z.writestr(name, data, compress_type=compress)
    return buf.getvalue()


def test_a_usdz_member_that_expands_far_beyond_its_size_is_refused(place, capsys):
    asset, _outside, watch = place
    bomb = b"#usda 1.0\n" + b" " * (64 << 20)        # 64 MB that deflate to about 64 kB
    blob = _zip([("root.usda", b"#usda 1.0\n" + ANIMATED.encode(), zipfile.ZIP_STORED),
                 ("big.usda", bomb, zipfile.ZIP_DEFLATED)])
    path = asset / "bomb.usdz"
    path.write_bytes(blob)
    assert path.stat().st_size < (1 << 20)
    line = _check_refused(path, capsys, watch, "member 'big.usda' is compressed",
                          f"expand to {len(bomb)}")
    assert "stored uncompressed" in line


def test_a_usdz_member_escaping_the_package_is_refused(place, capsys):
    asset, _outside, watch = place
    root = (ANIMATED + 'def "X" (references = @../outside/secret.usda@) {}\n').encode()
    (asset / "esc.usdz").write_bytes(P.write_package([("root.usda", b"#usda 1.0\n" + root)]))
    _check_refused(asset / "esc.usdz", capsys, watch, "leads outside the package")


def test_a_reference_inside_the_folder_and_the_package_is_read(place):
    asset, _outside, watch = place
    _layer(asset / "anim.usda", ANIMATED)
    root = _layer(asset / "root.usda", 'def "Top" (references = @./anim.usda@</Root>) {}\n')
    kf = load_keyframes(root)
    assert [t.animation for t in kf.tracks] == ["/Top/Skel/Anim.rotations"]
    assert sorted(p.name for p in kf.input_files) == ["anim.usda", "root.usda"]
    packaged = asset / "pkg.usdz"
    packaged.write_bytes(P.write_package([
        ("root.usda", b'#usda 1.0\ndef "Top" (references = @./sub/anim.usda@</Root>) {}\n'),
        ("sub/anim.usda", b"#usda 1.0\n" + ANIMATED.encode())]))
    assert len(load_keyframes(packaged).tracks) == 1
    assert watch.events() == []


def test_package_checks_bound_members():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # zipfile warns of the duplicate too
        blob = P.write_package([("a.usda", b"#usda 1.0\n"), ("a.usda", b"#usda 1.0\n")])
    with pytest.raises(P.PackageRefused, match="appears twice"):
        P.check_package_bytes(blob)


def test_a_hostile_file_never_reaches_a_gui_load(place):
    asset, _outside, _watch = place
    root = _layer(asset / "root.usda", ANIMATED + 'def "X" (references = @../outside/secret.usda@)'
                  " {}\n")
    with pytest.raises(KeyframeFileError, match="leads outside the asset's folder"):
        load_keyframes(root)
