"""Rig view labels placed in screen space so they never overlap, each with a leader to its joint.

A rig has dozens of joints close together; labels anchored beside each one
(as :class:`~quatlab.rendering.labels.LabelLayer` does for the lesson's
three chains) would pile up. :func:`place_labels` tries a few spots around
each anchor, in priority order, and keeps the first that overlaps no label
placed before it and stays inside the view; what finds no spot is counted
and left out (the largest differences come first, so those are the ones
shown). :class:`PlacedLabelLayer` draws them in one QPainter pass.
"""

from __future__ import annotations

import numpy as np
from PyQt6 import QtCore, QtGui

from quatlab.app.i18n import _
from quatlab.rendering.labels import LabelLayer, ink, text_ink

__all__ = ["place_labels", "PlacedLabelLayer", "CANDIDATES"]

#: Where a label may go, as the offset of its box's near corner from the
#: anchor (pixels; the sign says which side), tried in this order.
CANDIDATES = ((14, -14), (14, 14), (-14, -14), (-14, 14), (14, -40), (-14, -40),
              (14, 40), (-14, 40), (40, -2), (-40, -2), (60, -60), (-60, -60), (60, 60),
              (-60, 60))
_PAD = 4.0  # plate margin around the text, part of the box that must not overlap
#: Every character a label is likely to hold: drawn once, invisibly, with a font's first label.
_WARM_TEXT = "".join(map(chr, range(32, 127))) + "°…—"


def place_labels(anchors, sizes, width: float, height: float,
                 candidates=CANDIDATES) -> list[tuple[float, float] | None]:
    """Top-left corners of non-overlapping boxes near their anchors, or None where none fit.

    Parameters
    ----------
    anchors : (L, 2) array-like
        Anchor points in pixels, in priority order (earlier ones win).
    sizes : (L, 2) array-like
        Box width and height in pixels (plates included).
    width, height : float
        The view; boxes must lie inside it.

    Examples
    --------
    >>> place_labels([(50, 50), (52, 50)], [(40, 12), (40, 12)], 400, 300)
    [(64.0, 24.0), (66.0, 64.0)]
    """
    placed: list[tuple[float, float, float, float]] = []
    out: list[tuple[float, float] | None] = []
    for (ax, ay), (w, h) in zip(np.asarray(anchors, float).reshape(-1, 2),
                                np.asarray(sizes, float).reshape(-1, 2), strict=True):
        spot = None
        for dx, dy in candidates:
            x = ax + dx - (w if dx < 0 else 0.0)
            y = ay + dy - (h if dy < 0 else 0.0)
            if x < 0 or y < 0 or x + w > width or y + h > height:
                continue
            if any(x < px + pw and px < x + w and y < py + ph and py < y + h
                   for px, py, pw, ph in placed):
                continue
            spot = (float(x), float(y))
            placed.append((x, y, w, h))
            break
        out.append(spot)
    return out


class PlacedLabelLayer(LabelLayer):
    """A :class:`LabelLayer` whose labels are placed by :func:`place_labels`, with leader lines.

    Labels are drawn in list order of priority; :attr:`hidden` counts those
    left out in the last frame, and a note in the corner says how many.
    """

    def __init__(self):
        super().__init__()
        self.hidden = 0
        self.placed: list[tuple[float, float] | None] = []
        #: Where the last frame drew its "+n more labels" note (view pixels), or None.
        self.note_rect: QtCore.QRectF | None = None
        self._warm_fonts: set[str] = set()

    def paint(self):
        shown = [label for label in self.labels if label.visible and label.text]
        self.note_rect = None
        if not shown:
            self.hidden, self.placed = 0, []
            return
        (width, height), project, painter, _device = self._begin()
        anchors, boxes = [], []
        for label in shown:
            p = project.map(QtGui.QVector3D(*label.pos)).toPointF()
            anchors.append((p.x(), p.y()))
            boxes.append(QtGui.QFontMetricsF(label.font).tightBoundingRect(label.text))
        sizes = [(b.width() + 2 * _PAD, b.height() + 2 * _PAD) for b in boxes]
        self.placed = place_labels(anchors, sizes, width, height)
        self._warm(painter, shown)
        self.hidden = sum(spot is None for spot in self.placed)
        for label, anchor, box, size, spot in zip(shown, anchors, boxes, sizes, self.placed,
                                                  strict=True):
            if spot is None:
                continue
            rect = QtCore.QRectF(spot[0], spot[1], *size)
            near = QtCore.QPointF(min(max(anchor[0], rect.left()), rect.right()),
                                  min(max(anchor[1], rect.top()), rect.bottom()))
            painter.setPen(QtGui.QPen(ink(label.color), 1.2))
            painter.drawLine(QtCore.QPointF(*anchor), near)
            painter.setPen(QtCore.Qt.PenStyle.NoPen)
            painter.setBrush(self._plate)
            painter.drawRoundedRect(rect, 3.0, 3.0)
            painter.setPen(text_ink(label.color))
            painter.setFont(label.font)
            painter.drawText(QtCore.QPointF(spot[0] + _PAD - box.left(),
                                            spot[1] + _PAD - box.top()), label.text)
        if self.hidden:
            # In the bottom-left corner, wrapped to the view's width (a narrow
            # view or a long translation had cut it at the right edge).
            painter.setFont(shown[0].font)
            room = QtCore.QRectF(8.0, 8.0, max(width - 16.0, 1.0), max(height - 16.0, 1.0))
            flags = (QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignBottom
                     | QtCore.Qt.TextFlag.TextWordWrap)
            note = (_("+{n} more label (no room; zoom in)") if self.hidden == 1
                    else _("+{n} more labels (no room; zoom in)")).format(n=self.hidden)
            text_rect = painter.boundingRect(room, flags, note)
            self.note_rect = text_rect
            painter.setPen(QtCore.Qt.PenStyle.NoPen)
            painter.setBrush(self._plate)
            painter.drawRoundedRect(text_rect.adjusted(-4.0, -2.0, 4.0, 2.0), 3.0, 3.0)
            painter.setPen(ink(QtGui.QColor("#505050")))
            painter.drawText(room, flags, note)
        painter.end()


    def _warm(self, painter: QtGui.QPainter, shown) -> None:
        """Put every likely glyph of each new font in the GL glyph cache at once, invisibly.

        The GL paint engine caches glyphs in a texture that grows as new ones
        come; each growth copies it with a shader compiled the first time,
        which under llvmpipe held the first frame of a rig whose joint names
        had new letters for 50-90 ms. Drawn in a transparent pen: no pixel
        changes.
        """
        fonts = {label.font.key(): label.font for label in shown}
        for key, font in fonts.items():
            if key in self._warm_fonts:
                continue
            self._warm_fonts.add(key)
            painter.setFont(font)
            painter.setPen(QtGui.QColor(0, 0, 0, 0))
            painter.drawText(QtCore.QPointF(0.0, 2.0 * QtGui.QFontMetricsF(font).height()),
                             _WARM_TEXT)
