"""Boxed plot labels that hang from the top of their view box and never leave it.

A :class:`BoxedLabel` names something at a data x (a gap, a peak above the
range). Its horizontal anchor follows x across the range (a label near the
right end extends to the left), and on every layout (a resize, a zoom, a
font change from the theme's zoom) it is placed again inside the view box;
one wider than the box wraps its words to the box's width.

A label is shown only where nothing is in its way: its box as drawn (its
border included) keeps :data:`CLEARANCE` pixels of background from every
curve of the plot (``obstacles``) as drawn, its pen's width included, from
the t cursor (``keep_clear``), from the labels of the same plot placed
before it (labels of one plot share a stack, in order) and from their
leaders; its own leader crosses neither their leaders nor their boxes.
(Measured from the curves' centre lines alone, a box 2 px away from a
2.4 px dashed curve left 0.55 px between stroke and border: anti-aliased,
they touched.) It tries heights from the top down, every pixel, and
horizontal spots across the box, and takes the clear spot nearest its x,
then the highest. What the curves leave clear
(:mod:`quatlab.rendering.clear_spots`) is kept until the curves or the
spots change: a cursor move tests only the cursor and the labels around
(the leaders' geometry is :mod:`quatlab.rendering.label_place`'s, which
the 3D labels use too). With no clear
spot for its text, it tries its first line alone, then its short form (the
number alone: the box's colour still says whose it is); with none for
those either it is not drawn (until a layout or a cursor move gives it
room; :func:`follow_keep_clear`) but for a leader to its x from the box of
an earlier label that shows the same short form in the same colour (two
"not unique" of one curve): that box names both x's. A form taller than
40 % of the box is tried only when it is the last, and none covers more
than a fifth of the box's area; the text is never cut. Each form is tried
at the box's width, beside the cursor, then wrapped at every space; a spot
whose leader crosses no curve and not the cursor is taken in any form
before one whose leader does; the last form, with no room at all, is tried
once more with its box hugging its text (:data:`_HUG`).

A label of a gap marked down the whole plot (a dashed line, a band: its
``span``) names it from a box over it at any height, and from beside it
leads across to it, not up to the plot's top.

pyqtgraph's TextItem re-runs :meth:`~pyqtgraph.TextItem.updateTextPos` when
its text, font or view transform changes; the placement lives there, so no
caller has to re-place labels after a layout. The cursor moves without a
layout: the plots call :func:`follow_keep_clear` when it does.

A label that opens with an arrow ("↑ ... peak") wants its arrow over its x;
one whose arrow (or, without one, whose box) cannot be there draws a leader
from the box to the top of the plot above its x, so that it still points
at its peak (or gap). Its box is opaque (the plot background of the theme)
and is drawn over the grid: the plots draw their axes, and so the grid,
beneath the data (see :class:`~quatlab.rendering.curve_plots.CurvePlots`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.rendering.clear_spots import Polylines, blocked_spots
from quatlab.rendering.label_place import (
    crossings,
    meets,
    overlaps,
)

__all__ = ["BoxedLabel", "Curve", "Line", "follow_keep_clear", "CLEARANCE"]

#: Pixels between a label and the view box's edge, and between stacked labels.
MARGIN = 3.0
#: Narrowest width (px) a label is wrapped to, whatever the box.
_MIN_WIDTH = 40.0
#: Pixels of background kept between a label's border and a curve's stroke, the
#: cursor, another label's box or leader (edge to edge, as drawn).
CLEARANCE = 2.0
#: Vertical step (px) between the heights tried for a label: a stack of labels
#: that each stood up to a step lower than their clearances ask reached 69 %
#: down a short plot (q to -q, 1024x768 at 150 %) where 65 % holds it.
_STEP = 1.0
#: Heights tried at most (on a plot over 512 px tall the step grows).
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
#: Pixels between a label's text and its border in its last resort: its last
#: form with no room at the usual margin.
_HUG = 1.0
#: A remark in parentheses closing a label's short form (ASCII or full-width), the
#: last thing it gives up.
_REMARK = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")


class Curve(NamedTuple):
    """A curve a label keeps clear of: ``(N, 2)`` points in the view box's data
    coordinates (NaN rows are gaps) and the width (px) of the pen that draws it."""

    points: np.ndarray
    width: float = 1.0


class Line(NamedTuple):
    """A vertical line a label keeps clear of (the t cursor): its data x and the
    width (px) it takes on screen (its pen, or the dots it carries)."""

    x: float
    width: float = 1.0


def pen_width(pen: QtGui.QPen) -> float:
    """Pixels a pen strokes: its width, 1 for a cosmetic hairline, 0 for no pen."""
    if pen.style() == QtCore.Qt.PenStyle.NoPen:
        return 0.0
    return max(pen.widthF(), 1.0)


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
    short : str or tuple of str, optional
        What to show when ``text``, wrapped, and then its first line alone
        find no clear spot (or are taller than 40 % of the box); a tuple, the
        forms to try in turn, each shorter than the one before.
    obstacles : callable, optional
        Returns the curves the label keeps clear of, each a :class:`Curve`
        (or a bare ``(N, 2)`` array of points: a 1-px line).
    keep_clear : callable, optional
        Returns the vertical lines the box keeps clear of (the t cursor),
        each a :class:`Line` (or a bare data x: a 1-px line); when they
        move, the owner calls :func:`follow_keep_clear`.
    span : (float, float), optional
        The data x range the label names, marked down the whole view box (a
        wide gap's band; ``(x, x)``: a narrow gap's line): a box over any of
        it points at it without a leader, at any height.
    """

    def __init__(self, text: str, *, fraction: float, stack: list,
                 short: str | tuple[str, ...] | None = None,
                 obstacles: Callable[[], Iterable[np.ndarray]] | None = None,
                 keep_clear: Callable[[], Iterable[float]] | None = None,
                 span: tuple[float, float] | None = None, **kwargs) -> None:
        # The full text, its first line alone (a peak's "at t = ..." line is
        # the first to go), then the short form, then that without a closing
        # remark in parentheses: "undefined (antipodes)" says "undefined" where
        # the whole form would cover more than MAX_AREA (q to −q in Chinese at
        # 1024x768 and 150 %: 20.3 % of the 221-px path angle plot).
        first_line = text.split("\n", 1)[0]
        shorter = (short,) if isinstance(short, str) else tuple(short or ())
        short = shorter[0] if shorter else first_line
        bare = _REMARK.sub("", short) or short
        self._texts = tuple(dict.fromkeys((text, first_line, short, bare, *shorter[1:])))
        #: How many forms are tried only when no other has a clear spot at all
        #: (the shorter forms after ``short``: "↑2.6k" over "↑ 2,620").
        self._last_resorts = len(self._texts) - len(dict.fromkeys((text, first_line, short, bare)))
        self._fraction = min(max(float(fraction), 0.0), 1.0)
        self._stack = stack
        self._obstacles = obstacles
        self._keep_clear = keep_clear
        self._span = span
        self._placing = False
        #: Per form of the text, the spots the curves leave clear at the last
        #: search, ``(inputs, blocked)``: a label placed again with the same
        #: spots and curves (a cursor move, a paint, a re-layout) tests only the
        #: cursor and the labels around, not the curves again.
        self._searches: dict[tuple, tuple] = {}
        #: The curves last looked at, in this label's pixels, and their polylines.
        self._lines: tuple | None = None
        #: Hidden while the cursor was in the way: the scene x span the cursor
        #: is to leave before the label is placed again (follow_keep_clear).
        self._waiting: tuple[float, float] | None = None
        #: The cursor's scene x at the last look, and the way it went since (-1, 0, 1).
        self._seen: list[float] = []
        self._heading = 0.0
        #: No form of the text fits the box (see _place): no box is drawn.
        self.squeezed = False
        #: Squeezed, the earlier label whose box this one's leader starts from (_join).
        self.joined: BoxedLabel | None = None
        super().__init__(text, anchor=(0, 0), **kwargs)
        #: Pixels between the text and the box's border (the last resort: _HUG).
        self._margin = self.textItem.document().documentMargin()
        #: From the box to the top of the plot above x, when the box sits away from x.
        self.leader = QtWidgets.QGraphicsLineItem(self)
        self.leader.setPen(self._leader_pen())
        self.leader.setVisible(False)
        stack.append(self)

    def _leader_pen(self) -> QtGui.QPen:
        """The border's pen, dotted: solid in the series' colour and width, the leader
        from "not unique" to the blend's sweep-0.5 line read as the rotation mean
        falling from 180 to 70 degrees, and the wrap's "↑ 2,612" leader as a curve."""
        pen = QtGui.QPen(self.border)
        pen.setStyle(QtCore.Qt.PenStyle.DotLine)
        return pen

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
        shown = [other for other in self._stack[:self._stack.index(self)]
                 if other.isVisible() and other.scene() is not None] \
            if self in self._stack else []
        earlier = [other for other in shown if not other.squeezed]
        # A joined label (see _join) draws no box, but its leader is in the way.
        around = self._surroundings(box, earlier,
                                    [other for other in shown if other.leader.isVisible()])
        room = max(box.width() - 2 * MARGIN, _MIN_WIDTH)
        # Beside the cursor: a label at a gap under the cursor (q to -q at
        # t = 0.5) fits on neither side at the plot's width, wrapped it may.
        free, start = [], box.left() + MARGIN
        for left, right in sorted(zip(around.cursor[:, 0], around.cursor[:, 2], strict=True)):
            free.append(left - start)
            start = max(start, right)
        free.append(box.right() - MARGIN - start)
        side = max(free) - 2.0 * self._reach()
        widths = (room, side) if _MIN_WIDTH <= side < room else (room,)
        self._waiting = None
        # A spot whose leader crosses no curve in any form first: the blend's
        # "not unique" of sweep 0.5 at 1024x768 and 150 % took the first clear
        # spot of its one-line form, over the 1.5 line, its leader back to 0.5
        # across two curves; wrapped, it stands on its own line.
        self.textItem.document().setDocumentMargin(self._margin)
        spot = self._spot_in_a_form(box, around, widths, strict=True,
                                    last=len(self._texts) - self._last_resorts)
        if spot is None:
            spot = self._spot_in_a_form(box, around, widths, strict=False)
        if spot is None:
            # Last, the last form with its box hugging its text: at 1024x768 and
            # 150 % (dark) the two-key speed plot has 66 px beside the spike
            # and the cursor, "↑2.6k" takes 68 with the usual margin.
            self.textItem.document().setDocumentMargin(_HUG)
            spot = self._spot_in_a_form(box, around, widths, strict=False,
                                        first=len(self._texts) - 1)
        self.squeezed = spot is None
        text.setVisible(not self.squeezed)
        if self.squeezed:
            self._join(earlier, box)
            return True
        self.joined = None
        self._heading = 0.0   # a layout after this move does not know the way
        rect = text.boundingRect()
        text.setPos(*spot)
        self._lead(spot[0], spot[1], rect.width(), rect.height(), box.top())
        return True

    def _spot_in_a_form(self, box, around: _Around, widths: tuple[float, ...], *,
                        strict: bool, first: int = 0, last: int | None = None
                        ) -> tuple[float, float] | None:
        """The first form of the text from the ``first`` (up to ``last``) with a clear
        spot, each at ``widths``, then each wrapped at every space, left shown: that
        spot, or None. ``strict``: only spots whose leader crosses no curve nor the
        cursor."""
        text = self.textItem
        room = widths[0]
        area = MAX_AREA * box.width() * box.height()
        spot = None
        # Every form at the box's width and beside the cursor first, then each
        # wrapped at every space: wrapped, "↑ naive NLERP peak 2,620" stood low
        # under the 340 line, its leader across it, where "↑ 2,620" fits at the top.
        for wrap in (False, True):
            for k, content in enumerate(self._texts[first:last], start=first):
                tries = self._word_width(content, min(widths)) if wrap else widths
                for width in tries:
                    if text.toPlainText() != content:
                        text.setPlainText(content)
                    text.setTextWidth(-1)
                    natural = text.boundingRect().width()
                    if width < room and natural <= width:
                        continue  # as it was at the whole width
                    if natural > width:
                        text.setTextWidth(width)
                        # As wide as its widest line: wrapped, a box takes the whole width.
                        text.setTextWidth(min(width, math.ceil(text.document().idealWidth())))
                    rect = text.boundingRect()
                    whole = (rect.height() <= box.height() - 2 * MARGIN
                             and rect.width() <= box.width() - 2 * MARGIN
                             and rect.width() * rect.height() <= area)
                    if not whole or (rect.height() > _MAX_SHARE * box.height()
                                     and k < len(self._texts) - 1):
                        continue
                    spot = self._free_spot(rect.width(), rect.height(), box, around, strict)
                    if spot is not None:
                        break
                    if len(around.cursor) and self._waiting is None:
                        # Perhaps only the cursor was in the way: once it has moved a
                        # box's width on, the label is placed again (follow_keep_clear)
                        # rather than wait for the next layout. (Finding out whether it
                        # was is another whole search, at every cursor move.)
                        xs = [self.mapToScene(QtCore.QPointF(0.5 * (r[0] + r[2]), 0.0)).x()
                              for r in around.cursor]
                        reach = (self.mapToScene(QtCore.QPointF(rect.width(), 0.0)).x()
                                 - self.mapToScene(QtCore.QPointF(0.0, 0.0)).x())
                        self._waiting = (min(xs) - reach, max(xs) + reach)
                if spot is not None:
                    return spot
        return None

    def _word_width(self, content: str, below: float) -> tuple[float, ...]:
        """The width of ``content`` wrapped at every space (its widest word's), if
        narrower than ``below``: the last width a form is tried at.

        At 1024x768 and 150 % the blend's "not unique" at sweep 0.5, on one
        line, was 3 px wider than the room over its line between the cursor
        and the kept reference's jump at 1.0; on two it stands there.
        """
        words = content.split()
        if words[:1] == [ARROW]:   # the arrow stays with what it points at ("↑ 2,620")
            words[:2] = [" ".join(words[:2])]
        if len(words) < 2:
            return ()
        metrics = QtGui.QFontMetricsF(self.textItem.font())
        # One pixel over the widest word: Qt breaks inside a word it cannot fit.
        width = (math.ceil(max(metrics.horizontalAdvance(word) for word in words)) + 1.0
                 + 2.0 * self.textItem.document().documentMargin())
        return (width,) if width < below else ()

    def _join(self, earlier: list, box) -> None:
        """With no room of its own, lead to x from an earlier label that shows the
        same short form in the same colour (and so says the same of its own x), if any.

        At 1024x768 and 150 % the blend's "not unique" at sweep 0.5 took the
        only room, over the 1.5 line: alone, its box there with its one leader
        to 0.5 read as naming 1.5 alone; the 1.5 one, joined, adds its leader.
        (Wrapped, that one now has room on its own line.)
        """
        short = self._texts[-1]
        self.joined = next((other for other in reversed(earlier)
                            if other._texts[-1] == short == other.textItem.toPlainText()
                            and other.border.color() == self.border.color()), None)
        if self.joined is None:
            self.leader.setVisible(False)
            return
        text = self.joined.textItem
        rect = self.mapRectFromItem(text, text.boundingRect())
        self._lead(rect.left(), rect.top(), rect.width(), rect.height(), box.top())

    def _reach(self) -> float:
        """Pixels from this label's text box to where something drawn beside it may
        begin: the outer half of its border and the clearance."""
        return 0.5 * pen_width(self.border) + CLEARANCE

    def _surroundings(self, box, earlier, led) -> _Around:
        """What a spot must keep clear of, in this label's pixels (see :class:`_Around`):
        the boxes of the labels ``earlier``, the leaders of those ``led``."""
        curves = self._curve_segments()
        # The others' boxes and leaders as drawn: their borders' outer halves.
        taken = [self.mapRectFromScene(other.textItem.sceneBoundingRect()).adjusted(
            -0.5 * pen_width(other.border), -0.5 * pen_width(other.border),
            0.5 * pen_width(other.border), 0.5 * pen_width(other.border)) for other in earlier]
        leaders = [(self.mapFromItem(other.leader, other.leader.line().p1()),
                    self.mapFromItem(other.leader, other.leader.line().p2()))
                   for other in led]
        lines = self._keep_clear_lines()
        return _Around(
            curves=curves,
            taken=np.array([(r.left(), r.top(), r.right(), r.bottom()) for r in taken],
                           dtype=np.float64).reshape(-1, 4),
            leaders=np.array([((a.x(), a.y()), (b.x(), b.y())) for a, b in leaders],
                             dtype=np.float64).reshape(-1, 2, 2),
            cursor=np.array([(x - 0.5 * w, box.top(), x + 0.5 * w, box.bottom())
                             for x, w in lines], dtype=np.float64).reshape(-1, 4),
            heading=self._heading,
            leader_width=max((pen_width(other.leader.pen()) for other in led), default=0.0))

    def _keep_clear_lines(self) -> list[tuple[float, float]]:
        """The x and width of each line the box keeps clear of (the cursor), in this
        label's pixels."""
        vb = self.getViewBox()
        if self._keep_clear is None or vb is None or not hasattr(vb, "childGroup"):
            return []
        group = vb.childGroup
        lines = [line if isinstance(line, Line) else Line(float(line))
                 for line in self._keep_clear()]
        return [(self.mapFromItem(group, QtCore.QPointF(float(x), 0.0)).x(), w)
                for x, w in lines]

    def in_the_way(self) -> bool:
        """Whether the label is to be placed again since what it keeps clear of moved.

        Shown, its box now meets one of those lines; hidden for want of a spot
        clear of them, that spot is now clear.
        """
        if self.scene() is None or self._keep_clear is None or not self.isVisible():
            return False
        vb = self.getViewBox()
        if vb is None or not hasattr(vb, "childGroup"):
            return False
        lines = [line if isinstance(line, Line) else Line(float(line))
                 for line in self._keep_clear()]
        xs = [vb.childGroup.mapToScene(QtCore.QPointF(float(x), 0.0)).x() for x, _w in lines]
        # Which way the cursor goes: a label it runs into moves behind it if it
        # can (see _free_spot), not a few pixels ahead, to be pushed again.
        seen, self._seen = self._seen, xs
        self._heading = float(np.sign(sum(xs) - sum(seen))) if len(seen) == len(xs) else 0.0
        if self.squeezed:
            return self._waiting is not None and not any(
                self._waiting[0] <= x <= self._waiting[1] for x in xs)
        rect = self.textItem.sceneBoundingRect()
        reach = self._reach()
        return any(rect.left() - reach - 0.5 * w < x < rect.right() + reach + 0.5 * w
                   for x, (_x, w) in zip(xs, lines, strict=True))

    def _distance(self, left, w: float, span: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
        """Pixels between what the label names (x, 0 here, or its ``span`` in these
        pixels) and the arrow of a box ``w`` wide at ``left``, or the box itself."""
        left = np.asarray(left, dtype=np.float64)
        offset = self.arrow_offset()
        if offset is not None:
            return np.abs(left + offset)
        return np.maximum(0.0, np.maximum(left - span[1], span[0] - (left + w)))

    def _span_px(self) -> tuple[float, float]:
        """The label's span (or its x alone) in its pixels: x is 0."""
        vb = self.getViewBox()
        if self._span is None or vb is None or not hasattr(vb, "childGroup"):
            return (0.0, 0.0)
        lo, hi = sorted(self.mapFromItem(vb.childGroup, QtCore.QPointF(float(x), 0.0)).x()
                        for x in self._span)
        return (min(lo, 0.0), max(hi, 0.0))

    def _leader_lines(self, corners: np.ndarray, w: float, h: float, box_top: float,
                      span: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
        """``(K, 2, 2)`` the leader of a box at each top-left corner (NaN: none needed).

        From the box to the plot's top above x (0 here) when the box is away
        from x: up from the top edge when the box is over x, else from the
        middle of its side nearest x. A box over the label's ``span`` needs
        none, nor does one near x that hangs from the top. What is marked down
        the whole box (a gap's line or band) is led to across, from the middle
        of the side nearest it: a leader up to the top beside the blend's
        "not unique" line ran over the naive sum and the kept reference.
        """
        left, top = corners[:, 0], corners[:, 1]
        near = self._distance(left, w, span) <= _NEAR
        lines = np.empty((len(corners), 2, 2))
        if self._span is not None:
            after = left > span[1]
            lines[:, 0, 0] = np.where(after, left, left + w)
            lines[:, 1, 0] = np.where(after, span[1], span[0])
            lines[:, :, 1] = (top + 0.5 * h)[:, None]
            lines[near] = np.nan
            return lines
        over = (self._distance(left, w) <= _NEAR) | ((left <= 0.0) & (0.0 <= left + w))
        lines[:, 0, 0] = np.where(over, 0.0, np.where(left > 0.0, left, left + w))
        lines[:, 0, 1] = np.where(over, top, top + 0.5 * h)
        lines[:, 1] = (0.0, box_top + 1.0)
        lines[near & (top - box_top <= _HANG)] = np.nan
        return lines

    def _lead(self, left: float, top: float, w: float, h: float, box_top: float) -> None:
        """Show the leader from the box to the plot's top above x if the box is away from x."""
        (start, end), = self._leader_lines(np.array([(left, top)]), w, h, box_top,
                                           self._span_px())
        if np.isnan(start).any():
            self.leader.setVisible(False)
            return
        self.leader.setPen(self._leader_pen())
        self.leader.setLine(QtCore.QLineF(*start, *end))
        self.leader.setVisible(True)

    def _curve_segments(self) -> tuple[tuple[float, Polylines], ...]:
        """The obstacle curves in this label's pixels, those drawn with pens of one
        width together: ``(width, polylines)`` pairs."""
        vb = self.getViewBox()
        if self._obstacles is None or vb is None or not hasattr(vb, "childGroup"):
            return ()
        inverse, ok = self.sceneTransform().inverted()
        if not ok:
            return ()
        t = vb.childGroup.sceneTransform() * inverse
        by_width: dict[float, list[np.ndarray]] = {}
        for curve in self._obstacles():
            points, w = curve if isinstance(curve, Curve) else Curve(curve)
            p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
            px = np.column_stack([t.m11() * p[:, 0] + t.m21() * p[:, 1] + t.m31(),
                                  t.m12() * p[:, 0] + t.m22() * p[:, 1] + t.m32()])
            by_width.setdefault(float(w), []).append(px)
        # Worked out again only when the curves move on screen (not on a cursor move).
        key = tuple((np.array([w]), *lines) for w, lines in sorted(by_width.items()))
        last = self._lines
        if last is not None and len(last[0]) == len(key) and all(
                _same_arrays(a, b) for a, b in zip(last[0], key, strict=True)):
            return last[1]
        curves = tuple((w, lines) for w, lines in
                       ((w, Polylines(parts)) for w, parts in sorted(by_width.items()))
                       if len(lines))
        self._lines = (key, curves)
        return curves

    def _free_spot(self, w: float, h: float, box, around: _Around, strict: bool = False
                   ) -> tuple[float, float] | None:
        """The top-left corner of a box clear of everything around, nearest x; None if none is.

        Heights from the top down and spots across the box (the arrow over
        x, the label's own anchor, over its x, the box's two edges and evenly
        between; every pixel down); a spot is clear when its box as drawn,
        grown by :data:`CLEARANCE`, meets no curve's stroke
        (:func:`~quatlab.rendering.clear_spots.blocked_spots`, the curves of
        each pen width together), no label placed before, no leader of
        theirs and not the cursor, and its own leader meets neither their
        leaders nor their boxes (``strict``: nor a curve). Among the clear ones, the one
        whose arrow (or box) is nearest
        the top of the plot above x (or over its span), then the highest,
        then the earliest.
        """
        lo_x, hi_x = box.left() + MARGIN, box.right() - MARGIN - w
        lo_y, hi_y = box.top() + MARGIN, box.bottom() - MARGIN - h
        offset = self.arrow_offset()
        anchor = -self._fraction * w
        lefts = [-offset if offset is not None else anchor, anchor, -0.5 * w, 0.0, -w, lo_x,
                 hi_x, *np.linspace(lo_x, hi_x, _SPOTS)]
        lefts = list(dict.fromkeys(np.round(np.maximum(np.minimum(lefts, hi_x), lo_x), 1).tolist()))
        # Every _STEP px; on a plot taller than _HEIGHTS steps, that many evenly.
        step = max(_STEP, (hi_y - lo_y) / _HEIGHTS)
        tops = np.arange(lo_y, hi_y + 0.5, step) if hi_y > lo_y else [lo_y]
        tops = np.unique(np.round(tops, 1))   # ascending: from the top down
        corners = np.column_stack([np.tile(lefts, len(tops)), np.repeat(tops, len(lefts))])
        # The box as drawn, grown by the clearance: against the curves by half
        # each one's pen more (clear_spots), against the cursor and the labels
        # around in _clear_of_labels.
        c = self._reach()
        span = self._span_px()
        # Clear of all, then (on a cursor move) not within a box's width ahead
        # of the cursor, then nearest what it names (to 1 px), then highest,
        # then earliest.
        # What is marked down the whole box (a gap's line or band) is named by
        # a box over it at any height: only the way across counts.
        depth = corners[:, 1] - lo_y if self._span is None else 0.0
        reach = np.hypot(self._distance(corners[:, 0], w, span), depth)
        ahead = np.zeros(len(corners))
        for x in 0.5 * (around.cursor[:, 0] + around.cursor[:, 2]) if around.heading else ():
            near, far = sorted((x, x + around.heading * (w + 2.0 * c)))
            ahead += (corners[:, 0] - c < far) & (corners[:, 0] + w + c > near)
        ties = (corners[:, 1], np.round(reach), ahead)
        # What the curves leave clear depends on neither the cursor nor the
        # labels around: on a cursor move (or a paint, a re-layout) the same
        # curves and spots are not tested again.
        lefts = np.asarray(lefts, dtype=np.float64)
        asked = (lefts, tops, np.array([w, h, c]),
                 *(np.array([width]) for width, _lines in around.curves),
                 *(lines.points for _width, lines in around.curves),
                 *(lines.ends for _width, lines in around.curves))
        form = (self.textItem.toPlainText(), self.textItem.textWidth())
        cached = self._searches.get(form)
        if cached is not None and _same_arrays(cached[0], asked):
            blocked = cached[1]
        else:
            blocked = np.zeros(len(corners), dtype=bool)
            for width, segs in around.curves:
                blocked |= blocked_spots(lefts, tops, w, h, segs, c + 0.5 * width).reshape(-1)
            self._searches[form] = (asked, blocked)
        # The spots the curves leave clear, in order (lexsort: the last key
        # first, then the earliest), tested against the cursor and the labels
        # around a few at a time, up to the first clear one.
        order = np.lexsort((np.arange(len(corners)), *ties))
        order = order[~blocked[order]]
        start, size = 0, 16
        while start < len(order):
            batch = order[start:start + size]
            ok = self._clear_of_labels(corners[batch], w, h, box.top(), span, around)
            if strict and ok.any():
                # Nor the cursor: across it, the leader reads as pointing at it.
                lines = self._leader_lines(corners[batch[ok]], w, h, box.top(), span)
                ok[ok] = ~_cross_curves(lines, around.curves) \
                    & ~meets(lines, around.cursor).any(axis=1)
            if ok.any():
                x, y = corners[batch[int(np.argmax(ok))]]
                return float(x), float(y)
            start, size = start + len(batch), 4 * size
        return None

    def _clear_of_labels(self, corners: np.ndarray, w: float, h: float, box_top: float,
                         span: tuple[float, float], around: _Around) -> np.ndarray:
        """``(K,)`` whether the box at each top-left corner, with its leader, keeps
        clear of the cursor and of the labels placed before (their boxes and leaders).

        The box as drawn, grown by the clearance, meets neither the cursor nor
        a box as drawn; its leader crosses no leader and (grown by the same)
        meets no box; no leader meets the box grown by half a leader's pen more.
        """
        c = self._reach()
        taken = np.concatenate([around.taken, around.cursor])
        ok = overlaps(_grown(corners, w, h, c), taken) == 0
        if not len(around.taken):
            return ok
        # The costlier tests only for the spots still clear.
        at = np.flatnonzero(ok)
        lines = self._leader_lines(corners[at], w, h, box_top, span)
        clear = ((crossings(lines, around.leaders) == 0)
                 & ~meets(around.leaders, _grown(corners[at], w, h, c + 0.5 * around.leader_width)
                          ).any(axis=0))
        at, lines = at[clear], lines[clear]
        ok[:] = False
        ok[at[~meets(lines, around.taken + [-c, -c, c, c]).any(axis=1)]] = True
        return ok


class _Around(NamedTuple):
    """What a label's box keeps clear of, in its pixels: the curves (polylines)
    by the width of their pens (:meth:`BoxedLabel._curve_segments`), the boxes
    ``(T, 4)`` (as drawn, borders included) and leaders ``(L, 2, 2)`` of the
    labels placed before it, and the lines it keeps clear of (the cursor) as
    rectangles ``(C, 4)`` as wide as drawn, with the way they move."""

    curves: tuple[tuple[float, Polylines], ...]
    taken: np.ndarray
    leaders: np.ndarray
    cursor: np.ndarray
    #: The way the cursor is moving (-1, 0, 1 along x), on a cursor move.
    heading: float = 0.0
    #: The widest pen (px) of the leaders.
    leader_width: float = 0.0


def _cross_curves(lines: np.ndarray, curves: tuple[tuple[float, Polylines], ...]) -> np.ndarray:
    """``(K,)`` whether each leader ``(K, 2, 2)`` (NaN: none) meets a curve's centre line.

    Only the curves' segments within the leaders' bounds are tested.
    """
    hit = np.zeros(len(lines), dtype=bool)
    finite = np.isfinite(lines).all(axis=(1, 2))
    if not finite.any():
        return hit
    lo, hi = lines[finite].min(axis=(0, 1)), lines[finite].max(axis=(0, 1))
    for _width, polylines in curves:
        segs = polylines.segs
        inside = ((segs.max(axis=1) >= lo) & (segs.min(axis=1) <= hi)).all(axis=1)
        if inside.any():
            hit[finite] |= crossings(lines[finite], segs[inside]) > 0
    return hit


def _grown(corners: np.ndarray, w: float, h: float, by: float) -> np.ndarray:
    """``(K, 4)`` the ``w`` x ``h`` boxes at top-left ``corners`` ``(K, 2)``, grown by ``by``."""
    return np.column_stack([corners - by, corners + [w + by, h + by]])


def follow_keep_clear(stack: list) -> None:
    """Place a plot's labels again if one is in the way of a moved cursor (or may show again).

    From the first one in the way on, each placed again; cheap when none is
    (a few rectangles looked at): the plots call it on every cursor move.
    """
    # Those before the first in the way stay (a label depends on those before it).
    first = next((label for label in stack if label.in_the_way()), None)
    if first is not None:
        first.updateTextPos()


def _same_arrays(a: tuple, b: tuple) -> bool:
    """Whether two tuples of arrays hold the same shapes and values (NaN equal to NaN:
    the gaps of curves)."""
    return len(a) == len(b) and all(
        x.shape == y.shape and np.array_equal(x, y, equal_nan=x.dtype.kind == "f")
        for x, y in zip(a, b, strict=True))
