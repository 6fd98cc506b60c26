"""Marks that carry a state or a colour read without the hue, or that must not vanish in a theme.

A checked box told from an empty one by its fill alone, or a pale legend
swatch on the light window (the gimbal's yellow, 1.16:1), is lost to a
colour-blind reader or on a washed-out projector; so is a time line drawn in
black on the high-contrast theme's black. Measured on the pixels the widgets
draw, against WCAG 1.4.11's 3:1 for marks (tests/oracles.py, from the definition).
"""

from __future__ import annotations

import numpy as np
import pytest
from oracles import contrast_8bit
from PyQt6 import QtCore, QtGui, QtWidgets
from test_themes import contrast

from quatlab.app.io.tracks import Track
from quatlab.app.model.keyframes_model import KeyframesModel
from quatlab.app.qt import theme_menu
from quatlab.app.qt.euler_view import COLOURS as EULER_COLOURS
from quatlab.app.qt.lesson_panel import legend_html
from quatlab.app.qt.recorder import image_to_rgb
from quatlab.app.qt.timeline import Timeline
from quatlab.rendering import themes
from quatlab.rendering.component_plot import ComponentPlot
from quatlab.rendering.gimbal import ANGLE_COLOURS, LOCK_COLOUR
from quatlab.rendering.style import METHOD_COLORS

THEMES = ["light", "dark", "high-contrast"]
#: WCAG 1.4.11: marks and the parts of controls that show their state.
NON_TEXT = 3.0


def _hex(rgb) -> str:
    return "#" + "".join(f"{int(v):02X}" for v in rgb)


def _box(qtbot, checked: bool, enabled: bool = True) -> QtWidgets.QCheckBox:
    box = QtWidgets.QCheckBox("gimbal")
    qtbot.addWidget(box)
    box.setChecked(checked)
    box.setEnabled(enabled)
    box.resize(box.sizeHint())
    box.show()
    qtbot.waitExposed(box)
    QtWidgets.QApplication.processEvents()
    return box


def _indicator(box: QtWidgets.QCheckBox):
    """The indicator's rect in the box (as the style lays it out) and its pixels."""
    opt = QtWidgets.QStyleOptionButton()
    box.initStyleOption(opt)
    rect = box.style().subElementRect(QtWidgets.QStyle.SubElement.SE_CheckBoxIndicator, opt, box)
    img = box.grab().toImage()
    ratio = img.devicePixelRatio()
    rgb = image_to_rgb(img).astype(int)
    x0, y0 = round(rect.x() * ratio), round(rect.y() * ratio)
    x1, y1 = round((rect.right() + 1) * ratio), round((rect.bottom() + 1) * ratio)
    return rect, rgb[y0:y1, x0:x1]


def _marks(pixels: np.ndarray) -> int:
    """Pixels inside the box's ring (3 px in) at 3:1 or more against the box's fill.

    The fill is the interior's most common colour: the blue of a checked box
    in the dark themes, the white base in light.
    """
    inner = pixels[3:-3, 3:-3].reshape(-1, 3)
    colours, counts = np.unique(inner, axis=0, return_counts=True)
    fill = _hex(colours[counts.argmax()])
    return sum(contrast(_hex(c), fill) >= 3.0 for c in inner)


@pytest.mark.parametrize("theme", THEMES)
def test_a_checked_box_has_a_tick_unlike_its_fill_and_keeps_its_size(qtbot, theme):
    theme_menu.apply_theme(QtWidgets.QWidget(), theme)
    off, on = _box(qtbot, False), _box(qtbot, True)
    off_rect, off_px = _indicator(off)
    on_rect, on_px = _indicator(on)
    assert on_rect == off_rect and on.sizeHint() == off.sizeHint()
    assert on_rect.width() >= 13 and on_rect.height() >= 13, on_rect
    # A tick: a stroke of a dozen pixels and more that stands out from the fill.
    assert _marks(on_px) >= 12, (theme, _marks(on_px))
    assert _marks(off_px) == 0, (theme, _marks(off_px))


@pytest.mark.parametrize("theme", ["dark", "high-contrast"])
def test_disabled_boxes_keep_their_tick_and_look_unlike_enabled_ones(qtbot, theme):
    theme_menu.apply_theme(QtWidgets.QWidget(), theme)
    _, on = _indicator(_box(qtbot, True))
    _, off_disabled = _indicator(_box(qtbot, False, enabled=False))
    rect, on_disabled = _indicator(_box(qtbot, True, enabled=False))
    assert _marks(on_disabled) >= 12
    assert _marks(off_disabled) == 0
    # Not the enabled box's colours: the ring and fill are greyed.
    assert np.abs(on_disabled - on).sum(axis=-1).astype(bool).sum() >= rect.width() * 4


def _swatch_edges(rgb: np.ndarray, bg: np.ndarray) -> list[float]:
    """Contrast on the window of the first mark's four edges (left, right, top, bottom).

    The mark is the first run of columns that differ from the window; along
    the middle row and column, from outside in, an edge is the most
    contrasting of the first two pixels off the window.
    """
    ink = np.abs(rgb - bg).sum(axis=-1) > 24
    cols = np.flatnonzero(ink.any(axis=0))
    end = cols[0]
    while end + 1 < ink.shape[1] and ink[:, end + 1].any():
        end += 1
    mark = ink[:, cols[0]:end + 1]
    rows = np.flatnonzero(mark.any(axis=1))
    top, bottom = rows[0], rows[-1]
    assert bottom - top >= 5 and end - cols[0] >= 5, "no square mark found"
    mid_r, mid_c = (top + bottom) // 2, (cols[0] + end) // 2
    window = _hex(bg)

    def edge(line: np.ndarray) -> float:
        on = np.flatnonzero(np.abs(line - bg).sum(axis=-1) > 24)[:2]
        return max(contrast(_hex(line[i]), window) for i in on)

    row, col = rgb[mid_r, cols[0]:end + 1], rgb[top:bottom + 1, mid_c]
    return [edge(row), edge(row[::-1]), edge(col), edge(col[::-1])]


@pytest.mark.parametrize("colour", [LOCK_COLOUR, ANGLE_COLOURS[1], EULER_COLOURS["euler"],
                                    METHOD_COLORS["shortest_slerp"]])
def test_legend_swatches_have_an_edge_at_3_to_1_on_the_light_window(qtbot, colour):
    """The Euler lesson's yellow swatches were 1.16:1 on the grey window, its sky blue
    and orange about 2:1: the outline in the text colour gives each an edge."""
    theme_menu.apply_theme(QtWidgets.QWidget(), "light")
    label = QtWidgets.QLabel(legend_html([(colour, "ring")]))
    qtbot.addWidget(label)
    label.setContentsMargins(4, 4, 4, 4)
    label.show()
    qtbot.waitExposed(label)
    QtWidgets.QApplication.processEvents()
    window = label.palette().color(QtGui.QPalette.ColorRole.Window)
    rgb = image_to_rgb(label.grab().toImage()).astype(int)
    bg = np.array([window.red(), window.green(), window.blue()])
    edges = _swatch_edges(rgb, bg)
    assert min(edges) >= 3.0, (colour, window.name(), [round(e, 2) for e in edges])


def _grab(widget) -> np.ndarray:
    QtWidgets.QApplication.processEvents()
    return image_to_rgb(widget.grab().toImage()).astype(int)


def _mode(block: np.ndarray) -> np.ndarray:
    """The commonest colour of an image block: its background."""
    colours, counts = np.unique(block.reshape(-1, 3), axis=0, return_counts=True)
    return colours[np.argmax(counts)]


def _drawn_on_background(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Colours of the pixels a mark drew where ``before`` showed the background."""
    bg = _mode(before)
    changed = np.any(after != before, axis=-1) & np.all(before == bg, axis=-1)
    return after[changed]


def _hosted(qtbot, make, width: int, height: int):
    """A host widget shown at ``width`` x ``height`` and ``make(host)`` filling it."""
    host = QtWidgets.QWidget()
    qtbot.addWidget(host)
    widget = make(host)
    widget.resize(width, height)
    host.resize(width, height)
    host.show()
    qtbot.waitExposed(host)
    return host, widget


@pytest.fixture
def timeline(qtbot):
    host, tl = _hosted(qtbot, Timeline, 600, 96)
    model = KeyframesModel()
    t = np.arange(5, dtype=float)
    model.set_tracks([Track(times=t, values=np.tile([1.0, 0.0, 0.0, 0.0], (5, 1)))])
    tl.set_track(t, model.segments(0))
    return host, tl


@pytest.mark.parametrize("theme", THEMES)
def test_the_timelines_time_line_and_selected_outline_stand_out_in_every_theme(timeline,
                                                                              theme):
    """Both were drawn in black: gone on high contrast's black, 1.2:1 on the dark theme."""
    host, tl = timeline
    theme_menu.apply_theme(host, theme)
    bg = np.array([int(themes.current().background[i:i + 2], 16) for i in (1, 3, 5)])
    plain = _grab(tl)
    assert np.array_equal(_mode(plain), bg)  # the plot is drawn on the theme's background
    tl.set_cursor(2.5)  # mid-segment, between two key ticks
    with_cursor = _grab(tl)
    tl.set_cursor(None)
    tl.set_selected(1)
    with_outline = _grab(tl)
    for what, after in (("time line", with_cursor), ("outline", with_outline)):
        drawn = _drawn_on_background(plain, after)
        assert len(drawn) >= 40, (theme, what, len(drawn))  # a line, not a speck
        ratio = np.median(contrast_8bit(drawn, bg))
        assert ratio >= NON_TEXT, (theme, what, ratio)


@pytest.mark.parametrize("theme", THEMES)
def test_the_scrubbers_groove_has_3_to_1_on_the_window_in_every_theme(qtbot, theme):
    """Fusion's groove outline was 2.0:1 in light, 1.1:1 in dark and missing on high
    contrast's black: the slider's track showed only where the handle had passed."""
    from quatlab.app.model.state import LessonState
    from quatlab.app.qt.scrubber import Scrubber

    theme_menu.apply_theme(QtWidgets.QWidget(), theme)
    scrubber = Scrubber(LessonState.from_preset("negated-20", t=0.0), playback=False)
    qtbot.addWidget(scrubber)
    scrubber.resize(500, 40)
    scrubber.show()
    qtbot.waitExposed(scrubber)
    slider = scrubber.slider
    window = slider.palette().color(QtGui.QPalette.ColorRole.Window)
    bg = np.array([window.red(), window.green(), window.blue()])
    rgb = _grab(slider)
    # A column right of the handle (t = 0: the handle is at the left end).
    column = rgb[:, int(0.75 * rgb.shape[1])]
    ratios = contrast_8bit(column, bg)
    # The groove's top and bottom edges, each a pixel or more.
    assert (ratios >= NON_TEXT).sum() >= 2, (theme, window.name(), np.round(ratios.max(), 2))


@pytest.mark.parametrize("theme", THEMES)
def test_the_sign_flip_band_has_edges_and_a_fill_that_read_in_every_theme(qtbot, theme):
    """The stored-keys plot's band over a flagged span was a quarter of the light
    vermillion in every theme and had no edge: a dark brown 1.4:1 on high contrast's
    black. Now edged in the theme's sign-flip colour (3:1 at least) and filled at the
    theme's band opacity (1.75:1 at least on the dark plots)."""
    host, plot = _hosted(qtbot, ComponentPlot, 420, 300)
    times = np.linspace(0.0, 1.0, 6)
    keys = np.tile([1.0, 0.0, 0.0, 0.0], (6, 1))  # curves at 1 and 0: none at +-0.5
    plot.set_track(times, keys, flagged=([0.4], [0.6]), x_range=(0.0, 1.0))
    plot.set_cursor(0.05)
    theme_menu.apply_theme(host, theme)
    t = themes.current()
    rgb = _grab(plot)
    bg = np.array([int(t.background[i:i + 2], 16) for i in (1, 3, 5)])
    want = np.array([int(t.findings["sign_flip"][i:i + 2], 16) for i in (1, 3, 5)])
    box = plot.getPlotItem().getViewBox()
    ratio = plot.devicePixelRatioF()

    def px(x: float, y: float) -> tuple[int, int]:
        at = plot.mapFromScene(box.mapViewToScene(QtCore.QPointF(x, y)))
        return round(at.x() * ratio), round(at.y() * ratio)

    _, top = px(0.5, 0.9)
    _, bottom = px(0.5, 0.1)  # rows with no curve (the grid crosses a few)
    for x in (0.4, 0.6):  # each edge: the finding's own colour, down most of its rows
        c, _ = px(x, 0.5)
        near = rgb[top:bottom, c - 3:c + 4]
        rows = (np.abs(near - want).sum(axis=-1) <= 60).any(axis=1)
        assert rows.mean() >= 0.6, (theme, x, rows.mean())
    assert contrast(t.findings["sign_flip"], t.background) >= NON_TEXT
    if t.dark:  # the fill, mid-band: its commonest colour (grid lines cross it)
        c, _ = px(0.5, 0.5)
        fill = _mode(rgb[top:bottom, c - 2:c + 3])
        ratio = float(contrast_8bit(fill, bg))
        assert ratio >= 1.75, (theme, fill, ratio)


def test_the_keyframes_plots_tick_labels_read_on_the_light_theme(qtbot):
    """The stored-keys plot, the omega plot and the timeline drew their tick labels in
    pyqtgraph's own grey (#969696, 3.0:1 on white): faint on a projector. They are
    the text colour, as the lessons' plots are."""
    from quatlab.app.qt.timeline import Timeline
    from quatlab.rendering.component_plot import ComponentPlot
    from quatlab.rendering.contrast import contrast_ratio
    from quatlab.rendering.omega_plot import OmegaPlot
    from quatlab.rendering.style import BACKGROUND

    for widget, sides in ((ComponentPlot(), ("left", "bottom")), (OmegaPlot(), ("left", "bottom")),
                          (Timeline(), ("bottom",))):
        qtbot.addWidget(widget)
        for side in sides:
            colour = widget.getPlotItem().getAxis(side).textPen().color()
            ratio = float(contrast_ratio(colour.getRgbF()[:3],
                                         QtGui.QColor(BACKGROUND).getRgbF()[:3]))
            assert ratio >= 4.5, (type(widget).__name__, side, colour.name(), ratio)


def test_the_sign_flip_band_lies_under_the_key_dots_it_marks(qtbot):
    """The band's edges stand on the flagged keys' times: drawn above the curves, they
    would cut through the very key dots they mark. The band is a sibling of the curves
    in the view box, stacked under every one of them."""
    host, plot = _hosted(qtbot, ComponentPlot, 420, 300)
    times = np.linspace(0.0, 1.0, 6)
    keys = np.tile([0.6, 0.8, 0.0, 0.0], (6, 1))
    keys[3:] *= -1.0
    plot.set_track(times, keys, flagged=([times[2]], [times[3]]), x_range=(0.0, 1.0))
    band = plot._bands
    assert band.isVisible()
    for curve in plot.curves:
        assert band.parentItem() is curve.parentItem()
        assert band.zValue() < curve.zValue(), (band.zValue(), curve.zValue())
