"""The great-circle panel of the S3 tab: the plane span(q0, q1) of R4, exact (docs/curves.md).

Every path of the two-key lesson lies in that plane, so its unit circle shows
them without distortion. SLERP walks the arc; NLERP walks the straight chord
(the un-normalized blend) and is pushed radially back onto the circle. ``q1``
and ``-q1`` are opposite points, so "naive" and "shortest" are the two ways
round. When ``q1 = +-q0`` there is no plane and the panel says so.
"""

from __future__ import annotations

import itertools

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtCore, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.model.explain import glue_formulas
from quatlab.math import s3
from quatlab.math.curves import METHODS
from quatlab.rendering.label_place import (
    Segments,
    costs,
    covered,
    pair_segments,
    polyline_segments,
)
from quatlab.rendering.plot_items import method_pen
from quatlab.rendering.style import BACKGROUND, FOREGROUND, METHOD_COLORS, METHOD_DASHED

__all__ = ["GreatCircleView", "ENDPOINT_COLOUR", "GUIDE_COLOUR"]

_ENDPOINT_COLOUR = "#202020"
_GUIDE_COLOUR = "#9A9A9A"
_CIRCLE_COLOUR = "#B0B0B0"
# Chords are the un-normalized intermediate, not a path the rotation takes:
# thinner than the paths, so the eye reads them as construction lines.
_CHORD_WIDTH = 1.4
_ARC_WIDTHS = (6.0, 9.0)
_ANGLE_RADIUS = 0.28
_MARKER_SIZE = 13
# Pixels between the angle's value and the middle of its arc (a thin guide, no ball).
_ARC_REACH = 3.0
# The angle's value may stand farther from its arc's middle than a point's
# name from its point (the arc is long, and inside the circle the chords and
# rays leave little room), and an axis or ray through it costs more than
# one beside a point's name: a number crossed by a line misreads.
_ARC_FAR_COST = 1.0
_ARC_TURNS = tuple(sorted(range(-180, 180, 15), key=abs))
_ARC_FARTHER = (0.0, 6.0, 12.0, 20.0, 30.0, 45.0, 60.0)
_ARC_GUIDE_COST = 0.6
# A pixel of the circle, a chord or a path under the angle's value costs this many
# of a guide's: at 1024x768 and 150 % "90.0°" (half-turn) took a place over 22 px
# of the circle rather than one over a ray, whose cost was about the same.
_ARC_LINE_COST = 3.0
# Pixels kept between an endpoint label and any ball or other label: the
# label of -q1 sat on the balls at q0 when the two keys were 10 deg apart.
_LABEL_GAP = 3.0
# Directions tried for an endpoint label, degrees from straight outwards
# (nearest first), and extra pixels beyond the closest clear distance.
_LABEL_TURNS = (0, 30, -30, 60, -60, 90, -90, 120, -120, 150, -150, 180)
_LABEL_FARTHER = (0.0, 8.0, 18.0, 32.0, 50.0)
# What a spot's distance from its point and its turn away from straight
# outwards cost, per pixel and per degree, next to a pixel of line covered: a
# label crossing a few pixels of a thin guide beside its point reads better
# than a clear one 50 px away, which no longer reads as its name.
_FAR_COST = 4.0
_TURN_COST = 0.04
# A pixel of the faint guides (axes, rays, radii) covered, next to one of the
# circle, a path or a chord.
_GUIDE_COST = 0.3
ENDPOINT_COLOUR = _ENDPOINT_COLOUR
#: The guides' grey (the rays from the centre), named in the S3 tab's legend.
GUIDE_COLOUR = _GUIDE_COLOUR


def _slerp(method: str) -> bool:
    return method.endswith("slerp")


def _family_rank(method: str) -> int:
    # Same convention as the plots: shortest is the second of each family, so
    # its solid line is the wide outline and its dashes are shifted by one.
    return 1 if method.startswith("shortest") else 0


class GreatCircleView(QtWidgets.QWidget):
    """The unit circle of span(q0, q1) with chords, arcs, endpoints and current points.

    Attributes
    ----------
    paths : dict of str to pyqtgraph.PlotDataItem
        The four methods' paths in plane coordinates (NLERP: the normalized
        points, i.e. the chord projected onto the circle).
    chords : dict of str to pyqtgraph.PlotDataItem
        ``"naive"`` and ``"shortest"``: the un-normalized NLERP blend.
    markers : dict of str to pyqtgraph.ScatterPlotItem
        The four methods' points at the current t, and ``"chord_naive"`` /
        ``"chord_shortest"``, the blend at t before normalizing.
    message : QLabel
        Shown instead of the plot when q1 = +-q0 (no plane).
    basis : PlaneBasis or None
        None while degenerate.
    """

    def __init__(self, state, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self.basis: s3.PlaneBasis | None = None
        self.stack = QtWidgets.QStackedLayout(self)

        self.plot = pg.PlotWidget(background=BACKGROUND)
        self.plot.setObjectName("great_circle")
        self.plot.setAspectLocked(True)
        self.plot.hideAxis("left")
        self.plot.hideAxis("bottom")
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(False, False)
        self.plot.hideButtons()
        # Axes of the plane coordinates: faint, through the centre. x is the
        # q0 direction by construction of the basis.
        for angle in (0, 90):
            self.plot.addItem(pg.InfiniteLine((0, 0), angle=angle,
                                              pen=pg.mkPen(_CIRCLE_COLOUR, width=0.6)))
        circle = s3.circle_points(361)
        self.circle = self.plot.plot(circle[:, 0], circle[:, 1],
                                     pen=pg.mkPen(_CIRCLE_COLOUR, width=1.5))
        self.angle_arc = self.plot.plot([], [], pen=pg.mkPen(_GUIDE_COLOUR, width=1.2))
        self.radii = self.plot.plot([], [], pen=pg.mkPen(_GUIDE_COLOUR, width=0.8,
                                                         style=QtCore.Qt.PenStyle.DotLine),
                                    connect="pairs")
        # The angle's value beside its arc, placed like the endpoints' labels. The
        # relation it stands in (half the turn, cos = dot) is told in the text
        # under the panels: a block of three lines in the lower half-disc
        # covered the circle and -q1's side at 1024 x 768 and 150 %.
        self.angle_text = pg.TextItem(color=FOREGROUND, anchor=(0.5, 0.5))
        self.angle_text.setFont(_label_font(bold=False))
        self.plot.addItem(self.angle_text)

        # Solid (SLERP) below dashed (NLERP), the wide shortest SLERP lowest:
        # coinciding arcs stay visible, as in the angle plots.
        order = sorted(METHODS, key=lambda m: (not _slerp(m), -_family_rank(m)))
        self.chords = {}
        for key in ("naive", "shortest"):
            pen = method_pen(METHOD_COLORS[f"{key}_nlerp"], True, _family_rank(key),
                             width=_CHORD_WIDTH)
            self.chords[key] = self.plot.plot([], [], pen=pen, connect="finite")
        self.rays = self.plot.plot([], [], pen=pg.mkPen(_GUIDE_COLOUR, width=0.8),
                                   connect="pairs")
        self.paths = {}
        for m in order:
            # Wider solid arcs than in the plots: the dashed NLERP image lies
            # exactly on its SLERP arc and must not hide it.
            width = _ARC_WIDTHS[_family_rank(m)] if _slerp(m) else None
            pen = method_pen(METHOD_COLORS[m], METHOD_DASHED[m], _family_rank(m), width=width)
            self.paths[m] = self.plot.plot([], [], pen=pen, connect="finite")

        self.markers = {}
        for key in ("naive", "shortest"):
            # Hollow: the blend before normalizing, a construction point.
            self.markers[f"chord_{key}"] = pg.ScatterPlotItem(
                size=_MARKER_SIZE - 4, brush=pg.mkBrush(BACKGROUND),
                pen=pg.mkPen(METHOD_COLORS[f"{key}_nlerp"], width=2))
        for m in order:
            # SLERP discs, NLERP squares: the two families differ without colour.
            # Where the two meet (at t = 0.5 NLERP is SLERP) the square stands on
            # the disc with a ring of it round it: at 13 and 10 px the square's
            # outline covered the disc's rim, and naive SLERP vanished.
            self.markers[m] = pg.ScatterPlotItem(
                size=_MARKER_SIZE + 3 if _slerp(m) else _MARKER_SIZE - 5,
                symbol="o" if _slerp(m) else "s",
                brush=pg.mkBrush(METHOD_COLORS[m]), pen=pg.mkPen(BACKGROUND, width=1))
        for item in self.markers.values():
            item.setZValue(20)
            self.plot.addItem(item)

        self.endpoints = pg.ScatterPlotItem(size=9, brush=pg.mkBrush(_ENDPOINT_COLOUR),
                                            pen=None)
        self.endpoints.setZValue(30)
        self.plot.addItem(self.endpoints)
        self.labels = {}
        for name in ("q0", "q1", "−q1"):
            label = pg.TextItem(name, color=_ENDPOINT_COLOUR, anchor=(0.5, 0.5))
            label.setFont(_label_font(bold=True))
            self.plot.addItem(label)
            self.labels[name] = label
        self.plot.setRange(xRange=(-1.3, 1.3), yRange=(-1.3, 1.3), padding=0)
        self._ends = np.zeros((0, 2))
        self._arc_middle = np.zeros(2)
        self._placing = False
        # Labels are placed in pixels: again whenever the plot's scale changes,
        # after framing the circle for them (_fit_range).
        vb = self.plot.getViewBox()
        vb.sigResized.connect(self._place_labels)
        vb.sigTransformChanged.connect(self._place_labels)

        self.message = QtWidgets.QLabel()
        self.message.setObjectName("degenerate_message")
        self.message.setWordWrap(True)
        self.message.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        self.message.setStyleSheet(f"background: {BACKGROUND}; color: {FOREGROUND};"
                                   " font-size: 13pt; padding: 24px;")
        self.stack.addWidget(self.plot)
        self.stack.addWidget(self.message)

    @property
    def degenerate(self) -> bool:
        return self.basis is None

    def on_endpoints(self) -> None:
        s = self.state
        q0, q1 = s.q0, s.q1
        try:
            self.basis = s3.plane_basis(q0, q1)
        except s3.DegeneratePlaneError as exc:
            self.basis = None
            same = s.dot > 0
            self.message.setText(
                "<b>" + _("No great circle to draw.") + "</b><br><br>"
                + (_("q1 = q0: there is no rotation between the keys, so every method "
                     "stays at q0.") if same else
                   _("q1 = −q0: the <i>same rotation</i> stored with opposite signs. "
                     "q0 and q1 are antipodes of S3, every great circle through q0 also "
                     "passes through q1, so naive SLERP has no preferred way round and "
                     "naive NLERP's chord runs through the centre (it collapses at "
                     "t = 0.5). Shortest SLERP/NLERP flip q1 and stay at q0."))
                # The math module's words are ASCII: its "-q0" and "1e-09" get minus signs.
                + "<br><br><small>" + glue_formulas(str(exc).replace("+-", "±")
                                                    .replace("-q", "−q")) + "</small>")
            self.stack.setCurrentWidget(self.message)
            return
        self.stack.setCurrentWidget(self.plot)
        b = self.basis
        curves = s.curves
        for m in METHODS:
            xy = s3.path_in_plane(curves[m].quats, b)
            self.paths[m].setData(xy[:, 0], xy[:, 1])
        for key in ("naive", "shortest"):
            xy = s3.to_plane(s3.chord(q0, q1, curves.t, shortest=key == "shortest"), b)
            self.chords[key].setData(xy[:, 0], xy[:, 1])

        ends = s3.to_plane(np.stack([q0, q1, -q1]), b)
        self.endpoints.setData(ends[:, 0], ends[:, 1])
        self._ends = ends
        self.radii.setData(np.array([0, ends[1, 0], 0, ends[2, 0]]),
                           np.array([0, ends[1, 1], 0, ends[2, 1]]))

        omega = float(s3.plane_angle(q0, q1))
        arc = np.linspace(0.0, omega, 64)
        self.angle_arc.setData(_ANGLE_RADIUS * np.cos(arc), _ANGLE_RADIUS * np.sin(arc))
        self._arc_middle = _ANGLE_RADIUS * np.array([np.cos(omega / 2), np.sin(omega / 2)])
        self.angle_text.setText(f"{np.degrees(omega):.1f}°")
        self.on_t()

    def on_t(self) -> None:
        if self.basis is None:
            return
        s = self.state
        at = s.at_t()
        for m in METHODS:
            xy = s3.path_in_plane(at[m].quats, self.basis)
            self.markers[m].setData(*_finite_xy(xy))
        rays = []
        for key in ("naive", "shortest"):
            c = s3.to_plane(s3.chord(s.q0, s.q1, s.t, shortest=key == "shortest"), self.basis)
            self.markers[f"chord_{key}"].setData([c[0]], [c[1]])
            p = s3.project_to_circle(c)
            if np.all(np.isfinite(p)):
                # The ray from the centre through the blend: normalizing slides
                # the chord point along it onto the circle.
                rays += [(0.0, 0.0), tuple(p)]
        rays = np.array(rays, float).reshape(-1, 2)
        self.rays.setData(rays[:, 0], rays[:, 1])
        self._place_labels()

    def _reach(self) -> float:
        """Pixels from an endpoint's centre to its label: clear of the largest ball on it."""
        return max(self.markers[m].opts["size"] for m in METHODS) / 2.0 + 1.0 + _LABEL_GAP

    def _fit_range(self) -> None:
        """Frame the circle as large as the plot holds it with each endpoint's label
        straight outwards from its point, inside the plot.

        A fixed range of 1.3 radii left a label 0.3 radii: at 1024 x 768 and
        150 % a label of a point near the top or bottom had no room outwards
        and was pushed onto the circle or a chord. The label boxes grow
        outwards with the circle's radius ``s`` (pixels), so the width and
        height needed rise with ``s``: the largest ``s`` that fits is found
        by bisection, and the view centred on what it holds. Framed again
        before each placing (the labels' fonts follow the zoom), but the
        range is set only when it changes: one preset keeps one framing across t.
        """
        vb = self.plot.getViewBox()
        w, h = vb.width(), vb.height()
        if self.basis is None or not len(self._ends) or w < 8 or h < 8:
            return
        pad = max(item.opts["size"] for item in self.markers.values()) / 2.0 + 1.0
        reach = self._reach()
        # Each item's extent in x and y, pixels from the centre, is s * slope + offset
        # at its high end and at its low end: the circle (and a ball on it), and
        # each endpoint's label straight outwards from its point.
        slopes_high, offsets_high = [np.ones(2)], [np.full(2, pad)]
        slopes_low, offsets_low = [-np.ones(2)], [np.full(2, -pad)]
        for label, end in zip(self.labels.values(), self._ends, strict=True):
            box = label.textItem.boundingRect()
            half = np.array([box.width(), box.height()]) / 2.0
            d = end / max(float(np.hypot(*end)), 1e-12)
            with np.errstate(divide="ignore"):
                edge = float(np.min(np.where(np.abs(d) > 1e-12, half / np.abs(d), np.inf)))
            out = d * (edge + reach)
            slopes_high.append(end)
            offsets_high.append(out + half)
            slopes_low.append(end)
            offsets_low.append(out - half)
        high, c_high = np.array(slopes_high), np.array(offsets_high)
        low, c_low = np.array(slopes_low), np.array(offsets_low)

        def extent(r):
            return (r * high + c_high).max(axis=0), (r * low + c_low).min(axis=0)

        room = np.array([w, h]) - 4.0
        lo_s, hi_s = 1.0, 0.5 * float(min(w, h))
        for _step in range(40):
            mid = 0.5 * (lo_s + hi_s)
            top, bottom = extent(mid)
            lo_s, hi_s = (mid, hi_s) if np.all(top - bottom <= room) else (lo_s, mid)
        top, bottom = extent(lo_s)
        centre = 0.5 * (top + bottom) / lo_s
        half = np.array([w, h]) / (2.0 * lo_s)
        want = np.array([centre - half, centre + half]).T  # [[x0, x1], [y0, y1]]
        if not np.allclose(vb.viewRange(), want, rtol=0.0, atol=1e-6 / lo_s):
            self.plot.setRange(xRange=tuple(want[0]), yRange=tuple(want[1]), padding=0)

    def _place_labels(self, *_args) -> None:
        """Put q0, q1 and -q1 beside their points, clear of every ball, label and line.

        In scene pixels: each label tries spots around its point (straight
        outwards first, then turning away, then farther out) scored by
        :func:`quatlab.rendering.label_place.costs`, plus its distance and
        turn; the balls and the labels placed before are boxes it must not
        overlap, the circle, paths, chords, guides and axes are lines it
        covers as little as it can.
        """
        if self.basis is None or self._placing or not len(self._ends):
            return
        self._placing = True
        try:
            self._place_labels_now()
        finally:
            self._placing = False

    def _to_scene(self):
        """``f(xy)``: plane coordinates ``(N, 2)`` to scene pixels (the plot has no rotation)."""
        vb = self.plot.getViewBox()
        o = vb.mapViewToScene(QtCore.QPointF(0.0, 0.0))
        ex = vb.mapViewToScene(QtCore.QPointF(1.0, 0.0))
        ey = vb.mapViewToScene(QtCore.QPointF(0.0, 1.0))
        origin = np.array([o.x(), o.y()])
        m = np.array([[ex.x() - o.x(), ey.x() - o.x()], [ex.y() - o.y(), ey.y() - o.y()]])
        return lambda xy: np.asarray(xy, float).reshape(-1, 2) @ m.T + origin

    def ball_rects(self) -> np.ndarray:
        """``(B, 4)`` scene-pixel boxes ``(left, top, right, bottom)`` of every ball drawn."""
        to_px = self._to_scene()
        rects = []
        for item in (self.endpoints, *self.markers.values()):
            if not item.isVisible():
                continue
            x, y = item.getData()
            half = item.opts["size"] / 2.0 + item.opts["pen"].widthF() / 2.0
            for px, py in to_px(np.column_stack([x, y])):
                if np.isfinite(px) and np.isfinite(py):
                    rects.append((px - half, py - half, px + half, py + half))
        return np.array(rects, float).reshape(-1, 4)

    def _lines(self, to_px) -> tuple[Segments, Segments]:
        """The drawn lines as scene-pixel segments: the circle, paths and chords, and the
        thin guides (axes, rays, radii, the angle's arc), which a label may cross more readily."""
        vb = self.plot.getViewBox()
        (x0, x1), (y0, y1) = vb.viewRange()
        axes = np.array([[(x0, 0.0), (x1, 0.0)], [(0.0, y0), (0.0, y1)]], float)
        main, guides = [], [to_px(axes.reshape(-1, 2)).reshape(-1, 2, 2)]
        for item in (self.circle, *self.chords.values(), *self.paths.values(), self.angle_arc):
            x, y = item.getData()
            if x is not None and len(x):
                (guides if item is self.angle_arc else main).append(
                    polyline_segments(to_px(np.column_stack([x, y]))))
        for item in (self.radii, self.rays):
            x, y = item.getData()
            if x is not None and len(x):
                pairs = pair_segments(np.column_stack([x, y, np.zeros(len(x))]))[:, :2]
                guides.append(polyline_segments(to_px(pairs)))
        return Segments(np.concatenate(main)), Segments(np.concatenate(guides))

    def _place_labels_now(self) -> None:
        self._fit_range()
        to_px = self._to_scene()
        vb = self.plot.getViewBox()
        frame = vb.sceneBoundingRect()
        view = (frame.left(), frame.top(), frame.right(), frame.bottom())
        segs, guides = self._lines(to_px)
        g = _LABEL_GAP
        taken = [tuple(r) for r in self.ball_rects() + (-g, -g, g, g)]
        centre = to_px([(0.0, 0.0)])[0]
        reach = self._reach()
        labels = list(self.labels.values())
        cands = [_candidates(label, end, centre, reach)
                 for label, end in zip(labels, to_px(self._ends), strict=True)]
        # The labels placed first take the best spots: with the keys close
        # together one order can box the last label in (off the plot), so
        # every order is tried and the cheapest in total taken (the first of equals).
        # Each spot costs what label_place.costs says plus its distance and turn.
        # The lines a spot covers are the same in every order: clipped once.
        cover = [covered(rects, segs) for rects, _penalty in cands]
        guide = [_GUIDE_COST * costs(rects, guides, by_length=True) for rects, _penalty in cands]
        chosen, least = None, np.inf
        for order in itertools.permutations(range(len(labels))):
            boxes, total, placed = {}, 0.0, list(taken)
            for k in order:
                rects, penalty = cands[k]
                cost = (costs(rects, segs, placed, view, by_length=True, cover=cover[k])
                        + guide[k] + penalty)
                i = int(np.argmin(cost))  # the first of equals: the preferred spot
                left, top, right, bottom = boxes[k] = rects[i]
                total += float(cost[i])
                placed.append((left - g, top - g, right + g, bottom + g))
            if total < least:
                chosen, least = boxes, total
        # The angle's value last, beside the middle of its arc, clear of the endpoints' labels.
        placed = taken + [(left - g, top - g, right + g, bottom + g)
                          for left, top, right, bottom in chosen.values()]
        rects, penalty = _candidates(self.angle_text, to_px([self._arc_middle])[0], centre,
                                     _ARC_REACH, _ARC_FAR_COST, _ARC_TURNS, _ARC_FARTHER)
        cost = (_ARC_LINE_COST * costs(rects, segs, placed, view, by_length=True)
                + _ARC_GUIDE_COST * costs(rects, guides, by_length=True) + penalty)
        chosen[len(labels)] = rects[int(np.argmin(cost))]
        for k, label in enumerate([*labels, self.angle_text]):
            left, top, right, bottom = chosen[k]
            label.setPos(vb.mapSceneToView(QtCore.QPointF((left + right) / 2,
                                                          (top + bottom) / 2)))


def _candidates(label, end: np.ndarray, centre: np.ndarray, reach: float,
                far_cost: float = _FAR_COST, turns=_LABEL_TURNS, farther=_LABEL_FARTHER
                ) -> tuple[np.ndarray, np.ndarray]:
    """Boxes ``(K, 4)`` ``(left, top, right, bottom)`` for ``label`` beside its point ``end``
    (pixels), and what each costs for its distance and turn.

    Straight outwards from the circle's ``centre`` first, then turning away
    from it, then farther out; each box clears a disc of ``reach`` about the point.
    """
    box = label.textItem.boundingRect()
    a, b = box.width() / 2.0, box.height() / 2.0
    out = end - centre
    heading = np.arctan2(out[1], out[0]) if np.hypot(*out) > 1e-9 else 0.0
    turns = np.asarray(turns, float)
    way = heading + np.radians(turns)
    d = np.column_stack([np.cos(way), np.sin(way)])   # (T, 2), a unit vector per turn
    # The box's edge along d: its half-width or half-height over d's share of that axis.
    ad = np.abs(d)
    with np.errstate(divide="ignore"):
        edge = np.minimum(np.where(ad[:, 0] > 1e-12, a / ad[:, 0], np.inf),
                          np.where(ad[:, 1] > 1e-12, b / ad[:, 1], np.inf))
    further = np.asarray(farther, float)[:, None]    # (F, 1): each farther ring, every turn
    c = end + d * (edge + reach + further)[..., None]   # (F, T, 2)
    half = np.array([a, b])
    rects = np.concatenate([c - half, c + half], axis=-1).reshape(-1, 4)
    penalty = (far_cost * further + _TURN_COST * np.abs(turns)).reshape(-1)
    return rects, penalty


def _finite_xy(xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ok = np.all(np.isfinite(xy), axis=-1)
    return xy[ok, 0], xy[ok, 1]


def _label_font(bold: bool):
    """The endpoints' labels' font (bold), or the angle's."""
    from PyQt6 import QtGui

    font = QtGui.QFont()
    font.setPointSize(12 if bold else 10)
    font.setBold(bold)
    return font


