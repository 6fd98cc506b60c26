"""Marks that carry a state or a colour read without the hue: check box ticks, legend swatches.

A checked box told from an empty one by its fill alone, or a pale legend
swatch on the light window (the gimbal's yellow, 1.16:1), is lost to a
colour-blind reader or on a washed-out projector.
"""

from __future__ import annotations

import numpy as np
import pytest
from PyQt6 import QtWidgets
from test_themes import contrast

from quatlab.app.qt import theme_menu
from quatlab.app.qt.recorder import image_to_rgb

THEMES = ["light", "dark", "high-contrast"]


def _hex(rgb) -> str:
    return "#" + "".join(f"{int(v):02X}" for v in rgb)


def _box(qtbot, checked: bool, enabled: bool = True) -> QtWidgets.QCheckBox:
    box = QtWidgets.QCheckBox("gimbal")
    qtbot.addWidget(box)
    box.setChecked(checked)
    box.setEnabled(enabled)
    box.resize(box.sizeHint())
    box.show()
    qtbot.waitExposed(box)
    QtWidgets.QApplication.processEvents()
    return box


def _indicator(box: QtWidgets.QCheckBox):
    """The indicator's rect in the box (as the style lays it out) and its pixels."""
    opt = QtWidgets.QStyleOptionButton()
    box.initStyleOption(opt)
    rect = box.style().subElementRect(QtWidgets.QStyle.SubElement.SE_CheckBoxIndicator, opt, box)
    img = box.grab().toImage()
    ratio = img.devicePixelRatio()
    rgb = image_to_rgb(img).astype(int)
    x0, y0 = round(rect.x() * ratio), round(rect.y() * ratio)
    x1, y1 = round((rect.right() + 1) * ratio), round((rect.bottom() + 1) * ratio)
    return rect, rgb[y0:y1, x0:x1]


def _marks(pixels: np.ndarray) -> int:
    """Pixels inside the box's ring (3 px in) at 3:1 or more against the box's fill.

    The fill is the interior's most common colour: the blue of a checked box
    in the dark themes, the white base in light.
    """
    inner = pixels[3:-3, 3:-3].reshape(-1, 3)
    colours, counts = np.unique(inner, axis=0, return_counts=True)
    fill = _hex(colours[counts.argmax()])
    return sum(contrast(_hex(c), fill) >= 3.0 for c in inner)


@pytest.mark.parametrize("theme", THEMES)
def test_a_checked_box_has_a_tick_unlike_its_fill_and_keeps_its_size(qtbot, theme):
    theme_menu.apply_theme(QtWidgets.QWidget(), theme)
    off, on = _box(qtbot, False), _box(qtbot, True)
    off_rect, off_px = _indicator(off)
    on_rect, on_px = _indicator(on)
    assert on_rect == off_rect and on.sizeHint() == off.sizeHint()
    assert on_rect.width() >= 13 and on_rect.height() >= 13, on_rect
    # A tick: a stroke of a dozen pixels and more that stands out from the fill.
    assert _marks(on_px) >= 12, (theme, _marks(on_px))
    assert _marks(off_px) == 0, (theme, _marks(off_px))


@pytest.mark.parametrize("theme", ["dark", "high-contrast"])
def test_disabled_boxes_keep_their_tick_and_look_unlike_enabled_ones(qtbot, theme):
    theme_menu.apply_theme(QtWidgets.QWidget(), theme)
    _, on = _indicator(_box(qtbot, True))
    _, off_disabled = _indicator(_box(qtbot, False, enabled=False))
    rect, on_disabled = _indicator(_box(qtbot, True, enabled=False))
    assert _marks(on_disabled) >= 12
    assert _marks(off_disabled) == 0
    # Not the enabled box's colours: the ring and fill are greyed.
    assert np.abs(on_disabled - on).sum(axis=-1).astype(bool).sum() >= rect.width() * 4
