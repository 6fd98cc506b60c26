"""The endpoint editors' paste field shows its whole example at 1024x768, in English and Chinese.

A line edit elides a placeholder wider than its text rect: "e.g. 0, 0,
0.7071, 0.7…" read as another number on a 1024-px projector. The room is
measured as QLineEdit paints: the style's contents rect, less the text
margins and Qt's 2 px on each side.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from PyQt6 import QtWidgets

from quatlab.app import i18n
from quatlab.app.io.parse import parse_quaternion
from quatlab.app.qt.window import MainWindow

#: QLineEdit's own horizontal margin on each side of its text (qlineedit_p.h).
LINE_EDIT_MARGIN = 2


def _text_room(edit: QtWidgets.QLineEdit) -> int:
    option = QtWidgets.QStyleOptionFrame()
    edit.initStyleOption(option)
    rect = edit.style().subElementRect(QtWidgets.QStyle.SubElement.SE_LineEditContents,
                                       option, edit)
    m = edit.textMargins()
    return rect.width() - m.left() - m.right() - 2 * LINE_EDIT_MARGIN


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1400, 900)])
def test_the_paste_example_is_whole_in_its_field(qtbot, lang, size):
    i18n.set_language(lang)
    win = MainWindow()
    qtbot.addWidget(win)
    win.show_view("main")
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
        qtbot.wait(10)
    assert (win.width(), win.height()) == size
    for editor in win.editors:
        paste = editor.paste
        assert paste.isVisible() and paste.text() == ""
        text = paste.placeholderText()
        assert len(text) > 8, text
        need = paste.fontMetrics().horizontalAdvance(text)
        assert need <= _text_room(paste), (lang, editor.which, text, need, _text_room(paste))
        # The example is one the field takes: four numbers of a unit quaternion.
        numbers = re.findall(r"-?\d+(?:\.\d+)?", text)
        assert len(numbers) == 4, text
        q = parse_quaternion(", ".join(numbers), editor.paste_order.currentText())
        assert np.linalg.norm(q) == pytest.approx(1.0, abs=1e-4)

