"""The window on classroom screens: 1280x720 and 1024x768, presentation mode, geometry."""

from __future__ import annotations

from pathlib import Path

import pytest
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.qt import scrubber as scrubber_module
from quatlab.app.qt.window import (
    DEFAULT_SIZE,
    GEOMETRY_KEY,
    PRESENTATION_SPEED,
    MainWindow,
    fitted_geometry,
)

TRUCK = Path(__file__).parent / "data" / "gltf" / "CesiumMilkTruck.glb"
#: The controls a student or teacher reaches for: each must be whole on screen.
CONTROLS = (QtWidgets.QAbstractButton, QtWidgets.QComboBox, QtWidgets.QAbstractSpinBox,
            QtWidgets.QSlider, QtWidgets.QLineEdit)


@pytest.fixture
def window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.open_keyframes(TRUCK)
    win.show_view("main")
    win.show()
    qtbot.waitExposed(win)
    return win


def _settle(qtbot):
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
        qtbot.wait(10)


def _clipped_controls(page: QtWidgets.QWidget, least: int = 3) -> list[str]:
    """Visible controls in ``page`` that are empty or not wholly shown."""
    bad, seen = [], 0
    for w in page.findChildren(QtWidgets.QWidget):
        if not isinstance(w, CONTROLS) or not w.isVisible():
            continue
        if isinstance(w.parentWidget(), (QtWidgets.QAbstractSpinBox, QtWidgets.QComboBox)):
            continue  # a spin box's own line edit
        seen += 1
        if w.width() <= 0 or w.height() <= 0 or w.visibleRegion().boundingRect() != w.rect():
            bad.append(f"{type(w).__name__} {w.objectName() or w.toolTip()[:30]!r} "
                       f"{w.geometry()} shown {w.visibleRegion().boundingRect()}")
    assert seen >= least, page.objectName()  # the check saw the page's controls
    return bad


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_every_tab_fits_a_projector(window, qtbot, size):
    win = window
    hint = win.minimumSizeHint()
    assert hint.width() <= size[0] and hint.height() <= size[1], hint
    win.resize(*size)
    _settle(qtbot)
    assert (win.width(), win.height()) == size
    full = win.rect()
    for i in range(win.tabs.count()):
        win.tabs.setCurrentIndex(i)
        _settle(qtbot)
        page, name = win.tabs.currentWidget(), win.tabs.currentWidget().objectName()
        assert (win.width(), win.height()) == size, name
        # Nothing to scroll to: the whole view is on screen.
        assert not page.horizontalScrollBar().isVisible(), name
        assert not page.verticalScrollBar().isVisible(), name
        view = page.widget()
        box = QtCore.QRect(view.mapTo(win, QtCore.QPoint(0, 0)), view.size())
        assert full.contains(box), (name, box)
        assert _clipped_controls(view) == [], name
        for key in ("scene", "plots"):
            w = view.findChild(QtWidgets.QWidget, key)
            if w is not None and w.isVisible():
                assert w.width() >= 200 and w.height() >= 150, (name, key, w.size())
        if name in win.LESSON_BOUND_VIEWS:
            # The explanation gives its width to the lesson below 1360 px (F7 shows it).
            for k, panel in enumerate(win._side_panels):
                assert panel.isVisible() == (k == 0), name
            assert _clipped_controls(win._side_panels[0]) == [], name
            # Shown with F7, the explanation panel's controls are whole too.
            win.panel_actions[1].trigger()
            _settle(qtbot)
            try:
                assert win._side_panels[1].isVisible(), name
                assert _clipped_controls(win._side_panels[1], 0) == [], name
            finally:
                win.panel_actions[1].trigger()
                _settle(qtbot)


def test_side_panels_give_the_lesson_room_on_a_narrow_window(window, qtbot):
    win = window
    win.resize(1024, 768)
    _settle(qtbot)
    # The two-key lesson gets more than half the width, not what is left over.
    assert win.tabs.width() > 0.5 * 1024, win._split.sizes()


def test_presentation_mode_hides_the_panels_slows_playback_and_esc_leaves(window, qtbot):
    win = window
    left, right = win._side_panels
    sc = win.lesson.scrubber
    sc.speed.setValue(1.5)
    width_before = win.tabs.width()
    win.presentation_action.trigger()  # F5 / View > Presentation mode
    _settle(qtbot)
    assert win.presenting and win.presentation_action.isChecked()
    assert not left.isVisible() and not right.isVisible()
    assert win.tabs.width() > width_before + 300  # the 3D view and plots get the room
    assert sc.speed.value() == PRESENTATION_SPEED
    assert all(s.speed.value() == PRESENTATION_SPEED for s in win.scrubbers())
    win.show_view("s3")  # a lesson-bound tab keeps its panels hidden while presenting
    _settle(qtbot)
    assert not left.isVisible()
    win.show_view("main")
    qtbot.keyClick(win, QtCore.Qt.Key.Key_Escape)
    _settle(qtbot)
    assert not win.presenting and not win.presentation_action.isChecked()
    assert left.isVisible() and right.isVisible()
    assert sc.speed.value() == 1.5  # the speed it had


def test_presentation_speed_is_slower_than_the_default():
    # 1x sweeps the range in BASE_DURATION seconds: several seconds, not one.
    assert scrubber_module.BASE_DURATION >= 4.0
    assert PRESENTATION_SPEED < 1.0


def test_geometry_restored_only_when_it_fits_the_screen():
    avail = QtCore.QRect(0, 0, 1280, 720)
    saved = QtCore.QRect(40, 30, 1100, 650)
    assert fitted_geometry(saved, avail) == saved
    # Saved on a bigger screen: the default size shrunk to this one, centred.
    too_big = QtCore.QRect(0, 0, 1600, 1000)
    got = fitted_geometry(too_big, avail)
    assert avail.contains(got) and got.size() == QtCore.QSize(1280, 720)
    off_screen = QtCore.QRect(900, 500, 800, 600)
    assert avail.contains(fitted_geometry(off_screen, avail))
    assert fitted_geometry(None, QtCore.QRect(0, 0, 1920, 1200)) == QtCore.QRect(
        QtCore.QPoint(260, 150), QtCore.QSize(*DEFAULT_SIZE))
    assert avail.contains(fitted_geometry(b"garbage", avail))


def test_window_saves_and_restores_its_geometry(qtbot, tmp_path):
    settings = QtCore.QSettings(str(tmp_path / "q.ini"), QtCore.QSettings.Format.IniFormat)
    win = MainWindow()
    qtbot.addWidget(win)
    win.place_on_screen(settings)
    avail = win.screen().availableGeometry()
    assert avail.contains(win.geometry())
    target = QtCore.QRect(avail.x() + 20, avail.y() + 20, 1100, 700)
    win.setGeometry(target)
    win.close()
    assert settings.value(GEOMETRY_KEY) == target
    again = MainWindow()
    qtbot.addWidget(again)
    again.place_on_screen(settings)
    assert again.geometry() == target


def test_zoom_scales_the_application_font_and_is_remembered(qtbot, tmp_path):
    from quatlab.app.qt.window import ZOOM_KEY

    settings = QtCore.QSettings(str(tmp_path / "z.ini"), QtCore.QSettings.Format.IniFormat)
    app = QtWidgets.QApplication.instance()
    base = app.font().pointSizeF()
    win = MainWindow()
    qtbot.addWidget(win)
    win.place_on_screen(settings)
    label = win.lesson.findChild(QtWidgets.QRadioButton, "family_slerp")
    narrow = label.sizeHint().width()
    try:
        win.zoom_in_action.trigger()
        win.zoom_in_action.trigger()
        assert app.font().pointSizeF() == pytest.approx(base * 1.3)
        QtWidgets.QApplication.processEvents()  # the font change reaches the widgets
        assert label.font().pointSizeF() == pytest.approx(base * 1.3)
        assert label.sizeHint().width() > narrow  # the widgets follow the font
        assert float(settings.value(ZOOM_KEY)) == pytest.approx(1.3)
        shortcuts = {a.text(): a.shortcut().toString() for a in win.findChildren(QtGui.QAction)}
        assert shortcuts["Reset zoom"] == "Ctrl+0" and shortcuts["Zoom out"] == "Ctrl+-"
        assert list(shortcuts.values()).count("Ctrl+0") == 1  # not shared with another action
        again = MainWindow()
        qtbot.addWidget(again)
        again.place_on_screen(settings)
        assert again.zoom == pytest.approx(1.3)
        win.step_zoom(-1)
        assert win.zoom == pytest.approx(1.15)
        win.set_zoom(1.0)
        assert app.font().pointSizeF() == pytest.approx(base)
    finally:
        app.setFont(win._base_font or app.font())


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_the_squad_key_table_shows_every_cell_whole(window, qtbot, size):
    """A key such as -0.707107 fits its column: stretched columns once elided it to "0.7…"."""
    win = window
    win.resize(*size)
    win.show_view("squad")
    _settle(qtbot)
    table = win.current_view().findChild(QtWidgets.QTableView, "track_keys")
    model, fm = table.model(), table.fontMetrics()
    header = table.horizontalHeader()
    checked = 0
    for row in range(model.rowCount()):
        for col in range(model.columnCount() - 1):  # the last is the −q button
            text = model.index(row, col).data()
            # The item view's own margins: about 3 px each side in Fusion.
            assert fm.horizontalAdvance(text) + 6 <= header.sectionSize(col), (size, row, col, text)
            checked += 1
    assert checked >= 20
    assert not table.horizontalScrollBar().isVisible()


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_every_tabs_plots_keep_their_x_axis_in_view(window, qtbot, size):
    """A checkbox row wrapped to two lines pushed the keyframe curves' x axes below
    their widget's bottom at 1024x768: the splitter asked only the one-line height."""
    import pyqtgraph as pg

    from quatlab.rendering.curve_plots import CurvePlots

    win = window
    win.resize(*size)
    checked = 0
    for i in range(win.tabs.count()):
        win.tabs.setCurrentIndex(i)
        _settle(qtbot)
        page = win.tabs.currentWidget()
        for plots in page.findChildren(CurvePlots):
            if not plots.isVisible():
                continue
            view = plots.findChild(pg.GraphicsLayoutWidget)
            for item in plots.plots.values():
                # The x axis title's text, in the plots widget's own pixels.
                label = item.getAxis("bottom").label
                rect = view.mapFromScene(label.sceneBoundingRect()).boundingRect()
                # (less the text item's empty document margin below the glyphs)
                margin = label.document().documentMargin()
                bottom = view.mapTo(plots, rect.bottomLeft()).y() - margin
                assert bottom <= plots.height(), (page.objectName(), size, bottom, plots.height())
                checked += 1
    assert checked >= 8


def _cut_fields(win) -> list[str]:
    """Endpoint fields whose text is wider than what the field shows of it."""
    cut = []
    for which in (0, 1):
        editor = win.findChild(QtWidgets.QGroupBox, f"endpoint{which}")
        for e in (*editor.components, *editor.axis, editor.angle, *editor.euler):
            # Fusion's line edit: a 2 px frame and 2 px of room each side of the text.
            room = e.width() - 8
            if e.fontMetrics().horizontalAdvance(e.text()) > room:
                cut.append(f"q{which} {e.toolTip()!r} {e.text()!r} in {room} px")
    return cut


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_endpoint_fields_show_their_numbers_whole(window, qtbot, size):
    """q1 = (-0.98481, 0, 0, -0.17365) once read "-0.984" in the narrow side panel."""
    win = window
    win.resize(*size)
    win.state.set_endpoint(1, win.state.entered(1))  # the preset's own numbers
    _settle(qtbot)
    editor = win.findChild(QtWidgets.QGroupBox, "endpoint1")
    assert editor.components[0].text() == "-0.98481"
    assert _cut_fields(win) == []
    _clipped = _clipped_controls(editor)
    assert _clipped == [], _clipped
    # Back on a wide screen the four components share one row again.
    win.resize(1800, 1000)
    _settle(qtbot)
    if editor.width() >= 480:
        assert len({e.y() for e in editor.components}) == 1
    assert _cut_fields(win) == []


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_every_tab_title_shows_on_a_projector(qtbot, size, lang):
    """Inside the middle column, the nine titles once hid behind scroll arrows."""
    from quatlab.app.i18n import set_language

    set_language(lang)  # the autouse _language_kept fixture puts the language back
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    _settle(qtbot)
    bar = win.tab_bar
    assert bar.count() == win.tabs.count() >= 8
    assert not win.tabs.tabBar().isVisible()
    for i in range(bar.count()):
        rect = bar.tabRect(i)
        assert bar.rect().contains(rect), (bar.tabText(i), rect, bar.rect())
        assert bar.tabText(i) == win.tabs.tabText(i)
    assert not [b for b in bar.findChildren(QtWidgets.QToolButton) if b.isVisible()]
    # The bar drives the tabs, and the tabs (show_view, shortcuts) the bar.
    bar.setCurrentIndex(2)
    assert win.tabs.currentIndex() == 2
    win.show_view("s3")
    assert bar.currentIndex() == win.tabs.currentIndex()


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_plots_label_both_ends_of_their_x_axis(window, qtbot, size):
    """pyqtgraph hid the end labels, half outside the axis: the narrow plots of a
    1024-px screen read 0.2-0.8 and lost where t starts and ends."""
    win = window
    win.resize(*size)
    for view, ends in (("main", ({"0", "0.0"}, {"1", "1.0"})),
                       ("integrate", ({"0"}, {"200"}))):
        win.show_view(view)
        _settle(qtbot)
        plots = win.current_view().findChild(QtWidgets.QWidget, "plots").plots
        for name, item in plots.items():
            axis = item.getAxis("bottom")
            image = QtGui.QImage(8, 8, QtGui.QImage.Format.Format_RGB32)
            painter = QtGui.QPainter(image)
            try:
                texts = [spec[2] for spec in axis.generateDrawSpecs(painter)[2]]
            finally:
                painter.end()
            values = sorted(texts, key=float)
            assert values and values[0] in ends[0] and values[-1] in ends[1], (
                view, name, size, texts)


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_zoom_scales_widget_text_in_every_theme(qtbot, theme):
    """Widgets polished under a theme's style sheet kept 9 pt when the zoom changed
    the application font: in high contrast zoom enlarged the plots only."""
    from quatlab.app.qt import theme_menu

    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    theme_menu.apply_theme(win, theme)
    _settle(qtbot)
    kinds = (QtWidgets.QLabel, QtWidgets.QAbstractButton, QtWidgets.QLineEdit,
             QtWidgets.QComboBox)

    def sizes():
        return {id(w): w.font().pointSizeF() for w in win.findChildren(QtWidgets.QWidget)
                if isinstance(w, kinds) and w.isVisible()}

    before = sizes()
    assert len(before) >= 40
    for zoom in (1.5, 1.0):
        win.set_zoom(zoom)
        _settle(qtbot)
        after = sizes()
        off = [(k, before[k], after[k]) for k in before
               if k in after and abs(after[k] - before[k] * zoom) > 0.05]
        assert off == [], (theme, zoom, len(off), off[:5])


def test_endpoint_rows_follow_new_numbers_without_a_resize(window, qtbot):
    """The rows were chosen on a resize only: new numbers typed or loaded into a
    narrow panel kept one row and cut q1's "-0.98481"."""
    win = window
    win.resize(1024, 768)
    win.state.set_endpoint(1, (1.0, 0.0, 0.0, 0.0))
    _settle(qtbot)
    editor = win.findChild(QtWidgets.QGroupBox, "endpoint1")
    assert len({e.y() for e in editor.components}) == 1  # "1 0 0 0" fits one row
    win.state.set_endpoint(1, (-0.98481, 0.0, 0.0, -0.17365))  # no resize
    _settle(qtbot)
    assert editor.components[0].text() == "-0.98481"
    assert len({e.y() for e in editor.components}) == 2
    assert _cut_fields(win) == []
