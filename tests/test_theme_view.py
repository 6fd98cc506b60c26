"""Themes, zoom and File > Export animation in the running window: pixels, sizes and files.

Each test leaves the process in the light theme at 100% (conftest), so the
other modules' windows are drawn as they expect.
"""

from __future__ import annotations

import imageio.v3 as iio
import numpy as np
import pyqtgraph as pg
import pytest
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.commands import cli
from quatlab.app.io.animation_io import frame_count
from quatlab.app.qt import theme_menu
from quatlab.app.qt.export_animation import AnimationExport, run_export
from quatlab.app.qt.recorder import image_to_rgb
from quatlab.app.qt.window import MainWindow
from quatlab.rendering import themes
from quatlab.rendering.theme_apply import gl_views

pytestmark = pytest.mark.gl


@pytest.fixture
def win(qtbot):
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    qtbot.waitExposed(w)
    return w


def _settle(qtbot, win):
    for _ in range(4):
        QtWidgets.QApplication.processEvents()
    qtbot.wait(30)


def _pixels(win) -> np.ndarray:
    return image_to_rgb(win.grab_image()).astype(int)


def _rect(win, widget) -> tuple[slice, slice]:
    """Rows and columns of ``widget`` in a grab of ``win`` (device pixels)."""
    top_left = widget.mapTo(win, QtCore.QPoint(0, 0))
    r = win.devicePixelRatioF()
    y0, x0 = int(top_left.y() * r), int(top_left.x() * r)
    return (slice(y0, y0 + int(widget.height() * r)), slice(x0, x0 + int(widget.width() * r)))


def _mode(block: np.ndarray) -> np.ndarray:
    """The most common colour of an image block: its background."""
    colours, counts = np.unique(block.reshape(-1, 3), axis=0, return_counts=True)
    return colours[np.argmax(counts)]


def _luma(rgb) -> float:
    return float(np.asarray(rgb) @ [0.2126, 0.7152, 0.0722])


def _plot_view(win):
    return win.lesson.plots.findChild(pg.GraphicsView)


def test_switching_theme_recolours_plots_scene_and_widgets_at_run_time(qtbot, win):
    _settle(qtbot, win)
    plots, scene = _plot_view(win), win.lesson.scene.widget
    light = _pixels(win)
    assert _luma(_mode(light[_rect(win, plots)])) > 240
    assert _luma(_mode(light[_rect(win, scene)])) > 230

    win.theme_actions["dark"].trigger()
    _settle(qtbot, win)
    dark = _pixels(win)
    assert _luma(_mode(dark[_rect(win, plots)])) < 40
    assert _luma(_mode(dark[_rect(win, scene)])) < 50
    assert _luma(_mode(dark[_rect(win, win.explanation)])) < 50  # Qt widgets follow
    assert win.theme_actions["dark"].isChecked() and not win.theme_actions["light"].isChecked()
    # The plot axes' text is light on the dark plots.
    axis = win.lesson.plots.plots["angle"].getAxis("left")
    assert _luma(axis.textPen().color().getRgb()[:3]) > 200
    # A method curve is drawn in the dark theme's colour.
    curve = _curves(win)[0]
    assert pg.mkPen(curve.opts["pen"]).color().name().upper() in {
        c.upper() for c in themes.DARK.methods.values()}

    win.theme_actions["light"].trigger()
    _settle(qtbot, win)
    back = _pixels(win)
    assert _luma(_mode(back[_rect(win, plots)])) > 240
    assert _luma(_mode(back[_rect(win, scene)])) > 230
    assert pg.mkPen(curve.opts["pen"]).color().name().upper() in {
        c.upper() for c in themes.LIGHT.methods.values()}


def _curves(win) -> list:
    """The method curves of the path-angle plot."""
    return [i for i in win.lesson.plots.plots["angle"].listDataItems()
            if isinstance(i, pg.PlotDataItem) and i.opts["pen"] is not None]


def _curve_widths(win) -> list[float]:
    return sorted(pg.mkPen(i.opts["pen"]).widthF() for i in _curves(win))


def _ink(block: np.ndarray) -> int:
    """Pixels of an image block that are not its background colour."""
    bg = _mode(block)
    return int(np.count_nonzero(np.abs(block - bg).sum(-1) > 60))


def test_high_contrast_draws_thicker_lines_than_light(qtbot, win):
    _settle(qtbot, win)
    plots = _plot_view(win)
    light_widths = _curve_widths(win)
    light_ink = _ink(_pixels(win)[_rect(win, plots)])
    win.theme_actions["high-contrast"].trigger()
    _settle(qtbot, win)
    hc_widths = _curve_widths(win)
    hc_ink = _ink(_pixels(win)[_rect(win, plots)])
    assert hc_widths == pytest.approx([w * themes.HIGH_CONTRAST.line_scale for w in light_widths])
    assert hc_ink > 1.3 * light_ink  # and the pixels show it


def test_zoom_scales_plot_text_lines_points_and_gizmos_without_compounding(qtbot, win):
    _settle(qtbot, win)
    axis = win.lesson.plots.plots["angle"].getAxis("left")
    tick = axis.style["tickFont"].pointSizeF()
    widths = _curve_widths(win)
    gizmo = next(it for v in gl_views(win.lesson) for it in v.items
                 if type(it).__name__ == "GLLinePlotItem" and it.width >= 2)
    gizmo_width = gizmo.width
    win.set_zoom(1.5)
    _settle(qtbot, win)
    assert axis.style["tickFont"].pointSizeF() == pytest.approx(1.5 * tick)
    assert _curve_widths(win) == pytest.approx([1.5 * w for w in widths])
    assert gizmo.width == pytest.approx(1.5 * gizmo_width)
    win.state.set_t(0.3)  # views redraw; sizes stay
    win.state.negate(1)
    _settle(qtbot, win)
    assert _curve_widths(win) == pytest.approx([1.5 * w for w in widths])
    win.set_zoom(1.0)
    _settle(qtbot, win)
    assert axis.style["tickFont"].pointSizeF() == pytest.approx(tick)
    assert _curve_widths(win) == pytest.approx(widths)
    assert gizmo.width == pytest.approx(gizmo_width)


def test_presentation_mode_draws_larger(qtbot, win):
    _settle(qtbot, win)
    widths = _curve_widths(win)
    win.set_presenting(True)
    _settle(qtbot, win)
    try:
        assert _curve_widths(win) == pytest.approx([1.25 * w for w in widths])
    finally:
        win.set_presenting(False)
    _settle(qtbot, win)
    assert _curve_widths(win) == pytest.approx(widths)


def test_the_theme_is_remembered_in_the_settings_given(qtbot, tmp_path):
    settings = QtCore.QSettings(str(tmp_path / "t.ini"), QtCore.QSettings.Format.IniFormat)
    first = MainWindow()
    qtbot.addWidget(first)
    first.place_on_screen(settings)
    first.theme_actions["high-contrast"].trigger()
    assert settings.value(theme_menu.THEME_KEY) == "high-contrast"
    themes.set_current(themes.LIGHT)
    again = MainWindow()
    qtbot.addWidget(again)
    again.place_on_screen(settings)
    assert themes.current() is themes.HIGH_CONTRAST
    assert again.theme_actions["high-contrast"].isChecked()
    settings.setValue(theme_menu.THEME_KEY, "no-such-theme")  # unreadable: the default
    themes.set_current(themes.LIGHT)
    third = MainWindow()
    qtbot.addWidget(third)
    third.place_on_screen(settings)
    assert themes.current() is themes.LIGHT


def test_screenshot_theme_dark_has_dark_pixels(tmp_path, capsys):
    out = tmp_path / "dark.png"
    assert cli.main(["screenshot", "-o", str(out), "--theme", "dark", "--size", "1280x720"]) == 0
    img = iio.imread(out)[..., :3].astype(int)
    h, w = img.shape[:2]
    assert _luma(_mode(img)) < 50  # the window's commonest colour is dark
    # The 3D view (upper middle) and the plots (lower middle) are dark too.
    assert _luma(_mode(img[int(0.2 * h):int(0.5 * h), int(0.35 * w):int(0.8 * w)])) < 50
    assert _luma(_mode(img[int(0.75 * h):int(0.95 * h), int(0.35 * w):int(0.8 * w)])) < 50


def test_screenshot_scale_and_bad_options(tmp_path, capsys):
    assert cli.main(["screenshot", "-o", str(tmp_path / "s.png"), "--scale", "9"]) == 2
    assert "--scale must be between 0.8 and 2.5" in capsys.readouterr().err
    assert not (tmp_path / "s.png").exists()
    with pytest.raises(SystemExit):
        cli.main(["screenshot", "-o", str(tmp_path / "s.png"), "--theme", "sepia"])


def test_export_animation_writes_the_expected_frames(qtbot, win, tmp_path):
    _settle(qtbot, win)
    out = tmp_path / "sweep.gif"
    t_before = win.state.t
    export = run_export(win, out, duration=0.5, fps=10)
    with qtbot.waitSignal(export.done, timeout=60000):
        pass
    assert export.state == "written", export.message
    assert frame_count(out) == 5
    frames = iio.imread(out, index=None)
    assert frames.shape[0] == 5 and not np.array_equal(frames[0], frames[-1])  # t moved
    assert [p.name for p in tmp_path.iterdir()] == ["sweep.gif"]
    assert win.state.t == pytest.approx(t_before)  # put back


@pytest.mark.parametrize("when", ["capturing", "encoding"])
def test_cancelled_export_leaves_nothing(qtbot, win, tmp_path, when):
    _settle(qtbot, win)
    out = tmp_path / "sweep.gif"
    export = AnimationExport(win, out, duration=2.0, fps=10)
    export.start()
    qtbot.waitUntil(lambda: export.state == when, timeout=60000)
    with qtbot.waitSignal(export.done, timeout=60000):
        cancel = export.progress.findChild(QtWidgets.QPushButton)
        assert cancel.text() == "Cancel"
        cancel.click()
    assert export.state == "cancelled"
    qtbot.wait(300)  # the encoder thread finishes and is ignored
    assert list(tmp_path.iterdir()) == []


def test_export_replaces_a_confirmed_file_and_refuses_bad_names(qtbot, win, tmp_path,
                                                                 warnings_shown):
    old = tmp_path / "old.gif"
    old.write_bytes(b"old")
    export = run_export(win, old, duration=0.2, fps=10)  # the dialog asked already
    with qtbot.waitSignal(export.done, timeout=60000):
        pass
    assert frame_count(old) == 2
    assert run_export(win, tmp_path / "x.avi", duration=1.0) is None
    assert warnings_shown and "x.avi" in warnings_shown[-1][1]
    assert not (tmp_path / "x.avi").exists()


def test_record_theme_writes_dark_frames(tmp_path, capsys):
    out = tmp_path / "dark.gif"
    assert cli.main(["record", "-o", str(out), "--theme", "high-contrast", "--duration", "0.2",
                     "--fps", "10", "--size", "1280x720"]) == 0
    frames = iio.imread(out, index=None)[..., :3].astype(int)
    assert frames.shape[0] == 2
    assert all(_luma(_mode(f)) < 20 for f in frames)  # pure black in high contrast


def test_a_language_switch_keeps_the_theme(qtbot, tmp_path):
    """The window a language switch builds is drawn in the theme in use, not the light one."""
    from quatlab.app import i18n
    from quatlab.app.qt import language_menu

    win = MainWindow()  # not given to qtbot: the switch deletes it
    win.show()
    settings = QtCore.QSettings(str(tmp_path / "s.ini"), QtCore.QSettings.Format.IniFormat)
    win._settings = settings
    win.theme_actions["dark"].trigger()
    _settle(qtbot, win)
    try:
        new = language_menu.choose_language(win, "zh_CN")
        qtbot.addWidget(new)
        new.resize(1400, 900)
        qtbot.waitExposed(new)
        _settle(qtbot, new)
        pixels = _pixels(new)
        assert _luma(_mode(pixels[_rect(new, _plot_view(new))])) < 40
        assert _luma(_mode(pixels[_rect(new, new.lesson.scene.widget)])) < 50
        assert new.theme_actions["dark"].isChecked()
    finally:
        i18n.set_language("en")


def test_a_file_opened_in_the_dark_theme_has_a_dark_rig_scene(qtbot, win):
    """The rig view a file brings is new after the theme's walk: it is walked too."""
    from pathlib import Path

    win.theme_actions["dark"].trigger()
    _settle(qtbot, win)
    win.show_view("keyframes")
    _settle(qtbot, win)
    win.open_keyframes(Path(__file__).parent / "data" / "gltf" / "CesiumMilkTruck.glb")
    panel = win.views["keyframes"]
    assert panel.rig_panel.wait_loaded()  # the rig is built off the GUI thread
    qtbot.waitUntil(lambda: gl_views(panel) != [], timeout=5000)
    _settle(qtbot, win)
    views = gl_views(panel)
    pixels = _pixels(win)
    assert views and all(_luma(_mode(pixels[_rect(win, v.widget)])) < 50 for v in views)


def _contrast(a: QtGui.QColor, b: QtGui.QColor) -> float:
    """WCAG 2.1 contrast ratio of two colours."""
    def lum(c):
        ch = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4
              for x in (c.redF(), c.greenF(), c.blueF())]
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_flagged_rows_keep_legible_text_in_every_theme(qtbot, win, theme):
    """The pale flag tints of the track and segment tables under the theme's text colour:
    white text of the dark themes on them measured about 1.3:1."""
    from pathlib import Path

    win.theme_actions[theme].trigger()
    win.open_keyframes(Path(__file__).parent / "data" / "gltf" / "CesiumMilkTruck.glb")
    _settle(qtbot, win)
    view = win.views["keyframes"]
    text = QtWidgets.QApplication.palette().color(QtGui.QPalette.ColorRole.Text)
    tinted = 0
    for model in (view.track_model, view.segment_model):
        for r in range(model.rowCount()):
            i = model.index(r, 0)
            bg = i.data(QtCore.Qt.ItemDataRole.BackgroundRole)
            if bg is None:
                continue
            tinted += 1
            fg = i.data(QtCore.Qt.ItemDataRole.ForegroundRole)
            ink = fg.color() if fg is not None else text
            assert _contrast(ink, bg.color()) >= 4.5, (theme, r, ink.name(), bg.color().name())
    assert tinted >= 2


@pytest.mark.parametrize("theme", ["dark", "high-contrast"])
def test_every_curve_of_every_tab_stands_out_from_a_dark_plot(qtbot, win, theme):
    """Curves drawn in pure black (the blend lesson's reference pose, the Euler
    lesson's first angle) vanished on the dark plots."""
    win.theme_actions[theme].trigger()
    bg = QtGui.QColor(themes.current().background)
    checked = 0
    for i in range(win.tabs.count()):
        win.tabs.setCurrentIndex(i)
        _settle(qtbot, win)
        page = win.tabs.currentWidget()
        for view in page.findChildren(pg.PlotWidget) + page.findChildren(pg.GraphicsLayoutWidget):
            for item in view.items():
                if not isinstance(item, pg.PlotDataItem) or not item.isVisible() \
                        or item.xData is None or len(item.xData) < 2:
                    continue
                pen = pg.mkPen(item.opts["pen"])
                if pen.style() == QtCore.Qt.PenStyle.NoPen:
                    continue
                ratio = _contrast(pen.color(), bg)
                assert ratio >= 3.0, (page.objectName(), item.name(), pen.color().name(), ratio)
                checked += 1
    assert checked >= 20


@pytest.mark.parametrize("theme", ["dark", "high-contrast"])
def test_check_boxes_show_their_box_and_state_in_the_dark_themes(qtbot, theme):
    """Fusion outlined the indicator with a darker window colour: black on black."""
    theme_menu.apply_theme(QtWidgets.QWidget(), theme)
    t = themes.current()
    box = QtWidgets.QCheckBox("x")
    qtbot.addWidget(box)
    box.resize(60, 24)
    box.show()
    qtbot.waitExposed(box)

    def indicator() -> np.ndarray:
        img = image_to_rgb(box.grab().toImage()).astype(int)
        return img[:, : img.shape[0]]  # the indicator sits at the left, about as wide as high

    bg = QtGui.QColor(t.background)
    bg_rgb = np.array([bg.red(), bg.green(), bg.blue()])
    unticked = indicator()
    # A ring clearly unlike the background: at least a few dozen pixels at 3:1 or more.
    far = np.abs(unticked - bg_rgb).sum(axis=-1) > 150
    assert far.sum() >= 20, far.sum()
    box.setChecked(True)
    QtWidgets.QApplication.processEvents()
    ticked = indicator()
    assert np.abs(ticked - unticked).sum(axis=-1).astype(bool).sum() >= 20


def _dot_fills(qtbot, win, tab: str, plot: str) -> list[tuple[str, np.ndarray]]:
    """Per cursor dot of ``tab``'s ``plot``: its series' colour as the theme draws it, and
    the pixels of a 3x3 block at the dot's centre (the fill, inside the dot's outline)."""
    view = win.views[tab]
    win.show_view(tab)
    _settle(qtbot, win)
    plots = view.plots
    graphics = plots.plots[plot].getViewBox().scene().views()[0]
    rgb = image_to_rgb(graphics.grab().toImage()).astype(int)
    ratio = graphics.devicePixelRatioF()
    box = plots.plots[plot].getViewBox()
    shown = [s for s in plots._series[plot].values() if plots._visible.get(s.name, True)]
    out = []
    for s in shown:
        y = float(np.interp(plots.cursor(), s.x, s.y))
        at = graphics.mapFromScene(box.mapViewToScene(QtCore.QPointF(plots.cursor(), y)))
        c, r = round(at.x() * ratio), round(at.y() * ratio)
        out.append((themes.current().colour(s.colour), rgb[r - 1:r + 2, c - 1:c + 2]))
    return out


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
# The Euler tab at 0.1: at 0.5 its path passes the lock, where two of the three readout
# angles are left out (no dots), and near it the X′ and Z″ dots overlap (86° and 66° here).
@pytest.mark.parametrize("tab, plot, t", [("euler", "speed", 0.1), ("blend", "speed", 0.0)])
def test_cursor_dots_are_filled_in_their_curves_colour(qtbot, win, theme, tab, plot, t):
    """The Euler readout's first angle and the blending's reference pose (the text
    colour, white in high contrast) had black dots there: the theme walk took the
    dots' white for the light palette's white background and translated it again."""
    win.theme_actions[theme].trigger()
    win.views[tab].model.set_param(t)
    dots = _dot_fills(qtbot, win, tab, plot)
    assert dots
    for colour, block in dots:
        want = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])
        assert np.abs(block - want).sum(axis=-1).max() <= 40, (theme, tab, colour, block[1, 1])
