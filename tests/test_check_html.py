"""``quatlab check --html FILE`` and the rankings: one self-contained page drawn from the report.

The page is parsed with the standard library's HTML parser: nothing in it may
reach the network, and each file's dope sheet must hold a mark per finding of
the JSON report made by the same run, where its times say.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter, defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest
import report_schema
from library import small_library

from quatlab.app.commands.cli import main
from quatlab.app.io.reports import html as H
from quatlab.app.io.tracks import REPORT_KINDS

ROOT = Path(__file__).resolve().parents[1]
GLTF = ROOT / "tests" / "data" / "gltf"
HAN = re.compile(r"[\u4e00-\u9fff]")


class Page(HTMLParser):
    """Every start tag with its attributes, and which file heading each mark follows."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.marks: dict[str, list[dict]] = defaultdict(list)
        self._file = None
        self._in_h3 = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "h3":
            self._in_h3 = True
        if tag == "rect" and attrs.get("class") == "mark":
            self.marks[self._file].append(attrs)

    def handle_endtag(self, tag):
        if tag == "h3":
            self._in_h3 = False

    def handle_data(self, data):
        if self._in_h3:
            self._file = data


@pytest.fixture
def lib(tmp_path):
    root = small_library(tmp_path / "lib")
    shutil.copy(GLTF / "CesiumMilkTruck.glb", root / "truck.glb")
    return root


def _run(capfd, lib, page, *extra):
    status = main([*extra, "check", str(lib), "--json", "--html", str(page)])
    return status, report_schema.folder_report(capfd.readouterr().out)


def test_every_kind_has_a_family_and_a_colour():
    assert set(H.FAMILIES) == set(REPORT_KINDS)
    assert set(H.FAMILIES.values()) | {"other"} == set(H.FAMILY_STYLE)


def test_the_page_reaches_nothing_outside_itself(lib, tmp_path, capfd):
    page = tmp_path / "r.html"
    assert _run(capfd, lib, page)[0] == 2
    text = page.read_text(encoding="utf-8")
    parser = Page()
    parser.feed(text)
    tags = {tag for tag, _attrs in parser.tags}
    assert not tags & {"script", "link", "img", "iframe", "object", "embed", "image", "use"}
    for _tag, attrs in parser.tags:
        assert "src" not in attrs
        assert attrs.get("href", "#").startswith("#")
    assert "url(" not in text and "@import" not in text and "http" not in text


def test_a_mark_per_finding_where_its_times_say(lib, tmp_path, capfd):
    page = tmp_path / "r.html"
    _status, lines = _run(capfd, lib, page)
    parser = Page()
    parser.feed(page.read_text(encoding="utf-8"))
    flagged = [line for line in lines if line.get("status") == "findings"]
    assert {line["file"] for line in flagged} == set(parser.marks)
    for line in flagged:
        marks = parser.marks[line["file"]]
        kinds = Counter(f["kind"] for t in line["details"] for f in t["findings"])
        assert Counter(m["data-kind"] for m in marks) == kinds == Counter(line["kinds"])
    # By hand: tri.gltf's one track runs from 0 to 1 s and flips between 0.75 and 1 s;
    # the strip's time axis spans x = 250 .. 940.
    (mark,) = parser.marks[str(lib / "tri.gltf")]
    assert float(mark["x"]) == pytest.approx(250 + 0.75 * 690)
    assert float(mark["width"]) == pytest.approx(0.25 * 690)
    assert mark["fill"] == H.FAMILY_STYLE["sign"][0]


def test_the_rankings_count_what_the_lines_say(lib, tmp_path, capfd):
    _status, lines = _run(capfd, lib, tmp_path / "r.html")
    summary = lines[-1]["summary"]
    files = [line for line in lines if line.get("findings")]
    assert [r["file"] for r in summary["top_files"]] == [
        line["file"] for line in sorted(files, key=lambda x: (-x["findings"], x["file"]))]
    per_joint = Counter()
    for line in files:
        for track in line["details"]:          # with --html: every track, named or not
            if track["node"] is not None and track["findings"]:
                per_joint[track["node"]] += len(track["findings"])
    assert {r["joint"]: r["findings"] for r in summary["top_joints"]} == dict(per_joint)
    assert summary["top_joints"][0]["joint"] == "LeftHip"   # the mocap file's worst joint
    assert sum(summary["kinds"].values()) == sum(r["findings"] for r in summary["top_files"])


def test_the_text_summary_ranks_too(lib, capfd):
    assert main(["check", str(lib)]) == 2
    out = capfd.readouterr().out.splitlines()
    at = out.index("files with the most findings:")
    assert out[at + 1].split() == ["41", str(lib / "walk.bvh")]
    assert "joints with the most findings:" in out


def test_the_page_speaks_the_language_in_use(lib, tmp_path, capfd):
    page = tmp_path / "zh.html"
    _run(capfd, lib, page, "--lang", "zh_CN")
    text = page.read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in text and HAN.search(text)
    english = ("Rotation keyframe check", "Findings by kind", "Files with the most findings",
               "Joints with the most findings", "Dope sheet", "could not be read", "hemisphere")
    assert not [words for words in english if words in text]


def test_an_existing_page_is_kept_without_force(lib, tmp_path, capfd):
    page = tmp_path / "r.html"
    page.write_text("keep")
    assert main(["check", str(lib), "--html", str(page)]) == 2
    assert "--force" in capfd.readouterr().err and page.read_text() == "keep"
