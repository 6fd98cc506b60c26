"""Small pieces the plots are drawn with: method pens, the scrubbing ViewBox, legend samples."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtCore, QtGui, QtWidgets
from pyqtgraph.graphicsItems.LegendItem import ItemSample

from quatlab.rendering import themes
from quatlab.rendering.style import FOREGROUND
from quatlab.rendering.tick_fit import FittedTicks

__all__ = ["ink_axes", "method_pen", "nan_runs", "ScrubViewBox", "LineSample", "swatch_icon",
           "CurveItem", "MarkerLine", "EndLabelAxis", "SCRIBBLE"]

# Curves often coincide (naive = shortest when dot >= 0; NLERP ~ SLERP for
# small angles) and one must not hide another. Dashed curves are drawn above
# solid ones, and every second dashed curve is shifted by one dash, so two
# coinciding dashed curves alternate colours. Every second solid curve is
# wide and drawn below the first, so two coinciding solid curves show as a
# core in the first colour with an outline in the second (for the four
# methods: shortest SLERP, the reference answer, is the wide one).
_SOLID_WIDTHS = (2.4, 5.2)
_DASHED_WIDTH = 2.4
#: Dash and gap length in pen widths.
_DASH = 3.0


def ink_axes(item: pg.PlotItem, sides=("left", "bottom"), *, lines: bool = True) -> None:
    """Draw ``item``'s tick labels, and its axis lines and ticks if ``lines``, in the text
    colour (the theme walk follows): pyqtgraph's own grey, #969696, is 3:1 on the
    light theme's white."""
    for side in sides:
        axis = item.getAxis(side)
        if lines:
            axis.setPen(FOREGROUND)
        axis.setTextPen(FOREGROUND)


def method_pen(colour: str, dashed: bool, phase: int = 0, width: float | None = None) -> QtGui.QPen:
    """The line pen of a series, ``phase`` = its rank among the dashed or solid ones.

    ``colour`` is a light-palette colour, drawn in the current theme.
    """
    if width is None:
        width = _DASHED_WIDTH if dashed else _SOLID_WIDTHS[phase % 2]
    pen = pg.mkPen(themes.themed(colour), width=width)
    if dashed:
        pen.setDashPattern([_DASH, _DASH])
        pen.setDashOffset(_DASH * (phase % 2))
    return pen


#: A drawn curve longer than this many times the plot's width plus height
#: (in pixels) is a scribble: it swings across the plot within a few pixel
#: columns, again and again (a sign-unaware SQUAD speed spiking at every key).
SCRIBBLE = 8.0


def nan_runs(y: np.ndarray) -> list[tuple[int, int]]:
    """Inclusive index ranges of consecutive non-finite values of ``y``."""
    bad = ~np.isfinite(y)
    if not bad.any():
        return []
    edges = np.flatnonzero(np.diff(np.concatenate(([0], bad.astype(np.int8), [0]))))
    return [(int(a), int(b) - 1) for a, b in zip(edges[::2], edges[1::2], strict=True)]


class ScrubViewBox(pg.ViewBox):
    """A ViewBox where the left button scrubs and the others look closer.

    * left click or drag: reports the x under the mouse (``on_x``), as
      before: scrubbing t is the lesson's main gesture, so it keeps the
      button a student tries first;
    * wheel: zooms both axes about the pointer, as a map or photo viewer does;
    * right or middle drag: pans (the two buttons a left-handed gesture
      cannot collide with);
    * double click: back to the whole range (``on_reset``), as the plots'
      "whole range" button does.

    Zoom and pan emit ``sigRangeChangedManually``; pyqtgraph's context menu
    stays off (its "View All" would ignore the lesson's range policy).
    """

    def __init__(self, on_x, on_reset=None, **kwargs):
        super().__init__(enableMouse=True, enableMenu=False, **kwargs)
        self._on_x = on_x
        self._on_reset = on_reset
        self._last_click: tuple[float, QtCore.QPointF] | None = None

    def _report(self, ev) -> None:
        ev.accept()
        self._on_x(self.mapSceneToView(ev.scenePos()).x())

    def _second_click(self, ev) -> bool:
        """Whether ``ev`` completes a double click. pyqtgraph delivers the second
        press of a double click as a plain click under Qt 6, so time and place decide."""
        last, self._last_click = self._last_click, (ev.time(), ev.screenPos())
        if ev.double():
            return True
        if last is None:
            return False
        interval = QtWidgets.QApplication.doubleClickInterval() / 1000.0
        near = (ev.screenPos() - last[1]).manhattanLength() <= 6
        return ev.time() - last[0] <= interval and near

    def mouseClickEvent(self, ev):
        if ev.button() != QtCore.Qt.MouseButton.LeftButton:
            return
        if self._on_reset is not None and self._second_click(ev):
            ev.accept()
            self._last_click = None
            self._on_reset()
        else:
            self._report(ev)

    def mouseDragEvent(self, ev, axis=None):
        if ev.button() == QtCore.Qt.MouseButton.LeftButton:
            self._report(ev)
        elif ev.button() in (QtCore.Qt.MouseButton.RightButton,
                             QtCore.Qt.MouseButton.MiddleButton):
            ev.accept()
            last = self.mapSceneToView(ev.lastScenePos())
            now = self.mapSceneToView(ev.scenePos())
            self._resetTarget()
            self.translateBy(x=last.x() - now.x(), y=last.y() - now.y())
            self.sigRangeChangedManually.emit([True, True])


class CurveItem(pg.PlotDataItem):
    """A plot curve stroked segment by segment when what it draws is a scribble.

    Qt strokes a wide pen along a path as one outline and fills that outline
    at once: a path that crosses the plot hundreds of times (even after the
    min/max downsampling, one swing per pixel column) has hundreds of edges
    on every scanline, and an antialiased 2.4 px pen took 0.3-1.9 s to paint.
    Stroked as separate segments (pyqtgraph's segmented line mode), the same
    pixels take a few ms. A scribble's dash pattern then restarts at every
    segment; along the long swings that make it a scribble it still shows.
    A curve of ordinary length keeps the continuous path (its dashes and
    joins unchanged). Decided again whenever the drawn data or the view change.
    """

    def updateItems(self, styleUpdate: bool = True) -> None:  # noqa: N803 - pyqtgraph API
        super().updateItems(styleUpdate)
        mode = "on" if self.scribbles() else "off"
        if self.curve.opts["segmentedLineMode"] != mode:
            self.curve.setSegmentedLineMode(mode)

    def scribbles(self) -> bool:
        """Whether the drawn curve is longer than :data:`SCRIBBLE` times the plot's size."""
        x, y = self.curve.getData()
        view = self.getViewBox()
        if view is None or x is None or len(x) < 2:
            return False
        px, py = view.viewPixelSize()
        if not (px > 0 and py > 0):
            return False
        with np.errstate(invalid="ignore"):
            length = np.nansum(np.hypot(np.diff(x) / px, np.diff(y) / py))
        return bool(length > SCRIBBLE * (view.width() + view.height()))


class MarkerLine(pg.InfiniteLine):
    """A key marker (a vertical grey line) drawn over the curves, dashed, on a halo.

    Beneath the curves a marker where a curve jumps (the blending's reference
    changing at the kept-reference blend's jump, the Euler readout flipping at
    the lock) hid behind the jump's own vertical stroke; solid over them it
    would hide the jump instead. Dashed over them, each dash on a wider dash of
    the plot's background: both show, dash by dash, and the halo sets the grey
    off from whatever curve it crosses (every curve keeps 3:1 on the
    background). The halo takes the current theme's background when it is
    painted, and its width and dashes follow the pen the theme walk scales.
    """

    #: The halo's width, in the pen's.
    HALO = 2.5
    #: Dash and gap lengths, in pen widths.
    DASH = (4.0, 3.0)

    def __init__(self, colour: str, width: float = 1.5) -> None:
        pen = pg.mkPen(colour, width=width)
        pen.setCapStyle(QtCore.Qt.PenCapStyle.FlatCap)  # dashes end where the halo's do
        pen.setDashPattern(list(self.DASH))
        super().__init__(angle=90, movable=False, pen=pen)

    def paint(self, p, *args):
        left, right = self._endPoints
        pen = QtGui.QPen(self.currentPen)
        pen.setCapStyle(QtCore.Qt.PenCapStyle.FlatCap)
        halo = QtGui.QPen(pen)
        halo.setColor(QtGui.QColor(themes.current().background))
        halo.setWidthF((pen.widthF() or 1.0) * self.HALO)
        # Dash lengths count in the pen's width: the halo's, that much wider, are shorter.
        halo.setDashPattern([v / self.HALO for v in pen.dashPattern()])
        for stroke in (halo, pen):
            p.setPen(stroke)
            p.drawLine(QtCore.QPointF(left, 0.0), QtCore.QPointF(right, 0.0))


class LineSample(ItemSample):
    """Legend sample wide enough to show the NLERP dash pattern."""

    WIDTH = 40

    def __init__(self, item):
        super().__init__(item)
        self.setFixedWidth(self.WIDTH)

    def boundingRect(self):
        return QtCore.QRectF(0, 0, self.WIDTH, 20)

    def paint(self, p, *args):
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        p.setPen(self.item.opts["pen"])
        p.drawLine(QtCore.QPointF(2, 11), QtCore.QPointF(self.WIDTH - 2, 11))


def swatch_icon(colour: str, dashed: bool) -> QtGui.QIcon:
    """A small line sample in ``colour`` for a checkbox."""
    pix = QtGui.QPixmap(36, 14)
    pix.fill(QtCore.Qt.GlobalColor.transparent)
    painter = QtGui.QPainter(pix)
    painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
    painter.setPen(method_pen(colour, dashed, width=3))
    painter.drawLine(QtCore.QPointF(1, 7), QtCore.QPointF(35, 7))
    painter.end()
    return QtGui.QIcon(pix)


class EndLabelAxis(FittedTicks, pg.AxisItem):
    """An x axis whose end labels ("0", "1", "2.0", "200") may reach past its ends.

    pyqtgraph hides a tick label that sticks out of the axis's bounding rect,
    and with a grid that rect takes no tolerance: the end labels sit half
    outside, so narrow plots (a 1024-px screen) showed only 0.2-0.8 and lost
    where t ends. The rect reaches :attr:`END_PX` past each end.
    """

    END_PX = 16

    def boundingRect(self):  # noqa: N802 (Qt's name)
        rect = super().boundingRect()
        if self.orientation in ("top", "bottom"):
            return rect.adjusted(-self.END_PX, 0, self.END_PX, 0)
        return rect
