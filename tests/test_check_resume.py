"""``quatlab check DIR --resume REPORT.jsonl``: reuse what has not changed (size, time, SHA-256).

In-process runs with ``check_one`` replaced by a function that fails the test,
so "redoes nothing" means nothing was read again; ``--jobs 2`` forks after
the replacement, so its workers inherit it too.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import report_schema
from library import small_library

from quatlab.app.commands import check_dir as C
from quatlab.app.commands.cli import main

ROOT = Path(__file__).resolve().parents[1]
GLTF = ROOT / "tests" / "data" / "gltf"


@pytest.fixture
def lib(tmp_path):
    root = small_library(tmp_path / "lib")
    (root / "spin.csv").write_text("time,w,x,y,z\n0,1,0,0,0\n1,0.9,0,0,0.43589\n")
    return root


def _run(capfd, *argv) -> tuple[int, list[dict]]:
    status = main(["check", *map(str, argv), "--json"])
    return status, report_schema.folder_report(capfd.readouterr().out)


def _first(capfd, lib, tmp_path, *extra, name="first.jsonl") -> Path:
    """A first sweep's --json report, saved as a file."""
    report = tmp_path / name
    _status, lines = _run(capfd, lib, *extra)
    report.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return report


def _forbid_reading(monkeypatch, allowed=()):
    real = C.check_one

    def check_one(path, *args, **kwargs):
        if Path(path).name not in allowed:
            raise AssertionError(f"{path} was checked again")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(C, "check_one", check_one)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_resumed_sweep_redoes_nothing_but_the_unreadable(lib, tmp_path, capfd, monkeypatch,
                                                           jobs):
    report = _first(capfd, lib, tmp_path)
    _forbid_reading(monkeypatch, allowed={"bad.csv"})   # what was missing may be there now
    status, lines = _run(capfd, lib, "--resume", report, "--jobs", jobs)
    assert status == 2
    files = {line["file"]: line for line in lines if "file" in line}
    assert {Path(f).name for f, line in files.items() if line.get("resumed")} == {
        "walk.bvh", "clean.bvh", "tri.gltf", "spin.csv"}
    assert lines[-1]["summary"]["resumed"] == 4 and lines[-1]["summary"]["files"] == 5
    earlier = {line["file"]: line for line in report_schema.folder_report(report.read_text())
               if "file" in line}
    for name, line in files.items():
        if line.pop("resumed", False):
            assert line == earlier[name]


def test_a_changed_file_is_checked_again_even_with_the_same_size_and_time(lib, tmp_path, capfd,
                                                                         monkeypatch):
    report = _first(capfd, lib, tmp_path)
    spin = lib / "spin.csv"
    st = os.stat(spin)
    # Same length, same time stamp, other content: only the hash can tell.
    spin.write_text(spin.read_text().replace("0.9,0,0,0.43589", "0.9,0,0,-.43589"))
    assert os.stat(spin).st_size == st.st_size
    os.utime(spin, ns=(st.st_atime_ns, st.st_mtime_ns))
    _forbid_reading(monkeypatch, allowed={"bad.csv", "spin.csv"})
    _status, lines = _run(capfd, lib, "--resume", report)
    line = next(line for line in lines if line.get("file") == str(spin))
    assert "resumed" not in line and line["inputs"][0]["sha256"] != next(
        e for e in report_schema.folder_report(report.read_text())
        if e.get("file") == str(spin))["inputs"][0]["sha256"]


def test_an_interrupted_report_is_resumed_from_its_whole_lines(lib, tmp_path, capfd,
                                                               monkeypatch):
    report = _first(capfd, lib, tmp_path)
    lines = report.read_text().splitlines()[:-1]          # no summary: the sweep was killed
    cut = next(i for i, line in enumerate(lines) if "tri.gltf" in line)
    lines[cut] = lines[cut][: len(lines[cut]) // 2]       # killed while writing this line
    report.write_text("\n".join(lines))
    _forbid_reading(monkeypatch, allowed={"bad.csv", "tri.gltf"})
    status, again = _run(capfd, lib, "--resume", report)
    assert status == 2 and again[-1]["summary"]["resumed"] == 3


def test_junit_needs_full_details_so_a_bare_report_is_redone(lib, tmp_path, capfd, monkeypatch):
    report = _first(capfd, lib, tmp_path)
    _forbid_reading(monkeypatch, allowed={"bad.csv", "walk.bvh", "clean.bvh", "tri.gltf",
                                          "spin.csv"})
    _status, lines = _run(capfd, lib, "--resume", report, "--junit", tmp_path / "r.xml")
    assert lines[-1]["summary"]["resumed"] == 0
    full = _first(capfd, lib, tmp_path, "--junit", tmp_path / "r2.xml", name="full.jsonl")
    _forbid_reading(monkeypatch, allowed={"bad.csv"})
    _status, lines = _run(capfd, lib, "--resume", full, "--junit", tmp_path / "r3.xml")
    assert lines[-1]["summary"]["resumed"] == 4


def test_a_missing_report_is_one_line(lib, tmp_path, capfd):
    assert main(["check", str(lib), "--resume", str(tmp_path / "nope.jsonl")]) == 2
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nope.jsonl: cannot read" in err[0]


def test_text_output_resumes_too(lib, tmp_path, capfd, monkeypatch):
    report = _first(capfd, lib, tmp_path)
    _forbid_reading(monkeypatch, allowed={"bad.csv"})
    assert main(["check", str(lib), "--resume", str(report)]) == 2
    out = capfd.readouterr().out
    assert f"{lib / 'walk.bvh'}: 19 rotation tracks, 41 findings" in out
