"""The report contract (docs/report.md): the shipped JSON Schema, its kinds, what it refuses.

The outputs of ``quatlab check --json`` that the rest of the suite produces are
validated where they are made (``tests/report_schema.py``); this file checks the
schema itself: it is a valid draft 2020-12 schema shipped in the package, its
finding kinds are the code's, and it refuses what a consumer must not be sent.
"""

from __future__ import annotations

import copy
import fnmatch
import json
from pathlib import Path

import numpy as np
import pytest
import report_schema
import tomllib
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from quatlab.app.commands.cli import main
from quatlab.app.io.bvh.keyframes import EULER_KINDS
from quatlab.app.io.reports import schema as S
from quatlab.app.io.track_audit import audit_track
from quatlab.app.io.tracks import FINDING_KINDS, REPORT_KINDS, Track, TrackReport

ROOT = Path(__file__).resolve().parents[1]
TRI = ROOT / "tests" / "data" / "gltf" / "AnimatedTriangle.gltf"


def test_the_schema_is_draft_2020_12_and_versioned():
    schema = S.load_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    # One version, written twice in the file: the $id and the const a report must carry.
    assert schema["$defs"]["schema_id"]["const"] == schema["$id"] == S.schema_id()
    major, minor = schema["$id"].rsplit(":", 1)[1].split(".")
    assert major.isdigit() and minor.isdigit()


def test_the_kinds_are_the_codes_kinds():
    enum = S.load_schema()["$defs"]["finding_kind"]["enum"]
    assert enum == list(REPORT_KINDS)
    assert set(FINDING_KINDS) | set(EULER_KINDS.values()) | {"more"} == set(enum)


def test_a_runtime_rows_kinds_are_the_findings_and_the_runtime_row():
    from quatlab.app.io.runtime_check import RUNTIME_KIND  # noqa: PLC0415

    defs = S.load_schema()["$defs"]
    assert defs["runtime_table"]["properties"]["rows"]["items"]["properties"]["kind"] == {
        "$ref": "#/$defs/runtime_row_kind"}
    assert defs["runtime_row_kind"]["anyOf"] == [{"$ref": "#/$defs/finding_kind"},
                                                 {"const": RUNTIME_KIND}]


def test_the_schema_is_shipped_as_package_data():
    """The file is read through importlib.resources, and pyproject's package-data takes it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    globs = config["package-data"]["quatlab.assets"]
    folder = ROOT / config["package-dir"]["quatlab.assets"]
    shipped = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.schema.json"))
    assert shipped == ["schema/check-report.schema.json", "schema/compare-report.schema.json"]
    assert all(any(fnmatch.fnmatch(name, g) for g in globs) for name in shipped)
    for name, path in zip((S.CHECK, S.COMPARE), shipped, strict=True):
        assert json.loads(S.schema_text(name)) == json.loads((folder / path).read_text())


def test_the_compare_schema_is_draft_2020_12_versioned_and_holds_the_codes_values():
    from quatlab.app.model.rig_compare import CAUSES  # noqa: PLC0415

    schema = S.load_schema(S.COMPARE)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    assert schema["$defs"]["schema_id"]["const"] == schema["$id"] == S.schema_id(S.COMPARE)
    assert schema["$id"].startswith("urn:quatlab:compare-report:")
    assert schema["$defs"]["cause"]["enum"] == list(CAUSES)


def _compare_doc(capsys) -> dict:
    truck = ROOT / "tests" / "data" / "gltf" / "CesiumMilkTruck.glb"
    assert main(["compare", str(truck), str(truck), "--json"]) == 0
    return report_schema.compare_report(capsys.readouterr().out)


def test_a_compare_report_keeps_its_contract_and_a_broken_one_is_refused(capsys):
    doc = _compare_doc(capsys)
    # A file against itself: the truck's flips are the source's own (rig_compare's doctest).
    assert doc["schema"] == S.schema_id(S.COMPARE) and doc["introduced"] == 0
    segment = doc["joints"][0]["segments"][0]
    assert segment["cause"] == "source" and segment["converted_keys"] == [14, 15]
    for mutate in (lambda d: d.update(extra=1),
                   lambda d: d["joints"][0]["segments"][0].update(cause="flip"),
                   lambda d: d["joints"][0].update(max_spec_deg=-1.0),
                   lambda d: d["source_clip"].pop("name"),
                   lambda d: d.update(schema="urn:quatlab:compare-report:0.9")):
        bad = copy.deepcopy(doc)
        mutate(bad)
        with pytest.raises(AssertionError, match="not a valid compare report"):
            report_schema.compare_report(json.dumps(bad))


def test_check_schema_prints_the_shipped_schema(capsys):
    assert main(["check", "--schema"]) == 0
    assert json.loads(capsys.readouterr().out) == S.load_schema()


def _file_report(capsys) -> dict:
    assert main(["check", str(TRI), "--json"]) == 1
    return report_schema.file_report(capsys.readouterr().out)


def test_finding_times_are_the_tracks_times_at_its_keys(capsys):
    doc = _file_report(capsys)
    (finding,) = doc["tracks"][0]["findings"]
    # AnimatedTriangle's sampler input is 0, 0.25, 0.5, 0.75, 1.0 (the file's accessor 2).
    assert finding["keys"] == [3, 4] and finding["times"] == [0.75, 1.0]
    assert doc["schema"] == S.schema_id()


@pytest.mark.parametrize("mutate, where", [
    (lambda d: d["tracks"][0]["findings"][0].update(kind="sign_flipped"), "kind"),
    (lambda d: d["tracks"][0]["findings"][0].pop("message"), "message"),
    (lambda d: d["tracks"][0]["findings"][0].update(keys=[]), "keys"),
    (lambda d: d.update(extra=1), "extra"),
    (lambda d: d.update(schema="urn:quatlab:check-report:0.9"), "schema"),
    (lambda d: d["tracks"][0].update(keys=-1), "keys"),
    (lambda d: d["tracks"][0].pop("storage"), "storage"),
])
def test_a_file_report_that_breaks_the_contract_is_refused(capsys, mutate, where):
    doc = _file_report(capsys)
    bad = copy.deepcopy(doc)
    mutate(bad)
    with pytest.raises(AssertionError, match="not a valid file_report"):
        report_schema.validate(bad, "file_report")


GOOD_LINES = [
    {"file": "a.bvh", "status": "findings", "tracks": 2, "findings": 3,
     "kinds": {"sign_flip": 2, "euler_wrap": 1}, "error": None},
    {"file": "b.csv", "status": "ok", "tracks": 1, "findings": 0, "kinds": {}, "error": None},
    {"file": "c.glb", "status": "unreadable", "tracks": 0, "findings": 0, "kinds": {},
     "error": "c.glb: not a GLB file"},
    {"file": "d.bvh", "status": "skipped", "reason": "broken symlink"},
]


@pytest.mark.parametrize("line", GOOD_LINES)
def test_folder_lines_that_keep_the_contract(line):
    report_schema.validate(line, "folder_line")


@pytest.mark.parametrize("line", [
    {**GOOD_LINES[0], "kinds": {"wobble": 1}},               # a kind nobody listed
    {**GOOD_LINES[0], "findings": 0},                        # findings without a finding
    {**GOOD_LINES[1], "findings": 2},                        # ok with findings
    {**GOOD_LINES[1], "error": "b.csv: odd"},                # ok with an error
    {**GOOD_LINES[2], "error": None},                        # unreadable without why
    {**GOOD_LINES[1], "status": "clean"},
    {**GOOD_LINES[3], "reason": None},
    {"summary": {"folder": "x", "files": 1}},                # a summary missing counts
])
def test_folder_lines_that_break_the_contract(line):
    with pytest.raises(AssertionError, match="not a valid folder_line"):
        report_schema.validate(line, "folder_line")


unit = st.lists(st.floats(-1, 1, allow_nan=False), min_size=4, max_size=4)
key = st.one_of(unit, st.just([0.0, 0.0, 0.0, 0.0]), st.just([np.nan, 0.0, 0.0, 1.0]))
time = st.one_of(st.floats(-10, 10, allow_nan=False), st.just(np.nan), st.just(np.inf))


@given(st.lists(st.tuples(time, key), min_size=1, max_size=12),
       st.sampled_from(["LINEAR", "STEP"]))
def test_any_audited_track_reports_within_the_contract(keys, interpolation):
    times, values = zip(*keys, strict=True)
    track = Track(times=list(times), values=list(values), interpolation=interpolation)
    report = TrackReport(track, tuple(audit_track(track)))
    d = json.loads(json.dumps(report.as_dict(), allow_nan=False))
    report_schema.validate(d, "track_with_messages")
    for f, found in zip(d["findings"], report.findings, strict=True):
        want = [float(track.times[k]) for k in found.keys]   # the track's own times
        assert f["times"] == [t if np.isfinite(t) else None for t in want]
    bare = report.as_dict(messages=False)
    assert all("message" not in f for f in bare["findings"])
    report_schema.validate(json.loads(json.dumps(bare)), "track")
