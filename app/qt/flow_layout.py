"""A layout that lays its widgets out in rows like words, wrapping only between widgets.

For legends of several entries (a swatch and its words): each entry is one
widget that never breaks, and a narrow panel puts the next entry on a new
row instead of splitting one across two (a word-wrapping label breaks
anywhere between words, or between any two Chinese characters).
"""

from __future__ import annotations

from PyQt6 import QtCore, QtWidgets

__all__ = ["FlowLayout", "FlowLegend"]


class FlowLayout(QtWidgets.QLayout):
    """Widgets left to right, ``spacing`` px apart, a new row when the next would not fit."""

    def __init__(self, parent: QtWidgets.QWidget | None = None, spacing: int = 8,
                 row_spacing: int = 1) -> None:
        super().__init__(parent)
        self._items: list[QtWidgets.QLayoutItem] = []
        self._spacing = spacing
        self._row_spacing = row_spacing
        self.setContentsMargins(0, 0, 0, 0)

    # QLayout's item bookkeeping
    def addItem(self, item: QtWidgets.QLayoutItem) -> None:  # noqa: N802 - Qt API
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QtWidgets.QLayoutItem | None:  # noqa: N802 - Qt API
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QtWidgets.QLayoutItem | None:  # noqa: N802 - Qt API
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    # sizes
    def expandingDirections(self) -> QtCore.Qt.Orientation:  # noqa: N802 - Qt API
        return QtCore.Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt API
        return self._arrange(QtCore.QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QtCore.QRect) -> None:  # noqa: N802 - Qt API
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        """Everything on one row."""
        shown = self._shown()
        m = self.contentsMargins()
        width = sum(i.sizeHint().width() for i in shown) + self._spacing * max(len(shown) - 1, 0)
        height = max((i.sizeHint().height() for i in shown), default=0)
        return QtCore.QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        """As wide as the widest entry, as high as one row (heightForWidth says the rest)."""
        size = QtCore.QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QtCore.QSize(m.left() + m.right(), m.top() + m.bottom())

    def _shown(self) -> list[QtWidgets.QLayoutItem]:
        return [i for i in self._items if not i.isEmpty()]

    def _arrange(self, rect: QtCore.QRect, *, move: bool) -> int:
        """Place (or, ``move`` False, only measure) the rows in ``rect``; returns their height."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, row_height = area.x(), area.y(), 0
        for item in self._shown():
            hint = item.sizeHint()
            if x > area.x() and x + hint.width() > area.right() + 1:
                x, y = area.x(), y + row_height + self._row_spacing
                row_height = 0
            if move:
                item.setGeometry(QtCore.QRect(QtCore.QPoint(x, y), hint))
            x += hint.width() + self._spacing
            row_height = max(row_height, hint.height())
        return y + row_height - rect.y() + m.bottom()


class FlowLegend(QtWidgets.QWidget):
    """A legend of rich-text entries, one unbreakable label each, in a :class:`FlowLayout`."""

    def __init__(self, entries: list[str], parent: QtWidgets.QWidget | None = None,
                 spacing: int = 10) -> None:
        super().__init__(parent)
        layout = FlowLayout(self, spacing=spacing)
        self.entries: list[QtWidgets.QLabel] = []
        for html in entries:
            label = QtWidgets.QLabel(html)
            label.setTextFormat(QtCore.Qt.TextFormat.RichText)
            label.setWordWrap(False)  # the unit that never breaks
            layout.addWidget(label)
            self.entries.append(label)
        policy = QtWidgets.QSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred,
                                       QtWidgets.QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def text(self) -> str:
        """The entries' markup, in order (what a one-label legend's text() would say)."""
        return " ".join(label.text() for label in self.entries)
