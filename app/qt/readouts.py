"""Qt readouts: dot, hemisphere, angle between, and each method's values at t."""

from __future__ import annotations

import numpy as np
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.model.state import LessonState, format_quaternion
from quatlab.math.curves import METHOD_LABELS, METHODS
from quatlab.rendering.style import METHOD_COLORS

__all__ = ["Readouts"]


class Readouts(QtWidgets.QGroupBox):
    """Numbers that follow ``state``: the endpoint relation and the four methods at t."""

    def __init__(self, state: LessonState, parent=None) -> None:
        super().__init__(_("Readouts"), parent)
        self.state = state
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        self.summary = QtWidgets.QLabel()
        self.summary.setObjectName("summary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(QtCore.Qt.TextFormat.RichText)
        layout.addWidget(self.summary)
        self.table = QtWidgets.QTableWidget(len(METHODS), 3)
        self.table.setObjectName("method_table")
        self.table.setHorizontalHeaderLabels([_("q(t) (w, x, y, z)"), _("angle °"), _("°/t")])
        self.table.setVerticalHeaderLabels([_(METHOD_LABELS[m]) for m in METHODS])
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setToolTip(_("Each method at the current t: the quaternion, the path angle "
                                "swept from q0, and the angular speed 2|dq/dt|"))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        # Fixed sizes, measured once for the widest text a cell can hold: with
        # ResizeToContents every change of t re-measured every cell and
        # re-laid out the table, though only the numbers change.
        metrics = self.table.fontMetrics()
        for col, widest in ((1, "000.00"), (2, "0000.00")):
            header.setSectionResizeMode(col, QtWidgets.QHeaderView.ResizeMode.Fixed)
            title = self.table.horizontalHeaderItem(col).text()
            header.resizeSection(col, max(metrics.horizontalAdvance(widest),
                                          metrics.horizontalAdvance(title)) + 12)
        for row, m in enumerate(METHODS):
            item = self.table.verticalHeaderItem(row)
            item.setForeground(QtGui.QBrush(QtGui.QColor(METHOD_COLORS[m])))
            font = item.font()
            font.setBold(True)
            item.setFont(font)
        # Rows fit the quaternion on two lines, the most it wraps to.
        rows = self.table.verticalHeader()
        rows.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(2 * metrics.lineSpacing() + 6)
        self.table.setFixedHeight(header.sizeHint().height()
                                  + len(METHODS) * rows.defaultSectionSize()
                                  + 2 * self.table.frameWidth() + 2)
        layout.addWidget(self.table)
        state.events.connect("endpoints", self.refresh)
        state.events.connect("t", self.refresh_t)
        self.refresh()

    def refresh(self) -> None:
        s = self.state
        d = s.dot
        if d < 0:
            hemi = _("opposite hemispheres: shortest methods use <b>−q1</b>")
        elif d == 0:
            hemi = _("dot = 0: sign kept by the rule (no flip)")
        else:
            hemi = _("same hemisphere: shortest = naive")
        self.summary.setText(
            f"dot(q0, q1) = <b>{d:+.7f}</b> — {hemi}<br>"
            + _("angle between the rotations: <b>{angle:.4f}°</b>").format(
                angle=np.degrees(s.angle))
            + ("<br>" + _("preset: <i>{preset}</i>").format(preset=s.preset) if s.preset else "")
        )
        self.refresh_t()

    def refresh_t(self) -> None:
        at = self.state.at_t()
        for row, m in enumerate(METHODS):
            c = at[m]
            q = c.quats[0]
            ok = np.all(np.isfinite(q))
            missing = _("undefined (collapse)") if m.endswith("nlerp") else _(
                "undefined (antipodes)")
            cells = (
                format_quaternion(q, 3) if ok else missing,
                f"{c.angle_deg[0]:.2f}" if ok else "—",
                f"{c.speed_deg[0]:.2f}" if np.isfinite(c.speed[0]) else "—",
            )
            for col, text in enumerate(cells):
                item = self.table.item(row, col)
                if item is None:
                    item = QtWidgets.QTableWidgetItem()
                    self.table.setItem(row, col, item)
                if item.text() != text:      # an unchanged cell is not repainted
                    item.setText(text)
                    if col == 0:  # whole on hover where a narrow panel elides it
                        item.setToolTip(text)

