"""The callouts of the curve plots: labelled markers at the gaps and labels of peaks off the top.

:class:`PlotCallouts` is the annotating part of
:class:`quatlab.rendering.curve_plots.CurvePlots` (a mixin): a dashed line
at a narrow gap, a shaded band at a wide one, and a boxed label
(:class:`~quatlab.rendering.plot_label.BoxedLabel`) naming each.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.rendering.plot_items import nan_runs
from quatlab.rendering.plot_label import BoxedLabel, Curve, Line, pen_width
from quatlab.rendering.plot_y_axis import _TICK_FONT_PT
from quatlab.rendering.style import BACKGROUND, FOREGROUND

__all__ = ["PlotCallouts", "thousands"]

_GAP_FILL_ALPHA = 40
#: Narrower gaps than this fraction of the x span are drawn as a line.
_NARROW_GAP = 0.02


def thousands(value: float) -> str:
    """``value`` in thousands to two figures ("2.6k", "26k"); under 1,000, to three.

    >>> thousands(2619.58), thousands(-26195.8), thousands(340.0)
    ('2.6k', '-26k', '340')
    """
    if abs(value) < 1000.0:
        return f"{value:.3g}"
    k = value / 1000.0
    return f"{k:.1f}k" if abs(k) < 10.0 else f"{k:,.0f}k"


class PlotCallouts:
    """Gap markers and peak labels of :class:`CurvePlots` (a mixin)."""

    def _clear_annotations(self, plot: str) -> None:
        for it in self._annotations[plot]:
            self.plots[plot].removeItem(it)
        self._annotations[plot] = []
        self._label_stack[plot].clear()

    def _add_annotation(self, plot: str, item: QtWidgets.QGraphicsItem) -> None:
        self.plots[plot].addItem(item, ignoreBounds=True)
        self._annotations[plot].append(item)
        self._made(item)

    def _label(self, plot: str, x: float, colour: str, text: str,
               short: str | tuple[str, ...] | None = None,
               span: tuple[float, float] | None = None) -> None:
        """A boxed two-line label hanging from the top of ``plot`` at ``x``.

        Labels are two lines so they fit the narrow plots of the 1400 x 900
        window. The horizontal anchor follows ``x`` across the x range, and
        the label is kept inside the plot, clear of its curves, the t cursor
        and the plot's labels before it (words wrap on a plot narrower than
        the label; ``short`` is shown when nothing longer finds room), see
        :class:`~quatlab.rendering.plot_label.BoxedLabel`. A label of a gap
        names its ``span`` (a line's is its x alone), marked down the whole
        plot: over the band or line, at any height, it needs no leader.
        """
        lo, hi = self._x_range
        # Opaque in the plot's background (the theme's, through restyle): a
        # translucent box let the high-contrast grid cross its text.
        item = BoxedLabel(text, fraction=(x - lo) / (hi - lo), stack=self._label_stack[plot],
                          short=short, obstacles=lambda: self._curve_points(plot),
                          keep_clear=lambda: (self._cursor_line(plot),), span=span,
                          color=FOREGROUND, border=pg.mkPen(colour, width=1.5),
                          fill=pg.mkBrush(BACKGROUND))
        font = QtGui.QFont()
        font.setPointSize(_TICK_FONT_PT)
        item.setFont(font)
        item.setZValue(40)
        item.setPos(x, self._top[plot])
        self._add_annotation(plot, item)

    def _curve_points(self, plot: str) -> list[Curve]:
        """The shown curves of ``plot`` as drawn: points in view coordinates (log, if
        so), and their pens' widths (the theme's and the zoom's)."""
        out = []
        for item in self._items[plot].values():
            if item.isVisible():
                x, y = item.getData()
                if x is not None and len(x):
                    out.append(Curve(np.column_stack([x, y]),
                                     pen_width(pg.mkPen(item.opts["pen"]))))
        return out

    def _cursor_line(self, plot: str) -> Line:
        """The t cursor of ``plot`` as wide as drawn: its line, or the dots it carries."""
        dots = self._dots[plot]
        outline = dots.opts["pen"]   # a QPen once styled: no mkPen on every cursor move
        if not isinstance(outline, QtGui.QPen):
            outline = pg.mkPen(outline)
        # The widest dot: curves that meet share one, wider than a single dot.
        return Line(self._t, max(pen_width(self._cursor_lines[plot].pen),
                                 dots.widest() + pen_width(outline)))

    def _gap_label(self, plot: str, band: tuple[float, float], gap: str, members) -> None:
        """One callout naming the gap ``band`` of each of ``members`` (series, x, where).

        Short: what happens alone, the box's colour says to whom; or, for curves
        with a short name, to whom in short ("Y undefined": at 1024x768 and
        150 % the Euler tab's readout plot has 133 px beside the cursor, "SLERP,
        about Y undefined" takes 266, and "undefined" alone left three angles to
        tell apart by colour). Curves with a gap in one place share one box
        ("Y, Z″ undefined"): at the gimbal lock Y and Z″ both lose their meaning,
        and beside the first box the second found no room, which told the class
        Z″ was fine.
        """
        first, where, where_text = members[0]
        if all(s.short_label for s, _w, _t in members):
            # The list's separator and order as the language writes them ("Y、Z″ 未定义").
            short = _("{names} {what}").format(
                names=_(", ").join(s.short_label for s, _w, _t in members), what=gap)
        else:
            short = gap
        # One first line naming them all: a box with no room for the whole text
        # shows its first line alone (:class:`~.plot_label.BoxedLabel`).
        whose = _("; ").join(f"{s.label} {gap}" for s, _w, _t in members)
        self._label(plot, where, first.colour, f"{whose}\n{where_text}", short=short, span=band)

    def _annotate(self, plot: str) -> None:
        """Labelled markers at the gaps, and labels of curves that leave the top."""
        self._clear_annotations(plot)
        span = self._x_range[1] - self._x_range[0]
        name = self._x_name
        named: dict[tuple, list] = {}   # gap callouts by where they stand
        for s in self._shown(plot):
            for i0, i1 in nan_runs(s.y):
                left = s.x[max(i0 - 1, 0)]
                right = s.x[min(i1 + 1, s.x.size - 1)]
                if right - left <= _NARROW_GAP * span:
                    where = float(s.x[i0:i1 + 1].mean())
                    marker = pg.InfiniteLine(
                        pos=where, angle=90, movable=False,
                        pen=pg.mkPen(s.colour, width=1.5, style=QtCore.Qt.PenStyle.DashLine))
                    where_text = _("at {name} = {x}").format(name=name, x=f"{where:.3g}")
                    band = (float(where), float(where))   # the line is marked all the way down
                else:
                    where = 0.5 * (left + right)
                    colour = QtGui.QColor(s.colour)
                    colour.setAlpha(_GAP_FILL_ALPHA)
                    marker = pg.LinearRegionItem(
                        values=(left, right), movable=False, brush=pg.mkBrush(colour),
                        pen=pg.mkPen(None))
                    where_text = _("for {lo} < {name} < {hi}").format(lo=f"{left:.3g}", name=name,
                                                                   hi=f"{right:.3g}")
                    band = (float(left), float(right))
                marker.setZValue(-2)
                self._add_annotation(plot, marker)
                named.setdefault((band, s.gap_label), []).append((s, where, where_text))
        for (band, gap_label), members in named.items():
            self._gap_label(plot, band, _(gap_label), members)
        top = self._top[plot]
        for s in self._shown(plot):
            finite = np.isfinite(s.y)
            if self._log[plot] or not finite.any() or s.y[finite].max() <= top:
                continue  # (on a log axis every decade fits: nothing leaves the top)
            k = int(np.nanargmax(s.y))
            peak = f"{s.y[k]:,.0f}" if abs(s.y[k]) >= 100 else f"{s.y[k]:.3g}"
            # Last, the arrow and the value in thousands, close up: at 1024x768
            # and 150 % the two-key speed plot (negated 20 deg, t = 0.5) has
            # 69 px beside the spike and the cursor, "↑ 2,620" takes 88.
            self._label(plot, float(s.x[k]), s.colour,
                        "↑ " + _("{curve} peak {peak}\nat {name} = {x:.2f}").format(
                            curve=s.label, peak=peak, name=name, x=s.x[k]),
                        short=(f"↑ {peak}", f"↑{thousands(s.y[k])}"))
