"""Bad input in Chinese: one stderr line in zh_CN that names the file, exit 2; English unchanged.

Hostile and broken files (docs/formats.md) and bad command lines go through the
readers' and argparse's messages, which are translated where they are raised
(docs/architecture.md, "Translations"). JSON output stays English.
"""

from __future__ import annotations

import argparse
import gettext
import json
import re

import pytest
import report_schema

from quatlab.app import i18n
from quatlab.app.commands.cli import main

HAN = re.compile(r"[\u4e00-\u9fff]")

_BVH_HEAD = ("HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n"
             " End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\n")


def _truncated_bvh(tmp_path):
    path = tmp_path / "cut.bvh"
    path.write_text(_BVH_HEAD + "Frames: 3\nFrame Time: 0.033\n0 0 0\n")
    return ["check", str(path)], path.name, "truncated motion"


def _bvh_without_frame_time(tmp_path):
    path = tmp_path / "no_time.bvh"
    path.write_text(_BVH_HEAD + "Frames: 1\n")
    return ["check", str(path)], path.name, "missing 'Frame Time:'"


def _gltf_buffer_outside_its_folder(tmp_path):
    (tmp_path / "secret.bin").write_bytes(bytes(8))  # there, and must not be read
    (tmp_path / "asset").mkdir()
    path = tmp_path / "asset" / "escape.gltf"
    path.write_text(json.dumps({
        "asset": {"version": "2.0"},
        "buffers": [{"uri": "../secret.bin", "byteLength": 8}],
        "bufferViews": [{"buffer": 0, "byteLength": 8}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR",
                       "min": [0], "max": [1]}],
        "nodes": [{}],
        "animations": [{"samplers": [{"input": 0, "output": 0}],
                        "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}]}],
    }))
    return ["check", str(path)], path.name, "leads outside the asset's folder"


def _gltf_node_cycle(tmp_path):
    path = tmp_path / "cycle.gltf"
    path.write_text(json.dumps({"asset": {"version": "2.0"},
                                "nodes": [{"children": [1]}, {"children": [0]}],
                                "scenes": [{"nodes": [0]}]}))
    return ["pose", str(path), "--time", "0"], path.name, "has a cycle"


def _csv_bad_number(tmp_path):
    path = tmp_path / "keys.csv"
    path.write_text("time,w,x,y,z\n0,1,0,0,0\n1,abc,0,0,0\n")
    return ["check", str(path)], path.name, "is not a number"


def _json_tracks_not_an_array(tmp_path):
    path = tmp_path / "tracks.json"
    path.write_text('{"tracks": {}}')
    return ["check", str(path)], path.name, "non-empty array"


FILES = [_truncated_bvh, _bvh_without_frame_time, _gltf_buffer_outside_its_folder,
         _gltf_node_cycle, _csv_bad_number, _json_tracks_not_an_array]


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


def _run(argv, capsys):
    """Exit status and stderr of ``quatlab ARGV``; argparse's errors exit through SystemExit."""
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code
    return status, capsys.readouterr().err


def _one_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("make", FILES, ids=lambda f: f.__name__.strip("_"))
def test_a_bad_file_is_one_chinese_line_naming_it(tmp_path, capsys, make):
    argv, name, english = make(tmp_path)
    status, err = _run(["--lang", "zh_CN", *argv], capsys)
    line = _one_line(err)
    assert status == 2
    assert name in line and HAN.search(line), line
    assert english not in line, line  # the problem is said in Chinese, not only the prefix
    assert "错误" in line  # "error" itself


@pytest.mark.parametrize("make", FILES, ids=lambda f: f.__name__.strip("_"))
def test_the_same_file_in_english_is_unchanged(tmp_path, capsys, make):
    argv, name, english = make(tmp_path)
    status, err = _run(["--lang", "en", *argv], capsys)
    line = _one_line(err)
    assert status == 2
    assert line.startswith(f"quatlab {argv[0]}: error: ") and name in line and english in line
    assert not HAN.search(line), line


@pytest.mark.parametrize("argv, names, english", [
    (["chek"], ["chek"], "invalid choice"),                            # an unknown command
    (["check", "--bogus"], ["--bogus"], "unrecognized arguments"),
    (["fix"], ["IN", "OUT"], "the following arguments are required"),
    (["check", "--order"], ["--order"], "expected one argument"),
    (["check", "--order", "abc", "x.csv"], ["--order", "'abc'"], "invalid choice"),
    (["curves", "--samples", "many"], ["--samples", "'many'"], "invalid int value"),
    (["curves", "--q0", "1", "0"], ["--q0"], "expected 4 arguments"),  # argparse's plural
])
def test_argparse_errors_in_chinese_and_english(capsys, argv, names, english):
    status, err = _run(["--lang", "zh_CN", *argv], capsys)
    zh = _one_line(err)
    assert status == 2 and HAN.search(zh) and english not in zh, zh
    assert all(n in zh for n in names), zh
    status, err = _run(["--lang", "en", *argv], capsys)
    en = _one_line(err)
    assert status == 2 and english in en and not HAN.search(en), en
    assert all(n in en for n in names), en


def test_screenshot_t_out_of_range_in_chinese_and_english(capsys, tmp_path):
    out = str(tmp_path / "shot.png")
    status, err = _run(["--lang", "zh_CN", "screenshot", "--t", "2", "-o", out], capsys)
    zh = _one_line(err)
    assert status == 2 and "--t" in zh and "2.0" in zh and HAN.search(zh) and "must" not in zh
    status, err = _run(["screenshot", "--lang", "en", "--t", "2", "-o", out], capsys)
    assert status == 2
    assert _one_line(err) == "quatlab screenshot: error: --t must lie in [0, 1], got 2.0"


def test_argparse_is_left_as_it_was(capsys):
    # argparse is pointed at QuatLab's catalog only while a QuatLab parser parses.
    _run(["--lang", "zh_CN", "check", "--bogus"], capsys)
    assert argparse._ is gettext.gettext and argparse.ngettext is gettext.ngettext
    plain = argparse.ArgumentParser(prog="other")
    with pytest.raises(SystemExit):
        plain.parse_args(["--bogus"])
    assert "unrecognized arguments: --bogus" in capsys.readouterr().err


def test_check_dir_json_errors_are_english_and_the_summary_chinese(tmp_path, capfd):
    _csv_bad_number(tmp_path)
    _gltf_buffer_outside_its_folder(tmp_path)
    assert main(["--lang", "zh_CN", "check", "--json", "--jobs", "1", str(tmp_path)]) == 2
    captured = capfd.readouterr()
    rows = report_schema.folder_report(captured.out)
    errors = {r["file"].rsplit("/", 1)[-1]: r["error"] for r in rows if "error" in r}
    assert "is not a number" in errors["keys.csv"]
    assert "leads outside the asset's folder" in errors["escape.gltf"]
    assert not HAN.search(captured.out), captured.out
    assert HAN.search(captured.err)  # the summary line is for the person
    assert i18n.current_language() == "zh_CN"  # and the language came back afterwards
