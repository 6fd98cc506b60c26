"""A legend whose entries wrap between entries, never inside one.

For legends of several entries (a swatch and its words): each entry is one
label that never breaks, laid out in a :class:`~quatlab.rendering.flow_layout.FlowRow`,
so a narrow panel puts the next entry on a new row instead of splitting one
across two (a word-wrapping label breaks anywhere between words, or between
any two Chinese characters).
"""

from __future__ import annotations

from PyQt6 import QtCore, QtWidgets

from quatlab.rendering.flow_layout import FlowRow

__all__ = ["FlowLegend", "RowLegend", "legend_entry"]


class _Entry(QtWidgets.QLabel):
    """A legend entry: FlowRow squeezes items towards their minimum width before it
    wraps, and an entry's minimum is its whole width (at any zoom's font)."""

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        return self.sizeHint()


def legend_entry(html: str) -> QtWidgets.QLabel:
    """One entry (rich text) as a label that never breaks, for a :class:`FlowRow` of one's own."""
    label = _Entry(html)
    label.setTextFormat(QtCore.Qt.TextFormat.RichText)
    label.setWordWrap(False)  # the unit that never breaks
    return label


class FlowLegend(QtWidgets.QWidget):
    """A legend of rich-text entries, one unbreakable label each, in a :class:`FlowRow`."""

    def __init__(self, entries: list[str], parent: QtWidgets.QWidget | None = None,
                 spacing: int = 10) -> None:
        super().__init__(parent)
        layout = FlowRow(self, spacing=spacing)
        layout.setContentsMargins(0, 0, 0, 0)
        self.entries: list[QtWidgets.QLabel] = []
        for html in entries:
            label = legend_entry(html)
            layout.addWidget(label)
            self.entries.append(label)
        policy = QtWidgets.QSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred,
                                       QtWidgets.QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def text(self) -> str:
        """The entries' markup, in order (what a one-label legend's text() would say)."""
        return " ".join(label.text() for label in self.entries)


class RowLegend:
    """A legend whose entries are items of a :class:`FlowRow` it shares (a toolbar).

    Each entry wraps to the row's next line on its own, where one label for
    the whole legend could only widen the row.
    """

    def __init__(self, row: FlowRow, before: QtWidgets.QWidget) -> None:
        self._row = row
        self._before = before
        self.entries: list[QtWidgets.QLabel] = []

    def set_entries(self, entries: list[str]) -> None:
        """Replace the entries (rich text each), placed before the widget ``before``."""
        for label in self.entries:
            self._row.removeWidget(label)
            # Hidden now: out of the row it stays drawn where it last was until the
            # event loop deletes it, which a screenshot taken first showed (the rig
            # legend's words piled up beside the Keyframes tab's 3D view).
            label.hide()
            label.deleteLater()
        at = self._row.indexOf(self._before)
        self.entries = []
        for k, html in enumerate(entries):
            label = legend_entry(html)
            label.setObjectName("legend_entry")
            self._row.insertWidget(at + k, label)
            self.entries.append(label)
        self._row.keep_together(self, self.entries)

    def text(self) -> str:
        """The entries' markup, in order."""
        return " ".join(label.text() for label in self.entries)
