"""The S3 view: why ``-q`` is "the long way", drawn on the 3-sphere (docs/curves.md).

Two panels that follow the lesson's :class:`~quatlab.app.model.state.LessonState`
(the same endpoints and t as the two-key lesson):

* :class:`GreatCircleView` (2D, exact): every path of the lesson lies in the
  plane span(q0, q1) of R4, so that plane's unit circle shows them without
  distortion. SLERP walks the arc; NLERP walks the straight chord (the
  un-normalized blend) and is pushed radially back onto the circle. ``q1``
  and ``-q1`` are opposite points, so "naive" and "shortest" are the two ways
  round. When ``q1 = +-q0`` there is no plane and the panel says so.
* :class:`StereographicView` (3D): the whole of S3 projected from a pole onto
  R3, with the four paths as curves, the endpoints and ``-q1`` as points,
  and the axis-angle of the current rotations beside it.

Geometry comes from :mod:`quatlab.math.s3`; this module only draws it. Paths
are recomputed on ``"endpoints"``; ``"t"`` only moves the markers.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pyqtgraph.opengl as gl
from PyQt6 import QtCore, QtWidgets

from quatlab.app.qt.scrubber import Scrubber
from quatlab.math import quaternion as Q
from quatlab.math import s3
from quatlab.math.curves import METHOD_LABELS, METHODS
from quatlab.rendering.gl_view import GLWindowView
from quatlab.rendering.plot_items import method_pen
from quatlab.rendering.style import (
    BACKGROUND,
    FOREGROUND,
    METHOD_COLORS,
    METHOD_DASHED,
    SCENE_BACKGROUND,
    rgba,
)

__all__ = ["VIEW_NAME", "TITLE", "create", "S3View", "GreatCircleView", "StereographicView",
           "POLES", "split_finite"]

VIEW_NAME = "s3"
TITLE = "S3 view"

#: Projection poles offered by the stereographic panel: label -> pole(q0).
#: "w = -1" is the textbook choice (the identity lands on the origin);
#: "-q0" puts q0 on the origin, so every point is the rotation from q0.
POLES = {
    "w = −1": lambda q0: s3.DEFAULT_POLE,
    "−q0": lambda q0: -q0,
    # Off every preset's plane: great circles through neither pole stay
    # circles, so the four paths show as curves instead of one straight line.
    "oblique": lambda q0: _OBLIQUE_POLE,
}
_OBLIQUE_POLE = np.array([-0.8, 0.3, -0.4, 0.33]) / np.linalg.norm([-0.8, 0.3, -0.4, 0.33])

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
# The stereographic camera frames the endpoints, but never farther than this:
# a stored q1 next to the pole maps very far out, and framing it would shrink
# the unit ball (where the short way lives) to a dot.
_MAX_FRAME_RADIUS = 6.0
_GL_PATH_WIDTH = 3.0
_POINT_RADIUS = 0.03
_MARKER_RADIUS = 0.04


def _slerp(method: str) -> bool:
    return method.endswith("slerp")


def _family_rank(method: str) -> int:
    # Same convention as the plots: shortest is the second of each family, so
    # its solid line is the wide outline and its dashes are shifted by one.
    return 1 if method.startswith("shortest") else 0


def split_finite(points: np.ndarray) -> list[np.ndarray]:
    """Runs of consecutive finite rows of ``points`` ``(N, D)``, each at least 2 long.

    GL line strips cannot skip NaN the way pyqtgraph's ``connect="finite"``
    does, so a path with a gap becomes several strips.
    """
    ok = np.all(np.isfinite(points), axis=-1)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], ok.astype(np.int8), [0]))))
    return [points[a:b] for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a >= 2]


# --------------------------------------------------------------------------- great circle


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
                "<b>No great circle to draw.</b><br><br>"
                + ("q1 = q0: there is no rotation between the keys, so every method "
                   "stays at q0." if same else
                   "q1 = −q0: the <i>same rotation</i> stored with opposite signs. "
                   "q0 and q1 are antipodes of S3, every great circle through q0 also "
                   "passes through q1, so naive SLERP has no preferred way round and "
                   "naive NLERP's chord runs through the centre (it collapses at "
                   "t = 0.5). Shortest SLERP/NLERP flip q1 and stay at q0.")
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
            f"<span style='font-size:11pt'>∠(q0, q1) = {np.degrees(omega):.1f}°<br>"
            f"cos = dot(q0, q1) = {s.dot:+.4f}</span>")
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


# --------------------------------------------------------------------------- stereographic


class StereographicView(QtWidgets.QWidget):
    """S3 projected from a pole onto R3, with the four paths and the current rotations.

    Attributes
    ----------
    pole_box : QComboBox
        One entry per :data:`POLES`.
    segments : dict of str to list of GLLinePlotItem
        Each method's path, one strip per finite run.
    points : dict of str to GLMeshItem
        Balls at q0, q1 and -q1 (hidden where a point is the pole).
    markers : dict of str to GLMeshItem
        The four methods' points at t.
    axis_angle : QLabel
        Axis and angle of each method's rotation at t.
    """

    def __init__(self, state, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QtWidgets.QHBoxLayout()
        bar.setContentsMargins(6, 2, 6, 0)
        bar.addWidget(QtWidgets.QLabel("Project S3 from the pole"))
        self.pole_box = QtWidgets.QComboBox()
        self.pole_box.setObjectName("pole_box")
        self.pole_box.addItems(list(POLES))
        self.pole_box.setToolTip(
            "w = −1: the identity lands on the origin.\n−q0: q0 lands on the origin and a "
            "point lies along its rotation axis (from q0) at tan(angle / 4);\nthe short "
            "way stays inside the unit ball, the long way runs outside.")
        self.pole_box.currentIndexChanged.connect(self.on_endpoints)
        bar.addWidget(self.pole_box)
        bar.addStretch(1)
        layout.addLayout(bar)

        # A native GL window like the lesson scenes: a single QOpenGLWidget
        # anywhere in the window would slow every repaint of every tab
        # (see GLWindowView).
        self.view = GLWindowView()
        self.view.widget.setObjectName("stereographic")
        self.view.setBackgroundColor(SCENE_BACKGROUND)
        self.view.widget.setMinimumSize(240, 200)
        layout.addWidget(self.view.widget, 1)
        # The unit sphere (image of the equator of the pole, dot(q, pole) = 0)
        # as three great circles: enough to judge inside/outside and depth.
        c = s3.circle_points(121)
        z = np.zeros(len(c))
        for pts in (np.c_[c, z], np.c_[c[:, 0], z, c[:, 1]], np.c_[z, c]):
            self.view.addItem(gl.GLLinePlotItem(pos=pts, color=(0, 0, 0, 0.22), width=1.0,
                                                antialias=True, mode="line_strip"))
        axes = np.array([[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1]],
                        float)
        self.view.addItem(gl.GLLinePlotItem(pos=axes, color=(0, 0, 0, 0.12), mode="lines"))
        self.segments: dict[str, list[gl.GLLinePlotItem]] = {m: [] for m in METHODS}
        self._pool: dict[str, list[gl.GLLinePlotItem]] = {}
        # Points are small lit spheres: GLScatterPlotItem sprites come out
        # white on Mesa's llvmpipe, whatever colour they are given.
        self.points = {name: _ball(_ENDPOINT_COLOUR, _POINT_RADIUS)
                       for name in ("q0", "q1", "−q1")}
        self.markers = {m: _ball(METHOD_COLORS[m], _MARKER_RADIUS) for m in METHODS}
        for item in (*self.points.values(), *self.markers.values()):
            self.view.addItem(item)

        self.axis_angle = QtWidgets.QLabel()
        self.axis_angle.setObjectName("axis_angle")
        self.axis_angle.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.axis_angle.setContentsMargins(6, 2, 6, 4)
        self.axis_angle.setWordWrap(True)
        # The text must not dictate the panel's width: the 2D circle comes first.
        self.axis_angle.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored,
                                      QtWidgets.QSizePolicy.Policy.Preferred)
        layout.addWidget(self.axis_angle)

    @property
    def pole(self) -> np.ndarray:
        return np.asarray(POLES[self.pole_box.currentText()](self.state.q0), float)

    def project(self, q) -> np.ndarray:
        """``s3.stereographic`` from the selected pole (NaN at the pole)."""
        return s3.stereographic(q, self.pole)

    def on_endpoints(self) -> None:
        s = self.state
        curves = s.curves
        for m in METHODS:
            # Items are reused, never removed: a GL item garbage-collected
            # outside its context frees its buffers in the wrong place and
            # crashes the process on the next event loop pass.
            pool = self._pool.setdefault(m, [])
            runs = split_finite(self.project(curves[m].quats))
            while len(pool) < len(runs):
                item = gl.GLLinePlotItem(color=rgba(METHOD_COLORS[m]), width=_GL_PATH_WIDTH,
                                         antialias=True, mode="line_strip")
                self.view.addItem(item)
                pool.append(item)
            for item, run in zip(pool, runs, strict=False):
                item.setData(pos=run)
                item.setVisible(True)
            for item in pool[len(runs):]:
                item.setVisible(False)
            self.segments[m] = pool[: len(runs)]
        ends = self.project(np.stack([s.q0, s.q1, -s.q1]))
        ok = np.all(np.isfinite(ends), axis=-1)
        # Frame the endpoints and the unit ball, within _MAX_FRAME_RADIUS.
        radius = np.linalg.norm(ends[ok], axis=-1) if ok.any() else np.zeros(1)
        self._frame = float(np.clip(np.max(radius, initial=1.0), 1.0, _MAX_FRAME_RADIUS))
        self._ends_html = "<br>".join(
            f"<b>{name}</b> " + (f"({p[0]:+.2f}, {p[1]:+.2f}, {p[2]:+.2f})" if good
                                 else "at infinity (the pole)")
            for name, p, good in zip(self.points, ends, ok, strict=True))
        for item, p, visible in zip(self.points.values(), ends, ok, strict=True):
            _place(item, p if visible else None, self._frame)
        self.view.setCameraPosition(pos=pg.Vector(0, 0, 0), distance=2.4 * self._frame,
                                    elevation=22, azimuth=-55)
        self.on_t()

    def on_t(self) -> None:
        at = self.state.at_t()
        rows = []
        for m in METHODS:
            q = at[m].quats[0]
            p = self.project(q) if np.all(np.isfinite(q)) else np.full(3, np.nan)
            _place(self.markers[m], p if np.all(np.isfinite(p)) else None, self._frame)
            rows.append(_axis_angle_row(m, q))
        self.axis_angle.setText(
            f"Black balls (projected):<br>{self._ends_html}<br>"
            f"<b>Rotation at t = {self.state.t:.3f}</b> (axis-angle, angle in [0°, 180°]):"
            "<table cellspacing='2'>" + "".join(rows) + "</table>")


def _ball(colour: str, radius: float) -> gl.GLMeshItem:
    md = gl.MeshData.sphere(rows=10, cols=16, radius=radius)
    return gl.GLMeshItem(meshdata=md, color=rgba(colour), smooth=True, shader="shaded")


def _place(item: gl.GLMeshItem, pos, scale: float) -> None:
    """Move a ball to ``pos``, or hide it (None: the point is at the pole, infinitely far).

    ``scale`` follows the camera distance so the balls keep their size on screen.
    """
    item.setVisible(pos is not None)
    if pos is not None:
        item.resetTransform()
        item.scale(scale, scale, scale)
        item.translate(*pos)


def _axis_angle_row(method: str, q: np.ndarray) -> str:
    colour = METHOD_COLORS[method]
    head = f"<td><span style='color:{colour}'>■</span> {METHOD_LABELS[method]}</td>"
    if not np.all(np.isfinite(q)):
        return f"<tr>{head}<td colspan='2'>undefined here</td></tr>"
    axis, angle = Q.to_axis_angle(q)
    ax = ", ".join(f"{v:+.3f}" for v in axis)
    return (f"<tr>{head}<td align='right'>&nbsp;{np.degrees(angle):6.1f}°</td>"
            f"<td>&nbsp;about ({ax})</td></tr>")


# --------------------------------------------------------------------------- the tab


class S3View(QtWidgets.QWidget):
    """Both panels side by side, with a legend and a caption, over a t scrubber."""

    def __init__(self, state, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.legend = QtWidgets.QLabel(_legend_html())
        self.legend.setContentsMargins(6, 4, 6, 0)
        self.legend.setWordWrap(True)
        layout.addWidget(self.legend)
        self.great_circle = GreatCircleView(state)
        self.stereo = StereographicView(state)
        split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        split.addWidget(self.great_circle)
        split.addWidget(self.stereo)
        split.setChildrenCollapsible(False)
        # The exact 2D picture is the main lesson: it gets the larger share.
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([600, 400])
        layout.addWidget(split, 1)
        # Issue 6: the tab follows t live, so it scrubs and plays t itself;
        # the same state as the two-key lesson, so both tabs stay in step.
        self.scrubber = Scrubber(state, self, prefix="s3_t")
        layout.addWidget(self.scrubber)
        # While the tab is hidden, changes only mark it stale; showing it
        # catches up. Scrubbing the two-key lesson then costs nothing here.
        self._stale = {"endpoints", "t"}
        state.events.connect("endpoints", self.on_endpoints)
        state.events.connect("t", self.on_t)
        self._catch_up(force=True)

    def on_endpoints(self) -> None:
        self._stale.add("endpoints")
        self._catch_up()

    def on_t(self) -> None:
        self._stale.add("t")
        self._catch_up()

    def showEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().showEvent(ev)
        self._catch_up()

    def _catch_up(self, force: bool = False) -> None:
        if not (force or self.isVisible()):
            return
        if "endpoints" in self._stale:
            self.great_circle.on_endpoints()
            self.stereo.on_endpoints()
        if self._stale:
            self.great_circle.on_t()
            self.stereo.on_t()
        self._stale.clear()


def _legend_html() -> str:
    items = []
    for m in METHODS:
        line = "╌╌" if METHOD_DASHED[m] else "━━"
        items.append(f"<span style='color:{METHOD_COLORS[m]}'><b>{line}</b></span> "
                     f"{METHOD_LABELS[m]}")
    return ("&nbsp;&nbsp;".join(items)
            + "<br><span style='color:#555'>Left: the plane of q0 and q1 in R4. SLERP walks "
            "the arc; NLERP walks the thin chord (the blend before normalizing, hollow "
            "dot) and is pushed along the grey ray onto the circle. q1 and −q1 are "
            "opposite: naive goes to the stored q1, shortest to the nearer one.</span>")


def create(window) -> QtWidgets.QWidget:
    """The S3 tab for ``window`` (a :class:`~quatlab.app.qt.window.MainWindow`)."""
    return S3View(window.state)
