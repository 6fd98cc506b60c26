"""The dots the curve plots draw on each curve at the t cursor, as pie slices where they meet.

Curves often coincide (naive = shortest when the keys' dot is >= 0, NLERP ~
SLERP for small angles, five of the six engines by design), and the plots
draw coinciding lines so that each shows (:mod:`.plot_items`: dashes over
solids). Their cursor dots must do the same: one dot hidden under another
told a class one curve was there. Dots whose centres lie closer than a fifth of
a dot's diameter (MERGE_SHARE: under 2 px at 100 %, under 3 px at 150 %) on
screen, values a reader cannot tell apart, are drawn as one dot cut into equal pie
slices, one per curve in its colour, in the curves' order from the upper left
clockwise, so two make a dot split along its diagonal, as the 3D view stripes two chains in
one pose diagonally (:mod:`.chain_scene`). The group's dot is centred on the
middle of its members' values and grows with their number (its area k dots'
area), so each slice keeps about one dot's ink; a thin stroke of the outline
colour (the plot's background) parts the slices. Dots further apart overlap
but are drawn apart, each at its value, the later over the earlier: a pie reads
as one value. Merged at a whole diameter, SQUAD's 60 and 78 °/s at 1024x768 and
150 % in Chinese made one dot at 70 that told the class the four methods turned
equally fast; at half a diameter, the Euler wrap tab's naive NLERP at 22.5° and
SLERP at 7.0°, 6.5 px apart there, made one dot between them.

Groups are found where the dots are painted, in device pixels, with a
handful of numpy operations: zoom, resize and theme scaling regroup them
without any layout pass, and a cursor move costs what it did.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtCore, QtGui
from pyqtgraph import functions as fn

__all__ = ["CursorDots", "dot_groups"]

#: Dots share one drawn dot when their centres are closer than this share of a
#: dot's diameter: values within a couple of pixels, which a pie then stands for
#: (each at most a tenth of a diameter, about 1 px, off). Dots further apart show
#: a crescent of the one beneath at least this wide.
MERGE_SHARE = 0.2
#: Where the first slice starts (Qt degrees, counter-clockwise from 3 o'clock):
#: the lower left end of the "/" diagonal; slices run clockwise from it.
_START_DEG = 225.0


def dot_groups(y_px: np.ndarray, diameter: float) -> np.ndarray:
    """Group index of each dot on one vertical line, dots chained closer than ``diameter``.

    Dots whose centres (pixel y, all on the cursor's x) lie less than
    ``diameter`` apart share a group, and so do dots linked through others;
    groups are numbered from the top of the screen (smallest y) down.

    Examples
    --------
    >>> dot_groups(np.array([50.0, 10.0, 14.0, 30.0]), 9.0).tolist()
    [2, 0, 0, 1]
    >>> dot_groups(np.array([0.0, 8.0, 16.0]), 9.0).tolist()
    [0, 0, 0]
    """
    y_px = np.asarray(y_px, dtype=np.float64)
    order = np.argsort(y_px, kind="stable")
    starts = np.diff(y_px[order]) >= diameter
    groups = np.empty(y_px.shape, dtype=np.intp)
    groups[order] = np.concatenate(([0], np.cumsum(starts)))[: y_px.size]
    return groups


class CursorDots(pg.ScatterPlotItem):
    """The dots on the curves at the cursor, moved in place when only their places change.

    ``setData`` rebuilds every spot (styles, atlas lookups, size bounds):
    0.2-0.3 ms per plot and time change, where a time change usually moves
    the same dots in the same colours. :meth:`set_points` then writes the
    new coordinates into the spots it has and repaints.

    Its data stay one spot per curve at its value (what tests and tools
    read); only the painting shares a dot between the curves that meet
    (module docstring).

    Its brushes come in the current theme's colours already
    (:meth:`~quatlab.rendering.plot_cursor.PlotCursor._brush`, again on every
    switch), so the theme walk leaves them alone (:data:`THEMED_BRUSHES`): it
    took high contrast's white (the text colour) for the light palette's white
    background and filled the dot black on the black plot.
    """

    THEMED_BRUSHES = True

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._brushes: list = []

    def set_points(self, xs, ys, brushes) -> None:
        """Dots at (``xs``, ``ys``) filled with ``brushes`` (one each, reused objects)."""
        if (len(brushes) == len(self._brushes) == len(self.data)
                and all(a is b for a, b in zip(brushes, self._brushes, strict=True))):
            self.data["x"] = xs
            self.data["y"] = ys
            # As ScatterPlotItem.addPoints does after new data: new bounds, repaint.
            self.prepareGeometryChange()
            self.informViewBoundsChanged()
            self.bounds = [None, None]
            self.invalidate()
            return
        self._brushes = list(brushes)
        self.setData(xs, ys, brush=self._brushes)

    def _diameter(self) -> float:
        return float(self.opts["size"])

    def groups(self) -> list[tuple[float, float, float, list[int]]]:
        """The dots as drawn: (x, y) of each drawn dot's centre in data
        coordinates, its diameter (px, outline not included) and the indices
        of the spots it stands for (one, or the curves meeting there)."""
        n = len(self.data)
        if n == 0:
            return []
        _, py = self.pixelVectors()
        per_px = py.length() if py is not None else 0.0
        if not per_px > 0.0:  # not in a view yet: every dot its own
            return [(float(self.data["x"][i]), float(self.data["y"][i]), self._diameter(), [i])
                    for i in range(n)]
        ys = np.asarray(self.data["y"], dtype=np.float64)
        out = []
        for centre, diameter, members in self._layout(ys / per_px, self._diameter()):
            out.append((float(self.data["x"][members[0]]), centre * per_px, diameter, members))
        return out

    def widest(self) -> float:
        """Diameter (px, outline not included) of the widest dot drawn: what the
        callouts keep clear of at the cursor."""
        return max((g[2] for g in self.groups()), default=self._diameter())

    @staticmethod
    def _layout(y_px: np.ndarray, diameter: float) -> list[tuple[float, float, list[int]]]:
        """(centre y, diameter, member indices) per drawn dot, from the spots' y in pixels."""
        groups = dot_groups(y_px, MERGE_SHARE * diameter)
        out = []
        for g in range(int(groups.max()) + 1 if groups.size else 0):
            members = np.flatnonzero(groups == g).tolist()
            ys = y_px[members]
            out.append((0.5 * (float(ys.min()) + float(ys.max())),
                        diameter * math.sqrt(len(members)), members))
        return out

    def pixelPadding(self):  # noqa: N802 - pyqtgraph API
        # A shared dot is wider than a spot: sqrt(k) spots, at most all of them.
        return super().pixelPadding() * math.sqrt(max(len(self.data), 1))

    def paint(self, p, option, widget):
        n = len(self.data)
        if n < 2 or not self.opts["pxMode"]:
            super().paint(p, option, widget)
            return
        scale = 1.0 if self._exportOpts is False else self._exportOpts.get("resolutionScale", 1.0)
        pts = fn.transformCoordinates(p.transform(), np.vstack([self.data["x"], self.data["y"]]))
        diameter = self._diameter() * scale
        # The dots share the cursor's x; its device y tells which meet.
        layout = self._layout(pts[1], diameter)
        if len(layout) == n:
            super().paint(p, option, widget)  # none meet: the atlas draws them
            return
        outline = QtGui.QPen(fn.mkPen(self.opts["pen"]))
        outline.setWidthF(outline.widthF() * scale)
        parting = QtGui.QPen(outline)
        parting.setWidthF(max(0.5 * outline.widthF(), 1.0))
        brushes = self.data["brush"]
        p.save()
        p.resetTransform()
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, bool(self.opts["antialias"]))
        for centre, size, members in layout:
            x = float(pts[0][members[0]])
            rect = QtCore.QRectF(x - 0.5 * size, centre - 0.5 * size, size, size)
            brush = brushes[members[0]]
            p.setPen(outline)
            p.setBrush(fn.mkBrush(self.opts["brush"]) if brush is None else brush)
            p.drawEllipse(rect)
            if len(members) == 1:
                continue
            p.setPen(QtCore.Qt.PenStyle.NoPen)
            span = 360.0 / len(members)
            for k, i in enumerate(members):
                brush = brushes[i]
                p.setBrush(fn.mkBrush(self.opts["brush"]) if brush is None else brush)
                p.drawPie(rect, round(16 * (_START_DEG - k * span)), round(-16 * span))
            p.setPen(parting)
            r = 0.5 * size
            for k in range(len(members)):
                a = math.radians(_START_DEG - k * span)
                p.drawLine(QtCore.QPointF(x, centre),
                           QtCore.QPointF(x + r * math.cos(a), centre - r * math.sin(a)))
            p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
            p.setPen(outline)
            p.drawEllipse(rect)
        p.restore()
