"""The rig view's error you can read: the error curve, the 3D label, omega, callouts (Xvfb).

Oracles: the 3D view's own label for a joint (its text, and the frame's
difference angle it is made from) for the error curve at the cursor; the
plot's geometry for the callouts (their box against the plot's).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from PyQt6 import QtWidgets

from quatlab.app.qt import keyframes_view as KV

DATA = Path(__file__).resolve().parent / "data"
TRUCK = DATA / "gltf" / "CesiumMilkTruck.glb"
ROBOT = DATA / "gltf" / "RobotExpressive.glb"


@pytest.fixture
def view(keyframes_window) -> KV.KeyframesView:
    return keyframes_window.views["keyframes"]


def open_rig(view, path) -> None:
    view.open(path)
    assert view.rig_panel.wait_loaded()
    QtWidgets.QApplication.processEvents()


def flagged_segment(view, track: int) -> tuple[float, float]:
    seg = view.model.segments(track)
    (k,) = np.flatnonzero(seg.levels == "sign_flip")[:1]
    return float(seg.t0[k]), float(seg.t1[k])


def label_angle(view, name: str) -> float:
    """The angle the 3D view writes beside joint ``name`` ("Wheels: 162°")."""
    for label in view.rig_panel.scene.label_layer.labels:
        m = re.fullmatch(re.escape(name) + r": (\d+)°", label.text)
        if m:
            return float(m.group(1))
    raise AssertionError(f"no angle label for {name}")


def error_dot(view) -> float:
    dots = view.rig_panel.curves._dots["speed"]
    (y,) = dots.data["y"]
    return float(y)


@pytest.mark.parametrize("path, node", [(TRUCK, "Wheels"), (ROBOT, "Head")])
def test_the_error_curve_at_the_cursor_is_the_3d_labels_angle(view, path, node):
    open_rig(view, path)
    track = next(k for k, tr in enumerate(view.model.tracks)
                 if tr.node_name == node and view.model.findings(k))
    view.model.select_track(track)
    view.rig_panel.wait_loaded()
    pb = view.playback
    t0, t1 = flagged_segment(view, track)
    rig = pb.rig
    n = int(rig.rig_index[view.model.tracks[track].node_index])
    for u in (0.2, 0.45, 0.7):
        pb.set_time(t0 + u * (t1 - t0))
        QtWidgets.QApplication.processEvents()
        shown = pb.frame().local_difference[n]
        assert error_dot(view) == pytest.approx(shown, abs=1e-9)
        assert round(error_dot(view)) == label_angle(view, node)
        # The curve itself, as the hover readout reads it at the cursor, says the
        # same to its sampling (the error is steep in a flipped segment).
        values = view.rig_panel.curves.inspector.values_at("speed", pb.time)
        error = next(v for label, _, v in values if label == "angle apart")
        assert error == pytest.approx(shown, abs=1.0)
