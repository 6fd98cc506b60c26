"""Export the plots as the figure shown (PNG, SVG) or as their data (CSV), atomically.

:class:`PlotExport` is the export half of
:class:`quatlab.rendering.curve_plots.CurvePlots` (a mixin); the SVG path
works around pyqtgraph 0.14's exporter on Qt >= 6.10 (see
:func:`svg_closepath_compat`). Formats: docs/formats.md, "Plot exports".
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
from pathlib import Path

import numpy as np
from PyQt6 import QtCore
from pyqtgraph.exporters import ImageExporter, SVGExporter

from quatlab.app.i18n import _
from quatlab.app.io.atomic import atomic_write
from quatlab.app.io.curves_io import table_csv
from quatlab.rendering.series import PLOTS, Series

__all__ = ["PlotExport", "svg_closepath_compat"]


_CLOSE = re.compile(r"\s*[Zz]\s*")


def close_subpaths(d: str) -> str:
    """Rewrite each SVG close-path command ``Z`` as a line back to the subpath start.

    Same shape, but only the ``M x,y`` / ``L x,y`` tokens that pyqtgraph's
    SVG exporter can parse.
    """
    out, start = [], None
    for token in _CLOSE.sub(" Z ", d).split():
        if token in ("Z", "z"):
            if start is not None:
                out.append(f"L{start}")
            continue
        if token[0] in "Mm":
            start = token[1:]
        out.append(token)
    return " ".join(out)


@contextlib.contextmanager
def svg_closepath_compat():
    """Let pyqtgraph 0.14's SVGExporter read paths that Qt >= 6.10 closes with ``Z``.

    The exporter re-parses every ``<path d=...>`` Qt writes, expecting only
    ``x,y`` pairs, and raises ``ValueError`` on a ``Z`` (pyqtgraph issues
    #3485 and #3495; fixed upstream by PR #3458, not in 0.14.0). Every plot
    hits it through the ViewBox clip path. For the duration of one export we
    rewrite ``Z`` before the exporter's own coordinate pass; with a fixed
    pyqtgraph there is no ``Z`` left to rewrite and this does nothing.
    """
    module = importlib.import_module("pyqtgraph.exporters.SVGExporter")
    original = module.correctCoordinates

    def correct(node, defs, item, options):
        for path in node.getElementsByTagName("path"):
            d = path.getAttribute("d")
            if "Z" in d or "z" in d:
                path.setAttribute("d", close_subpaths(d))
        return original(node, defs, item, options)

    module.correctCoordinates = correct
    try:
        yield
    finally:
        module.correctCoordinates = original


class PlotExport:
    """Writes what a :class:`~quatlab.rendering.curve_plots.CurvePlots` shows to a file."""

    def export(self, path: str | os.PathLike) -> Path:
        """Write the plots to ``path``: ``.png``, ``.svg`` or ``.csv`` by suffix.

        PNG and SVG are the figure as shown (legend, both plots, cursor), via
        pyqtgraph's ``ImageExporter`` / ``SVGExporter`` on the one scene. CSV
        holds the data of every curve, shown or hidden: a column for x (``t``)
        then ``<name>_angle_deg`` and ``<name>_speed_deg`` per curve (with a
        time unit, ``time_s`` and ``<name>_speed_deg_per_s``); a value that
        does not exist is an empty cell.

        The figure or table is rendered in memory and written with
        :func:`quatlab.app.io.atomic.atomic_write`, so a failed export never
        leaves a half-written file and the file gets the user's usual mode.

        Returns
        -------
        Path
            The written path.

        Raises
        ------
        ValueError
            The suffix is not one of the three.
        OSError
            The file could not be written.
        """
        path = Path(path)
        writers = {".png": self._write_png, ".svg": self._write_svg, ".csv": self._write_csv}
        suffix = path.suffix.lower()
        if suffix not in writers:
            raise ValueError(
                _("cannot export {file!r}: unknown suffix {suffix!r}; use .png, .svg or "
                  ".csv").format(file=str(path), suffix=path.suffix or _("(none)")))
        # Rendered in memory, then written by the one atomic writer: the
        # user's normal file mode, and never a half-written file.
        atomic_write(path, writers[suffix]())
        return path

    @contextlib.contextmanager
    def _figure_legend(self):
        """Show the legend row, listing the visible curves, while a figure is exported."""
        layout = self._view.ci.layout
        self._legend.clear()
        for s in self._named_series():
            if self._visible[s.name]:
                plot = next(p for p in PLOTS if s.name in self._series[p])
                self._legend.addItem(self._items[plot][s.name], s.label)
        self._legend.setVisible(True)
        layout.activate()  # lay out now: the exporters paint synchronously
        try:
            yield
        finally:
            self._legend.setVisible(False)
            self._legend.clear()
            layout.activate()

    def _write_png(self) -> bytes:
        with self._figure_legend():
            image = ImageExporter(self._view.scene()).export(toBytes=True)
        buf = QtCore.QBuffer()
        buf.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
        if not image.save(buf, "PNG"):
            raise OSError(_("could not encode the plots as PNG"))
        return bytes(buf.data())

    def _write_svg(self) -> bytes:
        with self._figure_legend(), svg_closepath_compat():
            return SVGExporter(self._view.scene()).export(toBytes=True)

    def csv_columns(self) -> list[str]:
        """Header of :meth:`export` to ``.csv``."""
        return [name for name, _s in self._csv_columns()]

    def _csv_columns(self) -> list[tuple[str, Series | None]]:
        unit = f"_{self._x_unit}" if self._x_unit else ""
        cols: list[tuple[str, Series | None]] = [(f"{self._x_name}{unit}", None)]
        per = f"_per_{self._x_unit}" if self._x_unit else ""
        for s in self._named_series():
            for plot in PLOTS:
                own = self._series[plot].get(s.name)
                if own is not None:
                    cols.append((f"{s.name}_{plot}_deg{per if plot == 'speed' else ''}", own))
        return cols

    def _write_csv(self) -> bytes:
        cols = self._csv_columns()
        series = [s for _, s in cols if s is not None]
        xs = np.unique(np.concatenate([s.x for s in series])) if series else np.empty(0)
        table = np.full((xs.size, len(cols)), np.nan)
        table[:, 0] = xs
        for j, (_name, s) in enumerate(cols[1:], start=1):
            # Series may be sampled at different x: place each on the union.
            table[np.searchsorted(xs, s.x), j] = s.y
        return table_csv([name for name, _s in cols], table.T).encode("utf-8")
