"""Qt widgets in the dark themes: spin boxes keep a visible frame and visible arrows.

Pixels of grabbed widgets, measured against the theme's background with the
WCAG 2.1 contrast ratio (written out here, not taken from the app).
"""

from __future__ import annotations

import numpy as np
import pytest
from oracles import contrast_8bit, luminance_8bit
from PyQt6 import QtWidgets

from quatlab.app.qt import theme_menu
from quatlab.app.qt.recorder import image_to_rgb
from quatlab.rendering import themes

pytestmark = pytest.mark.gl

_luminance, _contrast = luminance_8bit, contrast_8bit


def _grab(widget) -> np.ndarray:
    QtWidgets.QApplication.processEvents()
    return image_to_rgb(widget.grab().toImage()).astype(int)


@pytest.mark.parametrize("theme", ["dark", "high-contrast"])
@pytest.mark.parametrize("cls", [QtWidgets.QDoubleSpinBox, QtWidgets.QSpinBox])
def test_spin_boxes_have_a_visible_frame_and_arrows(qtbot, theme, cls):
    """Fusion drew the high-contrast spin box's outline black on black; a style-sheet
    border alone had hidden the up/down arrows."""
    host = QtWidgets.QWidget()
    qtbot.addWidget(host)
    theme_menu.apply_theme(host, theme)
    t = themes.current()
    box = cls(host)
    box.setRange(0, 10)
    box.setValue(5)  # both arrows can step
    box.resize(120, box.sizeHint().height())
    host.resize(140, 60)
    box.move(10, 10)
    host.show()
    qtbot.waitExposed(host)
    img = _grab(box)
    h, w = img.shape[:2]
    r = box.devicePixelRatioF()
    bg = np.array(QtWidgets.QApplication.palette().color(
        host.backgroundRole()).getRgb()[:3])
    # The frame: the outermost two pixel rows and columns, away from the corners,
    # must hold a line of 3:1 against the window behind the box (the text area
    # is the theme's background too, so the frame is what shows the field).
    edges = {"top": img[:2, w // 4: w // 2], "bottom": img[-2:, w // 4: w // 2],
             "left": img[h // 4: 3 * h // 4, :2]}
    for side, strip in edges.items():
        best = _contrast(strip.reshape(-1, 3), bg).max()
        assert best >= 3.0, (theme, side, best)
        best_bg = _contrast(strip.reshape(-1, 3), np.array(
            [int(t.background[i:i + 2], 16) for i in (1, 3, 5)])).max()
        assert best_bg >= 3.0, (theme, side, best_bg)
    # The arrows: each button shows a mark (not one flat colour), of 3:1 on the button.
    style = box.style()
    opt = QtWidgets.QStyleOptionSpinBox()
    box.initStyleOption(opt)
    for sub in (QtWidgets.QStyle.SubControl.SC_SpinBoxUp,
                QtWidgets.QStyle.SubControl.SC_SpinBoxDown):
        rect = style.subControlRect(QtWidgets.QStyle.ComplexControl.CC_SpinBox, opt, sub, box)
        assert rect.width() >= 8 and rect.height() >= 5, rect
        y0, x0 = int((rect.top() + 2) * r), int((rect.left() + 2) * r)
        y1, x1 = int((rect.bottom() - 1) * r), int((rect.right() - 1) * r)
        button = img[y0:y1, x0:x1].reshape(-1, 3)
        colours = np.unique(button, axis=0)
        assert len(colours) > 1, (theme, sub)
        base = colours[np.argmax([np.sum(np.all(button == c, axis=1)) for c in colours])]
        assert _contrast(button, base).max() >= 3.0, (theme, sub)


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_play_button_icon_shows_in_every_theme(qtbot, theme):
    """The style's media icon is a black pixmap: 1.9:1 on dark buttons, 1.2:1 in high contrast."""
    from quatlab.app.qt.scrubber import Scrubber, ValueParameter

    host = QtWidgets.QWidget()
    qtbot.addWidget(host)
    scrubber = Scrubber(ValueParameter(lambda v: None, name="t"), host)
    theme_menu.apply_theme(host, theme)
    host.resize(500, 60)
    host.show()
    qtbot.waitExposed(host)
    for playing in (False, True):
        if scrubber.playing != playing:
            scrubber.toggle_play()
        img = _grab(scrubber.play_button).reshape(-1, 3)
        colours, counts = np.unique(img, axis=0, return_counts=True)
        base = colours[np.argmax(counts)]  # the button face
        mark = _contrast(img, base) >= 3.0
        assert mark.sum() >= 12, (theme, playing, int(mark.sum()))  # a triangle or two bars
    if scrubber.playing:
        scrubber.toggle_play()


def _widget(cls, enabled: bool, host) -> QtWidgets.QWidget:
    w = cls(host)
    if cls is QtWidgets.QComboBox:
        w.addItems(["wxyz", "xyzw"])
    elif cls is QtWidgets.QPushButton:
        w.setText("Set")
    elif cls is QtWidgets.QLineEdit:
        w.setText("0.7071")
    else:
        w.setValue(1.5)
    w.setEnabled(enabled)
    w.resize(110, max(w.sizeHint().height(), 22))
    return w


def _dashes(row: np.ndarray, face: np.ndarray) -> int:
    """Runs of frame ink along one row of pixels (a solid line is one run)."""
    ink = np.abs(row - face).sum(axis=-1) > 60
    return int(np.count_nonzero(np.diff(ink.astype(int)) == 1) + int(ink[0]))


@pytest.mark.parametrize("theme", ["dark", "high-contrast"])
@pytest.mark.parametrize("cls", [QtWidgets.QComboBox, QtWidgets.QPushButton,
                                 QtWidgets.QLineEdit, QtWidgets.QDoubleSpinBox])
def test_disabled_widgets_look_disabled(qtbot, theme, cls):
    """High contrast drew a disabled combo box like an enabled one (near-white text, the
    same face and frame): the disabled one's text must be far dimmer and its frame dashed."""
    host = QtWidgets.QWidget()
    qtbot.addWidget(host)
    theme_menu.apply_theme(host, theme)
    on, off = _widget(cls, True, host), _widget(cls, False, host)
    on.move(10, 10)
    off.move(10, 50)
    host.resize(140, 90)
    host.show()
    qtbot.waitExposed(host)
    assert off.sizeHint() == on.sizeHint()  # nothing moves when it is enabled
    looks = {}
    for name, w in (("on", on), ("off", off)):
        img = _grab(w)
        colours, counts = np.unique(img[4:-4, 4:-4].reshape(-1, 3), axis=0, return_counts=True)
        face = colours[np.argmax(counts)]
        # The text: the strongest contrast inside the frame, left of a spin box's arrows.
        text = _contrast(img[4:-4, 4:-22].reshape(-1, 3), face).max()
        # The frame's top edge: the row of the top three with the most ink, corners left out.
        top = max((img[y, 4:-4] for y in range(3)),
                  key=lambda row: int((np.abs(row - face).sum(axis=-1) > 60).sum()))
        looks[name] = (text, _dashes(top, face))
    (text_on, runs_on), (text_off, runs_off) = looks["on"], looks["off"]
    assert text_off <= 0.5 * text_on, looks  # old high contrast: 0.7
    assert text_off >= 3.0, looks            # still legible
    assert runs_off >= 8, looks              # dashed
    assert runs_off >= 3 * max(runs_on, 1), looks


def test_the_theme_style_comes_back_after_another_style_was_set(qtbot):
    """Qt deletes the style it replaces: a theme switch after that must make a new one,
    not hand Qt the deleted one."""
    host = QtWidgets.QWidget()
    qtbot.addWidget(host)
    theme_menu.apply_theme(host, "high-contrast")
    QtWidgets.QApplication.setStyle("Windows")
    theme_menu.apply_theme(host, "high-contrast")
    box = _widget(QtWidgets.QComboBox, False, host)
    host.show()
    qtbot.waitExposed(host)
    img = _grab(box)
    assert _dashes(img[0, 4:-4], img[img.shape[0] // 2, 2]) >= 8
