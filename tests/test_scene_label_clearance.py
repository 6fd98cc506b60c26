"""3D labels keep clear of everything the scene draws near them, not only the chains.

Geometry at 1280 x 720: every label plate the last frame drew is tested
against the projected segments of what the GL items hold (the turn axis
arrow and arc, the trails and their ticks, the joint gizmos) and of the
ghost chains worked out from the endpoints with
:func:`~quatlab.rendering.chain.chain_frames`. The "170.0°" angle label was
crossed by the turn axis arrow, "t = 0" sat on the ghosts, and the wrap
lesson's chain labels sat on the tip circles.
"""

from __future__ import annotations

import numpy as np
import pytest
from PyQt6 import QtWidgets
from test_lesson_scene_layout import segment_hits_rect
from test_scene_explains import _projector
from test_scene_gl import _grab

from quatlab.app.model.wrap_lesson import PRESETS as WRAP_PRESETS
from quatlab.app.qt.window import MainWindow
from quatlab.math import quaternion as Q
from quatlab.rendering.chain import chain_frames

pytestmark = pytest.mark.gl

SIZE = (1280, 720)


def _pairs(item) -> list[np.ndarray]:
    """A shown GL ``'lines'`` item's segments, world."""
    if item is None or not item.visible() or item.pos is None or not len(item.pos):
        return []
    v = np.asarray(item.pos, dtype=np.float64).reshape(-1, 2, 3)
    return list(v)


def _drawn_segments(scene) -> dict[str, list[np.ndarray]]:
    out: dict[str, list[np.ndarray]] = {"turn": [], "trail": [], "gizmo": []}
    for chain in scene._chains.values():
        out["turn"] += _pairs(chain.turn)
        out["trail"] += _pairs(chain.trail)
        out["gizmo"] += _pairs(chain.gizmo)
    return out


def _ghost_segments(q_ends, root_only: bool) -> list[np.ndarray]:
    """The ghost chains at t = 0 and 1: joint to joint and up to the hand (0.38 along z)."""
    segs = []
    for q in q_ends:
        joints, rotations = chain_frames(q, root_only=root_only)
        hand = joints[-1] + Q.rotate_vector(rotations[-1], [0.0, 0.0, 0.38])
        line = np.vstack([joints, hand])
        segs += [line[k:k + 2] for k in range(len(line) - 1)]
    return segs


def _assert_clear(scene, segments: dict[str, list[np.ndarray]], where) -> int:
    placed = scene.placed_labels()
    assert placed, ("no label drawn", where)
    to_px = _projector(scene)
    checked = 0
    for kind, segs in segments.items():
        for seg in segs:
            a, b = to_px(seg)
            checked += 1
            for text, rect in placed:
                assert not segment_hits_rect(a, b, rect), (where, kind, text, a, b, rect)
    return checked


@pytest.mark.parametrize("preset", ["negated-20", "small-1"])
def test_main_lesson_labels_clear_the_turn_marks_ghosts_and_trails(main_window, preset):
    win = main_window(preset, 0.5, SIZE)
    scene, s = win.lesson.scene, win.state
    for t in (0.5, 0.0, 1.0):
        s.set_t(t)
        _grab(scene)
        texts = [text for text, _ in scene.placed_labels()]
        if t == 0.5 and preset == "negated-20":
            assert {"170.0°", "10.0°", "t = 0", "t = 1"} <= set(texts), texts
        segments = _drawn_segments(scene)
        if any(lb.visible for lb in scene._ghost_labels):
            segments["ghost"] = _ghost_segments([s.q0, s.q1], s.root_only)
        assert segments["turn"] and segments["trail"], (preset, t)
        _assert_clear(scene, segments, (preset, t))


@pytest.mark.parametrize("preset", list(WRAP_PRESETS))
def test_wrap_lesson_labels_clear_the_tip_circles(qtbot, preset):
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(*SIZE)
    win.show_view("wrap")
    win.show()
    qtbot.waitExposed(win)
    view = win.views["wrap"]
    qtbot.waitUntil(view.scene.isValid)
    view.model.set_preset(preset)
    for param in (0.35, 0.0, 1.0):
        view.model.set_param(param)
        QtWidgets.QApplication.processEvents()
        _grab(view.scene)
        segments = _drawn_segments(view.scene)
        assert len(segments["trail"]) > 50
        _assert_clear(view.scene, segments, (preset, param))
