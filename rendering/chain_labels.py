"""The text of the lesson's 3D view: chain labels, notes pinned to the viewport, what labels avoid.

:class:`ChainLabels` is the labelling part of
:class:`quatlab.rendering.chain_scene.ChainScene` (a mixin); the labels
themselves are placed and drawn by :mod:`quatlab.rendering.labels`.
"""

from __future__ import annotations

import numpy as np
from PyQt6 import QtCore, QtGui

from quatlab.rendering.labels import Label

__all__ = ["ChainLabels"]

_NOTE_BAND = 24.0                # pixels kept free of the fitted content at the bottom, for notes
_NOTE_STEP = 24.0                # pixels between notes, stacked up from the bottom


class ChainLabels:
    """Labels, notes and what labels keep clear of, for :class:`ChainScene` (a mixin)."""

    def _add_label(self, label: Label) -> Label:
        self._label_layer.labels.append(label)
        return label

    def _set_obstacles(self, key: tuple, lines: list[np.ndarray]) -> None:
        """What ``key`` draws now, for the labels to keep clear of (empty: nothing).

        The chains, their joint gizmos, turn marks (axis arrow, arc) and
        trails (with their ticks), and the ghosts: a label over any of them
        hides what it names or what it is read against.
        """
        if lines:
            self._obstacles[key] = lines
        else:
            self._obstacles.pop(key, None)
        self._label_layer.obstacles = [line for group in self._obstacles.values()
                                       for line in group]
        self._label_layer.bodies = ([line for k, group in self._obstacles.items()
                                     if k[0] == "chain" for line in group]
                                    if self._labels_over_trails else None)

    def set_labels_over_trails(self, allowed: bool) -> None:
        """Let a label that beside its chain's tip reads as naming another chain stand
        over any chain's trail or turn marks, never over a chain, to stand by its own
        (:attr:`quatlab.rendering.labels.LabelLayer.bodies`): the engines' row, where a
        label wider than the chains' pitch found no free place by its chain."""
        self._labels_over_trails = bool(allowed)
        self._set_obstacles(("labels",), [])  # no lines: the lists made again

    def set_drawn_lines(self, key: str, lines: list[np.ndarray]) -> None:
        """What an item the lesson adds beside the chains draws now (world polylines, NaN
        rows are gaps; empty: nothing), for the labels to keep clear of: the Euler
        lesson's gimbal rings, which a label lay across."""
        self._set_obstacles(("drawn", key), lines)

    def _stack_notes(self) -> None:
        # In the band reset_camera keeps free at the bottom, so a note never
        # hides the chains of a framed view.
        y = self.height() - _NOTE_BAND + 2.0
        for chain in self._chains.values():
            if chain.note.visible:
                chain.note.fixed = (10.0, y)
                y -= _NOTE_STEP
        # What stripes mean, in the bottom right corner, where the band keeps it
        # off the chains; shown only where no label needs the room (Label.optional).
        stripes = getattr(self, "_stripe_note", None)
        if stripes is not None and stripes.visible:
            width = QtGui.QFontMetricsF(stripes.font).horizontalAdvance(stripes.text)
            stripes.fixed = (max(self.width() - width - 10.0, 10.0),
                             self.height() - _NOTE_BAND + 2.0)

    def notes(self) -> list[str]:
        """Texts of the notes pinned to the viewport now (one per chain without a pose, and
        one saying what stripes are while chains are drawn striped, where the last frame
        had room for it)."""
        stripes = getattr(self, "_stripe_note", None)
        return ([c.note.text for c in self._chains.values() if c.note.visible]
                + ([stripes.text] if stripes is not None and stripes.rect is not None else []))

    def placed_labels(self) -> list[tuple[str, QtCore.QRectF]]:
        """Every label the last frame drew, with its plate in widget pixels."""
        return [(lb.text, QtCore.QRectF(lb.rect)) for lb in self._label_layer.labels
                if lb.rect is not None]

    def placed_leaders(self) -> list[tuple[QtCore.QPointF, QtCore.QPointF]]:
        """Every leader line the last frame drew: (anchor, end at the plate), widget pixels."""
        return list(self._label_layer.leaders)

    def set_label(self, key: str, text: str) -> None:
        """Text shown beside the tip of chain ``key`` (default: the key itself)."""
        self._labels[key] = str(text)
        chain = self._chains.get(key)
        if chain is not None and chain.text != str(text):  # views set them again with new data
            chain.text = str(text)
            self._pose(chain, chain.q)
