"""Text labels anchored at 3D points, all drawn in one QPainter pass over a GL view.

Labels are placed in screen space at every paint: each tries a few spots
around its anchor and takes the first that overlaps no label placed before
it and no part of a chain (:attr:`LabelLayer.obstacles`), so labels never
pile up into one blob or hide what they name. Notes pinned to the viewport
(``Label.fixed``) are placed first and are obstacles too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from OpenGL import GL
from PyQt6 import QtCore, QtGui, QtOpenGL
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem

from quatlab.rendering import themes
from quatlab.rendering.chain import (
    ROOT,
)
from quatlab.rendering.style import SCENE_BACKGROUND

__all__ = ["Label", "LabelLayer", "label_font", "ink"]


@dataclass
class Label:
    """One text label anchored at a 3D point, drawn by :class:`LabelLayer`."""

    font: QtGui.QFont
    # Pixel offset from the anchor to the text's near corner; its signs pick
    # the side: right/left of the anchor (x) and above/below it (y).
    offset: tuple[float, float]
    text: str = ""
    pos: np.ndarray = field(default_factory=lambda: ROOT.copy())
    color: QtGui.QColor = field(default_factory=lambda: QtGui.QColor("black"))
    visible: bool = False
    #: Higher is placed first and so gets its preferred spot.
    priority: int = 0
    #: Top-left corner in widget pixels for a note pinned to the viewport
    #: (``pos`` and ``offset`` are then unused).
    fixed: tuple[float, float] | None = None
    #: Where the last paint put the text's plate, widget pixels (None: not drawn).
    rect: QtCore.QRectF | None = None


#: Pixel offsets tried after a label's own, nearest first: right/left of the
#: anchor, above/below it, farther out. The sign convention is Label.offset's.
_SPOTS = tuple((sx * dx, sy * dy) for dx, dy in ((9.0, 4.0), (24.0, 18.0), (48.0, 36.0),
                                                 (80.0, 60.0))
               for sx, sy in ((1, -1), (1, 1), (-1, -1), (-1, 1)))
_PAD = 3.0          # gap kept between a plate and anything else, pixels
_SAMPLES = 12       # points per obstacle segment tested against a plate


class LabelLayer(GLGraphicsItem):
    """All text labels of the scene, drawn in one QPainter pass.

    GLTextItem opens a QPainter per label, and each QPainter on a GL
    surface saves and restores the GL state: that was the largest single
    cost of a frame. The painter draws on a QOpenGLPaintDevice, i.e. into
    whatever framebuffer is bound, rather than on the view: the offscreen
    renders (``grabFramebuffer`` for screenshots, ``renderToArray``) draw
    into an FBO and get the text only that way. Each label sits on a
    translucent plate of the background colour, which keeps it readable
    where it crosses a bone or trail of its own colour.
    """

    def __init__(self):
        super().__init__()
        self.labels: list[Label] = []
        #: World-space polylines ((M, 3) arrays) no label may cover: the chains.
        self.obstacles: list[np.ndarray] = []
        self._plate = QtGui.QColor(SCENE_BACKGROUND)
        self._plate.setAlphaF(0.8)

    def paint(self):
        for label in self.labels:
            label.rect = None
        shown = [label for label in self.labels if label.visible and label.text]
        if not shown:
            return
        (vw, vh), project, painter, _device = self._begin()
        m = np.array(project.copyDataTo(), dtype=np.float64).reshape(4, 4)
        points = _project(m, self.obstacles)
        view = QtCore.QRectF(0.0, 0.0, vw, vh)
        placed: list[QtCore.QRectF] = []
        order = sorted(shown, key=lambda lb: (lb.fixed is None, -lb.priority))
        for label in order:
            box = QtGui.QFontMetricsF(label.font).tightBoundingRect(label.text)
            if label.fixed is not None:
                x, y = label.fixed[0] - box.left(), label.fixed[1] - box.top()
            else:
                anchor = project.map(QtGui.QVector3D(*label.pos)).toPointF()
                x, y = _place(anchor, box, (label.offset, *_SPOTS), placed, points, view)
            plate = box.translated(x, y).adjusted(-4.0, -3.0, 4.0, 3.0)
            placed.append(plate)
            label.rect = plate
            painter.setPen(QtCore.Qt.PenStyle.NoPen)
            painter.setBrush(self._plate)
            painter.drawRoundedRect(plate, 3.0, 3.0)
            painter.setPen(ink(label.color))
            painter.setFont(label.font)
            painter.drawText(QtCore.QPointF(x, y), label.text)
        painter.end()


    def _begin(self):
        """``(size, project, painter, device)``: logical viewport size, 3D to pixels, a painter.

        The current viewport is the widget in paintGL and one tile of the
        image in renderToArray; the projection matrix already matches it.
        Keep ``device`` until the painter has ended.
        """
        _, _, w, h = (int(v) for v in GL.glGetIntegerv(GL.GL_VIEWPORT))
        dpr = self.view().devicePixelRatioF()
        to_pixels = QtGui.QMatrix4x4()
        to_pixels.viewport(0.0, h / dpr, w / dpr, -h / dpr)
        project = to_pixels * self.mvpMatrix()
        device = QtOpenGL.QOpenGLPaintDevice(w, h)
        device.setDevicePixelRatio(dpr)
        painter = QtGui.QPainter(device)
        painter.setRenderHints(QtGui.QPainter.RenderHint.Antialiasing
                               | QtGui.QPainter.RenderHint.TextAntialiasing)
        return (w / dpr, h / dpr), project, painter, device


def _project(m: np.ndarray, polylines) -> np.ndarray:
    """Pixel positions of points sampled along ``polylines`` under the 4x4 ``m`` (row-major)."""
    pts = []
    for line in polylines:
        p = np.asarray(line, dtype=np.float64)
        p = p[np.all(np.isfinite(p), axis=-1)]
        if len(p) == 1:
            pts.append(p)
        elif len(p) > 1:
            s = np.linspace(0.0, 1.0, _SAMPLES)[:, None, None]
            pts.append((p[:-1] + s * (p[1:] - p[:-1])).reshape(-1, 3))
    if not pts:
        return np.empty((0, 2))
    p = np.concatenate(pts)
    h = np.column_stack([p, np.ones(len(p))]) @ m.T
    front = h[:, 3] > 1e-9
    return h[front, :2] / h[front, 3:4]


def _place(anchor: QtCore.QPointF, box: QtCore.QRectF, spots, placed, points: np.ndarray,
           view: QtCore.QRectF) -> tuple[float, float]:
    """Baseline position of the first spot whose plate is clear of labels, chains and edges.

    A spot is scored by what its plate would cover: another label weighs
    most, leaving the view next, then each obstacle point under it; the
    first free spot wins, else the least covered one.
    """
    best, best_cost = None, float("inf")
    for dx, dy in spots:
        x = anchor.x() + dx - (box.width() if dx < 0 else 0.0) - box.left()
        y = anchor.y() + dy - (box.bottom() if dy < 0 else box.top())
        plate = box.translated(x, y).adjusted(-4.0 - _PAD, -3.0 - _PAD, 4.0 + _PAD, 3.0 + _PAD)
        cost = 1000.0 * sum(plate.intersects(r) for r in placed)
        if not view.contains(plate):
            cost += 500.0
        if len(points):
            inside = ((points[:, 0] >= plate.left()) & (points[:, 0] <= plate.right())
                      & (points[:, 1] >= plate.top()) & (points[:, 1] <= plate.bottom()))
            cost += float(np.count_nonzero(inside))
        if cost == 0.0:
            return x, y
        if cost < best_cost:
            best, best_cost = (x, y), cost
    return best


def ink(colour: QtGui.QColor) -> QtGui.QColor:
    """A label's colour as drawn: a light-palette colour in the current theme, alpha kept."""
    out = QtGui.QColor(themes.current().colour(colour.name().upper()))
    out.setAlpha(colour.alpha())
    return out


def label_font(size: float, weight: QtGui.QFont.Weight) -> QtGui.QFont:
    font = QtGui.QFont()
    font.setPointSizeF(size)
    font.setWeight(weight)
    return font
