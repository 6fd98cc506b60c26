"""The Keyframes tab plays a USD stage: skinned meshes and skeletons, both players, selection.

GL needs the session's Xvfb (tests/conftest.py). The file is the long shared
animation; its LeftArm rotation flips sign between samples 37 and 38 (what
``quatlab check`` reports). Pixel oracle as for BVH: the naive runtime's
vermillion ghost is drawn across the flip and not on a clean stretch (no joint
flagged, no parted segment near).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pxr")
from PyQt6 import QtGui, QtWidgets  # noqa: E402
from test_rig_view import naive_pixels, scene_rgb  # noqa: E402 - the glTF view's pixel helpers

from quatlab.app.qt import keyframes_view as KV  # noqa: E402

ELEPHANT = Path(__file__).resolve().parent / "data" / "usd" / "SoC-ElephantWithMonochord.usdc"


@pytest.fixture
def view(keyframes_window, qtbot) -> KV.KeyframesView:
    v = keyframes_window.views["keyframes"]
    v.open(ELEPHANT)
    qtbot.waitUntil(lambda: v.model.file is not None, timeout=60000)
    assert v.rig_panel.wait_loaded()
    assert v.playback.rig is not None
    QtWidgets.QApplication.processEvents()
    return v


def test_the_stage_plays_skinned_and_the_flip_shows(view):
    pb, model = view.playback, view.model
    arm = next(i for i, t in enumerate(model.tracks)
               if t.node_name == "mixamorig_LeftArm" and t.animation.endswith("Elefant/_anim"
                                                                              ".rotations"))
    track = model.tracks[arm]
    node = track.node_index
    assert pb.rig.names[node] == "mixamorig_LeftArm"
    assert len(pb.rig.meshes) == 3 and sum(m.skin is not None for m in pb.rig.meshes) == 2
    # A clean time: no joint flagged and no parted segment near (whose naive
    # onion skin would be drawn; the elephant has 84 flips).
    panel = view.rig_panel
    for k in range(100, len(track.times) - 1):
        pb.set_time(0.5 * (track.times[k] + track.times[k + 1]))
        if not len(pb.frame().flagged) and not panel.sweeps_now():
            break
    else:
        pytest.fail("no clean time after key 100")
    rgb = scene_rgb(view)
    background = np.array(QtGui.QColor("#F5F5F3").getRgb()[:3])
    ink = np.abs(rgb - background).max(axis=2) > 60
    ys, _xs = np.nonzero(ink)
    assert ink.sum() > 2000 and (ys.max() - ys.min()) > 0.2 * ink.shape[0]
    assert node not in pb.frame().flagged.tolist()
    pb.set_time(0.5 * (track.times[37] + track.times[38]))   # across the flip
    frame = pb.frame()
    assert node in frame.flagged.tolist()
    assert naive_pixels(scene_rgb(view)) > naive_pixels(rgb) + 50
    # Selection both ways: the track's row selects its joint, the joint's row its track.
    view.track_table.selectRow(arm)
    QtWidgets.QApplication.processEvents()
    assert pb.selected_node == node and view.rig_panel.plays_selected()
    hips = next(i for i, t in enumerate(model.tracks) if t.node_name == "mixamorig_Hips")
    tree = view.rig_panel.node_list
    tree.setCurrentItem(tree.item_of(int(model.tracks[hips].node_index)))
    QtWidgets.QApplication.processEvents()
    assert model.selected_track == hips
