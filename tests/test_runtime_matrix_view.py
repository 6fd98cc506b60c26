"""Keyframes tab > Runtimes…: the findings x runtimes table of the open file, in a window.

AnimatedTriangle's keys 3 -> 4 are -90 deg about z stored as (w, x, y, z) =
(-0.707, 0, 0, 0.707), then the identity: a sign flip. Worked by hand: the glTF
reference player turns the short 90 deg; a runtime that blends the stored
components (NLERP, no sign check) passes through 135 deg about z half-way,
where the reference is at -45 deg: 180 deg apart, so its cell is near 180 and
marked, the reference's own cell 0.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PyQt6 import QtCore

from quatlab.app.qt import keyframes_view as KV
from quatlab.app.qt.runtime_matrix_view import cell_text
from quatlab.math import runtimes as R

pytestmark = pytest.mark.gl

TRIANGLE = Path(__file__).resolve().parent / "data" / "gltf" / "AnimatedTriangle.gltf"


@pytest.fixture
def view(keyframes_window, qtbot) -> KV.KeyframesView:
    v = keyframes_window.views["keyframes"]
    assert not v.runtimes_button.isEnabled()  # nothing open yet
    assert v.show_runtimes() is None
    v.open(TRIANGLE)
    qtbot.waitUntil(lambda: v.model.file is not None, timeout=30000)
    return v


def _column(dialog, runtime: str) -> int:
    t = dialog.table
    heads = [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())]
    return heads.index(runtime)


def test_the_flip_row_names_the_runtimes_that_turn_the_long_way(view, qtbot):
    assert view.runtimes_button.isEnabled()
    qtbot.mouseClick(view.runtimes_button, QtCore.Qt.MouseButton.LeftButton)
    dialog = view.findChild(QtCore.QObject, "kf_runtime_matrix")
    assert dialog is not None and dialog.isVisible()
    t = dialog.table
    rows = [r for r in range(t.rowCount()) if t.item(r, 2).text() == "3–4"]
    assert len(rows) == 1, [t.item(r, 2).text() for r in range(t.rowCount())]
    r = rows[0]
    assert t.item(r, 1).text() == "sign flip"
    nlerp = t.item(r, _column(dialog, "nlerp"))
    assert 150.0 < float(nlerp.text().rstrip("°")) <= 180.0
    assert nlerp.font().bold()  # marked: at least GLITCH_DEG off
    reference = t.item(r, _column(dialog, "gltf"))
    assert reference.text() == "0.0°" and not reference.font().bold()
    # The summary names the glitching runtimes by their labels.
    assert R.runtime("nlerp").label in dialog.summary.text()


def test_a_double_click_goes_to_the_rows_track_and_segment(view, qtbot):
    dialog = view.show_runtimes()
    t = dialog.table
    r = next(r for r in range(t.rowCount()) if t.item(r, 2).text() == "3–4")
    view.model.select_segment(0, lesson=False)
    t.cellDoubleClicked.emit(r, 0)
    assert view.model.selected_track == 0 and view.model.selected_segment == 3


def test_a_cell_that_could_not_be_measured_is_a_dash():
    assert cell_text(None) == "—" and cell_text(12.345) == "12.3°"
