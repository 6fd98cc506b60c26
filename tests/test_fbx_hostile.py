"""Hostile FBX files: one line naming the file, exit status 2, bounded memory, nothing written.

Each file is read by the real loader (ufbx in its child process). The test
process must survive all of them; the children's peak memory is read back
from the kernel (``RUSAGE_CHILDREN``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from quatlab.app.commands.cli import main
from quatlab.app.io.fbx.loader import LIMITS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fbx_forge import (  # noqa: E402
    Joint,
    array_property,
    ascii_fbx,
    binary_fbx,
    binary_record,
    chain,
    nested,
)

DATA = Path(__file__).resolve().parent / "data" / "fbx"
KENNEY = (DATA / "maya_kenney_character_7700_binary.fbx").read_bytes()


def _string(b: bytes) -> bytes:
    return b"S" + len(b).to_bytes(4, "little") + b


def _geometry(array: bytes):
    """Objects > Geometry (a mesh) > Vertices holding ``array``: ufbx decodes it."""
    def make(at: int) -> bytes:
        inner = at + 13 + len(b"Objects")
        props = b"L" + (123).to_bytes(8, "little") + _string(b"g\x00\x01Geometry") + \
            _string(b"Mesh")
        vertices_at = inner + 13 + len(b"Geometry") + len(props)
        v = binary_record(b"Vertices", props=array, n_props=1, at=vertices_at)
        g = binary_record(b"Geometry", props=props, n_props=3, children=v, at=inner)
        return binary_record(b"Objects", children=g, at=at)
    return make


def _cases() -> dict[str, tuple[bytes, str]]:
    """name -> (bytes, a word the one-line error must contain)."""
    zeros = zlib.compress(b"\x00" * 64)
    j = chain(3)
    curves = {("j1", "R", 2): ([0.0, 1.0], [0.0, 10.0])}
    return {
        "truncated_header.fbx": (KENNEY[:200], "truncated"),
        "truncated_half.fbx": (KENNEY[: len(KENNEY) // 2], "truncated"),
        "truncated_late.fbx": (KENNEY[: len(KENNEY) * 9 // 10], "truncated"),
        "version_9999.fbx": (KENNEY[:23] + (9999).to_bytes(4, "little") + KENNEY[27:],
                             "version 9999 does not exist"),
        "version_0.fbx": (KENNEY[:23] + (0).to_bytes(4, "little") + KENNEY[27:], "truncated"),
        "huge_zlib_array.fbx": (binary_fbx([_geometry(array_property(b"d", 2**31 - 1, zeros,
                                                                     1))]), "out of memory"),
        "huge_raw_array.fbx": (binary_fbx([_geometry(array_property(b"d", 2**29,
                                                                    b"\x00" * 64))]),
                               "out of memory"),
        "deep_records.fbx": (binary_fbx([nested(100_000)]), "FBX"),
        "deep_hierarchy.fbx": (ascii_fbx([Joint(f"j{i}", i - 1) for i in range(5000)],
                                         {}).encode(), "deeper than the reader's limit"),
        "cyclic.fbx": (ascii_fbx(j, curves, extra_connections=['\tC: "OO",1000000,1000002']
                                 ).encode(), "Cyclic"),
        "garbage.fbx": (os.urandom(1 << 16), "FBX"),
        "magic_then_garbage.fbx": (KENNEY[:27] + bytes(range(256)) * 64, "FBX"),
        "empty.fbx": (b"", "empty"),
    }


CASES = _cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_check_refuses_in_one_line_with_exit_2(tmp_path, capsys, name):
    data, word = CASES[name]
    path = tmp_path / name
    path.write_bytes(data)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"quatlab check: error: {path}: "), err
    assert word in err[0]


@pytest.mark.parametrize("name", ["truncated_half.fbx", "huge_zlib_array.fbx", "cyclic.fbx"])
@pytest.mark.parametrize("suffix", [".bvh", ".csv"])
def test_fix_and_export_write_nothing(tmp_path, capsys, name, suffix):
    path = tmp_path / name
    path.write_bytes(CASES[name][0])
    out = tmp_path / f"out{suffix}"
    assert main(["fix", str(path), str(out)]) == 2
    assert main(["export-quats", str(path), str(out)]) == 2 if suffix == ".csv" else True
    assert len(capsys.readouterr().err.strip().splitlines()) in (1, 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_the_loaders_memory_stays_bounded(tmp_path):
    """In a process of its own, reading the huge-count files keeps the loader's peak resident
    memory small: they fail at their first allocation (the address-space limit stands in for
    ufbx's allocator limits, which this binding cannot set)."""
    names = ["huge_zlib_array.fbx", "huge_raw_array.fbx", "deep_records.fbx"]
    for name in names:
        (tmp_path / name).write_bytes(CASES[name][0])
    script = (
        "import resource, sys\n"
        "from quatlab.app.io.fbx.loader import read_fbx\n"
        "from quatlab.app.io.tracks import KeyframeFileError\n"
        "for p in sys.argv[1:]:\n"
        "    try:\n"
        "        read_fbx(p)\n"
        "    except KeyframeFileError:\n"
        "        pass\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    proc = subprocess.run([sys.executable, "-c", script, *(str(tmp_path / n) for n in names)],
                          capture_output=True, text=True, timeout=300, check=True)
    peak_mb = int(proc.stdout.strip()) / 1024
    limit_mb = LIMITS["memory_base"] / 2**20
    assert peak_mb < 0.25 * limit_mb, peak_mb


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_and_device_named_fbx(tmp_path, capsys):
    fifo = tmp_path / "pipe.fbx"
    os.mkfifo(fifo)
    dev = tmp_path / "zero.fbx"
    dev.symlink_to("/dev/zero")
    for path in (fifo, dev):
        assert main(["check", str(path)]) == 2
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert "not a regular file" in line
    assert main(["check", str(tmp_path)]) == 0            # the folder walk skips both
    out = capsys.readouterr().out
    assert "pipe.fbx: skipped" in out and "zero.fbx: skipped" in out


def test_a_hostile_file_on_the_command_line_has_no_traceback(tmp_path):
    path = tmp_path / "cut.fbx"
    path.write_bytes(CASES["truncated_half.fbx"][0])
    proc = subprocess.run([sys.executable, "-m", "quatlab", "check", str(path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "Traceback" not in proc.stderr
