"""The Keyframes tab plays an FBX rig in 3D: the skinned character drawn, players, selection.

GL needs the session's Xvfb (tests/conftest.py). Pixel oracle: the scene
has ink where the skinned Kenney character stands, and the extrapolated
cube's naive ghost changes the picture where the two players part (3.07 s,
what the model flags) and not where they agree (a key).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from PyQt6 import QtGui, QtWidgets

from quatlab.app.qt import keyframes_view as KV

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_bvh_rig_view import open_in_keyframes_view, scene_rgb  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "fbx"


def _open(qtbot, monkeypatch, path) -> KV.KeyframesView:
    view = open_in_keyframes_view(qtbot, monkeypatch, path)
    assert view.rig_panel.wait_loaded()
    assert view.playback.rig is not None
    QtWidgets.QApplication.processEvents()
    return view


def test_the_skinned_character_is_drawn_and_selection_runs_both_ways(qtbot, monkeypatch):
    view = _open(qtbot, monkeypatch, DATA / "maya_kenney_character_7700_binary.fbx")
    pb = view.playback
    assert pb.fps == 24.0 and len(view.model.tracks) == 46
    assert pb.rig.meshes[0].skin == 0
    background = np.array(QtGui.QColor("#F5F5F3").getRgb()[:3])
    ink = np.abs(scene_rgb(view) - background).max(axis=2) > 60
    ys, _xs = np.nonzero(ink)
    assert ink.sum() > 2000 and (ys.max() - ys.min()) > 0.3 * ink.shape[0]
    row = next(k for k, t in enumerate(view.model.tracks) if t.node_name == "RightLeg")
    view.track_table.selectRow(row)
    QtWidgets.QApplication.processEvents()
    assert pb.rig.names[pb.selected_node] == "RightLeg"
    arm = pb.rig.names.index("LeftArm")
    tree = view.rig_panel.node_list
    tree.setCurrentItem(tree.item_of(arm))
    QtWidgets.QApplication.processEvents()
    assert view.model.tracks[view.model.selected_track].node_name == "LeftArm"


def test_the_naive_ghost_shows_where_the_players_part(qtbot, monkeypatch):
    view = _open(qtbot, monkeypatch, DATA / "maya_extrapolate_cube_7700_binary.fbx")
    pb = view.playback
    key = float(pb.animation.channels[0].times[3])
    pb.set_time(key)
    assert not pb.frame().differs
    both_at_key = scene_rgb(view)
    pb.set_players("spec")
    assert np.abs(scene_rgb(view) - both_at_key).max() < 40   # the ghost hides in the cube
    pb.set_players("both")
    pb.set_time(3.07)
    frame = pb.frame()
    assert frame.flagged.tolist() == [0] and frame.local_difference[0] == pytest.approx(173, abs=2)
    both = scene_rgb(view)
    pb.set_players("spec")
    changed = np.abs(scene_rgb(view) - both).max(axis=2) > 40
    assert changed.sum() > 200


def test_file_compare_with_shows_the_report(qtbot, monkeypatch):
    """File > Compare with…: the open FBX against its FBX2glTF conversion, the conversion named."""
    from quatlab.app.qt.compare_dialog import compare_with

    view = _open(qtbot, monkeypatch, DATA / "maya_kenney_character_7700_binary.fbx")
    win = view.window()
    actions = [a.text() for a in win.menuBar().actions()[0].menu().actions()]
    assert actions[:2] == ["Open keyframes…", "Compare with…"]
    dialog = compare_with(win, DATA / "converted" /
                          "maya_kenney_character_7700_binary.fbx2gltf.glb")
    qtbot.waitExposed(dialog)
    text = dialog.text.toPlainText()
    assert "LeftHeelRoll" in text and "a sign flip introduced by the conversion" in text
    assert text.splitlines()[-1].startswith("8 departures: 8 introduced by the conversion")
