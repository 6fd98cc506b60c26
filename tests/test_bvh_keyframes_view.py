"""The Keyframes tab opens a BVH unchanged: one row per joint, the converted sign flips flagged."""

from __future__ import annotations

import numpy as np
from bvh_oracle import MOCAPBANK, rotation_columns
from PyQt6 import QtCore, QtWidgets

from quatlab.app.qt import timeline as TL


def test_keyframes_tab_lists_the_bvh_joints(keyframes_window):
    win = keyframes_window
    view = win.views["keyframes"]
    view.open(MOCAPBANK)
    QtWidgets.QApplication.processEvents()
    joints = list(rotation_columns(MOCAPBANK))
    assert view.track_model.rowCount() == len(joints) == 19
    table = view.track_table
    row = joints.index("LeftHip")
    texts = [table.model().index(row, c).data() for c in range(5)]
    assert texts[1] == f"LeftHip (#{row})" and texts[2:4] == ["LINEAR", "455"]
    assert "sign flip" in texts[4]
    tint = table.model().index(row, 0).data(QtCore.Qt.ItemDataRole.BackgroundRole)
    assert tint.color().name().upper() == TL.ROW_TINT["sign_flip"].upper()
    # The segment table of the selected joint has the converted flip at 210 -> 211.
    assert view.model.tracks[view.model.selected_track].node_name == "LeftHip"
    seg = view.segment_model
    assert seg.rowCount() == 454
    assert seg.index(210, 0).data() == "210 → 211"
    assert float(seg.index(210, 3).data()) < 0
    assert np.isclose(float(seg.index(210, 1).data()), 210 * 0.033333, atol=1e-3)
