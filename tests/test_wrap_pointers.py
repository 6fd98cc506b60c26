"""The wrap lesson's peak callout points at its peak, and its faded Euler ring stays visible.

Callout: the speed plot's "↑ ... peak" box hung far from its peak (the
arrow at t = 0.03 for a peak at t = 0.50, 1280 x 720). Where it points is
the top end of a leader line drawn from the box, or, without one, the
middle of its arrow glyph; that must be within a few pixels of the peak's
x in the view, in the wrap and the main lesson, at the projector sizes.

Trail: the tip trails fade in along t by mixing from the 3D background
towards the chain's colour; the palest end of the wrap lesson's orange
Euler ring was 1.4:1 on the light background. Each uploaded vertex colour,
and the core of the rendered line (the strongest pixel of each small
neighbourhood of trail pixels), must reach 3:1 (WCAG 2, written out here)
against the theme's 3D background, in every theme.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from oracles import contrast_8bit, luminance_8bit
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.commands.screenshot import render_window
from quatlab.app.model.state import LessonState
from quatlab.app.qt import theme_menu
from quatlab.app.qt.recorder import image_to_rgb
from quatlab.app.qt.window import MainWindow
from quatlab.rendering import themes

pytestmark = pytest.mark.gl

_luminance, _contrast = luminance_8bit, contrast_8bit


def _window(qtbot, view: str, size, theme="light"):
    win = MainWindow(LessonState.from_preset("negated-20"))
    qtbot.addWidget(win)
    theme_menu.apply_theme(win, theme)
    win.show_view(view)
    render_window(win, size)
    for _ in range(4):
        QtWidgets.QApplication.processEvents()
    return win


def _peak_callouts(plot: pg.PlotItem) -> list[pg.TextItem]:
    return [it for it in plot.getViewBox().childGroup.childItems()
            if isinstance(it, pg.TextItem) and it.isVisible()
            and it.toPlainText().startswith("↑")]


def _points_at(label: pg.TextItem) -> tuple[QtCore.QPointF, bool]:
    """Scene point the label points at (a leader's far end, else its arrow); whether a leader."""
    for child in label.childItems():
        if isinstance(child, QtWidgets.QGraphicsLineItem) and child.isVisible():
            line = child.line()
            box = label.textItem.sceneBoundingRect()
            ends = [child.mapToScene(line.p1()), child.mapToScene(line.p2())]
            # The end away from the box.
            far = max(ends, key=lambda p: abs(p.y() - box.center().y()) + abs(p.x()
                                                                              - box.center().x()))
            return far, True
    text = label.textItem
    margin = text.document().documentMargin()
    half = 0.5 * QtGui.QFontMetricsF(text.font()).horizontalAdvance("↑")
    rect = text.sceneBoundingRect()
    return QtCore.QPointF(rect.left() + margin + half, rect.top()), False


@pytest.mark.parametrize("view", ["wrap", "main"])
@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_the_peak_callout_points_at_its_peak(qtbot, view, size):
    win = _window(qtbot, view, size)
    plots = win.views[view].plots
    plot = plots.plots["speed"]
    vb = plot.getViewBox()
    labels = _peak_callouts(plot)
    assert labels, [it.toPlainText() for it in vb.childGroup.childItems()
                    if isinstance(it, pg.TextItem)]
    for label in labels:
        peak = label.pos()  # the data point the label names: (t of the peak, top of the plot)
        name = label.toPlainText()
        # The label names the peak's t ("at t = 0.50"): its data x is that t. In a
        # narrow plot the callout drops that line (rendering/plot_callouts.py).
        if "= " in name:
            assert abs(peak.x() - float(name.rsplit("= ", 1)[1])) <= 0.005, name
        want = vb.mapViewToScene(QtCore.QPointF(peak.x(), peak.y()))
        end, leader = _points_at(label)
        assert abs(end.x() - want.x()) <= 3.0, (view, size, name, end.x(), want.x())
        top = vb.sceneBoundingRect().top()
        if leader:  # up to the top of the plot, where the curve leaves it
            assert abs(end.y() - top) <= 4.0, (end.y(), top)
        else:       # the arrow itself near the top, over the peak
            assert label.textItem.sceneBoundingRect().top() - top <= 8.0


def _trail_colours(scene, key) -> np.ndarray:
    colour = np.asarray(scene._chains[key].trail.color, float)
    return np.round(colour[:, :3] * 255.0)


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_every_trail_vertex_reaches_3_to_1(qtbot, theme):
    """The palest vertices were 1.4:1 (Euler orange, light), now 3.2:1 or more."""
    for view in ("wrap", "main"):
        win = _window(qtbot, view, (1280, 720), theme)
        scene = win.views[view].scene
        bg = np.array(QtGui.QColor(themes.current().scene).getRgb()[:3])
        shown = [k for k, c in scene._chains.items() if c.trail is not None and c.trail.visible()]
        assert shown, view
        for key in shown:
            worst = _contrast(_trail_colours(scene, key), bg).min()
            assert worst >= 3.0, (view, theme, key, worst)


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_the_rendered_euler_ring_reaches_3_to_1_where_it_is_palest(qtbot, theme):
    win = _window(qtbot, "wrap", (1280, 720), theme)
    scene = win.views["wrap"].scene
    trail = scene._chains["euler"].trail

    def grab() -> np.ndarray:
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        return image_to_rgb(scene.grabFramebuffer()).astype(int)

    bg = np.array(QtGui.QColor(themes.current().scene).getRgb()[:3])
    full = grab()
    trail.setVisible(False)
    without = grab()
    trail.setVisible(True)
    # Trail pixels over bare background (not over the grid, a chain or a label).
    mask = (np.abs(without - bg).sum(axis=-1) <= 6) & (np.abs(full - without).sum(axis=-1) > 6)
    assert mask.sum() > 300, mask.sum()
    c = np.where(mask, _contrast(full, bg), 0.0)
    # The line's core: the strongest trail pixel within 2 px (its edges are antialiased).
    core = c.copy()
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            core = np.maximum(core, np.roll(np.roll(c, dy, axis=0), dx, axis=1))
    palest = np.percentile(core[mask], 2)
    assert palest >= 3.0, (theme, palest)
