"""Scroll areas that end below a whole row: the few pixels short of the next row are left blank.

A row cut through by a scroll area's bottom edge (the lower half of a line
of controls, of a joint's name) reads as a rendering fault on a projector.
:func:`whole_rows_end` finds where the visible part should stop;
:class:`SidePanel <quatlab.app.qt.screen_modes.SidePanel>` uses it for its
rows of controls and :class:`WholeRowsTree` for the rows of a tree view (the
Keyframes tab's dope sheet and joint tree).
"""

from __future__ import annotations

from collections.abc import Iterable

from PyQt6 import QtCore

__all__ = ["WholeRowsTree", "whole_rows_end"]


def whole_rows_end(spans: Iterable[tuple[int, int]], room: int) -> int:
    """The lowest edge at or above ``room`` that cuts none of ``spans`` (``(top, bottom)``).

    ``room`` itself when nothing straddles it, and when the edge would be in
    the upper half of the room (a row taller than half the area is cut
    rather than leave the area mostly blank).

    >>> whole_rows_end([(0, 20), (20, 40), (40, 60)], 50)
    40
    >>> whole_rows_end([(0, 20), (20, 40)], 50)
    50
    >>> whole_rows_end([(0, 20), (20, 40), (40, 60), (44, 64)], 62)  # nor one beside it
    40
    >>> whole_rows_end([(0, 80)], 50)
    50
    """
    spans = list(spans)
    y, moved = room, True
    while moved:  # y only rises, so this ends
        moved = False
        for top, bottom in spans:
            if top < y < bottom:
                y, moved = top, True
    return y if y > room // 2 else room


class WholeRowsTree:
    """A mixin for a ``QTreeView`` subclass: its viewport ends under its last whole row.

    The rows' room is the viewport's height with no bottom margin; the margin
    cuts off the part of a row the room does not hold (blank, in the
    widget's background). ``QTreeView.updateGeometries`` sets the viewport's
    margins (the header's height on top, nothing below) whenever the view is
    laid out, so the cut is set again after it, every time.
    """

    _cut = 0

    def updateGeometries(self) -> None:  # noqa: N802 - Qt API
        super().updateGeometries()
        self._cut = self._rows_cut()
        margins = self.viewportMargins()
        if margins.bottom() != self._cut:
            # The resize this sends comes back here: the room, and so the cut, are the same.
            self.setViewportMargins(margins.left(), margins.top(), margins.right(), self._cut)

    def _rows_cut(self) -> int:
        """How much of the rows' room to leave blank so that the last row shows whole."""
        room = self.viewport().height() + self.viewportMargins().bottom()
        spans = []
        index = self.indexAt(QtCore.QPoint(1, 1))
        while index.isValid():
            rect = self.visualRect(index)
            if rect.top() >= room:
                break
            spans.append((rect.top(), rect.bottom() + 1))
            index = self.indexBelow(index)
        return room - whole_rows_end(spans, room) if room > 0 else 0
