"""Axis ticks spaced for their labels: never closer than a label and a gap, at any zoom.

pyqtgraph picks the tick spacing from the axis length alone and always
labels its major ticks, however crowded: at 1024 x 768 and 150 % the six
labels of a t axis ran into one another ("0.0.2.0.4.6.8.0"). :class:`FittedTicks`
widens the major spacing along 1, 2, 5, 10, ... until the widest label (or a
line, on a vertical axis) plus a gap fits between two ticks, measured in the
axis's own tick font, and labels the major ticks only, so no two labels can
meet. Where that leaves one label on a short axis, a step of any leading
digit (300, 400, ...) that has room gives two. Of explicit ticks
(``setTicks``) it labels every k-th, k as small as fits.
"""

from __future__ import annotations

from math import ceil, floor, log10

import numpy as np
from PyQt6 import QtGui

__all__ = ["FittedTicks", "nice_steps"]

#: Space between two labels side by side (a horizontal axis), in lines of the tick font.
LABEL_GAP_LINES = 0.8
#: Space between two labels one over the other (a vertical axis), in lines.
LINE_GAP_LINES = 0.4


def nice_steps(start: float):
    """Tick spacings from ``start`` up: 1, 2, 5 times powers of ten (``start`` first).

    >>> from itertools import islice
    >>> [round(s, 6) for s in islice(nice_steps(0.2), 5)]
    [0.2, 0.5, 1.0, 2.0, 5.0]
    >>> [round(s, 6) for s in islice(nice_steps(25.0), 3)]
    [25.0, 50.0, 100.0]
    """
    yield start
    exp = floor(log10(start))
    while True:
        for m in (1.0, 2.0, 5.0):
            step = m * 10.0 ** exp
            if step > start * (1 + 1e-9):
                yield step
        exp += 1


class FittedTicks:
    """Mixin for a :class:`pyqtgraph.AxisItem`: major ticks as close as their labels allow."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Labels on the major ticks only: their spacing is the one measured.
        self.setStyle(maxTextLevel=0)

    def setTicks(self, ticks) -> None:  # noqa: N802 (pyqtgraph's name)
        """Explicit ticks, as pyqtgraph takes them; their labels are thinned to fit."""
        self._given_ticks = ticks
        super().setTicks(ticks)

    def generateDrawSpecs(self, p):  # noqa: N802 (pyqtgraph's name)
        given = getattr(self, "_given_ticks", None)
        if given:
            self._tickLevels = self._thinned(given)
        specs = super().generateDrawSpecs(p)
        if specs is None or self.scene() is None or self.orientation not in ("top", "bottom"):
            return specs
        # An end label centred on its tick ran past the widget's edge ("10000"
        # at the right end of a step axis): moved in, whole, beside its tick.
        view = self.getViewWidget()
        if view is None:
            return specs
        room = self.mapRectFromScene(view.mapToScene(view.viewport().rect()).boundingRect())
        texts = []
        for rect, flags, text in specs[2]:
            shift = max(room.left() - rect.left(), 0.0) + min(room.right() - rect.right(), 0.0)
            texts.append((rect.translated(shift, 0.0) if shift else rect, flags, text))
        return specs[0], specs[1], texts

    def _thinned(self, levels):
        """Explicit ticks with only every k-th major tick labelled, k as small as fits.

        The angle plot's 0, 90, ..., 360 on a plot 60 px tall ran into one
        another; every other one (0, 180, 360) does not. The rest stay ticks.
        """
        major = sorted(levels[0], key=lambda vt: vt[0])
        lo, hi = self.range
        length = self.geometry().height() if self.orientation in ("left", "right") \
            else self.geometry().width()
        if len(major) < 2 or hi <= lo or length <= 0:
            return levels
        font = self.style.get("tickFont") or self.font()
        metrics = QtGui.QFontMetricsF(font)
        if self.orientation in ("left", "right"):
            need = (1.0 + LINE_GAP_LINES) * metrics.height()
        else:
            need = (max(metrics.horizontalAdvance(t) for _v, t in major)
                    + LABEL_GAP_LINES * metrics.height())
        gaps = np.diff([v for v, _t in major])
        closest = float(gaps.min()) * length / (hi - lo)
        k = max(1, ceil(need / closest)) if closest > 0 else len(major)
        if k == 1:
            return levels
        kept = [vt for i, vt in enumerate(major) if i % k == 0]
        dropped = [(v, "") for i, (v, _t) in enumerate(major) if i % k]
        minor = list(levels[1]) if len(levels) > 1 else []
        return [kept, dropped + minor, *levels[2:]]

    def boundingRect(self):  # noqa: N802 (Qt's name)
        """On a vertical axis, half a label more at each end: pyqtgraph hides a label that
        sticks out of the rect, so a short plot lost its "0" and "360"."""
        rect = super().boundingRect()
        if self.orientation in ("left", "right"):
            font = self.style.get("tickFont") or self.font()
            half = QtGui.QFontMetricsF(font).height() / 2
            return rect.adjusted(0, -half, 0, half)
        return rect

    def _label_room(self, metrics: QtGui.QFontMetricsF, lo: float, hi: float,
                    step: float) -> float:
        """Pixels a label needs between two ticks ``step`` apart over [lo, hi] (scaled)."""
        if self.orientation in ("left", "right"):
            return (1.0 + LINE_GAP_LINES) * metrics.height()
        gap = LABEL_GAP_LINES * metrics.height()
        values = np.arange(ceil(lo / step), floor(hi / step) + 1) * step
        if values.size == 0:
            return 0.0
        scale = self.scale or 1.0
        strings = self.tickStrings(list(values / scale), self.autoSIPrefixScale * scale,
                                   step / scale)
        return max(metrics.horizontalAdvance(s) for s in strings) + gap

    def tickSpacing(self, minVal: float, maxVal: float, size: float):  # noqa: N802, N803
        levels = super().tickSpacing(minVal, maxVal, size)
        span = abs(maxVal - minVal)
        if self._tickSpacing is not None or not levels or size <= 0 or span == 0:
            return levels
        font = self.style.get("tickFont") or self.font()
        metrics = QtGui.QFontMetricsF(font)
        lo, hi = sorted((minVal, maxVal))
        per_px = size / span
        for step in nice_steps(levels[0][0]):
            if step * per_px >= self._label_room(metrics, lo, hi, step) or step > span:
                break
        if _ticks_within(lo, hi, step) < 2:
            # 1, 2, 5 jump too far on a short axis: over -400..260 in 76 px, 200
            # left no room and 500 labelled "0" alone. A step of any leading
            # digit (300: "-300", "0") gives the scale back where one has room.
            step = next((s for s in _digit_steps(levels[0][0], step)
                         if _ticks_within(lo, hi, s) >= 2
                         and s * per_px >= self._label_room(metrics, lo, hi, s)), step)
        if step == levels[0][0]:
            return levels
        digit = round(step / 10.0 ** floor(log10(step)))
        minor = step / (2.0 if digit in (1, 2) else float(digit))
        return [(step, 0), (minor, 0)]


def _ticks_within(lo: float, hi: float, step: float) -> int:
    """How many multiples of ``step`` lie in [lo, hi].

    >>> _ticks_within(-401.0, 259.0, 500.0), _ticks_within(-401.0, 259.0, 300.0)
    (1, 2)
    """
    return max(0, floor(hi / step) - ceil(lo / step) + 1)


def _digit_steps(start: float, stop: float):
    """Steps d x 10^k (d = 1 ... 9) from ``start`` to ``stop``, both kept, smallest first.

    >>> [round(s, 6) for s in _digit_steps(200.0, 500.0)]
    [200.0, 300.0, 400.0, 500.0]
    """
    exp = floor(log10(start))
    while True:
        for d in range(1, 10):
            step = d * 10.0 ** exp
            if step > stop * (1 + 1e-9):
                return
            if step >= start * (1 - 1e-9):
                yield step
        exp += 1
