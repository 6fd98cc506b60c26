"""The Keyframes tab's plots read from a lecture-hall seat: two y ticks at least, titles full size.

At 1024x768 and 150 % the turn plot (its curve falling to about -380 degrees)
labelled "0" alone, and the stored keys' axis titles and the timeline's
"time (s)" stayed Qt's 9 pt at every zoom: 7-px letters beside titles of 16.5 pt.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PyQt6 import QtGui, QtWidgets
from text_layout import tick_text_rects

ROBOT = Path(__file__).parent / "data" / "gltf" / "RobotExpressive.glb"


@pytest.fixture
def robot_panel(qtbot, request):
    """The Keyframes tab with RobotExpressive open, as ``quatlab screenshot`` draws it."""
    from quatlab.app import i18n
    from quatlab.app.commands.screenshot import lesson_state, show_window

    lang, size, scale = request.param
    i18n.set_language(lang)
    try:
        (win, _img), problem = show_window(lesson_state("keyframes", None, None), "keyframes",
                                           size, open_file=ROBOT, scale=scale)
        assert problem is None
        qtbot.addWidget(win)
        view = win.views["keyframes"]
        assert view.rig_panel.wait_loaded()
        for _ in range(6):
            QtWidgets.QApplication.processEvents()
            qtbot.wait(15)
        yield view
    finally:
        i18n.set_language("en")
        win.set_zoom(1.0)


PROJECTOR = [("en", (1024, 768), 1.5), ("zh_CN", (1024, 768), 1.5)]
SETTINGS = [*PROJECTOR, ("en", (1280, 720), 1.0), ("zh_CN", (1280, 720), 1.0)]


def _shown_ticks(axis):
    """The tick labels the axis draws, inside the rect it paints, with their scene rects."""
    bounds = axis.mapRectToScene(axis.boundingRect())
    return [(rect, text) for rect, text in tick_text_rects(axis)
            if text and bounds.contains(rect)]


@pytest.mark.parametrize("robot_panel", PROJECTOR, indirect=True)
def test_the_turn_and_error_plots_label_two_ticks_that_do_not_meet(robot_panel):
    curves = robot_panel.rig_panel.curves
    turn = curves.plots["angle"]
    # The spec player's curve falls far below zero: the scale must say how far.
    low = min(float(np.nanmin(c.yData)) for c in turn.listDataItems()
              if getattr(c, "yData", None) is not None and c.yData.size)
    assert low < -300, low
    for name in ("angle", "speed"):
        ticks = _shown_ticks(curves.plots[name].getAxis("left"))
        assert len(ticks) >= 2, (name, [t for _r, t in ticks])
        ticks.sort(key=lambda rt: rt[0].top())
        for (upper, a), (lower, b) in zip(ticks, ticks[1:], strict=False):
            # One over the other with room between them, and in order of value.
            assert lower.top() - upper.bottom() >= 0.25 * upper.height(), (name, a, b)
            assert float(a.replace("−", "-")) > float(b.replace("−", "-")), (name, a, b)
    values = [float(t.replace("−", "-")) for _r, t in _shown_ticks(turn.getAxis("left"))]
    assert min(values) < 0, values  # a label on the curve's way down, not "0" alone


def _title_px(axis) -> int:
    """The pixel size of the font the axis title is drawn in (its label's text)."""
    cursor = QtGui.QTextCursor(axis.label.document())
    cursor.setPosition(1)
    return QtGui.QFontInfo(cursor.charFormat().font()).pixelSize()


@pytest.mark.parametrize("robot_panel", SETTINGS, indirect=True)
def test_the_stored_keys_and_timeline_titles_are_as_large_as_the_turn_plots(robot_panel):
    panel = robot_panel.rig_panel
    turn = panel.curves.plots["angle"].getAxis("left")
    assert turn.label.isVisible()
    size = _title_px(turn)
    stored = panel.components.getPlotItem()
    left = stored.getAxis("left")
    shown = left.label.toPlainText()
    assert left.label.isVisible() and "…" not in shown, shown
    assert _title_px(left) >= size, (_title_px(left), size)
    bottom = stored.getAxis("bottom")
    if bottom.label.isVisible():
        assert _title_px(bottom) >= size, (_title_px(bottom), size)
    else:  # beside the 3D view: the turn plot right below says "time (s)"
        beside = panel.plot_tabs.mapToGlobal(panel.plot_tabs.rect().bottomLeft()).y()
        below = panel.curves.mapToGlobal(panel.curves.rect().topLeft()).y()
        assert below >= beside and panel.curves.plots["angle"].getAxis("bottom").label.isVisible()
    timeline = robot_panel.findChild(QtWidgets.QWidget, "timeline")
    axis = timeline.getPlotItem().getAxis("bottom")
    assert axis.label.isVisible()
    assert _title_px(axis) >= size, (_title_px(axis), size)
