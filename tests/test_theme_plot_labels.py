"""The plots' boxed labels (a gap, a peak above the range) stay inside their plot.

Geometry: each label's scene bounding rectangle must lie inside its view
box's, at the projector sizes and at zoom, cover at most a fifth of it, and
stacked labels must not overlap.
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
import pytest
from PyQt6 import QtCore, QtWidgets

from quatlab.app.commands.screenshot import render_window
from quatlab.app.model.state import LessonState
from quatlab.app.qt import theme_menu
from quatlab.app.qt.window import MainWindow
from quatlab.math.curves import compute_curves
from quatlab.rendering.curve_plots import CurvePlots

pytestmark = pytest.mark.gl

TRUCK = Path(__file__).parent / "data" / "gltf" / "CesiumMilkTruck.glb"


def _labels(plot: pg.PlotItem) -> list[pg.TextItem]:
    """The boxed labels shown in ``plot`` (the hover readout boxes are hidden)."""
    return [it for it in plot.getViewBox().childGroup.childItems()
            if isinstance(it, pg.TextItem) and it.isVisible()
            and it.border.style() != QtCore.Qt.PenStyle.NoPen
            and not getattr(it, "squeezed", False)]


def _check_inside(plot: pg.PlotItem) -> int:
    box = plot.getViewBox().sceneBoundingRect()
    rects = []
    for label in _labels(plot):
        r = label.sceneBoundingRect()
        assert r.width() > 10 and r.height() > 10, r
        assert box.adjusted(-0.5, -0.5, 0.5, 0.5).contains(r), (label.toPlainText(), r, box)
        # Never more than a fifth of the plot, and the text whole in its box.
        assert r.width() * r.height() <= 0.2 * box.width() * box.height() + 1.0
        text = label.textItem.sceneBoundingRect()
        assert r.adjusted(-0.5, -0.5, 0.5, 0.5).contains(text)
        rects.append(r)
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            inter = a.intersected(b)
            assert inter.width() * inter.height() < 1.0, (a, b)
    return len(rects)


def _settle(n: int = 4) -> None:
    for _ in range(n):
        QtWidgets.QApplication.processEvents()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1400, 900)])
@pytest.mark.parametrize("zoom", [1.0, 1.5])
def test_keyframe_omega_peak_label_stays_inside_the_plot(qtbot, size, zoom, lang):
    """The truck's naive-runtime peak label ran off both sides of the narrow speed plot
    (now the omega plot), covered a third to half of it, and was cut in zh_CN."""
    from quatlab.app import i18n

    i18n.set_language(lang)
    try:
        _omega_label_inside(qtbot, size, zoom)
    finally:
        i18n.set_language("en")


def _omega_label_inside(qtbot, size, zoom):
    win = MainWindow(LessonState.from_preset("negated-20"))
    qtbot.addWidget(win)
    if zoom != 1.0:
        win.set_zoom(zoom)
    theme_menu.apply_theme(win, "high-contrast")
    win.open_keyframes(str(TRUCK))
    view = win.views["keyframes"]
    assert view.rig_panel.wait_loaded()
    view.rig_panel.playback.set_time(0.6)
    view.rig_panel.plot_tabs.setCurrentWidget(view.rig_panel.omega)
    win.show_view("keyframes")
    render_window(win, size)
    _settle()
    omega = view.rig_panel.omega
    assert len(omega.callouts) == 1
    shown = _check_inside(omega.getPlotItem())
    # Where the plot has room for it, the label is there (else it waits for room).
    assert shown == (0 if omega.callouts[0].squeezed else 1)
    if size == (1400, 900) and zoom == 1.0:
        assert shown == 1
    for plots in view.findChildren(CurvePlots):
        if plots.isVisible():
            for plot in plots.plots.values():
                _check_inside(plot)


def test_stacked_gap_and_peak_labels_fit_a_narrow_plot(qtbot):
    """q -> -q: naive NLERP's collapse and naive SLERP's undefined band both get a
    label in each plot; in a narrow widget they wrap, stay inside and hang one
    below the other."""
    plots = CurvePlots()
    qtbot.addWidget(plots)
    state = LessonState.from_preset("q-to-minus-q")
    plots.set_curves(compute_curves(state.q0, state.q1))
    plots.resize(420, 420)
    plots.show()
    qtbot.waitExposed(plots)
    _settle()
    assert _check_inside(plots.plots["speed"]) >= 2
    assert _check_inside(plots.plots["angle"]) >= 2
    plots.resize(900, 300)  # a relayout re-places them
    _settle()
    assert _check_inside(plots.plots["speed"]) >= 2
