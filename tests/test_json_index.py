"""Tests for the numpy JSON index (quatlab.app.io.json_text.JsonIndex) and the JSON track writer.

Oracles: :func:`json.loads` / :func:`json.dumps` (the spans must hold the
values the standard parser reads) and the character-by-character scanner
``json_value_span`` of the same module, on documents hypothesis builds with
strings full of brackets, quotes, backslashes and non-ASCII text.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quatlab.app.io import json_text as JT
from quatlab.app.io import keyframe_files as KF
from quatlab.app.io import track_audit as TA

_text = st.text(alphabet=st.sampled_from(list('ab[]{}",:\\ \n\tü€😀')), max_size=8)
_scalar = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=False, allow_infinity=False), _text)
_json = st.recursive(
    _scalar,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(_text, inner, max_size=4)),
    max_leaves=25,
)


def _paths(doc, prefix=()):
    yield list(prefix)
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*prefix, i))


@settings(max_examples=150, deadline=None)
@given(doc=_json, indent=st.sampled_from([None, 1, "\t"]), ascii_only=st.booleans())
def test_value_spans_agree_with_json_loads_and_the_text_scanner(doc, indent, ascii_only):
    text = json.dumps({"root": doc}, indent=indent, ensure_ascii=ascii_only)
    data = text.encode("utf-8")
    index = JT.JsonIndex(data)
    for path in _paths({"root": doc}):
        start, end = index.value_span(path)
        assert json.loads(data[start:end]) == _get({"root": doc}, path)
        # The same value as the str scanner finds (byte offsets of the same text).
        s, e = JT.json_value_span(text, path)
        assert data[start:end] == text[s:e].encode("utf-8")


def _get(doc, path):
    for step in path:
        doc = doc[step]
    return doc


@settings(max_examples=100, deadline=None)
@given(items=st.lists(st.one_of(st.lists(_scalar, max_size=3),
                                st.dictionaries(_text, _scalar, max_size=3)), max_size=6),
       indent=st.sampled_from([None, 2]))
def test_element_spans_of_an_array_of_containers(items, indent):
    data = json.dumps({"k": '"[', "a": items}, indent=indent, ensure_ascii=False).encode()
    starts, ends = JT.JsonIndex(data).element_spans(["a"], len(items))
    assert [json.loads(data[s:e]) for s, e in zip(starts, ends, strict=True)] == items


def test_element_spans_refuses_arrays_with_scalars():
    index = JT.JsonIndex(b'{"a": [[1], 2, [3]]}')
    with pytest.raises(ValueError, match="only arrays or objects"):
        index.element_spans(["a"], 3)
    with pytest.raises(ValueError, match="no key"):
        index.value_span(["b"])


def test_escaped_quotes_and_backslash_runs():
    # Hand-worked: the string holds \" and ends after \\ ; the brackets inside are text.
    data = rb'{"s": "x\"]\\", "t": ["\\\\", "[\\\"{"], "u": [[1]]}'
    index = JT.JsonIndex(data)
    start, end = index.value_span(["s"])
    assert data[start:end] == rb'"x\"]\\"'
    start, end = index.value_span(["t"])
    assert json.loads(data[start:end]) == ["\\\\", '[\\"{']
    starts, ends = index.element_spans(["u"], 1)
    assert data[starts[0]:ends[0]] == b"[1]"


# --------------------------------------------------------------------------- the JSON writer


def test_negated_keys_keep_their_digits_and_layout(tmp_path):
    """A sign fix toggles only the signs: digits, exponents, spacing stay as written."""
    src = tmp_path / "t.json"
    src.write_text('{"order": "wxyz", "times": [0, 1, 2, 3],\n "values": [\n'
                   '  [1, 0, 0, 0],\n  [-0.6, 0, 0.8E+0 ,0],\n'
                   '  [1e-5,-0.70710678118654757, -5E-2,   0.7071067811865476],\n'
                   '  [0.5,0.5,0.5,0.5]]}')
    kf = KF.load_keyframes(src)
    fix = TA.fix_track(kf.tracks[0])
    assert fix.flipped.tolist() == [1, 3]  # key 2 follows the flipped key 1
    out = tmp_path / "o.json"
    kf.write_copy(out, [fix.fixed])
    assert out.read_text() == (
        '{"order": "wxyz", "times": [0, 1, 2, 3],\n "values": [\n'
        '  [1, 0, 0, 0],\n  [0.6, 0, -0.8E+0 ,0],\n'
        '  [1e-5,-0.70710678118654757, -5E-2,   0.7071067811865476],\n'
        '  [-0.5,-0.5,-0.5,-0.5]]}')
    again = KF.load_keyframes(out).tracks[0].values
    np.testing.assert_array_equal(again, fix.fixed.values)  # exactly the negated numbers


def test_other_changes_are_written_as_json_dumps_and_nothing_else_moves(tmp_path):
    src = tmp_path / "t.json"
    text = ('{"order": "xyzw", "tracks": [\n {"node": "A\\"]", "times": [0, 1],'
            ' "values": [[0, 0, 0, 2], [0,0,0,-1]]},\n'
            ' {"node": "ü", "times": [0, 1], "values": [[0, 0, 0, 1], [0, 0, 0, -1]]}]}')
    src.write_text(text, encoding="utf-8")
    kf = KF.load_keyframes(src)
    fixes = [TA.fix_track(t, normalize=True) for t in kf.tracks]
    out = tmp_path / "o.json"
    kf.write_copy(out, [f.fixed for f in fixes])
    # Track 0: key 0 normalized (written as json.dumps), key 1 negated (signs toggled).
    # Track 1: key 1 negated; the non-ASCII name before it keeps its bytes.
    assert out.read_text(encoding="utf-8") == text.replace(
        "[[0, 0, 0, 2], [0,0,0,-1]]", "[[0.0, 0.0, 0.0, 1.0], [0,0,0,1]]"
    ).replace("[0, 0, 0, 1], [0, 0, 0, -1]]", "[0, 0, 0, 1], [0, 0, 0, 1]]")


def test_format_keys_summarises_long_lists():
    keys = np.arange(0, 2_000_000, 2)
    text = TA.format_keys(keys)
    assert text.startswith("0, 2, 4, ") and len(text) < 400
    assert "1,000,000 keys" in text
    assert TA.format_keys(range(5)) == "0-4"


# ------------------------------------------------------------------ findings past the limit


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 30_000), seed=st.integers(0, 2**32 - 1), limit=st.integers(1, 40))
def test_findings_are_the_first_by_key_then_kind_and_the_rest_is_counted(n, seed, limit):
    """Oracle: every (key, kind) pair from the math audit's masks, sorted, cut at the limit."""
    from quatlab.math import audit as A

    rng = np.random.default_rng(seed)
    q = np.tile([1.0, 0.0, 0.0, 0.0], (n, 1)) + rng.normal(scale=0.01, size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    for what, share in (("neg", 0.05), ("zero", 0.001), ("nan", 0.001), ("long", 0.002)):
        picked = rng.random(n) < share * rng.random()
        q[picked] = {"neg": -q[picked], "zero": 0.0, "nan": np.nan, "long": 2 * q[picked]}[what]
    times = np.arange(n, dtype=float)
    times[rng.random(n) < 0.001] = -1.0
    track = TA.Track(times=times, values=q)
    report = A.audit_keys(q)
    masks = [("time_order", A.time_order(times)), ("zero", report.zero),
             ("non_finite", report.non_finite), ("non_unit", report.non_unit),
             ("sign_flip", report.sign_flip), ("half_turn", report.half_turn)]
    order = {kind: k for k, (kind, _) in enumerate(masks)}
    pairs = sorted((int(i), order[kind], kind) for kind, m in masks for i in np.flatnonzero(m))
    old = TA.MAX_FINDINGS
    try:
        TA.MAX_FINDINGS = limit
        findings = TA._audit_track(track)
    finally:
        TA.MAX_FINDINGS = old
    listed = [f for f in findings if f.kind != "more"]
    assert [(f.keys[0], f.kind) for f in listed] == [(i, kind) for i, _, kind in pairs[:limit]]
    rest = pairs[limit:]
    if rest:
        more = findings[-1]
        assert more.kind == "more"
        assert more.keys == (min(i for i, _, _ in rest), max(i for i, _, _ in rest))
        assert f"{len(rest):,} more findings" in more.message
    else:
        assert all(f.kind != "more" for f in findings)
