"""usd-core runs in a child process: its crashes, runaway allocations and hangs are one line.

docs/formats.md, "USD": a hostile file must not take QuatLab down. Each case here
kills or stalls a usd-core that runs in QuatLab's own process (shown once in a
subprocess of its own), and must come back as a KeyframeFileError naming the file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from quatlab.app.io import usd as U
from quatlab.app.io.tracks import KeyframeFileError
from quatlab.app.io.usd import isolate

pytest.importorskip("pxr")

DATA = Path(__file__).parent / "data" / "usd"


def _deep_usda(path: Path, depth: int = 200_000) -> Path:
    path.write_text("#usda 1.0\n" + 'def "a" {\n' * depth + "}\n" * depth)
    return path


def test_a_stack_overflow_in_the_parser_kills_a_plain_process(tmp_path):
    # The reason for the child: opened in-process, the file kills the interpreter.
    deep = _deep_usda(tmp_path / "deep.usda")
    code = f"from pxr import Sdf; Sdf.Layer.FindOrOpen({os.fspath(deep)!r})"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert proc.returncode < 0


def test_a_crash_of_usd_core_is_one_line_naming_the_file(tmp_path):
    deep = _deep_usda(tmp_path / "deep.usda")
    with pytest.raises(KeyframeFileError) as info:
        isolate.call("probe", deep)
    text = str(info.value)
    assert text.startswith(f"{deep}: usd-core crashed reading this file (SIGSEGV)")
    assert "\n" not in text


def test_a_runaway_allocation_fails_fast_under_the_memory_limit():
    # Without a limit this crate file allocates until it is stopped (tests/data/usd/README.md).
    bad = DATA / "RiggedSimple.corrupt.usdc"
    with pytest.raises(KeyframeFileError) as info:
        isolate.call("probe", bad, timeout=60)
    assert str(info.value).startswith(f"{bad}: usd-core cannot read it: ")
    assert "bad_alloc" in str(info.value)
    assert "\n" not in str(info.value)


def test_a_hang_is_stopped_at_the_timeout(tmp_path):
    # The probe opens whatever it is given (the reader checks files first): a FIFO
    # blocks its open, which is what a hang looks like from outside.
    fifo = tmp_path / "pipe.usda"
    os.mkfifo(fifo)
    with pytest.raises(KeyframeFileError) as info:
        isolate.call("probe", fifo, timeout=3)
    assert str(info.value) == (f"{fifo}: usd-core took longer than 3 s and was stopped; "
                               "the file is too large or malformed")


def test_a_good_file_answers():
    reply = isolate.call("probe", DATA / "CesiumMan.usdz")
    assert reply.data == {"format": "usdz", "root_prims": ["CesiumMan"]}


def test_replies_are_never_unpickled():
    # An object array is stored pickled: decoding refuses it instead of running it.
    blob = isolate.encode({"ok": 1}, {"evil": np.array([object()], dtype=object)})
    with pytest.raises(ValueError):
        isolate.decode(blob)
    data, arrays = isolate.decode(isolate.encode({"ok": 1}, {"a": np.arange(3.0)}))
    assert data == {"ok": 1} and arrays["a"].tolist() == [0.0, 1.0, 2.0]


def test_no_pxr_variable_reaches_the_child(monkeypatch):
    monkeypatch.setenv("PXR_PLUGINPATH_NAME", "/tmp/evil")
    monkeypatch.setenv("PXR_AR_DEFAULT_SEARCH_PATH", "/")
    env = isolate._environment()
    assert not [k for k in env if k.startswith("PXR_")]
    assert env.get("PATH") == os.environ.get("PATH")


def test_without_usd_core_the_error_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setattr(isolate, "usd_available", lambda: False)
    with pytest.raises(KeyframeFileError) as info:
        isolate.call("probe", tmp_path / "a.usda")
    assert str(info.value) == (f"{tmp_path / 'a.usda'}: reading USD files needs Pixar's "
                               "usd-core: pip install 'quatlab[usd]'")
    assert U.usd_available()
