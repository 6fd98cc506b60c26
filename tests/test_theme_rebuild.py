"""What a view makes after the theme's walk (a new preset's curves, chains, titles) is
drawn in the current theme and zoom at once, not at the next walk.

The oracle is the same view in the light theme at 100%: after a preset change
in the dark theme at zoom 1.5, every curve's pen is the dark theme's colour
for its light colour at 1.5 times its light width, the axis fonts are 1.5
times theirs, and the 3D lines 1.5 times as wide.
"""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.model.state import LessonState
from quatlab.app.qt import theme_menu
from quatlab.app.qt.window import MainWindow
from quatlab.rendering import themes
from quatlab.rendering.curve_plots import CurvePlots
from quatlab.rendering.theme_apply import gl_views

pytestmark = pytest.mark.gl

ZOOM = 1.5


@pytest.fixture
def win(qtbot):
    w = MainWindow(LessonState.from_preset("negated-20"))
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    qtbot.waitExposed(w)
    return w


def _settle() -> None:
    for _ in range(4):
        QtWidgets.QApplication.processEvents()


def _look(view) -> dict:
    """Pens of the shown curves, axis fonts and 3D line widths of ``view``, now."""
    plots = view.findChild(CurvePlots)
    pens, fonts = {}, {}
    for name, plot in plots.plots.items():
        for i, item in enumerate(plot.listDataItems()):
            if not isinstance(item, pg.PlotDataItem) or item.xData is None \
                    or len(item.xData) < 2 or not item.isVisible():
                continue
            pen = pg.mkPen(item.opts["pen"])
            if pen.style() != QtCore.Qt.PenStyle.NoPen:
                pens[(name, i)] = (pen.color().name().upper(), pen.widthF())
        for side in ("left", "bottom"):
            axis = plot.getAxis(side)
            fonts[(name, side, "tick")] = axis.style["tickFont"].pointSizeF()
            fonts[(name, side, "title")] = float(axis.labelStyle["font-size"].rstrip("pt"))
    widths = sorted(it.width for v in gl_views(view) for it in v.items
                    if type(it).__name__ == "GLLinePlotItem" and it.visible()
                    and it.pos is not None and len(it.pos) >= 2)
    return {"pens": pens, "fonts": fonts, "gl": widths}


def _preset_box(view) -> QtWidgets.QComboBox:
    box = view.findChild(QtWidgets.QComboBox, "lesson_preset")
    assert box is not None and box.count() >= 2
    return box


@pytest.mark.parametrize("name", ["blend", "euler", "integrate", "squad", "wrap"])
def test_a_new_preset_is_drawn_in_the_theme_and_zoom_at_once(win, name):
    theme_menu.apply_theme(win, "light", 1.0)
    win.show_view(name)
    _settle()
    view = win.views[name]
    box = _preset_box(view)
    first, other = box.currentIndex(), (box.currentIndex() + 1) % box.count()
    box.setCurrentIndex(other)
    _settle()
    light = _look(view)
    box.setCurrentIndex(first)
    _settle()
    theme_menu.apply_theme(win, "dark", ZOOM)
    _settle()
    box.setCurrentIndex(other)  # the rebuild; no event loop pass before looking
    dark = _look(view)
    try:
        assert light["pens"] and dark["pens"].keys() == light["pens"].keys()
        for key, (colour, width) in light["pens"].items():
            assert dark["pens"][key][0] == themes.DARK.colour(colour).upper(), (name, key)
            assert dark["pens"][key][1] == pytest.approx(ZOOM * width), (name, key)
        for key, size in light["fonts"].items():
            assert dark["fonts"][key] == pytest.approx(ZOOM * size), (name, key)
        assert dark["gl"] == pytest.approx([ZOOM * w for w in light["gl"]]), name
    finally:
        theme_menu.apply_theme(win, "light", 1.0)
        _settle()


def test_a_new_two_key_preset_is_drawn_in_the_theme_and_zoom_at_once(win):
    theme_menu.apply_theme(win, "light", 1.0)
    win.show_view("main")
    _settle()
    win.state.load_preset("q-to-minus-q")
    _settle()
    light = _look(win.lesson)
    win.state.load_preset("negated-20")
    theme_menu.apply_theme(win, "high-contrast", ZOOM)
    _settle()
    win.state.load_preset("q-to-minus-q")
    hc = _look(win.lesson)
    lw = ZOOM * themes.HIGH_CONTRAST.line_scale
    try:
        for key, (colour, width) in light["pens"].items():
            assert hc["pens"][key] == (QtGui.QColor(themes.HIGH_CONTRAST.colour(colour))
                                       .name().upper(), pytest.approx(lw * width)), key
        assert hc["gl"] == pytest.approx([lw * w for w in light["gl"]])
    finally:
        theme_menu.apply_theme(win, "light", 1.0)
        _settle()

