"""The lesson scene's ghosts (t = 0 and t = 1), measured on a rendered frame in every theme.

The ghosts' pixels are those the frame gains over the bare 3D background when
the ghosts are shown; the live chains' those it gains when their bodies are.
Contrast is WCAG 2's, against the theme's 3D background, written out here.
The median ghost pixel must reach 3:1 (WCAG 1.4.11) while staying at most
0.7 of the chains' median contrast (fainter than a live chain), and the
ghost must still be shaded (read as a solid, not a flat silhouette).
"""

from __future__ import annotations

import numpy as np
import pytest
from oracles import contrast_8bit, luminance_8bit
from PyQt6 import QtGui, QtWidgets

from quatlab.app.commands.screenshot import render_window
from quatlab.app.model.state import LessonState
from quatlab.app.qt import theme_menu
from quatlab.app.qt.recorder import image_to_rgb
from quatlab.app.qt.window import MainWindow
from quatlab.rendering import themes

pytestmark = pytest.mark.gl

_luminance, _contrast = luminance_8bit, contrast_8bit


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


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_ghosts_reach_3_to_1_and_stay_fainter_than_the_chains(qtbot, theme):
    """The median ghost pixel was 2.0:1 in light, 2.7:1 in dark and 3.3:1 in high
    contrast (now 3.2, 3.1 and 3.7), against the chains' 5.2, 4.6 and 6.7."""
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
    assert np.median(ghost_c) >= 3.0, (theme, np.median(ghost_c))
    assert np.median(ghost_c) <= 0.7 * np.median(body_c), (np.median(ghost_c),
                                                           np.median(body_c))
    # Shaded: a ghost drawn flat shows two greys (one layer, and two where
    # parts overlap); lit, its faces and balls spread over some twenty.
    _, counts = np.unique(frame[ghost].mean(axis=1).round(), return_counts=True)
    assert (counts >= 0.005 * ghost.sum()).sum() >= 8, counts


def test_a_new_scene_draws_the_ghosts_the_theme_draws_after_a_switch(qtbot):
    """The scene takes the ghosts from the theme, so a window that starts in a
    theme and one switched to it draw the same ghost (light started at 20 %
    from a colour of its own while a switch drew the theme's)."""
    from quatlab.rendering.chain_scene import ChainScene

    win = MainWindow(LessonState.from_preset("negated-20"))
    qtbot.addWidget(win)
    for theme in ("dark", "light", "high-contrast", "light"):
        theme_menu.apply_theme(win, theme)
        switched = win.views["main"].scene._ghost_item.opts["color"]
        fresh = ChainScene()
        qtbot.addWidget(fresh.widget)
        started = fresh._ghost_item.opts["color"]
        t = themes.current()
        want = QtGui.QColor(t.ghost)
        assert np.allclose(started, (want.redF(), want.greenF(), want.blueF(), t.ghost_alpha))
        assert np.allclose(switched, started, atol=1 / 255), (theme, switched, started)


def test_bone_triangles_face_out_so_the_ghosts_can_cull_their_backs():
    """Counter-clockwise seen from outside, as GL culls (986 of 992 were clockwise):
    the right-hand normal of every triangle points the way its lit normals do."""
    from quatlab.rendering.bone_mesh import bone_geometry

    for tip, hand in ((None, None), (0.06, 0.3)):
        g = bone_geometry(1.0, 0.08, tip, hand)
        tri = g.vertexes.reshape(-1, 3, 3).astype(float)
        right_hand = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
        lit = g.normals.reshape(-1, 3, 3).sum(axis=1)
        assert np.all(np.einsum("ij,ij->i", right_hand, lit) > 0)
