"""The wrapping tab bar: every tab's text has the room the style draws it in.

Compact rows (a wrapped bar) cut the top of the tabs' text at 150 % in
zh_CN: a tab not chosen is drawn lower by the style's vertical shift, and
the row had no room left for it. The oracle is the style's own layout: the
text rectangle it gives a tab (SE_TabBarTabText), shifted as it paints a tab
not chosen, must hold the font's line and stay inside the tab's row.
"""

from __future__ import annotations

import pytest
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.qt.tab_rows import TabRows

TITLES = ["双关键帧", "关键帧", "SQUAD 轨道", "姿态混合", "欧拉角", "积分漂移", "S3 视图",
          "欧拉角回绕与双重覆盖", "同样的关键帧，六个引擎"]


@pytest.mark.parametrize("zoom", [1.0, 1.5])
def test_wrapped_rows_leave_the_text_its_line(qtbot, zoom):
    bar = TabRows()
    qtbot.addWidget(bar)
    font = QtGui.QFont(bar.font())
    font.setPointSizeF(font.pointSizeF() * zoom)
    bar.setFont(font)
    for title in TITLES:
        bar.addTab(title)
    bar.resize(520, bar.heightForWidth(520))
    bar.show()
    qtbot.waitExposed(bar)
    assert bar.rows() >= 2  # the case under test: a wrapped bar
    style, metrics = bar.style(), bar.fontMetrics()
    shift = abs(style.pixelMetric(QtWidgets.QStyle.PixelMetric.PM_TabBarTabShiftVertical,
                                  None, bar))
    for i in range(bar.count()):
        rect = bar.tabRect(i)
        opt = QtWidgets.QStyleOptionTab()
        opt.initFrom(bar)
        opt.rect = rect
        opt.text = bar.tabText(i)
        opt.shape = QtWidgets.QTabBar.Shape.RoundedNorth
        text = style.subElementRect(QtWidgets.QStyle.SubElement.SE_TabBarTabText, opt, bar)
        line = metrics.boundingRect(opt.text).height()
        drawn = text.translated(0, shift)  # where a tab not chosen draws it
        centre = drawn.center().y()
        assert centre - line / 2 >= rect.top() - 0.5, (opt.text, rect, drawn, line)
        assert centre + line / 2 <= rect.bottom() + 1.5, (opt.text, rect, drawn, line)
    # Clicking a tab of the second row chooses it.
    last = bar.count() - 1
    qtbot.mouseClick(bar, QtCore.Qt.MouseButton.LeftButton, pos=bar.tabRect(last).center())
    assert bar.currentIndex() == last
