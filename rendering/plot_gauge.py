"""A 0-360° gauge beside a zoomed angle plot: how much of a whole turn the visible range is.

The angle plot of a lesson fits its y range to the data (a 1° turn fills
the plot instead of lying flat on a 0-360° axis, :mod:`.plot_y_axis`); the
gauge keeps the whole-turn scale in view: a thin bar in the plot's top left
corner (a path angle starts at 0 at the left and rises to the right, so the
corner stays clear of it) running from 0° to 360°, a tick at the half turn,
and the visible range filled in, so a class sees at once that the full plot
height is a small part of a turn.
"""

from __future__ import annotations

from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.rendering import themes

__all__ = ["ScaleGauge"]

#: Bar width and the gap to the plot's right edge, px at 100 %.
_BAR_PX = 7.0
_INSET_PX = 6.0
#: The whole scale the gauge stands for, degrees.
FULL_TURN = 360.0


class ScaleGauge(QtWidgets.QGraphicsObject):
    """The gauge, a child of a plot's ViewBox (drawn in its pixels, not its data)."""

    def __init__(self, view_box) -> None:
        super().__init__(view_box)
        self._box = view_box
        self._range = (0.0, FULL_TURN)
        self.setZValue(40)  # over the curves and the cursor dots
        self.setToolTip(_("The visible range within a whole turn (0° to 360°)"))
        view_box.sigResized.connect(self._follow)
        self._follow()

    def set_range(self, lo: float, hi: float) -> None:
        """The y range the plot shows, degrees."""
        self._range = (float(lo), float(hi))
        self.update()

    def _scale(self) -> float:
        return themes.scale()

    def _follow(self, *_args) -> None:
        self.prepareGeometryChange()
        self.update()

    def _font(self) -> QtGui.QFont:
        font = QtGui.QFont()
        font.setPointSizeF(8.0 * self._scale())
        return font

    def _bar(self) -> QtCore.QRectF:
        rect = self._box.rect()
        s = self._scale()
        width, inset = _BAR_PX * s, _INSET_PX * s
        line = QtGui.QFontMetricsF(self._font()).height()
        top = rect.top() + inset + line / 2
        return QtCore.QRectF(rect.left() + inset, top, width,
                             max(0.4 * rect.height() - line, 2 * line))

    def boundingRect(self) -> QtCore.QRectF:  # noqa: N802 (Qt's name)
        bar = self._bar()
        box = bar.adjusted(-2, 0, 0, 0)
        for rect in self.label_rects():
            box = box.united(rect)
        return box.adjusted(-1, -1, 1, 1)

    def label_rects(self) -> list[QtCore.QRectF]:
        """Where the gauge's texts are drawn, in the ViewBox's pixels (tests)."""
        bar = self._bar()
        metrics = QtGui.QFontMetricsF(self._font())
        out = []
        for text, y in (("360°", bar.top()), ("0°", bar.bottom())):
            w = metrics.horizontalAdvance(text)
            out.append(QtCore.QRectF(bar.right() + 3, y - metrics.height() / 2, w,
                                     metrics.height()))
        return out

    def paint(self, painter, option, widget=None) -> None:
        theme = themes.current()
        bar = self._bar()
        lo, hi = self._range

        def y_of(deg: float) -> float:
            f = min(max(deg / FULL_TURN, 0.0), 1.0)
            return bar.bottom() - f * bar.height()

        faint = QtGui.QColor(theme.faint)
        ink = QtGui.QColor(theme.foreground)
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        painter.setPen(QtGui.QPen(faint, 1.0))
        back = QtGui.QColor(theme.background)
        painter.setBrush(back)
        painter.drawRect(bar)
        # The visible range, at least a hairline: a 1° range is 1/360 of the bar.
        top, bottom = y_of(hi), y_of(lo)
        band = QtCore.QRectF(bar.left(), top, bar.width(), max(bottom - top, 1.5))
        painter.setPen(QtCore.Qt.PenStyle.NoPen)
        painter.setBrush(ink)
        painter.drawRect(band)
        painter.setPen(QtGui.QPen(faint, 1.0))
        half = y_of(FULL_TURN / 2)
        painter.drawLine(QtCore.QPointF(bar.left() - 2, half), QtCore.QPointF(bar.left(), half))
        painter.setFont(self._font())
        painter.setPen(ink)
        for rect, text in zip(self.label_rects(), ("360°", "0°"), strict=True):
            painter.drawText(rect, QtCore.Qt.AlignmentFlag.AlignLeft
                             | QtCore.Qt.AlignmentFlag.AlignVCenter, text)
