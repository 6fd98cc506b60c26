"""The great-circle panel of the S3 tab: the plane span(q0, q1) of R4, exact (docs/curves.md).

Every path of the two-key lesson lies in that plane, so its unit circle shows
them without distortion. SLERP walks the arc; NLERP walks the straight chord
(the un-normalized blend) and is pushed radially back onto the circle. ``q1``
and ``-q1`` are opposite points, so "naive" and "shortest" are the two ways
round. When ``q1 = +-q0`` there is no plane and the panel says so.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtCore, QtWidgets

from quatlab.app.i18n import _
from quatlab.math import s3
from quatlab.math.curves import METHODS
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
_LABEL_OFFSET = 1.13
_MARKER_SIZE = 13
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
        self.angle_text = pg.TextItem(color=FOREGROUND, anchor=(0.5, 0.5),
                                      fill=pg.mkBrush(255, 255, 255, 215))
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
            self.markers[m] = pg.ScatterPlotItem(
                size=_MARKER_SIZE if _slerp(m) else _MARKER_SIZE - 3,
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
            label.setFont(_bold_font())
            self.plot.addItem(label)
            self.labels[name] = label
        self.plot.setRange(xRange=(-1.3, 1.3), yRange=(-1.3, 1.3), padding=0)

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
                + f"<br><br><small>{exc}</small>")
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
        for label, xy in zip(self.labels.values(), ends, strict=True):
            label.setPos(*(_LABEL_OFFSET * xy))
        self.radii.setData(np.array([0, ends[1, 0], 0, ends[2, 0]]),
                           np.array([0, ends[1, 1], 0, ends[2, 1]]))

        omega = float(s3.plane_angle(q0, q1))
        arc = np.linspace(0.0, omega, 64)
        self.angle_arc.setData(_ANGLE_RADIUS * np.cos(arc), _ANGLE_RADIUS * np.sin(arc))
        # The arcs always run through the upper half (omega is in (0, pi) and
        # e2 points to q1), so the lower half-disc keeps the label clear of
        # them; a light plate keeps it readable over a radius or chord.
        self.angle_text.setPos(0.0, -0.6)
        self.angle_text.setHtml(
            "<span style='font-size:11pt'>"
            + _("∠(q0, q1) = {angle:.1f}° on S3<br>= a turn of 2 × {angle:.1f}° = "
                "{turn:.1f}°<br>cos = dot(q0, q1) = {dot:+.4f}").format(
                    angle=np.degrees(omega), turn=2 * np.degrees(omega), dot=s.dot)
            + "</span>")
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


def _finite_xy(xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ok = np.all(np.isfinite(xy), axis=-1)
    return xy[ok, 0], xy[ok, 1]


def _bold_font():
    from PyQt6 import QtGui

    font = QtGui.QFont()
    font.setPointSize(12)
    font.setBold(True)
    return font


