"""The readouts in the narrow side panel: every value whole on a projector, lesson room kept."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from PyQt6 import QtGui, QtWidgets

from quatlab.app import i18n
from quatlab.app.model.state import LessonState
from quatlab.app.qt import readouts as readouts_module
from quatlab.app.qt.readouts import aligned_quaternion
from quatlab.app.qt.window import MainWindow
from quatlab.math.curves import METHODS

#: The item view's own margins: about 3 px each side in Fusion.
MARGINS = 6


def _settle(qtbot):
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
        qtbot.wait(10)


def _clipped_cells(readouts) -> list[str]:
    """Cells whose text is wider than the room the table gives it (or that are hidden)."""
    table, bad = readouts.table, []
    viewport = table.viewport().rect()
    for m in METHODS:
        for what in ("name", "q", "angle", "speed"):
            item = readouts.cell(m, what)
            rect = table.visualItemRect(item)
            need = QtGui.QFontMetrics(item.font()).horizontalAdvance(item.text()) + MARGINS
            if need > rect.width() or not viewport.contains(rect):
                bad.append(f"{m} {what} {item.text()!r}: needs {need} px, has {rect}")
    return bad


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_every_readout_cell_shows_whole_and_the_lesson_keeps_half(qtbot, lang, size):
    i18n.set_language(lang)
    # A negative w, x, y and z: the widest text the quaternion cells can hold.
    state = LessonState.from_preset("negated-20", t=0.5)
    state.set_endpoint(1, np.array([-0.5, -0.5, -0.5, -0.5]))
    win = MainWindow(state)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.resize(*size)
    _settle(qtbot)
    r = win.readouts
    assert r.isVisible() and r.visibleRegion().boundingRect() == r.rect()  # not scrolled away
    for t in (0.0, 0.5, 0.37, 1.0):
        state.set_t(t)
        _settle(qtbot)
        assert _clipped_cells(r) == [], (lang, size, t)
    assert r.cell("naive_slerp", "q").text() == "(-0.500, -0.500, -0.500, -0.500)"  # t = 1
    # q1 = -q0: naive NLERP collapses and SLERP has no arc at t = 0.5; the words fit too.
    state.load_preset("q-to-minus-q")
    state.set_t(0.5)
    _settle(qtbot)
    assert r.cell("naive_nlerp", "angle").text() == "—"
    assert _clipped_cells(r) == [], (lang, size, "q-to-minus-q")
    assert win.tabs.width() >= 0.5 * size[0], win._split.sizes()


def test_quaternion_cells_use_a_legible_fixed_width_font_that_follows_the_zoom(qtbot):
    app = QtWidgets.QApplication.instance()
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    r = win.readouts
    base = app.font().pointSizeF()
    q = r.cell("naive_nlerp", "q")
    assert q.font().pointSizeF() >= base - 1
    assert QtGui.QFontInfo(q.font()).fixedPitch()  # the components stand in columns
    try:
        win.set_zoom(1.3)
        _settle(qtbot)
        assert q.font().pointSizeF() == pytest.approx(1.3 * base, abs=0.1)
        # The fixed number columns were measured again for the larger font.
        metrics = QtGui.QFontMetrics(r.table.font())
        speed = r.cell("naive_nlerp", "speed")
        assert metrics.horizontalAdvance("2619.58") + MARGINS <= r.table.visualItemRect(
            speed).width()
    finally:
        win.set_zoom(1.0)


def test_aligned_quaternion_keeps_a_sign_column():
    texts = [aligned_quaternion(q) for q in ([0.087, 0, 0, -0.996], [-0.996, 0, -0.0001, 0.087])]
    assert texts == ["( 0.087,  0.000,  0.000, -0.996)", "(-0.996,  0.000,  0.000,  0.087)"]
    assert len({len(t) for t in texts}) == 1
    assert [i for i, c in enumerate(texts[0]) if c == ","] == [
        i for i, c in enumerate(texts[1]) if c == ","]
    assert doctest.testmod(readouts_module).failed == 0


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_the_left_panel_fits_without_scrolling(qtbot, lang, size):
    """With q1 = (-0.98481, 0, 0, -0.17365) on two rows, the Chinese panel at 1280x720
    scrolled and cut the last method; the rows, clamped to the header's least section
    size, were also taller than the table made room for (the last 6 px hidden)."""
    i18n.set_language(lang)
    win = MainWindow(LessonState.from_preset("negated-20", t=0.5))
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.resize(*size)
    _settle(qtbot)
    # The editors scroll above the readouts (they do not need to here); the
    # readouts below them never do.
    left = win._side_panels[0].findChild(QtWidgets.QScrollArea)
    assert left is not None and left.isAncestorOf(win.editors[0])
    assert not left.isAncestorOf(win.readouts)
    assert not left.verticalScrollBar().isVisible(), (lang, size)
    table = win.readouts.table
    assert table.viewport().height() >= table.verticalHeader().length(), (lang, size)
    r = win.readouts
    assert r.visibleRegion().boundingRect() == r.rect()
