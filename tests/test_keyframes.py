"""Tests for quatlab.app.io.tracks (model, audit, fix, helpers) and CSV/JSON tracks.

Real glTF assets come from tests/data/gltf (see its README); expected key
values are the ones published with them, not values computed by the code
under test.
"""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import json
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from quatlab.app.io import atomic, json_text
from quatlab.app.io import keyframe_files as KF
from quatlab.app.io import track_audit as TA
from quatlab.app.io import tracks as kt
from quatlab.math.quaternion import from_xyzw, to_xyzw

DATA = Path(__file__).parent / "data" / "gltf"
REAL = ["AnimatedTriangle", "BoxAnimated", "RiggedSimple", "RiggedFigure"]


def test_doctests():
    for name in ("quatlab.app.io.track_audit", "quatlab.app.io.json_text"):
        result = doctest.testmod(importlib.import_module(name))
        assert result.attempted > 0 and result.failed == 0


def _track(values, times=None, **kw):
    values = np.asarray(values, dtype=float)
    if times is None:
        times = np.arange(len(values), dtype=float)
    return kt.Track(times=times, values=values, **kw)


# --------------------------------------------------------------------------- real files


def test_animated_triangle_is_decoded_as_published():
    doc = KF.load_keyframes(DATA / "AnimatedTriangle.gltf")
    assert doc.format == "gltf"
    (track,) = doc.tracks
    assert (track.node_index, track.node_name, track.animation_index) == (0, None, 0)
    assert track.interpolation == "LINEAR" and track.path == "rotation"
    np.testing.assert_array_equal(track.times, [0, 0.25, 0.5, 0.75, 1.0])
    published_xyzw = [[0, 0, 0, 1], [0, 0, 0.707, 0.707], [0, 0, 1, 0], [0, 0, 0.707, -0.707],
                      [0, 0, 0, 1]]
    np.testing.assert_array_equal(to_xyzw(track.values), np.float32(published_xyzw))
    findings = TA.audit_track(track)
    assert [(f.kind, f.keys) for f in findings] == [("sign_flip", (3, 4))]
    message = findings[0].message
    assert "SLERP" in message and "NLERP" in message
    assert "90.0 deg" in message and "270.0 deg" in message


def test_box_animated_is_a_half_turn():
    doc = KF.load_keyframes(DATA / "BoxAnimated.gltf")
    (track,) = doc.tracks  # the translation channel is not a rotation track
    assert track.node_index == 2
    np.testing.assert_array_equal(track.times, np.float32([1.25, 2.5]))
    np.testing.assert_allclose(
        to_xyzw(track.values), [[0, 0, 0, -1], [1, 0, 0, 4.49e-11]], rtol=0, atol=1e-12
    )
    findings = TA.audit_track(track)
    assert [(f.kind, f.keys) for f in findings] == [("half_turn", (0, 1))]
    # Stored dot is negative: the SLERP player and naive NLERP spin opposite ways.
    assert "opposite directions" in findings[0].message


@pytest.mark.parametrize("name, count", [("RiggedSimple", 1), ("RiggedFigure", 19)])
def test_rigged_assets_have_no_sign_findings(name, count):
    doc = KF.load_keyframes(DATA / f"{name}.gltf")
    assert len(doc.tracks) == count
    kinds = {f.kind for t in doc.tracks for f in TA.audit_track(t)}
    assert not kinds & {"sign_flip", "half_turn"}
    names = {t.node_name for t in doc.tracks}
    assert None not in names
    if name == "RiggedSimple":
        (track,) = doc.tracks
        assert track.node_name == "Bone.001" and track.node_index == 4
        assert len(track) == 50
        np.testing.assert_allclose(np.diff(track.times), 1 / 24, atol=1e-6)
        assert np.all(track.values[:, 0] < 0)  # every w negative, as published


def test_fix_of_real_files_keeps_rotations(tmp_path):
    for name in REAL:
        src = DATA / f"{name}.gltf"
        out = tmp_path / f"{name}.gltf"
        fixes = KF.fix_file(src, out)
        before = KF.load_keyframes(src).tracks
        after = KF.load_keyframes(out).tracks
        for fix, old, new in zip(fixes, before, after, strict=True):
            r_old = Rotation.from_quat(to_xyzw(old.values))
            r_new = Rotation.from_quat(to_xyzw(new.values))
            assert np.all(r_old.approx_equal(r_new, atol=1e-7))
            np.testing.assert_array_equal(new.times, old.times)
            assert not any(f.kind == "sign_flip" for f in TA.audit_track(new))
            if name != "AnimatedTriangle":
                assert fix.flipped.size == (1 if name == "BoxAnimated" else 0)
    tri = KF.load_keyframes(tmp_path / "AnimatedTriangle.gltf").tracks[0]
    np.testing.assert_array_equal(to_xyzw(tri.values[4]), [0, 0, 0, -1])


# --------------------------------------------------------------------------- Track


def test_track_validation_and_immutability():
    t = _track([[1, 0, 0, 0]])
    assert t.values.dtype == np.float64 and not t.values.flags.writeable
    with pytest.raises(ValueError):
        t.values[0, 0] = 2
    with pytest.raises(ValueError, match="values must have shape"):
        _track([[1, 0, 0]])
    with pytest.raises(ValueError, match="times"):
        kt.Track(times=[[0.0]], values=[[1, 0, 0, 0]])
    with pytest.raises(ValueError, match="2 times but 1 values"):
        kt.Track(times=[0.0, 1.0], values=[[1, 0, 0, 0]])
    with pytest.raises(ValueError, match="interpolation"):
        _track([[1, 0, 0, 0]], interpolation="SLERP")
    with pytest.raises(ValueError, match="in_tangents"):
        _track([[1, 0, 0, 0]], interpolation="CUBICSPLINE")
    with pytest.raises(ValueError, match="in_tangents"):
        _track([[1, 0, 0, 0]], in_tangents=[[0, 0, 0, 0]], out_tangents=[[0, 0, 0, 0]])
    with pytest.raises(ValueError, match="1 in_tangents but 2 values"):
        _track([[1, 0, 0, 0]] * 2, interpolation="CUBICSPLINE",
               in_tangents=[[0, 0, 0, 0]], out_tangents=[[0, 0, 0, 0]] * 2)
    source = np.array([[1.0, 0, 0, 0]])
    t = _track(source)
    source[0, 0] = 5
    assert t.values[0, 0] == 1  # the track owns a copy


def test_track_label():
    assert _track([[1, 0, 0, 0]]).label == "track"
    t = _track([[1, 0, 0, 0]], animation="Walk", animation_index=0, node_name="Hip", node_index=3)
    assert t.label == "animation 'Walk' (#0), node 'Hip' (#3)"
    assert _track([[1, 0, 0, 0]], node_index=2).label == "node #2"
    assert _track([[1, 0, 0, 0]], node_name="Hip").label == "node 'Hip'"


# --------------------------------------------------------------------------- audit


def test_every_finding_kind_with_keys_and_order():
    c = np.sqrt(0.5)
    values = [
        [1, 0, 0, 0],  # 0
        [0, 0, 0, 0],  # 1 zero
        [np.nan, 0, 0, 1],  # 2 non-finite
        [2, 0, 0, 0],  # 3 non-unit
        [-c, 0, 0, -c],  # 4 sign flip from 3
        [0, 1, 0, 0],  # 5 half turn from 4 (dot 0)
    ]
    times = [0, 1, 1, 2, 3, 4]
    findings = TA.audit_track(_track(values, times))
    got = [(f.kind, f.keys) for f in findings]
    assert got == [
        ("time_order", (1, 2)),
        ("zero", (1,)),
        ("non_finite", (2,)),
        ("non_unit", (3,)),
        ("sign_flip", (3, 4)),
        ("half_turn", (4, 5)),
    ]
    for f in findings:
        assert f.as_dict() == {"kind": f.kind, "keys": list(f.keys), "message": f.message}
        assert f.message
    # dot exactly 0: the glTF SLERP sign is undefined.
    assert "undefined" in findings[-1].message


def test_messages_depend_on_interpolation():
    c = np.sqrt(0.5)
    values = [[1, 0, 0, 0], [-c, 0, 0, -c]]
    linear = TA.audit_track(_track(values))[0].message
    step = TA.audit_track(_track(values, interpolation="STEP"))[0].message
    zeros = [[0, 0, 0, 0]] * 2
    cubic = TA.audit_track(
        _track(values, interpolation="CUBICSPLINE", in_tangents=zeros, out_tangents=zeros)
    )[0].message
    assert "short arc (90.0 deg)" in linear and "long way (270.0 deg)" in linear
    assert "STEP holds each key" in step
    assert "cubic spline" in cubic and "270.0 deg" in cubic
    half = [[1, 0, 0, 0], [1e-9, 1, 0, 0]]
    assert "both turn toward q1" in TA.audit_track(_track(half))[0].message
    assert "STEP" in TA.audit_track(_track(half, interpolation="STEP"))[0].message
    assert "cubic spline" in TA.audit_track(
        _track(half, interpolation="CUBICSPLINE", in_tangents=zeros, out_tangents=zeros)
    )[0].message


def test_sign_flip_angles_match_scipy(rng):
    r = Rotation.random(40, random_state=rng)
    q = from_xyzw(r.as_quat())
    q[1::2] *= -np.sign(np.einsum("ij,ij->i", q[1::2], q[::2]))[:, None]  # force dot < 0
    findings = [f for f in TA.audit_track(_track(q)) if f.kind == "sign_flip"]
    assert set(range(0, 40, 2)) <= {f.keys[0] for f in findings}
    for f in findings:
        i = f.keys[0]
        theta = np.degrees((r[i].inv() * r[i + 1]).magnitude())
        assert f"short arc ({theta:.1f} deg)" in f.message
        assert f"long way ({360 - theta:.1f} deg)" in f.message
    # Huge keys (their squares overflow) still get the right angle.
    huge = TA.audit_track(_track([[1e200, 0, 0, 0], [-1e200, -1e200, 0, 0]]))
    assert [(f.kind, f.keys) for f in huge] == [
        ("non_unit", (0,)), ("sign_flip", (0, 1)), ("non_unit", (1,))
    ]
    assert "short arc (90.0 deg)" in huge[1].message


def test_non_finite_tangent_and_non_finite_time():
    values = [[1, 0, 0, 0], [1, 0, 0, 0]]
    tangents = [[0, 0, 0, 0], [np.inf, 0, 0, 0]]
    t = _track(values, [0.0, np.nan], interpolation="CUBICSPLINE",
               in_tangents=tangents, out_tangents=[[0, 0, 0, 0]] * 2)
    findings = TA.audit_track(t)
    assert [(f.kind, f.keys) for f in findings] == [("time_order", (0, 1)), ("non_finite", (1,))]
    assert "not finite" in findings[0].message
    assert "tangent of key 1" in findings[1].message


def test_quantum_widens_the_half_turn_tolerance():
    values = [[1, 0, 0, 0], [0.003, 1, 0, 0]]  # |dot| ~ 0.003: below 1/127
    assert TA.audit_track(_track(values)) == []
    (f,) = TA.audit_track(_track(values, quantum=1 / 127))
    assert f.kind == "half_turn"


def test_audit_file_and_report_dict():
    doc = KF.load_keyframes(DATA / "AnimatedTriangle.gltf")
    (report,) = TA.audit_file(doc)
    d = report.as_dict()
    assert d["keys"] == 5 and d["path"] == "rotation" and d["interpolation"] == "LINEAR"
    assert d["node"] is None and d["node_index"] == 0 and d["animation_index"] == 0
    assert d["findings"][0]["keys"] == [3, 4]
    json.dumps(d, allow_nan=False)


# --------------------------------------------------------------------------- fix


def test_fix_track_flips_tangents_with_their_key():
    values = [[1, 0, 0, 0], [-1, 0, 0, 0], [-1, 0, 0, 0]]
    tin = [[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8], [1, 1, 1, 1]]
    tout = [[-0.1, 0, 0, 0], [0, -0.2, 0, 0], [0, 0, -0.3, 0]]
    t = _track(values, interpolation="CUBICSPLINE", in_tangents=tin, out_tangents=tout)
    fix = TA.fix_track(t)
    assert fix.flipped.tolist() == [1, 2] and fix.normalized.tolist() == [] and fix.changed
    sign = np.array([1, -1, -1])[:, None]
    np.testing.assert_array_equal(fix.fixed.in_tangents, np.array(tin) * sign)
    np.testing.assert_array_equal(fix.fixed.out_tangents, np.array(tout) * sign)
    assert fix.original is t
    assert not TA.fix_track(fix.fixed).changed


def test_fix_track_normalize_skips_bad_keys():
    values = [[2, 0, 0, 0], [0, 0, 0, 0], [np.nan, 0, 0, 0], [0, 0, -3, 0]]
    fix = TA.fix_track(_track(values), normalize=True)
    assert fix.normalized.tolist() == [0, 3]
    np.testing.assert_array_equal(fix.fixed.values[[0, 3]], [[1, 0, 0, 0], [0, 0, -1, 0]])
    assert np.array_equal(fix.fixed.values[1:3], np.array(values)[1:3], equal_nan=True)
    assert TA.fix_track(_track(values)).normalized.size == 0


def test_format_keys():
    assert TA.format_keys([]) == ""
    assert TA.format_keys([3]) == "3"
    assert TA.format_keys(np.array([4, 3, 9])) == "3-4, 9"


def _runs_by_hand(mask, limit):
    """The ranges of ``mask`` written out by walking it one key at a time."""
    runs, first = [], None
    for i, flag in enumerate(list(mask) + [False]):
        if flag and first is None:
            first = i
        elif not flag and first is not None:
            runs.append(f"{first}-{i - 1}" if i - 1 > first else str(first))
            first = None
    total = int(sum(mask))
    shown = runs[:limit]
    rest = total - sum(int(r.split("-")[-1]) - int(r.split("-")[0]) + 1 for r in shown)
    return ", ".join(shown + ([f"... and {rest:,} more ({total:,} keys in all)"] if rest else []))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.booleans(), max_size=60), st.integers(1, 6), st.sampled_from([1, 4, 3000]))
def test_format_keys_of_a_mask_reads_like_its_indices(flags, limit, stretch):
    # Stretching a mask (each key repeated) puts runs across the reader's
    # chunk boundaries (4096, then 16384 entries...).
    mask = np.repeat(np.array(flags, dtype=bool), stretch)
    expected = _runs_by_hand(mask.tolist(), limit)
    assert TA.format_keys(mask, limit=limit) == expected
    assert TA.format_keys(np.flatnonzero(mask), limit=limit) == expected


def test_a_fix_keeps_masks_and_gives_indices_on_demand():
    values = [[1, 0, 0, 0], [-1, 0, 0, 0], [-1, 0, 0, 0], [2, 0, 0, 0]]
    fix = TA.fix_track(_track(values), normalize=True)
    assert fix.flipped_mask.tolist() == [False, True, True, False]
    assert fix.flipped.tolist() == [1, 2] and fix.normalized.tolist() == [3]
    assert TA.format_keys(fix.flipped_mask) == "1-2" and fix.changed
    # The masks are read-only: the indices made from them cannot go stale.
    with pytest.raises(ValueError):
        fix.flipped_mask[:] = False


# --------------------------------------------------------------------------- helpers


def test_json_value_span_and_edit():
    text = '{ "a" : [ 1 , {"b":"x", "b": "last"} ] , "c":{"d":null}, "e": "a\\"b" }'
    s, e = json_text.json_value_span(text, ["a", 1, "b"])
    assert text[s:e] == '"last"'  # the last duplicate key counts, as in json.loads
    s, e = json_text.json_value_span(text, ["c", "d"])
    assert text[s:e] == "null"
    s, e = json_text.json_value_span(text, [])
    assert (s, e) == (0, len(text))
    new = json_text.edit_json_text(text, [(["a", 0], 2.5), (["e"], "ü")])
    assert new == text.replace("[ 1 ,", "[ 2.5 ,").replace('"a\\"b"', '"ü"')
    assert json.loads(new)["a"][0] == 2.5
    for path in (["zz"], ["a", 5], ["a", "b"], ["c", 0], ["c", "d", "x"], ["a", 2]):
        with pytest.raises(ValueError):
            json_text.json_value_span(text, path)
    with pytest.raises(ValueError, match="malformed"):
        json_text.json_value_span('{"a" 1}', ["a"])
    with pytest.raises(ValueError, match="overlapping"):
        json_text.edit_json_text(text, [(["c"], 1), (["c", "d"], 2)])
    with pytest.raises(ValueError):
        json_text.edit_json_text(text, [(["c"], float("nan"))])


def test_atomic_write_replaces_and_cleans_up(tmp_path, monkeypatch):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    atomic.atomic_write(target, b"new")
    assert target.read_bytes() == b"new"
    umask = os.umask(0o022)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic.atomic_write(target, b"newer")
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


def test_atomic_write_retries_a_taken_temporary_name(tmp_path, monkeypatch):
    tokens = iter(["taken", "free"])
    monkeypatch.setattr(atomic.secrets, "token_hex", lambda n: next(tokens))
    (tmp_path / ".out.taken.tmp").write_bytes(b"someone else's")
    atomic.atomic_write(tmp_path / "out", b"data")
    assert (tmp_path / "out").read_bytes() == b"data"
    assert (tmp_path / ".out.taken.tmp").read_bytes() == b"someone else's"


def test_resolve_order():
    assert kt.resolve_order("f", "xyzw", None, "header") == "xyzw"
    assert kt.resolve_order("f", None, "wxyz", "header") == "wxyz"
    assert kt.resolve_order("f", "wxyz", "wxyz", "header") == "wxyz"
    with pytest.raises(kt.KeyframeFileError, match="unknown"):
        kt.resolve_order("f", None, None, "header")
    with pytest.raises(kt.KeyframeFileError, match="header says xyzw"):
        kt.resolve_order("f", "wxyz", "xyzw", "header")
    with pytest.raises(kt.KeyframeFileError, match="'wzyx'"):
        kt.resolve_order("f", "wzyx", None, "header")


# --------------------------------------------------------------------------- CSV and JSON


CSV_HEAD = "\ufeff# exported by hand\r\ntime, x, y, z, w\r\n0.0,0,0,0,1\r\n\r\n"
CSV_XYZW = CSV_HEAD + "0.5,0,0,-0.7071068,-0.7071068\r\n1e0,0,0,1,0\r\n"


def _write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


def test_csv_with_header_order(tmp_path):
    src = _write(tmp_path / "t.csv", CSV_XYZW)
    doc = KF.load_keyframes(src)
    assert doc.format == "csv"
    (t,) = doc.tracks
    np.testing.assert_array_equal(t.times, [0, 0.5, 1])
    np.testing.assert_array_equal(t.values[0], [1, 0, 0, 0])
    assert t.storage == "text" and t.node_name is None
    assert [(f.kind, f.keys) for f in TA.audit_track(t)] == [
        ("sign_flip", (0, 1)), ("sign_flip", (1, 2))
    ]
    out = tmp_path / "fixed.csv"
    doc.write_copy(out, [TA.fix_track(t).fixed])
    data = out.read_bytes()
    assert data.startswith(CSV_HEAD.encode("utf-8"))  # BOM, comment, header, key 0 kept
    lines = data.decode("utf-8-sig").split("\r\n")
    assert lines[4] == "0.5,-0.0,-0.0,0.7071068,0.7071068"
    assert lines[5] == "1e0,0,0,1,0"  # unchanged key: line kept as written
    fixed = KF.load_keyframes(out).tracks[0]
    assert TA.audit_track(fixed) == []
    with pytest.raises(kt.KeyframeFileError, match="header says xyzw"):
        KF.load_keyframes(src, order="wxyz")


@pytest.mark.parametrize("header, order", [("t,qw,qx,qy,qz", "wxyz"), ("T,W,X,Y,Z", "wxyz"),
                                           ("time,a,b,c,d", None), ("", None)])
def test_csv_header_variants(tmp_path, header, order):
    text = (header + "\n" if header else "") + "0,1,0,0,0\n1,0.5,0.5,0.5,0.5\n"
    src = _write(tmp_path / "t.csv", text)
    if order is None:
        with pytest.raises(kt.KeyframeFileError, match="unknown"):
            KF.load_keyframes(src)
        t = KF.load_keyframes(src, order="xyzw").tracks[0]
        np.testing.assert_array_equal(t.values[0], from_xyzw([1, 0, 0, 0]))
    else:
        np.testing.assert_array_equal(KF.load_keyframes(src).tracks[0].values[0], [1, 0, 0, 0])


@pytest.mark.parametrize(
    "text, problem",
    [
        ("", "no keyframes"),
        ("# only a comment\n", "no keyframes"),
        ("time,x,y,z\n0,0,0,0\n", "line 1: the header must name 5 columns"),
        ("time,y,x,z,w\n0,0,0,0,1\n", "line 1: component order yxzw is not supported"),
        ("0,0,0,0,1\n1,0,0,1\n", "line 2: expected 5 comma-separated numbers"),
        ("0,0,0,0,1\n1,0,zero,0,1\n", "line 2: 'zero' is not a number"),
        ("0,0,0,0,1\ntime,x,y,z,w\n", "line 2: 'time' is not a number"),
    ],
)
def test_csv_errors(tmp_path, text, problem):
    src = _write(tmp_path / "bad.csv", text)
    with pytest.raises(kt.KeyframeFileError, match=problem) as info:
        KF.load_keyframes(src, order="xyzw")
    assert str(info.value).startswith(str(src) + ": ")


def test_csv_not_utf8(tmp_path):
    src = tmp_path / "bad.csv"
    src.write_bytes(b"0,0,0,0,\xff\n")
    with pytest.raises(kt.KeyframeFileError, match="not UTF-8"):
        KF.load_keyframes(src, order="xyzw")


def test_csv_nan_keys_are_findings_not_errors(tmp_path):
    src = _write(tmp_path / "t.csv", "0,1,0,0,0\nnan,nan,0,0,0\n2,inf,0,0,0\n")
    (t,) = KF.load_keyframes(src, order="wxyz").tracks
    kinds = [f.kind for f in TA.audit_track(t)]
    assert kinds.count("non_finite") == 2 and "time_order" in kinds


def test_json_tracks(tmp_path):
    c = 0.7071068
    doc = {
        "order": "wxyz",
        "comment": "kept",
        "tracks": [
            {"node": "Hip", "animation": "Walk", "interpolation": "STEP",
             "times": [0, 1], "values": [[1, 0, 0, 0], [-c, 0, 0, -c]]},
            {"times": [0], "values": [[0, 0, 0, 2]]},
        ],
    }
    text = json.dumps(doc, indent=1)
    src = _write(tmp_path / "t.json", text)
    kf = KF.load_keyframes(src)
    assert kf.format == "json"
    a, b = kf.tracks
    assert (a.node_name, a.animation, a.interpolation) == ("Hip", "Walk", "STEP")
    assert [f.kind for f in TA.audit_track(a)] == ["sign_flip"]
    assert [f.kind for f in TA.audit_track(b)] == ["non_unit"]
    out = tmp_path / "o.json"
    kf.write_copy(out, [TA.fix_track(t, normalize=True).fixed for t in kf.tracks])
    new_text = out.read_text()
    new = json.loads(new_text)
    assert new["comment"] == "kept" and new["tracks"][0]["node"] == "Hip"
    s = np.sqrt(0.5)  # flipped and normalized
    np.testing.assert_allclose(new["tracks"][0]["values"], [[1, 0, 0, 0], [s, 0, 0, s]], atol=1e-15)
    assert new["tracks"][1]["values"] == [[0, 0, 0, 1]]
    # Unchanged parts of the text are kept byte for byte.
    assert new_text.startswith(text[: text.index('"values"')])


def test_json_single_track_and_order_option(tmp_path):
    src = _write(tmp_path / "t.json", '{"times": [0, 1], "values": [[0,0,0,1], [0,0,1,0]]}')
    with pytest.raises(kt.KeyframeFileError, match="unknown"):
        KF.load_keyframes(src)
    (t,) = KF.load_keyframes(src, order="xyzw").tracks
    np.testing.assert_array_equal(t.values, [[1, 0, 0, 0], [0, 0, 0, 1]])
    out = tmp_path / "o.json"
    KF.fix_file(src, out, order="xyzw")
    assert out.read_bytes() == src.read_bytes()  # nothing to change


@pytest.mark.parametrize(
    "doc, problem",
    [
        ("[1, 2]", "expected a JSON object"),
        ("{", "does not parse"),
        ('{"x": 1}', 'expected "tracks" or "times"'),
        ('{"tracks": []}', '"tracks" must be a non-empty array'),
        ('{"tracks": [5]}', "tracks\\[0\\] must be an object"),
        ('{"times": [0], "values": [[1, 0, 0]]}', "values\\[0\\] must be an array of 4 numbers"),
        ('{"times": [0], "values": [[1, 0, 0, "a"]]}', "must contain only numbers"),
        ('{"times": [0], "values": [[1, 0, 0, true]]}', "must contain only numbers"),
        ('{"times": "0", "values": [[1, 0, 0, 0]]}', "times must be an array"),
        ('{"times": [0], "values": 5}', "values must be an array"),
        ('{"times": [0, 1], "values": [[1, 0, 0, 0]]}', "as many values as times"),
        ('{"times": [], "values": []}', "at least one"),
        ('{"times": [0], "values": [[1,0,0,0]], "interpolation": "CUBICSPLINE"}',
         "LINEAR or STEP"),
        ('{"times": [0], "values": [[1,0,0,0]], "node": 3}', "node must be a string"),
        ('{"order": "zyxw", "times": [0], "values": [[1,0,0,0]]}', "'zyxw'"),
    ],
)
def test_json_errors(tmp_path, doc, problem):
    src = _write(tmp_path / "bad.json", doc)
    with pytest.raises(kt.KeyframeFileError, match=problem):
        KF.load_keyframes(src, order="wxyz")


# --------------------------------------------------------------------------- load/write errors


def test_load_errors(tmp_path):
    with pytest.raises(kt.KeyframeFileError, match="cannot read"):
        KF.load_keyframes(tmp_path / "missing.gltf")
    with pytest.raises(kt.KeyframeFileError, match="cannot read"):
        KF.load_keyframes(tmp_path)  # a directory
    with pytest.raises(kt.KeyframeFileError, match="unsupported file type '.txt'"):
        KF.load_keyframes(_write(tmp_path / "a.txt", "0,1,0,0,0"))
    with pytest.raises(kt.KeyframeFileError, match="not a GLB file"):
        KF.load_keyframes(_write(tmp_path / "a.glb", "{}"))
    with pytest.raises(kt.KeyframeFileError, match="does not apply"):
        KF.load_keyframes(DATA / "AnimatedTriangle.gltf", order="wxyz")
    # A glTF document saved as .json is read as glTF.
    gltf_as_json = tmp_path / "tri.json"
    gltf_as_json.write_bytes((DATA / "AnimatedTriangle.gltf").read_bytes())
    assert KF.load_keyframes(gltf_as_json).format == "gltf"


def test_write_copy_refuses_the_input(tmp_path):
    src = tmp_path / "t.csv"
    src.write_text("0,1,0,0,0\n1,-1,0,0,0\n")
    original = src.read_bytes()
    doc = KF.load_keyframes(src, order="wxyz")
    fixed = [TA.fix_track(t).fixed for t in doc.tracks]
    link = tmp_path / "link.csv"
    link.symlink_to(src)
    hard = tmp_path / "hard.csv"
    os.link(src, hard)
    sub = tmp_path / "sub"
    sub.mkdir()
    for out in (src, link, hard, tmp_path / "sub" / ".." / "t.csv"):
        with pytest.raises(kt.KeyframeFileError, match="is the input file"):
            doc.write_copy(out, fixed)
    with pytest.raises(kt.KeyframeFileError, match="extension"):
        doc.write_copy(tmp_path / "o.json", fixed)
    (tmp_path / "dir.csv").mkdir()
    with pytest.raises(kt.KeyframeFileError, match="is a directory"):
        doc.write_copy(tmp_path / "dir.csv", fixed)
    with pytest.raises(kt.KeyframeFileError, match="cannot write"):
        doc.write_copy(tmp_path / "missing" / "o.csv", fixed)
    assert src.read_bytes() == original
    assert link.is_symlink()


def test_write_copy_requires_matching_tracks(tmp_path):
    doc = KF.load_keyframes(DATA / "AnimatedTriangle.gltf")
    (t,) = doc.tracks
    with pytest.raises(ValueError, match="expected 1 tracks"):
        doc.write_copy(tmp_path / "o.gltf", [])
    moved = dataclasses.replace(t, times=t.times + 1)
    with pytest.raises(ValueError, match="keep the times"):
        doc.write_copy(tmp_path / "o.gltf", [moved])
    assert not (tmp_path / "o.gltf").exists()
