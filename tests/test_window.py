"""Tests of the main window under Xvfb (pytest-qt): model <-> widget wiring, files, pixels.

Every test drives a real :class:`MainWindow` the way a user would where Qt
allows it (keystrokes into the line edits, clicks on buttons, menu actions)
and checks the model, the other widgets and, for the 3D view, real GL pixels.
Rotations are compared with scipy's ``Rotation`` as the oracle.
"""

from __future__ import annotations

import csv
import json
import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PyQt6 import QtCore, QtGui, QtWidgets
from scipy.spatial.transform import Rotation

import quatlab.app.qt.window as window_module
from quatlab.app.model import presets
from quatlab.app.model.state import LessonState
from quatlab.app.qt.scrubber import BASE_DURATION
from quatlab.app.qt.window import MainWindow

Qt = QtCore.Qt
PRESET_NAMES = [
    "negated-20", "q-to-minus-q", "half-turn", "quarter-turn", "large-170", "small-1",
    "gltf-animated-triangle", "gltf-box-animated",
]


def rot(q_wxyz) -> Rotation:
    w, x, y, z = np.asarray(q_wxyz, dtype=float)
    return Rotation.from_quat([x, y, z, w])


def same_rotation(a, b, atol=1e-6) -> bool:
    ma = a.as_matrix() if isinstance(a, Rotation) else rot(a).as_matrix()
    mb = b.as_matrix() if isinstance(b, Rotation) else rot(b).as_matrix()
    return np.allclose(ma, mb, atol=atol)


def _build(qtbot, monkeypatch, *, show: bool, all_views: bool = False) -> MainWindow:
    if not all_views:
        # The other lesson tabs (each with its own GL scene and plots) are tested
        # by their authors; leaving them out keeps these tests about the editors,
        # the scrubber and the two-key view, and fast.
        monkeypatch.setattr(window_module, "_view_modules", lambda: [], raising=False)
    win = MainWindow(LessonState.from_preset("negated-20", t=0.5))
    qtbot.addWidget(win)
    win.resize(1400, 900)
    if show:
        win.show()
        qtbot.waitExposed(win)
        QtWidgets.QApplication.processEvents()
    return win


@pytest.fixture
def window(qtbot, monkeypatch):
    """The main window, not shown: model <-> widget wiring needs no GL context."""
    return _build(qtbot, monkeypatch, show=False)


@pytest.fixture
def shown_window(qtbot, monkeypatch):
    """The main window on the (Xvfb) screen at 1400x900: GL pixels and layout."""
    return _build(qtbot, monkeypatch, show=True)


@pytest.fixture
def full_window(qtbot, monkeypatch):
    """Shown, with every lesson tab the app has, as a user opens it."""
    return _build(qtbot, monkeypatch, show=True, all_views=True)


def type_into(qtbot, edit: QtWidgets.QLineEdit, text: str) -> None:
    """Select all, type ``text`` key by key, press Enter."""
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)
    assert edit.text() == text
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def field_values(edits) -> list[float]:
    return [float(e.text()) for e in edits]


def shows(edits, expected) -> bool:
    """The fields show ``expected`` to the digits a field displays (5 significant)."""
    return field_values(edits) == pytest.approx(list(expected), rel=1e-4, abs=1e-5)


def snapshot(s: LessonState):
    return (s.q0.tolist(), s.q1.tolist(), s.entered_norm(0), s.entered_norm(1), s.t, s.preset,
            s.chain_family, s.root_only, dict(s.visible))


def qimage_rgb(img: QtGui.QImage) -> np.ndarray:
    img = img.convertToFormat(QtGui.QImage.Format.Format_RGBA8888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    arr = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine() // 4, 4)
    return arr[:, : img.width(), :3].copy()


def scene_region(win: MainWindow, img: np.ndarray, scene=None) -> np.ndarray:
    """The part of a window image where ``scene`` (default: the lesson's) is laid out."""
    box = (scene or win.lesson.scene).widget  # the scene is a native window in this container
    p = box.mapTo(win, QtCore.QPoint(0, 0))
    return img[p.y(): p.y() + box.height(), p.x(): p.x() + box.width()]


def hue_counts(rgb: np.ndarray) -> dict[str, int]:
    """Strongly coloured pixels near the gizmo hues: X red, Y green, Z blue."""
    c = rgb.astype(float) / 255.0
    mx, mn = c.max(-1), c.min(-1)
    chroma = mx - mn
    sat = np.where(mx > 0, chroma / np.maximum(mx, 1e-9), 0.0)
    r, g, b = c[..., 0], c[..., 1], c[..., 2]
    cc = np.maximum(chroma, 1e-9)
    hue = np.where(mx == r, ((g - b) / cc) % 6,
                   np.where(mx == g, (b - r) / cc + 2, (r - g) / cc + 4)) * 60
    strong = (sat > 0.5) & (mx > 0.3)
    return {
        "red": int((strong & ((hue < 12) | (hue >= 350))).sum()),
        "green": int((strong & (hue >= 115) & (hue < 140)).sum()),
        "blue": int((strong & (hue >= 210) & (hue < 230)).sum()),
    }


def screenshot(win: MainWindow, path) -> np.ndarray:
    win.save_screenshot(str(path))
    img = QtGui.QImage(str(path))
    assert not img.isNull()
    return qimage_rgb(img)


def render(win: MainWindow, t: float, size=(480, 360)) -> np.ndarray:
    win.state.set_t(t)
    QtWidgets.QApplication.processEvents()
    return np.array(win.lesson.scene.renderToArray(size))


# --------------------------------------------------------------------------- t: model <-> widgets


def test_slider_moves_t_spin_and_plot_cursor(window, qtbot):
    sc = window.lesson.scrubber
    sc.slider.setValue(250)
    assert window.state.t == pytest.approx(0.25)
    assert sc.spin.value() == pytest.approx(0.25)
    assert window.lesson.plots.cursor() == pytest.approx(0.25)
    # A key press on the slider (page step) is a user gesture like a drag.
    sc.slider.setFocus()
    qtbot.keyClick(sc.slider, Qt.Key.Key_PageUp)
    assert sc.slider.value() > 250
    assert window.state.t == pytest.approx(sc.slider.value() / sc.slider.maximum())
    assert sc.spin.value() == pytest.approx(window.state.t)


def test_spin_sets_t_and_slider(window):
    sc = window.lesson.scrubber
    sc.spin.setValue(0.75)
    assert window.state.t == pytest.approx(0.75)
    assert sc.slider.value() == 750
    assert window.lesson.plots.cursor() == pytest.approx(0.75)


def test_state_set_t_moves_slider_spin_cursor_and_readouts(window):
    window.state.set_t(0.3)
    sc = window.lesson.scrubber
    assert sc.slider.value() == 300
    assert sc.spin.value() == pytest.approx(0.3)
    assert window.lesson.plots.cursor() == pytest.approx(0.3)
    cell = window.readouts.cell
    # Shortest SLERP: 0.3 of the 20 deg arc. Naive NLERP along the chord from
    # identity to -(cos 10, 0, 0, sin 10): 2 atan2(0.3 sin 10, 0.7 - 0.3 cos 10).
    assert float(cell("shortest_slerp", "angle").text()) == pytest.approx(6.0, abs=0.01)
    c10, s10 = math.cos(math.radians(10)), math.sin(math.radians(10))
    naive = math.degrees(2 * math.atan2(0.3 * s10, 0.7 - 0.3 * c10))
    assert float(cell("naive_nlerp", "angle").text()) == pytest.approx(naive, abs=0.01)
    assert "t\u00a0=\u00a00.300" in window.explanation_t.text()  # no-break spaces: one formula


def test_plot_cursor_gesture_moves_the_model(window):
    window.lesson.plots.cursorMoved.emit(0.6)
    assert window.state.t == pytest.approx(0.6)
    assert window.lesson.scrubber.slider.value() == 600


# --------------------------------------------------------------------------- endpoint editors


def test_typing_components_normalizes_and_shows_entered_norm(window, qtbot):
    ed = window.editors[0]  # q0 = identity
    w_field = window.findChild(QtWidgets.QLineEdit, "q0_w")
    z_field = window.findChild(QtWidgets.QLineEdit, "q0_z")
    assert w_field is ed.components[0] and z_field is ed.components[3]
    type_into(qtbot, w_field, "2")
    np.testing.assert_allclose(window.state.q0, [1, 0, 0, 0], atol=1e-15)
    assert window.state.entered_norm(0) == pytest.approx(2.0)
    assert "2" in ed.norm_label.text()
    type_into(qtbot, z_field, "2")
    r = 1 / math.sqrt(2)
    np.testing.assert_allclose(window.state.q0, [r, 0, 0, r], atol=1e-15)
    assert window.state.entered_norm(0) == pytest.approx(2 * math.sqrt(2))
    assert "2.82843" in ed.norm_label.text()
    assert field_values(ed.components) == pytest.approx([2, 0, 0, 2])
    # The other forms follow: 90 deg about Z.
    assert field_values(ed.axis) == pytest.approx([0, 0, 1], abs=1e-4)
    assert float(ed.angle.text()) == pytest.approx(90.0, abs=1e-4)
    assert not ed.message.isVisibleTo(ed)
    assert window.state.can_undo and window.undo_action.isEnabled()


@pytest.mark.parametrize(
    ("field", "text", "words"),
    [
        ("q0_x", "abc", ["component x", "abc"]),
        ("q0_y", "nan", ["component y", "finite"]),
        ("q1_z", "inf", ["component z", "finite"]),
        ("q0_w", "0", ["q0", "zero"]),  # q0 = identity: (0, 0, 0, 0) is left
        ("q1_x", "", ["component x"]),
    ],
)
def test_invalid_component_shows_error_keeps_state_restores_fields(window, qtbot, field,
                                                                   text, words):
    which = int(field[1])
    ed = window.editors[which]
    edit = window.findChild(QtWidgets.QLineEdit, field)
    before_texts = [e.text() for e in ed.components]
    before = snapshot(window.state)
    type_into(qtbot, edit, text)
    msg = window.findChild(QtWidgets.QLabel, f"q{which}_message")
    assert msg is ed.message
    assert msg.isVisibleTo(ed)
    for w in words:
        assert w in msg.text(), msg.text()
    assert snapshot(window.state) == before
    assert [e.text() for e in ed.components] == before_texts
    assert not window.state.can_undo
    # A valid edit afterwards clears the message.
    type_into(qtbot, ed.components[0], "3")
    assert not msg.isVisibleTo(ed)


def test_paste_xyzw(window, qtbot):
    ed = window.editors[1]
    ed.paste_order.setCurrentText("xyzw")
    paste = window.findChild(QtWidgets.QLineEdit, "q1_paste")
    type_into(qtbot, paste, "0 0 0.7071 0.7071")
    n = math.hypot(0.7071, 0.7071)
    np.testing.assert_allclose(window.state.q1, [0.7071 / n, 0, 0, 0.7071 / n], atol=1e-15)
    assert window.state.entered_norm(1) == pytest.approx(n)
    assert field_values(ed.components) == pytest.approx([0.7071, 0, 0, 0.7071])
    assert same_rotation(window.state.q1, Rotation.from_quat([0, 0, 0.7071, 0.7071]))
    assert not ed.message.isVisibleTo(ed)


def test_paste_wxyz_with_the_set_button(window, qtbot):
    ed = window.editors[1]
    ed.paste_order.setCurrentText("wxyz")
    ed.paste.setText("[0.5, 0.5, 0.5, 0.5]")
    (set_button,) = [b for b in ed.findChildren(QtWidgets.QPushButton) if b.text() == "Set"]
    qtbot.mouseClick(set_button, Qt.MouseButton.LeftButton)
    np.testing.assert_allclose(window.state.q1, [0.5, 0.5, 0.5, 0.5], atol=1e-15)
    assert same_rotation(window.state.q1, Rotation.from_quat([0.5, 0.5, 0.5, 0.5]))


@pytest.mark.parametrize(
    ("text", "words"),
    [("1 2 3", ["4", "3"]), ("0 0 0 0", ["q1", "zero"]), ("nan 0 0 1", ["finite"]),
     ("a b c d", ["component", "'a'"])],
)
def test_paste_errors_keep_state(window, qtbot, text, words):
    ed = window.editors[1]
    before = snapshot(window.state)
    type_into(qtbot, ed.paste, text)
    assert ed.message.isVisibleTo(ed)
    for w in words:
        assert w in ed.message.text(), ed.message.text()
    assert snapshot(window.state) == before


def test_axis_angle_edit_sets_components(window, qtbot):
    ed = window.editors[0]
    for e, v in zip(ed.axis, ("0", "0", "1"), strict=True):
        e.setText(v)
    type_into(qtbot, ed.angle, "90")
    expected = Rotation.from_rotvec([0, 0, math.pi / 2])
    assert same_rotation(window.state.q0, expected, atol=1e-12)
    x, y, z, w = expected.as_quat()
    assert shows(ed.components, [w, x, y, z])
    assert window.state.entered_norm(0) == pytest.approx(1.0)


def test_axis_angle_zero_axis_is_refused(window, qtbot):
    ed = window.editors[1]
    before = snapshot(window.state)
    for e in ed.axis[:2]:
        e.setText("0")
    type_into(qtbot, ed.axis[2], "0")
    assert ed.message.isVisibleTo(ed) and "axis" in ed.message.text()
    assert snapshot(window.state) == before


@pytest.mark.parametrize("order", ["ZYX", "zyx", "XYZ"])
def test_euler_edit_matches_scipy(window, qtbot, order):
    ed = window.editors[1]
    old = window.state.q1
    ed.euler_order.setCurrentText(order)
    ed.euler[0].setText("30")
    ed.euler[1].setText("20")
    type_into(qtbot, ed.euler[2], "10")
    expected = Rotation.from_euler(order, [30, 20, 10], degrees=True)
    assert same_rotation(window.state.q1, expected, atol=1e-12)
    # The stored hemisphere is kept (negated-20's q1 has w < 0).
    assert window.state.q1 @ old >= 0
    # Read back in the same order: the fields show what was typed.
    assert field_values(ed.euler) == pytest.approx([30, 20, 10], abs=1e-4)


def test_euler_order_combo_rereads_the_angles(window):
    ed = window.editors[1]
    q = Rotation.from_euler("ZYX", [40, -15, 25], degrees=True).as_quat()
    window.state.set_endpoint(1, [q[3], q[0], q[1], q[2]])
    ed.euler_order.setCurrentText("ZYX")
    assert field_values(ed.euler) == pytest.approx([40, -15, 25], abs=1e-4)


def test_negate_button_keeps_the_pose_changes_the_naive_path(shown_window, qtbot, tmp_path):
    window = shown_window
    scene = window.lesson.scene
    s = window.state
    before_q1 = s.q1

    def chains_only():
        # The tip trails legitimately change with the sign (they are the path);
        # remove them so the renders show the chains and ghosts alone.
        # So do the turn marks at the root (the naive turn's axis and arc).
        for key in ("naive", "shortest"):
            scene.set_trail(key, None)
        scene.set_turn_reference(None)
        return {t: render(window, t) for t in (0.0, 0.5, 1.0)}

    window.export_plots(str(tmp_path / "before.csv"))
    a = chains_only()
    button = window.findChild(QtWidgets.QPushButton, "q1_negate")
    assert button is window.editors[1].negate_button
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    QtWidgets.QApplication.processEvents()
    np.testing.assert_array_equal(s.q1, -before_q1)
    assert same_rotation(s.q1, before_q1, atol=1e-12)
    assert shows(window.editors[1].components, -before_q1)
    window.export_plots(str(tmp_path / "after.csv"))
    b = chains_only()

    np.testing.assert_array_equal(a[0.0], b[0.0])   # same pose at t = 0
    np.testing.assert_array_equal(a[1.0], b[1.0])   # same pose at t = 1
    changed = np.any(a[0.5] != b[0.5], axis=-1).mean()
    assert changed > 0.002, changed                  # the naive chain moved at t = 0.5

    def midpoint(path):
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        return next(r for r in rows if float(r["t"]) == 0.5)

    mb, ma = midpoint(tmp_path / "before.csv"), midpoint(tmp_path / "after.csv")
    assert float(mb["naive_nlerp_angle_deg"]) == pytest.approx(170.0, abs=1e-6)
    assert float(ma["naive_nlerp_angle_deg"]) == pytest.approx(10.0, abs=1e-6)
    assert float(ma["shortest_slerp_angle_deg"]) == pytest.approx(
        float(mb["shortest_slerp_angle_deg"]), abs=1e-9)


# --------------------------------------------------------------------------- menus


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_menu_action_loads_the_preset(window, name):
    window.state.set_endpoint(1, (0, 0, 1, 0))  # start from an edited state
    act = window.findChild(QtGui.QAction, f"preset_{name}")
    assert act is not None
    act.trigger()
    p = presets.get(name)
    s = window.state
    assert s.preset == name
    assert same_rotation(s.q1, p.q1) and same_rotation(s.q0, p.q0)
    np.testing.assert_allclose(s.q1 @ p.q1, np.linalg.norm(p.q1), rtol=1e-12)  # same sign
    assert window.preset_box.currentData() == name
    assert name in window.preset_box.currentText()  # the panel names the preset once, here
    assert shows(window.editors[1].components, p.q1)
    assert shows(window.editors[0].components, p.q0)


def test_preset_combo_by_keyboard(window, qtbot):
    window.state.set_endpoint(1, (0, 0, 1, 0))
    box = window.preset_box
    assert box.currentData() is None  # "(edited)"
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Down)
    assert window.state.preset == box.currentData() == PRESET_NAMES[0]


def test_undo_redo_actions(window, qtbot):
    s = window.state
    assert not window.undo_action.isEnabled() and not window.redo_action.isEnabled()
    q1 = s.q1
    qtbot.mouseClick(window.editors[1].negate_button, Qt.MouseButton.LeftButton)
    assert window.undo_action.isEnabled() and not window.redo_action.isEnabled()
    window.undo_action.trigger()
    np.testing.assert_array_equal(s.q1, q1)
    assert s.preset == "negated-20" and window.preset_box.currentData() == "negated-20"
    assert shows(window.editors[1].components, q1)
    assert window.redo_action.isEnabled() and not window.undo_action.isEnabled()
    window.redo_action.trigger()
    np.testing.assert_array_equal(s.q1, -q1)
    assert window.undo_action.isEnabled() and not window.redo_action.isEnabled()
    assert window.undo_action.shortcut() == QtGui.QKeySequence(
        QtGui.QKeySequence.StandardKey.Undo)


def test_explanation_follows_the_state(window):
    assert "340" in window.explanation.toPlainText()
    window.state.negate(1)
    assert "340" not in window.explanation.toPlainText()
    window.state.load_preset("half-turn")
    assert "dot(q0, q1) = 0" in window.explanation.toPlainText()


# --------------------------------------------------------------------------- playback

#: Seconds that move t by a quarter of [0, 1] at 1x.
QUARTER = BASE_DURATION / 4


def test_advance_once_stops_at_one(window):
    sc = window.lesson.scrubber
    sc.mode.setCurrentText("once")
    window.state.set_t(0.0)
    sc.advance(QUARTER)
    # The speed box's tooltip: 1x sweeps t from 0 to 1 in BASE_DURATION s.
    assert f"{BASE_DURATION:g} s" in sc.speed.toolTip()
    assert window.state.t == pytest.approx(0.25)
    assert sc.slider.value() == 250
    window.state.set_t(0.9)
    sc.play_button.setChecked(True)
    assert sc.playing
    sc.advance(QUARTER)
    assert window.state.t == 1.0
    assert not sc.playing and not sc.play_button.isChecked()
    sc.advance(QUARTER)
    assert window.state.t == 1.0
    sc.play_button.setChecked(True)  # play again at the end: starts over
    assert window.state.t == 0.0
    sc.play_button.setChecked(False)


def test_advance_loop_wraps(window):
    sc = window.lesson.scrubber
    sc.mode.setCurrentText("loop")
    window.state.set_t(0.9)
    sc.advance(QUARTER)
    assert window.state.t == pytest.approx(0.15)
    sc.advance(QUARTER)
    assert window.state.t == pytest.approx(0.40)


def test_advance_ping_pong_bounces(window):
    sc = window.lesson.scrubber
    sc.mode.setCurrentText("ping-pong")
    window.state.set_t(0.9)
    sc.advance(QUARTER)
    assert window.state.t == pytest.approx(0.85)
    sc.advance(QUARTER)
    assert window.state.t == pytest.approx(0.60)
    window.state.set_t(0.1)
    sc.advance(QUARTER)
    assert window.state.t == pytest.approx(0.15)
    sc.advance(QUARTER)
    assert window.state.t == pytest.approx(0.40)


def test_speed_scales_the_step(window):
    sc = window.lesson.scrubber
    sc.mode.setCurrentText("once")
    sc.speed.setValue(2.0)
    window.state.set_t(0.0)
    sc.advance(QUARTER / 2)
    assert window.state.t == pytest.approx(0.25)


def test_play_runs_on_the_timer(window, qtbot):
    sc = window.lesson.scrubber
    sc.mode.setCurrentText("loop")
    window.state.set_t(0.0)
    sc.toggle_play()
    assert sc.playing
    qtbot.waitUntil(lambda: window.state.t > 0.02, timeout=2000)
    sc.toggle_play()
    assert not sc.playing
    t = window.state.t
    qtbot.wait(50)
    assert window.state.t == t


# --------------------------------------------------------------------------- files


def test_session_save_and_open(window, tmp_path):
    s = window.state
    s.set_endpoint(0, (0, 0, 0, 2))
    s.set_t(0.42)
    s.set_chain_family("nlerp")
    s.set_visible("naive_slerp", False)
    path = tmp_path / "lesson.quatlab.json"
    window.save_session(str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "quatlab-session" and data["t"] == 0.42
    saved = snapshot(s)

    s.load_preset("half-turn")
    s.set_t(0.1)
    s.set_chain_family("slerp")
    window.open_session(str(path))
    assert snapshot(s) == saved
    assert window.lesson.scrubber.slider.value() == 420
    assert window.lesson.family_buttons["nlerp"].isChecked()
    assert field_values(window.editors[0].components) == pytest.approx([0, 0, 0, 2])
    assert not window.lesson.plots.method_visible("naive_slerp")


@pytest.mark.parametrize(
    ("content", "word"),
    [("{not json", None), ('{"format": "quatlab-session", "q0": [1,0,0,0]}', "q1"),
     (None, "t"), ("[]", "session")],
)
def test_open_bad_session_warns_and_keeps_state(window, tmp_path, warnings_shown, content,
                                                word):
    path = tmp_path / "bad.json"
    if content is None:  # a good file with t out of range
        data = LessonState.from_preset("half-turn").to_session()
        data["t"] = 2.0
        content = json.dumps(data)
    path.write_text(content, encoding="utf-8")
    before = snapshot(window.state)
    window.open_session(str(path))
    assert len(warnings_shown) == 1
    title, text = warnings_shown[0]
    assert "bad.json" in title
    if word:
        assert word in text
    assert snapshot(window.state) == before
    assert window.lesson.scrubber.slider.value() == 500


def test_open_missing_session_warns(window, tmp_path, warnings_shown):
    before = snapshot(window.state)
    window.open_session(str(tmp_path / "nope.json"))
    assert len(warnings_shown) == 1
    assert snapshot(window.state) == before


def test_save_session_to_missing_folder_warns(window, tmp_path, warnings_shown):
    window.save_session(str(tmp_path / "no" / "such" / "dir" / "s.json"))
    assert len(warnings_shown) == 1
    assert not (tmp_path / "no").exists()


def test_export_plots_png_svg_csv(window, tmp_path):
    png, svg, data = tmp_path / "p.png", tmp_path / "p.svg", tmp_path / "p.csv"
    window.export_plots(str(png))
    window.export_plots(str(svg))
    window.export_plots(str(data))
    img = QtGui.QImage(str(png))
    assert not img.isNull() and img.width() > 100 and img.height() > 100
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert len(list(root.iter())) > 10
    with open(data, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    header = rows[0]
    assert header[0] == "t"
    for m in ("naive_nlerp", "shortest_nlerp", "naive_slerp", "shortest_slerp"):
        assert f"{m}_angle_deg" in header and f"{m}_speed_deg" in header
    ts = [float(r[0]) for r in rows[1:]]
    assert ts[0] == 0.0 and ts[-1] == 1.0 and len(ts) > 100
    mid = dict(zip(header, next(r for r in rows[1:] if float(r[0]) == 0.5), strict=True))
    assert float(mid["naive_nlerp_angle_deg"]) == pytest.approx(170.0, abs=1e-6)
    assert float(mid["shortest_nlerp_angle_deg"]) == pytest.approx(10.0, abs=1e-6)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.csv", "p.png", "p.svg"]


def test_export_plots_unknown_suffix_warns(window, tmp_path, warnings_shown):
    window.export_plots(str(tmp_path / "p.txt"))
    assert len(warnings_shown) == 1
    assert list(tmp_path.iterdir()) == []


def test_save_screenshot_is_a_png_of_the_window(shown_window, tmp_path):
    window = shown_window
    path = tmp_path / "shot.png"
    window.save_screenshot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = QtGui.QImage(str(path))
    assert (img.width(), img.height()) == (window.width(), window.height()) == (1400, 900)


# --------------------------------------------------------------------------- GL pixels


def test_screenshot_shows_what_the_scene_shows(shown_window, tmp_path):
    """The window screenshot holds the 3D view as drawn, tip labels included."""
    window = shown_window
    shot = screenshot(window, tmp_path / "shot.png")
    frame = qimage_rgb(window.lesson.scene.grabFramebuffer())
    region = scene_region(window, shot)
    assert region.shape == frame.shape
    differ = np.any(np.abs(region.astype(int) - frame.astype(int)) > 30, axis=-1)
    assert differ.sum() <= 20, f"{differ.sum()} pixels differ"


def test_grab_image_paints_the_3d_view_in(shown_window):
    """QWidget.grab() does not see the native GL window; grab_image() paints its frame in."""
    window = shown_window
    region = scene_region(window, qimage_rgb(window.grab_image()))
    assert len(np.unique(region.reshape(-1, 3), axis=0)) > 100  # not one flat colour
    frame = qimage_rgb(window.lesson.scene.grabFramebuffer())
    assert np.array_equal(region, frame)


def test_grab_image_paints_only_the_visible_tab(full_window):
    window = full_window
    window.show_view("euler")
    euler = window.views["euler"].scene
    QtWidgets.QApplication.processEvents()
    assert not window.lesson.scene.widget.isVisible()
    shot = qimage_rgb(window.grab_image())
    assert np.array_equal(scene_region(window, shot, euler),
                          qimage_rgb(euler.grabFramebuffer()))


def test_no_qopenglwidget_in_the_window(full_window):
    # One QOpenGLWidget anywhere, even in a hidden tab, makes Qt compose the
    # whole window through OpenGL on every repaint (about 10 ms per frame).
    from PyQt6 import QtOpenGLWidgets

    assert full_window.findChildren(QtOpenGLWidgets.QOpenGLWidget) == []


def test_screenshot_shows_the_gizmo_colours(shown_window, tmp_path):
    window = shown_window
    scene = window.lesson.scene
    shown = hue_counts(scene_region(window, screenshot(window, tmp_path / "a.png")))
    for key in ("naive", "shortest"):
        scene.set_chain_visible(key, False)
    hidden = hue_counts(scene_region(window, screenshot(window, tmp_path / "b.png")))
    # The world axes at the origin stay; the joint gizmos add Y green and Z
    # blue. Their X (red) ran inside every bone and read as a red bone: gone.
    for colour in ("green", "blue"):
        assert shown[colour] >= 30, (colour, shown)
        assert shown[colour] >= hidden[colour] + 20, (colour, shown, hidden)
    assert shown["red"] <= hidden["red"] + 10, (shown, hidden)


def test_frames_at_t0_and_t_half_differ(shown_window, tmp_path):
    window = shown_window
    window.state.set_t(0.0)
    a = scene_region(window, screenshot(window, tmp_path / "t0.png"))
    window.state.set_t(0.5)
    b = scene_region(window, screenshot(window, tmp_path / "t5.png"))
    changed = np.any(np.abs(a.astype(int) - b.astype(int)) > 10, axis=-1).mean()
    assert changed > 0.002, changed
    # The scene is not blank: most pixels are the light background, some are not.
    assert 0.005 < np.any(np.abs(b.astype(int) - b[0, 0]) > 30, axis=-1).mean() < 0.5


def test_collapse_is_a_gap_not_a_crash(shown_window):
    window = shown_window
    s = window.state
    s.set_chain_family("nlerp")
    s.load_preset("q-to-minus-q")
    a = render(window, 0.5)
    assert "collapse" in window.readouts.cell("naive_nlerp", "q").text()
    assert window.readouts.cell("naive_nlerp", "angle").text() == "—"
    b = render(window, 0.25)
    assert np.any(a != b)  # the naive chain is back away from the collapse point
    assert np.isfinite(window.lesson.plots.cursor())


# --------------------------------------------------------------------------- layout


def test_window_keeps_1400x900_and_nothing_is_clipped(shown_window):
    window = shown_window
    assert (window.width(), window.height()) == (1400, 900)
    assert window.minimumSizeHint().width() <= 1400
    assert window.minimumSizeHint().height() <= 900
    scroll = window.editors[0].parentWidget().parentWidget().parentWidget()
    assert isinstance(scroll, QtWidgets.QScrollArea)
    viewport = scroll.viewport()
    for ed in window.editors:
        for w in [ed.negate_button, *ed.components, ed.paste, ed.paste_order]:
            top_left = w.mapTo(viewport, QtCore.QPoint(0, 0))
            rect = QtCore.QRect(top_left, w.size())
            assert viewport.rect().contains(rect), (w.objectName(), rect, viewport.rect())
            assert w.visibleRegion().boundingRect() == w.rect(), w.objectName()
    sc = window.lesson.scrubber
    for w in (sc.slider, sc.spin, sc.play_button, sc.mode, sc.speed, window.preset_box):
        assert w.isVisible()
        assert w.visibleRegion().boundingRect() == w.rect(), w.objectName()
    table = window.readouts.table
    last = table.rowCount() - 1
    bottom = table.rowViewportPosition(last) + table.rowHeight(last)
    assert 0 < bottom <= table.viewport().height()  # all four methods visible


def test_full_window_keeps_its_default_size(full_window):
    """With every lesson tab, the minimum width still fits the default 1400x900."""
    window = full_window
    assert window.minimumSizeHint().width() <= 1400
    assert (window.width(), window.height()) == (1400, 900)
    for i in range(window.tabs.count()):
        window.tabs.setCurrentIndex(i)
        QtWidgets.QApplication.processEvents()
        assert (window.width(), window.height()) == (1400, 900), window.tabs.tabText(i)
        if window.tabs.widget(i).objectName() not in window.LESSON_BOUND_VIEWS:
            continue  # the editors are hidden there (see the side-panel test)
        for ed in window.editors:
            assert ed.negate_button.visibleRegion().boundingRect() == ed.negate_button.rect()


def _text_fits(edit: QtWidgets.QLineEdit) -> bool:
    """The whole text fits the line edit's text area (Qt keeps 2 px each side)."""
    opt = QtWidgets.QStyleOptionFrame()
    edit.initStyleOption(opt)
    area = edit.style().subElementRect(QtWidgets.QStyle.SubElement.SE_LineEditContents, opt,
                                       edit)
    margins = edit.textMargins()
    room = area.width() - margins.left() - margins.right() - 4
    return edit.fontMetrics().horizontalAdvance(edit.text()) <= room


def test_editor_fields_keep_the_sign_visible_for_every_preset(shown_window):
    """The sign of a component is the lesson: a field whose text is wider than the box
    must show its start (Qt keeps the cursor in view, so cursor at 0 shows the sign)."""
    window = shown_window
    for name in PRESET_NAMES:
        window.state.load_preset(name)
        for which in (0, 1):
            window.state.negate(which)  # both signs
            for ed in window.editors:
                for e in [*ed.components, *ed.axis, ed.angle, *ed.euler]:
                    assert _text_fits(e) or e.cursorPosition() == 0, (
                        name, e.objectName() or e.toolTip(), e.text())


def test_side_panels_follow_the_lesson_bound_tabs(full_window):
    win = full_window
    left, right = win._side_panels
    widths = {}
    for name in win.views:
        win.show_view(name)
        QtWidgets.QApplication.processEvents()
        bound = name in ("main", "s3")
        assert left.isVisible() == bound and right.isVisible() == bound, name
        widths[name] = win.tabs.width()
        if name == "main":
            panels = left.width() + right.width()
    # A lesson with its own model gets the whole width of the window; the
    # two-key lesson gives the panels theirs.
    assert widths["squad"] >= win.centralWidget().width() - 12, (widths, win.width())
    assert widths["main"] <= widths["squad"] - panels, (widths, panels)
