"""The Keyframes tab (issue 4, GUI): real glTF samples, lesson hand-off, fix/undo, export, pixels.

The window is the real :class:`MainWindow` with only this tab besides the
two-key lesson. Rotations are checked against scipy's ``Rotation`` built from
the (x, y, z, w) values the samples' README documents, not from our loader.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PyQt6 import QtCore, QtGui, QtWidgets
from scipy.spatial.transform import Rotation

from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.track_audit import audit_file
from quatlab.app.io.tracks import KeyframeFileError, Track
from quatlab.app.model.keyframes_model import KeyframesModel
from quatlab.app.model.state import LessonState
from quatlab.app.qt import keyframes_view as KV
from quatlab.app.qt import timeline as TL

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "gltf"
TRIANGLE = DATA / "AnimatedTriangle.gltf"
BOX = DATA / "BoxAnimated.gltf"
RIGGED = DATA / "RiggedSimple.gltf"
#: AnimatedTriangle's keys as the README lists them, (x, y, z, w).
TRIANGLE_XYZW = [(0, 0, 0, 1), (0, 0, .707, .707), (0, 0, 1, 0), (0, 0, .707, -.707), (0, 0, 0, 1)]
SIGN_KINDS = {"sign_flip", "half_turn"}


def rot(q_wxyz) -> Rotation:
    w, x, y, z = np.asarray(q_wxyz, dtype=float)
    return Rotation.from_quat([x, y, z, w])


def same_rotation(a: Rotation, b: Rotation, atol=1e-9) -> bool:
    return np.allclose(a.as_matrix(), b.as_matrix(), atol=atol)


@pytest.fixture
def window(keyframes_window):
    return keyframes_window  # conftest: the window with the Keyframes tab shown


@pytest.fixture
def view(window) -> KV.KeyframesView:
    return window.views["keyframes"]


def current_tab(window) -> str:
    return window.tabs.currentWidget().objectName()


def cell(table: QtWidgets.QTableView, row: int, col: int) -> str:
    return table.model().index(row, col).data()


def click_row(qtbot, table: QtWidgets.QTableView, row: int) -> None:
    rect = table.visualRect(table.model().index(row, 0))
    qtbot.mouseClick(table.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())


def grab_rgb(widget) -> np.ndarray:
    img = widget.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())
    return rows[:, : 3 * img.width()].reshape(img.height(), img.width(), 3).copy()


def colour_mask(rgb: np.ndarray, hex_colour: str, tol: int = 6) -> np.ndarray:
    want = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)])
    return (np.abs(rgb.astype(int) - want) <= tol).all(axis=-1)


# --------------------------------------------------------------------------- model, no Qt


def test_doctests():
    import doctest

    from quatlab.app.model import keyframes_model
    from quatlab.app.qt import keyframe_tables, whole_rows

    for module in (keyframes_model, keyframe_tables, whole_rows):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__


@pytest.mark.parametrize(("path", "expected"), [
    (TRIANGLE, {3: "sign_flip"}),
    (BOX, {0: "half_turn"}),
    (RIGGED, {}),
])
def test_real_files_flag_the_documented_segments(path, expected):
    m = KeyframesModel()
    m.load(path)
    assert len(m.tracks) == 1
    seg = m.segments(0)
    flagged = {i: kinds for i, kinds in enumerate(seg.flags) if set(kinds) & SIGN_KINDS}
    assert flagged == {i: (k,) for i, k in expected.items()}
    # The same findings as `quatlab check` (audit_file) reports.
    assert [f.kind for f in m.findings(0)] == [
        f.kind for f in audit_file(load_keyframes(path))[0].findings]


def test_segment_numbers_against_scipy():
    m = KeyframesModel()
    m.load(TRIANGLE)
    seg = m.segments(0)
    keys = np.array(TRIANGLE_XYZW, dtype=float)
    unit = keys / np.linalg.norm(keys, axis=1, keepdims=True)
    for i in range(4):
        a, b = Rotation.from_quat(keys[i]), Rotation.from_quat(keys[i + 1])
        short = np.degrees((a.inv() * b).magnitude())
        dot = float(unit[i] @ unit[i + 1])
        assert seg.dot[i] == pytest.approx(dot, abs=1e-3)  # README rounds to .707
        assert seg.shortest_deg[i] == pytest.approx(short, abs=0.05)
        naive = 360 - short if dot < 0 else short
        assert seg.naive_deg[i] == pytest.approx(naive, abs=0.05)
    assert seg.naive_deg[3] == pytest.approx(270, abs=0.05)


def test_select_segment_with_a_zero_key_is_refused_and_keeps_the_lesson():
    lesson = LessonState.from_preset("quarter-turn")
    m = KeyframesModel(lesson)
    m.set_tracks([Track(times=[0, 1, 2], values=[[1, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]])])
    seg = m.segments(0)
    assert np.isnan(seg.dot).all() and np.isnan(seg.naive_deg).all()
    assert seg.severity(0) == "warning"  # a zero key leaves the segment nothing to blend
    before = (lesson.q0, lesson.q1)
    assert m.select_segment(0) is False
    assert m.message.error and "zero length" in m.message.text
    assert np.array_equal(lesson.q0, before[0]) and np.array_equal(lesson.q1, before[1])


def test_reselecting_a_segment_adds_no_lesson_undo_steps():
    lesson = LessonState()
    m = KeyframesModel(lesson)
    m.load(TRIANGLE)
    before = lesson.endpoints
    m.select_segment(3)
    m.select_segment(3)
    # One undo goes back to before the first selection: the repeat added no step.
    lesson.undo()
    assert lesson.endpoints is before
    assert not lesson.can_undo


# --------------------------------------------------------------------------- tables


def test_track_table_lists_animation_node_keys_and_findings(view):
    view.open(TRIANGLE)
    t = view.track_table
    assert view.track_model.rowCount() == 1
    assert [cell(t, 0, c) for c in range(5)] == ["#0", "#0", "LINEAR", "5", "1 sign flip"]
    tint = t.model().index(0, 0).data(QtCore.Qt.ItemDataRole.BackgroundRole)
    assert tint.color().name().upper() == TL.ROW_TINT["sign_flip"].upper()
    view.open(RIGGED)
    assert [cell(t, 0, c) for c in range(5)] == ["#0", "Bone.001 (#4)", "LINEAR", "50", "none"]
    assert t.model().index(0, 0).data(QtCore.Qt.ItemDataRole.BackgroundRole) is None


def test_segment_table_shows_dot_and_both_angles(view):
    view.open(TRIANGLE)
    s = view.segment_table
    assert view.segment_model.rowCount() == 4
    assert [cell(s, 3, c) for c in range(7)] == [
        "3 → 4", "0.750", "1.000", "-0.7071", "270.0", "90.0", "sign flip"]
    assert cell(s, 0, 6) == ""
    view.open(BOX)
    # A half turn's dot is tiny: its sign is the story, so it is not shown as -0.0000.
    assert cell(s, 0, 3) == "-4.49e-11"
    assert cell(s, 0, 6) == "half turn"


# --------------------------------------------------------------------------- lesson hand-off


def test_clicking_the_flagged_segment_loads_it_into_the_lesson(qtbot, window, view):
    view.open(TRIANGLE)
    click_row(qtbot, view.segment_table, 3)
    s = window.state
    assert view.model.selected_segment == 3
    assert same_rotation(rot(s.q0), Rotation.from_quat(TRIANGLE_XYZW[3]), atol=1e-3)
    assert same_rotation(rot(s.q1), Rotation.from_quat(TRIANGLE_XYZW[4]), atol=1e-3)
    # Exactly the stored keys (sign included), and they are in opposite hemispheres.
    track = view.model.tracks[0]
    assert np.array_equal(s.entered(0), track.values[3])
    assert np.array_equal(s.entered(1), track.values[4])
    assert s.dot < 0
    assert s.t == 0.5
    assert current_tab(window) == "main"
    # The lesson then shows the long way: naive NLERP sweeps 135 deg by t = 0.5.
    assert s.at_t()["naive_nlerp"].angle_deg[0] == pytest.approx(135.0, abs=0.1)


def test_jump_is_optional_and_arrow_keys_browse(qtbot, window, view):
    view.open(TRIANGLE)
    view.jump_box.setChecked(False)
    click_row(qtbot, view.segment_table, 1)
    assert current_tab(window) == "keyframes"
    assert np.array_equal(window.state.entered(1), view.model.tracks[0].values[2])
    view.jump_box.setChecked(True)
    view.segment_table.setFocus()
    qtbot.keyClick(view.segment_table, QtCore.Qt.Key.Key_Down)
    # The keyboard loads the next segment but leaves the user in the table.
    assert view.model.selected_segment == 2
    assert np.array_equal(window.state.entered(1), view.model.tracks[0].values[3])
    assert current_tab(window) == "keyframes"


def test_clicking_the_timeline_selects_the_segment(qtbot, window, view, tmp_path):
    # A track without a rig (CSV): the click loads the segment into the lesson and goes there.
    path = tmp_path / "triangle.csv"
    path.write_text("time,x,y,z,w\n" + "".join(
        f"{0.25 * k},{x},{y},{z},{w}\n" for k, (x, y, z, w) in enumerate(TRIANGLE_XYZW)))
    view.open(path)
    QtWidgets.QApplication.processEvents()
    assert view.playback.rig is None
    tl = view.timeline
    rect = tl.bar_rect(3)
    qtbot.mouseClick(tl.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())
    assert view.model.selected_segment == 3
    assert view.segment_table.currentIndex().row() == 3
    assert current_tab(window) == "main"
    assert window.state.dot < 0


def test_clicking_the_timeline_with_a_rig_moves_the_time_to_the_middle(qtbot, window, view):
    # The rig plays the track: the click selects the segment, loads the lesson, and
    # moves the time to the segment's middle, staying in the tab.
    view.open(TRIANGLE)
    assert view.rig_panel.wait_loaded()
    assert view.playback.rig is not None
    QtWidgets.QApplication.processEvents()
    tl = view.timeline
    rect = tl.bar_rect(3)
    qtbot.mouseClick(tl.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())
    assert view.model.selected_segment == 3
    assert current_tab(window) == "keyframes"
    t = view.model.tracks[0].times
    assert view.playback.time == pytest.approx(0.5 * (t[3] + t[4]))
    assert view.rig_panel.scrubber.spin.value() == pytest.approx(0.5 * (t[3] + t[4]), abs=1e-3)
    assert window.state.dot < 0


# --------------------------------------------------------------------------- fix, undo, export


def test_fix_signs_removes_the_sign_flip_and_undo_restores_it(qtbot, view):
    view.open(TRIANGLE)
    assert not view.undo_button.isEnabled()
    qtbot.mouseClick(view.fix_button, QtCore.Qt.MouseButton.LeftButton)
    m = view.model
    assert [f.kind for f in m.findings(0)] == []
    assert cell(view.segment_table, 3, 3) == "+0.7071"
    assert cell(view.segment_table, 3, 6) == ""
    assert cell(view.track_table, 0, 4) == "none"
    assert m.modified and "negated key 4" in view.message.text()
    # Same rotations: only the sign of key 4 changed.
    orig = load_keyframes(TRIANGLE).tracks[0].values
    assert np.array_equal(m.tracks[0].values[4], -orig[4])
    assert np.array_equal(m.tracks[0].values[:4], orig[:4])
    assert view.undo_button.isEnabled() and not view.redo_button.isEnabled()

    qtbot.mouseClick(view.undo_button, QtCore.Qt.MouseButton.LeftButton)
    assert [f.kind for f in m.findings(0)] == ["sign_flip"]
    assert cell(view.segment_table, 3, 6) == "sign flip"
    assert not m.modified and view.redo_button.isEnabled()

    qtbot.mouseClick(view.redo_button, QtCore.Qt.MouseButton.LeftButton)
    assert [f.kind for f in m.findings(0)] == []
    # Nothing left to fix: no empty undo step.
    qtbot.mouseClick(view.fix_all_button, QtCore.Qt.MouseButton.LeftButton)
    assert "nothing to fix" in view.message.text()
    m.undo()
    assert not m.can_undo


def test_export_writes_a_fixed_copy(qtbot, view, tmp_path, monkeypatch):
    view.open(TRIANGLE)
    view.model.fix_signs()
    out = tmp_path / "fixed.gltf"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(tmp_path / "fixed"), "")))
    qtbot.mouseClick(view.export_button, QtCore.Qt.MouseButton.LeftButton)
    # The typed name without extension got the input's.
    assert out.exists()
    back = load_keyframes(out)
    assert not [f for r in audit_file(back) for f in r.findings if f.kind in SIGN_KINDS]
    for key, xyzw in zip(back.tracks[0].values, TRIANGLE_XYZW, strict=True):
        assert same_rotation(rot(key), Rotation.from_quat(xyzw), atol=1e-3)
    assert "Exported with sign fixes" in view.message.text()


@pytest.mark.parametrize("answer, replaced", [("No", False), ("Yes", True)])
def test_export_over_an_existing_file_asks_first(qtbot, view, tmp_path, monkeypatch,
                                                 warnings_shown, answer, replaced):
    # The writer refuses to replace files unless told to; the tab asks once, naming
    # the files, and passes that on (it used to fail with "would replace").
    view.open(TRIANGLE)
    view.model.fix_signs()
    out = tmp_path / "fixed.gltf"
    out.write_text("mine")
    asked = []
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(out), "")))

    def question(parent, title, text, *a, **k):
        asked.append(text)
        return getattr(QtWidgets.QMessageBox.StandardButton, answer)

    monkeypatch.setattr(QtWidgets.QMessageBox, "question", staticmethod(question))
    qtbot.mouseClick(view.export_button, QtCore.Qt.MouseButton.LeftButton)
    assert warnings_shown == []
    assert len(asked) == 1 and str(out) in asked[0]
    if replaced:
        assert not [f for r in audit_file(load_keyframes(out)) for f in r.findings
                    if f.kind in SIGN_KINDS]
    else:
        assert out.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fixed.gltf"]


def test_export_refuses_the_input_path(qtbot, view, tmp_path, monkeypatch, warnings_shown):
    src = tmp_path / "AnimatedTriangle.gltf"
    shutil.copy(TRIANGLE, src)
    before = src.read_bytes()
    view.open(src)
    view.model.fix_signs()
    with pytest.raises(KeyframeFileError, match="input file"):
        view.model.export(src)
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(src), "")))
    qtbot.mouseClick(view.export_button, QtCore.Qt.MouseButton.LeftButton)
    assert len(warnings_shown) == 1 and "input file" in warnings_shown[0][1]
    assert src.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [src.name]  # no temporary left over
    assert view.model.message.error and "Not exported" in view.message.text()


# --------------------------------------------------------------------------- opening


def test_a_broken_file_shows_the_error_and_keeps_the_previous_file(qtbot, view, tmp_path,
                                                                   warnings_shown, monkeypatch):
    view.open(TRIANGLE)
    view.model.select_segment(3)
    broken = tmp_path / "broken.gltf"
    data = BOX.read_bytes()
    broken.write_bytes(data[: len(data) // 2])  # truncated mid-JSON
    with pytest.raises(KeyframeFileError, match="broken.gltf"):
        view.open(broken)
    m = view.model
    assert m.file.path == TRIANGLE and m.selected_segment == 3
    assert cell(view.segment_table, 3, 6) == "sign flip"
    assert "AnimatedTriangle.gltf" in view.file_label.text()
    text = view.message.text()
    assert text.startswith("Not opened") and "broken.gltf" in text
    assert "Still showing AnimatedTriangle.gltf" in text
    # The tab's Open button is the window's File > Open keyframes: a message box.
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(broken), "")))
    qtbot.mouseClick(view.open_button, QtCore.Qt.MouseButton.LeftButton)
    assert len(warnings_shown) == 1 and "broken.gltf" in warnings_shown[0][0]
    assert m.file.path == TRIANGLE


def test_csv_order_comes_from_the_combo(view, tmp_path):
    path = tmp_path / "track.csv"
    path.write_text("0,1,0,0,0\n1,-0.7071,0,0,-0.7071\n", encoding="utf-8")
    with pytest.raises(KeyframeFileError, match="component order"):
        view.open(path)
    view.order_box.setCurrentIndex(view.order_box.findData("wxyz"))
    view.open(path)
    assert view.model.segments(0).flags == (("sign_flip",),)


def test_window_open_keyframes(window, tmp_path):
    window.show_view("main")
    window.open_keyframes(str(TRIANGLE))
    assert current_tab(window) == "keyframes"
    with pytest.raises(KeyframeFileError):
        window.open_keyframes(str(tmp_path / "missing.gltf"))
    assert window.views["keyframes"].model.file.path == TRIANGLE


def test_dropping_a_file_on_the_window_opens_it(qtbot, window, view, tmp_path, warnings_shown):
    window.show_view("main")
    Qt = QtCore.Qt

    def drag(path) -> QtCore.QMimeData:
        mime = QtCore.QMimeData()
        mime.setUrls([QtCore.QUrl.fromLocalFile(str(path))])
        return mime

    mime = drag(TRIANGLE)
    enter = QtGui.QDragEnterEvent(QtCore.QPoint(700, 400), Qt.DropAction.CopyAction, mime,
                                  Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    window.dragEnterEvent(enter)
    assert enter.isAccepted()
    drop = QtGui.QDropEvent(QtCore.QPointF(700, 400), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    window.dropEvent(drop)
    qtbot.waitUntil(lambda: view.model.file is not None)
    assert view.model.file.path == TRIANGLE and current_tab(window) == "keyframes"
    # A bad drop warns and keeps the file. (The event does not own its mime
    # data: keep a reference, or Qt reads freed memory.)
    bad = drag(tmp_path / "none.glb")
    window.dropEvent(QtGui.QDropEvent(QtCore.QPointF(700, 400), Qt.DropAction.CopyAction, bad,
                                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    qtbot.waitUntil(lambda: len(warnings_shown) == 1)
    assert view.model.file.path == TRIANGLE


def test_menu_has_open_keyframes_on_ctrl_k(window):
    acts = [a for m in window.menuBar().findChildren(QtWidgets.QMenu) for a in m.actions()
            if a.text() == "Open keyframes…"]
    assert len(acts) == 1
    assert acts[0].shortcut().toString() == "Ctrl+K"


def test_run_window_with_a_bad_file_warns_and_fails(qapp, tmp_path, warnings_shown, capsys):
    from quatlab.app.commands.window import run_window

    status = run_window(file=str(tmp_path / "missing.gltf"))
    assert status == 2
    assert len(warnings_shown) == 1 and "missing.gltf" in warnings_shown[0][1]
    assert "missing.gltf" in capsys.readouterr().err


# --------------------------------------------------------------------------- pixels


def test_timeline_highlights_the_flagged_segment(view):
    view.open(TRIANGLE)
    QtWidgets.QApplication.processEvents()
    tl = view.timeline
    red = colour_mask(grab_rgb(tl), TL.HIGHLIGHT["sign_flip"])
    ys, xs = np.nonzero(red)
    assert len(xs) > 200
    bar = tl.bar_rect(3)
    # Every highlight pixel lies on segment 3's bar (0.75 s to 1 s), and fills it.
    assert xs.min() >= bar.left() - 1 and xs.max() <= bar.right() + 1
    # (less the key ticks over both ends, up to two pixels each at this narrower width)
    assert xs.max() - xs.min() >= bar.width() - 5
    for i in range(3):
        other = tl.bar_rect(i)
        assert not red[other.top():other.bottom(), other.left() + 2:other.right() - 2].any()

    view.model.fix_signs()
    QtWidgets.QApplication.processEvents()
    assert not colour_mask(grab_rgb(tl), TL.HIGHLIGHT["sign_flip"]).any()


def test_timeline_shows_a_half_turn_in_its_familys_colour(view):
    view.open(BOX)
    QtWidgets.QApplication.processEvents()
    rgb = grab_rgb(view.timeline)
    assert colour_mask(rgb, TL.FAMILY_COLOURS["half_turn"]).sum() > 200
    assert not colour_mask(rgb, TL.FAMILY_COLOURS["sign_flip"]).any()


def test_screenshot_command_opens_the_file(qapp, tmp_path):
    # ``qapp`` keeps this process on the suite's Xvfb while the subprocess uses it
    # (Xvfb resets when its last client leaves).
    out = tmp_path / "kf.png"
    proc = subprocess.run(
        [sys.executable, "-m", "quatlab.app", "screenshot", "--view", "keyframes",
         "--open", str(TRIANGLE), "-o", str(out)],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    img = QtGui.QImage(str(out)).convertToFormat(QtGui.QImage.Format.Format_RGB888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())
    rgb = rows[:, : 3 * img.width()].reshape(img.height(), img.width(), 3)
    assert colour_mask(rgb, TL.HIGHLIGHT["sign_flip"]).sum() > 200


def test_one_flag_on_a_long_track_still_shows(view):
    # 5000 keys on 700 px: a segment is a fraction of a pixel, and 5000 key ticks
    # would be a black band. The flagged segment must still be visible, and
    # the ticks come back when zoomed in far enough to tell keys apart.
    from quatlab.math.quaternion import from_axis_angle

    n = 5000
    q = from_axis_angle([0, 0, 1], np.linspace(0, 40, n))
    q[2500:] *= -1
    view.model.set_tracks([Track(times=np.arange(n) / 30, values=q)])
    QtWidgets.QApplication.processEvents()
    tl = view.timeline
    assert view.model.segments(0).flags[2499] == ("sign_flip",)
    red = colour_mask(grab_rgb(tl), TL.HIGHLIGHT["sign_flip"])
    assert red.any()
    bar = tl.bar_rect(2499)
    ys, xs = np.nonzero(red)
    assert xs.min() >= bar.left() - 1 and xs.max() <= bar.right() + 1
    assert colour_mask(grab_rgb(tl), KV.KEY_TICK, tol=2).sum() < 50  # no tick band
    tl.getPlotItem().setXRange(2490 / 30, 2510 / 30, padding=0)
    QtWidgets.QApplication.processEvents()
    assert colour_mask(grab_rgb(tl), KV.KEY_TICK, tol=2).sum() > 200


@pytest.mark.parametrize("name", ["RobotExpressive.glb", "Fox.glb", "CesiumMilkTruck.glb"])
def test_the_tables_columns_fit_as_qt_fits_them(view, name):
    # Oracle: Qt's own resizeColumnsToContents; fit_columns measures the same
    # texts without asking the model for every role of every cell.
    from quatlab.app.qt.keyframe_tables import fit_columns

    view.open(DATA / name)
    assert view.rig_panel.wait_loaded()
    for table in (view.track_table, view.segment_table):
        header, n = table.horizontalHeader(), table.model().columnCount()
        assert table.model().rowCount() > 1
        fit_columns(table)
        ours = [header.sectionSize(c) for c in range(n - 1)]  # the last one stretches
        for c in range(n):
            header.resizeSection(c, 5)
        table.resizeColumnsToContents()
        assert ours == [header.sectionSize(c) for c in range(n - 1)]
        assert all(w > 20 for w in ours)


def test_loading_with_a_runner_audits_every_track_inside_it(monkeypatch):
    # The window hands the model a runner that works on another thread: the
    # audit of every track (and the first shown track's segments) is made
    # there with the read, none of it left for the GUI thread afterwards.
    import threading

    import quatlab.app.model.keyframes_model as KM

    real_audit, real_segments, threads, segment_threads = KM.audit_track, KM._segments, [], []

    def audit(track):
        threads.append(threading.get_ident())
        return real_audit(track)

    def segments(track, findings):
        segment_threads.append(threading.get_ident())
        return real_segments(track, findings)

    monkeypatch.setattr(KM, "audit_track", audit)
    monkeypatch.setattr(KM, "_segments", segments)

    def on_a_worker(fn, *args):
        out = {}
        worker = threading.Thread(target=lambda: out.setdefault("value", fn(*args)))
        worker.start()
        worker.join()
        return out["value"]

    m = KeyframesModel()
    m.load(DATA / "CesiumMilkTruck.glb", run=on_a_worker)
    n = len(m.tracks)
    assert n >= 2 and len(threads) == n
    main = threading.get_ident()
    findings = [m.findings(i) for i in range(n)]
    m.summary()
    seg = m.segments(m.selected_track)
    assert main not in threads and len(threads) == n  # nothing audited again here
    assert len(segment_threads) == 1 and main not in segment_threads
    # The same audit as a plain load's, same first track and segment table.
    plain = KeyframesModel()
    plain.load(DATA / "CesiumMilkTruck.glb")
    assert findings == [plain.findings(i) for i in range(n)]
    assert m.selected_track == plain.selected_track
    assert seg.flags == plain.segments(plain.selected_track).flags
    assert np.array_equal(seg.dot, plain.segments(plain.selected_track).dot)
