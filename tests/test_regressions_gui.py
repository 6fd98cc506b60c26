"""Regression tests for app bugs found by the GUI/CLI suite and fixed.

|q| as entered for 1e200 / 1e-160 input, --samples cap, screenshot --size below
the window's minimum, ping-pong direction leaking into other modes, negate(2),
and non-boolean session flags.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from PyQt6 import QtCore, QtGui, QtWidgets

import quatlab.app.qt.window as window_module
from quatlab.app.model.state import LessonState
from quatlab.app.qt.scrubber import BASE_DURATION
from quatlab.app.qt.window import MainWindow

Qt = QtCore.Qt


def _build(qtbot, monkeypatch, *, all_views=False, size=(1400, 900)):
    if not all_views:
        monkeypatch.setattr(window_module, "_view_modules", lambda: [], raising=False)
    win = MainWindow(LessonState.from_preset("negated-20", t=0.5))
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    QtWidgets.QApplication.processEvents()
    return win


def qimage_rgb(img: QtGui.QImage) -> np.ndarray:
    img = img.convertToFormat(QtGui.QImage.Format.Format_RGBA8888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    arr = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine() // 4, 4)
    return arr[:, : img.width(), :3].copy()


def run_cli(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "quatlab.app", *args], capture_output=True,
                          text=True, timeout=timeout)


# --------------------------------------------------------------------------- 2. huge components


@pytest.mark.parametrize(
    ("entered", "unit", "norm"),
    [((1e200, 1e200, 0, 0), (2 ** -0.5, 2 ** -0.5, 0, 0), 2 ** 0.5 * 1e200),
     ((1e-160, 0, 0, 0), (1, 0, 0, 0), 1e-160),
     ((0, 0, 3e-170, 4e-170), (0, 0, 0.6, 0.8), 5e-170)],
)
def test_state_keeps_the_entered_norm_of_huge_and_tiny_input(entered, unit, norm):
    """Finite, non-zero input is normalized and |q| as entered is what was typed.
    (83e087f stopped 1e200 from becoming (0, 0, 0, 0), but as_quaternion(normalized=False)
    now rescales by the largest component, so the state reports |q| = 1.41421.)"""
    s = LessonState()
    s.set_endpoint(0, entered)
    np.testing.assert_allclose(s.q0, unit, atol=1e-15)
    assert s.entered_norm(0) == pytest.approx(norm, rel=1e-12, abs=0)
    # The session stores the quaternion as entered.
    np.testing.assert_allclose(s.to_session()["q0"], entered, rtol=1e-12)


def test_typing_a_huge_component_shows_it_as_typed(qtbot, monkeypatch):
    """Typing 1e200 into q0's x field: q0 becomes (0, 1, 0, 0) and the fields and the
    |q| label must show what was typed, not a rescaled copy."""
    win = _build(qtbot, monkeypatch)
    ed = win.editors[0]
    edit = ed.components[1]
    edit.selectAll()
    qtbot.keyClicks(edit, "1e200")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    np.testing.assert_allclose(win.state.q0, [0, 1, 0, 0], atol=1e-15)
    assert float(ed.components[1].text()) == pytest.approx(1e200, rel=1e-4)
    assert float(ed.components[0].text()) == pytest.approx(1.0, rel=1e-4)
    assert "e+200" in ed.norm_label.text()


# --------------------------------------------------------------------------- 3. CLI


def test_cli_curves_huge_samples_is_one_line_not_a_traceback():
    proc = run_cli("curves", "--preset", "half-turn", "--samples", "100000000000")
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1 and "--samples" in proc.stderr


def test_cli_screenshot_size_is_honoured_or_refused(qapp, tmp_path):
    """--size 900x640 is accepted (>= 200x200) but the PNG comes out 1309x640: the
    window cannot be narrower than its minimum size."""
    out = tmp_path / "s.png"
    proc = run_cli("screenshot", "-o", str(out), "--size", "900x640", timeout=120)
    if proc.returncode == 2:  # refused: one line naming --size, nothing written
        assert len(proc.stderr.splitlines()) == 1 and "--size" in proc.stderr
        assert not out.exists()
        return
    assert proc.returncode == 0, proc.stderr
    img = QtGui.QImage(str(out))
    assert (img.width(), img.height()) == (900, 640)


# --------------------------------------------------------------------------- 4. playback


@pytest.mark.parametrize("mode", ["loop", "once"])
def test_play_forward_after_a_ping_pong_bounce(qtbot, monkeypatch, mode):
    """After a bounce in ping-pong, switching to loop (or once) keeps the backward
    direction: t runs down and then sticks at 0 while 'playing'."""
    monkeypatch.setattr(window_module, "_view_modules", lambda: [], raising=False)
    win = MainWindow(LessonState.from_preset("negated-20", t=0.9))
    qtbot.addWidget(win)
    sc = win.lesson.scrubber
    sc.mode.setCurrentText("ping-pong")
    quarter = BASE_DURATION / 4           # seconds to move t by 0.25 at 1x
    sc.advance(quarter)                   # bounces at 1: now going down
    assert win.state.t == pytest.approx(0.85)
    sc.mode.setCurrentText(mode)
    win.state.set_t(0.2)
    sc.advance(quarter)
    assert win.state.t == pytest.approx(0.45), f"{mode} mode must play forward"


# --------------------------------------------------------------------------- 5. model


def test_negate_validates_which():
    s = LessonState.from_preset("negated-20")
    q1 = s.q1
    with pytest.raises(ValueError, match="which"):
        s.negate(2)
    np.testing.assert_array_equal(s.q1, q1)
    assert not s.can_undo


@pytest.mark.parametrize(
    ("field", "value"),
    [("root_only", "false"), ("visible", {"naive_nlerp": "no"}), ("root_only", [0])],
)
def test_apply_session_refuses_non_boolean_options(field, value):
    data = LessonState.from_preset("quarter-turn").to_session()
    data[field] = value
    s = LessonState.from_preset("negated-20")
    before = s.to_session()
    with pytest.raises(ValueError, match=field):
        s.apply_session(data)
    assert s.to_session() == before


def test_options_emit_only_on_a_real_change():
    from quatlab.app.model.state import LessonState

    s = LessonState.from_preset("negated-20")
    seen = []
    s.events.connect("options", lambda: seen.append(1))
    s.set_root_only(True)           # already True (the default: one rigid body)
    s.set_chain_family("slerp")     # already slerp
    s.set_visible("naive_nlerp", True)
    assert seen == []
    s.set_root_only(False)
    s.set_chain_family("nlerp")
    s.set_visible("naive_nlerp", False)
    assert len(seen) == 3


def test_presets_cannot_be_corrupted_by_a_caller():
    from quatlab.app.model import presets

    q = presets.get("negated-20").q1
    with pytest.raises(ValueError):
        q[0] = 5.0
    assert presets.get("negated-20").q1[0] == pytest.approx(-np.cos(np.radians(10)))


def test_apply_session_renders_endpoints_at_the_sessions_t():
    from quatlab.app.model.state import LessonState

    s = LessonState.from_preset("negated-20", t=0.5)
    data = LessonState.from_preset("quarter-turn", t=0.25).to_session()
    t_seen = []
    s.events.connect("endpoints", lambda: t_seen.append(s.t))
    s.apply_session(data)
    assert t_seen == [0.25]


def test_history_round_trip_and_labels():
    from quatlab.app.model.history import History

    h = History()
    assert h.undo("x") is None and h.redo("x") is None
    h.record(1, "one")
    h.record(2, "two")
    assert h.undo_label == "two"
    assert h.undo(3) == 2 and h.redo_label == "two"
    assert h.undo(2) == 1 and not h.can_undo
    assert h.redo(1) == 2 and h.redo(2) == 3 and not h.can_redo
    h.undo(3)
    h.record(2, "new")          # a new edit after an undo drops the redo branch
    assert not h.can_redo


def test_enter_in_an_untouched_field_changes_nothing(qtbot):
    from PyQt6 import QtCore

    from quatlab.app.model.state import LessonState
    from quatlab.app.qt.endpoint_editor import EndpointEditor

    s = LessonState.from_preset("negated-20")
    exact = s.entered(1)
    ed = EndpointEditor(s, 1)
    qtbot.addWidget(ed)
    for edits in (ed.components, ed.axis, ed.euler):
        qtbot.keyClick(edits[0], QtCore.Qt.Key.Key_Return)
    # The fields show 5 digits; re-parsing them would have rounded q1.
    np.testing.assert_array_equal(s.entered(1), exact)
    assert not s.can_undo and s.preset == "negated-20"
    # A real edit of one field keeps the other fields' exact values.
    ed.components[1].selectAll()
    qtbot.keyClicks(ed.components[1], "0.5")
    qtbot.keyClick(ed.components[1], QtCore.Qt.Key.Key_Return)
    got = s.entered(1)
    assert got[1] == 0.5 and got[0] == exact[0] and got[3] == exact[3]


def test_half_turn_explanation_does_not_claim_a_long_way():
    from quatlab.app.model.explain import explain
    from quatlab.app.model.state import LessonState

    text = " ".join(explain(LessonState.from_preset("gltf-box-animated")))
    assert "360° −" not in text and "equally long" in text and "rounding error" in text


def test_sign_flip_between_q_and_minus_q_says_collapse():
    from quatlab.app.io.track_audit import audit_track
    from quatlab.app.io.tracks import Track

    q = [0.5, 0.5, 0.5, 0.5]
    findings = audit_track(Track(times=[0.0, 1.0], values=[q, [-v for v in q]]))
    flips = [f for f in findings if f.kind == "sign_flip"]
    assert len(flips) == 1
    assert "zero quaternion" in flips[0].message and "360" not in flips[0].message


def test_playback_keys_drive_the_shown_tabs_scrubber(qtbot):
    from quatlab.app.qt.window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.state.set_t(0.5)
    win._step(0.1)                       # the two-key lesson: t
    assert win.state.t == pytest.approx(0.6)
    win.show_view("integrate")
    sc = win.current_scrubber()
    assert sc is not win.lesson.scrubber
    lo, hi = sc.param.range
    win._go(0.0)
    assert sc.param.get() == lo
    win._step(0.01)                      # whole steps: at least one
    assert sc.param.get() >= lo + 1 and float(sc.param.get()).is_integer()
    assert win.state.t == pytest.approx(0.6)   # the lesson's t untouched
    win.show_view("keyframes")           # its own: the rig's time in seconds
    assert win.current_scrubber() is win.views["keyframes"].rig_panel.scrubber


def test_oblique_pole_shows_the_paths_as_curves():
    from quatlab.app.model.state import LessonState
    from quatlab.app.qt import s3_view
    from quatlab.math import s3

    # With q0 = identity both other poles lie in the q0-q1 plane: every path
    # projects onto one line. The oblique pole bends them into arcs.
    state = LessonState.from_preset("negated-20")
    pts = s3.stereographic(state.curves["naive_slerp"].quats,
                           s3_view.POLES["oblique"](state.q0))
    pts = pts[np.all(np.isfinite(pts), axis=1)]
    centred = pts - pts.mean(axis=0)
    sv = np.linalg.svd(centred, compute_uv=False)
    assert sv[1] > 1e-2 * sv[0]          # not collinear
    line = s3.stereographic(state.curves["naive_slerp"].quats, s3_view.POLES["w = −1"](state.q0))
    line = line[np.all(np.isfinite(line), axis=1)]
    sv_line = np.linalg.svd(line - line.mean(axis=0), compute_uv=False)
    assert sv_line[1] < 1e-9 * sv_line[0]


# --------------------------------------------------------------------------- exit


_TEARDOWN_CRASH = """
import atexit, os, signal, sys
from quatlab.app.commands import cli

def main():
    from PyQt6 import QtWidgets
    global app
    app = QtWidgets.QApplication(["quatlab"])
    print("wrote out.png")
    # Stands for Qt's teardown crashing at interpreter exit, after the work.
    atexit.register(lambda: os.kill(os.getpid(), signal.SIGSEGV))
    return int(sys.argv[1])

cli.main = main
cli.entry()
"""


@pytest.mark.parametrize("status", [0, 2])
def test_a_qt_command_exits_with_its_status_whatever_the_teardown_does(status):
    """A finished `quatlab screenshot` (PNG written, "wrote ..." printed) now and then
    ended with SIGSEGV in the interpreter's teardown of Qt: the console script leaves
    without it once Qt was started, with the command's own status and its output kept."""
    proc = subprocess.run([sys.executable, "-c", _TEARDOWN_CRASH, str(status)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert proc.returncode == status, proc
    assert proc.stdout == "wrote out.png\n"


def test_a_headless_command_exits_as_usual(tmp_path):
    """No Qt loaded, the usual exit: atexit handlers (coverage, Dask) still run."""
    script = ("import atexit, sys\nfrom quatlab.app.commands import cli\n"
              "atexit.register(lambda: print('atexit ran'))\n"
              "cli.main = lambda: 3\ncli.entry()\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 3 and proc.stdout == "atexit ran\n", proc
