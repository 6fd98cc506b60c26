"""Qt widgets in the dark themes: spin boxes keep a visible frame and visible arrows.

Pixels of grabbed widgets, measured against the theme's background with the
WCAG 2.1 contrast ratio (written out here, not taken from the app).
"""

from __future__ import annotations

import numpy as np
import pytest
from PyQt6 import QtWidgets

from quatlab.app.qt import theme_menu
from quatlab.app.qt.recorder import image_to_rgb
from quatlab.rendering import themes

pytestmark = pytest.mark.gl


def _luminance(rgb) -> np.ndarray:
    c = np.asarray(rgb, float) / 255.0
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return c @ [0.2126, 0.7152, 0.0722]


def _contrast(a, b) -> np.ndarray:
    la, lb = _luminance(a), _luminance(b)
    return (np.maximum(la, lb) + 0.05) / (np.minimum(la, lb) + 0.05)


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
