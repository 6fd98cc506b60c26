"""A track's angular velocity vector against time: omega x, y, z and its length, both players.

The spec player's components are solid, the naive runtime's dashed, in
the axis colours (x red, y green, z blue) with the length (the angular
speed) in dark grey, degrees per second in the joint's parent frame. Where
the players agree the dashed lines lie on the solid ones; across a sign
flip the naive runtime's omega points the other way and is many times
longer. That spike would flatten every other curve, so the y range follows
the spec player (and the naive runtime where it stays near it), and a
naive peak off the range gets a callout saying its size
(:class:`~quatlab.rendering.plot_label.BoxedLabel`: at most a fifth of the
plot, its text never cut). The cursor line is the playback time and can be
dragged (:attr:`OmegaPlot.cursorMoved`).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.rendering.component_plot import COMPONENT_COLORS, TimePlot
from quatlab.rendering.plot_label import BoxedLabel
from quatlab.rendering.style import BACKGROUND, FOREGROUND

__all__ = ["OmegaPlot", "omega_range"]

_NAMES = ("x", "y", "z", "|ω|")
#: x, y, z in the axis colours, the length in the components plot's w grey.
_COLOURS = (*COMPONENT_COLORS[1:], COMPONENT_COLORS[0])
#: The naive runtime is shown whole while its peak is at most this many times the range's.
_NAIVE_FITS = 1.6
_HEADROOM = 1.1
_CACHE = QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache
_TICK_FONT_PT = 10


def omega_range(spec: np.ndarray, naive: np.ndarray) -> float:
    """Half the y span: the spec player's largest value, or the naive's if it stays near it.

    ``spec`` and ``naive`` are the values drawn (components and lengths).
    A naive peak more than :data:`_NAIVE_FITS` times the spec player's stays
    off the range (and gets a callout).

    >>> omega_range(np.array([100.0, -90.0]), np.array([120.0]))
    132.0
    >>> omega_range(np.array([100.0, -90.0]), np.array([80000.0]))
    110.0
    """
    s = np.abs(spec[np.isfinite(spec)])
    n = np.abs(naive[np.isfinite(naive)])
    top = float(s.max()) if s.size else 0.0
    peak = float(n.max()) if n.size else 0.0
    if peak <= _NAIVE_FITS * top or top <= 0.0:
        top = max(top, peak)
    return _HEADROOM * top if top > 1e-9 else 1.0


class OmegaPlot(TimePlot):
    """omega of one track for both players; see the module docstring."""

    def __init__(self, parent=None) -> None:
        super().__init__("rig_omega", _("ω (°/s), naive dashed"), len(_NAMES), parent,
                         short_title=_("ω (°/s)"))
        item = self.getPlotItem()
        dash = QtCore.Qt.PenStyle.DashLine
        self.spec = [item.plot(pen=pg.mkPen(c, width=2), name=n)
                     for c, n in zip(_COLOURS, _NAMES, strict=True)]
        # Dashed is the naive runtime, as in every plot of the tab (its legend says so).
        self.naive = [item.plot(pen=pg.mkPen(c, width=2, style=dash)) for c in _COLOURS]
        for curve in (*self.spec, *self.naive):
            curve.curve.setCacheMode(_CACHE)
            # A spike of 10^5 deg/s far above the view costs a long dashed
            # stroke per repaint: draw it only a little past the view.
            curve.setDynamicRangeLimit(1.1, hysteresis=1.0)
        item.getAxis("left").setWidth(58)
        self._labels: list[BoxedLabel] = []
        self._top = 1.0
        self._x_range = (0.0, 1.0)

    def set_curves(self, t=None, spec=None, naive=None, x_range=None) -> None:
        """omega ``(S, 3)`` of each player at times ``t`` ``(S,)`` (deg/s); None: empty."""
        item = self.getPlotItem()
        for label in self._labels:
            item.removeItem(label)
        self._labels.clear()
        if t is None:
            for curve in (*self.spec, *self.naive):
                curve.setData([], [])
            return
        t = np.asarray(t, dtype=float)
        values = {}
        for player, w in (("spec", spec), ("naive", naive)):
            w = np.asarray(w, dtype=float).reshape(-1, 3)
            values[player] = np.column_stack([w, np.linalg.norm(w, axis=1)])
        for curves, player in ((self.spec, "spec"), (self.naive, "naive")):
            for k, curve in enumerate(curves):
                curve.setData(t, values[player][:, k], connect="finite")
        self._top = top = omega_range(values["spec"], values["naive"])
        if x_range is not None and x_range[1] > x_range[0]:
            self._x_range = (float(x_range[0]), float(x_range[1]))
            item.setXRange(*self._x_range, padding=0.02)
        item.setYRange(-top, top, padding=0.03)
        speed = values["naive"][:, 3]
        finite = np.isfinite(speed)
        if finite.any() and speed[finite].max() > top:
            k = int(np.nanargmax(speed))
            self._callout(float(t[k]), float(speed[k]))

    def _callout(self, x: float, peak: float) -> None:
        lo, hi = self._x_range
        number = f"{peak:,.0f}"
        label = BoxedLabel(
            "↑ " + _("naive |ω| peak {peak}\nat time = {x:.2f} s").format(peak=number, x=x),
            fraction=(x - lo) / (hi - lo) if hi > lo else 0.5, stack=self._labels,
            short=f"↑ {number}", color=FOREGROUND,
            border=pg.mkPen(COMPONENT_COLORS[0], width=1.5), fill=pg.mkBrush(BACKGROUND))
        font = QtGui.QFont()
        font.setPointSize(_TICK_FONT_PT)
        label.setFont(font)
        label.setZValue(40)
        label.setPos(x, self._top)
        self.getPlotItem().addItem(label, ignoreBounds=True)

    @property
    def callouts(self) -> list[BoxedLabel]:
        """The peak labels shown (for tests)."""
        return list(self._labels)
