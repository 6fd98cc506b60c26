"""Hostile input through the window: every failure is a message, never a traceback or a hang.

Each test here reproduces a defect the random GUI test (tests/test_gui_fuzz.py)
or a hostile file found, through the path a user takes (a file dialog's
result, a drop, a spin box), and checks that the user is told and that the
previous valid state stays.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from PyQt6 import QtCore, QtGui, QtWidgets

import quatlab.app.qt.window as window_module
from quatlab.app.model.state import LessonState
from quatlab.app.qt.window import MainWindow


def _snapshot(state: LessonState):
    return (state.entered(0).tolist(), state.entered(1).tolist(), state.t, state.preset)


@pytest.fixture
def window(qtbot, monkeypatch):
    monkeypatch.setattr(window_module, "_view_modules", lambda: [])
    win = MainWindow(LessonState.from_preset("negated-20", t=0.5))
    qtbot.addWidget(win)
    return win


# --------------------------------------------------------------------------- sessions


@pytest.mark.parametrize("t", [[0.1, 0.2], 10**400])
def test_session_with_a_bad_t_is_a_message(window, tmp_path, warnings_shown, t):
    data = LessonState.from_preset("half-turn").to_session()
    data["t"] = t
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = _snapshot(window.state)
    window.open_session(str(path))            # raised TypeError / OverflowError before
    assert len(warnings_shown) == 1
    title, text = warnings_shown[0]
    assert "odd.json" in title and "t" in text.split()[1]
    assert _snapshot(window.state) == before


def test_deeply_nested_session_is_a_message(window, tmp_path, warnings_shown):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    before = _snapshot(window.state)
    window.open_session(str(path))            # RecursionError escaped before
    assert len(warnings_shown) == 1
    assert "deep.json" in warnings_shown[0][0]
    assert _snapshot(window.state) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_session_that_is_a_fifo_is_refused_without_blocking(window, tmp_path, warnings_shown):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    good = json.dumps(LessonState.from_preset("half-turn").to_session()).encode()
    stop = time.monotonic() + 3.0

    def writer():
        # Before the fix the window opened the FIFO and waited for a writer:
        # this one comes after a while with a valid session, which the old
        # code then applied without a word.
        while time.monotonic() < stop:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                time.sleep(0.05)
                continue
            time.sleep(0.5)
            os.write(fd, good)
            os.close(fd)
            return

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    before = _snapshot(window.state)
    window.open_session(str(path))
    thread.join()
    assert len(warnings_shown) == 1
    assert "regular file" in warnings_shown[0][1]
    assert _snapshot(window.state) == before


# --------------------------------------------------------------------------- keyframe drops


def _drop(qtbot, win: MainWindow, path) -> None:
    mime = QtCore.QMimeData()
    mime.setUrls([QtCore.QUrl.fromLocalFile(str(path))])
    pos = QtCore.QPointF(win.rect().center())
    event = QtGui.QDropEvent(pos, QtCore.Qt.DropAction.CopyAction, mime,
                             QtCore.Qt.MouseButton.LeftButton,
                             QtCore.Qt.KeyboardModifier.NoModifier)
    win.dropEvent(event)
    qtbot.wait(20)                            # the drop opens the file after it returns


@pytest.fixture
def keyframes_window(qtbot, monkeypatch):
    from quatlab.app.qt import keyframes_view, track_view

    monkeypatch.setattr(window_module, "_view_modules", lambda: [keyframes_view, track_view])
    win = MainWindow(LessonState.from_preset("negated-20", t=0.5))
    qtbot.addWidget(win)
    return win


def test_dropped_track_with_a_huge_integer_is_a_message(qtbot, keyframes_window, tmp_path,
                                                        warnings_shown):
    path = tmp_path / "huge.json"
    path.write_text('{"order": "wxyz", "times": [0, 1], "values": [[1, 0, 0, 0], [1, 0, 0, '
                    + "9" * 400 + "]]}", encoding="utf-8")
    errors = []
    old_hook = sys.excepthook
    sys.excepthook = lambda *exc: errors.append(exc)
    try:
        _drop(qtbot, keyframes_window, path)
    finally:
        sys.excepthook = old_hook
    assert errors == []
    assert len(warnings_shown) == 1
    title, text = warnings_shown[0]
    assert "huge.json" in title and text


def test_open_keyframes_failure_of_any_kind_is_a_message(keyframes_window, tmp_path,
                                                         warnings_shown, monkeypatch):
    view = keyframes_window.views["keyframes"]

    def broken(path, order=None):
        raise RuntimeError("reader bug")

    monkeypatch.setattr(view, "open", broken)
    path = tmp_path / "x.gltf"
    assert keyframes_window._open_keyframes_reporting(str(path)) is False
    # A defect of QuatLab's, said so, without the exception's raw text.
    assert warnings_shown == [("Could not open x.gltf", (
        f"{path}: QuatLab's reader failed on this file with an unexpected RuntimeError. This is "
        "a defect in QuatLab; please report it together with the file"))]


def test_gltf_value_of_the_wrong_type_is_a_message_naming_the_field(qtbot, keyframes_window,
                                                                    tmp_path, warnings_shown):
    from gltf_forge import doc, payload, write

    (tmp_path / "a.bin").write_bytes(payload())
    d = doc("a.bin", len(payload()))
    d["buffers"][0]["uri"] = True     # AttributeError: 'bool' object has no attribute ... before
    path = write(tmp_path / "model.gltf", d)
    _drop(qtbot, keyframes_window, path)
    qtbot.waitUntil(lambda: len(warnings_shown) == 1)
    assert warnings_shown == [("Could not open model.gltf",
                               f"{path}: buffers[0].uri: expected a string, got true")]
    model = keyframes_window.views["keyframes"].model
    assert model.file is None and "buffers[0].uri: expected a string, got true" in str(
        model.message.text)



# --------------------------------------------------------------------------- SQUAD key table


@pytest.fixture
def track_view(qtbot):
    from quatlab.app.model.track_lesson import TrackModel
    from quatlab.app.qt.track_view import TrackView

    view = TrackView(TrackModel("four_keys"))
    qtbot.addWidget(view)
    view.resize(1100, 800)
    view.show()
    qtbot.waitExposed(view)
    return view


def _click_negate(qtbot, view, row):
    from quatlab.app.qt.track_view import COLUMNS

    table = view.keys.table
    index = table.model().index(row, len(COLUMNS) - 1)
    table.scrollTo(index)
    qtbot.mouseClick(table.viewport(), QtCore.Qt.MouseButton.LeftButton,
                     pos=table.visualRect(index).center())


def test_negate_works_on_keys_removed_and_added_again(qtbot, track_view):
    m, kv = track_view.model, track_view.keys
    qtbot.mouseClick(kv.add_button, QtCore.Qt.MouseButton.LeftButton)   # key 4
    track_view.preset_box.setCurrentIndex(track_view.preset_box.findData("negated_key"))
    # Before, the preset dropped row 4 and its button with it; adding the key
    # again re-inserted the deleted button: RuntimeError, or a crash later.
    qtbot.mouseClick(kv.add_button, QtCore.Qt.MouseButton.LeftButton)
    m.remove_key(1)
    m.add_key()                                # both in one event-loop turn
    qtbot.wait(10)
    assert len(m.times) == 5
    before = m.keys[4].copy()
    _click_negate(qtbot, track_view, 4)
    np.testing.assert_array_equal(m.keys[4], -before)
    assert float(kv.cell(4, 1)) == pytest.approx(-before[0], rel=1e-5)


def test_key_table_builds_nothing_per_key(qtbot, track_view, rng):
    widgets = len(track_view.keys.findChildren(QtWidgets.QWidget))
    n = 150
    times = np.cumsum(rng.uniform(0.05, 0.2, n))
    track_view.load_track(times, rng.normal(size=(n, 4)), "long")
    qtbot.wait(10)
    # One button and five cells per key before (2,000 keys: 10 s).
    assert len(track_view.keys.findChildren(QtWidgets.QWidget)) == widgets
    assert track_view.keys.table.model().rowCount() == n
    assert float(track_view.keys.cell(n - 1, 0)) == pytest.approx(times[-1], rel=1e-5)
    assert track_view.plots._key_lines["angle"] == []   # 150 lines would be a grey wall


def test_too_long_track_is_refused_and_the_track_kept(track_view):
    m = track_view.model
    times, keys = m.times.copy(), m.keys.copy()
    n = m.MAX_KEYS + 1
    with pytest.raises(ValueError, match=f"up to {m.MAX_KEYS} keys.*{n}"):
        track_view.load_track(np.arange(n) * 0.1, np.tile([1.0, 0, 0, 0], (n, 1)), "huge")
    np.testing.assert_array_equal(m.times, times)
    np.testing.assert_array_equal(m.keys, keys)


def test_add_key_stops_at_its_limit(track_view):
    m = track_view.model
    while len(m.times) < m.MAX_ADDED_KEYS:
        m.add_key()
    track_view.keys.add_button.click()
    assert len(m.times) == m.MAX_ADDED_KEYS
    assert f"up to {m.MAX_ADDED_KEYS} keys" in track_view.keys.message.text()


@pytest.mark.parametrize("tangents", [False, True])
def test_rotation_at_the_slider_matches_the_whole_track(rng, tangents):
    """The slider's pose is evaluated on the keys around it: the oracle is the whole track."""
    from quatlab.app.model.track_lesson import TrackModel
    from quatlab.math import track as T
    from quatlab.math.quaternion import angle_between

    m = TrackModel()
    m.set_time_scaled(tangents)
    n = 12
    times = np.cumsum(rng.uniform(0.1, 1.0, n))
    keys = rng.normal(size=(n, 4))
    keys[5] *= -1                                           # a stored sign flip inside
    m.set_track(times, keys, "random")
    rule = "time_scaled" if tangents else "uniform"
    for t in [times[0], times[3], *rng.uniform(times[0], times[-1], 15), times[-1]]:
        m.set_param(t)
        got = m.at_param()
        for name in m.SHOWN:
            method, signs = (("squad", "unaware_controls") if name == "squad_unaware"
                             else (name, "aware"))
            want = T.evaluate(times, keys, [m.param], method, signs=signs,
                              tangents=rule).quats[0]
            assert angle_between(got[name], want) < 1e-9, (name, t)


# --------------------------------------------------------------------------- integration drift


@pytest.fixture
def integrate_view(qtbot):
    from quatlab.app.model.integrate_lesson import IntegrateModel
    from quatlab.app.qt.integrate_view import IntegrateView

    view = IntegrateView(IntegrateModel("first_order_20hz"))
    qtbot.addWidget(view)
    view.resize(1100, 800)
    view.show()
    qtbot.waitExposed(view)
    return view


def _set_spin(qtbot, spin, value):
    spin.setValue(value)             # keyboard tracking off: one valueChanged, as on Enter
    qtbot.wait(5)


def test_stretch_line_never_gets_an_infinity(qtbot, integrate_view):
    v, m = integrate_view, integrate_view.model
    assert m.step == "first_order" and not m.renormalize
    _set_spin(qtbot, v.dt, 1.0)      # |q| ~ 7e20 at step 200: |q|^2 overflows float32
    assert m.dt == 1.0 and m.param == m.steps
    assert np.linalg.norm(m.at_param()["integrated"]) ** 2 > np.finfo(np.float32).max
    assert not v.stretch.visible() or np.all(np.isfinite(v.stretch.pos))
    assert v.scene._labels["integrated"] == "integrated q, |q| = 7.36e+20"
    m.set_param(10)                  # early on the line is drawn again, finite
    assert v.stretch.visible() and np.all(np.isfinite(v.stretch.pos))


def test_refused_steps_are_a_message_and_the_spin_box_follows_the_model(qtbot, integrate_view):
    v, m = integrate_view, integrate_view.model
    _set_spin(qtbot, v.dt, 1.0)
    _set_spin(qtbot, v.steps, 20_000)       # overflows: refused (ValueError escaped before)
    assert m.steps == 200
    assert v.steps.value() == 200
    assert "overflows" in v.message.text() and v.message.isVisible()
    _set_spin(qtbot, v.steps, 150)          # a valid value clears the message
    assert m.steps == 150 and not v.message.isVisible()


# --------------------------------------------------------------------------- plots


def test_cursor_moves_reuse_the_dot_brushes(qtbot):
    """Playback moves the cursor 60 times a second: no new brush per move."""
    from quatlab.math import quaternion as Q
    from quatlab.math.curves import compute_curves
    from quatlab.rendering.curve_plots import CurvePlots

    plots = CurvePlots()
    qtbot.addWidget(plots)
    plots.set_curves(compute_curves(Q.IDENTITY, Q.from_axis_angle([0, 0, 1.0], 2.0)))
    plots.set_cursor(0.2)
    first = [id(b) for b in plots._dots["angle"].data["brush"]]
    assert len(first) == 4
    for t in np.linspace(0.0, 1.0, 50):
        plots.set_cursor(t)
    assert [id(b) for b in plots._dots["angle"].data["brush"]] == first
    # Still the method colours, dot by dot.
    colours = {b.color().name() for b in plots._dots["angle"].data["brush"]}
    from quatlab.rendering.style import METHOD_COLORS
    assert colours == {c.lower() for c in METHOD_COLORS.values()}


@pytest.mark.parametrize("suffix", [".png", ".svg", ".csv"])
@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_plot_exports_use_the_atomic_writer_and_the_umask(qtbot, tmp_path, monkeypatch,
                                                          suffix, umask):
    import quatlab.rendering.plot_export as plot_export
    from quatlab.app.io import atomic
    from quatlab.rendering.curve_plots import CurvePlots

    calls = []
    monkeypatch.setattr(plot_export, "atomic_write",
                        lambda path, data, **kw: (calls.append(path),
                                                  atomic.atomic_write(path, data, **kw)),
                        raising=False)
    plots = CurvePlots()
    qtbot.addWidget(plots)
    old = os.umask(umask)
    try:
        out = plots.export(tmp_path / f"p{suffix}")
    finally:
        os.umask(old)
    assert calls == [out]
    assert os.stat(out).st_mode & 0o777 == 0o666 & ~umask
    assert [p.name for p in tmp_path.iterdir()] == [f"p{suffix}"]
    assert out.stat().st_size > 100


# --------------------------------------------------------------------------- the command


QUATLAB = Path(sys.executable).with_name("quatlab")


def test_no_display_is_one_line_and_exit_2(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    proc = subprocess.run([str(QUATLAB), "--preset", "half-turn"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    # Qt aborted before (exit 134) with a misleading libxcb-cursor0 message.
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "no display" in lines[0] and "xvfb-run -a" in lines[0] and "--preset" in lines[0]


@pytest.mark.parametrize(("env", "reason"), [
    ({}, True), ({"DISPLAY": ":0"}, False), ({"WAYLAND_DISPLAY": "wayland-0"}, False),
    ({"QT_QPA_PLATFORM": "offscreen"}, False), ({"QT_QPA_PLATFORM": "xcb"}, True),
])
def test_no_display_reason(env, reason):
    from quatlab.app.commands.window import no_display_reason

    assert (no_display_reason(env, "linux") is not None) is reason
    assert no_display_reason({}, "darwin") is None


def _quatlab_windows() -> int:
    out = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, text=True).stdout
    return out.count('"QuatLab')


def _window_up(pid: int, before: int) -> bool:
    """The child's window is mapped: one more QuatLab window than before it started
    (this test process may have windows of its own left from earlier tests)."""
    return _quatlab_windows() > before and proc_alive(pid)


def proc_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


@pytest.mark.skipif(shutil.which("xwininfo") is None, reason="needs xwininfo (x11-utils)")
def test_ctrl_c_in_the_terminal_closes_the_window(tmp_path):
    before = _quatlab_windows()
    proc = subprocess.Popen([str(QUATLAB), "--preset", "half-turn"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 90
        while not _window_up(proc.pid, before):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the window did not appear"
            time.sleep(0.3)
        time.sleep(0.5)                               # idle in the event loop
        proc.send_signal(signal.SIGINT)
        # Before, the signal waited for Python code to run (a mouse move),
        # then ended in a KeyboardInterrupt traceback.
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    shown = "\n".join([ln for ln in err.splitlines() if "QPainter" not in ln][-12:])
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, shown
    assert proc.returncode == 128 + signal.SIGINT


def test_repairs_are_bounded_with_a_message(qtbot, integrate_view):
    v, m = integrate_view, integrate_view.model
    m.set_preset("matrix_float32")                     # 10,000 steps
    every = m.reorthonormalize_every
    _set_spin(qtbot, v.every, 2)                       # 5,000 repairs: seconds before
    assert m.reorthonormalize_every == every and v.every.value() == every
    assert "repairs" in v.message.text() and "every 20 steps or more" in v.message.text()
    _set_spin(qtbot, v.every, 20)
    assert m.reorthonormalize_every == 20 and not v.message.isVisible()
    assert m.repair_steps().size == m.steps // 20
