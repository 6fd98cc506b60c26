"""The two-key lesson's left panel shows its editors' "−q" buttons whole at any zoom.

At 1024x768 and 130 % the panel kept the minimum width it took at 100 %
(305 px) while its content needed 344 px; with no horizontal scroll bar the
"−q" column was cut off at the panel's right edge.
"""

from __future__ import annotations

import pytest
from PyQt6 import QtCore, QtWidgets

from quatlab.app.commands.screenshot import render_window
from quatlab.app.model.state import LessonState
from quatlab.app.qt.window import MainWindow

pytestmark = pytest.mark.gl


@pytest.mark.parametrize("zoom", [1.0, 1.3])
def test_negate_buttons_lie_inside_the_visible_panel(qtbot, zoom):
    win = MainWindow(LessonState.from_preset("negated-20"))
    qtbot.addWidget(win)
    win.set_zoom(zoom)
    for size in ((1280, 720), (1024, 768)):
        render_window(win, size)
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        for editor in win.editors:
            button = editor.negate_button
            scroll = editor.parentWidget().parentWidget().parentWidget()
            assert isinstance(scroll, QtWidgets.QScrollArea)
            port = scroll.viewport()
            rect = QtCore.QRect(button.mapTo(port, QtCore.QPoint(0, 0)), button.size())
            # Whole across (vertical scrolling may bring it into view).
            assert 0 <= rect.left() and rect.right() <= port.width() - 1, (size, zoom, rect,
                                                                           port.width())
            in_win = QtCore.QRect(button.mapTo(win, QtCore.QPoint(0, 0)), button.size())
            assert in_win.right() < win.width() and in_win.left() >= 0


def test_the_two_key_lesson_does_not_scroll_sideways_at_130_percent(qtbot):
    """With the left panel as wide as its content (360 px at 130 % on a 1024-px
    screen) the lesson got 486 px, and its toolbar legend, one 474-px label, made
    the tab scroll sideways."""
    win = MainWindow(LessonState.from_preset("negated-20"))
    qtbot.addWidget(win)
    win.set_zoom(1.3)
    render_window(win, (1024, 768))
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
    page = win.tabs.currentWidget()
    assert page.widget() is win.lesson
    assert not page.horizontalScrollBar().isVisible()
    assert win.lesson.width() <= page.viewport().width()
