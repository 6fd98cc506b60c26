"""FlowRow: controls that wrap onto new lines, and runs that keep to one line."""

from __future__ import annotations

import pytest
from PyQt6 import QtWidgets

from quatlab.app.qt.flow_legend import RowLegend
from quatlab.rendering.flow_layout import FlowRow


class _Box(QtWidgets.QWidget):
    """A widget of a fixed width and height, so lines are hand-worked."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.setFixedSize(width, 20)

    def sizeHint(self):  # noqa: N802 - Qt API
        return self.minimumSize()

    def minimumSizeHint(self):  # noqa: N802 - Qt API
        return self.minimumSize()


def _row(widths: list[int], width: int):
    host = QtWidgets.QWidget()
    row = FlowRow(host, spacing=10)
    row.setContentsMargins(0, 0, 0, 0)
    boxes = [_Box(w) for w in widths]
    for b in boxes:
        row.addWidget(b)
    host.resize(width, 200)
    row.setGeometry(host.rect())
    return host, row, boxes


def _lines(boxes) -> list[int]:
    return [b.geometry().top() // 22 for b in boxes]


def test_items_wrap_when_the_next_does_not_fit(qapp):
    # 100 + 10 + 100 + 10 + 100 = 320 > 300: the third goes to the second line.
    _host, _row_, boxes = _row([100, 100, 100], 300)
    assert _lines(boxes) == [0, 0, 1]


def test_a_run_starts_a_new_line_rather_than_split(qapp):
    # Without the run the legend's first entry (x 110..210) ends the first line.
    _host, row, boxes = _row([100, 100, 100, 80], 300)
    assert _lines(boxes) == [0, 0, 1, 1]
    row.keep_together("legend", boxes[1:3])  # 100 + 10 + 100 = 210 <= 300
    row.setGeometry(_host.rect())
    assert _lines(boxes) == [0, 1, 1, 1]  # 100 + 10 + 100 + 10 + 80 = 300 fits


def test_a_run_longer_than_a_line_still_flows(qapp):
    host, row, boxes = _row([100, 150, 150, 150], 300)
    row.keep_together("legend", boxes[1:])  # 470 px: no line holds it
    row.setGeometry(host.rect())
    assert _lines(boxes) == [0, 0, 1, 2]


@pytest.mark.parametrize("hidden", [True, False])
def test_a_runs_hidden_members_take_no_room(qapp, hidden):
    host, row, boxes = _row([100, 100, 150, 150], 300)
    row.keep_together("legend", boxes[1:3])
    boxes[2].setVisible(not hidden)
    host.show()
    row.setGeometry(host.rect())
    # Shown: 100 + 10 + 150 = 260 fits a line, so the run starts one; hidden, the
    # run is its first entry alone, which fits after the first box.
    assert _lines(boxes)[1] == (0 if hidden else 1)
    host.close()


def test_the_row_legend_replaces_its_entries_before_its_widget(qapp):
    host = QtWidgets.QWidget()
    row = FlowRow(host)
    first, last = QtWidgets.QLabel("Preset"), QtWidgets.QPushButton("Reset")
    row.addWidget(first)
    row.addWidget(last)
    legend = RowLegend(row, before=last)
    legend.set_entries(["a", "b", "c"])
    legend.set_entries(["x", "y"])
    items = [row.itemAt(i).widget() for i in range(row.count())]
    assert items[0] is first and items[-1] is last
    assert [w.text() for w in items[1:-1]] == ["x", "y"]
    assert legend.text() == "x y"
