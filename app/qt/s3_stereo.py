"""The stereographic panel of the S3 tab: all of S3 projected from a pole onto R3 (docs/curves.md).

The four paths as curves, q0, q1 and -q1 as labelled points, the methods'
points at t, labelled axes, and the axis-angle of the current rotations
beside it. The camera frames the paths and looks at them face-on (along
the normal of the plane they lie in), so the oblique pole's circles are not
foreshortened into lines.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pyqtgraph.opengl as gl
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.qt.s3_circle import ENDPOINT_COLOUR as _ENDPOINT_COLOUR
from quatlab.math import quaternion as Q
from quatlab.math import s3
from quatlab.math.curves import METHOD_LABELS, METHODS
from quatlab.rendering.gl_view import GLWindowView
from quatlab.rendering.labels import Label, LabelLayer, label_font
from quatlab.rendering.style import AXIS_COLORS, METHOD_COLORS, SCENE_BACKGROUND, rgba
from quatlab.rendering.themes import colour_name, themed

__all__ = ["StereographicView", "POLES", "split_finite", "frame_paths", "turning_text"]

#: Short names for the labels at the methods' points (the table says the rest).
_SHORT = {"naive_nlerp": N_("naive N"), "shortest_nlerp": N_("short N"),
          "naive_slerp": N_("naive S"), "shortest_slerp": N_("short S")}
#: The camera looks at the paths' plane face-on, tilted this much towards the
#: default view so the picture keeps some depth.
_TILT = 0.3
_DEFAULT_DIRECTION = np.array([np.cos(np.radians(22)) * np.cos(np.radians(-55)),
                               np.cos(np.radians(22)) * np.sin(np.radians(-55)),
                               np.sin(np.radians(22))])


def turning_text(q0, q1) -> str:
    """The half-angle relation for these keys, in words (docs/conventions.md).

    A unit quaternion turns by twice its angle on S3: ``q0`` and ``q1`` an
    angle W apart on S3 are a turn of 2W apart, so the naive paths (to the
    stored q1) turn 2W and the shortest (to the nearer of q1, -q1)
    2 min(W, 180 deg - W).

    >>> c, s = np.cos(np.radians(170)), np.sin(np.radians(170))   # -(20 deg about z)
    >>> text = turning_text([1, 0, 0, 0], [c, 0, 0, s])
    >>> text.startswith("170.0° on S3 = 340.0° of turning"), text.split("; ")[1]
    (True, 'the short way: 10.0° on S3 = 20.0° of turning')
    """
    w = float(np.degrees(np.arccos(np.clip(np.dot(q0, q1), -1.0, 1.0))))
    short = min(w, 180.0 - w)
    return _("{w:.1f}° on S3 = {turn:.1f}° of turning (naive, to the stored q1); the short "
             "way: {short:.1f}° on S3 = {short_turn:.1f}° of turning").format(
                 w=w, turn=2 * w, short=short, short_turn=2 * short)


def frame_paths(points: np.ndarray, limit: float) -> tuple[np.ndarray, float, float, float]:
    """Camera ``(centre, distance, elevation_deg, azimuth_deg)`` that frames ``points`` (N, 3).

    Points farther than ``limit`` from the origin are left out (a point
    next to the pole maps very far away). The centre is the middle of the
    points' bounding box together with the unit ball, the distance fits their
    radius about it, and the view direction is the normal of the plane the
    points lie in (the image of a great circle is a circle or a line), tilted
    by :data:`_TILT` towards the default view: a circle is seen round, not
    foreshortened into a line. For points on a line any direction across it
    will do; the default one, with the line's direction removed, is taken.
    """
    pts = np.asarray(points, float)
    pts = pts[np.all(np.isfinite(pts), axis=-1)]
    pts = pts[np.linalg.norm(pts, axis=-1) <= limit]
    box = np.vstack([pts, [[-1, -1, -1], [1, 1, 1]]]) if pts.size else np.array(
        [[-1.0, -1, -1], [1, 1, 1]])
    centre = 0.5 * (box.min(axis=0) + box.max(axis=0))
    radius = max(float(np.max(np.linalg.norm(box - centre, axis=-1))), 1.0)
    d = _DEFAULT_DIRECTION
    if len(pts) >= 3:
        _, sv, vt = np.linalg.svd(pts - pts.mean(axis=0), full_matrices=False)
        if sv[1] > 0.05 * sv[0]:
            n = vt[2]
        else:
            n = d - (d @ vt[0]) * vt[0]
        n = n / np.linalg.norm(n)
        if n @ d < 0:
            n = -n
        d = n + _TILT * d
        d = d / np.linalg.norm(d)
    elevation = float(np.degrees(np.arcsin(np.clip(d[2], -1.0, 1.0))))
    azimuth = float(np.degrees(np.arctan2(d[1], d[0])))
    # 60 deg field of view: the radius fits at distance r / sin(30 deg), plus margin.
    return centre, 2.2 * radius, elevation, azimuth

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

# The stereographic camera frames the endpoints, but never farther than this:
# a stored q1 next to the pole maps very far out, and framing it would shrink
# the unit ball (where the short way lives) to a dot.
_MAX_FRAME_RADIUS = 6.0
_GL_PATH_WIDTH = 3.0
_POINT_RADIUS = 0.03
_MARKER_RADIUS = 0.04



def split_finite(points: np.ndarray) -> list[np.ndarray]:
    """Runs of consecutive finite rows of ``points`` ``(N, D)``, each at least 2 long.

    GL line strips cannot skip NaN the way pyqtgraph's ``connect="finite"``
    does, so a path with a gap becomes several strips.
    """
    ok = np.all(np.isfinite(points), axis=-1)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], ok.astype(np.int8), [0]))))
    return [points[a:b] for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a >= 2]


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
    turning : QLabel
        The half-angle relation for the keys.

    With ``own_text=False`` the two texts are made but not laid out: the S3
    tab puts them under both panels, where a row of the table fits on one
    line and the 3D view keeps its height (at 1024 x 768 the panel's own
    column wrapped every row to three lines and squeezed the view).
    """

    def __init__(self, state, parent=None, *, own_text: bool = True) -> None:
        super().__init__(parent)
        self.state = state
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QtWidgets.QHBoxLayout()
        bar.setContentsMargins(6, 2, 6, 0)
        bar.addWidget(QtWidgets.QLabel(_("Project S3 from the pole")))
        self.pole_box = QtWidgets.QComboBox()
        self.pole_box.setObjectName("pole_box")
        self.pole_box.addItems(list(POLES))
        self.pole_box.setToolTip(
            _("w = −1: the identity lands on the origin.\n−q0: q0 lands on the origin and a "
              "point lies along its rotation axis (from q0) at tan(angle / 4);\nthe short "
              "way stays inside the unit ball, the long way runs outside."))
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
        # Axes of R3 (the projected x, y, z of the quaternion's vector part)
        # in the gizmo colours, labelled at their ends; resized with the frame.
        self.axes = gl.GLLinePlotItem(mode="lines", width=1.5, antialias=True,
                                      color=np.repeat([rgba(c, 0.7) for c in AXIS_COLORS], 2,
                                                      axis=0))
        self.view.addItem(self.axes)
        self.layer = LabelLayer()
        self.layer.setDepthValue(1000)  # after everything it names
        self.view.addItem(self.layer)
        bold = label_font(11.0, QtGui.QFont.Weight.DemiBold)
        self.labels: dict[str, Label] = {}
        for name in ("q0", "q1", "−q1"):
            self.labels[name] = self._label(bold, (8.0, -6.0), name, _ENDPOINT_COLOUR, 3)
        for m in METHODS:
            self.labels[m] = self._label(label_font(10.0, QtGui.QFont.Weight.Normal),
                                         (8.0, 6.0), _(_SHORT[m]), METHOD_COLORS[m], 1)
        for k, axis in enumerate("xyz"):
            self.labels[axis] = self._label(bold, (4.0, -4.0), axis, AXIS_COLORS[k], 2)
        self.segments: dict[str, list[gl.GLLinePlotItem]] = {m: [] for m in METHODS}
        self._pool: dict[str, list[gl.GLLinePlotItem]] = {}
        # Points are small lit spheres: GLScatterPlotItem sprites come out
        # white on Mesa's llvmpipe, whatever colour they are given.
        self.points = {name: _ball(_ENDPOINT_COLOUR, _POINT_RADIUS)
                       for name in ("q0", "q1", "−q1")}
        self.markers = {m: _ball(METHOD_COLORS[m], _MARKER_RADIUS) for m in METHODS}
        for item in (*self.points.values(), *self.markers.values()):
            self.view.addItem(item)

        self.turning = QtWidgets.QLabel()
        self.turning.setObjectName("half_angle")
        self.turning.setWordWrap(True)
        self.turning.setContentsMargins(6, 2, 6, 0)
        self.turning.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored,
                                   QtWidgets.QSizePolicy.Policy.Preferred)
        self.axis_angle = QtWidgets.QLabel()
        self.axis_angle.setObjectName("axis_angle")
        self.axis_angle.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.axis_angle.setContentsMargins(6, 2, 6, 4)
        self.axis_angle.setWordWrap(True)
        # The text must not dictate the panel's width: the 2D circle comes first.
        self.axis_angle.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored,
                                      QtWidgets.QSizePolicy.Policy.Preferred)
        if own_text:
            layout.addWidget(self.turning)
            layout.addWidget(self.axis_angle)

    def _label(self, font, offset, text, colour, priority) -> Label:
        label = Label(font, offset, text=text, color=QtGui.QColor(colour), priority=priority)
        self.layer.labels.append(label)
        return label

    @staticmethod
    def _show_label(label: Label, pos) -> None:
        label.visible = pos is not None
        if pos is not None:
            label.pos = np.asarray(pos, float)

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
        # Frame the paths, the endpoints and the unit ball, within _MAX_FRAME_RADIUS.
        paths = np.vstack([self.project(curves[m].quats) for m in METHODS] + [ends])
        self._obstacles = [run for m in METHODS for run in split_finite(
            self.project(curves[m].quats))]
        centre, distance, elevation, azimuth = frame_paths(paths, _MAX_FRAME_RADIUS)
        self._frame = float(np.clip(distance / 4.4, 1.0, _MAX_FRAME_RADIUS))
        self.layer.obstacles = self._obstacles
        for name, p, good in zip(("q0", "q1", "−q1"), ends, ok, strict=True):
            self._show_label(self.labels[name], p if good else None)
        reach = max(1.2, distance / 2.6)
        axes = np.zeros((6, 3))
        for k in range(3):
            axes[2 * k + 1, k] = reach
        self.axes.setData(pos=axes)
        for k, axis in enumerate("xyz"):
            self._show_label(self.labels[axis], axes[2 * k + 1])
        self.turning.setText(_("<b>Half angle:</b> {text}.").format(text=turning_text(s.q0, s.q1)))
        self._ends_html = "&nbsp;&nbsp; ".join(
            f"<span style='white-space:nowrap'><b>{name}</b> "
            + (f"({p[0]:+.2f}, {p[1]:+.2f}, {p[2]:+.2f})" if good
               else _("at infinity (the pole)")) + "</span>"
            for name, p, good in zip(self.points, ends, ok, strict=True))
        for item, p, visible in zip(self.points.values(), ends, ok, strict=True):
            _place(item, p if visible else None, self._frame)
        self.view.setCameraPosition(pos=pg.Vector(*centre), distance=distance,
                                    elevation=elevation, azimuth=azimuth)
        self.on_t()

    def on_t(self) -> None:
        at = self.state.at_t()
        rows = []
        for m in METHODS:
            q = at[m].quats[0]
            p = self.project(q) if np.all(np.isfinite(q)) else np.full(3, np.nan)
            _place(self.markers[m], p if np.all(np.isfinite(p)) else None, self._frame)
            self._show_label(self.labels[m], p if np.all(np.isfinite(p)) else None)
            rows.append(_axis_angle_row(m, q))
        self.axis_angle.setText(
            # Named in the colour the theme draws them (near-white on the dark themes).
            _("q0, q1 and −q1, the {colour} balls (projected):").format(
                colour=colour_name(themed(_ENDPOINT_COLOUR))) + f" {self._ends_html}<br>"
            + _("<b>Rotation at t = {t:.3f}</b> (axis-angle, angle in [0°, 180°]):").format(
                t=self.state.t)
            + "<table cellspacing='2'>" + "".join(rows) + "</table>")


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
    head = f"<td><span style='color:{colour}'>■</span> {_(METHOD_LABELS[method])}</td>"
    if not np.all(np.isfinite(q)):
        return f"<tr>{head}<td colspan='2'>" + _("undefined here") + "</td></tr>"
    axis, angle = Q.to_axis_angle(q)
    ax = ", ".join(f"{v:+.3f}" for v in axis)
    return (f"<tr>{head}<td align='right'>&nbsp;{np.degrees(angle):6.1f}°</td>"
            "<td>&nbsp;" + _("about ({axis})").format(axis=ax) + "</td></tr>")


