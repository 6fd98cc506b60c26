"""Boxed plot labels that hang from the top of their view box and never leave it.

A :class:`BoxedLabel` names something at a data x (a gap, a peak above the
range). Its horizontal anchor follows x across the range (a label near the
right end extends to the left), and on every layout (a resize, a zoom, a
font change from the theme's zoom) it is pushed back inside the view box;
one wider than the box wraps its words to the box's width, and one that is
then taller than the room left, or than 40 % of the box, or that would
reach with the labels above it past 65 % of the box, drops its second
line, then shows its short form (the number alone: the box's colour still
says whose it is). A label never covers more than a fifth of its box's
area, and its text is never cut: when not even the short form fits, the
label is not drawn until a resize gives it room. Labels of one
plot share a stack and hang one below the other, each below the heights of
those before it (labels of different line counts do not overlap).

pyqtgraph's TextItem re-runs :meth:`~pyqtgraph.TextItem.updateTextPos` when
its text, font or view transform changes; the placement lives there, so no
caller has to re-place labels after a layout.

A label given the plot's curves (``obstacles``) does not cover them where
it can help it: it tries heights from the top down and horizontal spots
across the box, scores each by the curve length it covers
(:mod:`quatlab.rendering.label_place`, the rule the 3D labels follow too)
and then by how far it sits from its x, and takes the cheapest. A label
that opens with an arrow ("↑ ... peak") wants its arrow over its x; one
whose arrow (or, without one, whose box) cannot be there draws a leader
from the box to the top of the plot above its x, so that it still points
at its peak. Its box is opaque (the plot background of the theme) and is
drawn over the grid: the plots draw their axes, and so the grid, beneath
the data (see :class:`~quatlab.rendering.curve_plots.CurvePlots`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.rendering.label_place import cheapest, polyline_segments

__all__ = ["BoxedLabel"]

#: Pixels between a label and the view box's edge, and between stacked labels.
MARGIN = 3.0
#: Narrowest width (px) a label is wrapped to, whatever the box.
_MIN_WIDTH = 40.0
#: Pixels kept between a label's box and a curve.
_CLEARANCE = 2.0
#: Vertical step (px) between the heights tried for a label.
_STEP = 4.0
#: Heights tried at most (a plot over 2,000 px tall: the step grows).
_HEIGHTS = 512
#: Horizontal spots tried across the view box, at most.
_SPOTS = 24
#: An arrow this close (px) to the label's x points at it without a leader.
_NEAR = 3.0
#: A label hanging lower than this (px) below the top draws its leader up to it.
_HANG = 8.0
#: What a label opens with when it points up at its x (a peak above the range).
ARROW = "↑"
#: Largest share of the view box's height a label may take while a shorter form
#: is left to try: a narrow plot keeps most of its curves in sight.
_MAX_SHARE = 0.4
#: Largest share of the view box's area a label may cover, whatever its form.
MAX_AREA = 0.2
#: Largest share of the view box's height the stack of labels may reach down to
#: while a shorter form is left: two gap callouts of q to -q, two lines each,
#: covered the whole 135-px angle plot at 1024x768 and 150 %.
_STACK_SHARE = 0.65


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
        What to show when ``text``, wrapped, and then its first line alone
        are taller than the room left (or than 40 % of the box).
    obstacles : callable, optional
        Returns the curves the label should not cover, each an ``(N, 2)``
        array of points in the view box's data coordinates (NaN rows are gaps).
    """

    def __init__(self, text: str, *, fraction: float, stack: list, short: str | None = None,
                 obstacles: Callable[[], Iterable[np.ndarray]] | None = None,
                 **kwargs) -> None:
        # The full text, its first line alone (a peak's "at t = ..." line is
        # the first to go), then the short form.
        first_line = text.split("\n", 1)[0]
        self._texts = tuple(dict.fromkeys((text, first_line, short or first_line)))
        self._fraction = min(max(float(fraction), 0.0), 1.0)
        self._stack = stack
        self._obstacles = obstacles
        self._placing = False
        #: The last free-spot search, ``(inputs, answer)``: a label placed again
        #: with the same spots, curves and labels around gets the same spot
        #: without scoring them again (the plots re-place on every layout).
        self._last_search: tuple | None = None
        #: No form of the text fits the box (see _place): nothing is drawn.
        self.squeezed = False
        super().__init__(text, anchor=(0, 0), **kwargs)
        #: From the box to the top of the plot above x, when the box sits away from x.
        self.leader = QtWidgets.QGraphicsLineItem(self)
        self.leader.setPen(QtGui.QPen(self.border))
        self.leader.setVisible(False)
        stack.append(self)

    def paint(self, p, *args) -> None:
        if not self.squeezed:
            super().paint(p, *args)
            return
        # TextItem.paint also follows the scene's paints: keep that, draw no box.
        border, fill = self.border, self.fill
        self.border, self.fill = QtGui.QPen(QtCore.Qt.PenStyle.NoPen), QtGui.QBrush()
        try:
            super().paint(p, *args)
        finally:
            self.border, self.fill = border, fill

    def arrow_offset(self) -> float | None:
        """Pixels from the text box's left edge to the middle of its opening arrow, if any."""
        text = self.textItem
        if not text.toPlainText().startswith(ARROW):
            return None
        metrics = QtGui.QFontMetricsF(text.font())
        return text.document().documentMargin() + 0.5 * metrics.horizontalAdvance(ARROW)

    def pointer_end(self) -> QtCore.QPointF | None:
        """In scene coordinates, where the label points: the leader's top end, else its arrow."""
        if self.leader.isVisible():
            return self.leader.mapToScene(self.leader.line().p2())
        offset = self.arrow_offset()
        if offset is None:
            return None
        rect = self.textItem.mapRectToParent(self.textItem.boundingRect())
        return self.mapToScene(QtCore.QPointF(rect.left() + offset, rect.top()))

    def box(self):
        """The view box's rectangle in this label's coordinates (pixels about its point)."""
        vb = self.getViewBox()
        if vb is None or self.scene() is None or not hasattr(vb, "sceneBoundingRect"):
            return None
        return self.mapRectFromScene(vb.sceneBoundingRect())

    def updateTextPos(self) -> None:  # noqa: N802 - pyqtgraph API
        if not self._place_alone():
            return
        # Those hanging below depend on this one's height: each is placed once,
        # in stack order, so it sees the final heights of all above it. (When
        # each re-placed those below it in turn, the n-th label of a stack was
        # placed 2**(n-2) times per layout.)
        for later in self._stack[self._stack.index(self) + 1:] if self in self._stack else ():
            if later.scene() is not None:
                later._place_alone()

    def _place_alone(self) -> bool:
        """Place this label, not those below it; whether it was placed."""
        if self._placing:
            return False
        self._placing = True
        try:
            placed = self._place()
        finally:
            self._placing = False
        if not placed:
            super().updateTextPos()
        return placed

    def _place(self) -> bool:
        # A label above this one in the stack re-places it as soon as its own
        # transform follows a new view range, before pyqtgraph has got to this
        # one's: with the old scale, the view box maps to a box of the wrong
        # size (67,000 px tall after a y range change, and 420,000 spots).
        # Catch up first (a no-op when current; its own re-place is the one
        # running now, so _placing makes it return at once). Off a scene
        # (being built) there is nothing to place.
        if self.scene() is not None:
            self.updateTransform()
        box = self.box()
        text = self.textItem
        if box is None or box.width() <= 0 or self.transform().isIdentity():
            return False  # not in a laid-out view yet: updateTransform comes back
        earlier = [other for other in self._stack[:self._stack.index(self)]
                   if other.isVisible() and not other.squeezed and other.scene() is not None] \
            if self in self._stack else []
        top = box.top() + MARGIN
        for other in earlier:
            top += other.textItem.boundingRect().height() + MARGIN
        room = max(box.width() - 2 * MARGIN, _MIN_WIDTH)
        area = MAX_AREA * box.width() * box.height()
        fits = False
        for k, content in enumerate(self._texts):
            if text.toPlainText() != content:
                text.setPlainText(content)
            text.setTextWidth(-1)
            if text.boundingRect().width() > room:
                text.setTextWidth(room)
            rect = text.boundingRect()
            whole = (top + rect.height() <= box.bottom() - MARGIN
                     and rect.width() <= box.width() - 2 * MARGIN
                     and rect.width() * rect.height() <= area)
            short_enough = (rect.height() <= _MAX_SHARE * box.height()
                            and top + rect.height() - box.top() <= _STACK_SHARE * box.height())
            if whole and (short_enough or k == len(self._texts) - 1):
                fits = True
                break
        self.squeezed = not fits
        text.setVisible(fits)
        if not fits:
            self.leader.setVisible(False)
            return True
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
        self._lead(left, top, w, h, box.top())
        return True

    def _distance(self, left) -> np.ndarray:
        """Pixels between x (0 here) and the arrow of a box at ``left``, or the box itself."""
        left = np.asarray(left, dtype=np.float64)
        offset = self.arrow_offset()
        if offset is not None:
            return np.abs(left + offset)
        w = self.textItem.boundingRect().width()
        return np.maximum(0.0, np.maximum(left, -(left + w)))

    def _lead(self, left: float, top: float, w: float, h: float, box_top: float) -> None:
        """Show the leader from the box to the plot's top above x if the box is away from x."""
        near = float(self._distance(left)) <= _NEAR
        if near and top - box_top <= _HANG:
            self.leader.setVisible(False)
            return
        end = QtCore.QPointF(0.0, box_top + 1.0)
        if near or left <= 0.0 <= left + w:
            start = QtCore.QPointF(0.0, top)       # under x: up from the top edge
        else:                                      # beside x: from the near side's middle
            start = QtCore.QPointF(left if left > 0.0 else left + w, top + 0.5 * h)
        self.leader.setPen(QtGui.QPen(self.border))
        self.leader.setLine(QtCore.QLineF(start, end))
        self.leader.setVisible(True)

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
        """The top-left corner of the box that covers least curve, then sits nearest x.

        Heights from the top down and spots across the box (the arrow over
        x, the label's own anchor, over its x, the box's two edges and evenly
        between); among those covering the least curve, the one whose arrow
        (or box) is nearest x, then the highest, then the earliest.
        """
        lo_x, hi_x, lo_y, hi_y = limits
        offset = self.arrow_offset()
        lefts = [-offset if offset is not None else left, left, -0.5 * w, 0.0, -w, lo_x, hi_x,
                 *np.linspace(lo_x, hi_x, _SPOTS)]
        lefts = list(dict.fromkeys(round(max(min(x, hi_x), lo_x), 1) for x in lefts))
        # Every _STEP px; on a plot taller than _HEIGHTS steps, that many evenly.
        step = max(_STEP, (hi_y - lo_y) / _HEIGHTS)
        tops = [top, *np.arange(lo_y, hi_y + 0.5, step)] if hi_y > lo_y else [top]
        corners = np.array([(x, y) for y in dict.fromkeys(round(float(y), 1) for y in tops)
                            for x in lefts])
        c = _CLEARANCE
        rects = np.column_stack([corners - c, corners + [w + c, h + c]])
        taken = []
        for other in earlier:
            r = self.mapRectFromScene(other.textItem.sceneBoundingRect())
            taken.append((r.left(), r.top(), r.right(), r.bottom()))
        # Least curve covered (to 0.1 px), then nearest x, then highest, then earliest.
        ties = (corners[:, 1], np.round(self._distance(corners[:, 0]), 1))
        asked = (rects, segs, *ties, np.reshape(np.asarray(taken, dtype=np.float64), (-1, 4)))
        if self._last_search is not None and _same_arrays(self._last_search[0], asked):
            best = self._last_search[1]   # placed again as it was (a paint, a re-layout)
        else:
            best = cheapest(rects, segs, ties, taken)
            self._last_search = (asked, best)
        x, y = corners[best]
        return float(x), float(y)


def _same_arrays(a: tuple, b: tuple) -> bool:
    """Whether two tuples of arrays hold the same shapes and values."""
    return len(a) == len(b) and all(x.shape == y.shape and np.array_equal(x, y)
                                    for x, y in zip(a, b, strict=True))
