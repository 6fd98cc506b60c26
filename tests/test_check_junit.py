"""``quatlab check --junit FILE``: JUnit XML parsed by xml.etree, held to the shape CI servers read.

The test cases and failures are compared with the JSON report of the same
check (validated against the schema), one track and one finding at a time.
"""

from __future__ import annotations

import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import report_schema
from bvh_oracle import FREEBVH, MOCAPBANK
from junit_shape import check_shape

from quatlab.app.commands.cli import main

ROOT = Path(__file__).resolve().parents[1]
TRI = ROOT / "tests" / "data" / "gltf" / "AnimatedTriangle.gltf"


def junit(path) -> ET.Element:
    root = ET.parse(path).getroot()
    check_shape(root)
    return root


def test_one_file_a_case_per_track_a_failure_per_finding(tmp_path, capsys):
    out = tmp_path / "report.xml"
    assert main(["check", str(TRI), "--junit", str(out)]) == 1
    (suite,) = junit(out)
    assert suite.get("name") == str(TRI)
    (case,) = suite
    assert case.get("classname") == str(TRI) and case.get("name") == "0: animation #0, node #0"
    (failure,) = case
    # The file's sampler times are 0, 0.25, 0.5, 0.75, 1 and keys 3 and 4 flip sign.
    assert failure.get("type") == "sign_flip"
    assert failure.get("message") == "sign_flip at keys 3-4 (t = 0.75-1 s)"
    assert "SLERP" in failure.text and "NLERP" in failure.text
    capsys.readouterr()


def _folder(tmp_path) -> Path:
    root = tmp_path / "lib"
    (root / "sub").mkdir(parents=True)
    shutil.copy(MOCAPBANK, root / "walk.bvh")
    shutil.copy(FREEBVH, root / "sub" / "clean.bvh")
    shutil.copy(TRI, root / "tri.gltf")
    (root / "broken.csv").write_text("time,w,x,y,z\n0,1,0,0,zero\n")
    os.mkfifo(root / "pipe.bvh")
    return root


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_folder_cases_and_failures_match_the_json_report(tmp_path, capfd, jobs):
    lib = _folder(tmp_path)
    xml = tmp_path / "r.xml"
    assert main(["check", str(lib), "--json", "--junit", str(xml), "--jobs", jobs]) == 2
    lines = report_schema.folder_report(capfd.readouterr().out)
    by_file = {line["file"]: line for line in lines if "file" in line}
    suites = {s.get("name"): s for s in junit(xml)}
    assert set(suites) == set(by_file)
    for name, line in by_file.items():
        suite = suites[name]
        if line["status"] == "skipped":
            (case,) = suite
            assert case.find("skipped").get("message") == line["reason"]
        elif line["status"] == "unreadable":
            (case,) = suite
            assert case.find("error").get("message") == line["error"]
        else:
            cases = suite.findall("testcase")
            assert len(cases) == line["tracks"] == len(line["details"])
            for case, track in zip(cases, line["details"], strict=True):
                failures = case.findall("failure")
                assert [(f.get("type"), f.text) for f in failures] == [
                    (f["kind"], f["message"]) for f in track["findings"]]
    walk = suites[str(lib / "walk.bvh")]
    assert int(walk.get("failures")) == 3 and sum(
        len(c.findall("failure")) for c in walk) == by_file[str(lib / "walk.bvh")]["findings"]


def test_jobs_do_not_change_the_junit_file(tmp_path, capfd):
    lib = _folder(tmp_path)
    for jobs in ("1", "2"):
        main(["check", str(lib), "--junit", str(tmp_path / f"{jobs}.xml"), "--jobs", jobs])
    capfd.readouterr()
    assert (tmp_path / "1.xml").read_bytes() == (tmp_path / "2.xml").read_bytes()


def test_an_unreadable_file_is_an_error_case(tmp_path, capsys):
    bad = tmp_path / "bad.glb"
    bad.write_bytes(b"not a glb at all")
    out = tmp_path / "r.xml"
    assert main(["check", str(bad), "--junit", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(bad) in err[0]
    (suite,) = junit(out)
    (case,) = suite
    assert case.find("error").get("type") == "unreadable" and str(bad) in case.find(
        "error").get("message")


def test_an_existing_report_is_kept_without_force(tmp_path, capsys):
    out = tmp_path / "r.xml"
    out.write_text("keep me")
    assert main(["check", str(TRI), "--junit", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--force" in err[0]
    assert out.read_text() == "keep me"
    assert main(["check", str(TRI), "--junit", str(out), "--force"]) == 1
    junit(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.xml"]   # no temporary left


def test_a_report_that_cannot_be_written_is_one_line(tmp_path, capsys):
    out = tmp_path / "missing" / "r.xml"
    assert main(["check", str(TRI), "--junit", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot write" in err[0] and "Traceback" not in err[0]


def test_names_with_control_characters_and_other_languages_stay_xml(tmp_path, capfd):
    lib = tmp_path / "lib"
    lib.mkdir()
    shutil.copy(TRI, lib / "a\x01b.gltf")
    out = tmp_path / "r.xml"
    assert main(["--lang", "zh_CN", "check", str(lib), "--junit", str(out)]) == 1
    capfd.readouterr()
    (suite,) = junit(out)
    assert suite.get("name") == str(lib / "a\\x01b.gltf")
    text = out.read_text(encoding="utf-8")
    assert not any("\u4e00" <= c <= "\u9fff" for c in text)   # the report's texts are English
