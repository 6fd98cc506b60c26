"""The t cursor of the curve plots: a line the user drags or clicks, and a dot on each curve at it.

:class:`PlotCursor` is the cursor part of
:class:`quatlab.rendering.curve_plots.CurvePlots` (a mixin); a user's move is
reported as ``cursorMoved``, a move from :meth:`PlotCursor.set_cursor` is not.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtGui

from quatlab.rendering import themes
from quatlab.rendering.plot_label import follow_keep_clear
from quatlab.rendering.series import PLOTS

__all__ = ["PlotCursor"]


class PlotCursor:
    """The t cursor and cursor dots of :class:`CurvePlots` (a mixin)."""

    def cursor(self) -> float:
        """Current cursor position (t)."""
        return self._t

    def set_cursor(self, t: float,
                   values: Mapping[str, tuple[float, float]] | None = None) -> None:
        """Move the cursor line of both plots to ``t`` without emitting ``cursorMoved``.

        Parameters
        ----------
        t : float
            Clamped to the x range.
        values : mapping name -> (angle_deg, speed_deg), optional
            Exact values at ``t`` for the dots on the curves (e.g. from
            ``compute_curves(q0, q1, t=[t])``); without them the sampled
            curves are interpolated linearly.
        """
        t = float(t)
        if not np.isfinite(t):
            raise ValueError(f"t must be finite, got {t!r}")
        self._move_cursor(min(max(t, self._x_range[0]), self._x_range[1]))
        self.set_cursor_values(values)

    def set_cursor_values(self, values: Mapping[str, tuple[float, float]] | None) -> None:
        """Exact (angle_deg, speed_deg) per curve at the current cursor; None to interpolate.

        Names missing from ``values`` are interpolated; NaN hides that dot.
        """
        self._cursor_values = dict(values) if values is not None else None
        self._update_dots()

    def _move_cursor(self, t: float) -> None:
        self._t = t
        # setValue emits sigPositionChanged; the flag tells _on_line_moved that
        # this move is ours, not the user's, so no cursorMoved feedback loop.
        self._moving_cursor = True
        try:
            for line in self._cursor_lines.values():
                line.setValue(t)
        finally:
            self._moving_cursor = False
        # The callouts keep clear of the cursor: one it now runs through moves.
        for stack in self._label_stack.values():
            follow_keep_clear(stack)

    def _update_dots(self) -> None:
        for col, plot in enumerate(PLOTS):
            xs, ys, brushes = [], [], []
            for s in self._shown(plot):
                exact = (self._cursor_values or {}).get(s.name)
                if exact is not None:
                    y = float(exact[col])
                elif s.x.size:
                    y = float(np.interp(self._t, s.x, s.y))
                else:
                    continue
                y = float(self.view_y(plot, y))
                if np.isfinite(y):
                    xs.append(self._t)
                    ys.append(y)
                    brushes.append(self._brush(s.colour))
            self._dots[plot].set_points(xs, ys, brushes)

    def _brush(self, colour: str) -> QtGui.QBrush:
        """One brush per colour for the cursor dots, made once.

        A new brush per cursor update made every playback frame allocate
        (memory grew by 1.5-2 MB a minute while playing).
        """
        key = (themes.current().name, colour)
        brush = self._brushes.get(key)
        if brush is None:
            brush = self._brushes[key] = pg.mkBrush(themes.themed(colour))
        return brush

    def _on_line_moved(self, line: pg.InfiniteLine) -> None:
        if not self._moving_cursor:
            self._on_user_x(line.value())

    def _on_user_x(self, x: float) -> None:
        """A user gesture put the cursor at ``x``: move both lines, then tell the model."""
        t = min(max(float(x), self._x_range[0]), self._x_range[1])
        if t == self._t and all(ln.value() == t for ln in self._cursor_lines.values()):
            return
        self._move_cursor(t)
        self._cursor_values = None  # they were for the old t
        self._update_dots()
        self.cursorMoved.emit(t)
