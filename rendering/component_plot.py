"""A rotation track's stored components w, x, y, z against time, keys marked: a flip is a jump.

The way a graph editor (Blender's, Maya's) shows a quaternion channel: one
curve per component through the keys as stored. Where two keys lie in
opposite hemispheres every component jumps across zero, which is the sign
flip a naive runtime turns the long way on. After "Fix signs" the keys as
they were can be overlaid (dashed, faint) to compare. Flagged segments are
shaded in the sign-flip colour between edges of it (:meth:`ComponentPlot.retheme`);
the cursor line is the playback time and can be dragged
(:attr:`ComponentPlot.cursorMoved`). The w, x, y, z legend is a row of its
own above the data area, so it never covers a curve.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.rendering import themes
from quatlab.rendering.axis_title import TitleFitAxis
from quatlab.rendering.plot_items import ink_axes
from quatlab.rendering.style import AXIS_COLORS, AXIS_TITLE_PT, BACKGROUND, FOREGROUND

__all__ = ["ComponentPlot", "TimePlot", "TimeAxis", "COMPONENT_COLORS", "LegendRow"]

#: w in dark grey, x, y, z in the axis colours.
COMPONENT_COLORS = ("#505050", *AXIS_COLORS)
_NAMES = ("w", "x", "y", "z")
#: Above this many keys the key symbols would merge into a band: lines only.
_MAX_SYMBOLS = 400
#: The gap (px) after each legend entry's label.
_LEGEND_GAP = 12
_CACHE = QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache


class LegendRow(pg.LegendItem):
    """A legend laid out by its plot's grid, not pinned at the top left of its parent.

    pyqtgraph's legend sets its own geometry at (0, 0) whenever an entry
    changes; in a layout cell it asks the layout to place it again instead.
    """

    def updateSize(self) -> None:  # noqa: N802 - pyqtgraph API
        self.updateGeometry()

    @classmethod
    def into(cls, item: pg.PlotItem, columns: int) -> LegendRow:
        """A legend in ``item``'s (unused) title row, above the data area, ``columns`` wide.

        Anchored inside the view box, as ``addLegend`` puts it, it sat on the
        curves. Named curves plotted afterwards enter it.
        """
        legend = cls(offset=None, colCount=columns, labelTextColor=FOREGROUND,
                     verSpacing=0, horSpacing=2)
        legend.layout.setContentsMargins(0, 0, 0, 0)
        legend.setSizePolicy(QtWidgets.QSizePolicy.Policy.Maximum,
                             QtWidgets.QSizePolicy.Policy.Fixed)
        item.layout.removeItem(item.titleLabel)
        item.titleLabel.setVisible(False)
        item.layout.addItem(legend, 0, 0, 1, 3)  # over the axis and the data columns
        item.layout.setAlignment(legend, QtCore.Qt.AlignmentFlag.AlignCenter)
        item.legend = legend  # named curves enter it (PlotItem.addItem)
        for k in range(columns - 1):  # a gap after each label: "━ w   ━ x   ━ y   ━ z"
            legend.layout.setColumnSpacing(2 * k + 1, _LEGEND_GAP)
        return legend


class TimeAxis(pg.AxisItem):
    """A time axis whose title can be left out while a plot right below says "time (s)"."""

    _title_off = False

    def hide_title(self, hidden: bool) -> None:
        """Leave the title out (``hidden``) or show it; a restyle does not bring it back."""
        self._title_off = hidden
        self.showLabel(bool(self.labelText))

    def showLabel(self, show: bool = True) -> None:  # noqa: N802 (pyqtgraph's name)
        super().showLabel(show and not self._title_off)


class TimePlot(pg.PlotWidget):
    """A plot of one track against time, as the rig panel shows them (a base class).

    Grid, "time (s)" (never "(x0.001)"), the y title, a legend row of
    ``entries`` above the data area (two rows when narrow), cached axes, and
    the playback cursor, which the user can drag (:attr:`cursorMoved`).
    """

    cursorMoved = QtCore.pyqtSignal(float)

    def __init__(self, name: str, y_label: str, entries: int, parent=None, *,
                 short_title: str | None = None) -> None:
        super().__init__(parent, background=BACKGROUND,
                         axisItems={"left": TitleFitAxis("left"), "bottom": TimeAxis("bottom")})
        self.setObjectName(name)
        item = self.getPlotItem()
        item.hideButtons()
        item.setMenuEnabled(False)
        item.setMouseEnabled(x=True, y=False)
        item.showGrid(x=True, y=True, alpha=0.18)
        # The titles as large as the other plots' (they were Qt's 9 pt at every
        # zoom, 7 px letters at 150 %); a title too long for the plot's height
        # takes a shorter form (``short_title``), not a smaller font.
        style = {"color": FOREGROUND, "font-size": AXIS_TITLE_PT}
        item.setLabel("bottom", _("time (s)"), **style)
        item.getAxis("bottom").enableAutoSIPrefix(False)  # never "time (s) (x0.001)"
        item.getAxis("left").enableAutoSIPrefix(False)
        item.setLabel("left", y_label, **style)
        # On one line: a second line took 37 px from the stored keys' data area
        # beside the 3D view (zh_CN at 1024x768 and 150 %).
        item.getAxis("left").set_short_title(short_title, before_two_lines=True)
        self._entries = entries
        self.legend = LegendRow.into(item, entries)
        ink_axes(item)
        for side in ("left", "bottom"):
            item.getAxis(side).setCacheMode(_CACHE)
        self.cursor = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen("#333333", width=1.5))
        self.cursor.setZValue(20)
        self.cursor.sigPositionChanged.connect(self._cursor_dragged)
        item.addItem(self.cursor, ignoreBounds=True)
        self._moving = False

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        if "legend" not in self.__dict__:  # pyqtgraph resizes before __init__ is done
            return
        # The entries in one row while they fit, else two rows. Measured, not
        # guessed from the font: a rule of 16 text lines put "w x / y z" on two
        # rows in a 268-px plot that holds them in one (1024x768 at 150 %),
        # which took a fifth of its data area's height.
        fits = self._one_row_width() <= self.width() - self.fontMetrics().height()
        self.legend.setColumnCount(self._entries if fits else (self._entries + 1) // 2)

    def _one_row_width(self) -> float:
        """The legend's width with all its entries in one row (samples, labels, gaps)."""
        legend = self.legend
        hint = QtCore.Qt.SizeHint.PreferredSize
        parts = [w for pair in legend.items for w in pair]
        gaps = (legend.layout.horizontalSpacing() * max(len(parts) - 1, 0)
                + _LEGEND_GAP * max(len(legend.items) - 1, 0))
        return sum(w.effectiveSizeHint(hint).width() for w in parts) + gaps

    def hide_time_title(self, hidden: bool) -> None:
        """Leave out "time (s)" where the plots right below say it (beside the 3D view)."""
        self.getPlotItem().getAxis("bottom").hide_title(hidden)

    def set_cursor(self, t: float) -> None:
        self._moving = True
        try:
            self.cursor.setValue(float(t))
        finally:
            self._moving = False

    def _cursor_dragged(self, line) -> None:
        if not self._moving:
            self.cursorMoved.emit(float(line.value()))


class ComponentPlot(TimePlot):
    """Stored components of one track; see the module docstring."""

    def __init__(self, parent=None) -> None:
        super().__init__("rig_components", _("stored key components"), len(_NAMES), parent,
                         short_title=_("key values"))
        item = self.getPlotItem()
        item.setYRange(-1.05, 1.05, padding=0)
        self._before = [item.plot(pen=pg.mkPen(c, width=1.2, style=QtCore.Qt.PenStyle.DashLine))
                        for c in COMPONENT_COLORS]
        for curve in self._before:
            curve.setOpacity(0.55)
        self.curves = [item.plot(pen=pg.mkPen(c, width=2), name=n, symbolSize=5,
                                 symbolBrush=c, symbolPen=None)
                       for c, n in zip(COMPONENT_COLORS, _NAMES, strict=True)]
        self._bands = pg.BarGraphItem(x0=[0], x1=[1], y0=[-1.05], height=[2.1])
        self.retheme()
        # The curves change with the track, not with the time: cached, a
        # moving cursor re-blits them instead of redrawing every symbol. A
        # PlotDataItem paints nothing itself: its line and its symbols are
        # child items, and those are what a cache must be set on.
        for curve in (*self.curves, *self._before):
            curve.curve.setCacheMode(_CACHE)
            curve.scatter.setCacheMode(_CACHE)
        self._bands.setZValue(-10)
        self._bands.setVisible(False)
        item.addItem(self._bands)
        self.has_before = False

    def retheme(self) -> None:
        """Colour the flagged spans in the current theme (the theme walk calls it).

        The sign-flip family's colour (Theme.findings) at the theme's
        ``band_alpha``, edged in that colour at full strength: the band was a
        quarter of the light vermillion in every theme, a dark brown at 1.4:1
        on high contrast's black, and had no edge.
        """
        theme = themes.current()
        colour = theme.findings["sign_flip"]
        fill = QtGui.QColor(colour)
        fill.setAlphaF(theme.band_alpha)
        pen = pg.mkPen(colour, width=2.0 * themes.scale() * theme.line_scale)
        self._bands.setOpts(brush=pg.mkBrush(fill), pen=pen)

    def set_track(self, times, keys, before=None, flagged=None, x_range=None) -> None:
        """Keys ``(K, 4)`` at ``times``; ``before``: keys before a fix; ``flagged``: (lo, hi)."""
        times = np.asarray(times, dtype=float) if times is not None else np.zeros(0)
        keys = (np.asarray(keys, dtype=float).reshape(-1, 4) if keys is not None
                else np.zeros((0, 4)))
        symbols = "o" if len(times) <= _MAX_SYMBOLS else None
        for k, curve in enumerate(self.curves):
            curve.setData(times, keys[:, k], symbol=symbols, connect="finite")
        self.has_before = before is not None
        for k, curve in enumerate(self._before):
            if before is None:
                curve.setData([], [])
            else:
                curve.setData(times, np.asarray(before, dtype=float)[:, k], connect="finite")
        if flagged is not None and len(flagged[0]):
            lo, hi = (np.asarray(v, dtype=float) for v in flagged)
            n = len(lo)
            self._bands.setOpts(x0=lo, x1=hi, y0=np.full(n, -1.05), height=np.full(n, 2.1))
            self._bands.setVisible(True)
        else:
            self._bands.setVisible(False)
        if x_range is not None and x_range[1] > x_range[0]:
            self.getPlotItem().setXRange(*x_range, padding=0.02)
        self.getPlotItem().setYRange(-1.05, 1.05, padding=0)
