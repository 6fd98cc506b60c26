"""Boxed plot labels that hang from the top of their view box and never leave it.

A :class:`BoxedLabel` names something at a data x (a gap, a peak above the
range). Its horizontal anchor follows x across the range (a label near the
right end extends to the left), and on every layout (a resize, a zoom, a
font change from the theme's zoom) it is pushed back inside the view box;
one wider than the box wraps its words to the box's width, and one that is
then taller than the box shows its short form (the number alone: the box's
colour still says whose it is). Labels of one
plot share a stack and hang one below the other, each below the heights of
those before it (labels of different line counts do not overlap).

pyqtgraph's TextItem re-runs :meth:`~pyqtgraph.TextItem.updateTextPos` when
its text, font or view transform changes; the placement lives there, so no
caller has to re-place labels after a layout.

A label given the plot's curves (``obstacles``) does not cover them where
it can help it: it tries its spot at the top, then lower ones and other
horizontal anchors (still over its x first, then at the box's edges), and
takes the first whose box meets no curve, or the one covering the least
curve length (:mod:`quatlab.rendering.label_place`, the rule the 3D labels
follow too). Its box is opaque (the plot background of the theme) and is
drawn over the grid: the plots draw their axes, and so the grid, beneath
the data (see :class:`~quatlab.rendering.curve_plots.CurvePlots`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import pyqtgraph as pg

from quatlab.rendering.label_place import best, polyline_segments

__all__ = ["BoxedLabel"]

#: Pixels between a label and the view box's edge, and between stacked labels.
MARGIN = 3.0
#: Narrowest width (px) a label is wrapped to, whatever the box.
_MIN_WIDTH = 40.0
#: Pixels kept between a label's box and a curve.
_CLEARANCE = 2.0
#: Vertical step (px) between the heights tried for a label.
_STEP = 4.0


class BoxedLabel(pg.TextItem):
    """A boxed text at data ``x``, hanging from its view box's top, kept inside the box.

    Parameters
    ----------
    text : str
        Plain text; ``\\n`` breaks lines, and words wrap when the box is narrow.
    fraction : float
        Preferred horizontal anchor, 0 (text starts at x) to 1 (text ends at x).
    stack : list of BoxedLabel
        The labels of the same plot, in order; this one is appended and hangs
        below those before it. The owner empties it when it removes them.
    short : str, optional
        What to show when ``text``, wrapped, is taller than the room left.
    obstacles : callable, optional
        Returns the curves the label should not cover, each an ``(N, 2)``
        array of points in the view box's data coordinates (NaN rows are gaps).
    """

    def __init__(self, text: str, *, fraction: float, stack: list, short: str | None = None,
                 obstacles: Callable[[], Iterable[np.ndarray]] | None = None,
                 **kwargs) -> None:
        self._texts = (text, short or text)
        self._fraction = min(max(float(fraction), 0.0), 1.0)
        self._stack = stack
        self._obstacles = obstacles
        self._placing = False
        super().__init__(text, anchor=(0, 0), **kwargs)
        stack.append(self)

    def box(self):
        """The view box's rectangle in this label's coordinates (pixels about its point)."""
        vb = self.getViewBox()
        if vb is None or self.scene() is None or not hasattr(vb, "sceneBoundingRect"):
            return None
        return self.mapRectFromScene(vb.sceneBoundingRect())

    def updateTextPos(self) -> None:  # noqa: N802 - pyqtgraph API
        if self._placing:
            return
        self._placing = True
        try:
            placed = self._place()
        finally:
            self._placing = False
        if not placed:
            super().updateTextPos()
            return
        # Those hanging below depend on this one's height.
        for later in self._stack[self._stack.index(self) + 1:] if self in self._stack else ():
            if later.scene() is not None:
                later.updateTextPos()

    def _place(self) -> bool:
        box = self.box()
        text = self.textItem
        if box is None or box.width() <= 0 or self.transform().isIdentity():
            return False  # not in a laid-out view yet: updateTransform comes back
        earlier = [other for other in self._stack[:self._stack.index(self)]
                   if other.isVisible() and other.scene() is not None] \
            if self in self._stack else []
        top = box.top() + MARGIN
        for other in earlier:
            top += other.textItem.boundingRect().height() + MARGIN
        room = max(box.width() - 2 * MARGIN, _MIN_WIDTH)
        for content in self._texts:
            if text.toPlainText() != content:
                text.setPlainText(content)
            text.setTextWidth(-1)
            if text.boundingRect().width() > room:
                text.setTextWidth(room)
            if top + text.boundingRect().height() <= box.bottom() - MARGIN:
                break
        rect = text.boundingRect()
        w, h = rect.width(), rect.height()
        lo_x, hi_x = box.left() + MARGIN, box.right() - MARGIN - w
        lo_y, hi_y = box.top() + MARGIN, box.bottom() - MARGIN - h
        left = max(min(-self._fraction * w, hi_x), lo_x)
        # Too many to stack: the last ones overlap rather than leave the box.
        top = max(min(top, hi_y), lo_y)
        segs = self._curve_segments()
        if segs is not None and len(segs):
            left, top = self._clear_spot(left, top, w, h, (lo_x, hi_x, lo_y, hi_y), earlier,
                                         segs)
        text.setPos(left, top)
        return True

    def _curve_segments(self) -> np.ndarray | None:
        """The obstacle curves as ``(S, 2, 2)`` segments in this label's pixels."""
        vb = self.getViewBox()
        if self._obstacles is None or vb is None or not hasattr(vb, "childGroup"):
            return None
        inverse, ok = self.sceneTransform().inverted()
        if not ok:
            return None
        t = vb.childGroup.sceneTransform() * inverse
        parts = []
        for points in self._obstacles():
            p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
            px = np.column_stack([t.m11() * p[:, 0] + t.m21() * p[:, 1] + t.m31(),
                                  t.m12() * p[:, 0] + t.m22() * p[:, 1] + t.m32()])
            parts.append(polyline_segments(px))
        return np.concatenate(parts) if parts else None

    def _clear_spot(self, left: float, top: float, w: float, h: float, limits, earlier,
                    segs: np.ndarray) -> tuple[float, float]:
        """The top-left corner of the preferred box that covers no curve, else the least.

        Heights from the top down, and at each the label's own anchor, then
        spans still over its x, then the box's two edges.
        """
        lo_x, hi_x, lo_y, hi_y = limits
        lefts = [left, -0.5 * w, 0.0, -w, lo_x, hi_x]
        lefts = list(dict.fromkeys(round(max(min(x, hi_x), lo_x), 1) for x in lefts))
        tops = [top, *np.arange(lo_y, hi_y + 0.5, _STEP)] if hi_y > lo_y else [top]
        corners = [(x, y) for y in dict.fromkeys(round(float(y), 1) for y in tops)
                   for x in lefts]
        c = _CLEARANCE
        rects = [(x - c, y - c, x + w + c, y + h + c) for x, y in corners]
        taken = []
        for other in earlier:
            r = self.mapRectFromScene(other.textItem.sceneBoundingRect())
            taken.append((r.left(), r.top(), r.right(), r.bottom()))
        i, _cost = best(rects, segs, taken, by_length=True)
        return corners[i]
