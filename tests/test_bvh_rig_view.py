"""The Keyframes tab plays a BVH skeleton in 3D: pixels, the wrap's highlighted joint, selection.

GL needs the session's Xvfb (tests/conftest.py). The wrap is LeftHip's
Zrotation between frames 210 and 211 of test_mocapbank.bvh (what
``quatlab check`` reports); pixel oracle: the naive runtime's vermillion
ghost (docs/curves.md) is drawn there and not on a clean frame.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PyQt6 import QtGui, QtWidgets

from quatlab.app.model.state import LessonState
from quatlab.app.qt import keyframes_view as KV
from quatlab.app.qt import window as window_module
from quatlab.app.qt.window import MainWindow

MOCAP = Path(__file__).resolve().parent / "data" / "bvh" / "test_mocapbank.bvh"
FRAME_TIME = 0.033333


def open_in_keyframes_view(qtbot, monkeypatch, path) -> KV.KeyframesView:
    """A shown main window with the Keyframes tab only, ``path`` opened in it."""
    monkeypatch.setattr(window_module, "_view_modules", lambda: [KV], raising=False)
    win = MainWindow(LessonState.from_preset("negated-20", t=0.25))
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    win.show_view("keyframes")
    QtWidgets.QApplication.processEvents()
    v = win.views["keyframes"]
    v.open(path)
    return v


@pytest.fixture
def view(qtbot, monkeypatch) -> KV.KeyframesView:
    v = open_in_keyframes_view(qtbot, monkeypatch, MOCAP)
    assert v.rig_panel.wait_loaded()
    assert v.playback.rig is not None
    QtWidgets.QApplication.processEvents()
    return v


def scene_rgb(view) -> np.ndarray:
    img = view.rig_panel.scene.grabFramebuffer().convertToFormat(QtGui.QImage.Format.Format_RGB888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())
    return rows[:, : 3 * img.width()].reshape(img.height(), img.width(), 3).astype(int)


def naive_pixels(rgb: np.ndarray) -> int:
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return int(np.count_nonzero((r - g > 60) & (g - b > 25) & (r > 150)))


def test_the_skeleton_is_drawn_and_the_wrap_joint_is_highlighted(view):
    pb = view.playback
    rig = pb.rig
    hip = rig.names.index("LeftHip")
    assert pb.fps == 30 and pb.range[1] == pytest.approx(454 * FRAME_TIME)
    pb.set_time(100.5 * FRAME_TIME)  # a clean frame: one skeleton, no ghost
    clean = scene_rgb(view)
    background = np.array(QtGui.QColor("#F5F5F3").getRgb()[:3])
    ink = np.abs(clean - background).max(axis=2) > 60
    ys, xs = np.nonzero(ink)
    assert ink.sum() > 300 and (ys.max() - ys.min()) > 0.2 * ink.shape[0]
    assert not pb.frame().differs
    assert naive_pixels(clean) < 20
    pb.set_time(210.5 * FRAME_TIME)  # across LeftHip's wrap
    frame = pb.frame()
    assert frame.flagged.tolist() == [hip]
    assert frame.local_difference[hip] == pytest.approx(180.0, abs=1.0)
    assert naive_pixels(scene_rgb(view)) > 100
    pb.set_players("spec")
    assert naive_pixels(scene_rgb(view)) < 20


def test_joint_and_track_selection_follow_each_other(view):
    rig = view.playback.rig
    hip = rig.names.index("LeftHip")
    row = next(k for k, t in enumerate(view.model.tracks) if t.node_name == "LeftHip")
    view.track_table.selectRow(row)
    QtWidgets.QApplication.processEvents()
    assert view.playback.selected_node == hip
    assert view.rig_panel.plays_selected()
    item = view.rig_panel.node_list.currentItem()
    assert item is not None and item.text(0).strip().endswith("LeftHip")
    knee = rig.names.index("LeftKnee")
    view.rig_panel.node_list.setCurrentItem(view.rig_panel.node_list.item_of(knee))
    QtWidgets.QApplication.processEvents()
    assert view.model.tracks[view.model.selected_track].node_name == "LeftKnee"
