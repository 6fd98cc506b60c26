"""Re-colour and re-scale the plots and 3D views of a widget tree for the current theme and zoom.

Views are built with the light palette and the sizes they were designed at;
:func:`restyle` walks every pyqtgraph plot and GL view under a widget and
sets backgrounds, axes, text, legends, curves, points, gizmos and labels to
the theme of :mod:`quatlab.rendering.themes` (colours through
:func:`~quatlab.rendering.themes.themed`, so it can run again after any
switch), with line widths times ``scale x line_scale`` and font and point
sizes times ``scale``.

Colours and sizes: the first time an item is seen its colour (light) and
width or size are its design values; when the walk finds the value it set
last, the design value is kept; when a view has set a new one since, that
is the new design value. So running it twice, in any order of themes, or
after a view redrew, never compounds. Items a view makes or resets later
(a new preset's curves, a new axis title) are in design values again, so a
view that rebuilds calls :func:`restyle_plots` on what it made right after
(the curve plots do, at the end of every rebuild; the 3D scenes reuse their
items, which keep what the walk set). Views draw in light colours, except
where they derive colours (trail fades, label shades) through
:func:`~quatlab.rendering.style.rgba`, which uses the current theme; such
colours are no light role colours and pass through unchanged.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pyqtgraph.opengl as gl
from PyQt6 import QtGui, QtWidgets

from quatlab.rendering import themes
from quatlab.rendering.gl_view import GLWindowView
from quatlab.rendering.labels import LabelLayer

__all__ = ["restyle", "restyle_plots", "restyled_theme", "gl_views", "light_to_theme"]

_ATTR = "_quatlab_design"


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape
                and np.allclose(a, b, atol=1e-6))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(abs(x - y) <= 1e-6 for x, y in zip(a, b, strict=True))
    return abs(a - b) <= 1e-6


def _record(obj, key: str, design, value) -> None:
    """Note that ``obj``'s ``key`` was set to ``value`` for the design value ``design``."""
    obj.__dict__.setdefault(_ATTR, {})[key] = (design, value)


def _tracked(obj, key: str, now, make):
    """``make(design)`` for ``obj``'s ``key`` whose value is ``now`` (see the module docstring)."""
    seen = obj.__dict__.get(_ATTR, {}).get(key)
    design = seen[0] if seen is not None and _same(seen[1], now) else now
    new = make(design)
    _record(obj, key, design, new)
    return new


def _scaled(obj, key: str, now: float, factor: float) -> float:
    return _tracked(obj, key, float(now), lambda design: design * factor)


def _rounded(obj, key: str, now: int, factor: float, plus: float = 0.0) -> int:
    """:func:`_scaled` (then ``plus``) for a whole number of pixels: the record is
    the rounded value set, so the next walk recognises it (an unrounded one read
    75 as a new design width and grew a 58-px axis to 165 px over four walks at 130%)."""
    return int(_tracked(obj, key, float(now),
                        lambda design: float(max(round(design * factor + plus), 0))))


def light_to_theme(colour: QtGui.QColor) -> QtGui.QColor:
    """A light-palette colour in the current theme, its alpha kept."""
    out = QtGui.QColor(themes.current().colour(colour.name().upper()))
    out.setAlpha(colour.alpha())
    return out


def _colour(obj, key: str, colour: QtGui.QColor) -> QtGui.QColor:
    """``obj``'s colour ``key`` (now ``colour``) in the current theme."""
    rgba = _tracked(obj, key, tuple(colour.getRgbF()),
                    lambda d: tuple(light_to_theme(QtGui.QColor.fromRgbF(*d)).getRgbF()))
    return QtGui.QColor.fromRgbF(*rgba)


def _pen(obj, key: str, pen, width_factor: float) -> QtGui.QPen | None:
    if pen is None:
        return None
    pen = QtGui.QPen(pg.mkPen(pen))
    if pen.style() == pg.QtCore.Qt.PenStyle.NoPen:
        return pen
    pen.setColor(_colour(obj, key + ".colour", pen.color()))
    width = pen.widthF() or 1.0  # a cosmetic 0-width pen draws 1 px
    pen.setWidthF(_scaled(obj, key + ".width", width, width_factor))
    return pen


def _brush(obj, key: str, brush) -> QtGui.QBrush | None:
    if brush is None:
        return None
    brush = QtGui.QBrush(pg.mkBrush(brush))
    if brush.style() != pg.QtCore.Qt.BrushStyle.NoBrush:
        brush.setColor(_colour(obj, key, brush.color()))
    return brush


def _font(obj, key: str, font: QtGui.QFont | None, factor: float) -> QtGui.QFont | None:
    if font is None or font.pointSizeF() <= 0:
        return None
    font = QtGui.QFont(font)
    font.setPointSizeF(_scaled(obj, key, font.pointSizeF(), factor))
    return font


def _pt(obj, key: str, size, factor: float) -> str | None:
    """A CSS ``"9pt"`` size scaled, for pyqtgraph's label styles."""
    if not isinstance(size, str) or not size.endswith("pt"):
        return None
    try:
        now = float(size[:-2])
    except ValueError:
        return None
    # The record is the size as written, rounded: a walk that compared "20.62pt" with
    # the 20.625 it had scaled took it for a new design size and scaled it again (the
    # plots' "time (s)" at 39 pt in presentation mode at 150 %).
    return f"{_tracked(obj, key, now, lambda design: float(f'{design * factor:.4g}')):.4g}pt"


def _alpha(obj, key: str, alpha: float, theme: themes.Theme) -> int:
    """A grid's opacity (0-255) for ``theme``: the light one times the themes' ratio."""
    ratio = theme.grid_alpha / themes.LIGHT.grid_alpha
    return int(_tracked(obj, key, float(alpha), lambda a: float(min(255, round(a * ratio)))))


# ---------------------------------------------------------------------- 2D plots
#: How far (px) pyqtgraph's AxisItem places its title outside the axis, at any zoom.
_LABEL_NUDGE = 5.0


def _restyle_axis(axis: pg.AxisItem, theme: themes.Theme, s: float, lw: float) -> None:
    axis.setPen(_pen(axis, "pen", axis.pen(), lw))
    axis.setTextPen(_pen(axis, "textPen", axis.textPen(), 1.0))
    font = _font(axis, "tickFont", axis.style.get("tickFont"), s)
    if font is None:
        font = QtGui.QFont(QtWidgets.QApplication.font())  # follows the Qt font zoom
        # Recorded as the zoomed form of its unzoomed size: the next walk then
        # finds the font it set and scales the design size, not the zoomed one
        # (a second walk at 150 % drew the timeline's ticks at 225 %).
        _record(axis, "tickFont", font.pointSizeF() / s, font.pointSizeF())
    # The space between the ticks and their text grows with the text, as the
    # label's font does: at 130% a 5-px offset left the axis title further
    # from the ticks than the zoom alone accounts for.
    k = 0 if axis.orientation in ("left", "right") else 1
    offset = _rounded(axis, "tickTextOffset", axis.style["tickTextOffset"][k], s)
    axis.setStyle(tickFont=font, tickTextOffset=offset)
    if axis.grid is not False:
        axis.setGrid(_alpha(axis, "grid", axis.grid, theme))
    # A fixed axis width (the plots align their left edges) grows with the
    # text, less what does not: the title's document margins and the 5 px
    # pyqtgraph pushes it outside the axis. So the gap between the title and
    # the tick labels grows with the zoom too (docs/curves.md, "Themes").
    fixed = 0.0
    if axis.label.isVisible():
        fixed = _LABEL_NUDGE - 2.0 * axis.label.document().documentMargin()
    if axis.fixedWidth is not None:
        axis.setWidth(_rounded(axis, "fixedWidth", axis.fixedWidth, s, (s - 1.0) * fixed))
    if axis.fixedHeight is not None:
        axis.setHeight(_rounded(axis, "fixedHeight", axis.fixedHeight, s, (s - 1.0) * fixed))
    if axis.labelText or axis.labelUnits:
        style = dict(axis.labelStyle)
        style["color"] = theme.foreground
        size = _pt(axis, "label", style.get("font-size"), s)
        if size:
            style["font-size"] = size
        axis.setLabel(axis.labelText, axis.labelUnits, axis.labelUnitPrefix, **style)


def _restyle_plot_data(item: pg.PlotDataItem, s: float, lw: float) -> None:
    opts = item.opts
    if opts.get("pen") is not None:
        item.setPen(_pen(item, "pen", opts["pen"], lw))
    if opts.get("symbol") is not None:
        item.setSymbolPen(_pen(item, "symbolPen", opts.get("symbolPen"), lw))
        item.setSymbolBrush(_brush(item, "symbolBrush", opts.get("symbolBrush")))
        item.setSymbolSize(_scaled(item, "symbolSize", float(opts.get("symbolSize", 10)), s))


def _restyle_scatter(item: pg.ScatterPlotItem, s: float, lw: float) -> None:
    if getattr(item, "THEMED_BRUSHES", False):
        pass  # filled in the theme's colours by their owner: translated again, white went black
    elif item.data.size and item.data["brush"][0] is not None:
        item.setBrush([_brush(item, f"brush{i}", b) for i, b in enumerate(item.data["brush"])],
                      update=False)
    else:
        item.setBrush(_brush(item, "brush", item.opts["brush"]), update=False)
    if item.data.size and item.data["pen"][0] is not None:
        item.setPen([_pen(item, f"pen{i}", p, lw) for i, p in enumerate(item.data["pen"])],
                    update=False)
    else:
        item.setPen(_pen(item, "pen", item.opts["pen"], lw), update=False)
    item.setSize(_scaled(item, "size", float(item.opts["size"]), s))


def _restyle_text(item: pg.TextItem, s: float, lw: float) -> None:
    item.setColor(_colour(item, "color", item.color))
    if item.fill is not None and item.fill.style() != pg.QtCore.Qt.BrushStyle.NoBrush:
        item.fill = _brush(item, "fill", item.fill)
    if item.border is not None and item.border.style() != pg.QtCore.Qt.PenStyle.NoPen:
        item.border = _pen(item, "border", item.border, lw)
    font = _font(item, "font", item.textItem.font(), s)
    if font is not None:
        item.setFont(font)
    item.update()


def _restyle_legend(legend: pg.LegendItem, theme: themes.Theme, s: float) -> None:
    legend.setLabelTextColor(theme.foreground)
    size = _pt(legend, "labelTextSize", legend.opts.get("labelTextSize") or "9pt", s)
    if size:
        legend.setLabelTextSize(size)
    if legend.opts.get("brush") is not None:
        legend.setBrush(_brush(legend, "brush", legend.opts["brush"]))
    if legend.opts.get("pen") is not None:
        legend.setPen(_pen(legend, "pen", legend.opts["pen"], 1.0))


def _restyle_scene(view: pg.GraphicsView, theme: themes.Theme, s: float, lw: float) -> None:
    if view.backgroundBrush().color().alpha():
        view.setBackground(theme.background)
    for item in view.scene().items():
        _restyle_item(item, theme, s, lw)


def _restyle_item(item, theme: themes.Theme, s: float, lw: float) -> None:
    """One item of a plot scene (items inside another, e.g. a PlotDataItem's curve, are its)."""
    if isinstance(item, pg.AxisItem):
        _restyle_axis(item, theme, s, lw)
    elif isinstance(item, pg.PlotDataItem):
        _restyle_plot_data(item, s, lw)
    elif isinstance(item, pg.PlotCurveItem) and not isinstance(item.parentItem(),
                                                                pg.PlotDataItem):
        item.setPen(_pen(item, "pen", item.opts["pen"], lw))
        if item.opts.get("brush") is not None:
            item.setBrush(_brush(item, "brush", item.opts["brush"]))
    elif isinstance(item, pg.ScatterPlotItem) and not isinstance(item.parentItem(),
                                                                  pg.PlotDataItem):
        _restyle_scatter(item, s, lw)
    elif isinstance(item, pg.TextItem):
        _restyle_text(item, s, lw)
    elif isinstance(item, pg.LegendItem):
        _restyle_legend(item, theme, s)
    elif isinstance(item, pg.InfiniteLine):
        item.setPen(_pen(item, "pen", item.pen, lw))
        item.setHoverPen(_pen(item, "hoverPen", item.hoverPen, lw))
    elif isinstance(item, pg.LinearRegionItem):
        item.setBrush(_brush(item, "brush", item.brush))
    elif isinstance(item, pg.LabelItem) and item.text:
        opts = dict(item.opts)
        opts["color"] = theme.foreground
        size = _pt(item, "size", opts.get("size"), s)
        if size:
            opts["size"] = size
        item.setText(item.text, **opts)


# ---------------------------------------------------------------------- 3D views
def _gl_array(colour: np.ndarray) -> np.ndarray:
    """An (N, 4) float colour array in the current theme, vectorised.

    Trails hold thousands of faded shades; only rows that are a light role
    colour (or, in a dark theme, a dark grey) change, as in Theme.colour.
    """
    theme = themes.current()
    rgb8 = np.clip(np.round(colour[:, :3] * 255.0), 0, 255).astype(np.int64)
    keys = (rgb8[:, 0] << 16) | (rgb8[:, 1] << 8) | rgb8[:, 2]
    out = np.array(colour, copy=True)
    for key in np.unique(keys[np.isin(keys, _role_keys())]):
        mapped = QtGui.QColor(theme.colour(f"#{int(key):06X}"))
        out[keys == key, :3] = mapped.getRgbF()[:3]
    if theme.dark:
        spread = rgb8.max(axis=1) - rgb8.min(axis=1)
        total = rgb8.sum(axis=1)
        grey = (spread <= 16) & (total > 0) & (total < 3 * 128) & ~np.isin(keys, _role_keys())
        out[grey, :3] = 1.0 - np.round(colour[grey, :3] * 255.0) / 255.0
    return out


_ROLE_KEYS: list = []


def _role_keys() -> np.ndarray:
    if not _ROLE_KEYS:
        names = {c.upper() for c in themes.LIGHT.roles().values()}
        names |= {c.upper() for group in themes.LIGHT_EXTRAS.values() for c in group
                  if c.startswith("#") and len(c) == 7}
        names |= set(themes.LIGHT_DEEP)
        _ROLE_KEYS.append(np.array(sorted(int(c[1:], 16) for c in names), dtype=np.int64))
    return _ROLE_KEYS[0]


def _gl_colour(colour):
    """A light-palette GL colour (a tuple or (N, 4) float array) in the current theme."""
    if isinstance(colour, np.ndarray):
        return _gl_array(colour)
    q = QtGui.QColor.fromRgbF(*(min(max(float(c), 0.0), 1.0) for c in colour))
    return tuple(light_to_theme(q).getRgbF())


def _gl_value(value):
    """A GL colour as a tuple or (N, 4) array (what :func:`_tracked` compares), or None."""
    if isinstance(value, QtGui.QColor):
        value = value.getRgbF()
    if isinstance(value, (tuple, list)) and len(value) == 4:
        return tuple(float(v) for v in value)
    if isinstance(value, np.ndarray) and value.ndim == 2 and value.shape[1] == 4:
        return value
    return None


def _gl_themed(item, key: str, value):
    """``item``'s GL colour ``key`` (now ``value``) in the current theme, or None if it has none."""
    value = _gl_value(value)
    return None if value is None else _tracked(item, key, value, _gl_colour)


def gl_views(root: QtWidgets.QWidget) -> list:
    """The GL views shown inside ``root``: native windows, each in a container widget."""
    return [v for v in QtGui.QGuiApplication.allWindows()
            if isinstance(v, GLWindowView) and (v.widget is root or root.isAncestorOf(v.widget))]


def _restyle_gl(view, theme: themes.Theme, s: float, lw: float) -> None:
    view.setBackgroundColor(theme.scene)
    if hasattr(view, "retheme"):
        view.retheme()  # the colours it derives (shades, fades)
    for item in view.items:
        opts = getattr(item, "opts", None)
        if isinstance(item, LabelLayer):
            plate = QtGui.QColor(theme.scene)
            plate.setAlphaF(item._plate.alphaF())
            item._plate = plate
            for label in item.labels:  # colours: labels.ink, as they are drawn
                font = _font(label, "font", label.font, s)
                if font is not None:
                    label.font = font
        elif isinstance(item, gl.GLGridItem):
            c = QtGui.QColor(theme.grid)
            c.setAlpha(_alpha(item, "alpha", item.color().alpha(), theme))
            item.setColor(c)
        elif isinstance(item, gl.GLTextItem):
            item.color = _colour(item, "color", pg.mkColor(item.color))
            font = _font(item, "font", item.font, s)
            if font is not None:
                item.font = font
        elif isinstance(item, gl.GLLinePlotItem):
            data = {"width": _scaled(item, "width", float(item.width), lw)}
            colour = _gl_themed(item, "color", item.color)
            if colour is not None:
                data["color"] = colour
            item.setData(**data)
        elif isinstance(item, gl.GLScatterPlotItem):
            data = {}
            colour = _gl_themed(item, "color", item.color)
            if colour is not None:
                data["color"] = colour
            if np.isscalar(item.size) and item.pxMode:
                data["size"] = _scaled(item, "size", float(item.size), s)
            item.setData(**data)
        elif isinstance(item, gl.GLMeshItem) and isinstance(opts, dict):
            edge = _gl_themed(item, "edgeColor", opts.get("edgeColor"))
            if edge is not None:
                opts["edgeColor"] = edge
            colour = _gl_themed(item, "color", opts.get("color"))
            if colour is not None:
                item.setColor(colour)
        item.update()
    view.update()


def restyle(root: QtWidgets.QWidget) -> None:
    """Apply the current theme and scale to every plot and GL view shown in ``root``.

    Those in hidden tabs are left for the walk when their tab is shown (the
    window walks again on a tab change), which keeps a switch fast.
    """
    theme, s = themes.current(), themes.scale()
    lw = s * theme.line_scale
    for widget in root.findChildren(QtWidgets.QWidget):
        if callable(getattr(widget, "retheme", None)) and _shown(widget, root):
            widget.retheme()  # what a widget draws outside pyqtgraph (legend swatches)
    for view in [root, *root.findChildren(pg.GraphicsView)]:
        if isinstance(view, pg.GraphicsView) and _shown(view, root):
            _restyle_scene(view, theme, s, lw)
    for view in gl_views(root):
        if _shown(view.widget, root):
            _restyle_gl(view, theme, s, lw)


def restyled_theme() -> bool:
    """Whether anything needs restyling: a theme other than light, or a zoom other than 100%.

    Views are built in the light theme at their design sizes, so in that
    case what they make is already right.
    """
    return themes.current() is not themes.LIGHT or themes.scale() != 1.0


def restyle_plots(items) -> None:
    """Apply the current theme and zoom to plot ``items`` now (nothing to do in light at 100%).

    For the items a view has just made or reset (curves, axes it retitled,
    labels): they come in light colours and design sizes, and would keep
    them until the next walk. Only those: a walk of the whole scene after
    each of a rebuild's steps cost 5 ms a step.
    """
    if restyled_theme():
        theme, s = themes.current(), themes.scale()
        for item in items:
            _restyle_item(item, theme, s, s * theme.line_scale)


def _shown(widget: QtWidgets.QWidget, root: QtWidgets.QWidget) -> bool:
    """Whether ``widget`` shows when ``root`` does: hidden tabs wait until they are shown."""
    return widget is root or widget.isVisibleTo(root)
