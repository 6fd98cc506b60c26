"""Sharing a splitter's height between a scrolling table and the explanation under it.

The explanation (a QTextBrowser) gets the height its text needs, taken from
the table above it, which scrolls anyway; the table then ends at a row's
bottom and a text too long for its share stops below a whole line.
"""

from __future__ import annotations

import math

from PyQt6 import QtGui, QtWidgets

__all__ = ["MIN_DETAIL_LINES", "MIN_TABLE_ROWS", "MIN_TOP_ROWS", "fit_text_below_table",
           "line_bottoms", "table_height"]

#: Table rows the explanation leaves showing, however long its text.
MIN_TABLE_ROWS = 4

#: Lines of its text the explanation keeps, the table giving up rows, down to one, for
#: them (and then a top pane that can, some of its height): with two, at 1024x768 and
#: 150 % it showed the track's heading alone (it wraps there), the finding it explains
#: out of sight below. Measured as laid out: a Chinese line is 27 px where the font's
#: line spacing is 21, and three of those left two Chinese lines.
MIN_DETAIL_LINES = 3

#: Rows a table on top keeps (when it has them), however tall a zoom makes them.
MIN_TOP_ROWS = 2


def line_bottoms(doc: QtGui.QTextDocument) -> list[float]:
    """The bottom of every laid-out line of ``doc``, in its coordinates (top to bottom)."""
    doc.documentLayout()  # lays the blocks out
    bottoms = []
    block = doc.begin()
    while block.isValid():
        layout = block.layout()
        y = layout.position().y()
        bottoms += [y + layout.lineAt(i).y() + layout.lineAt(i).height()
                    for i in range(layout.lineCount())]
        block = block.next()
    return bottoms


def table_height(table: QtWidgets.QTableView, rows: int) -> int:
    """Height ``table`` needs for its header and ``rows`` rows, frame and scroll bar included."""
    height = 2 * table.frameWidth() + rows * max(table.verticalHeader().defaultSectionSize(), 1)
    if table.horizontalHeader().isVisible():
        height += table.horizontalHeader().height()
    if table.horizontalScrollBar().isVisible():
        height += table.horizontalScrollBar().height()
    return height


def fit_text_below_table(split: QtWidgets.QSplitter, table: QtWidgets.QTableView,
                         details: QtWidgets.QTextBrowser,
                         top_table: QtWidgets.QTableView | None = None,
                         top_pane: tuple[int, int] | None = None) -> None:
    """Resize ``split``'s three panes: something on top, the pane holding ``table``, ``details``.

    The table's pane and ``details`` share their room: ``details`` takes what
    its text needs, up to half of it and as long as the table keeps
    :data:`MIN_TABLE_ROWS` rows (fewer, down to one, where that would leave
    ``details`` less than :data:`MIN_DETAIL_LINES` lines); the table shows a
    whole number of rows and ``details`` takes the few pixels left (blank under
    its text). When the text needs more than that cap, ``details`` scrolls and
    stops at a line's bottom, never half-way through a line; the rest goes to
    the top pane. The top pane keeps its height otherwise, except that a
    ``top_table`` (the top pane itself) shows whole rows and no more than it
    has (taking up to a sixth of the splitter back when more rows come): a file
    of two tracks leaves no blank rows there, and no row is cut, except that
    when ``details`` scrolls the pixels short of a whole line (less than a row)
    still go to the top pane: below its rows, or showing part of one more.

    ``top_pane`` is (the height the top pane asks for, the least it can do
    with): it gets the first, and gives up to the difference to ``details``
    where the table, down to one row, leaves it fewer than
    :data:`MIN_DETAIL_LINES` lines.
    """
    sizes = split.sizes()
    if len(sizes) != 3 or min(sizes) <= 0:
        return
    top, middle, bottom = sizes
    fixed = middle - table.viewport().height()  # what else the pane holds, header, frames
    spare = 0  # what the top pane can lend the explanation
    if top_pane is not None:
        # Never below what the splitter lets the pane be (it would take the
        # difference from the table's pane, which then ends through a row).
        pane = split.widget(0)
        floor = max(pane.minimumSizeHint().height(), pane.minimumHeight())
        want, least_top = (max(h, floor) for h in top_pane)
        middle += top - want
        top = want
        spare = max(want - least_top, 0)
    if not details.isVisible():
        if top_pane is not None:
            split.setSizes([top, middle, bottom])
        return
    if top_table is not None:
        # Whole rows, as many as it has or as fit its room; never fewer than
        # MIN_TOP_ROWS of them (a zoom makes rows taller than the room last fitted).
        have = max(top_table.model().rowCount(), 1)
        room = max(top, sum(sizes) // 6, table_height(top_table, min(have, MIN_TOP_ROWS)))
        row_height = max(top_table.verticalHeader().defaultSectionSize(), 1)
        rows = min(have, max((room - table_height(top_table, 0)) // row_height, 1))
        fitted = table_height(top_table, rows)
        # A scroll area's own minimum (room for its scroll bars) must not undo the fit.
        top_table.setMinimumHeight(min(fitted, top_table.minimumSizeHint().height()))
        middle += top - fitted
        top = fitted
    pool = middle + bottom
    frame = details.height() - details.viewport().height()
    row = max(table.verticalHeader().defaultSectionSize(), 1)
    width = details.viewport().width()
    if details.verticalScrollBar().isVisible():
        width += details.verticalScrollBar().width()
    shown_doc = details.document()
    doc = shown_doc.clone(details)
    doc.setDefaultFont(shown_doc.defaultFont())
    doc.setDocumentMargin(shown_doc.documentMargin())
    doc.setDefaultTextOption(shown_doc.defaultTextOption())
    bar = details.style().pixelMetric(QtWidgets.QStyle.PixelMetric.PM_ScrollBarExtent, None,
                                      details)
    # The first MIN_DETAIL_LINES lines as laid out beside the scroll bar (the text
    # scrolls when it is capped), in the fonts they are drawn in.
    doc.setTextWidth(width - bar)
    bottoms = line_bottoms(doc)
    doc.setTextWidth(width)
    need = math.ceil(doc.size().height())
    least = min(need, math.ceil(bottoms[MIN_DETAIL_LINES - 1])) \
        if len(bottoms) >= MIN_DETAIL_LINES else need
    # On a short screen (1024x768 at 150 %) the table gives up rows, down to
    # one, before the explanation is left fewer than MIN_DETAIL_LINES lines;
    # then the top pane lends what it can spare.
    for keep in range(MIN_TABLE_ROWS, 0, -1):
        cap = min(pool // 2, pool - fixed - frame - keep * row)
        if cap >= least:
            break
    else:
        lent = min(spare, least - cap)
        if lent > 0:
            top -= lent
            pool += lent
            cap = min(pool // 2, pool - fixed - frame - row)
    if cap <= 0:
        doc.deleteLater()
        if top_pane is not None:
            split.setSizes([top, middle, bottom])
        return  # too small a window to share: the splitter as it is
    if need <= cap:
        rows = (pool - fixed - frame - need) // row
        bottom = pool - fixed - rows * row
    else:
        # It scrolls: the text is laid out beside the scroll bar, cut below a whole line.
        shown = min(math.ceil(max((b for b in bottoms if b <= cap), default=cap)), cap)
        rows = (pool - fixed - frame - shown) // row
        top += pool - fixed - rows * row - frame - shown
        bottom = shown + frame
    doc.deleteLater()
    # A scroll area's own minimum (its scroll bar's, 70 px zoomed in) must not undo the
    # share: neither the explanation's nor the table's (the splitter kept the table's
    # pane that tall, two rows at 150 %, and took the pixels from the text).
    details.setMinimumHeight(min(bottom, details.minimumSizeHint().height()))
    table.setMinimumHeight(min(table_height(table, rows), table.minimumSizeHint().height()))
    split.setSizes([top, fixed + rows * row, bottom])
