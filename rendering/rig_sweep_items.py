"""The rig view's error in 3D: the paths a joint's marker sweeps under each player, and a spoke.

:class:`SweepItems` draws :class:`~quatlab.app.model.rig_sweeps.SegmentSweep`
snapshots for :class:`~quatlab.rendering.rig_scene.RigScene`, in front of
the meshes (a path inside the truck's body still shows):

* each player's path of the marker over the segment, fading in along time
  from the background to the player's colour, with ticks at every tenth of
  the segment's time and arrowheads half-way and at the end
  (:func:`~quatlab.rendering.scene_marks.trail_marks` and the fade of the
  lesson's trails, :func:`~quatlab.rendering.trail_shape.trail_colours`):
  the spec player's short arc and the naive runtime's long way round, and
  which way each turns, even on a symmetric part whose ghost looks like the
  correct pose;
* a spoke per player from the centre of the marker's circle (on the turn
  axis) to the marker where the player has it now, with a dot at its end,
  so the part's turn reads like a clock hand;
* labels at each path's middle with the turn it makes about the axis,
  signed ("spec +11.7°", "naive −348.3°"), given to the scene's label layer:
  for the selected joint's nearest sweep (or the nearest sweep when none is
  the selected joint's), so several at once do not bury the rig in numbers.

The paths change with the sweeps shown, not with the time: their vertices
are uploaded again only when the set of sweeps changes; a time change moves
the spokes and dots (a few vertices).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph.opengl as gl
from PyQt6 import QtGui

from quatlab.app.i18n import _
from quatlab.rendering.chain import segment_indices
from quatlab.rendering.gl_items import OVERLAY, TrailItem
from quatlab.rendering.labels import Label
from quatlab.rendering.rig_meshes import to_view
from quatlab.rendering.scene_marks import trail_marks
from quatlab.rendering.style import rgba
from quatlab.rendering.trail_shape import MARK_SIZE, TICKS, TRAIL_FADE, trail_colours

__all__ = ["SweepItems"]


class SweepItems:
    """GL items of the sweeps shown; see the module docstring."""

    def __init__(self, view, order: int) -> None:
        # Each path over a wider line of the background: it stays apart from
        # the ghost it runs over, which is drawn in the same colour.
        self.halo = TrailItem(mode="lines", width=6.0, antialias=True, glOptions=dict(OVERLAY))
        self.halo.setDepthValue(order - 0.5)
        self.paths = TrailItem(mode="lines", width=2.5, antialias=True, glOptions=dict(OVERLAY))
        self.paths.setDepthValue(order)
        self.spokes = gl.GLLinePlotItem(mode="lines", width=3.0, antialias=True,
                                        glOptions=dict(OVERLAY))
        self.spokes.setDepthValue(order + 1)
        self.dots = gl.GLScatterPlotItem(pxMode=True, glOptions=dict(OVERLAY))
        self.dots.setDepthValue(order + 2)
        for item in self.items:
            item.setVisible(False)
            view.addItem(item)
        self._key: tuple = ()
        self.sweeps: list = []
        #: Where each path lies in :attr:`paths`' vertices: (sweep, player, start,
        #: line vertices, mark vertices), for tools and tests.
        self.layout: list[tuple] = []

    @property
    def items(self) -> list:
        return [self.halo, self.paths, self.spokes, self.dots]

    def hide(self) -> None:
        for item in self.items:
            item.setVisible(False)
        self._key = ()

    def draw(self, sweeps, frame, players: str, colours: dict, background, font: QtGui.QFont,
             reach: float, selected: int | None = None) -> list[Label]:
        """Draw ``sweeps`` at ``frame``; the labels for the scene's label layer.

        ``players``: which players are shown ("both", "spec", "naive"; only
        with both are the sweeps drawn);
        ``colours``: player -> "#RRGGBB"; ``background``: the 3D view's RGB
        floats (the paths fade from it); ``reach``: the scene's size, for
        the ticks' length.
        """
        # They compare the players: drawn when both are (either alone is the asset as played).
        shown = ["spec", "naive"] if players == "both" else []
        if not sweeps or frame is None or not shown:
            self.hide()
            self.sweeps = []
            return []
        self.sweeps = list(sweeps)
        key = (tuple(id(s) for s in sweeps), tuple(shown), tuple(colours[p] for p in shown),
               tuple(np.round(background, 4)))
        if key != self._key:
            self._key = key
            verts, cols = [], []
            self.layout, at = [], 0
            for sweep in sweeps:
                for player in shown:
                    v, strength, n_line = _path_lines(sweep, player, reach)
                    self.layout.append((sweep, player, at, n_line, len(v) - n_line))
                    at += len(v)
                    verts.append(v)
                    rgb = trail_colours(rgba(colours[player]), background, strength)
                    cols.append(np.column_stack([rgb, np.ones(len(rgb))]))
            pos = np.concatenate(verts).astype(np.float32)
            self.paths.setData(pos=pos, color=np.concatenate(cols).astype(np.float32))
            self.halo.setData(pos=pos, color=(*background, 0.85))
        self.paths.setVisible(True)
        self.halo.setVisible(True)
        spokes, spoke_cols, dots, dot_cols, labels = [], [], [], [], []
        named = ([s for s in sweeps if s.node == selected] or sweeps)[:1]
        for sweep in sweeps:
            centre_local = np.append((sweep.marker @ sweep.axis) * sweep.axis, 1.0)
            marker = np.append(sweep.marker, 1.0)
            for player in shown:
                world = (frame.naive if player == "naive" else frame.spec).world[sweep.node]
                a, b = to_view(np.array([(world @ centre_local)[:3], (world @ marker)[:3]]))
                colour = rgba(colours[player])
                spokes += [a, b]
                spoke_cols += [colour, colour]
                dots.append(b)
                dot_cols.append(colour)
                if not any(sweep is s for s in named):
                    continue
                path = getattr(sweep, player)
                turned = sweep.turned(player)
                text = (_("spec {turn}°") if player == "spec" else _("naive {turn}°")).format(
                    turn=f"{turned:+.1f}".replace("-", "−"))
                labels.append(Label(font, (10, 10), text, to_view(path[len(path) // 2]),
                                    QtGui.QColor(colours[player]), True, priority=-1))
        self.spokes.setData(pos=np.array(spokes, dtype=np.float32),
                            color=np.array(spoke_cols, dtype=np.float32))
        self.dots.setData(pos=np.array(dots, dtype=np.float32), size=10.0,
                          color=np.array(dot_cols, dtype=np.float32))
        self.spokes.setVisible(True)
        self.dots.setVisible(True)
        return labels


def _path_lines(sweep, player: str, reach: float) -> tuple[np.ndarray, np.ndarray, int]:
    """GL 'lines' vertices of a player's path (drawn smooth) then its marks, their strengths,
    and how many of the vertices are the path's.

    The line follows the densely sampled path; ticks and arrows are placed on
    the evenly timed samples (:func:`trail_marks` needs equal steps of time).
    """
    t, fine = sweep.fine[player][:2]
    span = max(float(t[-1] - t[0]), 1e-12)
    index = segment_indices(fine)
    lo, hi = TRAIL_FADE
    line_strength = lo + (hi - lo) * (t[index] - t[0]) / span
    even = to_view(getattr(sweep, player))
    length = float(np.linalg.norm(np.diff(even, axis=0), axis=1).sum())
    size = min(MARK_SIZE * min(reach, 4.0 * _radius(sweep)), 0.35 * length / TICKS) \
        if length > 0 else 0.0
    marks, marked = trail_marks(even, size) if size > 0 else (np.zeros((0, 3)), np.zeros(0, int))
    mark_strength = lo + (hi - lo) * marked / max(len(even) - 1, 1)
    return (np.concatenate([to_view(fine)[index], marks]),
            np.concatenate([line_strength, mark_strength]), len(index))


def _radius(sweep) -> float:
    """How far the marker's path strays from its middle (world units): the ticks' scale."""
    pts = np.concatenate([sweep.spec, sweep.naive])
    return float(np.linalg.norm(pts - pts.mean(axis=0), axis=1).max()) or 1.0
