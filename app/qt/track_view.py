"""SQUAD track lesson: piecewise NLERP and SLERP, SQUAD and sign-unaware SQUAD along a key track.

Under the toolbar a small key editor (:class:`KeyEditor`) shows the track
as entered: time and w, x, y, z per key, each cell editable, a "−q" button
per key and add/remove buttons. The model validates every edit; a refused
one is reported under the table and the cell goes back to the model's value.
"""

from __future__ import annotations

import numpy as np
from PyQt6 import QtCore, QtWidgets

from quatlab.app.model.track_lesson import TrackModel
from quatlab.app.qt.lesson_panel import LessonPanel, legend_html
from quatlab.math import track as T
from quatlab.rendering.series import Series
from quatlab.rendering.style import METHOD_COLORS

VIEW_NAME = "squad"
TITLE = "SQUAD track"

#: The piecewise methods keep the two-key lesson's shortest-arc colours; the
#: SQUAD pair gets Okabe-Ito colours not used by the four methods.
COLOURS = {
    "nlerp": METHOD_COLORS["shortest_nlerp"],
    "slerp": METHOD_COLORS["shortest_slerp"],
    "squad": "#56B4E9",          # sky blue
    "squad_unaware": "#E69F00",  # orange: the buggy variant stands out
}
DASHED = {"nlerp": True, "slerp": False, "squad": False, "squad_unaware": True}
#: Editor columns: the key's time, its components as entered, the −q button.
COLUMNS = ("t (s)", "w", "x", "y", "z", "")
_NEGATE = len(COLUMNS) - 1
#: Rows shown before the table scrolls: the presets' four keys (five scroll).
_VISIBLE_ROWS = 4


def _number(value: float) -> str:
    """A cell's text: short, but re-enterable without changing a typed value."""
    return f"{value:.6g}"


class KeyEditor(QtWidgets.QWidget):
    """The model's keys as a table; edits go to the model, refusals are shown, not applied."""

    def __init__(self, model: TrackModel, parent=None) -> None:
        super().__init__(parent)
        self.model = model
        row = QtWidgets.QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.table = QtWidgets.QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("track_keys")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setToolTip("Key times and quaternions (w, x, y, z) as stored; edit a cell "
                              "to change the track. −q stores a key negated: the same rotation.")
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 4)
        self.table.horizontalHeader().setSectionResizeMode(
            QtWidgets.QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(
            _NEGATE, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        # Tall enough for the presets without scrolling, short enough to leave
        # the 3D view and the plots most of the height.
        header = self.table.horizontalHeader().sizeHint().height()
        self.table.setFixedHeight(header + _VISIBLE_ROWS * self.table.verticalHeader()
                                  .defaultSectionSize() + 4)
        self.table.itemChanged.connect(self._edited)
        row.addWidget(self.table, 1)

        side = QtWidgets.QVBoxLayout()
        self.add_button = QtWidgets.QPushButton("Add key")
        self.add_button.setObjectName("track_add_key")
        self.add_button.setToolTip("Append a key one segment later, turning on as the last "
                                   "segment turned")
        self.add_button.clicked.connect(lambda: self._apply(model.add_key))
        self.remove_button = QtWidgets.QPushButton("Remove key")
        self.remove_button.setObjectName("track_remove_key")
        self.remove_button.setToolTip(f"Remove the selected key (the last if none is "
                                      f"selected); a track keeps {model.MIN_KEYS} keys")
        self.remove_button.clicked.connect(self._remove)
        self.message = QtWidgets.QLabel()
        self.message.setObjectName("track_key_message")
        self.message.setWordWrap(True)
        # Messages quote the model's ValueError: plain text, never markup.
        self.message.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.message.setStyleSheet(f"color: {METHOD_COLORS['naive_nlerp']};")
        self.message.setMaximumWidth(260)
        for w in (self.add_button, self.remove_button, self.message):
            side.addWidget(w)
        side.addStretch(1)
        row.addLayout(side)
        self.negate_buttons: list[QtWidgets.QPushButton] = []

    def _apply(self, edit, *args) -> bool:
        """Run a model edit; a refusal goes to the message line and the table is restored."""
        try:
            edit(*args)
        except ValueError as exc:
            self._refuse(str(exc))
            return False
        self.message.clear()
        return True

    def _refuse(self, why: str) -> None:
        self.message.setText(f"Refused: {why}")
        self.refresh()  # the model still has the last valid value

    def _edited(self, item: QtWidgets.QTableWidgetItem) -> None:
        i, c = item.row(), item.column()
        try:
            value = float(item.text().replace("−", "-"))
        except ValueError:
            self._refuse(f"“{item.text()}” is not a number")
            return
        if c == 0:
            self._apply(self.model.set_time, i, value)
        else:
            q = self.model.keys[i].copy()
            q[c - 1] = value
            self._apply(self.model.set_key, i, q)

    def _remove(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        i = rows[0].row() if rows else len(self.model.times) - 1
        self._apply(self.model.remove_key, i)

    def refresh(self) -> None:
        """Show the model's keys (without reporting them back as edits)."""
        m = self.model
        n = len(m.times)
        self.table.blockSignals(True)
        try:
            self.table.setRowCount(n)
            self.table.setVerticalHeaderLabels([str(i) for i in range(n)])
            for i in range(n):
                for c, v in enumerate((m.times[i], *m.keys[i])):
                    item = QtWidgets.QTableWidgetItem(_number(v))
                    item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignRight
                                          | QtCore.Qt.AlignmentFlag.AlignVCenter)
                    self.table.setItem(i, c, item)
            # Buttons are kept across refreshes: rebuilding them on every edit
            # would drop the one being clicked.
            while len(self.negate_buttons) < n:
                b = QtWidgets.QPushButton("−q")
                k = len(self.negate_buttons)
                b.setObjectName(f"track_negate_{k}")
                b.setToolTip("Store this key as −q: the same rotation in the other hemisphere")
                b.clicked.connect(lambda _=False, k=k: self._apply(self.model.negate_key, k))
                self.negate_buttons.append(b)
            for i in range(n):
                if self.table.cellWidget(i, _NEGATE) is not self.negate_buttons[i]:
                    self.table.setCellWidget(i, _NEGATE, self.negate_buttons[i])
        finally:
            self.table.blockSignals(False)
        self.remove_button.setEnabled(n > m.MIN_KEYS)


class TrackView(LessonPanel):
    def __init__(self, model: TrackModel, parent=None) -> None:
        self.model = model
        super().__init__(model.preset_items(), model.set_preset, "time", model.set_param, parent,
                         param_tooltip="Time along the track (s); drag in the plots too")
        self.tangents = QtWidgets.QCheckBox("time-scaled tangents")
        self.tangents.setObjectName("time_scaled")
        self.tangents.setToolTip("SQUAD control points weighted by the segment durations "
                                 "(continuous speed for uneven key times)")
        self.tangents.toggled.connect(model.set_time_scaled)
        self.toolbar.insertWidget(2, self.tangents)
        self.legend.setText(legend_html([(COLOURS[m], T.METHOD_LABELS[m]) for m in model.SHOWN]))
        self.keys = KeyEditor(model)
        self.add_option_row().addWidget(self.keys)
        model.events.connect("data", self.on_data)
        model.events.connect("param", self.on_param)
        self.on_data()

    def load_track(self, times, keys, name: str | None = None) -> None:
        """Show an imported track, keys (w, x, y, z) as stored; ValueError if it is unusable."""
        self.model.set_track(times, keys, name)

    def on_data(self) -> None:
        self.show_preset(self.model.preset)
        self.keys.refresh()
        m, tr = self.model, self.model.track
        self.set_axes("time", "s", m.param_range)
        for plot, attr in (("angle", "angle_deg"), ("speed", "speed_deg")):
            self.plots.set_series(plot, [
                Series(k, T.METHOD_LABELS[k], COLOURS[k], DASHED[k], tr.t, getattr(tr[k], attr))
                for k in m.SHOWN])
        self.plots.set_markers(tr.times)
        for k in m.SHOWN:
            self.scene.set_path(k, tr[k].quats, COLOURS[k])
            self.scene.set_label(k, T.METHOD_LABELS[k])
        self.on_param()

    def on_param(self) -> None:
        m = self.model
        for k, q in m.at_param().items():
            self.scene.set_chain(k, q if np.all(np.isfinite(q)) else None, COLOURS[k])
        self.slider.set_value(m.param)
        self.plots.set_cursor(m.param)
        self.explanation.setText(m.explanation())


def create(window) -> QtWidgets.QWidget:
    return TrackView(TrackModel())
