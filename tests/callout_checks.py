"""A plot's callouts as the viewer sees them, measured from the scene's items (not the placer's).

Shared by ``tests/test_callout_rules.py``; :func:`callout_problems` returns
what is wrong with the callouts of one plot, in words:

* **clipped**: a callout's text box reaches outside its plot's view box (the
  view box clips what it holds);
* **touches a curve**: a shown curve's stroke comes within :data:`GAP` px of
  a callout's box as drawn: its samples joined by quarter-pixel steps in the
  scene (gaps left open), each grown by half its pen's width, against the
  text box grown by half the border's width (a dashed curve of 2.4 px sat
  2.5 px from the text box, its stroke and the box's 1.5 px border 0.55 px
  apart: anti-aliased, they touch);
* **touches the cursor**: the t cursor line, grown by half its pen's width,
  or one of the dots it carries on the curves (their size and outline),
  comes within :data:`GAP` px of a callout's box as drawn;
* **leaders cross**: two callouts' leader lines meet (orientation tests);
* **leader through a box**: a leader runs through another callout's box;
* **boxes overlap**: two callouts' boxes overlap;
* a callout that draws no box but a leader from another's box (no room of
  its own) has that leader through no other box, crossing no leader.

Everything is read back from the items: the curves' own data mapped by
their own scene transforms, the text items' scene rectangles, the leader
items' lines mapped to the scene, the cursor line's scene position.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtCore

#: Pixels of background a callout's box keeps between its border and a curve's
#: stroke or the cursor (anti-aliasing blurs each edge by about half a pixel).
GAP = 1.0


def callouts(plot: pg.PlotItem) -> list[pg.TextItem]:
    """The callouts drawn in ``plot``: boxed text items shown with their text."""
    return [it for it in plot.getViewBox().childGroup.childItems()
            if isinstance(it, pg.TextItem) and it.isVisible() and it.textItem.isVisible()
            and it.border.style() != QtCore.Qt.PenStyle.NoPen]


def curve_points(item: pg.PlotDataItem, step: float = 1.0) -> np.ndarray:
    """``item``'s curve in scene pixels, consecutive finite samples joined by ``step``-px steps."""
    x, y = item.getData()
    if x is None or not len(x):
        return np.empty((0, 2))
    t = item.curve.sceneTransform()
    px = np.column_stack([t.m11() * x + t.m21() * y + t.m31(),
                          t.m12() * x + t.m22() * y + t.m32()])
    ok = np.all(np.isfinite(px), axis=-1)
    dense = [px[ok]]
    for a, b in zip(px[:-1][ok[:-1] & ok[1:]], px[1:][ok[:-1] & ok[1:]], strict=True):
        n = int(min(np.ceil(np.hypot(*(b - a)) / step), 16000)) + 1
        dense.append(a + np.linspace(0.0, 1.0, n)[:, None] * (b - a))
    return np.concatenate(dense)


def curve_segments(item: pg.PlotDataItem) -> np.ndarray:
    """``(S, 2, 2)`` ``item``'s curve in scene pixels: the segments between consecutive
    finite samples (a gap's NaN breaks the line)."""
    x, y = item.getData()
    if x is None or len(x) < 2:
        return np.empty((0, 2, 2))
    t = item.curve.sceneTransform()
    px = np.column_stack([t.m11() * x + t.m21() * y + t.m31(),
                          t.m12() * x + t.m22() * y + t.m32()])
    ok = np.all(np.isfinite(px), axis=-1)
    both = ok[:-1] & ok[1:]
    return np.stack([px[:-1][both], px[1:][both]], axis=1)


def curves_crossed(plot: pg.PlotItem, a, b) -> list[str]:
    """The shown curves of ``plot`` that the segment ``a``-``b`` (scene px) meets."""
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    out = []
    for item in shown_curves(plot):
        segs = curve_segments(item)
        near = ((segs.max(axis=1) >= lo) & (segs.min(axis=1) <= hi)).all(axis=1)
        if any(segments_meet(a, b, p, q) for p, q in segs[near]):
            out.append(item.name() or pg.mkPen(item.opts["pen"]).color().name())
    return out


def shown_curves(plot: pg.PlotItem) -> list[pg.PlotDataItem]:
    """The data curves shown in ``plot`` (not the cursor dots, not the marker lines)."""
    return [it for it in plot.listDataItems()
            if isinstance(it, pg.PlotDataItem) and it.isVisible()]


def distances(rect: QtCore.QRectF, pts: np.ndarray) -> np.ndarray:
    """``(N,)`` distance of each of ``pts`` ``(N, 2)`` from the closed ``rect`` (0 inside).

    >>> distances(QtCore.QRectF(0, 0, 10, 10), np.array([(5, 5), (13, 14), (-2, 5)])).tolist()
    [0.0, 5.0, 2.0]
    """
    dx = np.maximum(np.maximum(rect.left() - pts[:, 0], pts[:, 0] - rect.right()), 0.0)
    dy = np.maximum(np.maximum(rect.top() - pts[:, 1], pts[:, 1] - rect.bottom()), 0.0)
    return np.hypot(dx, dy)


def pen_width(pen) -> float:
    """Width in pixels a pen strokes (a cosmetic pen of width 0 draws 1 px)."""
    return max(pg.mkPen(pen).widthF(), 1.0)


def drawn_box(label) -> QtCore.QRectF:
    """A callout's box as drawn, in the scene: its text box and the outer half of its border."""
    half = 0.5 * pen_width(label.border)
    return label.textItem.sceneBoundingRect().adjusted(-half, -half, half, half)


def leader(label) -> tuple[np.ndarray, np.ndarray] | None:
    """The label's leader line in the scene, end points, or None when it has none shown."""
    line = getattr(label, "leader", None)
    if line is None or not line.isVisible():
        return None
    seg = line.line()
    a, b = line.mapToScene(seg.p1()), line.mapToScene(seg.p2())
    return np.array([a.x(), a.y()]), np.array([b.x(), b.y()])


def _orient(p, q, r) -> float:
    return np.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]))


def segments_meet(p1, p2, q1, q2) -> bool:
    """Whether the closed segments ``p1``-``p2`` and ``q1``-``q2`` meet (orientation tests).

    >>> segments_meet((0, 0), (10, 10), (0, 10), (10, 0))
    True
    >>> segments_meet((0, 0), (1, 1), (5, 0), (6, 1))
    False
    """
    d1, d2 = _orient(q1, q2, p1), _orient(q1, q2, p2)
    d3, d4 = _orient(p1, p2, q1), _orient(p1, p2, q2)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True

    def on(p, q, r) -> bool:   # r on the segment p-q, given the three are collinear
        return (min(p[0], q[0]) <= r[0] <= max(p[0], q[0])
                and min(p[1], q[1]) <= r[1] <= max(p[1], q[1]))

    return bool((d1 == 0 and on(q1, q2, p1)) or (d2 == 0 and on(q1, q2, p2))
                or (d3 == 0 and on(p1, p2, q1)) or (d4 == 0 and on(p1, p2, q2)))


def segment_hits_rect(a, b, rect: QtCore.QRectF) -> bool:
    """Whether the segment ``a``-``b`` meets the closed rectangle: an end inside, or a side met.

    (tests/test_lesson_scene_layout.py's test of the same name counts a
    segment collinear with a side, however far along the line, as a hit.)

    >>> r = QtCore.QRectF(0, 0, 10, 10)
    >>> segment_hits_rect((0, -20), (0, -5), r), segment_hits_rect((0, -20), (0, 5), r)
    (False, True)
    """
    def inside(p):
        return rect.left() <= p[0] <= rect.right() and rect.top() <= p[1] <= rect.bottom()

    c = [(rect.left(), rect.top()), (rect.right(), rect.top()),
         (rect.right(), rect.bottom()), (rect.left(), rect.bottom())]
    return bool(inside(a) or inside(b)) or any(segments_meet(a, b, c[i], c[(i + 1) % 4])
                                         for i in range(4))


def cursor_lines(plot: pg.PlotItem) -> list[tuple[float, float]]:
    """Scene x and pen width (px) of the plot's movable vertical lines (the t cursor)."""
    return [(line.mapToScene(QtCore.QPointF(0.0, 0.0)).x(), pen_width(line.currentPen))
            for line in plot.getViewBox().childGroup.childItems()
            if isinstance(line, pg.InfiniteLine) and line.isVisible() and line.movable
            and line.angle == 90]



def cursor_dots(plot: pg.PlotItem) -> list[tuple[np.ndarray, float]]:
    """Scene centre and diameter (px, outline included) of each dot drawn at the cursor."""
    out = []
    for item in plot.getViewBox().childGroup.childItems():
        if isinstance(item, pg.ScatterPlotItem) and item.isVisible() \
                and not isinstance(item.parentItem(), pg.PlotDataItem):
            t = item.sceneTransform()
            if hasattr(item, "groups"):  # CursorDots: curves that meet share a wider dot
                outline = pen_width(pg.mkPen(item.opts["pen"]))
                for x, y, size, _ in item.groups():
                    p = t.map(QtCore.QPointF(x, y))
                    out.append((np.array([[p.x(), p.y()]]), size + outline))
                continue
            for spot in item.points():
                p = t.map(spot.pos())
                out.append((np.array([[p.x(), p.y()]]),
                            float(spot.size()) + pen_width(spot.pen())))
    return out


def callout_problems(plot: pg.PlotItem, name: str = "") -> list[str]:
    """What breaks the callout rules in ``plot`` (module docstring), one line each."""
    problems = []
    labels = callouts(plot)
    view = plot.getViewBox().sceneBoundingRect()
    curves = [(it.name() or pg.mkPen(it.opts["pen"]).color().name(), curve_points(it, 0.25),
               pen_width(it.opts["pen"]))
              for it in shown_curves(plot)]
    boxes = [lb.textItem.sceneBoundingRect() for lb in labels]
    for lb, box in zip(labels, boxes, strict=True):
        text = lb.textItem.toPlainText().replace("\n", " / ")
        if not view.contains(box):
            problems.append(f"{name}: {text!r} clipped: {box} outside {view}")
        outline = drawn_box(lb)
        for curve, pts, width in curves:
            gap = distances(outline, pts) - 0.5 * width if len(pts) else np.empty(0)
            if len(gap) and gap.min() < GAP:
                problems.append(f"{name}: {text!r} touches curve {curve}: "
                                f"{np.sum(gap < GAP)} points of its stroke within {GAP} px "
                                f"(closest {gap.min():.2f} px)")
        for x, width in cursor_lines(plot):
            if outline.left() - 0.5 * width - GAP < x < outline.right() + 0.5 * width + GAP:
                problems.append(f"{name}: {text!r} touches the cursor at x = {x:.1f}")
        for centre, size in cursor_dots(plot):
            if distances(outline, centre)[0] - 0.5 * size < GAP:
                problems.append(f"{name}: {text!r} touches the cursor's dot at {centre[0]}")
    for i, (a, box_a) in enumerate(zip(labels, boxes, strict=True)):
        for j, (b, box_b) in enumerate(zip(labels, boxes, strict=True)):
            if i == j:
                continue
            pair = f"{a.textItem.toPlainText()[:20]!r} / {b.textItem.toPlainText()[:20]!r}"
            if i < j and box_a.intersects(box_b):
                problems.append(f"{name}: boxes overlap: {pair}")
            lead_a, lead_b = leader(a), leader(b)
            if lead_a is not None and segment_hits_rect(*lead_a, box_b):
                problems.append(f"{name}: leader through a box: {pair}")
            if i < j and lead_a is not None and lead_b is not None \
                    and segments_meet(*lead_a, *lead_b):
                problems.append(f"{name}: leaders cross: {pair}")
    # A callout with no room of its own may lead to its point from another's box
    # (rendering/plot_label.py): that leader too runs through no other box and
    # crosses no leader.
    joined = [line for it in plot.getViewBox().childGroup.childItems()
              if isinstance(it, pg.TextItem) and it.isVisible() and not it.textItem.isVisible()
              and (line := leader(it)) is not None]
    for line in joined:
        start = QtCore.QPointF(*line[0])
        for lb, box in zip(labels, boxes, strict=True):
            text = lb.textItem.toPlainText()[:20]
            if not drawn_box(lb).adjusted(-1, -1, 1, 1).contains(start) \
                    and segment_hits_rect(*line, box):
                problems.append(f"{name}: a box-less callout's leader through {text!r}")
            if (other := leader(lb)) is not None and segments_meet(*line, *other):
                problems.append(f"{name}: a box-less callout's leader crosses {text!r}'s")
    return problems
