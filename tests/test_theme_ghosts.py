"""The lesson scene's ghosts (t = 0 and t = 1) in the dark themes, measured on a rendered frame.

The ghosts' pixels are those the frame gains over the bare 3D background when
the ghosts are shown; the live chains' those it gains when their bodies are.
Contrast is WCAG 2's, against the theme's 3D background, written out here.
The lit shader darkens the faces turned from its key light in every theme,
so the ghost is judged by its lit half: the median of its brighter half of
pixels (the 75th percentile) must reach 3:1 (WCAG 1.4.11), while its median
stays well below the chains' (fainter than a live chain).
"""

from __future__ import annotations

import numpy as np
import pytest
from PyQt6 import QtGui, QtWidgets

from quatlab.app.commands.screenshot import render_window
from quatlab.app.model.state import LessonState
from quatlab.app.qt import theme_menu
from quatlab.app.qt.recorder import image_to_rgb
from quatlab.app.qt.window import MainWindow
from quatlab.rendering import themes

pytestmark = pytest.mark.gl


def _luminance(rgb) -> np.ndarray:
    c = np.asarray(rgb, float) / 255.0
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return c @ [0.2126, 0.7152, 0.0722]


def _contrast(a, b) -> np.ndarray:
    la, lb = _luminance(a), _luminance(b)
    return (np.maximum(la, lb) + 0.05) / (np.minimum(la, lb) + 0.05)


def _inner(mask: np.ndarray) -> np.ndarray:
    """``mask`` without its edge pixels (antialiased halfway to the background)."""
    out = mask.copy()
    out[1:] &= mask[:-1]
    out[:-1] &= mask[1:]
    out[:, 1:] &= mask[:, :-1]
    out[:, :-1] &= mask[:, 1:]
    return out


def _gained(scene, items, bg: np.ndarray, grab) -> tuple[np.ndarray, np.ndarray]:
    """The frame, and where showing ``items`` changed bare-background pixels."""
    full = grab()
    for item in items:
        item.setVisible(False)
    without = grab()
    for item in items:
        item.setVisible(True)
    plain = np.abs(without - bg).sum(axis=-1) <= 6
    return full, _inner(plain & (np.abs(full - without).sum(axis=-1) > 6))


@pytest.mark.parametrize("theme", ["dark", "high-contrast"])
def test_ghosts_reach_3_to_1_and_stay_fainter_than_the_chains(qtbot, theme):
    """Dark drew its ghosts at 1.7:1 (lit half; now 3.1:1), high contrast at 3.1:1 (now
    3.7:1), both at about half the live chains' median contrast."""
    win = MainWindow(LessonState.from_preset("negated-20"))
    qtbot.addWidget(win)
    theme_menu.apply_theme(win, theme)
    render_window(win, (1280, 720))
    scene = win.views["main"].scene

    def grab() -> np.ndarray:
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        return image_to_rgb(scene.grabFramebuffer()).astype(int)

    bg = np.array(QtGui.QColor(themes.current().scene).getRgb()[:3])
    frame, ghost = _gained(scene, [scene._ghost_item], bg, grab)
    bodies = [chain.body for chain in scene._chains.values()]
    _, body = _gained(scene, bodies, bg, grab)
    body &= ~ghost
    assert ghost.sum() > 500 and body.sum() > 500, (ghost.sum(), body.sum())
    ghost_c, body_c = _contrast(frame[ghost], bg), _contrast(frame[body], bg)
    lit = np.percentile(ghost_c, 75)
    assert lit >= 3.0, (theme, lit, np.median(ghost_c))
    assert np.median(ghost_c) <= 0.6 * np.median(body_c), (np.median(ghost_c),
                                                           np.median(body_c))
