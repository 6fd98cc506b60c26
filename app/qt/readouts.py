"""Qt readouts: dot, hemisphere, angle between, and each method's values at t."""

from __future__ import annotations

import numpy as np
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.model.explain import glue_formulas
from quatlab.app.model.state import LessonState, format_quaternion
from quatlab.app.qt.theme_menu import set_item_colour
from quatlab.math.curves import METHOD_LABELS, METHODS
from quatlab.rendering.style import METHOD_COLORS

__all__ = ["Readouts", "aligned_quaternion"]


#: Cells of one method, by what they show: (row offset in its pair, column).
_CELLS = {"name": (0, 0), "angle": (0, 1), "speed": (0, 2), "q": (1, 0)}


def aligned_quaternion(q) -> str:
    """``(w, x, y, z)`` with 3 decimals, a sign's room before every component.

    In a fixed-width font the components of the four methods then stand in
    columns, signs or not (the digits as :func:`format_quaternion` writes them).

    >>> aligned_quaternion([0.0872, 0, 0, -0.9962])
    '( 0.087,  0.000,  0.000, -0.996)'
    """
    parts = format_quaternion(q, 3)[1:-1].split(", ")
    return "(" + ", ".join(p.rjust(6) for p in parts) + ")"


class _PairRule(QtWidgets.QStyledItemDelegate):
    """Draws a rule under each method's pair of rows (the table has no grid)."""

    def paint(self, painter, option, index) -> None:
        super().paint(painter, option, index)
        if index.row() % 2 == 1 and index.row() < index.model().rowCount() - 1:
            painter.save()
            rule = option.palette.color(QtGui.QPalette.ColorRole.Text)
            rule.setAlphaF(0.3)  # a faint line in the text's colour: any theme
            painter.setPen(rule)
            r = option.rect
            painter.drawLine(r.left(), r.bottom(), r.right(), r.bottom())
            painter.restore()


class Readouts(QtWidgets.QGroupBox):
    """Numbers that follow ``state``: the endpoint relation and the four methods at t.

    Each method takes two rows of :attr:`table`: its name, path angle and
    angular speed, then its q(t) across the whole width in a fixed-width
    font, so the side panel shows all four components whole however narrow
    (a 1024-px projector) instead of eliding them. :meth:`cell` finds a cell.
    """

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
        self.table = QtWidgets.QTableWidget(2 * len(METHODS), 3)
        self.table.setObjectName("method_table")
        self.table.setHorizontalHeaderLabels([
            _("method") + "\n" + _("q(t) (w, x, y, z)"), _("angle °"), _("°/t")])
        self.table.horizontalHeaderItem(0).setTextAlignment(
            QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter)
        self.table.verticalHeader().hide()
        self.table.setShowGrid(False)
        self.table.setItemDelegate(_PairRule(self.table))
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setVerticalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setToolTip(_("Each method at the current t: the quaternion, the path angle "
                                "swept from q0, and the angular speed 2|dq/dt|"))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        for col in (1, 2):
            header.setSectionResizeMode(col, QtWidgets.QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Fixed)
        right = QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter
        for k, m in enumerate(METHODS):
            self.table.setSpan(2 * k + 1, 0, 1, 3)
            for what, (dr, col) in _CELLS.items():
                item = QtWidgets.QTableWidgetItem()
                if what == "name":
                    item.setText(_(METHOD_LABELS[m]))
                    set_item_colour(item, METHOD_COLORS[m])
                elif what != "q":
                    item.setTextAlignment(right)
                self.table.setItem(2 * k + dr, col, item)
        self._measure()
        layout.addWidget(self.table)
        state.events.connect("endpoints", self.refresh)
        state.events.connect("t", self.refresh_t)
        self.refresh()

    def cell(self, method: str, what: str) -> QtWidgets.QTableWidgetItem:
        """The cell of ``method`` showing ``what``: "name", "q", "angle" or "speed"."""
        dr, col = _CELLS[what]
        return self.table.item(2 * METHODS.index(method) + dr, col)

    def _measure(self) -> None:
        """Fonts and fixed sizes for the table's font: on building and on a zoom.

        Fixed sizes, measured for the widest text a cell can hold: with
        ResizeToContents every change of t re-measured every cell and
        re-laid out the table, though only the numbers change.
        """
        base = self.table.font()
        mono = QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont)
        mono.setPointSizeF(base.pointSizeF())  # as large as the text around it
        bold = QtGui.QFont(base)
        bold.setBold(True)
        for m in METHODS:
            self.cell(m, "name").setFont(bold)
            self.cell(m, "q").setFont(mono)
        metrics, header = QtGui.QFontMetrics(base), self.table.horizontalHeader()
        for col, widest in ((1, "000.00"), (2, "0000.00")):
            title = self.table.horizontalHeaderItem(col).text()
            header.resizeSection(col, max(metrics.horizontalAdvance(widest),
                                          metrics.horizontalAdvance(title)) + 12)
        rows = self.table.verticalHeader()
        name_h = QtGui.QFontMetrics(bold).lineSpacing() + 4
        q_h = QtGui.QFontMetrics(mono).lineSpacing() + 2
        # Rows as tight as their text: the header's least section size (the
        # style's, about a line and a half) would silently make them taller.
        rows.setMinimumSectionSize(min(name_h, q_h))
        for k in range(len(METHODS)):
            rows.resizeSection(2 * k, name_h)
            rows.resizeSection(2 * k + 1, q_h)
        # The height the rows really take (rows.length()), not the sum asked for.
        self.table.setFixedHeight(header.sizeHint().height() + rows.length()
                                  + 2 * self.table.frameWidth() + 2)
        # The q(t) rows need the width of the widest quaternion text.
        self.table.setMinimumWidth(
            QtGui.QFontMetrics(mono).horizontalAdvance(aligned_quaternion([-1, -1, -1, -1]))
            + 8 + 2 * self.table.frameWidth())

    def changeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().changeEvent(ev)
        if ev.type() == QtCore.QEvent.Type.FontChange:  # a zoom: sizes follow the font
            self._measure()

    def refresh(self) -> None:
        s = self.state
        d = s.dot
        if d < 0:
            hemi = _("opposite hemispheres: shortest methods use <b>−q1</b>")
        elif d == 0:
            hemi = _("dot = 0: sign kept by the rule (no flip)")
        else:
            hemi = _("same hemisphere: shortest = naive")
        self.summary.setText(glue_formulas(
            f"dot(q0, q1) = <b>{d:+.7f}</b> — {hemi}<br>"
            # The preset is not repeated here: the Preset box above names it, and
            # on a 720-px screen the Chinese panel had no line to spare.
            + _("angle between the rotations: <b>{angle:.4f}°</b>").format(
                angle=np.degrees(s.angle))
        ))
        self.refresh_t()

    def refresh_t(self) -> None:
        at = self.state.at_t()
        for m in METHODS:
            c = at[m]
            q = c.quats[0]
            ok = np.all(np.isfinite(q))
            missing = _("undefined (collapse)") if m.endswith("nlerp") else _(
                "undefined (antipodes)")
            cells = {
                "q": aligned_quaternion(q) if ok else missing,
                "angle": f"{c.angle_deg[0]:.2f}" if ok else "—",
                "speed": f"{c.speed_deg[0]:.2f}" if np.isfinite(c.speed[0]) else "—",
            }
            for what, text in cells.items():
                item = self.cell(m, what)
                if item.text() != text:      # an unchanged cell is not repainted
                    item.setText(text)

