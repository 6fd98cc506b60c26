"""How the two curve plots share their widget: side by side when it is wide, one over the other
when it is tall or narrow.

:class:`PlotArrange` is the arrangement part of
:class:`quatlab.rendering.curve_plots.CurvePlots` (a mixin). A lesson that
puts its plots in a column beside the 3D view (a wide window) gets them
stacked, each as wide as the column; below the view on a narrow window
(1024 px at 150 %) two plots side by side were too narrow for their tick
labels, and stacked they are not. Off until a view asks for it
(:meth:`PlotArrange.set_auto_arrange`): the plots elsewhere keep their row.
"""

from __future__ import annotations

from PyQt6 import QtCore

from quatlab.rendering.series import PLOTS

__all__ = ["PlotArrange", "side_by_side"]

#: Least width of one plot, in lines of the widget's font: a y title, the
#: tick labels and six x ticks ("0.0" to "1.0") with room between them.
PLOT_LEAST_WIDTH_LINES = 17
#: Least height of one plot, in lines: a y title shortened at most once, and
#: three labelled ticks.
PLOT_LEAST_HEIGHT_LINES = 11
#: Least height of a plot squeezed into a column too narrow for two side by side
#: (a short page's plots beside the 3D view), in lines: three labelled ticks and
#: the x axis, the y title shortened.
PLOT_SQUEEZED_HEIGHT_LINES = 7
#: Width of one plot, in lines, below which two side by side are slivers: their y
#: titles and tick labels leave a data area a few ticks wide, and the right one is
#: cut off at the window's edge (drawn at 1.875 on a 1024x768 screen: two 203-px
#: plots in the SQUAD tab's 406-px column). Stacked then, if each gets
#: PLOT_SHORTEST_LINES: a short title over its unit ("angle / (°)") and two
#: labelled ticks; the SQUAD and wrap plots got 6.0 lines each and showed theirs
#: whole, the blend's 5.4 lines did not.
PLOT_SLIVER_WIDTH_LINES = 12
PLOT_SHORTEST_LINES = 6
#: Side by side only when the widget is this much wider than tall: two
#: plots then are each about as wide as tall, not tall slivers.
SIDE_BY_SIDE_ASPECT = 1.3


def side_by_side(width: int, height: int, line: float) -> bool:
    """Whether two plots in a ``width`` x ``height`` widget go side by side (else stacked).

    Stacked when the widget is tall enough for two plots and either narrower
    than two plots or not much wider than tall, or narrower than two plots
    and tall enough for two squeezed ones, or too narrow for two plots of
    PLOT_SLIVER_WIDTH_LINES and tall enough for two of PLOT_SHORTEST_LINES;
    ``line`` is the height of a line of the widget's font (it grows with
    View > Zoom).

    >>> side_by_side(824, 360, 15.0), side_by_side(330, 600, 15.0)
    (True, False)
    >>> side_by_side(560, 300, 23.0)  # too short to stack: side by side, fewer ticks
    True
    >>> side_by_side(560, 560, 23.0)
    False
    >>> side_by_side(410, 420, 23.0)  # a short page's column beside the 3D view
    False
    >>> side_by_side(406, 323, 26.0)  # too short for squeezed ones, too narrow for two
    False
    >>> side_by_side(406, 252, 26.0)  # too short even for the shortest: side by side
    True
    """
    if width < 2 * PLOT_SLIVER_WIDTH_LINES * line and height >= 2 * PLOT_SHORTEST_LINES * line:
        return False  # side by side: two slivers of title and ticks; stacked, short ones
    narrow = width < 2 * PLOT_LEAST_WIDTH_LINES * line
    if narrow and height >= 2 * PLOT_SQUEEZED_HEIGHT_LINES * line:
        return False  # two plots side by side here are slivers; stacked, short ones
    if height < 2 * PLOT_LEAST_HEIGHT_LINES * line:
        return True
    return width >= SIDE_BY_SIDE_ASPECT * height and width >= 2 * PLOT_LEAST_WIDTH_LINES * line


class PlotArrange:
    """Side by side or stacked plots, for :class:`CurvePlots` (a mixin)."""

    _auto_arrange = False
    _stacked = False

    def set_auto_arrange(self, on: bool) -> None:
        """Arrange the plots by the widget's shape at every resize (see :func:`side_by_side`)."""
        self._auto_arrange = bool(on)
        self._arrange_to_size()

    @property
    def stacked(self) -> bool:
        """Whether the plots are one over the other (else side by side)."""
        return self._stacked

    def set_stacked(self, stacked: bool) -> None:
        """Put the plots one over the other (True) or side by side (False)."""
        stacked = bool(stacked)
        if stacked == self._stacked:
            return
        self._stacked = stacked
        layout = self._view.ci
        items = [self.plots[p] for p in PLOTS]
        for item in items:
            layout.removeItem(item)
        layout.removeItem(self._legend)
        # The exported figures' legend row spans the plots' columns.
        layout.addItem(self._legend, row=0, col=0, colspan=1 if stacked else len(PLOTS))
        for k, item in enumerate(items):
            layout.addItem(item, row=1 + k if stacked else 1, col=0 if stacked else k)
        # Stacked, one left axis width for both: their t axes line up under each other.
        axes = [item.getAxis("left") for item in items]
        for axis in axes:
            if hasattr(axis, "set_peers"):
                axis.set_peers(axes if stacked else [])
        # Laid out now, over the whole view: the grid kept the size it had
        # before the rows changed (two plots 43 px tall in a 411-px view).
        view = self._view
        view.centralWidget.setGeometry(QtCore.QRectF(0.0, 0.0, view.width(), view.height()))
        layout.layout.activate()
        self.updateGeometry()

    def _arrange_to_size(self) -> None:
        if not self._auto_arrange or self.width() <= 1 or self.height() <= 1:
            return
        view = self._view
        wide = side_by_side(view.width(), max(view.height(), 1), self.fontMetrics().height())
        self.set_stacked(not wide)
