"""Plots a student can interrogate: the value of every curve under the pointer, zoom, pan, reset.

A companion of :class:`quatlab.rendering.curve_plots.CurvePlots`, which builds
one :class:`PlotInspector` and reads its series and axis names through it.

The gestures (see :class:`quatlab.rendering.plot_items.ScrubViewBox`):

* **hover**: a box next to the pointer lists the x under it and every shown
  curve's value there, in the curve's colour (NaN: "none", the gaps the plot
  labels); on a log axis the signed value, not the |y| drawn;
* **left click or drag** still scrubs t, as the lesson always did: it is the
  gesture a student tries first and the one the lesson is about;
* **wheel** zooms about the pointer, **right or middle drag** pans;
* **double click** or the **⟲ all** button returns to the lesson's
  own range (the button shows, over the plots' top right corner, only while
  zoomed or panned, so it also says that the view is not the whole story).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PyQt6 import QtCore, QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.rendering import themes
from quatlab.rendering.series import PLOTS

__all__ = ["PlotInspector", "value_text"]

#: Gestures, in the button's tooltip and the plots' own.
HELP = N_("Hover: every curve's value at the pointer. Left click or drag: move the cursor. "
          "Wheel: zoom about the pointer; right or middle drag: pan; double click or "
          "'⟲ all': back to the whole range.")


def value_text(y: float) -> str:
    """A curve value for the hover box: 4 significant digits, "none" where there is none.

    >>> value_text(123.456), value_text(2.5e-9), value_text(float("nan"))
    ('123.5', '2.5e-09', 'none')
    """
    if not np.isfinite(y):
        return "none"
    return f"{y:.4g}"


class PlotInspector:
    """Hover readout and zoom reset for a :class:`~quatlab.rendering.curve_plots.CurvePlots`."""

    def __init__(self, plots) -> None:
        self._plots = plots
        self.boxes: dict[str, pg.TextItem] = {}
        for plot in PLOTS:
            item = plots.plots[plot]
            box = pg.TextItem(anchor=(0, 0), border=pg.mkPen("#999999"),
                              fill=pg.mkBrush(255, 255, 255, 235))
            box.setZValue(50)
            box.setVisible(False)
            # On the ViewBox, not the PlotItem: it is no curve annotation
            # (PlotItem.items lists those) and never counts in a range.
            item.getViewBox().addItem(box, ignoreBounds=True)
            self.boxes[plot] = box
            item.getViewBox().sigRangeChangedManually.connect(self._zoomed)
            item.getViewBox().setToolTip(_(HELP))
        view = plots._view
        # Over the plots' top right corner, shown while zoomed or panned: in the
        # legend row it took a line of its own on a narrow window (30 px of
        # the plots at 1024x768 and 150 %) to say nothing most of the time.
        self.reset_button = QtWidgets.QToolButton(view)
        self.reset_button.setText("⟲ " + _("all"))
        self.reset_button.setObjectName("plots_whole_range")
        self.reset_button.setToolTip(_(HELP))
        self.reset_button.setEnabled(False)
        self.reset_button.hide()
        self.reset_button.clicked.connect(plots.reset_view)
        view.scene().sigMouseMoved.connect(self.hover)
        view.viewport().installEventFilter(_OnEvent(QtCore.QEvent.Type.Leave, self.hide, view))
        view.installEventFilter(_OnEvent(QtCore.QEvent.Type.Resize, self._place_button, view))

    # -- zoom ---------------------------------------------------------------------

    def _zoomed(self, *_) -> None:
        self.reset_button.setEnabled(True)
        self._place_button()
        self.reset_button.show()
        self.reset_button.raise_()

    def view_reset(self) -> None:
        self.reset_button.setEnabled(False)
        self.reset_button.hide()

    def _place_button(self) -> None:
        """The button in the view's top right corner, clear of its edge."""
        button, view = self.reset_button, self._plots._view
        button.adjustSize()
        button.move(view.width() - button.width() - 4, 4)

    # -- hover --------------------------------------------------------------------

    def hide(self) -> None:
        for box in self.boxes.values():
            box.setVisible(False)

    def values_at(self, plot: str, x: float) -> list[tuple[str, str, float]]:
        """``(label, colour, value)`` of every curve shown in ``plot`` at ``x`` (NaN: none)."""
        out = []
        for s in self._plots._shown(plot):
            if s.x.size and s.x[0] <= x <= s.x[-1]:
                y = float(np.interp(x, s.x, s.y))
            else:
                y = float("nan")
            out.append((s.label, s.colour, y))
        return out

    def hover(self, scene_pos) -> None:
        """Show the values under ``scene_pos`` (scene coordinates) in the plot it is over."""
        for plot in PLOTS:
            vb = self._plots.plots[plot].getViewBox()
            box = self.boxes[plot]
            if not vb.sceneBoundingRect().contains(scene_pos):
                box.setVisible(False)
                continue
            p = vb.mapSceneToView(scene_pos)
            rows = self.values_at(plot, p.x())
            if not rows:
                box.setVisible(False)
                continue
            lines = [f"<b>{self._plots._x_name} = {p.x():.4g}</b>"] + [
                f"<span style='color:{themes.themed(c)}'>■</span> {label}: {value_text(y)}"
                for label, c, y in rows]
            fg = themes.current().foreground
            box.setHtml(f"<div style='color:{fg}'>{'<br>'.join(lines)}</div>")
            # Keep the box inside the plot: it hangs to the left of the
            # pointer in the right half and above it in the lower half.
            (x0, x1), (y0, y1) = vb.viewRange()
            box.setAnchor((1.05 if p.x() > 0.5 * (x0 + x1) else -0.05,
                           1.05 if p.y() < 0.5 * (y0 + y1) else -0.05))
            box.setPos(p)
            box.setVisible(True)


class _OnEvent(QtCore.QObject):
    """Calls ``action`` when the watched object gets an event of ``kind`` (the pointer
    leaving the plots hides the hover boxes; a resize moves the button)."""

    def __init__(self, kind: QtCore.QEvent.Type, action, parent) -> None:
        super().__init__(parent)
        self._kind = kind
        self._action = action

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if event.type() == self._kind:
            self._action()
        return False
