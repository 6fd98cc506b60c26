"""A change of t redraws what moves with t: the table keeps its layout, the toolbars stay put."""

from __future__ import annotations

from PyQt6 import QtCore, QtWidgets

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


class _PaintCounter(QtCore.QObject):
    def __init__(self, widgets):
        super().__init__()
        self.widgets = {id(w): name for name, w in widgets.items()}
        self.counts = dict.fromkeys(widgets, 0)

    def eventFilter(self, obj, event):
        if event.type() == QtCore.QEvent.Type.Paint and id(obj) in self.widgets:
            self.counts[self.widgets[id(obj)]] += 1
        return False


def test_a_change_of_t_leaves_the_scene_toolbar_and_container_unpainted(qtbot, monkeypatch):
    """The scrubber used to reset its spin box's range and suffix on every t, which re-laid
    out and repainted the whole lesson view (toolbar, scene container) for a moved slider."""
    monkeypatch.setattr(window_module, "_view_modules", lambda: [], raising=False)
    win = MainWindow(LessonState.from_preset("negated-20", t=0.1))
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    for _ in range(5):
        QtWidgets.QApplication.processEvents()
    lesson = win.lesson
    counter = _PaintCounter({"root_only": lesson.root_only, "container": lesson.scene.widget,
                             "slider": win.findChild(QtWidgets.QSlider, "t_slider")})
    app = QtWidgets.QApplication.instance()
    app.installEventFilter(counter)
    try:
        for k in range(1, 11):
            win.state.set_t(0.1 + 0.05 * k)
            QtWidgets.QApplication.processEvents()
            QtWidgets.QApplication.processEvents()
    finally:
        app.removeEventFilter(counter)
    assert counter.counts["slider"] >= 5          # what moves with t is redrawn ...
    assert counter.counts["root_only"] == 0, counter.counts   # ... and only that
    assert counter.counts["container"] == 0, counter.counts
