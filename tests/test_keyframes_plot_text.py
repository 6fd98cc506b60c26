"""The Keyframes tab's plots read from a lecture-hall seat: two y ticks at least.

At 1024x768 and 150 % the turn plot (its curve falling to about -380 degrees)
labelled "0" alone.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PyQt6 import QtWidgets
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
