"""Path angle and angular speed plots, side by side (docs/curves.md).

:class:`CurvePlots` draws what :func:`quatlab.math.curves.compute_curves`
returns: the path angle (deg, [0, 360]) and the angular speed (deg per unit t)
of the four methods, a cursor line at the current t that the user can drag or
click, and a dot on each curve at t. A row of checkboxes, each with the
method's line sample, is the on-screen legend and toggles a method in both
plots; exported figures get a pyqtgraph legend instead.

Values that do not exist are NaN in the arrays. They are drawn as gaps
(``connect='finite'``), never bridged, and each gap gets a labelled marker: a
dashed vertical line for a gap of a few samples (the naive NLERP collapse of
``q -> -q`` at t = 0.5), a shaded band for a wide one (naive SLERP between
exact antipodes, undefined for 0 < t < 1). A curve whose peak goes above
the speed plot's range (the policy is :mod:`quatlab.rendering.plot_y_axis`'s)
gets a label at the top saying the peak.

The widget is not tied to the four methods: :meth:`CurvePlots.set_series`
takes any list of :class:`Series` for either plot, :meth:`CurvePlots.set_x_axis`
turns the x axis into e.g. time in seconds, :meth:`CurvePlots.set_y_axis`
retitles a y axis and picks its range (default, auto or fixed), and
:meth:`CurvePlots.set_markers` draws key markers, so other lessons (a joint's
angle and speed over a clip, |q| drift) reuse it. A lesson that changes
several of these at once does so inside ``with plots.batch():``, so the
plots refresh once (:meth:`CurvePlots.batch`).

Both plots live in one :class:`pyqtgraph.GraphicsLayoutWidget` rather than two
``PlotWidget``\\ s: one scene means pyqtgraph's exporters write the pair and
the legend as a single PNG or SVG figure.

:class:`CurvePlots` is one widget whose parts share one state (the series of
both plots, their visibility, the cursor, the annotations and the y range
policy), so the parts are mixins of it, one module each: the legend
checkboxes (:mod:`.plot_legend`), the y axes (:mod:`.plot_y_axis`), the
callouts at gaps and peaks (:mod:`.plot_callouts`), the t cursor
(:mod:`.plot_cursor`), export (:mod:`.plot_export`) and the plots side by
side or stacked (:mod:`.plot_arrange`). Other pieces live
beside it: the data (:mod:`.series`), pens and the scrubbing ViewBox
(:mod:`.plot_items`), hover and zoom (:mod:`.plot_hover`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.math.curves import METHOD_LABELS, METHODS, Curves
from quatlab.rendering import themes
from quatlab.rendering.axis_title import TitleFitAxis
from quatlab.rendering.cursor_dots import CursorDots
from quatlab.rendering.flow_layout import FlowRow
from quatlab.rendering.plot_arrange import PlotArrange
from quatlab.rendering.plot_callouts import PlotCallouts
from quatlab.rendering.plot_cursor import PlotCursor
from quatlab.rendering.plot_export import PlotExport
from quatlab.rendering.plot_hover import PlotInspector
from quatlab.rendering.plot_items import (
    CurveItem,
    EndLabelAxis,
    LineSample,
    MarkerLine,
    ScrubViewBox,
    ink_axes,
    method_pen,
)
from quatlab.rendering.plot_label import BoxedLabel
from quatlab.rendering.plot_legend import PlotLegend
from quatlab.rendering.plot_y_axis import _TICK_FONT_PT, PlotYAxis
from quatlab.rendering.series import PLOTS, Series, check_plot, curve_series
from quatlab.rendering.style import (
    AXIS_TITLE_PT,
    BACKGROUND,
    FOREGROUND,
    METHOD_COLORS,
    METHOD_DASHED,
)
from quatlab.rendering.theme_apply import restyle_plots

__all__ = ["CurvePlots", "LEAST_HEIGHT"]

#: The plots' least height (px) unless a parent asks for less (CurvePlots.set_least_height).
LEAST_HEIGHT = 212

_LABEL_FONT_PT = AXIS_TITLE_PT
_CACHE = QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache
_GRID_ALPHA = 0.18
#: Axes' z, below the ViewBox's (-100): see _setup_plot.
_AXIS_Z = -150
_CURSOR_COLOUR = "#333333"
_MARKER_COLOUR = "#8A8A8A"
_REFERENCE_COLOUR = "#7A7A7A"


def _same_samples(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two sample arrays are the same values (NaN equal to NaN)."""
    return a is b or (a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True)))


def _set_label(item: pg.PlotItem, side: str, text: str, style: dict) -> None:
    """``item.setLabel(side, text, **style)`` unless that axis shows just that already.

    Setting a title lays it out again (its HTML, the fitted form, the axis
    size): 14 ms of a blending preset change, which sets the same titles.
    """
    axis = item.getAxis(side)
    if (axis.labelText == text and axis.labelStyle == style and not axis.labelUnits
            and not axis.labelUnitPrefix and axis.label.isVisible() and axis.isVisible()):
        return
    item.setLabel(side, text, **style)


class CurvePlots(PlotLegend, PlotYAxis, PlotCallouts, PlotCursor, PlotExport, PlotArrange,
                 QtWidgets.QWidget):
    """Path angle and angular speed against t, side by side, with a t cursor.

    Rendering only: the widget shows arrays it is given and reports the
    user's gestures through signals; it never computes or changes the model.

    Signals
    -------
    cursorMoved(float)
        The user dragged the cursor line or clicked/dragged in a plot; the
        new x, clamped to the x range ([0, 1] for t). Not emitted by
        :meth:`set_cursor`.
    visibilityChanged(str, bool)
        A curve was shown or hidden (its checkbox or :meth:`set_method_visible`).

    Attributes
    ----------
    plots : dict of str to pyqtgraph.PlotItem
        ``"angle"`` and ``"speed"``.

    Examples
    --------
    >>> plots = CurvePlots()                                  # doctest: +SKIP
    >>> plots.set_curves(compute_curves(q0, q1))              # doctest: +SKIP
    >>> plots.cursorMoved.connect(model.set_t)                # doctest: +SKIP
    >>> plots.set_cursor(model.t)                             # doctest: +SKIP
    """

    cursorMoved = QtCore.pyqtSignal(float)
    visibilityChanged = QtCore.pyqtSignal(str, bool)

    def __init__(self, parent: QtWidgets.QWidget | None = None):
        super().__init__(parent)
        self._series: dict[str, dict[str, Series]] = {p: {} for p in PLOTS}
        self._items: dict[str, dict[str, pg.PlotDataItem]] = {p: {} for p in PLOTS}
        #: Per item, what it was last given: (colour, dashed, phase), log axis, x, y.
        self._drawn: dict[str, dict[str, tuple]] = {p: {} for p in PLOTS}
        self._visible: dict[str, bool] = {}
        self._checks: dict[str, QtWidgets.QCheckBox] = {}
        self._checks_key: tuple = ()
        self._annotations: dict[str, list[QtWidgets.QGraphicsItem]] = {p: [] for p in PLOTS}
        self._label_stack: dict[str, list[BoxedLabel]] = {p: [] for p in PLOTS}
        #: Items made or reset since the last restyle (see _restyle_made).
        self._unstyled: list = []
        self._key_lines: dict[str, list[pg.InfiniteLine]] = {p: [] for p in PLOTS}
        self._x_name, self._x_unit, self._x_range = "t", None, (0.0, 1.0)
        self._t = 0.0
        self._cursor_values: dict[str, tuple[float, float]] | None = None
        self._moving_cursor = False
        #: y range mode per plot: "default", "auto" or a fixed (lo, hi).
        self._y_mode: dict[str, object] = {p: "default" for p in PLOTS}
        self._y_label: dict[str, str | None] = {p: None for p in PLOTS}
        #: The shorter y titles (with their units) shown where a title does not fit.
        self._y_short: dict[str, str | None] = {p: None for p in PLOTS}
        self._top: dict[str, float] = {p: 1.0 for p in PLOTS}
        self._brushes: dict[str, QtGui.QBrush] = {}
        #: Log y axis per plot (set_y_axis(..., log=True)): curves drawn as log10 |y|.
        self._log: dict[str, bool] = {p: False for p in PLOTS}
        #: Open :meth:`batch` blocks, and whether one of them deferred a refresh.
        self._batch_depth = 0
        self._refresh_due = False

        self._view = pg.GraphicsLayoutWidget()
        # A time change dirties 6-8 thin strips (a cursor line and its dots
        # per plot); Qt painting them as one clip region of many rectangles
        # cost more than repainting the one rectangle around them all
        # (benchmarks/bench_window.py, "curve plots repaint").
        self._view.setViewportUpdateMode(
            QtWidgets.QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate)
        self._view.setBackground(BACKGROUND)
        self._view.setAntialiasing(True)
        # Below this the plots get hard to read (their y titles shorten to fit
        # any height: axis_title); low enough for the 3D view and the plots
        # to share a 720-px screen. It is the least height this widget asks
        # for (minimumSizeHint); a parent that gives less (a splitter that
        # reads a smaller minimum height set on the widget) gets plots that
        # shrink to fit (resizeEvent): they overflowed and the "step" titles
        # of the integration lesson were cut off at 1280x720, 130 %.
        self._least = LEAST_HEIGHT
        self._view.setMinimumHeight(self._least)
        # On screen the checkbox row is the legend. Exported figures have no
        # checkboxes, so they get this legend, in its own row above the plots
        # (never over a curve); hidden, the row takes no space.
        self._legend = pg.LegendItem(colCount=len(METHODS), labelTextSize=_LABEL_FONT_PT,
                                     labelTextColor=FOREGROUND, frame=False,
                                     sampleType=LineSample, horSpacing=6)
        self._view.ci.addItem(self._legend, row=0, col=0, colspan=len(PLOTS))
        self._legend.setVisible(False)

        self.plots: dict[str, pg.PlotItem] = {}
        self._cursor_lines: dict[str, pg.InfiniteLine] = {}
        self._dots: dict[str, CursorDots] = {}
        for col, plot in enumerate(PLOTS):
            item = self._view.ci.addPlot(row=1, col=col,
                                         viewBox=ScrubViewBox(self._on_user_x, self.reset_view),
                                         axisItems={"bottom": EndLabelAxis("bottom"),
                                                    "left": TitleFitAxis("left")})
            self._setup_plot(plot, item)

        # Wraps on a narrow window rather than widening it (1024-px projectors).
        self._checks_row = FlowRow()
        self._checks_row.setContentsMargins(8, 4, 8, 0)
        self._checks_row.setSpacing(14)
        self._checks_row.addWidget(QtWidgets.QLabel(_("Show:")))
        self._checks_row.addStretch(1)
        #: Hover readout, zoom and pan, and the "whole range" button (plot_hover).
        self.inspector = PlotInspector(self)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(self._checks_row)
        layout.addWidget(self._view, 1)

        empty = np.empty(0)
        for plot in PLOTS:
            self._store(plot, [
                Series(m, METHOD_LABELS[m], METHOD_COLORS[m], METHOD_DASHED[m], empty, empty)
                for m in METHODS])
        self._refresh()

    # -- construction -----------------------------------------------------------------

    def _setup_plot(self, plot: str, item: pg.PlotItem) -> None:
        self.plots[plot] = item
        item.hideButtons()
        item.setMenuEnabled(False)
        # Long runs (a 10,000-step drift, a 200-key track) are drawn as their
        # min/max envelope over a few samples per pixel, peaks kept, and only
        # where in view: antialiased paths of 10^4 points took 100s of ms to
        # paint. The curves added to the plot take this over.
        item.setDownsampling(auto=True, mode="peak")
        item.setClipToView(True)
        item.showGrid(x=True, y=True, alpha=_GRID_ALPHA)
        tick_font = QtGui.QFont()
        tick_font.setPointSize(_TICK_FONT_PT)
        ink_axes(item)
        for side in ("left", "bottom"):
            axis = item.getAxis(side)
            # Axes (and the grid they draw) only change with the range: cache
            # them, so moving the t cursor re-blits instead of re-drawing.
            axis.setCacheMode(_CACHE)
            axis.setStyle(tickFont=tick_font)
            # Beneath the view box (pyqtgraph puts axes above it): the grid
            # the axes draw then lies under the curves and the labels' boxes.
            axis.setZValue(_AXIS_Z)
        item.getAxis("left").setWidth(58)
        if plot == "angle":
            self._half_turn = pg.InfiniteLine(
                pos=180, angle=0, movable=False,
                pen=pg.mkPen(_REFERENCE_COLOUR, width=1.2,
                             style=QtCore.Qt.PenStyle.DotLine))
            item.addItem(self._half_turn, ignoreBounds=True)
        line = pg.InfiniteLine(
            pos=self._t, angle=90, movable=True,
            pen=pg.mkPen(_CURSOR_COLOUR, width=1.5),
            hoverPen=pg.mkPen(_CURSOR_COLOUR, width=3),
            label=None)
        line.setZValue(20)
        line.sigPositionChanged.connect(self._on_line_moved)
        item.addItem(line, ignoreBounds=True)
        self._cursor_lines[plot] = line
        dots = CursorDots(size=9, pen=pg.mkPen("w", width=1.5), antialias=True)
        dots.setZValue(30)
        item.addItem(dots, ignoreBounds=True)
        self._dots[plot] = dots
        self._label_axes(plot)

    def _label_axes(self, plot: str) -> None:
        item = self.plots[plot]
        style = {"color": themes.themed(FOREGROUND), "font-size": _LABEL_FONT_PT}
        x_label = f"{self._x_name} ({self._x_unit})" if self._x_unit else self._x_name
        _set_label(item, "bottom", x_label, style)
        y_label, short = self._y_label[plot], self._y_short[plot]
        if y_label is None:
            unit = self._x_unit or "t"
            y_label, short = ((_("path angle (°)"), _("angle (°)")) if plot == "angle"
                              # "°/s" as the text and readouts write it (not "deg / s"),
                              # "°/t" as the readouts' column: one form in every tab
                              else (_("angular speed (°/{unit})").format(unit=unit),
                                    _("speed (°/{unit})").format(unit=unit)))
        _set_label(item, "left", y_label, style)
        item.getAxis("left").set_short_title(short)
        self._made(item.getAxis("left"), item.getAxis("bottom"))
        item.setXRange(*self._x_range, padding=0.02)
        self._cursor_lines[plot].setBounds(self._x_range)

    # -- data ---------------------------------------------------------------------

    def set_curves(self, curves: Curves) -> None:
        """Show the four methods of ``curves`` in both plots.

        Call it when the endpoints change, not for every t: it updates the
        existing line items in place (``setData``).

        Parameters
        ----------
        curves : Curves
            From :func:`quatlab.math.curves.compute_curves`.
        """
        for plot in PLOTS:
            self._store(plot, curve_series(curves, plot))
        self._cursor_values = None
        self._refresh()

    def set_series(self, plot: str, series: Sequence[Series]) -> None:
        """Replace the curves of one plot (for lessons other than the four methods).

        Curves whose data and style are those drawn already are left alone
        (their cached paint stays valid), and a call that changes nothing
        refreshes nothing: a lesson may pass its series on every change.

        Parameters
        ----------
        plot : {"angle", "speed"}
            Left (path angle, deg) or right (angular speed) plot.
        series : sequence of Series
            Drawn in order; a series whose name matches one in the other plot
            shares its visibility toggle and legend entry.
        """
        if self._store(plot, series):
            self._cursor_values = None
            self._refresh()

    def set_x_axis(self, name: str = "t", unit: str | None = None,
                   x_range: tuple[float, float] = (0.0, 1.0)) -> None:
        """Name, unit and range of the shared x axis (e.g. ``"time", "s", (0, 2.4)``).

        The speed axis follows: deg / ``unit`` (deg / unit t without a unit).
        The cursor is clamped to ``x_range``.
        """
        lo, hi = (float(v) for v in x_range)
        if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
            raise ValueError(f"x_range must be finite with lo < hi, got {x_range!r}")
        self._x_name, self._x_unit, self._x_range = name, unit, (lo, hi)
        for plot in PLOTS:
            self._label_axes(plot)
        self._move_cursor(min(max(self._t, lo), hi))
        self._refresh()

    def add_to_legend_row(self, widget: QtWidgets.QWidget) -> None:
        """Put ``widget`` at the end of the checkbox row (right-aligned on its last line)."""
        self._checks_row.addWidget(widget)

    def set_least_height(self, pixels: int) -> None:
        """The plots' least height (:data:`LEAST_HEIGHT` by default; see ``__init__``).

        A parent that shares a short height with another plot (the rig panel
        when narrow, docs/curves.md) asks for less.
        """
        self._least = int(pixels)
        self._view.setMinimumHeight(self._least)
        self.updateGeometry()

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        """At least the checkbox row as wrapped at the present width, plus the plots'
        least height: a splitter asks only this, and a row wrapped to two lines
        on a narrow window pushed the plots' x axes out of sight."""
        hint = super().minimumSizeHint()
        rows = self._checks_row.heightForWidth(max(self.width(), 1))
        least = rows + self.layout().spacing() + self._least
        return QtCore.QSize(hint.width(), max(hint.height(), least))

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        rows = self._checks_row.heightForWidth(max(self.width(), 1))
        room = self.height() - rows - self.layout().spacing()
        least = max(0, min(self._least, room))
        if least != self._view.minimumHeight():
            self._view.setMinimumHeight(least)
        if ev.oldSize().width() != ev.size().width():
            self.updateGeometry()  # the row may wrap differently: a new least height
        self._arrange_to_size()

    def reset_view(self) -> None:
        """Undo zoom and pan: the whole x range and each plot's own y range policy."""
        for plot in PLOTS:
            self.plots[plot].setXRange(*self._x_range, padding=0.02)
            self._update_y_range(plot)
        self.inspector.view_reset()

    def set_markers(self, xs: Iterable[float]) -> None:
        """Vertical key markers (thin grey lines) at ``xs`` in both plots."""
        xs = [float(x) for x in xs]
        for plot in PLOTS:
            item, lines = self.plots[plot], self._key_lines[plot]
            # Reuse the existing lines; create or remove only the difference.
            while len(lines) < len(xs):
                line = MarkerLine(_MARKER_COLOUR)
                # Over the curves (dashed: see MarkerLine), under the cursor and its dots.
                line.setZValue(15)
                item.addItem(line, ignoreBounds=True)
                lines.append(line)
                self._made(line)
            while len(lines) > len(xs):
                item.removeItem(lines.pop())
            for line, x in zip(lines, xs, strict=True):
                line.setValue(x)
        self._restyle_made()

    def _made(self, *items) -> None:
        """Items just made or given design pens, fonts or titles: restyled at the step's end."""
        self._unstyled.extend(items)

    def _restyle_made(self) -> None:
        """New curves, pens, titles and labels come in design values: put them in the
        theme and zoom now, not at the window's next walk."""
        items, self._unstyled = dict.fromkeys(self._unstyled), []
        restyle_plots(items)

    def _store(self, plot: str, series: Sequence[Series]) -> bool:
        """Set ``plot``'s series, updating its items in place; whether anything changed."""
        check_plot(plot)
        before = [(s.name, s.label, s.gap_label) for s in self._series[plot].values()]
        changed = before != [(s.name, s.label, s.gap_label) for s in series]
        self._series[plot] = {s.name: s for s in series}
        items, drawn = self._items[plot], self._drawn[plot]
        seen = {True: 0, False: 0}  # dashed and solid series so far
        for s in series:
            item = items.get(s.name)
            if item is None:
                item = CurveItem(connect="finite", antialias=True)
                # Antialiased dashed curves are the costly part of a repaint;
                # cached, a cursor move over them costs a pixmap copy
                # (benchmarks/bench_window.py: plot update 11.6 -> 8.6 ms).
                item.curve.setCacheMode(_CACHE)
                # Off-screen points are drawn a tenth of the plot height away: a
                # dashed pen is stroked along the whole path, so a spike of
                # 10^5 deg/s far above the view cost 0.3-0.8 s per repaint.
                item.setDynamicRangeLimit(1.1, hysteresis=1.0)  # 1 = the view itself
                # Downsampled (see _setup_plot) to two samples (min, max) per
                # pixel column rather than pyqtgraph's ten: a curve that swings
                # within every pixel is stroked along a fifth of the length.
                item.opts["autoDownsampleFactor"] = 1.0
                self.plots[plot].addItem(item)
                items[s.name] = item
                self._visible.setdefault(s.name, True)
            phase = seen[s.dashed]
            seen[s.dashed] += 1
            style = (s.colour, s.dashed, phase)
            last = drawn.get(s.name)
            if last is None or last[0] != style:
                item.setPen(method_pen(s.colour, s.dashed, phase))
                self._made(item)
                # Dashed above solid; the wide solid phase below the thin one.
                item.setZValue(2.0 + 0.01 * (phase % 2) if s.dashed
                               else 1.01 - 0.01 * (phase % 2))
                changed = True
            log = self._log[plot]
            if (last is None or last[1] != log or not _same_samples(last[2], s.x)
                    or not _same_samples(last[3], s.y)):
                item.setData(s.x, self.view_y(plot, s.y))
                changed = True
            drawn[s.name] = (style, log, s.x, s.y)
        for name, item in items.items():
            if name not in self._series[plot] and drawn.pop(name, None) is not None:
                item.setData([], [])
                changed = True
        return changed

    def curve_item(self, plot: str, name: str) -> pg.PlotDataItem:
        """The line item drawing curve ``name`` in ``plot`` (for tests and tooling)."""
        check_plot(plot)
        return self._items[plot][name]

    @contextmanager
    def batch(self) -> Iterator[CurvePlots]:
        """Several changes, one refresh: legend, ranges, annotations and dots once, at the end.

        Each of :meth:`set_series`, :meth:`set_x_axis`, :meth:`set_y_axis`
        and :meth:`set_curves` otherwise refreshes both plots on its own; a
        lesson that sets its axes and both plots' series in a row refreshed
        three to five times (10-30 ms of a new track's first paint).
        Blocks nest; the outermost one refreshes, also when it ends in an
        exception, so the plots never stay half updated.

        Examples
        --------
        >>> with plots.batch():                                   # doctest: +SKIP
        ...     plots.set_series("angle", angle_series)
        ...     plots.set_series("speed", speed_series)
        """
        self._batch_depth += 1
        try:
            yield self
        finally:
            self._batch_depth -= 1
            if self._batch_depth == 0 and self._refresh_due:
                self._refresh()

    def _refresh(self) -> None:
        if self._batch_depth:
            self._refresh_due = True
            return
        self._refresh_due = False
        self._sync_checks()
        for plot in PLOTS:
            for name, item in self._items[plot].items():
                item.setVisible(name in self._series[plot] and self._visible[name])
        for plot in PLOTS:
            # The old callouts go first: a new y range re-places every label
            # still in the plot, and these are about to be replaced (in the
            # wrapping lesson that wasted placement was a quarter of a preset
            # change).
            self._clear_annotations(plot)
            self._update_y_range(plot)
        for plot in PLOTS:
            self._annotate(plot)
        self._update_dots()
        self._restyle_made()
