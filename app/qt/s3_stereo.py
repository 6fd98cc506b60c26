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
from PyQt6 import QtCore, QtWidgets

from quatlab.app.qt.s3_circle import ENDPOINT_COLOUR as _ENDPOINT_COLOUR
from quatlab.math import quaternion as Q
from quatlab.math import s3
from quatlab.math.curves import METHOD_LABELS, METHODS
from quatlab.rendering.gl_view import GLWindowView
from quatlab.rendering.style import METHOD_COLORS, SCENE_BACKGROUND, rgba

__all__ = ["StereographicView", "POLES", "split_finite"]

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


