"""The stereographic panel of the S3 tab: all of S3 projected from a pole onto R3 (docs/curves.md).

The four paths as curves, q0, q1 and -q1 as labelled points, the methods'
points at t, labelled axes, and the axis-angle of the current rotations
beside it. The camera looks at the paths face-on (along the normal of the
plane they lie in), so the oblique pole's circles are not foreshortened into
lines, and frames them in the panel's own pixels (width and height): every
ball and its label inside the view, the unit sphere as large as that allows.
Beyond radius 2 distances are shrunk (:func:`~quatlab.math.stereographic.shrink_far`),
so a point next to the pole stays in the picture instead of shrinking the
unit ball to a dot. The balls keep a size in pixels, whatever the frame.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pyqtgraph as pg
import pyqtgraph.opengl as gl
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.model.explain import glue_formulas
from quatlab.app.qt.s3_camera import fit_camera, view_direction
from quatlab.app.qt.s3_circle import ENDPOINT_COLOUR as _ENDPOINT_COLOUR
from quatlab.math import quaternion as Q
from quatlab.math import s3
from quatlab.math.curves import METHOD_LABELS, METHODS
from quatlab.math.stereographic import shrink_far
from quatlab.rendering import themes
from quatlab.rendering.gl_view import GLWindowView
from quatlab.rendering.label_place import (
    Segments,
    costs,
    overlaps,
    pair_segments,
    polyline_segments,
)
from quatlab.rendering.labels import (
    PLATE_GAP,
    PLATE_MARGIN,
    Label,
    LabelLayer,
    label_font,
    leaders_along,
    plate_units,
    text_block,
)
from quatlab.rendering.style import AXIS_COLORS, METHOD_COLORS, SCENE_BACKGROUND, rgba
from quatlab.rendering.themes import colour_name, themed

__all__ = ["StereographicView", "POLES", "split_finite", "turning_text"]

#: Short names for the labels at the methods' points (the table says the rest).
_SHORT = {"naive_nlerp": N_("naive N"), "shortest_nlerp": N_("short N"),
          "naive_slerp": N_("naive S"), "shortest_slerp": N_("short S")}


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

# Beyond this radius the view shrinks distances (shrink_far), so that even a
# point next to the pole lies within _INNER + _BAND of the origin: framing
# the true image of a stored q1 near the pole (at 11.4 for "negated-20")
# drew the unit ball, where the short way lives, 40 px across.
_INNER = 2.0
_BAND = 1.0
_GL_PATH_WIDTH = 3.0
_SPHERE_COLOUR = "#555555"   # the muted text grey
_OUTLINE_COLOUR = "#888888"  # the faint grey
# Ball radii on screen, pixels at 100% zoom: the methods' points are drawn
# over the endpoints they start and end at, so they are the larger.
_POINT_PX = 6.0
_MARKER_PX = 7.5
# Room kept between the outermost ball's centre and the view's edge, pixels
# at 100% zoom, on top of the ball: its label can sit beside it.
_EDGE_PX = 14.0
# The axes of R3 reach just past the unit sphere.
_AXIS_REACH = 1.3
# The layer's plate: the text's box and its margin, and the gap it keeps to
# anything else (labels.PLATE_GAP); one pixel more here, so a spot free here is
# free there.
_SPOT_PAD = PLATE_GAP + 1.0
_PLATE = (PLATE_MARGIN[0] + _SPOT_PAD, PLATE_MARGIN[1] + _SPOT_PAD)
# A method's ball centred this near a key's (pixels) is at the key: every method
# starts at q0 and ends at q1 or −q1, and the key's label names the spot.
_ON_KEY_PX = 0.5
# Pixels from the ball's edge to the plate tried, nearest first, across and along.
_SPOT_GAPS = (1.0, 4.0, 9.0, 16.0, 26.0, 40.0)
_RING = 24  # spots tried at once



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
        # In the muted and faint text greys, which every theme translates (black
        # stayed black on the dark themes' near-black scene).
        self._sphere = _great_circles(1.0)
        self._sphere_drawn = self._sphere
        self.sphere_lines = gl.GLLinePlotItem(pos=_segments(self._sphere),
                                              color=rgba(_SPHERE_COLOUR, 0.7), width=1.5,
                                              antialias=True, mode="lines")
        self.view.addItem(self.sphere_lines)
        # Where distances stop being to scale (shrink_far): the outline of the
        # sphere of radius 2 as the camera sees it, dashed, shown only when
        # something lies beyond it (three great circles of it crossed the view
        # in a tangle of dashes).
        self.shrink_sphere = gl.GLLinePlotItem(color=rgba(_OUTLINE_COLOUR, 0.9), width=1.2,
                                               antialias=True, mode="lines")
        self.view.addItem(self.shrink_sphere)
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
        # Labels of points that coincide on screen share one plate: keys with keys
        # (q0 and −q1 of "negated-20"), methods with methods (the two shortest at
        # t = 0.5). Apart: a method's name in the keys' plate read as naming the key.
        for name in ("q0", "q1", "−q1"):
            self.labels[name] = self._label(bold, (10.0, -8.0), name, _ENDPOINT_COLOUR, 3,
                                            "point")
        for m in METHODS:
            self.labels[m] = self._label(label_font(10.0, QtGui.QFont.Weight.Normal),
                                         (10.0, 8.0), _(_SHORT[m]), METHOD_COLORS[m], 1,
                                         "method")
        for k, axis in enumerate("xyz"):
            self.labels[axis] = self._label(bold, (4.0, -4.0), axis, AXIS_COLORS[k], 2)
        self.segments: dict[str, list[gl.GLLinePlotItem]] = {m: [] for m in METHODS}
        self._pool: dict[str, list[gl.GLLinePlotItem]] = {}
        # Points are small lit spheres: GLScatterPlotItem sprites come out
        # white on Mesa's llvmpipe, whatever colour they are given.
        # Unit spheres, scaled to their size in pixels where they are drawn.
        self.points = {name: _ball(_ENDPOINT_COLOUR) for name in ("q0", "q1", "−q1")}
        self.markers = {m: _ball(METHOD_COLORS[m]) for m in METHODS}
        for item in (*self.points.values(), *self.markers.values()):
            self.view.addItem(item)
        #: Where each ball is drawn (view coordinates, None: at the pole) and
        #: its radius in pixels.
        self.ball_pos: dict[str, np.ndarray | None] = {}
        self.ball_px = {**dict.fromkeys(self.points, _POINT_PX),
                        **dict.fromkeys(self.markers, _MARKER_PX)}
        self._paths: list[np.ndarray] = []
        self._fit_points = np.zeros((0, 3))
        self._axes = np.zeros((0, 3))
        #: The balls' outlines among the label obstacles (the rest are the lines drawn).
        self._ball_outlines: list[np.ndarray] = []
        #: The lines' segments in pixels, and the camera and view size they were
        #: projected for (:meth:`_lines_px`); None: the lines changed since.
        self._lines_cache: tuple[tuple, np.ndarray] | None = None
        self._camera_size: tuple[int, int] | None = None
        self._direction = (0.0, 0.0)
        self._strut_key: tuple[str, str] | None = None
        #: Each label's own offset and priority, given back before spots are offered.
        self._home = {name: (label.offset, label.priority) for name, label in self.labels.items()}
        self._strut_html = ""
        # The frame depends on the view's size in pixels: fit again on a resize.
        self.view.widget.installEventFilter(self)

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

    def _label(self, font, offset, text, colour, priority, group=None) -> Label:
        label = Label(font, offset, text=text, color=QtGui.QColor(colour), priority=priority,
                      group=group)
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

    def place(self, q) -> np.ndarray:
        """Where the view draws ``q``: :meth:`project`, with distances beyond 2 shrunk."""
        return shrink_far(self.project(q), _INNER, _BAND)

    def eventFilter(self, obj, ev):  # noqa: N802 - Qt API
        if obj is self.view.widget and ev.type() == QtCore.QEvent.Type.Resize:
            self._fit()
        return False

    def retheme(self) -> None:
        """After a zoom (called by the theme walk): the balls keep their size in pixels."""
        self._fit(force=True)

    def on_endpoints(self) -> None:
        s = self.state
        curves = s.curves
        # The four paths and the three keys projected in one call (row by row, as apart).
        keys = np.stack([s.q0, s.q1, -s.q1])
        paths = [curves[m].quats for m in METHODS]
        every = np.split(self.project(np.concatenate([*paths, keys])),
                         np.cumsum([len(path) for path in paths]))
        projected = dict(zip(METHODS, every[:-1], strict=True))
        self._paths = []  # as drawn, for the camera's frame and the labels' obstacles
        self._lines_cache = None
        for m in METHODS:
            # Items are reused, never removed: a GL item garbage-collected
            # outside its context frees its buffers in the wrong place and
            # crashes the process on the next event loop pass.
            pool = self._pool.setdefault(m, [])
            runs = [shrink_far(run, _INNER, _BAND) for run in split_finite(projected[m])]
            self._paths += runs
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
        ends = every[-1]
        ok = np.all(np.isfinite(ends), axis=-1)
        shown = shrink_far(ends, _INNER, _BAND)
        for name, p, good in zip(("q0", "q1", "−q1"), shown, ok, strict=True):
            self.ball_pos[name] = p if good else None
            self._show_label(self.labels[name], p if good else None)
        axes = np.zeros((6, 3))
        for k in range(3):
            axes[2 * k + 1, k] = _AXIS_REACH
        self.axes.setData(pos=axes)
        self._axes = axes
        # A leader along an axis reads as part of it: at 1024 x 768 the "q0 / −q1"
        # plate hung level to the left of the ball at the origin, on a leader that
        # read as the negative x axis.
        self.layer.guides = [pair_segments(axes)]
        for k, axis in enumerate("xyz"):
            self._show_label(self.labels[axis], axes[2 * k + 1])
        true = np.vstack([ends[ok], *projected.values()])
        far = bool(np.any(np.linalg.norm(true[np.all(np.isfinite(true), axis=-1)], axis=-1)
                          > _INNER))
        self.shrink_sphere.setVisible(far)
        # The great circle's angle and its cosine: the circle shows the angle's
        # value at its arc and leaves the relation to this line.
        # The angle's name is never cut across two lines.
        angle = "<span style='white-space:nowrap'>∠(q0, q1)</span>"
        self.turning.setText(glue_formulas(
            _("<b>Half angle:</b> {angle} = {text}; {cos_angle} = dot(q0, q1) = "
              "{dot:+.4f}.").format(angle=angle, text=turning_text(s.q0, s.q1),
                                    cos_angle=angle.replace("∠", "cos ∠"), dot=s.dot)))
        self._ends_html = "&nbsp;&nbsp; ".join(
            f"<span style='white-space:nowrap'><b>{name}</b> "
            + (f"({p[0]:+.2f}, {p[1]:+.2f}, {p[2]:+.2f})" if good
               else _("at infinity (the pole)")) + "</span>"
            for name, p, good in zip(self.points, ends, ok, strict=True))
        if far:
            # One line at 1024 x 768, so the 3D view keeps its height.
            self._ends_html += "<br>" + _(
                "Beyond the dashed sphere (r = 2) distances are shrunk: the pole would lie "
                "at r = 3.")
        # Frame the paths, the balls, the unit sphere and the axes' ends.
        self._fit_points = np.vstack([*self._paths, shown[ok], self._sphere, axes])
        self._direction = view_direction(np.vstack([*self._paths, shown[ok]]))
        # The balls and labels wait for on_t: sized here, with the methods' balls
        # still at the last preset's t, they were all sized and placed again there.
        self._fit(force=True, balls=False)
        self.on_t()

    def _fit(self, force: bool = False, balls: bool = True) -> None:
        """Point the camera and frame :attr:`_fit_points` in the view's pixels; size the balls
        (``balls=False``: the caller sizes them next)."""
        w, h = self.view.widget.width(), self.view.widget.height()
        if not len(self._fit_points) or (not force and self._camera_size == (w, h)):
            return
        self._camera_size = (w, h)
        elevation, azimuth = self._direction
        self.view.setCameraParams(elevation=elevation, azimuth=azimuth)
        rotation = self._rotation()
        zoom = themes.scale()
        margin = (max(self.ball_px.values()) + _EDGE_PX) * zoom
        centre, distance = fit_camera(self._fit_points, rotation, (w, h), margin,
                                      self.view.opts["fov"])
        self.view.setCameraPosition(pos=pg.Vector(*centre), distance=distance)
        eye = centre + distance * rotation[2]
        self.shrink_sphere.setData(pos=_segments(_outline(_INNER, eye, rotation), 2))
        # The unit sphere as the camera sees it: its outline and its equator
        # (the plane of the x and y axes). Its three great circles crossed the
        # middle of the ball, where q0 and the short way's points lie, and left
        # their labels no room short of the ball's edge (95-160 px away at 1280x720).
        self._sphere_drawn = np.vstack([_outline(1.0, eye, rotation), np.full((1, 3), np.nan),
                                        self._sphere[:121]])
        self._lines_cache = None
        self.sphere_lines.setData(pos=_segments(self._sphere_drawn))
        if balls:
            self._size_balls()

    def _rotation(self) -> np.ndarray:
        m = np.array(self.view.viewMatrix().copyDataTo(), float).reshape(4, 4)
        return m[:3, :3]

    def _size_balls(self) -> None:
        """Scale each ball to its radius in pixels at its depth; make the balls label obstacles.

        The obstacles are also every line drawn: the paths, the unit
        sphere's circles and the axes.

        A label must not cover a ball either: each ball is an obstacle drawn
        as its screen-facing square with both diagonals, which any plate that
        overlaps the disc meets.
        """
        w = max(self.view.widget.width(), 1)
        rotation = self._rotation()
        right, up, back = rotation
        o = self.view.opts
        centre = np.array([o["center"].x(), o["center"].y(), o["center"].z()])
        eye = centre + o["distance"] * back
        per_px = 2.0 * np.tan(np.radians(o["fov"]) / 2) / w
        zoom = themes.scale()
        balls = []
        for name, item in (*self.points.items(), *self.markers.items()):
            p = self.ball_pos.get(name)
            if p is None:
                _place(item, None, 0.0)
                continue
            r = self.ball_px[name] * zoom * per_px * float((eye - p) @ back)
            _place(item, p, r)
            corners = [p + r * (sx * right + sy * up) for sx, sy in
                       ((-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1))]
            balls.append(np.vstack([*corners, np.full(3, np.nan), corners[1], corners[3]]))
        self._ball_outlines = balls
        self.layer.obstacles = [*self._lines(), *balls]
        self._name_balls_on_keys(eye, rotation, per_px)
        self._offer_spots(zoom)
        self.view.update()

    def _lines(self) -> list[np.ndarray]:
        """The lines drawn, as label obstacles: the paths, and the unit sphere's circles and
        the axes too ("−q1" sat across both at 1024 x 768)."""
        return [*self._paths, self._sphere_drawn, pair_segments(self._axes)]

    def _lines_px(self, key: tuple, pixels) -> np.ndarray:
        """:meth:`_lines` as segments ``(S, 2, 2)`` in pixels through ``pixels``, projected
        once per ``key`` (the camera and the view's size) and per set of lines: a step of t
        moves only the balls."""
        if self._lines_cache is None or self._lines_cache[0] != key:
            segs = [polyline_segments(pixels(line)) for line in self._lines() if len(line)]
            self._lines_cache = (key, np.concatenate(segs or [np.zeros((0, 2, 2))]))
        return self._lines_cache[1]

    def _name_balls_on_keys(self, eye, rotation, per_px: float) -> None:
        """Leave a method's label out while its ball is centred on a key's ball.

        The key's label names that spot (at t = 0 every method sits on q0, at
        t = 1 on q1 or -q1): the plate of "q0" and four method names beside it
        was six lines at 1024 x 768 and 150 %, and found room only 60-160 px
        away. The ball keeps its colour, which the legend names. A ball merely
        near a key keeps its label: the shortest methods at t = 0.5 of
        "negated-20", 3-4 px from q0 and −q1 and under their balls, were
        otherwise named nowhere.
        """
        right, up, back = rotation

        def pixels(p):
            rel = p - eye
            return np.array([rel @ right, rel @ up]) / (per_px * float(-(rel @ back)))

        keys = [pixels(p) for p in (self.ball_pos.get(n) for n in self.points) if p is not None]
        for m in METHODS:
            p = self.ball_pos.get(m)
            on_key = p is not None and any(np.hypot(*(pixels(p) - c)) <= _ON_KEY_PX
                                           for c in keys)
            self.labels[m].visible = p is not None and not on_key

    def _offer_spots(self, zoom: float) -> None:
        """Give each label, as its own offset (the spot the layer tries first), the
        nearest spot beside its anchor that covers no line, ball or earlier label.

        The layer's own spots lie on four diagonals 10-100 px out and, failing
        those, it takes the nearest free place anywhere: inside the unit ball,
        among the axes and paths, "q0" stood 55-115 px from its ball at
        1024 x 768 and 150 %. Here the spots ring the anchor, beside the ball
        first, and cost their distance; the plates are the layer's (its text
        box, ``labels.text_block``, and its padding), grouped and ordered as it
        groups and orders them (:meth:`_plates`), so a spot found free here is
        free there and the layer takes it. Where none is free the label keeps
        its own offset and the layer its search.
        """
        # The container's size, as _fit frames it: the native window follows it later.
        w, h = self.view.widget.width(), self.view.widget.height()
        if w < 2 or h < 2:
            return
        to_pixels = QtGui.QMatrix4x4()
        to_pixels.viewport(0.0, float(h), float(w), -float(h))  # as the layer draws
        project = (to_pixels * self.view.projectionMatrix((0, 0, w, h), (0, 0, w, h))
                   * self.view.viewMatrix())
        m = self.view.projectionMatrix((0, 0, w, h), (0, 0, w, h)) * self.view.viewMatrix()
        m = np.array(m.copyDataTo(), float).reshape(4, 4)

        def pixels(points):
            flat = np.asarray(points, float).reshape(-1, 3)
            c = np.column_stack([flat, np.ones(len(points))]) @ m.T
            with np.errstate(invalid="ignore", divide="ignore"):
                ndc = np.where(c[:, 3:4] > 1e-9, c[:, :2] / c[:, 3:4], np.nan)
            return np.column_stack([(ndc[:, 0] + 1) * w / 2, (1 - ndc[:, 1]) * h / 2])

        segs = np.concatenate([self._lines_px((w, h, m.tobytes()), pixels),
                               *(polyline_segments(pixels(ball)) for ball in self._ball_outlines)])
        found = Segments(segs)
        axes = pixels(self._axes).reshape(-1, 2, 2)
        view = (0.0, 0.0, float(w), float(h))
        taken: list[tuple[float, float, float, float]] = []
        for name, label in self.labels.items():
            label.offset, label.priority = self._home[name]
        units = self._plates(project)
        # Plates of more lines first, then by priority: a name of one line finds
        # room beside a plate of four, not the four beside it (at 1024 x 768 and
        # 150 % "q0" took the one corner the methods' plate fitted in, which then
        # ran off the view). The layer places them in this order too.
        units.sort(key=lambda u: -len(u[0]))
        for rank, (names, _anchor) in enumerate(units):
            for n in names:
                self.labels[n].priority = len(units) - rank
        for names, anchor in units:
            members = [self.labels[n] for n in names]
            box = text_block(members)[0]
            radius = max(self.ball_px.get(n, 0.0) for n in names) * zoom
            offsets, rects, far = _spots(anchor, box, radius)
            # Nearest first, a ring at a time, and only against the segments near
            # the ring: clipping every spot against every line took 55 ms a frame.
            # A spot leaving the view or on a plate placed before is not free
            # whatever lines it covers: it is left out before any clipping.
            order = np.argsort(far, kind="stable")
            left, top, right, bottom = rects.T
            out = (left < 0.0) | (top < 0.0) | (right > w) | (bottom > h)  # as costs has it
            # A spot whose leader runs along an axis is not free either (the layer's
            # guides): the plates as drawn are the spots' less the gap kept round them.
            along = leaders_along(anchor, rects + [_SPOT_PAD, _SPOT_PAD, -_SPOT_PAD, -_SPOT_PAD],
                                  axes)
            order = order[(~out & (overlaps(rects, taken) == 0) & ~along)[order]]
            free = order[:0]
            # The segments near this plate's spots, then near each ring of them.
            spread_lo = rects[order, :2].min(axis=0, initial=np.inf)
            spread_hi = rects[order, 2:].max(axis=0, initial=-np.inf)
            around = found.subset(np.all((found.hi >= spread_lo) & (found.lo <= spread_hi),
                                         axis=1))
            for ring in np.array_split(order, max(len(order) // _RING, 1)) if len(order) else ():
                lo, hi = rects[ring, :2].min(axis=0), rects[ring, 2:].max(axis=0)
                near = np.all((around.hi >= lo) & (around.lo <= hi), axis=1)
                free = ring[costs(rects[ring], around.subset(near), taken, view) == 0.0]
                if len(free):
                    break
            if not len(free):
                continue  # the layer searches on; where it puts the plate is not known here
            i = free[0]
            members[0].offset = tuple(offsets[i])
            # The plate as drawn: the layer keeps the gap (_SPOT_PAD) round the next one.
            left, top, right, bottom = rects[i]
            taken.append((left + _SPOT_PAD, top + _SPOT_PAD, right - _SPOT_PAD,
                          bottom - _SPOT_PAD))

    def _plates(self, project: QtGui.QMatrix4x4) -> list[tuple[list[str], np.ndarray]]:
        """The shown labels as the layer groups and orders them: ``(names, anchor px)``.

        The layer's own grouping (:func:`quatlab.rendering.labels.plate_units`, labels of
        one group whose anchors coincide share a plate), ordered as it places
        them: by priority, highest first, in the order the labels were made.
        """
        names = {id(label): name for name, label in self.labels.items()}
        shown = [label for label in self.labels.values() if label.visible and label.text]
        units = plate_units(shown, project)
        units.sort(key=lambda u: -max(lb.priority for lb in u.members))
        return [([names[id(lb)] for lb in u.members], np.array([u.anchor.x(), u.anchor.y()]))
                for u in units]

    def on_t(self) -> None:
        at = self.state.at_t()
        quats = np.array([at[m].quats[0] for m in METHODS])
        # The four points projected at once (row by row, as one at a time).
        shown = np.full((len(METHODS), 3), np.nan)
        finite = np.all(np.isfinite(quats), axis=-1)
        if finite.any():
            shown[finite] = self.place(quats[finite])
        rows = []
        for m, q, p in zip(METHODS, quats, shown, strict=True):
            good = bool(np.all(np.isfinite(p)))
            self.ball_pos[m] = p if good else None
            self._show_label(self.labels[m], p if good else None)
            rows.append(_axis_angle_row(m, q, self._strut))
        self._size_balls()
        # glue_formulas: negative coordinates with the minus sign, as the rest of the app.
        self.axis_angle.setText(glue_formulas(
            # Named in the colour the theme draws them (near-white on the dark themes).
            _("q0, q1 and −q1, the {colour} balls (projected):").format(
                colour=colour_name(themed(_ENDPOINT_COLOUR))) + f" {self._ends_html}<br>"
            + _("<b>Rotation at t = {t:.3f}</b> (axis-angle, angle in [0°, 180°]):").format(
                t=self.state.t)
            + "<table cellspacing='2'>" + "".join(rows) + "</table>"))

    @property
    def _strut(self) -> str:
        """A zero-width character in the tallest font the table's words fall back to.

        Qt lays table cells out from their tops, so a cell of digits (the
        angle) has its baseline higher than one whose words come from a
        taller fallback font (Chinese): 2.8 px at 9 pt, about 4 px in the
        window. The same strut in every cell gives them the same ascent.
        """
        words = "".join(_(METHOD_LABELS[m]) for m in METHODS) + _("about ({axis})")
        key = (words, self.axis_angle.font().key())
        if self._strut_key != key:
            self._strut_key = key
            family = _tallest_family(words, self.axis_angle.font())
            self._strut_html = (f"<span style=\"font-family:'{family}'\">&#8203;</span>"
                                if family else "")
        return self._strut_html


def _spots(anchor: np.ndarray, box: QtCore.QRectF, radius: float
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Label offsets ``(K, 2)`` round a ball of ``radius`` px at ``anchor``, their plates
    ``(K, 4)`` (left, top, right, bottom, padded as the layer pads them) and each plate's
    distance from the anchor.

    An offset is the text's near corner from the anchor, its signs picking the
    side (``Label.offset``): beside the ball (across by the radius and a gap,
    along from level with its centre to clear of it), or above or below it.
    """
    pw, ph = _PLATE
    offsets = _spot_offsets(radius, box.height())
    dx, dy = offsets.T
    left = anchor[0] + dx - np.where(dx < 0, box.width(), 0.0) - pw
    top = anchor[1] + dy - np.where(dy < 0, box.height(), 0.0) - ph
    rects = np.column_stack([left, top, left + box.width() + 2 * pw, top + box.height() + 2 * ph])
    near = np.column_stack([np.clip(anchor[0], rects[:, 0] + 3, rects[:, 2] - 3),
                            np.clip(anchor[1], rects[:, 1] + 3, rects[:, 3] - 3)])
    return offsets, rects, np.hypot(*(near - anchor).T)


@lru_cache(maxsize=64)
def _spot_offsets(radius: float, height: float) -> np.ndarray:
    """The offsets of :func:`_spots` round a ball of ``radius`` px for a text ``height`` px
    tall, sorted, read-only: they depend on nothing else, and the same few come back on
    every step of t."""
    pw, ph = _PLATE
    offsets = set()
    for gap in _SPOT_GAPS:
        out = radius + gap
        for side in (1.0, 0.5 * radius, out, out + 0.5 * height):
            for sx in (1, -1):
                for sy in (1, -1):
                    offsets.add((sx * (out + pw), sy * (side + ph)))   # beside
                    offsets.add((sx * (side + pw), sy * (out + ph)))   # above or below
    offsets = np.array(sorted(offsets), float)
    offsets.flags.writeable = False
    return offsets


def _tallest_family(text: str, font: QtGui.QFont) -> str | None:
    """The family of the tallest font (by ascent) Qt draws ``text`` in, fallbacks included."""
    layout = QtGui.QTextLayout(text, font)
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    runs = layout.glyphRuns()
    if not runs:
        return None
    return max(runs, key=lambda run: run.rawFont().ascent()).rawFont().familyName()


def _great_circles(radius: float = 1.0) -> np.ndarray:
    """The sphere of ``radius`` as its three great circles in the coordinate planes, one strip.

    NaN rows separate the circles (:func:`_segments` makes them pairs for GL).
    """
    c = radius * s3.circle_points(121)
    z = np.zeros(len(c))
    gap = np.full((1, 3), np.nan)
    return np.vstack([np.c_[c, z], gap, np.c_[c[:, 0], z, c[:, 1]], gap, np.c_[z, c]])


def _outline(radius: float, eye: np.ndarray, rotation: np.ndarray) -> np.ndarray:
    """The outline (silhouette) of the sphere of ``radius`` about the origin seen from ``eye``.

    The circle where the cone of sight lines from ``eye`` touches the sphere:
    centred ``radius**2 / L`` from the origin towards the eye (``L = |eye|``),
    of radius ``radius * sqrt(1 - radius**2 / L**2)``, in the plane across
    the line of sight. ``rotation`` rows are the camera's right and up,
    which span directions across the view when the eye looks at the origin
    and nearly so otherwise; they are made orthogonal to the eye's direction.
    """
    dist = float(np.linalg.norm(eye))
    if dist <= radius:
        return np.zeros((0, 3))
    n = eye / dist
    u = rotation[0] - (rotation[0] @ n) * n
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    c = s3.circle_points(121)
    rho = radius * np.sqrt(1.0 - (radius / dist) ** 2)
    return (radius ** 2 / dist) * n + rho * (c[:, :1] * u + c[:, 1:] * v)


def _segments(strip: np.ndarray, every: int = 1) -> np.ndarray:
    """The segments of ``strip`` as pairs for a ``"lines"`` item, gaps dropped.

    ``every=2`` keeps every other segment: a dashed line.
    """
    pairs = np.stack([strip[:-1], strip[1:]], axis=1)[::every]
    return pairs[np.all(np.isfinite(pairs), axis=(1, 2))].reshape(-1, 3)


def _ball(colour: str) -> gl.GLMeshItem:
    md = gl.MeshData.sphere(rows=12, cols=20, radius=1.0)
    return gl.GLMeshItem(meshdata=md, color=rgba(colour), smooth=True, shader="shaded")


def _place(item: gl.GLMeshItem, pos, scale: float) -> None:
    """Move a ball to ``pos``, or hide it (None: the point is at the pole, infinitely far).

    ``scale`` is the radius in view coordinates (the mesh is a unit sphere).
    """
    item.setVisible(pos is not None)
    if pos is not None:
        item.resetTransform()
        item.scale(scale, scale, scale)
        item.translate(*pos)


def _axis_angle_row(method: str, q: np.ndarray, strut: str = "") -> str:
    """One row of the axis-angle table; ``strut`` opens every cell (see ``_strut``)."""
    colour = METHOD_COLORS[method]
    head = f"<td>{strut}<span style='color:{colour}'>■</span> {_(METHOD_LABELS[method])}</td>"
    if not np.all(np.isfinite(q)):
        return f"<tr>{head}<td colspan='2'>{strut}" + _("undefined here") + "</td></tr>"
    axis, angle = Q.to_axis_angle(q)
    ax = ", ".join(f"{v:+.3f}" for v in axis)
    return (f"<tr>{head}<td align='right'>{strut}&nbsp;{np.degrees(angle):6.1f}°</td>"
            f"<td>{strut}&nbsp;" + _("about ({axis})").format(axis=ax) + "</td></tr>")


