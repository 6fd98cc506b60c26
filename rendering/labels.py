"""Text labels anchored at 3D points, all drawn in one QPainter pass over a GL view.

Labels are placed in screen space at every paint: each tries a few spots
around its anchor and takes the first that overlaps no label placed before
it and no segment of what the scene draws (:attr:`LabelLayer.obstacles`:
the chains, and in the lesson scene also their gizmos, turn marks, trails
and the ghosts; clipped against the plate exactly, by the rule of
:mod:`quatlab.rendering.label_place` that the plots' callouts follow too),
so labels never pile up into one blob or hide what they name. When no spot around the
anchor is free (several chains ending close together), the label goes to
the nearest free place in the view and a leader line ties it to its
anchor. Labels of one :attr:`Label.group` whose anchors fall within a few
pixels of each other (chains in the same pose) become one plate, a line per
label in its own colour, instead of four plates fighting for one spot.
Notes pinned to the viewport (``Label.fixed``) are placed first and are
obstacles too.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from math import ceil

import numpy as np
from OpenGL import GL
from PyQt6 import QtCore, QtGui, QtOpenGL
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem

from quatlab.rendering import themes
from quatlab.rendering.chain import ROOT
from quatlab.rendering.contrast import readable
from quatlab.rendering.label_place import LABEL_COST, Segments, best, costs, meets
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
    #: Labels of one group whose anchors coincide on screen share one plate.
    group: str | None = None
    #: A note that gives way: drawn after the labels, and only where it covers none.
    optional: bool = False
    #: Where the last paint put the text's plate, widget pixels (None: not drawn);
    #: for a label sharing a plate, its own line's band of it.
    rect: QtCore.QRectF | None = None


#: Pixel offsets tried after a label's own, nearest first: right/left of the
#: anchor, above/below it, farther out. The sign convention is Label.offset's.
_SPOTS = tuple((sx * dx, sy * dy) for dx, dy in ((9.0, 4.0), (24.0, 18.0), (48.0, 36.0),
                                                 (80.0, 60.0))
               for sx, sy in ((1, -1), (1, 1), (-1, -1), (-1, 1)))
_PAD = 3.0          # gap kept between a plate and anything else, pixels
_MAX_SAMPLES = 512  # most points per obstacle segment in the free-place search
_MERGE = 6.0        # anchors of one group this close (pixels) share a plate
_CELL = 4.0         # pixels per cell of the free-place search
_LEADER = 12.0      # a plate farther than this from its anchor gets a leader line
_CROSSED = LABEL_COST  # a spot whose leader crosses a label costs as one covering it
_NOTE_MARGIN = 10.0  # pixels a pinned note keeps from the view's right edge


@dataclass
class _Unit:
    """Labels placed as one plate: a single label, or a group that coincides on screen."""

    members: list[Label]
    anchor: QtCore.QPointF | None


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
        #: World-space polylines ((M, 3) arrays, NaN rows are gaps) no label may cover.
        self.obstacles: list[np.ndarray] = []
        #: The leader lines the last frame drew, (anchor, plate point) in widget pixels.
        self.leaders: list[tuple[QtCore.QPointF, QtCore.QPointF]] = []
        self._plate = QtGui.QColor(SCENE_BACKGROUND)
        self._plate.setAlphaF(0.8)

    def paint(self):
        for label in self.labels:
            label.rect = None
        self.leaders = []
        shown = [label for label in self.labels if label.visible and label.text]
        if not shown:
            return
        (vw, vh), project, painter, _device = self._begin()
        m = np.array(project.copyDataTo(), dtype=np.float64).reshape(4, 4)
        segs = Segments(_project(m, self.obstacles))
        view = QtCore.QRectF(0.0, 0.0, vw, vh)
        placed: list[QtCore.QRectF] = []
        units = _units(shown, project)
        # Notes first, then the labels, then the notes that give way to them.
        units.sort(key=lambda u: (2 if u.members[0].optional else u.anchor is not None,
                                  -max(lb.priority for lb in u.members)))
        for unit in units:
            first = unit.members[0]
            lines = unit.members
            if unit.anchor is None:
                lines = _wrapped(first, vw - first.fixed[0] - _NOTE_MARGIN)
            box, baselines, tops = _block(lines)
            if unit.anchor is None:
                # A wrapped note grows upwards: its last line where its one line was.
                rise = box.height() - _block([first])[0].height() if len(lines) > 1 else 0.0
                x, y = first.fixed[0] - box.left(), first.fixed[1] - rise - box.top()
            else:
                x, y = _place(unit.anchor, box, (first.offset, *_SPOTS), placed, segs, view,
                              self.leaders)
            plate = box.translated(x, y).adjusted(-4.0, -3.0, 4.0, 3.0)
            if first.optional and (not view.contains(plate)
                                   or any(plate.intersects(r) for r in placed)):
                continue  # no room for it: the labels come first
            placed.append(plate)
            if unit.anchor is not None and _distance(unit.anchor, plate) > _LEADER:
                end = _nearest(unit.anchor, plate)
                painter.setPen(QtGui.QPen(ink(first.color), 1.2))
                painter.drawLine(unit.anchor, end)
                self.leaders.append((QtCore.QPointF(unit.anchor), end))
                # A later label covers no leader: it is one more line to keep clear of.
                segs = Segments(np.concatenate([segs.segs, [[[unit.anchor.x(), unit.anchor.y()],
                                                             [end.x(), end.y()]]]]))
            painter.setPen(QtCore.Qt.PenStyle.NoPen)
            painter.setBrush(self._plate)
            painter.drawRoundedRect(plate, 3.0, 3.0)
            bands = _bands(plate, y, tops) if lines is unit.members else [plate] * len(lines)
            for label, base, band in zip(lines, baselines, bands, strict=True):
                label.rect = band
                painter.setPen(text_ink(label.color))
                painter.setFont(label.font)
                painter.drawText(QtCore.QPointF(x, y + base), label.text)
            first.rect = bands[0]
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


def _wrapped(note: Label, width: float) -> list[Label]:
    """``note`` as one label per line of its text wrapped to ``width`` pixels.

    Words are kept whole where they fit (text without spaces, as Chinese,
    breaks between any two characters): a pinned note longer than the view
    was cut at its right edge (a 1024-px screen).
    """
    fm = QtGui.QFontMetricsF(note.font)
    if fm.horizontalAdvance(note.text) <= width:
        return [note]
    pieces: list[tuple[str, str]] = []  # (text, what joins it to the piece before)
    for word in note.text.split(" "):
        if fm.horizontalAdvance(word) <= width:
            pieces.append((word, " "))
        else:
            pieces.extend((c, " " if k == 0 else "") for k, c in enumerate(word))
    lines: list[str] = []
    for text, join in pieces:
        if lines and fm.horizontalAdvance(lines[-1] + join + text) <= width:
            lines[-1] += join + text
        else:
            lines.append(text)
    return [Label(note.font, note.offset, text=line, color=note.color, visible=True)
            for line in lines]


def _units(shown: list[Label], project: QtGui.QMatrix4x4) -> list[_Unit]:
    """``shown`` as plates to place: labels of a group whose anchors coincide share one."""
    units: list[_Unit] = []
    for label in shown:
        if label.fixed is not None:
            units.append(_Unit([label], None))
            continue
        anchor = project.map(QtGui.QVector3D(*label.pos)).toPointF()
        for unit in units:
            if (label.group is not None and unit.anchor is not None
                    and unit.members[0].group == label.group
                    and any(_close(anchor, project, other) for other in unit.members)):
                unit.members.append(label)
                break
        else:
            units.append(_Unit([label], anchor))
    return units


def _close(anchor: QtCore.QPointF, project, other: Label) -> bool:
    p = project.map(QtGui.QVector3D(*other.pos)).toPointF()
    return abs(p.x() - anchor.x()) <= _MERGE and abs(p.y() - anchor.y()) <= _MERGE


def _block(members: list[Label]) -> tuple[QtCore.QRectF, list[float], list[float]]:
    """Text box of ``members`` stacked a line each, relative to the first baseline.

    Also each line's baseline and top, on the same scale. One label keeps
    its tight box (the plate hugs the ink); stacked lines go by the fonts'
    line spacing.
    """
    if len(members) == 1:
        box = _tight_box(members[0].font, members[0].text)
        return box, [0.0], [box.top()]
    box, baselines, tops, y = QtCore.QRectF(), [], [], 0.0
    for k, label in enumerate(members):
        fm = QtGui.QFontMetricsF(label.font)
        if k:
            y += fm.lineSpacing()
        baselines.append(y)
        tops.append(y - fm.ascent())
        line = QtCore.QRectF(0.0, y - fm.ascent(), fm.horizontalAdvance(label.text), fm.height())
        box = line if box.isNull() else box.united(line)
    return box, baselines, tops


#: Tight text boxes by (font key, text), least recently used first: measuring
#: text is a good share of a frame's label work, and most texts repeat from
#: frame to frame. Angle labels change with t, so the cache is bounded and
#: evicts one entry per new one: during playback it holds a steady size
#: instead of growing (and being cleared) with the frames.
_BOXES: OrderedDict[tuple[str, str], QtCore.QRectF] = OrderedDict()
_BOXES_KEPT = 128


def _tight_box(font: QtGui.QFont, text: str) -> QtCore.QRectF:
    key = (font.key(), text)
    box = _BOXES.get(key)
    if box is None:
        box = _BOXES[key] = QtGui.QFontMetricsF(font).tightBoundingRect(text)
        if len(_BOXES) > _BOXES_KEPT:
            _BOXES.popitem(last=False)
    else:
        _BOXES.move_to_end(key)
    return QtCore.QRectF(box)


def _bands(plate: QtCore.QRectF, y: float, tops: list[float]) -> list[QtCore.QRectF]:
    """``plate`` cut into one band per line, at the tops of the lines after the first.

    A line's top is at or below the one before's descent, so each band holds
    its own line and the bands tile the plate without overlapping.
    """
    cuts = [plate.top(), *(y + t for t in tops[1:]), plate.bottom()]
    return [QtCore.QRectF(plate.left(), lo, plate.width(), hi - lo)
            for lo, hi in zip(cuts, cuts[1:], strict=False)]


def _project(m: np.ndarray, polylines) -> np.ndarray:
    """Screen segments ``(S, 2, 2)`` (pixels) of ``polylines`` (world) under the 4x4 ``m``.

    A straight segment projects to a straight one, so only the vertices are
    projected. Segments with an end behind the camera or not finite are left
    out (NaN rows are gaps); a lone point is a segment of length 0.
    """
    lines = [np.asarray(line, dtype=np.float64).reshape(-1, 3) for line in polylines]
    lines = [line for line in lines if len(line)]
    if not lines:
        return np.empty((0, 2, 2))
    # One projection for all: the polylines end to end with a gap row between.
    gap = np.full((1, 3), np.nan)
    p = np.concatenate([part for line in lines for part in (line, gap)])
    h = np.column_stack([p, np.ones(len(p))]) @ m.T
    ok = np.all(np.isfinite(h), axis=-1) & (h[:, 3] > 1e-9)
    xy = np.full((len(p), 2), np.nan)
    xy[ok] = h[ok, :2] / h[ok, 3:4]
    seg = ok[:-1] & ok[1:]
    lone = ok & ~np.r_[False, seg] & ~np.r_[seg, False]
    ends = np.concatenate([np.stack([xy[:-1][seg], xy[1:][seg]], axis=1),
                           np.stack([xy[lone], xy[lone]], axis=1)])
    return ends


def _points(segs: np.ndarray, step: float) -> np.ndarray:
    """Points every ``step`` pixels along the segments ``segs`` (both ends included)."""
    if not len(segs):
        return np.empty((0, 2))
    a, b = segs[:, 0], segs[:, 1]
    n = np.clip(np.ceil(np.linalg.norm(b - a, axis=-1) / step), 1, _MAX_SAMPLES).astype(int)
    which = np.repeat(np.arange(len(a)), n + 1)
    start = np.repeat(np.cumsum(n + 1) - (n + 1), n + 1)
    f = (np.arange(len(which)) - start) / n[which]
    return a[which] + f[:, None] * (b - a)[which]


def _plate_at(box: QtCore.QRectF, x: float, y: float) -> QtCore.QRectF:
    """The plate of text ``box`` at baseline ``(x, y)``, padded by the gap kept around it."""
    return box.translated(x, y).adjusted(-4.0 - _PAD, -3.0 - _PAD, 4.0 + _PAD, 3.0 + _PAD)


def _edges(rect: QtCore.QRectF) -> tuple[float, float, float, float]:
    return rect.left(), rect.top(), rect.right(), rect.bottom()


def _place(anchor: QtCore.QPointF, box: QtCore.QRectF, spots, placed, segs: Segments,
           view: QtCore.QRectF, leaders=()) -> tuple[float, float]:
    """Baseline position of the first spot whose plate is clear of labels, lines and edges.

    The spots are scored together by :func:`quatlab.rendering.label_place.best`
    (a label weighs most, leaving the view next, then each segment met); the
    first free spot around the anchor wins. When none is free, the nearest
    free place anywhere in the view (:func:`_free_place`), and failing that
    the least covered of all.
    """
    corners = [(anchor.x() + dx - (box.width() if dx < 0 else 0.0) - box.left(),
                anchor.y() + dy - (box.bottom() if dy < 0 else box.top())) for dx, dy in spots]
    taken = [_edges(r) for r in placed]
    edges = _edges(view)
    rects = [_edges(_plate_at(box, x, y)) for x, y in corners]
    i, cost = best(rects, segs, taken, edges)

    def crossed(corner) -> float:
        # A leader through a label counts as that label covered, its own or an
        # earlier one (the engines' "Unity Euler curves" leader ran through
        # "PlayCanvas / glTFast").
        return 0.0 if _leader_clear(anchor, box, corner, placed, leaders) else _CROSSED

    if cost == 0.0 and crossed(corners[i]) == 0.0:
        return corners[i]
    every = costs(rects, segs, taken, edges) + np.array([crossed(c) for c in corners])
    i = int(np.argmin(every))
    cost = float(every[i])
    if cost == 0.0:
        return corners[i]
    far = _free_place(anchor, _plate_at(box, 0.0, 0.0), placed, segs.segs, view)
    if far is not None and (costs([_edges(_plate_at(box, *far))], segs, taken, edges)[0]
                            + crossed(far) < cost):
        return far
    return _inside(corners[i], box, placed, view)


def _inside(corner: tuple[float, float], box: QtCore.QRectF, placed,
            view: QtCore.QRectF) -> tuple[float, float]:
    """``corner`` moved so its plate lies in the view, unless that puts it on a label.

    With no free spot (a small view at 150 %), the least covered one could
    stick out of the view and cut the text; over a line is better than cut.
    """
    plate = _plate_at(box, *corner)
    dx = max(view.left() - plate.left(), 0.0) + min(view.right() - plate.right(), 0.0)
    dy = max(view.top() - plate.top(), 0.0) + min(view.bottom() - plate.bottom(), 0.0)
    if not (dx or dy):
        return corner
    moved = plate.translated(dx, dy)
    # Up or down the view from there, the nearest height clear of the labels.
    steps = range(0, int(view.height()) + 1, int(_CELL))
    for shift in sorted({s for k in steps for s in (k, -k)}, key=abs):
        tried = moved.translated(0.0, shift)
        if (view.top() <= tried.top() and tried.bottom() <= view.bottom()
                and not any(tried.intersects(r) for r in placed)):
            return corner[0] + dx, corner[1] + dy + shift
    return corner


def _free_place(anchor: QtCore.QPointF, plate0: QtCore.QRectF, placed, segs: np.ndarray,
                view: QtCore.QRectF) -> tuple[float, float] | None:
    """Baseline ``(x, y)`` putting the plate ``plate0`` (at baseline 0) nearest the anchor
    among the places in the view where it covers nothing; None if there is none.

    The view is cut into cells of :data:`_CELL` pixels; a cell is taken when
    an obstacle segment (sampled every half cell) or a placed plate touches
    it, and a summed-area table gives every cell-aligned position's count at
    once. A plate is rounded out to whole cells and padded, and the caller
    checks the place found exactly (:func:`_cost`).
    """
    nx, ny = int(view.width() // _CELL), int(view.height() // _CELL)
    pw, ph = ceil(plate0.width() / _CELL) + 1, ceil(plate0.height() / _CELL) + 1
    if pw > nx or ph > ny:
        return None
    taken = np.zeros((ny, nx), dtype=np.int32)
    points = _points(segs, _CELL / 2)
    if len(points):
        ix, iy = (points[:, 0] // _CELL).astype(np.int64), (points[:, 1] // _CELL).astype(np.int64)
        inside = (ix >= 0) & (ix < nx) & (iy >= 0) & (iy < ny)
        np.add.at(taken, (iy[inside], ix[inside]), 1)
    for r in placed:
        x0, x1 = max(int(r.left() // _CELL), 0), min(int(r.right() // _CELL) + 1, nx)
        y0, y1 = max(int(r.top() // _CELL), 0), min(int(r.bottom() // _CELL) + 1, ny)
        taken[y0:y1, x0:x1] += 1
    s = np.zeros((ny + 1, nx + 1), dtype=np.int64)
    s[1:, 1:] = taken.cumsum(0).cumsum(1)
    count = s[ph:, pw:] - s[:-ph, pw:] - s[ph:, :-pw] + s[:-ph, :-pw]
    free = np.argwhere(count == 0)
    if not len(free):
        return None
    # Plate corners of the free positions, and their distance to the anchor.
    left, top = free[:, 1] * _CELL, free[:, 0] * _CELL
    right, bottom = left + pw * _CELL, top + ph * _CELL
    dx = np.maximum(np.maximum(left - anchor.x(), anchor.x() - right), 0.0)
    dy = np.maximum(np.maximum(top - anchor.y(), anchor.y() - bottom), 0.0)
    distance = np.hypot(dx, dy)
    # The nearest place whose leader crosses no label placed before (the engines'
    # "Unity Euler curves" leader ran through "PlayCanvas / glTFast"); failing
    # that, the nearest.
    ends = np.stack([np.clip(anchor.x(), left, right), np.clip(anchor.y(), top, bottom)], -1)
    clear = distance <= _LEADER
    if placed:
        leaders = np.stack([np.broadcast_to([anchor.x(), anchor.y()], ends.shape), ends], 1)
        clear |= ~meets(leaders, _shrunk(placed)).any(axis=1)
    i = int(np.argmin(np.where(clear, distance, np.inf) if clear.any() else distance))
    # Centre the plate in its cells: the rounding margin goes to both sides.
    x = left[i] + (pw * _CELL - plate0.width()) / 2 - plate0.left()
    y = top[i] + (ph * _CELL - plate0.height()) / 2 - plate0.top()
    return float(x), float(y)


def _shrunk(rects) -> np.ndarray:
    """``(M, 4)`` edges of ``rects`` (QRectF) a pixel in: a leader may touch a neighbour."""
    return np.array([(r.left() + 1.0, r.top() + 1.0, r.right() - 1.0, r.bottom() - 1.0)
                     for r in rects], dtype=np.float64).reshape(-1, 4)


def _leader_clear(anchor: QtCore.QPointF, box: QtCore.QRectF, corner: tuple[float, float],
                  placed, leaders=()) -> bool:
    """Whether text ``box`` at baseline ``corner`` needs no leader or one that crosses none
    of the ``placed`` plates, and covers none of the earlier ``leaders``."""
    plate = box.translated(*corner).adjusted(-4.0, -3.0, 4.0, 3.0)  # as drawn
    if leaders and meets([[(a.x(), a.y()), (e.x(), e.y())] for a, e in leaders],
                         _shrunk([plate])).any():
        return False
    if _distance(anchor, plate) <= _LEADER or not placed:
        return True
    end = _nearest(anchor, plate)
    return not meets([[(anchor.x(), anchor.y()), (end.x(), end.y())]], _shrunk(placed)).any()


def _distance(p: QtCore.QPointF, rect: QtCore.QRectF) -> float:
    q = _nearest(p, rect)
    return float(np.hypot(q.x() - p.x(), q.y() - p.y()))


def _nearest(p: QtCore.QPointF, rect: QtCore.QRectF) -> QtCore.QPointF:
    """The point of ``rect`` nearest ``p``: where a leader line meets the plate."""
    return QtCore.QPointF(min(max(p.x(), rect.left()), rect.right()),
                          min(max(p.y(), rect.top()), rect.bottom()))


def ink(colour: QtGui.QColor) -> QtGui.QColor:
    """A label's colour as drawn: a light-palette colour in the current theme, alpha kept."""
    out = QtGui.QColor(themes.current().colour(colour.name().upper()))
    out.setAlpha(colour.alpha())
    return out


def text_ink(colour: QtGui.QColor) -> QtGui.QColor:
    """A label's text colour as drawn: :func:`ink`, deepened to 4.5:1 on the theme's scene.

    Method colours are made for lines; as text some are too pale on the light
    scene (naive SLERP's pink 2.8:1), which a projector washes out.
    """
    theme = themes.current()
    out = QtGui.QColor(readable(ink(colour).name().upper(), theme.scene.upper()))
    out.setAlpha(colour.alpha())
    return out


def label_font(size: float, weight: QtGui.QFont.Weight) -> QtGui.QFont:
    font = QtGui.QFont()
    font.setPointSizeF(size)
    font.setWeight(weight)
    return font
