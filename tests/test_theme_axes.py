"""Curve plots' y axes at zoom: the title-to-ticks gap grows with the zoom, no more.

Geometry in scene pixels: the title's rectangle against the tick labels' text
rectangles (as pyqtgraph lays them out), at 100% and 130%, in every theme.
"""

from __future__ import annotations

import pytest
from PyQt6 import QtWidgets
from text_layout import tick_text_rects

from quatlab.app.commands.screenshot import render_window
from quatlab.app.model.state import LessonState
from quatlab.app.qt import theme_menu
from quatlab.app.qt.window import MainWindow
from quatlab.rendering import themes
from quatlab.rendering.curve_plots import CurvePlots

pytestmark = pytest.mark.gl

SIZE = (1280, 720)


def _gap(axis) -> float:
    """Pixels from the right edge of a left axis' title to the left edge of its tick labels."""
    title = axis.label.mapRectToScene(axis.label.boundingRect())
    texts = [rect for rect, text in tick_text_rects(axis) if text]
    assert len(texts) >= 3
    return min(r.left() for r in texts) - title.right()


def _gaps(win) -> dict[str, float]:
    render_window(win, SIZE)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
    plots = win.views["main"].findChild(CurvePlots)
    return {name: _gap(p.getAxis("left")) for name, p in plots.plots.items()}


@pytest.mark.parametrize("theme", list(themes.THEMES))
def test_axis_title_to_tick_gap_grows_with_the_zoom(qtbot, theme):
    """High contrast at 130% left ~100 px between "path angle (deg)" and its ticks: each
    walk of the restyle read the rounded axis width it had set as a new design width
    and scaled it again (58 -> 165 px)."""
    win = MainWindow(LessonState.from_preset("negated-20"))
    qtbot.addWidget(win)
    theme_menu.apply_theme(win, theme)
    at_100 = _gaps(win)
    win.set_zoom(1.3)
    theme_menu.redraw(win)  # more walks (a tab change, an edit) must not widen it again
    at_130 = _gaps(win)
    for name, gap in at_100.items():
        assert 2.0 <= gap <= 16.0, (name, gap)
        # Proportional, to a pixel of rounding (axis width and offsets are whole pixels).
        assert abs(at_130[name] - 1.3 * gap) <= 1.0, (name, gap, at_130[name])
    win.set_zoom(1.0)
    back = _gaps(win)
    for name, gap in at_100.items():
        assert abs(back[name] - gap) <= 0.5, (name, gap, back[name])


def test_an_axis_without_its_own_tick_font_is_zoomed_once(qtbot):
    """The timeline's axis takes the application's font, which the zoom has already
    scaled: a second walk at 150 % read that as the design size and drew its tick
    labels at 225 % (13.5 pt became 20.25 pt)."""
    import pyqtgraph as pg

    from quatlab.rendering.theme_apply import restyle

    win = MainWindow(LessonState.from_preset("negated-20"))
    qtbot.addWidget(win)
    base = QtWidgets.QApplication.font().pointSizeF()
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    axis = plot.getPlotItem().getAxis("bottom")
    assert axis.style.get("tickFont") is None  # the case under test
    try:
        win.set_zoom(1.5)
        for _ in range(3):  # each walk leaves the size where it is
            restyle(plot)
            assert axis.style["tickFont"].pointSizeF() == pytest.approx(1.5 * base)
        win.set_zoom(1.0)
        restyle(plot)
        assert axis.style["tickFont"].pointSizeF() == pytest.approx(base)
    finally:
        win.set_zoom(1.0)


@pytest.mark.parametrize("factor", [1.5, 1.625, 1.875, 2.5 * 1.25])
def test_a_label_size_scaled_again_keeps_its_design_size(factor):
    """Presentation mode at 150 % draws 1.875 times larger: 11 pt was written
    "20.62pt", and the next theme walk, which compares what it finds with the
    20.625 it recorded, took it for a new design size and scaled it again (the
    plots' "time (s)" at 38.7 pt, the y titles cut to "p…")."""
    from quatlab.rendering.theme_apply import _pt

    class Axis:  # anything with a __dict__, as the walk records there
        pass

    axis = Axis()
    once = _pt(axis, "label", "11pt", factor)
    assert abs(float(once[:-2]) - 11.0 * factor) < 0.01
    assert _pt(axis, "label", once, factor) == once
    assert _pt(axis, "label", once, 1.0) == "11pt"
