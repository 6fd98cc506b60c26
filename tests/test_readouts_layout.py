"""The readouts table keeps its layout while t moves: only the numbers change and redraw."""

from __future__ import annotations

from PyQt6 import QtWidgets

import quatlab.app.qt.window as window_module
from quatlab.app.model.state import LessonState
from quatlab.app.qt.window import MainWindow


def test_a_change_of_t_does_not_resize_the_table(qtbot, monkeypatch):
    monkeypatch.setattr(window_module, "_view_modules", lambda: [], raising=False)
    win = MainWindow(LessonState.from_preset("negated-20", t=0.0))
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    table = win.findChild(QtWidgets.QTableWidget, "method_table")

    def layout():
        QtWidgets.QApplication.processEvents()
        header, rows = table.horizontalHeader(), table.verticalHeader()
        return ([header.sectionSize(c) for c in range(table.columnCount())],
                [rows.sectionSize(r) for r in range(table.rowCount())])

    first = layout()
    # t = 0: angles 0.00, speeds ~20; t = 0.5: naive NLERP at 170.00 deg and
    # 2619.58 deg/t: wider numbers, which used to re-measure every column.
    for t in (0.5, 1.0, 0.25):
        win.state.set_t(t)
        assert layout() == first, t
    # Every cell's text still shows whole (no elision) at this size.
    for row in range(table.rowCount()):
        for col in (1, 2):
            item = table.item(row, col)
            room = table.horizontalHeader().sectionSize(col)
            assert table.fontMetrics().horizontalAdvance(item.text()) < room, item.text()
