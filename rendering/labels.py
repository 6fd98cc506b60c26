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
from itertools import combinations
from math import ceil

import numpy as np
from OpenGL import GL
from PyQt6 import QtCore, QtGui, QtOpenGL
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem

from quatlab.rendering import themes
from quatlab.rendering.chain import ROOT
from quatlab.rendering.contrast import readable
from quatlab.rendering.label_place import LABEL_COST, Segments, along, best, costs, meets
from quatlab.rendering.style import SCENE_BACKGROUND

__all__ = ["Label", "LabelLayer", "PlateUnit", "label_font", "ink", "text_block", "plate_units",
           "PLATE_GAP", "PLATE_MARGIN", "LEADER_PX", "leaders_along"]


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
    #: World points of what the label names (a chain's joints), or None: a plate
    #: nearer another label's body than its own reads as naming that one.
    body: np.ndarray | None = None
    #: The line of :attr:`LabelLayer.obstacles` (that very array) that is the named
    #: chain's own trail, where the label may cover it to stay by its chain when no
    #: free place is near (:func:`_place`); None: it keeps clear of it too.
    trail: np.ndarray | None = None


#: Pixel offsets tried after a label's own, nearest first: right/left of the
#: anchor, above/below it, farther out. The sign convention is Label.offset's.
_SPOTS = tuple((sx * dx, sy * dy) for dx, dy in ((9.0, 4.0), (24.0, 18.0), (48.0, 36.0),
                                                 (80.0, 60.0))
               for sx, sy in ((1, -1), (1, 1), (-1, -1), (-1, 1)))
#: Gap kept between a plate and anything else, pixels.
PLATE_GAP = 3.0
#: The plate round a label's text box, pixels across and along.
PLATE_MARGIN = (4.0, 3.0)
_MAX_SAMPLES = 512  # most points per obstacle segment in the free-place search
_MERGE = 6.0        # anchors of one group this close (pixels) share a plate
_CELL = 4.0         # pixels per cell of the free-place search
#: A plate farther than this (pixels) from its anchor gets a leader line.
LEADER_PX = 12.0
# A leader within this many degrees of parallel to one of LabelLayer.guides and
# this many pixels (at 100 % zoom) of it reads as a stretch of that line.
_GUIDE_DEGREES = 20.0
_GUIDE_REACH = 20.0
_CROSSED = LABEL_COST  # a spot whose leader crosses a label costs as one covering it
# A plate nearer another label's chain than its own: worse than a free spot, better than
# one over a line (a label over a chain hides more than one beside the wrong chain), and
# never a reason to go far (_place).
_MISREAD = 0.5
_MISREAD_PX = 4.0   # nearer by this much (chains in one pose are as near)
_MISREAD_TRIED = 256  # nearest free places a far label tries for one by its own chain
_MISREAD_REACH = 60.0  # how far a label goes from its anchor to stand by its own chain
# A plate this near its anchor (pixels) stands by its chain: about a plate's height at
# 150 %. A label with no free place this near may take one over its own trail only.
_NEAR_REACH = 30.0
#: Pixels between a broken label's plate and its anchor when centred over or under it.
_CENTRED = 9.0
#: Heights a cell apart tried over and under a chain for a label centred by it.
_BY_CHAIN_STEPS = 24
_NOTE_MARGIN = 10.0  # pixels a pinned note keeps from the view's right edge


@dataclass
class PlateUnit:
    """Labels placed as one plate: a single label, or a group that coincides on screen."""

    members: list[Label]
    anchor: QtCore.QPointF | None
    #: Screen points (P, 2) of what the members name, the anchors included.
    body: np.ndarray = field(default_factory=lambda: np.empty((0, 2)))
    #: Which of the scene's segments are the members' own trails (bool, one per segment).
    own: np.ndarray | None = None


@dataclass
class _Placed:
    """A plate placed by one paint: its unit, lines, text box, baselines and spot."""

    unit: PlateUnit
    lines: list[Label]
    box: QtCore.QRectF
    baselines: list[float]
    tops: list[float]
    x: float
    y: float
    plate: QtCore.QRectF
    #: (anchor, plate point) of its leader line, widget pixels; None if it needs none.
    leader: tuple[QtCore.QPointF, QtCore.QPointF] | None = field(init=False)

    def __post_init__(self) -> None:
        anchor = self.unit.anchor
        self.leader = None
        if anchor is not None and _distance(anchor, self.plate) > LEADER_PX:
            self.leader = (QtCore.QPointF(anchor), _nearest(anchor, self.plate))

    def moved(self, centre: QtCore.QPointF, view: QtCore.QRectF) -> _Placed:
        """The same text with its plate centred on ``centre``, or as near as lies in ``view``."""
        dx, dy = centre.x() - self.plate.center().x(), centre.y() - self.plate.center().y()
        to = self.plate.translated(dx, dy)
        dx += max(view.left() - to.left(), 0.0) + min(view.right() - to.right(), 0.0)
        dy += max(view.top() - to.top(), 0.0) + min(view.bottom() - to.bottom(), 0.0)
        return _Placed(self.unit, self.lines, self.box, self.baselines, self.tops,
                       self.x + dx, self.y + dy, self.plate.translated(dx, dy))


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
        #: World-space polylines no leader may run along (:func:`leaders_along`), drawn
        #: lines a leader would read as part of: the S3 panel's axes, from whose
        #: origin a level leader read as the negative x axis.
        self.guides: list[np.ndarray] = []
        #: Those of :attr:`obstacles` that are the chains themselves (the very arrays),
        #: where the scene lets a label that beside its anchor reads as naming a
        #: neighbour go centred by its own chain, on two lines if need be, over the
        #: rest (trails, turn marks); None: each label keeps the place by its anchor
        #: the rules give (:func:`_arrange`).
        self.bodies: list[np.ndarray] | None = None
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
        ends, line_of = _project(m, self.obstacles, lines_of=True)
        segs = Segments(ends)
        guides = _project(m, self.guides)
        view = QtCore.QRectF(0.0, 0.0, vw, vh)
        units = plate_units(shown, project)
        for unit in units:
            unit.body = _body(unit, m)
            unit.own = _own(unit, self.obstacles, line_of)
        # Notes first, then the labels, then the notes that give way to them.
        units.sort(key=lambda u: (2 if u.members[0].optional else u.anchor is not None,
                                  -max(lb.priority for lb in u.members)))
        hard = None
        if self.bodies is not None:
            bodies = {id(line) for line in self.bodies}
            hard = segs.subset(np.isin(line_of, [k for k, line in enumerate(self.obstacles)
                                                 if id(line) in bodies]))
        drawn = _laid_out(units, segs, view, guides, hard)
        for done in drawn:
            first = done.unit.members[0]
            if done.leader:
                painter.setPen(QtGui.QPen(ink(first.color), 1.2))
                painter.drawLine(*done.leader)
                self.leaders.append(done.leader)
            painter.setPen(QtCore.Qt.PenStyle.NoPen)
            painter.setBrush(self._plate)
            painter.drawRoundedRect(done.plate, 3.0, 3.0)
            bands = (_bands(done.plate, done.y, done.tops) if done.lines is done.unit.members
                     else [done.plate] * len(done.lines))
            for label, base_y, band in zip(done.lines, done.baselines, bands, strict=True):
                label.rect = band
                painter.setPen(text_ink(label.color))
                painter.setFont(label.font)
                painter.drawText(QtCore.QPointF(done.x, done.y + base_y), label.text)
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


def _laid_out(units: list[PlateUnit], segs: Segments, view: QtCore.QRectF,
              guides: np.ndarray = (), bodies_only: Segments | None = None) -> list[_Placed]:
    """``units`` placed in order, or in a better order where a leader is stretched.

    Placed one at a time, a label placed late may find every place near its
    anchor taken and go across the view (the engines' "Unreal Engine", 400 px
    at 1024x768 at 150 %). Then the stretched ones go first, twice at most,
    and the layout that reads best (:func:`_badness`) is kept.
    """
    drawn = kept = _arrange(units, segs, view, guides, bodies_only)
    least = _badness(kept, segs)
    first: list[int] = []
    for _retry in range(2):
        first += [id(d.unit) for d in drawn
                  if id(d.unit) not in first and _stretched(d, drawn, view)]
        if not first or least == 0.0:
            break
        rank = {u: k for k, u in enumerate(first)}
        # Fixed notes stay first and the notes that give way last (see paint).
        drawn = _arrange(sorted(units, key=lambda u: (
            u.members[0].optional, u.anchor is not None and rank.get(id(u), len(rank)) + 1)),
            segs, view, guides, bodies_only)
        bad = _badness(drawn, segs)
        if bad < least:
            kept, least = drawn, bad
    return kept


def _arrange(units: list[PlateUnit], segs: Segments, view: QtCore.QRectF,
             guides: np.ndarray = (), bodies_only: Segments | None = None) -> list[_Placed]:
    """Place ``units`` in their order, each clear of those before, its leader uncrossed
    and along none of the ``guides`` (screen segments).

    ``bodies_only`` is those of ``segs`` that are the chains themselves, in a scene
    that lets a label that reads as naming a neighbour stand over the rest to stand
    by its own chain (:attr:`LabelLayer.bodies`); None elsewhere: there the places
    by each anchor stand (the S3 panel's balls and the two keys' chains keep the
    layout their own rules give).
    """
    base = segs  # what the scene draws, before any leader
    placed: list[QtCore.QRectF] = []
    drawn: list[_Placed] = []
    for unit in units:
        first = unit.members[0]
        lines = unit.members
        if unit.anchor is None:
            lines = _wrapped(first, view.width() - first.fixed[0] - _NOTE_MARGIN)
        box, baselines, tops = text_block(lines)
        if unit.anchor is None:
            # A wrapped note grows upwards: its last line where its one line was.
            rise = box.height() - text_block([first])[0].height() if len(lines) > 1 else 0.0
            x, y = first.fixed[0] - box.left(), first.fixed[1] - rise - box.top()
        else:
            others = [u.body for u in units if u is not unit and len(u.body)]
            x, y = _place(unit.anchor, box, (first.offset, *_SPOTS), placed, segs, view,
                          [d.leader for d in drawn if d.leader], unit.body, others, unit.own,
                          guides)
            laid = (lines, box, baselines, tops, x, y)
            if (bodies_only is not None and len(lines) == 1
                    and _misnamed(box, (x, y), unit.body, others)):
                # Beside its anchor it reads as naming a neighbour (the engines' row at
                # 1024x768 at 150 %: "PlayCanvas / glTFast", 255 px, wider than the
                # chains' 135-px pitch, over the three.js chain): centred over or under
                # its own chain, on two lines if need be, over trails and turn marks
                # if need be (a ring of the engines' row), never over a chain.
                two = _broken(first)
                better = _by_own_chain(unit, [lines] + ([two] if two else []), placed,
                                       bodies_only, view, others,
                                       [d.leader for d in drawn if d.leader], guides)
                laid = better or laid
            lines, box, baselines, tops, x, y = laid
        mx, my = PLATE_MARGIN
        plate = box.translated(x, y).adjusted(-mx, -my, mx, my)
        if first.optional and (not view.contains(plate)
                               or any(plate.intersects(r) for r in placed)):
            continue  # no room for it: the labels come first
        placed.append(plate)
        done = _Placed(unit, lines, box, baselines, tops, x, y, plate)
        drawn.append(done)
        if done.leader:
            # A later label covers no leader: it is one more line to keep clear of.
            a, e = done.leader
            segs = segs.plus([[[a.x(), a.y()], [e.x(), e.y()]]])
            if bodies_only is not None:
                bodies_only = bodies_only.plus([[[a.x(), a.y()], [e.x(), e.y()]]])
    _uncross(drawn, base, view)
    return drawn


def _length(leader) -> float:
    a, e = leader
    return float(np.hypot(e.x() - a.x(), e.y() - a.y()))


def _stretched(done: _Placed, drawn: list[_Placed], view: QtCore.QRectF) -> bool:
    """Whether ``done``'s leader runs a third of the view or crosses another leader."""
    return bool(done.leader) and (
        _length(done.leader) > view.width() / 3
        or any(d.leader and d is not done and _cross(done.leader, d.leader) for d in drawn))


def _badness(drawn: list[_Placed], segs: Segments) -> float:
    """How poor a layout reads: the scene's lines under plates, leader length in
    pixels, and a covered label's worth for each pair of crossing leaders."""
    lines = [d.leader for d in drawn if d.leader]
    crossed = sum(_cross(a, b) for a, b in combinations(lines, 2))
    padded = [_edges(d.plate.adjusted(-PLATE_GAP, -PLATE_GAP, PLATE_GAP, PLATE_GAP)) for d in drawn]
    cover = float(costs(padded, segs).sum()) if padded else 0.0
    return cover + sum(_length(line) for line in lines) + _CROSSED * crossed


def _uncross(drawn: list[_Placed], segs: Segments, view: QtCore.QRectF) -> None:
    """Swap the plates of two labels whose leaders cross, where the swap costs nothing.

    Labels are placed one at a time, each taking the best place left, so
    two placed late can each end up on the other's side: at 1024x768 at
    150 % the SQUAD tab's "SQUAD" and "piecewise SLERP" leaders crossed. A
    swap is kept only when both plates stay in the view, cover no other
    plate and no more of the scene's lines than before, and no leader then
    runs through a plate or across another leader. Swapping the ends of two
    crossing leaders makes them shorter together, so the swaps end.
    """
    for _round in range(len(drawn)):
        for i, j in combinations(range(len(drawn)), 2):
            a, b = drawn[i], drawn[j]
            if a.leader and b.leader and _cross(a.leader, b.leader):
                rest = [d for k, d in enumerate(drawn) if k not in (i, j)]
                swapped = next((pair for pair in _swaps(a, b, view)
                                if _swap_ok((a, b), pair, rest, segs, view)), None)
                if swapped is not None:
                    drawn[i], drawn[j] = swapped
                    break
        else:
            return


def _swaps(a: _Placed, b: _Placed, view: QtCore.QRectF):
    """``a`` and ``b`` each in the other's place: centred there, then (plates of unequal
    widths side by side) each at the pair's outer edge on the other's side."""
    yield a.moved(b.plate.center(), view), b.moved(a.plate.center(), view)
    left, right = (a, b) if a.plate.center().x() < b.plate.center().x() else (b, a)
    lo, hi = left.plate.left(), right.plate.right()
    to_left = right.moved(QtCore.QPointF(lo + right.plate.width() / 2,
                                         left.plate.center().y()), view)
    to_right = left.moved(QtCore.QPointF(hi - left.plate.width() / 2,
                                         right.plate.center().y()), view)
    yield (to_right, to_left) if left is a else (to_left, to_right)


def _cross(one, other) -> bool:
    """Whether two leaders ``(anchor, end)`` cross; two from one point fan out, not cross.

    :func:`~quatlab.rendering.label_place.crossings` for one pair, in plain floats:
    its arrays cost 20 times as much, and a frame asks for every pair of leaders.
    """
    if abs(one[0].x() - other[0].x()) <= _MERGE and abs(one[0].y() - other[0].y()) <= _MERGE:
        return False
    (p1x, p1y), (p2x, p2y), (q1x, q1y), (q2x, q2y) = ((p.x(), p.y()) for p in (*one, *other))

    def side(ax, ay, bx, by, cx, cy):   # sign of the turn a -> b -> c
        turn = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        return (turn > 0) - (turn < 0)

    boxes_meet = (max(min(p1x, p2x), min(q1x, q2x)) <= min(max(p1x, p2x), max(q1x, q2x))
                  and max(min(p1y, p2y), min(q1y, q2y)) <= min(max(p1y, p2y), max(q1y, q2y)))
    return (boxes_meet
            and side(q1x, q1y, q2x, q2y, p1x, p1y) * side(q1x, q1y, q2x, q2y, p2x, p2y) <= 0
            and side(p1x, p1y, p2x, p2y, q1x, q1y) * side(p1x, p1y, p2x, p2y, q2x, q2y) <= 0)


def _swap_ok(old, new, rest: list[_Placed], segs: Segments, view: QtCore.QRectF) -> bool:
    """Whether plates ``new`` may replace ``old`` among ``rest`` (:func:`_uncross`)."""
    if not all(view.contains(n.plate) for n in new) or new[0].plate.intersects(new[1].plate):
        return False
    if any(n.plate.intersects(d.plate) for n in new for d in rest):
        return False
    padded = [_edges(d.plate.adjusted(-PLATE_GAP, -PLATE_GAP, PLATE_GAP, PLATE_GAP))
              for d in (*old, *new)]
    cover = costs(padded, segs)
    if cover[2:].sum() > cover[:2].sum():
        return False
    leaders = [d.leader for d in (*new, *rest) if d.leader]
    for n in new:
        others = [d for d in (*new, *rest) if d is not n]
        if n.leader and (meets([[(p.x(), p.y()) for p in n.leader]],
                               _shrunk([d.plate for d in others])).any()
                         or any(_cross(n.leader, line) for line in leaders
                                if line is not n.leader)):
            return False
        if any(meets([[(p.x(), p.y()) for p in line]], _shrunk([n.plate])).any()
               for line in leaders if line is not n.leader):
            return False
    return True


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


def plate_units(shown: list[Label], project: QtGui.QMatrix4x4) -> list[PlateUnit]:
    """``shown`` as plates to place: labels of a group whose anchors coincide share one."""
    units: list[PlateUnit] = []
    # Each anchor projected once, not again for every label compared with it.
    at: dict[int, QtCore.QPointF] = {}
    for label in shown:
        if label.fixed is not None:
            units.append(PlateUnit([label], None))
            continue
        anchor = at[id(label)] = project.map(QtGui.QVector3D(*label.pos)).toPointF()
        for unit in units:
            if (label.group is not None and unit.anchor is not None
                    and unit.members[0].group == label.group
                    and any(_close(anchor, at[id(other)]) for other in unit.members)):
                unit.members.append(label)
                break
        else:
            units.append(PlateUnit([label], anchor))
    return units


def _close(anchor: QtCore.QPointF, p: QtCore.QPointF) -> bool:
    return abs(p.x() - anchor.x()) <= _MERGE and abs(p.y() - anchor.y()) <= _MERGE


def text_block(members: list[Label]) -> tuple[QtCore.QRectF, list[float], list[float]]:
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


def _project(m: np.ndarray, polylines, *, lines_of: bool = False):
    """Screen segments ``(S, 2, 2)`` (pixels) of ``polylines`` (world) under the 4x4 ``m``.

    A straight segment projects to a straight one, so only the vertices are
    projected. Segments with an end behind the camera or not finite are left
    out (NaN rows are gaps); a lone point is a segment of length 0. With
    ``lines_of``, also ``(S,)`` the index in ``polylines`` each segment is of.
    """
    lines = [np.asarray(line, dtype=np.float64).reshape(-1, 3) for line in polylines]
    index = np.array([k for k, line in enumerate(lines) if len(line)], dtype=np.int64)
    lines = [line for line in lines if len(line)]
    if not lines:
        empty = np.empty((0, 2, 2))
        return (empty, np.empty(0, dtype=np.int64)) if lines_of else empty
    # One projection for all: the polylines end to end with a gap row between.
    gap = np.full((1, 3), np.nan)
    p = np.concatenate([part for line in lines for part in (line, gap)])
    row_of = np.repeat(index, [len(line) + 1 for line in lines])
    h = np.column_stack([p, np.ones(len(p))]) @ m.T
    ok = np.all(np.isfinite(h), axis=-1) & (h[:, 3] > 1e-9)
    xy = np.full((len(p), 2), np.nan)
    xy[ok] = h[ok, :2] / h[ok, 3:4]
    seg = ok[:-1] & ok[1:]
    lone = ok & ~np.r_[False, seg] & ~np.r_[seg, False]
    ends = np.concatenate([np.stack([xy[:-1][seg], xy[1:][seg]], axis=1),
                           np.stack([xy[lone], xy[lone]], axis=1)])
    if lines_of:
        return ends, np.concatenate([row_of[:-1][seg], row_of[lone]])
    return ends


def _own(unit: PlateUnit, obstacles, line_of: np.ndarray) -> np.ndarray | None:
    """Which segments (of ``line_of``, the obstacle line each is of) are the trails of
    ``unit``'s members (bool), or None if they have none among the ``obstacles``."""
    mine = {id(lb.trail) for lb in unit.members if lb.trail is not None}
    lines = [k for k, line in enumerate(obstacles) if id(line) in mine]
    return np.isin(line_of, lines) if lines else None


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
    mx, my = PLATE_MARGIN[0] + PLATE_GAP, PLATE_MARGIN[1] + PLATE_GAP
    return box.translated(x, y).adjusted(-mx, -my, mx, my)


def _edges(rect: QtCore.QRectF) -> tuple[float, float, float, float]:
    return rect.left(), rect.top(), rect.right(), rect.bottom()


def _place(anchor: QtCore.QPointF, box: QtCore.QRectF, spots, placed, segs: Segments,
           view: QtCore.QRectF, leaders=(), body=None, others=(),
           own=None, guides: np.ndarray = ()) -> tuple[float, float]:
    """Baseline position of the first spot whose plate is clear of labels, lines and edges.

    The spots are scored together by :func:`quatlab.rendering.label_place.best`
    (a label weighs most, leaving the view next, then each segment met); the
    first free spot around the anchor wins, unless it lies past
    :data:`_NEAR_REACH` and a free place (:func:`_free_place`) lies within it.
    When no spot is free, the nearest free place anywhere in the view. Where
    the place found lies past :data:`_NEAR_REACH`, one that near covering
    only the label's own trail comes first (``own``: which of ``segs`` it is,
    bool; None where the scene does not allow it). Failing all, the least
    covered spot. A plate nearer one of the ``others`` (what the other labels
    name, screen points) than its own ``body`` costs :data:`_MISREAD`: it
    reads as naming that one. A leader along one of the ``guides``
    (:func:`leaders_along`) costs as one through a label.
    """
    taken = [_edges(r) for r in placed]
    edges = _edges(view)
    corners = [(anchor.x() + dx - (box.width() if dx < 0 else 0.0) - box.left(),
                anchor.y() + dy - (box.bottom() if dy < 0 else box.top())) for dx, dy in spots]
    rects = [_edges(_plate_at(box, x, y)) for x, y in corners]
    i, cost = best(rects, segs, taken, edges)

    def crossed(spots) -> np.ndarray:
        # A leader through a label counts as that label covered, its own or an
        # earlier one (the engines' "Unity Euler curves" leader ran through
        # "PlayCanvas / glTFast").
        return np.where(_leaders_clear(anchor, box, spots, placed, leaders, guides), 0.0,
                        _CROSSED)

    def misread(spots) -> np.ndarray:
        return np.where(_nearer_another(box, spots, body, others), _MISREAD, 0.0)

    def free(lines: Segments = segs, within: float = np.inf):
        """The nearest place clear of ``lines``, labels and leaders, read as its own
        chain's and within ``within`` of the anchor; None if there is none."""
        near = _free_place(anchor, _plate_at(box, 0.0, 0.0), placed, lines.segs, view,
                           lambda spots: misread(spots) > 0.0, within, guides)
        if near is None or _reach(anchor, box, near) > within:
            return None
        cost = (costs([_edges(_plate_at(box, *near))], lines, taken, edges)[0]
                + crossed([near])[0] + misread([near])[0])
        return near if cost == 0.0 else None

    if not (cost == 0.0 and crossed([corners[i]])[0] == 0.0
            and misread([corners[i]])[0] == 0.0):
        every = costs(rects, segs, taken, edges) + crossed(corners) + misread(corners)
        i = int(np.argmin(every))
        cost = float(every[i])

    def by_own_trail(place):
        # Its own trail runs through the anchor (the hand draws it): over it, by its
        # chain, reads better than clear of it and far (the Euler tab at 1024x768 at
        # 150 %: "Euler angles, lerped" stood 133 px below its chain).
        if own is None or (place is not None and _reach(anchor, box, place) <= _NEAR_REACH):
            return None
        mask = np.zeros(len(segs), dtype=bool)
        mask[:len(own)] = own
        return free(segs.subset(~mask), within=_NEAR_REACH)

    if cost == 0.0:
        # The spots lie on rings round the anchor: past the first few, a free place
        # between two rings may be much nearer (the blend tab's "align to first" at
        # 1024x768 at 150 % took one 57 px above its tip, with room 22 px under it).
        reach = _reach(anchor, box, corners[i])
        if reach <= _NEAR_REACH:
            return corners[i]
        near = free(within=_NEAR_REACH) or corners[i]
        return by_own_trail(near) or near
    if cost < 1.0:  # free, if beside another chain too
        # Beside another chain only: a free place by its own chain, near enough,
        # reads better (the engines' row at 1280x720: "glTF reference" stood
        # over the three.js chain, with room above its own).
        return free(within=_MISREAD_REACH) or corners[i]
    far = _free_place(anchor, _plate_at(box, 0.0, 0.0), placed, segs.segs, view,
                      lambda spots: misread(spots) > 0.0, guides=guides)
    near = by_own_trail(far)
    if near is not None:
        return near
    if far is not None and (costs([_edges(_plate_at(box, *far))], segs, taken, edges)[0]
                            + crossed([far])[0] + misread([far])[0] < cost):
        return far
    return _inside(corners[i], box, placed, view)


def _reach(anchor: QtCore.QPointF, box: QtCore.QRectF, corner) -> float:
    """Distance from ``anchor`` to the plate of text ``box`` at baseline ``corner``."""
    left, top, right, bottom = _drawn(box, [corner])[0]
    dx = max(left - anchor.x(), anchor.x() - right, 0.0)
    dy = max(top - anchor.y(), anchor.y() - bottom, 0.0)
    return float(np.hypot(dx, dy))


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
                view: QtCore.QRectF, misread=None, within: float = np.inf,
                guides: np.ndarray = ()) -> tuple[float, float] | None:
    """Baseline ``(x, y)`` putting the plate ``plate0`` (at baseline 0) nearest the anchor
    among the least covered places in the view; None if it fits nowhere.

    The view is cut into cells of :data:`_CELL` pixels; a cell counts the
    obstacle points in it (segments sampled every half cell) and a placed
    plate makes it unusable; a summed-area table gives every cell-aligned
    position's count at once. A plate is rounded out to whole cells and
    padded, and the caller checks the place found exactly (:func:`_place`).

    The nearest place that covers nothing and whose leader crosses no label
    wins. Where none does (a crowded view at 150 %), the place whose leader
    crosses no label and that covers the fewest points: the engines' "Unity
    Euler curves" label otherwise lay across the Unity quaternion ring, all
    free places being behind another label. Failing that, the nearest free
    place. Among the nearest :data:`_MISREAD_TRIED` free and clear places, one
    that ``misread`` (baselines -> whether each reads as naming another
    chain, :func:`_nearer_another`) clears comes first: in the engines' row
    at 1280x720, "glTF reference" took the nearest free place, over the
    three.js chain. Only places within ``within`` pixels of the anchor are
    looked at (None if none is). A leader along one of the ``guides``
    (:func:`leaders_along`) is not clear.
    """
    nx, ny = int(view.width() // _CELL), int(view.height() // _CELL)
    pw, ph = ceil(plate0.width() / _CELL) + 1, ceil(plate0.height() / _CELL) + 1
    if pw > nx or ph > ny:
        return None
    # The cells a plate within reach can lie on (all of them if any place will do).
    cx0, cy0, cx1, cy1 = 0, 0, nx, ny
    if within < np.inf:
        cx0 = max(int((anchor.x() - within - plate0.width()) // _CELL), 0)
        cy0 = max(int((anchor.y() - within - plate0.height()) // _CELL), 0)
        cx1 = min(int((anchor.x() + within + plate0.width()) // _CELL) + 2, nx)
        cy1 = min(int((anchor.y() + within + plate0.height()) // _CELL) + 2, ny)
        if pw > cx1 - cx0 or ph > cy1 - cy0:
            return None
        lo, hi = np.array([cx0, cy0]) * _CELL, np.array([cx1, cy1]) * _CELL
        segs = segs[np.all((segs.max(axis=1) >= lo) & (segs.min(axis=1) <= hi), axis=-1)]
    mx, my = cx1 - cx0, cy1 - cy0
    taken = np.zeros((my, mx), dtype=np.int64)
    points = _points(segs, _CELL / 2)
    if len(points):
        ix = (points[:, 0] // _CELL).astype(np.int64) - cx0
        iy = (points[:, 1] // _CELL).astype(np.int64) - cy0
        inside = (ix >= 0) & (ix < mx) & (iy >= 0) & (iy < my)
        np.add.at(taken, (iy[inside], ix[inside]), 1)
    blocked = np.zeros((my, mx), dtype=np.int64)
    for r in placed:
        x0, x1 = max(int(r.left() // _CELL) - cx0, 0), min(int(r.right() // _CELL) + 1 - cx0, mx)
        y0, y1 = max(int(r.top() // _CELL) - cy0, 0), min(int(r.bottom() // _CELL) + 1 - cy0, my)
        if x0 < x1 and y0 < y1:
            blocked[y0:y1, x0:x1] = 1
    count, on_label = (_window_sums(a, pw, ph) for a in (taken, blocked))
    usable = np.argwhere(on_label == 0)
    if not len(usable):
        return None
    count = count[usable[:, 0], usable[:, 1]]
    usable = usable + [cy0, cx0]
    # The plate as drawn at each usable position (centred in its cells, the
    # gap kept around it off), and its distance to the anchor.
    left = usable[:, 1] * _CELL + (pw * _CELL - plate0.width()) / 2 + PLATE_GAP
    top = usable[:, 0] * _CELL + (ph * _CELL - plate0.height()) / 2 + PLATE_GAP
    right, bottom = left + plate0.width() - 2 * PLATE_GAP, top + plate0.height() - 2 * PLATE_GAP
    dx = np.maximum(np.maximum(left - anchor.x(), anchor.x() - right), 0.0)
    dy = np.maximum(np.maximum(top - anchor.y(), anchor.y() - bottom), 0.0)
    distance = np.hypot(dx, dy)
    if within < np.inf:
        # Only places this near are wanted: the rest are not looked at further
        # (their leaders against the labels were most of the search's work).
        near = distance <= within
        if not near.any():
            return None
        usable, count, distance = usable[near], count[near], distance[near]
        left, top, right, bottom = left[near], top[near], right[near], bottom[near]
    # Whether each place's leader crosses no label placed before (the engines'
    # "Unity Euler curves" leader ran through "PlayCanvas / glTFast").
    ends = np.stack([np.clip(anchor.x(), left, right), np.clip(anchor.y(), top, bottom)], -1)
    clear = np.ones(len(usable), dtype=bool)
    if placed:
        leaders = np.stack([np.broadcast_to([anchor.x(), anchor.y()], ends.shape), ends], 1)
        clear = (distance <= LEADER_PX) | ~meets(leaders, _shrunk(placed)).any(axis=1)
    clear &= ~leaders_along([anchor.x(), anchor.y()],
                            np.column_stack([left, top, right, bottom]), guides)
    free = count == 0

    def baselines(k: np.ndarray) -> np.ndarray:
        return np.column_stack([left[k] - PLATE_GAP - plate0.left(),
                                top[k] - PLATE_GAP - plate0.top()])

    if (free & clear).any():
        good = np.flatnonzero(free & clear)
        near = good[np.argsort(distance[good], kind="stable")[:_MISREAD_TRIED]]
        i = int(near[0])
        if misread is not None:
            read_right = np.flatnonzero(~misread(baselines(near)))
            if len(read_right):
                i = int(near[read_right[0]])
    elif clear.any():
        least = np.where(clear, count, np.iinfo(np.int64).max)
        i = int(np.argmin(np.where(least == least.min(), distance, np.inf)))
    elif free.any():
        i = int(np.argmin(np.where(free, distance, np.inf)))
    else:
        return None
    x, y = baselines(np.array([i]))[0]
    return float(x), float(y)


def _window_sums(cells: np.ndarray, pw: int, ph: int) -> np.ndarray:
    """Sum of ``cells`` over every ``ph`` x ``pw`` window, by a summed-area table."""
    ny, nx = cells.shape
    s = np.zeros((ny + 1, nx + 1), dtype=np.int64)
    s[1:, 1:] = cells.cumsum(0).cumsum(1)
    return s[ph:, pw:] - s[:-ph, pw:] - s[ph:, :-pw] + s[:-ph, :-pw]


def _shrunk(rects) -> np.ndarray:
    """``(M, 4)`` edges of ``rects`` (QRectF) a pixel in: a leader may touch a neighbour."""
    return np.array([(r.left() + 1.0, r.top() + 1.0, r.right() - 1.0, r.bottom() - 1.0)
                     for r in rects], dtype=np.float64).reshape(-1, 4)


def _body(unit: PlateUnit, m: np.ndarray) -> np.ndarray:
    """Screen points ``(P, 2)`` of what ``unit``'s labels name: their anchors, and each
    body's points and the points between them (a bone is a line), projected by ``m``."""
    points = [np.array([[unit.anchor.x(), unit.anchor.y()]])] if unit.anchor is not None else []
    for label in unit.members:
        if label.body is None or not len(label.body):
            continue
        world = np.asarray(label.body, dtype=np.float64).reshape(-1, 3)
        f = np.linspace(0.0, 1.0, 5)[:-1, None, None]
        dense = np.concatenate([(world[:-1] + f * (world[1:] - world[:-1])).reshape(-1, 3),
                                world[-1:]])
        px = _project(m, [dense])
        points.append(px[:, 0])
    return np.concatenate(points) if points else np.empty((0, 2))


def _drawn(box: QtCore.QRectF, corners) -> np.ndarray:
    """``(K, 4)`` edges of the plates of text ``box`` at each baseline of ``corners``, as
    drawn (:data:`PLATE_MARGIN` round the text; :func:`_plate_at` adds the gap kept round them)."""
    c = np.asarray(corners, dtype=np.float64).reshape(-1, 2)
    mx, my = PLATE_MARGIN
    return np.column_stack([c[:, 0] + box.left() - mx, c[:, 1] + box.top() - my,
                            c[:, 0] + box.right() + mx, c[:, 1] + box.bottom() + my])


def _by_own_chain(unit: PlateUnit, forms: list[list[Label]], placed, segs: Segments,
                  view: QtCore.QRectF, others, leaders=(), guides: np.ndarray = ()):
    """``(lines, box, baselines, tops, x, y)``: one of the ``forms`` of ``unit``'s text
    (its one line, broken in two) centred over or under its chain, or None.

    Centred over its anchor, over its chain's middle or between, or off those
    by a quarter or 0.6 of its width; over the anchor or under the chain, a
    cell a step farther. Among the places where the plate lies in the view,
    on no label, none of ``segs`` (the chains: not their trails) and no
    earlier ``leaders``, over no point of its own chain or of what the
    ``others`` name, reads as naming its own (:func:`_nearer_another` without
    its margin) and its leader crosses no label and runs along none of the
    ``guides`` (:func:`leaders_along`): one standing over or under
    no other chain (:func:`_over_others`) first, then the one-line form, then
    the nearest, on its first label's side.
    """
    anchor, first, body = unit.anchor, unit.members[0], np.asarray(unit.body)
    lo, hi = body.min(axis=0), body.max(axis=0)
    middle = 0.5 * (lo[0] + hi[0])
    centres = [anchor.x() + f * (middle - anchor.x()) for f in (0.0, 0.5, 1.0)]
    # Bottom edges over the anchor (-1) and top edges under the chain (+1), a cell
    # apart, up to a few lines away; the first label's side first where as near.
    steps = np.arange(_BY_CHAIN_STEPS) * _CELL
    prefer = -1 if first.offset[1] < 0 else 1
    ys = [(anchor.y() - _CENTRED - d, -1) for d in steps] + [(hi[1] + _CENTRED + d, 1)
                                                             for d in steps]
    points = np.concatenate([body, *map(np.asarray, others)]) if others else body
    found = []
    for n, lines in enumerate(forms):
        box, baselines, tops = text_block(lines)
        # Off centre by up to a quarter of its width, where the chains beside leave room.
        xs = [cx + f * box.width() for f in (0.0, -0.25, 0.25, -0.6, 0.6) for cx in centres]
        corners = np.array([(cx - box.width() / 2 - box.left(),
                             y - (box.bottom() if side < 0 else box.top()))
                            for y, side in ys for cx in xs])
        sides = np.repeat([side for _y, side in ys], len(xs))
        rects = [_edges(_plate_at(box, *c)) for c in corners]
        cost = costs(rects, segs, [_edges(r) for r in placed], _edges(view))
        drawn = _drawn(box, corners)
        inside = ((points[None] >= drawn[:, None, :2]) & (points[None] <= drawn[:, None, 2:]))
        covers = inside.all(axis=-1).any(axis=1)
        ok = ((cost == 0.0) & ~covers
              & ~_nearer_another(box, corners, body, others, margin=0.0)
              & _leaders_clear(anchor, box, corners, placed, leaders, guides))
        reach = np.hypot(np.maximum(np.maximum(drawn[:, 0] - anchor.x(),
                                               anchor.x() - drawn[:, 2]), 0.0),
                         np.maximum(np.maximum(drawn[:, 1] - anchor.y(),
                                               anchor.y() - drawn[:, 3]), 0.0))
        over = _over_others(drawn, others)
        found += [(over[k], n, round(float(reach[k]) / _CELL), sides[k] != prefer, k,
                   (lines, box, baselines, tops, *corners[k])) for k in np.flatnonzero(ok)]
    if not found:
        return None
    return min(found, key=lambda f: f[:5])[5]


def _misnamed(box: QtCore.QRectF, corner, body, others) -> bool:
    """Whether text ``box`` at baseline ``corner`` may read as naming another of the
    point sets ``others`` than its own ``body``: nearer one by its edges, or as near and
    nearer by its middle (:func:`_nearer_another` without its margin), or over or under
    one (:func:`_over_others`)."""
    if body is None or not len(body) or not others:
        return False
    return bool(_nearer_another(box, [corner], body, others, margin=0.0)[0]
                or _over_others(_drawn(box, [corner]), others)[0])


def _over_others(plates: np.ndarray, others) -> np.ndarray:
    """``(K,)`` whether each of ``plates`` ``(K, 4)`` stands over or under one of the point
    sets ``others``: one of its points in the plate's columns, a plate's height from it."""
    height = (plates[:, 3] - plates[:, 1])[:, None]
    out = np.zeros(len(plates), dtype=bool)
    for p in map(np.asarray, others):
        out |= ((p[None, :, 0] >= plates[:, :1]) & (p[None, :, 0] <= plates[:, 2:3])
                & (p[None, :, 1] >= plates[:, 1:2] - height)
                & (p[None, :, 1] <= plates[:, 3:] + height)).any(axis=1)
    return out


def _broken(label: Label) -> list[Label] | None:
    """``label``'s text as two lines, or None if it has no space to break at.

    It breaks after a " / " (two names of one thing, "PlayCanvas / glTFast"), else
    at the space that leaves the longer line shortest.
    """
    text = label.text
    if " / " in text:
        k = text.index(" / ")
        parts = [text[:k + 2], text[k + 3:]]
    else:
        spaces = [k for k, c in enumerate(text) if c == " "]
        if not spaces:
            return None
        fm = QtGui.QFontMetricsF(label.font)
        k = min(spaces, key=lambda k: max(fm.horizontalAdvance(text[:k]),
                                          fm.horizontalAdvance(text[k + 1:])))
        parts = [text[:k], text[k + 1:]]
    if not all(parts):
        return None
    return [Label(label.font, label.offset, text=part, color=label.color, visible=True)
            for part in parts]


def _nearer_another(box: QtCore.QRectF, corners, body, others,
                    margin: float = _MISREAD_PX) -> np.ndarray:
    """``(K,)`` whether text ``box`` at each baseline of ``corners`` lies nearer one of the
    point sets ``others`` than its own ``body``, by ``margin`` pixels or more: by its
    edges, or, about as near by its edges (within the plate's height), by its centre."""
    plates = _drawn(box, corners)
    if body is None or not len(body) or not len(others):
        return np.zeros(len(plates), dtype=bool)
    lo, hi = plates[:, :2], plates[:, 2:]

    def gap(points):  # (K,) distance from each plate to the nearest of points (P, 2)
        d = np.maximum(np.maximum(lo[:, None] - points[None], points[None] - hi[:, None]), 0.0)
        return np.hypot(d[..., 0], d[..., 1]).min(axis=1)

    own = gap(np.asarray(body))
    gaps = [gap(np.asarray(p)) for p in others]
    misread = np.min(gaps, axis=0) + margin < own
    # About as near by their edges, within a line of its text (a plate over the gap
    # between two chains): it reads as naming the chain it is centred over.
    # "Unreal Engine" stood over the Unity-Euler chain, 12 px from each by its
    # edges; "align to first" (the blend tab at 1024x768 at 150 %, its plate 26 px
    # high) 13 px from its chain's tip and 28 px from the naive sum's chain, its
    # middle 48 px from that one and 76 px from its own.
    tied = [~misread & (g <= own + (hi[:, 1] - lo[:, 1])) for g in gaps]
    if not any(t.any() for t in tied):
        return misread
    centre = 0.5 * (lo + hi)

    def reach(points):  # (K,) distance from each plate's centre to the nearest of points
        return np.hypot(*(centre[:, None] - points[None]).transpose(2, 0, 1)).min(axis=1)

    own_c = reach(np.asarray(body))
    for p, t in zip(others, tied, strict=True):
        if t.any():
            misread |= t & (reach(np.asarray(p)) + margin < own_c)
    return misread


def _leaders_clear(anchor: QtCore.QPointF, box: QtCore.QRectF, corners, placed,
                   leaders=(), guides: np.ndarray = ()) -> np.ndarray:
    """``(K,)`` whether text ``box`` at each baseline of ``corners`` needs no leader or one
    that crosses none of the ``placed`` plates, covers none of the earlier ``leaders`` and
    runs along none of the ``guides`` (:func:`leaders_along`).

    All spots at once: one spot at a time was most of a crowded frame's label
    work (the engines at 1024x768 at 150 %).
    """
    plates = _drawn(box, corners)
    ok = np.ones(len(plates), dtype=bool)
    if leaders:
        lines = [[(a.x(), a.y()), (e.x(), e.y())] for a, e in leaders]
        ok &= ~meets(lines, plates + [1.0, 1.0, -1.0, -1.0]).any(axis=0)
    if placed:
        p = np.array([anchor.x(), anchor.y()])
        ends = np.clip(p, plates[:, :2], plates[:, 2:])
        far = np.hypot(*(ends - p).T) > LEADER_PX
        own = np.stack([np.broadcast_to(p, ends.shape), ends], 1)
        ok &= ~(far & meets(own, _shrunk(placed)).any(axis=1))
    return ok & ~leaders_along([anchor.x(), anchor.y()], plates, guides)


def leaders_along(anchor, plates, guides) -> np.ndarray:
    """``(K,)`` whether the leader from ``anchor`` (pixels) to each of ``plates`` ``(K, 4)``
    (left, top, right, bottom as drawn) runs along one of ``guides`` ``(G, 2, 2)``.

    A plate within :data:`LEADER_PX` of its anchor has no leader. A leader runs from the
    anchor to the plate's nearest point; it runs along a guide within a few degrees
    of parallel to it and a few pixels of it (:func:`~quatlab.rendering.label_place.along`).

    >>> x_axis = [[(100, 100), (200, 100)]]
    >>> leaders_along((100, 100), [(20, 95, 60, 110), (20, 20, 60, 40), (104, 95, 140, 110)],
    ...               x_axis).tolist()
    [True, False, False]
    """
    plates = np.asarray(plates, dtype=np.float64).reshape(-1, 4)
    if not len(guides):
        return np.zeros(len(plates), dtype=bool)
    p = np.asarray(anchor, dtype=np.float64)
    ends = np.clip(p, plates[:, :2], plates[:, 2:])
    far = np.hypot(*(ends - p).T) > LEADER_PX
    if far.any():
        lines = np.stack([np.broadcast_to(p, ends[far].shape), ends[far]], 1)
        far[far] = along(lines, guides, _GUIDE_DEGREES, _GUIDE_REACH * themes.scale())
    return far


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
