"""The speed plot's peak callout: an opaque box over the grid, placed off the other curves.

Pixels: inside the callout's box, between its border and its text, every
pixel is the plot background, also where a grid line or the t cursor passes
(the box was 88 % opaque under a grid drawn above it). Geometry: at the
projector sizes the box covers no point of the curves it does not label
(it hung over naive SLERP's constant 340 deg/t line in the narrow plot).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.commands.screenshot import render_window
from quatlab.app.model.state import LessonState
from quatlab.app.qt import theme_menu
from quatlab.app.qt.window import MainWindow
from quatlab.rendering import themes

pytestmark = pytest.mark.gl


def _callouts(plot: pg.PlotItem) -> list[pg.TextItem]:
    return [it for it in plot.getViewBox().childGroup.childItems()
            if isinstance(it, pg.TextItem) and it.isVisible()
            and it.border.style() != QtCore.Qt.PenStyle.NoPen]


def _window(qtbot, size, theme="light"):
    win = MainWindow(LessonState.from_preset("negated-20"))
    qtbot.addWidget(win)
    theme_menu.apply_theme(win, theme)
    win.state.set_t(0.5)
    render_window(win, size)
    for _ in range(4):
        QtWidgets.QApplication.processEvents()
    return win


def _peak_label(win):
    plots = win.lesson.plots
    plot = plots.plots["speed"]
    labels = [lb for lb in _callouts(plot) if "2,620" in lb.toPlainText()]
    assert len(labels) == 1, [lb.toPlainText() for lb in _callouts(plot)]
    return plots, plot, labels[0]


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_the_callout_box_is_opaque_over_the_grid(qtbot, size):
    win = _window(qtbot, size, "high-contrast")
    plots, plot, label = _peak_label(win)
    view = plots._view
    img = view.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB32)
    ratio = img.devicePixelRatio() or 1.0
    box = view.mapFromScene(label.textItem.sceneBoundingRect()).boundingRect()
    vb = plot.getViewBox()
    # Vertical grid lines (every 0.2 of t at least) through the box.
    xs = [view.mapFromScene(vb.mapViewToScene(QtCore.QPointF(t, 0.0))).x()
          for t in np.arange(0.0, 1.01, 0.1)]
    inside = [x for x in xs if box.left() + 4 < x < box.right() - 4]
    assert inside, (box, xs)
    background = QtGui.QColor(themes.current().background)
    # The text item's 4-px document margin: rows between the border and the glyphs.
    rows = [box.top() + 2.5, box.top() + 3.5, box.bottom() - 3.5, box.bottom() - 2.5]
    worst = 0
    for x in range(box.left() + 3, box.right() - 2):
        for y in rows:
            c = img.pixelColor(int(x * ratio), int(y * ratio))
            worst = max(worst, abs(c.red() - background.red()), abs(c.green() - background.green()),
                        abs(c.blue() - background.blue()))
    assert worst <= 6, (worst, background.name())


def _points_in(rect: QtCore.QRectF, plot: pg.PlotItem, item: pg.PlotDataItem) -> int:
    """Points of ``item``'s curve (densified to 1 px in the scene) inside scene ``rect``."""
    x, y = item.getData()
    vb = plot.getViewBox()
    t = vb.childGroup.sceneTransform()
    px = np.column_stack([t.m11() * x + t.m21() * y + t.m31(), t.m12() * x + t.m22() * y + t.m32()])
    px = px[np.all(np.isfinite(px), axis=-1)]
    dense = [px[:1]]
    for a, b in zip(px[:-1], px[1:], strict=True):
        n = int(min(np.ceil(np.hypot(*(b - a))), 4000)) + 1
        dense.append(a + np.linspace(0.0, 1.0, n)[:, None] * (b - a))
    pts = np.concatenate(dense)
    return int(np.sum((pts[:, 0] >= rect.left()) & (pts[:, 0] <= rect.right())
                      & (pts[:, 1] >= rect.top()) & (pts[:, 1] <= rect.bottom())))


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768), (1400, 900)])
def test_the_peak_callout_covers_no_other_curve(qtbot, size):
    win = _window(qtbot, size)
    plots, plot, label = _peak_label(win)
    rect = label.textItem.sceneBoundingRect()
    vb = plot.getViewBox().sceneBoundingRect()
    assert vb.contains(rect), (rect, vb)
    for name, item in plots._items["speed"].items():
        if name == "naive_nlerp" or not item.isVisible():
            continue  # the labelled curve: the callout says where it goes
        assert _points_in(rect, plot, item) == 0, (name, size, rect)


@pytest.mark.parametrize("lang", ["zh_CN"])
def test_gap_callouts_leave_most_of_a_short_plot_free(qtbot, lang):
    """q to -q, 1024x768 at 150 %: the two gap callouts of each plot, two wrapped
    lines each, covered the whole 144-px plot and the curves under it. Now
    none covers a curve or the cursor (tests/callout_checks.py); with the
    cursor at t = 0 the path-angle plot has room for both, and they reach at
    most 65 % of the way down. (At t = 0.5 the cursor runs through the gaps'
    x, and neither side of it has room: they are not drawn. In English the
    plots are 195 px wide there and even the short forms wrap onto two
    lines, see docs/projector.md.)"""
    from callout_checks import callout_problems

    from quatlab.app import i18n

    i18n.set_language(lang)
    try:
        win = MainWindow(LessonState.from_preset("q-to-minus-q"))
        qtbot.addWidget(win)
        win.set_zoom(1.5)
        for t in (0.5, 0.0):
            win.state.set_t(t)
            render_window(win, (1024, 768))
            for _ in range(4):
                QtWidgets.QApplication.processEvents()
            for name, plot in win.lesson.plots.plots.items():
                assert callout_problems(plot, name) == []
                labels = _callouts(plot)
                assert len(labels) == 2, (name, [lb.toPlainText() for lb in labels])
                # A callout with no room is drawn whole or not at all (its text hidden).
                shown = [lb for lb in labels if lb.textItem.isVisible()]
                assert t != 0.0 or name != "angle" or len(shown) == 2, (name, len(shown))
                if not shown:
                    continue
                vb = plot.getViewBox().sceneBoundingRect()
                bottom = max(lb.textItem.sceneBoundingRect().bottom() for lb in shown)
                assert bottom - vb.top() <= 0.65 * vb.height() + 1, (name, bottom - vb.top(),
                                                                      vb.height())
    finally:
        i18n.set_language("en")
