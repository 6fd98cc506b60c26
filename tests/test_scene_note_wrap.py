"""Notes pinned to the 3D view wrap to its width and stay inside it.

With the ``q-to-minus-q`` preset at 1024x768 the naive SLERP note ("... no
unique arc") ran past the view's right edge and was cut.
"""

from __future__ import annotations

import pytest
from PyQt6 import QtCore, QtWidgets

from quatlab.app.commands.screenshot import render_window
from quatlab.app.model.state import LessonState
from quatlab.app.qt.window import MainWindow

pytestmark = pytest.mark.gl


@pytest.mark.parametrize("zoom", [1.0, 1.3])
def test_pinned_note_lies_inside_the_view(qtbot, zoom):
    win = MainWindow(LessonState.from_preset("q-to-minus-q"))
    qtbot.addWidget(win)
    win.set_zoom(zoom)
    scene = win.lesson.scene
    for size in ((1024, 768), (1280, 720)):
        render_window(win, size)
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        notes = scene.notes()
        assert any("no unique arc" in n for n in notes), notes
        scene.grabFramebuffer()  # a paint, so the labels are placed at this size
        placed = dict(scene.placed_labels())
        view = QtCore.QRectF(0.0, 0.0, scene.width(), scene.height())
        for note in notes:
            assert note in placed, (note, list(placed))
            assert view.contains(placed[note]), (size, zoom, note, placed[note], view)
