"""Playback allocates nothing that stays: after warm-up, the items and objects do not grow.

Resident memory over ten minutes of playback is measured by
benchmarks/bench_playback_memory.py; this test checks the cause it guards
against, per frame, without timing: the plots' and the 3D scene's items and
Python's tracked objects must not grow with the number of frames played.
"""

from __future__ import annotations

import gc

import pyqtgraph as pg
import pytest

from quatlab.app.qt.window import MainWindow


def _counts(win) -> dict[str, int]:
    gc.collect()
    lesson = win.lesson
    return {
        "objects": len(gc.get_objects()),
        "plot items": sum(len(p.items) for p in lesson.plots.plots.values()),
        "graphics scene items": len(lesson.plots.findChild(pg.GraphicsLayoutWidget).items()),
        "3D items": len(lesson.scene.items),
        # The cursor dots' symbol atlas: one pixmap per distinct (pen, brush)
        # object; a brush made per frame added one per frame (1.5-2 MB a minute).
        "dot atlas entries": sum(len(d.fragmentAtlas) for d in lesson.plots._dots.values()),
    }


@pytest.mark.parametrize("mode", ["ping-pong", "loop"])
def test_frames_of_playback_leave_nothing_behind(qtbot, mode):
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    qtbot.waitExposed(win)
    scrubber = win.lesson.scrubber
    scrubber.mode.setCurrentText(mode)
    app = pg.QtWidgets.QApplication.instance()

    def play(frames):
        for _ in range(frames):
            scrubber.advance(0.016)
            app.processEvents()

    play(150)  # warm-up: caches, glyphs, the first bounce
    before = _counts(win)
    t_before = win.state.t
    play(300)  # more than a whole sweep each way
    after = _counts(win)
    assert win.state.t != t_before or mode == "loop"  # it did play
    for name in ("plot items", "graphics scene items", "3D items", "dot atlas entries"):
        assert after[name] == before[name], (name, before[name], after[name])
    # A few objects come and go with the event loop; one per frame would be 300.
    assert after["objects"] - before["objects"] < 60, (before["objects"], after["objects"])
