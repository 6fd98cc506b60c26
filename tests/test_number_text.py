"""Short component text that fits its field instead of being clipped into another number."""

from __future__ import annotations

import pytest
from PyQt6 import QtWidgets

import quatlab.app.qt.window as window_module
from quatlab.app.model.number_text import FIELD_CHARS, compact_number
from quatlab.app.model.state import LessonState
from quatlab.app.qt.window import MainWindow


@pytest.mark.parametrize("x", [4.4897e-11, -4.4897e-11, 1.234567e-300, 0.7071067811865476,
                               -0.7071067811865476, 1.0, 123456.789, -9.87654e17])
def test_text_fits_and_reads_back_as_the_value(x):
    text = compact_number(x)
    assert len(text) <= FIELD_CHARS
    back = float(text)
    # Five significant digits unless the width forced fewer: never another
    # order of magnitude (the clipped "4.4897e-1" is 10^10 too big).
    assert back == pytest.approx(x, rel=0.05)


def test_zero_of_either_sign_is_plain_zero():
    assert compact_number(0.0) == compact_number(-0.0) == "0"


def _free_pixels(edit: QtWidgets.QLineEdit, text: str) -> float:
    """Room left in ``edit`` for ``text`` (negative: the text is clipped)."""
    margins = edit.textMargins()
    # QLineEdit keeps a 2 px frame margin per side inside its contents rect.
    room = edit.contentsRect().width() - margins.left() - margins.right() - 4
    return room - edit.fontMetrics().horizontalAdvance(text)


def test_box_animated_q1_w_fits_its_field_at_1400x900(qtbot, monkeypatch):
    """The field's width in the window holds the compact text; the 5-digit %g text did not fit."""
    monkeypatch.setattr(window_module, "_view_modules", lambda: [], raising=False)
    win = MainWindow(LessonState.from_preset("gltf-box-animated", t=0.5))
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    qtbot.wait(50)  # the side panels settle their widths after the first layout
    edit = win.findChild(QtWidgets.QLineEdit, "q1_w")
    w = float(LessonState.from_preset("gltf-box-animated").entered(1)[0])
    assert w == pytest.approx(4.4897e-11, rel=1e-4)
    # The defect: "4.4897e-11" was clipped in the field's width then; the
    # endpoint column is wider now, so the fix is checked as narrower text.
    metrics = edit.fontMetrics()
    assert metrics.horizontalAdvance(edit.text()) < metrics.horizontalAdvance(f"{w:.5g}")
    # The fix: what the field shows is whole and keeps the exponent.
    assert edit.text().endswith("e-11") and float(edit.text()) == pytest.approx(w, rel=0.02)
    assert _free_pixels(edit, edit.text()) >= 0
