"""The Keyframes tab's timeline strip: keys as ticks, segments as bars, findings in colour.

Each flagged segment takes the colour of its most important finding's family
(:mod:`quatlab.app.model.finding_families`), a key's own finding (a zero key,
gimbal lock) a coloured tick: the same colours as the dope sheet and the one
legend above them. The colours are named in the light theme
(:data:`FAMILY_COLOURS`); the theme walk draws them in the theme's.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtCore, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.model.finding_families import FAMILIES
from quatlab.app.model.keyframes_model import Segments
from quatlab.rendering import themes
from quatlab.rendering.plot_items import ink_axes
from quatlab.rendering.style import AXIS_TITLE_PT, BACKGROUND, FOREGROUND, METHOD_COLORS
from quatlab.rendering.themes import LIGHT

__all__ = ["Timeline", "HIGHLIGHT", "ROW_TINT", "OK_BAR", "KEY_TICK", "SELECTED_OUTLINE",
           "FAMILY_COLOURS"]

#: Each finding family's colour, as the light theme names it.
FAMILY_COLOURS = dict(LIGHT.findings)
#: Message colours: an error in naive NLERP's vermillion (a sign flip's), a warning orange.
HIGHLIGHT = {"sign_flip": METHOD_COLORS["naive_nlerp"], "warning": "#E69F00"}
#: Table row tints per finding family: light enough to read black text on.
ROW_TINT = {"sign_flip": "#FBE1D3", "half_turn": "#EEEACC", "euler_wrap": "#D8E8F4",
            "euler_flip": "#F3DDEC", "gimbal": "#D5EEE7", "broken": "#E2E2E2",
            "other": "#EBEBEB"}
#: Unflagged segments: a quiet grey-blue that no highlight can be mistaken for.
OK_BAR = "#C5D1DE"
#: ... and in the dark themes, where the light one was a glaring strip (1.9:1 on
#: the dark theme's background; the keys' light ticks and every highlight show on it).
OK_BAR_DARK = "#3B4653"


def _band_colour() -> str:
    """The unflagged segments' colour in the current theme."""
    return OK_BAR_DARK if themes.current().dark else OK_BAR
KEY_TICK = "#404040"
#: The selected segment's outline and the playback time's line: the plots' time cursor,
#: a role every theme draws at 3:1 at least on its plots (the black they were drawn
#: in before vanished on the high-contrast theme's black and was 1.2:1 on the dark one).
SELECTED_OUTLINE = LIGHT.cursor


class Timeline(pg.PlotWidget):
    """One track along time: keys as ticks, segments as bars, flagged ones in their family's colour.

    Emits :attr:`segmentClicked` with the segment index under a left click.
    """

    segmentClicked = QtCore.pyqtSignal(int)

    #: Bars are drawn in [0, 1] on a hidden y axis; flagged ones are taller.
    _OK_BAR = (0.35, 0.3)
    _FLAG_BAR = (0.2, 0.6)
    #: A key's finding: two caps, (y0, y1) pairs, clear of the flagged bars.
    _KEY_CAPS = (0.02, 0.19, 0.81, 0.98)
    #: A click this close (in pixels) to a very short segment still selects it.
    _CLICK_SLOP_PX = 4
    #: Key ticks are drawn only while the visible keys are at least this many
    #: pixels apart: denser ticks merge into a black band that hides the highlights.
    _TICK_SPACING_PX = 4

    def __init__(self, parent=None) -> None:
        super().__init__(parent, background=BACKGROUND)
        self.setObjectName("timeline")
        item = self.getPlotItem()
        item.hideAxis("left")
        # As large as the plots' titles: Qt's 9 pt drew 7-px letters at 150 %.
        item.setLabel("bottom", _("time (s)"), color=FOREGROUND, **{"font-size": AXIS_TITLE_PT})
        item.getAxis("bottom").enableAutoSIPrefix(False)  # never "time (s) (x0.001)"
        # The labels only: its ticks reach into the strip, where a mark in the text
        # colour is a broken key.
        ink_axes(item, ("bottom",), lines=False)
        # The axis changes with the range only: cached, a moving time cursor
        # re-blits it instead of drawing its ticks and labels again.
        item.getAxis("bottom").setCacheMode(
            QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        item.hideButtons()
        item.setMenuEnabled(False)
        item.setMouseEnabled(x=True, y=False)  # zoom along time only
        item.setYRange(0.0, 1.0, padding=0.05)
        # Unflagged segments are one band under everything, and each severity
        # is one bar item with one brush: per-segment bars and brushes cost
        # about a second on a 20000-key track.
        y0, h = self._OK_BAR
        self._band = pg.BarGraphItem(x0=[0], x1=[1], y0=[y0], height=[h],
                                     brush=_band_colour(),
                                     pen=pg.mkPen(None))
        # Flagged bars get a one-pixel (cosmetic) outline in their own colour,
        # so a short segment on a long track still shows as a line. One bar
        # item and one tick item per family.
        self._flagged = {
            family: pg.BarGraphItem(x0=[0], x1=[1], y0=[self._FLAG_BAR[0]],
                                    height=[self._FLAG_BAR[1]], brush=FAMILY_COLOURS[family],
                                    pen=pg.mkPen(FAMILY_COLOURS[family], width=1))
            for family in FAMILIES}
        self._ticks = pg.PlotDataItem(connect="pairs", pen=pg.mkPen(KEY_TICK, width=1))
        self._bad_ticks = {family: pg.PlotDataItem(
            connect="pairs", pen=pg.mkPen(FAMILY_COLOURS[family], width=3))
            for family in FAMILIES}
        self._outline = pg.PlotDataItem(pen=pg.mkPen(SELECTED_OUTLINE, width=2))
        for it in (self._band, *self._flagged.values(), self._ticks, *self._bad_ticks.values(),
                   self._outline):
            item.addItem(it)
        self._lo = self._hi = np.zeros(0)
        self._index = np.zeros(0, dtype=int)
        self._times = np.zeros(0)
        self._cursor = pg.InfiniteLine(angle=90, movable=False,
                                       pen=pg.mkPen(SELECTED_OUTLINE, width=1.5))
        self._cursor.setVisible(False)
        item.addItem(self._cursor, ignoreBounds=True)
        self.scene().sigMouseClicked.connect(self._clicked)
        item.vb.sigXRangeChanged.connect(self._update_ticks)
        item.vb.sigResized.connect(self._update_ticks)
        self.setFixedHeight(96)

    def changeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().changeEvent(ev)
        if ev.type() == QtCore.QEvent.Type.PaletteChange:
            # A theme switch: the bars in the theme's colours (the theme walk
            # re-colours lines, not bar items).
            colours = themes.current().findings
            for family, bars in getattr(self, "_flagged", {}).items():  # (none while built)
                bars.setOpts(brush=colours[family], pen=pg.mkPen(colours[family], width=1))
            if hasattr(self, "_band"):
                self._band.setOpts(brush=_band_colour())

    @staticmethod
    def _set_bars(bars: pg.BarGraphItem, lo: np.ndarray, hi: np.ndarray) -> None:
        # Hidden rather than emptied: pyqtgraph 0.14's BarGraphItem fails on
        # empty arrays.
        if len(lo):
            n = len(lo)
            y0, h = bars.opts["y0"][0], bars.opts["height"][0]
            bars.setOpts(x0=lo, x1=hi, y0=np.full(n, y0), height=np.full(n, h))
        bars.setVisible(bool(len(lo)))

    def set_track(self, times: np.ndarray | None, segments: Segments | None) -> None:
        """Draw a track (None: nothing)."""
        item = self.getPlotItem()
        if times is None or segments is None:
            times, segments = np.zeros(0), None
        finite_t = times[np.isfinite(times)]
        self._times = finite_t
        if segments is not None and len(segments):
            ok = np.isfinite(segments.t0) & np.isfinite(segments.t1)
            # Segments whose times are not finite have no place on the axis;
            # the table still lists them.
            self._index = np.flatnonzero(ok)
            self._lo = np.minimum(segments.t0, segments.t1)[ok]
            self._hi = np.maximum(segments.t0, segments.t1)[ok]
            families = segments.families[ok]
            finite = np.isfinite(times)
            for family, ticks in self._bad_ticks.items():
                bad = np.flatnonzero((segments.key_families == family) & finite)
                # A cap above and one below the bars: a key's finding never hides the
                # colour of the segments beside it (gimbal lock at both ends of a
                # BVH triple switch).
                ticks.setData(np.repeat(times[bad], 4), np.tile(self._KEY_CAPS, len(bad)))
        else:
            self._index = np.zeros(0, dtype=int)
            self._lo = self._hi = families = np.zeros(0)
            for ticks in self._bad_ticks.values():
                ticks.setData([], [])
        for family, bars in self._flagged.items():
            self._set_bars(bars, self._lo[families == family], self._hi[families == family])
        span = (finite_t.min(), finite_t.max()) if len(finite_t) > 1 else ()
        self._set_bars(self._band, np.array(span[:1]), np.array(span[1:]))
        self._outline.setData([], [])
        if len(finite_t):
            lo, hi = float(finite_t.min()), float(finite_t.max())
            pad = 0.02 * (hi - lo) if hi > lo else 0.5
            item.setXRange(lo - pad, hi + pad, padding=0)
        item.setYRange(0.0, 1.0, padding=0.05)
        self._update_ticks()

    def _update_ticks(self, *_args) -> None:
        """Ticks for the keys in view, or none while they would be too dense to tell apart."""
        vb = self.getPlotItem().vb
        lo, hi = vb.viewRange()[0]
        t = self._times[(self._times >= lo) & (self._times <= hi)]
        if len(t) * self._TICK_SPACING_PX > max(vb.width(), 1):
            t = t[:0]
        self._ticks.setData(np.repeat(t, 2), np.tile([0.1, 0.9], len(t)))

    def set_selected(self, segment: int | None) -> None:
        """Outline segment ``segment`` (None: no outline)."""
        hits = np.flatnonzero(self._index == segment) if segment is not None else []
        if len(hits) == 0:
            self._outline.setData([], [])
            return
        lo, hi = self._lo[hits[0]], self._hi[hits[0]]
        self._outline.setData([lo, hi, hi, lo, lo], [0.02, 0.02, 0.98, 0.98, 0.02])

    def set_cursor(self, time: float | None) -> None:
        """The playback time as a vertical line (None: no line)."""
        if time is None or not np.isfinite(time):
            self._cursor.setVisible(False)
            return
        self._cursor.setValue(float(time))
        self._cursor.setVisible(True)

    def segment_at(self, x: float) -> int | None:
        """The segment drawn at time ``x`` (or within a few pixels of it), if any."""
        if not len(self._index):
            return None
        # Distance from x to each bar, 0 inside it.
        dist = np.maximum(np.maximum(self._lo - x, x - self._hi), 0.0)
        best = int(np.argmin(dist))
        slop = self._CLICK_SLOP_PX * self.getPlotItem().vb.viewPixelSize()[0]
        return int(self._index[best]) if dist[best] <= slop else None

    def bar_rect(self, segment: int) -> QtCore.QRect:
        """Where segment ``segment``'s bar is drawn, in this widget's pixels (for tests)."""
        hit = np.flatnonzero(self._index == segment)[0]
        vb = self.getPlotItem().vb
        a = self.mapFromScene(vb.mapViewToScene(QtCore.QPointF(self._lo[hit], 1.0)))
        b = self.mapFromScene(vb.mapViewToScene(QtCore.QPointF(self._hi[hit], 0.0)))
        return QtCore.QRect(a, b).normalized()

    def _clicked(self, ev) -> None:
        if ev.button() != QtCore.Qt.MouseButton.LeftButton:
            return
        vb = self.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(ev.scenePos()):
            return
        seg = self.segment_at(vb.mapSceneToView(ev.scenePos()).x())
        if seg is not None:
            self.segmentClicked.emit(seg)
