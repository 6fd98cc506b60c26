"""Tests of the lesson model without Qt: LessonState, presets, parse_quaternion, explain.

Oracles are independent of the code under test: scipy's ``Rotation`` (with its
own x, y, z, w storage) wherever two rotations are compared, closed forms
computed here by hand (cos/sin of half angles, the path angle of a chord's
midpoint), finite differences for speeds, and the preset table of docs/presets.md
converted from glTF's x, y, z, w by hand.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import quatlab.app.model.state as state_module
from quatlab.app.io.parse import parse_quaternion
from quatlab.app.model import presets
from quatlab.app.model.explain import explain, explain_at_t
from quatlab.app.model.state import LessonState

METHOD_NAMES = ("naive_nlerp", "shortest_nlerp", "naive_slerp", "shortest_slerp")
PRESET_NAMES = [
    "negated-20",
    "q-to-minus-q",
    "half-turn",
    "quarter-turn",
    "large-170",
    "small-1",
    "gltf-animated-triangle",
    "gltf-box-animated",
]


def rot(q_wxyz) -> Rotation:
    """scipy Rotation of a (w, x, y, z) quaternion, reordered here by hand."""
    w, x, y, z = np.asarray(q_wxyz, dtype=float)
    return Rotation.from_quat([x, y, z, w])


def half(deg: float) -> tuple[float, float]:
    """(cos, sin) of half of ``deg`` degrees."""
    h = math.radians(deg) / 2
    return math.cos(h), math.sin(h)


def same_rotation(a, b, atol=1e-12) -> bool:
    return np.allclose(rot(a).as_matrix(), rot(b).as_matrix(), atol=atol)


class Recorder:
    """Counts the model's events and remembers what the state looked like at each."""

    def __init__(self, state: LessonState) -> None:
        self.counts = {"endpoints": 0, "t": 0, "options": 0}
        self.seen: list[tuple[str, np.ndarray, float]] = []
        for name in self.counts:
            state.events.connect(name, lambda n=name: self._hit(state, n))

    def _hit(self, state, name):
        self.counts[name] += 1
        self.seen.append((name, state.q1, state.t))


def snapshot(s: LessonState):
    return (s.q0, s.q1, s.entered_norm(0), s.entered_norm(1), s.t, s.preset, s.chain_family,
            s.root_only, dict(s.visible), s.can_undo, s.can_redo)


def assert_same_snapshot(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y)
        else:
            assert x == y


# --------------------------------------------------------------------------- no Qt


def test_model_modules_import_no_qt():
    code = (
        "import sys\n"
        "import quatlab.app.model.state, quatlab.app.io.parse, quatlab.app.model.presets\n"
        "import quatlab.app.model.explain, quatlab.app.io.curves_io\n"
        "from quatlab.app.model.state import LessonState\n"
        "s = LessonState.from_preset('negated-20'); s.set_t(0.25); s.curves; s.at_t()\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PyQt6', 'pyqtgraph'))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True)
    assert out.stdout.strip() == "[]"


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("which", "q", "words"),
    [
        (0, (0, 0, 0, 0), ["q0", "zero"]),
        (1, (0.0, 0.0, 0.0, 0.0), ["q1", "zero"]),
        (1, (np.nan, 0, 0, 1), ["q1", "nan"]),
        (0, (1, np.inf, 0, 0), ["q0", "infinite"]),
        (1, (1, 0, 0), ["q1", "shape"]),
        (0, (1, 0, 0, 0, 0), ["q0", "shape"]),
        (1, [[1, 0, 0, 0], [1, 0, 0, 0]], ["q1"]),
        (0, "abc", ["q0"]),
        (3, (1, 0, 0, 0), ["which"]),
    ],
)
def test_set_endpoint_refuses_bad_input_and_keeps_state(which, q, words):
    s = LessonState.from_preset("negated-20", t=0.3)
    rec = Recorder(s)
    before = snapshot(s)
    curves_before = s.curves
    with pytest.raises(ValueError) as info:
        s.set_endpoint(which, q)
    msg = str(info.value).lower()
    for w in words:
        assert w in msg, msg
    assert_same_snapshot(before, snapshot(s))
    assert s.curves is curves_before
    assert rec.counts == {"endpoints": 0, "t": 0, "options": 0}


def test_set_endpoints_is_all_or_nothing():
    s = LessonState.from_preset("quarter-turn")
    before = snapshot(s)
    with pytest.raises(ValueError, match="q1"):
        s.set_endpoints((0, 1, 0, 0), (0, 0, 0, 0))
    with pytest.raises(ValueError, match="q0"):
        s.set_endpoints((np.nan, 1, 0, 0), (1, 0, 0, 0))
    assert_same_snapshot(before, snapshot(s))


def test_constructor_validates_and_names_the_argument():
    with pytest.raises(ValueError, match="q0"):
        LessonState((0, 0, 0, 0), (1, 0, 0, 0))
    with pytest.raises(ValueError, match="q1"):
        LessonState((1, 0, 0, 0), (1, 0, 0))
    with pytest.raises(ValueError, match=r"\bt\b"):
        LessonState((1, 0, 0, 0), (1, 0, 0, 0), t=1.5)


@pytest.mark.parametrize("bad", [-0.01, 1.0001, float("nan"), float("inf"), "x"])
def test_set_t_refuses_out_of_range_and_keeps_t(bad):
    s = LessonState(t=0.4)
    rec = Recorder(s)
    with pytest.raises(ValueError, match=r"\bt\b"):
        s.set_t(bad)
    assert s.t == 0.4
    assert rec.counts["t"] == 0


def test_options_validation_names_the_argument():
    s = LessonState()
    rec = Recorder(s)
    with pytest.raises(ValueError, match="family"):
        s.set_chain_family("squad")
    with pytest.raises(ValueError, match="method"):
        s.set_visible("naive_squad", False)
    assert s.chain_family == "slerp"
    assert all(s.visible[m] for m in METHOD_NAMES)
    assert rec.counts["options"] == 0


def test_load_unknown_preset_lists_names_and_keeps_state():
    s = LessonState.from_preset("half-turn")
    before = snapshot(s)
    with pytest.raises(ValueError) as info:
        s.load_preset("no-such-preset")
    assert "no-such-preset" in str(info.value)
    assert "quarter-turn" in str(info.value)
    assert_same_snapshot(before, snapshot(s))


# --------------------------------------------------------------------------- normalization


@pytest.mark.parametrize(
    ("entered", "unit", "norm"),
    [
        ((2, 0, 0, 0), (1, 0, 0, 0), 2.0),
        ((0, 3, 4, 0), (0, 0.6, 0.8, 0), 5.0),
        ((-0.5, 0, 0, 0), (-1, 0, 0, 0), 0.5),   # the stored sign is kept
        ((1, 1, 1, 1), (0.5, 0.5, 0.5, 0.5), 2.0),
    ],
)
def test_endpoint_is_normalized_and_norm_is_kept_as_entered(entered, unit, norm):
    s = LessonState()
    s.set_endpoint(1, entered)
    np.testing.assert_allclose(s.q1, unit, atol=1e-15)
    assert s.entered_norm(1) == pytest.approx(norm, rel=1e-15)
    assert s.entered_norm(0) == 1.0
    np.testing.assert_allclose(np.linalg.norm(s.q1), 1.0, atol=1e-15)


def test_state_does_not_alias_caller_arrays():
    s = LessonState()
    q = np.array([0.0, 0.0, 0.0, 2.0])
    s.set_endpoint(1, q)
    q[:] = 7.0
    np.testing.assert_array_equal(s.q1, [0, 0, 0, 1])
    got = s.q1
    got[0] = 5.0
    np.testing.assert_array_equal(s.q1, [0, 0, 0, 1])


# --------------------------------------------------------------------------- negate


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("which", [0, 1])
def test_negate_keeps_the_rotation_and_the_entered_norm(name, which):
    s = LessonState.from_preset(name)
    before = s.endpoint(which)
    other = s.endpoint(1 - which)
    norm = s.entered_norm(which)
    s.negate(which)
    np.testing.assert_array_equal(s.endpoint(which), -before)
    np.testing.assert_array_equal(s.endpoint(1 - which), other)
    assert same_rotation(s.endpoint(which), before)
    assert s.entered_norm(which) == norm
    assert s.dot == pytest.approx(-float(before @ other), abs=1e-15)


def test_negate_changes_the_naive_curves_but_not_the_shortest():
    s = LessonState.from_preset("negated-20", t=0.5)
    naive_before = s.curves["naive_nlerp"].angle_deg.copy()
    shortest_before = {m: s.curves[m].angle_deg.copy() for m in ("shortest_nlerp",
                                                                "shortest_slerp")}
    # Closed form, identity -> -(cos 10, 0, 0, sin 10): the naive chord's midpoint
    # (1 - cos 10, 0, 0, -sin 10)/2 has path angle 2 atan2(sin 10, 1 - cos 10) = 170.
    c10, s10 = math.cos(math.radians(10)), math.sin(math.radians(10))
    expected_long = math.degrees(2 * math.atan2(s10, 1 - c10))
    assert expected_long == pytest.approx(170.0, abs=1e-9)
    assert s.at_t()["naive_nlerp"].angle_deg[0] == pytest.approx(expected_long, abs=1e-9)
    s.negate(1)
    assert s.at_t()["naive_nlerp"].angle_deg[0] == pytest.approx(10.0, abs=1e-9)
    assert s.curves["naive_nlerp"].angle_deg[-1] == pytest.approx(20.0, abs=1e-9)
    assert naive_before[-1] == pytest.approx(340.0, abs=1e-9)
    assert not np.allclose(s.curves["naive_nlerp"].angle_deg, naive_before)
    for m, before in shortest_before.items():
        np.testing.assert_allclose(s.curves[m].angle_deg, before, atol=1e-9)
    assert s.preset is None  # an edited preset is no longer that preset


# --------------------------------------------------------------------------- derived curves


@pytest.fixture
def counting(monkeypatch):
    """Wrap compute_curves as the state module sees it; count full and single-t calls."""
    calls = {"full": 0, "at_t": 0}
    real = state_module.compute_curves

    def wrapper(q0, q1, t=None, **kw):
        calls["full" if t is None else "at_t"] += 1
        return real(q0, q1, t, **kw)

    monkeypatch.setattr(state_module, "compute_curves", wrapper)
    return calls


def test_curves_are_recomputed_only_when_the_endpoints_change(counting):
    s = LessonState.from_preset("negated-20")
    first = s.curves
    assert counting["full"] == 1
    for t in np.linspace(0, 1, 25):
        s.set_t(t)
        assert s.curves is first
        at = s.at_t()
        # at_t follows t exactly: shortest SLERP has swept t * 20 degrees.
        assert at["shortest_slerp"].angle_deg[0] == pytest.approx(20 * t, abs=1e-9)
    s.set_chain_family("nlerp")
    s.set_root_only(False)
    s.set_visible("naive_slerp", False)
    assert s.curves is first
    assert counting["full"] == 1
    with pytest.raises(ValueError):
        s.set_endpoint(1, (0, 0, 0, 0))
    assert s.curves is first and counting["full"] == 1

    s.negate(1)
    second = s.curves
    assert second is not first
    assert counting["full"] == 2
    assert s.curves is second and counting["full"] == 2
    s.undo()
    assert s.curves is not second and counting["full"] == 3


def test_at_t_is_cached_per_t(counting):
    s = LessonState.from_preset("quarter-turn", t=0.25)
    a = s.at_t()
    assert s.at_t() is a
    assert counting["at_t"] == 1
    s.set_t(0.75)
    b = s.at_t()
    assert b is not a and counting["at_t"] == 2
    # Identity -> 90 deg about Z: shortest SLERP at t = 0.75 is 67.5 deg about Z.
    c, sn = half(67.5)
    q = b["shortest_slerp"].quats[0]
    assert same_rotation(q, (c, 0, 0, sn))


# --------------------------------------------------------------------------- events


def test_events_are_emitted_once_per_change_with_the_new_state_visible():
    s = LessonState.from_preset("negated-20", t=0.5)
    rec = Recorder(s)
    s.set_endpoint(1, (0, 0, 0, 1))
    assert rec.counts == {"endpoints": 1, "t": 0, "options": 0}
    np.testing.assert_array_equal(rec.seen[-1][1], [0, 0, 0, 1])  # new q1 seen by listener

    s.set_t(0.25)
    s.set_t(0.25)  # unchanged: no event
    assert rec.counts == {"endpoints": 1, "t": 1, "options": 0}
    assert rec.seen[-1][2] == 0.25

    s.set_chain_family("nlerp")
    s.set_root_only(False)
    s.set_visible("naive_nlerp", False)
    assert rec.counts == {"endpoints": 1, "t": 1, "options": 3}

    s.negate(0)
    s.load_preset("half-turn")
    s.set_endpoints((1, 0, 0, 0), (0, 0, 1, 0))
    assert rec.counts["endpoints"] == 4
    s.undo()
    s.redo()
    assert rec.counts["endpoints"] == 6
    assert rec.counts["t"] == 1  # endpoint edits never touch t


def test_undo_redo_on_empty_stacks_emit_nothing():
    s = LessonState()
    rec = Recorder(s)
    s.undo()
    s.redo()
    assert rec.counts == {"endpoints": 0, "t": 0, "options": 0}


def test_disconnect_stops_delivery():
    s = LessonState()
    hits = []

    def listener():
        hits.append(1)

    s.events.connect("t", listener)
    s.set_t(0.1)
    s.events.disconnect("t", listener)
    s.set_t(0.2)
    assert hits == [1]


# --------------------------------------------------------------------------- undo / redo


def test_undo_redo_walks_the_edit_history():
    s = LessonState()  # identity -> identity
    assert not s.can_undo and not s.can_redo
    a = (0.0, 1.0, 0.0, 0.0)
    b = (0.0, 0.0, 2.0, 0.0)
    s.set_endpoint(1, a)
    s.set_endpoint(1, b)
    s.negate(0)
    assert s.can_undo and not s.can_redo

    s.undo()
    np.testing.assert_array_equal(s.q0, [1, 0, 0, 0])
    np.testing.assert_array_equal(s.q1, [0, 0, 1, 0])
    assert s.entered_norm(1) == 2.0
    s.undo()
    np.testing.assert_array_equal(s.q1, a)
    assert s.entered_norm(1) == 1.0
    s.undo()
    np.testing.assert_array_equal(s.q1, [1, 0, 0, 0])
    assert not s.can_undo and s.can_redo
    s.undo()  # nothing left: no change
    np.testing.assert_array_equal(s.q1, [1, 0, 0, 0])

    s.redo()
    np.testing.assert_array_equal(s.q1, a)
    s.redo()
    np.testing.assert_array_equal(s.q1, [0, 0, 1, 0])
    s.redo()
    np.testing.assert_array_equal(s.q0, [-1, 0, 0, 0])
    assert not s.can_redo
    s.redo()
    np.testing.assert_array_equal(s.q0, [-1, 0, 0, 0])


def test_a_new_edit_clears_redo():
    s = LessonState()
    s.set_endpoint(1, (0, 1, 0, 0))
    s.set_endpoint(1, (0, 0, 1, 0))
    s.undo()
    assert s.can_redo
    s.set_endpoint(1, (0, 0, 0, 1))
    assert not s.can_redo
    s.redo()
    np.testing.assert_array_equal(s.q1, [0, 0, 0, 1])
    s.undo()
    np.testing.assert_array_equal(s.q1, [0, 1, 0, 0])
    s.undo()
    np.testing.assert_array_equal(s.q1, [1, 0, 0, 0])


def test_undo_restores_the_preset_name_and_keeps_t_and_options():
    s = LessonState.from_preset("quarter-turn", t=0.2)
    s.load_preset("half-turn")
    s.set_t(0.9)
    s.set_chain_family("nlerp")
    s.undo()
    assert s.preset == "quarter-turn"
    c, sn = half(90)
    np.testing.assert_allclose(s.q1, [c, 0, 0, sn], atol=1e-15)
    assert s.t == 0.9 and s.chain_family == "nlerp"


# --------------------------------------------------------------------------- sessions


def test_session_round_trip_through_json():
    s = LessonState()
    s.set_endpoint(0, (0, 0, 0, 2))          # |q| = 2 as entered
    s.set_endpoint(1, (-0.5, 0.5, 0.5, -0.5))
    s.set_t(0.37)
    s.set_chain_family("nlerp")
    s.set_root_only(False)          # not the default, so the round trip must carry it
    s.set_visible("shortest_slerp", False)
    text = json.dumps(s.to_session())
    data = json.loads(text)
    assert data["format"] == "quatlab-session"
    assert data["order"] == "wxyz"

    r = LessonState()
    rec = Recorder(r)
    r.apply_session(data)
    np.testing.assert_allclose(r.q0, s.q0, atol=1e-15)
    np.testing.assert_allclose(r.q1, s.q1, atol=1e-15)
    assert r.entered_norm(0) == pytest.approx(2.0, rel=1e-15)
    assert r.entered_norm(1) == pytest.approx(1.0, rel=1e-15)
    assert r.t == 0.37
    assert r.chain_family == "nlerp" and r.root_only is False
    assert r.visible == {"naive_nlerp": True, "shortest_nlerp": True, "naive_slerp": True,
                         "shortest_slerp": False}
    assert rec.counts == {"endpoints": 1, "t": 1, "options": 1}
    # The restored state reproduces the same curves.
    np.testing.assert_allclose(r.curves["naive_nlerp"].angle, s.curves["naive_nlerp"].angle,
                               atol=1e-12, equal_nan=True)


def test_session_keeps_the_preset_name():
    s = LessonState.from_preset("half-turn", t=0.6)
    r = LessonState()
    r.apply_session(json.loads(json.dumps(s.to_session())))
    assert r.preset == "half-turn"
    np.testing.assert_array_equal(r.q1, [0, 1, 0, 0])


def _good_session():
    return LessonState.from_preset("quarter-turn", t=0.25).to_session()


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d.pop("q0"), "q0"),
        (lambda d: d.pop("q1"), "q1"),
        (lambda d: d.pop("t"), "t"),
        (lambda d: d.update(q0=[0, 0, 0, 0]), "q0"),
        (lambda d: d.update(q1=[1, 0, 0]), "q1"),
        (lambda d: d.update(q1=[1, "x", 0, 0]), "q1"),
        (lambda d: d.update(q0=[float("nan"), 0, 0, 1]), "q0"),
        (lambda d: d.update(t=1.5), "t"),
        (lambda d: d.update(t=-0.1), "t"),
        (lambda d: d.update(t="soon"), "t"),
        (lambda d: d.update(format="something-else"), "format"),
        (lambda d: d.pop("format"), "format"),
        (lambda d: d.update(order="xyzw"), "order"),
        (lambda d: d.update(chain_family="squad"), "chain_family"),
        (lambda d: d.update(visible={"naive_squad": True}), "visible"),
        (lambda d: d.update(visible=["naive_nlerp"]), "visible"),
        # Hostile files: JSON types numpy would take or choke on in its own words.
        (lambda d: d.update(t=[0.1, 0.2]), "t"),
        (lambda d: d.update(t=[0.5]), "t"),
        (lambda d: d.update(t="0.5"), "t"),
        (lambda d: d.update(t=True), "t"),
        (lambda d: d.update(t=10**400), "t"),
        (lambda d: d.update(q0=[1, 0, 0, 10**400]), "q0"),
        (lambda d: d.update(q1=[[1, 0, 0, 0]]), "q1"),
        (lambda d: d.update(q1="1 0 0 0"), "q1"),
        (lambda d: d.update(chain_family=["slerp"]), "chain_family"),
    ],
)
def test_apply_session_refuses_bad_data_names_the_field_and_keeps_state(edit, field):
    s = LessonState.from_preset("negated-20", t=0.8)
    s.set_chain_family("nlerp")
    s.set_visible("naive_slerp", False)
    rec = Recorder(s)
    before = snapshot(s)
    data = _good_session()
    edit(data)
    with pytest.raises(ValueError) as info:
        s.apply_session(data)
    # The field as a word of its own ("t" must not match the t of "session").
    assert re.search(rf"(?<![\w-]){re.escape(field)}(?![\w-])", str(info.value)), info.value
    assert_same_snapshot(before, snapshot(s))
    assert rec.counts == {"endpoints": 0, "t": 0, "options": 0}


def test_apply_session_ignores_an_unhashable_preset():
    s = LessonState.from_preset("negated-20")
    data = _good_session()
    data["preset"] = ["quarter-turn"]
    s.apply_session(data)
    assert s.preset is None
    np.testing.assert_allclose(s.entered(1), _good_session()["q1"])


@pytest.mark.parametrize("data", [None, [], "quatlab-session", 3])
def test_apply_session_refuses_non_objects(data):
    s = LessonState.from_preset("half-turn")
    before = snapshot(s)
    with pytest.raises(ValueError, match="session"):
        s.apply_session(data)
    assert_same_snapshot(before, snapshot(s))


# --------------------------------------------------------------------------- presets


def _from_xyzw(x, y, z, w):
    """glTF's (x, y, z, w) to (w, x, y, z), written out by hand."""
    return np.array([w, x, y, z], dtype=float)


F707 = float(np.float32(0.707))  # glTF stores float32: .707 is 0.7070000171661377
c10, s10 = half(20)
c45, s45 = half(90)
# Design.md s5, computed independently of assets/presets.json.
EXPECTED_EXACT = {
    "negated-20": ((1, 0, 0, 0), (-c10, 0, 0, -s10)),
    "half-turn": ((1, 0, 0, 0), (0, 1, 0, 0)),          # cos 90, sin 90 about X
    "quarter-turn": ((1, 0, 0, 0), (c45, 0, 0, s45)),
    "gltf-animated-triangle": (_from_xyzw(0, 0, F707, -F707), _from_xyzw(0, 0, 0, 1)),
    "gltf-box-animated": (_from_xyzw(-0.0, -0.0, -0.0, -1.0),
                          _from_xyzw(1.0, 0.0, 0.0, 4.4896593387466766e-11)),
}


def test_preset_names_are_exactly_the_eight_in_menu_order():
    assert presets.names() == PRESET_NAMES


@pytest.mark.parametrize("name", sorted(EXPECTED_EXACT))
def test_preset_components_match_design_with_their_sign(name):
    p = presets.get(name)
    q0, q1 = EXPECTED_EXACT[name]
    np.testing.assert_allclose(p.q0, q0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(p.q1, q1, rtol=0, atol=1e-12)
    # And the same rotations by scipy's reading of x, y, z, w.
    assert same_rotation(p.q0, q0) and same_rotation(p.q1, q1)


def test_preset_negated_20_is_the_seed_case():
    s = LessonState.from_preset("negated-20")
    assert s.dot == pytest.approx(-0.9848077, abs=1e-7)
    assert math.degrees(s.angle) == pytest.approx(20.0, abs=1e-9)
    # q1 is 20 deg about Z (scipy), stored with w < 0.
    np.testing.assert_allclose(rot(s.q1).as_rotvec(), [0, 0, math.radians(20)], atol=1e-12)
    assert s.q1[0] < 0


def test_preset_q_to_minus_q_is_one_rotation_with_two_signs():
    p = presets.get("q-to-minus-q")
    np.testing.assert_allclose(np.linalg.norm(p.q0), 1.0, atol=1e-12)
    np.testing.assert_array_equal(p.q1, -p.q0)
    assert same_rotation(p.q0, p.q1)
    assert rot(p.q0).magnitude() > 0.1  # not the identity: the rotation is visible
    assert LessonState.from_preset("q-to-minus-q").dot == pytest.approx(-1.0, abs=1e-15)


def test_preset_half_turn_has_dot_exactly_zero():
    s = LessonState.from_preset("half-turn")
    assert s.dot == 0.0
    assert math.degrees(rot(s.q1).magnitude()) == pytest.approx(180.0, abs=1e-12)
    np.testing.assert_allclose(np.abs(rot(s.q1).as_rotvec()) / math.pi, [1, 0, 0], atol=1e-12)


def test_preset_quarter_turn_midpoint_matches_seed_004():
    s = LessonState.from_preset("quarter-turn", t=0.5)
    q = s.at_t()["shortest_slerp"].quats[0]
    np.testing.assert_allclose(rot(q).apply([1, 0, 0]), [0.7071, 0.7071, 0], atol=1e-4)


def test_preset_large_170_is_170_deg_about_an_oblique_axis():
    p = presets.get("large-170")
    np.testing.assert_array_equal(p.q0, [1, 0, 0, 0])
    r = rot(p.q1)
    assert math.degrees(r.magnitude()) == pytest.approx(170.0, abs=1e-9)
    axis = r.as_rotvec() / r.magnitude()
    assert np.count_nonzero(np.abs(axis) > 0.1) >= 2  # oblique: not a coordinate axis
    assert np.max(np.abs(axis)) < 0.9


def test_preset_small_1_is_one_degree():
    p = presets.get("small-1")
    np.testing.assert_array_equal(p.q0, [1, 0, 0, 0])
    assert math.degrees(rot(p.q1).magnitude()) == pytest.approx(1.0, abs=1e-12)
    assert 0 < 1 - LessonState.from_preset("small-1").dot < 4e-5


def test_preset_gltf_dots_match_design():
    tri = presets.get("gltf-animated-triangle")
    assert float(tri.q0 @ tri.q1) == pytest.approx(-0.707, abs=1e-6)
    assert not math.isclose(np.linalg.norm(tri.q0), 1.0, abs_tol=1e-6)  # not exactly unit
    box = presets.get("gltf-box-animated")
    d = float(box.q0 @ box.q1)
    assert d < 0 and abs(d) == pytest.approx(4.49e-11, rel=1e-3)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_loading_a_preset_sets_normalized_endpoints_and_the_name(name):
    p = presets.get(name)
    s = LessonState()
    s.load_preset(name)
    assert s.preset == name
    np.testing.assert_allclose(s.q0, p.q0 / np.linalg.norm(p.q0), atol=1e-15)
    np.testing.assert_allclose(s.q1, p.q1 / np.linalg.norm(p.q1), atol=1e-15)
    assert s.can_undo
    assert p.title and p.shows


# --------------------------------------------------------------------------- parse


@pytest.mark.parametrize(
    ("text", "order", "expected"),
    [
        ("1 0 0 0", "wxyz", (1, 0, 0, 0)),
        ("0, 0, 0.7071, 0.7071", "xyzw", (0.7071, 0, 0, 0.7071)),
        ("(1, 2, 3, 4)", "xyzw", (4, 1, 2, 3)),
        ("[0.5; -0.5; 0.5; -0.5]", "wxyz", (0.5, -0.5, 0.5, -0.5)),
        ("{ 2e0 ,0,  0 ,0 }", "wxyz", (2, 0, 0, 0)),
        ("  -1\t-0\n0 0 ", "wxyz", (-1, 0, 0, 0)),
        ("0 0 0 0", "wxyz", (0, 0, 0, 0)),  # parsed; the model refuses it
    ],
)
def test_parse_quaternion_orders(text, order, expected):
    q = parse_quaternion(text, order)
    assert q.shape == (4,)
    np.testing.assert_array_equal(q, expected)


def test_parse_quaternion_default_order_is_wxyz():
    np.testing.assert_array_equal(parse_quaternion("0.1 0.2 0.3 0.4"), [0.1, 0.2, 0.3, 0.4])


def test_parse_xyzw_then_state_matches_scipy_reading():
    text = "0.1, -0.2, 0.3, 0.9"
    s = LessonState()
    s.set_endpoint(1, parse_quaternion(text, "xyzw"))
    expected = Rotation.from_quat([0.1, -0.2, 0.3, 0.9])  # scipy reads x, y, z, w
    assert np.allclose(rot(s.q1).as_matrix(), expected.as_matrix(), atol=1e-12)


@pytest.mark.parametrize(
    ("text", "order", "words"),
    [
        ("1 0 0", "wxyz", ["4", "3"]),
        ("1 0 0 0 0", "wxyz", ["4", "5"]),
        ("", "wxyz", ["4", "0"]),
        ("1 abc 0 0", "wxyz", ["component x", "abc"]),
        ("1 0 abc 0", "xyzw", ["component z", "abc"]),
        ("nan 0 0 1", "wxyz", ["component w", "finite"]),
        ("0 0 0 inf", "xyzw", ["component w", "finite"]),
        ("1 0 0 0", "zyxw", ["order"]),
    ],
)
def test_parse_quaternion_errors_name_the_problem(text, order, words):
    with pytest.raises(ValueError) as info:
        parse_quaternion(text, order)
    for w in words:
        assert w in str(info.value), str(info.value)


# --------------------------------------------------------------------------- explain


def _text(paras) -> str:
    """The paragraphs (or one sentence) as read: no-break spaces as spaces, joiners dropped."""
    text = paras if isinstance(paras, str) else " ".join(paras)
    return text.replace("\u00a0", " ").replace("\u2060", "")


def test_explain_negated_20_tells_the_long_way():
    s = LessonState.from_preset("negated-20", t=0.5)
    paras = explain(s)
    first = paras[0]
    assert "340" in first and "20.0" in first
    assert "-0.9848" in first or "−0.9848" in first
    at = _text(explain_at_t(s))
    assert "170.0" in at and "10.0" in at
    assert "t = 0.500" in at


def test_explain_follows_negate_and_t():
    s = LessonState.from_preset("negated-20", t=0.5)
    s.negate(1)
    text = _text(explain(s))
    assert "340" not in text
    assert "same hemisphere" in text
    s.set_t(0.25)
    last = _text(explain_at_t(s))
    assert "t = 0.250" in last and "5.00°" in last  # 0.25 * 20 deg


def test_explain_q_to_minus_q_explains_the_collapse():
    s = LessonState.from_preset("q-to-minus-q", t=0.5)
    text = _text(explain(s))
    assert "collapse" in text.lower()
    assert "t = 0.5" in text
    assert "same rotation" in text
    # At the collapse the naive NLERP angle is missing, never a number.
    assert "naive NLERP: —" in explain_at_t(s)


def test_explain_half_turn_explains_dot_zero():
    s = LessonState.from_preset("half-turn")
    first = _text(explain(s)[0])
    assert "dot(q0, q1) = 0" in first
    assert "180" in first
    assert "340" not in first


def test_explain_gltf_box_warns_about_the_rounding_error():
    text = _text(explain(LessonState.from_preset("gltf-box-animated")))
    assert "rounding error" in text


def test_explain_nlerp_speed_numbers_match_finite_differences():
    s = LessonState.from_preset("large-170")
    q0, q1 = s.q0, s.q1

    def nlerp(t):
        m = (1 - t) * q0 + t * q1
        return m / np.linalg.norm(m)

    h = 1e-6
    speeds = [math.degrees(2 * np.linalg.norm((nlerp(t + h) - nlerp(t - h)) / (2 * h)))
              for t in (h, 0.5)]
    lo, hi = speeds
    assert lo == pytest.approx(114.2, abs=0.1)   # design/preset text: 114 -> 210 deg/t
    assert hi == pytest.approx(210.0, abs=0.1)
    text = _text(explain(s))
    assert f"{lo:.1f} to {hi:.1f} °/t" in text
    assert "170.0 °/t" in text
