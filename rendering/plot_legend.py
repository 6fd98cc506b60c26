"""The on-screen legend of the curve plots: a checkbox per curve that shows or hides it in both.

:class:`PlotLegend` is the legend part of
:class:`quatlab.rendering.curve_plots.CurvePlots` (a mixin): each checkbox
carries the curve's line sample, and it holds which curves are shown.
"""

from __future__ import annotations

from PyQt6 import QtCore, QtWidgets

from quatlab.app.i18n import _
from quatlab.rendering import themes
from quatlab.rendering.plot_items import swatch_icon
from quatlab.rendering.series import PLOTS, Series

__all__ = ["PlotLegend"]


class PlotLegend:
    """Curve checkboxes and visibility of :class:`CurvePlots` (a mixin)."""

    def retheme(self) -> None:
        """Draw the legend swatches and cursor dots again in the current theme."""
        self._checks_key = None
        self._sync_checks()
        self._update_dots()

    def _sync_checks(self) -> None:
        named = self._named_series()
        key = (themes.current().name,
               *((s.name, s.label, s.colour, s.dashed) for s in named))
        if key == self._checks_key:
            return  # the common case: same methods, new endpoints
        self._checks_key = key
        for box in self._checks.values():
            self._checks_row.removeWidget(box)
            box.setParent(None)  # gone from findChildren now, freed later
            box.deleteLater()
        self._checks.clear()
        for i, s in enumerate(named):
            box = QtWidgets.QCheckBox(s.label)
            box.setIcon(swatch_icon(s.colour, s.dashed))
            box.setIconSize(QtCore.QSize(36, 14))
            box.setChecked(self._visible[s.name])
            box.setToolTip(_("Show or hide {curve} in both plots").format(curve=s.label))
            box.toggled.connect(lambda on, name=s.name: self.set_method_visible(name, on))
            self._checks_row.insertWidget(1 + i, box)
            self._checks[s.name] = box

    def method_names(self) -> list[str]:
        """Names of the curves shown, in legend order."""
        return [s.name for s in self._named_series()]

    def method_visible(self, name: str) -> bool:
        """Whether curve ``name`` is shown."""
        self._check_name(name)
        return self._visible[name]

    def set_method_visible(self, name: str, visible: bool) -> None:
        """Show or hide curve ``name`` in both plots (and its checkbox).

        Emits ``visibilityChanged(name, visible)`` when the state changes.
        """
        self._check_name(name)
        visible = bool(visible)
        if self._visible[name] == visible:
            return
        self._visible[name] = visible
        box = self._checks.get(name)
        if box is not None and box.isChecked() != visible:
            box.blockSignals(True)
            box.setChecked(visible)
            box.blockSignals(False)
        self._refresh()
        self.visibilityChanged.emit(name, visible)

    def _check_name(self, name: str) -> None:
        if name not in self._visible:
            raise KeyError(f"unknown curve {name!r}; known: {', '.join(self._visible)}")

    def _named_series(self) -> list[Series]:
        """One series per name, in first-appearance order over both plots."""
        seen: dict[str, Series] = {}
        for plot in PLOTS:
            for s in self._series[plot].values():
                seen.setdefault(s.name, s)
        return list(seen.values())

    def _shown(self, plot: str) -> list[Series]:
        return [s for s in self._series[plot].values() if self._visible[s.name]]
