"""A row of controls that wraps onto further lines when the window is narrow.

Toolbars and option rows are laid out with :class:`FlowRow`: at full width
it looks like a ``QHBoxLayout`` (stretches push what follows them to the
right), and on a narrow projector the controls wrap onto a second line
instead of widening the whole window. It offers the ``QHBoxLayout`` calls the
views use (``addWidget``, ``insertWidget``, ``addLayout``, ``addSpacing``,
``addStretch``).
"""

from __future__ import annotations

from PyQt6 import QtCore, QtWidgets

__all__ = ["FlowRow"]


class _Stretch(QtWidgets.QSpacerItem):
    """An ``addStretch``: takes the room left on its line."""

    def __init__(self) -> None:
        super().__init__(0, 0, QtWidgets.QSizePolicy.Policy.Expanding,
                         QtWidgets.QSizePolicy.Policy.Minimum)


class FlowRow(QtWidgets.QLayout):
    """Items left to right, wrapping onto a new line when the next does not fit."""

    def __init__(self, parent: QtWidgets.QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QtWidgets.QLayoutItem] = []
        self._gap = spacing
        self._vgap = 2
        # Runs of widgets that start a new line rather than split, where a line holds them.
        self._groups: dict[object, list[QtWidgets.QWidget]] = {}

    # ------------------------------------------------------------------ QHBoxLayout calls
    def addItem(self, item: QtWidgets.QLayoutItem) -> None:  # noqa: N802 - Qt API
        self._items.append(item)
        self.invalidate()

    def insertWidget(self, index: int, widget: QtWidgets.QWidget) -> None:  # noqa: N802 - Qt API
        self.addChildWidget(widget)
        self._items.insert(index, QtWidgets.QWidgetItem(widget))
        self.invalidate()

    def addLayout(self, layout: QtWidgets.QLayout, stretch: int = 0) -> None:  # noqa: N802
        self.addChildLayout(layout)
        self.addItem(layout)

    def addSpacing(self, size: int) -> None:  # noqa: N802 - Qt API
        self.addItem(QtWidgets.QSpacerItem(size, 0, QtWidgets.QSizePolicy.Policy.Fixed,
                                           QtWidgets.QSizePolicy.Policy.Minimum))

    def addStretch(self, stretch: int = 0) -> None:  # noqa: N802 - Qt API
        self.addItem(_Stretch())

    def keep_together(self, key: object, widgets: list[QtWidgets.QWidget]) -> None:
        """Lay the run ``widgets`` (adjacent items, in order) on one line when a line
        holds them: a legend read across two lines (its first entry on the end
        of the toolbar's first) looked like two lists. ``key`` names the run,
        so setting it again replaces it."""
        self._groups[key] = list(widgets)
        self.invalidate()

    def _run_width(self, widget: QtWidgets.QWidget) -> int | None:
        """Width of the run ``widget`` starts (its shown members and gaps), or None."""
        for run in self._groups.values():
            shown = [w for w in run if not w.isHidden()]
            if shown and shown[0] is widget:
                return (sum(w.minimumSizeHint().expandedTo(w.minimumSize()).width()
                            for w in shown) + self._gap * (len(shown) - 1))
        return None

    def setSpacing(self, spacing: int) -> None:  # noqa: N802 - Qt API
        self._gap = spacing
        self.invalidate()

    def spacing(self) -> int:
        return self._gap

    # ------------------------------------------------------------------ QLayout
    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int):  # noqa: N802 - Qt API
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int):  # noqa: N802 - Qt API
        if 0 <= index < len(self._items):
            item = self._items.pop(index)
            self.invalidate()
            return item
        return None

    def expandingDirections(self) -> QtCore.Qt.Orientation:  # noqa: N802 - Qt API
        return QtCore.Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt API
        return self._lay_out(QtCore.QRect(0, 0, width, 0), apply=False)

    def minimumSize(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        # As narrow as the widest single item: everything else wraps.
        size = QtCore.QSize()
        for item in self._visible():
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QtCore.QSize(m.left() + m.right(), m.top() + m.bottom())

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        # One line, as a QHBoxLayout would ask for.
        items = self._visible()
        w = sum(i.sizeHint().width() for i in items) + self._gap * max(len(items) - 1, 0)
        h = max((i.sizeHint().height() for i in items), default=0)
        m = self.contentsMargins()
        return QtCore.QSize(w + m.left() + m.right(), h + m.top() + m.bottom())

    def setGeometry(self, rect: QtCore.QRect) -> None:  # noqa: N802 - Qt API
        super().setGeometry(rect)
        self._lay_out(rect, apply=True)

    # ------------------------------------------------------------------ layout
    def _visible(self) -> list[QtWidgets.QLayoutItem]:
        return [i for i in self._items if not i.isEmpty() or isinstance(i, _Stretch)]

    def _lines(self, width: int) -> list[list[QtWidgets.QLayoutItem]]:
        lines: list[list[QtWidgets.QLayoutItem]] = [[]]
        x = 0
        for item in self._visible():
            # As a QHBoxLayout would, squeeze items towards their minimum
            # before giving up on the line.
            w = item.minimumSize().width()
            run = self._run_width(item.widget()) if item.widget() is not None else None
            # A run's first item breaks the line for all of it.
            need = max(w, run) if run is not None and run <= width else w
            if lines[-1] and x + need > width:
                lines.append([])
                x = 0
            lines[-1].append(item)
            x += w + self._gap
        return lines

    def _lay_out(self, rect: QtCore.QRect, apply: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        y = area.y()
        for line in self._lines(area.width()):
            # A stretch at the end of a line has nothing to push: drop it.
            while line and isinstance(line[-1], _Stretch):
                line.pop()
            while line and isinstance(line[0], _Stretch):
                line.pop(0)
            if not line:
                continue
            widths = [min(i.sizeHint().width(), area.width()) for i in line]
            height = max(i.sizeHint().height() for i in line)
            stretches = [k for k, i in enumerate(line) if isinstance(i, _Stretch)]
            spare = area.width() - sum(widths) - self._gap * (len(line) - 1)
            if stretches and spare > 0:
                for k in stretches:
                    widths[k] += spare // len(stretches)
            elif spare < 0:
                # Over by -spare: take it from the items that can give, in
                # proportion to what each can give.
                give = [w - min(i.minimumSize().width(), w) for i, w in zip(line, widths,
                                                                             strict=True)]
                total = sum(give)
                if total > 0:
                    widths = [w - (g * -spare + total - 1) // total
                              for w, g in zip(widths, give, strict=True)]
            if apply:
                x = area.x()
                for item, w in zip(line, widths, strict=True):
                    h = min(item.sizeHint().height(), height)
                    top = y + (height - h) // 2
                    item.setGeometry(QtCore.QRect(x, top, w, h))
                    x += w + self._gap
            y += height + self._vgap
        return max(y - self._vgap - area.y(), 0) + m.top() + m.bottom()
