"""The Keyframes tab on classroom screens: legend off the curves, tables without sideways scrolling.

At 1280x720 and 1024x768 (and zoomed to 150 %) the stored-components
legend stays out of the data area, the segment table's columns and the
explanation fit their width, and the speed plot keeps a readable width.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PyQt6 import QtCore, QtGui, QtWidgets
from text_layout import line_spans

from quatlab.app.io.keyframe_files import KeyframeFileError
from quatlab.app.qt.theme_menu import set_theme
from quatlab.app.qt.window import MainWindow
from quatlab.rendering import themes

TRUCK = Path(__file__).parent / "data" / "gltf" / "CesiumMilkTruck.glb"
SIZES = [(1280, 720), (1024, 768)]


def _truck_window(qtbot) -> MainWindow:
    """The window shown with the truck open in the Keyframes tab (its first track selected)."""
    win = MainWindow()
    qtbot.addWidget(win)
    win.open_keyframes(TRUCK)
    win.show_view("keyframes")
    win.show()
    qtbot.waitExposed(win)
    return win


@pytest.fixture
def window(qtbot):
    win = _truck_window(qtbot)
    yield win
    win.set_zoom(1.0)


def _settle(qtbot, win, size):
    win.resize(*size)
    for _ in range(4):
        QtWidgets.QApplication.processEvents()
        qtbot.wait(15)
    assert (win.width(), win.height()) == size


def _zoomed(qtbot, win, zoom, size=(1024, 768)):
    """The window laid out at ``size``, then zoomed to ``zoom`` and laid out again."""
    _settle(qtbot, win, size)
    win.set_zoom(zoom)
    _settle(qtbot, win, size)


def _scene_rect(item) -> QtCore.QRectF:
    return item.mapRectToScene(item.boundingRect())


@pytest.mark.parametrize("theme", ["light", "high-contrast"])
@pytest.mark.parametrize("size", SIZES)
def test_the_component_legend_sits_outside_the_curves(window, qtbot, size, theme):
    set_theme(window, theme)
    _settle(qtbot, window, size)
    plot = window.findChild(QtWidgets.QWidget, "rig_components")
    assert plot is not None and plot.isVisible()
    item = plot.getPlotItem()
    legend = plot.legend
    assert legend.isVisible() and len(legend.items) == 4
    data = _scene_rect(item.getViewBox())
    box = _scene_rect(legend)
    assert box.width() > 20 and box.height() > 5
    # Wholly inside the plot widget, and not over a pixel of the data area.
    shown = QtCore.QRectF(plot.mapFromScene(box).boundingRect())
    assert QtCore.QRectF(plot.rect()).contains(shown), (shown, plot.rect())
    assert not box.intersects(data), (box, data)


@pytest.mark.parametrize("size", SIZES)
def test_the_segment_table_and_explanation_need_no_sideways_scrolling(window, qtbot, size):
    _settle(qtbot, window, size)
    table = window.findChild(QtWidgets.QTableView, "kf_segments")
    assert table.model().rowCount() == 30
    header = table.horizontalHeader()

    assert header.length() <= table.viewport().width(), (header.length(),
                                                         table.viewport().width())
    assert not table.horizontalScrollBar().isVisible()
    assert table.horizontalScrollBar().maximum() == 0
    # Every column shows its widest cell whole (the flags column may elide).
    model = table.model()
    metrics = table.fontMetrics()
    for c in range(model.columnCount() - 1):
        widest = max(metrics.horizontalAdvance(model.cell_text(r, c))
                     for r in range(model.rowCount()))
        assert table.columnWidth(c) >= widest, (c, table.columnWidth(c), widest)
    # Short headers explain themselves in a tooltip.
    role = QtCore.Qt.ItemDataRole
    for c in range(model.columnCount()):
        assert model.headerData(c, QtCore.Qt.Orientation.Horizontal, role.ToolTipRole)
    # The explanation (a sign flip's, the longest) wraps to its width.
    table.selectRow(14)
    qtbot.wait(20)
    details = window.findChild(QtWidgets.QTextBrowser, "kf_details")
    assert details.horizontalScrollBar().maximum() == 0
    assert not details.horizontalScrollBar().isVisible()


@pytest.mark.parametrize("zoom", [1.3, 1.5])  # View > Zoom in twice; --scale 1.5
def test_zoomed_in_at_1024x768_the_speed_plot_keeps_its_width(window, qtbot, zoom):
    _zoomed(qtbot, window, zoom)
    assert themes.scale() == pytest.approx(zoom)
    curves = window.findChild(QtWidgets.QWidget, "rig_curves")
    speed = curves.plots["speed"].getViewBox()
    angle = curves.plots["angle"].getViewBox()
    components = window.findChild(QtWidgets.QWidget, "rig_components").getPlotItem().getViewBox()
    page = window.tabs.currentWidget()
    assert not page.horizontalScrollBar().isVisible()  # the tab fits: nothing off screen
    for name, box in (("speed", speed), ("angle", angle), ("components", components)):
        view = box.getViewWidget()
        shown = QtCore.QRect(view.mapTo(window, view.mapFromScene(_scene_rect(box))
                                        .boundingRect().topLeft()),
                             view.mapFromScene(_scene_rect(box)).boundingRect().size())
        shown = shown.intersected(window.rect())
        # Before, side by side under the scene, the speed plot kept about 80 px.
        assert shown.width() >= (100 if name == "components" else 180), (name, shown)
        assert shown.height() >= 60, (name, shown)
    # The legend of the (narrower) components plot still fits it.
    plot = window.findChild(QtWidgets.QWidget, "rig_components")
    legend = QtCore.QRectF(plot.mapFromScene(_scene_rect(plot.legend)).boundingRect())
    assert QtCore.QRectF(plot.rect()).contains(legend), (legend, plot.rect())


def _cell_room_margin(table: QtWidgets.QTableView) -> int:
    """Room Qt's item delegate keeps beside a cell's text: PM_FocusFrameHMargin + 1 a side."""
    m = table.style().pixelMetric(QtWidgets.QStyle.PixelMetric.PM_FocusFrameHMargin, None, table)
    return 2 * (m + 1)


def _elided_cells(table: QtWidgets.QTableView) -> list[str]:
    """Visible cells whose text is wider than its column leaves it (the delegate elides them)."""
    model, fm, margin = table.model(), table.fontMetrics(), _cell_room_margin(table)
    first = table.rowAt(0)
    last = table.rowAt(table.viewport().height() - 1)
    last = model.rowCount() - 1 if last < 0 else last
    # The check saw rows (wherever the table stands: at the track's first finding), three
    # at least (zoomed to 150 % in Chinese the table gives a fourth to the explanation).
    assert first >= 0 and last >= first + 2, (first, last)
    bad = []
    for c in range(model.columnCount()):
        if table.isColumnHidden(c):
            continue
        for r in range(first, last + 1):
            text = model.cell_text(r, c)
            if fm.horizontalAdvance(text) + margin > table.columnWidth(c):
                bad.append(f"row {r} col {c} {text!r}: {fm.horizontalAdvance(text)} + {margin}"
                           f" px in {table.columnWidth(c)}")
    return bad


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("zoom", [1.3, 1.5])
def test_zoomed_in_at_1024x768_the_segment_table_fits_without_eliding(qtbot, lang, zoom):
    from quatlab.app import i18n

    i18n.set_language(lang)
    win = _truck_window(qtbot)
    try:
        _zoomed(qtbot, win, zoom)
        table = win.findChild(QtWidgets.QTableView, "kf_segments")
        model = table.model()
        assert model.rowCount() == 30
        assert table.font().pointSizeF() > 11  # the zoom reached the table
        assert _elided_cells(table) == []
        assert not table.horizontalScrollBar().isVisible()
        assert table.horizontalScrollBar().maximum() == 0
        shown = [c for c in range(model.columnCount()) if not table.isColumnHidden(c)]
        # The segment, its dot, the naive sweep and the flags always show.
        assert {0, 3, 4, 6} <= set(shown), shown
        # A column made way for the rest is still said in each row's tooltip.
        role = QtCore.Qt.ItemDataRole.ToolTipRole
        for c in set(range(model.columnCount())) - set(shown):
            tip = model.data(model.index(14, 0), role)
            assert model.cell_text(14, c) in tip, (c, tip)
        # Back at 100 % every column shows again, none elided.
        win.set_zoom(1.0)
        _settle(qtbot, win, (1024, 768))
        assert not any(table.isColumnHidden(c) for c in range(model.columnCount()))
        assert _elided_cells(table) == []
        assert not table.horizontalScrollBar().isVisible()
    finally:
        win.set_zoom(1.0)


def test_times_get_the_decimals_that_tell_keys_apart():
    import doctest

    from quatlab.app.qt import keyframe_tables
    from quatlab.app.qt.keyframe_tables import time_decimals

    # 24 fps: 0.000, 0.042, 0.083 differ in milliseconds already.
    assert time_decimals([0.0, 1 / 24, 2 / 24, 3 / 24]) == 3
    # 2500 fps keys: 0.0004 s apart, one decimal more (0.000 and 0.000 would read alike).
    assert time_decimals([0.0, 0.0004, 0.0008]) == 4
    assert time_decimals([1.0, 1.00001]) == 5
    assert time_decimals([2.0, 2.0]) == 6        # equal times: as many as it allows
    assert time_decimals([0.0, float("nan"), 1.0]) == 3
    assert doctest.testmod(keyframe_tables).failed == 0


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("zoom", [1.0, 1.3, 1.5])
def test_the_segment_explanation_keeps_its_formulas_on_one_line(qtbot, lang, zoom):
    from text_layout import formula_breaks, laid_out_lines

    from quatlab.app import i18n

    i18n.set_language(lang)
    win = _truck_window(qtbot)
    try:
        _zoomed(qtbot, win, zoom)
        details = win.findChild(QtWidgets.QTextBrowser, "kf_details")
        table = win.findChild(QtWidgets.QTableView, "kf_segments")
        # The track's findings, then the sign flip's segment selected.
        for select in (None, 14):
            if select is not None:
                table.selectRow(select)
                _settle(qtbot, win, (1024, 768))
            doc = details.document()
            doc.size()
            lines = laid_out_lines(doc)
            text = " ".join(lines).replace("−", "-")
            assert "-0.9948" in text, text
            assert len(lines) >= 3, lines
            assert formula_breaks(lines) == [], (select, lines)
            if select is None:   # "dot(q14, q15) = -0.9948 < 0" whole on its line
                assert any("dot(q14, q15) = -0.9948 < 0" in s.replace("−", "-")
                           for s in lines), lines
    finally:
        win.set_zoom(1.0)


@pytest.fixture(params=["en", "zh_CN"])
def truck_in(request, qtbot):
    """The window in each language with the truck open (its first track selected)."""
    from quatlab.app import i18n

    i18n.set_language(request.param)
    win = _truck_window(qtbot)
    yield win
    i18n.set_language("en")


def _assert_whole(view, what):
    details, table = view.details, view.segment_table
    doc_height = details.document().size().height()
    # The explanation shows all of its text: no vertical scrolling, no line cut.
    assert doc_height <= details.viewport().height(), (what, doc_height,
                                                       details.viewport().height())
    assert details.verticalScrollBar().maximum() == 0, what
    assert not details.verticalScrollBar().isVisible(), what
    # The table (it scrolls) ends at a row's bottom, not through a row.
    row = table.rowHeight(0)
    assert table.viewport().height() % row == 0, (what, table.viewport().height(), row)
    assert table.viewport().height() >= 4 * row, what  # and keeps rows to browse
    assert details.viewport().height() - doc_height < row + 4, what  # not more than it needs


@pytest.mark.parametrize("size", SIZES)
def test_the_explanation_shows_its_whole_text_and_the_table_whole_rows(truck_in, qtbot, size):
    """The explanation needed scrolling: at 1280x720 its last line was cut half-way,
    at 1024x768 the text stopped mid-sentence and the hint did not show."""
    _settle(qtbot, truck_in, size)
    view = truck_in.views["keyframes"]
    assert view.model.selected_track is not None
    text = view.details.toPlainText()
    assert "348.3" in text and len(text.splitlines()) >= 3  # the track's sign flip, the hint
    _assert_whole(view, "track")
    view.segment_table.selectRow(14)  # the sign flip's segment: the longest segment text
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
        qtbot.wait(15)
    assert view.model.selected_segment == 14
    _assert_whole(view, "segment 14")


@pytest.mark.parametrize("size", SIZES)
def test_legend_entries_each_lie_on_one_line(truck_in, qtbot, size):
    """A word-wrapped legend left "key" alone on the next line (en) and broke
    "点击区 / 段即可载入" (zh_CN): entries wrap as units, between entries only."""
    _settle(qtbot, truck_in, size)
    legend = truck_in.findChild(QtWidgets.QWidget, "kf_legend")
    entries = legend.entries
    assert len(entries) == 7  # six finding families and the key tick
    line = legend.fontMetrics().lineSpacing()
    boxes = [e.geometry() for e in entries]
    for entry, box in zip(entries, boxes, strict=True):
        assert entry.isVisible()
        assert box.height() < 1.5 * line, (entry.text(), box)     # one line tall
        assert box.width() >= entry.sizeHint().width(), (entry.text(), box)  # not clipped
        assert legend.rect().contains(box), (entry.text(), box, legend.rect())
    for i, a in enumerate(boxes):
        assert not any(a.intersects(b) for b in boxes[i + 1:]), boxes
    # Each swatch is its entry's first character, so it sits on its words' line.
    for entry in entries[:4]:
        assert entry.text().startswith("<span style='color:"), entry.text()
    # The legend is as tall as its rows and no taller than the rows need.
    rows = {box.top() for box in boxes}
    assert legend.height() >= max(box.bottom() for box in boxes)
    assert len(rows) <= 3


def test_a_text_longer_than_its_share_stops_below_a_whole_line(truck_in, qtbot):
    """Zoomed to 150 % at 1024x768 the sign flip's explanation needs more than half
    the room: it scrolls then, and its box ends between two lines, not through one."""
    from quatlab.app.qt.details_fit import MIN_TABLE_ROWS

    try:
        _zoomed(qtbot, truck_in, 1.5)
        view = truck_in.views["keyframes"]
        view.segment_table.selectRow(14)
        for _ in range(4):
            QtWidgets.QApplication.processEvents()
            qtbot.wait(15)
        details, table = view.details, view.segment_table
        doc = details.document()
        height = details.viewport().height()
        assert doc.size().height() > height  # the case under test: the text is capped
        tops_bottoms = line_spans(doc)
        cut = [(t, b) for t, b in tops_bottoms if t < height < b - 0.5]
        assert cut == [], (height, cut)
        # It shows lines, not a sliver: three (two left the heading alone in Chinese).
        bottoms = sorted(b for _t, b in tops_bottoms)
        assert sum(b <= height for b in bottoms) >= 3, (height, bottoms[:4])
        row = table.rowHeight(0)
        assert table.viewport().height() % row == 0
        # The table keeps its rows, or gives up only those a third line needed: with
        # one row more the explanation would cut its third line.
        rows = table.viewport().height() // row
        assert rows >= MIN_TABLE_ROWS or height - row < bottoms[2], (rows, height, bottoms[:3])
    finally:
        truck_in.set_zoom(1.0)


FOX = TRUCK.with_name("Fox.glb")


@pytest.mark.parametrize("size", [(1400, 900), (1280, 720)])
@pytest.mark.parametrize("path, tracks", [(TRUCK, 2), (FOX, 60)])
def test_the_dope_sheet_shows_its_rows_and_no_blank_ones(qtbot, size, path, tracks):
    """Two tracks take two rows (the rest goes to the segment table); sixty take
    the dope sheet's share of the height, and scroll."""
    win = _truck_window(qtbot)
    if path != TRUCK:
        win.open_keyframes(path)
    _settle(qtbot, win, size)
    view = win.views["keyframes"]
    dope = view.dope_sheet
    assert dope.sheet.track_rows == tracks
    row = dope.row_height()
    shown = dope.tree.viewport().height()
    if tracks == 2:
        assert 2 * row <= shown < 4 * row, (shown, row)  # its rows, not a blank pane
    else:
        assert shown >= 8 * row, (shown, row)
        assert dope.tree.verticalScrollBar().isVisible()
        assert_whole_rows(dope.tree, path.name)  # scrolled to the end too
        dope.tree.verticalScrollBar().setValue(dope.tree.verticalScrollBar().maximum())
        assert_whole_rows(dope.tree, path.name)
    # The segment table ends at a row's bottom too, and keeps its rows.
    segments = view.segment_table
    assert segments.viewport().height() % segments.rowHeight(0) == 0
    assert segments.viewport().height() >= 4 * segments.rowHeight(0)


def test_zoomed_in_the_dope_sheet_keeps_both_tracks(window, qtbot):
    """At 150 % the rows grow taller than the room fitted at 100 %: the dope
    sheet takes the room back rather than hiding the second track."""
    _zoomed(qtbot, window, 1.0)
    _zoomed(qtbot, window, 1.5)
    dope = window.views["keyframes"].dope_sheet
    assert dope.tree.viewport().height() >= 2 * dope.row_height()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_peak_callout_leaves_most_of_the_narrow_speed_plot_in_sight(qtbot, lang):
    """At 1024x768 the speed plot was ~110 px wide: its peak callout had wrapped
    to four or five lines over most of it. The peak is now the omega plot's
    (its |omega|), whose callout takes at most a fifth of the plot, 40 % of its
    height while a shorter form is left, and is drawn whole or not at all."""
    from quatlab.app import i18n

    i18n.set_language(lang)
    try:
        win = _truck_window(qtbot)
        panel = win.views["keyframes"].rig_panel
        panel.plot_tabs.setCurrentWidget(panel.omega)
        _settle(qtbot, win, (1024, 768))
        (label,) = panel.omega.callouts
        box = panel.omega.getPlotItem().getViewBox().sceneBoundingRect()
        if not label.squeezed:
            rect = label.textItem.sceneBoundingRect()
            assert rect.height() <= 0.4 * box.height(), (rect.height(), box.height())
            assert rect.width() * rect.height() <= 0.2 * box.width() * box.height() + 1
            assert box.adjusted(-1, -1, 1, 1).contains(rect)
            assert label.toPlainText().startswith("↑")
        else:
            assert not label.textItem.isVisible()
    finally:
        i18n.set_language("en")


def test_the_hidden_labels_note_wraps_inside_the_3d_view(truck_in, qtbot):
    """With more labels than the rig view has room for, a note in its corner
    counts those left out; in zh_CN at 150 % (1024x768) it ran off the view's
    right edge, under the key components plot. It now wraps inside the view."""
    import dataclasses

    from test_rig_view import scene_rgb

    try:
        _zoomed(qtbot, truck_in, 1.5)
        view = truck_in.views["keyframes"]
        view.playback.set_time(0.6)  # both wheels turning, both labelled
        scene = view.rig_panel.scene
        layer = scene.label_layer
        scene_rgb(view)
        wheel = next(lb for lb in layer.labels if lb.visible and lb.text)
        # Twelve more labels on the same wheel: the view cannot place them all.
        layer.labels.extend(dataclasses.replace(wheel, text=f"{wheel.text} #{k}")
                            for k in range(12))
        scene_rgb(view)  # a frame drawn now, with them
        assert layer.hidden >= 1
        rect, width = layer.note_rect, scene.widget.width()
        assert rect is not None and rect.left() >= 0 and rect.right() <= width - 4, (rect, width)
        assert rect.top() >= 0 and rect.bottom() <= scene.widget.height()
    finally:
        truck_in.set_zoom(1.0)


def test_what_an_action_did_is_said_in_the_status_bar_and_errors_in_the_tab(window, qtbot):
    """With a file open, a report such as the fix's goes to the window's status bar
    (its own line in the tab cost the details box and the plot beside the scene
    their last readable rows at 1024x768 and 150 %); an error stays in the tab, red."""
    view = window.views["keyframes"]
    message = window.findChild(QtWidgets.QLabel, "kf_message")
    view.model.fix_signs()
    assert view.model.message.text and not view.model.message.error
    assert not message.isVisibleTo(view)
    assert window.status.currentMessage() == view.model.message.text
    with pytest.raises(KeyframeFileError):
        view.model.export(Path("/nonexistent-folder/out.glb"))
    assert view.model.message.error and message.isVisibleTo(view)
    assert message.text() == view.model.message.text and "Not exported" in message.text()


def test_an_empty_tab_keeps_its_hint_in_the_tab(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.show_view("keyframes")
    win.show()
    qtbot.waitExposed(win)
    message = win.findChild(QtWidgets.QLabel, "kf_message")
    assert message.isVisible() and "Open a glTF" in message.text()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_robot_expressive_at_150_percent_fits_1024_px_and_explains_in_two_lines(qtbot, lang):
    """As ``quatlab screenshot --scale 1.5 --size 1024x768`` draws it: the time row's
    "frame 0 / 80 at 24 fps" widened the tab to 1041 px (a sideways scroll bar cut
    "Bones and axes"), and in zh_CN the explanation under the segment table was
    squeezed to a sliver (the table kept four rows whatever was left)."""
    from quatlab.app import i18n
    from quatlab.app.commands.screenshot import lesson_state, show_window

    i18n.set_language(lang)
    try:
        robot = Path(__file__).parent / "data" / "gltf" / "RobotExpressive.glb"
        (win, _img), problem = show_window(lesson_state("keyframes", None, None), "keyframes",
                                           (1024, 768), open_file=robot, scale=1.5)
        assert problem is None
        qtbot.addWidget(win)
        page = win.tabs.currentWidget()
        assert not page.horizontalScrollBar().isVisible()
        assert page.widget().minimumSizeHint().width() <= page.viewport().width()
        frame = win.findChild(QtWidgets.QLabel, "rig_frame")
        assert frame.text().endswith("/ 80" if lang == "en" else "/ 80 帧")
        assert "24 fps" in frame.toolTip()
        details = win.views["keyframes"].details
        line = details.fontMetrics().lineSpacing()
        assert details.viewport().height() >= 2 * line, (details.viewport().height(), line)
        # The joint tree folds rather than keep 70 px of cut names; the scene keeps its
        # width and the components plot beside it a readable data area.
        panel = win.views["keyframes"].rig_panel
        assert panel.node_list.width() == 0 or not panel.node_list.isVisible()
        assert panel.scene.widget.width() >= 320
        data = panel.components.getPlotItem().getViewBox().sceneBoundingRect()
        assert data.width() >= 100 and data.height() >= 60, data
        # The error and turn plots' titles are whole words ("unw…" before).
        for item in panel.curves.plots.values():
            assert "…" not in item.getAxis("left").shown_title()
        # The time slider is a slider, not a stub (20 px with the frame readout in its row).
        slider = win.findChild(QtWidgets.QSlider, "rig_time_slider")
        assert slider.width() >= 5 * slider.fontMetrics().height(), slider.width()
        assert frame.isVisible() and frame.visibleRegion().boundingRect() == frame.rect()
        # Wide again, the tree opens at the width its names ask for.
        win.set_zoom(1.0)
        win.resize(1400, 900)
        for _ in range(5):
            QtWidgets.QApplication.processEvents()
            qtbot.wait(15)
        assert panel.node_list.width() >= panel.node_list.preferred_width() - 2
    finally:
        win.set_zoom(1.0)
        i18n.set_language("en")


def test_the_rig_legend_keeps_each_mark_with_its_words(window):
    """Wrapped at 150 % in zh_CN, the "joints differing" dot ended one line and its
    words began the next, so the dot read as the overlay switch's mark: each mark
    is now the first character of its entry's own label, a no-break space after it."""
    entries = [e.text() for e in window.views["keyframes"].rig_panel.legend.entries]
    assert len(entries) == 4, entries
    for text in entries[:3]:
        assert text.startswith("<span style='color:") and "</span>&nbsp;" in text, text
    assert entries[3].startswith("◉&nbsp;"), entries[3]


# --------------------------------------------------------------------------- projector
def cut_rows(tree: QtWidgets.QTreeView) -> list[tuple[str, int, int, int]]:
    """The rows the tree's bottom edge cuts through: (text, top, bottom, viewport height)."""
    height = tree.viewport().height()
    cut = []
    index = tree.indexAt(QtCore.QPoint(1, 1))
    while index.isValid():
        rect = tree.visualRect(index)
        if rect.top() < height < rect.bottom() + 1:
            cut.append((index.data(), rect.top(), rect.bottom() + 1, height))
        index = tree.indexBelow(index)
    return cut


def assert_whole_rows(tree: QtWidgets.QTreeView, what: str) -> None:
    """No row cut by the bottom edge, and no more than a row's height left blank."""
    assert cut_rows(tree) == [], what
    rows = tree.indexAt(QtCore.QPoint(1, 1))
    if rows.isValid():
        blank = tree.viewportMargins().bottom()
        assert 0 <= blank < tree.visualRect(rows).height(), (what, blank)


def elided_names(tree: QtWidgets.QTreeView) -> list[tuple[str, str]]:
    """(name, as drawn) of the first column's rows the tree would elide, laid out as its
    delegate lays them out (the row's font, the style's text rectangle)."""
    style = tree.style()
    out = []
    index = tree.model().index(0, 0)
    while index.isValid():
        option = QtWidgets.QStyleOptionViewItem()
        tree.initViewItemOption(option)
        option.rect = tree.visualRect(index)
        tree.itemDelegate().initStyleOption(option, index)
        text = style.subElementRect(QtWidgets.QStyle.SubElement.SE_ItemViewItemText, option, tree)
        drawn = QtGui.QFontMetrics(option.font).elidedText(option.text, tree.textElideMode(),
                                                           text.width())
        if drawn != option.text:
            out.append((option.text, drawn))
        index = tree.indexBelow(index)
    return out


def assert_legend_entries_on_one_line(entries: list[QtWidgets.QLabel], words: list[str]) -> None:
    """Each entry a label of one line, whole, apart from the others, holding its words."""
    assert len(entries) == len(words)
    for entry, text in zip(entries, words, strict=True):
        line = entry.fontMetrics().lineSpacing()
        box = entry.geometry()
        assert entry.isVisible() and text in entry.text(), (text, entry.text())
        assert box.height() < 1.5 * line, (text, box, line)  # one line tall
        assert box.width() >= entry.sizeHint().width(), (text, box)  # not clipped
        assert entry.visibleRegion().boundingRect() == entry.rect(), text
    boxes = [e.geometry() for e in entries]
    for i, a in enumerate(boxes):
        assert not any(a.intersects(b) for b in boxes[i + 1:]), boxes


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_robot_expressive_at_150_percent_explains_in_three_whole_lines(qtbot, lang):
    """As ``quatlab screenshot --scale 1.5 --size 1024x768`` draws it, the details box
    showed two lines, the track's heading alone (it wraps there), and the sign flip
    it explains stayed out of sight below. The segment table gives up a row for a
    third line; the plots beside keep their size. In Chinese it still showed two:
    its lines are 27 px where the font's line spacing, what three lines were
    counted in, is 21, and the table was down to one row. The dope sheet above,
    tall with 147 tracks, lends the few pixels and keeps two rows."""
    from text_layout import whole_lines_above

    from quatlab.app import i18n
    from quatlab.app.commands.screenshot import lesson_state, show_window
    robot = Path(__file__).parent / "data" / "gltf" / "RobotExpressive.glb"
    i18n.set_language(lang)
    (win, _img), problem = show_window(lesson_state("keyframes", None, None), "keyframes",
                                       (1024, 768), open_file=robot, scale=1.5)
    assert problem is None
    qtbot.addWidget(win)
    try:
        view = win.views["keyframes"]
        details, table, panel = view.details, view.segment_table, view.rig_panel
        assert details.verticalScrollBar().value() == 0
        height = details.viewport().height()
        shown = whole_lines_above(details.document(), height)
        assert len(shown) >= 3, shown   # three whole lines, as the docstring says
        spans = line_spans(details.document())
        assert [(t, b) for t, b in spans if t < height < b - 0.5] == [], (height, spans[:4])
        # What the box is for: in English the finding's name shows; in Chinese the
        # heading takes the three lines, and it names the joint the finding is on.
        if lang == "en":
            assert "sign flip" in " ".join(shown[2:]), shown
        else:
            assert "'Head'" in " ".join(shown), shown
        # The table ends at a row's bottom and keeps one (its flagged row).
        row = table.rowHeight(0)
        assert table.viewport().height() >= row, (table.viewport().height(), row)
        assert table.viewport().height() % row == 0, (table.viewport().height(), row)
        sheet = view.dope_sheet
        assert sheet.tree.viewport().height() >= 2 * sheet.row_height()   # two rows
        # The plots are not squeezed for it: the curves at their least height or more,
        # the stored keys' data area as the projector test asks, no page scrolling.
        assert panel.curves.height() >= panel.curves.minimumSizeHint().height()
        data = panel.components.getPlotItem().getViewBox().sceneBoundingRect()
        assert data.width() >= 200 and data.height() >= 110, data
        assert not win.tabs.currentWidget().verticalScrollBar().isVisible()
    finally:
        i18n.set_language("en")
        win.set_zoom(1.0)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("size, scale, theme", [((1024, 768), 1.5, "light"),
                                                ((1280, 720), 1.0, "dark")])
def test_robot_expressive_on_a_projector_shows_whole_rows_names_and_words(qtbot, lang, size,
                                                                         scale, theme):
    """As ``quatlab screenshot --view keyframes`` draws RobotExpressive at 1024x768 and
    150 % and at 1280x720: before, the stored keys' side tab said "ω" (on its side,
    a "3"), the plot beside the scene kept a 206x80 data area under a two-row
    legend, the dope sheet cut "LowerArm.L" to "Low…m.L" and, like the joint tree,
    ended in a row cut in half, and the rig legend broke "naive / runtime (ghost)"."""
    from quatlab.app import i18n
    from quatlab.app.commands.screenshot import lesson_state, show_window

    i18n.set_language(lang)
    try:
        robot = Path(__file__).parent / "data" / "gltf" / "RobotExpressive.glb"
        (win, _img), problem = show_window(lesson_state("keyframes", None, None), "keyframes",
                                           size, open_file=robot, scale=scale, theme=theme)
        assert problem is None
        qtbot.addWidget(win)
        view = win.views["keyframes"]
        panel = view.rig_panel
        assert panel.wait_loaded()
        words = [i18n._("spec player (shortest-arc SLERP)"), i18n._("naive runtime (ghost)"),
                 "1°", i18n._("selected")]
        # As the screenshot was taken: each legend entry the only label on show with its
        # words (the entries the rig's colour replaced stayed drawn beside the 3D view
        # until the event loop deleted them, after the screenshot).
        labels = panel.findChildren(QtWidgets.QLabel)
        for text in words[:2]:
            shown = [w.text() for w in labels if w.isVisible() and text in w.text()]
            assert len(shown) == 1, (text, shown)
        for _ in range(6):
            QtWidgets.QApplication.processEvents()
            qtbot.wait(15)
        # The plot tabs: words (a lone symbol on its side reads as another), each whole.
        tabs, bar = panel.plot_tabs, panel.plot_tabs.tabBar()
        side = tabs.tabPosition() == QtWidgets.QTabWidget.TabPosition.West
        assert side == (scale > 1.0)  # beside the scene when narrow
        for i in range(tabs.count()):
            text = tabs.tabText(i)
            assert sum(c.isalpha() for c in text) >= 2, text
            rect = bar.tabRect(i)
            assert (rect.height() if side else rect.width()) >= \
                bar.fontMetrics().horizontalAdvance(text), (text, rect)
            assert bar.rect().contains(rect), (text, rect, bar.rect())
        # The stored keys' legend in one row where it fits, inside the plot; the data
        # area under it gets the height (206x80 before at 1024x768 and 150 %).
        plot = panel.components
        legend = plot.legend
        box = QtCore.QRectF(plot.mapFromScene(legend.sceneBoundingRect()).boundingRect())
        assert QtCore.QRectF(plot.rect()).contains(box), (box, plot.rect())
        assert legend.columnCount == 4
        data = plot.getPlotItem().getViewBox().sceneBoundingRect()
        assert data.width() >= 200 and data.height() >= 110, data
        # The dope sheet: whole names, whole rows.
        dope = view.dope_sheet
        assert dope.shown_rows() >= 5
        assert elided_names(dope.tree) == []
        assert_whole_rows(dope.tree, "dope sheet")
        # The joint tree (folded to its handle at 150 %): whole rows too.
        assert_whole_rows(panel.node_list, "joint tree")
        # The rig legend: each entry on one line, its mark with its words.
        assert_legend_entries_on_one_line(panel.legend.entries, words)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("theme", ["dark", "high-contrast"])
def test_the_timeline_strip_is_dark_in_a_dark_theme(qtbot, theme):
    """In the dark themes the strip of unflagged segments stayed the light theme's
    pale grey-blue (#C5D1DE): a glaring band across a dark window. Measured from
    the pixels: the strip's commonest colour is near the theme's background, and
    the keys' ticks and the flagged bar still stand out on it."""
    from oracles import contrast_8bit

    from quatlab.app.qt.recorder import image_to_rgb

    win = _truck_window(qtbot)
    try:
        set_theme(win, theme)
        _settle(qtbot, win, (1400, 900))
        strip = win.findChild(QtWidgets.QWidget, "timeline")
        rgb = image_to_rgb(strip.grab().toImage())
        # The rows of the band's middle (y = 0.5 of the strip's hidden axis).
        vb = strip.getPlotItem().getViewBox()
        y = round(strip.mapFromScene(vb.mapViewToScene(QtCore.QPointF(0.0, 0.5))).y()
                  * strip.devicePixelRatioF())
        middle = rgb[y - 2:y + 3].reshape(-1, 3)
        colours, counts = np.unique(middle, axis=0, return_counts=True)
        band = colours[counts.argmax()]
        def rgb(name):
            return np.array([int(name[i:i + 2], 16) for i in (1, 3, 5)])

        theme_now = themes.current()
        assert contrast_8bit(band, rgb(theme_now.background)) < 2.5, band  # not glaring
        flag = rgb(theme_now.findings["sign_flip"])
        assert contrast_8bit(flag, band) > 2.0, (flag, band)
    finally:
        set_theme(win, "light")


def test_the_segment_table_shows_the_selected_tracks_first_finding(qtbot):
    """RobotExpressive opens on 'Head', whose details explain the sign flip at keys
    51 → 52, while the segment table stood at '0 → 1' with the flagged row out of
    sight. The table now scrolls to the track's first flagged segment."""
    from quatlab.app.commands.screenshot import lesson_state, show_window

    robot = Path(__file__).parent / "data" / "gltf" / "RobotExpressive.glb"
    (win, _img), problem = show_window(lesson_state("keyframes", None, None), "keyframes",
                                       (1280, 720), open_file=robot)
    assert problem is None
    qtbot.addWidget(win)
    view = win.views["keyframes"]
    m = view.model
    assert m.selected_track is not None and m.selected_segment is None
    flagged = [r for r, f in enumerate(m.segments(m.selected_track).findings) if f]
    assert flagged and flagged[0] > 10, flagged
    table = view.segment_table
    row = table.model().index(flagged[0], 0)
    qtbot.waitUntil(lambda: table.viewport().rect().contains(table.visualRect(row)),
                    timeout=3000)
    assert "51" in table.model().data(row)
