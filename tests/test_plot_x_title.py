"""The plots' x-axis titles are drawn inside the window and inside the visible part of the plots.

At 1280x720 and 130 % the integration lesson's plots were given less height
than their content needed, and their "step" titles were cut at the bottom.
"""

from __future__ import annotations

import pytest
from PyQt6 import QtCore, QtWidgets

from quatlab.app.commands.screenshot import render_window
from quatlab.app.model.state import LessonState
from quatlab.app.qt.window import MainWindow
from quatlab.rendering.curve_plots import CurvePlots

pytestmark = pytest.mark.gl


@pytest.mark.parametrize("zoom", [1.0, 1.3])
def test_x_axis_titles_lie_inside_the_window(qtbot, zoom):
    win = MainWindow(LessonState.from_preset("negated-20"))
    qtbot.addWidget(win)
    win.set_zoom(zoom)
    for size in ((1280, 720), (1024, 768)):
        for view in ("integrate", "main", "wrap"):
            win.show_view(view)
            render_window(win, size)
            for _ in range(3):
                QtWidgets.QApplication.processEvents()
            plots = win.views[view].findChild(CurvePlots)
            gview = plots._view
            seen = gview.viewport().visibleRegion().boundingRect()
            for name, item in plots.plots.items():
                label = item.getAxis("bottom").label
                assert label.isVisible() and label.toPlainText().strip()
                rect = gview.mapFromScene(label.mapRectToScene(label.boundingRect()))
                rect = rect.boundingRect()
                where = (view, size, zoom, name, rect, seen)
                assert seen.contains(rect), where
                top_left = gview.viewport().mapTo(win, rect.topLeft())
                in_win = QtCore.QRect(top_left, rect.size())
                assert win.rect().contains(in_win), where
