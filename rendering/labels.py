"""Text labels anchored at 3D points, all drawn in one QPainter pass over a GL view."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from OpenGL import GL
from PyQt6 import QtCore, QtGui, QtOpenGL
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem

from quatlab.rendering.chain import (
    ROOT,
)
from quatlab.rendering.style import SCENE_BACKGROUND

__all__ = ["Label", "LabelLayer", "label_font"]


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
        self._plate = QtGui.QColor(SCENE_BACKGROUND)
        self._plate.setAlphaF(0.8)

    def paint(self):
        shown = [label for label in self.labels if label.visible and label.text]
        if not shown:
            return
        _, project, painter, _device = self._begin()
        for label in shown:
            anchor = project.map(QtGui.QVector3D(*label.pos)).toPointF()
            box = QtGui.QFontMetricsF(label.font).tightBoundingRect(label.text)
            dx, dy = label.offset
            # Baseline position so that the box starts `offset` away from the anchor.
            x = anchor.x() + dx - (box.width() if dx < 0 else 0.0) - box.left()
            y = anchor.y() + dy - (box.bottom() if dy < 0 else box.top())
            painter.setPen(QtCore.Qt.PenStyle.NoPen)
            painter.setBrush(self._plate)
            painter.drawRoundedRect(box.translated(x, y).adjusted(-4.0, -3.0, 4.0, 3.0), 3.0, 3.0)
            painter.setPen(label.color)
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


def label_font(size: float, weight: QtGui.QFont.Weight) -> QtGui.QFont:
    font = QtGui.QFont()
    font.setPointSizeF(size)
    font.setWeight(weight)
    return font
