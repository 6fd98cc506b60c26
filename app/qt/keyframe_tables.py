"""Read-only Qt table models and views for the Keyframes tab, and how its numbers are printed."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _

__all__ = ["CellTable", "FittedTable", "table_view", "fit_columns", "format_number",
           "format_dot", "time_decimals"]


def format_number(value: float, spec: str) -> str:
    return format(value, spec) if np.isfinite(value) else "—"


def time_decimals(times, least: int = 3, most: int = 6) -> int:
    """Decimals (``least`` to ``most``) that print consecutive key ``times`` apart.

    Fixed decimals line a column of times up at the point, and 3 of them
    (milliseconds) take two characters less than "0.04167"; a track with
    keys closer than that gets more.

    >>> time_decimals([0.0, 1 / 24, 2 / 24]), time_decimals([0.0, 0.0004, 0.0008])
    (3, 4)
    """
    t = np.asarray(times, dtype=float)
    t = t[np.isfinite(t)]
    for digits in range(least, most):
        if np.all(np.diff(np.round(t * 10.0**digits)) != 0):
            return digits
    return most


def format_dot(value: float) -> str:
    """A dot product; tiny ones in scientific notation, since their sign is the story.

    >>> format_dot(-4.49e-11), format_dot(0.70710678), format_dot(0.0)
    ('-4.49e-11', '+0.7071', '+0.0000')
    """
    if np.isfinite(value) and 0 < abs(value) < 5e-5:
        return f"{value:+.3g}"
    return format_number(value, "+.4f")


class CellTable(QtCore.QAbstractTableModel):
    """A read-only table whose cells come from functions of the row.

    Lazy on purpose: a track of thousands of keys fills only the rows on
    screen, where a QTableWidget would build every cell up front.
    """

    def __init__(self, headers: list[tuple[str, str]], numeric: set[int], parent=None) -> None:
        super().__init__(parent)
        self._headers = headers
        self._numeric = numeric
        self._rows = 0
        self._cell: Callable[[int, int], str] = lambda r, c: ""
        self._tint: Callable[[int], str | None] = lambda r: None
        self._tip: Callable[[int], str] = lambda r: ""

    def reset(self, rows: int, cell, tint=None, tip=None) -> None:
        self.beginResetModel()
        self._rows = rows
        self._cell = cell
        self._tint = tint or (lambda r: None)
        self._tip = tip or (lambda r: "")
        self.endResetModel()

    def rowCount(self, parent=QtCore.QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent=QtCore.QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headers)

    def data(self, index, role=QtCore.Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        R = QtCore.Qt.ItemDataRole
        if role == R.DisplayRole:
            return self._cell(r, c)
        if role == R.BackgroundRole:
            tint = self._tint(r)
            return QtGui.QBrush(QtGui.QColor(tint)) if tint else None
        if role == R.ForegroundRole:
            # A tinted row keeps its text legible whatever the theme's text colour:
            # dark ink on a light tint (the palette's white text of the dark themes
            # vanished on the pale flag colours), light ink on a dark one.
            tint = self._tint(r)
            return QtGui.QBrush(QtGui.QColor(_ink_on(tint))) if tint else None
        if role == R.ToolTipRole:
            return self._tip(r) or None
        if role == R.TextAlignmentRole and c in self._numeric:
            return QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter
        return None

    def cell_text(self, row: int, column: int) -> str:
        """What the cell shows (its DisplayRole), straight from the cell function."""
        return self._cell(row, column)

    def headerData(self, section, orientation, role=QtCore.Qt.ItemDataRole.DisplayRole):
        if orientation != QtCore.Qt.Orientation.Horizontal:
            return None
        if role == QtCore.Qt.ItemDataRole.DisplayRole:
            return _(self._headers[section][0])
        if role == QtCore.Qt.ItemDataRole.ToolTipRole:
            return _(self._headers[section][1])
        return None


def _ink_on(tint: str) -> str:
    """Text colour legible on background ``tint``: near-black or white by its luminance.

    >>> _ink_on("#FBE3D6"), _ink_on("#202020")
    ('#202020', '#FFFFFF')
    """
    c = QtGui.QColor(tint)
    luma = 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF()
    return "#202020" if luma > 0.45 else "#FFFFFF"


class FittedTable(QtWidgets.QTableView):
    """A :class:`CellTable`'s view whose columns fit its width, at any zoom.

    :func:`fit_columns` sizes the columns to their texts; a zoom (a font
    change) sizes them again, rows too, since their texts grew. While the
    columns are wider than the view, the ``optional`` ones are hidden, first
    to last, so the rest shows whole without scrolling sideways; they come
    back when the view is wide enough again. (Optional columns repeat what
    the others or the row's tooltip say.)
    """

    def __init__(self, optional: tuple[int, ...] = (), parent=None) -> None:
        super().__init__(parent)
        self.optional = tuple(optional)
        self._widths: list[int] = []  # each column's fitted width, hidden or not

    def set_widths(self, widths: list[int]) -> None:
        """Columns ``widths`` wide (in column order); optional ones hidden while they do not fit."""
        self._widths = list(widths)
        header = self.horizontalHeader()
        for c, w in enumerate(widths):
            header.resizeSection(c, w)
        self._hide_to_fit()

    def _hide_to_fit(self) -> None:
        if not self._widths:
            return
        room = self.viewport().width()
        hidden = set()
        for c in (None, *self.optional):
            if c is not None:
                hidden.add(c)
            if sum(w for i, w in enumerate(self._widths) if i not in hidden) <= room:
                break
        for c in self.optional:
            if self.isColumnHidden(c) != (c in hidden):
                self.setColumnHidden(c, c in hidden)
                if c not in hidden:
                    self.horizontalHeader().resizeSection(c, self._widths[c])

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        self._hide_to_fit()

    def changeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().changeEvent(ev)
        if ev.type() == QtCore.QEvent.Type.FontChange:  # a zoom: the texts' sizes changed
            self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
            if self._widths:
                fit_columns(self)


def table_view(model: CellTable, name: str, optional: tuple[int, ...] = ()) -> FittedTable:
    """A read-only, row-selecting view of ``model``; see :class:`FittedTable` for ``optional``."""
    view = FittedTable(optional)
    view.setObjectName(name)
    view.setModel(model)
    view.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
    view.horizontalHeader().setStretchLastSection(True)
    view.setWordWrap(False)
    # Fitting columns to a sample of rows: all 20000 of a long track take half a second.
    view.horizontalHeader().setResizeContentsPrecision(200)
    return view


def fit_columns(view: QtWidgets.QTableView) -> None:
    """``view.resizeColumnsToContents()`` for a :class:`CellTable`, measured from the texts.

    The same widths (the widest cell of the rows Qt would sample, plus the
    item margins and the grid line, or the header's own hint), measured
    with the view's font metrics straight from the cell function: Qt's
    version asks the model for every role of every cell through Python,
    which cost more than half of opening a file of 147 tracks.
    """
    model = view.model()
    header = view.horizontalHeader()
    metrics = QtGui.QFontMetricsF(view.font())  # Qt rounds the natural width up, as here
    style = view.style()
    margin = 2 * (style.pixelMetric(QtWidgets.QStyle.PixelMetric.PM_FocusFrameHMargin, None, view)
                  + 1)
    grid = 1 if view.showGrid() else 0
    rows = range(min(model.rowCount(), max(header.resizeContentsPrecision(), 0) or 1000))
    widths = []
    for c in range(model.columnCount()):
        widest = max((math.ceil(metrics.horizontalAdvance(model.cell_text(r, c))) for r in rows),
                     default=-1)
        content = widest + margin + grid if widest >= 0 else 0
        widths.append(max(content, header.sectionSizeHint(c)))
    if isinstance(view, FittedTable):
        view.set_widths(widths)
    else:
        for c, w in enumerate(widths):
            header.resizeSection(c, w)
